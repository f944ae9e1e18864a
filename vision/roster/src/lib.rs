//! The roster: which tag is on which stand of which unit, and what each unit is.
//!
//! ```toml
//! ruleset = "black-powder"        # the default
//! [tags]                          # defaults for every tag below
//! size = 1.0                      # side of the black square, inches
//! height = 0.16                   # the tag's face above the cloth (base + sticker), inches
//! family = "tag36h11"             # the default; tag25h9 or tag16h5 for small bases (the
//!                                 # anchors must be printed in the same family)
//!
//! [[brigades]]                  # optional; when listed, every `brigade` below must be one
//! id = "craufurd"
//! name = "Craufurd's Brigade"
//! side = "british"
//!
//! [[units]]
//! id = "45th-foot"
//! side = "british"
//! kind = "infantry"
//! formation = "line"              # and name, weapon, brigade, size as in scenes
//! [units.stats]                   # the stat line and special rules, as in scenes
//! type = "Regular Infantry"
//! armament = "Smoothbore Muskets"
//! hand_to_hand = 6
//! shooting = 3
//! morale = "4+"
//! stamina = 3
//! special = ["Steady"]
//! [[units.stands]]
//! tag = 12
//! width = 1.6                     # the stand, inches
//! depth = 0.8
//! tag_offset = [0.0, -0.25]       # tag centre from the stand centre: x to its right, y to its front
//! tag_turn = 0                    # the tag's top against the stand's front, degrees counter-clockwise
//!
//! [[commanders]]
//! id = "wellesley"
//! side = "british"
//! tag = 40
//! ```
//!
//! Tags usually go on the rear strip of a base or on the movement tray, so the offset matters:
//! the stand is placed from its tag.
//!
//! Rosters are files players keep and edit, and need no camera: this crate reads, checks,
//! edits ([`edit`]) and imports ([`battlescribe`]) them, and `vision` places what they list.

pub mod battlescribe;
pub mod edit;

pub use edit::{RosterDocument, StandEdit};

/// The tag families Vedette prints and reads, with how many ids each has.
pub const TAG_FAMILIES: [(&str, u32); 3] = [("tag36h11", 587), ("tag25h9", 35), ("tag16h5", 30)];

/// The number of ids of a tag family; `None` for one Vedette does not know.
pub fn family_ids(family: &str) -> Option<u32> {
    TAG_FAMILIES
        .iter()
        .find(|(name, _)| *name == family)
        .map(|(_, n)| *n)
}

mod overlap;
pub use overlap::TagsOnOneSpot;

/// A commander's base is as wide as this many of his tags (a typical 40 mm round base for a
/// 1" tag): what his tag covers, for the synthetic table and for tags on one spot.
pub const COMMANDER_BASE: f64 = 1.5;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use calibration::FileError;
use calibration::files;
use rules::geometry::xy::Pair;
use rules::geometry::{TablePoint, TableVector, heading};
use rules::scene::{Formation, Side, StatLine, UnitKind, UnitSize};
use rules::scene::{StandDoc, UnitDoc};
use rules::units::{Degrees, Inches};
use rules::{RulesetId, Scene};
use serde::{Deserialize, Serialize};
use toml::Spanned;

/// The army on the table, tag by tag.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Roster {
    /// The ruleset of the scenes built from it.
    #[serde(default = "default_ruleset")]
    pub ruleset: RulesetId,
    /// Defaults for every tag.
    #[serde(default)]
    pub tags: TagDefaults,
    /// The armies.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<Side>,
    /// The brigades, if listed: then every unit's and commander's `brigade` must be one of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub brigades: Vec<RosterBrigade>,
    /// The units.
    #[serde(default)]
    pub units: Vec<RosterUnit>,
    /// The commanders.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commanders: Vec<RosterCommander>,
}

fn default_ruleset() -> RulesetId {
    RulesetId::BlackPowder
}

/// The tag a base whose shorter side is `side` inches can hold, when it cannot hold `wanted`
/// with its white border: the largest that fits, in twentieths of an inch (as a player cuts
/// them, and written as one: 0.6, not 0.6400000000000001); `None` when `wanted` fits.
pub fn tag_for_base(wanted: f64, side: f64, family: TagFamily) -> Option<f64> {
    // A hair of slack: a 1" tag on a 1.25" base fits, whatever the last bit of the division.
    const SLACK: f64 = 1e-9;
    let sticker = family.sticker_per_side();
    (wanted * sticker > side + SLACK).then(|| ((side / sticker) * 20.0 + SLACK).floor() / 20.0)
}

