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
/// kept, any other character (`_` included) written `_HEX_` (`a.b` is `a_2e_b`, `a_b` is
/// `a_5f_b`), so two ids never share a file (`a.b` and `a_b` shared one counter image). A
/// stem over 120 bytes is cut and ends with a hash of the whole id.
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
    if stem.len() > 120 {
        // FNV-1a of the id: deterministic, so the same id always names the same file.
        let hash = id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        stem.truncate(100);
        stem.push_str(&format!("-{hash:016x}"));
    }
    stem
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
        assert!(file_stem(&long).len() <= 120);
    }
}
