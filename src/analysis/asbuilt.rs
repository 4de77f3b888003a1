//! As built against as designed: the cables a fabric reports (`io::fabric`) compared with the design's, so a
//! technician can fix what differs (docs/analysis.md, "As built").
//!
//! Discovered nodes are matched to the design's by description: a switch's name (or the `NAME` of a managed
//! switch's `MF0;NAME:MODEL/U1`), an HCA's host name with its `mlx5_N` (or `HCA-N+1`) as the NIC slot (storage:
//! its one HCA); a mapping file renames the rest first (`io::fabric::NameMap`). LLDP neighbours ([`from_lldp`]) and
//! NetBox cables ([`from_netbox`]) become a discovered fabric named as the design is.
//! Then each cable falls in one class:
//! - **slow**: both ends as designed, at a lower speed or fewer lanes than the design's medium;
//! - **miswired**: a designed cable not found, and a found one that shares exactly one end with it (the same port
//!   on one side, another port or device on the other), paired one to one;
//! - **missing**: a designed cable not found and not paired;
//! - **extra**: a found cable not designed and not paired.
//!
//! Nodes found that match no design device are listed as unknown, design devices on the InfiniBand fabric that
//! were not found as missing. One pass over each side's cables, with hash maps by end.

use crate::catalog::PartKind;
use crate::io::fabric::{Discovered, End, LldpNeighbour, SPEEDS};
use crate::model::{Design, DeviceId, LinkId, Medium};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// What differs between a design and its fabric as discovered.
#[derive(Debug, Clone, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FabricDiff {
    /// Designed cables not found.
    pub missing: Vec<CableRow>,
    /// Cables found that the design does not have.
    pub extra: Vec<CableRow>,
    /// Designed cables found with one end elsewhere: the design's cable and the one found, paired.
    pub miswired: Vec<Miswired>,
    /// Designed cables found at a lower speed or width.
    pub slow: Vec<Slow>,
    /// Nodes found that match no device of the design, by description.
    pub unknown_devices: Vec<String>,
    /// Devices of the design's InfiniBand fabric that were not found.
    pub missing_devices: Vec<String>,
    /// Cables that matched as designed.
    pub matched: usize,
}

/// One difference, as a table row: its class, the design's link (if it is one), both ends, the designed rate and
/// what was found.
#[derive(Debug, Clone, PartialEq)]
pub struct DiffRow {
    /// "missing", "miswired", "slow", "extra", "unknown device", "device not found".
    pub class: &'static str,
    /// The design's link id, for a designed cable.
    pub link: Option<LinkId>,
    /// One end (or the device, for a device row).
    pub a: String,
    /// The other end.
    pub b: String,
    /// As designed: the rate, or for a miswired cable its designed ends.
    pub designed: String,
    /// As found.
    pub found: String,
}

impl FabricDiff {
    /// Every difference as a row, by class in the order a technician works: missing, miswired, slow, extra,
    /// unknown devices, devices not found.
    pub fn rows(&self) -> Vec<DiffRow> {
        let mut out = Vec::new();
        for r in &self.missing {
            out.push(DiffRow {
                class: "missing",
                link: r.link,
                a: r.a.clone(),
                b: r.b.clone(),
                designed: r.rate.clone(),
                found: "not found".into(),
            });
        }
        for m in &self.miswired {
            out.push(DiffRow {
                class: "miswired",
                link: m.designed.link,
                a: m.designed.a.clone(),
                b: m.designed.b.clone(),
                designed: m.designed.rate.clone(),
                found: format!("{} <-> {}", m.found.a, m.found.b),
            });
        }
        for s in &self.slow {
            out.push(DiffRow {
                class: "slow",
                link: s.cable.link,
                a: s.cable.a.clone(),
                b: s.cable.b.clone(),
                designed: s.cable.rate.clone(),
                found: s.found.clone(),
            });
        }
        for r in &self.extra {
            out.push(DiffRow {
                class: "extra",
                link: None,
                a: r.a.clone(),
                b: r.b.clone(),
                designed: "not designed".into(),
                found: r.rate.clone(),
            });
        }
        for (class, list) in [
            ("unknown device", &self.unknown_devices),
            ("device not found", &self.missing_devices),
        ] {
            for n in list {
                out.push(DiffRow {
                    class,
                    link: None,
                    a: n.clone(),
                    b: String::new(),
                    designed: String::new(),
                    found: String::new(),
                });
            }
        }
        out
    }

