//! Side-by-side comparison of two designs' headline figures, with the differences.

use super::Report;
use super::finding::{FindingCode, Severity};
use crate::model::Design;
use serde::Serialize;

/// Which way a figure is better, so that "better" is judged by each row's own direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Smaller is better: a cost per unit, a time, a latency.
    Lower,
    /// Larger is better: bandwidth per GPU.
    Higher,
    /// A size (GPUs, racks, capex, power): larger is neither better nor worse, only bigger; no side is called
    /// better.
    Size,
}

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
    /// Which way the figure is better.
    pub direction: Direction,
}

impl Row {
    /// The better side by the row's own direction: "A", "B", "same", or "" for a size (neither is better).
    pub fn better(&self) -> &'static str {
        let close = (self.a - self.b).abs() <= 1e-9 * self.a.abs().max(self.b.abs()).max(1.0);
        match self.direction {
            _ if close => "same",
            Direction::Size => "",
            Direction::Lower if self.b < self.a => "B",
            Direction::Higher if self.b > self.a => "B",
            _ => "A",
        }
    }
}

/// A finding of one design that the other does not have (the same code and message).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FindingChange {
    /// How serious it is.
    pub severity: Severity,
    /// Its stable code.
    pub code: FindingCode,
    /// Its message, with the numbers.
    pub message: String,
}

/// Two designs compared.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Comparison {
    /// Name of design A.
    pub a: String,
    /// Name of design B.
    pub b: String,
    /// The file design A was read from (its name, without the folder); None for unsaved work or a sample.
    pub a_file: Option<String>,
    /// The file design B was read from; None for unsaved work or a sample.
    pub b_file: Option<String>,
    /// Figures, in a fixed order: sizes, counts by switch tier and cables, costs, times, bandwidths.
    pub rows: Vec<Row>,
    /// Bottleneck of A, in words.
    pub bottleneck_a: String,
    /// Bottleneck of B, in words.
    pub bottleneck_b: String,
    /// Findings (errors and warnings) B has and A has not.
    pub findings_added: Vec<FindingChange>,
    /// Findings (errors and warnings) A has and B has not.
    pub findings_removed: Vec<FindingChange>,
}

impl Comparison {
    /// Labels a side for people: the design's name, with its file when it has one ("pod (pod-v2.ron)").
    pub fn label(name: &str, file: Option<&str>) -> String {
        match file {
            Some(f) => format!("{name} ({f})"),
            None => name.to_string(),
        }
    }

    /// Design A's label: its name and file.
    pub fn a_label(&self) -> String {
        Self::label(&self.a, self.a_file.as_deref())
    }

    /// Design B's label: its name and file.
    pub fn b_label(&self) -> String {
        Self::label(&self.b, self.b_file.as_deref())
    }

    /// Swaps A and B: names, files, figures, bottlenecks and the findings added and removed.
    pub fn swap(&mut self) {
        std::mem::swap(&mut self.a, &mut self.b);
        std::mem::swap(&mut self.a_file, &mut self.b_file);
        std::mem::swap(&mut self.bottleneck_a, &mut self.bottleneck_b);
        std::mem::swap(&mut self.findings_added, &mut self.findings_removed);
        for r in &mut self.rows {
            std::mem::swap(&mut r.a, &mut r.b);
            r.difference = r.b - r.a;
            r.ratio = (r.a != 0.0).then(|| r.b / r.a);
        }
    }
}

/// A switch tier in words, as the fabric view names it (tier 1 = leaf).
fn tier_name(tier: u8) -> String {
    match tier {
        0 => "Switches not cabled to GPUs".into(),
        1 => "Leaf switches".into(),
        2 => "Spine switches".into(),
        3 => "Core switches".into(),
        t => format!("Tier-{t} switches"),
    }
}

/// Errors and warnings of a report, by (code, message).
fn findings(r: &Report) -> Vec<FindingChange> {
    r.findings
        .iter()
        .filter(|f| f.severity != Severity::Info)
        .map(|f| FindingChange {
            severity: f.severity,
            code: f.code,
            message: f.message.clone(),
        })
        .collect()
}

/// What `x` has that `y` has not, by code and message.
fn missing_from(x: &[FindingChange], y: &[FindingChange]) -> Vec<FindingChange> {
    let have: std::collections::BTreeSet<(&str, &str)> = y
        .iter()
        .map(|f| (f.code.as_str(), f.message.as_str()))
        .collect();
    x.iter()
        .filter(|f| !have.contains(&(f.code.as_str(), f.message.as_str())))
        .cloned()
        .collect()
}

