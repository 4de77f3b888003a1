//! The failure what-ifs window (View > Failure what-ifs…): the N-1 sweep (every switch, cable, storage appliance
//! and rack feed ranked by what its loss costs, `analysis::whatif::sweep_with`) and the impact of losing the
//! selected device or cable, both run off the UI thread with a progress bar and a Cancel button. Each row selects
//! the part it is about. With a training job, the job's failure levers too (faster storage, spares, per-replica
//! recovery: [`reliability_levers_ui`], which the analysis pane's "Failures and checkpoints" section shows alike).

use crate::analysis::Report;
use crate::analysis::whatif::{self, Failure, Impact};
use crate::app::commands::{AppCommand, Show, UiCommand};
use crate::app::selection::{FitTarget, Selection};
use crate::app::window::{AppWindow, WindowContext, egui_id};
use crate::model::Design;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError};

/// What the window keeps between frames (UI state: never saved, never undone).
#[derive(Default)]
pub struct WhatIfWindow {
    /// Whether the window is open.
    pub open: bool,
    /// A single failure asked for from the inspector ("What if it fails?"), started on the next frame.
    pub requested: Option<Failure>,
    job: Option<Job>,
    outcome: Option<Outcome>,
}

/// A what-if running on its own thread.
struct Job {
    what: Asked,
    revision: u64,
    progress: Arc<Progress>,
    rx: Receiver<Option<Vec<Impact>>>,
}

/// Candidates done and in all, and whether the user cancelled; shared with the job's thread.
#[derive(Default)]
struct Progress {
    done: AtomicUsize,
    total: AtomicUsize,
    cancel: AtomicBool,
}

/// What was asked.
#[derive(Debug, Clone, PartialEq)]
enum Asked {
    Sweep,
    One(Failure),
}

/// A finished what-if.
pub struct Outcome {
    what: Asked,
    /// The document revision it was computed for.
    pub revision: u64,
    /// The impacts, worst first (a single failure: its one impact); None when cancelled.
    pub impacts: Option<Vec<Impact>>,
}

impl WhatIfWindow {
    /// Starts the N-1 sweep of `design` (analysed as `before`), cancelling a job still running.
    pub fn start_sweep(
        &mut self,
        design: &Arc<Design>,
        before: Arc<Report>,
        revision: u64,
        ctx: &egui::Context,
    ) {
        self.start(Asked::Sweep, design, before, revision, ctx);
    }

    /// Starts the impact of one failure.
    pub fn start_one(
        &mut self,
        design: &Arc<Design>,
        before: Arc<Report>,
        revision: u64,
        failure: Failure,
        ctx: &egui::Context,
    ) {
        self.start(Asked::One(failure), design, before, revision, ctx);
    }

    fn start(
        &mut self,
        what: Asked,
        design: &Arc<Design>,
        before: Arc<Report>,
        revision: u64,
        ctx: &egui::Context,
    ) {
        self.cancel();
        let (tx, rx) = std::sync::mpsc::channel();
        let progress = Arc::new(Progress::default());
        // The document's design is shared, not copied: an edit meanwhile copies it on write instead.
        let (design, p, ctx, asked) = (design.clone(), progress.clone(), ctx.clone(), what.clone());
        crate::app::background::spawn(move || {
            let result = match asked {
                Asked::Sweep => whatif::sweep_with(&design, &before, &|done, total| {
                    p.done.store(done, Ordering::Relaxed);
                    p.total.store(total, Ordering::Relaxed);
                    ctx.request_repaint();
                    !p.cancel.load(Ordering::Relaxed)
                }),
                Asked::One(f) => Some(vec![whatif::impact(&design, &before, f)]),
            };
            let _ = tx.send(result);
            ctx.request_repaint();
        });
        self.job = Some(Job {
            what,
            revision,
            progress,
            rx,
        });
    }

