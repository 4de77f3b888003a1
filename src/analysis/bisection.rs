//! Bisection bandwidth of the compute fabric at any size (docs/analysis.md, "Bisection bandwidth").
//!
//! The bisection is the smallest max-flow (= min cut) from one half of the GPU servers to the other, over the
//! splits whose GPU counts are as equal as possible. GPU servers with the same GPU count and the same attachments
//! (the same multiset of (switch, compute capacity) neighbours) are interchangeable, so they are contracted into
//! classes with multiplicities: a split is then a count per class, and its max-flow runs on a graph of switches
//! plus two nodes per class. Three methods, in order:
//!
//! 1. **Enumeration** (exact): every balanced count vector, or, when all servers have the same GPU count, only the
//!    vertices of the balanced slice of the count box (at most one class split between the halves). The max-flow
//!    is the minimum of cut capacities that are linear in the counts, so it is concave in them, and a concave
//!    function on a polytope takes its minimum at a vertex; box plus one all-ones equality is totally unimodular,
//!    so those vertices are whole-server splits.
//! 2. **Matching bounds** (exact when they meet): a lower bound from a hose-model routing certificate (below) and
//!    an upper bound from the max-flow of candidate splits (whole classes in id order, one class split).
//! 3. **Interval**: when the bounds do not meet, both are reported and the headline figure is the lower bound.
//!
//! Hose certificate: send every server's compute bandwidth up the tiers, each switch splitting what it holds over
//! its links to higher tiers by capacity. When every server class ends with the same distribution over the top
//! switches, Valiant two-phase routing (up to a top switch in that distribution, down along the reverse of the
//! destination's up-flow) carries any traffic in which each server sends and receives at most theta x its compute
//! bandwidth, theta = min(1, capacity / up-load) over the upward links. Every balanced split then carries at least
//! theta x (smaller half's GPUs) x (least compute bandwidth per GPU of any class) across its cut.

use crate::model::Design;
use crate::topology::{NodeKind, Topology};
use petgraph::graph::NodeIndex;
use petgraph::visit::EdgeRef;
use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;

/// Largest number of candidate splits whose max-flows the enumeration runs.
pub const MAX_SPLITS: usize = 4096;
/// Largest (candidate splits x flow-graph arcs) the enumeration spends before it settles for bounds.
pub const MAX_SPLIT_WORK: usize = 4_000_000;

/// Outcome of the bisection computation, Gb/s.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Outcome {
    pub lower: f64,
    pub upper: f64,
    pub exact: bool,
    pub method: String,
}

/// A class of interchangeable GPU servers.
#[derive(Debug, Clone)]
struct Class {
    gpus: usize,
    count: usize,
    /// (switch node in the topology, compute capacity per server, Gb/s).
    attach: Vec<(NodeIndex, f64)>,
    /// Server-to-server cables: (other class, capacity); only for singleton classes.
    peers: Vec<(usize, f64)>,
}

impl Class {
    fn compute_gbps(&self) -> f64 {
        self.attach.iter().map(|(_, c)| c).sum()
    }
}

/// GPUs, sorted (switch, capacity bits) attachments, and the server itself when it cannot share a class.
type ClassKey = (usize, Vec<(usize, u64)>, Option<usize>);

