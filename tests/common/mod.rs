//! What the app's kittest files share: the harness (1600x1000, the app as `RacksmithApp::show` draws it), a step
//! that lets commands apply, clicks at a point, menu entries, and the wgpu harness the image snapshots use.
#![allow(dead_code)] // each test file uses its own share of these

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use racksmith::app::{DialogRequest, NativeDialogs, NativeOutcome, NoNativeDialogs, RacksmithApp};
use racksmith::model::{Design, DeviceId, RackId};
use std::path::{Path, PathBuf};

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

/// A native file dialog that answers with the path it holds, once (then Cancel).
pub struct Answers(pub Option<PathBuf>);

impl NativeDialogs for Answers {
    fn show(&mut self, _request: &DialogRequest) -> NativeOutcome {
        self.0
            .take()
            .map_or(NativeOutcome::Cancelled, NativeOutcome::Chosen)
    }
}

/// A native file dialog that answers with a path the first time it is shown; later dialogs are the in-app one,
/// as in the test harness.
pub struct AnswerOnce(pub Option<PathBuf>);

impl NativeDialogs for AnswerOnce {
    fn show(&mut self, request: &DialogRequest) -> NativeOutcome {
        match self.0.take() {
            Some(path) => NativeOutcome::Chosen(path),
            None => NoNativeDialogs.show(request),
        }
    }
}

/// Clicks through menus (`path`: the menu bar's entry, then each submenu hovered, the last entry clicked); the
/// file dialog it leads to, now or after an "unsaved changes" question, answers `file`.
pub fn menu_with_file(h: &mut Harness<'static, RacksmithApp>, path: &[&str], file: &Path) {
    h.state_mut()
        .set_native_dialogs(Box::new(AnswerOnce(Some(file.to_path_buf()))));
    menu_path(h, path);
}

/// Clicks through menus: the menu bar's entry, each submenu hovered, the last entry (found by the start of its
/// label, shortcuts follow it) clicked.
pub fn menu_path(h: &mut Harness<'static, RacksmithApp>, path: &[&str]) {
    let Some((last, menus)) = path.split_last() else {
        return;
    };
    for (i, m) in menus.iter().enumerate() {
        if i == 0 {
            h.get_by_label(m).click();
        } else if let Some(exact) = h.query_by_label(m) {
            exact.hover();
        } else {
            h.get_by_label_contains(m).hover();
        }
        step(h);
    }
    // The entry is a button (a design's title may also be the window's or the status bar's text).
    if let Some(exact) = h.query_by_role_and_label(egui::accesskit::Role::Button, last) {
        exact.click();
    } else {
        h.get_by_label_contains(last).click();
    }
    step(h);
}

/// File > Save As…, the dialog answering `file`.
pub fn save_as(h: &mut Harness<'static, RacksmithApp>, file: &Path) {
    menu_with_file(h, &["File", "Save As…"], file);
}

/// File > Open…, the dialog answering `file`.
pub fn open_file(h: &mut Harness<'static, RacksmithApp>, file: &Path) {
    menu_with_file(h, &["File", "Open…"], file);
}

/// File > Open sample > the sample's title.
pub fn open_sample(h: &mut Harness<'static, RacksmithApp>, name: &str) {
    let title = racksmith::samples::title(name);
    menu_path(h, &["File", "Open sample", title]);
}

/// File > Compare with sample > the sample's title.
pub fn compare_with_sample(h: &mut Harness<'static, RacksmithApp>, name: &str) {
    let title = racksmith::samples::title(name);
    menu_path(h, &["File", "Compare with sample", title]);
}

/// Presses Ctrl+Z (Cmd+Z on a Mac) and lets the undo apply.
pub fn undo(h: &mut Harness<'static, RacksmithApp>) {
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    step(h);
}

/// Clicks a toolbar button that adds an empty rack ("+ 42U rack", "+ 48U rack").
pub fn add_rack(h: &mut Harness<'static, RacksmithApp>, button: &str) {
    h.get_by_label(button).click();
    step(h);
}

/// Clicks the middle of a device on the canvas (selects it).
pub fn click_device(h: &mut Harness<'static, RacksmithApp>, device: DeviceId) {
    let Some(rect) = h.state().device_screen_rect(device) else {
        panic!("device {device:?} is not on the canvas");
    };
    click_at(h, rect.center());
}

/// Shift-clicks devices on the canvas, adding each to the selection (or taking it out).
pub fn shift_click_devices(h: &mut Harness<'static, RacksmithApp>, devices: &[DeviceId]) {
    for &device in devices {
        let Some(rect) = h.state().device_screen_rect(device) else {
            panic!("device {device:?} is not on the canvas");
        };
        let pos = rect.center();
        let shift = egui::Modifiers::SHIFT;
        h.event(egui::Event::ModifiersChanged(shift));
        h.hover_at(pos);
        h.step();
        for pressed in [true, false] {
            h.event(egui::Event::PointerButton {
                pos,
                button: egui::PointerButton::Primary,
                pressed,
                modifiers: shift,
            });
            h.step();
        }
        h.event(egui::Event::ModifiersChanged(egui::Modifiers::NONE));
        step(h);
    }
}

/// Selects exactly these devices by clicking the first and shift-clicking the others.
pub fn select_devices(h: &mut Harness<'static, RacksmithApp>, devices: &[DeviceId]) {
    let Some((first, rest)) = devices.split_first() else {
        return;
    };
    click_device(h, *first);
    shift_click_devices(h, rest);
}

