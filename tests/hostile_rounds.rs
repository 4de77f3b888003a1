//! The hostile-input round of issue 36, one generated-input test per class, each with a short budget (a longer run
//! is documented in docs/limits.md, "Checking the budgets"):
//! 1. cost in proportion to the input: YAML whose aliases expand past the budget, many bad port references, sites
//!    whose names slugify alike, a chain that is all single points of failure;
//! 2. one reader per format: the differential test of the fast path against RON is in `src/io/fast.rs`
//!    (`io::fast::tests::differential_*`), next to the private reader it checks;
//! 3. parts that are not what they say: generated user parts with figures at and around their bounds, a built-in
//!    id redefined as another kind, a server without GPU slots given to `new`;
//! 4. structures that cannot exist: generated PCIe trees, with and without cycles.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use proptest::prelude::*;
use racksmith::catalog::{Catalog, PartKind};
use racksmith::io;
use racksmith::model::part::{PcieSwitchSpec, SlotSpec};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

#[path = "common/hostile_designs.rs"]
mod hostile_designs;
use hostile_designs::{chain, ring};

/// Far above any of these inputs' time in a debug build: a case that takes longer grows faster than its input.
const HANG_GUARD: Duration = Duration::from_secs(30);

/// Cases per property: `short` in `cargo test`, or `PROPTEST_CASES` for the long run (docs/limits.md).
fn cases(short: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(short)
}

// ---- Class 1: cost in proportion to the input ----

/// A NetBox device type whose `interfaces` is `fanout` aliases of an anchor `levels` deep, each level `fanout`
/// aliases of the one below: it expands to about fanout^(levels+1) nodes from a few hundred bytes.
fn alias_bomb(fanout: usize, levels: usize) -> String {
    let mut y = String::from(
        "manufacturer: Acme\nmodel: Bomb\nslug: acme-bomb\nu_height: 1\nl0: &l0 {name: x, type: 100gbase-x-qsfp28}\n",
    );
    for l in 1..=levels {
        let items = vec![format!("*l{}", l - 1); fanout].join(", ");
        y.push_str(&format!("l{l}: &l{l} [{items}]\n"));
    }
    let items = vec![format!("*l{levels}"); fanout].join(", ");
    y.push_str(&format!("extra: [{items}]\n"));
    y
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(24), failure_persistence: None, ..ProptestConfig::default() })]

    /// A device type whose aliases expand past the budget is refused, naming the budget and a line, in time that
    /// does not follow the expansion; one within it gets past the budget check (and is imported or refused for
    /// another reason).
    #[test]
    fn yaml_aliases_are_counted_while_reading(fanout in 2usize..12, levels in 1usize..9) {
        let text = alias_bomb(fanout, levels);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bomb.yaml");
        std::fs::write(&path, &text).unwrap();
        // Nodes the document expands to: each level's list and its items, the mapping of 2 pairs at the bottom.
        let mut expanded: u128 = 5; // l0's mapping: itself and two keys and two values
        for _ in 1..=levels {
            expanded = 1 + fanout as u128 * expanded;
        }
        let total = 1 + fanout as u128 * expanded;
        let budget = u128::from(
            text.len() as u64 * racksmith::catalog::netbox::EXPANSION_PER_BYTE
                + racksmith::catalog::netbox::EXPANSION_BASE,
        );
        let started = Instant::now();
        let r = racksmith::catalog::netbox::import(&path, &Catalog::builtin().unwrap());
        prop_assert!(started.elapsed() < HANG_GUARD);
        let message = match &r {
            Ok(_) => String::new(),
            Err(e) => e.to_string(),
        };
        if total > budget * 2 {
            // Refused by the budget (with the line where it ran out), or first by the YAML reader's own limit on
            // the aliases it follows (100 per event of the file).
            prop_assert!(
                (message.contains("expands to more than") && message.contains("line "))
                    || message.contains("repetition limit exceeded: the file's aliases"),
                "{total} nodes: {message}"
            );
        } else if total < budget / 2 {
            prop_assert!(!message.contains("expands to more than"), "{total} nodes: {message}");
        }
    }
}

