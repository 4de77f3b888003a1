//! The server internals window: GPU and NIC slots from the server spec (parent in the PCIe tree, link generation
//! and width), what is installed, and putting a part in a slot or clearing it, one edit each. A GPU whose form
//! factor does not match the slot is refused.

use super::AppCommand;
use super::state::UiState;
use crate::catalog::{Catalog, Category, FormFactor, Part, PartKind, SlotSpec};
use crate::edit::Edit;
use crate::model::{Design, Device, DeviceId, PartId};
use std::collections::BTreeMap;

/// Whether a GPU part fits a slot form factor; the reason when not.
pub fn gpu_fits(part: &Part, slot_form: FormFactor) -> Result<(), String> {
    match &part.kind {
        PartKind::Gpu(g) if g.form == slot_form => Ok(()),
        PartKind::Gpu(g) => Err(format!(
            "{} is a {:?} GPU; this slot takes {slot_form:?}",
            part.name, g.form
        )),
        _ => Err(format!("{} is not a GPU", part.name)),
    }
}

/// The edit putting `part` (or nothing) in a slot of a server, copying the part spec into the design if needed.
pub fn slot_edit(
    design: &Design,
    catalog: &Catalog,
    id: DeviceId,
    gpu: bool,
    slot: u16,
    part: Option<&PartId>,
) -> Result<(String, Edit), String> {
    let d = design
        .devices
        .get(&id)
        .ok_or_else(|| format!("{id} does not exist"))?;
    let server = design
        .parts
        .get(&d.part)
        .and_then(|p| match &p.kind {
            PartKind::Server(s) => Some(s),
            _ => None,
        })
        .ok_or_else(|| format!("{} is not a server", d.name))?;
    let mut edits = Vec::new();
    let mut new: Device = d.clone();
    let map = if gpu { &mut new.gpus } else { &mut new.nics };
    let label = match part {
        Some(pid) => {
            let spec = design
                .parts
                .get(pid)
                .or_else(|| catalog.parts.get(pid))
                .ok_or_else(|| format!("no part {pid}"))?;
            if gpu {
                let form = server
                    .gpu_slots
                    .get(usize::from(slot))
                    .map(|s| s.form)
                    .ok_or_else(|| format!("{} has no GPU slot {slot}", d.name))?;
                gpu_fits(spec, form)?;
            } else if !matches!(spec.kind, PartKind::Nic(_)) {
                return Err(format!("{} is not a NIC", spec.name));
            }
            if !design.parts.contains_key(pid) {
                edits.push(Edit::SetPart(pid.clone(), Some(Box::new(spec.clone()))));
            }
            map.insert(slot, pid.clone());
            format!(
                "Put {pid} in {} slot {slot} of {}",
                if gpu { "GPU" } else { "NIC" },
                d.name
            )
        }
        None => {
            map.remove(&slot);
            format!(
                "Clear {} slot {slot} of {}",
                if gpu { "GPU" } else { "NIC" },
                d.name
            )
        }
    };
    edits.push(Edit::UpdateDevice(id, new));
    Ok((label, Edit::Batch(edits)))
}

fn slot_text(s: &SlotSpec) -> String {
    match &s.link {
        Some(l) => format!("{} · {l}", s.parent),
        None => s.parent.clone(),
    }
}

