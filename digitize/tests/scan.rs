//! Scan loading: limits against hostile headers, formats, cancelling, tiles and overview.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use std::cell::Cell;

use bataille_digitize::scan::{
    ImportOptions, ScanError, ScanLimits, decode_scan, import_scan, load_scan, no_progress,
    overview, tiles,
};
use image::{Rgb, RgbImage};

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut out = (data.len() as u32).to_be_bytes().to_vec();
    let mut body = kind.to_vec();
    body.extend_from_slice(data);
    out.extend_from_slice(&body);
    out.extend_from_slice(&crc32(&body).to_be_bytes());
    out
}

/// A PNG whose header claims `width × height` RGB pixels, with a tiny IDAT.
fn hostile_png(width: u32, height: u32) -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = width.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    png.extend(chunk(b"IHDR", &ihdr));
    png.extend(chunk(
        b"IDAT",
        &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01],
    ));
    png.extend(chunk(b"IEND", &[]));
    png
}

fn gradient(w: u32, h: u32) -> RgbImage {
    RgbImage::from_fn(w, h, |x, y| {
        Rgb([(x % 256) as u8, (y % 256) as u8, ((x + y) % 256) as u8])
    })
}

#[test]
fn a_header_claiming_100000_px_is_refused() {
    let bytes = hostile_png(100_000, 100_000);
    let error = decode_scan(&bytes, &ScanLimits::default(), &no_progress).unwrap_err();
    assert!(
        matches!(
            error,
            ScanError::TooLarge {
                width: 100_000,
                height: 100_000,
                ..
            }
        ),
        "{error}"
    );
    let message = error.to_string();
    assert!(
        message.contains("100000×100000") && message.contains("12000×12000"),
        "{message}"
    );
    // Within the size limit but beyond the memory limit: refused by the decoder's limits.
    let tight = ScanLimits {
        max_alloc_bytes: 1024 * 1024,
        ..ScanLimits::default()
    };
    let error = decode_scan(&hostile_png(4000, 4000), &tight, &no_progress).unwrap_err();
    assert!(matches!(error, ScanError::TooMuchMemory { .. }), "{error}");
}

#[test]
fn a_jpeg_header_claiming_65000_px_is_refused() {
    // A real small JPEG whose frame header (SOF0) is patched to claim 65000 × 65000 px.
    let mut jpeg = Vec::new();
    gradient(16, 16)
        .write_to(
            &mut std::io::Cursor::new(&mut jpeg),
            image::ImageFormat::Jpeg,
        )
        .unwrap();
    let sof = jpeg
        .windows(2)
        .position(|w| w == [0xff, 0xc0])
        .expect("a baseline frame header");
    jpeg[sof + 5..sof + 7].copy_from_slice(&65000u16.to_be_bytes());
    jpeg[sof + 7..sof + 9].copy_from_slice(&65000u16.to_be_bytes());
    let error = decode_scan(&jpeg, &ScanLimits::default(), &no_progress).unwrap_err();
    assert!(
        matches!(
            error,
            ScanError::TooLarge {
                width: 65000,
                height: 65000,
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn garbage_and_other_formats_are_refused() {
    let error = decode_scan(
        b"this is not an image",
        &ScanLimits::default(),
        &no_progress,
    )
    .unwrap_err();
    assert!(matches!(error, ScanError::UnknownFormat(_)), "{error}");
    // A truncated PNG: a decode error, not a panic.
    let png = common::png_bytes(&gradient(64, 64));
    let error =
        decode_scan(&png[..png.len() / 2], &ScanLimits::default(), &no_progress).unwrap_err();
    assert!(matches!(error, ScanError::Truncated(_)), "{error}");
    let error = decode_scan(&[], &ScanLimits::default(), &no_progress).unwrap_err();
    assert!(
        matches!(error, ScanError::UnknownFormat(_) | ScanError::Decode(_)),
        "{error}"
    );
}

#[test]
fn png_jpeg_and_tiff_load() {
    let image = gradient(300, 200);
    let png = common::png_bytes(&image);
    let scan = decode_scan(&png, &ScanLimits::default(), &no_progress).unwrap();
    assert_eq!(scan.image, image);
    let mut tiff = Vec::new();
    image
        .write_to(
            &mut std::io::Cursor::new(&mut tiff),
            image::ImageFormat::Tiff,
        )
        .unwrap();
    assert_eq!(
        decode_scan(&tiff, &ScanLimits::default(), &no_progress)
            .unwrap()
            .image,
        image
    );
    let mut jpeg = Vec::new();
    image
        .write_to(
            &mut std::io::Cursor::new(&mut jpeg),
            image::ImageFormat::Jpeg,
        )
        .unwrap();
    let scan = decode_scan(&jpeg, &ScanLimits::default(), &no_progress).unwrap();
    assert_eq!((scan.width(), scan.height()), (300, 200));
}

#[test]
fn loading_reports_progress_and_can_be_cancelled() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scan.png");
    std::fs::write(&path, common::png_bytes(&gradient(500, 400))).unwrap();
    let last = Cell::new(0.0f32);
    let monotone = Cell::new(true);
    let scan = load_scan(&path, &ScanLimits::default(), &|p| {
        if p < last.get() {
            monotone.set(false);
        }
        last.set(p);
        true
    })
    .unwrap();
    assert_eq!(scan.width(), 500);
    assert!(monotone.get());
    assert!((last.get() - 1.0).abs() < 1e-6);
    // Cancelled at the first report.
    let error = load_scan(&path, &ScanLimits::default(), &|_| false).unwrap_err();
    assert!(matches!(error, ScanError::Cancelled));
    // Cancelled half-way through the tiles.
    let error = import_scan(&path, &ImportOptions::default(), &|p| p < 0.8).unwrap_err();
    assert!(matches!(error, ScanError::Cancelled));
    let error = load_scan(
        &dir.path().join("missing.png"),
        &ScanLimits::default(),
        &no_progress,
    )
    .unwrap_err();
    assert!(matches!(error, ScanError::Io { .. }));
    let small = ScanLimits {
        max_file_bytes: 10,
        ..ScanLimits::default()
    };
    let error = load_scan(&path, &small, &no_progress).unwrap_err();
    assert!(matches!(error, ScanError::FileTooLarge { .. }));
}

#[test]
fn tiles_cover_the_scan_exactly() {
    let image = gradient(1000, 700);
    let scan = decode_scan(
        &common::png_bytes(&image),
        &ScanLimits::default(),
        &no_progress,
    )
    .unwrap();
    let tiles = tiles(&scan, 256, &no_progress).unwrap();
    assert_eq!(tiles.len(), 4 * 3);
    let mut covered = 0u64;
    for tile in &tiles {
        assert!(tile.width <= 256 && tile.height <= 256);
        assert_eq!(tile.rgba.len() as u32, tile.width * tile.height * 4);
        covered += u64::from(tile.width * tile.height);
        // Spot-check corners of the tile against the scan.
        for (dx, dy) in [(0, 0), (tile.width - 1, tile.height - 1)] {
            let p = image.get_pixel(tile.x + dx, tile.y + dy);
            let o = ((dy * tile.width + dx) * 4) as usize;
            assert_eq!(&tile.rgba[o..o + 4], &[p[0], p[1], p[2], 255]);
        }
    }
    assert_eq!(covered, 1000 * 700);
    let over = overview(&scan, 128);
    assert!(over.width <= 128 && over.height <= 128);
    assert_eq!(over.factor, 8);
    assert_eq!((over.width, over.height), (125, 88));
    assert_eq!(over.rgba.len() as u32, over.width * over.height * 4);
}
