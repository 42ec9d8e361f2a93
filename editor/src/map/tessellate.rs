//! The symbology's shapes as egui meshes: `bataille_render::symbology` builds terrain
//! patterns, hexside features, overlays and counters as paths (fills and strokes) once for every
//! output — the PNG renderer paints them with tiny-skia, the exports write them as SVG and PDF —
//! and this module turns the same paths into triangles, so the editor shows what is printed.
//!
//! Curves are flattened to lines within [`TOLERANCE`] of the drawing's units; a fill is one
//! polygon per contour (a fan when convex, ear clipping otherwise); a stroke is a strip of
//! quads along its polyline with mitred joins (a disc where a turn is sharper than 120°, where a
//! mitre would reach past twice the half-width) and the path's caps (round: a disc). Text items
//! are handed back to be laid out by egui, at their anchor and size.

use bataille_render::symbology::{Drawing, Item};
use bataille_render::text::{Anchor, TextStyle};
use bataille_render::tiny_skia::{LineCap, Path, PathSegment, Transform};
use egui::epaint::Mesh;
use egui::{Color32, Pos2, pos2};

/// How far a flattened curve may stray from the curve, in the drawing's units.
pub const TOLERANCE: f32 = 0.6;

/// A text item of a drawing, placed in the mesh's space.
#[derive(Debug, Clone)]
pub struct PlacedText {
    pub text: String,
    pub style: TextStyle,
    /// The anchor point, in the mesh's space.
    pub pos: Pos2,
    pub anchor: Anchor,
    /// The font size in the mesh's space.
    pub size: f32,
}

/// Where a drawing's units go in the mesh: `p · scale + offset`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Place {
    pub scale: f32,
    pub offset: egui::Vec2,
}

impl Place {
    pub const IDENTITY: Place = Place {
        scale: 1.0,
        offset: egui::Vec2::ZERO,
    };

    fn apply(&self, p: [f32; 2]) -> Pos2 {
        pos2(p[0] * self.scale, p[1] * self.scale) + self.offset
    }
}

/// A colour of the symbology (RGBA, not premultiplied) as egui's.
pub fn colour(rgba: [u8; 4]) -> Color32 {
    Color32::from_rgba_unmultiplied(rgba[0], rgba[1], rgba[2], rgba[3])
}

/// Appends the drawing's fills and strokes to `mesh`, placed by `place`; returns its texts.
pub fn append(mesh: &mut Mesh, drawing: &Drawing, place: Place) -> Vec<PlacedText> {
    let mut texts = Vec::new();
    for item in &drawing.items {
        match item {
            Item::Fill {
                path,
                colour: c,
                transform,
                ..
            } => {
                for contour in flatten(path, transform) {
                    let points: Vec<Pos2> =
                        contour.points.iter().map(|p| place.apply(*p)).collect();
                    fill_polygon(mesh, &points, colour(*c));
                }
            }
            Item::Stroke {
                path,
                colour: c,
                width,
                cap,
                transform,
            } => {
                let width = width * transform_scale(transform) * place.scale;
                for contour in flatten(path, transform) {
                    let points: Vec<Pos2> =
                        contour.points.iter().map(|p| place.apply(*p)).collect();
                    stroke_polyline(mesh, &points, contour.closed, width, *cap, colour(*c));
                }
            }
            Item::Text {
                text,
                style,
                pos,
                anchor,
                transform,
            } => {
                let at = map_point(transform, *pos);
                texts.push(PlacedText {
                    text: text.clone(),
                    style: *style,
                    pos: place.apply(at),
                    anchor: *anchor,
                    size: style.size_px * transform_scale(transform) * place.scale,
                });
            }
        }
    }
    texts
}

/// One flattened contour of a path.
struct Contour {
    points: Vec<[f32; 2]>,
    closed: bool,
}

fn map_point(t: &Transform, [x, y]: [f32; 2]) -> [f32; 2] {
    [t.sx * x + t.kx * y + t.tx, t.ky * x + t.sy * y + t.ty]
}

/// The transform's scale for widths (the square root of its determinant).
fn transform_scale(t: &Transform) -> f32 {
    (t.sx * t.sy - t.kx * t.ky).abs().sqrt()
}

fn distance(a: [f32; 2], b: [f32; 2]) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

