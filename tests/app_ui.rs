//! Drives the real app through egui_kittest: clicks, keys and drags, with assertions on the document and report.
#![cfg(feature = "gui")]

mod common;
use common::{
    AnswerOnce, add_rack, click_at, click_device, click_rack, compare_with_sample, drag_and_drop,
    harness, menu_with_file, one_rack, open_file, place_part, release_at, save_as, select_devices,
    selected_devices, step, undo,
};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable};
use racksmith::app::window::AppWindow;
use racksmith::app::windows::{
    compare::CompareWindow, help::HelpWindow, params::ParamsWindow, planning::PlanningWindow,
    server::ServerWindow, sites::SitesWindow, templates::TemplatesWindow, whatif::WhatIfWindow,
};
use racksmith::app::{DialogRequest, NativeDialogs, NativeOutcome, NoNativeDialogs, RacksmithApp};
use racksmith::catalog::{Catalog, PartKind};
use racksmith::model::{Design, DeviceId, PartId, PortRef, RackId};

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
    drag_and_drop(&mut h, item, target);
    let d = h.state().design();
    let placed: Vec<_> = d
        .devices
        .values()
        .filter(|x| x.rack == rack && x.part == PartId::new("dgx-h100"))
        .collect();
    assert_eq!(placed.len(), 1, "status: {}", h.state().ui.status.text);
    let dev = placed[0];
    // Snapped to units and centred on the pointer: the 8U part covers U10.
    let units = d.device_units(dev).unwrap();
    assert!(units.contains(&10), "{units:?}");
    // The integrated system came with its GPUs, and the analysis sees them.
    assert_eq!(dev.gpus.len(), d.gpu_count());
    assert_eq!(h.state().report().unwrap().summary.gpus, d.gpu_count());
    // One gesture, one undo step.
    undo(&mut h);
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
    place_part(&mut h, "dgx-h100", rack, 1);
    place_part(&mut h, "qm9700", rack, 20);
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
    assert_eq!(h.state().ui.canvas.connect_from.as_ref(), Some(&from));
    // Click the switch on the canvas: it becomes the target.
    let sr = h.state().device_screen_rect(switch).unwrap();
    h.get_by_label_contains(&format!("Connecting {}", d.devices[&server].name));
    click_at(&mut h, sr.center());
    assert_eq!(h.state().ui.canvas.connect_target, Some(switch));
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
    let r = h.state().device_screen_rect(id).unwrap();
    click_at(&mut h, r.center());
    assert!(h.state().ui.selection.devices.contains(&id));
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
        h.state().ui.status.text
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
    assert!(h.state().ui.status.is_refusal());
}

#[test]
fn save_then_open_again() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("saved.ron");
    let mut h = harness(racksmith::samples::default_design());
    add_rack(&mut h, "+ 48U rack");
    let saved = h.state().design().clone();
    save_as(&mut h, &path);
    assert!(!h.state().doc.is_dirty());
    assert_eq!(racksmith::io::load(&path).unwrap(), saved);
    // Change it, then open the saved file: the prompt asks before discarding.
    add_rack(&mut h, "+ 42U rack");
    assert!(h.state().doc.is_dirty());
    open_file(&mut h, &path);
    h.get_by_label("Discard changes").click();
    step(&mut h);
    assert_eq!(h.state().design(), &saved);
    assert!(!h.state().doc.is_dirty());
    assert_eq!(h.state().ui.files.recent.first(), Some(&path));
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
    open_file(&mut h, &path);
    assert_eq!(h.state().design(), &before);
    let err = h.state().ui.windows.error.clone().unwrap();
    let expected = racksmith::io::load(&path).unwrap_err().to_string();
    assert!(err.contains(&expected), "{err}");
    h.get_by_label_contains("Could not open the file");
    h.get_by_label("OK").click();
    step(&mut h);
    assert!(h.state().ui.windows.error.is_none());
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
        place_part(&mut h, part, rack, u);
    }
    step(&mut h);
    let d = h.state().design().clone();
    let all: Vec<DeviceId> = d.devices.keys().copied().collect();
    select_devices(&mut h, &all);
    assert_eq!(
        selected_devices(&h),
        all,
        "a click and shift-clicks select the four"
    );
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
    assert_eq!(
        d2.links.len(),
        compute_ports,
        "{}",
        h.state().ui.status.text
    );
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
    undo(&mut h);
    assert!(h.state().design().links.is_empty());
}

#[test]
fn drag_a_device_to_another_unit() {
    let (design, rack) = one_rack();
    let mut h = harness(design);
    place_part(&mut h, "qm9700", rack, 20);
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
        h.state().ui.status.text
    );
    assert!(
        h.state()
            .design()
            .device_units(&after)
            .unwrap()
            .contains(&30)
    );
    // Onto another device: refused, nothing moves.
    place_part(&mut h, "qm9700", rack, 5);
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
    assert!(
        h.state().ui.status.is_refusal(),
        "{}",
        h.state().ui.status.text
    );
    // The successful move was one undo step (after undoing the second add).
    undo(&mut h);
    undo(&mut h);
    assert_eq!(h.state().design().devices[&id], before);
}

#[test]
fn export_the_text_report() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("report.txt");
    let mut h = harness(racksmith::samples::default_design());
    menu_with_file(
        &mut h,
        &["File", "Export", "Plain-text analysis report (.txt)…"],
        &path,
    );
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
        .fabric_layout()
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
    let spine = d.device_named("spine-01").unwrap();
    let pos = h.state().fabric_node_pos(spine).expect("spine drawn");
    click_at(&mut h, pos);
    assert_eq!(selected_devices(&h), vec![spine]);
    // The inspector shows the switch that was clicked: the same document as the rack view.
    assert!(h.query_all_by_value("spine-01").next().is_some());
    h.get_by_label("Both").click();
    step(&mut h);
    assert!(h.state().ui.canvas.canvas_rect.is_some());
}

#[test]
fn copy_and_paste_into_another_rack() {
    let mut d = racksmith::samples::sample("dgx-h100-single").unwrap();
    let catalog = Catalog::builtin().unwrap();
    let (r2, _) = racksmith::edit::Builder::new(&mut d, &catalog)
        .add_rack("rack-42u", "R02", 0, 1)
        .unwrap();
    let dgx = d.device_named("dgx-01").unwrap();
    let mut h = harness(d);
    let r = h.state().device_screen_rect(dgx).unwrap();
    click_at(&mut h, r.center());
    assert!(h.state().ui.selection.devices.contains(&dgx));
    h.event(egui::Event::Copy);
    step(&mut h);
    // Click the empty rack, then paste: the copy lands at its first free units with its GPUs and NICs.
    let empty = h.state().unit_screen_pos(r2, 20).unwrap();
    click_at(&mut h, empty);
    assert!(h.state().ui.selection.racks.contains(&r2));
    assert!(h.state().ui.selection.devices.is_empty());
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
    undo(&mut h);
    assert_eq!(h.state().design().gpu_count(), 8);
}

