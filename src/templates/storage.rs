//! The storage fabric of a sized design: parallel-filesystem appliances sized for the job (data reads, checkpoint
//! writes, capacity) and storage leaves that cable every port of every server's storage NICs, joined by the same
//! folded Clos as the compute fabric when one leaf is not enough (docs/analysis.md, "Sizing and templates at
//! scale"). Without it a sized design warned of uncabled NICs and of no storage.

use super::TemplateError;
use super::clos::{clos, wire};
use crate::catalog::{Catalog, NicRole, PartKind};
use crate::edit::Builder;
use crate::model::{Design, DeviceId, PortRef, Protocol, RackId};

/// The appliance sized designs use: a DDN AI400X2 (90 GB/s read, 65 GB/s write, 250 TB, 8 ports of 400G), the
/// storage of NVIDIA's DGX SuperPOD reference architectures.
pub const APPLIANCE: &str = "ddn-ai400x2";
/// Storage leaf switch (64 ports of NDR 400G InfiniBand).
const LEAF: &str = "qm9700";
/// Seconds a checkpoint of the whole training state may take to write: a planning value (a checkpoint every hour
/// or so then costs the job under 10% of its time, as checkpointing guides aim for).
pub const CHECKPOINT_WRITE_S: f64 = 300.0;
/// Checkpoints kept on the filesystem (the latest two and one older, to roll back from a bad step): planning value.
pub const CHECKPOINTS_KEPT: f64 = 3.0;
/// Bytes a tokenised training token takes on disk (32-bit token ids): planning value.
pub const BYTES_PER_TOKEN: f64 = 4.0;

/// What the job asks of storage.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StorageNeed {
    /// Sustained read for the data loaders, GB/s (GPUs x the design's read per GPU).
    pub read_gbyte_s: f64,
    /// Write for a checkpoint within [`CHECKPOINT_WRITE_S`], GB/s.
    pub write_gbyte_s: f64,
    /// Capacity: checkpoints kept plus the tokenised data set, TB.
    pub capacity_tb: f64,
}

impl StorageNeed {
    /// A training job's storage: the data loaders' reads at `read_per_gpu` GB/s on each of `gpus` GPUs, one
    /// checkpoint of the whole training state (16 bytes per parameter) within [`CHECKPOINT_WRITE_S`], and room for
    /// [`CHECKPOINTS_KEPT`] checkpoints and the tokens at [`BYTES_PER_TOKEN`].
    pub fn training(parameters: f64, tokens: f64, gpus: usize, read_per_gpu: f64) -> Self {
        let checkpoint_bytes = crate::analysis::parallel::STATE_BYTES_PER_PARAMETER * parameters;
        Self {
            read_gbyte_s: gpus as f64 * read_per_gpu,
            write_gbyte_s: checkpoint_bytes / CHECKPOINT_WRITE_S / 1e9,
            capacity_tb: (CHECKPOINTS_KEPT * checkpoint_bytes + BYTES_PER_TOKEN * tokens) / 1e12,
        }
    }
}

/// Appliances that meet the need: the most of reads over the appliance's read rate, checkpoint write over its
/// write rate and capacity over its capacity, at least one. With the reasons, for the sizing's "why".
pub fn appliances_for(catalog: &Catalog, need: &StorageNeed) -> (usize, String) {
    let Some(PartKind::Storage(s)) = catalog.get(APPLIANCE).map(|p| &p.kind) else {
        return (0, "no storage appliance in the catalog".into());
    };
    let by = |need: f64, each: f64| {
        if each > 0.0 && need > 0.0 {
            (need / each).ceil() as usize
        } else {
            0
        }
    };
    let read = by(need.read_gbyte_s, s.read_gbyte_s);
    let write = by(need.write_gbyte_s, s.write_gbyte_s);
    let room = by(need.capacity_tb, s.capacity_tb);
    let n = read.max(write).max(room).max(1);
    (
        n,
        format!(
            "{n} {APPLIANCE} = the most of reads {:.0} GB/s / {} GB/s = {read}, checkpoint {:.1} GB/s ({:.0} s) / {} \
             GB/s = {write}, capacity {:.1} TB / {} TB = {room}",
            need.read_gbyte_s,
            s.read_gbyte_s,
            need.write_gbyte_s,
            CHECKPOINT_WRITE_S,
            s.write_gbyte_s,
            need.capacity_tb,
            s.capacity_tb
        ),
    )
}

