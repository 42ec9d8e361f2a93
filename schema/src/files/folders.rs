//! The folders outputs are written in: made by the writer (refused like an output when they
//! lead outside the repository), and the temporary file beside each output.

use std::path::Path;

use super::{WriteError, absolute, repository_of};

/// Makes the folder outputs go in (with the folders above it), refused as an output is when
/// the folder leads (through a link, its own or one on the way) outside its repository: the
/// folders are judged before any is made (`schema --out schemas/a/b`, `schemas` a link to a
/// folder elsewhere, made `a/b` there before the writer refused the files).
pub fn create_output_folder(dir: &Path) -> Result<(), WriteError> {
    if let Some(root) = repository_of(&dir.join("file"))
        && !absolute(dir).starts_with(&root)
    {
        return Err(WriteError::OutsideRepository {
            path: dir.to_path_buf(),
            root,
        });
    }
    std::fs::create_dir_all(dir).map_err(|source| WriteError::Io {
        path: dir.to_path_buf(),
        source,
    })
}

/// An empty temporary file beside `target`, created exclusively with a random name. Dropping
/// it (any early return) deletes it.
pub(super) fn temporary_beside(target: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let dir = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // The target's name, cut to 200 bytes: the temporary's own name adds 12 (dot, dot, six
    // random characters, `.tmp`), and a target of a legal 244-byte name got a temporary past
    // the 255 a file system allows, so it could not be written at all.
    let name: String = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into())
        .chars()
        .scan(0, |bytes, c| {
            *bytes += c.len_utf8();
            (*bytes <= 200).then_some(c)
        })
        .collect();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        // A new file gets the usual rw-rw-rw- less the umask; an old file's mode is set later.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(dir).map_err(|error| {
        // tempfile names its random file in its message (`at path "/…/.k.pdf.WtHKAA.tmp"`):
        // the folder is what the person can correct.
        let kind = error.kind();
        let folder = crate::source::display_path(dir);
        let why = match kind {
            std::io::ErrorKind::NotFound => format!("the folder {folder} does not exist"),
            _ => format!("{kind} (in the folder {folder})"),
        };
        std::io::Error::new(kind, why)
    })
}
