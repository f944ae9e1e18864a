//! `vedette roster new | check | import`: make, check and import army rosters.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use calibration::{AnchorLayout, Board, TableCalibration, TableSize};

use super::tag_advice::{AdviceCamera, TagAdvice};
use roster::battlescribe::{ImportOptions, import_file};
use roster::{Roster, TagOwner};
use roster::{RosterCommander, RosterStand, RosterUnit, TagDefaults};
use rules::Scene;
use rules::scene::{Side, UnitKind};
use vision::printables::{parse_base, read_sheet_tags};

/// A commented roster to fill in, for `vedette roster new --template`.
pub const TEMPLATE: &str = include_str!("roster_template.toml");

/// Where `roster new` takes the army from.
pub enum NewFrom<'a> {
    /// The commented template.
    Template,
    /// A scene or scenario: one tag a stand, of the size asked or the one the camera finds
    /// everywhere on its table (seen by the calibration's camera, or an assumed webcam).
    Scenario {
        /// The scene or scenario.
        scene: &'a Path,
        /// The tag size asked for, inches.
        tag_size: Option<f64>,
        /// The player's calibration, whose camera the size is chosen for.
        calibration: Option<&'a Path>,
    },
    /// Questions on the terminal.
    Questions,
}

/// `vedette roster new`: a roster a player has worked on is never replaced without `--force`.
pub fn new(
    from: NewFrom,
    output: &Path,
    first_tag: u32,
    force: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    super::output::claim(output, &[], force)?;
    let roster = match from {
        NewFrom::Template => {
            calibration::files::write_whole(output, |temporary| {
                std::fs::write(temporary, TEMPLATE)
            })?;
            writeln!(
                out,
                "{}: a template roster; fill it in, then `vedette roster check {}`",
                output.display(),
                output.display()
            )?;
            return Ok(());
        }
        NewFrom::Scenario {
            scene: path,
            tag_size,
            calibration,
        } => {
            let scene = Scene::load(path)?;
            let camera = match calibration {
                Some(file) => AdviceCamera::calibrated(&TableCalibration::load(file)?, file),
                None => AdviceCamera::assumed(TableSize {
                    width: scene.table.width.0,
                    depth: scene.table.depth.0,
                }),
            };
            let advice = TagAdvice::new(&scene, camera);
            let size = tag_size
                .or_else(|| advice.suggested())
                .unwrap_or(TagDefaults::default().size);
            let tags = TagDefaults {
                size,
                ..TagDefaults::default()
            };
            let roster = Roster::for_scene(&scene, tags, first_tag);
            advice.report(&roster, tag_size.is_some(), out)?;
            for spot in roster.tags_on_one_spot(&scene) {
                writeln!(out, "⚠ {}: {spot}", path.display())?;
            }
            roster
        }
        NewFrom::Questions => {
            let stdin = std::io::stdin();
            if !stdin.is_terminal() {
                bail!(
                    "no terminal to ask questions on: give --template or --scenario FILE, or import a BattleScribe roster with `vedette roster import`"
                );
            }
            ask(&mut stdin.lock(), out, first_tag)?
        }
    };
    roster.save(output)?;
    summary(&roster, output, out)
}

fn summary(roster: &Roster, output: &Path, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut tags: Vec<u32> = roster.mounts().into_keys().collect();
    tags.sort_unstable();
    writeln!(
        out,
        "{}: {} unit(s), {} commander(s), tags {}",
        output.display(),
        roster.units.len(),
        roster.commanders.len(),
        ranges(&tags)
    )?;
    writeln!(
        out,
        "next: `vedette tags --roster {} -o tags.pdf`",
        output.display()
    )?;
    Ok(())
}

/// `1-12,40` for a sorted list of ids.
fn ranges(ids: &[u32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let start = ids[i];
        while i + 1 < ids.len() && ids[i + 1] == ids[i] + 1 {
            i += 1;
        }
        parts.push(if ids[i] == start {
            start.to_string()
        } else {
            format!("{start}-{}", ids[i])
        });
        i += 1;
    }
    parts.join(",")
}

