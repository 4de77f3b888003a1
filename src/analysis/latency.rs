//! GPU-to-GPU latency by path class and all-reduce times.
//!
//! Path latency (docs/analysis.md, "Latency"): software per-message cost + NIC + switch hops + serialisation (once:
//! the switches are cut-through; once per hop for store-and-forward ones) + propagation (5 ns/m) + queueing.
//! Queueing: each link on the path is an independent M/M/1 queue at the utilisation target with service rate = link
//! bandwidth / message size; the path's percentiles are those of the sum of the waits (closed form in
//! [`queueing::path_wait_cdf`]). At a utilisation of 1 or more the queues are saturated: no finite latency.

use super::bandwidth::BandwidthReport;
use super::format::round;
use super::{collectives, queueing};
use crate::model::part::PartKind;
use crate::model::{Design, Protocol};
use crate::topology::{NodeKind, Topology};
use petgraph::visit::EdgeRef;
use serde::Serialize;

/// Software cost per message over NVLink, s (distributed-training-book alpha-beta chapter: ~1 us).
pub const ALPHA_NVLINK_S: f64 = 1e-6;
/// Software cost per message over PCIe peer-to-peer, s (same order as NVLink; planning value).
pub const ALPHA_PCIE_S: f64 = 2e-6;
/// Software cost per message over InfiniBand inside one rack, s (book: 1-2 us).
pub const ALPHA_IB_RACK_S: f64 = 2e-6;
/// Software cost per message over InfiniBand across racks, s (book: 3-5 us; the worked example uses 5 us).
pub const ALPHA_IB_S: f64 = 5e-6;
/// Software cost per message over Ethernet (RoCE), s: the low end of the book's 10-50 us Ethernet range.
pub const ALPHA_ETH_S: f64 = 10e-6;
/// Propagation in fibre or copper, ns per metre (about 2/3 c).
pub const PROPAGATION_NS_PER_M: f64 = 5.0;
/// Latency of one PCIe switch hop, ns (planning value for Gen4/Gen5 switches; override in code review).
pub const PCIE_SWITCH_NS: f64 = 150.0;

/// Latency section of the report.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct LatencyReport {
    /// Message size used for path latency, bytes.
    pub message_bytes: f64,
    /// Utilisation the queueing model assumes.
    pub utilisation: f64,
    /// One entry per path class present in the design.
    pub paths: Vec<PathLatency>,
    /// All-reduce over all GPUs.
    pub allreduce: AllReduce,
    /// Collectives as NCCL runs them: every algorithm and protocol, NCCL's pick, the expected nccl-tests sweep
    /// (None with fewer than two GPUs).
    pub nccl: Option<super::nccl::NcclReport>,
    /// Serving latency at the request rate, when the design has a service level.
    pub serving: Option<ServingLatency>,
    /// Time to run the design's training job, when it has one.
    pub training: Option<TrainingTime>,
    /// How to read these figures.
    pub note: String,
}

/// Where two GPUs sit relative to each other, which sets the path between them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PathClass {
    /// In the same server: NVLink or PCIe peer to peer.
    SameServer,
    /// On servers under the same leaf.
    SameLeaf,
    /// Under different leaves, through a spine.
    AcrossSpine,
    /// Under different spines, through the core.
    AcrossCore,
    /// At different sites, over the inter-site cable.
    AcrossSites,
}

impl PathClass {
    /// The class's name as reports write it.
    pub fn label(self) -> &'static str {
        match self {
            PathClass::SameServer => "same server",
            PathClass::SameLeaf => "same leaf",
            PathClass::AcrossSpine => "across spine",
            PathClass::AcrossCore => "across core",
            PathClass::AcrossSites => "across sites",
        }
    }
}

