//! Failures and checkpoints: how long a training job really takes on the drawn cluster (docs/analysis.md,
//! "Failures and checkpoints").
//!
//! - Interruptions come from the parts drawn, each class at its rate per part-year (`model::FailureRates`,
//!   calibrated on Llama 3's 419 unexpected interruptions in 54 days on 16,384 H100): GPUs, GPU memory, hosts,
//!   power supplies and software per server, NICs, cables and switches. More optics, more failures.
//! - A checkpoint is the job's training state (parameters x bytes per parameter), written at the lower of the
//!   storage's rated write bandwidth and the network bandwidth cabled to it.
//! - The interval is Daly's higher-order optimum (FGCS 22(3), 2006, eq. 37); Young's first-order sqrt(2 δ M)
//!   (CACM 17(9), 1974) is given beside it.
//! - Goodput, the share of wall-clock time that advances training, is Daly's expected segment time: each interval
//!   τ of work costs M e^(R/M) (e^((τ+δ)/M) - 1) of wall clock with failures every M on average, a write of δ and
//!   a restart of R; planned interruptions cost a restart and a write each, no lost work.
//! - Spares: an interruption that needs a server's part replaced restarts in R only when a hot spare is ready;
//!   otherwise the job waits the repair time for it. Servers out for repair are Poisson (mean: replacements a
//!   second x repair time), so the chance that none of S spares is ready is P(N >= S), and the restart averaged
//!   over interruptions is R + (replacements / interruptions) x P(N >= S) x repair.

use super::bandwidth::BandwidthReport;
use super::finding::{Finding, FindingCode, Severity};
use super::latency::TrainingTime;
use crate::catalog::PartKind;
use crate::model::{Design, FailureRates};
use serde::Serialize;

/// Seconds in a year (365 days), the unit the rates are counted in.
const YEAR_S: f64 = 365.0 * 86_400.0;

/// The failures and checkpoints section of a training job's report.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ReliabilityReport {
    /// Unexpected interruptions of the job per day, from the parts drawn at their rates.
    pub interruptions_per_day: f64,
    /// Planned interruptions (maintenance) per day.
    pub planned_per_day: f64,
    /// Mean time between unexpected interruptions, hours.
    pub mtbi_h: f64,
    /// The classes of part the interruptions come from, largest first.
    pub contributors: Vec<Contributor>,
    /// Bytes one checkpoint writes: parameters x checkpoint bytes per parameter.
    pub checkpoint_bytes: f64,
    /// Bandwidth a checkpoint is written at: the lower of the storage's rated write bandwidth and the network
    /// bandwidth cabled to the storage, GB/s (0 with no storage).
    pub checkpoint_write_gbyte_s: f64,
    /// Seconds one checkpoint write takes (None with no storage to write to).
    pub checkpoint_write_s: Option<f64>,
    /// Checkpoint interval, s: Daly's higher-order optimum for this write time and MTBI.
    pub checkpoint_interval_s: Option<f64>,
    /// Young's first-order interval sqrt(2 x write x MTBI), s, for comparison.
    pub young_interval_s: Option<f64>,
    /// Seconds from an interruption to training again with a spare at hand (the job's `restart_s`).
    pub restart_s: f64,
    /// Seconds a failed server is out when no spare is ready (the job's `repair_s`).
    pub repair_s: f64,
    /// Chance that no spare server is ready when one is needed: 1 with none held.
    pub no_spare_chance: f64,
    /// The restart averaged over interruptions, s: `restart_s` + the share needing a server's part x
    /// `no_spare_chance` x `repair_s`. Goodput counts this one.
    pub restart_expected_s: f64,
    /// Share of wall-clock time that advances training (None with no storage to checkpoint to).
    pub goodput: Option<f64>,
    /// Goodput at the high end of the rate band (rates x `band_high`): the low end of goodput.
    pub goodput_low: Option<f64>,
    /// Goodput at the low end of the rate band.
    pub goodput_high: Option<f64>,
    /// Training days with failures counted: failure-free days / goodput.
    pub days_expected: Option<f64>,
    /// GPU-hours with failures counted: failure-free GPU-hours / goodput.
    pub gpu_hours_expected: Option<f64>,
    /// The job's cost owned with failures counted, USD: the failure-free job cost / goodput.
    pub job_usd_expected: Option<f64>,
    /// Usable capacity of the storage drawn, TB (a checkpoint must fit).
    pub storage_capacity_tb: f64,
    /// Spare GPU servers held with the design (procurement's spares for the "Servers" category): with one ready, a
    /// failed server is swapped within the restart time.
    pub spare_servers: u64,
    /// Interruptions a day that need a part replaced (GPU, GPU memory, host, power supply, NIC), which spares
    /// answer.
    pub replacements_per_day: f64,
}

