//! The scene document as written in JSON or TOML: plain fields, every one checked by
//! validation before it becomes a [`Scene`](super::Scene). Points are [`TablePoint`]s, written
//! `[x, y]` in table inches.

use crate::uncertainty::PlaceSdDoc;
use serde::{Deserialize, Serialize};

use super::{
    Commander, Formation, ScenarioInfo, Scene, Side, StatLine, TerrainKind, TerrainShape, Unit,
    UnitKind, UnitSize,
};
use crate::geometry::{TablePoint, xy};
use crate::vocabulary::RulesetId;

/// The whole document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneDoc {
    /// e.g. `"black-powder"`.
    pub ruleset: RulesetId,
    /// The table size.
    pub table: TableDoc,
    /// Multiplies every distance of the ruleset: 0.5 for 15 mm figures and smaller (digest,
    /// scale note). 1 when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance_scale: Option<f64>,
    /// The figure scale in millimetres (6, 10, 15, 25), for rulesets that measure in scale
    /// metres (eRules): it sets how many table millimetres a scale metre takes. Absent: the
    /// ruleset's default (6 mm for eRules).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub figure_scale: Option<u32>,
    /// How far every length the camera measured may be off, relative (one standard deviation:
    /// the calibration's own error, common to every stand). Absent: not measured by a camera.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length_sd: Option<f64>,
    /// How far the table as a whole may lie off where the anchors put it (one standard
    /// deviation along each axis, inches): common to every stand, so no distance between two
    /// stands keeps it, but a stand's place against the table's edge or its terrain does.
    /// Absent: not measured by a camera.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame_sd: Option<f64>,
    /// What game this is, if it comes from a scenario.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<ScenarioInfo>,
    /// The armies: staff rating and home edge. Optional; when given, every side used must be listed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<Side>,
    /// Terrain pieces.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrain: Vec<TerrainDoc>,
    /// Units.
    #[serde(default)]
    pub units: Vec<UnitDoc>,
    /// Commanders: brigade commanders and the commander-in-chief.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commanders: Vec<CommanderDoc>,
}

/// A commander: a figure on its own base, measured from its head (the tag centre).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommanderDoc {
    /// Unique id.
    pub id: String,
    /// Display name; the id if absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The side he commands for.
    pub side: String,
    /// The brigade he commands; absent for the commander-in-chief.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brigade: Option<String>,
    /// Where his head is.
    #[serde(with = "xy")]
    pub position: TablePoint,
    /// On horseback (the default) or on foot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mounted: Option<bool>,
    /// His staff rating, if it differs from the side's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub staff_rating: Option<u8>,
    /// How far the camera may have his head off (one standard deviation); absent in a scene not
    /// seen by a camera.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sd: Option<PlaceSdDoc>,
}

/// `"table": { "width": 72, "depth": 48 }`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableDoc {
    /// Inches along x.
    pub width: f64,
    /// Inches along y.
    pub depth: f64,
}

/// A terrain piece: an area `polygon`, or for linear features a `line`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainDoc {
    /// Unique id.
    pub id: String,
    /// wood, rough, very-rough, extremely-rough, obstacle, building, hill, impassable, river, road, decorative.
    pub kind: TerrainKind,
    /// Corners of an area, in order.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "xy::optional_list"
    )]
    pub polygon: Option<Vec<TablePoint>>,
    /// Points along a linear feature.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "xy::optional_list"
    )]
    pub line: Option<Vec<TablePoint>>,
    /// Height level of a hill.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<u32>,
    /// A hill's real height: inches of its top above the cloth (the camera places the stands
    /// on it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rise: Option<f64>,
    /// The outline of a hill's flat top, inside its polygon (default: a 15° climb from its
    /// foot).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "xy::optional_list"
    )]
    pub crest: Option<Vec<TablePoint>>,
}

/// A unit: either `front_center` + `facing` + `width` + `depth`, or `stands`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitDoc {
    /// Unique id.
    pub id: String,
    /// Display name; the id if absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The side (army) it fights for.
    pub side: String,
    /// infantry, cavalry or artillery.
    pub kind: UnitKind,
    /// line, extended-line, attack-column, march-column, skirmish, mixed, warband, square, building, deployed, limbered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formation: Option<Formation>,
    /// Midpoint of the front edge.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "xy::optional"
    )]
    pub front_center: Option<TablePoint>,
    /// Degrees counter-clockwise from +x.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<f64>,
    /// Frontage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<f64>,
    /// Depth behind the front edge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<f64>,
    /// Weapon id or name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<String>,
    /// Brigade id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brigade: Option<String>,
    /// The unit's stands, instead of one rectangle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stands: Option<Vec<StandDoc>>,
    /// standard (default), large, small or tiny.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<UnitSize>,
    /// The stat line as printed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<StatLine>,
    /// In hand-to-hand combat. When absent, a unit touching an enemy is engaged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engaged: Option<bool>,
    /// Disordered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disordered: Option<bool>,
    /// Shaken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shaken: Option<bool>,
    /// How it moved in its last bound (eRules momentum).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub momentum: Option<super::Momentum>,
    /// The figures it has left, for rulesets that count them (eRules, Bugles, Bullets and
    /// Blades); absent: at full strength.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub figures: Option<u32>,
}

