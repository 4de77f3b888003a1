//! Failure what-ifs: what a design loses when a switch, link, server or rack power feed goes, and the N-1 sweep
//! over every switch and link that lists the single points of failure with their impact.
//!
//! Removing a part re-runs the full analysis on the design without it, so every figure (bandwidth, GPUs reachable,
//! serving capacity) comes from the same models as the report. The sweep is cheaper: it uses the graph's
//! articulation points and bridges to find the parts whose loss disconnects GPUs, and only analyses those.

mod rank;

pub use rank::{DARK_RACK_BUDGET, SERVER_MODEL_BUDGET};

use super::sites::{ServingNet, capacity_rps, replica_rps};
use super::{Report, analyze};
use crate::model::{Design, DeviceId, LinkId, RackId};
use crate::topology::{NodeKind, Topology};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// A part to take away.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Failure {
    /// A device (switch, server, storage) fails.
    Device(DeviceId),
    /// A cable fails.
    Link(LinkId),
    /// A rack loses one of its two feeds: the rack's devices survive only if its load fits on the other feed.
    Feed(RackId),
    /// A whole site is lost (a regional outage): every device in its racks.
    Site(String),
}

/// What a failure costs.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Impact {
    /// What was taken away (a device, a link, a rack's feed or a site), as the caller asked or the N-1 sweep chose.
    pub failure: Failure,
    /// What failed, in words.
    pub what: String,
    /// GPUs that can still reach the largest group of GPUs, before and after.
    pub gpus_reachable: (usize, usize),
    /// Bisection bandwidth before and after, Gb/s.
    pub bisection_gbps: (f64, f64),
    /// Inter-server bandwidth per GPU before and after, GB/s.
    pub inter_node_gbyte_s: (f64, f64),
    /// Serving replicas before and after (when the design serves): those that reach the front end and, when the
    /// traffic reads from storage, storage ([`super::sites::ServingNet`], the same count as the sites report).
    pub replicas: Option<(u64, u64)>,
    /// Requests per second those replicas carry at the intact design's planned utilisation, before and after
    /// (when the design serves; for a site, the sites report's figures).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub serving_rps: Option<(f64, f64)>,
    /// GPUs with a path to at least one storage appliance, before and after.
    pub gpus_reaching_storage: (usize, usize),
    /// Storage read bandwidth per GPU (worst GPU; 0 when some GPUs reach no storage), before and after, GB/s.
    pub storage_gbyte_s_per_gpu: (f64, f64),
    /// Other parts of the N-1 sweep that fail the same way (the same signature, see [`sweep_with`]): their loss
    /// is this one's with the parts relabelled, so they were not analysed again. For parts whose loss disconnects
    /// nothing, the parts of the same kind whose one-pass estimate is the same.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub alike: Vec<Failure>,
    /// GPUs still reachable whose server's network bandwidth per GPU drops (a server that loses one of its
    /// leaves), after the failure.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub gpus_slowed: usize,
    /// Whether the figures are the one-pass estimate of the N-1 ranking ([`single_failures`]) rather than a full
    /// analysis of the design without the part.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub estimated: bool,
}

fn is_zero(x: &usize) -> bool {
    *x == 0
}

/// How bad a loss is, compared field by field (more is worse): GPUs cut off, GPUs cut off from storage, replicas
/// lost, GPUs slowed times the share of network per GPU lost, the share of bisection lost, the share of storage
/// per GPU lost.
pub fn severity(i: &Impact) -> (usize, usize, u64, f64, f64, f64) {
    let share = |(a, b): (f64, f64)| if a > 0.0 { ((a - b) / a).max(0.0) } else { 0.0 };
    (
        i.gpus_reachable.0.saturating_sub(i.gpus_reachable.1),
        i.gpus_reaching_storage
            .0
            .saturating_sub(i.gpus_reaching_storage.1),
        i.replicas.map_or(0, |(a, b)| a.saturating_sub(b)),
        i.gpus_slowed as f64 * share(i.inter_node_gbyte_s),
        share(i.bisection_gbps),
        share(i.storage_gbyte_s_per_gpu),
    )
}

