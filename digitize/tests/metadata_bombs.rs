//! Metadata bombs of any size stay inside the decode budget (issue 19): a PNG scan whose colour
//! profile (`iCCP`) or compressed text (`zTXt`, `iTXt`) inflates to anything from nothing to
//! 2 GiB, one chunk or several, before or after the pixels, costs its reading no more than the
//! header allowance ([`MAX_HEADER_ALLOC`], 16 MiB) beyond the pixels themselves — far inside the
//! documented decode budget (`ScanLimits::default().max_alloc_bytes`, 1,160 MiB). Both readers
//! are tried: [`decode_scan`] (digitize, the editor's import, the exports' scan) and
//! [`profile_of`] (what an export says of a scan it hands on).
//!
//! Memory is the process's peak resident size (`VmHWM`, Linux): each case checks that its
//! reading raised the peak by no more than the allowance. This file holds one test, so no
//! other test's memory runs beside it.

#![cfg(target_os = "linux")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use bataille_digitize::scan::{
    ColourProfile, MAX_HEADER_ALLOC, ScanLimits, decode_scan, no_progress, profile_of,
};
use flate2::{Compress, Compression, FlushCompress};
use proptest::prelude::*;

/// The peak resident size of this process, in bytes.
fn peak_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .expect("VmHWM");
    let kib: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("a number of kB");
    kib * 1024
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&u32::try_from(data.len()).unwrap().to_be_bytes());
    let mut crc = flate2::Crc::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    out.extend_from_slice(&crc.sum().to_be_bytes());
}

/// A zlib stream of `mib` MiB and `extra` bytes of zeros, a few kilobytes in the file: one
/// compressed MiB repeated (each block ends on a flush, and zeros follow zeros), then the rest.
fn zeros(mib: u32, extra: u32) -> Vec<u8> {
    let mut raw = Compress::new(Compression::best(), false);
    let mut block = Vec::with_capacity(8 << 10);
    raw.compress_vec(&vec![0; 1 << 20], &mut block, FlushCompress::Sync)
        .unwrap();
    let mut tail = Vec::with_capacity(8 << 10);
    raw.compress_vec(&vec![0; extra as usize], &mut tail, FlushCompress::Finish)
        .unwrap();
    let mut stream = vec![0x78, 0xda];
    for _ in 0..mib {
        stream.extend_from_slice(&block);
    }
    stream.extend_from_slice(&tail);
    let n = (u64::from(mib) << 20) + u64::from(extra);
    let adler = ((n % 65521) << 16) | 1;
    stream.extend_from_slice(&u32::try_from(adler).unwrap().to_be_bytes());
    stream
}

#[derive(Debug, Clone, Copy)]
enum Kind {
    Iccp,
    Ztxt,
    Itxt,
}

/// A small RGB PNG with `copies` metadata chunks of `kind`, each inflating to `mib` MiB and
/// `extra` bytes, before the pixels or after them.
fn bomb(side: u32, kind: Kind, mib: u32, extra: u32, copies: usize, after_pixels: bool) -> Vec<u8> {
    let stream = zeros(mib, extra);
    let body = match kind {
        Kind::Iccp => [b"icc\0\0".as_slice(), &stream].concat(),
        Kind::Ztxt => [b"Comment\0\0".as_slice(), &stream].concat(),
        Kind::Itxt => [b"XML:com.adobe.xmp\0\x01\0\0\0".as_slice(), &stream].concat(),
    };
    let name: &[u8; 4] = match kind {
        Kind::Iccp => b"iCCP",
        Kind::Ztxt => b"zTXt",
        Kind::Itxt => b"iTXt",
    };
    let mut header = Vec::new();
    header.extend_from_slice(&side.to_be_bytes());
    header.extend_from_slice(&side.to_be_bytes());
    header.extend_from_slice(&[8, 2, 0, 0, 0]);
    let row: Vec<u8> = std::iter::once(0)
        .chain((0..side).flat_map(|_| [200, 180, 140]))
        .collect();
    let mut pixels = Vec::new();
    let mut compress = Compress::new(Compression::fast(), true);
    let rows = row.repeat(side as usize);
    compress
        .compress_vec(&rows, &mut pixels, FlushCompress::Finish)
        .unwrap();
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    chunk(&mut png, b"IHDR", &header);
    if !after_pixels {
        for _ in 0..copies {
            chunk(&mut png, name, &body);
        }
    }
    chunk(&mut png, b"IDAT", &pixels);
    if after_pixels {
        for _ in 0..copies {
            chunk(&mut png, name, &body);
        }
    }
    chunk(&mut png, b"IEND", &[]);
    png
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn metadata_of_any_size_costs_no_more_than_the_header_allowance(
        side in 1u32..64,
        kind in prop_oneof![Just(Kind::Iccp), Just(Kind::Ztxt), Just(Kind::Itxt)],
        mib in prop_oneof![0u32..4, 4u32..64, 64u32..=2048],
        extra in 0u32..(1 << 20),
        copies in 1usize..=3,
        after_pixels in any::<bool>(),
    ) {
        let png = bomb(side, kind, mib, extra, copies, after_pixels);
        if mib < 4 {
            // The stream inflates to exactly what it says (checked where that is cheap).
            let mut inflated = Vec::new();
            std::io::Read::read_to_end(&mut flate2::read::ZlibDecoder::new(&zeros(mib, extra)[..]), &mut inflated).unwrap();
            prop_assert_eq!(inflated.len() as u64, (u64::from(mib) << 20) + u64::from(extra));
        }
        let limits = ScanLimits::default();
        let start = peak_bytes();
        // The header allowance, the file, and room for the decoder's own buffers and the
        // pixels (a 64 × 64 scan is 12 KiB).
        let allowance = MAX_HEADER_ALLOC + 2 * png.len() as u64 + (16 << 20);
        prop_assert!(allowance < limits.max_alloc_bytes);
        // Decoded or refused, never a panic; either way within the allowance.
        let decoded = decode_scan(&png, &limits, &no_progress);
        if let Ok(scan) = &decoded {
            prop_assert_eq!((scan.width(), scan.height()), (side, side));
        }
        // The bomb is what it claims: a profile before the pixels is seen, read when it is
        // small, skipped unread when it inflates beyond the allowance.
        let inflated = (u64::from(mib) << 20) + u64::from(extra);
        if let (Kind::Iccp, false, Ok(scan)) = (kind, after_pixels, &decoded) {
            match scan.profile {
                Some(ColourProfile::Ignored { bytes }) => prop_assert_eq!(bytes as u64, inflated),
                Some(ColourProfile::Skipped { .. }) => prop_assert!(inflated > MAX_HEADER_ALLOC / 2),
                None => prop_assert!(false, "the profile went unseen"),
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("scan.png");
        std::fs::write(&file, &png).unwrap();
        let _ = profile_of(&file);
        let peak = peak_bytes();
        prop_assert!(
            peak <= start + allowance,
            "{kind:?} ×{copies} inflating to {mib} MiB + {extra} B: the peak went from {start} to {peak} bytes"
        );
    }
}
