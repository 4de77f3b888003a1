//! The figures of one part, kind by kind, and its PCIe tree.

use super::{
    Checker, Figure, FigureProblem, MAX_GPU_SLOTS, MAX_NIC_SLOTS, MAX_PORTS, MONEY, Prefix, Range,
};
use crate::model::part::{Part, PartKind};

/// Checks every figure of one part.
///
/// One function on purpose: one arm per kind of part listing its figures and their ranges, as docs/limits.md does.
pub fn check_part(id: &str, part: &Part, problems: &mut Vec<FigureProblem>) {
    let mut c = Checker {
        problems,
        prefix: Prefix::Text(format!("parts.\"{id}\".")),
        part: Some(id.to_string()),
    };
    // A part that computes, switches or stores draws power and costs money: 0 would make it free in every power
    // and cost figure. A part imported from NetBox may leave both at 0 (NetBox has no prices, and often no
    // draw): the import says so and its origin shows it; passive parts (cables, racks, PDUs, panels) may be 0.
    let powered = matches!(
        part.kind,
        PartKind::Gpu(_)
            | PartKind::Server(_)
            | PartKind::Nic(_)
            | PartKind::Switch(_)
            | PartKind::Storage(_)
    ) && part.netbox.is_none();
    let power = Range::closed(0.0, 500_000.0);
    c.num(
        "power_w",
        part.power_w,
        if powered {
            Range::above(0.0, 500_000.0)
        } else {
            power
        },
    );
    c.num("weight_kg", part.weight_kg, Range::closed(0.0, 10_000.0));
    c.num(
        "price_usd",
        part.price_usd,
        if powered {
            Range::above(0.0, 1e10)
        } else {
            MONEY
        },
    );
    if let Some(w) = part.lead_time_weeks {
        c.num("lead_time_weeks", w, Range::closed(0.0, 520.0));
    }
    c.num(
        "height_u",
        f64::from(part.height_u),
        Range::closed(0.0, 60.0),
    );
    if matches!(
        part.kind,
        PartKind::Server(_) | PartKind::Switch(_) | PartKind::Storage(_)
    ) {
        // Rack-mounted equipment takes at least one unit: a 0U server would mount anywhere, overlapping anything.
        c.num(
            "height_u",
            f64::from(part.height_u),
            Range::closed(1.0, 60.0),
        );
    }
    match &part.kind {
        PartKind::Gpu(g) => {
            // A GPU without memory or compute holds no model and does no work.
            c.num("memory_gb", g.memory_gb, Range::above(0.0, 1e5));
            c.num(
                "memory_bw_gbyte_s",
                g.memory_bw_gbyte_s,
                Range::above(0.0, 1e6),
            );
            c.num("nvlink_gbyte_s", g.nvlink_gbyte_s, Range::closed(0.0, 1e5));
            c.pcie("pcie", &g.pcie);
            c.num(
                "reference_network_gbps",
                g.reference_network_gbps,
                Range::closed(0.0, 1e5),
            );
            c.figure(
                "cloud_usd_per_hour",
                Figure::CloudUsdPerGpuHour,
                g.cloud_usd_per_hour,
            );
            c.num("bf16_tflops", g.bf16_tflops, Range::above(0.0, 1e6));
        }
        PartKind::Server(s) => {
            // Two sockets or more: traffic between them crosses UPI / Infinity Fabric, so its bandwidth is needed
            // (0 would make every cross-socket path infinitely oversubscribed).
            let sockets = if s.cpu_sockets >= 2 {
                Range::above(0.0, 1e5)
            } else {
                Range::closed(0.0, 1e5)
            };
            c.num("inter_socket_gbyte_s", s.inter_socket_gbyte_s, sockets);
            c.count("gpu_slots", s.gpu_slots.len(), MAX_GPU_SLOTS);
            c.count("nic_slots", s.nic_slots.len(), MAX_NIC_SLOTS);
            c.count("pcie_switches", s.pcie_switches.len(), MAX_GPU_SLOTS);
            for (i, sw) in s.pcie_switches.iter().enumerate() {
                if let Some(l) = &sw.uplink {
                    c.pcie(&format!("pcie_switches[{i}].uplink"), l);
                }
            }
            for (i, slot) in s.gpu_slots.iter().enumerate() {
                if let Some(l) = &slot.slot.link {
                    c.pcie(&format!("gpu_slots[{i}].link"), l);
                }
            }
            for (i, slot) in s.nic_slots.iter().enumerate() {
                if let Some(l) = &slot.slot.link {
                    c.pcie(&format!("nic_slots[{i}].link"), l);
                }
            }
            pcie_tree(&mut c, s);
            if let Some(n) = &s.nvlink {
                c.num(
                    "nvlink.switch_latency_ns",
                    n.switch_latency_ns,
                    Range::closed(0.0, 1e6),
                );
            }
        }
        PartKind::Nic(n) => {
            // A NIC or a switch without a port connects nothing.
            c.num(
                "ports",
                f64::from(n.ports),
                Range::closed(1.0, f64::from(MAX_PORTS)),
            );
            c.num("port_gbps", n.port_gbps, Range::above(0.0, 1e5));
            c.pcie("host", &n.host);
            c.num("latency_ns", n.latency_ns, Range::closed(0.0, 1e7));
        }
        PartKind::Switch(s) => {
            c.num(
                "ports",
                f64::from(s.ports),
                Range::closed(1.0, f64::from(MAX_PORTS)),
            );
            c.num("port_gbps", s.port_gbps, Range::above(0.0, 1e5));
            c.num("latency_ns", s.latency_ns, Range::closed(0.0, 1e7));
            c.num(
                "uplink_ports",
                f64::from(s.uplink_ports),
                Range::closed(0.0, f64::from(MAX_PORTS)),
            );
            c.num("uplink_gbps", s.uplink_gbps, Range::closed(0.0, 1e5));
            // 0: the cage's power class is not stated. OSFP's classes end at 30 W and more; 1 kW allows any.
            c.num("cage_power_w", s.cage_power_w, Range::closed(0.0, 1e3));
        }
        PartKind::Storage(s) => {
            c.num("read_gbyte_s", s.read_gbyte_s, Range::closed(0.0, 1e6));
            c.num("write_gbyte_s", s.write_gbyte_s, Range::closed(0.0, 1e6));
            c.num("capacity_tb", s.capacity_tb, Range::closed(0.0, 1e9));
            c.num(
                "ports",
                f64::from(s.ports),
                Range::closed(0.0, f64::from(MAX_PORTS)),
            );
            c.num("port_gbps", s.port_gbps, Range::closed(0.0, 1e5));
        }
        PartKind::Rack(r) => {
            c.num("units", f64::from(r.units), Range::closed(1.0, 60.0));
            c.num("power_budget_w", r.power_budget_w, Range::above(0.0, 1e6));
            c.num("max_weight_kg", r.max_weight_kg, Range::closed(0.0, 1e5));
        }
        PartKind::Cable(k) => {
            c.num("gbps", k.gbps, Range::above(0.0, 1e5));
            // Long-haul optics reach thousands of kilometres.
            c.num("max_length_m", k.max_length_m, Range::above(0.0, 1e7));
            for (i, s) in k.stock_lengths_m.iter().enumerate() {
                c.num(
                    &format!("stock_lengths_m[{i}]"),
                    *s,
                    Range::above(0.0, k.max_length_m.max(0.0)),
                );
            }
        }
        PartKind::Transceiver(t) => {
            c.num("ports", f64::from(t.ports), Range::closed(1.0, 2.0));
            c.num("lanes", f64::from(t.lanes), Range::closed(1.0, 16.0));
            c.num("lane_gbps", t.lane_gbps, Range::above(0.0, 1e4));
            c.num("reach_m", t.reach_m, Range::above(0.0, 1e7));
        }
        PartKind::Pdu(p) => {
            c.num("capacity_w", p.capacity_w, Range::closed(0.0, 1e6));
            c.num(
                "outlets",
                f64::from(p.outlets),
                Range::closed(0.0, f64::from(MAX_PORTS)),
            );
        }
        PartKind::Cdu(k) => {
            c.num("capacity_kw", k.capacity_kw, Range::above(0.0, 1e5));
            c.num("flow_l_min", k.flow_l_min, Range::above(0.0, 1e6));
        }
        PartKind::PatchPanel(p) => {
            c.num(
                "ports",
                f64::from(p.ports),
                Range::closed(0.0, f64::from(MAX_PORTS)),
            );
        }
    }
}

