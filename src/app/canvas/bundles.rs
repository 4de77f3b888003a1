//! The links of a zoomed-out canvas, bundled: one curve per pair of racks with links between them (and one loop per
//! rack for the links inside it), as wide and opaque as it has links and coloured by the most loaded of them; further
//! out, where a rack is a few points wide, one arc per pair of rows in the margin right of the rows (an arc diagram).
//! A 128-SU design has 117k links; drawn one by one at a zoom where they cannot be told apart, they cost tens of
//! milliseconds a frame and show nothing. The bundles are computed once per layout, their loads once per report and
//! traffic pattern.

use super::layout::Layout;
use crate::analysis::Report;
use crate::app::theme;
use crate::model::{Design, RackId};
use egui::emath::TSTransform;
use egui::epaint::CubicBezierShape;
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

/// Below this zoom (a rack narrower than about 50 points) bundles join rows rather than racks.
const ROWS_BELOW_ZOOM: f32 = 0.3;

/// Whether links show as bundles at this zoom for a design with `links` links.
pub(super) fn bundled(zoom: f32, links: usize) -> bool {
    zoom < ALWAYS_BUNDLE_BELOW_ZOOM || (zoom < BUNDLE_BELOW_ZOOM && links > BUNDLE_ABOVE_LINKS)
}

/// What a bundle joins.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Ends {
    /// Two racks, in layout order (the same rack twice for the links inside a rack).
    Racks(RackId, RackId),
    /// Two rows, each given by its first and last rack (the same row twice for the links inside a row).
    Rows((RackId, RackId), (RackId, RackId)),
}

/// The links between two racks or rows (or inside one), drawn as one curve.
pub struct Bundle {
    /// What it joins.
    pub ends: Ends,
    /// How many links.
    pub count: usize,
    /// The curve (a cubic Bézier), canvas space.
    pub curve: [Pos2; 4],
    /// Box around the curve, canvas space.
    pub bounds: Rect,
}

impl Bundle {
    fn new(ends: Ends, count: usize, curve: [Pos2; 4]) -> Self {
        Self {
            ends,
            count,
            curve,
            bounds: Rect::from_points(&curve),
        }
    }

    /// The middle of the curve, canvas space.
    pub fn midpoint(&self) -> Pos2 {
        let [a, b, c, d] = self.curve;
        // A cubic Bézier at t = 1/2: (a + 3b + 3c + d) / 8.
        pos2(
            (a.x + 3.0 * b.x + 3.0 * c.x + d.x) / 8.0,
            (a.y + 3.0 * b.y + 3.0 * c.y + d.y) / 8.0,
        )
    }
}

/// The bundles of a layout, and which bundle each of the layout's links is in.
#[derive(Default)]
pub struct Bundles {
    /// One per pair of racks with links, in order of first link.
    pub racks: Vec<Bundle>,
    /// One per pair of rows with links.
    pub rows: Vec<Bundle>,
    /// Index into `racks` for each of `Layout::links`, in the same order.
    rack_bundle_of_link: Vec<u32>,
    /// Index into `rows` for each of `racks`.
    row_bundle_of: Vec<u32>,
}

/// Which bundles: per pair of racks, or per pair of rows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Level {
    /// Per pair of racks.
    Racks,
    /// Per pair of rows.
    Rows,
}

impl Level {
    /// The level drawn at a zoom.
    pub fn at(zoom: f32) -> Self {
        if zoom < ROWS_BELOW_ZOOM {
            Self::Rows
        } else {
            Self::Racks
        }
    }
}

