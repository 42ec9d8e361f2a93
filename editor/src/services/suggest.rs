//! Suggestions from the scan's colours: sample hexes marked per terrain code (and sample
//! hexsides per feature, or plain), every hex (hexside) classified on a background thread by
//! `bataille-digitize`, the result shown as a tinted overlay or a confidence heat view, and
//! accepted all at once, above a confidence threshold, or one doubtful hex (hexside) at a
//! time. Accepting returns `Change`s; the app applies them as one undo step. The lines drawn
//! through the hexes (roads: marked crossings, accepted as paths) are in [`crossings`], with
//! the state here.
//!
//! Longer than 600 lines: the terrain and hexside halves (samples, job, review queue, accept,
//! paint) mirror each other and share the state and the painting (the crossings' state too);
//! split them if either grows.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use bataille_digitize::GridMapping;
use bataille_digitize::classify::{
    ClassifyError, ClassifyOptions, CrossingSuggestion, HexsideSamples, HexsideSuggestion,
    TerrainSuggestions, suggest_features, suggest_terrain_with_progress,
};
use bataille_digitize::scan::Scan;
use bataille_schema::map::Grid;
use bataille_schema::{HexIndex, Id, Side};
use egui::epaint::Mesh;
use egui::{Color32, Rect, Shape, Stroke, pos2, vec2};

use crate::map::view::{MapView, colour32};
use crate::model::document::Document;
use crate::model::history::{CellChange, Change};
use crate::services::jobs::{Job, JobEnd};

/// How suggestions are shown on the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overlay {
    /// Hexes whose suggestion differs from the map, tinted with the suggested terrain.
    Tint,
    /// Every hex coloured by confidence, red (a toss-up) to green (no doubt).
    Confidence,
    Off,
}

mod crossings;
pub use crossings::line_overlays;

type TerrainJob = Job<Result<TerrainSuggestions, ClassifyError>>;
/// A hexside job's result (the library's one pass: `suggest_features`).
pub struct HexsideResult {
    /// The hexside features, when some were marked.
    hexsides: Option<Vec<HexsideSuggestion>>,
    /// The lines through the hexes, when crossings were marked and their ink read.
    crossings: Option<Vec<CrossingSuggestion>>,
    /// The terrain suggestions it started from judged again with the lines' inks masked
    /// (`None` when there were none: its hexes' colours were read only for the hexsides).
    terrain: Option<TerrainSuggestions>,
}
type HexsideJob = Job<Result<HexsideResult, ClassifyError>>;

/// What classifying without samples advises (shown until samples are marked).
const NEED_SAMPLES: &str = "Mark a few sample hexes of each terrain first (Mark samples).";
const NEED_SIDE_SAMPLES: &str = "Mark a few hexsides of each feature first (Mark hexsides).";
/// What a hexside job with only crossings marked says when their ink could not be read.
const NO_LINE_INK: &str = "No road's ink could be read at the marked crossings: mark crossings where the line is drawn clearly, away from labels and junctions.";