/// Worst first by [`severity`] (shares compared to 1e-9), then by name.
fn worst_first(a: &Impact, b: &Impact) -> std::cmp::Ordering {
    let (x, y) = (severity(a), severity(b));
    let f = |p: f64, q: f64| {
        if (p - q).abs() < 1e-9 {
            std::cmp::Ordering::Equal
        } else {
            q.total_cmp(&p)
        }
    };
    y.0.cmp(&x.0)
        .then(y.1.cmp(&x.1))
        .then(y.2.cmp(&x.2))
        .then(f(x.3, y.3))
        .then(f(x.4, y.4))
        .then(f(x.5, y.5))
        .then_with(|| a.what.cmp(&b.what))
}

impl Impact {
    /// The impact in one line, before -> after: GPUs reachable, bisection, network per GPU, storage reach and
    /// bandwidth per GPU, replicas.
    pub fn summary(&self) -> String {
        let who = if self.alike.is_empty() {
            self.what.clone()
        } else {
            format!("{} (and {} more like it)", self.what, self.alike.len())
        };
        format!(
            "{}: GPUs reachable {} -> {}, bisection {:.0} -> {:.0} Gb/s, network per GPU {:.1} -> {:.1} GB/s, GPUs \
             reaching storage {} -> {}, storage per GPU {:.2} -> {:.2} GB/s{}{}",
            who,
            self.gpus_reachable.0,
            self.gpus_reachable.1,
            self.bisection_gbps.0,
            self.bisection_gbps.1,
            self.inter_node_gbyte_s.0,
            self.inter_node_gbyte_s.1,
            self.gpus_reaching_storage.0,
            self.gpus_reaching_storage.1,
            self.storage_gbyte_s_per_gpu.0,
            self.storage_gbyte_s_per_gpu.1,
            self.replicas
                .map_or(String::new(), |(a, b)| format!(", replicas {a} -> {b}")),
            self.serving_rps.map_or(String::new(), |(a, b)| format!(
                ", serving {} -> {} req/s",
                super::format::thousands(a, 0),
                super::format::thousands(b, 0)
            ))
        ) + &self.slowed_text()
            + if self.estimated { " (estimated)" } else { "" }
    }

    fn slowed_text(&self) -> String {
        if self.gpus_slowed > 0 {
            format!(
                ", {} slowed",
                super::format::count(self.gpus_slowed, "GPU", "GPUs")
            )
        } else {
            String::new()
        }
    }

    /// What the loss costs, in a few words: the worst of GPUs cut off, storage cut off, replicas lost, network per
    /// GPU, bisection and storage per GPU ("network per GPU 50.0 -> 25.0 GB/s for 248 GPUs").
    pub fn cost_in_words(&self) -> String {
        let (cut, storage, replicas, slowed, bisection, st) = severity(self);
        if cut > 0 {
            format!(
                "cuts off {} ({} -> {} reachable)",
                super::format::count(cut, "GPU", "GPUs"),
                self.gpus_reachable.0,
                self.gpus_reachable.1
            )
        } else if storage > 0 {
            format!(
                "{} lose storage",
                super::format::count(storage, "GPU", "GPUs")
            )
        } else if replicas > 0 {
            let (a, b) = self.replicas.unwrap_or_default();
            format!("replicas {a} -> {b}")
        } else if slowed > 1e-9 {
            format!(
                "network per GPU {:.1} -> {:.1} GB/s for {}",
                self.inter_node_gbyte_s.0,
                self.inter_node_gbyte_s.1,
                super::format::count(self.gpus_slowed, "GPU", "GPUs")
            )
        } else if bisection > 1e-9 {
            format!(
                "bisection {:.0} -> {:.0} Gb/s (-{:.0}%)",
                self.bisection_gbps.0,
                self.bisection_gbps.1,
                bisection * 100.0
            )
        } else if st > 1e-9 {
            format!(
                "storage per GPU {:.2} -> {:.2} GB/s",
                self.storage_gbyte_s_per_gpu.0, self.storage_gbyte_s_per_gpu.1
            )
        } else {
            "nothing lost".to_string()
        }
    }
}

