//! Properties of the analysis on random valid designs (proptest): routed loads are never negative and no link
//! carries more than its pattern offers; adding switch capacity never makes the fabric worse; removing a switch
//! or a cable never adds capacity.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use proptest::prelude::*;
use racksmith::analysis::analyze;
use racksmith::analysis::whatif::gpus_reachable;
use racksmith::catalog::Catalog;
use racksmith::edit::{Builder, Edit};
use racksmith::model::{Design, DeviceId, PortRef};
use racksmith::topology::Topology;

/// A random design: leaves and spines (QM9700), servers of three builds cabled to random leaves, random
/// leaf-spine cabling, and optional storage.
#[derive(Debug, Clone)]
struct Shape {
    leaves: usize,
    spines: usize,
    servers: Vec<(u8, Vec<usize>)>,
    uplinks: Vec<Vec<u8>>,
    storage: Vec<usize>,
}

fn shape() -> impl Strategy<Value = Shape> {
    shape_of(0usize..3)
}

/// A random design with at least one leaf-spine cable (a spine or two, and the first leaf's first uplink count at
/// least one): made so, not filtered, so that long runs are not cut short by rejected cases.
fn shape_with_uplinks() -> impl Strategy<Value = Shape> {
    shape_of(1usize..3).prop_map(|mut s| {
        if let Some(n) = s.uplinks.first_mut().and_then(|u| u.first_mut()) {
            *n = (*n).max(1);
        }
        s
    })
}

fn shape_of(spines: std::ops::Range<usize>) -> impl Strategy<Value = Shape> {
    (1usize..4, spines).prop_flat_map(|(leaves, spines)| {
        (
            Just(leaves),
            Just(spines),
            prop::collection::vec((0u8..3, prop::collection::vec(0..leaves, 0..5)), 1..7),
            prop::collection::vec(prop::collection::vec(0u8..3, spines), leaves),
            prop::collection::vec(0..leaves, 0..3),
        )
            .prop_map(|(leaves, spines, servers, uplinks, storage)| Shape {
                leaves,
                spines,
                servers,
                uplinks,
                storage,
            })
    })
}

