//! Metadata bombs of any size stay inside the decode budget (issue 19): a PNG scan whose colour
//! profile (`iCCP`) or compressed text (`zTXt`, `iTXt`) inflates to anything from nothing to
//! 2 GiB, one chunk or several, before or after the pixels, costs its reading no more than the
//! header allowance ([`MAX_HEADER_ALLOC`], 16 MiB) beyond the pixels themselves — far inside the
//! documented decode budget (`ScanLimits::default().max_alloc_bytes`, 1,160 MiB). Both readers
//! are tried: [`decode_scan`] (digitize, the editor's import, the exports' scan) and
//! [`profile_of`] (what an export says of a scan it hands on).
//!
//! Memory is a peak resident size (`VmHWM`, Linux), measured per case: each case is read in a
//! child process of its own (this test binary run again on [`child_reads_one_case`]), which
//! reports its peak before and after the reading. In one process the peak is the whole run's, so
//! a case after a costlier one was checked against nothing (its reading could rise to the earlier
//! peak unseen).

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

/// Runs a program within a time limit (the end-to-end tests' runner): a case that hung would
/// otherwise hang CI.
#[path = "../../tests/support/mod.rs"]
mod support;

/// The environment variable naming the case file a child reads.
const CASE: &str = "BATAILLE_METADATA_BOMB_CASE";

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
    // With no block before it, the rest is compressed on its own: its matches would reach back
    // into a block that is not there (a corrupt stream, skipped as such, not as a bomb).
    if mib == 0 {
        raw = Compress::new(Compression::best(), false);
    }
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
    // `compress_vec` writes only into spare capacity: an empty vector made an empty IDAT, so
    // every case was refused before its pixels and a chunk after them was never read.
    let mut pixels = Vec::with_capacity(4096 + 4 * 64 * 64);
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

/// What a child reports: its peak before and after reading the case, then how it read it.
fn child_report(start: u64, peak: u64, decoded: &str) -> String {
    format!("bomb-peak {start} {peak} {decoded}")
}

/// In a child (the case file named by [`CASE`]): reads the scan both ways and prints its peak
/// before and after with how the scan decoded (`side profile`), for the parent to check. Run by
/// itself, without the variable, it reads the smallest case, so it is a test of its own too.
#[test]
fn child_reads_one_case() {
    let dir = tempfile::tempdir().unwrap();
    let alone = std::env::var_os(CASE).is_none();
    let file = std::env::var_os(CASE).map_or_else(
        || {
            let file = dir.path().join("scan.png");
            std::fs::write(&file, bomb(1, Kind::Iccp, 1, 0, 1, false)).unwrap();
            file
        },
        std::path::PathBuf::from,
    );
    let png = std::fs::read(&file).unwrap();
    let start = peak_bytes();
    // Decoded or refused, never a panic.
    let decoded = match decode_scan(&png, &ScanLimits::default(), &no_progress) {
        Ok(scan) => {
            let profile = match scan.profile {
                Some(ColourProfile::Ignored { bytes }) => format!("ignored:{bytes}"),
                Some(ColourProfile::Skipped { .. }) => "skipped".to_owned(),
                None => "none".to_owned(),
            };
            format!("{}x{} {profile}", scan.width(), scan.height())
        }
        Err(error) => {
            eprintln!("refused: {error}");
            "refused -".to_owned()
        }
    };
    let _ = profile_of(&file);
    let peak = peak_bytes();
    if alone {
        assert_eq!(decoded, "1x1 ignored:1048576");
    }
    println!("{}", child_report(start, peak, &decoded));
}

/// Reads `png` in a child process: (peak before, peak after, `side profile`).
fn in_child(png: &[u8]) -> (u64, u64, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("scan.png");
    std::fs::write(&file, png).unwrap();
    let mut child = std::process::Command::new(std::env::current_exe().unwrap());
    child
        .args([
            "--exact",
            "child_reads_one_case",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CASE, &file);
    let output = support::output_within(child, std::time::Duration::from_secs(300));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the child failed: {stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let line = stdout
        .lines()
        .find_map(|l| l.split_once("bomb-peak ").map(|(_, report)| report))
        .unwrap_or_else(|| panic!("no report from the child: {stdout}"));
    let mut words = line.split(' ');
    let mut next = || words.next().unwrap_or_default().to_owned();
    let start = next().parse().unwrap();
    let peak = next().parse().unwrap();
    (start, peak, next(), next())
}

/// A colour profile just under the header allowance (15.5 MiB inflated) is held once: by the
/// PNG reader, while its length is counted from the file without a copy. `icc_profile` returned
/// a copy of it, so such a profile peaked at 33.7 MB over the start (twice the allowance); now
/// its reading costs the allowance and the reader's own buffers, with 4 MiB to spare.
#[test]
fn a_profile_under_the_allowance_is_held_once_not_copied() {
    let png = bomb(8, Kind::Iccp, 15, 1 << 19, 1, false);
    let (start, peak, size, profile) = in_child(&png);
    assert_eq!(size, "8x8");
    assert_eq!(profile, format!("ignored:{}", (15 << 20) + (1 << 19)));
    let allowance = MAX_HEADER_ALLOC + 2 * png.len() as u64 + (4 << 20);
    eprintln!("peak over the start: {} bytes", peak - start);
    assert!(
        peak <= start + allowance,
        "the peak went from {start} to {peak} bytes ({} over)",
        peak - start
    );
}

proptest! {
    // A fixed seed: CI draws the same cases every run, so a case near the allowance cannot
    // fail one run in ten as one did (issue 19); change the seed to explore.
    #![proptest_config(ProptestConfig {
        cases: 40,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x19_0004),
        ..ProptestConfig::default()
    })]

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
        // The header allowance once (a profile read whole is held by the PNG reader only:
        // its length is counted from the file, not from a copy), the file, and room for the
        // decoder's own buffers and the pixels (a 64 × 64 scan is 12 KiB). A bomb read whole
        // would still cost its gigabytes.
        let allowance = MAX_HEADER_ALLOC + 2 * png.len() as u64 + (16 << 20);
        prop_assert!(allowance < limits.max_alloc_bytes);
        let (start, peak, size, profile) = in_child(&png);
        // Metadata of any size is skipped or ignored, never a reason to refuse the pixels.
        prop_assert_eq!(&size, &format!("{side}x{side}"));
        // The bomb is what it claims: a profile before the pixels is seen, read when it is
        // small, skipped unread when it inflates beyond the allowance.
        let inflated = (u64::from(mib) << 20) + u64::from(extra);
        if let (Kind::Iccp, false) = (kind, after_pixels) {
            match profile.as_str() {
                "skipped" => prop_assert!(inflated > MAX_HEADER_ALLOC / 2),
                "none" => prop_assert!(false, "the profile went unseen"),
                ignored => prop_assert_eq!(ignored, format!("ignored:{inflated}")),
            }
        }
        prop_assert!(
            peak <= start + allowance,
            "{kind:?} ×{copies} inflating to {mib} MiB + {extra} B: the peak went from {start} to {peak} bytes"
        );
    }
}
