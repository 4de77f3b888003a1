//! A design from a fabric as discovered (issue 43, "Import as a design"): the nodes and cables an `ibnetdiscover`
//! run, a folder of LLDP neighbours or a NetBox cable list report, turned into racks, devices from the catalog and
//! links, so an existing cluster can be analysed and extended (`racksmith import-fabric`, docs/exports.md).
//!
//! - A switch takes the catalog part its reported model names (`MF0;NAME:MQM9700/U1`, "Quantum-2" -> the QM9700);
//!   else a part named "Switch as discovered (model not reported)" copied from the catalog switch of its speed
//!   (QM9700 at NDR and above, QM8700 below, SN5600 for Ethernet), with the ports it needs.
//! - A host (an HCA's `HOST mlx5_N` or `HOST HCA-N`, or an LLDP or NetBox device that is not a switch) is a
//!   "Server as discovered" with the NIC slots it needs (`mlx5_N` is slot N) and no GPUs: the fabric does not say
//!   what is in it. Each NIC is the catalog's for its speed and port count (ConnectX-7 at NDR, ConnectX-6 below,
//!   ConnectX-7 2x200G for Ethernet).
//! - Racks: the mapping file's third column where it gives one; else one group per leaf switch (it and the hosts
//!   whose first cable reaches it) and one for the switches with no host, each packed into as many 42U racks as it
//!   needs.
//! - Links at the rate they trained at (InfiniBand below EDR, or unknown, is drawn as EDR, the slowest the model
//!   has, and said in the notes); LLDP and NetBox links at the fastest rate both ends offer.
//!
//! Every choice made without the fabric saying so is listed in the design's notes.

use crate::analysis::asbuilt::match_name;
use crate::catalog::Catalog;
use crate::edit::{Builder, EditError};
use crate::io::fabric::{Discovered, LldpNeighbour, NameMap, NetboxCable};
use crate::io::limits;
use crate::model::part::PartKind;
use crate::model::{Design, DeviceId, IbRate, Medium, PartId, PortRef, RackId};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Why a discovered fabric could not become a design.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The input names no device.
    #[error("nothing to import: the input names no switch or host")]
    Empty,
    /// The design would be past a limit the loader enforces.
    #[error("{what}: {count} is past the loader's limit of {limit}, so the design would not load")]
    TooLarge {
        /// What is counted.
        what: String,
        /// How many the input needs.
        count: usize,
        /// The limit.
        limit: usize,
    },
    /// A catalog part the importer relies on is missing.
    #[error("the catalog has no part \"{0}\"")]
    Catalog(String),
    /// Building the design failed.
    #[error(transparent)]
    Edit(#[from] EditError),
}

/// A device as discovered: its name, whether it is a switch, and what the fabric said about its model.
#[derive(Debug, Clone)]
struct Node {
    name: String,
    switch: bool,
    hint: String,
}

/// One end of a discovered cable: a node, a NIC slot (0 for a switch) and a port number.
type End = (usize, u16, u16);

/// A discovered cable, with its InfiniBand rate when the fabric reported one (None: pick the fastest common).
#[derive(Debug, Clone)]
struct Wire {
    a: End,
    b: End,
    medium: Option<Medium>,
}

/// A fabric as discovered, in the terms the builder needs.
#[derive(Debug, Default)]
struct Fabric {
    nodes: Vec<Node>,
    by_name: HashMap<String, usize>,
    wires: Vec<Wire>,
    notes: Vec<String>,
}

impl Fabric {
    /// The node of a name, added when new.
    fn node(&mut self, name: &str, switch: bool, hint: &str) -> usize {
        if let Some(&i) = self.by_name.get(name) {
            if let Some(n) = self.nodes.get_mut(i) {
                n.switch |= switch;
                if n.hint.is_empty() {
                    n.hint = hint.to_string();
                }
            }
            return i;
        }
        let i = self.nodes.len();
        self.nodes.push(Node {
            name: name.to_string(),
            switch,
            hint: hint.to_string(),
        });
        self.by_name.insert(name.to_string(), i);
        i
    }
}

/// The last 6 hex digits of a GUID, to name a node that has no name of its own.
fn guid_tail(guid: &str) -> &str {
    guid.get(guid.len().saturating_sub(6)..).unwrap_or(guid)
}

