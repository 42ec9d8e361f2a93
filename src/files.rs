//! Turning the paths given on the command line into the list of files to work on.

use std::path::{Path, PathBuf};

/// The files named, and the *.ron files under the folders named (sorted, hidden folders and
/// `target` skipped). `Err` names a path that does not exist or cannot be listed.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        let meta = std::fs::metadata(path)
            .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
        if meta.is_dir() {
            walk(path, &mut files)?;
        } else {
            files.push(path.clone());
        }
    }
    let mut seen = std::collections::HashSet::new();
    files.retain(|f| seen.insert(f.clone()));
    Ok(files)
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir)
        .map_err(|error| format!("cannot list {}: {error}", dir.display()))?;
    let mut children: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    children.sort();
    for child in children {
        let name = child
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if child.is_dir() {
            if !name.starts_with('.') && name != "target" {
                walk(&child, files)?;
            }
        } else if child.extension().is_some_and(|e| e == "ron") {
            files.push(child);
        }
    }
    Ok(())
}

/// A path for display and output: forward slashes on every platform.
pub fn display(path: &Path) -> String {
    path.display().to_string().replace('\\', "/")
}
