//! Where a unit shoots from (digest §3, §6.3, A3): a unit with one front shoots from its leader
//! into its arc; a square or a unit in a building shoots from each face separately — from the
//! face's midpoint, its own leader, into the quarter in front of that face. A ruleset measuring
//! the shortest distance between the units (BPT Commander §1.9) takes ranges from the whole
//! front edge (or face) instead; sight lines still leave the leader.

use parry2d_f64::bounding_volume::Aabb;
use smallvec::SmallVec;

use super::{face_arc, fire_arc};
use crate::geometry::{
    Along, Clipped, ConvexRegion, OrientedRect, Segment, TablePoint, TableVector, Tape,
};
use crate::profile::{FiresBy, Profile};
use crate::quarter::{Quarter, QuarterScheme};
use crate::scene::Unit;
use crate::text::possessive;
use crate::units::{Degrees, Inches};
use crate::vocabulary::Face;

/// One part of a unit that shoots on its own.
#[derive(Clone, Debug, PartialEq)]
pub struct FiringFace {
    /// The face of a square or building; `None` for a unit with one front.
    pub face: Option<Quarter>,
    /// Where sight and range are measured from: the leader, or the face's midpoint.
    pub eye: TablePoint,
    /// The edge ranges are measured from instead, when a ruleset measures the shortest
    /// distance between the units (BPT Commander §1.9): the front edge, or the face.
    pub range_edge: Option<Segment>,
    /// Where it may shoot.
    pub arc: ConvexRegion,
    /// The frontage that shoots: the unit's width, or the face's length (for the gap rule, A11).
    pub frontage: Inches,
}

impl FiringFace {
    /// The shortest tape from this face to the part of a target's bases in its arc: from its
    /// range edge, or from its eye.
    pub fn tape_to(&self, in_arc: &Clipped) -> Option<Tape> {
        match &self.range_edge {
            Some(edge) => in_arc.closest_to_edge(edge),
            None => in_arc
                .closest_to(&self.eye)
                .map(|(to, _)| Tape::between(self.eye, to)),
        }
    }

    /// The box round every point ranges are measured from: the eye, and the range edge where
    /// there is one. No part of a target is nearer than its box's gap to this box, so it bounds
    /// who can be in range (a wide line measured from its front edge reaches further to the
    /// sides than from its middle).
    pub fn range_origins(&self) -> Aabb {
        let edge = self.range_edge.iter().flat_map(|edge| [edge.a, edge.b]);
        Aabb::from_points(std::iter::once(self.eye).chain(edge))
    }

    /// "45th Foot", or "45th Foot's left face".
    pub fn who(&self, unit: &Unit) -> String {
        match self.face {
            None => unit.name.clone(),
            Some(face) => format!("{} {} face", possessive(&unit.name), side_word(face)),
        }
    }
}

/// The word for a face of a square: its front, left, right or rear face.
pub fn side_word(face: Quarter) -> &'static str {
    match face {
        Quarter::Front => "front",
        Quarter::LeftFlank => "left",
        Quarter::RightFlank => "right",
        Quarter::Rear => "rear",
    }
}

/// The parts of `unit` that shoot: its one front, or the four faces of a square or building
/// (or, where the formation fires by stand, each stand facing out).
pub fn firing_faces(unit: &Unit, profile: &Profile) -> SmallVec<[FiringFace; 4]> {
    if profile.quarter_scheme(unit.formation) != QuarterScheme::FourFronts {
        let mut one = SmallVec::new();
        one.push(one_front(unit, profile, fire_arc(unit, profile)));
        return one;
    }
    let frame = unit.footprint.frame();
    let fires_by = profile.formation_fires_by(unit.formation);
    if fires_by == FiresBy::Stand {
        let stands = stands_facing_out(unit, profile);
        if !stands.is_empty() {
            return stands;
        }
    }
    Quarter::ALL
        .iter()
        .map(|&quarter| {
            let face = Face::of(frame, quarter);
            let arc = match fires_by {
                FiresBy::Face => quarter.region(frame),
                FiresBy::Stand => face_arc(&face, stand_splay(profile)),
            };
            FiringFace {
                face: Some(quarter),
                eye: face.point_at(face.length() / 2.0),
                range_edge: range_edge(profile, face),
                arc: ConvexRegion::Wedge(arc),
                frontage: face.length(),
            }
        })
        .collect()
}

/// How far a stand's own arc splays from straight ahead: the ruleset's front arc (BPT
/// Commander's 150° cone), or the front quarter's 45°.
fn stand_splay(profile: &Profile) -> Degrees {
    profile.specials().front_arc_splay.unwrap_or(Degrees(45.0))
}

/// Each stand of a unit given as stands that faces out of it (away from its middle by more
/// than half its depth: not a stand in the middle) with no stand of its own in front of it
/// (not a second rank), firing from its own front edge into its own arc, named by the side of
/// the unit it faces (BPT Commander §1.3, digest ambiguity 13).
fn stands_facing_out(unit: &Unit, profile: &Profile) -> SmallVec<[FiringFace; 4]> {
    let footprint = &unit.footprint;
    if !footprint.is_from_stands() {
        return SmallVec::new();
    }
    let frame = footprint.frame();
    let middle = frame.center();
    let slack = profile.distances().contact + profile.tolerance().distance;
    let stands = footprint.stands();
    let faces_out = |stand: &OrientedRect| {
        (stand.center() - middle).dot(&stand.forward()) > stand.depth().0 / 2.0
            && !stands
                .iter()
                .any(|other| other != stand && stand.touches_directly(other, Along::Ahead, slack))
    };
    stands
        .iter()
        .filter(|stand| faces_out(stand))
        .map(|stand| {
            let front = Face::of(stand, Quarter::Front);
            FiringFace {
                face: Some(side_faced(frame, stand.forward())),
                eye: stand.front_center(),
                range_edge: range_edge(profile, front),
                arc: ConvexRegion::Wedge(face_arc(&front, stand_splay(profile))),
                frontage: stand.width(),
            }
        })
        .collect()
}

/// The side of `frame` a direction points out of: front, rear, left or right, whichever it is
/// nearest.
fn side_faced(frame: &OrientedRect, direction: TableVector) -> Quarter {
    let (ahead, right) = (
        direction.dot(&frame.forward()),
        direction.dot(&frame.right()),
    );
    match (ahead.abs() >= right.abs(), ahead >= 0.0, right >= 0.0) {
        (true, true, _) => Quarter::Front,
        (true, false, _) => Quarter::Rear,
        (false, _, true) => Quarter::RightFlank,
        (false, _, false) => Quarter::LeftFlank,
    }
}

/// `unit` shooting as one front into `arc`.
pub fn one_front(unit: &Unit, profile: &Profile, arc: ConvexRegion) -> FiringFace {
    let frame = unit.footprint.frame();
    FiringFace {
        face: None,
        eye: profile.range_origin(unit),
        range_edge: range_edge(profile, Face::of(frame, Quarter::Front)),
        arc,
        frontage: frame.width(),
    }
}

/// The edge ranges are measured from, if the ruleset measures between the units.
fn range_edge(profile: &Profile, face: Face) -> Option<Segment> {
    profile.ranges_from_front_edge().then(|| face.segment())
}
