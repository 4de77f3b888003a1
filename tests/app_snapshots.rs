//! Image snapshots of the real app (egui_kittest with its wgpu renderer; Mesa's software Vulkan in CI): the main
//! window with the default design in both themes at 1600x1000 and at 1024x700, and a server's internals.
//! `UPDATE_SNAPSHOTS=1 cargo test --test app_snapshots` writes new baselines into tests/snapshots after a reviewed
//! change to the look.
#![cfg(feature = "gui")]
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use racksmith::app::{AppCommand, RacksmithApp};

fn app(
    design: racksmith::model::Design,
    size: egui::Vec2,
    theme: egui::Theme,
) -> Harness<'static, RacksmithApp> {
    let mut h = Harness::builder()
        .with_size(size)
        .with_theme(theme)
        .with_max_steps(40)
        .wgpu()
        .build_ui_state(
            |ui, app: &mut RacksmithApp| app.show(ui),
            RacksmithApp::new_for_test(design),
        );
    h.run_steps(10);
    h
}

fn main_window(theme: egui::Theme, size: egui::Vec2, name: &str) {
    let mut h = app(racksmith::samples::default_design(), size, theme);
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

#[test]
fn server_internals_drawn_as_a_pcie_tree() {
    let mut design = racksmith::model::Design::default();
    let rack = racksmith::model::RackId(design.alloc_id());
    racksmith::edit::Edit::AddRack(
        rack,
        racksmith::model::Rack {
            name: "R01".into(),
            ..Default::default()
        },
    )
    .apply(&mut design)
    .unwrap();
    let mut h = app(design, egui::vec2(1600.0, 1000.0), egui::Theme::Dark);
    h.state_mut().push(AppCommand::AddDevice {
        part: "dgx-h100".into(),
        rack,
        position_u: 1,
    });
    h.run_steps(4);
    let server = *h.state().design().devices.keys().next().unwrap();
    let at = h.state().device_screen_rect(server).unwrap();
    h.hover_at(at.center());
    h.event(egui::Event::PointerButton {
        pos: at.center(),
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    h.event(egui::Event::PointerButton {
        pos: at.center(),
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    h.run_steps(4);
    h.get_by_label("Server internals…").click();
    h.run_steps(6);
    h.get_by_label_contains("Server internals — ");
    h.snapshot("server_internals_dark");
}
