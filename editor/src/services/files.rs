//! Files around the document: the system file picker behind a trait (so tests can answer it),
//! the remembered settings (recent files, docks, layers) and the crash-recovery file.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use bataille_schema::Map;
use serde::{Deserialize, Serialize};

/// What a file picker is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PickPurpose {
    Open,
    Save,
    /// "Save elsewhere…" of the changed-on-disk question: keep both versions. A scenario's map
    /// goes beside the new scenario, never over the file that changed on disk.
    SaveElsewhere,
    /// Save as variant: the open scenario's changes as a variant of its saved file (issue 25).
    SaveVariant,
    /// New variant of this scenario: an empty variant file.
    NewVariant,
}

impl PickPurpose {
    /// A save (Save As, Save elsewhere, a variant written).
    pub fn is_save(self) -> bool {
        !matches!(self, PickPurpose::Open)
    }
}

/// A native file chooser. The typed-path dialog always works; a picker is an extra "Browse…".
pub trait FilePicker {
    /// Asks the user for a path; `None` when cancelled or when no chooser is available.
    fn pick(&mut self, purpose: PickPurpose, start: Option<&Path>) -> Option<PathBuf>;
    /// Whether a chooser can be shown at all (hides the Browse button otherwise).
    fn available(&self) -> bool;
}

/// The desktop's file chooser through `zenity` (GNOME) or `kdialog` (KDE), as rfd does when no
/// XDG portal is running. With neither installed it is unavailable and the typed path is used.
pub struct SystemPicker {
    program: Option<&'static str>,
}

impl SystemPicker {
    pub fn detect() -> SystemPicker {
        let found = ["zenity", "kdialog"].into_iter().find(|program| {
            std::env::var_os("PATH").is_some_and(|paths| {
                std::env::split_paths(&paths).any(|dir| dir.join(program).is_file())
            })
        });
        SystemPicker { program: found }
    }
}

impl FilePicker for SystemPicker {
    fn pick(&mut self, purpose: PickPurpose, start: Option<&Path>) -> Option<PathBuf> {
        let program = self.program?;
        let start = start
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| ".".to_owned());
        let mut command = std::process::Command::new(program);
        match (program, purpose) {
            ("zenity", PickPurpose::Open) => {
                command.args([
                    "--file-selection",
                    "--title=Open map or scenario",
                    "--file-filter=RON files | *.ron",
                    &format!("--filename={start}"),
                ]);
            }
            ("zenity", _) => {
                command.args([
                    "--file-selection",
                    "--save",
                    "--confirm-overwrite",
                    "--title=Save map as",
                    &format!("--filename={start}"),
                ]);
            }
            (_, PickPurpose::Open) => {
                command.args(["--getopenfilename", &start, "*.ron"]);
            }
            (_, _) => {
                command.args(["--getsavefilename", &start, "*.ron"]);
            }
        }
        let output = command.output().ok()?;
        if !output.status.success() {
            return None;
        }
        let text = String::from_utf8(output.stdout).ok()?;
        let text = text.trim_end_matches(['\n', '\r']);
        (!text.is_empty()).then(|| PathBuf::from(text))
    }

    fn available(&self) -> bool {
        self.program.is_some()
    }
}

/// A picker that answers from a list (for tests), or is unavailable when empty.
#[derive(Debug, Default)]
pub struct ScriptedPicker {
    pub answers: std::collections::VecDeque<Option<PathBuf>>,
}

impl FilePicker for ScriptedPicker {
    fn pick(&mut self, _purpose: PickPurpose, _start: Option<&Path>) -> Option<PathBuf> {
        self.answers.pop_front().flatten()
    }

    fn available(&self) -> bool {
        !self.answers.is_empty()
    }
}

/// What the editor remembers between runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub recent: Vec<PathBuf>,
    pub show_left_dock: bool,
    pub show_right_dock: bool,
    pub show_diagnostics: bool,
    pub show_hex_names: bool,
    /// View ▸ Table overlay's choices.
    pub table: crate::map::table_overlay::TableSettings,
    /// The folder the last export went to: the next export starts there.
    pub export_folder: Option<PathBuf>,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            recent: Vec::new(),
            show_left_dock: true,
            show_right_dock: true,
            show_diagnostics: true,
            show_hex_names: true,
            table: Default::default(),
            export_folder: None,
        }
    }
}

