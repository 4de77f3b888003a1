//! App state that is not the design: the open document with its history and revision counter, the analysis
//! state (current report, background job), and UI state (selection, view, drags, open windows). Selection, hover
//! and pan/zoom live here, never in the document or the undo history.

use crate::analysis::{self, Report, Stepwise};
use crate::edit::History;
use crate::model::{Design, DeviceId, LinkId, PartId, PortRef, RackId};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;
#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;
#[cfg(target_arch = "wasm32")]
use web_time::Instant;

/// What the last frame of the canvas drew (tests check culling and bundling with it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CanvasDrawn {
    /// Links drawn one by one.
    pub links: usize,
    /// Bundles drawn (each the links between a pair of racks, or inside one).
    pub bundles: usize,
}

/// The open design, its undo history and file.
pub struct Document {
    /// The design, shared with the analysis worker while it analyses this revision: an edit (`Arc::make_mut`)
    /// copies it only when the worker still holds it (the app withdraws a request not yet started first,
    /// [`AnalysisState::withdraw`]).
    pub design: Arc<Design>,
    /// Undo/redo stacks.
    pub history: History,
    /// The file it was loaded from or saved to.
    pub path: Option<PathBuf>,
    /// Bumps on every applied edit, undo, redo and open; the analysis keys on it.
    pub revision: u64,
    /// Revision at the last save or open.
    pub saved_revision: u64,
    /// The revision of the last change to what the canvas lays out (racks, devices, parts, links): edits of the
    /// parameters, sites, scenarios or the design's name leave it, so the canvas keeps its layout across them.
    pub layout_revision: u64,
    /// Counts the designs this document has held (open, new, sample, template): panes scrolled in one design start
    /// at the top in the next, so its headline is in view.
    pub generation: u64,
}

impl Document {
    /// A fresh document for a design (not dirty).
    pub fn new(design: Design, path: Option<PathBuf>) -> Self {
        Self {
            design: Arc::new(design),
            history: History::default(),
            path,
            revision: 1,
            saved_revision: 1,
            layout_revision: 1,
            generation: 0,
        }
    }

    /// Whether there are unsaved changes.
    pub fn is_dirty(&self) -> bool {
        self.revision != self.saved_revision
    }

    /// Replaces the document with one that exists in no file yet and that the user made (a template, a sized
    /// design, recovered work): unsaved until saved, so replacing it in turn asks first.
    pub fn replace_unsaved(&mut self, design: Design) {
        self.replace(design, None);
        self.saved_revision = self.revision.wrapping_sub(1);
    }

    /// Replaces the document (open/new): new revision so the analysis reruns, history cleared.
    pub fn replace(&mut self, design: Design, path: Option<PathBuf>) {
        self.design = Arc::new(design);
        self.path = path;
        self.history.clear();
        self.revision += 1;
        self.saved_revision = self.revision;
        self.layout_revision = self.revision;
        self.generation += 1;
    }

    /// File name for the title bar.
    pub fn display_name(&self) -> String {
        self.path.as_ref().and_then(|p| p.file_name()).map_or_else(
            || format!("{} (unsaved)", self.design.name),
            |n| n.to_string_lossy().into_owned(),
        )
    }

    /// Window title: file name and a bullet when unsaved.
    pub fn title(&self) -> String {
        let dot = if self.is_dirty() { " •" } else { "" };
        format!("{}{dot} — Racksmith", self.display_name())
    }
}

