//! The fire arc as a region: the front quarter, a cone, all round.

use crate::geometry::{ConvexRegion, OrientedRect, Wedge};
use crate::profile::{ArcShape, Profile};
use crate::quarter::Quarter;
use crate::scene::Unit;
use crate::units::Degrees;
use crate::vocabulary::Face;

/// Where a unit may shoot (digest §6.3, A13): its front quarter, a cone from the barrel, or
/// all round.
pub fn fire_arc(unit: &Unit, profile: &Profile) -> ConvexRegion {
    let frame = unit.footprint.frame();
    match profile.arc_shape(unit.formation) {
        ArcShape::AllRound => ConvexRegion::Everywhere,
        ArcShape::FrontQuarter => match profile.specials().front_arc_splay {
            None => ConvexRegion::Wedge(Quarter::Front.region(frame)),
            Some(splay) => ConvexRegion::Wedge(front_edge_arc(frame, splay)),
        },
        ArcShape::Cone => ConvexRegion::Wedge(Wedge::cone(
            frame.front_center(),
            frame.forward(),
            profile.cone_half_angle(),
        )),
    }
}

/// The ground ahead of a front edge between rays leaving its two ends, each splayed `splay`
/// from straight ahead: 45° is Black Powder's front quarter, 75° BPT Commander's 150° firing
/// cone (digest §1.4), 30° eRules' ±30° fire (digest §1.9).
pub fn front_edge_arc(frame: &OrientedRect, splay: Degrees) -> Wedge {
    face_arc(&Face::of(frame, Quarter::Front), splay)
}

/// The ground ahead of one face of a unit, between rays leaving its two ends, each splayed
/// `splay` from straight out: a square's face or stand firing into its own cone.
pub fn face_arc(face: &Face, splay: Degrees) -> Wedge {
    let (sin, cos) = splay.to_radians().sin_cos();
    let out = face.outward() * cos;
    // A stand facing out through the face has its own right at the face's start.
    let sideways = -face.along() * sin;
    Wedge::new(face.end, out - sideways, face.start, out + sideways)
}