/// The suggestion tools' state.
pub struct Suggest {
    /// Sample hexes and the code marked for each.
    pub samples: BTreeMap<HexIndex, char>,
    /// Sample hexsides (canonical) and the feature marked (`None`: plain, no feature).
    pub side_samples: BTreeMap<(HexIndex, Side), Option<Id>>,
    /// What a click on a hexside marks: a feature, or `None` for plain (unless
    /// `crossing_line` is set).
    pub side_feature: Option<Id>,
    /// Marked crossings (canonical hexsides) of the lines drawn through the hexes: the
    /// overlay (a road) crossing each.
    pub crossing_samples: BTreeMap<(HexIndex, Side), Id>,
    /// What a click on a hexside marks when set: a crossing of this overlay's line.
    pub crossing_line: Option<Id>,
    pub terrain_job: Option<TerrainJob>,
    pub hexside_job: Option<HexsideJob>,
    pub terrain: Option<TerrainSuggestions>,
    pub hexsides: Option<Vec<HexsideSuggestion>>,
    /// The lines through the hexes found by the last hexside job.
    pub crossings: Option<Vec<CrossingSuggestion>>,
    /// How many terrain results have been taken, and how many had been when the hexside job
    /// started: its re-judged terrain replaces only the terrain it started from.
    terrain_runs: u64,
    hexside_from_run: u64,
    /// The grid the suggestions were made on (they are dropped when it changes).
    grid: Option<Grid>,
    /// Suggestions at or above this confidence are accepted by "Accept above"; those below
    /// are the doubtful ones to review.
    pub threshold: f32,
    pub overlay: Overlay,
    /// Doubtful hexes the user skipped in the review.
    pub skipped: BTreeSet<HexIndex>,
    /// The hex being reviewed.
    pub review: Option<HexIndex>,
    /// Doubtful hexsides the user skipped in the review.
    pub side_skipped: BTreeSet<(HexIndex, Side)>,
    /// The hexside being reviewed (canonical).
    pub side_review: Option<(HexIndex, Side)>,
    /// Doubtful crossings the user skipped or accepted in the review (they leave the queue:
    /// the queue lists crossings on the map's paths too, so accepting one changes nothing
    /// that would take it out).
    pub crossing_skipped: BTreeSet<(HexIndex, Side)>,
    /// The crossing being reviewed (canonical).
    pub crossing_review: Option<(HexIndex, Side)>,
    /// The last error, shown in the panel.
    pub error: Option<String>,
}

impl Default for Suggest {
    fn default() -> Self {
        Self {
            samples: BTreeMap::new(),
            side_samples: BTreeMap::new(),
            side_feature: None,
            crossing_samples: BTreeMap::new(),
            crossing_line: None,
            terrain_job: None,
            hexside_job: None,
            terrain: None,
            hexsides: None,
            crossings: None,
            terrain_runs: 0,
            hexside_from_run: 0,
            grid: None,
            threshold: 0.3,
            overlay: Overlay::Tint,
            skipped: BTreeSet::new(),
            review: None,
            side_skipped: BTreeSet::new(),
            side_review: None,
            crossing_skipped: BTreeSet::new(),
            crossing_review: None,
            error: None,
        }
    }
}

fn first_char(code: Option<&str>) -> Option<char> {
    code.and_then(|c| c.chars().next())
}

/// Whether the legend has a terrain code.
fn in_legend(doc: &Document, code: char) -> bool {
    let mut buf = [0u8; 4];
    doc.map.terrain.contains_key(&*code.encode_utf8(&mut buf))
}

/// A classification job that ended: `Some` with its result (`None` when it was cancelled or
/// failed, the failure kept in `error`); `None` while it runs or when there is none.
fn finished<T: Send + 'static>(
    job: &mut Option<Job<Result<T, ClassifyError>>>,
    error: &mut Option<String>,
) -> Option<Option<T>> {
    let end = job.as_mut().and_then(Job::poll)?;
    *job = None;
    Some(match end {
        JobEnd::Done(Ok(result)) => Some(result),
        JobEnd::Done(Err(ClassifyError::Cancelled)) => None,
        JobEnd::Done(Err(e)) => {
            *error = Some(e.to_string());
            None
        }
        JobEnd::Failed(e) => {
            *error = Some(e);
            None
        }
    })
}

/// The legend's colour of each terrain code.
fn terrain_colours(doc: &Document) -> std::collections::HashMap<char, Color32> {
    doc.map
        .terrain
        .iter()
        .filter_map(|(code, t)| Some((code.chars().next()?, colour32(&t.colour, Color32::MAGENTA))))
        .collect()
}

impl Suggest {
    /// Forgets samples and suggestions made on another grid.
    pub fn sync(&mut self, grid: &Grid) {
        if self.grid.as_ref().is_some_and(|g| g != grid) {
            *self = Suggest {
                threshold: self.threshold,
                overlay: self.overlay,
                ..Suggest::default()
            };
        }
        if self.grid.is_none() {
            self.grid = Some(grid.clone());
        }
    }

