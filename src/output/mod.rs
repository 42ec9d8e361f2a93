//! The output formats of `bataille validate`: each takes the merged results and writes them.

pub mod github;
pub mod human;
pub mod json;
pub mod sarif;

use bataille_validator::Span;

use crate::files;

/// `file:line:col` of a span.
pub fn place(span: &Span) -> String {
    format!(
        "{}:{}:{}",
        files::display(&span.file),
        span.line,
        span.column
    )
}