/// GPUs whose server has a path (over any cables, compute or storage) to at least one storage appliance.
pub fn gpus_reaching_storage(design: &Design, topo: &Topology) -> usize {
    let label = topo.components(None, None);
    let mut with_storage = BTreeSet::new();
    for n in topo.graph.node_indices() {
        if let (Some(w), Some(l)) = (topo.graph.node_weight(n), label.get(n.index()))
            && w.kind == NodeKind::Storage
        {
            with_storage.insert(*l);
        }
    }
    topo.graph
        .node_indices()
        .filter_map(|n| {
            let w = topo.graph.node_weight(n)?;
            let l = label.get(n.index())?;
            (w.kind == NodeKind::GpuServer && with_storage.contains(l))
                .then(|| design.devices.get(&w.device).map_or(0, |d| d.gpus.len()))
        })
        .sum()
}

/// GPUs in the largest connected group of GPU servers (a server's GPUs talk over NVLink or PCIe).
pub fn gpus_reachable(design: &Design, topo: &Topology) -> usize {
    let label = topo.components(None, None);
    let mut gpus: std::collections::BTreeMap<usize, usize> = std::collections::BTreeMap::new();
    for n in topo.graph.node_indices() {
        if let (Some(w), Some(l)) = (topo.graph.node_weight(n), label.get(n.index()))
            && w.kind == NodeKind::GpuServer
        {
            *gpus.entry(*l).or_default() +=
                design.devices.get(&w.device).map_or(0, |d| d.gpus.len());
        }
    }
    gpus.into_values().max().unwrap_or(0)
}

/// A failure in words: "device leaf-01", "link#12 (dgx-01 nic0/p1 - leaf-01 p1)", "one power feed of rack C001",
/// "site east".
pub fn describe(design: &Design, failure: &Failure) -> String {
    match failure {
        Failure::Device(id) => format!(
            "device {}",
            design
                .devices
                .get(id)
                .map_or_else(|| id.to_string(), |x| x.name.clone())
        ),
        Failure::Link(id) => design.describe_link(*id),
        Failure::Feed(rack) => format!(
            "one power feed of rack {}",
            design
                .racks
                .get(rack)
                .map_or_else(|| rack.to_string(), |r| r.name.clone())
        ),
        Failure::Site(site) => format!("site {site}"),
    }
}

fn without(design: &Design, failure: Failure) -> (Design, String) {
    let mut d = design.clone();
    let what = describe(design, &failure);
    match failure {
        Failure::Device(id) => {
            d.remove_devices(&BTreeSet::from([id]));
        }
        Failure::Link(id) => {
            d.links.remove(&id);
        }
        Failure::Feed(rack) => {
            // The rack survives on one feed when its load fits that feed; otherwise it goes dark.
            let load = super::power::rack_power_w(design, rack);
            let feed = design.racks.get(&rack).and_then(|r| r.feed_capacity_w);
            if feed.is_none_or(|f| load > f) {
                let ids: BTreeSet<DeviceId> = design
                    .devices
                    .iter()
                    .filter(|(_, x)| x.rack == rack)
                    .map(|(id, _)| *id)
                    .collect();
                d.remove_devices(&ids);
            }
        }
        Failure::Site(site) => {
            // Every device of the site at once: one pass over the links, not one per device.
            let ids: BTreeSet<DeviceId> = design
                .devices
                .iter()
                .filter(|(_, x)| design.racks.get(&x.rack).is_some_and(|r| r.site == site))
                .map(|(id, _)| *id)
                .collect();
            d.remove_devices(&ids);
        }
    }
    (d, what)
}

/// What every impact compares against and the sweep computes once: GPUs reachable, GPUs reaching storage and
/// serving replicas connected in the intact design.
#[derive(Debug, Clone, Copy)]
struct Base {
    reachable: usize,
    reaching_storage: usize,
    replicas: Option<u64>,
}

impl Base {
    fn new(design: &Design) -> Self {
        Self::with(design, &Topology::build(design))
    }

    fn with(design: &Design, topo: &Topology) -> Self {
        Base {
            reachable: gpus_reachable(design, topo),
            reaching_storage: gpus_reaching_storage(design, topo),
            replicas: ServingNet::of(design).map(|n| n.replicas_all_up()),
        }
    }
}

