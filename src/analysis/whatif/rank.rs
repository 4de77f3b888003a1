//! The one-pass ranking of single failures (docs/analysis.md, "Single failures by impact"): every switch, cable,
//! rack power feed and storage appliance, with what its loss costs estimated from the intact design's analysis
//! without analysing the design again.
//!
//! - Reachability: one depth-first search gives every node's subtree sums (GPUs, storage appliances) and low
//!   points; the pieces a cut vertex or a bridge leaves are its separated subtrees and the rest of its component
//!   (the block-cut tree read off the search), so GPUs reachable and GPUs reaching storage after each loss cost
//!   its degree.
//! - Network per GPU: the server model of the report (`bandwidth::server_network_gbyte_s`) on each server a switch
//!   or cable touches, with those cables gone; servers of one shape losing the same ports are computed once. The
//!   routed load factor rises where a switch loses uplinks: the rail-ring load it sent up spreads over the uplinks
//!   left (ECMP by capacity).
//! - Bisection: the capacity lost at each tier boundary (servers to leaves, tier to tier), scaling the bisection by
//!   the boundary that bounds it (the servers' injection when the fabric is full-bisection).
//! - Storage per GPU: the appliances' rated and cabled throughput left in the group that loses one.
//! - Replicas: the design's GPUs less those a dark rack takes with it.

use super::{Failure, Impact};
use crate::analysis::bandwidth::{BandwidthReport, cabled_ports, server_network_gbyte_s};
use crate::analysis::pattern::Pattern;
use crate::analysis::power::PowerReport;
use crate::model::part::PartKind;
use crate::model::{Design, LinkId, RackId};
use crate::topology::{NodeKind, Topology};
use petgraph::graph::{EdgeIndex, NodeIndex};
use rustc_hash::FxHashMap as HashMap;

/// Most work the ranking spends re-running the server model (GPU and NIC slots of the server shapes recomputed);
/// past it, a server's network per GPU after losing cables is scaled by the cabled bandwidth it keeps.
pub const SERVER_MODEL_BUDGET: usize = 2_000_000;

/// Most work (nodes plus edges walked) spent on racks whose dark feed takes switches or storage with it, each a
/// walk of the graph without the rack; past it such a rack counts only its own GPUs as lost.
pub const DARK_RACK_BUDGET: usize = 20_000_000;

/// One candidate before grouping: its failure and estimated impact.
pub(super) struct Candidate {
    pub(super) failure: Failure,
    pub(super) impact: Impact,
    /// Whether its loss disconnects something (an articulation point or a bridge): such candidates are grouped by
    /// their signature, the others by their estimated figures.
    pub(super) cuts: bool,
}

/// The depth-first search's results per node.
struct Search {
    disc: Vec<u32>,
    low: Vec<u32>,
    parent: Vec<u32>,
    /// GPUs and storage appliances in each node's subtree.
    sub: Vec<(usize, usize)>,
    comp: Vec<u32>,
    /// GPUs and storage appliances per component.
    comps: Vec<(usize, usize)>,
}

const NONE: u32 = u32::MAX;

fn search(topo: &Topology, own: &[(usize, usize)]) -> Search {
    let n = topo.graph.node_count();
    let mut s = Search {
        disc: vec![NONE; n],
        low: vec![NONE; n],
        parent: vec![NONE; n],
        sub: own.to_vec(),
        comp: vec![NONE; n],
        comps: Vec::new(),
    };
    let mut time = 0u32;
    // (node, edge it was reached by, next neighbour to look at)
    let mut stack: Vec<(usize, u32, usize)> = Vec::new();
    for root in 0..n {
        if s.disc.get(root) != Some(&NONE) {
            continue;
        }
        let c = s.comps.len() as u32;
        s.comps.push((0, 0));
        let visit = |v: usize, s: &mut Search, time: &mut u32| {
            if let (Some(d), Some(l), Some(k)) =
                (s.disc.get_mut(v), s.low.get_mut(v), s.comp.get_mut(v))
            {
                *d = *time;
                *l = *time;
                *k = c;
            }
            *time += 1;
        };
        visit(root, &mut s, &mut time);
        stack.push((root, NONE, 0));
        while let Some(top) = stack.last_mut() {
            let (v, via, i) = *top;
            // The row's slices directly: an iterator's nth would walk the row again for each neighbour.
            let (nodes, edges) = match u32::try_from(v) {
                Ok(x) if v < topo.adjacency.node_count() => (
                    topo.adjacency.neighbors_slice(x),
                    topo.adjacency.edges_slice(x),
                ),
                _ => (&[][..], &[][..]),
            };
            top.2 += 1;
            match nodes.get(i).zip(edges.get(i)) {
                Some((&w, &e)) => {
                    let w = w as usize;
                    if e == via {
                        continue;
                    }
                    match s.disc.get(w).copied() {
                        Some(NONE) => {
                            visit(w, &mut s, &mut time);
                            if let Some(p) = s.parent.get_mut(w) {
                                *p = v as u32;
                            }
                            stack.push((w, e, 0));
                        }
                        Some(dw) => {
                            if let Some(l) = s.low.get_mut(v) {
                                *l = (*l).min(dw);
                            }
                        }
                        None => {}
                    }
                }
                None => {
                    stack.pop();
                    let (lv, sv) = (
                        s.low.get(v).copied().unwrap_or(NONE),
                        s.sub.get(v).copied().unwrap_or_default(),
                    );
                    if let Some(cc) = s.comps.get_mut(c as usize) {
                        cc.0 += own.get(v).map_or(0, |x| x.0);
                        cc.1 += own.get(v).map_or(0, |x| x.1);
                    }
                    if let Some(&(p, _, _)) = stack.last() {
                        if let Some(l) = s.low.get_mut(p) {
                            *l = (*l).min(lv);
                        }
                        if let Some(x) = s.sub.get_mut(p) {
                            x.0 += sv.0;
                            x.1 += sv.1;
                        }
                    }
                }
            }
        }
    }
    s
}

