//! The comparison window: the open design against another file or a sample, side by side with the differences
//! (the same figures as `racksmith compare`), and its export as HTML or CSV.

use crate::analysis::Report;
use crate::analysis::compare::Comparison;
use crate::app::commands::{AppCommand, FileCommand, Show};
use crate::app::dialogs::CompareFormat;
use crate::app::window::{AppWindow, WindowContext, egui_id};
use crate::model::Design;
use std::sync::Arc;

/// File > Compare with…: the comparison, while one is open (the app shell makes it when a file or sample is
/// chosen).
#[derive(Default)]
pub struct CompareWindow {
    /// The comparison shown.
    pub shown: Option<CompareState>,
}

impl CompareWindow {
    const ID: &'static str = "compare";
    const TITLE: &'static str = "Compare designs";
}

impl AppWindow for CompareWindow {
    fn id(&self) -> &'static str {
        Self::ID
    }

    fn title(&self) -> &'static str {
        Self::TITLE
    }

    fn is_open(&self) -> bool {
        self.shown.is_some()
    }

    /// Opens on a comparison only, which the shell makes from a file; no [`Show`] names it.
    fn open(&mut self, _show: &Show, _ctx: &WindowContext) -> bool {
        false
    }

    fn is_showing(&self, _show: &Show) -> bool {
        false
    }

    fn close(&mut self) {
        self.shown = None;
    }

    fn ui(&mut self, egui_ctx: &egui::Context, ctx: &WindowContext, cmds: &mut Vec<AppCommand>) {
        compare_window_ui(egui_ctx, ctx, &mut self.shown, cmds);
    }
}

/// The comparison window's content: the figures, and both designs with their reports for exporting it.
#[derive(Debug, Clone)]
pub struct CompareState {
    /// The figures side by side.
    pub comparison: crate::analysis::compare::Comparison,
    /// Design A (the open design when the comparison was made).
    pub a_design: Design,
    /// A's analysis, as the comparison's figures were taken from it.
    pub a_report: Arc<Report>,
    /// Design B (the file or sample it was compared with).
    pub b_design: Design,
    /// B's analysis, as the comparison's figures were taken from it.
    pub b_report: Arc<Report>,
    /// The open document's (generation, revision) when the comparison was made: once the open design changes, or
    /// another is opened, the window says A no longer follows it.
    pub made_at: (u64, u64),
    /// Whether A is the open design (false after Swap A and B: then B is).
    pub open_is_a: bool,
}

impl CompareState {
    /// Swaps A and B, figures and designs.
    pub fn swap(&mut self) {
        self.comparison.swap();
        self.open_is_a = !self.open_is_a;
        std::mem::swap(&mut self.a_design, &mut self.b_design);
        std::mem::swap(&mut self.a_report, &mut self.b_report);
    }
}

/// Draws the comparison window when one is open.
fn compare_window_ui(
    egui_ctx: &egui::Context,
    ctx: &WindowContext,
    shown: &mut Option<CompareState>,
    cmds: &mut Vec<AppCommand>,
) {
    let open_now = (ctx.generation, ctx.revision);
    let Some(state) = shown.as_ref() else {
        return;
    };
    let c = &state.comparison;
    let stale = state.made_at != open_now;
    let open_side = if state.open_is_a { "A" } else { "B" };
    let mut open = true;
    let mut swap = false;
    let window = egui::Window::new(CompareWindow::TITLE)
        .id(egui_id(CompareWindow::ID))
        .open(&mut open)
        .resizable(true)
        .default_width(640.0);
    crate::app::widgets::placed(
        window,
        ctx.central_rect,
        crate::app::widgets::WindowSpot::TopCentre,
    )
    .show(egui_ctx, |ui| {
        if stale {
            ui.colored_label(
                crate::app::theme::status(ui, crate::app::theme::Status::Short),
                format!(
                    "The open design has changed since this comparison: {open_side} is the design as it was then. \
                     Compare again to follow it."
                ),
            );
        }
        comparison_ui(ui, c);
        ui.separator();
        ui.horizontal(|ui| {
            if ui.button("Compare with another file…").clicked() {
                cmds.push(FileCommand::CompareWith(None).into());
            }
            ui.menu_button("Compare with a sample", |ui| {
                for s in crate::samples::SAMPLES {
                    if ui.button(s).clicked() {
                        cmds.push(FileCommand::CompareWithSample(s.to_string()).into());
                    }
                }
            });
            swap = ui.button("Swap A and B").clicked();
        });
        ui.horizontal(|ui| {
            if ui
                .button("Export HTML…")
                .on_hover_text(
                    "The comparison as a self-contained page in the review report's style",
                )
                .clicked()
            {
                cmds.push(FileCommand::ExportComparison(CompareFormat::Html).into());
            }
            if ui
                .button("Export CSV…")
                .on_hover_text("Figure, unit, A, B, difference, ratio, better")
                .clicked()
            {
                cmds.push(FileCommand::ExportComparison(CompareFormat::Csv).into());
            }
        });
    });
    if swap && let Some(c) = shown.as_mut() {
        c.swap();
    }
    if !open {
        *shown = None;
    }
}

