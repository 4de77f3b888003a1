//! Sizing from a requirement: the smallest design of a template that meets a service level or finishes a training
//! job in time, found by running the same analysis the app shows (no separate model to disagree with it).
//!
//! - Serving: the analysis gives the replicas the request rate needs at the planned utilisation, capped by the
//!   largest utilisation that keeps the p99 under target (M/M/1: rho_max = 1 - ln(100) / (mu x budget)). The design
//!   is sized to that many GPUs, then grown one server at a time until its own analysis shows no shortfall (the
//!   network's share of the latency budget depends on the fabric built).
//! - Training: days fall as servers are added (6ND FLOPs over more GPUs, plus the gradient all-reduce of the fabric
//!   built), so the smallest server count that finishes within the days asked is found by bisection on the count.

use super::{TemplateError, generate, server_for};
use crate::analysis::{Report, analyze};
use crate::catalog::{Catalog, PartKind};
use crate::model::{Design, Serving, Training};
use serde::Serialize;

/// What a serving design must carry.
#[derive(Debug, Clone)]
pub struct ServingNeed {
    /// Requests per second.
    pub requests_per_s: f64,
    /// p99 latency target, ms.
    pub p99_ms: f64,
    /// Planned utilisation of each replica, in (0, 1).
    pub utilisation: f64,
    /// GPU model.
    pub gpu: String,
    /// Requests per second one replica sustains at full load on this GPU (from the user's benchmark).
    pub replica_rps: f64,
    /// GPUs per replica.
    pub gpus_per_replica: u32,
}

/// What a training design must do.
#[derive(Debug, Clone)]
pub struct TrainingNeed {
    /// Model parameters.
    pub parameters: f64,
    /// Tokens.
    pub tokens: f64,
    /// Days the job may take.
    pub days: f64,
    /// GPU model.
    pub gpu: String,
    /// Model FLOPs utilisation.
    pub mfu: f64,
}

/// A sized design and the figures that explain its size.
#[derive(Debug, Clone, Serialize)]
pub struct Sized {
    /// GPU model.
    pub gpu: String,
    /// Servers.
    pub servers: usize,
    /// GPUs.
    pub gpus: usize,
    /// Racks.
    pub racks: usize,
    /// IT power at maximum draw, kW.
    pub it_kw: f64,
    /// Capex, USD.
    pub capex_usd: f64,
    /// TCO over the depreciation period, USD.
    pub tco_usd: f64,
    /// Owned cost per GPU-hour, USD.
    pub usd_per_gpu_hour: f64,
    /// Serving: replicas needed, p99 at the planned load, largest utilisation for the target, cost per 1M
    /// requests. Training: days, and the job's cost owned and in the cloud.
    pub why: Vec<(String, String)>,
    /// The design.
    #[serde(skip)]
    pub design: Design,
}