/// The current analysis and the worker computing the next one.
///
/// One worker thread analyses every design, whatever its size, so an edit never waits for the analysis: the UI
/// hands it the latest revision through a one-job slot (a newer request replaces one not yet started, so superseded
/// work is dropped unrun) and keeps showing the last report until the new one arrives; a report for a revision older
/// than the one shown is discarded. Tests may ask for inline analysis ([`AnalysisState::inline`]) so every frame
/// shows the report of the design it draws.
pub struct AnalysisState {
    /// The latest finished report.
    pub report: Option<Arc<Report>>,
    /// Document revision the report was computed for.
    pub report_revision: u64,
    /// Wall time of the last analysis run, milliseconds.
    pub last_ms: f64,
    /// The worker, started on the first request; None while analysing inline.
    worker: Option<Worker>,
    /// Whether to analyse on the UI thread instead (tests).
    inline: bool,
    /// The revision last handed to the worker.
    requested: u64,
    /// Without a worker (the browser), designs with more devices than this are analysed in slices across frames
    /// rather than in the frame that changed them; None analyses every design in one go.
    slice_above: Option<usize>,
    /// Time a frame may go on with further slices after its first one.
    slice_budget: Duration,
    /// The analysis being done in slices, with its revision and the milliseconds spent on it so far.
    slices: Option<(u64, Stepwise, f64)>,
}

/// Without a worker thread, a design with more devices than this is analysed in slices, a stage or more per frame,
/// so the page keeps drawing (the 1-SU sample, 50 devices, is analysed in the frame that changes it).
const SLICE_ABOVE_DEVICES: usize = 64;

/// Time a frame spends on further analysis slices after its first: half a 60 Hz frame.
const SLICE_BUDGET: Duration = Duration::from_millis(8);

impl Default for AnalysisState {
    fn default() -> Self {
        Self {
            report: None,
            report_revision: 0,
            last_ms: 0.0,
            worker: None,
            inline: false,
            requested: 0,
            slice_above: None,
            slice_budget: SLICE_BUDGET,
            slices: None,
        }
    }
}

/// The worker thread's side: the request slot, the finished report, and the condition variable both wait on.
#[derive(Default)]
struct Shared {
    slot: Mutex<Slot>,
    changed: Condvar,
}

#[derive(Default)]
struct Slot {
    /// The latest request not yet started.
    job: Option<Job>,
    /// The revision being analysed now.
    running: Option<u64>,
    /// The newest finished report: revision, report, milliseconds.
    done: Option<(u64, Report, f64)>,
    /// Set when the state is dropped: the worker stops after its current job.
    quit: bool,
}

struct Job {
    revision: u64,
    design: Arc<Design>,
    ctx: Option<egui::Context>,
}

struct Worker {
    shared: Arc<Shared>,
}

impl Worker {
    fn start() -> Option<Self> {
        let shared = Arc::new(Shared::default());
        let theirs = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("racksmith-analysis".into())
            .spawn(move || work(&theirs))
            .ok()?;
        Some(Self { shared })
    }

    fn lock(&self) -> MutexGuard<'_, Slot> {
        self.shared
            .slot
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.lock().quit = true;
        self.shared.changed.notify_all();
    }
}

/// The worker loop: take the latest request, analyse it, publish the report unless a newer one is already there.
fn work(shared: &Shared) {
    let lock = || {
        shared
            .slot
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    };
    loop {
        let job = {
            let mut slot = lock();
            loop {
                if slot.quit {
                    return;
                }
                if let Some(job) = slot.job.take() {
                    slot.running = Some(job.revision);
                    break job;
                }
                slot = shared
                    .changed
                    .wait(slot)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            }
        };
        let t = std::time::Instant::now();
        let report = analysis::analyze(&job.design);
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        {
            let mut slot = lock();
            slot.running = None;
            if slot.done.as_ref().is_none_or(|d| d.0 < job.revision) {
                slot.done = Some((job.revision, report, ms));
            }
        }
        shared.changed.notify_all();
        if let Some(ctx) = job.ctx {
            ctx.request_repaint();
        }
    }
}

impl AnalysisState {
    /// Analysis on the UI thread, each revision as it is asked for (tests, screenshots).
    pub fn inline() -> Self {
        Self {
            inline: true,
            ..Self::default()
        }
    }

    /// Whether the analysis runs on the UI thread (tests).
    pub fn is_inline(&self) -> bool {
        self.inline
    }

