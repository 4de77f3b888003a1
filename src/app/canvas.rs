//! The rack canvas: racks as front elevations side by side (rows by `Rack.row`, order by `Rack.slot`), devices at
//! their rack units coloured by category, links between devices, pan/zoom, selection, box select, moving devices
//! and dropping parts from the palette. Drags preview here in UI state and commit one edit when they end.

use super::AppCommand;
use super::state::{CanvasDrag, FitTarget, PartDrag, Selection, UiState};
use super::widgets::category_color;
use crate::analysis::Report;
use crate::analysis::power::device_power_weight;
use crate::catalog::{Catalog, PartKind};
use crate::edit::{Builder, Edit};
use crate::model::{Design, Device, DeviceId, PartId, Rack, RackId};
use egui::emath::TSTransform;
use egui::{Color32, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2, pos2, vec2};
use std::collections::{BTreeMap, HashMap};

/// Height of one rack unit in canvas space.
pub const U_H: f32 = 14.0;
const RACK_W: f32 = 170.0;
const RAIL_W: f32 = 20.0;
const SIDE_W: f32 = 8.0;
const HEADER_H: f32 = 44.0;
const GAP_X: f32 = 34.0;
const GAP_Y: f32 = 60.0;

/// One rack's place on the canvas.
pub struct RackGeom {
    /// The rack.
    pub id: RackId,
    /// Whole frame including the header, canvas space.
    pub rect: Rect,
    /// The mounting area (units), canvas space.
    pub mount: Rect,
    /// Units in the rack.
    pub height_u: u16,
}

impl RackGeom {
    /// Canvas rect of `h` units starting at unit `u` (1-based from the bottom).
    pub fn unit_rect(&self, u: u16, h: u16) -> Rect {
        let bottom = self.mount.bottom() - f32::from(u.saturating_sub(1)) * U_H;
        Rect::from_min_max(
            pos2(self.mount.left(), bottom - f32::from(h.max(1)) * U_H),
            pos2(self.mount.right(), bottom),
        )
    }

    /// Rack unit (fractional, 1-based) at a canvas y.
    pub fn u_at(&self, y: f32) -> f32 {
        (self.mount.bottom() - y) / U_H + 1.0
    }
}

/// Where racks and devices are, in canvas space.
#[derive(Default)]
pub struct Layout {
    /// Racks in drawing order.
    pub racks: Vec<RackGeom>,
    /// Index into `racks` by id.
    pub rack_index: HashMap<RackId, usize>,
    /// Device rects.
    pub devices: HashMap<DeviceId, Rect>,
}

impl Layout {
    /// Lays out a design.
    pub fn new(design: &Design) -> Self {
        let mut rows: BTreeMap<u16, Vec<(u16, RackId, &Rack)>> = BTreeMap::new();
        for (id, r) in &design.racks {
            rows.entry(r.row).or_default().push((r.slot, *id, r));
        }
        let mut layout = Layout::default();
        let mut y = 0.0;
        for racks in rows.values_mut() {
            racks.sort_by_key(|(slot, id, _)| (*slot, *id));
            let tallest = racks.iter().map(|(_, _, r)| r.height_u).max().unwrap_or(42);
            for (i, (_, id, r)) in racks.iter().enumerate() {
                let x = i as f32 * (RACK_W + GAP_X);
                let h = f32::from(r.height_u) * U_H;
                // Racks of a row stand on the same floor line.
                let top = y + f32::from(tallest - r.height_u) * U_H;
                let rect = Rect::from_min_size(pos2(x, top), vec2(RACK_W, HEADER_H + h + 6.0));
                let mount = Rect::from_min_size(
                    pos2(x + RAIL_W, top + HEADER_H),
                    vec2(RACK_W - RAIL_W - SIDE_W - 4.0, h),
                );
                layout.rack_index.insert(*id, layout.racks.len());
                layout.racks.push(RackGeom {
                    id: *id,
                    rect,
                    mount,
                    height_u: r.height_u,
                });
            }
            y += HEADER_H + f32::from(tallest) * U_H + 6.0 + GAP_Y;
        }
        for (id, d) in &design.devices {
            let Some(g) = layout
                .rack_index
                .get(&d.rack)
                .and_then(|i| layout.racks.get(*i))
            else {
                continue;
            };
            let h = design.device_height_u(d);
            let rect = if h == 0 {
                // Side-mounted (0U) parts: a strip beside the rails.
                Rect::from_min_max(
                    pos2(g.mount.right() + 1.0, g.mount.top()),
                    pos2(g.mount.right() + SIDE_W, g.mount.bottom()),
                )
            } else {
                g.unit_rect(d.position_u, h)
            };
            layout.devices.insert(*id, rect);
        }
        layout
    }

    /// The rack geometry of a rack id.
    pub fn rack(&self, id: RackId) -> Option<&RackGeom> {
        self.rack_index.get(&id).and_then(|i| self.racks.get(*i))
    }

