//! Where a unit shoots from (digest §3, §6.3, A3): a unit with one front shoots from its leader
//! into its arc; a square or a unit in a building shoots from each face separately — from the
//! face's midpoint, its own leader, into the quarter in front of that face.

use smallvec::SmallVec;

use super::fire_arc;
use crate::charge::Face;
use crate::geometry::{ConvexRegion, TablePoint};
use crate::measure::possessive;
use crate::profile::Profile;
use crate::quarter::{Quarter, QuarterScheme};
use crate::scene::Unit;
use crate::units::Inches;

/// One part of a unit that shoots on its own.
#[derive(Clone, Debug, PartialEq)]
pub struct FiringFace {
    /// The face of a square or building; `None` for a unit with one front.
    pub face: Option<Quarter>,
    /// Where sight and range are measured from: the leader, or the face's midpoint.
    pub eye: TablePoint,
    /// Where it may shoot.
    pub arc: ConvexRegion,
    /// The frontage that shoots: the unit's width, or the face's length (for the gap rule, A11).
    pub frontage: Inches,
}

impl FiringFace {
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
                    arc: ConvexRegion::Wedge(quarter.region(frame)),
                    frontage: face.length(),
                }
            })
            .collect();
    }
    let mut one = SmallVec::new();
    one.push(FiringFace {
        face: None,
        eye: profile.range_origin(unit),
        arc: fire_arc(unit, profile),
        frontage: frame.width(),
    });
    one
}
