//! Every figure a design file carries has a documented range, and the size of a design has stated limits, checked
//! before any analysis (docs/limits.md). A figure out of range is an error naming the field, the value, the allowed
//! range and, where the text shows it, the line and column; nothing is clamped silently.

use crate::model::{Design, Params, PcieLink};

/// GPU slots one server may declare: above a GB200 NVL72 rack modelled as one 72-GPU system.
pub const MAX_GPU_SLOTS: usize = 576;
/// NIC slots one server may declare.
pub const MAX_NIC_SLOTS: usize = 576;
/// Ports one part may declare (switch radix, NIC ports, patch panel ports): above any 2026 switch.
pub const MAX_PORTS: u16 = 2048;
/// Racks per design.
pub const MAX_RACKS: usize = 100_000;
/// Devices per design: a 512-SU SuperPOD has about 17,000.
pub const MAX_DEVICES: usize = 1_000_000;
/// Links per design: a 512-SU SuperPOD has about 470,000.
pub const MAX_LINKS: usize = 4_000_000;
/// Parts per design.
pub const MAX_PARTS: usize = 100_000;

/// One figure out of its range.
#[derive(Debug, Clone, PartialEq)]
pub struct FigureProblem {
    /// Where the figure sits, as a path through the file: `params.pue`, `parts."h100-sxm".power_w`.
    pub field: String,
    /// The part id, when the figure belongs to a part (for finding its line).
    pub part: Option<String>,
    /// The last name of the field, as written in the file.
    pub name: String,
    /// What is wrong, with the value and the allowed range.
    pub message: String,
}

/// An allowed range: bounds and whether each is included.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Range {
    lo: f64,
    lo_included: bool,
    hi: f64,
    hi_included: bool,
}

impl Range {
    const fn closed(lo: f64, hi: f64) -> Self {
        Self {
            lo,
            lo_included: true,
            hi,
            hi_included: true,
        }
    }
    const fn above(lo: f64, hi: f64) -> Self {
        Self {
            lo,
            lo_included: false,
            hi,
            hi_included: true,
        }
    }
    const fn open(lo: f64, hi: f64) -> Self {
        Self {
            lo,
            lo_included: false,
            hi,
            hi_included: false,
        }
    }
    /// Whether a value is allowed: finite and within the bounds.
    pub fn holds(self, x: f64) -> bool {
        let lo_ok = if self.lo_included {
            x >= self.lo
        } else {
            x > self.lo
        };
        let hi_ok = if self.hi_included {
            x <= self.hi
        } else {
            x < self.hi
        };
        x.is_finite() && lo_ok && hi_ok
    }
    /// The range as messages write it: "[1, 5]", "(0, 1)".
    pub fn describe(self) -> String {
        format!(
            "{}{}, {}{}",
            if self.lo_included { "[" } else { "(" },
            fmt(self.lo),
            fmt(self.hi),
            if self.hi_included { "]" } else { ")" }
        )
    }
    /// The same range in another unit: both bounds times `k` (> 0), as a field in MB shows a figure in bytes.
    pub fn scaled(self, k: f64) -> Self {
        Self {
            lo: self.lo * k,
            hi: self.hi * k,
            ..self
        }
    }
    /// The smallest allowed value (the next float above an excluded bound).
    pub fn min(self) -> f64 {
        if self.lo_included {
            self.lo
        } else {
            self.lo.next_up()
        }
    }
    /// The largest allowed value (the next float below an excluded bound).
    pub fn max(self) -> f64 {
        if self.hi_included {
            self.hi
        } else {
            self.hi.next_down()
        }
    }
    /// The allowed values as an inclusive range, for a field that takes one: `min()..=max()`.
    pub fn inclusive(self) -> std::ops::RangeInclusive<f64> {
        self.min()..=self.max()
    }
    /// The nearest allowed value (a NaN gives the smallest).
    pub fn clamp(self, x: f64) -> f64 {
        if x.is_nan() {
            return self.min();
        }
        x.clamp(self.min(), self.max())
    }
}

