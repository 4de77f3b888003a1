//! No way to lose work: every path that replaces the open design asks when it has unsaved changes, "Save first"
//! saves and then does what was asked, the status bar tells the truth, deleting a rack or several devices asks with
//! the count, and an edit never re-zooms the canvas. Driven through the real app with egui_kittest.
#![cfg(feature = "gui")]
#![allow(clippy::unwrap_used)] // helpers shared by the tests unwrap as the tests do

mod common;
use common::{Answers, add_rack, click_rack, harness, menu_path, open_sample, save_as, step, undo};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use racksmith::app::RacksmithApp;
use racksmith::app::window::AppWindow;
use racksmith::app::windows::{as_built::AsBuiltWindow, help::HelpWindow, whatif::WhatIfWindow};

fn dirty_default() -> Harness<'static, RacksmithApp> {
    let mut h = harness(racksmith::samples::default_design());
    add_rack(&mut h, "+ 42U rack");
    assert!(h.state().doc.is_dirty());
    h
}

#[test]
fn save_first_saves_then_opens_the_sample_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("work.ron");
    let mut h = dirty_default();
    let work = h.state().design().clone();
    // The design has no file yet: Save first asks where (the native dialog answers), saves, then opens.
    h.state_mut()
        .set_native_dialogs(Box::new(Answers(Some(path.clone()))));
    h.get_by_label("File").click();
    step(&mut h);
    h.get_by_label_contains("Open sample").hover();
    step(&mut h);
    // Menus name samples as their designs do, not by file name.
    assert!(h.query_by_label_contains("dgx-h100-single").is_none());
    h.get_by_label("One DGX H100 with leaf and storage").click();
    step(&mut h);
    h.get_by_label_contains("has unsaved changes");
    h.get_by_label("Save first").click();
    step(&mut h);
    assert_eq!(
        racksmith::io::load(&path).unwrap(),
        work,
        "the work was saved"
    );
    let expected = racksmith::samples::sample("dgx-h100-single").unwrap();
    assert_eq!(h.state().design(), &expected, "then the sample was opened");
}

#[test]
fn save_first_then_cancel_keeps_the_design_and_a_later_save_does_not_replace_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("later.ron");
    let mut h = dirty_default();
    let work = h.state().design().clone();
    h.state_mut().set_native_dialogs(Box::new(Answers(None)));
    open_sample(&mut h, "a100-nic-starved");
    h.get_by_label("Save first").click();
    step(&mut h);
    // Cancelled in the file dialog: nothing saved, nothing replaced.
    assert_eq!(h.state().design(), &work);
    assert!(h.state().doc.is_dirty());
    // A plain save later must not run the abandoned "open the sample".
    save_as(&mut h, &path);
    assert_eq!(h.state().design(), &work);
    assert!(!h.state().doc.is_dirty());
}

#[test]
fn a_template_design_is_unsaved_work_and_opening_a_sample_asks() {
    let mut h = harness(racksmith::samples::default_design());
    // An untouched sample: nothing to lose, and the status bar does not pretend it is in a file.
    h.get_by_label("no changes, not in a file");
    // File > New from template…, the first template (SuperPOD H100, 1 SU) as it is offered.
    menu_path(&mut h, &["File", "New from template…"]);
    h.get_by_label_contains("248 GPUs in 31 servers");
    h.get_by_label("Create").click();
    step(&mut h);
    assert!(h.state().doc.is_dirty(), "{}", h.state().ui.status.text);
    h.get_by_label("unsaved changes");
    let made = h.state().design().clone();
    open_sample(&mut h, "dgx-h100-single");
    h.get_by_label_contains(
        "Discard them and open the sample \"One DGX H100 with leaf and storage\"",
    );
    h.get_by_label("Cancel").click();
    step(&mut h);
    assert_eq!(h.state().design(), &made);
    // A design from the planning questions goes through the same question.
    menu_path(&mut h, &["Help", "Planning questions…"]);
    let question = racksmith::templates::scenarios::find("a100-or-h100").unwrap();
    h.get_by_label(question.question).click();
    step(&mut h);
    // The answer is worked out off the UI thread: Open design opens it once its headline shows.
    let catalog = racksmith::catalog::Catalog::builtin().unwrap();
    let headline = racksmith::templates::scenarios::answer(&catalog, question.name, &[])
        .unwrap()
        .headline;
    let start = std::time::Instant::now();
    while h.query_by_label(&headline).is_none() {
        assert!(start.elapsed().as_secs() < 120, "the answer never came");
        std::thread::sleep(std::time::Duration::from_millis(20));
        step(&mut h);
    }
    step(&mut h);
    h.get_by_label("Open design").click();
    step(&mut h);
    let other = racksmith::samples::sample("h100-60gpu-training").unwrap();
    h.get_by_label_contains(&format!("open the sized design {}", other.name));
    h.get_by_label("Discard changes").click();
    step(&mut h);
    assert_eq!(h.state().design().name, other.name);
    assert!(h.state().doc.is_dirty(), "a replacement design is unsaved");
}

