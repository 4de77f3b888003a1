//! The network graph derived from a design on demand (never saved): servers, storage and switches as nodes, cabled
//! links between devices as edges (parallel cables collapsed into one edge with their summed bandwidth), plus each
//! switch's tier counted up from the endpoints (1 = leaf, 2 = spine, 3 = core).

use crate::model::part::{NicRole, NicSlotSpec, PartKind};
use crate::model::{Design, DeviceId, LinkId, grouped, sorted_by};
use petgraph::Undirected;
use petgraph::csr::Csr;
use petgraph::graph::{EdgeIndex, NodeIndex, UnGraph};
use rustc_hash::FxHashMap as HashMap;
use std::collections::VecDeque;

/// What a node of the network graph is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    /// A server with at least one GPU.
    GpuServer,
    /// A server without GPUs.
    Server,
    /// A storage appliance.
    Storage,
    /// A network switch of any tier (its tier is in [`Topology::node_tier`]).
    Switch,
}

/// A node: the device and its kind.
#[derive(Debug, Clone, Copy)]
pub struct Node {
    /// The design's device this node stands for; each server, storage appliance or switch has exactly one node
    /// ([`Topology::node_of`]).
    pub device: DeviceId,
    /// What the device is, from its part: endpoints (servers, storage) are where switch tiers are counted from.
    pub kind: NodeKind,
}

/// An edge: all cables between two devices.
#[derive(Debug, Clone, Default, PartialEq, PartialOrd)]
pub struct Edge {
    /// Where its cables are in [`Topology::cables`], from and to (see [`Topology::links`]): a range of one list
    /// rather than a list per edge, which cost an allocation for each of 230,000 edges.
    pub cables: (u32, u32),
    /// Summed bandwidth per direction, Gb/s.
    pub gbps: f64,
    /// Summed bandwidth of cables that land on server compute NICs, Gb/s.
    pub compute_gbps: f64,
    /// Rate of the slowest of those compute cables, Gb/s (0 when there are none).
    pub compute_link_gbps: f64,
    /// Mean cable length, m.
    pub mean_length_m: f64,
}

/// The derived network graph.
#[derive(Debug, Clone)]
pub struct Topology {
    /// Nodes and edges.
    pub graph: UnGraph<Node, Edge>,
    /// Node of each device in the graph.
    pub node_of: HashMap<DeviceId, NodeIndex>,
    /// Tier by node (indexed by `NodeIndex::index()`) of each switch reachable from an endpoint (1 = leaf), 0 for
    /// every other node; by device through [`Topology::tier`].
    pub node_tier: Vec<u8>,
    /// The same graph's structure as compressed rows (petgraph's CSR, same node indices, every node's neighbours
    /// ascending, each entry weighted with the index of its edge in `graph`): what the passes over the whole graph
    /// walk (components, tiers, articulation points, bridges). One contiguous array, where `graph`'s linked edge
    /// lists jump across edge records that carry their cables and figures: at 230,000 edges those passes ran
    /// three to eight times slower per edge than at 22,000.
    pub adjacency: Adjacency,
    /// Every edge's cables, edge after edge, each edge's in link order.
    pub cables: Vec<LinkId>,
    /// Every cabled server NIC port (`nicS/pK` at either end of a link, whatever is at the other), sorted by
    /// (device, slot, port), each once: a port with two cables (which loading refuses) counts the later one in
    /// link order. One sorted list rather than a hash map keyed by port: at 235,000 cables the map's scattered
    /// inserts cost three times as much per cable as at 118,000. Walked beside the devices in id order
    /// (`analysis::next_run`) by the bandwidth and connectivity passes.
    pub nic_ports: Vec<NicPort>,
}

/// A cabled server NIC port and the rate of its cable.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NicPort {
    /// The device at this end of the link: a server for any valid design, whose NIC slot the port name gives.
    pub device: DeviceId,
    /// The NIC slot, as in `nicS/pK`.
    pub slot: u16,
    /// The port number on the NIC (1-based), as in `nicS/pK`.
    pub port: u16,
    /// The cable's rate, Gb/s.
    pub gbps: f64,
}

/// The structure of the network graph in compressed rows (see [`Topology::adjacency`]).
pub type Adjacency = Csr<(), u32, Undirected, u32>;