/// Serving replicas connected after a failure: for a site, the sites report's count without it (the same
/// [`ServingNet`] walk on the intact design); for any other part, every replica still connected without it.
fn replicas_after(design: &Design, after: &Design, failure: &Failure) -> Option<u64> {
    match failure {
        Failure::Site(site) => {
            let net = ServingNet::of(design)?;
            let up: Vec<bool> = design.sites.keys().map(|k| k != site).collect();
            Some(net.replicas(&up).iter().sum())
        }
        _ => ServingNet::of(after).map(|n| n.replicas_all_up()),
    }
}

/// The impact of one failure, from a full analysis of the design without the part.
pub fn impact(design: &Design, before: &Report, failure: Failure) -> Impact {
    impact_from(design, before, Base::new(design), failure)
}

fn impact_from(design: &Design, before: &Report, base: Base, failure: Failure) -> Impact {
    let (after_design, what) = without(design, failure.clone());
    let after = analyze(&after_design);
    let topo_after = Topology::build(&after_design);
    let replicas = base
        .replicas
        .zip(replicas_after(design, &after_design, &failure));
    let reach_before = base.reachable;
    let reach_after = gpus_reachable(&after_design, &topo_after);
    Impact {
        failure,
        what,
        gpus_reachable: (reach_before, reach_after),
        bisection_gbps: (
            before.bandwidth.bisection.gbps,
            after.bandwidth.bisection.gbps,
        ),
        inter_node_gbyte_s: (
            before.bandwidth.inter_node_gbyte_s,
            after.bandwidth.inter_node_gbyte_s,
        ),
        replicas,
        serving_rps: replicas
            .zip(replica_rps(design, &before.latency))
            .map(|((a, b), p)| (capacity_rps(a, p), capacity_rps(b, p))),
        gpus_reaching_storage: (
            base.reaching_storage,
            gpus_reaching_storage(&after_design, &topo_after),
        ),
        storage_gbyte_s_per_gpu: (
            before.bandwidth.storage.per_gpu_gbyte_s,
            after.bandwidth.storage.per_gpu_gbyte_s,
        ),
        gpus_slowed: slowed(before, &after),
        estimated: false,
        alike: Vec::new(),
    }
}

/// GPUs of servers present before and after whose network per GPU dropped (both lists are in device order).
fn slowed(before: &Report, after: &Report) -> usize {
    let mut rest = after.bandwidth.servers.as_slice();
    let mut n = 0;
    for s in &before.bandwidth.servers {
        let run = super::next_run(&mut rest, |x| x.device, s.device);
        if run
            .first()
            .is_some_and(|x| x.network_gbyte_s_per_gpu + 1e-9 < s.network_gbyte_s_per_gpu)
        {
            n += s.gpus;
        }
    }
    n
}

/// Most classes of single failures analysed in full by the N-1 sweep: the worst of the one-pass ranking (see
/// [`single_failures`]), each confirmed or corrected by a full analysis of the design without the part.
pub const SWEEP_LIMIT: usize = 16;

/// The sweep's budget of work, in devices plus links analysed: each class analysed in full costs a whole analysis
/// of the design, so a large design gets fewer ([`sweep_cap`]); at least one class is always analysed. The other
/// classes keep their one-pass estimate, marked as such.
pub const SWEEP_BUDGET: usize = 50_000;

/// How many classes of single failures the sweep analyses in full for this design: [`SWEEP_BUDGET`] over its
/// devices and links, between 1 and [`SWEEP_LIMIT`].
pub fn sweep_cap(design: &Design) -> usize {
    let size = (design.devices.len() + design.links.len()).max(1);
    (SWEEP_BUDGET / size).clamp(1, SWEEP_LIMIT)
}

/// Most classes of single failures the report keeps ([`SingleFailures::worst`]); the sweep lists them all.
pub const REPORT_SINGLE_FAILURES: usize = 10;

/// What the sweep found, and how many classes of candidates it left out past [`sweep_cap`].
#[derive(Debug, Clone, Default)]
pub struct Sweep {
    /// Every class of single failures that loses something, worst first: the worst [`Sweep::analysed`] from a
    /// full analysis, the others with their one-pass estimate ([`Impact::estimated`]).
    pub impacts: Vec<Impact>,
    /// Classes of single failures that lose something (alike parts counted once).
    pub classes: usize,
    /// Classes analysed in full (the worst of the one-pass ranking, up to [`sweep_cap`]).
    pub analysed: usize,
}