/// Each NIC slot of a server's interchangeability class: NICs of one part in slots of one place in the PCIe tree
/// (parent, link, role) with the same cabled ports (port and rate) are alike to the server model (every GPU is as
/// far from one as from the other), so losing ports of one costs what losing the same ports of the other costs.
/// A server of 576 alike NICs losing one cable is one model run, not 576 (docs/limits.md, `wide-servers`).
fn nic_classes(
    design: &Design,
    device: &crate::model::Device,
    cabled: &[(u16, u16, u64)],
) -> HashMap<u16, u32> {
    let spec = match design.parts.get(&device.part).map(|p| &p.kind) {
        Some(PartKind::Server(s)) => Some(s),
        _ => None,
    };
    type NicKey<'b> = (
        &'b crate::model::PartId,
        Option<(
            &'b str,
            Option<crate::model::PcieLink>,
            crate::model::part::NicRole,
        )>,
        Vec<(u16, u64)>,
    );
    let mut ids: HashMap<NicKey<'_>, u32> = HashMap::default();
    let mut out = HashMap::default();
    let mut rest = cabled;
    for (slot, part) in &device.nics {
        // `cabled` is in slot order: the slot's run is skipped past slots without cables.
        while rest.first().is_some_and(|c| c.0 < *slot) {
            rest = rest.get(1..).unwrap_or_default();
        }
        let n = rest.iter().take_while(|c| c.0 == *slot).count();
        let (own, after) = rest.split_at(n);
        rest = after;
        // Its ports and their rates, without the slot number.
        let ports = own.iter().map(|c| (c.1, c.2)).collect();
        let slot_spec = spec
            .and_then(|s| s.nic_slots.get(usize::from(*slot)))
            .map(|n| (n.slot.parent.as_str(), n.slot.link, n.role));
        let next = ids.len() as u32;
        let id = *ids.entry((part, slot_spec, ports)).or_insert(next);
        out.insert(*slot, id);
    }
    out
}

/// The ports a server loses (sorted), up to its NICs' symmetry: per NIC losing ports, its class and the ports.
fn lost_key(classes: Option<&HashMap<u16, u32>>, lost: &[(u16, u16)]) -> LostKey {
    let mut key: LostKey = Vec::new();
    let mut i = 0;
    while let Some(&(slot, _)) = lost.get(i) {
        let n = lost
            .get(i..)
            .map_or(0, |r| r.iter().take_while(|l| l.0 == slot).count());
        let ports = lost
            .get(i..i + n)
            .unwrap_or_default()
            .iter()
            .map(|l| l.1)
            .collect();
        // A slot the classes do not know (none cabled) keeps its own identity past every class id.
        let class = classes
            .and_then(|c| c.get(&slot).copied())
            .unwrap_or(u32::MAX - u32::from(slot));
        key.push((class, ports));
        i += n.max(1);
    }
    key.sort_unstable();
    key
}

/// A GPU server node: its place in `bw.servers`, its shape class and its cabled ports (NIC slot, port, rate).
type ServerNode = (usize, usize, Vec<(u16, u16, u64)>);

/// Ports lost by a server, up to the symmetry of its NICs: for each NIC that loses ports, its interchangeability
/// class and the ports it loses, sorted.
type LostKey = Vec<(u32, Vec<u16>)>;

