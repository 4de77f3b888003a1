//! The inspector: editable, validated properties of the selection (device, rack, link, or the design itself when
//! nothing is selected), its ports and the bulk actions for multi-selections. Every change is one edit.

use super::cabling;
use super::commands::{AppCommand, DocCommand, Show, UiCommand};
use super::state::{NoteTarget, Selection, UiState};
use super::widgets::{fmt_num, num_field};
use crate::analysis::Report;
use crate::analysis::power::device_power_weight;
use crate::catalog::{Catalog, Category, PartKind};
use crate::edit::Edit;
use crate::model::{Design, DeviceId, LinkId, RackId};

/// Draws the inspector.
pub fn inspector_ui(
    ui: &mut egui::Ui,
    design: &Design,
    catalog: &Catalog,
    report: Option<&Report>,
    state: &mut UiState,
    cmds: &mut Vec<AppCommand>,
) {
    ui.add_space(4.0);
    ui.heading("Inspector");
    cabling::cable_choice_ui(ui, design, &mut state.canvas, cmds);
    cabling::connect_flow_ui(ui, design, state, cmds);
    let sel = state.selection.clone();
    // A note typed for something no longer shown (the selection changed before the field saw its focus go).
    let shown = note_target(&sel);
    if let Some((target, text)) = state.editing.notes_buffer.take() {
        if Some(target) == shown {
            state.editing.notes_buffer = Some((target, text));
        } else {
            cmds.extend(note_edit(design, target, text));
        }
    }
    if let Some(d) = sel.single_device() {
        device_ui(ui, design, report, d, state, cmds);
    } else if sel.devices.is_empty() && sel.links.is_empty() && sel.racks.len() == 1 {
        if let Some(r) = sel.racks.first() {
            rack_ui(ui, design, report, *r, state, cmds);
        }
    } else if sel.devices.is_empty() && sel.racks.is_empty() && sel.links.len() == 1 {
        if let Some(l) = sel.links.first() {
            link_ui(ui, design, catalog, *l, state, cmds);
        }
    } else if !sel.is_empty() {
        multi_ui(ui, design, &sel, cmds);
    } else {
        design_ui(ui, design, state, cmds);
    }
}

fn design_ui(ui: &mut egui::Ui, design: &Design, state: &mut UiState, cmds: &mut Vec<AppCommand>) {
    ui.label(egui::RichText::new("Nothing selected: the design").weak());
    let key = "design_name".to_string();
    let mut name = match &state.editing.name_buffer {
        Some((k, v)) if *k == key => v.clone(),
        _ => design.name.clone(),
    };
    ui.horizontal(|ui| {
        let l = ui.label("Design name");
        let resp = ui
            .add(egui::TextEdit::singleline(&mut name).id_salt("design_name"))
            .labelled_by(l.id);
        if resp.lost_focus() {
            state.editing.name_buffer = None;
            if name.trim().is_empty() {
                state.status.refuse("A design needs a name");
            } else if name != design.name {
                cmds.push(
                    DocCommand::Edit(
                        "Rename design".into(),
                        Edit::SetMeta {
                            name: name.trim().to_string(),
                            notes: design.notes.clone(),
                        },
                    )
                    .into(),
                );
            }
        } else if resp.has_focus() {
            state.editing.name_buffer = Some((key.clone(), name.clone()));
        }
    });
    {
        use crate::analysis::format::count;
        ui.label(format!(
            "{}, {}, {}, {}",
            count(design.racks.len(), "rack", "racks"),
            count(design.devices.len(), "device", "devices"),
            count(design.gpu_count(), "GPU", "GPUs"),
            count(design.links.len(), "link", "links")
        ));
    }
    notes_ui(ui, design, NoteTarget::Design, &mut state.editing, cmds);
    ui.add_space(6.0);
    ui.label("Click a device or rack to inspect it; shift-click or drag a box to select several.");
}

