//! The rack canvas alone at 1600x1000 (the inspector and analysis pane folded away), drawn through egui_kittest:
//! per design size (a generated DGX SuperPOD H100 at 1, 4, 32 and 128 SU) and view (`fit`: the whole design fitted;
//! `zoom`: zoomed in to 100% on the top left), first what one frame of the canvas hands to the painter (shapes,
//! vertices, triangles and the summed area of those triangles inside their clip rects, which is what a software
//! rasteriser such as Mesa's llvmpipe fills), then the CPU of a frame while the pointer hovers (`hover`), while the view pans (`pan`) and while
//! nothing but a menu changes (`menu`: the File menu opened and closed, the canvas untouched).
//!
//! Run with `cargo bench --bench canvas` (`-- 32su` for one size). The counts print first, one line per case:
//! `canvas 32su fit: 5123 shapes, 61234 vertices, 40123 triangles, 1.23 Mpx`.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a benchmark that cannot set up should stop loudly

mod common;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use egui_kittest::Harness;
use racksmith::app::RacksmithApp;
use racksmith::catalog::Catalog;
use std::time::Duration;

fn harness(design: racksmith::model::Design) -> Harness<'static, RacksmithApp> {
    let mut app = RacksmithApp::new_for_test(design);
    app.analyse_in_background();
    let mut h = Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .with_max_steps(100)
        .build_ui_state(|ui, app: &mut RacksmithApp| app.show(ui), app);
    h.state_mut().ui.windows.right_collapsed = true;
    // The first frame lays the design out (racks, devices, links, bundles) and fits it.
    let t = std::time::Instant::now();
    h.step();
    println!("first frame: {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    h.run_steps(2);
    h.state_mut().wait_for_analysis();
    h.run_steps(3);
    h
}

/// What the last frame painted inside the canvas: shapes, vertices, triangles and summed triangle area (pixels).
fn counts(h: &Harness<'static, RacksmithApp>) -> (usize, usize, usize, f64) {
    let canvas = h.state().ui.canvas.canvas_rect.expect("canvas laid out");
    let out = h.output();
    let shapes: Vec<egui::epaint::ClippedShape> = out
        .shapes
        .iter()
        .filter(|s| canvas.expand(1.0).contains_rect(s.clip_rect))
        .cloned()
        .collect();
    let n = shapes.len();
    // The same, by kind of shape (each tessellated on its own): triangles and pixels.
    let mut kinds: std::collections::BTreeMap<&str, (usize, f64)> = Default::default();
    for s in &shapes {
        let kind = match &s.shape {
            egui::Shape::Rect(_) => "rect",
            egui::Shape::Text(_) => "text",
            egui::Shape::CubicBezier(_) => "curve",
            egui::Shape::LineSegment { .. } => "line",
            _ => "other",
        };
        let e = kinds.entry(kind).or_default();
        for p in h.ctx.tessellate(vec![s.clone()], out.pixels_per_point) {
            if let egui::epaint::Primitive::Mesh(m) = p.primitive {
                e.0 += m.indices.len() / 3;
                for tri in m.indices.chunks_exact(3) {
                    let corners = [0, 1, 2].map(|k| m.vertices[tri[k] as usize].pos);
                    e.1 += f64::from(clipped_area(&corners, p.clip_rect));
                }
            }
        }
    }
    let by_kind: Vec<String> = kinds
        .iter()
        .map(|(k, (t, a))| format!("{k} {t} tri {:.2} Mpx", a / 1e6))
        .collect();
    println!("  by kind: {}", by_kind.join(", "));
    let prims = h.ctx.tessellate(shapes, out.pixels_per_point);
    let (mut v, mut t, mut area) = (0, 0, 0.0f64);
    for p in prims {
        if let egui::epaint::Primitive::Mesh(m) = p.primitive {
            v += m.vertices.len();
            t += m.indices.len() / 3;
            for tri in m.indices.chunks_exact(3) {
                let corners = [0, 1, 2].map(|k| m.vertices[tri[k] as usize].pos);
                area += f64::from(clipped_area(&corners, p.clip_rect));
            }
        }
    }
    (n, v, t, area)
}

/// One coordinate of a point (x or y).
type Coord = fn(egui::Pos2) -> f32;