/// A figure of a design's parameters with its one allowed range: what validation checks a file against, the
/// parameter fields accept and the planning sliders clamp to (docs/limits.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Figure {
    /// Planned share of time busy.
    UtilisationTarget,
    /// Electricity price, USD per kWh.
    ElectricityUsdPerKwh,
    /// Power usage effectiveness of the facility (also of its liquid-cooled part).
    Pue,
    /// Years over which the capital cost is written off.
    DepreciationYears,
    /// Share of the capital cost left at the end.
    ResidualFraction,
    /// Colocation price, USD per kW-month.
    ColocationUsdPerKwMonth,
    /// Support contract, share of the capital cost per year.
    SupportFractionPerYear,
    /// Cloud price of a GPU-hour, USD.
    CloudUsdPerGpuHour,
    /// A spares figure given as a percentage.
    SparesPercent,
    /// A spares figure given as one spare per this many.
    SparesOnePer,
    /// Availability the service must reach.
    AvailabilityTarget,
    /// Discount of a one-year cloud commitment.
    Reserved1yDiscount,
    /// Discount of a three-year cloud commitment.
    Reserved3yDiscount,
    /// Heat an air-cooled rack may carry, kW.
    AirCooledLimitKw,
    /// Temperature rise of the air, degrees C.
    AirDeltaTC,
    /// Temperature rise of the coolant, degrees C.
    LiquidDeltaTC,
    /// Size of one all-reduce, bytes.
    AllreduceBytes,
    /// Storage read rate per GPU, GB/s.
    StorageReadGbyteSPerGpu,
    /// Network bandwidth per GPU, Gb/s.
    NetworkGbpsPerGpu,
    /// Size of the latency probe message, bytes.
    LatencyMessageBytes,
    /// Share of a link's rate that collectives reach.
    LinkEfficiency,
    /// Requests per second the service must serve.
    RequestRateRps,
    /// Requests per second one replica serves.
    ReplicaThroughputRps,
    /// GPUs in one serving replica.
    GpusPerReplica,
    /// p99 latency target, ms.
    LatencyTargetMs,
    /// Bytes of one request.
    RequestBytes,
    /// Bytes of one response.
    ResponseBytes,
    /// Tokens of one request.
    TokensPerRequest,
    /// Parameters of the trained model.
    TrainingParameters,
    /// Tokens per training sequence (attention's compute; 0: not counted).
    SequenceLength,
    /// Tokens the training job reads.
    TrainingTokens,
    /// Tokens of one batch.
    BatchTokens,
    /// Model FLOPs utilisation.
    Mfu,
    /// Gradient bytes per parameter.
    GradientBytesPerParameter,
    /// Share of communication hidden behind compute.
    Overlap,
    /// Bytes per parameter a checkpoint writes.
    CheckpointBytesPerParameter,
    /// Seconds to restart a training job after an interruption.
    RestartS,
    /// Seconds a failed server is out for repair when no spare is ready.
    RepairS,
    /// Interruptions per part-year of one class of part.
    FailuresPerYear,
    /// The low end of the failure-rate band, as a multiple of the rates (at most 1: the rates are inside it).
    FailureBandLow,
    /// The high end of the failure-rate band, as a multiple of the rates (at least 1).
    FailureBandHigh,
}

impl Figure {
    /// Every figure, in the order the parameters are checked.
    pub const ALL: [Figure; 41] = [
        Figure::UtilisationTarget,
        Figure::ElectricityUsdPerKwh,
        Figure::Pue,
        Figure::DepreciationYears,
        Figure::ResidualFraction,
        Figure::ColocationUsdPerKwMonth,
        Figure::SupportFractionPerYear,
        Figure::CloudUsdPerGpuHour,
        Figure::SparesPercent,
        Figure::SparesOnePer,
        Figure::AvailabilityTarget,
        Figure::Reserved1yDiscount,
        Figure::Reserved3yDiscount,
        Figure::AirCooledLimitKw,
        Figure::AirDeltaTC,
        Figure::LiquidDeltaTC,
        Figure::AllreduceBytes,
        Figure::StorageReadGbyteSPerGpu,
        Figure::NetworkGbpsPerGpu,
        Figure::LatencyMessageBytes,
        Figure::LinkEfficiency,
        Figure::RequestRateRps,
        Figure::ReplicaThroughputRps,
        Figure::GpusPerReplica,
        Figure::LatencyTargetMs,
        Figure::RequestBytes,
        Figure::ResponseBytes,
        Figure::TokensPerRequest,
        Figure::TrainingParameters,
        Figure::SequenceLength,
        Figure::TrainingTokens,
        Figure::BatchTokens,
        Figure::Mfu,
        Figure::GradientBytesPerParameter,
        Figure::Overlap,
        Figure::CheckpointBytesPerParameter,
        Figure::RestartS,
        Figure::RepairS,
        Figure::FailuresPerYear,
        Figure::FailureBandLow,
        Figure::FailureBandHigh,
    ];

