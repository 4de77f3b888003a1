//! The app's colours for both themes: status colours (good / short / bad / info) chosen so that text in them
//! meets WCAG AA (4.5:1) on the panel background of each theme, text colours for labels drawn on filled boxes,
//! and the one place that turns a load or utilisation into a status. The contrast formula lives here too, with
//! tests over every pair the app draws text with.

use egui::Color32;

/// How a figure stands against its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Meets its target (balanced, within budget).
    Good,
    /// Somewhat short of its target, or close to a limit.
    Short,
    /// Far short of its target, or over a limit.
    Bad,
    /// A figure with no target to meet (neutral colour).
    Info,
}

impl Status {
    /// Status of an achieved figure against its target when more is better: good from 99%, short from half,
    /// bad below half (or nothing at all).
    pub fn of_achieved(achieved: f64, target: f64) -> Self {
        if target <= 0.0 {
            return Status::Info;
        }
        let ratio = achieved / target;
        if !ratio.is_finite() || ratio < 0.5 {
            Status::Bad
        } else if ratio < 0.99 {
            Status::Short
        } else {
            Status::Good
        }
    }

    /// Status of a use against a limit (power against budget, link load against capacity): good to 90%, short
    /// to 100%, bad beyond.
    pub fn of_use(utilisation: f64) -> Self {
        if utilisation > 1.0 {
            Status::Bad
        } else if utilisation > 0.9 {
            Status::Short
        } else {
            Status::Good
        }
    }

    /// Words for the status, for tooltips and accessibility.
    pub fn word(self) -> &'static str {
        match self {
            Status::Good => "on target",
            Status::Short => "short",
            Status::Bad => "far short or over",
            Status::Info => "",
        }
    }
}

/// Text colour of a status in the dark (`dark` = true) or light theme: readable (4.5:1) on that theme's panels.
pub fn status_color(status: Status, dark: bool) -> Color32 {
    match (status, dark) {
        (Status::Good, true) => Color32::from_rgb(110, 205, 120),
        (Status::Short, true) => Color32::from_rgb(240, 180, 60),
        (Status::Bad, true) => Color32::from_rgb(255, 120, 110),
        (Status::Info, true) => Color32::from_rgb(120, 175, 240),
        (Status::Good, false) => Color32::from_rgb(25, 115, 45),
        (Status::Short, false) => Color32::from_rgb(150, 85, 0),
        (Status::Bad, false) => Color32::from_rgb(185, 30, 30),
        (Status::Info, false) => Color32::from_rgb(25, 90, 170),
    }
}

/// Stroke colour of a link (canvas and fabric) by its load against capacity: grey idle, green to 50%, yellow
/// to 80%, orange to 100%, red beyond. `alpha` scales the translucency (busier links are more opaque).
pub fn load_color(utilisation: Option<f64>, alpha: f32) -> Color32 {
    let (r, g, b, a): (u8, u8, u8, u8) = match utilisation {
        None => (150, 170, 200, 45),
        Some(u) if u <= 0.0 => (150, 170, 200, 45),
        Some(u) if u <= 0.5 => (90, 200, 120, 110),
        Some(u) if u <= 0.8 => (230, 200, 60, 140),
        Some(u) if u <= 1.0 + 1e-6 => (240, 140, 40, 150),
        Some(_) => (235, 60, 50, 220),
    };
    let a = (f32::from(a) * alpha).clamp(0.0, 255.0) as u8;
    Color32::from_rgba_unmultiplied(r, g, b, a)
}

/// Weak (hint) text of the dark theme: egui's default blends the text colour at 60% and lands near 3.5:1.
pub const DARK_WEAK_TEXT: Color32 = Color32::from_gray(150);
/// Normal text of the dark theme, a step brighter than egui's default so weak text stays distinguishable.
pub const DARK_TEXT: Color32 = Color32::from_gray(200);
/// Weak (hint) text of the light theme.
pub const LIGHT_WEAK_TEXT: Color32 = Color32::from_gray(100);

/// Makes both themes' text meet 4.5:1: weak text gets a colour of its own instead of a translucent blend. The
/// text cursor stays lit instead of blinking: a blink is two repaints a second for as long as a field has focus,
/// and under software rendering each one costs a whole frame (docs/analysis.md, "Idle CPU").
pub fn apply(ctx: &egui::Context) {
    ctx.style_mut_of(egui::Theme::Dark, |s| {
        s.visuals.widgets.noninteractive.fg_stroke.color = DARK_TEXT;
        s.visuals.weak_text_color = Some(DARK_WEAK_TEXT);
        s.visuals.text_cursor.blink = false;
    });
    ctx.style_mut_of(egui::Theme::Light, |s| {
        s.visuals.weak_text_color = Some(LIGHT_WEAK_TEXT);
        s.visuals.text_cursor.blink = false;
    });
    // No fades or slides: each one repaints the whole window every frame for its duration (0.2 s, about 14 frames
    // at 60 Hz for a menu opening), and under software rendering each of those frames is a full raster (issue 38).
    // Menus, popups, tooltips, collapsing headers and windows appear and go at once.
    // egui waits for the pointer's smoothed velocity to reach zero before starting a tooltip's delay, repainting
    // every frame meanwhile (6 frames after each move over a rack, `tooltip.rs`'s "wait for mouse to stop"); the
    // delay since the last movement alone (0.5 s) keeps tooltips from showing while the pointer moves, at one frame.
    ctx.all_styles_mut(|s| {
        s.animation_time = 0.0;
        s.interaction.show_tooltips_only_when_still = false;
    });
}

