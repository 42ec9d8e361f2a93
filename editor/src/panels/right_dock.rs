//! The right dock: its tab strip (order of battle, inspector, and digitise while digitising) and
//! the order-of-battle and inspector pages. The page shown is the dock's own state (others ask
//! for a page with `AppCommand::ShowDockTab`); the digitise page belongs to the digitising panel,
//! drawn by the app under this strip.

use bataille_schema::Id;
use egui::Ui;

use crate::context::ViewContext;
use crate::context::command::DockTab;
use crate::panels::inspector::Inspector;
use crate::panels::oob::OobPanel;
use crate::services::systems::Loaded;

/// The right dock's width when the editor starts; the user may drag it wider or narrower, and
/// nothing in it widens it by itself.
pub const RIGHT_DOCK_WIDTH: f32 = 320.0;

/// The docks' widths (left, right) in a window this wide, the left dock's full width being
/// `left`: their full widths from 1280 points
/// up, narrower below, so that at 1024 × 700 the map keeps more than half the window (it had
/// 410 of 1024 points, issue 21).
pub fn dock_widths(window_width: f32, left: f32) -> (f32, f32) {
    let right = RIGHT_DOCK_WIDTH;
    if window_width >= 1280.0 {
        return (left, right);
    }
    let share = (window_width / 1280.0).clamp(0.6, 1.0).powi(2);
    (
        (left * share).max(160.0).round(),
        (right * share).max(210.0).round(),
    )
}

/// The pages the dock shows.
#[derive(Default)]
pub struct RightDock {
    /// The page shown.
    pub tab: DockTab,
    pub oob: OobPanel,
    pub inspector: Inspector,
}

impl RightDock {
    /// The tab strip over the pages (the digitise tab is offered while digitising; its page
    /// gives way to the inspector when digitising ends). Returns the page to draw under it.
    pub fn tabs_ui(&mut self, ui: &mut Ui, digitise_open: bool) -> DockTab {
        if self.tab == DockTab::Digitise && !digitise_open {
            self.tab = DockTab::Inspector;
        }
        ui.horizontal(|ui| {
            for (page, name) in [
                (DockTab::Oob, "Order of battle"),
                (DockTab::Inspector, "Inspector"),
                (DockTab::Digitise, "Digitise"),
            ] {
                if page == DockTab::Digitise && !digitise_open {
                    continue;
                }
                ui.selectable_value(&mut self.tab, page, name);
            }
        });
        ui.separator();
        self.tab
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
