//! The floor view: a site's floor seen from above. Rows are bands with the aisles between them (cold after even
//! rows, hot after odd ones, as `model::floor` lays them out), each rack a rectangle at its place (its width along
//! the row, the floor's rack depth across) coloured by what it holds. A rack dragged to another row or slot snaps
//! to the grid of places and moves by one undoable edit (`edit::move_rack`, through the app's command path); the
//! cable runs of the rack under the pointer, or of the selected one, are drawn with their lengths. Canvas space is
//! the floor at [`PT_PER_MM`] points per millimetre, its origin at the front-left of row 0.

use super::input::zoom_at_pointer;
use super::paint::{MIN_LABEL_PT, SELECTION, outlined_with_tip};
use super::state::{FloorDrag, FloorState, View};
use crate::app::commands::{AppCommand, DocCommand, UiCommand};
use crate::app::selection::{FitTarget, Selection};
use crate::app::state::UiState;
use crate::app::theme::{self, Status};
use crate::app::widgets::category_fill_with;
use crate::catalog::Category;
use crate::model::{Design, Floor, FloorPlan, RackId};
use egui::emath::TSTransform;
use egui::{Color32, Pos2, Rect, Sense, Stroke, StrokeKind, pos2, vec2};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Canvas points per millimetre of floor at zoom 1: a 600 mm rack is 60 points wide.
const PT_PER_MM: f32 = 0.1;

/// Room left of the rows for their labels, canvas points.
const LABEL_MARGIN: f32 = 70.0;

/// Runs drawn from one rack at most (the longest first); the rest are counted in its hover text.
const MAX_RUNS: usize = 48;

/// One rack as the floor view draws it.
struct FloorRack {
    id: RackId,
    name: String,
    site: String,
    row: u16,
    slot: u16,
    /// Its footprint, canvas space.
    rect: Rect,
    /// What takes most of its units (servers, switches, storage), for its colour.
    kind: Option<Category>,
    /// Links with an end in it (a link inside it counted once).
    links: usize,
    /// The ordered length of those links, m.
    cable_m: f64,
}

/// The links between a rack and one other: how many, and their typical (median) and longest ordered length, m.
#[derive(Debug, Clone, Copy)]
struct Run {
    peer: RackId,
    count: usize,
    typical_m: f64,
    longest_m: f64,
}

/// The floor of a design revision, laid out once (a click or a hover reads it; only an edit lays it out again).
#[derive(Default)]
pub struct FloorLayout {
    racks: Vec<FloorRack>,
    index: BTreeMap<RackId, usize>,
    /// Each rack's runs to the racks it is cabled to, the longest first.
    runs: BTreeMap<RackId, Vec<Run>>,
    /// The sites with racks, sorted (the empty name is a design's one site).
    sites: Vec<String>,
}

