//! CPU time of one app frame with the 4-SU SuperPOD (203 devices, 2,644 links) in view at the default window
//! size, drawn through egui_kittest (no GPU). Run with `cargo bench --bench app_frame`.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a benchmark that cannot set up should stop loudly

use criterion::{Criterion, criterion_group, criterion_main};
use egui_kittest::Harness;
use racksmith::app::RacksmithApp;
use racksmith::catalog::Catalog;
use std::time::Duration;

fn frame(c: &mut Criterion) {
    let catalog = Catalog::builtin().expect("catalog");
    let design = racksmith::samples::superpod_h100(&catalog, 4).expect("generate");
    let mut app = RacksmithApp::new_for_test(design);
    app.wait_for_analysis();
    let mut h = Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .build_ui_state(|ui, app: &mut RacksmithApp| app.show(ui), app);
    h.run_steps(5);
    h.state_mut().wait_for_analysis();
    h.run_steps(2);
    let canvas = h.state().ui.canvas_rect.expect("canvas laid out");
    let mut group = c.benchmark_group("app_frame_4su_1600x1000");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(5));
    let mut i = 0u32;
    group.bench_function("fit_to_view_hover", |b| {
        b.iter(|| {
            i = i.wrapping_add(1);
            let f = (i % 40) as f32 / 40.0;
            h.hover_at(canvas.lerp_inside(egui::vec2(0.2 + 0.6 * f, 0.5)));
            h.step();
        })
    });
    h.state_mut().ui.view.zoom = 0.5;
    h.state_mut().ui.view.offset = egui::vec2(0.0, -200.0);
    group.bench_function("zoom_0.5_links_drawn", |b| {
        b.iter(|| {
            i = i.wrapping_add(1);
            let f = (i % 40) as f32 / 40.0;
            h.hover_at(canvas.lerp_inside(egui::vec2(0.2 + 0.6 * f, 0.5)));
            h.step();
        })
    });
    group.finish();
}

criterion_group!(app_benches, frame);
criterion_main!(app_benches);
