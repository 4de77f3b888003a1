//! Bandwidth: inside each server (GPU to GPU over NVLink or PCIe, GPU to NIC and storage NIC through the PCIe
//! tree), NIC bandwidth per GPU, switch oversubscription by tier, bisection bandwidth, storage per GPU, and the
//! bottleneck of each traffic pattern.
//!
//! PCIe model: every GPU sends its demand to the nearest cabled NIC(s) (fewest hops in the tree, split equally
//! among ties); each hop's load is the sum of the flows crossing it in one direction (traffic is symmetric, so the
//! other direction carries the same). A GPU's capability is its demand scaled by the worst cap/load on its paths.

use super::format::round;
use crate::model::part::{NicRole, PartKind, ServerSpec};
use crate::model::{Design, Device, DeviceId, PartId, PcieLink};
use crate::topology::{NodeKind, Topology};
use rustc_hash::FxHashMap as HashMap;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Bandwidth section of the report.
#[derive(Debug, Clone, Serialize)]
pub struct BandwidthReport {
    /// GPUs installed.
    pub gpus: usize,
    /// The GPU part most servers carry.
    pub main_gpu: Option<String>,
    /// Network bandwidth each GPU should have, Gb/s (design parameter or the GPU's reference ratio).
    pub demand_gbps_per_gpu: f64,
    /// Per GPU server.
    pub servers: Vec<ServerBandwidth>,
    /// Per switch.
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

/// Bandwidth of one GPU server.
#[derive(Debug, Clone, Serialize)]
pub struct ServerBandwidth {
    /// The server.
    pub device: DeviceId,
    /// Its name.
    pub name: String,
    /// GPUs installed.
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
pub struct PcieHop {
    /// Hop name: "gpu3 link", "nic0 link", "nic0 port", "psw1 uplink", "cpu0-cpu1".
    pub hop: String,
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

/// Oversubscription of one switch.
#[derive(Debug, Clone, Serialize)]
pub struct SwitchBandwidth {
    /// The switch.
    pub device: DeviceId,
    /// Its name.
    pub name: String,
    /// Tier counted from the endpoints (1 = leaf), 0 when it reaches no endpoint.
    pub tier: u8,
    /// Bandwidth towards endpoints and lower tiers, Gb/s.
    pub down_gbps: f64,
    /// Bandwidth towards higher tiers, Gb/s.
    pub up_gbps: f64,
    /// down / up; None at the top tier.
    pub oversubscription: Option<f64>,
    /// Ports cabled.
    pub ports_used: usize,
    /// Ports on the switch.
    pub ports_total: usize,
}

/// Bisection bandwidth and how it was obtained.
#[derive(Debug, Clone, Serialize)]
pub struct Bisection {
    /// Bisection bandwidth, Gb/s: the exact value, or the proven lower bound when only bounds were reachable.
    pub gbps: f64,
    /// Proven lower bound, Gb/s (equal to `gbps`).
    pub lower_gbps: f64,
    /// Proven upper bound, Gb/s (equal to `lower_gbps` when exact).
    pub upper_gbps: f64,
    /// Whether the figure is exact; otherwise the truth lies in [`lower_gbps`, `upper_gbps`].
    pub exact: bool,
    /// Method used, starting with "exact", "bounds" or "not applicable".
    pub method: String,
    /// Capacity of each tier boundary, Gb/s, bottom up (for display; not a bound on the bisection).
    pub levels: Vec<(String, f64)>,
}

impl Bisection {
    /// The figure for a headline, Tb/s: "48.0 Tb/s" when exact, the proven range "998.4–1,049.6 Tb/s" otherwise
    /// (never a lone lower bound that reads as the answer), "up to 96.8 Tb/s" when no lower bound was proven.
    pub fn tbit_s_text(&self) -> String {
        use super::format::thousands;
        if self.exact || self.upper_gbps <= self.lower_gbps {
            format!("{} Tb/s", thousands(self.gbps / 1000.0, 1))
        } else if self.lower_gbps <= 0.0 {
            // No lower bound was proven: "0–96.8" would read as "possibly nothing".
            format!("up to {} Tb/s", thousands(self.upper_gbps / 1000.0, 1))
        } else {
            format!(
                "{}–{} Tb/s",
                thousands(self.lower_gbps / 1000.0, 1),
                thousands(self.upper_gbps / 1000.0, 1)
            )
        }
    }
}

impl Bisection {
    /// The line under the headline figure, per GPU in GB/s (docs/analysis.md, "Units"): "24.2 GB/s per GPU",
    /// "at least 24.2 GB/s per GPU" for a proven range, "at most 48.8 GB/s per GPU; no lower bound proven", or
    /// "fewer than two GPU servers" when no GPU traffic crosses the fabric.
    pub fn per_gpu_text(&self, gpus: usize) -> String {
        let per = |gbps: f64| gbps / 8.0 / gpus.max(1) as f64;
        if self.method.starts_with("not applicable") {
            "fewer than two GPU servers".into()
        } else if !self.exact && self.lower_gbps <= 0.0 {
            format!(
                "at most {:.1} GB/s per GPU; no lower bound proven",
                per(self.upper_gbps)
            )
        } else {
            format!(
                "{}{:.1} GB/s per GPU",
                if self.exact { "" } else { "at least " },
                per(self.gbps)
            )
        }
    }
}

/// Storage bandwidth.
#[derive(Debug, Clone, Serialize)]
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

/// Which traffic a bottleneck is about (for code; reports show the name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatternId {
    /// GPU network traffic: all-reduce across servers, one ring per rail.
    RailRings,
    /// GPU network traffic: all-to-all across servers.
    AllToAll,
    /// GPU network traffic of a design with one server.
    OneServer,
    /// GPU-to-GPU inside a server.
    InsideServer,
    /// Storage read.
    StorageRead,
}

impl PatternId {
    /// Whether this is GPU traffic over the network.
    pub fn is_gpu_network(self) -> bool {
        matches!(
            self,
            PatternId::RailRings | PatternId::AllToAll | PatternId::OneServer
        )
    }
}

/// The bottleneck of one traffic pattern.
#[derive(Debug, Clone, Serialize)]
pub struct PatternBottleneck {
    /// Which pattern, for code.
    #[serde(skip)]
    pub id: PatternId,
    /// Pattern name.
    pub pattern: String,
    /// What limits it, in words with the figures.
    pub limiter: String,
    /// Devices concerned.
    pub devices: Vec<DeviceId>,
    /// Bandwidth each GPU gets, GB/s.
    pub achieved_gbyte_s_per_gpu: f64,
    /// Bandwidth each GPU should get, GB/s.
    pub demand_gbyte_s_per_gpu: f64,
    /// demand / achieved (1 or less: no shortfall).
    pub shortfall: f64,
}

/// The most common GPU part across servers.
pub fn main_gpu(design: &Design) -> Option<PartId> {
    let mut counts: BTreeMap<&PartId, usize> = BTreeMap::new();
    for d in design.devices.values() {
        for g in d.gpus.values() {
            *counts.entry(g).or_default() += 1;
        }
    }
    counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))
        .map(|(p, _)| p.clone())
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

pub(crate) fn analyze(design: &Design, topo: &Topology) -> BandwidthReport {
    let demand_gbps = demand_gbps(design);
    let demand_gbyte_s = demand_gbps / 8.0;
    let storage_demand = design.params.traffic.storage_read_gbyte_s_per_gpu;
    // Cabled NIC ports, by server and then slot and port: what the shapes and the NIC figures walk (never every
    // declared port). Devices are walked in id order, so each one's ports are the next run of the list.
    let mut rest = topo.nic_ports.as_slice();
    let mut servers = Vec::new();
    // Servers of the same shape (part, slot contents, cabled ports) have the same figures: compute each shape
    // once, so a 4,000-server fabric costs here what its handful of distinct server builds cost.
    let mut shapes: HashMap<ShapeKey<'_>, ServerBandwidth> = HashMap::default();
    for (id, device) in &design.devices {
        if device.gpus.is_empty() {
            continue;
        }
        let Some(PartKind::Server(spec)) = design.parts.get(&device.part).map(|p| &p.kind) else {
            continue;
        };
        let device_ports = super::next_run(&mut rest, |c| c.0, *id);
        let ports: Vec<(u16, u16, u64)> = device_ports
            .iter()
            .filter(|(_, slot, k, _)| {
                device.nics.get(slot).is_some_and(|nic| {
                    matches!(design.parts.get(nic).map(|p| &p.kind),
                        Some(PartKind::Nic(n)) if *k >= 1 && *k <= n.ports)
                })
            })
            .map(|(_, slot, k, g)| (*slot, *k, g.to_bits()))
            .collect();
        let key = ShapeKey {
            part: &device.part,
            gpus: &device.gpus,
            nics: &device.nics,
            cabled: ports,
        };
        let mut s = match shapes.get(&key) {
            Some(s) => s.clone(),
            None => {
                let s = server_bandwidth(
                    design,
                    *id,
                    device,
                    spec,
                    &key.cabled,
                    demand_gbyte_s,
                    storage_demand,
                );
                shapes.insert(key, s.clone());
                s
            }
        };
        s.device = *id;
        s.name.clone_from(&device.name);
        servers.push(s);
    }
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
    let routing = super::routing::analyze(design);
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
            (1, PatternId::RailRings),
            "GPU network traffic (all-reduce across servers, one ring per rail)",
        );
        inter_node_gbyte_s = g;
        patterns.push(p);
        let (p, g) = ctx.routed(
            (2, PatternId::AllToAll),
            "GPU network traffic (all-to-all across servers)",
        );
        all_to_all_gbyte_s = g;
        patterns.push(p);
    } else if servers.len() == 1 && demand_gbyte_s > 0.0 {
        let (limiter, devices) = server_limiter(design, worst_server);
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
        main_gpu: main_gpu(design).map(|p| p.0),
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

/// demand / achieved, infinite when nothing is achieved.
fn shortfall(demand: f64, achieved: f64) -> f64 {
    if achieved > 0.0 {
        demand / achieved
    } else {
        f64::INFINITY
    }
}

/// What the bottleneck of a routed GPU pattern needs to know.
struct PatternContext<'a> {
    design: &'a Design,
    routing: &'a super::routing::RoutingReport,
    worst_switch: Option<(f64, u8, DeviceId)>,
    worst_server: Option<&'a ServerBandwidth>,
    server_cap: f64,
    demand_gbyte_s: f64,
}

