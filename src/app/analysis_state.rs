//! The analysis of the open design as the app holds it: the report shown, and the worker thread (or, in the
//! browser, the slices across frames) computing the next one, so an edit never waits for the analysis.

use crate::analysis::{self, Report, Stepwise};
use crate::model::Design;
use std::sync::Arc;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;
#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;
#[cfg(target_arch = "wasm32")]
use web_time::Instant;

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
        // The analysis is shown as soon as it is done; the single failures are ranked after it, still off the UI
        // thread, and the ranked report replaces it unless a newer edit is waiting (the card reads "ranking…"
        // meanwhile). So the ranking never delays the figures.
        let ranked = {
            let mut slot = lock();
            slot.running = None;
            if slot.done.as_ref().is_none_or(|d| d.0 < job.revision) {
                slot.done = Some((job.revision, report.clone(), ms));
            }
            slot.job.is_none()
        };
        shared.changed.notify_all();
        if let Some(ctx) = &job.ctx {
            ctx.request_repaint();
        }
        if ranked {
            let mut report = report;
            analysis::with_single_failures(&job.design, &mut report);
            let mut slot = lock();
            if slot.job.is_none() && slot.done.as_ref().is_none_or(|d| d.0 <= job.revision) {
                slot.done = Some((job.revision, report, ms));
            }
            drop(slot);
            shared.changed.notify_all();
            if let Some(ctx) = &job.ctx {
                ctx.request_repaint();
            }
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
        // A newer revision, or the same one with its single failures ranked.
        let ranks = |r: &Report| r.single_failures.is_some();
        if let Some((rev, report, ms)) = done
            && (self.report.is_none()
                || rev > self.report_revision
                || (rev == self.report_revision
                    && ranks(&report)
                    && !self.report.as_deref().is_some_and(ranks)))
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
                self.report = Some(Arc::new(analysis::analyze_ranked(design)));
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
            if let Some(mut report) = run.take() {
                analysis::with_single_failures(design, &mut report);
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
    use crate::model::RackId;

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
        let whole = serde_json::to_string(&analysis::analyze_ranked(&design)).unwrap();
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
