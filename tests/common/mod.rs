//! What the app's kittest files share: the harness (1600x1000, the app as `RacksmithApp::show` draws it), a step
//! that lets commands apply, clicks at a point, menu entries, and the wgpu harness the image snapshots use.
#![allow(dead_code)] // each test file uses its own share of these

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use racksmith::app::RacksmithApp;
use racksmith::model::{Design, DeviceId};

/// A 1600x1000 harness around `app`, three frames in.
pub fn harness_of(app: RacksmithApp) -> Harness<'static, RacksmithApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .with_max_steps(20)
        .build_ui_state(|ui, app: &mut RacksmithApp| app.show(ui), app);
    h.run_steps(3);
    h
}

/// A 1600x1000 harness with `design` open.
pub fn harness(design: Design) -> Harness<'static, RacksmithApp> {
    harness_of(RacksmithApp::new_for_test(design))
}

/// A harness drawn with wgpu, for image snapshots (`UPDATE_SNAPSHOTS=1` writes a new baseline after a reviewed
/// change), `frames` frames in.
pub fn snapshot_harness(
    design: Design,
    size: egui::Vec2,
    theme: egui::Theme,
    frames: usize,
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
    h.run_steps(frames);
    h
}

/// Frames enough for commands to apply (at the end of a frame) and a new window to size itself.
pub fn step(h: &mut Harness<'static, RacksmithApp>) {
    h.run_steps(3);
}

/// Presses and releases the primary button at a point, a frame apart.
pub fn click_at(h: &mut Harness<'static, RacksmithApp>, pos: egui::Pos2) {
    h.hover_at(pos);
    h.step();
    h.drag_at(pos);
    h.step();
    release_at(h, pos);
    step(h);
}

/// Releases the primary button without taking the pointer away.
pub fn release_at(h: &mut Harness<'static, RacksmithApp>, pos: egui::Pos2) {
    h.event(egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
}

/// Opens a menu of the menu bar and clicks an entry.
pub fn menu(h: &mut Harness<'static, RacksmithApp>, menu: &str, entry: &str) {
    h.get_by_label(menu).click();
    step(h);
    h.get_by_label(entry).click();
    step(h);
}

/// The devices selected in the app, in id order.
pub fn selected_devices(h: &Harness<'static, RacksmithApp>) -> Vec<DeviceId> {
    h.state().ui.selection.devices.iter().copied().collect()
}
