//! The job a design runs, line by line, for the CLI's `size`, the analysis pane and the HTML report: a training
//! job's days as compute, pipeline bubble and each kind of communication (lines that add up to the total shown),
//! its GPU-hours and cost; a service's replicas, capacity and p99; and, for a sized design, the requirement it was
//! sized for and the derivation sizing gave (`Design::sizing`).

use super::Report;
use super::format::thousands;
use crate::model::Design;

/// Rounds `parts` to `unit` so that the rounded parts add up to the rounded total (largest remainders take the
/// units left over): printed lines that must add up to the printed total.
pub fn apportion(parts: &[f64], unit: f64) -> Vec<f64> {
    let total_units = (parts.iter().sum::<f64>() / unit).round() as i64;
    let mut floors: Vec<(usize, i64, f64)> = parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let u = p / unit;
            (i, u.floor() as i64, u - u.floor())
        })
        .collect();
    let mut left = total_units - floors.iter().map(|f| f.1).sum::<i64>();
    let mut order: Vec<usize> = (0..floors.len()).collect();
    order.sort_by(|a, b| {
        let (ra, rb) = (
            floors.get(*a).map_or(0.0, |f| f.2),
            floors.get(*b).map_or(0.0, |f| f.2),
        );
        rb.total_cmp(&ra).then(a.cmp(b))
    });
    for i in order.iter().cycle().take(order.len() * 2) {
        if left == 0 {
            break;
        }
        if let Some(f) = floors.get_mut(*i) {
            if left > 0 {
                f.1 += 1;
                left -= 1;
            } else if f.1 > 0 {
                f.1 -= 1;
                left += 1;
            }
        }
    }
    floors.iter().map(|f| f.1 as f64 * unit).collect()
}

/// The job's days line by line: compute, the pipeline bubble, each kind of communication not hidden behind compute,
/// and the total, rounded so the lines add up to the total shown (docs/analysis.md, "Training jobs").
pub fn days_lines(
    t: &super::latency::TrainingTime,
    gpus: usize,
    asked_days: Option<f64>,
) -> Vec<(String, String)> {
    let per_day = t.steps / 86_400.0;
    let end_to_end = t.mfu_scope == crate::model::MfuScope::EndToEnd;
    let mut parts: Vec<(&str, f64, String)> = vec![(
        "compute",
        t.compute_s_per_step * per_day,
        format!(
            "{} steps x {:.3} s = {} GPU-days over {} GPUs",
            thousands(t.steps, 0),
            t.compute_s_per_step,
            thousands(t.compute_s_per_step * per_day * gpus as f64, 0),
            thousands(gpus as f64, 0)
        ),
    )];
    if !end_to_end {
        let pp = t.parallelism.as_ref();
        parts.extend([
            (
                "pipeline bubble",
                t.bubble_s_per_step * per_day,
                pp.map_or(String::new(), |p| {
                    if p.virtual_stages > 1 {
                        format!(
                            "(PP {} - 1) / ({} microbatches x {} chunks a stage) of compute",
                            p.pipeline, p.microbatches, p.virtual_stages
                        )
                    } else {
                        format!(
                            "(PP {} - 1) / {} microbatches of compute",
                            p.pipeline, p.microbatches
                        )
                    }
                }),
            ),
            (
                "tensor-parallel all-reduces",
                t.tensor_s_per_step * per_day,
                format!("{:.3} s a step", t.tensor_s_per_step),
            ),
            (
                "pipeline sends",
                t.pipeline_s_per_step * per_day,
                format!("{:.3} s a step", t.pipeline_s_per_step),
            ),
            (
                "expert all-to-alls",
                t.expert_s_per_step * per_day,
                format!("{:.3} s a step", t.expert_s_per_step),
            ),
            (
                "context-parallel key and value sends",
                t.context_s_per_step * per_day,
                format!("{:.3} s a step", t.context_s_per_step),
            ),
            (
                "data-parallel gradients, exposed",
                t.exposed_s_per_step * per_day,
                format!(
                    "{:.3} s of {:.3} s a step not hidden behind compute",
                    t.exposed_s_per_step, t.allreduce_s_per_step
                ),
            ),
        ]);
    }
    let values: Vec<f64> = parts.iter().map(|p| p.1).collect();
    let shown = apportion(&values, 0.01);
    let total: f64 = shown.iter().sum();
    let mut lines = vec![(
        "days".to_string(),
        format!(
            "{total:.2}{} = {}",
            asked_days.map_or(String::new(), |d| format!(" (asked {d})")),
            parts
                .iter()
                .zip(&shown)
                .filter(|(p, v)| p.0 == "compute" || **v > 0.0)
                .map(|(p, v)| format!("{v:.2} {}", p.0))
                .collect::<Vec<_>>()
                .join(" + ")
        ),
    )];
    for ((label, _, how), v) in parts.into_iter().zip(shown) {
        if label != "compute" && v <= 0.0 {
            continue;
        }
        lines.push((format!("  {label}"), format!("{v:.2} days ({how})")));
    }
    if end_to_end {
        lines.push((
            "  communication".into(),
            format!(
                "inside the measured MFU ({:.1}% of each step)",
                t.communication_share * 100.0
            ),
        ));
    }
    lines
}