/// What the ranking reads from the intact design, built once.
struct Ranker<'a> {
    design: &'a Design,
    topo: &'a Topology,
    bw: &'a BandwidthReport,
    s: Search,
    /// GPUs and storage appliances of each node itself.
    own: Vec<(usize, usize)>,
    /// The two largest components' GPUs, with the first's label.
    best: (u32, usize, usize),
    reach: usize,
    reaching_storage: usize,
    /// Per GPU server node: its place in `bw.servers`, its shape class and its cabled ports.
    servers: HashMap<usize, ServerNode>,
    /// GPU server nodes by their network per GPU, ascending (the worst server left after a failure is near the
    /// front).
    by_figure: Vec<usize>,
    /// Per shape class, each NIC slot's interchangeability class (see [`nic_classes`]).
    nic_class: Vec<HashMap<u16, u32>>,
    /// Server model results by (shape class, ports lost up to the NICs' symmetry).
    memo: HashMap<(usize, LostKey), f64>,
    model_work: usize,
    /// Rail-ring load sent up and uplink capacity, per switch node, Gb/s.
    up: HashMap<usize, (f64, f64)>,
    hottest: f64,
    /// What a full-bisection fabric carries across the cut (a sum over the servers: once, not per candidate).
    full_bisection: f64,
    /// Capacity of each tier boundary (0: servers to leaves), Gb/s.
    boundary: Vec<f64>,
    /// Rated and cabled storage throughput per component, GB/s.
    storage_by_comp: HashMap<u32, (f64, f64)>,
    dark_work: usize,
}

/// GPUs and storage appliances of each node itself.
fn own_counts(design: &Design, topo: &Topology) -> Vec<(usize, usize)> {
    let n = topo.graph.node_count();
    let mut own = vec![(0usize, 0usize); n];
    for v in topo.graph.node_indices() {
        let Some(w) = topo.graph.node_weight(v) else {
            continue;
        };
        if let Some(o) = own.get_mut(v.index()) {
            match w.kind {
                NodeKind::GpuServer => {
                    o.0 = design.devices.get(&w.device).map_or(0, |d| d.gpus.len());
                }
                NodeKind::Storage => o.1 = 1,
                _ => {}
            }
        }
    }
    own
}

/// Per GPU server node, its place in `bw.servers`, its shape class and its cabled ports (the report's servers are
/// in device order, as are the topology's NIC ports); and per shape class, its NIC slots' interchangeability
/// classes.
fn server_shapes(
    design: &Design,
    topo: &Topology,
    bw: &BandwidthReport,
) -> (HashMap<usize, ServerNode>, Vec<HashMap<u16, u32>>) {
    let mut servers = HashMap::default();
    type ShapeKey<'b> = (
        &'b crate::model::PartId,
        &'b std::collections::BTreeMap<u16, crate::model::PartId>,
        &'b std::collections::BTreeMap<u16, crate::model::PartId>,
        Vec<(u16, u16, u64)>,
    );
    let mut shapes: HashMap<ShapeKey<'_>, usize> = HashMap::default();
    let mut nic_class = Vec::new();
    let mut rest = topo.nic_ports.as_slice();
    for (i, sb) in bw.servers.iter().enumerate() {
        let (Some(d), Some(&node)) = (design.devices.get(&sb.device), topo.node_of.get(&sb.device))
        else {
            continue;
        };
        let ports = crate::analysis::next_run(&mut rest, |c| c.device, sb.device);
        let cabled = cabled_ports(design, d, ports);
        let next = shapes.len();
        let class = *shapes
            .entry((&d.part, &d.gpus, &d.nics, cabled.clone()))
            .or_insert(next);
        if class == next {
            nic_class.push(nic_classes(design, d, &cabled));
        }
        servers.insert(node.index(), (i, class, cabled));
    }
    (servers, nic_class)
}

/// Rail-ring loads sent up and uplink capacity per switch node, and the capacity of each tier boundary (0: servers
/// to leaves), Gb/s.
fn uplinks(topo: &Topology, bw: &BandwidthReport) -> (HashMap<usize, (f64, f64)>, Vec<f64>) {
    let rail = Pattern::RailRings.index();
    let load: HashMap<LinkId, f64> = bw
        .routing
        .links
        .iter()
        .map(|l| (l.link, l.loads_gbps.get(rail).copied().unwrap_or(0.0)))
        .collect();
    let tier = |v: usize| topo.node_tier.get(v).copied().unwrap_or(0);
    let is_switch = |v: NodeIndex| {
        topo.graph
            .node_weight(v)
            .is_some_and(|w| w.kind == NodeKind::Switch)
    };
    let mut up: HashMap<usize, (f64, f64)> = HashMap::default();
    let mut boundary: Vec<f64> = Vec::new();
    for e in topo.graph.edge_indices() {
        let (Some((a, b)), Some(w)) = (topo.graph.edge_endpoints(e), topo.graph.edge_weight(e))
        else {
            continue;
        };
        let at = match (is_switch(a), is_switch(b)) {
            (true, true) => {
                let (lo, hi) = if tier(a.index()) <= tier(b.index()) {
                    (a, b)
                } else {
                    (b, a)
                };
                if tier(lo.index()) == 0 || tier(hi.index()) != tier(lo.index()) + 1 {
                    continue;
                }
                let carried: f64 = topo.links(e).iter().filter_map(|l| load.get(l)).sum();
                let x = up.entry(lo.index()).or_default();
                x.0 += carried;
                x.1 += w.gbps;
                usize::from(tier(lo.index()))
            }
            (true, false) | (false, true) => 0,
            (false, false) => continue,
        };
        if boundary.len() <= at {
            boundary.resize(at + 1, 0.0);
        }
        if let Some(b) = boundary.get_mut(at) {
            *b += if at == 0 { w.compute_gbps } else { w.gbps };
        }
    }
    (up, boundary)
}