/// How many recent files are kept.
pub const RECENT_MAX: usize = 10;

/// The largest settings file read: a few paths and switches (a bigger one is not ours).
pub const MAX_SETTINGS_BYTES: u64 = 64 * 1024;

/// The longest path kept in the recent list (longer than any path the system opens).
pub const MAX_RECENT_PATH_BYTES: usize = 4096;

impl Settings {
    fn file(dir: &Path) -> PathBuf {
        dir.join("settings.ron")
    }

    /// Reads the settings, or the defaults when there are none or they do not parse.
    pub fn load(dir: Option<&Path>) -> Settings {
        Settings::load_reporting(dir).0
    }

    /// Reads the settings; a file that cannot be read or parsed gives the defaults, is kept
    /// aside (`settings.ron.broken`) and is reported in the message returned, never dropped
    /// silently.
    pub fn load_reporting(dir: Option<&Path>) -> (Settings, Option<String>) {
        let Some(dir) = dir else {
            return (Settings::default(), None);
        };
        let file = Self::file(dir);
        if !file.exists() {
            return (Settings::default(), None);
        }
        let parsed = bataille_schema::files::read_text_limited(&file, MAX_SETTINGS_BYTES)
            .map_err(|e| e.to_string())
            .and_then(|text| {
                bataille_schema::io::ron_options()
                    .from_str::<Settings>(&text)
                    .map_err(|e| e.to_string())
            });
        match parsed {
            Ok(mut settings) => {
                settings.bound();
                (settings, None)
            }
            Err(error) => (
                Settings::default(),
                Some(keep_aside(&file, "settings", &error)),
            ),
        }
    }

    /// Writes the settings (best effort: failing to remember is not worth an error dialog).
    pub fn save(&self, dir: Option<&Path>) -> std::io::Result<()> {
        let Some(dir) = dir else {
            return Ok(());
        };
        std::fs::create_dir_all(dir)?;
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .map_err(std::io::Error::other)?;
        bataille_schema::io::write_atomic(&Self::file(dir), &text)
    }

    /// Keeps what was read within what the editor shows: the recent list at most
    /// [`RECENT_MAX`] paths, each at most [`MAX_RECENT_PATH_BYTES`] long.
    pub fn bound(&mut self) {
        self.recent
            .retain(|p| p.as_os_str().len() <= MAX_RECENT_PATH_BYTES);
        self.recent.truncate(RECENT_MAX);
    }

    /// Puts a file at the top of the recent list.
    pub fn add_recent(&mut self, path: &Path) {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
        self.recent.retain(|p| p != &path);
        self.recent.insert(0, path);
        self.recent.truncate(RECENT_MAX);
    }
}

/// A regular file's text, never more than the readers' size limit (a FIFO or device is refused).
fn read_text(path: &Path) -> Result<String, bataille_schema::files::ReadError> {
    bataille_schema::files::read_text_limited(path, bataille_schema::io::MAX_FILE_BYTES)
}

/// The user's config directory for the editor (`$XDG_CONFIG_HOME/bataille-editor`).
pub fn default_config_dir() -> Option<PathBuf> {
    xdg_dir("XDG_CONFIG_HOME", ".config").map(|d| d.join("bataille-editor"))
}

/// Where recovery files go (`$XDG_CACHE_HOME/bataille-editor/recovery`).
pub fn default_recovery_dir() -> Option<PathBuf> {
    xdg_dir("XDG_CACHE_HOME", ".cache").map(|d| d.join("bataille-editor").join("recovery"))
}

fn xdg_dir(var: &str, fallback: &str) -> Option<PathBuf> {
    std::env::var_os(var)
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(fallback)))
}

