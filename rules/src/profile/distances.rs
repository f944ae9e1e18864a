//! The `[distances]` and `[tolerance]` tables: the lengths the rules measure against and how
//! close to one of them is too close to call.

use serde::{Deserialize, Serialize};

use super::Profile;
use crate::units::{Degrees, Inches};

/// When two numbers are too close to call (digest §15, global recommendations).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tolerance {
    /// Distances within this of a threshold are borderline.
    pub distance: Inches,
    /// Angles within this of a threshold are borderline.
    pub angle: Degrees,
    /// What decides a borderline length the camera measured, with its error bar.
    #[serde(default)]
    pub measured: MeasuredBorderline,
}

/// What makes a length the camera measured borderline (`[tolerance] measured`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MeasuredBorderline {
    /// Its threshold lies inside its 95 % interval: the camera cannot tell (the default). A
    /// length well clear of its threshold is decided, however near it is.
    #[default]
    Interval,
    /// Inside its interval, or within the ruleset's tolerance of the threshold: a tape
    /// measure's habits kept on a measured table.
    Either,
}

impl Tolerance {
    /// How near its threshold a length must be to be borderline: the tolerance for a length no
    /// camera measured; for a measured one its 95 % half-width (the camera cannot tell), or the
    /// wider of the two under `[tolerance] measured = "either"`.
    pub fn margin(&self, plus_minus: Option<Inches>) -> Inches {
        match (plus_minus, self.measured) {
            (None, _) => self.distance,
            (Some(within), MeasuredBorderline::Interval) => within,
            (Some(within), MeasuredBorderline::Either) => within.max(self.distance),
        }
    }
}

/// The distances a profile measures against, unscaled as written in the profile.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Distances {
    /// Enemy within this: proximity movement rule, initiative, command penalty (A17).
    pub proximity: Inches,
    /// Bases this close are touching.
    pub contact: Inches,
    /// Supporters within this of the engaged unit (A27).
    pub support: Inches,
    /// Brigade-mates within this of each other form a group (A16).
    pub brigade_cohesion: Inches,
    /// One command penalty step (A15).
    pub command_step: Inches,
    /// Close range (A14).
    pub close_range: Inches,
    /// The narrowest gap infantry and cavalry shoot through (A11).
    pub gap: Inches,
    /// The narrowest gap cannon shoot through.
    pub cannon_gap: Inches,
    /// The cost of crossing an obstacle.
    pub obstacle: Inches,
    /// The cost of entering a building.
    pub building_entry: Inches,
    /// How deep inside a wood a unit still sees and is seen (A9).
    pub wood_edge: Inches,
    /// How close behind an obstacle a unit counts as in cover (A31).
    pub cover_behind: Inches,
    /// Where cavalry halt before a steady square.
    pub cavalry_square_halt: Inches,
    /// A commander's move on foot.
    pub commander_on_foot: Inches,
    /// A commander's move on horseback.
    pub commander_mounted: Inches,
    /// Units fired over must be further than this from the gun and from the target (A40).
    #[serde(default = "dead_ground")]
    pub dead_ground: Inches,
    /// A charger crossing a unit's front within this may be shot at (A25).
    #[serde(default = "traversing")]
    pub traversing: Inches,
}

impl Distances {
    /// Every length, each once. The pattern names every field, so a length added to the table
    /// cannot be left out of the conversion into inches or of the distance scale.
    fn lengths_mut(&mut self) -> [&mut Inches; 17] {
        let Distances {
            proximity,
            contact,
            support,
            brigade_cohesion,
            command_step,
            close_range,
            gap,
            cannon_gap,
            obstacle,
            building_entry,
            wood_edge,
            cover_behind,
            cavalry_square_halt,
            commander_on_foot,
            commander_mounted,
            dead_ground,
            traversing,
        } = self;
        [
            proximity,
            contact,
            support,
            brigade_cohesion,
            command_step,
            close_range,
            gap,
            cannon_gap,
            obstacle,
            building_entry,
            wood_edge,
            cover_behind,
            cavalry_square_halt,
            commander_on_foot,
            commander_mounted,
            dead_ground,
            traversing,
        ]
    }

    /// Multiply every length by `factor`.
    pub(super) fn convert(&mut self, factor: f64) {
        for length in self.lengths_mut() {
            *length = *length * factor;
        }
    }
}

/// The book's 6" dead ground, for profiles written before it was configurable.
fn dead_ground() -> Inches {
    Inches(6.0)
}

/// The book's 12" traversing-fire distance, for profiles written before it was configurable.
fn traversing() -> Inches {
    Inches(12.0)
}

impl Profile {
    /// The borderline tolerance, scaled.
    pub fn tolerance(&self) -> Tolerance {
        Tolerance {
            distance: self.scaled(self.tolerance.distance),
            angle: self.tolerance.angle,
            measured: self.tolerance.measured,
        }
    }

    /// The distance at which enemies restrict movement and give initiative.
    pub fn proximity(&self) -> Inches {
        self.scaled(self.distances.proximity)
    }

    /// Every distance the rules measure against, scaled.
    pub fn distances(&self) -> Distances {
        let mut scaled = self.distances.clone();
        scaled.convert(self.distance_scale);
        scaled
    }
}