/// An InfiniBand speed as the model's rate; None for one it does not model (below EDR, or unknown).
fn ib_rate(speed: &str) -> Option<IbRate> {
    match speed {
        "EDR" => Some(IbRate::Edr),
        "HDR" => Some(IbRate::Hdr),
        "NDR" => Some(IbRate::Ndr),
        "XDR" => Some(IbRate::Xdr),
        _ => None,
    }
}

/// A design from an ibnetdiscover run (the map already applied to its descriptions, [`NameMap::apply`]); `map`
/// gives the racks.
pub fn from_ibnetdiscover(
    catalog: &Catalog,
    found: &Discovered,
    map: &NameMap,
) -> Result<Design, ImportError> {
    let mut f = Fabric::default();
    // Descriptions several nodes share ("SwitchIB Mellanox Technologies", an HCA's firmware default) name none.
    let mut shared: HashMap<&str, usize> = HashMap::new();
    for n in found.nodes.values() {
        *shared.entry(n.description.as_str()).or_default() += 1;
    }
    let unnamed = |d: &str| d.trim().is_empty() || shared.get(d).copied().unwrap_or(0) > 1;
    let mut at: HashMap<&str, (usize, u16)> = HashMap::new();
    let mut aggregation = 0usize;
    for n in found.nodes.values() {
        if n.switch {
            let name = match_name(&n.description, true);
            let name = if unnamed(&n.description) || name.trim().is_empty() {
                format!("switch-{}", guid_tail(&n.guid))
            } else {
                name
            };
            let i = f.node(&name, true, &n.description);
            at.insert(n.guid.as_str(), (i, 0));
            continue;
        }
        if n.description.contains("Aggregation Node") {
            // A switch's SHARP aggregation node: a port of the switch itself, not a device.
            aggregation += 1;
            continue;
        }
        let named = match_name(&n.description, false);
        let (host, slot) = match named.rsplit_once(" mlx5_").and_then(|(h, s)| {
            let slot: u16 = s.parse().ok()?;
            (!h.trim().is_empty()).then_some((h.to_string(), slot))
        }) {
            Some(hs) if !unnamed(&n.description) => hs,
            _ if !unnamed(&n.description) && !n.description.contains(' ') => {
                (n.description.clone(), 0)
            }
            _ => (format!("host-{}", guid_tail(&n.guid)), 0),
        };
        let i = f.node(&host, false, &n.description);
        at.insert(n.guid.as_str(), (i, slot));
    }
    if aggregation > 0 {
        f.notes.push(format!(
            "{aggregation} SHARP aggregation nodes (a switch's own port) left out, with their cables"
        ));
    }
    let (mut outside, mut unmodelled) = (0usize, 0usize);
    for c in &found.cables {
        let (Some(&(ai, aslot)), Some(&(bi, bslot))) =
            (at.get(c.a.0.as_str()), at.get(c.b.0.as_str()))
        else {
            outside += 1;
            continue;
        };
        let rate = ib_rate(&c.speed);
        if rate.is_none() {
            unmodelled += 1;
        }
        f.wires.push(Wire {
            a: (ai, aslot, c.a.1),
            b: (bi, bslot, c.b.1),
            medium: Some(Medium::InfiniBand(rate.unwrap_or(IbRate::Edr))),
        });
    }
    if outside > aggregation {
        f.notes.push(format!(
            "{} cables to nodes without a record in the file left out",
            outside - aggregation
        ));
    }
    if unmodelled > 0 {
        f.notes.push(format!(
            "{unmodelled} links at a rate below EDR or not reported, drawn as EDR (the slowest rate the model has)"
        ));
    }
    build(catalog, f, map, "an ibnetdiscover run")
}

/// A port name as (NIC slot, port) and whether it names a switch port: `nic2/p1` -> (2, 1); `p12`, `swp12`,
/// `Ethernet12` -> (0, 12) on a switch; another name ending in N (`eth0`, `enp1s0f1`) -> NIC slot N, port 1.
fn named_port(port: &str) -> (u16, u16, bool) {
    if let Some((slot, p)) = port.strip_prefix("nic").and_then(|r| r.split_once("/p"))
        && let (Ok(s), Ok(p)) = (slot.parse(), p.parse())
    {
        return (s, p, false);
    }
    let digits = port.len() - port.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let n: u16 = port
        .get(port.len() - digits..)
        .and_then(|d| d.parse().ok())
        .unwrap_or(0);
    let stem = port.get(..port.len() - digits).unwrap_or(port);
    let switchy = matches!(
        stem.to_ascii_lowercase().as_str(),
        "p" | "swp" | "ethernet" | "eth1/" | "port"
    );
    if switchy { (0, n, true) } else { (n, 1, false) }
}