/// Tag size and height unless a stand says otherwise, and the family of them all; what is left
/// out is the default.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TagDefaults {
    /// Side of the black square, inches.
    pub size: f64,
    /// Height of the tag's face above the cloth, inches.
    pub height: f64,
    /// How far a tag's height may be off what the roster states, inches (one standard
    /// deviation): a base's thickness, the glue and card under the tag, flock or sand beside
    /// it. A tag higher than stated is seen further from the camera, so this widens every
    /// stand's error bar, most of all far from the camera's foot (see [`DEFAULT_HEIGHT_SD`]).
    #[serde(skip_serializing_if = "is_default_height_sd")]
    pub height_sd: f64,
    /// The family every tag of the table is printed in, anchors included.
    #[serde(skip_serializing_if = "TagFamily::is_default")]
    pub family: TagFamily,
}

/// The tag families Vedette prints and reads, by their AprilTag names. Fewer, bigger cells
/// make a tag readable smaller, at the price of fewer ids and less protection against a
/// pattern on the cloth reading as a tag (see docs/guide/setting-up.md, "Printing tags").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum TagFamily {
    /// 6×6 data cells, 587 ids: the default.
    #[default]
    #[serde(rename = "tag36h11")]
    Tag36h11,
    /// 5×5 data cells, 35 ids.
    #[serde(rename = "tag25h9")]
    Tag25h9,
    /// 4×4 data cells, 30 ids.
    #[serde(rename = "tag16h5")]
    Tag16h5,
}

impl TagFamily {
    /// Every family, the default first.
    pub const ALL: [TagFamily; 3] = [TagFamily::Tag36h11, TagFamily::Tag25h9, TagFamily::Tag16h5];

    /// Its AprilTag name, as the detector and the anchors file give it.
    pub fn name(self) -> &'static str {
        match self {
            TagFamily::Tag36h11 => "tag36h11",
            TagFamily::Tag25h9 => "tag25h9",
            TagFamily::Tag16h5 => "tag16h5",
        }
    }

    /// How many ids it has (0 to one less).
    pub fn ids(self) -> u32 {
        family_ids(self.name()).unwrap_or(0)
    }

    /// The side of a printed tag's cut square over its black square's: the inked cells and a
    /// white cell all round.
    pub fn sticker_per_side(self) -> f64 {
        let inked = match self {
            TagFamily::Tag36h11 => 8.0,
            TagFamily::Tag25h9 => 7.0,
            TagFamily::Tag16h5 => 6.0,
        };
        (inked + 2.0) / inked
    }

    fn is_default(&self) -> bool {
        *self == TagFamily::default()
    }
}

impl std::fmt::Display for TagFamily {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Default for TagDefaults {
    /// 1" tag36h11 tags (the smallest a 1080p camera reads across a 6' table) on 4 mm bases.
    fn default() -> TagDefaults {
        TagDefaults {
            size: 1.0,
            height: 0.16,
            height_sd: DEFAULT_HEIGHT_SD,
            family: TagFamily::Tag36h11,
        }
    }
}

/// How far a tag's height is taken to be off what the roster states, unless it says otherwise,
/// inches: 0.6 mm. A stand's tag sits on a base cut to a nominal thickness (MDF, plasticard or
/// steel of 1–3 mm, whose real thickness varies by a few tenths), under card and glue of a
/// few tenths more, and a roster states one height for every stand of an army: about a
/// millimetre either way of it, evenly spread, which is 0.6 mm one standard deviation.
pub const DEFAULT_HEIGHT_SD: f64 = 0.6 / 25.4;

fn is_default_height_sd(value: &f64) -> bool {
    *value == DEFAULT_HEIGHT_SD
}

/// A brigade: units under one commander.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RosterBrigade {
    /// Unique id, as the units' `brigade` gives it.
    pub id: String,
    /// For people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its army.
    pub side: String,
}

