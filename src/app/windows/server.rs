//! The server internals window: GPU and NIC slots from the server spec (parent in the PCIe tree, link generation
//! and width), what is installed, and putting a part in a slot or clearing it, one edit each (built by
//! `edit::Gestures::slot`). A part that does not fit a slot is refused with the reason, shown at the slot.

use crate::app::commands::{AppCommand, DocCommand, Show, UiCommand};
use crate::app::state::PartDrag;
use crate::app::theme::{self, Status};
use crate::app::window::{AppWindow, WindowContext, egui_id};
use crate::catalog::{Catalog, Category, Part, PartKind, ServerSpec, SlotSpec};
use crate::edit::{Gestures, SlotKind};
use crate::model::{Design, Device, DeviceId, PartId};
use std::collections::BTreeMap;

fn slot_text(s: &SlotSpec) -> String {
    match &s.link {
        Some(l) => format!("{} · {l}", s.parent),
        None => s.parent.clone(),
    }
}

/// What a slot grid shows and offers: the server, its slots of one kind, the parts that may go in them.
struct SlotGrid<'a> {
    design: &'a Design,
    catalog: &'a Catalog,
    id: DeviceId,
    device: &'a Device,
    kind: SlotKind,
    /// Per slot: its form or role, and where it hangs in the PCIe tree.
    slots: Vec<(String, &'a SlotSpec)>,
    offers: Vec<(&'a PartId, &'a Part)>,
}

impl SlotGrid<'_> {
    /// What is installed in a slot.
    fn current(&self, i: u16) -> Option<&PartId> {
        match self.kind {
            SlotKind::Gpu => self.device.gpus.get(&i),
            SlotKind::Nic => self.device.nics.get(&i),
        }
    }
}

/// One grid of slots (GPU or NIC): a row per slot with a dropdown of the parts that fit (the others disabled,
/// saying why) and a drop target for parts dragged from the palette.
fn slot_grid_ui(
    ui: &mut egui::Ui,
    grid: &SlotGrid<'_>,
    cmds: &mut Vec<AppCommand>,
    refuse: &mut Option<String>,
) {
    let build = Gestures::new(grid.design, grid.catalog);
    let kind = grid.kind.label();
    ui.strong(format!("{kind} slots ({})", grid.slots.len()));
    egui::Grid::new((kind, "slots"))
        .striped(true)
        .show(ui, |ui| {
            for (i, (what, slot)) in grid.slots.iter().enumerate() {
                let Ok(i) = u16::try_from(i) else { continue };
                ui.label(format!("{kind} {i}"));
                ui.label(what);
                ui.label(slot_text(slot));
                let current = grid.current(i);
                let mut chosen: Option<Option<&PartId>> = None;
                let combo = egui::ComboBox::from_id_salt((kind, "slot", i))
                    .selected_text(current.map_or("empty".into(), |p| p.to_string()))
                    .show_ui(ui, |ui| {
                        if ui.selectable_label(current.is_none(), "empty").clicked()
                            && current.is_some()
                        {
                            chosen = Some(None);
                        }
                        for (pid, p) in &grid.offers {
                            let fits = build.slot(grid.id, grid.kind, i, Some(pid)).map(|_| ());
                            let resp = ui.add_enabled(
                                fits.is_ok(),
                                egui::Button::selectable(current == Some(*pid), pid.as_str()),
                            );
                            let resp = match &fits {
                                Ok(()) => resp.on_hover_text(&p.name),
                                Err(why) => resp.on_disabled_hover_text(why.to_string()),
                            };
                            if resp.clicked() && current != Some(*pid) {
                                chosen = Some(Some(*pid));
                            }
                        }
                    })
                    .response;
                if let Some(part) = chosen {
                    match build.slot(grid.id, grid.kind, i, part) {
                        Ok(g) => cmds.push(DocCommand::Edit(g.label, g.edit).into()),
                        Err(e) => *refuse = Some(e.to_string()),
                    }
                }
                slot_drop_ui(ui, &combo, &build, grid, i, cmds, refuse);
                ui.end_row();
            }
        });
}

/// A part dragged from the palette onto a slot: outlined green when it fits, red when not, with the reason in
/// plain words beside the slot; the drop installs it as one undoable edit.
fn slot_drop_ui(
    ui: &egui::Ui,
    resp: &egui::Response,
    build: &Gestures<'_>,
    grid: &SlotGrid<'_>,
    slot: u16,
    cmds: &mut Vec<AppCommand>,
    refuse: &mut Option<String>,
) {
    let Some(payload) = resp.dnd_hover_payload::<PartDrag>() else {
        return;
    };
    let verdict = build.slot(grid.id, grid.kind, slot, Some(&payload.0));
    let color = theme::status(
        ui,
        if verdict.is_ok() {
            Status::Good
        } else {
            Status::Bad
        },
    );
    ui.painter().rect_stroke(
        resp.rect.expand(2.0),
        3.0,
        egui::Stroke::new(2.0, color),
        egui::StrokeKind::Outside,
    );
    if let Err(why) = &verdict {
        // At the slot, not in a far-away status line.
        ui.painter().text(
            resp.rect.right_center() + egui::vec2(10.0, 0.0),
            egui::Align2::LEFT_CENTER,
            why.to_string(),
            egui::FontId::proportional(12.0),
            color,
        );
    }
    if resp.dnd_release_payload::<PartDrag>().is_some() {
        match verdict {
            Ok(g) => cmds.push(DocCommand::Edit(g.label, g.edit).into()),
            Err(e) => *refuse = Some(e.to_string()),
        }
    }
}

