//! The map's digitised scan under Tiled's (or VASSAL's) layout: read within the scan limits
//! and resampled through its fit.

use std::path::Path;

use bataille_schema::Map;

use super::TiledGeometry;
use crate::ExportError;

/// The scan resampled (bilinear) into Tiled's pixels.
pub(super) fn resample_scan(
    map: &Map,
    background: &bataille_schema::map::Background,
    path: &Path,
    geometry: &TiledGeometry,
) -> Result<Vec<u8>, ExportError> {
    let _ = map;
    let g = *geometry;
    resample(
        background,
        path,
        (geometry.width_px, geometry.height_px),
        move |x, y| {
            [
                (x - g.offset[0]) / g.scale[0],
                (y - g.offset[1]) / g.scale[1],
            ]
        },
    )
}

/// A scan resampled (bilinear) into an image of `size` pixels: each pixel's centre goes back to
/// grid space by `to_grid`, then through the scan's fit (`grid_to_image`, projective) to the
/// scan's pixels. Pixels that fall off the scan stay transparent. A PNG.
pub fn resample(
    background: &bataille_schema::map::Background,
    path: &Path,
    size: (u32, u32),
    to_grid: impl Fn(f64, f64) -> [f64; 2] + Sync,
) -> Result<Vec<u8>, ExportError> {
    let mut bytes = Vec::new();
    resample_into(background, path, size, to_grid, &mut bytes)?;
    Ok(bytes)
}

/// [`resample`] into a writer (a module's zip entry), a band of rows at a time: the memory is
/// the scan (within the scan limits) and a few bands, never the resampled image (a 200 × 200
/// board is 11,170 × 12,898 px: 576 MB as one RGBA image). The image is at most
/// [`bataille_render::MAX_PIXELS`], as every board.
pub fn resample_into(
    background: &bataille_schema::map::Background,
    path: &Path,
    (w, h): (u32, u32),
    to_grid: impl Fn(f64, f64) -> [f64; 2] + Sync,
    out: &mut (impl std::io::Write + Send),
) -> Result<(), ExportError> {
    let (w64, h64) = (u64::from(w), u64::from(h));
    if w == 0
        || h == 0
        || w > bataille_render::MAX_SIDE_PX
        || h > bataille_render::MAX_SIDE_PX
        || w64 * h64 > bataille_render::MAX_PIXELS
    {
        return Err(bataille_render::RenderError::TooLarge {
            width: w64,
            height: h64,
        }
        .into());
    }
    let scan = bataille_digitize::scan::load_scan(
        path,
        &bataille_digitize::scan::ScanLimits::default(),
        &bataille_digitize::scan::no_progress,
    )
    .map_err(|error| ExportError::Scan {
        path: path.display().to_string(),
        message: error.to_string(),
    })?;
    let m = background.grid_to_image;
    let band = |y0: u32, rows: u32| -> Result<Vec<u8>, bataille_render::RenderError> {
        let mut pixels = vec![0u8; w as usize * rows as usize * 4];
        // Row by row (no division per pixel to find its place).
        for (row, y) in pixels.chunks_exact_mut(w as usize * 4).zip(y0..) {
            for (pixel, x) in row.chunks_exact_mut(4).zip(0u32..) {
                let [gx, gy] = to_grid(f64::from(x) + 0.5, f64::from(y) + 0.5);
                let wz = m[6] * gx + m[7] * gy + m[8];
                if wz.abs() < 1e-12 || !wz.is_finite() {
                    continue;
                }
                let sx = (m[0] * gx + m[1] * gy + m[2]) / wz;
                let sy = (m[3] * gx + m[4] * gy + m[5]) / wz;
                if let Some(rgb) = bilinear(&scan.image, sx, sy) {
                    pixel.copy_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
                }
            }
        }
        Ok(pixels)
    };
    bataille_render::write_png_in_bands(w, h, bataille_render::png::ColorType::Rgba, out, band)?;
    Ok(())
}

fn bilinear(image: &image::RgbImage, x: f64, y: f64) -> Option<[u8; 3]> {
    let (w, h) = (f64::from(image.width()), f64::from(image.height()));
    if !(x >= 0.0 && y >= 0.0 && x < w && y < h) {
        return None;
    }
    let fx = (x - 0.5).clamp(0.0, w - 1.0);
    let fy = (y - 0.5).clamp(0.0, h - 1.0);
    // Not negative: the floor is the truncation (no call to libm's `floor`).
    let (x0, y0) = (fx as u32, fy as u32);
    let (x1, y1) = (
        (x0 + 1).min(image.width() - 1),
        (y0 + 1).min(image.height() - 1),
    );
    let (tx, ty) = (fx - f64::from(x0), fy - f64::from(y0));
    // The four pixels read once each, straight from the rows (x0, x1 < width; y0, y1 < height).
    let (data, stride) = (image.as_raw(), image.width() as usize * 3);
    let p = |x: u32, y: u32| {
        let at = y as usize * stride + x as usize * 3;
        [data[at], data[at + 1], data[at + 2]]
    };
    let (p00, p10, p01, p11) = (p(x0, y0), p(x1, y0), p(x0, y1), p(x1, y1));
    let mut out = [0u8; 3];
    for (c, slot) in out.iter_mut().enumerate() {
        let top = f64::from(p00[c]) * (1.0 - tx) + f64::from(p10[c]) * tx;
        let bottom = f64::from(p01[c]) * (1.0 - tx) + f64::from(p11[c]) * tx;
        *slot = round_level(top * (1.0 - ty) + bottom * ty);
    }
    Some(out)
}

/// `v.round().clamp(0.0, 255.0) as u8` for a finite level (halves away from zero), without
/// libm's `round`: the truncation, one more when what it dropped is a half or more (exact:
/// `v` is far below 2^52). A negative `v` gives 0 either way.
fn round_level(v: f64) -> u8 {
    let whole = v as i64;
    let rounded = if v - whole as f64 >= 0.5 {
        whole + 1
    } else {
        whole
    };
    rounded.clamp(0, 255) as u8
}

#[cfg(test)]
mod tests {
    /// The level is rounded as `f64::round` (halves away from zero) then clamped, for every
    /// level a blend of two bytes can give and the halves and near-halves around each.
    #[test]
    fn a_level_rounds_as_f64_round() {
        let mut levels = vec![0.0, -0.0, -0.5, -0.7, 0.49999999999999994, 255.5, 300.0];
        for n in 0..=256 {
            let n = f64::from(n);
            for d in [-0.5, -1e-9, 0.0, 1e-9, 0.25, 0.5, 0.75] {
                levels.push(n + d);
                levels.push(f64::from_bits((n + 0.5).to_bits() - 1));
            }
        }
        for step in 0..100_000 {
            levels.push(f64::from(step) * 255.0 / 99_999.0);
        }
        for v in levels {
            assert_eq!(
                super::round_level(v),
                v.round().clamp(0.0, 255.0) as u8,
                "{v:?}"
            );
        }
    }
}
