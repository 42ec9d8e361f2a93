//! Where the view stands when its rectangle changes: a fit asked for, made again while the
//! docks and panels settle over the first frames, and otherwise the map kept still on screen
//! (a panel beside it growing must not move it, as a paint program's canvas stays put).

use bataille_schema::map::Grid;
use egui::Rect;

use super::MapView;

impl MapView {
    /// Keeps every grid point at its screen place when the view's rectangle changes (the
    /// diagnostics list grew, a dock was hidden).
    /// A fitted view that only followed its rectangle is still "as fitted" (nobody touched it).
    pub fn follow_rect(&mut self, rect: Rect) {
        if let Some(old) = self.shown_in
            && old != rect
        {
            let untouched = self.fitted == Some((self.centre, self.zoom));
            self.centre += (rect.center() - old.center()) / self.zoom;
            if untouched {
                self.fitted = Some((self.centre, self.zoom));
            }
        }
        self.shown_in = Some(rect);
    }

    /// A fitted map nobody has zoomed or panned since is fitted again in the next frame's
    /// rectangle (the docks hidden or shown by the user: the map takes the room it was given).
    pub fn refit_if_untouched(&mut self) {
        if self.fitted == Some((self.centre, self.zoom)) {
            self.fit_pending = true;
        }
    }

    /// Before a frame is painted in `rect`: the fit asked for, or again while the rectangle
    /// settles and nothing moved the view (fitted once in a rectangle that then changes, the
    /// map would stay put off-centre); else the map stays where it was.
    pub fn place(&mut self, grid: &Grid, rect: Rect) {
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