    /// Bounding box of everything.
    pub fn bounds(&self) -> Option<Rect> {
        self.racks.iter().map(|r| r.rect).reduce(|a, b| a.union(b))
    }

    /// Bounding box of a selection.
    pub fn selection_bounds(&self, sel: &Selection, design: &Design) -> Option<Rect> {
        let mut rects: Vec<Rect> = sel
            .devices
            .iter()
            .filter_map(|d| self.devices.get(d).copied())
            .collect();
        rects.extend(
            sel.racks
                .iter()
                .filter_map(|r| self.rack(*r).map(|g| g.rect)),
        );
        for l in &sel.links {
            if let Some(link) = design.links.get(l) {
                rects.extend(
                    [link.a.device, link.b.device]
                        .iter()
                        .filter_map(|d| self.devices.get(d).copied()),
                );
            }
        }
        rects.into_iter().reduce(|a, b| a.union(b))
    }

    /// The device under a canvas point (slot-mounted 0U strips last).
    pub fn device_at(&self, p: Pos2, design: &Design) -> Option<DeviceId> {
        let mut hit = None;
        for (id, r) in &self.devices {
            if r.contains(p) {
                let zero_u = design
                    .devices
                    .get(id)
                    .is_some_and(|d| design.device_height_u(d) == 0);
                if !zero_u {
                    return Some(*id);
                }
                hit = Some(*id);
            }
        }
        hit
    }

    /// The rack under a canvas point.
    pub fn rack_at(&self, p: Pos2) -> Option<&RackGeom> {
        self.racks
            .iter()
            .find(|r| r.rect.expand(GAP_X * 0.3).contains(p))
    }
}

/// Where a part of height `h` grabbed `grab_u` units above its bottom would land under a canvas point.
fn placement(layout: &Layout, p: Pos2, h: u16, grab_u: f32) -> Option<(RackId, u16)> {
    let g = layout.rack_at(p)?;
    let max_u = g.height_u.saturating_sub(h.max(1)) + 1;
    let u = (g.u_at(p.y) - grab_u)
        .floor()
        .clamp(1.0, f32::from(max_u.max(1)));
    Some((g.id, u as u16))
}

/// A part's spec from the design, or else from the catalog.
fn part_spec<'a>(
    design: &'a Design,
    catalog: &'a Catalog,
    id: &PartId,
) -> Option<&'a crate::catalog::Part> {
    design.parts.get(id).or_else(|| catalog.parts.get(id))
}

/// Power a new catalog device would draw, with the default GPUs and NICs it comes with.
fn new_device_power(design: &Design, catalog: &Catalog, id: &PartId) -> f64 {
    let Some(part) = part_spec(design, catalog, id) else {
        return 0.0;
    };
    let mut w = part.power_w;
    if let PartKind::Server(s) = &part.kind {
        if let Some(g) = s
            .default_gpu
            .as_ref()
            .and_then(|g| part_spec(design, catalog, g))
        {
            w += g.power_w * s.gpu_slots.len() as f64;
        }
        for slot in &s.nic_slots {
            let role = format!("{:?}", slot.role);
            if let Some(n) = s
                .default_nics
                .get(&role)
                .and_then(|n| part_spec(design, catalog, n))
            {
                w += n.power_w;
            }
        }
    }
    w
}

/// Power drawn by the devices of a rack (without optics).
fn rack_power(design: &Design, rack: RackId, except: Option<DeviceId>) -> f64 {
    design
        .devices
        .iter()
        .filter(|(id, d)| d.rack == rack && Some(**id) != except)
        .map(|(_, d)| device_power_weight(design, d).0)
        .sum()
}

/// Result of checking a placement: Ok with an optional warning, or the reason it is refused.
fn check_placement(
    design: &Design,
    rack: RackId,
    u: u16,
    h: u16,
    moving: Option<DeviceId>,
    power_w: f64,
) -> Result<Option<String>, String> {
    let ignore: Vec<DeviceId> = moving.into_iter().collect();
    design.check_mount(rack, u, h, &ignore)?;
    let Some(r) = design.racks.get(&rack) else {
        return Err(format!("{rack} does not exist"));
    };
    let same_rack = moving
        .and_then(|m| design.devices.get(&m))
        .is_some_and(|d| d.rack == rack);
    if same_rack {
        return Ok(None);
    }
    let total = rack_power(design, rack, moving) + power_w;
    if total > r.power_budget_w {
        return Ok(Some(format!(
            "over the power budget of {}: {:.1} kW of {:.1} kW",
            r.name,
            total / 1000.0,
            r.power_budget_w / 1000.0
        )));
    }
    Ok(None)
}

