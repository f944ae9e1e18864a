//! Building the sentences of rulings cheaply.
//!
//! A 200-unit table produces thousands of sentences per ruling pass. `format!` guesses its
//! buffer and grows it as it goes; joining known pieces into a buffer of the exact size costs
//! one allocation and a copy per piece. Only plain text pieces go through here: numbers keep
//! their `Display` formatting.

/// The pieces, joined.
pub fn concat(pieces: &[&str]) -> String {
    let mut out = String::with_capacity(pieces.iter().map(|p| p.len()).sum());
    for piece in pieces {
        out.push_str(piece);
    }
    out
}

/// "45th Foot's", "2e Hussards'".
pub fn possessive(name: &str) -> String {
    if name.ends_with('s') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

/// "A", "A and B", "A, B and C".
pub fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The phrase with its first letter a capital, to open a sentence.
pub fn capitalised(phrase: &str) -> String {
    let mut letters = phrase.chars();
    match letters.next() {
        Some(first) => first.to_uppercase().chain(letters).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concat_joins_like_format() {
        let (a, b) = ("45th Foot", "2e Hussards");
        assert_eq!(
            concat(&[a, " cannot shoot at ", b, ": ", "too far", "."]),
            format!("{a} cannot shoot at {b}: too far.")
        );
        assert_eq!(concat(&[]), "");
    }

    #[test]
    fn and_list_reads_as_english() {
        let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(and_list(&names(&[])), "");
        assert_eq!(and_list(&names(&["52nd"])), "52nd");
        assert_eq!(and_list(&names(&["52nd", "95th"])), "52nd and 95th");
        assert_eq!(
            and_list(&names(&["52nd", "95th", "43rd"])),
            "52nd, 95th and 43rd"
        );
    }
}
