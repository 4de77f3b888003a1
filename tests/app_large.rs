//! The canvas of large designs: a 32-SU DGX SuperPOD H100 fitted in view as an image snapshot, and the canvas's
//! reused scene (painted once, handed to the painter again while only the pointer or a menu changes) drawing what
//! a freshly painted one draws, the hovered device emphasised in its place.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a test that cannot set up should stop loudly

mod common;

use common::snapshot_harness;
use egui_kittest::Harness;
use racksmith::app::RacksmithApp;
use racksmith::catalog::Catalog;

/// The triangles the canvas handed to the painter in the last frame (the shapes clipped to the canvas, tessellated
/// as egui does at the end of a frame), one line per vertex: its clip, position (to a hundredth of a point), texture
/// coordinates and colour, then the triangles' indices.
fn canvas_triangles(h: &Harness<'static, RacksmithApp>) -> Vec<String> {
    let canvas = h.state().ui.canvas.canvas_rect.expect("canvas laid out");
    let shapes = h
        .output()
        .shapes
        .iter()
        .filter(|s| canvas.contains_rect(s.clip_rect))
        .cloned()
        .collect();
    let mut out = Vec::new();
    for p in h.ctx.tessellate(shapes, h.output().pixels_per_point) {
        if let egui::epaint::Primitive::Mesh(m) = p.primitive {
            for v in &m.vertices {
                out.push(format!(
                    "{:?} {:.2} {:.2} {:.4} {:.4} {:?}",
                    p.clip_rect,
                    v.pos.x + 0.0,
                    v.pos.y + 0.0,
                    v.uv.x,
                    v.uv.y,
                    v.color
                ));
            }
            out.push(format!("{:?}", m.indices));
        }
    }
    out
}

/// The 32-SU SuperPOD as it opens, fitted in 1600x1000 in the dark theme: hundreds of racks as small blocks of
/// devices, the links as bundles.
#[test]
fn superpod_32su_fitted_dark_1600x1000() {
    let catalog = Catalog::builtin().unwrap();
    let design = racksmith::samples::superpod_h100(&catalog, 32).unwrap();
    let mut h = snapshot_harness(design, egui::vec2(1600.0, 1000.0), egui::Theme::Dark, 10);
    let drawn = h.state().ui.canvas.canvas_drawn;
    assert!(drawn.bundles > 0, "fitted, the links are bundled");
    assert_eq!(drawn.links, 0, "no link is drawn one by one");
    h.snapshot("superpod_32su_fitted_dark");
}

/// Zoomed in on a 4-SU SuperPOD with a device under the pointer: the frame that reuses the scene draws the same
/// triangles as one that paints it afresh (after a display option changed and changed back), and they differ from
/// the frame without the hover (drawn from the scene's own triangles), where the device is drawn again, emphasised,
/// in its place.
#[test]
fn a_reused_scene_draws_what_a_fresh_one_does_with_the_hovered_device_emphasised() {
    let catalog = Catalog::builtin().unwrap();
    let design = racksmith::samples::superpod_h100(&catalog, 4).unwrap();
    let device = design
        .devices
        .iter()
        .find(|(_, d)| d.name.starts_with("dgx"))
        .map(|(id, _)| *id)
        .expect("a DGX");
    let mut h = common::harness(design);
    let at = common::zoom_in_on(&mut h, device).center();
    let away = h.state().ui.canvas.canvas_rect.unwrap().min + egui::vec2(2.0, 2.0);
    h.hover_at(away);
    h.run_steps(2);
    let plain = canvas_triangles(&h);
    h.hover_at(at);
    h.run_steps(2);
    let reused = canvas_triangles(&h);
    let fresh = fresh_triangles(&mut h);
    assert!(
        reused.len() > 100,
        "the zoomed-in canvas draws devices and labels"
    );
    assert_eq!(
        reused, fresh,
        "the reused scene draws what a fresh one does"
    );
    assert_ne!(plain, reused, "the hovered device is drawn emphasised");
    assert_eq!(plain.len(), reused.len(), "and only drawn again, not added");
}

