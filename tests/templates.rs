//! Templates: every one validates and analyses without error findings; SuperPOD counts follow NVIDIA's reference
//! architecture; leaf-spine leaves report exactly the oversubscription asked; bad options are refused with the
//! allowed values; `racksmith new` writes a design that loads.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::analysis::{Severity, analyze};
use racksmith::catalog::Catalog;
use racksmith::templates::{self, TemplateError};

fn make(name: &str, opts: &[(&str, &str)]) -> Result<racksmith::model::Design, TemplateError> {
    let c = Catalog::builtin().unwrap();
    let o: Vec<(String, String)> = opts
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    templates::generate(&c, name, &o)
}

fn no_errors(d: &racksmith::model::Design) -> racksmith::analysis::Report {
    assert!(
        racksmith::io::validate(d).is_empty(),
        "{:?}",
        racksmith::io::validate(d)
    );
    assert!(racksmith::io::limits::check(d).is_empty());
    let r = analyze(d);
    let errors: Vec<&str> = r
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| f.message.as_str())
        .collect();
    assert!(errors.is_empty(), "{}: {errors:?}", d.name);
    r
}

/// Switches whose name starts with `prefix`.
fn switches(d: &racksmith::model::Design, prefix: &str) -> usize {
    d.devices
        .values()
        .filter(|x| x.name.starts_with(prefix))
        .count()
}

/// Cables with one end on a device named `a...` and the other on `b...`.
fn cables(d: &racksmith::model::Design, a: &str, b: &str) -> usize {
    d.links
        .values()
        .filter(|l| {
            let (x, y) = (&d.devices[&l.a.device].name, &d.devices[&l.b.device].name);
            (x.starts_with(a) && y.starts_with(b)) || (x.starts_with(b) && y.starts_with(a))
        })
        .count()
}

#[test]
fn superpod_counts_follow_the_reference_architecture() {
    // NVIDIA DGX SuperPOD H100 reference architecture (RA-11333), compute fabric component counts:
    // SU -> (DGX, leaf, spine, core): 1 -> (31, 8, 4, -), 2 -> (63, 16, 8, -), 3 -> (95, 24, 16, -),
    // 4 -> (127, 32, 16, -), 8 -> (255, 64, 32, -), 16 -> (511, 128, 128, 64): one leaf port of the fabric goes
    // to the fabric manager (UFM), hence 32 x SU - 1 systems. Every DGX has 8 compute cables (the RA's node-leaf
    // column adds the UFM's, not drawn here); leaf-spine cables are 32 per leaf (256 per SU), and from 16 SU as
    // many spine-core cables. At 8 SU two tiers: 64 leaves x 32 uplinks = 32 spines x 64 ports.
    for (su, nodes, leaves, spines, cores) in [
        (1usize, 31usize, 8usize, 4usize, 0usize),
        (2, 63, 16, 8, 0),
        (3, 95, 24, 16, 0),
        (4, 127, 32, 16, 0),
        (8, 255, 64, 32, 0),
        (16, 511, 128, 128, 64),
    ] {
        let d = make("superpod-h100", &[("su", &su.to_string())]).unwrap();
        let servers = d.devices.values().filter(|x| !x.gpus.is_empty()).count();
        assert_eq!(servers, nodes, "{su} SU");
        assert_eq!(d.gpu_count(), nodes * 8, "{su} SU");
        assert_eq!(switches(&d, "leaf-"), leaves, "{su} SU");
        assert_eq!(switches(&d, "spine-"), spines, "{su} SU");
        assert_eq!(switches(&d, "core-"), cores, "{su} SU");
        assert_eq!(cables(&d, "dgx-", "leaf-"), nodes * 8, "{su} SU");
        assert_eq!(cables(&d, "leaf-", "spine-"), su * 256, "{su} SU");
        assert_eq!(
            cables(&d, "spine-", "core-"),
            if cores > 0 { su * 256 } else { 0 },
            "{su} SU"
        );
        if su <= 8 {
            no_errors(&d);
        }
    }
}