impl PatternContext<'_> {
    /// Bottleneck and per-GPU bandwidth of routing pattern `index`: the worst server's network bandwidth divided
    /// by the load factor of the busiest link on the pattern's routes (when above 1), zero when any of it has no
    /// route.
    fn routed(&self, (index, id): (usize, PatternId), name: &str) -> (PatternBottleneck, f64) {
        let design = self.design;
        let p = self.routing.patterns.get(index);
        let load = p.map_or(1.0, |p| p.hottest_utilisation.max(1.0));
        let unroutable = p.map_or(0.0, |p| p.unroutable_gbps);
        let achieved = if unroutable > 0.0 {
            0.0
        } else {
            self.server_cap / load
        };
        let (limiter, devices) = if unroutable > 0.0 {
            (
                format!(
                    "fabric: {unroutable:.0} Gb/s of this traffic has no route (GPU servers cannot reach each other)"
                ),
                Vec::new(),
            )
        } else if load > 1.0 + 1e-9 {
            let mut devices = Vec::new();
            let mut text = format!(
                "fabric: routed at line rate, this traffic loads its busiest link to {:.0}% of capacity, so each GPU \
                 gets {achieved:.2} GB/s",
                load * 100.0
            );
            if let Some(l) = p
                .and_then(|p| p.hottest_link)
                .and_then(|id| design.links.get(&id))
            {
                let name = |d: DeviceId| {
                    design
                        .devices
                        .get(&d)
                        .map_or(String::new(), |x| x.name.clone())
                };
                text.push_str(&format!(
                    " (link {} {} - {} {})",
                    name(l.a.device),
                    l.a.port,
                    name(l.b.device),
                    l.b.port
                ));
                devices.push(l.a.device);
                devices.push(l.b.device);
            }
            if let Some((r, tier, dev)) = self.worst_switch.filter(|(r, _, _)| *r > 1.0 + 1e-6) {
                let name = design
                    .devices
                    .get(&dev)
                    .map_or(String::new(), |d| d.name.clone());
                text.push_str(&format!(
                    "; switch {name} (tier {tier}) oversubscribed {r:.2}:1"
                ));
                if !devices.contains(&dev) {
                    devices.push(dev);
                }
            }
            (text, devices)
        } else {
            server_limiter(design, self.worst_server)
        };
        (
            PatternBottleneck {
                id,
                pattern: name.into(),
                limiter,
                devices,
                achieved_gbyte_s_per_gpu: round(achieved, 3),
                demand_gbyte_s_per_gpu: round(self.demand_gbyte_s, 3),
                shortfall: round(shortfall(self.demand_gbyte_s, achieved), 3),
            },
            achieved,
        )
    }
}

