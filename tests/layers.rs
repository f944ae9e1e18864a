//! Every crate's modules form layers: no file reaches, through the others, back to itself, and
//! no top-level module of a crate does either. A file depends on another when its code (tests
//! left out) names something the other defines — through `use`, a path in its code, or a
//! macro's arguments; a `pub use` is a name passed on, not a dependency, so a path is followed
//! through re-exports to where its item is defined.
//!
//! The live table's faces (the app, the web server, the hub, the remote camera, the report,
//! the subcommands) each use the engine (`vedette-live`) and never one another.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// A module's path inside its crate: `[]` for the crate root, `["lens", "fit"]` for
/// `lens/fit.rs`.
type ModulePath = Vec<String>;

/// One crate's source files, by module path.
struct Crate {
    /// The directory of `lib.rs`, for messages.
    root: PathBuf,
    files: BTreeMap<ModulePath, syn::File>,
}

impl Crate {
    /// Reads every `.rs` file under `root` (a crate's `src`), `main.rs` and `bin/` left out.
    fn read(root: &Path) -> Crate {
        let mut files = BTreeMap::new();
        let mut pending = vec![root.to_path_buf()];
        while let Some(dir) = pending.pop() {
            for entry in std::fs::read_dir(&dir).expect("a source directory reads") {
                let path = entry.expect("an entry").path();
                if path.is_dir() {
                    pending.push(path);
                } else if let Some(module) = module_path(root, &path) {
                    let text = std::fs::read_to_string(&path).expect("a source file");
                    let file = syn::parse_file(&text)
                        .unwrap_or_else(|e| panic!("{} does not parse: {e}", path.display()));
                    files.insert(module, file);
                }
            }
        }
        Crate {
            root: root.to_path_buf(),
            files,
        }
    }

    /// The file a path names, from the module `from`: the module it reaches and, if it goes on
    /// to an item, the file that defines the item (through re-exports).
    fn resolve(&self, from: &ModulePath, path: &[String], depth: usize) -> Option<ModulePath> {
        let (mut at, rest) = self.start(from, path)?;
        let mut rest = rest.iter();
        for segment in rest.by_ref() {
            let mut deeper = at.clone();
            deeper.push(segment.clone());
            if self.files.contains_key(&deeper) {
                at = deeper;
                continue;
            }
            return Some(self.defined_at(&at, segment, depth).unwrap_or(at));
        }
        Some(at)
    }

    /// The file that defines the item a path names, or `None` when the path reaches no item
    /// of this crate (a local name, another crate's, or a module: a local variable that a
    /// glob's module happens to share a name with).
    fn resolve_item(&self, from: &ModulePath, path: &[String]) -> Option<ModulePath> {
        let (mut at, rest) = self.start(from, path)?;
        for segment in rest {
            let mut deeper = at.clone();
            deeper.push(segment.clone());
            if !self.files.contains_key(&deeper) {
                return self.defined_at(&at, segment, 0);
            }
            at = deeper;
        }
        None
    }

    /// Where `name`, reached as an item of module `at`, is defined: `at` itself, or wherever
    /// a `use` of `at` sends it.
    fn defined_at(&self, at: &ModulePath, name: &str, depth: usize) -> Option<ModulePath> {
        let file = self.files.get(at)?;
        if depth > 8 || defines(file, name) {
            return Some(at.clone());
        }
        for (exported, target) in brought_in(file) {
            if exported.as_deref() == Some(name) {
                return self.resolve(at, &target, depth + 1);
            }
            let glob = exported.is_none();
            if let Some(found) = glob
                .then(|| self.resolve(at, &target, depth + 1))
                .flatten()
                .and_then(|module| self.defined_at(&module, name, depth + 1))
            {
                return Some(found);
            }
        }
        None
    }

