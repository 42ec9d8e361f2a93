//! A map's background scan through the door: its `background.image` confined as every
//! reference is (relative, inside the root, a regular file), and a file that is there must
//! begin as a picture does; an E0210 at `/background/image` says why it is refused.

use std::path::{Path, PathBuf};

use bataille_schema::files::ReadError;
use bataille_schema::{DocumentKind, Map};

use super::clean_path;
use crate::{Code, Diagnostic};

/// The confined path of a map's background scan; an E0210 at `/background/image` when it is
/// refused (absolute, outside the root, not a regular file).
pub(super) fn background_of(
    map_path: &Path,
    map: &Map,
    root: Option<&Path>,
    out: &mut Vec<Diagnostic>,
) -> Option<PathBuf> {
    let background = map.background.as_ref()?;
    let refused = |why: String| {
        Diagnostic::new(
            Code::E0210,
            DocumentKind::Map,
            "/background/image",
            format!("the background scan `{}` is refused: {why}", background.image),
        )
        .help("name a scan inside the repository, relative to the map's folder (or remove the background)")
    };
    match bataille_schema::files::resolve_reference(map_path, &background.image, root) {
        Err(error) => {
            out.push(refused(error.to_string()));
            None
        }
        Ok(path) => {
            let path = clean_path(&path);
            // One open: the file's kind read on the open handle, then its first bytes (its
            // metadata was read twice, once by path and once by the handle).
            match bataille_schema::files::open_regular(&path) {
                Err(ReadError::NotRegular(kind)) => {
                    out.push(refused(format!("it is {kind}, not a regular file")));
                    None
                }
                Ok((file, _)) if !is_picture(&file) => {
                    out.push(refused(
                        "it is not a PNG, JPEG or TIFF picture (its first bytes say so)".into(),
                    ));
                    None
                }
                // Missing (scans are often kept out of repositories) or unreadable: left to
                // the reader that opens it, which says why.
                _ => Some(path),
            }
        }
    }
}

/// Whether a file begins as a scan does (PNG, JPEG, TIFF): its first bytes only. A map
/// whose `background.image` named a map, a system or any other file passed `validate` and
/// failed only when an export decoded it. A file that cannot be read is left to the reader
/// that opens it, which says why.
fn is_picture(mut file: &std::fs::File) -> bool {
    use std::io::Read as _;
    let mut head = Vec::with_capacity(8);
    if file.by_ref().take(8).read_to_end(&mut head).is_err() {
        return true;
    }
    head.starts_with(b"\x89PNG\r\n\x1a\n")
        || head.starts_with(&[0xFF, 0xD8, 0xFF])
        || head.starts_with(b"II*\0")
        || head.starts_with(b"MM\0*")
}
