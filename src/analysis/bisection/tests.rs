use super::*;
use crate::catalog::Catalog;
use crate::samples::{dgx_fabric, sample, superpod_h100};

fn run(d: &Design) -> Outcome {
    compute(d, &Topology::build(d)).unwrap()
}

/// The textbook network (CLRS, figure 26.6): the maximum flow from s to t is 23, by hand: the cut
/// {s, v1, v2, v4} against {v3, t} carries v1->v3 12 + v4->v3 7 + v4->t 4 = 23, and the flow
/// s-v1-v3-t 12, s-v2-v4-t 4, s-v2-v4-v3-t 7 reaches it.
#[test]
fn max_flow_by_hand() {
    let mut g = FlowNet::default();
    let n: Vec<usize> = (0..6).map(|_| g.add_node()).collect();
    for (a, b, c) in [
        (0, 1, 16.0),
        (0, 2, 13.0),
        (1, 2, 10.0),
        (1, 3, 12.0),
        (2, 1, 4.0),
        (2, 4, 14.0),
        (3, 2, 9.0),
        (3, 5, 20.0),
        (4, 3, 7.0),
        (4, 5, 4.0),
    ] {
        g.add_arc(n[a], n[b], c);
    }
    assert_eq!(g.max_flow(n[0], n[5]), 23.0);
    // A cable carries its capacity either way: s -(5)- a -(3)- t, and s -(2)- b -(9)- t: min(5, 3) + 2 = 5.
    let mut g = FlowNet::default();
    let (s, a, b, t) = (g.add_node(), g.add_node(), g.add_node(), g.add_node());
    g.add_both(a, s, 5.0);
    g.add_both(t, a, 3.0);
    g.add_both(s, b, 2.0);
    g.add_both(b, t, 9.0);
    assert_eq!(g.max_flow(s, t), 5.0);
}

/// The same flow as petgraph's Dinic's (which the bisection used before) on random networks of whole Gb/s,
/// where every sum is exact: the two must agree to the bit.
#[test]
fn max_flow_matches_petgraph() {
    use petgraph::graph::DiGraph;
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |m: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % m
    };
    for _ in 0..200 {
        let nodes = 2 + next(12) as usize;
        let mut ours = FlowNet::default();
        let mut theirs: DiGraph<(), f64> = DiGraph::new();
        for _ in 0..nodes {
            ours.add_node();
            theirs.add_node(());
        }
        for _ in 0..next(40) {
            let (a, b) = (next(nodes as u64) as usize, next(nodes as u64) as usize);
            let cap = (1 + next(8)) as f64 * 400.0;
            if next(2) == 0 {
                ours.add_arc(a, b, cap);
                theirs.add_edge(NodeIndex::new(a), NodeIndex::new(b), cap);
            } else {
                ours.add_both(a, b, cap);
                theirs.add_edge(NodeIndex::new(a), NodeIndex::new(b), cap);
                theirs.add_edge(NodeIndex::new(b), NodeIndex::new(a), cap);
            }
        }
        let expect =
            petgraph::algo::dinics(&theirs, NodeIndex::new(0), NodeIndex::new(nodes - 1)).0;
        assert_eq!(ours.max_flow(0, nodes - 1), expect);
    }
}

#[test]
fn one_su_smaller_half_holds_fifteen_servers() {
    // 31 DGX on 8 rail leaves (one class). 248 GPUs split 120 / 128 at best (whole 8-GPU servers): 15 DGX on
    // one side. Each rail leaf passes min(15, 16) x 400 = 6,000 Gb/s between the halves; 8 rails: 48,000 Gb/s.
    let o = run(&sample("superpod-h100-1su").unwrap());
    assert_eq!((o.lower, o.upper, o.exact), (48_000.0, 48_000.0, true));
    assert!(o.method.starts_with("exact"), "{}", o.method);
}

#[test]
fn oversubscribed_rail_unit_keeps_its_rail_local_bisection() {
    // 16 DGX, NIC i on leaf i (8 rails), each leaf 2:1: 8 uplinks of 400G to 2 spines (4 each). The 8 / 8 split
    // leaves 8 servers on each side of every rail leaf: the cut is 8 x 400 per leaf = 3,200, x 8 leaves =
    // 25,600 Gb/s, without touching the uplinks (NVLink moves traffic onto the right rail). The old tier-cut
    // formula gave min(16 x 3,200, 8 x 8 x 400) / 2 = 12,800: half the truth.
    let c = Catalog::builtin().unwrap();
    let servers: Vec<Vec<usize>> = (0..16).map(|_| (0..8).collect()).collect();
    let d = dgx_fabric(&c, &servers, 8, 2, &vec![vec![4, 4]; 8]).unwrap();
    let o = run(&d);
    assert_eq!((o.lower, o.exact), (25_600.0, true), "{}", o.method);
}

