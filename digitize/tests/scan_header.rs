//! A scan's header is read within bounds (issue 26): a small PNG whose ICC profile inflates to
//! hundreds of megabytes (a decompression bomb in the metadata, decoded before the pixels and
//! before the scan's limits applied) is read without allocating more than a few megabytes.
//! Its own test binary (Linux: the peak resident size from `/proc/self/status`), so nothing
//! else runs while it measures.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use bataille_digitize::scan::{ScanLimits, decode_scan, no_progress};
use image::ImageEncoder as _;

/// A field of `/proc/self/status`, in KiB.
fn status_kib(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("Linux");
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("the field")
}

/// A 2 × 2 PNG carrying an ICC profile of `profile_bytes` zeros (compressed in the file).
fn png_with_profile(profile_bytes: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = image::codecs::png::PngEncoder::new(&mut out);
    encoder
        .set_icc_profile(vec![0; profile_bytes])
        .expect("PNG takes a profile");
    encoder
        .write_image(&[200; 12], 2, 2, image::ExtendedColorType::Rgb8)
        .expect("encoded");
    out
}

#[cfg(target_os = "linux")]
#[test]
fn a_header_that_inflates_to_hundreds_of_megabytes_is_read_within_bounds() {
    let png = png_with_profile(256 * 1024 * 1024);
    assert!(png.len() < 2 * 1024 * 1024, "{} bytes", png.len());
    // The peak resident size is reset, then read after decoding.
    std::fs::write("/proc/self/clear_refs", "5").expect("the peak can be reset");
    let before = status_kib("VmRSS:");
    let decoded = decode_scan(&png, &ScanLimits::default(), &no_progress);
    let peak = status_kib("VmHWM:").saturating_sub(before);
    assert!(
        peak < 40 * 1024,
        "decoding a {} KiB file took {} MiB more at its peak ({:?})",
        png.len() / 1024,
        peak / 1024,
        decoded.as_ref().map(|s| s.width())
    );
}
