//! The Bataille desktop editor as a library: the app, its document model, edit commands, map
//! view, tools and panels, so that tests and benchmarks drive the real app state.
//!
//! Module map:
//! - [`app`]: `EditorApp`, actions, the file lifecycle (open, save, guard, recovery), dialogs;
//! - [`document`]: the edited map (and scenario) and its primitive reads and writes;
//! - [`commands`]: reversible `Change`s and the undo `History`;
//! - [`map_view`]: pan, zoom and chunked, cached meshes of the map;
//! - [`tools`]: the map tools and how pointer input becomes commands;
//! - [`panels`]: menus, tool bar, docks, status bar;
//! - [`legend`]: the legend editor; [`map_settings`]: map settings and new-map dialogs;
//! - [`diagnostics`]: the diagnostics panel and the seam to the validator;
//! - [`files`]: file picker trait, settings and recent files, recovery files;
//! - [`digitise`]: the Digitise menu and panel over [`scan`] (the scan under the grid),
//!   [`calibration`] (fitting the grid to the scan) and [`suggest`] (terrain and hexsides from
//!   the scan's colours), with [`jobs`] for the work done off the UI thread.

pub mod app;
pub mod calibration;
pub mod commands;
pub mod counters;
pub mod diagnostics;
pub mod digitise;
pub mod document;
pub mod files;
pub mod jobs;
pub mod legend;
pub mod map_settings;
pub mod map_view;
pub mod oob;
pub mod panels;
pub mod placement;
pub mod scan;
pub mod scenario_edit;
pub mod scenario_settings;
pub mod suggest;
pub mod tools;
pub mod validation;
pub mod zones;

pub use app::{Action, Dialog, EditorApp, EditorConfig};