/// Compares two analysed designs (each with its design, for the counts a report does not carry: cables). The files
/// are None; callers that read the designs from files set `a_file` and `b_file`.
pub fn compare(a: (&Design, &Report), b: (&Design, &Report)) -> Comparison {
    use Direction::{Higher, Lower, Size};
    let ((da, a), (db, b)) = (a, b);
    let mut rows = Vec::new();
    let mut row = |figure: &str, unit: &str, (x, y): (f64, f64), direction: Direction| {
        rows.push(Row {
            figure: figure.into(),
            unit: unit.into(),
            a: x,
            b: y,
            difference: y - x,
            ratio: (x != 0.0).then(|| y / x),
            direction,
        });
    };
    // A figure of both reports.
    let both = |f: &dyn Fn(&Report) -> f64| (f(a), f(b));
    row("GPUs", "", both(&|r| r.summary.gpus as f64), Size);
    row("Racks", "", both(&|r| r.summary.racks as f64), Size);
    row("Switches", "", both(&|r| r.summary.switches as f64), Size);
    let tiers: std::collections::BTreeSet<u8> = a
        .bandwidth
        .switches
        .iter()
        .chain(&b.bandwidth.switches)
        .map(|s| s.tier)
        .collect();
    for t in tiers {
        let count = |r: &Report| r.bandwidth.switches.iter().filter(|s| s.tier == t).count() as f64;
        row(&tier_name(t), "", both(&count), Size);
    }
    row(
        "Cables",
        "",
        (da.links.len() as f64, db.links.len() as f64),
        Size,
    );
    row("Capex", "USD", both(&|r| r.cost.capex_usd), Size);
    row(
        "Opex per year",
        "USD",
        both(&|r| r.cost.opex_usd_per_year),
        Size,
    );
    row("TCO", "USD", both(&|r| r.cost.tco_usd), Size);
    let per_gpu_hour = both(&|r| r.cost.owned_usd_per_gpu_hour);
    row("Owned cost per GPU-hour", "USD", per_gpu_hour, Lower);
    row(
        "All-reduce time",
        "ms",
        both(&|r| r.summary.allreduce_ms),
        Lower,
    );
    row(
        "p99 GPU-to-GPU latency",
        "us",
        both(&|r| r.summary.p99_latency_us),
        Lower,
    );
    row(
        "Bisection bandwidth",
        "Gb/s",
        both(&|r| r.summary.bisection_gbps),
        Size,
    );
    row("IT power", "kW", both(&|r| r.summary.it_power_kw), Size);
    row(
        "Network per GPU",
        "GB/s",
        both(&|r| r.bandwidth.inter_node_gbyte_s),
        Higher,
    );
    row("Errors", "", both(&|r| r.summary.errors as f64), Lower);
    row("Warnings", "", both(&|r| r.summary.warnings as f64), Lower);
    if let (Some(x), Some(y)) = (&a.latency.training, &b.latency.training) {
        row("Training job time", "days", (x.days, y.days), Lower);
        row(
            "Training job GPU-hours",
            "",
            (x.gpu_hours, y.gpu_hours),
            Lower,
        );
        let share = (x.communication_share, y.communication_share);
        row("Time waiting on the network", "share", share, Lower);
    }
    if let (Some(x), Some(y)) = (a.cost.training_job_usd, b.cost.training_job_usd) {
        row("Training job cost, owned", "USD", (x, y), Lower);
    }
    if let (Some(x), Some(y)) = (a.cost.training_job_cloud_usd, b.cost.training_job_cloud_usd) {
        row("Training job cost, cloud", "USD", (x, y), Lower);
    }
    let (fa, fb) = (findings(a), findings(b));
    Comparison {
        a: a.summary.design.clone(),
        b: b.summary.design.clone(),
        a_file: None,
        b_file: None,
        rows,
        bottleneck_a: a.summary.bottleneck.clone(),
        bottleneck_b: b.summary.bottleneck.clone(),
        findings_added: missing_from(&fb, &fa),
        findings_removed: missing_from(&fa, &fb),
    }
}