fn device_ui(
    ui: &mut egui::Ui,
    design: &Design,
    report: Option<&Report>,
    id: DeviceId,
    state: &mut UiState,
    cmds: &mut Vec<AppCommand>,
) {
    let Some(d) = design.devices.get(&id) else {
        return;
    };
    let part = design.parts.get(&d.part);
    let key = format!("device_name_{}", id.0);
    let mut name = match &state.editing.name_buffer {
        Some((k, v)) if *k == key => v.clone(),
        _ => d.name.clone(),
    };
    egui::Grid::new("device_grid")
        .num_columns(2)
        .show(ui, |ui| {
            let l = ui.label("Name");
            let resp = ui
                .add(egui::TextEdit::singleline(&mut name).id_salt(&key))
                .labelled_by(l.id);
            ui.end_row();
            if resp.lost_focus() {
                state.editing.name_buffer = None;
                let new = name.trim();
                if new.is_empty() {
                    state.status.refuse("A device needs a name");
                } else if new != d.name {
                    if design
                        .devices
                        .iter()
                        .any(|(o, x)| *o != id && x.name == new)
                    {
                        state.status.refuse(format!("Another device is already called {new}"));
                    } else {
                        cmds.push(DocCommand::Edit(
                            format!("Rename {} to {new}", d.name),
                            Edit::UpdateDevice(
                                id,
                                crate::model::Device {
                                    name: new.to_string(),
                                    ..d.clone()
                                },
                            ),
                        ).into());
                    }
                }
            } else if resp.has_focus() {
                state.editing.name_buffer = Some((key.clone(), name.clone()));
            }
            ui.label("Part");
            ui.horizontal_wrapped(|ui| {
                ui.label(part.map_or_else(|| d.part.to_string(), |p| p.name.clone()));
                super::windows::catalog::overridden_mark_ui(ui, design, d);
                if ui
                    .small_button("Catalog…")
                    .on_hover_text(
                        "This part in the parts catalog: its sources, its price and power in this design, \
                         replacing it everywhere",
                    )
                    .clicked()
                {
                    cmds.push(UiCommand::Show(Show::Catalog(Some(d.part.clone()))).into());
                }
            });
            ui.end_row();
            ui.label("Rack");
            let rack = design.racks.get(&d.rack).map_or("?", |r| r.name.as_str());
            match design.device_units(d) {
                Some(u) => ui.label(format!("{rack}, U{}-U{}", u.start(), u.end())),
                None => ui.label(format!("{rack}, side-mounted")),
            };
            ui.end_row();
            // One power figure everywhere (canvas, report, rack totals), with the terms it adds up from.
            let (_, kg) = device_power_weight(design, d);
            let power = crate::analysis::power::device_power_breakdown(design, id);
            ui.label("Power / weight");
            ui.label(format!(
                "{} W max, {kg:.0} kg",
                crate::analysis::format::thousands(power.total_w(), 0)
            ))
            .on_hover_text(power.text());
            ui.end_row();
            if power.gpus.0 + power.nics.0 + power.optics.0 > 0 {
                ui.label("");
                ui.label(egui::RichText::new(power.text()).small().weak());
                ui.end_row();
            }
            if !d.gpus.is_empty() || !d.nics.is_empty() {
                ui.label("Slots");
                ui.label(format!(
                    "{}, {} installed",
                    crate::analysis::format::count(d.gpus.len(), "GPU", "GPUs"),
                    crate::analysis::format::count(d.nics.len(), "NIC", "NICs")
                ));
                ui.end_row();
            }
            if let Some(sb) =
                report.and_then(|r| r.bandwidth.servers.iter().find(|s| s.device == id))
            {
                ui.label("Network / GPU");
                if sb.compute_nic_cabled_gbps <= 0.0 || sb.nic_gbps_per_gpu <= 0.0 {
                    ui.label("no compute NIC cabled");
                } else if sb.bottleneck_hop.is_empty() {
                    ui.label(format!("{:.0} Gb/s cabled", sb.nic_gbps_per_gpu));
                } else {
                    ui.label(format!(
                        "{:.0} Gb/s cabled (bottleneck: {})",
                        sb.nic_gbps_per_gpu, sb.bottleneck_hop
                    ));
                }
                ui.end_row();
            }
            if let Some(sw) =
                report.and_then(|r| r.bandwidth.switches.iter().find(|s| s.device == id))
            {
                ui.label("Switch");
                ui.label(format!(
                    "tier {}, {} of {} ports used{}",
                    sw.tier,
                    sw.ports_used,
                    sw.ports_total,
                    sw.oversubscription
                        .map_or(String::new(), |o| format!(", {o:.2}:1 oversubscribed"))
                ));
                ui.end_row();
            }
        });
    notes_ui(ui, design, NoteTarget::Device(id), &mut state.editing, cmds);
    let server = part.is_some_and(|p| matches!(p.kind, PartKind::Server(_)));
    device_buttons_ui(ui, id, server, cmds);
    ui.separator();
    cabling::ports_ui(ui, design, id, state, cmds);
}

