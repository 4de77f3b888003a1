//! What one frame of the real app costs and how many frames an input event causes (issue 38), measured headless
//! on egui's own `Context` (no kittest, no GPU): each frame is `ctx.run_ui(raw_input, |ui| app.show(ui))` (the
//! layout: panels, canvas, pane, windows) then `ctx.tessellate` (shapes to triangles). The raster of those triangles
//! is the GPU's (Mesa's llvmpipe under software rendering, the larger part of a frame there): its cost follows the
//! pixels the triangles cover, summed here.
//!
//! Designs: a generated DGX SuperPOD H100 at 1, 4, 32 and 128 SU (`FRAME_COST_SU=1,4` for fewer), 1600x1000 points
//! at 1 pixel per point, the analysis computed inline before the first frame. Cases:
//! - `idle`: a frame with no input (what a repaint costs when nothing changed);
//! - `idle_no_pane`: the same with the inspector and analysis pane folded away (the difference is their cost);
//! - `hover`: the pointer moving over the canvas;
//! - `click_rack`: a press and release on an empty unit of a rack (selects the rack: inspector and highlight);
//! - `menu`: a click on the File menu (open, then close on the next click);
//! - `drag`: a server pressed and moved down its rack a unit per frame (its ghost follows), released at the end.
//!
//! First a table (printed once) per design and case: median layout and tessellation CPU, vertices, triangles,
//! the pixels the triangles cover (and that over the window's area), and the frames the event causes before the
//! app asks for no immediate repaint (frames 16.7 ms apart, as at 60 Hz; a click counts the press and release as one
//! event), with what asked for the last of them. Then criterion times a frame of each case:
//!
//! `cargo bench --bench frame_cost` (`-- click_rack/4su` for one; `FRAME_COST_TABLE=0` skips the table,
//! `FRAME_COST_TABLE_ONLY=1` skips criterion, `FRAME_COST_EGUI_DEFAULTS=1` puts egui's default animation time and tooltip wait back).
#![allow(clippy::expect_used, clippy::unwrap_used)] // a benchmark that cannot set up should stop loudly

use criterion::{BenchmarkId, Criterion};
use egui::epaint::{ClippedPrimitive, Primitive};
use egui::{Event, Modifiers, PointerButton, Pos2, RawInput, Rect, ViewportId, pos2, vec2};
use racksmith::app::RacksmithApp;
use racksmith::catalog::Catalog;
use racksmith::model::Design;
use std::time::{Duration, Instant};

const SIZE: egui::Vec2 = vec2(1600.0, 1000.0);
const DT: f64 = 1.0 / 60.0;
/// The File menu's button, as `benches/click_to_pixels.sh` clicks it.
const FILE_MENU: Pos2 = pos2(22.0, 12.0);

/// What one frame cost and asked for.
#[derive(Clone, Copy, Default)]
struct FrameStats {
    layout: Duration,
    tessellate: Duration,
    vertices: usize,
    triangles: usize,
    /// Pixels covered by the triangles (each triangle's area, less what its clip rectangle cuts, approximately).
    pixels: f64,
    /// Of those, the pixels inside the canvas's rectangle.
    canvas_pixels: f64,
    /// The app asked for another frame straight away.
    immediate: bool,
}

/// The app on a headless egui context, with the clock and the pointer it has been given.
struct Rig {
    ctx: egui::Context,
    app: RacksmithApp,
    time: f64,
    pointer: Pos2,
    events: Vec<Event>,
}

impl Rig {
    fn new(design: Design) -> Self {
        let mut rig = Self {
            ctx: egui::Context::default(),
            app: RacksmithApp::new_for_test(design),
            time: 0.0,
            pointer: pos2(800.0, 500.0),
            events: Vec::new(),
        };
        // Fonts, the theme and the first layout: settled once.
        rig.frame();
        // `FRAME_COST_EGUI_DEFAULTS=1`: egui's animations and tooltip wait back, for comparison.
        if std::env::var("FRAME_COST_EGUI_DEFAULTS").as_deref() == Ok("1") {
            let egui_default = egui::Style::default();
            rig.ctx.all_styles_mut(|s| {
                s.animation_time = egui_default.animation_time;
                s.interaction.show_tooltips_only_when_still =
                    egui_default.interaction.show_tooltips_only_when_still;
            });
        }
        for _ in 0..10 {
            rig.frame();
        }
        rig.settle();
        rig
    }

