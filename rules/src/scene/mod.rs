//! The scene: one state of the table — its size, its terrain and the units on it.
//!
//! A scene is what the camera produces and what the rulings consume, and a format players can
//! write by hand (JSON or TOML). The conventions, also in docs/guide/file-formats.md:
//! - lengths are table inches; the origin is a table corner, `x` runs along the table's width
//!   and `y` along its depth (the plan view draws `y` upwards);
//! - `facing` is in degrees counter-clockwise from +x, the direction the unit's front faces;
//! - `front_center` is the midpoint of the unit's front edge, the Black Powder leader point;
//! - the footprint is the `width` × `depth` rectangle behind the front edge;
//! - left and right are the unit's own, as it faces its front.
//!
//! A unit may instead be given as `stands`; its footprint for quarters is then the oriented
//! bounding rectangle of its stands in the unit's facing, while distances are measured to the
//! stands themselves.

mod doc;
mod error;
mod format;
mod load;
mod profile_of;
mod validate;

pub use doc::{CommanderDoc, SceneDoc, StandDoc, TableDoc, TerrainDoc, UnitDoc};
pub use error::{Problem, SceneError, Subject};
pub use format::Format;

use crate::uncertainty::PlaceSd;
use serde::{Deserialize, Serialize};

use crate::geometry::{OrientedRect, TablePoint, TableVector, facing_of, heading};
use crate::units::{Degrees, Inches};
use crate::vocabulary::RulesetId;
pub use crate::vocabulary::{Formation, TerrainKind, UnitKind};

/// One state of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// The ruleset whose rulings apply.
    pub ruleset: RulesetId,
    /// The playing area.
    pub table: Table,
    /// Woods, hills, buildings, obstacles …
    pub terrain: Vec<Terrain>,
    /// The units on the table.
    pub units: Vec<Unit>,
    /// The commanders on the table.
    pub commanders: Vec<Commander>,
    /// The armies, when the scene lists them.
    pub sides: Vec<Side>,
    /// The scenario this scene comes from, if any.
    pub scenario: Option<ScenarioInfo>,
    /// Multiplies every distance of the ruleset (0.5 for 15 mm figures).
    pub distance_scale: f64,
    /// The figure scale in millimetres, for rulesets in scale metres (eRules).
    pub figure_scale: Option<u32>,
    /// How far every length the camera measured may be off, relative (one standard deviation);
    /// `None` for a scene no camera measured.
    pub length_sd: Option<f64>,
    /// How far the table as a whole may lie off where the anchors put it (one standard
    /// deviation along each axis); `None` for a scene no camera measured.
    pub frame_sd: Option<Inches>,
}

/// Where a scene comes from: a scenario's name, its source and notes for the players.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioInfo {
    /// e.g. "The Battle of Freeman's Farm".
    pub name: String,
    /// e.g. "Black Powder, The Games and how they were played".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Deployment, objectives, special rules, in prose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

/// A table edge, by compass: south is `y = 0`, north `y = depth`, west `x = 0`, east `x = width`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TableEdge {
    /// y = 0.
    South,
    /// y = depth.
    North,
    /// x = 0.
    West,
    /// x = width.
    East,
}

impl TableEdge {
    /// Its name, as scenes write it.
    pub fn as_str(self) -> &'static str {
        match self {
            TableEdge::South => "south",
            TableEdge::North => "north",
            TableEdge::West => "west",
            TableEdge::East => "east",
        }
    }
}

/// An army.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Side {
    /// The id units and commanders use in their `side`.
    pub id: String,
    /// For people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The army's staff rating (5–10; usually 8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub staff_rating: Option<u8>,
    /// The edge the army's own lines are towards (for squares and retreats).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub home_edge: Option<TableEdge>,
}

