//! Cabling: the port view of a device, the two-step "connect" flow with compatible targets enabled and the others
//! showing why not, the cable choice from the catalog by protocol and rate, and bulk cabling (rail-optimised,
//! full mesh) as one batch edit each.

use super::AppCommand;
use super::state::{Selection, UiState};
use crate::analysis::Report;
use crate::catalog::{Catalog, Category, PartKind};
use crate::edit::{Builder, Edit};
use crate::model::{Design, DeviceId, Medium, PortRef, PortRole};
use std::collections::BTreeSet;

/// The medium two ports would be cabled with, or why they cannot be.
pub fn link_verdict(design: &Design, a: &PortRef, b: &PortRef) -> Result<Medium, String> {
    if a.device == b.device {
        return Err("both ends are on the same device".into());
    }
    let m = design.common_medium(a, b)?;
    design.check_link(a, b, &m, None)?;
    Ok(m)
}

/// Cable length estimate: 2 m inside a rack (passive copper reach), more across racks and rows.
pub fn estimate_length_m(design: &Design, a: DeviceId, b: DeviceId) -> f64 {
    let rack = |d: DeviceId| {
        design
            .devices
            .get(&d)
            .and_then(|d| design.racks.get(&d.rack).map(|r| (d.rack, r.row, r.slot)))
    };
    match (rack(a), rack(b)) {
        (Some((ra, ..)), Some((rb, ..))) if ra == rb => 2.0,
        (Some((_, row_a, slot_a)), Some((_, row_b, slot_b))) => {
            5.0 + 0.6 * f64::from(slot_a.abs_diff(slot_b)) + 4.0 * f64::from(row_a.abs_diff(row_b))
        }
        _ => 5.0,
    }
}

/// The cheapest catalog cable for a medium and length (copper when it reaches, else optics); when none reaches,
/// the longest of that protocol and rate.
pub fn choose_cable(catalog: &Catalog, medium: &Medium, length_m: f64) -> Option<String> {
    let fits: Vec<(&str, f64, f64)> = catalog
        .in_category(Category::Cable)
        .filter_map(|(id, p)| match &p.kind {
            PartKind::Cable(c)
                if c.protocol == medium.protocol() && (c.gbps - medium.gbps()).abs() < 0.5 =>
            {
                Some((id.as_str(), c.max_length_m, p.price_usd))
            }
            _ => None,
        })
        .collect();
    fits.iter()
        .filter(|(_, max, _)| *max >= length_m)
        .min_by(|a, b| a.2.total_cmp(&b.2))
        .or_else(|| fits.iter().max_by(|a, b| a.1.total_cmp(&b.1)))
        .map(|(id, ..)| (*id).to_string())
}

fn device_name(design: &Design, d: DeviceId) -> String {
    design
        .devices
        .get(&d)
        .map_or_else(|| d.to_string(), |d| d.name.clone())
}

/// Human text for a port: "dgx-01:nic0/p1".
pub fn port_label(design: &Design, p: &PortRef) -> String {
    format!("{}:{}", device_name(design, p.device), p.port)
}

/// The edit cabling two ports with a cable chosen from the catalog (not applied).
pub fn connect_edit(
    design: &mut Design,
    catalog: &Catalog,
    a: PortRef,
    b: PortRef,
) -> Result<(String, Edit), String> {
    let medium = link_verdict(design, &a, &b)?;
    let length = estimate_length_m(design, a.device, b.device);
    let cable = choose_cable(catalog, &medium, length);
    let label = format!(
        "Connect {} – {}",
        port_label(design, &a),
        port_label(design, &b)
    );
    let (_, edit) = Builder::new(design, catalog)
        .link_edit(a, b, length, cable.as_deref())
        .map_err(|e| e.to_string())?;
    Ok((label, edit))
}

fn is_kind(design: &Design, d: DeviceId, f: impl Fn(&PartKind) -> bool) -> bool {
    design
        .devices
        .get(&d)
        .and_then(|dev| design.parts.get(&dev.part))
        .is_some_and(|p| f(&p.kind))
}

fn by_name(design: &Design, mut ids: Vec<DeviceId>) -> Vec<DeviceId> {
    ids.sort_by_key(|d| (device_name(design, *d), *d));
    ids
}

