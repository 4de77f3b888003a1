//! The server model: GPU to NIC and storage NIC through the PCIe tree (flows to the nearest cabled NICs, hops
//! loaded by the flows crossing them, each flow held to the tightest hop on its path), NVLink or the PCIe ring
//! between a server's GPUs, and the lanes below and above each PCIe switch.

use super::*;

/// Bandwidth of one GPU server.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ServerBandwidth {
    /// The GPU server these figures are for (servers without GPUs are not listed).
    pub device: DeviceId,
    /// The server's name in the design, for display.
    pub name: String,
    /// GPU slots holding a GPU part (empty slots do not count).
    pub gpus: usize,
    /// NVLink per GPU per direction, GB/s (0 without an NVLink domain).
    pub nvlink_gbyte_s_per_gpu: f64,
    /// GPU-to-GPU bandwidth per GPU inside the server (NVLink, else the PCIe ring), GB/s.
    pub intra_gbyte_s_per_gpu: f64,
    /// Compute NIC bandwidth installed, Gb/s.
    pub compute_nic_installed_gbps: f64,
    /// Compute NIC bandwidth cabled to the fabric, Gb/s.
    pub compute_nic_cabled_gbps: f64,
    /// Cabled compute NIC bandwidth per GPU, Gb/s.
    pub nic_gbps_per_gpu: f64,
    /// What each GPU can push to the network at once through the PCIe tree and NICs, GB/s (worst GPU).
    pub network_gbyte_s_per_gpu: f64,
    /// What each GPU can read from storage at once through the server's storage path, GB/s (worst GPU).
    pub storage_path_gbyte_s_per_gpu: f64,
    /// The hop that limits network traffic, e.g. "nic0 port" or "psw1 uplink".
    pub bottleneck_hop: String,
    /// Whether that hop is a NIC's network port (the NIC, not the PCIe tree, limits the server).
    #[serde(skip)]
    pub bottleneck_at_nic_port: bool,
    /// PCIe hops with their load under network plus storage traffic (shared by servers of the same shape).
    pub pcie: Arc<Vec<PcieHop>>,
}

/// One PCIe hop inside a server.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PcieHop {
    /// The hop, written "gpu3 link", "nic0 link", "nic0 port", "psw1 uplink", "cpu0-cpu1".
    pub hop: Hop,
    /// Capacity per direction, GB/s.
    pub capacity_gbyte_s: f64,
    /// What network and storage traffic together offer this hop per direction if nothing upstream held them back,
    /// GB/s (never more than the NIC ports the flows end at).
    pub offered_gbyte_s: f64,
    /// What it carries per direction, GB/s: each flow is held to the tightest hop on its path, so a hop downstream of
    /// a choke sees only what gets through; never above the capacity.
    pub load_gbyte_s: f64,
    /// load / capacity (at most 1).
    pub utilisation: f64,
    /// Offered more than its capacity and full: this hop is what holds the flows back.
    pub choke: bool,
    /// Lanes of the children below a PCIe switch against its uplink lanes (0 for other hops).
    pub lanes_down: u32,
    /// Uplink lanes of a PCIe switch (0 for other hops).
    pub lanes_up: u32,
    /// Whether this hop is a NIC's network port rather than a PCIe link.
    #[serde(skip)]
    pub nic_port: bool,
}

/// A hop of a server's PCIe tree, or the NIC port a flow ends at. Reports write it by name ("psw1 uplink"), and
/// hops compare and sort by that name, so maps keyed by hop list them in the order reports always have.
#[derive(Debug, Clone)]
pub enum Hop {
    /// A GPU slot's own link to its parent: "gpu3 link".
    GpuLink(u16),
    /// A NIC slot's own link to its parent: "nic0 link".
    NicLink(u16),
    /// A NIC's network ports, at their cabled bandwidth: "nic0 port".
    NicPort(u16),
    /// A PCIe switch's link to its parent, by the switch's name: "psw1 uplink".
    Uplink(String),
    /// The link between two CPU sockets, lower name first: "cpu0-cpu1".
    InterSocket(String, String),
}

