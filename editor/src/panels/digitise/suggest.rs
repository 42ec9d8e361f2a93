//! The Terrain and Hexsides tabs: samples marked on the map, a classification of the calibrated
//! scan in the background, the suggestions shown and accepted (all, or above a threshold) as
//! one undo step, and the review queue of doubtful hexes or hexsides (previous, next — centred
//! and zoomed in —, accept, skip). The two tabs share their plumbing: [`classify_row`] starts a
//! job and shows its progress and error, [`threshold_row`] and [`accept_row`] the acceptance,
//! [`review_rows`] the queue.

use std::sync::Arc;

use bataille_digitize::GridMapping;
use bataille_digitize::scan::Scan;
use bataille_schema::{Grid, HexIndex, Id};
use egui::{Color32, RichText, Ui};

use super::PROBLEM;
use crate::context::{AppCommand, ViewContext};
use crate::model::history::Change;
use crate::services::digitise::{Digitise, Mode};
use crate::services::jobs::{Job, progress_row};
use crate::services::suggest::{Overlay, Suggest, line_overlays};

/// A job's start function: the terrain's or the hexsides'.
type Start = fn(&mut Suggest, &egui::Context, Arc<Scan>, &Grid, GridMapping);

/// The button starting a classification of the calibrated scan (off while the job runs, or
/// without a scan) with what goes `beside` it, then the job's progress with Cancel, and the
/// last job's error.
fn classify_row<T: Send + 'static>(
    ctx: &ViewContext<'_>,
    ui: &mut Ui,
    digitise: &mut Digitise,
    label: &str,
    job: fn(&Suggest) -> Option<&Job<T>>,
    start: Start,
    beside: impl FnOnce(&mut Ui, &mut Suggest),
) {
    let running = job(&digitise.suggest).is_some();
    let ready = digitise.scan_ready(ctx.doc);
    ui.horizontal(|ui| {
        if ui
            .add_enabled(ready && !running, egui::Button::new(label))
            .clicked()
            && let (Some(scan), Some(bg)) = (&digitise.scan, &ctx.doc.map.background)
        {
            let scan = scan.scan.clone();
            // With the refinement's local correction while it still holds.
            let mapping = digitise.print_refine.mapping(&scan, bg);
            start(
                &mut digitise.suggest,
                ui.ctx(),
                scan,
                &ctx.doc.map.grid,
                mapping,
            );
        }
        beside(ui, &mut digitise.suggest);
    });
    progress_row(ui, job(&digitise.suggest));
    if let Some(e) = &digitise.suggest.error {
        ui.colored_label(PROBLEM, e);
    }
}

/// The overlay shown on the map and the confidence threshold.
fn threshold_row(ui: &mut Ui, suggest: &mut Suggest) {
    ui.horizontal(|ui| {
        ui.label("Show");
        let o = &mut suggest.overlay;
        ui.radio_value(o, Overlay::Tint, "Suggestions");
        ui.radio_value(o, Overlay::Confidence, "Confidence");
        ui.radio_value(o, Overlay::Off, "Nothing");
    });
    ui.horizontal(|ui| {
        let label = ui.label("Confidence threshold");
        ui.add(egui::Slider::new(&mut suggest.threshold, 0.0..=1.0))
            .labelled_by(label.id);
    });
}

/// "Accept all" and "Accept above threshold (n)"; returns the changes of the one clicked.
fn accept_row<T: Clone>(ui: &mut Ui, names: [&str; 2], all: &[T], above: &[T]) -> Option<Vec<T>> {
    let mut accept = None;
    ui.horizontal_wrapped(|ui| {
        if ui
            .add_enabled(!all.is_empty(), egui::Button::new(names[0]))
            .clicked()
        {
            accept = Some(all.to_vec());
        }
        let above_text = format!("{} ({})", names[1], above.len());
        if ui
            .add_enabled(!above.is_empty(), egui::Button::new(above_text))
            .clicked()
        {
            accept = Some(above.to_vec());
        }
    });
    accept.filter(|changes| !changes.is_empty())
}