#[test]
fn compare_the_open_design_with_a_sample() {
    let mut h = harness(racksmith::samples::sample("a100-120gpu-training").unwrap());
    compare_with_sample(&mut h, "h100-60gpu-training");
    h.get_by_label("Compare designs");
    let c = h
        .state()
        .ui
        .windows
        .registry
        .get::<CompareWindow>()
        .and_then(|w| w.shown.clone())
        .expect("comparison open")
        .comparison;
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
    let c = h
        .state()
        .ui
        .windows
        .registry
        .get::<CompareWindow>()
        .unwrap()
        .shown
        .clone()
        .unwrap()
        .comparison;
    assert_eq!(c.rows.iter().find(|r| r.figure == "GPUs").unwrap().a, 60.0);
}

#[test]
fn drag_a_port_onto_a_device_to_cable_it() {
    let d = racksmith::samples::sample("dgx-h100-single").unwrap();
    let id = |name: &str| d.device_named(name).unwrap();
    let (dgx, ddn, rack) = (id("dgx-01"), id("ddn-01"), d.devices[&id("dgx-01")].rack);
    let mut h = harness(d.clone());
    // A second switch, all its ports free.
    place_part(&mut h, "qm9700", rack, 30);
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
        h.state().ui.status.text.contains("already cabled"),
        "{}",
        h.state().ui.status.text
    );
    assert_eq!(h.state().design().links.len(), d.links.len());
    // Onto the DGX, whose ports are all cabled too: refused, it says which port is taken.
    let dgx_at = h.state().device_screen_rect(dgx).unwrap().center();
    drag_to(&mut h, dgx_at);
    assert!(
        h.state().ui.status.text.contains("Cannot cable to dgx-01"),
        "{}",
        h.state().ui.status.text
    );
    // Onto the first leaf, which has free NDR ports: it lights up green and the drop cables the new switch's port
    // to the leaf's first compatible free port at once (its first 20 ports are cabled: p21).
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
    let other_end = |h: &Harness<'static, RacksmithApp>| {
        let d2 = h.state().design();
        let link = d2.link_at(&from).expect("cabled");
        let l = &d2.links[&link];
        assert_eq!(
            l.medium,
            racksmith::model::Medium::InfiniBand(racksmith::model::IbRate::Ndr)
        );
        if l.a == from {
            l.b.clone()
        } else {
            l.a.clone()
        }
    };
    assert_eq!(
        other_end(&h),
        PortRef::new(old_leaf, "p21"),
        "status: {}",
        h.state().ui.status.text
    );
    assert_eq!(h.state().design().links.len(), d.links.len() + 1);
    // The choice is shown, and another port can be taken instead: one undo step.
    h.get_by_label_contains(":p1 to");
    h.get_by(|n| {
        n.role() == egui::accesskit::Role::ComboBox && n.value().as_deref() == Some("leaf-01:p21")
    })
    .click();
    step(&mut h);
    // The popup's entry (the inspector's port list names p23 too, as a label).
    h.get_by_role_and_label(egui::accesskit::Role::Button, "p23")
        .click();
    step(&mut h);
    assert_eq!(
        other_end(&h),
        PortRef::new(old_leaf, "p23"),
        "status: {}",
        h.state().ui.status.text
    );
    assert_eq!(h.state().design().links.len(), d.links.len() + 1);
    undo(&mut h);
    assert_eq!(other_end(&h), PortRef::new(old_leaf, "p21"));
}

/// A server of `part` in an empty rack, clicked on the canvas, its internals opened from the inspector.
fn server_window_of(part: &str) -> (Harness<'static, RacksmithApp>, DeviceId) {
    let (design, rack) = one_rack();
    let mut h = harness(design);
    place_part(&mut h, part, rack, 1);
    let Some(server) = h.state().design().devices.keys().next().copied() else {
        panic!("the server was not added: {}", h.state().ui.status.text);
    };
    let Some(at) = h.state().device_screen_rect(server) else {
        panic!("the server is not on the canvas");
    };
    click_at(&mut h, at.center());
    h.get_by_label("Server internals…").click();
    step(&mut h);
    h.get_by_label_contains("Server internals — ");
    (h, server)
}

/// Drags a palette part (found by its name, in the palette) onto a point.
fn drag_part_to(h: &mut Harness<'static, RacksmithApp>, part_name: &str, target: egui::Pos2) {
    // The palette's entry (the servers' figures may name the part too), opening its category when closed.
    let Some(palette_right) = h.state().ui.windows.central_rect.map(|r| r.left()) else {
        panic!("no central area drawn yet");
    };
    let find = |h: &Harness<'static, RacksmithApp>| {
        h.query_all_by_label_contains(part_name)
            .map(|n| n.rect())
            .find(|r| r.right() <= palette_right)
    };
    if find(h).is_none() {
        h.get_by(|n| n.label().is_some_and(|l| l.starts_with("GPUs (")))
            .click();
        step(h);
    }
    let Some(item) = find(h).map(|r| r.center()) else {
        panic!("{part_name} is not in the palette");
    };
    drag_and_drop(h, item, target);
}

#[test]
fn drag_a_gpu_from_the_palette_into_a_server_slot() {
    let (mut h, server) = server_window_of("pcie-gpu-4u");
    // The PCIe tree is drawn: root complexes and the slots under them.
    h.get_by_label("GPU slot 7: empty");
    h.get_by_label("NIC slot 0: empty");
    let catalog = Catalog::builtin().unwrap();
    let l40s = catalog.get("l40s").unwrap();
    let slot0 = h.get_by_label("GPU slot 0: empty").rect().center();
    drag_part_to(&mut h, &l40s.name, slot0);
    let d = h.state().design();
    assert_eq!(
        d.devices[&server].gpus.get(&0).map(|p| p.as_str()),
        Some("l40s"),
        "status: {}",
        h.state().ui.status.text
    );
    assert!(
        d.parts.contains_key(&PartId::new("l40s")),
        "the spec is copied into the design"
    );
    h.get_by_label("GPU slot 0: l40s");
    // One undo step takes it out again.
    undo(&mut h);
    assert!(h.state().design().devices[&server].gpus.is_empty());
}

#[test]
fn a_refused_drop_says_why_at_the_slot() {
    let (mut h, server) = server_window_of("hgx-h100-8gpu");
    let catalog = Catalog::builtin().unwrap();
    let l40s = catalog.get("l40s").unwrap();
    let slot0 = h.get_by_label("GPU slot 0: h100-sxm").rect().center();
    let before = h.state().design().clone();
    drag_part_to(&mut h, &l40s.name, slot0);
    let status = h.state().ui.status.text.clone();
    assert!(status.contains("this slot takes an SXM GPU"), "{status}");
    assert!(status.contains("is a PCIe card"), "{status}");
    assert_eq!(h.state().design(), &before);
    assert_eq!(
        h.state().design().devices[&server].gpus[&0],
        PartId::new("h100-sxm")
    );
    // A GPU dropped on a NIC slot gets a reason too.
    let nic0 = h.get_by_label_contains("NIC slot 0: ").rect().center();
    drag_part_to(&mut h, &l40s.name, nic0);
    let status = h.state().ui.status.text.clone();
    assert!(status.contains("this slot takes a NIC"), "{status}");
    assert_eq!(h.state().design(), &before);
}

