//! Findings fire on designs built to trigger them, with the figures worked out by hand.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::analysis::bandwidth::Hop;
use racksmith::analysis::{FindingCode, Severity, analyze};
use racksmith::catalog::{Catalog, GpuSlotSpec, NicSlotSpec, PartKind, PcieSwitchSpec, SlotSpec};
use racksmith::edit::{Builder, Edit};
use racksmith::model::{
    Design, DeviceId, IbRate, Link, LinkId, Medium, PartId, PcieLink, PortRef, RackId,
};

fn cable(d: &mut Design, a: PortRef, b: PortRef, medium: Medium) {
    let id = LinkId(d.alloc_id());
    d.links.insert(
        id,
        Link {
            a,
            b,
            medium,
            length_m: 5.0,
            cable: None,
            notes: String::new(),
            ..Link::default()
        },
    );
}

fn rack(d: &mut Design, c: &Catalog, name: &str, budget_w: f64) -> RackId {
    let slot = d.racks.len() as u16;
    let (id, _) = Builder::new(d, c)
        .add_rack("rack-48u", name, 0, slot)
        .unwrap();
    let mut r = d.racks[&id].clone();
    r.power_budget_w = budget_w;
    Edit::UpdateRack(id, r).apply(d).unwrap();
    id
}

const NDR: Medium = Medium::InfiniBand(IbRate::Ndr);

/// Two leaves with four DGX H100 each (32 x 400G down) and 8 x 400G up to one spine each: 4:1.
fn oversubscribed() -> (Design, Vec<DeviceId>, Vec<DeviceId>) {
    let c = Catalog::builtin().unwrap();
    let mut d = Design::default();
    let mut servers = Vec::new();
    let mut leaves = Vec::new();
    let net = rack(&mut d, &c, "N1", 50_000.0);
    let spine = Builder::new(&mut d, &c)
        .add_device("qm9700", "spine", net, 1)
        .unwrap();
    for l in 0..2u16 {
        let r = rack(&mut d, &c, &format!("R{l}"), 45_000.0);
        let leaf = Builder::new(&mut d, &c)
            .add_device("qm9700", &format!("leaf{l}"), net, 3 + l)
            .unwrap();
        leaves.push(leaf);
        for s in 0..4u16 {
            let dgx = Builder::new(&mut d, &c)
                .add_device("dgx-h100", &format!("dgx{l}{s}"), r, 1 + 8 * s)
                .unwrap();
            servers.push(dgx);
            for rail in 0..8 {
                cable(
                    &mut d,
                    PortRef::new(dgx, format!("nic{rail}/p1")),
                    PortRef::new(leaf, format!("p{}", s * 8 + rail + 1)),
                    NDR,
                );
            }
        }
        for k in 0..8u16 {
            cable(
                &mut d,
                PortRef::new(leaf, format!("p{}", 33 + k)),
                PortRef::new(spine, format!("p{}", l * 8 + k + 1)),
                NDR,
            );
        }
    }
    (d, servers, leaves)
}

