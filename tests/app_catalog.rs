//! The parts catalog window, swap and sizing, driven through the real app with egui_kittest: an edited price is
//! saved to the user catalog file and copied into a design; an overridden power changes the rack's draw and the
//! BOM says "overridden"; a swap is one undo step or a refusal with the reason; a sized design opens.
#![cfg(feature = "gui")]
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

mod common;
use common::{click_device, drag_and_drop, harness_of, menu, menu_with_file, one_rack, step};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable};
use racksmith::app::RacksmithApp;
use racksmith::catalog::{Catalog, user};
use racksmith::model::{Design, PartId};

/// Replaces the text of the field labelled `label`.
/// The app with `design` open and its user catalog at `user_catalog`.
fn harness(design: Design, user_catalog: &std::path::Path) -> Harness<'static, RacksmithApp> {
    harness_of(RacksmithApp::new_for_test_with_user_catalog(
        design,
        user_catalog.to_path_buf(),
    ))
}

fn type_into(h: &mut Harness<'static, RacksmithApp>, label: &str, text: &str) {
    h.get_by_label(label).click();
    step(h);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label(label).type_text(text);
    step(h);
}

/// Opens the catalog window on a part by clicking it in the window's list (searched by id).
fn open_part(h: &mut Harness<'static, RacksmithApp>, id: &str) {
    menu(h, "Catalog", "Parts catalog…");
    h.get_by_label("Parts catalog");
    let name = h.state().catalog.get(id).unwrap().name.clone();
    type_into(h, "Find part", id);
    // The window's list entry (the palette shows the name too, as text rather than a button).
    h.get_all_by_label_contains(&name)
        .find(|n| {
            let node = n.accesskit_node();
            node.role() == egui::accesskit::Role::Button
                && !node.label().unwrap_or_default().contains(" · ")
        })
        .expect("the part in the catalog list")
        .click();
    step(h);
}

#[test]
fn an_edited_price_is_saved_to_the_user_catalog_and_copied_into_a_design() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("config").join(user::FILE_NAME);
    let (design, rack) = one_rack();
    let mut h = harness(design, &file);
    open_part(&mut h, "qm9700");
    h.get_by_label("Edit part").click();
    step(&mut h);
    type_into(&mut h, "price_usd", "31234.5");
    h.get_by_label("Save to user catalog").click();
    step(&mut h);
    // The file holds the edited built-in part, and it reads back the same.
    let saved = user::load(&file).unwrap();
    let part = saved
        .get("qm9700")
        .expect("edited part in the user catalog");
    assert_eq!(part.price_usd, 31234.5);
    assert_eq!(h.state().catalog.get("qm9700"), Some(part));
    assert!(h.get_all_by_label_contains("edited built-in").count() >= 1);
    // Closing the window and dragging the part from the palette into the rack copies the edited spec.
    h.get_by_label("Close window").click();
    step(&mut h);
    let item = h
        .get_by_label_contains(&format!("{} · {}U", part.name, part.height_u))
        .rect()
        .center();
    let target = h.state().unit_screen_pos(rack, 20).unwrap();
    drag_and_drop(&mut h, item, target);
    let d = h.state().design().clone();
    assert_eq!(d.devices.len(), 1, "status: {}", h.state().ui.status.text);
    assert_eq!(d.parts[&PartId::new("qm9700")].price_usd, 31234.5);
    h.state_mut().wait_for_analysis();
    let report = h.state().report().unwrap();
    let line = report.cost.bom.iter().find(|l| l.part == "qm9700").unwrap();
    assert_eq!(line.unit_usd, 31234.5);
    // A new app on the same file sees the part again (the file round-trips).
    let again = RacksmithApp::new_for_test_with_user_catalog(Design::default(), file.clone());
    assert_eq!(again.catalog.get("qm9700").unwrap().price_usd, 31234.5);
    // Reverting to the built-in part empties the user catalog; the design keeps its own copy.
    open_part(&mut h, "qm9700");
    h.get_by_label("Revert to built-in").click();
    step(&mut h);
    assert!(user::load(&file).unwrap().parts.is_empty());
    let builtin = Catalog::builtin().unwrap();
    assert_eq!(h.state().catalog.get("qm9700"), builtin.get("qm9700"));
    assert_eq!(
        h.state().design().parts[&PartId::new("qm9700")].price_usd,
        31234.5
    );
    // The window offers to bring the design's copy in line with the catalog, as one undo step.
    h.get_by_label("Update the design's copy").click();
    step(&mut h);
    assert_eq!(
        h.state().design().parts.get(&PartId::new("qm9700")),
        builtin.get("qm9700")
    );
}

