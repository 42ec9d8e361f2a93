//! A variant in the ways to play it: what it changes from its base scenario, in words (the
//! print kit's "Variant" page says it before the set-up, which is the variant's own).

use bataille_schema::Scenario;
use bataille_schema::variant::Variant;

mod describe;
mod words;

pub use describe::describe;

/// What a kit says about the variant it prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantNote {
    /// The variant's name.
    pub name: String,
    /// The base scenario's title.
    pub base_title: String,
    pub notes: Option<String>,
    pub sources: Vec<String>,
    /// One sentence per change, in the variant's order (turns, units, leaders, added, removed,
    /// zones, victory, rules).
    pub changes: Vec<String>,
}

impl VariantNote {
    /// The note of a variant over its base.
    pub fn of(variant: &Variant, base: &Scenario) -> Self {
        Self {
            name: variant.name.clone(),
            base_title: base.title.clone(),
            notes: variant.notes.clone(),
            sources: variant.sources.clone(),
            changes: describe(variant, base),
        }
    }
}

/// A predefined setup of a VASSAL module: a variant of the module's scenario, offered in
/// VASSAL's File menu beside the module's own set-up (VASSAL's `PredefinedSetup`, whose file is
/// a saved game in the module).
#[derive(Debug, Clone, Copy)]
pub struct Setup<'a> {
    /// The menu entry (the variant's name).
    pub name: &'a str,
    /// The variant resolved over the module's scenario.
    pub scenario: &'a Scenario,
}

/// The key VASSAL's `ObfuscatingOutputStream` XORs a saved game with: fixed, so the module's
/// bytes are the same from one export to the next.
const KEY: u8 = 0x5a;

/// A saved game's text as VASSAL writes it (`ObfuscatingOutputStream`): `!VCSK`, the key as two
/// hex digits, then each byte XORed with the key as two hex digits.
pub(crate) fn obfuscate(text: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(7 + 2 * text.len());
    out.push_str("!VCSK");
    for b in std::iter::once(KEY).chain(text.bytes().map(|b| b ^ KEY)) {
        out.push(char::from(HEX[usize::from(b >> 4)]));
        out.push(char::from(HEX[usize::from(b & 0x0f)]));
    }
    out
}

/// The inverse of [`obfuscate`] (for tests, and to read a module's setups back).
pub fn deobfuscate(text: &str) -> Option<String> {
    let hex = text.strip_prefix("!VCSK")?;
    let bytes: Option<Vec<u8>> = (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok())
        .collect();
    let bytes = bytes?;
    let (key, rest) = bytes.split_first()?;
    String::from_utf8(rest.iter().map(|b| b ^ key).collect()).ok()
}

/// VASSAL's command separator in a saved game (`GameModule.COMMAND_SEPARATOR`: Escape).
pub(crate) const COMMAND_SEPARATOR: char = '\u{1b}';

/// A saved game (`.vsav`, a zip holding `savedGame`) whose commands start a game: VASSAL's
/// `begin_save`, the set-up stacks' "not a new game" mark (so the module's at-start stacks
/// are not placed over the setup's pieces), the pieces and stacks, `end_save`.
pub(crate) fn saved_game(commands: &[String]) -> Result<Vec<u8>, crate::ExportError> {
    use std::io::Write as _;
    let mut text = String::from("begin_save");
    text.push(COMMAND_SEPARATOR);
    text.push_str("SETUP_STACK\t");
    for command in commands {
        text.push(COMMAND_SEPARATOR);
        text.push_str(command);
    }
    text.push(COMMAND_SEPARATOR);
    text.push_str("end_save");
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::default());
    zip.start_file("savedGame", options)?;
    zip.write_all(obfuscate(&text).as_bytes())
        .map_err(|source| crate::ExportError::Io {
            path: "savedGame".to_owned(),
            source,
        })?;
    Ok(zip.finish()?.into_inner())
}

/// The file of the `n`th setup in the module (at the archive's root, as VASSAL's editor puts
/// them).
pub(crate) fn setup_file(n: usize) -> String {
    format!("setup-{}.vsav", n + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn obfuscation_is_vassals_and_reads_back() {
        // VASSAL's ObfuscatingOutputStream with key 0x5a: "A" (0x41) ^ 0x5a = 0x1b.
        assert_eq!(obfuscate("A"), "!VCSK5a1b");
        let text = "begin_save\u{1b}+/1/piece;;;a.png;Navarre/null;0;0;1;0\u{1b}end_save";
        assert_eq!(deobfuscate(&obfuscate(text)).as_deref(), Some(text));
        assert_eq!(deobfuscate("not a save"), None);
    }
}
