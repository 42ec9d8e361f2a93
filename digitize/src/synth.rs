//! Realistic scans made from a clean picture of a map, for the benchmark and the tests: the
//! printed sheet (halftone screen, paper texture, coffee stains, pen marks) put on a scanner or
//! photographed (rotation, keystone, paper stretch), then the camera's or scanner's colour cast,
//! gamma, blur, noise and JPEG. Deterministic: the same picture, mix and seed give the same
//! scan, and the grid → scan matrix is known exactly, so a classification can be scored.

#![allow(clippy::needless_range_loop)] // per-channel loops over RGB

use image::{Rgb, RgbImage};

use crate::calibrate::{Matrix, apply, invert, multiply};

/// What is done to the picture. Zero / `None` / `false` leaves a step out.
#[derive(Debug, Clone, PartialEq)]
pub struct Mix {
    /// A short name for tables ("flatbed", "photo"…).
    pub name: &'static str,
    /// Rotation of the sheet, degrees.
    pub rotation_deg: f64,
    /// Perspective of a photographed sheet: the far edge this fraction narrower than the near.
    pub keystone: f64,
    /// Paper stretch: x and y scale factors (1.0: none).
    pub stretch: [f64; 2],
    /// A halftone screen of this period in pixels (CMY dots at 15°, 75°, 0°).
    pub halftone_period: Option<f32>,
    /// Paper texture: relative amplitude of low-frequency brightness changes.
    pub texture: f32,
    /// Coffee stains on the sheet.
    pub stains: usize,
    /// Pen marks: strokes and circles round hexes.
    pub pen_marks: usize,
    /// Per-channel gain (a yellowed sheet, a warm lamp): `[r, g, b]`.
    pub cast: [f32; 3],
    /// Output gamma (values `v^(1/gamma)`).
    pub gamma: f32,
    /// Gaussian blur sigma in pixels.
    pub blur: f32,
    /// Gaussian noise sigma in levels.
    pub noise: f32,
    /// JPEG quality, `None` for a lossless picture.
    pub jpeg_quality: Option<u8>,
}

impl Mix {
    /// The picture as rendered.
    pub fn clean() -> Self {
        Self {
            name: "clean",
            rotation_deg: 0.0,
            keystone: 0.0,
            stretch: [1.0, 1.0],
            halftone_period: None,
            texture: 0.0,
            stains: 0,
            pen_marks: 0,
            cast: [1.0, 1.0, 1.0],
            gamma: 1.0,
            blur: 0.0,
            noise: 0.0,
            jpeg_quality: None,
        }
    }

    /// The mixes of the benchmark: a flatbed scan of an old sheet, a halftoned print, a
    /// photograph (keystone), and everything at once.
    pub fn benchmark() -> Vec<Mix> {
        vec![
            Mix {
                name: "flatbed",
                rotation_deg: 1.7,
                stretch: [1.012, 0.994],
                texture: 0.05,
                stains: 3,
                pen_marks: 4,
                cast: [1.0, 0.96, 0.84],
                gamma: 1.15,
                blur: 0.8,
                noise: 3.0,
                jpeg_quality: Some(60),
                ..Mix::clean()
            },
            Mix {
                name: "halftone",
                rotation_deg: -0.8,
                stretch: [0.996, 1.008],
                halftone_period: Some(4.0),
                texture: 0.03,
                stains: 1,
                pen_marks: 2,
                cast: [0.97, 1.0, 0.95],
                gamma: 0.9,
                blur: 1.0,
                noise: 4.0,
                jpeg_quality: Some(50),
                ..Mix::clean()
            },
            Mix {
                name: "photo",
                rotation_deg: 3.0,
                keystone: 0.06,
                stretch: [1.0, 1.01],
                texture: 0.06,
                stains: 2,
                pen_marks: 3,
                cast: [1.05, 0.97, 0.85],
                gamma: 0.85,
                blur: 1.2,
                noise: 5.0,
                jpeg_quality: Some(40),
                ..Mix::clean()
            },
            Mix {
                name: "worst",
                rotation_deg: -2.5,
                keystone: 0.05,
                stretch: [1.015, 0.99],
                halftone_period: Some(4.5),
                texture: 0.07,
                stains: 4,
                pen_marks: 6,
                cast: [1.0, 0.93, 0.8],
                gamma: 1.2,
                blur: 1.1,
                noise: 6.0,
                jpeg_quality: Some(40),
            },
        ]
    }