/// A design from named cables (LLDP neighbours, a NetBox cable list), each as two (device, port) ends.
fn from_named(
    catalog: &Catalog,
    cables: Vec<((String, String), (String, String))>,
    map: &NameMap,
    source: &str,
) -> Result<Design, ImportError> {
    let mut f = Fabric::default();
    // A device is a switch unless a port is named as a server's NIC port (`nic0/p1`), when any of its ports is named
    // as a switch's or it has more than 8 ports cabled.
    let mut ports: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for ((ad, ap), (bd, bp)) in &cables {
        ports.entry(ad).or_default().insert(ap);
        ports.entry(bd).or_default().insert(bp);
    }
    let nic_style = |x: &str| x.starts_with("nic") && x.contains("/p");
    let switches: BTreeSet<&str> = ports
        .iter()
        .filter(|(_, p)| {
            !p.iter().any(|x| nic_style(x)) && (p.len() > 8 || p.iter().any(|x| named_port(x).2))
        })
        .map(|(d, _)| *d)
        .collect();
    let mut seen: BTreeSet<(End, End)> = BTreeSet::new();
    for ((ad, ap), (bd, bp)) in &cables {
        let mut end = |d: &str, p: &str| -> End {
            let switch = switches.contains(d);
            let i = f.node(d, switch, "");
            let (slot, port, _) = named_port(p);
            if switch {
                (i, 0, port)
            } else {
                (i, slot, port)
            }
        };
        let (a, b) = (end(ad, ap), end(bd, bp));
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        if seen.insert((a, b)) {
            f.wires.push(Wire { a, b, medium: None });
        }
    }
    f.notes.push(format!(
        "switches told from hosts by their port names ({source} does not say which is which)"
    ));
    build(catalog, f, map, source)
}

/// A design from LLDP neighbours, as `asbuilt::from_lldp` takes them: per file, the reporting device and its
/// neighbours, their names already mapped; `map` gives the racks.
pub fn from_lldp(
    catalog: &Catalog,
    reports: &[(String, Vec<LldpNeighbour>)],
    map: &NameMap,
) -> Result<Design, ImportError> {
    let cables = reports
        .iter()
        .flat_map(|(local, ns)| {
            ns.iter().map(move |n| {
                (
                    (local.clone(), n.local_port.clone()),
                    (n.remote_name.clone(), n.remote_port.clone()),
                )
            })
        })
        .collect();
    from_named(catalog, cables, map, "LLDP")
}

/// A design from a NetBox cable list, its device names already mapped; `map` gives the racks.
pub fn from_netbox(
    catalog: &Catalog,
    cables: &[NetboxCable],
    map: &NameMap,
) -> Result<Design, ImportError> {
    let cables = cables
        .iter()
        .map(|c| {
            (
                (c.a_device.clone(), c.a_name.clone()),
                (c.b_device.clone(), c.b_name.clone()),
            )
        })
        .collect();
    from_named(catalog, cables, map, "a NetBox cable list")
}

/// The catalog switch a reported model names, if any.
fn switch_by_model(hint: &str) -> Option<&'static str> {
    let h = hint.to_ascii_uppercase();
    [
        ("QM97", "qm9700"),
        ("QUANTUM-2", "qm9700"),
        ("QM87", "qm8700"),
        ("QUANTUM HDR", "qm8700"),
        ("SN5600", "sn5600"),
        ("SN2201", "sn2201"),
    ]
    .iter()
    .find(|(k, _)| h.contains(k))
    .map(|(_, p)| *p)
}

/// A catalog part, or the error naming it.
fn part<'a>(catalog: &'a Catalog, id: &str) -> Result<&'a crate::model::part::Part, ImportError> {
    catalog
        .get(id)
        .ok_or_else(|| ImportError::Catalog(id.to_string()))
}

