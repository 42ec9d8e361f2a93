//! The module's archive: the zip VASSAL opens, its entries in a fixed order with no dates, so
//! the same scenario gives the same bytes.

use std::io::Write as _;
use std::path::Path;

use bataille_render::{Layout, RenderOptions};
use bataille_schema::Map;
use bataille_schema::map::Background;

use super::build::Texts;
use super::images::Images;
use crate::ExportError;

/// The board image: the map's scan resampled, or the map drawn; either straight into the zip
/// entry (never held whole).
pub(super) enum Board<'a> {
    Scan {
        background: &'a Background,
        scan: &'a Path,
        layout: &'a Layout,
    },
    Drawn {
        map: &'a Map,
        layout: &'a Layout,
        render: &'a RenderOptions,
    },
}

/// The `.vmod`: `buildFile.xml`, `moduledata`, the setups' saved games, then `images/`: the
/// board and every other image, written into `out` as they are made (the same bytes into a
/// file as into memory).
pub(super) fn archive<W: std::io::Write + std::io::Seek + Send>(
    texts: &Texts,
    board: Board<'_>,
    images: &Images,
    out: W,
) -> Result<W, ExportError> {
    let mut zip = zip::ZipWriter::new(out);
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::default());
    let stored = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .last_modified_time(zip::DateTime::default());
    let io = |source: std::io::Error| ExportError::Io {
        path: "module".to_owned(),
        source,
    };
    zip.start_file("buildFile.xml", deflated)?;
    zip.write_all(texts.build_file.as_bytes()).map_err(io)?;
    zip.start_file("moduledata", deflated)?;
    zip.write_all(texts.moduledata.as_bytes()).map_err(io)?;
    for (name, bytes) in &texts.setup_files {
        // A saved game is a zip already.
        zip.start_file(name.as_str(), stored)?;
        zip.write_all(bytes).map_err(io)?;
    }
    // PNGs are compressed already.
    zip.start_file("images/board.png", stored)?;
    match board {
        Board::Scan {
            background,
            scan,
            layout,
        } => super::images::write_scan_board(background, scan, layout, &mut zip)?,
        Board::Drawn {
            map,
            layout,
            render,
        } => bataille_render::write_map_png(map, layout, render, &mut zip)?,
    }
    for (name, bytes) in images {
        zip.start_file(format!("images/{name}"), stored)?;
        zip.write_all(bytes).map_err(io)?;
    }
    Ok(zip.finish()?)
}
