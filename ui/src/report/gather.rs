//! Reading a game for its report: each turn's table at its end, its moves (and which were
//! charges), its notable marks and the camera's picture nearest its start, made small.

use record::{GameRecord, GameTime, Mark, MarkKind, RecordError};
use rules::Scene;

use super::model::{Picture, Report, ReportError, SideKey, TurnReport};
use super::notable::Notables;
use super::palette;
use super::turns::{self, Turn};

/// The widest a camera picture is kept in a report: enough to see the table, and a report of
/// twenty turns stays a few megabytes rather than a few dozen.
const PICTURE_WIDTH: u32 = 1024;

impl Report {
    /// Read a game for its report, turn by turn; `progress` hears of each turn read (done,
    /// of).
    pub fn gather(
        record: &GameRecord,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Report, ReportError> {
        let (cutting, cut) = turns::cut(record);
        let mut damage: Vec<String> = record.damage().to_vec();
        let mut turns = Vec::with_capacity(cut.len());
        let count = cut.len();
        for (index, turn) in cut.into_iter().enumerate() {
            turns.push(read_turn(record, index + 1, turn, &mut damage));
            progress(index + 1, count);
        }
        let last = turns.iter().rev().find_map(|t| t.scene.as_ref());
        let sides = last.map(sides_of).unwrap_or_default();
        Ok(Report {
            info: record.info().clone(),
            until: record.until(),
            moves: record.moves().len(),
            cutting,
            ruleset: last.map(|s| s.profile().name().to_owned()),
            scenario: last.and_then(|s| s.scenario.as_ref().map(|i| i.name.clone())),
            sides,
            turns,
            damage,
        })
    }
}

/// The turn's moves, charges and marks, its table at the end and its picture.
fn read_turn(
    record: &GameRecord,
    number: usize,
    turn: Turn,
    damage: &mut Vec<String>,
) -> TurnReport {
    let scene = record.scene_at(turn.end()).unwrap_or_else(|e| {
        damage.push(e.to_string());
        None
    });
    let marks: Vec<&Mark> = record.marks().iter().filter(|m| turn.holds(m.at)).collect();
    // A charge is a move that ended in contact: its unit is named by a contact after it came
    // to rest, within the turn.
    let moves = record
        .moves()
        .iter()
        .filter(|m| turn.holds(m.ended))
        .map(|made| {
            let charge = marks.iter().any(|mark| {
                mark.kind == MarkKind::Contact
                    && mark.at >= made.ended
                    && mark.units.contains(&made.unit)
            });
            (made.clone(), charge)
        })
        .collect::<Vec<_>>();
    let name = |id: &str| {
        scene
            .as_ref()
            .and_then(|s| s.unit(id).map(|u| u.name.clone()))
            .or_else(|| {
                record
                    .moves()
                    .iter()
                    .find(|m| m.unit == id)
                    .map(|m| m.name.clone())
            })
            .unwrap_or_else(|| id.to_owned())
    };
    let notables = Notables::of(marks.iter().copied(), name);
    let picture = picture_near(record, turn.from).unwrap_or_else(|e| {
        damage.push(e.to_string());
        None
    });
    TurnReport {
        number,
        turn,
        scene,
        moves,
        notables,
        picture,
    }
}

/// The kept picture nearest `at` (the one at a turn mark is taken just after it), made small.
fn picture_near(record: &GameRecord, at: GameTime) -> Result<Option<Picture>, RecordError> {
    let nearest = record
        .keyframes()
        .iter()
        .min_by_key(|t| t.millis().abs_diff(at.millis()))
        .copied();
    let Some(nearest) = nearest else {
        return Ok(None);
    };
    let Some(keyframe) = record.keyframe_at(nearest)? else {
        return Ok(None);
    };
    let jpeg = match smaller(&keyframe.jpeg) {
        Ok(jpeg) => jpeg,
        Err(e) => {
            tracing::warn!("the picture at {} cannot be read: {e}", keyframe.at);
            return Ok(None);
        }
    };
    Ok(Some(Picture {
        at: keyframe.at,
        jpeg,
    }))
}

/// A JPEG no wider than [`PICTURE_WIDTH`]: as it was if it already is.
fn smaller(jpeg: &[u8]) -> Result<Vec<u8>, image::ImageError> {
    let picture = image::load_from_memory_with_format(jpeg, image::ImageFormat::Jpeg)?;
    if picture.width() <= PICTURE_WIDTH {
        return Ok(jpeg.to_vec());
    }
    let height = (u64::from(picture.height()) * u64::from(PICTURE_WIDTH)
        / u64::from(picture.width().max(1))) as u32;
    let small = picture.resize_exact(
        PICTURE_WIDTH,
        height.max(1),
        image::imageops::FilterType::Triangle,
    );
    record::jpeg(&small.to_rgb8())
}

/// The armies of a table, with their colours.
fn sides_of(scene: &Scene) -> Vec<SideKey> {
    palette::sides(scene)
        .iter()
        .map(|id| SideKey {
            name: palette::side_name(scene, id),
            fill: palette::side(scene, id).0,
            units: scene.units.iter().filter(|u| &u.side == id).count(),
        })
        .collect()
}
