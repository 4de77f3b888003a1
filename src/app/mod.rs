//! The egui front end: a menu bar and toolbar, the parts palette, the rack canvas, the inspector and the analysis
//! pane. Panels read the document and push [`AppCommand`]s; [`RacksmithApp::apply_commands`] applies them in one
//! place after the frame, so every change goes through the undo history and bumps the revision.

mod actions;
pub mod analysis_pane;
pub mod analysis_state;
mod background;
mod cabling;
mod canvas;
mod catalogs;
mod commands;
mod dialogs;
mod escape;
mod exports;
mod fabric;
mod file_requests;
mod files;
#[cfg(not(target_arch = "wasm32"))]
mod frame_log;
mod inspector;
mod menu;
mod palette;
pub mod selection;
mod server_tree;
pub mod state;
mod theme;
mod user_catalog;
#[cfg(target_arch = "wasm32")]
pub mod web;
mod web_link;
mod widgets;
pub mod window;
pub mod windows;

use crate::catalog::Catalog;
use crate::edit::{Edit, Gestures};
use crate::model::{Design, DeviceId, PortRef, RackId};
use analysis_state::AnalysisState;
/// The smallest text the canvas draws, points (labels that would be smaller are left out).
pub use canvas::MIN_LABEL_PT;
pub use commands::{AppCommand, DocCommand, FileCommand, Show, UiCommand};
pub use dialogs::{
    CompareFormat, DialogKind, DialogRequest, FilePurpose, InAppDialog, NativeDialogs,
    NativeOutcome, NoNativeDialogs, OverwritePrompt, RfdDialogs,
};
use state::{Document, FitTarget, Pending, Selection, UiState};
use std::path::PathBuf;
use std::sync::Arc;

/// The app: the document, the analysis, UI state and the commands queued this frame.
pub struct RacksmithApp {
    /// Parts catalog: the built-in parts with the user's over them.
    pub catalog: Catalog,
    /// The built-in and user catalogs apart, and the user catalog file.
    catalogs: catalogs::CatalogState,
    /// The open document.
    pub doc: Document,
    /// The report shown and the worker (or, in the browser, the slices) computing the next one.
    pub analysis: AnalysisState,
    /// Everything that is not the design: selection, status line, canvas, files, typing, windows.
    pub ui: UiState,
    commands: Vec<AppCommand>,
    /// The fabric view's layout, rebuilt when the document changes (kept here, not in `UiState`, so that the
    /// state module does not depend on the fabric view).
    fabric_layout: Option<fabric::FabricLayout>,
    dialogs: Box<dyn NativeDialogs>,
    screenshot: Option<files::ScreenshotJob>,
    recovery: files::Recovery,
    allow_close: bool,
    last_title: String,
    frames: u64,
    quit_requested: bool,
    /// A link made by File > Copy link, put on the clipboard after the frame.
    link_to_copy: Option<String>,
    /// The last link made by File > Copy link.
    last_link: Option<String>,
    /// The browser's side: files being read, local storage (web build).
    #[cfg(target_arch = "wasm32")]
    web: web::WebState,
    /// `RACKSMITH_FRAME_LOG`: a line per frame, for measuring the running app.
    #[cfg(not(target_arch = "wasm32"))]
    frame_log: Option<frame_log::FrameLog>,
    /// The canvas's scene kept as pixels, on the OpenGL renderer (`canvas::gl_layer`).
    #[cfg(not(target_arch = "wasm32"))]
    gl_layer: Option<std::sync::Arc<canvas::gl_layer::GlLayer>>,
}

impl RacksmithApp {
    /// An app for a design, with no recovery file, no persistence, no screenshot and no native file dialogs, so
    /// a test never blocks on one (for tests).
    /// Its analysis runs inline, so every frame shows the report of the design it draws.
    pub fn new_for_test(design: Design) -> Self {
        let mut app = Self::new(design, None, None, files::Recovery::disabled());
        app.dialogs = Box::new(NoNativeDialogs);
        app.analyse_inline();
        app
    }

    /// Analyses on the UI thread from now on (tests that check the report of each frame).
    pub fn analyse_inline(&mut self) {
        self.analysis = AnalysisState::inline();
        self.analysis
            .update(&self.doc.design, self.doc.revision, None);
    }

