//! The Calibrate tab: clicked hex centres named in a table with their residuals, the fit kind,
//! what the check found (the click the others disagree with, its row marked; a fit kind too
//! simple for the scan, with a button for the richer one), and the start for maps without
//! printed numbers. Each new fit goes out as `AppCommand::SetBackground` (one undo step).

use bataille_digitize::shape::FileShape;
use bataille_schema::HexIndex;
use bataille_schema::map::{FitKind, Shifted};
use egui::{Color32, RichText, Ui};

use super::PROBLEM;
use crate::context::{AppCommand, ViewContext};
use crate::layers::scan::RESIDUAL_WARN_PX;
use crate::model::digitise_change::shape_of;
use crate::services::calibration::{ClickTarget, kind_name};
use crate::services::digitise::{Digitise, Mode};

const BAD: Color32 = Color32::from_rgb(220, 60, 40);
const WAITING: Color32 = Color32::from_rgb(230, 150, 40);

/// The command's message as a sentence in the panel ("the affine fit leaves…" → "The affine…").
fn sentence(message: &str) -> String {
    let mut chars = message.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The button's name for a fit kind ("Use projective").
fn use_kind(kind: FitKind) -> &'static str {
    match kind {
        FitKind::Similarity => "Use similarity",
        FitKind::Affine => "Use affine",
        FitKind::Projective => "Use projective",
    }
}

pub(super) fn calibrate_tab(ctx: &ViewContext<'_>, ui: &mut Ui, digitise: &mut Digitise) {
    let Some(current) = &ctx.doc.map.background else {
        ui.weak("Import a scan first.");
        return;
    };
    let grid = &ctx.doc.map.grid;
    let mut adding =
        digitise.mode == Mode::Calibrate && digitise.calibration.target == ClickTarget::AddPoint;
    if ui
        .toggle_value(&mut adding, "✚ Click hex centres")
        .on_hover_text("Click the centre of a hex on the scan, then type its name")
        .clicked()
    {
        digitise.mode = if adding { Mode::Calibrate } else { Mode::Idle };
        digitise.calibration.target = ClickTarget::AddPoint;
    }
    let calibration = &mut digitise.calibration;
    let mut changed = false;
    ui.label("Fit");
    for kind in [FitKind::Similarity, FitKind::Affine, FitKind::Projective] {
        changed |= ui
            .radio_value(&mut calibration.kind, kind, kind_name(kind))
            .changed();
    }
    let suspect = calibration.suspect_row();
    let suspect_message = calibration.check.suspect.as_ref().map(|s| s.message());
    let mut dropped = None;
    // A point just clicked: its name field takes the keyboard with the suggested name selected,
    // so that typing replaces it and Enter keeps it (issue 21: typing appended to it).
    let rows_id = ui.scope_id().with("calibration-rows");
    let rows_before = ui.data(|d| d.get_temp::<usize>(rows_id));
    let rows_now = calibration.points.len();
    ui.data_mut(|d| d.insert_temp(rows_id, rows_now));
    let fresh = rows_before
        .filter(|before| rows_now > *before)
        .map(|_| rows_now - 1);
    egui::Grid::new("control-points")
        .striped(true)
        .num_columns(5)
        .show(ui, |ui| {
            ui.strong("#");
            ui.strong("Hex");
            ui.strong("Pixel");
            ui.strong("Residual");
            ui.label("");
            ui.end_row();
            for i in 0..calibration.points.len() {
                let problem = calibration.name_problem(grid, i);
                let residual = calibration.residual(i);
                let Some(row) = calibration.points.get_mut(i) else {
                    continue;
                };
                if suspect == Some(i) {
                    // The click the others disagree with: its number marked, the reason on hover.
                    let number = RichText::new(format!("⚠ {}", i + 1))
                        .color(Color32::WHITE)
                        .background_color(BAD)
                        .strong();
                    ui.label(number)
                        .on_hover_text(suspect_message.clone().unwrap_or_default());
                } else {
                    ui.label(format!("{}", i + 1));
                }
                let hint = row.guess.as_ref().map_or("hex".into(), |g| g.to_string());
                let edit = ui.add_sized(
                    [64.0, ui.spacing().interact_size.y],
                    egui::TextEdit::singleline(&mut row.hex)
                        .hint_text(hint)
                        .font(egui::TextStyle::Monospace),
                );
                if fresh == Some(i) {
                    let mut state =
                        egui::TextEdit::load_state(ui.ctx(), edit.id).unwrap_or_default();
                    state
                        .cursor
                        .set_char_range(Some(egui::text::CCursorRange::select_all_str(&row.hex)));
                    state.store(ui.ctx(), edit.id);
                    edit.request_focus();
                }
                let edit = edit.on_hover_text(problem.clone().unwrap_or_default());
                edit.widget_info(|| {
                    egui::WidgetInfo::labeled(
                        egui::Role::TextInput,
                        true,
                        format!("Hex of point {}", i + 1),
                    )
                });
                changed |= edit.changed();
                ui.label(format!("{:.0}, {:.0}", row.x, row.y))
                    .on_hover_text("The pixel clicked on the scan");
                match (residual, problem) {
                    (_, Some(_)) => {
                        ui.colored_label(BAD, "not a hex");
                    }
                    (Some(r), None) => {
                        let colour = if r > RESIDUAL_WARN_PX || suspect == Some(i) {
                            BAD
                        } else {
                            ui.visuals().text_color()
                        };
                        ui.colored_label(colour, format!("{r:.2} px"));
                    }
                    (None, None) => {
                        ui.weak("—");
                    }
                }
                if ui
                    .button("Drop")
                    .on_hover_text("Drop this point and refit")
                    .clicked()
                {
                    dropped = Some(i);
                }
                ui.end_row();
            }
        });
    let mut next = None;
    if let Some(i) = dropped {
        next = calibration.drop_point(grid, current, i);
    } else if changed {
        next = calibration.refit(grid, current);
    }
    match &calibration.fit {
        Some(Ok(fit)) => {
            ui.label(format!(
                "RMS {:.2} px over {} points",
                fit.rms_px,
                fit.residuals_px.len()
            ));
            if let Some(note) = calibration.start_note() {
                ui.colored_label(WAITING, note);
            }
        }
        Some(Err(e)) => {
            ui.colored_label(PROBLEM, e);
        }
        None => {
            ui.weak("Click at least two hex centres far apart on the map and name them.");
        }
    }
    // What the check found, as `bataille digitize` says it.
    if let Some(message) = &suspect_message {
        ui.colored_label(BAD, format!("⚠ {message}"));
    }
    if let Some(advice) = calibration.check.kind_advice.clone() {
        ui.colored_label(WAITING, format!("⚠ {}", sentence(&advice.message())));
        if ui
            .button(use_kind(advice.better))
            .on_hover_text(format!(
                "Fit the points with the {} kind",
                kind_name(advice.better)
            ))
            .clicked()
        {
            calibration.kind = advice.better;
            next = calibration.refit(grid, current);
        }
    }
    // A refit of the clicks does not move a grid the print placed.
    let mut next = next.and_then(|n| digitise.print_refine.keep_refined(current, n));
    if let Some(refined) = on_the_print(ctx, ui, digitise) {
        next = Some(refined);
    }
    ui.separator();
    if let Some(placed) = without_numbers(ctx, ui, digitise) {
        next = Some(placed);
    }
    if let Some(bg) = next {
        ctx.send(AppCommand::SetBackground {
            label: "Calibrate".into(),
            after: Some(Box::new(bg)),
        });
    }
}

