//! The "New scenario for this map…" dialog: the title, the date, the rules (a bundled game's
//! unit kinds, stacking and command rules, or another scenario's) and where to save it.

use std::path::{Path, PathBuf};

use egui::Ui;

use crate::context::command::DockTab;
use crate::context::{AppCommand, ViewContext};
use crate::model::history::Change;
use crate::model::templates::{BUNDLED_SCENARIOS, RulesSource};
use crate::panels::widgets::labelled_text;

/// What the dialog holds.
#[derive(Debug, Clone, PartialEq)]
pub struct NewScenarioForm {
    pub title: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    pub rules: RulesSource,
    /// Where the scenario will be saved.
    pub path: String,
    pub error: Option<String>,
}

impl NewScenarioForm {
    /// A form for the map at `map_path` titled `title`: saved beside the map by default.
    pub fn new(map_path: &Path, title: &str) -> NewScenarioForm {
        let stem = map_path
            .file_stem()
            .map_or_else(|| "map".to_owned(), |s| s.to_string_lossy().into_owned());
        let path = map_path.with_file_name(format!("{stem}-scenario.ron"));
        NewScenarioForm {
            title: title.to_owned(),
            date: String::new(),
            rules: RulesSource::Bundled(0),
            path: bataille_schema::paths::absolute(&path)
                .display()
                .to_string(),
            error: None,
        }
    }

    /// The scenario the form describes, for the map at `map_path` (its `map` field relative to
    /// where the scenario goes); `Err` says what to fix.
    pub fn scenario_file(
        &self,
        map_path: Option<&Path>,
    ) -> Result<crate::model::document::ScenarioFile, String> {
        let path = self.check()?;
        let rules = crate::model::templates::rules(
            &self.rules,
            crate::services::door::open_scenario_alone,
        )?;
        let Some(map_path) = map_path else {
            return Err("Save the map first: the scenario names the map's file.".into());
        };
        let map_field = bataille_schema::paths::reference_from(&path, map_path);
        crate::services::save::check_map_reference(&path, &map_field).map_err(|e| e.to_string())?;
        let mut scenario = crate::model::scenario_edit::new_scenario(self.title.trim(), &map_field);
        scenario.date = self.date.trim().to_owned();
        scenario.rules = rules;
        Ok(crate::model::document::ScenarioFile { scenario, path })
    }

    /// The dialog's body: Create scenario sends the new scenario (one undo step) and shows the
    /// order of battle; a form that does not read stays open with what to fix. Returns whether
    /// it stays open.
    pub fn ui(&mut self, cx: &ViewContext<'_>, ui: &mut Ui) -> bool {
        ui.set_min_width(480.0);
        ui.heading("New scenario");
        labelled_text(ui, "Title", &mut self.title);
        ui.horizontal(|ui| {
            let label = ui.label("Date");
            ui.add(egui::TextEdit::singleline(&mut self.date).hint_text("YYYY-MM-DD"))
                .labelled_by(label.id);
        });
        let name = |rules: &RulesSource| match rules {
            RulesSource::Bundled(i) => BUNDLED_SCENARIOS
                .get(*i)
                .map_or_else(String::new, |(title, _)| format!("{title}'s rules")),
            RulesSource::File(_) => "Another scenario's rules".to_owned(),
        };
        ui.horizontal(|ui| {
            let label = ui.label("Rules");
            egui::ComboBox::from_id_salt("new-scenario-rules")
                .selected_text(name(&self.rules))
                .show_ui(ui, |ui| {
                    let mut choices: Vec<RulesSource> = (0..BUNDLED_SCENARIOS.len())
                        .map(RulesSource::Bundled)
                        .collect();
                    choices.push(RulesSource::File(String::new()));
                    for choice in choices {
                        let selected = match (&self.rules, &choice) {
                            (RulesSource::File(_), RulesSource::File(_)) => true,
                            (a, b) => a == b,
                        };
                        if ui.selectable_label(selected, name(&choice)).clicked() {
                            self.rules = choice;
                        }
                    }
                })
                .response
                .labelled_by(label.id);
        });
        if let RulesSource::File(path) = &mut self.rules {
            labelled_text(ui, "Scenario file", path);
        }
        labelled_text(ui, "Save as", &mut self.path);
        if let Some(error) = &self.error {
            ui.colored_label(egui::Color32::from_rgb(230, 80, 70), error);
        }
        let mut open = true;
        ui.horizontal(|ui| {
            if ui.button("Create scenario").clicked() {
                match self.scenario_file(cx.doc.map_path.as_deref()) {
                    Ok(file) => {
                        cx.send(AppCommand::Edit {
                            label: "New scenario".to_owned(),
                            changes: vec![Change::AttachScenario {
                                before: None,
                                after: Some(Box::new(file)),
                            }],
                        });
                        cx.send(AppCommand::ShowDockTab(DockTab::Oob));
                        open = false;
                    }
                    Err(error) => self.error = Some(error),
                }
            }
            if ui.button("Cancel").clicked() {
                open = false;
            }
        });
        open
    }

    /// Checks the form: the date reads as `YYYY-MM-DD`, a title and a file are given.
    pub fn check(&self) -> Result<PathBuf, String> {
        if self.title.trim().is_empty() {
            return Err("Give the scenario a title.".into());
        }
        let date = self.date.trim();
        let parts: Vec<&str> = date.split('-').collect();
        let digits = |s: &str, n: usize| s.len() == n && s.chars().all(|c| c.is_ascii_digit());
        if !(parts.len() == 3 && digits(parts[0], 4) && digits(parts[1], 2) && digits(parts[2], 2))
        {
            return Err(format!(
                "“{date}” is not a date: write it YYYY-MM-DD (1712-07-24)."
            ));
        }
        let path = PathBuf::from(self.path.trim());
        if path.file_name().is_none() {
            return Err("Say where to save the scenario (a .ron file).".into());
        }
        Ok(if path.extension().is_none() {
            path.with_extension("ron")
        } else {
            path
        })
    }
}
