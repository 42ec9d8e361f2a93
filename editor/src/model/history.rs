//! Edit commands and the undo stack: every change to the document is a `Change` applied in one
//! place, recorded as the difference it made (cells with their old and new codes, a hexside
//! added or removed…), never as a copy of the map. A brush stroke or a drag is one `Edit`.

use bataille_schema::map::{HexsideType, OverlayType, TerrainType};
use bataille_schema::{HexIndex, HexName, HexsideRef, Id, Map};

use crate::model::document::{Document, ScenarioFile, Touched};
use crate::model::scenario_edit::ScenarioChange;

/// One hex's terrain before and after.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellChange {
    pub hex: HexIndex,
    pub before: char,
    pub after: char,
}

/// One reversible change to the document.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// Terrain codes of some hexes.
    Terrain(Vec<CellChange>),
    /// A hexside feature added (`present: true`) or removed.
    Hexside {
        feature: Id,
        side: HexsideRef,
        present: bool,
    },
    /// An overlay added or removed.
    Overlay {
        hex: HexName,
        overlay: Id,
        present: bool,
    },
    /// The paths of a line drawn through the hexes (a road): `overlay` → paths of neighbouring
    /// hexes (none: the entry removed).
    Paths {
        overlay: Id,
        before: Vec<String>,
        after: Vec<String>,
    },
    /// A label set, changed or removed.
    Label {
        hex: HexName,
        before: Option<String>,
        after: Option<String>,
    },
    /// A terrain type of the legend added, edited or removed.
    TerrainType {
        code: String,
        before: Option<TerrainType>,
        after: Option<TerrainType>,
    },
    /// An overlay type of the legend added, edited or removed.
    OverlayType {
        id: Id,
        before: Option<OverlayType>,
        after: Option<OverlayType>,
    },
    /// A hexside type of the legend added, edited or removed.
    HexsideType {
        id: Id,
        before: Option<HexsideType>,
        after: Option<HexsideType>,
    },
    /// The map's title.
    MapName { before: String, after: String },
    /// A structural change of the grid (resize, renumbering): the one change that keeps both
    /// maps, since every hex may move.
    Grid { before: Box<Map>, after: Box<Map> },
    /// The scan under the map and its fit, or the hexes checked against it.
    Digitise(crate::model::digitise_change::DigitiseChange),
    /// A change to the scenario (order of battle, placement, zones, settings).
    Scenario(ScenarioChange),
    /// A scenario started for the map (or taken away again by undo).
    AttachScenario {
        before: Option<Box<ScenarioFile>>,
        after: Option<Box<ScenarioFile>>,
    },
}

impl Change {
    /// Applies the change forwards (`redo`) or backwards (`undo`).
    pub fn apply(&self, doc: &mut Document, forward: bool) -> Touched {
        match self {
            Change::Terrain(cells) => {
                let mut touched = Vec::with_capacity(cells.len());
                if forward {
                    for cell in cells {
                        doc.set_code(cell.hex, cell.after);
                        touched.push(cell.hex);
                    }
                } else {
                    for cell in cells.iter().rev() {
                        doc.set_code(cell.hex, cell.before);
                        touched.push(cell.hex);
                    }
                }
                Touched::hexes(touched)
            }
            Change::Hexside {
                feature,
                side,
                present,
            } => {
                doc.set_hexside(feature, side, *present == forward);
                Touched {
                    sides: vec![side.clone()],
                    ..Default::default()
                }
            }
            Change::Overlay {
                hex,
                overlay,
                present,
            } => {
                doc.set_overlay(hex, overlay, *present == forward);
                Touched::hexes(doc.map.grid.lookup(hex).into_iter().collect())
            }
            Change::Paths {
                overlay,
                before,
                after,
            } => {
                let value = if forward { after } else { before };
                if value.is_empty() {
                    doc.map.paths.remove(overlay);
                } else {
                    doc.map.paths.insert(overlay.clone(), value.clone());
                }
                let grid = &doc.map.grid;
                let hexes = bataille_digitize::paths::hexes_of_paths(grid, before)
                    .union(&bataille_digitize::paths::hexes_of_paths(grid, after))
                    .copied()
                    .collect();
                Touched::hexes(hexes)
            }
            Change::Label { hex, before, after } => {
                let value = if forward { after } else { before };
                match value {
                    Some(text) => {
                        doc.map.labels.insert(hex.clone(), text.clone());
                    }
                    None => {
                        doc.map.labels.remove(hex);
                    }
                }
                Touched::hexes(doc.map.grid.lookup(hex).into_iter().collect())
            }
            Change::TerrainType {
                code,
                before,
                after,
            } => {
                doc.set_terrain_type(code, if forward { after } else { before }.clone());
                Touched::all()
            }
            Change::OverlayType { id, before, after } => {
                doc.set_overlay_type(id, if forward { after } else { before }.clone());
                Touched::all()
            }
            Change::HexsideType { id, before, after } => {
                doc.set_hexside_type(id, if forward { after } else { before }.clone());
                Touched::all()
            }
            Change::MapName { before, after } => {
                doc.map.name = if forward { after } else { before }.clone();
                Touched::default()
            }
            Change::Grid { before, after } => {
                doc.map = if forward { after } else { before }.as_ref().clone();
                Touched::all()
            }
            Change::Digitise(change) => change.apply(doc, forward),
            Change::Scenario(change) => change.apply(doc, forward),
            Change::AttachScenario { before, after } => {
                doc.scenario = if forward { after } else { before }.as_deref().cloned();
                Touched {
                    scenario: true,
                    ..Default::default()
                }
            }
        }
    }

