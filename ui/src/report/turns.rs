//! A game cut into turns: by its turn marks when the players made them, else into sections of
//! ten minutes, so that a report always has something to turn the pages by.

use std::time::Duration;

use record::{GameRecord, GameTime, MarkKind};

/// How long a section is when the game has no turn marks: long enough for a few moves, short
/// enough that a plan still shows where each went.
pub const SECTION: Duration = Duration::from_secs(10 * 60);

/// How the game was cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cutting {
    /// By the turn marks the players made.
    ByTurns,
    /// Into sections of [`SECTION`]: no turn was marked.
    ByTime,
}

/// One turn (or section) of the game: from its start up to the next one's.
#[derive(Clone, Debug, PartialEq)]
pub struct Turn {
    /// As the players called it ("Turn 3"), or its span of time ("0:10–0:20").
    pub title: String,
    /// When it began.
    pub from: GameTime,
    /// When the next began (the record's end, for the last).
    pub to: GameTime,
    /// Whether it is the last: it keeps what happens at its very end.
    pub last: bool,
}

impl Turn {
    /// Whether something that happened at `at` belongs to this turn.
    pub fn holds(&self, at: GameTime) -> bool {
        self.from <= at && (at < self.to || (self.last && at == self.to))
    }

    /// The moment its plan shows: the table as the turn left it, before the next one began.
    pub fn end(&self) -> GameTime {
        if self.last || self.to <= self.from {
            self.to
        } else {
            GameTime::from_millis(self.to.millis() - 1)
        }
    }
}

/// The turns of a game, and how they were found.
pub fn cut(record: &GameRecord) -> (Cutting, Vec<Turn>) {
    let until = record.until();
    let marks: Vec<(GameTime, &str)> = record
        .marks()
        .iter()
        .filter(|m| m.kind == MarkKind::Turn)
        .map(|m| (m.at, m.label.as_str()))
        .collect();
    let Some(&(first, first_label)) = marks.first() else {
        return (Cutting::ByTime, by_time(record, until));
    };
    let mut starts: Vec<(GameTime, String)> = Vec::new();
    // Moves made before the first mark (a deployment, a turn the players forgot to mark)
    // would otherwise be left out.
    if record.moves().iter().any(|m| m.ended < first) {
        starts.push((GameTime::START, format!("Before {first_label}")));
    }
    starts.extend(marks.iter().map(|(at, label)| (*at, (*label).to_owned())));
    (Cutting::ByTurns, spans(starts, until))
}

/// Sections of [`SECTION`], the empty ones left out (but never all of them).
fn by_time(record: &GameRecord, until: GameTime) -> Vec<Turn> {
    let length = u64::try_from(SECTION.as_millis()).unwrap_or(u64::MAX);
    let count = until.millis().div_ceil(length).max(1);
    let busy = |from: u64, to: u64| {
        let inside = |at: GameTime| (from..to).contains(&at.millis());
        record.moves().iter().any(|m| inside(m.ended))
            || record
                .marks()
                .iter()
                .any(|m| inside(m.at) && m.kind != MarkKind::InRange)
    };
    let mut turns: Vec<Turn> = (0..count)
        .map(|k| (k * length, (k + 1) * length))
        .filter(|&(from, to)| busy(from, if to >= until.millis() { u64::MAX } else { to }))
        .map(|(from, to)| Turn {
            title: format!("{}–{}", minutes(from), minutes(to)),
            from: GameTime::from_millis(from),
            to: GameTime::from_millis(to.min(until.millis())),
            last: to >= until.millis(),
        })
        .collect();
    if turns.is_empty() {
        turns.push(Turn {
            title: format!("{}–{}", minutes(0), minutes(length)),
            from: GameTime::START,
            to: until,
            last: true,
        });
    }
    turns
}

/// Turns from their starts, each up to the next's.
fn spans(starts: Vec<(GameTime, String)>, until: GameTime) -> Vec<Turn> {
    let count = starts.len();
    let nexts: Vec<GameTime> = starts.iter().skip(1).map(|(at, _)| *at).collect();
    starts
        .into_iter()
        .enumerate()
        .map(|(index, (from, title))| {
            let last = index + 1 == count;
            let to = nexts.get(index).copied().unwrap_or(until).max(from);
            Turn {
                title,
                from,
                to,
                last,
            }
        })
        .collect()
}

/// `1:20`: hours and minutes.
fn minutes(millis: u64) -> String {
    let minutes = millis / 60_000;
    format!("{}:{:02}", minutes / 60, minutes % 60)
}

/// `0:12:04`: a moment of the game to the second, as a reader wants it.
pub fn clock(at: GameTime) -> String {
    let seconds = at.millis() / 1000;
    format!(
        "{}:{:02}:{:02}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}

/// `1 h 05 min`, `4 min 12 s`, `58 s`: how long something lasted.
pub fn lasting(length: Duration) -> String {
    let seconds = length.as_secs();
    match (seconds / 3600, seconds / 60 % 60, seconds % 60) {
        (0, 0, s) => format!("{s} s"),
        (0, m, s) => format!("{m} min {s:02} s"),
        (h, m, _) => format!("{h} h {m:02} min"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_a_player_says_them() {
        assert_eq!(minutes(10 * 60_000), "0:10");
        assert_eq!(minutes(70 * 60_000), "1:10");
        assert_eq!(clock(GameTime::from_millis(3_723_400)), "1:02:03");
        assert_eq!(lasting(Duration::from_secs(58)), "58 s");
        assert_eq!(lasting(Duration::from_secs(252)), "4 min 12 s");
        assert_eq!(lasting(Duration::from_secs(3900)), "1 h 05 min");
    }

    #[test]
    fn the_last_turn_keeps_its_very_end_and_the_others_do_not() {
        let turns = spans(
            vec![
                (GameTime::from_millis(0), "Turn 1".into()),
                (GameTime::from_millis(10), "Turn 2".into()),
            ],
            GameTime::from_millis(20),
        );
        assert!(!turns[0].holds(GameTime::from_millis(10)));
        assert!(turns[1].holds(GameTime::from_millis(10)));
        assert!(turns[1].holds(GameTime::from_millis(20)));
        assert_eq!(turns[0].end(), GameTime::from_millis(9));
    }
}