#[test]
fn every_sample_title_is_its_designs_name() {
    for s in racksmith::samples::SAMPLES {
        let d = racksmith::samples::sample(s).unwrap();
        assert_eq!(racksmith::samples::title(s), d.name, "{s}");
    }
}

#[test]
fn deleting_a_rack_asks_with_the_count() {
    let mut h = harness(racksmith::samples::default_design());
    let d = h.state().design().clone();
    let (rack, _) = d.racks.iter().find(|(_, r)| r.name == "N001").unwrap();
    let rack = *rack;
    let devices: Vec<_> = d
        .devices
        .iter()
        .filter(|(_, x)| x.rack == rack)
        .map(|(k, _)| *k)
        .collect();
    let cables = d
        .links
        .values()
        .filter(|l| devices.contains(&l.a.device) || devices.contains(&l.b.device))
        .count();
    click_rack(&mut h, rack);
    assert_eq!(
        h.state().ui.selection.racks.len(),
        1,
        "the click selected the rack"
    );
    h.key_press(egui::Key::Delete);
    step(&mut h);
    h.get_by_label_contains(&format!(
        "Delete 1 rack with {} devices and {cables} cables?",
        devices.len()
    ));
    h.get_by_label("Cancel").click();
    step(&mut h);
    assert_eq!(h.state().design(), &d, "Cancel keeps everything");
    h.key_press(egui::Key::Delete);
    step(&mut h);
    h.get_by_role_and_label(egui::accesskit::Role::Button, "Delete")
        .click();
    step(&mut h);
    assert!(!h.state().design().racks.contains_key(&rack));
    assert_eq!(
        h.state().design().links.len(),
        d.links.len() - cables,
        "its cables went with it"
    );
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    step(&mut h);
    assert_eq!(h.state().design(), &d, "one undo brings it all back");
}

#[test]
fn adding_a_rack_does_not_rezoom_the_canvas() {
    let mut h = harness(racksmith::samples::default_design());
    let d = h.state().design().clone();
    let rack = *d.racks.keys().next().unwrap();
    let unit = |h: &Harness<'static, RacksmithApp>| {
        h.state().unit_screen_pos(rack, 11).unwrap() - h.state().unit_screen_pos(rack, 10).unwrap()
    };
    let (zoom, before) = (h.state().ui.canvas.view.zoom, unit(&h));
    h.get_by_label("+ 42U rack").click();
    step(&mut h);
    assert_eq!(h.state().design().racks.len(), d.racks.len() + 1);
    // It may pan to show the new rack, never zoom: a rack unit keeps its size on screen.
    assert_eq!(h.state().ui.canvas.view.zoom, zoom);
    assert!((unit(&h) - before).length() < 0.01, "re-zoomed");
}

#[test]
fn a_new_design_shows_the_pane_from_its_headline() {
    let mut h = harness(racksmith::samples::default_design());
    let top = |h: &Harness<'static, RacksmithApp>| h.get_by_label("248 GPUs").rect().top();
    let at_first = top(&h);
    // Scroll the analysis pane down, past its headline cards.
    let pane = egui::pos2(1400.0, 800.0);
    h.hover_at(pane);
    for _ in 0..10 {
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, -400.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
            modifiers: egui::Modifiers::NONE,
        });
        h.step();
    }
    step(&mut h);
    assert!(top(&h) < at_first - 100.0, "the pane did not scroll");
    // Another design (the same sample again, so the card reads the same): the pane starts at the top.
    open_sample(&mut h, "superpod-h100-1su");
    assert!(
        (top(&h) - at_first).abs() < 1.0,
        "{} vs {at_first}",
        top(&h)
    );
}

#[test]
fn counts_in_the_window_have_their_plurals_right() {
    // One rack holding one switch and nothing else: "1 rack · 1 device · 0 GPUs · 0 links".
    let d = racksmith::samples::sample("dgx-h100-single").unwrap();
    let mut one = racksmith::model::Design::default();
    let (rack_id, rack) = d.racks.iter().next().unwrap();
    // The rack's part first: the editor, like the loader, refuses a rack of a part the design does not have.
    racksmith::edit::Edit::SetPart(
        rack.part.clone(),
        Some(Box::new(d.parts[&rack.part].clone())),
    )
    .apply(&mut one)
    .unwrap();
    racksmith::edit::Edit::AddRack(*rack_id, rack.clone())
        .apply(&mut one)
        .unwrap();
    let (sw_id, sw) = d.devices.iter().find(|(_, x)| x.name == "leaf-01").unwrap();
    let part = d.parts[&sw.part].clone();
    racksmith::edit::Edit::SetPart(sw.part.clone(), Some(Box::new(part)))
        .apply(&mut one)
        .unwrap();
    racksmith::edit::Edit::AddDevice(*sw_id, sw.clone())
        .apply(&mut one)
        .unwrap();
    let h = harness(one);
    h.get_by_label("1 rack · 1 device · 0 GPUs · 0 links");
    h.get_by_label("1 rack, 1 device, 0 GPUs, 0 links");
}

