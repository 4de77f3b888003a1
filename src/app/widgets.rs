//! Small shared widgets: validated number fields that commit once on Enter or focus loss, and category colours.

use super::theme::{self, Status};
use crate::catalog::Category;
use egui::RichText;
use std::collections::HashMap;
use std::ops::RangeInclusive;

/// Colour of a part category on the canvas and in the palette: the core's one table ([`Category::rgb`]), which the
/// exported drawings use too.
pub fn category_color(c: Category) -> egui::Color32 {
    let [r, g, b] = c.rgb();
    egui::Color32::from_rgb(r, g, b)
}

/// Opaque fill of a device box of a category: the category colour darkened in the dark theme, lightened in the
/// light theme (a translucent fill would turn pastel on a light canvas); `emphasis` from 0 (plain) to 1
/// (hovered, selected: closer to the category colour). Labels on it use `theme::text_on`.
pub fn category_fill_with(c: Category, dark: bool, emphasis: f32) -> egui::Color32 {
    let base = category_color(c);
    let (toward, amount) = if dark {
        (egui::Color32::BLACK, 0.35)
    } else {
        (egui::Color32::WHITE, 0.45)
    };
    // Never the raw category colour: some (server blue, switch orange) fail 4.5:1 with any label colour.
    let t = amount - 0.2 * emphasis.clamp(0.0, 1.0);
    let mix = |a: u8, b: u8| (f32::from(a) + (f32::from(b) - f32::from(a)) * t).round() as u8;
    egui::Color32::from_rgb(
        mix(base.r(), toward.r()),
        mix(base.g(), toward.g()),
        mix(base.b(), toward.b()),
    )
}

/// Where a window opens the first time: over the central area (the canvas), never over the menu bar or the
/// palette that server internals needs for dragging.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowSpot {
    /// The canvas's top-left corner (server internals: next to the palette it takes parts from).
    TopLeft,
    /// The canvas's top-right corner (parameters: next to the analysis they change).
    TopRight,
    /// Centred at the top of the canvas (compare).
    TopCentre,
    /// The middle of the canvas (help).
    Centre,
}

/// A window placed at a spot of the central area (`central`, last frame's, screen space), narrow enough to fit
/// it; egui remembers where the user moves it from then on.
pub fn placed<'a>(
    window: egui::Window<'a>,
    central: Option<egui::Rect>,
    spot: WindowSpot,
) -> egui::Window<'a> {
    const MARGIN: f32 = 12.0;
    let area = central.unwrap_or_else(|| {
        egui::Rect::from_min_max(egui::pos2(260.0, 70.0), egui::pos2(1100.0, 900.0))
    });
    let inner = area.shrink(MARGIN);
    let (pos, pivot) = match spot {
        WindowSpot::TopLeft => (inner.left_top(), egui::Align2::LEFT_TOP),
        WindowSpot::TopRight => (inner.right_top(), egui::Align2::RIGHT_TOP),
        WindowSpot::TopCentre => (inner.center_top(), egui::Align2::CENTER_TOP),
        WindowSpot::Centre => (inner.center(), egui::Align2::CENTER_CENTER),
    };
    window
        .default_pos(pos)
        .pivot(pivot)
        .max_width(inner.width().max(280.0))
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

/// Narrowest card content; cards widen to share the pane's width.
pub const CARD_MIN_W: f32 = 100.0;
/// A card's frame around its content (margins and stroke).
pub const CARD_FRAME_W: f32 = 18.0;

/// A summary card: a figure, a line under it, and its formula as a tooltip.
pub struct Card {
    /// What the figure is ("Bisection").
    pub title: String,
    /// The figure in its unit ("4.0 of 50.0 GB/s"); "unknown" when the analysis cannot say.
    pub value: String,
    /// The line under it.
    pub sub: String,
    /// Its colour: the worse of its own figure and the findings that concern it.
    pub status: Status,
    /// Its formula and inputs, as a tooltip.
    pub tip: String,
    /// The warnings and errors that concern the card, in a few words ("NICs not cabled").
    pub concerns: String,
}

