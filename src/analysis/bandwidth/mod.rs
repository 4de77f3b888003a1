//! Bandwidth: inside each server (GPU to GPU over NVLink or PCIe, GPU to NIC and storage NIC through the PCIe
//! tree), NIC bandwidth per GPU, switch oversubscription by tier, bisection bandwidth, storage per GPU, and the
//! bottleneck of each traffic pattern.
//!
//! PCIe model: every GPU sends its demand to the nearest cabled NIC(s) (fewest hops in the tree, split equally
//! among ties); each hop's load is the sum of the flows crossing it in one direction (traffic is symmetric, so the
//! other direction carries the same). A GPU's capability is its demand scaled by the worst cap/load on its paths.
//!
//! Files: [`pcie`] (the server model: PCIe tree, NICs, NVLink), [`fabric`] (switch oversubscription, bisection),
//! [`storage`], [`bottleneck`] (per pattern); this file puts the report together.

mod bottleneck;
mod fabric;
mod pcie;
mod storage;

pub use bottleneck::{PatternBottleneck, PatternFigures, PatternId, pattern_figures};
pub use fabric::{Bisection, SwitchBandwidth};
pub use pcie::{Hop, PcieHop, ServerBandwidth};
pub use storage::StorageBandwidth;

use bottleneck::{PatternContext, server_limiter, shortfall};
use fabric::{bisection, switch_bandwidth};
use pcie::{ShapeKey, server_bandwidth};
use storage::storage_bandwidth;

use super::format::round;
use super::pattern::Pattern;
use crate::model::part::{NicRole, PartKind, ServerSpec};
use crate::model::{Design, Device, DeviceId, PartId, PcieLink};
use crate::topology::{NodeKind, Topology};
use rustc_hash::FxHashMap as HashMap;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Bandwidth section of the report.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BandwidthReport {
    /// GPUs installed in the design's servers, summed over [`Self::servers`].
    pub gpus: usize,
    /// The GPU part most servers carry.
    pub main_gpu: Option<String>,
    /// Network bandwidth each GPU should have, Gb/s (design parameter or the GPU's reference ratio).
    pub demand_gbps_per_gpu: f64,
    /// Per GPU server.
    pub servers: Vec<ServerBandwidth>,
    /// Oversubscription of every switch in the design, in device id order.
    pub switches: Vec<SwitchBandwidth>,
    /// Bisection bandwidth of the scale-out fabric.
    pub bisection: Bisection,
    /// Storage delivered per GPU.
    pub storage: StorageBandwidth,
    /// Intra-server GPU-to-GPU bandwidth per GPU per direction (worst server), GB/s.
    pub intra_node_gbyte_s: f64,
    /// Inter-server bandwidth per GPU per direction for the all-reduce (one ring per rail, as routed over the
    /// drawn fabric; worst server), GB/s.
    pub inter_node_gbyte_s: f64,
    /// Inter-server bandwidth per GPU per direction for all-to-all traffic (as routed; worst server), GB/s.
    pub all_to_all_gbyte_s: f64,
    /// Bottleneck per traffic pattern, worst shortfall first.
    pub patterns: Vec<PatternBottleneck>,
    /// Every pattern routed over the drawn topology (ECMP): per-link loads and the hottest link.
    pub routing: super::routing::RoutingReport,
}

impl BandwidthReport {
    /// Compute NIC bandwidth the GPU servers have cabled into the fabric, Gb/s.
    pub fn injection_gbps(&self) -> f64 {
        self.servers.iter().map(|s| s.compute_nic_cabled_gbps).sum()
    }

    /// What a full-bisection fabric carries across a cut of the GPU servers into two halves, Gb/s: the smaller
    /// half's share of the injection, floor(n / 2) / n of it for n servers (15 of 31 SuperPOD DGXs: 48.0 of 99.2
    /// Tb/s). The bisection's ratio is against this.
    pub fn full_bisection_gbps(&self) -> f64 {
        let n = self.servers.len();
        if n < 2 {
            return 0.0;
        }
        self.injection_gbps() * (n / 2) as f64 / n as f64
    }
}

/// The most common GPU part across servers ([`Design::main_gpu`]).
pub fn main_gpu(design: &Design) -> Option<PartId> {
    design.main_gpu()
}

/// Network bandwidth per GPU the design should provide, Gb/s.
pub fn demand_gbps(design: &Design) -> f64 {
    if let Some(g) = design.params.traffic.network_gbps_per_gpu {
        return g;
    }
    main_gpu(design)
        .and_then(|p| match design.parts.get(&p).map(|p| &p.kind) {
            Some(PartKind::Gpu(g)) => Some(g.reference_network_gbps),
            _ => None,
        })
        .unwrap_or(0.0)
}

