//! The Planning window's figures: the big-number cards (GPUs needed, owned against cloud, break-even, TCO, p99,
//! all-reduce) and the charts under them, drawn from the report the sliders moved.

use crate::analysis::Report;
use crate::analysis::format::usd;
use crate::analysis::scenarios;
use crate::app::theme::Status;
use crate::app::widgets::{Card, card, card_ui};
use crate::model::Design;

/// The big-number cards: GPUs needed, owned against cloud $/GPU-h, break-even, TCO, p99 and all-reduce.
pub(super) fn cards_ui(ui: &mut egui::Ui, design: &Design, r: &Report) {
    let h = scenarios::Headline::of(r);
    let mut cards: Vec<Card> = Vec::new();
    let serving = r.latency.serving.as_ref();
    match (serving, h.gpus_needed) {
        (Some(s), Some(n)) => card(
            &mut cards,
            "GPUs needed",
            format!("{n} GPUs"),
            format!("{} in the design", h.gpus),
            if n as usize <= h.gpus {
                Status::Good
            } else {
                Status::Bad
            },
            format!(
                "replicas = ceil(request rate / (replica throughput × planned utilisation)) = {} at {:.0}% (the lower of the target and the most that keeps p99 under {} ms); GPUs = replicas × GPUs per replica",
                s.replicas_needed.unwrap_or(0),
                s.planned_utilisation * 100.0,
                s.target_ms
            ),
        ),
        (Some(s), None) => card(
            &mut cards,
            "GPUs needed",
            "unreachable".into(),
            format!("no utilisation meets {} ms", s.target_ms),
            Status::Bad,
            "The replica's own service time and the network already exceed the latency target."
                .into(),
        ),
        (None, _) => card(
            &mut cards,
            "GPUs needed",
            format!("{} GPUs", h.gpus),
            "no service set (Parameters)".into(),
            Status::Info,
            "Switch on inference serving in Edit > Parameters to size the GPUs for a request rate."
                .into(),
        ),
    }
    let cost_status = crate::app::analysis_pane::owned_cost_status(
        h.owned_usd_per_gpu_hour,
        h.cloud_usd_per_gpu_hour,
        h.gpus,
    );
    card(
        &mut cards,
        "$/GPU-h owned vs cloud",
        format!(
            "${:.2} vs ${:.2}",
            h.owned_usd_per_gpu_hour, h.cloud_usd_per_gpu_hour
        ),
        r.cost.cloud_price_source.clone(),
        cost_status,
        crate::app::analysis_pane::owned_cost_formula(r, design.params.utilisation_target, h.gpus),
    );
    card(
        &mut cards,
        "Break-even",
        if h.break_even_months.is_finite() {
            format!("{:.1} months", h.break_even_months)
        } else {
            "never".into()
        },
        "owning against cloud on demand".into(),
        if h.break_even_months.is_finite() {
            Status::Info
        } else {
            Status::Bad
        },
        r.cost.break_even.clone(),
    );
    card(
        &mut cards,
        "TCO",
        usd(h.tco_usd),
        format!("over {} years{}", r.cost.years, r.cost.support_note()),
        Status::Info,
        format!(
            "TCO = capex - residual + years × opex = {} - {} + {} × {}\nopex = energy {} + colocation {} + support {} per year",
            usd(r.cost.capex_usd),
            usd(r.cost.residual_usd),
            r.cost.years,
            usd(r.cost.opex_usd_per_year),
            usd(r.cost.energy_usd_per_year),
            usd(r.cost.colocation_usd_per_year),
            usd(r.cost.support_usd_per_year)
        ),
    );
    p99_card(&mut cards, &h, r.latency.utilisation);
    card(
        &mut cards,
        "All-reduce",
        format!("{:.2} ms", h.allreduce_ms),
        format!(
            "{} of {}",
            r.latency.allreduce.best,
            scenarios::bytes_text(r.latency.allreduce.bytes)
        ),
        Status::Info,
        format!("All-reduce time: {}.", r.latency.allreduce.method()),
    );
    let spacing = ui.spacing().item_spacing.x;
    let width = ui.available_width();
    let per_row = 3;
    let content_w = ((width + spacing) / per_row as f32 - spacing - 18.0).max(100.0);
    for row in cards.chunks(per_row) {
        ui.horizontal(|ui| {
            for c in row {
                card_ui(ui, c, content_w);
            }
        });
    }
}