impl Bundles {
    /// Groups the layout's links by the pair of racks they join (one pass over the links), then those by rows.
    pub fn new(layout: &Layout, design: &Design) -> Self {
        let rack_of: HashMap<_, usize> = design
            .devices
            .iter()
            .filter_map(|(id, d)| Some((*id, *layout.rack_index.get(&d.rack)?)))
            .collect();
        let mut index: HashMap<(usize, usize), u32> = HashMap::default();
        let mut counts: Vec<((usize, usize), usize)> = Vec::new();
        let mut rack_bundle_of_link = Vec::with_capacity(layout.links.len());
        for l in &layout.links {
            let (Some(&a), Some(&b)) = (rack_of.get(&l.a), rack_of.get(&l.b)) else {
                rack_bundle_of_link.push(u32::MAX);
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
            rack_bundle_of_link.push(i);
        }
        // Every index handed out above is a position in `counts`, and every rack index is in `layout.racks`.
        let racks: Vec<Bundle> = counts
            .into_iter()
            .filter_map(|((a, b), count)| {
                let (ga, gb) = (layout.racks.get(a)?, layout.racks.get(b)?);
                let curve = curve_between(ga.mount, gb.mount);
                Some(Bundle::new(Ends::Racks(ga.id, gb.id), count, curve))
            })
            .collect();
        let (rows, row_bundle_of) = rows_of(layout, &racks);
        Self {
            racks,
            rows,
            rack_bundle_of_link,
            row_bundle_of,
        }
    }

    /// The bundles of a level.
    pub fn at(&self, level: Level) -> &[Bundle] {
        match level {
            Level::Racks => &self.racks,
            Level::Rows => &self.rows,
        }
    }

    /// The highest utilisation among each bundle's links under a pattern: one merge of the layout's links with
    /// the report's (both in link id order).
    fn worst_loads(&self, layout: &Layout, report: &Report, pattern: usize) -> Loads {
        let mut racks: Vec<Option<f64>> = vec![None; self.racks.len()];
        let mut ours = layout
            .links
            .iter()
            .zip(&self.rack_bundle_of_link)
            .peekable();
        for load in &report.bandwidth.routing.links {
            while ours.next_if(|(l, _)| l.id < load.link).is_some() {}
            let Some((_, &bundle)) = ours.next_if(|(l, _)| l.id == load.link) else {
                continue;
            };
            let u = load.loads_gbps.get(pattern).copied().unwrap_or(0.0)
                / load.capacity_gbps.max(1e-12);
            raise(racks.get_mut(bundle as usize), u);
        }
        let mut rows: Vec<Option<f64>> = vec![None; self.rows.len()];
        for (u, row) in racks.iter().zip(&self.row_bundle_of) {
            if let Some(u) = u {
                raise(rows.get_mut(*row as usize), *u);
            }
        }
        Loads { racks, rows }
    }
}

/// Raises a bundle's worst load to `u`.
fn raise(worst: Option<&mut Option<f64>>, u: f64) {
    if let Some(w) = worst {
        *w = Some(w.map_or(u, |w| w.max(u)));
    }
}

/// The curve of a bundle between two racks' mounting areas, canvas space: a loop out of the right side for a
/// rack's own links, an arc over the row for racks side by side, a gentle bow between rows (so bundles that share
/// a line stay apart).
fn curve_between(a: Rect, b: Rect) -> [Pos2; 4] {
    if a == b {
        let x = a.right();
        let (p, q) = (
            pos2(x, a.top() + a.height() / 3.0),
            pos2(x, a.bottom() - a.height() / 3.0),
        );
        let out = vec2(a.width() * 0.6, 0.0);
        return [p, p + out, q + out, q];
    }
    let (p, q) = (a.center(), b.center());
    let d = q - p;
    let control = if d.y.abs() < 1.0 {
        pos2((p.x + q.x) / 2.0, a.top() - 0.25 * d.x.abs() - 40.0)
    } else {
        p + d / 2.0 + vec2(-d.y, d.x) * 0.12
    };
    // The quadratic Bézier through `control`, as a cubic.
    [
        p,
        p + (control - p) * (2.0 / 3.0),
        q + (control - q) * (2.0 / 3.0),
        q,
    ]
}

/// The rows' bundles, from the racks' (one pass over the rack bundles): arcs in the margin right of the rows, from
/// the right end of one row to the other's, reaching further out the further apart the rows are, so that they nest.
/// Returns them with the row bundle of each rack bundle.
fn rows_of(layout: &Layout, racks: &[Bundle]) -> (Vec<Bundle>, Vec<u32>) {
    // Each row's extent and its first and last rack (racks are in drawing order).
    let mut extent: HashMap<u16, (Rect, RackId, RackId)> = HashMap::default();
    for g in &layout.racks {
        extent
            .entry(g.row)
            .and_modify(|(r, _, last)| {
                *r = r.union(g.mount);
                *last = g.id;
            })
            .or_insert((g.mount, g.id, g.id));
    }
    let Some(all) = layout.bounds() else {
        return (Vec::new(), vec![u32::MAX; racks.len()]);
    };
    let spine = all.right() + 30.0;
    let reach = |dy: f32| 0.6 * all.width() * (dy / all.height().max(1.0)).sqrt();
    let row_of = |id: RackId| layout.rack(id).map(|g| g.row);
    let mut index: HashMap<(u16, u16), u32> = HashMap::default();
    let mut rows: Vec<Bundle> = Vec::new();
    let mut row_bundle_of = Vec::with_capacity(racks.len());
    for b in racks {
        let Ends::Racks(ra, rb) = b.ends else {
            row_bundle_of.push(u32::MAX);
            continue;
        };
        let Some(key) = row_of(ra)
            .zip(row_of(rb))
            .map(|(a, z)| (a.min(z), a.max(z)))
        else {
            row_bundle_of.push(u32::MAX);
            continue;
        };
        let (Some(ea), Some(ez)) = (extent.get(&key.0), extent.get(&key.1)) else {
            row_bundle_of.push(u32::MAX);
            continue;
        };
        let i = *index.entry(key).or_insert_with(|| {
            let (p, q) = (
                pos2(ea.0.right(), ea.0.center().y),
                pos2(ez.0.right(), ez.0.center().y),
            );
            let curve = if key.0 == key.1 {
                // A row's own links: a short loop off its end.
                let h = vec2(0.0, ea.0.height() / 4.0);
                let x = spine + reach(ea.0.height()) * 0.3;
                [p - h, pos2(x, p.y) - h, pos2(x, p.y) + h, p + h]
            } else {
                let x = spine + reach((q.y - p.y).abs());
                [p, pos2(x, p.y), pos2(x, q.y), q]
            };
            rows.push(Bundle::new(
                Ends::Rows((ea.1, ea.2), (ez.1, ez.2)),
                0,
                curve,
            ));
            (rows.len() - 1) as u32
        });
        if let Some(r) = rows.get_mut(i as usize) {
            r.count += b.count;
        }
        row_bundle_of.push(i);
    }
    (rows, row_bundle_of)
}

/// The worst load of each bundle, per level.
struct Loads {
    racks: Vec<Option<f64>>,
    rows: Vec<Option<f64>>,
}

impl Loads {
    fn of(&self, level: Level, i: usize) -> Option<f64> {
        match level {
            Level::Racks => self.racks.get(i).copied().flatten(),
            Level::Rows => self.rows.get(i).copied().flatten(),
        }
    }
}

/// Which layout and report the bundles' loads were computed from: the layout and report revisions and the pattern.
pub(super) type LoadsKey = (u64, u64, usize);

/// The worst load of each bundle for a report and pattern, kept until either changes (one pass over the links).
fn worst_loads_of(
    ctx: &egui::Context,
    (layout, bundles): (&Layout, &Bundles),
    report: Option<&Report>,
    key: LoadsKey,
) -> Option<Arc<Loads>> {
    let report = report?;
    let id = egui::Id::unique("racksmith_canvas_bundle_loads");
    let cached: Option<(LoadsKey, Arc<Loads>)> = ctx.data(|d| d.get_temp(id));
    if let Some((k, loads)) = cached
        && k == key
    {
        return Some(loads);
    }
    let loads = Arc::new(bundles.worst_loads(layout, report, key.2));
    ctx.data_mut(|d| d.insert_temp(id, (key, loads.clone())));
    Some(loads)
}

/// A bundle drawn this frame: its index, its curve on screen and its stroke width.
pub(super) type Shown = (usize, [Pos2; 4], f32);

/// The bundles drawn in a frame: their level and each one's index, curve and width (what the pointer is tested
/// against while the drawing is reused).
#[derive(Default)]
pub(super) struct Drawn {
    level: Option<Level>,
    shown: Vec<Shown>,
    /// How many of them are in view (the others are drawn for the view to be panned without painting again).
    in_view: usize,
}

impl Drawn {
    /// How many bundles were drawn in view.
    pub(super) fn len(&self) -> usize {
        self.in_view
    }