    /// Marks a hex as a sample of `code`, or unmarks it when it already is one.
    pub fn toggle_sample(&mut self, hex: HexIndex, code: char) {
        if self.samples.get(&hex) == Some(&code) {
            self.samples.remove(&hex);
        } else {
            self.samples.insert(hex, code);
            self.clear_advice(NEED_SAMPLES);
        }
    }

    /// Drops the advice to mark samples once the user marks some.
    fn clear_advice(&mut self, advice: &str) {
        if self.error.as_deref() == Some(advice) {
            self.error = None;
        }
    }

    /// Marks a hexside as a sample of the chosen feature (or plain), or as a crossing of the
    /// chosen line through the hexes; or unmarks it.
    pub fn toggle_side_sample(&mut self, grid: &Grid, hex: HexIndex, side: Side) {
        if let Some(line) = self.crossing_line.clone() {
            self.toggle_crossing_sample(grid, hex, side, line);
            return;
        }
        let key = grid.canonical_hexside(hex, side);
        if self.side_samples.get(&key) == Some(&self.side_feature) {
            self.side_samples.remove(&key);
        } else {
            self.side_samples.insert(key, self.side_feature.clone());
            self.clear_advice(NEED_SIDE_SAMPLES);
        }
    }

    /// How many samples each code has.
    pub fn sample_counts(&self) -> BTreeMap<char, usize> {
        let mut counts = BTreeMap::new();
        for code in self.samples.values() {
            *counts.entry(*code).or_insert(0) += 1;
        }
        counts
    }

    fn terrain_samples(&self) -> BTreeMap<String, Vec<HexIndex>> {
        let mut out: BTreeMap<String, Vec<HexIndex>> = BTreeMap::new();
        for (hex, code) in &self.samples {
            out.entry(code.to_string()).or_default().push(*hex);
        }
        out
    }

    /// Starts classifying every hex.
    pub fn start_terrain(
        &mut self,
        ctx: &egui::Context,
        scan: Arc<Scan>,
        grid: &Grid,
        mapping: GridMapping,
    ) {
        if self.samples.is_empty() {
            self.error = Some(NEED_SAMPLES.into());
            return;
        }
        self.error = None;
        let samples = self.terrain_samples();
        let grid = grid.clone();
        self.terrain_job = Some(Job::spawn("Classifying hexes", ctx, move |progress| {
            suggest_terrain_with_progress(
                &scan,
                &grid,
                &mapping,
                &samples,
                &ClassifyOptions::default(),
                progress,
            )
        }));
    }

    /// Starts suggesting hexside features and the lines through the hexes (the hexes'
    /// colours come from the terrain suggestions when there are some).
    pub fn start_hexsides(
        &mut self,
        ctx: &egui::Context,
        scan: Arc<Scan>,
        grid: &Grid,
        mapping: GridMapping,
    ) {
        if !self.side_samples.values().any(Option::is_some) && self.crossing_samples.is_empty() {
            self.error = Some(NEED_SIDE_SAMPLES.into());
            return;
        }
        self.error = None;
        let mut samples = HexsideSamples::default();
        for (hexside, feature) in &self.side_samples {
            match feature {
                Some(id) => samples
                    .features
                    .entry(id.clone())
                    .or_default()
                    .push(*hexside),
                None => samples.plain.push(*hexside),
            }
        }
        let features = !samples.features.is_empty();
        let paths = self.path_samples();
        let terrain = self.terrain.clone();
        let terrain_samples = self.terrain_samples();
        let grid = grid.clone();
        self.hexside_from_run = self.terrain_runs;
        self.hexside_job = Some(Job::spawn("Finding hexsides", ctx, move |progress| {
            let options = ClassifyOptions::default();
            let suggested = terrain.is_some();
            let terrain = match terrain {
                Some(t) => t,
                None => {
                    // Only the hexes' colours are needed: any one sample gives them all.
                    let samples = if terrain_samples.is_empty() {
                        BTreeMap::from([("?".to_owned(), vec![HexIndex::new(0, 0)])])
                    } else {
                        terrain_samples
                    };
                    suggest_terrain_with_progress(
                        &scan,
                        &grid,
                        &mapping,
                        &samples,
                        &options,
                        &|p| progress(0.5 * p),
                    )?
                }
            };
            // The same pass as the command's: the hexside features, the terrain in doubt
            // judged again with the lines' inks masked, the lines through the hexes.
            let found = suggest_features(
                &scan,
                &grid,
                &mapping,
                &terrain,
                &samples,
                &paths,
                &options,
                &|p| progress(0.5 + 0.5 * p),
            )?;
            Ok(HexsideResult {
                hexsides: features.then_some(found.hexsides),
                crossings: found.crossings,
                terrain: suggested.then_some(found.terrain),
            })
        }));
    }

