//! ECMP routing of the switch-to-switch demands: per class of destination switches one breadth-first search and
//! one walk, with the scratch space the walks reuse (see [`route`]).

use super::*;

/// What routing one orbit of destination classes adds: loads per directed edge slot (2 x edge, + 1 for b to a), in
/// the order they were computed, the all-to-all loads apart in the same way, and the demand with no path. Applied
/// in orbit order, so the sums do not depend on how many threads computed the orbits.
pub(super) type ClassLoads = (Vec<(u32, Loads)>, Vec<(u32, f64)>, Loads);

/// Destinations with the same switch neighbours: the key (neighbour, capacity bits) and the members.
pub(super) type DestinationClass = (Vec<(u32, u64)>, Vec<usize>);

/// Scratch space for routing one class, sized to the switch count and left clean after each class.
pub(super) struct Scratch {
    pub(super) dist: Vec<u32>,
    pub(super) order: Vec<usize>,
    /// Demand-map traffic held at each switch during a walk.
    pub(super) held: Vec<Loads>,
    /// All-to-all (product) traffic held at each switch during a walk.
    pub(super) a2a: Vec<f64>,
    /// All-to-all demand to take out at a switch (own traffic and the products' terms of a member to itself).
    pub(super) minus: Vec<f64>,
    pub(super) injected: Vec<usize>,
    pub(super) marked: Vec<bool>,
    /// Switches holding demand-map traffic, by distance (the sparse walk).
    pub(super) buckets: Vec<Vec<u32>>,
    /// Per switch at distance >= 2: its next hops (neighbour, edge slot, share), a range of `hops`.
    pub(super) hop_range: Vec<(u32, u32)>,
    pub(super) hops: Vec<(u32, u32, f64)>,
    /// Per neighbour of the class: its position in the class key.
    pub(super) slot: Vec<u32>,
    /// Per reached switch: how a unit it holds arrives at the class's neighbours, a range of `arrive`.
    pub(super) p_range: Vec<(u32, u32)>,
    pub(super) arrive: Vec<(u32, f64)>,
    pub(super) dense: Vec<f64>,
    pub(super) touched: Vec<u32>,
    /// The representative's all-to-all load per edge slot (orbits of more than one class), and the slots set.
    pub(super) acc: Vec<f64>,
    pub(super) acc_touched: Vec<u32>,
    /// Per edge slot: how many classes of the orbit move its load elsewhere (set with `acc`).
    pub(super) moved: Vec<u32>,
    /// The relabelling of the class being walked (the identity when nothing is set).
    pub(super) map: Mapping,
}

impl Scratch {
    pub(super) fn new(n: usize, slots: usize) -> Self {
        Scratch {
            dist: vec![u32::MAX; n],
            order: Vec::new(),
            held: vec![[0.0; P]; n],
            a2a: vec![0.0; n],
            minus: vec![0.0; n],
            injected: Vec::new(),
            marked: vec![false; n],
            buckets: Vec::new(),
            hop_range: vec![(0, 0); n],
            hops: Vec::new(),
            slot: vec![u32::MAX; n],
            p_range: vec![(0, 0); n],
            arrive: Vec::new(),
            dense: Vec::new(),
            touched: Vec::new(),
            acc: Vec::new(),
            acc_touched: Vec::new(),
            moved: Vec::new(),
            map: Mapping::new(n, slots),
        }
    }

    /// Adds all-to-all demand held at switch `v` before the walk (`plus` and `minus`, taken apart at the end).
    pub(super) fn inject_a2a(&mut self, v: usize, plus: f64, minus: f64) {
        if let (Some(h), Some(m)) = (self.a2a.get_mut(v), self.minus.get_mut(v)) {
            *h += plus;
            *m += minus;
        }
        if let Some(x) = self.marked.get_mut(v)
            && !*x
        {
            *x = true;
            self.injected.push(v);
        }
    }

    /// How a unit held at `v` arrives at the class's neighbours: (position in the key, share).
    pub(super) fn arrival(&self, v: usize) -> &[(u32, f64)] {
        let Some(&(lo, hi)) = self.p_range.get(v) else {
            return &[];
        };
        self.arrive.get(lo as usize..hi as usize).unwrap_or(&[])
    }

    /// The switch's distance to the class, if it has a path.
    pub(super) fn reach(&self, v: usize) -> Option<u32> {
        self.dist.get(v).copied().filter(|d| *d != u32::MAX)
    }
}