    /// Where a path inside the crate starts (`crate`, `super`, `self`, or a module declared
    /// in `from`) and what follows; `None` for a path into another crate or a local name.
    fn start<'p>(
        &self,
        from: &ModulePath,
        path: &'p [String],
    ) -> Option<(ModulePath, &'p [String])> {
        let first = path.first()?;
        match first.as_str() {
            "crate" => Some((Vec::new(), &path[1..])),
            "self" => Some((from.clone(), &path[1..])),
            "super" => {
                let mut at = from.clone();
                let mut rest = path;
                while rest.first().is_some_and(|s| s == "super") {
                    at.pop()?;
                    rest = &rest[1..];
                }
                Some((at, rest))
            }
            child => {
                let mut at = from.clone();
                at.push(child.to_owned());
                self.files.contains_key(&at).then_some((at, &path[1..]))
            }
        }
    }

    /// Each file, the files its code depends on and, for each, the first path that says so.
    fn imports(&self) -> BTreeMap<ModulePath, BTreeMap<ModulePath, String>> {
        let mut imports = BTreeMap::new();
        for (module, file) in &self.files {
            let mut paths = Paths::default();
            for item in file.items.iter().filter(|item| !is_test(item)) {
                paths.visit_item(item);
            }
            let mut used = BTreeMap::new();
            let mut depend = |path: &[String], target: Option<ModulePath>| {
                if let Some(target) = target.filter(|t| t != module) {
                    used.entry(target).or_insert_with(|| path.join("::"));
                }
            };
            let globs = paths.globs();
            for path in paths.used() {
                depend(&path, self.resolve(module, &path, 0));
                // A name a glob brought in counts as a use of the file that defines it.
                for glob in globs.iter().filter(|_| !paths.imports(&path[0])) {
                    let through: Vec<String> = glob.iter().chain(&path).cloned().collect();
                    depend(&through, self.resolve_item(module, &through));
                }
            }
            for path in &paths.implemented {
                let target = self.resolve(module, &paths.named(path), 0);
                // `impl Profile` in the file of one of the profile's tables is that type's
                // definition, spread over the files of its parts, not a use of it.
                let ancestor = target.as_ref().is_some_and(|t| module.starts_with(t));
                if !ancestor {
                    depend(path, target);
                }
            }
            imports.insert(module.clone(), used);
        }
        imports
    }

    /// A module path as the file it is, for messages.
    fn file_name(&self, module: &ModulePath) -> String {
        if module.is_empty() {
            return "lib.rs".to_owned();
        }
        let joined = module.join("/");
        if self.root.join(format!("{joined}/mod.rs")).exists() {
            format!("{joined}/mod.rs")
        } else {
            format!("{joined}.rs")
        }
    }
}

/// The module path of a source file, or `None` for what is not one: not Rust, a binary's
/// `main.rs` and `bin/`.
fn module_path(root: &Path, path: &Path) -> Option<ModulePath> {
    if path.extension().is_none_or(|e| e != "rs") {
        return None;
    }
    let relative = path.strip_prefix(root).ok()?;
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.first().is_some_and(|p| p == "bin") || parts == ["main.rs"] {
        return None;
    }
    let last = parts.pop()?;
    match last.as_str() {
        "lib.rs" | "mod.rs" => {}
        other => parts.push(other.trim_end_matches(".rs").to_owned()),
    }
    Some(parts)
}

/// Whether an item is compiled only for tests (`#[cfg(test)]`).
fn is_test(item: &syn::Item) -> bool {
    let attrs = match item {
        syn::Item::Mod(m) => &m.attrs,
        syn::Item::Fn(f) => &f.attrs,
        syn::Item::Use(u) => &u.attrs,
        syn::Item::Impl(i) => &i.attrs,
        _ => return false,
    };
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.meta
                .require_list()
                .is_ok_and(|l| l.tokens.to_string() == "test")
    })
}

/// Whether a file defines an item called `name` at its top level.
fn defines(file: &syn::File, name: &str) -> bool {
    file.items.iter().any(|item| {
        let ident = match item {
            syn::Item::Struct(i) => &i.ident,
            syn::Item::Enum(i) => &i.ident,
            syn::Item::Fn(i) => &i.sig.ident,
            syn::Item::Trait(i) => &i.ident,
            syn::Item::Type(i) => &i.ident,
            syn::Item::Const(i) => &i.ident,
            syn::Item::Static(i) => &i.ident,
            syn::Item::Union(i) => &i.ident,
            syn::Item::Mod(i) => &i.ident,
            syn::Item::Macro(i) => match &i.ident {
                Some(ident) => ident,
                None => return false,
            },
            _ => return false,
        };
        ident == name
    })
}

