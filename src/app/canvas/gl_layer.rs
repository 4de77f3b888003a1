//! The canvas's scene kept as pixels, on the desktop's OpenGL renderer (glow): the scene's triangles are drawn once
//! into a framebuffer of the window's size, in the canvas's part of it, and every frame after copies those pixels
//! to the window (`glBlitFramebuffer`) instead of drawing the triangles again. A new selection or a hovered device
//! is drawn again only in the places that changed.
//!
//! Why: under software rendering (Mesa's llvmpipe in a VM, over a remote desktop, under Xvfb) a frame costs what
//! its triangles cover, and egui gives every input event three frames. The canvas of a 4-SU design covers its
//! 0.8 million pixels about twice (the background, rack bodies, devices, links); a menu opened over it, a click
//! that selects nothing new or the frames that follow a click drew all of it again. A copy of pixels costs a
//! fraction of that (docs/analysis.md, "The canvas kept as pixels (OpenGL)").
//!
//! The framebuffer is cleared to the canvas's background and the scene is drawn with egui's own painter (a second
//! `egui_glow::Painter`: the same shader, blending and textures), at the window's size, so every vertex lands where
//! it would on the window. Mesa rounds the blending into an offscreen buffer a little differently from the
//! window's (anti-aliased edges differ by a level or two of 255). `RACKSMITH_CANVAS_TEXTURE=0` turns the layer off,
//! for comparison; `tests/gl_layer.rs` compares the two screenshots.
//!
//! The only unsafe code of the program is here: OpenGL's calls are foreign functions (`glow::HasContext` marks
//! them unsafe). Each call is made on eframe's GL context, current while a paint callback runs, on objects this
//! module made and owns.
#![allow(unsafe_code)]

use eframe::egui_glow::{CallbackFn, Painter};
use eframe::glow::{self, HasContext};
use egui::epaint::{ClippedPrimitive, Primitive};
use egui::{Color32, PaintCallbackInfo, Rect, TextureId};
use rustc_hash::FxHashMap as HashMap;
use std::sync::{Arc, Mutex};

/// A scene as the layer knows it: its number ([`next_scene`]), how far it was moved (a vector's bits, points) and
/// the device drawn hovered in it.
pub(super) type SceneId = (u64, [u32; 2], Option<crate::model::DeviceId>);

/// What the layer holds, to be drawn again only when this changes.
#[derive(Clone, Copy, PartialEq)]
struct Held {
    scene: SceneId,
    /// The window's size in pixels, the canvas's part of it (left, bottom, width, height: GL's origin) and the
    /// pixels per point (its bits).
    screen_px: [u32; 2],
    canvas_px: [i32; 4],
    pixels_per_point: u32,
    background: Color32,
}

/// What a frame asks the layer to draw before it copies the scene to the window.
pub(super) enum Job {
    /// Nothing: the layer holds the scene (it said so when the frame was laid out).
    Held,
    /// The whole scene, tessellated.
    Whole(Arc<Vec<ClippedPrimitive>>),
    /// Only some places (points, each with what the scene draws there), the layer holding the scene `from`, the
    /// same but there.
    Places {
        from: SceneId,
        places: Vec<(Rect, Vec<ClippedPrimitive>)>,
    },
}

/// The framebuffer and its colour texture.
struct Target {
    fbo: glow::Framebuffer,
    colour: glow::Texture,
    size_px: [u32; 2],
}

#[derive(Default)]
struct Inner {
    /// A painter of its own (egui's painter is lent to a callback immutably), made on the first use.
    painter: Option<Painter>,
    target: Option<Target>,
    /// eframe's textures this layer's painter knows (under eframe's ids).
    textures: HashMap<TextureId, glow::Texture>,
    held: Option<Held>,
    /// Set when the GL objects could not be made: the canvas draws its triangles instead from then on.
    failed: bool,
    /// Set once the painter is made and has drawn (its shaders compiled, llvmpipe's variants built): until then
    /// the canvas draws its triangles ([`GlLayer::warm_up`]).
    warm: bool,
    counts: Counts,
}

/// How often the layer drew the scene and how often it copied it to the window.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Scenes drawn whole into the framebuffer.
    pub drawn: u64,
    /// Copies to the window.
    pub copied: u64,
    /// Scenes drawn only where they changed from the one held (a new selection).
    pub partly: u64,
}

/// The canvas's layer of pixels. One per window, shared with the paint callbacks of its frames.
pub struct GlLayer {
    inner: Mutex<Inner>,
    /// Whether the shader dithers (as eframe's painter was made: the same pixels).
    dithering: bool,
}

/// A scene's number: each painted scene gets the next one, so the layer knows when it holds an old one.
pub(super) fn next_scene() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// The id under which the app hands the layer to the canvas (`egui::Context::data`).
fn id() -> egui::Id {
    egui::Id::unique("racksmith_canvas_gl_layer")
}

