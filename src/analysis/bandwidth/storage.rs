//! Storage bandwidth: what the appliances deliver per GPU, per connected group of the network.

use super::*;

/// What storage delivers to the GPUs: the appliances' rated and cabled throughput, and each GPU's share in the
/// worst-served part of the network.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StorageBandwidth {
    /// Storage appliances and servers.
    pub appliances: usize,
    /// Sum of their rated read throughput, GB/s.
    pub rated_read_gbyte_s: f64,
    /// Sum of their cabled network bandwidth, GB/s.
    pub network_gbyte_s: f64,
    /// min(rated, network), GB/s.
    pub deliverable_gbyte_s: f64,
    /// Deliverable per GPU, also capped by each server's storage path, GB/s.
    pub per_gpu_gbyte_s: f64,
    /// Read rate each GPU needs, GB/s.
    pub demand_per_gpu_gbyte_s: f64,
    /// What limits it.
    pub limiter: String,
}

pub(super) fn storage_bandwidth(
    design: &Design,
    topo: &Topology,
    servers: &[ServerBandwidth],
    gpus: usize,
    demand: f64,
) -> StorageBandwidth {
    // Storage serves the GPUs it can reach: per connected group of the network, min(rated, cabled) of its
    // appliances over its GPUs; the worst group is the figure (0 when some GPUs reach no storage at all).
    let label = topo.components(None, None);
    let group = |id: &DeviceId| {
        topo.node_of
            .get(id)
            .and_then(|n| label.get(n.index()))
            .copied()
            .unwrap_or(usize::MAX)
    };
    let (mut appliances, mut rated, mut network) = (0, 0.0, 0.0);
    let mut by_group: BTreeMap<usize, (f64, f64, usize)> = BTreeMap::new();
    for (id, device) in &design.devices {
        let Some(PartKind::Storage(s)) = design.parts.get(&device.part).map(|p| &p.kind) else {
            continue;
        };
        appliances += 1;
        rated += s.read_gbyte_s;
        let mut cabled = 0.0;
        if let Some(&n) = topo.node_of.get(id) {
            cabled = topo.graph.edges(n).map(|e| e.weight().gbps).sum::<f64>() / 8.0;
        }
        network += cabled;
        let e = by_group.entry(group(id)).or_default();
        e.0 += s.read_gbyte_s;
        e.1 += cabled;
    }
    for sv in servers {
        by_group.entry(group(&sv.device)).or_default().2 += sv.gpus;
    }
    let deliverable = rated.min(network);
    let mut stranded = 0usize;
    let mut appliance_per_gpu = f64::INFINITY;
    for (r, n, g) in by_group.values() {
        if *g == 0 {
            continue;
        }
        if r.min(*n) <= 0.0 {
            stranded += g;
        }
        appliance_per_gpu = appliance_per_gpu.min(r.min(*n) / *g as f64);
    }
    if !appliance_per_gpu.is_finite() || gpus == 0 {
        appliance_per_gpu = 0.0;
    }
    let worst_path = servers.iter().min_by(|a, b| {
        a.storage_path_gbyte_s_per_gpu
            .total_cmp(&b.storage_path_gbyte_s_per_gpu)
    });
    let path = worst_path.map_or(0.0, |s| s.storage_path_gbyte_s_per_gpu);
    let per_gpu = appliance_per_gpu.min(path);
    let limiter = if appliances == 0 {
        "no storage in the design".to_string()
    } else if network <= 0.0 {
        "storage is not cabled".to_string()
    } else if stranded > 0 {
        format!("{stranded} of {gpus} GPUs cannot reach any storage appliance")
    } else if path < appliance_per_gpu {
        format!(
            "storage path into {}: {:.2} GB/s per GPU",
            worst_path.map_or("", |s| s.name.as_str()),
            path
        )
    } else if rated <= network {
        format!(
            "storage throughput: {rated:.0} GB/s rated over {gpus} GPUs = {appliance_per_gpu:.2} GB/s per GPU"
        )
    } else {
        format!(
            "storage network links: {network:.0} GB/s over {gpus} GPUs = {appliance_per_gpu:.2} GB/s per GPU"
        )
    };
    StorageBandwidth {
        appliances,
        rated_read_gbyte_s: round(rated, 3),
        network_gbyte_s: round(network, 3),
        deliverable_gbyte_s: round(deliverable, 3),
        per_gpu_gbyte_s: round(per_gpu, 4),
        demand_per_gpu_gbyte_s: round(demand, 3),
        limiter,
    }
}
