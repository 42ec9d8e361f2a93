//! Bad files give errors naming file, line and column: a missing field, a wrong type, an
//! unknown enum value, a bad hex name, a newer format version, and worse input.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::path::{Path, PathBuf};

use bataille_schema::{LoadError, Location, json_schema, load_map, load_scenario};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// Copies the small scenario and its map into a temp dir, with `edit` applied to the scenario.
fn broken_scenario(edit: impl Fn(&str) -> String) -> (tempdir::Dir, PathBuf) {
    let dir = tempdir::Dir::new();
    std::fs::copy(fixture("small-map.ron"), dir.path().join("small-map.ron")).unwrap();
    let text = std::fs::read_to_string(fixture("small.ron")).unwrap();
    let path = dir.path().join("small.ron");
    std::fs::write(&path, edit(&text)).unwrap();
    (dir, path)
}

fn broken_map(edit: impl Fn(&str) -> String) -> (tempdir::Dir, PathBuf) {
    let dir = tempdir::Dir::new();
    let text = std::fs::read_to_string(fixture("small-map.ron")).unwrap();
    let path = dir.path().join("small-map.ron");
    std::fs::write(&path, edit(&text)).unwrap();
    (dir, path)
}

mod tempdir {
    use std::path::{Path, PathBuf};
    use std::sync::atomic::{AtomicUsize, Ordering};

    pub struct Dir(PathBuf);

