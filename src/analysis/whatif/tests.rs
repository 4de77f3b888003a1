use super::*;
use crate::samples::sample;

#[test]
fn losing_a_rail_leaf_costs_bandwidth_not_gpus() {
    // SuperPOD 1 SU: each DGX has one NIC on each of 8 leaves. Losing leaf 1 leaves every GPU reachable
    // (NVLink carries rail 1's traffic to the other rails) but takes one rail out of the balanced cut. The
    // smaller half holds 15 of the 31 DGX (120 of 248 GPUs); every rail leaf carries min(15, 16) x 400G from
    // one half to the other: before 8 x 15 x 400 = 48,000 Gb/s, after 7 x 15 x 400 = 42,000 Gb/s.
    let d = sample("superpod-h100-1su").unwrap();
    let before = crate::analysis::analyze_ranked(&d);
    let leaf = d.device_named("leaf-su01-r1").unwrap();
    let i = impact(&d, &before, Failure::Device(leaf));
    assert_eq!(i.gpus_reachable, (248, 248));
    assert_eq!(i.bisection_gbps, (48_000.0, 42_000.0));
    // Network per GPU: a DGX H100's GPUs each send 50 GB/s (one 400 Gb/s NIC each) to the nearest cabled NIC;
    // without its rail-1 NIC's cable, GPU 1 shares its PCIe switch's other NIC with GPU 2: 2 x 50 GB/s on one
    // 50 GB/s port, 25 GB/s each. Every one of the 31 DGX (248 GPUs) has a NIC on leaf 1: all are slowed.
    assert_eq!(i.inter_node_gbyte_s, (50.0, 25.0));
    assert_eq!(i.gpus_slowed, 248);
    // The sweep ranks it first (nothing cuts GPUs off; it slows the most GPUs by the largest share), the 8 rail
    // leaves as one class, and the one-pass estimate in the report agrees with the full analysis.
    let sweep = n_minus_one(&d, &before);
    let first = sweep.first().expect("the leaf's loss is listed");
    assert_eq!(first.what, "device leaf-su01-r1");
    assert_eq!(first.alike.len(), 7);
    assert!(!first.estimated);
    assert_eq!(
        first.cost_in_words(),
        "network per GPU 50.0 -> 25.0 GB/s for 248 GPUs"
    );
    let ranked = before.single_failures.clone().expect("ranked");
    let est = ranked.worst.first().expect("ranked");
    assert_eq!(est.what, first.what);
    assert!(est.estimated);
    assert_eq!(
        (
            est.gpus_reachable,
            est.inter_node_gbyte_s,
            est.bisection_gbps,
            est.gpus_slowed
        ),
        (
            first.gpus_reachable,
            first.inter_node_gbyte_s,
            first.bisection_gbps,
            first.gpus_slowed
        )
    );
    // One server cable: that DGX alone is slowed (8 GPUs), 50 -> 25 GB/s; second in rank.
    let cable = sweep.get(1).expect("a server cable");
    assert!(matches!(cable.failure, Failure::Link(_)), "{cable:?}");
    assert_eq!(cable.gpus_slowed, 8);
    assert_eq!(cable.inter_node_gbyte_s, (50.0, 25.0));
}

#[test]
fn one_pass_estimates_match_full_analyses_on_reachability() {
    // Every class the sweep analyses in full on the starved A100 design, the SuperPOD SU and the storage
    // design: GPUs reachable and reaching storage from the depth-first search equal the full analysis's.
    let (storage, _) = storage_behind_one_spine();
    for d in [
        sample("a100-nic-starved").unwrap(),
        sample("superpod-h100-1su").unwrap(),
        storage,
    ] {
        let before = analyze(&d);
        let topo = Topology::build(&d);
        let (est, _) = ranked(
            &d,
            &topo,
            &before.bandwidth,
            &before.power,
            before.cost.replicas_in_design,
        );
        for e in est.iter().take(sweep_cap(&d)) {
            let full = impact(&d, &before, e.failure.clone());
            assert_eq!(
                e.gpus_reachable, full.gpus_reachable,
                "{}: {}",
                d.name, e.what
            );
            assert_eq!(
                e.gpus_reaching_storage, full.gpus_reaching_storage,
                "{}: {}",
                d.name, e.what
            );
        }
    }
}

#[test]
fn sweep_reports_progress_and_cancels() {
    // The starved A100 design: the leaf and 8 single cables (alike) lose GPUs, so at least 2 classes are
    // analysed in full; progress counts each once up to their number, the result is the plain sweep's, and a
    // sweep cancelled at its first report returns nothing.
    let d = sample("a100-nic-starved").unwrap();
    let before = analyze(&d);
    let seen = std::sync::Mutex::new(Vec::new());
    let all = sweep_with(&d, &before, &|done, total| {
        seen.lock().unwrap().push((done, total));
        true
    })
    .unwrap();
    let mut seen = seen.into_inner().unwrap();
    seen.sort_unstable();
    let n = sweep_cap(&d).min(all.len());
    assert!(n >= 2);
    assert_eq!(seen, (1..=n).map(|i| (i, n)).collect::<Vec<_>>());
    let plain = n_minus_one(&d, &before);
    assert_eq!(
        serde_json::to_string(&all).unwrap(),
        serde_json::to_string(&plain).unwrap()
    );
    assert!(sweep_with(&d, &before, &|_, _| false).is_none());
}

