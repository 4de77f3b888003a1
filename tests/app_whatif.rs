//! The failure what-ifs window driven through egui_kittest: View > Failure what-ifs… runs the N-1 sweep off the UI
//! thread and lists what cuts GPUs off, worst first; "Show" selects the part; the inspector's "What if it fails?"
//! gives one part's impact; Cancel stops a sweep.
#![cfg(feature = "gui")]
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

mod common;
use common::{click_at, menu, selected_devices, snapshot_harness};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use racksmith::analysis::whatif::{Failure, Impact};
use racksmith::app::RacksmithApp;
use racksmith::app::windows::whatif::WhatIfWindow;
use racksmith::model::{Design, DeviceId};

/// The app with `design` open and analysed (a what-if compares against the current analysis).
fn harness(design: Design) -> Harness<'static, RacksmithApp> {
    let mut h = common::harness(design);
    h.state_mut().wait_for_analysis();
    h.run_steps(2);
    h
}

fn open_whatifs(h: &mut Harness<'static, RacksmithApp>) {
    menu(h, "View", "Failure what-ifs…");
    assert!(
        h.state()
            .ui
            .windows
            .registry
            .get::<WhatIfWindow>()
            .unwrap()
            .open
    );
}

fn device(d: &Design, name: &str) -> DeviceId {
    d.device_named(name).unwrap()
}

/// The NIC-starved sample: eight A100 servers of 8 GPUs, each with one compute NIC cabled to the one leaf. Losing
/// the leaf leaves each server on its own: the largest group that still reaches each other is one server's 8 of
/// 64 GPUs. Losing one server's cable cuts that server's 8 GPUs off: 56 of 64. So the sweep ranks the leaf first
/// and the 8 cables (alike: the fabric's symmetry swaps them, so one row) second; the parts ranked after them
/// cut nothing off (issue 45: every part is ranked by what its loss costs, not only those that disconnect).
#[test]
fn the_sweep_lists_what_cuts_gpus_off_worst_first_and_shows_the_part() {
    let d = racksmith::samples::sample("a100-nic-starved").unwrap();
    let leaf = device(&d, "leaf-01");
    let mut h = harness(d);
    open_whatifs(&mut h);
    h.get_by_label("Run N-1 sweep").click();
    h.run_steps(2);
    h.state_mut()
        .ui
        .windows
        .registry
        .get_mut::<WhatIfWindow>()
        .unwrap()
        .wait();
    h.run_steps(3);
    let impacts = impacts(&h).expect("not cancelled");
    assert!(impacts.len() >= 2);
    assert!(impacts[2..].iter().all(|i| i.gpus_reachable.1 == 64));
    assert_eq!(impacts[0].failure, Failure::Device(leaf));
    assert_eq!(impacts[0].gpus_reachable, (64, 8));
    let cables = &impacts[1];
    assert!(matches!(cables.failure, Failure::Link(_)));
    assert_eq!(cables.alike.len(), 7);
    assert_eq!(cables.gpus_reachable, (64, 56));
    // The window says so, in the user's words.
    let n: usize = impacts.iter().map(|i| 1 + i.alike.len()).sum();
    assert!(
        h.query_by_label_contains(&format!("{n} single failures lose something, worst first"))
            .is_some()
    );
    // The leaf's row: 8 GPUs still reach each other, none reaches storage; the cables' row: 56 and 56 (a server's
    // 8 GPUs are cut off from both).
    assert!(h.query_by_label("64 -> 8").is_some());
    assert!(h.query_by_label("64 -> 0").is_some());
    assert_eq!(h.query_all_by_label("64 -> 56").count(), 2);
    assert!(h.query_by_label_contains("and 7 more like it").is_some());
    // "Show" on the first row selects the leaf.
    h.query_all_by_label("Show").next().unwrap().click();
    h.run_steps(3);
    assert_eq!(selected_devices(&h), vec![leaf]);
    // "Show" on the cables' row selects all eight.
    h.query_all_by_label("Show").nth(1).unwrap().click();
    h.run_steps(3);
    assert_eq!(h.state().ui.selection.links.len(), 8);
    assert!(h.state().ui.selection.devices.is_empty());
}