/// A name not used by any device: prefix-01, prefix-02, ...
pub fn unique_device_name(design: &Design, prefix: &str) -> String {
    (1..)
        .map(|i| format!("{prefix}-{i:02}"))
        .find(|n| !design.devices.values().any(|d| &d.name == n))
        .unwrap_or_else(|| prefix.to_string())
}

fn name_prefix(kind: &PartKind) -> &'static str {
    match kind {
        PartKind::Server(_) => "srv",
        PartKind::Switch(_) => "sw",
        PartKind::Storage(_) => "stor",
        PartKind::Pdu(_) => "pdu",
        _ => "dev",
    }
}

/// The edit adding a catalog part to a rack (not applied).
pub fn add_device_edit(
    design: &mut Design,
    catalog: &Catalog,
    part: &str,
    rack: RackId,
    position_u: u16,
) -> Result<(DeviceId, Edit), String> {
    let spec = catalog
        .get(part)
        .ok_or_else(|| format!("no catalog part {part}"))?;
    let name = unique_device_name(design, name_prefix(&spec.kind));
    let h = spec.height_u;
    design.check_mount(rack, position_u, h, &[])?;
    Builder::new(design, catalog)
        .device_edit(part, &name, rack, position_u)
        .map_err(|e| e.to_string())
}

/// The edit adding an empty rack at the end of the first row (not applied).
pub fn add_rack_edit(
    design: &mut Design,
    catalog: &Catalog,
    part: &str,
) -> Result<(RackId, Edit), String> {
    let row = design.racks.values().map(|r| r.row).min().unwrap_or(0);
    let slot = design
        .racks
        .values()
        .filter(|r| r.row == row)
        .map(|r| r.slot + 1)
        .max()
        .unwrap_or(0);
    let name = (1..)
        .map(|i| format!("R{i:02}"))
        .find(|n| !design.racks.values().any(|r| &r.name == n))
        .unwrap_or_else(|| "R".into());
    Builder::new(design, catalog)
        .rack_edit(part, &name, row, slot)
        .map_err(|e| e.to_string())
}

/// The ghost of a drag: where it would land and whether it may.
struct Ghost {
    rect_in_canvas: Rect,
    verdict: Result<Option<String>, String>,
    label: String,
}

