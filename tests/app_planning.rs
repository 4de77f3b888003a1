//! The Planning window driven through egui_kittest: View > Planning opens it; a slider change moves the cards by
//! the hand-calculated amount and is one undo step (a whole drag too); the GPU model swaps every GPU; scenarios
//! are saved, switched, compared side by side and kept in the design file.
#![cfg(feature = "gui")]
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

mod common;
use common::{harness, save_as, snapshot_harness, step, undo};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use racksmith::analysis::bandwidth::main_gpu;
use racksmith::analysis::format::usd;
use racksmith::app::RacksmithApp;
use racksmith::app::windows::planning::PlanningWindow;
use racksmith::model::PartId;

/// Opens View > Planning.
fn open_planning(h: &mut Harness<'static, RacksmithApp>) {
    h.get_by_label("View").click();
    step(h);
    h.get_by_label("Planning…").click();
    step(h);
    assert!(
        h.state()
            .ui
            .windows
            .registry
            .get::<PlanningWindow>()
            .unwrap()
            .open
    );
}

/// Sets a slider through its accessibility action, as a screen reader or a test would.
fn set_slider(h: &mut Harness<'static, RacksmithApp>, label: &str, value: f64) {
    h.get_by_role_and_label(Role::Slider, label)
        .set_value_accesskit(value);
    step(h);
}

#[test]
fn an_electricity_slider_change_moves_the_tco_card_by_the_hand_calculated_amount() {
    let mut h = harness(racksmith::samples::default_design());
    open_planning(&mut h);
    let before = h.state().report().unwrap().cost.clone();
    let old_price = h.state().design().params.electricity_usd_per_kwh;
    h.get_by_label(&usd(before.tco_usd));
    set_slider(&mut h, "Electricity", 0.25);
    assert_eq!(h.state().design().params.electricity_usd_per_kwh, 0.25);
    // Energy is linear in the price and TCO = capex - residual + years x opex, so TCO grows by
    // years x energy per year x (new price / old price - 1).
    let expected =
        before.tco_usd + before.years * before.energy_usd_per_year * (0.25 / old_price - 1.0);
    let after = h.state().report().unwrap().cost.clone();
    assert!(
        (after.tco_usd - expected).abs() < 0.05,
        "{} vs {expected}",
        after.tco_usd
    );
    // The card shows it in the frame after the analysis.
    h.get_by_label(&usd(after.tco_usd));
    // One undo step brings the price back.
    assert_eq!(
        h.state().doc.history.undo_label(),
        Some("Plan: set electricity")
    );
    undo(&mut h);
    assert_eq!(h.state().design().params.electricity_usd_per_kwh, old_price);
    h.get_by_label(&usd(before.tco_usd));
}