/// The file name the app suggests for a design that was never saved: its name made safe, then the suffix.
fn suggested(h: &Harness<'static, RacksmithApp>, suffix_and_ext: &str) -> String {
    let stem: String = h
        .state()
        .design()
        .name
        .trim()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{stem}{suffix_and_ext}")
}

/// A harness for tests that open the in-app file dialog: `egui_file` marks its title and listing with emoji
/// (💾, 🗀, 🗋) that egui's bundled fonts lack; the desktop app finds them in the system fonts (eframe's
/// `system_fonts`), the headless harness draws a box instead of panicking.
fn dialog_harness(design: Design) -> Harness<'static, RacksmithApp> {
    let app = RacksmithApp::new_for_test(design);
    let mut h = Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .with_max_steps(20)
        .allow_missing_glyphs()
        .build_ui_state(|ui, app: &mut RacksmithApp| app.show(ui), app);
    h.run_steps(3);
    h
}

/// Opens the File menu and clicks an entry (found by the start of its label; shortcuts follow it).
fn file_menu(h: &mut Harness<'static, RacksmithApp>, entry: &str) {
    h.get_by_label("File").click();
    step(h);
    h.get_by_label_contains(entry).click();
    step(h);
}

/// Types a path into the in-app dialog's file field (found by the name it suggests) and confirms.
fn type_path_and_confirm(
    h: &mut Harness<'static, RacksmithApp>,
    suggested_name: &str,
    path: &std::path::Path,
) {
    h.get_by(|n| {
        n.role() == egui::accesskit::Role::TextInput && n.value().as_deref() == Some(suggested_name)
    })
    .set_text_value_accesskit(&path.display().to_string());
    step(h);
    h.get_by_role_and_label(egui::accesskit::Role::Button, "Save")
        .click();
    step(h);
}

#[test]
fn save_as_without_a_native_dialog_shows_the_in_app_dialog_and_saves() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("typed.ron");
    let mut h = dialog_harness(racksmith::samples::default_design());
    h.state_mut().set_native_dialogs(Box::new(NoNativeDialogs));
    add_rack(&mut h, "+ 42U rack");
    assert!(h.state().doc.is_dirty());
    file_menu(&mut h, "Save As…");
    // Not a silent "cancelled": the in-app dialog is on screen.
    h.get_by_label_contains("Save design as");
    assert!(!h.state().ui.status.text.contains("cancelled"));
    let name = suggested(&h, ".ron");
    type_path_and_confirm(&mut h, &name, &path);
    assert!(h.state().ui.files.file_dialog.is_none());
    let saved = racksmith::io::load(&path).unwrap();
    assert_eq!(&saved, h.state().design());
    assert!(!h.state().doc.is_dirty());
    assert_eq!(h.state().doc.path.as_deref(), Some(path.as_path()));
}

#[test]
fn a_name_typed_without_extension_gets_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = dialog_harness(racksmith::samples::default_design());
    file_menu(&mut h, "Save As…");
    let name = suggested(&h, ".ron");
    type_path_and_confirm(&mut h, &name, &dir.path().join("plain"));
    assert!(racksmith::io::load(&dir.path().join("plain.ron")).is_ok());
}

#[test]
fn export_bill_of_materials_through_the_in_app_dialog() {
    // Needs the export engine (src/export) to write BOM CSV.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bom.csv");
    let mut h = dialog_harness(racksmith::samples::default_design());
    h.get_by_label("File").click();
    step(&mut h);
    h.get_by_label("Export").hover();
    step(&mut h);
    h.get_by_label("Bill of materials (.csv)…").click();
    step(&mut h);
    h.get_by_label_contains("Export Bill of materials");
    let name = suggested(&h, "-bom.csv");
    type_path_and_confirm(&mut h, &name, &path);
    assert!(
        h.state().ui.windows.error.is_none(),
        "{:?}",
        h.state().ui.windows.error
    );
    let bytes = std::fs::read(&path).unwrap();
    assert!(!bytes.is_empty());
    // The status bar says what was written where, and the folder is remembered for the next export.
    let status = &h.state().ui.status.text;
    assert!(
        status.contains("Bill of materials") && status.contains("bom.csv"),
        "{status}"
    );
    assert_eq!(h.state().ui.files.export_dir.as_deref(), Some(dir.path()));
}

#[test]
fn saving_onto_an_existing_file_asks_first() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("taken.ron");
    std::fs::write(&path, "old").unwrap();
    let mut h = dialog_harness(racksmith::samples::default_design());
    file_menu(&mut h, "Save As…");
    let name = suggested(&h, ".ron");
    type_path_and_confirm(&mut h, &name, &path);
    h.get_by_label("taken.ron exists. Replace it?");
    // Nothing is written before the answer.
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
    h.get_by_label("Replace").click();
    step(&mut h);
    assert_eq!(&racksmith::io::load(&path).unwrap(), h.state().design());
}

#[test]
fn declining_to_replace_leaves_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("taken.ron");
    std::fs::write(&path, "old").unwrap();
    let mut h = dialog_harness(racksmith::samples::default_design());
    file_menu(&mut h, "Save As…");
    let name = suggested(&h, ".ron");
    type_path_and_confirm(&mut h, &name, &path);
    h.get_by_label("Cancel").click();
    step(&mut h);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
    assert!(h.state().ui.files.overwrite.is_none());
}

#[test]
fn a_failed_save_says_why_and_keeps_the_changes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no-such-folder").join("x.ron");
    let mut h = dialog_harness(racksmith::samples::default_design());
    add_rack(&mut h, "+ 42U rack");
    let before = h.state().design().clone();
    save_as(&mut h, &path);
    let err = h.state().ui.windows.error.clone().expect("an error window");
    assert!(err.contains("does not exist"), "{err}");
    h.get_by_label_contains("does not exist");
    assert!(h.state().doc.is_dirty());
    assert_eq!(h.state().design(), &before);
    assert!(h.state().doc.path.is_none());
    assert!(!path.exists());
}

/// Native dialogs that answer from a script, to show the native answer wins over the in-app dialog.
struct Scripted(
    Vec<NativeOutcome>,
    std::rc::Rc<std::cell::RefCell<Vec<DialogRequest>>>,
);

