//! The layering of the code (shared guide and README, "Layout of the code"), checked on the parsed source:
//! dependencies point down the layers (cli -> app -> export, templates, samples -> analysis, edit -> topology,
//! catalog -> io -> model) and no two modules need each other, directly or through others, anywhere in `src/`
//! (inside `src/app/` and the command line's `src/cli/` too).
//!
//! Each file is parsed with `syn`. Every item under `#[cfg(test)]` (a test module, a test helper, an oracle file
//! declared `#[cfg(test)] mod oracles;`) is left out, and everything else is read, wherever it stands in the file: a
//! module's dependencies are the `crate::` and `super::` paths in its production items (in `use` trees, types,
//! expressions, patterns and macro bodies). A module and its own submodules are one unit (a child may use its
//! parent's items and a parent declares its children), so only paths between modules that do not contain each
//! other count.
//!
//! Inside `src/app/`, the modules below the shell (windows, panels, the canvas, state) never import the app's root
//! module ([`APP_SHELL`] lists the shell's). Sizes: no function in `src/` over 150 lines and no file over 1,000
//! lines of production code, except those in [`LONG_FUNCTIONS`], each with its reason. The single-match
//! dispatchers that stay long: `edit::Edit::apply_unchecked` (an arm per edit variant, each returning its
//! inverse), `main.rs`'s `run` (an arm per subcommand), `io::limits::check_params` and
//! `io::limits::part::check_part` (one range check per figure, a table). Nothing else is listed: a new long
//! function or file fails the test.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use petgraph::algo::tarjan_scc;
use petgraph::graph::DiGraph;
use proc_macro2::{TokenStream, TokenTree};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use syn::visit::Visit;

/// A module path, e.g. `["analysis", "power"]`; the crate root is empty.
type ModPath = Vec<String>;

/// One use of another module: the module path as written (resolved against the using module), and the line.
#[derive(Debug, Clone)]
struct Use {
    path: ModPath,
    line: usize,
}

/// One parsed source file of the library.
struct Module {
    /// Production paths used, resolved to absolute module paths (not yet cut to an existing module).
    uses: Vec<Use>,
    /// Child file modules this file declares only for tests (`#[cfg(test)] mod oracles;`).
    test_children: Vec<String>,
    /// The file, for messages.
    file: String,
}

/// Whether an attribute list holds `#[cfg(test)]` or a `cfg` that needs `test` (`all(test, ...)`), not
/// `not(test)`.
fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        if !a.path().is_ident("cfg") {
            return false;
        }
        let Ok(list) = a.meta.require_list() else {
            return false;
        };
        needs_test(list.tokens.clone())
    })
}

/// Whether a cfg predicate is true only under test: `test`, or `all(...)` with such a part.
fn needs_test(tokens: TokenStream) -> bool {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    match trees.as_slice() {
        [TokenTree::Ident(i)] => i == "test",
        [TokenTree::Ident(i), TokenTree::Group(g)] if i == "all" => g
            .stream()
            .into_iter()
            .collect::<Vec<_>>()
            .split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
            .any(|part| needs_test(part.iter().cloned().collect())),
        _ => false,
    }
}

/// Collects the `crate::`/`super::` paths of production items, tracking inline modules for `super`.
struct Reader {
    /// The module whose code is being read (the file's module, then any inline module inside it).
    here: ModPath,
    out: Vec<Use>,
    test_children: Vec<String>,
}

impl Reader {
    /// The absolute module path of `segments` written in the current module, if it starts with `crate` or
    /// `super` (other paths are local names, external crates or the standard library).
    fn resolve(&self, segments: &[String]) -> Option<ModPath> {
        let (head, rest) = segments.split_first()?;
        let mut base = match head.as_str() {
            "crate" => Vec::new(),
            "super" => {
                // `super` of `a/b.rs` and of `a/b/mod.rs` (both module `a::b`) is `a`; of an inline module
                // `a::b::c` declared in `a/b.rs`, it is `a::b`.
                let mut b = self.here.clone();
                b.pop();
                b
            }
            _ => return None,
        };
        let mut rest = rest;
        while let Some(("super", tail)) = rest.split_first().map(|(h, t)| (h.as_str(), t)) {
            base.pop();
            rest = tail;
        }
        base.extend(
            rest.iter()
                .filter(|s| s.as_str() != "self" && s.as_str() != "*")
                .cloned(),
        );
        Some(base)
    }

