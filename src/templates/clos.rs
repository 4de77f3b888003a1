//! The folded Clos behind the leaf-spine, NVL72 and inference-row templates: how many leaves, spines and upper
//! tiers a number of servers needs at an oversubscription ([`clos`]), and the generator that lays them out in racks
//! with power budgets and cables them (`leaf_spine`), with in-row CDUs where the racks need liquid cooling.

use super::{Opts, TemplateError, gpu_models_allowed, gpu_part, server_for};
use crate::catalog::{Catalog, NicRole, PartKind, ServerSpec};
use crate::edit::{Builder, EditError};
use crate::model::{Design, DeviceId, Params, PortRef, RackId};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Fabric {
    InfiniBand,
    Roce,
}

pub(super) struct FabricSpec {
    pub(super) servers: usize,
    pub(super) gpu: String,
    pub(super) fabric: Fabric,
    pub(super) oversubscription: f64,
    pub(super) rails: Option<usize>,
    /// Sizing's fabric, in proportion to the servers ([`compact_rails`]): one leaf without uplinks while every
    /// NIC fits on it, else the rail count (a divisor of the NICs per server) that needs the fewest leaves.
    pub(super) compact: bool,
}

/// The rail count that needs the fewest leaves for `servers` servers of `nics` compute NICs on leaves of `ports`
/// ports at R:1 (the most rails among the fewest leaves: rail-optimised as far as the leaf count allows).
/// Returns None when every NIC fits on one leaf, which then needs no uplinks and no spine.
fn compact_rails(servers: usize, nics: usize, ports: usize, r: f64, f: f64) -> Option<usize> {
    if servers * nics <= ports {
        return None;
    }
    let mut best: Option<(usize, usize)> = None;
    for k in (1..=nics).rev().filter(|k| nics.is_multiple_of(*k)) {
        let (per_leaf, _) = leaf_ports(ports, r, nics / k, f);
        if per_leaf == 0 {
            continue;
        }
        let leaves = servers.div_ceil(per_leaf) * k;
        if best.is_none_or(|(_, l)| leaves < l) {
            best = Some((k, leaves));
        }
    }
    best.map(|(k, _)| k)
}

/// Racks of at most 32U of servers and budgets provisioned at the servers' maximum draw plus 10%, rounded up to
/// the kW; network racks of 16 switches.
fn new_rack(
    b: &mut Builder<'_>,
    part: &str,
    name: String,
    slot: &mut u16,
) -> Result<RackId, EditError> {
    let (id, _) = b.add_rack(part, &name, *slot / 16, *slot % 16)?;
    *slot += 1;
    Ok(id)
}

fn set_budget(
    b: &mut Builder<'_>,
    rack: RackId,
    budget_w: f64,
    liquid: bool,
) -> Result<(), EditError> {
    b.update_rack(rack, |r| {
        r.power_budget_w = budget_w;
        if liquid {
            r.cooling = crate::model::Cooling::Liquid;
        }
    })
}

/// Leaf ports for R:1 in bandwidth: with P ports, servers bring `per_server` ports each at `f` times the switch
/// port rate (f = NIC rate / switch port rate), and uplinks run at the switch rate. R:1 means
/// used x f = R x uplinks. Returns (servers per leaf, uplinks) with used + uplinks <= P, preferring the largest
/// server count whose uplinks come out whole (exactly R:1), else the largest that fits.
fn leaf_ports(ports: usize, r: f64, per_server: usize, f: f64) -> (usize, usize) {
    let per_server = per_server.max(1);
    let mut fallback = (0, 0);
    for servers in (1..=ports / per_server).rev() {
        let used = servers * per_server;
        let exact = used as f64 * f / r;
        let up = exact.ceil() as usize;
        if used + up > ports {
            continue;
        }
        if (exact - exact.round()).abs() < 1e-9 {
            return (servers, up);
        }
        if fallback.0 == 0 {
            fallback = (servers, up);
        }
    }
    fallback
}