/// A commander: measured from his head, ignored for sight, targets and the 12" rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Commander {
    /// Unique id.
    pub id: String,
    /// For people.
    pub name: String,
    /// His side.
    pub side: String,
    /// The brigade he commands; `None` for the commander-in-chief.
    pub brigade: Option<String>,
    /// His head (the tag centre).
    pub position: TablePoint,
    /// On horseback (48" move) or on foot (36").
    pub mounted: bool,
    /// His own staff rating, if given.
    pub staff_rating: Option<u8>,
    /// How far the camera may have his head off, when it placed him.
    pub sd: Option<PlaceSd>,
}

/// Unit size (digest §1.3): only non-stat rules use it, since printed stat lines already
/// include the size modifiers (A34).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UnitSize {
    /// The usual size.
    #[default]
    Standard,
    /// Large.
    Large,
    /// Small.
    Small,
    /// Tiny: always skirmishers.
    Tiny,
}

/// A stat line as the book prints it (digest §1.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatLine {
    /// "Regular Infantry", "Irregular Cavalry", "Artillery" …
    #[serde(rename = "type")]
    pub unit_type: String,
    /// "Smoothbore Muskets", "Rifled Muskets (24\")" …
    pub armament: String,
    /// Combat dice.
    pub hand_to_hand: u32,
    /// Shooting dice: "3", "3-2-1" for artillery, "-" for none, "Special" for machine guns.
    #[serde(deserialize_with = "text_or_number")]
    pub shooting: String,
    /// Save: "4+", or "0" for none.
    #[serde(deserialize_with = "text_or_number")]
    pub morale: String,
    /// Casualties before shaken.
    pub stamina: u32,
    /// Special rules: "Crack", "First Fire", "Heavy Cavalry +1" …
    #[serde(default)]
    pub special: Vec<String>,
}

impl StatLine {
    /// Whether the unit has a special rule (case-insensitive, "Heavy Cavalry" matches "Heavy Cavalry +1").
    pub fn has_special(&self, rule: &str) -> bool {
        let rule = rule.to_lowercase();
        self.special
            .iter()
            .any(|s| s.to_lowercase().starts_with(&rule))
    }
}

/// Stat values are printed as numbers or text ("3", "3-2-1", "4+"): accept either.
fn text_or_number<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum TextOrNumber {
        Text(String),
        Number(u32),
    }
    Ok(match TextOrNumber::deserialize(deserializer)? {
        TextOrNumber::Text(text) => text,
        TextOrNumber::Number(n) => n.to_string(),
    })
}

/// How a unit moved in its last bound, for rulesets where movement carries over (eRules §10):
/// the direction it moved in (not its facing) and how far, in table inches.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Momentum {
    /// Direction of movement, degrees counter-clockwise from +x.
    pub heading: f64,
    /// Distance moved in the last bound, table inches (0: halted).
    pub distance: f64,
}

/// What is happening to a unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UnitState {
    /// In hand-to-hand combat; `None` means "engaged if touching an enemy".
    pub engaged: Option<bool>,
    /// Disordered.
    pub disordered: bool,
    /// Shaken.
    pub shaken: bool,
}

/// The playing area: a rectangle from the origin corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Table {
    /// Along x.
    pub width: Inches,
    /// Along y.
    pub depth: Inches,
}

impl Table {
    /// Whether `p` lies on the playing area, its edges included.
    pub fn contains(&self, p: &TablePoint) -> bool {
        (0.0..=self.width.0).contains(&p.x) && (0.0..=self.depth.0).contains(&p.y)
    }
}

/// A unit on the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Unit {
    /// Unique in the scene, e.g. `45th-foot`.
    pub id: String,
    /// For people, e.g. "45th Foot".
    pub name: String,
    /// Which army it fights for; units of different sides are enemies.
    pub side: String,
    /// Infantry, cavalry or artillery.
    pub kind: UnitKind,
    /// How it is drawn up.
    pub formation: Formation,
    /// The weapon id in the scene's ruleset (e.g. `smoothbore-musket`).
    pub weapon: Option<String>,
    /// The brigade it belongs to, if the scene says.
    pub brigade: Option<String>,
    /// Where it stands.
    pub footprint: Footprint,
    /// Its size.
    pub size: UnitSize,
    /// Its stat line, if the scene gives one.
    pub stats: Option<StatLine>,
    /// Engaged, disordered, shaken.
    pub state: UnitState,
    /// Its last bound's movement, when the scene records it.
    pub momentum: Option<Momentum>,
    /// The figures it has left, for rulesets that count them (eRules' tally of a unit, §38;
    /// a Bugles, Bullets and Blades stand's figures or a gun's crew); `None`: at full strength.
    pub figures: Option<u32>,
}

