//! Which way a unit retires or evades (digest §7.6, §8.3, A28): into its rear quarter, or the
//! quarter opposite the only face it fights on or was charged on.

use crate::geometry::{OrientedRect, TableVector};
use crate::quarter::Quarter;

/// The quarter opposite a face.
pub fn opposite(face: Quarter) -> Quarter {
    match face {
        Quarter::Front => Quarter::Rear,
        Quarter::Rear => Quarter::Front,
        Quarter::LeftFlank => Quarter::RightFlank,
        Quarter::RightFlank => Quarter::LeftFlank,
    }
}

/// The quarter a unit fighting on `faces` retires into: the rear, unless it fights only one
/// flank or only its rear, when it retires the opposite way (§8.3).
pub fn retire_quarter(faces: &[Quarter]) -> Quarter {
    match faces.split_first() {
        Some((&first, rest)) if first != Quarter::Front && rest.iter().all(|&f| f == first) => {
            opposite(first)
        }
        _ => Quarter::Rear,
    }
}

/// The quarter a unit charged on `face` evades into: straight away from the charge (§7.6).
pub fn evade_quarter(face: Quarter) -> Quarter {
    opposite(face)
}

/// The direction straight out through the middle of a quarter, without turning (a retiring
/// unit moves backwards, it does not face about).
pub fn straight_into(frame: &OrientedRect, quarter: Quarter) -> TableVector {
    match quarter {
        Quarter::Front => frame.forward(),
        Quarter::Rear => -frame.forward(),
        Quarter::LeftFlank => -frame.right(),
        Quarter::RightFlank => frame.right(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unit_fighting_only_its_left_flank_retires_to_its_right() {
        assert_eq!(retire_quarter(&[Quarter::LeftFlank]), Quarter::RightFlank);
        assert_eq!(
            retire_quarter(&[Quarter::Rear, Quarter::Rear]),
            Quarter::Front
        );
        assert_eq!(retire_quarter(&[Quarter::Front]), Quarter::Rear);
        assert_eq!(
            retire_quarter(&[Quarter::Front, Quarter::LeftFlank]),
            Quarter::Rear
        );
        assert_eq!(retire_quarter(&[]), Quarter::Rear);
    }
}