#[test]
fn a_new_part_is_saved_listed_in_the_palette_and_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(user::FILE_NAME);
    let mut h = harness(Design::default(), &file);
    menu(&mut h, "Catalog", "Parts catalog…");
    h.get_by_label("New part").click();
    step(&mut h);
    h.get_by_label("Switch").click();
    step(&mut h);
    type_into(&mut h, "Name", "Lab switch 32x400G");
    type_into(&mut h, "switch.ports", "32");
    type_into(&mut h, "switch.port_gbps", "400");
    // A switch draws power and costs money: a new part without both is not saved (docs/limits.md, "Parts").
    h.get_by_label("Save to user catalog").click();
    step(&mut h);
    assert!(
        h.get_all_by_label_contains(".power_w = 0 is out of range")
            .count()
            >= 1
    );
    assert!(
        h.get_all_by_label_contains(".price_usd = 0 is out of range")
            .count()
            >= 1
    );
    assert!(user::load(&file).unwrap().parts.is_empty());
    type_into(&mut h, "power_w", "450");
    type_into(&mut h, "price_usd", "20000");
    h.get_by_label("Save to user catalog").click();
    step(&mut h);
    let saved = user::load(&file).unwrap();
    let (id, part) = saved.parts.iter().next().expect("one user part");
    assert_eq!(part.name, "Lab switch 32x400G");
    match &part.kind {
        racksmith::catalog::PartKind::Switch(s) => assert_eq!((s.ports, s.port_gbps), (32, 400.0)),
        other => panic!("{other:?}"),
    }
    // No figure was given a source: every one shows as an estimate.
    assert!(!racksmith::catalog::figures::unsourced(part).is_empty());
    assert!(h.get_all_by_label("estimate (no source)").count() > 3);
    // The palette lists it.
    assert!(h.get_all_by_label_contains("Lab switch 32x400G").count() >= 2);
    h.get_by_label("Delete").click();
    step(&mut h);
    assert!(user::load(&file).unwrap().parts.is_empty());
    assert!(!h.state().catalog.parts.contains_key(id));
    // Duplicating a built-in part makes a user part of its own id; the built-in one stays as it was.
    type_into(&mut h, "Find part", "sn5600");
    let sn5600 = h.state().catalog.get("sn5600").unwrap().clone();
    h.get_by_label(&sn5600.name).click();
    step(&mut h);
    h.get_by_label("Duplicate").click();
    step(&mut h);
    type_into(&mut h, "switch.ports", "32");
    h.get_by_label("Save to user catalog").click();
    step(&mut h);
    let saved = user::load(&file).unwrap();
    let copy = saved
        .get("sn5600-copy")
        .expect("the copy in the user catalog");
    assert_eq!(copy.name, format!("{} (copy)", sn5600.name));
    assert!(matches!(&copy.kind, racksmith::catalog::PartKind::Switch(s) if s.ports == 32));
    assert_eq!(copy.sources, sn5600.sources);
    assert_eq!(h.state().catalog.get("sn5600"), Some(&sn5600));
}

#[test]
fn an_overridden_power_changes_the_rack_draw_and_is_marked_in_the_bom() {
    let dir = tempfile::tempdir().unwrap();
    let design = racksmith::samples::sample("dgx-h100-single").unwrap();
    let h100s = design
        .devices
        .values()
        .flat_map(|d| d.gpus.values())
        .filter(|g| g.as_str() == "h100-sxm")
        .count();
    assert!(h100s > 0);
    let mut h = harness(design, &dir.path().join(user::FILE_NAME));
    let before = h.state().report().unwrap().power.it_power_w;
    menu(&mut h, "Catalog", "Override or replace a part…");
    let name = h.state().catalog.get("h100-sxm").unwrap().name.clone();
    // The list shows the design's parts only, each marked as used.
    h.get_by_label(&format!("{name} •")).click();
    step(&mut h);
    h.get_by_label_contains("In this design");
    type_into(&mut h, "Power in this design, W", "600");
    h.get_by_label("Set power").click();
    step(&mut h);
    h.state_mut().wait_for_analysis();
    let report = h.state().report().unwrap().clone();
    // Hand calculation: each H100 draws 700 W in the catalog, 600 W here: 100 W less per GPU.
    let expected = before - 100.0 * h100s as f64;
    assert!(
        (report.power.it_power_w - expected).abs() < 0.01,
        "{} vs {expected}",
        report.power.it_power_w
    );
    let line = report
        .cost
        .bom
        .iter()
        .find(|l| l.part == "h100-sxm")
        .unwrap();
    assert_eq!(
        line.overridden,
        vec!["power overridden (catalog 700 W)".to_string()]
    );
    h.get_by_label("overridden");
    let csv = racksmith::export::tables::bom_csv(h.state().design(), &report).unwrap();
    let csv = String::from_utf8(csv).unwrap();
    assert!(csv.contains("power overridden (catalog 700 W)"), "{csv}");
    let text = racksmith::analysis::text::render(&report);
    assert!(text.contains("power overridden (catalog 700 W)"), "{text}");
    // One undo step takes it back.
    h.get_by_label("Undo").click();
    step(&mut h);
    h.state_mut().wait_for_analysis();
    assert_eq!(h.state().report().unwrap().power.it_power_w, before);
    assert!(
        h.state().design().parts[&PartId::new("h100-sxm")]
            .overrides
            .is_empty()
    );
}