/// Status text colour for the theme a `Ui` shows.
pub fn status(ui: &egui::Ui, status: Status) -> Color32 {
    status_color(status, ui.visuals().dark_mode)
}

/// Text colour of a use against its limit (rack power, weight, units): the theme's text colour up to 90%,
/// amber to 100%, red beyond. The one place these thresholds live for text (links: [`load_color`]).
pub fn use_text_color(ui: &egui::Ui, utilisation: f64) -> Color32 {
    match Status::of_use(utilisation) {
        Status::Good | Status::Info => ui.visuals().text_color(),
        s => status(ui, s),
    }
}

/// Fill of a bar in a chart of uses against limits: the status colour, green when within.
pub fn use_fill_color(ui: &egui::Ui, utilisation: f64) -> Color32 {
    status(ui, Status::of_use(utilisation))
}

/// Text colour of a finding's severity.
pub fn severity(ui: &egui::Ui, s: crate::analysis::Severity) -> Color32 {
    use crate::analysis::Severity;
    status(
        ui,
        match s {
            Severity::Error => Status::Bad,
            Severity::Warning => Status::Short,
            Severity::Info => Status::Info,
        },
    )
}

/// `color` darkened (on a light background) or lightened (on a dark one) just enough to be read on `bg` at
/// 4.5:1: category colours as text keep their hue.
pub fn readable(color: Color32, bg: Color32) -> Color32 {
    let toward = if relative_luminance(bg) > 0.18 {
        Color32::BLACK
    } else {
        Color32::WHITE
    };
    let mut c = Color32::from_rgb(color.r(), color.g(), color.b());
    for step in 0..=20 {
        if contrast_ratio(c, bg) >= 4.5 {
            break;
        }
        let t = f32::from(step as u8 + 1) / 20.0;
        c = lerp_rgb(color, toward, t);
    }
    c
}

fn lerp_rgb(a: Color32, b: Color32, t: f32) -> Color32 {
    let mix = |x: u8, y: u8| (f32::from(x) + (f32::from(y) - f32::from(x)) * t).round() as u8;
    Color32::from_rgb(mix(a.r(), b.r()), mix(a.g(), b.g()), mix(a.b(), b.b()))
}

/// Text colour for a label drawn on a filled box: near-black on light fills, white on dark ones, whichever
/// contrasts more.
pub fn text_on(fill: Color32) -> Color32 {
    let dark_text = Color32::from_gray(10);
    if contrast_ratio(dark_text, fill) >= contrast_ratio(Color32::WHITE, fill) {
        dark_text
    } else {
        Color32::WHITE
    }
}