/// A unit: what the scene format says of it, without where it stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RosterUnit {
    /// Unique id.
    pub id: String,
    /// For people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its army.
    pub side: String,
    /// Infantry, cavalry or artillery.
    pub kind: UnitKind,
    /// How it is drawn up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formation: Option<Formation>,
    /// Weapon id or name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<String>,
    /// Brigade id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brigade: Option<String>,
    /// Standard, large, small, tiny.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<UnitSize>,
    /// The stat line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<StatLine>,
    /// Its stands, each with its tag.
    pub stands: Vec<RosterStand>,
}

impl RosterUnit {
    /// Its name with its id ("Booth's Stragglers (booths-stragglers)"), or its id alone.
    pub fn named(&self) -> String {
        match &self.name {
            Some(name) => format!("{name} ({})", self.id),
            None => self.id.clone(),
        }
    }

    /// The unit as a scene has it, its stands where they lie (the camera's, or a synthetic
    /// game's): what the roster says of it, and nothing the table would have to tell.
    pub fn on_table(&self, stands: Vec<StandDoc>) -> UnitDoc {
        UnitDoc {
            id: self.id.clone(),
            name: self.name.clone(),
            side: self.side.clone(),
            kind: self.kind,
            formation: self.formation,
            front_center: None,
            facing: None,
            width: None,
            depth: None,
            weapon: self.weapon.clone(),
            brigade: self.brigade.clone(),
            stands: Some(stands),
            size: self.size,
            stats: self.stats.clone(),
            engaged: None,
            disordered: None,
            shaken: None,
            momentum: None,
            figures: None,
        }
    }
}

/// Where a tag's centre sits on its stand: from the stand's centre, to its right and to its
/// front. Files write it `[right, front]` in inches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(from = "Pair", into = "[f64; 2]")]
pub struct TagOffset {
    /// To the stand's right (negative: to its left).
    pub right: Inches,
    /// To the stand's front (negative: to its rear).
    pub front: Inches,
}

impl TagOffset {
    /// The tag in the middle of its stand.
    pub const CENTRED: TagOffset = TagOffset {
        right: Inches::ZERO,
        front: Inches::ZERO,
    };

    /// The offset on the table, for a stand facing `facing`.
    pub fn on_table(&self, facing: Degrees) -> TableVector {
        let forward = heading(facing);
        let right = TableVector::new(forward.y, -forward.x);
        right * self.right.0 + forward * self.front.0
    }
}

impl From<[f64; 2]> for TagOffset {
    fn from([right, front]: [f64; 2]) -> TagOffset {
        TagOffset {
            right: Inches(right),
            front: Inches(front),
        }
    }
}

impl From<Pair> for TagOffset {
    fn from(Pair(pair): Pair) -> TagOffset {
        TagOffset::from(pair)
    }
}

impl From<TagOffset> for [f64; 2] {
    fn from(offset: TagOffset) -> [f64; 2] {
        [offset.right.0, offset.front.0]
    }
}

/// A stand (or movement tray) and the tag on it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RosterStand {
    /// The tag's id.
    pub tag: u32,
    /// Frontage, inches.
    pub width: f64,
    /// Depth, inches.
    pub depth: f64,
    /// Where the tag's centre sits on the stand.
    #[serde(default)]
    pub tag_offset: TagOffset,
    /// The tag's top against the stand's front, degrees counter-clockwise.
    #[serde(default)]
    pub tag_turn: f64,
    /// This tag's size, if not the default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag_size: Option<f64>,
    /// This tag's height, if not the default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag_height: Option<f64>,
}

/// A commander figure: measured from its head, where its tag is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RosterCommander {
    /// Unique id.
    pub id: String,
    /// For people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// His army.
    pub side: String,
    /// His brigade; none for the commander-in-chief.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brigade: Option<String>,
    /// Mounted (the default) or on foot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mounted: Option<bool>,
    /// Staff rating, if not the army's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub staff_rating: Option<u8>,
    /// The tag on his base.
    pub tag: u32,
    /// This tag's size, if not the default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag_size: Option<f64>,
    /// This tag's height, if not the default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag_height: Option<f64>,
}

/// What a tag of the roster is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TagOwner {
    /// Stand `stand` of unit `unit` (indices into the roster).
    Stand {
        /// Index into `units`.
        unit: usize,
        /// Index into the unit's `stands`.
        stand: usize,
    },
    /// Commander `index`.
    Commander(usize),
}