    fn push(&mut self, segments: &[String], line: usize) {
        if let Some(path) = self.resolve(segments) {
            self.out.push(Use { path, line });
        }
    }

    /// Paths inside a macro's tokens (`format!`, `matches!`, `vec!`...), which syn does not parse: every run
    /// `crate :: a :: b` or `super :: a`.
    fn tokens(&mut self, tokens: TokenStream) {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < trees.len() {
            match &trees[i] {
                TokenTree::Group(g) => self.tokens(g.stream()),
                TokenTree::Ident(id) if id == "crate" || id == "super" => {
                    let preceded_by_colons = i >= 1
                        && matches!(&trees[i - 1], TokenTree::Punct(p) if p.as_char() == ':');
                    if !preceded_by_colons {
                        let line = id.span().start().line;
                        let mut segs = vec![id.to_string()];
                        let mut j = i + 1;
                        while let (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b))) =
                            (trees.get(j), trees.get(j + 1))
                        {
                            if a.as_char() != ':' || b.as_char() != ':' {
                                break;
                            }
                            match trees.get(j + 2) {
                                Some(TokenTree::Ident(next)) => {
                                    segs.push(next.to_string());
                                    j += 3;
                                }
                                Some(TokenTree::Group(g)) => {
                                    // `crate::a::{b, c}` inside a macro: each name of the group.
                                    for part in g.stream().into_iter() {
                                        if let TokenTree::Ident(n) = part {
                                            let mut s = segs.clone();
                                            s.push(n.to_string());
                                            self.push(&s, line);
                                        }
                                    }
                                    j += 3;
                                    break;
                                }
                                _ => break,
                            }
                        }
                        self.push(&segs, line);
                        i = j;
                        continue;
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }

    /// Every path a `use` tree names, with its prefix.
    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let mut s = prefix.clone();
                s.push(n.ident.to_string());
                self.push(&s, n.ident.span().start().line);
            }
            syn::UseTree::Rename(r) => {
                let mut s = prefix.clone();
                s.push(r.ident.to_string());
                self.push(&s, r.ident.span().start().line);
            }
            syn::UseTree::Glob(g) => {
                self.push(prefix, g.star_token.spans[0].start().line);
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix, t);
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for Reader {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Const(i) => &i.attrs,
            syn::Item::Enum(i) => &i.attrs,
            syn::Item::ExternCrate(i) => &i.attrs,
            syn::Item::Fn(i) => &i.attrs,
            syn::Item::ForeignMod(i) => &i.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Macro(i) => &i.attrs,
            syn::Item::Mod(i) => &i.attrs,
            syn::Item::Static(i) => &i.attrs,
            syn::Item::Struct(i) => &i.attrs,
            syn::Item::Trait(i) => &i.attrs,
            syn::Item::TraitAlias(i) => &i.attrs,
            syn::Item::Type(i) => &i.attrs,
            syn::Item::Union(i) => &i.attrs,
            syn::Item::Use(i) => &i.attrs,
            _ => return syn::visit::visit_item(self, item),
        };
        if is_test_only(attrs) {
            if let syn::Item::Mod(m) = item
                && m.content.is_none()
            {
                self.test_children.push(m.ident.to_string());
            }
            return;
        }
        syn::visit::visit_item(self, item);
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if m.content.is_some() {
            self.here.push(m.ident.to_string());
            syn::visit::visit_item_mod(self, m);
            self.here.pop();
        }
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        let attrs = match item {
            syn::ImplItem::Const(i) => &i.attrs,
            syn::ImplItem::Fn(i) => &i.attrs,
            syn::ImplItem::Type(i) => &i.attrs,
            syn::ImplItem::Macro(i) => &i.attrs,
            _ => return syn::visit::visit_impl_item(self, item),
        };
        if !is_test_only(attrs) {
            syn::visit::visit_impl_item(self, item);
        }
    }

