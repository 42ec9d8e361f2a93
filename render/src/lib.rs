//! Bataille's headless renderer: a map or a scenario drawn to an RGBA image with tiny-skia — no
//! window, no GPU — for review in CI, for docs and as test input for the digitiser.
//!
//! ```
//! use bataille_render::{RenderOptions, render_map};
//! use bataille_schema::stress::{StressSize, generate};
//! let (map, _) = generate(StressSize { columns: 6, rows: 5, units: 0, corps: 1 }, "m.ron");
//! let pixmap = render_map(&map, &RenderOptions::default()).unwrap();
//! assert!(pixmap.width() > 200);
//! ```

mod counters;
mod drawing;
mod map;
pub mod symbology;
mod symbols;
pub mod text;

use std::path::Path;

use bataille_schema::{Grid, Map, Scenario};
use tiny_skia::Pixmap;

pub use png;
pub use tiny_skia;

/// Largest side of a rendered image, in pixels.
pub const MAX_SIDE_PX: u32 = 20_000;
/// Largest rendered image, in pixels (about 600 MiB of RGBA).
pub const MAX_PIXELS: u64 = 150_000_000;

/// What to draw and at what scale.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderOptions {
    /// The distance in pixels between the centres of two neighbouring hexes (the hex's width
    /// across its flats). The hex's circumradius is this divided by √3.
    pub px_per_hex: f32,
    /// Paper around the grid, in pixels; `None`: half a hex.
    pub margin_px: Option<f32>,
    /// The hex names (`0101`) at the top of each hex.
    pub hex_names: bool,
    /// Place names.
    pub labels: bool,
    /// Hex outlines.
    pub grid_lines: bool,
    /// Fill patterns of the legend (trees, hatch…) over the terrain colours.
    pub patterns: bool,
    /// Overlays (redoubts, towns, bridges, roads…).
    pub overlays: bool,
    /// Hexside features (rivers, streams, fortification lines…).
    pub hexsides: bool,
    /// Unit counters (scenarios only).
    pub counters: bool,
    /// Leader and commander markers (scenarios only).
    pub leaders: bool,
    /// The paper colour around and under the grid.
    pub paper: [u8; 3],
}

impl Default for RenderOptions {
    fn default() -> Self {
        Self {
            px_per_hex: 48.0,
            margin_px: None,
            hex_names: true,
            labels: true,
            grid_lines: true,
            patterns: true,
            overlays: true,
            hexsides: true,
            counters: true,
            leaders: true,
            paper: [0xf7, 0xf3, 0xe8],
        }
    }
}

/// Why an image could not be made.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("the scale must be a positive number of pixels per hex (got {0})")]
    BadScale(f32),
    #[error(
        "the image would be {width}×{height} px; the largest is {MAX_SIDE_PX} px a side and {MAX_PIXELS} px in all"
    )]
    TooLarge { width: u64, height: u64 },
    #[error("could not encode the PNG: {0}")]
    Encode(String),
    #[error("cannot write {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

/// Where the grid lands on the image: grid space (circumradius 1, first hex at the origin, y
/// down) scaled by `radius_px` and shifted by `offset_px`. Pixel `(i, j)` covers
/// `[i, i+1) × [j, j+1)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Layout {
    /// The hex circumradius in pixels.
    pub radius_px: f32,
    /// Where the grid's origin (the first hex's centre) is on the image.
    pub offset_px: [f32; 2],
    pub width: u32,
    pub height: u32,
}

