//! Sizing from a requirement: the smallest design of a template that meets a service level or finishes a training
//! job in time, found by running the same analysis the app shows (no separate model to disagree with it).
//!
//! - Serving: the analysis gives the replicas the request rate needs at the planned utilisation, capped by the
//!   largest utilisation that keeps the p99 under target (M/M/1: rho_max = 1 - ln(100) / (mu x budget)). The design
//!   is sized to that many GPUs, then grown one server at a time until its own analysis shows no shortfall (the
//!   network's share of the latency budget depends on the fabric built).
//! - Training: days fall as servers are added (6ND FLOPs over more GPUs, plus the gradient all-reduce of the fabric
//!   built), so the smallest server count that finishes within the days asked is found from the compute-only bound
//!   (no design below it can finish) upwards, then by bisection between the last count that fails and the first
//!   that finishes.
//! - Any size up to [`super::MAX_SIZED_GPUS`]: the fabric grows tiers as it must ([`super::clos`]); past that the
//!   answer is an error naming the option the user gave and what would fit.

use super::{MAX_SIZED_GPUS, TemplateError, server_for};
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
    /// GPU model by template name (one of [`super::GPU_MODELS`], e.g. "l40s"); it picks the server too.
    pub gpu: String,
    /// Requests per second one replica sustains at full load on this GPU (from the user's benchmark).
    pub replica_rps: f64,
    /// GPUs per replica.
    pub gpus_per_replica: u32,
}

