//! Following a line along the hexsides from a corner ([`goes_on`]) and the agreement of the
//! trace with the patch model ([`agrees_with`]), for [`super::apply_trace`].

use std::collections::HashMap;

use super::{AGREE_PLAIN, FOUND, PART, Trace};

/// Whether, from corner `c` of hexside `i`, a line goes on to a hexside `found` says carries
/// it, along at most `steps` more hexsides `traced` says the trace covers with it.
pub(super) fn goes_on(
    i: usize,
    c: (i64, i64),
    steps: usize,
    found: &dyn Fn(usize) -> bool,
    traced: &dyn Fn(usize) -> bool,
    at_corner: &HashMap<(i64, i64), Vec<usize>>,
    ends: &[[(i64, i64); 2]],
) -> bool {
    at_corner[&c].iter().any(|&j| {
        j != i
            && (found(j)
                || steps > 0
                    && traced(j)
                    && ends[j].iter().any(|&e| {
                        e != c && goes_on(j, e, steps - 1, found, traced, at_corner, ends)
                    }))
    })
}

/// Whether the trace clearly says what the patch model suggested at hexside `i`: its feature
/// `f` (its own ink along most of the side, its middle included, and no other shade's), or
/// plain (no reliable feature's ink along the middle of the side, only near its ends, and no
/// line running on at both its ends: a label or a bridge may hide the middle);
/// never beside a water hex (`wet`: a bank looks like a water feature to both).
pub(super) fn agrees_with(
    trace: &Trace,
    i: usize,
    suggested: Option<usize>,
    wet: bool,
    links: &dyn Fn(usize, usize) -> usize,
) -> bool {
    if wet {
        return false;
    }
    let count = trace.reliable.len();
    match suggested {
        Some(f) => {
            trace.reliable[f]
                && trace.own[i][f] >= FOUND
                && trace.middle[i][f] >= 0.5
                && (0..count).all(|g| g == f || trace.own[i][g] < PART)
        }
        None => (0..count).filter(|f| trace.reliable[*f]).all(|f| {
            trace.middle[i][f] <= 0.0 && trace.coverage[i][f] <= AGREE_PLAIN && links(i, f) < 2
        }),
    }
}