/// Where a unit stands: its bases, and the rectangle its quarters are drawn from.
#[derive(Clone, Debug, PartialEq)]
pub struct Footprint {
    frame: OrientedRect,
    stands: Vec<OrientedRect>,
    from_stands: bool,
    /// How far the camera may be off in placing each stand, when a camera placed them.
    sd: Option<Vec<PlaceSd>>,
}

impl Footprint {
    /// A unit given as one rectangle (a movement tray, or a unit described by its frontage).
    pub fn block(frame: OrientedRect) -> Footprint {
        Footprint {
            frame,
            stands: vec![frame],
            from_stands: false,
            sd: None,
        }
    }

    /// A unit given as stands. Its facing is `facing` if given, else the mean of its stands';
    /// its frame is the stands' bounding rectangle in that facing (digest A1). `stands` must not
    /// be empty.
    pub fn from_stands(stands: Vec<OrientedRect>, facing: Option<Degrees>) -> Footprint {
        let facing = facing.unwrap_or_else(|| mean_facing(&stands));
        let forward = heading(facing);
        let right = TableVector::new(forward.y, -forward.x);
        let corners: Vec<TablePoint> = stands.iter().flat_map(|s| s.corners()).collect();
        let along = |axis: TableVector| corners.iter().map(move |c| c.coords.dot(&axis));
        let (min_across, max_across) = min_max(along(right));
        let (min_ahead, max_ahead) = min_max(along(forward));
        let front_center =
            TablePoint::from(right * ((min_across + max_across) / 2.0) + forward * max_ahead);
        let frame = OrientedRect::new(
            front_center,
            facing,
            Inches(max_across - min_across),
            Inches(max_ahead - min_ahead),
        );
        Footprint {
            frame,
            stands,
            from_stands: true,
            sd: None,
        }
    }

    /// The same stands, with how far the camera may be off in placing each (one per stand, in
    /// order; any other count leaves the footprint unmeasured).
    pub fn with_sd(mut self, sd: Vec<PlaceSd>) -> Footprint {
        self.sd = (sd.len() == self.stands.len()).then_some(sd);
        self
    }

    /// How far the camera may be off in placing each stand, if a camera placed them.
    pub fn sd(&self) -> Option<&[PlaceSd]> {
        self.sd.as_deref()
    }

    /// How far the camera may have the unit's frame off, when it placed its stands: the mean of
    /// its stands' centre covariances, and the root mean square of their facings' deviations.
    pub fn frame_sd(&self) -> Option<PlaceSd> {
        let sd = self.sd.as_ref()?;
        let count = sd.len().max(1) as f64;
        let centre = sd
            .iter()
            .map(|s| *s.centre())
            .sum::<nalgebra::Matrix2<f64>>()
            / count;
        let facing = (sd.iter().map(|s| s.facing().0.powi(2)).sum::<f64>() / count).sqrt();
        Some(PlaceSd::new(centre, Degrees(facing)))
    }

    /// The covariance (square inches) of the point `at` of this unit, if a camera placed it:
    /// that of the stand nearest to it, the stand's facing swinging it about the stand's centre.
    pub fn covariance_at(&self, at: TablePoint) -> Option<nalgebra::Matrix2<f64>> {
        let sd = self.sd.as_ref()?;
        let nearest = self.stands.iter().zip(sd).min_by(|a, b| {
            let gap = |rect: &OrientedRect| rect.closest_point(&at).1.0;
            gap(a.0).total_cmp(&gap(b.0))
        })?;
        Some(nearest.1.covariance_at(at - nearest.0.center()))
    }

    /// The rectangle the quarters are drawn from; its front-edge midpoint is the leader.
    pub fn frame(&self) -> &OrientedRect {
        &self.frame
    }

