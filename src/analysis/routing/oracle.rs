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
/// switch once per destination switch, so its cost grows with the square of the leaves.
///
/// One function on purpose: a test oracle is read against the fast path line by line, so it stays one plain
/// sequence of steps.
pub(super) fn route_reference(
    f: &Fabric,
    demand: &HashMap<usize, HashMap<usize, Loads>>,
    products: &Products,
) -> (Vec<(Loads, Loads)>, Loads) {
    let n = f.adj.len();
    let csr = Csr::new(f);
    let neighbours = |v: usize| csr.neighbours(v);
    let mut loads = vec![([0.0; P], [0.0; P]); f.ends.len()];
    let mut unroutable = [0.0; P];
    let mut dist = vec![u32::MAX; n];
    let mut held: Vec<Loads> = vec![[0.0; P]; n];
    let mut order: Vec<usize> = Vec::with_capacity(n);
    // Destinations with the same switch neighbours (and capacities) give every other switch the same distance, so
    // one breadth-first search serves the whole class (a pod's leaves all hang off the same spines).
    let mut classes: BTreeMap<Vec<(u32, u64)>, Vec<usize>> = BTreeMap::new();
    let destinations = destination_switches(demand, products);
    // Sources whose product demand to the current destination is corrected (taken from `Products::own`).
    let mut corrected = vec![false; n];
    for t in destinations {
        let mut key: Vec<(u32, u64)> = neighbours(t).iter().map(|x| (x.0, x.2.to_bits())).collect();
        key.sort_unstable();
        classes.entry(key).or_default().push(t);
    }
    for (key, mut members) in classes {
        members.sort_unstable();
        // Distances to the class's neighbours plus one: every switch's distance to any member.
        for &v in &order {
            if let Some(d) = dist.get_mut(v) {
                *d = u32::MAX;
            }
        }
        order.clear();
        for &(w, _) in &key {
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
            for &(w, _, _, _) in neighbours(v) {
                let w = w as usize;
                if let Some(d) = dist.get_mut(w)
                    && *d == u32::MAX
                {
                    *d = dv + 1;
                    order.push(w);
                }
            }
        }
        // Next hops of every switch farther than the class's neighbours, with their shares: the same for every
        // member (the neighbours themselves have one next hop, the member).
        let mut hop_off: Vec<u32> = vec![0; n + 1];
        let mut hops: Vec<(u32, usize, f64)> = Vec::new();
        {
            let mut starts: Vec<(usize, u32)> = Vec::with_capacity(order.len());
            for &v in &order {
                let dv = dist.get(v).copied().unwrap_or(0);
                let start = hops.len() as u32;
                if dv >= 2 {
                    let adj = neighbours(v);
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
            hop_off = ranges.iter().flat_map(|(a, b)| [*a, *b]).collect();
        }
        let next_hops = |v: usize| -> &[(u32, usize, f64)] {
            let (Some(&lo), Some(&hi)) = (hop_off.get(2 * v), hop_off.get(2 * v + 1)) else {
                return &[];
            };
            hops.get(lo as usize..hi as usize).unwrap_or(&[])
        };
        for t in members {
            let base = dist.get(t).copied().unwrap_or(u32::MAX);
            if let Some(d) = dist.get_mut(t) {
                *d = 0;
            }
            for (&v, amount) in demand.get(&t).into_iter().flatten() {
                if v == t {
                    continue;
                }
                if dist.get(v) == Some(&u32::MAX) {
                    add_scaled(&mut unroutable, amount, 1.0);
                } else if let Some(h) = held.get_mut(v) {
                    add_scaled(h, amount, 1.0);
                }
            }
            // All-to-all in product form: a(v) b(t) from every source v, pairs with a group's own traffic to
            // take out computed apart.
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
            // Farthest first: each switch passes on what it holds to its next hops.
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
                    let edge = neighbours(v).iter().find(|x| x.0 as usize == t);
                    match edge {
                        Some(&(_, e, _, forward)) => {
                            if let Some(l) = loads.get_mut(e as usize) {
                                add_scaled(if forward { &mut l.0 } else { &mut l.1 }, &here, 1.0);
                            }
                        }
                        None => add_scaled(&mut unroutable, &here, 1.0),
                    }
                    continue;
                }
                let nh = next_hops(v);
                if nh.is_empty() {
                    add_scaled(&mut unroutable, &here, 1.0);
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
            if let Some(h) = held.get_mut(t) {
                *h = [0.0; P];
            }
            if let Some(d) = dist.get_mut(t) {
                *d = base;
            }
        }
    }
    if let Some(u) = unroutable.get_mut(Pattern::AllToAll.index()) {
        *u += products.lost;
    }
    (loads, unroutable)
}
