//! Help > Planning questions: the scenario library (`templates::scenarios`) in a window. Pick a question, move
//! its inputs with sliders, read the answer and its derivation (formula, numbers, sources), and open the design it
//! is about for editing ("discard changes?" first when needed, through the same path as a sized design).

use crate::app::commands::{AppCommand, FileCommand, Show};
use crate::app::window::{AppWindow, WindowContext, egui_id};
use crate::catalog::Catalog;
use crate::templates::scenarios::{self, Answer};

/// A question and its input values: what an answer is for.
type Key = (usize, Vec<f64>);

/// The window's state: the question picked, each question's input values, and the answer for them.
///
/// An answer may size a cluster of 100,000 GPUs and more (serve-100k) and take a second or two, so it is worked
/// out on a thread of its own, one at a time: the window keeps the last answer, marked as being redone, and
/// starts the newest inputs' answer when the running one ends (inputs passed over while it ran are never
/// answered). The browser has no threads and answers in the frame.
pub struct Questions {
    selected: usize,
    values: Vec<Vec<f64>>,
    answer_for: Option<Key>,
    answer: Option<Result<Answer, String>>,
    #[cfg(not(target_arch = "wasm32"))]
    running: Option<(Key, std::sync::mpsc::Receiver<Result<Answer, String>>)>,
}

impl Questions {
    /// The window with every input at its default (the shared sizing defaults, estimated from `catalog` where
    /// the default is an estimate).
    pub fn new(catalog: &Catalog) -> Self {
        Self {
            selected: 0,
            values: scenarios::list()
                .iter()
                .map(|s| s.inputs.iter().map(|i| i.default_in(catalog)).collect())
                .collect(),
            answer_for: None,
            answer: None,
            #[cfg(not(target_arch = "wasm32"))]
            running: None,
        }
    }

    /// The inputs as they are now.
    fn key(&self) -> Key {
        let values = self.values.get(self.selected).cloned().unwrap_or_default();
        (self.selected, values)
    }

    /// Whether the answer shown is for other inputs than those shown (a newer one is being worked out).
    fn stale(&self) -> bool {
        self.answer_for.as_ref() != Some(&self.key())
    }