/// WCAG 2.x relative luminance of an sRGB colour (alpha ignored), 0 for black to 1 for white.
pub fn relative_luminance(c: Color32) -> f64 {
    let lin = |v: u8| {
        let s = f64::from(v) / 255.0;
        if s <= 0.04045 {
            s / 12.92
        } else {
            ((s + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c.r()) + 0.7152 * lin(c.g()) + 0.0722 * lin(c.b())
}

/// WCAG 2.x contrast ratio between two colours, 1 to 21.
pub fn contrast_ratio(a: Color32, b: Color32) -> f64 {
    let (la, lb) = (relative_luminance(a), relative_luminance(b));
    let (hi, lo) = if la >= lb { (la, lb) } else { (lb, la) };
    (hi + 0.05) / (lo + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    const AA: f64 = 4.5;

    #[test]
    fn contrast_matches_a_hand_calculation() {
        // White on black: (1 + 0.05) / (0 + 0.05) = 21.
        assert!((contrast_ratio(Color32::WHITE, Color32::BLACK) - 21.0).abs() < 1e-9);
        // Grey 119 (#777777): s = 119/255 = 0.46667; linear = ((0.46667 + 0.055)/1.055)^2.4 = 0.18447;
        // luminance = 0.18447 (r = g = b). Against white: 1.05 / (0.18447 + 0.05) = 4.478, just under AA:
        // the well-known "#777 on white fails AA" case.
        let grey = Color32::from_gray(119);
        assert!((relative_luminance(grey) - 0.18447).abs() < 1e-4);
        assert!((contrast_ratio(grey, Color32::WHITE) - 4.478).abs() < 1e-3);
        // Symmetric.
        assert_eq!(
            contrast_ratio(grey, Color32::WHITE),
            contrast_ratio(Color32::WHITE, grey)
        );
    }

    /// Every status colour is readable on the panel, window and faint backgrounds of its theme.
    #[test]
    fn status_colours_meet_aa_on_both_themes() {
        for (dark, visuals) in [
            (true, egui::Visuals::dark()),
            (false, egui::Visuals::light()),
        ] {
            let backgrounds = [
                visuals.panel_fill,
                visuals.window_fill,
                visuals.extreme_bg_color,
            ];
            for s in [Status::Good, Status::Short, Status::Bad, Status::Info] {
                for bg in backgrounds {
                    let c = status_color(s, dark);
                    let r = contrast_ratio(c, bg);
                    assert!(r >= AA, "{s:?} {c:?} on {bg:?} (dark {dark}): {r:.2}");
                }
            }
        }
    }

    /// The themes' text, weak text included, as [`apply`] sets them, on panels and text fields.
    #[test]
    fn theme_text_meets_aa() {
        let ctx = egui::Context::default();
        apply(&ctx);
        for theme in [egui::Theme::Dark, egui::Theme::Light] {
            ctx.set_theme(theme);
            let v = ctx.global_style().visuals.clone();
            for bg in [v.panel_fill, v.window_fill, v.extreme_bg_color] {
                for fg in [v.text_color(), v.weak_text_color()] {
                    let r = contrast_ratio(fg, bg);
                    assert!(r >= AA, "{theme:?}: {fg:?} on {bg:?}: {r:.2}");
                }
            }
        }
    }

    /// Labels on the category fills of the canvas get whichever of near-black and white reads better, and
    /// that always meets AA for the app's fills.
    #[test]
    fn labels_on_category_fills_meet_aa() {
        for cat in crate::catalog::Category::ALL {
            for dark in [true, false] {
                for emphasis in [0.0, 0.5, 1.0] {
                    let fill = super::super::widgets::category_fill_with(cat, dark, emphasis);
                    let r = contrast_ratio(text_on(fill), fill);
                    assert!(r >= AA, "{cat:?} dark {dark} emphasis {emphasis}: {r:.2}");
                }
            }
        }
    }

    /// Canvas text on what it is drawn over: rack names, their power (a status colour) and unit numbers on a rack's
    /// frame, which is the theme's faint colour added onto the canvas (`extreme_bg_color` + 5 grey, saturating).
    #[test]
    fn canvas_text_meets_aa_on_racks_in_both_themes() {
        // Hand calculation, dark theme: a rack is grey 10 + 5 = grey 15: s = 15/255 = 0.0588, linear
        // ((0.0588 + 0.055)/1.055)^2.4 = 0.00478. Weak text, grey 150: s = 0.5882, linear
        // ((0.5882 + 0.055)/1.055)^2.4 = 0.3050. Ratio (0.3050 + 0.05) / (0.00478 + 0.05) = 6.48.
        let rack_dark = Color32::from_gray(15);
        assert!((contrast_ratio(DARK_WEAK_TEXT, rack_dark) - 6.48).abs() < 0.01);
        let ctx = egui::Context::default();
        apply(&ctx);
        for (theme, dark) in [(egui::Theme::Dark, true), (egui::Theme::Light, false)] {
            ctx.set_theme(theme);
            let v = ctx.global_style().visuals.clone();
            let [r, g, b, _] = v.extreme_bg_color.to_array();
            let add = |c: u8| c.saturating_add(5);
            let rack = Color32::from_rgb(add(r), add(g), add(b));
            let mut pairs = vec![("text", v.text_color()), ("weak", v.weak_text_color())];
            for s in [Status::Good, Status::Short, Status::Bad] {
                pairs.push((s.word(), status_color(s, dark)));
            }
            for (what, fg) in pairs {
                let ratio = contrast_ratio(fg, rack);
                assert!(
                    ratio >= AA,
                    "{theme:?}: {what} {fg:?} on {rack:?}: {ratio:.2}"
                );
            }
        }
    }

    #[test]
    fn readable_reaches_aa_on_both_themes() {
        for bg in [
            egui::Visuals::dark().panel_fill,
            egui::Visuals::light().panel_fill,
        ] {
            for cat in crate::catalog::Category::ALL {
                let c = readable(super::super::widgets::category_color(cat), bg);
                assert!(contrast_ratio(c, bg) >= AA, "{cat:?} on {bg:?}");
            }
        }
    }

    #[test]
    fn statuses_follow_their_targets() {
        assert_eq!(Status::of_achieved(50.0, 50.0), Status::Good);
        assert_eq!(Status::of_achieved(40.0, 50.0), Status::Short);
        assert_eq!(Status::of_achieved(50.0 / 8.0, 50.0), Status::Bad);
        assert_eq!(Status::of_achieved(0.0, 50.0), Status::Bad);
        assert_eq!(Status::of_use(0.5), Status::Good);
        assert_eq!(Status::of_use(0.95), Status::Short);
        assert_eq!(Status::of_use(1.2), Status::Bad);
    }
}
