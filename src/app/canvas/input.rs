//! The canvas's input step: fit and zoom, then the pointer turned into commands (select, move, add, cable) and
//! previews for the paint step. Nothing here draws or changes the design.

use super::layout::{Layout, placement};
use super::rules::{new_device_power, part_spec, placement_verdict};
use super::{Frame, Ghost, Overlays, PortTarget};
use crate::app::commands::{AppCommand, DocCommand, Show, UiCommand};
use crate::app::state::{
    CableChoice, CanvasDrag, FitTarget, PartDrag, PortDrag, Selection, UiState,
};
use crate::catalog::{Catalog, PartKind};
use crate::edit::{Gestures, compatible_ports};
use crate::model::{Design, PortRef};
use egui::Rect;
use egui::emath::TSTransform;

/// Designs of up to this many racks are fitted at a zoom where rack headers are drawn, at worst; larger ones are
/// fitted whole (their overview is the bundles, not the names).
const READABLE_FIT_MAX_RACKS: usize = 64;

/// The least zoom Fit picks for such a design: rack headers are drawn above `paint::HEADER_ZOOM`, and at this one
/// a rack is about 50 points wide, room for its name at the smallest label size.
const FIT_MIN_ZOOM: f32 = super::paint::HEADER_ZOOM + 0.05;

/// Fit requests (F key, menu, findings, a new rack, a resized canvas) and zoom around the pointer.
pub(super) fn view_input(
    ui: &egui::Ui,
    resp: &egui::Response,
    rect: Rect,
    layout: &Layout,
    design: &Design,
    state: &mut UiState,
) {
    let resized = state
        .canvas
        .canvas_rect
        .is_some_and(|old| (old.size() - rect.size()).length() > 1.0);
    state.canvas.canvas_rect = Some(rect);
    if resized && state.canvas.view.fit.is_none() {
        // A view that still frames what it was fitted to keeps framing it when the canvas changes size.
        state.canvas.view.fit = state.canvas.view.fitted;
    }
    if state.canvas.view.fit == Some(FitTarget::Reveal) {
        state.canvas.view.fit = None;
        if let Some(b) = layout.selection_bounds(&state.selection, design) {
            let zoom = state.canvas.view.zoom;
            let to_screen =
                |p: egui::Pos2| rect.min + state.canvas.view.offset + p.to_vec2() * zoom;
            let shown = Rect::from_min_max(to_screen(b.min), to_screen(b.max)).expand(20.0);
            let shift = |lo: f32, hi: f32, min: f32, max: f32| {
                if hi > max {
                    (max - hi).max(min - lo)
                } else if lo < min {
                    min - lo
                } else {
                    0.0
                }
            };
            state.canvas.view.offset += egui::vec2(
                shift(shown.left(), shown.right(), rect.left(), rect.right()),
                shift(shown.top(), shown.bottom(), rect.top(), rect.bottom()),
            );
        }
    }
    if let Some(target) = state.canvas.view.fit.take() {
        state.canvas.view.fitted = Some(target);
        let bounds = match target {
            FitTarget::Selection => layout
                .selection_bounds(&state.selection, design)
                .or_else(|| layout.bounds()),
            FitTarget::All | FitTarget::Reveal => layout.bounds(),
        };
        if let Some(b) = bounds {
            let b = b.expand(30.0);
            let whole = (rect.width() / b.width())
                .min(rect.height() / b.height())
                .clamp(0.05, 3.0);
            // Fit never shrinks a design of a few rows below the zoom where rack headers are drawn (issue 35:
            // at 1024x700 it went to 10% and hid every name): past that it shows the top left at a readable
            // size and the rest is a pan away. A large design (a pod of hundreds of racks) is still fitted whole,
            // where its bundles give the overview.
            let racks = layout.racks.len();
            let zoom = if whole < FIT_MIN_ZOOM && racks <= READABLE_FIT_MAX_RACKS {
                FIT_MIN_ZOOM
            } else {
                whole
            };
            state.canvas.view.zoom = zoom;
            state.canvas.view.offset = if zoom > whole {
                // The bounds' top left at the canvas's top left; horizontally centred when the width fits.
                let x = if b.width() * zoom <= rect.width() {
                    rect.width() / 2.0 - b.center().x * zoom
                } else {
                    -b.min.x * zoom
                };
                let y = if b.height() * zoom <= rect.height() {
                    rect.height() / 2.0 - b.center().y * zoom
                } else {
                    -b.min.y * zoom
                };
                egui::vec2(x, y)
            } else {
                rect.size() / 2.0 - b.center().to_vec2() * zoom
            };
        }
    }
    zoom_at_pointer(ui, resp, rect, &mut state.canvas.view, 0.05..=4.0);
}

