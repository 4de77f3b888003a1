//! The layering of the code (README, "Layout of the code"), checked on the source: dependencies point down the layers
//! (app -> export, templates, samples -> analysis, edit -> topology, catalog -> io -> model) and no two modules need
//! each other. A module's dependencies are the `crate::` and `super::` paths in its file outside its `#[cfg(test)]`
//! part; a module and its own submodules are one unit (a child may use its parent's items), so only paths between
//! modules that do not contain each other count.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use petgraph::algo::tarjan_scc;
use petgraph::graph::DiGraph;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Module path (e.g. ["analysis", "power"]) -> source without its test part (the library; `main.rs` is the
/// command line, a crate of its own above every layer).
fn modules() -> BTreeMap<Vec<String>, String> {
    fn walk(dir: &Path, out: &mut BTreeMap<Vec<String>, String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("src/main.rs")
            {
                let rel = path.strip_prefix("src").unwrap().with_extension("");
                let mut name: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if matches!(name.last().map(String::as_str), Some("mod" | "lib")) {
                    name.pop();
                }
                let text = std::fs::read_to_string(&path).unwrap();
                let code = text.split("#[cfg(test)]").next().unwrap().to_string();
                out.insert(name, code);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(Path::new("src"), &mut out);
    out
}

/// Whether a file is a directory module (`mod.rs`, `lib.rs`), whose `super` is its parent's parent.
fn is_dir_module(name: &[String]) -> bool {
    name.is_empty()
        || Path::new("src")
            .join(name.join("/"))
            .join("mod.rs")
            .exists()
}

/// The modules each module uses, resolved to the longest module prefix of each path.
fn dependencies(
    mods: &BTreeMap<Vec<String>, String>,
) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let path_re = |code: &str| -> Vec<(String, Vec<String>)> {
        // `crate::a::b`, `super::a`, and `crate::a::{b, c::d}` groups, one level deep.
        let mut found = Vec::new();
        let bytes = code.as_bytes();
        for head in ["crate::", "super::"] {
            let mut from = 0;
            while let Some(i) = code[from..].find(head) {
                let start = from + i;
                from = start + head.len();
                if start > 0
                    && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_')
                {
                    continue;
                }
                let mut segs = Vec::new();
                let mut j = start + head.len();
                loop {
                    let k = code[j..]
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .map_or(code.len(), |k| j + k);
                    if k == j {
                        break;
                    }
                    segs.push(code[j..k].to_string());
                    if code[k..].starts_with("::{") {
                        let end = code[k..].find('}').map_or(code.len(), |e| k + e);
                        for item in code[k + 3..end].split(',') {
                            let item = item.split(" as ").next().unwrap().trim();
                            if !item.is_empty() && item != "self" {
                                let mut s = segs.clone();
                                s.extend(item.split("::").map(str::to_string));
                                found.push((head.to_string(), s));
                            }
                        }
                        break;
                    }
                    if code[k..].starts_with("::") {
                        j = k + 2;
                    } else {
                        break;
                    }
                }
                found.push((head.to_string(), segs));
            }
        }
        found
    };
    let mut deps: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (name, code) in mods {
        let set = deps.entry(name.clone()).or_default();
        for (head, segs) in path_re(code) {
            let mut full: Vec<String> = if head == "crate::" {
                Vec::new()
            } else if is_dir_module(name) {
                name[..name.len().saturating_sub(1)].to_vec()
            } else {
                name[..name.len() - 1].to_vec()
            };
            full.extend(segs);
            let target = (0..=full.len())
                .rev()
                .map(|k| full[..k].to_vec())
                .find(|p| mods.contains_key(p))
                .unwrap_or_default();
            let nested = target.starts_with(name) || name.starts_with(&target);
            if !nested {
                set.insert(target);
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
        "export" | "templates" | "samples" => 4,
        "app" => 5,
        other => panic!("module {other} has no layer: add it to the README's layout and here"),
    }
}

#[test]
fn dependencies_point_down_the_layers() {
    let mods = modules();
    let mut wrong = Vec::new();
    for (from, to) in dependencies(&mods) {
        let Some(top) = from.first() else { continue };
        for t in to {
            if let Some(t_top) = t.first()
                && layer(t_top) > layer(top)
            {
                wrong.push(format!("{} -> {}", from.join("::"), t.join("::")));
            }
        }
    }
    assert!(wrong.is_empty(), "uses of a higher layer: {wrong:#?}");
}

#[test]
fn no_two_modules_need_each_other() {
    let mods = modules();
    let deps = dependencies(&mods);
    let mut g = DiGraph::<String, ()>::new();
    let index: BTreeMap<&Vec<String>, _> =
        mods.keys().map(|m| (m, g.add_node(m.join("::")))).collect();
    for (from, to) in &deps {
        for t in to {
            if let (Some(&a), Some(&b)) = (index.get(from), index.get(t)) {
                g.add_edge(a, b, ());
            }
        }
    }
    let cycles: Vec<Vec<String>> = tarjan_scc(&g)
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|c| {
            let mut names: Vec<String> = c.iter().map(|&n| g[n].clone()).collect();
            names.sort();
            names
        })
        .collect();
    assert!(
        cycles.is_empty(),
        "modules that need each other: {cycles:#?}"
    );
}

/// The checks above see what they claim to: the path reader finds a known dependency and a known grouped one.
#[test]
fn the_dependency_reader_finds_known_edges() {
    let mods = modules();
    let deps = dependencies(&mods);
    let of = |m: &str| deps[&m.split("::").map(str::to_string).collect::<Vec<_>>()].clone();
    let v = |m: &str| m.split("::").map(str::to_string).collect::<Vec<_>>();
    // `use super::power::PowerReport;` in analysis/cooling.rs.
    assert!(of("analysis::cooling").contains(&v("analysis::power")));
    // `use crate::model::...` in io.
    assert!(
        of("io")
            .iter()
            .any(|m| m.first().is_some_and(|t| t == "model"))
    );
    // A parent's items used by its child do not count (analysis::whatif runs `super::analyze`).
    assert!(!of("analysis::whatif").contains(&v("analysis")));
}
