//! Refining the calibration on the print, as `bataille digitize` does: from the named clicks
//! (two are enough), the grid is fitted on the printed grid lines over the whole sheet by
//! `bataille_digitize::refine` on a background thread; each click is then judged against the
//! print, and the hexes that are not on the print (the map's shape) are listed. The result is a
//! new `Background` (the print's matrix, the clicks kept) for the panel to send as one undo
//! step. The refinement's local correction (a scan's bow, a photo's lens) is not in the map
//! file: it is kept here, with the scan and the background it was fitted for, and the
//! classifications read the scan with it while both are still the document's
//! ([`PrintRefine::mapping`]).

use std::sync::{Arc, Weak};

use bataille_digitize::GridMapping;
use bataille_digitize::refine::{Calibrated, RefineOptions, calibrate_on_print};
use bataille_digitize::scan::Scan;
use bataille_digitize::shape::{FileShape, Place, from_printed_sides, from_scan_bounds};
use bataille_schema::HexName;
use bataille_schema::map::{Background, FitKind, Grid};

use crate::services::jobs::{Job, JobEnd};

type RefineJob = Job<Result<(Calibrated, Vec<(HexName, Place)>, FileShape), String>>;

/// What the last refinement found.
#[derive(Debug, Clone, PartialEq)]
pub struct RefineReport {
    /// One line: how many hexsides show the line, the RMS, the local correction.
    pub summary: String,
    /// The clicks the print disagrees with, one sentence each.
    pub suspects: Vec<String>,
    /// Hexes on the grid's edge that are not (wholly) on the print: half hexes to confirm.
    pub half: Vec<HexName>,
    /// Hexes not on the print at all.
    pub off: Vec<HexName>,
    /// The shape as the map file would write it (`short_lines` or `half_hexes`), for the
    /// user to confirm.
    pub shape: FileShape,
    /// Whether the print showed grid lines (otherwise the clicks' fit stands).
    pub printed: bool,
}

/// The refinement tool's state.
#[derive(Default)]
pub struct PrintRefine {
    pub job: Option<RefineJob>,
    pub report: Option<RefineReport>,
    pub error: Option<String>,
    /// The scan being refined.
    refining: Weak<Scan>,
    /// The last refinement's mapping (with its local correction), for the scan and the
    /// background it was fitted for.
    fitted: Option<(Weak<Scan>, Background, GridMapping)>,
    /// The clicks changed since the refinement and the print's matrix was kept
    /// ([`PrintRefine::keep_refined`]).
    pub kept: bool,
}

/// The same placement of the grid on the same image: the clicks may differ (a click added or
/// dropped after refining does not move the grid the print placed).
fn same_placement(a: &Background, b: &Background) -> bool {
    a.image == b.image && a.fit == b.fit && a.grid_to_image == b.grid_to_image
}

/// The names of the hexes in `place`, for a report.
fn names(list: &[(HexName, Place)], place: Place) -> Vec<HexName> {
    list.iter()
        .filter(|(_, p)| *p == place)
        .map(|(n, _)| n.clone())
        .collect()
}

impl PrintRefine {
    pub fn busy(&self) -> bool {
        self.job.is_some()
    }

    /// How to read `scan` by the grid under `background`: the last refinement's mapping with
    /// its local correction when it was fitted on this scan for this background (the user
    /// has not calibrated again or changed the scan since), else the background's matrix.
    pub fn mapping(&self, scan: &Arc<Scan>, background: &Background) -> GridMapping {
        match &self.fitted {
            Some((on, fitted, mapping))
                if Weak::ptr_eq(on, &Arc::downgrade(scan))
                    && same_placement(fitted, background) =>
            {
                mapping.clone()
            }
            _ => GridMapping::global(background.grid_to_image),
        }
    }

    /// Whether `background` places the grid where the last refinement on the print did.
    pub fn refined(&self, background: &Background) -> bool {
        self.fitted
            .as_ref()
            .is_some_and(|(_, fitted, _)| same_placement(fitted, background))
    }