impl Topology {
    /// Builds the graph for a design. O(devices + links).
    pub fn build(design: &Design) -> Self {
        let mut graph =
            UnGraph::<Node, Edge>::with_capacity(design.devices.len(), design.links.len());
        let mut node_of =
            HashMap::with_capacity_and_hasher(design.devices.len(), Default::default());
        // Each server's NIC slot roles, by node: whether a cable has a compute end is then read without looking
        // its device and part up again (two map lookups per cable end at 600,000 cables).
        let mut slot_roles: Vec<Option<&[NicSlotSpec]>> = Vec::with_capacity(design.devices.len());
        for (id, device) in &design.devices {
            let part = design.parts.get(&device.part).map(|p| &p.kind);
            let kind = match part {
                Some(PartKind::Server(_)) if !device.gpus.is_empty() => NodeKind::GpuServer,
                Some(PartKind::Server(_)) => NodeKind::Server,
                Some(PartKind::Storage(_)) => NodeKind::Storage,
                Some(PartKind::Switch(_)) => NodeKind::Switch,
                _ => continue,
            };
            node_of.insert(*id, graph.add_node(Node { device: *id, kind }));
            slot_roles.push(match part {
                Some(PartKind::Server(s)) => Some(&s.nic_slots),
                _ => None,
            });
        }
        let is_compute = |node: NodeIndex, end: &crate::model::PortRef| {
            let Some(Some(slots)) = slot_roles.get(node.index()) else {
                return false;
            };
            end.nic_slot()
                .and_then(|slot| slots.get(usize::from(slot)))
                .is_some_and(|s| s.role == NicRole::Compute)
        };
        // Cables by their two nodes, sorted (then by link id, so an edge keeps its cables in link order), then
        // summed per edge in one pass: no hash map of edges, whose random accesses dominated at 200k cables. Each
        // entry carries the figures the edge needs (length, rate, compute end), read in link order, so the pass
        // after the sort does not jump around the design's links.
        #[derive(Clone, Copy)]
        struct Cabled {
            a: NodeIndex,
            b: NodeIndex,
            link: LinkId,
            length_m: f64,
            gbps: f64,
            compute: bool,
        }
        let mut cabled: Vec<Cabled> = Vec::with_capacity(design.links.len());
        let mut nic_ports: Vec<NicPort> = Vec::new();
        for (lid, link) in &design.links {
            for end in [&link.a, &link.b] {
                if let Some((slot, k)) = end.nic_slot_and_port() {
                    nic_ports.push(NicPort {
                        device: end.device,
                        slot,
                        port: k,
                        gbps: link.medium.gbps(),
                    });
                }
            }
            let (Some(&a), Some(&b)) = (node_of.get(&link.a.device), node_of.get(&link.b.device))
            else {
                continue;
            };
            if a == b {
                continue;
            }
            let compute = is_compute(a, &link.a) || is_compute(b, &link.b);
            cabled.push(Cabled {
                a: a.min(b),
                b: a.max(b),
                link: *lid,
                length_m: link.length_m,
                gbps: link.medium.gbps(),
                compute,
            });
        }
        // Stable, so that among a port's cables the later one ends last, and is the one kept.
        nic_ports.sort_by_key(|c| (c.device, c.slot, c.port));
        nic_ports.dedup_by(|later, kept| {
            let same =
                (later.device, later.slot, later.port) == (kept.device, kept.slot, kept.port);
            if same {
                kept.gbps = later.gbps;
            }
            same
        });
        // In order of (lower node, higher node, link).
        let cabled = sorted_by(
            graph.node_count(),
            cabled,
            |c| c.a.index(),
            |c| (c.b, c.link),
        );
        let mut cables = Vec::with_capacity(cabled.len());
        let mut current: Option<(NodeIndex, NodeIndex, Edge)> = None;
        for c in cabled {
            if let Some((x, y, e)) = current.take_if(|(x, y, _)| (*x, *y) != (c.a, c.b)) {
                graph.add_edge(x, y, e);
            }
            let at = cables.len() as u32;
            let (_, _, e) = current.get_or_insert_with(|| {
                let edge = Edge {
                    cables: (at, at),
                    ..Edge::default()
                };
                (c.a, c.b, edge)
            });
            let n = f64::from(e.cables.1 - e.cables.0);
            e.mean_length_m = (e.mean_length_m * n + c.length_m) / (n + 1.0);
            cables.push(c.link);
            e.cables.1 = at + 1;
            e.gbps += c.gbps;
            if c.compute {
                e.compute_gbps += c.gbps;
                e.compute_link_gbps = if e.compute_link_gbps > 0.0 {
                    e.compute_link_gbps.min(c.gbps)
                } else {
                    c.gbps
                };
            }
        }
        if let Some((x, y, e)) = current {
            graph.add_edge(x, y, e);
        }
        let adjacency = adjacency(&graph);
        let node_tier = tiers(&graph, &adjacency);
        Self {
            graph,
            node_of,
            node_tier,
            adjacency,
            cables,
            nic_ports,
        }
    }

