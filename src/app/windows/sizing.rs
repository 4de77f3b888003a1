//! File > Size from a requirement: the smallest design that serves a request rate under a p99 target, that
//! trains a model in time, or that a yearly budget pays for, with a live preview of what it will make and why
//! that size. The design comes from the same sizing as `racksmith size` (`templates::sizing`) and opens as one
//! step ("discard changes?" first when needed).

use crate::app::commands::{AppCommand, FileCommand, Show};
use crate::app::window::{AppWindow, WindowContext, egui_id};
use crate::catalog::Catalog;
use crate::templates::sizing::{self, BudgetOption, Sized};

/// What to size for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Goal {
    /// A request rate under a p99 latency target.
    #[default]
    Serving,
    /// A training job within a number of days.
    Training,
    /// What a yearly budget buys.
    Budget,
}

impl Goal {
    const ALL: [Goal; 3] = [Goal::Serving, Goal::Training, Goal::Budget];

    fn label(self) -> &'static str {
        match self {
            Goal::Serving => "Serving",
            Goal::Training => "Training",
            Goal::Budget => "Budget",
        }
    }

    /// The fields of the goal: (name, help), in order (the GPU model is chosen apart); their starting values are
    /// [`Goal::defaults`].
    fn fields(self) -> &'static [(&'static str, &'static str)] {
        const MODEL: [(&str, &str); 4] = [
            (
                "Model parameters",
                "Parameters of the served model, e.g. 8e9: a replica's rate is estimated from the GPU's \
                 memory bandwidth (each generated token reads every weight once)",
            ),
            ("Bytes per weight", "2 for BF16 or FP16, 1 for FP8 or INT8"),
            ("Tokens per request", "Tokens generated per request"),
            (
                "Batch",
                "Sequences a replica decodes together: each pass over the weights yields a token for each",
            ),
        ];
        const REPLICA: [(&str, &str); 3] = [
            (
                "Measured replica req/s",
                "Requests per second one replica sustains at full load in your benchmark; overrides the \
                 estimate (leave empty to use it)",
            ),
            ("GPUs per replica", "GPUs each replica runs on"),
            (
                "Utilisation",
                "Planned utilisation of each replica, in (0, 1)",
            ),
        ];
        const SERVING: [(&str, &str); 9] = [
            ("Requests per second", "Requests per second to serve"),
            (
                "p99 target, ms",
                "p99 latency target for a whole request (all its tokens), milliseconds",
            ),
            MODEL[0],
            MODEL[1],
            MODEL[2],
            MODEL[3],
            REPLICA[0],
            REPLICA[1],
            REPLICA[2],
        ];
        const BUDGET: [(&str, &str); 9] = [
            ("USD per year", "Budget per year, USD"),
            (
                "p99 target, ms",
                "p99 latency target for a whole request, milliseconds: the replicas run at the lower of the \
                 utilisation and the most that keeps the p99 under it (empty: no target)",
            ),
            MODEL[0],
            MODEL[1],
            MODEL[2],
            MODEL[3],
            REPLICA[0],
            REPLICA[1],
            REPLICA[2],
        ];
        match self {
            Goal::Serving => &SERVING,
            Goal::Training => &[
                ("Parameters", "Model parameters, e.g. 13e9"),
                ("Tokens", "Training tokens, e.g. 300e9"),
                ("Days", "Days the job may take"),
                ("MFU", "Model FLOPs utilisation"),
            ],
            Goal::Budget => &BUDGET,
        }
    }

    /// The fields' starting values: the one set of sizing defaults the command line and the planning questions
    /// share (`templates::sizing::SERVING_DEFAULTS`, `TRAINING_DEFAULTS`).
    fn defaults(self) -> Vec<String> {
        let s = sizing::SERVING_DEFAULTS;
        let t = sizing::TRAINING_DEFAULTS;
        let replica = |first: f64| {
            vec![
                first.to_string(),
                s.p99_ms.to_string(),
                format!("{:e}", s.model.parameters),
                s.model.bytes_per_parameter.to_string(),
                s.model.tokens_per_request.to_string(),
                s.model.batch.to_string(),
                String::new(),
                s.gpus_per_replica.to_string(),
                s.utilisation.to_string(),
            ]
        };
        match self {
            Goal::Serving => replica(s.requests_per_s),
            Goal::Training => vec![
                format!("{:e}", t.parameters),
                format!("{:e}", t.tokens),
                t.days.to_string(),
                t.mfu.to_string(),
            ],
            Goal::Budget => replica(1.2e6),
        }
    }

    fn default_gpu(self) -> &'static str {
        match self {
            Goal::Training => sizing::TRAINING_DEFAULTS.gpu,
            Goal::Serving | Goal::Budget => sizing::SERVING_DEFAULTS.gpu,
        }
    }
}