/// Every port of every storage NIC installed in the design's servers, in device order.
fn storage_ports(design: &Design) -> Vec<PortRef> {
    let mut out = Vec::new();
    for (id, d) in &design.devices {
        let Some(PartKind::Server(spec)) = design.parts.get(&d.part).map(|p| &p.kind) else {
            continue;
        };
        for (slot, nic) in &d.nics {
            let storage = spec
                .nic_slots
                .get(usize::from(*slot))
                .is_some_and(|s| s.role == NicRole::Storage);
            let Some(PartKind::Nic(n)) = design.parts.get(nic).map(|p| &p.kind) else {
                continue;
            };
            if storage && n.protocols.contains(&Protocol::InfiniBand) {
                for k in 1..=n.ports {
                    out.push(PortRef::new(*id, format!("nic{slot}/p{k}")));
                }
            }
        }
    }
    out
}

/// Adds `appliances` storage appliances and the storage fabric that cables every storage NIC port of the design's
/// servers to them: two leaves of [`LEAF`] with every server and appliance on both while they hold every port, else
/// leaves with half their ports down (ports round robin, so each device spans several leaves) and half up to the
/// Clos above them. Racks of
/// 16 switches and of 10 appliances, budgeted at what they hold plus 10%. Nothing when the servers have no storage
/// NIC (PCIe servers carry compute NICs only).
pub fn add_storage(
    design: &mut Design,
    catalog: &Catalog,
    appliances: usize,
) -> Result<(), TemplateError> {
    let server_ports = storage_ports(design);
    // Without storage NICs there is no storage network to put appliances on.
    if server_ports.is_empty() {
        return Ok(());
    }
    let (app_ports, leaf_ports) = match (
        catalog.get(APPLIANCE).map(|p| &p.kind),
        catalog.get(LEAF).map(|p| &p.kind),
    ) {
        (Some(PartKind::Storage(a)), Some(PartKind::Switch(s))) => {
            (usize::from(a.ports), usize::from(s.ports))
        }
        _ => return Ok(()),
    };
    let down_total = server_ports.len() + appliances * app_ports;
    let half = (leaf_ports / 2).max(1);
    // Every port round robin over the leaves, so each server's and each appliance's ports land on different leaves
    // (no leaf is a single point of failure). While two leaves hold every port, every server and appliance is on
    // both and no uplink is needed (the SuperPOD's storage leaves, each DGX on all of them); past that, leaves of
    // half their ports down under the Clos.
    let dual = down_total <= 2 * leaf_ports;
    let leaves = if dual { 2 } else { down_total.div_ceil(half) };
    let mut down: Vec<Vec<PortRef>> = vec![Vec::new(); leaves];
    let mut slot = u16::try_from(design.racks.len()).unwrap_or(u16::MAX);
    let mut b = Builder::new(design, catalog);
    let mut racks: Vec<RackId> = Vec::new();
    let mut app_rack = RackId(0);
    let mut app_ends: Vec<PortRef> = Vec::with_capacity(appliances * app_ports);
    for a in 0..appliances {
        if a % 10 == 0 {
            app_rack = open_rack(
                &mut b,
                &mut racks,
                &mut slot,
                &format!("ST{:03}", a / 10 + 1),
            )?;
        }
        let dev = b.add_device(
            APPLIANCE,
            &format!("storage-{:04}", a + 1),
            app_rack,
            1 + 4 * (a % 10) as u16,
        )?;
        app_ends.extend((1..=app_ports).map(|k| PortRef::new(dev, format!("p{k}"))));
    }
    for (i, end) in app_ends.into_iter().chain(server_ports).enumerate() {
        if let Some(v) = down.get_mut(i % leaves) {
            v.push(end);
        }
    }
    let leaf_up: Vec<usize> = if dual {
        Vec::new()
    } else {
        down.iter().map(Vec::len).collect()
    };
    let plan = clos(leaf_ports, half, half, &leaf_up);
    let total = leaves + plan.uppers.len();
    let mut switches: Vec<DeviceId> = Vec::with_capacity(total);
    let mut sw_rack = RackId(0);
    for i in 0..total {
        if i % 16 == 0 {
            sw_rack = open_rack(
                &mut b,
                &mut racks,
                &mut slot,
                &format!("SN{:03}", i / 16 + 1),
            )?;
        }
        let name = match i.checked_sub(leaves).and_then(|u| plan.uppers.get(u)) {
            Some(u) => format!("storage-{}", u.name),
            None => format!("sleaf-{:04}", i + 1),
        };
        switches.push(b.add_device(LEAF, &name, sw_rack, 1 + 2 * (i % 16) as u16)?);
    }
    let mut next_port = vec![1usize; switches.len()];
    let mut take = |sw: usize| -> Option<(DeviceId, String)> {
        let p = next_port.get_mut(sw)?;
        let name = format!("p{p}");
        *p += 1;
        Some((*switches.get(sw)?, name))
    };
    for (i, ports) in down.into_iter().enumerate() {
        for end in ports {
            let Some((sw, port)) = take(i) else { continue };
            let z = PortRef::new(sw, port);
            let medium = b.design.common_medium(&end, &z).ok();
            let cable = match medium.map(|m| m.gbps()) {
                Some(g) if g <= 200.0 => "ib-hdr-aoc",
                _ => "ib-ndr-optic",
            };
            wire(&mut b, end, z, 15.0, cable)?;
        }
    }
    for &(lower, upper) in &plan.links {
        let (Some((l, lp)), Some((u, up))) = (take(lower), take(upper)) else {
            continue;
        };
        wire(
            &mut b,
            PortRef::new(l, lp),
            PortRef::new(u, up),
            30.0,
            "ib-ndr-optic",
        )?;
    }
    // The storage fabric's cables follow the floor as the compute fabric's do.
    super::wiring::follow_floor_all(&mut b)?;
    // Budgets from what each new rack holds once cabled, plus 10% (one pass over devices and links).
    let loads = super::clos::rack_loads_w(b.design, racks.iter().copied());
    for (r, (devices_w, optics_w, _)) in loads {
        let load = devices_w + optics_w;
        b.update_rack(r, |rack| {
            rack.power_budget_w = (load * 1.1 / 1000.0).ceil() * 1000.0;
        })?;
    }
    Ok(())
}

