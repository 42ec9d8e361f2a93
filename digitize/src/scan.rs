//! Scans: PNG, JPEG and TIFF decoded with explicit limits (dimensions, memory, file size), a
//! progress callback that can cancel, tiles small enough for GPU textures and a downscaled
//! overview for zoomed-out views.

use std::io::{Cursor, Read};
use std::path::Path;

use image::{ImageDecoder, ImageFormat, ImageReader, Limits, RgbImage};
use rayon::prelude::*;

mod profile;

use profile::colour_profile;
pub use profile::{ColourProfile, profile_of};

/// A progress report in [0, 1]; returning `false` cancels the work.
pub type Progress<'a> = &'a dyn Fn(f32) -> bool;

/// A progress callback that never cancels and reports nowhere.
pub fn no_progress(_: f32) -> bool {
    true
}

/// What a scan may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScanLimits {
    pub max_width: u32,
    pub max_height: u32,
    /// The most memory the decoder may allocate, in bytes.
    pub max_alloc_bytes: u64,
    /// The largest file accepted, in bytes.
    pub max_file_bytes: u64,
}

impl Default for ScanLimits {
    /// 12,000 × 12,000 pixels; enough memory for that size at 16 bits per RGBA channel.
    fn default() -> Self {
        Self {
            max_width: 12_000,
            max_height: 12_000,
            max_alloc_bytes: 12_000 * 12_000 * 8 + 64 * 1024 * 1024,
            max_file_bytes: 2 * 1024 * 1024 * 1024,
        }
    }
}

/// Why a scan could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ScanError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("the file is {bytes} bytes; the largest scan file accepted is {max} bytes")]
    FileTooLarge { bytes: u64, max: u64 },
    #[error("not a scan this tool reads (PNG, JPEG or TIFF){0}")]
    UnknownFormat(String),
    #[error(
        "the image claims to be {width}×{height} px; the largest scan accepted is {max_width}×{max_height} px (scan at a lower resolution or crop it)"
    )]
    TooLarge {
        width: u32,
        height: u32,
        max_width: u32,
        max_height: u32,
    },
    #[error("the image is empty (0 px wide or high)")]
    Empty,
    #[error("the image could not be decoded: {0}")]
    Decode(String),
    #[error("truncated image: {0} (the file was cut short: copy or download it again)")]
    Truncated(String),
    #[error(
        "the {width}×{height} px {colour} image needs {needed_mib} MiB to decode, more than the {max_mib} MiB allowed (save it as 8-bit RGB, or scan at a lower resolution)"
    )]
    TooMuchMemory {
        width: u32,
        height: u32,
        colour: String,
        needed_mib: u64,
        max_mib: u64,
    },
    #[error("cancelled")]
    Cancelled,
}

/// A decoded scan, 8-bit sRGB.
#[derive(Debug, Clone)]
pub struct Scan {
    pub image: RgbImage,
    /// The colour profile the file carried, which is never applied (see [`ColourProfile`]).
    pub profile: Option<ColourProfile>,
}

impl From<RgbImage> for Scan {
    /// A scan made in memory (no file, no profile).
    fn from(image: RgbImage) -> Self {
        Scan {
            image,
            profile: None,
        }
    }
}

impl Scan {
    pub fn width(&self) -> u32 {
        self.image.width()
    }

    pub fn height(&self) -> u32 {
        self.image.height()
    }

    /// The pixel containing the point `(x, y)` (pixel `(i, j)` covers `[i, i+1) × [j, j+1)`),
    /// or `None` off the image.
    #[inline]
    pub fn pixel_at(&self, x: f64, y: f64) -> Option<[u8; 3]> {
        if !(x >= 0.0 && y >= 0.0) {
            return None;
        }
        let (i, j) = (x as u32, y as u32);
        if i >= self.image.width() || j >= self.image.height() {
            return None;
        }
        let offset = (j as usize * self.image.width() as usize + i as usize) * 3;
        let raw = self.image.as_raw();
        Some([raw[offset], raw[offset + 1], raw[offset + 2]])
    }
}