/// Clicks a rack on the canvas where no device is (selects the rack).
pub fn click_rack(h: &mut Harness<'static, RacksmithApp>, rack: RackId) {
    let design = h.state().design();
    let Some(r) = design.racks.get(&rack) else {
        panic!("no rack {rack:?}");
    };
    let taken = |u: u16| {
        design
            .devices
            .values()
            .any(|d| d.rack == rack && design.device_units(d).is_some_and(|us| us.contains(&u)))
    };
    let Some(free) = (1..=r.height_u).find(|&u| !taken(u)) else {
        panic!("rack {rack:?} has no free unit to click");
    };
    let Some(pos) = h.state().unit_screen_pos(rack, free) else {
        panic!("rack {rack:?} is not on the canvas");
    };
    click_at(h, pos);
}

/// Drags a rack-mounted part from the palette into a rack so that its lowest unit lands on `position_u`, as a
/// user does: types the part's id into the palette's search, drags the entry and drops it centred on the units it
/// is to cover (the canvas centres a dropped part on the pointer), then clears the search.
pub fn place_part(
    h: &mut Harness<'static, RacksmithApp>,
    part: &str,
    rack: RackId,
    position_u: u16,
) -> DeviceId {
    // The part as the palette shows it: the app's own catalog (built-in and user parts).
    let Some((label, height_u)) = h
        .state()
        .catalog
        .get(part)
        .map(|spec| (format!("{} · {}U", spec.name, spec.height_u), spec.height_u))
    else {
        panic!("{part} is not in the catalog");
    };
    palette_search(h, part);
    let item = h.get_by_label(&label).rect().center();
    let Some(target) = h.state().unit_screen_pos(rack, position_u + height_u / 2) else {
        panic!("rack {rack:?} is not on the canvas");
    };
    let before: std::collections::BTreeSet<DeviceId> =
        h.state().design().devices.keys().copied().collect();
    drag_and_drop(h, item, target);
    palette_search(h, "");
    let design = h.state().design();
    let Some((&id, placed)) = design.devices.iter().find(|(id, _)| !before.contains(id)) else {
        panic!("{part} was not placed: {}", h.state().ui.status.text);
    };
    assert_eq!(
        (placed.rack, placed.position_u),
        (rack, position_u),
        "{part} landed elsewhere"
    );
    id
}

/// Replaces the text of the palette's search field.
pub fn palette_search(h: &mut Harness<'static, RacksmithApp>, text: &str) {
    h.get_by_role_and_label(egui::accesskit::Role::TextInput, "Search")
        .click();
    step(h);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.key_press(egui::Key::Backspace);
    step(h);
    if !text.is_empty() {
        h.get_by_role_and_label(egui::accesskit::Role::TextInput, "Search")
            .type_text(text);
        step(h);
    }
    // Leave the field (a click beside it; Escape would also clear the selection), so keys go to the canvas again.
    h.get_by_label("Drag servers, switches and storage into a rack.")
        .click();
    step(h);
}

/// Picks the traffic pattern whose loads the canvas and the headline show, in the toolbar's "link load" list.
pub fn pick_load_pattern(
    h: &mut Harness<'static, RacksmithApp>,
    pattern: racksmith::analysis::pattern::Pattern,
) {
    h.get_by_label("link load").click();
    step(h);
    h.get_by_role_and_label(egui::accesskit::Role::Button, pattern.label())
        .click();
    step(h);
    assert_eq!(
        h.state().ui.canvas.load_pattern,
        pattern,
        "the list picked it"
    );
}

/// Drags from a point (a palette entry, a port) and drops on another, moving past the drag threshold first.
pub fn drag_and_drop(h: &mut Harness<'static, RacksmithApp>, from: egui::Pos2, to: egui::Pos2) {
    h.hover_at(from);
    step(h);
    h.drag_at(from);
    step(h);
    h.hover_at(from + egui::vec2(30.0, 0.0));
    step(h);
    h.hover_at(to);
    step(h);
    h.drop_at(to);
    step(h);
}

/// A design with one empty 42U rack named R01, with the rack's part: the editor, like the loader, refuses a rack of
/// a part the design lacks.
pub fn one_rack() -> (racksmith::model::Design, racksmith::model::RackId) {
    let mut d = racksmith::model::Design::default();
    let rack = racksmith::model::RackId(d.alloc_id());
    let Some(part) = racksmith::catalog::Catalog::builtin()
        .ok()
        .and_then(|c| c.get("rack-42u").cloned())
    else {
        panic!("the built-in catalog has no rack-42u")
    };
    let edit = racksmith::edit::Edit::Batch(vec![
        racksmith::edit::Edit::SetPart(
            racksmith::model::PartId::new("rack-42u"),
            Some(Box::new(part)),
        ),
        racksmith::edit::Edit::AddRack(
            rack,
            racksmith::model::Rack {
                name: "R01".into(),
                ..Default::default()
            },
        ),
    ]);
    if let Err(e) = edit.apply(&mut d) {
        panic!("one empty rack: {e}");
    }
    (d, rack)
}

/// Zooms the canvas to 1.0 and moves the view so that `device` stands at the canvas's centre; returns its screen
/// rectangle there.
pub fn zoom_in_on(h: &mut Harness<'static, RacksmithApp>, device: DeviceId) -> egui::Rect {
    h.state_mut().ui.canvas.view.zoom = 1.0;
    h.state_mut().ui.canvas.view.fitted = None;
    h.run_steps(2);
    let (Some(at), Some(canvas)) = (
        h.state().device_screen_rect(device),
        h.state().ui.canvas.canvas_rect,
    ) else {
        panic!("device {device:?} is not placed on a laid-out canvas");
    };
    h.state_mut().ui.canvas.view.offset += canvas.center() - at.center();
    h.run_steps(2);
    let Some(rect) = h.state().device_screen_rect(device) else {
        panic!("device {device:?} is not on the canvas");
    };
    rect
}
