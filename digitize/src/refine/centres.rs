//! Each hex's centre from its own printed sides. A printed sheet's hexes are not all alike:
//! on a real paper map each is drawn a little off the lattice, one by one (Arnhem: opposite
//! sides −0.8 to +1.5 px off it, varying hex to hex), which no smooth correction follows. Here
//! each of a hex's six sides is read across its middle where the refined grid puts it — the
//! line's two edges where the luminance crosses halfway between the paper beside it and the
//! ink, and their midpoint — and the hex's shift is the one that best explains the sides read.
//! A side is read clearly when the line is darker than the paper by [`DEPTH`] with the same
//! paper on both sides ([`BALANCE`]: not the edge of a town or a field), as wide as the print's
//! median line ([`WIDTH`]: not a river or a road beside it) and within half that width of the
//! refined grid ([`off_px`]). The shift is kept only where four or more sides are read clearly,
//! two opposite pairs among them, agreeing with one shift to a third of the line's width
//! ([`agree_px`]), and it is larger than what reading adds ([`SHIFT_AT_LEAST`]), so the hexes of
//! a regular print stay on the lattice. The distances are the print's own: its median line
//! width, measured on the sheet (Arnhem's 6 px lines gave the 3 px and 2 px these were first
//! set to; naw's, asl-bd02's and tld's are 1.2-2 px).

#[allow(clippy::wildcard_imports, reason = "the parent's model and constants")]
use super::*;
use bataille_schema::Side;
use rayon::prelude::*;
use std::collections::HashMap;

/// The sides read must agree with the hex's one shift to a third of the print's line width
/// `typical` (px): a hex drawn a little large or small moves opposite sides apart, by up to a
/// pixel and a half on Arnhem's 6 px lines, as the pen went.
fn agree_px(typical: f64) -> f64 {
    typical / 3.0
}
/// A shift under this (px) is reading noise as much as the print's: not applied. In the scan's
/// pixels, not the print's line width: the noise of a line read across is the sampling's.
/// (As a share of the line width — an eighth, 0.75 px on Arnhem's lines — it moved 58 of
/// asl-bd02's hexes, its worst centre 0.12 -> 0.34 px against its grid file, and 1,410 of
/// tld's: shifts of 0.15-0.35 px that are reading noise on a print fitted to 0.06 px.)
const SHIFT_AT_LEAST: f64 = 0.75;
/// The line is darker than the paper beside it by at least this (luminance, 0-255)...
const DEPTH: f64 = 25.0;
/// ... and the paper on its two sides differs by at most this share of that.
const BALANCE: f64 = 0.25;
/// A side read this much narrower or wider than the print's median line is not its line.
const WIDTH: (f64, f64) = (0.6, 1.5);
/// A side read further from where the refined grid puts it than half the print's line width
/// `typical` (px) is another line: the grid's own line covers that. Never under twice the least
/// shift applied, or no hex of a print with thin lines could be moved at all (a hex moved by
/// [`SHIFT_AT_LEAST`] moves its sides' readings by up to as much, and reading adds as much
/// again): tld's, asl-bd02's and naw's 1.2-2 px lines.
fn off_px(typical: f64) -> f64 {
    (typical / 2.0).max(2.0 * SHIFT_AT_LEAST)
}

fn luminance(p: [f32; 3]) -> f64 {
    f64::from(0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2])
}

/// The printed line across a side: its offset (px) along `normal` from `mid` and its width, from
/// its two edges where the luminance profile (averaged along the side's middle 60 %) crosses
/// halfway between the paper beside it and the ink; `None` when no clear line is there.
fn line_edges(
    scan: &Scan,
    mid: [f64; 2],
    tangent: [f64; 2],
    normal: [f64; 2],
    length: f64,
) -> Option<(f64, f64)> {
    let reach = (0.15 * length).clamp(3.0, 8.0);
    let steps = (4.0 * reach).ceil() as usize;
    let along = 12;
    let at = |s: usize| -reach + 2.0 * reach * s as f64 / steps as f64;
    let sampler = Sampler::new(scan);
    // Along the side, then across it at each step along (see `probe::find_line`): each
    // offset's sum is added up along the side in order, the same to the bit.
    let mut sums = vec![0.0f64; steps + 1];
    for u in 0..along {
        let v = (-0.3 + 0.6 * f64::from(u) / f64::from(along - 1)) * length;
        for (s, sum) in sums.iter_mut().enumerate() {
            let across = at(s);
            *sum += luminance(sampler.at(
                mid[0] + tangent[0] * v + normal[0] * across,
                mid[1] + tangent[1] * v + normal[1] * across,
            )?);
        }
    }
    let profile: Vec<f64> = sums.iter().map(|s| s / f64::from(along)).collect();
    let (low, min) = profile
        .iter()
        .copied()
        .enumerate()
        .min_by(|a, b| a.1.total_cmp(&b.1))?;
    if low == 0 || low == steps {
        return None;
    }
    let left = profile[..=low].iter().copied().fold(f64::MIN, f64::max);
    let right = profile[low..].iter().copied().fold(f64::MIN, f64::max);
    let paper = left.min(right);
    // A line between the same paper on both sides: at an edge between two colours (a town's
    // grey beside a field) the valley's edges are not the line's.
    if paper - min < DEPTH || (left - right).abs() > BALANCE * (paper - min) {
        return None;
    }
    let half = (paper + min) / 2.0;
    let (mut lo, mut hi) = (low, low);
    while lo > 0 && profile[lo - 1] < half {
        lo -= 1;
    }
    while hi < steps && profile[hi + 1] < half {
        hi += 1;
    }
    if lo == 0 || hi == steps {
        return None;
    }
    // Each edge where the profile crosses halfway, between two samples.
    let cross = |a: usize, b: usize| {
        let (pa, pb) = (profile[a], profile[b]);
        let f = if (pb - pa).abs() > 1e-9 {
            (half - pa) / (pb - pa)
        } else {
            0.5
        };
        at(a) + f * (at(b) - at(a))
    };
    let (a, b) = (cross(lo - 1, lo), cross(hi, hi + 1));
    Some(((a + b) / 2.0, b - a))
}

