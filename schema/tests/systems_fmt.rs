//! The canonical form of a miniatures system (`bataille fmt` on `systems/*.ron`): the bundled
//! systems are canonical, formatting is a fixed point that reads back to the same value, and a
//! system written in another order or with `Some(…)` spelt out comes back to the same bytes.

use bataille_schema::SourceFile;
use bataille_schema::io::{parse_system, system_to_string};

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn bundled() -> Vec<(String, String)> {
    ["age-of-honor", "louis-xiv"]
        .into_iter()
        .map(|id| {
            let path = root().join(format!("systems/{id}.ron"));
            // An unreadable file reads as empty, which no test below accepts.
            (
                id.to_owned(),
                std::fs::read_to_string(path).unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn the_bundled_systems_are_canonical_and_read_back_the_same() {
    for (id, text) in bundled() {
        let system = parse_system(&SourceFile::new(format!("{id}.ron"), text.clone())).unwrap();
        let written = system_to_string(&system).unwrap();
        assert_eq!(
            written, text,
            "systems/{id}.ron is not in its canonical form"
        );
        let back = parse_system(&SourceFile::new("back.ron", written.clone())).unwrap();
        assert_eq!(
            back, system,
            "{id}: the canonical text reads back differently"
        );
        assert_eq!(
            system_to_string(&back).unwrap(),
            written,
            "{id}: not a fixed point"
        );
    }
}

#[test]
fn a_system_laid_out_by_hand_comes_back_to_the_canonical_bytes() {
    let (_, canonical) = bundled().remove(1);
    // Table lines reversed inside every `{ … }` block one line per entry, `Some(…)` spelt out,
    // everything on wider indentation: what a person editing by hand might leave.
    let mut lines: Vec<String> = canonical.lines().map(str::to_owned).collect();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].ends_with('{') {
            let start = i + 1;
            let mut end = start;
            while end < lines.len()
                && lines[end].trim_end().ends_with("),")
                && !lines[end].trim_end().ends_with("(")
            {
                end += 1;
            }
            lines[start..end].reverse();
            i = end;
        }
        i += 1;
    }
    let scrambled = lines
        .iter()
        .map(|l| {
            format!(
                "  {}",
                l.replace("bases_per_unit: 5", "bases_per_unit: Some(5)")
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert_ne!(scrambled, canonical);
    let system = parse_system(&SourceFile::new("s.ron", scrambled)).unwrap();
    assert_eq!(system_to_string(&system).unwrap(), canonical);
}

#[test]
fn lists_keep_their_order_and_artillery_ranges_stay_on_one_line() {
    let (_, text) = bundled().remove(0);
    let mut system = parse_system(&SourceFile::new("s.ron", text)).unwrap();
    system.named_modifiers.reverse();
    let written = system_to_string(&system).unwrap();
    let back = parse_system(&SourceFile::new("s.ron", written.clone())).unwrap();
    assert_eq!(back.named_modifiers, system.named_modifiers);
    assert!(
        written.contains("artillery_ranges: [2.0, 4.0, 8.0, 12.0, 18.0],"),
        "{written}"
    );
}