/// Where a tag sits on what it marks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TagMount {
    /// What it is on.
    pub owner: TagOwner,
    /// Side of its black square.
    pub size: Inches,
    /// Its face above the cloth.
    pub height: Inches,
}

impl RosterStand {
    /// The stand's centre and facing, from its tag's centre and facing on the table.
    pub fn pose_from_tag(
        &self,
        tag_center: TablePoint,
        tag_facing: Degrees,
    ) -> (TablePoint, Degrees) {
        let facing = tag_facing - Degrees(self.tag_turn);
        (tag_center - self.tag_offset.on_table(facing), facing)
    }
}

/// Lines of the tag ids, for error messages.
#[derive(Deserialize)]
struct TagLines {
    #[serde(default)]
    units: Vec<UnitTagLines>,
    #[serde(default)]
    commanders: Vec<TagLine>,
}

#[derive(Deserialize)]
struct UnitTagLines {
    #[serde(default)]
    stands: Vec<TagLine>,
}

#[derive(Deserialize)]
struct TagLine {
    tag: Spanned<u32>,
}

impl Roster {
    /// Read and check a roster file.
    pub fn load(path: &Path) -> Result<Roster, FileError> {
        Roster::parse(&files::read_text(path)?, path)
    }

    /// Why the roster's tags cannot be seen on a table whose anchors are printed in
    /// `anchors`, if they cannot: the detector reads one family a table, so the stands' and the
    /// anchors' must be the same.
    pub fn family_clash(&self, anchors: &str) -> Option<String> {
        let stands = self.tags.family.name();
        (stands != anchors).then(|| {
            format!(
                "the roster's tags are {stands} but the anchors are {anchors}: one table, one family — set family = \"{stands}\" in the anchors file and print the anchors again (vedette anchors), or print the stands in {anchors}"
            )
        })
    }

    /// The roster's tags that are also anchors of the table, with what each is on: a stand
    /// wearing an anchor's id would be placed where the anchor is, at the table's edge.
    pub fn anchor_clashes(&self, anchors: impl IntoIterator<Item = u32>) -> Vec<(u32, TagOwner)> {
        let mounts = self.mounts();
        let mut clashes: Vec<(u32, TagOwner)> = anchors
            .into_iter()
            .filter_map(|id| mounts.get(&id).map(|mount| (id, mount.owner)))
            .collect();
        clashes.sort_by_key(|(id, _)| *id);
        clashes
    }

