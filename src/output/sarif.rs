//! `--format sarif`: a SARIF 2.1.0 log for code scanning: one run, the tool's rules (every
//! code), one result per diagnostic with its region and related locations. Streamed through
//! serde, one result at a time: the log is never held in memory as a JSON tree (200,000
//! counters in one hex made a tree of 1.5 GB). A summary of the results of a rule not listed
//! (beyond `--max-per-code` in a file) is a result of that rule at the file's first line, its
//! `properties.omitted` their number.

use std::io::Write;

use bataille_validator::{Code, Diagnostic, Severity, Span};
use serde::Serialize;
use serde::ser::SerializeMap;

use crate::results::Results;

/// A relative path as a URI reference: `/` separators, unsafe bytes percent-encoded. The
/// file name's own bytes are encoded, not its display (a name that is not UTF-8 was written
/// with U+FFFD in place of its bytes, a file no consumer could find).
fn uri(span: &Span) -> String {
    let bytes = span.file.as_os_str().as_encoded_bytes();
    let mut out = String::new();
    for &byte in bytes {
        let byte = if byte == b'\\' && cfg!(windows) {
            b'/'
        } else {
            byte
        };
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

#[derive(Serialize)]
struct Text<'a> {
    text: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    uri_base_id: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

fn physical(span: &Span) -> PhysicalLocation {
    PhysicalLocation {
        artifact_location: ArtifactLocation {
            uri: uri(span),
            uri_base_id: "%SRCROOT%",
        },
        region: Region {
            start_line: span.line,
            start_column: span.column,
            end_line: span.end_line.max(span.line),
            end_column: if span.end_line > span.line {
                span.end_column
            } else {
                span.end_column.max(span.column + 1)
            },
        },
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: PhysicalLocation,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RelatedLocation<'a> {
    id: usize,
    physical_location: PhysicalLocation,
    message: Text<'a>,
}

#[derive(Serialize)]
struct Properties<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    hex: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    subject: Option<&'a str>,
    /// On a summary only: how many results of its rule in its file it stands for, not listed.
    #[serde(skip_serializing_if = "Option::is_none")]
    omitted: Option<usize>,
}

#[derive(Serialize)]
struct OwnedText {
    text: String,
}

#[derive(Serialize)]
struct Tags {
    tags: [&'static str; 1],
}

#[derive(Serialize)]
struct DefaultConfiguration {
    level: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: &'static str,
    short_description: Text<'static>,
    full_description: OwnedText,
    default_configuration: DefaultConfiguration,
    properties: Tags,
}

/// One result, serialised from the diagnostic as it is written.
struct SarifResult<'a>(&'a Diagnostic);

impl Serialize for SarifResult<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let d = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("ruleId", d.code.as_str())?;
        map.serialize_entry(
            "ruleIndex",
            &Code::ALL.iter().position(|c| *c == d.code).unwrap_or(0),
        )?;
        map.serialize_entry("level", level(d.severity))?;
        map.serialize_entry(
            "message",
            &Text {
                text: &d.full_message(),
            },
        )?;
        if let Some(span) = &d.span {
            map.serialize_entry(
                "locations",
                &[Location {
                    physical_location: physical(span),
                }],
            )?;
        }
        if d.related.iter().any(|r| r.span.is_some()) {
            map.serialize_entry("relatedLocations", &Related(d))?;
        }
        if d.hex.is_some() || d.subject.is_some() || d.is_summary() {
            map.serialize_entry(
                "properties",
                &Properties {
                    hex: d.hex.as_deref(),
                    subject: d.subject.as_deref(),
                    omitted: d.is_summary().then_some(d.omitted),
                },
            )?;
        }
        map.end()
    }
}

/// A result's related places that have a place, each numbered by its index among all.
struct Related<'a>(&'a Diagnostic);

impl Serialize for Related<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.related.iter().enumerate().filter_map(|(i, r)| {
            Some(RelatedLocation {
                id: i,
                physical_location: physical(r.span.as_ref()?),
                message: Text { text: &r.message },
            })
        }))
    }
}

/// Every diagnostic as a result, one at a time.
struct AllResults<'a>(&'a [Diagnostic]);

impl Serialize for AllResults<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(SarifResult))
    }
}

/// The tool's rules: every code.
struct Rules;

impl Serialize for Rules {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(Code::ALL.iter().map(|code| Rule {
            id: code.as_str(),
            short_description: Text { text: code.title() },
            full_description: OwnedText {
                text: format!(
                    "{} (group: {}; rule {})",
                    code.title(),
                    code.group(),
                    code.rule()
                ),
            },
            default_configuration: DefaultConfiguration {
                level: level(code.severity()),
            },
            properties: Tags {
                tags: [code.group()],
            },
        }))
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    information_uri: &'static str,
    rules: Rules,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool,
    column_kind: &'static str,
    results: AllResults<'a>,
}

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

/// The log of these results, ready to serialise.
fn log(results: &Results) -> Log<'_> {
    Log {
        schema: "https://json.schemastore.org/sarif-2.1.0.json",
        version: "2.1.0",
        runs: [Run {
            tool: Tool {
                driver: Driver {
                    name: "bataille",
                    version: env!("CARGO_PKG_VERSION"),
                    information_uri: "https://example.invalid/bataille/docs/diagnostics.md",
                    rules: Rules,
                },
            },
            column_kind: "unicodeCodePoints",
            results: AllResults(&results.diagnostics),
        }],
    }
}

pub fn write(out: &mut dyn Write, results: &Results) -> std::io::Result<()> {
    crate::terminal::write_json(out, &log(results))
}

pub fn print(results: &Results) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    write(&mut out, results)?;
    out.flush()
}
