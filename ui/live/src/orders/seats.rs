//! Who may do what at a remote table: one token per side, one for the umpire. A side's token
//! orders only that side's units; the umpire's orders any unit; either points.

use std::collections::BTreeMap;

use crate::Token;

/// A seat at the table, as a token gives it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
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

    /// As the record and the desk name it: "the british seat", "the umpire's seat".
    pub fn words(&self) -> String {
        match self {
            Seat::Side(side) => format!("the {side} seat"),
            Seat::Umpire => "the umpire's seat".into(),
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
    fn each_seat_has_its_own_token_the_given_one_or_a_new_one() {
        let given = BTreeMap::from([("red".to_owned(), Token::parse("red-secret-1").expect("ok"))]);
        let seats = Seats::new(&["red".into(), "blue".into()], &given, None);
        let tokens: BTreeMap<&str, String> =
            seats.sides().map(|(s, t)| (s, t.to_string())).collect();
        assert_eq!(tokens["red"], "red-secret-1");
        assert_ne!(tokens["blue"], tokens["red"]);
        assert_ne!(seats.umpire().to_string(), tokens["blue"]);
        assert!(Seat::Side("red".into()).may_order("red"));
        assert!(!Seat::Side("red".into()).may_order("blue"));
        assert!(Seat::Umpire.may_order("blue"));
    }
}