/// A device's buttons: its server internals (for a server), duplicate, delete and its failure what-if, each
/// tooltip naming the key from the action table.
fn device_buttons_ui(ui: &mut egui::Ui, id: DeviceId, server: bool, cmds: &mut Vec<AppCommand>) {
    use super::actions::{Action, menu_text};
    ui.horizontal(|ui| {
        if server && ui.button("Server internals…").clicked() {
            cmds.push(UiCommand::Show(Show::Server(id)).into());
        }
        let keys = menu_text(ui.ctx(), Action::Duplicate);
        if ui.button("Duplicate").on_hover_text(keys).clicked() {
            cmds.push(DocCommand::DuplicateSelection.into());
        }
        let keys = menu_text(ui.ctx(), Action::Delete);
        if ui
            .button("Delete")
            .on_hover_text(format!("{keys} key"))
            .clicked()
        {
            cmds.push(DocCommand::DeleteSelection.into());
        }
        whatif_button(ui, crate::analysis::whatif::Failure::Device(id), cmds);
    });
}

fn rack_ui(
    ui: &mut egui::Ui,
    design: &Design,
    report: Option<&Report>,
    id: RackId,
    state: &mut UiState,
    cmds: &mut Vec<AppCommand>,
) {
    let Some(r) = design.racks.get(&id) else {
        return;
    };
    let key = format!("rack_name_{}", id.0);
    let mut name = match &state.editing.name_buffer {
        Some((k, v)) if *k == key => v.clone(),
        _ => r.name.clone(),
    };
    let mut err = None;
    let mut update = None;
    egui::Grid::new("rack_grid").num_columns(2).show(ui, |ui| {
        let l = ui.label("Rack name");
        let resp = ui
            .add(egui::TextEdit::singleline(&mut name).id_salt(&key))
            .labelled_by(l.id);
        ui.end_row();
        if resp.lost_focus() {
            state.editing.name_buffer = None;
            let new = name.trim();
            if new.is_empty() {
                err = Some("A rack needs a name".to_string());
            } else if new != r.name {
                update = Some((
                    format!("Rename rack {} to {new}", r.name),
                    crate::model::Rack {
                        name: new.to_string(),
                        ..r.clone()
                    },
                ));
            }
        } else if resp.has_focus() {
            state.editing.name_buffer = Some((key.clone(), name.clone()));
        }
        let b = &mut state.editing.field_buffers;
        if let Some(h) = num_field(
            ui,
            b,
            &format!("rack_h_{}", id.0),
            "Height (U)",
            f64::from(r.height_u),
            1.0..=60.0,
            &mut err,
        ) {
            if h.fract() != 0.0 {
                err = Some("Height must be a whole number of units".into());
            } else {
                update = Some((
                    format!("Set {} height to {h}U", r.name),
                    crate::model::Rack {
                        height_u: h as u16,
                        ..r.clone()
                    },
                ));
            }
        }
        if let Some(kw) = num_field(
            ui,
            b,
            &format!("rack_p_{}", id.0),
            "Power budget (kW)",
            r.power_budget_w / 1000.0,
            0.1..=500.0,
            &mut err,
        ) {
            update = Some((
                format!("Set {} power budget to {} kW", r.name, fmt_num(kw)),
                crate::model::Rack {
                    power_budget_w: kw * 1000.0,
                    ..r.clone()
                },
            ));
        }
        if let Some(kg) = num_field(
            ui,
            b,
            &format!("rack_w_{}", id.0),
            "Max weight (kg)",
            r.max_weight_kg,
            1.0..=10_000.0,
            &mut err,
        ) {
            update = Some((
                format!("Set {} max weight to {} kg", r.name, fmt_num(kg)),
                crate::model::Rack {
                    max_weight_kg: kg,
                    ..r.clone()
                },
            ));
        }
    });
    if let Some(e) = err {
        state.status.refuse(e);
    }
    if let Some((label, rack)) = update {
        cmds.push(DocCommand::Edit(label, Edit::UpdateRack(id, rack)).into());
    }
    rack_cooling_ui(ui, design, report, id, cmds);
    rack_capacity_ui(ui, report, id);
    notes_ui(ui, design, NoteTarget::Rack(id), &mut state.editing, cmds);
    ui.add_space(6.0);
    if ui
        .button("Remove rack")
        .on_hover_text("Removes the rack with its devices and their links")
        .clicked()
    {
        cmds.push(DocCommand::Edit(format!("Remove rack {}", r.name), Edit::RemoveRack(id)).into());
    }
}

