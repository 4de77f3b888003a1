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
    /// Requests per second one replica sustains at full load on this GPU, measured (the user's benchmark):
    /// overrides the estimate from the model.
    pub replica_rps: Option<f64>,
    /// The model served, from which the replica's rate is estimated on the GPU when no measured rate is given.
    pub model: Option<ServedModel>,
    /// GPUs per replica.
    pub gpus_per_replica: u32,
}

/// A served model, for the replica rate estimate ([`replica_rate`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ServedModel {
    /// Parameters, e.g. 70e9.
    pub parameters: f64,
    /// Bytes per weight: 2 for BF16 or FP16, 1 for FP8 or INT8.
    pub bytes_per_parameter: f64,
    /// Tokens generated per request.
    pub tokens_per_request: f64,
    /// Sequences a replica decodes together (batch): each pass over the weights yields one token for each.
    pub batch: f64,
}

impl Default for ServedModel {
    fn default() -> Self {
        SERVING_DEFAULTS.model
    }
}

/// The defaults of a serving requirement where the user gives none: one set for every door that sizes serving
/// (File > Size from a requirement, `racksmith size serving` and `size budget`, and the planning questions), so
/// the same question gets the same answer wherever it is asked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ServingDefaults {
    /// Requests per second to serve.
    pub requests_per_s: f64,
    /// p99 latency target of a whole request (all its tokens), ms: the default model's 256 tokens at its estimated
    /// 26 ms per decode step on an L40S take 6.8 s, so a 20 s p99 leaves room for queueing.
    pub p99_ms: f64,
    /// Planned utilisation of each replica.
    pub utilisation: f64,
    /// GPU model by template name.
    pub gpu: &'static str,
    /// GPUs per replica.
    pub gpus_per_replica: u32,
    /// The served model the replica's rate is estimated from when no measured rate is given.
    pub model: ServedModel,
}

/// The one set of serving defaults ([`ServingDefaults`]): an 8B-parameter model in BF16 (Llama 3 8B's size),
/// 256 tokens per request, batch 8, on one L40S per replica at 70% utilisation, p99 20 s per request.
pub const SERVING_DEFAULTS: ServingDefaults = ServingDefaults {
    requests_per_s: 200.0,
    p99_ms: 20_000.0,
    utilisation: 0.7,
    gpu: "l40s",
    gpus_per_replica: 1,
    model: ServedModel {
        parameters: 8e9,
        bytes_per_parameter: 2.0,
        tokens_per_request: 256.0,
        batch: 8.0,
    },
};

/// The defaults of a training requirement where the user gives none, shared as [`SERVING_DEFAULTS`] is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrainingDefaults {
    /// Model parameters.
    pub parameters: f64,
    /// Training tokens.
    pub tokens: f64,
    /// Days the job may take.
    pub days: f64,
    /// Model FLOPs utilisation.
    pub mfu: f64,
    /// GPU model by template name.
    pub gpu: &'static str,
}

/// The one set of training defaults: a 13B model on 300B tokens (GPT-3 13B's budget, Brown et al. 2020, Table
/// 2.1) in 30 days on H100 at 40% MFU (the MFU Llama 3 reports, 38-43%, Dubey et al. 2024, Table 4).
pub const TRAINING_DEFAULTS: TrainingDefaults = TrainingDefaults {
    parameters: 13e9,
    tokens: 300e9,
    days: 30.0,
    mfu: 0.4,
    gpu: "h100-sxm",
};

/// The replica rate the defaults give on `gpu` ([`SERVING_DEFAULTS`]'s model, estimated with [`replica_rate`]),
/// where a door needs a figure before the user gives one; None when the GPU is unknown or the model does not fit.
pub fn default_replica_rps(catalog: &Catalog, gpu: &str) -> Option<f64> {
    resolve_replica_rps(
        catalog,
        gpu,
        SERVING_DEFAULTS.gpus_per_replica,
        None,
        Some(&SERVING_DEFAULTS.model),
    )
    .ok()
    .map(|(rps, _)| rps)
}

