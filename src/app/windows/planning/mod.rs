//! The Planning window (View > Planning): sliders for the figures a planning meeting argues about (request rate,
//! latency target, utilisation, electricity, PUE, cloud price, depreciation, message sizes, GPU model), the
//! headline cards and charts they move, and named scenarios saved in the design and shown side by side.
//!
//! A slider change is an `Edit::SetParams` like the Parameters window's; the frames of one drag replace each other
//! on the undo stack (`DocCommand::EditMerge.into()`), so a drag is one undo step. Small designs are analysed in the
//! frame after the edit, so the cards follow the slider; on designs analysed in the background the slider shows
//! its value while held and applies it when let go (one analysis per drag, not one per frame). The side-by-side table analyses a copy of the design per
//! scenario on a background thread, one job at a time, never while a slider is held.

mod cards;

use crate::analysis::Report;
use crate::analysis::scenarios::{self, ScenarioResult};
use crate::app::commands::{AppCommand, DocCommand, Show, UiCommand};
use crate::app::theme::{self, Status};
use crate::app::window::{AppWindow, WindowContext, egui_id};
use crate::catalog::{Catalog, PartKind};
use crate::edit::Edit;
use crate::io::limits::Figure as F;
use crate::model::{Design, Params, PartId, Scenario};
use egui::RichText;
use std::collections::BTreeSet;
use std::ops::RangeInclusive;
use std::sync::mpsc::{Receiver, TryRecvError};

/// What the Planning window keeps between frames (UI state: never saved, never undone).
#[derive(Default)]
pub struct PlanningWindow {
    /// Whether the window is open.
    pub open: bool,
    /// The name typed for the next saved scenario.
    pub name: String,
    /// Scenarios left out of the side-by-side table, by name.
    pub hidden: BTreeSet<String>,
    /// Why the last scenario applied was refused (its GPU model did not fit).
    pub gpu_refusal: Option<String>,
    /// The GPU model chosen in the window (None: the design's), part of the draft scenario, never of the design.
    pub draft_gpu: Option<PartId>,
    /// The GPU count chosen in the window (None: the design's), part of the draft scenario.
    pub draft_count: Option<u32>,
    /// The label of the slider held down, whose changes merge into one undo step.
    dragging: Option<String>,
    /// A held slider's value not yet applied (designs analysed in the background apply it on release).
    preview: Option<(String, f64)>,
    table: TableCache,
}

impl PlanningWindow {
    /// The settings the window shows as one scenario: the design's parameters with the GPU model and count chosen
    /// here (the scenario "Save scenario" keeps).
    pub fn draft(&self, design: &Design) -> Scenario {
        let gpu = self
            .draft_gpu
            .clone()
            .or_else(|| crate::analysis::bandwidth::main_gpu(design));
        Scenario {
            gpu_count: self.draft_count,
            ..Scenario::from_params("", &design.params, gpu)
        }
    }

    /// Blocks until the side-by-side table's background job (if any) finishes (tests and screenshots).
    pub fn wait(&mut self) {
        self.table.wait();
    }

    /// The side-by-side results last computed, in the table's column order.
    pub fn table_results(&self) -> &[ScenarioResult] {
        &self.table.results
    }
}

/// What the side-by-side table was computed for: the document revision and the scenarios shown.
type TableKey = (u64, Vec<Scenario>);

/// Scenario results computed off the UI thread.
#[derive(Default)]
struct TableCache {
    key: Option<TableKey>,
    results: Vec<ScenarioResult>,
    pending: Option<(TableKey, Receiver<Vec<ScenarioResult>>)>,
}

