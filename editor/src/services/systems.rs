//! The miniatures rules systems a scenario names (`miniatures[].file`, relative to the scenario,
//! `systems/*.ron`), loaded for the ratings form and the table overlay: read once and again only
//! when the file changes (its modification time, looked at no more than once a second).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use bataille_schema::system::{System, system_path_of};
use bataille_schema::{Id, Scenario};

/// A system as loaded: the system, or why it could not be read.
pub type Loaded = Arc<Result<System, String>>;

/// How often a system file's modification time is looked at.
const RECHECK: Duration = Duration::from_secs(1);

struct Entry {
    modified: Option<SystemTime>,
    checked: Instant,
    loaded: Loaded,
}

/// The systems read so far, by path.
#[derive(Default)]
pub struct SystemCache {
    entries: HashMap<PathBuf, Entry>,
    /// The systems last given to the live validator (the app compares by pointer).
    pub synced: Vec<Loaded>,
}

impl std::fmt::Debug for SystemCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SystemCache")
            .field("files", &self.entries.len())
            .finish()
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

impl SystemCache {
    /// The systems `scenario` (saved at `scenario_path`) names, in its order: each system's id
    /// as the scenario gives it, and the system or the reason it could not be loaded (also when
    /// the file holds another system than the one named).
    pub fn systems_of(&mut self, scenario_path: &Path, scenario: &Scenario) -> Vec<(Id, Loaded)> {
        scenario
            .miniatures
            .iter()
            .map(|used| {
                let path = system_path_of(scenario_path, used);
                let loaded = self.load(scenario_path, &used.file, &path);
                let loaded = match &*loaded {
                    Ok(system) if system.id != used.system => Arc::new(Err(format!(
                        "{} holds system `{}`, not `{}`",
                        path.display(),
                        system.id,
                        used.system
                    ))),
                    _ => loaded,
                };
                (used.system.clone(), loaded)
            })
            .collect()
    }

    /// The system `file` names (`path`: as the scenario's folder joins it, the cache's key),
    /// read through the door ([`crate::services::door::open_system`]: confined to the
    /// scenario's root, every check a document gets) and again only when the file changes.
    fn load(&mut self, scenario_path: &Path, file: &str, path: &Path) -> Loaded {
        if let Some(entry) = self.entries.get_mut(path) {
            if entry.checked.elapsed() < RECHECK {
                return entry.loaded.clone();
            }
            entry.checked = Instant::now();
            let now = modified(path);
            if now == entry.modified {
                return entry.loaded.clone();
            }
        }
        let loaded: Loaded = Arc::new(
            crate::services::door::open_system(scenario_path, file)
                .map(|(_, system)| system)
                .map_err(|e| format!("{}: {e}", path.display())),
        );
        self.entries.insert(
            path.to_owned(),
            Entry {
                modified: modified(path),
                checked: Instant::now(),
                loaded: loaded.clone(),
            },
        );
        loaded
    }
}
