//! No cascades (issue 19) whatever the bound: a value the JSON Schema refuses (a hex name, a
//! hexside, an id of the wrong shape) is told once by its E0105 and neither reported nor
//! counted by a check that reads it, so the report's summaries, totals and exit code are true.
//! On the real `bataille` binary, each run under a time limit (`support/club.rs`).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

#[path = "support/club.rs"]
mod club;
mod support;

use club::{Club, MAP, SCENARIO};

/// Every quoted value after `prefix` (`placement: Hex("`) in a text replaced by `new` of it.
fn every_value(text: &str, prefix: &str, new: impl Fn(&str) -> String) -> (String, usize) {
    let mut parts = text.split(prefix);
    let mut out = parts.next().unwrap_or_default().to_owned();
    let mut count = 0;
    for part in parts {
        let (old, rest) = part.split_once('"').expect("a closing quote");
        out.push_str(&format!("{prefix}{}\"{rest}", new(old)));
        count += 1;
    }
    (out, count)
}

/// A value the schema refuses is not counted by a rule either, whatever the bound: 23
/// placements at `Hex("nope-x")` with `--max-per-code 10` said "13 E0503 in this file: 0
/// shown, 13 not shown" (the checks counted them beyond the bound before the drop at the
/// E0105's place removed the 10 kept), and 12 half-hexes named `n1`… "2 E0605". The checks
/// now leave alone a name the schema refuses (the same pattern): only the E0105s are told,
/// and the totals and exit code are theirs.
#[test]
fn a_refused_value_is_not_counted_by_a_rule_beyond_the_bound() {
    let club = Club::new();
    let (scenario, placements) = every_value(&club.read(SCENARIO), "placement: Hex(\"", |_| {
        "nope-x".into()
    });
    assert!(placements > 10, "{placements} placements");
    club.write(SCENARIO, scenario);
    let first = (1..=12)
        .map(|n| format!("\"{:02}20\"", 2 * n - 1))
        .collect::<Vec<_>>();
    let refused = (1..=12).map(|n| format!("\"n{n}\"")).collect::<Vec<_>>();
    club.edit(MAP, &first.join(", "), &refused.join(", "));

    let human = club.run(&["validate", "--max-per-code", "10", SCENARIO, MAP]);
    assert_eq!(human.code, 1, "{}", human.all());
    for code in ["E0503", "E0605"] {
        assert!(!human.all().contains(code), "{code}:\n{}", human.all());
    }
    let total = placements + 12;
    for line in [
        format!(
            "{placements} E0105 in this file: 10 shown, {} not shown",
            placements - 10
        ),
        "12 E0105 in this file: 10 shown, 2 not shown".to_owned(),
        format!("{total} errors, 0 warnings in 2 files"),
    ] {
        assert!(human.all().contains(&line), "{line}:\n{}", human.all());
    }

    let json = club.run(&[
        "validate",
        "--format",
        "json",
        "--max-per-code",
        "0",
        SCENARIO,
        MAP,
    ]);
    assert_eq!(json.code, 1, "{}", json.all());
    let diagnostics: Vec<serde_json::Value> = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(diagnostics.len(), total, "{diagnostics:?}");
    assert!(
        diagnostics.iter().all(|d| d["code"] == "E0105"),
        "{diagnostics:?}"
    );
}

/// The same for ids: a unit kind or corps named in capitals (`kind: "LINE"`) is refused by
/// the id's pattern (E0105) and was then an unknown name beyond the bound: "39 E0204 in this
/// file: 0 shown, 39 not shown", "2 E0202". Only the E0105s are told; what follows from an
/// unknown name is still not said.
#[test]
fn a_refused_id_is_not_counted_as_an_unknown_name_beyond_the_bound() {
    let club = Club::new();
    let (scenario, kinds) = every_value(&club.read(SCENARIO), "kind: \"", str::to_uppercase);
    let (scenario, corps) = every_value(&scenario, "corps: \"", |c| format!("Corps {c}"));
    assert!(kinds > 10 && corps > 10, "{kinds} kinds, {corps} corps");
    club.write(SCENARIO, scenario);

    let human = club.run(&["validate", "--max-per-code", "10", SCENARIO]);
    assert_eq!(human.code, 1, "{}", human.all());
    for code in ["E0202", "E0204", "E0406", "E1002"] {
        assert!(!human.all().contains(code), "{code}:\n{}", human.all());
    }
    let json = club.run(&[
        "validate",
        "--format",
        "json",
        "--max-per-code",
        "0",
        SCENARIO,
    ]);
    let diagnostics: Vec<serde_json::Value> = serde_json::from_str(&json.stdout).unwrap();
    assert!(
        diagnostics.iter().all(|d| d["code"] == "E0105"),
        "{diagnostics:?}"
    );
    let total = format!("{} errors, 0 warnings in 1 file", diagnostics.len());
    assert!(human.all().contains(&total), "{total}:\n{}", human.all());
}

/// A miniatures rating name the schema refuses (`"BAD X"`, not an id) is told by its E0105
/// and not again as a rating the system does not define: 18 units carrying it said "16 W1010
/// in this file: 0 shown, 16 not shown" and "18 errors, 17 warnings" with `--max-per-code 2`
/// (the W1010s counted beyond the bound, then dropped at the E0105s' places). The same for a
/// conversion rule's `set` and `per_cp` keys.
#[test]
fn a_refused_rating_name_is_not_counted_as_an_undefined_rating() {
    let club = Club::new();
    let text = club.read(SCENARIO);
    let mut units = 0;
    let text: String = text
        .split_inclusive('\n')
        .map(|line| {
            if units < 18 && line.contains("kind: \"infantry\"") && line.contains("placement:") {
                units += 1;
                line.replacen(
                    "placement:",
                    "ratings: {\"age-of-honor\": {\"BAD X\": Number(1)}}, placement:",
                    1,
                )
            } else {
                line.to_owned()
            }
        })
        .collect();
    assert_eq!(units, 18);
    club.write(SCENARIO, text);
    club.edit(
        SCENARIO,
        "set: {\"troop_type\": Text(\"guard-infantry\")}",
        "set: {\"troop_type\": Text(\"guard-infantry\"), \"BAD Y\": Number(1)}",
    );

    let human = club.run(&["validate", "--max-per-code", "2", SCENARIO]);
    assert_eq!(human.code, 1, "{}", human.all());
    for code in ["W1010", "E1005", "E1008"] {
        assert!(!human.all().contains(code), "{code}:\n{}", human.all());
    }
    assert!(
        human.all().contains("19 errors, 1 warning"),
        "{}",
        human.all()
    );
}

/// The same in a system file: a leader rating renamed to a name the schema refuses is told by
/// its E0105s, and its four named modifiers are not counted again as E1011 ("4 E1011 in this
/// file: 0 shown, 4 not shown" with `--max-per-code 1`).
#[test]
fn a_refused_name_in_a_system_is_not_counted_as_a_contradiction() {
    let club = Club::new();
    let system = club
        .read(club::SYSTEM)
        .replace("rating: \"reserve_modifier\"", "rating: \"BAD X\"");
    club.write(club::SYSTEM, system);
    let human = club.run(&["validate", "--max-per-code", "1", club::SYSTEM]);
    assert_eq!(human.code, 1, "{}", human.all());
    assert!(!human.all().contains("E1011"), "{}", human.all());
    assert!(human.all().contains("E0105"), "{}", human.all());
}
