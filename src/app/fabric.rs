//! The fabric view: the same design laid out logically in tiers (GPU servers and storage at the bottom, then
//! leaf, spine and core switches), where a scalable unit's cabling is readable. It edits the same document as the
//! rack view: clicks select, and the inspector, Delete and the cabling tools act on that selection.

use super::commands::{AppCommand, UiCommand};
use super::state::Selection;
use crate::analysis::Report;
use crate::model::{Design, DeviceId, LinkId};
use crate::topology::{NodeKind, Topology};
use egui::{Color32, Pos2, Rect, Sense, Stroke, pos2, vec2};
use std::collections::{BTreeMap, HashMap};

/// Where each device sits in the fabric view, for one revision of the document.
#[derive(Debug, Default, Clone)]
pub struct FabricLayout {
    /// Document revision this layout was made for.
    pub revision: u64,
    /// Rows bottom-up: label and devices in order.
    pub rows: Vec<(String, Vec<DeviceId>)>,
    /// Cables between each pair of devices (a < b): the links and their summed Gb/s.
    pub pairs: Vec<(DeviceId, DeviceId, Vec<LinkId>, f64)>,
}

impl FabricLayout {
    /// Lays out the tiers of a design.
    pub fn new(design: &Design, revision: u64) -> Self {
        let topo = Topology::build(design);
        let mut rows: BTreeMap<u8, Vec<DeviceId>> = BTreeMap::new();
        for (id, d) in &design.devices {
            let row = match topo.kind(*id) {
                Some(NodeKind::GpuServer | NodeKind::Server | NodeKind::Storage) => 0,
                Some(NodeKind::Switch) => topo.tier(*id).unwrap_or(1).max(1),
                None => continue,
            };
            let _ = d;
            rows.entry(row).or_default().push(*id);
        }
        for ids in rows.values_mut() {
            ids.sort_by(|a, b| {
                let name = |x: &DeviceId| design.devices.get(x).map_or("", |d| d.name.as_str());
                name(a).cmp(name(b)).then(a.cmp(b))
            });
        }
        let label = |t: u8| match t {
            0 => "GPU servers and storage".to_string(),
            1 => "Leaf (tier 1)".to_string(),
            2 => "Spine (tier 2)".to_string(),
            3 => "Core (tier 3)".to_string(),
            t => format!("Tier {t}"),
        };
        let mut pairs: BTreeMap<(DeviceId, DeviceId), (Vec<LinkId>, f64)> = BTreeMap::new();
        for (lid, l) in &design.links {
            let key = if l.a.device <= l.b.device {
                (l.a.device, l.b.device)
            } else {
                (l.b.device, l.a.device)
            };
            let e = pairs.entry(key).or_default();
            e.0.push(*lid);
            e.1 += l.medium.gbps();
        }
        Self {
            revision,
            rows: rows.into_iter().map(|(t, ids)| (label(t), ids)).collect(),
            pairs: pairs
                .into_iter()
                .map(|((a, b), (l, g))| (a, b, l, g))
                .collect(),
        }
    }
}