impl TableCache {
    /// Collects a finished job and starts one for `key` when the shown results are for another; one job at a
    /// time. Returns true while the shown results are not for `key`.
    fn update(
        &mut self,
        key: TableKey,
        design: &std::sync::Arc<Design>,
        catalog: &Catalog,
        ctx: &egui::Context,
        may_start: bool,
    ) -> bool {
        if let Some((k, rx)) = &self.pending {
            match rx.try_recv() {
                Ok(results) => {
                    self.key = Some(k.clone());
                    self.results = results;
                    self.pending = None;
                }
                Err(TryRecvError::Empty) => return true,
                Err(TryRecvError::Disconnected) => self.pending = None,
            }
        }
        if self.key.as_ref() == Some(&key) {
            return false;
        }
        if may_start {
            let (tx, rx) = std::sync::mpsc::channel();
            let (design, catalog, scenarios) = (design.clone(), catalog.clone(), key.1.clone());
            let ctx = ctx.clone();
            crate::app::background::spawn(move || {
                let _ = tx.send(crate::templates::planning::evaluate_all(
                    &design, &catalog, &scenarios,
                ));
                ctx.request_repaint();
            });
            self.pending = Some((key, rx));
        }
        true
    }

    fn wait(&mut self) {
        if let Some((k, rx)) = self.pending.take()
            && let Ok(results) = rx.recv()
        {
            self.key = Some(k);
            self.results = results;
        }
    }
}

/// What the window reads from the app.
pub struct PlanningInputs<'a> {
    /// The open design (shared with the side-by-side job, not copied for it).
    pub design: &'a std::sync::Arc<Design>,
    /// The document's revision: the side-by-side table is recomputed when it changes.
    pub revision: u64,
    /// The parts catalog (GPU models).
    pub catalog: &'a Catalog,
    /// The latest report.
    pub report: Option<&'a Report>,
    /// Whether the report is older than the design.
    pub stale: bool,
}

impl PlanningWindow {
    const ID: &'static str = "planning";
    const TITLE: &'static str = "Planning";
}

impl AppWindow for PlanningWindow {
    fn id(&self) -> &'static str {
        Self::ID
    }

    fn title(&self) -> &'static str {
        Self::TITLE
    }

    fn is_open(&self) -> bool {
        self.open
    }

    fn open(&mut self, show: &Show, _ctx: &WindowContext) -> bool {
        let mine = *show == Show::Planning;
        self.open |= mine;
        mine
    }

    fn is_showing(&self, show: &Show) -> bool {
        *show == Show::Planning && self.open
    }

    fn close(&mut self) {
        self.open = false;
    }

    fn ui(&mut self, egui_ctx: &egui::Context, ctx: &WindowContext, cmds: &mut Vec<AppCommand>) {
        let input = PlanningInputs {
            design: ctx.design,
            revision: ctx.revision,
            catalog: ctx.catalog,
            report: ctx.report.map(|r| &**r),
            stale: ctx.stale,
        };
        planning_window_ui(egui_ctx, &input, self, ctx.central_rect, cmds);
    }
}

/// Draws the Planning window when open.
fn planning_window_ui(
    ctx: &egui::Context,
    input: &PlanningInputs<'_>,
    st: &mut PlanningWindow,
    central_rect: Option<egui::Rect>,
    cmds: &mut Vec<AppCommand>,
) {
    if !st.open {
        return;
    }
    let mut open = true;
    let height = central_rect.map_or(700.0, |r| r.height() - 24.0);
    let window = egui::Window::new(PlanningWindow::TITLE)
        .id(egui_id(PlanningWindow::ID))
        .open(&mut open)
        .default_width(600.0)
        .default_height(height)
        .vscroll(true);
    crate::app::widgets::placed(
        window,
        central_rect,
        crate::app::widgets::WindowSpot::TopLeft,
    )
    .show(ctx, |ui| planning_ui(ui, input, st, cmds));
    if !open {
        st.open = false;
    }
}

fn planning_ui(
    ui: &mut egui::Ui,
    input: &PlanningInputs<'_>,
    st: &mut PlanningWindow,
    cmds: &mut Vec<AppCommand>,
) {
    egui::Grid::new("planning_sliders")
        .num_columns(2)
        .spacing([12.0, 6.0])
        .show(ui, |ui| {
            ui.spacing_mut().slider_width = 220.0;
            sliders_ui(ui, input, st, cmds);
            cluster_ui(ui, input, st);
        });
    if let Some(text) = (st.draft_gpu.is_some() || st.draft_count.is_some())
        .then(|| draft_text(input, &st.draft(input.design)))
        .flatten()
    {
        ui.label(RichText::new(text).strong());
    }
    if let Some(why) = &st.gpu_refusal {
        ui.colored_label(theme::status(ui, Status::Bad), why);
    }
    ui.separator();
    let Some(r) = input.report else {
        ui.label("Analysing…");
        return;
    };
    ui.horizontal(|ui| {
        ui.strong("Figures");
        if input.stale {
            ui.spinner();
            ui.label(RichText::new("updating…").weak());
        }
    });
    cards::cards_ui(ui, input.design, r);
    cards::charts_ui(ui, r);
    ui.separator();
    scenarios_ui(ui, input, st, cmds);
}

