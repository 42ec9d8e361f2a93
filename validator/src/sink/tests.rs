//! The sink's bound, summaries, cascades and filter.

use super::filter::Codes;
use super::*;

fn w0107(i: usize) -> Diagnostic {
    Diagnostic::new(
        Code::W0107,
        DocumentKind::Scenario,
        format!("/allow/{i}"),
        format!("`X{i}` is not a diagnostic code, so it allows nothing"),
    )
}

#[test]
fn a_code_beyond_the_bound_is_counted_in_one_summary() {
    let mut sink = Sink::bounded(Bound::default());
    for i in 0..100_000 {
        sink.push(w0107(i));
    }
    sink.push(Diagnostic::new(
        Code::E0301,
        DocumentKind::Scenario,
        "/a",
        "m",
    ));
    let out = sink.finish();
    assert_eq!(out.len(), MAX_PER_CODE + 2);
    let summary = out.last().expect("a summary");
    assert_eq!(summary.code, Code::W0107);
    assert_eq!(summary.omitted, 100_000 - MAX_PER_CODE);
    assert_eq!(summary.pointer, "");
    assert_eq!(
        summary.message,
        "100,000 W0107 in this file: 100 shown, 99,900 not shown"
    );
    // The first ones pushed are kept, and the other code too.
    assert_eq!(out[0].pointer, "/allow/0");
    assert_eq!(out[MAX_PER_CODE - 1].pointer, "/allow/99");
    assert_eq!(out[MAX_PER_CODE].code, Code::E0301);
    let count: usize = out.iter().map(Diagnostic::count).sum();
    assert_eq!(count, 100_001);
}

#[test]
fn the_file_total_is_bounded_and_no_bound_keeps_all() {
    let mut sink = Sink::bounded(Bound {
        per_code: 10,
        per_file: 15,
    });
    for code in [Code::E0301, Code::E0302, Code::E0303] {
        for i in 0..20 {
            sink.push(Diagnostic::new(
                code,
                DocumentKind::Map,
                format!("/{i}"),
                "m",
            ));
        }
    }
    let out = sink.finish();
    let shown = |code| {
        out.iter()
            .filter(|d| d.code == code && d.omitted == 0)
            .count()
    };
    assert_eq!(
        (shown(Code::E0301), shown(Code::E0302), shown(Code::E0303)),
        (10, 5, 0)
    );
    let omitted: Vec<usize> = out.iter().map(|d| d.omitted).filter(|n| *n > 0).collect();
    assert_eq!(omitted, [10, 15, 20]);
    let mut all = Sink::bounded(Bound::per_code(0));
    for i in 0..5000 {
        all.push(w0107(i));
    }
    assert_eq!(all.finish().len(), 5000);
}

#[test]
fn summaries_merged_add_up_and_cascades_are_uncounted() {
    // A follow-on beyond the bound in one sink, its cause in another merged after.
    let mut beside = Sink::bounded(Bound {
        per_code: 1,
        per_file: 100,
    });
    for unit in ["a", "b", "c"] {
        beside.push(Diagnostic::new(Code::E1002, DocumentKind::Scenario, "/u", unit).subject(unit));
    }
    let mut main = Sink::bounded(Bound {
        per_code: 1,
        per_file: 100,
    });
    main.push(Diagnostic::new(Code::E0204, DocumentKind::Scenario, "/k", "k").subject("c"));
    main.merge(beside);
    let out = main.finish();
    // a kept, b counted, c dropped with its cause.
    let e1002: Vec<_> = out.iter().filter(|d| d.code == Code::E1002).collect();
    assert_eq!(e1002.len(), 2);
    assert_eq!(e1002[0].message, "a");
    assert_eq!(e1002[1].omitted, 1);
    // A finished sink's summary pushed into another adds to its count.
    let mut again = Sink::bounded(Bound {
        per_code: 1,
        per_file: 100,
    });
    for d in out {
        again.push(d);
    }
    again.push(Diagnostic::new(Code::E1002, DocumentKind::Scenario, "/v", "d").subject("d"));
    let out = again.finish();
    let omitted: usize = out
        .iter()
        .filter(|d| d.code == Code::E1002)
        .map(|d| d.omitted)
        .sum();
    assert_eq!(omitted, 2);
}

