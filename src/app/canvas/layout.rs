//! Where racks and devices are on the canvas, in canvas space: racks as front elevations side by side (rows by
//! `Rack.row`, order by `Rack.slot`), devices at their rack units, and the screen positions tests drive drags with.

use crate::app::state::{CanvasState, Selection, UiState};
use crate::model::{Design, DeviceId, LinkId, Rack, RackId};
use egui::emath::TSTransform;
use egui::{Pos2, Rect, pos2, vec2};
use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;

/// Height of one rack unit in canvas space.
pub const U_H: f32 = 14.0;
const RACK_W: f32 = 170.0;
pub const RAIL_W: f32 = 20.0;
const SIDE_W: f32 = 8.0;
const HEADER_H: f32 = 44.0;
const GAP_X: f32 = 34.0;
const GAP_Y: f32 = 60.0;

/// One rack's place on the canvas.
pub struct RackGeom {
    /// The rack drawn here.
    pub id: RackId,
    /// Whole frame including the header, canvas space.
    pub rect: Rect,
    /// The mounting area (units), canvas space.
    pub mount: Rect,
    /// Units in the rack.
    pub height_u: u16,
    /// The row it stands in (`Rack.row`).
    pub row: u16,
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

/// A link's two devices and the box around their rects, canvas space: what culling needs without looking the
/// link up in the design.
pub struct LinkGeom {
    /// The link whose ends these are.
    pub id: LinkId,
    /// One end's device.
    pub a: DeviceId,
    /// The other end's device.
    pub b: DeviceId,
    /// Box around both devices, canvas space.
    pub bounds: Rect,
}

/// Where racks and devices are, in canvas space.
#[derive(Default)]
pub struct Layout {
    /// Racks in drawing order.
    pub racks: Vec<RackGeom>,
    /// Index into `racks` by id.
    pub rack_index: HashMap<RackId, usize>,
    /// Each placed device's rect, canvas space (a 0U part: a strip beside its rack's rails).
    pub devices: HashMap<DeviceId, Rect>,
    /// The links at each device (so a device's cabled ports are found without scanning every link).
    pub links_of: HashMap<DeviceId, Vec<LinkId>>,
    /// Every link between two placed devices, in link id order (the report's order).
    pub links: Vec<LinkGeom>,
}

impl Layout {
    /// Lays out a design: racks, devices, and the links between them.
    pub fn new(design: &Design) -> Self {
        let mut layout = Self::place(design);
        for (lid, l) in &design.links {
            for d in [l.a.device, l.b.device] {
                layout.links_of.entry(d).or_default().push(*lid);
            }
            if let (Some(ra), Some(rb)) = (
                layout.devices.get(&l.a.device),
                layout.devices.get(&l.b.device),
            ) {
                layout.links.push(LinkGeom {
                    id: *lid,
                    a: l.a.device,
                    b: l.b.device,
                    bounds: ra.union(*rb),
                });
            }
        }
        layout
    }

    /// Places the racks and devices only.
    fn place(design: &Design) -> Self {
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
                    row: r.row,
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
pub fn placement(layout: &Layout, p: Pos2, h: u16, grab_u: f32) -> Option<(RackId, u16)> {
    let g = layout.rack_at(p)?;
    let max_u = g.height_u.saturating_sub(h.max(1)) + 1;
    let u = (g.u_at(p.y) - grab_u)
        .floor()
        .clamp(1.0, f32::from(max_u.max(1)));
    Some((g.id, u as u16))
}

/// Screen position of the middle of unit `u` of a rack with the current view (tests drive drags with it).
pub fn unit_screen_pos(
    design: &Design,
    canvas: &CanvasState,
    rack: RackId,
    u: u16,
) -> Option<Pos2> {
    let layout = Layout::place(design);
    let g = layout.rack(rack)?;
    let t = TSTransform::new(
        canvas.canvas_rect?.min.to_vec2() + canvas.view.offset,
        canvas.view.zoom,
    );
    Some(t * g.unit_rect(u, 1).center())
}

/// Screen rect of a device with the current view.
pub fn device_screen_rect(design: &Design, state: &UiState, device: DeviceId) -> Option<Rect> {
    device_screen_rects(design, &state.canvas).remove(&device)
}

/// Screen rects of every device with the current view.
pub fn device_screen_rects(design: &Design, state: &CanvasState) -> HashMap<DeviceId, Rect> {
    let Some(canvas) = state.canvas_rect else {
        return HashMap::default();
    };
    let t = TSTransform::new(canvas.min.to_vec2() + state.view.offset, state.view.zoom);
    let mut devices = Layout::place(design).devices;
    for r in devices.values_mut() {
        *r = t * *r;
    }
    devices
}
