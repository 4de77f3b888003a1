//! The report's charts as inline SVG: power per rack against budget, the cost breakdown, all-reduce time against
//! message size, and latency percentiles by path class. Axes are labelled with units; values are from the report.

use super::svg::{Svg, fit};
use crate::analysis::{Report, collectives};

const W: f64 = 760.0;
const INK: &str = "#1a1a1a";
const GRID: &str = "#d9dde3";
const MUTED: &str = "#555555";

/// A "nice" axis maximum: 1, 2 or 5 times a power of ten at or above `x`.
pub fn nice_max(x: f64) -> f64 {
    if !(x.is_finite() && x > 0.0) {
        return 1.0;
    }
    let p = 10f64.powf(x.log10().floor());
    for m in [1.0, 2.0, 5.0, 10.0] {
        if m * p >= x * 0.999_999 {
            return m * p;
        }
    }
    10.0 * p
}

/// Horizontal bars: label, value, optional marker (budget), colour per bar; the title names the unit.
fn hbars(title: &str, rows: &[(String, f64, Option<f64>, &str)]) -> String {
    let bar_h = 18.0;
    let left = 210.0;
    let right = 90.0;
    let h = 60.0 + rows.len() as f64 * (bar_h + 8.0) + 30.0;
    let mut svg = Svg::new(W, h);
    svg.bold(10.0, 22.0, 15.0, "start", INK, title);
    let max = nice_max(
        rows.iter()
            .map(|r| r.1.max(r.2.unwrap_or(0.0)))
            .fold(0.0, f64::max),
    );
    let plot_w = W - left - right;
    let top = 40.0;
    for k in 0..=4 {
        let v = max * f64::from(k) / 4.0;
        let x = left + plot_w * f64::from(k) / 4.0;
        svg.line(x, top, x, h - 30.0, GRID, 1.0);
        svg.text(x, h - 14.0, 11.0, "middle", MUTED, &compact(v));
    }
    for (i, (label, v, marker, colour)) in rows.iter().enumerate() {
        let y = top + 6.0 + i as f64 * (bar_h + 8.0);
        svg.text(left - 8.0, y + 13.0, 12.0, "end", INK, &fit(label, 30));
        svg.rect(
            left,
            y,
            plot_w * (v / max).clamp(0.0, 1.05),
            bar_h,
            colour,
            colour,
        );
        let end = v.max(marker.unwrap_or(0.0));
        svg.text(
            left + plot_w * (end / max).clamp(0.0, 1.05) + 5.0,
            y + 13.0,
            11.0,
            "start",
            INK,
            &compact(*v),
        );
        if let Some(m) = marker {
            let x = left + plot_w * (m / max).clamp(0.0, 1.0);
            svg.line(x, y - 3.0, x, y + bar_h + 3.0, "#b3261e", 2.5);
        }
    }
    svg.finish(title)
}

/// Numbers for axes and labels: thousands separated, at most three significant decimals for small values.
pub fn compact(v: f64) -> String {
    if v.abs() >= 1000.0 {
        crate::analysis::format::thousands(v, 0)
    } else if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else if v.abs() >= 10.0 {
        format!("{v:.1}")
    } else if v == 0.0 {
        "0".into()
    } else {
        format!("{v:.2}")
    }
}

/// Power per rack against its budget (the red mark), kW. Identical racks are one bar with a count.
pub fn power_chart(report: &Report) -> String {
    let mut rows: Vec<(String, f64, Option<f64>, &str)> = Vec::new();
    let racks = &report.power.racks;
    if racks.len() <= 30 {
        for r in racks {
            let over = r.power_w > r.budget_w;
            rows.push((
                r.name.clone(),
                r.power_w / 1000.0,
                Some(r.budget_w / 1000.0),
                if over { "#d22f27" } else { "#2f5f9e" },
            ));
        }
    } else {
        let mut groups: Vec<((i64, i64), Vec<&str>)> = Vec::new();
        for r in racks {
            let key = (r.power_w.round() as i64, r.budget_w.round() as i64);
            match groups.iter_mut().find(|g| g.0 == key) {
                Some(g) => g.1.push(r.name.as_str()),
                None => groups.push((key, vec![r.name.as_str()])),
            }
        }
        for ((p, b), names) in groups {
            let label = format!("{} ×{}", super::hostlist::compress(&names), names.len());
            rows.push((
                label,
                p as f64 / 1000.0,
                Some(b as f64 / 1000.0),
                if p > b { "#d22f27" } else { "#2f5f9e" },
            ));
        }
    }
    hbars("Power per rack (kW) against budget (red mark)", &rows)
}

