//! Findings about failures: a fabric split in islands, and single switches and links whose loss cuts GPUs or
//! storage off.

use super::names;
use crate::analysis::finding::{Finding, FindingCode, Severity};
use crate::model::{Design, DeviceId, LinkId};
use crate::topology::{NodeKind, Topology};
use petgraph::graph::NodeIndex;
use rustc_hash::FxHashSet as HashSet;
use std::collections::BTreeMap;

/// Endpoints (GPU servers and storage) in the graph, in node order (so a binary search finds one).
fn endpoints(topo: &Topology) -> Vec<NodeIndex> {
    topo.graph
        .node_indices()
        .filter(|n| {
            topo.graph
                .node_weight(*n)
                .is_some_and(|w| matches!(w.kind, NodeKind::GpuServer | NodeKind::Storage))
        })
        .collect()
}

fn distinct(label: &[usize], nodes: &[NodeIndex], skip: Option<NodeIndex>) -> usize {
    nodes
        .iter()
        .filter(|n| Some(**n) != skip)
        .filter_map(|n| label.get(n.index()))
        .collect::<HashSet<_>>()
        .len()
}

/// Most single points of failure checked one by one; beyond this the finding says how many were not.
const SPOF_CHECK_LIMIT: usize = 256;

/// Findings about failures: a fabric split in islands, and single switches and links whose loss cuts GPUs or
/// storage off. The three checks share the endpoints and the components of the whole fabric, computed once here.
pub(super) fn resilience_findings(design: &Design, topo: &Topology, out: &mut Vec<Finding>) {
    let ends = endpoints(topo);
    if ends.len() < 2 {
        return;
    }
    let base = topo.components(None, None);
    let base_count = distinct(&base, &ends, None);
    islands_finding(topo, &base, &ends, out);
    single_switch_finding(design, topo, &ends, base_count, out);
    single_link_finding(design, topo, &ends, base_count, out);
}

/// The GPU servers split in islands that cannot reach each other (`base`: the whole fabric's components).
fn islands_finding(topo: &Topology, base: &[usize], ends: &[NodeIndex], out: &mut Vec<Finding>) {
    let gpu_servers: Vec<NodeIndex> = ends
        .iter()
        .copied()
        .filter(|n| {
            topo.graph
                .node_weight(*n)
                .is_some_and(|w| w.kind == NodeKind::GpuServer)
        })
        .collect();
    if distinct(base, &gpu_servers, None) > 1 {
        let mut by_label: BTreeMap<usize, Vec<DeviceId>> = BTreeMap::new();
        for n in &gpu_servers {
            if let (Some(l), Some(w)) = (base.get(n.index()), topo.graph.node_weight(*n)) {
                by_label.entry(*l).or_default().push(w.device);
            }
        }
        let mut f = Finding::new(
            Severity::Error,
            FindingCode::FabricPartitioned,
            format!(
                "the GPU servers form {} islands that cannot reach each other",
                by_label.len()
            ),
            "cable the leaf switches to common spine switches",
        );
        f.devices = by_label.into_values().flatten().collect();
        out.push(f);
    }
}

/// Switches whose loss splits endpoints apart (articulation points, confirmed by recount, at most
/// [`SPOF_CHECK_LIMIT`] of them): more components of the endpoints than the whole fabric's `base_count`.
fn single_switch_finding(
    design: &Design,
    topo: &Topology,
    ends: &[NodeIndex],
    base_count: usize,
    out: &mut Vec<Finding>,
) {
    let ap_list: Vec<NodeIndex> = topo
        .articulation_points()
        .into_iter()
        .filter(|n| {
            topo.graph
                .node_weight(*n)
                .is_some_and(|w| w.kind == NodeKind::Switch)
        })
        .collect();
    let mut spof_switches = Vec::new();
    for n in ap_list.iter().take(SPOF_CHECK_LIMIT) {
        let label = topo.components(Some(*n), None);
        if distinct(&label, ends, Some(*n)) > base_count
            && let Some(w) = topo.graph.node_weight(*n)
        {
            spof_switches.push(w.device);
        }
    }
    if !spof_switches.is_empty() {
        let unchecked = ap_list.len().saturating_sub(SPOF_CHECK_LIMIT);
        let mut f = Finding::new(
            Severity::Warning,
            FindingCode::SingleSwitch,
            format!(
                "losing {} ({}) disconnects GPUs or storage{}",
                if spof_switches.len() == 1 {
                    "the switch".to_string()
                } else {
                    format!("any one of {} switches", spof_switches.len())
                },
                names(design, &spof_switches),
                if unchecked > 0 {
                    format!(" ({unchecked} more candidates not checked)")
                } else {
                    String::new()
                }
            ),
            "dual-home servers and storage to two leaf switches, and give every leaf two or more spines",
        );
        f.devices = spof_switches;
        out.push(f);
    }
}

