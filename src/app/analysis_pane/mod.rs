//! The analysis pane: summary cards, then bandwidth, latency, power, cost and findings sections with egui_plot
//! charts. Every figure has a tooltip with its formula and inputs. The previous report stays visible, marked
//! "updating", while a new one is computed.

use super::commands::{AppCommand, UiCommand};
use super::selection::FitTarget;
use super::theme;
use super::widgets::{CARD_FRAME_W, CARD_MIN_W, card_ui};
use crate::analysis::pattern::Pattern;
use crate::analysis::{Report, Severity};
use crate::model::Design;
use egui::RichText;

mod cards;
mod sections;

use cards::summary_cards;
pub use cards::{CardView, card_views};
pub(super) use cards::{owned_cost_formula, owned_cost_status};
use sections::*;

/// Draws the analysis pane.
pub fn analysis_ui(
    ui: &mut egui::Ui,
    design: &Design,
    report: Option<&Report>,
    stale: bool,
    pattern: Pattern,
    generation: u64,
    cmds: &mut Vec<AppCommand>,
) {
    ui.horizontal(|ui| {
        ui.heading("Analysis");
        if stale {
            ui.spinner();
            ui.label(RichText::new("updating…").weak());
        }
    });
    let Some(r) = report else {
        ui.label("Analysing…");
        return;
    };
    let width = ui.available_width() - 14.0;
    // Both axes: a wide table must scroll, not widen the side panel over the canvas.
    egui::ScrollArea::both()
        // A new design starts at the top (its headline), whatever the last one was scrolled to.
        .id_salt(("analysis_scroll", generation))
        .auto_shrink([false, false])
        .show(ui, |ui| {
            // Wrap text and cards at the pane's width; only tables wider than that scroll sideways.
            let layout = egui::Layout::top_down(egui::Align::Min);
            ui.allocate_ui_with_layout(egui::vec2(width, 0.0), layout, |ui| {
                let cards = summary_cards(design, r, pattern);
                // Frames in a wrapped layout do not wrap (their size is known only after drawing): rows by hand.
                let spacing = ui.spacing().item_spacing.x;
                let per_row = (((width + spacing) / (CARD_MIN_W + CARD_FRAME_W + spacing)).floor()
                    as usize)
                    .max(1);
                let content_w =
                    ((width + spacing) / per_row as f32 - spacing - CARD_FRAME_W).min(160.0);
                for row in cards.chunks(per_row) {
                    ui.horizontal(|ui| {
                        for c in row {
                            card_ui(ui, c, content_w);
                        }
                    });
                }
                ui.add_space(4.0);
                job_ui(ui, design, r);
                reliability_ui(ui, r);
                findings_ui(ui, r, cmds);
                bandwidth_ui(ui, r);
                latency_ui(ui, r);
                power_ui(ui, r);
                sites_ui(ui, r);
                facility_ui(ui, r);
                cost_ui(ui, r);
            });
        });
}

fn findings_ui(ui: &mut egui::Ui, r: &Report, cmds: &mut Vec<AppCommand>) {
    let s = &r.summary;
    egui::CollapsingHeader::new(format!(
        "Findings: {} errors, {} warnings, {} info",
        s.errors, s.warnings, s.infos
    ))
    .id_salt("findings")
    .default_open(true)
    .show(ui, |ui| {
        if r.findings.is_empty() {
            ui.label("No findings.");
        }
        for (i, f) in r.findings.iter().enumerate() {
            ui.horizontal_top(|ui| {
                let tag = match f.severity {
                    Severity::Error => "ERROR",
                    Severity::Warning => "WARN",
                    Severity::Info => "INFO",
                };
                ui.label(
                    RichText::new(tag)
                        .strong()
                        .color(theme::severity(ui, f.severity)),
                );
                let resp = ui
                    .add(
                        egui::Label::new(&f.message)
                            .wrap()
                            .sense(egui::Sense::click()),
                    )
                    .on_hover_text(format!(
                        "[{}] fix: {}\nClick to select and frame what it concerns.",
                        f.code, f.fix
                    ));
                if resp.clicked() {
                    cmds.push(UiCommand::SelectFinding(i).into());
                    cmds.push(UiCommand::Fit(FitTarget::Selection).into());
                }
            });
        }
    });
}