    /// Asks the running job to stop; the sweep stops after the candidates already being analysed.
    pub fn cancel(&mut self) {
        if let Some(job) = &self.job {
            job.progress.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Whether a job is running.
    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    /// Takes a finished job's result; true while one is still running.
    fn poll(&mut self) -> bool {
        let Some(job) = &self.job else {
            return false;
        };
        match job.rx.try_recv() {
            Ok(impacts) => self.finish(impacts),
            Err(TryRecvError::Empty) => return true,
            Err(TryRecvError::Disconnected) => self.finish(None),
        }
        false
    }

    /// Keeps a job's result; a job cancelled before its result was taken counts as cancelled even when its thread
    /// had finished (what the user asked for is what they see).
    fn finish(&mut self, impacts: Option<Vec<Impact>>) {
        if let Some(job) = self.job.take() {
            let cancelled = job.progress.cancel.load(Ordering::Relaxed);
            self.outcome = Some(Outcome {
                what: job.what,
                revision: job.revision,
                impacts: impacts.filter(|_| !cancelled),
            });
        }
    }

    /// Blocks until the running job (if any) finishes (tests and screenshots).
    pub fn wait(&mut self) {
        if let Some(job) = &self.job {
            let r = job.rx.recv().ok().flatten();
            self.finish(r);
        }
    }

    /// The last finished what-if.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
}

/// What the window reads from the app.
pub struct WhatIfInputs<'a> {
    /// The open design.
    pub design: &'a Arc<Design>,
    /// The document's revision: a result for an older revision is marked out of date.
    pub revision: u64,
    /// Its analysis, when it is up to date (a what-if compares against it).
    pub report: Option<Arc<Report>>,
}

impl WhatIfWindow {
    const ID: &'static str = "whatif";
    const TITLE: &'static str = "Failure what-ifs";
}

impl AppWindow for WhatIfWindow {
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
        let Show::WhatIf(failure) = show else {
            return false;
        };
        if failure.is_some() {
            self.requested = failure.clone();
        }
        self.open = true;
        true
    }

    fn is_showing(&self, show: &Show) -> bool {
        matches!(show, Show::WhatIf(_)) && self.open
    }

    fn close(&mut self) {
        self.cancel();
        self.open = false;
    }

    fn ui(&mut self, egui_ctx: &egui::Context, ctx: &WindowContext, cmds: &mut Vec<AppCommand>) {
        let input = WhatIfInputs {
            design: ctx.design,
            revision: ctx.revision,
            report: ctx.fresh_report(),
        };
        whatif_window_ui(
            egui_ctx,
            &input,
            self,
            (ctx.selection, ctx.central_rect),
            cmds,
        );
    }
}

/// The window, when open.
fn whatif_window_ui(
    ctx: &egui::Context,
    input: &WhatIfInputs<'_>,
    st: &mut WhatIfWindow,
    (selection, central_rect): (&Selection, Option<egui::Rect>),
    cmds: &mut Vec<AppCommand>,
) {
    let running = st.poll();
    if let (Some(f), Some(report)) = (st.requested.clone(), input.report.clone()) {
        st.requested = None;
        st.start_one(input.design, report, input.revision, f, ctx);
    }
    if running {
        ctx.request_repaint_after(std::time::Duration::from_millis(100));
    }
    if !st.open {
        return;
    }
    let mut open = true;
    let window = egui::Window::new(WhatIfWindow::TITLE)
        .id(egui_id(WhatIfWindow::ID))
        .open(&mut open)
        .default_width(620.0)
        .vscroll(true);
    crate::app::widgets::placed(
        window,
        central_rect,
        crate::app::widgets::WindowSpot::TopRight,
    )
    .show(ctx, |ui| whatif_ui(ui, input, st, selection, cmds));
    if !open {
        st.cancel();
        st.open = false;
    }
}

fn whatif_ui(
    ui: &mut egui::Ui,
    input: &WhatIfInputs<'_>,
    st: &mut WhatIfWindow,
    selection: &Selection,
    cmds: &mut Vec<AppCommand>,
) {
    ui.label(
        "What one failure does to the design: every switch, cable, storage appliance and rack feed ranked by what \
         its loss costs (the N-1 sweep: GPUs cut off, storage, replicas, network per GPU, bisection; one pass over \
         the design, then the worst analysed in full without the part), or what losing the selected device or \
         cable costs.",
    );
    ui.add_space(4.0);
    let selected = single_failure(selection);
    ui.horizontal(|ui| {
        let ready = input.report.is_some() && !st.running();
        let sweep = ui
            .add_enabled(ready, egui::Button::new("Run N-1 sweep"))
            .on_hover_text(format!(
                "Every switch, cable, storage appliance and rack feed whose loss costs something, worst first (the \
                 worst {} at most analysed in full, the others estimated)",
                whatif::SWEEP_LIMIT
            ))
            .on_disabled_hover_text("Waits for the analysis of the current design");
        if sweep.clicked()
            && let Some(r) = input.report.clone()
        {
            st.start_sweep(input.design, r, input.revision, ui.ctx());
        }
        let one = ui
            .add_enabled(
                ready && selected.is_some(),
                egui::Button::new("What if the selection fails?"),
            )
            .on_hover_text(
                "The impact of losing the one device or cable selected (a rack: one of its two power feeds)",
            )
            .on_disabled_hover_text("Select one device, cable or rack on the canvas");
        if one.clicked()
            && let (Some(f), Some(r)) = (selected, input.report.clone())
        {
            st.start_one(input.design, r, input.revision, f, ui.ctx());
        }
    });
    if st.job.as_ref().is_some_and(|job| progress_ui(ui, job)) {
        st.cancel();
    }
    if let Some(o) = &st.outcome {
        ui.separator();
        outcome_ui(ui, o, input.revision, cmds);
    }
    if let Some(rel) = input.report.as_ref().and_then(|r| r.reliability.as_ref()) {
        ui.separator();
        ui.label(egui::RichText::new("The training job's failures").strong());
        ui.label(format!(
            "{:.2} interruptions a day (one every {:.1} h); goodput {} as drawn.",
            rel.interruptions_per_day,
            rel.mtbi_h,
            rel.goodput
                .map_or("-".to_string(), |g| format!("{:.1}%", g * 100.0))
        ));
        reliability_levers_ui(ui, rel);
    }
}