/// Facility power per site: IT kW and facility kW (IT plus cooling and overhead), the red mark at the CDU capacity
/// where the site has liquid-cooled racks.
pub fn facility_chart(report: &Report) -> String {
    let mut rows: Vec<(String, f64, Option<f64>, &str)> = Vec::new();
    for s in &report.cooling.sites {
        let name = s.label();
        rows.push((format!("{name}: IT"), s.it_kw, None, "#2f5f9e"));
        if s.liquid_kw > 0.0 {
            rows.push((
                format!("{name}: liquid heat vs CDUs"),
                s.liquid_kw,
                Some(s.cdu_capacity_kw),
                if s.liquid_kw > s.cdu_capacity_kw {
                    "#d22f27"
                } else {
                    "#1f6f8b"
                },
            ));
        }
        rows.push((format!("{name}: facility"), s.facility_kw, None, "#c77d14"));
    }
    hbars(
        "Facility power per site (kW): IT, liquid heat against CDU capacity (red mark), facility",
        &rows,
    )
}

/// Capex by category and yearly opex by component, USD.
pub fn cost_chart(report: &Report) -> String {
    let c = &report.cost;
    let mut rows: Vec<(String, f64, Option<f64>, &str)> = c
        .capex_by_category
        .iter()
        .map(|(k, v)| (format!("Capex: {k}"), *v, None, "#2f5f9e"))
        .collect();
    rows.push((
        "Opex/yr: energy".into(),
        c.energy_usd_per_year,
        None,
        "#c77d14",
    ));
    rows.push((
        "Opex/yr: colocation".into(),
        c.colocation_usd_per_year,
        None,
        "#c77d14",
    ));
    rows.push((
        "Opex/yr: support".into(),
        c.support_usd_per_year,
        None,
        "#c77d14",
    ));
    hbars(
        "Cost breakdown (USD): capex by category, opex per year",
        &rows,
    )
}

/// All-reduce time for one algorithm at `bytes`, seconds, from the alpha-beta figures the report used
/// (the same [`collectives::allreduce_times`] the analysis runs).
pub fn allreduce_time(report: &Report, algorithm: &str, bytes: f64) -> Option<f64> {
    let a = &report.latency.allreduce;
    let p = a.ranks as f64;
    let g = p / (a.nodes.max(1) as f64);
    collectives::allreduce_times(
        p,
        g,
        a.nodes,
        bytes,
        a.alpha_intra_us * 1e-6,
        a.beta_intra_gbyte_s * 1e9,
        a.alpha_inter_us * 1e-6,
        a.beta_inter_gbyte_s * 1e9,
    )
    .into_iter()
    .find(|(name, _)| *name == algorithm)
    .map(|(_, t)| t)
}

