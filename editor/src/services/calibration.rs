//! The calibration tool: points clicked on the scan, each named by the hex whose centre it is;
//! the fit (similarity, affine, projective) made from them by `bataille-digitize`, each point's
//! residual in pixels, dropping a bad point; and the start for maps without printed numbers
//! (the first hex's centre and a neighbour's, or the first centre and the hex size). Each fit is
//! checked as `bataille digitize` checks it: a click the others disagree with is named, and a
//! fit kind too simple for the scan (a keystone fitted affine) is pointed out. The tool never
//! writes the document: it returns the new `Background` for the app to apply.

use bataille_digitize::calibrate::{
    CalibrationCheck, CalibrationError, Fit, calibrate, check, from_first_centre_and_size,
    min_points, start_kind,
};
use bataille_schema::map::{Background, ControlPoint, FitKind, Grid};
use bataille_schema::{HexIndex, HexName};

/// A clicked point and the hex name typed for it.
#[derive(Debug, Clone, PartialEq)]
pub struct PointRow {
    /// The hex name as typed (may be empty or wrong while typing).
    pub hex: String,
    /// Scan pixel clicked.
    pub x: f64,
    pub y: f64,
    /// The hex the current fit puts under the click (a hint while the name is empty).
    pub guess: Option<HexName>,
}

/// What the next click on the map does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClickTarget {
    /// Add a control point.
    AddPoint,
    /// The first hex's centre (maps without printed numbers).
    FirstCentre,
    /// The centre of the hex below the first.
    Neighbour,
}

/// The calibration tool's state.
#[derive(Debug, Clone)]
pub struct Calibration {
    pub points: Vec<PointRow>,
    pub kind: FitKind,
    /// The last fit of the named points, or why there is none.
    pub fit: Option<Result<Fit, String>>,
    /// Which rows the fit's residuals belong to.
    fitted_rows: Vec<usize>,
    /// What checking the named points found: a click the others disagree with, a fit kind too
    /// simple for the scan.
    pub check: CalibrationCheck,
    pub target: ClickTarget,
    /// The hex width typed (pixels between neighbouring centres), for "hex size".
    pub hex_size_text: String,
    /// The control points of the document last seen, to notice undo and reopen.
    synced: Option<Vec<ControlPoint>>,
}

impl Default for Calibration {
    fn default() -> Self {
        Self {
            points: Vec::new(),
            kind: FitKind::Affine,
            fit: None,
            fitted_rows: Vec::new(),
            check: CalibrationCheck::default(),
            target: ClickTarget::AddPoint,
            hex_size_text: String::new(),
            synced: None,
        }
    }
}

/// The fit kind's name in the UI.
pub fn kind_name(kind: FitKind) -> &'static str {
    match kind {
        FitKind::Similarity => "Similarity (rotate, scale)",
        FitKind::Affine => "Affine (skew, stretch)",
        FitKind::Projective => "Projective (photographed)",
    }
}

/// The fit kind's word in a sentence.
fn word(kind: FitKind) -> &'static str {
    match kind {
        FitKind::Similarity => "similarity",
        FitKind::Affine => "affine",
        FitKind::Projective => "projective",
    }
}

impl Calibration {
    /// Takes the document's control points when they changed behind the tool's back (undo,
    /// opening a map); rows being typed are kept otherwise.
    pub fn sync(&mut self, grid: &Grid, background: Option<&Background>) {
        let points = background.map(|b| b.control_points.clone());
        if self.synced == points {
            return;
        }
        self.points = points
            .iter()
            .flatten()
            .map(|p| PointRow {
                hex: p.hex.to_string(),
                x: p.x,
                y: p.y,
                guess: None,
            })
            .collect();
        if let Some(b) = background {
            self.kind = b.fit;
        }
        self.synced = points;
        self.refit_only(grid);
    }