/// What a training design must do.
#[derive(Debug, Clone)]
pub struct TrainingNeed {
    /// Parameter count of the model to train, e.g. 13e9.
    pub parameters: f64,
    /// Training tokens the job must get through, e.g. 300e9.
    pub tokens: f64,
    /// Days the job may take.
    pub days: f64,
    /// GPU model by template name (one of [`super::GPU_MODELS`], e.g. "h100-sxm"); it picks the server too.
    pub gpu: String,
    /// Model FLOPs utilisation.
    pub mfu: f64,
}

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
    design: Design,
    report: &Report,
    limit: &str,
    why: Vec<(String, String)>,
) -> Sized {
    let preview = super::preview(&design, report);
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

/// The smallest design that serves the request rate under the p99 target at the planned utilisation. One function
/// on purpose: the sizing reads as the derivation it reports (replicas from the queue, servers from replicas,
/// fabric from servers), each step adding its line to `why`.
pub fn serving(catalog: &Catalog, need: &ServingNeed) -> Result<Sized, TemplateError> {
    let bad = |option: &str, value: f64, why: &str| TemplateError::BadValue {
        option: option.into(),
        value: shown(value),
        why: why.into(),
    };
    if !within(need.requests_per_s, 1e9) {
        return Err(bad(
            "requests-per-s",
            need.requests_per_s,
            "a rate above 0 and at most 1e9 requests per second",
        ));
    }
    if !within(need.p99_ms, 3.6e6) {
        return Err(bad(
            "p99-ms",
            need.p99_ms,
            "a target above 0 and at most 3,600,000 ms (an hour)",
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
    let replicas_needed = s.and_then(|s| s.replicas_needed).unwrap_or(0);
    let cap = max_servers(per_server);
    let first = (gpus_needed as usize).div_ceil(per_server).max(1);
    if first > cap {
        return Err(TemplateError::BadValue {
            option: "requests-per-s".into(),
            value: shown(need.requests_per_s),
            why: format!(
                "needs {} replicas ({} GPUs), more than the {} GPUs ({} servers of {}) Racksmith builds; ask for \
                 less, or a faster replica",
                with_commas(replicas_needed as usize),
                with_commas(gpus_needed as usize),
                with_commas(MAX_SIZED_GPUS),
                with_commas(cap),
                need.gpu
            ),
        });
    }
    // Usually the first count carries the load: the network's share of the budget is microseconds. Otherwise
    // grow to what the design's own analysis asks for, one server at least, a few times.
    let mut servers = first;
    for _ in 0..16 {
        let design = with_need(build(catalog, &need.gpu, servers, &name)?);
        let report = analyze(&design);
        let Some(s) = report.latency.serving.clone() else {
            break;
        };
        if s.headroom >= -1e-9 {
            let limit = if s.max_utilisation_for_target < need.utilisation {
                "p99"
            } else {
                "utilisation"
            };
            let shared = shared_queue_replicas(need, s.p99_ms - queue_p99_ms(&s, need));
            let mut why = vec![
                (
                    "replicas needed".into(),
                    s.replicas_needed.map_or("-".into(), |r| {
                        format!(
                            "{} = ceil({} req/s / ({} req/s x {:.4})) under random split (M/M/1 per replica)",
                            with_commas(r as usize),
                            need.requests_per_s,
                            need.replica_rps,
                            s.planned_utilisation
                        )
                    }),
                ),
                ("replicas in the design".into(), s.replicas.to_string()),
                (
                    "size set by".into(),
                    if limit == "p99" {
                        format!(
                            "the p99 target: rho max = 1 - ln(100) / ({} x ({} ms - network p99) / 1000) = {:.4}, \
                             below the {} asked",
                            need.replica_rps, need.p99_ms, s.max_utilisation_for_target, need.utilisation
                        )
                    } else {
                        format!(
                            "the utilisation asked ({}), below the {:.4} the p99 target allows",
                            need.utilisation, s.max_utilisation_for_target
                        )
                    },
                ),
                (
                    "planned utilisation".into(),
                    format!(
                        "{:.4} (asked {}, largest for the p99 target {:.4})",
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
            if let Some(c) = shared {
                why.push((
                    "shared queue".into(),
                    format!(
                        "a load balancer with one queue for all replicas (M/M/c, Erlang C) meets the p99 with {} \
                         replicas at {:.4} utilisation; the design keeps the random split (see docs/analysis.md, \
                         Serving)",
                        with_commas(c as usize),
                        need.requests_per_s / (need.replica_rps * c as f64)
                    ),
                ));
            }
            return Ok(sized(&need.gpu, servers, design, &report, limit, why));
        }
        let want = s
            .gpus_needed
            .map_or(servers + 1, |g| (g as usize).div_ceil(per_server))
            .max(servers + 1);
        if want > cap {
            break;
        }
        servers = want;
    }
    Err(TemplateError::BadValue {
        option: "requests-per-s".into(),
        value: shown(need.requests_per_s),
        why: format!(
            "needs more than the {} GPUs ({} servers) Racksmith builds",
            with_commas(MAX_SIZED_GPUS),
            with_commas(cap)
        ),
    })
}

/// The network's share of a serving p99: what is left of the design's p99 once the replica's own M/M/1 time
/// in system, ln(100) / (mu - lambda), is taken away.
fn queue_p99_ms(s: &crate::analysis::latency::ServingLatency, need: &ServingNeed) -> f64 {
    let lambda = s.per_replica_rps;
    let q = crate::analysis::queueing::sojourn_percentile(need.replica_rps, lambda, 0.99) * 1e3;
    if q.is_finite() { q } else { s.p99_ms }
}

/// Replicas a shared queue (M/M/c) needs for the need's rate within its p99, after `network_ms` of network.
fn shared_queue_replicas(need: &ServingNeed, network_ms: f64) -> Option<u64> {
    let budget_s = (need.p99_ms - network_ms.max(0.0)) / 1e3;
    crate::analysis::queueing::mmc_servers_for_p99(
        need.requests_per_s,
        need.replica_rps,
        budget_s,
        need.utilisation,
    )
}

/// The smallest design that finishes the training job within the days asked. One function on purpose, like
/// [`serving`]: the search over GPU counts and parallel degrees reads as the derivation it reports in `why`.
pub fn training(catalog: &Catalog, need: &TrainingNeed) -> Result<Sized, TemplateError> {
    let bad = |option: &str, value: f64, why: &str| TemplateError::BadValue {
        option: option.into(),
        value: shown(value),
        why: why.into(),
    };
    if !within(need.parameters, 1e15) {
        return Err(bad(
            "params",
            need.parameters,
            "a parameter count above 0 and at most 1e15",
        ));
    }
    if !within(need.tokens, 1e17) {
        return Err(bad(
            "tokens",
            need.tokens,
            "a token count above 0 and at most 1e17",
        ));
    }
    if !within(need.days, 3650.0) {
        return Err(bad(
            "days",
            need.days,
            "a number of days above 0 and at most 3,650 (ten years)",
        ));
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
    let per_server = gpus_per_server(catalog, &need.gpu);
    let cap = max_servers(per_server);
    let (tflops, memory_gb) = match catalog.get(super::gpu_part(&need.gpu)).map(|p| &p.kind) {
        Some(PartKind::Gpu(g)) => (g.bf16_tflops, g.memory_gb),
        _ => (0.0, 0.0),
    };
    // Compute alone: 6ND FLOPs at peak x MFU per GPU, within the days. No design smaller can finish.
    let gpu_seconds = 6.0 * need.parameters * need.tokens / (tflops * 1e12 * need.mfu);
    let compute_gpus = gpu_seconds / (need.days * 86_400.0);
    // Memory: weights, gradients and Adam state in mixed precision take 16 bytes per parameter, sharded over the
    // GPUs (ZeRO-3 / FSDP); activations are left out, so this is a floor.
    let memory_gpus = if memory_gb > 0.0 {
        16.0 * need.parameters / (memory_gb * 1e9)
    } else {
        0.0
    };
    let floor_gpus = compute_gpus.max(memory_gpus);
    if !(floor_gpus.is_finite() && tflops > 0.0) || floor_gpus > MAX_SIZED_GPUS as f64 {
        let (option, value) = if memory_gpus > compute_gpus {
            ("params", need.parameters)
        } else {
            ("days", need.days)
        };
        return Err(TemplateError::BadValue {
            option: option.into(),
            value: shown(value),
            why: format!(
                "{} {} GPUs would be needed (6 x {} parameters x {} tokens at {} TFLOPS x MFU {}, over {} days{}), \
                 more than the {} GPUs Racksmith builds; allow more days, fewer tokens, or a faster GPU",
                if floor_gpus.is_finite() {
                    with_commas(floor_gpus.ceil().min(1e15) as usize)
                } else {
                    "more than".into()
                },
                need.gpu,
                shown(need.parameters),
                shown(need.tokens),
                tflops,
                need.mfu,
                need.days,
                if memory_gpus > compute_gpus {
                    format!(
                        "; memory alone needs {:.0} GPUs at 16 bytes per parameter",
                        memory_gpus.ceil()
                    )
                } else {
                    String::new()
                },
                with_commas(MAX_SIZED_GPUS)
            ),
        });
    }
    let limit = if memory_gpus > compute_gpus {
        "memory"
    } else {
        "days"
    };
    let too_many = || TemplateError::BadValue {
        option: "days".into(),
        value: shown(need.days),
        why: format!(
            "more than the {} GPUs ({} servers of {}) Racksmith builds would be needed once the network's time is \
             counted; allow more days",
            with_commas(MAX_SIZED_GPUS),
            with_commas(cap),
            need.gpu
        ),
    };
    // From the floor up: the network's share is a few percent, so a step or two finds a count that finishes,
    // then bisection between the last count that does not and the first that does.
    let mut lo = ((floor_gpus / per_server as f64).ceil() as usize).max(1) - 1;
    let mut hi = lo + 1;
    let mut found = days(hi)?;
    while found.2 > need.days {
        // The network's time per step does not shrink with more servers (a ring all-reduce moves about twice
        // the gradients whatever the count): once it alone exceeds the days, no size finishes.
        if let Some(t) = &found.1.latency.training {
            let network_days = t.exposed_s_per_step * t.steps / 86_400.0;
            if network_days >= need.days {
                return Err(TemplateError::BadValue {
                    option: "days".into(),
                    value: shown(need.days),
                    why: format!(
                        "no size of {} finishes in time: the gradient all-reduce alone takes {network_days:.0} days \
                         ({:.0} steps x {:.2} s not hidden behind compute, {} parameters, data parallelism over \
                         every GPU), whatever the GPU count; allow more days or a model that shards the work",
                        need.gpu,
                        t.steps,
                        t.exposed_s_per_step,
                        shown(need.parameters)
                    ),
                });
            }
        }
        lo = hi;
        let ratio = if found.2.is_finite() {
            found.2 / need.days
        } else {
            2.0
        };
        hi = ((hi as f64 * ratio).ceil() as usize).max(hi + 1);
        if hi > cap {
            if lo >= cap {
                return Err(too_many());
            }
            hi = cap;
        }
        found = days(hi)?;
    }
    // The step from the ratio rarely overshoots by more than a server (the network's time barely shrinks with
    // more servers): one server fewer is checked first, then bisection if it also finishes.
    if hi - lo > 1 {
        let fewer = days(hi - 1)?;
        if fewer.2 <= need.days {
            hi -= 1;
            found = fewer;
        } else {
            lo = hi - 1;
        }
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
    let mut why = why;
    why.insert(
        0,
        (
            "size set by".into(),
            if limit == "memory" {
                format!(
                    "memory: 16 bytes x {} parameters over {memory_gb} GB per GPU needs {:.0} GPUs, more than the \
                     {:.0} the compute needs",
                    shown(need.parameters),
                    memory_gpus.ceil(),
                    compute_gpus.ceil()
                )
            } else {
                format!(
                    "the days: 6 x {} x {} FLOPs / ({tflops} TFLOPS x MFU {}) = {:.0} GPU-days, over {} days = {:.0} \
                     GPUs before the network's time",
                    shown(need.parameters),
                    shown(need.tokens),
                    need.mfu,
                    gpu_seconds / 86_400.0,
                    need.days,
                    compute_gpus.ceil()
                )
            },
        ),
    );
    Ok(sized(&need.gpu, hi, design, &report, limit, why))
}

/// A yearly budget and the service it should buy.
#[derive(Debug, Clone)]
pub struct BudgetNeed {
    /// Money per year, USD.
    pub usd_per_year: f64,
    /// GPU model by template name (one of [`super::GPU_MODELS`]); it picks the owned design's server too.
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
        Some(sized(&need.gpu, lo, design, &report, "budget", why)),
    ))
}
