//! What the NCCL model reads from a drawn design: GPUs, servers, NVLink or PCIe inside a server, the rails across
//! servers, the fabric's protocol and in-network reduction, the host CPU.

use super::tables::{
    IB_EFFICIENCY, PCIE_EFFICIENCY, RACK_SCALE_RAILS, ROCE_EFFICIENCY, nvlink_efficiency,
};
use super::{Arch, CommShape, CpuVendor};
use crate::analysis::bandwidth::BandwidthReport;
use crate::model::part::PartKind;
use crate::model::{Design, Protocol};
use crate::topology::Topology;

/// The figures of a drawn design the model needs: the GPUs, the servers holding them, the slowest server's
/// NVLink (or PCIe) and rails, and the capabilities of its parts. None without at least two GPUs.
pub fn shape(design: &Design, topo: &Topology, bw: &BandwidthReport) -> Option<CommShape> {
    let servers: Vec<_> = bw.servers.iter().filter(|s| s.gpus > 0).collect();
    let nodes = servers.len();
    if bw.gpus < 2 || nodes == 0 {
        return None;
    }
    let spec_of = |d: &crate::model::DeviceId| match design
        .devices
        .get(d)
        .and_then(|d| design.parts.get(&d.part))
        .map(|p| &p.kind)
    {
        Some(PartKind::Server(s)) => Some(s),
        _ => None,
    };
    // Inside a server: the slowest multi-GPU server; NVLink when its GPU-to-GPU path is NVLink.
    let multi: Vec<_> = servers.iter().filter(|s| s.gpus > 1).collect();
    let worst_intra = multi
        .iter()
        .min_by(|a, b| a.intra_gbyte_s_per_gpu.total_cmp(&b.intra_gbyte_s_per_gpu));
    let nvlink = !multi.is_empty() && multi.iter().all(|s| s.nvlink_gbyte_s_per_gpu > 0.0);
    let intra_line = worst_intra.map_or(0.0, |s| s.intra_gbyte_s_per_gpu);
    let nvls = nvlink
        && multi.iter().all(|s| {
            spec_of(&s.device)
                .and_then(|x| x.nvlink.as_ref())
                .is_some_and(|n| n.nvls)
        });
    let gpu = crate::analysis::bandwidth::main_gpu(design).and_then(|p| {
        match design.parts.get(&p).map(|p| &p.kind) {
            Some(PartKind::Gpu(g)) => Some(g.clone()),
            _ => None,
        }
    });
    let (arch, nvlink_gen) = match gpu.as_ref() {
        Some(g) => (
            match (g.nvlink_generation, g.pcie.generation) {
                (5.., _) => Arch::Blackwell,
                (4, _) | (0..=3, 5..) => Arch::Hopper,
                (3, _) | (0..=2, 4) => Arch::Ampere,
                _ => Arch::Volta,
            },
            g.nvlink_generation,
        ),
        None => (Arch::Ampere, 0),
    };
    // Across servers: the rails of the slowest server (its cabled compute NICs, or what its PCIe tree or the routed
    // fabric lets through), per server.
    let mut net_line = f64::INFINITY;
    for s in &servers {
        let g = s.gpus as f64;
        let mut node = (s.compute_nic_cabled_gbps / 8.0).min(s.network_gbyte_s_per_gpu * g);
        if nodes > 1 && bw.inter_node_gbyte_s > 0.0 {
            node = node.min(bw.inter_node_gbyte_s * g);
        }
        net_line = net_line.min(node);
    }
    let net_line = if net_line.is_finite() { net_line } else { 0.0 };
    // Compute NICs cabled per GPU server (the fewest of any), from the cables' server ends.
    let mut cabled: rustc_hash::FxHashSet<(crate::model::DeviceId, u16)> = Default::default();
    let gpu_servers: rustc_hash::FxHashSet<crate::model::DeviceId> =
        servers.iter().map(|s| s.device).collect();
    for l in design.links.values() {
        for end in [&l.a, &l.b] {
            if !gpu_servers.contains(&end.device) {
                continue;
            }
            let Some(slot) = end.nic_slot() else {
                continue;
            };
            let compute = spec_of(&end.device)
                .and_then(|x| x.nic_slots.get(usize::from(slot)))
                .is_some_and(|x| x.role == crate::model::part::NicRole::Compute);
            if compute {
                cabled.insert((end.device, slot));
            }
        }
    }
    let mut per_server: rustc_hash::FxHashMap<crate::model::DeviceId, usize> = Default::default();
    for (d, _) in &cabled {
        *per_server.entry(*d).or_default() += 1;
    }
    let nics_per_node = servers
        .iter()
        .map(|s| per_server.get(&s.device).copied().unwrap_or(0))
        .min()
        .unwrap_or(0);
    // A rack-scale NVLink domain drives at most RACK_SCALE_RAILS rails' worth across racks.
    let net_line = if nics_per_node > RACK_SCALE_RAILS {
        net_line * RACK_SCALE_RAILS as f64 / nics_per_node as f64
    } else {
        net_line
    };
    let a2a = if bw.all_to_all_gbyte_s > 0.0 {
        bw.all_to_all_gbyte_s
    } else {
        servers
            .iter()
            .map(|s| s.network_gbyte_s_per_gpu)
            .fold(f64::INFINITY, f64::min)
    };
    // The fabric: Ethernet anywhere in the compute tiers means RoCE; SHARP only when every compute switch has it.
    let (mut ethernet, mut sharp, mut any) = (false, true, false);
    for (id, d) in &design.devices {
        if topo.tier(*id).is_none() {
            continue;
        }
        if let Some(PartKind::Switch(s)) = design.parts.get(&d.part).map(|p| &p.kind) {
            any = true;
            ethernet |= !s.protocols.contains(&Protocol::InfiniBand);
            sharp &= s.sharp;
        }
    }
    let cpu = servers
        .first()
        .and_then(|s| spec_of(&s.device))
        .map_or(CpuVendor::Unknown, |s| s.cpu_vendor);
    Some(CommShape {
        ranks: bw.gpus,
        nodes,
        arch,
        nvlink,
        intra_line_gbyte_s: intra_line,
        intra_efficiency: if nvlink {
            nvlink_efficiency(nvlink_gen)
        } else {
            PCIE_EFFICIENCY
        },
        net_line_gbyte_s_per_node: net_line,
        a2a_line_gbyte_s_per_gpu: if a2a.is_finite() { a2a } else { 0.0 },
        net_efficiency: if ethernet {
            ROCE_EFFICIENCY
        } else {
            IB_EFFICIENCY
        },
        nvls,
        sharp: any && sharp && !ethernet && nodes > 1,
        cpu,
        nics_per_node,
        gpus_per_process: 1,
    })
}