#[test]
fn superpod_b200_counts_follow_nvidias_table() {
    // NVIDIA DGX SuperPOD B200 reference architecture (RA-11334), "larger DGX SuperPOD component counts":
    // SU, nodes, GPUs, leaf, spine, core, node-leaf, leaf-spine, spine-core cables:
    //  2,   64,   512,  16,   8,   -,   512,   512,     -
    //  4,  128, 1,024,  32,  16,   -, 1,024, 1,024,     -
    //  8,  256, 2,048,  64,  32,   -, 2,048, 2,048,     -
    // 16,  512, 4,096, 128, 128,  64, 4,096, 4,096, 4,096
    // 32, 1,024, 8,192, 256, 256, 128, 8,192, 8,192, 8,192
    // 64, 2,048, 16,384, 512, 512, 256, 16,384, 16,384, 16,384
    // (and 1 SU: 32 DGX B200, 8 leaves, 4 spines, as the 2-SU row halved). 32 DGX per SU: no UFM slot taken.
    for (su, nodes, leaves, spines, cores, node_leaf, leaf_spine, spine_core) in [
        (
            1usize, 32usize, 8usize, 4usize, 0usize, 256usize, 256usize, 0usize,
        ),
        (2, 64, 16, 8, 0, 512, 512, 0),
        (4, 128, 32, 16, 0, 1024, 1024, 0),
        (8, 256, 64, 32, 0, 2048, 2048, 0),
        (16, 512, 128, 128, 64, 4096, 4096, 4096),
        (32, 1024, 256, 256, 128, 8192, 8192, 8192),
        (64, 2048, 512, 512, 256, 16384, 16384, 16384),
    ] {
        let d = make("superpod-b200", &[("su", &su.to_string())]).unwrap();
        let servers = d.devices.values().filter(|x| !x.gpus.is_empty()).count();
        assert_eq!(servers, nodes, "{su} SU");
        assert_eq!(d.gpu_count(), nodes * 8, "{su} SU");
        assert_eq!(switches(&d, "leaf-"), leaves, "{su} SU");
        assert_eq!(switches(&d, "spine-"), spines, "{su} SU");
        assert_eq!(switches(&d, "core-"), cores, "{su} SU");
        assert_eq!(cables(&d, "dgx-", "leaf-"), node_leaf, "{su} SU");
        assert_eq!(cables(&d, "leaf-", "spine-"), leaf_spine, "{su} SU");
        assert_eq!(cables(&d, "spine-", "core-"), spine_core, "{su} SU");
        if su == 1 || su == 4 || su == 16 {
            no_errors(&d);
        }
    }
}

#[test]
fn leaf_spine_leaves_report_exactly_the_oversubscription_asked() {
    for (servers, r, fabric, rails, gpu) in [
        ("16", "1", "ib", "all", "h100-sxm"),
        ("30", "3", "ib", "1", "h100-sxm"),
        ("64", "2", "roce", "all", "h100-sxm"),
        ("20", "1", "ib", "all", "a100-sxm"),
        ("12", "2", "ib", "4", "l40s"),
    ] {
        let d = make(
            "leaf-spine",
            &[
                ("servers", servers),
                ("oversubscription", r),
                ("fabric", fabric),
                ("rails", rails),
                ("gpu", gpu),
            ],
        )
        .unwrap();
        let report = no_errors(&d);
        let want: f64 = r.parse().unwrap();
        let leaves: Vec<f64> = report
            .bandwidth
            .switches
            .iter()
            .filter(|s| s.tier == 1)
            .filter_map(|s| s.oversubscription)
            .collect();
        assert!(!leaves.is_empty(), "{servers} {r} {fabric}");
        // Full leaf groups are exactly R:1; a group that is not full never exceeds it.
        assert!(
            leaves.iter().any(|o| (o - want).abs() < 1e-9),
            "{servers} {r} {fabric}: {leaves:?}"
        );
        assert!(
            leaves.iter().all(|o| *o <= want + 1e-9),
            "{servers} {r} {fabric}: {leaves:?}"
        );
        assert_eq!(report.summary.gpus, servers.parse::<usize>().unwrap() * 8);
        // Every rack within its budget: budgets are the contents' maximum draw plus 10%.
        assert!(report.power.racks.iter().all(|p| p.power_w <= p.budget_w));
    }
}

#[test]
fn inference_row_is_pcie_on_ethernet() {
    let d = make("inference-row", &[("servers", "8")]).unwrap();
    let r = no_errors(&d);
    assert_eq!(r.summary.gpus, 64);
    assert!(
        d.links
            .values()
            .all(|l| l.medium.to_string().starts_with("Ethernet"))
    );
    assert!(
        d.devices
            .values()
            .filter(|x| !x.gpus.is_empty())
            .all(|x| x.gpus.values().all(|g| g.as_str() == "l40s"))
    );
}