/// What the review queue's buttons asked.
enum Review {
    /// The previous (`false`) or next (`true`) doubtful item.
    Step(bool),
    Accept,
    Skip,
}

/// The review queue's rows: "◀ Previous …" and "… ▶"; then, while an item is under review, its
/// description and Accept / Skip. `names`: the item's word in the buttons ("doubtful hexside",
/// "hexside"), empty for hexes.
fn review_rows(
    ui: &mut Ui,
    item: &str,
    reviewing: bool,
    describe: impl FnOnce(&mut Ui),
) -> Option<Review> {
    let mut asked = None;
    let spaced = if item.is_empty() {
        String::new()
    } else {
        format!(" {item}")
    };
    ui.horizontal_wrapped(|ui| {
        if ui.button(format!("◀ Previous doubtful{spaced}")).clicked() {
            asked = Some(Review::Step(false));
        }
        if ui.button(format!("Next doubtful{spaced} ▶")).clicked() {
            asked = Some(Review::Step(true));
        }
    });
    if reviewing {
        describe(ui);
        ui.horizontal_wrapped(|ui| {
            if ui.button(format!("Accept{spaced}")).clicked() {
                asked = Some(Review::Accept);
            }
            if ui.button(format!("Skip{spaced}")).clicked() {
                asked = Some(Review::Skip);
            }
        });
    }
    asked
}

/// Centres the map on a reviewed hex, close enough to judge it against the scan.
fn show_reviewed(ctx: &ViewContext<'_>, hex: Option<HexIndex>) {
    if let Some(hex) = hex {
        ctx.send(AppCommand::GoToHex {
            hex: ctx.doc.map.grid.name(hex),
            close: true,
        });
    }
}

/// A terrain's name in the legend, or its code.
fn terrain_name(ctx: &ViewContext<'_>, code: char) -> String {
    ctx.doc
        .map
        .terrain
        .get(&code.to_string())
        .map_or_else(|| format!("`{code}`"), |t| t.name.clone())
}

/// A hexside feature's name in the legend ("plain" for none).
fn feature_name(ctx: &ViewContext<'_>, feature: Option<&Id>) -> String {
    feature.map_or_else(
        || "plain".to_owned(),
        |f| {
            ctx.doc
                .map
                .hexside_types
                .get(f)
                .map_or_else(|| f.to_string(), |t| t.name.clone())
        },
    )
}

/// A click-mode toggle ("✚ Mark samples"): on, the map's clicks mark `mode`'s samples.
fn mark_toggle(ui: &mut Ui, digitise: &mut Digitise, mode: Mode, text: &str, hover: &str) {
    let mut marking = digitise.mode == mode;
    if ui
        .toggle_value(&mut marking, text)
        .on_hover_text(hover)
        .clicked()
    {
        digitise.mode = if marking { mode } else { Mode::Idle };
    }
}

