//! Recovery files: written after edits (on a background thread) while there are unsaved
//! changes, removed by a clean save, a discard or a clean exit, and offered back at start-up.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::app::*;
use crate::model::document::{Document, ScenarioFile};
use crate::services::files::{
    Recovery, format_time, keep_aside, recovery_file_name, unix_now, write_recovery,
};
use crate::services::recovery::{RecoveryLock, canonical, read_checked};
use crate::services::save::remove_if_present;

impl EditorApp {
    // -----------------------------------------------------------------------------------------
    // Recovery.

    /// The recovery file of the current document.
    pub fn recovery_path(&self) -> Option<PathBuf> {
        let dir = self.own.config.recovery_dir.as_ref()?;
        Some(dir.join(recovery_file_name(
            self.doc.document_path(),
            &self.own.instance,
        )))
    }

    /// Writes the recovery file now (when there are unsaved changes).
    pub fn write_recovery(&mut self) -> bool {
        match self.recovery_snapshot() {
            Some((path, recovery)) => {
                self.finish_recovery_writer();
                let written = write_recovery(&path, &recovery);
                let ok = written.is_ok();
                self.report_io("write the recovery file", written);
                ok
            }
            None => false,
        }
    }

    /// What a recovery file would hold now, and where it goes (`None` when not needed, or when
    /// its lock cannot be had). The paths are absolute and canonical, with the scenario's root.
    fn recovery_snapshot(&mut self) -> Option<(PathBuf, Recovery)> {
        let path = self.recovery_path()?;
        if !self.is_dirty() || !self.hold_recovery_lock(&path) {
            return None;
        }
        let scenario_path = self.doc.scenario.as_ref().map(|s| canonical(&s.path));
        let recovery = Recovery {
            written_at: unix_now(),
            map_path: self.doc.map_path.as_deref().map(canonical),
            root: scenario_path
                .as_deref()
                .map(bataille_schema::files::default_root),
            scenario_path,
            map: self.doc.map.clone(),
            scenario: self.doc.scenario.as_ref().map(|s| s.scenario.clone()),
            disk: self.doc.disk.clone(),
            pid: std::process::id(),
        };
        self.own.recovery_written_at = Some(Instant::now());
        self.own.recovery_edits = self.doc.history().committed();
        Some((path, recovery))
    }

    /// Holds the lock of this editor's recovery file `path` (giving up the one of a file it no
    /// longer writes). False, reported, when it cannot be had.
    fn hold_recovery_lock(&mut self, path: &Path) -> bool {
        if self
            .own
            .recovery_lock
            .as_ref()
            .is_some_and(|l| l.recovery == path)
        {
            return true;
        }
        match RecoveryLock::acquire(path) {
            Ok(Some(lock)) => {
                if let Some(old) = self.own.recovery_lock.replace(lock)
                    && !old.recovery.exists()
                {
                    old.release();
                }
                true
            }
            Ok(None) => {
                self.report_io(
                    "write the recovery file",
                    Err(std::io::Error::other(format!(
                        "{} belongs to another editor still running",
                        path.display()
                    ))),
                );
                false
            }
            Err(error) => {
                self.report_io("lock the recovery file", Err(error));
                false
            }
        }
    }

    /// Writes the recovery file on a background thread, so a big map never stalls a frame.
    fn write_recovery_in_background(&mut self) {
        if self
            .own
            .recovery_writer
            .as_ref()
            .is_some_and(|w| !w.is_finished())
        {
            return; // The next trigger will catch up.
        }
        self.finish_recovery_writer();
        if let Some((path, recovery)) = self.recovery_snapshot() {
            let spawned = std::thread::Builder::new()
                .name("recovery-writer".into())
                .spawn(move || write_recovery(&path, &recovery));
            match spawned {
                Ok(writer) => self.own.recovery_writer = Some(writer),
                Err(error) => self.report_io("start the recovery writer", Err(error)),
            }
        }
    }

    /// Waits for a background recovery write to finish, and reports its failure.
    pub fn finish_recovery_writer(&mut self) {
        if let Some(writer) = self.own.recovery_writer.take() {
            let result = writer
                .join()
                .unwrap_or_else(|_| Err(std::io::Error::other("the writer thread stopped")));
            self.report_io("write the recovery file", result);
        }
    }

    /// Collects a background recovery write that has finished (each frame).
    pub(crate) fn poll_recovery_writer(&mut self) {
        if self
            .own
            .recovery_writer
            .as_ref()
            .is_some_and(std::thread::JoinHandle::is_finished)
        {
            self.finish_recovery_writer();
        }
    }

