//! End-to-end tests of the report's bound (issue 19): a small accepted file that makes very
//! many diagnostics gets a bounded report in every format (at most `--max-per-code` of a code
//! per file, default 100, and one summary per code with the number not shown), with the true
//! totals and the exit code it would have with every diagnostic listed. The files come from
//! `bataille_schema::flood` (the generators of `examples/flood.rs` and the benchmarks).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod support;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

const MAP: &str = include_str!("fixtures/maps/small.ron");

/// A folder holding the small map and `name` with `text`.
fn folder(name: &str, text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("small.ron"), MAP).unwrap();
    std::fs::write(dir.path().join(name), text).unwrap();
    dir
}

fn bataille(dir: &Path, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bataille"));
    command.args(args).current_dir(dir).env("NO_COLOR", "1");
    support::output_within(command, std::time::Duration::from_secs(120))
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn json(dir: &Path, args: &[&str]) -> (Vec<Value>, i32) {
    let mut all = vec!["validate", "--format", "json"];
    all.extend_from_slice(args);
    let output = bataille(dir, &all);
    let value: Value = serde_json::from_str(&stdout(&output)).expect("validate prints JSON");
    let list = value.as_array().cloned().expect("a JSON array");
    (list, output.status.code().unwrap_or(-1))
}

/// The diagnostics of `code` listed, and the number the summary of `code` stands for.
fn of_code<'a>(list: &'a [Value], code: &str) -> (Vec<&'a Value>, u64) {
    let all: Vec<&Value> = list.iter().filter(|d| d["code"] == code).collect();
    let listed = all
        .iter()
        .copied()
        .filter(|d| d.get("omitted").is_none())
        .collect();
    let omitted = all.iter().filter_map(|d| d["omitted"].as_u64()).sum();
    (listed, omitted)
}