    /// A node's neighbours and, beside each, the index of the edge to it.
    pub fn neighbours(&self, n: NodeIndex) -> impl Iterator<Item = (NodeIndex, EdgeIndex)> + '_ {
        let (nodes, edges) = row(&self.adjacency, n);
        nodes
            .iter()
            .zip(edges)
            .map(|(w, e)| (NodeIndex::new(*w as usize), EdgeIndex::new(*e as usize)))
    }

    /// An edge's cables, in link order (none for an edge the graph does not have).
    pub fn links(&self, e: EdgeIndex) -> &[LinkId] {
        self.graph
            .edge_weight(e)
            .and_then(|w| self.cables.get(w.cables.0 as usize..w.cables.1 as usize))
            .unwrap_or(&[])
    }

    /// A node's number of edges (parallel cables count once).
    pub fn degree(&self, n: NodeIndex) -> usize {
        row(&self.adjacency, n).0.len()
    }

    /// The nodes whose loss splits the graph (petgraph's articulation points, on the compressed rows), ascending.
    pub fn articulation_points(&self) -> Vec<NodeIndex> {
        let mut out: Vec<NodeIndex> =
            petgraph::algo::articulation_points::articulation_points(&self.adjacency)
                .into_iter()
                .map(|n| NodeIndex::new(n as usize))
                .collect();
        out.sort_unstable();
        out
    }

    /// The edges whose loss splits the graph (petgraph's bridges, on the compressed rows, which give each once per
    /// direction), ascending, each once.
    pub fn bridges(&self) -> Vec<EdgeIndex> {
        let mut out: Vec<EdgeIndex> = petgraph::algo::bridges::bridges(&self.adjacency)
            .map(|e| EdgeIndex::new(*e.weight() as usize))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Tier of a switch reachable from an endpoint (1 = leaf); None for any other device.
    pub fn tier(&self, device: DeviceId) -> Option<u8> {
        self.node_of
            .get(&device)
            .and_then(|n| self.node_tier.get(n.index()))
            .copied()
            .filter(|t| *t > 0)
    }

    /// Kind of a device's node.
    pub fn kind(&self, device: DeviceId) -> Option<NodeKind> {
        self.node_of
            .get(&device)
            .and_then(|n| self.graph.node_weight(*n))
            .map(|n| n.kind)
    }

    /// Connected-component label per node (indexed by `NodeIndex::index()`), ignoring one node or one edge;
    /// the ignored node keeps `usize::MAX`.
    pub fn components(
        &self,
        skip_node: Option<NodeIndex>,
        skip_edge: Option<EdgeIndex>,
    ) -> Vec<usize> {
        let n = self.graph.node_count();
        let mut label = vec![usize::MAX; n];
        let mut next = 0;
        let mut stack = Vec::new();
        for start in self.graph.node_indices() {
            if Some(start) == skip_node || label.get(start.index()).is_none_or(|l| *l != usize::MAX)
            {
                continue;
            }
            if let Some(l) = label.get_mut(start.index()) {
                *l = next;
            }
            stack.push(start);
            while let Some(v) = stack.pop() {
                for (w, e) in self.neighbours(v) {
                    if Some(e) == skip_edge {
                        continue;
                    }
                    if Some(w) == skip_node {
                        continue;
                    }
                    if let Some(l) = label.get_mut(w.index())
                        && *l == usize::MAX
                    {
                        *l = next;
                        stack.push(w);
                    }
                }
            }
            next += 1;
        }
        label
    }

    /// Highest switch tier present (0 when there are no switches reachable from endpoints).
    pub fn max_tier(&self) -> u8 {
        self.node_tier.iter().copied().max().unwrap_or(0)
    }
}