impl FloorLayout {
    fn new(design: &Design) -> Self {
        let plan = FloorPlan::new(design);
        let mut units: BTreeMap<RackId, BTreeMap<Category, u32>> = BTreeMap::new();
        for d in design.devices.values() {
            if let Some(p) = design.parts.get(&d.part) {
                *units
                    .entry(d.rack)
                    .or_default()
                    .entry(p.kind.category())
                    .or_default() += u32::from(design.device_height_u(d).max(1));
            }
        }
        let mut cabled: BTreeMap<RackId, (usize, f64)> = BTreeMap::new();
        let mut pairs: BTreeMap<(RackId, RackId), Vec<f64>> = BTreeMap::new();
        let rack_of = |dev| design.devices.get(&dev).map(|d| d.rack);
        for l in design.links.values() {
            let (Some(a), Some(b)) = (rack_of(l.a.device), rack_of(l.b.device)) else {
                continue;
            };
            for r in if a == b { vec![a] } else { vec![a, b] } {
                let e = cabled.entry(r).or_default();
                e.0 += 1;
                e.1 += l.length_m;
            }
            if a != b {
                pairs
                    .entry((a.min(b), a.max(b)))
                    .or_default()
                    .push(l.length_m);
            }
        }
        let mut runs: BTreeMap<RackId, Vec<Run>> = BTreeMap::new();
        for ((a, b), mut lengths) in pairs {
            lengths.sort_by(f64::total_cmp);
            let typical_m = lengths.get(lengths.len() / 2).copied().unwrap_or(0.0);
            let longest_m = lengths.last().copied().unwrap_or(0.0);
            let count = lengths.len();
            for (from, peer) in [(a, b), (b, a)] {
                runs.entry(from).or_default().push(Run {
                    peer,
                    count,
                    typical_m,
                    longest_m,
                });
            }
        }
        for r in runs.values_mut() {
            r.sort_by(|x, y| y.longest_m.total_cmp(&x.longest_m));
        }
        let mut racks = Vec::with_capacity(design.racks.len());
        for (id, r) in &design.racks {
            let Some(place) = plan.place(*id) else {
                continue;
            };
            let floor = design.floor_of(&r.site);
            let width_mm = r.width_mm.unwrap_or(floor.rack_pitch_mm);
            let min = pos2(
                ((place.x_mm - width_mm / 2.0) as f32) * PT_PER_MM,
                (place.y_mm as f32) * PT_PER_MM,
            );
            let size = vec2(
                width_mm as f32 * PT_PER_MM,
                floor.rack_depth_mm as f32 * PT_PER_MM,
            );
            let kind = units.get(id).and_then(|u| {
                u.iter()
                    .filter(|(c, _)| {
                        matches!(c, Category::Server | Category::Switch | Category::Storage)
                    })
                    .max_by_key(|(_, n)| **n)
                    .map(|(c, _)| *c)
            });
            let (links, cable_m) = cabled.get(id).copied().unwrap_or_default();
            racks.push(FloorRack {
                id: *id,
                name: r.name.clone(),
                site: r.site.clone(),
                row: r.row,
                slot: r.slot,
                rect: Rect::from_min_size(min, size),
                kind,
                links,
                cable_m,
            });
        }
        let index = racks.iter().enumerate().map(|(i, r)| (r.id, i)).collect();
        let mut sites: Vec<String> = racks.iter().map(|r| r.site.clone()).collect();
        sites.sort();
        sites.dedup();
        Self {
            racks,
            index,
            runs,
            sites,
        }
    }

    fn rack(&self, id: RackId) -> Option<&FloorRack> {
        self.racks.get(*self.index.get(&id)?)
    }
}

/// The floor layout of a design revision, kept between frames.
fn layout_of(ctx: &egui::Context, design: &Design, revision: u64) -> Arc<FloorLayout> {
    let id = egui::Id::unique("racksmith_floor_layout");
    let cached: Option<(u64, Arc<FloorLayout>)> = ctx.data(|d| d.get_temp(id));
    match cached {
        Some((rev, layout)) if rev == revision => layout,
        _ => {
            let layout = Arc::new(FloorLayout::new(design));
            ctx.data_mut(|d| d.insert_temp(id, (revision, layout.clone())));
            layout
        }
    }
}

/// Designs up to this many links preview a dragged rack's runs at its target (the preview copies the design once
/// per place the rack passes over: a few milliseconds at 4 SU).
const PREVIEW_MAX_LINKS: usize = 20_000;

/// A preview's design revision, rack and target row and slot.
type PreviewKey = (u64, RackId, u16, u16);

/// The floor with a dragged rack moved to its target, kept while the target stays put; None for its own place, a
/// place it may not take, or a design too large to copy per place.
fn preview_layout(
    ctx: &egui::Context,
    (design, revision): (&Design, u64),
    rack: RackId,
    t: &Target,
) -> Option<Arc<FloorLayout>> {
    let Ok(Some(edit)) = &t.verdict else {
        return None;
    };
    if design.links.len() > PREVIEW_MAX_LINKS {
        return None;
    }
    let id = egui::Id::unique("racksmith_floor_preview");
    let key = (revision, rack, t.row, t.slot);
    let cached: Option<(PreviewKey, Arc<FloorLayout>)> = ctx.data(|d| d.get_temp(id));
    if let Some((k, layout)) = cached
        && k == key
    {
        return Some(layout);
    }
    let mut moved = design.clone();
    edit.clone().apply(&mut moved).ok()?;
    let layout = Arc::new(FloorLayout::new(&moved));
    ctx.data_mut(|d| d.insert_temp(id, (key, layout.clone())));
    Some(layout)
}

/// The site shown: its floor, its last row with racks and the width of its bands (the longest row and two empty
/// places to drop at its end), canvas points.
struct Site<'a> {
    name: &'a str,
    floor: &'a Floor,
    last_row: u16,
    width: f32,
}