/// The content of a recovery file: the unsaved map and where it belongs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recovery {
    /// Seconds since the Unix epoch when it was written.
    pub written_at: u64,
    /// The map file the changes belong to (`None` for a map never saved).
    pub map_path: Option<PathBuf>,
    /// The scenario the map was opened through.
    pub scenario_path: Option<PathBuf>,
    pub map: Map,
    /// The unsaved scenario (order of battle, zones, settings), when one is open.
    #[serde(default)]
    pub scenario: Option<bataille_schema::Scenario>,
    /// The scenario's root (its `map` stays inside it), absolute.
    #[serde(default)]
    pub root: Option<PathBuf>,
    /// What the files held when the editor last read or wrote them (a save after recovering
    /// still notices a change on disk).
    #[serde(default)]
    pub disk: crate::services::safety::DiskStamps,
    /// The editor that wrote it.
    #[serde(default)]
    pub pid: u32,
}

/// A recovery file found at start-up.
#[derive(Debug, Clone)]
pub struct FoundRecovery {
    pub file: PathBuf,
    pub recovery: Recovery,
}

/// Now, in seconds since the Unix epoch.
pub fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The recovery file name for a document path and this editor (`instance`, see
/// [`editor_instance`]: two editors on one file keep one recovery file each), or for an
/// untitled map of this editor.
pub fn recovery_file_name(document: Option<&Path>, instance: &str) -> String {
    use std::hash::{DefaultHasher, Hash, Hasher};
    match document {
        Some(path) => {
            let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
            let mut hasher = DefaultHasher::new();
            path.hash(&mut hasher);
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let stem: String = stem
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .take(40)
                .collect();
            format!("{stem}-{:016x}-{instance}.recovery.ron", hasher.finish())
        }
        None => format!("untitled-{instance}.recovery.ron"),
    }
}

/// This editor's name among those running: its process id, and a number for each editor after
/// the first in one process (tests run several).
pub fn editor_instance() -> String {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    match NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) {
        0 => std::process::id().to_string(),
        n => format!("{}.{n}", std::process::id()),
    }
}

/// Writes a recovery file atomically.
pub fn write_recovery(path: &Path, recovery: &Recovery) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let text = ron::ser::to_string_pretty(
        recovery,
        ron::ser::PrettyConfig::new().depth_limit(2).new_line("\n"),
    )
    .map_err(std::io::Error::other)?;
    bataille_schema::io::write_atomic(path, &text)
}

/// Reads a recovery file.
pub fn read_recovery(path: &Path) -> Result<Recovery, String> {
    let text = read_text(path).map_err(|e| e.to_string())?;
    bataille_schema::io::ron_options()
        .from_str(&text)
        .map_err(|e| e.to_string())
}

/// The most characters of a message quoted from a file that a toast or a report shows.
pub use bataille_schema::limits::MESSAGE_CHARS;

/// `text` cut to at most `max` characters, with "…" and the count of what was cut (the
/// workspace's one clip, `bataille_schema::limits::clipped`).
pub use bataille_schema::limits::clipped;

/// The most lines an error dialog's message shows.
pub const DIALOG_LINES: usize = 20;

/// A message as the error dialog shows it: at most [`DIALOG_LINES`] lines, then how many more
/// there were, and at most four [`MESSAGE_CHARS`] in all. A map with 999 rows of the wrong
/// length gave a dialog of 999 repair notes, whose OK button was far below the screen
/// (hostile round 5).
pub fn dialog_text(message: &str) -> String {
    let total = message.lines().count();
    let mut shown = message
        .lines()
        .take(DIALOG_LINES)
        .collect::<Vec<_>>()
        .join("\n");
    if total > DIALOG_LINES {
        shown.push_str(&format!("\n… and {} more lines", total - DIALOG_LINES));
    }
    clipped(&shown, 4 * MESSAGE_CHARS)
}

