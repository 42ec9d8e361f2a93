//! Variants beside their base: a run opens and validates the base once, not once per variant
//! (issue 19: 1,000 variants took 47 s in `validate`), and a base edited between two runs of
//! the same options is opened again.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::fs;
use std::path::PathBuf;

use bataille_validator::{Options, validate_file};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn a_run_opens_each_base_once_and_an_edited_base_again() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join(".git")).unwrap();
    for name in [
        "scenarios/denain-1712.ron",
        "scenarios/denain-1712-tingry-tard.ron",
        "maps/denain-1712.ron",
        "systems/age-of-honor.ron",
        "systems/louis-xiv.ron",
    ] {
        let to = dir.path().join(name);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(root().join(name), to).unwrap();
    }
    let variant =
        fs::read_to_string(dir.path().join("scenarios/denain-1712-tingry-tard.ron")).unwrap();
    let variants: Vec<PathBuf> = (0..3)
        .map(|i| {
            let path = dir.path().join(format!("scenarios/v{i}.ron"));
            fs::write(
                &path,
                variant.replacen("Tingry sort trop tard", &format!("Tingry {i}"), 1),
            )
            .unwrap();
            path
        })
        .collect();
    let options = Options::default();
    let codes = |path: &PathBuf| -> Vec<String> {
        validate_file(path, &options)
            .diagnostics
            .iter()
            .map(|d| format!("{} {}", d.code.as_str(), d.message))
            .collect()
    };
    let first: Vec<_> = variants.iter().map(codes).collect();
    assert!(first.iter().all(|c| c == &first[0]), "{first:?}");
    assert_eq!(format!("{:?}", options.bases), "Bases(1 opened)");
    // The base edited (3 turns: the variant's reinforcements on turn 4 come too late): the
    // same options open it again.
    let base = dir.path().join("scenarios/denain-1712.ron");
    let text = fs::read_to_string(&base).unwrap();
    let edited = regex_free_turns(&text, 3);
    fs::write(&base, edited).unwrap();
    let after = codes(&variants[0]);
    assert!(
        after.iter().any(|c| c.starts_with("E0508")),
        "the edited base was not opened again: {after:?}"
    );
    assert!(!first[0].iter().any(|c| c.starts_with("E0508")));
    assert_eq!(format!("{:?}", options.bases), "Bases(1 opened)");
}

/// The scenario's `turns: N,` line set to `turns`.
fn regex_free_turns(text: &str, turns: u32) -> String {
    let start = text.find("\n    turns: ").unwrap() + 1;
    let end = start + text[start..].find('\n').unwrap();
    format!("{}    turns: {turns},{}", &text[..start], &text[end..])
}