/// The wheel, or ctrl+wheel / pinch, zooming `view` around the pointer within `zooms` (the rack canvas and the
/// floor view).
pub(super) fn zoom_at_pointer(
    ui: &egui::Ui,
    resp: &egui::Response,
    rect: Rect,
    view: &mut super::state::View,
    zooms: std::ops::RangeInclusive<f32>,
) {
    if resp.contains_pointer()
        && let Some(p) = ui.input(|i| i.pointer.hover_pos())
    {
        let (scroll, zoom_delta) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
        let factor = zoom_delta * (scroll * 0.0015).exp();
        if (factor - 1.0).abs() > 1e-4 {
            let from = TSTransform::new(rect.min.to_vec2() + view.offset, view.zoom);
            let at = from.inverse() * p;
            let zoom = (view.zoom * factor).clamp(*zooms.start(), *zooms.end());
            view.zoom = zoom;
            view.fitted = None;
            view.offset = p - rect.min - at.to_vec2() * zoom;
        }
    }
}

/// Turns this frame's pointer into commands; returns what the paint step should preview.
pub(super) fn input(
    ui: &egui::Ui,
    f: &Frame<'_>,
    catalog: &Catalog,
    state: &mut UiState,
    cmds: &mut Vec<AppCommand>,
) -> Overlays {
    drag_start(ui, f, state);
    // A drag that ended without this response seeing it (focus lost, pointer gone) must not stick.
    if !f.resp.dragged() && !f.resp.drag_stopped() {
        state.canvas.drag = CanvasDrag::None;
    }
    if f.resp.dragged() && state.canvas.drag == CanvasDrag::Pan {
        state.canvas.view.offset += f.resp.drag_delta();
        state.canvas.view.fitted = None;
    }
    let moving = move_device(f, catalog, state, cmds);
    let dropping = palette_drop(ui, f, catalog, &mut state.status, cmds);
    let port_target = port_drop(ui, f, state, cmds);
    let band = box_select(ui, f, state, cmds);
    // Every drag ends with the press that ends it, whatever it was.
    if f.resp.drag_stopped() {
        state.canvas.drag = CanvasDrag::None;
    }
    let hovered_device = clicks(ui, f, (&state.canvas, &state.selection), cmds);
    Overlays {
        ghost: dropping.or(moving),
        port_target,
        band,
        hovered_device,
    }
}

/// What a drag that starts now does: move the device under it, rubber-band inside a rack, pan elsewhere.
fn drag_start(ui: &egui::Ui, f: &Frame<'_>, state: &mut UiState) {
    if !f.resp.drag_started() {
        return;
    }
    let (design, layout) = (f.design, &f.layout);
    let origin = ui.input(|i| i.pointer.press_origin()).or(f.pointer);
    let middle = ui.input(|i| {
        i.pointer.button_down(egui::PointerButton::Middle)
            || i.pointer.button_down(egui::PointerButton::Secondary)
    });
    let shift = ui.input(|i| i.modifiers.shift);
    state.canvas.drag = match origin.map(|o| f.canvas_from_screen * o) {
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
            None if shift || layout.rack_at(o).is_some() => CanvasDrag::BoxSelect {
                start_in_screen: f.screen_from_canvas * o,
            },
            None => CanvasDrag::Pan,
        },
        None => CanvasDrag::None,
    };
}