    /// Collects finished jobs; returns whether something finished.
    pub fn poll(&mut self) -> bool {
        let terrain = finished(&mut self.terrain_job, &mut self.error);
        let hexsides = finished(&mut self.hexside_job, &mut self.error);
        let done = terrain.is_some() || hexsides.is_some();
        if let Some(Some(t)) = terrain {
            self.terrain = Some(t);
            self.terrain_runs += 1;
            self.skipped.clear();
            self.review = None;
        }
        if let Some(Some(found)) = hexsides {
            if let Some(t) = found.terrain
                && self.terrain_job.is_none()
                && self.hexside_from_run == self.terrain_runs
            {
                self.terrain = Some(t);
            }
            if found.hexsides.is_none() && found.crossings.is_none() {
                self.error = Some(NO_LINE_INK.into());
            }
            self.hexsides = found.hexsides;
            self.crossings = found.crossings;
            self.side_skipped.clear();
            self.side_review = None;
            self.crossing_skipped.clear();
            self.crossing_review = None;
        }
        done
    }

    pub fn busy(&self) -> bool {
        self.terrain_job.is_some() || self.hexside_job.is_some()
    }

    /// The suggested code of a hex and its confidence (marked samples count as certain).
    pub fn suggestion(&self, doc: &Document, hex: HexIndex) -> Option<(char, f32)> {
        let s = self.terrain.as_ref()?.get(&doc.map.grid, hex)?;
        let code = first_char(s.code.as_deref())?;
        Some((code, if s.marked { 1.0 } else { s.confidence }))
    }

    /// Cells whose suggestion differs from the map with a confidence of at least `threshold`.
    pub fn accept_terrain(&self, doc: &Document, threshold: f32) -> Vec<CellChange> {
        let Some(terrain) = &self.terrain else {
            return Vec::new();
        };
        terrain
            .hexes
            .iter()
            .filter_map(|s| {
                let after = first_char(s.code.as_deref())?;
                let confidence = if s.marked { 1.0 } else { s.confidence };
                let before = doc.code(s.index)?;
                (after != before && confidence >= threshold && in_legend(doc, after)).then_some(
                    CellChange {
                        hex: s.index,
                        before,
                        after,
                    },
                )
            })
            .collect()
    }

    /// Hexes whose suggestion differs from the map with a confidence under the threshold, not
    /// skipped, row by row.
    pub fn doubtful(&self, doc: &Document) -> Vec<HexIndex> {
        let Some(terrain) = &self.terrain else {
            return Vec::new();
        };
        terrain
            .hexes
            .iter()
            .filter(|s| {
                !s.marked
                    && s.confidence < self.threshold
                    && first_char(s.code.as_deref()).is_some_and(|c| doc.code(s.index) != Some(c))
                    && !self.skipped.contains(&s.index)
            })
            .map(|s| s.index)
            .collect()
    }

