//! The analysis engine: a pure, deterministic `analyze(&Design) -> Report`. Bandwidth (inside servers and across
//! the fabric), latency and collectives, power and space, cost, and findings that point at the parts concerned.
//! Every formula is written out in docs/analysis.md and tested against a hand calculation.

pub mod asbuilt;
pub mod bandwidth;
pub(crate) mod bisection;
pub mod collectives;
pub mod compare;
pub mod cooling;
pub mod cost;
pub mod facility;
pub mod finding;
pub mod findings;
pub mod format;
pub mod job;
pub mod latency;
pub mod nccl;
pub mod parallel;
pub mod pattern;
pub mod physical;
pub mod power;
pub mod queueing;
pub mod rates;
pub mod reliability;
pub mod routing;
pub mod scenarios;
pub mod sites;
pub mod text;
pub mod whatif;

pub use finding::{Finding, FindingCode, Severity};

use crate::model::Design;
use crate::topology::Topology;
use serde::Serialize;
use std::sync::Arc;

/// The version of the report's JSON layout (`racksmith analyze --format json`, docs/report-json.md), printed by
/// `racksmith --version`. Raised when a key is renamed or removed; a key added inside a section keeps it.
pub const REPORT_FORMAT_VERSION: u32 = 1;

/// Everything the analysis says about a design. Top-level keys are stable (see docs/report-json.md).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Report {
    /// The figures on the summary cards, taken from the sections below.
    pub summary: Summary,
    /// Bandwidth inside servers and across the fabric, and the bottleneck per traffic pattern.
    pub bandwidth: bandwidth::BandwidthReport,
    /// Path latency by class and collective times.
    pub latency: latency::LatencyReport,
    /// Power, heat, weight and space per device and rack.
    pub power: power::PowerReport,
    /// Bill of materials, capex, opex, TCO and unit costs.
    pub cost: cost::CostReport,
    /// The physical build: transceivers by cage, cables and fibres by stock length, optics power and price,
    /// links out of reach and estimated lengths.
    pub physical: physical::PhysicalReport,
    /// Heat per rack and how it is removed: air against its density limit, or liquid with its coolant flow.
    pub cooling: cooling::CoolingReport,
    /// Sites, their capacity, and the service's availability (empty for a single-site design).
    pub sites: sites::SitesReport,
    /// A training job's failures and checkpoints: interruptions, checkpoint write and interval, goodput and the
    /// days with failures counted (None without a training job).
    pub reliability: Option<reliability::ReliabilityReport>,
    /// Every switch, cable, storage appliance and rack feed ranked by what its loss costs (one pass; the worst
    /// kept), for the Availability card and the HTML report; `racksmith whatif` analyses the worst in full. Not
    /// part of [`analyze`], whose time it would add to (a quarter at 128 SU): [`with_single_failures`] ranks, and
    /// the app does it off the UI thread; None until then.
    pub single_failures: Option<whatif::SingleFailures>,
    /// Findings, most severe first.
    pub findings: Vec<Finding>,
}

/// Headline figures for the summary cards.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Summary {
    /// The design's name, copied so the report reads on its own.
    pub design: String,
    /// GPUs installed in the design's servers (the bandwidth section's count).
    pub gpus: usize,
    /// Servers with GPUs.
    pub gpu_servers: usize,
    /// Switches in the design, every tier, cabled or not.
    pub switches: usize,
    /// Racks in the design, empty ones included.
    pub racks: usize,
    /// Bisection bandwidth of the scale-out fabric, Gb/s.
    pub bisection_gbps: f64,
    /// The part that limits inter-server GPU traffic, in words.
    pub bottleneck: String,
    /// Highest link utilisation under any routed traffic pattern (1.0 = a link at line rate).
    pub hottest_link_utilisation: f64,
    /// Worst p99 GPU-to-GPU latency over the path classes present, microseconds.
    pub p99_latency_us: f64,
    /// Best all-reduce time for the design's message size, milliseconds.
    pub allreduce_ms: f64,
    /// IT power at maximum draw, kW.
    pub it_power_kw: f64,
    /// Sum of rack power budgets, kW.
    pub power_budget_kw: f64,
    /// Capital cost, USD.
    pub capex_usd: f64,
    /// Owned cost per GPU-hour at the utilisation target, USD.
    pub usd_per_gpu_hour: f64,
    /// Whether the GPUs reach each other over the network: the latency, all-reduce, bisection and availability
    /// figures mean something only when this is `connected` (the headline cards say "no GPUs" or "not connected"
    /// instead of a figure otherwise).
    pub gpu_network: GpuNetwork,
    /// Groups of GPU servers that reach each other over the cabled network (a server with no compute NIC cabled
    /// is a group of its own); 0 without GPUs, 1 when every GPU server reaches every other.
    pub gpu_islands: usize,
    /// Findings by severity: errors, warnings, infos.
    pub errors: usize,
    /// Number of findings of warning severity: the design works but misses what it is for.
    pub warnings: usize,
    /// Number of findings of info severity: worth knowing, nothing to fix.
    pub infos: usize,
}