/// How the sliders' changes reach the design this frame.
struct SliderGesture {
    /// The slider the pointer holds this frame.
    held: Option<String>,
    /// Whether a change is applied while the slider moves (a design analysed inline); otherwise the value is held
    /// in `preview` and applied when the pointer lets go, so a drag on a large design starts one analysis.
    live: bool,
}

/// One slider row of the grid; returns the value to apply, and notes the slider in `g.held` while the pointer
/// holds it. `preview` is the value shown, not yet applied, of a held slider (large designs).
fn slider_row(
    ui: &mut egui::Ui,
    s: &SliderSpec,
    g: &mut SliderGesture,
    preview: &mut Option<(String, f64)>,
) -> Option<f64> {
    let label = s.label;
    let shown = match preview {
        Some((l, v)) if l == label => *v,
        _ => s.value,
    };
    let name = ui.label(label);
    let mut v = shown;
    let resp = ui
        .add(
            egui::Slider::new(&mut v, s.range.clone())
                .logarithmic(s.log)
                .clamping(egui::SliderClamping::Never)
                .suffix(s.suffix)
                .max_decimals(s.decimals),
        )
        .labelled_by(name.id)
        .on_hover_ui(|ui| {
            // A typed value may leave the slider's extent, up to what a design file allows.
            ui.label(format!(
                "allowed: {}{}",
                s.figure.range().scaled(s.scale).describe(),
                s.suffix
            ));
            if matches!(s.figure, F::UtilisationTarget) {
                ui.label(
                    "One figure for two things: the share of hours the GPUs are busy (cost per used GPU-hour, \
                     replicas needed) and the load on every link (the queueing in the network p99). Moving it \
                     moves both.",
                );
            }
        });
    ui.end_row();
    let holding = resp.dragged() || resp.is_pointer_button_down_on();
    if holding {
        g.held = Some(label.to_string());
    }
    let moved = resp.changed() && v.is_finite() && v != shown;
    if g.live {
        return moved.then_some(v);
    }
    if holding {
        if moved {
            *preview = Some((label.to_string(), v));
        }
        return None;
    }
    let last = match preview.take_if(|(l, _)| l == label) {
        Some((_, pv)) if !moved => pv,
        _ if moved => v,
        _ => return None,
    };
    (last != s.value).then_some(last)
}

/// One planning slider: its label, range and unit, and how a value is written into the parameters (clamped to
/// the range of its figure in `io::limits`, the table a design file is checked against; docs/limits.md).
struct SliderSpec {
    label: &'static str,
    /// The parameter it sets.
    figure: F,
    /// The slider's unit per the file's (1e-6 for an all-reduce size shown in MB).
    scale: f64,
    value: f64,
    /// The extent the slider shows, inside its figure's range (a value may be typed beyond it, up to the range).
    range: RangeInclusive<f64>,
    log: bool,
    suffix: &'static str,
    decimals: usize,
    set: fn(&mut Params, f64),
}

