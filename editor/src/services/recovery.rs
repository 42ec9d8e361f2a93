//! Recovery files made safe (issue 26):
//!
//! - **One editor, one recovery file, locked while it runs.** Each editor names its recovery
//!   files with its process id and holds an exclusive lock on `<file>.lock` while it owns one
//!   (the system drops the lock when the process ends, crash or not). Another editor never offers,
//!   recovers or deletes a recovery file whose lock is held: it belongs to an editor still
//!   running. So two editors on the same files keep a recovery file each.
//! - **Where the work came from, and only there.** The paths are written absolute and canonical,
//!   with the scenario's root; a recovery is restored only when its files are (still) of their
//!   kind, or absent, and the scenario's `map` names, inside the root, the map the changes are for.
//! - **Nothing loaded that could not be saved and opened again.** The map and scenario a
//!   recovery holds pass the checks every file gets when opened (the grid's limits before
//!   anything is allocated per hex, finite numbers, and the canonical text parsed back), so a
//!   recovery can neither abort the editor nor be saved into a file that will not open.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

use bataille_schema::io::DocumentKind;

use crate::services::files::{FoundRecovery, Recovery, keep_aside};
use crate::services::safety::{kind_of_bytes, same_file};

/// The lock file of a recovery file.
pub fn lock_path(recovery: &Path) -> PathBuf {
    let mut name = recovery.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// An exclusive lock on a recovery file, held while this editor owns it.
#[derive(Debug)]
pub struct RecoveryLock {
    /// The recovery file it is for.
    pub recovery: PathBuf,
    file: File,
}

impl RecoveryLock {
    /// Takes the lock of `recovery`; `Ok(None)` when another running editor holds it.
    pub fn acquire(recovery: &Path) -> std::io::Result<Option<RecoveryLock>> {
        if let Some(dir) = recovery.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(lock_path(recovery))?;
        match file.try_lock() {
            Ok(()) => Ok(Some(RecoveryLock {
                recovery: recovery.to_owned(),
                file,
            })),
            Err(TryLockError::WouldBlock) => Ok(None),
            Err(TryLockError::Error(error)) => Err(error),
        }
    }

    /// Gives the lock up and removes its file (the recovery file is gone or given up).
    pub fn release(self) {
        let lock = lock_path(&self.recovery);
        // Removed while still held, so no other editor can take it between the two steps.
        let _ = std::fs::remove_file(&lock);
        drop(self.file);
    }
}

/// Whether a running editor owns this recovery file (holds its lock).
pub fn is_live(recovery: &Path) -> bool {
    let Ok(file) = OpenOptions::new().write(true).open(lock_path(recovery)) else {
        return false; // No lock file: nobody holds it.
    };
    matches!(file.try_lock(), Err(TryLockError::WouldBlock))
}

/// A path as a recovery file keeps it: absolute and canonical (links resolved) when the file
/// exists, else absolute and clean.
pub fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| bataille_schema::paths::absolute(path))
}

/// Checks what a recovery holds as a file opened from disk is checked, through the door
/// ([`crate::services::door::check_recovered`]); the map's background scan as the door
/// confined it (the only scan the editor reads for it).
pub fn check_content(recovery: &Recovery) -> Result<Option<PathBuf>, String> {
    let scenario_path = recovery
        .scenario_path
        .clone()
        .unwrap_or_else(|| PathBuf::from("recovered-scenario.ron"));
    crate::services::door::check_recovered(
        &recovery.map,
        recovery.map_path.as_deref(),
        recovery
            .scenario
            .as_ref()
            .map(|s| (s, scenario_path.as_path())),
    )
    .map(|recovered| recovered.scan)
}

/// The kind of the file at `path` now: `Ok(None)` when there is none.
fn kind_on_disk(path: &Path) -> Result<Option<Option<DocumentKind>>, String> {
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(None);
    }
    bataille_schema::files::read_limited(path, bataille_schema::io::MAX_FILE_BYTES)
        .map(|bytes| Some(kind_of_bytes(path, &bytes)))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Checks that a recovery goes back only where its work came from: absolute paths, files of