/// Reads and decodes a scan file.
pub fn load_scan(path: &Path, limits: &ScanLimits, progress: Progress) -> Result<Scan, ScanError> {
    let io = |source| ScanError::Io {
        path: path.display().to_string(),
        source,
    };
    // Only a regular file (a FIFO is refused without blocking), read up to the limit + 1 byte.
    let (file, meta) = bataille_schema::files::open_regular(path).map_err(|e| io(e.into_io()))?;
    let mut file = file.take(limits.max_file_bytes.saturating_add(1));
    let bytes_len = meta.len();
    if bytes_len > limits.max_file_bytes {
        return Err(ScanError::FileTooLarge {
            bytes: bytes_len,
            max: limits.max_file_bytes,
        });
    }
    // Read in chunks so a long read reports progress and can be cancelled.
    let mut bytes = Vec::with_capacity(bytes_len as usize);
    let mut chunk = vec![0u8; 4 * 1024 * 1024];
    loop {
        let n = file.read(&mut chunk).map_err(io)?;
        if n == 0 {
            break;
        }
        bytes.extend_from_slice(&chunk[..n]);
        if bytes.len() as u64 > limits.max_file_bytes {
            return Err(ScanError::FileTooLarge {
                bytes: bytes.len() as u64,
                max: limits.max_file_bytes,
            });
        }
        if !progress(0.1 * bytes.len() as f32 / bytes_len.max(1) as f32) {
            return Err(ScanError::Cancelled);
        }
    }
    decode_scan(&bytes, limits, &|p| progress(0.1 + 0.9 * p))
}

/// The most memory reading a scan's header may take (its metadata: an ICC profile is a few
/// hundred kilobytes).
pub const MAX_HEADER_ALLOC: u64 = 16 * 1024 * 1024;

/// Decodes a scan held in memory.
pub fn decode_scan(
    bytes: &[u8],
    limits: &ScanLimits,
    progress: Progress,
) -> Result<Scan, ScanError> {
    let reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|error| ScanError::Decode(error.to_string()))?;
    match reader.format() {
        Some(ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::Tiff) => {}
        Some(other) => return Err(ScanError::UnknownFormat(format!(": this is {other:?}"))),
        None => return Err(ScanError::UnknownFormat(String::new())),
    }
    // The header: an absurd size, or a pixel format whose decoding would need more memory
    // than allowed, is refused before anything is allocated.
    let format = reader.format();
    let mut reader = reader;
    // Reading the header already decompresses metadata (a PNG's ICC profile, its text): bounded
    // from the first byte ([`MAX_HEADER_ALLOC`]), or a small crafted file makes it allocate
    // gigabytes. The dimensions are checked below with their own message, then the pixels get
    // the scan's own memory limit.
    let mut header_limits = Limits::no_limits();
    header_limits.max_alloc = Some(MAX_HEADER_ALLOC.min(limits.max_alloc_bytes));
    reader.limits(header_limits);
    let mut decoder = match reader.into_decoder() {
        Ok(decoder) => decoder,
        Err(error) => {
            check_complete(format, bytes)?;
            return Err(decode_error(limits)(error));
        }
    };
    let (width, height) = decoder.dimensions();
    check_dimensions(width, height, limits)?;
    let profile = colour_profile(format, Cursor::new(bytes), &mut decoder);
    check_memory(
        width,
        height,
        decoder.color_type(),
        bytes.len() as u64,
        limits,
    )?;
    // Then the end of the data: a file cut short is refused, not decoded into a mostly grey
    // picture (the JPEG decoder pads a cut scan with grey and says nothing).
    check_complete(format, bytes)?;
    if !progress(0.05) {
        return Err(ScanError::Cancelled);
    }
    let mut image_limits = Limits::default();
    image_limits.max_image_width = Some(limits.max_width);
    image_limits.max_image_height = Some(limits.max_height);
    image_limits.max_alloc = Some(limits.max_alloc_bytes);
    decoder
        .set_limits(image_limits)
        .map_err(decode_error(limits))?;
    let decoded = image::DynamicImage::from_decoder(decoder).map_err(decode_error(limits))?;
    if !progress(0.9) {
        return Err(ScanError::Cancelled);
    }
    check_dimensions(decoded.width(), decoded.height(), limits)?;
    let image = decoded.into_rgb8();
    if !progress(1.0) {
        return Err(ScanError::Cancelled);
    }
    Ok(Scan { image, profile })
}

fn decode_error(limits: &ScanLimits) -> impl Fn(image::ImageError) -> ScanError + '_ {
    move |error| match error {
        image::ImageError::Limits(limit) => ScanError::Decode(format!(
            "{limit} (the scan needs more memory than the {} MiB allowed)",
            limits.max_alloc_bytes / (1024 * 1024)
        )),
        image::ImageError::IoError(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
            ScanError::Truncated("the image data ends early".into())
        }
        other => ScanError::Decode(other.to_string()),
    }
}

