//! The rack canvas: racks as front elevations, devices at their rack units coloured by category, links between
//! devices, pan/zoom, selection, box select, moving devices and dropping parts and ports. One frame is three
//! steps, as rerun's views do: [`layout`] places everything in canvas space, [`input`] turns the pointer into
//! commands (and previews: ghosts, drop targets, the selection band), [`paint`] draws it all. Drags preview in UI
//! state and commit one edit when they end.

mod bundles;
pub mod floor;
#[cfg(not(target_arch = "wasm32"))]
pub mod gl_layer;
mod input;
mod layout;
mod paint;
mod rules;
pub(in crate::app) mod scene;
pub mod state;

use super::commands::AppCommand;
use super::state::{CanvasState, UiState};
use crate::analysis::Report;
use crate::catalog::Catalog;
use crate::model::{Design, DeviceId};
use egui::emath::TSTransform;
use egui::{Pos2, Rect, Sense};

use layout::Layout;
pub use layout::{device_screen_rect, device_screen_rects, unit_screen_pos};
pub use paint::MIN_LABEL_PT;
pub use rules::over_budget;

/// A design's layout and link bundles, computed once per layout revision.
type Cached = (std::sync::Arc<Layout>, std::sync::Arc<bundles::Bundles>);

/// What one frame of the canvas works with: where it is on screen, the view transform, the pointer and the
/// layout of the design.
struct Frame<'a> {
    design: &'a Design,
    layout: std::sync::Arc<Layout>,
    /// The links bundled per pair of racks (and of rows), drawn instead of the links when zoomed out.
    bundles: std::sync::Arc<bundles::Bundles>,
    /// The design's revision (the layout's) and the shown report's.
    revisions: (u64, u64),
    /// The canvas on screen.
    rect: Rect,
    /// The canvas's response (clicks, drags).
    resp: egui::Response,
    screen_from_canvas: TSTransform,
    canvas_from_screen: TSTransform,
    zoom: f32,
    /// The pointer, screen space.
    pointer: Option<Pos2>,
    /// The pointer, canvas space.
    pointer_in_canvas: Option<Pos2>,
    /// What is painted, canvas space: the part on screen and a margin of a quarter of the canvas around it (so
    /// the painted scene is reused while the view pans that far).
    cull: Rect,
}

impl<'a> Frame<'a> {
    fn new(
        ui: &egui::Ui,
        (design, revisions): (&'a Design, (u64, u64)),
        (layout, bundles): Cached,
        rect: Rect,
        resp: egui::Response,
        state: &UiState,
    ) -> Self {
        let screen_from_canvas = TSTransform::new(
            rect.min.to_vec2() + state.canvas.view.offset,
            state.canvas.view.zoom,
        );
        let canvas_from_screen = screen_from_canvas.inverse();
        let pointer = ui.input(|i| i.pointer.interact_pos());
        let margin = 0.25 * rect.size().max_elem() / state.canvas.view.zoom.max(1e-3);
        Self {
            design,
            layout,
            bundles,
            revisions,
            rect,
            resp,
            screen_from_canvas,
            canvas_from_screen,
            zoom: state.canvas.view.zoom,
            pointer,
            pointer_in_canvas: pointer.map(|p| canvas_from_screen * p),
            cull: (canvas_from_screen * rect).expand(margin),
        }
    }

    /// The part of the canvas on screen, canvas space.
    fn visible(&self) -> Rect {
        self.canvas_from_screen * self.rect
    }
}

/// The ghost of a drag: where it would land and whether it may.
struct Ghost {
    rect_in_canvas: Rect,
    verdict: Result<Option<String>, String>,
    label: String,
}

/// A device under a dragged port: its rect, the ports that could take the cable (or why none), its name.
struct PortTarget {
    rect_in_canvas: Rect,
    verdict: Result<Vec<String>, String>,
    name: String,
}

/// What the input step found for the paint step to show.
#[derive(Default)]
struct Overlays {
    ghost: Option<Ghost>,
    port_target: Option<PortTarget>,
    /// The rubber band of a box selection, screen space.
    band: Option<Rect>,
    /// The device under the pointer.
    hovered_device: Option<DeviceId>,
}

/// The layout of a design revision, kept between frames (laying out a 128-SU design takes milliseconds a frame
/// would otherwise spend again while nothing changed).
fn layout_of(ctx: &egui::Context, design: &Design, revision: u64) -> Cached {
    let id = egui::Id::unique("racksmith_canvas_layout");
    let cached: Option<(u64, Cached)> = ctx.data(|d| d.get_temp(id));
    match cached {
        Some((rev, cached)) if rev == revision => cached,
        _ => {
            let layout = Layout::new(design);
            let bundles = std::sync::Arc::new(bundles::Bundles::new(&layout, design));
            let cached = (std::sync::Arc::new(layout), bundles);
            ctx.data_mut(|d| d.insert_temp(id, (revision, cached.clone())));
            cached
        }
    }
}

/// Draws the canvas and handles its input. `report` comes with the revision it was computed for. `background`:
/// the colour the canvas paints under itself, when the caller painted nothing there (the canvas then fills the
/// caller's whole area, and on the desktop's OpenGL renderer keeps its scene as pixels, `gl_layer`).
pub fn canvas_ui(
    ui: &mut egui::Ui,
    (design, revision): (&Design, u64),
    catalog: &Catalog,
    (report, report_revision): (Option<&Report>, u64),
    (state, background): (&mut UiState, Option<egui::Color32>),
    cmds: &mut Vec<AppCommand>,
) {
    let (rect, resp) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
    let cached = layout_of(ui.ctx(), design, revision);
    input::view_input(ui, &resp, rect, &cached.0, design, state);
    let revisions = (revision, report_revision);
    let frame = Frame::new(ui, (design, revisions), cached, rect, resp, state);
    let overlays = input::input(ui, &frame, catalog, state, cmds);
    state.canvas.canvas_drawn = paint::paint(ui, &frame, (report, background), state, &overlays);
}

/// The canvas's link bundles at the current zoom (per pair of racks, or of rows when far out): each one's hover
/// text ("312 links, rack C001 ↔ N001"), link count and the middle of its curve on screen (tests hover a bundle
/// with it).
pub fn bundle_midpoints(
    ctx: &egui::Context,
    (design, revision): (&Design, u64),
    canvas: &CanvasState,
) -> Vec<(String, usize, Pos2)> {
    let (_, bundles) = layout_of(ctx, design, revision);
    let Some(rect) = canvas.canvas_rect else {
        return Vec::new();
    };
    let t = TSTransform::new(rect.min.to_vec2() + canvas.view.offset, canvas.view.zoom);
    bundles
        .at(bundles::Level::at(canvas.view.zoom))
        .iter()
        .map(|b| (bundles::bundle_label(design, b), b.count, t * b.midpoint()))
        .collect()
}