/// Draws the fabric view and handles its clicks.
pub fn fabric_ui(
    ui: &mut egui::Ui,
    (design, revision): (&Design, u64),
    report: Option<&Report>,
    cache: &mut Option<FabricLayout>,
    selection: &Selection,
    pattern: crate::analysis::pattern::Pattern,
    cmds: &mut Vec<AppCommand>,
) {
    if cache.as_ref().is_none_or(|f| f.revision != revision) {
        *cache = Some(FabricLayout::new(design, revision));
    }
    let Some(layout) = cache.as_ref() else {
        return;
    };
    let (rect, resp) = ui.allocate_exact_size(ui.available_size(), Sense::click());
    let painter = ui.painter_at(rect);
    // Painted once per revision, report, size, theme, selection and pattern: a frame where only the pointer or a
    // menu changes hands the same shapes to the painter again (a 128-SU design has tens of thousands of pairs).
    let v = ui.visuals();
    let key = (
        (revision, report.map(|r| std::ptr::from_ref(r) as usize)),
        (rect, painter.clip_rect(), ui.ctx().pixels_per_point()),
        (v.dark_mode, v.weak_text_color(), v.selection.stroke.color),
        (selection.clone(), pattern.index()),
    );
    let id = egui::Id::unique("racksmith_fabric_scene");
    let boxes = super::canvas::scene::reuse(&painter, id, key, |painter| {
        paint_fabric(
            ui,
            painter,
            rect,
            (design, layout),
            report,
            (selection, pattern),
        )
    });
    let mut hovered: Option<DeviceId> = None;
    let pointer = resp.hover_pos();
    for (id, r) in &boxes {
        if pointer.is_some_and(|p| r.expand(2.0).contains(p)) {
            hovered = Some(*id);
        }
    }
    node_input(ui, &resp, design, layout, hovered, cmds);
}

/// The fabric view's tiers, cables and nodes; returns each node's box on screen.
fn paint_fabric(
    ui: &egui::Ui,
    painter: &egui::Painter,
    rect: Rect,
    (design, layout): (&Design, &FabricLayout),
    report: Option<&Report>,
    (selection, pattern): (&Selection, crate::analysis::pattern::Pattern),
) -> HashMap<DeviceId, Rect> {
    painter.text(
        rect.left_top() + vec2(8.0, 6.0),
        egui::Align2::LEFT_TOP,
        "Fabric view: tiers of the drawn topology",
        egui::FontId::proportional(13.0),
        ui.visuals().weak_text_color(),
    );
    if layout.rows.is_empty() {
        painter.text(
            rect.center(),
            egui::Align2::CENTER_CENTER,
            "No servers, storage or switches yet",
            egui::FontId::proportional(14.0),
            ui.visuals().weak_text_color(),
        );
        return HashMap::new();
    }
    // Node boxes, rows from the bottom up.
    let rows = layout.rows.len() as f32;
    let band = (rect.height() - 40.0) / rows;
    let mut boxes: HashMap<DeviceId, Rect> = HashMap::new();
    for (r, (label, ids)) in layout.rows.iter().enumerate() {
        let y = rect.bottom() - 20.0 - band * (r as f32 + 0.5);
        painter.text(
            pos2(rect.left() + 8.0, y - band * 0.5 + 22.0),
            egui::Align2::LEFT_TOP,
            format!("{label} ({})", ids.len()),
            egui::FontId::proportional(11.0),
            ui.visuals().weak_text_color(),
        );
        let n = ids.len().max(1) as f32;
        let slot = (rect.width() - 16.0) / n;
        let w = (slot * 0.8).clamp(2.0, 110.0);
        let h = (band * 0.28).clamp(6.0, 26.0);
        for (i, id) in ids.iter().enumerate() {
            let cx = rect.left() + 8.0 + slot * (i as f32 + 0.5);
            boxes.insert(*id, Rect::from_center_size(pos2(cx, y), vec2(w, h)));
        }
    }
    // Links: one line per connected pair, coloured by the busiest of its cables under the chosen pattern.
    let routing = report.map(|r| &r.bandwidth.routing);
    let pattern = pattern.index();
    let utilisation = |lid: &LinkId| -> f64 {
        let Some(links) = routing.map(|r| &r.links) else {
            return 0.0;
        };
        let Ok(i) = links.binary_search_by_key(lid, |l| l.link) else {
            return 0.0;
        };
        links.get(i).map_or(0.0, |l| {
            l.loads_gbps.get(pattern).copied().unwrap_or(0.0) / l.capacity_gbps.max(1e-12)
        })
    };
    let sel = selection;
    let sel_color = ui.visuals().selection.stroke.color;
    for (a, b, links, gbps) in &layout.pairs {
        let (Some(ra), Some(rb)) = (boxes.get(a), boxes.get(b)) else {
            continue;
        };
        let hl = sel.devices.contains(a)
            || sel.devices.contains(b)
            || links.iter().any(|l| sel.links.contains(l));
        let u = links.iter().map(utilisation).fold(0.0, f64::max);
        let color = if hl {
            sel_color
        } else {
            super::theme::load_color(Some(u), 0.85)
        };
        let width = ((gbps / 400.0).sqrt() as f32 * 0.8).clamp(0.5, 4.0);
        let (pa, pb) = if ra.center().y > rb.center().y {
            (ra.center_top(), rb.center_bottom())
        } else {
            (ra.center_bottom(), rb.center_top())
        };
        painter.line_segment(
            [pa, pb],
            Stroke::new(if hl { width + 0.8 } else { width }, color),
        );
    }
    // Boxes on top of the lines.
    for (id, r) in &boxes {
        let Some(d) = design.devices.get(id) else {
            continue;
        };
        let cat = design.parts.get(&d.part).map(|p| p.kind.category());
        let selected = sel.devices.contains(id);
        let dark = ui.visuals().dark_mode;
        let fill = cat.map_or(Color32::GRAY, |c| {
            super::widgets::category_fill_with(c, dark, if selected { 1.0 } else { 0.0 })
        });
        painter.rect_filled(*r, 2.0, fill);
        if selected {
            painter.rect_stroke(
                *r,
                2.0,
                Stroke::new(2.0, sel_color),
                egui::StrokeKind::Outside,
            );
        }
        if r.width() > 40.0 {
            painter.text(
                r.center(),
                egui::Align2::CENTER_CENTER,
                &d.name,
                egui::FontId::proportional((r.height() * 0.5).clamp(7.0, 12.0)),
                super::theme::text_on(fill),
            );
        }
    }
    boxes
}

