//! Routing tests: the fast paths against the oracles, and loads on the samples checked by hand.

use super::*;
use crate::samples::sample;

fn pattern<'a>(r: &'a RoutingReport, name: &str) -> &'a PatternLoad {
    r.patterns
        .iter()
        .find(|p| p.pattern.starts_with(name))
        .unwrap()
}

/// The aggregated all-to-all against the per-pair reference: access and switch demands, then the routed loads.
fn same_as_pairs(d: &Design) {
    let f = fabric(d);
    let (servers, _) = endpoints(d, &f);
    let gpus_total: f64 = servers.iter().map(|s| s.gpus).sum();
    let g = groups(&servers);
    let new_router = || Router {
        access: vec![([0.0; P], [0.0; P]); d.links.len()],
        demand: HashMap::default(),
        offered: [0.0; P],
        component: components(&f),
        products: Products::default(),
    };
    let (mut fast, mut slow) = (new_router(), new_router());
    all_to_all(&mut fast, &servers, &g, gpus_total);
    all_to_all_pairs(&mut slow, &servers, &g, gpus_total);
    let close = |a: f64, b: f64, what: &str| {
        assert!(
            (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs())),
            "{}: {what}: {a} against {b}",
            d.name
        );
    };
    let a2a = Pattern::AllToAll.index();
    close(fast.offered[a2a], slow.offered[a2a], "offered");
    assert_eq!(fast.access.len(), slow.access.len());
    for (l, (a, b)) in d.links.keys().zip(fast.access.iter().zip(&slow.access)) {
        close(a.0[a2a], b.0[a2a], &format!("up {l:?}"));
        close(a.1[a2a], b.1[a2a], &format!("down {l:?}"));
    }
    let flat = |r: &Router| -> BTreeMap<(usize, usize), f64> {
        let mut m = BTreeMap::new();
        // The products written out per switch pair.
        let own: BTreeMap<(usize, usize), f64> = r
            .products
            .own
            .iter()
            .flat_map(|(t, v)| v.iter().map(move |(s, x)| ((*s, *t), *x)))
            .collect();
        for ProductTerm {
            sources: a,
            destinations: b,
        } in &r.products.terms
        {
            for t in b.keys() {
                for (s, _) in a {
                    if s != t {
                        let x = r
                            .products
                            .net(*s, *t, own.get(&(*s, *t)).copied().unwrap_or(0.0));
                        if x != 0.0 {
                            m.insert((*s, *t), x);
                        }
                    }
                }
            }
        }
        for (t, by) in &r.demand {
            for (s, x) in by {
                if x[a2a] != 0.0 {
                    m.insert((*s, *t), x[a2a]);
                }
            }
        }
        m
    };
    let (df, ds) = (flat(&fast), flat(&slow));
    assert_eq!(
        df.keys().collect::<Vec<_>>(),
        ds.keys().collect::<Vec<_>>(),
        "{}: switch pairs with demand",
        d.name
    );
    for (k, x) in &df {
        close(*x, ds[k], &format!("demand {k:?}"));
    }
    assert!(fast.demand.is_empty() && slow.products.terms.is_empty());
    let (lf, uf, _) = route(&f, &fast.demand, &fast.products);
    let (ls, us) = route_reference(&f, &slow.demand, &slow.products);
    for (a, b) in lf.iter().zip(&ls) {
        close(a.0[a2a], b.0[a2a], "routed load");
        close(a.1[a2a], b.1[a2a], "routed load");
    }
    close(uf[a2a], us[a2a], "unroutable");
}

