//! Import a BattleScribe roster (`.ros` XML, or `.rosz`: the same zipped) into a Vedette
//! roster, keeping each unit's Black Powder stat line and special rules.
//!
//! What is read of the roster schema: `<roster>` → `<forces>` → `<force catalogueName=…>` (an
//! army: a side) → nested `<selections>` of `<selection name=… number=… type=…>`, each with
//! `<profiles>` of `<profile typeName=…>` holding `<characteristics>` of `<characteristic
//! name=…>value</characteristic>`, `<rules>` of `<rule name=…>` and `<categories>`. A selection
//! whose profile has the Black Powder columns (Hand-to-Hand, Shooting, Morale, Stamina, and
//! Type, Armament, Special when present) is a unit; one with a Staff Rating (or a profile
//! typed Commander) is a commander; a selection holding units without being one is a
//! brigade. Everything else (costs, upgrades) is ignored.
//!
//! BattleScribe knows nothing of bases, so each unit gets one movement tray of a size typical
//! for its kind and the next free tag, centred: edit the stands to match your bases.

use std::io::Read;
use std::path::{Path, PathBuf};

use roxmltree::{Document, Node};
use rules::scene::{Side, StatLine, UnitKind};

use crate::{Roster, RosterBrigade, RosterCommander, RosterStand, RosterUnit, TagDefaults};

/// What can be wrong with a BattleScribe file, naming the element at fault.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The file could not be read.
    #[error("{}: cannot read: {reason}", file.display())]
    Read {
        /// The file.
        file: PathBuf,
        /// Why.
        reason: String,
    },
    /// A `.rosz` that is not a zip holding a `.ros`.
    #[error("{}: not a BattleScribe .rosz (a zip holding a .ros file): {reason}", file.display())]
    Zip {
        /// The file.
        file: PathBuf,
        /// Why.
        reason: String,
    },
    /// Not well-formed XML.
    #[error("{}: not well-formed XML: {reason}", file.display())]
    Xml {
        /// The file.
        file: PathBuf,
        /// The parser's message, with line and column.
        reason: String,
    },
    /// An element that does not say what a roster must.
    #[error("{}: line {line}: {element}: {message}", file.display())]
    Element {
        /// The file.
        file: PathBuf,
        /// Its line.
        line: u32,
        /// The element, as written: `<profile name="45th Foot">`.
        element: String,
        /// What is wrong.
        message: String,
    },
}

/// Import options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImportOptions {
    /// The first tag to hand out.
    pub first_tag: u32,
    /// Tag size and height for every stand.
    pub tags: TagDefaults,
}

impl Default for ImportOptions {
    fn default() -> ImportOptions {
        ImportOptions {
            first_tag: 10,
            tags: TagDefaults::default(),
        }
    }
}

/// Read a `.ros` or `.rosz` file.
pub fn import_file(path: &Path, options: ImportOptions) -> Result<Roster, ImportError> {
    let bytes = std::fs::read(path).map_err(|e| ImportError::Read {
        file: path.to_owned(),
        reason: e.to_string(),
    })?;
    let zipped = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("rosz"));
    let xml = if zipped {
        unzip(&bytes, path)?
    } else {
        String::from_utf8(bytes).map_err(|e| ImportError::Xml {
            file: path.to_owned(),
            reason: e.to_string(),
        })?
    };
    import_xml(&xml, path, options)
}

/// The `.ros` inside a `.rosz`.
fn unzip(bytes: &[u8], path: &Path) -> Result<String, ImportError> {
    let zip_error = |reason: String| ImportError::Zip {
        file: path.to_owned(),
        reason,
    };
    let mut archive =
        zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| zip_error(e.to_string()))?;
    for index in 0..archive.len() {
        let mut entry = archive
            .by_index(index)
            .map_err(|e| zip_error(e.to_string()))?;
        let name = entry
            .name()
            .map_err(|e| zip_error(e.to_string()))?
            .into_owned();
        if !name.to_ascii_lowercase().ends_with(".ros") {
            continue;
        }
        let mut xml = String::new();
        entry
            .read_to_string(&mut xml)
            .map_err(|e| zip_error(format!("{name}: {e}")))?;
        return Ok(xml);
    }
    Err(zip_error("it holds no .ros file".into()))
}