/// One class of part and the interruptions it causes.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Contributor {
    /// The class ("GPU", "GPU memory", "host", "power supply", "software", "NIC", "cable", "switch").
    pub class: String,
    /// Parts of the class in the design (servers for host, power supply and software).
    pub count: usize,
    /// Unexpected interruptions per day it causes.
    pub per_day: f64,
}

/// The parts a failure can come from, counted in the design.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Exposure {
    /// GPUs installed.
    pub gpus: usize,
    /// Servers with GPUs.
    pub servers: usize,
    /// NICs installed in those servers.
    pub nics: usize,
    /// Cables (links).
    pub cables: usize,
    /// Switches.
    pub switches: usize,
}

impl Exposure {
    /// The parts of a design: GPU servers with their GPUs and NICs, every cable and every switch.
    pub fn of(design: &Design) -> Self {
        let mut e = Exposure {
            cables: design.links.len(),
            ..Exposure::default()
        };
        for d in design.devices.values() {
            match design.parts.get(&d.part).map(|p| &p.kind) {
                Some(PartKind::Switch(_)) => e.switches += 1,
                Some(PartKind::Server(_)) if !d.gpus.is_empty() => {
                    e.servers += 1;
                    e.gpus += d.gpus.len();
                    e.nics += d.nics.len();
                }
                _ => {}
            }
        }
        e
    }

    /// Unexpected interruptions per year by class, at `rates`.
    pub fn per_year(&self, r: &FailureRates) -> Vec<(&'static str, usize, f64)> {
        let (g, s, n) = (self.gpus as f64, self.servers as f64, self.nics as f64);
        vec![
            ("GPU", self.gpus, g * r.gpu_per_year),
            ("GPU memory", self.gpus, g * r.gpu_memory_per_year),
            ("host", self.servers, s * r.host_per_year),
            ("power supply", self.servers, s * r.power_supply_per_year),
            ("software", self.servers, s * r.software_per_year),
            ("NIC", self.nics, n * r.nic_per_year),
            ("cable", self.cables, self.cables as f64 * r.link_per_year),
            (
                "switch",
                self.switches,
                self.switches as f64 * r.switch_per_year,
            ),
        ]
    }
}

/// Young's first-order optimum checkpoint interval, s: sqrt(2 δ M).
pub fn young_interval_s(write_s: f64, mtbi_s: f64) -> f64 {
    (2.0 * write_s * mtbi_s).sqrt()
}

/// Daly's higher-order optimum checkpoint interval, s (eq. 37): for δ < 2M, sqrt(2δM) [1 + (1/3) sqrt(δ/2M) +
/// (1/9) (δ/2M)] - δ; else M.
pub fn daly_interval_s(write_s: f64, mtbi_s: f64) -> f64 {
    if write_s < 2.0 * mtbi_s {
        let x = write_s / (2.0 * mtbi_s);
        young_interval_s(write_s, mtbi_s) * (1.0 + x.sqrt() / 3.0 + x / 9.0) - write_s
    } else {
        mtbi_s
    }
}

/// Share of wall clock that advances training with failures every `mtbi_s` on average, a checkpoint write of
/// `write_s` every `interval_s` of work and `restart_s` to restart: τ / (M e^(R/M) (e^((τ+δ)/M) - 1)) (Daly 2006,
/// the expected time of a segment), times the share left by planned interruptions (`planned_per_s` x (R + δ)).
pub fn goodput(
    interval_s: f64,
    write_s: f64,
    restart_s: f64,
    mtbi_s: f64,
    planned_per_s: f64,
) -> f64 {
    let m = mtbi_s;
    let segment = m * (restart_s / m).exp() * (((interval_s + write_s) / m).exp() - 1.0);
    let unplanned = if segment > 0.0 {
        interval_s / segment
    } else {
        1.0
    };
    (unplanned * (1.0 - planned_per_s * (restart_s + write_s))).clamp(0.0, 1.0)
}

