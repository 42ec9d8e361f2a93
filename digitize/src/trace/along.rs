//! A line's crossings typed as the line as a whole: where the pattern of a crossing says
//! nothing (a junction, a label or a town beside it changes how the line looks there), the
//! crossing is of the line it lies on, whose next crossing is typed surely.

use super::morphology::{chamfer, components, find};

/// A crossing's place: its cell on the working image, its point (grid space, hex radii), its
/// line (when typed) and the ink group it was traced in.
#[derive(Debug, Clone, Copy)]
pub(super) struct Placed {
    pub cell: usize,
    pub at: [f32; 2],
    pub line: usize,
    pub ink: usize,
}

/// For each of `unsure`, the line of the nearest of `typed` on the same connected line of
/// ink (the cells of `line` not zero, joined across a gap of up to two cells: a line a pixel
/// wide is ink every other pixel in places) and of the same ink, within `reach` hex radii;
/// `None` when there is none.
pub(super) fn along_the_line(
    line: &[u8],
    w: usize,
    h: usize,
    typed: &[Placed],
    unsure: &[Placed],
    reach: f32,
) -> Vec<Option<usize>> {
    if unsure.is_empty() {
        return Vec::new();
    }
    let ink: Vec<bool> = line.iter().map(|l| *l > 0).collect();
    // Chamfer 3-4: 6 is two cells.
    let grown: Vec<bool> = chamfer(&ink, w, h).iter().map(|d| *d <= 6).collect();
    let mut parent = components(&grown, w, h);
    let mut root = |i: usize| grown[i].then(|| find(&mut parent, i as u32));
    let typed: Vec<(u32, &Placed)> = typed
        .iter()
        .filter_map(|t| Some((root(t.cell)?, t)))
        .collect();
    unsure
        .iter()
        .map(|u| {
            let r = root(u.cell)?;
            typed
                .iter()
                .filter(|(tr, t)| *tr == r && t.ink == u.ink)
                .map(|(_, t)| ((t.at[0] - u.at[0]).hypot(t.at[1] - u.at[1]), t.line))
                .filter(|(d, _)| *d <= reach)
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, f)| f)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two lines of one ink on a 40 × 20 image (4 cells a hex radius): one along row 5, one
    /// along row 15, the first with a gap of two cells (a pixel-wide line).
    fn two_lines() -> (Vec<u8>, usize, usize) {
        let (w, h) = (40, 20);
        let mut line = vec![0u8; w * h];
        for x in 0..w {
            if !(20..22).contains(&x) {
                line[5 * w + x] = 1;
            }
            line[15 * w + x] = 1;
        }
        (line, w, h)
    }

    fn at(w: usize, x: usize, y: usize, line: usize, ink: usize) -> Placed {
        Placed {
            cell: y * w + x,
            at: [x as f32 / 4.0, y as f32 / 4.0],
            line,
            ink,
        }
    }

    #[test]
    fn an_unsure_crossing_takes_the_type_of_the_next_sure_one_on_its_own_line() {
        let (line, w, h) = two_lines();
        // A road crossing on the upper line, a railway crossing on the lower one, both sure.
        let typed = [at(w, 26, 5, 0, 0), at(w, 10, 15, 1, 0)];
        let unsure = [
            // Across the gap from the road crossing, 2 radii on: the road.
            at(w, 18, 5, 9, 0),
            // On the lower line, next to the railway crossing: the railway.
            at(w, 12, 15, 9, 0),
            // On the lower line, 2.5 radii from the road crossing straight across the paper
            // but 4 along its own line from the railway's: none (not the other line's type).
            at(w, 26, 15, 9, 0),
            // On the upper line but far from its sure crossing: none.
            at(w, 2, 5, 9, 0),
            // On paper: none.
            at(w, 30, 10, 9, 0),
            // Another ink: none.
            at(w, 24, 5, 9, 1),
        ];
        let found = along_the_line(&line, w, h, &typed, &unsure, 3.0);
        assert_eq!(found, [Some(0), Some(1), None, None, None, None]);
    }
}