/// Single cables whose loss splits endpoints: bridges of the collapsed graph (parallel cables are not bridges),
/// each with what it cuts off.
fn single_link_finding(
    design: &Design,
    topo: &Topology,
    ends: &[NodeIndex],
    base_count: usize,
    out: &mut Vec<Finding>,
) {
    let bridges = topo.bridges();
    let mut spof_links: Vec<LinkId> = Vec::new();
    let mut spof_devices: Vec<DeviceId> = Vec::new();
    let mut spof_detail: Vec<(LinkId, Vec<DeviceId>)> = Vec::new();
    let mut checked = 0;
    let mut unchecked = 0;
    for e in bridges {
        let Some((a, b)) = topo.graph.edge_endpoints(e) else {
            continue;
        };
        let links = topo.links(e);
        if links.len() != 1 {
            continue;
        }
        // A leaf endpoint hanging on a single cable is the common case: no recount needed.
        let hangs = [a, b]
            .into_iter()
            .find(|n| topo.degree(*n) == 1 && ends.binary_search(n).is_ok());
        let label = if hangs.is_some() {
            None
        } else if checked < SPOF_CHECK_LIMIT {
            checked += 1;
            Some(topo.components(None, Some(e)))
        } else {
            unchecked += 1;
            continue;
        };
        let splits = hangs.is_some()
            || label
                .as_ref()
                .is_some_and(|l| distinct(l, ends, None) > base_count);
        if !splits {
            continue;
        }
        // What the cable cuts off: the hanging endpoint, or the servers and storage on the smaller side.
        let cut: Vec<DeviceId> = match (hangs, &label) {
            (Some(n), _) => topo
                .graph
                .node_weight(n)
                .map(|w| w.device)
                .into_iter()
                .collect(),
            (None, Some(l)) => {
                let side = |x: NodeIndex| -> Vec<DeviceId> {
                    let lx = l.get(x.index());
                    ends.iter()
                        .filter(|n| l.get(n.index()) == lx)
                        .filter_map(|n| topo.graph.node_weight(*n).map(|w| w.device))
                        .collect()
                };
                let (sa, sb) = (side(a), side(b));
                if sb.len() <= sa.len() { sb } else { sa }
            }
            (None, None) => Vec::new(),
        };
        spof_links.extend(links.iter().copied());
        spof_devices.extend(cut.iter().copied());
        for link in links {
            spof_detail.push((*link, cut.clone()));
        }
    }
    if !spof_links.is_empty() {
        spof_devices.sort();
        spof_devices.dedup();
        const SHOWN: usize = 6;
        let mut detail: Vec<String> = spof_detail
            .iter()
            .take(SHOWN)
            .map(|(link, cut)| {
                format!(
                    "{} cuts off {}",
                    design.describe_link(*link),
                    names(design, cut)
                )
            })
            .collect();
        if spof_detail.len() > SHOWN {
            detail.push(format!("{} more", spof_detail.len() - SHOWN));
        }
        let mut f = Finding::new(
            Severity::Warning,
            FindingCode::SingleLink,
            format!(
                "{} the only path for {}: {}{}",
                if spof_links.len() == 1 {
                    "1 link is".to_string()
                } else {
                    format!("{} links are", spof_links.len())
                },
                crate::analysis::format::count(
                    spof_devices.len(),
                    "server or storage appliance",
                    "servers or storage appliances"
                ),
                detail.join("; "),
                if unchecked > 0 {
                    format!(" ({unchecked} more candidates not checked)")
                } else {
                    String::new()
                }
            ),
            "give each server and storage appliance a second link to a different switch",
        );
        f.devices = spof_devices;
        f.links = spof_links;
        out.push(f);
    }
}