    impl Dir {
        pub fn new() -> Self {
            static NEXT: AtomicUsize = AtomicUsize::new(0);
            let path = std::env::temp_dir().join(format!(
                "bataille-schema-test-{}-{}",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::Relaxed)
            ));
            std::fs::create_dir_all(&path).unwrap();
            Self(path)
        }
        pub fn path(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .expect("needle in text")
        + 1
}

fn assert_at(location: &Location, path: &Path, line: usize) {
    assert_eq!(location.path, path);
    assert_eq!(location.line, line, "{location}");
    assert!(location.column >= 1);
}

#[test]
fn the_fixtures_load() {
    let loaded = load_scenario(&fixture("small.ron")).unwrap();
    assert_eq!(loaded.scenario.armies[0].units[0].id.as_str(), "navarre");
    assert_eq!(
        loaded.map.map.grid.columns, 6,
        "loading a scenario loads its map"
    );
    assert!(json_schema::check_scenario(&loaded.scenario).is_empty());
    assert!(json_schema::check_map(&loaded.map.map).is_empty());
}

#[test]
fn a_missing_field_names_file_line_and_column() {
    let (_dir, path) = broken_scenario(|t| t.replace("    turns: 10,\n", ""));
    let error = load_scenario(&path).unwrap_err();
    let LoadError::Syntax { location, message } = &error else {
        panic!("{error}")
    };
    assert!(message.contains("turns"), "{message}");
    assert_eq!(location.path, path);
    assert!(location.line >= 1 && location.column >= 1);
    assert!(
        error
            .to_string()
            .starts_with(&format!("{}:", path.display()))
    );
}

#[test]
fn a_wrong_type_names_its_line() {
    let (_dir, path) = broken_scenario(|t| t.replace("turns: 10,", "turns: \"ten\","));
    let error = load_scenario(&path).unwrap_err();
    let text = std::fs::read_to_string(&path).unwrap();
    assert_at(error.location().unwrap(), &path, line_of(&text, "turns:"));
    assert!(
        error.to_string().contains("ten") || error.to_string().contains("integer"),
        "{error}"
    );
}

#[test]
fn an_unknown_enum_value_names_its_line_and_column() {
    let (_dir, path) = broken_map(|t| t.replace("orientation: Flat", "orientation: Diagonal"));
    let error = load_map(&path).unwrap_err();
    let text = std::fs::read_to_string(&path).unwrap();
    let location = error.location().unwrap();
    assert_at(location, &path, line_of(&text, "Diagonal"));
    let column = text
        .lines()
        .nth(location.line - 1)
        .unwrap()
        .find("Diagonal")
        .unwrap()
        + 1;
    assert_eq!(location.column, column, "{error}");
    assert!(error.to_string().contains("Diagonal"), "{error}");
}

#[test]
fn a_bad_hex_name_is_located_by_the_schema_check() {
    let (_dir, path) = broken_scenario(|t| t.replace("Hex(\"0203\")", "Hex(\"02x3\")"));
    let loaded = load_scenario(&path).unwrap();
    let violations = json_schema::check_scenario(&loaded.scenario);
    assert_eq!(violations.len(), 1, "{violations:?}");
    assert_eq!(violations[0].pointer, "/armies/0/units/0/placement/Hex");
    let located = json_schema::locate(&loaded.source, &violations);
    let (location, message) = &located[0];
    let text = std::fs::read_to_string(&path).unwrap();
    assert_at(location, &path, line_of(&text, "02x3"));
    let column = text
        .lines()
        .nth(location.line - 1)
        .unwrap()
        .find("\"02x3\"")
        .unwrap()
        + 1;
    assert_eq!(location.column, column);
    assert!(message.contains("02x3"), "{message}");
    // And the grid says what a name should look like.
    let error = loaded.map.map.grid.parse("02x3").unwrap_err();
    assert!(error.to_string().contains("CCRR"), "{error}");
}

#[test]
fn a_newer_format_version_is_refused_with_its_line() {
    let (_dir, path) = broken_scenario(|t| t.replace("format_version: 1,", "format_version: 2,"));
    let error = load_scenario(&path).unwrap_err();
    assert!(
        matches!(error, LoadError::NewerVersion { found: 2, .. }),
        "{error}"
    );
    assert_at(error.location().unwrap(), &path, 2);
    assert_eq!(
        error.location().unwrap().column,
        "    format_version: ".len() + 1
    );
    assert!(error.to_string().contains("newer"), "{error}");
    // A newer file with fields this build does not know is still reported as newer.
    let (_dir, path) = broken_scenario(|t| {
        t.replace(
            "format_version: 1,",
            "format_version: 3,\n    weather: Rain,",
        )
    });
    let error = load_scenario(&path).unwrap_err();
    assert!(
        matches!(error, LoadError::NewerVersion { found: 3, .. }),
        "{error}"
    );
}

#[test]
fn a_broken_map_is_reported_at_the_scenario_map_line() {
    let (dir, path) = broken_scenario(|t| t.to_owned());
    std::fs::write(
        dir.path().join("small-map.ron"),
        "Map(format_version: 1, name: ",
    )
    .unwrap();
    let error = load_scenario(&path).unwrap_err();
    let LoadError::Map {
        location, source, ..
    } = &error
    else {
        panic!("{error}")
    };
    let text = std::fs::read_to_string(&path).unwrap();
    assert_at(location, &path, line_of(&text, "map: \"small-map.ron\""));
    assert!(matches!(**source, LoadError::Syntax { .. }));
}

#[test]
fn hostile_input_gives_located_errors_not_panics() {
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "truncated",
            b"Scenario(\n    format_version: 1,\n    title: \"T".to_vec(),
        ),
        ("binary", vec![0x00, 0xff, 0x13, 0x37, 0x80, 0x90]),
        ("deep", {
            let mut text = b"Map(format_version: 1, name: ".to_vec();
            text.extend(std::iter::repeat_n(b'[', 100_000));
            text
        }),
        (
            "huge number",
            b"Map(format_version: 99999999999999999999999999, name: \"x\")".to_vec(),
        ),
        ("not utf-8", b"Map(name: \"caf\xe9\")".to_vec()),
        ("neither", b"(format_version: 1)".to_vec()),
        ("empty", Vec::new()),
    ];
    for (what, bytes) in cases {
        let dir = tempdir::Dir::new();
        let path = dir.path().join("bad.ron");
        std::fs::write(&path, &bytes).unwrap();
        let error = load_map(&path).unwrap_err();
        let location = error
            .location()
            .unwrap_or_else(|| panic!("{what}: {error}"));
        assert_eq!(location.path, path, "{what}");
        assert!(location.line >= 1, "{what}");
        if what == "not utf-8" {
            assert!(matches!(error, LoadError::NotUtf8 { .. }));
            assert_eq!((location.line, location.column), (1, 15), "{what}: {error}");
        }
        if what == "deep" {
            // The span index walks any value; it must stop at the depth limit, not overflow.
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let index = bataille_schema::SpanIndex::build(&text);
            assert!(!index.is_empty());
        }
    }
}