#[test]
fn oversubscribed_leaves_are_found_and_limit_the_fabric() {
    let (d, _, leaves) = oversubscribed();
    let r = analyze(&d);
    // Each leaf: 32 x 400 = 12,800 Gb/s down, 8 x 400 = 3,200 up: 4:1.
    for leaf in &leaves {
        let s = r
            .bandwidth
            .switches
            .iter()
            .find(|s| s.device == *leaf)
            .unwrap();
        assert_eq!((s.tier, s.down_gbps, s.up_gbps), (1, 12_800.0, 3_200.0));
        assert_eq!(s.oversubscription, Some(4.0));
    }
    let f = r
        .findings
        .iter()
        .find(|f| f.code == FindingCode::SwitchOversubscribed)
        .expect("finding");
    assert_eq!(f.severity, Severity::Warning);
    let mut ids = f.devices.clone();
    ids.sort();
    assert_eq!(ids, leaves);
    assert!(f.message.contains("4.00:1"), "{}", f.message);
    // Bisection: min(64 x 400, 16 x 400) / 2 = 3,200 Gb/s. Eight servers: computed exactly by max-flow over the
    // 35 balanced splits; the worst is leaf 0's servers against leaf 1's, cut at the 8 x 400G uplinks of a leaf.
    assert_eq!(r.bandwidth.bisection.gbps, 3_200.0);
    assert!(
        r.bandwidth.bisection.method.starts_with("exact"),
        "{}",
        r.bandwidth.bisection.method
    );
    // All-reduce, one ring per rail through the 8 servers in id order (4 on leaf 0, then 4 on leaf 1): each rail's
    // ring crosses between the leaves once each way, so a leaf's uplinks carry 8 rails x 400 = 3,200 Gb/s against
    // 8 x 400 = 3,200: 100%, and every GPU keeps its 50 GB/s NIC share. The oversubscription does not slow it.
    assert_eq!(r.bandwidth.inter_node_gbyte_s, 50.0);
    // All-to-all: each server sends 3,200 Gb/s to the 56 other GPUs alike, 32 of them behind the other leaf:
    // 4 servers x 3,200 x 32/56 = 7,314.3 Gb/s up a leaf's 3,200 Gb/s of uplinks: 2.2857x, so 50 / 2.2857 = 21.875
    // GB/s per GPU, and the oversubscribed leaf is named as the limit.
    assert_eq!(r.bandwidth.all_to_all_gbyte_s, 21.875);
    assert!(
        r.summary.bottleneck.contains("oversubscribed 4.00:1"),
        "{}",
        r.summary.bottleneck
    );
    // Across the spine: 3 switch hops.
    assert!(
        r.latency
            .paths
            .iter()
            .any(|p| p.class == "across spine" && p.switch_hops == 3)
    );
}

#[test]
fn more_uplinks_remove_the_oversubscription() {
    let (mut d, _, leaves) = oversubscribed();
    let spine = d.device_named("spine").unwrap();
    // Add 24 more uplinks per leaf: 32 up against 32 down. The spine has 64 ports: 16 used, 48 free.
    for (l, leaf) in leaves.iter().enumerate() {
        for k in 8..32u16 {
            let sp = 16 + l as u16 * 24 + (k - 8) + 1;
            if sp > 64 {
                break;
            }
            cable(
                &mut d,
                PortRef::new(*leaf, format!("p{}", 33 + k)),
                PortRef::new(spine, format!("p{sp}")),
                NDR,
            );
        }
    }
    let r = analyze(&d);
    assert!(
        r.findings
            .iter()
            .all(|f| f.code != FindingCode::SwitchOversubscribed),
        "{:?}",
        r.findings
    );
    assert_eq!(r.bandwidth.inter_node_gbyte_s, 50.0);
}

/// A PCIe server built for the purpose: 8 Gen4 GPUs behind one PCIe switch on cpu0 with a single Gen4 x16 uplink,
/// `nics` 400G NICs on the root complex `nic_root`, each cabled to one leaf.
fn pcie_box(nic_root: &str, nics: u16) -> (Design, DeviceId) {
    let c = Catalog::builtin().unwrap();
    let mut d = Design::default();
    let r = rack(&mut d, &c, "R1", 30_000.0);
    let dev = Builder::new(&mut d, &c)
        .add_device("pcie-gpu-4u", "box", r, 1)
        .unwrap();
    let part = PartId::new("pcie-gpu-4u");
    let mut spec = d.parts[&part].clone();
    let gen4 = PcieLink {
        generation: 4,
        lanes: 16,
    };
    if let PartKind::Server(s) = &mut spec.kind {
        s.pcie_switches = vec![PcieSwitchSpec {
            name: "psw0".into(),
            parent: "cpu0".into(),
            uplink: Some(gen4),
        }];
        s.gpu_slots = (0..8)
            .map(|_| GpuSlotSpec {
                form: racksmith::catalog::FormFactor::Pcie,
                slot: SlotSpec {
                    parent: "psw0".into(),
                    link: Some(gen4),
                },
            })
            .collect();
        s.nic_slots = (0..nics)
            .map(|_| NicSlotSpec {
                slot: SlotSpec {
                    parent: nic_root.into(),
                    link: Some(PcieLink {
                        generation: 5,
                        lanes: 16,
                    }),
                },
                role: Default::default(),
            })
            .collect();
    }
    Edit::SetPart(part, Some(Box::new(spec)))
        .apply(&mut d)
        .unwrap();
    let mut b = Builder::new(&mut d, &c);
    b.fill_gpus(dev, "l40s", 0..8).unwrap();
    b.fill_nics(dev, "cx7-ndr", 0..nics).unwrap();
    let leaf = b.add_device("qm9700", "leaf", r, 20).unwrap();
    for n in 0..nics {
        cable(
            &mut d,
            PortRef::new(dev, format!("nic{n}/p1")),
            PortRef::new(leaf, format!("p{}", n + 1)),
            NDR,
        );
    }
    (d, dev)
}