/// Chance that none of `spares` hot spare servers is ready when a server fails: the servers out for repair are
/// Poisson with mean m = `replacements_per_s` x `repair_s` (failures at random, each out for the repair time: the
/// M/G/infinity queue), and a spare is ready while fewer than `spares` are out: P(N >= S) = 1 - sum over k < S of
/// e^-m m^k / k! (1 with no spare). Terms are summed in logs so a large m does not underflow.
pub fn no_spare_chance(replacements_per_s: f64, repair_s: f64, spares: u64) -> f64 {
    let m = (replacements_per_s * repair_s).max(0.0);
    if spares == 0 {
        return 1.0;
    }
    if m == 0.0 {
        return 0.0;
    }
    let (mut log_term, mut ready) = (-m, 0.0);
    for k in 0..spares {
        if k > 0 {
            log_term += m.ln() - (k as f64).ln();
        }
        ready += log_term.exp();
        // Past the mean the terms only fall: once they no longer move the sum, the rest cannot either.
        if k as f64 > m && log_term < -40.0 {
            break;
        }
    }
    (1.0 - ready).clamp(0.0, 1.0)
}

/// The restart averaged over interruptions, s: `restart_s`, plus `repair_s` for the share of interruptions that
/// need a server's part (`replacement_share`) and find no spare ready (`no_spare`).
pub fn expected_restart_s(
    restart_s: f64,
    repair_s: f64,
    replacement_share: f64,
    no_spare: f64,
) -> f64 {
    restart_s + replacement_share.clamp(0.0, 1.0) * no_spare.clamp(0.0, 1.0) * repair_s
}

/// A job's interruptions per second at one size: unexpected, planned, and those that need a server's part replaced
/// (a subset of the unexpected). What the analysis counts from the parts drawn and sizing estimates per server.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Interruptions {
    /// Unexpected interruptions per second.
    pub per_s: f64,
    /// Planned interruptions per second.
    pub planned_per_s: f64,
    /// Unexpected interruptions per second that need a part of a GPU server replaced (GPU, GPU memory, host,
    /// power supply, NIC).
    pub replacements_per_s: f64,
}

impl Interruptions {
    /// The interruptions of `exposure` at `rates`.
    pub fn of(exposure: &Exposure, rates: &FailureRates) -> Self {
        let classes = exposure.per_year(rates);
        let per_year: f64 = classes.iter().map(|c| c.2).sum();
        let replacements: f64 = classes
            .iter()
            .filter(|c| needs_replacement(c.0))
            .map(|c| c.2)
            .sum();
        Self {
            per_s: per_year / YEAR_S,
            planned_per_s: exposure.servers as f64 * rates.planned_per_year / YEAR_S,
            replacements_per_s: replacements / YEAR_S,
        }
    }

    /// The same interruptions scaled by `k` (k times the parts).
    pub fn times(self, k: f64) -> Self {
        Self {
            per_s: self.per_s * k,
            planned_per_s: self.planned_per_s * k,
            replacements_per_s: self.replacements_per_s * k,
        }
    }

    /// Goodput with failures: the restart averaged over interruptions for `spares` spares and a repair of
    /// `repair_s`, Daly's interval for a write of `write_s`, and the share of wall clock that advances training.
    /// Returns (restart averaged, interval, goodput). The one computation the analysis, its what-ifs and sizing
    /// all use.
    pub fn goodput(
        self,
        write_s: f64,
        restart_s: f64,
        repair_s: f64,
        spares: u64,
    ) -> (f64, f64, f64) {
        let mtbi_s = if self.per_s > 0.0 {
            1.0 / self.per_s
        } else {
            f64::INFINITY
        };
        let share = if self.per_s > 0.0 {
            self.replacements_per_s / self.per_s
        } else {
            0.0
        };
        let restart = expected_restart_s(
            restart_s,
            repair_s,
            share,
            no_spare_chance(self.replacements_per_s, repair_s, spares),
        );
        let tau = daly_interval_s(write_s, mtbi_s);
        // A planned stop is prepared: a checkpoint and a restart, never a wait for a repair.
        let planned = (1.0 - self.planned_per_s * (restart_s + write_s)).clamp(0.0, 1.0);
        (
            restart,
            tau,
            goodput(tau, write_s, restart, mtbi_s, 0.0) * planned,
        )
    }
}

/// Whether an interruption of this class needs a part of a GPU server replaced (and so a spare).
fn needs_replacement(class: &str) -> bool {
    matches!(
        class,
        "GPU" | "GPU memory" | "host" | "power supply" | "NIC"
    )
}