/// What the requirement makes: the sized design, and for a budget what each way of buying GPUs gets.
struct Outcome {
    sized: Option<Sized>,
    options: Vec<BudgetOption>,
}

impl Outcome {
    fn one(sized: Sized) -> Self {
        Self {
            sized: Some(sized),
            options: Vec::new(),
        }
    }
}

/// The dialog's state: the goal, its values, and the preview made from them.
pub struct SizingDialog {
    goal: Goal,
    gpu: String,
    values: Vec<String>,
    preview_for: Option<(Goal, String, Vec<String>)>,
    preview: Option<Result<Outcome, String>>,
}

impl Default for SizingDialog {
    fn default() -> Self {
        Self::on(Goal::Serving)
    }
}

impl SizingDialog {
    fn on(goal: Goal) -> Self {
        Self {
            goal,
            gpu: goal.default_gpu().to_string(),
            values: goal.defaults(),
            preview_for: None,
            preview: None,
        }
    }

    fn number(&self, i: usize) -> Result<f64, String> {
        let name = self.goal.fields().get(i).map_or("value", |f| f.0);
        let text = self.values.get(i).map_or("", |v| v.trim());
        text.replace(['_', ','], "")
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("{name}: \"{text}\" is not a number"))
    }

    /// The served model from fields 2 to 5 (serving and budget alike).
    fn model(&self) -> Result<sizing::ServedModel, String> {
        Ok(sizing::ServedModel {
            parameters: self.number(2)?,
            bytes_per_parameter: self.number(3)?,
            tokens_per_request: self.number(4)?,
            batch: self.number(5)?,
        })
    }

    /// A field that may be left empty.
    fn optional(&self, i: usize) -> Result<Option<f64>, String> {
        if self.values.get(i).is_none_or(|v| v.trim().is_empty()) {
            Ok(None)
        } else {
            self.number(i).map(Some)
        }
    }

    fn whole(&self, i: usize) -> Result<u32, String> {
        let v = self.number(i)?;
        if v >= 1.0 && v.fract() == 0.0 && v <= f64::from(u32::MAX) {
            Ok(v as u32)
        } else {
            let name = self.goal.fields().get(i).map_or("value", |f| f.0);
            Err(format!("{name}: a whole number of 1 or more"))
        }
    }

    /// Sizes the design for the values as they are.
    fn compute(&self, catalog: &Catalog) -> Result<Outcome, String> {
        let gpu = self.gpu.clone();
        let err = |e: crate::templates::TemplateError| user_words(&e);
        match self.goal {
            Goal::Serving => {
                let need = sizing::ServingNeed {
                    requests_per_s: self.number(0)?,
                    p99_ms: self.number(1)?,
                    model: Some(self.model()?),
                    replica_rps: self.optional(6)?,
                    gpus_per_replica: self.whole(7)?,
                    utilisation: self.number(8)?,
                    gpu,
                };
                sizing::serving(catalog, &need)
                    .map(Outcome::one)
                    .map_err(err)
            }
            Goal::Training => {
                let need = sizing::TrainingNeed {
                    parameters: self.number(0)?,
                    tokens: self.number(1)?,
                    days: self.number(2)?,
                    mfu: self.number(3)?,
                    gpu,
                    tensor_parallel: 0,
                    pipeline_parallel: 0,
                };
                sizing::training(catalog, &need)
                    .map(Outcome::one)
                    .map_err(err)
            }
            Goal::Budget => {
                let gpus_per_replica = self.whole(7)?;
                let (replica_rps, _) = sizing::resolve_replica_rps(
                    catalog,
                    &gpu,
                    gpus_per_replica,
                    self.optional(6)?,
                    Some(&self.model()?),
                )
                .map_err(err)?;
                let need = sizing::BudgetNeed {
                    usd_per_year: self.number(0)?,
                    p99_ms: self.optional(1)?,
                    replica_rps,
                    gpus_per_replica,
                    utilisation: self.number(8)?,
                    gpu,
                };
                let (options, sized) = sizing::budget(catalog, &need).map_err(err)?;
                Ok(Outcome { sized, options })
            }
        }
    }

    /// Sizes again when the values changed.
    fn refresh(&mut self, catalog: &Catalog) {
        let key = (self.goal, self.gpu.clone(), self.values.clone());
        if self.preview_for.as_ref() == Some(&key) {
            return;
        }
        self.preview = Some(self.compute(catalog));
        self.preview_for = Some(key);
    }
}