impl NativeDialogs for Scripted {
    fn show(&mut self, request: &DialogRequest) -> NativeOutcome {
        self.1.borrow_mut().push(request.clone());
        self.0.pop().unwrap_or(NativeOutcome::Cancelled)
    }
}

#[test]
fn a_native_dialog_is_used_when_it_answers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("native.ron");
    let asked = std::rc::Rc::default();
    let mut h = dialog_harness(racksmith::samples::default_design());
    h.state_mut().set_native_dialogs(Box::new(Scripted(
        vec![
            NativeOutcome::Cancelled,
            NativeOutcome::Chosen(path.clone()),
        ],
        std::rc::Rc::clone(&asked),
    )));
    file_menu(&mut h, "Save As…");
    assert!(h.state().ui.files.file_dialog.is_none());
    assert!(racksmith::io::load(&path).is_ok());
    {
        let asked = asked.borrow();
        let r = asked.last().unwrap();
        assert_eq!(r.extension, "ron");
        assert_eq!(r.file_name.as_deref(), Some(suggested(&h, ".ron").as_str()));
    }
    // A dialog that was shown and cancelled says so, and no in-app dialog follows.
    file_menu(&mut h, "Save As…");
    assert!(h.state().ui.files.file_dialog.is_none());
    assert!(
        h.state().ui.status.text.contains("cancelled"),
        "{}",
        h.state().ui.status.text
    );
}

#[test]
fn a_device_note_is_one_undoable_edit() {
    let mut d = racksmith::samples::default_design();
    let (id, dev) = d.devices.iter_mut().next().unwrap();
    let id = *id;
    dev.notes = "old note".into();
    let mut h = dialog_harness(d);
    click_device(&mut h, id);
    let field = h.get_by_label("Review notes");
    assert_eq!(field.value().as_deref(), Some("old note"));
    field.focus();
    step(&mut h);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    step(&mut h);
    h.get_by_label("Review notes")
        .type_text("needs a second PSU");
    step(&mut h);
    // Typing is not an edit yet.
    assert_eq!(h.state().design().devices[&id].notes, "old note");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Enter);
    step(&mut h);
    assert_eq!(h.state().design().devices[&id].notes, "needs a second PSU");
    assert!(h.state().doc.is_dirty());
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    step(&mut h);
    assert_eq!(h.state().design().devices[&id].notes, "old note");
}

#[test]
fn a_note_follows_the_selection_change_that_ends_it() {
    let d = racksmith::samples::default_design();
    let ids: Vec<_> = d.devices.keys().copied().take(2).collect();
    let mut h = dialog_harness(d);
    let select = |h: &mut Harness<'static, RacksmithApp>, id| {
        click_device(h, id);
    };
    select(&mut h, ids[0]);
    h.get_by_label("Review notes").focus();
    step(&mut h);
    h.get_by_label("Review notes").type_text("check airflow");
    step(&mut h);
    // Selecting something else commits the note to the device it was typed for.
    select(&mut h, ids[1]);
    assert_eq!(h.state().design().devices[&ids[0]].notes, "check airflow");
    assert_eq!(h.state().design().devices[&ids[1]].notes, "");
}

#[test]
fn export_the_comparison_as_csv() {
    // Needs the export engine (src/export) to write the comparison CSV.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cmp.csv");
    let mut h = dialog_harness(racksmith::samples::sample("a100-120gpu-training").unwrap());
    compare_with_sample(&mut h, "h100-60gpu-training");
    h.get_by_label("Export CSV…").click();
    step(&mut h);
    let name = suggested(&h, "-compare.csv");
    type_path_and_confirm(&mut h, &name, &path);
    assert!(
        h.state().ui.windows.error.is_none(),
        "{:?}",
        h.state().ui.windows.error
    );
    assert!(!std::fs::read(&path).unwrap().is_empty());
}

#[test]
fn compare_with_a_file_picked_in_the_in_app_dialog() {
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("other.ron");
    racksmith::io::save(
        &racksmith::samples::sample("h100-60gpu-training").unwrap(),
        &other,
    )
    .unwrap();
    let mut h = dialog_harness(racksmith::samples::sample("a100-120gpu-training").unwrap());
    file_menu(&mut h, "Compare with…");
    h.get_by_label_contains("Compare with design");
    // Type the file's path in the folder field and press Enter (the open dialog's way to take a typed path).
    let cwd = std::env::current_dir().unwrap().display().to_string();
    let field = h.get_by(|n| {
        n.role() == egui::accesskit::Role::TextInput && n.value().as_deref() == Some(cwd.as_str())
    });
    field.focus();
    step(&mut h);
    h.get_by(|n| {
        n.role() == egui::accesskit::Role::TextInput && n.value().as_deref() == Some(cwd.as_str())
    })
    .set_text_value_accesskit(&other.display().to_string());
    step(&mut h);
    h.key_press(egui::Key::Enter);
    step(&mut h);
    assert!(h.state().ui.files.file_dialog.is_none());
    let c = h
        .state()
        .ui
        .windows
        .registry
        .get::<CompareWindow>()
        .and_then(|w| w.shown.clone())
        .expect("comparison open");
    assert_eq!(c.b_design.gpu_count(), 60);
    h.get_by_label("Compare designs");
}

#[test]
fn a_link_note_is_one_undoable_edit() {
    let d = racksmith::samples::default_design();
    // A cable on the first port of a switch, picked from that switch's port list in the inspector.
    let (link, l) = d
        .links
        .iter()
        .find(|(_, l)| l.b.port == "p1")
        .map(|(id, l)| (*id, l.clone()))
        .unwrap();
    let mut h = harness(d.clone());
    click_device(&mut h, l.b.device);
    h.get_by_label(&format!("-> {}", racksmith::edit::port_label(&d, &l.a)))
        .click();
    step(&mut h);
    assert_eq!(h.state().ui.selection.links.first(), Some(&link));
    h.get_by_label("Review notes").focus();
    step(&mut h);
    h.get_by_label("Review notes").type_text("label both ends");
    step(&mut h);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Enter);
    step(&mut h);
    assert_eq!(h.state().design().links[&link].notes, "label both ends");
    h.get_by_label("Undo").click();
    step(&mut h);
    assert_eq!(h.state().design().links[&link].notes, "");
}

#[test]
fn export_the_fabric_drawing_and_the_comparison_page() {
    // Needs the export engine (src/export) for SVG and the comparison HTML.
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("fabric.svg");
    let html = dir.path().join("cmp.html");
    let mut h = harness(racksmith::samples::default_design());
    let svg_menu = racksmith::export::Format::Svg.label();
    menu_with_file(&mut h, &["File", "Export", svg_menu, "Fabric…"], &svg);
    assert!(
        h.state().ui.windows.error.is_none(),
        "{:?}",
        h.state().ui.windows.error
    );
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    compare_with_sample(&mut h, "h100-60gpu-training");
    h.state_mut()
        .set_native_dialogs(Box::new(AnswerOnce(Some(html.clone()))));
    h.get_by_label("Export HTML…").click();
    step(&mut h);
    assert!(
        h.state().ui.windows.error.is_none(),
        "{:?}",
        h.state().ui.windows.error
    );
    assert!(std::fs::read_to_string(&html).unwrap().contains("<html"));
}