/// The 1.3 MB case at a reduced scale: one large anchor and many aliases of it (few aliases followed,
/// so the YAML reader's own limit does not see it), refused by the budget with the file's line.
#[test]
fn a_wide_alias_bomb_is_refused_at_once() {
    let items = vec!["x"; 3_000].join(", ");
    let aliases = vec!["*big"; 3_000].join(", ");
    let text = format!(
        "manufacturer: Acme\nmodel: Bomb\nslug: acme-bomb\nu_height: 1\nbig: &big [{items}]\nmore: [{aliases}]\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("laughs.yaml");
    std::fs::write(&path, &text).unwrap();
    let e = racksmith::catalog::netbox::import(&path, &Catalog::builtin().unwrap())
        .expect_err("refused");
    let m = e.to_string();
    assert!(
        m.contains("laughs.yaml") && m.contains("expands to more than") && m.contains("line "),
        "{m}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(8), failure_persistence: None, ..ProptestConfig::default() })]

    /// Every bad port reference is placed at the line of its link, however many there are.
    #[test]
    fn every_bad_reference_is_placed_at_its_link(broken in 1usize..400, every in 1usize..4) {
        let c = Catalog::builtin().unwrap();
        let mut d = racksmith::samples::rack_leaf_h100(&c, 2).unwrap();
        let ids: Vec<_> = d.links.keys().copied().step_by(every).take(broken).collect();
        for id in &ids {
            if let Some(l) = d.links.get_mut(id) {
                l.a.port = "no-such-port".into();
            }
        }
        let text = io::design_to_string(&d).unwrap();
        let started = Instant::now();
        let Err(io::LoadError::Invalid { problems, .. }) = io::design_from_str(&text, Path::new("x.ron")) else {
            panic!("the design loads");
        };
        prop_assert!(started.elapsed() < HANG_GUARD);
        let lines: Vec<&str> = text.lines().collect();
        let mut placed = 0;
        for p in problems.iter().filter(|p| p.link.is_some()) {
            let id = p.link.unwrap();
            let line: usize = p.message.strip_prefix("line ").and_then(|r| r.split(',').next())
                .and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("not placed: {}", p.message));
            prop_assert!(lines[line - 1].trim_start().starts_with(&format!("{}: (", id.0)), "{}", p.message);
            placed += 1;
        }
        prop_assert!(placed >= ids.len());
    }

    /// Sites whose names all slugify alike get distinct slugs, each a few characters longer than the base: the
    /// sites file grows with the number of sites, not with its square.
    #[test]
    fn sites_that_slugify_alike_get_short_distinct_slugs(n in 2usize..300) {
        let c = Catalog::builtin().unwrap();
        let mut d = racksmith::samples::sample("dgx-h100-single").unwrap();
        let punct = ['!', '?', '*', '~', '^', '%'];
        for i in 0..n {
            // "east" followed by a distinct run of punctuation: every name slugifies to "east".
            let mut name = String::from("east");
            let mut k = i;
            loop {
                name.push(punct[k % punct.len()]);
                k /= punct.len();
                if k == 0 {
                    break;
                }
            }
            d.sites.insert(name, racksmith::model::Site::default());
        }
        let _ = &c;
        let files = racksmith::export::netbox::files(&d).unwrap();
        let sites = String::from_utf8(files[0].1.clone()).unwrap();
        let slugs: Vec<&str> = sites.lines().skip(1).filter_map(|l| l.split(',').nth(1)).collect();
        let unique: std::collections::BTreeSet<&&str> = slugs.iter().collect();
        prop_assert_eq!(unique.len(), slugs.len());
        let east: Vec<&&str> = slugs.iter().filter(|s| s.starts_with("east")).collect();
        prop_assert_eq!(east.len(), n);
        prop_assert!(east.iter().all(|s| s.len() <= "east".len() + 4), "{:?}", east);
    }
}

/// A chain where every switch is a single point of failure: the sweep analyses at most its cap in full and says
/// how many classes it found.
#[test]
fn the_sweep_of_a_chain_stays_within_its_budget() {
    let c = Catalog::builtin().unwrap();
    let d = chain(&c, 120);
    let cap = racksmith::analysis::whatif::sweep_cap(&d);
    let before = racksmith::analysis::analyze(&d);
    let done = std::sync::atomic::AtomicUsize::new(0);
    let s = racksmith::analysis::whatif::sweep_counted(&d, &before, &|_, _| {
        done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        true
    })
    .unwrap();
    assert_eq!(s.analysed, cap.min(s.classes));
    assert_eq!(done.into_inner(), s.analysed);
    assert!(
        s.classes > s.analysed,
        "a chain of 120 has more classes ({}) than the sweep analyses ({})",
        s.classes,
        s.analysed
    );
    // A larger design gets fewer analyses, never none.
    let big = chain(&c, 2_000);
    assert!(racksmith::analysis::whatif::sweep_cap(&big) < cap);
    assert!(racksmith::analysis::whatif::sweep_cap(&big) >= 1);
}

/// The routing of a chain costs in proportion to the chain (the forest routing, docs/limits.md "Cost per shape"):
/// doubling it doubles the routing's work, to a log factor, where the walk per destination quadrupled it.
#[test]
fn routing_a_chain_grows_linearly() {
    let c = Catalog::builtin().unwrap();
    let (_, small) = racksmith::analysis::routing::analyze_counted(&chain(&c, 200));
    let (_, big) = racksmith::analysis::routing::analyze_counted(&chain(&c, 400));
    assert!(
        big < 3 * small,
        "routing work {small} for a chain of 200, {big} for 400: more than linear"
    );
}

/// A chain closed into a ring has one cycle and no switch whose loss cuts the fabric: losing a switch costs its
/// own DGX's 8 GPUs and nothing else, where in the open chain losing the second switch also cuts off the first.
#[test]
fn a_ring_loses_only_the_switch_own_server() {
    use racksmith::analysis::whatif::{Failure, impact};
    let c = Catalog::builtin().unwrap();
    let (open, closed) = (chain(&c, 12), ring(&c, 12));
    for (d, lost) in [(&open, 16), (&closed, 8)] {
        let before = racksmith::analysis::analyze(d);
        let sw = d.device_named("sw-00001").unwrap();
        let i = impact(d, &before, Failure::Device(sw));
        assert_eq!(i.gpus_reachable.0, 96, "{}", d.name);
        assert_eq!(i.gpus_reachable.0 - i.gpus_reachable.1, lost, "{}", d.name);
    }
}

// ---- Class 3: parts that are not what they say ----

/// A user catalog holding one part, written to a file.
fn catalog_file(dir: &Path, id: &str, part: &racksmith::catalog::Part) -> std::path::PathBuf {
    let mut c = Catalog::default();
    c.parts
        .insert(racksmith::model::PartId::new(id), part.clone());
    let path = dir.join("parts.ron");
    std::fs::write(&path, racksmith::catalog::user::to_string(&c).unwrap()).unwrap();
    path
}

/// The figure a generated part breaks, if any: (field, why).
fn zero_figure(kind: usize, zero: usize) -> (racksmith::catalog::Part, &'static str) {
    let c = Catalog::builtin().unwrap();
    let (id, field) = match kind {
        0 => (
            "h100-sxm",
            ["power_w", "price_usd", "bf16_tflops", "memory_gb"][zero % 4],
        ),
        1 => (
            "qm9700",
            ["power_w", "price_usd", "ports", "port_gbps"][zero % 4],
        ),
        2 => (
            "cx7-ndr",
            ["power_w", "price_usd", "ports", "port_gbps"][zero % 4],
        ),
        _ => (
            "dgx-h100",
            ["power_w", "price_usd", "height_u", "power_w"][zero % 4],
        ),
    };
    let mut p = c.get(id).unwrap().clone();
    match (field, &mut p.kind) {
        ("power_w", _) => p.power_w = 0.0,
        ("price_usd", _) => p.price_usd = 0.0,
        ("height_u", _) => p.height_u = 0,
        ("bf16_tflops", PartKind::Gpu(g)) => g.bf16_tflops = 0.0,
        ("memory_gb", PartKind::Gpu(g)) => g.memory_gb = 0.0,
        ("ports", PartKind::Switch(s)) => s.ports = 0,
        ("port_gbps", PartKind::Switch(s)) => s.port_gbps = 0.0,
        ("ports", PartKind::Nic(n)) => n.ports = 0,
        ("port_gbps", PartKind::Nic(n)) => n.port_gbps = 0.0,
        _ => unreachable!(),
    }
    (p, field)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(32), failure_persistence: None, ..ProptestConfig::default() })]

    /// A user part with a figure at 0 where 0 means "free", "no compute" or "no port" is refused by the user
    /// catalog's loader, naming the field and the line; the same part with the figure restored loads.
    #[test]
    fn zero_figures_in_user_parts_are_refused(kind in 0usize..4, zero in 0usize..4, scale in 0.5f64..4.0) {
        let dir = tempfile::tempdir().unwrap();
        let (p, field) = zero_figure(kind, zero);
        let path = catalog_file(dir.path(), "my-part", &p);
        let e = racksmith::catalog::user::load(&path).expect_err("refused");
        let m = e.to_string();
        prop_assert!(m.contains(&format!("\"my-part\".{field}")) && m.contains("line "), "{}", m);
        // The built-in part, its figures scaled, loads as a user part.
        let builtin = Catalog::builtin().unwrap();
        let id = ["h100-sxm", "qm9700", "cx7-ndr", "dgx-h100"][kind];
        let ok = racksmith::catalog::Part { price_usd: builtin.get(id).unwrap().price_usd * scale, ..builtin.get(id).unwrap().clone() };
        let path = catalog_file(dir.path(), "my-part", &ok);
        prop_assert!(racksmith::catalog::user::load(&path).is_ok());
    }
}