impl<'a> Site<'a> {
    fn new(design: &'a Design, layout: &FloorLayout, name: &'a str) -> Self {
        let floor = design.floor_of(name);
        let on = layout.racks.iter().filter(|r| r.site == name);
        let last_row = on.clone().map(|r| r.row).max().unwrap_or(0);
        let right = on.map(|r| r.rect.right()).fold(0.0f32, f32::max);
        let pitch = floor.rack_pitch_mm as f32 * PT_PER_MM;
        Self {
            name,
            floor,
            last_row,
            width: (right + 2.0 * pitch).max(4.0 * pitch),
        }
    }

    /// A row's band, canvas space.
    fn band(&self, row: u16) -> Rect {
        Rect::from_min_size(
            pos2(0.0, self.floor.row_offset_mm(row) as f32 * PT_PER_MM),
            vec2(self.width, self.floor.rack_depth_mm as f32 * PT_PER_MM),
        )
    }

    /// The aisle after a row, canvas space, and whether it is a cold one.
    fn aisle_after(&self, row: u16) -> (Rect, bool) {
        let top = self.band(row).bottom();
        let bottom = self.band(row.saturating_add(1)).top();
        (
            Rect::from_min_max(pos2(0.0, top), pos2(self.width, bottom)),
            row.is_multiple_of(2),
        )
    }

    /// The rows and aisles and the new row after them, canvas space, with room for the row labels.
    fn bounds(&self) -> Rect {
        Rect::from_min_max(
            pos2(-LABEL_MARGIN, 0.0),
            pos2(
                self.width,
                self.band(self.last_row.saturating_add(1)).bottom(),
            ),
        )
    }
}

/// Where a dragged rack would land: its row and slot, its footprint there (canvas space), and the edit or why not.
struct Target {
    row: u16,
    slot: u16,
    rect: Rect,
    verdict: Result<Option<crate::edit::Edit>, String>,
}

/// The place a rack dragged with its top-left at `corner` lands on: the nearest row (one past the last is a new
/// row), and in it the place under the rack's centre on the grid of places (a free place at the floor's pitch, a
/// taken one at its rack's width, as [`FloorPlan`] adds them up).
fn target(
    design: &Design,
    layout: &FloorLayout,
    site: &Site<'_>,
    rack: &FloorRack,
    corner: Pos2,
) -> Target {
    let centre = corner + rack.rect.size() / 2.0;
    let row = (0..=site.last_row.saturating_add(1))
        .min_by(|a, b| {
            let d = |r: u16| (site.band(r).center().y - centre.y).abs();
            d(*a).total_cmp(&d(*b))
        })
        .unwrap_or(0);
    let mut others: Vec<(u16, f32)> = layout
        .racks
        .iter()
        .filter(|r| r.site == site.name && r.row == row && r.id != rack.id)
        .map(|r| (r.slot, r.rect.width()))
        .collect();
    others.sort_by_key(|o| o.0);
    let pitch = site.floor.rack_pitch_mm as f32 * PT_PER_MM;
    let x = centre.x.clamp(0.0, site.width);
    let (mut slot, mut left, mut next) = (0u16, 0.0f32, 0usize);
    loop {
        let taken = others.get(next).filter(|o| o.0 == slot);
        let width = taken.map_or(pitch, |o| o.1);
        if x < left + width || slot == u16::MAX {
            break;
        }
        left += width;
        if taken.is_some() {
            next += 1;
        }
        slot += 1;
    }
    let rect = Rect::from_min_size(pos2(left, site.band(row).top()), rack.rect.size());
    let verdict = if (row, slot) == (rack.row, rack.slot) {
        Ok(None)
    } else {
        crate::edit::move_rack(design, rack.id, row, slot)
            .map(Some)
            .map_err(|e| e.to_string())
    };
    Target {
        row,
        slot,
        rect,
        verdict,
    }
}

/// Frames the site (or the selected racks) in a view of `size`.
fn fit(view: &mut View, target: FitTarget, bounds: Rect, selected: Option<Rect>, size: egui::Vec2) {
    view.fitted = Some(target);
    let b = match target {
        FitTarget::Selection => selected.map_or(bounds, |s| s.expand(200.0)),
        FitTarget::All | FitTarget::Reveal => bounds,
    }
    .expand(30.0);
    let zoom = (size.x / b.width())
        .min(size.y / b.height())
        .clamp(0.05, 4.0);
    view.zoom = zoom;
    view.offset = size / 2.0 - b.center().to_vec2() * zoom;
}

