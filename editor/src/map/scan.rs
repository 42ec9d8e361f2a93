//! The scan under the grid: a scanned printed map decoded off the UI thread (with the limits of
//! `bataille-digitize`), cut into GPU textures no larger than the GPU allows (at most 2048 px a
//! side), with a downscaled overview for zoomed-out views; drawn as textured meshes whose
//! vertices are image points taken to grid space by the inverse of the map's fit, so the grid
//! stays where it is and the scan is placed under it. Only tiles in view are drawn.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bataille_digitize::scan::{Scan, ScanError, ScanLimits, load_scan, overview};
use bataille_schema::fit::{Matrix, apply, invert, local_scale};
use bataille_schema::map::{Background, FitKind, Grid};
use egui::epaint::{Mesh, Vertex};
use egui::{Color32, ColorImage, Pos2, Rect, Shape, TextureHandle, TextureOptions, pos2};

use crate::map::view::MapView;

/// The largest texture side used, whatever the GPU allows.
pub const MAX_TILE_SIDE: usize = 2048;
/// Above this many scan pixels per screen point the overview is drawn instead of the tiles.
pub const OVERVIEW_ABOVE: f64 = 2.0;

/// A piece of the scan in one texture.
pub struct TileTexture {
    /// The tile's place on the scan, in pixels.
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
    pub texture: TextureHandle,
}

/// How long an import took (shown in the panel, measured by the benchmark).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ImportTimings {
    /// Reading and decoding the file.
    pub decode: Duration,
    /// Cutting the tiles and handing them to egui as textures, with the overview.
    pub textures: Duration,
}

/// A scan decoded and ready to draw.
pub struct LoadedScan {
    /// The file, as it was found.
    pub path: PathBuf,
    /// The pixels, for classification.
    pub scan: Arc<Scan>,
    pub tiles: Vec<TileTexture>,
    /// The downscaled copy and how many scan pixels one of its pixels spans.
    pub overview: Option<(TextureHandle, u32)>,
    pub tile_side: usize,
    pub timings: ImportTimings,
}

impl LoadedScan {
    pub fn width(&self) -> u32 {
        self.scan.width()
    }

    pub fn height(&self) -> u32 {
        self.scan.height()
    }

    /// What the user is told about the scan's colour profile, which the editor does not apply
    /// (the file's path, then why), or `None` when the file carries none.
    pub fn profile_note(&self) -> Option<String> {
        self.scan
            .profile
            .as_ref()
            .map(|profile| format!("{}: {}", self.path.display(), profile.note()))
    }
}

/// The tile side for this GPU: its limit, at most [`MAX_TILE_SIDE`].
pub fn tile_side(ctx: &egui::Context) -> usize {
    ctx.input(|i| i.max_texture_side).clamp(16, MAX_TILE_SIDE)
}

/// Decodes a scan (with the digitiser's limits) and turns it into textures of at most
/// `tile_side` pixels a side. Progress: decoding 0–0.6, tiles 0.6–0.95, overview to 1.
pub fn import_scan(
    ctx: &egui::Context,
    path: &Path,
    tile_side: usize,
    progress: &dyn Fn(f32) -> bool,
) -> Result<LoadedScan, ScanError> {
    let started = Instant::now();
    let scan = load_scan(path, &ScanLimits::default(), &|p| progress(0.6 * p))?;
    let decode = started.elapsed();
    let started = Instant::now();
    let tiles = scan_textures(ctx, &scan, tile_side, &|p| progress(0.6 + 0.35 * p))?;
    let small = overview(&scan, tile_side as u32);
    let overview = (small.factor > 1).then(|| {
        let image = ColorImage::from_rgba_premultiplied(
            [small.width as usize, small.height as usize],
            &small.rgba,
        );
        let name = format!("scan-overview:{}", path.display());
        (
            ctx.load_texture(name, image, TextureOptions::LINEAR),
            small.factor,
        )
    });
    if !progress(1.0) {
        return Err(ScanError::Cancelled);
    }
    Ok(LoadedScan {
        path: path.to_owned(),
        scan: Arc::new(scan),
        tiles,
        overview,
        tile_side,
        timings: ImportTimings {
            decode,
            textures: started.elapsed(),
        },
    })
}

