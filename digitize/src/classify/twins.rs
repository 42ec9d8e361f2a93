//! Codes drawn as symbols over the paper (a town's or a village's blocks): codes whose marked
//! hexes share a colour (*twins*) are told apart by what is drawn over it.

use super::{CLEAR_SUPPORT, HexSuggestion};
use crate::colour::{Lab, MODE_RADIUS, delta_e, dominant};

/// How near (ΔE) a pixel must be to a symbol's colour to be of it.
const SYMBOL_RADIUS: f32 = 15.0;
/// A code's marked hexes show a symbol's colour when the pixels drawn over their colour (over
/// 2 × [`MODE_RADIUS`] from it) and near it are at least this share of their discs.
const SYMBOL_AT_LEAST: f32 = 0.03;
/// ΔE worth one whole disc's share of a symbol, in the distance between twins.
const SHARE_WEIGHT: f32 = 50.0;

/// Whether a pixel is drawn over the hex's own colour.
fn over(p: Lab, colour: Lab) -> bool {
    delta_e(p, colour) > 2.0 * MODE_RADIUS
}

/// The colours drawn over a code's marked hexes (each its disc's pixels and its own colour):
/// the dominant colour of their pixels drawn over their own colour, then of those left apart
/// from it, and once more, each while at least [`SYMBOL_AT_LEAST`] of the discs (a town's or
/// a village's blocks; a forest's trees and the road through it). None: the paper with a
/// number or a line over it.
pub(super) fn symbol_colours(samples: &[(Vec<Lab>, Lab)]) -> Vec<Lab> {
    let total: usize = samples.iter().map(|(p, _)| p.len()).sum();
    let mut drawn: Vec<Lab> = samples
        .iter()
        .flat_map(|(pixels, colour)| pixels.iter().copied().filter(|p| over(*p, *colour)))
        .collect();
    let mut colours = Vec::new();
    while colours.len() < 3 && drawn.len() as f32 >= SYMBOL_AT_LEAST * total as f32 {
        let Some((lab, _)) = dominant(&mut drawn) else {
            break;
        };
        colours.push(lab);
        drawn.retain(|p| delta_e(*p, lab) >= SYMBOL_RADIUS);
    }
    colours
}

/// What is drawn over a hex's colour: per symbol colour, the share of its disc's pixels
/// drawn over its colour and near that symbol's.
pub(super) fn symbol_shares(pixels: &[Lab], colour: Lab, symbols: &[Lab]) -> Vec<f32> {
    let n = pixels.len().max(1) as f32;
    symbols
        .iter()
        .map(|s| {
            pixels
                .iter()
                .filter(|p| over(**p, colour) && delta_e(**p, *s) < SYMBOL_RADIUS)
                .count() as f32
                / n
        })
        .collect()
}

/// Codes whose marked hexes share a colour (samples within [`MODE_RADIUS`] of each other: a
/// village's or a town's blocks on the paper, marked as their own code) cannot be told apart
/// by the colour; between them a hex is judged by what is drawn over it too.
pub(super) fn twins(classes: &[(String, Vec<Lab>)]) -> Vec<Vec<usize>> {
    (0..classes.len())
        .map(|i| {
            (0..classes.len())
                .filter(|&j| {
                    j != i
                        && classes[i]
                            .1
                            .iter()
                            .any(|a| classes[j].1.iter().any(|b| delta_e(*a, *b) < MODE_RADIUS))
                })
                .collect()
        })
        .collect()
}