#[test]
fn design_and_rack_notes_commit_when_the_field_loses_focus() {
    let (mut design, rack) = one_rack();
    design.notes = "first draft".into();
    let mut h = harness(design);
    // Nothing selected: the design's own notes.
    h.get_by_label("Review notes").focus();
    step(&mut h);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label("Review notes")
        .type_text("for the finance review");
    step(&mut h);
    assert_eq!(h.state().design().notes, "first draft");
    // Clicking elsewhere ends the typing: one edit.
    h.get_by_label_contains("1 rack ·").click();
    step(&mut h);
    assert_eq!(h.state().design().notes, "for the finance review");
    assert_eq!(
        h.state().doc.history.undo_label(),
        Some("Edit design notes")
    );
    // A rack's note.
    click_rack(&mut h, rack);
    h.get_by_label("Review notes").focus();
    step(&mut h);
    h.get_by_label("Review notes")
        .type_text("floor tile rated 1200 kg");
    step(&mut h);
    h.get_by_label_contains("1 rack ·").click();
    step(&mut h);
    assert_eq!(
        h.state().design().racks[&rack].notes,
        "floor tile rated 1200 kg"
    );
    undo(&mut h);
    assert_eq!(h.state().design().racks[&rack].notes, "");
    assert_eq!(h.state().design().notes, "for the finance review");
}

/// Makes a file read-only by its permission bits (tests run as root, but the refusal checks the bits).
fn read_only_file(path: &std::path::Path, text: &str) {
    use std::os::unix::fs::PermissionsExt as _;
    assert!(std::fs::write(path, text).is_ok());
    assert!(std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o444)).is_ok());
}

#[test]
fn saving_onto_a_read_only_file_asks_and_replace_writes_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("locked.ron");
    read_only_file(&path, "old");
    let mut h = dialog_harness(racksmith::samples::default_design());
    add_rack(&mut h, "+ 42U rack");
    save_as(&mut h, &path);
    h.get_by_label("locked.ron is read-only. Replace it anyway?");
    // Nothing written, nothing marked saved before the answer.
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
    assert!(h.state().doc.is_dirty());
    h.get_by_label("Replace").click();
    step(&mut h);
    assert_eq!(&racksmith::io::load(&path).unwrap(), h.state().design());
    assert!(!h.state().doc.is_dirty());
    assert_eq!(h.state().doc.path.as_deref(), Some(path.as_path()));
    assert!(h.state().ui.files.read_only.is_none());
    assert!(h.query_by_label_contains("is read-only").is_none());
}

#[test]
fn cancelling_a_read_only_save_leaves_the_file_and_the_changes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("locked.ron");
    read_only_file(&path, "old");
    let mut h = dialog_harness(racksmith::samples::default_design());
    add_rack(&mut h, "+ 42U rack");
    save_as(&mut h, &path);
    h.get_by_label("Cancel").click();
    step(&mut h);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
    assert!(h.state().doc.is_dirty());
    assert!(h.state().doc.path.is_none());
    assert!(h.query_by_label_contains("is read-only").is_none());
}

#[test]
fn exporting_onto_a_read_only_file_asks_and_replace_writes_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bom.csv");
    read_only_file(&path, "old");
    let mut h = dialog_harness(racksmith::samples::default_design());
    h.get_by_label("File").click();
    step(&mut h);
    h.get_by_label("Export").hover();
    step(&mut h);
    h.get_by_label("Bill of materials (.csv)…").click();
    step(&mut h);
    let name = suggested(&h, "-bom.csv");
    type_path_and_confirm(&mut h, &name, &path);
    // The in-app dialog asks about the existing file first, then about its being read-only.
    h.get_by_label("Replace").click();
    step(&mut h);
    h.get_by_label("bom.csv is read-only. Replace it anyway?");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
    h.get_by_label("Replace").click();
    step(&mut h);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.len() > 3 && text != "old", "{text}");
    let status = &h.state().ui.status.text;
    assert!(status.contains("bom.csv"), "{status}");
    assert!(
        h.state().ui.windows.error.is_none(),
        "{:?}",
        h.state().ui.windows.error
    );
}

/// The Bottleneck card's value ("12.5 of 50.0 GB/s").
fn bottleneck_value(h: &Harness<'static, RacksmithApp>) -> String {
    let text = |n: &egui_kittest::kittest::AccessKitNode<'_>| n.label().or_else(|| n.value());
    h.get_all_by(|n| text(n).is_some_and(|l| l.ends_with(" GB/s") && l.contains(" of ")))
        .next()
        .and_then(|n| text(&n.accesskit_node()))
        .unwrap_or_default()
}

#[test]
fn the_bottleneck_card_follows_the_traffic_pattern_selector() {
    let mut h = harness(racksmith::samples::default_design());
    let flat = bottleneck_value(&h);
    // Pick another pattern in the toolbar: the card shows that pattern's figures.
    h.get_by_role_and_label(egui::accesskit::Role::ComboBox, "link load")
        .click();
    step(&mut h);
    h.get_by_label("storage read").click();
    step(&mut h);
    let storage = bottleneck_value(&h);
    let r = h.state().report().unwrap().clone();
    let p = r
        .bandwidth
        .patterns
        .iter()
        .find(|p| p.pattern == "Storage read")
        .expect("the default design reads from storage");
    assert_eq!(
        storage,
        format!(
            "{:.1} of {:.1} GB/s",
            p.achieved_gbyte_s_per_gpu, p.demand_gbyte_s_per_gpu
        )
    );
    assert_ne!(flat, storage);
}

#[test]
fn an_uncabled_server_says_so_instead_of_minus_zero() {
    let (design, rack) = one_rack();
    let mut h = harness(design);
    place_part(&mut h, "dgx-h100", rack, 1);
    h.get_by_label("no compute NIC cabled");
    assert!(h.query_by_label_contains("-0 Gb/s").is_none());
    assert!(h.query_by_label_contains("(bottleneck: )").is_none());
}

#[test]
fn compare_prints_counts_as_whole_numbers() {
    let mut h = harness(racksmith::samples::sample("a100-120gpu-training").unwrap());
    compare_with_sample(&mut h, "h100-60gpu-training");
    h.get_by_label("120");
    h.get_by_label("60");
    assert!(h.query_by_label("120.000").is_none());
    assert!(h.query_by_label("-0").is_none());
}

