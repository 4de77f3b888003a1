//! The analysis pane's sections below the headline: bandwidth, latency with the NCCL and all-reduce charts, power
//! per rack, sites and availability, the facility and cost.

use super::super::theme::{self, Status};
use super::{Stamp, section};
use crate::analysis::Report;
use crate::analysis::format::{self, usd};
use egui::{Color32, RichText};
use egui_plot::{Bar, BarChart, GridMark, Legend, Line, Plot};

pub(super) fn bandwidth_ui(ui: &mut egui::Ui, stamp: Stamp, r: &Report) {
    section(
        ui,
        stamp,
        egui::CollapsingHeader::new("Bandwidth").id_salt("bandwidth"),
        |ui| {
            // One block per pattern, the limiter wrapped under its figures: a table column clipped it.
            for p in &r.bandwidth.patterns {
                let status =
                    Status::of_achieved(p.achieved_gbyte_s_per_gpu, p.demand_gbyte_s_per_gpu);
                ui.horizontal_wrapped(|ui| {
                    ui.strong(&p.pattern);
                    ui.colored_label(
                        theme::status(ui, status),
                        format!(
                            "{:.1} of {:.1} GB/s per GPU",
                            p.achieved_gbyte_s_per_gpu, p.demand_gbyte_s_per_gpu
                        ),
                    )
                    .on_hover_text(
                        "achieved = min over the hops of (hop capacity / GPUs sharing it); demand from the \
                         traffic parameters",
                    );
                });
                ui.add(
                    egui::Label::new(RichText::new(format!("Limited by: {}", p.limiter)).small())
                        .wrap(),
                );
                ui.add_space(3.0);
            }
            ui.label(format!(
                "Bisection {:.1} Tb/s",
                r.bandwidth.bisection.gbps / 1000.0
            ))
            .on_hover_text(&r.bandwidth.bisection.method);
            let st = &r.bandwidth.storage;
            ui.label(format!(
                "Storage: {} appliances, {:.0} GB/s deliverable, {:.2} GB/s per GPU ({})",
                st.appliances, st.deliverable_gbyte_s, st.per_gpu_gbyte_s, st.limiter
            ))
            .on_hover_text("deliverable = min(rated read, network into the appliances); per GPU = deliverable / GPUs");
        },
    );
}