pub(super) fn terrain_tab(ctx: &ViewContext<'_>, ui: &mut Ui, digitise: &mut Digitise) {
    mark_toggle(
        ui,
        digitise,
        Mode::SampleTerrain,
        "✚ Mark samples",
        "Click hexes to mark them as samples of the terrain chosen below",
    );
    let counts = digitise.suggest.sample_counts();
    for (code, t) in &ctx.doc.map.terrain {
        let Some(c) = code.chars().next() else {
            continue;
        };
        let n = counts.get(&c).copied().unwrap_or(0);
        let text = RichText::new(format!("Sample {}: {n}", t.name))
            .color(crate::map::view::colour32(&t.colour, Color32::MAGENTA));
        if ui.selectable_label(ctx.tools.terrain == c, text).clicked() {
            ctx.send(AppCommand::SampleTerrain(c));
            digitise.mode = Mode::SampleTerrain;
        }
    }
    let clear = |ui: &mut Ui, suggest: &mut Suggest| {
        if !counts.is_empty() && ui.button("Clear samples").clicked() {
            suggest.samples.clear();
        }
    };
    let (label, start) = ("Classify hexes", Suggest::start_terrain);
    classify_row(
        ctx,
        ui,
        digitise,
        label,
        |s| s.terrain_job.as_ref(),
        start,
        clear,
    );
    let suggest = &mut digitise.suggest;
    let Some(terrain) = &suggest.terrain else {
        return;
    };
    let doc = ctx.doc;
    let all = suggest.accept_terrain(doc, 0.0);
    let doubtful = suggest.doubtful(doc).len();
    ui.label(format!(
        "{} hexes classified: {} differ from the map, {doubtful} doubtful",
        terrain.hexes.len(),
        all.len()
    ));
    threshold_row(ui, suggest);
    let above = suggest.accept_terrain(doc, suggest.threshold);
    let names = ["Accept all", "Accept above threshold"];
    if let Some(cells) = accept_row(ui, names, &all, &above) {
        ctx.send(AppCommand::Edit {
            label: "Accept terrain suggestions".into(),
            changes: vec![Change::Terrain(cells)],
        });
    }
    ui.separator();
    ui.strong("Review the doubtful hexes");
    let reviewed = suggest.review;
    let describe = |ui: &mut Ui| {
        if let Some(hex) = reviewed
            && let Some((code, confidence)) = suggest.suggestion(doc, hex)
        {
            ui.label(format!(
                "{}: {} on the map, {} suggested ({:.0} %)",
                doc.map.grid.name(hex),
                terrain_name(ctx, doc.code(hex).unwrap_or('?')),
                terrain_name(ctx, code),
                confidence * 100.0
            ));
        }
    };
    let go = match review_rows(ui, "", reviewed.is_some(), describe) {
        None => None,
        Some(Review::Step(forward)) => suggest.step_review(doc, forward),
        Some(Review::Accept) => {
            if let Some(change) = suggest.accept_reviewed(doc) {
                ctx.send(AppCommand::Edit {
                    label: "Accept terrain suggestion".into(),
                    changes: vec![change],
                });
            }
            suggest.step_review(doc, true)
        }
        Some(Review::Skip) => {
            suggest.skipped.extend(reviewed);
            suggest.step_review(doc, true)
        }
    };
    show_reviewed(ctx, go);
}