impl<'a> Ranker<'a> {
    fn new(design: &'a Design, topo: &'a Topology, bw: &'a BandwidthReport) -> Self {
        let own = own_counts(design, topo);
        let s = search(topo, &own);
        let mut best = (NONE, 0, 0);
        for (c, (g, _)) in s.comps.iter().enumerate() {
            if *g > best.1 {
                best = (c as u32, *g, best.1);
            } else if *g > best.2 {
                best.2 = *g;
            }
        }
        let reach = best.1;
        let reaching_storage = s.comps.iter().filter(|c| c.1 > 0).map(|c| c.0).sum();
        let (servers, nic_class) = server_shapes(design, topo, bw);
        let rail = Pattern::RailRings.index();
        let (up, boundary) = uplinks(topo, bw);
        let hottest = bw
            .routing
            .patterns
            .get(rail)
            .map_or(1.0, |p| p.hottest_utilisation.max(1.0));
        let mut storage_by_comp: HashMap<u32, (f64, f64)> = HashMap::default();
        for v in topo.graph.node_indices() {
            if let Some((r, n)) = storage_figures(design, topo, v) {
                let x = storage_by_comp
                    .entry(s.comp.get(v.index()).copied().unwrap_or(NONE))
                    .or_default();
                x.0 += r;
                x.1 += n;
            }
        }
        let reaching = reaching_storage;
        let mut by_figure: Vec<(f64, usize)> = servers
            .iter()
            .filter_map(|(node, (i, _, _))| {
                bw.servers
                    .get(*i)
                    .map(|sb| (sb.network_gbyte_s_per_gpu, *node))
            })
            .collect();
        by_figure.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        Ranker {
            by_figure: by_figure.into_iter().map(|x| x.1).collect(),
            design,
            topo,
            bw,
            s,
            own,
            best,
            reach,
            reaching_storage: reaching,
            servers,
            nic_class,
            memo: HashMap::default(),
            model_work: 0,
            up,
            hottest,
            full_bisection: bw.full_bisection_gbps(),
            boundary,
            storage_by_comp,
            dark_work: 0,
        }
    }

    fn tier(&self, v: usize) -> u8 {
        self.topo.node_tier.get(v).copied().unwrap_or(0)
    }

    fn is(&self, v: NodeIndex, k: NodeKind) -> bool {
        self.topo.graph.node_weight(v).is_some_and(|w| w.kind == k)
    }

    /// The pieces node `v`'s component falls into without it: (GPUs, storage) each.
    fn pieces_without_node(&self, v: usize) -> Vec<(usize, usize)> {
        let s = &self.s;
        let (Some(&dv), Some(&c)) = (s.disc.get(v), s.comp.get(v)) else {
            return Vec::new();
        };
        let total = s.comps.get(c as usize).copied().unwrap_or_default();
        let own = self.own.get(v).copied().unwrap_or_default();
        let root = s.parent.get(v) == Some(&NONE);
        let mut pieces = Vec::new();
        let mut rest = (total.0 - own.0, total.1 - own.1);
        for (w, _) in self.topo.neighbours(NodeIndex::new(v)) {
            let w = w.index();
            if s.parent.get(w) != Some(&(v as u32)) {
                continue;
            }
            if root || s.low.get(w).is_some_and(|l| *l >= dv) {
                let x = s.sub.get(w).copied().unwrap_or_default();
                rest = (rest.0 - x.0, rest.1 - x.1);
                pieces.push(x);
            }
        }
        if !root {
            pieces.push(rest);
        }
        pieces
    }

