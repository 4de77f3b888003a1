//! Sizing from a budget: what a yearly budget buys owned and in the cloud, and the owned design that fits it.

use super::{Sized, build, gpus_per_server, max_servers, shown, sized, within};
use crate::analysis::{Report, analyze};
use crate::catalog::Catalog;
use crate::model::{Design, Serving};
use crate::templates::TemplateError;
use serde::Serialize;

/// A yearly budget and the service it should buy.
#[derive(Debug, Clone)]
pub struct BudgetNeed {
    /// Money per year, USD.
    pub usd_per_year: f64,
    /// GPU model by template name (one of [`crate::templates::GPU_MODELS`]); it picks the owned design's server too.
    pub gpu: String,
    /// Requests per second one replica sustains at full load.
    pub replica_rps: f64,
    /// GPUs per replica.
    pub gpus_per_replica: u32,
    /// Planned utilisation, in (0, 1).
    pub utilisation: f64,
    /// p99 latency target of a request, ms, when there is one: the replicas then run at the lower of the
    /// utilisation and the most that keeps the p99 under it (the serving model's `planned_utilisation`).
    pub p99_ms: Option<f64>,
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
    check_budget(need)?;
    let name = format!("{} on a ${:.0} yearly budget", need.gpu, need.usd_per_year);
    let with_plan = |mut d: Design| {
        d.params.utilisation_target = need.utilisation;
        let mut serving = Serving {
            request_rate_rps: 1.0,
            replica_throughput_rps: need.replica_rps,
            gpus_per_replica: need.gpus_per_replica.max(1),
            ..Serving::default()
        };
        // No target: none binds (the file's largest), so the utilisation alone plans the replicas.
        serving.latency_target_ms = need.p99_ms.unwrap_or(1e7);
        d.params.serving = Some(serving);
        d
    };
    let cost_of = |servers: usize| -> Result<(Design, Report), TemplateError> {
        let d = with_plan(build(catalog, &need.gpu, servers, &name)?);
        let r = analyze(&d);
        Ok((d, r))
    };
    // Per-GPU yearly cost of each way, from a one-server design (cloud prices are per GPU; owned costs nearly so).
    let (_, probe) = cost_of(1)?;
    // The utilisation the serving model plans at: the lower of the asked one and the p99 target's limit.
    let planned = probe
        .latency
        .serving
        .as_ref()
        .map_or(need.utilisation, |s| s.planned_utilisation);
    let per_gpu_rps = need.replica_rps * planned / f64::from(need.gpus_per_replica.max(1));
    let options = budget_options(need, &probe, per_gpu_rps);
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
    // From the one-server estimate (an overestimate of the cost per server: one server carries whole leaves),
    // double while the budget holds, then bisect; never past the largest design Racksmith builds.
    let cap = max_servers(gpus_per_server(catalog, &need.gpu));
    let est = (need.usd_per_year / owned_year(&probe).max(1.0)).floor() as usize;
    let (mut lo, mut hi) = (1usize, est.clamp(2, cap.max(2)));
    let mut best = cost_of(1)?;
    loop {
        if hi > cap {
            hi = cap + 1;
            break;
        }
        let c = cost_of(hi)?;
        if owned_year(&c.1) > need.usd_per_year {
            break;
        }
        lo = hi;
        best = c;
        if hi == cap {
            hi = cap + 1;
            break;
        }
        hi = (hi * 2).min(cap);
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
    Ok((
        options,
        Some(sized(
            &need.gpu,
            lo,
            design,
            &report,
            "budget",
            why,
            (
                "budget",
                format!("${:.0} a year on {}", need.usd_per_year, need.gpu),
                None,
            ),
        )),
    ))
}

/// Refuses a budget need out of range, naming the option.
fn check_budget(need: &BudgetNeed) -> Result<(), TemplateError> {
    let bad = |option: &str, value: f64, why: &str| TemplateError::BadValue {
        option: option.into(),
        value: shown(value),
        why: why.into(),
    };
    if !within(need.usd_per_year, 1e12) {
        return Err(bad(
            "usd-per-year",
            need.usd_per_year,
            "a budget above 0 and at most 1e12 USD a year",
        ));
    }
    if !(need.utilisation > 0.0 && need.utilisation < 1.0) {
        return Err(bad("utilisation", need.utilisation, "between 0 and 1"));
    }
    if !within(need.replica_rps, 1e6) {
        return Err(bad(
            "replica-rps",
            need.replica_rps,
            "a rate above 0 and at most 1e6 requests per second",
        ));
    }
    if let Some(t) = need.p99_ms.filter(|t| !within(*t, 1e7)) {
        return Err(bad("p99-ms", t, "a target above 0 and at most 1e7 ms"));
    }
    Ok(())
}

/// What the budget buys each way, at the one-server probe's cost per GPU and year of each option.
fn budget_options(need: &BudgetNeed, probe: &Report, per_gpu_rps: f64) -> Vec<BudgetOption> {
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
    options
}