/// The racks the selection names or holds devices in.
fn selected_racks(design: &Design, selection: &Selection) -> std::collections::BTreeSet<RackId> {
    let mut racks = selection.racks.clone();
    racks.extend(
        selection
            .devices
            .iter()
            .filter_map(|d| design.devices.get(d).map(|d| d.rack)),
    );
    racks
}

/// Draws the floor view and handles its input; `revision` is the design's layout revision.
pub fn floor_ui(
    ui: &mut egui::Ui,
    (design, revision): (&Design, u64),
    state: &mut UiState,
    cmds: &mut Vec<AppCommand>,
) {
    let layout = layout_of(ui.ctx(), design, revision);
    let floor = &mut state.canvas.floor;
    let shown = shown_site(&layout, floor).cloned().unwrap_or_default();
    if layout.sites.len() > 1 {
        site_picker_ui(ui, &layout.sites, &shown, floor);
    }
    let site_name = shown_site(&layout, floor).cloned().unwrap_or_default();
    let site = Site::new(design, &layout, &site_name);
    let (rect, resp) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
    let selected = selected_racks(design, &state.selection);
    view_input(ui, &resp, rect, &site, (&layout, &selected), floor);
    let screen_from_canvas =
        TSTransform::new(rect.min.to_vec2() + floor.view.offset, floor.view.zoom);
    let canvas_from_screen = screen_from_canvas.inverse();
    let pointer = ui.input(|i| i.pointer.interact_pos());
    let pointer_in_canvas = pointer.map(|p| canvas_from_screen * p);
    let under = |p: Option<Pos2>| {
        p.and_then(|p| {
            layout
                .racks
                .iter()
                .find(|r| r.site == site.name && r.rect.contains(p))
        })
    };
    let hovered = under(pointer_in_canvas).filter(|_| resp.hovered() || resp.dragged());
    let ghost = drag_input(
        ui,
        &resp,
        design,
        (&layout, &site),
        screen_from_canvas,
        state,
        cmds,
    );
    if resp.clicked() {
        let racks = hovered.map(|r| r.id).into_iter().collect();
        cmds.push(
            UiCommand::Select(Selection {
                racks,
                ..Selection::default()
            })
            .into(),
        );
    }
    let focus = match (&state.canvas.floor.drag, hovered) {
        (Some(d), _) => Some(d.rack),
        (None, Some(h)) => Some(h.id),
        (None, None) => selected.first().copied(),
    };
    let painter = ui.painter_at(rect);
    let paint = Paint {
        painter: &painter,
        layout: &layout,
        site: &site,
        to_screen: screen_from_canvas,
        zoom: state.canvas.floor.view.zoom,
        dark: ui.visuals().dark_mode,
    };
    // While a rack is dragged to a place it may take, its runs are drawn from there with the lengths they would
    // have: the design with the move applied, laid out once per place.
    let preview = ghost
        .as_ref()
        .zip(state.canvas.floor.drag)
        .and_then(|((t, _), d)| preview_layout(ui.ctx(), (design, revision), d.rack, t));
    // The floor, racks, runs and names are painted once per view, hover, selection and drop place, and handed to
    // the painter again on frames where none of those changed (a menu opened, the pointer moving over one rack).
    let v = ui.visuals();
    let key = (
        (revision, site_name.clone(), rect, painter.clip_rect()),
        (screen_from_canvas, ui.ctx().pixels_per_point()),
        (v.dark_mode, v.weak_text_color()),
        (selected.clone(), hovered.map(|r| r.id), focus),
        (
            ghost.as_ref().map(|(t, _)| (t.row, t.slot)),
            preview.is_some(),
        ),
    );
    let id = egui::Id::unique("racksmith_floor_scene");
    super::scene::reuse(&painter, id, key, |p| {
        let paint = Paint {
            painter: p,
            ..paint
        };
        paint.floor(ui.visuals());
        paint.racks(&selected, hovered.map(|r| r.id), focus);
        let labels = match (&preview, focus) {
            (Some(p), Some(f)) => Paint { layout: p, ..paint }.runs(f),
            (None, Some(f)) => paint.runs(f),
            (_, None) => Vec::new(),
        };
        paint.names(&selected, hovered.map(|r| r.id));
        paint.run_labels(labels);
    });
    if let Some((t, name)) = &ghost {
        paint.ghost(t, name);
    }
    paint.scale_bar(rect);
    let tooltips = state.canvas.floor.drag.is_none() && !state.canvas.no_tooltips;
    if tooltips && let Some(r) = hovered {
        let runs = layout.runs.get(&r.id).map_or(0, Vec::len);
        resp.on_hover_ui_at_pointer(|ui| rack_tooltip_ui(ui, r, runs));
    }
}

