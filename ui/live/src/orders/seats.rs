//! Who may do what at a remote table: one token per side, one for the umpire. A side's token
//! orders only that side's units; the umpire's orders any unit; either points.

use std::collections::BTreeMap;

use crate::Token;

/// A seat at the table, as a token gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A side's player: orders its units only.
    Side(String),
    /// The umpire: orders any unit.
    Umpire,
}

impl Seat {
    /// Whether this seat may order a unit of `side`.
    pub fn may_order(&self, side: &str) -> bool {
        match self {
            Seat::Side(own) => own == side,
            Seat::Umpire => true,
        }
    }

    /// Its side, if it is a side's.
    pub fn side(&self) -> Option<&str> {
        match self {
            Seat::Side(side) => Some(side),
            Seat::Umpire => None,
        }
    }
}

/// The tokens of a table's seats.
#[derive(Clone, Debug)]
pub struct Seats {
    sides: BTreeMap<String, Token>,
    umpire: Token,
}

impl Seats {
    /// A seat for each of `sides` and the umpire: the tokens `given` (by side), the umpire's
    /// `umpire`, and a new random one for every seat not given one.
    pub fn new(sides: &[String], given: &BTreeMap<String, Token>, umpire: Option<Token>) -> Seats {
        let sides = sides
            .iter()
            .map(|side| {
                let token = given.get(side).cloned().unwrap_or_else(Token::random);
                (side.clone(), token)
            })
            .collect();
        Seats {
            sides,
            umpire: umpire.unwrap_or_else(Token::random),
        }
    }

    /// The seat `token` gives, if any (compared in constant time, every token tried).
    pub fn seat(&self, token: &str) -> Option<Seat> {
        let mut found = None;
        for (side, own) in &self.sides {
            if own.matches(token) {
                found = Some(Seat::Side(side.clone()));
            }
        }
        if self.umpire.matches(token) {
            found = Some(Seat::Umpire);
        }
        found
    }

    /// Each side and its token, in the sides' order.
    pub fn sides(&self) -> impl Iterator<Item = (&str, &Token)> {
        self.sides
            .iter()
            .map(|(side, token)| (side.as_str(), token))
    }

    /// The umpire's token.
    pub fn umpire(&self) -> &Token {
        &self.umpire
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_token_gives_its_own_seat_and_no_other() {
        let given = BTreeMap::from([("red".to_owned(), Token::parse("red-secret-1").expect("ok"))]);
        let seats = Seats::new(&["red".into(), "blue".into()], &given, None);
        assert_eq!(seats.seat("red-secret-1"), Some(Seat::Side("red".into())));
        let (_, blue) = seats.sides().find(|(s, _)| *s == "blue").expect("blue");
        assert_eq!(
            seats.seat(&blue.to_string()),
            Some(Seat::Side("blue".into()))
        );
        assert_eq!(seats.seat(&seats.umpire().to_string()), Some(Seat::Umpire));
        assert_eq!(seats.seat("red-secret-2"), None);
        assert_eq!(seats.seat(""), None);
        assert!(Seat::Side("red".into()).may_order("red"));
        assert!(!Seat::Side("red".into()).may_order("blue"));
        assert!(Seat::Umpire.may_order("blue"));
    }
}