    /// Analyses on the worker thread from now on, as the app does (tests and benches of the worker).
    pub fn analyse_in_background(&mut self) {
        self.analysis = AnalysisState::default();
        self.analysis
            .update(&self.doc.design, self.doc.revision, None);
    }

    /// As [`RacksmithApp::new_for_test`], with crash recovery in `dir`: the autosaves of instances that are gone
    /// are offered at start, as when the app opens (for tests).
    pub fn new_for_test_with_recovery(design: Design, dir: PathBuf) -> Self {
        let mut app = Self::new(design, None, None, files::Recovery::in_dir(dir));
        app.dialogs = Box::new(NoNativeDialogs);
        app.analyse_inline();
        app.ui.files.recovery_offer = app.recovery.orphans();
        app
    }

    /// As [`RacksmithApp::new_for_test`], with the user catalog file at `path` (a temporary folder in tests, never
    /// the real configuration folder).
    pub fn new_for_test_with_user_catalog(design: Design, path: PathBuf) -> Self {
        let mut app = Self::new_for_test(design);
        app.set_user_catalog(Some(path));
        app
    }

    fn new(
        design: Design,
        path: Option<PathBuf>,
        screenshot: Option<PathBuf>,
        recovery: files::Recovery,
    ) -> Self {
        let catalog = Catalog::builtin().unwrap_or_default();
        Self {
            catalogs: catalogs::CatalogState {
                builtin: catalog.clone(),
                ..Default::default()
            },
            catalog,
            doc: Document::new(design, path),
            analysis: AnalysisState::default(),
            ui: UiState {
                windows: state::Windows {
                    registry: windows::registry(),
                    ..Default::default()
                },
                ..Default::default()
            },
            commands: Vec::new(),
            fabric_layout: None,
            dialogs: dialogs::dialogs_from_env(),
            screenshot: screenshot.map(files::ScreenshotJob::new),
            recovery,
            allow_close: false,
            last_title: String::new(),
            frames: 0,
            quit_requested: false,
            link_to_copy: None,
            last_link: None,
            #[cfg(target_arch = "wasm32")]
            web: web::WebState::default(),
            #[cfg(not(target_arch = "wasm32"))]
            frame_log: None,
            #[cfg(not(target_arch = "wasm32"))]
            gl_layer: None,
        }
    }

    /// The current design.
    pub fn design(&self) -> &Design {
        &self.doc.design
    }

    /// The current report, if computed.
    pub fn report(&self) -> Option<&crate::analysis::Report> {
        self.analysis.report.as_deref()
    }

    /// The analysis pane's headline cards for the current report and traffic pattern (empty before a report).
    pub fn headline_cards(&self) -> Vec<analysis_pane::CardView> {
        self.report().map_or_else(Vec::new, |r| {
            analysis_pane::card_views(&self.doc.design, r, self.ui.canvas.load_pattern)
        })
    }

    /// Screen position of the middle of a rack unit in the current view (for driving drags in tests).
    pub fn unit_screen_pos(&self, rack: RackId, u: u16) -> Option<egui::Pos2> {
        canvas::unit_screen_pos(&self.doc.design, &self.ui.canvas, rack, u)
    }

    /// The canvas's link bundles at the current zoom (per pair of racks, or of rows when far out): each one's hover
    /// text, link count and the middle of its curve on screen in the current view (tests hover a bundle with it).
    pub fn link_bundles(&self, ctx: &egui::Context) -> Vec<(String, usize, egui::Pos2)> {
        canvas::bundle_midpoints(
            ctx,
            (&self.doc.design, self.doc.layout_revision),
            &self.ui.canvas,
        )
    }

    /// The fabric view's layout as last drawn (tiers and their devices), if the view was shown.
    pub fn fabric_layout(&self) -> Option<&fabric::FabricLayout> {
        self.fabric_layout.as_ref()
    }

    /// Screen position of a device's node in the fabric view as last drawn (for driving clicks in tests).
    pub fn fabric_node_pos(&self, device: DeviceId) -> Option<egui::Pos2> {
        let layout = self.fabric_layout.as_ref()?;
        fabric::node_pos(layout, self.ui.canvas.fabric_rect?, device)
    }

