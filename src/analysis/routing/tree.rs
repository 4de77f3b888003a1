//! Routing on a switch graph that is a forest (no switch reaches another by two paths): every pair of switches
//! has one path, so ECMP has nothing to split, and each cable's load is what crosses it between the two sides it
//! separates. Computed with subtree sums in time n log n in the switches plus the demand, where the walk per
//! destination class ([`super::ecmp`]) costs switches x destinations: a chain of 6,000 switches, each a
//! destination, took 36 million steps a pattern.
//!
//! - A pairwise demand s to t climbs from s to their lowest common ancestor and descends to t: added as +x at s
//!   and -x at the ancestor (and likewise from t), the load on the cable above a switch is the sum over its subtree.
//! - An all-to-all product term a(s) b(t) is routed on the tree spanned by its switches (the virtual tree: the
//!   switches and the ancestors of neighbours in preorder): on a stretch between two of its nodes the up-load is
//!   the sources below times the destinations of the tree that are not, laid on the stretch as a pairwise demand.
//! - A virtual root above every tree: a demand whose ancestor is that root has no path and is unroutable.
//!
//! Additions and subtractions are kept apart and each load is `plus - minus`, cut to 0 when only rounding is left
//! ([`cancel`]), so a cable that carries nothing reads 0 exactly, as the walk's does (the tests compare the two).

use super::ecmp::cancel;
use super::*;

/// Whether the switch graph (the serving ingress included) is a forest: edges = switches - trees.
pub(super) fn is_forest(f: &Fabric) -> bool {
    let n = f.adj.len();
    let trees = components(f).iter().max().map_or(0, |m| m + 1);
    f.ends.len() + trees == n
}

/// The forest rooted at a virtual root `n` (every tree's root hangs under it), with preorder times and binary
/// lifting for common ancestors.
struct Rooted {
    /// Per node (`n + 1`, the virtual root last): the edge to its parent, `u32::MAX` for tree roots and the root.
    up_edge: Vec<u32>,
    tin: Vec<u32>,
    /// Preorder time past the node's subtree.
    tout: Vec<u32>,
    /// Preorder, the virtual root first.
    order: Vec<u32>,
    /// `jump[k][v]`: the 2^k-th ancestor of v (the root's is the root).
    jump: Vec<Vec<u32>>,
}

impl Rooted {
    fn new(f: &Fabric) -> Self {
        let n = f.adj.len();
        let root = n as u32;
        let mut parent = vec![root; n + 1];
        let mut up_edge = vec![u32::MAX; n + 1];
        let mut tin = vec![0u32; n + 1];
        let mut seen = vec![false; n + 1];
        let mut order = Vec::with_capacity(n + 1);
        order.push(root);
        if let Some(x) = seen.get_mut(n) {
            *x = true;
        }
        let mut stack: Vec<usize> = Vec::new();
        for s in 0..n {
            if seen.get(s) != Some(&false) {
                continue;
            }
            if let Some(x) = seen.get_mut(s) {
                *x = true;
            }
            stack.push(s);
            while let Some(v) = stack.pop() {
                if let Some(t) = tin.get_mut(v) {
                    *t = order.len() as u32;
                }
                order.push(v as u32);
                for &(w, e) in f.adj.get(v).map_or(&[][..], Vec::as_slice) {
                    if seen.get(w) != Some(&false) {
                        continue;
                    }
                    if let Some(x) = seen.get_mut(w) {
                        *x = true;
                    }
                    if let (Some(p), Some(u)) = (parent.get_mut(w), up_edge.get_mut(w)) {
                        *p = v as u32;
                        *u = e as u32;
                    }
                    stack.push(w);
                }
            }
        }
        // Subtree sizes in reverse preorder give each node's end time.
        let mut size = vec![1u32; n + 1];
        for &v in order.iter().skip(1).rev() {
            let s = size.get(v as usize).copied().unwrap_or(1);
            if let Some(p) = parent
                .get(v as usize)
                .and_then(|p| size.get_mut(*p as usize))
            {
                *p += s;
            }
        }
        let tout: Vec<u32> = tin.iter().zip(&size).map(|(t, s)| t + s).collect();
        let levels = (usize::BITS - (n + 1).leading_zeros()).max(1) as usize;
        let mut jump = vec![parent];
        for k in 1..levels {
            let Some(prev) = jump.get(k - 1) else { break };
            let next: Vec<u32> = prev
                .iter()
                .map(|&p| prev.get(p as usize).copied().unwrap_or(root))
                .collect();
            jump.push(next);
        }
        Rooted {
            up_edge,
            tin,
            tout,
            order,
            jump,
        }
    }

