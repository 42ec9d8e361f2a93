//! The lines drawn through the hexes (roads, railways: the map's `paths` and `overlays`) in
//! the suggestion tools: crossings marked per overlay (a hexside the line passes through),
//! found with the hexside features by the library's one pass
//! (`bataille_digitize::classify::suggest_features`), shown over the map, accepted as paths of
//! neighbouring hexes (all, above the threshold, or one doubtful crossing at a time).
//!
//! Accepting adds paths, never rewrites the map's: the crossings the map's paths already
//! make are left as they are, the new ones are written as new paths
//! (`bataille_digitize::paths::paths_from_crossings`) after them, and the hexes they pass
//! through get the overlay, all in one undo step.

use std::collections::{BTreeMap, BTreeSet};

use bataille_digitize::classify::{CrossingSuggestion, PathSamples};
use bataille_digitize::paths::{
    crossings_of_paths, hexes_of_paths, paths_from_crossings, without_crossing,
};
use bataille_schema::map::{Grid, OverlaySymbol};
use bataille_schema::{HexIndex, Id, Side};
use egui::{Color32, Rect, Shape, Stroke, pos2};

use super::{Overlay, Suggest};
use crate::map::view::{MapView, colour32};
use crate::model::document::Document;
use crate::model::history::Change;

/// The overlays whose lines run through the hexes (drawn as roads): those a crossing can be
/// marked for.
pub fn line_overlays(doc: &Document) -> Vec<Id> {
    doc.map
        .overlay_types
        .iter()
        .filter(|(_, t)| t.symbol == OverlaySymbol::Road)
        .map(|(id, _)| id.clone())
        .collect()
}

impl Suggest {
    /// Marks a hexside as a crossing of `line`, or unmarks it when it already is one.
    pub fn toggle_crossing_sample(&mut self, grid: &Grid, hex: HexIndex, side: Side, line: Id) {
        let key = grid.canonical_hexside(hex, side);
        if self.crossing_samples.get(&key) == Some(&line) {
            self.crossing_samples.remove(&key);
        } else {
            self.crossing_samples.insert(key, line);
            self.clear_advice(super::NEED_SIDE_SAMPLES);
        }
    }

    /// How many crossings are marked for `line`.
    pub fn crossing_count(&self, line: &Id) -> usize {
        self.crossing_samples
            .values()
            .filter(|l| *l == line)
            .count()
    }

    /// The marked crossings, per line.
    pub(super) fn path_samples(&self) -> PathSamples {
        let mut lines: BTreeMap<Id, Vec<(HexIndex, Side)>> = BTreeMap::new();
        for (hexside, line) in &self.crossing_samples {
            lines.entry(line.clone()).or_default().push(*hexside);
        }
        PathSamples { lines }
    }

    /// The crossings the map's paths of `line` already make.
    fn on_map(doc: &Document, line: &Id) -> BTreeSet<(HexIndex, Side)> {
        doc.map
            .paths
            .get(line)
            .map(|p| crossings_of_paths(&doc.map.grid, p))
            .unwrap_or_default()
    }

    /// Suggested crossings of a line of the legend that the map's paths lack, with at least
    /// `threshold` confidence (marked ones count as certain), per line.
    fn missing(&self, doc: &Document, threshold: f32) -> BTreeMap<Id, BTreeSet<(HexIndex, Side)>> {
        let mut out: BTreeMap<Id, BTreeSet<(HexIndex, Side)>> = BTreeMap::new();
        let mut on_map: BTreeMap<Id, BTreeSet<(HexIndex, Side)>> = BTreeMap::new();
        for s in self.crossings.iter().flatten() {
            let Some(line) = &s.line else { continue };
            let confidence = if s.marked { 1.0 } else { s.confidence };
            if confidence < threshold || !doc.map.overlay_types.contains_key(line) {
                continue;
            }
            let known = on_map
                .entry(line.clone())
                .or_insert_with(|| Self::on_map(doc, line));
            if !known.contains(&(s.index, s.side)) {
                out.entry(line.clone())
                    .or_default()
                    .insert((s.index, s.side));
            }
        }
        out
    }