fn server_limiter(design: &Design, worst: Option<&ServerBandwidth>) -> (String, Vec<DeviceId>) {
    let Some(s) = worst else {
        return ("no GPU servers".into(), Vec::new());
    };
    if s.compute_nic_cabled_gbps <= 0.0 {
        return (
            format!("server {} has no compute NIC cabled", s.name),
            vec![s.device],
        );
    }
    let _ = design;
    let what = if s.bottleneck_at_nic_port {
        format!(
            "NIC bandwidth in {}: {:.0} Gb/s cabled for {} = {:.1} GB/s per GPU",
            s.name,
            s.compute_nic_cabled_gbps,
            super::format::count(s.gpus, "GPU", "GPUs"),
            s.nic_gbps_per_gpu / 8.0
        )
    } else {
        format!("PCIe {} in {}", s.bottleneck_hop, s.name)
    };
    (what, vec![s.device])
}

/// What makes two servers' bandwidth figures the same.
#[derive(PartialEq, Eq, Hash)]
struct ShapeKey<'a> {
    part: &'a PartId,
    gpus: &'a BTreeMap<u16, PartId>,
    nics: &'a BTreeMap<u16, PartId>,
    cabled: Vec<(u16, u16, u64)>,
}

/// The hops from a slot up to its CPU (name, capacity GB/s) and the CPU reached.
type Climb = (Vec<(String, f64)>, String);