/// The hovered node's tooltip; a click selects it (shift adds), or clears the selection off the nodes.
fn node_input(
    ui: &egui::Ui,
    resp: &egui::Response,
    design: &Design,
    layout: &FabricLayout,
    hovered: Option<DeviceId>,
    cmds: &mut Vec<AppCommand>,
) {
    if let Some(id) = hovered
        && let Some(d) = design.devices.get(&id)
    {
        let name = design.parts.get(&d.part).map_or("", |p| p.name.as_str());
        let links = layout
            .pairs
            .iter()
            .filter(|(a, b, _, _)| *a == id || *b == id)
            .map(|p| p.2.len())
            .sum::<usize>();
        resp.clone()
            .on_hover_text(format!("{}\n{name}\n{links} links", d.name));
    }
    if resp.clicked() {
        let shift = ui.input(|i| i.modifiers.shift);
        match hovered {
            Some(d) if shift => cmds.push(UiCommand::ToggleDevice(d).into()),
            Some(d) => cmds.push(
                UiCommand::Select(Selection {
                    devices: [d].into(),
                    ..Selection::default()
                })
                .into(),
            ),
            None => cmds.push(UiCommand::Select(Selection::default()).into()),
        }
    }
}

/// Screen rect of a device in the fabric view as last laid out in `rect` (for tests that click nodes).
pub fn node_pos(layout: &FabricLayout, rect: Rect, device: DeviceId) -> Option<Pos2> {
    let rows = layout.rows.len() as f32;
    let band = (rect.height() - 40.0) / rows;
    for (r, (_, ids)) in layout.rows.iter().enumerate() {
        if let Some(i) = ids.iter().position(|x| *x == device) {
            let y = rect.bottom() - 20.0 - band * (r as f32 + 0.5);
            let slot = (rect.width() - 16.0) / ids.len().max(1) as f32;
            return Some(pos2(rect.left() + 8.0 + slot * (i as f32 + 0.5), y));
        }
    }
    None
}