    fn visit_stmt(&mut self, stmt: &'ast syn::Stmt) {
        let test_only = match stmt {
            syn::Stmt::Local(l) => is_test_only(&l.attrs),
            syn::Stmt::Macro(m) => is_test_only(&m.attrs),
            _ => false,
        };
        if !test_only {
            syn::visit::visit_stmt(self, stmt);
        }
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &u.tree);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        if let Some(first) = p.segments.first() {
            self.push(&segs, first.ident.span().start().line);
        }
        syn::visit::visit_path(self, p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.visit_path(&m.path);
        self.tokens(m.tokens.clone());
    }
}

/// Reads one file's production code.
fn read_module(name: &[String], text: &str, file: &str) -> Module {
    let parsed = syn::parse_file(text).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut reader = Reader {
        here: name.to_vec(),
        out: Vec::new(),
        test_children: Vec::new(),
    };
    reader.visit_file(&parsed);
    Module {
        uses: reader.out,
        test_children: reader.test_children,
        file: file.to_string(),
    }
}

/// Every module of the library and of the command line under `src/cli/` (`main.rs`, the binary's root, is a crate of
/// its own above every layer and is not read), without the files that exist only for tests.
fn modules_in(src: &Path) -> BTreeMap<ModPath, Module> {
    fn walk(src: &Path, dir: &Path, out: &mut BTreeMap<ModPath, Module>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(src, &path, out);
            } else if path.extension().is_some_and(|e| e == "rs")
                && path != src.join("main.rs")
                && !path.starts_with(src.join("bin"))
            {
                let rel = path.strip_prefix(src).unwrap().with_extension("");
                let mut name: ModPath = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if matches!(name.last().map(String::as_str), Some("mod" | "lib")) {
                    name.pop();
                }
                let text = std::fs::read_to_string(&path).unwrap();
                let module = read_module(&name, &text, &path.display().to_string());
                out.insert(name, module);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(src, src, &mut out);
    // Drop file modules declared only for tests, with their own children.
    let test_only: Vec<ModPath> = out
        .iter()
        .flat_map(|(name, m)| {
            m.test_children.iter().map(move |c| {
                let mut p = name.clone();
                p.push(c.clone());
                p
            })
        })
        .collect();
    out.retain(|name, _| !test_only.iter().any(|t| name.starts_with(t)));
    out
}

fn modules() -> BTreeMap<ModPath, Module> {
    modules_in(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src")))
}

/// The modules each module uses, each path cut to the longest existing module that prefixes it, with the line of
/// its first use.
fn dependencies(mods: &BTreeMap<ModPath, Module>) -> BTreeMap<ModPath, BTreeMap<ModPath, usize>> {
    let mut deps: BTreeMap<ModPath, BTreeMap<ModPath, usize>> = BTreeMap::new();
    for (name, module) in mods {
        let set = deps.entry(name.clone()).or_default();
        for u in &module.uses {
            let target = (0..=u.path.len())
                .rev()
                .map(|k| u.path[..k].to_vec())
                .find(|p| mods.contains_key(p))
                .unwrap_or_default();
            let nested = target.starts_with(name) || name.starts_with(&target);
            if !nested {
                let line = set.entry(target).or_insert(u.line);
                *line = (*line).min(u.line);
            }
        }
    }
    deps
}

/// The layer of a top-level module: higher layers may use lower ones and their own, never higher ones.
fn layer(top: &str) -> usize {
    match top {
        "model" => 0,
        "io" => 1,
        "catalog" | "topology" => 2,
        "analysis" | "edit" => 3,
        // `about` names the build and the format versions of the report and the design file.
        "export" | "templates" | "samples" | "about" => 4,
        "app" => 5,
        // The binary's modules (`mod cli;` in main.rs): they reach the library as `racksmith::`, never `crate::`.
        "cli" => 6,
        other => panic!("module {other} has no layer: add it to the README's layout and here"),
    }
}

/// Uses of a higher layer, as "file:line: a::b -> c::d".
fn upward_uses(mods: &BTreeMap<ModPath, Module>) -> Vec<String> {
    let mut wrong = Vec::new();
    for (from, to) in dependencies(mods) {
        let Some(top) = from.first() else { continue };
        for (t, line) in to {
            if let Some(t_top) = t.first()
                && layer(t_top) > layer(top)
            {
                wrong.push(format!(
                    "{}:{line}: {} -> {}",
                    mods[&from].file,
                    from.join("::"),
                    t.join("::")
                ));
            }
        }
    }
    wrong
}

/// Groups of modules that need each other (strongly connected components of more than one module), each with
/// the uses that tie it, as "file:line: a -> b".
fn cycles(mods: &BTreeMap<ModPath, Module>) -> Vec<Vec<String>> {
    let deps = dependencies(mods);
    let mut g = DiGraph::<ModPath, ()>::new();
    let index: BTreeMap<&ModPath, _> = mods.keys().map(|m| (m, g.add_node(m.clone()))).collect();
    for (from, to) in &deps {
        for t in to.keys() {
            if let (Some(&a), Some(&b)) = (index.get(from), index.get(t)) {
                g.add_edge(a, b, ());
            }
        }
    }
    let mut out: Vec<Vec<String>> = tarjan_scc(&g)
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|c| {
            let members: BTreeSet<&ModPath> = c.iter().map(|&n| &g[n]).collect();
            let mut edges = Vec::new();
            for from in &members {
                for (to, line) in &deps[*from] {
                    if members.contains(to) {
                        edges.push(format!(
                            "{}:{line}: {} -> {}",
                            mods[*from].file,
                            from.join("::"),
                            to.join("::")
                        ));
                    }
                }
            }
            edges
        })
        .collect();
    out.sort();
    out
}

#[test]
fn dependencies_point_down_the_layers() {
    let wrong = upward_uses(&modules());
    assert!(wrong.is_empty(), "uses of a higher layer: {wrong:#?}");
}

#[test]
fn no_modules_need_each_other() {
    let found = cycles(&modules());
    assert!(found.is_empty(), "modules that need each other: {found:#?}");
}

/// A scratch `src/` holding `files` (path relative to `src/`, text).
fn scratch(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

/// The checks see what they claim to: known dependencies of the real tree, plain and grouped, and none through a
/// parent.
#[test]
fn the_dependency_reader_finds_known_edges() {
    let mods = modules();
    let deps = dependencies(&mods);
    let v = |m: &str| m.split("::").map(str::to_string).collect::<Vec<_>>();
    let of = |m: &str| deps[&v(m)].clone();
    // `use super::power::PowerReport;` in analysis/cooling.rs.
    assert!(of("analysis::cooling").contains_key(&v("analysis::power")));
    // `use crate::model::...` in io.
    assert!(
        of("io")
            .keys()
            .any(|m| m.first().is_some_and(|t| t == "model"))
    );
    // A parent's items used by its child do not count (analysis::whatif runs `super::analyze`).
    assert!(!of("analysis::whatif").contains_key(&v("analysis")));
}

/// A cycle added on purpose is found, whether it is written in a `use`, a type, an expression or a macro, and
/// wherever it stands in the file: after a test module, inside an impl or an inline module.
#[test]
fn a_deliberate_cycle_is_found_wherever_it_is_written() {
    let base = [
        ("lib.rs", "pub mod model;\npub mod app;\n"),
        ("model.rs", "pub struct Design;\n"),
        ("app/mod.rs", "pub mod a;\npub mod b;\n"),
    ];
    let cases = [
        // Production code after an early test module: the old reader stopped at the first `#[cfg(test)]`.
        "#[cfg(test)]\nmod tests {}\npub fn f() -> super::b::B { todo!() }\n",
        "pub struct A;\nimpl A {\n    pub fn g(&self) { let _ = crate::app::b::B; }\n}\n",
        "pub fn h() -> String { format!(\"{}\", crate::app::b::NAME) }\n",
        "pub mod inner {\n    pub use super::super::b::B;\n}\n",
        "use crate::app::{model as _, b::B as _};\n",
    ];
    for a in cases {
        let mut files = base.to_vec();
        files.push(("app/a.rs", a));
        files.push((
            "app/b.rs",
            "pub struct B;\npub const NAME: &str = \"b\";\npub fn uses_a() { let _ = super::a::A0; }\n",
        ));
        let dir = scratch(&files);
        let found = cycles(&modules_in(dir.path()));
        assert_eq!(found.len(), 1, "{a}\n{found:#?}");
        assert!(
            found[0].iter().any(|e| e.contains("app::a -> app::b"))
                && found[0].iter().any(|e| e.contains("app::b -> app::a")),
            "{a}\n{found:#?}"
        );
    }
}

/// What exists only for tests is not read: a test module, a test function among production ones, a test-only
/// `use`, and a file declared `#[cfg(test)] mod oracles;`, even when it uses a module that uses this one.
#[test]
fn test_only_code_does_not_count() {
    let files = [
        ("lib.rs", "pub mod model;\npub mod analysis;\n"),
        (
            "model.rs",
            "pub struct Design;\n#[cfg(test)]\nmod tests { use crate::analysis::Report; }\n\
             #[cfg(test)]\nuse crate::analysis::Report;\n\
             #[cfg(all(test, feature = \"x\"))]\nfn only_tests() { crate::analysis::run(); }\n\
             #[cfg(not(test))]\npub fn kept() {}\n",
        ),
        (
            "analysis/mod.rs",
            "pub mod routing;\npub struct Report;\npub fn run(_: crate::model::Design) {}\n",
        ),
        (
            "analysis/routing/mod.rs",
            "#[cfg(test)]\nmod oracles;\npub fn route() {}\n",
        ),
        (
            "analysis/routing/oracles.rs",
            "pub fn slow() { let _ = crate::model::Design; }\n",
        ),
    ];
    let dir = scratch(&files);
    let mods = modules_in(dir.path());
    assert!(!mods.contains_key(&vec![
        "analysis".to_string(),
        "routing".to_string(),
        "oracles".to_string()
    ]));
    assert!(cycles(&mods).is_empty(), "{:#?}", cycles(&mods));
    let deps = dependencies(&mods);
    assert!(deps[&vec!["model".to_string()]].is_empty());
    assert!(deps[&vec!["analysis".to_string()]].contains_key(&vec!["model".to_string()]));
    // And a use up the layers is reported with its file and line.
    let up = scratch(&[
        ("lib.rs", "pub mod model;\npub mod app;\n"),
        ("model.rs", "\n\npub fn f() { crate::app::g(); }\n"),
        ("app.rs", "pub fn g() {}\n"),
    ]);
    let wrong = upward_uses(&modules_in(up.path()));
    assert_eq!(wrong.len(), 1, "{wrong:#?}");
    assert!(wrong[0].ends_with("model.rs:3: model -> app"), "{wrong:#?}");
}

/// The app's shell: the root module (`app/mod.rs`, `RacksmithApp`) and the modules that drive the whole app (they
/// take `&mut RacksmithApp`). Every other module of `src/app/` (windows, panels, the canvas, state) sits below
/// them and never imports the root module: it names what it needs by its own module (`super::commands::AppCommand`,
/// not `super::AppCommand`), so the root can be read as the one place that puts the panels together.
const APP_SHELL: &[&str] = &[
    "commands",
    "exports",
    "escape",
    "file_requests",
    "files",
    "menu",
    "user_catalog",
    "web",
    "web_link",
];

/// Uses of the app's root module from a module below the shell, as "file:line: app::x -> app".
fn shell_imports(mods: &BTreeMap<ModPath, Module>) -> Vec<String> {
    let app = vec!["app".to_string()];
    let mut wrong = Vec::new();
    for (name, module) in mods {
        let below_shell =
            name.len() >= 2 && name[0] == "app" && !APP_SHELL.contains(&name[1].as_str());
        if !below_shell {
            continue;
        }
        for u in &module.uses {
            let target = (0..=u.path.len())
                .rev()
                .map(|k| u.path[..k].to_vec())
                .find(|p| mods.contains_key(p))
                .unwrap_or_default();
            // `pub(super)` and `pub(in crate::app)` name the root alone: they say who may see an item, not what
            // is used; an import names an item of the root (`super::AppCommand`).
            if target == app && u.path.len() > 1 {
                wrong.push(format!(
                    "{}:{}: {} -> app ({})",
                    module.file,
                    u.line,
                    name.join("::"),
                    u.path.join("::")
                ));
            }
        }
    }
    wrong
}

#[test]
fn app_modules_below_the_shell_do_not_import_the_app_root() {
    let wrong = shell_imports(&modules());
    assert!(
        wrong.is_empty(),
        "modules below the app shell importing app/mod.rs (name the item by its own module, or list the module in APP_SHELL if it drives the whole app): {wrong:#?}"
    );
}

/// The check can fail: a window that names `super::AppCommand` (the root's re-export) is reported with its line,
/// one that names `super::commands::AppCommand` is not, and a shell module may use the root.
#[test]
fn a_window_importing_the_app_root_is_found() {
    let files = [
        ("lib.rs", "pub mod app;\n"),
        (
            "app/mod.rs",
            "pub mod commands;\npub mod menu;\npub mod good;\npub mod bad;\npub use commands::AppCommand;\n",
        ),
        ("app/commands.rs", "pub enum AppCommand { Quit }\n"),
        ("app/menu.rs", "pub fn f(_: &super::AppCommand) {}\n"),
        (
            "app/good.rs",
            "pub fn f(_: &super::commands::AppCommand) {}\n",
        ),
        (
            "app/bad.rs",
            "\npub fn f() {\n    let _ = crate::app::AppCommand::Quit;\n}\n",
        ),
    ];
    let dir = scratch(&files);
    let wrong = shell_imports(&modules_in(dir.path()));
    assert_eq!(wrong.len(), 1, "{wrong:#?}");
    assert!(wrong[0].contains("bad.rs:3: app::bad -> app"), "{wrong:#?}");
}

/// The longest a function in `src/` may be, in lines from its signature to its closing brace (tests excepted).
const MAX_FN_LINES: usize = 150;
/// The longest a file in `src/` may be, in lines.
const MAX_FILE_LINES: usize = 1000;

/// Functions allowed over [`MAX_FN_LINES`] as "file:function", and files over [`MAX_FILE_LINES`] as "file", each
/// with its reason. Single-match dispatchers (one arm per variant, a table more than a procedure) stay; the others
/// are listed until their split lands, and the test fails once one is no longer long, so the list only shrinks.
const LONG_FUNCTIONS: &[(&str, &str)] = &[
    // Single-match dispatchers: one arm per variant, a table more than a procedure.
    (
        "edit/mod.rs:apply_unchecked",
        "one match, an arm per Edit variant returning its inverse",
    ),
    (
        "main.rs:run",
        "one match, an arm per subcommand handing off to the library",
    ),
    (
        "io/limits.rs:check_params",
        "a table: one range check per parameter",
    ),
    (
        "io/limits/part.rs:check_part",
        "a table: one range check per part figure, an arm per kind of part",
    ),
];

/// Every function (free, in an impl or a trait) of a parsed file outside `#[cfg(test)]`, with its line count.
fn function_lengths(file: &syn::File) -> Vec<(String, usize)> {
    struct Lengths(Vec<(String, usize)>);
    impl Lengths {
        fn add(&mut self, name: &syn::Ident, span: proc_macro2::Span) {
            let lines = span.end().line - span.start().line + 1;
            self.0.push((name.to_string(), lines));
        }
    }
    impl<'ast> Visit<'ast> for Lengths {
        fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
            if !is_test_only(&f.attrs) {
                self.add(&f.sig.ident, syn::spanned::Spanned::span(f));
                syn::visit::visit_item_fn(self, f);
            }
        }
        fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
            if !is_test_only(&f.attrs) {
                self.add(&f.sig.ident, syn::spanned::Spanned::span(f));
                syn::visit::visit_impl_item_fn(self, f);
            }
        }
        fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
            if !is_test_only(&m.attrs) {
                syn::visit::visit_item_mod(self, m);
            }
        }
        fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
            if !is_test_only(&i.attrs) {
                syn::visit::visit_item_impl(self, i);
            }
        }
    }
    let mut v = Lengths(Vec::new());
    v.visit_file(file);
    v.0
}