#[test]
fn a_chassis_priced_without_its_gpus_says_so_in_the_palette() {
    let h = harness(racksmith::samples::default_design());
    let catalog = Catalog::builtin().unwrap();
    let dgx = catalog.get("dgx-h100").unwrap();
    let line = h
        .get_by_label_contains(&format!(
            "{} + GPUs",
            racksmith::analysis::format::usd(dgx.price_usd)
        ))
        .accesskit_node()
        .value()
        .unwrap_or_default();
    assert!(line.contains("with 8 ×"), "{line}");
    // Issue 35: the palette gives what a placed DGX draws, as the analysis counts it (chassis + 8 GPUs + the NICs
    // it comes with), not the chassis's 4,250 W alone.
    let mut d = Design::default();
    let mut b = racksmith::edit::Builder::new(&mut d, &catalog);
    let (rack, _) = b.add_rack("rack-42u", "R01", 0, 0).unwrap();
    b.add_device("dgx-h100", "dgx-01", rack, 1).unwrap();
    let placed_kw = racksmith::analysis::analyze(&d).summary.it_power_kw;
    assert!(placed_kw > 10.0, "{placed_kw}");
    assert!(
        line.contains(&format!("(placed: {placed_kw:.1} kW, $")),
        "{line} / {placed_kw}"
    );
}

/// Whether every unit of every rack is drawn inside the canvas.
fn all_racks_inside_the_canvas(h: &Harness<'static, RacksmithApp>) -> bool {
    let app = h.state();
    let Some(canvas) = app.ui.canvas.canvas_rect.map(|r| r.expand(1.0)) else {
        return false;
    };
    app.design().racks.iter().all(|(id, r)| {
        let top = app.unit_screen_pos(*id, r.height_u);
        let bottom = app.unit_screen_pos(*id, 1);
        top.is_some_and(|p| canvas.contains(p)) && bottom.is_some_and(|p| canvas.contains(p))
    })
}

#[test]
fn windows_open_over_the_canvas_not_over_the_palette_or_menu() {
    let mut h = harness(racksmith::samples::default_design());
    h.get_by_label("Help").click();
    step(&mut h);
    h.get_by_label("Keyboard shortcuts").click();
    step(&mut h);
    h.get_by_label("Parameters…").click();
    step(&mut h);
    let central = h.state().ui.windows.central_rect.unwrap();
    for title in ["Help", "Parameters"] {
        let r = h.get_all_by_label(title).last().unwrap().rect();
        assert!(
            r.left() >= central.left() && r.top() >= central.top(),
            "{title} at {r:?}, central area {central:?}"
        );
    }
}

#[test]
fn both_view_and_a_new_rack_fit_the_racks_in_the_canvas() {
    let mut h = harness(racksmith::samples::default_design());
    assert!(all_racks_inside_the_canvas(&h));
    h.get_by_label("Both").click();
    step(&mut h);
    // Half the width for ten racks: Fit shows them all where that keeps rack headers drawn, else (issue 35) it
    // stops at the readable zoom with the first rack in view and the rest a pan away, never shrinking the names
    // away.
    let zoom = h.state().ui.canvas.view.zoom;
    assert!(
        all_racks_inside_the_canvas(&h) || zoom > 0.25,
        "Both view: racks cut off at an unreadable zoom {zoom}"
    );
    let canvas = h.state().ui.canvas.canvas_rect.unwrap();
    let (&first, r) = h.state().design().racks.iter().next().unwrap();
    assert!(canvas.contains(h.state().unit_screen_pos(first, r.height_u).unwrap()));
    h.get_by_label("Racks").click();
    step(&mut h);
    let zoom = h.state().ui.canvas.view.zoom;
    let racks = h.state().design().racks.len();
    h.get_by_label("+ 42U rack").click();
    step(&mut h);
    assert_eq!(h.state().design().racks.len(), racks + 1);
    // The view pans to show the new rack, at the same zoom (it never re-zooms after an edit).
    let new = *h.state().ui.selection.racks.iter().next().unwrap();
    let top = h.state().unit_screen_pos(new, 42).unwrap();
    let bottom = h.state().unit_screen_pos(new, 1).unwrap();
    let central = h.state().ui.windows.central_rect.unwrap();
    assert!(
        central.contains(top) && central.contains(bottom),
        "the new rack is off screen"
    );
    assert_eq!(h.state().ui.canvas.view.zoom, zoom);
}

#[test]
fn the_side_pane_collapses_to_widen_the_canvas_at_1024() {
    let app = RacksmithApp::new_for_test(racksmith::samples::default_design());
    let mut h = Harness::builder()
        .with_size(egui::vec2(1024.0, 700.0))
        .with_max_steps(20)
        .build_ui_state(|ui, app: &mut RacksmithApp| app.show(ui), app);
    h.run_steps(3);
    let before = h.state().ui.canvas.canvas_rect.unwrap().width();
    assert!(before >= 480.0, "canvas only {before} px wide at 1024");
    let node = h.get_by_label("▶");
    let rect = node.rect();
    node.click();
    step(&mut h);
    let after = h.state().ui.canvas.canvas_rect.unwrap().width();
    assert!(
        after > before + 200.0,
        "{before} -> {after} collapsed {} at {rect:?}",
        h.state().ui.windows.right_collapsed
    );
    // The default design stands on three floor rows: at 700 px high Fit shows them all where that keeps rack
    // headers readable, else stops at the readable zoom with the first rack in view (as in the Both view above).
    let zoom = h.state().ui.canvas.view.zoom;
    assert!(
        all_racks_inside_the_canvas(&h) || zoom > 0.25,
        "racks cut off at an unreadable zoom {zoom}"
    );
    let canvas = h.state().ui.canvas.canvas_rect.unwrap();
    let (&first, r) = h.state().design().racks.iter().next().unwrap();
    assert!(canvas.contains(h.state().unit_screen_pos(first, r.height_u).unwrap()));
    h.get_by_label("◀").click();
    step(&mut h);
    h.get_by_label("Inspector");
}

#[test]
fn the_bandwidth_limiter_is_readable_in_full() {
    let mut h = harness(racksmith::samples::default_design());
    h.get_by_label("Bandwidth").click();
    step(&mut h);
    let r = h.state().report().unwrap().clone();
    for p in &r.bandwidth.patterns {
        // Patterns limited by the same hop say the same thing: one label each.
        let label = format!("Limited by: {}", p.limiter);
        assert!(h.get_all_by_label(&label).next().is_some(), "{label}");
    }
}

#[test]
fn help_has_a_getting_started_guide_and_the_shortcuts() {
    let mut h = harness(racksmith::samples::default_design());
    h.get_by_label("Help").click();
    step(&mut h);
    h.get_by_label("Getting started").click();
    step(&mut h);
    for step_title in [
        "1. Racks",
        "2. Equipment",
        "4. Cables",
        "5. Reading the analysis",
    ] {
        h.get_by_label(step_title);
    }
    h.get_by_label_contains("first compatible free port");
    h.get_by_role_and_label(egui::accesskit::Role::Button, "Keyboard shortcuts")
        .click();
    step(&mut h);
    h.get_by_label("Ctrl+D");
    assert!(h.query_by_label("1. Racks").is_none());
}

