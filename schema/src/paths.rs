//! Paths between Bataille's files: one file named relative to another's folder (a scenario's
//! `map`, a map's `background.image`), written with `/` on every platform.

use std::path::{Component, Path, PathBuf};

/// `path` made absolute against the current directory, with `.` dropped and `..` resolved
/// textually (the file need not exist).
pub fn absolute(path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_owned()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// `to` relative to the folder `from_dir` (both made absolute first), or `None` when they are on
/// different roots (another drive).
///
/// ```
/// use std::path::Path;
/// use bataille_schema::paths::relative_path;
/// let rel = relative_path(Path::new("/a/b/maps"), Path::new("/a/b/scans/x.png"));
/// assert_eq!(rel.unwrap(), Path::new("../scans/x.png"));
/// ```
pub fn relative_path(from_dir: &Path, to: &Path) -> Option<PathBuf> {
    let from = absolute(from_dir);
    let to = absolute(to);
    let from_parts: Vec<Component> = from.components().collect();
    let to_parts: Vec<Component> = to.components().collect();
    if from_parts.first() != to_parts.first() {
        return None;
    }
    let common = from_parts
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut rel = PathBuf::new();
    for _ in common..from_parts.len() {
        rel.push("..");
    }
    for part in &to_parts[common..] {
        rel.push(part.as_os_str());
    }
    Some(rel)
}

/// A path as written in a file: `/` separators on every platform.
pub fn portable(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// How the file `file` names `target`: relative to `file`'s folder when possible, else absolute.
pub fn reference_from(file: &Path, target: &Path) -> String {
    let dir = file.parent().unwrap_or(Path::new(""));
    match relative_path(dir, target) {
        Some(rel) => portable(&rel),
        None => portable(&absolute(target)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_climb_and_descend() {
        let rel = |a: &str, b: &str| relative_path(Path::new(a), Path::new(b)).unwrap();
        assert_eq!(rel("/a/b", "/a/b/m.ron"), Path::new("m.ron"));
        assert_eq!(rel("/a/b/c", "/a/d/m.ron"), Path::new("../../d/m.ron"));
        assert_eq!(rel("/a/./b/../b", "/a/b/x/m.ron"), Path::new("x/m.ron"));
        assert_eq!(
            reference_from(Path::new("/s/scenarios/x.ron"), Path::new("/s/maps/m.ron")),
            "../maps/m.ron"
        );
    }
}