    /// The counts in one line, as the command line, the app's window and the HTML page give them: "2,644 cables as
    /// designed; 1 missing, 0 miswired, 0 slow, 0 extra; 0 unknown devices, 0 devices not found".
    pub fn summary(&self) -> String {
        format!(
            "{} cables as designed; {} missing, {} miswired, {} slow, {} extra; {} unknown devices, {} devices not found",
            self.matched,
            self.missing.len(),
            self.miswired.len(),
            self.slow.len(),
            self.extra.len(),
            self.unknown_devices.len(),
            self.missing_devices.len()
        )
    }

    /// Whether anything differs.
    pub fn differs(&self) -> bool {
        !(self.missing.is_empty()
            && self.extra.is_empty()
            && self.miswired.is_empty()
            && self.slow.is_empty()
            && self.unknown_devices.is_empty()
            && self.missing_devices.is_empty())
    }
}

/// A cable by its two ends, as the cabling plan names them.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CableRow {
    /// The design's link, when it is one.
    pub link: Option<LinkId>,
    /// One end: "rack R01 U3 dgx-01 nic0/p1" (or the discovered node's description and port).
    pub a: String,
    /// The other end.
    pub b: String,
    /// The rate, "4xNDR".
    pub rate: String,
}

/// A designed cable and the cable found in its place.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Miswired {
    /// As designed.
    pub designed: CableRow,
    /// As found.
    pub found: CableRow,
}

/// A cable found at a lower rate than designed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Slow {
    /// The cable, with the designed rate.
    pub cable: CableRow,
    /// The rate found, "4xHDR".
    pub found: String,
}

/// NVIDIA's (Mellanox's) OUI in the top bytes, as real GUIDs carry it; the low bytes number the design's nodes.
const GUID_BASE: u64 = 0x0002_c903_0000_0000;

/// A node of the exported fabric: a switch, or one HCA of a device (the NIC slot; 0 for storage).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FabricNode {
    /// A switch.
    Switch(DeviceId),
    /// An HCA: the device and its NIC slot.
    Hca(DeviceId, u16),
}

impl FabricNode {
    /// The quoted GUID name ibnetdiscover gives the node.
    pub fn guid(self) -> String {
        match self {
            FabricNode::Switch(d) => format!("S-{:016x}", GUID_BASE + d.0 * 256),
            FabricNode::Hca(d, slot) => {
                format!("H-{:016x}", GUID_BASE + d.0 * 256 + u64::from(slot) + 1)
            }
        }
    }
}

/// The node and port number a design port is on the fabric: a switch's `p12` is port 12 of the switch, a server's
/// `nic3/p1` port 1 of HCA `mlx5_3`, a storage appliance's `p2` port 2 of its one HCA.
pub fn fabric_port(design: &Design, device: DeviceId, port: &str) -> Option<(FabricNode, u16)> {
    let d = design.devices.get(&device)?;
    let kind = &design.parts.get(&d.part)?.kind;
    let number = |p: &str| p.strip_prefix('p')?.parse::<u16>().ok();
    match kind {
        PartKind::Switch(_) => Some((FabricNode::Switch(device), number(port)?)),
        PartKind::Server(_) => {
            let (slot, p) = port.strip_prefix("nic")?.split_once('/')?;
            Some((FabricNode::Hca(device, slot.parse().ok()?), number(p)?))
        }
        PartKind::Storage(_) => Some((FabricNode::Hca(device, 0), number(port)?)),
        _ => None,
    }
}

