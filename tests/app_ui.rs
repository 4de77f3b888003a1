//! Drives the real app through egui_kittest: clicks, keys and drags, with assertions on the document and report.
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use racksmith::app::{AppCommand, RacksmithApp};
use racksmith::catalog::{Catalog, PartKind};
use racksmith::model::{Design, DeviceId, PartId, PortRef, RackId};

fn harness(design: Design) -> Harness<'static, RacksmithApp> {
    let app = RacksmithApp::new_for_test(design);
    let mut h = Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .with_max_steps(20)
        .build_ui_state(|ui, app: &mut RacksmithApp| app.show(ui), app);
    h.run_steps(3);
    h
}

fn step(h: &mut Harness<'static, RacksmithApp>) {
    // Commands apply at the end of a frame; a new window needs one more frame to size itself.
    h.run_steps(3);
}

/// Presses and releases the primary button at a point, a frame apart.
fn click_at(h: &mut Harness<'static, RacksmithApp>, pos: egui::Pos2) {
    h.hover_at(pos);
    h.step();
    h.drag_at(pos);
    h.step();
    release_at(h, pos);
    step(h);
}

/// Releases the primary button without taking the pointer away.
fn release_at(h: &mut Harness<'static, RacksmithApp>, pos: egui::Pos2) {
    h.event(egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
}

/// A design with one empty 42U rack.
fn one_rack() -> (Design, RackId) {
    let mut d = Design::default();
    let rack = RackId(d.alloc_id());
    let edit = racksmith::edit::Edit::AddRack(
        rack,
        racksmith::model::Rack {
            name: "R01".into(),
            ..Default::default()
        },
    );
    assert!(edit.apply(&mut d).is_ok());
    (d, rack)
}

#[test]
fn default_design_opens_with_its_analysis() {
    let h = harness(racksmith::samples::default_design());
    let report = h.state().report().unwrap();
    assert!(report.summary.gpus > 0);
    h.get_by_label(&format!("{} GPUs", report.summary.gpus));
    // The status bar counts what the document holds.
    let d = h.state().design();
    h.get_by_label_contains(&format!(
        "{} racks · {} devices",
        d.racks.len(),
        d.devices.len()
    ));
}

#[test]
fn drag_a_server_from_the_palette_into_a_rack() {
    let (design, rack) = one_rack();
    let mut h = harness(design);
    let catalog = Catalog::builtin().unwrap();
    let part = catalog.get("dgx-h100").unwrap();
    let item = h
        .get_by_label_contains(&format!("{} · {}U", part.name, part.height_u))
        .rect()
        .center();
    let target = h.state().unit_screen_pos(rack, 10).unwrap();
    h.hover_at(item);
    step(&mut h);
    h.drag_at(item);
    step(&mut h);
    h.hover_at(item + egui::vec2(30.0, 0.0));
    step(&mut h);
    h.hover_at(target);
    step(&mut h);
    h.drop_at(target);
    step(&mut h);
    let d = h.state().design();
    let placed: Vec<_> = d
        .devices
        .values()
        .filter(|x| x.rack == rack && x.part == PartId::new("dgx-h100"))
        .collect();
    assert_eq!(placed.len(), 1, "status: {}", h.state().ui.status);
    let dev = placed[0];
    // Snapped to units and centred on the pointer: the 8U part covers U10.
    let units = d.device_units(dev).unwrap();
    assert!(units.contains(&10), "{units:?}");
    // The integrated system came with its GPUs, and the analysis sees them.
    assert_eq!(dev.gpus.len(), d.gpu_count());
    assert_eq!(h.state().report().unwrap().summary.gpus, d.gpu_count());
    // One gesture, one undo step.
    h.state_mut().push(AppCommand::Undo);
    step(&mut h);
    assert!(h.state().design().devices.is_empty());
}

fn free_ports(d: &Design, dev: DeviceId) -> Vec<PortRef> {
    d.ports(dev)
        .into_iter()
        .map(|p| PortRef::new(dev, p.name))
        .filter(|p| d.link_at(p).is_none())
        .collect()
}

#[test]
fn cable_two_ports_through_the_inspector() {
    let (design, rack) = one_rack();
    let mut h = harness(design);
    h.state_mut().push(AppCommand::AddDevice {
        part: "dgx-h100".into(),
        rack,
        position_u: 1,
    });
    h.state_mut().push(AppCommand::AddDevice {
        part: "qm9700".into(),
        rack,
        position_u: 20,
    });
    step(&mut h);
    let d = h.state().design().clone();
    let server = d
        .devices
        .iter()
        .find(|(_, x)| x.part.as_str() == "dgx-h100")
        .map(|(k, _)| *k)
        .unwrap();
    let switch = d
        .devices
        .iter()
        .find(|(_, x)| x.part.as_str() == "qm9700")
        .map(|(k, _)| *k)
        .unwrap();
    // Select the server by clicking it on the canvas.
    let r = h.state().device_screen_rect(server).unwrap();
    click_at(&mut h, r.center());
    h.get_by_label("Server internals…");
    let from = free_ports(&d, server)[0].clone();
    h.get_all_by_label("Connect…").next().unwrap().click();
    step(&mut h);
    assert_eq!(h.state().ui.connect_from.as_ref(), Some(&from));
    // Click the switch on the canvas: it becomes the target.
    let sr = h.state().device_screen_rect(switch).unwrap();
    h.get_by_label_contains(&format!("Connecting {}", d.devices[&server].name));
    click_at(&mut h, sr.center());
    assert_eq!(h.state().ui.connect_target, Some(switch));
    // An incompatible target would be disabled; the first switch port is compatible.
    let to = free_ports(&d, switch)[0].clone();
    h.get_by_label(&format!("Connect to {}", to.port)).click();
    step(&mut h);
    let d2 = h.state().design();
    let link = d2.link_at(&from).expect("linked");
    let l = &d2.links[&link];
    assert!(l.a == to || l.b == to);
    assert_eq!(l.medium, d.common_medium(&from, &to).unwrap());
    assert!(l.cable.is_some(), "a cable part is chosen");
    assert_eq!(d2.links.len(), d.links.len() + 1);
}

#[test]
fn undo_and_redo_with_keys_and_toolbar() {
    let (design, _) = one_rack();
    let mut h = harness(design);
    h.get_by_label("+ 42U rack").click();
    step(&mut h);
    assert_eq!(h.state().design().racks.len(), 2);
    assert!(h.state().doc.is_dirty());
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    step(&mut h);
    assert_eq!(h.state().design().racks.len(), 1);
    h.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    step(&mut h);
    assert_eq!(h.state().design().racks.len(), 2);
    h.get_by_label("Undo").click();
    step(&mut h);
    assert_eq!(h.state().design().racks.len(), 1);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Y);
    step(&mut h);
    assert_eq!(h.state().design().racks.len(), 2);
}