/// What the rack uses of its power, weight and space, coloured by how close each is to its limit, and its heat.
fn rack_capacity_ui(ui: &mut egui::Ui, report: Option<&Report>, id: RackId) {
    let Some(rp) = report.and_then(|rep| rep.power.racks.iter().find(|x| x.rack == id)) else {
        return;
    };
    ui.separator();
    ui.strong("Capacity (used / max)");
    let row = |ui: &mut egui::Ui, label: &str, used: f64, max: f64, unit: &str| {
        let frac = if max > 0.0 { used / max } else { f64::INFINITY };
        let c = super::theme::use_text_color(ui, frac);
        ui.label(label);
        ui.colored_label(
            c,
            format!(
                "{used:.1} / {max:.1} {unit} ({:.0}%), {:.1} left",
                frac * 100.0,
                max - used
            ),
        );
        ui.end_row();
    };
    egui::Grid::new("rack_capacity")
        .num_columns(2)
        .show(ui, |ui| {
            row(ui, "Power", rp.power_w / 1000.0, rp.budget_w / 1000.0, "kW");
            if rp.optics_w > 0.0 {
                ui.label("");
                ui.label(
                    egui::RichText::new(format!(
                        "devices {:.1} kW + cable optics {:.1} kW",
                        (rp.power_w - rp.optics_w) / 1000.0,
                        rp.optics_w / 1000.0
                    ))
                    .small()
                    .weak(),
                );
                ui.end_row();
            }
            row(ui, "Weight", rp.weight_kg, rp.max_weight_kg, "kg");
            row(
                ui,
                "Space",
                f64::from(rp.units_used),
                f64::from(rp.units_total),
                "U",
            );
            ui.label("Heat");
            ui.label(format!("{:.0} BTU/h", rp.heat_btu_h));
            ui.end_row();
        });
}

