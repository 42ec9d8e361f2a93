//! The workspace's shape (issue 23), for every crate's `src/`, read from the source with `syn`:
//!
//! - **No import cycle between modules.** A file's dependencies are every path it names in code
//!   (`use` trees, expressions, types, and the arguments of macros that parse as expressions),
//!   written from the crate (`crate::a::b`) or relative to the file (`super::a`, `self::a`, a
//!   child module's name), followed through the re-exports (`use`) of the module they land in.
//!   A module is part of its ancestors, so using an ancestor or a descendant is no dependency;
//!   between two modules that are neither, the dependency is counted between their ancestors
//!   that are siblings (`print::charts` using `tiled::x` is `print → tiled`), and the siblings
//!   under each parent must form no cycle. Test modules (`#[cfg(test)]`) are left out.
//! - **No file over 600 lines without its reason at its top**: a `//!` line among the first 15
//!   lines that says `Longer than 600 lines` followed by why (the convention the editor started;
//!   README, "Layout").
//!
//! Today's offenders are listed below so the test lands green; the lists only shrink: an entry
//! that is no longer an offender fails the test until it is removed.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// Files over 600 lines that do not yet say why (issue 23: split along what they do).
const LONG_FILES_ALLOWED: &[&str] = &[];

/// Import cycles not yet broken: `crate's src: the sibling modules in the cycle, sorted`.
const CYCLES_ALLOWED: &[&str] = &[];

const MARKER: &str = "Longer than 600 lines";
const MAX_LINES: usize = 600;

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The workspace's members, read from the root `Cargo.toml` (`members = [".", "schema", …]`).
fn members() -> Vec<String> {
    let manifest = std::fs::read_to_string(workspace().join("Cargo.toml")).expect("Cargo.toml");
    let line = manifest
        .lines()
        .find(|l| l.trim_start().starts_with("members"))
        .expect("a members line");
    let list = line.split_once('[').expect("members = [").1;
    let list = list.split_once(']').expect("members on one line").0;
    let members: Vec<String> = list
        .split(',')
        .map(|m| m.trim().trim_matches('"').to_owned())
        .filter(|m| !m.is_empty())
        .collect();
    assert!(
        members.len() > 1,
        "members read from Cargo.toml: {members:?}"
    );
    members
}

/// Every crate's `src/` directory, as a path from the workspace root (`src`, `schema/src`).
fn source_dirs() -> Vec<String> {
    members()
        .iter()
        .map(|m| {
            if m == "." {
                "src".to_owned()
            } else {
                format!("{m}/src")
            }
        })
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

type Module = Vec<String>;

/// The module a file is: `[]` for `lib.rs`/`main.rs`, `[print, charts]` for `print/charts.rs`,
/// `[tools]` for `tools/mod.rs`.
fn module_of(src: &Path, file: &Path) -> Module {
    let rel = file
        .strip_prefix(src)
        .expect("under src")
        .with_extension("");
    let mut parts: Module = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    if parts.len() == 1 && (parts[0] == "lib" || parts[0] == "main") {
        parts.clear();
    }
    parts
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg")
            && attr
                .parse_args::<syn::Meta>()
                .is_ok_and(|meta| meta.path().is_ident("test"))
    })
}

/// What one file names: the paths it uses (made absolute where they are the crate's own) and
/// the names its top level imports (its re-exports, followed when another file goes through it).
struct FileReader<'a> {
    /// The module being read (the file's, then inline modules' inside it).
    current: Module,
    file_module: Module,
    /// Every module that is a file, to tell a child module's name from an outside crate's.
    modules: &'a BTreeSet<Module>,
    used: Vec<(Module, String)>,
    imports: BTreeMap<String, Module>,
    inline: BTreeSet<Module>,
}