/// The area of a triangle inside a clip rect (what the scissor lets the rasteriser fill): the triangle clipped
/// against each side of the rect in turn (Sutherland-Hodgman), then the shoelace formula.
fn clipped_area(tri: &[egui::Pos2; 3], clip: egui::Rect) -> f32 {
    let mut poly: Vec<egui::Pos2> = tri.to_vec();
    let sides: [(Coord, f32, f32); 4] = [
        (|p| p.x, clip.min.x, 1.0),
        (|p| p.x, clip.max.x, -1.0),
        (|p| p.y, clip.min.y, 1.0),
        (|p| p.y, clip.max.y, -1.0),
    ];
    for (coord, edge, sign) in sides {
        let inside = |p: egui::Pos2| (coord(p) - edge) * sign >= 0.0;
        let mut out = Vec::with_capacity(poly.len() + 2);
        for i in 0..poly.len() {
            let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
            if inside(a) {
                out.push(a);
            }
            if inside(a) != inside(b) {
                let s = (edge - coord(a)) / (coord(b) - coord(a));
                out.push(a + (b - a) * s);
            }
        }
        poly = out;
        if poly.is_empty() {
            return 0.0;
        }
    }
    let n = poly.len();
    (0..n)
        .map(|i| {
            let (a, b) = (poly[i], poly[(i + 1) % n]);
            a.x * b.y - b.x * a.y
        })
        .sum::<f32>()
        .abs()
        / 2.0
}

fn canvas(c: &mut Criterion) {
    let catalog = Catalog::builtin().expect("catalog");
    let mut group = c.benchmark_group("canvas_1600x1000");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    for su in [1usize, 4, 32, 128] {
        let name = format!("{su}su");
        let design = racksmith::samples::superpod_h100(&catalog, su).expect("generate");
        let mut h = harness(design);
        let rect = h.state().ui.canvas.canvas_rect.expect("canvas laid out");
        for view in ["fit", "zoom"] {
            if view == "zoom" {
                let v = &mut h.state_mut().ui.canvas.view;
                v.zoom = 1.0;
                v.offset = egui::vec2(-20.0, -20.0);
                v.fitted = None;
            } else {
                h.state_mut().ui.canvas.view.fit = Some(racksmith::app::state::FitTarget::All);
            }
            h.run_steps(3);
            // What egui's tessellation of the whole frame costs: with a device under the pointer (the canvas's
            // scene handed over as shapes, as every frame did before it was kept) and with the pointer off the
            // canvas (its triangles, made once).
            let device = h
                .state()
                .device_screen_rects()
                .values()
                .map(|r| r.center())
                .filter(|c| rect.shrink(20.0).contains(*c))
                .min_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)))
                .expect("a device in view");
            for (what, at) in [
                ("on a device", device),
                ("off", rect.min - egui::vec2(1.0, 1.0)),
            ] {
                h.hover_at(at);
                h.run_steps(3);
                let out = h.output().shapes.clone();
                let ppp = h.output().pixels_per_point;
                let t = std::time::Instant::now();
                for _ in 0..10 {
                    h.ctx.tessellate(out.clone(), ppp);
                }
                println!(
                    "  tessellating the frame, pointer {what}: {:.2} ms",
                    t.elapsed().as_secs_f64() * 1e3 / 10.0
                );
            }
            let (shapes, v, t, area) = counts(&h);
            println!(
                "canvas {name} {view}: {shapes} shapes, {v} vertices, {t} triangles, {:.2} Mpx (canvas {:.2} Mpx)",
                area / 1e6,
                rect.area() / 1e6
            );
            let mut i = 0u32;
            group.bench_function(BenchmarkId::new(format!("hover_{view}"), &name), |b| {
                b.iter(|| {
                    i = i.wrapping_add(1);
                    let f = (i % 40) as f32 / 40.0;
                    h.hover_at(rect.lerp_inside(egui::vec2(0.2 + 0.6 * f, 0.5)));
                    h.step();
                })
            });
            // A menu opened and closed over the canvas: nothing on the canvas changes.
            let file = egui::pos2(20.0, 10.0);
            group.bench_function(BenchmarkId::new(format!("menu_{view}"), &name), |b| {
                b.iter(|| {
                    h.hover_at(file);
                    h.drag_at(file);
                    h.step();
                    h.drop_at(file);
                    h.step();
                })
            });
            h.key_press(egui::Key::Escape);
            h.run_steps(2);
            common::pan(
                &mut group,
                BenchmarkId::new(format!("pan_{view}"), &name),
                &mut h,
                rect.min + egui::vec2(4.0, 4.0),
            );
        }
    }
    group.finish();
}

criterion_group!(benches, canvas);
criterion_main!(benches);