/// `plus - minus`, or 0 when only rounding is left (see [`CANCELLED`]).
pub(super) fn cancel(plus: f64, minus: f64) -> f64 {
    let left = plus - minus;
    if left > CANCELLED * plus { left } else { 0.0 }
}

/// ECMP routing of switch-to-switch demands. Returns directed loads per edge ((a to b), (b to a)) and the demand
/// that found no path, per pattern.
///
/// Destinations with the same switch neighbours (and capacities) form a class: every other switch is as far from
/// each member and splits traffic for it over the same next hops (a pod's leaves all hang off the same spines). So
/// per class one breadth-first search and one walk of the class's summed demand give the loads on every hop but the
/// last (routing is linear in the demand); the last hop, neighbour to member, carries what the member's own sources
/// deliver to that neighbour, from each source's arrival distribution over the neighbours, computed once per class.
///
/// Classes that the fabric's symmetry maps onto each other are routed once (see [`orbits`]): when an automorphism
/// of the switch graph swaps class A's region (members and neighbours) with class B's and fixes everything else,
/// B's distances and next hops are A's relabelled, so B's traffic is walked on A's structure. The all-to-all, which
/// reaches every class from every leaf, is walked once for A when B's product demand is A's relabelled: B's loads
/// are A's with the two regions swapped, so on links outside both regions the orbit adds A's load once per class,
/// and only the links of the regions are moved one by one. The other patterns (rings, storage, serving: sparse)
/// are walked per class over only the switches they reach. Routing toward an orbit of k classes costs one
/// search and one all-to-all walk plus, per class, its region and its sparse traffic.
///
/// Also returns the work done, in switches visited (see [`super::analyze_counted`]). A switch graph that is a
/// forest is routed by subtree sums instead (`tree::route_forest`, chosen in [`super::analyze_counted`]).
pub(super) fn route(
    f: &Fabric,
    demand: &HashMap<usize, HashMap<usize, Loads>>,
    products: &Products,
) -> (Vec<(Loads, Loads)>, Loads, u64) {
    let work = std::sync::atomic::AtomicU64::new(0);
    let (loads, lost) = route_counted(f, demand, products, true, &work);
    (loads, lost, work.into_inner())
}

/// [`route_counted`] without the count.
#[cfg(test)]
pub(super) fn route_with(
    f: &Fabric,
    demand: &HashMap<usize, HashMap<usize, Loads>>,
    products: &Products,
    symmetry: bool,
) -> (Vec<(Loads, Loads)>, Loads) {
    route_counted(
        f,
        demand,
        products,
        symmetry,
        &std::sync::atomic::AtomicU64::new(0),
    )
}