    /// The pieces a bridge's component falls into without it (empty when the edge is no bridge).
    fn pieces_without_edge(&self, e: EdgeIndex) -> Vec<(usize, usize)> {
        let s = &self.s;
        let Some((a, b)) = self.topo.graph.edge_endpoints(e) else {
            return Vec::new();
        };
        let (a, b) = (a.index(), b.index());
        let child = if s.parent.get(b) == Some(&(a as u32)) {
            b
        } else if s.parent.get(a) == Some(&(b as u32)) {
            a
        } else {
            return Vec::new();
        };
        let parent = if child == a { b } else { a };
        if s.low.get(child).copied().unwrap_or(0) <= s.disc.get(parent).copied().unwrap_or(0) {
            return Vec::new();
        }
        let Some(&c) = s.comp.get(child) else {
            return Vec::new();
        };
        let total = s.comps.get(c as usize).copied().unwrap_or_default();
        let x = s.sub.get(child).copied().unwrap_or_default();
        vec![x, (total.0 - x.0, total.1 - x.1)]
    }

    /// GPUs reachable and reaching storage when component `c` falls into `pieces`, and whether its GPUs split.
    fn after_split(&self, c: u32, pieces: &[(usize, usize)]) -> (usize, usize, bool) {
        let total = self.s.comps.get(c as usize).copied().unwrap_or_default();
        let other = if c == self.best.0 {
            self.best.2
        } else {
            self.best.1
        };
        let reach = pieces.iter().map(|p| p.0).fold(other, usize::max);
        let storage = self.reaching_storage - if total.1 > 0 { total.0 } else { 0 }
            + pieces
                .iter()
                .filter(|p| p.1 > 0)
                .map(|p| p.0)
                .sum::<usize>();
        let split = pieces.iter().filter(|p| p.0 > 0).count() > 1;
        (reach, storage, split)
    }

    /// A server's network per GPU without some of its cabled ports, GB/s.
    fn server_without(&mut self, node: usize, lost: &[(u16, u16)]) -> Option<f64> {
        let (i, class, cabled) = self.servers.get(&node)?;
        let sb = self.bw.servers.get(*i)?;
        let mut lost = lost.to_vec();
        lost.sort_unstable();
        lost.dedup();
        let key = (*class, lost_key(self.nic_class.get(*class), &lost));
        if let Some(x) = self.memo.get(&key) {
            return Some(*x);
        }
        let kept: Vec<(u16, u16, u64)> = cabled
            .iter()
            .filter(|c| lost.binary_search(&(c.0, c.1)).is_err())
            .copied()
            .collect();
        let device = self.design.devices.get(&sb.device)?;
        let work = device.gpus.len() + device.nics.len() + cabled.len();
        let x = if self.model_work + work <= SERVER_MODEL_BUDGET {
            self.model_work += work;
            server_network_gbyte_s(self.design, sb.device, device, kept)
        } else {
            let gbps = |v: &[(u16, u16, u64)]| v.iter().map(|c| f64::from_bits(c.2)).sum::<f64>();
            let before = gbps(cabled);
            if before > 0.0 {
                sb.network_gbyte_s_per_gpu * gbps(&kept) / before
            } else {
                0.0
            }
        };
        self.memo.insert(key, x);
        Some(x)
    }