/// The section for a design with a training job, or None without one.
pub fn analyze(
    design: &Design,
    bw: &BandwidthReport,
    training: Option<&TrainingTime>,
    job_usd: Option<f64>,
) -> Option<ReliabilityReport> {
    let job = design.params.training.as_ref()?;
    let t = training?;
    let rates = &design.params.failure_rates;
    let exposure = Exposure::of(design);
    let classes = exposure.per_year(rates);
    let at_rates = Interruptions::of(&exposure, rates);
    let mtbi_s = if at_rates.per_s > 0.0 {
        1.0 / at_rates.per_s
    } else {
        f64::INFINITY
    };
    let mut contributors: Vec<Contributor> = classes
        .into_iter()
        .filter(|c| c.1 > 0)
        .map(|(class, count, y)| Contributor {
            class: class.into(),
            count,
            per_day: y / 365.0,
        })
        .collect();
    contributors.sort_by(|a, b| b.per_day.total_cmp(&a.per_day));
    let (mut write_rated, mut capacity_tb) = (0.0, 0.0);
    for d in design.devices.values() {
        if let Some(PartKind::Storage(s)) = design.parts.get(&d.part).map(|p| &p.kind) {
            write_rated += s.write_gbyte_s;
            capacity_tb += s.capacity_tb;
        }
    }
    let write_gbyte_s = write_rated.min(bw.storage.network_gbyte_s).max(0.0);
    let checkpoint_bytes = job.parameters * job.checkpoint_bytes_per_parameter;
    let write_s = (write_gbyte_s > 0.0).then(|| checkpoint_bytes / (write_gbyte_s * 1e9));
    let spare_servers = design
        .params
        .spares
        .get("Servers")
        .map_or(0, |s| s.for_quantity(exposure.servers as u64));
    // The band scales every rate alike, the replacements with them.
    let at = |scale: f64| {
        write_s.map(|w| {
            at_rates
                .times(scale)
                .goodput(w, job.restart_s, job.repair_s, spare_servers)
        })
    };
    let mid = at(1.0);
    let g = mid.map(|(_, _, g)| g);
    let no_spare = no_spare_chance(at_rates.replacements_per_s, job.repair_s, spare_servers);
    let share = if at_rates.per_s > 0.0 {
        at_rates.replacements_per_s / at_rates.per_s
    } else {
        0.0
    };
    Some(ReliabilityReport {
        interruptions_per_day: at_rates.per_s * 86_400.0,
        planned_per_day: at_rates.planned_per_s * 86_400.0,
        mtbi_h: mtbi_s / 3600.0,
        contributors,
        checkpoint_bytes,
        checkpoint_write_gbyte_s: write_gbyte_s,
        checkpoint_write_s: write_s,
        checkpoint_interval_s: mid.map(|(_, tau, _)| tau),
        young_interval_s: write_s.map(|w| young_interval_s(w, mtbi_s)),
        restart_s: job.restart_s,
        repair_s: job.repair_s,
        no_spare_chance: no_spare,
        restart_expected_s: expected_restart_s(job.restart_s, job.repair_s, share, no_spare),
        goodput: g,
        goodput_low: at(rates.band_high).map(|(_, _, g)| g),
        goodput_high: at(rates.band_low).map(|(_, _, g)| g),
        days_expected: g.filter(|g| *g > 0.0).map(|g| t.days / g),
        gpu_hours_expected: g.filter(|g| *g > 0.0).map(|g| t.gpu_hours / g),
        job_usd_expected: g.filter(|g| *g > 0.0).and_then(|g| job_usd.map(|c| c / g)),
        storage_capacity_tb: capacity_tb,
        spare_servers,
        replacements_per_day: at_rates.replacements_per_s * 86_400.0,
    })
}