#[test]
fn every_toolbar_control_has_a_tooltip() {
    let mut h = harness(racksmith::samples::default_design());
    let name = h.state().design().name.clone();
    let controls = [
        "Undo",
        "Redo",
        "link load",
        "+ 42U rack",
        "+ 48U rack",
        "Fit",
        "Parameters…",
        "Racks",
        "Fabric",
        "Both",
        "Front",
        "Rear",
        "▶",
        name.as_str(),
    ];
    for label in controls {
        h.get_all_by_label(label).next().unwrap().hover();
        // Tooltips wait for the pointer to rest.
        h.run_steps(40);
        let tooltip = |n: &egui_kittest::kittest::AccessKitNode<'_>| {
            n.role() == egui::accesskit::Role::Tooltip
                || n.parent()
                    .is_some_and(|p| p.role() == egui::accesskit::Role::Tooltip)
        };
        assert!(
            h.query_all_by(tooltip).next().is_some(),
            "no tooltip for {label}"
        );
        h.hover_at(egui::pos2(800.0, 600.0));
        h.run_steps(5);
    }
}

#[test]
fn placing_over_the_power_budget_is_allowed_with_a_warning() {
    let (design, rack) = one_rack();
    let mut h = harness(design);
    let budget_w = h.state().design().racks[&rack].power_budget_w;
    let mut u = 1;
    // DGX H100s until the rack's budget is exceeded.
    while racksmith::analysis::analyze(h.state().design())
        .power
        .it_power_w
        <= budget_w
        && u < 40
    {
        place_part(&mut h, "dgx-h100", rack, u);
        u += 8;
    }
    let status = h.state().ui.status.text.clone();
    assert!(status.contains("over its power budget"), "{status}");
    assert!(h.state().ui.status.is_warning() && !h.state().ui.status.is_refusal());
    // In the status bar, and on the Power card the rack-power error now colours.
    assert!(h.get_all_by_label_contains("over its power budget").count() >= 1);
    // The last one was placed all the same.
    assert_eq!(h.state().design().devices.len() as u16, (u - 1) / 8);
}

#[test]
fn the_theme_switches_from_the_view_menu() {
    let mut h = harness(racksmith::samples::default_design());
    h.get_by_label("View").click();
    step(&mut h);
    h.get_by_label("☀ Light").click();
    step(&mut h);
    assert!(!h.ctx.global_style().visuals.dark_mode);
    h.get_by_label("View").click();
    step(&mut h);
    h.get_by_label("🌙 Dark").click();
    step(&mut h);
    assert!(h.ctx.global_style().visuals.dark_mode);
}

#[test]
fn the_rear_face_shows_where_cables_land() {
    let mut h = harness(racksmith::samples::default_design());
    h.get_by_label("Rear").click();
    step(&mut h);
    assert_eq!(
        h.state().ui.canvas.rack_face,
        racksmith::app::state::RackFace::Rear
    );
    h.get_by_label("Front").click();
    step(&mut h);
    assert_eq!(
        h.state().ui.canvas.rack_face,
        racksmith::app::state::RackFace::Front
    );
}

#[test]
fn a_box_selects_devices_across_racks() {
    let mut h = harness(racksmith::samples::default_design());
    let d = h.state().design().clone();
    let racks: Vec<RackId> = d.racks.keys().copied().take(3).collect();
    let (first, third) = (racks[0], racks[2]);
    // From the empty top of the first rack to the bottom of the third.
    let from = h.state().unit_screen_pos(first, 41).unwrap();
    let to = h.state().unit_screen_pos(third, 2).unwrap();
    h.hover_at(from);
    h.step();
    h.drag_at(from);
    h.step();
    h.hover_at(from + egui::vec2(20.0, 20.0));
    h.step();
    h.hover_at(to);
    h.step();
    release_at(&mut h, to);
    step(&mut h);
    let sel = &h.state().ui.selection;
    let in_racks: std::collections::BTreeSet<RackId> =
        sel.devices.iter().map(|id| d.devices[id].rack).collect();
    assert!(in_racks.len() >= 3, "{in_racks:?}");
}

/// Crash recovery per instance: an autosave left by a crashed instance is offered with its design name and
/// recovered as unsaved work; a live instance's autosave is not offered.
#[test]
fn a_crashed_instances_autosave_is_offered_and_recovered() {
    let dir = tempfile::tempdir().unwrap();
    let recovery = racksmith::io::recovery::RecoveryDir::new(dir.path());
    // A live instance: its autosave must not be offered.
    let live = recovery.claim().unwrap();
    let mut other = racksmith::samples::sample("dgx-h100-single").unwrap();
    other.name = "Still open elsewhere".into();
    live.write(&other).unwrap();
    // A crashed instance: its lock went with it.
    let crashed = recovery.claim().unwrap();
    let mut lost = racksmith::samples::sample("a100-nic-starved").unwrap();
    lost.name = "Lost in a crash".into();
    crashed.write(&lost).unwrap();
    drop(crashed);

    let app = RacksmithApp::new_for_test_with_recovery(
        racksmith::samples::default_design(),
        dir.path().to_path_buf(),
    );
    let mut h = Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .with_max_steps(20)
        .build_ui_state(|ui, app: &mut RacksmithApp| app.show(ui), app);
    h.run_steps(3);
    h.get_by_label_contains("Lost in a crash");
    assert!(h.query_by_label_contains("Still open elsewhere").is_none());
    h.get_by_label("Recover").click();
    h.run_steps(3);
    assert_eq!(h.state().doc.design.name, "Lost in a crash");
    assert!(h.state().doc.is_dirty(), "recovered work is unsaved work");
    // The live instance's autosave is untouched.
    assert!(live.path().exists());
}

/// A rack's cooling is switched in the inspector as one undoable edit, and the inspector says what its heat needs.
#[test]
fn a_racks_cooling_is_set_in_the_inspector_and_undone() {
    let (d, rack) = one_rack();
    let mut h = harness(d);
    click_rack(&mut h, rack);
    h.get_by_label("Liquid").click();
    step(&mut h);
    assert_eq!(
        h.state().design().racks[&rack].cooling,
        racksmith::model::Cooling::Liquid
    );
    h.get_by_label_contains("coolant");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    step(&mut h);
    assert_eq!(
        h.state().design().racks[&rack].cooling,
        racksmith::model::Cooling::Air
    );
}