    /// The changes adding these crossings to the map (one undo step): per line, new paths
    /// after the map's, and the overlay on the hexes they pass through that lack it.
    fn adding(doc: &Document, new: &BTreeMap<Id, BTreeSet<(HexIndex, Side)>>) -> Vec<Change> {
        let grid = &doc.map.grid;
        let mut changes = Vec::new();
        for (line, crossed) in new.iter().filter(|(_, c)| !c.is_empty()) {
            let before = doc.map.paths.get(line).cloned().unwrap_or_default();
            let added = paths_from_crossings(grid, crossed);
            for hex in hexes_of_paths(grid, &added) {
                let name = grid.name(hex);
                if !doc.has_overlay(&name, line) {
                    changes.push(Change::Overlay {
                        hex: name,
                        overlay: line.clone(),
                        present: true,
                    });
                }
            }
            let after = [before.clone(), added].concat();
            changes.push(Change::Paths {
                overlay: line.clone(),
                before,
                after,
            });
        }
        changes
    }

    /// How many suggested crossings the map lacks, with at least `threshold` confidence.
    pub fn missing_crossings(&self, doc: &Document, threshold: f32) -> usize {
        self.missing(doc, threshold)
            .values()
            .map(BTreeSet::len)
            .sum()
    }

    /// The changes accepting every suggested crossing with at least `threshold` confidence
    /// that the map lacks (one undo step).
    pub fn accept_crossings(&self, doc: &Document, threshold: f32) -> Vec<Change> {
        Self::adding(doc, &self.missing(doc, threshold))
    }

    /// The crossing review queue: every crossing the trace left in doubt (a confidence under
    /// the threshold), a line suggested or none (ink crossing the side that the trace could
    /// not type: a junction, a label, a town), on the map's paths or not, not skipped, row by
    /// row. The review accepts it, adds it as a line of the legend, or removes it from the
    /// map's paths.
    pub fn doubtful_crossings(&self) -> Vec<(HexIndex, Side)> {
        self.crossings
            .iter()
            .flatten()
            .filter(|s| !s.marked && s.confidence < self.threshold)
            .map(|s| (s.index, s.side))
            .filter(|h| !self.crossing_skipped.contains(h))
            .collect()
    }

    /// The lines of the legend whose paths on the map cross `hexside` (canonical).
    pub fn lines_crossing(doc: &Document, hexside: (HexIndex, Side)) -> Vec<Id> {
        doc.map
            .paths
            .keys()
            .filter(|line| Self::on_map(doc, line).contains(&hexside))
            .cloned()
            .collect()
    }

    /// The changes adding the crossing of `hexside` (canonical) to the paths of `line`, a
    /// line of the legend (one undo step; none when its paths already cross it).
    pub fn adding_crossing(doc: &Document, hexside: (HexIndex, Side), line: &Id) -> Vec<Change> {
        if !doc.map.overlay_types.contains_key(line) || Self::on_map(doc, line).contains(&hexside) {
            return Vec::new();
        }
        let new = BTreeMap::from([(line.clone(), BTreeSet::from([hexside]))]);
        Self::adding(doc, &new)
    }

    /// The changes removing the crossing of `hexside` from the paths of `line` (one undo
    /// step): the path crossing it is cut there, and the hexes no path of the line passes
    /// through any more lose its overlay.
    pub fn removing_crossing(doc: &Document, hexside: (HexIndex, Side), line: &Id) -> Vec<Change> {
        let grid = &doc.map.grid;
        let before = doc.map.paths.get(line).cloned().unwrap_or_default();
        let after = without_crossing(grid, &before, hexside);
        if after == before {
            return Vec::new();
        }
        let still = hexes_of_paths(grid, &after);
        let mut changes: Vec<Change> = hexes_of_paths(grid, &before)
            .difference(&still)
            .map(|hex| grid.name(*hex))
            .filter(|name| doc.has_overlay(name, line))
            .map(|hex| Change::Overlay {
                hex,
                overlay: line.clone(),
                present: false,
            })
            .collect();
        changes.push(Change::Paths {
            overlay: line.clone(),
            before,
            after,
        });
        changes
    }

    /// The suggestion for a hexside (canonical): the line crossing it and the confidence.
    pub fn crossing_suggestion(&self, hexside: (HexIndex, Side)) -> Option<&CrossingSuggestion> {
        let mut list = self.crossings.iter().flatten();
        list.find(|s| (s.index, s.side) == hexside)
    }

    /// The next (or previous) doubtful crossing after the one reviewed, wrapping around.
    pub fn step_crossing_review(&mut self, forward: bool) -> Option<(HexIndex, Side)> {
        self.crossing_review =
            super::step_wrapping(&self.doubtful_crossings(), self.crossing_review, forward);
        self.crossing_review
    }