/// The job's lines for the pane and the report: what the design was sized for (when it was), the training job's
/// days line by line with GPU-hours and cost, the service's capacity and p99, from the current analysis (they
/// follow edits), then the derivation recorded when it was sized. Empty when the design has no job.
pub fn job_lines(design: &Design, report: &Report) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Some(s) = &design.sizing {
        out.push(("sized for".to_string(), s.requirement.clone()));
        out.push(("size set by".to_string(), s.limit.clone()));
    }
    if let Some(t) = &report.latency.training {
        let asked = design
            .sizing
            .as_ref()
            .filter(|s| s.goal == "training")
            .and_then(|s| s.days);
        out.extend(days_lines(t, report.summary.gpus, asked));
        out.push(("GPU-hours".into(), thousands(t.gpu_hours, 0)));
        if let Some(c) = report.cost.training_job_usd {
            out.push(("job cost owned".into(), format!("${}", thousands(c, 0))));
        }
        if let Some(c) = report.cost.training_job_cloud_usd {
            out.push((
                "job cost in the cloud".into(),
                format!("${}", thousands(c, 0)),
            ));
        }
    }
    if let Some(s) = &report.latency.serving {
        out.push((
            "serving".into(),
            format!(
                "{} replicas, capacity {} req/s at {:.1}% utilisation ({:+.1}% headroom), p99 {:.1} ms (target {} ms)",
                thousands(s.replicas as f64, 0),
                thousands(s.capacity_rps, 1),
                s.planned_utilisation * 100.0,
                s.headroom * 100.0,
                s.p99_ms,
                s.target_ms
            ),
        ));
        if let Some(c) = report.cost.usd_per_million_requests {
            out.push(("cost per 1M requests".into(), format!("${c:.2}")));
        }
    }
    if let Some(s) = &design.sizing {
        // The derivation as sizing gave it, less the lines the current analysis gives above.
        let live: Vec<String> = out.iter().map(|(k, _)| k.trim().to_string()).collect();
        for (k, v) in &s.why {
            if !live.iter().any(|l| l == k.trim()) {
                out.push((format!("at sizing: {}", k.trim()), v.clone()));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apportioned_lines_add_up_to_the_rounded_total() {
        // 21.414 + 1.337 + 1.276 = 24.027, shown 24.03: rounded alone the parts give 21.41 + 1.34 + 1.28 = 24.03,
        // and 0.333 x 3 = 0.999 shows 1.00, where rounding each gives 0.33 x 3 = 0.99: the largest remainder takes
        // the missing hundredth.
        let a = apportion(&[21.414, 1.337, 1.276], 0.01);
        assert!((a.iter().sum::<f64>() - 24.03).abs() < 1e-9, "{a:?}");
        let b = apportion(&[0.333, 0.333, 0.333], 0.01);
        assert!((b.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{b:?}");
        assert!(
            (b[0] - 0.34).abs() < 1e-9 && (b[1] - 0.33).abs() < 1e-9,
            "{b:?}"
        );
    }
}