/// The node description ibnetdiscover shows: the device's name (quotes become apostrophes: the format has no
/// escape), with `mlx5_N` after an HCA's host name.
pub fn description(design: &Design, node: FabricNode) -> String {
    let name = |d: DeviceId| {
        design
            .devices
            .get(&d)
            .map_or_else(|| format!("device#{}", d.0), |x| x.name.replace('"', "'"))
    };
    match node {
        FabricNode::Switch(d) => name(d),
        FabricNode::Hca(d, slot) => format!("{} mlx5_{slot}", name(d)),
    }
}

/// A cable end on the design's fabric: its node and port.
type Key = (FabricNode, u16);
/// A cable by its two ends, the lower first.
type Pair = (Key, Key);

/// Which of the design's cables a comparison covers, and whether it compares rates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// InfiniBand, with rates (ibnetdiscover).
    InfiniBand,
    /// Ethernet, without rates (LLDP).
    Ethernet,
    /// InfiniBand and Ethernet, without rates (a NetBox cable list).
    Cabled,
}

/// Compares a design with its discovered fabric.
pub fn diff(design: &Design, found: &Discovered) -> FabricDiff {
    diff_on(design, found, Scope::InfiniBand)
}

/// Compares a design's Ethernet cables with what LLDP reports ([`from_lldp`]): as [`diff`], without rates (LLDP
/// does not say what a link trained at, so nothing is reported slow).
pub fn diff_ethernet(design: &Design, found: &Discovered) -> FabricDiff {
    diff_on(design, found, Scope::Ethernet)
}

/// Compares a design's InfiniBand and Ethernet cables with a NetBox cable list ([`from_netbox`]): as [`diff`],
/// without rates (NetBox records the cable, not what it trained at).
pub fn diff_cabled(design: &Design, found: &Discovered) -> FabricDiff {
    diff_on(design, found, Scope::Cabled)
}

/// A NetBox cable list as a discovered fabric whose nodes are named as the design's are, as [`from_lldp`] does for
/// LLDP: each cable is its side A's neighbour on side B. An interface NetBox names as the part's NetBox device
/// type does (`P0.0`, `swp3`, from the part's `netbox.ports`) is read back as the Racksmith port behind it. Cables
/// between two design ports whose design link is not a network cable (NVLink, cabled PCIe) are left out, as the
/// comparison does not cover them.
pub fn from_netbox(design: &Design, cables: &[crate::io::fabric::NetboxCable]) -> Discovered {
    let by_name: HashMap<&str, DeviceId> = design
        .devices
        .iter()
        .map(|(id, d)| (d.name.as_str(), *id))
        .collect();
    // Per part, Racksmith port by NetBox interface name.
    let mut port_of: HashMap<(&crate::model::PartId, &str), &str> = HashMap::new();
    for (id, p) in &design.parts {
        if let Some(nb) = &p.netbox {
            for (ours, theirs) in &nb.ports {
                port_of.insert((id, theirs.as_str()), ours.as_str());
            }
        }
    }
    let ours = |device: &str, name: &'_ str| -> String {
        by_name
            .get(device)
            .and_then(|d| design.devices.get(d))
            .and_then(|d| port_of.get(&(&d.part, name)))
            .map_or_else(|| name.to_string(), |p| (*p).to_string())
    };
    // Ends of the links the comparison leaves out.
    let mut other: std::collections::HashSet<(DeviceId, &str)> = Default::default();
    for l in design.links.values() {
        if !matches!(l.medium, Medium::InfiniBand(_) | Medium::Ethernet(_)) {
            other.insert((l.a.device, l.a.port.as_str()));
            other.insert((l.b.device, l.b.port.as_str()));
        }
    }
    let mut reports: Vec<(String, Vec<LldpNeighbour>)> = Vec::with_capacity(cables.len());
    for c in cables {
        let (a_port, b_port) = (ours(&c.a_device, &c.a_name), ours(&c.b_device, &c.b_name));
        let left_out = |device: &str, port: &str| {
            by_name
                .get(device)
                .is_some_and(|d| other.contains(&(*d, port)))
        };
        if left_out(&c.a_device, &a_port) && left_out(&c.b_device, &b_port) {
            continue;
        }
        reports.push((
            c.a_device.clone(),
            vec![LldpNeighbour {
                local_port: a_port,
                remote_name: c.b_device.clone(),
                remote_port: b_port,
            }],
        ));
    }
    from_lldp(design, &reports)
}