/// Per hex (row-major, as `Grid::indices`), its shift (px) from where `model` puts it to the
/// centre its own printed sides give, where they are read clearly (see the module's
/// documentation); zero elsewhere. `None` when no hex has one.
pub(super) fn hex_shifts(scan: &Scan, grid: &Grid, model: &GridMapping) -> Option<Vec<[f64; 2]>> {
    let all = sides(grid.orientation);
    // Each side read once, from its canonical hex: (outward normal, offset, width).
    type Reading = Option<([f64; 2], f64, f64)>;
    let canonical: Vec<(HexIndex, Side)> = grid
        .indices()
        .flat_map(|i| all.iter().map(move |s| (i, *s)))
        .filter(|&(i, s)| grid.canonical_hexside(i, s) == (i, s))
        .collect();
    let read_side = |&(index, side): &(HexIndex, Side)| -> Reading {
        let [cx, cy] = grid.centre(index);
        let centre = model.map([f64::from(cx), f64::from(cy)]);
        let [a, b] = grid.side_corners(index, side)?;
        let [a, b] = [a, b].map(|p| model.map([f64::from(p[0]), f64::from(p[1])]));
        let mid = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
        let length = (b[0] - a[0]).hypot(b[1] - a[1]);
        if !(length.is_finite() && length > 4.0) {
            return None;
        }
        let t = [(b[0] - a[0]) / length, (b[1] - a[1]) / length];
        let mut n = [-t[1], t[0]];
        if n[0] * (mid[0] - centre[0]) + n[1] * (mid[1] - centre[1]) < 0.0 {
            n = [-n[0], -n[1]];
        }
        line_edges(scan, mid, t, n, length).map(|(o, w)| (n, o, w))
    };
    let by_side: HashMap<(HexIndex, Side), Reading> =
        canonical.par_iter().map(|h| (*h, read_side(h))).collect();
    // Each hex's six sides as read from it (the neighbour's reading turned round).
    type Read = [Reading; 6];
    let readings: Vec<Read> = grid
        .indices()
        .map(|index| {
            let mut read: Read = [None; 6];
            for (k, side) in all.iter().enumerate() {
                let key = grid.canonical_hexside(index, *side);
                read[k] = by_side.get(&key).copied().flatten().map(|(n, o, w)| {
                    if key.0 == index {
                        (n, o, w)
                    } else {
                        ([-n[0], -n[1]], -o, w)
                    }
                });
            }
            read
        })
        .collect();
    // The print's own line width: a side read wider or narrower is another line beside it (a
    // river, a road), or ink over it; and one read further from the refined grid than it can
    // be off is another line too.
    let typical = median(
        readings
            .iter()
            .flat_map(|r| r.iter().flatten().map(|(_, _, w)| *w))
            .collect(),
    );
    let (off, agree) = (off_px(typical), agree_px(typical));
    let clear = |(_, o, w): &([f64; 2], f64, f64)| {
        (WIDTH.0 * typical..=WIDTH.1 * typical).contains(w) && o.abs() <= off
    };
    let shifts: Vec<[f64; 2]> = readings
        .iter()
        .map(|read| {
            let ok: Vec<bool> = read.iter().map(|r| r.as_ref().is_some_and(clear)).collect();
            let sides: Vec<([f64; 2], f64)> = read
                .iter()
                .zip(&ok)
                .filter(|(_, ok)| **ok)
                .filter_map(|(r, _)| r.map(|(n, o, _)| (n, o)))
                .collect();
            let pairs = (0..3).filter(|k| ok[*k] && ok[k + 3]).count();
            if sides.len() < 4 || pairs < 2 {
                return [0.0, 0.0];
            }
            let (mut a11, mut a12, mut a22, mut b1, mut b2) = (0.0, 0.0, 0.0, 0.0, 0.0);
            for (n, o) in &sides {
                a11 += n[0] * n[0];
                a12 += n[0] * n[1];
                a22 += n[1] * n[1];
                b1 += n[0] * o;
                b2 += n[1] * o;
            }
            let det = a11 * a22 - a12 * a12;
            if det.abs() < 1e-9 {
                return [0.0, 0.0];
            }
            let s = [(a22 * b1 - a12 * b2) / det, (a11 * b2 - a12 * b1) / det];
            let agree = sides
                .iter()
                .all(|(n, o)| (n[0] * s[0] + n[1] * s[1] - o).abs() <= agree);
            if !agree || s[0].hypot(s[1]) < SHIFT_AT_LEAST {
                return [0.0, 0.0];
            }
            s
        })
        .collect();
    shifts.iter().any(|s| *s != [0.0, 0.0]).then_some(shifts)
}
