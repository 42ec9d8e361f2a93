//! The Bataille desktop editor as a library: the app, its document model, edit commands, map
//! view, tools and panels, so that tests and benchmarks drive the real app state.
//!
//! Layers, each depending only on the ones above it (checked by `tests/architecture.rs`):
//! - [`model`]: the document (map, scenario, revision), reversible changes, the undo history and
//!   the scenario operations — no egui;
//! - [`map`]: the map view (pan, zoom, cached chunk meshes), counters and the scan under the grid;
//! - [`services`]: validation (inline or on a worker), background jobs, files, recovery,
//!   calibration and the scan's suggestions;
//! - [`tools`]: the map tools, one per file, turning pointer input into changes;
//! - [`context`]: the commands (payload-free `UiCommand`s with their labels and keys, `AppCommand`s
//!   with data) and `ViewContext`, the read-only view of the editor every panel is handed each
//!   frame with the command sender;
//! - [`layers`]: map layers handed the context (the scenario on the map, the scan), which
//!   paint over the map view and turn pointer input into commands;
//! - [`panels`]: docks and dialogs handed the context, which send commands;
//! - [`app`]: `EditorApp`, the one handler that runs both kinds of commands and changes the document, the
//!   frame and the file lifecycle.

pub mod app;
pub mod context;
pub mod layers;
pub mod map;
pub mod model;
pub mod panels;
pub mod services;
pub mod tools;

pub use app::{AppCommand, Command, Dialog, EditorApp, EditorConfig, UiCommand};
