//! Small shared widgets: validated number fields that commit once on Enter or focus loss, and category colours.

use crate::catalog::Category;
use std::collections::HashMap;
use std::ops::RangeInclusive;

/// Colour of a part category on the canvas and in the palette.
pub fn category_color(c: Category) -> egui::Color32 {
    match c {
        Category::Server => egui::Color32::from_rgb(46, 125, 200),
        Category::Gpu => egui::Color32::from_rgb(118, 185, 0),
        Category::Nic => egui::Color32::from_rgb(150, 110, 200),
        Category::Switch => egui::Color32::from_rgb(220, 140, 40),
        Category::Storage => egui::Color32::from_rgb(40, 160, 140),
        Category::Rack => egui::Color32::from_rgb(120, 120, 120),
        Category::Cable => egui::Color32::from_rgb(200, 90, 120),
        Category::Accessory => egui::Color32::from_rgb(140, 140, 100),
    }
}

/// Formats a number for a field without trailing noise.
pub fn fmt_num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else {
        let s = format!("{x:.6}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// A labelled number field. Shows the current value; while focused it keeps what the user types; on Enter or
/// focus loss it parses and validates, returning the new value once (or setting `error`).
pub fn num_field(
    ui: &mut egui::Ui,
    buffers: &mut HashMap<String, String>,
    key: &str,
    label: &str,
    current: f64,
    range: RangeInclusive<f64>,
    error: &mut Option<String>,
) -> Option<f64> {
    let label_resp = ui.label(label);
    let mut text = buffers
        .get(key)
        .cloned()
        .unwrap_or_else(|| fmt_num(current));
    let resp = ui
        .add(
            egui::TextEdit::singleline(&mut text)
                .id_salt(key)
                .desired_width(110.0),
        )
        .labelled_by(label_resp.id);
    ui.end_row();
    if resp.lost_focus() {
        buffers.remove(key);
        let cleaned = text.trim().replace(['_', ','], "");
        match cleaned.parse::<f64>() {
            Ok(v) if v.is_finite() && range.contains(&v) => {
                if (v - current).abs() > f64::EPSILON * current.abs().max(1.0) {
                    return Some(v);
                }
            }
            Ok(v) => {
                *error = Some(format!(
                    "{label}: {} is outside {}..{}",
                    fmt_num(v),
                    fmt_num(*range.start()),
                    fmt_num(*range.end())
                ));
            }
            Err(_) => *error = Some(format!("{label}: \"{}\" is not a number", text.trim())),
        }
    } else if resp.has_focus() {
        buffers.insert(key.to_string(), text);
    } else {
        buffers.remove(key);
    }
    None
}