/// Latency of one path class.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PathLatency {
    /// The class, for code (reports show `class`).
    #[serde(skip)]
    pub kind: PathClass,
    /// The class's name: "same server", "same leaf", "across spine", "across core", "across sites".
    pub class: String,
    /// Switch hops on the path.
    pub switch_hops: u32,
    /// Links queued on.
    pub links: u32,
    /// Software per-message cost, ns.
    pub software_ns: f64,
    /// NIC (or NVSwitch / PCIe switch) latency, ns.
    pub nic_ns: f64,
    /// Sum of switch port-to-port latencies, ns.
    pub switch_ns: f64,
    /// Time to put one message of the design's size on a link at the path's link rate, ns; paid at every link when
    /// the switches store and forward, once when they cut through.
    pub serialisation_ns: f64,
    /// Signal travel time along the path's cables at [`PROPAGATION_NS_PER_M`] (5 ns per metre), ns.
    pub propagation_ns: f64,
    /// Queueing wait at p50, ns.
    pub queue_p50_ns: f64,
    /// Queueing wait at p99, ns.
    pub queue_p99_ns: f64,
    /// Queueing wait at p99.9, ns.
    pub queue_p999_ns: f64,
    /// Total at p50, ns.
    pub p50_ns: f64,
    /// Total at p99, ns.
    pub p99_ns: f64,
    /// Total at p99.9, ns.
    pub p999_ns: f64,
    /// The queues are saturated (utilisation target 1 or more): the queueing and total percentiles are infinite
    /// (null in JSON) and shown as "saturated".
    pub saturated: bool,
}

/// One all-reduce of the design's message size over every GPU: the alpha-beta inputs, the textbook algorithms'
/// times and NCCL's pick.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AllReduce {
    /// Message size, bytes.
    pub bytes: f64,
    /// GPUs taking part: every GPU installed in a server (the bandwidth section's count).
    pub ranks: usize,
    /// GPU servers the ranks are spread over (servers with at least one GPU).
    pub nodes: usize,
    /// alpha inside a server, us.
    pub alpha_intra_us: f64,
    /// beta inside a server after link efficiency, GB/s.
    pub beta_intra_gbyte_s: f64,
    /// alpha between servers, us.
    pub alpha_inter_us: f64,
    /// beta between servers per GPU after link efficiency, GB/s.
    pub beta_inter_gbyte_s: f64,
    /// Textbook alpha-beta forms (ring, tree, hierarchical) for comparison; not the headline.
    pub algorithms: Vec<AlgorithmTime>,
    /// What NCCL would pick ("NVLS/Simple"; the fastest textbook form when the NCCL model has nothing to say).
    pub best: String,
    /// Its time, ms.
    pub best_ms: f64,
}

impl AllReduce {
    /// How [`AllReduce::best`] was chosen, in words: NCCL's own pick from its tuning model when the design gives
    /// NCCL a communicator shape (a name with a protocol, "NVLS/Simple"), else the fastest textbook form.
    pub fn method(&self) -> &'static str {
        if self.best.contains('/') {
            "NCCL's pick (its tuning model, v2.27.3) among ring, tree, NVLS, NVLS-tree and CollNet with the LL, LL128 \
             and Simple protocols"
        } else {
            "the fastest textbook form (ring, tree or hierarchical) by the alpha-beta model; NCCL's model needs GPUs \
             on a network"
        }
    }
}

/// Time of one all-reduce algorithm.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AlgorithmTime {
    /// "ring", "tree", "hierarchical".
    pub algorithm: String,
    /// Time for one all-reduce of the design's message size with this algorithm, ms.
    pub time_ms: f64,
    /// Algorithm bandwidth n/t, GB/s.
    pub algbw_gbyte_s: f64,
    /// Bus bandwidth algbw x 2(p-1)/p, GB/s.
    pub busbw_gbyte_s: f64,
}