    /// The allowed range, in the unit the file writes the figure in.
    pub fn range(self) -> Range {
        match self {
            // Utilisation is a planned share of time busy: 0 plans nothing, 1 is a queue that never drains.
            Figure::UtilisationTarget => Range::open(0.0, 1.0),
            Figure::ElectricityUsdPerKwh => Range::closed(0.0, 10.0),
            Figure::Pue => Range::closed(1.0, 5.0),
            Figure::DepreciationYears => Range::above(0.0, 50.0),
            Figure::ResidualFraction | Figure::SupportFractionPerYear | Figure::Overlap => {
                Range::closed(0.0, 1.0)
            }
            Figure::ColocationUsdPerKwMonth => Range::closed(0.0, 1e5),
            Figure::CloudUsdPerGpuHour => Range::closed(0.0, 1e4),
            Figure::SparesPercent => Range::closed(0.0, 100.0),
            Figure::SparesOnePer => Range::closed(1.0, 1e6),
            Figure::AvailabilityTarget | Figure::LinkEfficiency | Figure::Mfu => {
                Range::above(0.0, 1.0)
            }
            Figure::Reserved1yDiscount | Figure::Reserved3yDiscount => Range::closed(0.0, 0.95),
            Figure::AirCooledLimitKw => Range::closed(1.0, 200.0),
            Figure::AirDeltaTC => Range::above(0.0, 30.0),
            Figure::LiquidDeltaTC => Range::above(0.0, 50.0),
            Figure::AllreduceBytes | Figure::TrainingParameters => Range::above(0.0, 1e15),
            Figure::StorageReadGbyteSPerGpu => Range::closed(0.0, 1e4),
            Figure::NetworkGbpsPerGpu => Range::above(0.0, 1e5),
            Figure::LatencyMessageBytes | Figure::BatchTokens => Range::above(0.0, 1e12),
            Figure::RequestRateRps | Figure::ReplicaThroughputRps => Range::above(0.0, 1e9),
            Figure::GpusPerReplica => Range::closed(1.0, 1e6),
            Figure::LatencyTargetMs => Range::above(0.0, 1e7),
            Figure::RequestBytes | Figure::ResponseBytes => Range::closed(0.0, 1e12),
            Figure::TokensPerRequest => Range::closed(0.0, 1e7),
            // Up to ten million tokens a sequence (the longest published contexts are about 1e7).
            Figure::SequenceLength => Range::closed(0.0, 1e7),
            Figure::TrainingTokens => Range::above(0.0, 1e18),
            Figure::GradientBytesPerParameter => Range::above(0.0, 16.0),
            Figure::CheckpointBytesPerParameter => Range::above(0.0, 64.0),
            Figure::RestartS => Range::above(0.0, 1e6),
            // Up to a year out; 0 would be a repair that takes no time, a spare by another name.
            Figure::RepairS => Range::above(0.0, 3.2e7),
            Figure::FailuresPerYear => Range::closed(0.0, 1e3),
            // The rates sit inside their band: its low end at most 1x, its high end at least 1x.
            Figure::FailureBandLow => Range::above(0.0, 1.0),
            Figure::FailureBandHigh => Range::closed(1.0, 100.0),
        }
    }
}

