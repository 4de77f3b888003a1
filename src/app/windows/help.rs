//! Help > Getting started, Keyboard shortcuts and About: one window with a page for each.

use crate::app::commands::{AppCommand, Show};
use crate::app::state::HelpPage;
use crate::app::window::{AppWindow, WindowContext, egui_id};

/// The steps of the getting-started guide: a heading and what to do.
const GETTING_STARTED: [(&str, &str); 7] = [
    (
        "1. Racks",
        "Add racks with \"+ 42U rack\" in the toolbar, or start from a sample (File > Open sample).",
    ),
    (
        "2. Equipment",
        "Drag a server, switch or storage part from Parts (left) into a rack. It snaps to rack units: a green \
         ghost fits, amber fits but takes the rack over its power budget, red is refused and says why.",
    ),
    (
        "3. GPUs and NICs",
        "Double-click a server to open Server internals, then drag GPUs and NICs from Parts onto its slots.",
    ),
    (
        "4. Cables",
        "Click a device: the Inspector lists its ports. Drag a free port onto another device: the cable takes the \
         first compatible free port there, and the Inspector lets you pick another. For many cables at once, select \
         servers and leaves and press \"Connect rail-optimised\", or leaves and spines and press \"Full mesh\". \
         \"Rear\" in the toolbar shows every port, green when cabled.",
    ),
    (
        "5. Reading the analysis",
        "The cards at the top of the Analysis pane are the headline: green is on target, amber short or near a \
         limit, red far short or over. Bottleneck shows the traffic pattern chosen under \"link load\" in the \
         toolbar, which also colours the links. Hover a figure for its formula; click a finding to select and frame \
         what it is about.",
    ),
    (
        "6. Failures",
        "View > Failure what-ifs… runs the N-1 sweep: every single switch or cable whose loss cuts GPUs or storage \
         off, worst first. \"What if it fails?\" in the Inspector gives one part's impact.",
    ),
    (
        "7. Sharing",
        "Save with Ctrl+S. File > Export writes the HTML review report, drawings, bill of materials, cabling and \
         scheduler files; File > Compare with… sets two designs side by side.",
    ),
];

/// Help: the getting-started guide, the shortcuts and About (version and commit), on a page while open.
#[derive(Default)]
pub struct HelpWindow {
    page: Option<HelpPage>,
}

impl AppWindow for HelpWindow {
    fn id(&self) -> &'static str {
        "help"
    }

    fn title(&self) -> &'static str {
        "Help"
    }

    fn is_open(&self) -> bool {
        self.page.is_some()
    }

    fn open(&mut self, show: &Show, _ctx: &WindowContext) -> bool {
        let Show::Help(page) = show else {
            return false;
        };
        self.page = Some(*page);
        true
    }

    fn is_showing(&self, show: &Show) -> bool {
        matches!(show, Show::Help(page) if self.page == Some(*page))
    }

    fn close(&mut self) {
        self.page = None;
    }

    fn ui(&mut self, egui_ctx: &egui::Context, ctx: &WindowContext, _cmds: &mut Vec<AppCommand>) {
        let (id, title) = (self.id(), self.title());
        help_window_ui(egui_ctx, (id, title), &mut self.page, ctx.central_rect);
    }
}

/// The help window on its page, when open.
fn help_window_ui(
    ctx: &egui::Context,
    (id, title): (&'static str, &'static str),
    shown: &mut Option<HelpPage>,
    central_rect: Option<egui::Rect>,
) {
    let Some(mut page) = *shown else {
        return;
    };
    let mut open = true;
    let window = egui::Window::new(title)
        .id(egui_id(id))
        .open(&mut open)
        .collapsible(false)
        .default_width(520.0);
    crate::app::widgets::placed(
        window,
        central_rect,
        crate::app::widgets::WindowSpot::Centre,
    )
    .show(ctx, |ui| {
        ui.horizontal(|ui| {
            ui.selectable_value(&mut page, HelpPage::GettingStarted, "Getting started");
            ui.selectable_value(&mut page, HelpPage::Shortcuts, "Keyboard shortcuts");
            ui.selectable_value(&mut page, HelpPage::About, "About");
        });
        ui.separator();
        match page {
            HelpPage::GettingStarted => {
                for (step, text) in GETTING_STARTED {
                    ui.strong(step);
                    ui.add(egui::Label::new(text).wrap());
                    ui.add_space(4.0);
                }
            }
            HelpPage::Shortcuts => {
                let rows = crate::app::actions::help_rows(ui.ctx());
                egui::Grid::new("shortcuts").striped(true).show(ui, |ui| {
                    for (k, v) in rows {
                        ui.strong(k);
                        ui.label(v);
                        ui.end_row();
                    }
                });
            }
            HelpPage::About => {
                ui.strong("Racksmith");
                ui.label(format!("Version {}", crate::about::version_text()));
                ui.label(
                    "Quote this line in a bug report. Report format: the JSON of the analysis \
                     (docs/report-json.md); design format: the format_version of design files.",
                );
            }
        }
    });
    *shown = open.then_some(page);
}

/// The window this file adds to the registry (src/app/windows/mod.rs lists the file; build.rs the window).
pub type Window = HelpWindow;