    /// The bases distances are measured to.
    pub fn stands(&self) -> &[OrientedRect] {
        &self.stands
    }

    /// Whether the scene gave this unit as stands (rather than one rectangle).
    pub fn is_from_stands(&self) -> bool {
        self.from_stands
    }

    /// The leader point: the midpoint of the front edge (digest A3).
    pub fn leader(&self) -> TablePoint {
        self.frame.front_center()
    }

    /// The facing of the unit.
    pub fn facing(&self) -> Degrees {
        self.frame.facing()
    }

    /// The closest base-edge-to-base-edge gap to another footprint (digest A4): 0 if touching.
    pub fn gap_to(&self, other: &Footprint) -> Inches {
        self.stands
            .iter()
            .flat_map(|a| other.stands.iter().map(move |b| a.gap_to(b)))
            .fold(Inches(f64::INFINITY), Inches::min)
    }

    /// How far the camera may have the length from `from` (a point of these bases) to `to` (a
    /// point of `other`'s) off, 95 % either way, when it placed both; `length_sd` is the scene's
    /// relative error of every length.
    pub fn plus_minus_to(
        &self,
        from: TablePoint,
        other: &Footprint,
        to: TablePoint,
        length_sd: Option<f64>,
    ) -> Option<Inches> {
        let from_covariance = self.covariance_at(from)?;
        let to_covariance = other.covariance_at(to)?;
        Some(crate::uncertainty::length_plus_minus(
            (from, &from_covariance),
            (to, &to_covariance),
            length_sd.unwrap_or(0.0),
        ))
    }

    /// How far the camera may have the gap to `other` off, 95 % either way, when it placed both
    /// (the two footprints may be of different moments, as a move's are).
    pub fn gap_plus_minus(&self, other: &Footprint, length_sd: Option<f64>) -> Option<Inches> {
        self.sd()?;
        other.sd()?;
        let (from, to) = self.nearest_points_to(other)?;
        self.plus_minus_to(from, other, to, length_sd)
    }

    /// The most any point of these bases may be off, 95 % in any direction, when a camera
    /// placed them (zero otherwise): a bound that rules out pairs too far apart to matter.
    pub fn worst_plus_minus(&self) -> Inches {
        let Some(sd) = self.sd() else {
            return Inches::ZERO;
        };
        let worst = self
            .stands
            .iter()
            .zip(sd)
            .map(|(stand, sd)| {
                let reach = (stand.width().0.hypot(stand.depth().0)) / 2.0;
                sd.centre().trace() + (sd.facing().0.to_radians() * reach).powi(2)
            })
            .fold(0.0, f64::max);
        Inches(crate::uncertainty::Z95 * worst.sqrt())
    }

    /// The two nearest points of these bases and another footprint's: the ends of the gap
    /// between them (one point, inside both, where they overlap).
    pub fn nearest_points_to(&self, other: &Footprint) -> Option<(TablePoint, TablePoint)> {
        use parry2d_f64::query::{ClosestPoints, closest_points};
        let mut nearest: Option<(f64, TablePoint, TablePoint)> = None;
        for a in &self.stands {
            let (pose_a, shape_a) = a.to_parry();
            for b in &other.stands {
                let (pose_b, shape_b) = b.to_parry();
                let (from, to) =
                    match closest_points(&pose_a, &shape_a, &pose_b, &shape_b, f64::MAX) {
                        Ok(ClosestPoints::WithinMargin(from, to)) => (from, to),
                        Ok(ClosestPoints::Intersecting) => {
                            let inside = b.closest_point(&a.center()).0;
                            (inside, inside)
                        }
                        _ => continue,
                    };
                let gap = nalgebra::distance(&from, &to);
                if nearest.is_none_or(|(best, _, _)| gap < best) {
                    nearest = Some((gap, from, to));
                }
            }
        }
        nearest.map(|(_, from, to)| (from, to))
    }