    /// Parse and check a roster's text; `path` names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Roster, FileError> {
        let (roster, problems) = Roster::parse_listing_problems(text, path)?;
        match problems.into_iter().next() {
            Some(problem) => Err(problem),
            None => Ok(roster),
        }
    }

    /// Parse a roster's text and list every problem of its contents (duplicate tags, bad
    /// sizes, unknown brigades …), each naming its line, instead of stopping at the first.
    /// Only text that does not parse at all is an error.
    pub fn parse_listing_problems(
        text: &str,
        path: &Path,
    ) -> Result<(Roster, Vec<FileError>), FileError> {
        let roster: Roster = files::parse_toml(text, path)?;
        let lines = toml::from_str::<TagLines>(text).ok();
        let line = |owner: TagOwner| -> Option<usize> {
            let lines = lines.as_ref()?;
            let span = match owner {
                TagOwner::Stand { unit, stand } => {
                    lines.units.get(unit)?.stands.get(stand)?.tag.span()
                }
                TagOwner::Commander(i) => lines.commanders.get(i)?.tag.span(),
            };
            Some(files::line_of(text, span.start))
        };
        let problems = roster.problems(path, &line);
        Ok((roster, problems))
    }

    /// The line of each tag in a roster's text, for messages about it.
    pub fn tag_lines(&self, text: &str) -> HashMap<u32, usize> {
        let Ok(lines) = toml::from_str::<TagLines>(text) else {
            return HashMap::new();
        };
        let stands = lines.units.iter().flat_map(|u| u.stands.iter());
        stands
            .chain(lines.commanders.iter())
            .map(|t| (*t.tag.get_ref(), files::line_of(text, t.tag.span().start)))
            .collect()
    }

    /// Save as TOML.
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        files::write_toml(self, path)
    }

    /// Every tag of the roster and where it is mounted.
    pub fn mounts(&self) -> HashMap<u32, TagMount> {
        self.tag_list().into_iter().collect()
    }

    /// What the lens fit needs of every stand and commander tag: its printed size and height.
    pub fn stand_tags(&self) -> HashMap<u32, calibration::StandTagSpec> {
        self.tag_list()
            .into_iter()
            .map(|(id, mount)| {
                let spec = calibration::StandTagSpec {
                    size: mount.size,
                    height: mount.height,
                };
                (id, spec)
            })
            .collect()
    }

    /// A unit or commander, by its id, as people name it, with the id the files use ("Booth's
    /// Stragglers (booths-stragglers)", "commander Booth (booth)"); the id itself when the
    /// roster has none such.
    pub fn named_id(&self, id: &str) -> String {
        if let Some(unit) = self.units.iter().find(|u| u.id == id) {
            return unit.named();
        }
        match self.commanders.iter().position(|c| c.id == id) {
            Some(i) => self.named(TagOwner::Commander(i)),
            None => id.to_owned(),
        }
    }

    /// What a tag is on, as people name it: [`Roster::describe`] with the roster's names
    /// ("stand 2 of Booth's Stragglers (booths-stragglers)").
    pub fn named(&self, owner: TagOwner) -> String {
        match owner {
            TagOwner::Stand { unit, stand } => {
                let unit = &self.units[unit];
                if unit.stands.len() == 1 {
                    unit.named()
                } else {
                    format!("stand {} of {}", stand + 1, unit.named())
                }
            }
            TagOwner::Commander(i) => {
                let commander = &self.commanders[i];
                match &commander.name {
                    Some(name) => format!("commander {name} ({})", commander.id),
                    None => format!("commander {}", commander.id),
                }
            }
        }
    }

    /// A readable name for what a tag is on: "stand 2 of 45th-foot".
    pub fn describe(&self, owner: TagOwner) -> String {
        match owner {
            TagOwner::Stand { unit, stand } => {
                let unit = &self.units[unit];
                if unit.stands.len() == 1 {
                    unit.id.clone()
                } else {
                    format!("stand {} of {}", stand + 1, unit.id)
                }
            }
            TagOwner::Commander(i) => format!("commander {}", self.commanders[i].id),
        }
    }

    fn tag_list(&self) -> Vec<(u32, TagMount)> {
        let defaults = self.tags;
        let stands = self.units.iter().enumerate().flat_map(|(u, unit)| {
            unit.stands.iter().enumerate().map(move |(s, stand)| {
                let mount = TagMount {
                    owner: TagOwner::Stand { unit: u, stand: s },
                    size: Inches(stand.tag_size.unwrap_or(defaults.size)),
                    height: Inches(stand.tag_height.unwrap_or(defaults.height)),
                };
                (stand.tag, mount)
            })
        });
        let commanders = self.commanders.iter().enumerate().map(|(i, c)| {
            let mount = TagMount {
                owner: TagOwner::Commander(i),
                size: Inches(c.tag_size.unwrap_or(defaults.size)),
                height: Inches(c.tag_height.unwrap_or(defaults.height)),
            };
            (c.tag, mount)
        });
        stands.chain(commanders).collect()
    }

    fn problems(&self, path: &Path, line: &dyn Fn(TagOwner) -> Option<usize>) -> Vec<FileError> {
        let mut problems = Vec::new();
        if self.units.is_empty() && self.commanders.is_empty() {
            problems.push(FileError::Invalid {
                file: PathBuf::from(path),
                line: None,
                message: "lists no units and no commanders: nothing for the camera to place (add [[units]] with their [[units.stands]], or `vedette roster new`)".into(),
            });
        }
        if let Err(problem) = self.check_defaults(path) {
            problems.push(problem);
        }
        self.check_units(path, &mut problems);
        self.check_tags(path, line, &mut problems);
        problems
    }

    fn check_defaults(&self, path: &Path) -> Result<(), FileError> {
        let invalid = |line: Option<usize>, message: String| FileError::Invalid {
            file: PathBuf::from(path),
            line,
            message,
        };
        let defaults = [self.tags.size, self.tags.height];
        if defaults.iter().any(|v| !v.is_finite())
            || self.tags.size <= 0.0
            || self.tags.height < 0.0
        {
            return Err(invalid(
                None,
                "tags: size must be positive and height zero or more, in inches".into(),
            ));
        }
        Ok(())
    }

    fn check_units(&self, path: &Path, problems: &mut Vec<FileError>) {
        let invalid = |message: String| FileError::Invalid {
            file: PathBuf::from(path),
            line: None,
            message,
        };
        let brigades: Vec<&str> = self.brigades.iter().map(|b| b.id.as_str()).collect();
        fn unknown<'a>(brigades: &[&str], brigade: &'a Option<String>) -> Option<&'a str> {
            brigade
                .as_deref()
                .filter(|b| !brigades.is_empty() && !brigades.contains(b))
        }
        let unknown_brigade = |brigade| unknown(&brigades, brigade);
        let mut ids: HashMap<&str, usize> = HashMap::new();
        for (i, unit) in self.units.iter().enumerate() {
            if ids.insert(&unit.id, i).is_some() {
                problems.push(invalid(format!("unit {:?} is listed twice", unit.id)));
            }
            if unit.stands.is_empty() {
                problems.push(invalid(format!(
                    "unit {}: it has no stands, so no tag can place it",
                    unit.id
                )));
            }
            if let Some(b) = unknown_brigade(&unit.brigade) {
                problems.push(invalid(format!(
                    "unit {}: brigade {b:?} is not among the roster's brigades",
                    unit.id
                )));
            }
        }
        for c in &self.commanders {
            if let Some(b) = unknown_brigade(&c.brigade) {
                problems.push(invalid(format!(
                    "commander {}: brigade {b:?} is not among the roster's brigades",
                    c.id
                )));
            }
        }
    }

    fn check_tags(
        &self,
        path: &Path,
        line: &dyn Fn(TagOwner) -> Option<usize>,
        problems: &mut Vec<FileError>,
    ) {
        let invalid = |line: Option<usize>, message: String| FileError::Invalid {
            file: PathBuf::from(path),
            line,
            message,
        };
        let mut owners: HashMap<u32, TagOwner> = HashMap::new();
        let ids = self.tags.family.ids();
        for (tag, mount) in self.tag_list() {
            let at = line(mount.owner);
            let here = self.describe(mount.owner);
            if tag >= ids {
                problems.push(invalid(
                    at,
                    format!(
                        "tag {tag} on {here} is not in {} (ids 0–{})",
                        self.tags.family,
                        ids - 1
                    ),
                ));
            }
            if let Some(first) = owners.insert(tag, mount.owner) {
                let first_line = line(first)
                    .map(|l| format!(" (line {l})"))
                    .unwrap_or_default();
                problems.push(invalid(
                    at,
                    format!(
                        "tag {tag} is on {here} and also on {}{first_line}: every stand needs its own tag",
                        self.describe(first)
                    ),
                ));
                continue;
            }
            if !(mount.size.0.is_finite() && mount.height.0.is_finite())
                || mount.size.0 <= 0.0
                || mount.height.0 < 0.0
            {
                problems.push(invalid(
                    at,
                    format!(
                        "tag {tag} on {here}: size must be positive, height zero or more, in inches"
                    ),
                ));
            }
            if let TagOwner::Stand { unit, stand } = mount.owner {
                let s = &self.units[unit].stands[stand];
                let numbers = [
                    s.width,
                    s.depth,
                    s.tag_offset.right.0,
                    s.tag_offset.front.0,
                    s.tag_turn,
                ];
                if numbers.iter().any(|n| !n.is_finite()) || s.width <= 0.0 || s.depth <= 0.0 {
                    problems.push(invalid(
                        at,
                        format!(
                            "tag {tag} on {here}: the stand's width and depth must be positive inches, and every number finite"
                        ),
                    ));
                }
            }
        }
    }
}

