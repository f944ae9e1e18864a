//! A synthetic battle of any size, for benchmarks and tests: two armies drawn up facing each
//! other across a table with scattered terrain. Deterministic for a given seed (no randomness
//! crate: a small linear congruential generator is all a benchmark needs).

use crate::geometry::{OrientedRect, TablePoint};
use crate::profile::RulesetId;
use crate::scene::{
    Footprint, Formation, Scene, Table, Terrain, TerrainKind, TerrainShape, Unit, UnitKind,
    UnitSize, UnitState,
};
use crate::units::{Degrees, Inches};

/// A repeatable source of numbers in `[0, 1)`.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    fn between(&mut self, low: f64, high: f64) -> f64 {
        low + (high - low) * self.next()
    }
}

/// A battle with `units` units (half a side) and `terrain` terrain pieces on a 72"×48" table.
pub fn battle(units: usize, terrain: usize, seed: u64) -> Scene {
    let mut rng = Lcg(seed ^ 0x9e37_79b9_7f4a_7c15);
    let table = Table {
        width: Inches(72.0),
        depth: Inches(48.0),
    };
    let per_side = units.div_ceil(2);
    let per_row = 12;
    let mut out = Vec::with_capacity(units);
    for index in 0..units {
        let (side, slot) = if index < per_side {
            ("red", index)
        } else {
            ("blue", index - per_side)
        };
        let (row, column) = (slot / per_row, slot % per_row);
        let x = 3.0 + column as f64 * 5.8 + rng.between(-0.3, 0.3);
        let depth_in = 4.0 + row as f64 * 2.6;
        let (y, facing) = if side == "red" {
            (24.0 - depth_in, 90.0)
        } else {
            (24.0 + depth_in, 270.0)
        };
        let facing = facing + rng.between(-10.0, 10.0);
        out.push(unit(&mut rng, index, side, TablePoint::new(x, y), facing));
    }
    let pieces = (0..terrain).map(|i| piece(&mut rng, i, &table)).collect();
    Scene {
        ruleset: RulesetId::BlackPowder,
        table,
        terrain: pieces,
        units: out,
        commanders: Vec::new(),
        sides: Vec::new(),
        scenario: None,
        distance_scale: 1.0,
        figure_scale: None,
        length_sd: None,
        frame_sd: None,
    }
}

fn unit(rng: &mut Lcg, index: usize, side: &str, front: TablePoint, facing: f64) -> Unit {
    let roll = rng.next();
    let (kind, formation, width, depth, weapon) = match roll {
        r if r < 0.55 => (
            UnitKind::Infantry,
            Formation::Line,
            4.7,
            0.8,
            "smoothbore-musket",
        ),
        r if r < 0.65 => (
            UnitKind::Infantry,
            Formation::AttackColumn,
            2.4,
            1.6,
            "smoothbore-musket",
        ),
        r if r < 0.75 => (
            UnitKind::Infantry,
            Formation::Skirmish,
            4.0,
            0.6,
            "rifled-musket",
        ),
        r if r < 0.9 => (UnitKind::Cavalry, Formation::Line, 4.0, 1.6, "sabres"),
        _ => (
            UnitKind::Artillery,
            Formation::Deployed,
            0.8,
            1.5,
            "smoothbore-artillery",
        ),
    };
    let frame = OrientedRect::new(front, Degrees(facing), Inches(width), Inches(depth));
    let footprint = if formation == Formation::Skirmish {
        let stands = (0..3)
            .map(|k| {
                let offset = frame.right() * (k as f64 - 1.0) * 1.6 - frame.forward() * 0.3;
                OrientedRect::from_center(front + offset, Degrees(facing), Inches(0.6), Inches(0.6))
            })
            .collect();
        Footprint::from_stands(stands, Some(Degrees(facing)))
    } else {
        Footprint::block(frame)
    };
    Unit {
        id: format!("{side}-{index}"),
        name: format!("{side} unit {index}"),
        side: side.to_owned(),
        kind,
        formation,
        weapon: Some(weapon.to_owned()),
        brigade: Some(format!("{side}-brigade-{}", index / 6)),
        footprint,
        size: UnitSize::Standard,
        stats: None,
        state: UnitState::default(),
        momentum: None,
        figures: None,
    }
}

fn piece(rng: &mut Lcg, index: usize, table: &Table) -> Terrain {
    let kinds = [
        TerrainKind::Wood,
        TerrainKind::Hill,
        TerrainKind::Building,
        TerrainKind::Rough,
        TerrainKind::Obstacle,
    ];
    let kind = kinds[index % kinds.len()];
    let centre = TablePoint::new(
        rng.between(4.0, table.width.0 - 4.0),
        rng.between(4.0, table.depth.0 - 4.0),
    );
    let radius = match kind {
        TerrainKind::Building => 1.5,
        _ => rng.between(2.0, 4.5),
    };
    if kind == TerrainKind::Obstacle {
        let angle = rng.between(0.0, std::f64::consts::PI);
        let along = nalgebra::Vector2::new(angle.cos(), angle.sin()) * radius;
        return Terrain {
            id: format!("terrain-{index}"),
            kind,
            shape: TerrainShape::Line(vec![centre - along, centre + along]),
            height: None,
            rise: None,
        };
    }
    let corners = 7;
    let outline = (0..corners)
        .map(|k| {
            let angle = std::f64::consts::TAU * k as f64 / corners as f64;
            let r = radius * rng.between(0.75, 1.0);
            centre + nalgebra::Vector2::new(angle.cos(), angle.sin()) * r
        })
        .collect();
    Terrain {
        id: format!("terrain-{index}"),
        kind,
        shape: TerrainShape::Area(outline),
        height: (kind == TerrainKind::Hill).then_some(1),
        rise: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_battle_is_repeatable_and_valid() {
        let a = battle(40, 6, 7);
        assert_eq!(a, battle(40, 6, 7));
        assert_eq!(a.units.len(), 40);
        // It survives a round trip through the scene format, so it is a valid scene.
        let again =
            Scene::parse(&a.to_json(), crate::scene::Format::Json, "synthetic").expect("valid");
        assert_eq!(again.units.len(), 40);
    }
}