/// their kind (or absent), and a scenario whose `map` leads, inside its root, to that map.
pub fn check_places(recovery: &Recovery) -> Result<(), String> {
    let places = [
        (recovery.map_path.as_deref(), DocumentKind::Map, "map"),
        (
            recovery.scenario_path.as_deref(),
            DocumentKind::Scenario,
            "scenario",
        ),
    ];
    for (path, kind, what) in places {
        let Some(path) = path else { continue };
        if !path.is_absolute() {
            return Err(format!(
                "it names its {what} as {}, relative to the folder an older editor ran in, \
                 which is not known now",
                path.display()
            ));
        }
        match kind_on_disk(path)? {
            Some(Some(found)) if found != kind => {
                return Err(format!(
                    "its {what} file {} now holds a {}",
                    path.display(),
                    found.as_str().to_lowercase()
                ));
            }
            Some(None) => {
                return Err(format!(
                    "its {what} file {} is not a Bataille {what} now",
                    path.display()
                ));
            }
            _ => {}
        }
    }
    if let (Some(scenario_path), Some(scenario)) = (&recovery.scenario_path, &recovery.scenario) {
        let Some(map_path) = &recovery.map_path else {
            return Err("its scenario has no map file".into());
        };
        let root = recovery
            .root
            .clone()
            .unwrap_or_else(|| bataille_schema::files::default_root(scenario_path));
        let resolved =
            bataille_schema::files::resolve_map(scenario_path, &scenario.map, Some(&root))
                .map_err(|e| format!("its scenario's map `{}`: {e}", scenario.map))?;
        let same = same_file(&resolved, map_path)
            || bataille_schema::files::clean_path(&resolved)
                == bataille_schema::files::clean_path(map_path);
        if !same {
            return Err(format!(
                "its scenario names its map as `{}` ({}), not the map {} its changes are for",
                scenario.map,
                resolved.display(),
                map_path.display()
            ));
        }
    }
    Ok(())
}

/// Reads a recovery file and checks it ([`check_content`], [`check_places`]): the recovery,
/// and its map's background scan as the door confined it.
pub fn read_checked(file: &Path) -> Result<(Recovery, Option<PathBuf>), String> {
    let recovery = crate::services::files::read_recovery(file)?;
    let scan = check_content(&recovery)?;
    check_places(&recovery)?;
    Ok((recovery, scan))
}

/// The recovery files in a directory that no running editor owns, newest first, and a message
/// for each file that could not be read or may not be restored (kept aside as
/// `<name>.broken`, never dropped silently). Lock files left by editors that stopped, whose
/// recovery file is gone, are removed.
pub fn find_recoveries_reporting(dir: Option<&Path>) -> (Vec<FoundRecovery>, Vec<String>) {
    let mut broken = Vec::new();
    let Some(dir) = dir else {
        return (Vec::new(), broken);
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (Vec::new(), broken);
    };
    let paths: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    let named = |p: &Path, end: &str| {
        p.file_name()
            .is_some_and(|n| n.to_string_lossy().ends_with(end))
    };
    for lock in paths.iter().filter(|p| named(p, ".recovery.ron.lock")) {
        let recovery = lock.with_extension("");
        if !recovery.exists()
            && let Ok(Some(held)) = RecoveryLock::acquire(&recovery)
        {
            held.release();
        }
    }
    let mut found: Vec<FoundRecovery> = paths
        .into_iter()
        .filter(|p| named(p, ".recovery.ron"))
        .filter(|file| !is_live(file))
        .filter_map(|file| match read_checked(&file) {
            Ok((recovery, _)) => Some(FoundRecovery { file, recovery }),
            Err(error) => {
                broken.push(keep_aside(&file, "recovery", &error));
                None
            }
        })
        .collect();
    found.sort_by_key(|f| std::cmp::Reverse(f.recovery.written_at));
    (found, broken)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_is_live_and_cannot_be_taken_twice() {
        let dir = tempfile::tempdir().expect("dir");
        let file = dir.path().join("a.recovery.ron");
        assert!(!is_live(&file));
        let lock = RecoveryLock::acquire(&file).expect("io").expect("free");
        assert!(is_live(&file));
        assert!(RecoveryLock::acquire(&file).expect("io").is_none());
        lock.release();
        assert!(!is_live(&file));
        assert!(!lock_path(&file).exists());
    }

    #[test]
    fn a_broken_recovery_file_quoting_a_long_identifier_gives_a_short_message() {
        // Hostile round 4: 200 recovery files of `(written_at: 1, map: (xxx…))` with a 100 KB
        // identifier aborted the editor (8 GB of address space): each message quoted it whole.
        let dir = tempfile::tempdir().expect("dir");
        let text = format!("(written_at: 1, map: ({}))", "x".repeat(100_000));
        std::fs::write(dir.path().join("map-1.recovery.ron"), text).expect("write");
        let (found, broken) = find_recoveries_reporting(Some(dir.path()));
        assert!(found.is_empty());
        assert_eq!(broken.len(), 1, "{broken:?}");
        assert!(broken[0].len() < 2_000, "{} bytes", broken[0].len());
        assert!(broken[0].contains("more characters"), "{}", broken[0]);
        assert!(dir.path().join("map-1.recovery.ron.broken").exists());
    }

    #[test]
    fn a_broken_recovery_file_is_reported_and_kept_aside() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let file = dir.path().join("map-1.recovery.ron");
        std::fs::write(&file, "not a recovery").expect("written");
        let (found, broken) = find_recoveries_reporting(Some(dir.path()));
        assert!(found.is_empty());
        assert_eq!(broken.len(), 1, "{broken:?}");
        assert!(
            broken[0].contains("map-1.recovery.ron.broken"),
            "{}",
            broken[0]
        );
        assert!(!file.exists());
        assert!(dir.path().join("map-1.recovery.ron.broken").exists());
        assert!(find_recoveries_reporting(Some(dir.path())).1.is_empty());
    }
}