/// Issue 35: Create (from a template, or from sizing) is one undoable step. Ctrl+Z right after brings back the
/// design that was open, edits and all; Ctrl+Shift+Z makes the template's design again.
#[test]
fn creating_from_a_template_is_one_undo_step_back_to_the_previous_design() {
    let mut h = harness(racksmith::samples::sample("dgx-h100-single").unwrap());
    // Some work first, so the history is not empty either.
    add_rack(&mut h, "+ 42U rack");
    let work_label = h.state().doc.history.undo_label().unwrap().to_string();
    let before = h.state().design().clone();
    menu_path(&mut h, &["File", "New from template…"]);
    h.get_by_label_contains("248 GPUs in 31 servers");
    h.get_by_label("Create").click();
    step(&mut h);
    if h.query_by_label("Discard changes").is_some() {
        h.get_by_label("Discard changes").click();
        step(&mut h);
    }
    assert_eq!(h.state().design().name, "DGX SuperPOD H100, 1 SU");
    let made = h.state().design().clone();
    // Undo is not greyed: the Edit menu offers to undo the creation.
    assert_eq!(
        h.state().doc.history.undo_label(),
        Some("New design from template superpod-h100")
    );
    undo(&mut h);
    assert_eq!(h.state().design(), &before);
    // And the edit before it is still there to undo.
    assert_eq!(
        h.state().doc.history.undo_label(),
        Some(work_label.as_str())
    );
    h.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    step(&mut h);
    assert_eq!(h.state().design(), &made);
}

#[test]
fn escape_closes_the_window_on_top_then_a_prompt_answers_cancel() {
    // Issue 45: Escape did not close the Size dialog, the What-if window or the unsaved-changes prompt.
    let mut h = harness(racksmith::samples::default_design());
    menu_path(&mut h, &["View", "Failure what-ifs…"]);
    menu_path(&mut h, &["Help", "Planning questions…"]);
    assert!(
        h.state()
            .ui
            .windows
            .registry
            .get::<WhatIfWindow>()
            .unwrap()
            .open
    );
    // The window opened last is on top: the first Escape closes it, the second the one below.
    h.key_press(egui::Key::Escape);
    step(&mut h);
    assert!(
        h.query_by_label("Planning questions").is_none(),
        "the window on top closed"
    );
    assert!(
        h.state()
            .ui
            .windows
            .registry
            .get::<WhatIfWindow>()
            .unwrap()
            .open,
        "the one below stays"
    );
    h.key_press(egui::Key::Escape);
    step(&mut h);
    assert!(
        !h.state()
            .ui
            .windows
            .registry
            .get::<WhatIfWindow>()
            .unwrap()
            .open
    );
    // Opened after the help, the What-if window is on top: Escape closes it, not the help below it.
    menu_path(&mut h, &["Help", "Keyboard shortcuts"]);
    menu_path(&mut h, &["View", "Failure what-ifs…"]);
    h.key_press(egui::Key::Escape);
    step(&mut h);
    assert!(
        !h.state()
            .ui
            .windows
            .registry
            .get::<WhatIfWindow>()
            .unwrap()
            .open
    );
    assert!(
        h.state()
            .ui
            .windows
            .registry
            .get::<HelpWindow>()
            .unwrap()
            .is_open()
    );
    h.key_press(egui::Key::Escape);
    step(&mut h);
    assert!(
        !h.state()
            .ui
            .windows
            .registry
            .get::<HelpWindow>()
            .unwrap()
            .is_open()
    );

    // The unsaved-changes prompt: Escape is Cancel, and the work stays.
    add_rack(&mut h, "+ 42U rack");
    let work = h.state().design().clone();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::N);
    step(&mut h);
    h.get_by_label("Unsaved changes");
    h.key_press(egui::Key::Escape);
    step(&mut h);
    assert!(h.query_by_label("Unsaved changes").is_none());
    assert_eq!(h.state().design(), &work);
    assert!(h.state().doc.is_dirty());

    // The delete question: Escape is Cancel.
    let rack = *work.racks.keys().next().unwrap();
    click_rack(&mut h, rack);
    h.key_press(egui::Key::Delete);
    step(&mut h);
    h.get_by_label("Delete?");
    h.key_press(egui::Key::Escape);
    step(&mut h);
    assert!(h.query_by_label("Delete?").is_none());
    assert_eq!(h.state().design(), &work, "nothing deleted");
    // With no window open, Escape clears the selection.
    assert!(!h.state().ui.selection.is_empty());
    h.key_press(egui::Key::Escape);
    step(&mut h);
    assert!(h.state().ui.selection.is_empty());
}