/// The rack's cooling (air or liquid, one undoable edit) and its site, with what the analysis says of its heat.
fn rack_cooling_ui(
    ui: &mut egui::Ui,
    design: &Design,
    report: Option<&Report>,
    id: RackId,
    cmds: &mut Vec<AppCommand>,
) {
    use crate::model::Cooling;
    let Some(r) = design.racks.get(&id) else {
        return;
    };
    ui.horizontal(|ui| {
        ui.label("Cooling");
        for (mode, label) in [(Cooling::Air, "Air"), (Cooling::Liquid, "Liquid")] {
            if ui.selectable_label(r.cooling == mode, label).clicked() && r.cooling != mode {
                cmds.push(
                    DocCommand::Edit(
                        format!("Cool {} by {}", r.name, label.to_lowercase()),
                        Edit::UpdateRack(
                            id,
                            crate::model::Rack {
                                cooling: mode,
                                ..r.clone()
                            },
                        ),
                    )
                    .into(),
                );
            }
        }
    });
    if let Some(c) = report.and_then(|rep| rep.cooling.racks.iter().find(|c| c.rack == id)) {
        let text = match (c.air_limit_kw, c.coolant_l_min) {
            (Some(limit), _) => format!(
                "{:.1} kW of heat against about {limit:.0} kW air can remove; airflow {:.0} m³/h",
                c.heat_kw,
                c.airflow_m3_h.unwrap_or(0.0)
            ),
            (None, Some(q)) => format!("{:.1} kW of heat; coolant {q:.0} L/min", c.heat_kw),
            _ => String::new(),
        };
        let status = if c.ok {
            super::theme::Status::Good
        } else {
            super::theme::Status::Bad
        };
        ui.colored_label(super::theme::status(ui, status), text);
    }
    if !design.sites.is_empty() {
        ui.horizontal(|ui| {
            let label = ui.label("Site");
            let shown = if r.site.is_empty() {
                "(none)"
            } else {
                r.site.as_str()
            };
            egui::ComboBox::from_id_salt(("rack_site", id))
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    for name in std::iter::once("").chain(design.sites.keys().map(String::as_str)) {
                        let text = if name.is_empty() { "(none)" } else { name };
                        if ui.selectable_label(r.site == name, text).clicked() && r.site != name {
                            cmds.push(
                                DocCommand::Edit(
                                    format!("Move {} to site {text}", r.name),
                                    Edit::UpdateRack(
                                        id,
                                        crate::model::Rack {
                                            site: name.to_string(),
                                            ..r.clone()
                                        },
                                    ),
                                )
                                .into(),
                            );
                        }
                    }
                })
                .response
                .labelled_by(label.id);
        });
    }
}

fn link_ui(
    ui: &mut egui::Ui,
    design: &Design,
    catalog: &Catalog,
    id: LinkId,
    state: &mut UiState,
    cmds: &mut Vec<AppCommand>,
) {
    let Some(l) = design.links.get(&id) else {
        return;
    };
    ui.strong(format!(
        "Link {} – {}",
        crate::edit::port_label(design, &l.a),
        crate::edit::port_label(design, &l.b),
    ));
    ui.label(format!(
        "{} ({:.1} GB/s per direction)",
        l.medium,
        l.medium.gbs()
    ));
    let mut err = None;
    let mut new_link = None;
    egui::Grid::new("link_grid").num_columns(2).show(ui, |ui| {
        if let Some(m) = num_field(
            ui,
            &mut state.editing.field_buffers,
            &format!("link_len_{}", id.0),
            "Length (m)",
            l.length_m,
            0.1..=2000.0,
            &mut err,
        ) {
            new_link = Some((
                format!("Set link length to {} m", fmt_num(m)),
                None,
                crate::model::Link {
                    length_m: m,
                    ..l.clone()
                },
            ));
        }
        ui.label("Cable");
        let current = l
            .cable
            .as_ref()
            .map_or("none".to_string(), |c| c.to_string());
        egui::ComboBox::from_id_salt("link_cable")
            .selected_text(current)
            .show_ui(ui, |ui| {
                if ui.selectable_label(l.cable.is_none(), "none").clicked() {
                    new_link = Some((
                        "Remove cable part".into(),
                        None,
                        crate::model::Link {
                            cable: None,
                            ..l.clone()
                        },
                    ));
                }
                for (pid, p) in catalog.in_category(Category::Cable) {
                    let PartKind::Cable(c) = &p.kind else {
                        continue;
                    };
                    // The loader's rule (`io::link_problems`): the same protocol at the link's rate or faster.
                    let ok = c.protocol == l.medium.protocol() && c.gbps + 1e-9 >= l.medium.gbps();
                    let resp = ui.add_enabled(
                        ok,
                        egui::Button::selectable(l.cable.as_ref() == Some(pid), pid.as_str()),
                    );
                    let resp = if ok {
                        resp.on_hover_text(format!("{}; up to {} m", p.name, c.max_length_m))
                    } else {
                        resp.on_disabled_hover_text(format!(
                            "carries {:?} {:.0}G, the link is {}",
                            c.protocol, c.gbps, l.medium
                        ))
                    };
                    if resp.clicked() {
                        new_link = Some((
                            format!("Use cable {pid}"),
                            Some(pid.clone()),
                            crate::model::Link {
                                cable: Some(pid.clone()),
                                ..l.clone()
                            },
                        ));
                    }
                }
            });
        ui.end_row();
        if let Some(c) = l.cable.as_ref().and_then(|c| design.parts.get(c))
            && let PartKind::Cable(spec) = &c.kind
            && l.length_m > spec.max_length_m
        {
            ui.label("");
            ui.colored_label(
                super::theme::status(ui, super::theme::Status::Short),
                format!("{} reaches only {} m", c.name, spec.max_length_m),
            );
            ui.end_row();
        }
    });
    if let Some(e) = err {
        state.status.refuse(e);
    }
    if let Some((label, part, link)) = new_link {
        let mut edits = Vec::new();
        if let Some(p) = part
            && !design.parts.contains_key(&p)
            && let Some(spec) = catalog.parts.get(&p)
        {
            edits.push(Edit::SetPart(p, Some(Box::new(spec.clone()))));
        }
        edits.push(Edit::RemoveLink(id));
        edits.push(Edit::AddLink(id, link));
        cmds.push(DocCommand::Edit(label, Edit::Batch(edits)).into());
    }
    notes_ui(ui, design, NoteTarget::Link(id), &mut state.editing, cmds);
    whatif_button(ui, crate::analysis::whatif::Failure::Link(id), cmds);
    if ui.button("Remove link").clicked() {
        cmds.push(DocCommand::Edit("Remove link".into(), Edit::RemoveLink(id)).into());
    }
}