/// Designs to compare the fast paths against their references on: SuperPODs, the samples, and random
/// asymmetric fabrics (some with serving traffic through the ingress).
fn test_designs() -> Vec<Design> {
    let c = crate::catalog::Catalog::builtin().unwrap();
    let mut designs = vec![
        crate::samples::superpod_h100(&c, 1).unwrap(),
        crate::samples::superpod_h100(&c, 2).unwrap(),
        crate::samples::superpod_h100(&c, 8).unwrap(),
        // Two leaves that share no spine: the all-to-all is unroutable.
        crate::samples::dgx_fabric(&c, &[vec![0], vec![1]], 2, 0, &[]).unwrap(),
    ];
    for name in [
        "a100-120gpu-training",
        "a100-nic-starved",
        "dgx-h100-single",
        "h100-60gpu-training",
        "l40s-inference-pcie",
    ] {
        designs.push(sample(name).unwrap());
    }
    // Random asymmetric fabrics: servers on unequal leaves (some ports on several leaves, some servers alone),
    // random uplinks (some missing), and cables removed at random.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |m: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % m as u64) as usize
    };
    for i in 0..24 {
        let leaves = 2 + next(4);
        let spines = 1 + next(3);
        let servers: Vec<Vec<usize>> = (0..2 + next(9))
            .map(|_| (0..1 + next(8)).map(|_| next(leaves)).collect())
            .collect();
        let uplinks: Vec<Vec<u16>> = (0..leaves)
            .map(|_| (0..spines).map(|_| next(3) as u16).collect())
            .collect();
        let mut d = crate::samples::dgx_fabric(&c, &servers, leaves, spines, &uplinks).unwrap();
        let ids: Vec<LinkId> = d.links.keys().copied().collect();
        for _ in 0..next(4) {
            let id = ids[next(ids.len())];
            d.links.remove(&id);
        }
        if i % 3 == 0 {
            d.params.serving = sample("l40s-inference-pcie").unwrap().params.serving;
        }
        designs.push(d);
    }
    designs
}

#[test]
fn aggregated_all_to_all_equals_per_pair() {
    for d in &test_designs() {
        same_as_pairs(d);
    }
}

#[test]
fn class_routing_equals_per_destination_walk() {
    // Every pattern's demand (rings, all-to-all products, storage, serving through the ingress) routed per
    // destination class against the per-destination walk: the same loads on every edge (and zero on the same
    // edges, so the report lists the same links) and the same unroutable traffic.
    let mut designs = test_designs();
    let c = crate::catalog::Catalog::builtin().unwrap();
    let mut pod = crate::samples::superpod_h100(&c, 8).unwrap();
    pod.params.serving = sample("l40s-inference-pcie").unwrap().params.serving;
    designs.push(pod);
    for d in &designs {
        let (f, r) = demands(d);
        let (l, u, _) = route(&f, &r.demand, &r.products);
        let fast = (l, u);
        let slow = route_reference(&f, &r.demand, &r.products);
        assert_same_loads(&d.name, &fast, &slow);
    }
}

/// Two routings give the same loads on every edge (zero on the same edges, so the report lists the same links)
/// and the same unroutable traffic, to rounding.
fn assert_same_loads(
    name: &str,
    (loads, lost): &(Vec<(Loads, Loads)>, Loads),
    (other, other_lost): &(Vec<(Loads, Loads)>, Loads),
) {
    let close = |a: f64, b: f64, what: &str| {
        assert!(
            (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs())) && ((a == 0.0) == (b == 0.0)),
            "{name}: {what}: {a} against {b}"
        );
    };
    assert_eq!(loads.len(), other.len(), "{name}: edges");
    for (e, (a, b)) in loads.iter().zip(other).enumerate() {
        for k in 0..P {
            close(a.0[k], b.0[k], &format!("edge {e} pattern {k} a to b"));
            close(a.1[k], b.1[k], &format!("edge {e} pattern {k} b to a"));
        }
    }
    for k in 0..P {
        close(lost[k], other_lost[k], &format!("unroutable {k}"));
    }
}

/// The link between two named devices (the first one found).
fn link_between(d: &Design, a: &str, b: &str) -> LinkId {
    let id = |name: &str| d.device_named(name).unwrap();
    let (a, b) = (id(a), id(b));
    d.links
        .iter()
        .find(|(_, l)| (l.a.device == a && l.b.device == b) || (l.a.device == b && l.b.device == a))
        .map(|(id, _)| *id)
        .unwrap()
}

/// A 16-SU SuperPOD, and the same without the cable between spine-p02-01 and core-01-01.
fn superpod_16_without_a_core_cable() -> (Design, Design) {
    let c = crate::catalog::Catalog::builtin().unwrap();
    let base = crate::samples::superpod_h100(&c, 16).unwrap();
    let mut spine_core = base.clone();
    spine_core
        .links
        .remove(&link_between(&base, "spine-p02-01", "core-01-01"));
    (base, spine_core)
}