    /// The next (or previous) doubtful hex after the one reviewed, wrapping around.
    pub fn step_review(&mut self, doc: &Document, forward: bool) -> Option<HexIndex> {
        let list = self.doubtful(doc);
        let next = match self.review {
            Some(current) if forward => list
                .iter()
                .find(|h| **h > current)
                .or(list.first())
                .copied(),
            Some(current) => list
                .iter()
                .rev()
                .find(|h| **h < current)
                .or(list.last())
                .copied(),
            None if forward => list.first().copied(),
            None => list.last().copied(),
        };
        self.review = next;
        next
    }

    /// The change accepting the reviewed hex's suggestion.
    pub fn accept_reviewed(&self, doc: &Document) -> Option<Change> {
        let hex = self.review?;
        let (after, _) = self.suggestion(doc, hex)?;
        let before = doc.code(hex)?;
        (before != after).then(|| Change::Terrain(vec![CellChange { hex, before, after }]))
    }

    /// The hexside review queue: hexsides whose suggestion (a feature, or plain) differs from
    /// the map with a confidence under the threshold, not skipped, row by row.
    pub fn doubtful_hexsides(&self, doc: &Document) -> Vec<(HexIndex, Side)> {
        let differs = |s: &HexsideSuggestion| {
            let side = doc.map.grid.hexside_ref(s.index, s.side);
            s.feature.as_ref().map_or_else(
                || doc.map.hexsides.values().any(|l| l.contains(&side)),
                |f| !doc.has_hexside(f, &side),
            )
        };
        let list = self.hexsides.iter().flatten();
        list.filter(|s| !s.marked && s.confidence < self.threshold && differs(s))
            .map(|s| (s.index, s.side))
            .filter(|h| !self.side_skipped.contains(h))
            .collect()
    }

    /// The suggestion for a hexside (canonical): the feature (`None`: plain) and confidence.
    pub fn side_suggestion(&self, hexside: (HexIndex, Side)) -> Option<(Option<Id>, f32)> {
        let mut list = self.hexsides.iter().flatten();
        let s = list.find(|s| (s.index, s.side) == hexside)?;
        Some((s.feature.clone(), if s.marked { 1.0 } else { s.confidence }))
    }

    /// The next (or previous) doubtful hexside after the one reviewed, wrapping around.
    pub fn step_side_review(&mut self, doc: &Document, forward: bool) -> Option<(HexIndex, Side)> {
        self.side_review = step_wrapping(&self.doubtful_hexsides(doc), self.side_review, forward);
        self.side_review
    }

    /// The changes accepting the reviewed hexside's suggestion (one undo step): the suggested
    /// feature added, or, when the scan suggests a plain hexside, every feature on it removed.
    pub fn accept_side_reviewed(&self, doc: &Document) -> Vec<Change> {
        let Some(((index, at), (suggested, _))) = self
            .side_review
            .and_then(|h| Some((h, self.side_suggestion(h)?)))
        else {
            return Vec::new();
        };
        let side = doc.map.grid.hexside_ref(index, at);
        match suggested {
            Some(feature) => (doc.map.hexside_types.contains_key(&feature)
                && !doc.has_hexside(&feature, &side))
            .then_some(Change::Hexside {
                feature,
                side,
                present: true,
            })
            .into_iter()
            .collect(),
            None => doc
                .hexside_features(&side)
                .into_iter()
                .map(|feature| Change::Hexside {
                    feature: feature.clone(),
                    side: side.clone(),
                    present: false,
                })
                .collect(),
        }
    }

    /// Hexside features suggested with at least `threshold` confidence and not on the map.
    pub fn accept_hexsides(&self, doc: &Document, threshold: f32) -> Vec<Change> {
        let grid = &doc.map.grid;
        let Some(list) = &self.hexsides else {
            return Vec::new();
        };
        list.iter()
            .filter_map(|s| {
                let feature = s.feature.clone()?;
                let confidence = if s.marked { 1.0 } else { s.confidence };
                let side = grid.hexside_ref(s.index, s.side);
                (confidence >= threshold
                    && doc.map.hexside_types.contains_key(&feature)
                    && !doc.has_hexside(&feature, &side))
                .then_some(Change::Hexside {
                    feature,
                    side,
                    present: true,
                })
            })
            .collect()
    }