fn multi_ui(ui: &mut egui::Ui, design: &Design, sel: &Selection, cmds: &mut Vec<AppCommand>) {
    let is = |d: &DeviceId, f: fn(&PartKind) -> bool| {
        design
            .devices
            .get(d)
            .and_then(|x| design.parts.get(&x.part))
            .is_some_and(|p| f(&p.kind))
    };
    let servers = sel
        .devices
        .iter()
        .filter(|d| is(d, |k| matches!(k, PartKind::Server(_))))
        .count();
    let switches = sel
        .devices
        .iter()
        .filter(|d| is(d, |k| matches!(k, PartKind::Switch(_))))
        .count();
    ui.label(format!(
        "{} ({}, {}), {}, {} selected",
        crate::analysis::format::count(sel.devices.len(), "device", "devices"),
        crate::analysis::format::count(servers, "server", "servers"),
        crate::analysis::format::count(switches, "switch", "switches"),
        crate::analysis::format::count(sel.racks.len(), "rack", "racks"),
        crate::analysis::format::count(sel.links.len(), "link", "links")
    ));
    ui.add_space(4.0);
    ui.strong("Bulk cabling");
    ui.horizontal_wrapped(|ui| {
        if ui
            .add_enabled(servers > 0 && switches > 0, egui::Button::new("Connect rail-optimised"))
            .on_hover_text("NIC i of every selected server to leaf i among the selected switches, ports in order")
            .on_disabled_hover_text("Select servers and leaf switches")
            .clicked()
        {
            cmds.push(DocCommand::ConnectRailOptimised.into());
        }
        if ui
            .add_enabled(switches > 1, egui::Button::new("Full mesh"))
            .on_hover_text("One link between every selected leaf and every selected spine")
            .on_disabled_hover_text("Select leaf and spine switches")
            .clicked()
        {
            cmds.push(DocCommand::ConnectFullMesh.into());
        }
    });
    ui.horizontal(|ui| {
        if ui.button("Duplicate").clicked() {
            cmds.push(DocCommand::DuplicateSelection.into());
        }
        if ui.button("Delete").clicked() {
            cmds.push(DocCommand::DeleteSelection.into());
        }
    });
}

/// Whose note the inspector shows for a selection.
fn note_target(sel: &Selection) -> Option<NoteTarget> {
    if sel.is_empty() {
        return Some(NoteTarget::Design);
    }
    if let Some(d) = sel.single_device() {
        return Some(NoteTarget::Device(d));
    }
    match (sel.devices.len(), sel.racks.len(), sel.links.len()) {
        (0, 1, 0) => sel.racks.first().map(|r| NoteTarget::Rack(*r)),
        (0, 0, 1) => sel.links.first().map(|l| NoteTarget::Link(*l)),
        _ => None,
    }
}

