//! File ▸ Export: the command opens the export dialog; Export copies the document (as it is
//! in memory, unsaved changes included, with the scan only when the editor may read it) into a
//! background job; its progress shows in a corner with Cancel
//! (`panels::export::progress_corner`); its end is a toast, and a failure also an error dialog
//! and a line in `io_errors` — never dropped silently.

use std::time::{Duration, Instant};

use crate::app::*;
use crate::services::export::{ExportEnd, ExportInput, ExportRequest};
use crate::services::jobs::{Job, JobEnd};

/// The export running, if any, and what it writes.
#[derive(Default)]
pub struct Exports {
    pub job: Option<(ExportRequest, Job<Result<ExportEnd, String>>)>,
    /// How the last export ended (for tests): `Ok` with the toast's text, or the error.
    pub last: Option<Result<String, String>>,
    /// When Cancel was clicked on the running export.
    pub cancelled_at: Option<Instant>,
}

/// How long a cancelled export may take to stop before the editor leaves it behind.
pub const EXPORT_GIVE_UP: Duration = Duration::from_secs(2);

impl EditorApp {
    // -----------------------------------------------------------------------------------------
    // File ▸ Export: the dialog, the job, its end reported (never dropped silently).

    /// Starts an export of the document as it is now.
    pub fn start_export(&mut self, request: ExportRequest) {
        if self.services.exports.job.is_some() {
            self.toast("An export is already running: wait for it or cancel it.".into());
            return;
        }
        let input = ExportInput {
            map: self.doc.map.clone(),
            scenario: self.doc.scenario.as_ref().map(|s| s.scenario.clone()),
            scan: self.services.digitise.trusted_scan(&self.doc),
        };
        if let Some(folder) = request.folder() {
            self.ui.settings.export_folder = Some(folder);
        }
        let label = format!("Exporting the {}", request.kind.title());
        let job_request = request.clone();
        let job = Job::spawn(&label, &self.own.egui_ctx, move |progress| {
            crate::services::export::run(&job_request, &input, progress)
        });
        self.services.exports.job = Some((request, job));
    }

    /// Each frame: the running export's progress (with Cancel), and its end reported.
    pub(crate) fn export_frame(&mut self, ctx: &egui::Context) {
        let Some((request, job)) = &mut self.services.exports.job else {
            return;
        };
        let end = job.poll();
        // A job that does not stop within a few seconds of Cancel (stuck in a system call) is
        // left behind: it writes nothing after Cancel, and the editor may export again.
        let stuck = self
            .services
            .exports
            .cancelled_at
            .is_some_and(|at| at.elapsed() > EXPORT_GIVE_UP);
        let end = match end {
            None if stuck => Some(JobEnd::Done(Ok(ExportEnd::Cancelled))),
            end => end,
        };
        let Some(end) = end else {
            let text = if job.is_cancelled() {
                format!("{}: cancelling…", job.label)
            } else {
                format!("{} to {}…", job.label, request.out.display())
            };
            if crate::panels::export::progress_corner(ctx, &text) {
                job.cancel();
                self.services
                    .exports
                    .cancelled_at
                    .get_or_insert_with(Instant::now);
            }
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
            return;
        };
        let what = request.kind.title();
        let out = request.out.clone();
        self.services.exports.job = None;
        self.services.exports.cancelled_at = None;
        let result = match end {
            JobEnd::Done(Ok(ExportEnd::Written(text))) => Ok(format!("Exported the {text}")),
            JobEnd::Done(Ok(ExportEnd::Cancelled)) => Ok(format!(
                "Export cancelled: {} was not written",
                out.display()
            )),
            JobEnd::Done(Err(error)) | JobEnd::Failed(error) => Err(error),
        };
        match &result {
            Ok(text) => self.toast(text.clone()),
            Err(error) => {
                let text = format!("Could not export the {what} to {}: {error}", out.display());
                self.services.io_errors.push(text.clone());
                self.toast(text);
                if self.no_modal_open() {
                    self.show_error(
                        &format!("Could not export the {what}"),
                        error.clone(),
                        "Nothing was written. Check the destination folder and the options, \
                         then export again (File › Export).",
                    );
                }
            }
        }
        self.services.exports.last = Some(result);
    }
}