/// The LLDP neighbours each device reports, as a discovered fabric whose nodes are named as the design's are:
/// `reports` holds, per file, the reporting device's name (the file's stem) and its neighbours. A local or remote
/// interface is a design port when named as one (`p12`, `nic0/p1`); else its trailing number N is a switch's
/// `pN`, a server's NIC slot N (port 1) or a storage appliance's port N + 1 (`eth0` is `p1`). Ports that name no
/// port the design could have are kept on the neighbour by name, so their cables count as extra.
pub fn from_lldp(design: &Design, reports: &[(String, Vec<LldpNeighbour>)]) -> Discovered {
    let by_name: HashMap<&str, DeviceId> = design
        .devices
        .iter()
        .map(|(id, d)| (d.name.as_str(), *id))
        .collect();
    let mut out = Discovered::default();
    let mut seen: BTreeSet<(End, End)> = BTreeSet::new();
    let end = |out: &mut Discovered, device: &str, port: &str| -> End {
        let node = by_name
            .get(device)
            .and_then(|d| lldp_port(design, *d, port));
        let (desc, number) = match node {
            Some((n, p)) => (description(design, n), p),
            // Not a port of the design: the neighbour by its own name, the port by its number if it has one.
            None => (
                device.to_string(),
                port.trim_start_matches(|c: char| !c.is_ascii_digit())
                    .parse()
                    .unwrap_or(0),
            ),
        };
        out.nodes
            .entry(desc.clone())
            .or_insert_with(|| crate::io::fabric::Node {
                guid: desc.clone(),
                switch: matches!(node, Some((FabricNode::Switch(_), _))),
                description: desc.clone(),
                line: 0,
            });
        (desc, number)
    };
    for (local, neighbours) in reports {
        for n in neighbours {
            let a = end(&mut out, local, &n.local_port);
            let b = end(&mut out, &n.remote_name, &n.remote_port);
            let (a, b) = if a <= b { (a, b) } else { (b, a) };
            if seen.insert((a.clone(), b.clone())) {
                out.cables.push(crate::io::fabric::Cable {
                    a,
                    b,
                    width: 0,
                    speed: String::new(),
                    line: 0,
                });
            }
        }
    }
    out
}

/// A reported interface name as a port of a design device (see [`from_lldp`]).
fn lldp_port(design: &Design, device: DeviceId, port: &str) -> Option<(FabricNode, u16)> {
    if let Some(p) = fabric_port(design, device, port) {
        return Some(p);
    }
    let digits = port.len() - port.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let n: u16 = port.get(port.len() - digits..)?.parse().ok()?;
    let kind = &design.parts.get(&design.devices.get(&device)?.part)?.kind;
    let name = match kind {
        PartKind::Switch(_) => format!("p{n}"),
        PartKind::Server(_) => format!("nic{n}/p1"),
        PartKind::Storage(_) => format!("p{}", n + 1),
        _ => return None,
    };
    fabric_port(design, device, &name)
}