/// Findings on the job's failures and checkpoints: goodput under 90%, a write over a tenth of the interval, a
/// checkpoint larger than the storage, or no storage to checkpoint to. Each names its lever.
pub fn findings(r: &ReliabilityReport, out: &mut Vec<Finding>) {
    let Some(write) = r.checkpoint_write_s else {
        out.push(Finding::new(
            Severity::Warning,
            FindingCode::Checkpoint,
            format!(
                "the training job has no storage to checkpoint to: {} interruptions a day (one every {:.1} h) each \
                 lose the work since the job began",
                round2(r.interruptions_per_day),
                r.mtbi_h
            ),
            "add storage cabled to the fabric (a checkpoint of the job's state must be written every interval)",
        ));
        return;
    };
    if r.checkpoint_bytes > r.storage_capacity_tb * 1e12 {
        out.push(Finding::new(
            Severity::Error,
            FindingCode::Checkpoint,
            format!(
                "a checkpoint of {:.2} TB does not fit the {:.1} TB of storage drawn",
                r.checkpoint_bytes / 1e12,
                r.storage_capacity_tb
            ),
            "add storage capacity for at least two checkpoints (the one being written and the last good one)",
        ));
    }
    if let Some(interval) = r.checkpoint_interval_s
        && write > interval / 10.0
    {
        out.push(Finding::new(
            Severity::Warning,
            FindingCode::Checkpoint,
            format!(
                "a checkpoint write takes {write:.0} s, more than a tenth of the {interval:.0} s interval between \
                 checkpoints ({:.1} GB/s to storage)",
                r.checkpoint_write_gbyte_s
            ),
            "faster storage, or more network to it, shortens the write (or write to host memory first and drain \
             asynchronously)",
        ));
    }
    // A week or more of the job sees a server replaced: with no spare ready, each such restart waits for a repair.
    if r.no_spare_chance > 0.01 && r.replacements_per_day * 7.0 >= 1.0 {
        out.push(Finding::new(
            Severity::Warning,
            FindingCode::Goodput,
            format!(
                "{}: {:.1} interruptions a week need a server's part replaced, and {:.0}% of them find no spare ready                  and wait {:.0} h for the repair (the restart averages {:.0} s, not {:.0})",
                if r.spare_servers == 0 {
                    "no spare GPU servers are held".to_string()
                } else {
                    format!(
                        "only {} held",
                        crate::model::text::count(
                            r.spare_servers as usize,
                            "spare GPU server",
                            "spare GPU servers"
                        )
                    )
                },
                r.replacements_per_day * 7.0,
                r.no_spare_chance * 100.0,
                r.repair_s / 3600.0,
                r.restart_expected_s,
                r.restart_s
            ),
            "hold hot spares (params.spares for \"Servers\"): Alibaba HPN keeps 64 spare GPUs per 1,024 (6.25%)",
        ));
    }
    if let Some(g) = r.goodput.filter(|g| *g < 0.9) {
        let lever = if write > r.restart_expected_s {
            "faster checkpoint storage: the write is the larger cost"
        } else {
            "a shorter restart (hot spares, per-replica recovery) or fewer parts per GPU: restarts are the larger cost"
        };
        out.push(Finding::new(
            Severity::Warning,
            FindingCode::Goodput,
            format!(
                "goodput {:.1}% (band {:.1}-{:.1}%): {} interruptions a day, a {write:.0} s checkpoint write, a {:.0} s \
                 restart on average",
                g * 100.0,
                r.goodput_low.unwrap_or(g) * 100.0,
                r.goodput_high.unwrap_or(g) * 100.0,
                round2(r.interruptions_per_day),
                r.restart_expected_s
            ),
            lever,
        ));
    }
}

/// Per-replica recovery's stall against a whole-job restart: Meta's FT-HSDP cut the stall from 10 minutes to 3 at
/// O(100K) GPUs (arXiv 2602.00277, abstract), so a restart costs 0.3 of its time when only the failed replica
/// restarts.
pub const PER_REPLICA_RESTART_SHARE: f64 = 3.0 / 10.0;

/// A lever on the job's failures, for the what-ifs (the pane's and the What-ifs window's): storage written faster,
/// a different restart, spare servers held, per-replica recovery.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Levers {
    /// Checkpoint write bandwidth as a multiple of the design's (2: twice as fast).
    pub storage_speedup: f64,
    /// Seconds to restart after an interruption with a spare at hand.
    pub restart_s: f64,
    /// Hot spare GPU servers held.
    pub spares: u64,
    /// Only the failed replica restarts (its stall is [`PER_REPLICA_RESTART_SHARE`] of a restart, and the other
    /// replicas train on while its server is repaired).
    pub per_replica: bool,
}

impl Levers {
    /// The levers as the design has them: its storage, restart and spares, whole-job restarts.
    pub fn of(r: &ReliabilityReport) -> Self {
        Self {
            storage_speedup: 1.0,
            restart_s: r.restart_s,
            spares: r.spare_servers,
            per_replica: false,
        }
    }
}

