//! The editor's module graph is acyclic: each layer (`model`, `map`, `services`, `tools`,
//! `context`, `layers`, `panels`, `app`) uses only the layers before it, and inside every layer but `app`
//! the files form no cycle. Read from the source: every `crate::a::b` path in each file (in `use`
//! lines and inline), so a new import that closes a cycle fails here.
//!
//! And the app is only the app: `impl EditorApp` is written in its core files (the struct,
//! frame, handler, lifecycle) and nowhere else (every panel and map layer is moved out); no file
//! outside the app names `EditorApp`, and none but the model's takes `&mut Document` (the
//! handler hands the model its `&mut Document`; panels get `&ViewContext`).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const LAYERS: [&str; 8] = [
    "model", "map", "services", "tools", "context", "layers", "panels", "app",
];

/// The app's own files: the struct, the frame, the one handler, the file lifecycle.
const APP_CORE: [&str; 7] = [
    "app/mod.rs",
    "app/export_job.rs",
    "app/frame.rs",
    "app/handler.rs",
    // What the handler's variant commands do (issue 25), kept apart from its long match.
    "app/handler/variants.rs",
    "app/lifecycle.rs",
    "app/recovery.rs",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file is (`map::view`, `tools` for `tools/mod.rs`).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file
        .strip_prefix(src)
        .expect("under src")
        .with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// Every `crate::a::b…` path the file names (comments and doc links included: a doc link to a
/// later layer is a dependency too).
fn crate_paths(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("crate::") {
        let rest = &text[at + "crate::".len()..];
        let path: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        let parts: Vec<String> = path
            .split("::")
            .filter(|p| !p.is_empty())
            .map(str::to_owned)
            .collect();
        if !parts.is_empty() {
            out.push(parts);
        }
    }
    out
}

fn has_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(node) {
            Some(1) => {
                let from = stack.iter().position(|n| n == node).unwrap_or(0);
                let mut cycle = stack[from..].to_vec();
                cycle.push(node.to_owned());
                return Some(cycle);
            }
            Some(2) => return None,
            _ => {}
        }
        state.insert(node.to_owned(), 1);
        stack.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, graph, state, stack) {
                return Some(c);
            }
        }
        stack.pop();
        state.insert(node.to_owned(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if let Some(c) = visit(node, graph, &mut state, &mut Vec::new()) {
            return Some(c);
        }
    }
    None
}

#[test]
fn layers_use_only_earlier_layers_and_no_module_imports_in_a_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut problems = Vec::new();
    // Inside each layer (but app, whose files are parts of one `EditorApp`), file → file.
    let mut inner: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for file in &files {
        let module = module_of(&src, file);
        let Some(layer) = module.first() else {
            continue; // lib.rs, main.rs
        };
        if layer == "lib" || layer == "main" {
            continue;
        }
        let rank = LAYERS
            .iter()
            .position(|l| l == layer)
            .unwrap_or_else(|| panic!("{} is in no layer", file.display()));
        let text = std::fs::read_to_string(file).expect("readable");
        let me = module.join("::");
        let graph = inner.entry(layer.clone()).or_default();
        graph.entry(me.clone()).or_default();
        for path in crate_paths(&text) {
            let Some(target_rank) = LAYERS.iter().position(|l| *l == path[0]) else {
                continue;
            };
            if target_rank > rank {
                problems.push(format!(
                    "{} ({layer}) uses crate::{} (a later layer)",
                    file.display(),
                    path.join("::")
                ));
            }
            if target_rank == rank && path.len() > 1 {
                let target = format!("{}::{}", path[0], path[1]);
                let target_is_module = files
                    .iter()
                    .any(|f| module_of(&src, f).join("::") == target);
                let target = if target_is_module {
                    target
                } else {
                    path[0].clone()
                };
                if target != me {
                    graph.entry(me.clone()).or_default().insert(target);
                }
            }
        }
    }
    for (layer, graph) in &inner {
        if layer == "app" {
            continue;
        }
        if let Some(cycle) = has_cycle(graph) {
            problems.push(format!("a cycle in {layer}: {}", cycle.join(" → ")));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn no_file_is_over_600_lines_without_a_reason_at_its_top() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut long = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        let lines = text.lines().count();
        let head: String = text.lines().take(12).collect::<Vec<_>>().join("\n");
        if lines > 600 && !head.contains("Longer than 600 lines") {
            long.push(format!("{} ({lines} lines)", file.display()));
        }
    }
    assert!(
        long.is_empty(),
        "over 600 lines without a reason: {}",
        long.join(", ")
    );
}

