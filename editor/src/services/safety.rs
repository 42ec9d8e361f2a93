//! What a save may write over (issue 26). Before anything is written, each file a save would
//! write is read once (bounded, regular files only) and judged:
//!
//! - it must be a file of the document's kind, or absent: a scenario is never written over a
//!   map, a map never over a scenario, a system or a file that is not Bataille's (whatever a
//!   dialog click or a recovery file named);
//! - two parts of the open work never go to one file: the scenario saved onto its own map;
//! - a file that changed on disk since the editor read or wrote it (another editor, a `git
//!   pull`) is noticed: the user chooses to reload, overwrite or save elsewhere.
//!
//! The disk's state is remembered as [`DiskStamps`]: a fingerprint of each file's bytes when the
//! editor last read or wrote it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use bataille_schema::io::DocumentKind;
use serde::{Deserialize, Serialize};

/// A fingerprint of a file's bytes (FNV-1a, 64 bits: stable across builds, so one kept in a
/// recovery file still means the same after an update).
pub fn fingerprint(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash ^ (bytes.len() as u64).rotate_left(32)
}

/// What each file of the document held when the editor last read or wrote it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiskStamps(pub BTreeMap<PathBuf, u64>);

impl DiskStamps {
    /// Remembers what `path` holds now (as read or written by the editor).
    pub fn record(&mut self, path: &Path, bytes: &[u8]) {
        self.0.insert(key(path), fingerprint(bytes));
    }

    /// The fingerprint remembered for `path`.
    pub fn get(&self, path: &Path) -> Option<u64> {
        self.0.get(&key(path)).copied()
    }
}

/// Paths are remembered absolute and clean, so `maps/x.ron` and `/repo/maps/x.ron` are one.
fn key(path: &Path) -> PathBuf {
    bataille_schema::paths::absolute(path)
}

/// A file a save writes: where, what it must be, the text, and what the disk holds there now.
#[derive(Debug)]
pub struct Target {
    pub path: PathBuf,
    pub kind: DocumentKind,
    /// "the scenario", "the map": for messages.
    pub role: &'static str,
    pub text: String,
    /// The bytes on disk now; `None` when there is no file.
    pub on_disk: Option<Vec<u8>>,
}

impl Target {
    /// Reads what `path` holds now (bounded; a FIFO, device or folder is an error, unread).
    pub fn new(
        path: &Path,
        kind: DocumentKind,
        role: &'static str,
        text: String,
    ) -> Result<Target, String> {
        let on_disk = match std::fs::symlink_metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            _ => match bataille_schema::files::read_limited(
                path,
                bataille_schema::io::MAX_FILE_BYTES,
            ) {
                Ok(bytes) => Some(bytes),
                Err(bataille_schema::files::ReadError::Io(e))
                    if e.kind() == std::io::ErrorKind::NotFound =>
                {
                    None // A link to a missing file: writing creates its target.
                }
                Err(error) => {
                    return Err(format!(
                        "{} is not a file the editor may replace: {error}. Nothing was saved; \
                         choose another name.",
                        path.display()
                    ));
                }
            },
        };
        Ok(Target {
            path: path.to_owned(),
            kind,
            role,
            text,
            on_disk,
        })
    }

    /// Whether the file already holds exactly the text (nothing to write).
    pub fn unchanged(&self) -> bool {
        self.on_disk.as_deref() == Some(self.text.as_bytes())
    }
}

/// The kind of Bataille document a file's bytes hold (`None`: not one).
pub fn kind_of_bytes(path: &Path, bytes: &[u8]) -> Option<DocumentKind> {
    let head = &bytes[..bytes.len().min(64 * 1024)];
    let text = String::from_utf8_lossy(head).into_owned();
    let source = bataille_schema::SourceFile::new(path, text);
    bataille_schema::io::sniff_kind(&source).ok()
}

/// "a map", "a scenario".
fn kind_word(kind: DocumentKind) -> String {
    format!("a {}", kind.as_str().to_lowercase())
}

/// Whether two paths name one file (the same inode, or the same clean absolute path once links
/// are followed).
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
        use std::os::unix::fs::MetadataExt as _;
        return (x.dev(), x.ino()) == (y.dev(), y.ino());
    }
    let resolve = |p: &Path| {
        let p = bataille_schema::files::follow_links(p).unwrap_or_else(|_| p.to_owned());
        std::fs::canonicalize(&p).unwrap_or_else(|_| bataille_schema::paths::absolute(&p))
    };
    resolve(a) == resolve(b)
}