impl std::fmt::Display for Hop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Hop::GpuLink(slot) => write!(f, "gpu{slot} link"),
            Hop::NicLink(slot) => write!(f, "nic{slot} link"),
            Hop::NicPort(slot) => write!(f, "nic{slot} port"),
            Hop::Uplink(switch) => write!(f, "{switch} uplink"),
            Hop::InterSocket(a, b) => write!(f, "{a}-{b}"),
        }
    }
}

thread_local! {
    /// Two buffers the comparison of hops writes their names into, reused: a comparison allocated two strings,
    /// most of the analysis of servers with hundreds of slots (docs/limits.md, `wide-servers`).
    static HOP_TEXT: std::cell::RefCell<(String, String)> = const {
        std::cell::RefCell::new((String::new(), String::new()))
    };
}

/// A slot number's decimal digits, for comparing hop names without writing them.
fn decimal(x: u16) -> ([u8; 5], usize) {
    let mut out = [0u8; 5];
    let mut len = 0;
    let mut x = x;
    loop {
        if let Some(d) = out.get_mut(len) {
            *d = b'0' + (x % 10) as u8;
        }
        len += 1;
        x /= 10;
        if x == 0 || len == out.len() {
            break;
        }
    }
    if let Some(d) = out.get_mut(..len) {
        d.reverse();
    }
    (out, len)
}

/// Two slot numbers as their names order them: by decimal text, a prefix first ("nic1 ..." before "nic12 ...",
/// since the space after the digits sorts before any digit).
fn by_text(a: u16, b: u16) -> std::cmp::Ordering {
    let ((x, xl), (y, yl)) = (decimal(a), decimal(b));
    x.get(..xl).cmp(&y.get(..yl))
}

impl Ord for Hop {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        use std::cmp::Ordering;
        use std::fmt::Write;
        // The slot hops, the most compared, by their names' order without writing them: "gpuN link" before
        // "nicN ...", and for one NIC "link" before "port".
        let nic = |h: &Hop| match h {
            Hop::NicLink(s) => Some((*s, 0u8)),
            Hop::NicPort(s) => Some((*s, 1u8)),
            _ => None,
        };
        match (self, other) {
            (Hop::GpuLink(a), Hop::GpuLink(b)) => return by_text(*a, *b),
            (Hop::GpuLink(_), Hop::NicLink(_) | Hop::NicPort(_)) => return Ordering::Less,
            (Hop::NicLink(_) | Hop::NicPort(_), Hop::GpuLink(_)) => return Ordering::Greater,
            _ => {
                if let (Some((a, x)), Some((b, y))) = (nic(self), nic(other)) {
                    return by_text(a, b).then(x.cmp(&y));
                }
            }
        }
        HOP_TEXT.with(|t| {
            let Ok(mut t) = t.try_borrow_mut() else {
                return self.to_string().cmp(&other.to_string());
            };
            let (a, b) = &mut *t;
            a.clear();
            b.clear();
            // Writing into a String cannot fail.
            let _ = write!(a, "{self}");
            let _ = write!(b, "{other}");
            a.as_str().cmp(b.as_str())
        })
    }
}

impl PartialOrd for Hop {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Hop {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Hop {}

impl Serialize for Hop {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A hop is written as its display text (`impl Serialize` above).
#[cfg(feature = "schema")]
impl schemars::JsonSchema for Hop {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Hop".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "A hop of a server's PCIe tree by name: \"gpu3 link\", \"nic0 link\", \"nic0 port\" (a NIC's network ports), \"psw1 uplink\" (a PCIe switch's link to its parent) or \"cpu0-cpu1\" (the link between two sockets)."
        })
    }
}

/// What makes two servers' bandwidth figures the same.
#[derive(PartialEq, Eq, Hash)]
pub(super) struct ShapeKey<'a> {
    pub(super) part: &'a PartId,
    pub(super) gpus: &'a BTreeMap<u16, PartId>,
    pub(super) nics: &'a BTreeMap<u16, PartId>,
    pub(super) cabled: Vec<(u16, u16, u64)>,
}

/// The hops from a slot up to its CPU (name, capacity GB/s) and the CPU reached.
pub(super) type Climb = (Vec<(Hop, f64)>, String);