/// Opens the next 42U rack of the storage row at floor slot `slot` (16 to a row), named `name`, and counts it.
fn open_rack(
    b: &mut Builder<'_>,
    racks: &mut Vec<RackId>,
    slot: &mut u16,
    name: &str,
) -> Result<RackId, crate::edit::EditError> {
    let (r, _) = b.add_rack("rack-42u", name, *slot / 16, *slot % 16)?;
    *slot = slot.saturating_add(1);
    racks.push(r);
    Ok(r)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // the built-in catalog is part of the build
    use super::*;

    /// Appliances for a 70e9-parameter job on 2e12 tokens over 1,024 GPUs at 1 GB/s each, by hand: reads 1,024 GB/s
    /// / 90 = 11.4, 12; checkpoint 16 x 70e9 = 1.12e12 bytes in 300 s = 3.73 GB/s / 65 = 1; capacity 3 x 1.12 TB +
    /// 4 x 2e12 bytes = 3.36 + 8 = 11.36 TB / 250 = 1. Reads set it: 12.
    #[test]
    fn appliances_follow_reads_checkpoint_and_capacity() {
        let c = Catalog::builtin().unwrap();
        let need = StorageNeed::training(70e9, 2e12, 1024, 1.0);
        assert!((need.write_gbyte_s - 1.12e12 / 300.0 / 1e9).abs() < 1e-9);
        assert!((need.capacity_tb - 11.36).abs() < 1e-9);
        let (n, why) = appliances_for(&c, &need);
        assert_eq!(n, 12, "{why}");
        // A 1e12-parameter model on 8 GPUs: the checkpoint, 16e12 bytes in 300 s = 53.3 GB/s, needs 1; capacity
        // 3 x 16 TB + 4 x 30e12 bytes = 48 + 120 = 168 TB, 1; reads 8 GB/s, 1.
        let (n, _) = appliances_for(&c, &StorageNeed::training(1e12, 30e12, 8, 1.0));
        assert_eq!(n, 1);
    }
}