/// How long the design's training job takes (dense transformer: 6 FLOPs per parameter per token).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TrainingTime {
    /// Peak dense BF16 throughput of all GPUs, PFLOPS.
    pub peak_pflops: f64,
    /// Compute per step: 6 x parameters x batch tokens / (GPUs x peak x MFU), s.
    pub compute_s_per_step: f64,
    /// Data-parallel gradient collective per step (NCCL's pick over the data-parallel group for parameters x
    /// gradient bytes / (TP x PP); reduce-scatter plus all-gather with a sharded optimiser), s.
    pub allreduce_s_per_step: f64,
    /// The part of it not hidden behind compute, s.
    pub exposed_s_per_step: f64,
    /// Steps: tokens / batch tokens, rounded up.
    pub steps: f64,
    /// Wall-clock time, days.
    pub days: f64,
    /// GPU-hours the job occupies: wall-clock hours times every GPU in the design.
    pub gpu_hours: f64,
    /// Share of each step spent waiting on the network and the pipeline (with an end-to-end MFU: the share these
    /// take inside the measured step, not added to it).
    pub communication_share: f64,
    /// Tensor, pipeline, data and expert degrees, and why.
    pub parallelism: Option<super::parallel::Parallelism>,
    /// Tensor-parallel all-reduces per step, s.
    pub tensor_s_per_step: f64,
    /// Pipeline sends per step, s.
    pub pipeline_s_per_step: f64,
    /// Pipeline bubble per step: compute x (PP - 1) / (microbatches x model chunks per stage), s.
    pub bubble_s_per_step: f64,
    /// Expert all-to-alls per step, s.
    pub expert_s_per_step: f64,
    /// Context parallelism's ring-attention sends per step, s (0 without context parallelism).
    pub context_s_per_step: f64,
    /// One step, s: compute + bubble + tensor + pipeline + expert + context + exposed data-parallel with a
    /// compute-only MFU;
    /// compute alone with an end-to-end MFU.
    pub step_s: f64,
    /// What the MFU covers.
    pub mfu_scope: crate::model::MfuScope,
}

/// Serving latency at the design's request rate.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ServingLatency {
    /// Replicas the design's GPUs hold.
    pub replicas: u64,
    /// Load on each replica, requests per second.
    pub per_replica_rps: f64,
    /// Utilisation of each replica.
    pub utilisation: f64,
    /// p99 time in system of a replica (M/M/1) plus the network p99 of the nearest path, ms.
    pub p99_ms: f64,
    /// The p99 latency target the design's serving parameters set (`latency_target_ms`), ms.
    pub target_ms: f64,
    /// Highest replica utilisation that keeps p99 under the target: 1 - ln(100) / (X x (target - network p99)).
    pub max_utilisation_for_target: f64,
    /// Utilisation planned: the lower of the design's target and the one above.
    pub planned_utilisation: f64,
    /// Replicas needed: ceil(R / (X x planned utilisation)); None when no utilisation meets the target.
    pub replicas_needed: Option<u64>,
    /// GPUs needed for those replicas.
    pub gpus_needed: Option<u64>,
    /// Requests per second the design carries at the planned utilisation.
    pub capacity_rps: f64,
    /// How far the request rate can grow before the planned utilisation is crossed (0.12 = 12%).
    pub headroom: f64,
}

