//! The ground under the stands: the table's height field, from the hills whose real height is
//! known. The rules read a hill's level (A10); the camera needs its height in inches, since a
//! tag on a hill is that much higher than the roster says and its ray meets the cloth inches
//! away from where the stand is.
//!
//! Decisions:
//! - The cloth is height 0. A hill with a `rise` climbs from its foot (its polygon) to its
//!   crest (its `crest` polygon, or the points [`Rise::ramp`] inside its foot), and is flat on
//!   top. The climb follows a smoothstep of where a point lies between foot and crest, so the
//!   ground has no kink at the foot or the crest and is steepest half way up, as a modelled
//!   hill is.
//! - Where hills overlap, the highest ground counts (a hill on a hill gives its own rise).
//! - A hill given only a level has no height for the camera: it is flat here, and
//!   [`Ground::unmeasured`] names it so that the player can be told.

use geo::{Contains, Distance, Euclidean};

use crate::geometry::TablePoint;
use crate::scene::{Rise, Terrain, TerrainShape};
use crate::terrain::to_geo;
use crate::units::Inches;

/// One hill, ready to be asked its height.
#[derive(Clone, Debug)]
struct Hill {
    id: String,
    foot: geo::Polygon<f64>,
    crest: Option<geo::Polygon<f64>>,
    top: Inches,
    ramp: Inches,
}

impl Hill {
    fn height_at(&self, p: &TablePoint) -> Inches {
        let point = geo::Point::new(p.x, p.y);
        if !self.foot.contains(&point) {
            return Inches::ZERO;
        }
        let from_foot = Euclidean.distance(&point, self.foot.exterior());
        let share = match &self.crest {
            Some(crest) if crest.contains(&point) => 1.0,
            Some(crest) => {
                let to_crest = Euclidean.distance(&point, crest.exterior());
                from_foot / (from_foot + to_crest).max(f64::EPSILON)
            }
            None => (from_foot / self.ramp.0).min(1.0),
        };
        Inches(self.top.0 * smoothstep(share))
    }
}

fn smoothstep(t: f64) -> f64 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// The ground's height over the table.
#[derive(Clone, Debug, Default)]
pub struct Ground {
    hills: Vec<Hill>,
    unmeasured: Vec<String>,
}

impl Ground {
    /// Flat cloth everywhere.
    pub fn flat() -> Ground {
        Ground::default()
    }

    /// The ground the terrain makes: every hill with a rise.
    pub fn of(terrain: &[Terrain]) -> Ground {
        let mut ground = Ground::default();
        for piece in terrain {
            let TerrainShape::Area(foot) = &piece.shape else {
                continue;
            };
            match &piece.rise {
                Some(rise) => ground.hills.push(Hill {
                    id: piece.id.clone(),
                    foot: to_geo(foot),
                    crest: rise.crest.as_deref().map(to_geo),
                    top: rise.top,
                    ramp: rise.ramp(),
                }),
                None if piece.kind == crate::scene::TerrainKind::Hill => {
                    ground.unmeasured.push(piece.id.clone());
                }
                None => {}
            }
        }
        ground
    }

    /// The ground terrain documents make, as the camera pipeline holds them (a document
    /// that does not validate is named when its scene is built; here it is only left out).
    pub fn of_docs(docs: &[crate::scene::TerrainDoc]) -> Ground {
        let terrain: Vec<Terrain> = docs
            .iter()
            .filter_map(|doc| {
                let foot = doc.polygon.clone().filter(|p| p.len() >= 3)?;
                let rise = doc.rise.filter(|top| *top > 0.0).map(|top| Rise {
                    top: Inches(top),
                    crest: doc.crest.clone().filter(|c| c.len() >= 3),
                });
                Some(Terrain {
                    id: doc.id.clone(),
                    kind: doc.kind,
                    shape: TerrainShape::Area(foot),
                    height: doc.height,
                    rise,
                })
            })
            .collect();
        Ground::of(&terrain)
    }

