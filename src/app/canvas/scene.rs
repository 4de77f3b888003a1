//! The canvas's scene: everything it draws that stays put while only the pointer, the hover or a menu changes
//! (sites, racks, bundles, devices, links, note badges), painted once per design and report revision, view,
//! canvas rect, theme, selection and display option, and handed to the painter again on the frames that follow.
//! A frame that changes nothing on the canvas (a menu opened over it, the pointer moving along a device) costs
//! the copy of a list of shapes instead of laying out every rack and device again. The hovered device is drawn
//! again in its own place in the list, so the reused scene looks exactly like a fresh one.

use super::Frame;
use super::bundles;
use crate::app::state::{CanvasDrawn, RackFace, Selection, UiState};
use crate::model::DeviceId;
use egui::epaint::{ClippedShape, Primitive, TessellationOptions};
use egui::{Color32, Rect, Vec2};
use rustc_hash::FxHashMap as HashMap;
use std::ops::Range;
use std::sync::{Arc, Mutex, OnceLock};

/// A note badge drawn: its rect on screen, whose note it is ("rack R01", a device's name) and the note.
pub(super) type Badge = (Rect, String, String);

/// What painting the scene found besides its shapes.
pub(super) struct Parts {
    /// What the frame drew (links one by one, bundles).
    pub drawn: CanvasDrawn,
    /// The bundles drawn, for the pointer to be tested against.
    pub bundles: bundles::Drawn,
    /// Where each device's shapes are in the scene's list.
    pub devices: HashMap<DeviceId, Range<usize>>,
    /// The note badges drawn.
    pub badges: Vec<Badge>,
}

/// What the scene depends on: the same key, the same shapes.
#[derive(Clone, PartialEq)]
struct Key {
    /// The design's and the report's revisions, and whether there is a report.
    revisions: (u64, u64, bool),
    /// The canvas on screen and the painter's clip.
    rect: (Rect, Rect),
    zoom: f32,
    /// Dark mode and the visuals' colours the canvas paints with (faint and extreme backgrounds, text, weak text).
    visuals: (bool, [Color32; 4]),
    pixels_per_point: f32,
    selection: Selection,
    /// The rack face, the traffic pattern colouring the links, whether links are hidden.
    canvas: (RackFace, usize, bool),
}

impl Key {
    /// Whether `other` is this key but for the selection.
    #[cfg(not(target_arch = "wasm32"))]
    fn same_but_selection(&self, other: &Self) -> bool {
        let this = Self {
            selection: other.selection.clone(),
            ..self.clone()
        };
        this == *other
    }

    fn new(
        ui: &egui::Ui,
        painter: &egui::Painter,
        f: &Frame<'_>,
        state: &UiState,
        report: bool,
    ) -> Self {
        let v = ui.visuals();
        Self {
            revisions: (f.revisions.0, f.revisions.1, report),
            rect: (f.rect, painter.clip_rect()),
            zoom: f.zoom,
            visuals: (
                v.dark_mode,
                [
                    v.faint_bg_color,
                    v.extreme_bg_color,
                    v.text_color(),
                    v.weak_text_color(),
                ],
            ),
            pixels_per_point: ui.ctx().pixels_per_point(),
            selection: state.selection.clone(),
            canvas: (
                state.canvas.rack_face,
                state.canvas.load_pattern.index(),
                state.canvas.hide_links,
            ),
        }
    }
}