#[test]
fn bad_options_name_what_is_allowed() {
    let err = |name: &str, o: &[(&str, &str)]| make(name, o).unwrap_err().to_string();
    assert!(err("superpod-h100", &[("su", "0")]).contains("--su 0"));
    assert!(err("superpod-h100", &[("su", "6")]).contains("multiple of 8"));
    assert!(err("leaf-spine", &[("gpu", "b300")]).contains("h100-sxm"));
    assert!(err("leaf-spine", &[("fabric", "fc")]).contains("ib or roce"));
    assert!(err("leaf-spine", &[("rails", "3")]).contains("divisor"));
    assert!(err("leaf-spine", &[("oversubscription", "0.5")]).contains("1 to 8"));
    assert!(err("leaf-spine", &[("sevrers", "4")]).contains("--servers"));
    assert!(err("inference-row", &[("gpu", "h100-sxm")]).contains("PCIe GPU"));
    assert!(err("nope", &[]).contains("superpod-h100"));
}

#[test]
fn the_command_line_lists_documents_and_writes_templates() {
    let bin = env!("CARGO_BIN_EXE_racksmith");
    let out = std::process::Command::new(bin)
        .args(["new", "--list"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    for t in templates::list() {
        assert!(text.contains(t.name), "{text}");
    }
    let out = std::process::Command::new(bin)
        .args(["new", "leaf-spine", "--help"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("--oversubscription"));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pod.ron");
    let out = std::process::Command::new(bin)
        .args(["new", "superpod-h100", "--su", "2", "-o"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("504 GPUs"));
    let d = racksmith::io::load(&file).unwrap();
    assert_eq!(d.gpu_count(), 504);
    let out = std::process::Command::new(bin)
        .args(["new", "superpod-h100", "--su", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn nvl72_racks_are_one_72_gpu_nvlink_domain_each() {
    let d = make("nvl72", &[("racks", "4")]).unwrap();
    let r = no_errors(&d);
    assert_eq!(r.summary.gpus, 288);
    for s in &r.bandwidth.servers {
        assert_eq!(s.gpus, 72);
        // NVLink 5: 900 GB/s per direction per GPU inside the rack.
        assert!((s.nvlink_gbyte_s_per_gpu - 900.0).abs() < 1e-9);
    }
    // About 132 kW per compute rack: 72 x 1,200 W GPUs + 41.1 kW of the system + 72 x 25 W ConnectX-7 +
    // 36 x 75 W BlueField-3 = 132.0 kW, plus each NIC's cable end: a 9 W single-port OSFP on a fibre, 0.75 W of
    // linear active copper where the network rack is within 5 m (C004 stands beside it, C001 four places away).
    let compute: Vec<(String, f64)> = r
        .power
        .racks
        .iter()
        .filter(|p| p.name.starts_with("C0"))
        .map(|p| (p.name.clone(), p.power_w))
        .collect();
    assert_eq!(compute.len(), 4);
    for (name, p) in &compute {
        assert!(
            (132_054.0 - 1.0..=132_648.0 + 1.0).contains(p),
            "{name}: {p}"
        );
    }
    assert!((compute[0].1 - 132_648.0).abs() < 1.0, "{compute:?}");
    assert!(compute[3].1 < compute[0].1, "{compute:?}");
    // Every leaf is wired evenly to every spine: equal cable counts per (leaf, spine) pair.
    let mut pairs: std::collections::BTreeMap<(u64, u64), usize> = Default::default();
    for l in d.links.values() {
        let (a, b) = (&d.devices[&l.a.device].name, &d.devices[&l.b.device].name);
        if a.starts_with("leaf") && b.starts_with("spine") {
            *pairs.entry((l.a.device.0, l.b.device.0)).or_default() += 1;
        }
    }
    // A full leaf (3 racks x 9 NICs down) has 27 uplinks: 3 to each of 9 spines; the leaf of the last, partial
    // group (1 rack, 9 down, 9 up) has 1 to each.
    let mut per_leaf: std::collections::BTreeMap<u64, Vec<usize>> = Default::default();
    for ((leaf, _), n) in &pairs {
        per_leaf.entry(*leaf).or_default().push(*n);
    }
    assert_eq!(per_leaf.len(), 16);
    for counts in per_leaf.values() {
        assert_eq!(counts.len(), 9, "{counts:?}");
        assert!(counts.iter().all(|n| *n == counts[0]), "{counts:?}");
    }
}

#[test]
fn superpod_b200_keeps_the_fabric_with_b200_systems() {
    // DGX SuperPOD B200 RA: 32 DGX B200 per SU on the same 8-rail NDR fabric; DGX B200 is 10U and 14.3 kW, so a
    // rack of two draws 2 x 14.3 = 28.6 kW (plus half of each cabled optic) against a 32 kW budget, on air.
    let d = make("superpod-b200", &[("su", "1")]).unwrap();
    let r = no_errors(&d);
    assert_eq!(r.summary.gpus, 256);
    assert!(
        d.devices
            .values()
            .filter(|x| !x.gpus.is_empty())
            .all(|x| x.part.as_str() == "dgx-b200")
    );
    let full = r.power.racks.iter().find(|p| p.name == "C001").unwrap();
    assert!(
        full.power_w > 28_600.0 && full.power_w <= 32_000.0,
        "{}",
        full.power_w
    );
    assert!(r.cooling.racks.iter().all(|c| c.ok));
    // One DGX more than the H100 SU (no UFM slot): 8 compute and 4 storage cables more.
    let h100 = make("superpod-h100", &[("su", "1")]).unwrap();
    assert_eq!(d.links.len(), h100.links.len() + 12);
}

/// What one template size must come out as: the closed-form counts written by each caller.
struct Expect {
    /// Switches per tier, leaf first.
    switches: Vec<usize>,
    /// Cables at each boundary: servers to leaves, leaves to spines, spines to cores, ...
    cables: Vec<usize>,
}

/// Builds a template at a size and checks it: validates, within limits, analyses with no error finding, leaves
/// at most `r`:1 (exactly `r`:1 somewhere when a leaf group is full), every switch above the leaves not
/// oversubscribed, switch and cable counts per tier as `want` (when given), and, for a non-blocking fabric,
/// the bisection as half the servers' network bandwidth.
fn walk(name: &str, opts: &[(&str, &str)], r: f64, full_leaf: bool, want: Option<Expect>) {
    let d = make(name, opts).unwrap_or_else(|e| panic!("{name} {opts:?}: {e}"));
    let report = no_errors(&d);
    let tier_of: std::collections::BTreeMap<_, _> = report
        .bandwidth
        .switches
        .iter()
        .map(|s| (s.device, s.tier))
        .collect();
    let top = tier_of.values().copied().max().unwrap_or(0);
    let mut by_tier = vec![0usize; usize::from(top)];
    for s in &report.bandwidth.switches {
        assert!(s.tier >= 1, "{name} {opts:?}: {} reaches no server", s.name);
        by_tier[usize::from(s.tier) - 1] += 1;
        match (s.tier, s.oversubscription) {
            (1, Some(o)) => assert!(o <= r + 1e-9, "{name} {opts:?}: leaf {} at {o}:1", s.name),
            (_, Some(o)) => assert!(o <= 1.0 + 1e-9, "{name} {opts:?}: {} at {o}:1", s.name),
            _ => {}
        }
    }
    if full_leaf && top > 1 {
        assert!(
            report
                .bandwidth
                .switches
                .iter()
                .any(|s| s.tier == 1 && s.oversubscription.is_some_and(|o| (o - r).abs() < 1e-9)),
            "{name} {opts:?}: no leaf at exactly {r}:1"
        );
    }
    // Cables by the tiers of their ends (0 for a server).
    let mut cables = vec![0usize; usize::from(top)];
    for l in d.links.values() {
        let (a, b) = (
            tier_of.get(&l.a.device).copied().unwrap_or(0),
            tier_of.get(&l.b.device).copied().unwrap_or(0),
        );
        cables[usize::from(a.min(b))] += 1;
    }
    if let Some(w) = want {
        assert_eq!(by_tier, w.switches, "{name} {opts:?}: switches by tier");
        assert_eq!(cables, w.cables, "{name} {opts:?}: cables by boundary");
    }
    if r == 1.0 && top > 1 {
        // Non-blocking: any half of the servers can send to the other half at full rate, so the bisection is
        // half the servers' NIC bandwidth (the exact figure or the analysis's proven range around it).
        // With an odd server count the smaller half has (S - 1) / 2 servers.
        let nic_gbps: f64 = d
            .links
            .values()
            .filter(|l| !tier_of.contains_key(&l.a.device) || !tier_of.contains_key(&l.b.device))
            .map(|l| l.medium.gbps())
            .sum();
        let servers = d.devices.values().filter(|x| !x.gpus.is_empty()).count();
        let b = &report.bandwidth.bisection;
        let half = nic_gbps / servers as f64 * (servers / 2) as f64;
        assert!(
            b.lower_gbps <= half * (1.0 + 1e-9) && half <= b.upper_gbps * (1.0 + 1e-9),
            "{name} {opts:?}: bisection {}..{} against {half}",
            b.lower_gbps,
            b.upper_gbps
        );
    }
}

/// The smallest divisor of `n` that is at least `at_least`.
fn divisor_at_least(n: usize, at_least: usize) -> usize {
    (1..=n)
        .find(|d| n.is_multiple_of(*d) && *d >= at_least)
        .unwrap_or(n)
}

#[test]
fn leaf_spine_h100_walks_1_to_4096_servers() {
    // H100 SXM on NDR (QM9700, 64 ports), 8 rails, 1:1: a leaf takes 32 servers (one NIC each) and 32 uplinks,
    // so G = ceil(S / 32) groups of 8 leaves. Two tiers while every leaf reaches every spine: 8G <= 64, S <= 256;
    // for S = 32G the spines are the smallest divisor d of 32 with 8G x 32 / d <= 64 (d >= 4G): 4, 8, 16, 16,
    // 32. Above, pods of 4 groups (32 leaves) each under 32 spines (32 down, 32 up), and 32 core planes of the
    // smallest divisor c of 32 with P x 32 / c <= 64 (c >= P/2): for S = 128P, 32P leaves, 32P spines, 32c
    // cores. Every leaf has as many uplinks as servers (1:1), every spine as many up as down: 8S cables at each
    // boundary. 1,024 servers: P = 8, 256 leaves, 256 spines, 128 cores, 8,192 cables at each of three
    // boundaries (NVIDIA's 32-SU SuperPOD, one system more per SU). 4,096: P = 32, 1,024, 1,024, 512; 32,768 x 3.
    let two_tier = |s: usize| {
        let g = s / 32;
        Expect {
            switches: vec![8 * g, divisor_at_least(32, 4 * g)],
            cables: vec![8 * s, 8 * s],
        }
    };
    let three_tier = |s: usize| {
        let p = s / 128;
        Expect {
            switches: vec![32 * p, 32 * p, 32 * divisor_at_least(32, p.div_ceil(2))],
            cables: vec![8 * s, 8 * s, 8 * s],
        }
    };
    for s in [32usize, 64, 96, 128, 256] {
        walk(
            "leaf-spine",
            &[("servers", &s.to_string())],
            1.0,
            true,
            Some(two_tier(s)),
        );
    }
    for s in [384usize, 1024, 4096] {
        walk(
            "leaf-spine",
            &[("servers", &s.to_string())],
            1.0,
            true,
            Some(three_tier(s)),
        );
    }
    assert_eq!(three_tier(1024).switches, vec![256, 256, 128]);
    assert_eq!(three_tier(4096).switches, vec![1024, 1024, 512]);
    // Sizes that leave a group or a pod part-full: one server (8 leaves of one uplink each, one spine), and
    // the first sizes past two tiers.
    walk(
        "leaf-spine",
        &[("servers", "1")],
        1.0,
        false,
        Some(Expect {
            switches: vec![8, 1],
            cables: vec![8, 8],
        }),
    );
    for s in [2usize, 33, 255, 257, 1000] {
        walk(
            "leaf-spine",
            &[("servers", &s.to_string())],
            1.0,
            s >= 32,
            None,
        );
    }
}

#[test]
fn leaf_spine_other_fabrics_walk_their_range() {
    // A100 on HDR (QM8700, 40 ports): 20 servers and 20 uplinks per leaf, two tiers to 5 groups (100 servers),
    // three above (pods of 2 groups, 16 leaves, under 20 spines). RoCE (SN5600, 800G ports, 400G NICs): 42
    // servers and 21 uplinks per leaf, two tiers to 8 groups (336 servers). 3:1 on NDR: 48 servers and 16
    // uplinks per leaf. Each checked for what the fabric promises; the 4,096-server end is walked on H100 above
    // (the other fabrics' largest sizes differ only in port counts, and cost minutes in a debug build).
    for s in ["1", "100", "101", "1000"] {
        walk(
            "leaf-spine",
            &[("servers", s), ("gpu", "a100-sxm")],
            1.0,
            s != "1",
            None,
        );
    }
    for s in ["336", "337", "1024"] {
        walk(
            "leaf-spine",
            &[("servers", s), ("fabric", "roce")],
            1.0,
            true,
            None,
        );
    }
    for s in ["64", "600"] {
        walk(
            "leaf-spine",
            &[("servers", s), ("oversubscription", "3")],
            3.0,
            true,
            None,
        );
    }
}

#[test]
fn nvl72_walks_1_to_256_racks() {
    // 72 NICs per rack on 8 rails: 9 per rail, so a leaf takes 3 racks (27 down) and 27 uplinks; G = ceil(N / 3)
    // groups of 8 leaves. Two tiers to 8 groups (24 racks): spines the smallest divisor d of 27 with
    // 8G x 27 / d <= 64: 9 for G <= 2, 27 above. Past that, pods of 4 groups (12 racks, 32 leaves) under 27
    // spines, and 27 core planes of the smallest divisor c of 32 with P x 32 / c <= 64. Cables: 72 per rack at
    // each boundary (1:1 everywhere). For N = 12P: 32P leaves, 27P spines, 27c cores.
    let two_tier = |n: usize| {
        let g = n / 3;
        Expect {
            switches: vec![8 * g, if g <= 2 { 9 } else { 27 }],
            cables: vec![72 * n, 72 * n],
        }
    };
    let three_tier = |n: usize| {
        let p = n / 12;
        Expect {
            switches: vec![32 * p, 27 * p, 27 * divisor_at_least(32, p.div_ceil(2))],
            cables: vec![72 * n, 72 * n, 72 * n],
        }
    };
    for n in [3usize, 6, 9, 24] {
        walk(
            "nvl72",
            &[("racks", &n.to_string())],
            1.0,
            true,
            Some(two_tier(n)),
        );
    }
    for n in [36usize, 96, 252] {
        walk(
            "nvl72",
            &[("racks", &n.to_string())],
            1.0,
            true,
            Some(three_tier(n)),
        );
    }
    for n in [1usize, 2, 25, 100, 256] {
        walk("nvl72", &[("racks", &n.to_string())], 1.0, n >= 3, None);
    }
}

#[test]
fn inference_row_walks_1_to_1024_servers() {
    // Four 400G NICs per server on 800G SN5600 ports, one rail, 3:1: a leaf takes 12 servers (48 ports at half
    // the switch rate = 24 port-equivalents) and 24 / 3 = 8 uplinks. Two tiers to 64 leaves (768 servers):
    // spines the smallest divisor d of 8 with L x 8 / d <= 64 for L = S / 12 full leaves. Above, pods of 32
    // leaves under 8 spines, 8 core planes of the smallest divisor c of 32 with P x 32 / c <= 64. Cables: 4 per
    // server, 8 per full leaf, as many again above the spines.
    let two_tier = |s: usize| {
        let l = s / 12;
        Expect {
            switches: vec![l, divisor_at_least(8, l.div_ceil(8))],
            cables: vec![4 * s, 8 * l],
        }
    };
    for s in [24usize, 96, 768] {
        walk(
            "inference-row",
            &[("servers", &s.to_string())],
            3.0,
            true,
            Some(two_tier(s)),
        );
    }
    // 768 + 12 x 32 = 1,152 would fill a second pod; 1,024 servers: 86 leaves (85 full, one of 4 servers with
    // ceil(4 x 4 x 0.5 / 3) = 3 uplinks), pods of 32, 32, 22 leaves, 24 spines, 8 planes of 3 spines with up to
    // 32 uplinks: c = 2 (3 x 32 / 2 = 48 <= 64), 16 cores. Cables 4,096; 85 x 8 + 3 = 683 twice.
    walk(
        "inference-row",
        &[("servers", "1024")],
        3.0,
        true,
        Some(Expect {
            switches: vec![86, 24, 16],
            cables: vec![4096, 683, 683],
        }),
    );
    for s in [1usize, 13, 769] {
        walk(
            "inference-row",
            &[("servers", &s.to_string())],
            3.0,
            s >= 12,
            None,
        );
    }
}

#[test]
fn superpods_walk_their_range() {
    // Every documented size kind, analysed: 1-4 SU and 8 (two tiers), 24 (three tiers, 6 pods: cores per plane
    // the smallest divisor of 32 with 6 x 32 / c <= 64, so 4: 128 cores) for both systems.
    for t in ["superpod-h100", "superpod-b200"] {
        for su in [1usize, 2, 3, 4, 8, 24] {
            let d = make(t, &[("su", &su.to_string())]).unwrap();
            no_errors(&d);
            if su == 24 {
                assert_eq!(switches(&d, "core-"), 128);
                assert_eq!(cables(&d, "spine-", "core-"), 24 * 256);
            }
        }
    }
}

/// Every template's InfiniBand and Ethernet cables follow the floor (issue 37, section 5): lengths estimated from
/// the racks' places, media by reach, no optics kit per link, and a rack moved away lengthens its links.
#[test]
fn leaf_spine_cables_follow_the_floor_and_a_moved_rack_lengthens_them() {
    use racksmith::model::Medium;
    let mut d = make("leaf-spine", &[]).unwrap();
    no_errors(&d);
    let cabled = |m: &Medium| matches!(m, Medium::InfiniBand(_) | Medium::Ethernet(_));
    assert!(d.links.values().any(|l| cabled(&l.medium)));
    for l in d.links.values().filter(|l| cabled(&l.medium)) {
        assert!(l.estimated_length && l.auto_cable, "{l:?}");
        assert_ne!(l.cable.as_ref().unwrap().as_str(), "ib-ndr-optic");
    }
    // The leaves and spines share the network rack N001, one switch every 2U from U1: the farthest pair is 18U
    // apart, 18 x 44.45 mm = 0.80 m, x 1.2 slack = 0.96 m, ordered as 1 m of passive copper (NDR DAC to 2 m).
    let rack_of = |d: &racksmith::model::Design, dev| d.racks[&d.devices[&dev].rack].name.clone();
    let trunks: Vec<_> = d
        .links
        .values()
        .filter(|l| rack_of(&d, l.a.device) == "N001" && rack_of(&d, l.b.device) == "N001")
        .collect();
    assert_eq!(trunks.len(), 128, "8 leaves x 16 uplinks");
    for l in &trunks {
        assert_eq!(l.cable.as_ref().unwrap().as_str(), "ib-ndr-dac");
        assert!(l.length_m <= 1.0, "{}", l.length_m);
    }
    // C001 moved from the row's first place to the third row: each of its links is at least as long, and together
    // longer; undo puts every length back.
    let c001 = *d.racks.iter().find(|(_, r)| r.name == "C001").unwrap().0;
    let of_c001: Vec<_> = d
        .links
        .iter()
        .filter(|(_, l)| rack_of(&d, l.a.device) == "C001" || rack_of(&d, l.b.device) == "C001")
        .map(|(id, l)| (*id, l.length_m))
        .collect();
    assert_eq!(of_c001.len(), 32, "4 servers x 8 compute NICs");
    let cables = |d: &racksmith::model::Design| {
        analyze(d)
            .physical
            .cables
            .iter()
            .map(|c| format!("{c:?}"))
            .collect::<Vec<_>>()
    };
    let ordered = cables(&d);
    let inverse = racksmith::edit::move_rack(&d, c001, 2, 0)
        .unwrap()
        .apply(&mut d)
        .unwrap();
    let (before, after): (f64, f64) = of_c001
        .iter()
        .map(|(id, was)| {
            let now = d.links[id].length_m;
            assert!(now >= *was, "{was} -> {now}");
            (*was, now)
        })
        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    assert!(after > before, "{before} -> {after}");
    assert_ne!(cables(&d), ordered, "the pull list orders other lengths");
    inverse.apply(&mut d).unwrap();
    for (id, was) in &of_c001 {
        assert_eq!(d.links[id].length_m, *was);
    }
}