/// All-reduce time against message size (1 MB to 10 GB, log-log), one line per algorithm the report models.
pub fn allreduce_chart(report: &Report) -> String {
    let h = 340.0;
    let (left, right, top, bottom) = (80.0, 150.0, 40.0, 50.0);
    let mut svg = Svg::new(W, h);
    let title = format!(
        "All-reduce time against message size ({} GPUs)",
        report.latency.allreduce.ranks
    );
    svg.bold(10.0, 22.0, 15.0, "start", INK, &title);
    let sizes: Vec<f64> = (0..=40)
        .map(|i| 1e6 * 10f64.powf(f64::from(i) / 10.0))
        .collect();
    let colours = ["#2f5f9e", "#c77d14", "#2b7a4b", "#7a4b94"];
    let series: Vec<(String, Vec<(f64, f64)>)> = report
        .latency
        .allreduce
        .algorithms
        .iter()
        .filter_map(|alg| {
            let pts: Vec<(f64, f64)> = sizes
                .iter()
                .filter_map(|&n| {
                    allreduce_time(report, &alg.algorithm, n)
                        .filter(|t| *t > 0.0 && t.is_finite())
                        .map(|t| (n, t * 1e3))
                })
                .collect();
            (!pts.is_empty()).then(|| (alg.algorithm.clone(), pts))
        })
        .collect();
    if series.is_empty() {
        svg.text(
            left,
            h / 2.0,
            13.0,
            "start",
            MUTED,
            "No all-reduce: the design needs at least two GPUs with a path between them.",
        );
        return svg.finish(&title);
    }
    let tmin = series
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.1))
        .fold(f64::INFINITY, f64::min);
    let tmax = series
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.1))
        .fold(0.0, f64::max);
    let (ylo, yhi) = (
        tmin.log10().floor(),
        tmax.log10().ceil().max(tmin.log10().floor() + 1.0),
    );
    let (xlo, xhi) = (6.0, 10.0);
    let pw = W - left - right;
    let ph = h - top - bottom;
    let px = |n: f64| left + (n.log10() - xlo) / (xhi - xlo) * pw;
    let py = |t: f64| top + ph - (t.log10() - ylo) / (yhi - ylo) * ph;
    for (k, label) in ["1 MB", "10 MB", "100 MB", "1 GB", "10 GB"]
        .iter()
        .enumerate()
    {
        let x = left + pw * k as f64 / 4.0;
        svg.line(x, top, x, top + ph, GRID, 1.0);
        svg.text(x, h - 28.0, 11.0, "middle", MUTED, label);
    }
    svg.text(
        left + pw / 2.0,
        h - 10.0,
        11.0,
        "middle",
        MUTED,
        "message size",
    );
    let mut e = ylo;
    while e <= yhi + 1e-9 {
        let y = py(10f64.powf(e));
        svg.line(left, y, left + pw, y, GRID, 1.0);
        svg.text(
            left - 6.0,
            y + 4.0,
            11.0,
            "end",
            MUTED,
            &format!("{} ms", compact(10f64.powf(e))),
        );
        e += 1.0;
    }
    for (i, (name, pts)) in series.iter().enumerate() {
        let colour = colours.get(i % colours.len()).copied().unwrap_or(INK);
        let line: Vec<(f64, f64)> = pts.iter().map(|(n, t)| (px(*n), py(*t))).collect();
        svg.polyline(&line, colour, 2.5);
        let ly = top + 14.0 + i as f64 * 20.0;
        svg.line(
            W - right + 14.0,
            ly - 4.0,
            W - right + 40.0,
            ly - 4.0,
            colour,
            3.0,
        );
        svg.text(W - right + 46.0, ly, 12.0, "start", INK, name);
    }
    let m = report.latency.allreduce.bytes;
    if m > 0.0 && (1e6..=1e10).contains(&m) {
        let x = px(m);
        svg.line(x, top, x, top + ph, "#b3261e", 1.5);
        svg.text(
            x + 4.0,
            top + 12.0,
            11.0,
            "start",
            "#b3261e",
            "design's message size",
        );
    }
    svg.finish(&title)
}

/// p50, p99 and p99.9 GPU-to-GPU latency by path class, microseconds.
pub fn latency_chart(report: &Report) -> String {
    let paths = &report.latency.paths;
    let group_h = 3.0 * 14.0 + 14.0;
    let h = 70.0 + paths.len().max(1) as f64 * group_h + 30.0;
    let left = 210.0;
    let right = 110.0;
    let mut svg = Svg::new(W, h);
    let title = "GPU-to-GPU latency by path (µs): p50, p99, p99.9";
    svg.bold(10.0, 22.0, 15.0, "start", INK, title);
    if paths.is_empty() {
        svg.text(left, 60.0, 13.0, "start", MUTED, "No GPU-to-GPU paths.");
        return svg.finish(title);
    }
    let max = nice_max(paths.iter().map(|p| p.p999_ns / 1000.0).fold(0.0, f64::max));
    let pw = W - left - right;
    let top = 50.0;
    for k in 0..=4 {
        let x = left + pw * f64::from(k) / 4.0;
        svg.line(x, top - 6.0, x, h - 30.0, GRID, 1.0);
        svg.text(
            x,
            h - 14.0,
            11.0,
            "middle",
            MUTED,
            &compact(max * f64::from(k) / 4.0),
        );
    }
    let series = [("p50", "#2f5f9e"), ("p99", "#c77d14"), ("p99.9", "#b3261e")];
    for (s, (name, colour)) in series.iter().enumerate() {
        let x = W - right + 10.0;
        let y = 40.0 + s as f64 * 16.0;
        svg.rect(x, y - 9.0, 12.0, 10.0, colour, colour);
        svg.text(x + 16.0, y, 11.0, "start", INK, name);
    }
    for (i, p) in paths.iter().enumerate() {
        let y0 = top + i as f64 * group_h;
        svg.text(left - 8.0, y0 + 24.0, 12.0, "end", INK, &fit(&p.class, 30));
        for (k, v) in [p.p50_ns, p.p99_ns, p.p999_ns].iter().enumerate() {
            let us = v / 1000.0;
            let y = y0 + k as f64 * 14.0;
            let colour = series.get(k).map_or(INK, |s| s.1);
            let w = pw * (us / max).clamp(0.0, 1.0);
            svg.rect(left, y, w, 12.0, colour, colour);
            svg.text(left + w + 4.0, y + 10.0, 10.0, "start", INK, &compact(us));
        }
    }
    svg.finish(title)
}
