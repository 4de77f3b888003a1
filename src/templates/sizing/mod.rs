//! Sizing from a requirement: the smallest design of a template that meets a service level or finishes a training
//! job in time, found by running the same analysis the app shows (no separate model to disagree with it).
//!
//! - Serving: the analysis gives the replicas the request rate needs at the planned utilisation, capped by the
//!   largest utilisation that keeps the p99 under target (M/M/1: rho_max = 1 - ln(100) / (mu x budget)). The design
//!   is sized to that many GPUs, then grown one server at a time until its own analysis shows no shortfall (the
//!   network's share of the latency budget depends on the fabric built).
//! - Training: the days asked are met with failures counted (docs/analysis.md, "Failures and checkpoints"): the
//!   failure-free days (6ND FLOPs over more GPUs, plus the gradient all-reduce of the fabric built) over the
//!   goodput, which falls as servers are added (interruptions grow with the parts, checkpoints with the storage
//!   sized for the job). The goodput is estimated in closed form per candidate (interruptions per server from a
//!   two-server probe of the same parts, the checkpoint write from the storage sized for that many GPUs, Daly's
//!   interval, hot spares enough that a failed server finds one ready 99% of the time), so the days with failures
//!   fall and then rise again: the search finds the fastest count, then the smallest that finishes by bisection
//!   below it, and checks the answer on its own analysis.
//! - Any size up to [`super::MAX_SIZED_GPUS`]: the fabric grows tiers as it must ([`super::clos`]); past that the
//!   answer is an error naming the option the user gave and what would fit.

mod budget;
mod serving;
mod training;

pub use budget::{BudgetNeed, BudgetOption, budget};
pub use serving::{
    DECODE_COMPUTE_EFFICIENCY, DECODE_MEMORY_EFFICIENCY, ReplicaRate, SERVING_DEFAULTS,
    ServedModel, ServingDefaults, ServingNeed, default_replica_rps, replica_rate,
    resolve_replica_rps, serving,
};
pub use training::{TRAINING_DEFAULTS, TrainingDefaults, TrainingNeed, training};

use super::{MAX_SIZED_GPUS, TemplateError, server_for};
use crate::analysis::Report;
use crate::catalog::{Catalog, PartKind};
use crate::model::Design;
use serde::Serialize;

/// A sized design and the figures that explain its size.
#[derive(Debug, Clone, Serialize)]
pub struct Sized {
    /// The GPU model sized for, as the need named it.
    pub gpu: String,
    /// GPU servers in the design, each the GPU model's server part.
    pub servers: usize,
    /// GPUs installed in the design (the analysis summary's count).
    pub gpus: usize,
    /// Racks in the design.
    pub racks: usize,
    /// IT power at maximum draw, kW.
    pub it_kw: f64,
    /// Capital cost of the whole design (parts and spares), USD, from its analysis.
    pub capex_usd: f64,
    /// TCO over the depreciation period, USD.
    pub tco_usd: f64,
    /// Owned cost per GPU-hour, USD.
    pub usd_per_gpu_hour: f64,
    /// Switches by tier (leaf, spine, core, ...).
    pub switches_by_tier: std::collections::BTreeMap<String, usize>,
    /// Which limit set the size: "p99", "utilisation", "days" or "budget".
    pub limit: String,
    /// Serving: replicas needed, p99 at the planned load, largest utilisation for the target, cost per 1M
    /// requests. Training: days, and the job's cost owned and in the cloud.
    pub why: Vec<(String, String)>,
    /// The sized design itself, which `-o` writes; not part of the JSON.
    #[serde(skip)]
    pub design: Design,
}

fn gpus_per_server(catalog: &Catalog, gpu: &str) -> usize {
    server_for(gpu)
        .and_then(|s| catalog.get(s))
        .map_or(8, |p| match &p.kind {
            PartKind::Server(s) => s.gpu_slots.len().max(1),
            _ => 8,
        })
}

fn build(
    catalog: &Catalog,
    gpu: &str,
    servers: usize,
    name: &str,
) -> Result<Design, TemplateError> {
    super::servers_design(catalog, gpu, servers).map(|mut d| {
        d.name = name.to_string();
        d
    })
}

/// A number as the user would type it: 1e30 rather than thirty-one digits.
fn shown(v: f64) -> String {
    if v.is_finite() && v.abs() >= 1e7 {
        format!("{v:e}")
    } else {
        v.to_string()
    }
}

/// Whether a requirement is a number above 0 and at most `hi` (NaN and infinities are not).
fn within(v: f64, hi: f64) -> bool {
    v > 0.0 && v <= hi
}

/// The most servers of a GPU model a sized design holds.
fn max_servers(per_server: usize) -> usize {
    (MAX_SIZED_GPUS / per_server.max(1)).max(1)
}

fn with_commas(n: usize) -> String {
    crate::analysis::format::thousands(n as f64, 0)
}

fn sized(
    gpu: &str,
    servers: usize,
    mut design: Design,
    report: &Report,
    limit: &str,
    why: Vec<(String, String)>,
    record: (&str, String, Option<f64>),
) -> Sized {
    let preview = super::preview(&design, report);
    let (goal, requirement, days) = record;
    design.sizing = Some(crate::model::SizingRecord {
        goal: goal.to_string(),
        requirement,
        limit: limit.to_string(),
        why: why.clone(),
        days,
    });
    Sized {
        switches_by_tier: preview.switches_by_tier,
        limit: limit.to_string(),
        gpu: gpu.to_string(),
        servers,
        gpus: report.summary.gpus,
        racks: design.racks.len(),
        it_kw: report.summary.it_power_kw,
        capex_usd: report.summary.capex_usd,
        tco_usd: report.cost.tco_usd,
        usd_per_gpu_hour: report.cost.owned_usd_per_gpu_hour,
        why,
        design,
    }
}
