//! How table points are written: `[x, y]`, in table inches in files and in a report's unit
//! inside [`written_in`](crate::units::written_in).
//!
//! Points stay [`TablePoint`]s in every file and report type; these adapters only choose the
//! text. Files are read through `[f64; 2]` so that a malformed point is refused in the words a
//! player understands ("expected an array of length 2"), not nalgebra's.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::TablePoint;
use crate::units::written;

fn pair(point: &TablePoint) -> [f64; 2] {
    [point.x, point.y]
}

fn point([x, y]: [f64; 2]) -> TablePoint {
    TablePoint::new(x, y)
}

/// A point in a file, `#[serde(with = "xy")]`.
pub fn serialize<S: Serializer>(at: &TablePoint, serializer: S) -> Result<S::Ok, S::Error> {
    pair(at).serialize(serializer)
}

/// A point in a file, `#[serde(with = "xy")]`.
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<TablePoint, D::Error> {
    <[f64; 2]>::deserialize(deserializer).map(point)
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
        Option::<[f64; 2]>::deserialize(deserializer).map(|at| at.map(point))
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
        let pairs = Option::<Vec<[f64; 2]>>::deserialize(deserializer)?;
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
    fn a_point_of_one_number_is_refused_in_plain_words() {
        let error = serde_json::from_str::<Stand>(r#"{"center":[1]}"#).expect_err("one number");
        assert!(
            error.to_string().contains("expected an array of length 2"),
            "{error}"
        );
    }
}
