//! Where the view stands when its rectangle changes: a fit asked for, made again while the
//! docks and panels settle over the first frames, and otherwise the map kept still on screen
//! (a panel beside it growing must not move it, as a paint program's canvas stays put).

use bataille_schema::map::Grid;
use egui::Rect;

use super::MapView;

impl MapView {
    /// Keeps every grid point at its screen place when the view's rectangle changes (the
    /// diagnostics list grew, a dock was hidden).
    pub fn follow_rect(&mut self, rect: Rect) {
        if let Some(old) = self.shown_in
            && old != rect
        {
            self.centre += (rect.center() - old.center()) / self.zoom;
        }
        self.shown_in = Some(rect);
    }

    /// Before a frame is painted in `rect`: the fit asked for, or again while the rectangle
    /// settles and nothing moved the view (fitted once in a rectangle that then changes, the
    /// map would stay put off-centre); else the map stays where it was.
    pub(super) fn place(&mut self, grid: &Grid, rect: Rect) {
        let settled = self.shown_in == Some(rect);
        let untouched = self.fitted == Some((self.centre, self.zoom));
        self.follow_rect(rect);
        if self.fit_pending || (self.settling && untouched && !settled) {
            self.fit(grid, rect);
            self.settling = !settled;
        } else {
            self.settling = false;
        }
    }
}