fn classes(design: &Design, topo: &Topology) -> Vec<Class> {
    let is = |n: NodeIndex, k: NodeKind| topo.graph.node_weight(n).is_some_and(|w| w.kind == k);
    let servers: Vec<NodeIndex> = topo
        .graph
        .node_indices()
        .filter(|n| is(*n, NodeKind::GpuServer))
        .collect();
    let mut by_key: BTreeMap<ClassKey, Vec<NodeIndex>> = BTreeMap::new();
    // Servers cabled straight to another GPU server are not interchangeable with anyone: singletons.
    let mut linked: Vec<NodeIndex> = Vec::new();
    for &s in &servers {
        let gpus = topo
            .graph
            .node_weight(s)
            .and_then(|w| design.devices.get(&w.device))
            .map_or(0, |d| d.gpus.len());
        let mut attach: Vec<(usize, u64)> = Vec::new();
        let mut single = None;
        for (o, e) in topo.neighbours(s) {
            let c = topo.graph.edge_weight(e).map_or(0.0, |w| w.compute_gbps);
            if c <= 0.0 {
                continue;
            }
            if is(o, NodeKind::Switch) {
                attach.push((o.index(), c.to_bits()));
            } else if is(o, NodeKind::GpuServer) {
                single = Some(s.index());
            }
        }
        attach.sort_unstable();
        if single.is_some() {
            linked.push(s);
        }
        by_key.entry((gpus, attach, single)).or_default().push(s);
    }
    let mut class_of: HashMap<NodeIndex, usize> = HashMap::default();
    let mut out = Vec::with_capacity(by_key.len());
    for ((gpus, attach, _), members) in by_key {
        for m in &members {
            class_of.insert(*m, out.len());
        }
        out.push(Class {
            gpus,
            count: members.len(),
            attach: attach
                .into_iter()
                .map(|(n, c)| (NodeIndex::new(n), f64::from_bits(c)))
                .collect(),
            peers: Vec::new(),
        });
    }
    // Only a server cabled to another GPU server has peers.
    for &s in &linked {
        let Some(&c) = class_of.get(&s) else { continue };
        for e in topo.graph.edges(s) {
            let o = other(e.source(), e.target(), s);
            if e.weight().compute_gbps > 0.0
                && let Some(&d) = class_of.get(&o)
                && let Some(cl) = out.get_mut(c)
            {
                cl.peers.push((d, e.weight().compute_gbps));
            }
        }
    }
    out
}

fn other(a: NodeIndex, b: NodeIndex, me: NodeIndex) -> NodeIndex {
    if a == me { b } else { a }
}

/// GPU count of the smaller half of the fairest split (bounded subset sum over the classes), if any split leaves
/// servers on both sides. Which GPU totals a set of servers can reach depends only on how many servers there are
/// of each GPU count, so classes of one GPU count are pooled first: the work is the bitset's length (the GPUs)
/// times the logarithm of the servers, per distinct GPU count, not per class.
fn smaller_half(classes: &[Class]) -> Option<usize> {
    let total: usize = classes.iter().map(|c| c.gpus * c.count).sum();
    let mut pooled: BTreeMap<usize, usize> = BTreeMap::new();
    for c in classes {
        *pooled.entry(c.gpus).or_default() += c.count;
    }
    let words = total / 64 + 1;
    let mut reach = vec![0u64; words];
    if let Some(w) = reach.first_mut() {
        *w = 1;
    }
    // Binary splitting of each pool's multiplicity into items of 1, 2, 4, ... servers.
    for (&gpus, &count) in &pooled {
        let mut left = count;
        let mut k = 1;
        while left > 0 {
            let take = k.min(left);
            left -= take;
            k *= 2;
            let shift = take * gpus;
            if shift == 0 {
                continue;
            }
            let (ws, bs) = (shift / 64, shift % 64);
            for i in (0..words).rev() {
                let lo = i
                    .checked_sub(ws)
                    .and_then(|j| reach.get(j))
                    .copied()
                    .unwrap_or(0);
                let hi = if bs == 0 {
                    0
                } else {
                    i.checked_sub(ws + 1)
                        .and_then(|j| reach.get(j))
                        .copied()
                        .unwrap_or(0)
                        >> (64 - bs)
                };
                if let Some(w) = reach.get_mut(i) {
                    *w |= (lo << bs) | hi;
                }
            }
        }
    }
    let has = |a: usize| reach.get(a / 64).is_some_and(|w| w >> (a % 64) & 1 == 1);
    (1..total).filter(|a| has(*a) && 2 * a <= total).max()
}