/// The single failures of a design ranked by what each loses, from one pass over the intact design's analysis
/// (the report's section; docs/analysis.md, "Single failures by impact").
#[derive(Debug, Clone, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SingleFailures {
    /// The worst classes, worst first, at most [`REPORT_SINGLE_FAILURES`], with their one-pass estimates.
    pub worst: Vec<Impact>,
    /// Classes of single failures that lose something (alike parts counted once).
    pub classes: usize,
    /// Parts considered: switches, storage appliances, cables, and racks with stated feeds.
    pub candidates: usize,
}

/// The one-pass ranking of every single failure of a design, all classes worst first, and the parts considered.
fn ranked(
    design: &Design,
    topo: &Topology,
    bw: &super::bandwidth::BandwidthReport,
    power: &super::power::PowerReport,
    replicas: Option<u64>,
) -> (Vec<Impact>, usize) {
    let (cands, considered) = rank::candidates(design, topo, bw, power, replicas);
    // Parts that disconnect something are grouped by signature (their loss is the other's relabelled), the others
    // by kind, part and estimated figures.
    let mut groups: BTreeMap<Signature, Vec<(u8, u64)>> = BTreeMap::new();
    type FiguresKey = (u8, Option<crate::model::PartId>, u64, [u64; 10], usize);
    let mut by_figures: BTreeMap<FiguresKey, Vec<(u8, u64)>> = BTreeMap::new();
    let mut single: Vec<Vec<(u8, u64)>> = Vec::new();
    let mut impacts: BTreeMap<(u8, u64), Impact> = BTreeMap::new();
    for c in cands {
        let key = match c.failure {
            Failure::Device(id) => (0, id.0),
            Failure::Link(id) => (1, id.0),
            Failure::Feed(id) => (2, id.0),
            Failure::Site(_) => continue,
        };
        match (c.cuts && key.0 < 2)
            .then(|| signature(design, topo, key))
            .flatten()
        {
            Some(sig) => groups.entry(sig).or_default().push(key),
            None if key.0 < 2 && !c.cuts => {
                let (part, rate) = match c.failure {
                    Failure::Device(id) => (design.devices.get(&id).map(|d| d.part.clone()), 0),
                    Failure::Link(id) => (
                        design.links.get(&id).and_then(|l| l.cable.clone()),
                        design
                            .links
                            .get(&id)
                            .map_or(0, |l| l.medium.gbps().to_bits()),
                    ),
                    _ => (None, 0),
                };
                let i = &c.impact;
                let bits = |(a, b): (f64, f64)| [a.to_bits(), b.to_bits()];
                let [a, b] = bits(i.bisection_gbps);
                let [c0, d] = bits(i.inter_node_gbyte_s);
                let [e, f] = bits(i.storage_gbyte_s_per_gpu);
                let (r0, r1) = i.replicas.unwrap_or((u64::MAX, u64::MAX));
                let figures = [
                    a,
                    b,
                    c0,
                    d,
                    e,
                    f,
                    i.gpus_reachable.1 as u64,
                    i.gpus_reaching_storage.1 as u64,
                    r0,
                    r1,
                ];
                by_figures
                    .entry((key.0, part, rate, figures, i.gpus_slowed))
                    .or_default()
                    .push(key);
            }
            None => single.push(vec![key]),
        }
        impacts.insert(key, c.impact);
    }
    let mut classes = join_swapped(design, topo, groups);
    classes.extend(by_figures.into_values());
    classes.extend(single);
    let failure = |(kind, id): (u8, u64)| match kind {
        0 => Failure::Device(DeviceId(id)),
        1 => Failure::Link(LinkId(id)),
        _ => Failure::Feed(RackId(id)),
    };
    let mut out: Vec<Impact> = classes
        .into_iter()
        .filter_map(|mut class| {
            class.sort_unstable();
            let (first, rest) = class.split_first()?;
            let mut i = impacts.remove(first)?;
            i.what = describe(design, &i.failure);
            i.alike = rest.iter().map(|c| failure(*c)).collect();
            Some(i)
        })
        .collect();
    out.sort_by(worst_first);
    (out, considered)
}