impl GlLayer {
    /// A layer for the window eframe opened with glow, unless `RACKSMITH_CANVAS_TEXTURE=0`.
    pub fn new(dithering: bool) -> Option<Arc<Self>> {
        if std::env::var("RACKSMITH_CANVAS_TEXTURE").as_deref() == Ok("0") {
            return None;
        }
        Some(Arc::new(Self {
            inner: Mutex::new(Inner::default()),
            dithering,
        }))
    }

    /// Whether the layer is ready for the canvas: made and warmed up ([`GlLayer::warm_up`]), or failed (then the
    /// canvas is never handed it and draws its triangles).
    pub fn ready(&self) -> bool {
        self.inner.lock().map_or(true, |i| i.warm || i.failed)
    }

    /// A paint callback that makes the layer's painter (the first time) or draws one pixel with it into its
    /// framebuffer (the second), then asks for another frame; the layer is [`GlLayer::ready`] after the pixel.
    /// Making a painter compiles its shaders, and its first draw has Mesa's llvmpipe build its code for them (tens of
    /// milliseconds without Mesa's disk cache). Done on the window's third and fourth frames, with the canvas
    /// drawing its triangles meanwhile, it lands neither on the first (eframe's shaders) nor on the second (a large
    /// design's racks first drawn) (docs/analysis.md, "The canvas kept as pixels (OpenGL)").
    pub fn warm_up(self: &Arc<Self>, ctx: egui::Context) -> egui::Shape {
        let layer = self.clone();
        let pixel = warm_up_pixel();
        egui::Shape::Callback(egui::PaintCallback {
            rect: pixel,
            callback: Arc::new(CallbackFn::new(move |info, painter| {
                layer.warm(&info, painter);
                ctx.request_repaint();
            })),
        })
    }

    /// See [`GlLayer::warm_up`].
    fn warm(&self, info: &PaintCallbackInfo, egui_painter: &Painter) {
        let Ok(mut inner) = self.inner.lock() else {
            return;
        };
        if inner.warm || inner.failed {
            return;
        }
        let gl = egui_painter.gl().clone();
        // The painter is made on one frame and draws its first pixel on the next: each is a part of the cost.
        if inner.painter.is_none() {
            match Painter::new(gl.clone(), "", None, self.dithering) {
                Ok(p) => inner.painter = Some(p),
                Err(e) => {
                    eprintln!("the canvas's OpenGL layer is off: {e}");
                    inner.failed = true;
                }
            }
            return;
        }
        let pixel = warm_up_pixel();
        let mut mesh = egui::Mesh::default();
        mesh.add_rect_with_uv(pixel, Rect::ZERO, Color32::TRANSPARENT);
        let primitives = [ClippedPrimitive {
            clip_rect: pixel,
            primitive: Primitive::Mesh(mesh),
        }];
        let how = Draw {
            dithering: self.dithering,
            pixels_per_point: info.pixels_per_point,
            canvas: pixel,
        };
        let held = Held {
            scene: SceneId::default(),
            screen_px: info.screen_size_px,
            canvas_px: [0, 0, 1, 1],
            pixels_per_point: info.pixels_per_point.to_bits(),
            background: Color32::TRANSPARENT,
        };
        match inner.draw(&gl, egui_painter, &how, held, &[(pixel, &primitives[..])]) {
            Ok(()) => inner.warm = true,
            Err(e) => {
                eprintln!("the canvas's OpenGL layer is off: {e}");
                inner.failed = true;
            }
        }
        // The pixel drawn is no scene's.
        inner.held = None;
        // SAFETY: eframe's context is current during a paint callback; its painter draws into its own framebuffer.
        unsafe {
            gl.bind_framebuffer(glow::FRAMEBUFFER, egui_painter.intermediate_fbo());
        }
    }

    /// Hands the layer to this frame's canvas (through `ctx`'s data, which a reset of egui's memory empties).
    pub fn share(self: &Arc<Self>, ctx: &egui::Context) {
        ctx.data_mut(|d| d.insert_temp(id(), self.clone()));
    }

    /// The window's layer, if it has one that works.
    pub(in crate::app) fn of(ctx: &egui::Context) -> Option<Arc<Self>> {
        let layer = ctx.data(|d| d.get_temp::<Arc<Self>>(id()))?;
        let failed = layer.inner.lock().map_or(true, |i| i.failed);
        (!failed).then_some(layer)
    }

    /// How often the layer drew and copied.
    pub fn counts(&self) -> Counts {
        self.inner.lock().map(|i| i.counts).unwrap_or_default()
    }

    /// Whether the layer holds `scene` (as last drawn, whatever the window).
    pub(super) fn holds(&self, scene: SceneId) -> bool {
        self.held() == Some(scene)
    }