fn fmt(x: f64) -> String {
    if x.abs() >= 1e6 {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

struct Checker<'a> {
    problems: &'a mut Vec<FigureProblem>,
    prefix: Prefix,
    part: Option<String>,
}

/// What the checked fields' names start with, written out only for a problem: a large design has a million
/// entries, and formatting each one's prefix to check a figure or two was 6% of loading it.
enum Prefix {
    Text(String),
    /// `section.id.`, as in `links.7.`.
    Entry(&'static str, u64),
}

impl std::fmt::Display for Prefix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Prefix::Text(t) => f.write_str(t),
            Prefix::Entry(section, id) => write!(f, "{section}.{id}."),
        }
    }
}

impl Checker<'_> {
    /// Checks one of the parameters' figures against its range in the table.
    fn figure(&mut self, name: &str, figure: Figure, x: f64) {
        self.num(name, x, figure.range());
    }
    fn num(&mut self, name: &str, x: f64, range: Range) {
        if !range.holds(x) {
            let field = format!("{}{name}", self.prefix);
            self.problems.push(FigureProblem {
                message: format!(
                    "{field} = {x} is out of range: it must be a finite number in {}",
                    range.describe()
                ),
                field,
                part: self.part.clone(),
                name: name.rsplit('.').next().unwrap_or(name).to_string(),
            });
        }
    }
    /// A field whose value is not allowed here, with the reason.
    fn bad(&mut self, name: &str, why: String) {
        let field = format!("{}{name}", self.prefix);
        self.problems.push(FigureProblem {
            message: format!("{field}: {why}"),
            field,
            part: self.part.clone(),
            name: name.to_string(),
        });
    }
    fn count(&mut self, name: &str, n: usize, max: usize) {
        if n > max {
            let field = format!("{}{name}", self.prefix);
            self.problems.push(FigureProblem {
                message: format!("{field} has {n} entries; the limit is {max} (docs/limits.md)"),
                field,
                part: self.part.clone(),
                name: name.to_string(),
            });
        }
    }
    fn pcie(&mut self, name: &str, link: &PcieLink) {
        if !(1..=6).contains(&link.generation) || !matches!(link.lanes, 1 | 2 | 4 | 8 | 16) {
            let field = format!("{}{name}", self.prefix);
            self.problems.push(FigureProblem {
                message: format!(
                    "{field} is PCIe gen {} x{}: the generation must be 1 to 6 and the width 1, 2, 4, 8 or 16 lanes",
                    link.generation, link.lanes
                ),
                field,
                part: self.part.clone(),
                name: name.to_string(),
            });
        }
    }
}

const MONEY: Range = Range::closed(0.0, 1e10);