/// Ask one question: the answer, or `default` when it is left empty.
fn prompt(
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    question: &str,
    default: &str,
) -> anyhow::Result<String> {
    if default.is_empty() {
        write!(out, "{question}: ")?;
    } else {
        write!(out, "{question} [{default}]: ")?;
    }
    out.flush()?;
    let mut line = String::new();
    if input.read_line(&mut line)? == 0 {
        bail!("the answers ended before the questions: nothing written");
    }
    let answer = line.trim();
    Ok(if answer.is_empty() { default } else { answer }.to_owned())
}

/// Ask for the army unit by unit.
pub fn ask(input: &mut dyn BufRead, out: &mut dyn Write, first_tag: u32) -> anyhow::Result<Roster> {
    let side_name = prompt(input, out, "Army (e.g. British)", "")?;
    if side_name.is_empty() {
        bail!("no army named: nothing written");
    }
    let side = slug(&side_name);
    let mut roster = Roster {
        ruleset: rules::RulesetId::BlackPowder,
        tags: TagDefaults::default(),
        sides: Vec::new(),
        brigades: Vec::new(),
        units: Vec::new(),
        commanders: Vec::new(),
    };
    roster.sides.push(Side {
        id: side.clone(),
        name: Some(side_name),
        staff_rating: None,
        home_edge: None,
    });
    let mut tag = first_tag;
    loop {
        let name = prompt(input, out, "Unit name (empty when done)", "")?;
        if name.is_empty() {
            break;
        }
        let kind =
            match prompt(input, out, "  infantry, cavalry or artillery", "infantry")?.as_str() {
                k if k.starts_with('c') => UnitKind::Cavalry,
                k if k.starts_with('a') => UnitKind::Artillery,
                _ => UnitKind::Infantry,
            };
        // A typo is asked again, not the end of every answer given so far.
        let count: usize = loop {
            match prompt(input, out, "  stands", "1")?.parse::<usize>() {
                Ok(count) if (1..=60).contains(&count) => break count,
                _ => writeln!(out, "  a number of stands from 1 to 60, please")?,
            }
        };
        let base = loop {
            match parse_base(&prompt(input, out, "  base, frontage x depth", "40x20mm")?) {
                Ok(base) => break base,
                Err(e) => writeln!(out, "  {e:#}: try again (e.g. 40x20mm or 2x1in)")?,
            }
        };
        let (width, depth) = (base.width.inches().0, base.depth.inches().0);
        let tag_size = roster::tag_for_base(roster.tags.size, width.min(depth), roster.tags.family);
        let stands = (0..count)
            .map(|_| {
                tag += 1;
                RosterStand {
                    tag: tag - 1,
                    width,
                    depth,
                    tag_offset: roster::TagOffset::CENTRED,
                    tag_turn: 0.0,
                    tag_size,
                    tag_height: None,
                }
            })
            .collect();
        roster.units.push(RosterUnit {
            id: unique(&slug(&name), roster.units.iter().map(|u| u.id.as_str())),
            name: Some(name),
            side: side.clone(),
            kind,
            formation: None,
            weapon: None,
            brigade: None,
            size: None,
            stats: None,
            stands,
        });
    }
    loop {
        let name = prompt(input, out, "Commander (empty when done)", "")?;
        if name.is_empty() {
            break;
        }
        tag += 1;
        roster.commanders.push(RosterCommander {
            id: unique(
                &slug(&name),
                roster.commanders.iter().map(|c| c.id.as_str()),
            ),
            name: Some(name),
            side: side.clone(),
            brigade: None,
            mounted: None,
            staff_rating: None,
            tag: tag - 1,
            tag_size: None,
            tag_height: None,
        });
    }
    Ok(roster)
}

fn slug(name: &str) -> String {
    let words: Vec<String> = name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    if words.is_empty() {
        "unit".into()
    } else {
        words.join("-")
    }
}