/// When the code found has twins (see [`twins`]), the choice among them by the colour and
/// what is drawn over it together: the distance to a sample is the ΔE of the colours plus
/// [`SHARE_WEIGHT`] times the difference of the shares of each symbol colour drawn over them
/// (`shares`, `sample_shares`: see [`symbol_shares`]), so a town's dark blocks, a village's
/// grey-blue ones and a river with a bridge's frame and a road over the paper differ. The
/// confidence is the lower of that choice's `1 − D₁/D₂` and the colour's own against the
/// other codes, lowered as [`judge`] lowers it for a crowded or strange hex.
pub(super) fn between_twins(
    s: &mut HexSuggestion,
    (colour, share): (Lab, f32),
    shares: &[f32],
    classes: &[(String, Vec<Lab>)],
    sample_shares: &[Vec<Vec<f32>>],
    twins: &[Vec<usize>],
) {
    let Some(winner) = classes.iter().position(|(c, _)| Some(c) == s.code.as_ref()) else {
        return;
    };
    if twins[winner].is_empty() {
        return;
    }
    let group: Vec<usize> = std::iter::once(winner)
        .chain(twins[winner].iter().copied())
        .collect();
    let by_colour = |k: usize| {
        classes[k]
            .1
            .iter()
            .map(|c| delta_e(colour, *c))
            .fold(f32::INFINITY, f32::min)
    };
    let d1c = group
        .iter()
        .map(|&k| by_colour(k))
        .fold(f32::INFINITY, f32::min);
    let d2c = (0..classes.len())
        .filter(|k| !group.contains(k))
        .map(by_colour)
        .fold(f32::INFINITY, f32::min);
    let colour_confidence = if d2c.is_finite() && d2c > 0.0 {
        (1.0 - d1c / d2c).clamp(0.0, 1.0)
    } else {
        1.0
    };
    let mut scored: Vec<(usize, f32)> = group
        .iter()
        .map(|&k| {
            let d = classes[k]
                .1
                .iter()
                .zip(&sample_shares[k])
                .map(|(c, o)| {
                    let apart: f32 = shares
                        .iter()
                        .zip(o)
                        .map(|(a, b)| (a.sqrt() - b.sqrt()).abs())
                        .sum();
                    delta_e(colour, *c) + SHARE_WEIGHT * apart
                })
                .fold(f32::INFINITY, f32::min);
            (k, d)
        })
        .collect();
    scored.sort_by(|a, b| a.1.total_cmp(&b.1));
    let (best, d1) = scored[0];
    let d2 = scored.get(1).map_or(f32::INFINITY, |x| x.1);
    let among = if d2 > 0.0 {
        (1.0 - d1 / d2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let crowding = (share / CLEAR_SUPPORT).clamp(0.0, 1.0);
    let strangeness = (1.5 - d1c / (2.0 * MODE_RADIUS)).clamp(0.0, 1.0);
    s.code = Some(classes[best].0.clone());
    s.confidence = among.min(colour_confidence) * crowding * strangeness;
}

/// The most samples of one code [`drop_mixed`] looks at (see there).
pub(super) const MIXED_MOST: usize = 64;

/// Drops the marked hexes that show another code's colour (a mixed hex marked with the code
/// of its lesser part: half grey-brown ground, half the paper): a sample over 2 ×
/// [`MODE_RADIUS`] from each of at least two others of its code that agree with each other
/// (within [`MODE_RADIUS`]), and within [`MODE_RADIUS`] of another code's sample. Kept, it
/// made the two codes twins and taught the paper's colour as the ground's. `keep` is
/// filtered alike (the samples' other statistics). A code keeps its samples when all of them
/// would go (no code vanishes), and a code of more than [`MIXED_MOST`] samples is left as it
/// is: the test is cubic in a code's samples (a samples file marking thousands of hexes of
/// one code would never end), and one mixed hex among so many does not move its colour.
pub(super) fn drop_mixed<T>(classes: &mut [(String, Vec<Lab>)], keep: &mut [Vec<T>]) {
    let mixed: Vec<Vec<bool>> = classes
        .iter()
        .enumerate()
        .map(|(k, (_, own))| {
            if own.len() > MIXED_MOST {
                return vec![false; own.len()];
            }
            own.iter()
                .enumerate()
                .map(|(i, c)| {
                    let apart: Vec<&Lab> = own
                        .iter()
                        .enumerate()
                        .filter(|(j, o)| *j != i && delta_e(*c, **o) > 2.0 * MODE_RADIUS)
                        .map(|(_, o)| o)
                        .collect();
                    let agree = apart.iter().enumerate().any(|(a, x)| {
                        apart[a + 1..]
                            .iter()
                            .any(|y| delta_e(**x, **y) < MODE_RADIUS)
                    });
                    let other = classes.iter().enumerate().any(|(j, (_, l))| {
                        j != k && l.iter().any(|o| delta_e(*c, *o) < MODE_RADIUS)
                    });
                    agree && other
                })
                .collect::<Vec<bool>>()
        })
        .map(|flags| {
            if flags.iter().all(|&f| f) {
                vec![false; flags.len()]
            } else {
                flags
            }
        })
        .collect();
    for (k, flags) in mixed.iter().enumerate() {
        let mut n = 0;
        classes[k].1.retain(|_| {
            n += 1;
            !flags[n - 1]
        });
        if let Some(list) = keep.get_mut(k) {
            let mut n = 0;
            list.retain(|_| {
                n += 1;
                !flags[n - 1]
            });
        }
    }
}

/// The ground a marked hex's symbol is drawn on: when its dominant colour covers under 60 %
/// of its disc, is near no other code's samples, and the dominant colour of the rest covers
/// at least 30 % of the disc and is near another code's sample (a town's dark blocks as dense
/// as the paper between them: which of the two is "dominant" is a toss-up), the sample's
/// colour is that ground's, so the code is the twin of the paper's, as its other hexes are.
/// `pixels(k, j)` gives the disc of class `k`'s sample `j`.
pub(super) fn ground_under_symbols(
    classes: &mut [(String, Vec<Lab>)],
    pixels: &dyn Fn(usize, usize) -> Option<Vec<Lab>>,
) {
    let near_other = |classes: &[(String, Vec<Lab>)], k: usize, c: Lab| {
        classes
            .iter()
            .enumerate()
            .any(|(j, (_, l))| j != k && l.iter().any(|o| delta_e(c, *o) < MODE_RADIUS))
    };
    let mut grounds = Vec::new();
    for (k, (_, colours)) in classes.iter().enumerate() {
        for (j, c) in colours.iter().enumerate() {
            if near_other(classes, k, *c) {
                continue;
            }
            let Some(disc) = pixels(k, j) else { continue };
            let n = disc.len().max(1) as f32;
            let share = disc
                .iter()
                .filter(|p| delta_e(**p, *c) <= MODE_RADIUS)
                .count() as f32
                / n;
            if share >= 0.6 {
                continue;
            }
            let mut rest: Vec<Lab> = disc
                .into_iter()
                .filter(|p| delta_e(*p, *c) > MODE_RADIUS)
                .collect();
            let Some((ground, of_rest)) = dominant(&mut rest) else {
                continue;
            };
            if of_rest * rest.len() as f32 >= 0.3 * n && near_other(classes, k, ground) {
                grounds.push((k, j, ground));
            }
        }
    }
    for (k, j, ground) in grounds {
        classes[k].1[j] = ground;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lab(l: f32) -> Lab {
        [l, 0.0, 0.0]
    }

    /// Two codes each marked on two hexes of the other's colour and two of its own: every
    /// sample "shows another code's colour", and dropping them all made the code vanish.
    #[test]
    fn a_code_never_loses_all_its_samples() {
        let mut classes = vec![
            (
                "a".to_owned(),
                vec![lab(20.0), lab(20.0), lab(80.0), lab(80.0)],
            ),
            (
                "b".to_owned(),
                vec![lab(80.0), lab(80.0), lab(20.0), lab(20.0)],
            ),
        ];
        drop_mixed::<()>(&mut classes, &mut []);
        assert_eq!(classes[0].1.len(), 4);
        assert_eq!(classes[1].1.len(), 4);
    }

    /// A mixed sample among a code's agreeing ones is dropped (and its statistics with it);
    /// past [`MIXED_MOST`] samples the code is left as it is.
    #[test]
    fn a_mixed_sample_is_dropped_up_to_the_bound() {
        let classes_of = |n: usize| {
            let mut own = vec![lab(20.0); n - 1];
            own.push(lab(80.0));
            vec![("a".to_owned(), own), ("b".to_owned(), vec![lab(80.0)])]
        };
        let mut classes = classes_of(MIXED_MOST);
        let mut keep = vec![(0..MIXED_MOST).collect::<Vec<usize>>(), vec![0]];
        drop_mixed(&mut classes, &mut keep);
        assert_eq!(classes[0].1.len(), MIXED_MOST - 1);
        assert!(!keep[0].contains(&(MIXED_MOST - 1)), "{:?}", keep[0]);
        let mut classes = classes_of(MIXED_MOST + 1);
        drop_mixed::<()>(&mut classes, &mut []);
        assert_eq!(classes[0].1.len(), MIXED_MOST + 1);
    }
}