/// The note a target carries now; None when it is gone.
fn current_note(design: &Design, target: NoteTarget) -> Option<&str> {
    match target {
        NoteTarget::Design => Some(design.notes.as_str()),
        NoteTarget::Rack(r) => design.racks.get(&r).map(|x| x.notes.as_str()),
        NoteTarget::Device(d) => design.devices.get(&d).map(|x| x.notes.as_str()),
        NoteTarget::Link(l) => design.links.get(&l).map(|x| x.notes.as_str()),
    }
}

/// The edit setting a target's note, when the text differs from the note it has.
pub fn note_edit(design: &Design, target: NoteTarget, text: String) -> Option<AppCommand> {
    if current_note(design, target)? == text {
        return None;
    }
    let (label, edit) = match target {
        NoteTarget::Design => (
            "Edit design notes".to_string(),
            Edit::SetMeta {
                name: design.name.clone(),
                notes: text,
            },
        ),
        NoteTarget::Rack(id) => {
            let r = design.racks.get(&id)?;
            (
                format!("Edit note on rack {}", r.name),
                Edit::UpdateRack(
                    id,
                    crate::model::Rack {
                        notes: text,
                        ..r.clone()
                    },
                ),
            )
        }
        NoteTarget::Device(id) => {
            let d = design.devices.get(&id)?;
            (
                format!("Edit note on {}", d.name),
                Edit::UpdateDevice(
                    id,
                    crate::model::Device {
                        notes: text,
                        ..d.clone()
                    },
                ),
            )
        }
        NoteTarget::Link(id) => {
            let l = design.links.get(&id)?;
            (
                "Edit note on link".to_string(),
                Edit::UpdateLink(
                    id,
                    crate::model::Link {
                        notes: text,
                        ..l.clone()
                    },
                ),
            )
        }
    };
    Some(DocCommand::Edit(label, edit).into())
}

/// A multi-line review-note field. Typing stays in a buffer; the note is committed as one undoable edit when the
/// field loses focus or on Ctrl+Enter, so undo restores the whole note rather than a keystroke.
fn notes_ui(
    ui: &mut egui::Ui,
    design: &Design,
    target: NoteTarget,
    editing: &mut crate::app::state::EditingState,
    cmds: &mut Vec<AppCommand>,
) {
    let Some(current) = current_note(design, target) else {
        return;
    };
    let mut text = match &editing.notes_buffer {
        Some((t, s)) if *t == target => s.clone(),
        _ => current.to_string(),
    };
    ui.add_space(4.0);
    let label = ui.label("Review notes").on_hover_text(
        "Saved in the design file, listed in the HTML report and marked on the elevations",
    );
    let resp = ui
        .add(
            egui::TextEdit::multiline(&mut text)
                .id_salt(("notes", target))
                .desired_rows(2)
                .desired_width(f32::INFINITY)
                .hint_text("A note for reviewers (Ctrl+Enter to commit)"),
        )
        .labelled_by(label.id);
    let commit_key = resp.has_focus()
        && ui.input_mut(|i| i.consume_key(egui::Modifiers::COMMAND, egui::Key::Enter));
    if commit_key {
        resp.surrender_focus();
    }
    if resp.has_focus() && !commit_key {
        editing.notes_buffer = Some((target, text));
    } else if commit_key || resp.lost_focus() || editing.notes_buffer.is_some() {
        editing.notes_buffer = None;
        cmds.extend(note_edit(design, target, text));
    }
}

/// "What if it fails?": opens the failure what-ifs window on the impact of losing this part.
fn whatif_button(
    ui: &mut egui::Ui,
    failure: crate::analysis::whatif::Failure,
    cmds: &mut Vec<AppCommand>,
) {
    if ui
        .button("What if it fails?")
        .on_hover_text(
            "GPUs cut off, bisection and storage lost without it (Failure what-ifs window)",
        )
        .clicked()
    {
        cmds.push(UiCommand::Show(Show::WhatIf(Some(failure))).into());
    }
}