/// Max-flow from the servers counted in `k` (per class) to all the others.
fn split_flow(topo: &Topology, classes: &[Class], k: &[usize]) -> f64 {
    let mut g = FlowNet::default();
    let mut idx: HashMap<NodeIndex, usize> = HashMap::default();
    for v in topo.graph.node_indices() {
        if topo
            .graph
            .node_weight(v)
            .is_some_and(|w| w.kind == NodeKind::Switch)
        {
            idx.insert(v, g.add_node());
        }
    }
    for e in topo.graph.edge_references() {
        let (Some(&a), Some(&b)) = (idx.get(&e.source()), idx.get(&e.target())) else {
            continue;
        };
        if e.weight().gbps > 0.0 {
            g.add_both(a, b, e.weight().gbps);
        }
    }
    let source = g.add_node();
    let sink = g.add_node();
    let big = 1e15;
    let mut sides: Vec<(Option<usize>, Option<usize>)> = Vec::with_capacity(classes.len());
    for (c, class) in classes.iter().enumerate() {
        let in_a = k.get(c).copied().unwrap_or(0).min(class.count);
        let in_b = class.count - in_a;
        let mut side = |n: usize, terminal: usize, outward: bool| -> Option<usize> {
            if n == 0 {
                return None;
            }
            let node = g.add_node();
            if outward {
                g.add_arc(terminal, node, big);
            } else {
                g.add_arc(node, terminal, big);
            }
            for (sw, cap) in &class.attach {
                if let Some(&s) = idx.get(sw) {
                    g.add_both(node, s, cap * n as f64);
                }
            }
            Some(node)
        };
        let a = side(in_a, source, true);
        let b = side(in_b, sink, false);
        sides.push((a, b));
    }
    // Cables between singleton servers join whichever side each server is on.
    for (c, class) in classes.iter().enumerate() {
        for &(d, cap) in &class.peers {
            if d <= c {
                continue;
            }
            let (Some(x), Some(y)) = (sides.get(c), sides.get(d)) else {
                continue;
            };
            if let (Some(u), Some(v)) = (x.0.or(x.1), y.0.or(y.1)) {
                g.add_both(u, v, cap);
            }
        }
    }
    g.max_flow(source, sink)
}

/// A flow network for Dinic's algorithm: arcs in pairs (arc `i` and its reverse `i ^ 1`) holding their residual
/// capacities. Unlike petgraph's `dinics`, which restarts its depth-first search (and clears a visit map the size
/// of the graph) for every augmenting path, each node keeps its current arc through a phase, so a phase costs the
/// arcs plus the paths' lengths, not the paths times the graph: the fabric of a 176,000-GPU design takes thousands
/// of paths a phase.
#[derive(Default)]
struct FlowNet {
    /// Arcs leaving each node.
    out: Vec<Vec<usize>>,
    /// Head of each arc.
    head: Vec<usize>,
    /// Residual capacity of each arc, Gb/s.
    residual: Vec<f64>,
}

impl FlowNet {
    fn add_node(&mut self) -> usize {
        self.out.push(Vec::new());
        self.out.len() - 1
    }

    /// An arc of `cap` from `a` to `b` and its reverse of `back`.
    fn add_pair(&mut self, a: usize, b: usize, cap: f64, back: f64) {
        let i = self.head.len();
        self.head.extend([b, a]);
        self.residual.extend([cap, back]);
        if let Some(o) = self.out.get_mut(a) {
            o.push(i);
        }
        if let Some(o) = self.out.get_mut(b) {
            o.push(i + 1);
        }
    }

    /// A one-way arc of `cap`.
    fn add_arc(&mut self, a: usize, b: usize, cap: f64) {
        self.add_pair(a, b, cap, 0.0);
    }

    /// A cable: `cap` each way (one arc pair carries both directions, as two opposite arcs would).
    fn add_both(&mut self, a: usize, b: usize, cap: f64) {
        self.add_pair(a, b, cap, cap);
    }

    /// Levels from `s` over arcs with residual capacity (`usize::MAX` unreached); whether `t` was reached.
    fn levels(&self, s: usize, t: usize, level: &mut [usize], queue: &mut Vec<usize>) -> bool {
        level.fill(usize::MAX);
        queue.clear();
        if let Some(l) = level.get_mut(s) {
            *l = 0;
        }
        queue.push(s);
        let mut next = 0;
        while let Some(&v) = queue.get(next) {
            next += 1;
            let lv = level.get(v).copied().unwrap_or(usize::MAX);
            for &a in self.out.get(v).map_or(&[][..], Vec::as_slice) {
                let (Some(&w), Some(&r)) = (self.head.get(a), self.residual.get(a)) else {
                    continue;
                };
                if r > 0.0
                    && let Some(lw) = level.get_mut(w)
                    && *lw == usize::MAX
                {
                    *lw = lv + 1;
                    queue.push(w);
                }
            }
        }
        level.get(t).is_some_and(|l| *l != usize::MAX)
    }