/// "Refine on the printed grid": the clicks' fit refined on the print's grid lines, what the
/// print says of each click, and the hexes not on the print. Returns the background a
/// finished refinement made.
fn on_the_print(
    ctx: &ViewContext<'_>,
    ui: &mut Ui,
    digitise: &mut Digitise,
) -> Option<bataille_schema::map::Background> {
    let current = ctx.doc.map.background.as_ref()?;
    let next = digitise.print_refine.poll(current);
    ui.separator();
    ui.strong("Refine on the printed grid");
    let ready = digitise.scan.is_some() && current.control_points.len() >= 2;
    let running = digitise.print_refine.busy();
    if ui
        .add_enabled(ready && !running, egui::Button::new("Refine on the print"))
        .on_hover_text(
            "Fit the grid on the printed grid lines over the whole sheet (two named clicks are \
             enough); a click is then checked against the print",
        )
        .on_disabled_hover_text("Load the scan and name at least two clicked hex centres")
        .clicked()
        && let Some(scan) = &digitise.scan
    {
        digitise.print_refine.start(
            ui.ctx(),
            scan.scan.clone(),
            &ctx.doc.map.grid,
            current,
            digitise.calibration.kind,
        );
    }
    crate::services::jobs::progress_row(ui, digitise.print_refine.job.as_ref());
    if let Some(error) = &digitise.print_refine.error {
        ui.colored_label(PROBLEM, error);
    }
    if digitise.print_refine.kept && digitise.print_refine.refined(current) {
        ui.colored_label(
            WAITING,
            "The clicks changed since the refinement: the grid stays where the print placed it. \
             Refine on the print again to fit it from the changed clicks.",
        );
    }
    if let Some(report) = &digitise.print_refine.report {
        if report.printed {
            ui.label(sentence(&report.summary));
        } else {
            ui.colored_label(WAITING, sentence(&report.summary));
        }
        for message in &report.suspects {
            ui.colored_label(BAD, format!("⚠ {}", sentence(message)));
        }
        let list = |names: &[bataille_schema::HexName]| {
            let shown: Vec<String> = names.iter().take(12).map(ToString::to_string).collect();
            let more = names.len().saturating_sub(shown.len());
            if more > 0 {
                format!("{} and {more} more", shown.join(" "))
            } else {
                shown.join(" ")
            }
        };
        if !report.half.is_empty() {
            ui.label(format!(
                "{} hexes on the grid's edge are not wholly on the print (half hexes? confirm \
                 before painting them): {}",
                report.half.len(),
                list(&report.half)
            ));
        }
        if !report.off.is_empty() {
            ui.colored_label(
                WAITING,
                format!(
                    "{} hexes are not on the print (is the grid larger than the map?): {}",
                    report.off.len(),
                    list(&report.off)
                ),
            );
        }
        shape_row(ctx, ui, &report.shape);
    }
    next
}