/// The file's text without its comments (so a doc line may name what the code may not).
fn code_of(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn relative(src: &Path, file: &Path) -> String {
    file.strip_prefix(src)
        .expect("under src")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Every file under `src/` (its path from there) and its code without comments.
fn code_of_files() -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files
        .iter()
        .map(|file| {
            let text = std::fs::read_to_string(file).expect("readable");
            (relative(&src, file), code_of(&text))
        })
        .collect()
}

#[test]
fn impl_editor_app_is_only_in_the_app_core() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut problems = Vec::new();
    for file in &files {
        let rel = relative(&src, file);
        let code = code_of(&std::fs::read_to_string(file).expect("readable"));
        let has_impl = code.contains("impl EditorApp");
        if has_impl && !APP_CORE.contains(&rel.as_str()) {
            problems.push(format!(
                "{rel} has `impl EditorApp`: write it as a panel (a struct with \
                 `ui(&mut self, ctx: &ViewContext, ui)`) or in the app's core files"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn no_panel_tool_or_layer_takes_the_app_or_the_document_mutably() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut problems = Vec::new();
    for file in &files {
        let rel = relative(&src, file);
        if rel.starts_with("model/") || rel.starts_with("app/") || !rel.contains('/') {
            continue; // the model is handed `&mut Document` by the handler; the app is checked below
        }
        let code = code_of(&std::fs::read_to_string(file).expect("readable"));
        let squeezed: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
        for bad in [
            "EditorApp",
            "&mut Document",
            "&mut crate::model::document::Document",
            "&mut DocSlot",
        ] {
            if squeezed.contains(bad) {
                problems.push(format!("{rel} names `{bad}`"));
            }
        }
    }
    // Inside the app, only the handler writes the document (handler.rs and its own
    // submodules under app/handler/: the document's slot, whose `write` only its parent sees).
    for file in &files {
        let rel = relative(&src, file);
        if !rel.starts_with("app/") || rel == "app/handler.rs" || rel.starts_with("app/handler/") {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(file).expect("readable"));
        for bad in ["&mut Document", "&mut DocSlot", "-> &mut Document"] {
            if code.contains(bad) {
                problems.push(format!("{rel} names `{bad}` (only app/handler.rs may)"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The app's state grouped by owner (issue 21): the document with its undo history (`doc`), what
/// the user sees and has chosen with the one selection (`ui`), the work done for the document
/// (`services`), the panels and layers (`panels`), and the app's private bookkeeping (`own`):
/// no loose field beside them.
#[test]
fn the_apps_state_is_grouped_by_owner() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let code = code_of(&std::fs::read_to_string(src.join("app/mod.rs")).expect("app/mod.rs"));
    let body = code
        .split_once("pub struct EditorApp {")
        .and_then(|(_, rest)| rest.split_once('}'))
        .expect("the EditorApp struct")
        .0;
    let fields: Vec<&str> = body
        .split(',')
        .filter_map(|field| field.split(':').next())
        .map(|name| name.trim().trim_start_matches("pub ").trim())
        .filter(|name| !name.is_empty())
        .collect();
    assert_eq!(fields, ["doc", "ui", "services", "panels", "own"]);
    // One selection: the item and the hex are one value, the tools keep none of their own.
    let tools = code_of(&std::fs::read_to_string(src.join("tools/mod.rs")).expect("tools"));
    let tool_state = tools
        .split_once("pub struct ToolState {")
        .and_then(|(_, rest)| rest.split_once('}'))
        .expect("ToolState")
        .0;
    assert!(
        !tool_state.contains("selection"),
        "ToolState keeps a selection"
    );
}

/// The text with a reference's lifetime left out (`&'t mut T` → `&mut T`).
fn without_lifetimes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("&'") {
        out.push_str(&rest[..=at]);
        let after = &rest[at + 2..];
        let name = after
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        rest = after[name..].trim_start();
    }
    out.push_str(rest);
    out
}

/// The side doors, named: the state a panel or map layer is lent `&mut` beside its read-only
/// context. Only the digitising session (the digitise panel and the scan's layer both change
/// it) and the table overlay (its window and its layer) are; no panel or layer is lent any
/// other part of the app's state, and the app lends nothing else (`EditorApp::with_lent`).
#[test]
fn panels_and_layers_are_lent_only_the_named_side_doors() {
    const SIDE_DOORS: [(&str, &[&str]); 2] = [
        ("Digitise", &["panels/digitise/", "layers/scan.rs"]),
        (
            "TableOverlay",
            &["panels/table_window.rs", "layers/table.rs"],
        ),
    ];
    const APP_STATE: [&str; 14] = [
        "Digitise",
        "TableOverlay",
        "MapView",
        "ToolState",
        "ZoneTool",
        "History",
        "CounterCache",
        "DiagnosticsPanel",
        "Settings",
        "UiState",
        "Services",
        "Document",
        "DocSlot",
        "Panels",
    ];
    let mut problems = Vec::new();
    for (rel, code) in code_of_files() {
        if !(rel.starts_with("panels/") || rel.starts_with("layers/")) {
            continue;
        }
        let squeezed: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
        // `&'t mut T` read as `&mut T`.
        let squeezed = without_lifetimes(&squeezed);
        for (at, _) in squeezed.match_indices("&mut ") {
            let ty = squeezed[at + 5..]
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .next()
                .unwrap_or_default();
            let name = ty.rsplit("::").next().unwrap_or_default();
            if !APP_STATE.contains(&name) || ty.contains("scenario_edit") {
                continue;
            }
            let allowed = SIDE_DOORS
                .iter()
                .any(|(door, homes)| *door == name && homes.iter().any(|h| rel.starts_with(h)));
            // The scenario settings dialog edits its own copy of the scenario's settings.
            let own_copy = rel == "panels/scenario_settings.rs" && name == "Settings";
            if !allowed && !own_copy {
                problems.push(format!("{rel} is lent `&mut {ty}`"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let code = code_of(&std::fs::read_to_string(src.join("app/mod.rs")).expect("app/mod.rs"));
    let squeezed: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
    let lent = squeezed
        .split_once("fn with_lent<R>(")
        .and_then(|(_, rest)| rest.split_once(") -> R {"))
        .expect("with_lent")
        .0;
    let lent: Vec<&str> = lent
        .match_indices("&mut ")
        .filter_map(|(at, _)| {
            let ty = lent[at + 5..].split([',', ')', ' ']).next()?;
            Some(ty.rsplit("::").next().unwrap_or(ty))
        })
        .filter(|ty| *ty != "self")
        .collect();
    assert_eq!(lent, ["Panels", "Digitise", "TableOverlay"]);
}

/// Panels and map layers ask for everything by sending a `Command` (issue 11: requests reached
/// the app along `OobOutput`, `LegendEdit`, two `SettingsOutcome`s…). So no panel or layer
/// defines an outcome or output type for the app to apply, and no function of theirs hands a
/// `Command` back: the only thing a panel's `ui` returns is whether it stays open, whether it
/// took the pointer, or the page it shows. (`file_dialog`'s `FileOutcome` is the file widget's
/// answer to the dialog that holds it, which sends the command.)
#[test]
fn panels_and_layers_send_commands_and_return_no_requests() {
    let mut problems = Vec::new();
    for (rel, code) in code_of_files() {
        if !(rel.starts_with("panels/") || rel.starts_with("layers/")) {
            continue;
        }
        let squeezed: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
        for kind in ["enum ", "struct "] {
            for (at, _) in squeezed.match_indices(kind) {
                let name: String = squeezed[at + kind.len()..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                let request = ["Outcome", "Output", "Request", "Edit"]
                    .iter()
                    .any(|end| name.ends_with(end));
                if request && !(rel == "panels/file_dialog.rs" && name == "FileOutcome") {
                    problems.push(format!("{rel} defines `{name}`: send a Command instead"));
                }
            }
        }
        // A public function's return type (the signature up to its body).
        for visibility in ["pub fn ", "pub(crate) fn "] {
            for (at, _) in squeezed.match_indices(visibility) {
                let signature = squeezed[at..].split('{').next().unwrap_or_default();
                let returned = signature.rsplit_once("->").map_or("", |(_, r)| r);
                let names_command = returned
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .any(|word| ["Command", "UiCommand", "AppCommand"].contains(&word));
                // The palette's search lists the commands matching a query: no request.
                let search = rel == "panels/palette.rs" && signature.starts_with("pub fn matches(");
                if names_command && !search {
                    problems.push(format!(
                        "{rel}: `{}` hands a Command back: send it",
                        signature.trim()
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Commands come in two kinds (issue 21, as rerun's `UICommand` and `SystemCommand`): UI
/// commands without data, each with its label, tooltip and keys, which menus, the palette, the
/// shortcut sheet and the key handler list; and app commands carrying data, which panels, tools
/// and layers send and nothing lists. A UI command is turned into what the app does in one place,
/// the handler.
#[test]
fn commands_are_payload_free_ui_commands_or_app_commands_with_data() {
    use bataille_editor::UiCommand;
    fn plain<T: Copy + Eq + std::hash::Hash>() {}
    plain::<UiCommand>();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let read = |rel: &str| code_of(&std::fs::read_to_string(src.join(rel)).expect("readable"));
    // Every variant of `UiCommand` is a name, or a tool (one per `Tool::ALL`): no data.
    let ui = read("context/command/ui.rs");
    let body = ui
        .split_once("pub enum UiCommand {")
        .and_then(|(_, rest)| rest.split_once('}'))
        .expect("the UiCommand enum")
        .0;
    let mut variants = 0;
    let mut listed = 0;
    for variant in body.split(',').map(str::trim).filter(|v| !v.is_empty()) {
        if variant == "Tool(Tool)" {
            listed += bataille_editor::tools::Tool::ALL.len();
        } else {
            assert!(
                variant.chars().all(|c| c.is_ascii_alphanumeric()),
                "UiCommand::{variant} carries data: make it an AppCommand"
            );
            listed += 1;
        }
        variants += 1;
    }
    assert!(variants > 40, "{variants} UI commands read");
    // …and every one is listed (palette, shortcut sheet, key handler), once.
    let all = UiCommand::all();
    let distinct: std::collections::HashSet<_> = all.iter().collect();
    assert_eq!(distinct.len(), all.len(), "a UI command listed twice");
    assert_eq!(
        all.len(),
        listed,
        "a UI command missing from UiCommand::all"
    );
    // App commands have no label, tooltip or keys to show.
    let app = read("context/command/app.rs");
    for shown in ["fn label", "fn tooltip", "fn shortcuts"] {
        assert!(
            !app.contains(shown),
            "AppCommand has `{shown}`: a UI command's"
        );
    }
    // What lists commands reads only UI commands.
    for rel in [
        "panels/palette.rs",
        "context/shortcuts.rs",
        "panels/tool_bar.rs",
    ] {
        assert!(!read(rel).contains("AppCommand"), "{rel} names AppCommand");
    }
    // A UI command becomes the app's behaviour in the handler only: nowhere else matches on one.
    let mut problems = Vec::new();
    for (rel, code) in code_of_files() {
        if rel.starts_with("context/command/") || rel == "app/handler.rs" {
            continue;
        }
        let squeezed: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
        for (at, _) in squeezed.match_indices("UiCommand::") {
            let arm = squeezed[at..]
                .split([',', ';', '{'])
                .next()
                .unwrap_or_default();
            if arm.contains("=>") {
                problems.push(format!("{rel} matches on `{arm}`: the handler's"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(read("app/handler.rs").contains("fn run_ui_command(&mut self, command: UiCommand)"));
}

/// One file per tool behind one trait (issue 21, as Tiled's `AbstractTool`): every tool has its
/// implementation, which says it is that tool; names and keys are each one tool's; and the
/// tools' module matches on no tool but to find its implementation (a tool is not a branch in
/// five matches).
#[test]
fn every_tool_is_one_implementation_of_the_tool_trait() {
    use bataille_editor::tools::Tool;
    let mut names = std::collections::HashSet::new();
    let mut keys = std::collections::HashSet::new();
    for tool in Tool::ALL {
        let imp = tool.imp();
        assert_eq!(imp.id(), tool, "{}", imp.name());
        assert!(names.insert(imp.name()), "{} named twice", imp.name());
        assert!(keys.insert(imp.key()), "{:?} is two tools' key", imp.key());
        assert!(!imp.tooltip().is_empty() && !imp.icon().is_empty());
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tools/mod.rs");
    let code = std::fs::read_to_string(root).expect("tools/mod.rs");
    let arms = code.matches("Tool::Brush =>").count();
    assert_eq!(
        arms, 1,
        "tools/mod.rs matches on the tools beyond `Tool::imp`"
    );
}

/// One map canvas (issue 21): the map's layers in one listed order, bottom first — scan,
/// terrain, zones, counters, command radius, suggestions, table overlay, tool feedback — and
/// the app reaches a layer's painting and pointer input only through that list
/// (`EditorApp::with_layer` in `app/mod.rs`, the frame's loops in `app/frame.rs`).
#[test]
fn the_map_is_painted_and_offered_the_pointer_through_its_listed_layers() {
    use bataille_editor::layers::MapLayerKind as K;
    assert_eq!(
        K::ORDER,
        [
            K::Scan,
            K::Terrain,
            K::Zones,
            K::Counters,
            K::CommandRadius,
            K::Suggestions,
            K::TableOverlay,
            K::ToolFeedback
        ]
    );
    let app = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app");
    let mut files = Vec::new();
    rust_files(&app, &mut files);
    for file in files {
        let code = std::fs::read_to_string(&file).expect("readable");
        let rel = file
            .strip_prefix(&app)
            .expect("under app")
            .display()
            .to_string();
        if rel == "mod.rs" {
            continue;
        }
        for side_door in [
            "scan_layer.paint",
            "scan_layer.input",
            "scenario_layer.paint",
            "scenario_layer.input",
            "table.paint(",
            "table.input(",
            ".feedback(",
        ] {
            assert!(
                !code.contains(side_door),
                "app/{rel} calls `{side_door}`: go through the map's layers"
            );
        }
    }
    let frame = std::fs::read_to_string(app.join("frame.rs")).expect("frame.rs");
    assert!(
        frame.contains("for kind in MapLayerKind::ORDER"),
        "painted in order"
    );
    assert!(
        frame.contains("MapLayerKind::ORDER.into_iter().rev()"),
        "offered the pointer top first"
    );
    // The scan and the terrain too (they were the map view's, painted by the frame beside the
    // list, and the legend's eyedropper took the click before it): the map view is drawn, the
    // scan painted and its colour picked only by the terrain's layers.
    for (rel, code) in code_of_files() {
        if rel.starts_with("map/") || rel == "layers/terrain.rs" {
            continue;
        }
        for side_door in ["paint_with(", "view.paint(", "paint_scan(", "patch_colour("] {
            assert!(
                !code.contains(side_door),
                "{rel} calls `{side_door}`: the scan and the terrain are map layers \
                 (layers/terrain.rs)"
            );
        }
    }
    assert!(
        !frame.contains("legend.picking"),
        "the eyedropper's click is the scan layer's"
    );
    // The frame paints every listed layer (but the top one, painted after the input), and skips
    // none with a match of its own.
    let paint_loop = frame
        .split_once("for kind in MapLayerKind::ORDER {")
        .expect("the paint loop")
        .1
        .split_once("let (pointer, delta")
        .expect("then the input")
        .0;
    let skipped = paint_loop.matches("MapLayerKind::").count();
    assert_eq!(
        skipped, 1,
        "only the tool's feedback waits for the input:\n{paint_loop}"
    );
}

/// One door in (issue 26): the editor reads a document (a map, a scenario, a system, what they
/// name) only through `services/door.rs`, which opens it with `bataille_validator::door`; a
/// scan only through `map/scan.rs` (`load_scan`, with the scan's limits, and only a scan the
/// door confined or the user chose); the files that are not documents (settings, recovery
/// files, what a save would replace) only with the schema's bounded readers, in the files
/// named here. No other file reads, parses or loads a file itself.
#[test]
fn documents_are_read_only_through_the_door() {
    let door = ["services/door.rs"];
    let document_readers = [
        "fs::read(",
        "fs::read_to_string(",
        "File::open(",
        "OpenOptions::new().read",
        "image::open(",
        "image::load",
        "read_source(",
        "read_bytes(",
        "load_scenario(",
        "load_map(",
        "load_system(",
        "load_systems_of(",
        "parse_map(",
        "parse_scenario(",
        "parse_system(",
        "validate_file(",
        "read_document(",
        "bataille_validator::door",
    ];
    let bounded = ["read_limited(", "read_text_limited("];
    let bounded_readers = [
        "services/door.rs",
        "services/files.rs",    // settings and recovery files
        "services/recovery.rs", // the kind of a file a recovery goes back to
        "services/safety.rs",   // what a save would replace, and its fingerprint
        "services/save.rs",     // whether a file differs from what a save writes
    ];
    let mut wrong = Vec::new();
    for (rel, code) in code_of_files() {
        if rel.ends_with("/tests.rs") {
            continue;
        }
        // Unit tests build their fixtures as they like.
        let code = code.split("#[cfg(test)]").next().unwrap_or_default();
        if !door.contains(&rel.as_str()) {
            for pattern in document_readers {
                if code.contains(pattern) {
                    wrong.push(format!("{rel}: {pattern}"));
                }
            }
        }
        if rel != "map/scan.rs" && code.contains("load_scan(") {
            wrong.push(format!("{rel}: load_scan("));
        }
        if !bounded_readers.contains(&rel.as_str()) {
            for pattern in bounded {
                if code.contains(pattern) {
                    wrong.push(format!("{rel}: {pattern}"));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "files read outside the editor's door:\n{}",
        wrong.join("\n")
    );
}