impl FileReader<'_> {
    /// The path from the crate's root that `segments`, written in the current module, names; `None`
    /// when it is another crate's or a local name.
    fn absolute(&self, segments: &[String]) -> Option<Module> {
        let first = segments.first()?;
        match first.as_str() {
            "crate" => Some(segments[1..].to_vec()),
            "self" => Some([self.current.clone(), segments[1..].to_vec()].concat()),
            "super" => {
                let mut base = self.current.clone();
                let mut rest = segments;
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop();
                    rest = &rest[1..];
                }
                Some([base, rest.to_vec()].concat())
            }
            name => {
                let mut child = self.current.clone();
                child.push(name.to_owned());
                (self.modules.contains(&child) || self.inline.contains(&child))
                    .then(|| [self.current.clone(), segments.to_vec()].concat())
            }
        }
    }

    fn note(&mut self, segments: &[String]) {
        if let Some(path) = self.absolute(segments) {
            self.used.push((path, segments.join("::")));
        }
    }

    /// The `crate::`, `self::` and `super::` paths in tokens that are not parsed as code (an
    /// attribute's arguments, a macro's body). A string literal is text, but in an attribute it
    /// may be a path (serde's `deserialize_with = "crate::unique::deserialize"`).
    fn tokens(&mut self, mut cursor: syn::buffer::Cursor<'_>, attribute: bool) {
        while !cursor.eof() {
            if let Some((inside, _, _, next)) = cursor.any_group() {
                self.tokens(inside, attribute);
                cursor = next;
            } else if let Some((literal, next)) = cursor.literal() {
                let text = literal.to_string();
                let path = text.trim_matches('"');
                if attribute
                    && ["crate::", "self::", "super::"]
                        .iter()
                        .any(|p| path.starts_with(p))
                    && path
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == ':')
                {
                    let segments: Vec<String> = path.split("::").map(str::to_owned).collect();
                    self.note(&segments);
                }
                cursor = next;
            } else if let Some((ident, mut next)) = cursor.ident() {
                let first = ident.to_string();
                if matches!(first.as_str(), "crate" | "self" | "super") {
                    let mut segments = vec![first];
                    while let Some((a, after_a)) = next.punct()
                        && a.as_char() == ':'
                        && let Some((b, after_b)) = after_a.punct()
                        && b.as_char() == ':'
                        && let Some((segment, after)) = after_b.ident()
                    {
                        segments.push(segment.to_string());
                        next = after;
                    }
                    if segments.len() > 1 {
                        self.note(&segments);
                    }
                }
                cursor = next;
            } else if let Some((_, next)) = cursor.token_tree() {
                cursor = next;
            } else {
                break;
            }
        }
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree, top: bool) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree, top);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let name = n.ident.to_string();
                let full = if name == "self" {
                    prefix.clone()
                } else {
                    [prefix.clone(), vec![name.clone()]].concat()
                };
                let alias = if name == "self" {
                    prefix.last().cloned().unwrap_or_default()
                } else {
                    name
                };
                self.import(&full, alias, top);
            }
            syn::UseTree::Rename(r) => {
                let full = [prefix.clone(), vec![r.ident.to_string()]].concat();
                let full = if r.ident == "self" {
                    prefix.clone()
                } else {
                    full
                };
                self.import(&full, r.rename.to_string(), top);
            }
            syn::UseTree::Glob(_) => self.note(prefix),
            syn::UseTree::Group(g) => {
                for item in &g.items {
                    self.use_tree(prefix, item, top);
                }
            }
        }
    }

    fn import(&mut self, full: &[String], alias: String, top: bool) {
        if let Some(path) = self.absolute(full) {
            self.used.push((path.clone(), full.join("::")));
            if top {
                self.imports.insert(alias, path);
            }
        }
    }
}

