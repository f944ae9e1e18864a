//! Front, flank and rear quarters (digest §2.3, A1, A2).
//!
//! The quarters come from 45° rays leaving the corners of the unit's footprint rectangle. A point
//! is classified with the digest's closed-form test in the footprint's own frame, so a point
//! exactly on a ray goes to the front or rear (A1); how close it came to a ray is kept as a
//! [`RayMargin`] so that callers can report borderline cases instead of deciding them silently.

use serde::{Deserialize, Serialize};

use crate::geometry::{LocalPoint, OrientedRect, TablePoint, TableVector, Wedge, angle_between};
use crate::units::{Degrees, Inches};

/// One of the four quarters around a unit, named from the unit's own point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Quarter {
    /// Ahead of the front edge, between the two front corner rays.
    #[serde(rename = "front")]
    Front,
    /// The unit's own left, between its front-left and rear-left corner rays.
    #[serde(rename = "left")]
    LeftFlank,
    /// The unit's own right.
    #[serde(rename = "right")]
    RightFlank,
    /// Behind the rear edge, between the two rear corner rays.
    #[serde(rename = "rear")]
    Rear,
}

impl Quarter {
    /// All four, front first.
    pub const ALL: [Quarter; 4] = [
        Quarter::Front,
        Quarter::LeftFlank,
        Quarter::RightFlank,
        Quarter::Rear,
    ];

    /// The word a player uses: "front", "left flank", "right flank", "rear".
    pub fn describe(self) -> &'static str {
        match self {
            Quarter::Front => "front",
            Quarter::LeftFlank => "left flank",
            Quarter::RightFlank => "right flank",
            Quarter::Rear => "rear",
        }
    }

    /// The short name used in JSON: front, left, right, rear.
    pub fn short(self) -> &'static str {
        match self {
            Quarter::Front => "front",
            Quarter::LeftFlank => "left",
            Quarter::RightFlank => "right",
            Quarter::Rear => "rear",
        }
    }

    /// The quarter as a wedge on the table (each quarter is bounded by one footprint edge and
    /// the two corner rays leaving its ends), with Black Powder's 45° rays.
    pub fn region(self, frame: &OrientedRect) -> Wedge {
        self.region_with(frame, QuarterRays::BLACK_POWDER)
    }

    /// The quarter as a wedge on the table, with a ruleset's rays (see [`QuarterRays`]).
    pub fn region_with(self, frame: &OrientedRect, rays: QuarterRays) -> Wedge {
        let forward = frame.forward();
        let right = frame.right();
        // A ray splayed outward from straight `ahead` (+1) or behind (−1) towards `side`; a 45°
        // ray keeps Black Powder's exact (1, 1) direction.
        let ray = |ahead: f64, side: f64, splay: Degrees| -> TableVector {
            if splay == Degrees(45.0) {
                forward * ahead + right * side
            } else {
                let (sin, cos) = splay.0.to_radians().sin_cos();
                forward * (ahead * cos) + right * (side * sin)
            }
        };
        let (f, r) = (rays.front, rays.rear);
        let [front_right, front_left, rear_left, rear_right] = frame.corners();
        match self {
            Quarter::Front => {
                Wedge::new(front_left, ray(1.0, -1.0, f), front_right, ray(1.0, 1.0, f))
            }
            Quarter::Rear => {
                Wedge::new(rear_right, ray(-1.0, 1.0, r), rear_left, ray(-1.0, -1.0, r))
            }
            Quarter::LeftFlank => {
                Wedge::new(rear_left, ray(-1.0, -1.0, r), front_left, ray(1.0, -1.0, f))
            }
            Quarter::RightFlank => {
                Wedge::new(front_right, ray(1.0, 1.0, f), rear_right, ray(-1.0, 1.0, r))
            }
        }
    }
}

/// How a formation divides the ground around it (digest §2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum QuarterScheme {
    /// Front, two flanks and rear: lines, columns, warbands, limbered or deployed guns.
    FrontFlanksRear,
    /// Everything around is front: skirmishers.
    AllFront,
    /// Each of the four faces is a front: squares and units in buildings.
    FourFronts,
    /// Every shot comes in on a flank, whatever the angle: BPT Commander's march column ("for
    /// targeting purposes the front is considered the flank"). Charged, it has its geometric
    /// faces: its long edges are its flanks (digest §1.3).
    AllFlank,
}

impl QuarterScheme {
    /// The quarter a rule sees when the point lies in geometric quarter `face`.
    pub fn rule_quarter(self, face: Quarter) -> Quarter {
        match self {
            QuarterScheme::FrontFlanksRear => face,
            QuarterScheme::AllFront | QuarterScheme::FourFronts => Quarter::Front,
            // Charged, a march column has its geometric faces; shots use `rule_quarter_at`.
            QuarterScheme::AllFlank => face,
        }
    }

