//! Failure what-ifs: what a design loses when a switch, link, server or rack power feed goes, and the N-1 sweep
//! over every switch and link that lists the single points of failure with their impact.
//!
//! Removing a part re-runs the full analysis on the design without it, so every figure (bandwidth, GPUs reachable,
//! serving capacity) comes from the same models as the report. The sweep is cheaper: it uses the graph's
//! articulation points and bridges to find the parts whose loss disconnects GPUs, and only analyses those.

use super::{Report, analyze};
use crate::edit::Edit;
use crate::model::{Design, DeviceId, LinkId, RackId};
use crate::topology::{NodeKind, Topology};
use serde::Serialize;
use std::collections::BTreeSet;

/// A part to take away.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Failure {
    /// A device (switch, server, storage) fails.
    Device(DeviceId),
    /// A cable fails.
    Link(LinkId),
    /// A rack loses one of its two feeds: the rack's devices survive only if its load fits on the other feed.
    Feed(RackId),
}

/// What a failure costs.
#[derive(Debug, Clone, Serialize)]
pub struct Impact {
    /// The failure.
    pub failure: Failure,
    /// What failed, in words.
    pub what: String,
    /// GPUs that can still reach the largest group of GPUs, before and after.
    pub gpus_reachable: (usize, usize),
    /// Bisection bandwidth before and after, Gb/s.
    pub bisection_gbps: (f64, f64),
    /// Inter-server bandwidth per GPU before and after, GB/s.
    pub inter_node_gbs: (f64, f64),
    /// Serving replicas before and after (when the design serves).
    pub replicas: Option<(u64, u64)>,
}

/// GPUs in the largest connected group of GPU servers (a server's GPUs talk over NVLink or PCIe).
pub fn gpus_reachable(design: &Design, topo: &Topology) -> usize {
    let label = topo.components(None, None);
    let mut gpus: std::collections::BTreeMap<usize, usize> = std::collections::BTreeMap::new();
    for n in topo.graph.node_indices() {
        if let (Some(w), Some(l)) = (topo.graph.node_weight(n), label.get(n.index()))
            && w.kind == NodeKind::GpuServer
        {
            *gpus.entry(*l).or_default() +=
                design.devices.get(&w.device).map_or(0, |d| d.gpus.len());
        }
    }
    gpus.into_values().max().unwrap_or(0)
}

fn without(design: &Design, failure: Failure) -> (Design, String) {
    let mut d = design.clone();
    let what = match failure {
        Failure::Device(id) => {
            let name = design
                .devices
                .get(&id)
                .map_or_else(|| id.to_string(), |x| x.name.clone());
            let _ = Edit::RemoveDevice(id).apply(&mut d);
            format!("device {name}")
        }
        Failure::Link(id) => {
            let _ = Edit::RemoveLink(id).apply(&mut d);
            format!("link {id}")
        }
        Failure::Feed(rack) => {
            let name = design
                .racks
                .get(&rack)
                .map_or_else(|| rack.to_string(), |r| r.name.clone());
            // The rack survives on one feed when its load fits that feed; otherwise it goes dark.
            let load = super::power::rack_power_w(design, rack);
            let feed = design.racks.get(&rack).and_then(|r| r.feed_capacity_w);
            if feed.is_none_or(|f| load > f) {
                let ids: Vec<DeviceId> = design
                    .devices
                    .iter()
                    .filter(|(_, x)| x.rack == rack)
                    .map(|(id, _)| *id)
                    .collect();
                for id in ids {
                    let _ = Edit::RemoveDevice(id).apply(&mut d);
                }
            }
            format!("one power feed of rack {name}")
        }
    };
    (d, what)
}

/// The impact of one failure, from a full analysis of the design without the part.
pub fn impact(design: &Design, before: &Report, failure: Failure) -> Impact {
    let (after_design, what) = without(design, failure);
    let after = analyze(&after_design);
    let reach_before = gpus_reachable(design, &Topology::build(design));
    let reach_after = gpus_reachable(&after_design, &Topology::build(&after_design));
    Impact {
        failure,
        what,
        gpus_reachable: (reach_before, reach_after),
        bisection_gbps: (
            before.bandwidth.bisection.gbps,
            after.bandwidth.bisection.gbps,
        ),
        inter_node_gbs: (
            before.bandwidth.inter_node_gbs,
            after.bandwidth.inter_node_gbs,
        ),
        replicas: before
            .cost
            .replicas_in_design
            .zip(after.cost.replicas_in_design),
    }
}

/// Most single points of failure analysed in full by [`n_minus_one`].
pub const SWEEP_LIMIT: usize = 64;

