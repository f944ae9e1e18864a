//! The tag size a roster should print, from the table, the camera and the bases: the smallest
//! tag the camera finds everywhere on the table, and the stands whose bases cannot hold it.
//!
//! Decisions:
//! - The camera is the player's calibration when given; otherwise a typical webcam is assumed
//!   (1920 × 1080, a 70° lens, 30° from vertical, framing the table) and the advice says so.
//! - "Found" is [`vision::sight`]'s: a black square of at least `FINDABLE` pixels, at the
//!   stands' height, over the part of the table the picture shows.
//! - Sizes are rounded up to twentieths of an inch, as they are written in the roster.

use std::io::Write;

use calibration::{Camera, ImageSize, TableCalibration, TableSize};
use roster::{Roster, TagDefaults};
use rules::Scene;
use rules::units::{Degrees, Inches};
use vision::SightMap;
use vision::synthetic::framing_camera;

/// The picture assumed when no calibration is given: a 1080p webcam.
pub const ASSUMED_PICTURE: ImageSize = ImageSize {
    width: 1920,
    height: 1080,
};
const ASSUMED_TILT: Degrees = Degrees(30.0);
const ASSUMED_LENS: Degrees = Degrees(70.0);
/// Cells of the map the advice is read from.
const CELL: Inches = Inches(2.0);
/// No tag is suggested smaller than this (a finger covers less) nor bigger than this (a base
/// of 2.5" holds it).
const SMALLEST: f64 = 0.5;
const LARGEST: f64 = 2.0;

/// The camera the advice is for, and how it is described to the player.
pub struct AdviceCamera {
    camera: Camera,
    described: String,
}

impl AdviceCamera {
    /// The player's calibrated camera.
    pub fn calibrated(calibration: &TableCalibration, file: &std::path::Path) -> AdviceCamera {
        AdviceCamera {
            camera: calibration.camera,
            described: format!("the camera of {}", file.display()),
        }
    }

    /// A typical webcam framing the table.
    pub fn assumed(table: TableSize) -> AdviceCamera {
        AdviceCamera {
            camera: framing_camera(table, ASSUMED_PICTURE, ASSUMED_TILT, ASSUMED_LENS),
            described: format!(
                "an assumed {ASSUMED_PICTURE} webcam with a {:.0}° lens, {:.0}° from vertical (give --calibration CAMERA.toml for yours)",
                ASSUMED_LENS.0, ASSUMED_TILT.0
            ),
        }
    }
}

/// What the camera can find on a scene's table.
pub struct TagAdvice {
    map: SightMap,
    camera: String,
    table: TableSize,
}

impl TagAdvice {
    /// The advice for `scene`'s table seen by `camera`.
    pub fn new(scene: &Scene, camera: AdviceCamera) -> TagAdvice {
        let table = TableSize {
            width: scene.table.width.0,
            depth: scene.table.depth.0,
        };
        let height = Inches(TagDefaults::default().height);
        let map = SightMap::of(
            &camera.camera,
            Inches(table.width),
            Inches(table.depth),
            height,
            CELL,
        );
        TagAdvice {
            map,
            camera: camera.described,
            table,
        }
    }

    /// The smallest tag found everywhere the camera sees the table, in twentieths of an inch
    /// (between 0.5" and 2"); `None` when the camera sees none of it.
    pub fn suggested(&self) -> Option<f64> {
        let needed = self.map.found_everywhere()?.0;
        Some(((needed * 20.0).ceil() / 20.0).clamp(SMALLEST, LARGEST))
    }

    /// Say the size chosen, and what part of the table each smaller tag of `roster` is found
    /// on, unit by unit.
    pub fn report(
        &self,
        roster: &Roster,
        chosen_by_player: bool,
        out: &mut dyn Write,
    ) -> anyhow::Result<()> {
        let size = roster.tags.size;
        let table = format!("{}\" × {}\"", self.table.width, self.table.depth);
        match self.suggested() {
            None => writeln!(
                out,
                "⚠ {} does not see the {table} table: tags of {size}\" written, unchecked",
                self.camera
            )?,
            Some(suggested) if chosen_by_player && size < suggested => writeln!(
                out,
                "⚠ tags of {size}\" are found on {:.0} % of the {table} table by {}; {suggested}\" are found everywhere",
                100.0 * self.map.share_found(Inches(size)),
                self.camera
            )?,
            Some(_) if chosen_by_player => writeln!(
                out,
                "tags of {size}\": found everywhere on the {table} table by {}",
                self.camera
            )?,
            Some(suggested) => writeln!(
                out,
                "tags of {suggested}\": the smallest found everywhere on the {table} table by {} (--tag-size to choose another)",
                self.camera
            )?,
        }
        self.small_stands(roster, out)
    }

    /// Units whose bases hold only a smaller tag than the roster's, with the part of the
    /// table it is found on.
    fn small_stands(&self, roster: &Roster, out: &mut dyn Write) -> anyhow::Result<()> {
        let Some(needed) = self.map.found_everywhere() else {
            return Ok(());
        };
        for unit in &roster.units {
            let Some(smallest) = unit
                .stands
                .iter()
                .filter_map(|s| s.tag_size)
                .reduce(f64::min)
            else {
                continue;
            };
            if smallest >= needed.0 {
                continue;
            }
            let share = self.map.share_found(Inches(smallest));
            let found = if share > 0.0 {
                format!(
                    "found on {:.0} % of the table, nearest the camera",
                    100.0 * share
                )
            } else {
                "found nowhere on the table".to_owned()
            };
            writeln!(
                out,
                "⚠ {}: its bases hold a {smallest}\" tag at most, {found}: mount it on a movement tray with one bigger tag",
                unit.named(),
            )?;
        }
        Ok(())
    }
}
