//! Sizing for serving: the replica's rate (measured, or estimated from the GPU and the served model) and the
//! smallest design that serves a request rate under a p99 target.

use super::{Sized, build, gpus_per_server, max_servers, shown, sized, with_commas, within};
use crate::analysis::latency::ServingLatency;
use crate::analysis::{Report, analyze};
use crate::catalog::{Catalog, PartKind};
use crate::model::{Design, Serving};
use crate::templates::{MAX_SIZED_GPUS, TemplateError};

/// What a serving design must carry.
#[derive(Debug, Clone)]
pub struct ServingNeed {
    /// Requests per second.
    pub requests_per_s: f64,
    /// p99 latency target, ms.
    pub p99_ms: f64,
    /// Planned utilisation of each replica, in (0, 1).
    pub utilisation: f64,
    /// GPU model by template name (one of [`crate::templates::GPU_MODELS`], e.g. "l40s"); it picks the server too.
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
    let Some(PartKind::Gpu(spec)) = catalog
        .get(crate::templates::gpu_part(gpu))
        .map(|p| &p.kind)
    else {
        return Err(TemplateError::BadValue {
            option: "gpu".into(),
            value: gpu.into(),
            why: crate::templates::gpu_models_allowed(),
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

/// The smallest design that serves the request rate under the p99 target at the planned utilisation: replicas
/// from the queue, servers from replicas, fabric from servers, and the derivation of each in `why`
/// (`serving_why`).
pub fn serving(catalog: &Catalog, need: &ServingNeed) -> Result<Sized, TemplateError> {
    check_serving(need)?;
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
        crate::templates::storage::add_storage(&mut design, catalog, 1)?;
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
            let why = serving_why(need, (replica_rps, &replica_how), &s, &report, limit);
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

/// Refuses a serving need out of range, naming the option.
fn check_serving(need: &ServingNeed) -> Result<(), TemplateError> {
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
    Ok(())
}

/// The derivation of a serving size, line by line: the replica's rate, the replicas, what set the size, the
/// planned utilisation, the p99, the capacity and the cost, and what a shared queue would need.
fn serving_why(
    need: &ServingNeed,
    (replica_rps, replica_how): (f64, &str),
    s: &ServingLatency,
    report: &Report,
    limit: &str,
) -> Vec<(String, String)> {
    let shared = shared_queue_replicas(need, replica_rps, s.p99_ms - queue_p99_ms(s, replica_rps));
    let mut why = vec![
        ("replica req/s".into(), replica_how.to_string()),
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
    why
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