#[test]
fn mapping_relabels_what_a_map_of_switch_pairs_does() {
    // Each relabelling of a 16-SU SuperPOD's orbits, and of the variants that keep one orbit, laid out as
    // index arrays: every switch and every directed edge slot goes where the plain definition sends it (the
    // images of its two ends, the edge between them found in a map of switch pairs, the direction kept; a
    // slot whose image edge does not exist stays). Then the arrays are the identity again.
    let (base, spine_core) = superpod_16_without_a_core_cable();
    let mut checked = 0;
    for d in [&base, &spine_core] {
        let (f, r) = demands(d);
        let csr = Csr::new(&f);
        let classes = destination_classes(&csr, &r.demand, &r.products);
        let pairs: HashMap<(usize, usize), usize> =
            f.ends.iter().enumerate().map(|(e, ab)| (*ab, e)).collect();
        let mut map = Mapping::new(f.adj.len(), 2 * f.ends.len());
        for o in orbits(&f, &csr, &classes, &r.products) {
            for (_, rl) in &o.others {
                map.set(rl, &csr);
                for v in 0..f.adj.len() {
                    assert_eq!(map.node(v), rl.node(v), "{}: switch {v}", d.name);
                }
                for slot in 0..2 * f.ends.len() as u32 {
                    let (a, b) = f.ends[slot as usize / 2];
                    let (from, to) = if slot % 2 == 0 { (a, b) } else { (b, a) };
                    let (x, y) = (rl.node(from), rl.node(to));
                    let want = match pairs.get(&(x.min(y), x.max(y))) {
                        Some(&e) => 2 * e as u32 + u32::from(x > y),
                        None => slot,
                    };
                    assert_eq!(map.slot(slot), want, "{}: slot {slot}", d.name);
                    checked += usize::from(want != slot);
                }
                map.clear();
                assert!((0..f.adj.len()).all(|v| map.node(v) == v && !map.moves(v)));
                assert!((0..2 * f.ends.len() as u32).all(|x| map.slot(x) == x));
            }
        }
    }
    assert!(checked > 1000, "only {checked} slots moved");
}

#[test]
fn compressed_rows_list_each_switchs_edges_in_edge_order() {
    // The routing's rows against the fabric's adjacency lists: the same neighbours and edges in the same
    // order (which fixes the order of every sum), with each edge's capacity and direction.
    let c = crate::catalog::Catalog::builtin().unwrap();
    let mut designs = vec![crate::samples::superpod_h100(&c, 4).unwrap()];
    designs.extend(test_designs());
    for d in &designs {
        let f = fabric(d);
        let csr = Csr::new(&f);
        for (v, adj) in f.adj.iter().enumerate() {
            let want: Vec<(u32, u32, f64, bool)> = adj
                .iter()
                .map(|&(w, e)| (w as u32, e as u32, f.cap[e], f.ends[e].0 == v))
                .collect();
            assert_eq!(csr.neighbours(v), want.as_slice(), "{}: switch {v}", d.name);
        }
    }
}

