//! How table points are written: `[x, y]`, in table inches in files and in a report's unit
//! inside [`written_in`](crate::units::written_in).
//!
//! Points stay [`TablePoint`]s in every file and report type; these adapters only choose the
//! text. Files are read through [`Pair`] so that a malformed point is refused in the words a
//! player understands ("invalid length 3, expected a point [x, y]"): nalgebra says "a matrix
//! array", and serde's own `[f64; 2]` stops after two numbers and leaves JSON to call a third
//! "trailing characters" of a valid document.

use std::fmt;

use serde::de::{self, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::TablePoint;
use crate::units::written;

fn pair(point: &TablePoint) -> [f64; 2] {
    [point.x, point.y]
}

fn point(Pair([x, y]): Pair) -> TablePoint {
    TablePoint::new(x, y)
}

/// Two numbers as a file writes them, `[x, y]`; any other count is refused by how many there
/// were.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pair(pub [f64; 2]);

impl<'de> Deserialize<'de> for Pair {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Pair, D::Error> {
        deserializer.deserialize_seq(PairVisitor)
    }
}

struct PairVisitor;

impl<'de> Visitor<'de> for PairVisitor {
    type Value = Pair;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a point [x, y]")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Pair, A::Error> {
        let mut pair = [0.0; 2];
        let mut count = 0;
        while let Some(number) = seq.next_element::<f64>()? {
            if let Some(slot) = pair.get_mut(count) {
                *slot = number;
            }
            count += 1;
        }
        if count == 2 {
            Ok(Pair(pair))
        } else {
            Err(de::Error::invalid_length(count, &self))
        }
    }
}

/// A point in a file, `#[serde(with = "xy")]`.
pub fn serialize<S: Serializer>(at: &TablePoint, serializer: S) -> Result<S::Ok, S::Error> {
    pair(at).serialize(serializer)
}

/// A point in a file, `#[serde(with = "xy")]`.
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<TablePoint, D::Error> {
    Pair::deserialize(deserializer).map(point)
}

/// A point a file may leave out, `#[serde(with = "xy::optional")]`.
pub mod optional {
    use super::*;

    /// Writes the point, if any, as `[x, y]`.
    pub fn serialize<S: Serializer>(
        at: &Option<TablePoint>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        at.as_ref().map(pair).serialize(serializer)
    }

    /// Reads `[x, y]`, if given.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<TablePoint>, D::Error> {
        Option::<Pair>::deserialize(deserializer).map(|at| at.map(point))
    }
}

/// A list of points a file may leave out, `#[serde(with = "xy::optional_list")]`.
pub mod optional_list {
    use super::*;

    /// Writes the points, if any, as `[[x, y], …]`.
    pub fn serialize<S: Serializer>(
        points: &Option<Vec<TablePoint>>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let pairs: Option<Vec<[f64; 2]>> = points.as_ref().map(|p| p.iter().map(pair).collect());
        pairs.serialize(serializer)
    }

    /// Reads `[[x, y], …]`, if given.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Vec<TablePoint>>, D::Error> {
        let pairs = Option::<Vec<Pair>>::deserialize(deserializer)?;
        Ok(pairs.map(|p| p.into_iter().map(point).collect()))
    }
}

/// A point in a report, in the unit being written.
pub fn written_point<S: Serializer>(at: &TablePoint, serializer: S) -> Result<S::Ok, S::Error> {
    pair(at).map(written).serialize(serializer)
}

/// Points in a report, as [`written_point`] writes each.
pub fn written_points<S: Serializer>(
    points: &[TablePoint],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(points.iter().map(|at| pair(at).map(written)))
}

/// A frame's four corners in a report, if any, as [`written_point`] writes each.
pub fn written_corners<S: Serializer>(
    corners: &Option<[TablePoint; 4]>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    corners
        .map(|c| c.map(|at| pair(&at).map(written)))
        .serialize(serializer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Stand {
        #[serde(with = "super")]
        center: TablePoint,
        #[serde(default, with = "optional")]
        leader: Option<TablePoint>,
        #[serde(default, with = "optional_list")]
        outline: Option<Vec<TablePoint>>,
    }

    #[test]
    fn points_are_written_and_read_as_pairs() {
        let stand = Stand {
            center: TablePoint::new(1.5, -2.0),
            leader: None,
            outline: Some(vec![TablePoint::new(0.0, 1.0)]),
        };
        let text = serde_json::to_string(&stand).expect("written");
        assert_eq!(
            text,
            r#"{"center":[1.5,-2.0],"leader":null,"outline":[[0.0,1.0]]}"#
        );
        assert_eq!(serde_json::from_str::<Stand>(&text).expect("read"), stand);
    }

    #[test]
    fn a_point_of_one_or_three_numbers_is_refused_by_their_count() {
        for (text, count) in [(r#"{"center":[1]}"#, 1), (r#"{"center":[1,2,3]}"#, 3)] {
            let error = serde_json::from_str::<Stand>(text).expect_err(text);
            let wanted = format!("invalid length {count}, expected a point [x, y]");
            assert!(error.to_string().contains(&wanted), "{error}");
        }
        let error = toml::from_str::<Stand>("center = [1.0, 2.0, 3.0]").expect_err("three");
        assert!(error.to_string().contains("invalid length 3"), "{error}");
    }
}