/// Draws the server internals window when one is open.
pub fn server_window_ui(
    ctx: &egui::Context,
    design: &Design,
    catalog: &Catalog,
    state: &mut UiState,
    cmds: &mut Vec<AppCommand>,
) {
    let Some(id) = state.server_window else {
        return;
    };
    let Some(d) = design.devices.get(&id) else {
        state.server_window = None;
        return;
    };
    let Some(PartKind::Server(server)) = design.parts.get(&d.part).map(|p| &p.kind) else {
        state.server_window = None;
        return;
    };
    // Parts offered: the catalog's plus any overridden or custom ones in the design.
    let mut offers: BTreeMap<PartId, &Part> =
        catalog.parts.iter().map(|(k, v)| (k.clone(), v)).collect();
    offers.extend(design.parts.iter().map(|(k, v)| (k.clone(), v)));
    let gpus: Vec<(&PartId, &Part)> = offers
        .iter()
        .filter(|(_, p)| p.kind.category() == Category::Gpu)
        .map(|(k, v)| (k, *v))
        .collect();
    let nics: Vec<(&PartId, &Part)> = offers
        .iter()
        .filter(|(_, p)| p.kind.category() == Category::Nic)
        .map(|(k, v)| (k, *v))
        .collect();

    let mut open = true;
    let mut refuse = None;
    egui::Window::new(format!("Server internals — {}", d.name))
        .id(egui::Id::unique("server_window"))
        .open(&mut open)
        .default_width(560.0)
        .resizable(true)
        .show(ctx, |ui| {
            ui.label(format!(
                "{} CPU socket(s), {} PCIe switch(es){}",
                server.cpu_sockets,
                server.pcie_switches.len(),
                server.nvlink.as_ref().map_or(String::new(), |n| format!(
                    ", NVLink island of {} with {} NVSwitch(es)",
                    n.island_size, n.nvswitches
                ))
            ));
            for sw in &server.pcie_switches {
                ui.label(
                    egui::RichText::new(format!(
                        "  {} under {}{}",
                        sw.name,
                        sw.parent,
                        sw.uplink.map_or(String::new(), |l| format!(" · uplink {l}"))
                    ))
                    .small(),
                );
            }
            egui::ScrollArea::vertical().max_height(520.0).show(ui, |ui| {
                ui.strong(format!("GPU slots ({})", server.gpu_slots.len()));
                egui::Grid::new("gpu_slots").striped(true).show(ui, |ui| {
                    for (i, slot) in server.gpu_slots.iter().enumerate() {
                        let Ok(i) = u16::try_from(i) else { continue };
                        ui.label(format!("GPU {i}"));
                        ui.label(format!("{:?}", slot.form));
                        ui.label(slot_text(&slot.slot));
                        let current = d.gpus.get(&i);
                        let combo = egui::ComboBox::from_id_salt(("gpu_slot", i))
                            .selected_text(current.map_or("empty".into(), |p| p.to_string()))
                            .show_ui(ui, |ui| {
                                if ui.selectable_label(current.is_none(), "empty").clicked() && current.is_some() {
                                    match slot_edit(design, catalog, id, true, i, None) {
                                        Ok((l, e)) => cmds.push(AppCommand::Edit(l, e)),
                                        Err(e) => refuse = Some(e),
                                    }
                                }
                                for (pid, p) in &gpus {
                                    let fits = gpu_fits(p, slot.form);
                                    let resp = ui.add_enabled(
                                        fits.is_ok(),
                                        egui::Button::selectable(current == Some(*pid), pid.as_str()),
                                    );
                                    let resp = match &fits {
                                        Ok(()) => resp.on_hover_text(&p.name),
                                        Err(why) => resp.on_disabled_hover_text(why),
                                    };
                                    if resp.clicked() && current != Some(*pid) {
                                        match slot_edit(design, catalog, id, true, i, Some(pid)) {
                                            Ok((l, e)) => cmds.push(AppCommand::Edit(l, e)),
                                            Err(e) => refuse = Some(e),
                                        }
                                    }
                                }
                            })
                            .response;
                        slot_drop(ui, &combo, design, catalog, id, true, i, cmds, &mut refuse);
                        ui.end_row();
                    }
                });
                ui.add_space(8.0);
                ui.strong(format!("NIC slots ({})", server.nic_slots.len()));
                egui::Grid::new("nic_slots").striped(true).show(ui, |ui| {
                    for (i, slot) in server.nic_slots.iter().enumerate() {
                        let Ok(i) = u16::try_from(i) else { continue };
                        ui.label(format!("NIC {i}"));
                        ui.label(format!("{:?}", slot.role));
                        ui.label(slot_text(&slot.slot));
                        let current = d.nics.get(&i);
                        let combo = egui::ComboBox::from_id_salt(("nic_slot", i))
                            .selected_text(current.map_or("empty".into(), |p| p.to_string()))
                            .show_ui(ui, |ui| {
                                if ui.selectable_label(current.is_none(), "empty").clicked() && current.is_some() {
                                    match slot_edit(design, catalog, id, false, i, None) {
                                        Ok((l, e)) => cmds.push(AppCommand::Edit(l, e)),
                                        Err(e) => refuse = Some(e),
                                    }
                                }
                                for (pid, p) in &nics {
                                    let resp = ui
                                        .selectable_label(current == Some(*pid), pid.as_str())
                                        .on_hover_text(&p.name);
                                    if resp.clicked() && current != Some(*pid) {
                                        match slot_edit(design, catalog, id, false, i, Some(pid)) {
                                            Ok((l, e)) => cmds.push(AppCommand::Edit(l, e)),
                                            Err(e) => refuse = Some(e),
                                        }
                                    }
                                }
                            })
                            .response;
                        slot_drop(ui, &combo, design, catalog, id, false, i, cmds, &mut refuse);
                        ui.end_row();
                    }
                });
            });
            ui.label(
                egui::RichText::new("Clearing a NIC slot also removes the links on its ports (undo brings them back).")
                    .small()
                    .weak(),
            );
        });
    if let Some(e) = refuse {
        state.refuse(e);
    }
    if !open {
        state.server_window = None;
    }
}

