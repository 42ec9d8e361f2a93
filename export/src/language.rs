//! The kit's languages, shared by its own words (`print::words`) and a variant's change
//! sentences (`variants::words`): which table a scenario's language tag picks, and how a
//! phrase's `{name}` slots are filled.

/// Whether a language tag (`"fr"`, `"fr-FR"`, `"fr_BE"`) asks for French; English otherwise.
pub(crate) fn is_french(language: Option<&str>) -> bool {
    language
        .and_then(|tag| tag.split(['-', '_']).next())
        .is_some_and(|primary| primary.eq_ignore_ascii_case("fr"))
}

/// `template` with each `{name}` replaced by its value.
pub(crate) fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_owned();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}
