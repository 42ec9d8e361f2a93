//! A scan's colour profile: seen and said, never applied (see [`ColourProfile`]).

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use image::{ImageDecoder, ImageFormat, ImageReader, Limits};

use super::MAX_HEADER_ALLOC;

/// A colour profile a scan file carries (a PNG's `iCCP` chunk, a JPEG's or TIFF's embedded ICC
/// profile). None is ever applied: the pixels are read as they are, as if sRGB, so a scan in
/// another colour space (Adobe RGB, a scanner's own profile) comes out with shifted colours.
/// Whoever reads a scan says so ([`ColourProfile::note`]) rather than dropping it silently.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ColourProfile {
    /// A profile of this many bytes (inflated), read and not applied.
    Ignored { bytes: usize },
    /// A PNG `iCCP` chunk that was not read: it inflates beyond [`MAX_HEADER_ALLOC`] (a
    /// decompression bomb in the metadata) or its data is corrupt. `compressed` is the chunk's
    /// size in the file.
    Skipped { compressed: usize },
}

impl ColourProfile {
    /// What a person is told, after the scan's path and a colon: one line.
    pub fn note(&self) -> String {
        match self {
            ColourProfile::Ignored { bytes } => format!(
                "the scan's colour profile (ICC, {bytes} bytes) is not applied: its colours are read as sRGB, so they may look shifted if it was saved in another colour space"
            ),
            ColourProfile::Skipped { compressed } => format!(
                "the scan's colour profile (PNG iCCP chunk, {compressed} bytes in the file) is skipped unread: it inflates beyond {} MiB or is corrupt; the colours are read as sRGB",
                MAX_HEADER_ALLOC / (1024 * 1024)
            ),
        }
    }
}

/// The profile a scan carries. A PNG's `iCCP` chunk is measured where it lies in the file
/// ([`png_profile`]); a JPEG's or TIFF's is the one the decoder read.
pub(super) fn colour_profile(
    format: Option<ImageFormat>,
    file: impl Read + Seek,
    decoder: &mut impl ImageDecoder,
) -> Option<ColourProfile> {
    if format == Some(ImageFormat::Png) {
        return png_profile(file);
    }
    decoder
        .icc_profile()
        .ok()
        .flatten()
        .map(|profile| ColourProfile::Ignored {
            bytes: profile.len(),
        })
}

/// A PNG's colour profile, from its `iCCP` chunk before the pixels: inflated into nothing, only
/// counted, so its reading costs a few kilobytes whatever it holds. Only its length is ever
/// used, and `ImageDecoder::icc_profile` returned a copy of the profile the PNG reader holds
/// (a 16 MiB profile was held twice). `Skipped` when it inflates beyond [`MAX_HEADER_ALLOC`]
/// (the reader drops such a profile without a word) or is corrupt.
fn png_profile(mut file: impl Read + Seek) -> Option<ColourProfile> {
    let compressed = png_iccp_chunk(&mut file)?;
    let skipped = Some(ColourProfile::Skipped { compressed });
    let mut data = file.take(compressed as u64);
    // The profile's name (1 to 79 bytes) and its NUL, then the compression method (0: zlib).
    let mut byte = [0u8; 1];
    let mut name = 0;
    loop {
        if data.read_exact(&mut byte).is_err() || name > 79 {
            return skipped;
        }
        if byte[0] == 0 {
            break;
        }
        name += 1;
    }
    if data.read_exact(&mut byte).is_err() || byte[0] != 0 || name == 0 {
        return skipped;
    }
    let mut inflated = flate2::read::ZlibDecoder::new(data).take(MAX_HEADER_ALLOC + 1);
    match std::io::copy(&mut inflated, &mut std::io::sink()) {
        Ok(bytes) if bytes <= MAX_HEADER_ALLOC => Some(ColourProfile::Ignored {
            bytes: bytes as usize,
        }),
        _ => skipped,
    }
}

/// The size of a PNG's `iCCP` chunk, when it has one before its image data, the file left at
/// the chunk's data: only the chunks' headers are read, the rest is skipped over.
fn png_iccp_chunk(mut file: impl Read + Seek) -> Option<usize> {
    file.seek(SeekFrom::Start(8)).ok()?;
    let mut header = [0u8; 8];
    loop {
        file.read_exact(&mut header).ok()?;
        let length = u32::from_be_bytes([header[0], header[1], header[2], header[3]]);
        match &header[4..8] {
            b"iCCP" => return Some(length as usize),
            b"IDAT" | b"IEND" => return None,
            // The chunk's data and its CRC.
            _ => file.seek(SeekFrom::Current(i64::from(length) + 4)).ok()?,
        };
    }
}

/// The colour profile a scan file carries, from its header only (a PNG's chunks before its
/// pixels; a JPEG is read whole, as its decoder reads it), within [`MAX_HEADER_ALLOC`]: for a
/// command that hands the scan's path to a library (an export), to say what [`load_scan`]
/// says. `None` when the file has none, or does not read (the library's own read says why).
pub fn profile_of(path: &Path) -> Option<ColourProfile> {
    let (file, _) = bataille_schema::files::open_regular(path).ok()?;
    let mut reader = ImageReader::new(std::io::BufReader::new(file))
        .with_guessed_format()
        .ok()?;
    let format = reader.format();
    if !matches!(
        format,
        Some(ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::Tiff)
    ) {
        return None;
    }
    let mut header_limits = Limits::no_limits();
    header_limits.max_alloc = Some(MAX_HEADER_ALLOC);
    reader.limits(header_limits);
    if format == Some(ImageFormat::Png) {
        return png_profile(reader.into_inner());
    }
    let mut decoder = reader.into_decoder().ok()?;
    let (file, _) = bataille_schema::files::open_regular(path).ok()?;
    colour_profile(format, std::io::BufReader::new(file), &mut decoder)
}