/// The height a derivation may take before it scrolls: a third of the screen, at least 120 points, so the window
/// with its inputs and buttons stays on screen at 1024x700 as at 1600x1000.
pub(in crate::app) fn derivation_height(ui: &egui::Ui) -> f32 {
    (ui.ctx().content_rect().height() / 3.0).max(120.0)
}

/// The label this dialog shows for a sizing option (the core names options as the command line does).
fn label_of(option: &str) -> &str {
    match option {
        "requests-per-s" => "Requests per second",
        "p99-ms" => "p99 target, ms",
        "replica-rps" => "Measured replica req/s",
        "model-params" => "Model parameters",
        "bytes-per-param" => "Bytes per weight",
        "tokens-per-request" => "Tokens per request",
        "batch" => "Batch",
        "gpus-per-replica" => "GPUs per replica",
        "utilisation" => "Utilisation",
        "params" => "Parameters",
        "tokens" => "Tokens",
        "days" => "Days",
        "mfu" => "MFU",
        "usd-per-year" => "USD per year",
        "gpu" => "GPU",
        other => other,
    }
}

/// A sizing error in the dialog's words: the field's label, never a command-line flag.
fn user_words(e: &crate::templates::TemplateError) -> String {
    match e {
        crate::templates::TemplateError::BadValue { option, value, why } => {
            format!("{} {value}: {why}", label_of(option))
        }
        other => other.to_string(),
    }
}

/// The sizing window.
fn sizing_dialog_ui(
    egui_ctx: &egui::Context,
    ctx: &WindowContext,
    dialog: &mut Option<SizingDialog>,
    cmds: &mut Vec<AppCommand>,
) {
    let catalog = ctx.catalog;
    let Some(d) = dialog.as_mut() else {
        return;
    };
    let mut open = true;
    let mut done = false;
    let window = egui::Window::new(SizingWindow::TITLE)
        .id(egui_id(SizingWindow::ID))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .default_width(480.0);
    crate::app::widgets::placed(
        window,
        ctx.central_rect,
        crate::app::widgets::WindowSpot::TopCentre,
    )
    .show(egui_ctx, |ui| {
        ui.horizontal(|ui| {
            for g in Goal::ALL {
                if ui.selectable_label(d.goal == g, g.label()).clicked() && d.goal != g {
                    *d = SizingDialog::on(g);
                }
            }
        });
        inputs_ui(ui, d);
        d.refresh(catalog);
        ui.separator();
        match &d.preview {
            Some(Ok(o)) => outcome_ui(ui, o),
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
            // The design is copied on the click, not each frame.
            let ready = matches!(&d.preview, Some(Ok(Outcome { sized: Some(_), .. })));
            if ui.add_enabled(ready, egui::Button::new("Create")).clicked()
                && let Some(Ok(Outcome { sized: Some(s), .. })) = &d.preview
            {
                cmds.push(FileCommand::NewSized(Box::new(s.design.clone())).into());
                done = true;
            }
            if ui.button("Cancel").clicked() {
                done = true;
            }
        });
    });
    if done || !open {
        *dialog = None;
    }
}

