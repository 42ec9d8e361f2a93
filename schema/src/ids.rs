//! The id grammar in code (the same as [`crate::common::ID_PATTERN`]): checking an id and making
//! one from a name, for the editor and any tool that creates ids.

/// The longest id (the schema's `length(max = 64)`).
pub const MAX_ID_LEN: usize = 64;

/// Whether `text` is a valid id: lower-case ASCII letters and digits, then also `-`, `_`, `.`;
/// at most [`MAX_ID_LEN`] characters.
///
/// ```
/// use bataille_schema::ids::is_id;
/// assert!(is_id("navarre-1"));
/// assert!(!is_id("Navarre"));
/// assert!(!is_id("-x"));
/// ```
pub fn is_id(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "_.-".contains(c))
        && text.len() <= MAX_ID_LEN
}

/// An id made from a name: lower case, accents dropped, anything else a single `-`
/// ("Fechenbach 1/" → `fechenbach-1`, "Régiment de Navarre" → `regiment-de-navarre`). Empty when
/// the name has no letter or digit.
///
/// ```
/// use bataille_schema::ids::{id_from_name, is_id};
/// assert_eq!(id_from_name("Fechenbach 2/"), "fechenbach-2");
/// assert_eq!(id_from_name("Régiment de Navarre"), "regiment-de-navarre");
/// assert!(is_id(&id_from_name("  Dragons (Orléans) ")));
/// ```
pub fn id_from_name(name: &str) -> String {
    let mut id = String::new();
    for c in name.trim().chars() {
        let c = fold_accent(c).to_ascii_lowercase();
        if c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '_' | '.') {
            id.push(c);
        } else if !id.ends_with('-') {
            id.push('-');
        }
    }
    let id = id.trim_matches(['-', '_', '.']);
    let mut id: String = id.chars().take(MAX_ID_LEN).collect();
    while id.ends_with(['-', '_', '.']) {
        id.pop();
    }
    id
}

/// The letter under a Latin accent (é → e); other characters unchanged.
fn fold_accent(c: char) -> char {
    match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'À' | 'Á' | 'Â' | 'Ã' | 'Ä' | 'Å' => 'a',
        'ç' | 'Ç' => 'c',
        'è' | 'é' | 'ê' | 'ë' | 'È' | 'É' | 'Ê' | 'Ë' => 'e',
        'ì' | 'í' | 'î' | 'ï' | 'Ì' | 'Í' | 'Î' | 'Ï' => 'i',
        'ñ' | 'Ñ' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'Ò' | 'Ó' | 'Ô' | 'Õ' | 'Ö' => 'o',
        'ù' | 'ú' | 'û' | 'ü' | 'Ù' | 'Ú' | 'Û' | 'Ü' => 'u',
        'ý' | 'ÿ' | 'Ý' => 'y',
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_made_from_names_are_ids() {
        for name in [
            "Unit 1",
            "Fechenbach 1/",
            "Maréchal de Villars",
            "---",
            "Ünïcode ☃ x",
        ] {
            let id = id_from_name(name);
            assert!(id.is_empty() || is_id(&id), "{name} → {id}");
        }
        assert_eq!(id_from_name("---"), "");
        let long = "x".repeat(200);
        assert_eq!(id_from_name(&long).len(), MAX_ID_LEN);
    }
}
