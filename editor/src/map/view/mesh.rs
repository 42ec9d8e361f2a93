//! Mesh building in grid space: hex fills and patterns, hexside features, overlays, one chunk
//! of the map at a time.

use super::*;

pub(super) fn add_poly(mesh: &mut Mesh, points: &[Pos2], colour: Color32) {
    let base = mesh.vertices.len() as u32;
    for &pt in points {
        mesh.colored_vertex(pt, colour);
    }
    for i in 1..points.len().saturating_sub(1) as u32 {
        mesh.add_triangle(base, base + i, base + i + 1);
    }
}

pub(super) fn add_line(mesh: &mut Mesh, a: Pos2, b: Pos2, width: f32, colour: Color32) {
    let d = b - a;
    let len = d.length();
    if len <= f32::EPSILON {
        return;
    }
    let n = vec2(-d.y, d.x) / len * (width / 2.0);
    add_poly(mesh, &[a + n, b + n, b - n, a - n], colour);
}

pub(super) fn add_disc(mesh: &mut Mesh, centre: Pos2, radius: f32, segments: u32, colour: Color32) {
    let points: Vec<Pos2> = (0..segments)
        .map(|i| {
            let a = i as f32 / segments as f32 * std::f32::consts::TAU;
            centre + vec2(a.cos(), a.sin()) * radius
        })
        .collect();
    add_poly(mesh, &points, colour);
}

pub(super) fn add_ring(mesh: &mut Mesh, centre: Pos2, radius: f32, width: f32, colour: Color32) {
    let segments = 12;
    for i in 0..segments {
        let a0 = i as f32 / segments as f32 * std::f32::consts::TAU;
        let a1 = (i + 1) as f32 / segments as f32 * std::f32::consts::TAU;
        add_line(
            mesh,
            centre + vec2(a0.cos(), a0.sin()) * radius,
            centre + vec2(a1.cos(), a1.sin()) * radius,
            width,
            colour,
        );
    }
}

pub(super) fn add_pattern(mesh: &mut Mesh, c: Pos2, pattern: Pattern, fill: Color32) {
    let ink = darker(fill, 0.62);
    match pattern {
        Pattern::Trees => {
            for (dx, dy) in [
                (-0.35, -0.15),
                (0.3, -0.25),
                (0.0, 0.3),
                (-0.45, 0.35),
                (0.5, 0.25),
            ] {
                add_disc(mesh, c + vec2(dx, dy), 0.17, 6, ink);
            }
        }
        Pattern::Marsh => {
            for (dx, dy) in [(-0.35, -0.3), (0.3, -0.05), (-0.2, 0.4)] {
                let o = c + vec2(dx, dy);
                add_line(mesh, o + vec2(-0.2, 0.0), o + vec2(0.2, 0.0), 0.05, ink);
                for t in [-0.1, 0.0, 0.1] {
                    add_line(mesh, o + vec2(t, 0.0), o + vec2(t * 1.6, -0.14), 0.04, ink);
                }
            }
        }
        Pattern::Water => {
            for dy in [-0.3, 0.05, 0.4] {
                let mut prev = c + vec2(-0.55, dy);
                for i in 1..=6 {
                    let x = -0.55 + i as f32 * 0.183;
                    let y = dy + if i % 2 == 1 { -0.07 } else { 0.0 };
                    let next = c + vec2(x, y);
                    add_line(mesh, prev, next, 0.05, ink);
                    prev = next;
                }
            }
        }
        Pattern::Buildings => {
            for (dx, dy, w, h) in [
                (-0.35, -0.3, 0.28, 0.2),
                (0.1, -0.15, 0.22, 0.3),
                (-0.25, 0.2, 0.32, 0.18),
            ] {
                let o = c + vec2(dx, dy);
                add_poly(
                    mesh,
                    &[o, o + vec2(w, 0.0), o + vec2(w, h), o + vec2(0.0, h)],
                    darker(fill, 0.45),
                );
            }
        }
        Pattern::Dots => {
            for (dx, dy) in [
                (-0.4, -0.3),
                (0.0, -0.45),
                (0.4, -0.3),
                (-0.2, 0.0),
                (0.2, 0.0),
                (-0.4, 0.3),
                (0.0, 0.45),
                (0.4, 0.3),
            ] {
                add_disc(mesh, c + vec2(dx, dy), 0.06, 5, ink);
            }
        }
        Pattern::Hatch => {
            for t in [-0.45f32, -0.15, 0.15, 0.45] {
                let half = (0.75 - t.abs()).max(0.2) * 0.7;
                add_line(
                    mesh,
                    c + vec2(t - half, half),
                    c + vec2(t + half, -half),
                    0.05,
                    ink,
                );
            }
        }
    }
}