/// The comparison, on the links the scope covers.
fn diff_on(design: &Design, found: &Discovered, scope: Scope) -> FabricDiff {
    let ib = scope == Scope::InfiniBand;
    // Discovered GUID -> design node, by description.
    let mut by_desc: HashMap<String, FabricNode> = HashMap::new();
    let mut designed: BTreeMap<Pair, (LinkId, String)> = BTreeMap::new();
    for (id, l) in &design.links {
        let rate = match (l.medium, scope) {
            (Medium::InfiniBand(rate), Scope::InfiniBand | Scope::Cabled) => {
                format!("4x{}", speed_name(rate))
            }
            (Medium::Ethernet(gbps), Scope::Ethernet | Scope::Cabled) => format!("{gbps}G"),
            _ => continue,
        };
        let (Some(a), Some(b)) = (
            fabric_port(design, l.a.device, &l.a.port),
            fabric_port(design, l.b.device, &l.b.port),
        ) else {
            continue;
        };
        for n in [a.0, b.0] {
            by_desc.insert(description(design, n), n);
        }
        designed.insert(order(a, b), (*id, rate));
    }
    let mut out = FabricDiff::default();
    let mut node_of: HashMap<&str, FabricNode> = HashMap::new();
    let mut seen_nodes: BTreeSet<FabricNode> = BTreeSet::new();
    for (guid, n) in &found.nodes {
        match by_desc.get(&match_name(&n.description, n.switch)) {
            Some(node) => {
                node_of.insert(guid.as_str(), *node);
                seen_nodes.insert(*node);
            }
            None => out.unknown_devices.push(n.description.clone()),
        }
    }
    // Found cables on design nodes; the rest (an end on an unknown node) are extra as they stand.
    let mut found_keys: BTreeMap<Pair, String> = BTreeMap::new();
    for c in &found.cables {
        let rate = match scope {
            Scope::InfiniBand if c.width == 0 || c.speed.is_empty() => "rate unknown".to_string(),
            Scope::InfiniBand => format!("{}x{}", c.width, c.speed),
            Scope::Ethernet => "as reported by LLDP".to_string(),
            Scope::Cabled => "as recorded in NetBox".to_string(),
        };
        let key = |e: &End| node_of.get(e.0.as_str()).map(|n| (*n, e.1));
        match (key(&c.a), key(&c.b)) {
            (Some(a), Some(b)) => {
                found_keys.insert(order(a, b), rate);
            }
            _ => out.extra.push(CableRow {
                link: None,
                a: found_end(found, &c.a),
                b: found_end(found, &c.b),
                rate,
            }),
        }
    }
    let row = |(a, b): &Pair, link: Option<LinkId>, rate: &str| CableRow {
        link,
        a: design_end(design, *a),
        b: design_end(design, *b),
        rate: rate.to_string(),
    };
    let mut unmatched_designed: Vec<(&Pair, &(LinkId, String))> = Vec::new();
    for (k, v) in &designed {
        let (id, rate) = v;
        match found_keys.remove(k) {
            Some(got) => {
                if ib && slower(&got, rate) {
                    out.slow.push(Slow {
                        cable: row(k, Some(*id), rate),
                        found: got,
                    });
                } else {
                    out.matched += 1;
                }
            }
            None => unmatched_designed.push((k, v)),
        }
    }
    // Found cables not designed, by each end: a designed cable missing one of them pairs with it.
    let mut by_end: HashMap<Key, Vec<Pair>> = HashMap::new();
    for k in found_keys.keys() {
        by_end.entry(k.0).or_default().push(*k);
        by_end.entry(k.1).or_default().push(*k);
    }
    let mut paired: BTreeSet<Pair> = BTreeSet::new();
    for (k, (id, rate)) in unmatched_designed {
        let partner = [k.0, k.1]
            .iter()
            .filter_map(|end| by_end.get(end))
            .flatten()
            .find(|f| !paired.contains(*f))
            .copied();
        match partner {
            Some(f) => {
                paired.insert(f);
                out.miswired.push(Miswired {
                    designed: row(k, Some(*id), rate),
                    found: row(&f, None, found_keys.get(&f).map_or("", String::as_str)),
                });
            }
            None => out.missing.push(row(k, Some(*id), rate)),
        }
    }
    for (k, rate) in &found_keys {
        if !paired.contains(k) {
            out.extra.push(row(k, None, rate));
        }
    }
    // A node not found is listed unless a cable already reported missing explains it: an HCA whose only cable
    // is missing cannot be discovered, and saying so twice would send a technician looking for two faults.
    let mut explained: BTreeSet<FabricNode> = BTreeSet::new();
    for (k, _) in designed
        .iter()
        .filter(|(_, (id, _))| out.missing.iter().any(|m| m.link == Some(*id)))
    {
        explained.insert(k.0.0);
        explained.insert(k.1.0);
    }
    let mut missing_devices: BTreeSet<String> = BTreeSet::new();
    for n in by_desc.values() {
        if !seen_nodes.contains(n) && !explained.contains(n) {
            missing_devices.insert(description(design, *n));
        }
    }
    out.missing_devices = missing_devices.into_iter().collect();
    out
}