    /// The maximum flow from `s` to `t` (Dinic's algorithm: blocking flows on level graphs, found by depth-first
    /// search with a current arc per node; iterative, so a long chain of switches cannot overflow the stack).
    fn max_flow(&mut self, s: usize, t: usize) -> f64 {
        let n = self.out.len();
        let mut level = vec![usize::MAX; n];
        let mut queue = Vec::with_capacity(n);
        let mut current = vec![0usize; n];
        let mut path: Vec<usize> = Vec::new();
        let mut total = 0.0;
        while self.levels(s, t, &mut level, &mut queue) {
            current.fill(0);
            path.clear();
            let mut v = s;
            loop {
                if v == t {
                    let push = path
                        .iter()
                        .filter_map(|&a| self.residual.get(a).copied())
                        .fold(f64::INFINITY, f64::min);
                    for &a in &path {
                        if let Some(r) = self.residual.get_mut(a) {
                            *r -= push;
                        }
                        if let Some(r) = self.residual.get_mut(a ^ 1) {
                            *r += push;
                        }
                    }
                    total += push;
                    path.clear();
                    v = s;
                    continue;
                }
                let arcs = self.out.get(v).map_or(&[][..], Vec::as_slice);
                let lv = level.get(v).copied().unwrap_or(usize::MAX);
                let Some(at) = current.get_mut(v) else { break };
                let mut step = None;
                while let Some(&a) = arcs.get(*at) {
                    if let (Some(&w), Some(&r)) = (self.head.get(a), self.residual.get(a))
                        && r > 0.0
                        && level.get(w).is_some_and(|lw| *lw == lv + 1)
                    {
                        step = Some((a, w));
                        break;
                    }
                    *at += 1;
                }
                match step {
                    Some((a, w)) => {
                        path.push(a);
                        v = w;
                    }
                    // A dead end: no path to t goes through v in this phase; step back past the arc into it.
                    None => {
                        if let Some(l) = level.get_mut(v) {
                            *l = usize::MAX;
                        }
                        let Some(a) = path.pop() else { break };
                        v = self.head.get(a ^ 1).copied().unwrap_or(s);
                        if let Some(at) = current.get_mut(v) {
                            *at += 1;
                        }
                    }
                }
            }
        }
        total
    }
}

/// Candidate count vectors summing to `half` GPUs: with `vertices`, every class whole on one side except at most
/// one; otherwise every vector. None when there are more than `limit`.
fn enumerate(
    classes: &[Class],
    half: usize,
    vertices: bool,
    limit: usize,
) -> Option<Vec<Vec<usize>>> {
    let mut suffix = vec![0usize; classes.len() + 1];
    for (i, c) in classes.iter().enumerate().rev() {
        let next = suffix.get(i + 1).copied().unwrap_or(0);
        if let Some(s) = suffix.get_mut(i) {
            *s = next + c.gpus * c.count;
        }
    }
    let mut out = Vec::new();
    let mut k = vec![0usize; classes.len()];
    /// Tries each count of class `i`'s members on the first side (with `left` GPUs still to place), then the later
    /// classes; false once the search gives up (more than `limit` vectors, or its visits spent).
    #[allow(clippy::too_many_arguments)]
    fn choose_counts(
        i: usize,
        left: usize,
        partial_used: bool,
        classes: &[Class],
        suffix: &[usize],
        vertices: bool,
        limit: usize,
        k: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
        visits: &mut usize,
    ) -> bool {
        // A search that wanders through many dead ends gives up like one that finds too many splits.
        *visits = visits.saturating_sub(1);
        if *visits == 0 {
            return false;
        }
        let Some(c) = classes.get(i) else {
            if left == 0 {
                out.push(k.clone());
            }
            return out.len() <= limit;
        };
        if suffix.get(i).is_none_or(|s| *s < left) {
            return true;
        }
        for n in 0..=c.count {
            let whole = n == 0 || n == c.count;
            if vertices && !whole && partial_used {
                continue;
            }
            let used = n * c.gpus;
            if used > left {
                break;
            }
            if let Some(x) = k.get_mut(i) {
                *x = n;
            }
            let partial = partial_used || !whole;
            if !choose_counts(
                i + 1,
                left - used,
                partial,
                classes,
                suffix,
                vertices,
                limit,
                k,
                out,
                visits,
            ) {
                return false;
            }
        }
        if let Some(x) = k.get_mut(i) {
            *x = 0;
        }
        true
    }
    let mut visits = 64 * (limit + 1) * (classes.len() + 1) + 10_000;
    choose_counts(
        0,
        half,
        false,
        classes,
        &suffix,
        vertices,
        limit,
        &mut k,
        &mut out,
        &mut visits,
    )
    .then_some(out)
}