#[test]
fn symmetric_classes_route_as_one() {
    // 16-SU SuperPODs: four pods of 32 leaves, each pod's leaves one destination class. Pods 1-3 are swapped
    // by automorphisms and carry the same all-to-all (pod 4 holds the 31-DGX SU), so they are routed as one
    // orbit. Variants break the symmetry where the classes must not be merged: a spine-core cable missing in
    // pod 2, a leaf-spine cable missing in pod 3 (that leaf becomes a class of its own), a DGX unplugged in
    // pod 1 (unequal leaves: its demand differs), serving through the ingress. On each, the orbit routing, the
    // per-class routing and the per-destination walk give the same loads (zero on the same edges) and the
    // same unroutable traffic; the random asymmetric fabrics of `test_designs` too.
    let (base, spine_core) = superpod_16_without_a_core_cable();
    let mut leaf_spine = base.clone();
    leaf_spine
        .links
        .remove(&link_between(&base, "leaf-su09-r1", "spine-p03-05"));
    let mut unplugged = base.clone();
    let dgx = base.device_named("dgx-0007").unwrap();
    unplugged
        .links
        .retain(|_, l| l.a.device != dgx && l.b.device != dgx);
    let mut serving = base.clone();
    serving.params.serving = sample("l40s-inference-pcie").unwrap().params.serving;
    // (design, orbits of more than one class: (representative's pod size, classes it stands for)).
    let cases: Vec<(&Design, Vec<usize>)> = vec![
        (&base, vec![2]),
        (&spine_core, vec![1]),
        (&leaf_spine, vec![1]),
        (&unplugged, vec![1]),
        (&serving, vec![2]),
    ];
    for (d, want) in &cases {
        let (f, r) = demands(d);
        let csr = Csr::new(&f);
        let classes = destination_classes(&csr, &r.demand, &r.products);
        let got: Vec<usize> = orbits(&f, &csr, &classes, &r.products)
            .iter()
            .filter(|o| !o.others.is_empty())
            .map(|o| o.others.len())
            .collect();
        assert_eq!(&got, want, "{}: orbits", d.name);
    }
    let mut designs: Vec<Design> = cases.iter().map(|(d, _)| (*d).clone()).collect();
    designs.extend(test_designs());
    for d in &designs {
        let (f, r) = demands(d);
        let fast = route_with(&f, &r.demand, &r.products, true);
        let plain = route_with(&f, &r.demand, &r.products, false);
        let slow = route_reference(&f, &r.demand, &r.products);
        assert_same_loads(&d.name, &fast, &plain);
        assert_same_loads(&d.name, &fast, &slow);
    }
}

#[test]
fn rail_optimised_unit_by_hand() {
    // SuperPOD 1 SU: 31 DGX, 8 rails. Hierarchical rings: 31 servers x 8 rails = 248 ring hops of 400G, all
    // inside a rail's leaf: nothing crosses the spine; every compute cable carries 400G (up and down).
    let d = sample("superpod-h100-1su").unwrap();
    let r = analyze(&d);
    let h = pattern(&r, "all-reduce, hierarchical");
    assert_eq!(h.offered_gbps, 248.0 * 400.0);
    assert_eq!(h.unroutable_gbps, 0.0);
    assert!((h.hottest_utilisation - 1.0).abs() < 1e-9);
    let spine_links: Vec<&LinkLoad> = r
        .links
        .iter()
        .filter(|l| {
            let link = &d.links[&l.link];
            d.devices[&link.b.device].name.starts_with("spine")
        })
        .collect();
    assert!(
        spine_links
            .iter()
            .all(|l| l.loads_gbps[Pattern::RailRings.index()] == 0.0)
    );
    // All-to-all with PXN: each DGX sends 3,200 Gb/s spread over 240 other GPUs on its own rails; every pair of
    // DGX shares all 8 leaves, so again nothing crosses the spine, and every compute cable carries 400G.
    let a = pattern(&r, "all-to-all");
    assert!(
        (a.offered_gbps - 31.0 * 3200.0).abs() < 1e-6,
        "{}",
        a.offered_gbps
    );
    assert!((a.hottest_utilisation - 1.0).abs() < 1e-6);
    assert!(
        spine_links
            .iter()
            .all(|l| l.loads_gbps[Pattern::AllToAll.index()] == 0.0)
    );
}

#[test]
fn ecmp_splits_across_spines() {
    // Two leaves with four DGX H100 each and 8 uplinks to one spine per leaf... here: the oversubscribed pair
    // from the sample a100 design is single-leaf, so build across-spine traffic with the 2-SU SuperPOD: the flat
    // ring crosses from SU 1 to SU 2 once each way, on rail 0 (leaf r1 of each SU), spread over the 8 spines
    // that leaf reaches with 4 cables each: 400 / 32 = 12.5 Gb/s per uplink cable of leaf-su01-r1.
    let catalog = crate::catalog::Catalog::builtin().unwrap();
    let d = crate::samples::superpod_h100(&catalog, 2).unwrap();
    let r = analyze(&d);
    let leaf = d.device_named("leaf-su01-r1").unwrap();
    let uplinks: Vec<f64> = r
        .links
        .iter()
        .filter(|l| {
            let link = &d.links[&l.link];
            link.a.device == leaf && d.devices[&link.b.device].name.starts_with("spine")
        })
        .map(|l| l.loads_gbps[Pattern::FlatRing.index()])
        .collect();
    assert_eq!(uplinks.len(), 32);
    assert!(
        uplinks.iter().all(|x| (x - 12.5).abs() < 1e-9),
        "{uplinks:?}"
    );
}