#[test]
fn thousands_of_unknown_codes_give_a_bounded_report_in_every_format() {
    // 5,000 codes, 128 to an `allow` list.
    let text = bataille_schema::flood::allow_codes("small.ron", 5000, 7);
    let dir = folder("allow-codes.ron", &text);
    let dir = dir.path();

    // JSON: 100 W0107 listed, one summary for the 4,900 others, at the file's first line;
    // warnings only: the file passes, as it would with every warning listed.
    let (list, code) = json(dir, &["allow-codes.ron"]);
    assert_eq!(code, 0, "warnings only");
    let (listed, omitted) = of_code(&list, "W0107");
    assert_eq!((listed.len(), omitted), (100, 4900));
    let summary = list
        .iter()
        .find(|d| d.get("omitted").is_some())
        .expect("a summary");
    assert_eq!(summary["severity"], "warning");
    assert_eq!(
        (summary["line"].as_u64(), summary["column"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(summary["file"], "allow-codes.ron");
    assert_eq!(
        summary["message"],
        "5,000 W0107 in this file: 100 shown, 4,900 not shown"
    );
    // The first ones in the file are those listed.
    assert!(listed[0]["message"].as_str().unwrap().contains("`X000000`"));
    assert!(
        listed[99]["message"]
            .as_str()
            .unwrap()
            .contains("`X000099`")
    );
    assert_eq!(list.len(), 101);

    // SARIF: the same, the summary a result of its rule with `properties.omitted`.
    let output = bataille(dir, &["validate", "--format", "sarif", "allow-codes.ron"]);
    assert_eq!(output.status.code(), Some(0));
    let log: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    let w0107: Vec<&Value> = results.iter().filter(|r| r["ruleId"] == "W0107").collect();
    assert_eq!(w0107.len(), 101);
    let summary: Vec<&Value> = w0107
        .iter()
        .copied()
        .filter(|r| r["properties"]["omitted"].as_u64().is_some())
        .collect();
    assert_eq!(summary.len(), 1);
    assert_eq!(summary[0]["properties"]["omitted"], 4900);
    assert_eq!(
        summary[0]["locations"][0]["physicalLocation"]["region"]["startLine"],
        1
    );

    // GitHub: one annotation per diagnostic listed and one for the summary.
    let output = bataille(dir, &["validate", "--format", "github", "allow-codes.ron"]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert_eq!(
        text.lines().filter(|l| l.contains("title=W0107")).count(),
        101
    );
    assert!(text.contains(
        "::warning file=allow-codes.ron,line=1,col=1,endColumn=1,title=W0107::5,000 W0107 in this file: 100 shown, 4,900 not shown;"
    ));

    // Human: the same diagnostics, and the true totals in the last line.
    let output = bataille(dir, &["validate", "allow-codes.ron"]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert_eq!(text.matches("warning[W0107]").count(), 101);
    assert!(text.contains("warning[W0107]: 5,000 W0107 in this file: 100 shown, 4,900 not shown"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("0 errors, 5000 warnings in 1 file"),
        "{stderr}"
    );
    // With `--deny-warnings` the 4,900 not shown fail the file too.
    let output = bataille(dir, &["validate", "--deny-warnings", "allow-codes.ron"]);
    assert_eq!(output.status.code(), Some(1));
}

/// An `allow` list longer than a list holds (128: more than there are codes) is refused where
/// its entry too many is written, before the list is held: 500,000 codes in one list made a
/// report of 343 MB for a 5.5 MB file.
#[test]
fn an_allow_list_of_500000_codes_is_refused_at_its_129th() {
    let text = bataille_schema::flood::one_allow_list("small.ron", 500_000, 7);
    let dir = folder("one-list.ron", &text);
    let (list, code) = json(dir.path(), &["one-list.ron"]);
    assert_eq!(code, 1);
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["code"], "E0105");
    assert_eq!(
        list[0]["message"],
        "the list holds more than 128 codes: an `allow` list names each code at most once"
    );
    // Just after the 129th entry (`X000128`), on the unit's line.
    let column = list[0]["column"].as_u64().unwrap() as usize;
    let line = text.lines().nth(21).unwrap();
    let before = line[..column - 1].trim_end();
    assert!(
        before.ends_with("\"X000128\","),
        "{}",
        &before[before.len() - 30..]
    );
    // 128 codes are read.
    let text = bataille_schema::flood::one_allow_list("small.ron", 128, 7);
    let dir = folder("one-list.ron", &text);
    let (list, code) = json(dir.path(), &["one-list.ron"]);
    assert_eq!((code, list.len()), (0, 101));
}

#[test]
fn units_with_three_faults_each_are_counted_truly_and_fail() {
    let text = bataille_schema::flood::faulty_units("small.ron", 1500);
    let dir = folder("faulty-units.ron", &text);
    let dir = dir.path();
    let (list, code) = json(dir, &["faulty-units.ron"]);
    assert_eq!(code, 1);
    for code in ["E0105", "E0202", "E0503"] {
        let (listed, omitted) = of_code(&list, code);
        assert_eq!((listed.len(), omitted), (100, 1400), "{code}");
    }
    assert!(list.len() <= 1000 + 77, "{}", list.len());

    // The totals of the human report count every diagnostic; an allowed code is neither
    // shown nor counted.
    let output = bataille(dir, &["validate", "faulty-units.ron"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("4500 errors, 0 warnings in 1 file"),
        "{stderr}"
    );
    let output = bataille(dir, &["validate", "--allow", "E0503", "faulty-units.ron"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("3000 errors, 0 warnings in 1 file"),
        "{stderr}"
    );
    assert!(!stdout(&output).contains("E0503"));

    // `--max-per-code` moves the bound; 0 lifts it.
    let (list, _) = json(dir, &["--max-per-code", "7", "faulty-units.ron"]);
    let (listed, omitted) = of_code(&list, "E0202");
    assert_eq!((listed.len(), omitted), (7, 1493));
    let (list, _) = json(dir, &["--max-per-code", "0", "faulty-units.ron"]);
    let (listed, omitted) = of_code(&list, "E0202");
    assert_eq!((listed.len(), omitted), (1500, 0));
    assert_eq!(list.len(), 4500);
}

/// The summary in each format, as a user reads it: three unknown codes, at most two shown.
#[test]
fn the_summary_in_each_format() {
    let text = bataille_schema::flood::allow_codes("small.ron", 3, 3);
    let dir = folder("codes.ron", &text);
    let dir = dir.path();
    let run = |format: &str| {
        let output = bataille(
            dir,
            &[
                "validate",
                "--max-per-code",
                "2",
                "--format",
                format,
                "codes.ron",
            ],
        );
        assert_eq!(output.status.code(), Some(0), "warnings only");
        output
    };
    let human = run("human");
    insta::assert_snapshot!("summary_human", stdout(&human));
    assert!(
        String::from_utf8_lossy(&human.stderr).contains("0 errors, 3 warnings in 1 file"),
        "the summary counts the warnings it stands for"
    );
    insta::assert_snapshot!("summary_json", stdout(&run("json")));
    insta::assert_snapshot!("summary_github", stdout(&run("github")));
    let sarif: Value = serde_json::from_str(&stdout(&run("sarif"))).unwrap();
    insta::assert_snapshot!(
        "summary_sarif_results",
        serde_json::to_string_pretty(&sarif["runs"][0]["results"]).unwrap()
    );
    // `--deny-warnings` fails on the warnings a summary stands for too.
    let output = bataille(
        dir,
        &[
            "validate",
            "--max-per-code",
            "1",
            "--allow",
            "W0107",
            "--deny-warnings",
            "codes.ron",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "allowed: nothing left");
    let output = bataille(
        dir,
        &[
            "validate",
            "--max-per-code",
            "1",
            "--deny-warnings",
            "codes.ron",
        ],
    );
    assert_eq!(output.status.code(), Some(1));
}