pub(crate) fn analyze(design: &Design, topo: &Topology, bw: &BandwidthReport) -> LatencyReport {
    let msg = design.params.traffic.latency_message_bytes.max(1.0);
    let rho = design.params.utilisation_target;
    let eff = design.params.traffic.link_efficiency.clamp(0.01, 1.0);
    let mut paths = Vec::new();

    // Same server: NVLink through one NVSwitch, or PCIe peer-to-peer through a PCIe switch.
    if let Some(s) = bw.servers.iter().find(|s| s.gpus > 1) {
        let nvswitch_ns = design
            .devices
            .get(&s.device)
            .and_then(|d| design.parts.get(&d.part))
            .and_then(|p| match &p.kind {
                PartKind::Server(spec) => spec.nvlink.as_ref().map(|n| n.switch_latency_ns),
                _ => None,
            });
        let nvlink = s.nvlink_gbyte_s_per_gpu > 0.0;
        let (alpha, hop_ns) = if nvlink {
            (ALPHA_NVLINK_S, nvswitch_ns.unwrap_or(25.0))
        } else {
            (ALPHA_PCIE_S, PCIE_SWITCH_NS)
        };
        paths.push(path_class(
            PathClass::SameServer,
            0,
            1,
            alpha * 1e9,
            hop_ns,
            0.0,
            s.intra_gbyte_s_per_gpu,
            0.0,
            msg,
            rho,
        ));
    }

    // Network classes from the fabric's tiers.
    let fabric = fabric_figures(design, topo);
    if let Some(f) = &fabric {
        let multi_rack = design.racks.len() > 1;
        let alpha_rack = if f.ethernet {
            ALPHA_ETH_S
        } else {
            ALPHA_IB_RACK_S
        };
        let alpha_far = if f.ethernet {
            ALPHA_ETH_S
        } else if multi_rack {
            ALPHA_IB_S
        } else {
            ALPHA_IB_RACK_S
        };
        // A path through the fabric: `hops` switches, `hops + 1` links, `prop_m` metres of cable.
        let network_path = |class: PathClass, hops: u32, prop_m: f64, alpha: f64| {
            let serial_hops = if f.cut_through { 1 } else { hops + 1 };
            let mut p = path_class(
                class,
                hops,
                hops + 1,
                alpha * 1e9,
                f.nic_ns,
                f.switch_ns * f64::from(hops),
                f.link_gbps / 8.0,
                prop_m * PROPAGATION_NS_PER_M,
                msg,
                rho,
            );
            // Store-and-forward switches pay serialisation at every hop.
            let extra = p.serialisation_ns * f64::from(serial_hops - 1);
            p.serialisation_ns += extra;
            p.p50_ns += extra;
            p.p99_ns += extra;
            p.p999_ns += extra;
            round_path(p)
        };
        let max_tier = topo.max_tier();
        for (class, tiers_up) in [
            (PathClass::SameLeaf, 1u8),
            (PathClass::AcrossSpine, 2),
            (PathClass::AcrossCore, 3),
        ] {
            if tiers_up > max_tier {
                break;
            }
            let hops = u32::from(2 * tiers_up - 1);
            let prop = 2.0 * f.edge_length_m + 2.0 * f.upper_length_m * f64::from(tiers_up - 1);
            let alpha = if tiers_up == 1 { alpha_rack } else { alpha_far };
            paths.push(network_path(class, hops, prop, alpha));
        }
        // Across sites: up to the switch that holds the inter-site cable, over it (5 ns per metre of fibre), and
        // down on the other side (docs/analysis.md, "Sites and availability").
        if let Some((wan_m, ta, tb)) = cross_site_link(design, topo) {
            let hops = u32::from(ta) + u32::from(tb);
            let prop = 2.0 * f.edge_length_m
                + f.upper_length_m * f64::from(hops.saturating_sub(2))
                + wan_m;
            paths.push(network_path(PathClass::AcrossSites, hops, prop, alpha_far));
        }
    }
    let paths: Vec<PathLatency> = paths.into_iter().map(round_path).collect();

    let mut allreduce = allreduce(design, bw, fabric.as_ref(), eff);
    let shape = super::nccl::shape(design, topo, bw);
    if let Some(e) = shape
        .as_ref()
        .and_then(|s| s.pick(super::nccl::Collective::AllReduce, allreduce.bytes, None))
        && allreduce.bytes > 0.0
    {
        allreduce.best = format!("{}/{}", e.algorithm.name(), e.protocol.name());
        allreduce.best_ms = round(e.time_us / 1e3, 4);
    }
    let serving = serving(design, bw, &paths);
    let training = training(design, bw, &allreduce, shape.as_ref());
    let nccl = shape.map(|s| super::nccl::report(s, allreduce.bytes));
    LatencyReport {
        message_bytes: msg,
        utilisation: rho,
        paths,
        allreduce,
        nccl,
        serving,
        training,
        note: format!(
            "Model estimates: collectives by NCCL's tuning model and M/M/1 queueing at {:.0}% utilisation{}, not measurements.",
            rho * 100.0,
            if rho < 1.0 {
                ""
            } else {
                " (saturated: queues never drain, so no path latency is finite)"
            }
        ),
    }
}

