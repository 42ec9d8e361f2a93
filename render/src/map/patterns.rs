//! The terrain fill patterns (trees, marsh, hatch, …) drawn over a hex's colour.

use bataille_schema::map::Pattern;
use tiny_skia::Transform;

use crate::drawing::{Drawing, fill, line, stroke};
use crate::symbols::{add, circle, normalise, polygon, polyline, scale};
use crate::{opaque, shade};

pub(super) fn draw_pattern(
    d: &mut Drawing,
    c: [f32; 2],
    r: f32,
    colour: [u8; 3],
    pattern: Pattern,
) {
    let dark = opaque(shade(colour, -0.35));
    let ring = |count: usize, radius: f32, phase_deg: f32| -> Vec<[f32; 2]> {
        (0..count)
            .map(|i| {
                let a = (phase_deg + 360.0 * i as f32 / count as f32).to_radians();
                [c[0] + radius * a.cos(), c[1] + radius * a.sin()]
            })
            .collect()
    };
    match pattern {
        Pattern::Trees => {
            for p in ring(4, 0.48 * r, 45.0) {
                // A round crown on a short trunk.
                line(d, p, [p[0], p[1] + 0.2 * r], dark, 0.06 * r);
                fill(
                    d,
                    circle([p[0], p[1] - 0.02 * r], 0.14 * r),
                    dark,
                    Transform::identity(),
                );
            }
        }
        Pattern::Buildings => {
            for p in ring(5, 0.48 * r, -90.0) {
                let s = 0.1 * r;
                let rect = [
                    [p[0] - s, p[1] - s],
                    [p[0] + s, p[1] - s],
                    [p[0] + s, p[1] + s],
                    [p[0] - s, p[1] + s],
                ];
                fill(d, polygon(&rect), dark, Transform::identity());
            }
        }
        Pattern::Hatch => {
            let colour = opaque(shade(colour, -0.25));
            let (inner, outer) = (0.25 * r, 0.72 * r);
            let spacing = 0.2 * r;
            let dir = normalise([1.0, -1.0]);
            let normal = [dir[1], -dir[0]];
            let mut k = -3.0f32;
            while k <= 3.0 {
                let dist = k * spacing;
                if dist.abs() < outer {
                    let half_outer = (outer * outer - dist * dist).sqrt();
                    let base = add(c, scale(normal, dist));
                    if dist.abs() < inner {
                        let half_inner = (inner * inner - dist * dist).sqrt();
                        for (a, b) in [(-half_outer, -half_inner), (half_inner, half_outer)] {
                            line(
                                d,
                                add(base, scale(dir, a)),
                                add(base, scale(dir, b)),
                                colour,
                                0.05 * r,
                            );
                        }
                    } else {
                        line(
                            d,
                            add(base, scale(dir, -half_outer)),
                            add(base, scale(dir, half_outer)),
                            colour,
                            0.05 * r,
                        );
                    }
                }
                k += 1.0;
            }
        }
        Pattern::Water => {
            let light = opaque(shade(colour, 0.35));
            for dy in [-0.45, 0.45] {
                let y = c[1] + dy * r;
                let points: Vec<[f32; 2]> = (0..=6)
                    .map(|i| {
                        let x = c[0] - 0.45 * r + 0.15 * r * i as f32;
                        let wave = if i % 2 == 0 { -0.05 } else { 0.05 };
                        [x, y + wave * r]
                    })
                    .collect();
                stroke(d, polyline(&points), light, 0.06 * r, Transform::identity());
            }
        }
        Pattern::Marsh => {
            for p in ring(5, 0.5 * r, -90.0) {
                line(
                    d,
                    [p[0] - 0.13 * r, p[1]],
                    [p[0] + 0.13 * r, p[1]],
                    dark,
                    0.04 * r,
                );
                for dx in [-0.07, 0.0, 0.07] {
                    line(
                        d,
                        [p[0] + dx * r, p[1]],
                        [p[0] + dx * 1.6 * r, p[1] - 0.12 * r],
                        dark,
                        0.035 * r,
                    );
                }
            }
        }
        Pattern::Dots => {
            let step = 0.2 * r;
            for i in -4i32..=4 {
                for j in -4i32..=4 {
                    let p = [
                        i as f32 * step + (j % 2) as f32 * step * 0.5,
                        j as f32 * step * 0.87,
                    ];
                    let dist = (p[0] * p[0] + p[1] * p[1]).sqrt();
                    if dist > 0.25 * r && dist < 0.7 * r {
                        fill(d, circle(add(c, p), 0.035 * r), dark, Transform::identity());
                    }
                }
            }
        }
    }
}