    /// Whether a projective fit is needed (a photographed sheet).
    pub fn projective(&self) -> bool {
        self.keystone != 0.0
    }
}

/// A deterministic random source (SplitMix64).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [a, b).
    pub fn range(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.unit()
    }

    /// Standard normal (Box-Muller).
    pub fn normal(&mut self) -> f64 {
        let u = self.unit().max(1e-12);
        let v = self.unit();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

/// A made scan and where the grid lies on it.
#[derive(Debug, Clone)]
pub struct Synthetic {
    pub image: RgbImage,
    /// Grid coordinates to scan pixels (the true fit).
    pub grid_to_image: Matrix,
    /// The encoded file (JPEG when the mix asks for it, else PNG).
    pub bytes: Vec<u8>,
}

/// Makes a scan from a clean picture (`rgb`: `width × height` RGB bytes) whose grid lies at
/// `grid_to_picture`. `hex_centres` (picture pixels) are where pen circles may be drawn.
#[allow(clippy::too_many_arguments)]
pub fn make_scan(
    rgb: &[u8],
    width: u32,
    height: u32,
    grid_to_picture: &Matrix,
    hex_centres: &[[f64; 2]],
    hex_radius_px: f64,
    mix: &Mix,
    seed: u64,
) -> Result<Synthetic, image::ImageError> {
    let mut rng = Rng::new(seed);
    let size_error = || {
        image::ImageError::Parameter(image::error::ParameterError::from_kind(
            image::error::ParameterErrorKind::DimensionMismatch,
        ))
    };
    let mut sheet = RgbImage::from_raw(width, height, rgb.to_vec()).ok_or_else(size_error)?;
    // The printed sheet.
    if let Some(period) = mix.halftone_period {
        halftone(&mut sheet, period);
    }
    if mix.texture > 0.0 {
        texture(&mut sheet, mix.texture, &mut rng);
    }
    for _ in 0..mix.stains {
        stain(&mut sheet, hex_radius_px, &mut rng);
    }
    for k in 0..mix.pen_marks {
        if hex_centres.is_empty() {
            break;
        }
        pen_mark(&mut sheet, hex_centres, hex_radius_px, k, &mut rng);
    }
    // On the scanner or before the camera.
    let (picture_to_scan, out_w, out_h) = placement(width, height, mix);
    let mut scan = warp(&sheet, &picture_to_scan, out_w, out_h, [238, 236, 230]);
    drop(sheet);
    if mix.blur > 0.0 {
        gaussian_blur(&mut scan, mix.blur);
    }
    colour_and_noise(&mut scan, mix, &mut rng);
    let mut bytes = Vec::new();
    match mix.jpeg_quality {
        Some(quality) => {
            image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality)
                .encode_image(&scan)?;
            scan = image::load_from_memory(&bytes)?.to_rgb8();
        }
        None => {
            scan.write_to(
                &mut std::io::Cursor::new(&mut bytes),
                image::ImageFormat::Png,
            )?;
        }
    }
    Ok(Synthetic {
        image: scan,
        grid_to_image: multiply(&picture_to_scan, grid_to_picture),
        bytes,
    })
}

/// The picture → scan homography (rotation about the centre, stretch, keystone) and the scan's
/// size, with a margin of paper round it.
fn placement(width: u32, height: u32, mix: &Mix) -> (Matrix, u32, u32) {
    let (w, h) = (f64::from(width), f64::from(height));
    let (cx, cy) = (w / 2.0, h / 2.0);
    let a = mix.rotation_deg.to_radians();
    let (c, s) = (a.cos(), a.sin());
    let [sx, sy] = mix.stretch;
    let centre = [1.0, 0.0, -cx, 0.0, 1.0, -cy, 0.0, 0.0, 1.0];
    let stretch = [sx, 0.0, 0.0, 0.0, sy, 0.0, 0.0, 0.0, 1.0];
    let rotate = [c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0];
    // The top edge further from the camera: x shrinks with distance up the sheet.
    let k = mix.keystone / h;
    let keystone = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -k, 1.0];
    let m = multiply(&keystone, &multiply(&rotate, &multiply(&stretch, &centre)));
    let corners = [[0.0, 0.0], [w, 0.0], [0.0, h], [w, h]].map(|p| apply(&m, p));
    let min_x = corners.iter().map(|p| p[0]).fold(f64::INFINITY, f64::min);
    let min_y = corners.iter().map(|p| p[1]).fold(f64::INFINITY, f64::min);
    let max_x = corners
        .iter()
        .map(|p| p[0])
        .fold(f64::NEG_INFINITY, f64::max);
    let max_y = corners
        .iter()
        .map(|p| p[1])
        .fold(f64::NEG_INFINITY, f64::max);
    let margin = 20.0;
    let shift = [
        1.0,
        0.0,
        margin - min_x,
        0.0,
        1.0,
        margin - min_y,
        0.0,
        0.0,
        1.0,
    ];
    let out = multiply(&shift, &m);
    let out = out.map(|v| v / out[8]);
    let ow = (max_x - min_x + 2.0 * margin).ceil().max(1.0) as u32;
    let oh = (max_y - min_y + 2.0 * margin).ceil().max(1.0) as u32;
    (out, ow, oh)
}