/// A server's PCIe tree as parent links, for path finding.
pub(super) struct Tree<'a> {
    pub(super) spec: &'a ServerSpec,
}

impl Tree<'_> {
    /// Hops from a slot up to its CPU: (hop name, capacity GB/s, lanes) and the CPU reached.
    pub(super) fn climb(&self, first_hop: (Hop, f64), parent: &str) -> Climb {
        let mut hops = vec![first_hop];
        let mut at = parent.to_string();
        for _ in 0..16 {
            let Some(sw) = self.spec.pcie_switches.iter().find(|s| s.name == at) else {
                break;
            };
            let cap = sw.uplink.map_or(f64::INFINITY, PcieLink::gbs);
            hops.push((Hop::Uplink(sw.name.clone()), cap));
            at = sw.parent.clone();
        }
        (hops, at)
    }

    /// Hops between two slots, given each one's climb: up from A to the common ancestor, across sockets if needed,
    /// down to B.
    pub(super) fn path(&self, a: &Climb, b: &Climb) -> Vec<(Hop, f64)> {
        // Shared tail: hops both climbs share (above the lowest common switch).
        let (ha, hb) = (&a.0, &b.0);
        let mut common = 0;
        while common < ha.len().min(hb.len())
            && ha.get(ha.len() - 1 - common).map(|h| &h.0)
                == hb.get(hb.len() - 1 - common).map(|h| &h.0)
            && a.1 == b.1
        {
            common += 1;
        }
        let mut hops: Vec<(Hop, f64)> = ha.iter().take(ha.len() - common).cloned().collect();
        hops.extend(hb.iter().take(hb.len() - common).cloned());
        if a.1 != b.1 {
            let (x, y) = if a.1 < b.1 {
                (&a.1, &b.1)
            } else {
                (&b.1, &a.1)
            };
            hops.push((
                Hop::InterSocket(x.clone(), y.clone()),
                self.spec.inter_socket_gbyte_s.max(0.0),
            ));
        }
        hops
    }
}

/// A NIC as the server model sees it: its slot, role, bandwidth installed and cabled, and its climb to a CPU.
pub(super) struct NicInfo {
    pub(super) slot: u16,
    pub(super) role: NicRole,
    pub(super) installed_gbps: f64,
    pub(super) cabled_gbps: f64,
    pub(super) climb: Climb,
}

/// GPUs interchangeable for the flows: (representative, members), by index into the GPUs' climbs.
type GpuClass = (usize, Vec<usize>);

/// A server's GPUs: slot and spec.
type GpuSpecs = Vec<(u16, crate::catalog::GpuSpec)>;

/// The hops the flows cross: capacity per hop, GB/s, and which hops are NIC network ports (every flow ends at one).
#[derive(Default)]
pub(super) struct Hops {
    pub(super) caps: BTreeMap<Hop, f64>,
    pub(super) nic_ports: std::collections::BTreeSet<Hop>,
}