/// A painted scene.
pub(super) struct Scene {
    key: Key,
    /// The view's translation it was painted at, screen space.
    at: Vec2,
    /// The part of the canvas it covers, canvas space: reused while the part on screen stays in it.
    cull: Rect,
    /// Its shapes, the canvas's own clipped to [`Rect::EVERYTHING`] (the canvas's clip is set when replayed).
    shapes: Vec<ClippedShape>,
    /// How full the font atlas was when the scene's text was laid out: a lower figure later means egui cleared
    /// the atlas, and the scene's glyphs point into the old one.
    atlas_fill: f32,
    /// What painting it found.
    pub parts: Parts,
    /// The pass it was painted in: the frame that paints it hands egui its shapes (egui tessellates them once
    /// either way), the frames that reuse it its triangles.
    pass: u64,
    /// Its shapes tessellated for the painter's clip where they were painted, with the font atlas's size and the
    /// tessellation options then: made the first time it is replayed unmoved with no device hovered, and handed
    /// to the painter on such frames instead of the shapes (egui then only copies the triangles).
    meshes: OnceLock<Meshes>,
    /// The same, before and after the hovered device (drawn again between them), for the last device hovered.
    around: Mutex<Option<Around>>,
    /// Its number, for the OpenGL layer to know whether it holds this scene's pixels.
    #[cfg(not(target_arch = "wasm32"))]
    number: u64,
    /// All of it tessellated for the OpenGL layer (texts too), with the atlas's size and options then.
    #[cfg(not(target_arch = "wasm32"))]
    primitives: OnceLock<Pixels>,
    /// The same, panned: how far, and its triangles there.
    #[cfg(not(target_arch = "wasm32"))]
    panned: Mutex<Option<(Vec2, Pixels)>>,
    /// The scene it differs from only by the selection (its number), and where on screen they differ.
    #[cfg(not(target_arch = "wasm32"))]
    changed_from: Option<(u64, Arc<Vec<Rect>>)>,
}

/// A whole scene tessellated for the OpenGL layer, with the font atlas's size and the tessellation options then.
#[cfg(not(target_arch = "wasm32"))]
type Pixels = (
    ([usize; 2], TessellationOptions),
    Arc<Vec<egui::epaint::ClippedPrimitive>>,
);

/// A scene's triangles, with the font atlas's size and the tessellation options they were made with.
type Meshes = ([usize; 2], TessellationOptions, Triangles);

/// The triangles before and after a hovered device, with the atlas's size and options they were made with.
type Around = (
    DeviceId,
    ([usize; 2], TessellationOptions),
    Triangles,
    Triangles,
);

/// The scene of this frame: the last one when nothing it depends on changed and the view did not pan out of
/// it, else painted by `paint` (on a scratch layer without a clip, whose shapes are taken into the scene).
pub(super) fn of(
    ui: &egui::Ui,
    painter: &egui::Painter,
    f: &Frame<'_>,
    (state, report): (&UiState, bool),
    paint: impl FnOnce(&egui::Painter) -> Parts,
) -> Arc<Scene> {
    let ctx = ui.ctx();
    let key = Key::new(ui, painter, f, state, report);
    let id = egui::Id::unique("racksmith_canvas_scene");
    let fill = ctx.fonts(|fonts| fonts.font_atlas_fill_ratio());
    let last = ctx.data(|d| d.get_temp::<Arc<Scene>>(id));
    if let Some(scene) = &last
        && scene.key == key
        && fill >= scene.atlas_fill
        && scene.cull.contains_rect(f.visible())
    {
        return scene.clone();
    }
    let scratch = egui::LayerId::new(painter.layer_id().order, id);
    ctx.graphics_mut(|g| std::mem::take(g.entry(scratch)));
    let mut scratch_painter = painter.clone().with_layer_id(scratch);
    scratch_painter.set_clip_rect(Rect::EVERYTHING);
    let parts = paint(&scratch_painter);
    let list = ctx.graphics_mut(|g| std::mem::take(g.entry(scratch)));
    let shapes: Vec<ClippedShape> = list.all_entries().cloned().collect();
    let at = f.screen_from_canvas.translation;
    // A new selection in the same place: where the scene changed, for the OpenGL layer to draw only there.
    #[cfg(not(target_arch = "wasm32"))]
    let changed_from = last
        .filter(|l| l.at == at && l.cull == f.cull && l.key.same_but_selection(&key))
        .filter(|_| super::gl_layer::GlLayer::of(ctx).is_some())
        .and_then(|l| Some((l.number, Arc::new(changed(&l.shapes, &shapes, f.rect)?))));
    let scene = Arc::new(Scene {
        key,
        at,
        cull: f.cull,
        shapes,
        atlas_fill: ctx.fonts(|fonts| fonts.font_atlas_fill_ratio()),
        parts,
        pass: ctx.cumulative_pass_nr(),
        meshes: OnceLock::new(),
        around: Mutex::new(None),
        #[cfg(not(target_arch = "wasm32"))]
        number: super::gl_layer::next_scene(),
        #[cfg(not(target_arch = "wasm32"))]
        primitives: OnceLock::new(),
        #[cfg(not(target_arch = "wasm32"))]
        panned: Mutex::new(None),
        #[cfg(not(target_arch = "wasm32"))]
        changed_from,
    });
    ctx.data_mut(|d| d.insert_temp(id, scene.clone()));
    scene
}