    /// Whether the shown report is older than the document.
    pub fn is_stale(&self, revision: u64) -> bool {
        self.report.is_none() || self.report_revision != revision
    }

    /// Takes a finished report from the worker if it is newer than the one shown.
    fn collect(&mut self) {
        let Some(w) = &self.worker else {
            return;
        };
        let done = w.lock().done.take();
        if let Some((rev, report, ms)) = done
            && (self.report.is_none() || rev > self.report_revision)
        {
            self.report = Some(Arc::new(report));
            self.report_revision = rev;
            self.last_ms = ms;
        }
    }

    /// Shows any finished report and asks for the document's revision if the shown one is older. Returns true
    /// while the report shown is not the document's.
    pub fn update(
        &mut self,
        design: &Arc<Design>,
        revision: u64,
        ctx: Option<&egui::Context>,
    ) -> bool {
        if self.inline {
            if self.is_stale(revision) {
                if self.slice_above.is_some_and(|n| design.devices.len() > n) {
                    return self.slice(design, revision, ctx);
                }
                let t = Instant::now();
                self.report = Some(Arc::new(analysis::analyze(design)));
                self.last_ms = t.elapsed().as_secs_f64() * 1000.0;
                self.report_revision = revision;
                self.slices = None;
            }
            return false;
        }
        self.collect();
        if !self.is_stale(revision) {
            return false;
        }
        if self.requested != revision {
            if self.worker.is_none() {
                self.worker = Worker::start();
            }
            let Some(w) = &self.worker else {
                // No thread could be started (the browser): analyse here rather than never, large designs in
                // slices across frames.
                self.inline = true;
                self.slice_above = Some(SLICE_ABOVE_DEVICES);
                return self.update(design, revision, ctx);
            };
            // The newest request replaces one not yet started.
            w.lock().job = Some(Job {
                revision,
                design: Arc::clone(design),
                ctx: ctx.cloned(),
            });
            w.shared.changed.notify_all();
            self.requested = revision;
        }
        true
    }

    /// Analysis on the UI thread in slices, as in the browser: designs with more than `above` devices take one
    /// stage in the frame after the edit (which shows the edit with the previous report marked stale) and in each
    /// frame after it, going on within a frame while `budget` lasts (tests use zero: one stage a frame).
    pub fn sliced(above: usize, budget: Duration) -> Self {
        Self {
            inline: true,
            slice_above: Some(above),
            slice_budget: budget,
            ..Self::default()
        }
    }

    /// One frame's share of a sliced analysis: starts the revision's analysis if it is new (computing nothing this
    /// frame, so the edit shows at once with the previous report marked stale, as the desktop's worker shows it),
    /// else runs a stage and more while the frame's budget lasts. Returns true while the report is not yet current.
    fn slice(&mut self, design: &Arc<Design>, revision: u64, ctx: Option<&egui::Context>) -> bool {
        let run = match &mut self.slices {
            Some((r, run, ms)) if *r == revision && Arc::ptr_eq(run.design(), design) => {
                Some((run, ms))
            }
            _ => None,
        };
        let Some((run, ms)) = run else {
            // A newer revision replaces an unfinished run: its stages were for a design no longer shown.
            self.slices = Some((revision, Stepwise::new(Arc::clone(design)), 0.0));
            if let Some(ctx) = ctx {
                ctx.request_repaint();
            }
            return true;
        };
        let t = Instant::now();
        let done = loop {
            if run.step() {
                break true;
            }
            if t.elapsed() >= self.slice_budget {
                break false;
            }
        };
        *ms += t.elapsed().as_secs_f64() * 1000.0;
        if done {
            let total = *ms;
            if let Some(report) = run.take() {
                self.report = Some(Arc::new(report));
                self.report_revision = revision;
                self.last_ms = total;
            }
            self.slices = None;
            return false;
        }
        if let Some(ctx) = ctx {
            ctx.request_repaint();
        }
        true
    }