/// Refuses a count past a limit.
fn within(what: &str, count: usize, limit: usize) -> Result<(), ImportError> {
    if count > limit {
        return Err(ImportError::TooLarge {
            what: what.to_string(),
            count,
            limit,
        });
    }
    Ok(())
}

/// The design: parts chosen, racks packed, links drawn, each choice the fabric did not make said in the notes.
fn build(
    catalog: &Catalog,
    mut f: Fabric,
    map: &NameMap,
    source: &str,
) -> Result<Design, ImportError> {
    if f.nodes.is_empty() {
        return Err(ImportError::Empty);
    }
    within("devices", f.nodes.len(), limits::MAX_DEVICES)?;
    within("links", f.wires.len(), limits::MAX_LINKS)?;
    let needs = Needs::of(&f)?;
    let mut cat = catalog.clone();
    let mut notes = std::mem::take(&mut f.notes);
    let mut part_of = switch_parts(&mut cat, &f, &needs, &mut notes)?;
    host_parts(&mut cat, &f, needs.max_slot, &mut part_of, &mut notes)?;
    let nic_of = nic_parts(&mut cat, &f, &needs)?;
    let groups = groups(&f, map);
    within(
        "racks (at least one per group)",
        groups.len(),
        limits::MAX_RACKS,
    )?;
    let mut design = Design {
        name: format!("Imported from {source}"),
        ..Design::default()
    };
    let mut b = Builder::new(&mut design, &cat);
    let device_of = place(&mut b, &f, &groups, &part_of, &nic_of)?;
    let twice = draw_links(&mut b, &f, &device_of)?;
    if twice > 0 {
        notes.push(format!(
            "{twice} cables on a port already cabled (or port 0) left out"
        ));
    }
    notes.push("cable lengths are 10 m: the fabric does not report them".into());
    design.notes = format!(
        "Imported by `racksmith import-fabric` from {source}: {} devices, {} links. {}.",
        design.devices.len(),
        design.links.len(),
        notes.join("; ")
    );
    Ok(design)
}

/// What each node needs: its highest port (switch) or per NIC slot its highest port (host), its fastest medium,
/// and the most NIC slots a host needs.
struct Needs {
    ports: Vec<u16>,
    nic_ports: Vec<BTreeMap<u16, u16>>,
    fastest: Vec<Option<Medium>>,
    max_slot: u16,
}

impl Needs {
    /// The needs of every node of `f`, refused past the loader's limits.
    fn of(f: &Fabric) -> Result<Self, ImportError> {
        // What each node needs: its highest port (switch) or per NIC slot its highest port (host), its fastest medium.
        let mut need_ports: Vec<u16> = vec![0; f.nodes.len()];
        let mut nic_ports: Vec<BTreeMap<u16, u16>> = vec![BTreeMap::new(); f.nodes.len()];
        let mut fastest: Vec<Option<Medium>> = vec![None; f.nodes.len()];
        for w in &f.wires {
            for (i, slot, port) in [w.a, w.b] {
                if let Some(p) = need_ports.get_mut(i) {
                    *p = (*p).max(port);
                }
                if let Some(m) = nic_ports.get_mut(i) {
                    let e = m.entry(slot).or_default();
                    *e = (*e).max(port);
                }
                if let (Some(x), Some(m)) = (fastest.get_mut(i), w.medium) {
                    *x = Some(match *x {
                        Some(old) if old.gbps() >= m.gbps() => old,
                        _ => m,
                    });
                }
            }
        }
        let max_port = need_ports.iter().copied().max().unwrap_or(0);
        within(
            "ports on one device",
            usize::from(max_port),
            usize::from(limits::MAX_PORTS),
        )?;
        let max_slot = nic_ports
            .iter()
            .filter_map(|m| m.keys().next_back())
            .copied()
            .max()
            .unwrap_or(0);
        within(
            "NIC slots on one server",
            usize::from(max_slot) + 1,
            limits::MAX_NIC_SLOTS,
        )?;
        Ok(Self {
            ports: need_ports,
            nic_ports,
            fastest,
            max_slot,
        })
    }
}

/// The InfiniBand rate of a medium, if it is InfiniBand.
fn ib(m: Option<Medium>) -> Option<IbRate> {
    match m {
        Some(Medium::InfiniBand(r)) => Some(r),
        _ => None,
    }
}