    /// Answers again when the question or its inputs changed.
    #[cfg(not(target_arch = "wasm32"))]
    fn refresh(&mut self, catalog: &Catalog) {
        if let Some((key, rx)) = &self.running {
            match rx.try_recv() {
                Ok(answer) => {
                    self.answer = Some(answer);
                    self.answer_for = Some(key.clone());
                    self.running = None;
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => return,
                Err(std::sync::mpsc::TryRecvError::Disconnected) => self.running = None,
            }
        }
        let key = self.key();
        if self.answer_for.as_ref() == Some(&key) {
            return;
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let catalog = catalog.clone();
        let job = key.clone();
        let spawned = std::thread::Builder::new()
            .name("planning-question".into())
            .spawn(move || {
                let _ = tx.send(answer_for(&catalog, &job));
            });
        match spawned {
            Ok(_) => self.running = Some((key, rx)),
            Err(e) => {
                self.answer = Some(Err(format!("could not start the answer: {e}")));
                self.answer_for = Some(key);
            }
        }
    }

    /// Answers again when the question or its inputs changed.
    #[cfg(target_arch = "wasm32")]
    fn refresh(&mut self, catalog: &Catalog) {
        let key = self.key();
        if self.answer_for.as_ref() == Some(&key) {
            return;
        }
        self.answer = Some(answer_for(catalog, &key));
        self.answer_for = Some(key);
    }

    /// Whether an answer is being worked out.
    fn busy(&self) -> bool {
        #[cfg(not(target_arch = "wasm32"))]
        return self.running.is_some();
        #[cfg(target_arch = "wasm32")]
        return false;
    }
}

/// The answer to a question at its input values, in the window's words.
fn answer_for(catalog: &Catalog, (selected, values): &Key) -> Result<Answer, String> {
    let Some(s) = scenarios::list().get(*selected) else {
        return Err("no such question".into());
    };
    let given: Vec<(String, f64)> = s
        .inputs
        .iter()
        .zip(values)
        .map(|(i, v)| (i.name.to_string(), *v))
        .collect();
    scenarios::answer(catalog, s.name, &given).map_err(|e| match e {
        // The core names inputs as the command line does; the window shows the slider's label.
        crate::templates::TemplateError::BadValue { option, value, why } => {
            let label = s
                .inputs
                .iter()
                .find(|i| i.name == option)
                .map_or(option.as_str(), |i| i.label);
            format!("{label} {value}: {why}")
        }
        other => other.to_string(),
    })
}

/// The Planning questions window.
fn scenarios_window_ui(
    egui_ctx: &egui::Context,
    ctx: &WindowContext,
    window: &mut Option<Questions>,
    cmds: &mut Vec<AppCommand>,
) {
    let catalog = ctx.catalog;
    let Some(w) = window.as_mut() else {
        return;
    };
    let mut open = true;
    let mut done = false;
    let frame = egui::Window::new(QuestionsWindow::TITLE)
        .id(egui_id(QuestionsWindow::ID))
        .open(&mut open)
        .collapsible(false)
        // Sized by its content each frame (a resizable window keeps the height of its first frame, when the
        // answer may still be on its way, and would cut the derivation and the buttons off).
        .resizable(false)
        .default_width(640.0);
    crate::app::widgets::placed(
        frame,
        ctx.central_rect,
        crate::app::widgets::WindowSpot::TopCentre,
    )
    .show(egui_ctx, |ui| {
        // The buttons first, at the window's foot, so a long answer can never push them out of it.
        egui::Panel::bottom("planning_buttons").show(ui, |ui| {
            ui.horizontal(|ui| {
                // Only the answer to the inputs shown opens; the design is copied on the click, not each frame.
                let ready = matches!(&w.answer, Some(Ok(_))) && !w.stale();
                if ui
                    .add_enabled(ready, egui::Button::new("Open design"))
                    .clicked()
                    && let Some(Ok(a)) = &w.answer
                {
                    cmds.push(FileCommand::NewSized(Box::new(a.design.clone())).into());
                    done = true;
                }
                if ui.button("Close").clicked() {
                    done = true;
                }
            });
        });
        for (i, s) in scenarios::list().iter().enumerate() {
            if ui.selectable_label(w.selected == i, s.question).clicked() {
                w.selected = i;
            }
        }
        ui.separator();
        if let (Some(s), Some(values)) = (
            scenarios::list().get(w.selected),
            w.values.get_mut(w.selected),
        ) {
            for (input, v) in s.inputs.iter().zip(values.iter_mut()) {
                ui.add(
                    egui::Slider::new(v, input.min..=input.max)
                        .logarithmic(input.max / input.min.max(1e-9) > 100.0)
                        .text(input.label),
                );
            }
        }
        w.refresh(catalog);
        ui.separator();
        if w.busy() || w.stale() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Answering for these inputs…");
            });
            egui_ctx.request_repaint_after(std::time::Duration::from_millis(50));
        }
        match &w.answer {
            Some(Ok(a)) => {
                ui.strong(&a.headline);
                ui.label("How it is derived:");
                egui::ScrollArea::vertical()
                    .max_height(super::sizing::derivation_height(ui).min(ui.available_height()))
                    .auto_shrink([false, true])
                    .show(ui, |ui| {
                        for (k, v) in &a.derivation {
                            ui.label(format!("• {k}: {v}"));
                        }
                    });
            }
            Some(Err(e)) => {
                ui.colored_label(
                    crate::app::theme::status(ui, crate::app::theme::Status::Bad),
                    e,
                );
            }
            None => {}
        }
    });
    if done || !open {
        *window = None;
    }
}

/// Help > Planning questions: the questions, while open.
#[derive(Default)]
pub struct QuestionsWindow {
    questions: Option<Questions>,
}

impl QuestionsWindow {
    const ID: &'static str = "planning_questions";
    const TITLE: &'static str = "Planning questions";
}

impl AppWindow for QuestionsWindow {
    fn id(&self) -> &'static str {
        Self::ID
    }

    fn title(&self) -> &'static str {
        Self::TITLE
    }

    fn is_open(&self) -> bool {
        self.questions.is_some()
    }

    fn open(&mut self, show: &Show, ctx: &WindowContext) -> bool {
        let mine = *show == Show::PlanningQuestions;
        if mine {
            self.questions = Some(Questions::new(ctx.catalog));
        }
        mine
    }

    fn is_showing(&self, show: &Show) -> bool {
        *show == Show::PlanningQuestions && self.is_open()
    }

    fn close(&mut self) {
        self.questions = None;
    }

    fn ui(&mut self, egui_ctx: &egui::Context, ctx: &WindowContext, cmds: &mut Vec<AppCommand>) {
        scenarios_window_ui(egui_ctx, ctx, &mut self.questions, cmds);
    }
}

/// The window this file adds to the registry (src/app/windows/mod.rs lists the file; build.rs the window).
pub type Window = QuestionsWindow;