/// The site the floor view shows: the one picked while it has racks, else the first with racks.
fn shown_site<'a>(layout: &'a FloorLayout, floor: &FloorState) -> Option<&'a String> {
    floor
        .site
        .as_ref()
        .and_then(|s| layout.sites.iter().find(|x| *x == s))
        .or_else(|| layout.sites.first())
}

/// The site picker above the floor, when racks stand in several sites.
fn site_picker_ui(ui: &mut egui::Ui, sites: &[String], shown: &str, floor: &mut FloorState) {
    ui.horizontal(|ui| {
        egui::ComboBox::from_label("site on the floor")
            .selected_text(shown)
            .show_ui(ui, |ui| {
                for s in sites {
                    if ui.selectable_label(s == shown, s.as_str()).clicked() {
                        floor.site = Some(s.clone());
                        floor.view.fit = Some(FitTarget::All);
                    }
                }
            });
    });
}

/// Fits (on request, or again when the view changes size while it still frames what it was fitted to), the wheel
/// zooms, a drag off the racks pans.
fn view_input(
    ui: &egui::Ui,
    resp: &egui::Response,
    rect: Rect,
    site: &Site<'_>,
    (layout, selected): (&FloorLayout, &std::collections::BTreeSet<RackId>),
    floor: &mut FloorState,
) {
    let resized = floor
        .rect
        .is_some_and(|old| (old.size() - rect.size()).length() > 1.0);
    floor.rect = Some(rect);
    if resized && floor.view.fit.is_none() {
        floor.view.fit = floor.view.fitted;
    }
    if let Some(t) = floor.view.fit.take() {
        let sel = selected
            .iter()
            .filter_map(|r| layout.rack(*r))
            .filter(|r| r.site == site.name)
            .map(|r| r.rect)
            .reduce(|a, b| a.union(b));
        fit(&mut floor.view, t, site.bounds(), sel, rect.size());
    }
    zoom_at_pointer(ui, resp, rect, &mut floor.view, 0.02..=8.0);
    if floor.panning && resp.dragged() {
        floor.view.offset += resp.drag_delta();
        floor.view.fitted = None;
    }
}