/// What-ifs on a training job's failures: storage written faster, another restart time, more spare servers,
/// per-replica recovery. The goodput and days follow by the analysis's own computation
/// (`ReliabilityReport::what_if`), with no new analysis. The levers are UI state (egui memory, one set per report's
/// restart and spares), never the design's, and the same set in the analysis pane and this window, so both show
/// the same figures.
pub(crate) fn reliability_levers_ui(
    ui: &mut egui::Ui,
    rel: &crate::analysis::reliability::ReliabilityReport,
) {
    use crate::analysis::reliability::Levers;
    if rel.checkpoint_write_s.is_none() {
        return;
    }
    let id = egui::Id::unique((
        "reliability_levers",
        rel.restart_s.to_bits(),
        rel.spare_servers,
    ));
    let mut levers = ui.data_mut(|d| *d.get_temp_mut_or(id, Levers::of(rel)));
    ui.add_space(4.0);
    ui.label(egui::RichText::new("What if").strong());
    egui::Grid::new("reliability_levers")
        .num_columns(2)
        .show(ui, |ui| {
            let name = ui.label("storage speed");
            ui.add(
                egui::Slider::new(&mut levers.storage_speedup, 0.25..=16.0)
                    .logarithmic(true)
                    .suffix("x"),
            )
            .labelled_by(name.id);
            ui.end_row();
            let name = ui.label("restart");
            ui.add(
                egui::Slider::new(&mut levers.restart_s, 30.0..=3600.0)
                    .logarithmic(true)
                    .suffix(" s"),
            )
            .labelled_by(name.id);
            ui.end_row();
            ui.label("");
            ui.checkbox(&mut levers.per_replica, "per-replica recovery")
                .on_hover_text(
                    "Only the failed replica restarts: Meta's FT-HSDP cut the stall from 10 to 3 minutes, so a \
                     restart costs 0.3 of its time",
                );
            ui.end_row();
            let name = ui.label("spare servers");
            ui.add(egui::Slider::new(&mut levers.spares, 0..=spares_extent(rel)))
                .labelled_by(name.id)
                .on_hover_text(format!(
                    "Hot spares held: with one ready a failed server is swapped within the restart; without, the \
                     job waits {:.0} h for the repair",
                    rel.repair_s / 3600.0
                ));
            ui.end_row();
        });
    ui.data_mut(|d| d.insert_temp(id, levers));
    if let Some((g, days)) = rel.what_if(levers) {
        ui.label(format!(
            "goodput {:.1}% ({:+.1} points), {days:.2} days with failures",
            g * 100.0,
            (g - rel.goodput.unwrap_or(g)) * 100.0
        ));
    }
}

/// The most spares the slider offers: enough for four times the servers out for repair at once on average, and at
/// least 8 and the design's own.
fn spares_extent(rel: &crate::analysis::reliability::ReliabilityReport) -> u64 {
    let out = rel.replacements_per_day * rel.repair_s / 86_400.0;
    ((4.0 * out).ceil() as u64).max(8).max(rel.spare_servers)
}

/// The failure the selection stands for: one device or one cable failing, or one rack losing a feed.
fn single_failure(sel: &Selection) -> Option<Failure> {
    match (sel.devices.len(), sel.links.len(), sel.racks.len()) {
        (1, 0, 0) => sel.devices.first().map(|d| Failure::Device(*d)),
        (0, 1, 0) => sel.links.first().map(|l| Failure::Link(*l)),
        (0, 0, 1) => sel.racks.first().map(|r| Failure::Feed(*r)),
        _ => None,
    }
}