impl ReliabilityReport {
    /// The interruptions the section counted, per second.
    pub fn interruptions(&self) -> Interruptions {
        Interruptions {
            per_s: self.interruptions_per_day / 86_400.0,
            planned_per_s: self.planned_per_day / 86_400.0,
            replacements_per_s: self.replacements_per_day / 86_400.0,
        }
    }

    /// Goodput and days with failures under other levers, by the section's own computation
    /// ([`Interruptions::goodput`]): the interruptions as drawn, the write time divided by the speed-up, the restart
    /// and spares as given (per replica: 0.3 of the restart and no wait for a repair). None without storage to write
    /// to.
    pub fn what_if(&self, levers: Levers) -> Option<(f64, f64)> {
        let write = self.checkpoint_write_s? / levers.storage_speedup.max(1e-9);
        let (restart, repair) = if levers.per_replica {
            (levers.restart_s * PER_REPLICA_RESTART_SHARE, 0.0)
        } else {
            (levers.restart_s, self.repair_s)
        };
        let (_, _, g) = self
            .interruptions()
            .goodput(write, restart, repair, levers.spares);
        let failure_free = self.days_expected? * self.goodput?;
        Some((
            g,
            if g > 0.0 {
                failure_free / g
            } else {
                f64::INFINITY
            },
        ))
    }
}