/// Hose-model certificate: theta when every class sends up to the same distribution over the top switches.
///
/// Both halves of the certificate are linear in what each switch holds, so neither walks the upper tiers once per
/// class (thousands of classes, a rack leaf each, share the same spines and cores):
/// - the up-load on every link is one tier-by-tier pass over the sum of all classes' attachments;
/// - each class's distribution over the top switches is the sum of its switches' distributions, and a switch's
///   distribution (where a unit of traffic it holds ends up) is found once and shared by every class under it.
fn hose_theta(topo: &Topology, classes: &[Class]) -> Option<f64> {
    let n = topo.graph.node_count();
    let tier = |v: NodeIndex| topo.node_tier.get(v.index()).copied().unwrap_or(0);
    // Each switch's links to higher tiers: (switch, link, capacity).
    let ups: Vec<Vec<(NodeIndex, usize, f64)>> = topo
        .graph
        .node_indices()
        .map(|v| {
            let t = tier(v);
            if t == 0 {
                return Vec::new();
            }
            // The neighbours from the compressed rows; an edge's figures only for those a tier up.
            topo.neighbours(v)
                .filter(|(o, _)| tier(*o) > t)
                .filter_map(|(o, e)| {
                    let gbps = topo.graph.edge_weight(e)?.gbps;
                    (gbps > 0.0).then_some((o, e.index(), gbps))
                })
                .collect()
        })
        .collect();
    let up_of = |v: NodeIndex| ups.get(v.index()).map_or(&[][..], Vec::as_slice);
    let up_cap = |v: NodeIndex| up_of(v).iter().map(|x| x.2).sum::<f64>();
    // A fabric where every class reaches every switch would make the distributions long: past this much work the
    // certificate gives up (no lower bound) rather than stall the analysis.
    let mut budget: usize = 20_000_000;

    // What every class's servers hold at each switch, then pushed up tier by tier: the load on every up-link.
    let mut held = vec![0.0_f64; n];
    let mut reached = vec![false; n];
    let mut order: Vec<NodeIndex> = Vec::new();
    for c in classes {
        if c.compute_gbps() <= 0.0 {
            return None;
        }
        for (sw, cap) in &c.attach {
            if tier(*sw) == 0 {
                return None;
            }
            *held.get_mut(sw.index())? += cap * c.count as f64;
            if !std::mem::replace(reached.get_mut(sw.index())?, true) {
                order.push(*sw);
            }
        }
    }
    // Every switch above the attachments, found once.
    let mut next = 0;
    while let Some(&v) = order.get(next) {
        next += 1;
        budget = budget.checked_sub(up_of(v).len() + 1)?;
        for &(w, _, _) in up_of(v) {
            if !std::mem::replace(reached.get_mut(w.index())?, true) {
                order.push(w);
            }
        }
    }
    order.sort_unstable_by_key(|v| (tier(*v), v.index()));
    let mut load = vec![0.0_f64; topo.graph.edge_count()];
    for &v in &order {
        let amount = held.get(v.index()).copied().unwrap_or(0.0);
        let cap = up_cap(v);
        if amount <= 0.0 || cap <= 0.0 {
            continue;
        }
        for &(w, e, c_e) in up_of(v) {
            let share = amount * c_e / cap;
            *load.get_mut(e)? += share;
            *held.get_mut(w.index())? += share;
        }
    }

    // Where a unit held at each switch ends up among the top switches, highest tier first so a switch's
    // up-neighbours are done before it. Switches that split over the same distributions in the same proportions
    // share one (in a fat tree, a handful per tier).
    let mut dists = Dists::default();
    let mut dist_of = vec![usize::MAX; n];
    for &v in order.iter().rev() {
        let cap = up_cap(v);
        let id = if up_of(v).is_empty() || cap <= 0.0 {
            dists.intern(vec![(v.index(), 1.0)])
        } else {
            let mix = up_of(v)
                .iter()
                .map(|&(w, _, c_e)| Some((*dist_of.get(w.index())?, c_e / cap)))
                .collect::<Option<Vec<_>>>()?;
            dists.mix(mix, &mut budget)?
        };
        *dist_of.get_mut(v.index())? = id;
    }
    // Every class must spread over the top switches alike.
    let mut first: Option<usize> = None;
    for c in classes {
        let total = c.compute_gbps();
        let mix = c
            .attach
            .iter()
            .map(|(sw, cap)| Some((*dist_of.get(sw.index())?, cap / total)))
            .collect::<Option<Vec<_>>>()?;
        let id = dists.mix(mix, &mut budget)?;
        match first {
            None => first = Some(id),
            Some(f) if f == id => {}
            Some(f) => {
                let (a, b) = (dists.content.get(f)?, dists.content.get(id)?);
                if a.len() != b.len()
                    || a.iter()
                        .zip(b)
                        .any(|((a, x), (b, y))| a != b || (x - y).abs() > 1e-9)
                {
                    return None;
                }
            }
        }
    }
    let mut theta: f64 = 1.0;
    for e in topo.graph.edge_indices() {
        let l = load.get(e.index()).copied().unwrap_or(0.0);
        if l > 0.0 {
            let cap = topo.graph.edge_weight(e).map_or(0.0, |w| w.gbps);
            theta = theta.min(cap / l);
        }
    }
    Some(theta)
}

