//! Whether the error bars a camera's scene states are honest: how often the truth lies within
//! them, and how wide they are against the errors the truth shows.
//!
//! A place is judged against its stated 95 % ellipse, the scene's frame's own doubt (where
//! the anchors put the table as a whole) added: a place is measured against the table, not
//! against another stand. A distance is judged as the rules measure one: between the nearest
//! points of two stands, its 95 % interval from each end's covariance there
//! (`Footprint::covariance_at`) and the scene's relative length error
//! ([`length_plus_minus`]); a facing by its own deviation; the share of a target in a
//! shooter's arc as the rulings state it, with its ±, against the share they give the same
//! scene placed truly. Only shares the truth or the camera puts strictly between none and all
//! are judged: a target squarely in front or well aside is no test. The rulings' verdicts are
//! tallied against the same true scene's ([`Verdicts`]).

use std::collections::HashMap;

use nalgebra::{Matrix2, Vector2};
use rules::Scene;
use rules::geometry::{OrientedRect, angle_between, heading};
use rules::ruling::{Ruling, Topic, Verdict};
use rules::rulings::{Rulings, rulings};
use rules::scene::{Footprint, SceneDoc};
use rules::uncertainty::{Z95, length_plus_minus};
use rules::units::Inches;
use rules::vocabulary::RuleRef;

/// Pairs of stands further apart than this are left out: no ruling measures that far.
pub const FARTHEST: Inches = Inches(24.0);

/// A stand as it truly stands.
#[derive(Clone, Copy, Debug)]
pub struct TrueStand {
    /// Where.
    pub rect: OrientedRect,
    /// Whether its tag is a small one in the picture (under 16 px).
    pub small: bool,
}

/// One figure the scene stated: how far it was off, its stated 95 % half-width (a place's:
/// the radius of the circle as large as its 95 % ellipse), and whether the truth lay within.
#[derive(Clone, Copy, Debug)]
struct Judged {
    error: f64,
    half_width: f64,
    within: bool,
    small: bool,
}

impl Judged {
    /// A figure off by `error` against an interval of `half_width` either way.
    fn interval(error: f64, half_width: f64, small: bool) -> Judged {
        Judged {
            error,
            half_width,
            within: error <= half_width,
            small,
        }
    }

    /// A place off by `off` against its stated covariance: within its 95 % ellipse.
    fn place(off: Vector2<f64>, covariance: &Matrix2<f64>, small: bool) -> Judged {
        let within = covariance
            .try_inverse()
            .is_some_and(|inverse| (off.transpose() * inverse * off)[(0, 0)] <= CHI2_95_2D);
        Judged {
            error: off.norm(),
            half_width: CHI2_95_2D.sqrt() * covariance.determinant().max(0.0).powf(0.25),
            within,
            small,
        }
    }
}

/// The 95th percentile of a chi-square of two degrees of freedom: a place's 95 % ellipse.
pub const CHI2_95_2D: f64 = 5.991_464_547;

/// How a set of judged figures came out.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Figures {
    /// Figures judged.
    pub count: usize,
    /// The share of them within their stated interval, 0 to 1.
    pub covered: f64,
    /// The median stated half-width.
    pub median_half_width: f64,
    /// The 95th percentile of the true errors.
    pub p95_error: f64,
}

impl Figures {
    fn of<'a>(judged: impl Iterator<Item = &'a Judged>) -> Figures {
        let judged: Vec<&Judged> = judged.collect();
        let within = judged.iter().filter(|j| j.within).count();
        let mut widths: Vec<f64> = judged.iter().map(|j| j.half_width).collect();
        let mut errors: Vec<f64> = judged.iter().map(|j| j.error).collect();
        Figures {
            count: judged.len(),
            covered: within as f64 / judged.len().max(1) as f64,
            median_half_width: percentile(&mut widths, 0.5),
            p95_error: percentile(&mut errors, 0.95),
        }
    }
}

fn percentile(values: &mut [f64], p: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    let last = values.len().saturating_sub(1);
    values
        .get(((last as f64) * p).round() as usize)
        .copied()
        .unwrap_or(f64::NAN)
}