fn servers_template(gpu: &str) -> Result<&'static str, TemplateError> {
    match server_for(gpu) {
        Some("pcie-gpu-4u") => Ok("inference-row"),
        Some(_) => Ok("leaf-spine"),
        None => Err(TemplateError::BadValue {
            option: "gpu".into(),
            value: gpu.into(),
            why: format!(
                "one of {}",
                super::GPU_MODELS
                    .iter()
                    .map(|(g, _)| *g)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
    }
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
    let template = servers_template(gpu)?;
    generate(
        catalog,
        template,
        &[
            ("servers".into(), servers.to_string()),
            ("gpu".into(), gpu.into()),
        ],
    )
    .map(|mut d| {
        d.name = name.to_string();
        d
    })
}

fn sized(
    gpu: &str,
    servers: usize,
    design: Design,
    report: &Report,
    why: Vec<(String, String)>,
) -> Sized {
    Sized {
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

/// The smallest design that serves the request rate under the p99 target at the planned utilisation.
pub fn serving(catalog: &Catalog, need: &ServingNeed) -> Result<Sized, TemplateError> {
    let bad = |option: &str, value: f64, why: &str| TemplateError::BadValue {
        option: option.into(),
        value: value.to_string(),
        why: why.into(),
    };
    if !(need.requests_per_s > 0.0 && need.requests_per_s.is_finite()) {
        return Err(bad(
            "requests-per-s",
            need.requests_per_s,
            "a positive rate",
        ));
    }
    if !(need.p99_ms > 0.0 && need.p99_ms.is_finite()) {
        return Err(bad("p99-ms", need.p99_ms, "a positive target in ms"));
    }
    if !(need.utilisation > 0.0 && need.utilisation < 1.0) {
        return Err(bad("utilisation", need.utilisation, "between 0 and 1"));
    }
    if !(need.replica_rps > 0.0 && need.replica_rps.is_finite()) {
        return Err(bad("replica-rps", need.replica_rps, "a positive rate"));
    }
    let per_server = gpus_per_server(catalog, &need.gpu);
    let name = format!(
        "Serving {} req/s at p99 {} ms on {}",
        need.requests_per_s, need.p99_ms, need.gpu
    );
    let with_need = |mut d: Design| {
        d.params.utilisation_target = need.utilisation;
        d.params.serving = Some(Serving {
            request_rate_rps: need.requests_per_s,
            replica_throughput_rps: need.replica_rps,
            gpus_per_replica: need.gpus_per_replica.max(1),
            latency_target_ms: need.p99_ms,
            ..Serving::default()
        });
        d
    };
    // A first design of one server tells how many GPUs the service needs.
    let probe = with_need(build(catalog, &need.gpu, 1, &name)?);
    let report = analyze(&probe);
    let s = report.latency.serving.as_ref();
    let gpus_needed = s.and_then(|s| s.gpus_needed).unwrap_or(0);
    if gpus_needed == 0 {
        let rho = s.map_or(0.0, |s| s.max_utilisation_for_target);
        return Err(TemplateError::BadValue {
            option: "p99-ms".into(),
            value: need.p99_ms.to_string(),
            why: format!(
                "no utilisation meets it: a replica at {} req/s needs more than the target once the network's share \
                 is taken (largest utilisation for the target: {rho:.3})",
                need.replica_rps
            ),
        });
    }
    let first = (gpus_needed as usize).div_ceil(per_server).max(1);
    for servers in first..(first + 64).min(4097) {
        let design = with_need(build(catalog, &need.gpu, servers, &name)?);
        let report = analyze(&design);
        let Some(s) = report.latency.serving.clone() else {
            break;
        };
        if s.headroom >= -1e-9 {
            let why = vec![
                (
                    "replicas needed".into(),
                    s.replicas_needed.map_or("-".into(), |r| r.to_string()),
                ),
                ("replicas in the design".into(), s.replicas.to_string()),
                (
                    "planned utilisation".into(),
                    format!(
                        "{:.3} (asked {}, largest for the p99 target {:.3})",
                        s.planned_utilisation, need.utilisation, s.max_utilisation_for_target
                    ),
                ),
                (
                    "p99 at the offered load".into(),
                    format!("{:.1} ms (target {} ms)", s.p99_ms, need.p99_ms),
                ),
                (
                    "capacity".into(),
                    format!(
                        "{:.1} req/s ({:+.1}% headroom)",
                        s.capacity_rps,
                        s.headroom * 100.0
                    ),
                ),
                (
                    "cost per 1M requests".into(),
                    report
                        .cost
                        .usd_per_million_requests
                        .map_or("-".into(), |c| format!("${c:.2}")),
                ),
            ];
            return Ok(sized(&need.gpu, servers, design, &report, why));
        }
    }
    Err(TemplateError::BadValue {
        option: "requests-per-s".into(),
        value: need.requests_per_s.to_string(),
        why: "more than 4,096 servers would be needed".into(),
    })
}

/// The smallest design that finishes the training job within the days asked.
pub fn training(catalog: &Catalog, need: &TrainingNeed) -> Result<Sized, TemplateError> {
    let bad = |option: &str, value: f64, why: &str| TemplateError::BadValue {
        option: option.into(),
        value: value.to_string(),
        why: why.into(),
    };
    if !(need.parameters > 0.0 && need.parameters.is_finite()) {
        return Err(bad("params", need.parameters, "a positive parameter count"));
    }
    if !(need.tokens > 0.0 && need.tokens.is_finite()) {
        return Err(bad("tokens", need.tokens, "a positive token count"));
    }
    if !(need.days > 0.0 && need.days.is_finite()) {
        return Err(bad("days", need.days, "a positive number of days"));
    }
    if !(need.mfu > 0.0 && need.mfu <= 1.0) {
        return Err(bad("mfu", need.mfu, "a share of peak in (0, 1]"));
    }
    let name = format!(
        "Training {:.0}B parameters on {:.0}B tokens in {} days on {}",
        need.parameters / 1e9,
        need.tokens / 1e9,
        need.days,
        need.gpu
    );
    let with_job = |mut d: Design| {
        d.params.training = Some(Training {
            parameters: need.parameters,
            tokens: need.tokens,
            mfu: need.mfu,
            ..Training::default()
        });
        d
    };
    let days = |servers: usize| -> Result<(Design, Report, f64), TemplateError> {
        let d = with_job(build(catalog, &need.gpu, servers, &name)?);
        let r = analyze(&d);
        let days = r
            .latency
            .training
            .as_ref()
            .map_or(f64::INFINITY, |t| t.days);
        Ok((d, r, days))
    };
    // Grow until it fits, then bisect down to the smallest count that does.
    let (mut lo, mut hi) = (0usize, 1usize);
    let mut found = days(hi)?;
    while found.2 > need.days {
        lo = hi;
        hi *= 2;
        if hi > 4096 {
            return Err(bad(
                "days",
                need.days,
                "more than 4,096 servers would be needed; allow more days",
            ));
        }
        found = days(hi)?;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        let candidate = days(mid)?;
        if candidate.2 <= need.days {
            hi = mid;
            found = candidate;
        } else {
            lo = mid;
        }
    }
    let (design, report, d) = found;
    let t = report.latency.training.clone();
    let why = vec![
        ("days".into(), format!("{d:.2} (asked {})", need.days)),
        (
            "per step".into(),
            t.as_ref().map_or("-".into(), |t| {
                format!(
                    "{:.3} s compute, {:.3} s all-reduce ({:.3} s exposed)",
                    t.compute_s_per_step, t.allreduce_s_per_step, t.exposed_s_per_step
                )
            }),
        ),
        (
            "GPU-hours".into(),
            t.as_ref()
                .map_or("-".into(), |t| format!("{:.0}", t.gpu_hours)),
        ),
        (
            "job cost owned".into(),
            report
                .cost
                .training_job_usd
                .map_or("-".into(), |c| format!("${c:.0}")),
        ),
        (
            "job cost in the cloud".into(),
            report
                .cost
                .training_job_cloud_usd
                .map_or("-".into(), |c| format!("${c:.0}")),
        ),
    ];
    Ok(sized(&need.gpu, hi, design, &report, why))
}

/// A yearly budget and the service it should buy.
#[derive(Debug, Clone)]
pub struct BudgetNeed {
    /// Money per year, USD.
    pub usd_per_year: f64,
    /// GPU model.
    pub gpu: String,
    /// Requests per second one replica sustains at full load.
    pub replica_rps: f64,
    /// GPUs per replica.
    pub gpus_per_replica: u32,
    /// Planned utilisation, in (0, 1).
    pub utilisation: f64,
}

/// What one way of getting GPUs buys with the budget.
#[derive(Debug, Clone, Serialize)]
pub struct BudgetOption {
    /// Owned, cloud on demand, or with a commitment.
    pub option: String,
    /// GPUs the budget pays for.
    pub gpus: u64,
    /// Requests per second they serve at the planned utilisation.
    pub requests_per_s: f64,
    /// Cost per year of those GPUs, USD.
    pub usd_per_year: f64,
    /// Cost per 1M requests, USD.
    pub usd_per_million_requests: Option<f64>,
}

/// What a yearly budget buys each way (owned, on demand, 1- and 3-year commitments), and the owned design that
/// fits it: the largest server count whose owned cost per year is within the budget.
pub fn budget(
    catalog: &Catalog,
    need: &BudgetNeed,
) -> Result<(Vec<BudgetOption>, Option<Sized>), TemplateError> {
    let bad = |option: &str, value: f64, why: &str| TemplateError::BadValue {
        option: option.into(),
        value: value.to_string(),
        why: why.into(),
    };
    if !(need.usd_per_year > 0.0 && need.usd_per_year.is_finite()) {
        return Err(bad(
            "budget-usd-per-year",
            need.usd_per_year,
            "a positive budget",
        ));
    }
    if !(need.utilisation > 0.0 && need.utilisation < 1.0) {
        return Err(bad("utilisation", need.utilisation, "between 0 and 1"));
    }
    if !(need.replica_rps > 0.0 && need.replica_rps.is_finite()) {
        return Err(bad("replica-rps", need.replica_rps, "a positive rate"));
    }
    let name = format!("{} on a ${:.0} yearly budget", need.gpu, need.usd_per_year);
    let with_plan = |mut d: Design| {
        d.params.utilisation_target = need.utilisation;
        d.params.serving = Some(Serving {
            request_rate_rps: 1.0,
            replica_throughput_rps: need.replica_rps,
            gpus_per_replica: need.gpus_per_replica.max(1),
            ..Serving::default()
        });
        d
    };
    let cost_of = |servers: usize| -> Result<(Design, Report), TemplateError> {
        let d = with_plan(build(catalog, &need.gpu, servers, &name)?);
        let r = analyze(&d);
        Ok((d, r))
    };
    // Per-GPU yearly cost of each way, from a one-server design (cloud prices are per GPU; owned costs nearly so).
    let (_, probe) = cost_of(1)?;
    let per_gpu_rps = need.replica_rps * need.utilisation / f64::from(need.gpus_per_replica.max(1));
    let gpus_in_probe = probe.summary.gpus.max(1) as f64;
    let options: Vec<BudgetOption> = probe
        .cost
        .options
        .iter()
        .map(|o| {
            let per_gpu_year = o.usd_per_year / gpus_in_probe;
            let gpus = if per_gpu_year > 0.0 {
                (need.usd_per_year / per_gpu_year).floor() as u64
            } else {
                0
            };
            let rps = gpus as f64 * per_gpu_rps;
            BudgetOption {
                option: o.option.clone(),
                gpus,
                requests_per_s: crate::analysis::format::round(rps, 2),
                usd_per_year: crate::analysis::format::round(gpus as f64 * per_gpu_year, 2),
                usd_per_million_requests: (rps > 0.0).then(|| {
                    crate::analysis::format::round(
                        gpus as f64 * per_gpu_year / (rps * 3600.0 * 8760.0) * 1e6,
                        2,
                    )
                }),
            }
        })
        .collect();
    // The owned design: grow while the owned cost per year stays within the budget.
    let owned_year = |r: &Report| {
        r.cost
            .options
            .first()
            .map_or(f64::INFINITY, |o| o.usd_per_year)
    };
    if owned_year(&probe) > need.usd_per_year {
        return Ok((options, None));
    }
    let (mut lo, mut hi) = (1usize, 2usize);
    let mut best = cost_of(1)?;
    loop {
        if hi > 4096 {
            break;
        }
        let c = cost_of(hi)?;
        if owned_year(&c.1) > need.usd_per_year {
            break;
        }
        lo = hi;
        best = c;
        hi *= 2;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        let c = cost_of(mid)?;
        if owned_year(&c.1) <= need.usd_per_year {
            lo = mid;
            best = c;
        } else {
            hi = mid;
        }
    }
    let (design, report) = best;
    let year = owned_year(&report);
    // The owned line is the design that fits, not the one-server estimate (a fabric's fixed costs spread out).
    let mut options = options;
    if let Some(first) = options.first_mut() {
        let gpus = report.summary.gpus as u64;
        let rps = gpus as f64 * per_gpu_rps;
        first.gpus = gpus;
        first.requests_per_s = crate::analysis::format::round(rps, 2);
        first.usd_per_year = crate::analysis::format::round(year, 2);
        first.usd_per_million_requests = (rps > 0.0)
            .then(|| crate::analysis::format::round(year / (rps * 3600.0 * 8760.0) * 1e6, 2));
    }
    let why = vec![
        (
            "owned cost per year".into(),
            format!("${year:.0} of ${:.0}", need.usd_per_year),
        ),
        (
            "serves".into(),
            format!(
                "{:.1} req/s at {} utilisation",
                report.summary.gpus as f64 * per_gpu_rps,
                need.utilisation
            ),
        ),
    ];
    Ok((options, Some(sized(&need.gpu, lo, design, &report, why))))
}
