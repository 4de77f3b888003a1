//! Server internals as a picture: the PCIe tree drawn top down (CPU root complexes, PCIe switches, then the GPU
//! and NIC slots under their parents) with the NVSwitch domain as a bar under the GPUs. Every slot is a drop
//! target for parts dragged from the palette: green when the part fits, red with the reason written at the slot
//! ("this slot takes an SXM GPU; NVIDIA L40S is a PCIe card").

use super::commands::{AppCommand, DocCommand};
use super::state::PartDrag;
use super::theme::{self, Status};
use crate::catalog::{Category, ServerSpec};
use crate::edit::{Gestures, SlotKind};
use crate::model::{Device, DeviceId};
use egui::{Color32, Pos2, Rect, Sense, Stroke, StrokeKind, pos2, vec2};
use std::collections::BTreeMap;

/// A box of the diagram.
#[derive(Debug, Clone, PartialEq)]
enum Node {
    /// A CPU root complex ("cpu0").
    Root(String),
    /// A PCIe switch.
    Switch(String),
    /// A GPU or NIC slot.
    Slot(SlotKind, u16),
}

/// Width of a slot column, points.
const LEAF_W: f32 = 46.0;
/// Height of a tree level, points.
const LEVEL_H: f32 = 58.0;
/// Height of a box.
const BOX_H: f32 = 34.0;

/// The tree: each node's parent name and children, in spec order.
struct Tree {
    nodes: Vec<(Node, String)>,
}

impl Tree {
    fn new(server: &ServerSpec) -> Self {
        let mut nodes = Vec::new();
        for i in 0..server.cpu_sockets.max(1) {
            nodes.push((Node::Root(format!("cpu{i}")), String::new()));
        }
        for sw in &server.pcie_switches {
            nodes.push((Node::Switch(sw.name.clone()), sw.parent.clone()));
        }
        for (i, s) in server.gpu_slots.iter().enumerate() {
            if let Ok(i) = u16::try_from(i) {
                nodes.push((Node::Slot(SlotKind::Gpu, i), s.slot.parent.clone()));
            }
        }
        for (i, s) in server.nic_slots.iter().enumerate() {
            if let Ok(i) = u16::try_from(i) {
                nodes.push((Node::Slot(SlotKind::Nic, i), s.slot.parent.clone()));
            }
        }
        Self { nodes }
    }

    fn name(node: &Node) -> Option<&str> {
        match node {
            Node::Root(n) | Node::Switch(n) => Some(n),
            Node::Slot(..) => None,
        }
    }

    /// Children of the node named `parent`, in spec order.
    fn children(&self, parent: &str) -> Vec<usize> {
        (0..self.nodes.len())
            .filter(|i| self.nodes.get(*i).is_some_and(|(_, p)| p == parent))
            .collect()
    }

    /// Places every node: x by the leaves under it, y by depth. Slots whose parent is unknown hang off the first
    /// root so nothing is lost.
    fn place(&self) -> (Vec<(usize, Pos2)>, usize, usize) {
        let mut placed = Vec::new();
        let mut next_leaf = 0usize;
        let mut depth_max = 0usize;
        let roots: Vec<usize> = (0..self.nodes.len())
            .filter(|i| matches!(self.nodes.get(*i), Some((Node::Root(_), _))))
            .collect();
        for r in &roots {
            self.place_node(*r, 0, &mut next_leaf, &mut depth_max, &mut placed, 0);
        }
        // Orphans (a parent the spec does not name).
        let known: Vec<usize> = placed.iter().map(|(i, _)| *i).collect();
        for i in 0..self.nodes.len() {
            if !known.contains(&i) {
                placed.push((i, pos2((next_leaf as f32 + 0.5) * LEAF_W, 1.0)));
                next_leaf += 1;
                depth_max = depth_max.max(1);
            }
        }
        (placed, next_leaf.max(1), depth_max)
    }

