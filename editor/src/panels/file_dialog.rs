//! The file dialog, in egui itself so that it works on every desktop (no zenity, kdialog or
//! portal needed): a typed path that always works, the listing of its folder (folders, then
//! Bataille files) to click through, a button to make a new folder, and — when saving into a
//! folder that does not exist — an offer to create it. It starts in the document's folder.

use std::path::{Path, PathBuf};

use egui::{Key, Ui};

use crate::services::files::PickPurpose;

/// One entry of the listed folder.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    name: String,
    is_dir: bool,
}

/// The dialog's state.
#[derive(Debug, Clone)]
pub struct FileDialog {
    pub purpose: PickPurpose,
    /// The typed path (a folder ending in `/`, or a file).
    pub text: String,
    /// The listing and the folder it is of.
    listing: Option<(PathBuf, Result<Vec<Entry>, String>)>,
    /// The name typed for a new folder, while making one.
    new_folder: Option<String>,
    /// The last failure (making a folder).
    pub error: Option<String>,
    /// File extensions listed (lowercase, no dot); folders are always listed.
    pub extensions: Vec<&'static str>,
    /// Given to a saved file's name when it has none (no dot).
    pub default_extension: &'static str,
    /// A click just entered a folder: the second click of that double click lands on the new
    /// listing's row under the pointer and must not open it.
    entered_folder: bool,
    /// The path field has had the keyboard once (it takes it when the dialog opens).
    focused: bool,
}

/// What the user did.
#[derive(Debug, Clone, PartialEq)]
pub enum FileOutcome {
    Open,
    Cancel,
    /// A path was chosen (for Save, its folder exists).
    Chosen(PathBuf),
}

impl FileDialog {
    /// A dialog for `purpose` starting at `start` (a file, or a folder), or in the current
    /// folder; paths are shown absolute so the user sees where they are.
    pub fn new(purpose: PickPurpose, start: Option<&Path>, default_name: &str) -> FileDialog {
        let text = match (purpose, start) {
            (p, Some(file)) if p.is_save() && !file.is_dir() => absolute(file),
            (_, Some(dir)) if dir.is_dir() => folder_text(&absolute_path(dir)),
            (PickPurpose::Open, Some(file)) => {
                folder_text(&absolute_path(file.parent().unwrap_or(Path::new("."))))
            }
            (_, _) if purpose.is_save() => absolute(Path::new(default_name)),
            (_, _) => folder_text(&absolute_path(Path::new("."))),
        };
        FileDialog {
            purpose,
            text,
            listing: None,
            new_folder: None,
            error: None,
            extensions: vec!["ron"],
            default_extension: "ron",
            entered_folder: false,
            focused: false,
        }
    }

    /// The folder the typed path is in (or is).
    pub fn folder(&self) -> PathBuf {
        let path = PathBuf::from(self.text.trim());
        if self.text.ends_with('/') || path.is_dir() {
            path
        } else {
            path.parent()
                .map_or_else(|| PathBuf::from("."), Path::to_owned)
        }
    }

    fn refresh(&mut self) {
        let folder = self.folder();
        if self.listing.as_ref().is_some_and(|(f, _)| *f == folder) {
            return;
        }
        let listed = list(&folder, &self.extensions);
        self.listing = Some((folder, listed));
    }

