//! Bataille battles to where games are played: a VASSAL module (`vassal`), a Tiled map
//! (`tiled`) and a print-and-play PDF kit (`print`), each drawn from the renderer's one
//! symbology (`bataille_render::symbology`) and each checked against its format's own rules.
//!
//! The library API is what the editor's File ▸ Export menu calls:
//! [`vassal::export`] (module bytes), [`tiled::export`] (files to write), [`print::kit`] (PDF
//! bytes); the command line (`bataille export --vassal/--tiled`, `bataille print`) is a thin layer
//! in the `bataille` binary (`src/play.rs`).

pub mod counters;
mod language;
pub mod print;
pub mod tiled;
pub mod variants;
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

/// A file name made of an id, unique per id by construction: ASCII letters, digits and `-`
/// kept, any other character (`_` and `.` included) written `_HEX_` (`a.b` is `a_2e_b`, `a_b`
/// is `a_5f_b`), so two ids never share a file (`a.b` and `a_b` shared one counter image). A
/// stem never holds a `.`: what is added to it ([`image_name`]) is joined with one, so no
/// stem plus its suffix is another stem (`x-back` was both the back of `x` and the front of a
/// unit `x-back`). Never cut: ids are at most 64 characters, and a cut stem ending with a hash
/// of the id could be written out in full as another id.
pub(crate) fn file_stem(id: &str) -> String {
    let mut stem = String::with_capacity(id.len());
    for c in id.chars() {
        if c.is_ascii_alphanumeric() || c == '-' {
            stem.push(c);
        } else {
            stem.push_str(&format!("_{:x}_", u32::from(c)));
        }
    }
    if stem.is_empty() {
        return "_".to_owned();
    }
    stem
}

/// An image's file name: a stem ([`file_stem`], with its kind's prefix) and the `.`-joined
/// parts that tell its images apart (`back`, `setup-2`), then `.png`.
pub(crate) fn image_name(stem: &str, parts: &[&str]) -> String {
    let mut name = stem.to_owned();
    for part in parts {
        name.push('.');
        name.push_str(part);
    }
    name.push_str(".png");
    name
}

#[cfg(test)]
mod stem_tests {
    use super::file_stem;

    #[test]
    fn ids_that_differ_name_different_files() {
        assert_eq!(file_stem("fr-gardes-1"), "fr-gardes-1");
        assert_ne!(file_stem("a.b"), file_stem("a_b"));
        assert_eq!(file_stem("a.b"), "a_2e_b");
        assert_ne!(file_stem("a_2e_b"), file_stem("a.b"));
        let long = "x".repeat(300);
        assert_ne!(
            file_stem(&format!("{long}1")),
            file_stem(&format!("{long}2"))
        );
        // No stem holds the `.` that joins an image's parts.
        for id in ["a.b", "x-back", "x--setup-1", "a_2e_b", "marker:x:1"] {
            assert!(!file_stem(id).contains('.'), "{id}");
        }
        assert_ne!(
            super::image_name(&file_stem("x"), &["back"]),
            super::image_name(&file_stem("x-back"), &[])
        );
    }
}