    /// The estimate of one failure: the nodes it removes, the cables (with their server NIC ports) it removes, and
    /// the pieces it leaves (None: no connectivity change beyond the removed nodes' own GPUs).
    fn estimate(&mut self, failure: Failure, gone: &Gone, replicas: Option<(u64, u32)>) -> Impact {
        let bw = self.bw;
        // Reachability.
        let (reach, storage, split) = match &gone.pieces {
            Some((c, pieces)) => self.after_split(*c, pieces),
            None => (self.reach, self.reaching_storage, false),
        };
        // Network per GPU of each server that loses cables.
        let mut lost_ports: HashMap<usize, Vec<(u16, u16)>> = HashMap::default();
        for (server, slot, port) in &gone.ports {
            lost_ports.entry(*server).or_default().push((*slot, *port));
        }
        let mut worst = f64::INFINITY;
        let mut slowed = 0usize;
        let mut changed: HashMap<usize, f64> = HashMap::default();
        for (server, lost) in &lost_ports {
            if gone.nodes.contains(server) {
                continue;
            }
            let Some(x) = self.server_without(*server, lost) else {
                continue;
            };
            changed.insert(*server, x);
            worst = worst.min(x);
            if let Some(sb) = self
                .servers
                .get(server)
                .and_then(|(i, _, _)| bw.servers.get(*i))
                && x + 1e-9 < sb.network_gbyte_s_per_gpu
            {
                slowed += sb.gpus;
            }
        }
        // The worst server the failure leaves as it was: the first in figure order neither changed nor gone.
        if let Some(sb) = self
            .by_figure
            .iter()
            .find(|n| !changed.contains_key(n) && !gone.nodes.contains(n))
            .and_then(|n| self.servers.get(n))
            .and_then(|(i, _, _)| bw.servers.get(*i))
        {
            worst = worst.min(sb.network_gbyte_s_per_gpu);
        }
        if !worst.is_finite() {
            worst = 0.0;
        }
        // The load factor where switches lose uplinks.
        let mut load = self.hottest;
        for (lower, lost_gbps) in &gone.uplinks {
            if let Some((carried, cap)) = self.up.get(lower)
                && *carried > 0.0
            {
                let left = cap - lost_gbps;
                load = load.max(if left > 1e-9 {
                    carried / left
                } else {
                    f64::INFINITY
                });
            }
        }
        let before_inter = bw.inter_node_gbyte_s;
        let inter = if split || before_inter <= 0.0 || !load.is_finite() {
            0.0
        } else {
            worst / load
        };
        // Bisection.
        let ratio = |at: usize| {
            let cap = self.boundary.get(at).copied().unwrap_or(0.0);
            let lost = gone.boundary.get(at).copied().unwrap_or(0.0);
            if cap > 0.0 {
                ((cap - lost) / cap).clamp(0.0, 1.0)
            } else {
                1.0
            }
        };
        let bis = bw.bisection.gbps;
        let full = self.full_bisection;
        let upper = (1..self.boundary.len()).map(ratio).fold(1.0, f64::min);
        let bisection = if split {
            0.0
        } else if bis >= full * (1.0 - 1e-6) {
            bis * ratio(0)
        } else {
            bis * ratio(0).min(upper)
        };
        // Storage per GPU.
        let st = bw.storage.per_gpu_gbyte_s;
        let storage_per_gpu = if storage < self.reaching_storage {
            0.0
        } else {
            let mut x = st;
            for (c, (r, n)) in &gone.storage {
                if let Some((r0, n0)) = self.storage_by_comp.get(c) {
                    let g = self.s.comps.get(*c as usize).map_or(0, |x| x.0);
                    if g > 0 {
                        x = x.min((r0 - r).min(n0 - n).max(0.0) / g as f64);
                    }
                }
            }
            x
        };
        let replicas = replicas.map(|(r, per)| {
            let gpus = bw.gpus.saturating_sub(gone.gpus);
            (r, (gpus as u64) / u64::from(per.max(1)))
        });
        Impact {
            // Named once grouped (see `ranked`): naming every one of 100,000 cables cost more than ranking them.
            what: String::new(),
            failure,
            gpus_reachable: (self.reach, reach),
            bisection_gbps: (bis, round1(bisection)),
            inter_node_gbyte_s: (before_inter, round3(inter)),
            replicas,
            // The one-pass estimate counts replicas by GPUs left; the served rate is the full analysis's.
            serving_rps: None,
            gpus_reaching_storage: (self.reaching_storage, storage),
            storage_gbyte_s_per_gpu: (st, round3(storage_per_gpu.min(st))),
            gpus_slowed: slowed,
            estimated: true,
            alike: Vec::new(),
        }
    }

    /// What removing a set of nodes takes: their cables at servers and at lower switches, and their capacity at
    /// each tier boundary.
    fn remove_nodes(&self, nodes: &[usize], gone: &mut Gone) {
        gone.nodes.extend(nodes.iter().copied());
        for &v in nodes {
            let vi = NodeIndex::new(v);
            gone.gpus += self.own.get(v).map_or(0, |x| x.0);
            if let Some((r, n)) = storage_figures(self.design, self.topo, vi) {
                let c = self.s.comp.get(v).copied().unwrap_or(NONE);
                let x = gone.storage.entry(c).or_default();
                x.0 += r;
                x.1 += n;
            }
            for (w, e) in self.topo.neighbours(vi) {
                if gone.nodes.contains(&w.index()) && w.index() < v {
                    continue;
                }
                self.remove_edge_cables(e, self.topo.links(e), v, gone);
            }
        }
    }