#[test]
fn single_homed_servers_are_swept() {
    // Eight A100 servers each on one cable to one leaf: the leaf takes all 64 GPUs apart (8 islands of 8),
    // and each cable isolates its server (56 GPUs left in the largest group).
    let d = sample("a100-nic-starved").unwrap();
    let before = analyze(&d);
    let sweep = n_minus_one(&d, &before);
    let leaf = sweep.iter().find(|i| i.what == "device leaf-01").unwrap();
    assert_eq!(leaf.gpus_reachable, (64, 8));
    // The eight cables fail the same way: one is analysed and stands for the seven others.
    let cables: Vec<&Impact> = sweep
        .iter()
        .filter(|i| matches!(i.failure, Failure::Link(_)) && severity(i).0 > 0)
        .collect();
    assert_eq!(cables.len(), 1);
    assert_eq!(cables[0].gpus_reachable, (64, 56));
    assert_eq!(cables[0].alike.len(), 7);
    assert!(
        cables[0]
            .summary()
            .contains("(and 7 more like it): GPUs reachable 64 -> 56"),
        "{}",
        cables[0].summary()
    );
    assert_eq!(
        sweep.first().map(|i| i.what.as_str()),
        Some("device leaf-01")
    );
}

#[test]
fn rack_leaves_fail_alike() {
    // Six racks of four DGX H100, each on its own leaf, in one pod: every leaf is a single point of failure
    // for its 4 servers (32 GPUs: 192 -> 160 reachable), and the six have one signature, so one is analysed.
    // Each analysed on its own gives the same figures.
    let c = crate::catalog::Catalog::builtin().unwrap();
    let d = crate::samples::rack_leaf_h100(&c, 6).unwrap();
    assert!(
        crate::io::validate(&d).is_empty(),
        "{:?}",
        crate::io::validate(&d)
    );
    let before = analyze(&d);
    // Only the leaves cut GPUs off; spines, uplinks and server cables cost bandwidth and rank after them.
    let sweep = n_minus_one(&d, &before);
    let cut: Vec<&Impact> = sweep.iter().filter(|i| severity(i).0 > 0).collect();
    assert_eq!(cut.len(), 1, "{sweep:?}");
    let leaf = cut[0];
    assert_eq!(sweep[0].what, leaf.what);
    assert_eq!(leaf.what, "device leaf-0001");
    assert_eq!(leaf.gpus_reachable, (192, 160));
    assert_eq!(leaf.alike.len(), 5);
    let figures = |i: &Impact| {
        (
            i.gpus_reachable,
            i.bisection_gbps,
            i.inter_node_gbyte_s,
            i.replicas,
            i.gpus_reaching_storage,
            i.storage_gbyte_s_per_gpu,
        )
    };
    for f in &leaf.alike {
        assert_eq!(
            figures(&impact(&d, &before, f.clone())),
            figures(leaf),
            "{f:?}"
        );
    }
    // Two pods of 48 racks: the pods are swapped by the fabric's symmetry, so all 96 leaves fail alike and
    // one analysis stands for them; a leaf of the second pod analysed on its own agrees.
    let d = crate::samples::rack_leaf_h100(&c, 96).unwrap();
    let before = crate::analysis::analyze_ranked(&d);
    // The report's one-pass ranking puts them first as one class (no full analysis of every class here).
    let sweep = &before.single_failures.as_ref().expect("ranked").worst;
    assert_eq!(sweep[0].alike.len(), 95);
    assert_eq!(
        sweep.iter().filter(|i| severity(i).0 > 0).count(),
        1,
        "{sweep:?}"
    );
    let last = d.device_named("leaf-0096").unwrap();
    assert!(sweep[0].alike.contains(&Failure::Device(last)));
    let full = impact(&d, &before, Failure::Device(last));
    assert_eq!(full.gpus_reachable, sweep[0].gpus_reachable);
    assert_eq!(full.gpus_reaching_storage, sweep[0].gpus_reaching_storage);
    // 50 racks: a pod of 48 and one of 2, which fail differently (bigger pods lose a smaller share).
    let d = crate::samples::rack_leaf_h100(&c, 50).unwrap();
    let r = crate::analysis::analyze_ranked(&d);
    assert_eq!(
        r.single_failures
            .as_ref()
            .expect("ranked")
            .worst
            .iter()
            .filter(|i| severity(i).0 > 0)
            .count(),
        2
    );
}