/// A file's `use`s, each name it brings in (`None` for a glob) and the path it names: a `pub
/// use` passes the name on, and a private one is seen by the file's child modules (through
/// `super::` or a glob) all the same.
fn brought_in(file: &syn::File) -> Vec<(Option<String>, Vec<String>)> {
    let mut found = Vec::new();
    for item in file.items.iter().filter(|item| !is_test(item)) {
        if let syn::Item::Use(u) = item {
            use_tree(&u.tree, &mut Vec::new(), &mut found);
        }
    }
    found
}

/// Expands a use tree into each name it brings in and the full path it names.
fn use_tree(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    into: &mut Vec<(Option<String>, Vec<String>)>,
) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_tree(&p.tree, prefix, into);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            let mut path = prefix.clone();
            let exported = if name == "self" {
                prefix.last().cloned()
            } else {
                path.push(name.clone());
                Some(name)
            };
            into.push((exported, path));
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix.clone();
            path.push(r.ident.to_string());
            into.push((Some(r.rename.to_string()), path));
        }
        syn::UseTree::Glob(_) => into.push((None, prefix.clone())),
        syn::UseTree::Group(g) => {
            for tree in &g.items {
                use_tree(tree, prefix, into);
            }
        }
    }
}

/// What a file's code names: the names its `use`s bring in, the paths in its code and its
/// macros' arguments, and the types it writes `impl` blocks of.
#[derive(Default)]
struct Paths {
    /// Each name a `use` brings in (`None` for a glob) and the path it stands for.
    imported: Vec<(Option<String>, Vec<String>)>,
    /// The paths written in the code.
    written: Vec<Vec<String>>,
    /// The self types of inherent `impl` blocks.
    implemented: Vec<Vec<String>>,
}

impl Paths {
    /// A written path with its first name replaced by what a `use` brought in under it.
    fn named(&self, path: &[String]) -> Vec<String> {
        let Some(first) = path.first() else {
            return Vec::new();
        };
        let imported = self
            .imported
            .iter()
            .find(|(name, _)| name.as_ref() == Some(first));
        match imported {
            Some((_, full)) => full.iter().chain(&path[1..]).cloned().collect(),
            None => path.to_vec(),
        }
    }

    /// Every path the code uses, its names followed through the file's `use`s; a `use` whose
    /// name the code never writes counts not at all (a `pub use` that only passes a name on).
    fn used(&self) -> Vec<Vec<String>> {
        self.written
            .iter()
            .map(|p| self.named(p))
            .filter(|p| !p.is_empty())
            .collect()
    }

    /// The modules the file's glob `use`s bring in whole.
    fn globs(&self) -> Vec<Vec<String>> {
        self.imported
            .iter()
            .filter(|(name, _)| name.is_none())
            .map(|(_, path)| path.clone())
            .collect()
    }

    /// Whether a `use` of the file brings in `name` by name.
    fn imports(&self, name: &str) -> bool {
        self.imported
            .iter()
            .any(|(imported, _)| imported.as_deref() == Some(name))
    }
}

impl<'ast> Visit<'ast> for Paths {
    fn visit_item_use(&mut self, node: &'ast syn::ItemUse) {
        use_tree(&node.tree, &mut Vec::new(), &mut self.imported);
    }

    fn visit_item_mod(&mut self, node: &'ast syn::ItemMod) {
        let test = node.attrs.iter().any(|a| {
            a.path().is_ident("cfg")
                && a.meta
                    .require_list()
                    .is_ok_and(|l| l.tokens.to_string() == "test")
        });
        if !test {
            syn::visit::visit_item_mod(self, node);
        }
    }