    /// The ground's height at a point of the table.
    pub fn height_at(&self, p: &TablePoint) -> Inches {
        self.hills
            .iter()
            .map(|hill| hill.height_at(p))
            .fold(Inches::ZERO, Inches::max)
    }

    /// The hill whose ground is highest at a point, if any rises there.
    pub fn hill_at(&self, p: &TablePoint) -> Option<&str> {
        self.hills
            .iter()
            .map(|hill| (hill, hill.height_at(p)))
            .filter(|(_, h)| h.0 > 0.0)
            .max_by(|a, b| a.1.0.total_cmp(&b.1.0))
            .map(|(hill, _)| hill.id.as_str())
    }

    /// Whether no hill rises anywhere.
    pub fn is_flat(&self) -> bool {
        self.hills.is_empty()
    }

    /// Hills given only a level: flat to the camera.
    pub fn unmeasured(&self) -> &[String] {
        &self.unmeasured
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::TerrainKind;

    fn square(x0: f64, y0: f64, side: f64) -> Vec<TablePoint> {
        vec![
            TablePoint::new(x0, y0),
            TablePoint::new(x0 + side, y0),
            TablePoint::new(x0 + side, y0 + side),
            TablePoint::new(x0, y0 + side),
        ]
    }

    fn hill(foot: Vec<TablePoint>, rise: Option<Rise>) -> Terrain {
        Terrain {
            id: "hill".into(),
            kind: TerrainKind::Hill,
            shape: TerrainShape::Area(foot),
            height: Some(1),
            rise,
        }
    }

    #[test]
    fn a_hill_climbs_smoothly_from_its_foot_to_its_flat_crest() {
        let ground = Ground::of(&[hill(
            square(10.0, 10.0, 20.0),
            Some(Rise {
                top: Inches(2.0),
                crest: Some(square(16.0, 16.0, 8.0)),
            }),
        )]);
        let at = |x: f64, y: f64| ground.height_at(&TablePoint::new(x, y)).0;
        assert_eq!(at(5.0, 20.0), 0.0, "off the hill");
        assert!(at(10.05, 20.0) < 0.01, "at its foot: {}", at(10.05, 20.0));
        assert_eq!(at(20.0, 20.0), 2.0, "on its crest");
        assert!(
            (at(13.0, 20.0) - 1.0).abs() < 1e-9,
            "half way: {}",
            at(13.0, 20.0)
        );
        // Climbing all the way, never down.
        let mut last = 0.0;
        for k in 0..=60 {
            let h = at(10.0 + k as f64 * 0.1, 20.0);
            assert!(h >= last - 1e-12, "{h} after {last}");
            last = h;
        }
        assert_eq!(ground.hill_at(&TablePoint::new(20.0, 20.0)), Some("hill"));
        assert_eq!(ground.hill_at(&TablePoint::new(5.0, 20.0)), None);
    }

    #[test]
    fn a_hill_given_only_a_level_is_flat_to_the_camera_and_named() {
        let ground = Ground::of(&[hill(square(0.0, 0.0, 10.0), None)]);
        assert!(ground.is_flat());
        assert_eq!(ground.height_at(&TablePoint::new(5.0, 5.0)), Inches::ZERO);
        assert_eq!(ground.unmeasured(), ["hill".to_string()]);
        // Without a crest it tops out its ramp inside its foot.
        let rise = Rise {
            top: Inches(1.5),
            crest: None,
        };
        let ramp = rise.ramp().0;
        let ground = Ground::of(&[hill(square(0.0, 0.0, 40.0), Some(rise))]);
        assert_eq!(
            ground.height_at(&TablePoint::new(ramp + 0.1, 20.0)),
            Inches(1.5)
        );
        assert!(ground.height_at(&TablePoint::new(ramp / 2.0, 20.0)).0 < 1.5);
    }
}