/// One server's impact from the inspector: its 8 GPUs drop out of the 64 reachable.
#[test]
fn what_if_it_fails_from_the_inspector_gives_one_parts_impact() {
    let d = racksmith::samples::sample("a100-nic-starved").unwrap();
    let server = device(&d, "a100-03");
    let mut h = harness(d);
    let r = h.state().device_screen_rect(server).unwrap();
    click_at(&mut h, r.center());
    assert!(h.state().ui.selection.devices.contains(&server));
    h.get_by_label("What if it fails?").click();
    h.run_steps(3);
    h.state_mut()
        .ui
        .windows
        .registry
        .get_mut::<WhatIfWindow>()
        .unwrap()
        .wait();
    h.run_steps(3);
    assert!(
        h.state()
            .ui
            .windows
            .registry
            .get::<WhatIfWindow>()
            .unwrap()
            .open
    );
    let impacts = impacts(&h).unwrap();
    assert_eq!(impacts.len(), 1);
    assert_eq!(impacts[0].failure, Failure::Device(server));
    assert_eq!(impacts[0].gpus_reachable, (64, 56));
    assert!(h.query_by_label_contains("If it fails").is_some());
}

/// Cancel stops the sweep: the result says cancelled, lists nothing, and the sweep can run again.
#[test]
fn a_cancelled_sweep_lists_nothing_and_can_run_again() {
    let d = racksmith::samples::sample("a100-nic-starved").unwrap();
    let mut h = harness(d);
    open_whatifs(&mut h);
    h.get_by_label("Run N-1 sweep").click();
    h.step();
    // Cancel right after the frame that started the job: whether or not its thread has finished, a job cancelled
    // before its result is shown counts as cancelled.
    assert!(
        h.state()
            .ui
            .windows
            .registry
            .get::<WhatIfWindow>()
            .unwrap()
            .running()
    );
    h.state_mut()
        .ui
        .windows
        .registry
        .get_mut::<WhatIfWindow>()
        .unwrap()
        .cancel();
    h.state_mut()
        .ui
        .windows
        .registry
        .get_mut::<WhatIfWindow>()
        .unwrap()
        .wait();
    h.run_steps(3);
    assert!(impacts(&h).is_none());
    assert!(h.query_by_label("Cancelled.").is_some());
    h.get_by_label("Run N-1 sweep").click();
    h.run_steps(2);
    h.state_mut()
        .ui
        .windows
        .registry
        .get_mut::<WhatIfWindow>()
        .unwrap()
        .wait();
    h.run_steps(3);
    assert!(impacts(&h).as_ref().is_some_and(|i| i.len() >= 2));
}

#[test]
fn whatif_window_snapshot() {
    let d = racksmith::samples::sample("a100-nic-starved").unwrap();
    let mut h = snapshot_harness(d, egui::vec2(1600.0, 1000.0), egui::Theme::Dark, 3);
    h.state_mut().wait_for_analysis();
    h.run_steps(2);
    open_whatifs(&mut h);
    h.get_by_label("Run N-1 sweep").click();
    h.run_steps(2);
    h.state_mut()
        .ui
        .windows
        .registry
        .get_mut::<WhatIfWindow>()
        .unwrap()
        .wait();
    h.run_steps(5);
    h.snapshot("whatif_dark_1600x1000");
}

/// The impacts of the what-if window's last result (None: cancelled; the test fails when there is no result).
fn impacts(h: &Harness<'static, RacksmithApp>) -> Option<Vec<Impact>> {
    let state = h.state();
    let outcome = state
        .ui
        .windows
        .registry
        .get::<WhatIfWindow>()
        .unwrap()
        .outcome();
    outcome.expect("the what-if finished").impacts.clone()
}

/// Issue 40: the window's levers on the training job's failures (faster storage, spares, per-replica recovery) give
/// the analysis's own `what_if` figures, the same set of levers the pane's "Failures and checkpoints" section shows,
/// and never touch the design.
#[test]
fn the_job_levers_give_the_reports_what_if() {
    use racksmith::analysis::reliability::Levers;
    let d = racksmith::samples::sample("h100-60gpu-training").unwrap();
    let mut h = snapshot_harness(d.clone(), egui::vec2(1600.0, 1000.0), egui::Theme::Dark, 3);
    h.state_mut().wait_for_analysis();
    h.run_steps(2);
    open_whatifs(&mut h);
    h.run_steps(3);
    let rel = h
        .state()
        .report()
        .unwrap()
        .reliability
        .clone()
        .expect("a training job");
    h.get_by_label("The training job's failures");
    assert!(h.query_all_by_label("spare servers").count() >= 1);
    h.get_by_label("per-replica recovery").click();
    h.run_steps(3);
    let (g, days) = rel
        .what_if(Levers {
            per_replica: true,
            ..Levers::of(&rel)
        })
        .unwrap();
    assert!(g > rel.goodput.unwrap());
    h.get_by_label_contains(&format!(
        "goodput {:.1}% (+{:.1} points), {days:.2} days with failures",
        g * 100.0,
        (g - rel.goodput.unwrap()) * 100.0
    ));
    assert_eq!(h.state().design(), &d);
    h.snapshot("whatif_job_dark_1600x1000");
}
