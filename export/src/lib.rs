//! Bataille battles to where games are played: a VASSAL module (`vassal`), a Tiled map
//! (`tiled`) and a print-and-play PDF kit (`print`), each drawn from the renderer's one
//! symbology (`bataille_render::symbology`) and each checked against its format's own rules.
//!
//! The library API is what the editor's File ▸ Export menu calls:
//! [`vassal::export`] (module bytes), [`tiled::export`] (files to write), [`print::kit`] (PDF
//! bytes); the command line (`bataille export --vassal/--tiled`, `bataille print`) is a thin layer
//! in the `bataille` binary (`src/play.rs`).

pub mod counters;
pub mod print;
pub mod tiled;
pub mod vassal;

/// Why an export could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Render(#[from] bataille_render::RenderError),
    #[error("cannot write the archive: {0}")]
    Zip(#[from] zip::result::ZipError),
    #[error("cannot write {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("the scan {path} cannot be used: {message}")]
    Scan { path: String, message: String },
    #[error("cannot make the PDF: {0}")]
    Pdf(String),
    #[error("{0}")]
    Invalid(String),
}

/// XML-escapes text for an attribute or element body: the one escaping function
/// ([`bataille_schema::markup::xml`]).
pub(crate) fn xml(text: &str) -> String {
    bataille_schema::markup::xml(text).into_owned()
}

/// A file name made of an id: letters, digits, `-` and `_` kept, anything else `_`.
pub(crate) fn file_stem(id: &str) -> String {
    let stem: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(80)
        .collect();
    if stem.is_empty() {
        "_".to_owned()
    } else {
        stem
    }
}