impl Layout {
    /// The layout of a grid at the options' scale.
    pub fn new(grid: &Grid, options: &RenderOptions) -> Result<Layout, RenderError> {
        let px_per_hex = options.px_per_hex;
        if !(px_per_hex.is_finite() && px_per_hex >= 4.0) {
            return Err(RenderError::BadScale(px_per_hex));
        }
        let radius_px = px_per_hex / 3f32.sqrt();
        let margin = options
            .margin_px
            .filter(|m| m.is_finite() && *m >= 0.0)
            .unwrap_or(px_per_hex * 0.5);
        let (min, max) = grid.bounds();
        let width = ((max[0] - min[0]) * radius_px + 2.0 * margin).ceil();
        let height = ((max[1] - min[1]) * radius_px + 2.0 * margin).ceil();
        let (w, h) = (width.max(1.0) as u64, height.max(1.0) as u64);
        if w > u64::from(MAX_SIDE_PX) || h > u64::from(MAX_SIDE_PX) || w * h > MAX_PIXELS {
            return Err(RenderError::TooLarge {
                width: w,
                height: h,
            });
        }
        Ok(Layout {
            radius_px,
            offset_px: [margin - min[0] * radius_px, margin - min[1] * radius_px],
            width: w as u32,
            height: h as u32,
        })
    }

    /// A point of grid space on the image, in pixels.
    pub fn to_image(&self, point: [f32; 2]) -> [f32; 2] {
        [
            point[0] * self.radius_px + self.offset_px[0],
            point[1] * self.radius_px + self.offset_px[1],
        ]
    }

    /// The row-major 3×3 matrix taking grid coordinates to image pixels (the form of
    /// `Background::grid_to_image`).
    pub fn grid_to_image(&self) -> [f64; 9] {
        let r = f64::from(self.radius_px);
        [
            r,
            0.0,
            f64::from(self.offset_px[0]),
            0.0,
            r,
            f64::from(self.offset_px[1]),
            0.0,
            0.0,
            1.0,
        ]
    }
}

/// Draws a map.
pub fn render_map(map: &Map, options: &RenderOptions) -> Result<Pixmap, RenderError> {
    let layout = Layout::new(&map.grid, options)?;
    render_map_at(map, &layout, options)
}

/// Draws a map on a given layout (an export that needs the hexes at exact pixel positions
/// chooses its own).
pub fn render_map_at(
    map: &Map,
    layout: &Layout,
    options: &RenderOptions,
) -> Result<Pixmap, RenderError> {
    check_size(layout)?;
    let mut pixmap = new_pixmap(layout, options)?;
    symbology::map_drawing(map, layout, options)
        .paint(&mut pixmap, tiny_skia::Transform::identity());
    Ok(pixmap)
}

/// Draws a map on a given layout straight into PNG bytes, a band of rows at a time: the memory
/// of one band (and of the map's drawing), never of the whole image, and PNG's fast deflate.
/// For boards too large to hold whole: the 200 × 200 stress map at 64 px a hex is 11,170 ×
/// 12,898 px, 576 MB as one RGBA image (and as much again as RGB to encode it). Each band paints
/// only the shapes that reach it, so the work stays linear in the map. Bands are drawn on
/// rayon's threads, as many at a time as there are threads, while the ones before are deflated.
pub fn encode_map_png(
    map: &Map,
    layout: &Layout,
    options: &RenderOptions,
) -> Result<Vec<u8>, RenderError> {
    let mut bytes = Vec::new();
    write_map_png(map, layout, options, &mut bytes)?;
    Ok(bytes)
}

/// [`encode_map_png`] into a writer (a module's zip entry), so the encoded image is never held
/// whole either.
pub fn write_map_png(
    map: &Map,
    layout: &Layout,
    options: &RenderOptions,
    out: &mut (impl std::io::Write + Send),
) -> Result<(), RenderError> {
    check_size(layout)?;
    let drawing = symbology::map_drawing(map, layout, options);
    let (width, height) = (layout.width, layout.height);
    let bands = height.div_ceil(BAND_ROWS) as usize;
    // Each item in the bands its bounds reach (in drawing order within a band).
    let mut in_band: Vec<Vec<usize>> = vec![Vec::new(); bands];
    for (i, item) in drawing.items.iter().enumerate() {
        let (top, bottom) = item_rows(item).unwrap_or((0.0, f32::from(u16::MAX) * 1e3));
        let first = (top.max(0.0) / BAND_ROWS as f32).floor() as usize;
        let last = ((bottom.max(0.0) / BAND_ROWS as f32).floor() as usize).min(bands - 1);
        for band in in_band.iter_mut().take(last + 1).skip(first) {
            band.push(i);
        }
    }
    let [r, g, b] = options.paper;
    let too_large = || RenderError::TooLarge {
        width: u64::from(width),
        height: u64::from(height),
    };
    // One band's rows as RGB, drawn on its own pixmap.
    let draw = |y0: u32, rows: u32| -> Result<Vec<u8>, RenderError> {
        let mut band = paper_pixmap(width, rows, [r, g, b]).ok_or_else(too_large)?;
        let shift = tiny_skia::Transform::from_translate(0.0, -(y0 as f32));
        for &i in &in_band[(y0 / BAND_ROWS) as usize] {
            drawing.items[i].paint(&mut band, shift);
        }
        Ok(pixmap_rgb(&band))
    };
    write_png_in_bands(width, height, png::ColorType::Rgb, out, draw)
}

