//! File > Check as built…: the fabric as `ibnetdiscover` reported it against the open design
//! (`analysis::asbuilt`), as a table a technician works down: missing, miswired, slow and extra cables by both
//! ends, unknown devices and devices not found. "Show" selects a designed cable on the canvas.

use crate::analysis::asbuilt::FabricDiff;
use crate::app::commands::{AppCommand, Show, UiCommand};
use crate::app::selection::{FitTarget, Selection};
use crate::app::window::{AppWindow, WindowContext, egui_id};
use egui::RichText;

/// What the window shows: the file read, the difference, and the revision of the design it was made against.
pub struct AsBuiltState {
    /// The file's name.
    pub file: String,
    /// The difference.
    pub diff: FabricDiff,
    /// The document revision the difference was computed for: a later edit makes it stale, and the window says so.
    pub revision: u64,
}

/// File > Check as built…: the difference, while one is open (the app shell makes it when a file is read).
#[derive(Default)]
pub struct AsBuiltWindow {
    /// The difference shown.
    pub shown: Option<AsBuiltState>,
}

impl AsBuiltWindow {
    const ID: &'static str = "as_built";
    const TITLE: &'static str = "As built against as designed";
}

impl AppWindow for AsBuiltWindow {
    fn id(&self) -> &'static str {
        Self::ID
    }

    fn title(&self) -> &'static str {
        Self::TITLE
    }

    fn is_open(&self) -> bool {
        self.shown.is_some()
    }

    /// Opens on a difference only, which the shell makes from a file; no [`Show`] names it.
    fn open(&mut self, _show: &Show, _ctx: &WindowContext) -> bool {
        false
    }

    fn is_showing(&self, _show: &Show) -> bool {
        false
    }

    fn close(&mut self) {
        self.shown = None;
    }

    fn ui(&mut self, egui_ctx: &egui::Context, ctx: &WindowContext, cmds: &mut Vec<AppCommand>) {
        as_built_window_ui(
            egui_ctx,
            &mut self.shown,
            (ctx.revision, ctx.central_rect),
            cmds,
        );
    }
}

/// Draws the window when a difference is open.
fn as_built_window_ui(
    ctx: &egui::Context,
    state: &mut Option<AsBuiltState>,
    (revision, central_rect): (u64, Option<egui::Rect>),
    cmds: &mut Vec<AppCommand>,
) {
    let Some(st) = state.as_ref() else {
        return;
    };
    let mut open = true;
    let window = egui::Window::new(AsBuiltWindow::TITLE)
        .id(egui_id(AsBuiltWindow::ID))
        .open(&mut open)
        .default_width(720.0)
        .default_height(480.0)
        .vscroll(true);
    crate::app::widgets::placed(window, central_rect, crate::app::widgets::WindowSpot::TopCentre).show(
        ctx,
        |ui| {
            let d = &st.diff;
            ui.label(RichText::new(format!("{} against the open design", st.file)).strong());
            if st.revision != revision {
                ui.colored_label(
                    crate::app::theme::status(ui, crate::app::theme::Status::Short),
                    "The design has changed since: check the file again to compare with it as it is now.",
                );
            }
            ui.label(d.summary());
            ui.separator();
            let rows = d.rows();
            if rows.is_empty() {
                ui.label("The fabric is cabled as designed.");
                return;
            }
            egui::Grid::new("as_built_rows")
                .num_columns(5)
                .striped(true)
                .show(ui, |ui| {
                    for h in ["", "End A", "End B", "As designed", "As found"] {
                        ui.strong(h);
                    }
                    ui.end_row();
                    for r in rows {
                        ui.horizontal(|ui| {
                            ui.label(r.class);
                            if let Some(l) = r.link
                                && ui
                                    .small_button("Show")
                                    .on_hover_text("Select the designed cable on the canvas")
                                    .clicked()
                            {
                                let sel = Selection {
                                    links: std::iter::once(l).collect(),
                                    ..Selection::default()
                                };
                                cmds.push(UiCommand::Select(sel).into());
                                cmds.push(UiCommand::Fit(FitTarget::Selection).into());
                            }
                        });
                        ui.label(&r.a);
                        ui.label(&r.b);
                        ui.label(&r.designed);
                        ui.label(&r.found);
                        ui.end_row();
                    }
                });
        },
    );
    if !open {
        *state = None;
    }
}

/// The window this file adds to the registry (src/app/windows/mod.rs lists the file; build.rs the window).
pub type Window = AsBuiltWindow;