/// Each switch's part (the catalog's for its reported model, else a switch part as discovered, added to `cat`),
/// by node; hosts' entries are left empty.
fn switch_parts(
    cat: &mut Catalog,
    f: &Fabric,
    needs: &Needs,
    notes: &mut Vec<String>,
) -> Result<Vec<String>, ImportError> {
    let (need_ports, fastest) = (&needs.ports, &needs.fastest);
    let mut part_of: Vec<String> = vec![String::new(); f.nodes.len()];
    let mut unrecognised = 0usize;
    for (i, n) in f.nodes.iter().enumerate() {
        if !n.switch {
            continue;
        }
        let ports = need_ports.get(i).copied().unwrap_or(0);
        let gbps = fastest.get(i).copied().flatten().map_or(0.0, |m| m.gbps());
        let fits = |id: &str| {
            cat.get(id).is_some_and(|p| {
                matches!(&p.kind, PartKind::Switch(s) if s.ports >= ports && s.port_gbps >= gbps)
            })
        };
        let id = match switch_by_model(&n.hint) {
            Some(id) if fits(id) => id.to_string(),
            known => {
                let base = known.unwrap_or(match ib(fastest.get(i).copied().flatten()) {
                    Some(IbRate::Ndr | IbRate::Xdr) => "qm9700",
                    Some(_) => "qm8700",
                    None => "sn5600",
                });
                let base_part = part(cat, base)?.clone();
                let (base_ports, base_gbps) = match &base_part.kind {
                    PartKind::Switch(s) => (s.ports, s.port_gbps),
                    _ => (0, 0.0),
                };
                let (ports, gbps) = (ports.max(base_ports), gbps.max(base_gbps));
                let id = format!("discovered-switch-{base}-{ports}p-{gbps}g");
                if cat.get(&id).is_none() {
                    let mut p = base_part;
                    p.name = format!(
                        "Switch as discovered (model not reported or not in the catalog; {ports} ports at {gbps} \
                         Gb/s, as {base})"
                    );
                    p.part_number = None;
                    if let PartKind::Switch(s) = &mut p.kind {
                        s.ports = ports;
                        s.port_gbps = gbps;
                    }
                    p.sources.insert(
                        "switch.ports".into(),
                        format!("as discovered: the highest port cabled; other figures as the catalog's {base}"),
                    );
                    cat.parts.insert(PartId::new(&id), p);
                }
                unrecognised += 1;
                id
            }
        };
        if let Some(p) = part_of.get_mut(i) {
            *p = id;
        }
    }
    if unrecognised > 0 {
        notes.push(format!(
            "{unrecognised} switches of a model not reported or not in the catalog: a switch part as discovered, \
             with the figures of the catalog switch of their speed"
        ));
    }
    Ok(part_of)
}

/// The host part: a server with the NIC slots the widest host needs (`max_slot` + 1) and no GPU slots, added to
/// `cat` and set as every host's part in `part_of`.
fn host_parts(
    cat: &mut Catalog,
    f: &Fabric,
    max_slot: u16,
    part_of: &mut [String],
    notes: &mut Vec<String>,
) -> Result<(), ImportError> {
    let slots = usize::from(max_slot) + 1;
    let server_id = format!("discovered-server-{slots}nic");
    let mut host_part = part(cat, "hgx-h100-8gpu")?.clone();
    host_part.name =
        format!("Server as discovered ({slots} NIC slots; model and GPUs not reported)");
    host_part.part_number = None;
    if let PartKind::Server(s) = &mut host_part.kind {
        s.gpu_slots.clear();
        s.default_gpu = None;
        s.default_nics.clear();
        s.nvlink = None;
        let Some(last) = s.nic_slots.last().cloned() else {
            return Err(ImportError::Catalog("hgx-h100-8gpu (NIC slots)".into()));
        };
        s.nic_slots.resize(slots, last);
    }
    host_part.sources.insert(
        "server.nic_slots".into(),
        "as discovered: the highest mlx5_N reported; chassis figures as the catalog's hgx-h100-8gpu".into(),
    );
    cat.parts.insert(PartId::new(&server_id), host_part);
    let hosts = f.nodes.iter().filter(|n| !n.switch).count();
    if hosts > 0 {
        notes.push(format!(
            "{hosts} hosts as \"{server_id}\": the fabric does not report a server's model or GPUs"
        ));
    }
    for (i, n) in f.nodes.iter().enumerate() {
        if !n.switch
            && let Some(p) = part_of.get_mut(i)
        {
            p.clone_from(&server_id);
        }
    }
    Ok(())
}