    /// Draws the samples and the suggestions over the map.
    pub fn paint(&self, painter: &egui::Painter, view: &MapView, rect: Rect, doc: &Document) {
        let grid = &doc.map.grid;
        let colours = terrain_colours(doc);
        let colour_of = |code: &char| colours.get(code).copied().unwrap_or(Color32::MAGENTA);
        let visible = view.visible_grid_rect(rect).expand(1.5);
        let in_view = |hex: HexIndex| {
            let [x, y] = grid.centre(hex);
            visible.contains(pos2(x, y))
        };
        let mut mesh = Mesh::default();
        let mut add_hex = |hex: HexIndex, scale: f32, colour: Color32| {
            let [cx, cy] = grid.centre(hex);
            let base = mesh.vertices.len() as u32;
            for [x, y] in grid.corners(hex) {
                let p = pos2(cx + (x - cx) * scale, cy + (y - cy) * scale);
                mesh.colored_vertex(view.to_screen(rect, p), colour);
            }
            for i in 1..5 {
                mesh.add_triangle(base, base + i, base + i + 1);
            }
        };
        if let Some(terrain) = &self.terrain {
            for s in &terrain.hexes {
                if !in_view(s.index) {
                    continue;
                }
                let confidence = if s.marked { 1.0 } else { s.confidence };
                match self.overlay {
                    Overlay::Tint => {
                        let Some(code) = first_char(s.code.as_deref()) else {
                            continue;
                        };
                        if doc.code(s.index) == Some(code) {
                            continue;
                        }
                        let colour = colour_of(&code);
                        add_hex(s.index, 0.72, colour.gamma_multiply(0.85));
                    }
                    Overlay::Confidence => add_hex(s.index, 1.0, heat(confidence)),
                    Overlay::Off => {}
                }
            }
        }
        let mut shapes = vec![Shape::mesh(mesh)];
        if self.overlay == Overlay::Tint
            && let Some(terrain) = &self.terrain
        {
            // Doubtful hexes outlined.
            for s in &terrain.hexes {
                if !s.marked
                    && s.confidence < self.threshold
                    && in_view(s.index)
                    && first_char(s.code.as_deref()).is_some_and(|c| doc.code(s.index) != Some(c))
                {
                    shapes.push(Shape::closed_line(
                        view.hex_outline(grid, rect, s.index),
                        Stroke::new(2.0, Color32::from_rgb(255, 140, 0)),
                    ));
                }
            }
        }
        // Samples: a disc of the code's colour with a dark rim.
        let r = (view.zoom * 0.28).clamp(3.0, 14.0);
        for (hex, code) in &self.samples {
            if !in_view(*hex) {
                continue;
            }
            let colour = colour_of(code);
            let [x, y] = grid.centre(*hex);
            let c = view.to_screen(rect, pos2(x, y));
            shapes.push(Shape::circle_filled(c, r, colour));
            shapes.push(Shape::circle_stroke(c, r, Stroke::new(2.0, Color32::BLACK)));
        }
        // Hexside suggestions not yet on the map, and hexside samples.
        if self.overlay != Overlay::Off
            && let Some(list) = &self.hexsides
        {
            for s in list {
                let Some(feature) = &s.feature else { continue };
                if !in_view(s.index) || doc.has_hexside(feature, &grid.hexside_ref(s.index, s.side))
                {
                    continue;
                }
                let colour = if s.marked || s.confidence >= self.threshold {
                    Color32::from_rgb(0, 170, 255)
                } else {
                    Color32::from_rgb(255, 140, 0)
                };
                if let Some([a, b]) = grid.side_corners(s.index, s.side) {
                    let (a, b) = (pos2(a[0], a[1]), pos2(b[0], b[1]));
                    shapes.extend(Shape::dashed_line(
                        &[view.to_screen(rect, a), view.to_screen(rect, b)],
                        Stroke::new((view.zoom * 0.12).clamp(2.0, 6.0), colour),
                        6.0,
                        4.0,
                    ));
                }
            }
        }
        for ((hex, side), feature) in &self.side_samples {
            if !in_view(*hex) {
                continue;
            }
            let colour = match feature {
                Some(id) => doc
                    .map
                    .hexside_types
                    .get(id)
                    .map_or(Color32::BLUE, |t| colour32(&t.colour, Color32::BLUE)),
                None => Color32::from_gray(60),
            };
            if let Some([a, b]) = grid.side_corners(*hex, *side) {
                let (a, b) = (pos2(a[0], a[1]), pos2(b[0], b[1]));
                let mid = view.to_screen(rect, a + (b - a) * 0.5);
                shapes.push(Shape::line_segment(
                    [view.to_screen(rect, a), view.to_screen(rect, b)],
                    Stroke::new(3.0, colour),
                ));
                shapes.push(Shape::rect_filled(
                    Rect::from_center_size(mid, vec2(r, r)),
                    1.0,
                    colour,
                ));
            }
        }
        self.paint_crossings(&mut shapes, view, rect, doc, &in_view);
        if let Some((hex, side)) = self.side_review
            && let Some([a, b]) = grid.side_corners(hex, side)
        {
            let to_screen = |p: [f32; 2]| view.to_screen(rect, pos2(p[0], p[1]));
            shapes.push(Shape::line_segment(
                [to_screen(a), to_screen(b)],
                Stroke::new(5.0, Color32::from_rgb(255, 0, 200)),
            ));
        }
        if let Some(hex) = self.review {
            shapes.push(Shape::closed_line(
                view.hex_outline(grid, rect, hex),
                Stroke::new(4.0, Color32::from_rgb(255, 0, 200)),
            ));
        }
        painter.extend(shapes);
    }
}

