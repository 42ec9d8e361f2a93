//! `bataille-editor [FILE]`: opens the editor on a map or a scenario's map.

use bataille_editor::{EditorApp, EditorConfig};

fn main() -> eframe::Result {
    let file = std::env::args_os().nth(1).map(std::path::PathBuf::from);
    if file.as_ref().is_some_and(|f| f == "--help" || f == "-h") {
        println!(
            "usage: bataille-editor [FILE]\n\nOpens a Bataille map, or a scenario and its map."
        );
        return Ok(());
    }
    let options = eframe::NativeOptions {
        renderer: eframe::Renderer::Glow,
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1400.0, 900.0])
            .with_title("Bataille editor"),
        ..Default::default()
    };
    eframe::run_native(
        "Bataille editor",
        options,
        Box::new(move |_cc| {
            let config = EditorConfig::from_environment();
            let app = match &file {
                Some(path) => EditorApp::with_file(config, path),
                None => EditorApp::new(config),
            };
            Ok(Box::new(app))
        }),
    )
}
