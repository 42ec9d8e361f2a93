//! Draws the grid VASSAL computes from a module's `buildFile.xml` (HexGrid x0/y0/dx/dy, centres
//! by HexGridNumbering's formula) in red over the module's board image, for the README:
//! `cargo run -p bataille-export --example vassal_grid -- battle.vmod out.png [x y w h]`.

use std::io::Read as _;

use bataille_render::tiny_skia::{Color, Paint, PathBuilder, Pixmap, Stroke, Transform};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (module, out) = match (args.first(), args.get(1)) {
        (Some(module), Some(out)) => (module, out),
        _ => anyhow::bail!("usage: vassal_grid MODULE.vmod OUT.png [x y w h]"),
    };
    let mut archive = zip::ZipArchive::new(std::fs::File::open(module)?)?;
    let mut read = |name: &str| -> anyhow::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        archive.by_name(name)?.read_to_end(&mut bytes)?;
        Ok(bytes)
    };
    let build = String::from_utf8(read("buildFile.xml")?)?;
    let doc = roxmltree::Document::parse(&build)?;
    let find = |tag: &str| {
        doc.descendants()
            .find(|n| n.tag_name().name() == tag)
            .ok_or_else(|| anyhow::anyhow!("no {tag}"))
    };
    let grid = find("VASSAL.build.module.map.boardPicker.board.HexGrid")?;
    let board = find("VASSAL.build.module.map.boardPicker.Board")?;
    let attr = |n: roxmltree::Node, a: &str| -> anyhow::Result<f64> {
        Ok(n.attribute(a)
            .ok_or_else(|| anyhow::anyhow!("no {a}"))?
            .parse()?)
    };
    let (x0, y0, dx, dy) = (
        attr(grid, "x0")?,
        attr(grid, "y0")?,
        attr(grid, "dx")?,
        attr(grid, "dy")?,
    );
    let image_name = board.attribute("image").unwrap_or("board.png");
    let png = read(&format!("images/{image_name}"))?;
    let mut pixmap = Pixmap::decode_png(&png)?;
    let mut paint = Paint::default();
    paint.set_color(Color::from_rgba8(0xe0, 0x10, 0x10, 0xff));
    paint.anti_alias = true;
    let stroke = Stroke {
        width: 1.5,
        ..Stroke::default()
    };
    let r = dx / 1.5;
    let (w, h) = (f64::from(pixmap.width()), f64::from(pixmap.height()));
    let mut col = 0i64;
    while (col as f64) * dx + f64::from(x0 as i32) < w + dx {
        let mut row = -1i64;
        loop {
            // HexGridNumbering.getCenterPoint, sideways=false, no stagger.
            let x = (col as f64 * dx) as i64 + x0 as i64;
            let y = if col % 2 == 0 {
                (row as f64 * dy) as i64
            } else {
                (row as f64 * dy + dy / 2.0) as i64
            } + y0 as i64;
            if y as f64 > h + dy {
                break;
            }
            let (x, y) = (x as f32, y as f32);
            let mut pb = PathBuilder::new();
            for k in 0..=6 {
                let a = (60.0 * f64::from(k)).to_radians();
                let p = (x + (r * a.cos()) as f32, y + (r * a.sin()) as f32);
                if k == 0 {
                    pb.move_to(p.0, p.1);
                } else {
                    pb.line_to(p.0, p.1);
                }
            }
            if let Some(path) = pb.finish() {
                pixmap.stroke_path(&path, &paint, &stroke, Transform::identity(), None);
            }
            if let Some(dot) = PathBuilder::from_circle(x, y, 2.5) {
                pixmap.fill_path(
                    &dot,
                    &paint,
                    Default::default(),
                    Transform::identity(),
                    None,
                );
            }
            row += 1;
        }
        col += 1;
    }
    let crop: Vec<u32> = args[2..].iter().filter_map(|a| a.parse().ok()).collect();
    let pixmap = match crop[..] {
        [x, y, cw, ch] => pixmap
            .clone_rect(
                bataille_render::tiny_skia::IntRect::from_xywh(x as i32, y as i32, cw, ch)
                    .ok_or_else(|| anyhow::anyhow!("bad crop"))?,
            )
            .ok_or_else(|| anyhow::anyhow!("crop outside the board"))?,
        _ => pixmap,
    };
    bataille_render::save_png(&pixmap, std::path::Path::new(out))?;
    Ok(())
}
