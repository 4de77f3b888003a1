//! The comparison window: the open design against another file or a sample, side by side with the differences
//! (the same figures as `racksmith compare`), and its export as HTML or CSV.

use super::commands::{AppCommand, FileCommand};
use super::dialogs::CompareFormat;
use crate::analysis::compare::Comparison;

/// Draws the comparison window when one is open.
pub fn compare_window_ui(
    ctx: &egui::Context,
    windows: &mut crate::app::state::Windows,
    open_now: (u64, u64),
    cmds: &mut Vec<AppCommand>,
) {
    let Some(state) = windows.comparison.as_ref() else {
        return;
    };
    let c = &state.comparison;
    let stale = state.made_at != open_now;
    let open_side = if state.open_is_a { "A" } else { "B" };
    let mut open = true;
    let mut swap = false;
    let window = egui::Window::new("Compare designs")
        .id(crate::app::escape::Closable::Compare.id())
        .open(&mut open)
        .resizable(true)
        .default_width(640.0);
    super::widgets::placed(
        window,
        windows.central_rect,
        super::widgets::WindowSpot::TopCentre,
    )
    .show(ctx, |ui| {
        if stale {
            ui.colored_label(
                super::theme::status(ui, super::theme::Status::Short),
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
    if swap && let Some(c) = windows.comparison.as_mut() {
        c.swap();
    }
    if !open {
        windows.comparison = None;
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
                    "B" => super::theme::status(ui, super::theme::Status::Good),
                    "A" => super::theme::status(ui, super::theme::Status::Short),
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