/// N-1 sweep over every switch and link: the ones whose loss disconnects GPUs (articulation points and bridges of
/// the network graph), each with its full impact, worst first. Parts whose loss only removes bandwidth are not
/// single points of failure and are not listed.
pub fn n_minus_one(design: &Design, before: &Report) -> Vec<Impact> {
    let topo = Topology::build(design);
    let mut candidates: BTreeSet<(u8, u64)> = BTreeSet::new();
    for n in petgraph::algo::articulation_points::articulation_points(&topo.graph) {
        if let Some(w) = topo.graph.node_weight(n)
            && w.kind == NodeKind::Switch
        {
            candidates.insert((0, w.device.0));
        }
    }
    for e in petgraph::algo::bridges::bridges(&topo.graph) {
        if let [only] = e.weight().links.as_slice() {
            candidates.insert((1, only.0));
        }
    }
    let mut out: Vec<Impact> = candidates
        .into_iter()
        .take(SWEEP_LIMIT)
        .map(|(kind, id)| {
            let f = if kind == 0 {
                Failure::Device(DeviceId(id))
            } else {
                Failure::Link(LinkId(id))
            };
            impact(design, before, f)
        })
        .filter(|i| {
            i.gpus_reachable.1 < i.gpus_reachable.0 || i.replicas.is_some_and(|(a, b)| b < a)
        })
        .collect();
    out.sort_by(|a, b| {
        let la = a.gpus_reachable.0 - a.gpus_reachable.1.min(a.gpus_reachable.0);
        let lb = b.gpus_reachable.0 - b.gpus_reachable.1.min(b.gpus_reachable.0);
        lb.cmp(&la).then_with(|| a.what.cmp(&b.what))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::sample;

    #[test]
    fn losing_a_rail_leaf_costs_bandwidth_not_gpus() {
        // SuperPOD 1 SU: each DGX has one NIC on each of 8 leaves. Losing leaf 1 leaves every GPU reachable
        // (NVLink carries rail 1's traffic to the other rails) but takes one rail out of the balanced cut. The
        // smaller half holds 15 of the 31 DGX (120 of 248 GPUs); every rail leaf carries min(15, 16) x 400G from
        // one half to the other: before 8 x 15 x 400 = 48,000 Gb/s, after 7 x 15 x 400 = 42,000 Gb/s.
        let d = sample("superpod-h100-1su").unwrap();
        let before = analyze(&d);
        let leaf = d
            .devices
            .iter()
            .find(|(_, x)| x.name == "leaf-su01-r1")
            .map(|(id, _)| *id)
            .unwrap();
        let i = impact(&d, &before, Failure::Device(leaf));
        assert_eq!(i.gpus_reachable, (248, 248));
        assert_eq!(i.bisection_gbps, (48_000.0, 42_000.0));
        assert!(
            n_minus_one(&d, &before).is_empty(),
            "the balanced SU has no single point of failure"
        );
    }

    #[test]
    fn single_homed_servers_are_swept() {
        // Eight A100 servers each on one cable to one leaf: the leaf takes all 64 GPUs apart (8 islands of 8),
        // and each cable isolates its server (56 GPUs left in the largest group).
        let d = sample("a100-nic-starved").unwrap();
        let before = analyze(&d);
        let sweep = n_minus_one(&d, &before);
        let leaf = sweep.iter().find(|i| i.what == "device leaf-01").unwrap();
        assert_eq!(leaf.gpus_reachable, (64, 8));
        assert_eq!(
            sweep
                .iter()
                .filter(|i| matches!(i.failure, Failure::Link(_)) && i.gpus_reachable == (64, 56))
                .count(),
            8
        );
        assert_eq!(
            sweep.first().map(|i| i.what.as_str()),
            Some("device leaf-01")
        );
    }

    #[test]
    fn a_rack_beyond_one_feed_goes_dark() {
        // dgx-h100-single draws 13,774 W. With 2 x 11 kW feeds, losing one leaves 11 kW: the rack goes dark.
        let mut d = sample("dgx-h100-single").unwrap();
        let rack = *d.racks.keys().next().unwrap();
        d.racks.get_mut(&rack).unwrap().feed_capacity_w = Some(11_000.0);
        let before = analyze(&d);
        assert!(before.findings.iter().any(|f| f.code == "rack-feed"));
        let i = impact(&d, &before, Failure::Feed(rack));
        assert_eq!(i.gpus_reachable, (8, 0));
        // 13.5 kW feeds: enough for the devices without their optics (13,500 W or so) but not for the rack's
        // 13,774 W with them. The finding and the what-if use the same rack power, so both say the rack goes dark.
        d.racks.get_mut(&rack).unwrap().feed_capacity_w = Some(13_500.0);
        let before = analyze(&d);
        assert!(before.findings.iter().any(|f| f.code == "rack-feed"));
        assert_eq!(
            impact(&d, &before, Failure::Feed(rack)).gpus_reachable,
            (8, 0)
        );
        assert!(
            (crate::analysis::power::rack_power_w(&d, rack) - before.power.racks[0].power_w).abs()
                < 1e-6
        );
        // With 2 x 17.3 kW feeds it rides through.
        d.racks.get_mut(&rack).unwrap().feed_capacity_w = Some(17_300.0);
        let i = impact(&d, &analyze(&d), Failure::Feed(rack));
        assert_eq!(i.gpus_reachable, (8, 8));
    }
}