fn unique<'a>(wanted: &str, taken: impl Iterator<Item = &'a str> + Clone) -> String {
    let mut id = wanted.to_owned();
    let mut n = 2;
    while taken.clone().any(|t| t == id) {
        id = format!("{wanted}-{n}");
        n += 1;
    }
    id
}

/// What `roster check` compares the roster with.
pub struct CheckArgs<'a> {
    /// The roster.
    pub roster: &'a Path,
    /// Printed sheets (SVG or PDF made by `vedette tags`).
    pub sheets: &'a [PathBuf],
    /// The table's anchors, whose ids no stand may use and whose family the stands share.
    pub anchors: Option<&'a Path>,
}

/// `vedette roster check`: every problem, with file and line; fails if any.
pub fn check(args: &CheckArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let path = args.roster;
    let text = calibration::files::read_text(path)?;
    let (roster, listed) = Roster::parse_listing_problems(&text, path)?;
    let mut problems: Vec<String> = listed.iter().map(ToString::to_string).collect();
    let mut notes: Vec<String> = Vec::new();
    let lines = roster.tag_lines(&text);
    let at = |tag: u32| match lines.get(&tag) {
        Some(line) => format!("{}:{line}", path.display()),
        None => path.display().to_string(),
    };
    let mounts = roster.mounts();
    let owners: BTreeMap<u32, TagOwner> = mounts.iter().map(|(t, m)| (*t, m.owner)).collect();
    if let Some(anchors) = args.anchors {
        let layout = AnchorLayout::load(anchors)?;
        if let Some(clash) = roster.family_clash(&layout.family) {
            problems.push(format!("{}: {clash}", path.display()));
        }
        for (id, owner) in roster.anchor_clashes(layout.anchors.iter().map(|a| a.id)) {
            problems.push(format!(
                "{}: tag {id} on {} is also an anchor in {}",
                at(id),
                roster.describe(owner),
                anchors.display()
            ));
        }
    }
    let board = Board::default();
    for (&tag, &owner) in owners.range(board.ids()) {
        notes.push(format!(
            "{}: tag {tag} on {} is one of the calibration board's (ids {}–{}): keep the board out of view while playing",
            at(tag),
            roster.describe(owner),
            board.first_id,
            board.ids().end - 1
        ));
    }
    if !args.sheets.is_empty() {
        let printed = sheet_tags(args.sheets, roster.tags.family.name(), &mut problems)?;
        for (&tag, &owner) in &owners {
            if !printed.contains_key(&tag) {
                problems.push(format!(
                    "{}: tag {tag} on {} is missing: it is on none of the sheets given",
                    at(tag),
                    roster.describe(owner)
                ));
            }
        }
        for (tag, sheet) in &printed {
            if !owners.contains_key(tag) {
                notes.push(format!(
                    "{}: tag {tag} is printed but unknown to the roster (a spare, or a stand left out?)",
                    sheet.display()
                ));
            }
        }
    }
    for note in &notes {
        writeln!(out, "note: {note}")?;
    }
    for problem in &problems {
        writeln!(out, "problem: {problem}")?;
    }
    if !problems.is_empty() {
        bail!("{}: {} problem(s)", path.display(), problems.len());
    }
    let mut tags: Vec<u32> = owners.keys().copied().collect();
    tags.sort_unstable();
    writeln!(
        out,
        "{}: ok — {} unit(s), {} commander(s), {} tag(s): {}",
        path.display(),
        roster.units.len(),
        roster.commanders.len(),
        tags.len(),
        ranges(&tags)
    )?;
    Ok(())
}