    /// The quarter a shot from `point` strikes, `point` lying in geometric quarter `face` of
    /// `frame`: an all-flank formation is struck on the flank on `point`'s side.
    pub fn rule_quarter_at(
        self,
        face: Quarter,
        frame: &OrientedRect,
        point: &TablePoint,
    ) -> Quarter {
        match self {
            QuarterScheme::AllFlank => {
                let across = (point - frame.center()).dot(&frame.right());
                if across > 0.0 {
                    Quarter::RightFlank
                } else {
                    Quarter::LeftFlank
                }
            }
            _ => self.rule_quarter(face),
        }
    }
}

/// How far a point lies from the nearest corner ray: small margins are borderline.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RayMargin {
    /// Perpendicular distance to the ray (to its corner, if the point is behind the corner).
    pub distance: Inches,
    /// Angle between the ray and the line from its corner to the point.
    pub angle: Degrees,
}

/// Where a point lies around a footprint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuarterReading {
    /// The geometric quarter (for squares this is the face, for skirmishers the side).
    pub face: Quarter,
    /// The point lies inside the footprint itself (overlapping bases): `face` is then the
    /// nearest edge, and the reading is always borderline.
    pub inside_footprint: bool,
    /// Distance to the nearest quarter boundary ray.
    pub margin: RayMargin,
}

/// Where the rays that divide the quarters leave a footprint's corners: at `front` from
/// straight ahead at the front corners, and at `rear` from straight behind at the rear corners.
/// Black Powder's are both 45°. BPT Commander's front rays bound its 150° firing cone (75°),
/// since "the area outside of the firing cone is the flank or rear", and its rear is the sector
/// 45° either side of straight behind (digest §1.4).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct QuarterRays {
    /// Splay of the front corners' rays from straight ahead.
    pub front: Degrees,
    /// Splay of the rear corners' rays from straight behind.
    pub rear: Degrees,
}

impl QuarterRays {
    /// Black Powder's: 45° rays from every corner (digest §2.3).
    pub const BLACK_POWDER: QuarterRays = QuarterRays {
        front: Degrees(45.0),
        rear: Degrees(45.0),
    };
}

/// How far ahead of a corner a point must be, for each unit it lies beyond the footprint's
/// side, to be inside a ray splayed `splay` from straight ahead (exactly 1 at 45°).
fn ray_slope(splay: Degrees) -> f64 {
    if splay == Degrees(45.0) {
        1.0
    } else {
        1.0 / splay.0.to_radians().tan()
    }
}

/// The margin from a point, given relative to a corner as (`outward`, `along`), to the ray
/// that leaves that corner splayed `splay` outward from straight along.
fn margin_to_ray(outward: f64, along: f64, splay: Degrees) -> RayMargin {
    let offset = TableVector::new(outward, along);
    // Black Powder's 45° ray is measured as it always was, so its rulings keep every digit.
    let (ray, distance) = if splay == Degrees(45.0) {
        let beside = if outward + along >= 0.0 {
            (along - outward).abs() / std::f64::consts::SQRT_2
        } else {
            offset.norm()
        };
        (TableVector::new(1.0, 1.0), beside)
    } else {
        let (sin, cos) = splay.0.to_radians().sin_cos();
        let ray = TableVector::new(sin, cos);
        let beside = if offset.dot(&ray) >= 0.0 {
            (outward * cos - along * sin).abs()
        } else {
            offset.norm()
        };
        (ray, beside)
    };
    let angle = if offset.norm() > 0.0 {
        angle_between(offset, ray)
    } else {
        Degrees(0.0)
    };
    RayMargin {
        distance: Inches(distance),
        angle,
    }
}

/// Classify a point around a footprint rectangle (digest §2.3).
pub fn classify(frame: &OrientedRect, point: &TablePoint) -> QuarterReading {
    classify_with(frame, point, QuarterRays::BLACK_POWDER)
}