/// Checks every figure of the parameters against [`Figure`]'s ranges.
pub fn check_params(p: &Params, problems: &mut Vec<FigureProblem>) {
    use Figure as F;
    let mut c = Checker {
        problems,
        prefix: Prefix::Text("params.".into()),
        part: None,
    };
    c.figure(
        "utilisation_target",
        F::UtilisationTarget,
        p.utilisation_target,
    );
    c.figure(
        "electricity_usd_per_kwh",
        F::ElectricityUsdPerKwh,
        p.electricity_usd_per_kwh,
    );
    c.figure("pue", F::Pue, p.pue);
    if let Some(x) = p.pue_liquid {
        c.figure("pue_liquid", F::Pue, x);
    }
    c.figure(
        "depreciation_years",
        F::DepreciationYears,
        p.depreciation_years,
    );
    c.figure(
        "residual_fraction",
        F::ResidualFraction,
        p.residual_fraction,
    );
    c.figure(
        "colocation_usd_per_kw_month",
        F::ColocationUsdPerKwMonth,
        p.colocation_usd_per_kw_month,
    );
    c.figure(
        "support_fraction_per_year",
        F::SupportFractionPerYear,
        p.support_fraction_per_year,
    );
    if let Some(x) = p.cloud_usd_per_gpu_hour {
        c.figure("cloud_usd_per_gpu_hour", F::CloudUsdPerGpuHour, x);
    }
    for (category, spares) in &p.spares {
        let name = format!("spares.\"{category}\"");
        match spares {
            crate::model::Spares::Percent(x) => c.figure(&name, F::SparesPercent, *x),
            crate::model::Spares::OnePer(n) => c.figure(&name, F::SparesOnePer, f64::from(*n)),
        }
    }
    if let Some(a) = p.availability_target {
        c.figure("availability_target", F::AvailabilityTarget, a);
    }
    c.figure(
        "reserved_1y_discount",
        F::Reserved1yDiscount,
        p.reserved_1y_discount,
    );
    c.figure(
        "reserved_3y_discount",
        F::Reserved3yDiscount,
        p.reserved_3y_discount,
    );
    c.figure(
        "air_cooled_limit_kw",
        F::AirCooledLimitKw,
        p.air_cooled_limit_kw,
    );
    c.figure("air_delta_t_c", F::AirDeltaTC, p.air_delta_t_c);
    c.figure("liquid_delta_t_c", F::LiquidDeltaTC, p.liquid_delta_t_c);
    let t = &p.traffic;
    c.figure(
        "traffic.allreduce_bytes",
        F::AllreduceBytes,
        t.allreduce_bytes,
    );
    c.figure(
        "traffic.storage_read_gbyte_s_per_gpu",
        F::StorageReadGbyteSPerGpu,
        t.storage_read_gbyte_s_per_gpu,
    );
    if let Some(x) = t.network_gbps_per_gpu {
        c.figure("traffic.network_gbps_per_gpu", F::NetworkGbpsPerGpu, x);
    }
    c.figure(
        "traffic.latency_message_bytes",
        F::LatencyMessageBytes,
        t.latency_message_bytes,
    );
    c.figure(
        "traffic.link_efficiency",
        F::LinkEfficiency,
        t.link_efficiency,
    );
    if let Some(s) = &p.serving {
        c.figure(
            "serving.request_rate_rps",
            F::RequestRateRps,
            s.request_rate_rps,
        );
        c.figure(
            "serving.replica_throughput_rps",
            F::ReplicaThroughputRps,
            s.replica_throughput_rps,
        );
        for (gpu, x) in &s.replica_throughput_by_gpu {
            c.figure(
                &format!("serving.replica_throughput_by_gpu.\"{gpu}\""),
                F::ReplicaThroughputRps,
                *x,
            );
        }
        c.figure(
            "serving.gpus_per_replica",
            F::GpusPerReplica,
            f64::from(s.gpus_per_replica),
        );
        c.figure(
            "serving.latency_target_ms",
            F::LatencyTargetMs,
            s.latency_target_ms,
        );
        c.figure("serving.request_bytes", F::RequestBytes, s.request_bytes);
        c.figure("serving.response_bytes", F::ResponseBytes, s.response_bytes);
        c.figure(
            "serving.tokens_per_request",
            F::TokensPerRequest,
            s.tokens_per_request,
        );
    }
    if let Some(t) = &p.training {
        c.figure("training.parameters", F::TrainingParameters, t.parameters);
        c.figure("training.tokens", F::TrainingTokens, t.tokens);
        c.figure(
            "training.sequence_length",
            F::SequenceLength,
            t.sequence_length,
        );
        c.figure("training.batch_tokens", F::BatchTokens, t.batch_tokens);
        c.figure("training.mfu", F::Mfu, t.mfu);
        c.figure(
            "training.gradient_bytes_per_parameter",
            F::GradientBytesPerParameter,
            t.gradient_bytes_per_parameter,
        );
        c.figure("training.overlap", F::Overlap, t.overlap);
        c.figure(
            "training.checkpoint_bytes_per_parameter",
            F::CheckpointBytesPerParameter,
            t.checkpoint_bytes_per_parameter,
        );
        c.figure("training.restart_s", F::RestartS, t.restart_s);
        c.figure("training.repair_s", F::RepairS, t.repair_s);
    }
    let r = &p.failure_rates;
    for (name, x) in [
        ("gpu_per_year", r.gpu_per_year),
        ("gpu_memory_per_year", r.gpu_memory_per_year),
        ("host_per_year", r.host_per_year),
        ("power_supply_per_year", r.power_supply_per_year),
        ("software_per_year", r.software_per_year),
        ("nic_per_year", r.nic_per_year),
        ("link_per_year", r.link_per_year),
        ("switch_per_year", r.switch_per_year),
        ("planned_per_year", r.planned_per_year),
    ] {
        c.figure(&format!("failure_rates.{name}"), F::FailuresPerYear, x);
    }
    c.figure("failure_rates.band_low", F::FailureBandLow, r.band_low);
    c.figure("failure_rates.band_high", F::FailureBandHigh, r.band_high);
}

