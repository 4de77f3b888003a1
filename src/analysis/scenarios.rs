//! Planning scenarios analysed: the design with a scenario's settings in place (the edit that makes them one undo
//! step is `edit::scenario`), the headline figures a planning meeting looks at, and the side-by-side table of
//! several scenarios with their differences, shared by the Planning panel and the HTML report (scenarios that
//! build another cluster are evaluated by `templates::planning`).

use super::Report;
use crate::catalog::Catalog;
use crate::model::{Design, Scenario};
use std::borrow::Cow;

/// The headline figures of a report, as the Planning panel's cards show them.
#[derive(Debug, Clone, PartialEq)]
pub struct Headline {
    /// GPUs in the design.
    pub gpus: usize,
    /// GPUs the service needs at its latency target (None: no service, or no utilisation meets the target).
    pub gpus_needed: Option<u64>,
    /// Owned cost per used GPU-hour, USD.
    pub owned_usd_per_gpu_hour: f64,
    /// Cloud price compared against, USD per GPU-hour.
    pub cloud_usd_per_gpu_hour: f64,
    /// Months until owning costs less than renting (infinite: never).
    pub break_even_months: f64,
    /// Total cost of ownership over the depreciation period, USD.
    pub tco_usd: f64,
    /// Serving p99 (replica queue plus network), ms, when the design serves.
    pub serving_p99_ms: Option<f64>,
    /// Serving latency target, ms, when the design serves.
    pub serving_target_ms: Option<f64>,
    /// Worst network p99 over the path classes, µs (infinite: saturated).
    pub network_p99_us: f64,
    /// Best all-reduce time of the message size, ms.
    pub allreduce_ms: f64,
    /// Days the design's training job takes on this cluster, when it has one.
    pub training_days: Option<f64>,
    /// What the training job costs owned, USD, when it has one.
    pub training_job_usd: Option<f64>,
}

impl Headline {
    /// The headline figures of a report.
    pub fn of(r: &Report) -> Self {
        let serving = r.latency.serving.as_ref();
        Self {
            gpus: r.summary.gpus,
            gpus_needed: serving.and_then(|s| s.gpus_needed),
            owned_usd_per_gpu_hour: r.cost.owned_usd_per_gpu_hour,
            cloud_usd_per_gpu_hour: r.cost.cloud_usd_per_gpu_hour,
            break_even_months: r.cost.break_even_months,
            tco_usd: r.cost.tco_usd,
            serving_p99_ms: serving.map(|s| s.p99_ms),
            serving_target_ms: serving.map(|s| s.target_ms),
            network_p99_us: r.summary.p99_latency_us,
            allreduce_ms: r.summary.allreduce_ms,
            training_days: r.latency.training.as_ref().map(|t| t.days),
            training_job_usd: r.cost.training_job_usd,
        }
    }
}

/// What one scenario gives, or why it cannot be applied to the design.
#[derive(Debug, Clone)]
pub struct ScenarioResult {
    /// The scenario evaluated (a copy of its settings), so a result carries its own name and inputs.
    pub scenario: Scenario,
    /// Its headline figures, or the reason its settings do not apply (a GPU swap refused).
    pub headline: Result<Headline, String>,
}

/// The design with a scenario's settings in place: its parameters and, when it names another GPU model than the
/// design's main GPU, those GPUs swapped (`catalog::swap`, the same swap the app's edit makes; no edit here, the
/// analysis never edits). Borrowed when nothing changes; the reason when the swap does not fit.
pub fn applied<'a>(
    design: &'a Design,
    catalog: &Catalog,
    scenario: &Scenario,
) -> Result<Cow<'a, Design>, String> {
    let params = scenario.apply_to(&design.params);
    let swap = match (&scenario.gpu, design.main_gpu()) {
        (None, _) => None,
        (Some(to), Some(from)) if from == *to => None,
        (Some(to), Some(from)) => Some(
            crate::catalog::swap::plan(design, catalog, from.as_str(), to.as_str())
                .map_err(|e| e.to_string())?,
        ),
        (Some(to), None) => return Err(format!("the design has no GPUs to swap for {to}")),
    };
    if params == design.params && swap.is_none() {
        return Ok(Cow::Borrowed(design));
    }
    let mut copy = match &swap {
        Some(s) => s.trial(design).map_err(|e| e.to_string())?,
        None => design.clone(),
    };
    copy.params = params;
    Ok(Cow::Owned(copy))
}