/// The walk per class of destinations, with the symmetry between classes used or not (`symmetry`: the tests
/// compare the two); the switches each class's walk visits are added to `work`.
pub(super) fn route_counted(
    f: &Fabric,
    demand: &HashMap<usize, HashMap<usize, Loads>>,
    products: &Products,
    symmetry: bool,
    work: &std::sync::atomic::AtomicU64,
) -> (Vec<(Loads, Loads)>, Loads) {
    let n = f.adj.len();
    let csr = Csr::new(f);
    let classes = destination_classes(&csr, demand, products);
    let orbit_list = if symmetry {
        orbits(f, &csr, &classes, products)
    } else {
        (0..classes.len())
            .map(|rep| Orbit {
                rep,
                others: Vec::new(),
            })
            .collect()
    };
    let mut loads = vec![([0.0; P], [0.0; P]); f.ends.len()];
    // The all-to-all (product) loads per directed edge slot, apart: they are most of the additions, and an array
    // of one figure per slot stays in cache where the loads of every pattern do not. Added in at the end; the
    // demand map never carries all-to-all traffic, so each slot's all-to-all sum is the same either way.
    let mut a2a = vec![0.0; 2 * f.ends.len()];
    let put_a2a = |a2a: &mut Vec<f64>, slot: u32, x: f64| {
        if let Some(y) = a2a.get_mut(slot as usize) {
            *y += x;
        }
    };
    let mut unroutable = [0.0; P];
    let put = |loads: &mut Vec<(Loads, Loads)>, slot: u32, x: &Loads| {
        if let Some(l) = loads.get_mut(slot as usize / 2) {
            add_scaled(
                if slot.is_multiple_of(2) {
                    &mut l.0
                } else {
                    &mut l.1
                },
                x,
                1.0,
            );
        }
    };
    let ctx = Context {
        f,
        csr: &csr,
        demand,
        products,
        classes: &classes,
        work,
    };
    // Orbits in parallel, a few per thread at a time (each holds its loads until applied), applied in orbit order:
    // the same additions in the same order as one thread writing directly, so the sums are identical.
    use rayon::prelude::*;
    let threads = rayon::current_num_threads().max(1);
    if threads == 1 || orbit_list.len() < 2 {
        let mut s = Scratch::new(n, 2 * f.ends.len());
        for o in &orbit_list {
            let lost = route_orbit(
                &ctx,
                o,
                &mut s,
                |slot, x| put(&mut loads, slot, x),
                |slot, x| put_a2a(&mut a2a, slot, x),
            );
            add_scaled(&mut unroutable, &lost, 1.0);
        }
    } else {
        for batch in orbit_list.chunks(2 * threads) {
            let out: Vec<ClassLoads> = batch
                .par_iter()
                .map_init(
                    || Scratch::new(n, 2 * f.ends.len()),
                    |s, o| {
                        let (mut adds, mut a2a_adds) = (Vec::new(), Vec::new());
                        let lost = route_orbit(
                            &ctx,
                            o,
                            s,
                            |slot, x| adds.push((slot, *x)),
                            |slot, x| a2a_adds.push((slot, x)),
                        );
                        (adds, a2a_adds, lost)
                    },
                )
                .collect();
            for (adds, a2a_adds, lost) in out {
                for (slot, x) in &adds {
                    put(&mut loads, *slot, x);
                }
                for (slot, x) in a2a_adds {
                    put_a2a(&mut a2a, slot, x);
                }
                add_scaled(&mut unroutable, &lost, 1.0);
            }
        }
    }
    for (slot, x) in a2a.into_iter().enumerate() {
        if x != 0.0 {
            put(&mut loads, slot as u32, &all_to_all_only(x));
        }
    }
    if let Some(u) = unroutable.get_mut(Pattern::AllToAll.index()) {
        *u += products.lost;
    }
    (loads, unroutable)
}

/// Every switch some demand goes to (pairwise or in product form), in index order.
pub(super) fn destination_switches(
    demand: &HashMap<usize, HashMap<usize, Loads>>,
    products: &Products,
) -> Vec<usize> {
    let mut destinations: Vec<usize> = demand
        .keys()
        .chain(products.terms.iter().flat_map(|t| t.destinations.keys()))
        .copied()
        .collect();
    destinations.sort_unstable();
    destinations.dedup();
    destinations
}

/// The destination switches of the demand and the products, in classes by their switch neighbours (with
/// capacities), members in switch order.
pub(super) fn destination_classes(
    csr: &Csr,
    demand: &HashMap<usize, HashMap<usize, Loads>>,
    products: &Products,
) -> Vec<DestinationClass> {
    let mut classes: BTreeMap<Vec<(u32, u64)>, Vec<usize>> = BTreeMap::new();
    let destinations = destination_switches(demand, products);
    for t in destinations {
        let mut key: Vec<(u32, u64)> = csr
            .neighbours(t)
            .iter()
            .map(|x| (x.0, x.2.to_bits()))
            .collect();
        key.sort_unstable();
        classes.entry(key).or_default().push(t);
    }
    classes.into_iter().collect()
}

/// What routing an orbit reads.
pub(super) struct Context<'a> {
    pub(super) f: &'a Fabric,
    pub(super) csr: &'a Csr,
    pub(super) demand: &'a HashMap<usize, HashMap<usize, Loads>>,
    pub(super) products: &'a Products,
    pub(super) classes: &'a [DestinationClass],
    /// Switches visited by the walks, in all.
    pub(super) work: &'a std::sync::atomic::AtomicU64,
}