/// Every tag of the sheets, with the first sheet printing it; a tag printed twice or in
/// another family is a problem.
fn sheet_tags(
    sheets: &[PathBuf],
    family: &str,
    problems: &mut Vec<String>,
) -> anyhow::Result<BTreeMap<u32, PathBuf>> {
    let mut printed: BTreeMap<u32, PathBuf> = BTreeMap::new();
    for sheet in sheets {
        let bytes =
            std::fs::read(sheet).with_context(|| format!("{}: cannot read", sheet.display()))?;
        let tags = read_sheet_tags(&bytes);
        if tags.is_empty() {
            bail!(
                "{}: names no tags: give a sheet (SVG or PDF) made by `vedette tags`",
                sheet.display()
            );
        }
        let families: BTreeSet<&str> = tags.iter().map(|(f, _)| f.as_str()).collect();
        for other in families.iter().filter(|f| **f != family) {
            problems.push(format!(
                "{}: its tags are {other}, the roster's are {family} (tags.family)",
                sheet.display()
            ));
        }
        for (_, id) in tags {
            if let Some(first) = printed.get(&id) {
                problems.push(format!(
                    "{}: tag {id} is printed again (also on {}): two stands would share it",
                    sheet.display(),
                    first.display()
                ));
            } else {
                printed.insert(id, sheet.clone());
            }
        }
    }
    Ok(printed)
}