/// One switch above the leaves in a [`ClosPlan`].
#[derive(Debug, Clone, PartialEq)]
pub struct UpperSwitch {
    /// Tier: 2 for spines, 3 for cores, 4 above.
    pub tier: u8,
    /// The switch's device name in the generated design, e.g. "spine-03" or "core-00012".
    pub name: String,
}

/// The switches above a row of leaves and the cables between tiers, in the order they are cabled. Switch index
/// `i` is leaf `i` below the leaf count and upper switch `i - leaves` from there.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClosPlan {
    /// Switches above the leaves, tier by tier.
    pub uppers: Vec<UpperSwitch>,
    /// Cables (lower switch, upper switch), by switch index.
    pub links: Vec<(usize, usize)>,
}

/// Name of the switches of tier `t` (2 and up).
fn tier_name(t: u8) -> &'static str {
    match t {
        2 => "spine",
        3 => "core",
        _ => "super",
    }
}

/// The fewest top switches for one plane whose members have `uplinks` cables each, every member spreading its
/// cables round robin over them: the smallest count dividing `full` (a full member's uplinks, so a full member is
/// wired evenly to each) whose busiest switch, sum of ceil(u / c), has the ports. None when even one cable from
/// each member to each top switch needs more ports than a switch has.
fn top_switches(ports: usize, full: usize, uplinks: &[usize]) -> Option<usize> {
    let full = full.max(uplinks.iter().copied().max().unwrap_or(0));
    if full == 0 {
        return Some(0);
    }
    (1..=full)
        .filter(|c| full.is_multiple_of(*c))
        .find(|c| uplinks.iter().map(|u| u.div_ceil(*c)).sum::<usize>() <= ports)
}

/// A folded Clos above `leaf_up.len()` leaves with `leaf_up[i]` uplinks each, on switches of `ports` ports.
///
/// Two tiers when every leaf can reach every spine ([`top_switches`]). Otherwise the leaves form pods of
/// `leaf_block` (whole rail groups, at most half a switch's ports), each pod with one spine per leaf uplink; a
/// spine has one cable from each leaf of its pod and as many cables up, so it is never oversubscribed. Spine j of
/// every pod is plane j of the next tier, which is either a top tier for the plane (again [`top_switches`]) or,
/// when the plane has more members than a switch has ports, blocks of half a switch's ports under another
/// non-blocking tier. This is the shape of NVIDIA's DGX SuperPOD: pods of 4 SU (32 leaves, 32 spines) under 32
/// core planes.
pub fn clos(ports: usize, leaf_block: usize, full_up: usize, leaf_up: &[usize]) -> ClosPlan {
    let mut plan = ClosPlan::default();
    let leaves = leaf_up.len();
    if leaves <= 1 {
        return plan;
    }
    let half = (ports / 2).max(1);
    // (switch index, plane, uplinks) of the tier being joined, grouped by plane.
    let mut lower: Vec<(usize, usize, usize)> = leaf_up
        .iter()
        .enumerate()
        .map(|(i, u)| (i, 0, *u))
        .collect();
    let mut full = full_up;
    let mut tier = 2u8;
    loop {
        let planes: Vec<&[(usize, usize, usize)]> = lower.chunk_by(|a, b| a.1 == b.1).collect();
        let tops: Option<Vec<usize>> = planes
            .iter()
            .map(|pl| {
                let ups: Vec<usize> = pl.iter().map(|x| x.2).collect();
                top_switches(ports, full, &ups)
            })
            .collect();
        // A guard: six tiers of 64-port switches reach billions of leaves.
        let tops = match tops {
            Some(t) => t,
            None if tier >= 6 => planes.iter().map(|_| full).collect(),
            None => Vec::new(),
        };
        if !tops.is_empty() {
            let mut seq = 0usize;
            for (pl, c) in planes.iter().zip(tops) {
                let first = leaves + plan.uppers.len();
                for _ in 0..c {
                    seq += 1;
                    let name = if tier == 2 {
                        format!("spine-{seq:02}")
                    } else {
                        format!("{}-{seq:05}", tier_name(tier))
                    };
                    plan.uppers.push(UpperSwitch { tier, name });
                }
                if c == 0 {
                    continue;
                }
                for x in pl.iter() {
                    for j in 0..x.2 {
                        plan.links.push((x.0, first + j % c));
                    }
                }
            }
            return plan;
        }
        let block = if tier == 2 {
            leaf_block.clamp(1, half)
        } else {
            half
        };
        let mut next: Vec<(usize, usize, usize)> = Vec::new();
        let mut seq = 0usize;
        for pl in &planes {
            for blk in pl.chunks(block) {
                seq += 1;
                let m = blk.iter().map(|x| x.2).max().unwrap_or(0);
                let first = leaves + plan.uppers.len();
                for k in 0..m {
                    let down = blk.iter().filter(|x| x.2 > k).count();
                    plan.uppers.push(UpperSwitch {
                        tier,
                        name: format!("{}-p{seq:04}-{:02}", tier_name(tier), k + 1),
                    });
                    let plane = pl.first().map_or(0, |x| x.1);
                    next.push((first + k, plane * ports + k, down));
                }
                for x in blk {
                    for j in 0..x.2 {
                        plan.links.push((x.0, first + j));
                    }
                }
            }
        }
        next.sort_by_key(|x| x.1);
        full = next.iter().map(|x| x.2).max().unwrap_or(0);
        lower = next;
        tier += 1;
    }
}