#[test]
fn delete_and_duplicate_selection_with_keys() {
    let mut h = harness(racksmith::samples::default_design());
    let d = h.state().design().clone();
    let (id, dev) = d
        .devices
        .iter()
        .find(|(_, x)| {
            d.parts[&x.part].height_u > 0 && matches!(d.parts[&x.part].kind, PartKind::Switch(_))
        })
        .map(|(k, v)| (*k, v.clone()))
        .unwrap();
    let r = h.state().device_screen_rect(id).unwrap();
    click_at(&mut h, r.center());
    assert!(h.state().ui.selection.devices.contains(&id));
    h.key_press(egui::Key::Delete);
    step(&mut h);
    assert!(!h.state().design().devices.contains_key(&id));
    assert!(
        h.state().design().links.len() < d.links.len()
            || d.links
                .values()
                .all(|l| l.a.device != id && l.b.device != id)
    );
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    step(&mut h);
    assert_eq!(h.state().design(), &d);
    // Duplicate goes to the first free units of the same rack, when there is room.
    h.state_mut()
        .push(AppCommand::Select(racksmith::app::state::Selection {
            devices: [id].into_iter().collect(),
            ..Default::default()
        }));
    step(&mut h);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::D);
    step(&mut h);
    let d2 = h.state().design();
    let h_u = d.device_height_u(&dev);
    match d.first_free_u(dev.rack, h_u) {
        Some(u) => {
            let copy = d2
                .devices
                .values()
                .find(|x| x.name == format!("{}-2", dev.name))
                .unwrap();
            assert_eq!((copy.rack, copy.position_u), (dev.rack, u));
        }
        None => assert_eq!(d2.devices.len(), d.devices.len()),
    }
}