    /// Shows a failed file operation in a toast (the editor goes on); the last one is kept for
    /// tests in `io_errors`.
    pub(crate) fn report_io(&mut self, what: &str, result: std::io::Result<()>) {
        if let Err(error) = result {
            let text = format!("Could not {what}: {error}");
            self.services.io_errors.push(text.clone());
            self.toast(text);
        }
    }

    pub(crate) fn maybe_write_recovery(&mut self, timer: bool) {
        if !self.is_dirty() {
            return;
        }
        let by_edits = self.doc.history().committed()
            >= self.own.recovery_edits + self.own.config.recovery_every_edits;
        let by_time = timer
            && self.own.last_edit_at.is_some_and(|edit| {
                self.own.recovery_written_at.is_none_or(|w| w < edit)
                    && edit.elapsed() >= Duration::ZERO
                    && self
                        .own
                        .recovery_written_at
                        .is_none_or(|w| w.elapsed() >= self.own.config.recovery_interval)
            });
        if by_edits || by_time {
            self.write_recovery_in_background();
        }
    }

    pub(crate) fn remove_recovery(&mut self) {
        self.finish_recovery_writer();
        if let Some(path) = self.recovery_path() {
            self.report_io("remove the recovery file", remove_if_present(&path));
        }
        if let Some(lock) = self.own.recovery_lock.take() {
            if lock.recovery.exists() {
                self.own.recovery_lock = Some(lock); // Another of ours, still to remove.
            } else {
                lock.release();
            }
        }
    }

    /// Discard recovery: deletes a recovery file no running editor owns.
    pub(crate) fn discard_recovery(&mut self, file: &Path) {
        match RecoveryLock::acquire(file) {
            Ok(Some(lock)) => {
                self.report_io("remove the recovery file", remove_if_present(file));
                lock.release();
            }
            Ok(None) => self.toast(format!(
                "{} belongs to another editor still running: it was kept.",
                file.display()
            )),
            Err(error) => self.report_io("lock the recovery file", Err(error)),
        }
    }

    /// Restores a recovery file as the document (with unsaved changes), only where its work
    /// came from and only when no running editor owns it ([`crate::services::recovery`]).
    pub fn restore(&mut self, file: &Path) -> bool {
        let lock = match RecoveryLock::acquire(file) {
            Ok(Some(lock)) => lock,
            Ok(None) => {
                self.show_error(
                    "This recovery belongs to a running editor",
                    format!(
                        "{} is held by another editor still running.",
                        file.display()
                    ),
                    "Its changes are still open there: save them in that window.",
                );
                return false;
            }
            Err(error) => {
                self.show_error(
                    "Could not read the recovery file",
                    format!("{}: {error}", file.display()),
                    "Check that you may write in the recovery folder.",
                );
                return false;
            }
        };
        let (recovery, scan) = match read_checked(file) {
            Ok(checked) => checked,
            Err(e) => {
                lock.release();
                let kept = keep_aside(file, "recovery", &e);
                self.services.io_errors.push(kept.clone());
                self.show_error(
                    "This recovery cannot be restored",
                    kept,
                    "Nothing was changed. The kept file is text: copy what you need from it.",
                );
                return false;
            }
        };
        let (mut doc, _) = Document::from_map(recovery.map, recovery.map_path);
        if let Some(path) = &recovery.scenario_path {
            let scenario = match recovery.scenario.clone() {
                Some(scenario) => Some(scenario),
                None => match crate::services::door::open_scenario_alone(path) {
                    Ok(scenario) => Some(scenario),
                    Err(error) => {
                        self.services.io_errors.push(error.to_string());
                        self.toast(format!(
                            "The map was recovered without its scenario: {error}"
                        ));
                        None
                    }
                },
            };
            if let Some(scenario) = scenario {
                doc.scenario = Some(ScenarioFile {
                    scenario,
                    path: path.clone(),
                });
            }
        }
        self.services.digitise.forget_scans();
        self.services.digitise.trust_scan(scan.as_deref());
        self.replace_document(doc, true);
        self.doc.disk = recovery.disk;
        self.report_io("remove the recovery file", remove_if_present(file));
        lock.release();
        self.write_recovery();
        self.toast(format!(
            "Recovered unsaved changes from {}",
            format_time(recovery.written_at)
        ));
        true
    }
}