impl Roster {
    /// A roster for the units and commanders of a scene, one tag per stand numbered from
    /// `first_tag`, each tag centred on its stand, facing its front, and shrunk to fit a stand
    /// smaller than the default size. For demo tables and tests; players write their own.
    pub fn for_scene(scene: &Scene, tags: TagDefaults, first_tag: u32) -> Roster {
        let mut next = first_tag;
        let mut take = || {
            next += 1;
            next - 1
        };
        let units = scene
            .units
            .iter()
            .map(|unit| {
                let doc = UnitDoc::from(unit);
                let stands = unit
                    .footprint
                    .stands()
                    .iter()
                    .map(|s| {
                        let side = s.width().0.min(s.depth().0);
                        RosterStand {
                            tag: take(),
                            width: s.width().0,
                            depth: s.depth().0,
                            tag_offset: TagOffset::CENTRED,
                            tag_turn: 0.0,
                            tag_size: tag_for_base(tags.size, side, tags.family),
                            tag_height: None,
                        }
                    })
                    .collect();
                RosterUnit {
                    id: doc.id,
                    name: doc.name,
                    side: doc.side,
                    kind: doc.kind,
                    formation: doc.formation,
                    weapon: doc.weapon,
                    brigade: doc.brigade,
                    size: doc.size,
                    stats: doc.stats,
                    stands,
                }
            })
            .collect();
        let commanders = scene
            .commanders
            .iter()
            .map(|c| RosterCommander {
                id: c.id.clone(),
                name: (c.name != c.id).then(|| c.name.clone()),
                side: c.side.clone(),
                brigade: c.brigade.clone(),
                mounted: Some(c.mounted),
                staff_rating: c.staff_rating,
                tag: take(),
                tag_size: None,
                tag_height: None,
            })
            .collect();
        Roster {
            ruleset: scene.ruleset,
            tags,
            sides: scene.sides.clone(),
            brigades: Vec::new(),
            units,
            commanders,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_base_too_small_for_the_tag_gets_the_largest_that_fits_written_cleanly() {
        // 0.8" base: 0.8 / 1.25 = 0.64, cut to 0.6 (twentieths), written as 0.6.
        let fits = tag_for_base(1.0, 0.8, TagFamily::Tag36h11).expect("smaller");
        assert_eq!(fits.to_string(), "0.6");
        // 1.25" holds a 1" tag and its border exactly; 2" holds 1.5".
        assert_eq!(tag_for_base(1.0, 1.25, TagFamily::Tag36h11), None);
        assert_eq!(tag_for_base(1.5, 2.0, TagFamily::Tag36h11), None);
        // Fewer cells, a wider border for the same square.
        assert_eq!(tag_for_base(1.0, 1.25, TagFamily::Tag16h5), Some(0.9));
        for side in [0.5, 0.7, 0.9, 1.1, 1.3, 1.7] {
            let size = tag_for_base(3.0, side, TagFamily::Tag36h11).expect("smaller");
            assert!(size * 1.25 <= side + 1e-9, "{size} on {side}");
            assert!(size.to_string().len() <= 4, "{size}");
        }
    }

    #[test]
    fn a_tag_offset_points_to_the_stands_right_and_front() {
        // A stand facing +y (north): its right is +x (east).
        let offset = TagOffset::from([1.0, -0.5]);
        let on_table = offset.on_table(Degrees(90.0));
        assert!(
            (on_table - TableVector::new(1.0, -0.5)).norm() < 1e-12,
            "{on_table}"
        );
        // Facing +x (east): its right is −y, its front +x.
        let on_table = offset.on_table(Degrees(0.0));
        assert!(
            (on_table - TableVector::new(-0.5, -1.0)).norm() < 1e-12,
            "{on_table}"
        );
    }

    #[test]
    fn a_stand_is_found_from_its_tag_where_its_tag_was_put() {
        let stand = RosterStand {
            tag: 12,
            width: 2.0,
            depth: 1.0,
            tag_offset: TagOffset::from([0.4, -0.25]),
            tag_turn: 30.0,
            tag_size: None,
            tag_height: None,
        };
        let (center, facing) = (TablePoint::new(20.0, 10.0), Degrees(200.0));
        let tag_center = center + stand.tag_offset.on_table(facing);
        let tag_facing = facing + Degrees(stand.tag_turn);
        let (found, found_facing) = stand.pose_from_tag(tag_center, tag_facing);
        assert!((found - center).norm() < 1e-12, "{found}");
        assert!((found_facing.0 - facing.0).abs() < 1e-12);
    }

    #[test]
    fn a_tag_offset_of_one_number_is_refused_in_plain_words() {
        let error = toml::from_str::<HashMap<String, TagOffset>>("tag_offset = [1.0]")
            .expect_err("one number");
        assert!(
            error
                .to_string()
                .contains("invalid length 1, expected a point"),
            "{error}"
        );
    }
}