/// The bandwidth figures of one GPU server: the PCIe tree under network and storage traffic (see the module
/// comment), NVLink or the PCIe ring between its GPUs, and its NICs.
pub(super) fn server_bandwidth(
    design: &Design,
    id: DeviceId,
    device: &Device,
    spec: &ServerSpec,
    cabled: &[(u16, u16, u64)],
    storage_demand: f64,
) -> ServerBandwidth {
    let tree = Tree { spec };
    let (gpu_specs, gpu_climbs) = gpu_climbs(design, device, &tree);
    let nics = nic_infos(design, device, &tree, cabled);
    let compute: Vec<&NicInfo> = nics
        .iter()
        .filter(|n| n.role == NicRole::Compute && n.cabled_gbps > 0.0)
        .collect();
    let storage_nics: Vec<&NicInfo> = nics
        .iter()
        .filter(|n| n.role == NicRole::Storage && n.cabled_gbps > 0.0)
        .collect();
    let storage_src = if storage_nics.is_empty() {
        compute.clone()
    } else {
        storage_nics
    };
    let classes = gpu_classes(&gpu_climbs);

    // Route flows: each GPU to its nearest NICs of a set (fewest hops), split equally among ties. Each flow offers
    // its GPU's share of the NIC port (capped by the pattern's demand); hops loaded past capacity scale the flows
    // crossing them down.
    let mut hops = Hops::default();
    let net_flows = if compute.is_empty() {
        Vec::new()
    } else {
        plan(&tree, &classes, &gpu_climbs, &compute, &mut hops)
    };
    let sto_flows = if storage_src.is_empty() || storage_demand <= 0.0 {
        Vec::new()
    } else {
        plan(&tree, &classes, &gpu_climbs, &storage_src, &mut hops)
    };
    let caps = &hops.caps;
    let net = carry(&net_flows, caps, f64::INFINITY, &classes, gpu_climbs.len());
    let sto_capability = carry(&sto_flows, caps, f64::INFINITY, &classes, gpu_climbs.len());
    let network_gbyte_s_per_gpu =
        finite_or_zero(net.per_gpu.iter().copied().fold(f64::INFINITY, f64::min));
    let storage_path_gbyte_s = finite_or_zero(
        sto_capability
            .per_gpu
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min),
    );
    let bottleneck_at_nic_port = net
        .bottleneck
        .as_ref()
        .is_some_and(|h| hops.nic_ports.contains(h));
    let bottleneck_hop = net
        .bottleneck
        .as_ref()
        .map_or_else(|| "no compute NIC cabled".to_string(), Hop::to_string);
    let pcie = hop_report(
        design,
        device,
        spec,
        &mut hops,
        (&net_flows, &sto_flows, storage_demand),
        (&classes, &gpu_climbs),
    );

    let gpus = gpu_specs.len();
    let nvlink = if spec.nvlink.is_some() {
        gpu_specs
            .iter()
            .map(|(_, g)| g.nvlink_gbyte_s)
            .fold(f64::INFINITY, f64::min)
    } else {
        0.0
    };
    let nvlink = finite_or_zero(nvlink);
    let intra = if nvlink > 0.0 {
        nvlink
    } else {
        pcie_ring_gbyte_s(&tree, &gpu_climbs)
    };
    let installed: f64 = nics
        .iter()
        .filter(|n| n.role == NicRole::Compute)
        .map(|n| n.installed_gbps)
        .sum();
    // + 0.0: an empty sum is -0.0, which would print as "-0 Gb/s".
    let cabled_gbps: f64 = compute.iter().map(|n| n.cabled_gbps).sum::<f64>() + 0.0;
    ServerBandwidth {
        device: id,
        name: device.name.clone(),
        gpus,
        nvlink_gbyte_s_per_gpu: round(nvlink, 3),
        intra_gbyte_s_per_gpu: round(intra, 3),
        compute_nic_installed_gbps: installed,
        compute_nic_cabled_gbps: cabled_gbps,
        nic_gbps_per_gpu: round(
            if gpus > 0 {
                cabled_gbps / gpus as f64
            } else {
                0.0
            },
            3,
        ),
        network_gbyte_s_per_gpu: round(network_gbyte_s_per_gpu, 3),
        storage_path_gbyte_s_per_gpu: round(storage_path_gbyte_s, 3),
        bottleneck_at_nic_port,
        bottleneck_hop,
        pcie: Arc::new(pcie),
    }
}

/// The value, or 0 when it is not finite (a minimum over nothing).
fn finite_or_zero(x: f64) -> f64 {
    if x.is_finite() { x } else { 0.0 }
}

/// The server's GPUs (slot, spec) and each one's climb from its slot to its CPU, its own link capped by the
/// GPU's PCIe interface.
fn gpu_climbs(design: &Design, device: &Device, tree: &Tree<'_>) -> (GpuSpecs, Vec<(u16, Climb)>) {
    let gpu_specs: GpuSpecs = device
        .gpus
        .iter()
        .filter_map(|(slot, p)| match design.parts.get(p).map(|p| &p.kind) {
            Some(PartKind::Gpu(g)) => Some((*slot, g.clone())),
            _ => None,
        })
        .collect();
    let gpu_climbs: Vec<(u16, Climb)> = gpu_specs
        .iter()
        .filter_map(|(slot, g)| {
            let s = tree.spec.gpu_slots.get(usize::from(*slot))?;
            let cap = s
                .slot
                .link
                .map_or(g.pcie.gbs(), |l| l.gbs().min(g.pcie.gbs()));
            Some((
                *slot,
                tree.climb((Hop::GpuLink(*slot), cap), &s.slot.parent),
            ))
        })
        .collect();
    (gpu_specs, gpu_climbs)
}