pub(super) fn hexside_width(symbol: HexsideSymbol) -> f32 {
    match symbol {
        HexsideSymbol::River => 0.26,
        HexsideSymbol::Stream => 0.13,
        HexsideSymbol::Road => 0.1,
        HexsideSymbol::Bridge => 0.18,
        HexsideSymbol::Fortification => 0.12,
    }
}

pub(super) fn add_hexside(
    mesh: &mut Mesh,
    grid: &Grid,
    hex: HexIndex,
    side: Side,
    colour: Color32,
    symbol: HexsideSymbol,
) {
    let Some([a, b]) = grid.side_corners(hex, side) else {
        return;
    };
    let (a, b) = (p(a), p(b));
    let width = hexside_width(symbol);
    match symbol {
        HexsideSymbol::River | HexsideSymbol::Stream => {
            add_line(mesh, a, b, width, colour);
            // Round the joints so a river reads as one line.
            add_disc(mesh, a, width / 2.0, 6, colour);
            add_disc(mesh, b, width / 2.0, 6, colour);
        }
        HexsideSymbol::Road => {
            // Dashed.
            for i in 0..3 {
                let t0 = i as f32 / 3.0 + 0.04;
                let t1 = t0 + 0.22;
                add_line(mesh, a + (b - a) * t0, a + (b - a) * t1, width, colour);
            }
        }
        HexsideSymbol::Bridge => {
            let mid = a + (b - a) * 0.5;
            let along = (b - a).normalized();
            let across = vec2(-along.y, along.x);
            for s in [-0.12, 0.12] {
                add_line(
                    mesh,
                    mid + along * s - across * 0.25,
                    mid + along * s + across * 0.25,
                    0.06,
                    colour,
                );
            }
        }
        HexsideSymbol::Fortification => {
            add_line(mesh, a, b, width, colour);
            let along = b - a;
            let centre = p(grid.centre(hex));
            let mut out = vec2(-along.y, along.x).normalized();
            if (a + along * 0.5 + out * 0.1 - centre).length() < (a + along * 0.5 - centre).length()
            {
                out = -out;
            }
            for i in 1..4 {
                let base = a + along * (i as f32 / 4.0);
                add_poly(
                    mesh,
                    &[
                        base - along.normalized() * 0.06,
                        base + out * 0.14,
                        base + along.normalized() * 0.06,
                    ],
                    colour,
                );
            }
        }
    }
}