/// Checks a design's size against the stated limits and every figure of its parameters, parts, racks and links.
pub fn check(design: &Design) -> Vec<FigureProblem> {
    let mut problems = Vec::new();
    check_counts(design, &mut problems);
    check_params(&design.params, &mut problems);
    for (id, part) in &design.parts {
        check_part(id.as_str(), part, &mut problems);
    }
    check_floor("floor.", &design.floor, &mut problems);
    for (name, site) in &design.sites {
        check_site(name, site, &mut problems);
    }
    for (id, rack) in &design.racks {
        check_rack(design, *id, rack, &mut problems);
    }
    for (id, device) in &design.devices {
        check_device(*id, device, &mut problems);
    }
    for (id, link) in &design.links {
        check_link(*id, link, &mut problems);
    }
    check_scenarios(&design.scenarios, &mut problems);
    let mut names = Vec::new();
    super::names::check(design, &mut names);
    problems.extend(names.into_iter().map(FigureProblem::from));
    problems
}

impl From<super::names::NameProblem> for FigureProblem {
    fn from(p: super::names::NameProblem) -> Self {
        Self {
            field: p.field,
            part: p.part,
            name: p.key,
            message: p.message,
        }
    }
}

/// The most GPUs a planning scenario builds its cluster with (`Scenario::gpu_count`).
pub const MAX_SCENARIO_GPUS: u32 = 16_384;

/// Checks the figures of the planning scenarios with the ranges of the parameters they stand for: each scenario
/// is applied to the default parameters (with a service) and checked as parameters, so the two never disagree.
pub fn check_scenarios(scenarios: &[crate::model::Scenario], problems: &mut Vec<FigureProblem>) {
    let base = Params {
        serving: Some(crate::model::Serving::default()),
        ..Params::default()
    };
    for (i, s) in scenarios.iter().enumerate() {
        let mut found = Vec::new();
        check_params(&s.apply_to(&base), &mut found);
        for mut p in found {
            let field = format!("scenarios[{i}].{}", p.name);
            p.message = p.message.replacen(&p.field, &field, 1);
            p.field = field;
            problems.push(p);
        }
        // A scenario's cluster is built and analysed for every comparison (16 of them in a report): a count is
        // held to a meeting's what-if, not a sizing run (`racksmith size` goes to 262,144).
        if let Some(n) = s.gpu_count.filter(|n| !(1..=MAX_SCENARIO_GPUS).contains(n)) {
            let field = format!("scenarios[{i}].gpu_count");
            problems.push(FigureProblem {
                message: format!(
                    "{field} = {n}: a scenario builds 1 to 16,384 GPUs (size larger clusters with `racksmith size`)"
                ),
                field,
                part: None,
                name: "gpu_count".into(),
            });
        }
        let duplicate = scenarios.iter().take(i).any(|other| other.name == s.name);
        if s.name.trim().is_empty() || duplicate {
            let field = format!("scenarios[{i}].name");
            problems.push(FigureProblem {
                message: format!(
                    "{field} = {:?}: every scenario needs a name of its own",
                    s.name
                ),
                field,
                part: None,
                name: "name".into(),
            });
        }
    }
}

mod floor;
mod locate;
mod part;

pub use floor::{check_counts, check_device, check_floor, check_link, check_rack, check_site};
pub use locate::{EntryIndex, describe, line_columns, locate, locate_entry};
pub use part::{MAX_PCIE_DEPTH, check_part, check_part_all};

#[cfg(test)]
mod tests;