/// A node's row: its neighbours and their edges (empty for a node the adjacency does not have).
fn row(a: &Adjacency, n: NodeIndex) -> (&[u32], &[u32]) {
    match u32::try_from(n.index()) {
        Ok(i) if n.index() < a.node_count() => (a.neighbors_slice(i), a.edges_slice(i)),
        _ => (&[], &[]),
    }
}

/// The graph's adjacency in compressed rows. The graph's edges run from the lower node to the higher, in order
/// of (lower, higher) (see [`Topology::build`]), so filling each node's row in edge order lists the neighbours
/// below it ascending, then those above it ascending: every row comes out sorted, as petgraph's CSR requires, with
/// one counting pass and one filling pass.
fn adjacency(graph: &UnGraph<Node, Edge>) -> Adjacency {
    let n = graph.node_count();
    let (_, mut rows) = grouped(n, || {
        graph.raw_edges().iter().enumerate().flat_map(|(i, e)| {
            let (a, b) = (e.source().index(), e.target().index());
            [
                (a, (a as u32, b as u32, i as u32)),
                (b, (b as u32, a as u32, i as u32)),
            ]
        })
    });
    // The edges come from `build` in the order the rows need; should a caller's graph not, sorting makes them so.
    if !rows.is_sorted_by_key(|r| (r.0, r.1)) {
        rows.sort_unstable_by_key(|r| (r.0, r.1));
    }
    let mut csr = Adjacency::from_sorted_edges(&rows).unwrap_or_default();
    // Nodes after the last with an edge.
    while csr.node_count() < n {
        csr.add_node(());
    }
    csr
}

/// Multi-source BFS from the switches that touch an endpoint: leaf = 1, next = 2, ...
fn tiers(graph: &UnGraph<Node, Edge>, adjacency: &Adjacency) -> Vec<u8> {
    let is_switch = |n: NodeIndex| {
        graph
            .node_weight(n)
            .is_some_and(|w| w.kind == NodeKind::Switch)
    };
    let neighbours = |n: NodeIndex| {
        row(adjacency, n)
            .0
            .iter()
            .map(|m| NodeIndex::new(*m as usize))
    };
    let touches_endpoint = |n: NodeIndex| neighbours(n).any(|m| !is_switch(m));
    // Switches with no endpoint that hang off the fabric by a single switch neighbour carry no traffic between
    // endpoints; peel them off (repeatedly) so that they do not pose as a tier above the one they hang from.
    let mut dead: rustc_hash::FxHashSet<NodeIndex> = Default::default();
    loop {
        let before = dead.len();
        for n in graph.node_indices() {
            if !is_switch(n) || dead.contains(&n) || touches_endpoint(n) {
                continue;
            }
            let mut live = neighbours(n)
                .filter(|m| is_switch(*m) && !dead.contains(m))
                .collect::<Vec<_>>();
            live.sort();
            live.dedup();
            if live.len() <= 1 {
                dead.insert(n);
            }
        }
        if dead.len() == before {
            break;
        }
    }
    // Tier by node, 0 for none.
    let mut tier = vec![0u8; graph.node_count()];
    let mut queue = VecDeque::new();
    for n in graph.node_indices() {
        if is_switch(n) && touches_endpoint(n) {
            if let Some(t) = tier.get_mut(n.index()) {
                *t = 1;
            }
            queue.push_back(n);
        }
    }
    while let Some(n) = queue.pop_front() {
        let t = tier.get(n.index()).copied().unwrap_or(1);
        for m in neighbours(n) {
            if is_switch(m)
                && !dead.contains(&m)
                && let Some(u) = tier.get_mut(m.index())
                && *u == 0
            {
                *u = t.saturating_add(1);
                queue.push_back(m);
            }
        }
    }
    tier
}

#[cfg(test)]
mod tests {
    use super::*;
    use petgraph::visit::EdgeRef;