/// A part dragged from the palette onto a slot: outlined green when it fits, red with the reason when not; the
/// drop installs it as one undoable edit.
#[allow(clippy::too_many_arguments)]
fn slot_drop(
    ui: &egui::Ui,
    resp: &egui::Response,
    design: &Design,
    catalog: &Catalog,
    id: DeviceId,
    gpu: bool,
    slot: u16,
    cmds: &mut Vec<AppCommand>,
    refuse: &mut Option<String>,
) {
    let Some(payload) = resp.dnd_hover_payload::<super::state::PartDrag>() else {
        return;
    };
    let verdict = slot_edit(design, catalog, id, gpu, slot, Some(&payload.0));
    let color = if verdict.is_ok() {
        egui::Color32::from_rgb(60, 200, 90)
    } else {
        egui::Color32::from_rgb(230, 60, 60)
    };
    ui.painter().rect_stroke(
        resp.rect.expand(2.0),
        3.0,
        egui::Stroke::new(2.0, color),
        egui::StrokeKind::Outside,
    );
    if let Err(why) = &verdict {
        resp.show_tooltip_text(why);
    }
    if resp
        .dnd_release_payload::<super::state::PartDrag>()
        .is_some()
    {
        match verdict {
            Ok((l, e)) => cmds.push(AppCommand::Edit(l, e)),
            Err(e) => *refuse = Some(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::Builder;

    #[test]
    fn a_pcie_gpu_is_refused_in_an_sxm_slot() {
        let catalog = Catalog::builtin().unwrap();
        let mut d = Design::default();
        let mut b = Builder::new(&mut d, &catalog);
        let (rack, _) = b.add_rack("rack-42u", "R1", 0, 0).unwrap();
        let server = b.add_device("hgx-h100-8gpu", "s1", rack, 1).unwrap();
        let PartKind::Server(spec) = &d.parts[&PartId::new("hgx-h100-8gpu")].kind else {
            panic!("not a server");
        };
        assert_eq!(spec.gpu_slots[0].form, FormFactor::Sxm);
        let err = slot_edit(
            &d,
            &catalog,
            server,
            true,
            0,
            Some(&PartId::new("h100-pcie")),
        )
        .unwrap_err();
        assert!(err.contains("Pcie"), "{err}");
        let (_, edit) = slot_edit(
            &d,
            &catalog,
            server,
            true,
            0,
            Some(&PartId::new("h100-sxm")),
        )
        .unwrap();
        edit.apply(&mut d).unwrap();
        assert_eq!(d.devices[&server].gpus[&0], PartId::new("h100-sxm"));
        let (_, edit) = slot_edit(&d, &catalog, server, true, 0, None).unwrap();
        edit.apply(&mut d).unwrap();
        assert!(!d.devices[&server].gpus.contains_key(&0));
    }
}