/// Draws the canvas and handles its input.
pub fn canvas_ui(
    ui: &mut egui::Ui,
    design: &Design,
    catalog: &Catalog,
    report: Option<&Report>,
    state: &mut UiState,
    cmds: &mut Vec<AppCommand>,
) {
    let (rect, resp) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
    let layout = Layout::new(design);
    let painter = ui.painter_at(rect);
    state.canvas_rect = Some(rect);

    // Fit requests (F key, menu, findings).
    if let Some(target) = state.view.fit.take() {
        let bounds = match target {
            FitTarget::Selection => layout
                .selection_bounds(&state.selection, design)
                .or_else(|| layout.bounds()),
            FitTarget::All => layout.bounds(),
        };
        if let Some(b) = bounds {
            let b = b.expand(30.0);
            let zoom = (rect.width() / b.width())
                .min(rect.height() / b.height())
                .clamp(0.05, 3.0);
            state.view.zoom = zoom;
            state.view.offset = rect.size() / 2.0 - b.center().to_vec2() * zoom;
        }
    }

    // Zoom around the pointer: the wheel or ctrl+wheel / pinch.
    if resp.contains_pointer()
        && let Some(p) = ui.input(|i| i.pointer.hover_pos())
    {
        let (scroll, zoom_delta) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
        let factor = zoom_delta * (scroll * 0.0015).exp();
        if (factor - 1.0).abs() > 1e-4 {
            let from = TSTransform::new(rect.min.to_vec2() + state.view.offset, state.view.zoom);
            let at = from.inverse() * p;
            let zoom = (state.view.zoom * factor).clamp(0.05, 4.0);
            state.view.zoom = zoom;
            state.view.offset = p - rect.min - at.to_vec2() * zoom;
        }
    }

    let screen_from_canvas =
        TSTransform::new(rect.min.to_vec2() + state.view.offset, state.view.zoom);
    let canvas_from_screen = screen_from_canvas.inverse();
    let zoom = state.view.zoom;
    let pointer = ui.input(|i| i.pointer.interact_pos());
    let pointer_in_canvas = pointer.map(|p| canvas_from_screen * p);

    // Drag start, progress and end.
    if resp.drag_started() {
        let origin = ui.input(|i| i.pointer.press_origin()).or(pointer);
        let middle = ui.input(|i| {
            i.pointer.button_down(egui::PointerButton::Middle)
                || i.pointer.button_down(egui::PointerButton::Secondary)
        });
        state.drag = match origin.map(|o| canvas_from_screen * o) {
            _ if middle => CanvasDrag::Pan,
            Some(o) => match layout.device_at(o, design) {
                Some(d) => {
                    if !state.selection.devices.contains(&d) {
                        state.selection = Selection {
                            devices: [d].into_iter().collect(),
                            ..Selection::default()
                        };
                    }
                    let grab_u = design
                        .devices
                        .get(&d)
                        .and_then(|dev| {
                            layout
                                .rack(dev.rack)
                                .map(|g| g.u_at(o.y) - f32::from(dev.position_u))
                        })
                        .unwrap_or(0.0);
                    CanvasDrag::MoveDevice { device: d, grab_u }
                }
                // Inside a rack (or with shift): rubber-band selection; on the empty floor: pan.
                None if ui.input(|i| i.modifiers.shift) || layout.rack_at(o).is_some() => {
                    CanvasDrag::BoxSelect {
                        start_in_screen: screen_from_canvas * o,
                    }
                }
                None => CanvasDrag::Pan,
            },
            None => CanvasDrag::None,
        };
    }
    // A drag that ended without this response seeing it (focus lost, pointer gone) must not stick.
    if !resp.dragged() && !resp.drag_stopped() && state.drag != CanvasDrag::None {
        state.drag = CanvasDrag::None;
    }
    if resp.dragged() && state.drag == CanvasDrag::Pan {
        state.view.offset += resp.drag_delta();
    }

    // Ghost of a device being moved.
    let mut ghost: Option<Ghost> = None;
    if let CanvasDrag::MoveDevice { device, grab_u } = state.drag.clone()
        && let (Some(p), Some(d)) = (pointer_in_canvas, design.devices.get(&device))
    {
        let h = design.device_height_u(d);
        if let Some((rack, u)) = placement(&layout, p, h, grab_u)
            && let Some(g) = layout.rack(rack)
        {
            let power = device_power_weight(design, d).0;
            ghost = Some(Ghost {
                rect_in_canvas: g.unit_rect(u, h),
                verdict: check_placement(design, rack, u, h, Some(device), power),
                label: format!("{} -> U{u}", d.name),
            });
        }
        if resp.drag_stopped() {
            if let Some((rack, u)) = placement(&layout, p, h, grab_u)
                && (rack != d.rack || u != d.position_u)
            {
                match design.check_mount(rack, u, h, &[device]) {
                    Ok(()) => {
                        let moved = Device {
                            rack,
                            position_u: u,
                            ..d.clone()
                        };
                        let rack_name = design.racks.get(&rack).map_or("?", |r| r.name.as_str());
                        cmds.push(AppCommand::Edit(
                            format!("Move {} to {rack_name} U{u}", d.name),
                            Edit::UpdateDevice(device, moved),
                        ));
                    }
                    Err(why) => state.refuse(format!("Cannot move {}: {why}", d.name)),
                }
            }
            state.drag = CanvasDrag::None;
        }
    }

    // Ghost of a part dragged from the palette.
    let mut palette_drop = None;
    if let Some(payload) = egui::DragAndDrop::payload::<PartDrag>(ui.ctx())
        && let Some(spec) = part_spec(design, catalog, &payload.0)
        && spec.kind.is_rack_mounted()
    {
        let h = spec.height_u;
        let over = pointer.is_some_and(|p| rect.contains(p));
        if over
            && let Some(p) = pointer_in_canvas
            && let Some((rack, u)) = placement(&layout, p, h, f32::from(h) / 2.0)
            && let Some(g) = layout.rack(rack)
        {
            let power = new_device_power(design, catalog, &payload.0);
            let verdict = check_placement(design, rack, u, h, None, power);
            ghost = Some(Ghost {
                rect_in_canvas: g.unit_rect(u, h),
                verdict: verdict.clone(),
                label: format!("{} at U{u}", spec.name),
            });
            palette_drop = Some((payload.0.clone(), rack, u, verdict));
        }
        if ui.input(|i| i.pointer.any_released()) {
            match palette_drop.take() {
                Some((part, rack, u, Ok(_))) => cmds.push(AppCommand::AddDevice {
                    part: part.0,
                    rack,
                    position_u: u,
                }),
                Some((_, _, _, Err(why))) => {
                    state.refuse(format!("Cannot place {}: {why}", spec.name))
                }
                None => {}
            }
            egui::DragAndDrop::clear_payload(ui.ctx());
        }
    }

    // A port dragged from the inspector: the device under the pointer lights up green when it has a compatible
    // free port, red with the reason when not; releasing over a green one starts connecting to it.
    let mut port_target: Option<(Rect, Result<usize, String>, String)> = None;
    if let Some(payload) = egui::DragAndDrop::payload::<super::state::PortDrag>(ui.ctx()) {
        let from = payload.0.clone();
        let under = pointer_in_canvas.and_then(|p| layout.device_at(p, design));
        if let Some(dev) = under
            && let Some(r) = layout.devices.get(&dev)
        {
            let verdict = compatible_ports(design, &from, dev);
            let name = design
                .devices
                .get(&dev)
                .map_or(String::new(), |d| d.name.clone());
            port_target = Some((*r, verdict.clone(), name.clone()));
            if ui.input(|i| i.pointer.any_released()) {
                match verdict {
                    Ok(_) => {
                        state.connect_from = Some(from);
                        cmds.push(AppCommand::Select(Selection {
                            devices: [dev].into(),
                            ..Selection::default()
                        }));
                    }
                    Err(why) => state.refuse(format!("Cannot cable to {name}: {why}")),
                }
            }
        }
        if ui.input(|i| i.pointer.any_released()) {
            egui::DragAndDrop::clear_payload(ui.ctx());
        }
    }

    // Box select.
    if let CanvasDrag::BoxSelect { start_in_screen } = state.drag.clone() {
        if let Some(p) = pointer {
            let band = Rect::from_two_pos(start_in_screen, p);
            painter.rect(
                band,
                0.0,
                Color32::from_rgba_unmultiplied(100, 150, 255, 30),
                Stroke::new(1.0, Color32::from_rgb(100, 150, 255)),
                StrokeKind::Inside,
            );
            if resp.drag_stopped() {
                let band_in_canvas = canvas_from_screen * band;
                let mut sel = if ui.input(|i| i.modifiers.shift) {
                    state.selection.clone()
                } else {
                    Selection::default()
                };
                for (id, r) in &layout.devices {
                    if r.intersects(band_in_canvas) {
                        sel.devices.insert(*id);
                    }
                }
                cmds.push(AppCommand::Select(sel));
            }
        }
        if resp.drag_stopped() {
            state.drag = CanvasDrag::None;
        }
    }
    if resp.drag_stopped() && state.drag == CanvasDrag::Pan {
        state.drag = CanvasDrag::None;
    }

    if resp.drag_stopped() {
        state.drag = CanvasDrag::None;
    }

    // Clicks.
    let hovered_device = pointer_in_canvas
        .filter(|_| resp.contains_pointer())
        .and_then(|p| layout.device_at(p, design));
    if resp.clicked() {
        let shift = ui.input(|i| i.modifiers.shift);
        match (hovered_device, pointer_in_canvas) {
            (Some(d), _) if shift => cmds.push(AppCommand::ToggleDevice(d)),
            (Some(d), _) => cmds.push(AppCommand::Select(Selection {
                devices: [d].into_iter().collect(),
                ..Selection::default()
            })),
            (None, Some(p)) => match layout.rack_at(p) {
                Some(g) if g.rect.contains(p) => cmds.push(AppCommand::Select(Selection {
                    racks: [g.id].into_iter().collect(),
                    ..Selection::default()
                })),
                _ => cmds.push(AppCommand::Select(Selection::default())),
            },
            _ => {}
        }
    }
    if resp.double_clicked()
        && let Some(d) = hovered_device
        && design
            .devices
            .get(&d)
            .and_then(|dev| design.parts.get(&dev.part))
            .is_some_and(|p| matches!(p.kind, PartKind::Server(_)))
    {
        state.server_window = Some(d);
    }

    // Drawing.
    let visible = canvas_from_screen * rect;
    let text_color = ui.visuals().text_color();
    let weak = ui.visuals().weak_text_color();
    let frame_fill = ui.visuals().faint_bg_color;
    let slot_fill = ui.visuals().extreme_bg_color;
    let sel_color = Color32::from_rgb(255, 210, 60);
    let rack_power: HashMap<RackId, (f64, f64)> = report
        .map(|r| {
            r.power
                .racks
                .iter()
                .map(|rp| (rp.rack, (rp.power_w, rp.budget_w)))
                .collect()
        })
        .unwrap_or_default();
    // Labels stay readable when zoomed out (down to where they are hidden altogether).
    let font = |size: f32| egui::FontId::proportional((size * zoom).clamp(9.0, 40.0));
    for g in &layout.racks {
        if !g.rect.intersects(visible) {
            continue;
        }
        let Some(rack) = design.racks.get(&g.id) else {
            continue;
        };
        let r = screen_from_canvas * g.rect;
        let selected = state.selection.racks.contains(&g.id);
        painter.rect(
            r,
            4.0 * zoom,
            frame_fill,
            Stroke::new(
                if selected { 2.5 } else { 1.0 },
                if selected { sel_color } else { weak },
            ),
            StrokeKind::Inside,
        );
        painter.rect_filled(screen_from_canvas * g.mount, 0.0, slot_fill);
        if zoom > 0.25 {
            painter.text(
                screen_from_canvas * pos2(g.rect.left() + 6.0, g.rect.top() + 4.0),
                egui::Align2::LEFT_TOP,
                format!("{}  {}U", rack.name, rack.height_u),
                font(13.0),
                text_color,
            );
            if let Some((p, b)) = rack_power.get(&g.id) {
                let frac = if *b > 0.0 { p / b } else { f64::INFINITY };
                let c = if frac > 1.0 {
                    Color32::from_rgb(230, 70, 60)
                } else if frac > 0.9 {
                    Color32::from_rgb(230, 170, 40)
                } else {
                    Color32::from_rgb(90, 180, 90)
                };
                painter.text(
                    screen_from_canvas * pos2(g.rect.left() + 6.0, g.rect.top() + 4.0)
                        + vec2(0.0, (13.0 * zoom).max(10.0) + 1.0),
                    egui::Align2::LEFT_TOP,
                    format!("{:.1} / {:.1} kW", p / 1000.0, b / 1000.0),
                    font(11.0),
                    c,
                );
            }
        }
        // Unit numbers.
        let step = if zoom * U_H >= 10.0 {
            1
        } else if zoom * U_H >= 4.5 {
            5
        } else {
            0
        };
        if step > 0 {
            for u in (1..=g.height_u).filter(|u| *u == 1 || u % step == 0) {
                let ur = g.unit_rect(u, 1);
                painter.text(
                    screen_from_canvas * pos2(g.rect.left() + RAIL_W - 3.0, ur.center().y),
                    egui::Align2::RIGHT_CENTER,
                    u.to_string(),
                    egui::FontId::proportional((9.0 * zoom).clamp(7.0, 20.0)),
                    weak,
                );
            }
        }
    }

    // Devices.
    for (id, cr) in &layout.devices {
        if !cr.intersects(visible) {
            continue;
        }
        let Some(d) = design.devices.get(id) else {
            continue;
        };
        let cat = design
            .parts
            .get(&d.part)
            .map_or(crate::catalog::Category::Accessory, |p| p.kind.category());
        let selected = state.selection.devices.contains(id);
        let hovered = hovered_device == Some(*id);
        let r = (screen_from_canvas * *cr).shrink(0.5);
        let base = category_color(cat);
        let fill = if selected {
            base
        } else {
            base.gamma_multiply(if hovered { 0.85 } else { 0.65 })
        };
        painter.rect(
            r,
            2.0 * zoom,
            fill,
            Stroke::new(
                if selected { 2.0 } else { 0.5 },
                if selected {
                    sel_color
                } else {
                    Color32::from_black_alpha(120)
                },
            ),
            StrokeKind::Inside,
        );
        if r.height() >= 9.0 && r.width() > 30.0 {
            let gpus = if d.gpus.is_empty() {
                String::new()
            } else {
                format!("  {}×GPU", d.gpus.len())
            };
            let galley = painter.layout_no_wrap(
                format!("{}{gpus}", d.name),
                egui::FontId::proportional((r.height() * 0.7).min(12.0 * zoom).clamp(6.0, 16.0)),
                Color32::WHITE,
            );
            let pos = pos2(r.left() + 4.0, r.center().y - galley.size().y / 2.0);
            painter
                .with_clip_rect(r.intersect(rect))
                .galley(pos, galley, Color32::WHITE);
        }
    }

    // Links.
    if !state.hide_links || !state.selection.is_empty() {
        let highlight = |l: &crate::model::LinkId, a: DeviceId, b: DeviceId| {
            state.selection.links.contains(l)
                || state.selection.devices.contains(&a)
                || state.selection.devices.contains(&b)
        };
        // Far out, individual cables are noise and cost frame time: draw only the selection's.
        let draw_all = !state.hide_links && zoom >= 0.2;
        // Loads of the chosen pattern, sorted by link id in the report.
        let routing = report.map(|r| &r.bandwidth.routing);
        let pattern = state.load_pattern;
        let hottest = routing
            .and_then(|r| r.patterns.get(pattern))
            .and_then(|p| p.hottest_link);
        let utilisation = |lid: &crate::model::LinkId| -> Option<f64> {
            let links = &routing?.links;
            let i = links.binary_search_by_key(lid, |l| l.link).ok()?;
            let l = links.get(i)?;
            Some(l.loads_gbps.get(pattern).copied().unwrap_or(0.0) / l.capacity_gbps.max(1e-12))
        };
        for (lid, link) in &design.links {
            let hl = highlight(lid, link.a.device, link.b.device);
            if !hl && !draw_all {
                continue;
            }
            let (Some(ra), Some(rb)) = (
                layout.devices.get(&link.a.device),
                layout.devices.get(&link.b.device),
            ) else {
                continue;
            };
            if !hl && !ra.union(*rb).intersects(visible) {
                continue;
            }
            let mut width =
                ((link.medium.gbps() / 400.0).sqrt() as f32 * 1.6 * zoom.sqrt()).clamp(0.4, 4.0);
            let color = if hl {
                sel_color
            } else {
                match utilisation(lid) {
                    None => Color32::from_rgba_unmultiplied(150, 170, 200, 45),
                    Some(u) if u <= 0.0 => Color32::from_rgba_unmultiplied(150, 170, 200, 45),
                    Some(u) if u <= 0.5 => Color32::from_rgba_unmultiplied(90, 200, 120, 110),
                    Some(u) if u <= 0.8 => Color32::from_rgba_unmultiplied(230, 200, 60, 140),
                    Some(u) if u <= 1.0 + 1e-6 => {
                        Color32::from_rgba_unmultiplied(240, 140, 40, 150)
                    }
                    Some(_) => Color32::from_rgba_unmultiplied(235, 60, 50, 220),
                }
            };
            if hottest == Some(*lid) {
                width += 2.0;
            }
            let stroke = Stroke::new(if hl { width + 0.6 } else { width }, color);
            let (ca, cb) = (ra.center(), rb.center());
            if (ca.x - cb.x).abs() < 1.0 {
                // Same rack: a curve out to the right of the rack.
                let a = screen_from_canvas * pos2(ra.right(), ca.y);
                let b = screen_from_canvas * pos2(rb.right(), cb.y);
                let bulge = vec2(18.0 + (a.y - b.y).abs() * 0.15, 0.0) * 1.0;
                painter.add(egui::epaint::CubicBezierShape::from_points_stroke(
                    [a, a + bulge, b + bulge, b],
                    false,
                    Color32::TRANSPARENT,
                    stroke,
                ));
            } else {
                let (ax, bx) = if ca.x < cb.x {
                    (ra.right(), rb.left())
                } else {
                    (ra.left(), rb.right())
                };
                painter.line_segment(
                    [
                        screen_from_canvas * pos2(ax, ca.y),
                        screen_from_canvas * pos2(bx, cb.y),
                    ],
                    stroke,
                );
            }
        }
    }

    // Badges go over the links, which start at the devices' right ends.
    let hovered_note = paint_note_badges(
        &painter,
        &layout,
        design,
        screen_from_canvas,
        visible,
        pointer.filter(|p| rect.contains(*p)),
    );

    if let Some((r, verdict, name)) = &port_target {
        let r = screen_from_canvas * *r;
        let (c, msg) = match verdict {
            Ok(n) => (
                Color32::from_rgb(60, 200, 90),
                format!("{name}: {n} compatible free port(s); release to pick one"),
            ),
            Err(why) => (Color32::from_rgb(230, 60, 60), format!("{name}: {why}")),
        };
        outlined_with_tip(&painter, r, c, msg);
    }

    // Ghost.
    if let Some(g) = &ghost {
        let r = screen_from_canvas * g.rect_in_canvas;
        let (c, msg) = match &g.verdict {
            Ok(None) => (
                Color32::from_rgb(60, 200, 90),
                format!("{} — fits", g.label),
            ),
            Ok(Some(w)) => (
                Color32::from_rgb(240, 170, 40),
                format!("{} — fits, but {w}", g.label),
            ),
            Err(why) => (
                Color32::from_rgb(230, 60, 60),
                format!("{} — {why}", g.label),
            ),
        };
        outlined_with_tip(&painter, r, c, msg);
    }

    if design.racks.is_empty() {
        painter.text(
            rect.center(),
            egui::Align2::CENTER_CENTER,
            "No racks yet: add one with the “+ 42U rack” button in the toolbar.",
            egui::FontId::proportional(16.0),
            weak,
        );
    }

    // Hover tooltip for a note badge, else for a device.
    let tooltips = state.drag == CanvasDrag::None
        && !state.no_tooltips
        && egui::DragAndDrop::payload::<PartDrag>(ui.ctx()).is_none();
    if tooltips && let Some((whose, note)) = hovered_note {
        resp.on_hover_ui_at_pointer(|ui| {
            ui.set_max_width(360.0);
            ui.strong(format!("Note on {whose}"));
            ui.label(note);
        });
    } else if tooltips
        && let Some(d) = hovered_device.and_then(|id| design.devices.get(&id).map(|d| (id, d)))
    {
        resp.on_hover_ui_at_pointer(|ui| device_tooltip_ui(ui, design, d.0, d.1));
    }

    // Zoom indicator.
    painter.text(
        rect.right_bottom() - Vec2::splat(8.0),
        egui::Align2::RIGHT_BOTTOM,
        format!("{:.0}%", zoom * 100.0),
        egui::FontId::proportional(11.0),
        weak,
    );
}