/// Adds a card with no findings named on it yet.
pub fn card(
    cards: &mut Vec<Card>,
    title: &str,
    value: String,
    sub: String,
    status: Status,
    tip: String,
) {
    cards.push(Card {
        title: title.to_string(),
        value,
        sub,
        status,
        tip,
        concerns: String::new(),
    });
}

/// Draws a card `content_w` wide: title, figure in its status colour, the line under it (wrapped, never cut) and
/// the findings that concern it; the formula as a tooltip.
pub fn card_ui(ui: &mut egui::Ui, c: &Card, content_w: f32) {
    egui::Frame::group(ui.style())
        .inner_margin(egui::Margin::symmetric(8, 4))
        .show(ui, |ui| {
            ui.set_width(content_w);
            ui.set_min_height(52.0);
            ui.vertical(|ui| {
                ui.label(RichText::new(&c.title).small().weak());
                let v = RichText::new(&c.value).strong().size(16.0);
                ui.label(match c.status {
                    Status::Info => v,
                    s => v.color(theme::status(ui, s)),
                });
                // Wrapped, never cut mid-sentence.
                ui.add(egui::Label::new(RichText::new(&c.sub).small()).wrap());
                if !c.concerns.is_empty() {
                    ui.add(
                        egui::Label::new(
                            RichText::new(format!("⚠ {}", c.concerns))
                                .small()
                                .color(theme::status(ui, c.status)),
                        )
                        .wrap(),
                    );
                }
            });
        })
        .response
        .on_hover_text(if c.status == Status::Info {
            c.tip.clone()
        } else {
            format!("{}\n\nStatus: {}", c.tip, c.status.word())
        });
}

#[cfg(test)]
mod palette_tests {
    use super::category_color;
    use crate::catalog::Category;

    fn hex(s: &str) -> [f64; 3] {
        let v = |i: usize| f64::from(u8::from_str_radix(&s[i..i + 2], 16).unwrap_or(0)) / 255.0;
        [v(1), v(3), v(5)]
    }

    fn hue([r, g, b]: [f64; 3]) -> f64 {
        let (max, min) = (r.max(g).max(b), r.min(g).min(b));
        let d = max - min;
        let h = if d == 0.0 {
            0.0
        } else if max == r {
            ((g - b) / d).rem_euclid(6.0)
        } else if max == g {
            (b - r) / d + 2.0
        } else {
            (r - g) / d + 4.0
        };
        h * 60.0
    }

    /// WCAG relative luminance.
    fn luminance(c: [f64; 3]) -> f64 {
        let l = |x: f64| {
            if x <= 0.039_28 {
                x / 12.92
            } else {
                ((x + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * l(c[0]) + 0.7152 * l(c[1]) + 0.0722 * l(c[2])
    }

    /// The exports draw each device in its category's hue on screen (a switch orange in both), dark enough for
    /// white text at WCAG AA: contrast (1.05) / (L + 0.05) >= 4.5.
    #[test]
    fn exports_use_the_apps_hues_with_readable_white_text() {
        let d = crate::samples::sample("dgx-h100-single").unwrap_or_default();
        let of = |part: &str| {
            let dev = d.devices.values().find(|x| x.part.as_str() == part);
            dev.map(|x| crate::export::svg::device_fill(&d, x))
                .unwrap_or_else(|| "#000000".into())
        };
        for (part, cat) in [
            ("dgx-h100", Category::Server),
            ("qm9700", Category::Switch),
            ("ddn-ai400x2", Category::Storage),
        ] {
            let fill = hex(&of(part));
            let app = category_color(cat);
            let app = [app.r(), app.g(), app.b()].map(|x| f64::from(x) / 255.0);
            let dh = (hue(fill) - hue(app)).abs();
            let dh = dh.min(360.0 - dh);
            assert!(
                dh < 25.0,
                "{part}: export hue {} vs app {}",
                hue(fill),
                hue(app)
            );
            let contrast = 1.05 / (luminance(fill) + 0.05);
            assert!(contrast >= 4.5, "{part}: white on its fill {contrast:.2}:1");
        }
    }
}