/// Routes the demand to one orbit of destination classes (see [`route`]): hands each load to `emit` (directed edge
/// slot, loads) in a fixed order and returns the demand with no path.
pub(super) fn route_orbit(
    ctx: &Context<'_>,
    orbit: &Orbit,
    s: &mut Scratch,
    mut emit: impl FnMut(u32, &Loads),
    mut emit_a2a: impl FnMut(u32, f64),
) -> Loads {
    let mut lost = [0.0; P];
    let Some((key, members)) = ctx.classes.get(orbit.rep) else {
        return lost;
    };
    build_structure(ctx.f, ctx.csr, key, s);
    ctx.work.fetch_add(
        (s.order.len() + s.hops.len() + s.arrive.len()) as u64,
        std::sync::atomic::Ordering::Relaxed,
    );
    // The representative's own traffic (its loads go to `emit`, apart from the all-to-all's `emit_a2a`, so the
    // order between the two walks changes no sum).
    let l = walk_demand(ctx, key.len(), members, s, &mut emit);
    add_scaled(&mut lost, &l, 1.0);
    if orbit.others.is_empty() {
        let l = walk_products(ctx.csr, ctx.products, key, members, s, &mut emit_a2a);
        add_scaled(&mut lost, &all_to_all_only(l), 1.0);
    } else {
        // The representative's all-to-all loads per slot, laid onto every class of the orbit.
        let mut acc = std::mem::take(&mut s.acc);
        let mut touched = std::mem::take(&mut s.acc_touched);
        if acc.len() < 2 * ctx.f.ends.len() {
            acc.resize(2 * ctx.f.ends.len(), 0.0);
        }
        let l = walk_products(ctx.csr, ctx.products, key, members, s, |slot, x| {
            if let Some(y) = acc.get_mut(slot as usize) {
                if *y == 0.0 {
                    touched.push(slot);
                }
                *y += x;
            }
        });
        let k = orbit.others.len() + 1;
        add_scaled(&mut lost, &all_to_all_only(l * k as f64), 1.0);
        // Per class, with its relabelling set once: the slots of the cables of both regions move to their images
        // (every other slot stays), and its own traffic is walked on the representative's structure.
        let mut moved = std::mem::take(&mut s.moved);
        if moved.len() < 2 * ctx.f.ends.len() {
            moved.resize(2 * ctx.f.ends.len(), 0);
        }
        for (c, r) in &orbit.others {
            s.map.set(r, ctx.csr);
            move_region(
                ctx.csr,
                &s.map,
                r,
                |slot| acc.get(slot as usize).is_some_and(|x| *x != 0.0),
                &mut moved,
                |from, to| emit_a2a(to, acc.get(from as usize).copied().unwrap_or(0.0)),
            );
            if let Some((_, m)) = ctx.classes.get(*c) {
                let l = walk_demand(ctx, key.len(), m, s, &mut emit);
                add_scaled(&mut lost, &l, 1.0);
            }
            s.map.clear();
        }
        for &slot in &touched {
            let Some(x) = acc.get_mut(slot as usize) else {
                continue;
            };
            let m = moved.get_mut(slot as usize).map_or(0, std::mem::take);
            let stay = k - m as usize;
            if stay > 0 && *x != 0.0 {
                emit_a2a(slot, *x * stay as f64);
            }
            *x = 0.0;
        }
        touched.clear();
        s.acc = acc;
        s.acc_touched = touched;
        s.moved = moved;
    }
    clear_structure(key, s);
    lost
}