/// The map's shape found on the print, as the file would write it, and the button applying it
/// (one undo step through the command handler).
fn shape_row(ctx: &ViewContext<'_>, ui: &mut Ui, shape: &FileShape) {
    let what = match (shape.short_lines, shape.half_hexes.len()) {
        (Some(parity), _) => format!(
            "The {} lines are one hex shorter: short_lines: {parity:?}",
            if parity == Shifted::Odd {
                "odd"
            } else {
                "even"
            }
        ),
        (None, 0) => return,
        (None, n) => format!("{n} half hexes (half_hexes)"),
    };
    let applied = shape_of(ctx.doc) == *shape;
    // The sentence wraps to the panel's width and the button comes under it: beside a long
    // sentence it would be pushed out of the panel.
    ui.label(format!("Map shape: {what}"));
    if applied {
        ui.label(RichText::new("applied").color(WAITING));
    } else if ui
        .button("Apply the map's shape")
        .on_hover_text(
            "Write the shape found on the print to the map (the hexes not on it are then \
             not given terrain nor counted): one undo step",
        )
        .clicked()
    {
        ctx.send(AppCommand::SetShape(shape.clone()));
    }
}

/// For maps without printed hex numbers: the first hex's centre, then the hex below it or the
/// hex width. Returns the background "Place grid" made.
fn without_numbers(
    ctx: &ViewContext<'_>,
    ui: &mut Ui,
    digitise: &mut Digitise,
) -> Option<bataille_schema::map::Background> {
    let current = ctx.doc.map.background.as_ref()?;
    let grid = &ctx.doc.map.grid;
    ui.strong("No printed hex numbers?");
    let first = grid.name(HexIndex::new(0, 0));
    let below = grid.name(HexIndex::new(0, 1.min(grid.rows.saturating_sub(1))));
    let waiting = match (digitise.mode, digitise.calibration.target) {
        (Mode::Calibrate, ClickTarget::FirstCentre) => {
            Some(format!("Click the centre of the first hex ({first})."))
        }
        (Mode::Calibrate, ClickTarget::Neighbour) => Some(format!(
            "Click the centre of the hex below it ({below}), or type the hex width."
        )),
        _ => None,
    };
    if ui
        .button("Click the first hex's centre")
        .on_hover_text("Then the centre of the hex below it: the grid is placed from the two")
        .clicked()
    {
        digitise.mode = Mode::Calibrate;
        digitise.calibration.target = ClickTarget::FirstCentre;
    }
    if let Some(text) = waiting {
        ui.label(RichText::new(text).color(WAITING));
    }
    let mut placed = None;
    ui.horizontal(|ui| {
        let label = ui.label("Hex width (px)");
        ui.add(
            egui::TextEdit::singleline(&mut digitise.calibration.hex_size_text).desired_width(60.0),
        )
        .labelled_by(label.id)
        .on_hover_text("The distance between the centres of two neighbouring hexes");
        if ui.button("Place grid").clicked() {
            match digitise.calibration.from_hex_size(grid, current) {
                Ok(bg) => {
                    placed = Some(bg);
                    digitise.mode = Mode::Idle;
                }
                Err(e) => digitise.calibration.fit = Some(Err(e)),
            }
        }
    });
    placed
}