/// Opens the "Replace everywhere with" list, found by the part it shows.
fn swap_combo(h: &mut Harness<'static, RacksmithApp>, shown: &str) {
    h.get_by(|n| {
        n.role() == egui::accesskit::Role::ComboBox && n.value().as_deref() == Some(shown)
    })
    .click();
    step(h);
}

#[test]
fn a_swap_in_the_catalog_window_is_one_undo_step_or_a_refusal_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let design = racksmith::samples::sample("dgx-h100-single").unwrap();
    let original = design.clone();
    let mut h = harness(design, &dir.path().join(user::FILE_NAME));
    open_part(&mut h, "h100-sxm");
    // A PCIe card does not fit SXM slots: refused, with the reason, and nothing changes.
    swap_combo(&mut h, "choose a part");
    step(&mut h);
    let l40s = h.state().catalog.get("l40s").unwrap().name.clone();
    h.get_by_label(&format!("l40s · {l40s}")).click();
    step(&mut h);
    h.get_by_label("Replace").click();
    step(&mut h);
    assert!(h.state().ui.status.is_refusal());
    assert!(
        h.state().ui.status.text.contains("does not fit"),
        "{}",
        h.state().ui.status.text
    );
    assert_eq!(h.state().design(), &original);
    // H200 SXM fits: every H100 becomes an H200 in one step.
    swap_combo(&mut h, "l40s");
    step(&mut h);
    let h200 = h.state().catalog.get("h200-sxm").unwrap().name.clone();
    h.get_by_label(&format!("h200-sxm · {h200}")).click();
    step(&mut h);
    h.get_by_label("Replace").click();
    step(&mut h);
    let d = h.state().design();
    let gpus: Vec<&str> = d
        .devices
        .values()
        .flat_map(|x| x.gpus.values())
        .map(|p| p.as_str())
        .collect();
    assert!(
        !gpus.is_empty() && gpus.iter().all(|g| *g == "h200-sxm"),
        "{gpus:?}"
    );
    h.get_by_label("Undo").click();
    step(&mut h);
    assert_eq!(h.state().design(), &original);
}

#[test]
fn a_netbox_file_becomes_a_user_part_with_its_warnings_shown() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(user::FILE_NAME);
    let mut h = harness(Design::default(), &file);
    let yaml = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/netbox/nvidia-qm9700.yaml");
    let expected = racksmith::catalog::netbox::import(&yaml, &Catalog::builtin().unwrap()).unwrap();
    // Catalog > Import NetBox device type…, the file dialog answering with the file.
    menu_with_file(&mut h, &["Catalog", "Import NetBox device type…"], &yaml);
    let saved = user::load(&file).unwrap();
    let (_, part) = saved.parts.iter().next().expect("imported part");
    assert_eq!(part.power_w, expected.part.power_w);
    // NetBox gives no price: the part says so rather than pretend, here and in every report.
    assert!(racksmith::catalog::figures::unsourced(part).contains(&"price_usd".to_string()));
    assert!(h.get_all_by_label("estimate (no source)").count() >= 1);
    for w in &expected.warnings {
        h.get_by_label(&format!("⚠ {w}"));
    }
    h.get_by_label("Parts catalog");
}