/// The server's root complexes, PCIe switches and NVLink domain, in words.
fn tree_summary_ui(ui: &mut egui::Ui, server: &ServerSpec) {
    ui.label(format!(
        "{}, {}{}",
        crate::analysis::format::count(
            usize::from(server.cpu_sockets),
            "CPU socket",
            "CPU sockets"
        ),
        crate::analysis::format::count(server.pcie_switches.len(), "PCIe switch", "PCIe switches"),
        server.nvlink.as_ref().map_or(String::new(), |n| format!(
            ", NVLink island of {} with {}",
            n.island_size,
            crate::analysis::format::count(usize::from(n.nvswitches), "NVSwitch", "NVSwitches")
        ))
    ));
    for sw in &server.pcie_switches {
        ui.label(
            egui::RichText::new(format!(
                "  {} under {}{}",
                sw.name,
                sw.parent,
                sw.uplink
                    .map_or(String::new(), |l| format!(" · uplink {l}"))
            ))
            .small(),
        );
    }
}

/// The server internals window: the server it shows, while open.
#[derive(Default)]
pub struct ServerWindow {
    server: Option<DeviceId>,
}

impl ServerWindow {
    const ID: &'static str = "server";
    const TITLE: &'static str = "Server internals";
}

impl AppWindow for ServerWindow {
    fn id(&self) -> &'static str {
        Self::ID
    }

    fn title(&self) -> &'static str {
        Self::TITLE
    }

    fn is_open(&self) -> bool {
        self.server.is_some()
    }

    fn open(&mut self, show: &Show, _ctx: &WindowContext) -> bool {
        let Show::Server(id) = show else {
            return false;
        };
        self.server = Some(*id);
        true
    }

    fn is_showing(&self, show: &Show) -> bool {
        matches!(show, Show::Server(id) if self.server == Some(*id))
    }

    fn close(&mut self) {
        self.server = None;
    }

    fn ui(&mut self, egui_ctx: &egui::Context, ctx: &WindowContext, cmds: &mut Vec<AppCommand>) {
        // A refusal goes on the status line before the window's edits, as when it was written there at once.
        let first = cmds.len();
        if let Some(e) = server_window_ui(egui_ctx, ctx, &mut self.server, cmds) {
            cmds.insert(first, UiCommand::Refuse(e).into());
        }
    }
}

/// Draws the server internals window when one is open (closing it once its server is gone); returns why a part
/// was refused a slot.
fn server_window_ui(
    egui_ctx: &egui::Context,
    ctx: &WindowContext,
    shown: &mut Option<DeviceId>,
    cmds: &mut Vec<AppCommand>,
) -> Option<String> {
    let (design, catalog) = (&**ctx.design, ctx.catalog);
    let id = (*shown)?;
    let Some(d) = design.devices.get(&id) else {
        *shown = None;
        return None;
    };
    let Some(PartKind::Server(server)) = design.parts.get(&d.part).map(|p| &p.kind) else {
        *shown = None;
        return None;
    };
    // Parts offered: the catalog's plus any overridden or custom ones in the design.
    let mut offers: BTreeMap<&PartId, &Part> = catalog.parts.iter().collect();
    offers.extend(design.parts.iter());
    let of = |cat: Category| -> Vec<(&PartId, &Part)> {
        offers
            .iter()
            .filter(|(_, p)| p.kind.category() == cat)
            .map(|(k, v)| (*k, *v))
            .collect()
    };
    let grids = [
        SlotGrid {
            design,
            catalog,
            id,
            device: d,
            kind: SlotKind::Gpu,
            slots: server
                .gpu_slots
                .iter()
                .map(|s| (format!("{:?}", s.form), &s.slot))
                .collect(),
            offers: of(Category::Gpu),
        },
        SlotGrid {
            design,
            catalog,
            id,
            device: d,
            kind: SlotKind::Nic,
            slots: server
                .nic_slots
                .iter()
                .map(|s| (s.role.name().to_string(), &s.slot))
                .collect(),
            offers: of(Category::Nic),
        },
    ];
    let mut open = true;
    let mut refuse = None;
    let window = egui::Window::new(format!("{} — {}", ServerWindow::TITLE, d.name))
        .id(egui_id(ServerWindow::ID))
        .open(&mut open)
        .default_width(860.0)
        .resizable(true);
    crate::app::widgets::placed(
        window,
        ctx.central_rect,
        crate::app::widgets::WindowSpot::TopLeft,
    )
    .show(egui_ctx, |ui| {
        tree_summary_ui(ui, server);
        ui.label(
            egui::RichText::new("Drag GPUs and NICs from Parts onto the slots.")
                .small()
                .weak(),
        );
        egui::ScrollArea::both().max_height(560.0).show(ui, |ui| {
            let build = Gestures::new(design, catalog);
            crate::app::server_tree::pcie_tree_ui(ui, &build, (id, d), server, cmds, &mut refuse);
            egui::CollapsingHeader::new("Slots as a list")
                .id_salt("slots_list")
                .show(ui, |ui| {
                    for grid in &grids {
                        slot_grid_ui(ui, grid, cmds, &mut refuse);
                        ui.add_space(8.0);
                    }
                });
        });
        ui.label(
            egui::RichText::new(
                "Clearing a NIC slot also removes the links on its ports (undo brings them back).",
            )
            .small()
            .weak(),
        );
    });
    if !open {
        *shown = None;
    }
    refuse
}

/// The window this file adds to the registry (src/app/windows/mod.rs lists the file; build.rs the window).
pub type Window = ServerWindow;