fn device_tooltip_ui(ui: &mut egui::Ui, design: &Design, id: DeviceId, d: &Device) {
    let part = design.parts.get(&d.part);
    ui.strong(&d.name);
    ui.label(part.map_or_else(|| d.part.to_string(), |p| p.name.clone()));
    if let Some(units) = design.device_units(d) {
        ui.label(format!("U{}-U{}", units.start(), units.end()));
    }
    let (w, kg) = device_power_weight(design, d);
    ui.label(format!("{w:.0} W, {kg:.0} kg"));
    if !d.gpus.is_empty() {
        ui.label(format!("{} GPUs, {} NICs", d.gpus.len(), d.nics.len()));
    }
    let links = design
        .links
        .values()
        .filter(|l| l.a.device == id || l.b.device == id)
        .count();
    ui.label(format!("{links} links"));
    if !d.notes.is_empty() {
        ui.separator();
        ui.label(format!("Note: {}", d.notes));
    }
}

/// Side of a note badge on screen, points.
const BADGE: f32 = 13.0;

/// Marks racks and devices that carry a review note with a small badge (top right of the rack's header, right end
/// of the device). Returns whose note is under the pointer, with the note, for the hover text.
fn paint_note_badges(
    painter: &egui::Painter,
    layout: &Layout,
    design: &Design,
    screen_from_canvas: TSTransform,
    visible: Rect,
    pointer: Option<Pos2>,
) -> Option<(String, String)> {
    let mut hovered = None;
    let mut badge = |corner: Pos2, whose: &str, note: &str| {
        let r = Rect::from_min_size(corner - vec2(BADGE + 3.0, -3.0), Vec2::splat(BADGE));
        painter.rect(
            r,
            2.0,
            Color32::from_rgb(250, 215, 90),
            Stroke::new(1.0, Color32::from_black_alpha(160)),
            StrokeKind::Inside,
        );
        painter.text(
            r.center(),
            egui::Align2::CENTER_CENTER,
            "N",
            egui::FontId::proportional(BADGE - 3.0),
            Color32::BLACK,
        );
        if pointer.is_some_and(|p| r.expand(2.0).contains(p)) {
            hovered = Some((whose.to_string(), note.to_string()));
        }
    };
    for g in &layout.racks {
        if let Some(rack) = design.racks.get(&g.id)
            && !rack.notes.is_empty()
            && g.rect.intersects(visible)
        {
            badge(
                screen_from_canvas * g.rect.right_top(),
                &format!("rack {}", rack.name),
                &rack.notes,
            );
        }
    }
    for (id, cr) in &layout.devices {
        if let Some(d) = design.devices.get(id)
            && !d.notes.is_empty()
            && cr.intersects(visible)
        {
            let r = screen_from_canvas * *cr;
            // Centred vertically on the device, whatever its height on screen.
            let corner = pos2(r.right(), r.center().y - BADGE / 2.0 - 3.0);
            badge(corner, &d.name, &d.notes);
        }
    }
    hovered
}