/// Functions over [`MAX_FN_LINES`] and files over [`MAX_FILE_LINES`] under `src`, as "file:function (n lines)"
/// with the file relative to `src`, leaving out the listed exceptions.
fn too_long(src: &Path, allowed: &[(&str, &str)]) -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(src, &mut files);
    files.sort();
    let mut wrong = Vec::new();
    for path in files {
        let rel = path.strip_prefix(src).unwrap().display().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let parsed = syn::parse_file(&text).unwrap_or_else(|e| panic!("{rel}: {e}"));
        // A file's size is its production code: a test module at its foot is read beside it, not in it.
        let test_lines: usize = parsed
            .items
            .iter()
            .filter(|i| match i {
                syn::Item::Mod(m) => is_test_only(&m.attrs),
                syn::Item::Fn(f) => is_test_only(&f.attrs),
                _ => false,
            })
            .map(|i| {
                let span = syn::spanned::Spanned::span(i);
                span.end().line - span.start().line + 1
            })
            .sum();
        let lines = text.lines().count() - test_lines;
        if lines > MAX_FILE_LINES && !allowed.iter().any(|(k, _)| *k == rel) {
            wrong.push(format!("{rel} ({lines} lines)"));
        }
        for (name, n) in function_lengths(&parsed) {
            let key = format!("{rel}:{name}");
            if n > MAX_FN_LINES && !allowed.iter().any(|(k, _)| *k == key) {
                wrong.push(format!("{key} ({n} lines)"));
            }
        }
    }
    wrong
}