/// The scan cut into textures, row by row; each tile's pixels are built straight from the
/// scan (no intermediate copy of the whole image) and handed to egui.
pub fn scan_textures(
    ctx: &egui::Context,
    scan: &Scan,
    tile_side: usize,
    progress: &dyn Fn(f32) -> bool,
) -> Result<Vec<TileTexture>, ScanError> {
    let side = tile_side.max(16) as u32;
    let (w, h) = (scan.width(), scan.height());
    let (across, down) = (w.div_ceil(side), h.div_ceil(side));
    let total = (across * down).max(1);
    let raw = scan.image.as_raw();
    let mut out = Vec::with_capacity(total as usize);
    for ty in 0..down {
        for tx in 0..across {
            let (x, y) = (tx * side, ty * side);
            let (tw, th) = ((w - x).min(side), (h - y).min(side));
            let mut pixels = Vec::with_capacity((tw * th) as usize);
            for j in y..y + th {
                let start = (j as usize * w as usize + x as usize) * 3;
                let row = raw.get(start..start + tw as usize * 3).unwrap_or_default();
                pixels.extend(
                    row.chunks_exact(3)
                        .map(|px| Color32::from_rgb(px[0], px[1], px[2])),
                );
            }
            if pixels.len() != (tw * th) as usize {
                return Err(ScanError::Decode("the scan's pixels are incomplete".into()));
            }
            let image = ColorImage::new([tw as usize, th as usize], pixels);
            let texture = ctx.load_texture(
                format!("scan-tile-{tx}-{ty}"),
                image,
                TextureOptions::LINEAR,
            );
            out.push(TileTexture {
                x,
                y,
                width: tw,
                height: th,
                texture,
            });
            if !progress(out.len() as f32 / total as f32) {
                return Err(ScanError::Cancelled);
            }
        }
    }
    Ok(out)
}

/// A first placement of a new scan: the grid's bounds centred on the image and as large as
/// fits (similarity, no rotation), until the user calibrates.
pub fn initial_fit(grid: &Grid, width: u32, height: u32) -> Matrix {
    let (min, max) = grid.bounds();
    let gw = f64::from((max[0] - min[0]).max(1.0));
    let gh = f64::from((max[1] - min[1]).max(1.0));
    let scale = (f64::from(width) / gw).min(f64::from(height) / gh);
    let cx = f64::from(min[0] + max[0]) / 2.0;
    let cy = f64::from(min[1] + max[1]) / 2.0;
    [
        scale,
        0.0,
        f64::from(width) / 2.0 - scale * cx,
        0.0,
        scale,
        f64::from(height) / 2.0 - scale * cy,
        0.0,
        0.0,
        1.0,
    ]
}

/// A new background for a freshly imported scan.
pub fn new_background(grid: &Grid, image: String, width: u32, height: u32) -> Background {
    Background {
        image,
        fit: FitKind::Similarity,
        grid_to_image: initial_fit(grid, width, height),
        control_points: Vec::new(),
    }
}

/// The scan's file as the document holds it in memory: absolute, so that it stays right when
/// the map is saved elsewhere (`services::save` writes it relative to the map's file).
pub fn image_reference(scan: &Path) -> String {
    bataille_schema::paths::portable(&bataille_schema::paths::absolute(scan))
}

/// Where the map's scan is on disk: `background.image` resolved against the map's folder.
pub fn resolve_image(image: &str, map_file: Option<&Path>) -> PathBuf {
    let path = Path::new(image);
    if path.is_absolute() {
        return path.to_owned();
    }
    match map_file.and_then(Path::parent) {
        Some(dir) => dir.join(path),
        None => path.to_owned(),
    }
}

/// Draws the scan (tiles in view, or the overview when zoomed out) at `opacity`.
pub fn paint_scan(
    painter: &egui::Painter,
    view: &MapView,
    rect: Rect,
    loaded: &LoadedScan,
    grid_to_image: &Matrix,
    opacity: f32,
) {
    if opacity <= 0.0 {
        return;
    }
    let Some(image_to_grid) = invert(grid_to_image) else {
        return;
    };
    let visible = view.visible_grid_rect(rect);
    let tint = Color32::WHITE.gamma_multiply(opacity.clamp(0.0, 1.0));
    // Straight lines stay straight under an affine fit: one quad per tile. A projective fit
    // bends the tile, so it is cut finer.
    let affine = grid_to_image[6].abs() < 1e-12 && grid_to_image[7].abs() < 1e-12;
    let steps = if affine { 1 } else { 8 };
    let centre = view.centre;
    let scan_px_per_point = local_scale(grid_to_image, [f64::from(centre.x), f64::from(centre.y)])
        / f64::from(view.zoom.max(1e-3));
    let mut shapes = Vec::new();
    let mut draw = |texture: &TextureHandle, x: u32, y: u32, w: u32, h: u32| {
        let mut grid_points = Vec::with_capacity((steps + 1) * (steps + 1));
        let mut bounds = Rect::NOTHING;
        for j in 0..=steps {
            for i in 0..=steps {
                let (u, v) = (i as f64 / steps as f64, j as f64 / steps as f64);
                let px = [
                    f64::from(x) + u * f64::from(w),
                    f64::from(y) + v * f64::from(h),
                ];
                let [gx, gy] = apply(&image_to_grid, px);
                let g = pos2(gx as f32, gy as f32);
                bounds.extend_with(g);
                grid_points.push((g, pos2(u as f32, v as f32)));
            }
        }
        if !bounds.is_finite() || !visible.intersects(bounds) {
            return;
        }
        let mut mesh = Mesh::with_texture(texture.id());
        for (g, uv) in grid_points {
            mesh.vertices.push(Vertex {
                pos: view.to_screen(rect, g),
                uv,
                color: tint,
            });
        }
        let row = steps as u32 + 1;
        for j in 0..steps as u32 {
            for i in 0..steps as u32 {
                let a = j * row + i;
                mesh.add_triangle(a, a + 1, a + row);
                mesh.add_triangle(a + 1, a + row + 1, a + row);
            }
        }
        shapes.push(Shape::mesh(mesh));
    };
    match &loaded.overview {
        Some((texture, _)) if scan_px_per_point > OVERVIEW_ABOVE => {
            draw(texture, 0, 0, loaded.width(), loaded.height());
        }
        _ => {
            for tile in &loaded.tiles {
                draw(&tile.texture, tile.x, tile.y, tile.width, tile.height);
            }
        }
    }
    painter.extend(shapes);
}