#[test]
fn unequal_leaves_by_hand() {
    // 13 DGX on leaf 0 and 1 on leaf 1, one 400G port each, one uplink per leaf to one spine. 112 GPUs: halves
    // of 7 servers. Split {7 on leaf 0} / {6 on leaf 0 + the one on leaf 1}: leaf 0 on the first side cuts 6
    // downlinks + the path to leaf 1 (400) = 2,800; on the second side it cuts 7 downlinks = 2,800. The other
    // vertex ({6 on leaf 0, the one on leaf 1} against 7 on leaf 0) is the same by symmetry: 2,800 Gb/s. The
    // tier-cut formula said min(14 x 400, 2 x 400) / 2 = 400.
    let c = Catalog::builtin().unwrap();
    let mut servers: Vec<Vec<usize>> = vec![vec![0]; 13];
    servers.push(vec![1]);
    let d = dgx_fabric(&c, &servers, 2, 1, &[vec![1], vec![1]]).unwrap();
    let o = run(&d);
    assert_eq!((o.lower, o.exact), (2_800.0, true), "{}", o.method);
}

#[test]
fn fairest_half_by_subset_sum() {
    let class = |gpus, count| Class {
        gpus,
        count,
        attach: Vec::new(),
        peers: Vec::new(),
    };
    // 31 x 8 GPUs: 248, halves 120 / 128.
    assert_eq!(smaller_half(&[class(8, 31)]), Some(120));
    // 2 x 8 + 1 x 4 = 20: reachable 0, 4, 8, 12, 16, 20; the fairest is 8 / 12.
    assert_eq!(smaller_half(&[class(8, 2), class(4, 1)]), Some(8));
    // 3 x 1 + 1 x 70 = 73: the best is 3 / 70 (the 70-GPU server alone).
    assert_eq!(smaller_half(&[class(1, 3), class(70, 1)]), Some(3));
    // Classes of one GPU count pool: 3 x 8 and 2 x 8 in two classes reach what 5 x 8 reaches, with a
    // 4-GPU server: totals 0, 4, 8, ..., 44; the fairest of 44 is 20 / 24 (two 8-GPU servers and the 4-GPU one).
    assert_eq!(
        smaller_half(&[class(8, 3), class(4, 1), class(8, 2)]),
        Some(20)
    );
    // Against every subset of servers, one by one, on mixed classes: the largest reachable total at most
    // half of all.
    let mixes: [&[(usize, usize)]; 4] = [
        &[(8, 2), (4, 3), (8, 1), (2, 2)],
        &[(3, 2), (5, 1), (3, 1), (7, 2)],
        &[(8, 5), (8, 4), (1, 1)],
        &[(6, 1), (4, 1), (6, 2), (10, 1)],
    ];
    for mix in mixes {
        let classes: Vec<Class> = mix.iter().map(|&(g, n)| class(g, n)).collect();
        let servers: Vec<usize> = mix
            .iter()
            .flat_map(|&(g, n)| std::iter::repeat_n(g, n))
            .collect();
        let total: usize = servers.iter().sum();
        let best = (0u32..1 << servers.len())
            .map(|m| {
                servers
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| m >> i & 1 == 1)
                    .map(|(_, g)| g)
                    .sum::<usize>()
            })
            .filter(|a| *a > 0 && *a < total && 2 * a <= total)
            .max();
        assert_eq!(smaller_half(&classes), best, "{mix:?}");
    }
}

#[test]
fn vertices_have_at_most_one_split_class() {
    let class = |count| Class {
        gpus: 8,
        count,
        attach: Vec::new(),
        peers: Vec::new(),
    };
    // Classes of 3, 4 and 5 servers, half = 6 servers (48 GPUs): vertices (3, 3, 0), (3, 0, 3), (0, 4, 2),
    // (0, 1, 5), (2, 4, 0), (1, 0, 5): six; every vector would be 3 + 4 + 4 + 3 + ... = 16 of them.
    let v = enumerate(&[class(3), class(4), class(5)], 48, true, 100).unwrap();
    assert_eq!(v.len(), 6, "{v:?}");
    let all = enumerate(&[class(3), class(4), class(5)], 48, false, 100).unwrap();
    assert!(all.len() > v.len());
    assert!(enumerate(&[class(3), class(4), class(5)], 48, false, 3).is_none());
}

#[test]
fn large_fat_tree_is_exact_by_matching_bounds() {
    // 16 SU SuperPOD: 511 DGX in a non-blocking three-tier fat tree. Every SU's traffic spreads evenly over the
    // same core switches (theta = 1), so any balanced split carries at least the smaller half's 255 DGX x
    // 3,200 = 816,000 Gb/s, and the split by SU order cuts exactly that much around its servers.
    let c = Catalog::builtin().unwrap();
    let d = superpod_h100(&c, 16).unwrap();
    let o = run(&d);
    assert_eq!(
        (o.lower, o.upper, o.exact),
        (816_000.0, 816_000.0, true),
        "{}",
        o.method
    );
    assert!(o.method.contains("hose"), "{}", o.method);
}