/// Each host's NIC parts, by slot: the catalog's NIC for its speed and port count, or a NIC as discovered (added
/// to `cat`) when the catalog's is too small.
fn nic_parts(
    cat: &mut Catalog,
    f: &Fabric,
    needs: &Needs,
) -> Result<Vec<BTreeMap<u16, String>>, ImportError> {
    let (nic_ports, fastest) = (&needs.nic_ports, &needs.fastest);
    let mut nic_of: Vec<BTreeMap<u16, String>> = vec![BTreeMap::new(); f.nodes.len()];
    for (i, n) in f.nodes.iter().enumerate() {
        if n.switch {
            continue;
        }
        for (&slot, &ports) in nic_ports.get(i).into_iter().flatten() {
            let medium = fastest.get(i).copied().flatten();
            let base = match ib(medium) {
                Some(IbRate::Ndr | IbRate::Xdr) => "cx7-ndr",
                Some(_) if ports <= 1 => "cx6-hdr",
                Some(_) => "cx6-hdr-2p",
                None => "cx7-eth-2x200",
            };
            let (base_ports, base_gbps) = match &part(cat, base)?.kind {
                PartKind::Nic(s) => (s.ports, s.port_gbps),
                _ => (0, 0.0),
            };
            let gbps = medium.map_or(0.0, |m| m.gbps()).max(base_gbps);
            let id = if ports <= base_ports && gbps <= base_gbps {
                base.to_string()
            } else {
                let ports = ports.max(base_ports);
                let id = format!("discovered-nic-{base}-{ports}p-{gbps}g");
                if cat.get(&id).is_none() {
                    let mut p = part(cat, base)?.clone();
                    p.name = format!("NIC as discovered ({ports} ports at {gbps} Gb/s, as {base})");
                    p.part_number = None;
                    if let PartKind::Nic(s) = &mut p.kind {
                        s.ports = ports;
                        s.port_gbps = gbps;
                    }
                    cat.parts.insert(PartId::new(&id), p);
                }
                id
            };
            if let Some(m) = nic_of.get_mut(i) {
                m.insert(slot, id);
            }
        }
    }
    Ok(nic_of)
}

/// Groups of nodes, one or more racks each: the map's rack; else a leaf and the hosts whose first cable reaches
/// it; the other switches together.
fn groups(f: &Fabric, map: &NameMap) -> BTreeMap<String, Vec<usize>> {
    let mut first_switch: Vec<Option<usize>> = vec![None; f.nodes.len()];
    let mut has_hosts: Vec<bool> = vec![false; f.nodes.len()];
    for w in &f.wires {
        for (me, other) in [(w.a.0, w.b.0), (w.b.0, w.a.0)] {
            let (Some(m), Some(o)) = (f.nodes.get(me), f.nodes.get(other)) else {
                continue;
            };
            if !m.switch && o.switch {
                if let Some(slot) = first_switch.get_mut(me)
                    && slot.is_none()
                {
                    *slot = Some(other);
                }
                if let Some(h) = has_hosts.get_mut(other) {
                    *h = true;
                }
            }
        }
    }
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, n) in f.nodes.iter().enumerate() {
        let group = match map.rack(&n.name) {
            Some(r) => r.to_string(),
            None if n.switch && has_hosts.get(i).copied().unwrap_or(false) => n.name.clone(),
            None if n.switch => "switches".to_string(),
            None => match first_switch
                .get(i)
                .copied()
                .flatten()
                .and_then(|s| f.nodes.get(s))
            {
                Some(s) => s.name.clone(),
                None => "hosts".to_string(),
            },
        };
        groups.entry(group).or_default().push(i);
    }
    groups
}