/// Every GPU server's figures, in device order. Servers of the same shape (part, slot contents, cabled ports) have
/// the same figures: each shape is computed once, so a 4,000-server fabric costs here what its handful of distinct
/// server builds cost.
fn servers(design: &Design, topo: &Topology, storage_demand: f64) -> Vec<ServerBandwidth> {
    // Cabled NIC ports, by server and then slot and port: what the shapes and the NIC figures walk (never every
    // declared port). Devices are walked in id order, so each one's ports are the next run of the list.
    let mut rest = topo.nic_ports.as_slice();
    let mut servers = Vec::new();
    let mut shapes: HashMap<ShapeKey<'_>, ServerBandwidth> = HashMap::default();
    for (id, device) in &design.devices {
        if device.gpus.is_empty() {
            continue;
        }
        let Some(PartKind::Server(spec)) = design.parts.get(&device.part).map(|p| &p.kind) else {
            continue;
        };
        let device_ports = super::next_run(&mut rest, |c| c.device, *id);
        let ports = cabled_ports(design, device, device_ports);
        let key = ShapeKey {
            part: &device.part,
            gpus: &device.gpus,
            nics: &device.nics,
            cabled: ports,
        };
        let mut s = match shapes.get(&key) {
            Some(s) => s.clone(),
            None => {
                let s = server_bandwidth(design, *id, device, spec, &key.cabled, storage_demand);
                shapes.insert(key, s.clone());
                s
            }
        };
        s.device = *id;
        s.name.clone_from(&device.name);
        servers.push(s);
    }
    servers
}

/// A server's cabled ports as its model reads them, (NIC slot, port, cable rate bits), from its run of
/// `Topology::nic_ports`: only ports of NICs installed in the server that the NIC has.
pub(crate) fn cabled_ports(
    design: &Design,
    device: &Device,
    ports: &[crate::topology::NicPort],
) -> Vec<(u16, u16, u64)> {
    ports
        .iter()
        .filter(|c| {
            device.nics.get(&c.slot).is_some_and(|nic| {
                matches!(design.parts.get(nic).map(|p| &p.kind),
                    Some(PartKind::Nic(n)) if c.port >= 1 && c.port <= n.ports)
            })
        })
        .map(|c| (c.slot, c.port, c.gbps.to_bits()))
        .collect()
}

/// The worst GPU's network bandwidth, GB/s, of `device` (a GPU server of the design) cabled on `cabled` alone (see
/// [`cabled_ports`]), from the report's server model: what the N-1 ranking asks of a server that loses cables.
/// 0 for a device that is not a server.
pub(crate) fn server_network_gbyte_s(
    design: &Design,
    id: DeviceId,
    device: &Device,
    cabled: Vec<(u16, u16, u64)>,
) -> f64 {
    let Some(PartKind::Server(spec)) = design.parts.get(&device.part).map(|p| &p.kind) else {
        return 0.0;
    };
    let demand = design.params.traffic.storage_read_gbyte_s_per_gpu;
    server_bandwidth(design, id, device, spec, &cabled, demand).network_gbyte_s_per_gpu
}

/// The bandwidth section: every GPU server's figures, the switches' oversubscription, the bisection, storage, the
/// traffic routed over the drawn fabric and the bottleneck of each pattern.
pub(crate) fn analyze(design: &Design, topo: &Topology) -> BandwidthReport {
    analyze_routed(design, topo, super::routing::analyze(design))
}

