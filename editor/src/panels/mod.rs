//! Docks and dialogs: each a struct with its own state that reads the document and returns what
//! the user asked for.

pub mod command_view;
pub mod diagnostics;
pub mod export;
pub mod file_dialog;
pub mod legend;
pub mod map_settings;
pub mod new_scenario;
pub mod oob;
pub mod ratings;
pub mod scenario_settings;
pub mod unit_kinds;
pub mod widgets;
