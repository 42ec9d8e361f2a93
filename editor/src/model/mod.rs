//! The document model, with no egui: the map and scenario being edited, reversible changes and
//! the undo history, the scenario's operations.

pub mod defaults;
pub mod delete;
pub mod digitise_change;
pub mod document;
pub mod history;
pub mod legend;
pub mod oob_ops;
pub mod references;
pub mod resize;
pub mod scenario_edit;
pub mod selection;
pub mod templates;
pub mod variant;
pub mod variant_base;
