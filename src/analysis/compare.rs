//! Side-by-side comparison of two designs' headline figures, with the differences.

use super::Report;
use serde::Serialize;

/// One compared figure.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Row {
    /// What is compared.
    pub figure: String,
    /// Unit of both values, e.g. "USD", "ms", "Gb/s"; empty for a count.
    pub unit: String,
    /// Design A's value.
    pub a: f64,
    /// Design B's value.
    pub b: f64,
    /// b - a.
    pub difference: f64,
    /// b / a (None when a is 0).
    pub ratio: Option<f64>,
    /// Whether a smaller value is better (costs, times, power).
    pub lower_is_better: bool,
}

/// Two designs compared.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Comparison {
    /// Name of design A.
    pub a: String,
    /// Name of design B.
    pub b: String,
    /// Figures, in a fixed order.
    pub rows: Vec<Row>,
    /// Bottleneck of A, in words.
    pub bottleneck_a: String,
    /// Bottleneck of B, in words.
    pub bottleneck_b: String,
}

/// Compares two analysed designs.
pub fn compare(a: &Report, b: &Report) -> Comparison {
    let mut rows = Vec::new();
    let mut row = |figure: &str, unit: &str, x: f64, y: f64, lower_is_better: bool| {
        rows.push(Row {
            figure: figure.into(),
            unit: unit.into(),
            a: x,
            b: y,
            difference: y - x,
            ratio: (x != 0.0).then(|| y / x),
            lower_is_better,
        });
    };
    row(
        "GPUs",
        "",
        a.summary.gpus as f64,
        b.summary.gpus as f64,
        false,
    );
    row(
        "Racks",
        "",
        a.summary.racks as f64,
        b.summary.racks as f64,
        true,
    );
    row("Capex", "USD", a.cost.capex_usd, b.cost.capex_usd, true);
    row(
        "Opex per year",
        "USD",
        a.cost.opex_usd_per_year,
        b.cost.opex_usd_per_year,
        true,
    );
    row("TCO", "USD", a.cost.tco_usd, b.cost.tco_usd, true);
    row(
        "Owned cost per GPU-hour",
        "USD",
        a.cost.owned_usd_per_gpu_hour,
        b.cost.owned_usd_per_gpu_hour,
        true,
    );
    row(
        "All-reduce time",
        "ms",
        a.summary.allreduce_ms,
        b.summary.allreduce_ms,
        true,
    );
    row(
        "p99 GPU-to-GPU latency",
        "us",
        a.summary.p99_latency_us,
        b.summary.p99_latency_us,
        true,
    );
    row(
        "Bisection bandwidth",
        "Gb/s",
        a.summary.bisection_gbps,
        b.summary.bisection_gbps,
        false,
    );
    row(
        "IT power",
        "kW",
        a.summary.it_power_kw,
        b.summary.it_power_kw,
        true,
    );
    row(
        "Network per GPU",
        "GB/s",
        a.bandwidth.inter_node_gbyte_s,
        b.bandwidth.inter_node_gbyte_s,
        false,
    );
    if let (Some(x), Some(y)) = (&a.latency.training, &b.latency.training) {
        row("Training job time", "days", x.days, y.days, true);
        row("Training job GPU-hours", "", x.gpu_hours, y.gpu_hours, true);
        row(
            "Time waiting on the network",
            "share",
            x.communication_share,
            y.communication_share,
            true,
        );
    }
    if let (Some(x), Some(y)) = (a.cost.training_job_usd, b.cost.training_job_usd) {
        row("Training job cost, owned", "USD", x, y, true);
    }
    if let (Some(x), Some(y)) = (a.cost.training_job_cloud_usd, b.cost.training_job_cloud_usd) {
        row("Training job cost, cloud", "USD", x, y, true);
    }
    Comparison {
        a: a.summary.design.clone(),
        b: b.summary.design.clone(),
        rows,
        bottleneck_a: a.summary.bottleneck.clone(),
        bottleneck_b: b.summary.bottleneck.clone(),
    }
}

/// The comparison as a text table.
pub fn render(c: &Comparison) -> String {
    use std::fmt::Write as _;
    let mut o = String::new();
    let _ = writeln!(o, "A: {}\nB: {}\n", c.a, c.b);
    let _ = writeln!(
        o,
        "{:<26} {:>16} {:>16} {:>16} {:>8}",
        "figure", "A", "B", "B - A", "B / A"
    );
    for r in &c.rows {
        let unit = if r.unit.is_empty() {
            String::new()
        } else {
            format!(" {}", r.unit)
        };
        let _ = writeln!(
            o,
            "{:<26} {:>16} {:>16} {:>16} {:>8}",
            format!("{}{unit}", r.figure),
            fmt(r.a),
            fmt(r.b),
            fmt(r.difference),
            r.ratio.map_or("-".into(), |x| format!("{x:.2}x"))
        );
    }
    let _ = writeln!(
        o,
        "\nBottleneck A: {}\nBottleneck B: {}",
        c.bottleneck_a, c.bottleneck_b
    );
    o
}

fn fmt(x: f64) -> String {
    if x.abs() >= 1000.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.3}")
    }
}