/// The leaf-spine and inference-row templates: servers in racks, leaves sized for the oversubscription, the tiers
/// of the Clos plan above them, and the cabling. Built in order (parts, sizes, racks of servers, racks of
/// switches, cables, power), each phase reading the ids the phases before it handed out.
pub(super) fn leaf_spine(
    catalog: &Catalog,
    spec: &FabricSpec,
    opts: &Opts<'_>,
) -> Result<Design, TemplateError> {
    let parts = clos_parts(catalog, spec, opts)?;
    let size = clos_size(spec, &parts, opts)?;
    let mut design = Design {
        name: format!(
            "Leaf-spine: {} {} servers, {}, {}:1, {} rail(s)",
            spec.servers,
            spec.gpu,
            fabric_name(spec.fabric),
            spec.oversubscription,
            size.rails
        ),
        notes: leaf_spine_notes(&parts, &size),
        params: Params::default(),
        ..Design::default()
    };
    let mut b = Builder::new(&mut design, catalog);
    let mut slot = 0u16;
    let servers = place_servers(&mut b, spec, &parts, &mut slot)?;
    let switches = place_switches(&mut b, &parts, &size, &mut slot)?;
    cable_fabric(&mut b, &parts, &size, &servers, &switches)?;
    super::wiring::follow_floor_all(&mut b)?;
    budget_racks(&mut b, &mut slot)?;
    Ok(design)
}

/// The parts a leaf-spine build uses: the server for the GPU model and its compute NIC slots, the NIC (a PCIe
/// server's own, else the server's default) and its rate, and the switch and cables for the fabric at that rate.
struct ClosParts<'c> {
    server_part: &'static str,
    server: &'c ServerSpec,
    compute_slots: Vec<u16>,
    nic_part: Option<&'static str>,
    nic_gbps: f64,
    switch: &'static str,
    /// Server-to-leaf cables, at the NIC's rate.
    cable: &'static str,
    /// Switch-to-switch cables, at the switch's rate.
    trunk: &'static str,
    ports: usize,
    switch_gbps: f64,
}