/// The shortest cable between racks of two different sites: its length and the tiers of the switches at its ends.
fn cross_site_link(design: &Design, topo: &Topology) -> Option<(f64, u8, u8)> {
    if design.sites.len() < 2 {
        return None;
    }
    let site = |d: crate::model::DeviceId| design.device_site(d).filter(|s| !s.is_empty());
    let tier = |d: crate::model::DeviceId| topo.tier(d).unwrap_or(1).max(1);
    design
        .links
        .values()
        .filter_map(|l| match (site(l.a.device), site(l.b.device)) {
            // A cable cannot be shorter than the route between its sites (`site-distance` says so when it is).
            (Some(a), Some(b)) if a != b => Some((
                l.length_m
                    .max(design.site_distance_km(a, b).unwrap_or(0.0) * 1000.0),
                tier(l.a.device),
                tier(l.b.device),
            )),
            _ => None,
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
}

#[allow(clippy::too_many_arguments)]
fn path_class(
    kind: PathClass,
    switch_hops: u32,
    links: u32,
    software_ns: f64,
    nic_ns: f64,
    switch_ns: f64,
    link_gbyte_s: f64,
    propagation_ns: f64,
    msg: f64,
    rho: f64,
) -> PathLatency {
    // Service time of one message on one link, ns: bytes / (GB/s) = ns.
    let service_ns = if link_gbyte_s > 0.0 {
        msg / link_gbyte_s
    } else {
        f64::INFINITY
    };
    let mu = 1.0 / service_ns;
    let q = |p: f64| queueing::path_wait_percentile(mu, rho, links, p);
    let base = software_ns + nic_ns + switch_ns + service_ns + propagation_ns;
    let (q50, q99, q999) = (q(0.5), q(0.99), q(0.999));
    PathLatency {
        kind,
        class: kind.label().to_string(),
        switch_hops,
        links,
        software_ns,
        nic_ns,
        switch_ns,
        serialisation_ns: service_ns,
        propagation_ns,
        queue_p50_ns: q50,
        queue_p99_ns: q99,
        queue_p999_ns: q999,
        p50_ns: base + q50,
        p99_ns: base + q99,
        p999_ns: base + q999,
        saturated: links > 0 && (rho >= 1.0 || rho.is_nan()),
    }
}

fn round_path(mut p: PathLatency) -> PathLatency {
    for v in [
        &mut p.software_ns,
        &mut p.nic_ns,
        &mut p.switch_ns,
        &mut p.serialisation_ns,
        &mut p.propagation_ns,
        &mut p.queue_p50_ns,
        &mut p.queue_p99_ns,
        &mut p.queue_p999_ns,
        &mut p.p50_ns,
        &mut p.p99_ns,
        &mut p.p999_ns,
    ] {
        *v = round(*v, 2);
    }
    p
}

/// Figures of the compute fabric: the NIC and switch latencies, link rate and cable lengths.
pub struct FabricFigures {
    /// NIC latency, ns (slowest compute NIC).
    pub nic_ns: f64,
    /// Switch port-to-port latency, ns (slowest leaf).
    pub switch_ns: f64,
    /// Whether every switch is cut-through.
    pub cut_through: bool,
    /// Rate of a server-to-leaf link, Gb/s (slowest).
    pub link_gbps: f64,
    /// Mean server-to-leaf cable length, m.
    pub edge_length_m: f64,
    /// Mean switch-to-switch cable length, m.
    pub upper_length_m: f64,
    /// Whether the fabric is Ethernet.
    pub ethernet: bool,
}

fn fabric_figures(design: &Design, topo: &Topology) -> Option<FabricFigures> {
    let mut nic_ns: f64 = 0.0;
    for d in design.devices.values() {
        for p in d.nics.values() {
            if let Some(PartKind::Nic(n)) = design.parts.get(p).map(|p| &p.kind) {
                nic_ns = nic_ns.max(n.latency_ns);
            }
        }
    }
    let (mut switch_ns, mut cut_through, mut ethernet, mut any) = (0.0f64, true, false, false);
    for (id, d) in &design.devices {
        if topo.tier(*id).is_none() {
            continue;
        }
        if let Some(PartKind::Switch(s)) = design.parts.get(&d.part).map(|p| &p.kind) {
            any = true;
            switch_ns = switch_ns.max(s.latency_ns);
            cut_through &= s.cut_through;
            ethernet |= !s.protocols.contains(&Protocol::InfiniBand);
        }
    }
    if !any {
        return None;
    }
    let (mut link_gbps, mut edge_len, mut edge_n, mut up_len, mut up_n) =
        (f64::INFINITY, 0.0, 0usize, 0.0, 0usize);
    for e in topo.graph.edge_references() {
        let (Some(a), Some(b)) = (
            topo.graph.node_weight(e.source()),
            topo.graph.node_weight(e.target()),
        ) else {
            continue;
        };
        let w = e.weight();
        match (a.kind, b.kind) {
            (NodeKind::GpuServer, NodeKind::Switch) | (NodeKind::Switch, NodeKind::GpuServer)
                if w.compute_gbps > 0.0 =>
            {
                link_gbps = link_gbps.min(w.compute_link_gbps);
                edge_len += w.mean_length_m;
                edge_n += 1;
            }
            (NodeKind::Switch, NodeKind::Switch) => {
                up_len += w.mean_length_m;
                up_n += 1;
            }
            _ => {}
        }
    }
    if !link_gbps.is_finite() {
        return None;
    }
    Some(FabricFigures {
        nic_ns,
        switch_ns,
        cut_through,
        link_gbps,
        edge_length_m: if edge_n > 0 {
            edge_len / edge_n as f64
        } else {
            0.0
        },
        upper_length_m: if up_n > 0 { up_len / up_n as f64 } else { 0.0 },
        ethernet,
    })
}

fn allreduce(
    design: &Design,
    bw: &BandwidthReport,
    fabric: Option<&FabricFigures>,
    eff: f64,
) -> AllReduce {
    let n = design.params.traffic.allreduce_bytes.max(0.0);
    let p = bw.gpus as f64;
    let nodes = bw.servers.iter().filter(|s| s.gpus > 0).count();
    let g = if nodes > 0 { p / nodes as f64 } else { 1.0 };
    let nvlink = bw.servers.iter().all(|s| s.nvlink_gbyte_s_per_gpu > 0.0);
    let alpha_intra = if nvlink { ALPHA_NVLINK_S } else { ALPHA_PCIE_S };
    let beta_intra = bw.intra_node_gbyte_s * eff * 1e9;
    let alpha_inter = match fabric {
        Some(f) if f.ethernet => ALPHA_ETH_S,
        _ if design.racks.len() > 1 => ALPHA_IB_S,
        _ => ALPHA_IB_RACK_S,
    };
    let beta_inter = bw.inter_node_gbyte_s * eff * 1e9;
    let mut algorithms = Vec::new();
    let mut push = |name: &str, t: f64| {
        let algbw = if t > 0.0 { n / t } else { 0.0 };
        algorithms.push(AlgorithmTime {
            algorithm: name.to_string(),
            time_ms: round(t * 1e3, 4),
            algbw_gbyte_s: round(algbw / 1e9, 3),
            busbw_gbyte_s: round(collectives::bus_bandwidth(algbw, p) / 1e9, 3),
        });
    };
    for (name, t) in collectives::allreduce_times(
        p,
        g,
        nodes,
        n,
        alpha_intra,
        beta_intra,
        alpha_inter,
        beta_inter,
    ) {
        push(name, t);
    }
    let best = algorithms
        .iter()
        .filter(|a| a.time_ms > 0.0)
        .min_by(|a, b| a.time_ms.total_cmp(&b.time_ms))
        .map(|a| (a.algorithm.clone(), a.time_ms))
        .unwrap_or_else(|| ("none".into(), 0.0));
    AllReduce {
        bytes: n,
        ranks: bw.gpus,
        nodes,
        alpha_intra_us: alpha_intra * 1e6,
        beta_intra_gbyte_s: round(beta_intra / 1e9, 3),
        alpha_inter_us: alpha_inter * 1e6,
        beta_inter_gbyte_s: round(beta_inter / 1e9, 3),
        algorithms,
        best: best.0,
        best_ms: best.1,
    }
}

fn serving(design: &Design, bw: &BandwidthReport, paths: &[PathLatency]) -> Option<ServingLatency> {
    let s = design.params.serving.as_ref()?;
    let replicas = (bw.gpus as u64) / u64::from(s.gpus_per_replica.max(1));
    let per_replica = if replicas > 0 {
        s.request_rate_rps / replicas as f64
    } else {
        f64::INFINITY
    };
    let mu = s.throughput_for(super::bandwidth::main_gpu(design).as_ref());
    let network_p99_ms = paths
        .iter()
        .find(|p| p.kind != PathClass::SameServer)
        .or(paths.first())
        .map_or(0.0, |p| p.p99_ns / 1e6);
    let p99 = queueing::sojourn_percentile(mu, per_replica, 0.99) * 1e3 + network_p99_ms;
    // M/M/1 p99 time in system is ln(100)/(mu (1 - rho)); solving p99 + network = target for rho.
    let budget_s = (s.latency_target_ms - network_p99_ms) / 1e3;
    let rho_max = if budget_s > 0.0 && mu > 0.0 {
        (1.0 - 100f64.ln() / (mu * budget_s)).max(0.0)
    } else {
        0.0
    };
    // The same utilisation as every other model; a target outside (0, 1) is flagged (`utilisation-target`), and a
    // negative one plans nothing.
    let planned = design.params.utilisation_target.min(rho_max).max(0.0);
    let needed =
        (planned > 0.0 && mu > 0.0).then(|| (s.request_rate_rps / (mu * planned)).ceil() as u64);
    let capacity = replicas as f64 * mu * planned;
    let headroom = if s.request_rate_rps > 0.0 {
        capacity / s.request_rate_rps - 1.0
    } else {
        f64::INFINITY
    };
    Some(ServingLatency {
        replicas,
        per_replica_rps: round(per_replica, 4),
        utilisation: round(
            if mu > 0.0 {
                per_replica / mu
            } else {
                f64::INFINITY
            },
            4,
        ),
        p99_ms: round(p99, 4),
        target_ms: s.latency_target_ms,
        max_utilisation_for_target: round(rho_max, 6),
        planned_utilisation: round(planned, 6),
        replicas_needed: needed,
        gpus_needed: needed.map(|n| n * u64::from(s.gpus_per_replica.max(1))),
        capacity_rps: round(capacity, 4),
        headroom: round(headroom, 6),
    })
}

fn training(
    design: &Design,
    bw: &BandwidthReport,
    ar: &AllReduce,
    shape: Option<&super::nccl::CommShape>,
) -> Option<TrainingTime> {
    let t = design.params.training.as_ref()?;
    let mut peak_tflops = 0.0;
    for d in design.devices.values() {
        for g in d.gpus.values() {
            if let Some(PartKind::Gpu(spec)) = design.parts.get(g).map(|p| &p.kind) {
                peak_tflops += spec.bf16_tflops;
            }
        }
    }
    let memory = super::bandwidth::main_gpu(design)
        .and_then(|g| match design.parts.get(&g).map(|x| &x.kind) {
            Some(PartKind::Gpu(spec)) => Some(spec.memory_gb),
            _ => None,
        })
        .unwrap_or(0.0);
    // Without the NCCL model (fewer than two GPUs, or no servers), pure data parallelism with the textbook ring.
    let p = bw.gpus as f64;
    let n = t.parameters * t.gradient_bytes_per_parameter;
    let bi = ar.beta_intra_gbyte_s * 1e9;
    let ring_s = if p > 1.0 && bi > 0.0 {
        collectives::ring(p, n, ar.alpha_intra_us * 1e-6, bi)
    } else {
        0.0
    };
    training_time(t, bw.gpus, peak_tflops, memory, shape, ring_s)
}

/// How long a training job takes on `gpus` GPUs of `peak_tflops` dense BF16 in all and `gpu_memory_gb` each, with
/// the communication shape the NCCL model reads from the design (None: pure data parallelism taking `ring_s` a
/// step). The design's analysis and sizing's search over server counts both come here, so the size sizing picks
/// is timed by the formula the analysis shows.
pub fn training_time(
    t: &crate::model::Training,
    gpus: usize,
    peak_tflops: f64,
    gpu_memory_gb: f64,
    shape: Option<&super::nccl::CommShape>,
    ring_s: f64,
) -> Option<TrainingTime> {
    use super::parallel;
    let rate = peak_tflops * 1e12 * t.mfu.clamp(0.0, 1.0);
    if rate <= 0.0 || t.batch_tokens <= 0.0 {
        return None;
    }
    // 6 FLOPs per parameter per token, plus attention's when the sequence length is given.
    let flops_per_token = 6.0 * t.parameters
        + super::parallel::attention_flops_per_token(t.parameters, t.sequence_length);
    let compute = flops_per_token * t.batch_tokens / rate;
    let p = gpus as f64;
    let (layout, comm) = match shape {
        Some(s) => {
            let job = parallel::Job {
                parameters: t.parameters,
                batch_tokens: t.batch_tokens,
                gradient_bytes: t.gradient_bytes_per_parameter,
                tensor: t.tensor_parallel,
                pipeline: t.pipeline_parallel,
                expert: t.expert_parallel,
                microbatches: t.microbatches,
                virtual_stages: t.virtual_stages,
                context: t.context_parallel,
                sharded: t.sharded_optimizer,
                gpu_memory_gb,
            };
            let l = parallel::layout(&job, s);
            let c = parallel::step_comm(&job, s, &l);
            (Some(l), c)
        }
        None => (
            None,
            parallel::StepComm {
                data_s: ring_s,
                ..parallel::StepComm::default()
            },
        ),
    };
    let bubble = layout
        .as_ref()
        .map_or(0.0, |l| compute * parallel::bubble_share(l));
    let exposed = comm.data_s * (1.0 - t.overlap.clamp(0.0, 1.0));
    let waits = bubble + comm.tensor_s + comm.pipeline_s + comm.expert_s + comm.context_s + exposed;
    let step = match t.mfu_scope {
        crate::model::MfuScope::ComputeOnly => compute + waits,
        crate::model::MfuScope::EndToEnd => compute,
    };
    let steps = (t.tokens / t.batch_tokens).ceil();
    let seconds = steps * step;
    Some(TrainingTime {
        peak_pflops: round(peak_tflops / 1000.0, 4),
        compute_s_per_step: round(compute, 6),
        allreduce_s_per_step: round(comm.data_s, 6),
        exposed_s_per_step: round(exposed, 6),
        steps,
        days: round(seconds / 86_400.0, 4),
        gpu_hours: round(seconds / 3600.0 * p, 2),
        communication_share: round(
            match t.mfu_scope {
                crate::model::MfuScope::ComputeOnly if step > 0.0 => waits / step,
                crate::model::MfuScope::EndToEnd if compute > 0.0 => (waits / compute).min(1.0),
                _ => 0.0,
            },
            6,
        ),
        parallelism: layout,
        tensor_s_per_step: round(comm.tensor_s, 6),
        pipeline_s_per_step: round(comm.pipeline_s, 6),
        bubble_s_per_step: round(bubble, 6),
        expert_s_per_step: round(comm.expert_s, 6),
        context_s_per_step: round(comm.context_s, 6),
        step_s: round(step, 6),
        mfu_scope: t.mfu_scope,
    })
}
