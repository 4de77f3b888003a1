//! Help > Planning questions: the scenario library (`templates::scenarios`) in a window. Pick a question, move
//! its inputs with sliders, read the answer and its derivation (formula, numbers, sources), and open the design it
//! is about for editing ("discard changes?" first when needed, through the same path as a sized design).

use super::{AppCommand, FileCommand};
use crate::catalog::Catalog;
use crate::templates::scenarios::{self, Answer};

/// The window's state: the question picked, each question's input values, and the answer for them.
pub struct ScenariosWindow {
    selected: usize,
    values: Vec<Vec<f64>>,
    answer_for: Option<(usize, Vec<f64>)>,
    answer: Option<Result<Answer, String>>,
}

impl Default for ScenariosWindow {
    fn default() -> Self {
        Self {
            selected: 0,
            values: scenarios::list()
                .iter()
                .map(|s| s.inputs.iter().map(|i| i.default).collect())
                .collect(),
            answer_for: None,
            answer: None,
        }
    }
}

impl ScenariosWindow {
    /// Answers again when the question or its inputs changed.
    fn refresh(&mut self, catalog: &Catalog) {
        let values = self.values.get(self.selected).cloned().unwrap_or_default();
        let key = (self.selected, values.clone());
        if self.answer_for.as_ref() == Some(&key) {
            return;
        }
        let Some(s) = scenarios::list().get(self.selected) else {
            return;
        };
        let given: Vec<(String, f64)> = s
            .inputs
            .iter()
            .zip(values)
            .map(|(i, v)| (i.name.to_string(), v))
            .collect();
        self.answer = Some(
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
            }),
        );
        self.answer_for = Some(key);
    }
}

/// The Planning questions window.
pub fn scenarios_window_ui(
    ctx: &egui::Context,
    catalog: &Catalog,
    window: &mut Option<ScenariosWindow>,
    windows: &crate::app::state::Windows,
    cmds: &mut Vec<AppCommand>,
) {
    let Some(w) = window.as_mut() else {
        return;
    };
    let mut open = true;
    let mut done = false;
    let frame = egui::Window::new("Planning questions")
        .id(crate::app::escape::Closable::Scenarios.id())
        .open(&mut open)
        .collapsible(false)
        .default_width(640.0);
    super::widgets::placed(
        frame,
        windows.central_rect,
        super::widgets::WindowSpot::TopCentre,
    )
    .show(ctx, |ui| {
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
        match &w.answer {
            Some(Ok(a)) => {
                ui.strong(&a.headline);
                ui.label("How it is derived:");
                egui::ScrollArea::vertical()
                    .max_height(280.0)
                    .show(ui, |ui| {
                        for (k, v) in &a.derivation {
                            ui.label(format!("• {k}: {v}"));
                        }
                    });
            }
            Some(Err(e)) => {
                ui.colored_label(super::theme::status(ui, super::theme::Status::Bad), e);
            }
            None => {}
        }
        ui.separator();
        ui.horizontal(|ui| {
            let design = match &w.answer {
                Some(Ok(a)) => Some(a.design.clone()),
                _ => None,
            };
            if ui
                .add_enabled(design.is_some(), egui::Button::new("Open design"))
                .clicked()
                && let Some(design) = design
            {
                cmds.push(FileCommand::NewSized(Box::new(design)).into());
                done = true;
            }
            if ui.button("Close").clicked() {
                done = true;
            }
        });
    });
    if done || !open {
        *window = None;
    }
}