    fn root(&self) -> usize {
        self.up_edge.len() - 1
    }

    fn parent(&self, v: usize) -> usize {
        self.jump
            .first()
            .and_then(|p| p.get(v))
            .map_or(self.root(), |p| *p as usize)
    }

    /// Whether `u` is `v` or above it.
    fn above(&self, u: usize, v: usize) -> bool {
        match (self.tin.get(u), self.tout.get(u), self.tin.get(v)) {
            (Some(a), Some(b), Some(t)) => a <= t && t < b,
            _ => false,
        }
    }

    /// The lowest common ancestor (the virtual root for switches of different trees).
    fn lca(&self, u: usize, v: usize) -> usize {
        if self.above(u, v) {
            return u;
        }
        if self.above(v, u) {
            return v;
        }
        let mut u = u;
        for level in self.jump.iter().rev() {
            if let Some(&a) = level.get(u)
                && !self.above(a as usize, v)
            {
                u = a as usize;
            }
        }
        self.parent(u)
    }
}

/// Loads added along paths, kept as additions and subtractions per node (see the module).
struct Paths {
    up_plus: Vec<Loads>,
    up_minus: Vec<Loads>,
    down_plus: Vec<Loads>,
    down_minus: Vec<Loads>,
}

impl Paths {
    /// `x` (or its negative, `sign` false) on the way up from `from` to its ancestor `to`, or down from `to` to
    /// `from` (`up` false).
    fn add(&mut self, from: usize, to: usize, x: &Loads, up: bool, sign: bool) {
        let (plus, minus) = if up {
            (&mut self.up_plus, &mut self.up_minus)
        } else {
            (&mut self.down_plus, &mut self.down_minus)
        };
        let (at_from, at_to) = if sign { (plus, minus) } else { (minus, plus) };
        if let Some(y) = at_from.get_mut(from) {
            add_scaled(y, x, 1.0);
        }
        if let Some(y) = at_to.get_mut(to) {
            add_scaled(y, x, 1.0);
        }
    }
}

/// ECMP routing on a forest ([`is_forest`]): the same loads per directed edge and unroutable traffic as
/// [`super::ecmp::route`], to rounding, and the work done (nodes and demand entries visited). In phases: the
/// pairwise demand on its paths, the all-to-all products each on its virtual tree, the groups' own traffic taken
/// out, then the subtree sums on each switch's cable to its parent.
pub(super) fn route_forest(
    f: &Fabric,
    demand: &HashMap<usize, HashMap<usize, Loads>>,
    products: &Products,
) -> (Vec<(Loads, Loads)>, Loads, u64) {
    let t = Rooted::new(f);
    let root = t.root();
    let n1 = root + 1;
    let mut work = n1 as u64 * t.jump.len() as u64;
    let mut paths = Paths {
        up_plus: vec![[0.0; P]; n1],
        up_minus: vec![[0.0; P]; n1],
        down_plus: vec![[0.0; P]; n1],
        down_minus: vec![[0.0; P]; n1],
    };
    let mut unroutable = [0.0; P];
    // Pairwise demand (rings, storage, serving).
    work += pairwise(&t, demand, &mut paths, &mut unroutable);
    // The all-to-all products, each on its virtual tree.
    let (mut lost_plus, mut lost_minus) = (0.0, 0.0);
    // (node, a, b), reused per term.
    let mut nodes: Vec<(usize, f64, f64)> = Vec::new();
    for term in &products.terms {
        let virt = virtual_tree(&t, term, &mut nodes);
        work += virt.len() as u64;
        virtual_paths(&t, &virt, &mut paths, &mut lost_plus);
    }
    // Each group's traffic to its own members comes out of the products (all of the pair's when only rounding is
    // left, as the walk takes it).
    work += own_out(&t, products, &mut paths, &mut lost_minus);
    let loads = edge_loads(f, &t, &mut paths);
    if let Some(u) = unroutable.get_mut(Pattern::AllToAll.index()) {
        *u += cancel(lost_plus, lost_minus) + products.lost;
    }
    (loads, unroutable, work)
}