    fn place_node(
        &self,
        i: usize,
        depth: usize,
        next_leaf: &mut usize,
        depth_max: &mut usize,
        placed: &mut Vec<(usize, Pos2)>,
        guard: usize,
    ) {
        *depth_max = (*depth_max).max(depth);
        let children = self
            .nodes
            .get(i)
            .and_then(|(n, _)| Self::name(n))
            .map(|n| self.children(n))
            .unwrap_or_default();
        // A cycle in a hand-written spec must not recurse for ever.
        if children.is_empty() || guard > 8 {
            placed.push((i, pos2((*next_leaf as f32 + 0.5) * LEAF_W, depth as f32)));
            *next_leaf += 1;
            return;
        }
        let first = *next_leaf;
        for c in children {
            self.place_node(c, depth + 1, next_leaf, depth_max, placed, guard + 1);
        }
        let mid = (first + *next_leaf) as f32 / 2.0;
        placed.push((i, pos2(mid * LEAF_W, depth as f32)));
    }
}

/// Draws the tree of a server with its slots as drop targets; a drop becomes an edit, a refusal the status.
pub fn pcie_tree_ui(
    ui: &mut egui::Ui,
    build: &Gestures<'_>,
    (id, device): (DeviceId, &Device),
    server: &ServerSpec,
    cmds: &mut Vec<AppCommand>,
    refuse: &mut Option<String>,
) {
    let tree = Tree::new(server);
    let (placed, leaves, depth) = tree.place();
    let nvlink_h = if server.nvlink.is_some() { 26.0 } else { 0.0 };
    let size = vec2(
        (leaves as f32 * LEAF_W).max(ui.available_width()),
        (depth as f32 + 1.0) * LEVEL_H + nvlink_h + 16.0,
    );
    let (rect, _) = ui.allocate_exact_size(size, Sense::hover());
    let painter = ui.painter_at(rect);
    let origin = rect.min + vec2(0.0, 6.0);
    let at = |p: Pos2| origin + vec2(p.x, p.y * LEVEL_H);
    let boxes: BTreeMap<usize, Rect> = placed
        .iter()
        .map(|(i, p)| {
            (
                *i,
                Rect::from_center_size(at(*p) + vec2(0.0, BOX_H / 2.0), vec2(LEAF_W - 6.0, BOX_H)),
            )
        })
        .collect();
    let stroke = Stroke::new(1.0, ui.visuals().weak_text_color());
    // Edges first, under the boxes.
    for (i, (_, parent)) in tree.nodes.iter().enumerate() {
        let parent_box = tree
            .nodes
            .iter()
            .position(|(n, _)| Tree::name(n) == Some(parent.as_str()))
            .and_then(|p| boxes.get(&p));
        if let (Some(pb), Some(cb)) = (parent_box, boxes.get(&i)) {
            painter.line_segment([pb.center_bottom(), cb.center_top()], stroke);
        }
    }
    for (i, r) in &boxes {
        let Some((node, _)) = tree.nodes.get(*i) else {
            continue;
        };
        match node {
            Node::Root(name) | Node::Switch(name) => {
                let fill = ui.visuals().widgets.inactive.bg_fill;
                painter.rect(*r, 3.0, fill, stroke, StrokeKind::Inside);
                painter.text(
                    r.center(),
                    egui::Align2::CENTER_CENTER,
                    name.to_uppercase(),
                    egui::FontId::proportional(11.0),
                    ui.visuals().text_color(),
                );
            }
            Node::Slot(kind, slot) => {
                let target = SlotTarget {
                    build,
                    id,
                    device,
                    kind: *kind,
                    slot: *slot,
                };
                slot_box_ui(ui, &painter, *r, &target, cmds, refuse);
            }
        }
    }
    if let Some(nv) = &server.nvlink {
        let gpu_boxes: Vec<Rect> = tree
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, (n, _))| matches!(n, Node::Slot(SlotKind::Gpu, _)))
            .filter_map(|(i, _)| boxes.get(&i).copied())
            .collect();
        if let Some(span) = gpu_boxes.into_iter().reduce(|a, b| a.union(b)) {
            let bar = Rect::from_min_max(
                pos2(span.left(), span.bottom() + 6.0),
                pos2(span.right(), span.bottom() + 6.0 + nvlink_h - 6.0),
            );
            let c = theme::readable(
                super::widgets::category_color(Category::Gpu),
                ui.visuals().panel_fill,
            );
            painter.rect(
                bar,
                3.0,
                Color32::TRANSPARENT,
                Stroke::new(1.5, c),
                StrokeKind::Inside,
            );
            painter.text(
                bar.center(),
                egui::Align2::CENTER_CENTER,
                format!(
                    "NVLink domain: {}, islands of {}",
                    crate::analysis::format::count(
                        usize::from(nv.nvswitches),
                        "NVSwitch",
                        "NVSwitches"
                    ),
                    crate::analysis::format::count(usize::from(nv.island_size), "GPU", "GPUs")
                ),
                egui::FontId::proportional(11.0),
                c,
            );
        }
    }
}