#[test]
fn disconnected_demand_is_unroutable() {
    // Two DGX with one 400G port each, on two leaves that share no spine: the flat ring sends 400 Gb/s each
    // way (800 offered) and none of it has a path; all-to-all offers 2 x 400 = 800 Gb/s, all unroutable.
    let c = crate::catalog::Catalog::builtin().unwrap();
    let d = crate::samples::dgx_fabric(&c, &[vec![0], vec![1]], 2, 0, &[]).unwrap();
    let r = analyze(&d);
    let ring = pattern(&r, "all-reduce, flat ring");
    assert_eq!((ring.offered_gbps, ring.unroutable_gbps), (800.0, 800.0));
    let a2a = pattern(&r, "all-to-all");
    assert_eq!((a2a.offered_gbps, a2a.unroutable_gbps), (800.0, 800.0));
    let report = crate::analysis::analyze(&d);
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.code == crate::analysis::FindingCode::UnroutableTraffic)
    );
    // One spine joining the leaves makes it all routable.
    let d = crate::samples::dgx_fabric(&c, &[vec![0], vec![1]], 2, 1, &[vec![1], vec![1]]).unwrap();
    assert!(
        analyze(&d)
            .patterns
            .iter()
            .all(|p| p.unroutable_gbps == 0.0)
    );
    let report = crate::analysis::analyze(&d);
    assert!(
        report
            .findings
            .iter()
            .all(|f| f.code != crate::analysis::FindingCode::UnroutableTraffic)
    );
}

#[test]
fn storage_read_on_one_leaf() {
    // The starved A100 design on one leaf: all traffic is routable and stays on the leaf.
    let d = sample("a100-nic-starved").unwrap();
    let r = analyze(&d);
    assert!(r.patterns.iter().all(|p| p.unroutable_gbps == 0.0));
    // Storage: 64 GPUs x 8 Gb/s = 512 Gb/s offered, arriving on each server's one 200G NIC (8 x 8 = 64 Gb/s).
    let s = pattern(&r, "storage read");
    assert!((s.offered_gbps - 512.0).abs() < 1e-9);
    assert!(
        (s.hottest_utilisation - 128.0 / 200.0).abs() < 1e-9,
        "{}",
        s.hottest_utilisation
    );
}

#[test]
fn storage_reads_stay_in_their_storage_fabric() {
    // The 2-SU SuperPOD has a storage fabric per SU: four storage leaves, not cabled to each other, each with
    // two ports of every appliance of the SU and one BlueField-3 port of every DGX. SU 1 has 32 DGX and three
    // AI400X2, SU 2 has 31 DGX; remove one of SU 2's appliances. Every GPU reads 1 GB/s = 8 Gb/s, so SU 1
    // asks 32 x 8 x 8 = 2,048 Gb/s and SU 2 31 x 8 x 8 = 1,984 Gb/s, each of its own appliances, in proportion
    // to what each delivers (all alike: min(90 GB/s x 8, 8 x 400G) = 720 Gb/s). SU 1's appliances send
    // 2,048 / 3 Gb/s each, SU 2's two 1,984 / 2 = 992 Gb/s each, spread over their eight cables.
    let c = crate::catalog::Catalog::builtin().unwrap();
    let mut d = crate::samples::superpod_h100(&c, 2).unwrap();
    let named = |d: &Design, name: &str| d.device_named(name).unwrap();
    let gone = named(&d, "ddn-su02-3");
    d.remove_devices(&[gone].into_iter().collect());
    let r = analyze(&d);
    let storage = Pattern::StorageRead.index();
    let sent = |name: &str| -> f64 {
        let id = named(&d, name);
        r.links
            .iter()
            .filter(|l| {
                d.links
                    .get(&l.link)
                    .is_some_and(|x| x.a.device == id || x.b.device == id)
            })
            .map(|l| l.loads_gbps[storage])
            .sum()
    };
    for name in ["ddn-su01-1", "ddn-su01-2", "ddn-su01-3"] {
        // The report rounds each load to 0.1 Mb/s.
        assert!(
            (sent(name) - 2048.0 / 3.0).abs() < 1e-3,
            "{name}: {}",
            sent(name)
        );
    }
    for name in ["ddn-su02-1", "ddn-su02-2"] {
        assert!((sent(name) - 992.0).abs() < 1e-3, "{name}: {}", sent(name));
    }
    let s = pattern(&r, "storage read");
    assert!((s.offered_gbps - (2048.0 + 1984.0)).abs() < 1e-6);
    assert_eq!(s.unroutable_gbps, 0.0);
}