/// Rows of an image made at once by [`write_png_in_bands`].
pub const BAND_ROWS: u32 = 256;

/// Writes a PNG of `width × height` pixels ([`png::ColorType::Rgb`] or `Rgba`, 8 bits) a band
/// of [`BAND_ROWS`] rows at a time: `band(first_row, rows)` gives a band's pixels, row by row.
/// Bands are independent, so they are made on every thread at once, as many at a time as there
/// are threads, while the ones before are deflated in order (PNG's fast deflate): the memory of
/// a few bands, never of the whole image, and the work linear in its rows. For boards too large
/// to hold whole (the map drawn, a scan resampled).
pub fn write_png_in_bands(
    width: u32,
    height: u32,
    colour: png::ColorType,
    out: &mut (impl std::io::Write + Send),
    band: impl Fn(u32, u32) -> Result<Vec<u8>, RenderError> + Sync,
) -> Result<(), RenderError> {
    let encode = |error: png::EncodingError| RenderError::Encode(error.to_string());
    let mut encoder = png::Encoder::new(out, width, height);
    encoder.set_color(colour);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    encoder.set_filter(png::Filter::Paeth);
    let mut writer = encoder.write_header().map_err(encode)?;
    let mut stream = writer.stream_writer().map_err(encode)?;
    let bands = height.div_ceil(BAND_ROWS) as usize;
    let make = |index: usize| {
        let y0 = index as u32 * BAND_ROWS;
        band(y0, BAND_ROWS.min(height - y0))
    };
    let at_once = rayon::current_num_threads().max(1);
    let make_some = |first: usize| -> Result<Vec<Vec<u8>>, RenderError> {
        use rayon::prelude::*;
        (first..(first + at_once).min(bands))
            .into_par_iter()
            .map(make)
            .collect()
    };
    let mut next = make_some(0)?;
    let mut first = 0;
    while !next.is_empty() {
        first += next.len();
        let done = next;
        let (made, written) = rayon::join(
            || make_some(first),
            || -> Result<(), RenderError> {
                for pixels in &done {
                    std::io::Write::write_all(&mut stream, pixels)
                        .map_err(|error| RenderError::Encode(error.to_string()))?;
                }
                Ok(())
            },
        );
        written?;
        next = made?;
    }
    stream.finish().map_err(encode)?;
    writer.finish().map_err(encode)?;
    Ok(())
}

/// A path's bounds once transformed (the path copied only when the transform moves more than
/// nothing).
fn placed_bounds(
    path: &tiny_skia::Path,
    transform: &tiny_skia::Transform,
) -> Option<tiny_skia::Rect> {
    if transform.is_identity() {
        Some(path.bounds())
    } else {
        Some(path.clone().transform(*transform)?.bounds())
    }
}