/// Share of the GPU's peak memory bandwidth decoding reaches (planning value, as for links: 70-80% of peak;
/// docs/analysis.md, "Serving: the replica's rate").
pub const DECODE_MEMORY_EFFICIENCY: f64 = 0.7;
/// Share of the GPU's peak dense BF16 throughput decoding reaches when the batch makes it compute-bound (planning
/// value, the training MFU default).
pub const DECODE_COMPUTE_EFFICIENCY: f64 = 0.4;

/// The rate of one replica, estimated from the GPU and the model.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplicaRate {
    /// Tokens per second the replica generates.
    pub tokens_per_s: f64,
    /// Requests per second: tokens per second / tokens per request.
    pub requests_per_s: f64,
    /// The derivation, with its figures.
    pub text: String,
}

/// The decode rate of one replica of `gpus` GPUs (docs/analysis.md, "Serving: the replica's rate"): each decode
/// step reads every weight once from GPU memory, so tokens/s = batch x GPUs x memory bandwidth x
/// [`DECODE_MEMORY_EFFICIENCY`] / (parameters x bytes per parameter) (Pope et al., "Efficiently Scaling Transformer
/// Inference", MLSys 2023: small-batch decoding is memory-bandwidth bound), at most the compute roofline, GPUs x
/// peak x [`DECODE_COMPUTE_EFFICIENCY`] / (2 x parameters) FLOPs per token; requests/s = tokens/s / tokens per
/// request. Prompt processing (prefill) is left out.
pub fn replica_rate(gpu: &crate::model::part::GpuSpec, gpus: u32, m: &ServedModel) -> ReplicaRate {
    let g = f64::from(gpus.max(1));
    let weight_bytes = m.parameters * m.bytes_per_parameter;
    let memory =
        m.batch * g * gpu.memory_bw_gbyte_s * 1e9 * DECODE_MEMORY_EFFICIENCY / weight_bytes;
    let compute = g * gpu.bf16_tflops * 1e12 * DECODE_COMPUTE_EFFICIENCY / (2.0 * m.parameters);
    let tokens = memory.min(compute);
    let requests = tokens / m.tokens_per_request;
    let text = if memory <= compute {
        format!(
            "{requests:.3} = {} x {gpus} GPU(s) x {} GB/s x {DECODE_MEMORY_EFFICIENCY} / ({} x {} bytes) = {tokens:.1} \
             tokens/s, / {} tokens per request (decode reads every weight once per step)",
            m.batch,
            gpu.memory_bw_gbyte_s,
            shown(m.parameters),
            m.bytes_per_parameter,
            m.tokens_per_request
        )
    } else {
        format!(
            "{requests:.3} = {gpus} GPU(s) x {} TFLOPS x {DECODE_COMPUTE_EFFICIENCY} / (2 x {}) = {tokens:.1} tokens/s \
             (compute-bound at batch {}), / {} tokens per request",
            gpu.bf16_tflops,
            shown(m.parameters),
            m.batch,
            m.tokens_per_request
        )
    };
    ReplicaRate {
        tokens_per_s: tokens,
        requests_per_s: requests,
        text,
    }
}