/// Chooses the parts of a leaf-spine build ([`ClosParts`]) from the catalog, the GPU model and the fabric.
fn clos_parts<'c>(
    catalog: &'c Catalog,
    spec: &FabricSpec,
    opts: &Opts<'_>,
) -> Result<ClosParts<'c>, TemplateError> {
    let Some(server_part) = server_for(&spec.gpu) else {
        return Err(opts.bad("gpu", gpu_models_allowed()));
    };
    let pcie = server_part == "pcie-gpu-4u";
    let Some(PartKind::Server(server)) = catalog.get(server_part).map(|p| &p.kind) else {
        return Err(opts.bad(
            "gpu",
            format!("the catalog has no server part {server_part}"),
        ));
    };
    let compute_slots: Vec<u16> = server
        .nic_slots
        .iter()
        .enumerate()
        .filter(|(_, s)| s.role == NicRole::Compute)
        .map(|(i, _)| i as u16)
        .collect();
    // NIC and switch parts by fabric and NIC speed.
    let nic_part = if pcie { Some("cx7-ndr") } else { None };
    let nic_gbps = match nic_part.or_else(|| {
        server
            .default_nics
            .get(&NicRole::Compute)
            .map(|p| p.as_str())
    }) {
        Some(p) => match catalog.get(p).map(|p| &p.kind) {
            Some(PartKind::Nic(n)) => n.port_gbps,
            _ => 400.0,
        },
        None => 400.0,
    };
    // Server cables at the NIC's rate; switch-to-switch cables at the switch's rate.
    let (switch, cable, trunk) = match (spec.fabric, nic_gbps >= 400.0) {
        (Fabric::InfiniBand, true) => ("qm9700", "ib-ndr-optic", "ib-ndr-optic"),
        (Fabric::InfiniBand, false) => ("qm8700", "ib-hdr-aoc", "ib-hdr-aoc"),
        (Fabric::Roce, _) => ("sn5600", "eth-400g-optic", "eth-800g-optic"),
    };
    let ports = match catalog.get(switch).map(|p| &p.kind) {
        Some(PartKind::Switch(s)) => usize::from(s.ports),
        _ => 64,
    };
    let switch_gbps = match catalog.get(switch).map(|p| &p.kind) {
        Some(PartKind::Switch(s)) => s.port_gbps,
        _ => nic_gbps,
    };
    Ok(ClosParts {
        server_part,
        server,
        compute_slots,
        nic_part,
        nic_gbps,
        switch,
        cable,
        trunk,
        ports,
        switch_gbps,
    })
}

/// The sizes of a leaf-spine build: rails, servers per leaf group and uplinks per leaf, the leaves, and the Clos
/// plan of the tiers above them.
struct ClosSize {
    rails: usize,
    per_leaf: usize,
    up: usize,
    leaves: usize,
    leaf_block: usize,
    plan: ClosPlan,
}

/// Sizes a leaf-spine build ([`ClosSize`]): the rails (asked, or the compact choice), the leaves for the
/// oversubscription, and the tiers above them.
fn clos_size(
    spec: &FabricSpec,
    parts: &ClosParts<'_>,
    opts: &Opts<'_>,
) -> Result<ClosSize, TemplateError> {
    let (nics, ports) = (parts.compute_slots.len(), parts.ports);
    let mut rails = spec.rails.unwrap_or(nics);
    if rails == 0 || !nics.is_multiple_of(rails) {
        return Err(opts.bad(
            "rails",
            format!("a divisor of the {nics} compute NICs per server"),
        ));
    }
    let f = (parts.nic_gbps / parts.switch_gbps).min(1.0);
    let one_leaf = spec.compact
        && match compact_rails(spec.servers, nics, ports, spec.oversubscription, f) {
            Some(k) => {
                rails = k;
                false
            }
            None => {
                rails = 1;
                true
            }
        };
    let per_server = nics / rails;
    let (per_leaf, up) = if one_leaf {
        (spec.servers.max(1), 0)
    } else {
        leaf_ports(ports, spec.oversubscription, per_server, f)
    };
    if per_leaf == 0 {
        return Err(opts.bad("rails", "a leaf cannot hold one server's NICs of a rail"));
    }
    let groups = spec.servers.div_ceil(per_leaf);
    let leaves = groups * rails;
    // Each leaf gets the uplinks its used downlinks need for R:1 (a group that is not full needs fewer).
    let leaf_up: Vec<usize> = (0..leaves)
        .map(|leaf| {
            let group = leaf / rails;
            let in_group = spec.servers.saturating_sub(group * per_leaf).min(per_leaf);
            let need = ((in_group * per_server) as f64 * f / spec.oversubscription).ceil() as usize;
            need.min(up)
        })
        .collect();
    // Pods keep a leaf group's rails together: as many whole groups as half a spine's ports take.
    let half = (ports / 2).max(1);
    let leaf_block = if rails <= half {
        (half / rails) * rails
    } else {
        half
    };
    let plan = clos(ports, leaf_block, up, &leaf_up);
    Ok(ClosSize {
        rails,
        per_leaf,
        up,
        leaves,
        leaf_block,
        plan,
    })
}