/// Free fabric ports of a switch in port order, skipping ports already taken in this batch.
fn free_ports(design: &Design, d: DeviceId, taken: &BTreeSet<PortRef>) -> Vec<PortRef> {
    design
        .ports(d)
        .into_iter()
        .map(|p| PortRef::new(d, p.name))
        .filter(|p| design.link_at(p).is_none() && !taken.contains(p))
        .collect()
}

/// Builds a batch of links; every pair is checked like a single connect.
fn batch_links(
    design: &mut Design,
    catalog: &Catalog,
    pairs: Vec<(PortRef, PortRef)>,
) -> Result<Edit, String> {
    let mut edits = Vec::new();
    for (a, b) in pairs {
        let (_, e) = connect_edit(design, catalog, a, b)?;
        edits.push(e);
    }
    Ok(Edit::Batch(edits))
}

/// NIC i of every selected server to leaf i (mod the number of leaves) among the selected switches, leaf ports in
/// order. One batch edit.
pub fn rail_optimised_edit(
    design: &mut Design,
    catalog: &Catalog,
    sel: &Selection,
) -> Result<(String, Edit), String> {
    let servers = by_name(
        design,
        sel.devices
            .iter()
            .copied()
            .filter(|d| is_kind(design, *d, |k| matches!(k, PartKind::Server(_))))
            .collect(),
    );
    let leaves = by_name(
        design,
        sel.devices
            .iter()
            .copied()
            .filter(|d| is_kind(design, *d, |k| matches!(k, PartKind::Switch(_))))
            .collect(),
    );
    if servers.is_empty() || leaves.is_empty() {
        return Err(
            "Rail-optimised cabling needs selected servers and selected leaf switches".into(),
        );
    }
    let mut taken = BTreeSet::new();
    let mut pairs = Vec::new();
    for s in &servers {
        let compute: Vec<PortRef> = design
            .ports(*s)
            .into_iter()
            .filter(|p| p.role == PortRole::Compute)
            .map(|p| PortRef::new(*s, p.name))
            .filter(|p| design.link_at(p).is_none())
            .collect();
        let mut slots: Vec<u16> = compute.iter().filter_map(PortRef::nic_slot).collect();
        slots.dedup();
        for (i, slot) in slots.iter().enumerate() {
            let Some(leaf) = leaves.get(i % leaves.len()) else {
                continue;
            };
            for port in compute.iter().filter(|p| p.nic_slot() == Some(*slot)) {
                let free = free_ports(design, *leaf, &taken);
                let Some(target) = free
                    .into_iter()
                    .find(|t| link_verdict(design, port, t).is_ok())
                else {
                    return Err(format!(
                        "{} has no free port compatible with {}",
                        device_name(design, *leaf),
                        port_label(design, port)
                    ));
                };
                taken.insert(target.clone());
                pairs.push((port.clone(), target));
            }
        }
    }
    if pairs.is_empty() {
        return Err("No free compute NIC ports on the selected servers".into());
    }
    let n = pairs.len();
    let edit = batch_links(design, catalog, pairs)?;
    Ok((
        format!(
            "Rail-optimised cabling: {n} links, {} servers to {} leaves",
            servers.len(),
            leaves.len()
        ),
        edit,
    ))
}