    /// Stages of the sliced analysis done so far, if one is under way.
    pub fn slices_done(&self) -> Option<usize> {
        self.slices.as_ref().map(|(_, run, _)| run.stages_done())
    }

    /// Takes back a request the worker has not started, so that the document it shares can be edited in place
    /// rather than copied; the next [`AnalysisState::update`] asks for the new revision.
    pub fn withdraw(&mut self) {
        if let Some(w) = &self.worker
            && w.lock().job.take().is_some()
        {
            self.requested = 0;
        }
    }

    /// Blocks until the worker has nothing queued or running, then shows its report (tests, exports).
    pub fn wait(&mut self) {
        if let Some(w) = &self.worker {
            let mut slot = w.lock();
            while slot.job.is_some() || slot.running.is_some() {
                slot = w
                    .shared
                    .changed
                    .wait(slot)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            }
        }
        self.collect();
    }
}

#[cfg(test)]
mod worker_tests {
    use super::*;

    fn design_with_racks(n: usize) -> Design {
        let mut d = Design::default();
        for i in 0..n {
            let id = RackId(d.alloc_id());
            d.racks.insert(
                id,
                crate::model::Rack {
                    name: format!("R{i:02}"),
                    slot: i as u16,
                    ..Default::default()
                },
            );
        }
        d
    }

    #[test]
    fn the_worker_shows_the_latest_revision_and_drops_superseded_ones() {
        let mut a = AnalysisState::default();
        // Three revisions asked for in a row: the worker may start the first, but the second is replaced by the
        // third before it starts, and whatever finishes, the state ends on revision 3.
        for rev in 1..=3u64 {
            assert!(a.update(&Arc::new(design_with_racks(rev as usize)), rev, None));
        }
        a.wait();
        assert_eq!(a.report_revision, 3);
        assert_eq!(a.report.as_ref().map(|r| r.summary.racks), Some(3));
        assert!(!a.update(&Arc::new(design_with_racks(3)), 3, None));
        assert!(a.worker.as_ref().is_some_and(|w| {
            let slot = w.lock();
            slot.job.is_none() && slot.running.is_none()
        }));
        // A late report of an older revision is never shown over a newer one.
        a.report_revision = 5;
        if let Some(w) = &a.worker {
            w.lock().done = Some((4, analysis::analyze(&design_with_racks(4)), 0.0));
        }
        a.collect();
        assert_eq!(a.report_revision, 5);
    }

    /// The browser's way: a large design's analysis is spread over frames, one stage a frame with no time budget,
    /// the first frame showing the edit with the previous report; the report it ends with is the whole analysis's.
    #[test]
    fn a_sliced_analysis_spreads_over_frames_and_ends_with_the_same_report() {
        let mut a = AnalysisState::sliced(2, Duration::ZERO);
        // Small designs (up to the threshold) are analysed in the frame that changed them.
        assert!(!a.update(&Arc::new(design_with_racks(1)), 1, None));
        assert_eq!(a.report_revision, 1);
        let design = Arc::new(crate::samples::default_design());
        assert!(design.devices.len() > 2);
        // Frame 1 starts the run and computes nothing; each frame after it runs one of the stages.
        assert!(a.update(&design, 2, None));
        assert_eq!(a.slices_done(), Some(0));
        assert_eq!(
            a.report_revision, 1,
            "the previous report stays, marked stale"
        );
        for stage in 1..Stepwise::STAGES {
            assert!(a.update(&design, 2, None));
            assert_eq!(a.slices_done(), Some(stage));
            assert!(a.is_stale(2));
        }
        assert!(!a.update(&design, 2, None));
        assert_eq!(a.slices_done(), None);
        assert_eq!(a.report_revision, 2);
        let sliced = serde_json::to_string(a.report.as_deref().unwrap()).unwrap();
        let whole = serde_json::to_string(&analysis::analyze(&design)).unwrap();
        assert_eq!(sliced, whole);
        // An edit during a run restarts it on the new revision.
        let edited = Arc::new(crate::samples::default_design());
        assert!(a.update(&edited, 3, None));
        assert!(a.update(&edited, 3, None));
        assert_eq!(a.slices_done(), Some(1));
        let newer = Arc::new(crate::samples::default_design());
        assert!(a.update(&newer, 4, None));
        assert_eq!(a.slices_done(), Some(0));
        // With a budget, a frame goes on while time lasts: a generous one finishes in the frame after the edit.
        let mut b = AnalysisState::sliced(2, Duration::from_secs(600));
        assert!(b.update(&design, 1, None));
        assert!(!b.update(&design, 1, None));
        assert_eq!(b.report_revision, 1);
        assert!(b.last_ms > 0.0);
    }