impl Scene {
    /// How far the view panned since the scene was painted, screen space.
    pub(super) fn moved(&self, f: &Frame<'_>) -> Vec2 {
        f.screen_from_canvas.translation - self.at
    }

    /// Hands the scene's shapes to `painter`, moved as far as the view panned and clipped to the painter's clip,
    /// with the `hovered` device drawn by `again` in its own place (so what lies over it, links and run labels,
    /// stays over it).
    pub(super) fn replay(
        &self,
        painter: &egui::Painter,
        moved: Vec2,
        hovered: Option<DeviceId>,
        again: impl FnOnce(&egui::Painter, DeviceId),
    ) {
        let clip = painter.clip_rect();
        let add = |shapes: &[ClippedShape]| {
            painter.ctx().graphics_mut(|g| {
                let list = g.entry(painter.layer_id());
                for s in shapes {
                    let mut shape = s.shape.clone();
                    if moved != Vec2::ZERO {
                        shape.translate(moved);
                    }
                    list.add(s.clip_rect.translate(moved).intersect(clip), shape);
                }
            });
        };
        let splice = hovered.and_then(|id| Some((id, self.parts.devices.get(&id)?.clone())));
        if moved == Vec2::ZERO
            && let Some((before, after)) = self.triangles(painter, splice.as_ref())
        {
            let add = |list: &[(Rect, egui::Shape)]| {
                painter.ctx().graphics_mut(|g| {
                    let paint_list = g.entry(painter.layer_id());
                    for (clip, shape) in list {
                        paint_list.add(*clip, shape.clone());
                    }
                });
            };
            add(&before);
            if let Some((id, _)) = splice {
                again(painter, id);
            }
            add(&after);
            return;
        }
        match splice {
            Some((id, at)) => {
                add(self.shapes.get(..at.start).unwrap_or_default());
                again(painter, id);
                add(self.shapes.get(at.end..).unwrap_or_default());
            }
            None => add(&self.shapes),
        }
    }

