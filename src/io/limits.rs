//! Every figure a design file carries has a documented range, and the size of a design has stated limits, checked
//! before any analysis (docs/limits.md). A figure out of range is an error naming the field, the value, the allowed
//! range and, where the text shows it, the line and column; nothing is clamped silently.

use crate::model::part::{Part, PartKind};
use crate::model::{Design, Params, PcieLink};
use std::collections::HashMap;
use std::fmt::Write as _;

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
    pub const ALL: [Figure; 40] = [
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

/// The figures of one site: its availability, PUEs and prices. The loader checks every site with it and the
/// editor the site an edit writes, so the two never disagree.
pub fn check_site(name: &str, site: &crate::model::Site, problems: &mut Vec<FigureProblem>) {
    let mut c = Checker {
        problems,
        prefix: Prefix::Text(format!("sites.\"{name}\".")),
        part: None,
    };
    c.num("availability", site.availability, Range::above(0.0, 1.0));
    if let Some(floor) = &site.floor {
        check_floor(&format!("sites.\"{name}\".floor."), floor, c.problems);
    }
    if let Some(x) = site.pue {
        c.figure("pue", Figure::Pue, x);
    }
    if let Some(x) = site.pue_liquid {
        c.figure("pue_liquid", Figure::Pue, x);
    }
    if let Some(x) = site.electricity_usd_per_kwh {
        c.figure("electricity_usd_per_kwh", Figure::ElectricityUsdPerKwh, x);
    }
    for (other, km) in &site.distance_km {
        c.num(
            &format!("distance_km.\"{other}\""),
            *km,
            Range::above(0.0, 40_075.0),
        );
    }
    if let Some(x) = site.colocation_usd_per_kw_month {
        c.figure(
            "colocation_usd_per_kw_month",
            Figure::ColocationUsdPerKwMonth,
            x,
        );
    }
}

/// The figures of a floor (docs/limits.md): pitch and depth 100 mm to 5 m, aisles 0 to 20 m, tray 0 to 10 m,
/// slack factor 1 to 3, service loop 0 to 20 m per end.
pub fn check_floor(prefix: &str, floor: &crate::model::Floor, problems: &mut Vec<FigureProblem>) {
    let mut c = Checker {
        problems,
        prefix: Prefix::Text(prefix.to_string()),
        part: None,
    };
    c.num(
        "rack_pitch_mm",
        floor.rack_pitch_mm,
        Range::closed(100.0, 5_000.0),
    );
    c.num(
        "rack_depth_mm",
        floor.rack_depth_mm,
        Range::closed(100.0, 5_000.0),
    );
    c.num(
        "cold_aisle_mm",
        floor.cold_aisle_mm,
        Range::closed(0.0, 20_000.0),
    );
    c.num(
        "hot_aisle_mm",
        floor.hot_aisle_mm,
        Range::closed(0.0, 20_000.0),
    );
    c.num(
        "tray_height_mm",
        floor.tray_height_mm,
        Range::closed(0.0, 10_000.0),
    );
    c.num("slack_factor", floor.slack_factor, Range::closed(1.0, 3.0));
    c.num(
        "service_loop_m",
        floor.service_loop_m,
        Range::closed(0.0, 20.0),
    );
}

/// The figures of one rack (power budget, weight, feed) and its cooling against its site's plant; shared by the
/// loader and the editor like [`check_site`].
pub fn check_rack(
    design: &Design,
    id: crate::model::RackId,
    rack: &crate::model::Rack,
    problems: &mut Vec<FigureProblem>,
) {
    let mut c = Checker {
        problems,
        prefix: Prefix::Entry("racks", id.0),
        part: None,
    };
    // A budget of 0 W would make every rack's load an infinite share of it.
    c.num(
        "power_budget_w",
        rack.power_budget_w,
        Range::above(0.0, 1e6),
    );
    c.num("max_weight_kg", rack.max_weight_kg, Range::closed(0.0, 1e5));
    if let Some(f) = rack.feed_capacity_w {
        c.num("feed_capacity_w", f, Range::closed(0.0, 1e6));
    }
    if let Some(w) = rack.width_mm {
        c.num("width_mm", w, Range::closed(100.0, 5_000.0));
    }
    if let Some(site) = design.sites.get(&rack.site)
        && !site.cooling.allows(rack.cooling)
    {
        c.bad(
            "cooling",
            format!(
                "rack {} is {:?}-cooled, but its site \"{}\" is {:?}: a site without facility water cannot \
                 take liquid-cooled racks (set the rack's cooling to Air, or the site's cooling to AirAndLiquid)",
                rack.name, rack.cooling, rack.site, site.cooling
            ),
        );
    }
}

/// The slot counts of one device; shared by the loader and the editor like [`check_site`].
pub fn check_device(
    id: crate::model::DeviceId,
    device: &crate::model::Device,
    problems: &mut Vec<FigureProblem>,
) {
    let mut c = Checker {
        problems,
        prefix: Prefix::Entry("devices", id.0),
        part: None,
    };
    c.count("gpus", device.gpus.len(), MAX_GPU_SLOTS);
    c.count("nics", device.nics.len(), MAX_NIC_SLOTS);
}

/// The length of one link; shared by the loader and the editor like [`check_site`].
pub fn check_link(
    id: crate::model::LinkId,
    link: &crate::model::Link,
    problems: &mut Vec<FigureProblem>,
) {
    let mut c = Checker {
        problems,
        prefix: Prefix::Entry("links", id.0),
        part: None,
    };
    c.num("length_m", link.length_m, Range::closed(0.0, 1e7));
}

/// The number of racks, devices, links and parts against their limits; shared by the loader and the editor.
pub fn check_counts(design: &Design, problems: &mut Vec<FigureProblem>) {
    let mut c = Checker {
        problems,
        prefix: Prefix::Text(String::new()),
        part: None,
    };
    c.count("racks", design.racks.len(), MAX_RACKS);
    c.count("devices", design.devices.len(), MAX_DEVICES);
    c.count("links", design.links.len(), MAX_LINKS);
    c.count("parts", design.parts.len(), MAX_PARTS);
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

/// The figures and the names of one part of a parts file, as a design's copy of it is checked.
pub fn check_part_all(id: &str, part: &Part, problems: &mut Vec<FigureProblem>) {
    check_part(id, part, problems);
    let mut names = Vec::new();
    super::names::check_part(id, part, &mut names);
    problems.extend(names.into_iter().map(FigureProblem::from));
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

/// Where scenario `i`'s entry starts in the design text: its `name:`, the `i`-th one after `scenarios:`.
fn scenario_start(text: &str, field: &str) -> Option<usize> {
    let index: usize = field
        .strip_prefix("scenarios[")?
        .split(']')
        .next()?
        .parse()
        .ok()?;
    let list = text.find("scenarios:")?;
    let mut at = list;
    for _ in 0..=index {
        at += text.get(at..)?.find("name:")? + 1;
    }
    Some(at - 1)
}

/// Where a figure is written in the design text, 1-based line and column, when it can be found: for a part's
/// figure, the first `name:` after the part's key; for a parameter, the first `name:` after `params:`.
pub fn locate(text: &str, problem: &FigureProblem) -> Option<(usize, usize)> {
    let at = locate_at(text, problem, &mut EntryIndex::new(text))?;
    super::names::line_column(text, at)
}

/// The byte offset where [`locate`] places a problem, with the entries found through `index`.
fn locate_at(text: &str, problem: &FigureProblem, index: &mut EntryIndex<'_>) -> Option<usize> {
    let start = match &problem.part {
        Some(id) => index.part(id)?,
        None if problem.field.starts_with("params.") => text.find("params:")?,
        None if problem.field.starts_with("floor.") => text.find("floor:")?,
        None if problem.field.starts_with("scenarios[") => scenario_start(text, &problem.field)?,
        // A top-level field (`name`, `notes`): its first key in the file. A bad map key (`sites`, `parts`) is found
        // by its character instead, in `describe`.
        None if !problem.field.contains('.') => {
            if problem.field != problem.name {
                return None;
            }
            0
        }
        None => {
            // `sites."east".availability`, `racks.5.cooling`: the section, then the entry's key in it.
            let (section, rest) = problem.field.split_once('.')?;
            if let Some(quoted) = rest.strip_prefix('"') {
                let key = format!("\"{}\":", quoted.split_once('"')?.0);
                let at = text.find(&format!("{section}:"))?;
                at + find_key(text.get(at..)?, &key)?
            } else {
                let id: u64 = rest.split_once('.')?.0.parse().ok()?;
                index.entry(section, id)?
            }
        }
    };
    let needle = format!("{}:", problem.name);
    Some(start + text.get(start..)?.find(&needle)?)
}

/// Where entries start in a design's text, each section scanned once when first asked about: placing thousands of
/// problems costs one pass over the text, not one per problem (16,000 bad port references in a 4 MB file took 19 s
/// to place one by one).
pub struct EntryIndex<'a> {
    text: &'a str,
    /// Per section (`links`, `devices`, `racks`): each id's first key after the section's name, as [`find_key`]
    /// finds it.
    sections: HashMap<String, HashMap<u64, usize>>,
    /// Part keys already looked up (a design's problems name a few parts, each many times).
    parts: HashMap<String, Option<usize>>,
}

impl<'a> EntryIndex<'a> {
    /// An index of `text`, empty until asked.
    pub fn new(text: &'a str) -> Self {
        Self {
            text,
            sections: HashMap::new(),
            parts: HashMap::new(),
        }
    }

    /// Where entry `id` of `section` starts, as [`locate_entry`] finds it.
    pub fn entry(&mut self, section: &str, id: u64) -> Option<usize> {
        let text = self.text;
        self.sections
            .entry(section.to_string())
            .or_insert_with(|| Self::scan(text, section))
            .get(&id)
            .copied()
    }

    /// Where part `id`'s key is, after `parts:`.
    fn part(&mut self, id: &str) -> Option<usize> {
        let text = self.text;
        *self.parts.entry(id.to_string()).or_insert_with(|| {
            let key = format!("\"{id}\":");
            let parts = text.find("parts:")?;
            Some(parts + text.get(parts..)?.find(&key)?)
        })
    }

    /// Every `ID:` key after `section:`, first occurrence of each: digits that follow whitespace, `{` or `,` (or
    /// the section's name) and are followed by `:`, written as the id writes itself (no leading zero).
    fn scan(text: &str, section: &str) -> HashMap<u64, usize> {
        let mut map = HashMap::new();
        let Some(from) = text.find(&format!("{section}:")) else {
            return map;
        };
        let Some(rest) = text.get(from..) else {
            return map;
        };
        let bytes = rest.as_bytes();
        let mut prev: Option<char> = None;
        let mut it = rest.char_indices().peekable();
        while let Some((i, c)) = it.next() {
            if c.is_ascii_digit() && prev.is_none_or(|p| p.is_whitespace() || p == '{' || p == ',')
            {
                let mut end = i;
                while bytes.get(end).is_some_and(u8::is_ascii_digit) {
                    end += 1;
                }
                if bytes.get(end) == Some(&b':')
                    && let Some(digits) = rest.get(i..end)
                    && let Ok(id) = digits.parse::<u64>()
                    && id.to_string() == digits
                {
                    map.entry(id).or_insert(from + i);
                }
                // Skip the rest of the run: no key starts inside it.
                while it.peek().is_some_and(|(j, _)| *j < end) {
                    it.next();
                }
                prev = rest.get(..end).and_then(|t| t.chars().next_back());
                continue;
            }
            prev = Some(c);
        }
        map
    }
}

/// Line and column (1-based, columns in characters) of each byte offset, in one pass over the text however many
/// there are.
pub fn line_columns(text: &str, offsets: &[usize]) -> Vec<Option<(usize, usize)>> {
    let mut order: Vec<usize> = (0..offsets.len()).collect();
    order.sort_by_key(|&i| offsets.get(i).copied().unwrap_or(usize::MAX));
    let mut out = vec![None; offsets.len()];
    let (mut line, mut column, mut at) = (1usize, 1usize, 0usize);
    let mut chars = text.char_indices().peekable();
    for i in order {
        let Some(&want) = offsets.get(i) else {
            continue;
        };
        if want > text.len() || !text.is_char_boundary(want) {
            continue;
        }
        while at < want {
            let Some((_, c)) = chars.next() else {
                break;
            };
            at += c.len_utf8();
            if c == '\n' {
                line += 1;
                column = 1;
            } else {
                column += 1;
            }
        }
        if let Some(slot) = out.get_mut(i) {
            *slot = Some((line, column));
        }
    }
    out
}

/// Where the entry `id` of a section (`racks`, `devices`, `links`) starts in a design's text, 1-based line and
/// column: for placing the problems validation finds (a cable to a missing port, two devices in one unit). To place
/// many, use [`EntryIndex`] and [`line_columns`].
pub fn locate_entry(text: &str, section: &str, id: u64) -> Option<(usize, usize)> {
    let at = EntryIndex::new(text).entry(section, id)?;
    super::names::line_column(text, at)
}

/// The first place `key` starts a map entry in `text`: at the start or after whitespace, `{` or `,` (so `1:` does
/// not match inside `11:`).
fn find_key(text: &str, key: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text.get(from..)?.find(key) {
        let at = from + i;
        let before = text.get(..at)?.chars().next_back();
        if before.is_none_or(|c| c.is_whitespace() || c == '{' || c == ',') {
            return Some(at);
        }
        from = at + key.len();
    }
    None
}

/// The problems as lines, each with its line and column where known. One pass over the text places them all.
pub fn describe(text: &str, problems: &[FigureProblem]) -> Vec<String> {
    let mut index = EntryIndex::new(text);
    let mut unsafe_at: Option<Option<usize>> = None;
    let offsets: Vec<usize> = problems
        .iter()
        .map(|p| {
            locate_at(text, p, &mut index)
                .or_else(|| {
                    if !super::names::NameProblem::is_character_problem(&p.message) {
                        return None;
                    }
                    *unsafe_at.get_or_insert_with(|| super::names::find_unsafe(text))
                })
                .unwrap_or(usize::MAX)
        })
        .collect();
    let places = line_columns(text, &offsets);
    problems
        .iter()
        .zip(places)
        .map(|(p, at)| {
            let mut s = String::new();
            if let Some((line, col)) = at {
                let _ = write!(s, "line {line}, column {col}: ");
            }
            s.push_str(&p.message);
            s
        })
        .collect()
}

#[cfg(test)]
mod tests;