    fn visit_item_impl(&mut self, node: &'ast syn::ItemImpl) {
        match (&node.trait_, &*node.self_ty) {
            (None, syn::Type::Path(self_type)) => {
                let path = &self_type.path;
                self.implemented
                    .push(path.segments.iter().map(|s| s.ident.to_string()).collect());
                for segment in &path.segments {
                    self.visit_path_arguments(&segment.arguments);
                }
                for item in &node.items {
                    self.visit_impl_item(item);
                }
            }
            _ => syn::visit::visit_item_impl(self, node),
        }
    }

    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {
        // `#[doc]`, `#[derive]`, `#[serde(...)]`: nothing of the crate's own.
    }

    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {
        // `pub(crate)`, `pub(super)`: who may see an item, not what it uses.
    }

    fn visit_path(&mut self, node: &'ast syn::Path) {
        self.written
            .push(node.segments.iter().map(|s| s.ident.to_string()).collect());
        syn::visit::visit_path(self, node);
    }

    fn visit_macro(&mut self, node: &'ast syn::Macro) {
        self.written.extend(token_paths(node.tokens.clone()));
        syn::visit::visit_macro(self, node);
    }
}

/// The paths (`a::b::c`) in a macro's tokens.
fn token_paths(tokens: proc_macro2::TokenStream) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut current: Vec<String> = Vec::new();
    let mut colons = 0;
    for token in tokens {
        match token {
            proc_macro2::TokenTree::Ident(ident) => {
                if colons != 2 && !current.is_empty() {
                    found.push(std::mem::take(&mut current));
                }
                current.push(ident.to_string());
                colons = 0;
            }
            proc_macro2::TokenTree::Punct(p) if p.as_char() == ':' => colons += 1,
            other => {
                if let proc_macro2::TokenTree::Group(group) = other {
                    found.extend(token_paths(group.stream()));
                }
                found.extend((!current.is_empty()).then(|| std::mem::take(&mut current)));
                colons = 0;
            }
        }
    }
    found.extend((!current.is_empty()).then_some(current));
    found
}

/// The strongly connected parts of a graph with more than one member: each is a circle of
/// imports (Tarjan's algorithm).
fn circles<N: Ord + Clone>(graph: &BTreeMap<N, BTreeSet<N>>) -> Vec<Vec<N>> {
    struct Walk<'g, N> {
        graph: &'g BTreeMap<N, BTreeSet<N>>,
        index: BTreeMap<N, usize>,
        low: BTreeMap<N, usize>,
        stack: Vec<N>,
        on_stack: BTreeSet<N>,
        found: Vec<Vec<N>>,
    }
    impl<N: Ord + Clone> Walk<'_, N> {
        fn visit(&mut self, node: &N) {
            let at = self.index.len();
            self.index.insert(node.clone(), at);
            self.low.insert(node.clone(), at);
            self.stack.push(node.clone());
            self.on_stack.insert(node.clone());
            for next in self.graph.get(node).into_iter().flatten() {
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[node].min(self.low[next]);
                    self.low.insert(node.clone(), low);
                } else if self.on_stack.contains(next) {
                    let low = self.low[node].min(self.index[next]);
                    self.low.insert(node.clone(), low);
                }
            }
            if self.low[node] == self.index[node] {
                let mut part = Vec::new();
                while let Some(member) = self.stack.pop() {
                    self.on_stack.remove(&member);
                    let done = &member == node;
                    part.push(member);
                    if done {
                        break;
                    }
                }
                if part.len() > 1 {
                    part.sort();
                    self.found.push(part);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !walk.index.contains_key(node) {
            walk.visit(node);
        }
    }
    walk.found
}

/// The same graph, each file counted as its top-level module.
fn top_level(
    graph: &BTreeMap<ModulePath, BTreeSet<ModulePath>>,
) -> BTreeMap<String, BTreeSet<String>> {
    let top = |m: &ModulePath| m.first().cloned().unwrap_or_else(|| "lib".to_owned());
    let mut modules: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, to) in graph {
        let uses = modules.entry(top(from)).or_default();
        uses.extend(to.iter().map(top).filter(|t| *t != top(from) && t != "lib"));
    }
    modules
}