    /// A refit of the clicks (`next`, proposed from `current`: a click added, dropped or
    /// renamed, another fit kind): when `current` is the placement refined on the print, the
    /// print's matrix stays and only the clicks change (a fit of a few clicks is coarser than
    /// one on every printed line; "Refine on the print" again fits the changed clicks), and
    /// [`PrintRefine::kept`] says so. Otherwise `next` as it is. `None` when nothing changes.
    pub fn keep_refined(&mut self, current: &Background, next: Background) -> Option<Background> {
        let next = if self.refined(current) && next.image == current.image {
            if next.grid_to_image != current.grid_to_image || next.fit != current.fit {
                self.kept = true;
            }
            Background {
                control_points: next.control_points,
                ..current.clone()
            }
        } else {
            next
        };
        (next != *current).then_some(next)
    }

    /// Starts refining the background's clicks on the scan, fitting `kind` on the print (the
    /// kind the user asked: two clicks place the background as a similarity only).
    pub fn start(
        &mut self,
        ctx: &egui::Context,
        scan: Arc<Scan>,
        grid: &Grid,
        background: &Background,
        kind: FitKind,
    ) {
        self.error = None;
        self.refining = Arc::downgrade(&scan);
        let grid = grid.clone();
        let points = background.control_points.clone();
        self.job = Some(Job::spawn("Refining on the print", ctx, move |_| {
            let calibrated =
                calibrate_on_print(&scan, &grid, &points, kind, &RefineOptions::default())
                    .map_err(|e| e.to_string())?;
            let shape = match &calibrated.refinement {
                Ok(r) => from_printed_sides(
                    &grid,
                    &r.printed_sides,
                    &|i| r.centre(&grid, i),
                    scan.width(),
                    scan.height(),
                ),
                Err(_) => from_scan_bounds(
                    &grid,
                    &calibrated.grid_to_image(),
                    scan.width(),
                    scan.height(),
                ),
            };
            let places = grid
                .indices()
                .map(|i| (grid.name(i), shape.place(&grid, i)))
                .filter(|(_, p)| *p != Place::On)
                .collect();
            Ok((calibrated, places, shape.for_file(&grid)))
        }));
    }

    /// Collects a finished refinement: the new background to send (the print's matrix with
    /// the same clicks), when it differs from `current`.
    pub fn poll(&mut self, current: &Background) -> Option<Background> {
        let end = self.job.as_mut().and_then(Job::poll)?;
        self.job = None;
        self.kept = false;
        let (calibrated, places, shape) = match end {
            JobEnd::Done(Ok(done)) => done,
            JobEnd::Done(Err(e)) | JobEnd::Failed(e) => {
                self.error = Some(e);
                return None;
            }
        };
        let (summary, printed) = match &calibrated.refinement {
            Ok(r) => {
                let mut text = format!(
                    "{} of {} hexsides show the printed line; {:.2} px RMS",
                    r.lines_found, r.sides_probed, r.rms_px
                );
                if let Some(w) = &r.mapping.warp {
                    text.push_str(&format!(
                        "; the paper is not flat: a local correction of up to {:.1} px (the \
                         map keeps the {} fit, {:.2} px RMS)",
                        w.largest_px(),
                        kind_word(r.kind),
                        r.global_rms_px
                    ));
                }
                let own = r
                    .mapping
                    .hex_shifts
                    .as_ref()
                    .map_or(0, |s| s.iter().filter(|d| **d != [0.0, 0.0]).count());
                if own > 0 {
                    text.push_str(&format!(
                        "; {own} hexes centred on their own printed sides (the terrain is read there)"
                    ));
                }
                (text, true)
            }
            Err(e) => (format!("{e}"), false),
        };
        self.report = Some(RefineReport {
            summary,
            suspects: calibrated
                .clicks
                .iter()
                .filter(|c| c.suspect)
                .map(|c| c.message())
                .collect(),
            half: names(&places, Place::Half),
            off: names(&places, Place::Off),
            shape,
            printed,
        });
        if !printed {
            return None;
        }
        let next = Background {
            fit: calibrated.kind(),
            grid_to_image: calibrated.grid_to_image(),
            ..current.clone()
        };
        self.fitted = Some((
            std::mem::take(&mut self.refining),
            next.clone(),
            calibrated.mapping(),
        ));
        (next != *current).then_some(next)
    }
}

