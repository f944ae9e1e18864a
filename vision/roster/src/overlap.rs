//! Tags on one spot: where a scene puts two of a roster's tags so that they overlap (a
//! commander's base set on a stand's tag, two units drawn on one place), the camera sees one
//! of them at most, and the unit under it is never seen. Said before the game, not found out
//! during it.

use rules::Scene;
use rules::geometry::OrientedRect;
use rules::units::{Degrees, Inches};

use crate::{COMMANDER_BASE, Roster, TagOwner};

/// Tags are shrunk by this share before they are compared, so that two laid edge to edge are
/// not taken as one over the other.
const TOUCHING: f64 = 0.98;

/// Two tags the scene puts on one spot.
#[derive(Clone, Debug, PartialEq)]
pub struct TagsOnOneSpot {
    /// The two tags, as the roster numbers them.
    pub tags: [u32; 2],
    /// Whose they are, by name ("Booth's Stragglers (booths-stragglers)").
    pub owners: [String; 2],
}

impl std::fmt::Display for TagsOnOneSpot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "tag {} of {} and tag {} of {} lie on one spot: the camera can see one of them at \
             most — move one apart",
            self.tags[0], self.owners[0], self.tags[1], self.owners[1]
        )
    }
}

impl Roster {
    /// The pairs of this roster's tags that `scene` puts on one spot, by the order of the
    /// roster (units, then commanders).
    pub fn tags_on_one_spot(&self, scene: &Scene) -> Vec<TagsOnOneSpot> {
        let placed = self.placed_tags(scene);
        let mut found = Vec::new();
        for (i, (tag_a, owner_a, a)) in placed.iter().enumerate() {
            for (tag_b, owner_b, b) in &placed[i + 1..] {
                if a.gap_to(b) <= Inches::ZERO {
                    found.push(TagsOnOneSpot {
                        tags: [*tag_a, *tag_b],
                        owners: [self.named(*owner_a), self.named(*owner_b)],
                    });
                }
            }
        }
        found
    }

    /// Each tag the scene places, with its owner and what it covers on the table: a stand's
    /// printed square, a commander's base.
    fn placed_tags(&self, scene: &Scene) -> Vec<(u32, TagOwner, OrientedRect)> {
        let defaults = self.tags;
        let mut placed = Vec::new();
        for (u, unit) in self.units.iter().enumerate() {
            let Some(on_table) = scene.unit(&unit.id) else {
                continue;
            };
            for (s, (stand, rect)) in unit
                .stands
                .iter()
                .zip(on_table.footprint.stands())
                .enumerate()
            {
                let size = Inches(stand.tag_size.unwrap_or(defaults.size) * TOUCHING);
                let centre = rect.center() + stand.tag_offset.on_table(rect.facing());
                let facing = rect.facing() + Degrees(stand.tag_turn);
                let square = OrientedRect::from_center(centre, facing, size, size);
                placed.push((stand.tag, TagOwner::Stand { unit: u, stand: s }, square));
            }
        }
        for (i, commander) in self.commanders.iter().enumerate() {
            let Some(on_table) = scene.commanders.iter().find(|c| c.id == commander.id) else {
                continue;
            };
            let base =
                Inches(commander.tag_size.unwrap_or(defaults.size) * COMMANDER_BASE * TOUCHING);
            let square = OrientedRect::from_center(on_table.position, Degrees(90.0), base, base);
            placed.push((commander.tag, TagOwner::Commander(i), square));
        }
        placed
    }
}

#[cfg(test)]
mod tests {
    use crate::{Roster, TagDefaults};
    use rules::Scene;

    /// Ntombi, as its scenario stands: Sergeant Booth's base lies on his stragglers' tag.
    #[test]
    fn a_commander_set_on_a_stands_tag_is_said() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../samples/scenarios/ntombi.json");
        let scene = Scene::load(&path).expect("the sample");
        let roster = Roster::for_scene(&scene, TagDefaults::default(), 0);
        let found = roster.tags_on_one_spot(&scene);
        let said: Vec<String> = found.iter().map(ToString::to_string).collect();
        assert!(
            said.iter()
                .any(|s| s.contains("booths-stragglers") && s.contains("commander")),
            "{said:?}"
        );
        // Every other sample keeps its tags apart.
        for name in [
            "crimea-river",
            "el-teb",
            "san-miguel",
            "el-perez",
            "freemans-farm",
            "hangmans-creek",
        ] {
            let scene = Scene::load(&path.with_file_name(format!("{name}.json"))).expect("sample");
            let roster = Roster::for_scene(&scene, TagDefaults::default(), 0);
            assert_eq!(roster.tags_on_one_spot(&scene), Vec::new(), "{name}");
        }
    }
}