/// The design name a discovered description stands for: a managed switch's `MF0;NAME:MODEL/U1` gives NAME; an
/// HCA's `HOST HCA-N` (the name some drivers give, counting from 1) is `HOST mlx5_{N-1}`.
pub fn match_name(description: &str, switch: bool) -> String {
    if switch && let Some(rest) = description.strip_prefix("MF0;") {
        return rest.split(':').next().unwrap_or(rest).to_string();
    }
    if !switch
        && let Some((host, adapter)) = description.rsplit_once(' ')
        && let Some(n) = adapter
            .strip_prefix("HCA-")
            .and_then(|n| n.parse::<u16>().ok())
        && n >= 1
    {
        return format!("{host} mlx5_{}", n - 1);
    }
    description.to_string()
}

/// An InfiniBand rate's speed as ibnetdiscover names it: `NDR`.
pub fn speed_name(rate: crate::model::IbRate) -> &'static str {
    match rate {
        crate::model::IbRate::Edr => "EDR",
        crate::model::IbRate::Hdr => "HDR",
        crate::model::IbRate::Ndr => "NDR",
        crate::model::IbRate::Xdr => "XDR",
    }
}

/// Whether rate `got` ("4xHDR") is below `want` ("4xNDR"): a slower speed, or fewer lanes. A rate the fabric did
/// not report is never slower.
fn slower(got: &str, want: &str) -> bool {
    let parse = |r: &str| {
        let (w, s) = r.split_once('x')?;
        Some((w.parse::<u8>().ok()?, SPEEDS.iter().position(|x| *x == s)?))
    };
    match (parse(got), parse(want)) {
        (Some((gw, gs)), Some((ww, ws))) => gs < ws || gw < ww,
        _ => false,
    }
}

fn order(a: Key, b: Key) -> Pair {
    if a <= b { (a, b) } else { (b, a) }
}

/// "rack R01 U3 dgx-01 nic0/p1": a design end as the cabling plan names it.
fn design_end(design: &Design, (node, port): Key) -> String {
    let (device, name) = match node {
        FabricNode::Switch(d) => (d, format!("p{port}")),
        FabricNode::Hca(d, slot) => {
            let storage = design
                .devices
                .get(&d)
                .and_then(|x| design.parts.get(&x.part))
                .is_some_and(|p| matches!(p.kind, PartKind::Storage(_)));
            (
                d,
                if storage {
                    format!("p{port}")
                } else {
                    format!("nic{slot}/p{port}")
                },
            )
        }
    };
    match design.devices.get(&device) {
        Some(d) => {
            let rack = design.racks.get(&d.rack).map_or("?", |r| r.name.as_str());
            format!("rack {rack} U{} {} {name}", d.position_u, d.name)
        }
        None => format!("device#{} {name}", device.0),
    }
}

/// A discovered end by its node's description and port.
fn found_end(found: &Discovered, (guid, port): &End) -> String {
    let desc = found
        .nodes
        .get(guid)
        .map_or(guid.as_str(), |n| n.description.as_str());
    format!("{desc} port {port}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_compare_by_speed_then_lanes() {
        assert!(slower("4xHDR", "4xNDR"));
        assert!(slower("2xNDR", "4xNDR"));
        assert!(!slower("4xNDR", "4xNDR"));
        assert!(!slower("4xXDR", "4xNDR"));
        assert_eq!(match_name("MF0;leaf-01:MQM9700/U1", true), "leaf-01");
        assert_eq!(match_name("dgx-01 mlx5_0", false), "dgx-01 mlx5_0");
        assert_eq!(match_name("node018 HCA-1", false), "node018 mlx5_0");
        assert_eq!(
            match_name("a06-p1-dgx-02-c01 HCA-6", false),
            "a06-p1-dgx-02-c01 mlx5_5"
        );
        assert!(!slower("rate unknown", "4xNDR"));
    }
}