/// The job's progress bar and its Cancel button; true when Cancel was clicked.
fn progress_ui(ui: &mut egui::Ui, job: &Job) -> bool {
    let done = job.progress.done.load(Ordering::Relaxed);
    let total = job.progress.total.load(Ordering::Relaxed);
    let cancelling = job.progress.cancel.load(Ordering::Relaxed);
    ui.horizontal(|ui| {
        let (fraction, text) = match &job.what {
            Asked::Sweep if total > 0 => (
                done as f32 / total as f32,
                format!("{done} of {total} candidates"),
            ),
            Asked::Sweep => (0.0, "finding the candidates…".to_string()),
            Asked::One(_) => (0.0, "analysing the design without the part…".to_string()),
        };
        ui.add(
            egui::ProgressBar::new(fraction)
                .desired_width(320.0)
                .text(if cancelling {
                    "cancelling…".to_string()
                } else {
                    text
                })
                .animate(true),
        );
        ui.add_enabled(!cancelling, egui::Button::new("Cancel"))
            .on_hover_text("Stop; the candidates already being analysed finish first")
            .clicked()
    })
    .inner
}

fn outcome_ui(ui: &mut egui::Ui, o: &Outcome, revision: u64, cmds: &mut Vec<AppCommand>) {
    if o.revision != revision {
        ui.colored_label(
            crate::app::theme::status_color(
                crate::app::theme::Status::Short,
                ui.visuals().dark_mode,
            ),
            "The design has changed since: run it again for the current design.",
        );
    }
    let Some(impacts) = &o.impacts else {
        ui.label("Cancelled.");
        return;
    };
    match (&o.what, impacts.len()) {
        (Asked::Sweep, 0) => {
            ui.label("No single switch, cable, storage appliance or rack feed loses anything.");
            return;
        }
        (Asked::Sweep, _) => {
            let n = impacts.iter().map(|i| 1 + i.alike.len()).sum::<usize>();
            ui.strong(format!(
                "{} {} something, worst first (\"est.\": one-pass estimate, not analysed in full):",
                crate::analysis::format::count(n, "single failure", "single failures"),
                if n == 1 { "loses" } else { "lose" }
            ));
        }
        (Asked::One(_), _) => {
            ui.strong("If it fails:");
        }
    }
    egui::Grid::new("whatif_grid")
        .striped(true)
        .num_columns(6)
        .show(ui, |ui| {
            for h in [
                "Part",
                "GPUs reachable",
                "Bisection",
                "Network / GPU",
                "Reaching storage",
                "",
            ] {
                ui.strong(h);
            }
            ui.end_row();
            for i in impacts {
                impact_row(ui, i, cmds);
            }
        });
}

fn impact_row(ui: &mut egui::Ui, i: &Impact, cmds: &mut Vec<AppCommand>) {
    let lost = |(a, b): (usize, usize)| b < a;
    let bad =
        crate::app::theme::status_color(crate::app::theme::Status::Bad, ui.visuals().dark_mode);
    let pair = |ui: &mut egui::Ui, text: String, worse: bool| {
        if worse {
            ui.colored_label(bad, text);
        } else {
            ui.label(text);
        }
    };
    let est = if i.estimated { " (est.)" } else { "" };
    if i.alike.is_empty() {
        ui.label(format!("{}{est}", i.what));
    } else {
        ui.label(format!("{} and {} more like it{est}", i.what, i.alike.len()))
            .on_hover_text(
                "Parts the fabric's symmetry swaps with this one: each fails the same way (analysed once)",
            );
    }
    let (a, b) = i.gpus_reachable;
    pair(ui, format!("{a} -> {b}"), lost(i.gpus_reachable));
    let (a, b) = i.bisection_gbps;
    pair(ui, format!("{a:.0} -> {b:.0} Gb/s"), b + 1e-9 < a);
    let (a, b) = i.inter_node_gbyte_s;
    let slowed = if i.gpus_slowed > 0 {
        format!(" ({} GPUs)", i.gpus_slowed)
    } else {
        String::new()
    };
    pair(ui, format!("{a:.1} -> {b:.1} GB/s{slowed}"), b + 1e-9 < a);
    let (a, b) = i.gpus_reaching_storage;
    pair(ui, format!("{a} -> {b}"), lost(i.gpus_reaching_storage));
    if ui
        .small_button("Show")
        .on_hover_text("Select the part (and those like it) on the canvas")
        .clicked()
    {
        let mut sel = Selection::default();
        for f in std::iter::once(&i.failure).chain(&i.alike) {
            match f {
                Failure::Device(d) => {
                    sel.devices.insert(*d);
                }
                Failure::Link(l) => {
                    sel.links.insert(*l);
                }
                Failure::Feed(r) => {
                    sel.racks.insert(*r);
                }
                Failure::Site(_) => {}
            }
        }
        if !sel.is_empty() {
            cmds.push(UiCommand::Select(sel).into());
            cmds.push(UiCommand::Fit(FitTarget::Selection).into());
        }
    }
    ui.end_row();
}

/// The window this file adds to the registry (src/app/windows/mod.rs lists the file; build.rs the window).
pub type Window = WhatIfWindow;