fn comparison_ui(ui: &mut egui::Ui, c: &Comparison) {
    ui.label(egui::RichText::new(format!("A: {}", c.a_label())).strong());
    ui.label(egui::RichText::new(format!("B: {}", c.b_label())).strong());
    ui.add_space(4.0);
    egui::Grid::new("compare_grid")
        .striped(true)
        .num_columns(6)
        .show(ui, |ui| {
            for h in ["Figure", "A", "B", "B - A", "B / A", "Better"] {
                ui.strong(h);
            }
            ui.end_row();
            for r in &c.rows {
                let unit = if r.unit.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", r.unit)
                };
                ui.label(format!("{}{unit}", r.figure));
                ui.label(fmt(r.a));
                ui.label(fmt(r.b));
                // Green when B is better by the row's own direction, amber when worse; a size is neither.
                let better = r.better();
                let color = match better {
                    "B" => crate::app::theme::status(ui, crate::app::theme::Status::Good),
                    "A" => crate::app::theme::status(ui, crate::app::theme::Status::Short),
                    _ => ui.visuals().text_color(),
                };
                ui.colored_label(color, fmt(r.difference));
                ui.label(r.ratio.map_or("-".into(), |x| format!("{x:.2}x")));
                ui.label(better);
                ui.end_row();
            }
        });
    ui.add_space(4.0);
    ui.label(format!("Bottleneck A: {}", c.bottleneck_a));
    ui.label(format!("Bottleneck B: {}", c.bottleneck_b));
    for (title, list) in [
        ("Findings in B, not in A", &c.findings_added),
        ("Findings in A, not in B", &c.findings_removed),
    ] {
        if list.is_empty() {
            continue;
        }
        ui.add_space(4.0);
        ui.strong(title);
        for f in list {
            ui.label(format!("{:?} [{}] {}", f.severity, f.code, f.message));
        }
    }
}

/// A figure for the table: counts and other whole numbers without decimals ("16 GPUs", not "16.000"), large
/// figures with thousands separators, the rest to at most three decimals without trailing zeros, and never "-0".
fn fmt(x: f64) -> String {
    if !x.is_finite() {
        return "n/a".into();
    }
    let x = if x == 0.0 { 0.0 } else { x };
    if x.abs() >= 1000.0 || (x - x.round()).abs() < 1e-9 {
        let rounded = x.round();
        if rounded == 0.0 {
            return "0".into();
        }
        return crate::analysis::format::thousands(rounded, 0);
    }
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

/// The window this file adds to the registry (src/app/windows/mod.rs lists the file; build.rs the window).
pub type Window = CompareWindow;

#[cfg(test)]
mod tests {
    use super::fmt;

    #[test]
    fn counts_are_whole_and_zero_has_no_sign() {
        assert_eq!(fmt(16.0), "16");
        assert_eq!(fmt(-0.0), "0");
        assert_eq!(fmt(-0.0001), "0");
        assert_eq!(fmt(2.5), "2.5");
        assert_eq!(fmt(0.125), "0.125");
        assert_eq!(fmt(1234.4), "1,234");
        assert_eq!(fmt(-2048.0), "-2,048");
    }
}