/// Red (0) through yellow to green (1), translucent.
pub fn heat(confidence: f32) -> Color32 {
    let c = confidence.clamp(0.0, 1.0);
    let (r, g) = if c < 0.5 {
        (1.0, c * 2.0)
    } else {
        (2.0 - c * 2.0, 1.0)
    };
    Color32::from_rgba_unmultiplied((r * 230.0) as u8, (g * 200.0) as u8, 40, 150)
}

/// The entry after (or before) `current` in a review list, wrapping around; the first (or last)
/// when `current` is not in it. The hexside and crossing review queues step with it.
pub(crate) fn step_wrapping<T: Copy + PartialEq>(
    list: &[T],
    current: Option<T>,
    forward: bool,
) -> Option<T> {
    let at = current.and_then(|h| list.iter().position(|x| *x == h));
    let next = match (at, forward) {
        (Some(p), true) => list.get(p + 1).or(list.first()),
        (Some(p), false) => p.checked_sub(1).and_then(|q| list.get(q)).or(list.last()),
        (None, true) => list.first(),
        (None, false) => list.last(),
    };
    next.copied()
}

#[cfg(test)]
mod step_wrapping_tests {
    use super::step_wrapping;

    #[test]
    fn steps_wrap_around_and_start_at_an_end() {
        let list = [3, 5, 8];
        assert_eq!(step_wrapping(&list, Some(5), true), Some(8));
        assert_eq!(step_wrapping(&list, Some(8), true), Some(3));
        assert_eq!(step_wrapping(&list, Some(3), false), Some(8));
        assert_eq!(step_wrapping(&list, Some(5), false), Some(3));
        assert_eq!(step_wrapping(&list, None, true), Some(3));
        assert_eq!(step_wrapping(&list, Some(4), false), Some(8));
        assert_eq!(step_wrapping::<i32>(&[], Some(4), true), None);
    }
}