/// The fabric's name in a design's title.
fn fabric_name(fabric: Fabric) -> &'static str {
    match fabric {
        Fabric::InfiniBand => "InfiniBand",
        Fabric::Roce => "RoCE",
    }
}

/// The notes of a leaf-spine design: what was built and the reference architecture its tiers follow.
fn leaf_spine_notes(parts: &ClosParts<'_>, size: &ClosSize) -> String {
    let (plan, ports, leaf_block) = (&size.plan, parts.ports, size.leaf_block);
    let tiers = plan.uppers.iter().map(|u| u.tier).max().unwrap_or(1);
    let above: Vec<usize> = (2..=tiers)
        .map(|t| plan.uppers.iter().filter(|u| u.tier == t).count())
        .collect();
    let reference = match tiers {
        0 | 1 => "one leaf group, no spine".to_string(),
        2 => "two tiers: every leaf wired evenly to every spine".to_string(),
        t => format!(
            "{t} tiers: two would need more than {ports} ports on a spine, so leaves form pods of {leaf_block} \
             (whole rail groups) under spines with half their ports down and half up, joined by further tiers in \
             planes as in NVIDIA's DGX SuperPOD reference architectures (pods of 4 SU under core planes)"
        ),
    };
    format!(
        "Generated by `racksmith new leaf-spine`: {} servers per leaf group, {} leaves ({}, {} uplinks each), {}; \
         {reference}. Racks budgeted at the servers' maximum draw plus 10%.",
        size.per_leaf,
        size.leaves,
        parts.switch,
        size.up,
        if above.is_empty() {
            "no switch above the leaves".to_string()
        } else {
            above
                .iter()
                .enumerate()
                .map(|(i, n)| format!("{n} {}", tier_name(i as u8 + 2)))
                .collect::<Vec<_>>()
                .join(", ")
        }
    )
}

/// Racks of servers: up to 32U of servers per 42U rack (a rack-scale system gets a 48U rack of its own), each
/// server filled with its GPUs and, on a PCIe server, its NICs. Returns the servers in order.
fn place_servers(
    b: &mut Builder<'_>,
    spec: &FabricSpec,
    parts: &ClosParts<'_>,
    slot: &mut u16,
) -> Result<Vec<DeviceId>, TemplateError> {
    let server_part = parts.server_part;
    let server_h = b.catalog.get(server_part).map_or(8, |p| p.height_u.max(1));
    let (rack_part, room) = if server_h > 32 {
        ("rack-48u", 46)
    } else {
        ("rack-42u", 32)
    };
    let per_rack = usize::from(room / server_h).max(1);
    let mut rack = RackId(0);
    let mut servers: Vec<DeviceId> = Vec::with_capacity(spec.servers);
    for n in 0..spec.servers {
        if n % per_rack == 0 {
            rack = new_rack(b, rack_part, format!("C{:03}", n / per_rack + 1), slot)?;
        }
        let u = 3 + server_h * (n % per_rack) as u16;
        let dev = b.add_device(server_part, &format!("gpu-{:04}", n + 1), rack, u)?;
        if let Some(gpu_slots) = b
            .design
            .devices
            .get(&dev)
            .map(|_| 0..parts.server.gpu_slots.len() as u16)
        {
            b.fill_gpus(dev, gpu_part(&spec.gpu), gpu_slots)?;
        }
        if let Some(nic) = parts.nic_part {
            b.fill_nics(dev, nic, parts.compute_slots.iter().copied())?;
        }
        servers.push(dev);
    }
    Ok(servers)
}