/// `vedette roster import`.
pub fn import(
    file: &Path,
    output: &Path,
    first_tag: u32,
    force: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    super::output::claim(output, &[file], force)?;
    let options = ImportOptions {
        first_tag,
        ..ImportOptions::default()
    };
    let roster = import_file(file, options)?;
    roster.save(output)?;
    summary(&roster, output, out)?;
    writeln!(
        out,
        "each unit got one tray of a typical size for its kind: set the stands to your bases"
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_make_a_roster_with_a_tag_a_stand() {
        let answers = "British\n45th Foot\n\n2\n40x20mm\n95th Rifles\nc\n\n\n\nCraufurd\n\n";
        let mut input = std::io::Cursor::new(answers);
        let mut said = Vec::new();
        let roster = ask(&mut input, &mut said, 20).expect("roster");
        let stands: Vec<(&str, Vec<u32>)> = roster
            .units
            .iter()
            .map(|u| (u.id.as_str(), u.stands.iter().map(|s| s.tag).collect()))
            .collect();
        assert_eq!(
            stands,
            [("45th-foot", vec![20, 21]), ("95th-rifles", vec![22])]
        );
        assert_eq!(roster.units[1].kind, UnitKind::Cavalry);
        assert!((roster.units[0].stands[0].width - 40.0 / 25.4).abs() < 1e-9);
        assert_eq!(roster.commanders[0].tag, 23);
        let text = String::from_utf8(said).expect("utf-8");
        assert!(text.contains("Unit name (empty when done): "), "{text}");
    }

    #[test]
    fn a_typo_is_asked_again_and_the_tags_fit_the_bases() {
        // "two" and "40 by 20" are typos; each is asked again and the answers so far kept.
        let answers = "British\n45th Foot\n\ntwo\n2\n40 by 20\n40x20mm\n\n\n";
        let mut input = std::io::Cursor::new(answers);
        let mut said = Vec::new();
        let roster = ask(&mut input, &mut said, 20).expect("roster");
        let text = String::from_utf8(said).expect("utf-8");
        assert!(
            text.contains("a number of stands from 1 to 60, please"),
            "{text}"
        );
        assert!(text.contains("try again"), "{text}");
        assert_eq!(roster.units[0].stands.len(), 2);
        // A 1" tag with its border (1.25") is deeper than a 20 mm base: 0.6" fits.
        let stand = &roster.units[0].stands[0];
        let size = stand.tag_size.expect("a smaller tag");
        assert!(
            (size - 0.6).abs() < 1e-9 && size * 1.25 <= stand.depth,
            "{size}"
        );
    }

    #[test]
    fn answers_that_end_early_write_nothing() {
        let mut input = std::io::Cursor::new("British\n45th Foot\n");
        let error = ask(&mut input, &mut Vec::new(), 20).expect_err("ended");
        assert!(error.to_string().contains("the answers ended"), "{error}");
    }

    #[test]
    fn the_template_is_a_valid_roster() {
        let roster = Roster::parse(TEMPLATE, Path::new("template.toml")).expect("template");
        assert!(!roster.units.is_empty());
    }

    #[test]
    fn ranges_fold_runs() {
        assert_eq!(ranges(&[1, 2, 3, 7, 9, 10]), "1-3,7,9-10");
    }
}

/// `vedette roster …`.
#[derive(Debug, clap::Subcommand)]
pub enum RosterCommand {
    /// Make a roster: by questions on the terminal, from a commented template, or with a tag
    /// for every stand of a scenario.
    New {
        /// The roster to write.
        #[arg(short, long, value_name = "ROSTER.toml")]
        output: PathBuf,
        /// Write the commented template to fill in.
        #[arg(long, conflicts_with = "scenario")]
        template: bool,
        /// A scene or scenario: every unit, stand and commander, one tag each.
        #[arg(long, value_name = "SCENE")]
        scenario: Option<PathBuf>,
        /// With --scenario: the side of every tag's black square, inches (default: the
        /// smallest the camera finds everywhere on the scenario's table).
        #[arg(long, value_name = "INCHES", requires = "scenario", value_parser = parse_tag_size)]
        tag_size: Option<f64>,
        /// With --scenario: the calibration of the camera the tags are for (default: a
        /// 1080p webcam, 30° from vertical, framing the table).
        #[arg(long, value_name = "CAMERA.toml", requires = "scenario")]
        calibration: Option<PathBuf>,
        /// The first tag id to hand out.
        #[arg(long, default_value_t = 10)]
        first_tag: u32,
        /// Replace an existing file.
        #[arg(long)]
        force: bool,
    },
    /// Check a roster: duplicate tags, bad sizes, unknown brigades, ids outside the family or
    /// used by the anchors, and, with sheets, tags missing from them. Fails if any.
    Check {
        /// The roster.
        roster: PathBuf,
        /// Tag sheets printed for it (PDF or SVG made by `vedette tags`).
        #[arg(long, value_name = "SHEET")]
        sheet: Vec<PathBuf>,
        /// The anchor layout, whose ids no stand may use and whose family the stands share.
        #[arg(long, value_name = "ANCHORS.toml")]
        anchors: Option<PathBuf>,
    },
    /// Import a BattleScribe roster (.ros or .rosz) with Black Powder profiles: units with
    /// their stat lines and special rules, brigades and commanders, one tag each.
    Import {
        /// The BattleScribe file.
        file: PathBuf,
        /// The roster to write.
        #[arg(short, long, value_name = "ROSTER.toml")]
        output: PathBuf,
        /// The first tag id to hand out.
        #[arg(long, default_value_t = 10)]
        first_tag: u32,
        /// Replace an existing file.
        #[arg(long)]
        force: bool,
    },
}

/// A tag side in inches a player can print: 0.3" to 6".
fn parse_tag_size(text: &str) -> Result<f64, String> {
    match text.trim_end_matches('"').parse::<f64>() {
        Ok(size) if (0.3..=6.0).contains(&size) => Ok(size),
        Ok(size) => Err(format!("{size}\": a tag from 0.3\" to 6\", please")),
        Err(_) => Err(format!("{text}: a size in inches, such as 1.25")),
    }
}

/// Run `vedette roster …`, writing its report to `out`.
pub fn run(command: &RosterCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    match command {
        RosterCommand::New {
            output,
            template,
            scenario,
            tag_size,
            calibration,
            first_tag,
            force,
        } => {
            let from = match (template, scenario) {
                (true, _) => NewFrom::Template,
                (false, Some(path)) => NewFrom::Scenario {
                    scene: path,
                    tag_size: *tag_size,
                    calibration: calibration.as_deref(),
                },
                (false, None) => NewFrom::Questions,
            };
            new(from, output, *first_tag, *force, out)
        }
        RosterCommand::Check {
            roster: path,
            sheet,
            anchors,
        } => {
            let args = CheckArgs {
                roster: path,
                sheets: sheet,
                anchors: anchors.as_deref(),
            };
            check(&args, out)
        }
        RosterCommand::Import {
            file,
            output,
            first_tag,
            force,
        } => import(file, output, *first_tag, *force, out),
    }
}