#[test]
fn changing_the_electricity_price_changes_the_cost() {
    let mut h = harness(racksmith::samples::default_design());
    let before = h.state().report().unwrap().cost.clone();
    let old_price = h.state().design().params.electricity_usd_per_kwh;
    h.get_by_label("Parameters…").click();
    step(&mut h);
    let field = h.get_by_label("Electricity (USD/kWh)");
    field.click();
    step(&mut h);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label("Electricity (USD/kWh)").type_text("0.25");
    step(&mut h);
    h.key_press(egui::Key::Enter);
    step(&mut h);
    let new_price = h.state().design().params.electricity_usd_per_kwh;
    assert!(
        (new_price - 0.25).abs() < 1e-12,
        "price {new_price}, status {}",
        h.state().ui.status
    );
    let after = h.state().report().unwrap().cost.clone();
    // Energy cost scales with the price; capex does not move.
    let ratio = after.energy_usd_per_year / before.energy_usd_per_year;
    assert!((ratio - new_price / old_price).abs() < 1e-6, "{ratio}");
    assert_eq!(after.capex_usd, before.capex_usd);
    assert!(after.opex_usd_per_year > before.opex_usd_per_year);
    // A bad value is refused with a message and changes nothing.
    let field = h.get_by_label("Electricity (USD/kWh)");
    field.click();
    step(&mut h);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label("Electricity (USD/kWh)").type_text("cheap");
    h.key_press(egui::Key::Enter);
    step(&mut h);
    assert_eq!(h.state().design().params.electricity_usd_per_kwh, new_price);
    assert!(h.state().ui.status_is_error);
}

#[test]
fn save_then_open_again() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("saved.ron");
    let mut h = harness(racksmith::samples::default_design());
    h.state_mut().push(AppCommand::AddRack("rack-48u".into()));
    step(&mut h);
    let saved = h.state().design().clone();
    h.state_mut().push(AppCommand::SaveTo(path.clone()));
    step(&mut h);
    assert!(!h.state().doc.is_dirty());
    assert_eq!(racksmith::io::load(&path).unwrap(), saved);
    // Change it, then open the saved file: the prompt asks before discarding.
    h.state_mut().push(AppCommand::AddRack("rack-42u".into()));
    step(&mut h);
    assert!(h.state().doc.is_dirty());
    h.state_mut().push(AppCommand::Open(Some(path.clone())));
    step(&mut h);
    h.get_by_label("Discard changes").click();
    step(&mut h);
    assert_eq!(h.state().design(), &saved);
    assert!(!h.state().doc.is_dirty());
    assert_eq!(h.state().ui.recent.first(), Some(&path));
    // The title names the file.
    assert!(h.state().doc.title().contains("saved.ron"));
}

#[test]
fn a_malformed_file_shows_an_error_and_keeps_the_design() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.ron");
    std::fs::write(&path, "(\n  format_version: 1,\n  racks: {oops\n").unwrap();
    let mut h = harness(racksmith::samples::default_design());
    let before = h.state().design().clone();
    h.state_mut().push(AppCommand::Open(Some(path.clone())));
    step(&mut h);
    assert_eq!(h.state().design(), &before);
    let err = h.state().ui.error.clone().unwrap();
    let expected = racksmith::io::load(&path).unwrap_err().to_string();
    assert!(err.contains(&expected), "{err}");
    h.get_by_label_contains("Could not open the file");
    h.get_by_label("OK").click();
    step(&mut h);
    assert!(h.state().ui.error.is_none());
}