    /// Screen rect of a rack in the floor view as last drawn (for driving drags in tests).
    pub fn floor_rack_screen_rect(&self, ctx: &egui::Context, rack: RackId) -> Option<egui::Rect> {
        canvas::floor::rack_screen_rect(
            ctx,
            (&self.doc.design, self.doc.layout_revision),
            &self.ui.canvas.floor,
            rack,
        )
    }

    /// Screen rect of a device in the current view.
    pub fn device_screen_rect(&self, device: DeviceId) -> Option<egui::Rect> {
        canvas::device_screen_rect(&self.doc.design, &self.ui, device)
    }

    /// Screen rects of every device in the current view.
    pub fn device_screen_rects(&self) -> rustc_hash::FxHashMap<DeviceId, egui::Rect> {
        canvas::device_screen_rects(&self.doc.design, &self.ui.canvas)
    }

    /// Draws the whole UI and applies what it asked for. This is the body of `eframe::App::ui`, callable from
    /// tests through `egui_kittest`.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.frames += 1;
        if self.frames == 1 {
            theme::apply(&ctx);
        }
        let busy = self
            .analysis
            .update(&self.doc.design, self.doc.revision, Some(&ctx));
        if busy {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }

        menu::shortcuts(&ctx, self);
        menu::menu_bar_ui(ui, self);
        menu::toolbar_ui(ui, self);
        menu::status_bar_ui(ui, self);
        self.side_panels_ui(ui);
        self.central_ui(ui);
        self.windows_ui(&ctx);
        #[cfg(target_arch = "wasm32")]
        self.web_frame(&ctx);
        self.after_frame(&ctx);
    }

    /// The palette on the left and the inspector and analysis pane on the right (or its collapsed strip).
    fn side_panels_ui(&mut self, ui: &mut egui::Ui) {
        // Side panels take a share of the window, so a 1024 px window still leaves the canvas half its width.
        let width = ui.available_width();
        let palette = egui::Panel::left("palette")
            .resizable(true)
            .default_size((width * 0.2).clamp(190.0, 250.0))
            .min_size(160.0)
            .max_size(420.0);
        chrome_panel(palette, ui, |ui| {
            palette::palette_ui(ui, &self.catalog, &mut self.ui.editing.search);
        });
        if self.ui.windows.right_collapsed {
            let panel = egui::Panel::right("right_collapsed")
                .resizable(false)
                .exact_size(28.0);
            chrome_panel(panel, ui, |ui| {
                if ui
                    .button("◀")
                    .on_hover_text("Show the inspector and analysis pane")
                    .clicked()
                {
                    self.ui.windows.right_collapsed = false;
                }
            });
        } else {
            let panel = egui::Panel::right("right")
                .resizable(true)
                .default_size((width * 0.3).clamp(300.0, 460.0))
                .min_size(260.0)
                .max_size(640.0);
            chrome_panel(panel, ui, |ui| {
                right_panel_ui(ui, self);
            });
        }
    }

    /// The racks, the fabric or both, side by side; their commands are applied after the frame.
    fn central_ui(&mut self, ui: &mut egui::Ui) {
        let mode = self.ui.canvas.view_mode;
        let background = ui.visuals().extreme_bg_color;
        // The racks alone fill the panel and paint their own background (kept as pixels with the scene on the
        // desktop's OpenGL renderer: the panel's fill under it would be painted for nothing).
        let fill = if mode == state::ViewMode::Racks {
            egui::Color32::TRANSPARENT
        } else {
            background
        };
        egui::CentralPanel::default()
            .frame(egui::Frame::NONE.fill(fill))
            .show(ui, |ui| {
                self.ui.windows.central_rect = Some(ui.max_rect());
                let mut cmds = Vec::new();
                let report = self.analysis.report.as_deref();
                let report_revision = self.analysis.report_revision;
                let (design, revision, ui_state) =
                    (&*self.doc.design, self.doc.revision, &mut self.ui);
                let layout_revision = self.doc.layout_revision;
                let cache = &mut self.fabric_layout;
                let mut fabric_view =
                    |ui: &mut egui::Ui, st: &mut UiState, cmds: &mut Vec<AppCommand>| {
                        st.canvas.fabric_rect = Some(ui.available_rect_before_wrap());
                        fabric::fabric_ui(
                            ui,
                            (design, revision),
                            report,
                            cache,
                            &st.selection,
                            st.canvas.load_pattern,
                            cmds,
                        );
                    };
                let catalog = &self.catalog;
                let own_background = (mode == state::ViewMode::Racks).then_some(background);
                let racks_view =
                    |ui: &mut egui::Ui, st: &mut UiState, cmds: &mut Vec<AppCommand>| {
                        canvas::canvas_ui(
                            ui,
                            (design, layout_revision),
                            catalog,
                            (report, report_revision),
                            (st, own_background),
                            cmds,
                        );
                    };
                // The floor keeps its own view: a fit asked for while it is shown frames the floor, and the racks
                // when they are shown again.
                let floor = &mut ui_state.canvas.floor;
                if mode == state::ViewMode::Floor {
                    if let Some(t) = ui_state.canvas.view.fit.take() {
                        floor.view.fit = Some(t);
                        floor.racks_fit = Some(t);
                    }
                } else if let Some(t) = floor.racks_fit.take() {
                    ui_state.canvas.view.fit = Some(t);
                }
                match mode {
                    state::ViewMode::Floor => {
                        canvas::floor::floor_ui(ui, (design, layout_revision), ui_state, &mut cmds)
                    }
                    state::ViewMode::Racks => racks_view(ui, ui_state, &mut cmds),
                    state::ViewMode::Fabric => fabric_view(ui, ui_state, &mut cmds),
                    state::ViewMode::Both => {
                        let half = ui.available_width() / 2.0;
                        egui::Panel::right("fabric_view")
                            .resizable(true)
                            .default_size(half)
                            .show(ui, |ui| fabric_view(ui, ui_state, &mut cmds));
                        egui::CentralPanel::default()
                            .show(ui, |ui| racks_view(ui, ui_state, &mut cmds));
                    }
                }
                self.commands.extend(cmds);
            });
    }

    /// What the windows read (the document, its analysis, the catalogs, the selection), beside the registry that
    /// holds them, to open or draw them.
    fn window_context(&mut self) -> (window::WindowContext<'_>, &mut window::WindowRegistry) {
        let ui = &mut self.ui;
        let context = window::WindowContext {
            design: &self.doc.design,
            revision: self.doc.revision,
            generation: self.doc.generation,
            catalog: &self.catalog,
            catalogs: &self.catalogs,
            report: self.analysis.report.as_ref(),
            stale: self.analysis.is_stale(self.doc.revision),
            background: !self.analysis.is_inline(),
            selection: &ui.selection,
            central_rect: ui.windows.central_rect,
        };
        (context, &mut ui.windows.registry)
    }

    /// The floating windows and dialogs; their commands are applied after the frame.
    fn windows_ui(&mut self, ctx: &egui::Context) {
        let mut cmds = Vec::new();
        let (context, registry) = self.window_context();
        registry.ui(ctx, &context, &mut cmds);
        files::dialogs_ui(ctx, self, &mut cmds);
        let prompts = dialogs::Prompts {
            file_dialog: &mut self.ui.files.file_dialog,
            overwrite: &mut self.ui.files.overwrite,
            read_only: &mut self.ui.files.read_only,
        };
        if let Some(status) = dialogs::file_dialog_ui(ctx, prompts, &mut cmds) {
            self.ui.status.info(status);
        }
        self.commands.extend(cmds);
    }

    /// After drawing: dropped files, the frame's commands, close and quit, autosave, the title and screenshots.
    fn after_frame(&mut self, ctx: &egui::Context) {
        files::dropped_files(ctx, self);
        let applied = !self.commands.is_empty();
        self.apply_commands();
        // This pass drew the state from before its commands (a click's selection, a menu's window, an edit): the
        // pass runs again at once, inside the same frame, so the first frame after a click shows what it did,
        // without a frame (a full raster under software rendering) of its own (issue 38).
        if applied {
            ctx.request_discard("commands applied");
        }
        files::close_request(ctx, self);
        if self.quit_requested {
            self.quit_requested = false;
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        files::autosave(ctx, self);
        if let Some(link) = self.link_to_copy.take() {
            ctx.copy_text(link);
        }

        let title = self.doc.title();
        if title != self.last_title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.last_title = title;
        }
        files::screenshot_step(ctx, self);
    }
}