#[test]
fn a_report_from_unsaved_work_says_so_and_a_saved_one_cites_its_file() {
    // Issue 45: a report exported from unsaved work cited a file hash no file had.
    let dir = tempfile::tempdir().unwrap();
    let (report, design_file) = (dir.path().join("r.html"), dir.path().join("d.ron"));
    let mut h = harness(racksmith::samples::default_design());
    let export = |h: &mut Harness<'static, RacksmithApp>| {
        h.state_mut()
            .set_native_dialogs(Box::new(common::AnswerOnce(Some(report.clone()))));
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::E);
        step(h);
        if h.query_by_label("Replace").is_some() {
            h.get_by_label("Replace").click();
            step(h);
        }
        std::fs::read_to_string(&report).unwrap()
    };
    let html = export(&mut h);
    assert!(html.contains("<strong>unsaved design</strong>"), "header");
    assert!(html.contains("from unsaved work: no file held this design"));
    save_as(&mut h, &design_file);
    let html = export(&mut h);
    let hash = racksmith::export::short_hash(&std::fs::read(&design_file).unwrap());
    assert!(html.contains(&format!("design file hash <code>{hash}</code>")));
    assert!(!html.contains("unsaved"));
    // Changed after the save: unsaved again.
    add_rack(&mut h, "+ 42U rack");
    assert!(export(&mut h).contains("<strong>unsaved design</strong>"));
}

#[test]
fn check_as_built_shows_what_differs_and_selects_the_cable() {
    // Issue 43: File > Check as built… reads what ibnetdiscover reported and lists the differences; one cable of
    // the sample's fabric was not pulled.
    let d = racksmith::samples::sample("dgx-h100-single").unwrap();
    let mut built = d.clone();
    let (gone, _) = built
        .links
        .iter()
        .find(|(_, l)| matches!(l.medium, racksmith::model::Medium::InfiniBand(_)))
        .map(|(k, l)| (*k, l.clone()))
        .unwrap();
    built.links.remove(&gone);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fabric.txt");
    std::fs::write(&file, racksmith::export::ibnetdiscover::write(&built)).unwrap();
    let mut h = harness(d);
    common::menu_with_file(&mut h, &["File", "Check as built…"], &file);
    h.get_by_label_contains("cables as designed; 1 missing, 0 miswired, 0 slow, 0 extra");
    let st = h
        .state()
        .ui
        .windows
        .registry
        .get::<AsBuiltWindow>()
        .and_then(|w| w.shown.as_ref())
        .expect("the window is open");
    assert_eq!(st.diff.missing[0].link, Some(gone));
    h.get_by_label("Show").click();
    step(&mut h);
    assert!(h.state().ui.selection.links.contains(&gone));
    // Escape closes it.
    h.key_press(egui::Key::Escape);
    step(&mut h);
    assert!(
        !h.state()
            .ui
            .windows
            .registry
            .get::<AsBuiltWindow>()
            .unwrap()
            .is_open()
    );
}

#[test]
fn the_failures_section_shows_goodput_and_its_levers_move_it() {
    // Issue 40: the pane's "Failures and checkpoints" section, with a what-if: per-replica recovery raises the
    // goodput by the section's own formula, and the design is not touched.
    let d = racksmith::samples::sample("h100-60gpu-training").unwrap();
    let mut h = harness(d.clone());
    h.get_by_label("Failures and checkpoints").click();
    step(&mut h);
    let rel = h.state().report().unwrap().reliability.clone().unwrap();
    let g = rel.goodput.unwrap();
    h.get_by_label_contains(&format!("{:.1}% (band", g * 100.0));
    // The section is long (the restart line gives the spares): bring the lever into view first.
    h.get_by_label("per-replica recovery").scroll_to_me();
    step(&mut h);
    h.get_by_label("per-replica recovery").click();
    step(&mut h);
    let (g2, _) = rel
        .what_if(racksmith::analysis::reliability::Levers {
            per_replica: true,
            ..racksmith::analysis::reliability::Levers::of(&rel)
        })
        .unwrap();
    assert!(g2 > g);
    h.get_by_label_contains(&format!("goodput {:.1}% (+", g2 * 100.0));
    assert_eq!(h.state().design(), &d);
}