#[test]
fn ecmp_weighs_next_hops_by_capacity() {
    // Four DGX on one 400G port each: two on leaf-01, two on leaf-02. leaf-01 has 3 cables to spine-01 and 1 to
    // spine-02; leaf-02 has 2 to each. The flat ring (1 -> 2 -> 3 -> 4 -> 1) crosses each way once with 400 Gb/s.
    // Up from leaf-01, weighted by capacity: 3/4 (300) via spine-01, 1/4 (100) via spine-02, so 100 on each of
    // its four uplinks (an equal split over the two spines would put 66.7 on each spine-01 cable). Up from
    // leaf-02, 2:2: 200 via each spine, 100 per cable. Down: spine-01 passes leaf-02's 200 to leaf-01 over 3
    // cables (66.7) and leaf-01's 300 to leaf-02 over 2 (150); spine-02 passes 200 over 1 cable and 100 over 2
    // (50). Busier directions: leaf-01 - spine-01 100 each; leaf-01 - spine-02 200; leaf-02 - spine-01 150 each;
    // leaf-02 - spine-02 100 each.
    let c = crate::catalog::Catalog::builtin().unwrap();
    let d = crate::samples::dgx_fabric(
        &c,
        &[vec![0], vec![0], vec![1], vec![1]],
        2,
        2,
        &[vec![3, 1], vec![2, 2]],
    )
    .unwrap();
    let r = analyze(&d);
    let load = |a: &str, b: &str| -> Vec<f64> {
        let mut v: Vec<f64> = r
            .links
            .iter()
            .filter(|l| {
                let link = &d.links[&l.link];
                d.devices[&link.a.device].name == a && d.devices[&link.b.device].name == b
            })
            .map(|l| l.loads_gbps[Pattern::FlatRing.index()])
            .collect();
        v.sort_by(f64::total_cmp);
        v
    };
    let close = |v: Vec<f64>, want: &[f64]| {
        assert_eq!(v.len(), want.len(), "{v:?}");
        for (x, y) in v.iter().zip(want) {
            assert!((x - y).abs() < 1e-9, "{v:?} against {want:?}");
        }
    };
    close(load("leaf-01", "spine-01"), &[100.0, 100.0, 100.0]);
    close(load("leaf-01", "spine-02"), &[200.0]);
    close(load("leaf-02", "spine-01"), &[150.0, 150.0]);
    close(load("leaf-02", "spine-02"), &[100.0, 100.0]);
}