/// Distributions over the top switches ((switch, share), sorted by switch), each kept once.
#[derive(Default)]
struct Dists {
    content: Vec<Vec<(usize, f64)>>,
    by_content: HashMap<Vec<(usize, u64)>, usize>,
    /// A mix of distributions ((distribution, weight), sorted) already worked out.
    by_mix: HashMap<Vec<(usize, u64)>, usize>,
}

impl Dists {
    fn intern(&mut self, content: Vec<(usize, f64)>) -> usize {
        let key: Vec<(usize, u64)> = content.iter().map(|&(t, f)| (t, f.to_bits())).collect();
        let next = self.content.len();
        let id = *self.by_content.entry(key).or_insert(next);
        if id == next {
            self.content.push(content);
        }
        id
    }

    /// The distribution sum of weight x distribution; None past the work budget.
    fn mix(&mut self, mut mix: Vec<(usize, f64)>, budget: &mut usize) -> Option<usize> {
        mix.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        let mut key: Vec<(usize, u64)> = Vec::with_capacity(mix.len());
        let mut weights: Vec<(usize, f64)> = Vec::with_capacity(mix.len());
        for (d, w) in mix {
            match weights.last_mut() {
                Some(last) if last.0 == d => last.1 += w,
                _ => weights.push((d, w)),
            }
        }
        key.extend(weights.iter().map(|&(d, w)| (d, w.to_bits())));
        if let Some(&id) = self.by_mix.get(&key) {
            return Some(id);
        }
        let mut parts: Vec<(usize, f64)> = Vec::new();
        for &(d, w) in &weights {
            let c = self.content.get(d)?;
            *budget = budget.checked_sub(c.len())?;
            parts.extend(c.iter().map(|&(t, f)| (t, f * w)));
        }
        parts.sort_unstable_by_key(|p| p.0);
        let mut content: Vec<(usize, f64)> = Vec::new();
        for (t, f) in parts {
            match content.last_mut() {
                Some(last) if last.0 == t => last.1 += f,
                _ => content.push((t, f)),
            }
        }
        content.retain(|p| p.1 > 0.0);
        let id = self.intern(content);
        self.by_mix.insert(key, id);
        Some(id)
    }
}

