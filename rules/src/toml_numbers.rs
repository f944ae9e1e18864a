//! TOML allows `nan` and `inf` as numbers; no length, angle or measurement of a table is one.
//! Every TOML file Vedette reads is searched for them before it is used.

use std::ops::Range;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// The first number of the text that is `nan` or `inf`, as its dotted field (`camera.pose.
/// rotation[0]`) and its place in the text; `None` when every number is finite (or the text is
/// not TOML, which the caller's parser reports).
pub fn first_not_finite(text: &str) -> Option<(String, Range<usize>)> {
    let table = DeTable::parse(text).ok()?;
    table
        .get_ref()
        .iter()
        .find_map(|(key, value)| not_finite_in(value, key.get_ref().to_string()))
}

fn not_finite_in(value: &Spanned<DeValue>, field: String) -> Option<(String, Range<usize>)> {
    match value.get_ref() {
        DeValue::Float(number) => number
            .as_str()
            .parse::<f64>()
            .is_ok_and(|n| !n.is_finite())
            .then(|| (field, value.span())),
        DeValue::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, item)| not_finite_in(item, format!("{field}[{i}]"))),
        DeValue::Table(table) => table
            .iter()
            .find_map(|(key, item)| not_finite_in(item, format!("{field}.{}", key.get_ref()))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::first_not_finite;

    #[test]
    fn nan_and_inf_are_found_by_field_wherever_they_hide() {
        let text = "a = 1.5\n[camera.pose]\nrotation = [0.1, nan, 0.0]\n";
        let (field, span) = first_not_finite(text).expect("found");
        assert_eq!(field, "camera.pose.rotation[1]");
        assert_eq!(&text[span], "nan");
        let (field, _) = first_not_finite("[[anchors]]\nsize = -inf\n").expect("found");
        assert_eq!(field, "anchors[0].size");
        assert_eq!(
            first_not_finite("x = 1e308\ny = [1, 2.5]\nname = \"nan\"\n"),
            None
        );
    }
}