#[test]
fn rail_optimised_cabling_is_one_undo_step() {
    let (design, rack) = one_rack();
    let mut h = harness(design);
    for (part, u) in [
        ("dgx-h100", 1),
        ("dgx-h100", 9),
        ("qm9700", 20),
        ("qm9700", 21),
    ] {
        h.state_mut().push(AppCommand::AddDevice {
            part: part.into(),
            rack,
            position_u: u,
        });
    }
    step(&mut h);
    let d = h.state().design().clone();
    h.state_mut()
        .push(AppCommand::Select(racksmith::app::state::Selection {
            devices: d.devices.keys().copied().collect(),
            ..Default::default()
        }));
    step(&mut h);
    h.get_by_label("Connect rail-optimised").click();
    step(&mut h);
    let d2 = h.state().design().clone();
    let compute_ports: usize = d
        .devices
        .keys()
        .map(|id| {
            d.ports(*id)
                .iter()
                .filter(|p| p.role == racksmith::model::PortRole::Compute)
                .count()
        })
        .sum();
    assert!(compute_ports > 0);
    assert_eq!(d2.links.len(), compute_ports, "{}", h.state().ui.status);
    // NIC i (the i-th compute NIC slot of each server) lands on leaf i mod 2, the leaves in name order.
    let mut leaves: Vec<(String, DeviceId)> = d2
        .devices
        .iter()
        .filter(|(_, x)| x.part.0 == "qm9700")
        .map(|(id, x)| (x.name.clone(), *id))
        .collect();
    leaves.sort();
    assert_eq!(leaves.len(), 2);
    let mut per_leaf = [0usize; 2];
    for l in d2.links.values() {
        let (server_end, switch) = if leaves.iter().any(|(_, id)| *id == l.b.device) {
            (&l.a, l.b.device)
        } else {
            (&l.b, l.a.device)
        };
        let mut slots: Vec<u16> = d
            .ports(server_end.device)
            .iter()
            .filter(|p| p.role == racksmith::model::PortRole::Compute)
            .filter_map(|p| PortRef::new(server_end.device, p.name.clone()).nic_slot())
            .collect();
        slots.dedup();
        let rail = slots
            .iter()
            .position(|s| Some(*s) == server_end.nic_slot())
            .expect("a compute NIC");
        assert_eq!(
            switch,
            leaves[rail % 2].1,
            "{} (rail {rail}) should land on {}",
            server_end,
            leaves[rail % 2].0
        );
        per_leaf[rail % 2] += 1;
    }
    assert_eq!(per_leaf[0], per_leaf[1]);
    h.state_mut().push(AppCommand::Undo);
    step(&mut h);
    assert!(h.state().design().links.is_empty());
}

#[test]
fn drag_a_device_to_another_unit() {
    let (design, rack) = one_rack();
    let mut h = harness(design);
    h.state_mut().push(AppCommand::AddDevice {
        part: "qm9700".into(),
        rack,
        position_u: 20,
    });
    step(&mut h);
    let (id, before) = h
        .state()
        .design()
        .devices
        .iter()
        .map(|(k, v)| (*k, v.clone()))
        .next()
        .unwrap();
    let from = h.state().device_screen_rect(id).unwrap().center();
    let to = h.state().unit_screen_pos(rack, 30).unwrap();
    h.hover_at(from);
    step(&mut h);
    h.drag_at(from);
    step(&mut h);
    h.hover_at(from + egui::vec2(0.0, -20.0));
    step(&mut h);
    h.hover_at(to);
    step(&mut h);
    release_at(&mut h, to);
    step(&mut h);
    let after = h.state().design().devices[&id].clone();
    assert_ne!(
        after.position_u,
        before.position_u,
        "{}",
        h.state().ui.status
    );
    assert!(
        h.state()
            .design()
            .device_units(&after)
            .unwrap()
            .contains(&30)
    );
    // Onto another device: refused, nothing moves.
    h.state_mut().push(AppCommand::AddDevice {
        part: "qm9700".into(),
        rack,
        position_u: 5,
    });
    step(&mut h);
    let from = h.state().device_screen_rect(id).unwrap().center();
    let to = h.state().unit_screen_pos(rack, 5).unwrap();
    h.hover_at(from);
    step(&mut h);
    h.drag_at(from);
    step(&mut h);
    h.hover_at(to);
    step(&mut h);
    release_at(&mut h, to);
    step(&mut h);
    assert_eq!(h.state().design().devices[&id], after);
    assert!(h.state().ui.status_is_error, "{}", h.state().ui.status);
    // The successful move was one undo step (after undoing the second add).
    h.state_mut().push(AppCommand::Undo);
    h.state_mut().push(AppCommand::Undo);
    step(&mut h);
    assert_eq!(h.state().design().devices[&id], before);
}

#[test]
fn export_the_text_report() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("report.txt");
    let mut h = harness(racksmith::samples::default_design());
    h.state_mut().push(AppCommand::ExportReportTo(path.clone()));
    step(&mut h);
    let text = std::fs::read_to_string(&path).unwrap();
    let expected = racksmith::analysis::text::render(h.state().report().unwrap());
    assert_eq!(text, expected);
}