    fn frame(&mut self) -> FrameStats {
        self.time += DT;
        let raw = RawInput {
            screen_rect: Some(Rect::from_min_size(Pos2::ZERO, SIZE)),
            time: Some(self.time),
            predicted_dt: DT as f32,
            focused: true,
            events: std::mem::take(&mut self.events),
            ..Default::default()
        };
        let t = Instant::now();
        let app = &mut self.app;
        let mut out = self.ctx.run_ui(raw, |ui| app.show(ui));
        // No GPU to hand the font atlas to.
        out.textures_delta.clear();
        let layout = t.elapsed();
        let immediate = out
            .viewport_output
            .get(&ViewportId::ROOT)
            .is_some_and(|v| v.repaint_delay == Duration::ZERO);
        let t = Instant::now();
        let prims = self.ctx.tessellate(out.shapes, out.pixels_per_point);
        let tessellate = t.elapsed();
        let canvas = self.app.ui.canvas.canvas_rect.unwrap_or(Rect::NOTHING);
        let (vertices, triangles, pixels, canvas_pixels) = count(&prims, canvas);
        FrameStats {
            layout,
            tessellate,
            vertices,
            triangles,
            pixels,
            canvas_pixels,
            immediate,
        }
    }

    /// Frames until the app asks for none straight away (at most 200); returns how many ran and the repaint
    /// causes of the last one that asked.
    fn settle(&mut self) -> (usize, Vec<String>) {
        let mut causes = Vec::new();
        for n in 1..=200 {
            let s = self.frame();
            if !s.immediate {
                return (n, causes);
            }
            causes = self
                .ctx
                .repaint_causes()
                .iter()
                .map(|c| format!("{}:{} {}", c.file, c.line, c.reason))
                .collect();
        }
        (200, causes)
    }

    fn move_to(&mut self, p: Pos2) {
        self.pointer = p;
        self.events.push(Event::PointerMoved(p));
    }

    fn button(&mut self, pressed: bool) {
        self.events.push(Event::PointerButton {
            pos: self.pointer,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
    }
}

/// Vertices, triangles, the pixels they cover and those of them inside `canvas`.
fn count(prims: &[ClippedPrimitive], canvas: Rect) -> (usize, usize, f64, f64) {
    let (mut v, mut t, mut px, mut in_canvas) = (0, 0, 0.0f64, 0.0f64);
    for p in prims {
        let Primitive::Mesh(m) = &p.primitive else {
            continue;
        };
        v += m.vertices.len();
        t += m.indices.len() / 3;
        let clip = p.clip_rect;
        for tri in m.indices.chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|k| m.vertices[tri[k] as usize].pos);
            let area = 0.5 * ((b - a).x * (c - a).y - (c - a).x * (b - a).y).abs();
            if area == 0.0 {
                continue;
            }
            let bb = Rect::from_points(&[a, b, c]);
            let kept = bb.intersect(clip);
            if kept.is_negative() {
                continue;
            }
            let share = if bb.area() > 0.0 {
                (kept.area() / bb.area()).clamp(0.0, 1.0)
            } else {
                1.0
            };
            px += f64::from(area * share);
            let inside = kept.intersect(canvas);
            if !inside.is_negative() && kept.area() > 0.0 {
                in_canvas += f64::from(area * share * inside.area() / kept.area());
            }
        }
    }
    (v, t, px, in_canvas)
}

/// A point on an empty unit of the first rack in view (a click there selects the rack), and the tallest server in
/// view with its centre.
fn targets(app: &RacksmithApp) -> (Pos2, Pos2) {
    let canvas = app.ui.canvas.canvas_rect.expect("canvas laid out");
    let devices = app.device_screen_rects();
    let design = app.design();
    let empty = design.racks.iter().find_map(|(&r, rack)| {
        (1..=rack.height_u).rev().find_map(|u| {
            let p = app.unit_screen_pos(r, u)?;
            (canvas.shrink(4.0).contains(p) && !devices.values().any(|d| d.expand(2.0).contains(p)))
                .then_some((p, r))
        })
    });
    let (at, _) = empty.expect("an empty unit in view");
    let server = devices
        .values()
        .filter(|r| canvas.shrink(4.0).contains_rect(**r))
        .max_by(|a, b| a.height().total_cmp(&b.height()))
        .expect("a server in view");
    (at, server.center())
}

/// One step of a case: the events it sends (the frame that takes them is run by the caller).
fn step(rig: &mut Rig, case: &str, i: u32, at: (Pos2, Pos2)) {
    let canvas = rig.app.ui.canvas.canvas_rect.expect("canvas");
    match case {
        "idle" | "idle_no_pane" => {}
        "hover" => {
            let f = (i % 40) as f32 / 40.0;
            rig.move_to(canvas.lerp_inside(vec2(0.2 + 0.6 * f, 0.5)));
        }
        "click_rack" => {
            // Alternately the rack and the empty floor at the canvas's corner (selected, then not).
            let p = if i.is_multiple_of(2) {
                at.0
            } else {
                canvas.min + vec2(6.0, 6.0)
            };
            rig.move_to(p);
            rig.button(true);
            rig.button(false);
        }
        "menu" => {
            rig.move_to(FILE_MENU);
            rig.button(true);
            rig.button(false);
        }
        "drag" => {
            // Pressed on the server, moved down and up a few points a frame, never released here.
            let dy = ((i % 20) as f32 - 10.0).abs() * 4.0;
            rig.move_to(at.1 + vec2(0.0, dy));
        }
        _ => unreachable!("no case {case}"),
    }
}