/// Moves a file that could not be read to `<name>.broken` beside it (so it is neither lost
/// nor read again) and says so; to `<name>.broken-2` (and on) when one was kept aside before,
/// which a rename would have replaced (a recovery file a newer editor wrote, kept aside twice,
/// lost the first).
pub fn keep_aside(file: &Path, what: &str, error: &str) -> String {
    // The parser's message quotes the file's own text (a 100 KB identifier whole): clipped, so
    // 200 such files do not cost the editor gigabytes of laid-out toasts (hostile round 4).
    let error = clipped(error, MESSAGE_CHARS);
    let error = error.as_str();
    let named = |n: u32| {
        let mut aside = file.as_os_str().to_owned();
        aside.push(if n == 1 {
            ".broken".to_owned()
        } else {
            format!(".broken-{n}")
        });
        PathBuf::from(aside)
    };
    let aside = (1..=1000)
        .map(named)
        .find(|p| std::fs::symlink_metadata(p).is_err())
        .unwrap_or_else(|| named(1000));
    match std::fs::rename(file, &aside) {
        Ok(()) => format!(
            "The {what} file {} could not be read ({error}); it was kept as {}.",
            file.display(),
            aside.display()
        ),
        Err(move_error) => format!(
            "The {what} file {} could not be read ({error}) nor moved aside ({move_error}).",
            file.display()
        ),
    }
}

/// A Unix time as `YYYY-MM-DD HH:MM UTC`.
pub fn format_time(unix: u64) -> String {
    let days = (unix / 86_400) as i64;
    let secs = unix % 86_400;
    // Howard Hinnant's civil-from-days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        secs / 3600,
        (secs % 3600) / 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_time() {
        assert_eq!(format_time(0), "1970-01-01 00:00 UTC");
        assert_eq!(format_time(1_700_000_000), "2023-11-14 22:13 UTC");
    }

    /// An error dialog's message stays a screenful: 999 repair notes, or one line of a
    /// megabyte, are cut and say what was cut.
    #[test]
    fn dialog_text_is_bounded_in_lines_and_characters() {
        let notes: Vec<String> = (1..=999)
            .map(|r| format!("terrain row {r} has 1 hexes, not 32; it was padded with `.`"))
            .collect();
        let shown = dialog_text(&notes.join("\n"));
        assert_eq!(shown.lines().count(), DIALOG_LINES + 1, "{shown}");
        assert!(shown.ends_with("… and 979 more lines"), "{shown}");
        let long = dialog_text(&"x".repeat(1_000_000));
        assert!(long.len() < 4 * MESSAGE_CHARS + 100, "{} bytes", long.len());
        assert!(long.ends_with("(998400 more characters)"), "{long}");
        assert_eq!(dialog_text("short\ntwo lines"), "short\ntwo lines");
    }

    #[test]
    fn recent_list_moves_to_top_and_is_bounded() {
        let mut settings = Settings::default();
        for i in 0..12 {
            settings.add_recent(Path::new(&format!("/nonexistent/{i}.ron")));
        }
        settings.add_recent(Path::new("/nonexistent/5.ron"));
        assert_eq!(settings.recent.len(), RECENT_MAX);
        assert_eq!(settings.recent[0], PathBuf::from("/nonexistent/5.ron"));
    }
}

#[cfg(test)]
mod broken_files {
    use super::*;

    #[test]
    fn a_broken_settings_file_is_reported_and_kept_aside() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        std::fs::write(dir.path().join("settings.ron"), "(recent: [oops").expect("written");
        let (settings, message) = Settings::load_reporting(Some(dir.path()));
        assert!(settings.recent.is_empty());
        let message = message.expect("the user is told");
        assert!(message.contains("settings.ron.broken"), "{message}");
        assert!(dir.path().join("settings.ron.broken").exists());
        assert!(!dir.path().join("settings.ron").exists());
        // Nothing to say about a missing file.
        assert!(Settings::load_reporting(Some(dir.path())).1.is_none());
        // Broken again: the first copy kept aside stays, the second goes beside it.
        std::fs::write(dir.path().join("settings.ron"), "(recent: [again").expect("written");
        let message = Settings::load_reporting(Some(dir.path())).1.expect("told");
        assert!(message.contains("settings.ron.broken-2"), "{message}");
        let first = std::fs::read_to_string(dir.path().join("settings.ron.broken")).expect("kept");
        assert_eq!(first, "(recent: [oops");
    }
}