    /// The closest point of the bases to `point`, and its distance.
    pub fn closest_point(&self, point: &TablePoint) -> (TablePoint, Inches) {
        self.stands
            .iter()
            .map(|s| s.closest_point(point))
            .min_by(|a, b| a.1.0.total_cmp(&b.1.0))
            .unwrap_or((self.frame.front_center(), Inches(f64::INFINITY)))
    }
}

fn min_max(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    })
}

/// The circular mean of the stands' facings (the first stand's if they cancel out).
fn mean_facing(stands: &[OrientedRect]) -> Degrees {
    let sum: TableVector = stands.iter().map(|s| s.forward()).sum();
    if sum.norm() > 1e-9 {
        facing_of(sum)
    } else {
        stands.first().map(|s| s.facing()).unwrap_or_default()
    }
}

/// The outline of a piece of terrain.
#[derive(Clone, Debug, PartialEq)]
pub enum TerrainShape {
    /// An area, as a simple polygon.
    Area(Vec<TablePoint>),
    /// A linear feature, as a polyline.
    Line(Vec<TablePoint>),
}

/// How a hill rises from its foot: the height of its top above the cloth and where its top
/// begins.
#[derive(Clone, Debug, PartialEq)]
pub struct Rise {
    /// The top's height above the cloth.
    pub top: Inches,
    /// The outline of its flat top; `None`: [`Rise::ramp`] inside the foot all round.
    pub crest: Option<Vec<TablePoint>>,
}

/// The slope of a hill without a crest: 15°, a modelled hill's usual flank.
const DEFAULT_SLOPE_TAN: f64 = 0.268;

impl Rise {
    /// How far inside its foot a hill without a crest reaches its top.
    pub fn ramp(&self) -> Inches {
        Inches((self.top.0 / DEFAULT_SLOPE_TAN).max(0.5))
    }
}

/// A piece of terrain.
#[derive(Clone, Debug, PartialEq)]
pub struct Terrain {
    /// Unique in the scene, e.g. `wood-1`.
    pub id: String,
    /// What it is.
    pub kind: TerrainKind,
    /// Where it is.
    pub shape: TerrainShape,
    /// Height level for hills (digest A10); 1 when a hill does not say.
    pub height: Option<u32>,
    /// A hill's real height and crest, for the camera (`rules::ground` makes the table's
    /// height field from them); `None`: flat to the camera.
    pub rise: Option<Rise>,
}

impl Scene {
    /// The unit with this id.
    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.units.iter().find(|u| u.id == id)
    }

    /// The commander with this id.
    pub fn commander(&self, id: &str) -> Option<&Commander> {
        self.commanders.iter().find(|c| c.id == id)
    }

    /// The scene's ruleset profile, scaled by its distance scale.
    pub fn profile(&self) -> crate::profile::Profile {
        self.scaled(crate::profile::Profile::builtin(self.ruleset))
    }

    /// A profile with the scene's distance scale applied on top of its own.
    /// A figure scale the ruleset does not know (refused when the scene is read) is ignored.
    pub fn scaled(&self, profile: &crate::profile::Profile) -> crate::profile::Profile {
        let figured = self
            .figure_scale
            .and_then(|figures| profile.with_figure_scale(figures).ok());
        let base = figured.as_ref().unwrap_or(profile);
        base.with_distance_scale(base.distance_scale() * self.distance_scale)
    }

    /// The side with this id, if the scene lists sides.
    pub fn side(&self, id: &str) -> Option<&Side> {
        self.sides.iter().find(|s| s.id == id)
    }

    /// A side's number, from 0: its place in the scene's list of sides, then among the sides
    /// its units name that the list lacks, in the order they first appear. Every view colours
    /// an army by it (the app, the pages, the rendered and annotated pictures), so one side
    /// has one colour everywhere.
    pub fn side_number(&self, side: &str) -> usize {
        let mut sides: Vec<&str> = self.sides.iter().map(|s| s.id.as_str()).collect();
        for unit in &self.units {
            if !sides.contains(&unit.side.as_str()) {
                sides.push(&unit.side);
            }
        }
        sides.iter().position(|s| *s == side).unwrap_or(0)
    }
}