const CASES: [&str; 6] = [
    "idle",
    "idle_no_pane",
    "hover",
    "click_rack",
    "menu",
    "drag",
];

/// Starts a case (the drag's press), so that `step` can repeat it.
fn begin(rig: &mut Rig, case: &str, server_at: Pos2) {
    rig.app.ui.windows.right_collapsed = case == "idle_no_pane";
    if case == "drag" {
        rig.move_to(server_at);
        rig.frame();
        rig.button(true);
        rig.frame();
        rig.move_to(server_at + vec2(0.0, 12.0));
        rig.frame();
    }
    rig.settle();
}

fn end(rig: &mut Rig, case: &str) {
    if case == "drag" {
        // Released where it was pressed: no move.
        rig.button(false);
        rig.frame();
        // Pressing Escape too, should a drop have happened.
    }
    if case == "menu" && rig.ctx.any_popup_open() {
        rig.move_to(FILE_MENU);
        rig.button(true);
        rig.button(false);
    }
    rig.settle();
}

fn sizes() -> Vec<usize> {
    std::env::var("FRAME_COST_SU")
        .ok()
        .map(|s| s.split(',').filter_map(|v| v.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![1, 4, 32, 128])
}

fn design(su: usize) -> Design {
    let catalog = Catalog::builtin().expect("catalog");
    racksmith::samples::superpod_h100(&catalog, su).expect("generate")
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn table() {
    let window = f64::from(SIZE.x * SIZE.y);
    println!(
        "| design | case | layout ms | tessellate ms | vertices | triangles | pixels filled (x window) | of which canvas | frames per event | last asked by |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for su in sizes() {
        let t = Instant::now();
        let mut rig = Rig::new(design(su));
        eprintln!("{su} SU set up in {:.1} s", t.elapsed().as_secs_f64());
        let (rack_at, server_at) = targets(&rig.app);
        let floor = rig.app.ui.canvas.canvas_rect.expect("canvas").min + vec2(6.0, 6.0);
        eprintln!(
            "{su} SU at 1600x1000 (for benches/click_to_pixels.sh): SELECT_AT={:.0},{:.0} FLOOR_AT={:.0},{:.0} \
             DRAG_FROM={:.0},{:.0}",
            rack_at.x, rack_at.y, floor.x, floor.y, server_at.x, server_at.y
        );
        for case in CASES {
            begin(&mut rig, case, server_at);
            let (mut layout, mut tess, mut frames) = (Vec::new(), Vec::new(), Vec::new());
            let mut first = FrameStats::default();
            let mut causes = Vec::new();
            for i in 0..8u32 {
                step(&mut rig, case, i, (rack_at, server_at));
                let s = rig.frame();
                layout.push(s.layout.as_secs_f64() * 1e3);
                tess.push(s.tessellate.as_secs_f64() * 1e3);
                if i == 0 {
                    first = s;
                }
                if case == "click_rack" && i == 0 {
                    rig.frame();
                    assert!(
                        !rig.app.ui.selection.racks.is_empty(),
                        "the click at {rack_at:?} selected no rack"
                    );
                }
                // The frames this event causes: this one, and those that follow straight away.
                let (n, c) = if s.immediate {
                    let (n, c) = rig.settle();
                    (n + 1, c)
                } else {
                    (1, Vec::new())
                };
                frames.push(n as f64);
                if !c.is_empty() {
                    causes = c;
                }
            }
            end(&mut rig, case);
            let mut causes: Vec<String> = causes
                .into_iter()
                .map(|c| c.rsplit("src/").next().unwrap_or(&c).to_owned())
                .collect();
            causes.dedup();
            println!(
                "| {su} SU | {case} | {:.2} | {:.2} | {} | {} | {:.0} ({:.2}) | {:.0} | {:.0} | {} |",
                median(layout),
                median(tess),
                first.vertices,
                first.triangles,
                first.pixels,
                first.pixels / window,
                first.canvas_pixels,
                median(frames),
                causes.join("; ")
            );
        }
    }
}

fn criterion_cases(c: &mut Criterion) {
    let mut group = c.benchmark_group("frame_cost_1600x1000");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(4))
        .warm_up_time(Duration::from_secs(1));
    for su in sizes() {
        let mut rig = Rig::new(design(su));
        let (rack_at, server_at) = targets(&rig.app);
        for case in CASES {
            begin(&mut rig, case, server_at);
            let mut i = 0u32;
            group.bench_function(BenchmarkId::new(case, format!("{su}su")), |b| {
                b.iter(|| {
                    i = i.wrapping_add(1);
                    step(&mut rig, case, i, (rack_at, server_at));
                    let s = rig.frame();
                    std::hint::black_box(s.triangles);
                })
            });
            end(&mut rig, case);
        }
    }
    group.finish();
}

fn main() {
    if std::env::var("FRAME_COST_TABLE").as_deref() != Ok("0") {
        table();
    }
    if std::env::var("FRAME_COST_TABLE_ONLY").as_deref() == Ok("1") {
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    criterion_cases(&mut c);
    c.final_summary();
}