    /// Whether applying it would change nothing.
    pub fn is_noop(&self) -> bool {
        match self {
            Change::Terrain(cells) => cells.iter().all(|c| c.before == c.after),
            Change::Label { before, after, .. } => before == after,
            Change::Paths { before, after, .. } => before == after,
            Change::TerrainType { before, after, .. } => before == after,
            Change::OverlayType { before, after, .. } => before == after,
            Change::HexsideType { before, after, .. } => before == after,
            Change::MapName { before, after } => before == after,
            Change::Grid { before, after } => before == after,
            Change::Digitise(change) => change.is_noop(),
            Change::Scenario(change) => change.is_noop(),
            Change::AttachScenario { before, after } => before == after,
            Change::Hexside { .. } | Change::Overlay { .. } => false,
        }
    }
}

/// One undo step: a label for the Edit menu and the changes in the order they were applied.
#[derive(Debug, Clone, PartialEq)]
pub struct Edit {
    pub label: String,
    pub changes: Vec<Change>,
}

/// The undo and redo stacks, with the open group of a stroke in progress.
#[derive(Debug, Default)]
pub struct History {
    undo: Vec<Edit>,
    redo: Vec<Edit>,
    open: Option<Edit>,
    /// The undo depth at the last save; `None` when that state can no longer be reached.
    saved_depth: Option<usize>,
    /// Edits committed since the document was created (for periodic recovery).
    committed: u64,
}

impl History {
    /// A history whose current state is the saved one.
    pub fn new() -> History {
        History {
            saved_depth: Some(0),
            ..Default::default()
        }
    }

    /// Starts a group: every change applied until `end_group` is one undo step.
    pub fn begin_group(&mut self, label: &str) {
        if self.open.is_none() {
            self.open = Some(Edit {
                label: label.to_owned(),
                changes: Vec::new(),
            });
        }
    }

    pub fn group_open(&self) -> bool {
        self.open.is_some()
    }

    /// Closes the open group, recording it when it changed anything; returns whether it did.
    pub fn end_group(&mut self) -> bool {
        match self.open.take() {
            Some(edit) if !edit.changes.is_empty() => {
                self.push(edit);
                true
            }
            _ => false,
        }
    }

    fn push(&mut self, edit: Edit) {
        if let Some(depth) = self.saved_depth
            && depth > self.undo.len()
        {
            // The saved state was on the redo stack, which is now dropped.
            self.saved_depth = None;
        }
        self.undo.push(edit);
        self.redo.clear();
        self.committed += 1;
    }

