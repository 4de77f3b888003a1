//! What the app benches share: the pan case (the primary button held on the empty floor at `floor`, the pointer
//! moving a few points a frame, released after the measurement).

use criterion::{BenchmarkGroup, BenchmarkId, measurement::WallTime};
use egui_kittest::Harness;
use racksmith::app::RacksmithApp;

/// Measures a frame of panning: presses at `floor`, moves the pointer in a 40-step cycle of (3, 2) points a frame,
/// and releases when done.
pub fn pan(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: BenchmarkId,
    h: &mut Harness<'static, RacksmithApp>,
    floor: egui::Pos2,
) {
    h.hover_at(floor);
    h.step();
    h.drag_at(floor);
    h.step();
    let mut i = 0u32;
    group.bench_function(id, |b| {
        b.iter(|| {
            i = i.wrapping_add(1);
            let f = (i % 40) as f32;
            h.hover_at(floor + egui::vec2(f * 3.0, f * 2.0));
            h.step();
        })
    });
    h.drop_at(floor);
    h.run_steps(2);
}