/// The report's section: the one-pass ranking, its worst [`REPORT_SINGLE_FAILURES`] classes kept.
pub(crate) fn single_failures(
    design: &Design,
    topo: &Topology,
    bw: &super::bandwidth::BandwidthReport,
    power: &super::power::PowerReport,
    replicas: Option<u64>,
) -> SingleFailures {
    let (mut worst, candidates) = ranked(design, topo, bw, power, replicas);
    let classes = worst.len();
    worst.truncate(REPORT_SINGLE_FAILURES);
    SingleFailures {
        worst,
        classes,
        candidates,
    }
}

/// What makes two sweep candidates fail the same way; see [`signature`].
type Signature = (
    u8,
    String,
    Vec<(String, Vec<EndKey>)>,
    Vec<(usize, Vec<EndKey>)>,
);

/// One cable as a candidate sees it: the port at the far end when that end is not a switch (a server's NIC slot is
/// its rail), the port at the near end likewise, the rate, the cable part and the length bits.
type EndKey = (String, String, u64, String, u64);

/// The cables between two nodes as `near` sees them (see [`EndKey`]), sorted.
fn cable_keys(
    design: &Design,
    topo: &Topology,
    near: petgraph::graph::NodeIndex,
    far: petgraph::graph::NodeIndex,
    links: &[LinkId],
) -> Vec<EndKey> {
    let is_switch = |n: petgraph::graph::NodeIndex| {
        topo.graph
            .node_weight(n)
            .is_some_and(|w| w.kind == NodeKind::Switch)
    };
    let (nd, fd) = (
        topo.graph.node_weight(near).map(|w| w.device),
        topo.graph.node_weight(far).map(|w| w.device),
    );
    let mut v: Vec<EndKey> = links
        .iter()
        .filter_map(|l| design.links.get(l))
        .map(|l| {
            let port = |dev: Option<DeviceId>, n: petgraph::graph::NodeIndex| {
                if is_switch(n) {
                    String::new()
                } else if Some(l.a.device) == dev {
                    l.a.port.to_string()
                } else {
                    l.b.port.to_string()
                }
            };
            (
                port(fd, far),
                port(nd, near),
                l.medium.gbps().to_bits(),
                l.cable.as_ref().map_or(String::new(), |c| c.to_string()),
                l.length_m.to_bits(),
            )
        })
        .collect();
    v.sort_unstable();
    v
}