    /// The drawn bundle under a screen point, with its level.
    pub(super) fn under(&self, p: Pos2) -> Option<(Level, usize)> {
        self.level.zip(under(&self.shown, p))
    }
}

/// Draws the bundles in `cull` (canvas space, the view and a margin); returns which were drawn, where, and how
/// many of them are in `visible`.
pub(super) fn paint_bundles(
    painter: &egui::Painter,
    (layout, bundles, t): (&Layout, &Bundles, TSTransform),
    (cull, visible): (Rect, Rect),
    (report, key): (Option<&Report>, LoadsKey),
) -> Drawn {
    let level = Level::at(t.scaling);
    let list = bundles.at(level);
    let loads = worst_loads_of(painter.ctx(), (layout, bundles), report, key);
    let max = list.iter().map(|b| b.count).max().unwrap_or(0).max(1) as f32;
    // Rack bundles cross the racks: thin when the racks are small. Row arcs stand in the margin: full width.
    let scale = match level {
        Level::Racks => (t.scaling / 0.5).clamp(0.35, 1.0),
        Level::Rows => 1.0,
    };
    let mut shown: Vec<Shown> = Vec::new();
    let mut in_view = 0;
    for (i, b) in list.iter().enumerate() {
        if !b.bounds.intersects(cull) {
            continue;
        }
        in_view += usize::from(b.bounds.intersects(visible));
        let share = (b.count as f32 / max).sqrt();
        let width = (0.8 + 7.0 * share) * scale;
        let load = loads.as_ref().and_then(|l| l.of(level, i));
        let [r, g, bl, _] = theme::load_color(load.or(Some(0.0)), 1.0).to_srgba_unmultiplied();
        let alpha = (60.0 + 170.0 * share) as u8;
        let curve = b.curve.map(|p| t * p);
        painter.add(CubicBezierShape::from_points_stroke(
            curve,
            false,
            Color32::TRANSPARENT,
            Stroke::new(width, Color32::from_rgba_unmultiplied(r, g, bl, alpha)),
        ));
        shown.push((i, curve, width));
    }
    Drawn {
        level: Some(level),
        shown,
        in_view,
    }
}

/// The drawn bundle whose curve passes nearest a screen point, within a few points of its edge.
fn under(shown: &[Shown], p: Pos2) -> Option<usize> {
    const STEPS: usize = 24;
    let mut best: Option<(f32, usize)> = None;
    for (i, curve, width) in shown {
        let reach = width / 2.0 + 3.0;
        if !Rect::from_points(curve).expand(reach).contains(p) {
            continue;
        }
        let shape =
            CubicBezierShape::from_points_stroke(*curve, false, Color32::TRANSPARENT, Stroke::NONE);
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

fn distance_to_segment(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_sq().max(1e-6)).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}

/// The hover text of a bundle: "312 links, rack C001 ↔ N001" (or "row C001–C016 ↔ N001–N016"), with the worst
/// load.
pub(super) fn bundle_tooltip_ui(
    ui: &mut egui::Ui,
    design: &Design,
    (layout, bundles): (&Layout, &Bundles),
    (report, key): (Option<&Report>, LoadsKey),
    (level, index): (Level, usize),
) {
    let Some(b) = bundles.at(level).get(index) else {
        return;
    };
    ui.strong(bundle_label(design, b));
    let load =
        worst_loads_of(ui.ctx(), (layout, bundles), report, key).and_then(|l| l.of(level, index));
    if let Some(u) = load {
        ui.label(format!("Most loaded: {:.0}% of its capacity", u * 100.0));
    }
    ui.weak("Zoom in to see the links one by one.");
}

/// "312 links, rack C001 ↔ N001", "12 links within rack N001", "14336 links, row C001–C016 ↔ N001–N016".
pub fn bundle_label(design: &Design, b: &Bundle) -> String {
    let name = |id: RackId| design.racks.get(&id).map_or("?", |r| r.name.as_str());
    let row = |(first, last): (RackId, RackId)| format!("{}–{}", name(first), name(last));
    let links = if b.count == 1 { "link" } else { "links" };
    let n = b.count;
    match b.ends {
        Ends::Racks(a, z) if a == z => format!("{n} {links} within rack {}", name(a)),
        Ends::Racks(a, z) => format!("{n} {links}, rack {} ↔ {}", name(a), name(z)),
        Ends::Rows(a, z) if a == z => format!("{n} {links} within row {}", row(a)),
        Ends::Rows(a, z) => format!("{n} {links}, row {} ↔ {}", row(a), row(z)),
    }
}
