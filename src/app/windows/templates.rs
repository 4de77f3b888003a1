//! File > New from template: choose a template, set its options, see what it will make (GPUs, servers, racks,
//! switches by tier, cables by type, IT kW, capex) before creating it. The design is made by the same generators
//! as `racksmith new` (`templates`).

use crate::app::commands::{AppCommand, FileCommand, Show};
use crate::app::window::{AppWindow, WindowContext, egui_id};
use crate::templates::{self, Preview};

/// A preview being made on a thread: the options it is for and where it arrives.
type PreviewJob = (
    (usize, Vec<String>),
    std::sync::mpsc::Receiver<Result<Preview, String>>,
);

/// The dialog's state: the template chosen, its option values, and the preview of what they make.
#[derive(Debug, Default)]
pub struct TemplateDialog {
    /// Index into `templates::list()`.
    pub template: usize,
    /// Option values, in the template's option order.
    pub values: Vec<String>,
    /// The options the preview was made for.
    preview_for: Option<(usize, Vec<String>)>,
    /// What the options make, or why they make nothing.
    preview: Option<Result<Preview, String>>,
    /// The preview of newer options, being generated and analysed off the UI thread (a 128-SU design takes about
    /// a second); a newer change replaces it and the older result is dropped.
    pending: Option<PreviewJob>,
}

impl TemplateDialog {
    /// The dialog on a template, with its default options.
    pub fn on(template: usize) -> Self {
        let values = templates::list()
            .get(template)
            .map(|t| t.options.iter().map(|o| o.default.to_string()).collect())
            .unwrap_or_default();
        Self {
            template,
            values,
            ..Self::default()
        }
    }

