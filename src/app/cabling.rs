//! Cabling panels: the port view of a device, the cable just made by dropping a port (with the other ports it
//! could take), and the two-step "connect" flow with compatible targets enabled and the others showing why not.
//! The edits themselves (cable choice, bulk cabling) are built by `edit::Gestures`.

use super::commands::{AppCommand, DocCommand, UiCommand};
use super::state::{Selection, UiState};
use crate::edit::{Edit, device_name, link_verdict, port_label};
use crate::model::{Design, DeviceId, PortRef};

/// After a port was dropped on a device: which port the cable took, with the others to choose from.
pub fn cable_choice_ui(
    ui: &mut egui::Ui,
    design: &Design,
    canvas: &mut crate::app::state::CanvasState,
    cmds: &mut Vec<AppCommand>,
) {
    let Some(choice) = canvas.cable_choice.clone() else {
        return;
    };
    let current = design
        .link_at(&choice.from)
        .and_then(|l| design.links.get(&l))
        .map(|l| if l.a == choice.from { &l.b } else { &l.a })
        .filter(|other| other.device == choice.device)
        .cloned();
    let Some(current) = current else {
        // The cable is gone (undone, deleted) or leads elsewhere now: nothing to choose.
        canvas.cable_choice = None;
        return;
    };
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label(format!(
                "Cabled {} to",
                port_label(design, &choice.from)
            ));
            let cabled = design.links_by_port(choice.device);
            let free: Vec<&String> = choice
                .ports
                .iter()
                .filter(|p| **p == current.port || !cabled.contains_key(p.as_str()))
                .collect();
            egui::ComboBox::from_id_salt("cable_choice_port")
                .selected_text(port_label(design, &current))
                .show_ui(ui, |ui| {
                    for p in free {
                        let selected = *p == current.port;
                        if ui.selectable_label(selected, p.as_str()).clicked() && !selected {
                            cmds.push(DocCommand::ChangeCablePort(
                                choice.from.clone(),
                                PortRef::new(choice.device, p.clone()),
                            ).into());
                        }
                    }
                })
                .response
                .on_hover_text(
                    "The first compatible free port was taken; pick another to move the cable there",
                );
            if ui.small_button("OK").clicked() {
                canvas.cable_choice = None;
            }
        });
    });
}

/// The port list of a device with each port's status, and the connect flow.
pub fn ports_ui(
    ui: &mut egui::Ui,
    design: &Design,
    device: DeviceId,
    state: &mut UiState,
    cmds: &mut Vec<AppCommand>,
) {
    let ports = design.ports(device);
    let cabled = design.links_by_port(device);
    let free = ports
        .iter()
        .filter(|p| !cabled.contains_key(p.name.as_str()))
        .count();
    egui::CollapsingHeader::new(format!("Ports ({} total, {free} free)", ports.len()))
        .id_salt("ports_section")
        .default_open(true)
        .show(ui, |ui| {
            if ports.is_empty() {
                ui.label(
                    "This device has no network ports (a server gets them from NICs in its slots).",
                );
                return;
            }
            egui::ScrollArea::vertical()
                .id_salt("ports_scroll")
                .max_height(200.0)
                .show(ui, |ui| {
                    egui::Grid::new("ports_grid").striped(true).show(ui, |ui| {
                        for p in &ports {
                            let pr = PortRef::new(device, p.name.clone());
                            ui.label(&p.name);
                            ui.label(format!("{:.0}G {:?}", p.max_gbps, p.role));
                            match cabled.get(p.name.as_str()).copied() {
                                Some(lid) => {
                                    let other = design
                                        .links
                                        .get(&lid)
                                        .map(|l| if l.a == pr { l.b.clone() } else { l.a.clone() });
                                    let medium = design
                                        .links
                                        .get(&lid)
                                        .map(|l| l.medium.to_string())
                                        .unwrap_or_default();
                                    let text = format!(
                                        "-> {}",
                                        other.map(|o| port_label(design, &o)).unwrap_or_default()
                                    );
                                    if ui
                                        .link(text)
                                        .on_hover_text(format!(
                                            "{medium}. Click to select the link and edit its length and cable"
                                        ))
                                        .clicked()
                                    {
                                        cmds.push(UiCommand::Select(Selection {
                                            links: [lid].into_iter().collect(),
                                            ..Selection::default()
                                        }).into());
                                    }
                                    if ui
                                        .small_button("Disconnect")
                                        .on_hover_text("Remove this link")
                                        .clicked()
                                    {
                                        cmds.push(DocCommand::Edit(
                                            format!("Disconnect {}", port_label(design, &pr)),
                                            Edit::RemoveLink(lid),
                                        ).into());
                                    }
                                }
                                None => {
                                    ui.dnd_drag_source(
                                        egui::Id::unique(("port_drag", pr.device, pr.port.as_str())),
                                        super::state::PortDrag(pr.clone()),
                                        |ui| ui.label("free (drag)"),
                                    )
                                    .response
                                    .on_hover_text(
                                        "Drag onto a device on the canvas: devices with a compatible free port light up green, others say why not",
                                    );
                                    if ui
                                        .small_button("Connect…")
                                        .on_hover_text(
                                            "Pick this port, then a port of another device",
                                        )
                                        .clicked()
                                    {
                                        state.canvas.connect_from = Some(pr.clone());
                                        state.canvas.connect_target = None;
                                    }
                                }
                            }
                            ui.end_row();
                        }
                    });
                });
        });
}

