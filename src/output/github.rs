//! `--format github`: GitHub Actions workflow commands, one per diagnostic:
//! `::error file=F,line=L,col=C,endLine=L,endColumn=E,title=CODE::message; help`. File text
//! is escaped for the log as for a terminal (`crate::terminal`), then for GitHub.

use std::io::Write;

use bataille_validator::Severity;

use crate::files;
use crate::results::Results;
use crate::terminal::escape_lines;

/// Escapes a message: `%`, CR and LF.
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value: as a message, plus `:` and `,`.
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

pub fn print(results: &Results) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    for d in &results.diagnostics {
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut properties = Vec::new();
        if let Some(span) = &d.span {
            properties.push(format!(
                "file={}",
                escape_property(&files::display(&span.file))
            ));
            properties.push(format!("line={}", span.line));
            properties.push(format!("col={}", span.column));
            if span.end_line == span.line {
                properties.push(format!(
                    "endColumn={}",
                    span.end_column.saturating_sub(1).max(span.column)
                ));
            } else {
                properties.push(format!("endLine={}", span.end_line));
            }
        }
        properties.push(format!("title={}", escape_property(d.code.as_str())));
        writeln!(
            out,
            "::{command} {}::{}",
            properties.join(","),
            escape_data(&escape_lines(&d.full_message()))
        )?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_as_github_documents() {
        assert_eq!(escape_data("50% a\r\nb: c, d"), "50%25 a%0D%0Ab: c, d");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
    }
}
