//! CPU time of one app frame at 1600x1000, drawn through egui_kittest (layout, tessellation; no GPU), with the
//! analysis on its worker thread as in the app. Designs: a generated DGX SuperPOD H100 at 1, 4 and 16 SU, and 48
//! racks of four DGX H100 with a leaf each (`samples::rack_leaf_h100`, the size of a sized design: 48 racks, about
//! 1,900 links). Per design:
//! - `idle`: a frame with no input at all (what a repaint costs when nothing changed);
//! - `hover`: pointer moving over the canvas, the whole design fitted in view (links bundled per pair of racks);
//! - `hover_no_pane`: the same with the inspector and analysis pane folded away (the canvas's own cost);
//! - `pan`: the primary button held on the empty floor, the pointer moving (the view pans each frame);
//! - `slider`: the Planning window open, its electricity slider dragged a step each frame (an edit per frame; the
//!   worker is handed the new revision, the frame does not wait for it);
//! - `zoom_0.5`, `zoom_1.0`: zoomed in (links drawn one by one at 1.0, those out of view culled);
//! - `param_change`: with the design fitted again, a frame that applies a parameter edit;
//! - `figures_after_edit`: wall time from a parameter edit until the pane shows the new revision's figures
//!   (frames keep running while the worker analyses).
//! - `planning_slider` (1 SU, Planning window open, analysis inline): from a slider change to the frame that draws
//!   the cards from the new analysis.
//!
//! Run with `cargo bench --bench app_frame` (`-- hover` for one kind). Targets (issue 24): under 8 ms per frame at
//! 16 SU while hovering.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a benchmark that cannot set up should stop loudly

mod common;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use egui_kittest::Harness;
use racksmith::app::{DocCommand, RacksmithApp, Show, UiCommand};
use racksmith::catalog::Catalog;
use racksmith::edit::Edit;
use std::time::{Duration, Instant};

/// The designs measured: (name, design).
fn designs() -> Vec<(String, racksmith::model::Design)> {
    let catalog = Catalog::builtin().expect("catalog");
    let mut out: Vec<(String, racksmith::model::Design)> = [1usize, 4, 16]
        .into_iter()
        .map(|su| {
            (
                format!("{su}su"),
                racksmith::samples::superpod_h100(&catalog, su).expect("generate"),
            )
        })
        .collect();
    out.push((
        "48racks".into(),
        racksmith::samples::rack_leaf_h100(&catalog, 48).expect("generate"),
    ));
    out
}

fn harness(design: racksmith::model::Design) -> Harness<'static, RacksmithApp> {
    let mut app = RacksmithApp::new_for_test(design);
    app.analyse_in_background();
    app.wait_for_analysis();
    let mut h = Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .build_ui_state(|ui, app: &mut RacksmithApp| app.show(ui), app);
    h.run_steps(5);
    h.state_mut().wait_for_analysis();
    h.run_steps(2);
    h
}

/// Queues an edit of the electricity price (alternating two values), as the Parameters window does.
fn price_edit(h: &mut Harness<'static, RacksmithApp>, i: u32) {
    let mut p = h.state().design().params.clone();
    p.electricity_usd_per_kwh = if i.is_multiple_of(2) { 0.11 } else { 0.10 };
    h.state_mut().push(
        DocCommand::Edit("Set electricity price".into(), Edit::SetParams(Box::new(p))).into(),
    );
}