/// The server's NICs with their cabled bandwidth per slot (from `cabled`: slot, port, rate bits) and their climbs.
fn nic_infos(
    design: &Design,
    device: &Device,
    tree: &Tree<'_>,
    cabled: &[(u16, u16, u64)],
) -> Vec<NicInfo> {
    let mut nics = Vec::new();
    for (slot, part) in &device.nics {
        let Some(PartKind::Nic(nic)) = design.parts.get(part).map(|p| &p.kind) else {
            continue;
        };
        let Some(s) = tree.spec.nic_slots.get(usize::from(*slot)) else {
            continue;
        };
        let cabled_gbps: f64 = cabled
            .iter()
            .filter(|(s, _, _)| s == slot)
            .map(|(_, _, g)| f64::from_bits(*g))
            .sum();
        let cap = s
            .slot
            .link
            .map_or(nic.host.gbs(), |l| l.gbs().min(nic.host.gbs()));
        nics.push(NicInfo {
            slot: *slot,
            role: s.role,
            installed_gbps: f64::from(nic.ports) * nic.port_gbps,
            cabled_gbps,
            climb: tree.climb((Hop::NicLink(*slot), cap), &s.slot.parent),
        });
    }
    nics
}

/// GPUs whose climb above their own link is the same (and whose own link has the same capacity) are
/// interchangeable: their flows are planned once per class and carry a count, so the cost grows with the
/// server's distinct PCIe positions, not with GPUs x NICs (docs/analysis.md, "Cost of the analysis").
fn gpu_classes(gpu_climbs: &[(u16, Climb)]) -> Vec<GpuClass> {
    let mut classes: Vec<GpuClass> = Vec::new();
    let mut class_of: BTreeMap<ClassKey, usize> = BTreeMap::new();
    for (gi, (_, climb)) in gpu_climbs.iter().enumerate() {
        let key = (
            climb
                .0
                .iter()
                .skip(1)
                .map(|(h, c)| (h.clone(), c.to_bits()))
                .collect(),
            climb.0.first().map_or(0, |h| h.1.to_bits()),
            climb.1.clone(),
        );
        match class_of.get(&key) {
            Some(&c) => {
                if let Some(cl) = classes.get_mut(c) {
                    cl.1.push(gi);
                }
            }
            None => {
                class_of.insert(key, classes.len());
                classes.push((gi, vec![gi]));
            }
        }
    }
    classes
}

/// The flows from every class of GPUs to its nearest NICs among `targets` (fewest hops, split equally among
/// ties), recording the hops they cross and the NIC ports they end at in `hops`.
fn plan(
    tree: &Tree<'_>,
    classes: &[(usize, Vec<usize>)],
    gpu_climbs: &[(u16, Climb)],
    targets: &[&NicInfo],
    hops: &mut Hops,
) -> Vec<Flow> {
    let mut flows = Vec::new();
    for (ci, (rep, members)) in classes.iter().enumerate() {
        let Some((_, climb)) = gpu_climbs.get(*rep) else {
            continue;
        };
        let paths: Vec<(Vec<(Hop, f64)>, &NicInfo)> = targets
            .iter()
            .map(|n| (tree.path(climb, &n.climb), *n))
            .collect();
        let best = paths.iter().map(|(p, _)| p.len()).min().unwrap_or(0);
        let chosen: Vec<&(Vec<(Hop, f64)>, &NicInfo)> =
            paths.iter().filter(|(p, _)| p.len() == best).collect();
        let weight = 1.0 / chosen.len().max(1) as f64;
        for (path, nic) in chosen {
            for (hop, cap) in path {
                hops.caps.insert(hop.clone(), *cap);
            }
            let port = Hop::NicPort(nic.slot);
            hops.caps.insert(port.clone(), nic.cabled_gbps / 8.0);
            hops.nic_ports.insert(port.clone());
            // The path starts with the GPU's own link: each member has its own.
            flows.push(Flow {
                class: ci,
                count: members.len() as f64,
                own: path.iter().take(1).map(|(h, _)| h.clone()).collect(),
                hops: path.iter().skip(1).map(|(h, _)| h.clone()).collect(),
                port,
                weight,
            });
        }
    }
    flows
}