/// Zoomed in on a 4-SU SuperPOD, the view panned a little: the scene painted before the pan, moved, draws the
/// triangles one painted afresh at the new place does (to a hundredth of a point), links and labels included.
#[test]
fn a_scene_moved_with_the_pan_draws_what_a_fresh_one_does() {
    let catalog = Catalog::builtin().unwrap();
    let design = racksmith::samples::superpod_h100(&catalog, 4).unwrap();
    let mut h = common::harness(design);
    h.state_mut().ui.canvas.view.zoom = 1.0;
    h.state_mut().ui.canvas.view.offset = egui::vec2(-300.0, -200.0);
    h.state_mut().ui.canvas.view.fitted = None;
    h.run_steps(2);
    let before = canvas_triangles(&h);
    h.state_mut().ui.canvas.view.offset += egui::vec2(37.0, -23.0);
    h.run_steps(2);
    let moved = canvas_triangles(&h);
    let fresh = fresh_triangles(&mut h);
    assert_ne!(before, moved, "the pan moved the drawing");
    assert_eq!(moved, fresh, "the moved scene draws what a fresh one does");
    // The next frame changes nothing: the scene's own triangles are handed over, the same as its shapes gave.
    h.step();
    assert_eq!(
        canvas_triangles(&h),
        fresh,
        "its triangles draw what its shapes do"
    );
}

/// The canvas's triangles from a scene painted afresh: hiding the links and showing them again makes the canvas
/// paint its scene anew.
fn fresh_triangles(h: &mut Harness<'static, RacksmithApp>) -> Vec<String> {
    h.state_mut().ui.canvas.hide_links = true;
    h.step();
    h.state_mut().ui.canvas.hide_links = false;
    h.step();
    canvas_triangles(h)
}

/// A large design's first frame shows the canvas's background and asks for the next, which draws the racks: the
/// window's first frame is the one on which the renderer compiles its shaders, and a 128-SU SuperPOD's racks drawn
/// on it too made it the slowest of all (src/app/canvas/paint.rs, `FIRST_FRAME_RACKS`). A small design draws whole
/// at once. Frames run on egui's own context (the test harness runs several as it starts).
#[test]
fn a_large_design_draws_its_racks_from_the_second_frame() {
    let catalog = Catalog::builtin().unwrap();
    let first_two = |su: usize| {
        let design = racksmith::samples::superpod_h100(&catalog, su).unwrap();
        let racks = design.racks.len();
        let mut app = RacksmithApp::new_for_test(design);
        let ctx = egui::Context::default();
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(1600.0, 1000.0),
            )),
            ..Default::default()
        };
        let mut frame = || {
            let mut out = ctx.run_ui(input.clone(), |ui| app.show(ui));
            out.textures_delta.clear();
            let canvas = app.ui.canvas.canvas_rect.expect("canvas laid out");
            let shapes = out
                .shapes
                .iter()
                .filter(|s| canvas.contains_rect(s.clip_rect))
                .count();
            let again = out
                .viewport_output
                .values()
                .any(|v| v.repaint_delay.is_zero());
            (app.ui.canvas.canvas_drawn, shapes, again)
        };
        let first = frame();
        let second = frame();
        (racks, first, second)
    };
    let (racks, (drawn, shapes, again), (then, then_shapes, _)) = first_two(16);
    assert!(racks > 100, "{racks} racks");
    assert_eq!(
        (drawn.links, drawn.bundles),
        (0, 0),
        "nothing drawn on the first frame"
    );
    assert!(shapes <= 2, "the background alone: {shapes} shapes");
    assert!(again, "and the next frame asked for at once");
    assert!(
        then.links + then.bundles > 0 && then_shapes > 1_000,
        "{then:?}, {then_shapes} shapes"
    );
    let (racks, (drawn, shapes, _), _) = first_two(1);
    assert!(racks <= 100, "{racks} racks");
    assert!(
        drawn.links + drawn.bundles > 0 && shapes > 100,
        "{drawn:?}, {shapes} shapes"
    );
}