/// The peak memory of decoding: the file's bytes, the decoded pixels in their own format, and
/// the 8-bit RGB copy made from them; all within `max_alloc_bytes`, whatever the pixel format
/// (a 16-bit RGBA scan takes 8 bytes a pixel decoded, 11 with the copy).
fn check_memory(
    width: u32,
    height: u32,
    colour: image::ColorType,
    file_bytes: u64,
    limits: &ScanLimits,
) -> Result<(), ScanError> {
    let pixels = u64::from(width) * u64::from(height);
    let decoded = pixels * u64::from(colour.bytes_per_pixel());
    let copy = if colour == image::ColorType::Rgb8 {
        0
    } else {
        pixels * 3
    };
    let needed = file_bytes + decoded + copy;
    if needed > limits.max_alloc_bytes {
        return Err(ScanError::TooMuchMemory {
            width,
            height,
            colour: format!("{colour:?}"),
            needed_mib: needed / (1024 * 1024),
            max_mib: limits.max_alloc_bytes / (1024 * 1024),
        });
    }
    Ok(())
}

/// Refuses a PNG or JPEG whose data stops before its end: a PNG must reach its `IEND` chunk
/// through whole chunks; a JPEG must hold the end-of-image marker (`FF D9`) after its last
/// start-of-scan (inside scan data a `FF` byte is always followed by `00` or a restart marker,
/// so that `FF D9` is the real end).
fn check_complete(format: Option<ImageFormat>, bytes: &[u8]) -> Result<(), ScanError> {
    match format {
        Some(ImageFormat::Png) => {
            let mut at = 8usize;
            loop {
                let Some(header) = bytes.get(at..at + 8) else {
                    return Err(ScanError::Truncated(format!(
                        "the PNG stops at byte {} before its end (no IEND chunk)",
                        bytes.len()
                    )));
                };
                let length = u32::from_be_bytes([header[0], header[1], header[2], header[3]]);
                let end = at
                    .saturating_add(12)
                    .saturating_add(usize::try_from(length).unwrap_or(usize::MAX));
                if end > bytes.len() {
                    return Err(ScanError::Truncated(format!(
                        "the PNG's `{}` chunk needs {} bytes but the file stops at byte {}",
                        String::from_utf8_lossy(&header[4..8]),
                        end,
                        bytes.len()
                    )));
                }
                if &header[4..8] == b"IEND" {
                    return Ok(());
                }
                at = end;
            }
        }
        Some(ImageFormat::Jpeg) => {
            let last_scan = bytes.windows(2).rposition(|w| w == [0xFF, 0xDA]);
            let after = last_scan.map_or(bytes, |at| &bytes[at..]);
            if after.windows(2).any(|w| w == [0xFF, 0xD9]) {
                Ok(())
            } else {
                Err(ScanError::Truncated(format!(
                    "the JPEG stops at byte {} before its end-of-image marker",
                    bytes.len()
                )))
            }
        }
        _ => Ok(()),
    }
}

fn check_dimensions(width: u32, height: u32, limits: &ScanLimits) -> Result<(), ScanError> {
    if width == 0 || height == 0 {
        return Err(ScanError::Empty);
    }
    if width > limits.max_width || height > limits.max_height {
        return Err(ScanError::TooLarge {
            width,
            height,
            max_width: limits.max_width,
            max_height: limits.max_height,
        });
    }
    Ok(())
}

/// A piece of the scan, RGBA with straight alpha (always opaque), for one GPU texture.
#[derive(Debug, Clone, PartialEq)]
pub struct Tile {
    /// Where the tile's top-left pixel is on the scan.
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
    /// `width × height × 4` bytes, row by row.
    pub rgba: Vec<u8>,
}