/// Resamples `src` through `m` (source → destination), bilinear, `paper` outside.
fn warp(src: &RgbImage, m: &Matrix, width: u32, height: u32, paper: [u8; 3]) -> RgbImage {
    let inv = invert(m).unwrap_or([1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
    let (sw, sh) = (src.width() as i64, src.height() as i64);
    let raw = src.as_raw();
    let mut out = RgbImage::new(width, height);
    let px = |x: i64, y: i64| -> [f32; 3] {
        if x < 0 || y < 0 || x >= sw || y >= sh {
            return paper.map(f32::from);
        }
        let o = ((y * sw + x) * 3) as usize;
        [raw[o], raw[o + 1], raw[o + 2]].map(f32::from)
    };
    for (x, y, pixel) in out.enumerate_pixels_mut() {
        let [u, v] = apply(&inv, [f64::from(x) + 0.5, f64::from(y) + 0.5]);
        let (u, v) = (u - 0.5, v - 0.5);
        let (x0, y0) = (u.floor(), v.floor());
        let (fx, fy) = ((u - x0) as f32, (v - y0) as f32);
        let (x0, y0) = (x0 as i64, y0 as i64);
        let (a, b, c, d) = (
            px(x0, y0),
            px(x0 + 1, y0),
            px(x0, y0 + 1),
            px(x0 + 1, y0 + 1),
        );
        let mut rgb = [0u8; 3];
        for ch in 0..3 {
            let top = a[ch] + (b[ch] - a[ch]) * fx;
            let bottom = c[ch] + (d[ch] - c[ch]) * fx;
            rgb[ch] = (top + (bottom - top) * fy).round().clamp(0.0, 255.0) as u8;
        }
        *pixel = Rgb(rgb);
    }
    out
}

/// A CMY halftone: each channel's ink as round dots on a screen at its own angle, the dot's
/// area following the ink's amount (edges a pixel soft).
fn halftone(img: &mut RgbImage, period: f32) {
    let angles = [15f32, 75.0, 0.0].map(f32::to_radians);
    for (x, y, pixel) in img.enumerate_pixels_mut() {
        let (fx, fy) = (x as f32 + 0.5, y as f32 + 0.5);
        for ch in 0..3 {
            let (c, s) = (angles[ch].cos(), angles[ch].sin());
            let u = (fx * c + fy * s) / period;
            let v = (-fx * s + fy * c) / period;
            let du = u - u.round();
            let dv = v - v.round();
            let d = (du * du + dv * dv).sqrt() * period;
            let ink = 1.0 - f32::from(pixel.0[ch]) / 255.0;
            // Dot radius for that area share (beyond 0.785 the dots merge).
            let radius = (ink / std::f32::consts::PI).sqrt() * period;
            let cover = (radius - d + 0.5).clamp(0.0, 1.0);
            pixel.0[ch] = ((1.0 - cover) * 255.0).round() as u8;
        }
    }
}

/// Smooth value noise: a coarse lattice of random values, bilinearly interpolated.
fn value_noise(width: u32, height: u32, cell: f32, rng: &mut Rng) -> Vec<f32> {
    let gw = (width as f32 / cell).ceil() as usize + 2;
    let gh = (height as f32 / cell).ceil() as usize + 2;
    let lattice: Vec<f32> = (0..gw * gh).map(|_| rng.range(-1.0, 1.0) as f32).collect();
    let mut out = Vec::with_capacity(width as usize * height as usize);
    for y in 0..height {
        let gy = y as f32 / cell;
        let (y0, ty) = (gy.floor() as usize, gy.fract());
        let ty = ty * ty * (3.0 - 2.0 * ty);
        for x in 0..width {
            let gx = x as f32 / cell;
            let (x0, tx) = (gx.floor() as usize, gx.fract());
            let tx = tx * tx * (3.0 - 2.0 * tx);
            let at = |i: usize, j: usize| lattice[j * gw + i];
            let top = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * tx;
            let bottom = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * tx;
            out.push(top + (bottom - top) * ty);
        }
    }
    out
}

/// Paper texture: brightness varying over a few scales.
fn texture(img: &mut RgbImage, amplitude: f32, rng: &mut Rng) {
    let (w, h) = img.dimensions();
    let coarse = value_noise(w, h, 180.0, rng);
    let fine = value_noise(w, h, 9.0, rng);
    for (i, pixel) in img.pixels_mut().enumerate() {
        let f = 1.0 + amplitude * (0.7 * coarse[i] + 0.3 * fine[i]);
        for c in &mut pixel.0 {
            *c = (f32::from(*c) * f).round().clamp(0.0, 255.0) as u8;
        }
    }
}

/// A coffee stain: a soft brown ring of a few hexes across with a faint inside.
fn stain(img: &mut RgbImage, hex_radius: f64, rng: &mut Rng) {
    let (w, h) = (f64::from(img.width()), f64::from(img.height()));
    let centre = [rng.range(0.0, w), rng.range(0.0, h)];
    let radius = rng.range(1.0, 3.0) * hex_radius;
    let squash = rng.range(0.7, 1.0);
    let tint = [0.93f32, 0.85, 0.68];
    let strength = rng.range(0.5, 1.0) as f32;
    let x0 = (centre[0] - radius * 1.2).max(0.0) as u32;
    let x1 = ((centre[0] + radius * 1.2).min(w - 1.0)).max(0.0) as u32;
    let y0 = (centre[1] - radius * 1.2).max(0.0) as u32;
    let y1 = ((centre[1] + radius * 1.2).min(h - 1.0)).max(0.0) as u32;
    for y in y0..=y1 {
        for x in x0..=x1 {
            let dx = (f64::from(x) - centre[0]) / radius;
            let dy = (f64::from(y) - centre[1]) / (radius * squash);
            let d = (dx * dx + dy * dy).sqrt();
            if d > 1.1 {
                continue;
            }
            // Faint inside, darker rim.
            let ring = (-((d - 1.0) / 0.06).powi(2)).exp();
            let a = strength * (0.35 * (d < 1.0) as u8 as f32 + 0.65 * ring as f32);
            let pixel = img.get_pixel_mut(x, y);
            for ch in 0..3 {
                let v = f32::from(pixel.0[ch]);
                pixel.0[ch] = (v * (1.0 - a * (1.0 - tint[ch]))).round().clamp(0.0, 255.0) as u8;
            }
        }
    }
}

/// A pen mark: a circle round a hex (even marks) or a scribbled stroke (odd), in ballpoint
/// blue or pencil grey.
fn pen_mark(img: &mut RgbImage, centres: &[[f64; 2]], hex_radius: f64, k: usize, rng: &mut Rng) {
    let c = centres[(rng.next_u64() % centres.len() as u64) as usize];
    let ink = if k % 3 == 2 {
        [95u8, 95, 100]
    } else {
        [40u8, 60, 150]
    };
    let width = rng.range(1.2, 2.2);
    let mut points = Vec::new();
    if k.is_multiple_of(2) {
        let r = hex_radius * rng.range(0.55, 0.8);
        let phase = rng.range(0.0, std::f64::consts::TAU);
        for i in 0..=40 {
            let a = phase + std::f64::consts::TAU * 1.08 * f64::from(i) / 40.0;
            let wobble = 1.0 + 0.05 * (3.0 * a).sin();
            points.push([
                c[0] + r * wobble * a.cos(),
                c[1] + r * wobble * 0.95 * a.sin(),
            ]);
        }
    } else {
        let mut p = [
            c[0] + rng.range(-0.5, 0.5) * hex_radius,
            c[1] + rng.range(-0.5, 0.5) * hex_radius,
        ];
        let mut heading = rng.range(0.0, std::f64::consts::TAU);
        for _ in 0..30 {
            points.push(p);
            heading += rng.range(-0.4, 0.4);
            let step = 0.12 * hex_radius;
            p = [p[0] + step * heading.cos(), p[1] + step * heading.sin()];
        }
    }
    for pair in points.windows(2) {
        draw_segment(img, pair[0], pair[1], width, ink);
    }
}

/// An anti-aliased segment of the given width.
fn draw_segment(img: &mut RgbImage, a: [f64; 2], b: [f64; 2], width: f64, ink: [u8; 3]) {
    let half = width / 2.0;
    let (w, h) = (f64::from(img.width()), f64::from(img.height()));
    let x0 = (a[0].min(b[0]) - half - 1.0).max(0.0) as u32;
    let x1 = (a[0].max(b[0]) + half + 1.0).min(w - 1.0).max(0.0) as u32;
    let y0 = (a[1].min(b[1]) - half - 1.0).max(0.0) as u32;
    let y1 = (a[1].max(b[1]) + half + 1.0).min(h - 1.0).max(0.0) as u32;
    let d = [b[0] - a[0], b[1] - a[1]];
    let len2 = (d[0] * d[0] + d[1] * d[1]).max(1e-9);
    for y in y0..=y1 {
        for x in x0..=x1 {
            let p = [f64::from(x) + 0.5, f64::from(y) + 0.5];
            let t = (((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / len2).clamp(0.0, 1.0);
            let q = [a[0] + t * d[0], a[1] + t * d[1]];
            let dist = ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2)).sqrt();
            let cover = (half - dist + 0.5).clamp(0.0, 1.0) as f32;
            if cover <= 0.0 {
                continue;
            }
            let pixel = img.get_pixel_mut(x, y);
            for ch in 0..3 {
                let v = f32::from(pixel.0[ch]);
                // Ink darkens (multiply), as on paper.
                let m = v * f32::from(ink[ch]) / 255.0;
                pixel.0[ch] = (v + (m - v) * cover * 0.85).round() as u8;
            }
        }
    }
}

/// A separable Gaussian blur.
fn gaussian_blur(img: &mut RgbImage, sigma: f32) {
    let radius = (3.0 * sigma).ceil() as i64;
    let kernel: Vec<f32> = (-radius..=radius)
        .map(|i| (-(i * i) as f32 / (2.0 * sigma * sigma)).exp())
        .collect();
    let total: f32 = kernel.iter().sum();
    let kernel: Vec<f32> = kernel.iter().map(|k| k / total).collect();
    let (w, h) = (img.width() as i64, img.height() as i64);
    let src: Vec<f32> = img.as_raw().iter().map(|v| f32::from(*v)).collect();
    let mut tmp = vec![0f32; src.len()];
    for y in 0..h {
        for x in 0..w {
            for ch in 0..3 {
                let mut acc = 0.0;
                for (k, weight) in kernel.iter().enumerate() {
                    let xx = (x + k as i64 - radius).clamp(0, w - 1);
                    acc += weight * src[((y * w + xx) * 3) as usize + ch];
                }
                tmp[((y * w + x) * 3) as usize + ch] = acc;
            }
        }
    }
    let out = img.as_mut();
    for y in 0..h {
        for x in 0..w {
            for ch in 0..3 {
                let mut acc = 0.0;
                for (k, weight) in kernel.iter().enumerate() {
                    let yy = (y + k as i64 - radius).clamp(0, h - 1);
                    acc += weight * tmp[((yy * w + x) * 3) as usize + ch];
                }
                out[((y * w + x) * 3) as usize + ch] = acc.round().clamp(0.0, 255.0) as u8;
            }
        }
    }
}

/// Colour cast, gamma and sensor noise.
fn colour_and_noise(img: &mut RgbImage, mix: &Mix, rng: &mut Rng) {
    let gamma = if mix.gamma > 0.0 { mix.gamma } else { 1.0 };
    let table: Vec<[u8; 256]> = (0..3)
        .map(|ch| {
            let mut t = [0u8; 256];
            for (i, slot) in t.iter_mut().enumerate() {
                let v = (i as f32 / 255.0 * mix.cast[ch]).clamp(0.0, 1.0);
                *slot = (v.powf(1.0 / gamma) * 255.0).round() as u8;
            }
            t
        })
        .collect();
    for pixel in img.pixels_mut() {
        for ch in 0..3 {
            let v = f32::from(table[ch][pixel.0[ch] as usize]);
            let n = if mix.noise > 0.0 {
                mix.noise * rng.normal() as f32
            } else {
                0.0
            };
            pixel.0[ch] = (v + n).round().clamp(0.0, 255.0) as u8;
        }
    }
}