/// Joins groups of switch candidates (the same [`signature`]) that the fabric's symmetry swaps: a group's shared
/// neighbours S (a pod's spines for its rack leaves) must be named by no other group and have no cables between
/// them; the group's form is its signature without the identities of S, its size, and per node of S the cables
/// to the group and the list of nodes beyond (by identity, with their cables). Two groups of the same form whose
/// regions do not touch are swapped by an automorphism (members with their own servers, S in canonical order,
/// everything beyond fixed), so they fail the same way. Linear in the cables of the groups' shared neighbours.
fn join_swapped(
    design: &Design,
    topo: &Topology,
    groups: BTreeMap<Signature, Vec<(u8, u64)>>,
) -> Vec<Vec<(u8, u64)>> {
    use petgraph::visit::EdgeRef;
    let groups: Vec<(Signature, Vec<(u8, u64)>)> = groups.into_iter().collect();
    let mut owners: BTreeMap<usize, usize> = BTreeMap::new();
    let mut member_of: BTreeMap<usize, usize> = BTreeMap::new();
    for (g, (sig, members)) in groups.iter().enumerate() {
        if sig.0 != 0 {
            continue;
        }
        for (n, _) in &sig.3 {
            *owners.entry(*n).or_default() += 1;
        }
        for (_, id) in members {
            if let Some(n) = topo.node_of.get(&DeviceId(*id)) {
                member_of.insert(n.index(), g);
            }
        }
    }
    type Beyond = Vec<(usize, Vec<EndKey>)>;
    type Form = (
        String,
        Vec<(String, Vec<EndKey>)>,
        usize,
        Vec<(Vec<EndKey>, Beyond)>,
    );
    let mut forms: BTreeMap<Form, Vec<usize>> = BTreeMap::new();
    // Per group: the nodes beyond its shared neighbours.
    let mut beyond_of: Vec<Vec<usize>> = vec![Vec::new(); groups.len()];
    for (g, (sig, members)) in groups.iter().enumerate() {
        if sig.0 != 0 || sig.3.is_empty() || sig.3.iter().any(|(n, _)| owners.get(n) != Some(&1)) {
            continue;
        }
        let shared: BTreeSet<usize> = sig.3.iter().map(|(n, _)| *n).collect();
        let mut per: Vec<(Vec<EndKey>, Beyond)> = Vec::with_capacity(sig.3.len());
        let mut ok = true;
        for (n, ends) in &sig.3 {
            let v = petgraph::graph::NodeIndex::new(*n);
            let mut beyond: Beyond = Vec::new();
            for e in topo.graph.edges(v) {
                let u = if e.source() == v {
                    e.target()
                } else {
                    e.source()
                };
                if member_of.get(&u.index()) == Some(&g) {
                    continue;
                }
                if shared.contains(&u.index()) {
                    ok = false;
                    break;
                }
                beyond.push((
                    u.index(),
                    cable_keys(design, topo, v, u, topo.links(e.id())),
                ));
            }
            if !ok {
                break;
            }
            beyond.sort_unstable();
            if let Some(b) = beyond_of.get_mut(g) {
                b.extend(beyond.iter().map(|x| x.0));
            }
            per.push((ends.clone(), beyond));
        }
        if !ok {
            continue;
        }
        per.sort_unstable();
        forms
            .entry((sig.1.clone(), sig.2.clone(), members.len(), per))
            .or_default()
            .push(g);
    }
    let shared_sets: Vec<BTreeSet<usize>> = groups
        .iter()
        .map(|(sig, _)| sig.3.iter().map(|(n, _)| *n).collect())
        .collect();
    let mut joined: Vec<Option<Vec<(u8, u64)>>> =
        groups.into_iter().map(|(_, m)| Some(m)).collect();
    for list in forms.into_values() {
        let Some((&first, rest)) = list.split_first() else {
            continue;
        };
        for &g in rest {
            // Nothing beyond `first`'s neighbours may be g's member or shared neighbour (the same form puts g's
            // neighbours beyond the same nodes, so the reverse holds too).
            let touches = beyond_of.get(first).is_some_and(|b| {
                b.iter().any(|u| {
                    member_of.get(u) == Some(&g)
                        || shared_sets.get(g).is_some_and(|s| s.contains(u))
                })
            });
            if touches {
                continue;
            }
            let moved = joined.get_mut(g).and_then(Option::take).unwrap_or_default();
            if let Some(Some(m)) = joined.get_mut(first) {
                m.extend(moved);
            }
        }
    }
    joined.into_iter().flatten().collect()
}

/// The signature of a sweep candidate (kind 0: a switch, 1: a single cable), or None when it has none to share.
///
/// A switch: its part and, per neighbour, the cables to it; a neighbour whose only neighbour is the switch (a
/// server on one leaf) is described by its build (part, GPUs, NICs), any other by its identity. Two switches with
/// the same signature are swapped, each with its own neighbours, by an automorphism of the network graph that
/// fixes every other device, so losing one is losing the other relabelled. A single cable: the same, for a
/// cable whose one end hangs on the other alone (a single-homed server). What the relabelling does not preserve
/// is the order of servers by id, along which the flat and per-rail rings run; the ring a failure leaves is the
/// same up to where it skips the lost servers.
fn signature(design: &Design, topo: &Topology, (kind, id): (u8, u64)) -> Option<Signature> {
    use petgraph::visit::EdgeRef;
    let build = |n: petgraph::graph::NodeIndex| -> Option<String> {
        let w = topo.graph.node_weight(n)?;
        let d = design.devices.get(&w.device)?;
        Some(format!("{:?}|{}|{:?}|{:?}", w.kind, d.part, d.gpus, d.nics))
    };
    let lonely = |n: petgraph::graph::NodeIndex| topo.graph.neighbors(n).count() == 1;
    let cables = |near, far, links: &[LinkId]| cable_keys(design, topo, near, far, links);
    let mut private = Vec::new();
    let mut shared = Vec::new();
    let near = if kind == 0 {
        let v = *topo.node_of.get(&DeviceId(id))?;
        for e in topo.graph.edges(v) {
            let u = if e.source() == v {
                e.target()
            } else {
                e.source()
            };
            let ends = cables(v, u, topo.links(e.id()));
            if lonely(u) {
                private.push((build(u)?, ends));
            } else {
                shared.push((u.index(), ends));
            }
        }
        v
    } else {
        let link = design.links.get(&LinkId(id))?;
        let (a, b) = (
            *topo.node_of.get(&link.a.device)?,
            *topo.node_of.get(&link.b.device)?,
        );
        // The end that hangs on the other alone is the one relabelled; the other stays.
        let (hang, stay) = if lonely(a) {
            (a, b)
        } else if lonely(b) {
            (b, a)
        } else {
            return None;
        };
        let e = topo.graph.find_edge(hang, stay)?;
        let ends = cables(stay, hang, topo.links(e));
        private.push((build(hang)?, ends));
        shared.push((stay.index(), Vec::new()));
        stay
    };
    private.sort_unstable();
    shared.sort_unstable();
    let own = if kind == 0 {
        build(near)?
    } else {
        String::new()
    };
    Some((kind, own, private, shared))
}

