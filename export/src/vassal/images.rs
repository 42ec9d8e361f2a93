//! The module's images: the board when it is the map's scan, the rules' charts, each counter's
//! front and back (one image per stem), and a variant's own where it draws a counter
//! differently.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use bataille_render::Layout;
use bataille_render::symbology::Drawing;
use bataille_render::tiny_skia::{Color, Pixmap, Transform};
use bataille_schema::map::Background;
use bataille_schema::{Map, Scenario};

use super::image_stem;
use crate::counters::{Counter, counters};
use crate::{ExportError, file_stem};

/// The images under `images/` by file name.
pub(super) type Images = BTreeMap<String, Vec<u8>>;

/// A setup's image stem per counter id.
pub(super) type Stems = BTreeMap<String, String>;

/// The board as the map's scan (as the door confined it) resampled through its fit onto the
/// board's layout, written into `out` a band at a time (never held whole).
pub(super) fn write_scan_board(
    background: &Background,
    scan: &Path,
    layout: &Layout,
    out: &mut (impl std::io::Write + Send),
) -> Result<(), ExportError> {
    let l = *layout;
    crate::tiled::resample_into(
        background,
        scan,
        (layout.width, layout.height),
        move |x, y| {
            let r = f64::from(l.radius_px);
            [
                (x - f64::from(l.offset_px[0])) / r,
                (y - f64::from(l.offset_px[1])) / r,
            ]
        },
        out,
    )
}

/// The rules' charts (a combat results table), each an image for the chart window.
pub(super) fn chart_images(scenario: &Scenario, images: &mut Images) -> Result<(), ExportError> {
    for chart in &scenario.rules.charts {
        let (drawing, [w, h]) = bataille_render::symbology::chart(chart, 16.0);
        let mut pixmap = Pixmap::new(w.ceil() as u32, h.ceil() as u32)
            .ok_or_else(|| ExportError::Invalid(format!("chart `{}` cannot be drawn", chart.id)))?;
        pixmap.fill(Color::WHITE);
        drawing.paint(&mut pixmap, Transform::identity());
        images.insert(
            format!("chart-{}.png", file_stem(chart.id.as_str())),
            bataille_render::encode_png(&pixmap)?,
        );
    }
    Ok(())
}

/// Each counter's images (front, and back when it has one), once per stem (the first counter
/// with a stem draws it), drawn together ([`crate::counters::pngs`]).
pub(super) fn counter_images<'c>(
    all: impl Iterator<Item = &'c Counter<'c>>,
    (side, canvas): (f32, u32),
    images: &mut Images,
) -> Result<(), ExportError> {
    let mut wanted: Vec<(String, &Counter, bool)> = Vec::new();
    let mut stems = BTreeSet::new();
    for counter in all {
        let stem = image_stem(counter);
        if images.contains_key(&crate::image_name(&stem, &[])) || !stems.insert(stem.clone()) {
            continue;
        }
        if counter.has_back() {
            wanted.push((crate::image_name(&stem, &["back"]), counter, true));
        }
        wanted.push((crate::image_name(&stem, &[]), counter, false));
    }
    let pairs: Vec<(&Counter, bool)> = wanted
        .iter()
        .map(|&(_, counter, back)| (counter, back))
        .collect();
    let drawn = crate::counters::pngs(&pairs, side, canvas)?;
    let drawn = wanted.into_iter().map(|(name, ..)| name).zip(drawn);
    images.extend(drawn);
    Ok(())
}

/// Each setup's counters on the map, and the image stem of each (by counter id): the module's
/// image when the setup draws the counter the same, its own (`….setup-N`, added to `images`)
/// otherwise. A counter drawn as the module's own counter of its stem (`all`) is not painted
/// again: the drawings are compared first, and only a counter whose drawing differs is painted
/// and its picture compared (a folder of 1,000 variants painted 90,000 counters, 0.2 s of a
/// debug export per variant, for pictures equal to the module's).
pub(super) fn setup_images<'s>(
    setups: &[crate::variants::Setup<'s>],
    all: &[Counter<'_>],
    map: &Map,
    (side, canvas): (f32, u32),
    images: &mut Images,
) -> Result<(Vec<Vec<Counter<'s>>>, Vec<Stems>), ExportError> {
    let setup_counters: Vec<Vec<Counter>> =
        setups.iter().map(|s| counters(s.scenario, map)).collect();
    // The module's own drawing of each stem (the first counter of a stem draws it, as in
    // [`counter_images`]), made when a setup's counter of that stem is met (compared as
    // drawings: their debug text was a string a counter).
    let mut module: BTreeMap<String, &Counter> = BTreeMap::new();
    for counter in all {
        module.entry(image_stem(counter)).or_insert(counter);
    }
    let drawn = |counter: &Counter, back: bool| counter.drawing(side, back);
    let mut module_drawings: BTreeMap<String, (Drawing, Option<Drawing>)> = BTreeMap::new();
    let mut setup_stems: Vec<Stems> = Vec::new();
    for (n, all_of) in setup_counters.iter().enumerate() {
        let mut stems = BTreeMap::new();
        for counter in all_of {
            let stem = image_stem(counter);
            if let Some(own) = module.get(&stem) {
                let theirs = module_drawings.entry(stem.clone()).or_insert_with(|| {
                    (drawn(own, false), own.has_back().then(|| drawn(own, true)))
                });
                let mine = (
                    drawn(counter, false),
                    counter.has_back().then(|| drawn(counter, true)),
                );
                if *theirs == mine {
                    stems.insert(counter.id.clone(), stem);
                    continue;
                }
            }
            let front = counter.png(side, canvas, false)?;
            let back = counter
                .has_back()
                .then(|| counter.png(side, canvas, true))
                .transpose()?;
            let same = images.get(&crate::image_name(&stem, &[])) == Some(&front)
                && back
                    .as_ref()
                    .is_none_or(|b| images.get(&crate::image_name(&stem, &["back"])) == Some(b));
            let stem = if same {
                stem
            } else {
                let own = format!("{stem}.setup-{}", n + 1);
                images.insert(crate::image_name(&own, &[]), front);
                if let Some(back) = back {
                    images.insert(crate::image_name(&own, &["back"]), back);
                }
                own
            };
            stems.insert(counter.id.clone(), stem);
        }
        setup_stems.push(stems);
    }
    Ok((setup_counters, setup_stems))
}