fn log_fmt(m: GridMark, _r: &std::ops::RangeInclusive<f64>) -> String {
    let v = 10f64.powf(m.value);
    if (m.value - m.value.round()).abs() > 1e-6 {
        return String::new();
    }
    if v >= 1e9 {
        format!("{:.0}G", v / 1e9)
    } else if v >= 1e6 {
        format!("{:.0}M", v / 1e6)
    } else if v >= 1e3 {
        format!("{:.0}k", v / 1e3)
    } else if v >= 1.0 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

pub(super) fn latency_ui(ui: &mut egui::Ui, stamp: Stamp, r: &Report) {
    section(
        ui,
        stamp,
        egui::CollapsingHeader::new("Latency and collectives").id_salt("latency"),
        |ui| {
            ui.label(RichText::new(&r.latency.note).small().weak());
            egui::Grid::new("lat_grid").striped(true).show(ui, |ui| {
                for h in ["Path", "p50 µs", "p99 µs", "p99.9 µs", "hops"] {
                    ui.strong(h);
                }
                ui.end_row();
                for p in &r.latency.paths {
                    ui.label(&p.class);
                    let tip = format!(
                        "software {:.0} + NIC {:.0} + switches {:.0} + serialisation {:.0} + propagation {:.0} ns + queueing (p50 {:.0} / p99 {:.0} / p99.9 {:.0} ns)",
                        p.software_ns, p.nic_ns, p.switch_ns, p.serialisation_ns, p.propagation_ns,
                        p.queue_p50_ns, p.queue_p99_ns, p.queue_p999_ns
                    );
                    ui.label(format!("{:.2}", p.p50_ns / 1000.0)).on_hover_text(&tip);
                    ui.label(format!("{:.2}", p.p99_ns / 1000.0)).on_hover_text(&tip);
                    ui.label(format!("{:.2}", p.p999_ns / 1000.0)).on_hover_text(&tip);
                    ui.label(p.switch_hops.to_string());
                    ui.end_row();
                }
            });
            // Latency percentiles per path class.
            let classes: Vec<String> = r.latency.paths.iter().map(|p| p.class.clone()).collect();
            let mk = |name: &str,
                      k: usize,
                      f: &dyn Fn(&crate::analysis::latency::PathLatency) -> f64,
                      c: Color32| {
                BarChart::new(
                    name,
                    r.latency
                        .paths
                        .iter()
                        .enumerate()
                        .map(|(i, p)| {
                            Bar::new(i as f64 + (k as f64 - 1.0) * 0.25, f(p) / 1000.0).width(0.22)
                        })
                        .collect(),
                )
                .color(c)
            };
            let labels = classes.clone();
            Plot::new("latency_plot")
                .height(150.0)
                .legend(Legend::default())
                .allow_scroll(false)
                .allow_zoom(false)
                .allow_drag(false)
                .y_axis_label("µs")
                .x_grid_spacer(egui_plot::uniform_grid_spacer(|_| [1.0, 5.0, 10.0]))
                .x_axis_formatter(move |m, _| index_label(&labels, m.value))
                .show(ui, |pu| {
                    pu.bar_chart(mk("p50", 0, &|p| p.p50_ns, Color32::from_rgb(90, 160, 230)));
                    pu.bar_chart(mk("p99", 1, &|p| p.p99_ns, Color32::from_rgb(230, 170, 40)));
                    pu.bar_chart(mk(
                        "p99.9",
                        2,
                        &|p| p.p999_ns,
                        Color32::from_rgb(230, 70, 60),
                    ));
                });

            let a = &r.latency.allreduce;
            ui.label(format!(
                "All-reduce of {:.0} MB over {} GPUs in {} nodes: NCCL would run {} in {:.2} ms",
                a.bytes / 1e6,
                a.ranks,
                a.nodes,
                a.best,
                a.best_ms
            ))
            .on_hover_text(
                "NCCL's tuning model (src/graph/tuning.cc) on the design's NVLink and rails; docs/analysis.md, \
                 \"Collectives as NCCL runs them\", and docs/validation.md",
            );
            nccl_alternatives(ui, r);
            nccl_point_to_point(ui, r);
            nccl_plot(ui, r);
            ui.label("Textbook alpha-beta forms, for comparison:")
            .on_hover_text(format!(
                "alpha-beta model: ring 2(p-1)α + 2(p-1)/p·n/β; tree 2·log2(p)(α + n/β); hierarchical: intra reduce-scatter + inter ring of n/g + intra all-gather.\nα intra {:.1} µs, β intra {:.1} GB/s, α inter {:.1} µs, β inter {:.1} GB/s",
                a.alpha_intra_us, a.beta_intra_gbyte_s, a.alpha_inter_us, a.beta_inter_gbyte_s
            ));
            for alg in &a.algorithms {
                ui.label(format!(
                    "  {:<13} {:>9.3} ms   algbw {:.1} GB/s   busbw {:.1} GB/s",
                    alg.algorithm, alg.time_ms, alg.algbw_gbyte_s, alg.busbw_gbyte_s
                ));
            }
            allreduce_plot(ui, r);
        },
    );
}

fn index_label(labels: &[String], v: f64) -> String {
    if (v - v.round()).abs() > 1e-6 || v < 0.0 {
        return String::new();
    }
    labels.get(v.round() as usize).cloned().unwrap_or_default()
}

/// The all-reduce's pick with its band, and the alternatives NCCL would weigh (the report's
/// `latency.nccl.collectives`), fastest first.
fn nccl_alternatives(ui: &mut egui::Ui, r: &Report) {
    let Some(c) = r.latency.nccl.as_ref().and_then(|n| {
        n.collectives
            .iter()
            .find(|c| c.collective == crate::analysis::nccl::Collective::AllReduce)
    }) else {
        return;
    };
    for (i, e) in c.estimates.iter().take(4).enumerate() {
        ui.label(format!(
            "  {} {:<9} {:>7} {:>10.2} ms   busbw {:.1} GB/s ({:.1}-{:.1}){}",
            if Some(i) == c.picked { "▶" } else { " " },
            e.algorithm.name(),
            e.protocol.name(),
            e.time_us / 1e3,
            e.busbw_gbyte_s,
            e.band.busbw_low,
            e.band.busbw_high,
            if e.default_enabled { "" } else { "  (not by default)" }
        ))
        .on_hover_text(
            "Expected value and band: the range published measurements of this class span around it \
             (docs/validation.md)",
        );
    }
}

/// Send/receive between two GPUs, inside a server and across servers (the report's
/// `latency.nccl.point_to_point`), each with its band.
fn nccl_point_to_point(ui: &mut egui::Ui, r: &Report) {
    let Some(n) = &r.latency.nccl else {
        return;
    };
    for f in &n.point_to_point {
        ui.label(format!(
            "  send/recv, {}: {:.1} GB/s ({:.1}-{:.1}), 8 B in {:.1} us",
            f.path.name(),
            f.bandwidth_gbyte_s,
            f.bandwidth_low,
            f.bandwidth_high,
            f.latency_us
        ))
        .on_hover_text(
            "Point-to-point as nccl-tests' sendrecv_perf measures it: a large send's bandwidth and an 8-byte \
             send's time, with the band of their class (docs/validation.md)",
        );
    }
}

/// The expected nccl-tests curve: bus bandwidth of NCCL's pick from 8 B to 16 GiB (the report's
/// `latency.nccl.allreduce_sweep`, the same rows as the `nccl-expect` export), with its band.
fn nccl_plot(ui: &mut egui::Ui, r: &Report) {
    use crate::analysis::nccl::SweepRow;
    let Some(n) = &r.latency.nccl else {
        return;
    };
    let points: Vec<[f64; 2]> = n
        .allreduce_sweep
        .iter()
        .map(|row| [row.bytes.log10(), row.busbw_gbyte_s])
        .collect();
    Plot::new("nccl_sweep_plot")
        .height(150.0)
        .legend(Legend::default())
        .allow_scroll(false)
        .allow_zoom(false)
        .allow_drag(false)
        .x_axis_label("message size (bytes, log)")
        .y_axis_label("busbw GB/s")
        .x_axis_formatter(log_fmt)
        .show(ui, |pu| {
            pu.line(Line::new("expected all_reduce_perf busbw", points));
            for (name, f) in [
                (
                    "band low",
                    (|r: &SweepRow| r.busbw_low) as fn(&SweepRow) -> f64,
                ),
                ("band high", |r: &SweepRow| r.busbw_high),
            ] {
                let pts: Vec<[f64; 2]> = n
                    .allreduce_sweep
                    .iter()
                    .map(|row| [row.bytes.log10(), f(row)])
                    .collect();
                pu.line(Line::new(name, pts).style(egui_plot::LineStyle::dashed_dense()));
            }
        });
}

fn allreduce_plot(ui: &mut egui::Ui, r: &Report) {
    let a = &r.latency.allreduce;
    if a.ranks <= 1 || a.algorithms.is_empty() {
        return;
    }
    // The same curves as the report's table and the HTML export's chart (one model: collectives::allreduce_times).
    let sizes: Vec<f64> = (0..=48).map(|i| 3.0 + f64::from(i) * 7.0 / 48.0).collect();
    let series = |name: &str| -> Vec<[f64; 2]> {
        sizes
            .iter()
            .filter_map(|x| {
                let t = crate::export::charts::allreduce_time(r, name, 10f64.powf(*x))?;
                Some([*x, (t * 1e3).max(1e-6).log10()])
            })
            .collect()
    };
    Plot::new("allreduce_plot")
        .height(170.0)
        .legend(Legend::default())
        .allow_scroll(false)
        .allow_zoom(false)
        .allow_drag(false)
        .x_axis_label("message size (bytes, log)")
        .y_axis_label("ms (log)")
        .x_axis_formatter(log_fmt)
        .y_axis_formatter(log_fmt)
        .show(ui, |pu| {
            for alg in &a.algorithms {
                pu.line(Line::new(alg.algorithm.clone(), series(&alg.algorithm)));
            }
        });
}

pub(super) fn power_ui(ui: &mut egui::Ui, stamp: Stamp, r: &Report) {
    section(
        ui,
        stamp,
        egui::CollapsingHeader::new("Power and space")
            .id_salt("power")
            .default_open(true),
        |ui| {
            ui.label(format!(
                "IT {:.1} kW of {:.1} kW budget; facility {:.1} kW (PUE {}); heat {:.0} BTU/h",
                r.power.it_power_w / 1000.0,
                r.power.budget_w / 1000.0,
                r.power.facility_power_w / 1000.0,
                r.power.pue,
                r.power.heat_btu_h
            ))
            .on_hover_text("heat BTU/h = W × 3.412; facility = IT × PUE");
            let names: Vec<String> = r.power.racks.iter().map(|x| x.name.clone()).collect();
            let budget = BarChart::new(
                "budget",
                r.power
                    .racks
                    .iter()
                    .enumerate()
                    .map(|(i, x)| Bar::new(i as f64, x.budget_w / 1000.0).width(0.8))
                    .collect(),
            )
            .color(Color32::from_gray(110));
            let used = BarChart::new(
                "power",
                r.power
                    .racks
                    .iter()
                    .enumerate()
                    .map(|(i, x)| {
                        let c = theme::use_fill_color(ui, x.utilisation);
                        Bar::new(i as f64, x.power_w / 1000.0).width(0.5).fill(c)
                    })
                    .collect(),
            )
            .color(Color32::from_rgb(90, 180, 90));
            Plot::new("power_plot")
                .height(150.0)
                .legend(Legend::default())
                .allow_scroll(false)
                .allow_zoom(false)
                .allow_drag(false)
                .y_axis_label("kW")
                .x_grid_spacer(egui_plot::uniform_grid_spacer(|_| [1.0, 5.0, 10.0]))
                .x_axis_formatter(move |m, _| index_label(&names, m.value))
                .show(ui, |pu| {
                    pu.bar_chart(budget);
                    pu.bar_chart(used);
                });
            egui::Grid::new("rack_power_grid")
                .striped(true)
                .show(ui, |ui| {
                    for h in ["Rack", "kW", "budget", "kg", "U"] {
                        ui.strong(h);
                    }
                    ui.end_row();
                    for x in shown_racks(&r.power.racks) {
                        ui.label(&x.name);
                        let c = theme::use_text_color(ui, x.utilisation);
                        ui.colored_label(c, format!("{:.1}", x.power_w / 1000.0));
                        ui.label(format!("{:.1}", x.budget_w / 1000.0));
                        ui.label(format!("{:.0}/{:.0}", x.weight_kg, x.max_weight_kg));
                        ui.label(format!("{}/{}", x.units_used, x.units_total));
                        ui.end_row();
                    }
                });
            if let Some(more) = r
                .power
                .racks
                .len()
                .checked_sub(RACK_ROWS)
                .filter(|n| *n > 0)
            {
                ui.weak(format!(
                    "The {RACK_ROWS} racks nearest their budget; {more} more in the chart and the HTML report."
                ));
            }
        },
    );
}

/// Racks listed in the power table: all of them up to this many, else this many nearest their budget (a row per
/// rack of a 1,312-rack design cost the pane about 15 ms a frame and is not read).
const RACK_ROWS: usize = 40;

/// The racks the power table lists: every rack in report order, or the [`RACK_ROWS`] nearest their budget.
fn shown_racks(
    racks: &[crate::analysis::power::RackPower],
) -> Vec<&crate::analysis::power::RackPower> {
    let mut shown: Vec<_> = racks.iter().collect();
    if shown.len() > RACK_ROWS {
        shown.sort_by(|a, b| b.utilisation.total_cmp(&a.utilisation));
        shown.truncate(RACK_ROWS);
    }
    shown
}

/// The sites (designs with sites only): each one's availability, racks and GPUs, the requests it carries and what
/// the others carry when it is lost, and the service's availability against its target. Figures from the report.
pub(super) fn sites_ui(ui: &mut egui::Ui, stamp: Stamp, r: &Report) {
    let st = &r.sites;
    if st.sites.is_empty() {
        return;
    }
    section(
        ui,
        stamp,
        egui::CollapsingHeader::new(format!(
            "Sites and availability ({})",
            format::count(st.sites.len(), "site", "sites")
        ))
        .id_salt("sites")
        .default_open(true),
        |ui| {
            match (st.service_availability, st.availability_target) {
                (Some(a), Some(t)) => {
                    let status = if a + 1e-12 < t {
                        Status::Bad
                    } else {
                        Status::Good
                    };
                    ui.colored_label(
                        theme::status(ui, status),
                        format!(
                            "Service availability {:.3}% (target {:.3}%)",
                            a * 100.0,
                            t * 100.0
                        ),
                    );
                }
                (Some(a), None) => {
                    ui.label(format!(
                        "Service availability {:.3}% (no target set)",
                        a * 100.0
                    ));
                }
                _ => {
                    ui.label(
                    "Service availability: the design serves no requests (set a request rate in Parameters).",
                );
                }
            }
            let demand = st.demand_rps;
            egui::Grid::new("sites_grid").striped(true).show(ui, |ui| {
            for h in ["Site", "up", "racks", "GPUs", "req/s", "if lost"] {
                ui.strong(h);
            }
            ui.end_row();
            for s in &st.sites {
                ui.label(if s.region.trim().is_empty() {
                    s.name.clone()
                } else {
                    format!("{} ({})", s.name, s.region)
                });
                ui.label(format!("{:.3}%", s.availability * 100.0));
                ui.label(s.racks.to_string());
                ui.label(s.gpus.to_string());
                ui.label(s.capacity_rps.map_or("–".into(), |c| format!("{c:.0}")));
                match (s.capacity_without_rps, demand) {
                    (Some(w), Some(d)) => {
                        let status = if w + 1e-9 < d { Status::Bad } else { Status::Good };
                        ui.colored_label(
                            theme::status(ui, status),
                            format!("{w:.0} of {d:.0} req/s left"),
                        )
                        .on_hover_text(format!(
                            "Losing site {}: the other sites carry {w:.0} req/s against a demand of {d:.0}",
                            s.name
                        ));
                    }
                    _ => {
                        ui.label("–");
                    }
                }
                ui.end_row();
            }
        });
        },
    );
}

/// Cooling and facility per site: IT, air and liquid heat, overhead, facility kW and PUE, coolant against the CDUs.
pub(super) fn facility_ui(ui: &mut egui::Ui, stamp: Stamp, r: &Report) {
    let c = &r.cooling;
    section(
        ui,
        stamp,
        egui::CollapsingHeader::new("Cooling and facility")
            .id_salt("facility")
            .default_open(false),
        |ui| {
            ui.label(format!(
                "{:.1} kW on air, {:.1} kW on liquid ({:.0} L/min of coolant); overhead {:.1} kW",
                c.air_kw, c.liquid_kw, c.coolant_l_min, c.overhead_kw
            ))
            .on_hover_text(
                "coolant L/min = kW / (4.18 kJ/(L·K) × ΔT) × 60; overhead = Σ rack IT × (PUE of its cooling mode \
                 and site − 1)",
            );
            egui::Grid::new("facility_grid")
                .striped(true)
                .show(ui, |ui| {
                    for h in ["Site", "IT kW", "facility kW", "PUE", "coolant", "CDUs"] {
                        ui.strong(h);
                    }
                    ui.end_row();
                    // With sites, racks outside every site get a row of their own, and the design's totals a
                    // last row: "all racks" is never a part of them.
                    let with_sites = !r.sites.sites.is_empty();
                    for f in &c.sites {
                        ui.label(if with_sites && f.site.is_empty() {
                            "no site"
                        } else {
                            f.label()
                        });
                        ui.label(format!("{:.1}", f.it_kw));
                        ui.label(format!("{:.1}", f.facility_kw));
                        ui.label(format!("{}", f.pue));
                        ui.label(format!("{:.0} L/min", f.coolant_l_min));
                        let short = f.liquid_kw > f.cdu_capacity_kw + 1e-9;
                        let text = if f.cdus == 0 {
                            "–".to_string()
                        } else {
                            format!("{} · {:.0} kW", f.cdus, f.cdu_capacity_kw)
                        };
                        if short && f.liquid_kw > 0.0 {
                            ui.colored_label(theme::status(ui, theme::Status::Bad), text);
                        } else {
                            ui.label(text);
                        }
                        ui.end_row();
                    }
                    if with_sites {
                        let p = &r.power;
                        ui.strong("all racks");
                        ui.strong(format!("{:.1}", p.it_power_w / 1000.0));
                        ui.strong(format!("{:.1}", p.facility_power_w / 1000.0));
                        ui.strong(format!("{}", p.pue));
                        ui.strong(format!("{:.0} L/min", c.coolant_l_min));
                        let cdus: usize = c.sites.iter().map(|f| f.cdus).sum();
                        ui.strong(if cdus == 0 {
                            "–".to_string()
                        } else {
                            format!("{cdus}")
                        });
                        ui.end_row();
                    }
                });
        },
    );
}

pub(super) fn cost_ui(ui: &mut egui::Ui, stamp: Stamp, r: &Report) {
    let c = &r.cost;
    section(
        ui,
        stamp,
        egui::CollapsingHeader::new("Cost").id_salt("cost"),
        |ui| {
            egui::Grid::new("cost_grid").num_columns(2).show(ui, |ui| {
                let row = |ui: &mut egui::Ui, k: &str, v: String, tip: &str| {
                    ui.label(k);
                    ui.label(v).on_hover_text(tip);
                    ui.end_row();
                };
                row(
                    ui,
                    "Capex",
                    usd(c.capex_usd),
                    "Σ quantity × unit price over the bill of materials",
                );
                row(
                    ui,
                    "Energy / yr",
                    usd(c.energy_usd_per_year),
                    "IT kW × utilisation × PUE × 8760 h × electricity price",
                );
                row(
                    ui,
                    "Colocation / yr",
                    usd(c.colocation_usd_per_year),
                    "IT kW × colocation price per kW-month × 12",
                );
                row(
                    ui,
                    "Support / yr",
                    usd(c.support_usd_per_year),
                    "capex × support share per year",
                );
                row(
                    ui,
                    "Opex / yr",
                    usd(c.opex_usd_per_year),
                    "energy + colocation + support",
                );
                row(
                    ui,
                    "Residual",
                    usd(c.residual_usd),
                    "capex × residual share",
                );
                row(
                    ui,
                    &format!("TCO ({} yr)", c.years),
                    usd(c.tco_usd),
                    &format!("capex - residual + years × opex{}", c.support_note()),
                );
                row(
                    ui,
                    "Owned $/GPU-h",
                    format!("${:.2}", c.owned_usd_per_gpu_hour),
                    "((capex - residual)/years + opex) / (GPUs × 8760 × utilisation)",
                );
                row(
                    ui,
                    "Cloud $/GPU-h",
                    format!("${:.2}", c.cloud_usd_per_gpu_hour),
                    &c.cloud_price_source,
                );
                row(
                    ui,
                    "Break-even",
                    c.break_even.clone(),
                    "capex / (cloud bill − owner running costs) per month; never when running costs reach the cloud bill",
                );
                if let Some(m) = c.usd_per_million_requests {
                    row(
                        ui,
                        "Per 1M requests",
                        format!("${m:.3}"),
                        "owned cost per hour / requests per hour × 1e6",
                    );
                }
            });
            let cats: Vec<String> = c.capex_by_category.keys().cloned().collect();
            let chart = BarChart::new(
                "capex",
                c.capex_by_category
                    .values()
                    .enumerate()
                    .map(|(i, v)| Bar::new(i as f64, v / 1e6).width(0.6))
                    .collect(),
            )
            .color(Color32::from_rgb(46, 125, 200));
            Plot::new("cost_plot")
                .height(150.0)
                .allow_scroll(false)
                .allow_zoom(false)
                .allow_drag(false)
                .y_axis_label("capex, M$")
                .x_grid_spacer(egui_plot::uniform_grid_spacer(|_| [1.0, 5.0, 10.0]))
                .x_axis_formatter(move |m, _| index_label(&cats, m.value))
                .show(ui, |pu| pu.bar_chart(chart));
            egui::CollapsingHeader::new(format!("Bill of materials ({} lines)", c.bom.len()))
                .id_salt("bom")
                .show(ui, |ui| {
                    egui::Grid::new("bom_grid").striped(true).show(ui, |ui| {
                        for l in &c.bom {
                            ui.label(l.quantity.to_string());
                            ui.add(egui::Label::new(&l.name).truncate())
                                .on_hover_text(format!(
                                    "{} · price source: {}",
                                    l.part, l.price_source
                                ));
                            ui.label(usd(l.total_usd));
                            if !l.overridden.is_empty() {
                                ui.colored_label(
                                    super::theme::status(ui, super::theme::Status::Short),
                                    "overridden",
                                )
                                .on_hover_text(l.overridden.join("; "));
                            }
                            ui.end_row();
                        }
                    });
                });
        },
    );
}

/// A training job's failures and checkpoints (`analysis::reliability::lines`, as the HTML report shows them).
pub(super) fn reliability_ui(ui: &mut egui::Ui, stamp: Stamp, r: &Report) {
    let Some(rel) = &r.reliability else {
        return;
    };
    section(
        ui,
        stamp,
        egui::CollapsingHeader::new("Failures and checkpoints").default_open(false),
        |ui| {
            egui::Grid::new("reliability_lines")
                .num_columns(2)
                .show(ui, |ui| {
                    for (k, v) in crate::analysis::reliability::lines(rel) {
                        ui.label(k);
                        ui.add(egui::Label::new(v).wrap());
                        ui.end_row();
                    }
                });
            crate::app::windows::whatif::reliability_levers_ui(ui, rel);
            ui.label(
                egui::RichText::new(
                    "Rates per part from Llama 3's 54 days on 16,384 H100 and Alibaba HPN's network; the band \
                     is Meta's RSC fleets. Interval by Daly (2006); goodput is the share of wall clock that \
                     advances training (docs/analysis.md, \"Failures and checkpoints\").",
                )
                .small()
                .weak(),
            );
        },
    );
}

/// The job the design runs (training days line by line, job cost; serving capacity) and, for a sized design, what
/// it was sized for, from `analysis::job` as the HTML report shows it.
pub(super) fn job_ui(ui: &mut egui::Ui, stamp: Stamp, design: &crate::model::Design, r: &Report) {
    let lines = crate::analysis::job::job_lines(design, r);
    if lines.is_empty() {
        return;
    }
    section(
        ui,
        stamp,
        egui::CollapsingHeader::new("Job").default_open(true),
        |ui| {
            egui::Grid::new("job_lines").num_columns(2).show(ui, |ui| {
                for (k, v) in &lines {
                    ui.label(k);
                    ui.add(egui::Label::new(v).wrap());
                    ui.end_row();
                }
            });
        },
    );
}
