//! Test oracles: the straightforward per-pair all-to-all and the plain per-destination ECMP routing the fast
//! paths are tested against. Their cost grows with pairs of groups and with destinations; tests only.

use super::*;

/// The straightforward all-to-all over every pair of server groups, kept as the reference [`all_to_all`] is tested
/// against: its cost grows with the square of the number of groups.
pub(super) fn all_to_all_pairs(
    r: &mut Router,
    servers: &[Server],
    group_list: &[Vec<usize>],
    gpus_total: f64,
) {
    // All-to-all: every server sends its whole compute bandwidth, to every other GPU alike: per_pair =
    // C_h x g_k / (G - g_h) from each server of group h to each server of group k; between the groups
    // (n_h n_k - [h = k] n_h) x per_pair, spread over port pairs (on the rail with NVLink at both ends).
    for h in group_list {
        let Some(sh) = h.first().and_then(|i| servers.get(*i)) else {
            continue;
        };
        let c_h: f64 = sh.compute.iter().map(|p| p.gbps).sum();
        if c_h <= 0.0 || gpus_total - sh.gpus <= 0.0 {
            continue;
        }
        let src: Vec<&[Port]> = h
            .iter()
            .filter_map(|i| servers.get(*i))
            .map(|s| s.compute.as_slice())
            .collect();
        for k in group_list {
            let Some(sk) = k.first().and_then(|i| servers.get(*i)) else {
                continue;
            };
            let per_pair = c_h * sk.gpus / (gpus_total - sh.gpus);
            let same = usize::from(std::ptr::eq(h, k));
            let (nh, nk) = (h.len(), k.len());
            let pairs = (nh * nk - same * nh) as f64;
            if pairs <= 0.0 {
                continue;
            }
            // Separate fabrics: nothing can get there, all of it is unroutable (as `all_to_all` counts it).
            let comp = |p: &Port| r.component.get(p.switch).copied().unwrap_or(usize::MAX);
            let receives = sk.compute.iter().map(|q| q.gbps).sum::<f64>() > 0.0;
            if receives
                && !sh
                    .compute
                    .iter()
                    .any(|p| sk.compute.iter().any(|q| comp(p) == comp(q)))
            {
                r.offered[Pattern::AllToAll.index()] += pairs * per_pair;
                r.products.lost += pairs * per_pair;
                continue;
            }
            let dst: Vec<&[Port]> = k
                .iter()
                .filter_map(|i| servers.get(*i))
                .map(|s| s.compute.as_slice())
                .collect();
            r.offered[Pattern::AllToAll.index()] += pairs * per_pair;
            let flows = (
                pairs * per_pair,
                (nk - same) as f64 * per_pair,
                (nh - same) as f64 * per_pair,
            );
            r.group_flow(
                &sh.compute,
                &sk.compute,
                &src,
                &dst,
                flows,
                sh.nvlink && sk.nvlink,
                Pattern::AllToAll,
            );
        }
    }
}