/// Distances to the class (its neighbours at 1), every farther switch's next hops with their shares (by capacity),
/// and how a unit held at each switch arrives at the neighbours (nearest first, from its next hops' arrivals).
pub(super) fn build_structure(f: &Fabric, csr: &Csr, key: &[(u32, u64)], s: &mut Scratch) {
    s.order.clear();
    for (i, &(w, _)) in key.iter().enumerate() {
        if let Some(d) = s.dist.get_mut(w as usize)
            && *d == u32::MAX
        {
            *d = 1;
            s.order.push(w as usize);
        }
        if let Some(x) = s.slot.get_mut(w as usize) {
            *x = i as u32;
        }
    }
    let mut head = 0;
    while let Some(&v) = s.order.get(head) {
        head += 1;
        if Some(v) == f.ingress {
            // The ingress is a source and a sink, never a path between switches.
            continue;
        }
        let dv = s.dist.get(v).copied().unwrap_or(0);
        for &(w, _, _, _) in csr.neighbours(v) {
            let w = w as usize;
            if let Some(d) = s.dist.get_mut(w)
                && *d == u32::MAX
            {
                *d = dv + 1;
                s.order.push(w);
            }
        }
    }
    s.hops.clear();
    s.arrive.clear();
    s.dense.clear();
    s.dense.resize(key.len(), 0.0);
    for oi in 0..s.order.len() {
        let Some(&v) = s.order.get(oi) else { continue };
        let dv = s.dist.get(v).copied().unwrap_or(0);
        let start = s.hops.len() as u32;
        let p_start = s.arrive.len() as u32;
        if dv == 1 {
            let at = s.slot.get(v).copied().unwrap_or(u32::MAX);
            s.arrive.push((at, 1.0));
        } else {
            let adj = csr.neighbours(v);
            let dist = &s.dist;
            let next = |w: u32| {
                dist.get(w as usize)
                    .is_some_and(|d| d.saturating_add(1) == dv)
            };
            let total: f64 = adj.iter().filter(|x| next(x.0)).map(|x| x.2).sum();
            if total > 0.0 {
                for &(w, e, cap, forward) in adj {
                    if next(w) {
                        s.hops.push((w, 2 * e + u32::from(!forward), cap / total));
                    }
                }
            }
            let hi = s.hops.len();
            for hi_i in start as usize..hi {
                let Some(&(w, _, share)) = s.hops.get(hi_i) else {
                    continue;
                };
                let Some(&(lo, up)) = s.p_range.get(w as usize) else {
                    continue;
                };
                for pi in lo as usize..up as usize {
                    let Some(&(i, p)) = s.arrive.get(pi) else {
                        continue;
                    };
                    if let Some(x) = s.dense.get_mut(i as usize) {
                        if *x == 0.0 {
                            s.touched.push(i);
                        }
                        *x += share * p;
                    }
                }
            }
            s.touched.sort_unstable();
            for &i in &s.touched {
                if let Some(x) = s.dense.get_mut(i as usize) {
                    s.arrive.push((i, *x));
                    *x = 0.0;
                }
            }
            s.touched.clear();
        }
        if let Some(r) = s.hop_range.get_mut(v) {
            *r = (start, s.hops.len() as u32);
        }
        if let Some(r) = s.p_range.get_mut(v) {
            *r = (p_start, s.arrive.len() as u32);
        }
    }
}

/// Leaves `s` clean for the next class.
pub(super) fn clear_structure(key: &[(u32, u64)], s: &mut Scratch) {
    for &v in &s.order {
        if let Some(d) = s.dist.get_mut(v) {
            *d = u32::MAX;
        }
        if let Some(r) = s.hop_range.get_mut(v) {
            *r = (0, 0);
        }
        if let Some(r) = s.p_range.get_mut(v) {
            *r = (0, 0);
        }
    }
    for &(w, _) in key {
        if let Some(x) = s.slot.get_mut(w as usize) {
            *x = u32::MAX;
        }
    }
}

/// The all-to-all (product) demand to one class, on the structure built for it: a(v) x the class's b at every
/// source, less a member's term to itself and with each group's own traffic taken out; walked farthest first, then
/// the last hop per member. Emits (directed edge slot, Gb/s) and returns the traffic with no path.
///
/// The phases are small functions the optimiser inlines: the walk's inner loops are the hot path of the whole
/// analysis.
pub(super) fn walk_products(
    csr: &Csr,
    products: &Products,
    key: &[(u32, u64)],
    members: &[usize],
    s: &mut Scratch,
    mut emit: impl FnMut(u32, f64),
) -> f64 {
    if products.terms.is_empty() {
        return 0.0;
    }
    inject_products(products, members, s);
    let lost = settle_injected(s);
    let lost = walk_down(s, lost, &mut emit);
    last_hops(csr, products, key, members, s, &mut emit);
    lost
}

/// Injects the product terms at their sources (a(v) x the class's b, less each member's term to itself) and the
/// groups' own traffic.
#[inline]
fn inject_products(products: &Products, members: &[usize], s: &mut Scratch) {
    for ProductTerm {
        sources: a,
        destinations: b,
    } in &products.terms
    {
        let mut bc = 0.0;
        for &t in members {
            let Some(&bt) = b.get(&t) else { continue };
            bc += bt;
            if let Ok(i) = a.binary_search_by_key(&t, |x| x.0)
                && let Some(&(_, at)) = a.get(i)
            {
                s.inject_a2a(t, 0.0, at * bt);
            }
        }
        if bc == 0.0 {
            continue;
        }
        for &(v, av) in a {
            s.inject_a2a(v, av * bc, 0.0);
        }
    }
    for &t in members {
        for &(v, own) in products.own.get(&t).map_or(&[][..], Vec::as_slice) {
            s.inject_a2a(v, products.net(v, t, own), products.whole(v, t));
        }
    }
}