    /// The scene the layer holds (as last drawn, whatever the window).
    pub(super) fn held(&self) -> Option<SceneId> {
        self.inner.lock().ok()?.held.map(|h| h.scene)
    }

    /// A paint callback over `clip` (the canvas's part of the window) that does `job` for `scene` and copies it,
    /// with `background` under it. `ctx` is asked for another frame when the layer cannot do the job (it no longer
    /// holds what the job was laid out for).
    pub(super) fn callback(
        self: &Arc<Self>,
        (clip, background): (Rect, Color32),
        scene: SceneId,
        job: Job,
        ctx: egui::Context,
    ) -> egui::Shape {
        let layer = self.clone();
        egui::Shape::Callback(egui::PaintCallback {
            rect: clip,
            callback: Arc::new(CallbackFn::new(move |info, painter| {
                if !layer.paint(&info, painter, (scene, &job), background) {
                    ctx.request_repaint();
                }
            })),
        })
    }

    /// Does `job` and copies the scene to the window; false when it could not (nothing copied).
    fn paint(
        &self,
        info: &PaintCallbackInfo,
        egui_painter: &Painter,
        (scene, job): (SceneId, &Job),
        background: Color32,
    ) -> bool {
        let Ok(mut inner) = self.inner.lock() else {
            return false;
        };
        let gl = egui_painter.gl().clone();
        let clip = info.clip_rect_in_pixels();
        let held = Held {
            scene,
            screen_px: info.screen_size_px,
            canvas_px: [
                clip.left_px,
                clip.from_bottom_px,
                clip.width_px,
                clip.height_px,
            ],
            pixels_per_point: info.pixels_per_point.to_bits(),
            background,
        };
        if inner.held != Some(held) {
            let how = Draw {
                dithering: self.dithering,
                pixels_per_point: info.pixels_per_point,
                canvas: info.clip_rect,
            };
            let drawn = match job {
                Job::Whole(primitives) => inner
                    .draw(
                        &gl,
                        egui_painter,
                        &how,
                        held,
                        &[(info.clip_rect, primitives.as_slice())],
                    )
                    .map(|()| inner.counts.drawn += 1),
                Job::Places { from, places }
                    if inner.held
                        == Some(Held {
                            scene: *from,
                            ..held
                        }) =>
                {
                    inner
                        .draw(&gl, egui_painter, &how, held, places)
                        .map(|()| inner.counts.partly += 1)
                }
                // Laid out for a scene the layer no longer holds: the next frame draws it whole.
                Job::Held | Job::Places { .. } => {
                    inner.held = None;
                    return false;
                }
            };
            if let Err(e) = drawn {
                eprintln!("the canvas's OpenGL layer is off: {e}");
                inner.failed = true;
                inner.held = None;
                return false;
            }
            inner.held = Some(held);
        }
        let Some(target) = inner.target.as_ref() else {
            return false;
        };
        let [x, y, w, h] = held.canvas_px;
        // SAFETY: eframe's context is current during a paint callback; `fbo` was made on it by this layer. The
        // scissor test would clip the copy, so it is off (egui's painter sets its state again after a callback).
        unsafe {
            gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(target.fbo));
            gl.bind_framebuffer(glow::DRAW_FRAMEBUFFER, egui_painter.intermediate_fbo());
            gl.disable(glow::SCISSOR_TEST);
            gl.blit_framebuffer(
                x,
                y,
                x + w,
                y + h,
                x,
                y,
                x + w,
                y + h,
                glow::COLOR_BUFFER_BIT,
                glow::NEAREST,
            );
            gl.bind_framebuffer(glow::FRAMEBUFFER, egui_painter.intermediate_fbo());
        }
        inner.counts.copied += 1;
        true
    }

    /// Frees the layer's GL objects (the app's `on_exit`, with eframe's context current). The painter deletes
    /// eframe's textures it knows as well, as eframe's own painter does a moment later: the window is closing.
    pub fn destroy(&self, gl: &glow::Context) {
        let Ok(mut inner) = self.inner.lock() else {
            return;
        };
        inner.free_target(gl);
        if let Some(mut painter) = inner.painter.take() {
            painter.destroy();
        }
    }
}

/// How the layer draws a scene.
struct Draw {
    dithering: bool,
    pixels_per_point: f32,
    /// The canvas's part of the window, points.
    canvas: Rect,
}