/// Every hop the flows cross, with what network and storage traffic together offer it and what it carries
/// (`flows`: network flows, storage flows and the storage demand per GPU), in hop-name order. Every member of a
/// GPU class is listed with its representative's figures (`gpus`: the classes and the GPUs' climbs), which adds
/// the members' own links to `hops`.
fn hop_report(
    design: &Design,
    device: &Device,
    spec: &ServerSpec,
    hops: &mut Hops,
    (net_flows, sto_flows, storage_demand): (&[Flow], &[Flow], f64),
    (classes, gpu_climbs): (&[GpuClass], &[(u16, Climb)]),
) -> Vec<PcieHop> {
    let (offered, carried) = offered_and_carried(
        &[
            (
                net_flows,
                offered_rates(net_flows, &hops.caps, f64::INFINITY),
            ),
            (
                sto_flows,
                offered_rates(sto_flows, &hops.caps, storage_demand),
            ),
        ],
        &hops.caps,
    );
    // A hop never carries more than the NIC ports its flows end at can take.
    let mut port_limit: BTreeMap<&Hop, BTreeMap<&Hop, f64>> = BTreeMap::new();
    for f in net_flows.iter().chain(sto_flows) {
        let cap = hops.caps.get(&f.port).copied().unwrap_or(0.0);
        for h in f.own.iter().chain(&f.hops) {
            port_limit.entry(h).or_default().insert(&f.port, cap);
        }
    }
    // Every member of a class has a link like its representative's: list each, with the representative's figures.
    let mut alias: BTreeMap<Hop, Hop> = BTreeMap::new();
    for (rep, members) in classes {
        let Some(rep_hop) = gpu_climbs.get(*rep).and_then(|(_, c)| c.0.first()) else {
            continue;
        };
        for m in members.iter().skip(1) {
            if let Some((hop, _)) = gpu_climbs.get(*m).and_then(|(_, c)| c.0.first())
                && let Some(cap) = hops.caps.get(&rep_hop.0).copied()
            {
                hops.caps.insert(hop.clone(), cap);
                alias.insert(hop.clone(), rep_hop.0.clone());
            }
        }
    }
    let (caps, nic_ports) = (&hops.caps, &hops.nic_ports);
    let mut pcie = Vec::new();
    for (hop, cap) in caps {
        let key = alias.get(hop).unwrap_or(hop);
        let mut offer = offered.get(key).copied().unwrap_or(0.0);
        if let Some(ports) = port_limit.get(key) {
            offer = offer.min(ports.values().sum());
        } else if let Some(c) = caps.get(hop).filter(|_| nic_ports.contains(hop)) {
            offer = offer.min(*c);
        }
        let load = carried.get(key).copied().unwrap_or(0.0).min(offer);
        let (lanes_down, lanes_up) = lanes_of(spec, device, design, hop);
        pcie.push(PcieHop {
            hop: hop.clone(),
            capacity_gbyte_s: round(*cap, 3),
            offered_gbyte_s: round(offer, 3),
            load_gbyte_s: round(load, 3),
            utilisation: round(
                if *cap > 0.0 {
                    load / cap
                } else {
                    f64::INFINITY
                },
                4,
            ),
            choke: offer > cap * (1.0 + 1e-9) && load >= cap * (1.0 - 1e-9),
            lanes_down,
            lanes_up,
            nic_port: nic_ports.contains(hop),
        });
    }
    pcie
}

