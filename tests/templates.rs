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
    // 36 x 75 W BlueField-3 = 132.0 kW, plus half of each cabled optic (72 x 9 W = 0.65 kW).
    let compute: Vec<f64> = r
        .power
        .racks
        .iter()
        .filter(|p| p.name.starts_with("C0"))
        .map(|p| p.power_w)
        .collect();
    assert_eq!(compute.len(), 4);
    for p in compute {
        assert!((p - 132_648.0).abs() < 1.0, "{p}");
    }
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