#[test]
fn a_netbox_file_whose_kind_is_unclear_is_imported_as_the_kind_the_user_picks() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(user::FILE_NAME);
    let mut h = harness(Design::default(), &file);
    // No ports, bays or maker that say what it is.
    let yaml = dir.path().join("box.yaml");
    std::fs::write(
        &yaml,
        "manufacturer: Acme\nmodel: Box 1\nslug: acme-box-1\nu_height: 2\n",
    )
    .unwrap();
    menu_with_file(&mut h, &["Catalog", "Import NetBox device type…"], &yaml);
    // Nothing saved yet: the window asks.
    assert!(user::load(&file).unwrap().parts.is_empty());
    h.get_by_label("Import it as:");
    h.get_by_label("storage").click();
    step(&mut h);
    let saved = user::load(&file).unwrap();
    let part = saved.get("acme-box-1").expect("imported as chosen");
    assert!(matches!(
        part.kind,
        racksmith::catalog::PartKind::Storage(_)
    ));
}

#[test]
fn size_a_serving_design_from_the_file_menu() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(Design::default(), &dir.path().join(user::FILE_NAME));
    menu(&mut h, "File", "Size from a requirement…");
    type_into(&mut h, "Requests per second", "60");
    let need = racksmith::templates::sizing::ServingNeed {
        requests_per_s: 60.0,
        p99_ms: 20000.0,
        utilisation: 0.7,
        gpu: "l40s".into(),
        replica_rps: None,
        model: Some(racksmith::templates::sizing::ServedModel::default()),
        gpus_per_replica: 1,
    };
    let sized = racksmith::templates::sizing::serving(&Catalog::builtin().unwrap(), &need).unwrap();
    h.get_by_label(&format!(
        "{} servers, {} GPUs (l40s), {} racks",
        sized.servers, sized.gpus, sized.racks
    ));
    h.get_by_label("Create").click();
    step(&mut h);
    assert_eq!(h.state().design(), &sized.design);
    assert_eq!(h.state().design().gpu_count(), sized.gpus);
}

#[test]
fn catalog_window_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let app = RacksmithApp::new_for_test_with_user_catalog(
        racksmith::samples::default_design(),
        dir.path().join(user::FILE_NAME),
    );
    let mut h = Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .with_theme(egui::Theme::Dark)
        .with_max_steps(40)
        .wgpu()
        .build_ui_state(|ui, app: &mut RacksmithApp| app.show(ui), app);
    h.run_steps(10);
    open_part(&mut h, "qm9700");
    h.run_steps(5);
    h.snapshot("catalog_window_dark");
    h.get_by_label("Edit part").click();
    h.run_steps(5);
    h.snapshot("catalog_edit_dark");
    h.get_by_label("Cancel").click();
    h.get_by_label("Close window").click();
    h.run_steps(3);
    menu(&mut h, "File", "Size from a requirement…");
    h.run_steps(5);
    h.snapshot("sizing_dark");
}

#[test]
fn a_broken_user_catalog_is_reported_and_never_written_over() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(user::FILE_NAME);
    let broken = "(\n    parts: {\n        \"x\": (name: \"X\" power_w: 3),\n";
    std::fs::write(&file, broken).unwrap();
    let mut h = harness(Design::default(), &file);
    // The error names the file, line and column.
    h.get_by_label_contains(&format!("{}:3:", file.display()));
    h.get_by_label("OK").click();
    step(&mut h);
    menu(&mut h, "Catalog", "Parts catalog…");
    h.get_by_label("New part").click();
    step(&mut h);
    h.get_by_label("Patch panel").click();
    step(&mut h);
    h.get_by_label("Save to user catalog").click();
    step(&mut h);
    assert!(
        h.state().ui.status.is_refusal(),
        "{}",
        h.state().ui.status.text
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), broken);
}

#[test]
fn the_inspector_opens_a_device_part_in_the_catalog() {
    let dir = tempfile::tempdir().unwrap();
    let design = racksmith::samples::sample("dgx-h100-single").unwrap();
    let (id, dgx) = design
        .devices
        .iter()
        .find(|(_, d)| d.part.as_str() == "dgx-h100")
        .map(|(id, d)| (*id, d.clone()))
        .unwrap();
    let mut h = harness(design, &dir.path().join(user::FILE_NAME));
    click_device(&mut h, id);
    h.get_by_label("Catalog…").click();
    step(&mut h);
    let name = h
        .state()
        .catalog
        .get(dgx.part.as_str())
        .unwrap()
        .name
        .clone();
    h.get_by_label("Parts catalog");
    h.get_by_label(&format!("{} · NVIDIA · built-in", dgx.part));
    assert!(h.get_all_by_label_contains(&name).count() >= 2);
}