#[test]
fn the_fabric_view_shows_tiers_and_selects_what_it_is_clicked_on() {
    let mut h = harness(racksmith::samples::default_design());
    h.get_by_label("Fabric").click();
    step(&mut h);
    // Tier rows of the SuperPOD unit: 31 DGX and 3 AI400X2, 8 + 4 leaves (compute and storage), 4 spines.
    let rows: Vec<(String, usize)> = h
        .state()
        .ui
        .fabric
        .as_ref()
        .unwrap()
        .rows
        .iter()
        .map(|(l, ids)| (l.clone(), ids.len()))
        .collect();
    assert_eq!(
        rows,
        vec![
            ("GPU servers and storage".to_string(), 34),
            ("Leaf (tier 1)".to_string(), 12),
            ("Spine (tier 2)".to_string(), 4)
        ]
    );
    let d = h.state().design().clone();
    let spine = d
        .devices
        .iter()
        .find(|(_, x)| x.name == "spine-01")
        .map(|(id, _)| *id)
        .unwrap();
    let pos = h.state().fabric_node_pos(spine).expect("spine drawn");
    click_at(&mut h, pos);
    assert_eq!(
        h.state()
            .ui
            .selection
            .devices
            .iter()
            .copied()
            .collect::<Vec<_>>(),
        vec![spine]
    );
    // The inspector shows the switch that was clicked: the same document as the rack view.
    assert!(h.query_all_by_value("spine-01").next().is_some());
    h.get_by_label("Both").click();
    step(&mut h);
    assert!(h.state().ui.canvas_rect.is_some());
}

#[test]
fn copy_and_paste_into_another_rack() {
    let mut d = racksmith::samples::sample("dgx-h100-single").unwrap();
    let catalog = Catalog::builtin().unwrap();
    let (r2, _) = racksmith::edit::Builder::new(&mut d, &catalog)
        .add_rack("rack-42u", "R02", 0, 1)
        .unwrap();
    let dgx = d
        .devices
        .iter()
        .find(|(_, x)| x.name == "dgx-01")
        .map(|(id, _)| *id)
        .unwrap();
    let mut h = harness(d);
    h.state_mut().ui.selection.devices.insert(dgx);
    h.event(egui::Event::Copy);
    step(&mut h);
    // Select the empty rack, then paste: the copy lands at its first free units with its GPUs and NICs.
    h.state_mut().ui.selection = Default::default();
    h.state_mut().ui.selection.racks.insert(r2);
    h.event(egui::Event::Paste(String::new()));
    step(&mut h);
    let design = h.state().design();
    let copy = design
        .devices
        .values()
        .find(|x| x.name == "dgx-01-2")
        .expect("pasted copy");
    assert_eq!((copy.rack, copy.position_u), (r2, 1));
    assert_eq!(copy.gpus.len(), 8);
    assert_eq!(design.gpu_count(), 16);
    // One undo step takes it away.
    h.state_mut().push(AppCommand::Undo);
    step(&mut h);
    assert_eq!(h.state().design().gpu_count(), 8);
}

#[test]
fn compare_the_open_design_with_a_sample() {
    let mut h = harness(racksmith::samples::sample("a100-120gpu-training").unwrap());
    h.state_mut()
        .push(AppCommand::CompareWithSample("h100-60gpu-training".into()));
    step(&mut h);
    h.get_by_label("Compare designs");
    let c = h.state().ui.comparison.clone().expect("comparison open");
    let gpus = c.rows.iter().find(|r| r.figure == "GPUs").unwrap();
    assert_eq!((gpus.a, gpus.b, gpus.difference), (120.0, 60.0, -60.0));
    let days = c
        .rows
        .iter()
        .find(|r| r.figure == "Training job time")
        .unwrap();
    assert!(days.b < days.a, "60 H100 should finish first: {days:?}");
    h.get_by_label("Training job time (days)");
    // Swap puts the H100 design first.
    h.get_by_label("Swap A and B").click();
    step(&mut h);
    let c = h.state().ui.comparison.clone().unwrap();
    assert_eq!(c.rows.iter().find(|r| r.figure == "GPUs").unwrap().a, 60.0);
}

