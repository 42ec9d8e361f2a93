//! Roads as Tiled polylines: a road network cut into chains of hexes, joined as the map draws
//! them.

use std::collections::{BTreeMap, BTreeSet};

use bataille_render::symbology;
use bataille_schema::HexIndex;

/// A road network as chains of hexes: each chain runs between hexes where the road ends or
/// forks (or round a loop), each link joining neighbours the renderer joins; a lone road hex
/// is a chain of one.
pub fn road_chains(grid: &bataille_schema::Grid, hexes: &BTreeSet<HexIndex>) -> Vec<Vec<HexIndex>> {
    let is_road = |index: HexIndex| hexes.contains(&index);
    let links: BTreeMap<HexIndex, Vec<HexIndex>> = hexes
        .iter()
        .map(|&a| {
            let linked = grid
                .neighbours(a)
                .map(|(_, b)| b)
                .filter(|&b| symbology::part::road_linked(grid, &is_road, a, b))
                .collect();
            (a, linked)
        })
        .collect();
    let mut used: BTreeSet<(HexIndex, HexIndex)> = BTreeSet::new();
    let key = |a: HexIndex, b: HexIndex| if a < b { (a, b) } else { (b, a) };
    let mut chains = Vec::new();
    let walk = |start: HexIndex, used: &mut BTreeSet<(HexIndex, HexIndex)>| {
        let mut out = Vec::new();
        for &next in &links[&start] {
            if used.contains(&key(start, next)) {
                continue;
            }
            let mut chain = vec![start];
            let (mut previous, mut here) = (start, next);
            used.insert(key(start, next));
            loop {
                chain.push(here);
                let onward = &links[&here];
                if onward.len() != 2 {
                    break;
                }
                let Some(&after) = onward.iter().find(|&&h| h != previous) else {
                    break;
                };
                if !used.insert(key(here, after)) {
                    break;
                }
                (previous, here) = (here, after);
            }
            out.push(chain);
        }
        out
    };
    // From the ends and forks first, then round what is left (loops).
    for (&hex, linked) in &links {
        if linked.is_empty() {
            chains.push(vec![hex]);
        } else if linked.len() != 2 {
            chains.extend(walk(hex, &mut used));
        }
    }
    for &hex in links.keys() {
        chains.extend(walk(hex, &mut used));
    }
    chains
}