fn build(s: &Shape) -> Design {
    let c = Catalog::builtin().unwrap();
    let mut d = Design::default();
    let (rack, _) = Builder::new(&mut d, &c)
        .add_rack("rack-48u", "N", 0, 0)
        .unwrap();
    let mut b = Builder::new(&mut d, &c);
    let leaves: Vec<DeviceId> = (0..s.leaves)
        .map(|i| b.add_device("qm9700", &format!("leaf{i}"), rack, 1 + i as u16))
        .collect::<Result<_, _>>()
        .unwrap();
    let spines: Vec<DeviceId> = (0..s.spines)
        .map(|i| b.add_device("qm9700", &format!("spine{i}"), rack, 10 + i as u16))
        .collect::<Result<_, _>>()
        .unwrap();
    let mut free = vec![1u16; leaves.len() + spines.len()];
    let mut next_port = |sw: usize| {
        let p = free[sw];
        free[sw] += 1;
        p
    };
    let mut racks = Vec::new();
    for (i, (kind, links)) in s.servers.iter().enumerate() {
        if i % 4 == 0 {
            let (r, _) = Builder::new(&mut d, &c)
                .add_rack("rack-48u", &format!("R{i}"), 0, 1 + i as u16)
                .unwrap();
            racks.push(r);
        }
        let r = *racks.last().unwrap();
        let u = 1 + 10 * (i % 4) as u16;
        let mut b = Builder::new(&mut d, &c);
        let dev = match kind {
            0 => b.add_device("dgx-h100", &format!("s{i}"), r, u).unwrap(),
            1 => b.add_device("dgx-a100", &format!("s{i}"), r, u).unwrap(),
            _ => {
                let dev = b.add_device("pcie-gpu-4u", &format!("s{i}"), r, u).unwrap();
                b.fill_gpus(dev, "l40s", 0..8).unwrap();
                b.fill_nics(dev, "cx7-ndr", 0..4).unwrap();
                dev
            }
        };
        for (k, leaf) in links.iter().take(4).enumerate() {
            let p = next_port(*leaf);
            let (_, e) = Builder::new(&mut d, &c)
                .link_edit(
                    PortRef::new(dev, format!("nic{k}/p1")),
                    PortRef::new(leaves[*leaf], format!("p{p}")),
                    3.0,
                    None,
                )
                .unwrap();
            e.apply(&mut d).unwrap();
        }
    }
    for (l, ups) in s.uplinks.iter().enumerate() {
        for (sp, n) in ups.iter().enumerate() {
            for _ in 0..*n {
                let (pl, ps) = (next_port(l), next_port(leaves.len() + sp));
                let (_, e) = Builder::new(&mut d, &c)
                    .link_edit(
                        PortRef::new(leaves[l], format!("p{pl}")),
                        PortRef::new(spines[sp], format!("p{ps}")),
                        10.0,
                        None,
                    )
                    .unwrap();
                e.apply(&mut d).unwrap();
            }
        }
    }
    for (i, leaf) in s.storage.iter().enumerate() {
        let st = Builder::new(&mut d, &c)
            .add_device("nvme-server-2u", &format!("st{i}"), rack, 20 + 2 * i as u16)
            .unwrap();
        let p = next_port(*leaf);
        let (_, e) = Builder::new(&mut d, &c)
            .link_edit(
                PortRef::new(st, "p1"),
                PortRef::new(leaves[*leaf], format!("p{p}")),
                3.0,
                None,
            )
            .unwrap();
        e.apply(&mut d).unwrap();
    }
    assert!(
        racksmith::io::validate(&d).is_empty(),
        "{:?}",
        racksmith::io::validate(&d)
    );
    d
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, .. ProptestConfig::default() })]

    #[test]
    fn loads_are_bounded(s in shape()) {
        let d = build(&s);
        let r = analyze(&d);
        for (i, p) in r.bandwidth.routing.patterns.iter().enumerate() {
            prop_assert!(p.offered_gbps >= 0.0 && p.unroutable_gbps >= 0.0);
            prop_assert!(p.unroutable_gbps <= p.offered_gbps * (1.0 + 1e-9) + 1e-9);
            for l in &r.bandwidth.routing.links {
                let x = l.loads_gbps[i];
                prop_assert!(x >= 0.0, "negative load {x} on {}", l.link);
                prop_assert!(x <= p.offered_gbps * (1.0 + 1e-9) + 1e-6, "{}: {x} > offered {}", p.pattern, p.offered_gbps);
            }
        }
    }

    #[test]
    fn adding_switch_capacity_never_hurts(s in shape_with_uplinks(), pick in 0usize..1000) {
        let d = build(&s);
        let before = analyze(&d);
        // Double one existing switch-to-switch connection with a parallel cable on free ports.
        let sw: Vec<_> = d.links.values().filter(|l| d.devices[&l.a.device].name.starts_with("leaf") && d.devices[&l.b.device].name.starts_with("spine")).cloned().collect();
        prop_assert!(!sw.is_empty(), "a shape with uplinks has a leaf-spine cable");
        let l = &sw[pick % sw.len()];
        let mut bigger = d.clone();
        let c = Catalog::builtin().unwrap();
        let free = |dev: DeviceId, d: &Design| (1..=64).map(|p| PortRef::new(dev, format!("p{p}"))).find(|p| d.link_at(p).is_none());
        let (Some(a), Some(b)) = (free(l.a.device, &bigger), free(l.b.device, &bigger)) else { return Ok(()) };
        let (_, e) = Builder::new(&mut bigger, &c).link_edit(a, b, 10.0, None).unwrap();
        e.apply(&mut bigger).unwrap();
        let after = analyze(&bigger);
        prop_assert!(after.bandwidth.bisection.gbps >= before.bandwidth.bisection.gbps - 1e-9);
        // Not asserted: inter_node_gbyte_s. It is the routed all-reduce's rate, and ECMP weighted by each switch's own
        // link capacities is not monotone: a leaf with 2 cables to spine 0 and 1 to spine 1 sends 2/3 of its
        // traffic through spine 0 even when spine 0 has a single cable onwards, and a third cable makes that 3/4
        // (docs/analysis.md, "Traffic on the drawn topology"). The bisection, a max-flow, is monotone.
    }

    #[test]
    fn removing_a_part_never_adds_capacity(s in shape(), pick in 0usize..1000, device in any::<bool>()) {
        let d = build(&s);
        let before = analyze(&d);
        let mut smaller = d.clone();
        if device {
            let switches: Vec<DeviceId> = d.devices.iter().filter(|(_, x)| x.name.starts_with("leaf") || x.name.starts_with("spine")).map(|(id, _)| *id).collect();
            Edit::RemoveDevice(switches[pick % switches.len()]).apply(&mut smaller).unwrap();
        } else {
            let links: Vec<_> = d.links.keys().copied().collect();
            prop_assume!(!links.is_empty());
            Edit::RemoveLink(links[pick % links.len()]).apply(&mut smaller).unwrap();
        }
        let after = analyze(&smaller);
        prop_assert!(gpus_reachable(&smaller, &Topology::build(&smaller)) <= gpus_reachable(&d, &Topology::build(&d)));
        prop_assert!(after.bandwidth.bisection.gbps <= before.bandwidth.bisection.gbps + 1e-9,
            "bisection {} -> {}", before.bandwidth.bisection.gbps, after.bandwidth.bisection.gbps);
        prop_assert!(after.bandwidth.storage.deliverable_gbyte_s <= before.bandwidth.storage.deliverable_gbyte_s + 1e-9);
    }
}