/// The sliders for the design's parameters (the serving ones only when the design serves).
fn slider_specs(p: &Params, report: Option<&Report>) -> Vec<SliderSpec> {
    let spec = |(label, figure, scale), value, range, log, suffix, decimals, set| SliderSpec {
        label,
        figure,
        scale,
        value,
        range,
        log,
        suffix,
        decimals,
        set,
    };
    let mut out = Vec::new();
    if let Some(s) = &p.serving {
        out.push(spec(
            ("Request rate", F::RequestRateRps, 1.0),
            s.request_rate_rps,
            1.0..=1e6,
            true,
            " req/s",
            0,
            |q, v| {
                set_serving(q, |s| {
                    s.request_rate_rps = F::RequestRateRps.range().clamp(v)
                });
            },
        ));
        out.push(spec(
            ("Latency target (p99)", F::LatencyTargetMs, 1.0),
            s.latency_target_ms,
            10.0..=10_000.0,
            true,
            " ms",
            0,
            |q, v| {
                set_serving(q, |s| {
                    s.latency_target_ms = F::LatencyTargetMs.range().clamp(v)
                });
            },
        ));
    }
    // With no cloud price set, the slider starts at the catalog price the analysis used.
    let cloud = p
        .cloud_usd_per_gpu_hour
        .or_else(|| report.map(|r| r.cost.cloud_usd_per_gpu_hour))
        .unwrap_or(2.0);
    out.extend([
        spec(
            // One knob for GPUs and links, said on the label (issue 35: it moved the network p99 unannounced).
            ("Utilisation (GPUs and links)", F::UtilisationTarget, 1.0),
            p.utilisation_target,
            0.05..=0.95,
            false,
            "",
            2,
            |q, v| {
                q.utilisation_target = F::UtilisationTarget.range().clamp(v);
            },
        ),
        spec(
            ("Electricity", F::ElectricityUsdPerKwh, 1.0),
            p.electricity_usd_per_kwh,
            0.0..=0.5,
            false,
            " $/kWh",
            3,
            |q, v| {
                q.electricity_usd_per_kwh = F::ElectricityUsdPerKwh.range().clamp(v);
            },
        ),
        spec(
            ("PUE", F::Pue, 1.0),
            p.pue,
            1.0..=2.5,
            false,
            "",
            2,
            |q, v| q.pue = F::Pue.range().clamp(v),
        ),
        spec(
            ("Cloud price", F::CloudUsdPerGpuHour, 1.0),
            cloud,
            0.25..=20.0,
            true,
            " $/GPU-h",
            2,
            |q, v| {
                q.cloud_usd_per_gpu_hour = Some(F::CloudUsdPerGpuHour.range().clamp(v));
            },
        ),
        spec(
            ("Depreciation", F::DepreciationYears, 1.0),
            p.depreciation_years,
            1.0..=10.0,
            false,
            " years",
            1,
            |q, v| {
                q.depreciation_years = F::DepreciationYears.range().clamp(v);
            },
        ),
        spec(
            ("All-reduce size", F::AllreduceBytes, 1e-6),
            p.traffic.allreduce_bytes / 1e6,
            0.001..=100_000.0,
            true,
            " MB",
            3,
            |q, v| {
                q.traffic.allreduce_bytes = F::AllreduceBytes.range().clamp(v * 1e6);
            },
        ),
        spec(
            ("Latency message", F::LatencyMessageBytes, 1.0),
            p.traffic.latency_message_bytes,
            8.0..=1e8,
            true,
            " B",
            0,
            |q, v| {
                q.traffic.latency_message_bytes = F::LatencyMessageBytes.range().clamp(v);
            },
        ),
    ]);
    out
}

/// Designs up to this many devices follow a slider while it is held; larger ones take its value when it is let go,
/// since every applied value hands the worker a copy of the design and a new analysis.
const LIVE_DRAG_DEVICES: usize = 120;

/// The planning sliders; a change is one `SetParams`, merged with the previous frame's while the slider is held
/// (small designs), or applied once when it is let go (large ones, whose analysis runs in the background).
fn sliders_ui(
    ui: &mut egui::Ui,
    input: &PlanningInputs<'_>,
    st: &mut PlanningWindow,
    cmds: &mut Vec<AppCommand>,
) {
    let p = &input.design.params;
    let mut g = SliderGesture {
        held: None,
        live: input.design.devices.len() <= LIVE_DRAG_DEVICES,
    };
    let mut new: Option<(&str, Params)> = None;
    for s in slider_specs(p, input.report) {
        let moved = slider_row(ui, &s, &mut g, &mut st.preview);
        if let Some(v) = moved {
            let mut q = p.clone();
            (s.set)(&mut q, v);
            new = Some((s.label, q));
        }
    }
    if let Some((what, q)) = new {
        let label = format!("Plan: set {}", what.to_lowercase());
        let edit = Edit::SetParams(Box::new(q));
        // Only a live drag's later frames continue a step: a held value applied on release is a step of its own.
        if g.live && st.dragging.as_deref() == Some(what) {
            cmds.push(DocCommand::EditMerge(label, edit).into());
        } else {
            cmds.push(DocCommand::Edit(label, edit).into());
        }
    }
    st.dragging = g.held;
}