/// How many lines a curve with this control polygon length needs.
fn pieces(length: f32) -> usize {
    ((length / (8.0 * TOLERANCE)).sqrt() * 2.0)
        .ceil()
        .clamp(1.0, 16.0) as usize
}

fn flatten(path: &Path, t: &Transform) -> Vec<Contour> {
    let mut contours: Vec<Contour> = Vec::new();
    let mut current: Vec<[f32; 2]> = Vec::new();
    let mut last = [0.0f32, 0.0];
    for segment in path.segments() {
        match segment {
            PathSegment::MoveTo(p) => {
                if !current.is_empty() {
                    contours.push(Contour {
                        points: std::mem::take(&mut current),
                        closed: false,
                    });
                }
                last = map_point(t, [p.x, p.y]);
                current.push(last);
            }
            PathSegment::LineTo(p) => {
                let start_of_line = last;
                last = map_point(t, [p.x, p.y]);
                push(&mut current, start_of_line, last);
            }
            PathSegment::QuadTo(a, p) => {
                let (a, p) = (map_point(t, [a.x, a.y]), map_point(t, [p.x, p.y]));
                let n = pieces(distance(last, a) + distance(a, p));
                for i in 1..=n {
                    let s = i as f32 / n as f32;
                    let u = 1.0 - s;
                    push(
                        &mut current,
                        last,
                        [
                            u * u * last[0] + 2.0 * u * s * a[0] + s * s * p[0],
                            u * u * last[1] + 2.0 * u * s * a[1] + s * s * p[1],
                        ],
                    );
                }
                last = p;
            }
            PathSegment::CubicTo(a, b, p) => {
                let (a, b, p) = (
                    map_point(t, [a.x, a.y]),
                    map_point(t, [b.x, b.y]),
                    map_point(t, [p.x, p.y]),
                );
                let n = pieces(distance(last, a) + distance(a, b) + distance(b, p));
                for i in 1..=n {
                    let s = i as f32 / n as f32;
                    let u = 1.0 - s;
                    let (k0, k1, k2, k3) = (u * u * u, 3.0 * u * u * s, 3.0 * u * s * s, s * s * s);
                    push(
                        &mut current,
                        last,
                        [
                            k0 * last[0] + k1 * a[0] + k2 * b[0] + k3 * p[0],
                            k0 * last[1] + k1 * a[1] + k2 * b[1] + k3 * p[1],
                        ],
                    );
                }
                last = p;
            }
            PathSegment::Close => {
                if current.len() > 1 && distance(current[0], current[current.len() - 1]) < 1e-4 {
                    current.pop();
                }
                if let Some(&start) = current.first() {
                    contours.push(Contour {
                        points: std::mem::take(&mut current),
                        closed: true,
                    });
                    // A segment after a close starts where the contour did.
                    last = start;
                }
            }
        }
    }
    if !current.is_empty() {
        contours.push(Contour {
            points: current,
            closed: false,
        });
    }
    contours
}

/// Adds a point to a contour (after `from`, where a contour that a close left empty starts),
/// skipping repeated points.
fn push(current: &mut Vec<[f32; 2]>, from: [f32; 2], p: [f32; 2]) {
    if current.is_empty() {
        current.push(from);
    }
    if current.last().is_none_or(|q| distance(*q, p) > 1e-4) {
        current.push(p);
    }
}