#[test]
fn a_built_in_id_redefined_as_another_kind_is_refused() {
    let c = Catalog::builtin().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cable = c.get("ib-ndr-dac").unwrap().clone();
    let path = catalog_file(dir.path(), "h100-sxm", &cable);
    let m = racksmith::catalog::user::load(&path)
        .expect_err("refused")
        .to_string();
    assert!(
        m.contains("\"h100-sxm\" is the built-in GPU part") && m.contains("this one is a cable"),
        "{m}"
    );
    // The command: refused before any design is written.
    let out = dir.path().join("out.ron");
    let r = Command::new(env!("CARGO_BIN_EXE_racksmith"))
        .arg("--catalog")
        .arg(&path)
        .args(["new", "leaf-spine", "--gpu", "h100-sxm", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(!r.status.success());
    assert!(!out.exists());
    // The same id overriding the GPU with a GPU is allowed, and said.
    let mut gpu = c.get("h100-sxm").unwrap().clone();
    gpu.price_usd *= 0.5;
    let path = catalog_file(dir.path(), "h100-sxm", &gpu);
    let r = Command::new(env!("CARGO_BIN_EXE_racksmith"))
        .arg("--catalog")
        .arg(&path)
        .arg("catalog")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("overrides built-in parts: h100-sxm"), "{err}");
}

#[test]
fn a_server_without_gpu_slots_makes_no_design() {
    let c = Catalog::builtin().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut server = c.get("dgx-h100").unwrap().clone();
    if let PartKind::Server(s) = &mut server.kind {
        s.gpu_slots.clear();
    }
    // The case: the user catalog overrides the server the template puts H100s in with one that takes none.
    let path = catalog_file(dir.path(), "dgx-h100", &server);
    let out = dir.path().join("out.ron");
    let r = Command::new(env!("CARGO_BIN_EXE_racksmith"))
        .arg("--catalog")
        .arg(&path)
        .args(["new", "leaf-spine", "--servers", "2", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(!r.status.success(), "{err}");
    assert!(!out.exists());
    assert!(
        err.contains("no GPU") && err.contains("dgx-h100 has 0 GPU slots"),
        "{err}"
    );
}

// ---- Class 4: structures that cannot exist ----

/// Whether a PCIe tree of switches (each parent: None for a CPU, Some(i) for switch i) is one the loader takes:
/// every climb reaches a CPU within the depth limit. Computed by walking, the slow obvious way.
fn tree_ok(parents: &[Option<usize>]) -> bool {
    (0..parents.len()).all(|start| {
        let mut at = start;
        for depth in 1..=parents.len() + 1 {
            match parents[at] {
                None => return depth <= racksmith::io::limits::MAX_PCIE_DEPTH,
                Some(up) => at = up,
            }
        }
        false
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(48), failure_persistence: None, ..ProptestConfig::default() })]

    /// A server's PCIe switches with generated parents (a CPU or another switch, cycles included): the design loads
    /// when they form a tree within the depth limit, and is refused at the part's line otherwise, in the design
    /// and in a user catalog alike.
    #[test]
    fn pcie_trees_are_trees(parents in proptest::collection::vec(proptest::option::weighted(0.3, 0usize..24), 1..24)) {
        let n = parents.len();
        let parents: Vec<Option<usize>> = parents.into_iter().map(|p| p.map(|i| i % n)).collect();
        let mut d = racksmith::samples::sample("dgx-h100-single").unwrap();
        let id = racksmith::model::PartId::new("dgx-h100");
        let part = d.parts.get_mut(&id).unwrap();
        let PartKind::Server(s) = &mut part.kind else { panic!("a server") };
        s.pcie_switches = parents.iter().enumerate().map(|(i, p)| PcieSwitchSpec {
            name: format!("sw{i}"),
            parent: p.map_or("cpu0".to_string(), |j| format!("sw{j}")),
            uplink: None,
        }).collect();
        for (i, slot) in s.gpu_slots.iter_mut().enumerate() {
            slot.slot = SlotSpec { parent: format!("sw{}", i % n), link: slot.slot.link };
        }
        for (i, slot) in s.nic_slots.iter_mut().enumerate() {
            slot.slot = SlotSpec { parent: format!("sw{}", (i + 1) % n), link: slot.slot.link };
        }
        let part = part.clone();
        let text = io::design_to_string(&d).unwrap();
        let loaded = io::design_from_str(&text, Path::new("tree.ron"));
        let dir = tempfile::tempdir().unwrap();
        let user = racksmith::catalog::user::load(&catalog_file(dir.path(), "my-box", &part));
        if tree_ok(&parents) {
            prop_assert!(loaded.is_ok(), "{:?}", loaded.err().map(|e| e.to_string()));
            prop_assert!(user.is_ok());
        } else {
            let m = loaded.expect_err("refused").to_string();
            prop_assert!(m.contains("below itself") || m.contains("switches below its CPU"), "{}", m);
            prop_assert!(m.contains("line "), "{}", m);
            prop_assert!(user.is_err());
        }
    }
}

#[test]
fn a_switch_below_itself_is_refused_with_its_place() {
    let mut d = racksmith::samples::sample("dgx-h100-single").unwrap();
    let part = d
        .parts
        .get_mut(&racksmith::model::PartId::new("dgx-h100"))
        .unwrap();
    let PartKind::Server(s) = &mut part.kind else {
        panic!("a server")
    };
    let first = s.pcie_switches.first().unwrap().name.clone();
    s.pcie_switches.first_mut().unwrap().parent = first.clone();
    let text = io::design_to_string(&d).unwrap();
    let m = io::design_from_str(&text, Path::new("loop.ron"))
        .expect_err("refused")
        .to_string();
    assert!(
        m.contains(&format!("PCIe switch \"{first}\" sits below itself")),
        "{m}"
    );
    assert!(m.contains("loop.ron") && m.contains("line "), "{m}");
}
