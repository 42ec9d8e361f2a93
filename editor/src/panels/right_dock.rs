//! The right dock: its tab strip (order of battle, inspector, and digitise while digitising) and
//! the order-of-battle and inspector pages. Choosing a tab sends `Command::ShowDockTab`; the
//! digitise page belongs to the digitising panel, drawn by the app under this strip.

use bataille_schema::Id;
use egui::Ui;

use crate::context::command::DockTab;
use crate::context::{Command, ViewContext};
use crate::panels::inspector::Inspector;
use crate::panels::oob::OobPanel;
use crate::services::systems::Loaded;

/// The right dock's width when the editor starts; the user may drag it wider or narrower, and
/// nothing in it widens it by itself.
pub const RIGHT_DOCK_WIDTH: f32 = 320.0;

/// The pages the dock shows.
#[derive(Default)]
pub struct RightDock {
    pub oob: OobPanel,
    pub inspector: Inspector,
}

impl RightDock {
    /// The tab strip over the pages: `tab` is the page shown (the digitise tab is offered while
    /// digitising). Returns the page to draw under it this frame.
    pub fn tabs_ui(
        &mut self,
        cx: &ViewContext<'_>,
        ui: &mut Ui,
        tab: DockTab,
        digitise_open: bool,
    ) -> DockTab {
        let mut shown = tab;
        ui.horizontal(|ui| {
            for (page, name) in [
                (DockTab::Oob, "Order of battle"),
                (DockTab::Inspector, "Inspector"),
                (DockTab::Digitise, "Digitise"),
            ] {
                if page == DockTab::Digitise && !digitise_open {
                    continue;
                }
                if ui.selectable_label(shown == page, name).clicked() && shown != page {
                    cx.send(Command::ShowDockTab(page));
                    shown = page;
                }
            }
        });
        ui.separator();
        shown
    }

    /// The order-of-battle or inspector page (the digitise page is not this panel's).
    pub fn page_ui(
        &mut self,
        cx: &ViewContext<'_>,
        ui: &mut Ui,
        tab: DockTab,
        systems: Vec<(Id, Loaded)>,
    ) {
        match tab {
            DockTab::Inspector => self.inspector.ui(cx, ui),
            DockTab::Oob => self.oob.ui(cx, ui, systems),
            DockTab::Digitise => {}
        }
    }
}