/// A device being moved: its ghost while dragging, one move edit when released.
fn move_device(
    f: &Frame<'_>,
    catalog: &Catalog,
    state: &mut UiState,
    cmds: &mut Vec<AppCommand>,
) -> Option<Ghost> {
    let CanvasDrag::MoveDevice { device, grab_u } = state.canvas.drag.clone() else {
        return None;
    };
    let design = f.design;
    let (p, d) = (f.pointer_in_canvas?, design.devices.get(&device)?);
    let h = design.device_height_u(d);
    let target = placement(&f.layout, p, h, grab_u);
    let ghost = target.and_then(|(rack, u)| {
        let g = f.layout.rack(rack)?;
        let power = crate::analysis::power::device_power_weight(design, d).0;
        Some(Ghost {
            rect_in_canvas: g.unit_rect(u, h),
            verdict: placement_verdict(design, rack, u, h, Some(device), power),
            label: format!("{} -> U{u}", d.name),
        })
    });
    if f.resp.drag_stopped()
        && let Some((rack, u)) = target
        && (rack != d.rack || u != d.position_u)
    {
        match Gestures::new(design, catalog).move_device(device, rack, u) {
            Ok(g) => cmds.push(DocCommand::Edit(g.label, g.edit).into()),
            Err(why) => state.status.refuse(why.to_string()),
        }
    }
    ghost
}

/// A part dragged from the palette: its ghost over a rack, an add command when released where it fits.
fn palette_drop(
    ui: &egui::Ui,
    f: &Frame<'_>,
    catalog: &Catalog,
    status: &mut crate::app::state::StatusLine,
    cmds: &mut Vec<AppCommand>,
) -> Option<Ghost> {
    let payload = egui::DragAndDrop::payload::<PartDrag>(ui.ctx())?;
    let design = f.design;
    let spec = part_spec(design, catalog, &payload.0).filter(|s| s.kind.is_rack_mounted())?;
    let h = spec.height_u;
    let over = f.pointer.is_some_and(|p| f.rect.contains(p));
    let target = f
        .pointer_in_canvas
        .filter(|_| over)
        .and_then(|p| placement(&f.layout, p, h, f32::from(h) / 2.0));
    let ghost = target.and_then(|(rack, u)| {
        let g = f.layout.rack(rack)?;
        let power = new_device_power(design, catalog, &payload.0);
        Some(Ghost {
            rect_in_canvas: g.unit_rect(u, h),
            verdict: placement_verdict(design, rack, u, h, None, power),
            label: format!("{} at U{u}", spec.name),
        })
    });
    if ui.input(|i| i.pointer.any_released()) {
        match (&ghost, target) {
            (Some(Ghost { verdict: Ok(_), .. }), Some((rack, u))) => {
                cmds.push(
                    DocCommand::AddDevice {
                        part: payload.0.0.to_string(),
                        rack,
                        position_u: u,
                    }
                    .into(),
                );
            }
            (
                Some(Ghost {
                    verdict: Err(why), ..
                }),
                _,
            ) => {
                status.refuse(format!("Cannot place {}: {why}", spec.name));
            }
            _ => {}
        }
        egui::DragAndDrop::clear_payload(ui.ctx());
    }
    ghost
}

