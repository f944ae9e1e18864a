//! TOML allows `nan` and `inf` as numbers; no length, angle or measurement of a table is one.
//! Every TOML file Vedette reads is searched for them before it is used.

use std::ops::Range;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// The first number of the text that is `nan` or `inf`, as its dotted field (`camera.pose.
/// rotation[0]`) and its place in the text; `None` when every number is finite (or the text is
/// not TOML, which the caller's parser reports).
pub fn first_not_finite(text: &str) -> Option<(String, Range<usize>)> {
    first_number_where(text, &|n| !n.is_finite())
}

/// The first number of the text for which `wrong` holds, as [`first_not_finite`] gives it.
pub fn first_number_where(
    text: &str,
    wrong: &dyn Fn(f64) -> bool,
) -> Option<(String, Range<usize>)> {
    let table = DeTable::parse(text).ok()?;
    table
        .get_ref()
        .iter()
        .find_map(|(key, value)| number_in(value, key.get_ref().to_string(), wrong))
}

fn number_in(
    value: &Spanned<DeValue>,
    field: String,
    wrong: &dyn Fn(f64) -> bool,
) -> Option<(String, Range<usize>)> {
    let number = match value.get_ref() {
        DeValue::Float(number) => number.as_str().parse::<f64>().ok(),
        DeValue::Integer(number) => number.as_str().replace('_', "").parse::<f64>().ok(),
        DeValue::Array(items) => {
            return items
                .iter()
                .enumerate()
                .find_map(|(i, item)| number_in(item, format!("{field}[{i}]"), wrong));
        }
        DeValue::Table(table) => {
            return table.iter().find_map(|(key, item)| {
                number_in(item, format!("{field}.{}", key.get_ref()), wrong)
            });
        }
        _ => None,
    };
    number.filter(|n| wrong(*n)).map(|_| (field, value.span()))
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

    #[test]
    fn negative_numbers_are_found_integers_included() {
        let (field, _) =
            super::first_number_where("[a]\nb = [1, -2]\n", &|n| n < 0.0).expect("found");
        assert_eq!(field, "a.b[1]");
        assert_eq!(
            super::first_number_where("a = 0\nb = 2.5\n", &|n| n < 0.0),
            None
        );
    }
}