/// Drags the PUE slider's handle from near its left end across the rail; returns the PUE after each move (while
/// the button is still down).
fn drag_pue(h: &mut Harness<'static, RacksmithApp>) -> Vec<f64> {
    let rail = h.get_by_role_and_label(Role::Slider, "PUE").rect();
    let at = |x: f32| egui::pos2(rail.left() + x, rail.center().y);
    h.hover_at(at(8.0));
    h.step();
    h.drag_at(at(8.0));
    h.step();
    let mut seen = Vec::new();
    for x in [20.0, 35.0, 50.0, 65.0, 80.0] {
        h.hover_at(at(x));
        h.step();
        seen.push(h.state().design().params.pue);
    }
    h.event(egui::Event::PointerButton {
        pos: at(80.0),
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    step(h);
    seen
}

#[test]
fn a_slider_drag_is_one_undo_step() {
    let mut h = harness(racksmith::samples::default_design());
    open_planning(&mut h);
    let pue0 = h.state().design().params.pue;
    let during = drag_pue(&mut h);
    // A 1-SU design is analysed inline: the design follows the handle while it moves.
    assert!(during.windows(2).all(|w| w[1] > w[0]), "{during:?}");
    let pue = h.state().design().params.pue;
    assert!(pue > pue0 + 0.1, "the drag moved the PUE: {pue0} -> {pue}");
    assert_eq!(h.state().doc.history.undo_label(), Some("Plan: set pue"));
    // The whole drag is one step: one undo restores the PUE from before it and leaves nothing else to undo.
    undo(&mut h);
    assert_eq!(h.state().design().params.pue, pue0);
    assert_eq!(h.state().doc.history.undo_label(), None);
}

#[test]
fn the_request_rate_slider_sizes_the_gpus_needed() {
    let mut d = racksmith::samples::default_design();
    d.params.serving = Some(racksmith::model::Serving::default());
    let mut h = harness(d);
    open_planning(&mut h);
    set_slider(&mut h, "Request rate", 500.0);
    let design = h.state().design();
    let s = design.params.serving.clone().unwrap();
    assert_eq!(s.request_rate_rps, 500.0);
    let serving = h.state().report().unwrap().latency.serving.clone().unwrap();
    // replicas = ceil(R / (X x planned utilisation)), one GPU per replica.
    let replicas = (500.0 / (s.replica_throughput_rps * serving.planned_utilisation)).ceil() as u64;
    assert_eq!(serving.gpus_needed, Some(replicas));
    h.get_by_label(&format!("{replicas} GPUs"));
}

#[test]
fn a_gpu_model_is_a_scenario_until_applied_in_one_step() {
    // Issue 45: the GPU model list rewrote the design (A100s in a DGX H100 chassis). Now the choice is a what-if:
    // the design is untouched until a saved scenario is applied, which is one undo step.
    let mut h = harness(racksmith::samples::default_design());
    open_planning(&mut h);
    let before = h.state().design().clone();
    let h200 = h.state().catalog.get("h200-sxm").unwrap().name.clone();
    h.get_by_role_and_label(Role::ComboBox, "GPU model").click();
    step(&mut h);
    h.get_by_label(&format!("{h200} (its own servers)")).click();
    step(&mut h);
    assert_eq!(
        h.state().design(),
        &before,
        "choosing a model edits nothing"
    );
    assert_eq!(h.state().doc.history.undo_label(), None);
    // The DGX H100 holds H100s only: the what-if is a cluster of H200 servers with the same GPU count.
    let gpus: usize = before.devices.values().map(|d| d.gpus.len()).sum();
    h.get_by_label_contains(&format!(
        "What-if, not applied: {gpus} x h200-sxm on a cluster built anew"
    ));
    save_scenario(&mut h, "h200");
    let saved = h.state().design().scenarios.clone();
    assert_eq!(saved.len(), 1);
    assert_eq!(saved[0].gpu, Some(PartId::new("h200-sxm")));
    assert_eq!(
        h.state().design().devices,
        before.devices,
        "saving a scenario keeps the cluster"
    );
    h.get_by_label("Apply h200").click();
    step(&mut h);
    let d = h.state().design();
    assert_eq!(main_gpu(d), Some(PartId::new("h200-sxm")));
    // No H200 is left in an H100 system: every GPU server is the H200's own.
    assert!(
        d.devices
            .values()
            .filter(|x| !x.gpus.is_empty())
            .all(|x| x.part.as_str() == racksmith::templates::server_for("h200-sxm").unwrap())
    );
    assert_eq!(d.scenarios, saved, "the scenarios stay with the design");
    assert_eq!(
        h.state().doc.history.undo_label(),
        Some("Apply scenario h200")
    );
    undo(&mut h);
    assert_eq!(h.state().design().devices, before.devices);
}

/// Types a scenario name and saves it.
fn save_scenario(h: &mut Harness<'static, RacksmithApp>, name: &str) {
    h.get_by_role_and_label(Role::TextInput, "Scenario name")
        .click();
    step(h);
    h.get_by_role_and_label(Role::TextInput, "Scenario name")
        .type_text(name);
    step(h);
    h.get_by_label("Save scenario").click();
    step(h);
}

#[test]
fn scenarios_are_saved_switched_compared_and_kept_in_the_file() {
    let mut h = harness(racksmith::samples::default_design());
    open_planning(&mut h);
    let base_price = h.state().design().params.electricity_usd_per_kwh;
    save_scenario(&mut h, "base");
    set_slider(&mut h, "Electricity", 0.05);
    set_slider(&mut h, "PUE", 1.5);
    save_scenario(&mut h, "cheap power");
    let names: Vec<String> = h
        .state()
        .design()
        .scenarios
        .iter()
        .map(|s| s.name.clone())
        .collect();
    assert_eq!(names, ["base", "cheap power"]);
    h.get_by_label("cheap power (current)");

    // Side by side: both analysed, the differences marked.
    h.state_mut()
        .ui
        .windows
        .registry
        .get_mut::<PlanningWindow>()
        .unwrap()
        .wait();
    step(&mut h);
    h.state_mut()
        .ui
        .windows
        .registry
        .get_mut::<PlanningWindow>()
        .unwrap()
        .wait();
    step(&mut h);
    h.get_by_label("Side by side");
    let results = h
        .state()
        .ui
        .windows
        .registry
        .get::<PlanningWindow>()
        .unwrap()
        .table_results()
        .to_vec();
    assert_eq!(results.len(), 2);
    let tco = |i: usize| results[i].headline.as_ref().unwrap().tco_usd;
    assert!(tco(1) != tco(0));
    // Each column's settings and figures are in the table: the electricity prices, and TCOs that differ.
    h.get_by_label("$0.050/kWh");
    h.get_by_label(&usd(tco(0)));
    // The current settings are "cheap power": its TCO is on the card and in the table.
    assert_eq!(h.get_all_by_label(&usd(tco(1))).count(), 2);

    // Switch back: one undoable step that restores the base settings.
    h.get_by_label("Apply base").click();
    step(&mut h);
    let p = h.state().design().params.clone();
    assert_eq!(p.electricity_usd_per_kwh, base_price);
    assert_eq!(
        h.state().doc.history.undo_label(),
        Some("Apply scenario base")
    );
    h.get_by_label("base (current)");

    // Saved with the design and read back.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("plan.ron");
    save_as(&mut h, &path);
    let back = racksmith::io::load(&path).unwrap();
    assert_eq!(back.scenarios, h.state().design().scenarios);
    assert_eq!(back.scenarios[1].electricity_usd_per_kwh, 0.05);
    assert_eq!(back.scenarios[1].pue, 1.5);

    // Deleting one is undoable too.
    h.get_by_label("Delete cheap power").click();
    step(&mut h);
    assert_eq!(h.state().design().scenarios.len(), 1);
    undo(&mut h);
    assert_eq!(h.state().design().scenarios.len(), 2);
}

/// The window as a planning meeting sees it: sliders, cards, charts and two scenarios side by side (image
/// snapshot with the wgpu renderer; `UPDATE_SNAPSHOTS=1` writes a new baseline after a reviewed change).
#[test]
fn planning_window_snapshot() {
    let mut d = racksmith::samples::default_design();
    let base = racksmith::model::Scenario::from_params("base", &d.params, main_gpu(&d));
    d.scenarios = vec![
        base.clone(),
        racksmith::model::Scenario {
            name: "cheap power, PUE 1.1".into(),
            electricity_usd_per_kwh: 0.05,
            pue: 1.1,
            ..base
        },
    ];
    let mut h = snapshot_harness(d, egui::vec2(1600.0, 1000.0), egui::Theme::Dark, 5);
    open_planning(&mut h);
    h.run_steps(2);
    h.state_mut()
        .ui
        .windows
        .registry
        .get_mut::<PlanningWindow>()
        .unwrap()
        .wait();
    h.run_steps(5);
    h.snapshot("planning_dark_1600x1000");
}

#[test]
fn a_scenario_whose_gpus_do_not_fit_is_refused_with_the_reason() {
    // A GPU with no server of its own among the models Racksmith builds (B200 SXM) is swapped into the design's
    // servers, or refused: the L40S row's PCIe slots do not take an SXM module.
    let mut d = racksmith::samples::sample("l40s-inference-pcie").unwrap();
    d.scenarios = vec![racksmith::model::Scenario {
        gpu: Some(PartId::new("b200-sxm")),
        ..racksmith::model::Scenario::from_params("pcie", &d.params, main_gpu(&d))
    }];
    let before = d.clone();
    let mut h = harness(d);
    open_planning(&mut h);
    h.get_by_label("Apply pcie").click();
    step(&mut h);
    assert!(h.state().design() == &before, "the design was changed");
    assert!(h.state().ui.status.is_refusal());
    // The reason is in the status bar and stays in the window: a B200 is an SXM module, the slots take PCIe cards.
    assert_eq!(
        h.get_all_by_label_contains("Scenario pcie refused").count(),
        2
    );
    assert!(
        h.state()
            .ui
            .windows
            .registry
            .get::<PlanningWindow>()
            .unwrap()
            .gpu_refusal
            .as_deref()
            .is_some_and(|w| w.contains("does not fit")),
        "{:?}",
        h.state()
            .ui
            .windows
            .registry
            .get::<PlanningWindow>()
            .unwrap()
            .gpu_refusal
    );
}

#[test]
fn on_a_large_design_a_slider_applies_when_let_go() {
    let catalog = racksmith::catalog::Catalog::builtin().unwrap();
    let d = racksmith::samples::superpod_h100(&catalog, 4).unwrap();
    let mut h = harness(d);
    h.state_mut().wait_for_analysis();
    open_planning(&mut h);
    // A PUE step before the drag stays a step of its own.
    set_slider(&mut h, "PUE", 1.25);
    let pue0 = h.state().design().params.pue;
    assert_eq!(pue0, 1.25);
    let during = drag_pue(&mut h);
    // Analysed in the background: nothing is applied while the handle moves, once when it is let go.
    assert!(during.iter().all(|p| *p == pue0), "{during:?}");
    let pue = h.state().design().params.pue;
    assert!(pue > pue0 + 0.1, "{pue0} -> {pue}");
    assert_eq!(h.state().doc.history.undo_label(), Some("Plan: set pue"));
    undo(&mut h);
    assert_eq!(h.state().design().params.pue, pue0);
    assert_eq!(h.state().doc.history.undo_label(), Some("Plan: set pue"));
}
