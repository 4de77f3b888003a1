//! The links of a zoomed-out canvas, bundled: one curve per pair of racks with links between them (and one loop per
//! rack for the links inside it), as wide and opaque as it has links and coloured by the most loaded of them. A
//! 128-SU design has 117k links; drawn one by one at a zoom where they cannot be told apart, they cost tens of
//! milliseconds a frame and show nothing. The bundles are computed once per design revision with the layout, their
//! loads once per report and traffic pattern.

use super::layout::Layout;
use crate::analysis::Report;
use crate::app::theme;
use crate::model::{Design, RackId};
use egui::emath::TSTransform;
use egui::epaint::QuadraticBezierShape;
use egui::{Color32, Pos2, Rect, Stroke, pos2, vec2};
use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

/// Below this zoom a design with more than [`BUNDLE_ABOVE_LINKS`] links shows bundles instead of links.
const BUNDLE_BELOW_ZOOM: f32 = 0.75;
/// Designs with at most this many links show them one by one down to [`ALWAYS_BUNDLE_BELOW_ZOOM`] (a one-SU
/// SuperPOD has about 500: its cables stay readable when the design is fitted).
const BUNDLE_ABOVE_LINKS: usize = 2_000;
/// Below this zoom every design shows bundles.
const ALWAYS_BUNDLE_BELOW_ZOOM: f32 = 0.2;

/// Whether links show as bundles at this zoom for a design with `links` links.
pub(super) fn bundled(zoom: f32, links: usize) -> bool {
    zoom < ALWAYS_BUNDLE_BELOW_ZOOM || (zoom < BUNDLE_BELOW_ZOOM && links > BUNDLE_ABOVE_LINKS)
}

/// The links between two racks (or inside one), drawn as one curve.
pub struct Bundle {
    /// The two racks, in layout order (the same rack twice for the links inside a rack).
    pub racks: (RackId, RackId),
    /// How many links.
    pub count: usize,
    /// The curve's start, control point and end, canvas space.
    pub curve: [Pos2; 3],
    /// Box around the curve, canvas space.
    pub bounds: Rect,
}

impl Bundle {
    /// The middle of the curve, canvas space.
    pub fn midpoint(&self) -> Pos2 {
        let [a, c, b] = self.curve;
        // A quadratic Bézier at t = 1/2: a/4 + c/2 + b/4.
        pos2(
            0.25 * a.x + 0.5 * c.x + 0.25 * b.x,
            0.25 * a.y + 0.5 * c.y + 0.25 * b.y,
        )
    }
}

/// The bundles of a design revision, and which bundle each of the layout's links is in.
#[derive(Default)]
pub struct Bundles {
    /// One per pair of racks with links, in order of first link.
    pub list: Vec<Bundle>,
    /// Index into `list` for each of `Layout::links`, in the same order.
    bundle_of_link: Vec<u32>,
    /// The most links in one bundle (scales width and opacity).
    max_count: usize,
}

impl Bundles {
    /// Groups the layout's links by the pair of racks they join: one pass over the links.
    pub fn new(layout: &Layout, design: &Design) -> Self {
        let rack_of: HashMap<_, usize> = design
            .devices
            .iter()
            .filter_map(|(id, d)| Some((*id, *layout.rack_index.get(&d.rack)?)))
            .collect();
        let mut index: HashMap<(usize, usize), u32> = HashMap::default();
        let mut counts: Vec<((usize, usize), usize)> = Vec::new();
        let mut bundle_of_link = Vec::with_capacity(layout.links.len());
        for l in &layout.links {
            let (Some(&a), Some(&b)) = (rack_of.get(&l.a), rack_of.get(&l.b)) else {
                bundle_of_link.push(u32::MAX);
                continue;
            };
            let key = (a.min(b), a.max(b));
            let i = *index.entry(key).or_insert_with(|| {
                counts.push((key, 0));
                (counts.len() - 1) as u32
            });
            if let Some(c) = counts.get_mut(i as usize) {
                c.1 += 1;
            }
            bundle_of_link.push(i);
        }
        let list: Vec<Bundle> = counts
            .into_iter()
            .filter_map(|((a, b), count)| {
                let (ga, gb) = (layout.racks.get(a)?, layout.racks.get(b)?);
                let curve = curve_between(ga.mount, gb.mount);
                let bounds = Rect::from_points(&curve);
                Some(Bundle {
                    racks: (ga.id, gb.id),
                    count,
                    curve,
                    bounds,
                })
            })
            .collect();
        let max_count = list.iter().map(|b| b.count).max().unwrap_or(0);
        Self {
            list,
            bundle_of_link,
            max_count,
        }
    }