/// Stated intervals against the truth, gathered over scenes.
#[derive(Clone, Debug, Default)]
pub struct Coverage {
    verdicts: Verdicts,
    places: Vec<Judged>,
    distances: Vec<Judged>,
    facings: Vec<Judged>,
    arc_shares: Vec<Judged>,
}

impl Coverage {
    /// Judge a scene the camera saw against the truth: `truth` by unit id, its stands in order.
    /// Units the scene has not placed, or placed with no error bars, are passed over.
    pub fn judge(&mut self, seen: &Scene, truth: &HashMap<String, Vec<TrueStand>>) {
        let length_sd = seen.length_sd.unwrap_or(0.0);
        let frame_sd = seen.frame_sd.map_or(0.0, |sd| sd.0);
        // Each placed stand, with its unit's index and its truth.
        let mut stands = Vec::new();
        for (u, unit) in seen.units.iter().enumerate() {
            let (Some(sd), Some(true_stands)) = (unit.footprint.sd(), truth.get(&unit.id)) else {
                continue;
            };
            for ((rect, sd), truly) in unit.footprint.stands().iter().zip(sd).zip(true_stands) {
                let turned = angle_between(heading(rect.facing()), heading(truly.rect.facing()));
                self.facings
                    .push(Judged::interval(turned.0, Z95 * sd.facing().0, truly.small));
                let off = rect.center() - truly.rect.center();
                let covariance = sd.centre() + Matrix2::identity() * frame_sd.powi(2);
                self.places
                    .push(Judged::place(off, &covariance, truly.small));
                stands.push((u, *rect, *truly));
            }
        }
        self.judge_rulings(seen, truth, &stands);
        for (i, (u, rect, truly)) in stands.iter().enumerate() {
            for (v, other, other_truly) in &stands[i + 1..] {
                let true_gap = truly.rect.gap_to(&other_truly.rect);
                if u == v || true_gap > FARTHEST {
                    continue;
                }
                // Measured as the rules measure a gap between two footprints.
                let Some((from, to)) = Footprint::from_stands(vec![*rect], None)
                    .nearest_points_to(&Footprint::from_stands(vec![*other], None))
                else {
                    continue;
                };
                let gap = (to - from).norm();
                let (Some(at_from), Some(at_to)) = (
                    seen.units[*u].footprint.covariance_at(from),
                    seen.units[*v].footprint.covariance_at(to),
                ) else {
                    continue;
                };
                let half = length_plus_minus((from, &at_from), (to, &at_to), length_sd);
                self.distances.push(Judged::interval(
                    (gap - true_gap.0).abs(),
                    half.0,
                    truly.small || other_truly.small,
                ));
            }
        }
    }

    /// The rulings of the scene seen, against those of the same scene with the judged units
    /// where they truly stand (the others left as seen): their verdicts, and the shares in the
    /// arc they state.
    fn judge_rulings(
        &mut self,
        seen: &Scene,
        truth: &HashMap<String, Vec<TrueStand>>,
        stands: &[(usize, OrientedRect, TrueStand)],
    ) {
        // Whether each judged unit has a small tag.
        let mut small: HashMap<&str, bool> = HashMap::new();
        for (u, _, truly) in stands {
            *small.entry(seen.units[*u].id.as_str()).or_default() |= truly.small;
        }
        let Some(true_scene) = placed_truly(seen, truth) else {
            return;
        };
        let (stated, truly) = (rulings(seen), rulings(&true_scene));
        self.verdicts.tally(&stated, &truly);
        let (stated, truly) = (arc_shares(&stated), arc_shares(&truly));
        for (pair, (share, plus_minus)) in &stated {
            let (Some(plus_minus), Some((true_share, _))) = (plus_minus, truly.get(pair)) else {
                continue;
            };
            let partly = |s: f64| s > 0.0 && s < 1.0;
            let (Some(small_shooter), Some(small_target)) =
                (small.get(pair.0.as_str()), small.get(pair.1.as_str()))
            else {
                continue;
            };
            if partly(*share) || partly(*true_share) {
                self.arc_shares.push(Judged::interval(
                    (share - true_share).abs(),
                    *plus_minus,
                    *small_shooter || *small_target,
                ));
            }
        }
    }