    /// The reviewed crossing leaves the queue (accepted or skipped): on to the next one after
    /// it, `None` when it was the last.
    pub fn crossing_reviewed(&mut self) -> Option<(HexIndex, Side)> {
        let current = self.crossing_review;
        let next = self.step_crossing_review(true);
        self.crossing_skipped.extend(current);
        if next == current {
            self.crossing_review = None;
        }
        self.crossing_review
    }

    /// The changes accepting the reviewed crossing (one undo step): the map's paths made to
    /// cross it as suggested. The line suggested is added when its paths lack it, and the
    /// paths of every other line of the legend crossing it there are cut (the trace suggests
    /// one line a hexside: accepting a railway where the map has a road retypes it); with no
    /// line suggested, every line's paths are cut there. Nothing when the map already agrees.
    pub fn accept_crossing_reviewed(&self, doc: &Document) -> Vec<Change> {
        let Some(s) = self
            .crossing_review
            .and_then(|h| self.crossing_suggestion(h))
        else {
            return Vec::new();
        };
        let hexside = (s.index, s.side);
        let mut changes: Vec<Change> = Self::lines_crossing(doc, hexside)
            .iter()
            .filter(|line| Some(*line) != s.line.as_ref())
            .flat_map(|line| Self::removing_crossing(doc, hexside, line))
            .collect();
        if let Some(line) = &s.line {
            changes.extend(Self::adding_crossing(doc, hexside, line));
        }
        changes
    }

    /// Draws the crossings over the map: each suggested one the map lacks as a dashed line
    /// from hex centre to hex centre (blue, orange when doubtful, grey when in doubt with no
    /// line suggested), each marked one solid in
    /// its overlay's colour, the reviewed one in magenta.
    pub(super) fn paint_crossings(
        &self,
        shapes: &mut Vec<Shape>,
        view: &MapView,
        rect: Rect,
        doc: &Document,
        in_view: &dyn Fn(HexIndex) -> bool,
    ) {
        let grid = &doc.map.grid;
        // From hex centre to hex centre; to the side's middle where the line leaves the map.
        let across = |index: HexIndex, side: Side| {
            let a = grid.centre(index);
            let b = match grid.neighbour(index, side) {
                Some(other) => grid.centre(other),
                None => {
                    let [p, q] = grid.side_corners(index, side)?;
                    [(p[0] + q[0]) / 2.0, (p[1] + q[1]) / 2.0]
                }
            };
            Some([
                view.to_screen(rect, pos2(a[0], a[1])),
                view.to_screen(rect, pos2(b[0], b[1])),
            ])
        };
        let width = (view.zoom * 0.1).clamp(2.0, 5.0);
        if self.overlay != Overlay::Off {
            let missing = self.missing(doc, 0.0);
            for s in self.crossings.iter().flatten() {
                let Some(line) = &s.line else {
                    // Ink crossing the side that the trace could not type: grey, for review.
                    if !s.marked
                        && s.confidence < self.threshold
                        && in_view(s.index)
                        && let Some(points) = across(s.index, s.side)
                    {
                        shapes.extend(Shape::dashed_line(
                            &points,
                            Stroke::new(width, Color32::from_gray(140)),
                            5.0,
                            4.0,
                        ));
                    }
                    continue;
                };
                if s.marked
                    || !in_view(s.index)
                    || !missing
                        .get(line)
                        .is_some_and(|m| m.contains(&(s.index, s.side)))
                {
                    continue;
                }
                let colour = if s.confidence >= self.threshold {
                    Color32::from_rgb(0, 170, 255)
                } else {
                    Color32::from_rgb(255, 140, 0)
                };
                if let Some(points) = across(s.index, s.side) {
                    shapes.extend(Shape::dashed_line(
                        &points,
                        Stroke::new(width, colour),
                        5.0,
                        4.0,
                    ));
                }
            }
        }
        for ((index, side), line) in &self.crossing_samples {
            if !in_view(*index) {
                continue;
            }
            let colour = doc
                .map
                .overlay_types
                .get(line)
                .and_then(|t| t.colour.as_ref())
                .map_or(Color32::from_rgb(120, 70, 20), |c| {
                    colour32(c, Color32::BROWN)
                });
            if let Some(points) = across(*index, *side) {
                shapes.push(Shape::line_segment(
                    points,
                    Stroke::new(width + 2.0, Color32::BLACK),
                ));
                shapes.push(Shape::line_segment(points, Stroke::new(width, colour)));
            }
        }
        if let Some((index, side)) = self.crossing_review
            && let Some(points) = across(index, side)
        {
            shapes.push(Shape::line_segment(
                points,
                Stroke::new(width + 3.0, Color32::from_rgb(255, 0, 200)),
            ));
        }
    }
}