#[test]
fn pcie_uplink_saturation_is_found() {
    // 8 Gen4 GPUs behind one Gen4 x16 uplink, four 400G NICs on the CPU. Each GPU is offered 4 x 50 / 8 = 25 GB/s;
    // the uplink is offered 200 GB/s against 31.5 GB/s (6.35x) and carries 31.5, so each GPU gets
    // 25 x 31.5 / 200 = 3.94 GB/s.
    let (d, dev) = pcie_box("cpu0", 4);
    let rep = analyze(&d);
    let s = &rep.bandwidth.servers[0];
    let uplink = s
        .pcie
        .iter()
        .find(|h| h.hop == Hop::Uplink("psw0".into()))
        .unwrap();
    let cap = 16.0 * 16.0 * 128.0 / 130.0 / 8.0;
    assert!((uplink.capacity_gbyte_s - cap).abs() < 1e-3);
    // Network 200 GB/s plus storage: this box has no storage NIC, so 8 x 1 GB/s of storage shares the path; what
    // is offered is capped by the 200 GB/s of NIC ports the flows end at, and what is carried by the uplink.
    assert!(
        (uplink.offered_gbyte_s - 200.0).abs() < 1e-6,
        "{}",
        uplink.offered_gbyte_s
    );
    assert!(
        (uplink.load_gbyte_s - cap).abs() < 1e-3,
        "{}",
        uplink.load_gbyte_s
    );
    assert!(uplink.choke);
    assert_eq!((uplink.lanes_down, uplink.lanes_up), (128, 16));
    assert!(
        (s.network_gbyte_s_per_gpu - 25.0 * cap / 200.0).abs() < 1e-3,
        "{}",
        s.network_gbyte_s_per_gpu
    );
    assert_eq!(s.bottleneck_hop, "psw0 uplink");
    let f = rep
        .findings
        .iter()
        .find(|f| f.code == FindingCode::PcieOversubscribed)
        .expect("PCIe finding");
    assert!(f.message.contains("psw0 uplink"), "{}", f.message);
    assert_eq!(f.devices, vec![dev]);
}