/// The per-destination ECMP walk [`route`] replaced, kept as the reference it is tested against: it walks every
/// switch once per destination switch, so its cost grows with the square of the leaves. Its steps stay plain
/// (distances, next hops, injection, the walk), to be read against the fast path line by line.
pub(super) fn route_reference(
    f: &Fabric,
    demand: &HashMap<usize, HashMap<usize, Loads>>,
    products: &Products,
) -> (Vec<(Loads, Loads)>, Loads) {
    let n = f.adj.len();
    let csr = Csr::new(f);
    let mut w = Walk {
        loads: vec![([0.0; P], [0.0; P]); f.ends.len()],
        unroutable: [0.0; P],
        held: vec![[0.0; P]; n],
    };
    let mut dist = vec![u32::MAX; n];
    let mut order: Vec<usize> = Vec::with_capacity(n);
    // Destinations with the same switch neighbours (and capacities) give every other switch the same distance, so
    // one breadth-first search serves the whole class (a pod's leaves all hang off the same spines).
    let mut classes: BTreeMap<Vec<(u32, u64)>, Vec<usize>> = BTreeMap::new();
    let destinations = destination_switches(demand, products);
    // Sources whose product demand to the current destination is corrected (taken from `Products::own`).
    let mut corrected = vec![false; n];
    for t in destinations {
        let mut key: Vec<(u32, u64)> = csr
            .neighbours(t)
            .iter()
            .map(|x| (x.0, x.2.to_bits()))
            .collect();
        key.sort_unstable();
        classes.entry(key).or_default().push(t);
    }
    for (key, mut members) in classes {
        members.sort_unstable();
        distances(f, &csr, &key, &mut dist, &mut order);
        let hops = Hops::new(&csr, &dist, &order, n);
        for t in members {
            let base = dist.get(t).copied().unwrap_or(u32::MAX);
            if let Some(d) = dist.get_mut(t) {
                *d = 0;
            }
            inject_reference(t, demand, products, &dist, &mut corrected, &mut w);
            walk_reference(t, &csr, &order, &dist, &hops, &mut w);
            if let Some(h) = w.held.get_mut(t) {
                *h = [0.0; P];
            }
            if let Some(d) = dist.get_mut(t) {
                *d = base;
            }
        }
    }
    let Walk {
        loads,
        mut unroutable,
        ..
    } = w;
    if let Some(u) = unroutable.get_mut(Pattern::AllToAll.index()) {
        *u += products.lost;
    }
    (loads, unroutable)
}

/// What the reference walk carries: the loads per cable and direction, the traffic with no path, and what each
/// switch holds on the way.
struct Walk {
    loads: Vec<(Loads, Loads)>,
    unroutable: Loads,
    held: Vec<Loads>,
}

/// Distances to a class's neighbours (`key`) plus one: every switch's distance to any member, and the switches in
/// breadth-first order. Resets the distances of the previous class first.
fn distances(f: &Fabric, csr: &Csr, key: &[(u32, u64)], dist: &mut [u32], order: &mut Vec<usize>) {
    for &v in order.iter() {
        if let Some(d) = dist.get_mut(v) {
            *d = u32::MAX;
        }
    }
    order.clear();
    for &(w, _) in key {
        if let Some(d) = dist.get_mut(w as usize)
            && *d == u32::MAX
        {
            *d = 1;
            order.push(w as usize);
        }
    }
    let mut head = 0;
    while let Some(&v) = order.get(head) {
        head += 1;
        if Some(v) == f.ingress {
            // The ingress is a source and a sink, never a path between switches.
            continue;
        }
        let dv = dist.get(v).copied().unwrap_or(0);
        for &(w, _, _, _) in csr.neighbours(v) {
            let w = w as usize;
            if let Some(d) = dist.get_mut(w)
                && *d == u32::MAX
            {
                *d = dv + 1;
                order.push(w);
            }
        }
    }
}

/// Next hops of every switch farther than the class's neighbours, with their shares: the same for every member
/// (the neighbours themselves have one next hop, the member).
struct Hops {
    /// Per node, the (start, end) of its hops.
    off: Vec<u32>,
    hops: Vec<(u32, usize, f64)>,
}

impl Hops {
    fn new(csr: &Csr, dist: &[u32], order: &[usize], n: usize) -> Self {
        let mut hops: Vec<(u32, usize, f64)> = Vec::new();
        let mut starts: Vec<(usize, u32)> = Vec::with_capacity(order.len());
        for &v in order {
            let dv = dist.get(v).copied().unwrap_or(0);
            let start = hops.len() as u32;
            if dv >= 2 {
                let adj = csr.neighbours(v);
                let next = |w: u32| {
                    dist.get(w as usize)
                        .is_some_and(|d| d.saturating_add(1) == dv)
                };
                let total: f64 = adj.iter().filter(|x| next(x.0)).map(|x| x.2).sum();
                if total > 0.0 {
                    for &(w, e, cap, forward) in adj {
                        if next(w) {
                            hops.push((w, 2 * e as usize + usize::from(!forward), cap / total));
                        }
                    }
                }
            }
            starts.push((v, start));
        }
        // Offsets per node (nodes not in `order` get empty ranges).
        let mut ranges: Vec<(u32, u32)> = vec![(0, 0); n];
        for (i, (v, start)) in starts.iter().enumerate() {
            let end = starts.get(i + 1).map_or(hops.len() as u32, |x| x.1);
            if let Some(r) = ranges.get_mut(*v) {
                *r = (*start, end);
            }
        }
        let off = ranges.iter().flat_map(|(a, b)| [*a, *b]).collect();
        Self { off, hops }
    }