/// A drag of a rack: starts on a rack (a drag elsewhere, or with the middle or right button, pans), shows where it
/// would land while dragged, and moves it by one edit when dropped on a place it may take. Returns the ghost.
fn drag_input(
    ui: &egui::Ui,
    resp: &egui::Response,
    design: &Design,
    (layout, site): (&FloorLayout, &Site<'_>),
    screen_from_canvas: TSTransform,
    state: &mut UiState,
    cmds: &mut Vec<AppCommand>,
) -> Option<(Target, String)> {
    let floor = &mut state.canvas.floor;
    let canvas_from_screen = screen_from_canvas.inverse();
    if resp.drag_started() {
        let origin = ui.input(|i| i.pointer.press_origin());
        let primary = ui.input(|i| i.pointer.button_down(egui::PointerButton::Primary));
        let grabbed = origin.map(|o| canvas_from_screen * o).and_then(|o| {
            layout
                .racks
                .iter()
                .find(|r| r.site == site.name && r.rect.contains(o))
                .map(|r| (r, o))
        });
        match grabbed {
            Some((r, o)) if primary => {
                floor.drag = Some(FloorDrag {
                    rack: r.id,
                    grab: o - r.rect.min,
                });
            }
            _ => floor.panning = true,
        }
    }
    if !resp.dragged() && !resp.drag_stopped() {
        floor.drag = None;
        floor.panning = false;
    }
    let drag = floor.drag?;
    let rack = layout.rack(drag.rack)?;
    let pointer = ui.input(|i| i.pointer.interact_pos())?;
    let corner = canvas_from_screen * pointer - drag.grab;
    let t = target(design, layout, site, rack, corner);
    let what = format!("{} to row {}, slot {}", rack.name, t.row, t.slot);
    if resp.drag_stopped() {
        floor.drag = None;
        match &t.verdict {
            Ok(Some(edit)) => {
                cmds.push(DocCommand::Edit(format!("Move rack {what}"), edit.clone()).into());
                cmds.push(
                    UiCommand::Select(Selection {
                        racks: [rack.id].into_iter().collect(),
                        ..Selection::default()
                    })
                    .into(),
                );
            }
            Ok(None) => {}
            Err(why) => cmds.push(UiCommand::Refuse(format!("Cannot move {what}: {why}")).into()),
        }
        return None;
    }
    match &t.verdict {
        Ok(Some(_)) => state.status.info(format!("Drop to move {what}")),
        Ok(None) => {}
        Err(why) => state.status.refuse(format!("Cannot move {what}: {why}")),
    }
    Some((t, what))
}

/// The hover text of a rack on the floor: its place, and its cables.
fn rack_tooltip_ui(ui: &mut egui::Ui, r: &FloorRack, peers: usize) {
    ui.strong(&r.name);
    if !r.site.is_empty() {
        ui.label(format!("Site {}", r.site));
    }
    ui.label(format!("Row {}, slot {}", r.row, r.slot));
    let c = r.rect.center();
    ui.label(format!(
        "x {:.2} m, y {:.2} m (centre, from row 0's front-left)",
        c.x / PT_PER_MM / 1000.0,
        c.y / PT_PER_MM / 1000.0
    ));
    ui.label(format!(
        "{} links, {:.0} m of cable ordered",
        r.links, r.cable_m
    ));
    if peers > 0 {
        ui.label(format!(
            "Cabled to {}",
            crate::analysis::format::count(peers, "other rack", "other racks")
        ));
    }
}

/// What the paint step works with.
#[derive(Clone, Copy)]
struct Paint<'a> {
    painter: &'a egui::Painter,
    layout: &'a FloorLayout,
    site: &'a Site<'a>,
    to_screen: TSTransform,
    zoom: f32,
    dark: bool,
}