impl<'ast> Visit<'ast> for FileReader<'_> {
    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if is_test_only(&item.attrs) {
            return;
        }
        if item.content.is_some() {
            self.current.push(item.ident.to_string());
            self.inline.insert(self.current.clone());
            syn::visit::visit_item_mod(self, item);
            self.current.pop();
        }
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        if !is_test_only(&item.attrs) {
            syn::visit::visit_item_fn(self, item);
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        let top = self.current == self.file_module;
        self.use_tree(&mut Vec::new(), &item.tree, top);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if segments.len() > 1 || segments.first().is_some_and(|s| s == "super") {
            self.note(&segments);
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_attribute(&mut self, attr: &'ast syn::Attribute) {
        if attr.path().is_ident("doc") {
            return; // a doc link is no dependency of the code
        }
        if let syn::Meta::List(list) = &attr.meta {
            let buffer = syn::buffer::TokenBuffer::new2(list.tokens.clone());
            self.tokens(buffer.begin(), true);
        }
        syn::visit::visit_attribute(self, attr);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        syn::visit::visit_macro(self, mac);
        let buffer = syn::buffer::TokenBuffer::new2(mac.tokens.clone());
        self.tokens(buffer.begin(), false);
        let args = mac.parse_body_with(
            syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated,
        );
        if let Ok(args) = args {
            for arg in &args {
                self.visit_expr(arg);
            }
        }
    }
}

/// One crate's modules and what each file uses.
struct Crate {
    files: Vec<(PathBuf, Module)>,
    /// For each file module: the paths it names (absolute) and how it wrote them.
    used: BTreeMap<Module, Vec<(Module, String)>>,
    imports: BTreeMap<Module, BTreeMap<String, Module>>,
    modules: BTreeSet<Module>,
}

fn read_crate(src: &Path) -> Crate {
    let mut paths = Vec::new();
    rust_files(src, &mut paths);
    let files: Vec<(PathBuf, Module)> = paths
        .into_iter()
        .map(|f| {
            let m = module_of(src, &f);
            (f, m)
        })
        .collect();
    let modules: BTreeSet<Module> = files.iter().map(|(_, m)| m.clone()).collect();
    let mut used = BTreeMap::new();
    let mut imports = BTreeMap::new();
    for (file, module) in &files {
        let text = std::fs::read_to_string(file).expect("readable");
        let syntax = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let mut reader = FileReader {
            current: module.clone(),
            file_module: module.clone(),
            modules: &modules,
            used: Vec::new(),
            imports: BTreeMap::new(),
            inline: BTreeSet::new(),
        };
        reader.visit_file(&syntax);
        used.insert(module.clone(), reader.used);
        imports.insert(module.clone(), reader.imports);
    }
    Crate {
        files,
        used,
        imports,
        modules,
    }
}

impl Crate {
    /// The file module an absolute path lands in, through the re-exports on its way.
    fn target(&self, path: &[String], depth: usize) -> Module {
        let k = (0..=path.len())
            .rev()
            .find(|&k| self.modules.contains(&path[..k]))
            .unwrap_or(0);
        let module = path[..k].to_vec();
        if depth < 8
            && let Some(name) = path.get(k)
            && let Some(to) = self.imports.get(&module).and_then(|i| i.get(name))
        {
            let through = [to.clone(), path[k + 1..].to_vec()].concat();
            return self.target(&through, depth + 1);
        }
        module
    }

    /// For each parent module, the dependencies between its children (sibling → sibling, with
    /// the file and path that make each).
    fn sibling_graphs(&self) -> BTreeMap<Module, BTreeMap<String, BTreeMap<String, String>>> {
        let mut graphs: BTreeMap<Module, BTreeMap<String, BTreeMap<String, String>>> =
            BTreeMap::new();
        for (from, uses) in &self.used {
            for (path, written) in uses {
                let to = self.target(path, 0);
                let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
                if common == from.len() || common == to.len() {
                    continue; // an ancestor or a descendant: part of the same module
                }
                let parent = from[..common].to_vec();
                let a = from[..=common].join("::");
                let b = to[..=common].join("::");
                graphs
                    .entry(parent)
                    .or_default()
                    .entry(a)
                    .or_default()
                    .entry(b)
                    .or_insert_with(|| format!("{} names {written}", from.join("::")));
            }
        }
        graphs
    }
}

/// The strongly connected components of more than one node (Tarjan).
fn cycles(graph: &BTreeMap<String, BTreeMap<String, String>>) -> Vec<Vec<String>> {
    struct Tarjan<'g> {
        graph: &'g BTreeMap<String, BTreeMap<String, String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        out: Vec<Vec<String>>,
    }
    impl<'g> Tarjan<'g> {
        fn visit(&mut self, node: &'g str) {
            let i = self.index.len();
            self.index.insert(node, i);
            self.low.insert(node, i);
            self.stack.push(node);
            self.on_stack.insert(node);
            for next in self.graph.get(node).into_iter().flat_map(|n| n.keys()) {
                let next = next.as_str();
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[node].min(self.low[next]);
                    self.low.insert(node, low);
                } else if self.on_stack.contains(next) {
                    let low = self.low[node].min(self.index[next]);
                    self.low.insert(node, low);
                }
            }
            if self.low[node] == self.index[node] {
                let mut component = Vec::new();
                while let Some(n) = self.stack.pop() {
                    self.on_stack.remove(n);
                    component.push(n.to_owned());
                    if n == node {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.out.push(component);
                }
            }
        }
    }
    let mut tarjan = Tarjan {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for node in graph.keys() {
        if !tarjan.index.contains_key(node.as_str()) {
            tarjan.visit(node);
        }
    }
    tarjan.out
}

/// Every cycle in the workspace, as `crate's src: modules` with the edges that make it.
fn workspace_cycles() -> BTreeMap<String, Vec<String>> {
    let mut found = BTreeMap::new();
    for dir in source_dirs() {
        let krate = read_crate(&workspace().join(&dir));
        for graph in krate.sibling_graphs().values() {
            for component in cycles(graph) {
                let key = format!("{dir}: {}", component.join(" ↔ "));
                let mut edges = Vec::new();
                for a in &component {
                    for (b, why) in graph.get(a).into_iter().flatten() {
                        if component.contains(b) {
                            edges.push(format!("  {a} → {b} ({why})"));
                        }
                    }
                }
                found.insert(key, edges);
            }
        }
        assert!(
            !krate.files.is_empty(),
            "{dir} has no Rust file: is the members list read right?"
        );
    }
    found
}

/// Files over the limit without their reason, as paths from the workspace root.
fn unexplained_long_files() -> BTreeMap<String, usize> {
    let mut long = BTreeMap::new();
    for dir in source_dirs() {
        let mut files = Vec::new();
        rust_files(&workspace().join(&dir), &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).expect("readable");
            let lines = text.lines().count();
            if lines > MAX_LINES && !states_its_length(&text) {
                let rel = file
                    .strip_prefix(workspace())
                    .expect("under the workspace")
                    .to_string_lossy()
                    .replace('\\', "/");
                long.insert(rel, lines);
            }
        }
    }
    long
}