fn right_panel_ui(ui: &mut egui::Ui, app: &mut RacksmithApp) {
    let mut cmds = Vec::new();
    // In the corner, beside the inspector's heading, without pushing the panel's content down, and clear of the
    // pane's scroll bar (which takes the clicks on the panel's right edge once the pane is taller than the window).
    let corner = egui::Rect::from_min_size(
        ui.max_rect().right_top() + egui::vec2(-40.0, 4.0),
        egui::vec2(22.0, 20.0),
    );
    let hide = ui
        .new_child(egui::UiBuilder::new().max_rect(corner))
        .add(egui::Button::new("▶").small())
        .on_hover_text("Hide the inspector and analysis pane (more room for the canvas)");
    if hide.clicked() {
        app.ui.windows.right_collapsed = true;
    }
    // The inspector folds away on its own, leaving the analysis pane in place (issue 35: hiding one hid both).
    let fold = corner.translate(egui::vec2(-26.0, 0.0));
    let folded = app.ui.windows.inspector_collapsed;
    let toggle = ui
        .new_child(egui::UiBuilder::new().max_rect(fold))
        .add(egui::Button::new(if folded { "+" } else { "−" }).small())
        .on_hover_text(if folded {
            "Show the inspector"
        } else {
            "Hide the inspector (the analysis pane stays and takes its room)"
        });
    if toggle.clicked() {
        app.ui.windows.inspector_collapsed = !folded;
    }
    if folded {
        ui.strong("Inspector (hidden)");
    } else {
        let inspector_h = (ui.available_height() * 0.40).max(180.0);
        let width = ui.available_width() - 14.0;
        egui::ScrollArea::both()
            .id_salt("inspector_scroll")
            .max_height(inspector_h)
            .auto_shrink([false, true])
            .show(ui, |ui| {
                ui.set_max_width(width);
                inspector::inspector_ui(
                    ui,
                    &app.doc.design,
                    &app.catalog,
                    app.analysis.report.as_deref(),
                    &mut app.ui,
                    &mut cmds,
                );
            });
    }
    ui.separator();
    let stale = app.analysis.is_stale(app.doc.revision);
    analysis_pane::analysis_ui(
        ui,
        &app.doc.design,
        app.analysis.report.as_deref(),
        stale,
        app.ui.canvas.load_pattern,
        (app.doc.generation, app.analysis.report_revision),
        &mut cmds,
    );
    app.commands.extend(cmds);
}

