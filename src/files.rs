//! Turning the paths given on the command line into the list of files to work on.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// What identifies a file or folder whatever the path it is reached by: device and inode on
/// Unix (so links to a folder already walked, `.` included, are not followed again).
#[cfg(unix)]
fn identity(meta: &std::fs::Metadata, _path: &Path) -> (u64, u64, PathBuf) {
    use std::os::unix::fs::MetadataExt as _;
    (meta.dev(), meta.ino(), PathBuf::new())
}

#[cfg(not(unix))]
fn identity(_meta: &std::fs::Metadata, path: &Path) -> (u64, u64, PathBuf) {
    (
        0,
        0,
        std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned()),
    )
}

/// The files named, and the *.ron files under the folders named (sorted, hidden folders and
/// `target` skipped). Links are followed, but no folder is walked twice and no file listed
/// twice, however many links lead to it (a link to `.` makes no loop). `Err` names a path
/// that does not exist, cannot be listed, or is neither a regular file nor a folder (a FIFO,
/// a device): the command cannot run on it.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    let mut seen_dirs = HashSet::new();
    let mut seen_files = HashSet::new();
    for path in paths {
        let meta = std::fs::metadata(path)
            .map_err(|error| format!("cannot read {}: {error}", display(path)))?;
        if meta.is_dir() {
            walk(path, &meta, &mut seen_dirs, &mut seen_files, &mut files)?;
        } else if meta.is_file() {
            if seen_files.insert(identity(&meta, path)) {
                files.push(path.clone());
            }
        } else {
            return Err(format!(
                "cannot read {}: it is {}, not a regular file",
                display(path),
                bataille_schema::files::kind_of(&meta)
            ));
        }
    }
    Ok(files)
}

type Seen = HashSet<(u64, u64, PathBuf)>;

fn walk(
    dir: &Path,
    meta: &std::fs::Metadata,
    seen_dirs: &mut Seen,
    seen_files: &mut Seen,
    files: &mut Vec<PathBuf>,
) -> Result<(), String> {
    if !seen_dirs.insert(identity(meta, dir)) {
        return Ok(());
    }
    let entries =
        std::fs::read_dir(dir).map_err(|error| format!("cannot list {}: {error}", display(dir)))?;
    let mut children: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    children.sort();
    for child in children {
        let name = child
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let Ok(meta) = std::fs::metadata(&child) else {
            // A link loop or a dangling link named *.ron is listed, never skipped in silence:
            // reading it says why it cannot be read. Anything else unreadable is not ours.
            if child.extension().is_some_and(|e| e == "ron") {
                files.push(child);
            }
            continue;
        };
        if meta.is_dir() {
            if !name.starts_with('.') && name != "target" {
                walk(&child, &meta, seen_dirs, seen_files, files)?;
            }
        } else if child.extension().is_some_and(|e| e == "ron")
            && seen_files.insert(identity(&meta, &child))
        {
            // Not only regular files: a FIFO or device named *.ron is refused when read.
            files.push(child);
        }
    }
    Ok(())
}

/// A path as machine-readable output holds it (JSON, SARIF): forward slashes on every
/// platform, every character kept (the format escapes what it must).
pub fn portable(path: &Path) -> String {
    path.display().to_string().replace('\\', "/")
}

/// A path for a person's terminal: [`portable`], with every character a terminal would obey
/// or hide shown escaped ([`crate::terminal::escape`]), the line feed too: a file named
/// `x\nerror: …` cannot fake a line (`say!` and `tell!` escape every line feed of a line
/// besides).
pub fn display(path: &Path) -> String {
    crate::terminal::escape(&portable(path))
}
