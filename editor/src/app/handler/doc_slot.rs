//! The slot the app keeps its document in: `&Document` for everybody through `Deref`, and
//! `&mut Document` only for its parent module, the handler (see the handler's compile-fail
//! examples), with the revisions the handler bumps and the undo history: the document and its
//! history have one owner.

use crate::model::document::Document;
use crate::model::history::History;

/// The document as the app holds it: read by everybody (`Deref`), written only by the handler.
pub struct DocSlot {
    pub(super) doc: Document,
    /// Bumped by every change applied (and by undo, redo, replacing the document).
    pub(super) revision: u64,
    /// Bumped when the scenario changed (the order of battle and counters rebuild from it).
    pub(super) scenario_revision: u64,
    /// Bumped when the map changed.
    pub(super) map_revision: u64,
    /// What the document's files held when the editor last read or wrote them (a save that
    /// would overwrite a file changed since asks first).
    pub(in crate::app) disk: crate::services::safety::DiskStamps,
    /// The undo history: read by everybody ([`DocSlot::history`]), kept by the app.
    pub(super) history: History,
}

impl std::ops::Deref for DocSlot {
    type Target = Document;
    fn deref(&self) -> &Document {
        &self.doc
    }
}

impl DocSlot {
    pub(in crate::app) fn new(doc: Document) -> DocSlot {
        DocSlot {
            doc,
            revision: 0,
            scenario_revision: 0,
            map_revision: 0,
            disk: Default::default(),
            history: History::new(),
        }
    }

    /// The undo history.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The document to change and the history recording it: for the handler only.
    pub(super) fn write_with_history(&mut self) -> (&mut Document, &mut History) {
        self.revision += 1;
        (&mut self.doc, &mut self.history)
    }

    /// What the document's files held when the editor last read or wrote them.
    pub fn disk(&self) -> &crate::services::safety::DiskStamps {
        &self.disk
    }

    /// The document's revision: changes whenever the document does.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Changes whenever the scenario does.
    pub fn scenario_revision(&self) -> u64 {
        self.scenario_revision
    }

    /// The document to change: for the handler only (its parent module).
    pub(super) fn write(&mut self) -> &mut Document {
        self.revision += 1;
        &mut self.doc
    }
}
