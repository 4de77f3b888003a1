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
    (generation, report_revision): (u64, u64),
    cmds: &mut Vec<AppCommand>,
) {
    // What the sections' sizes depend on: the report (of this document).
    let stamp = (generation, report_revision);
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
                job_ui(ui, stamp, design, r);
                reliability_ui(ui, stamp, r);
                findings_ui(ui, stamp, r, cmds);
                bandwidth_ui(ui, stamp, r);
                latency_ui(ui, stamp, r);
                power_ui(ui, stamp, r);
                sites_ui(ui, stamp, r);
                facility_ui(ui, stamp, r);
                cost_ui(ui, stamp, r);
            });
        });
}

/// What a section's size depends on: the document's generation and the report's revision.
type Stamp = (u64, u64);

/// A section of the pane: its header, always drawn (it is what the user scrolls to and clicks), and its body through
/// [`lazy_body`].
fn section(
    ui: &mut egui::Ui,
    stamp: Stamp,
    header: egui::CollapsingHeader,
    body: impl FnOnce(&mut egui::Ui),
) {
    header.show(ui, |ui| lazy_body(ui, stamp, body));
}

/// Draws a section's body; or, when it was drawn for the same report (`stamp`, from the report's revision) at the same
/// width and its room would now be out of view, only takes that room. The sections below the fold then cost no
/// layout and no shapes a frame (at 128 SU the rack power chart alone is 2,600 bars), and the scroll extent stays
/// that of the drawn pane. A body scrolled into view is drawn, and measured again, in the same frame.
fn lazy_body(ui: &mut egui::Ui, stamp: Stamp, body: impl FnOnce(&mut egui::Ui)) {
    let id = ui.scope_id().with("lazy_body");
    let width = ui.available_width().to_bits();
    let known = ui.data(|d| d.get_temp::<(Stamp, u32, egui::Vec2)>(id));
    if let Some((s, w, size)) = known
        && (s, w) == (stamp, width)
        && !ui.is_rect_visible(egui::Rect::from_min_size(ui.cursor().min, size))
    {
        ui.allocate_space(size);
        return;
    }
    let size = ui.scope(body).response.rect.size();
    ui.data_mut(|d| d.insert_temp(id, (stamp, width, size)));
}

fn findings_ui(ui: &mut egui::Ui, stamp: Stamp, r: &Report, cmds: &mut Vec<AppCommand>) {
    let s = &r.summary;
    let header = egui::CollapsingHeader::new(format!(
        "Findings: {} errors, {} warnings, {} info",
        s.errors, s.warnings, s.infos
    ))
    .id_salt("findings")
    .default_open(true);
    section(ui, stamp, header, |ui| {
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
