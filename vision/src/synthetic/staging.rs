//! Staging a scene on the synthetic table: its terrain as patches, its stands and commanders
//! as blocks carrying the roster's tags, and the anchors as cards.

use calibration::{AnchorLayout, TagPlacement};
use rules::Scene;
use rules::geometry::OrientedRect;
use rules::scene::{TerrainKind, TerrainShape};
use rules::units::{Degrees, Inches};

use super::colour::Rgb;
use super::world::{Block, Patch, PrintedTag, SyntheticTable};
use roster::Roster;

/// Side colours, by [`Scene::side_number`] (as the app colours them).
const SIDE_COLOURS: [Rgb; 4] = [
    Rgb(168, 42, 38),
    Rgb(40, 64, 150),
    Rgb(200, 170, 60),
    Rgb(90, 90, 90),
];

impl SyntheticTable {
    /// The scene staged with the roster's tags (matched to the scene's units by id, stand by
    /// stand) and the anchors. Units the roster lacks are staged without tags.
    pub fn stage(scene: &Scene, roster: &Roster, anchors: &AnchorLayout) -> SyntheticTable {
        let mut world = SyntheticTable::new(anchors.table);
        world.family = anchors.family.clone();
        world.patches = scene.terrain.iter().filter_map(patch).collect();
        let ground = rules::ground::Ground::of(&scene.terrain);
        world.landscape.relief = super::landscape::Relief::of(&ground, anchors.table);
        let colour_of = |side: &str| SIDE_COLOURS[scene.side_number(side) % SIDE_COLOURS.len()];
        let defaults = roster.tags;
        for unit in &scene.units {
            let colour = colour_of(&unit.side);
            let listed = roster.units.iter().find(|u| u.id == unit.id);
            for (index, stand) in unit.footprint.stands().iter().enumerate() {
                let tagged = listed.and_then(|u| u.stands.get(index));
                // A stand on a hill stands on a plinth as high as the ground under its centre.
                let height = Inches(tagged.and_then(|t| t.tag_height).unwrap_or(defaults.height))
                    + ground.height_at(&stand.center());
                let tags = tagged.map(|t| {
                    let placement = TagPlacement {
                        center: stand.center() + t.tag_offset.on_table(stand.facing()),
                        facing: stand.facing() + Degrees(t.tag_turn),
                        size: Inches(t.tag_size.unwrap_or(defaults.size)),
                        height,
                    };
                    PrintedTag {
                        id: t.tag,
                        placement,
                    }
                });
                world.blocks.push(Block {
                    footprint: *stand,
                    height,
                    colour,
                    tags: tags.into_iter().collect(),
                    figures: true,
                    motion: None,
                });
            }
        }
        for commander in &scene.commanders {
            let Some(listed) = roster.commanders.iter().find(|c| c.id == commander.id) else {
                continue;
            };
            let size = Inches(listed.tag_size.unwrap_or(defaults.size));
            let height = Inches(listed.tag_height.unwrap_or(defaults.height))
                + ground.height_at(&commander.position);
            let placement = TagPlacement {
                center: commander.position,
                facing: Degrees(90.0),
                size,
                height,
            };
            let base = size * roster::COMMANDER_BASE;
            world.blocks.push(Block {
                footprint: OrientedRect::from_center(commander.position, Degrees(90.0), base, base),
                height,
                colour: colour_of(&commander.side),
                tags: vec![PrintedTag {
                    id: listed.tag,
                    placement,
                }],
                figures: true,
                motion: None,
            });
        }
        for anchor in &anchors.anchors {
            world
                .blocks
                .push(Block::card(anchor.id, anchor.placement()));
        }
        world
    }
}

fn patch(terrain: &rules::scene::Terrain) -> Option<Patch> {
    let TerrainShape::Area(points) = &terrain.shape else {
        return None;
    };
    let colour = match terrain.kind {
        TerrainKind::Wood => Rgb(48, 82, 40),
        TerrainKind::Hill => Rgb(128, 132, 82),
        TerrainKind::Building => Rgb(120, 96, 80),
        TerrainKind::Rough | TerrainKind::VeryRough | TerrainKind::ExtremelyRough => {
            Rgb(110, 112, 72)
        }
        TerrainKind::River | TerrainKind::Impassable => Rgb(60, 86, 120),
        TerrainKind::Road => Rgb(150, 130, 100),
        TerrainKind::Obstacle | TerrainKind::Decorative => Rgb(100, 110, 70),
    };
    Some(Patch {
        polygon: points.clone(),
        colour,
    })
}