pub(super) fn hexsides_tab(ctx: &ViewContext<'_>, ui: &mut Ui, digitise: &mut Digitise) {
    mark_toggle(
        ui,
        digitise,
        Mode::SampleHexside,
        "✚ Mark hexsides",
        "Click hexsides to mark them as samples of the feature chosen below",
    );
    let doc = ctx.doc;
    let suggest = &mut digitise.suggest;
    let count = |feature: Option<&Id>| {
        suggest
            .side_samples
            .values()
            .filter(|f| f.as_ref() == feature)
            .count()
    };
    let mut picked: Option<Option<Id>> = None;
    let crossing = suggest.crossing_line.is_some();
    for (id, t) in &doc.map.hexside_types {
        let n = count(Some(id));
        let selected = !crossing && suggest.side_feature.as_ref() == Some(id);
        if ui
            .selectable_label(selected, format!("Sample {}: {n}", t.name))
            .clicked()
        {
            picked = Some(Some(id.clone()));
        }
    }
    let plain = count(None);
    if ui
        .selectable_label(
            !crossing && suggest.side_feature.is_none(),
            format!("Sample plain hexsides: {plain}"),
        )
        .clicked()
    {
        picked = Some(None);
    }
    // The lines drawn through the hexes (roads): a click marks a hexside the line crosses.
    let mut line_picked = None;
    for id in line_overlays(doc) {
        let name = doc
            .map
            .overlay_types
            .get(&id)
            .map_or("", |t| t.name.as_str());
        let n = suggest.crossing_count(&id);
        let selected = suggest.crossing_line.as_ref() == Some(&id);
        if ui
            .selectable_label(selected, format!("Sample crossings of {name}: {n}"))
            .on_hover_text("Click hexsides this line passes through, from one hex into the next, where it is drawn clearly")
            .clicked()
        {
            line_picked = Some(id);
        }
    }
    if let Some(feature) = picked {
        digitise.suggest.side_feature = feature;
        digitise.suggest.crossing_line = None;
        digitise.mode = Mode::SampleHexside;
    }
    if let Some(line) = line_picked {
        digitise.suggest.crossing_line = Some(line);
        digitise.mode = Mode::SampleHexside;
    }
    // One pass finds both: the hexside features from their samples, the roads and railways
    // from their marked crossings.
    let (label, start) = ("Find hexside features and roads", Suggest::start_hexsides);
    classify_row(
        ctx,
        ui,
        digitise,
        label,
        |s| s.hexside_job.as_ref(),
        start,
        |_, _| {},
    );
    let suggest = &mut digitise.suggest;
    if suggest.hexsides.is_none() && suggest.crossings.is_none() {
        return;
    }
    threshold_row(ui, suggest);
    crossings_rows(ctx, ui, suggest);
    if suggest.hexsides.is_none() {
        return;
    }
    let above = suggest.accept_hexsides(doc, suggest.threshold);
    let all = suggest.accept_hexsides(doc, 0.0);
    ui.label(format!(
        "{} hexside features suggested that the map lacks, {} above the threshold",
        all.len(),
        above.len()
    ));
    let names = ["Accept all hexsides", "Accept hexsides above threshold"];
    if let Some(changes) = accept_row(ui, names, &all, &above) {
        ctx.send(AppCommand::Edit {
            label: "Accept hexside suggestions".into(),
            changes,
        });
    }
    ui.separator();
    let doubtful = suggest.doubtful_hexsides(doc).len();
    ui.strong(format!("Review the doubtful hexsides ({doubtful})"));
    let reviewed = suggest.side_review;
    let describe = |ui: &mut Ui| {
        let Some(hexside) = reviewed else {
            return;
        };
        let Some((feature, confidence)) = suggest.side_suggestion(hexside) else {
            return;
        };
        let name = doc.map.grid.hexside_ref(hexside.0, hexside.1);
        let on_map: Vec<String> = doc
            .map
            .hexsides
            .iter()
            .filter(|(_, list)| list.contains(&name))
            .map(|(f, _)| feature_name(ctx, Some(f)))
            .collect();
        let on_map = if on_map.is_empty() {
            "plain".to_owned()
        } else {
            on_map.join(", ")
        };
        ui.label(format!(
            "{name}: {on_map} on the map, {} suggested ({:.0} %)",
            feature_name(ctx, feature.as_ref()),
            confidence * 100.0
        ));
    };
    let go = match review_rows(ui, "hexside", reviewed.is_some(), describe) {
        None => None,
        Some(Review::Step(forward)) => suggest.step_side_review(doc, forward),
        Some(Review::Accept) => {
            let changes = suggest.accept_side_reviewed(doc);
            if !changes.is_empty() {
                ctx.send(AppCommand::Edit {
                    label: "Accept hexside suggestion".into(),
                    changes,
                });
            }
            suggest.step_side_review(doc, true)
        }
        Some(Review::Skip) => {
            suggest.side_skipped.extend(reviewed);
            suggest.step_side_review(doc, true)
        }
    };
    show_reviewed(ctx, go.map(|(hex, _)| hex));
}