/// Racks of switches, leaves first then the tiers above: up to 16 a rack, fewer when 16 fully cabled switches
/// would draw more than an air-cooled rack sheds (about 40 kW, docs/analysis.md "Cooling"); a switch with every
/// port cabled carries half of each cable's optics. Returns the switches by index (leaves, then the plan's).
fn place_switches(
    b: &mut Builder<'_>,
    parts: &ClosParts<'_>,
    size: &ClosSize,
    slot: &mut u16,
) -> Result<Vec<DeviceId>, TemplateError> {
    let (catalog, leaves, rails) = (b.catalog, size.leaves, size.rails);
    let part_w = |id: &str| catalog.get(id).map_or(0.0, |p| p.power_w);
    let switch_w = part_w(parts.switch)
        + parts.ports as f64 * part_w(parts.cable).max(part_w(parts.trunk)) / 2.0;
    let per_switch_rack = if switch_w > 0.0 {
        ((AIR_RACK_W / switch_w).floor() as usize).clamp(1, 16)
    } else {
        16
    };
    let total_switches = leaves + size.plan.uppers.len();
    let mut rack = RackId(0);
    let mut switches: Vec<DeviceId> = Vec::with_capacity(total_switches);
    for i in 0..total_switches {
        if i % per_switch_rack == 0 {
            rack = new_rack(
                b,
                "rack-42u",
                format!("N{:03}", i / per_switch_rack + 1),
                slot,
            )?;
        }
        let name = match size.plan.uppers.get(i.wrapping_sub(leaves)) {
            Some(u) if i >= leaves => u.name.clone(),
            _ => format!("leaf-g{:02}-r{}", i / rails + 1, i % rails + 1),
        };
        let u = 1 + 2 * (i % per_switch_rack) as u16;
        switches.push(b.add_device(parts.switch, &name, rack, u)?);
    }
    Ok(switches)
}

/// Cables the fabric: each server's compute NICs to its group's leaves (rail i on leaf i), then the plan's
/// switch-to-switch links, each port taken in turn.
fn cable_fabric(
    b: &mut Builder<'_>,
    parts: &ClosParts<'_>,
    size: &ClosSize,
    servers: &[DeviceId],
    switches: &[DeviceId],
) -> Result<(), TemplateError> {
    let (rails, leaves) = (size.rails, size.leaves);
    let mut next_port = vec![1usize; switches.len()];
    let mut take = |sw: usize| -> Option<String> {
        let p = next_port.get_mut(sw)?;
        let name = format!("p{p}");
        *p += 1;
        Some(name)
    };
    for (n, dev) in servers.iter().enumerate() {
        let group = n / size.per_leaf;
        for (i, slot) in parts.compute_slots.iter().enumerate() {
            let leaf = group * rails + i % rails;
            let Some(port) = take(leaf) else { continue };
            let (Some(&leaf_dev), Some(nic_port)) =
                (switches.get(leaf), Some(format!("nic{slot}/p1")))
            else {
                continue;
            };
            wire(
                b,
                PortRef::new(*dev, nic_port),
                PortRef::new(leaf_dev, port),
                15.0,
                parts.cable,
            )?;
        }
    }
    for &(lower, upper) in &size.plan.links {
        let (Some(lp), Some(up_port)) = (take(lower), take(upper)) else {
            continue;
        };
        let (Some(&l), Some(&u)) = (switches.get(lower), switches.get(upper)) else {
            continue;
        };
        // Leaf to spine within a row of racks; higher tiers run between rows.
        let metres = if lower < leaves { 30.0 } else { 50.0 };
        wire(
            b,
            PortRef::new(l, lp),
            PortRef::new(u, up_port),
            metres,
            parts.trunk,
        )?;
    }
    Ok(())
}

/// Budgets from what each rack holds once cabled (the one rack power figure, analysis::power), plus 10%; racks
/// holding liquid-cooled systems are liquid-cooled, and in-row CDUs carry their heat.
fn budget_racks(b: &mut Builder<'_>, slot: &mut u16) -> Result<(), TemplateError> {
    let loads = rack_loads_w(b.design, b.design.racks.keys().copied());
    let mut liquid_w = 0.0;
    for (r, (devices_w, optics_w, liquid)) in loads {
        let load = devices_w + optics_w;
        if liquid {
            liquid_w += load;
        }
        set_budget(b, r, (load * 1.1 / 1000.0).ceil() * 1000.0, liquid)?;
    }
    add_cdus(b, slot, liquid_w / 1000.0)?;
    Ok(())
}