/// Screen position of the middle of unit `u` of a rack with the current view (tests drive drags with it).
pub fn unit_screen_pos(design: &Design, state: &UiState, rack: RackId, u: u16) -> Option<Pos2> {
    let layout = Layout::new(design);
    let g = layout.rack(rack)?;
    let t = TSTransform::new(
        state.canvas_rect?.min.to_vec2() + state.view.offset,
        state.view.zoom,
    );
    Some(t * g.unit_rect(u, 1).center())
}

/// Screen rect of a device with the current view.
pub fn device_screen_rect(design: &Design, state: &UiState, device: DeviceId) -> Option<Rect> {
    let layout = Layout::new(design);
    let t = TSTransform::new(
        state.canvas_rect?.min.to_vec2() + state.view.offset,
        state.view.zoom,
    );
    layout.devices.get(&device).map(|r| t * *r)
}

/// Outlines a rect in a verdict colour with a note beside it (drop targets and ghosts).
fn outlined_with_tip(painter: &egui::Painter, r: Rect, c: Color32, msg: String) {
    painter.rect(
        r,
        2.0,
        c.gamma_multiply(0.35),
        Stroke::new(2.0, c),
        StrokeKind::Inside,
    );
    let galley = painter.layout(msg, egui::FontId::proportional(13.0), Color32::WHITE, 320.0);
    let tip = Rect::from_min_size(
        r.right_top() + vec2(8.0, 0.0),
        galley.size() + vec2(8.0, 6.0),
    );
    painter.rect_filled(tip, 3.0, Color32::from_black_alpha(210));
    painter.galley(tip.min + vec2(4.0, 3.0), galley, Color32::WHITE);
}

/// How many free ports of a device can take a link from `from`; the reason when none can.
pub fn compatible_ports(
    design: &Design,
    from: &crate::model::PortRef,
    device: DeviceId,
) -> Result<usize, String> {
    if device == from.device {
        return Err("that is the device the cable starts from".into());
    }
    let mut first_reason = None;
    let mut count = 0;
    for p in design.ports(device) {
        let to = crate::model::PortRef::new(device, p.name.clone());
        let verdict = design
            .common_medium(from, &to)
            .and_then(|m| design.check_link(from, &to, &m, None));
        match verdict {
            Ok(()) => count += 1,
            Err(why) => {
                first_reason.get_or_insert(why);
            }
        }
    }
    if count > 0 {
        Ok(count)
    } else {
        Err(first_reason.unwrap_or_else(|| "it has no network ports".into()))
    }
}