/// The lines through the hexes the last job found: accept them (all, or above the threshold)
/// as paths, and review the doubtful crossings one at a time.
fn crossings_rows(ctx: &ViewContext<'_>, ui: &mut Ui, suggest: &mut Suggest) {
    if suggest.crossings.is_none() {
        return;
    }
    let doc = ctx.doc;
    let all = suggest.missing_crossings(doc, 0.0);
    let above = suggest.missing_crossings(doc, suggest.threshold);
    ui.label(format!(
        "{all} road crossings suggested that the map's paths lack, {above} above the threshold"
    ));
    let mut accept = None;
    ui.horizontal_wrapped(|ui| {
        if ui
            .add_enabled(all > 0, egui::Button::new("Accept all crossings"))
            .clicked()
        {
            accept = Some(0.0);
        }
        let text = format!("Accept crossings above threshold ({above})");
        if ui.add_enabled(above > 0, egui::Button::new(text)).clicked() {
            accept = Some(suggest.threshold);
        }
    });
    if let Some(threshold) = accept {
        let changes = suggest.accept_crossings(doc, threshold);
        if !changes.is_empty() {
            ctx.send(AppCommand::Edit {
                label: "Accept road crossings".into(),
                changes,
            });
        }
    }
    ui.separator();
    let doubtful = suggest.doubtful_crossings().len();
    ui.strong(format!("Review the doubtful crossings ({doubtful})"));
    let reviewed = suggest.crossing_review;
    // A line of the legend added to the reviewed crossing, or taken off it.
    let mut edit: Option<(&'static str, Vec<Change>)> = None;
    let describe = |ui: &mut Ui| {
        let Some(s) = reviewed.and_then(|h| suggest.crossing_suggestion(h)) else {
            return;
        };
        let grid = &doc.map.grid;
        let hexside = (s.index, s.side);
        let line_name = |id: &Id| {
            doc.map
                .overlay_types
                .get(id)
                .map_or_else(|| id.to_string(), |t| t.name.clone())
        };
        let name = s
            .line
            .as_ref()
            .map_or_else(|| "no line".to_owned(), line_name);
        let from = grid.name(s.index);
        let to = grid
            .neighbour(s.index, s.side)
            .map_or_else(|| "off the map".to_owned(), |n| grid.name(n).to_string());
        let on_map = Suggest::lines_crossing(doc, hexside);
        let on_map_text = if on_map.is_empty() {
            "not on the map".to_owned()
        } else {
            format!(
                "on the map: {}",
                on_map.iter().map(line_name).collect::<Vec<_>>().join(", ")
            )
        };
        ui.label(format!(
            "{from} to {to}: {name} suggested ({:.0} %), {on_map_text}",
            s.confidence * 100.0
        ));
        ui.horizontal_wrapped(|ui| {
            for id in line_overlays(doc) {
                let there = on_map.contains(&id);
                let text = if there {
                    format!("Remove from {}", line_name(&id))
                } else {
                    format!("Add as {}", line_name(&id))
                };
                let hover = if there {
                    "Cut the map's path of this line at this hexside"
                } else {
                    "Add this crossing to the map's paths of this line"
                };
                if ui.button(text).on_hover_text(hover).clicked() {
                    edit = Some(if there {
                        (
                            "Remove road crossing",
                            Suggest::removing_crossing(doc, hexside, &id),
                        )
                    } else {
                        (
                            "Add road crossing",
                            Suggest::adding_crossing(doc, hexside, &id),
                        )
                    });
                }
            }
        });
    };
    let asked = review_rows(ui, "crossing", reviewed.is_some(), describe);
    let go = if let Some((label, changes)) = edit {
        if !changes.is_empty() {
            ctx.send(AppCommand::Edit {
                label: label.into(),
                changes,
            });
        }
        suggest.step_crossing_review(true)
    } else {
        match asked {
            None => None,
            Some(Review::Step(forward)) => suggest.step_crossing_review(forward),
            Some(Review::Accept) => {
                let changes = suggest.accept_crossing_reviewed(doc);
                if !changes.is_empty() {
                    ctx.send(AppCommand::Edit {
                        label: "Accept road crossing".into(),
                        changes,
                    });
                }
                // Reviewed: it leaves the queue, whether the map changed or already agreed.
                suggest.crossing_reviewed()
            }
            Some(Review::Skip) => suggest.crossing_reviewed(),
        }
    };
    show_reviewed(ctx, go.map(|(hex, _)| hex));
    ui.separator();
}