pub(super) fn add_overlay(
    mesh: &mut Mesh,
    doc: &Document,
    styles: &Styles,
    hex: HexIndex,
    id: &Id,
    slot: usize,
) {
    let grid = &doc.map.grid;
    let (colour, symbol) = styles
        .overlays
        .get(id)
        .copied()
        .unwrap_or((Color32::from_rgb(200, 30, 30), OverlaySymbol::Marker));
    let c = p(grid.centre(hex)) + vec2(slot as f32 * 0.12, -(slot as f32) * 0.12);
    match symbol {
        OverlaySymbol::Redoubt => {
            let r = 0.38;
            let pts = [
                c + vec2(-r, -r),
                c + vec2(r, -r),
                c + vec2(r, r),
                c + vec2(-r, r),
            ];
            for i in 0..4 {
                add_line(mesh, pts[i], pts[(i + 1) % 4], 0.09, colour);
                // Teeth outwards.
                let mid = pts[i] + (pts[(i + 1) % 4] - pts[i]) * 0.5;
                let out = (mid - c).normalized() * 0.13;
                let along = (pts[(i + 1) % 4] - pts[i]).normalized() * 0.07;
                add_poly(mesh, &[mid - along, mid + out, mid + along], colour);
            }
        }
        OverlaySymbol::Town => {
            for (dx, dy) in [(-0.25, -0.2), (0.08, -0.3), (-0.05, 0.08), (0.28, 0.02)] {
                let o = c + vec2(dx, dy);
                add_poly(
                    mesh,
                    &[
                        o,
                        o + vec2(0.2, 0.0),
                        o + vec2(0.2, 0.2),
                        o + vec2(0.0, 0.2),
                    ],
                    colour,
                );
            }
        }
        OverlaySymbol::Bridge => {
            add_line(
                mesh,
                c + vec2(-0.35, -0.1),
                c + vec2(0.35, -0.1),
                0.07,
                colour,
            );
            add_line(
                mesh,
                c + vec2(-0.35, 0.1),
                c + vec2(0.35, 0.1),
                0.07,
                colour,
            );
            add_line(
                mesh,
                c + vec2(-0.35, -0.1),
                c + vec2(-0.48, -0.22),
                0.07,
                colour,
            );
            add_line(
                mesh,
                c + vec2(0.35, -0.1),
                c + vec2(0.48, -0.22),
                0.07,
                colour,
            );
            add_line(
                mesh,
                c + vec2(-0.35, 0.1),
                c + vec2(-0.48, 0.22),
                0.07,
                colour,
            );
            add_line(
                mesh,
                c + vec2(0.35, 0.1),
                c + vec2(0.48, 0.22),
                0.07,
                colour,
            );
        }
        OverlaySymbol::Road => {
            let mut joined = false;
            for (_, n) in grid.neighbours(hex) {
                if doc.overlays_at(n).contains(id) {
                    let nc = p(grid.centre(n));
                    add_line(mesh, c, c + (nc - c) * 0.5, 0.12, colour);
                    joined = true;
                }
            }
            add_disc(mesh, c, if joined { 0.06 } else { 0.14 }, 8, colour);
        }
        OverlaySymbol::Fortification => {
            add_line(mesh, c + vec2(-0.45, 0.0), c + vec2(0.45, 0.0), 0.1, colour);
            for i in 0..4 {
                let x = -0.36 + i as f32 * 0.24;
                add_poly(
                    mesh,
                    &[
                        c + vec2(x - 0.06, 0.0),
                        c + vec2(x, -0.14),
                        c + vec2(x + 0.06, 0.0),
                    ],
                    colour,
                );
            }
        }
        OverlaySymbol::Marker => {
            add_ring(mesh, c, 0.3, 0.08, colour);
        }
    }
}

pub(super) fn build_chunk(
    doc: &Document,
    styles: &Styles,
    side_index: &BTreeMap<(usize, HexIndex, Side), Vec<Id>>,
    index: usize,
    chunk: &Chunk,
) -> [Mesh; MESHES] {
    let grid = &doc.map.grid;
    let mut meshes: [Mesh; MESHES] = Default::default();
    let hexes = ((chunk.cols.1 - chunk.cols.0) * (chunk.rows.1 - chunk.rows.0)) as usize;
    meshes[FILL].reserve_vertices(hexes * 6);
    meshes[FILL].reserve_triangles(hexes * 4);
    let outline = Color32::from_black_alpha(70);
    for row in chunk.rows.0..chunk.rows.1 {
        let text = doc.map.rows.get(row as usize);
        let mut codes = text.map(|t| t.chars().skip(chunk.cols.0 as usize));
        for col in chunk.cols.0..chunk.cols.1 {
            let hex = HexIndex::new(col, row);
            let code = codes.as_mut().and_then(Iterator::next);
            let (fill, pattern) = code
                .and_then(|c| styles.terrain.get(&c).copied())
                .unwrap_or((UNKNOWN_TERRAIN, None));
            let corners = grid.corners(hex).map(p);
            add_poly(&mut meshes[FILL], &corners, fill);
            if let Some(pattern) = pattern {
                add_pattern(&mut meshes[PATTERN], p(grid.centre(hex)), pattern, fill);
            }
            for i in 0..6 {
                add_line(
                    &mut meshes[OUTLINE],
                    corners[i],
                    corners[(i + 1) % 6],
                    0.035,
                    outline,
                );
            }
            let name = grid.name(hex);
            if let Some(list) = doc.map.overlays.get(&name) {
                for (slot, id) in list.iter().enumerate() {
                    add_overlay(&mut meshes[OVERLAYS], doc, styles, hex, id, slot);
                }
            }
        }
    }
    let first = (index, HexIndex::new(0, 0), Side::N);
    for ((chunk_id, hex, side), features) in side_index.range(first..) {
        if *chunk_id != index {
            break;
        }
        for feature in features {
            let (colour, symbol) = styles
                .hexsides
                .get(feature)
                .copied()
                .unwrap_or((Color32::from_rgb(40, 90, 200), HexsideSymbol::River));
            add_hexside(&mut meshes[HEXSIDES], grid, *hex, *side, colour, symbol);
        }
    }
    meshes
}