    #[test]
    fn inline_analysis_is_current_after_every_update() {
        let mut a = AnalysisState::inline();
        assert!(!a.update(&Arc::new(design_with_racks(2)), 7, None));
        assert_eq!(a.report_revision, 7);
        assert_eq!(a.report.as_ref().map(|r| r.summary.racks), Some(2));
        assert!(a.worker.is_none());
    }
}

/// Pan and zoom of the canvas: `pos_in_screen = canvas_origin_in_screen + offset + pos_in_canvas * zoom`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View {
    /// Translation from the canvas panel's top-left, points.
    pub offset: egui::Vec2,
    /// Scale.
    pub zoom: f32,
    /// Fit to this target on the next frame.
    pub fit: Option<FitTarget>,
    /// Whether the view still shows what the last fit framed (no pan or zoom since): such a view fits again
    /// when the canvas changes size ("Both" view, a collapsed pane, a resized window).
    pub fitted: Option<FitTarget>,
}

impl Default for View {
    fn default() -> Self {
        Self {
            offset: egui::vec2(20.0, 20.0),
            zoom: 1.0,
            fit: Some(FitTarget::All),
            fitted: None,
        }
    }
}

/// A drag in progress on the canvas; previews only, commits one edit when it ends.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum CanvasDrag {
    /// No drag.
    #[default]
    None,
    /// Panning the view.
    Pan,
    /// Rubber-band selection from a point in screen space.
    BoxSelect {
        /// Where the drag started, screen space.
        start_in_screen: egui::Pos2,
    },
    /// Moving a device; `grab_u` is how many units above its bottom it was grabbed.
    MoveDevice {
        /// The device.
        device: DeviceId,
        /// Grab offset in rack units from the device's lowest unit.
        grab_u: f32,
    },
}

/// A port dropped on a device and cabled to its first compatible free port; the other compatible ports at the
/// time of the drop, in port order, for changing it.
#[derive(Debug, Clone, PartialEq)]
pub struct CableChoice {
    /// The dragged port.
    pub from: PortRef,
    /// The device it was dropped on.
    pub device: DeviceId,
    /// Names of the device's ports that could take the cable, the first one taken.
    pub ports: Vec<String>,
}

/// Payload of a drag from the parts palette.
#[derive(Debug, Clone, PartialEq)]
pub struct PartDrag(pub PartId);

/// Drag-and-drop payload: a free port being cabled (from the inspector's port list to a device on the canvas).
#[derive(Debug, Clone)]
pub struct PortDrag(pub crate::model::PortRef);

/// An action waiting for the user to confirm discarding unsaved changes.
#[derive(Debug, Clone, PartialEq)]
pub enum Pending {
    /// A new empty design.
    New,
    /// Open a file (None: ask with a dialog).
    Open(Option<PathBuf>),
    /// Open a built-in sample.
    OpenSample(String),
    /// A design from a template and its options.
    Template(String, Vec<(String, String)>),
    /// Quit the app.
    Quit,
    /// A design made by sizing from a requirement.
    Sized(Box<crate::model::Design>),
    /// Work recovered from an autosave.
    Recover(Box<crate::model::Design>),
    /// Any other design that replaces the open one (a scenario library, an import), with the words for the
    /// prompt ("open the scenario X") and the status line once done.
    Replace(Box<crate::model::Design>, String),
}