#[test]
fn a_hop_behind_a_choke_is_judged_by_what_reaches_it() {
    // The GPUs' switch on cpu0 (one Gen4 x16 uplink, 31.5 GB/s), two 400G NICs on cpu1, the sockets joined by
    // 83 GB/s. Offered: 2 x 50 = 100 GB/s network (+ 8 GB/s of storage, capped by the ports at 100) through the
    // uplink and the socket link alike. Every flow is held to 31.5 / 100 at the uplink, so the socket link carries
    // 31.5 GB/s of the 100 offered: under its 83, not overloaded. The finding names the uplink only, and says what
    // the socket link is offered and carries.
    let (d, _) = pcie_box("cpu1", 2);
    let rep = analyze(&d);
    let s = &rep.bandwidth.servers[0];
    let cap = 16.0 * 16.0 * 128.0 / 130.0 / 8.0;
    let upi = s
        .pcie
        .iter()
        .find(|h| h.hop == Hop::InterSocket("cpu0".into(), "cpu1".into()))
        .unwrap();
    assert!(
        (upi.offered_gbyte_s - 100.0).abs() < 1e-6,
        "{}",
        upi.offered_gbyte_s
    );
    assert!(
        (upi.load_gbyte_s - cap).abs() < 1e-3,
        "{}",
        upi.load_gbyte_s
    );
    assert!(!upi.choke);
    let uplink = s
        .pcie
        .iter()
        .find(|h| h.hop == Hop::Uplink("psw0".into()))
        .unwrap();
    assert!(uplink.choke);
    let f: Vec<_> = rep
        .findings
        .iter()
        .filter(|f| f.code == FindingCode::PcieOversubscribed)
        .collect();
    assert_eq!(f.len(), 1);
    assert!(
        f[0].message
            .starts_with("PCIe psw0 uplink is offered 100.0 GB/s"),
        "{}",
        f[0].message
    );
    assert!(
        f[0].message
            .contains("cpu0-cpu1 is offered 100.0 GB/s against 83.0 but carries only 31.5"),
        "{}",
        f[0].message
    );
}

#[test]
fn rack_over_budget_and_disconnected_servers() {
    let c = Catalog::builtin().unwrap();
    let mut d = Design::default();
    let r1 = rack(&mut d, &c, "R1", 15_000.0);
    let r2 = rack(&mut d, &c, "R2", 50_000.0);
    // Two DGX H100 in a 15 kW rack: 2 x 10,200 = 20,400 W, 136%.
    let a = Builder::new(&mut d, &c)
        .add_device("dgx-h100", "a", r1, 1)
        .unwrap();
    let b = Builder::new(&mut d, &c)
        .add_device("dgx-h100", "b", r1, 10)
        .unwrap();
    // Two leaves, no spine: a and b each on their own leaf, c not cabled at all.
    let l1 = Builder::new(&mut d, &c)
        .add_device("qm9700", "l1", r2, 1)
        .unwrap();
    let l2 = Builder::new(&mut d, &c)
        .add_device("qm9700", "l2", r2, 2)
        .unwrap();
    let cc = Builder::new(&mut d, &c)
        .add_device("dgx-h100", "c", r2, 10)
        .unwrap();
    cable(
        &mut d,
        PortRef::new(a, "nic0/p1"),
        PortRef::new(l1, "p1"),
        NDR,
    );
    cable(
        &mut d,
        PortRef::new(b, "nic0/p1"),
        PortRef::new(l2, "p1"),
        NDR,
    );
    let rep = analyze(&d);
    let power = rep
        .findings
        .iter()
        .find(|f| f.code == FindingCode::RackPower)
        .expect("power finding");
    assert_eq!(power.severity, Severity::Error);
    assert_eq!(power.racks, vec![r1]);
    assert!(
        power
            .message
            .contains("20.4 kW against its 15.0 kW budget: 5.4 kW over (136%)"),
        "{}",
        power.message
    );
    let rack1 = rep.power.racks.iter().find(|r| r.rack == r1).unwrap();
    assert_eq!(rack1.remaining_w, 15_000.0 - 20_400.0);
    let lonely = rep
        .findings
        .iter()
        .find(|f| f.code == FindingCode::GpuNotConnected)
        .expect("not connected");
    assert_eq!(lonely.devices, vec![cc]);
    let split = rep
        .findings
        .iter()
        .find(|f| f.code == FindingCode::FabricPartitioned)
        .expect("partitioned");
    assert_eq!(split.severity, Severity::Error);
    // Each DGX H100 has 10 NICs (8 ConnectX-7, 2 BlueField-3): 9 uncabled in a and in b, 10 in c.
    let nic = rep
        .findings
        .iter()
        .find(|f| f.code == FindingCode::NicNotConnected)
        .unwrap();
    assert!(
        nic.message.starts_with("28 NICs in 3 servers"),
        "{}",
        nic.message
    );
    // No storage at all for 24 GPUs.
    assert!(
        rep.findings
            .iter()
            .any(|f| f.code == FindingCode::NoStorage)
    );
    // a and b each hang on one cable to their leaf: losing it cuts the server off the fabric, so both cables are
    // single links, naming both servers; c has no cable to lose.
    let single = rep
        .findings
        .iter()
        .find(|f| f.code == FindingCode::SingleLink)
        .expect("single-link finding");
    let mut named = single.devices.clone();
    named.sort();
    assert_eq!(named, vec![a, b]);
    assert_eq!(single.links.len(), 2);
    // The uncabled server: 0 Gb/s (never "-0") and a bottleneck in words.
    let sc = rep
        .bandwidth
        .servers
        .iter()
        .find(|s| s.device == cc)
        .unwrap();
    assert!(sc.nic_gbps_per_gpu == 0.0 && sc.nic_gbps_per_gpu.is_sign_positive());
    assert!(sc.compute_nic_cabled_gbps.is_sign_positive());
    assert_eq!(format!("{:.0}", sc.nic_gbps_per_gpu), "0");
    assert_eq!(sc.bottleneck_hop, "no compute NIC cabled");
}