    fn pairs(&self) -> Vec<(String, String)> {
        templates::list()
            .get(self.template)
            .map(|t| {
                t.options
                    .iter()
                    .zip(&self.values)
                    .map(|(o, v)| (o.name.to_string(), v.trim().to_string()))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Regenerates the preview when the options changed, with the app's catalog (parsed once at start): on a
    /// thread when `background` (the app), else here (tests). Returns true while a preview is being made.
    fn refresh(
        &mut self,
        catalog: &crate::catalog::Catalog,
        background: bool,
        ctx: &egui::Context,
    ) -> bool {
        if let Some((key, rx)) = &self.pending {
            match rx.try_recv() {
                Ok(p) => {
                    self.preview = Some(p);
                    self.preview_for = Some(key.clone());
                    self.pending = None;
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => {}
                Err(std::sync::mpsc::TryRecvError::Disconnected) => self.pending = None,
            }
        }
        let key = (self.template, self.values.clone());
        if self.preview_for.as_ref() == Some(&key)
            || self.pending.as_ref().is_some_and(|(k, _)| *k == key)
        {
            return self.pending.is_some();
        }
        let Some(t) = templates::list().get(self.template) else {
            return false;
        };
        let (name, pairs) = (t.name, self.pairs());
        let make = move |catalog: &crate::catalog::Catalog| {
            templates::generate(catalog, name, &pairs)
                .map(|d| templates::preview(&d, &crate::analysis::analyze(&d)))
                .map_err(|e| templates::error_in_labels(&e))
        };
        if !background {
            self.preview = Some(make(catalog));
            self.preview_for = Some(key);
            return false;
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let catalog = catalog.clone();
        let ctx = ctx.clone();
        crate::app::background::spawn(move || {
            let _ = tx.send(make(&catalog));
            ctx.request_repaint();
        });
        self.pending = Some((key, rx));
        true
    }
}

/// File > New from template: the dialog, while open.
#[derive(Default)]
pub struct TemplatesWindow {
    dialog: Option<TemplateDialog>,
}

impl TemplatesWindow {
    const ID: &'static str = "templates";
    const TITLE: &'static str = "New from template";
}

impl AppWindow for TemplatesWindow {
    fn id(&self) -> &'static str {
        Self::ID
    }

    fn title(&self) -> &'static str {
        Self::TITLE
    }

    fn is_open(&self) -> bool {
        self.dialog.is_some()
    }

    fn open(&mut self, show: &Show, _ctx: &WindowContext) -> bool {
        let mine = *show == Show::Templates;
        if mine {
            self.dialog = Some(TemplateDialog::on(0));
        }
        mine
    }

    fn is_showing(&self, show: &Show) -> bool {
        *show == Show::Templates && self.is_open()
    }

    fn close(&mut self) {
        self.dialog = None;
    }

    fn ui(&mut self, egui_ctx: &egui::Context, ctx: &WindowContext, cmds: &mut Vec<AppCommand>) {
        template_dialog_ui(egui_ctx, ctx, &mut self.dialog, cmds);
    }
}

/// The New from template window.
fn template_dialog_ui(
    egui_ctx: &egui::Context,
    wctx: &WindowContext,
    slot: &mut Option<TemplateDialog>,
    cmds: &mut Vec<AppCommand>,
) {
    let (ctx, catalog, background) = (egui_ctx, wctx.catalog, wctx.background);
    let Some(dialog) = slot.as_mut() else {
        return;
    };
    let mut open = true;
    let mut create = false;
    let mut cancel = false;
    let window = egui::Window::new(TemplatesWindow::TITLE)
        .id(egui_id(TemplatesWindow::ID))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .default_width(460.0);
    crate::app::widgets::placed(
        window,
        wctx.central_rect,
        crate::app::widgets::WindowSpot::TopCentre,
    )
    .show(ctx, |ui| {
        let list = templates::list();
        let current = list.get(dialog.template).map_or("", |t| t.name);
        egui::ComboBox::from_label("Template")
            .selected_text(current)
            .show_ui(ui, |ui| {
                for (i, t) in list.iter().enumerate() {
                    if ui.selectable_label(i == dialog.template, t.name).clicked()
                        && i != dialog.template
                    {
                        *dialog = TemplateDialog::on(i);
                    }
                }
            });
        let Some(t) = list.get(dialog.template) else {
            return;
        };
        ui.label(egui::RichText::new(t.summary).weak());
        egui::Grid::new("template_options")
            .num_columns(2)
            .show(ui, |ui| {
                for (o, v) in t.options.iter().zip(dialog.values.iter_mut()) {
                    let l = ui
                        .label(templates::option_label(o.name))
                        .on_hover_text(o.help);
                    ui.add(egui::TextEdit::singleline(v).desired_width(160.0))
                        .labelled_by(l.id)
                        .on_hover_text(o.help);
                    ui.end_row();
                }
            });
        let busy = dialog.refresh(catalog, background, ctx);
        ui.separator();
        if busy {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Making the preview…");
            });
        }
        match &dialog.preview {
            Some(Ok(p)) => preview_ui(ui, p),
            Some(Err(e)) => {
                ui.colored_label(
                    crate::app::theme::status(ui, crate::app::theme::Status::Bad),
                    e,
                );
            }
            None => {}
        }
        ui.separator();
        ui.horizontal(|ui| {
            let ok = matches!(dialog.preview, Some(Ok(_))) && !busy;
            if ui.add_enabled(ok, egui::Button::new("Create")).clicked() {
                create = true;
            }
            if ui.button("Cancel").clicked() {
                cancel = true;
            }
        });
    });
    if create {
        let name = templates::list()
            .get(dialog.template)
            .map_or_else(String::new, |t| t.name.to_string());
        cmds.push(FileCommand::NewFromTemplate(name, dialog.pairs()).into());
    }
    if create || cancel || !open {
        *slot = None;
    }
}

fn preview_ui(ui: &mut egui::Ui, p: &Preview) {
    ui.strong(format!(
        "{} in {}, {}",
        crate::analysis::format::count(p.gpus, "GPU", "GPUs"),
        crate::analysis::format::count(p.servers, "server", "servers"),
        crate::analysis::format::count(p.racks, "rack", "racks")
    ));
    ui.label(format!(
        "Switches: {}",
        templates::switch_tiers_text(&p.switches_by_tier)
    ));
    let cables: Vec<String> = p
        .cables_by_type
        .iter()
        .map(|(t, n)| format!("{n} × {t}"))
        .collect();
    ui.label(format!("Cables: {}", cables.join(", ")));
    ui.label(format!(
        "{:.1} kW IT · capex ${}",
        p.it_kw,
        crate::analysis::format::thousands(p.capex_usd, 0)
    ));
}

/// The window this file adds to the registry (src/app/windows/mod.rs lists the file; build.rs the window).
pub type Window = TemplatesWindow;