/// What makes GPUs interchangeable in a server: the hops above their own link (names and capacities as bits), their
/// own link's capacity, and the root they reach.
pub(super) type ClassKey = (Vec<(Hop, u64)>, u64, String);

/// The flows of a class of interchangeable GPUs to one NIC through the PCIe tree: `count` identical flows, one
/// per member, each crossing its own link (`own`) and sharing the hops above it and the NIC port.
pub(super) struct Flow {
    pub(super) class: usize,
    pub(super) count: f64,
    pub(super) own: Vec<Hop>,
    pub(super) hops: Vec<Hop>,
    pub(super) port: Hop,
    pub(super) weight: f64,
}

impl Flow {
    /// Every hop with how many of the class's flows load it: a member's own link carries one; shared hops all.
    pub(super) fn each_hop(&self) -> impl Iterator<Item = (&Hop, f64)> {
        self.own.iter().map(|h| (h, 1.0)).chain(
            self.hops
                .iter()
                .chain(std::iter::once(&self.port))
                .map(|h| (h, self.count)),
        )
    }
}

/// What a set of flows carries.
pub(super) struct Carried {
    /// Achieved rate per GPU, GB/s.
    pub(super) per_gpu: Vec<f64>,
    /// The hop that limits the flows most (None without flows).
    pub(super) bottleneck: Option<Hop>,
}

/// What each flow offers per member: its share of its NIC port (at most `demand` per GPU).
pub(super) fn offered_rates(flows: &[Flow], caps: &BTreeMap<Hop, f64>, demand: f64) -> Vec<f64> {
    let mut port_weight: BTreeMap<&Hop, f64> = BTreeMap::new();
    for f in flows {
        *port_weight.entry(&f.port).or_default() += f.weight * f.count;
    }
    flows
        .iter()
        .map(|f| {
            let cap = caps.get(&f.port).copied().unwrap_or(0.0);
            let w = port_weight.get(&f.port).copied().unwrap_or(1.0).max(1e-12);
            (cap * f.weight / w).min(demand * f.weight)
        })
        .collect()
}

/// Network and storage flows together, as flows: each offers its rate, is held to the tightest cap / offered load
/// on its path, and loads every hop downstream only with what gets through. Returns (offered, carried) per hop;
/// carried never exceeds a hop's capacity.
pub(super) type HopLoads = BTreeMap<Hop, f64>;
pub(super) fn offered_and_carried(
    parts: &[(&[Flow], Vec<f64>)],
    caps: &BTreeMap<Hop, f64>,
) -> (HopLoads, HopLoads) {
    let mut offered: HopLoads = BTreeMap::new();
    for (flows, rates) in parts {
        for (f, o) in flows.iter().zip(rates) {
            for (h, n) in f.each_hop() {
                *offered.entry(h.clone()).or_default() += o * n;
            }
        }
    }
    let mut carried: HopLoads = BTreeMap::new();
    for (flows, rates) in parts {
        for (f, o) in flows.iter().zip(rates) {
            let mut scale: f64 = 1.0;
            for (h, _) in f.each_hop() {
                if let (Some(c), Some(l)) = (caps.get(h), offered.get(h))
                    && *l > 0.0
                {
                    scale = scale.min(c / l);
                }
            }
            for (h, n) in f.each_hop() {
                *carried.entry(h.clone()).or_default() += o * scale * n;
            }
        }
    }
    (offered, carried)
}