/// The rows of the image an item may touch (a text's generously), `None` when unknown.
fn item_rows(item: &drawing::Item) -> Option<(f32, f32)> {
    match item {
        drawing::Item::Fill {
            path, transform, ..
        } => {
            let bounds = placed_bounds(path, transform)?;
            Some((bounds.top() - 2.0, bounds.bottom() + 2.0))
        }
        drawing::Item::Stroke {
            path,
            transform,
            width,
            ..
        } => {
            let bounds = placed_bounds(path, transform)?;
            let reach = width * transform.get_scale().0.max(transform.get_scale().1) + 2.0;
            Some((bounds.top() - reach, bounds.bottom() + reach))
        }
        drawing::Item::Text {
            style,
            pos,
            transform,
            ..
        } => {
            // A line of text reaches about its size above and below its anchor, its halo too;
            // taken twice over (the anchor may be at the top or the bottom of the line).
            let reach = 2.0 * style.size_px + style.halo.map_or(0.0, |(_, w)| w) + 2.0;
            let mut p = [tiny_skia::Point::from_xy(pos[0], pos[1])];
            transform.map_points(&mut p);
            if !transform.is_translate() && !transform.is_identity() {
                return None;
            }
            Some((p[0].y - reach, p[0].y + reach))
        }
    }
}

/// Draws a scenario on its map: the map, then leaders and unit counters where they stand at
/// set-up.
pub fn render_scenario(
    scenario: &Scenario,
    map: &Map,
    options: &RenderOptions,
) -> Result<Pixmap, RenderError> {
    let layout = Layout::new(&map.grid, options)?;
    let mut pixmap = new_pixmap(&layout, options)?;
    let mut drawing = symbology::map_drawing(map, &layout, options);
    drawing.extend(symbology::scenario_drawing(scenario, map, &layout, options));
    drawing.paint(&mut pixmap, tiny_skia::Transform::identity());
    Ok(pixmap)
}

fn check_size(layout: &Layout) -> Result<(), RenderError> {
    let (w, h) = (u64::from(layout.width), u64::from(layout.height));
    if w == 0
        || h == 0
        || w > u64::from(MAX_SIDE_PX)
        || h > u64::from(MAX_SIDE_PX)
        || w * h > MAX_PIXELS
    {
        return Err(RenderError::TooLarge {
            width: w,
            height: h,
        });
    }
    Ok(())
}

fn new_pixmap(layout: &Layout, options: &RenderOptions) -> Result<Pixmap, RenderError> {
    let mut pixmap = Pixmap::new(layout.width, layout.height).ok_or(RenderError::TooLarge {
        width: u64::from(layout.width),
        height: u64::from(layout.height),
    })?;
    let [r, g, b] = options.paper;
    pixmap.fill(tiny_skia::Color::from_rgba8(r, g, b, 255));
    Ok(pixmap)
}

/// The image as PNG bytes, RGB when it is opaque (deterministic: the same image gives the same
/// bytes).
pub fn encode_png(pixmap: &Pixmap) -> Result<Vec<u8>, RenderError> {
    encode_png_at(pixmap, png::Compression::High)
}

/// [`encode_png`] with PNG's fast deflate (fdeflate): several times faster, somewhat larger;
/// for the thousands of counter images of a module.
pub fn encode_png_fast(pixmap: &Pixmap) -> Result<Vec<u8>, RenderError> {
    encode_png_at(pixmap, png::Compression::Fast)
}

fn encode_png_at(pixmap: &Pixmap, compression: png::Compression) -> Result<Vec<u8>, RenderError> {
    let opaque = pixmap.pixels().iter().all(|p| p.alpha() == 255);
    let data = if opaque {
        pixmap_rgb(pixmap)
    } else {
        let mut data = vec![0u8; pixmap.pixels().len() * 4];
        for (out, pixel) in data.chunks_exact_mut(4).zip(pixmap.pixels()) {
            // Clear pixels (a counter's corners, most of its margin) stay the zeros they are
            // (what demultiplying one gives), without its division.
            if pixel.alpha() != 0 {
                let c = pixel.demultiply();
                out.copy_from_slice(&[c.red(), c.green(), c.blue(), c.alpha()]);
            }
        }
        data
    };
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, pixmap.width(), pixmap.height());
    encoder.set_color(if opaque {
        png::ColorType::Rgb
    } else {
        png::ColorType::Rgba
    });
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(compression);
    let encode = |error: png::EncodingError| RenderError::Encode(error.to_string());
    let mut writer = encoder.write_header().map_err(encode)?;
    writer.write_image_data(&data).map_err(encode)?;
    writer.finish().map_err(encode)?;
    Ok(bytes)
}

