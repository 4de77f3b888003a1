//! Image snapshots of the real app (egui_kittest with its wgpu renderer; Mesa's software Vulkan in CI): the main
//! window with the default design in both themes at 1600x1000 and at 1024x700, and a server's internals.
//! `UPDATE_SNAPSHOTS=1 cargo test --test app_snapshots` writes new baselines into tests/snapshots after a reviewed
//! change to the look.
#![cfg(feature = "gui")]
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

mod common;
use common::{place_part, snapshot_harness};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use racksmith::app::RacksmithApp;

fn main_window(theme: egui::Theme, size: egui::Vec2, name: &str) {
    let mut h = snapshot_harness(racksmith::samples::default_design(), size, theme, 10);
    h.snapshot(name);
}

#[test]
fn main_window_dark_1600x1000() {
    main_window(
        egui::Theme::Dark,
        egui::vec2(1600.0, 1000.0),
        "main_dark_1600x1000",
    );
}

#[test]
fn main_window_light_1600x1000() {
    main_window(
        egui::Theme::Light,
        egui::vec2(1600.0, 1000.0),
        "main_light_1600x1000",
    );
}

#[test]
fn main_window_dark_1024x700() {
    main_window(
        egui::Theme::Dark,
        egui::vec2(1024.0, 700.0),
        "main_dark_1024x700",
    );
}

#[test]
fn main_window_light_1024x700() {
    main_window(
        egui::Theme::Light,
        egui::vec2(1024.0, 700.0),
        "main_light_1024x700",
    );
}

/// The app with one server of `part` in a rack, its internals window open.
fn server_window(part: &str) -> Harness<'static, RacksmithApp> {
    let (design, rack) = common::one_rack();
    let mut h = snapshot_harness(design, egui::vec2(1600.0, 1000.0), egui::Theme::Dark, 10);
    place_part(&mut h, part, rack, 1);
    h.run_steps(4);
    let server = *h.state().design().devices.keys().next().unwrap();
    let at = h.state().device_screen_rect(server).unwrap();
    h.hover_at(at.center());
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: at.center(),
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    }
    h.run_steps(4);
    h.get_by_label("Server internals…").click();
    h.run_steps(6);
    h.get_by_label_contains("Server internals — ");
    h
}

#[test]
fn server_internals_drawn_as_a_pcie_tree() {
    let mut h = server_window("dgx-h100");
    h.snapshot("server_internals_dark");
}

/// A PCIe card dragged over an SXM slot: the slot turns red and says why, before anything is dropped.
#[test]
fn a_refused_drop_says_why_at_the_slot() {
    let mut h = server_window("hgx-h100-8gpu");
    let l40s = racksmith::catalog::Catalog::builtin()
        .unwrap()
        .get("l40s")
        .unwrap()
        .name
        .clone();
    let slot0 = h.get_by_label("GPU slot 0: h100-sxm").rect().center();
    let palette_right = h.state().ui.windows.central_rect.unwrap().left();
    let find = |h: &Harness<'static, RacksmithApp>| {
        h.query_all_by_label_contains(&l40s)
            .map(|n| n.rect())
            .find(|r| r.right() <= palette_right)
    };
    if find(&h).is_none() {
        h.get_by(|n| n.label().is_some_and(|l| l.starts_with("GPUs (")))
            .click();
        h.run_steps(3);
    }
    let item = find(&h).unwrap().center();
    h.hover_at(item);
    h.run_steps(2);
    h.drag_at(item);
    h.run_steps(2);
    h.hover_at(item + egui::vec2(30.0, 0.0));
    h.run_steps(2);
    h.hover_at(slot0);
    h.run_steps(3);
    h.snapshot("refused_drop_dark");
}

#[test]
fn sites_window_with_two_regions() {
    let mut h = snapshot_harness(
        racksmith::samples::sample("l40s-two-regions").unwrap(),
        egui::vec2(1600.0, 1000.0),
        egui::Theme::Dark,
        10,
    );
    h.get_by_label("Edit").click();
    h.run_steps(3);
    h.get_by_label("Sites…").click();
    h.run_steps(10);
    h.snapshot("sites_window_two_regions");
}

#[test]
fn rear_face_lands_cables_on_their_ports() {
    let mut h = snapshot_harness(
        racksmith::samples::sample("l40s-two-regions").unwrap(),
        egui::vec2(1600.0, 1000.0),
        egui::Theme::Dark,
        10,
    );
    h.get_by_label("Rear").click();
    h.run_steps(10);
    h.snapshot("rear_face_two_regions");
}

/// A large design as it opens: the 4-SU DGX SuperPOD H100 (127 DGX H100, 1,016 GPUs, its compute and storage
/// fabrics), so a change that only shows on many racks (link bundles, labels left out when small, the pane's
/// figures at this size) shows in a snapshot.
#[test]
fn main_window_superpod_4su() {
    let catalog = racksmith::catalog::Catalog::builtin().unwrap();
    let design =
        racksmith::templates::generate(&catalog, "superpod-h100", &[("su".into(), "4".into())])
            .unwrap();
    let mut h = snapshot_harness(design, egui::vec2(1600.0, 1000.0), egui::Theme::Dark, 10);
    let r = h.state().report().expect("analysed inline");
    assert_eq!(r.summary.gpus, 1016, "127 DGX H100 of 8 GPUs");
    h.snapshot("main_superpod_4su_dark");
}