fn kind_word(kind: FitKind) -> &'static str {
    match kind {
        FitKind::Similarity => "similarity",
        FitKind::Affine => "affine",
        FitKind::Projective => "projective",
    }
}

#[cfg(test)]
mod tests {
    use bataille_digitize::refine::Warp;

    use super::*;

    /// A refit of the clicks after refining keeps the print's matrix and says so; a placement
    /// the print did not refine is replaced by the refit.
    #[test]
    fn a_refit_of_the_clicks_keeps_the_matrix_refined_on_the_print() {
        let scan = Arc::new(Scan::from(image::RgbImage::new(8, 8)));
        let refined = Background {
            image: "scan.png".into(),
            fit: FitKind::Affine,
            grid_to_image: [20.0, 0.1, 5.0, -0.1, 20.0, 5.0, 0.0, 0.0, 1.0],
            control_points: Vec::new(),
        };
        let mut refine = PrintRefine {
            fitted: Some((
                Arc::downgrade(&scan),
                refined.clone(),
                GridMapping::global(refined.grid_to_image),
            )),
            ..PrintRefine::default()
        };
        let point = |x: f64| bataille_schema::map::ControlPoint {
            hex: "0101".into(),
            x,
            y: 5.0,
        };
        let refit = Background {
            fit: FitKind::Similarity,
            grid_to_image: [20.0, 0.0, 6.0, 0.0, 20.0, 5.0, 0.0, 0.0, 1.0],
            control_points: vec![point(6.0)],
            ..refined.clone()
        };
        let next = refine.keep_refined(&refined, refit.clone()).unwrap();
        assert_eq!(next.grid_to_image, refined.grid_to_image);
        assert_eq!(next.fit, FitKind::Affine);
        assert_eq!(next.control_points, vec![point(6.0)]);
        assert!(refine.kept);
        assert!(refine.refined(&next), "still the print's placement");
        // Not refined on the print: the clicks' fit stands.
        let mut fresh = PrintRefine::default();
        assert_eq!(fresh.keep_refined(&refined, refit.clone()), Some(refit));
        assert!(!fresh.kept);
    }

    #[test]
    fn the_local_correction_holds_only_for_its_scan_and_background() {
        let scan = Arc::new(Scan::from(image::RgbImage::new(8, 8)));
        let background = Background {
            image: "scan.png".into(),
            fit: FitKind::Affine,
            grid_to_image: [20.0, 0.0, 5.0, 0.0, 20.0, 5.0, 0.0, 0.0, 1.0],
            control_points: Vec::new(),
        };
        let warped = GridMapping {
            matrix: background.grid_to_image,
            warp: Some(Warp {
                origin: [0.0, 0.0],
                cell: 2.0,
                columns: 2,
                rows: 2,
                nodes: vec![[1.0, 2.0], [0.0, 0.0], [3.0, 0.0], [0.0, -1.0]],
            }),
            hex_shifts: None,
        };
        let refine = PrintRefine {
            fitted: Some((Arc::downgrade(&scan), background.clone(), warped.clone())),
            ..PrintRefine::default()
        };
        assert_eq!(refine.mapping(&scan, &background), warped);
        // Calibrated again by hand, or another scan: the correction was not fitted for it.
        let moved = Background {
            grid_to_image: [20.0, 0.0, 6.0, 0.0, 20.0, 5.0, 0.0, 0.0, 1.0],
            ..background.clone()
        };
        assert_eq!(
            refine.mapping(&scan, &moved),
            GridMapping::global(moved.grid_to_image)
        );
        let other = Arc::new(Scan::from(image::RgbImage::new(8, 8)));
        assert_eq!(
            refine.mapping(&other, &background),
            GridMapping::global(background.grid_to_image)
        );
        // The clicks changed, the placement kept: still the correction fitted for it.
        let clicked = Background {
            control_points: vec![bataille_schema::map::ControlPoint {
                hex: "0101".into(),
                x: 5.0,
                y: 5.0,
            }],
            ..background.clone()
        };
        assert_eq!(refine.mapping(&scan, &clicked), warped);
        // Never refined: the background's matrix.
        assert_eq!(
            PrintRefine::default().mapping(&scan, &background),
            GridMapping::global(background.grid_to_image)
        );
    }
}