fn set_serving(q: &mut Params, f: impl FnOnce(&mut crate::model::Serving)) {
    if let Some(s) = q.serving.as_mut() {
        f(s);
    }
}

/// The cluster to plan with: a GPU model and a GPU count. Neither edits the design: they make the draft scenario
/// (analysed on a copy, or on a cluster built anew when the server or the count changes; `templates::planning`),
/// which "Save scenario" keeps and "Apply" makes the design, one undo step.
fn cluster_ui(ui: &mut egui::Ui, input: &PlanningInputs<'_>, st: &mut PlanningWindow) {
    let design = input.design;
    let name = ui.label("GPU model");
    let Some(current) = crate::analysis::bandwidth::main_gpu(design) else {
        ui.label("no GPUs in the design").labelled_by(name.id);
        ui.end_row();
        return;
    };
    let part_name = |id: &PartId| {
        design
            .parts
            .get(id)
            .or_else(|| input.catalog.get(id.as_str()))
            .map_or_else(|| id.to_string(), |p| p.name.clone())
    };
    let current_form = match design.parts.get(&current).map(|p| &p.kind) {
        Some(PartKind::Gpu(g)) => Some(g.form),
        _ => None,
    };
    let shown = match &st.draft_gpu {
        Some(g) => format!("{} (what-if)", part_name(g)),
        None => format!("{} (as designed)", part_name(&current)),
    };
    egui::ComboBox::from_id_salt("planning_gpu")
        .selected_text(shown)
        .width(280.0)
        .show_ui(ui, |ui| {
            if ui
                .add(egui::Button::selectable(
                    st.draft_gpu.is_none(),
                    format!("{} (as designed)", part_name(&current)),
                ))
                .clicked()
            {
                st.draft_gpu = None;
            }
            // The models a cluster can be built with, then other GPUs that fit the design's own slots.
            let built: Vec<PartId> = crate::templates::planning::gpu_models()
                .map(PartId::new)
                .filter(|g| input.catalog.get(g.as_str()).is_some())
                .collect();
            let in_place = input
                .catalog
                .in_category(crate::catalog::Category::Gpu)
                .filter(|(id, part)| {
                    !built.contains(id)
                        && current_form.is_some_and(|f| crate::edit::gpu_fits(part, f).is_ok())
                })
                .map(|(id, _)| id.clone());
            for id in built.clone().into_iter().chain(in_place) {
                if id == current {
                    continue;
                }
                let how = if built.contains(&id) {
                    "its own servers"
                } else {
                    "in the design's servers"
                };
                if ui
                    .add(egui::Button::selectable(
                        st.draft_gpu.as_ref() == Some(&id),
                        format!("{} ({how})", part_name(&id)),
                    ))
                    .clicked()
                {
                    st.draft_gpu = Some(id);
                }
            }
        })
        .response
        .labelled_by(name.id);
    ui.end_row();
    let name = ui.label("GPUs");
    let in_design: usize = design.devices.values().map(|d| d.gpus.len()).sum();
    let mut count = st.draft_count.unwrap_or(in_design as u32);
    ui.horizontal(|ui| {
        let resp = ui
            .add(egui::DragValue::new(&mut count).range(1..=crate::io::limits::MAX_SCENARIO_GPUS))
            .labelled_by(name.id)
            .on_hover_text(
                "A count other than the design's is a cluster built anew for it (the GPU model's server, a \
                 fabric in proportion, storage), with the design's job and settings",
            );
        if resp.changed() {
            st.draft_count = (count as usize != in_design).then_some(count);
        }
        if (st.draft_gpu.is_some() || st.draft_count.is_some()) && ui.button("As designed").clicked() {
            st.draft_gpu = None;
            st.draft_count = None;
        }
    });
    ui.end_row();
}