#[test]
fn starved_storage_is_found() {
    // One AI400X2 (90 GB/s rated) instead of three for the 248 GPUs of a SuperPOD SU: 90 / 248 = 0.363 GB/s per
    // GPU, below 1 GB/s.
    let mut d = racksmith::samples::sample("superpod-h100-1su").unwrap();
    let ddn: Vec<DeviceId> = d
        .devices
        .iter()
        .filter(|(_, x)| x.name.starts_with("ddn"))
        .map(|(id, _)| *id)
        .collect();
    for id in &ddn[1..] {
        Edit::RemoveDevice(*id).apply(&mut d).unwrap();
    }
    let rep = analyze(&d);
    let f = rep
        .findings
        .iter()
        .find(|f| f.code == FindingCode::StoragePerGpu)
        .expect("storage finding");
    assert!((rep.bandwidth.storage.per_gpu_gbyte_s - 90.0 / 248.0).abs() < 1e-4);
    assert!(f.message.contains("0.36 GB/s per GPU"), "{}", f.message);
}

#[test]
fn one_utilisation_everywhere_and_saturation_shown_as_such() {
    let base = racksmith::samples::sample("superpod-h100-1su").unwrap();
    let r = analyze(&base);
    assert!(
        r.findings
            .iter()
            .all(|f| f.code != FindingCode::UtilisationTarget)
    );
    assert!(
        r.latency
            .paths
            .iter()
            .all(|p| !p.saturated && p.p99_ns.is_finite())
    );

    // At 1.0: the queues are saturated (no finite percentile), cost counts every hour busy, and the finding fires.
    let mut full = base.clone();
    full.params.utilisation_target = 1.0;
    let r1 = analyze(&full);
    assert_eq!(r1.latency.utilisation, 1.0);
    let net: Vec<_> = r1.latency.paths.iter().filter(|p| p.links > 0).collect();
    assert!(!net.is_empty());
    assert!(net.iter().all(|p| p.saturated && p.p99_ns.is_infinite()));
    assert!(r1.summary.p99_latency_us.is_infinite());
    let f = r1
        .findings
        .iter()
        .find(|f| f.code == FindingCode::UtilisationTarget)
        .expect("finding");
    assert_eq!(f.severity, Severity::Error);
    assert!(f.message.contains("saturated"), "{}", f.message);
    let text = racksmith::analysis::text::render(&r1);
    assert!(text.contains("saturated"), "{text}");

    // Outside (0, 1) on the other side: flagged too.
    let mut none = base.clone();
    none.params.utilisation_target = -0.2;
    assert!(
        analyze(&none)
            .findings
            .iter()
            .any(|f| f.code == FindingCode::UtilisationTarget)
    );
}