/// N-1 sweep over every switch, cable, storage appliance and rack feed (racks with stated feeds), ranked by what
/// each loses (GPUs cut off, from each other or from storage, replicas, network per GPU, bisection, storage per
/// GPU; see [`severity`]), worst first. The ranking is one pass over the intact design ([`single_failures`]); the
/// worst classes, up to [`sweep_cap`], are then analysed in full. Parts that lose nothing are not listed.
pub fn n_minus_one(design: &Design, before: &Report) -> Vec<Impact> {
    sweep_with(design, before, &|_, _| true).unwrap_or_default()
}

/// [`n_minus_one`] with progress and cancellation, for the app and the CLI: `progress(done, total)` is called
/// after each class is analysed in full (from worker threads, in no set order, `done` counting up to `total`);
/// when it returns false the sweep stops as soon as the analyses under way finish and returns None. Classes are
/// analysed in parallel (rayon) and the result does not depend on the number of threads.
pub fn sweep_with(
    design: &Design,
    before: &Report,
    progress: &(dyn Fn(usize, usize) -> bool + Sync),
) -> Option<Vec<Impact>> {
    sweep_counted(design, before, progress).map(|s| s.impacts)
}

/// [`sweep_with`], saying how many classes there were and how many were analysed in full within the budget
/// ([`sweep_cap`]): the command line and the app say when some keep their estimate.
pub fn sweep_counted(
    design: &Design,
    before: &Report,
    progress: &(dyn Fn(usize, usize) -> bool + Sync),
) -> Option<Sweep> {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let topo = Topology::build(design);
    let (mut all, _) = ranked(
        design,
        &topo,
        &before.bandwidth,
        &before.power,
        before.cost.replicas_in_design,
    );
    let base = Base::with(design, &topo);
    drop(topo);
    let found = all.len();
    let total = sweep_cap(design).min(found);
    let rest = all.split_off(total);
    let (done, cancelled) = (AtomicUsize::new(0), AtomicBool::new(false));
    let analysed: Vec<Option<Impact>> = all
        .into_par_iter()
        .map(|estimate| {
            if cancelled.load(Ordering::Relaxed) {
                return None;
            }
            let mut i = impact_from(design, before, base, estimate.failure);
            i.alike = estimate.alike;
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            if !progress(n, total) {
                cancelled.store(true, Ordering::Relaxed);
            }
            Some(i)
        })
        .collect();
    if cancelled.load(Ordering::Relaxed) {
        return None;
    }
    // A part the estimate ranked among the worst that a full analysis finds loses nothing is left out.
    let mut out: Vec<Impact> = analysed
        .into_iter()
        .flatten()
        .filter(rank::loses)
        .chain(rest)
        .collect();
    out.sort_by(worst_first);
    Some(Sweep {
        classes: out.len(),
        impacts: out,
        analysed: total,
    })
}

#[cfg(test)]
mod tests;