/// The draft scenario's words: what it plans with and how it is evaluated, or None when it is the design.
fn draft_text(input: &PlanningInputs<'_>, draft: &Scenario) -> Option<String> {
    if draft.gpu == crate::analysis::bandwidth::main_gpu(input.design) && draft.gpu_count.is_none()
    {
        return None;
    }
    let design = input.design;
    let how = match crate::templates::planning::rebuild(design, draft) {
        Some((model, n)) => format!(
            "{n} x {model} on a cluster built anew (the model's server, a fabric in proportion, storage)"
        ),
        None => format!(
            "{} swapped into the design's servers",
            draft
                .gpu
                .as_ref()
                .map_or_else(String::new, PartId::to_string)
        ),
    };
    Some(format!(
        "What-if, not applied: {how}. Save it as a scenario to see it beside the others; Apply makes it the design \
         (one undo step)."
    ))
}

/// Save, apply, delete and compare scenarios.
fn scenarios_ui(
    ui: &mut egui::Ui,
    input: &PlanningInputs<'_>,
    st: &mut PlanningWindow,
    cmds: &mut Vec<AppCommand>,
) {
    let design = input.design;
    ui.strong("Scenarios");
    // What "Save scenario" keeps (the sliders with the GPU model and count chosen here), and the design as it is
    // (the scenario marked current, which Apply would not change).
    let current = st.draft(design);
    let as_designed = Scenario::from_params(
        "",
        &design.params,
        crate::analysis::bandwidth::main_gpu(design),
    );
    ui.horizontal(|ui| {
        let name = ui.label("Scenario name");
        ui.add(
            egui::TextEdit::singleline(&mut st.name)
                .hint_text(format!("Scenario {}", design.scenarios.len() + 1))
                .desired_width(200.0),
        )
        .labelled_by(name.id);
        if ui
            .button("Save scenario")
            .on_hover_text("Keep the current settings under this name, in the design file (replaces a scenario of the same name)")
            .clicked()
        {
            let typed = st.name.trim();
            let name = if typed.is_empty() {
                unique_name(&design.scenarios)
            } else {
                typed.to_string()
            };
            let mut list = design.scenarios.clone();
            let saved = Scenario {
                name: name.clone(),
                ..current.clone()
            };
            match list.iter_mut().find(|s| s.name == name) {
                Some(s) => *s = saved,
                None => list.push(saved),
            }
            cmds.push(DocCommand::Edit(
                format!("Save scenario {name}"),
                Edit::SetScenarios(list),
            ).into());
            st.name.clear();
        }
    });
    if design.scenarios.is_empty() {
        ui.label(RichText::new("No scenarios yet: set the sliders, name the settings and save them; save two or more to compare them side by side.").weak());
        return;
    }
    let mut refused = None;
    for (i, s) in design.scenarios.iter().enumerate() {
        ui.horizontal(|ui| {
            let mut shown = !st.hidden.contains(&s.name);
            if ui
                .checkbox(&mut shown, "")
                .on_hover_text("Show in the side-by-side table")
                .changed()
            {
                if shown {
                    st.hidden.remove(&s.name);
                } else {
                    st.hidden.insert(s.name.clone());
                }
            }
            let active = s.same_settings(&as_designed);
            ui.label(if active {
                RichText::new(format!("{} (current)", s.name)).strong()
            } else {
                RichText::new(&s.name)
            });
            if ui
                .add_enabled(!active, egui::Button::new(format!("Apply {}", s.name)))
                .clicked()
            {
                match crate::templates::planning::apply_edit(design, input.catalog, s) {
                    Ok(Some(edit)) => {
                        cmds.push(
                            DocCommand::Edit(format!("Apply scenario {}", s.name), edit).into(),
                        );
                        st.draft_gpu = None;
                        st.draft_count = None;
                    }
                    Ok(None) => {}
                    Err(e) => refused = Some(format!("Scenario {} refused: {e}", s.name)),
                }
            }
            if ui.button(format!("Delete {}", s.name)).clicked() {
                let mut list = design.scenarios.clone();
                list.remove(i);
                cmds.push(
                    DocCommand::Edit(
                        format!("Delete scenario {}", s.name),
                        Edit::SetScenarios(list),
                    )
                    .into(),
                );
            }
        });
    }
    if let Some(why) = refused {
        cmds.push(UiCommand::Refuse(why.clone()).into());
        st.gpu_refusal = Some(why);
    }
    side_by_side_ui(ui, input, st);
}