    /// The highest utilisation among each bundle's links under a pattern: one merge of the layout's links with
    /// the report's (both in link id order).
    fn worst_loads(&self, layout: &Layout, report: &Report, pattern: usize) -> Vec<Option<f64>> {
        let mut worst: Vec<Option<f64>> = vec![None; self.list.len()];
        let mut ours = layout.links.iter().zip(&self.bundle_of_link).peekable();
        for load in &report.bandwidth.routing.links {
            while ours.next_if(|(l, _)| l.id < load.link).is_some() {}
            let Some((_, &bundle)) = ours.next_if(|(l, _)| l.id == load.link) else {
                continue;
            };
            let u = load.loads_gbps.get(pattern).copied().unwrap_or(0.0)
                / load.capacity_gbps.max(1e-12);
            if let Some(w) = worst.get_mut(bundle as usize) {
                *w = Some(w.map_or(u, |w: f64| w.max(u)));
            }
        }
        worst
    }
}

/// The curve of a bundle between two racks' mounting areas, canvas space: a loop out of the right side for a
/// rack's own links, an arc over the row for racks side by side, a gentle bow between rows (so bundles that share
/// a line stay apart).
fn curve_between(a: Rect, b: Rect) -> [Pos2; 3] {
    if a == b {
        let x = a.right();
        let (p, q) = (
            pos2(x, a.top() + a.height() / 3.0),
            pos2(x, a.bottom() - a.height() / 3.0),
        );
        return [p, pos2(x + a.width() * 0.8, a.center().y), q];
    }
    let (p, q) = (a.center(), b.center());
    let d = q - p;
    if d.y.abs() < 1.0 {
        let control = pos2((p.x + q.x) / 2.0, a.top() - 0.25 * d.x.abs() - 40.0);
        return [p, control, q];
    }
    let bow = vec2(-d.y, d.x) * 0.12;
    [p, p + d / 2.0 + bow, q]
}

/// Which layout and report the bundles' loads were computed from: the design and report revisions and the pattern.
pub(super) type LoadsKey = (u64, u64, usize);

/// The worst load of each bundle for a report and pattern, kept until either changes (one pass over the links).
fn worst_loads_of(
    ctx: &egui::Context,
    layout: &Layout,
    report: Option<&Report>,
    key: LoadsKey,
) -> Option<Arc<Vec<Option<f64>>>> {
    let report = report?;
    let id = egui::Id::unique("racksmith_canvas_bundle_loads");
    let cached: Option<(LoadsKey, Arc<Vec<Option<f64>>>)> = ctx.data(|d| d.get_temp(id));
    if let Some((k, loads)) = cached
        && k == key
    {
        return Some(loads);
    }
    let loads = Arc::new(layout.bundles.worst_loads(layout, report, key.2));
    ctx.data_mut(|d| d.insert_temp(id, (key, loads.clone())));
    Some(loads)
}

/// What the bundles of one frame look like on screen.
struct Drawn {
    /// Index into the bundle list, the curve (screen space) and its stroke width.
    shown: Vec<(usize, [Pos2; 3], f32)>,
}