/// Parse a roster's XML; `path` names it in errors.
pub fn import_xml(xml: &str, path: &Path, options: ImportOptions) -> Result<Roster, ImportError> {
    let doc = Document::parse(xml).map_err(|e| ImportError::Xml {
        file: path.to_owned(),
        reason: e.to_string(),
    })?;
    let reader = Reader { doc: &doc, path };
    let root = doc.root_element();
    if root.tag_name().name() != "roster" {
        return Err(reader.error(
            root,
            "the root element must be <roster>: is this a BattleScribe roster (.ros)?",
        ));
    }
    let mut army = Army {
        roster: Roster {
            ruleset: rules::RulesetId::BlackPowder,
            tags: options.tags,
            sides: Vec::new(),
            brigades: Vec::new(),
            units: Vec::new(),
            commanders: Vec::new(),
        },
        next_tag: options.first_tag,
    };
    let forces: Vec<Node> = children(root, "forces")
        .flat_map(|f| children(f, "force"))
        .collect();
    if forces.is_empty() {
        return Err(reader.error(root, "it has no <forces><force>: an empty roster"));
    }
    for force in forces {
        let name = force
            .attribute("catalogueName")
            .or_else(|| force.attribute("name"))
            .ok_or_else(|| reader.error(force, "no catalogueName or name: which army is it?"))?;
        let side = unique_id(&slug(name), army.roster.sides.iter().map(|s| s.id.as_str()));
        army.roster.sides.push(Side {
            id: side.clone(),
            name: Some(name.to_owned()),
            staff_rating: None,
            home_edge: None,
        });
        for selection in selections(force) {
            reader.selection(selection, &side, None, &mut army)?;
        }
    }
    if army.roster.units.is_empty() {
        return Err(reader.error(
            root,
            "no selection has a Black Powder profile (Hand-to-Hand, Shooting, Morale, Stamina)",
        ));
    }
    Ok(army.roster)
}

struct Army {
    roster: Roster,
    next_tag: u32,
}

impl Army {
    fn take_tag(&mut self) -> u32 {
        self.next_tag += 1;
        self.next_tag - 1
    }
}

struct Reader<'a, 'input> {
    doc: &'a Document<'input>,
    path: &'a Path,
}

/// The columns of a Black Powder unit profile.
const UNIT_COLUMNS: [&str; 4] = ["Hand-to-Hand", "Shooting", "Morale", "Stamina"];

impl Reader<'_, '_> {
    fn error(&self, node: Node, message: impl Into<String>) -> ImportError {
        ImportError::Element {
            file: self.path.to_owned(),
            line: self.doc.text_pos_at(node.range().start).row,
            element: describe(node),
            message: message.into(),
        }
    }

