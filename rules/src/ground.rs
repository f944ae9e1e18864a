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
//! - Ground can also be learnt: a stand resting well above the ground known under it says the
//!   ground is that high there ([`LearntRise`]). What is learnt is known only under that
//!   stand: the rise is flat for [`LearntRise::TOP`] round it and falls away to the ground
//!   around within [`LearntRise::FALL`] more; several rests on one hill make its shape.

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

/// The ground's height at one place, learnt from the stand (its tag) that rested there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LearntRise {
    /// Where the stand rested.
    pub at: TablePoint,
    /// The ground's height there.
    pub height: Inches,
    /// How far that height may be off, one standard deviation: one camera tells a tag's
    /// height by its size alone, a tenth or two of an inch for a tag in clear view, more with
    /// figures over it.
    pub sd: Inches,
    /// The tag it was learnt from.
    pub tag: u32,
}

impl LearntRise {
    /// The ground is at its full height this far round the rest: a stand's base.
    pub const TOP: Inches = Inches(1.5);
    /// And down to the ground around within this much further (a 2" rise falls at 24°).
    pub const FALL: Inches = Inches(4.5);
    fn height_at(&self, p: &TablePoint) -> Inches {
        let beyond = ((p - self.at).norm() - Self::TOP.0) / Self::FALL.0;
        Inches(self.height.0 * smoothstep(1.0 - beyond))
    }
}

/// The ground's height over the table.
#[derive(Clone, Debug, Default)]
pub struct Ground {
    hills: Vec<Hill>,
    learnt: Vec<LearntRise>,
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
        self.given_height_at(p).max(self.learnt_height_at(p))
    }

    /// The height the terrain's hills give at a point.
    fn given_height_at(&self, p: &TablePoint) -> Inches {
        self.hills
            .iter()
            .map(|hill| hill.height_at(p))
            .fold(Inches::ZERO, Inches::max)
    }

    /// The height learnt rises give at a point.
    fn learnt_height_at(&self, p: &TablePoint) -> Inches {
        self.learnt_at(p)
            .map_or(Inches::ZERO, |rise| rise.height_at(p))
    }

    /// The learnt rise that makes the ground at a point, if any: the highest there.
    fn learnt_at(&self, p: &TablePoint) -> Option<&LearntRise> {
        self.learnt
            .iter()
            .filter(|rise| rise.height_at(p) > Inches::ZERO)
            .max_by(|a, b| a.height_at(p).0.total_cmp(&b.height_at(p).0))
    }

    /// How far the ground's height at a point may be off, one standard deviation: that of a
    /// learnt rise where one makes the ground there (a hill given in the terrain is taken as
    /// measured).
    pub fn height_sd_at(&self, p: &TablePoint) -> Inches {
        match self.learnt_at(p) {
            Some(rise) if rise.height_at(p) > self.given_height_at(p) => rise.sd,
            _ => Inches::ZERO,
        }
    }

    /// Learn the ground's height where a stand rests; what was learnt before within
    /// [`LearntRise::TOP`] of it is learnt afresh.
    pub fn learn(&mut self, rise: LearntRise) {
        self.forget_near(&rise.at);
        self.learnt.push(rise);
    }

    /// Forget what was learnt within [`LearntRise::TOP`] of a point (a stand rests there
    /// lower than it said); whether anything was.
    pub fn forget_near(&mut self, at: &TablePoint) -> bool {
        let before = self.learnt.len();
        self.learnt
            .retain(|rise| (rise.at - at).norm() > LearntRise::TOP.0);
        self.learnt.len() != before
    }

    /// What was learnt from the stands.
    pub fn learnt(&self) -> &[LearntRise] {
        &self.learnt
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

    /// The highest the ground rises anywhere, given or learnt.
    pub fn highest(&self) -> Inches {
        let hills = self.hills.iter().map(|hill| hill.top);
        let learnt = self.learnt.iter().map(|rise| rise.height);
        hills.chain(learnt).fold(Inches::ZERO, Inches::max)
    }

    /// Whether no hill rises anywhere, given or learnt.
    pub fn is_flat(&self) -> bool {
        self.hills.is_empty() && self.learnt.is_empty()
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
    fn a_learnt_rise_is_flat_under_its_stand_falls_away_and_is_forgotten() {
        let mut ground = Ground::flat();
        let at = TablePoint::new(30.0, 20.0);
        ground.learn(LearntRise {
            at,
            height: Inches(2.0),
            sd: Inches(0.3),
            tag: 44,
        });
        assert!(!ground.is_flat());
        let h = |ground: &Ground, x: f64| ground.height_at(&TablePoint::new(x, 20.0)).0;
        assert_eq!(h(&ground, 30.0), 2.0);
        assert_eq!(h(&ground, 31.4), 2.0, "under the stand's base");
        let slope = h(&ground, 33.0);
        assert!(slope > 1.0 && slope < 2.0, "{slope}");
        assert_eq!(h(&ground, 36.1), 0.0, "beyond its fall");
        // Learnt again nearby: one rise, the newer.
        ground.learn(LearntRise {
            at: TablePoint::new(30.5, 20.0),
            height: Inches(2.5),
            sd: Inches(0.2),
            tag: 44,
        });
        assert_eq!(ground.learnt().len(), 1);
        assert_eq!(h(&ground, 30.5), 2.5);
        assert!(!ground.forget_near(&TablePoint::new(10.0, 10.0)));
        assert_eq!(
            ground.height_sd_at(&TablePoint::new(30.5, 20.0)),
            Inches(0.2),
            "the doubt of the rise learnt there"
        );
        assert_eq!(
            ground.height_sd_at(&TablePoint::new(40.0, 20.0)),
            Inches::ZERO
        );
        assert!(ground.forget_near(&at));
        assert!(ground.is_flat());
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