/// UI-only state.
#[derive(Default)]
pub struct UiState {
    /// Selection.
    pub selection: Selection,
    /// The New from template dialog, when open.
    pub template_dialog: Option<super::templates::TemplateDialog>,
    /// Canvas view.
    pub view: View,
    /// Canvas drag in progress.
    pub drag: CanvasDrag,
    /// Palette search text.
    pub search: String,
    /// Port picked as the first end of a new link.
    pub connect_from: Option<PortRef>,
    /// Device whose ports are offered as the second end.
    pub connect_target: Option<DeviceId>,
    /// A cable just made by dropping a port on a device (to its first compatible free port): the inspector shows
    /// the port taken and offers the others.
    pub cable_choice: Option<CableChoice>,
    /// Server whose internals window is open.
    pub server_window: Option<DeviceId>,
    /// The help window's page, when it is open.
    pub help: Option<HelpPage>,
    /// Whether the parameters window is open.
    pub show_params: bool,
    /// Whether the sites window is open.
    pub show_sites: bool,
    /// The name typed for a new site.
    pub new_site_name: String,
    /// Whether link lines are drawn.
    pub hide_links: bool,
    /// What the canvas drew in its last frame.
    pub canvas_drawn: CanvasDrawn,
    /// Traffic pattern whose loads colour the links and whose bottleneck the headline shows.
    pub load_pattern: crate::analysis::pattern::Pattern,
    /// An error to show in a window (e.g. a file that did not load).
    pub error: Option<String>,
    /// Last status message for the status bar.
    pub status: String,
    /// Whether the status message is a refusal.
    pub status_is_error: bool,
    /// Whether the status message is a warning (done, but over a limit).
    pub status_is_warning: bool,
    /// An action waiting for "discard unsaved changes?".
    pub pending: Option<Pending>,
    /// "Delete 1 rack with 16 devices and 504 cables?" waiting for an answer.
    pub confirm_delete: Option<String>,
    /// The action "Save first" chose: run once the save succeeds, dropped when it is cancelled or fails.
    pub after_save: Option<Pending>,
    /// Recently opened files, newest first.
    pub recent: Vec<PathBuf>,
    /// Text of number fields being edited, by field key.
    pub field_buffers: HashMap<String, String>,
    /// Device-name field being edited.
    pub name_buffer: Option<(String, String)>,
    /// Autosaves of instances that did not exit cleanly, offered to the user at start.
    pub recovery_offer: Vec<crate::io::recovery::Orphan>,
    /// Hide hover tooltips on the canvas (screenshots, where the pointer rests at random).
    pub no_tooltips: bool,
    /// Where the canvas was drawn last frame, screen space.
    pub canvas_rect: Option<egui::Rect>,
    /// The central area (between the palette and the inspector) last frame, screen space: windows open over it.
    pub central_rect: Option<egui::Rect>,
    /// Whether the inspector and analysis pane is collapsed to give the canvas the width.
    pub right_collapsed: bool,
    /// Which face of the racks the canvas shows.
    pub rack_face: RackFace,
    /// Which views the central area shows.
    pub view_mode: ViewMode,
    /// The open design compared with another, when the comparison window is open.
    pub comparison: Option<CompareState>,
    /// The in-app file dialog, when no native one could be shown.
    pub file_dialog: Option<super::dialogs::InAppDialog>,
    /// A save onto an existing file waiting for "Replace it?".
    pub overwrite: Option<super::dialogs::OverwritePrompt>,
    /// A save or export onto a read-only file waiting for "Replace it anyway?".
    pub read_only: Option<ReadOnlyPrompt>,
    /// Folder of the last export (remembered across runs); export dialogs start there.
    pub export_dir: Option<PathBuf>,
    /// A review note being typed: whose it is and the text so far. Committed as one edit when the field loses
    /// focus or on Ctrl+Enter.
    pub notes_buffer: Option<(NoteTarget, String)>,
    /// Devices copied with Ctrl+C, with the specs of the parts they use (so they paste into another design too).
    pub clipboard: Option<(
        Vec<crate::model::Device>,
        std::collections::BTreeMap<crate::model::PartId, crate::catalog::Part>,
    )>,
    /// Where the fabric view was drawn last frame, screen space.
    pub fabric_rect: Option<egui::Rect>,
    /// The Planning window (View > Planning): open or not, the scenario name typed, the side-by-side table.
    pub planning: super::planning::PlanningState,
    /// The failure what-ifs window: open or not, the N-1 sweep or single what-if running, the last result.
    pub whatif: super::whatif::WhatIfState,
}