/// A slot of a server and the builder that says what may go in it.
struct SlotTarget<'a> {
    build: &'a Gestures<'a>,
    id: DeviceId,
    device: &'a Device,
    kind: SlotKind,
    slot: u16,
}

/// One slot: what is in it, and a drop target that says at the slot whether a dragged part fits.
fn slot_box_ui(
    ui: &mut egui::Ui,
    painter: &egui::Painter,
    r: Rect,
    target: &SlotTarget<'_>,
    cmds: &mut Vec<AppCommand>,
    refuse: &mut Option<String>,
) {
    let SlotTarget {
        build,
        id,
        device,
        kind,
        slot,
    } = *target;
    let dark = ui.visuals().dark_mode;
    let (installed, cat) = match kind {
        SlotKind::Gpu => (device.gpus.get(&slot), Category::Gpu),
        SlotKind::Nic => (device.nics.get(&slot), Category::Nic),
    };
    let fill = if installed.is_some() {
        super::widgets::category_fill_with(cat, dark, 0.0)
    } else {
        ui.visuals().extreme_bg_color
    };
    let text = if installed.is_some() {
        theme::text_on(fill)
    } else {
        ui.visuals().weak_text_color()
    };
    let short = match kind {
        SlotKind::Gpu => "G",
        SlotKind::Nic => "N",
    };
    painter.rect(
        r,
        3.0,
        fill,
        Stroke::new(1.0, ui.visuals().weak_text_color()),
        StrokeKind::Inside,
    );
    painter.text(
        r.center() - vec2(0.0, 7.0),
        egui::Align2::CENTER_CENTER,
        format!("{short}{slot}"),
        egui::FontId::proportional(11.0),
        text,
    );
    let what = installed.map_or("empty".to_string(), |p| p.to_string());
    painter.text(
        r.center() + vec2(0.0, 8.0),
        egui::Align2::CENTER_CENTER,
        truncate(&what, 7),
        egui::FontId::proportional(9.0),
        text,
    );
    let label = format!("{} slot {slot}: {what}", kind.label());
    let resp = ui
        .interact(
            r,
            ui.scope_id().with(("pcie_slot", kind.label(), slot)),
            Sense::hover(),
        )
        .on_hover_text(&label);
    resp.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Group, true, &label));
    let Some(payload) = resp.dnd_hover_payload::<PartDrag>() else {
        return;
    };
    let verdict = build.slot(id, kind, slot, Some(&payload.0));
    let color = theme::status(
        ui,
        if verdict.is_ok() {
            Status::Good
        } else {
            Status::Bad
        },
    );
    painter.rect_stroke(
        r.expand(2.0),
        3.0,
        Stroke::new(2.5, color),
        StrokeKind::Outside,
    );
    if let Err(why) = &verdict {
        // At the slot, in plain words, readable over the diagram.
        let galley = painter.layout(
            why.to_string(),
            egui::FontId::proportional(12.0),
            color,
            260.0,
        );
        let tip = Rect::from_min_size(
            r.left_bottom() + vec2(0.0, 4.0),
            galley.size() + vec2(8.0, 6.0),
        );
        painter.rect_filled(tip, 3.0, ui.visuals().window_fill);
        painter.galley(tip.min + vec2(4.0, 3.0), galley, color);
        resp.show_tooltip_text(why.to_string());
    }
    if resp.dnd_release_payload::<PartDrag>().is_some() {
        match verdict {
            Ok(g) => cmds.push(DocCommand::Edit(g.label, g.edit).into()),
            Err(e) => *refuse = Some(e.to_string()),
        }
    }
}

/// The first `n` characters of a part id, with an ellipsis when cut.
fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let head: String = s.chars().take(n.saturating_sub(1)).collect();
        format!("{head}…")
    }
}
