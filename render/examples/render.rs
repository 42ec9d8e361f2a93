//! `cargo run -p bataille-render --example render -- FILE --out map.png [--scale PX]`: the
//! `bataille render` command without the rest of the binary.

use clap::Parser;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: bataille_render::cli::Args,
    /// After writing, crop the PNG to `X,Y,W,H` (for looking closely at a part).
    #[arg(long)]
    crop: Option<String>,
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    bataille_render::cli::run(&cli.args)?;
    if let Some(crop) = &cli.crop {
        let n: Vec<u32> = crop
            .split(',')
            .filter_map(|v| v.trim().parse().ok())
            .collect();
        anyhow::ensure!(n.len() == 4, "--crop X,Y,W,H");
        let pixmap = bataille_render::tiny_skia::Pixmap::load_png(&cli.args.out)?;
        let rect =
            bataille_render::tiny_skia::IntRect::from_xywh(n[0] as i32, n[1] as i32, n[2], n[3])
                .ok_or_else(|| anyhow::anyhow!("bad crop"))?;
        let part = pixmap
            .clone_rect(rect)
            .ok_or_else(|| anyhow::anyhow!("crop off the image"))?;
        bataille_render::save_png(&part, &cli.args.out)?;
    }
    Ok(())
}