fn frame(c: &mut Criterion) {
    let mut group = c.benchmark_group("app_frame_1600x1000");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(6));
    for (su, design) in designs() {
        let mut h = harness(design);
        let canvas = h.state().ui.canvas.canvas_rect.expect("canvas laid out");
        let mut i = 0u32;
        group.bench_function(BenchmarkId::new("idle", &su), |b| b.iter(|| h.step()));
        group.bench_function(BenchmarkId::new("hover", &su), |b| {
            b.iter(|| {
                i = i.wrapping_add(1);
                let f = (i % 40) as f32 / 40.0;
                h.hover_at(canvas.lerp_inside(egui::vec2(0.2 + 0.6 * f, 0.5)));
                h.step();
            })
        });
        // The same with the inspector and analysis pane folded away: what the canvas itself costs (the pane's
        // per-rack table is most of the rest at 128 SU).
        h.state_mut().ui.windows.right_collapsed = true;
        h.run_steps(2);
        group.bench_function(BenchmarkId::new("hover_no_pane", &su), |b| {
            b.iter(|| {
                i = i.wrapping_add(1);
                let f = (i % 40) as f32 / 40.0;
                h.hover_at(canvas.lerp_inside(egui::vec2(0.2 + 0.6 * f, 0.5)));
                h.step();
            })
        });
        h.state_mut().ui.windows.right_collapsed = false;
        h.run_steps(2);
        // Panning: the button held on the empty floor at the top left, the pointer moving.
        common::pan(
            &mut group,
            BenchmarkId::new("pan", &su),
            &mut h,
            canvas.min + egui::vec2(12.0, 12.0),
        );
        h.state_mut().ui.canvas.view.fit = Some(racksmith::app::state::FitTarget::All);
        h.run_steps(2);
        // A planning slider dragged: one edit per frame, the analysis behind on its worker.
        h.state_mut().push(UiCommand::Show(Show::Planning).into());
        h.run_steps(3);
        group.bench_function(BenchmarkId::new("slider", &su), |b| {
            b.iter(|| {
                use egui_kittest::kittest::Queryable;
                i = i.wrapping_add(1);
                let price = 0.05 + f64::from(i % 40) * 0.005;
                h.get_by_role_and_label(egui::accesskit::Role::Slider, "Electricity")
                    .set_value_accesskit(price);
                h.step();
            })
        });
        h.state_mut().push(UiCommand::Toggle(Show::Planning).into());
        h.state_mut().wait_for_analysis();
        h.run_steps(3);
        // Zoomed in on the top left, then on a part of the design with links drawn one by one.
        for (zoom, offset) in [
            (0.5, egui::vec2(0.0, -200.0)),
            (1.0, egui::vec2(-600.0, -400.0)),
        ] {
            h.state_mut().ui.canvas.view.zoom = zoom;
            h.state_mut().ui.canvas.view.offset = offset;
            h.state_mut().ui.canvas.view.fitted = None;
            group.bench_function(BenchmarkId::new(format!("zoom_{zoom:.1}"), &su), |b| {
                b.iter(|| {
                    i = i.wrapping_add(1);
                    let f = (i % 40) as f32 / 40.0;
                    h.hover_at(canvas.lerp_inside(egui::vec2(0.2 + 0.6 * f, 0.5)));
                    h.step();
                })
            });
        }
        // Edits with the whole design in view, as after opening it.
        h.state_mut().ui.canvas.view.fit = Some(racksmith::app::state::FitTarget::All);
        h.run_steps(2);
        group.bench_function(BenchmarkId::new("param_change", &su), |b| {
            b.iter(|| {
                i = i.wrapping_add(1);
                price_edit(&mut h, i);
                h.step();
            })
        });
        h.state_mut().wait_for_analysis();
        group.bench_function(BenchmarkId::new("figures_after_edit", &su), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    i = i.wrapping_add(1);
                    let t = Instant::now();
                    price_edit(&mut h, i);
                    h.step();
                    while h.state().analysis.is_stale(h.state().doc.revision) {
                        std::thread::sleep(Duration::from_micros(200));
                        h.step();
                    }
                    total += t.elapsed();
                }
                total
            })
        });
    }
    group.finish();
}

/// A planning slider change at 1 SU: the frame that turns the change into an edit, then the frame that analyses
/// the new revision inline (50 devices: under the background threshold) and draws the cards from it.
fn planning_slider(c: &mut Criterion) {
    use egui_kittest::kittest::Queryable;
    let catalog = Catalog::builtin().expect("catalog");
    let design = racksmith::samples::superpod_h100(&catalog, 1).expect("generate");
    let mut app = RacksmithApp::new_for_test(design);
    app.push(UiCommand::Show(Show::Planning).into());
    app.apply_commands();
    let mut h = Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .build_ui_state(|ui, app: &mut RacksmithApp| app.show(ui), app);
    h.run_steps(5);
    let mut i = 0u32;
    let mut change = |h: &mut Harness<'_, RacksmithApp>| {
        i = i.wrapping_add(1);
        let price = 0.05 + f64::from(i % 40) * 0.005;
        h.get_by_role_and_label(egui::accesskit::Role::Slider, "Electricity")
            .set_value_accesskit(price);
        h.step();
        h.step();
        price
    };
    // The figure to report: wall time from the change to the frame showing the new TCO, median of 30.
    let mut times: Vec<f64> = (0..30)
        .map(|_| {
            let t = std::time::Instant::now();
            let price = change(&mut h);
            let ms = t.elapsed().as_secs_f64() * 1e3;
            let shown = h.state().design().params.electricity_usd_per_kwh;
            assert!(
                (shown - price).abs() < 1e-9
                    && !h.state().analysis.is_stale(h.state().doc.revision)
            );
            ms
        })
        .collect();
    times.sort_by(f64::total_cmp);
    eprintln!(
        "planning slider to cards at 1 SU: median {:.1} ms, worst {:.1} ms (2 frames, analysis {:.1} ms)",
        times[times.len() / 2],
        times[times.len() - 1],
        h.state().analysis.last_ms
    );
    let mut group = c.benchmark_group("planning_1su_1600x1000");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(5));
    group.bench_function("slider_change_to_cards", |b| b.iter(|| change(&mut h)));
    group.finish();
}

criterion_group!(app_benches, frame, planning_slider);
criterion_main!(app_benches);
