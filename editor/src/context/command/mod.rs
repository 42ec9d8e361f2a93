//! Everything a user can ask the editor, as data, in two kinds (as rerun's viewer keeps
//! `UICommand` and `SystemCommand` apart):
//!
//! - [`UiCommand`] (`ui`): a plain enum without data, each with its label, tooltip and shortcuts
//!   defined once. Menus, the tool bar, the command palette, the shortcut sheet and the key
//!   handler read only these.
//! - [`AppCommand`] (`app`): what panels, dialogs, tools and map layers ask for with its data (an
//!   edit, a path, a hex); no label, no key.
//!
//! Both travel in one queue as a [`Command`]; `EditorApp::execute` (in `app::handler`) is the one
//! place they run, and the one place a UI command becomes what the app does.

mod app;
mod ui;

pub use app::{AppCommand, DigitiseTab, DockTab, FileCommand};
pub use ui::{MAP_KEYS, POINTER_GESTURES, UiCommand, shortcut_label};

/// A queued command: one of the two kinds.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Ui(UiCommand),
    App(AppCommand),
}

impl From<UiCommand> for Command {
    fn from(command: UiCommand) -> Self {
        Command::Ui(command)
    }
}

impl From<AppCommand> for Command {
    fn from(command: AppCommand) -> Self {
        Command::App(command)
    }
}

impl From<FileCommand> for Command {
    fn from(command: FileCommand) -> Self {
        Command::App(AppCommand::File(command))
    }
}