    /// When the named clicks are too few for the kind asked but place the grid as a simpler
    /// kind: what that means and what to do.
    pub fn start_note(&self) -> Option<String> {
        let fit = self.fit.as_ref()?.as_ref().ok()?;
        if fit.kind == self.kind {
            return None;
        }
        let more = min_points(self.kind).saturating_sub(fit.residuals_px.len());
        Some(format!(
            "{} clicks place the grid as a {} fit: \"Refine on the print\" fits the {} kind on \
             the printed grid lines (or click {more} more hex {})",
            fit.residuals_px.len(),
            word(fit.kind),
            word(self.kind),
            if more == 1 { "centre" } else { "centres" }
        ))
    }

    /// The residual of a row in pixels, when it took part in the fit.
    pub fn residual(&self, row: usize) -> Option<f64> {
        let fit = self.fit.as_ref()?.as_ref().ok()?;
        let k = self.fitted_rows.iter().position(|r| *r == row)?;
        fit.residuals_px.get(k).copied()
    }

    /// The row of the click the others disagree with, if the check names one.
    pub fn suspect_row(&self) -> Option<usize> {
        let suspect = self.check.suspect.as_ref()?;
        self.fitted_rows.get(suspect.index).copied()
    }

    /// Why a row's name is not usable, if it is not.
    pub fn name_problem(&self, grid: &Grid, row: usize) -> Option<String> {
        let text = self.points.get(row)?.hex.trim();
        if text.is_empty() {
            return None;
        }
        grid.parse(text).err().map(|e| e.to_string())
    }

    /// The rows with a usable name, as control points, and their row numbers.
    fn named(&self, grid: &Grid) -> (Vec<ControlPoint>, Vec<usize>) {
        let mut points = Vec::new();
        let mut rows = Vec::new();
        for (i, row) in self.points.iter().enumerate() {
            let text = row.hex.trim();
            if let Ok(index) = grid.parse(text) {
                points.push(ControlPoint {
                    hex: grid.name(index),
                    x: row.x,
                    y: row.y,
                });
                rows.push(i);
            }
        }
        (points, rows)
    }

    /// Recomputes the fit (for the residuals) without proposing a change.
    fn refit_only(&mut self, grid: &Grid) -> Option<Fit> {
        let (points, rows) = self.named(grid);
        self.fitted_rows = rows;
        // Two clicks are enough to start any kind (issue 20): they place the grid as a
        // similarity (three as an affine map), and "Refine on the print" fits the kind asked.
        let kind = start_kind(self.kind, points.len());
        self.check = check(grid, &points, kind).unwrap_or_default();
        if points.len() < min_points(kind) {
            self.fit = (!points.is_empty()).then(|| {
                Err(CalibrationError::TooFewPoints {
                    kind: word(kind),
                    needed: min_points(kind),
                    got: points.len(),
                }
                .to_string())
            });
            return None;
        }
        match calibrate(grid, &points, kind) {
            Ok(fit) => {
                self.fit = Some(Ok(fit.clone()));
                Some(fit)
            }
            Err(error) => {
                self.fit = Some(Err(error.to_string()));
                None
            }
        }
    }

    /// Refits after the points, names or kind changed. Returns the background to store when
    /// it differs from the current one: the new fit with its points, or (with too few points
    /// for a fit) the old placement with the points that remain.
    pub fn refit(&mut self, grid: &Grid, current: &Background) -> Option<Background> {
        let fit = self.refit_only(grid);
        let (points, _) = self.named(grid);
        let next = match fit {
            Some(fit) => Background {
                image: current.image.clone(),
                fit: fit.kind,
                grid_to_image: fit.grid_to_image,
                control_points: points,
            },
            None => Background {
                control_points: points,
                ..current.clone()
            },
        };
        self.synced = Some(next.control_points.clone());
        (next != *current).then_some(next)
    }

