//! Writes a scan to try the Digitise panel on: Denain 1712 rendered by bataille-render, turned
//! 2° and set on paper like a slightly crooked scan (JPEG), and a copy of the map half
//! digitised over it (the east half still blank), calibrated from five hex centres "clicked"
//! with a little error so the residuals show.
//!
//! `cargo run -p bataille-editor --example demo_scan -- OUT_DIR`, then
//! `cargo run -p bataille-editor -- OUT_DIR/denain-digitised.ron`.

use std::path::PathBuf;

use bataille_digitize::calibrate::{Matrix, apply, calibrate, multiply};
use bataille_render::{Layout, RenderOptions, render_map};
use bataille_schema::map::{Background, ControlPoint, FitKind};
use bataille_schema::{HexIndex, Map};
use image::{Rgb, RgbImage};

const DEGREES: f64 = 2.0;
const PAD: u32 = 60;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| ".".into()));
    std::fs::create_dir_all(&out)?;
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../maps/denain-1712.ron");
    let map: Map = bataille_schema::load_map(&source)?.map;
    let options = RenderOptions {
        px_per_hex: 64.0,
        ..RenderOptions::default()
    };
    let pixmap = render_map(&map, &options)?;
    let layout = Layout::new(&map.grid, &options)?;
    let (w, h) = (pixmap.width(), pixmap.height());
    let src: Vec<[u8; 3]> = pixmap
        .pixels()
        .iter()
        .map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue()]
        })
        .collect();

    // Rotate about the centre onto a larger sheet of paper.
    let (s, c) = DEGREES.to_radians().sin_cos();
    let (wf, hf) = (f64::from(w), f64::from(h));
    let out_w = (wf * c + hf * s).ceil() as u32 + 2 * PAD;
    let out_h = (wf * s + hf * c).ceil() as u32 + 2 * PAD;
    let (scx, scy) = (wf / 2.0, hf / 2.0);
    let (dcx, dcy) = (f64::from(out_w) / 2.0, f64::from(out_h) / 2.0);
    // Source pixel → scan pixel.
    let to_scan: Matrix = [
        c,
        -s,
        dcx - c * scx + s * scy,
        s,
        c,
        dcy - s * scx - c * scy,
        0.0,
        0.0,
        1.0,
    ];
    let mut scan = RgbImage::new(out_w, out_h);
    let paper = [236.0f64, 228.0, 206.0];
    for (x, y, px) in scan.enumerate_pixels_mut() {
        let (dx, dy) = (f64::from(x) + 0.5 - dcx, f64::from(y) + 0.5 - dcy);
        let (sx, sy) = (c * dx + s * dy + scx - 0.5, -s * dx + c * dy + scy - 0.5);
        let sample = |i: i64, j: i64| -> [f64; 3] {
            if i < 0 || j < 0 || i >= i64::from(w) || j >= i64::from(h) {
                return paper;
            }
            let p = src[(j as usize) * w as usize + i as usize];
            // Printed paper is never white: tone it.
            [0, 1, 2].map(|k| f64::from(p[k]) * paper[k] / 255.0)
        };
        let (i, j) = (sx.floor() as i64, sy.floor() as i64);
        let (fx, fy) = (sx - sx.floor(), sy - sy.floor());
        let (a, b, cc, d) = (
            sample(i, j),
            sample(i + 1, j),
            sample(i, j + 1),
            sample(i + 1, j + 1),
        );
        let noise = (((x.wrapping_mul(7919) ^ y.wrapping_mul(104_729)) % 13) as f64) - 6.0;
        *px = Rgb([0, 1, 2].map(|k| {
            let v = a[k] * (1.0 - fx) * (1.0 - fy)
                + b[k] * fx * (1.0 - fy)
                + cc[k] * (1.0 - fx) * fy
                + d[k] * fx * fy
                + noise;
            v.round().clamp(0.0, 255.0) as u8
        }));
    }
    let scan_path = out.join("denain-scan.jpg");
    let file = std::io::BufWriter::new(std::fs::File::create(&scan_path)?);
    image::codecs::jpeg::JpegEncoder::new_with_quality(file, 88).encode_image(&scan)?;

    // The map, half digitised, calibrated from five slightly-off clicks.
    let truth = multiply(&to_scan, &layout.grid_to_image());
    let grid = &map.grid;
    let (cols, rows) = (grid.columns - 1, grid.rows - 1);
    let clicks = [
        (0, 0),
        (cols, 0),
        (0, rows),
        (cols, rows),
        (cols / 2, rows / 2),
    ];
    let points: Vec<ControlPoint> = clicks
        .iter()
        .enumerate()
        .map(|(k, &(col, row))| {
            let hex = HexIndex::new(col, row);
            let [gx, gy] = grid.centre(hex);
            let [x, y] = apply(&truth, [f64::from(gx), f64::from(gy)]);
            let e = [0.8, -1.2, 0.5, 1.5, -0.7][k];
            ControlPoint {
                hex: grid.name(hex),
                x: (x + e).round(),
                y: (y - e * 0.6).round(),
            }
        })
        .collect();
    let fit = calibrate(grid, &points, FitKind::Affine)?;
    let mut copy = map.clone();
    let blank = copy
        .terrain
        .keys()
        .next()
        .and_then(|k| k.chars().next())
        .unwrap_or('.');
    for row in &mut copy.rows {
        *row = row
            .chars()
            .enumerate()
            .map(|(col, ch)| if col < 17 { ch } else { blank })
            .collect();
    }
    copy.hexsides.retain(|_, _| false);
    copy.checked = grid
        .indices()
        .filter(|h| h.col < 10)
        .map(|h| grid.name(h))
        .collect();
    copy.background = Some(Background {
        image: "denain-scan.jpg".into(),
        fit: FitKind::Affine,
        grid_to_image: fit.grid_to_image,
        control_points: points,
    });
    let map_path = out.join("denain-digitised.ron");
    bataille_schema::save_map(&map_path, &copy)?;
    println!(
        "{} ({out_w}×{out_h} px) and {} (RMS {:.2} px)",
        scan_path.display(),
        map_path.display(),
        fit.rms_px
    );
    Ok(())
}