fn cross(o: Pos2, a: Pos2, b: Pos2) -> f32 {
    (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
}

/// Twice the signed area (positive: counter-clockwise in a y-up frame).
fn signed_area(points: &[Pos2]) -> f32 {
    let n = points.len();
    (0..n)
        .map(|i| {
            let (a, b) = (points[i], points[(i + 1) % n]);
            a.x * b.y - b.x * a.y
        })
        .sum()
}

fn is_convex(points: &[Pos2]) -> bool {
    let n = points.len();
    let (mut pos, mut neg) = (false, false);
    for i in 0..n {
        let c = cross(points[i], points[(i + 1) % n], points[(i + 2) % n]);
        pos |= c > 1e-9;
        neg |= c < -1e-9;
    }
    !(pos && neg)
}

/// Fills one simple polygon.
pub fn fill_polygon(mesh: &mut Mesh, points: &[Pos2], colour: Color32) {
    if points.len() < 3 {
        return;
    }
    let base = mesh.vertices.len() as u32;
    for &p in points {
        mesh.colored_vertex(p, colour);
    }
    if is_convex(points) {
        for i in 1..points.len() as u32 - 1 {
            mesh.add_triangle(base, base + i, base + i + 1);
        }
        return;
    }
    // Ear clipping.
    let orientation = signed_area(points).signum();
    let mut left: Vec<usize> = (0..points.len()).collect();
    let mut guard = 0;
    while left.len() > 3 && guard < points.len() * points.len() {
        guard += 1;
        let n = left.len();
        let mut clipped = false;
        for i in 0..n {
            let (ia, ib, ic) = (left[(i + n - 1) % n], left[i], left[(i + 1) % n]);
            let (a, b, c) = (points[ia], points[ib], points[ic]);
            if cross(a, b, c) * orientation <= 0.0 {
                continue;
            }
            let inside = left.iter().any(|&j| {
                j != ia && j != ib && j != ic && {
                    let p = points[j];
                    let (d1, d2, d3) = (cross(a, b, p), cross(b, c, p), cross(c, a, p));
                    d1 * orientation >= 0.0 && d2 * orientation >= 0.0 && d3 * orientation >= 0.0
                }
            });
            if inside {
                continue;
            }
            mesh.add_triangle(base + ia as u32, base + ib as u32, base + ic as u32);
            left.remove(i);
            clipped = true;
            break;
        }
        if !clipped {
            break;
        }
    }
    if left.len() >= 3 {
        for i in 1..left.len() - 1 {
            mesh.add_triangle(
                base + left[0] as u32,
                base + left[i] as u32,
                base + left[i + 1] as u32,
            );
        }
    }
}

/// A disc (round caps and joins, and circles drawn small).
pub fn disc(mesh: &mut Mesh, centre: Pos2, radius: f32, colour: Color32) {
    let segments = 10;
    let points: Vec<Pos2> = (0..segments)
        .map(|i| {
            let a = i as f32 / segments as f32 * std::f32::consts::TAU;
            centre + egui::vec2(a.cos(), a.sin()) * radius
        })
        .collect();
    fill_polygon(mesh, &points, colour);
}

/// A mitre's limit: joins whose mitre would reach past this many half-widths get a disc.
const MITRE_LIMIT: f32 = 2.0;

/// Strokes a polyline of at least one point.
pub fn stroke_polyline(
    mesh: &mut Mesh,
    points: &[Pos2],
    closed: bool,
    width: f32,
    cap: LineCap,
    colour: Color32,
) {
    let hw = width / 2.0;
    if points.is_empty() || hw <= 0.0 {
        return;
    }
    if points.len() == 1 {
        if cap != LineCap::Butt {
            disc(mesh, points[0], hw, colour);
        }
        return;
    }
    let n = points.len();
    let segments = if closed { n } else { n - 1 };
    let dir = |i: usize| (points[(i + 1) % n] - points[i]).normalized();
    let normal = |d: egui::Vec2| egui::vec2(-d.y, d.x);
    // The offset at each vertex (left side), or None where the join is too sharp for a mitre
    // (the strip breaks there and a disc fills the corner).
    let mut offsets: Vec<Option<egui::Vec2>> = Vec::with_capacity(n);
    for i in 0..n {
        let incoming = if i > 0 {
            Some(dir(i - 1))
        } else if closed {
            Some(dir(n - 1))
        } else {
            None
        };
        let outgoing = if i + 1 < n || closed {
            Some(dir(i))
        } else {
            None
        };
        offsets.push(match (incoming, outgoing) {
            (Some(a), Some(b)) => {
                let m = normal(a) + normal(b);
                let len = m.length();
                if len < 1e-6 {
                    None
                } else {
                    let m = m / len;
                    let cos = m.dot(normal(b));
                    if cos * MITRE_LIMIT < 1.0 {
                        None
                    } else {
                        Some(m * (hw / cos))
                    }
                }
            }
            (Some(a), None) => Some(normal(a) * hw),
            (None, Some(b)) => Some(normal(b) * hw),
            (None, None) => None,
        });
    }
    for s in 0..segments {
        let (i, j) = (s, (s + 1) % n);
        let d = dir(s);
        let plain = normal(d) * hw;
        let oi = offsets[i].unwrap_or(plain);
        let oj = offsets[j].unwrap_or(plain);
        let (mut a, mut b) = (points[i], points[j]);
        if !closed && cap == LineCap::Square {
            if i == 0 {
                a -= d * hw;
            }
            if j == n - 1 {
                b += d * hw;
            }
        }
        let base = mesh.vertices.len() as u32;
        mesh.colored_vertex(a + oi, colour);
        mesh.colored_vertex(b + oj, colour);
        mesh.colored_vertex(b - oj, colour);
        mesh.colored_vertex(a - oi, colour);
        mesh.add_triangle(base, base + 1, base + 2);
        mesh.add_triangle(base, base + 2, base + 3);
    }
    for (i, offset) in offsets.iter().enumerate() {
        let end = !closed && (i == 0 || i == n - 1);
        if (offset.is_none() && !end) || (end && cap == LineCap::Round) {
            disc(mesh, points[i], hw, colour);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bataille_render::tiny_skia::PathBuilder;

    fn area(mesh: &Mesh) -> f32 {
        mesh.indices
            .chunks(3)
            .map(|t| {
                let [a, b, c] = [0, 1, 2].map(|k| mesh.vertices[t[k] as usize].pos);
                cross(a, b, c).abs() / 2.0
            })
            .sum()
    }

    #[test]
    fn a_circle_fills_its_area() {
        let mut d = Drawing::new();
        d.fill(
            PathBuilder::from_circle(0.0, 0.0, 10.0),
            [10, 20, 30, 255],
            Transform::identity(),
        );
        let mut mesh = Mesh::default();
        append(&mut mesh, &d, Place::IDENTITY);
        let expected = std::f32::consts::PI * 100.0;
        assert!(
            (area(&mesh) - expected).abs() < 0.03 * expected,
            "{}",
            area(&mesh)
        );
        assert!(
            mesh.vertices
                .iter()
                .all(|v| v.color == Color32::from_rgb(10, 20, 30))
        );
    }

    #[test]
    fn a_star_is_clipped_into_ears_not_fanned_across_its_notches() {
        // A four-pointed star: its area is four kites, less than its convex hull.
        let points: Vec<Pos2> = (0..8)
            .map(|i| {
                let a = i as f32 * std::f32::consts::FRAC_PI_4;
                let r = if i % 2 == 0 { 10.0 } else { 4.0 };
                pos2(r * a.cos(), r * a.sin())
            })
            .collect();
        let mut mesh = Mesh::default();
        fill_polygon(&mut mesh, &points, Color32::RED);
        let expected = 8.0 * 0.5 * 10.0 * 4.0 * std::f32::consts::FRAC_PI_4.sin();
        assert!(
            (area(&mesh) - expected).abs() < 0.01 * expected,
            "{}",
            area(&mesh)
        );
    }

    #[test]
    fn a_stroke_covers_its_length_times_its_width_and_round_caps_add_discs() {
        let mut mesh = Mesh::default();
        let line = [pos2(0.0, 0.0), pos2(10.0, 0.0), pos2(20.0, 0.0)];
        stroke_polyline(&mut mesh, &line, false, 2.0, LineCap::Butt, Color32::RED);
        assert!((area(&mesh) - 40.0).abs() < 1e-3, "{}", area(&mesh));
        let mut round = Mesh::default();
        stroke_polyline(&mut round, &line, false, 2.0, LineCap::Round, Color32::RED);
        assert!(area(&round) > 40.0 + 2.5, "{}", area(&round));
    }

    #[test]
    fn a_transformed_text_keeps_its_anchor_and_scaled_size() {
        let mut d = Drawing::new();
        let style = TextStyle {
            face: bataille_render::text::Face::Bold,
            size_px: 10.0,
            colour: [0, 0, 0, 255],
            halo: None,
        };
        d.text(
            "3-2-4",
            &style,
            [1.0, 2.0],
            Anchor::CENTRE,
            Transform::from_translate(5.0, 5.0),
        );
        let mut mesh = Mesh::default();
        let texts = append(
            &mut mesh,
            &d,
            Place {
                scale: 0.5,
                offset: egui::vec2(100.0, 0.0),
            },
        );
        assert_eq!(texts.len(), 1);
        assert_eq!(texts[0].pos, pos2(103.0, 3.5));
        assert_eq!(texts[0].size, 5.0);
    }
}