    /// A click on the scan at pixel `px`; `under` is the hex the current placement puts there.
    pub fn click(
        &mut self,
        grid: &Grid,
        current: &Background,
        px: [f64; 2],
        under: Option<HexIndex>,
    ) -> Option<Background> {
        let guess = under.map(|h| grid.name(h));
        match self.target {
            ClickTarget::AddPoint => {
                // With a fit of a point or more, the hex under the click is the likely name: it
                // is filled in, selected, so that typing replaces it (issue 21: the second
                // point's suggestion was only a hint to retype).
                let fitted = !current.control_points.is_empty();
                self.points.push(PointRow {
                    hex: guess
                        .as_ref()
                        .filter(|_| fitted)
                        .map(ToString::to_string)
                        .unwrap_or_default(),
                    x: px[0],
                    y: px[1],
                    guess,
                });
                self.refit(grid, current)
            }
            ClickTarget::FirstCentre | ClickTarget::Neighbour => {
                let index = if self.target == ClickTarget::FirstCentre {
                    HexIndex::new(0, 0)
                } else {
                    HexIndex::new(0, 1.min(grid.rows.saturating_sub(1)))
                };
                let name = grid.name(index);
                self.kind = FitKind::Similarity;
                self.points.retain(|p| p.hex.trim() != name.as_str());
                self.points.push(PointRow {
                    hex: name.to_string(),
                    x: px[0],
                    y: px[1],
                    guess: None,
                });
                if self.target == ClickTarget::FirstCentre && grid.rows > 1 {
                    self.target = ClickTarget::Neighbour;
                } else {
                    self.target = ClickTarget::AddPoint;
                }
                self.refit(grid, current)
            }
        }
    }

    /// Drops a row and refits.
    pub fn drop_point(
        &mut self,
        grid: &Grid,
        current: &Background,
        row: usize,
    ) -> Option<Background> {
        if row < self.points.len() {
            self.points.remove(row);
        }
        self.refit(grid, current)
    }