/// Classify a point around a footprint rectangle with the quarters a ruleset's rays make.
pub fn classify_with(
    frame: &OrientedRect,
    point: &TablePoint,
    rays: QuarterRays,
) -> QuarterReading {
    let LocalPoint { across, ahead } = frame.to_local(point);
    let (x, y) = (across.0, ahead.0);
    let half = frame.width().0 / 2.0;
    let depth = frame.depth().0;
    let beyond_side = x.abs() - half;
    let dx = beyond_side.max(0.0);
    let behind_rear = -depth - y;

    let front_ray = margin_to_ray(beyond_side, y, rays.front);
    let rear_ray = margin_to_ray(beyond_side, behind_rear, rays.rear);
    let (front_slope, rear_slope) = (ray_slope(rays.front), ray_slope(rays.rear));
    let margin = if front_ray.distance <= rear_ray.distance {
        front_ray
    } else {
        rear_ray
    };
    let flank = if x < 0.0 {
        Quarter::LeftFlank
    } else {
        Quarter::RightFlank
    };

    // A point on a ray goes to the front or rear (A1); allow for rounding in the local frame.
    const ON_THE_RAY: f64 = 1e-9;
    if y >= -ON_THE_RAY && y >= dx * front_slope - ON_THE_RAY {
        return QuarterReading {
            face: Quarter::Front,
            inside_footprint: false,
            margin,
        };
    }
    if behind_rear >= -ON_THE_RAY && behind_rear >= dx * rear_slope - ON_THE_RAY {
        return QuarterReading {
            face: Quarter::Rear,
            inside_footprint: false,
            margin,
        };
    }
    if beyond_side > 0.0 || y >= 0.0 || behind_rear >= 0.0 {
        return QuarterReading {
            face: flank,
            inside_footprint: false,
            margin,
        };
    }
    // Inside the footprint: the nearest edge decides.
    let edges = [
        (Quarter::Front, -y),
        (Quarter::Rear, y + depth),
        (flank, half - x.abs()),
    ];
    let (face, depth_inside) = edges
        .into_iter()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap_or((Quarter::Front, 0.0));
    QuarterReading {
        face,
        inside_footprint: true,
        margin: RayMargin {
            distance: Inches(-depth_inside),
            angle: Degrees(0.0),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 9.4" x 1.6" line at the origin facing +y (its right is +x).
    fn line() -> OrientedRect {
        OrientedRect::new(
            TablePoint::new(0.0, 0.0),
            Degrees(90.0),
            Inches(9.4),
            Inches(1.6),
        )
    }

    fn face_of(x: f64, y: f64) -> Quarter {
        classify(&line(), &TablePoint::new(x, y)).face
    }

    #[test]
    fn the_four_quarters_of_a_line() {
        assert_eq!(face_of(0.0, 10.0), Quarter::Front);
        assert_eq!(face_of(-10.0, 0.0), Quarter::LeftFlank);
        assert_eq!(face_of(10.0, -0.8), Quarter::RightFlank);
        assert_eq!(face_of(0.0, -5.0), Quarter::Rear);
        // The front widens with distance: 10" ahead, it reaches 4.7 + 10 to either side.
        assert_eq!(face_of(14.6, 10.0), Quarter::Front);
        assert_eq!(face_of(14.8, 10.0), Quarter::RightFlank);
    }

    #[test]
    fn a_point_exactly_on_a_ray_is_front_or_rear_and_has_no_margin() {
        let on_front_ray = classify(&line(), &TablePoint::new(-4.7 - 3.0, 3.0));
        assert_eq!(on_front_ray.face, Quarter::Front);
        assert!(on_front_ray.margin.distance.0 < 1e-9);
        let on_rear_ray = classify(&line(), &TablePoint::new(4.7 + 2.0, -1.6 - 2.0));
        assert_eq!(on_rear_ray.face, Quarter::Rear);
        assert!(on_rear_ray.margin.angle.0 < 1e-6);
    }

    #[test]
    fn the_margin_is_the_distance_to_the_nearest_ray() {
        let reading = classify(&line(), &TablePoint::new(0.0, 10.0));
        // From (0, 10) to the ray leaving (4.7, 0) at 45°: |10 - (-4.7)| / sqrt 2.
        assert!((reading.margin.distance.0 - 14.7 / 2f64.sqrt()).abs() < 1e-9);
    }

    #[test]
    fn a_point_inside_overlapping_bases_takes_the_nearest_edge() {
        let reading = classify(&line(), &TablePoint::new(4.5, -0.8));
        assert!(reading.inside_footprint);
        assert_eq!(reading.face, Quarter::RightFlank);
    }

    #[test]
    fn quarter_regions_agree_with_the_classification_whatever_the_rays() {
        let frame = OrientedRect::new(
            TablePoint::new(5.0, 3.0),
            Degrees(33.0),
            Inches(6.0),
            Inches(2.0),
        );
        let cone = QuarterRays {
            front: Degrees(75.0),
            rear: Degrees(45.0),
        };
        let narrow_rear = QuarterRays {
            front: Degrees(60.0),
            rear: Degrees(18.0),
        };
        for rays in [QuarterRays::BLACK_POWDER, cone, narrow_rear] {
            for i in 0..40 {
                for j in 0..40 {
                    let p = TablePoint::new(-15.0 + i as f64 * 0.77, -15.0 + j as f64 * 0.81);
                    let reading = classify_with(&frame, &p, rays);
                    if reading.inside_footprint || reading.margin.distance.0 < 1e-6 {
                        continue;
                    }
                    for q in Quarter::ALL {
                        assert_eq!(
                            q.region_with(&frame, rays).contains(&p),
                            q == reading.face,
                            "{p} {q:?} {rays:?}"
                        );
                    }
                }
            }
        }
    }
}