impl eframe::App for RacksmithApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        #[cfg(not(target_arch = "wasm32"))]
        let start = std::time::Instant::now();
        // The canvas is handed the layer once it is warm: the window's first two frames draw the canvas's triangles
        // (a large design's on the second only, canvas::paint), the third and fourth warm the layer up beside them
        // (canvas::gl_layer::GlLayer::warm_up), after the renderer's own shaders were compiled and the racks first
        // drawn.
        #[cfg(not(target_arch = "wasm32"))]
        let warm_up = match &self.gl_layer {
            Some(layer) if layer.ready() => {
                layer.share(ui.ctx());
                None
            }
            Some(layer) if ui.ctx().cumulative_frame_nr() > 1 => Some(layer.clone()),
            _ => None,
        };
        self.show(ui);
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(layer) = warm_up {
            let ctx = ui.ctx().clone();
            ctx.layer_painter(egui::LayerId::background())
                .add(layer.warm_up(ctx.clone()));
        }
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(log) = &mut self.frame_log {
            let layer = self.gl_layer.as_ref().map(|l| l.counts());
            log.frame(ui.ctx(), (start.elapsed(), _frame.info().cpu_usage), layer);
        }
    }

    fn persist_egui_memory(&self) -> bool {
        self.screenshot.is_none()
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, files::RECENT_KEY, &self.ui.files.recent);
        eframe::set_value(storage, files::EXPORT_DIR_KEY, &self.ui.files.export_dir);
    }

    // The desktop build has the glow renderer too (Cargo.toml), which hands its context to `on_exit`.
    /// The panels' colour: where the chrome's panels leave their fill to the clear ([`chrome_panel`]) it is
    /// theirs, and elsewhere they cover the window.
    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        visuals.panel_fill.to_normalized_gamma_f32()
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn on_exit(&mut self, gl: Option<&eframe::glow::Context>) {
        if let (Some(layer), Some(gl)) = (&self.gl_layer, gl) {
            layer.destroy(gl);
        }
        // A clean exit: the recovery file is only for crashes. Unsaved work was confirmed as discarded.
        self.recovery.remove();
    }

    #[cfg(target_arch = "wasm32")]
    fn on_exit(&mut self) {
        self.recovery.remove();
    }
}