/// Offers each flow its share of its NIC port (at most `demand` per GPU), then scales every flow by the worst
/// cap/load on its hops. Per-GPU results are per class, given to each member.
pub(super) fn carry(
    flows: &[Flow],
    caps: &BTreeMap<Hop, f64>,
    demand: f64,
    classes: &[(usize, Vec<usize>)],
    gpus: usize,
) -> Carried {
    let mut port_weight: BTreeMap<&Hop, f64> = BTreeMap::new();
    for f in flows {
        *port_weight.entry(&f.port).or_default() += f.weight * f.count;
    }
    let offered = offered_rates(flows, caps, demand);
    let mut loads: BTreeMap<Hop, f64> = BTreeMap::new();
    for (f, o) in flows.iter().zip(&offered) {
        for (h, n) in f.each_hop() {
            *loads.entry(h.clone()).or_default() += o * n;
        }
    }
    let mut per_class = vec![0.0; classes.len()];
    let mut worst: (f64, Option<Hop>) = (f64::INFINITY, None);
    for (f, o) in flows.iter().zip(&offered) {
        let mut scale: f64 = 1.0;
        for (h, _) in f.each_hop() {
            let (Some(c), Some(l)) = (caps.get(h), loads.get(h)) else {
                continue;
            };
            if *l > 0.0 {
                let ratio = c / l;
                scale = scale.min(ratio);
                // The NIC port is the limit when nothing on the PCIe path is tighter.
                let key = if h == &f.port { ratio + 1e-9 } else { ratio };
                if key < worst.0 || (worst.1.is_none() && h == &f.port) {
                    worst = (key, Some(h.clone()));
                }
            }
        }
        if let Some(g) = per_class.get_mut(f.class) {
            *g += o * scale.min(1.0);
        }
    }
    let mut per_gpu = vec![0.0; gpus];
    for ((_, members), v) in classes.iter().zip(&per_class) {
        for m in members {
            if let Some(g) = per_gpu.get_mut(*m) {
                *g = *v;
            }
        }
    }
    if worst.0 >= 1.0 {
        // No hop is overloaded: the limit is the NIC port with the least bandwidth per GPU.
        if let Some((port, _)) = port_weight.iter().max_by(|a, b| {
            let ca = caps.get(*a.0).copied().unwrap_or(0.0) / a.1;
            let cb = caps.get(*b.0).copied().unwrap_or(0.0) / b.1;
            cb.total_cmp(&ca)
        }) {
            worst.1 = Some((*port).clone());
        }
    }
    Carried {
        per_gpu,
        bottleneck: worst.1,
    }
}

/// GPU-to-GPU ring over PCIe: the ring in slot order crosses every hop on the way once per direction, so its
/// per-GPU bandwidth is the smallest capacity among the hops between consecutive GPUs.
pub(super) fn pcie_ring_gbyte_s(tree: &Tree<'_>, gpus: &[(u16, Climb)]) -> f64 {
    if gpus.len() < 2 {
        return 0.0;
    }
    let mut worst = f64::INFINITY;
    for (i, (_, a)) in gpus.iter().enumerate() {
        let Some((_, b)) = gpus.get((i + 1) % gpus.len()) else {
            continue;
        };
        for (_, cap) in tree.path(a, b) {
            worst = worst.min(cap);
        }
    }
    if worst.is_finite() { worst } else { 0.0 }
}

pub(super) fn lanes_of(
    spec: &ServerSpec,
    device: &Device,
    design: &Design,
    hop: &Hop,
) -> (u32, u32) {
    let Hop::Uplink(name) = hop else {
        return (0, 0);
    };
    let name = name.as_str();
    let Some(sw) = spec.pcie_switches.iter().find(|s| s.name == name) else {
        return (0, 0);
    };
    let mut down = 0u32;
    for (slot, part) in &device.gpus {
        if let Some(s) = spec.gpu_slots.get(usize::from(*slot))
            && s.slot.parent == name
        {
            let own = match design.parts.get(part).map(|p| &p.kind) {
                Some(PartKind::Gpu(g)) => g.pcie.lanes,
                _ => 16,
            };
            down += u32::from(s.slot.link.map_or(own, |l| l.lanes.min(own)));
        }
    }
    for (slot, part) in &device.nics {
        if let Some(s) = spec.nic_slots.get(usize::from(*slot))
            && s.slot.parent == name
        {
            let own = match design.parts.get(part).map(|p| &p.kind) {
                Some(PartKind::Nic(n)) => n.host.lanes,
                _ => 16,
            };
            down += u32::from(s.slot.link.map_or(own, |l| l.lanes.min(own)));
        }
    }
    for child in spec.pcie_switches.iter().filter(|s| s.parent == name) {
        down += u32::from(child.uplink.map_or(0, |l| l.lanes));
    }
    (down, u32::from(sw.uplink.map_or(0, |l| l.lanes)))
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod hop_order_tests;