/// The scan cut into tiles of at most `max_side` pixels a side, row by row from the top left.
pub fn tiles(scan: &Scan, max_side: u32, progress: Progress) -> Result<Vec<Tile>, ScanError> {
    let max_side = max_side.max(16);
    let (w, h) = (scan.width(), scan.height());
    let across = w.div_ceil(max_side);
    let down = h.div_ceil(max_side);
    let raw = scan.image.as_raw();
    let mut out = Vec::with_capacity((across * down) as usize);
    for ty in 0..down {
        let row: Vec<Tile> = (0..across)
            .into_par_iter()
            .map(|tx| {
                let (x, y) = (tx * max_side, ty * max_side);
                let (tw, th) = ((w - x).min(max_side), (h - y).min(max_side));
                let mut rgba = Vec::with_capacity((tw * th * 4) as usize);
                for j in y..y + th {
                    let start = (j as usize * w as usize + x as usize) * 3;
                    for px in raw[start..start + tw as usize * 3].chunks_exact(3) {
                        rgba.extend_from_slice(&[px[0], px[1], px[2], 255]);
                    }
                }
                Tile {
                    x,
                    y,
                    width: tw,
                    height: th,
                    rgba,
                }
            })
            .collect();
        out.extend(row);
        if !progress((ty + 1) as f32 / down as f32) {
            return Err(ScanError::Cancelled);
        }
    }
    Ok(out)
}

/// A downscaled copy of the whole scan, for zoomed-out views.
#[derive(Debug, Clone, PartialEq)]
pub struct Overview {
    pub width: u32,
    pub height: u32,
    /// Scan pixels per overview pixel (a whole number: each overview pixel is the mean of a
    /// `factor × factor` block).
    pub factor: u32,
    /// `width × height × 4` bytes, opaque RGBA.
    pub rgba: Vec<u8>,
}

/// The scan shrunk by a whole factor so that neither side exceeds `max_side`, each pixel the
/// mean of its block.
pub fn overview(scan: &Scan, max_side: u32) -> Overview {
    let max_side = max_side.max(1);
    let (w, h) = (scan.width(), scan.height());
    let factor = w.max(h).div_ceil(max_side).max(1);
    let (ow, oh) = (w.div_ceil(factor), h.div_ceil(factor));
    let raw = scan.image.as_raw();
    let mut rgba = vec![0u8; (ow * oh * 4) as usize];
    rgba.par_chunks_mut((ow * 4) as usize)
        .enumerate()
        .for_each(|(oy, out_row)| {
            let y0 = oy as u32 * factor;
            let y1 = (y0 + factor).min(h);
            let mut sums = vec![[0u32; 4]; ow as usize];
            for y in y0..y1 {
                let row = &raw[(y as usize * w as usize * 3)..((y as usize + 1) * w as usize * 3)];
                for (x, px) in row.chunks_exact(3).enumerate() {
                    let s = &mut sums[x / factor as usize];
                    s[0] += u32::from(px[0]);
                    s[1] += u32::from(px[1]);
                    s[2] += u32::from(px[2]);
                    s[3] += 1;
                }
            }
            for (out, s) in out_row.chunks_exact_mut(4).zip(&sums) {
                let n = s[3].max(1);
                out.copy_from_slice(&[
                    ((s[0] + n / 2) / n) as u8,
                    ((s[1] + n / 2) / n) as u8,
                    ((s[2] + n / 2) / n) as u8,
                    255,
                ]);
            }
        });
    Overview {
        width: ow,
        height: oh,
        factor,
        rgba,
    }
}

/// How to import a scan for the editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImportOptions {
    pub limits: ScanLimits,
    /// Largest tile side (a GPU texture limit; 2048 is safe everywhere).
    pub tile_side: u32,
    /// Largest side of the overview.
    pub overview_side: u32,
}

impl Default for ImportOptions {
    fn default() -> Self {
        Self {
            limits: ScanLimits::default(),
            tile_side: 2048,
            overview_side: 2048,
        }
    }
}

/// A scan ready for the editor: the pixels (for classification), tiles and an overview (for
/// drawing).
#[derive(Debug, Clone)]
pub struct ImportedScan {
    pub scan: Scan,
    pub tiles: Vec<Tile>,
    pub overview: Overview,
}

/// Loads a scan, cuts it into tiles and makes its overview. Progress: loading 0-0.7, tiles
/// 0.7-0.95, overview to 1.
pub fn import_scan(
    path: &Path,
    options: &ImportOptions,
    progress: Progress,
) -> Result<ImportedScan, ScanError> {
    let scan = load_scan(path, &options.limits, &|p| progress(0.7 * p))?;
    let tiles = tiles(&scan, options.tile_side, &|p| progress(0.7 + 0.25 * p))?;
    let overview = overview(&scan, options.overview_side);
    if !progress(1.0) {
        return Err(ScanError::Cancelled);
    }
    Ok(ImportedScan {
        scan,
        tiles,
        overview,
    })
}
