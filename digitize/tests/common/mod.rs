//! Test helpers: a known map, rendered, then "scanned": rotated, scaled, blurred, noisy and
//! JPEG-compressed, with the exact grid → image matrix of the result.

#![allow(dead_code)]

use bataille_digitize::calibrate::{Matrix, multiply};
use bataille_render::{Layout, RenderOptions, render_map};
use bataille_schema::stress::{StressSize, generate};
use bataille_schema::{HexIndex, Map};
use image::{Rgb, RgbImage};

/// A 16 × 12 map with patches of clear, forest, marsh and hill, a stream and a town.
pub fn known_map() -> Map {
    let (mut map, _) = generate(
        StressSize {
            columns: 16,
            rows: 12,
            units: 0,
            corps: 1,
        },
        "known.ron",
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

pub fn code_at(map: &Map, index: HexIndex) -> char {
    map.rows[index.row as usize]
        .chars()
        .nth(index.col as usize)
        .unwrap_or('?')
}

/// The rendered map as an RGB image and where the grid lies on it.
pub fn rendered(map: &Map, px_per_hex: f32) -> (RgbImage, Matrix) {
    let options = RenderOptions {
        px_per_hex,
        ..RenderOptions::default()
    };
    let pixmap = render_map(map, &options).unwrap();
    let layout = Layout::new(&map.grid, &options).unwrap();
    let mut image = RgbImage::new(pixmap.width(), pixmap.height());
    for (pixel, out) in pixmap.pixels().iter().zip(image.pixels_mut()) {
        let c = pixel.demultiply();
        *out = Rgb([c.red(), c.green(), c.blue()]);
    }
    (image, layout.grid_to_image())
}

struct Lcg(u64);

impl Lcg {
    fn next_f32(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// Rotates by `degrees` and scales by `scale` about the image centre onto a canvas with
/// `pad` pixels more each side (bilinear), blurs (3 × 3 box), adds uniform noise of ±`noise`
/// and compresses as JPEG at `quality`. Returns the JPEG bytes and the matrix taking the
/// original image's pixels to the scan's.
pub fn scan_like(
    image: &RgbImage,
    degrees: f64,
    scale: f64,
    pad: u32,
    noise: f32,
    quality: u8,
) -> (Vec<u8>, Matrix) {
    let (w, h) = (image.width(), image.height());
    let (ow, oh) = (w + 2 * pad, h + 2 * pad);
    let (cx, cy) = (f64::from(w) / 2.0, f64::from(h) / 2.0);
    let (ocx, ocy) = (f64::from(ow) / 2.0, f64::from(oh) / 2.0);
    let (s, c) = degrees.to_radians().sin_cos();
    let to_scan: Matrix = multiply(
        &[
            scale * c,
            -scale * s,
            ocx,
            scale * s,
            scale * c,
            ocy,
            0.0,
            0.0,
            1.0,
        ],
        &[1.0, 0.0, -cx, 0.0, 1.0, -cy, 0.0, 0.0, 1.0],
    );
    let inverse = bataille_digitize::calibrate::invert(&to_scan).unwrap();
    let paper = [250.0f32, 248.0, 240.0];
    let sample = |x: f64, y: f64| -> [f32; 3] {
        // Pixel centres at i + 0.5.
        let (fx, fy) = (x - 0.5, y - 0.5);
        let (x0, y0) = (fx.floor(), fy.floor());
        let (tx, ty) = ((fx - x0) as f32, (fy - y0) as f32);
        let get = |i: f64, j: f64| -> [f32; 3] {
            if i < 0.0 || j < 0.0 || i >= f64::from(w) || j >= f64::from(h) {
                return paper;
            }
            let p = image.get_pixel(i as u32, j as u32);
            [f32::from(p[0]), f32::from(p[1]), f32::from(p[2])]
        };
        let (a, b, c2, d) = (
            get(x0, y0),
            get(x0 + 1.0, y0),
            get(x0, y0 + 1.0),
            get(x0 + 1.0, y0 + 1.0),
        );
        let mut out = [0.0; 3];
        for k in 0..3 {
            let top = a[k] + (b[k] - a[k]) * tx;
            let bottom = c2[k] + (d[k] - c2[k]) * tx;
            out[k] = top + (bottom - top) * ty;
        }
        out
    };
    let mut warped = vec![[0.0f32; 3]; (ow * oh) as usize];
    for j in 0..oh {
        for i in 0..ow {
            let [x, y] = bataille_digitize::calibrate::apply(
                &inverse,
                [f64::from(i) + 0.5, f64::from(j) + 0.5],
            );
            warped[(j * ow + i) as usize] = sample(x, y);
        }
    }
    let mut random = Lcg(0x5ca7);
    let mut scan = RgbImage::new(ow, oh);
    for j in 0..oh {
        for i in 0..ow {
            let mut sum = [0.0f32; 3];
            let mut n = 0.0;
            for dj in -1i32..=1 {
                for di in -1i32..=1 {
                    let (x, y) = (i as i32 + di, j as i32 + dj);
                    if x >= 0 && y >= 0 && (x as u32) < ow && (y as u32) < oh {
                        let p = warped[(y as u32 * ow + x as u32) as usize];
                        for k in 0..3 {
                            sum[k] += p[k];
                        }
                        n += 1.0;
                    }
                }
            }
            let mut px = [0u8; 3];
            for k in 0..3 {
                let v = sum[k] / n + (random.next_f32() * 2.0 - 1.0) * noise;
                px[k] = v.round().clamp(0.0, 255.0) as u8;
            }
            scan.put_pixel(i, j, Rgb(px));
        }
    }
    let mut bytes = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality)
        .encode_image(&scan)
        .unwrap();
    (bytes, to_scan)
}

/// PNG bytes of an image.
pub fn png_bytes(image: &RgbImage) -> Vec<u8> {
    let mut bytes = Vec::new();
    image
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .unwrap();
    bytes
}