/// The second step of connecting: choose the device and one of its ports.
pub fn connect_flow_ui(
    ui: &mut egui::Ui,
    design: &Design,
    state: &mut UiState,
    cmds: &mut Vec<AppCommand>,
) {
    let Some(from) = state.canvas.connect_from.clone() else {
        return;
    };
    if !design.devices.contains_key(&from.device) {
        state.canvas.connect_from = None;
        return;
    }
    // Clicking another device on the canvas makes it the target.
    if let Some(sel) = state.selection.single_device()
        && sel != from.device
    {
        state.canvas.connect_target = Some(sel);
    }
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.strong(format!("Connecting {}", port_label(design, &from)));
            if ui.button("Cancel").clicked() {
                state.canvas.connect_from = None;
                state.canvas.connect_target = None;
            }
        });
        ui.label("Pick the other end: click a device on the canvas or choose it here.");
        let mut devices: Vec<(DeviceId, &str)> = design
            .devices
            .iter()
            .filter(|(id, _)| **id != from.device && !design.ports(**id).is_empty())
            .map(|(id, d)| (*id, d.name.as_str()))
            .collect();
        devices.sort_by_key(|(_, n)| *n);
        let current = state
            .canvas
            .connect_target
            .map_or_else(|| "choose a device".to_string(), |d| device_name(design, d));
        egui::ComboBox::from_id_salt("connect_target")
            .selected_text(current)
            .height(300.0)
            .show_ui(ui, |ui| {
                for (id, name) in devices {
                    ui.selectable_value(&mut state.canvas.connect_target, Some(id), name);
                }
            });
        let Some(target) = state.canvas.connect_target else {
            return;
        };
        let ports = design.ports(target);
        let ok_count = ports
            .iter()
            .filter(|p| link_verdict(design, &from, &PortRef::new(target, p.name.clone())).is_ok())
            .count();
        ui.label(format!(
            "{ok_count} of {} ports can take this link:",
            ports.len()
        ));
        egui::ScrollArea::vertical()
            .id_salt("connect_ports")
            .max_height(140.0)
            .show(ui, |ui| {
                ui.horizontal_wrapped(|ui| {
                    // Ports that can take the link first, so they show without scrolling.
                    let mut rows: Vec<_> = ports
                        .iter()
                        .map(|p| {
                            let to = PortRef::new(target, p.name.clone());
                            let verdict = link_verdict(design, &from, &to);
                            (p, to, verdict)
                        })
                        .collect();
                    rows.sort_by_key(|(_, _, v)| v.is_err());
                    for (p, to, verdict) in rows {
                        let btn = ui.add_enabled(
                            verdict.is_ok(),
                            egui::Button::new(format!("Connect to {}", p.name)).small(),
                        );
                        match verdict {
                            Ok(m) => {
                                if btn.on_hover_text(format!("{m}")).clicked() {
                                    cmds.push(DocCommand::Connect(from.clone(), to).into());
                                }
                            }
                            Err(why) => {
                                btn.on_disabled_hover_text(why);
                            }
                        }
                    }
                });
            });
    });
}