/// Whether a design's GPUs can talk to each other over the network, for the headline figures that assume they can.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum GpuNetwork {
    /// The design has no GPUs: no GPU figure applies.
    NoGpus,
    /// Some GPU servers cannot reach the others (no compute NIC cabled, or the fabric is in islands): figures
    /// between GPUs (p99 latency, all-reduce, bisection) do not describe the design as one cluster.
    NotConnected,
    /// Every GPU reaches every other (one server, or servers on one cabled fabric).
    Connected,
}

impl GpuNetwork {
    /// The state and the number of GPU server groups (islands) of a design.
    fn of(topo: &Topology, bw: &bandwidth::BandwidthReport) -> (Self, usize) {
        if bw.gpus == 0 {
            return (GpuNetwork::NoGpus, 0);
        }
        let label = topo.components(None, None);
        let mut groups: Vec<usize> = Vec::new();
        let mut alone = 0;
        for s in &bw.servers {
            let node = topo
                .node_of
                .get(&s.device)
                .and_then(|n| label.get(n.index()));
            match node {
                Some(l) if s.compute_nic_cabled_gbps > 0.0 => groups.push(*l),
                _ => alone += 1,
            }
        }
        groups.sort_unstable();
        groups.dedup();
        let islands = (groups.len() + alone).max(1);
        let state = if islands > 1 {
            GpuNetwork::NotConnected
        } else {
            GpuNetwork::Connected
        };
        (state, islands)
    }

    /// What a headline card shows instead of a figure between GPUs, if anything: "no GPUs" or "not connected".
    pub fn instead_of_figure(self) -> Option<&'static str> {
        match self {
            GpuNetwork::NoGpus => Some("no GPUs"),
            GpuNetwork::NotConnected => Some("not connected"),
            GpuNetwork::Connected => None,
        }
    }

    /// The line under such a card: why there is no figure.
    pub fn why(self, islands: usize) -> String {
        match self {
            GpuNetwork::NoGpus => "the design has no GPUs".into(),
            GpuNetwork::NotConnected => format!(
                "GPU servers in {} with no network path between them",
                format::count(islands, "island", "islands")
            ),
            GpuNetwork::Connected => String::new(),
        }
    }
}

/// The entries for `key` at the front of `rest`, a list sorted by key, which then moves past them and past any
/// entries of keys before `key`: called with keys in ascending order (a design's devices in id order), it walks the
/// list once, where a hash map of per-key lists would scatter its writes across memory.
pub(crate) fn next_run<'a, T, K: Ord>(rest: &mut &'a [T], key: impl Fn(&T) -> K, at: K) -> &'a [T] {
    let before = rest.iter().take_while(|x| key(x) < at).count();
    let (_, from) = rest.split_at(before);
    let (run, after) = from.split_at(from.iter().take_while(|x| key(x) == at).count());
    *rest = after;
    run
}

/// Analyses a design. Pure and deterministic: the same design always gives the same report.
///
/// Every link's build (cable, transceivers, cages: the physical section's pass) depends on the design alone, so it
/// is worked out beside the topology, bandwidth and latency (rayon; on one thread, as in the browser, one after the
/// other): the estimation a large floor needs then adds little to the analysis's time (docs/analysis.md, "Cable
/// lengths from the floor").
pub fn analyze(design: &Design) -> Report {
    let (builds, network) = rayon::join(|| physical::builds(design), || network(design));
    finish(design, network, &builds)
}

/// [`analyze`] with every link's build already worked out ([`physical::builds`] of the same design): the rest of
/// the analysis, on one thread. What the builds add to an analysis is the difference (benches/reestimate.rs).
pub fn analyze_with_builds(design: &Design, builds: &physical::Builds<'_>) -> Report {
    // On a thread of rayon's pool, where `analyze` runs the network sections too: the routing's parallel loops
    // start there from inside the pool.
    let network = rayon::scope(|_| network(design));
    finish(design, network, builds)
}