/// The import circles of the crate whose sources are in `dir` (from the workspace's root),
/// each with the imports that close it.
fn circles_in(dir: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(dir)
        .join("src");
    let krate = Crate::read(&root);
    assert!(krate.files.len() > 3, "{} has its sources", root.display());
    let imports = krate.imports();
    let graph = imports
        .iter()
        .map(|(from, to)| (from.clone(), to.keys().cloned().collect()))
        .collect();
    let mut report = Vec::new();
    for circle in circles(&graph) {
        let names: Vec<String> = circle.iter().map(|m| krate.file_name(m)).collect();
        report.push(format!("{dir}: {}", names.join(" ↔ ")));
        for from in &circle {
            for (to, path) in &imports[from] {
                if circle.contains(to) {
                    let (from, to) = (krate.file_name(from), krate.file_name(to));
                    report.push(format!("    {from} → {to} ({path})"));
                }
            }
        }
    }
    let top = |m: &ModulePath| m.first().cloned().unwrap_or_else(|| "lib".to_owned());
    for circle in circles(&top_level(&graph)) {
        report.push(format!("{dir} (top-level modules): {}", circle.join(" ↔ ")));
        for (from, to, path) in imports
            .iter()
            .flat_map(|(from, to)| to.iter().map(move |(to, path)| (from, to, path)))
        {
            let (a, b) = (top(from), top(to));
            if a != b && circle.contains(&a) && circle.contains(&b) {
                let (from, to) = (krate.file_name(from), krate.file_name(to));
                report.push(format!("    {from} → {to} ({path})"));
            }
        }
    }
    report
}

/// Fails with every circle of the crate in `dir`, and the imports that close it.
fn assert_no_circles(dir: &str) {
    let found = circles_in(dir);
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

#[test]
fn no_file_of_the_rules_reaches_back_to_itself() {
    assert_no_circles("rules");
}

#[test]
fn no_file_of_the_roster_reaches_back_to_itself() {
    assert_no_circles("vision/roster");
}

#[test]
fn no_file_of_the_record_reaches_back_to_itself() {
    assert_no_circles("ui/record");
}

#[test]
fn a_circle_is_found_and_named() {
    // Two files of a made-up crate that use each other, and a third that uses them both.
    let file = |text: &str| syn::parse_file(text).expect("parses");
    let krate = Crate {
        root: PathBuf::from("made-up/src"),
        files: BTreeMap::from([
            (vec![], file("mod a; mod b; mod c;")),
            (vec!["a".into()], file("use crate::b::B; pub struct A(B);")),
            (
                vec!["b".into()],
                file("pub struct B; impl B { fn a() -> super::a::A { todo!() } }"),
            ),
            (
                vec!["c".into()],
                file("use crate::{a::A, b::B}; pub fn c(_: A, _: B) {}"),
            ),
        ]),
    };
    let imports = krate.imports();
    let graph = imports
        .iter()
        .map(|(from, to)| (from.clone(), to.keys().cloned().collect()))
        .collect();
    assert_eq!(
        circles(&graph),
        vec![vec![vec!["a".to_owned()], vec!["b".to_owned()]]]
    );
}

#[test]
fn no_file_of_the_calibration_reaches_back_to_itself() {
    assert_no_circles("calibration");
}

#[test]
fn no_file_of_the_vision_reaches_back_to_itself() {
    assert_no_circles("vision");
}

#[test]
fn no_file_of_the_live_table_reaches_back_to_itself() {
    assert_no_circles("ui/live");
}

#[test]
fn no_file_of_the_app_and_commands_reaches_back_to_itself() {
    assert_no_circles("ui");
}

/// The faces over the live table, each a top-level module of `ui`: the app, the web server, the
/// hall's hub, `vedette camera`, the battle report and the other subcommands. None imports
/// another.
const FACES: [&str; 6] = ["app", "serve", "hub", "camera", "report", "commands"];

/// What the faces share, below them all: arguments, progress bars, the web plumbing.
const SHARED: [&str; 3] = ["args", "progress", "web"];

/// Every import from a face into another face, or from the shared layer into a face.
fn face_crossings(krate: &Crate) -> Vec<String> {
    let top = |m: &ModulePath| m.first().cloned().unwrap_or_default();
    let mut found = Vec::new();
    for (from, to) in krate.imports() {
        let importer = top(&from);
        let below_faces = SHARED.contains(&importer.as_str());
        if !FACES.contains(&importer.as_str()) && !below_faces {
            continue;
        }
        for (to, path) in to {
            let imported = top(&to);
            if imported != importer && FACES.contains(&imported.as_str()) {
                let (a, b) = (krate.file_name(&from), krate.file_name(&to));
                found.push(format!("{a} → {b} ({path})"));
            }
        }
    }
    found
}

#[test]
fn no_face_of_the_live_table_imports_another() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ui/src");
    let krate = Crate::read(&root);
    for module in FACES.iter().chain(&SHARED) {
        assert!(
            krate
                .files
                .keys()
                .any(|m| m.first().map(String::as_str) == Some(*module)),
            "ui/src has no module {module}: update FACES and SHARED with the layers"
        );
    }
    let found = face_crossings(&krate);
    assert!(
        found.is_empty(),
        "faces importing faces:\n{}",
        found.join("\n")
    );
}