/// The comparison as a text table.
pub fn render(c: &Comparison) -> String {
    use std::fmt::Write as _;
    let mut o = String::new();
    let _ = writeln!(o, "A: {}\nB: {}\n", c.a_label(), c.b_label());
    let _ = writeln!(
        o,
        "{:<30} {:>16} {:>16} {:>16} {:>8} {:>6}",
        "figure", "A", "B", "B - A", "B / A", "better"
    );
    for r in &c.rows {
        let unit = if r.unit.is_empty() {
            String::new()
        } else {
            format!(" {}", r.unit)
        };
        let _ = writeln!(
            o,
            "{:<30} {:>16} {:>16} {:>16} {:>8} {:>6}",
            format!("{}{unit}", r.figure),
            fmt(r.a),
            fmt(r.b),
            fmt(r.difference),
            r.ratio.map_or("-".into(), |x| format!("{x:.2}x")),
            r.better()
        );
    }
    let _ = writeln!(
        o,
        "\nBottleneck A: {}\nBottleneck B: {}",
        c.bottleneck_a, c.bottleneck_b
    );
    for (title, list) in [
        ("Findings in B, not in A", &c.findings_added),
        ("Findings in A, not in B", &c.findings_removed),
    ] {
        if !list.is_empty() {
            let _ = writeln!(o, "\n{title}:");
            for f in list {
                let _ = writeln!(o, "  {:?} [{}] {}", f.severity, f.code, f.message);
            }
        }
    }
    o
}

fn fmt(x: f64) -> String {
    if x.abs() >= 1000.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(a: f64, b: f64, direction: Direction) -> Row {
        Row {
            figure: String::new(),
            unit: String::new(),
            a,
            b,
            difference: b - a,
            ratio: None,
            direction,
        }
    }

    /// "Better" follows each row's own direction, and a size favours neither side.
    #[test]
    fn better_is_judged_by_the_rows_direction() {
        assert_eq!(row(2.0, 1.0, Direction::Lower).better(), "B"); // 1 ms beats 2 ms
        assert_eq!(row(1.0, 2.0, Direction::Lower).better(), "A");
        assert_eq!(row(25.0, 50.0, Direction::Higher).better(), "B"); // 50 GB/s per GPU beats 25
        assert_eq!(row(50.0, 25.0, Direction::Higher).better(), "A");
        assert_eq!(row(256.0, 128.0, Direction::Size).better(), ""); // half the GPUs is not "better"
        assert_eq!(row(3.0, 3.0, Direction::Lower).better(), "same");
    }

    /// A SuperPOD against itself with one spine removed: the spine row drops by one, the cables by the spine's, and
    /// the findings its loss brings are listed as added in B; swapping moves them to removed.
    #[test]
    fn a_removed_spine_shows_in_the_tier_rows_cables_and_findings() {
        let Ok(a) = crate::samples::sample("superpod-h100-1su") else {
            panic!("sample")
        };
        let ra = crate::analysis::analyze(&a);
        let spine = ra
            .bandwidth
            .switches
            .iter()
            .filter(|s| s.tier == 2)
            .map(|s| s.device)
            .next();
        let Some(spine) = spine else {
            panic!("the 1-SU SuperPOD has spines")
        };
        let spines = ra.bandwidth.switches.iter().filter(|s| s.tier == 2).count();
        let mut b = a.clone();
        b.devices.remove(&spine);
        let before = b.links.len();
        b.links
            .retain(|_, l| l.a.device != spine && l.b.device != spine);
        let spine_cables = before - b.links.len();
        assert!(spine_cables > 0);
        let rb = crate::analysis::analyze(&b);
        let mut c = compare((&a, &ra), (&b, &rb));
        let find = |c: &Comparison, f: &str| {
            c.rows
                .iter()
                .find(|r| r.figure == f)
                .map(|r| (r.a, r.b))
                .unwrap_or((f64::NAN, f64::NAN))
        };
        assert_eq!(
            find(&c, "Spine switches"),
            (spines as f64, spines as f64 - 1.0)
        );
        assert_eq!(
            find(&c, "Cables"),
            (a.links.len() as f64, (a.links.len() - spine_cables) as f64)
        );
        assert!(c.findings_removed.is_empty(), "{:?}", c.findings_removed);
        let added = c.findings_added.len();
        assert!(added > 0, "losing a spine brings a finding");
        c.swap();
        assert_eq!(c.findings_removed.len(), added);
        assert!(c.findings_added.is_empty());
        assert_eq!(
            find(&c, "Spine switches"),
            (spines as f64 - 1.0, spines as f64)
        );
    }
}