/// What each of `racks` holds once cabled, W: its devices at maximum draw (the one figure of analysis::power) and
/// the optics at each cable end in it (half an active cable's or a kit's; a fibre's share of its transceiver, as
/// analysis::power counts them); and whether it holds a liquid-cooled system. One pass over devices and links (the
/// rack power of each rack in turn would be racks x devices).
pub(super) fn rack_loads_w(
    design: &crate::model::Design,
    racks: impl Iterator<Item = RackId>,
) -> BTreeMap<RackId, (f64, f64, bool)> {
    let mut loads: BTreeMap<RackId, (f64, f64, bool)> =
        racks.map(|r| (r, (0.0, 0.0, false))).collect();
    for d in design.devices.values() {
        if let Some(load) = loads.get_mut(&d.rack) {
            load.0 += crate::analysis::power::device_power_weight(design, d).0;
            load.2 |= design.parts.get(&d.part).is_some_and(|p| p.liquid_cooled);
        }
    }
    let builds = crate::analysis::physical::builds(design);
    for (device, w) in crate::analysis::power::optics_by_device(design, &builds) {
        if let Some(load) = design
            .devices
            .get(&device)
            .and_then(|d| loads.get_mut(&d.rack))
        {
            load.1 += w;
        }
    }
    loads
}

/// Cables two ports the generator has allocated (each port once, so the taken-port check of
/// [`Builder::connect`], a scan of every cable, is not needed: it made a 1,024-server fabric quadratic), with the
/// fastest medium both ends speak. `tests/templates.rs` validates every generated design.
pub(super) fn wire(
    b: &mut Builder<'_>,
    a: PortRef,
    z: PortRef,
    length_m: f64,
    cable: &str,
) -> Result<(), EditError> {
    let medium = b.design.common_medium(&a, &z).map_err(EditError::Refused)?;
    if let Some(e) = b.ensure_part(cable)? {
        e.apply(b.design)?;
    }
    let id = crate::model::LinkId(b.design.alloc_id());
    b.design.links.insert(
        id,
        crate::model::Link {
            a,
            b: z,
            medium,
            length_m,
            cable: Some(crate::model::PartId::new(cable)),
            notes: String::new(),
            estimated_length: false,
            auto_cable: false,
        },
    );
    Ok(())
}

/// What an air-cooled switch rack may draw, W: under the ~45 kW air can remove from one rack (the cooling
/// finding's limit), with margin.
const AIR_RACK_W: f64 = 40_000.0;

/// In-row CDU for liquid-cooled rows, and its capacity, kW (the catalog's figure).
const INROW_CDU: &str = "cdu-inrow-1350kw";

/// In-row CDUs for `heat_kw` of liquid-cooled racks: enough to move the heat, plus one so a CDU can fail or be
/// serviced (N+1), each in a rack position of its own after the others.
fn add_cdus(b: &mut Builder<'_>, slot: &mut u16, heat_kw: f64) -> Result<(), EditError> {
    if heat_kw <= 0.0 {
        return Ok(());
    }
    let capacity_kw = match b.catalog.get(INROW_CDU).map(|p| &p.kind) {
        Some(PartKind::Cdu(c)) if c.capacity_kw > 0.0 => c.capacity_kw,
        _ => return Ok(()),
    };
    let n = (heat_kw / capacity_kw).ceil() as usize + 1;
    for i in 0..n {
        let rack = new_rack(b, "rack-42u", format!("CDU{:02}", i + 1), slot)?;
        b.add_device(INROW_CDU, &format!("cdu-{:02}", i + 1), rack, 1)?;
        let load = crate::analysis::power::rack_power_w(b.design, rack);
        set_budget(b, rack, (load * 1.1 / 1000.0).ceil() * 1000.0, false)?;
    }
    Ok(())
}