/// One link between every selected leaf and every selected spine (spines: tier 2+ in the analysis or "spine" in
/// the name). Leaves use their highest free ports (low ports face servers), spines their lowest. One batch edit.
pub fn full_mesh_edit(
    design: &mut Design,
    catalog: &Catalog,
    sel: &Selection,
    report: Option<&Report>,
) -> Result<(String, Edit), String> {
    let switches: Vec<DeviceId> = sel
        .devices
        .iter()
        .copied()
        .filter(|d| is_kind(design, *d, |k| matches!(k, PartKind::Switch(_))))
        .collect();
    let is_spine = |d: DeviceId| {
        device_name(design, d).to_lowercase().contains("spine")
            || report.is_some_and(|r| {
                r.bandwidth
                    .switches
                    .iter()
                    .any(|s| s.device == d && s.tier >= 2)
            })
    };
    let spines = by_name(
        design,
        switches.iter().copied().filter(|d| is_spine(*d)).collect(),
    );
    let leaves = by_name(
        design,
        switches.iter().copied().filter(|d| !is_spine(*d)).collect(),
    );
    if spines.is_empty() || leaves.is_empty() {
        return Err(
            "Full mesh needs selected leaves and spines (a spine has \"spine\" in its name or is tier 2)"
                .into(),
        );
    }
    let mut taken = BTreeSet::new();
    let mut pairs = Vec::new();
    for leaf in &leaves {
        for spine in &spines {
            let mut lf = free_ports(design, *leaf, &taken);
            lf.reverse();
            let sp = free_ports(design, *spine, &taken);
            let found = lf.iter().find_map(|a| {
                sp.iter()
                    .find(|b| link_verdict(design, a, b).is_ok())
                    .map(|b| (a.clone(), b.clone()))
            });
            let Some((a, b)) = found else {
                return Err(format!(
                    "no free compatible ports between {} and {}",
                    device_name(design, *leaf),
                    device_name(design, *spine)
                ));
            };
            taken.insert(a.clone());
            taken.insert(b.clone());
            pairs.push((a, b));
        }
    }
    let n = pairs.len();
    let edit = batch_links(design, catalog, pairs)?;
    Ok((
        format!(
            "Full mesh: {n} links, {} leaves × {} spines",
            leaves.len(),
            spines.len()
        ),
        edit,
    ))
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
    let free = ports
        .iter()
        .filter(|p| {
            design
                .link_at(&PortRef::new(device, p.name.clone()))
                .is_none()
        })
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
                            match design.link_at(&pr) {
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
                                        cmds.push(AppCommand::Select(Selection {
                                            links: [lid].into_iter().collect(),
                                            ..Selection::default()
                                        }));
                                    }
                                    if ui
                                        .small_button("Disconnect")
                                        .on_hover_text("Remove this link")
                                        .clicked()
                                    {
                                        cmds.push(AppCommand::Edit(
                                            format!("Disconnect {}", port_label(design, &pr)),
                                            Edit::RemoveLink(lid),
                                        ));
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
                                        state.connect_from = Some(pr.clone());
                                        state.connect_target = None;
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
    let Some(from) = state.connect_from.clone() else {
        return;
    };
    if !design.devices.contains_key(&from.device) {
        state.connect_from = None;
        return;
    }
    // Clicking another device on the canvas makes it the target.
    if let Some(sel) = state.selection.single_device()
        && sel != from.device
    {
        state.connect_target = Some(sel);
    }
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.strong(format!("Connecting {}", port_label(design, &from)));
            if ui.button("Cancel").clicked() {
                state.connect_from = None;
                state.connect_target = None;
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
            .connect_target
            .map_or_else(|| "choose a device".to_string(), |d| device_name(design, d));
        egui::ComboBox::from_id_salt("connect_target")
            .selected_text(current)
            .height(300.0)
            .show_ui(ui, |ui| {
                for (id, name) in devices {
                    ui.selectable_value(&mut state.connect_target, Some(id), name);
                }
            });
        let Some(target) = state.connect_target else {
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
                                    cmds.push(AppCommand::Connect(from.clone(), to));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::IbRate;

    #[test]
    fn cables_follow_protocol_rate_and_length() {
        let c = Catalog::builtin().unwrap();
        let ndr = Medium::InfiniBand(IbRate::Ndr);
        // In a rack a DAC reaches; across racks it takes optics.
        assert_eq!(choose_cable(&c, &ndr, 2.0).as_deref(), Some("ib-ndr-dac"));
        assert_eq!(
            choose_cable(&c, &ndr, 20.0).as_deref(),
            Some("ib-ndr-optic")
        );
        assert_eq!(
            choose_cable(&c, &Medium::InfiniBand(IbRate::Hdr), 20.0).as_deref(),
            Some("ib-hdr-aoc")
        );
        assert_eq!(
            choose_cable(&c, &Medium::Ethernet(400), 5.0).as_deref(),
            Some("eth-400g-optic")
        );
        assert_eq!(
            choose_cable(&c, &Medium::Ethernet(100), 2.0).as_deref(),
            Some("eth-100g-dac")
        );
    }
}
