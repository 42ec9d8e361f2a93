//! The command radii's tracing (8.2): sets of map hexes as one flag per hex, and the
//! breadth-first search over the map that every radius shares.

use bataille_schema::{Grid, HexIndex};

/// At most six hexes (a unit's neighbours through one class of sides), held inline.
#[derive(Clone, Copy)]
pub(super) struct Six {
    pub(super) hexes: [HexIndex; 6],
    pub(super) len: usize,
}

impl Default for Six {
    fn default() -> Self {
        Self {
            hexes: [HexIndex::new(0, 0); 6],
            len: 0,
        }
    }
}

impl Six {
    pub(super) fn contains(&self, hex: HexIndex) -> bool {
        self.hexes[..self.len.min(6)].contains(&hex)
    }
}

/// A set of map hexes as one flag per hex (faster than hashing on big maps).
#[derive(Clone)]
pub(super) struct HexSet {
    columns: u32,
    flags: Vec<bool>,
}

impl HexSet {
    pub(super) fn new(grid: &Grid) -> Self {
        Self {
            columns: grid.columns,
            flags: vec![false; grid.hex_count()],
        }
    }

    fn slot(&self, hex: HexIndex) -> usize {
        hex.row as usize * self.columns as usize + hex.col as usize
    }

    pub(super) fn insert(&mut self, hex: HexIndex) {
        let slot = self.slot(hex);
        if let Some(flag) = self.flags.get_mut(slot) {
            *flag = true;
        }
    }

    pub(super) fn contains(&self, hex: HexIndex) -> bool {
        self.flags.get(self.slot(hex)).copied().unwrap_or(false)
    }
}

/// Traces command radii (8.2) by breadth-first search over the map, one ring of hexes at a
/// time. Its scratch is sized to the map once and kept for every radius traced: a hex is
/// marked with the number of the trace that reached it, so nothing is hashed, and nothing is
/// cleared between traces (a hash table per trace was a tenth of a validation, issue 23).
pub(super) struct Tracer {
    columns: usize,
    /// The trace that last reached each hex (0: none yet).
    mark: Vec<u32>,
    trace: u32,
    ring: Vec<HexIndex>,
    next: Vec<HexIndex>,
    /// The hexes of the last trace, in the order reached.
    pub(super) reached: Vec<HexIndex>,
}

impl Tracer {
    pub(super) fn new(grid: &Grid) -> Self {
        Self {
            columns: grid.columns as usize,
            mark: vec![0; grid.hex_count()],
            trace: 0,
            ring: Vec::new(),
            next: Vec::new(),
            reached: Vec::new(),
        }
    }

    fn slot(&self, hex: HexIndex) -> usize {
        hex.row as usize * self.columns + hex.col as usize
    }

    /// Marks a hex reached by this trace; false when it already was.
    fn reach(&mut self, hex: HexIndex) -> bool {
        let slot = self.slot(hex);
        match self.mark.get_mut(slot) {
            Some(mark) if *mark != self.trace => {
                *mark = self.trace;
                self.reached.push(hex);
                true
            }
            _ => false,
        }
    }

    /// Hexes within `radius` steps of `start`. A blocked hex (enemy front or flank, no
    /// friendly unit) can be reached but not passed through. Ask [`Tracer::contains`] or read
    /// `reached` until the next trace.
    pub(super) fn trace(
        &mut self,
        grid: &Grid,
        start: HexIndex,
        radius: u32,
        blocked: Option<&HexSet>,
    ) {
        // The shared bound (E0105 reports a radius beyond it): the search's work stays within
        // the disc of that radius, however large the map or the number written.
        let radius = radius.min(bataille_schema::bounds::RADIUS_HEXES.max);
        if self.trace == u32::MAX {
            self.mark.fill(0);
            self.trace = 0;
        }
        self.trace += 1;
        self.reached.clear();
        self.ring.clear();
        if self.reach(start) {
            self.ring.push(start);
        }
        for _ in 0..radius {
            if self.ring.is_empty() {
                break;
            }
            let ring = std::mem::take(&mut self.ring);
            self.next.clear();
            for &hex in &ring {
                if hex != start && blocked.is_some_and(|b| b.contains(hex)) {
                    continue;
                }
                for (_, next) in grid.neighbours(hex) {
                    if self.reach(next) {
                        self.next.push(next);
                    }
                }
            }
            self.ring = std::mem::replace(&mut self.next, ring);
        }
    }

    /// Whether the last trace reached the hex.
    pub(super) fn contains(&self, hex: HexIndex) -> bool {
        self.mark
            .get(self.slot(hex))
            .is_some_and(|mark| *mark == self.trace && self.trace != 0)
    }
}
