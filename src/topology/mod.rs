//! The network graph derived from a design on demand (never saved): servers, storage and switches as nodes, cabled
//! links between devices as edges (parallel cables collapsed into one edge with their summed bandwidth), plus each
//! switch's tier counted up from the endpoints (1 = leaf, 2 = spine, 3 = core).

use crate::model::part::{NicRole, NicSlotSpec, PartKind};
use crate::model::{Design, DeviceId, LinkId};
use petgraph::graph::{EdgeIndex, NodeIndex, UnGraph};
use petgraph::visit::EdgeRef;
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
    /// A switch.
    Switch,
}

/// A node: the device and its kind.
#[derive(Debug, Clone, Copy)]
pub struct Node {
    /// The device.
    pub device: DeviceId,
    /// Its kind.
    pub kind: NodeKind,
}

/// An edge: all cables between two devices.
#[derive(Debug, Clone, Default, PartialEq, PartialOrd)]
pub struct Edge {
    /// The cables.
    pub links: Vec<LinkId>,
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
    /// Tier of each switch reachable from an endpoint (1 = leaf).
    pub tier: HashMap<DeviceId, u8>,
}

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
        struct Cabled {
            a: NodeIndex,
            b: NodeIndex,
            link: LinkId,
            length_m: f64,
            gbps: f64,
            compute: bool,
        }
        let mut cabled: Vec<Cabled> = Vec::with_capacity(design.links.len());
        for (lid, link) in &design.links {
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
        cabled.sort_unstable_by_key(|c| (c.a, c.b, c.link));
        let mut current: Option<(NodeIndex, NodeIndex, Edge)> = None;
        for c in cabled {
            if let Some((x, y, e)) = current.take_if(|(x, y, _)| (*x, *y) != (c.a, c.b)) {
                graph.add_edge(x, y, e);
            }
            let (_, _, e) = current.get_or_insert_with(|| (c.a, c.b, Edge::default()));
            let n = e.links.len() as f64;
            e.mean_length_m = (e.mean_length_m * n + c.length_m) / (n + 1.0);
            e.links.push(c.link);
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
        let tier = tiers(&graph);
        Self {
            graph,
            node_of,
            tier,
        }
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
                for e in self.graph.edges(v) {
                    if Some(e.id()) == skip_edge {
                        continue;
                    }
                    let w = if e.source() == v {
                        e.target()
                    } else {
                        e.source()
                    };
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
        self.tier.values().copied().max().unwrap_or(0)
    }
}

/// Multi-source BFS from the switches that touch an endpoint: leaf = 1, next = 2, ...
fn tiers(graph: &UnGraph<Node, Edge>) -> HashMap<DeviceId, u8> {
    let is_switch = |n: NodeIndex| {
        graph
            .node_weight(n)
            .is_some_and(|w| w.kind == NodeKind::Switch)
    };
    let touches_endpoint = |n: NodeIndex| graph.neighbors(n).any(|m| !is_switch(m));
    // Switches with no endpoint that hang off the fabric by a single switch neighbour carry no traffic between
    // endpoints; peel them off (repeatedly) so that they do not pose as a tier above the one they hang from.
    let mut dead: rustc_hash::FxHashSet<NodeIndex> = Default::default();
    loop {
        let before = dead.len();
        for n in graph.node_indices() {
            if !is_switch(n) || dead.contains(&n) || touches_endpoint(n) {
                continue;
            }
            let mut live = graph
                .neighbors(n)
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
    let mut tier: HashMap<NodeIndex, u8> = HashMap::default();
    let mut queue = VecDeque::new();
    for n in graph.node_indices() {
        if is_switch(n) && touches_endpoint(n) {
            tier.insert(n, 1);
            queue.push_back(n);
        }
    }
    while let Some(n) = queue.pop_front() {
        let t = tier.get(&n).copied().unwrap_or(1);
        for m in graph.neighbors(n) {
            if is_switch(m) && !dead.contains(&m) && !tier.contains_key(&m) {
                tier.insert(m, t.saturating_add(1));
                queue.push_back(m);
            }
        }
    }
    tier.into_iter()
        .filter_map(|(n, t)| graph.node_weight(n).map(|w| (w.device, t)))
        .collect()
}