/// The rate a replica sustains: the measured figure when given, else the estimate from the GPU and the model
/// ([`replica_rate`]), with where it came from. Refuses a model whose weights do not fit the replica's GPUs.
pub fn resolve_replica_rps(
    catalog: &Catalog,
    gpu: &str,
    gpus_per_replica: u32,
    measured: Option<f64>,
    model: Option<&ServedModel>,
) -> Result<(f64, String), TemplateError> {
    if let Some(rps) = measured {
        if !within(rps, 1e6) {
            return Err(TemplateError::BadValue {
                option: "replica-rps".into(),
                value: shown(rps),
                why: "a rate above 0 and at most 1e6 requests per second".into(),
            });
        }
        return Ok((rps, format!("{rps} (measured, as given)")));
    }
    let Some(m) = model else {
        return Err(TemplateError::BadValue {
            option: "replica-rps".into(),
            value: "none".into(),
            why: "give the requests per second one replica sustains (measured), or the model's parameters for an \
                  estimate from the GPU's memory bandwidth"
                .into(),
        });
    };
    let bad = |option: &str, value: f64, why: &str| TemplateError::BadValue {
        option: option.into(),
        value: shown(value),
        why: why.into(),
    };
    if !within(m.parameters, 1e14) {
        return Err(bad(
            "model-params",
            m.parameters,
            "a parameter count above 0 and at most 1e14",
        ));
    }
    if !within(m.bytes_per_parameter, 8.0) {
        return Err(bad(
            "bytes-per-param",
            m.bytes_per_parameter,
            "above 0 and at most 8 (2 for BF16, 1 for FP8)",
        ));
    }
    if !within(m.tokens_per_request, 1e7) {
        return Err(bad(
            "tokens-per-request",
            m.tokens_per_request,
            "above 0 and at most 1e7",
        ));
    }
    if !(m.batch >= 1.0 && m.batch <= 4096.0) {
        return Err(bad("batch", m.batch, "from 1 to 4,096 sequences"));
    }
    let Some(PartKind::Gpu(spec)) = catalog.get(super::gpu_part(gpu)).map(|p| &p.kind) else {
        return Err(TemplateError::BadValue {
            option: "gpu".into(),
            value: gpu.into(),
            why: super::gpu_models_allowed(),
        });
    };
    let weights_gb = m.parameters * m.bytes_per_parameter / 1e9;
    let room_gb = f64::from(gpus_per_replica.max(1)) * spec.memory_gb;
    if weights_gb > room_gb * crate::analysis::parallel::STATE_MEMORY_SHARE {
        let fit =
            (weights_gb / (spec.memory_gb * crate::analysis::parallel::STATE_MEMORY_SHARE)).ceil();
        return Err(TemplateError::BadValue {
            option: "gpus-per-replica".into(),
            value: gpus_per_replica.to_string(),
            why: format!(
                "{weights_gb:.0} GB of weights do not fit in {gpus_per_replica} x {} GB of {gpu} (80% left for \
                 weights, the rest for the KV cache): at least {fit:.0} GPUs per replica",
                spec.memory_gb
            ),
        });
    }
    let r = replica_rate(spec, gpus_per_replica, m);
    Ok((
        r.requests_per_s,
        format!("{} (estimated: {})", r.requests_per_s, r.text),
    ))
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
    /// Tensor-parallel degree the job runs with (0: the analysis chooses it).
    pub tensor_parallel: u32,
    /// Pipeline-parallel degree the job runs with (0: the analysis chooses it).
    pub pipeline_parallel: u32,
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

/// Chance of finding no spare ready that sizing holds spares for: 1%.
const NO_SPARE_TARGET: f64 = 0.01;

/// The fewest hot spare servers with which a failed server finds one ready all but [`NO_SPARE_TARGET`] of the time
/// (`analysis::reliability::no_spare_chance`'s Poisson), at `replacements_per_s` and a repair of `repair_s`: the
/// terms summed once, so the cost is in proportion to the answer.
fn spares_needed(replacements_per_s: f64, repair_s: f64) -> u64 {
    let m = (replacements_per_s * repair_s).max(0.0);
    if m == 0.0 || !m.is_finite() {
        return 0;
    }
    // After s terms, `ready` is P(N < s): the chance that s spares leave one ready.
    let (mut log_term, mut ready, mut s) = (-m, 0.0, 0u64);
    while 1.0 - ready > NO_SPARE_TARGET && s < 1_000_000 {
        if s > 0 {
            log_term += m.ln() - (s as f64).ln();
        }
        ready += log_term.exp();
        s += 1;
    }
    s
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
    let (replica_rps, replica_how) = resolve_replica_rps(
        catalog,
        &need.gpu,
        need.gpus_per_replica,
        need.replica_rps,
        need.model.as_ref(),
    )?;
    let per_server = gpus_per_server(catalog, &need.gpu);
    let name = format!(
        "Serving {} req/s at p99 {} ms on {}",
        need.requests_per_s, need.p99_ms, need.gpu
    );
    let with_need = |mut d: Design| {
        d.params.utilisation_target = need.utilisation;
        d.params.traffic.storage_read_gbyte_s_per_gpu = 0.0;
        d.params.serving = Some(Serving {
            request_rate_rps: need.requests_per_s,
            replica_throughput_rps: replica_rps,
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
                crate::analysis::format::round(replica_rps, 4)
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
        let mut design = with_need(build(catalog, &need.gpu, servers, &name)?);
        // Serving reads no training data: one appliance holds the model's weights for the replicas to load, on
        // the storage NICs when the servers have them (docs/analysis.md, "Sizing and templates at scale").
        super::storage::add_storage(&mut design, catalog, 1)?;
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
            let shared =
                shared_queue_replicas(need, replica_rps, s.p99_ms - queue_p99_ms(&s, replica_rps));
            let mut why = vec![
                ("replica req/s".into(), replica_how.clone()),
                (
                    "replicas needed".into(),
                    s.replicas_needed.map_or("-".into(), |r| {
                        format!(
                            "{} = ceil({} req/s / ({} req/s x {:.4})) under random split (M/M/1 per replica)",
                            with_commas(r as usize),
                            need.requests_per_s,
                            replica_rps,
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
                            replica_rps, need.p99_ms, s.max_utilisation_for_target, need.utilisation
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
                        need.requests_per_s / (replica_rps * c as f64)
                    ),
                ));
            }
            let requirement = format!(
                "{} req/s at p99 {} ms, utilisation {}, on {} ({} GPU(s) per replica)",
                need.requests_per_s, need.p99_ms, need.utilisation, need.gpu, need.gpus_per_replica
            );
            return Ok(sized(
                &need.gpu,
                servers,
                design,
                &report,
                limit,
                why,
                ("serving", requirement, None),
            ));
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
fn queue_p99_ms(s: &crate::analysis::latency::ServingLatency, replica_rps: f64) -> f64 {
    let lambda = s.per_replica_rps;
    let q = crate::analysis::queueing::sojourn_percentile(replica_rps, lambda, 0.99) * 1e3;
    if q.is_finite() { q } else { s.p99_ms }
}

/// Replicas a shared queue (M/M/c) needs for the need's rate within its p99, after `network_ms` of network.
fn shared_queue_replicas(need: &ServingNeed, replica_rps: f64, network_ms: f64) -> Option<u64> {
    let budget_s = (need.p99_ms - network_ms.max(0.0)) / 1e3;
    crate::analysis::queueing::mmc_servers_for_p99(
        need.requests_per_s,
        replica_rps,
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
            tensor_parallel: need.tensor_parallel,
            pipeline_parallel: need.pipeline_parallel,
            ..Training::default()
        });
        d
    };
    let per_server = gpus_per_server(catalog, &need.gpu);
    let cap = max_servers(per_server);
    let storage_need = |gpus: usize| {
        super::storage::StorageNeed::training(
            need.parameters,
            need.tokens,
            gpus,
            crate::model::Params::default()
                .traffic
                .storage_read_gbyte_s_per_gpu,
        )
    };
    // The design at a size with its spares, analysed, and its days with failures counted (the failure-free days
    // when the analysis gives no goodput).
    let full = |servers: usize, spares: u64| -> Result<(Design, Report, f64), TemplateError> {
        let mut d = with_job(build(catalog, &need.gpu, servers, &name)?);
        let (appliances, _) =
            super::storage::appliances_for(catalog, &storage_need(servers * per_server));
        super::storage::add_storage(&mut d, catalog, appliances)?;
        if spares > 0 {
            // A share that gives exactly `spares` of the servers (Spares::for_quantity rounds up).
            d.params.spares.insert(
                "Servers".into(),
                crate::model::Spares::Percent(
                    (spares as f64 * 100.0 / servers.max(1) as f64).min(100.0),
                ),
            );
        }
        let r = analyze(&d);
        let days = r
            .reliability
            .as_ref()
            .and_then(|x| x.days_expected)
            .or_else(|| r.latency.training.as_ref().map(|t| t.days))
            .unwrap_or(f64::INFINITY);
        Ok((d, r, days))
    };
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
    // The search runs on the analysis's own training formula (`analysis::latency::training_time`) with the
    // communication shape the NCCL model reads from a two-server design of the same parts: per server, the rails,
    // NVLink and NICs are the same at every count of these fabrics (non-blocking above the leaves), and only the
    // ranks and nodes change. Each candidate then costs microseconds instead of a build and an analysis of the
    // whole design (which made sizing grow faster than the design: 38 s for 68,912 GPUs); the answer is built and
    // analysed once, and grown only if its own analysis does not finish in time.
    let (probe_design, probe, _) = full(2.min(cap), 0)?;
    let shape = probe.latency.nccl.as_ref().map(|n| n.shape.clone());
    let job = with_job(Design::default())
        .params
        .training
        .unwrap_or_default();
    let estimate = |servers: usize| -> Option<crate::analysis::latency::TrainingTime> {
        let gpus = servers * per_server;
        let shape = shape.clone().map(|mut s| {
            s.ranks = gpus;
            s.nodes = servers;
            s
        });
        crate::analysis::latency::training_time(
            &job,
            gpus,
            tflops * gpus as f64,
            memory_gb,
            shape.as_ref().filter(|_| gpus > 1),
            0.0,
        )
    };
    let ff_days = |servers: usize| estimate(servers).map_or(f64::INFINITY, |t| t.days);
    // Failures in closed form (`analysis::reliability::Interruptions`), per server as the probe draws its parts:
    // GPUs, NICs, host, power supply and software scale with the servers exactly; the probe's cables and switches
    // per server leave out the tiers a larger fabric adds (a few percent of the interruptions), which the check on
    // the answer's own analysis makes up.
    let rates = crate::model::Params::default().failure_rates;
    let probe_exposure = crate::analysis::reliability::Exposure::of(&probe_design);
    let per_server_failures =
        crate::analysis::reliability::Interruptions::of(&probe_exposure, &rates)
            .times(1.0 / probe_exposure.servers.max(1) as f64);
    // The checkpoint is written at the probe's bandwidth per appliance (the lower of the appliance's rating and the
    // network to it) times the appliances sized for the GPUs.
    let write_per_appliance = probe
        .reliability
        .as_ref()
        .map(|r| r.checkpoint_write_gbyte_s)
        .unwrap_or(0.0)
        / probe.bandwidth.storage.appliances.max(1) as f64;
    let checkpoint_bytes = need.parameters * job.checkpoint_bytes_per_parameter;
    let write_s = |servers: usize| {
        let (appliances, _) =
            super::storage::appliances_for(catalog, &storage_need(servers * per_server));
        let gbyte_s = write_per_appliance * appliances as f64;
        if gbyte_s > 0.0 {
            checkpoint_bytes / (gbyte_s * 1e9)
        } else {
            f64::INFINITY
        }
    };
    let spares_for = |servers: usize| {
        let failures = per_server_failures.times(servers as f64);
        spares_needed(failures.replacements_per_s, job.repair_s)
    };
    let failures = |servers: usize| {
        per_server_failures.times(servers as f64).goodput(
            write_s(servers),
            job.restart_s,
            job.repair_s,
            spares_for(servers),
        )
    };
    let est_days = |servers: usize| {
        let g = failures(servers).2;
        if g > 0.0 {
            ff_days(servers) / g
        } else {
            f64::INFINITY
        }
    };
    let lo_servers = ((floor_gpus / per_server as f64).ceil() as usize).clamp(1, cap);
    // The fastest count: the failure-free days fall with more servers and the goodput with them, so the days with
    // failures fall, then rise once restarts take more than the servers add. A ternary search over the counts from
    // the floor to the cap finds it (about 2 log1.5(cap) estimates), then a walk over the last few.
    let (mut a, mut b) = (lo_servers, cap);
    while b - a > 2 {
        let m1 = a + (b - a) / 3;
        let m2 = b - (b - a) / 3;
        if est_days(m1) <= est_days(m2) {
            b = m2;
        } else {
            a = m1;
        }
    }
    let fastest = (a..=b)
        .min_by(|x, y| est_days(*x).total_cmp(&est_days(*y)))
        .unwrap_or(cap);
    if est_days(fastest) > need.days {
        // The network's time per step does not shrink with more servers (a ring all-reduce moves about twice the
        // gradients whatever the count): once it alone exceeds the days, no size finishes.
        if let Some(t) = estimate(cap) {
            let network_days = (t.step_s - t.compute_s_per_step).max(0.0) * t.steps / 86_400.0;
            if network_days >= need.days {
                return Err(TemplateError::BadValue {
                    option: "days".into(),
                    value: shown(need.days),
                    why: format!(
                        "no size of {} finishes in time: the communication and pipeline bubble alone take \
                         {network_days:.0} days ({:.0} steps x {:.2} s not hidden behind compute, {} parameters), \
                         whatever the GPU count; allow more days or a model that shards the work",
                        need.gpu,
                        t.steps,
                        t.step_s - t.compute_s_per_step,
                        shown(need.parameters)
                    ),
                });
            }
        }
        if ff_days(cap) <= need.days {
            let (restart, _, g) = failures(fastest);
            return Err(TemplateError::BadValue {
                option: "days".into(),
                value: shown(need.days),
                why: format!(
                    "no size of {} finishes in time with failures counted: the fastest is {} servers, {:.1} days at \
                     {:.1}% goodput ({:.1} interruptions a day, a {:.0} s restart on average); past it, restarts \
                     cost more than servers add. Allow more days, or shorten the restart",
                    need.gpu,
                    with_commas(fastest),
                    est_days(fastest),
                    g * 100.0,
                    per_server_failures.times(fastest as f64).per_s * 86_400.0,
                    restart
                ),
            });
        }
        return Err(too_many());
    }
    // The smallest count the estimate finishes with, below the fastest.
    let mut hi = smallest_within(lo_servers, fastest, &est_days, need.days);
    // Verified on the design itself; a few servers more if its own analysis says it does not finish.
    let mut found = full(hi, spares_for(hi))?;
    for _ in 0..8 {
        if found.2 <= need.days {
            break;
        }
        if hi >= cap {
            return Err(too_many());
        }
        let ratio = if found.2.is_finite() {
            found.2 / need.days
        } else {
            1.01
        };
        hi = ((hi as f64 * ratio).ceil() as usize).clamp(hi + 1, cap);
        found = full(hi, spares_for(hi))?;
    }
    if found.2 > need.days {
        return Err(too_many());
    }
    // What sizing without failures would have picked, for the derivation's comparison.
    let failure_free_servers = smallest_within(lo_servers, cap, &ff_days, need.days);
    let (design, report, _) = found;
    let mut why = vec![(
        "size set by".to_string(),
        if limit == "memory" {
            format!(
                "memory: 16 bytes x {} parameters over {memory_gb} GB per GPU needs {:.0} GPUs, more than the {:.0} \
                 the compute needs",
                shown(need.parameters),
                memory_gpus.ceil(),
                compute_gpus.ceil()
            )
        } else {
            format!(
                "the days: 6 x {} x {} FLOPs / ({tflops} TFLOPS x MFU {}) = {} GPU-days, over {} days = {:.0} GPUs \
                 before the network's time",
                shown(need.parameters),
                shown(need.tokens),
                need.mfu,
                with_commas((gpu_seconds / 86_400.0).round() as usize),
                need.days,
                compute_gpus.ceil()
            )
        },
    )];
    if report.bandwidth.storage.appliances > 0 {
        why.push((
            "storage".into(),
            super::storage::appliances_for(catalog, &storage_need(report.summary.gpus)).1,
        ));
    }
    if let Some(t) = report.latency.training.as_ref() {
        why.extend(crate::analysis::job::days_lines(
            t,
            report.summary.gpus,
            Some(need.days),
        ));
        // What failures add: the size is set for the days with failures counted, and says so.
        if let Some(r) = &report.reliability
            && let (Some(g), Some(days)) = (r.goodput, r.days_expected)
        {
            why.push((
                "with failures".into(),
                format!(
                    "{days:.2} days at {:.1}% goodput ({:.2} interruptions a day, a {:.0} s checkpoint write, a {:.0} s \
                     restart on average): the size is set for these, within the {} days asked; failure-free, {} \
                     servers would have done ({:.2} days here)",
                    g * 100.0,
                    r.interruptions_per_day,
                    r.checkpoint_write_s.unwrap_or(0.0),
                    r.restart_expected_s,
                    need.days,
                    with_commas(failure_free_servers),
                    t.days
                ),
            ));
            why.push((
                "spares".into(),
                format!(
                    "{} hot spare servers held, so that a failed server finds one ready {:.1}% of the time ({:.2} \
                     replacements a day, {:.0} h each without a spare)",
                    r.spare_servers,
                    (1.0 - r.no_spare_chance) * 100.0,
                    r.replacements_per_day,
                    r.repair_s / 3600.0
                ),
            ));
            why.push((
                "search".into(),
                format!(
                    "goodput estimated in closed form for each count from 1 to {} servers (interruptions per server \
                     from a two-server probe of the same parts, the checkpoint write from the storage sized for the \
                     GPUs, Daly's interval); the answer checked on its own analysis",
                    with_commas(cap)
                ),
            ));
        }
        // The parallel layout the job runs with, and why (docs/analysis.md, "Training jobs").
        if let Some(p) = &t.parallelism {
            why.push((
                "parallelism".into(),
                format!(
                    "TP {} x PP {} x DP {} ({})",
                    p.tensor, p.pipeline, p.data, p.why
                ),
            ));
        }
    }
    why.extend([
        (
            "GPU-hours".into(),
            report.latency.training.as_ref().map_or("-".into(), |t| {
                crate::analysis::format::thousands(t.gpu_hours, 0)
            }),
        ),
        (
            "job cost owned".into(),
            report.cost.training_job_usd.map_or("-".into(), |c| {
                format!("${}", crate::analysis::format::thousands(c, 0))
            }),
        ),
        (
            "job cost in the cloud".into(),
            report.cost.training_job_cloud_usd.map_or("-".into(), |c| {
                format!("${}", crate::analysis::format::thousands(c, 0))
            }),
        ),
    ]);
    let requirement = format!(
        "{} parameters on {} tokens in {} days on {} (MFU {})",
        shown(need.parameters),
        shown(need.tokens),
        need.days,
        need.gpu,
        need.mfu
    );
    Ok(sized(
        &need.gpu,
        hi,
        design,
        &report,
        limit,
        why,
        ("training", requirement, Some(need.days)),
    ))
}

/// The smallest server count from `start` to `ceiling` whose `days` meet `deadline`, for `days` that fall as servers
/// are added over that range: doubling from `start`, then bisection; `ceiling` when none does.
fn smallest_within(
    start: usize,
    ceiling: usize,
    days: &dyn Fn(usize) -> f64,
    deadline: f64,
) -> usize {
    let (mut lo, mut hi) = (start.saturating_sub(1), start);
    while days(hi) > deadline && hi < ceiling {
        lo = hi;
        hi = (hi * 2).min(ceiling);
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if days(mid) <= deadline {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // the built-in catalog is part of the build
    use super::*;

    /// The replica's rate from the GPU and the model, by hand (docs/analysis.md, "Serving: the replica's rate"):
    /// 70e9 parameters in BF16 (140e9 bytes) on 4 H100 SXM (3,350 GB/s) at batch 1: 4 x 3,350e9 x 0.7 / 140e9 =
    /// 67.0 tokens/s, under the compute roofline 4 x 989e12 x 0.4 / (2 x 70e9) = 11,302.9; at 250 tokens a request,
    /// 0.268 req/s. Batch 8 reads the weights once for 8 tokens: 536 tokens/s, 2.144 req/s.
    #[test]
    fn replica_rate_is_memory_bandwidth_over_the_weights() {
        let c = Catalog::builtin().unwrap();
        let Some(PartKind::Gpu(h100)) = c.get("h100-sxm").map(|p| &p.kind) else {
            panic!("no H100 in the catalog");
        };
        let mut m = ServedModel {
            parameters: 70e9,
            bytes_per_parameter: 2.0,
            tokens_per_request: 250.0,
            batch: 1.0,
        };
        let r = replica_rate(h100, 4, &m);
        assert!((r.tokens_per_s - 67.0).abs() < 1e-9, "{}", r.tokens_per_s);
        assert!((r.requests_per_s - 0.268).abs() < 1e-12);
        m.batch = 8.0;
        let r = replica_rate(h100, 4, &m);
        assert!((r.requests_per_s - 2.144).abs() < 1e-9);
        // Compute-bound at a large batch: 4 x 989e12 x 0.4 / 140e9 = 11,302.857 tokens/s.
        m.batch = 1000.0;
        let r = replica_rate(h100, 4, &m);
        assert!(
            (r.tokens_per_s - 11_302.857).abs() < 1e-2,
            "{}",
            r.tokens_per_s
        );
    }

    /// The GPU changes the replica's rate: the same 8e9 model (16 GB) at batch 8 serves 3,350 / 864 = 3.88 times
    /// the requests on an H100 as on an L40S; a measured figure overrides; 140 GB of weights do not fit 3 L40S
    /// (3 x 48 x 0.8 = 115.2 GB) but fit 4 (153.6 GB).
    #[test]
    fn the_gpu_sets_the_rate_and_a_measurement_overrides_it() {
        let c = Catalog::builtin().unwrap();
        let m = ServedModel::default();
        let (h100, _) = resolve_replica_rps(&c, "h100-sxm", 1, None, Some(&m)).unwrap();
        let (l40s, how) = resolve_replica_rps(&c, "l40s", 1, None, Some(&m)).unwrap();
        // L40S: 8 x 864e9 x 0.7 / 16e9 = 302.4 tokens/s, / 256 = 1.18125 req/s.
        assert!((l40s - 1.18125).abs() < 1e-9, "{l40s}");
        assert!((h100 / l40s - 3350.0 / 864.0).abs() < 1e-9);
        assert!(
            how.contains("estimated") && how.contains("864 GB/s"),
            "{how}"
        );
        let (measured, how) = resolve_replica_rps(&c, "l40s", 1, Some(20.0), Some(&m)).unwrap();
        assert_eq!(measured, 20.0);
        assert!(how.contains("measured"));
        let big = ServedModel {
            parameters: 70e9,
            ..ServedModel::default()
        };
        let err = resolve_replica_rps(&c, "l40s", 3, None, Some(&big))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("--gpus-per-replica 3") && err.contains("at least 4"),
            "{err}"
        );
        assert!(resolve_replica_rps(&c, "l40s", 4, None, Some(&big)).is_ok());
        assert!(resolve_replica_rps(&c, "l40s", 1, None, None).is_err());
    }
}