/// The bandwidth section with the traffic already routed over the drawn fabric (`routing::analyze` of the same
/// design), so that a caller can route in one step and do the rest in another.
pub(crate) fn analyze_routed(
    design: &Design,
    topo: &Topology,
    routing: super::routing::RoutingReport,
) -> BandwidthReport {
    let demand_gbps = demand_gbps(design);
    let demand_gbyte_s = demand_gbps / 8.0;
    let storage_demand = design.params.traffic.storage_read_gbyte_s_per_gpu;
    let servers = servers(design, topo, storage_demand);
    let switches = switch_bandwidth(design, topo);
    let bisection = bisection(design, topo);
    let gpus: usize = servers.iter().map(|s| s.gpus).sum();
    let storage = storage_bandwidth(design, topo, &servers, gpus, storage_demand);

    let intra_node_gbyte_s = servers
        .iter()
        .filter(|s| s.gpus > 1)
        .map(|s| s.intra_gbyte_s_per_gpu)
        .fold(f64::INFINITY, f64::min);
    let intra_node_gbyte_s = if intra_node_gbyte_s.is_finite() {
        intra_node_gbyte_s
    } else {
        0.0
    };

    // Inter-server bandwidth per GPU comes from the routed pattern itself (docs/analysis.md, "Inter-server
    // bandwidth per GPU"): every pattern offers each port its line rate; when the busiest link on its routes is
    // loaded past capacity, the pattern slows down by that factor. A rail-local all-reduce crosses no spine, so
    // spine oversubscription does not touch it; all-to-all does cross. Traffic with no route means the collective
    // cannot complete.
    let mut worst_switch: Option<(f64, u8, DeviceId)> = None;
    for s in &switches {
        if let Some(r) = s.oversubscription
            && worst_switch.is_none_or(|(w, _, _)| r > w)
        {
            worst_switch = Some((r, s.tier, s.device));
        }
    }
    let worst_server = servers.iter().min_by(|a, b| {
        a.network_gbyte_s_per_gpu
            .total_cmp(&b.network_gbyte_s_per_gpu)
            .then(a.device.cmp(&b.device))
    });
    let server_cap = worst_server.map_or(0.0, |s| s.network_gbyte_s_per_gpu);
    let ctx = PatternContext {
        design,
        routing: &routing,
        worst_switch,
        worst_server,
        server_cap,
        demand_gbyte_s,
    };
    let mut patterns = Vec::new();
    let (mut inter_node_gbyte_s, mut all_to_all_gbyte_s) = (0.0, 0.0);
    if servers.len() > 1 {
        let (p, g) = ctx.routed(
            (Pattern::RailRings, PatternId::RailRings),
            "GPU network traffic (all-reduce across servers, one ring per rail)",
        );
        inter_node_gbyte_s = g;
        patterns.push(p);
        let (p, g) = ctx.routed(
            (Pattern::AllToAll, PatternId::AllToAll),
            "GPU network traffic (all-to-all across servers)",
        );
        all_to_all_gbyte_s = g;
        patterns.push(p);
    } else if servers.len() == 1 && demand_gbyte_s > 0.0 {
        let (limiter, devices) = server_limiter(worst_server);
        patterns.push(PatternBottleneck {
            id: PatternId::OneServer,
            pattern: "GPU network traffic (one server)".into(),
            limiter,
            devices,
            achieved_gbyte_s_per_gpu: round(server_cap, 3),
            demand_gbyte_s_per_gpu: round(demand_gbyte_s, 3),
            shortfall: round(shortfall(demand_gbyte_s, server_cap), 3),
        });
    }
    if let Some(worst_intra) = servers
        .iter()
        .filter(|s| s.gpus > 1)
        .min_by(|a, b| a.intra_gbyte_s_per_gpu.total_cmp(&b.intra_gbyte_s_per_gpu))
    {
        let via = if worst_intra.nvlink_gbyte_s_per_gpu > 0.0 {
            "NVLink"
        } else {
            "PCIe (no NVLink)"
        };
        patterns.push(PatternBottleneck {
            id: PatternId::InsideServer,
            pattern: "GPU-to-GPU inside a server".into(),
            limiter: format!(
                "{via} in {}: {:.1} GB/s per GPU",
                worst_intra.name, worst_intra.intra_gbyte_s_per_gpu
            ),
            devices: vec![worst_intra.device],
            achieved_gbyte_s_per_gpu: round(worst_intra.intra_gbyte_s_per_gpu, 3),
            demand_gbyte_s_per_gpu: round(worst_intra.intra_gbyte_s_per_gpu, 3),
            shortfall: 1.0,
        });
    }
    if storage_demand > 0.0 && gpus > 0 && storage.appliances > 0 {
        patterns.push(PatternBottleneck {
            id: PatternId::StorageRead,
            pattern: "Storage read".into(),
            limiter: storage.limiter.clone(),
            devices: Vec::new(),
            achieved_gbyte_s_per_gpu: storage.per_gpu_gbyte_s,
            demand_gbyte_s_per_gpu: round(storage_demand, 3),
            shortfall: round(
                if storage.per_gpu_gbyte_s > 0.0 {
                    storage_demand / storage.per_gpu_gbyte_s
                } else {
                    f64::INFINITY
                },
                3,
            ),
        });
    }
    patterns.sort_by(|a, b| b.shortfall.total_cmp(&a.shortfall));

    BandwidthReport {
        gpus,
        main_gpu: main_gpu(design).map(|p| p.0.into()),
        demand_gbps_per_gpu: round(demand_gbps, 3),
        servers,
        switches,
        bisection,
        storage,
        intra_node_gbyte_s: round(intra_node_gbyte_s, 3),
        inter_node_gbyte_s: round(inter_node_gbyte_s, 3),
        all_to_all_gbyte_s: round(all_to_all_gbyte_s, 3),
        patterns,
        routing,
    }
}