/// Settles what was injected: the own traffic cancelled, and what cannot reach the class lost. Returns the lost
/// traffic.
#[inline]
fn settle_injected(s: &mut Scratch) -> f64 {
    let mut lost = 0.0;
    for ii in 0..s.injected.len() {
        let Some(&v) = s.injected.get(ii) else {
            continue;
        };
        let reach = s.reach(v).is_some();
        let m = s.minus.get(v).copied().unwrap_or(0.0);
        if let Some(h) = s.a2a.get_mut(v) {
            *h = cancel(*h, m);
            if !reach {
                lost += *h;
                *h = 0.0;
            }
        }
        if let Some(x) = s.minus.get_mut(v) {
            *x = 0.0;
        }
        if let Some(x) = s.marked.get_mut(v) {
            *x = false;
        }
    }
    s.injected.clear();

    lost
}

/// Farthest first: each switch passes on what it holds to its next hops; the neighbours hand over below. Returns
/// `lost` plus the traffic at a switch with no next hop (added in walk order).
#[inline]
fn walk_down(s: &mut Scratch, mut lost: f64, emit: &mut impl FnMut(u32, f64)) -> f64 {
    for oi in (0..s.order.len()).rev() {
        let Some(&v) = s.order.get(oi) else { continue };
        let Some(h) = s.a2a.get_mut(v) else { continue };
        let here = std::mem::replace(h, 0.0);
        if here == 0.0 || s.dist.get(v) == Some(&1) {
            continue;
        }
        let Some(&(lo, hi)) = s.hop_range.get(v) else {
            continue;
        };
        if lo == hi {
            lost += here;
            continue;
        }
        for hi_i in lo as usize..hi as usize {
            let Some(&(w, slot, share)) = s.hops.get(hi_i) else {
                continue;
            };
            let x = here * share;
            emit(slot, x);
            if let Some(h) = s.a2a.get_mut(w as usize) {
                *h += x;
            }
        }
    }

    lost
}

/// The last hop, per member: what its sources deliver to each neighbour, emitted on the member's own cables.
#[inline]
fn last_hops(
    csr: &Csr,
    products: &Products,
    key: &[(u32, u64)],
    members: &[usize],
    s: &mut Scratch,
    emit: &mut impl FnMut(u32, f64),
) {
    let mut at_term: Vec<Option<Vec<f64>>> = vec![None; products.terms.len()];
    let mut arr: Vec<f64> = vec![0.0; key.len()];
    let mut arr_minus: Vec<f64> = vec![0.0; key.len()];
    for &t in members {
        arr.fill(0.0);
        arr_minus.fill(0.0);
        for (
            ti,
            ProductTerm {
                sources: a,
                destinations: b,
            },
        ) in products.terms.iter().enumerate()
        {
            let Some(&bt) = b.get(&t) else { continue };
            let Some(slot) = at_term.get_mut(ti) else {
                continue;
            };
            // What the whole source vector delivers to each neighbour, once per term and class.
            let whole = slot.get_or_insert_with(|| {
                let mut w = vec![0.0; key.len()];
                for &(v, av) in a {
                    if s.reach(v).is_some() {
                        for &(i, p) in s.arrival(v) {
                            if let Some(x) = w.get_mut(i as usize) {
                                *x += av * p;
                            }
                        }
                    }
                }
                w
            });
            for (x, w) in arr.iter_mut().zip(whole.iter()) {
                *x += bt * w;
            }
            if let Ok(i) = a.binary_search_by_key(&t, |x| x.0)
                && let Some(&(_, at)) = a.get(i)
                && s.reach(t).is_some()
            {
                for &(i, p) in s.arrival(t) {
                    if let Some(x) = arr_minus.get_mut(i as usize) {
                        *x += at * bt * p;
                    }
                }
            }
        }
        for &(v, own) in products.own.get(&t).map_or(&[][..], Vec::as_slice) {
            if s.reach(v).is_none() {
                continue;
            }
            let (net, whole) = (products.net(v, t, own), products.whole(v, t));
            for &(i, p) in s.arrival(v) {
                if let (Some(x), Some(m)) = (arr.get_mut(i as usize), arr_minus.get_mut(i as usize))
                {
                    *x += net * p;
                    *m += whole * p;
                }
            }
        }
        for &(w, e, _, forward) in csr.neighbours(t) {
            let Some(i) = s.slot.get(w as usize).copied() else {
                continue;
            };
            let (Some(x), Some(m)) = (arr.get(i as usize), arr_minus.get(i as usize)) else {
                continue;
            };
            let x = cancel(*x, *m);
            if x != 0.0 {
                // From the neighbour to the member: the edge's second-to-first direction when the member is its
                // first end.
                emit(2 * e + u32::from(forward), x);
            }
        }
    }
}

