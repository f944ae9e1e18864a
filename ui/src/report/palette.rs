//! The report's colours: the armies and the terrain as the app paints them (so a player knows
//! them at a glance), on a light cloth that prints well and reads on a club's forum.

use rules::Scene;
use rules::scene::TerrainKind;

/// The cloth, a light field green.
pub const CLOTH: &str = "#dfe6cc";
/// The table's edge and the grid.
pub const EDGE: &str = "#6b6f5e";
/// Ink: text and outlines.
pub const INK: &str = "#1f2328";
/// A quiet ink: times, captions.
pub const QUIET: &str = "#5f6670";
/// A move's arrow.
pub const MOVE: &str = "#1f2a44";
/// A charge's arrow and its ⚔: an orange neither army wears.
pub const CHARGE: &str = "#e8590c";

/// The armies' colours, in the order sides are listed (the app's: red coats first, blue
/// second).
const SIDES: [(u8, u8, u8); 4] = [
    (235, 80, 70),
    (90, 140, 255),
    (240, 200, 70),
    (170, 170, 170),
];

/// The sides of a scene in the order their colours are given: those it lists, then those its
/// units name.
pub fn sides(scene: &Scene) -> Vec<String> {
    let mut sides: Vec<String> = scene.sides.iter().map(|s| s.id.clone()).collect();
    for unit in &scene.units {
        if !sides.contains(&unit.side) {
            sides.push(unit.side.clone());
        }
    }
    sides
}

/// A side's fill and its darker outline.
pub fn side(scene: &Scene, id: &str) -> (String, String) {
    let index = sides(scene).iter().position(|s| s == id).unwrap_or(0);
    let (r, g, b) = SIDES[index % SIDES.len()];
    let dark = |c: u8| (f64::from(c) * 0.55) as u8;
    (hex(r, g, b), hex(dark(r), dark(g), dark(b)))
}

/// A side's name for people: the scene's, else its id.
pub fn side_name(scene: &Scene, id: &str) -> String {
    scene
        .side(id)
        .and_then(|s| s.name.clone())
        .unwrap_or_else(|| id.to_owned())
}

/// How a piece of terrain is painted: its colour and how opaque its area is.
pub fn terrain(kind: TerrainKind) -> (&'static str, f64) {
    match kind {
        TerrainKind::Wood => ("#286e32", 0.55),
        TerrainKind::Rough | TerrainKind::VeryRough | TerrainKind::ExtremelyRough => {
            ("#8c7850", 0.45)
        }
        TerrainKind::Obstacle => ("#7a6548", 0.9),
        TerrainKind::Building => ("#96644f", 0.9),
        TerrainKind::Hill => ("#788c46", 0.45),
        TerrainKind::Impassable => ("#5a5a5a", 0.7),
        TerrainKind::River => ("#4678c8", 0.8),
        TerrainKind::Road => ("#aa966e", 0.8),
        TerrainKind::Decorative => ("#646464", 0.25),
    }
}

/// A terrain kind's name for people.
pub fn terrain_name(kind: TerrainKind) -> &'static str {
    match kind {
        TerrainKind::Wood => "wood",
        TerrainKind::Rough => "rough ground",
        TerrainKind::VeryRough => "very rough ground",
        TerrainKind::ExtremelyRough => "extremely rough ground",
        TerrainKind::Obstacle => "obstacle",
        TerrainKind::Building => "building",
        TerrainKind::Hill => "hill",
        TerrainKind::Impassable => "impassable",
        TerrainKind::River => "river",
        TerrainKind::Road => "road",
        TerrainKind::Decorative => "decorative",
    }
}

fn hex(r: u8, g: u8, b: u8) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}
