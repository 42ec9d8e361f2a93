//! `--format sarif`: a SARIF 2.1.0 log for code scanning, written with serde_json: one run, the
//! tool's rules (every code), one result per diagnostic with its region and related locations.

use std::io::Write;

use bataille_validator::{Code, Severity, Span};
use serde_json::{Value, json};

use crate::files;
use crate::results::Results;

/// A relative path as a URI reference: `/` separators, unsafe bytes percent-encoded.
fn uri(span: &Span) -> String {
    let path = files::display(&span.file);
    let mut out = String::new();
    for byte in path.bytes() {
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

fn physical(span: &Span) -> Value {
    json!({
        "artifactLocation": { "uri": uri(span), "uriBaseId": "%SRCROOT%" },
        "region": {
            "startLine": span.line,
            "startColumn": span.column,
            "endLine": span.end_line.max(span.line),
            "endColumn": if span.end_line > span.line { span.end_column } else { span.end_column.max(span.column + 1) },
        }
    })
}

pub fn log(results: &Results) -> Value {
    let rules: Vec<Value> = Code::ALL
        .iter()
        .map(|code| {
            json!({
                "id": code.as_str(),
                "shortDescription": { "text": code.title() },
                "fullDescription": { "text": format!("{} (group: {}; rule {})", code.title(), code.group(), code.rule()) },
                "defaultConfiguration": { "level": level(code.severity()) },
                "properties": { "tags": [code.group()] },
            })
        })
        .collect();
    let results_json: Vec<Value> = results
        .diagnostics
        .iter()
        .map(|d| {
            let mut result = json!({
                "ruleId": d.code.as_str(),
                "ruleIndex": Code::ALL.iter().position(|c| *c == d.code).unwrap_or(0),
                "level": level(d.severity),
                "message": { "text": d.full_message() },
            });
            if let Some(span) = &d.span {
                result["locations"] = json!([{ "physicalLocation": physical(span) }]);
            }
            let related: Vec<Value> = d
                .related
                .iter()
                .enumerate()
                .filter_map(|(i, r)| {
                    let span = r.span.as_ref()?;
                    Some(json!({
                        "id": i,
                        "physicalLocation": physical(span),
                        "message": { "text": r.message },
                    }))
                })
                .collect();
            if !related.is_empty() {
                result["relatedLocations"] = Value::Array(related);
            }
            let mut properties = serde_json::Map::new();
            if let Some(hex) = &d.hex {
                properties.insert("hex".into(), json!(hex));
            }
            if let Some(subject) = &d.subject {
                properties.insert("subject".into(), json!(subject));
            }
            if !properties.is_empty() {
                result["properties"] = Value::Object(properties);
            }
            result
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "bataille",
                    "version": env!("CARGO_PKG_VERSION"),
                    "informationUri": "https://example.invalid/bataille/docs/diagnostics.md",
                    "rules": rules,
                }
            },
            "columnKind": "unicodeCodePoints",
            "results": results_json,
        }]
    })
}

pub fn print(results: &Results) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    crate::terminal::write_json(&mut out, &log(results))?;
    out.flush()
}