impl Paint<'_> {
    fn text_color(&self) -> Color32 {
        if self.dark {
            theme::DARK_TEXT
        } else {
            Color32::from_gray(40)
        }
    }

    /// A label of `size` points at `pos`, when that size is readable.
    fn label(&self, pos: Pos2, anchor: egui::Align2, text: &str, size: f32, color: Color32) {
        if size >= MIN_LABEL_PT {
            self.painter
                .text(pos, anchor, text, egui::FontId::proportional(size), color);
        }
    }

    /// The rows as bands, the aisles between them, and their labels.
    fn floor(&self, visuals: &egui::Visuals) {
        let band_fill = if self.dark {
            Color32::from_gray(38)
        } else {
            Color32::from_gray(228)
        };
        let weak = visuals.weak_text_color();
        let size = (11.0 * self.zoom.sqrt()).clamp(MIN_LABEL_PT, 14.0);
        for row in 0..=self.site.last_row.saturating_add(1) {
            let band = self.to_screen * self.site.band(row);
            let new_row = row > self.site.last_row;
            self.painter.rect(
                band,
                2.0,
                if new_row {
                    Color32::TRANSPARENT
                } else {
                    band_fill
                },
                Stroke::new(1.0, weak.gamma_multiply(if new_row { 0.4 } else { 0.8 })),
                StrokeKind::Inside,
            );
            let text = if new_row {
                format!("Row {row} (new)")
            } else {
                format!("Row {row}")
            };
            self.label(
                band.left_center() - vec2(8.0, 0.0),
                egui::Align2::RIGHT_CENTER,
                &text,
                size,
                weak,
            );
            if new_row {
                continue;
            }
            let (aisle, cold) = self.site.aisle_after(row);
            let aisle = self.to_screen * aisle;
            let (tint, word, width_mm) = if cold {
                (
                    Color32::from_rgb(70, 140, 230),
                    "cold",
                    self.site.floor.cold_aisle_mm,
                )
            } else {
                (
                    Color32::from_rgb(230, 90, 70),
                    "hot",
                    self.site.floor.hot_aisle_mm,
                )
            };
            self.painter
                .rect_filled(aisle, 0.0, tint.gamma_multiply(0.14));
            if aisle.height() >= size + 2.0 {
                self.label(
                    aisle.center(),
                    egui::Align2::CENTER_CENTER,
                    &format!("{word} aisle, {:.1} m", width_mm / 1000.0),
                    size,
                    if self.dark {
                        tint
                    } else {
                        tint.gamma_multiply(0.9)
                    },
                );
            }
        }
    }

    /// The racks, coloured by kind; the selected ones outlined, the focused one's peers marked.
    fn racks(
        &self,
        selected: &std::collections::BTreeSet<RackId>,
        hovered: Option<RackId>,
        focus: Option<RackId>,
    ) {
        let peers: std::collections::BTreeSet<RackId> = focus
            .and_then(|f| self.layout.runs.get(&f))
            .map(|runs| runs.iter().map(|r| r.peer).collect())
            .unwrap_or_default();
        for r in self
            .layout
            .racks
            .iter()
            .filter(|r| r.site == self.site.name)
        {
            let screen = self.to_screen * r.rect;
            let is_selected = selected.contains(&r.id);
            let emphasis = if is_selected || hovered == Some(r.id) {
                1.0
            } else {
                0.0
            };
            let fill = category_fill_with(r.kind.unwrap_or(Category::Rack), self.dark, emphasis);
            let stroke = if is_selected {
                Stroke::new(2.5, SELECTION)
            } else if peers.contains(&r.id) {
                Stroke::new(1.5, theme::status_color(Status::Good, self.dark))
            } else {
                Stroke::new(1.0, theme::text_on(fill).gamma_multiply(0.5))
            };
            self.painter
                .rect(screen, 2.0, fill, stroke, StrokeKind::Inside);
        }
    }

    /// The racks' names, across a rack when they fit, else along it (drawn over the runs).
    fn names(&self, selected: &std::collections::BTreeSet<RackId>, hovered: Option<RackId>) {
        let size = (11.0 * self.zoom).clamp(MIN_LABEL_PT, 16.0);
        for r in self
            .layout
            .racks
            .iter()
            .filter(|r| r.site == self.site.name)
        {
            let screen = self.to_screen * r.rect;
            let emphasis = if selected.contains(&r.id) || hovered == Some(r.id) {
                1.0
            } else {
                0.0
            };
            let fill = category_fill_with(r.kind.unwrap_or(Category::Rack), self.dark, emphasis);
            let galley = self.painter.layout_no_wrap(
                r.name.clone(),
                egui::FontId::proportional(size),
                theme::text_on(fill),
            );
            if size >= MIN_LABEL_PT && galley.size().x <= screen.width() - 4.0 {
                let at = screen.center() - galley.size() / 2.0;
                self.painter.galley(at, galley, theme::text_on(fill));
            } else if galley.size().x <= screen.height() - 4.0 && screen.width() >= size + 2.0 {
                // A narrow rack (zoomed out): its name runs up its length.
                let at = screen.center() + vec2(-galley.size().y / 2.0, galley.size().x / 2.0);
                self.painter.add(
                    egui::epaint::TextShape::new(at, galley, theme::text_on(fill))
                        .with_angle(-std::f32::consts::FRAC_PI_2),
                );
            }
        }
    }

    /// The cable runs from a rack to the racks it is cabled to on this floor, their labels returned to be drawn
    /// over the names: each at the first of a few places along its line where it covers no other label (one that
    /// finds none is left out: the peer's hover text has it).
    fn runs(&self, from: RackId) -> Vec<(Rect, std::sync::Arc<egui::Galley>)> {
        let (Some(a), Some(runs)) = (self.layout.rack(from), self.layout.runs.get(&from)) else {
            return Vec::new();
        };
        if a.site != self.site.name {
            return Vec::new();
        }
        let line = theme::status_color(Status::Good, self.dark);
        let start = self.to_screen * a.rect.center();
        let mut labels: Vec<(Rect, std::sync::Arc<egui::Galley>)> = Vec::new();
        let font = egui::FontId::proportional(MIN_LABEL_PT + 1.0);
        let on_floor = runs
            .iter()
            .filter_map(|run| Some((run, self.layout.rack(run.peer)?)))
            .filter(|(_, b)| b.site == self.site.name)
            .take(MAX_RUNS);
        for (run, b) in on_floor {
            let end = self.to_screen * b.rect.center();
            let width = 1.0 + (run.count as f32).log2().clamp(0.0, 4.0) * 0.6;
            self.painter
                .line_segment([start, end], Stroke::new(width, line.gamma_multiply(0.8)));
            self.painter.circle_filled(end, 3.0, line);
            let text = if (run.longest_m - run.typical_m).abs() < 1e-6 {
                format!("{}× {} m", run.count, metres(run.typical_m))
            } else {
                format!(
                    "{}× {} m, longest {} m",
                    run.count,
                    metres(run.typical_m),
                    metres(run.longest_m)
                )
            };
            let galley = self
                .painter
                .layout_no_wrap(text, font.clone(), Color32::WHITE);
            let free = [0.55f32, 0.75, 0.35, 0.9, 0.2].iter().find_map(|t| {
                let tip = Rect::from_center_size(
                    start + (end - start) * *t,
                    galley.size() + vec2(8.0, 4.0),
                );
                (!labels.iter().any(|(p, _)| p.intersects(tip))).then_some(tip)
            });
            if let Some(tip) = free {
                labels.push((tip, galley));
            }
        }
        self.painter.circle_filled(start, 4.0, line);
        labels
    }

    /// The runs' labels, on dark boxes.
    fn run_labels(&self, labels: Vec<(Rect, std::sync::Arc<egui::Galley>)>) {
        for (tip, galley) in labels {
            self.painter
                .rect_filled(tip, 3.0, Color32::from_black_alpha(210));
            self.painter
                .galley(tip.min + vec2(4.0, 2.0), galley, Color32::WHITE);
        }
    }

    /// Where a dragged rack would land, green when it may, red with the reason when not.
    fn ghost(&self, t: &Target, what: &str) {
        let (c, msg) = match &t.verdict {
            Ok(_) => (theme::status_color(Status::Good, true), what.to_owned()),
            Err(why) => (
                theme::status_color(Status::Bad, true),
                format!("{what}: {why}"),
            ),
        };
        outlined_with_tip(self.painter, self.to_screen * t.rect, c, msg);
    }

    /// A scale bar in metres at the bottom left: the roundest length between 60 and 200 points long.
    fn scale_bar(&self, rect: Rect) {
        let pt_per_m = 1000.0 * PT_PER_MM * self.zoom;
        let steps = [0.5f32, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0];
        let m = steps
            .iter()
            .copied()
            .find(|m| m * pt_per_m >= 60.0)
            .unwrap_or(500.0);
        let len = m * pt_per_m;
        let y = rect.bottom() - 18.0;
        let x0 = rect.left() + 16.0;
        let c = self.text_color();
        let stroke = Stroke::new(2.0, c);
        self.painter
            .line_segment([pos2(x0, y), pos2(x0 + len, y)], stroke);
        for x in [x0, x0 + len] {
            self.painter
                .line_segment([pos2(x, y - 5.0), pos2(x, y + 5.0)], stroke);
        }
        self.label(
            pos2(x0 + len / 2.0, y - 4.0),
            egui::Align2::CENTER_BOTTOM,
            &format!("{} m", metres(f64::from(m))),
            12.0,
            c,
        );
    }
}

/// A length in metres as it is written on the floor: whole metres plainly, else to a tenth.
fn metres(m: f64) -> String {
    if (m - m.round()).abs() < 1e-6 {
        format!("{m:.0}")
    } else {
        format!("{m:.1}")
    }
}

/// Screen rect of a rack in the floor view as last drawn (tests drag racks with it); None off the shown site or
/// before the view was drawn.
pub fn rack_screen_rect(
    ctx: &egui::Context,
    (design, revision): (&Design, u64),
    floor: &FloorState,
    rack: RackId,
) -> Option<Rect> {
    let layout = layout_of(ctx, design, revision);
    let r = layout.rack(rack)?;
    if Some(&r.site) != shown_site(&layout, floor) {
        return None;
    }
    let rect = floor.rect?;
    let t = TSTransform::new(rect.min.to_vec2() + floor.view.offset, floor.view.zoom);
    Some(t * r.rect)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metres_are_whole_or_to_a_tenth() {
        assert_eq!(metres(10.0), "10");
        assert_eq!(metres(8.4), "8.4");
    }
}
