//! CPU time of one app frame with a generated DGX SuperPOD H100 in view at 1600x1000, drawn through egui_kittest
//! (no GPU), with the analysis on its worker thread as in the app:
//! - `hover`: pointer moving over the canvas, the whole design fitted in view;
//! - `zoom_0.5`: zoomed in with links drawn;
//! - `param_change`: a frame that applies a parameter edit (the worker is handed the new revision; the frame does
//!   not wait for it);
//! - `figures_after_edit`: wall time from a parameter edit until the pane shows the new revision's figures
//!   (frames keep running while the worker analyses).
//!
//! Sizes: 4, 16 and 128 SU. Run with `cargo bench --bench app_frame`.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a benchmark that cannot set up should stop loudly

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use egui_kittest::Harness;
use racksmith::app::{AppCommand, RacksmithApp};
use racksmith::catalog::Catalog;
use racksmith::edit::Edit;
use std::time::{Duration, Instant};

fn harness(su: usize) -> Harness<'static, RacksmithApp> {
    let catalog = Catalog::builtin().expect("catalog");
    let design = racksmith::samples::superpod_h100(&catalog, su).expect("generate");
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
    h.state_mut().push(AppCommand::Edit(
        "Set electricity price".into(),
        Edit::SetParams(Box::new(p)),
    ));
}

fn frame(c: &mut Criterion) {
    let mut group = c.benchmark_group("app_frame_1600x1000");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(6));
    for su in [4usize, 16, 128] {
        let mut h = harness(su);
        let canvas = h.state().ui.canvas_rect.expect("canvas laid out");
        let mut i = 0u32;
        group.bench_function(BenchmarkId::new("hover", format!("{su}su")), |b| {
            b.iter(|| {
                i = i.wrapping_add(1);
                let f = (i % 40) as f32 / 40.0;
                h.hover_at(canvas.lerp_inside(egui::vec2(0.2 + 0.6 * f, 0.5)));
                h.step();
            })
        });
        h.state_mut().ui.view.zoom = 0.5;
        h.state_mut().ui.view.offset = egui::vec2(0.0, -200.0);
        group.bench_function(BenchmarkId::new("zoom_0.5", format!("{su}su")), |b| {
            b.iter(|| {
                i = i.wrapping_add(1);
                let f = (i % 40) as f32 / 40.0;
                h.hover_at(canvas.lerp_inside(egui::vec2(0.2 + 0.6 * f, 0.5)));
                h.step();
            })
        });
        group.bench_function(BenchmarkId::new("param_change", format!("{su}su")), |b| {
            b.iter(|| {
                i = i.wrapping_add(1);
                price_edit(&mut h, i);
                h.step();
            })
        });
        h.state_mut().wait_for_analysis();
        group.bench_function(
            BenchmarkId::new("figures_after_edit", format!("{su}su")),
            |b| {
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
            },
        );
    }
    group.finish();
}

criterion_group!(app_benches, frame);
criterion_main!(app_benches);
