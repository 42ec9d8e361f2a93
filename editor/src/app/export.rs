//! File ▸ Export run by the app: the command opens the export dialog; Export copies the
//! document (as it is in memory, unsaved changes included) into a background job; the job's
//! progress shows in a corner with Cancel; its end is a toast, and a failure also an error
//! dialog and a line in `io_errors` — never dropped silently.

use std::path::PathBuf;

use crate::app::{Dialog, EditorApp};
use crate::panels::export::{ExportForm, ExportOutcome};
use crate::services::export::{ExportEnd, ExportInput, ExportKind, ExportRequest};
use crate::services::jobs::{Job, JobEnd};

/// The export running, if any, and what it writes.
#[derive(Default)]
pub struct Exports {
    pub job: Option<(ExportRequest, Job<Result<ExportEnd, String>>)>,
    /// How the last export ended (for tests): `Ok` with the toast's text, or the error.
    pub last: Option<Result<String, String>>,
}

impl EditorApp {
    /// File ▸ Export ▸ …: opens the dialog for `kind`.
    pub(crate) fn open_export(&mut self, kind: ExportKind) {
        let stem = crate::app::lifecycle::file_stem_of(
            &self
                .doc
                .scenario
                .as_ref()
                .map_or_else(|| self.doc.map.name.clone(), |s| s.scenario.title.clone()),
        );
        let form = ExportForm::new(
            kind,
            self.doc.document_path(),
            &stem,
            self.doc.scenario.is_some(),
        );
        self.dialog = Some(Dialog::Export(Box::new(form)));
    }

    /// The export dialog's frame; returns whether it stays open.
    pub(crate) fn export_dialog(&mut self, ctx: &egui::Context, form: &mut ExportForm) -> bool {
        let mut outcome = ExportOutcome::Open;
        egui::Modal::new(egui::Id::unique("export-dialog")).show(ctx, |ui| {
            outcome = form.ui(ui);
        });
        match outcome {
            ExportOutcome::Open => true,
            ExportOutcome::Cancel => false,
            ExportOutcome::Start(request) => {
                self.start_export(request);
                false
            }
        }
    }

    /// Starts an export of the document as it is now.
    pub fn start_export(&mut self, request: ExportRequest) {
        if self.exports.job.is_some() {
            self.toast("An export is already running: wait for it or cancel it.".into());
            return;
        }
        let map_dir = self
            .doc
            .map_path
            .as_deref()
            .and_then(std::path::Path::parent)
            .map_or_else(|| PathBuf::from("."), std::path::Path::to_owned);
        let input = ExportInput {
            map: self.doc.map.clone(),
            scenario: self.doc.scenario.as_ref().map(|s| s.scenario.clone()),
            map_dir,
        };
        let label = format!("Exporting the {}", request.kind.title());
        let job_request = request.clone();
        let job = Job::spawn(&label, &self.egui_ctx, move |progress| {
            crate::services::export::run(&job_request, &input, progress)
        });
        self.exports.job = Some((request, job));
    }

    /// Each frame: the running export's progress (with Cancel), and its end reported.
    pub(crate) fn export_frame(&mut self, ctx: &egui::Context) {
        let Some((request, job)) = &mut self.exports.job else {
            return;
        };
        let end = job.poll();
        let Some(end) = end else {
            let mut cancel = false;
            egui::Area::new(egui::Id::unique("export-progress"))
                .anchor(egui::Align2::RIGHT_BOTTOM, egui::vec2(-16.0, -96.0))
                .order(egui::Order::Foreground)
                .show(ctx, |ui| {
                    egui::Frame::popup(ui.style()).show(ui, |ui| {
                        ui.horizontal(|ui| {
                            let text = if job.is_cancelled() {
                                format!("{}: cancelling…", job.label)
                            } else {
                                format!("{} to {}…", job.label, request.out.display())
                            };
                            ui.add(egui::Spinner::new());
                            ui.label(text);
                            cancel = ui
                                .button("Cancel")
                                .on_hover_text("Stop before anything is written")
                                .clicked();
                        });
                    });
                });
            if cancel {
                job.cancel();
            }
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
            return;
        };
        let what = request.kind.title();
        let out = request.out.clone();
        self.exports.job = None;
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
                self.io_errors.push(text.clone());
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
        self.exports.last = Some(result);
    }
}