/// One stand: an oriented rectangle given by its centre.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandDoc {
    /// Centre of the stand.
    #[serde(with = "xy")]
    pub center: TablePoint,
    /// Degrees counter-clockwise from +x.
    pub facing: f64,
    /// Frontage.
    pub width: f64,
    /// Depth.
    pub depth: f64,
    /// How far the camera may be off in placing it (one standard deviation); absent in a scene
    /// not seen by a camera.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sd: Option<PlaceSdDoc>,
}

impl From<&Unit> for UnitDoc {
    fn from(unit: &Unit) -> UnitDoc {
        let footprint = &unit.footprint;
        let frame = footprint.frame();
        let mut doc = UnitDoc {
            id: unit.id.clone(),
            name: (unit.name != unit.id).then(|| unit.name.clone()),
            side: unit.side.clone(),
            kind: unit.kind,
            formation: Some(unit.formation),
            facing: Some(frame.facing().0),
            weapon: unit.weapon.clone(),
            brigade: unit.brigade.clone(),
            front_center: None,
            width: None,
            depth: None,
            stands: None,
            size: (unit.size != UnitSize::Standard).then_some(unit.size),
            stats: unit.stats.clone(),
            engaged: unit.state.engaged,
            disordered: unit.state.disordered.then_some(true),
            shaken: unit.state.shaken.then_some(true),
            momentum: unit.momentum,
            figures: unit.figures,
        };
        if footprint.is_from_stands() {
            let stands = footprint
                .stands()
                .iter()
                .enumerate()
                .map(|(i, s)| StandDoc {
                    center: s.center(),
                    facing: s.facing().0,
                    width: s.width().0,
                    depth: s.depth().0,
                    sd: footprint.sd().map(|sd| sd[i].to_doc()),
                });
            doc.stands = Some(stands.collect());
        } else {
            doc.front_center = Some(frame.front_center());
            doc.width = Some(frame.width().0);
            doc.depth = Some(frame.depth().0);
        }
        doc
    }
}

impl SceneDoc {
    /// These units on a bare table of this size, played by `ruleset`: no terrain, no sides
    /// listed, no commanders, distances at their book values.
    pub fn units_on(ruleset: RulesetId, table: TableDoc, units: Vec<UnitDoc>) -> SceneDoc {
        SceneDoc {
            ruleset,
            table,
            distance_scale: None,
            figure_scale: None,
            length_sd: None,
            frame_sd: None,
            scenario: None,
            sides: Vec::new(),
            terrain: Vec::new(),
            units,
            commanders: Vec::new(),
        }
    }
}

impl From<&Scene> for SceneDoc {
    fn from(scene: &Scene) -> SceneDoc {
        let terrain = scene.terrain.iter().map(|t| {
            let (polygon, line) = match &t.shape {
                TerrainShape::Area(points) => (Some(points.clone()), None),
                TerrainShape::Line(points) => (None, Some(points.clone())),
            };
            TerrainDoc {
                id: t.id.clone(),
                kind: t.kind,
                polygon,
                line,
                height: t.height,
                rise: t.rise.as_ref().map(|r| r.top.0),
                crest: t.rise.as_ref().and_then(|r| r.crest.clone()),
            }
        });
        SceneDoc {
            ruleset: scene.ruleset,
            table: TableDoc {
                width: scene.table.width.0,
                depth: scene.table.depth.0,
            },
            distance_scale: (scene.distance_scale != 1.0).then_some(scene.distance_scale),
            figure_scale: scene.figure_scale,
            length_sd: scene.length_sd,
            frame_sd: scene.frame_sd.map(|sd| sd.0),
            scenario: scene.scenario.clone(),
            sides: scene.sides.clone(),
            terrain: terrain.collect(),
            units: scene.units.iter().map(UnitDoc::from).collect(),
            commanders: scene.commanders.iter().map(CommanderDoc::from).collect(),
        }
    }
}

impl Serialize for Scene {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        SceneDoc::from(self).serialize(serializer)
    }
}

impl From<&Commander> for CommanderDoc {
    fn from(c: &Commander) -> CommanderDoc {
        CommanderDoc {
            id: c.id.clone(),
            name: (c.name != c.id).then(|| c.name.clone()),
            side: c.side.clone(),
            brigade: c.brigade.clone(),
            position: c.position,
            mounted: (!c.mounted).then_some(false),
            staff_rating: c.staff_rating,
            sd: c.sd.map(|sd| sd.to_doc()),
        }
    }
}
