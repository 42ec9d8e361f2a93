//! The checked-in JSON Schemas under `schema/` match the types; regenerate them with
//! `UPDATE_SCHEMAS=1 cargo test -p bataille-schema --test schemas` (or `bataille schema --out schema/`).

use std::path::Path;

use bataille_schema::DocumentKind;
use bataille_schema::json_schema::{file_stem, schema_text, schema_value};

#[test]
fn checked_in_schemas_match_the_types() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    for kind in [
        DocumentKind::Map,
        DocumentKind::Scenario,
        DocumentKind::Variant,
    ] {
        let path = dir.join(format!("{}.schema.json", file_stem(kind)));
        let expected = schema_text(kind);
        if std::env::var_os("UPDATE_SCHEMAS").is_some() {
            std::fs::write(&path, &expected).unwrap();
        }
        let found = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            found == expected,
            "{} drifted from the types: run `UPDATE_SCHEMAS=1 cargo test -p bataille-schema --test schemas`",
            path.display()
        );
    }
}

#[test]
fn checked_in_system_schema_matches_the_type() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("system.schema.json");
    let expected = bataille_schema::json_schema::system_schema_text();
    if std::env::var_os("UPDATE_SCHEMAS").is_some() {
        std::fs::write(&path, &expected).unwrap();
    }
    let found = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        found == expected,
        "{} drifted from the type: run `UPDATE_SCHEMAS=1 cargo test -p bataille-schema --test schemas`",
        path.display()
    );
}

#[test]
fn the_bundled_systems_load_and_fit_their_schema() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../systems");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "ron") {
            let system = bataille_schema::system::load_system(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(
                path.file_stem().and_then(|s| s.to_str()),
                Some(system.id.as_str()),
                "a system file is named after its id"
            );
            let violations = bataille_schema::json_schema::check_system(&system);
            assert!(violations.is_empty(), "{}: {violations:?}", path.display());
            seen += 1;
        }
    }
    assert!(seen >= 2, "age-of-honor and louis-xiv");
}

#[test]
fn schemas_are_draft_2020_12_with_value_constraints() {
    let scenario = schema_value(DocumentKind::Scenario);
    assert_eq!(
        scenario["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    let text = scenario.to_string();
    for needle in [
        r#""maximum":12"#,                  // CP
        r#""maximum":10"#,                  // morale
        r#"^[0-9]{2,3}[.\\-]?[0-9]{2,3}$"#, // hex names
        r#"^#[0-9a-fA-F]{6}$"#,             // colours
        r#""minLength":1"#,                 // non-empty ids
        r#""additionalProperties":false"#,
    ] {
        assert!(text.contains(needle), "scenario schema lacks {needle}");
    }
    let map = schema_value(DocumentKind::Map).to_string();
    assert!(map.contains("column_digits"));
}

#[test]
fn the_stress_battle_keeps_the_schemas_bounds_however_many_units_a_corps_has() {
    // `stress --size 999x999 --units 359000` gave each corps a 60-hex-wide block and its leader a
    // radius of 62 (the schema's bound is 50): the benchmarks' own file failed E0105.
    for units in [4, 3_600, 10_000] {
        let (_, scenario) = bataille_schema::stress::generate(
            bataille_schema::stress::StressSize {
                columns: 200,
                rows: 200,
                units,
                corps: 2,
            },
            "m.ron",
        );
        let value = serde_json::to_value(scenario).unwrap();
        let violations = bataille_schema::json_schema::check(DocumentKind::Scenario, &value);
        assert!(violations.is_empty(), "{units} units: {violations:?}");
    }
}

#[test]
fn the_schema_rejects_out_of_range_values() {
    use serde_json::json;
    let mut value = serde_json::to_value(
        bataille_schema::stress::generate(
            bataille_schema::stress::StressSize {
                columns: 10,
                rows: 10,
                units: 4,
                corps: 2,
            },
            "m.ron",
        )
        .1,
    )
    .unwrap();
    assert!(bataille_schema::json_schema::check(DocumentKind::Scenario, &value).is_empty());
    value["armies"][0]["units"][0]["cp"] = json!(40);
    value["armies"][0]["corps"][0]["colour"] = json!("blue");
    value["armies"][0]["units"][1]["id"] = json!("");
    let violations = bataille_schema::json_schema::check(DocumentKind::Scenario, &value);
    let pointers: Vec<&str> = violations.iter().map(|v| v.pointer.as_str()).collect();
    assert!(pointers.contains(&"/armies/0/units/0/cp"), "{violations:?}");
    assert!(
        pointers.contains(&"/armies/0/corps/0/colour"),
        "{violations:?}"
    );
    assert!(pointers.contains(&"/armies/0/units/1/id"), "{violations:?}");
    let cp = violations
        .iter()
        .find(|v| v.pointer.ends_with("/cp"))
        .unwrap();
    assert_eq!(cp.message, "40 is more than the maximum 12");
}