    /// The dialog's body. `title` heads it; returns what the user did.
    pub fn ui(&mut self, ui: &mut Ui, title: &str) -> FileOutcome {
        self.refresh();
        let mut outcome = FileOutcome::Open;
        ui.set_min_width(520.0);
        ui.heading(title);
        ui.horizontal(|ui| {
            let label = ui.label("File path");
            let edit = ui
                .add(egui::TextEdit::singleline(&mut self.text).desired_width(400.0))
                .labelled_by(label.id);
            if !self.focused {
                self.focused = true;
                edit.request_focus();
            }
            if edit.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
                outcome = self.choose();
            }
        });
        let folder = self.folder();
        ui.horizontal(|ui| {
            if ui
                .button("⬆ Up")
                .on_hover_text("The folder above")
                .clicked()
                && let Some(parent) = folder.parent()
            {
                self.text = self.with_folder(parent);
            }
            ui.weak(folder.display().to_string());
        });
        egui::ScrollArea::vertical()
            .max_height(260.0)
            .auto_shrink([false, true])
            .show(ui, |ui| match self.listing.clone() {
                Some((_, Ok(entries))) => {
                    if entries.is_empty() {
                        ui.weak("No folders or Bataille files here.");
                    }
                    for entry in entries {
                        let icon = if entry.is_dir { "📁" } else { "🗋" };
                        let row = ui.selectable_label(false, format!("{icon} {}", entry.name));
                        if row.double_clicked() && self.entered_folder {
                            // The second click of a double click that entered a folder.
                            self.entered_folder = false;
                            continue;
                        }
                        if row.clicked() {
                            self.entered_folder = entry.is_dir;
                            let path = folder.join(&entry.name);
                            if entry.is_dir {
                                self.text = self.with_folder(&path);
                            } else {
                                self.text = path.display().to_string();
                            }
                        }
                        if row.double_clicked() && !entry.is_dir {
                            outcome = self.choose();
                        }
                    }
                }
                Some((_, Err(error))) => {
                    ui.colored_label(egui::Color32::from_rgb(230, 80, 70), error);
                }
                None => {}
            });
        self.new_folder_ui(ui, &folder);
        let missing = self.purpose.is_save() && !folder.is_dir();
        if missing {
            ui.colored_label(
                egui::Color32::from_rgb(220, 160, 40),
                format!("The folder {} does not exist yet.", folder.display()),
            );
        }
        if let Some(error) = &self.error {
            ui.colored_label(egui::Color32::from_rgb(230, 80, 70), error);
        }
        ui.horizontal(|ui| {
            let ok = match (self.purpose, missing) {
                (PickPurpose::Open, _) => "Open",
                (_, false) => "Save",
                (_, true) => "Create folder and save",
            };
            if ui.button(ok).clicked() {
                outcome = self.choose();
            }
            if ui.button("Cancel").clicked() {
                outcome = FileOutcome::Cancel;
            }
        });
        outcome
    }

    fn new_folder_ui(&mut self, ui: &mut Ui, folder: &Path) {
        match self.new_folder.take() {
            None => {
                if ui.button("New folder…").clicked() {
                    self.new_folder = Some(String::new());
                }
            }
            Some(mut name) => {
                let mut keep = true;
                ui.horizontal(|ui| {
                    let label = ui.label("Folder name");
                    ui.text_edit_singleline(&mut name).labelled_by(label.id);
                    if ui.button("Create").clicked() && !name.trim().is_empty() {
                        let path = folder.join(name.trim());
                        match std::fs::create_dir_all(&path) {
                            Ok(()) => {
                                self.text = self.with_folder(&path);
                                self.listing = None;
                                self.error = None;
                                keep = false;
                            }
                            Err(e) => {
                                self.error = Some(format!("Could not make {}: {e}", path.display()))
                            }
                        }
                    }
                    if ui.button("Cancel").clicked() {
                        keep = false;
                    }
                });
                if keep {
                    self.new_folder = Some(name);
                }
            }
        }
    }

    /// The typed path with its folder replaced (the file name kept when saving).
    fn with_folder(&self, folder: &Path) -> String {
        let keep_name = self.purpose.is_save() && !self.text.ends_with('/');
        match PathBuf::from(self.text.trim()).file_name() {
            Some(name) if keep_name => folder.join(name).display().to_string(),
            _ => folder_text(folder),
        }
    }

    /// The chosen path; for Save, the default extension added when it has no extension and its folder made.
    fn choose(&mut self) -> FileOutcome {
        let text = self.text.trim();
        if text.is_empty() || text.ends_with('/') {
            return FileOutcome::Open;
        }
        let mut path = PathBuf::from(text);
        if path.is_dir() {
            self.text = folder_text(&path);
            return FileOutcome::Open;
        }
        if self.purpose.is_save() {
            if path.extension().is_none() {
                path.set_extension(self.default_extension);
            }
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty())
                && !parent.is_dir()
                && let Err(e) = std::fs::create_dir_all(parent)
            {
                self.error = Some(format!("Could not make {}: {e}", parent.display()));
                return FileOutcome::Open;
            }
        }
        FileOutcome::Chosen(path)
    }
}

fn absolute_path(path: &Path) -> PathBuf {
    bataille_schema::paths::absolute(path)
}

fn absolute(path: &Path) -> String {
    absolute_path(path).display().to_string()
}

fn folder_text(folder: &Path) -> String {
    let text = folder.display().to_string();
    if text.ends_with('/') {
        text
    } else {
        format!("{text}/")
    }
}

/// The folders and the files with one of `extensions` in `folder`, sorted, hidden ones left out.
fn list(folder: &Path, extensions: &[&str]) -> Result<Vec<Entry>, String> {
    let read = std::fs::read_dir(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let mut entries = Vec::new();
    for entry in read.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let is_dir = entry.path().is_dir();
        let wanted = is_dir
            || Path::new(&name)
                .extension()
                .is_some_and(|e| extensions.contains(&e.to_string_lossy().to_lowercase().as_str()));
        if wanted {
            entries.push(Entry { name, is_dir });
        }
    }
    entries.sort_by(|a, b| {
        (!a.is_dir, a.name.to_lowercase()).cmp(&(!b.is_dir, b.name.to_lowercase()))
    });
    Ok(entries)
}

/// Where the file dialog starts for a document never saved: beside its scan (a digitised map),
/// else in the folder of the last file opened (`recent`), with `name` typed (issue 21: both
/// started in the working folder).
pub fn start_for_unsaved(
    doc: &crate::model::document::Document,
    recent: &[PathBuf],
    name: &str,
) -> Option<PathBuf> {
    let scan = doc.map.background.as_ref().map(|b| PathBuf::from(&b.image));
    scan.into_iter()
        .chain(recent.iter().cloned())
        .filter_map(|p| p.parent().map(Path::to_owned))
        .find(|folder| folder.is_dir())
        .map(|folder| folder.join(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_folders_first_then_bataille_files() {
        let dir = tempfile::tempdir().expect("a temp dir");
        std::fs::create_dir(dir.path().join("maps")).expect("mkdir");
        std::fs::write(dir.path().join("b.ron"), "x").expect("write");
        std::fs::write(dir.path().join("a.txt"), "x").expect("write");
        std::fs::write(dir.path().join(".hidden.ron"), "x").expect("write");
        let names: Vec<String> = list(dir.path(), &["ron"])
            .expect("listed")
            .into_iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(names, ["maps", "b.ron"]);
    }

    #[test]
    fn saving_into_a_missing_folder_makes_it() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let target = dir.path().join("new/deeper/map");
        let mut dialog = FileDialog::new(PickPurpose::Save, Some(&target), "map.ron");
        assert_eq!(
            dialog.choose(),
            FileOutcome::Chosen(dir.path().join("new/deeper/map.ron"))
        );
        assert!(dir.path().join("new/deeper").is_dir());
    }
}