/// The image's pixels as RGB, row by row (an opaque pixel's premultiplied values are its
/// colour; a pixel that is not opaque is demultiplied, and its alpha dropped).
fn pixmap_rgb(pixmap: &Pixmap) -> Vec<u8> {
    let mut rgb = Vec::with_capacity(pixmap.pixels().len() * 3);
    // Runs of opaque pixels (nearly all of a board) copied through a small buffer, without a
    // test per pixel or the zeroing of the whole output first.
    const RUN: usize = 64;
    let mut buffer = [0u8; 3 * RUN];
    for run in pixmap.pixels().chunks(RUN) {
        let out = &mut buffer[..3 * run.len()];
        if run.iter().all(|pixel| pixel.alpha() == 255) {
            for (out, pixel) in out.chunks_exact_mut(3).zip(run) {
                out.copy_from_slice(&[pixel.red(), pixel.green(), pixel.blue()]);
            }
        } else {
            for (out, pixel) in out.chunks_exact_mut(3).zip(run) {
                let c = pixel.demultiply();
                out.copy_from_slice(&[c.red(), c.green(), c.blue()]);
            }
        }
        rgb.extend_from_slice(out);
    }
    rgb
}

/// A pixmap of `width × height` pixels of one opaque colour, made in one pass (a band of the
/// board: not zeroed, then filled).
fn paper_pixmap(width: u32, height: u32, [r, g, b]: [u8; 3]) -> Option<Pixmap> {
    let size = tiny_skia::IntSize::from_wh(width, height)?;
    // The colour's bytes as tiny-skia stores them: RGBA, premultiplied (opaque: the same).
    let pixels = usize::try_from(u64::from(width) * u64::from(height)).ok()?;
    Pixmap::from_vec([r, g, b, 255].repeat(pixels), size)
}

/// Writes the image as a PNG file.
pub fn save_png(pixmap: &Pixmap, path: &Path) -> Result<(), RenderError> {
    let bytes = encode_png(pixmap)?;
    // Atomic, through links, never into a FIFO or device (which would block or misbehave).
    bataille_schema::files::write_atomic_bytes(path, &bytes, u64::MAX).map_err(|source| {
        RenderError::Io {
            path: path.display().to_string(),
            source,
        }
    })
}

/// A colour's bytes, or a loud magenta when it cannot be read (so a broken legend shows).
pub(crate) fn rgb_of(colour: &bataille_schema::Colour) -> [u8; 3] {
    colour.rgb().unwrap_or([0xff, 0x00, 0xff])
}

/// The colour darkened (`amount` < 0) or lightened (`amount` > 0), by a fraction.
pub(crate) fn shade([r, g, b]: [u8; 3], amount: f32) -> [u8; 3] {
    let f = |c: u8| -> u8 {
        let c = f32::from(c);
        let v = if amount < 0.0 {
            c * (1.0 + amount)
        } else {
            c + (255.0 - c) * amount
        };
        v.round().clamp(0.0, 255.0) as u8
    };
    [f(r), f(g), f(b)]
}

/// Opaque RGBA from RGB.
pub(crate) fn opaque([r, g, b]: [u8; 3]) -> [u8; 4] {
    [r, g, b, 255]
}

/// Relative luminance in [0, 1] (for choosing black or white text).
pub(crate) fn luminance([r, g, b]: [u8; 3]) -> f32 {
    let lin = |c: u8| {
        let c = f32::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

#[cfg(test)]
mod paper_tests {
    use super::*;

    /// The paper's bytes are those tiny-skia paints for the colour (RGBA, premultiplied).
    #[test]
    fn paper_is_the_colour_tiny_skia_paints() {
        let paper = paper_pixmap(3, 2, [200, 180, 140]).unwrap();
        let mut painted = Pixmap::new(3, 2).unwrap();
        painted.fill(tiny_skia::Color::from_rgba8(200, 180, 140, 255));
        assert_eq!(paper.data(), painted.data());
        assert!(paper_pixmap(0, 2, [0, 0, 0]).is_none());
    }
}