/// A server's PCIe tree as parent links, for path finding.
struct Tree<'a> {
    spec: &'a ServerSpec,
}

impl Tree<'_> {
    /// Hops from a slot up to its CPU: (hop name, capacity GB/s, lanes) and the CPU reached.
    fn climb(&self, first_hop: (String, f64), parent: &str) -> (Vec<(String, f64)>, String) {
        let mut hops = vec![first_hop];
        let mut at = parent.to_string();
        for _ in 0..16 {
            let Some(sw) = self.spec.pcie_switches.iter().find(|s| s.name == at) else {
                break;
            };
            let cap = sw.uplink.map_or(f64::INFINITY, PcieLink::gbs);
            hops.push((format!("{} uplink", sw.name), cap));
            at = sw.parent.clone();
        }
        (hops, at)
    }

    /// Hops between two slots, given each one's climb: up from A to the common ancestor, across sockets if needed,
    /// down to B.
    fn path(
        &self,
        a: &(Vec<(String, f64)>, String),
        b: &(Vec<(String, f64)>, String),
    ) -> Vec<(String, f64)> {
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
        let mut hops: Vec<(String, f64)> = ha.iter().take(ha.len() - common).cloned().collect();
        hops.extend(hb.iter().take(hb.len() - common).cloned());
        if a.1 != b.1 {
            let (x, y) = if a.1 < b.1 {
                (&a.1, &b.1)
            } else {
                (&b.1, &a.1)
            };
            hops.push((format!("{x}-{y}"), self.spec.inter_socket_gbyte_s.max(0.0)));
        }
        hops
    }
}