/// The all-to-all share of a load vector.
fn a2a(x: f64) -> Loads {
    all_to_all_only(x)
}

/// The pairwise demand on its paths (up from the source and down to the destination, to their lowest common
/// ancestor); between trees, unroutable. Returns the work (demand entries visited).
fn pairwise(
    t: &Rooted,
    demand: &HashMap<usize, HashMap<usize, Loads>>,
    paths: &mut Paths,
    unroutable: &mut Loads,
) -> u64 {
    let root = t.root();
    let mut work = 0;
    for (&dst, sources) in demand {
        for (&src, amount) in sources {
            work += 1;
            if src == dst {
                continue;
            }
            let l = t.lca(src, dst);
            if l == root {
                add_scaled(unroutable, amount, 1.0);
                continue;
            }
            paths.add(src, l, amount, true, true);
            paths.add(dst, l, amount, false, true);
        }
    }
    work
}

/// The virtual tree of a product term: its sources and destinations (merged per node), the lowest common
/// ancestors of neighbours in preorder and the virtual root, in preorder with (node, a, b). `nodes` is scratch.
fn virtual_tree(
    t: &Rooted,
    term: &ProductTerm,
    nodes: &mut Vec<(usize, f64, f64)>,
) -> Vec<(usize, f64, f64)> {
    let root = t.root();
    nodes.clear();
    nodes.extend(term.sources.iter().map(|&(v, a)| (v, a, 0.0)));
    nodes.extend(term.destinations.iter().map(|(&v, &b)| (v, 0.0, b)));
    let tin = |v: usize| t.tin.get(v).copied().unwrap_or(0);
    nodes.sort_unstable_by_key(|x| (tin(x.0), x.0));
    let mut merged: Vec<(usize, f64, f64)> = Vec::with_capacity(nodes.len() * 2 + 1);
    for &(v, a, b) in nodes.iter() {
        match merged.last_mut() {
            Some(last) if last.0 == v => {
                last.1 += a;
                last.2 += b;
            }
            _ => merged.push((v, a, b)),
        }
    }
    // The ancestors of neighbours in preorder and the virtual root complete the virtual tree.
    let k = merged.len();
    for i in 1..k {
        if let (Some(x), Some(y)) = (merged.get(i - 1), merged.get(i)) {
            let l = t.lca(x.0, y.0);
            merged.push((l, 0.0, 0.0));
        }
    }
    merged.push((root, 0.0, 0.0));
    merged.sort_by_key(|x| (tin(x.0), x.0));
    let mut virt: Vec<(usize, f64, f64)> = Vec::with_capacity(merged.len());
    for &(v, a, b) in &merged {
        match virt.last_mut() {
            Some(last) if last.0 == v => {
                last.1 += a;
                last.2 += b;
            }
            _ => virt.push((v, a, b)),
        }
    }
    virt
}