/// The demand map's traffic (rings, storage, serving) to `members`, one class, on the structure built for the
/// class the scratch's mapping takes them to (the identity for the representative itself): injected at the
/// relabelled sources, walked farthest first over only the switches it reaches, each load emitted on the relabelled
/// edge; the last hop is on the members' own cables. Returns the traffic with no path.
pub(super) fn walk_demand(
    ctx: &Context<'_>,
    key_len: usize,
    members: &[usize],
    s: &mut Scratch,
    emit: &mut impl FnMut(u32, &Loads),
) -> Loads {
    let mut lost = [0.0; P];
    let mut any = false;
    for &t in members {
        for (&v, amount) in ctx.demand.get(&t).into_iter().flatten() {
            if v == t {
                continue;
            }
            let v = s.map.node(v);
            let Some(d) = s.reach(v) else {
                add_scaled(&mut lost, amount, 1.0);
                continue;
            };
            any = true;
            if let Some(h) = s.held.get_mut(v) {
                add_scaled(h, amount, 1.0);
            }
            if let Some(m) = s.marked.get_mut(v)
                && !*m
            {
                *m = true;
                let d = d as usize;
                if s.buckets.len() <= d {
                    s.buckets.resize_with(d + 1, Vec::new);
                }
                if let Some(b) = s.buckets.get_mut(d) {
                    b.push(v as u32);
                }
            }
        }
    }
    if !any {
        return lost;
    }
    // Farthest first; a switch's next hops are one nearer, so each bucket is complete when its turn comes.
    for d in (0..s.buckets.len()).rev() {
        let Some(list) = s.buckets.get_mut(d).map(std::mem::take) else {
            continue;
        };
        for &v in &list {
            let v = v as usize;
            if let Some(m) = s.marked.get_mut(v) {
                *m = false;
            }
            let Some(h) = s.held.get_mut(v) else { continue };
            let here = std::mem::replace(h, [0.0; P]);
            if d <= 1 || here.iter().all(|x| *x == 0.0) {
                continue;
            }
            let Some(&(lo, hi)) = s.hop_range.get(v) else {
                continue;
            };
            if lo == hi {
                add_scaled(&mut lost, &here, 1.0);
                continue;
            }
            for hi_i in lo as usize..hi as usize {
                let Some(&(w, slot, share)) = s.hops.get(hi_i) else {
                    continue;
                };
                let mut x = [0.0; P];
                add_scaled(&mut x, &here, share);
                emit(s.map.slot(slot), &x);
                if let Some(h) = s.held.get_mut(w as usize) {
                    add_scaled(h, &here, share);
                }
                if let Some(m) = s.marked.get_mut(w as usize)
                    && !*m
                {
                    *m = true;
                    if let Some(b) = s.buckets.get_mut(d - 1) {
                        b.push(w);
                    }
                }
            }
        }
        let mut list = list;
        list.clear();
        if let Some(b) = s.buckets.get_mut(d)
            && b.is_empty()
        {
            *b = list;
        }
    }
    // The last hop, per member: what its sources deliver to each neighbour.
    let mut arr: Vec<Loads> = vec![[0.0; P]; key_len];
    for &t in members {
        let mut some = false;
        for (&v, amount) in ctx.demand.get(&t).into_iter().flatten() {
            if v == t {
                continue;
            }
            let v = s.map.node(v);
            if s.reach(v).is_none() {
                continue;
            }
            for &(i, p) in s.arrival(v) {
                if let Some(x) = arr.get_mut(i as usize) {
                    add_scaled(x, amount, p);
                    some = true;
                }
            }
        }
        if !some {
            continue;
        }
        for &(w, e, _, forward) in ctx.csr.neighbours(t) {
            let Some(i) = s.slot.get(s.map.node(w as usize)).copied() else {
                continue;
            };
            if let Some(x) = arr.get(i as usize)
                && x.iter().any(|y| *y != 0.0)
            {
                emit(2 * e + u32::from(forward), x);
            }
        }
        for x in arr.iter_mut() {
            *x = [0.0; P];
        }
    }
    lost
}
