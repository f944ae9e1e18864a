//! What a turn's report says happened besides the moves: the contacts, the enemies that came
//! within charge reach or range, the umpire's cases and the players' notes — the moments a
//! club argues about afterwards. Reaches and ranges are many on a crowded table (every unit of
//! a line sees every enemy of the other): a few are listed, the rest counted.

use record::{Mark, MarkKind};

/// How many "in range" marks a turn lists before it counts the rest.
pub const IN_RANGE_SHOWN: usize = 8;
/// How many "within charge reach" marks a turn lists before it counts the rest.
pub const CHARGE_REACH_SHOWN: usize = 8;

/// One thing worth telling of a turn.
#[derive(Clone, Debug, PartialEq)]
pub struct Notable {
    /// What kind of moment it was.
    pub kind: MarkKind,
    /// When, as the report writes it (`0:12:04`).
    pub at: String,
    /// In words.
    pub text: String,
    /// For a case: what the rules said, each in words.
    pub rulings: Vec<String>,
}

impl Notable {
    /// The mark's symbol (⚔ a contact, ➹ a charge reach, ◎ in range, ⚖ a case, ✎ a note).
    pub fn symbol(&self) -> &'static str {
        self.kind.symbol()
    }

    /// Its kind's name as records write it, for styling.
    pub fn class(&self) -> &'static str {
        self.kind.as_str()
    }
}

/// The notable moments of a turn, in order, with reaches and ranges past their caps counted
/// rather than listed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Notables {
    /// Those listed.
    pub listed: Vec<Notable>,
    /// How many "in range" marks were left out.
    pub more_in_range: usize,
    /// How many "within charge reach" marks were left out.
    pub more_in_reach: usize,
}

impl Notables {
    /// The turn's marks (in order), `name` giving a unit's name from its id.
    pub fn of<'a>(
        marks: impl IntoIterator<Item = &'a Mark>,
        name: impl Fn(&str) -> String,
    ) -> Notables {
        let mut notables = Notables::default();
        let (mut in_range, mut in_reach) = (0, 0);
        for mark in marks {
            let (text, rulings) = match (mark.kind, &mark.case) {
                (MarkKind::Turn, _) => continue,
                (MarkKind::InRange, _) => {
                    in_range += 1;
                    if in_range > IN_RANGE_SHOWN {
                        notables.more_in_range += 1;
                        continue;
                    }
                    (mark.label.clone(), Vec::new())
                }
                (MarkKind::ChargeReach, _) => {
                    in_reach += 1;
                    if in_reach > CHARGE_REACH_SHOWN {
                        notables.more_in_reach += 1;
                        continue;
                    }
                    (mark.label.clone(), Vec::new())
                }
                (MarkKind::Case, Some(case)) => {
                    let [a, b] = &case.units;
                    let between = format!("Case between {} and {}", name(a), name(b));
                    let text = match case.note.trim() {
                        "" => between,
                        note => format!("{between}: “{note}”"),
                    };
                    (text, case.rulings.clone())
                }
                _ => (mark.label.clone(), Vec::new()),
            };
            notables.listed.push(Notable {
                kind: mark.kind,
                at: super::turns::clock(mark.at),
                text,
                rulings,
            });
        }
        notables
    }

    /// Whether there is nothing to tell.
    pub fn is_empty(&self) -> bool {
        self.listed.is_empty() && self.more_in_range == 0 && self.more_in_reach == 0
    }

    /// The lines that count what was left out.
    pub fn more_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        match self.more_in_reach {
            0 => {}
            1 => lines.push("and 1 more enemy within charge reach".to_owned()),
            n => lines.push(format!("and {n} more enemies within charge reach")),
        }
        match self.more_in_range {
            0 => {}
            1 => lines.push("and 1 more enemy in range".to_owned()),
            n => lines.push(format!("and {n} more enemies in range")),
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use record::GameTime;

    fn mark(kind: MarkKind, label: &str) -> Mark {
        Mark {
            at: GameTime::from_millis(61_000),
            kind,
            label: label.into(),
            units: Vec::new(),
            case: None,
        }
    }

    #[test]
    fn ranges_past_the_cap_are_counted_and_turns_are_not_told() {
        let mut marks = vec![mark(MarkKind::Turn, "Turn 2")];
        marks.extend((0..11).map(|k| mark(MarkKind::InRange, &format!("range {k}"))));
        marks.push(mark(MarkKind::Contact, "A in contact with B"));
        let notables = Notables::of(&marks, str::to_owned);
        assert_eq!(notables.listed.len(), IN_RANGE_SHOWN + 1);
        assert_eq!(notables.more_in_range, 3);
        assert_eq!(notables.more_lines(), vec!["and 3 more enemies in range"]);
        assert_eq!(notables.listed[0].at, "0:01:01");
        assert_eq!(
            notables.listed.last().map(|n| n.kind),
            Some(MarkKind::Contact)
        );
    }
}