/// The section in lines (label, value), as the analysis pane, the HTML report and the text report show it.
pub fn lines(r: &ReliabilityReport) -> Vec<(String, String)> {
    use super::format::thousands;
    let pct = |x: Option<f64>| x.map_or_else(|| "-".to_string(), |g| format!("{:.1}%", g * 100.0));
    // Small clusters fail rarely: three significant figures rather than "0.00 a day".
    let rate = |x: f64| {
        if x > 0.0 && x < 0.1 {
            format!("{x:.2e}")
        } else {
            format!("{x:.2}")
        }
    };
    let mut out = vec![
        (
            "interruptions".to_string(),
            format!(
                "{} a day unexpected (one every {:.1} h) and {} planned",
                rate(r.interruptions_per_day),
                r.mtbi_h,
                rate(r.planned_per_day)
            ),
        ),
        (
            "largest causes".to_string(),
            r.contributors
                .iter()
                .take(4)
                .map(|c| {
                    format!(
                        "{} {}/day ({})",
                        c.class,
                        rate(c.per_day),
                        thousands(c.count as f64, 0)
                    )
                })
                .collect::<Vec<_>>()
                .join(", "),
        ),
        (
            "checkpoint".to_string(),
            match r.checkpoint_write_s {
                Some(w) => format!(
                    "{:.2} TB written in {w:.1} s at {:.1} GB/s",
                    r.checkpoint_bytes / 1e12,
                    r.checkpoint_write_gbyte_s
                ),
                None => format!(
                    "{:.2} TB, no storage to write it to",
                    r.checkpoint_bytes / 1e12
                ),
            },
        ),
    ];
    if let (Some(tau), Some(young)) = (r.checkpoint_interval_s, r.young_interval_s) {
        out.push((
            "interval".into(),
            format!(
                "{:.1} min (Daly; Young {:.1} min)",
                tau / 60.0,
                young / 60.0
            ),
        ));
    }
    out.push((
        "restart".into(),
        format!(
            "{:.0} s on average ({:.0} s with a spare ready, {:.0} h for a repair without); {} spare GPU servers \
             held for {} replacements a day, none ready {:.0}% of the time",
            r.restart_expected_s,
            r.restart_s,
            r.repair_s / 3600.0,
            r.spare_servers,
            rate(r.replacements_per_day),
            r.no_spare_chance * 100.0
        ),
    ));
    out.push((
        "goodput".into(),
        format!(
            "{} (band {} to {})",
            pct(r.goodput),
            pct(r.goodput_low),
            pct(r.goodput_high)
        ),
    ));
    if let (Some(d), Some(h)) = (r.days_expected, r.gpu_hours_expected) {
        out.push((
            "with failures".into(),
            format!(
                "{d:.2} days, {} GPU-hours{}",
                thousands(h, 0),
                r.job_usd_expected
                    .map_or(String::new(), |c| format!(", ${} owned", thousands(c, 0)))
            ),
        ));
    }
    out
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{LLAMA3_GPU_YEARS, LLAMA3_SERVER_YEARS};

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * b.abs()
    }

    #[test]
    fn llama3_rates_give_its_interruptions() {
        // Llama 3 (§3.3.4): 419 unexpected interruptions in 54 days on 16,384 GPUs: 419 / 54 = 7.76 a day,
        // 1,296 h / 419 = 3.09 h between them, 419 / (16,384 x 1,296) = 1.97e-5 per GPU-hour. Its exposure: 2,048
        // servers, one NIC per GPU, and a fabric whose cables and switches give its 35 network interruptions at
        // HPN's rates: 35 / (54 / 365) = 236.6 a year = 0.00684 x cables + 0.00612 x switches, e.g. 1,000
        // switches (6.1 a year) and 33,700 cables (230.5).
        let e = Exposure {
            gpus: 16_384,
            servers: 2_048,
            nics: 16_384,
            cables: 33_700,
            switches: 1_000,
        };
        let r = FailureRates::default();
        let per_year: f64 = e.per_year(&r).iter().map(|c| c.2).sum();
        let in_54_days = per_year * 54.0 / 365.0;
        assert!(close(in_54_days, 419.0, 0.005), "{in_54_days}");
        let per_day = per_year / 365.0;
        assert!(close(per_day, 7.76, 0.005), "{per_day}");
        assert!(close(24.0 / per_day, 3.09, 0.005));
        assert!(close(per_year / (16_384.0 * 8_760.0), 1.97e-5, 0.01));
        // The rates are Table 5's counts over the exposure: GPU rows 148 + 19 + 17 + 6 + 6 = 196 and HBM 72 over
        // 16,384 x 54 / 365 = 2,423.93 GPU-years.
        assert!(close(LLAMA3_GPU_YEARS, 2_423.93, 1e-5));
        assert!(close(LLAMA3_SERVER_YEARS, 302.99, 1e-4));
        assert!(close(r.gpu_per_year, 0.08086, 1e-3));
        assert!(close(r.gpu_memory_per_year, 0.02970, 1e-3));
        assert!(close(r.software_per_year, 0.20793, 1e-3));
    }

    #[test]
    fn levers_move_goodput_by_the_same_formulas() {
        // A report at Llama 3's MTBI (3.09 h), a 57 s write (5.67 TB at 100 GB/s), a 900 s restart, spares always
        // ready (no replacements): the what-if with the same levers gives the same goodput; twice the storage speed
        // or per-replica recovery gives more.
        let m = 3.09 * 3600.0;
        let g = goodput(daly_interval_s(56.7, m), 56.7, 900.0, m, 0.0);
        let r = ReliabilityReport {
            interruptions_per_day: 24.0 / 3.09,
            planned_per_day: 0.0,
            mtbi_h: 3.09,
            contributors: Vec::new(),
            checkpoint_bytes: 5.67e12,
            checkpoint_write_gbyte_s: 100.0,
            checkpoint_write_s: Some(56.7),
            checkpoint_interval_s: None,
            young_interval_s: None,
            restart_s: 900.0,
            repair_s: 86_400.0,
            no_spare_chance: 0.0,
            restart_expected_s: 900.0,
            goodput: Some(g),
            goodput_low: None,
            goodput_high: None,
            days_expected: Some(30.0 / g),
            gpu_hours_expected: None,
            job_usd_expected: None,
            storage_capacity_tb: 100.0,
            spare_servers: 0,
            replacements_per_day: 0.0,
        };
        let same = Levers::of(&r);
        let (g1, d1) = r.what_if(same).unwrap();
        assert!((g1 - g).abs() < 1e-12 && (d1 - 30.0 / g).abs() < 1e-9);
        let faster = r
            .what_if(Levers {
                storage_speedup: 2.0,
                ..same
            })
            .unwrap()
            .0;
        let replica = r
            .what_if(Levers {
                per_replica: true,
                ..same
            })
            .unwrap()
            .0;
        assert!(faster > g && replica > faster);
        // Per replica, the 900 s restart stalls 270 s: R / M goes from 8.1% to 2.4%.
        let direct = goodput(daly_interval_s(56.7, m), 56.7, 270.0, m, 0.0);
        assert!((replica - direct).abs() < 1e-12);
    }

    #[test]
    fn spares_decide_whether_a_replacement_waits_for_the_repair() {
        // No spare: every replacement waits. m = 2 servers out on average (2 replacements a day, a day's repair):
        // P(N >= 1) = 1 - e^-2 = 0.8647, P(N >= 3) = 1 - e^-2 (1 + 2 + 2) = 0.3233, and 10 spares leave
        // 1 - e^-2 (1 + 2 + 2 + 4/3 + 2/3 + 4/15 + 4/45 + 8/315 + 2/315 + 4/2835) = 4.65e-5.
        let per_s = 2.0 / 86_400.0;
        assert_eq!(no_spare_chance(per_s, 86_400.0, 0), 1.0);
        assert!(close(no_spare_chance(per_s, 86_400.0, 1), 0.8647, 1e-4));
        assert!(close(no_spare_chance(per_s, 86_400.0, 3), 0.3233, 1e-3));
        assert!(close(no_spare_chance(per_s, 86_400.0, 10), 4.65e-5, 1e-2));
        // A large mean does not underflow: 5,000 out on average, 4,000 spares are too few, 6,000 enough.
        assert!(no_spare_chance(5_000.0 / 86_400.0, 86_400.0, 4_000) > 0.999);
        assert!(no_spare_chance(5_000.0 / 86_400.0, 86_400.0, 6_000) < 1e-6);
        // The restart averaged over interruptions: 900 s + 80% needing a part x all waiting x 86,400 s = 70,020 s.
        assert!(close(
            expected_restart_s(900.0, 86_400.0, 0.8, 1.0),
            70_020.0,
            1e-9
        ));
        // So at Llama 3's rate (7.76 a day, 80% replacements) with no spare the job barely advances, and with
        // enough spares it is back to the 900 s restart's goodput.
        let i = Interruptions {
            per_s: 7.76 / 86_400.0,
            planned_per_s: 0.0,
            replacements_per_s: 0.8 * 7.76 / 86_400.0,
        };
        let none = i.goodput(56.7, 900.0, 86_400.0, 0).2;
        let (restart, _, some) = i.goodput(56.7, 900.0, 86_400.0, 30);
        assert!(none < 0.01, "{none}");
        assert!((restart - 900.0).abs() < 1e-3, "{restart}");
        let m = 86_400.0 / 7.76;
        let direct = goodput(daly_interval_s(56.7, m), 56.7, 900.0, m, 0.0);
        assert!((some - direct).abs() < 1e-6);
    }

    #[test]
    fn daly_and_young_by_the_papers() {
        // Daly (2006), δ = 5 min: the optimum is 117 min at M = 24 h, 57 at 6 h, 9.1 at 15 min; Young gives 120,
        // 60 and 12.2.
        let m = 60.0;
        for (mtbi_min, daly, young) in [
            (1440.0, 117.0, 120.0),
            (360.0, 57.0, 60.0),
            (15.0, 9.1, 12.2),
        ] {
            let d = daly_interval_s(5.0 * m, mtbi_min * m) / m;
            let y = young_interval_s(5.0 * m, mtbi_min * m) / m;
            assert!((d - daly).abs() < 0.5, "{mtbi_min}: {d}");
            assert!((y - young).abs() < 0.05, "{mtbi_min}: {y}");
        }
        // Past δ = 2M the interval is M.
        assert_eq!(daly_interval_s(100.0, 40.0), 40.0);
    }

    #[test]
    fn goodput_rises_with_storage_then_restarts_dominate() {
        // 405B parameters x 14 B = 5.67 TB: 2.8 s at 2 TB/s, 57 s at 100 GB/s. At Llama 3's MTBI (3.09 h) and a
        // 900 s restart, the faster storage gives more goodput, and with a 2.8 s write the restart is most of the
        // loss: R / M = 900 / 11,124 = 8.1% against δ / τ + τ / 2M, about 2%.
        let bytes = 405e9 * 14.0;
        assert!(close(bytes, 5.67e12, 1e-3));
        let (fast, slow) = (bytes / 2e12, bytes / 100e9);
        assert!(close(fast, 2.835, 1e-3) && close(slow, 56.7, 1e-3));
        let m = 3.09 * 3600.0;
        let g = |w: f64, r: f64| goodput(daly_interval_s(w, m), w, r, m, 0.0);
        assert!(g(fast, 900.0) > g(slow, 900.0));
        assert!(g(fast, 300.0) > g(fast, 900.0));
        let loss = 1.0 - g(fast, 900.0);
        assert!(loss > 0.08 && loss < 0.11, "{loss}");
        // No failures: only the writes cost (τ / (τ + δ) -> 1 as M grows).
        assert!(g(fast, 900.0) < 1.0);
    }
}