/// File > Size from a requirement: the dialog, while open.
#[derive(Default)]
pub struct SizingWindow {
    dialog: Option<SizingDialog>,
}

impl SizingWindow {
    const ID: &'static str = "sizing";
    const TITLE: &'static str = "Size from a requirement";
}

impl AppWindow for SizingWindow {
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
        let mine = *show == Show::Sizing;
        if mine {
            self.dialog = Some(SizingDialog::default());
        }
        mine
    }

    fn is_showing(&self, show: &Show) -> bool {
        *show == Show::Sizing && self.is_open()
    }

    fn close(&mut self) {
        self.dialog = None;
    }

    fn ui(&mut self, egui_ctx: &egui::Context, ctx: &WindowContext, cmds: &mut Vec<AppCommand>) {
        sizing_dialog_ui(egui_ctx, ctx, &mut self.dialog, cmds);
    }
}

fn inputs_ui(ui: &mut egui::Ui, d: &mut SizingDialog) {
    egui::Grid::new("sizing_inputs")
        .num_columns(2)
        .show(ui, |ui| {
            let l = ui.label("GPU");
            egui::ComboBox::from_id_salt("sizing_gpu")
                .selected_text(d.gpu.clone())
                .show_ui(ui, |ui| {
                    for (g, _) in crate::templates::GPU_MODELS {
                        ui.selectable_value(&mut d.gpu, g.to_string(), g);
                    }
                })
                .response
                .labelled_by(l.id);
            ui.end_row();
            for ((name, help), v) in d.goal.fields().iter().zip(d.values.iter_mut()) {
                let l = ui.label(*name).on_hover_text(*help);
                ui.add(egui::TextEdit::singleline(v).desired_width(140.0))
                    .labelled_by(l.id)
                    .on_hover_text(*help);
                ui.end_row();
            }
        });
}

fn outcome_ui(ui: &mut egui::Ui, o: &Outcome) {
    use crate::analysis::format::thousands;
    if !o.options.is_empty() {
        ui.label("The budget buys, each way:");
        egui::Grid::new("sizing_budget")
            .striped(true)
            .show(ui, |ui| {
                for b in &o.options {
                    ui.label(&b.option);
                    ui.label(format!("{} GPUs", b.gpus));
                    ui.label(format!("{:.1} req/s", b.requests_per_s));
                    ui.label(format!("${}/yr", thousands(b.usd_per_year, 0)));
                    ui.end_row();
                }
            });
    }
    let Some(s) = &o.sized else {
        ui.label("One owned server costs more than the budget per year: nothing to create.");
        return;
    };
    ui.strong(format!(
        "{}, {} ({}), {}",
        crate::analysis::format::count(s.servers, "server", "servers"),
        crate::analysis::format::count(s.gpus, "GPU", "GPUs"),
        s.gpu,
        crate::analysis::format::count(s.racks, "rack", "racks")
    ));
    ui.label(format!(
        "{:.1} kW IT · capex ${} · TCO ${} · ${:.2}/GPU-h owned",
        s.it_kw,
        thousands(s.capex_usd, 0),
        thousands(s.tco_usd, 0),
        s.usd_per_gpu_hour
    ));
    if !s.switches_by_tier.is_empty() {
        ui.label(format!(
            "Switches: {}",
            crate::templates::switch_tiers_text(&s.switches_by_tier)
        ));
    }
    ui.label(format!("Size set by: {}", s.limit));
    ui.label("Why this size:");
    // The derivation scrolls inside the window, which stays on screen whatever its length.
    egui::ScrollArea::vertical()
        .max_height(derivation_height(ui))
        .auto_shrink([false, true])
        .show(ui, |ui| {
            for (k, v) in &s.why {
                ui.label(format!("• {k}: {v}"));
            }
        });
}

/// The window this file adds to the registry (src/app/windows/mod.rs lists the file; build.rs the window).
pub type Window = SizingWindow;