    /// Places the grid from the first hex's clicked centre and the typed hex width.
    pub fn from_hex_size(
        &mut self,
        grid: &Grid,
        current: &Background,
    ) -> Result<Background, String> {
        let first = grid.name(HexIndex::new(0, 0));
        let row = self
            .points
            .iter()
            .find(|p| p.hex.trim() == first.as_str())
            .ok_or_else(|| format!("click the centre of the first hex ({first}) first"))?;
        let size: f64 = self
            .hex_size_text
            .trim()
            .replace(',', ".")
            .parse()
            .map_err(|_| format!("`{}` is not a number of pixels", self.hex_size_text.trim()))?;
        let matrix = from_first_centre_and_size([row.x, row.y], size).map_err(|e| e.to_string())?;
        let point = ControlPoint {
            hex: first,
            x: row.x,
            y: row.y,
        };
        self.points.retain(|p| p.hex.trim() == point.hex.as_str());
        self.kind = FitKind::Similarity;
        self.fit = None;
        self.fitted_rows.clear();
        self.check = CalibrationCheck::default();
        let next = Background {
            image: current.image.clone(),
            fit: FitKind::Similarity,
            grid_to_image: matrix,
            control_points: vec![point],
        };
        self.synced = Some(next.control_points.clone());
        Ok(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bataille_digitize::calibrate::apply;
    use bataille_schema::map::{HexNaming, Orientation, Shifted};

    fn grid() -> Grid {
        Grid {
            orientation: Orientation::Flat,
            shifted: Shifted::Odd,
            first_column: 1,
            first_row: 1,
            columns: 10,
            rows: 8,
            hex_names: HexNaming::default(),
        }
    }

    fn background() -> Background {
        Background {
            image: "scan.png".into(),
            fit: FitKind::Similarity,
            grid_to_image: [10.0, 0.0, 0.0, 0.0, 10.0, 0.0, 0.0, 0.0, 1.0],
            control_points: Vec::new(),
        }
    }

    #[test]
    fn named_points_fit_and_a_point_can_be_dropped() {
        let grid = grid();
        let truth = [30.0, 2.0, 50.0, -1.0, 31.0, 40.0, 0.0, 0.0, 1.0];
        let mut cal = Calibration::default();
        let mut bg = background();
        for (i, hex) in [(0, 0), (9, 0), (0, 7), (9, 7)].into_iter().enumerate() {
            let index = HexIndex::new(hex.0, hex.1);
            let [gx, gy] = grid.centre(index);
            let mut px = apply(&truth, [f64::from(gx), f64::from(gy)]);
            if i == 3 {
                px[0] += 25.0;
            }
            if let Some(next) = cal.click(&grid, &bg, px, None) {
                bg = next;
            }
            cal.points[i].hex = grid.name(index).to_string();
            if let Some(next) = cal.refit(&grid, &bg) {
                bg = next;
            }
        }
        assert_eq!(bg.control_points.len(), 4);
        // Four points cannot say which one is wrong (an affine fit spreads the error), but
        // every residual shows it.
        assert!((0..4).all(|i| cal.residual(i).unwrap_or(0.0) > 1.0));
        bg = cal.drop_point(&grid, &bg, 3).unwrap_or(bg);
        assert_eq!(bg.control_points.len(), 3);
        assert!(cal.residual(0).unwrap_or(1.0) < 1e-6);
        for (a, b) in bg.grid_to_image.iter().zip(&truth) {
            assert!((a - b).abs() < 1e-6, "{a} vs {b}");
        }
    }

    #[test]
    fn the_check_names_the_row_of_a_click_the_others_disagree_with() {
        let grid = grid();
        let truth = [30.0, 2.0, 50.0, -1.0, 31.0, 40.0, 0.0, 0.0, 1.0];
        let mut cal = Calibration::default();
        // A row not named yet comes first: the check's index is among the named rows.
        cal.points.push(PointRow {
            hex: String::new(),
            x: 5.0,
            y: 5.0,
            guess: None,
        });
        let hexes = [(0, 0), (9, 0), (0, 7), (9, 7), (4, 3), (6, 2)];
        for (k, (col, row)) in hexes.into_iter().enumerate() {
            let index = HexIndex::new(col, row);
            let [gx, gy] = grid.centre(index);
            let mut px = apply(&truth, [f64::from(gx), f64::from(gy)]);
            if k == 4 {
                px[0] += 10.0;
            }
            cal.points.push(PointRow {
                hex: grid.name(index).to_string(),
                x: px[0],
                y: px[1],
                guess: None,
            });
        }
        cal.refit(&grid, &background());
        assert_eq!(cal.suspect_row(), Some(5));
        let name = grid.name(HexIndex::new(4, 3));
        assert_eq!(
            cal.check.messages(),
            [format!(
                "{name} is 10.0 px from where the other five put it: re-click it or drop it"
            )]
        );
        // Dropped, the others agree.
        cal.drop_point(&grid, &background(), 5);
        assert_eq!(cal.suspect_row(), None);
        assert!(cal.check.messages().is_empty());
    }

    #[test]
    fn first_centre_and_neighbour_or_size() {
        let grid = grid();
        let mut cal = Calibration {
            target: ClickTarget::FirstCentre,
            ..Default::default()
        };
        let bg = background();
        let bg = cal.click(&grid, &bg, [100.0, 80.0], None).unwrap_or(bg);
        assert_eq!(bg.control_points.len(), 1);
        assert_eq!(cal.target, ClickTarget::Neighbour);
        let r = 20.0;
        let next = cal.click(&grid, &bg, [100.0, 80.0 + r * 3f64.sqrt()], None);
        let next = next.unwrap_or_else(background);
        assert_eq!(next.fit, FitKind::Similarity);
        let p = apply(&next.grid_to_image, [0.0, 0.0]);
        assert!((p[0] - 100.0).abs() < 1e-6 && (p[1] - 80.0).abs() < 1e-6);
        assert!((next.grid_to_image[0] - r).abs() < 1e-6);
        cal.hex_size_text = "34.64".into();
        let sized = cal
            .from_hex_size(&grid, &next)
            .unwrap_or_else(|_| background());
        assert!((sized.grid_to_image[0] - 34.64 / 3f64.sqrt()).abs() < 1e-9);
        cal.hex_size_text = "x".into();
        assert!(cal.from_hex_size(&grid, &next).is_err());
    }
}