/// Deepest chain of PCIe switches under a CPU: the analysis climbs at most this many switches to a root port.
pub const MAX_PCIE_DEPTH: usize = 16;

/// A server's PCIe tree is a tree: its switches have distinct names, every parent (of a switch or a slot) is a CPU
/// (`cpu0`, `cpu1`, ...) or one of its switches, and climbing from any switch reaches a CPU within
/// [`MAX_PCIE_DEPTH`] switches, never coming back to itself. Checked once per part, in time proportional to its
/// switches (each switch's distance to its CPU is computed once and kept).
fn pcie_tree(c: &mut Checker<'_>, s: &crate::model::part::ServerSpec) {
    let is_cpu = |n: &str| {
        n.strip_prefix("cpu")
            .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
    };
    let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, sw) in s.pcie_switches.iter().enumerate() {
        if is_cpu(&sw.name) {
            tree_bad(
                c,
                &format!("pcie_switches[{i}].name"),
                format!(
                    "\"{}\" is the name of a CPU; a PCIe switch needs a name of its own",
                    sw.name
                ),
            );
        } else if index.insert(sw.name.as_str(), i).is_some() {
            tree_bad(
                c,
                &format!("pcie_switches[{i}].name"),
                format!(
                    "two PCIe switches are named \"{}\"; each needs a name of its own",
                    sw.name
                ),
            );
        }
    }
    let parent_ok = |p: &str| is_cpu(p) || index.contains_key(p);
    // Depth of each switch below its CPU, once known; None while unknown.
    let mut depth: Vec<Option<usize>> = vec![None; s.pcie_switches.len()];
    // Switches on the current climb (cleared after each, so the whole check stays linear).
    let mut on_path = vec![false; s.pcie_switches.len()];
    for start in 0..s.pcie_switches.len() {
        if depth.get(start).copied().flatten().is_some() {
            continue;
        }
        // Climb until a CPU, a switch of known depth, a switch already on this climb (a cycle) or a bad parent.
        let mut path: Vec<usize> = Vec::new();
        let mut at = start;
        let base = loop {
            if let Some(d) = depth.get(at).copied().flatten() {
                break Some(d);
            }
            if on_path.get(at).copied().unwrap_or(false) {
                let name = s.pcie_switches.get(at).map_or("", |w| w.name.as_str());
                tree_bad(
                    c,
                    &format!("pcie_switches[{at}].parent"),
                    format!(
                        "PCIe switch \"{name}\" sits below itself (its parents lead back to it): the PCIe tree \
                         must be a tree, each switch's parents ending at a CPU"
                    ),
                );
                break None;
            }
            if let Some(f) = on_path.get_mut(at) {
                *f = true;
            }
            path.push(at);
            let Some(sw) = s.pcie_switches.get(at) else {
                break None;
            };
            if is_cpu(&sw.parent) {
                break Some(0);
            }
            match index.get(sw.parent.as_str()) {
                Some(&up) => at = up,
                None => {
                    tree_bad(
                        c,
                        &format!("pcie_switches[{at}].parent"),
                        format!(
                            "\"{}\" is neither a CPU (cpu0, cpu1, ...) nor a PCIe switch of this server",
                            sw.parent
                        ),
                    );
                    break None;
                }
            }
        };
        // Every switch on the climb gets its depth (or a depth past the limit, so that it is not reported again).
        let mut d = base.unwrap_or(MAX_PCIE_DEPTH + 1);
        let mut reported = base.is_none();
        for &i in path.iter().rev() {
            d += 1;
            if d > MAX_PCIE_DEPTH && !reported {
                let name = s.pcie_switches.get(i).map_or("", |w| w.name.as_str());
                tree_bad(
                    c,
                    &format!("pcie_switches[{i}].parent"),
                    format!(
                        "PCIe switch \"{name}\" is {d} switches below its CPU; the limit is {MAX_PCIE_DEPTH} \
                         (docs/limits.md)"
                    ),
                );
                reported = true;
            }
            if let Some(x) = depth.get_mut(i) {
                *x = Some(d);
            }
            if let Some(f) = on_path.get_mut(i) {
                *f = false;
            }
        }
    }
    for (what, slots) in [
        (
            "gpu_slots",
            s.gpu_slots.iter().map(|g| &g.slot).collect::<Vec<_>>(),
        ),
        ("nic_slots", s.nic_slots.iter().map(|n| &n.slot).collect()),
    ] {
        for (i, slot) in slots.iter().enumerate() {
            if !parent_ok(&slot.parent) {
                tree_bad(
                    c,
                    &format!("{what}[{i}].parent"),
                    format!(
                        "\"{}\" is neither a CPU (cpu0, cpu1, ...) nor a PCIe switch of this server",
                        slot.parent
                    ),
                );
            }
        }
    }
}

/// A PCIe tree problem, located in the file at the part's first `KEY:` for the field's last key (`parent`, `name`).
fn tree_bad(c: &mut Checker<'_>, field: &str, why: String) {
    let before = c.problems.len();
    c.bad(field, why);
    if let Some(p) = c.problems.get_mut(before) {
        p.name = field.rsplit('.').next().unwrap_or(field).to_string();
    }
}

/// The figures and the names of one part of a parts file, as a design's copy of it is checked.
pub fn check_part_all(id: &str, part: &Part, problems: &mut Vec<FigureProblem>) {
    check_part(id, part, problems);
    let mut names = Vec::new();
    crate::io::names::check_part(id, part, &mut names);
    problems.extend(names.into_iter().map(FigureProblem::from));
}
