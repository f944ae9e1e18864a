//! Where a unit shoots from (digest §3, §6.3, A3): a unit with one front shoots from its leader
//! into its arc; a square or a unit in a building shoots from each face separately — from the
//! face's midpoint, its own leader, into the quarter in front of that face. A ruleset measuring
//! the shortest distance between the units (BPT Commander §1.9) takes ranges from the whole
//! front edge (or face) instead; sight lines still leave the leader.

use parry2d_f64::bounding_volume::Aabb;
use smallvec::SmallVec;

use super::fire_arc;
use crate::geometry::{Clipped, ConvexRegion, Segment, TablePoint, Tape};
use crate::profile::Profile;
use crate::quarter::{Quarter, QuarterScheme};
use crate::scene::Unit;
use crate::text::possessive;
use crate::units::Inches;
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

/// The parts of `unit` that shoot: its one front, or the four faces of a square or building.
pub fn firing_faces(unit: &Unit, profile: &Profile) -> SmallVec<[FiringFace; 4]> {
    let frame = unit.footprint.frame();
    if profile.quarter_scheme(unit.formation) == QuarterScheme::FourFronts {
        return Quarter::ALL
            .iter()
            .map(|&quarter| {
                let face = Face::of(frame, quarter);
                FiringFace {
                    face: Some(quarter),
                    eye: face.point_at(face.length() / 2.0),
                    range_edge: range_edge(profile, face),
                    arc: ConvexRegion::Wedge(quarter.region(frame)),
                    frontage: face.length(),
                }
            })
            .collect();
    }
    let mut one = SmallVec::new();
    one.push(one_front(unit, profile, fire_arc(unit, profile)));
    one
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
