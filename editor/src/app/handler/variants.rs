//! What the Scenario menu's variant commands do (issue 25): open a variant of the open
//! scenario or the base of an opened variant (through the unsaved-changes guard), write the
//! open scenario's changes as a variant of its saved file and go on editing that variant, and
//! start an empty variant. Files are read through the door (`services::door`) and written
//! through the door out (the save's atomic writer); the variant is worked out by the schema's
//! `variant::diff`, never here.

use std::path::Path;

use bataille_schema::paths::reference_from;

use crate::app::{Dialog, EditorApp};
use crate::context::AppCommand;
use crate::model::document::VariantOrigin;
use crate::services::files::PickPurpose;

/// The variant's name a new file gives (its stem), until the user renames it.
fn name_of(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().replace(['-', '_'], " "))
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| "Variant".to_owned())
}

impl EditorApp {
    /// The scenario the open document's variants are of: the base of an opened variant, else
    /// the open scenario's file.
    fn variants_base_path(&self) -> Option<std::path::PathBuf> {
        match (&self.doc.variant, &self.doc.scenario) {
            (Some(origin), _) => Some(origin.base_path.clone()),
            (None, Some(file)) => Some(file.path.clone()),
            (None, None) => None,
        }
    }

    /// Looks for the open scenario's variants again (after an open, or a save that made or
    /// moved one), off the UI thread: the lists are replaced when the look ends
    /// ([`EditorApp::variants_frame`]).
    pub(crate) fn refresh_variants(&mut self) {
        let Some(base) = self.variants_base_path() else {
            self.set_variants(crate::services::door::VariantsBeside::default());
            return;
        };
        if !self.own.config.variants_off_thread {
            self.set_variants(crate::services::door::variants_beside(&base));
            return;
        }
        let for_base = base.clone();
        let job = crate::services::jobs::Job::spawn(
            "Looking for variants",
            &self.own.egui_ctx,
            move |_| crate::services::door::variants_beside(&for_base),
        );
        // A look still running for an older state is dropped (its thread ends on its own).
        self.services.variant_scan = Some((base, job));
    }

    /// Each frame: the look for variants, once ended, replaces the lists (and the open
    /// "Open variant…" dialog's) when it is for the base still open.
    pub(crate) fn variants_frame(&mut self) {
        let Some((base, job)) = &mut self.services.variant_scan else {
            return;
        };
        let Some(end) = job.poll() else {
            return;
        };
        let base = base.clone();
        self.services.variant_scan = None;
        match end {
            crate::services::jobs::JobEnd::Done(found)
                if self.variants_base_path().as_ref() == Some(&base) =>
            {
                self.set_variants(found);
            }
            crate::services::jobs::JobEnd::Done(_) => {}
            crate::services::jobs::JobEnd::Failed(error) => self.toast(error),
        }
    }

    fn set_variants(&mut self, found: crate::services::door::VariantsBeside) {
        if found.found != self.doc.variants_beside || found.not_read != self.doc.variants_not_read {
            let doc = self.doc.write();
            doc.variants_beside = found.found;
            doc.variants_not_read = found.not_read;
        }
        if let Some(Dialog::Variants(files)) = &mut self.ui.dialog {
            let here = self.doc.scenario.as_ref().map(|f| f.path.clone());
            *files = self
                .doc
                .variants_beside
                .iter()
                .filter(|v| Some(&v.path) != here.as_ref())
                .cloned()
                .collect();
        }
    }

    /// Whether a scenario is open to make or find variants of; says so when not.
    fn scenario_for_variants(&mut self) -> bool {
        if self.doc.scenario.is_some() {
            return true;
        }
        self.show_error(
            "No scenario is open",
            "Variants are made of a scenario.".to_owned(),
            "Open a scenario first (File › Open).",
        );
        false
    }

    /// "Open variant…": the variants of the open scenario (or of the variant's base), looked
    /// for again, in a dialog.
    pub(super) fn open_variant_list(&mut self) {
        if !self.scenario_for_variants() {
            return;
        }
        self.refresh_variants();
        let here = self.doc.scenario.as_ref().map(|f| f.path.clone());
        let files = self
            .doc
            .variants_beside
            .iter()
            .filter(|v| Some(&v.path) != here.as_ref())
            .cloned()
            .collect();
        self.ui.dialog = Some(Dialog::Variants(files));
    }

    /// "Open base scenario": an opened variant's base, through the unsaved-changes guard.
    pub(super) fn open_base_scenario(&mut self) {
        match &self.doc.variant {
            Some(origin) => {
                let base = origin.base_path.clone();
                self.run_app_command(AppCommand::OpenPath(base));
            }
            None => self.show_error(
                "This scenario is no variant",
                "Only a variant has a base scenario.".to_owned(),
                "Open a variant (Scenario › Open variant).",
            ),
        }
    }

