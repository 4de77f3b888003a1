//! Sizing for training: the smallest design that finishes a training job within the days asked, with failures
//! counted.

use super::{Sized, build, gpus_per_server, max_servers, shown, sized, with_commas, within};
use crate::analysis::reliability::Interruptions;
use crate::analysis::{Report, analyze};
use crate::catalog::{Catalog, PartKind};
use crate::model::{Design, Training};
use crate::templates::{MAX_SIZED_GPUS, TemplateError};

/// The defaults of a training requirement where the user gives none, shared as [`super::SERVING_DEFAULTS`] is.
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

/// What a training design must do.
#[derive(Debug, Clone)]
pub struct TrainingNeed {
    /// Parameter count of the model to train, e.g. 13e9.
    pub parameters: f64,
    /// Training tokens the job must get through, e.g. 300e9.
    pub tokens: f64,
    /// Days the job may take.
    pub days: f64,
    /// GPU model by template name (one of [`crate::templates::GPU_MODELS`], e.g. "h100-sxm"); it picks the server too.
    pub gpu: String,
    /// Model FLOPs utilisation.
    pub mfu: f64,
    /// Tensor-parallel degree the job runs with (0: the analysis chooses it).
    pub tensor_parallel: u32,
    /// Pipeline-parallel degree the job runs with (0: the analysis chooses it).
    pub pipeline_parallel: u32,
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

/// The smallest design that finishes the training job within the days asked: the floor from compute and memory,
/// a search over server counts on the analysis's own formulas with failures counted, the answer checked on its own
/// analysis, and the derivation in `why` (`training_why`).
pub fn training(catalog: &Catalog, need: &TrainingNeed) -> Result<Sized, TemplateError> {
    check_training(need)?;
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
    let storage_need = |gpus: usize| training_storage(need, gpus);
    // The design at a size with its spares, analysed, and its days with failures counted (the failure-free days
    // when the analysis gives no goodput).
    let full = |servers: usize, spares: u64| -> Result<(Design, Report, f64), TemplateError> {
        let mut d = with_job(build(catalog, &need.gpu, servers, &name)?);
        let (appliances, _) =
            crate::templates::storage::appliances_for(catalog, &storage_need(servers * per_server));
        crate::templates::storage::add_storage(&mut d, catalog, appliances)?;
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
    let floor = training_floor(catalog, need)?;
    let TrainingFloor {
        tflops,
        memory_gb,
        compute_gpus,
        memory_gpus,
        floor_gpus,
        ..
    } = floor;
    let limit = if memory_gpus > compute_gpus {
        "memory"
    } else {
        "days"
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
    let model = FailureModel::of(catalog, need, per_server, (&probe_design, &probe), &job);
    let spares_for = |servers: usize| model.spares_for(servers);
    let failures = |servers: usize| model.failures(servers);
    let est_days = |servers: usize| {
        let g = failures(servers).2;
        if g > 0.0 {
            ff_days(servers) / g
        } else {
            f64::INFINITY
        }
    };
    let lo_servers = ((floor_gpus / per_server as f64).ceil() as usize).clamp(1, cap);
    let fastest = fastest_count(lo_servers, cap, &est_days);
    if est_days(fastest) > need.days {
        let (restart_s, _, goodput) = failures(fastest);
        let at_fastest = Fastest {
            servers: fastest,
            days: est_days(fastest),
            restart_s,
            goodput,
            interruptions_per_s: model.per_server_failures.times(fastest as f64).per_s,
        };
        return Err(no_size_finishes(
            need,
            cap,
            estimate(cap).as_ref(),
            ff_days(cap),
            &at_fastest,
        ));
    }
    // The smallest count the estimate finishes with, below the fastest.
    let hi = smallest_within(lo_servers, fastest, &est_days, need.days);
    let (hi, found) = verified(need, cap, hi, &full, &spares_for)?;
    // What sizing without failures would have picked, for the derivation's comparison.
    let failure_free_servers = smallest_within(lo_servers, cap, &ff_days, need.days);
    let (design, report, _) = found;
    let why = training_why(catalog, need, &floor, &report, cap, failure_free_servers);
    Ok(sized(
        &need.gpu,
        hi,
        design,
        &report,
        limit,
        why,
        ("training", requirement(need), Some(need.days)),
    ))
}

/// A sized design with its analysis and its days with failures counted.
type Candidate = (Design, Report, f64);

/// The design at `hi` servers verified on its own analysis, a few servers more if that says it does not finish:
/// returns the count and the design.
fn verified(
    need: &TrainingNeed,
    cap: usize,
    mut hi: usize,
    full: &dyn Fn(usize, u64) -> Result<Candidate, TemplateError>,
    spares_for: &dyn Fn(usize) -> u64,
) -> Result<(usize, Candidate), TemplateError> {
    let mut found = full(hi, spares_for(hi))?;
    for _ in 0..8 {
        if found.2 <= need.days {
            break;
        }
        if hi >= cap {
            return Err(too_many(need, cap));
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
        return Err(too_many(need, cap));
    }
    Ok((hi, found))
}

/// Failures in closed form (`analysis::reliability::Interruptions`), per server as a probe design draws its parts:
/// GPUs, NICs, host, power supply and software scale with the servers exactly; the probe's cables and switches per
/// server leave out the tiers a larger fabric adds (a few percent of the interruptions), which the check on the
/// answer's own analysis makes up.
struct FailureModel<'a> {
    catalog: &'a Catalog,
    need: &'a TrainingNeed,
    per_server: usize,
    /// Interruptions of one server.
    per_server_failures: Interruptions,
    /// The probe's checkpoint write bandwidth per storage appliance, GB/s.
    write_per_appliance: f64,
    /// The checkpoint's size, bytes.
    checkpoint_bytes: f64,
    restart_s: f64,
    repair_s: f64,
}

impl<'a> FailureModel<'a> {
    /// The model of `need` from a probe design and its report, for servers of `per_server` GPUs.
    fn of(
        catalog: &'a Catalog,
        need: &'a TrainingNeed,
        per_server: usize,
        (probe_design, probe): (&Design, &Report),
        job: &Training,
    ) -> Self {
        let rates = crate::model::Params::default().failure_rates;
        let probe_exposure = crate::analysis::reliability::Exposure::of(probe_design);
        let per_server_failures = Interruptions::of(&probe_exposure, &rates)
            .times(1.0 / probe_exposure.servers.max(1) as f64);
        // The checkpoint is written at the probe's bandwidth per appliance (the lower of the appliance's rating and
        // the network to it) times the appliances sized for the GPUs.
        let write_per_appliance = probe
            .reliability
            .as_ref()
            .map(|r| r.checkpoint_write_gbyte_s)
            .unwrap_or(0.0)
            / probe.bandwidth.storage.appliances.max(1) as f64;
        Self {
            catalog,
            need,
            per_server,
            per_server_failures,
            write_per_appliance,
            checkpoint_bytes: need.parameters * job.checkpoint_bytes_per_parameter,
            restart_s: job.restart_s,
            repair_s: job.repair_s,
        }
    }

    /// Seconds to write a checkpoint at `servers` servers, with the storage sized for them.
    fn write_s(&self, servers: usize) -> f64 {
        let (appliances, _) = crate::templates::storage::appliances_for(
            self.catalog,
            &training_storage(self.need, servers * self.per_server),
        );
        let gbyte_s = self.write_per_appliance * appliances as f64;
        if gbyte_s > 0.0 {
            self.checkpoint_bytes / (gbyte_s * 1e9)
        } else {
            f64::INFINITY
        }
    }

    /// Hot spares held at `servers` servers ([`spares_needed`]).
    fn spares_for(&self, servers: usize) -> u64 {
        let failures = self.per_server_failures.times(servers as f64);
        spares_needed(failures.replacements_per_s, self.repair_s)
    }

    /// (restart averaged, interval, goodput) at `servers` servers (`Interruptions::goodput`).
    fn failures(&self, servers: usize) -> (f64, f64, f64) {
        self.per_server_failures.times(servers as f64).goodput(
            self.write_s(servers),
            self.restart_s,
            self.repair_s,
            self.spares_for(servers),
        )
    }
}

/// The requirement as the sizing record states it.
fn requirement(need: &TrainingNeed) -> String {
    format!(
        "{} parameters on {} tokens in {} days on {} (MFU {})",
        shown(need.parameters),
        shown(need.tokens),
        need.days,
        need.gpu,
        need.mfu
    )
}

/// Refuses a training need out of range, naming the option.
fn check_training(need: &TrainingNeed) -> Result<(), TemplateError> {
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
    Ok(())
}

/// The storage a training job of `need` on `gpus` GPUs reads and checkpoints to.
fn training_storage(need: &TrainingNeed, gpus: usize) -> crate::templates::storage::StorageNeed {
    crate::templates::storage::StorageNeed::training(
        need.parameters,
        need.tokens,
        gpus,
        crate::model::Params::default()
            .traffic
            .storage_read_gbyte_s_per_gpu,
    )
}

/// The fewest GPUs a training job can finish on, from compute alone (6ND FLOPs at peak x MFU within the days)
/// and from memory (16 bytes per parameter, sharded): no design smaller can finish.
struct TrainingFloor {
    /// The GPU's BF16 peak, TFLOPS.
    tflops: f64,
    /// The GPU's memory, GB.
    memory_gb: f64,
    /// GPU-seconds of compute at peak x MFU.
    gpu_seconds: f64,
    /// GPUs the compute needs within the days.
    compute_gpus: f64,
    /// GPUs the weights, gradients and optimiser state need.
    memory_gpus: f64,
    /// The larger of the two.
    floor_gpus: f64,
}

/// The [`TrainingFloor`] of a need on its GPU, or an error when it is more than Racksmith builds.
fn training_floor(catalog: &Catalog, need: &TrainingNeed) -> Result<TrainingFloor, TemplateError> {
    let (tflops, memory_gb) = match catalog
        .get(crate::templates::gpu_part(&need.gpu))
        .map(|p| &p.kind)
    {
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
    Ok(TrainingFloor {
        tflops,
        memory_gb,
        gpu_seconds,
        compute_gpus,
        memory_gpus,
        floor_gpus,
    })
}

/// The error when more servers than Racksmith builds would be needed.
fn too_many(need: &TrainingNeed, cap: usize) -> TemplateError {
    TemplateError::BadValue {
        option: "days".into(),
        value: shown(need.days),
        why: format!(
            "more than the {} GPUs ({} servers of {}) Racksmith builds would be needed once the network's time is \
             counted; allow more days",
            with_commas(MAX_SIZED_GPUS),
            with_commas(cap),
            need.gpu
        ),
    }
}

/// The server count from `lo` to `cap` with the fewest days with failures counted: the failure-free days fall
/// with more servers and the goodput with them, so the days with failures fall, then rise once restarts take more
/// than the servers add. A ternary search over the counts finds it (about 2 log1.5(cap) estimates), then a walk
/// over the last few.
fn fastest_count(lo: usize, cap: usize, est_days: &dyn Fn(usize) -> f64) -> usize {
    let (mut a, mut b) = (lo, cap);
    while b - a > 2 {
        let m1 = a + (b - a) / 3;
        let m2 = b - (b - a) / 3;
        if est_days(m1) <= est_days(m2) {
            b = m2;
        } else {
            a = m1;
        }
    }
    (a..=b)
        .min_by(|x, y| est_days(*x).total_cmp(&est_days(*y)))
        .unwrap_or(cap)
}

/// The fastest a job can go with failures counted ([`fastest_count`]), for the error when it is too slow.
struct Fastest {
    servers: usize,
    days: f64,
    restart_s: f64,
    goodput: f64,
    interruptions_per_s: f64,
}

/// Why no size finishes in time: the network's time alone (at `at_cap`, the largest size), or failures (the
/// failure-free days at the cap, `ff_days_at_cap`, would do), or simply more servers than Racksmith builds.
fn no_size_finishes(
    need: &TrainingNeed,
    cap: usize,
    at_cap: Option<&crate::analysis::latency::TrainingTime>,
    ff_days_at_cap: f64,
    fastest: &Fastest,
) -> TemplateError {
    // The network's time per step does not shrink with more servers (a ring all-reduce moves about twice the
    // gradients whatever the count): once it alone exceeds the days, no size finishes.
    if let Some(t) = at_cap {
        let network_days = (t.step_s - t.compute_s_per_step).max(0.0) * t.steps / 86_400.0;
        if network_days >= need.days {
            return TemplateError::BadValue {
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
            };
        }
    }
    if ff_days_at_cap <= need.days {
        return TemplateError::BadValue {
            option: "days".into(),
            value: shown(need.days),
            why: format!(
                "no size of {} finishes in time with failures counted: the fastest is {} servers, {:.1} days at \
                 {:.1}% goodput ({:.1} interruptions a day, a {:.0} s restart on average); past it, restarts \
                 cost more than servers add. Allow more days, or shorten the restart",
                need.gpu,
                with_commas(fastest.servers),
                fastest.days,
                fastest.goodput * 100.0,
                fastest.interruptions_per_s * 86_400.0,
                fastest.restart_s
            ),
        };
    }
    too_many(need, cap)
}

/// The derivation of a training size, line by line: what set it, the storage, the days and what failures add,
/// the spares, the search, the parallel layout and the job's cost.
fn training_why(
    catalog: &Catalog,
    need: &TrainingNeed,
    floor: &TrainingFloor,
    report: &Report,
    cap: usize,
    failure_free_servers: usize,
) -> Vec<(String, String)> {
    let TrainingFloor {
        tflops,
        memory_gb,
        gpu_seconds,
        compute_gpus,
        memory_gpus,
        ..
    } = *floor;
    let mut why = vec![(
        "size set by".to_string(),
        if memory_gpus > compute_gpus {
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
            crate::templates::storage::appliances_for(
                catalog,
                &training_storage(need, report.summary.gpus),
            )
            .1,
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
    why
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