/// The loads of one product term on its virtual tree `virt`: at each virtual edge, the sources below to the
/// destinations elsewhere in their tree (up) and back (down); sources to other trees add to `lost_plus`.
fn virtual_paths(t: &Rooted, virt: &[(usize, f64, f64)], paths: &mut Paths, lost_plus: &mut f64) {
    // Each virtual node's parent (a position in `virt`), from a stack of the current path.
    let mut vparent = vec![usize::MAX; virt.len()];
    let mut stack: Vec<usize> = Vec::new();
    for (i, &(v, _, _)) in virt.iter().enumerate() {
        while let Some(&top) = stack.last() {
            if virt.get(top).is_some_and(|x| t.above(x.0, v)) {
                break;
            }
            stack.pop();
        }
        if let (Some(&top), Some(p)) = (stack.last(), vparent.get_mut(i)) {
            *p = top;
        }
        stack.push(i);
    }
    // Sums below each virtual node, children before parents.
    let (mut a_sub, mut b_sub): (Vec<f64>, Vec<f64>) = virt.iter().map(|x| (x.1, x.2)).unzip();
    for i in (0..virt.len()).rev() {
        let Some(&p) = vparent.get(i) else { continue };
        let (a, b) = (
            a_sub.get(i).copied().unwrap_or(0.0),
            b_sub.get(i).copied().unwrap_or(0.0),
        );
        if let (Some(x), Some(y)) = (a_sub.get_mut(p), b_sub.get_mut(p)) {
            *x += a;
            *y += b;
        }
    }
    let b_all = b_sub.first().copied().unwrap_or(0.0);
    // Each node's tree: the virtual node just below the root.
    let mut top = vec![0usize; virt.len()];
    for i in 1..virt.len() {
        let p = vparent.get(i).copied().unwrap_or(0);
        let tp = if p == 0 {
            i
        } else {
            top.get(p).copied().unwrap_or(i)
        };
        if let Some(x) = top.get_mut(i) {
            *x = tp;
        }
    }
    for i in 1..virt.len() {
        let (Some(&(v, _, _)), Some(&p), Some(&tp)) = (virt.get(i), vparent.get(i), top.get(i))
        else {
            continue;
        };
        let (a, b) = (
            a_sub.get(i).copied().unwrap_or(0.0),
            b_sub.get(i).copied().unwrap_or(0.0),
        );
        if p == 0 {
            // Sources of this tree to destinations of the others: no path.
            *lost_plus += a * cancel(b_all, b);
            continue;
        }
        let (a_tree, b_tree) = (
            a_sub.get(tp).copied().unwrap_or(0.0),
            b_sub.get(tp).copied().unwrap_or(0.0),
        );
        let Some(&(pv, _, _)) = virt.get(p) else {
            continue;
        };
        let up = a * cancel(b_tree, b);
        let down = cancel(a_tree, a) * b;
        if up != 0.0 {
            paths.add(v, pv, &a2a(up), true, true);
        }
        if down != 0.0 {
            paths.add(v, pv, &a2a(down), false, true);
        }
    }
}

/// Each group's traffic to its own members taken out of the paths (or, between trees, added to `lost_minus`).
/// Returns the work (entries visited).
fn own_out(t: &Rooted, products: &Products, paths: &mut Paths, lost_minus: &mut f64) -> u64 {
    let root = t.root();
    let mut work = 0;
    for (&dst, list) in &products.own {
        for &(src, own) in list {
            work += 1;
            if src == dst {
                continue;
            }
            let net = products.net(src, dst, own);
            let out = if net == 0.0 {
                products.whole(src, dst)
            } else {
                own
            };
            if out == 0.0 {
                continue;
            }
            let l = t.lca(src, dst);
            if l == root {
                *lost_minus += out;
                continue;
            }
            paths.add(src, l, &a2a(out), true, false);
            paths.add(dst, l, &a2a(out), false, false);
        }
    }
    work
}

/// Subtree sums, children before parents; each switch's cable to its parent carries them.
fn edge_loads(f: &Fabric, t: &Rooted, paths: &mut Paths) -> Vec<(Loads, Loads)> {
    let root = t.root();
    let mut loads = vec![([0.0; P], [0.0; P]); f.ends.len()];
    for &v in t.order.iter().rev() {
        let v = v as usize;
        if v == root {
            continue;
        }
        let p = t.parent(v);
        let (Some(&up_p), Some(&up_m), Some(&down_p), Some(&down_m)) = (
            paths.up_plus.get(v),
            paths.up_minus.get(v),
            paths.down_plus.get(v),
            paths.down_minus.get(v),
        ) else {
            continue;
        };
        for (arr, x) in [
            (&mut paths.up_plus, &up_p),
            (&mut paths.up_minus, &up_m),
            (&mut paths.down_plus, &down_p),
            (&mut paths.down_minus, &down_m),
        ] {
            if let Some(y) = arr.get_mut(p) {
                add_scaled(y, x, 1.0);
            }
        }
        let Some(&e) = t.up_edge.get(v) else { continue };
        let (Some(l), Some(&(a, _))) = (loads.get_mut(e as usize), f.ends.get(e as usize)) else {
            continue;
        };
        let mut up = [0.0; P];
        let mut down = [0.0; P];
        for k in 0..P {
            if let (Some(u), Some(d)) = (up.get_mut(k), down.get_mut(k)) {
                *u = cancel(
                    up_p.get(k).copied().unwrap_or(0.0),
                    up_m.get(k).copied().unwrap_or(0.0),
                );
                *d = cancel(
                    down_p.get(k).copied().unwrap_or(0.0),
                    down_m.get(k).copied().unwrap_or(0.0),
                );
            }
        }
        // The edge's first end is the child: up is a to b.
        *l = if a == v { (up, down) } else { (down, up) };
    }
    loads
}