/// A port dragged from the inspector: the device under the pointer lights up green when it has a compatible free
/// port, red with the reason when not; releasing over a green one cables to its first compatible free port (the
/// inspector shows the choice and offers the others).
fn port_drop(
    ui: &egui::Ui,
    f: &Frame<'_>,
    state: &mut UiState,
    cmds: &mut Vec<AppCommand>,
) -> Option<PortTarget> {
    let payload = egui::DragAndDrop::payload::<PortDrag>(ui.ctx())?;
    let released = ui.input(|i| i.pointer.any_released());
    if released {
        egui::DragAndDrop::clear_payload(ui.ctx());
    }
    let design = f.design;
    let from = payload.0.clone();
    let dev = f
        .pointer_in_canvas
        .and_then(|p| f.layout.device_at(p, design))?;
    let rect_in_canvas = *f.layout.devices.get(&dev)?;
    let verdict = compatible_ports(design, &from, dev);
    let name = design
        .devices
        .get(&dev)
        .map_or(String::new(), |d| d.name.clone());
    if released {
        match &verdict {
            Ok(ports) => {
                if let Some(first) = ports.first() {
                    cmds.push(
                        DocCommand::Connect(from.clone(), PortRef::new(dev, first.clone())).into(),
                    );
                    state.canvas.cable_choice = Some(CableChoice {
                        from,
                        device: dev,
                        ports: ports.clone(),
                    });
                }
                cmds.push(
                    UiCommand::Select(Selection {
                        devices: [dev].into(),
                        ..Selection::default()
                    })
                    .into(),
                );
            }
            Err(why) => state
                .status
                .refuse(format!("Cannot cable to {name}: {why}")),
        }
    }
    Some(PortTarget {
        rect_in_canvas,
        verdict,
        name,
    })
}

/// The rubber band of a box selection while dragging (screen space); the selection when released.
fn box_select(
    ui: &egui::Ui,
    f: &Frame<'_>,
    state: &UiState,
    cmds: &mut Vec<AppCommand>,
) -> Option<Rect> {
    let CanvasDrag::BoxSelect { start_in_screen } = state.canvas.drag else {
        return None;
    };
    let band = Rect::from_two_pos(start_in_screen, f.pointer?);
    if f.resp.drag_stopped() {
        let band_in_canvas = f.canvas_from_screen * band;
        let mut sel = if ui.input(|i| i.modifiers.shift) {
            state.selection.clone()
        } else {
            Selection::default()
        };
        for (id, r) in &f.layout.devices {
            if r.intersects(band_in_canvas) {
                sel.devices.insert(*id);
            }
        }
        cmds.push(UiCommand::Select(sel).into());
    }
    Some(band)
}

/// Clicks select (shift adds), a double click on a server opens its internals. Returns the device under the
/// pointer.
fn clicks(
    ui: &egui::Ui,
    f: &Frame<'_>,
    (canvas, selection): (&super::state::CanvasState, &Selection),
    cmds: &mut Vec<AppCommand>,
) -> Option<crate::model::DeviceId> {
    let design = f.design;
    let hovered = f
        .pointer_in_canvas
        .filter(|_| f.resp.contains_pointer())
        .and_then(|p| f.layout.device_at(p, design));
    if f.resp.clicked() {
        let shift = ui.input(|i| i.modifiers.shift);
        match (hovered, f.pointer_in_canvas) {
            (Some(d), _) if shift => cmds.push(UiCommand::ToggleDevice(d).into()),
            (Some(d), _) => cmds.push(
                UiCommand::Select(Selection {
                    devices: [d].into_iter().collect(),
                    ..Selection::default()
                })
                .into(),
            ),
            // A click on a drawn cable picks it (within a few points of the line) and opens its inspector.
            (None, Some(_))
                if let Some(lid) = f
                    .pointer
                    .and_then(|at| super::paint::link_at(f, canvas, selection, at)) =>
            {
                cmds.push(UiCommand::Show(Show::Inspector).into());
                cmds.push(
                    UiCommand::Select(Selection {
                        links: [lid].into_iter().collect(),
                        ..Selection::default()
                    })
                    .into(),
                );
            }
            (None, Some(p)) => match f.layout.rack_at(p) {
                Some(g) if g.rect.contains(p) => cmds.push(
                    UiCommand::Select(Selection {
                        racks: [g.id].into_iter().collect(),
                        ..Selection::default()
                    })
                    .into(),
                ),
                _ => cmds.push(UiCommand::Select(Selection::default()).into()),
            },
            _ => {}
        }
    }
    if f.resp.double_clicked()
        && let Some(d) = hovered
        && design
            .devices
            .get(&d)
            .and_then(|dev| design.parts.get(&dev.part))
            .is_some_and(|p| matches!(p.kind, PartKind::Server(_)))
    {
        cmds.push(UiCommand::Show(Show::Server(d)).into());
    }
    hovered
}