fn p99_card(cards: &mut Vec<Card>, h: &scenarios::Headline, link_utilisation: f64) {
    match (h.serving_p99_ms, h.serving_target_ms) {
        (Some(p99), Some(target)) => card(
            cards,
            "p99",
            if p99.is_finite() {
                format!("{p99:.1} ms")
            } else {
                "saturated".into()
            },
            format!("target {target:.0} ms"),
            if p99 <= target { Status::Good } else { Status::Bad },
            "p99 time in system of a replica (M/M/1 at the planned utilisation) plus the network p99 of the nearest path.".into(),
        ),
        _ => card(
            cards,
            "p99",
            if h.network_p99_us.is_finite() {
                format!("{:.2} µs", h.network_p99_us)
            } else {
                "saturated".into()
            },
            format!(
                "network, worst path class, links {:.0}% loaded",
                link_utilisation * 100.0
            ),
            Status::Info,
            "Worst p99 over path classes of the latency message at the planned utilisation.".into(),
        ),
    }
}

/// Cumulative cost of owning against renting by month (where the lines cross is the break-even), and the cost of
/// a used GPU-hour for each way to get the GPUs.
pub(super) fn charts_ui(ui: &mut egui::Ui, r: &Report) {
    use egui_plot::{Bar, BarChart, Legend, Line, Plot, PlotPoints};
    let c = &r.cost;
    let months = (c.years * 12.0).ceil().max(12.0) as u32;
    let cloud_month = c
        .options
        .iter()
        .find(|o| o.kind == crate::analysis::cost::Acquisition::CloudOnDemand)
        .map_or(0.0, |o| o.usd_per_year / 12.0);
    let owned: Vec<[f64; 2]> = (0..=months)
        .map(|m| {
            [
                f64::from(m),
                (c.capex_usd + c.opex_usd_per_year / 12.0 * f64::from(m)) / 1e6,
            ]
        })
        .collect();
    let cloud: Vec<[f64; 2]> = (0..=months)
        .map(|m| [f64::from(m), cloud_month * f64::from(m) / 1e6])
        .collect();
    let names: Vec<crate::analysis::cost::Acquisition> = c.options.iter().map(|o| o.kind).collect();
    let bars = BarChart::new(
        "$/GPU-h used",
        c.options
            .iter()
            .enumerate()
            .map(|(i, o)| Bar::new(i as f64, o.usd_per_used_gpu_hour).width(0.7))
            .collect(),
    );
    let half = (ui.available_width() - ui.spacing().item_spacing.x) / 2.0;
    ui.horizontal(|ui| {
        Plot::new("planning_cumulative")
            .width(half)
            .height(150.0)
            .legend(Legend::default().position(egui_plot::Corner::RightBottom))
            .allow_scroll(false)
            .allow_zoom(false)
            .allow_drag(false)
            .x_axis_label("months")
            .y_axis_label("cumulative $M")
            .show(ui, |pu| {
                pu.line(Line::new("owned", PlotPoints::new(owned)));
                pu.line(Line::new(
                    crate::analysis::cost::Acquisition::CloudOnDemand.label(),
                    PlotPoints::new(cloud),
                ));
            });
        Plot::new("planning_options")
            .width(half)
            .height(150.0)
            .allow_scroll(false)
            .allow_zoom(false)
            .allow_drag(false)
            .y_axis_label("$ per GPU-h used")
            .x_grid_spacer(egui_plot::uniform_grid_spacer(|_| [1.0, 5.0, 10.0]))
            .x_axis_formatter(move |m, _| short_option(&names, m.value))
            .show(ui, |pu| pu.bar_chart(bars));
    });
}

fn short_option(names: &[crate::analysis::cost::Acquisition], v: f64) -> String {
    if (v - v.round()).abs() > 1e-6 || v < 0.0 {
        return String::new();
    }
    names
        .get(v.round() as usize)
        .map_or(String::new(), |k| k.short_label().to_string())
}