#[test]
fn no_long_functions_or_files() {
    let src = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src"));
    let wrong = too_long(src, LONG_FUNCTIONS);
    assert!(
        wrong.is_empty(),
        "over {MAX_FN_LINES} lines a function, or {MAX_FILE_LINES} a file (split it by phase or concern, or list a single-match dispatcher in LONG_FUNCTIONS with its reason): {wrong:#?}"
    );
    // Every exception is still there and still long: a split lands by removing its line.
    let all = too_long(src, &[]);
    for (key, _) in LONG_FUNCTIONS {
        assert!(
            all.iter().any(|w| w.starts_with(&format!("{key} ("))),
            "{key} is listed in LONG_FUNCTIONS but is no longer over {MAX_FN_LINES} lines: remove it"
        );
    }
}

/// The length check can fail: a 151-line function and a 1,001-line file are found, a test function and a test module
/// are not (nor counted in their file's size), and a listed exception is let through.
#[test]
fn a_long_function_is_found() {
    let body = "    let _ = 1;\n".repeat(149);
    let long = format!("pub fn long() {{\n{body}}}\n");
    let short = format!("pub fn short() {{\n{}}}\n", "    let _ = 1;\n".repeat(148));
    let tested = format!("#[cfg(test)]\nmod tests {{\n    fn long_test() {{\n{body}    }}\n}}\n");
    let big = "// filler\n".repeat(1001);
    let tested_big = format!("{}{tested}", "// filler\n".repeat(990));
    let dir = scratch(&[
        ("lib.rs", &format!("{long}{short}{tested}")),
        ("big.rs", &big),
        ("tested_big.rs", &tested_big),
    ]);
    let wrong = too_long(dir.path(), &[]);
    assert_eq!(
        wrong,
        ["big.rs (1001 lines)", "lib.rs:long (151 lines)"],
        "{wrong:#?}"
    );
    assert_eq!(
        too_long(dir.path(), &[("lib.rs:long", "a table")]),
        ["big.rs (1001 lines)"]
    );
}