/// The scan pixel under a screen point.
pub fn image_point(view: &MapView, rect: Rect, grid_to_image: &Matrix, pos: Pos2) -> [f64; 2] {
    let g = view.to_grid(rect, pos);
    apply(grid_to_image, [f64::from(g.x), f64::from(g.y)])
}

/// Half the side of the patch [`patch_colour`] reads: 7 × 7 pixels.
pub const PICK_RADIUS_PX: i64 = 3;

/// The scan's colour around a point, robust to halftone dots, JPEG noise and a stray line: the
/// per-channel median of the pixels within [`PICK_RADIUS_PX`] of it that lie on the scan
/// (`None` when none does).
pub fn patch_colour(scan: &bataille_digitize::scan::Scan, px: [f64; 2]) -> Option<[u8; 3]> {
    let (cx, cy) = (px[0].floor(), px[1].floor());
    let mut channels: [Vec<u8>; 3] = Default::default();
    for dy in -PICK_RADIUS_PX..=PICK_RADIUS_PX {
        for dx in -PICK_RADIUS_PX..=PICK_RADIUS_PX {
            if let Some(rgb) = scan.pixel_at(cx + dx as f64 + 0.5, cy + dy as f64 + 0.5) {
                for (c, v) in channels.iter_mut().zip(rgb) {
                    c.push(v);
                }
            }
        }
    }
    let mut out = [0u8; 3];
    for (slot, values) in out.iter_mut().zip(&mut channels) {
        if values.is_empty() {
            return None;
        }
        let mid = values.len() / 2;
        *slot = *values.select_nth_unstable(mid).1;
    }
    Some(out)
}

/// The screen point of a scan pixel.
pub fn screen_point(view: &MapView, rect: Rect, grid_to_image: &Matrix, px: [f64; 2]) -> Pos2 {
    let g = invert(grid_to_image).map_or([0.0, 0.0], |m| apply(&m, px));
    view.to_screen(rect, pos2(g[0] as f32, g[1] as f32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_paths_resolve_against_the_map() {
        assert_eq!(
            resolve_image("../scans/x.png", Some(Path::new("/a/b/maps/m.ron"))),
            PathBuf::from("/a/b/maps/../scans/x.png")
        );
        assert_eq!(
            resolve_image("/s/x.png", Some(Path::new("/a/m.ron"))),
            PathBuf::from("/s/x.png")
        );
    }

    #[test]
    fn a_picked_colour_is_the_patchs_median_not_its_noise() {
        // Every third pixel a halftone dot (black or white): the paper's colour wins.
        let paper = [0xc8, 0xb4, 0x78];
        let scan = Scan::from(image::RgbImage::from_fn(40, 30, |x, y| {
            match (x + 2 * y) % 3 {
                0 if x % 2 == 0 => image::Rgb([0, 0, 0]),
                0 => image::Rgb([255, 255, 255]),
                _ => image::Rgb(paper),
            }
        }));
        assert_eq!(patch_colour(&scan, [20.5, 15.5]), Some(paper));
        // A corner reads the part of the patch on the scan; off the scan, nothing.
        assert_eq!(patch_colour(&scan, [0.2, 0.2]), Some(paper));
        assert_eq!(patch_colour(&scan, [-10.0, 5.0]), None);
    }

    #[test]
    fn tiles_cover_the_scan() {
        let ctx = egui::Context::default();
        let scan = Scan::from(image::RgbImage::from_fn(70, 40, |x, y| {
            image::Rgb([x as u8, y as u8, 7])
        }));
        let tiles = scan_textures(&ctx, &scan, 32, &|_| true).unwrap_or_default();
        assert_eq!(tiles.len(), 3 * 2);
        let area: u32 = tiles.iter().map(|t| t.width * t.height).sum();
        assert_eq!(area, 70 * 40);
        assert!(tiles.iter().all(|t| t.width <= 32 && t.height <= 32));
        assert!(scan_textures(&ctx, &scan, 32, &|_| false).is_err());
    }
}