/// Draws the bundles in view; returns how many were drawn and the one under the pointer, if any.
pub(super) fn paint_bundles(
    painter: &egui::Painter,
    (layout, t, visible): (&Layout, TSTransform, Rect),
    (report, key): (Option<&Report>, LoadsKey),
    pointer: Option<Pos2>,
) -> (usize, Option<usize>) {
    let bundles = &layout.bundles;
    let loads = worst_loads_of(painter.ctx(), layout, report, key);
    let max = bundles.max_count.max(1) as f32;
    let mut drawn = Drawn { shown: Vec::new() };
    for (i, b) in bundles.list.iter().enumerate() {
        if !b.bounds.intersects(visible) {
            continue;
        }
        let share = (b.count as f32 / max).sqrt();
        let width = 1.0 + 7.0 * share;
        let load = loads.as_ref().and_then(|l| l.get(i).copied().flatten());
        let [r, g, bl, _] = theme::load_color(load.or(Some(0.0)), 1.0).to_srgba_unmultiplied();
        let alpha = (70.0 + 150.0 * share) as u8;
        let curve = b.curve.map(|p| t * p);
        painter.add(QuadraticBezierShape::from_points_stroke(
            curve,
            false,
            Color32::TRANSPARENT,
            Stroke::new(width, Color32::from_rgba_unmultiplied(r, g, bl, alpha)),
        ));
        drawn.shown.push((i, curve, width));
    }
    let hovered = pointer.and_then(|p| drawn.under(p));
    (drawn.shown.len(), hovered)
}

impl Drawn {
    /// The bundle whose curve passes nearest a screen point, within a few points of its edge.
    fn under(&self, p: Pos2) -> Option<usize> {
        const STEPS: usize = 16;
        let mut best: Option<(f32, usize)> = None;
        for (i, curve, width) in &self.shown {
            let reach = width / 2.0 + 3.0;
            if !Rect::from_points(curve).expand(reach).contains(p) {
                continue;
            }
            let shape = QuadraticBezierShape::from_points_stroke(
                *curve,
                false,
                Color32::TRANSPARENT,
                Stroke::NONE,
            );
            let points: Vec<Pos2> = (0..=STEPS)
                .map(|k| shape.sample(k as f32 / STEPS as f32))
                .collect();
            let d = points
                .windows(2)
                .filter_map(|w| match w {
                    [a, b] => Some(distance_to_segment(p, *a, *b)),
                    _ => None,
                })
                .fold(f32::INFINITY, f32::min);
            if d <= reach && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, *i));
            }
        }
        best.map(|(_, i)| i)
    }
}

fn distance_to_segment(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_sq().max(1e-6)).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}

/// The hover text of a bundle: "312 links, rack C001 ↔ N001", with the worst load.
pub(super) fn bundle_tooltip_ui(
    ui: &mut egui::Ui,
    design: &Design,
    layout: &Layout,
    (report, key): (Option<&Report>, LoadsKey),
    index: usize,
) {
    let Some(b) = layout.bundles.list.get(index) else {
        return;
    };
    let name = |id: RackId| design.racks.get(&id).map_or("?", |r| r.name.as_str());
    let plural = if b.count == 1 { "link" } else { "links" };
    if b.racks.0 == b.racks.1 {
        ui.strong(format!(
            "{} {plural} within rack {}",
            b.count,
            name(b.racks.0)
        ));
    } else {
        ui.strong(format!(
            "{} {plural}, rack {} ↔ {}",
            b.count,
            name(b.racks.0),
            name(b.racks.1)
        ));
    }
    let load =
        worst_loads_of(ui.ctx(), layout, report, key).and_then(|l| l.get(index).copied().flatten());
    if let Some(u) = load {
        ui.label(format!("Most loaded: {:.0}% of its capacity", u * 100.0));
    }
    ui.weak("Zoom in to see the links one by one.");
}