#[test]
fn long_texts_are_cut() {
    let mut sink = Sink::bounded(Bound::default());
    let long = "é".repeat(5000);
    sink.push(Diagnostic::new(Code::E0301, DocumentKind::Scenario, "/a", long.clone()).help(long));
    sink.push(
        Diagnostic::new(Code::E0302, DocumentKind::Scenario, "/b", "m")
            .subject("x".repeat(10_000))
            .related(crate::Related::new(DocumentKind::Scenario, "/c", "r"))
            .related(crate::Related::new(DocumentKind::Scenario, "/c", "r"))
            .related(crate::Related::new(DocumentKind::Scenario, "/c", "r")),
    );
    let mut many = Diagnostic::new(Code::E0303, DocumentKind::Scenario, "/b", "m");
    for _ in 0..1000 {
        many = many.related(crate::Related::new(DocumentKind::Scenario, "/c", "r"));
    }
    sink.push(many);
    let out = sink.finish();
    let d = &out[0];
    assert!(d.message.len() <= MAX_TEXT_BYTES && d.message.ends_with('…'));
    assert!(
        out[1]
            .subject
            .as_deref()
            .is_some_and(|s| s.len() <= MAX_TEXT_BYTES)
    );
    assert_eq!(out[1].related.len(), 3);
    assert_eq!(out[2].related.len(), crate::diagnostic::MAX_RELATED + 1);
    assert!(d.help.as_deref().is_some_and(|h| h.len() <= MAX_TEXT_BYTES));
}

#[test]
fn allow_lists_read_as_sets() {
    let list = vec![" w0107 ".to_owned(), "E0301".into(), "nonsense".into()];
    let codes = Codes::of(&list);
    assert!(codes.has(Code::W0107) && codes.has(Code::E0301));
    assert!(!codes.has(Code::E0302));
}

#[test]
fn a_refused_field_drops_what_its_readers_say_even_beyond_the_bound() {
    // The map's grid refused by the schema (its E0105 found beside the checks, merged after):
    // every E0503 (a check reading the grid) is dropped and uncounted, kept or not.
    let bound = Bound {
        per_code: 2,
        per_file: 100,
    };
    let mut checks = Sink::bounded(bound);
    for i in 0..10 {
        checks.push(Diagnostic::new(
            Code::E0503,
            DocumentKind::Scenario,
            format!("/armies/0/units/{i}/placement/Hex"),
            "off the map",
        ));
    }
    let mut schema = Sink::bounded(bound);
    for i in 0..5 {
        schema.push(Diagnostic::new(
            Code::E0105,
            DocumentKind::Map,
            format!("/rows/{i}"),
            "x",
        ));
    }
    schema.push(Diagnostic::new(
        Code::E0105,
        DocumentKind::Map,
        "/grid/columns",
        "0",
    ));
    // Kept beyond the bound, so a sink its finished output is pushed into learns it.
    let finished = schema.finish();
    assert!(finished.iter().any(|d| d.pointer == "/grid/columns"));
    let mut all = Sink::bounded(bound);
    for d in finished {
        all.push(d);
    }
    all.merge(checks);
    let out = all.finish();
    assert!(out.iter().all(|d| d.code != Code::E0503), "{out:#?}");
    let e0105: usize = out
        .iter()
        .filter(|d| d.code == Code::E0105)
        .map(Diagnostic::count)
        .sum();
    assert_eq!(e0105, 6);
}

#[test]
fn a_rule_about_a_value_the_schema_refused_is_dropped_at_that_place_only() {
    let at = |code, pointer: &str| Diagnostic::new(code, DocumentKind::Scenario, pointer, "m");
    let mut report = vec![
        at(Code::E0105, "/armies/0/commanders/0/placement/Hex"),
        at(Code::E0503, "/armies/0/commanders/0/placement/Hex"),
        // Another place, and a place inside a refused one: still reported.
        at(Code::E0503, "/armies/0/commanders/1/placement/Hex"),
        at(Code::E0105, "/armies/1/units"),
        at(Code::E0204, "/armies/1/units/3/kind"),
        // The same pointer in another document is another place.
        Diagnostic::new(
            Code::E0210,
            DocumentKind::Map,
            "/armies/0/commanders/0/placement/Hex",
            "m",
        ),
    ];
    drop_refused_values(&mut report);
    let left: Vec<(Code, &str)> = report
        .iter()
        .map(|d| (d.code, d.pointer.as_str()))
        .collect();
    assert_eq!(
        left,
        [
            (Code::E0105, "/armies/0/commanders/0/placement/Hex"),
            (Code::E0503, "/armies/0/commanders/1/placement/Hex"),
            (Code::E0105, "/armies/1/units"),
            (Code::E0204, "/armies/1/units/3/kind"),
            (Code::E0210, "/armies/0/commanders/0/placement/Hex"),
        ]
    );
}