    /// "Save as variant…" and "New variant…": the file dialog for the variant's file, offering
    /// a free name beside the base (`denain-1712-variant.ron`, `-variant-2`, …): the base's own
    /// name would be refused.
    pub(super) fn variant_path_dialog(&mut self, purpose: PickPurpose) {
        let Some(base) = self
            .variants_base_path()
            .filter(|_| self.scenario_for_variants())
        else {
            return;
        };
        let stem = base.file_stem().map_or_else(
            || "scenario".to_owned(),
            |s| s.to_string_lossy().into_owned(),
        );
        let start = (1..100)
            .map(|n| match n {
                1 => base.with_file_name(format!("{stem}-variant.ron")),
                n => base.with_file_name(format!("{stem}-variant-{n}.ron")),
            })
            .find(|p| std::fs::symlink_metadata(p).is_err())
            .unwrap_or_else(|| base.with_file_name(format!("{stem}-variant.ron")));
        let dialog = crate::panels::file_dialog::FileDialog::new(purpose, Some(&start), "");
        self.ui.dialog = Some(Dialog::Path {
            dialog: Box::new(dialog),
            then: None,
        });
    }

    /// Refuses a variant's path that is taken (a variant never replaces a file) or is not in
    /// the base's repository; `None` when it will do.
    fn variant_path_refused(&mut self, path: &Path, base_path: &Path) -> bool {
        let why = if std::fs::symlink_metadata(path).is_ok() {
            Some(format!("{} is already there", path.display()))
        } else {
            let root = bataille_schema::files::default_root(base_path);
            let written = reference_from(path, base_path);
            let beside = path.with_file_name("variant-probe.ron");
            bataille_schema::files::resolve_reference(&beside, &written, Some(&root))
                .err()
                .map(|e| format!("its base {written} would not be read from there: {e}"))
        };
        match why {
            Some(why) => {
                self.show_error(
                    &format!("Could not write the variant {}", path.display()),
                    why,
                    "Choose a new file name in the base scenario's repository (its scenarios/ \
                     folder, beside the base).",
                );
                true
            }
            None => false,
        }
    }

    /// Save as variant chose `path`: the open scenario's changes from the file it was opened
    /// from (as saved), written there as a variant of that file (with the map, when it has
    /// changes: the variant shares it); then the variant is opened and edited.
    pub(crate) fn save_as_variant_chosen(&mut self, path: &Path) {
        let Some(base_path) = self.variants_base_path() else {
            return;
        };
        if self.variant_path_refused(path, &base_path) {
            return;
        }
        let origin = match &self.doc.variant {
            // A variant saved as another: its changes, its name from the new file.
            Some(origin) => {
                let mut o = origin.clone();
                o.variant.name = name_of(path);
                o
            }
            None => match crate::services::door::variant_base(&base_path) {
                Ok(base) => VariantOrigin {
                    variant: bataille_schema::variant::diff(
                        &base,
                        &base,
                        &name_of(path),
                        &reference_from(path, &base_path),
                    ),
                    base,
                    base_path: base_path.clone(),
                },
                Err(why) => {
                    self.show_error(
                        "Could not read the saved scenario",
                        why,
                        "Save the scenario (File › Save), or open it again.",
                    );
                    return;
                }
            },
        };
        let before = self.doc.write().variant.replace(origin);
        // The save's own checks first: a file changed on disk is not written over here.
        let changed = crate::services::save::plan_save(&self.doc, path)
            .map(|plan| crate::services::safety::changed_on_disk(&plan.targets, &self.doc.disk));
        if let Ok(files) = &changed
            && !files.is_empty()
        {
            self.doc.write().variant = before;
            self.show_error(
                "Could not write the variant",
                format!(
                    "changed on disk since opened: {}",
                    files
                        .iter()
                        .map(|f| f.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                "Save the scenario first (File › Save) and answer about the changed files.",
            );
            return;
        }
        let then = Some(AppCommand::OpenPath(path.to_owned()).into());
        let saved = self.save_checked(path, then, false);
        let moved = self.doc.scenario.as_ref().is_some_and(|f| f.path == path);
        if !saved && !moved {
            // Not written: the document is the scenario it was, never a variant saved over
            // its base at the next Save. (Written without what a variant cannot hold, it is
            // the variant, kept unsaved.)
            self.doc.write().variant = before;
        }
    }

    /// New variant chose `path`: an empty variant of the open scenario's saved file (of the
    /// opened variant's base), written through the door out and opened.
    pub(crate) fn new_variant_chosen(&mut self, path: &Path) {
        let Some(base_path) = self.variants_base_path() else {
            return;
        };
        if self.variant_path_refused(path, &base_path) {
            return;
        }
        let variant = bataille_schema::Variant {
            format_version: bataille_schema::variant::VARIANT_FORMAT_VERSION,
            name: name_of(path),
            base: reference_from(path, &base_path),
            ..Default::default()
        };
        let written = bataille_schema::io::variant_to_string(&variant)
            .map_err(std::io::Error::other)
            .and_then(|text| bataille_schema::io::write_atomic(path, &text));
        match written {
            Ok(()) => {
                self.open_path(path);
            }
            Err(error) => self.show_error(
                &format!("Could not write the variant {}", path.display()),
                error.to_string(),
                "Check that the folder exists and that you may write there.",
            ),
        }
    }
}