pub use super::dialogs::{HeldWrite, ReadOnlyPrompt};
pub use super::selection::{FitTarget, Selection};

/// What a review note belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NoteTarget {
    /// The design itself.
    Design,
    /// A rack.
    Rack(RackId),
    /// A device.
    Device(DeviceId),
    /// A link.
    Link(LinkId),
}

/// The comparison window's content: the figures, and both designs with their reports for exporting it.
#[derive(Debug, Clone)]
pub struct CompareState {
    /// The figures side by side.
    pub comparison: crate::analysis::compare::Comparison,
    /// Design A (the open design when the comparison was made).
    pub a_design: Design,
    /// A's report.
    pub a_report: Arc<Report>,
    /// Design B.
    pub b_design: Design,
    /// B's report.
    pub b_report: Arc<Report>,
}

impl CompareState {
    /// Swaps A and B, figures and designs.
    pub fn swap(&mut self) {
        let c = &mut self.comparison;
        std::mem::swap(&mut c.a, &mut c.b);
        std::mem::swap(&mut c.bottleneck_a, &mut c.bottleneck_b);
        for r in &mut c.rows {
            std::mem::swap(&mut r.a, &mut r.b);
            r.difference = -r.difference;
            r.ratio = (r.a != 0.0).then(|| r.b / r.a);
        }
        std::mem::swap(&mut self.a_design, &mut self.b_design);
        std::mem::swap(&mut self.a_report, &mut self.b_report);
    }
}

/// Which face of the racks the canvas shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RackFace {
    /// The front: GPU count, ports and power of each device.
    #[default]
    Front,
    /// The rear, where cables land: every port, cabled or free.
    Rear,
}

/// A page of the help window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HelpPage {
    /// What to drag where, how to cable, how to read the analysis pane.
    GettingStarted,
    /// The keyboard and mouse shortcuts.
    Shortcuts,
}

/// The central area's views.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ViewMode {
    /// Rack elevations only.
    #[default]
    Racks,
    /// The logical fabric in tiers only.
    Fabric,
    /// Both, side by side.
    Both,
}

impl UiState {
    /// Sets the status line.
    pub fn info(&mut self, msg: impl Into<String>) {
        self.status = msg.into();
        self.status_is_error = false;
        self.status_is_warning = false;
    }

    /// Sets the status line to a warning: what was asked is done, but something is over a limit.
    pub fn warn(&mut self, msg: impl Into<String>) {
        self.status = msg.into();
        self.status_is_error = false;
        self.status_is_warning = true;
    }

    /// Sets the status line to a refusal.
    pub fn refuse(&mut self, msg: impl Into<String>) {
        self.status = msg.into();
        self.status_is_error = true;
        self.status_is_warning = false;
    }

    /// Remembers a file in the recent list.
    pub fn push_recent(&mut self, path: PathBuf) {
        self.recent.retain(|p| p != &path);
        self.recent.insert(0, path);
        self.recent.truncate(10);
    }
}