    /// Hands the scene to `painter` as the OpenGL layer's copy of its pixels (drawn once per scene and place),
    /// over `background`, moved as far as the view panned: when the window has the layer and no device is hovered
    /// (drawn again in the middle of the scene). False when it did not (the caller replays the scene's shapes).
    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn as_pixels(
        &self,
        painter: &egui::Painter,
        moved: Vec2,
        (hovered, again): (Option<DeviceId>, &Again<'_>),
        background: Color32,
    ) -> bool {
        use super::gl_layer::{GlLayer, Job};
        let ctx = painter.ctx();
        let hovered = hovered.and_then(|id| Some((id, self.parts.devices.get(&id)?.clone())));
        let Some(layer) = GlLayer::of(ctx) else {
            return false;
        };
        if hovered.is_some() && moved != Vec2::ZERO {
            return false;
        }
        let now = (
            ctx.fonts(|fonts| fonts.font_image_size()),
            ctx.tessellation_options(|o| *o),
        );
        let clip = painter.clip_rect();
        let scene = (
            self.number,
            [moved.x.to_bits(), moved.y.to_bits()],
            hovered.as_ref().map(|(id, _)| *id),
        );
        let job = if layer.holds(scene) {
            Job::Held
        } else if let Some((id, at)) = &hovered {
            // The hovered device drawn again, emphasised, in its place in the list.
            let again = hovered_shapes(painter, *id, again);
            let list: Vec<&ClippedShape> = self
                .shapes
                .get(..at.start)
                .unwrap_or_default()
                .iter()
                .chain(&again)
                .chain(self.shapes.get(at.end..).unwrap_or_default())
                .collect();
            // Where the layer holds this scene with another device hovered (or none), only the two devices' places.
            match layer.held().filter(|h| h.0 == self.number && h.1 == [0, 0]) {
                Some(from) => {
                    // The device's place, drawn plain or emphasised, and the last hovered one's.
                    let here = again.iter().map(drawn).chain(self.device_box(*id));
                    let mut places: Vec<Rect> = here.reduce(Rect::union).into_iter().collect();
                    places.extend(from.2.and_then(|h| self.device_box(h)));
                    Job::Places {
                        from,
                        places: places_of(ctx, clip, &list, &places),
                    }
                }
                None => Job::Whole(Arc::new(tessellate_list(ctx, clip, &list))),
            }
        } else if let Some(from) = layer
            .held()
            .filter(|h| h.0 == self.number && h.1 == [0, 0] && moved == Vec2::ZERO)
        {
            // The hover left the device: its place drawn again plain.
            let places: Vec<Rect> = from
                .2
                .and_then(|h| self.device_box(h))
                .into_iter()
                .collect();
            let list: Vec<&ClippedShape> = self.shapes.iter().collect();
            Job::Places {
                from,
                places: places_of(ctx, clip, &list, &places),
            }
        } else if let Some((from, places)) = &self.changed_from
            && moved == Vec2::ZERO
            && layer.holds((*from, [0, 0], None))
        {
            let list: Vec<&ClippedShape> = self.shapes.iter().collect();
            Job::Places {
                from: (*from, [0, 0], None),
                places: places_of(ctx, clip, &list, places),
            }
        } else {
            match self.tessellated(ctx, clip, moved, now) {
                Some(primitives) => Job::Whole(primitives),
                None => return false,
            }
        };
        painter.add(layer.callback((clip, background), scene, job, ctx.clone()));
        true
    }

    /// Where device `id` is drawn in the scene (its shapes' boxes), grown by two points for anti-aliasing.
    #[cfg(not(target_arch = "wasm32"))]
    fn device_box(&self, id: DeviceId) -> Option<Rect> {
        let at = self.parts.devices.get(&id)?;
        self.shapes
            .get(at.clone())?
            .iter()
            .map(drawn)
            .reduce(Rect::union)
    }

    /// The whole scene tessellated for the OpenGL layer, moved as far as the view panned: made once unmoved, once
    /// per place it was panned to. None when the font atlas or the tessellation options changed since.
    #[cfg(not(target_arch = "wasm32"))]
    fn tessellated(
        &self,
        ctx: &egui::Context,
        clip: Rect,
        moved: Vec2,
        now: ([usize; 2], TessellationOptions),
    ) -> Option<Arc<Vec<egui::epaint::ClippedPrimitive>>> {
        if moved == Vec2::ZERO {
            let (made, primitives) = self.primitives.get_or_init(|| {
                let all: Vec<&ClippedShape> = self.shapes.iter().collect();
                (now, Arc::new(tessellate_list(ctx, clip, &all)))
            });
            return (*made == now).then(|| primitives.clone());
        }
        // Each frame of a pan draws the layer again, as it would draw the shapes; the frames after it only copy.
        let mut panned = self.panned.lock().ok()?;
        if !matches!(&*panned, Some((at, (made, _))) if *at == moved && *made == now) {
            let shapes: Vec<ClippedShape> = self
                .shapes
                .iter()
                .map(|s| {
                    let mut shape = s.shape.clone();
                    shape.translate(moved);
                    ClippedShape::new(s.clip_rect.translate(moved), shape)
                })
                .collect();
            let moved_shapes: Vec<&ClippedShape> = shapes.iter().collect();
            let primitives = tessellate_list(ctx, clip, &moved_shapes);
            *panned = Some((moved, (now, Arc::new(primitives))));
        }
        panned
            .as_ref()
            .map(|(_, (_, primitives))| primitives.clone())
    }

    /// The scene's triangles, made the first time they are asked for: all of them, or with a hovered device
    /// (`splice`: it and where its shapes are) those before and after it. None in the pass that painted the scene
    /// (egui tessellates its shapes once, as before) and when the font atlas or the tessellation options changed.
    fn triangles(
        &self,
        painter: &egui::Painter,
        splice: Option<&(DeviceId, Range<usize>)>,
    ) -> Option<(Triangles, Triangles)> {
        let ctx = painter.ctx();
        if ctx.cumulative_pass_nr() == self.pass {
            return None;
        }
        let now = (
            ctx.fonts(|fonts| fonts.font_image_size()),
            ctx.tessellation_options(|o| *o),
        );
        let clip = painter.clip_rect();
        let Some((id, at)) = splice else {
            let (atlas, options, all) = self
                .meshes
                .get_or_init(|| (now.0, now.1, tessellated(ctx, clip, &self.shapes)));
            return ((*atlas, *options) == now).then(|| (all.clone(), Triangles::default()));
        };
        let mut around = self.around.lock().ok()?;
        let fresh = !matches!(&*around, Some((h, made, ..)) if h == id && *made == now);
        if fresh {
            let before = tessellated(ctx, clip, self.shapes.get(..at.start).unwrap_or_default());
            let after = tessellated(ctx, clip, self.shapes.get(at.end..).unwrap_or_default());
            *around = Some((*id, now, before, after));
        }
        around.as_ref().map(|(.., b, a)| (b.clone(), a.clone()))
    }
}

/// Triangles handed to the painter: each mesh (or text, kept as it is) with its clip.
type Triangles = Arc<Vec<(Rect, egui::Shape)>>;

/// `shapes` tessellated for `clip`: texts stay texts, in their place (tests and accessibility read them; egui lays
/// their glyphs out cheaply), the runs of other shapes between them become meshes.
fn tessellated(ctx: &egui::Context, clip: Rect, shapes: &[ClippedShape]) -> Triangles {
    let mut out: Vec<(Rect, egui::Shape)> = Vec::new();
    let mut batch: Vec<ClippedShape> = Vec::new();
    let tessellate = |batch: &mut Vec<ClippedShape>, out: &mut Vec<(Rect, egui::Shape)>| {
        let primitives = ctx.tessellate(std::mem::take(batch), ctx.pixels_per_point());
        out.extend(primitives.into_iter().filter_map(|p| match p.primitive {
            Primitive::Mesh(m) => Some((p.clip_rect, egui::Shape::Mesh(Arc::new(m)))),
            Primitive::Callback(_) => None,
        }));
    };
    for s in shapes {
        let clip_rect = s.clip_rect.intersect(clip);
        if matches!(s.shape, egui::Shape::Text(_)) {
            tessellate(&mut batch, &mut out);
            out.push((clip_rect, s.shape.clone()));
        } else {
            batch.push(ClippedShape::new(clip_rect, s.shape.clone()));
        }
    }
    tessellate(&mut batch, &mut out);
    Arc::new(out)
}

/// What draws a device again, emphasised (hovered), with a painter.
#[cfg(not(target_arch = "wasm32"))]
pub(super) type Again<'a> = dyn Fn(&egui::Painter, DeviceId) + 'a;

/// A shape's box on screen, within its clip, grown by two points for anti-aliasing.
#[cfg(not(target_arch = "wasm32"))]
fn drawn(s: &ClippedShape) -> Rect {
    s.shape
        .visual_bounding_rect()
        .intersect(s.clip_rect)
        .expand(2.0)
}

/// The shapes `again` paints for device `id` (emphasised, hovered), on a scratch layer without a clip.
#[cfg(not(target_arch = "wasm32"))]
fn hovered_shapes(painter: &egui::Painter, id: DeviceId, again: &Again<'_>) -> Vec<ClippedShape> {
    let ctx = painter.ctx();
    let layer = egui::LayerId::new(
        painter.layer_id().order,
        egui::Id::unique("racksmith_canvas_hovered"),
    );
    ctx.graphics_mut(|g| std::mem::take(g.entry(layer)));
    let mut scratch = painter.clone().with_layer_id(layer);
    scratch.set_clip_rect(Rect::EVERYTHING);
    again(&scratch, id);
    let list = ctx.graphics_mut(|g| std::mem::take(g.entry(layer)));
    list.all_entries().cloned().collect()
}

/// Each of `places` with the shapes of `list` that reach it (a point more for anti-aliasing), clipped to it and
/// tessellated.
#[cfg(not(target_arch = "wasm32"))]
fn places_of(
    ctx: &egui::Context,
    clip: Rect,
    list: &[&ClippedShape],
    places: &[Rect],
) -> Vec<(Rect, Vec<egui::epaint::ClippedPrimitive>)> {
    places
        .iter()
        .map(|place| {
            let clip = clip.intersect(*place);
            let reach: Vec<&ClippedShape> = list
                .iter()
                .copied()
                .filter(|s| {
                    let c = s.clip_rect.intersect(clip);
                    c.is_positive() && s.shape.visual_bounding_rect().expand(1.0).intersects(c)
                })
                .collect();
            (*place, tessellate_list(ctx, clip, &reach))
        })
        .collect()
}

/// `list` clipped to `clip` and tessellated.
#[cfg(not(target_arch = "wasm32"))]
fn tessellate_list(
    ctx: &egui::Context,
    clip: Rect,
    list: &[&ClippedShape],
) -> Vec<egui::epaint::ClippedPrimitive> {
    let shapes = list
        .iter()
        .map(|s| ClippedShape::new(s.clip_rect.intersect(clip), s.shape.clone()))
        .collect();
    ctx.tessellate(shapes, ctx.pixels_per_point())
}

/// Where on screen two scenes' shapes differ (`old` and `new`, painted in the same place): the boxes of the shapes
/// that differ, shape by shape in their order, and of those one has past the other's end, each grown by two points
/// for anti-aliasing and merged with a box it touches. None when they differ over more than half of `canvas` or in
/// more than 32 places (a new selection's links drawn over everything, a second rack): the whole scene is drawn.
#[cfg(not(target_arch = "wasm32"))]
fn changed(old: &[ClippedShape], new: &[ClippedShape], canvas: Rect) -> Option<Vec<Rect>> {
    const MOST: usize = 32;
    let mut boxes: Vec<Rect> = Vec::new();
    let mut add = |s: &ClippedShape| {
        let b = drawn(s).intersect(canvas);
        if !b.is_positive() {
            return;
        }
        match boxes.iter_mut().find(|r| r.intersects(b)) {
            Some(r) => *r = r.union(b),
            None => boxes.push(b),
        }
    };
    let common = old.len().min(new.len());
    for (a, b) in old.iter().zip(new).take(common) {
        if a != b {
            add(a);
            add(b);
        }
    }
    for s in old.get(common..).unwrap_or_default() {
        add(s);
    }
    for s in new.get(common..).unwrap_or_default() {
        add(s);
    }
    let area: f32 = boxes.iter().map(Rect::area).sum();
    (boxes.len() <= MOST && area <= 0.5 * canvas.area()).then_some(boxes)
}

/// What a view painted once keeps: its key, the font atlas's fill then, its shapes and what painting returned.
type Kept<K, T> = Arc<(K, f32, Vec<ClippedShape>, T)>;

/// Shapes painted once by `paint` and handed to `painter` again while `key` stays the same (the fabric view's
/// nodes and cables), with what `paint` returned. `id` names the view.
pub(in crate::app) fn reuse<K, T>(
    painter: &egui::Painter,
    id: egui::Id,
    key: K,
    paint: impl FnOnce(&egui::Painter) -> T,
) -> T
where
    K: PartialEq + Clone + Send + Sync + 'static,
    T: Clone + Send + Sync + 'static,
{
    let ctx = painter.ctx();
    let fill = ctx.fonts(|fonts| fonts.font_atlas_fill_ratio());
    let kept = match ctx.data(|d| d.get_temp::<Kept<K, T>>(id)) {
        Some(kept) if kept.0 == key && fill >= kept.1 => kept,
        _ => {
            let scratch = egui::LayerId::new(painter.layer_id().order, id);
            ctx.graphics_mut(|g| std::mem::take(g.entry(scratch)));
            let out = paint(&painter.clone().with_layer_id(scratch));
            let list = ctx.graphics_mut(|g| std::mem::take(g.entry(scratch)));
            let fill = ctx.fonts(|fonts| fonts.font_atlas_fill_ratio());
            let kept: Kept<K, T> =
                Arc::new((key, fill, list.all_entries().cloned().collect(), out));
            ctx.data_mut(|d| d.insert_temp(id, kept.clone()));
            kept
        }
    };
    ctx.graphics_mut(|g| {
        let list = g.entry(painter.layer_id());
        for s in &kept.2 {
            list.add(s.clip_rect, s.shape.clone());
        }
    });
    kept.3.clone()
}