/// Refuses a save that would write over what it must not: a file of another kind (or not a
/// Bataille file at all), or one file for two parts of the open work. The message says what
/// the file is and that nothing was written.
pub fn check_targets(targets: &[Target]) -> Result<(), String> {
    for (i, a) in targets.iter().enumerate() {
        for b in &targets[i + 1..] {
            if same_file(&a.path, &b.path) {
                return Err(format!(
                    "{} is {}'s file: saving {} there would replace {} with {}'s text, and \
                     neither would open again. Nothing was saved; choose another name.",
                    a.path.display(),
                    a.role,
                    b.role,
                    a.role,
                    b.role,
                ));
            }
        }
    }
    for target in targets {
        let Some(bytes) = &target.on_disk else {
            continue;
        };
        let found = kind_of_bytes(&target.path, bytes);
        if found != Some(target.kind) {
            let what = match found {
                Some(kind) => format!("{} file", kind_word(kind)),
                None => "not a Bataille map or scenario".to_owned(),
            };
            return Err(format!(
                "{} is {what}; the editor writes {} ({}) only over {} file, so it was not \
                 replaced. Nothing was saved; choose another name.",
                target.path.display(),
                kind_word(target.kind),
                target.role,
                kind_word(target.kind),
            ));
        }
    }
    Ok(())
}

/// The files changed on disk since the editor last read or wrote them (and that the save would
/// change): another program's work the save would overwrite.
pub fn changed_on_disk(targets: &[Target], stamps: &DiskStamps) -> Vec<PathBuf> {
    targets
        .iter()
        .filter(|t| !t.unchanged())
        .filter(|t| match (stamps.get(&t.path), &t.on_disk) {
            (Some(stamp), Some(bytes)) => fingerprint(bytes) != stamp,
            _ => false,
        })
        .map(|t| t.path.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(dir: &Path, name: &str, kind: DocumentKind, text: &str) -> Target {
        Target::new(&dir.join(name), kind, "the map", text.to_owned()).expect("readable")
    }

    #[test]
    fn a_file_of_another_kind_or_not_bataille_is_refused() {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::write(dir.path().join("s.ron"), "Scenario(format_version: 1)").expect("w");
        std::fs::write(dir.path().join("notes.ron"), "my notes").expect("w");
        std::fs::write(dir.path().join("m.ron"), "// a map\nMap(oops").expect("w");
        let refused = check_targets(&[target(dir.path(), "s.ron", DocumentKind::Map, "Map()")]);
        assert!(refused.unwrap_err().contains("is a scenario file"));
        let refused = check_targets(&[target(dir.path(), "notes.ron", DocumentKind::Map, "Map()")]);
        assert!(refused.unwrap_err().contains("not a Bataille"));
        // A map that does not parse is still a map: it may be replaced by one.
        assert!(check_targets(&[target(dir.path(), "m.ron", DocumentKind::Map, "Map()")]).is_ok());
        assert!(
            check_targets(&[target(dir.path(), "new.ron", DocumentKind::Map, "Map()")]).is_ok()
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_unread() {
        let dir = tempfile::tempdir().expect("dir");
        let fifo = dir.path().join("pipe.ron");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()));
        let error = Target::new(&fifo, DocumentKind::Map, "the map", String::new()).unwrap_err();
        assert!(error.contains("FIFO"), "{error}");
    }

    #[test]
    fn a_change_on_disk_is_noticed_unless_it_is_what_we_write() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("m.ron");
        std::fs::write(&path, "Map(a)").expect("w");
        let mut stamps = DiskStamps::default();
        stamps.record(&path, b"Map(a)");
        let t = target(dir.path(), "m.ron", DocumentKind::Map, "Map(b)");
        assert!(changed_on_disk(&[t], &stamps).is_empty());
        std::fs::write(&path, "Map(c)").expect("w");
        let t = target(dir.path(), "m.ron", DocumentKind::Map, "Map(b)");
        assert_eq!(changed_on_disk(&[t], &stamps), vec![path.clone()]);
        // The other program wrote what we would: nothing is lost.
        let t = target(dir.path(), "m.ron", DocumentKind::Map, "Map(c)");
        assert!(changed_on_disk(&[t], &stamps).is_empty());
    }
}