/// The topology, bandwidth and latency sections.
fn network(design: &Design) -> (Topology, bandwidth::BandwidthReport, latency::LatencyReport) {
    let topo = Topology::build(design);
    let bandwidth = bandwidth::analyze(design, &topo);
    let latency = latency::analyze(design, &topo, &bandwidth);
    (topo, bandwidth, latency)
}

/// The sections that read the network's and the builds, and the report over all of them.
fn finish(
    design: &Design,
    (topo, bandwidth, latency): (Topology, bandwidth::BandwidthReport, latency::LatencyReport),
    builds: &physical::Builds<'_>,
) -> Report {
    let rest = costs(design, &bandwidth, &latency, builds);
    report(design, &topo, bandwidth, latency, rest)
}

/// Power, cost, cooling and sites: the sections computed from bandwidth and latency.
struct Costs {
    power: power::PowerReport,
    cost: cost::CostReport,
    cooling: cooling::CoolingReport,
    sites: sites::SitesReport,
    reliability: Option<reliability::ReliabilityReport>,
    physical: physical::PhysicalReport,
    physical_findings: Vec<Finding>,
}

fn costs(
    design: &Design,
    bandwidth: &bandwidth::BandwidthReport,
    latency: &latency::LatencyReport,
    builds: &physical::Builds<'_>,
) -> Costs {
    // One pass worked out every link's build; power (the optics at each end), the physical section and the BOM
    // read it.
    let power = power::analyze(design, builds);
    let (physical, physical_findings) = physical::analyze(design, builds);
    let mut cost = cost::analyze(design, &power, bandwidth, builds);
    if let Some(s) = &latency.serving {
        cost::serving_at_plan(&mut cost, design, bandwidth, s.planned_utilisation);
    }
    cost.break_even_by_option = cost::break_even_by_option(&cost);
    if let Some(t) = &latency.training {
        cost.training_job_usd = Some(format::round(t.gpu_hours * cost.owned_usd_per_gpu_hour, 2));
        cost.training_job_cloud_usd =
            Some(format::round(t.gpu_hours * cost.cloud_usd_per_gpu_hour, 2));
    }
    let cooling = cooling::analyze(design, &power);
    let sites = sites::analyze(design, latency);
    let reliability = reliability::analyze(
        design,
        bandwidth,
        latency.training.as_ref(),
        cost.training_job_usd,
    );
    Costs {
        power,
        cost,
        cooling,
        sites,
        reliability,
        physical,
        physical_findings,
    }
}

/// The findings and the headline over every section.
fn report(
    design: &Design,
    topo: &Topology,
    bandwidth: bandwidth::BandwidthReport,
    latency: latency::LatencyReport,
    rest: Costs,
) -> Report {
    let Costs {
        power,
        cost,
        cooling,
        sites,
        reliability,
        physical,
        physical_findings,
    } = rest;
    let mut findings = findings::collect(
        design, topo, &bandwidth, &latency, &power, &cost, &cooling, &sites,
    );
    if let Some(r) = &reliability {
        reliability::findings(r, &mut findings);
    }
    if reliability.is_some() || !physical_findings.is_empty() {
        findings.extend(physical_findings);
        findings::sort(&mut findings);
    }
    let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
    let (gpu_network, gpu_islands) = GpuNetwork::of(topo, &bandwidth);
    let summary = Summary {
        design: design.name.clone(),
        gpus: bandwidth.gpus,
        gpu_servers: bandwidth.servers.len(),
        switches: bandwidth.switches.len(),
        racks: design.racks.len(),
        bisection_gbps: bandwidth.bisection.gbps,
        hottest_link_utilisation: bandwidth
            .routing
            .patterns
            .iter()
            .map(|p| p.hottest_utilisation)
            .fold(0.0, f64::max),
        bottleneck: bandwidth
            .patterns
            .first()
            .map_or_else(|| "none".into(), |p| p.limiter.clone()),
        p99_latency_us: latency.paths.iter().map(|p| p.p99_ns).fold(0.0, f64::max) / 1000.0,
        allreduce_ms: latency.allreduce.best_ms,
        it_power_kw: power.it_power_w / 1000.0,
        power_budget_kw: power.budget_w / 1000.0,
        capex_usd: cost.capex_usd,
        usd_per_gpu_hour: cost.owned_usd_per_gpu_hour,
        gpu_network,
        gpu_islands,
        errors: count(Severity::Error),
        warnings: count(Severity::Warning),
        infos: count(Severity::Info),
    };
    Report {
        summary,
        bandwidth,
        latency,
        power,
        cost,
        physical,
        cooling,
        sites,
        reliability,
        single_failures: None,
        findings,
    }
}

