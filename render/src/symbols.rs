//! Small geometry helpers: polygons, lines, circles and stars as paths, and the vector
//! arithmetic the drawing code shares (to fill or stroke them, see [`crate::drawing`]).

use tiny_skia::{Path, PathBuilder};

pub fn polygon(points: &[[f32; 2]]) -> Option<Path> {
    let (first, rest) = points.split_first()?;
    let mut builder = PathBuilder::new();
    builder.move_to(first[0], first[1]);
    for p in rest {
        builder.line_to(p[0], p[1]);
    }
    builder.close();
    builder.finish()
}

pub fn polyline(points: &[[f32; 2]]) -> Option<Path> {
    let (first, rest) = points.split_first()?;
    let mut builder = PathBuilder::new();
    builder.move_to(first[0], first[1]);
    for p in rest {
        builder.line_to(p[0], p[1]);
    }
    builder.finish()
}

pub fn circle(centre: [f32; 2], radius: f32) -> Option<Path> {
    PathBuilder::from_circle(centre[0], centre[1], radius)
}

/// A star of `points` tips, the first pointing up.
pub fn star(centre: [f32; 2], outer: f32, inner: f32, points: usize) -> Option<Path> {
    let n = points.max(3) * 2;
    let vertices: Vec<[f32; 2]> = (0..n)
        .map(|i| {
            let angle = std::f32::consts::PI * i as f32 / points.max(3) as f32;
            let r = if i % 2 == 0 { outer } else { inner };
            [centre[0] + r * angle.sin(), centre[1] - r * angle.cos()]
        })
        .collect();
    polygon(&vertices)
}

pub fn lerp(a: [f32; 2], b: [f32; 2], t: f32) -> [f32; 2] {
    [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]
}

pub fn add(a: [f32; 2], b: [f32; 2]) -> [f32; 2] {
    [a[0] + b[0], a[1] + b[1]]
}

pub fn sub(a: [f32; 2], b: [f32; 2]) -> [f32; 2] {
    [a[0] - b[0], a[1] - b[1]]
}

pub fn scale(a: [f32; 2], s: f32) -> [f32; 2] {
    [a[0] * s, a[1] * s]
}

pub fn length(a: [f32; 2]) -> f32 {
    (a[0] * a[0] + a[1] * a[1]).sqrt()
}

pub fn normalise(a: [f32; 2]) -> [f32; 2] {
    let l = length(a);
    if l > 1e-6 {
        scale(a, 1.0 / l)
    } else {
        [1.0, 0.0]
    }
}