    /// What losing some cables of edge `e` takes (`near`: the end whose side is removed, if any).
    fn remove_edge_cables(&self, e: EdgeIndex, links: &[LinkId], near: usize, gone: &mut Gone) {
        let Some((a, b)) = self.topo.graph.edge_endpoints(e) else {
            return;
        };
        let (sa, sb) = (self.is(a, NodeKind::Switch), self.is(b, NodeKind::Switch));
        let gbps: f64 = links
            .iter()
            .filter_map(|l| self.design.links.get(l))
            .map(|l| l.medium.gbps())
            .sum();
        let w = self.topo.graph.edge_weight(e);
        let all = w.map_or(0.0, |w| w.gbps);
        let share = if all > 0.0 { gbps / all } else { 0.0 };
        let mut add = |at: usize, x: f64| {
            if gone.boundary.len() <= at {
                gone.boundary.resize(at + 1, 0.0);
            }
            if let Some(b) = gone.boundary.get_mut(at) {
                *b += x;
            }
        };
        match (sa, sb) {
            (true, true) => {
                let (lo, hi) = if self.tier(a.index()) <= self.tier(b.index()) {
                    (a, b)
                } else {
                    (b, a)
                };
                let t = self.tier(lo.index());
                if t > 0 && self.tier(hi.index()) == t + 1 {
                    add(usize::from(t), gbps);
                    if lo.index() != near {
                        gone.uplinks.push((lo.index(), gbps));
                    }
                }
            }
            (true, false) | (false, true) => {
                add(0, w.map_or(0.0, |w| w.compute_gbps) * share);
                let server = if sa { b } else { a };
                for l in links {
                    if let Some(link) = self.design.links.get(l) {
                        let srv = self.topo.graph.node_weight(server).map(|x| x.device);
                        for end in [&link.a, &link.b] {
                            if Some(end.device) == srv
                                && let Some((slot, port)) = end.nic_slot_and_port()
                            {
                                gone.ports.push((server.index(), slot, port));
                            }
                        }
                    }
                }
                // A storage appliance's cable: its cabled throughput.
                if let Some(c) = self.s.comp.get(server.index())
                    && self.is(server, NodeKind::Storage)
                    && server.index() != near
                {
                    gone.storage.entry(*c).or_default().1 += gbps / 8.0;
                }
            }
            (false, false) => {}
        }
    }
}

/// An appliance's rated read throughput and cabled bandwidth, GB/s (None for a node that is not storage).
fn storage_figures(design: &Design, topo: &Topology, v: NodeIndex) -> Option<(f64, f64)> {
    let w = topo.graph.node_weight(v)?;
    let d = design.devices.get(&w.device)?;
    let Some(PartKind::Storage(s)) = design.parts.get(&d.part).map(|p| &p.kind) else {
        return None;
    };
    let cabled = topo.graph.edges(v).map(|e| e.weight().gbps).sum::<f64>() / 8.0;
    Some((s.read_gbyte_s, cabled))
}

fn round1(x: f64) -> f64 {
    crate::analysis::format::round(x, 1)
}

fn round3(x: f64) -> f64 {
    crate::analysis::format::round(x, 3)
}

/// What one failure takes away.
#[derive(Default)]
struct Gone {
    nodes: rustc_hash::FxHashSet<usize>,
    /// GPUs of the removed nodes.
    gpus: usize,
    /// (server node, NIC slot, port) of each cable lost at a server.
    ports: Vec<(usize, u16, u16)>,
    /// (lower switch node, uplink capacity lost), Gb/s.
    uplinks: Vec<(usize, f64)>,
    /// Capacity lost per tier boundary, Gb/s.
    boundary: Vec<f64>,
    /// Storage rated and cabled throughput lost per component, GB/s.
    storage: HashMap<u32, (f64, f64)>,
    /// The component the failure splits and its pieces.
    pieces: Option<(u32, Vec<(usize, usize)>)>,
}