/// The bisection of the design's compute fabric (None with fewer than two GPU servers).
pub(crate) fn compute(design: &Design, topo: &Topology) -> Option<Outcome> {
    let classes = classes(design, topo);
    let servers: usize = classes.iter().map(|c| c.count).sum();
    if servers < 2 {
        return None;
    }
    let half = smaller_half(&classes)?;
    let arcs =
        2 * topo.graph.edge_count() + 4 * classes.iter().map(|c| c.attach.len() + 1).sum::<usize>();
    let same_gpus = classes
        .windows(2)
        .all(|w| w.first().map(|c| c.gpus) == w.get(1).map(|c| c.gpus));
    let no_peers = classes.iter().all(|c| c.peers.is_empty());
    let limit = MAX_SPLITS.min(MAX_SPLIT_WORK / arcs.max(1)).max(1);
    let vertices = same_gpus && no_peers;
    if let Some(splits) = enumerate(&classes, half, vertices, limit)
        && !splits.is_empty()
    {
        let best = splits
            .iter()
            .map(|k| split_flow(topo, &classes, k))
            .fold(f64::INFINITY, f64::min);
        let how = if vertices {
            "; with equal GPUs per server, splits dividing at most one class suffice (docs/analysis.md, \
             \"Bisection bandwidth\")"
        } else {
            ""
        };
        let total: usize = classes.iter().map(|c| c.gpus * c.count).sum();
        return Some(Outcome {
            lower: best,
            upper: best,
            exact: true,
            method: format!(
                "exact: smallest maximum flow (Dinic's algorithm) over the candidate splits ({}), {half} GPUs against {}; \
                 servers with the same attachments contracted into {}{how}",
                splits.len(),
                total - half,
                crate::analysis::format::count(classes.len(), "class", "classes")
            ),
        });
    }
    // Bounds. Lower: the hose certificate. Upper: whole classes in id order, then the reverse order.
    let min_per_gpu = classes
        .iter()
        .map(|c| c.compute_gbps() / c.gpus.max(1) as f64)
        .fold(f64::INFINITY, f64::min);
    let theta = if no_peers {
        hose_theta(topo, &classes)
    } else {
        None
    };
    let lower = theta.map_or(0.0, |t| t * half as f64 * min_per_gpu);
    let mut candidates = Vec::new();
    for reverse in [false, true] {
        let order: Vec<usize> = if reverse {
            (0..classes.len()).rev().collect()
        } else {
            (0..classes.len()).collect()
        };
        let mut k = vec![0usize; classes.len()];
        let mut left = half;
        for i in order {
            let Some(c) = classes.get(i) else { continue };
            let n = (left / c.gpus.max(1)).min(c.count);
            if let Some(x) = k.get_mut(i) {
                *x = n;
            }
            left -= n * c.gpus;
        }
        if left == 0 {
            candidates.push(k);
        }
    }
    // The access capacity of a candidate's smaller half bounds its cut; when the certificate meets it, no
    // max-flow is needed.
    let access = |k: &[usize]| -> f64 {
        classes
            .iter()
            .zip(k)
            .map(|(c, n)| c.compute_gbps() * *n as f64)
            .sum()
    };
    let mut upper = candidates
        .iter()
        .map(|k| access(k))
        .fold(f64::INFINITY, f64::min);
    if lower < upper - 1e-6 {
        for k in &candidates {
            upper = upper.min(split_flow(topo, &classes, k));
        }
    }
    if !upper.is_finite() {
        upper = classes
            .iter()
            .map(|c| c.compute_gbps() * c.count as f64)
            .sum::<f64>()
            / 2.0;
    }
    let lower = lower.min(upper);
    if upper - lower <= 1e-6 * upper.max(1.0) {
        return Some(Outcome {
            lower,
            upper,
            exact: true,
            method: format!(
                "exact: a hose-model routing certificate (every server's compute bandwidth reaches the top tier in the \
                 same proportions, theta = {:.3}) gives a lower bound that meets a balanced split's cut",
                theta.unwrap_or(0.0)
            ),
        });
    }
    Some(Outcome {
        lower,
        upper,
        exact: false,
        method: format!(
            "bounds: between {lower:.0} and {upper:.0} Gb/s (too many balanced splits to try every one; lower bound \
             from {}, upper bound from the max-flow of balanced splits of whole server classes); the figure given is \
             the lower bound",
            if theta.is_some() {
                "a hose-model routing certificate"
            } else {
                "nothing better than zero: servers do not reach the top tier in the same proportions"
            }
        ),
    })
}

#[cfg(test)]
mod tests;