    /// Every sample, a 4-SU SuperPOD, and the 1-SU SuperPOD cut down until it has articulation points and bridges
    /// (all but one spine cable of leaf 1 removed, and all but one NIC cable of one DGX).
    fn designs() -> Vec<Design> {
        let c = crate::catalog::Catalog::builtin().unwrap();
        let mut out: Vec<Design> = crate::samples::SAMPLES
            .iter()
            .map(|name| crate::samples::sample(name).unwrap())
            .collect();
        out.push(crate::samples::superpod_h100(&c, 4).unwrap());
        let mut cut = crate::samples::sample("superpod-h100-1su").unwrap();
        let id = |d: &Design, name: &str| d.device_named(name).unwrap();
        let (leaf, dgx) = (id(&cut, "leaf-su01-r1"), id(&cut, "dgx-0001"));
        let spines: Vec<DeviceId> = cut
            .devices
            .iter()
            .filter(|(_, x)| x.name.starts_with("spine"))
            .map(|(id, _)| *id)
            .collect();
        let mut kept_spine = false;
        let mut kept_nic = false;
        cut.links.retain(|_, l| {
            let (a, b) = (l.a.device, l.b.device);
            if (a == leaf && spines.contains(&b)) || (b == leaf && spines.contains(&a)) {
                return !std::mem::replace(&mut kept_spine, true);
            }
            if a == dgx || b == dgx {
                return !std::mem::replace(&mut kept_nic, true);
            }
            true
        });
        out.push(cut);
        out
    }

    #[test]
    fn compressed_rows_hold_each_nodes_edges_in_neighbour_order() {
        for d in designs() {
            let topo = Topology::build(&d);
            assert_eq!(
                topo.adjacency.node_count(),
                topo.graph.node_count(),
                "{}",
                d.name
            );
            for n in topo.graph.node_indices() {
                let rows: Vec<(NodeIndex, EdgeIndex)> = topo.neighbours(n).collect();
                assert!(
                    rows.windows(2).all(|w| w[0].0 < w[1].0),
                    "{}: row of {n:?} not ascending",
                    d.name
                );
                let mut rows = rows;
                rows.sort();
                let mut edges: Vec<(NodeIndex, EdgeIndex)> = topo
                    .graph
                    .edges(n)
                    .map(|e| {
                        (
                            if e.source() == n {
                                e.target()
                            } else {
                                e.source()
                            },
                            e.id(),
                        )
                    })
                    .collect();
                edges.sort();
                assert_eq!(rows, edges, "{}: node {n:?}", d.name);
                assert_eq!(topo.degree(n), edges.len());
            }
        }
    }

    #[test]
    fn each_edge_holds_the_cables_between_its_two_devices_in_link_order() {
        for d in designs() {
            let topo = Topology::build(&d);
            let mut total = 0;
            for e in topo.graph.edge_indices() {
                let (a, b) = topo.graph.edge_endpoints(e).unwrap();
                let (a, b) = (topo.graph[a].device, topo.graph[b].device);
                let between: Vec<LinkId> = d
                    .links
                    .iter()
                    .filter(|(_, l)| {
                        (l.a.device, l.b.device) == (a, b) || (l.a.device, l.b.device) == (b, a)
                    })
                    .map(|(id, _)| *id)
                    .collect();
                assert_eq!(topo.links(e), between.as_slice(), "{}: {e:?}", d.name);
                let gbps: f64 = between.iter().map(|l| d.links[l].medium.gbps()).sum();
                assert!((topo.graph[e].gbps - gbps).abs() < 1e-9, "{}", d.name);
                total += between.len();
            }
            // Every cable between two different nodes is on one edge.
            assert_eq!(topo.cables.len(), total, "{}", d.name);
        }
    }

    #[test]
    fn components_articulation_points_and_bridges_on_the_rows_are_the_graphs() {
        let mut with_cuts = 0;
        for d in designs() {
            let topo = Topology::build(&d);
            let label = topo.components(None, None);
            let mut distinct = label.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(
                distinct.len(),
                petgraph::algo::connected_components(&topo.graph),
                "{}",
                d.name
            );
            for e in topo.graph.edge_indices() {
                let (a, b) = topo.graph.edge_endpoints(e).unwrap();
                assert_eq!(label[a.index()], label[b.index()], "{}", d.name);
            }
            let mut on_graph: Vec<NodeIndex> =
                petgraph::algo::articulation_points::articulation_points(&topo.graph)
                    .into_iter()
                    .collect();
            on_graph.sort_unstable();
            assert_eq!(
                topo.articulation_points(),
                on_graph,
                "{}: articulation points",
                d.name
            );
            let mut on_graph: Vec<EdgeIndex> = petgraph::algo::bridges::bridges(&topo.graph)
                .map(|e| e.id())
                .collect();
            on_graph.sort_unstable();
            assert_eq!(topo.bridges(), on_graph, "{}: bridges", d.name);
            with_cuts += usize::from(!on_graph.is_empty());
        }
        assert!(with_cuts >= 2, "only {with_cuts} designs with bridges");
    }
}