/// A `//!` line among the first 15 that says `Longer than 600 lines`, then at least a few words
/// of why.
fn states_its_length(text: &str) -> bool {
    text.lines().take(15).any(|line| {
        line.trim_start().starts_with("//!")
            && line.split_once(MARKER).is_some_and(|(_, why)| {
                why.trim_start_matches(|c: char| !c.is_alphabetic()).len() >= 10
            })
    })
}

#[test]
fn no_crate_has_an_import_cycle_between_its_modules() {
    let found = workspace_cycles();
    let mut problems = Vec::new();
    for (cycle, edges) in &found {
        if !CYCLES_ALLOWED.contains(&cycle.as_str()) {
            problems.push(format!("an import cycle in {cycle}:\n{}", edges.join("\n")));
        }
    }
    for allowed in CYCLES_ALLOWED {
        if !found.contains_key(*allowed) {
            problems.push(format!(
                "{allowed} is no longer a cycle: remove it from CYCLES_ALLOWED"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn no_file_is_over_600_lines_without_its_reason_at_its_top() {
    let long = unexplained_long_files();
    let mut problems = Vec::new();
    for (file, lines) in &long {
        if !LONG_FILES_ALLOWED.contains(&file.as_str()) {
            problems.push(format!(
                "{file} has {lines} lines: split it along what it does, or say at its top \
                 `//! {MARKER}: <why>`"
            ));
        }
    }
    for allowed in LONG_FILES_ALLOWED {
        if !long.contains_key(*allowed) {
            problems.push(format!(
                "{allowed} is no longer an unexplained long file: remove it from \
                 LONG_FILES_ALLOWED"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The reader finds what it must: a known cycle shape written with relative paths, through a
/// re-export and inside a macro, and leaves an ancestor, a test module and a comment alone.
#[test]
fn the_reader_sees_relative_paths_re_exports_and_macros() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let src = dir.path();
    let write = |name: &str, text: &str| {
        let path = src.join(name);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    };
    write(
        "lib.rs",
        "mod a; mod b; mod c; mod d; mod e; pub use c::Thing;\n",
    );
    // e → a in an attribute's arguments, a → e in a doc link (no dependency): no cycle.
    write(
        "e.rs",
        "#[derive(Default)]\npub struct E {\n    #[serde(default = \"crate::b::zero\", skip_serializing_if = crate::a::is)]\n    v: u8,\n}\n",
    );
    // a → b through `super::`, b → a inside a macro: one cycle.
    write(
        "a.rs",
        "use super::b::Bee;\n/// Read by [`crate::e::E`].\npub fn f() {}\npub fn is() {}\n",
    );
    write(
        "b.rs",
        "pub struct Bee;\nfn g() { println!(\"crate::e::E {:?}\", crate::a::f()); }\n",
    );
    // c → d directly; d → c only through the root's re-export of c's `Thing`: a cycle found
    // by following the re-export (and c's inline module is c's own).
    write(
        "c.rs",
        "pub struct Thing;\nfn h() { self::inner::x(); super::d::y(); }\nmod inner { pub fn x() {} }\n",
    );
    write(
        "d.rs",
        "// crate::a::f in a comment is no dependency\npub fn y() { let _ = crate::Thing; }\n#[cfg(test)]\nmod tests { use super::super::a::f; }\n",
    );
    let krate = read_crate(src);
    let graphs = krate.sibling_graphs();
    let root = graphs.get(&Vec::new()).expect("the root's children");
    let mut found = cycles(root);
    found.sort();
    assert_eq!(
        found,
        vec![
            vec!["a".to_owned(), "b".to_owned()],
            vec!["c".to_owned(), "d".to_owned()]
        ],
        "{root:?}"
    );
    assert!(
        !root.get("d").is_some_and(|to| to.contains_key("a")),
        "the comment and the test module are no dependency: {root:?}"
    );
    assert!(
        root.get("e").is_some_and(|to| to.contains_key("a")),
        "an attribute's path is a dependency: {root:?}"
    );
    assert!(
        root.get("e").is_some_and(|to| to.contains_key("b")),
        "an attribute's path in a string is a dependency: {root:?}"
    );
    assert!(
        !root.get("a").is_some_and(|to| to.contains_key("e")),
        "a doc link is none: {root:?}"
    );
    assert!(
        !root.get("b").is_some_and(|to| to.contains_key("e")),
        "a macro's string is none: {root:?}"
    );
}

#[test]
fn the_length_marker_needs_a_reason() {
    assert!(states_its_length(
        "//! What it owns.\n//! Longer than 600 lines: the three tabs follow one pattern.\n"
    ));
    assert!(!states_its_length("//! Longer than 600 lines.\n"));
    assert!(!states_its_length(
        "// Longer than 600 lines: a plain comment is not the module's doc.\n"
    ));
}