    /// Applies a change to the document and records it (in the open group, or as its own step).
    pub fn apply(&mut self, doc: &mut Document, label: &str, change: Change) -> Touched {
        if change.is_noop() {
            return Touched::default();
        }
        let touched = change.apply(doc, true);
        match &mut self.open {
            Some(edit) => {
                // Consecutive terrain changes of one stroke are kept in one list.
                if let (Some(Change::Terrain(cells)), Change::Terrain(new_cells)) =
                    (edit.changes.last_mut(), &change)
                {
                    cells.extend_from_slice(new_cells);
                } else if let (
                    Some(Change::Scenario(ScenarioChange::ZoneHexes {
                        zone,
                        hexes,
                        present,
                    })),
                    Change::Scenario(ScenarioChange::ZoneHexes {
                        zone: new_zone,
                        hexes: new_hexes,
                        present: new_present,
                    }),
                ) = (edit.changes.last_mut(), &change)
                    && zone == new_zone
                    && present == new_present
                {
                    // A zone stroke keeps one list of the hexes it added or removed.
                    hexes.extend_from_slice(new_hexes);
                } else {
                    edit.changes.push(change);
                }
            }
            None => self.push(Edit {
                label: label.to_owned(),
                changes: vec![change],
            }),
        }
        touched
    }

    /// Undoes the last step; returns what it touched, or `None` with nothing to undo.
    pub fn undo(&mut self, doc: &mut Document) -> Option<Touched> {
        self.end_group();
        let edit = self.undo.pop()?;
        let mut touched = Touched::default();
        for change in edit.changes.iter().rev() {
            touched = touched.merge(change.apply(doc, false));
        }
        self.redo.push(edit);
        Some(touched)
    }

    /// Redoes the last undone step.
    pub fn redo(&mut self, doc: &mut Document) -> Option<Touched> {
        self.end_group();
        let edit = self.redo.pop()?;
        let mut touched = Touched::default();
        for change in &edit.changes {
            touched = touched.merge(change.apply(doc, true));
        }
        self.undo.push(edit);
        Some(touched)
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty() || self.open.as_ref().is_some_and(|e| !e.changes.is_empty())
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    pub fn undo_label(&self) -> Option<&str> {
        self.undo.last().map(|e| e.label.as_str())
    }

    pub fn redo_label(&self) -> Option<&str> {
        self.redo.last().map(|e| e.label.as_str())
    }

    /// Whether the document differs from what was last saved.
    pub fn is_dirty(&self) -> bool {
        self.saved_depth != Some(self.undo.len())
            || self.open.as_ref().is_some_and(|e| !e.changes.is_empty())
    }

    /// Marks the current state as saved.
    pub fn mark_saved(&mut self) {
        self.end_group();
        self.saved_depth = Some(self.undo.len());
    }

    /// Marks the document as differing from any file (e.g. restored from a recovery file).
    pub fn mark_unsaved(&mut self) {
        self.saved_depth = None;
    }

    /// Edits committed so far.
    pub fn committed(&self) -> u64 {
        self.committed
    }

    pub fn undo_depth(&self) -> usize {
        self.undo.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::document::NewMapSettings;

    #[test]
    fn stroke_is_one_step_and_undo_restores_cells() {
        let mut doc = Document::new_map(&NewMapSettings::default());
        let original = doc.map.clone();
        let mut history = History::new();
        history.begin_group("Paint");
        for col in 0..5 {
            let hex = HexIndex::new(col, 1);
            let before = doc.code(hex).unwrap_or('c');
            history.apply(
                &mut doc,
                "Paint",
                Change::Terrain(vec![CellChange {
                    hex,
                    before,
                    after: 'f',
                }]),
            );
        }
        assert!(history.end_group());
        assert_eq!(history.undo_depth(), 1);
        assert!(history.is_dirty());
        assert!(history.undo(&mut doc).is_some());
        assert_eq!(doc.map, original);
        assert!(!history.is_dirty());
        history.redo(&mut doc);
        assert_eq!(doc.code(HexIndex::new(4, 1)), Some('f'));
    }

    #[test]
    fn saved_state_lost_after_branching() {
        let mut doc = Document::new_map(&NewMapSettings::default());
        let mut history = History::new();
        let paint = |after| {
            Change::Terrain(vec![CellChange {
                hex: HexIndex::new(0, 0),
                before: 'c',
                after,
            }])
        };
        history.apply(&mut doc, "a", paint('f'));
        history.mark_saved();
        history.undo(&mut doc);
        assert!(history.is_dirty());
        history.apply(&mut doc, "b", paint('m'));
        assert!(history.is_dirty());
        history.undo(&mut doc);
        assert!(history.is_dirty());
    }
}