#[test]
fn a_rack_beyond_one_feed_goes_dark() {
    // dgx-h100-single draws 13,774 W. With 2 x 11 kW feeds, losing one leaves 11 kW: the rack goes dark.
    let mut d = sample("dgx-h100-single").unwrap();
    let rack = *d.racks.keys().next().unwrap();
    d.racks.get_mut(&rack).unwrap().feed_capacity_w = Some(11_000.0);
    let before = analyze(&d);
    assert!(
        before
            .findings
            .iter()
            .any(|f| f.code == crate::analysis::FindingCode::RackFeed)
    );
    let i = impact(&d, &before, Failure::Feed(rack));
    assert_eq!(i.gpus_reachable, (8, 0));
    // 13.5 kW feeds: enough for the devices without their optics (13,500 W or so) but not for the rack's
    // 13,774 W with them. The finding and the what-if use the same rack power, so both say the rack goes dark.
    d.racks.get_mut(&rack).unwrap().feed_capacity_w = Some(13_500.0);
    let before = analyze(&d);
    assert!(
        before
            .findings
            .iter()
            .any(|f| f.code == crate::analysis::FindingCode::RackFeed)
    );
    assert_eq!(
        impact(&d, &before, Failure::Feed(rack)).gpus_reachable,
        (8, 0)
    );
    assert!(
        (crate::analysis::power::rack_power_w(&d, rack) - before.power.racks[0].power_w).abs()
            < 1e-6
    );
    // With 2 x 17.3 kW feeds it rides through.
    d.racks.get_mut(&rack).unwrap().feed_capacity_w = Some(17_300.0);
    let i = impact(&d, &analyze(&d), Failure::Feed(rack));
    assert_eq!(i.gpus_reachable, (8, 8));
}

/// Two DGX (one 400G port each) on leaf-01; an AI400X2 on leaf-02 by one NDR cable; leaf-01 and leaf-02 each
/// one cable to spine-01: the spine and its two cables are the only path to storage.
fn storage_behind_one_spine() -> (Design, LinkId) {
    let c = crate::catalog::Catalog::builtin().unwrap();
    let mut d =
        crate::samples::dgx_fabric(&c, &[vec![0], vec![0]], 2, 1, &[vec![1], vec![1]]).unwrap();
    let rack = *d.racks.keys().next().unwrap();
    let leaf2 = d.device_named("leaf-02").unwrap();
    let ddn = crate::edit::Builder::new(&mut d, &c)
        .add_device("ddn-ai400x2", "ddn-01", rack, 35)
        .unwrap();
    let id = LinkId(d.alloc_id());
    d.links.insert(
        id,
        crate::model::Link {
            a: crate::model::PortRef::new(ddn, "p1"),
            b: crate::model::PortRef::new(leaf2, "p40"),
            medium: crate::model::Medium::InfiniBand(crate::model::IbRate::Ndr),
            length_m: 3.0,
            cable: None,
            notes: String::new(),
            ..crate::model::Link::default()
        },
    );
    assert!(
        crate::io::validate(&d).is_empty(),
        "{:?}",
        crate::io::validate(&d)
    );
    let up = d
        .links
        .iter()
        .find(|(_, l)| {
            d.devices[&l.a.device].name == "leaf-01" && d.devices[&l.b.device].name == "spine-01"
        })
        .map(|(id, _)| *id)
        .unwrap();
    (d, up)
}

#[test]
fn losing_the_only_path_to_storage_shows() {
    // Storage: one AI400X2 on one 400G cable = min(90, 50) = 50 GB/s over 16 GPUs = 3.125 GB/s per GPU.
    // Without the spine (or the leaf-01 uplink) the GPUs still reach each other on leaf-01, but none reaches
    // storage: 16 -> 0 GPUs reaching storage, 3.125 -> 0 GB/s per GPU.
    let (d, up) = storage_behind_one_spine();
    let before = analyze(&d);
    assert!((before.bandwidth.storage.per_gpu_gbyte_s - 3.125).abs() < 1e-9);
    let spine = d.device_named("spine-01").unwrap();
    let i = impact(&d, &before, Failure::Device(spine));
    assert_eq!(i.gpus_reachable, (16, 16));
    assert_eq!(i.gpus_reaching_storage, (16, 0));
    assert_eq!(i.storage_gbyte_s_per_gpu, (3.125, 0.0));
    assert!(
        i.summary().contains("GPUs reaching storage 16 -> 0"),
        "{}",
        i.summary()
    );
    // The sweep lists the spine and the single uplink, with both ends and ports.
    let sweep = n_minus_one(&d, &before);
    assert!(sweep.iter().any(|x| x.what == "device spine-01"));
    let uplink = sweep
        .iter()
        .find(|x| x.failure == Failure::Link(up))
        .expect("the leaf-01 uplink");
    assert!(
        uplink.what.contains("leaf-01 p3 - spine-01 p1"),
        "{}",
        uplink.what
    );
    assert_eq!(uplink.gpus_reaching_storage, (16, 0));
    // The resilience finding names the cable's ends and ports and what it cuts off (ddn-01).
    let f = before
        .findings
        .iter()
        .find(|f| f.code == crate::analysis::FindingCode::SingleLink)
        .expect("single-link");
    assert!(
        f.message
            .contains("(leaf-01 p3 - spine-01 p1) cuts off ddn-01"),
        "{}",
        f.message
    );
    assert!(
        before
            .findings
            .iter()
            .any(|f| f.code == crate::analysis::FindingCode::SingleSwitch)
    );
}
