//! Small files that make very many diagnostics, for the benchmarks and tests of the report's
//! bound (issue 19: a report held every diagnostic until it was written, so 500,000 unknown
//! codes in one `allow` list, a 23 MB file, made a report of 1.31 GB). Each is a scenario on
//! the small test map (`tests/fixtures/maps/small.ron`), named `map_file`.
//!
//! `cargo run --example flood -- --allow-codes 500000 --out DIR` writes them.

use std::fmt::Write;

/// The scenario's head, up to its one army's `units: [`.
fn head(map_file: &str, unit_allow: &str) -> String {
    format!(
        r##"Scenario(
    format_version: 1,
    title: "Many diagnostics",
    map: "{map_file}",
    date: "1745-05-11",
    turns: 10,
    turn_minutes: 60,
    start_time: "05:00",
    rules: (
        system: "vae-victis",
        unit_kinds: {{"infantry": (name: "Infantry", symbol: Infantry, combat: true, front_hexsides: 2, flank_hexsides: 2)}},
        stacking: (compositions: [(name: "one unit", terms: [(kinds: ["infantry"], max_counters: 1)])]),
        command: (commander_radius_hexes: 5, leader_radius_hexes: 4),
    ),
    armies: [
        (
            id: "french",
            name: "French",
            commanders: [(id: "saxe", name: "Saxe", commands: ["centre"], placement: Hex("0303"))],
            corps: [(id: "centre", name: "Centre", colour: "#cc0000", leader: (id: "noailles", name: "Noailles", activation: 3, placement: Hex("0304")))],
            units: [
                (id: "flood", name: "Flood", kind: "infantry", corps: "centre", cp: 1, placement: Hex("0505"), allow: [{unit_allow}]),
"##
    )
}

const TAIL: &str = "            ],\n        ),\n    ],\n    victory: (),\n)\n";

/// Units whose `allow` lists name `codes` codes that do not exist, each `len` characters (at
/// least 2), as many to a list as a list holds
/// ([`MAX_ALLOW_CODES`](crate::common::MAX_ALLOW_CODES)): one W0107 each. 500,000 codes of 7
/// characters make a 5.9 MB file; of 42, 23 MB. [`one_allow_list`] puts them in one list,
/// which the loader refuses at its 129th entry.
pub fn allow_codes(map_file: &str, codes: usize, len: usize) -> String {
    let per_list = crate::common::MAX_ALLOW_CODES as usize;
    let list = |from: usize| list_of(from..codes.min(from + per_list), len);
    let mut text = head(map_file, &list(0));
    for (n, from) in (per_list..codes).step_by(per_list).enumerate() {
        let _ = writeln!(
            text,
            "                (id: \"flood-{n}\", name: \"Flood {n}\", kind: \"infantry\", corps: \"centre\", cp: 1, allow: [{}]),",
            list(from)
        );
    }
    text.push_str(TAIL);
    text
}

/// One unit whose `allow` list names `codes` codes that do not exist, each `len` characters:
/// the loader refuses the list at its entry past the limit (E0105), before it is held.
pub fn one_allow_list(map_file: &str, codes: usize, len: usize) -> String {
    let mut text = head(map_file, &list_of(0..codes, len));
    text.push_str(TAIL);
    text
}

/// `"X0000", "X0001", ` for the numbers of `range`, each code `len` characters.
fn list_of(range: std::ops::Range<usize>, len: usize) -> String {
    let width = len.max(2) - 1;
    let mut allow = String::with_capacity(range.len() * (len + 4));
    for i in range {
        // `X` then the number, zero-padded: never a code (codes are E or W and four digits).
        let _ = write!(allow, "\"X{i:0width$}\", ");
    }
    allow
}

/// `units` units each with three faults: a corps the scenario lacks (E0202), a hex off the map
/// (E0503) and combat points beyond the schema's bound (E0105). 200,000 units make a
/// 25 MB file.
pub fn faulty_units(map_file: &str, units: usize) -> String {
    let mut text = head(map_file, "");
    for i in 0..units {
        let _ = writeln!(
            text,
            "                (id: \"u{i}\", name: \"Regiment {i}\", kind: \"infantry\", corps: \"nowhere\", cp: 99, placement: Hex(\"9999\")),"
        );
    }
    text.push_str(TAIL);
    text
}

/// `units` units as short as a unit is (`(id:"u7",name:"n",kind:"infantry")`): the most
/// units a file of its size holds, so the most per-unit memory (a 6 MB file holds 158,000).
pub fn short_units(map_file: &str, units: usize) -> String {
    let mut text = head(map_file, "");
    for i in 0..units {
        let _ = writeln!(text, "(id:\"u{i}\",name:\"n\",kind:\"infantry\"),");
    }
    text.push_str(TAIL);
    text
}

/// `units` units each allowing 128 unknown codes of two characters (`"A0","A1",…`, five bytes
/// a code): the most codes a file of its size holds.
pub fn short_codes(map_file: &str, units: usize) -> String {
    let codes: Vec<String> = (0..crate::common::MAX_ALLOW_CODES as usize)
        .map(|i| format!("\"{}{}\"", char::from(b'A' + (i / 8) as u8), i % 8))
        .collect();
    let codes = codes.join(",");
    let mut text = head(map_file, "");
    for i in 0..units {
        let _ = writeln!(
            text,
            "(id:\"u{i}\",name:\"n\",kind:\"infantry\",allow:[{codes}]),"
        );
    }
    text.push_str(TAIL);
    text
}

/// One zone of `hexes` hexes: distinct six-digit names (`"100100",`), or, `bad`, `"x"` each (a
/// pattern violation a hex, four bytes each: 1.5 million in a 6 MB file).
pub fn zone_hexes(map_file: &str, hexes: usize, bad: bool) -> String {
    let mut list = String::with_capacity(hexes * 9);
    for i in 0..hexes {
        if bad {
            list.push_str("\"x\",");
        } else {
            let _ = write!(list, "\"{}{}\",", 100 + i / 900, 100 + i % 900);
        }
    }
    let zone = format!(
        "    zones: [(id: \"z\", name: \"Z\", owner: Army(\"french\"), hexes: [{list}])],\n"
    );
    let mut text = head(map_file, "");
    text.push_str(&TAIL.replace("    victory", &format!("{zone}    victory")));
    text
}

/// The small test map (`map`, its text) with `hexes` more overlays (`"100100":["bridge"],`),
/// hexes the map does not have: one map entry, a key and a one-id list, per 21 bytes.
pub fn map_overlays(map: &str, hexes: usize) -> String {
    let mut entries = String::with_capacity(hexes * 21);
    for i in 0..hexes {
        let _ = write!(
            entries,
            "\"{}{}\":[\"bridge\"],",
            100 + i / 900,
            100 + i % 900
        );
    }
    map.replacen(
        "    overlays: {\n",
        &format!("    overlays: {{\n{entries}\n"),
        1,
    )
}