/// File > New from template: the preview says what the options make before anything is created; Create makes it.
#[test]
fn new_from_template_previews_then_creates() {
    let (d, _) = one_rack();
    let mut h = harness(d);
    h.get_by_label("File").click();
    step(&mut h);
    h.get_by_label("New from template…").click();
    step(&mut h);
    // The first template, SuperPOD H100 at 1 SU: 248 GPUs in 31 servers.
    h.get_by_label_contains("248 GPUs in 31 servers");
    // Two scalable units: 504 GPUs.
    let field = h.get_by_label("Scalable units");
    field.click();
    step(&mut h);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label("Scalable units").type_text("2");
    step(&mut h);
    h.get_by_label_contains("504 GPUs in 63 servers");
    h.get_by_label("Create").click();
    step(&mut h);
    // The open design had unsaved work: the usual question first.
    if h.query_by_label("Discard changes").is_some() {
        h.get_by_label("Discard changes").click();
        step(&mut h);
    }
    assert_eq!(h.state().design().name, "DGX SuperPOD H100, 2 SU");
    assert_eq!(h.state().design().gpu_count(), 504);
}

#[test]
fn sites_are_added_edited_and_undone_from_the_sites_window() {
    let mut h = harness(racksmith::samples::sample("l40s-two-regions").unwrap());
    h.get_by_label("Edit").click();
    step(&mut h);
    h.get_by_label("Sites…").click();
    step(&mut h);
    // A new site from its name.
    h.get_by_label("New site").click();
    step(&mut h);
    h.get_by_label("New site").type_text("north");
    step(&mut h);
    let sites = h.state().ui.windows.registry.get::<SitesWindow>();
    assert_eq!(sites.map(|w| w.new_site_name()), Some("north"));
    h.get_by_label("Add site").click();
    step(&mut h);
    let d = h.state().design();
    assert!(
        d.sites.contains_key("north"),
        "{}",
        h.state().ui.status.text
    );
    assert_eq!(d.sites.len(), 3);
    // East's own electricity price (the first site's field), as one undoable edit the cost follows.
    let before = h.state().report().unwrap().cost.energy_usd_per_year;
    let field = h.get_all_by_label("Electricity ($/kWh)").next().unwrap();
    field.click();
    step(&mut h);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_all_by_label("Electricity ($/kWh)")
        .next()
        .unwrap()
        .type_text("0.18");
    h.key_press(egui::Key::Enter);
    step(&mut h);
    h.state_mut().wait_for_analysis();
    let d = h.state().design();
    assert_eq!(d.sites["east"].electricity_usd_per_kwh, Some(0.18));
    let after = h.state().report().unwrap();
    // East's energy doubles ($0.09 -> $0.18): the total rises by exactly east's old share.
    let east_kw = after
        .cooling
        .sites
        .iter()
        .find(|s| s.site == "east")
        .unwrap()
        .it_kw;
    assert!(after.cost.energy_usd_per_year > before, "{before}");
    assert!(east_kw > 0.0);
    // Undo takes the price back, then the new site away.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    step(&mut h);
    assert_eq!(
        h.state().design().sites["east"].electricity_usd_per_kwh,
        Some(0.09)
    );
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    step(&mut h);
    assert!(!h.state().design().sites.contains_key("north"));
}

/// A focused text field leaves the app idle: the cursor does not blink, so no frame is asked for (a blink was two
/// frames a second, each a third of a second of CPU under software rendering).
#[test]
fn a_focused_text_field_asks_for_no_frames() {
    use egui::accesskit::Role;
    let mut h = harness(racksmith::samples::default_design());
    h.get_by_role_and_label(Role::TextInput, "Search").click();
    step(&mut h);
    h.get_by_role_and_label(Role::TextInput, "Search")
        .type_text("dgx");
    step(&mut h);
    assert_eq!(h.state().ui.editing.search, "dgx");
    assert!(
        h.get_by_role_and_label(Role::TextInput, "Search")
            .is_focused()
    );
    h.run_steps(2);
    let delay = h
        .output()
        .viewport_output
        .get(&egui::ViewportId::ROOT)
        .map(|v| v.repaint_delay);
    assert!(
        delay.is_some_and(|d| d > std::time::Duration::from_secs(5)),
        "next frame asked for in {delay:?}"
    );
}

/// One command opens every window, whatever asks (menu, toolbar, inspector, canvas): each `Show` opens its window,
/// and `Toggle` on an open one closes it (the toolbar's Parameters button) and on a closed one opens it.
#[test]
fn one_command_opens_and_toggles_every_window() {
    use racksmith::app::state::HelpPage;
    use racksmith::app::{Show, UiCommand};
    let design = racksmith::samples::default_design();
    let server = design
        .devices
        .iter()
        .find(|(_, d)| {
            design
                .parts
                .get(&d.part)
                .is_some_and(|p| matches!(p.kind, PartKind::Server(_)))
        })
        .map(|(id, _)| *id)
        .unwrap();
    let mut app = RacksmithApp::new_for_test(design);
    app.ui.windows.right_collapsed = true;
    for show in [
        Show::Params,
        Show::Sites,
        Show::Planning,
        Show::WhatIf(Some(racksmith::analysis::whatif::Failure::Device(server))),
        Show::Server(server),
        Show::Help(HelpPage::Shortcuts),
        Show::Templates,
        Show::Inspector,
    ] {
        app.push(UiCommand::Show(show).into());
    }
    app.apply_commands();
    let w = &app.ui.windows;
    let r = &w.registry;
    assert!(r.get::<ParamsWindow>().unwrap().is_open());
    assert!(r.get::<SitesWindow>().unwrap().is_open());
    assert!(r.get::<PlanningWindow>().unwrap().is_open());
    let whatif = r.get::<WhatIfWindow>().unwrap();
    assert!(whatif.is_open());
    assert_eq!(
        whatif.requested,
        Some(racksmith::analysis::whatif::Failure::Device(server))
    );
    // Each window is open on what was asked: that server, that page (and not on another).
    let servers = r.get::<ServerWindow>().unwrap();
    assert!(servers.is_showing(&Show::Server(server)));
    assert!(!servers.is_showing(&Show::Server(DeviceId(u64::MAX))));
    let help = r.get::<HelpWindow>().unwrap();
    assert!(help.is_showing(&Show::Help(HelpPage::Shortcuts)));
    assert!(!help.is_showing(&Show::Help(HelpPage::About)));
    assert!(r.get::<TemplatesWindow>().unwrap().is_open());
    assert!(!w.right_collapsed && !w.inspector_collapsed);
    app.push(UiCommand::Toggle(Show::Params).into());
    app.push(UiCommand::Toggle(Show::Help(HelpPage::Shortcuts)).into());
    app.apply_commands();
    assert!(
        !app.ui
            .windows
            .registry
            .get::<ParamsWindow>()
            .unwrap()
            .is_open()
    );
    assert!(
        !app.ui
            .windows
            .registry
            .get::<HelpWindow>()
            .unwrap()
            .is_open()
    );
    app.push(UiCommand::Toggle(Show::Params).into());
    app.apply_commands();
    assert!(
        app.ui
            .windows
            .registry
            .get::<ParamsWindow>()
            .unwrap()
            .is_open()
    );
}