#[test]
fn a_face_importing_another_is_found() {
    let file = |text: &str| syn::parse_file(text).expect("parses");
    let krate = Crate {
        root: PathBuf::from("made-up/src"),
        files: BTreeMap::from([
            (vec![], file("mod app; mod serve; mod web; mod bench;")),
            (vec!["web".into()], file("pub struct Links;")),
            (
                vec!["serve".into()],
                file("use crate::web::Links; pub struct Server(Links);"),
            ),
            (
                vec!["app".into()],
                file("pub fn share(_: crate::serve::Server) {}"),
            ),
            (
                vec!["bench".into()],
                file("use crate::{app::share, serve::Server};"),
            ),
        ]),
    };
    assert_eq!(
        face_crossings(&krate),
        vec!["app.rs → serve.rs (crate::serve::Server)".to_owned()]
    );
}

#[test]
fn the_live_table_has_no_window_and_no_web_server() {
    let manifest = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../ui/live/Cargo.toml"),
    )
    .expect("ui/live/Cargo.toml");
    for face in ["egui", "eframe", "winit", "axum", "vedette-ui"] {
        let named = manifest.lines().any(|line| {
            let name = line.split(['=', '.', ' ']).next().unwrap_or_default();
            name == face
        });
        assert!(!named, "the live table depends on {face}: a face's crate");
    }
}

#[test]
fn a_glob_import_counts_the_files_of_the_names_it_brings() {
    // Children of `p` that glob-import their parent, which brings in `A` privately and passes
    // `B` on: `a` and `b` use each other through it; `c` only has a local named like `a`.
    let file = |text: &str| syn::parse_file(text).expect("parses");
    let p = |child: &str| vec!["p".to_owned(), child.to_owned()];
    let krate = Crate {
        root: PathBuf::from("made-up/src"),
        files: BTreeMap::from([
            (vec![], file("mod p;")),
            (
                vec!["p".into()],
                file("mod a; mod b; mod c; use a::A; pub use b::B;"),
            ),
            (p("a"), file("use super::*; pub struct A; fn f(_: B) {}")),
            (p("b"), file("use super::*; pub struct B; fn g(_: A) {}")),
            (p("c"), file("use super::*; fn h() { let a = 2; drop(a); }")),
        ]),
    };
    let imports = krate.imports();
    let graph = imports
        .iter()
        .map(|(from, to)| (from.clone(), to.keys().cloned().collect()))
        .collect();
    assert_eq!(circles(&graph), vec![vec![p("a"), p("b")]]);
    assert!(imports[&p("c")].is_empty(), "{:?}", imports[&p("c")]);
}