/// Every candidate's estimated impact: each switch and storage appliance, each cable, and each rack whose stated
/// feeds cannot carry it on one (racks whose feeds the design does not state are not candidates). Candidates that
/// lose nothing are left out.
pub(super) fn candidates(
    design: &Design,
    topo: &Topology,
    bw: &BandwidthReport,
    power: &PowerReport,
    replicas: Option<u64>,
) -> (Vec<Candidate>, usize) {
    let mut r = Ranker::new(design, topo, bw);
    let per = design.params.serving.as_ref().map(|s| s.gpus_per_replica);
    let replicas = replicas.zip(per);
    let mut out = Vec::new();
    let mut considered = 0;
    // Switches and storage.
    for v in topo.graph.node_indices() {
        let Some(w) = topo.graph.node_weight(v) else {
            continue;
        };
        if !matches!(w.kind, NodeKind::Switch | NodeKind::Storage) {
            continue;
        }
        considered += 1;
        let mut gone = Gone::default();
        r.remove_nodes(&[v.index()], &mut gone);
        let pieces = r.pieces_without_node(v.index());
        let c = r.s.comp.get(v.index()).copied().unwrap_or(NONE);
        let cuts = pieces.iter().filter(|p| p.0 > 0 || p.1 > 0).count() > 1;
        gone.pieces = Some((c, pieces));
        let i = r.estimate(Failure::Device(w.device), &gone, replicas);
        if loses(&i) {
            out.push(Candidate {
                failure: i.failure.clone(),
                impact: i,
                cuts: cuts && w.kind == NodeKind::Switch,
            });
        }
    }
    // Cables.
    for e in topo.graph.edge_indices() {
        let links = topo.links(e);
        for l in links {
            considered += 1;
            let mut gone = Gone::default();
            r.remove_edge_cables(e, std::slice::from_ref(l), usize::MAX, &mut gone);
            let mut cuts = false;
            if links.len() == 1 {
                let pieces = r.pieces_without_edge(e);
                if !pieces.is_empty() {
                    cuts = true;
                    let c = topo
                        .graph
                        .edge_endpoints(e)
                        .and_then(|(a, _)| r.s.comp.get(a.index()).copied())
                        .unwrap_or(NONE);
                    gone.pieces = Some((c, pieces));
                }
            }
            let i = r.estimate(Failure::Link(*l), &gone, replicas);
            if loses(&i) {
                out.push(Candidate {
                    failure: i.failure.clone(),
                    impact: i,
                    cuts,
                });
            }
        }
    }
    // Rack feeds: a rack whose load does not fit on one of its stated feeds goes dark.
    let mut by_rack: HashMap<RackId, Vec<usize>> = HashMap::default();
    for (id, d) in &design.devices {
        if let Some(n) = topo.node_of.get(id) {
            by_rack.entry(d.rack).or_default().push(n.index());
        }
    }
    for rp in &power.racks {
        let Some(feed) = design.racks.get(&rp.rack).and_then(|x| x.feed_capacity_w) else {
            continue;
        };
        considered += 1;
        if rp.power_w <= feed {
            continue;
        }
        let nodes = by_rack.get(&rp.rack).cloned().unwrap_or_default();
        let mut gone = Gone::default();
        r.remove_nodes(&nodes, &mut gone);
        gone.pieces = dark_pieces(&mut r, &nodes);
        let i = r.estimate(Failure::Feed(rp.rack), &gone, replicas);
        if loses(&i) {
            out.push(Candidate {
                failure: i.failure.clone(),
                impact: i,
                cuts: false,
            });
        }
    }
    (out, considered)
}

/// The pieces left when a rack's nodes go dark. Servers alone (none of them a cut vertex) leave their component
/// whole less their GPUs; anything else is walked, within [`DARK_RACK_BUDGET`].
fn dark_pieces(r: &mut Ranker<'_>, nodes: &[usize]) -> Option<(u32, Vec<(usize, usize)>)> {
    if nodes.is_empty() {
        return None;
    }
    let simple = nodes.iter().all(|v| {
        r.is(NodeIndex::new(*v), NodeKind::GpuServer) && r.pieces_without_node(*v).len() <= 1
    });
    let set: rustc_hash::FxHashSet<usize> = nodes.iter().copied().collect();
    if simple {
        // One component per server's component, less the rack's GPUs and storage in it.
        let mut by_comp: HashMap<u32, (usize, usize)> = HashMap::default();
        for v in nodes {
            let c = r.s.comp.get(*v).copied().unwrap_or(NONE);
            let o = r.own.get(*v).copied().unwrap_or_default();
            let x = by_comp.entry(c).or_default();
            x.0 += o.0;
            x.1 += o.1;
        }
        // Several components at once are rare (a rack of servers on separate fabrics): the largest is taken.
        let (c, lost) = by_comp.into_iter().max_by_key(|(_, x)| x.0)?;
        let total = r.s.comps.get(c as usize).copied().unwrap_or_default();
        return Some((c, vec![(total.0 - lost.0, total.1 - lost.1)]));
    }
    let work = r.topo.graph.node_count() + r.topo.graph.edge_count();
    if r.dark_work + work > DARK_RACK_BUDGET {
        return None;
    }
    r.dark_work += work;
    // Components of the graph without the rack, within the component of the rack's first node.
    let c = r.s.comp.get(*nodes.first()?).copied().unwrap_or(NONE);
    let mut seen: rustc_hash::FxHashSet<usize> = set.clone();
    let mut pieces = Vec::new();
    for start in 0..r.topo.graph.node_count() {
        if seen.contains(&start) || r.s.comp.get(start) != Some(&c) {
            continue;
        }
        seen.insert(start);
        let mut piece = (0, 0);
        let mut stack = vec![start];
        while let Some(v) = stack.pop() {
            let o = r.own.get(v).copied().unwrap_or_default();
            piece = (piece.0 + o.0, piece.1 + o.1);
            for (w, _) in r.topo.neighbours(NodeIndex::new(v)) {
                if seen.insert(w.index()) {
                    stack.push(w.index());
                }
            }
        }
        pieces.push(piece);
    }
    Some((c, pieces))
}

/// Whether an estimate loses anything.
pub(super) fn loses(i: &Impact) -> bool {
    let s = super::severity(i);
    s.0 > 0 || s.1 > 0 || s.2 > 0 || s.3 > 1e-6 || s.4 > 1e-6 || s.5 > 1e-6
}

#[cfg(test)]
mod tests;