#[test]
fn flow_is_conserved_at_every_switch() {
    // Every switch passes on what it receives for a destination, less what ends there: for random-ish demands
    // between the leaves of several fabrics, inflow + injected = outflow + delivered at every switch, per
    // pattern, and nothing is unroutable on a connected fabric.
    let c = crate::catalog::Catalog::builtin().unwrap();
    let designs = [
        crate::samples::superpod_h100(&c, 2).unwrap(),
        crate::samples::dgx_fabric(
            &c,
            &[vec![0], vec![1], vec![2], vec![2]],
            3,
            3,
            &[vec![1, 2, 0], vec![0, 1, 3], vec![2, 0, 1]],
        )
        .unwrap(),
    ];
    for d in &designs {
        let f = fabric(d);
        let n = f.adj.len();
        let mut demand: HashMap<usize, HashMap<usize, Loads>> = HashMap::default();
        let mut seed = 12_345u64;
        for t in 0..n {
            for s in 0..n {
                if s == t || f.adj[s].is_empty() || f.adj[t].is_empty() {
                    continue;
                }
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let mut l = [0.0; P];
                l[(seed >> 33) as usize % P] = 1.0 + (seed >> 40) as f64 / 1e6;
                demand.entry(t).or_default().insert(s, l);
            }
        }
        let (loads, unroutable, _) = route(&f, &demand, &Products::default());
        assert!(unroutable.iter().all(|x| *x == 0.0), "{unroutable:?}");
        for v in 0..n {
            for k in 0..P {
                let (mut inflow, mut outflow) = (0.0, 0.0);
                for (e, (a, b)) in f.ends.iter().enumerate() {
                    let (ab, ba) = (loads[e].0[k], loads[e].1[k]);
                    if *a == v {
                        outflow += ab;
                        inflow += ba;
                    }
                    if *b == v {
                        outflow += ba;
                        inflow += ab;
                    }
                }
                let injected: f64 = demand
                    .values()
                    .filter_map(|m| m.get(&v))
                    .map(|l| l[k])
                    .sum();
                let delivered: f64 = demand
                    .get(&v)
                    .map_or(0.0, |m| m.values().map(|l| l[k]).sum());
                assert!(
                    (inflow + injected - outflow - delivered).abs()
                        < 1e-6 * (1.0 + inflow + injected),
                    "switch {v}, pattern {k}: in {inflow} + injected {injected} != out {outflow} + delivered {delivered}"
                );
            }
        }
    }
}

/// A random forest of `n` switches (some trees of one switch; `ingress`: the last switch stands for the serving
/// ingress, a leaf), with random capacities, pairwise demand, product terms and own traffic over it.
fn random_forest(seed: u64, n: usize, ingress: bool) -> (Fabric, Router) {
    let mut seed = seed | 1;
    let mut next = |m: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % m.max(1) as u64) as usize
    };
    let mut adj = vec![Vec::new(); n];
    let (mut ends, mut cap) = (Vec::new(), Vec::new());
    for v in 1..n {
        // About one switch in eight starts a tree of its own; chains come from picking the switch just before.
        if next(8) == 0 {
            continue;
        }
        let p = if next(2) == 0 { v - 1 } else { next(v) };
        let e = ends.len();
        let (a, b) = if next(2) == 0 { (p, v) } else { (v, p) };
        ends.push((a.min(b), a.max(b)));
        cap.push(100.0 * (1 + next(4)) as f64);
        adj[a].push((b, e));
        adj[b].push((a, e));
    }
    let f = Fabric {
        index: HashMap::default(),
        adj,
        ends,
        cap,
        edge_of_link: Vec::new(),
        ingress: (ingress && n > 0 && next(2) == 0).then(|| n - 1),
    };
    let mut r = Router {
        access: Vec::new(),
        demand: HashMap::default(),
        offered: [0.0; P],
        component: components(&f),
        products: Products::default(),
    };
    for _ in 0..next(3 * n) {
        let (s, t) = (next(n), next(n));
        let mut l = [0.0; P];
        l[next(P)] = 1.0 + next(1000) as f64 / 7.0;
        let e = r.demand.entry(t).or_default().entry(s).or_default();
        add_scaled(e, &l, 1.0);
    }
    for _ in 0..1 + next(4) {
        let mut sources: BTreeMap<usize, f64> = BTreeMap::new();
        for _ in 0..1 + next(n) {
            *sources.entry(next(n)).or_default() += 0.5 + next(100) as f64 / 3.0;
        }
        let mut destinations: HashMap<usize, f64> = HashMap::default();
        for _ in 0..1 + next(n) {
            *destinations.entry(next(n)).or_default() += 1.0 + next(64) as f64;
        }
        r.products.terms.push(ProductTerm {
            sources: sources.into_iter().collect(),
            destinations,
        });
    }
    // Own traffic: part of a pair's product demand, or all of it (a group alone); once per pair, as
    // `all_to_all` sums it.
    let mut own: BTreeMap<(usize, usize), f64> = BTreeMap::new();
    for _ in 0..next(n) {
        let (s, t) = (next(n), next(n));
        let whole = r.products.whole(s, t);
        if s == t || whole == 0.0 {
            continue;
        }
        own.insert((t, s), if next(2) == 0 { whole } else { whole * 0.25 });
    }
    for ((t, s), x) in own {
        r.products.own.entry(t).or_default().push((s, x));
    }
    (f, r)
}