    fn selection(
        &self,
        node: Node,
        side: &str,
        brigade: Option<&str>,
        army: &mut Army,
    ) -> Result<(), ImportError> {
        let name = node
            .attribute("customName")
            .or_else(|| node.attribute("name"))
            .ok_or_else(|| self.error(node, "no name"))?;
        let count = match node.attribute("number") {
            None => 1,
            Some(n) => n
                .parse::<u32>()
                .map_err(|_| self.error(node, format!("number {n:?} is not a whole number")))?,
        };
        let profiles: Vec<Node> = children(node, "profiles")
            .flat_map(|p| children(p, "profile"))
            .collect();
        if let Some(profile) = profiles.iter().find(|p| is_unit_profile(p)) {
            for copy in 0..count {
                let unit = self.unit(node, *profile, name, copy, side, brigade, army)?;
                army.roster.units.push(unit);
            }
            return Ok(());
        }
        if let Some(profile) = profiles.iter().find(|p| is_commander_profile(p)) {
            let staff = characteristic(*profile, "Staff Rating")
                .map(|c| {
                    let text = c.text().unwrap_or("").trim();
                    text.parse::<u8>().map_err(|_| {
                        self.error(c, format!("{text:?} is not a staff rating (5–10)"))
                    })
                })
                .transpose()?;
            let id = unique_id(
                &slug(name),
                army.roster.commanders.iter().map(|c| c.id.as_str()),
            );
            let tag = army.take_tag();
            army.roster.commanders.push(RosterCommander {
                id,
                name: Some(name.to_owned()),
                side: side.to_owned(),
                brigade: brigade.map(str::to_owned),
                mounted: None,
                staff_rating: staff,
                tag,
                tag_size: None,
                tag_height: None,
            });
        }
        // A selection holding units is a brigade (unless it sits inside one already).
        let inner: Vec<Node> = selections(node).collect();
        let holds_units = node
            .descendants()
            .skip(1)
            .any(|n| n.has_tag_name_local("profile") && is_unit_profile(&n));
        let brigade = match (brigade, holds_units && profiles.is_empty()) {
            (None, true) => {
                let id = unique_id(
                    &slug(name),
                    army.roster.brigades.iter().map(|b| b.id.as_str()),
                );
                army.roster.brigades.push(RosterBrigade {
                    id: id.clone(),
                    name: Some(name.to_owned()),
                    side: side.to_owned(),
                });
                Some(id)
            }
            (b, _) => b.map(str::to_owned),
        };
        for child in inner {
            self.selection(child, side, brigade.as_deref(), army)?;
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn unit(
        &self,
        selection: Node,
        profile: Node,
        name: &str,
        copy: u32,
        side: &str,
        brigade: Option<&str>,
        army: &mut Army,
    ) -> Result<RosterUnit, ImportError> {
        let text = |column: &str| -> Result<String, ImportError> {
            let node = characteristic(profile, column).ok_or_else(|| {
                self.error(profile, format!("no <characteristic name=\"{column}\">"))
            })?;
            Ok(node.text().unwrap_or("").trim().to_owned())
        };
        let number = |column: &str| -> Result<u32, ImportError> {
            let value = text(column)?;
            value.parse().map_err(|_| {
                let node = characteristic(profile, column).unwrap_or(profile);
                self.error(node, format!("{value:?} is not a whole number"))
            })
        };
        let optional = |column: &str| {
            characteristic(profile, column).map(|c| c.text().unwrap_or("").trim().to_owned())
        };
        let unit_type = optional("Type").unwrap_or_default();
        let mut special: Vec<String> = optional("Special")
            .unwrap_or_default()
            .split([',', ';'])
            .map(str::trim)
            .filter(|s| !s.is_empty() && *s != "-")
            .map(str::to_owned)
            .collect();
        for rule in children(selection, "rules").flat_map(|r| children(r, "rule")) {
            if let Some(rule) = rule
                .attribute("name")
                .filter(|r| !special.iter().any(|s| s == r))
            {
                special.push(rule.to_owned());
            }
        }
        let stats = StatLine {
            unit_type: unit_type.clone(),
            armament: optional("Armament").unwrap_or_default(),
            hand_to_hand: number("Hand-to-Hand")?,
            shooting: text("Shooting")?,
            morale: text("Morale")?,
            stamina: number("Stamina")?,
            special,
        };
        let categories: Vec<&str> = children(selection, "categories")
            .flat_map(|c| children(c, "category"))
            .filter_map(|c| c.attribute("name"))
            .collect();
        let kind = kind_of(&unit_type, &categories);
        let base = name_suffix(name, copy);
        let id = unique_id(
            &slug(&base),
            army.roster.units.iter().map(|u| u.id.as_str()),
        );
        let (width, depth) = match kind {
            UnitKind::Infantry => (6.0, 1.5),
            UnitKind::Cavalry => (6.0, 2.0),
            UnitKind::Artillery => (2.5, 3.0),
        };
        let tag = army.take_tag();
        Ok(RosterUnit {
            id,
            name: Some(base),
            side: side.to_owned(),
            kind,
            formation: None,
            weapon: None,
            brigade: brigade.map(str::to_owned),
            size: None,
            stats: Some(stats),
            stands: vec![RosterStand {
                tag,
                width,
                depth,
                tag_offset: crate::TagOffset::CENTRED,
                tag_turn: 0.0,
                tag_size: None,
                tag_height: None,
            }],
        })
    }
}

trait LocalName {
    fn has_tag_name_local(&self, name: &str) -> bool;
}

impl LocalName for Node<'_, '_> {
    fn has_tag_name_local(&self, name: &str) -> bool {
        self.is_element() && self.tag_name().name() == name
    }
}

fn children<'a, 'input>(
    node: Node<'a, 'input>,
    name: &'static str,
) -> impl Iterator<Item = Node<'a, 'input>> {
    node.children().filter(move |n| n.has_tag_name_local(name))
}

fn selections<'a, 'input>(node: Node<'a, 'input>) -> impl Iterator<Item = Node<'a, 'input>> {
    children(node, "selections").flat_map(|s| children(s, "selection"))
}

fn characteristic<'a, 'input>(profile: Node<'a, 'input>, name: &str) -> Option<Node<'a, 'input>> {
    children(profile, "characteristics")
        .flat_map(|c| children(c, "characteristic"))
        .find(|c| {
            c.attribute("name")
                .is_some_and(|n| n.eq_ignore_ascii_case(name))
        })
}

/// A profile with any Black Powder unit column is meant as a unit (and must have them all).
fn is_unit_profile(profile: &Node) -> bool {
    UNIT_COLUMNS
        .iter()
        .any(|c| characteristic(*profile, c).is_some())
}

fn is_commander_profile(profile: &Node) -> bool {
    characteristic(*profile, "Staff Rating").is_some()
        || profile
            .attribute("typeName")
            .is_some_and(|t| t.to_ascii_lowercase().contains("commander"))
}

fn kind_of(unit_type: &str, categories: &[&str]) -> UnitKind {
    let words = std::iter::once(unit_type)
        .chain(categories.iter().copied())
        .map(str::to_ascii_lowercase)
        .collect::<Vec<_>>();
    let has = |w: &str| words.iter().any(|t| t.contains(w));
    // Artillery first: horse artillery is guns.
    if has("artillery") || has("gun") || has("battery") {
        UnitKind::Artillery
    } else if has("cavalry") || has("horse") {
        UnitKind::Cavalry
    } else {
        UnitKind::Infantry
    }
}

fn name_suffix(name: &str, copy: u32) -> String {
    if copy == 0 {
        name.to_owned()
    } else {
        format!("{name} ({})", copy + 1)
    }
}

/// `45th Foot` → `45th-foot`.
fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let trimmed = out.trim_end_matches('-');
    if trimmed.is_empty() {
        "unit".into()
    } else {
        trimmed.to_owned()
    }
}

fn unique_id<'a>(wanted: &str, taken: impl Iterator<Item = &'a str> + Clone) -> String {
    let mut id = wanted.to_owned();
    let mut n = 2;
    while taken.clone().any(|t| t == id) {
        id = format!("{wanted}-{n}");
        n += 1;
    }
    id
}

/// `<profile name="45th Foot">`, as the user would search for it.
fn describe(node: Node) -> String {
    let name = node.tag_name().name();
    match node.attribute("name") {
        Some(n) => format!("<{name} name=\"{n}\">"),
        None => format!("<{name}>"),
    }
}
