//! Docks and dialogs: each a struct with its own state and a `ui` that reads the frame's
//! [`crate::context::ViewContext`] and sends `Command`s: the one way a panel asks for anything.
//! None imports the app; none holds `&mut Document`.

pub mod diagnostics;
pub mod dialogs;
pub mod digitise;
pub mod export;
pub mod field;
pub mod file_dialog;
pub mod file_safety;
pub mod inspector;
pub mod legend;
pub mod map_settings;
pub mod menu_bar;
pub mod new_scenario;
pub mod oob;
pub mod palette;
pub mod ratings;
pub mod right_dock;
pub mod scenario_settings;
pub mod status_bar;
pub mod table_window;
pub mod tool_bar;
pub mod tool_dock;
pub mod unit_kinds;
pub mod variant_base;
pub mod widgets;