#[test]
fn forest_routing_equals_the_walk() {
    // Trees, chains, single switches and whole forests, with the ingress as a leaf or not: the subtree sums give
    // the walk's loads on every edge (zero on the same edges) and the same unroutable traffic.
    for i in 0..300u64 {
        let n = 1 + (i as usize * 7) % 60;
        let (f, r) = random_forest(0x9e37_79b9_7f4a_7c15 ^ (i * 0x1000_0001), n, i % 2 == 0);
        assert!(tree::is_forest(&f), "case {i}");
        let (l, u, _) = tree::route_forest(&f, &r.demand, &r.products);
        let walk = route_with(&f, &r.demand, &r.products, false);
        assert_same_loads(&format!("forest {i} of {n}"), &(l, u), &walk);
        let slow = route_reference(&f, &r.demand, &r.products);
        assert_same_loads(&format!("forest {i} of {n} (reference)"), &walk, &slow);
    }
}

#[test]
fn forest_routing_work_grows_with_the_chain() {
    // A chain of n switches, a server on each: the walk per destination visits n switches n times; the forest
    // routing n log n. Doubling the chain doubles the work (to a log factor), far from the walk's four times.
    let c = crate::catalog::Catalog::builtin().unwrap();
    let chain = |n: usize| {
        // As tests/common/hostile_designs.rs builds it: QM9700 switches in a chain, a DGX H100 on each.
        let mut d = Design::default();
        let mut b = crate::edit::Builder::new(&mut d, &c);
        let port = |device, name: &str| crate::model::PortRef {
            device,
            port: name.into(),
        };
        let mut prev = None;
        for i in 0..n {
            let rack = b
                .add_rack("rack-48u", &format!("R{i:05}"), 0, i as u16)
                .unwrap()
                .0;
            let sw = b
                .add_device("qm9700", &format!("sw-{i:05}"), rack, 1)
                .unwrap();
            if let Some(p) = prev {
                b.connect(port(p, "p2"), port(sw, "p1"), 1.0, None).unwrap();
            }
            let dgx = b
                .add_device("dgx-h100", &format!("dgx-{i:05}"), rack, 10)
                .unwrap();
            b.connect(port(dgx, "nic0/p1"), port(sw, "p3"), 3.0, None)
                .unwrap();
            prev = Some(sw);
        }
        d
    };
    let (small, big) = (chain(40), chain(80));
    let (rs, ws) = analyze_counted(&small);
    let (rb, wb) = analyze_counted(&big);
    assert!(!rs.links.is_empty() && !rb.links.is_empty());
    assert!(
        wb < 3 * ws,
        "work {ws} for a chain of 40, {wb} for 80: more than linear"
    );
    let (f, r) = demands(&big);
    assert!(tree::is_forest(&f));
    let (l, u, _) = tree::route_forest(&f, &r.demand, &r.products);
    let walk = route_with(&f, &r.demand, &r.products, true);
    assert_same_loads(&big.name, &(l, u), &walk);
    // Every forest among the test designs (leaves without spines, single switches) as the walk routes it.
    for d in &test_designs() {
        let (f, r) = demands(d);
        if tree::is_forest(&f) {
            let (l, u, _) = tree::route_forest(&f, &r.demand, &r.products);
            let walk = route_with(&f, &r.demand, &r.products, true);
            assert_same_loads(&d.name, &(l, u), &walk);
        }
    }
}

/// Without NVLink the rail steers no all-to-all traffic: a server's many NICs on one fabric make one mode, so the
/// product terms (and the destination splits behind them) do not multiply with the NICs per server, as they did
/// (a mode per rail: 140 servers of 576 NICs held 743 MB of splits, docs/limits.md `wide-servers`). The loads
/// still equal the per-pair reference.
#[test]
fn pcie_servers_make_one_all_to_all_mode_per_fabric() {
    let terms = |slots: u16| {
        let d = crate::samples::wide_servers(slots);
        same_as_pairs(&d);
        let (_, r) = demands(&d);
        r.products.terms.len()
    };
    let (few, many) = (terms(4), terms(24));
    // One destination class (every NIC on the one switch, no NVLink), one component: one term.
    assert_eq!((few, many), (1, 1));
}