/// The renderer: OpenGL (glow) unless `RACKSMITH_RENDERER=wgpu`. Under software rendering (Mesa's llvmpipe in a VM,
/// a remote desktop or Xvfb) glow shows a click's result in about a sixth of the time wgpu on lavapipe takes, at a
/// third of the CPU (docs/analysis.md, "Click to changed pixels"); on a GPU both are far under a frame.
/// `RACKSMITH_VSYNC=0` stops waiting for vertical sync (for measurements).
/// No dithering: the fragment shader's noise is scaled to leave flat colours alone and the app draws flat colours;
/// at 4 SU it moved 4% of the window's pixels by at most 4 of 255 levels (anti-aliased edges), not to be seen, while
/// costing every pixel of every frame under software rendering: a menu click's CPU 182 -> 155 ms, its first
/// changed pixels 119 -> 79 ms (issue 38; `RACKSMITH_DITHER=1` turns it back on, for comparison).
#[cfg(not(target_arch = "wasm32"))]
fn renderer_options(mut options: eframe::NativeOptions) -> eframe::NativeOptions {
    options.renderer = match std::env::var("RACKSMITH_RENDERER").as_deref() {
        Ok("wgpu") => eframe::Renderer::Wgpu,
        _ => eframe::Renderer::Glow,
    };
    options.dithering = dithering();
    if std::env::var("RACKSMITH_VSYNC").as_deref() == Ok("0") {
        options.glow_options.vsync = false;
        options.wgpu_options.surface.present_mode = eframe::wgpu::PresentMode::AutoNoVsync;
    }
    options
}

/// Shows `panel` as a panel of the window's chrome (menu bar, toolbar, status bar, side panels) with egui's frame,
/// but without painting its fill where the window is cleared to that colour already (the desktop's OpenGL renderer:
/// [`RacksmithApp`]'s `clear_color`). Under software rendering a fill costs every pixel it covers, each frame: the
/// panels' fills were a third of the window's. What is drawn in it (a scroll area's fade) still knows the colour
/// it stands on.
pub(crate) fn chrome_panel<R>(
    panel: egui::Panel,
    ui: &mut egui::Ui,
    add_contents: impl FnOnce(&mut egui::Ui) -> R,
) -> egui::InnerResponse<R> {
    let frame = egui::Frame::side_top_panel(ui.style());
    #[cfg(not(target_arch = "wasm32"))]
    if canvas::gl_layer::GlLayer::of(ui.ctx()).is_some() {
        let fill = frame.fill;
        return panel
            .frame(frame.fill(egui::Color32::TRANSPARENT))
            .show(ui, |ui| {
                let info = egui::UiStackInfo::new(egui::UiKind::Frame)
                    .with_frame(egui::Frame::NONE.fill(fill));
                ui.scope_builder(egui::UiBuilder::new().ui_stack_info(info), add_contents)
                    .inner
            });
    }
    panel.frame(frame).show(ui, add_contents)
}

/// Whether the shader dithers: `RACKSMITH_DITHER=1` (for comparison; see [`renderer_options`]).
#[cfg(not(target_arch = "wasm32"))]
fn dithering() -> bool {
    std::env::var("RACKSMITH_DITHER").as_deref() == Ok("1")
}