    /// The rulings judged: how many the scene seen left to the players, and how many it
    /// decided the other way from the truth.
    pub fn verdicts(&self) -> Verdicts {
        self.verdicts
    }

    /// The stands' places judged against their 95 % ellipses, the scene's frame counted (only
    /// those of small tags, if `small`).
    pub fn places(&self, small: bool) -> Figures {
        Figures::of(self.places.iter().filter(|j| j.small || !small))
    }

    /// The distances between stands judged (only those with a small tag at either end, if
    /// `small`).
    pub fn distances(&self, small: bool) -> Figures {
        Figures::of(self.distances.iter().filter(|j| j.small || !small))
    }

    /// The facings judged (only those of small tags, if `small`).
    pub fn facings(&self, small: bool) -> Figures {
        Figures::of(self.facings.iter().filter(|j| j.small || !small))
    }

    /// The shares of targets in arcs judged (only those with a small tag at either end, if
    /// `small`).
    pub fn arc_shares(&self, small: bool) -> Figures {
        Figures::of(self.arc_shares.iter().filter(|j| j.small || !small))
    }
}

/// The rulings of scenes seen against those of the same scenes placed truly: each one both
/// give (the same topic, unit, other unit and rule), and the truth decides (the truth's own
/// borderline cases, within the ruleset's tolerance, are no test of the camera's bars).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Verdicts {
    /// Rulings judged.
    pub judged: usize,
    /// Left to the players ("borderline") by the scene seen.
    pub borderline: usize,
    /// Decided by the scene seen, the other way from the truth.
    pub wrong: usize,
}

impl Verdicts {
    fn tally(&mut self, stated: &Rulings, truly: &Rulings) {
        let truth: HashMap<_, Verdict> = every_ruling(truly)
            .map(|r| (key(r), r.decision.verdict()))
            .collect();
        for ruling in every_ruling(stated) {
            let Some(&true_verdict) = truth.get(&key(ruling)) else {
                continue;
            };
            if true_verdict == Verdict::Borderline {
                continue;
            }
            self.judged += 1;
            match ruling.decision.verdict() {
                Verdict::Borderline => self.borderline += 1,
                verdict if verdict != true_verdict => self.wrong += 1,
                _ => {}
            }
        }
    }
}

/// Every ruling of a report: each unit's and the table's.
fn every_ruling(report: &Rulings) -> impl Iterator<Item = &Ruling> {
    report
        .units
        .iter()
        .flat_map(|u| u.rulings.iter())
        .chain(&report.general)
}

/// What makes two rulings the same question.
fn key(ruling: &Ruling) -> (Topic, &str, Option<&str>, RuleRef) {
    (
        ruling.topic,
        ruling.unit.as_str(),
        ruling.other.as_deref(),
        ruling.rule,
    )
}

/// The scene seen, its judged units' stands where they truly stand, with no error bars.
fn placed_truly(seen: &Scene, truth: &HashMap<String, Vec<TrueStand>>) -> Option<Scene> {
    let mut doc = SceneDoc::from(seen);
    doc.length_sd = None;
    for unit in &mut doc.units {
        let (Some(stands), Some(true_stands)) = (unit.stands.as_mut(), truth.get(&unit.id)) else {
            continue;
        };
        // The unit's facing from its stands, as the camera's scene takes it.
        unit.facing = None;
        for (stand, truly) in stands.iter_mut().zip(true_stands) {
            stand.center = truly.rect.center();
            stand.facing = truly.rect.facing().0;
            stand.sd = None;
        }
    }
    Scene::from_doc(doc, "the truth").ok()
}

/// Each shooting ruling's share of its target in the arc, with its ±, by (shooter, target).
fn arc_shares(report: &Rulings) -> HashMap<(String, String), (f64, Option<f64>)> {
    let mut shares = HashMap::new();
    for unit in &report.units {
        for ruling in unit.rulings.iter().filter(|r| r.topic == Topic::Shooting) {
            let (Some(target), Some(figure)) = (
                ruling.other.as_ref(),
                ruling.figures.iter().find(|f| f.name == "in arc"),
            ) else {
                continue;
            };
            shares.insert(
                (unit.summary.id.clone(), target.clone()),
                (figure.value, figure.plus_minus),
            );
        }
    }
    shares
}