impl Inner {
    /// Draws into the framebuffer (made or remade for the window's size), in each of `places` (points, within
    /// the canvas) over `held`'s background, what the scene draws there.
    fn draw<P: AsRef<[ClippedPrimitive]>>(
        &mut self,
        gl: &Arc<glow::Context>,
        egui_painter: &Painter,
        how: &Draw,
        held: Held,
        places: &[(Rect, P)],
    ) -> Result<(), String> {
        if self.painter.is_none() {
            let painter =
                Painter::new(gl.clone(), "", None, how.dithering).map_err(|e| e.to_string())?;
            self.painter = Some(painter);
        }
        if self.target.as_ref().map(|t| t.size_px) != Some(held.screen_px) {
            self.free_target(gl);
            self.target = Some(make_target(gl, held.screen_px)?);
        }
        for (_, primitives) in places {
            self.know_textures(egui_painter, primitives.as_ref())?;
        }
        let (Some(painter), Some(target)) = (self.painter.as_mut(), self.target.as_ref()) else {
            return Err("no painter".to_owned());
        };
        let ppp = how.pixels_per_point;
        let screen_h = i32::try_from(held.screen_px[1]).map_err(|e| e.to_string())?;
        let [r, g, b, a] = held.background.to_normalized_gamma_f32();
        for (place, primitives) in places {
            // Whole pixels, as egui's painter rounds its clips.
            let px = Rect::from_min_max((place.min * ppp).round(), (place.max * ppp).round())
                .intersect(Rect::from_min_max(
                    (how.canvas.min * ppp).round(),
                    (how.canvas.max * ppp).round(),
                ));
            if !px.is_positive() {
                continue;
            }
            #[expect(clippy::cast_possible_truncation)] // whole pixels of a window
            let [x, top, w, h] = [px.min.x, px.min.y, px.width(), px.height()].map(|v| v as i32);
            // SAFETY: eframe's context is current during a paint callback; `fbo` is this layer's.
            unsafe {
                gl.bind_framebuffer(glow::FRAMEBUFFER, Some(target.fbo));
                gl.enable(glow::SCISSOR_TEST);
                gl.scissor(x, screen_h - top - h, w, h);
                gl.clear_color(r, g, b, a);
                gl.clear(glow::COLOR_BUFFER_BIT);
            }
            painter.paint_primitives(held.screen_px, ppp, primitives.as_ref());
        }
        Ok(())
    }

    /// Lets this layer's painter know eframe's textures that `primitives` use (the font atlas), under eframe's
    /// ids, as they are now.
    fn know_textures(
        &mut self,
        egui_painter: &Painter,
        primitives: &[ClippedPrimitive],
    ) -> Result<(), String> {
        let painter = self.painter.as_mut().ok_or("no painter")?;
        for p in primitives {
            if let Primitive::Mesh(mesh) = &p.primitive {
                let id = mesh.texture_id;
                let native = egui_painter
                    .texture(id)
                    .ok_or_else(|| format!("no texture {id:?}"))?;
                if self.textures.get(&id) != Some(&native) {
                    painter.replace_native_texture(id, native);
                    self.textures.insert(id, native);
                }
            }
        }
        Ok(())
    }

    fn free_target(&mut self, gl: &glow::Context) {
        if let Some(t) = self.target.take() {
            // SAFETY: eframe's context is current; the objects are this layer's.
            unsafe {
                gl.delete_framebuffer(t.fbo);
                gl.delete_texture(t.colour);
            }
        }
    }
}

/// A framebuffer with an RGBA texture of `size_px` for its colour.
fn make_target(gl: &glow::Context, [w, h]: [u32; 2]) -> Result<Target, String> {
    let (w, h) = (
        i32::try_from(w).map_err(|e| e.to_string())?,
        i32::try_from(h).map_err(|e| e.to_string())?,
    );
    // SAFETY: eframe's context is current during a paint callback; the objects made are this layer's.
    unsafe {
        let fbo = gl.create_framebuffer()?;
        let colour = gl.create_texture()?;
        gl.bind_texture(glow::TEXTURE_2D, Some(colour));
        #[expect(clippy::cast_possible_wrap)] // a GL enum, well under i32::MAX
        let rgba8 = glow::RGBA8 as i32;
        gl.tex_image_2d(
            glow::TEXTURE_2D,
            0,
            rgba8,
            w,
            h,
            0,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            glow::PixelUnpackData::Slice(None),
        );
        gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fbo));
        gl.framebuffer_texture_2d(
            glow::FRAMEBUFFER,
            glow::COLOR_ATTACHMENT0,
            glow::TEXTURE_2D,
            Some(colour),
            0,
        );
        let status = gl.check_framebuffer_status(glow::FRAMEBUFFER);
        gl.bind_texture(glow::TEXTURE_2D, None);
        if status != glow::FRAMEBUFFER_COMPLETE {
            gl.delete_framebuffer(fbo);
            gl.delete_texture(colour);
            return Err(format!("framebuffer incomplete ({status:#x})"));
        }
        Ok(Target {
            fbo,
            colour,
            size_px: [w.unsigned_abs(), h.unsigned_abs()],
        })
    }
}

/// The one pixel [`GlLayer::warm_up`] draws, at the window's corner.
fn warm_up_pixel() -> Rect {
    Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1.0, 1.0))
}