/// Places every node in its group's 42U racks (switches first, then hosts, by name), with its NICs. Returns each
/// node's device.
fn place(
    b: &mut Builder<'_>,
    f: &Fabric,
    groups: &BTreeMap<String, Vec<usize>>,
    part_of: &[String],
    nic_of: &[BTreeMap<u16, String>],
) -> Result<Vec<Option<DeviceId>>, ImportError> {
    let cat = b.catalog;
    let rack_part = "rack-42u";
    let rack_units = match &part(cat, rack_part)?.kind {
        PartKind::Rack(r) => r.units,
        _ => 42,
    };
    let mut slot_no = 0u32;
    let mut device_of: Vec<Option<DeviceId>> = vec![None; f.nodes.len()];
    let mut rack_count = 0usize;
    for (group, members) in groups {
        let mut members = members.clone();
        members.sort_by_key(|&i| f.nodes.get(i).map(|n| (!n.switch, n.name.clone())));
        let mut rack: Option<(RackId, u16)> = None;
        let mut in_group = 0usize;
        for i in members {
            let (Some(n), Some(pid)) = (f.nodes.get(i), part_of.get(i)) else {
                continue;
            };
            let h = cat.get(pid).map_or(1, |p| p.height_u.max(1));
            let next_u = match rack {
                Some((r, u)) if u + h - 1 <= rack_units => (r, u),
                _ => {
                    in_group += 1;
                    rack_count += 1;
                    within("racks", rack_count, limits::MAX_RACKS)?;
                    let name = if in_group == 1 {
                        group.clone()
                    } else {
                        format!("{group}-{in_group}")
                    };
                    let row = u16::try_from(slot_no / 16).unwrap_or(u16::MAX);
                    let (id, _) = b.add_rack(rack_part, &name, row, (slot_no % 16) as u16)?;
                    slot_no += 1;
                    (id, 1)
                }
            };
            let dev = b.add_device(pid, &n.name, next_u.0, next_u.1)?;
            if !n.hint.is_empty() && n.hint != n.name {
                let hint = n.hint.clone();
                b.update_device(dev, |d| d.notes = format!("Reported as: {hint}"))?;
            }
            if let Some(nics) = nic_of.get(i)
                && !nics.is_empty()
            {
                for (s, nic) in nics {
                    b.fill_nics(dev, nic, [*s])?;
                }
            }
            rack = Some((next_u.0, next_u.1 + h));
            if let Some(d) = device_of.get_mut(i) {
                *d = Some(dev);
            }
        }
    }
    Ok(device_of)
}

/// Draws the links, each port once. Returns how many cables were left out (a port cabled twice, or port 0).
fn draw_links(
    b: &mut Builder<'_>,
    f: &Fabric,
    device_of: &[Option<DeviceId>],
) -> Result<usize, ImportError> {
    let mut used: BTreeSet<(DeviceId, String)> = BTreeSet::new();
    let mut twice = 0usize;
    let port_name = |i: usize, slot: u16, port: u16| -> String {
        if f.nodes.get(i).is_some_and(|n| n.switch) {
            format!("p{port}")
        } else {
            format!("nic{slot}/p{port}")
        }
    };
    for w in &f.wires {
        let (Some(Some(a)), Some(Some(z))) = (device_of.get(w.a.0), device_of.get(w.b.0)) else {
            continue;
        };
        let (pa, pz) = (
            port_name(w.a.0, w.a.1, w.a.2),
            port_name(w.b.0, w.b.1, w.b.2),
        );
        if w.a.2 == 0
            || w.b.2 == 0
            || !used.insert((*a, pa.clone()))
            || !used.insert((*z, pz.clone()))
        {
            twice += 1;
            continue;
        }
        let (ra, rz) = (PortRef::new(*a, pa), PortRef::new(*z, pz));
        match w.medium {
            Some(m) => {
                let cable = match m {
                    Medium::InfiniBand(IbRate::Ndr | IbRate::Xdr) => "ib-ndr-optic",
                    _ => "ib-hdr-aoc",
                };
                super::wiring::link(b, ra, rz, m, 10.0, cable)?;
            }
            None => {
                b.connect(ra, rz, 10.0, None)?;
            }
        }
    }
    Ok(twice)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn port_names_read_as_slots_and_ports() {
        assert_eq!(named_port("nic3/p2"), (3, 2, false));
        assert_eq!(named_port("p12"), (0, 12, true));
        assert_eq!(named_port("swp7"), (0, 7, true));
        assert_eq!(named_port("Ethernet48"), (0, 48, true));
        assert_eq!(named_port("eth1"), (1, 1, false));
        assert_eq!(switch_by_model("MF0;leaf:MQM9701/U1"), Some("qm9700"));
        assert_eq!(switch_by_model("SwitchIB Mellanox Technologies"), None);
    }
}
