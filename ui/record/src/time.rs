//! Time in a game: since its record began.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// A moment of a game, counted from the start of its record, to the millisecond (a record
/// keeps nothing finer: a frame lasts 33 ms).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct GameTime(u64);

impl GameTime {
    /// The start of the record.
    pub const START: GameTime = GameTime(0);

    /// From milliseconds since the start.
    pub const fn from_millis(millis: u64) -> GameTime {
        GameTime(millis)
    }

    /// Milliseconds since the start.
    pub const fn millis(self) -> u64 {
        self.0
    }

    /// As a duration since the start.
    pub fn elapsed(self) -> Duration {
        Duration::from_millis(self.0)
    }

    /// From a duration since the start.
    pub fn after(elapsed: Duration) -> GameTime {
        GameTime(u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX))
    }

    /// The column SQLite stores it in (its integers are signed).
    pub(crate) fn column(self) -> i64 {
        i64::try_from(self.0).unwrap_or(i64::MAX)
    }

    /// Read back from its column; a negative value (a damaged row) reads as the start.
    pub(crate) fn from_column(value: i64) -> GameTime {
        GameTime(u64::try_from(value).unwrap_or(0))
    }

    /// Reads `h:mm:ss.s` (as [`Display`](std::fmt::Display) writes it) or `mm:ss`, `ss`.
    pub fn parse(text: &str) -> Option<GameTime> {
        let mut seconds = 0.0;
        for part in text.trim().split(':') {
            let value: f64 = part.parse().ok()?;
            if !(0.0..60.0 * 60.0 * 24.0 * 365.0).contains(&value) {
                return None;
            }
            seconds = seconds * 60.0 + value;
        }
        Some(GameTime((seconds * 1000.0).round() as u64))
    }
}

impl std::fmt::Display for GameTime {
    /// `1:02:03.4`: hours, minutes, seconds and tenths.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tenths = self.0 / 100;
        let (hours, rest) = (tenths / 36_000, tenths % 36_000);
        let (minutes, rest) = (rest / 600, rest % 600);
        write!(f, "{hours}:{minutes:02}:{:02}.{}", rest / 10, rest % 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_reads_back_as_it_is_written() {
        let t = GameTime::from_millis(3_723_400);
        assert_eq!(t.to_string(), "1:02:03.4");
        assert_eq!(GameTime::parse(&t.to_string()), Some(t));
        assert_eq!(GameTime::parse("90"), Some(GameTime::from_millis(90_000)));
        assert_eq!(GameTime::parse("1:x"), None);
        assert_eq!(GameTime::parse("-3"), None);
    }
}
