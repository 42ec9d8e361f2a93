//! A large synthetic scan for the benchmark and the memory example: a 56 × 36 hex map (2,016
//! hexes) rendered onto a 10,000 × 7,000 px canvas and written as JPEG.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use bataille_digitize::calibrate::{Matrix, multiply};
use bataille_render::{Layout, RenderOptions, render_map};
use bataille_schema::stress::{StressSize, generate};
use bataille_schema::{HexIndex, Map};
use image::{Rgb, RgbImage};

pub const WIDTH: u32 = 10_000;
pub const HEIGHT: u32 = 7_000;

pub fn big_map() -> Map {
    let (mut map, _) = generate(
        StressSize {
            columns: 56,
            rows: 36,
            units: 0,
            corps: 1,
        },
        "big.ron",
    );
    let codes = ['c', 'f', 'm', 'h'];
    map.rows = (0..map.grid.rows)
        .map(|row| {
            (0..map.grid.columns)
                .map(|col| codes[((col / 3 + row / 2 + (col * row) % 5 / 4) % 4) as usize])
                .collect()
        })
        .collect();
    map
}

/// Where the JPEG is kept between runs (it is the same every time).
pub fn scan_path() -> PathBuf {
    std::env::temp_dir().join("bataille-bench-scan-10000x7000.jpg")
}

/// The grid → image matrix of the big scan, the render options and where the render's top
/// left lies on the canvas.
pub fn big_scan_layout(map: &Map) -> (Matrix, RenderOptions, [u32; 2]) {
    let probe = RenderOptions {
        px_per_hex: 100.0,
        margin_px: Some(0.0),
        ..RenderOptions::default()
    };
    let layout = Layout::new(&map.grid, &probe).expect("layout");
    let px = 100.0
        * ((WIDTH - 200) as f32 / layout.width as f32)
            .min((HEIGHT - 200) as f32 / layout.height as f32);
    let options = RenderOptions {
        px_per_hex: px,
        margin_px: Some(0.0),
        ..RenderOptions::default()
    };
    let layout = Layout::new(&map.grid, &options).expect("layout");
    let (ox, oy) = (
        WIDTH.saturating_sub(layout.width) / 2,
        HEIGHT.saturating_sub(layout.height) / 2,
    );
    let shift = [
        1.0,
        0.0,
        f64::from(ox),
        0.0,
        1.0,
        f64::from(oy),
        0.0,
        0.0,
        1.0,
    ];
    (multiply(&shift, &layout.grid_to_image()), options, [ox, oy])
}

/// The grid → image matrix of the big scan.
pub fn big_scan_matrix(map: &Map) -> Matrix {
    big_scan_layout(map).0
}

/// Writes the big scan (when it is not there yet) and returns its path.
pub fn ensure_big_scan(map: &Map) -> PathBuf {
    let path = scan_path();
    if path.exists() {
        return path;
    }
    write_big_scan(map, &path);
    path
}

pub fn write_big_scan(map: &Map, path: &Path) {
    let (_, options, [ox, oy]) = big_scan_layout(map);
    let pixmap = render_map(map, &options).expect("render");
    let mut canvas = RgbImage::from_pixel(WIDTH, HEIGHT, Rgb([250, 248, 240]));
    let w = pixmap.width() as usize;
    for (i, pixel) in pixmap.pixels().iter().enumerate() {
        let c = pixel.demultiply();
        let (x, y) = ((i % w) as u32 + ox, (i / w) as u32 + oy);
        canvas.put_pixel(x, y, Rgb([c.red(), c.green(), c.blue()]));
    }
    drop(pixmap);
    let file = std::fs::File::create(path).expect("create scan");
    let mut out = std::io::BufWriter::new(file);
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 85)
        .encode_image(&canvas)
        .expect("encode scan");
}

/// Two marked hexes per terrain code.
pub fn samples(map: &Map) -> BTreeMap<String, Vec<HexIndex>> {
    let all: Vec<HexIndex> = map.grid.indices().collect();
    let mut samples = BTreeMap::new();
    for code in ['c', 'f', 'm', 'h'] {
        let of: Vec<HexIndex> = all
            .iter()
            .copied()
            .filter(|i| map.rows[i.row as usize].chars().nth(i.col as usize) == Some(code))
            .collect();
        samples.insert(code.to_string(), vec![of[0], of[of.len() / 2]]);
    }
    samples
}