fn server_bandwidth(
    design: &Design,
    id: DeviceId,
    device: &Device,
    spec: &ServerSpec,
    cabled: &[(u16, u16, u64)],
    demand_gbyte_s: f64,
    storage_demand: f64,
) -> ServerBandwidth {
    let tree = Tree { spec };
    let gpu_specs: Vec<(u16, crate::catalog::GpuSpec)> = device
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
            let s = spec.gpu_slots.get(usize::from(*slot))?;
            let cap = s
                .slot
                .link
                .map_or(g.pcie.gbs(), |l| l.gbs().min(g.pcie.gbs()));
            Some((
                *slot,
                tree.climb((format!("gpu{slot} link"), cap), &s.slot.parent),
            ))
        })
        .collect();

    // NICs: cabled bandwidth per slot and role.
    struct NicInfo {
        slot: u16,
        role: NicRole,
        installed_gbps: f64,
        cabled_gbps: f64,
        climb: (Vec<(String, f64)>, String),
    }
    let mut nics = Vec::new();
    for (slot, part) in &device.nics {
        let Some(PartKind::Nic(nic)) = design.parts.get(part).map(|p| &p.kind) else {
            continue;
        };
        let Some(s) = spec.nic_slots.get(usize::from(*slot)) else {
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
            climb: tree.climb((format!("nic{slot} link"), cap), &s.slot.parent),
        });
    }
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

    // GPUs whose climb above their own link is the same (and whose own link has the same capacity) are
    // interchangeable: their flows are planned once per class and carry a count, so the cost grows with the
    // server's distinct PCIe positions, not with GPUs x NICs (docs/analysis.md, "Cost of the analysis").
    let mut classes: Vec<(usize, Vec<usize>)> = Vec::new();
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

    // Route flows: each GPU to its nearest NICs of a set (fewest hops), split equally among ties. Each flow offers
    // its GPU's share of the NIC port (capped by the pattern's demand); hops loaded past capacity scale the flows
    // crossing them down.
    let mut caps: BTreeMap<String, f64> = BTreeMap::new();
    // The hops that are NIC network ports (every flow ends at one).
    let mut nic_ports: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    let mut plan = |targets: &[&NicInfo]| -> Vec<Flow> {
        let mut flows = Vec::new();
        for (ci, (rep, members)) in classes.iter().enumerate() {
            let Some((_, climb)) = gpu_climbs.get(*rep) else {
                continue;
            };
            let paths: Vec<(Vec<(String, f64)>, &NicInfo)> = targets
                .iter()
                .map(|n| (tree.path(climb, &n.climb), *n))
                .collect();
            let best = paths.iter().map(|(p, _)| p.len()).min().unwrap_or(0);
            let chosen: Vec<&(Vec<(String, f64)>, &NicInfo)> =
                paths.iter().filter(|(p, _)| p.len() == best).collect();
            let weight = 1.0 / chosen.len().max(1) as f64;
            for (path, nic) in chosen {
                for (hop, cap) in path {
                    caps.insert(hop.clone(), *cap);
                }
                let port = format!("nic{} port", nic.slot);
                caps.insert(port.clone(), nic.cabled_gbps / 8.0);
                nic_ports.insert(port.clone());
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
    };
    let net_flows = if compute.is_empty() {
        Vec::new()
    } else {
        plan(&compute)
    };
    let sto_flows = if storage_src.is_empty() || storage_demand <= 0.0 {
        Vec::new()
    } else {
        plan(&storage_src)
    };
    let net = carry(&net_flows, &caps, f64::INFINITY, &classes, gpu_climbs.len());
    let sto_capability = carry(&sto_flows, &caps, f64::INFINITY, &classes, gpu_climbs.len());
    let network_gbyte_s_per_gpu = net.per_gpu.iter().copied().fold(f64::INFINITY, f64::min);
    let network_gbyte_s_per_gpu = if network_gbyte_s_per_gpu.is_finite() {
        network_gbyte_s_per_gpu
    } else {
        0.0
    };
    let storage_path_gbyte_s = sto_capability
        .per_gpu
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min);
    let storage_path_gbyte_s = if storage_path_gbyte_s.is_finite() {
        storage_path_gbyte_s
    } else {
        0.0
    };
    let bottleneck_hop = if net.bottleneck.is_empty() {
        "no compute NIC cabled".to_string()
    } else {
        net.bottleneck.clone()
    };
    let _ = demand_gbyte_s;
    let (offered, carried) = offered_and_carried(
        &[
            (&net_flows, offered_rates(&net_flows, &caps, f64::INFINITY)),
            (&sto_flows, offered_rates(&sto_flows, &caps, storage_demand)),
        ],
        &caps,
    );

    // A hop never carries more than the NIC ports its flows end at can take.
    let mut port_limit: BTreeMap<&str, BTreeMap<&str, f64>> = BTreeMap::new();
    for f in net_flows.iter().chain(&sto_flows) {
        let cap = caps.get(&f.port).copied().unwrap_or(0.0);
        for h in f.own.iter().chain(&f.hops) {
            port_limit
                .entry(h.as_str())
                .or_default()
                .insert(f.port.as_str(), cap);
        }
    }
    // Every member of a class has a link like its representative's: list each, with the representative's figures.
    let mut alias: BTreeMap<String, String> = BTreeMap::new();
    for (rep, members) in &classes {
        let Some(rep_hop) = gpu_climbs.get(*rep).and_then(|(_, c)| c.0.first()) else {
            continue;
        };
        for m in members.iter().skip(1) {
            if let Some((hop, _)) = gpu_climbs.get(*m).and_then(|(_, c)| c.0.first())
                && let Some(cap) = caps.get(&rep_hop.0).copied()
            {
                caps.insert(hop.clone(), cap);
                alias.insert(hop.clone(), rep_hop.0.clone());
            }
        }
    }
    let mut pcie = Vec::new();
    for (hop, cap) in &caps {
        let key = alias.get(hop).unwrap_or(hop);
        let mut offer = offered.get(key).copied().unwrap_or(0.0);
        if let Some(ports) = port_limit.get(key.as_str()) {
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

    let gpus = gpu_specs.len();
    let nvlink = if spec.nvlink.is_some() {
        gpu_specs
            .iter()
            .map(|(_, g)| g.nvlink_gbyte_s)
            .fold(f64::INFINITY, f64::min)
    } else {
        0.0
    };
    let nvlink = if nvlink.is_finite() { nvlink } else { 0.0 };
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
        bottleneck_at_nic_port: nic_ports.contains(&bottleneck_hop),
        bottleneck_hop,
        pcie: Arc::new(pcie),
    }
}

/// What makes GPUs interchangeable in a server: the hops above their own link (names and capacities as bits), their
/// own link's capacity, and the root they reach.
type ClassKey = (Vec<(String, u64)>, u64, String);

/// The flows of a class of interchangeable GPUs to one NIC through the PCIe tree: `count` identical flows, one
/// per member, each crossing its own link (`own`) and sharing the hops above it and the NIC port.
struct Flow {
    class: usize,
    count: f64,
    own: Vec<String>,
    hops: Vec<String>,
    port: String,
    weight: f64,
}

impl Flow {
    /// Every hop with how many of the class's flows load it: a member's own link carries one; shared hops all.
    fn each_hop(&self) -> impl Iterator<Item = (&String, f64)> {
        self.own.iter().map(|h| (h, 1.0)).chain(
            self.hops
                .iter()
                .chain(std::iter::once(&self.port))
                .map(|h| (h, self.count)),
        )
    }
}

/// What a set of flows carries.
struct Carried {
    /// Achieved rate per GPU, GB/s.
    per_gpu: Vec<f64>,
    /// The hop that limits the flows most.
    bottleneck: String,
}

/// What each flow offers per member: its share of its NIC port (at most `demand` per GPU).
fn offered_rates(flows: &[Flow], caps: &BTreeMap<String, f64>, demand: f64) -> Vec<f64> {
    let mut port_weight: BTreeMap<&str, f64> = BTreeMap::new();
    for f in flows {
        *port_weight.entry(f.port.as_str()).or_default() += f.weight * f.count;
    }
    flows
        .iter()
        .map(|f| {
            let cap = caps.get(&f.port).copied().unwrap_or(0.0);
            let w = port_weight
                .get(f.port.as_str())
                .copied()
                .unwrap_or(1.0)
                .max(1e-12);
            (cap * f.weight / w).min(demand * f.weight)
        })
        .collect()
}

/// Network and storage flows together, as flows: each offers its rate, is held to the tightest cap / offered load
/// on its path, and loads every hop downstream only with what gets through. Returns (offered, carried) per hop;
/// carried never exceeds a hop's capacity.
type HopLoads = BTreeMap<String, f64>;
fn offered_and_carried(
    parts: &[(&[Flow], Vec<f64>)],
    caps: &BTreeMap<String, f64>,
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
fn carry(
    flows: &[Flow],
    caps: &BTreeMap<String, f64>,
    demand: f64,
    classes: &[(usize, Vec<usize>)],
    gpus: usize,
) -> Carried {
    let mut port_weight: BTreeMap<&str, f64> = BTreeMap::new();
    for f in flows {
        *port_weight.entry(f.port.as_str()).or_default() += f.weight * f.count;
    }
    let offered = offered_rates(flows, caps, demand);
    let mut loads: BTreeMap<String, f64> = BTreeMap::new();
    for (f, o) in flows.iter().zip(&offered) {
        for (h, n) in f.each_hop() {
            *loads.entry(h.clone()).or_default() += o * n;
        }
    }
    let mut per_class = vec![0.0; classes.len()];
    let mut worst = (f64::INFINITY, String::new());
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
                if key < worst.0 || (worst.1.is_empty() && h == &f.port) {
                    worst = (key, h.clone());
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
            worst.1 = (*port).to_string();
        }
    }
    Carried {
        per_gpu,
        bottleneck: worst.1,
    }
}

/// GPU-to-GPU ring over PCIe: the ring in slot order crosses every hop on the way once per direction, so its
/// per-GPU bandwidth is the smallest capacity among the hops between consecutive GPUs.
fn pcie_ring_gbyte_s(tree: &Tree<'_>, gpus: &[(u16, Climb)]) -> f64 {
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

fn lanes_of(spec: &ServerSpec, device: &Device, design: &Design, hop: &str) -> (u32, u32) {
    let Some(name) = hop.strip_suffix(" uplink") else {
        return (0, 0);
    };
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

fn switch_bandwidth(design: &Design, topo: &Topology) -> Vec<SwitchBandwidth> {
    let mut ports_used: HashMap<DeviceId, usize> = HashMap::default();
    for l in design.links.values() {
        *ports_used.entry(l.a.device).or_default() += 1;
        *ports_used.entry(l.b.device).or_default() += 1;
    }
    let mut out = Vec::new();
    for (id, device) in &design.devices {
        let Some(PartKind::Switch(spec)) = design.parts.get(&device.part).map(|p| &p.kind) else {
            continue;
        };
        let tier = topo.tier(*id).unwrap_or(0);
        let (mut down, mut up) = (0.0, 0.0);
        if let Some(&n) = topo.node_of.get(id) {
            // The switch's row of neighbours, with tiers by node: no hash look-up per edge.
            for (other, e) in topo.neighbours(n) {
                let (Some(w), Some(edge)) =
                    (topo.graph.node_weight(other), topo.graph.edge_weight(e))
                else {
                    continue;
                };
                if w.kind != NodeKind::Switch {
                    down += edge.gbps;
                } else {
                    let t = topo.node_tier.get(other.index()).copied().unwrap_or(0);
                    if t == 0 {
                        // A dead-end switch: neither up nor down.
                    } else if t > tier {
                        up += edge.gbps;
                    } else if t < tier {
                        down += edge.gbps;
                    }
                }
            }
        }
        let oversubscription = (up > 0.0).then(|| round(down / up, 4));
        out.push(SwitchBandwidth {
            device: *id,
            name: device.name.clone(),
            tier,
            down_gbps: down,
            up_gbps: up,
            oversubscription,
            ports_used: ports_used.get(id).copied().unwrap_or(0),
            ports_total: usize::from(spec.ports) + usize::from(spec.uplink_ports),
        });
    }
    out
}

fn bisection(design: &Design, topo: &Topology) -> Bisection {
    use petgraph::visit::EdgeRef;
    // Tier boundaries, for display: they are neither the bisection nor a bound on it.
    let mut injection = 0.0;
    let mut between: BTreeMap<u8, f64> = BTreeMap::new();
    for e in topo.graph.edge_references() {
        let (Some(a), Some(b)) = (
            topo.graph.node_weight(e.source()),
            topo.graph.node_weight(e.target()),
        ) else {
            continue;
        };
        match (a.kind, b.kind) {
            (NodeKind::GpuServer, NodeKind::Switch) | (NodeKind::Switch, NodeKind::GpuServer) => {
                injection += e.weight().compute_gbps;
            }
            (NodeKind::Switch, NodeKind::Switch) => {
                let ta = topo.node_tier.get(e.source().index()).copied().unwrap_or(0);
                let tb = topo.node_tier.get(e.target().index()).copied().unwrap_or(0);
                if ta != tb && ta > 0 && tb > 0 {
                    *between.entry(ta.min(tb)).or_default() += e.weight().gbps;
                }
            }
            _ => {}
        }
    }
    let mut levels = vec![("GPU servers to leaf".to_string(), injection)];
    for (t, g) in &between {
        levels.push((format!("tier {t} to tier {}", t + 1), *g));
    }
    match super::bisection::compute(design, topo) {
        None => Bisection {
            gbps: 0.0,
            lower_gbps: 0.0,
            upper_gbps: 0.0,
            exact: true,
            method:
                "not applicable: fewer than two GPU servers, so no GPU traffic crosses the fabric"
                    .into(),
            levels,
        },
        Some(o) => Bisection {
            gbps: round(o.lower, 3),
            lower_gbps: round(o.lower, 3),
            upper_gbps: round(o.upper, 3),
            exact: o.exact,
            method: o.method,
            levels,
        },
    }
}

fn storage_bandwidth(
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