/// One row of the side-by-side table: a setting or a figure, its value under each scenario, and which values
/// differ from the first scenario's.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// What the row shows.
    pub label: String,
    /// Whether the row is an input setting (false: a figure the analysis gives).
    pub setting: bool,
    /// The value under each scenario, formatted.
    pub values: Vec<String>,
    /// Whether each value differs from the first scenario's (the first is never marked).
    pub differs: Vec<bool>,
}

fn fmt_opt(x: Option<f64>, f: impl Fn(f64) -> String) -> String {
    x.map_or_else(|| "—".to_string(), f)
}

fn months(m: f64) -> String {
    if m.is_finite() {
        format!("{m:.1} months")
    } else {
        "never".into()
    }
}

/// A size in bytes in the largest unit that keeps it above 1.
pub fn bytes_text(b: f64) -> String {
    let units = [(1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "kB")];
    for (scale, unit) in units {
        if b >= scale {
            return format!("{} {unit}", trim(b / scale));
        }
    }
    format!("{} B", trim(b))
}

fn trim(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// One row of the scenario table: its label, whether it is a setting, and how to show it for a scenario and its
/// headline.
type Cell = Box<dyn Fn(&Scenario, Option<&Headline>) -> String>;

/// The settings' rows: what each scenario changes.
fn setting_rows() -> Vec<(&'static str, bool, Cell)> {
    vec![
        (
            "GPU model",
            true,
            Box::new(|s, _| {
                s.gpu
                    .as_ref()
                    .map_or("as designed".into(), |g| g.to_string())
            }),
        ),
        (
            "GPUs",
            true,
            Box::new(|s, _| {
                s.gpu_count
                    .map_or("as designed".into(), |n| format!("{n}, built anew"))
            }),
        ),
        (
            "Request rate",
            true,
            Box::new(|s, _| fmt_opt(s.request_rate_rps, |r| format!("{} req/s", trim(r)))),
        ),
        (
            "Latency target (p99)",
            true,
            Box::new(|s, _| fmt_opt(s.latency_target_ms, |t| format!("{} ms", trim(t)))),
        ),
        (
            "Utilisation",
            true,
            Box::new(|s, _| format!("{:.0}%", s.utilisation_target * 100.0)),
        ),
        (
            "Electricity",
            true,
            Box::new(|s, _| format!("${:.3}/kWh", s.electricity_usd_per_kwh)),
        ),
        ("PUE", true, Box::new(|s, _| format!("{:.2}", s.pue))),
        (
            "Cloud price",
            true,
            Box::new(|s, _| {
                fmt_opt(s.cloud_usd_per_gpu_hour, |c| format!("${c:.2}/GPU-h"))
                    .replace('—', "catalog")
            }),
        ),
        (
            "Depreciation",
            true,
            Box::new(|s, _| format!("{} years", trim(s.depreciation_years))),
        ),
        (
            "All-reduce size",
            true,
            Box::new(|s, _| bytes_text(s.allreduce_bytes)),
        ),
        (
            "Latency message",
            true,
            Box::new(|s, _| bytes_text(s.latency_message_bytes)),
        ),
    ]
}

/// The figures' rows: what the analysis gives under each scenario.
fn figure_rows() -> Vec<(&'static str, bool, Cell)> {
    vec![
        (
            "GPUs needed",
            false,
            Box::new(|_, h| match h {
                Some(h) => match (h.gpus_needed, h.serving_p99_ms) {
                    (Some(n), _) => format!("{n} of {}", h.gpus),
                    (None, Some(_)) => "target not reachable".into(),
                    (None, None) => format!("— ({} in design)", h.gpus),
                },
                None => "—".into(),
            }),
        ),
        (
            "Training days",
            false,
            Box::new(|_, h| fmt_opt(h.and_then(|h| h.training_days), |x| format!("{x:.1} days"))),
        ),
        (
            "Training job owned",
            false,
            Box::new(|_, h| fmt_opt(h.and_then(|h| h.training_job_usd), super::format::usd)),
        ),
        (
            "Owned $/GPU-h",
            false,
            Box::new(|_, h| fmt_opt(h.map(|h| h.owned_usd_per_gpu_hour), |x| format!("${x:.2}"))),
        ),
        (
            "Cloud $/GPU-h",
            false,
            Box::new(|_, h| fmt_opt(h.map(|h| h.cloud_usd_per_gpu_hour), |x| format!("${x:.2}"))),
        ),
        (
            "Break-even",
            false,
            Box::new(|_, h| fmt_opt(h.map(|h| h.break_even_months), months)),
        ),
        (
            "TCO",
            false,
            Box::new(|_, h| fmt_opt(h.map(|h| h.tco_usd), super::format::usd)),
        ),
        (
            "Serving p99",
            false,
            Box::new(|_, h| fmt_opt(h.and_then(|h| h.serving_p99_ms), |x| format!("{x:.1} ms"))),
        ),
        (
            "Network p99",
            false,
            Box::new(|_, h| {
                fmt_opt(h.map(|h| h.network_p99_us), |x| {
                    if x.is_finite() {
                        format!("{x:.2} µs")
                    } else {
                        "saturated".into()
                    }
                })
            }),
        ),
        (
            "All-reduce",
            false,
            Box::new(|_, h| fmt_opt(h.map(|h| h.allreduce_ms), |x| format!("{x:.2} ms"))),
        ),
    ]
}

/// The side-by-side table of scenario results: the settings first, then the figures.
pub fn table(results: &[ScenarioResult]) -> Vec<Row> {
    let mut rows = setting_rows();
    rows.extend(figure_rows());
    rows.into_iter()
        .map(|(label, setting, cell)| {
            let values: Vec<String> = results
                .iter()
                .map(|r| cell(&r.scenario, r.headline.as_ref().ok()))
                .collect();
            let first = values.first().cloned().unwrap_or_default();
            let differs = values
                .iter()
                .enumerate()
                .map(|(i, v)| i > 0 && *v != first)
                .collect();
            Row {
                label: label.to_string(),
                setting,
                values,
                differs,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_are_marked_against_the_first_scenario() {
        let a = Scenario::from_params("a", &crate::model::Params::default(), None);
        let b = Scenario {
            name: "b".into(),
            pue: 1.5,
            ..a.clone()
        };
        let results: Vec<ScenarioResult> = [a, b]
            .into_iter()
            .map(|scenario| ScenarioResult {
                scenario,
                headline: Err("not analysed".into()),
            })
            .collect();
        let rows = table(&results);
        let pue = rows.iter().find(|r| r.label == "PUE");
        assert_eq!(
            pue.map(|r| (r.values.clone(), r.differs.clone())),
            Some((vec!["1.20".into(), "1.50".into()], vec![false, true]))
        );
        let elec = rows.iter().find(|r| r.label == "Electricity");
        assert_eq!(elec.map(|r| r.differs.clone()), Some(vec![false, false]));
    }

    #[test]
    fn sizes_read_in_their_unit() {
        assert_eq!(bytes_text(1e9), "1 GB");
        assert_eq!(bytes_text(4096.0), "4.1 kB");
        assert_eq!(bytes_text(512.0), "512 B");
    }
}