    /// The next hops of switch `v`: (neighbour, directed edge slot, share).
    fn next(&self, v: usize) -> &[(u32, usize, f64)] {
        let (Some(&lo), Some(&hi)) = (self.off.get(2 * v), self.off.get(2 * v + 1)) else {
            return &[];
        };
        self.hops.get(lo as usize..hi as usize).unwrap_or(&[])
    }
}

/// Injects the traffic to member `t` at its sources: the demand map's, and the all-to-all in product form (a(v)
/// b(t) from every source v, pairs with a group's own traffic to take out computed apart).
fn inject_reference(
    t: usize,
    demand: &HashMap<usize, HashMap<usize, Loads>>,
    products: &Products,
    dist: &[u32],
    corrected: &mut [bool],
    w: &mut Walk,
) {
    let Walk {
        unroutable, held, ..
    } = w;
    for (&v, amount) in demand.get(&t).into_iter().flatten() {
        if v == t {
            continue;
        }
        if dist.get(v) == Some(&u32::MAX) {
            add_scaled(unroutable, amount, 1.0);
        } else if let Some(h) = held.get_mut(v) {
            add_scaled(h, amount, 1.0);
        }
    }
    let own = products.own.get(&t).map_or(&[][..], Vec::as_slice);
    for &(v, _) in own {
        if let Some(c) = corrected.get_mut(v) {
            *c = true;
        }
    }
    let mut inject = |v: usize, x: f64| {
        if v == t || x == 0.0 {
            return;
        }
        let slot = if dist.get(v) == Some(&u32::MAX) {
            unroutable.get_mut(Pattern::AllToAll.index())
        } else {
            held.get_mut(v)
                .and_then(|h| h.get_mut(Pattern::AllToAll.index()))
        };
        if let Some(y) = slot {
            *y += x;
        }
    };
    for ProductTerm {
        sources: a,
        destinations: b,
    } in &products.terms
    {
        let Some(&bt) = b.get(&t) else {
            continue;
        };
        for &(v, a_v) in a {
            if corrected.get(v) != Some(&true) {
                inject(v, a_v * bt);
            }
        }
    }
    for &(v, x) in own {
        inject(v, products.net(v, t, x));
        if let Some(c) = corrected.get_mut(v) {
            *c = false;
        }
    }
}

/// Farthest first: each switch passes on what it holds to its next hops, down to member `t`.
fn walk_reference(t: usize, csr: &Csr, order: &[usize], dist: &[u32], hops: &Hops, w: &mut Walk) {
    let Walk {
        loads,
        unroutable,
        held,
    } = w;
    for &v in order.iter().rev() {
        if v == t {
            continue;
        }
        let Some(slot) = held.get_mut(v) else {
            continue;
        };
        let here = std::mem::replace(slot, [0.0; P]);
        if here.iter().all(|x| *x == 0.0) {
            continue;
        }
        if dist.get(v) == Some(&1) {
            // A neighbour of the class: its one next hop is this member.
            let edge = csr.neighbours(v).iter().find(|x| x.0 as usize == t);
            match edge {
                Some(&(_, e, _, forward)) => {
                    if let Some(l) = loads.get_mut(e as usize) {
                        add_scaled(if forward { &mut l.0 } else { &mut l.1 }, &here, 1.0);
                    }
                }
                None => add_scaled(unroutable, &here, 1.0),
            }
            continue;
        }
        let nh = hops.next(v);
        if nh.is_empty() {
            add_scaled(unroutable, &here, 1.0);
            continue;
        }
        for &(w, slot, share) in nh {
            if let Some(l) = loads.get_mut(slot / 2) {
                add_scaled(
                    if slot % 2 == 0 { &mut l.0 } else { &mut l.1 },
                    &here,
                    share,
                );
            }
            if let Some(h) = held.get_mut(w as usize) {
                add_scaled(h, &here, share);
            }
        }
    }
}
