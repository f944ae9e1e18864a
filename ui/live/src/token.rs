//! The secret in a table's link. 128 random bits, written as 26 lower-case base-32 letters and
//! digits: short enough for a QR code a phone reads across a table, too long to guess.

use std::fmt;

/// A link's token.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

/// The letters a token is written with (no 0/o or 1/l to misread when typed by hand).
const ALPHABET: &[u8; 32] = b"abcdefghijkmnpqrstuvwxyz23456789";

/// What a token may not be.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("a token is 8 to 64 lower-case letters, digits, '-' or '_', not {0:?}")]
pub struct BadToken(String);

impl Token {
    /// A new random token.
    pub fn random() -> Token {
        let mut bytes = [0u8; 26];
        if getrandom::fill(&mut bytes).is_err() {
            // No entropy source (never seen on Linux): the clock still keeps a token unguessable
            // enough to tell two tables apart, and the log says so.
            tracing::warn!("no random numbers from the system: the table's link is weaker");
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0);
            for (i, b) in bytes.iter_mut().enumerate() {
                *b = (nanos >> ((i % 16) * 8)) as u8 ^ (i as u8).wrapping_mul(151);
            }
        }
        Token(
            bytes
                .iter()
                .map(|b| char::from(ALPHABET[usize::from(b % 32)]))
                .collect(),
        )
    }

    /// A token given by the user (`--token`), checked.
    pub fn parse(text: &str) -> Result<Token, BadToken> {
        let allowed =
            |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_';
        let fits = (8..=64).contains(&text.len()) && text.bytes().all(allowed);
        if fits {
            Ok(Token(text.to_owned()))
        } else {
            Err(BadToken(text.chars().take(80).collect()))
        }
    }

    /// Whether `given` is this token, in time that does not depend on where they differ.
    pub fn matches(&self, given: &str) -> bool {
        let (a, b) = (self.0.as_bytes(), given.as_bytes());
        let differ = a
            .iter()
            .zip(b)
            .fold(a.len() ^ b.len(), |acc, (x, y)| acc | usize::from(x ^ y));
        differ == 0
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Token {
    /// Never printed whole in logs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Token({}…)", self.0.get(..3).unwrap_or(""))
    }
}

impl std::str::FromStr for Token {
    type Err = BadToken;
    fn from_str(text: &str) -> Result<Token, BadToken> {
        Token::parse(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_tokens_differ_and_parse_back() {
        let (a, b) = (Token::random(), Token::random());
        assert_ne!(a, b);
        assert_eq!(a.to_string().len(), 26);
        assert_eq!(Token::parse(&a.to_string()), Ok(a.clone()));
        assert!(a.matches(&a.to_string()));
        assert!(!a.matches(&b.to_string()));
        assert!(!a.matches(""));
        assert!(!a.matches(&format!("{a}x")));
    }

    #[test]
    fn a_token_with_other_letters_or_too_short_is_refused() {
        for bad in [
            "short",
            "has space in it",
            "UPPERCASE1",
            "../../etc/passwd",
            "tablé-0001",
        ] {
            assert!(Token::parse(bad).is_err(), "{bad}");
        }
        assert!(Token::parse("convention-2026_table-7").is_ok());
    }
}