fn unique_name(list: &[Scenario]) -> String {
    (1..)
        .map(|n| format!("Scenario {n}"))
        .find(|n| list.iter().all(|s| s.name != *n))
        .unwrap_or_default()
}

/// The chosen scenarios in columns, values that differ from the first column's highlighted.
fn side_by_side_ui(ui: &mut egui::Ui, input: &PlanningInputs<'_>, st: &mut PlanningWindow) {
    let shown: Vec<Scenario> = input
        .design
        .scenarios
        .iter()
        .filter(|s| !st.hidden.contains(&s.name))
        .cloned()
        .collect();
    if shown.len() < 2 {
        ui.label(RichText::new("Tick two or more scenarios to see them side by side.").weak());
        return;
    }
    let may_start = st.dragging.is_none();
    let updating = st.table.update(
        (input.revision, shown),
        input.design,
        input.catalog,
        ui.ctx(),
        may_start,
    );
    ui.horizontal(|ui| {
        ui.strong("Side by side");
        if updating {
            ui.spinner();
            ui.label(RichText::new("analysing…").weak());
        }
    });
    let results = &st.table.results;
    if results.is_empty() {
        return;
    }
    let highlight = theme::status(ui, Status::Short);
    egui::ScrollArea::horizontal()
        .id_salt("planning_table_scroll")
        .show(ui, |ui| {
            egui::Grid::new("planning_table")
                .striped(true)
                .num_columns(results.len() + 1)
                .show(ui, |ui| {
                    ui.label("");
                    for r in results {
                        ui.strong(&r.scenario.name);
                    }
                    ui.end_row();
                    for row in scenarios::table(results) {
                        if row.setting {
                            ui.label(&row.label);
                        } else {
                            ui.strong(&row.label);
                        }
                        for (v, differs) in row.values.iter().zip(&row.differs) {
                            if *differs {
                                ui.label(RichText::new(v).strong().color(highlight))
                                    .on_hover_text("differs from the first column");
                            } else {
                                ui.label(v);
                            }
                        }
                        ui.end_row();
                    }
                });
        });
    for r in results {
        if let Err(why) = &r.headline {
            ui.colored_label(
                theme::status(ui, Status::Bad),
                format!("{}: {why}", r.scenario.name),
            );
        }
    }
}

/// The window this file adds to the registry (src/app/windows/mod.rs lists the file; build.rs the window).
pub type Window = PlanningWindow;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every slider shows an extent inside its figure's range, and whatever is typed into it, however far out,
    /// is written as a value the file check accepts: the clamps read the same table as validation.
    #[test]
    fn sliders_hold_to_the_table_of_limits() {
        let p = Params {
            serving: Some(crate::model::Serving::default()),
            ..Params::default()
        };
        let specs = slider_specs(&p, None);
        assert_eq!(specs.len(), 9);
        for s in &specs {
            let range = s.figure.range().scaled(s.scale);
            assert!(
                range.holds(*s.range.start()) && range.holds(*s.range.end()),
                "{}: {:?} outside {}",
                s.label,
                s.range,
                range.describe()
            );
            for typed in [-1e300, 0.0, 1e300, f64::NAN] {
                let mut q = p.clone();
                (s.set)(&mut q, typed);
                let mut problems = Vec::new();
                crate::io::limits::check_params(&q, &mut problems);
                assert!(problems.is_empty(), "{} = {typed}: {problems:?}", s.label);
            }
        }
    }

    /// The parameter fields take their ranges from the table, never from numbers of their own.
    #[test]
    fn parameter_fields_read_the_table_of_limits() {
        let source = include_str!("../params.rs");
        let code = source.split("#[cfg(test)]").next().unwrap_or(source);
        let own: Vec<&str> = code
            .lines()
            .filter(|l| l.contains("..=") && !l.contains("F::"))
            .collect();
        assert!(own.is_empty(), "ranges of their own: {own:?}");
        assert_eq!(
            code.matches("num_field(").count(),
            code.matches("F::").count()
        );
    }
}