#[test]
fn drag_a_port_onto_a_device_to_cable_it() {
    let d = racksmith::samples::sample("dgx-h100-single").unwrap();
    let id = |name: &str| {
        d.devices
            .iter()
            .find(|(_, x)| x.name == name)
            .map(|(k, _)| *k)
            .unwrap()
    };
    let (dgx, ddn, rack) = (id("dgx-01"), id("ddn-01"), d.devices[&id("dgx-01")].rack);
    let mut h = harness(d.clone());
    // A second switch, all its ports free.
    h.state_mut().push(AppCommand::AddDevice {
        part: "qm9700".into(),
        rack,
        position_u: 30,
    });
    step(&mut h);
    let leaf = h
        .state()
        .design()
        .devices
        .iter()
        .find(|(_, x)| x.part.as_str() == "qm9700" && x.position_u == 30)
        .map(|(k, _)| *k)
        .unwrap();
    let d = h.state().design().clone();
    let r = h.state().device_screen_rect(leaf).unwrap();
    click_at(&mut h, r.center());
    // Drag the handle of its first port onto the storage appliance, whose ports are all taken: refused with the
    // reason, nothing changes.
    let handle = h
        .get_all_by_label("free (drag)")
        .next()
        .unwrap()
        .rect()
        .center();
    let drag_to = |h: &mut Harness<'static, RacksmithApp>, target: egui::Pos2| {
        h.hover_at(handle);
        step(h);
        h.drag_at(handle);
        step(h);
        h.hover_at(handle + egui::vec2(-30.0, 0.0));
        step(h);
        h.hover_at(target);
        step(h);
        h.drop_at(target);
        step(h);
    };
    let ddn_at = h.state().device_screen_rect(ddn).unwrap().center();
    drag_to(&mut h, ddn_at);
    assert!(
        h.state().ui.status.contains("already cabled"),
        "{}",
        h.state().ui.status
    );
    assert_eq!(h.state().design().links.len(), d.links.len());
    // Onto the DGX, whose ports are all cabled too: refused, it says which port is taken.
    let dgx_at = h.state().device_screen_rect(dgx).unwrap().center();
    drag_to(&mut h, dgx_at);
    assert!(
        h.state().ui.status.contains("Cannot cable to dgx-01"),
        "{}",
        h.state().ui.status
    );
    // Onto the first leaf, which has free NDR ports: it lights up green and the drop starts connecting from the new
    // switch's port to the leaf.
    let old_leaf = d
        .devices
        .iter()
        .find(|(_, x)| x.name == "leaf-01")
        .map(|(k, _)| *k)
        .unwrap();
    let r = h.state().device_screen_rect(leaf).unwrap();
    click_at(&mut h, r.center());
    let leaf_at = h.state().device_screen_rect(old_leaf).unwrap().center();
    drag_to(&mut h, leaf_at);
    let from = PortRef::new(leaf, "p1");
    assert_eq!(
        h.state().ui.connect_from.as_ref(),
        Some(&from),
        "status: {}",
        h.state().ui.status
    );
    assert_eq!(h.state().ui.connect_target, Some(old_leaf));
    // The leaf's first 20 ports are cabled; p21 is the first offered.
    h.get_by_label("Connect to p21").click();
    step(&mut h);
    let d2 = h.state().design();
    let link = d2.link_at(&from).expect("cabled");
    assert_eq!(
        d2.links[&link].medium,
        racksmith::model::Medium::InfiniBand(racksmith::model::IbRate::Ndr)
    );
    assert_eq!(d2.links.len(), d.links.len() + 1);
}

#[test]
fn drag_a_gpu_from_the_palette_into_a_server_slot() {
    let (design, rack) = one_rack();
    let mut h = harness(design);
    h.state_mut().push(AppCommand::AddDevice {
        part: "pcie-gpu-4u".into(),
        rack,
        position_u: 1,
    });
    step(&mut h);
    let server = *h.state().design().devices.keys().next().unwrap();
    h.state_mut().ui.server_window = Some(server);
    // Open the GPUs category of the palette, then drag the L40S onto GPU slot 0.
    h.get_by_label_contains("GPUs (").click();
    step(&mut h);
    let catalog = Catalog::builtin().unwrap();
    let l40s = catalog.get("l40s").unwrap();
    let item = h.get_by_label_contains(&l40s.name).rect().center();
    let combos: Vec<egui::Rect> = h.get_all_by_value("empty").map(|n| n.rect()).collect();
    let slot0 = combos.first().expect("slot combos").center();
    h.hover_at(item);
    step(&mut h);
    h.drag_at(item);
    step(&mut h);
    h.hover_at(item + egui::vec2(30.0, 0.0));
    step(&mut h);
    h.hover_at(slot0);
    step(&mut h);
    h.drop_at(slot0);
    step(&mut h);
    let d = h.state().design();
    assert_eq!(
        d.devices[&server].gpus.get(&0).map(|p| p.as_str()),
        Some("l40s"),
        "status: {}",
        h.state().ui.status
    );
    assert!(
        d.parts.contains_key(&PartId::new("l40s")),
        "the spec is copied into the design"
    );
    // One undo step takes it out again.
    h.state_mut().push(AppCommand::Undo);
    step(&mut h);
    assert!(h.state().design().devices[&server].gpus.is_empty());
}