/// Opens the desktop app. With `screenshot`, renders until the design is laid out and analysed, writes a PNG of
/// the window there and exits.
#[cfg(not(target_arch = "wasm32"))]
pub fn run(file: Option<PathBuf>, screenshot: Option<PathBuf>) -> anyhow::Result<()> {
    let link = file
        .as_ref()
        .map(|p| p.to_string_lossy().into_owned())
        .filter(|p| crate::io::share::has_design(p));
    let (design, path) = match (&file, link) {
        // A share link (`racksmith 'https://…#d=…'`): the design it holds, not yet saved anywhere.
        (_, Some(link)) => (crate::io::share::decode(&link)?, None),
        (Some(p), None) => (crate::io::load(p)?, Some(p.clone())),
        (None, None) => (crate::samples::default_design(), None),
    };
    let recovery = if screenshot.is_some() {
        files::Recovery::disabled()
    } else {
        files::Recovery::default_location()
    };
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1600.0, 1000.0])
            .with_min_inner_size([900.0, 600.0])
            .with_title("Racksmith")
            .with_drag_and_drop(true),
        persist_window: screenshot.is_none(),
        ..Default::default()
    };
    let mut options = renderer_options(options);
    if screenshot.is_none() {
        dialogs::probe_in_background();
    }
    // What the app is made of, taken by the first renderer that gets as far as making it: when OpenGL cannot
    // open a window (no GL driver, only Vulkan), the same start is tried again with wgpu.
    let start = std::rc::Rc::new(std::cell::RefCell::new(Some((
        design, path, screenshot, recovery,
    ))));
    let first = eframe::run_native("Racksmith", options.clone(), app_creator(start.clone()));
    let result = match first {
        Err(e) if options.renderer == eframe::Renderer::Glow && start.borrow().is_some() => {
            eprintln!("OpenGL could not open the window ({e}); trying wgpu");
            options.renderer = eframe::Renderer::Wgpu;
            eframe::run_native("Racksmith", options, app_creator(start))
        }
        other => other,
    };
    result.map_err(|e| anyhow::anyhow!("the window could not open: {e}"))?;
    Ok(())
}

/// What [`run`] starts the app with: the design, its file, the screenshot path and the recovery folder.
#[cfg(not(target_arch = "wasm32"))]
type Start = (Design, Option<PathBuf>, Option<PathBuf>, files::Recovery);

/// Makes the app from `start` once a renderer has a window (leaves `start` empty when it did).
#[cfg(not(target_arch = "wasm32"))]
fn app_creator(
    start: std::rc::Rc<std::cell::RefCell<Option<Start>>>,
) -> eframe::AppCreator<'static> {
    Box::new(move |cc| {
        let Some((design, path, shot, recovery)) = start.borrow_mut().take() else {
            return Err("the app was already started".into());
        };
        let path_for_recent = path.clone();
        let mut app = RacksmithApp::new(design, path, shot, recovery);
        app.frame_log = frame_log::FrameLog::from_env();
        if cc.gl.is_some() {
            app.gl_layer = canvas::gl_layer::GlLayer::new(dithering());
        }
        if app.screenshot.is_none() {
            // A screenshot shows the built-in catalog only, the same on every machine.
            app.set_user_catalog(crate::catalog::user::default_path());
        }
        // The worker starts on the design now, so the first frame is as close to its report as can be.
        app.analysis
            .update(&app.doc.design, app.doc.revision, Some(&cc.egui_ctx));
        if app.screenshot.is_some() {
            // A screenshot shows the app as it first opens, not as a previous session left it.
            cc.egui_ctx.memory_mut(|m| *m = egui::Memory::default());
            app.ui.canvas.no_tooltips = true;
        } else {
            if let Some(storage) = cc.storage
                && let Some(recent) = eframe::get_value::<Vec<PathBuf>>(storage, files::RECENT_KEY)
            {
                app.ui.files.recent = recent;
            }
            if let Some(storage) = cc.storage
                && let Some(dir) =
                    eframe::get_value::<Option<PathBuf>>(storage, files::EXPORT_DIR_KEY)
            {
                app.ui.files.export_dir = dir.filter(|d| d.is_dir());
            }
            app.ui.files.recovery_offer = app.recovery.orphans();
        }
        if let Some(p) = path_for_recent {
            app.ui.files.push_recent(p);
        }
        // `RACKSMITH_THEME=light|dark` picks a theme at start (screenshots of both; otherwise View > Theme).
        match std::env::var("RACKSMITH_THEME").as_deref() {
            Ok("light") => cc.egui_ctx.set_theme(egui::Theme::Light),
            Ok("dark") => cc.egui_ctx.set_theme(egui::Theme::Dark),
            _ => {}
        }
        Ok(Box::new(app))
    })
}