/// A report with its single failures ranked ([`Report::single_failures`]): the analysis, then the one-pass
/// ranking over it. What the command line, the exports and the app's worker show.
pub fn analyze_ranked(design: &Design) -> Report {
    let mut r = analyze(design);
    with_single_failures(design, &mut r);
    r
}

/// Ranks a report's single failures when they are not yet (one pass over the design and the report's figures).
pub fn with_single_failures(design: &Design, r: &mut Report) {
    if r.single_failures.is_none() {
        let topo = Topology::build(design);
        r.single_failures = Some(whatif::single_failures(
            design,
            &topo,
            &r.bandwidth,
            &r.power,
            r.cost.replicas_in_design,
        ));
    }
}

/// The analysis of one design a stage at a time, for a caller with no thread to spare (the browser): each
/// [`Stepwise::step`] does one stage (topology, routing, bandwidth, latency, power and cost, findings), so the
/// caller can draw a frame between stages. The stages are the ones [`analyze`] runs, in the same order on the same
/// inputs, so the report is the same.
pub struct Stepwise {
    design: Arc<Design>,
    stage: Stage,
}

/// What has been computed so far.
enum Stage {
    Start,
    Topology(Topology),
    Routed(Topology, Box<routing::RoutingReport>),
    Bandwidth(Topology, Box<bandwidth::BandwidthReport>),
    Latency(
        Topology,
        Box<bandwidth::BandwidthReport>,
        Box<latency::LatencyReport>,
    ),
    Costs(
        Topology,
        Box<bandwidth::BandwidthReport>,
        Box<latency::LatencyReport>,
        Box<Costs>,
    ),
    Done(Box<Report>),
    /// The report was taken.
    Taken,
}

impl Stepwise {
    /// The number of stages a full analysis takes.
    pub const STAGES: usize = 6;

    /// Starts the analysis of `design`; nothing is computed until the first step.
    pub fn new(design: Arc<Design>) -> Self {
        Self {
            design,
            stage: Stage::Start,
        }
    }

    /// The design being analysed.
    pub fn design(&self) -> &Arc<Design> {
        &self.design
    }

    /// Runs the next stage. Returns true once the report is ready (and from then on).
    pub fn step(&mut self) -> bool {
        let d = &*self.design;
        self.stage = match std::mem::replace(&mut self.stage, Stage::Taken) {
            Stage::Start => Stage::Topology(Topology::build(d)),
            Stage::Topology(t) => {
                let r = routing::analyze(d);
                Stage::Routed(t, Box::new(r))
            }
            Stage::Routed(t, r) => {
                let b = bandwidth::analyze_routed(d, &t, *r);
                Stage::Bandwidth(t, Box::new(b))
            }
            Stage::Bandwidth(t, b) => {
                let l = latency::analyze(d, &t, &b);
                Stage::Latency(t, b, Box::new(l))
            }
            Stage::Latency(t, b, l) => {
                let c = costs(d, &b, &l, &physical::builds(d));
                Stage::Costs(t, b, l, Box::new(c))
            }
            Stage::Costs(t, b, l, c) => Stage::Done(Box::new(report(d, &t, *b, *l, *c))),
            done @ (Stage::Done(_) | Stage::Taken) => done,
        };
        matches!(self.stage, Stage::Done(_) | Stage::Taken)
    }

    /// Stages run so far.
    pub fn stages_done(&self) -> usize {
        match self.stage {
            Stage::Start => 0,
            Stage::Topology(..) => 1,
            Stage::Routed(..) => 2,
            Stage::Bandwidth(..) => 3,
            Stage::Latency(..) => 4,
            Stage::Costs(..) => 5,
            Stage::Done(_) | Stage::Taken => Self::STAGES,
        }
    }

    /// The report, once every stage has run (taken once).
    pub fn take(&mut self) -> Option<Report> {
        match std::mem::replace(&mut self.stage, Stage::Taken) {
            Stage::Done(r) => Some(*r),
            other => {
                self.stage = other;
                None
            }
        }
    }
}
