//! App state that is not the design: the open document with its history and revision counter, the analysis
//! state (current report, background job), and UI state (selection, view, drags, open windows). Selection, hover
//! and pan/zoom live here, never in the document or the undo history.

use crate::analysis::{self, Report};
use crate::edit::History;
use crate::model::{Design, DeviceId, LinkId, PartId, PortRef, RackId};
use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError};

/// Designs with more devices than this are analysed on a background thread.
pub const BACKGROUND_ANALYSIS_DEVICES: usize = 120;

/// The open design, its undo history and file.
pub struct Document {
    /// The design.
    pub design: Design,
    /// Undo/redo stacks.
    pub history: History,
    /// The file it was loaded from or saved to.
    pub path: Option<PathBuf>,
    /// Bumps on every applied edit, undo, redo and open; the analysis keys on it.
    pub revision: u64,
    /// Revision at the last save or open.
    pub saved_revision: u64,
}

impl Document {
    /// A fresh document for a design (not dirty).
    pub fn new(design: Design, path: Option<PathBuf>) -> Self {
        Self {
            design,
            history: History::default(),
            path,
            revision: 1,
            saved_revision: 1,
        }
    }

    /// Whether there are unsaved changes.
    pub fn is_dirty(&self) -> bool {
        self.revision != self.saved_revision
    }

    /// Replaces the document (open/new): new revision so the analysis reruns, history cleared.
    pub fn replace(&mut self, design: Design, path: Option<PathBuf>) {
        self.design = design;
        self.path = path;
        self.history.clear();
        self.revision += 1;
        self.saved_revision = self.revision;
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

/// The current analysis and any job computing the next one.
#[derive(Default)]
pub struct AnalysisState {
    /// The latest finished report.
    pub report: Option<Arc<Report>>,
    /// Document revision the report was computed for.
    pub report_revision: u64,
    /// A background job: its revision and where the report arrives.
    pending: Option<(u64, Receiver<Report>)>,
    /// Wall time of the last analysis run, milliseconds.
    pub last_ms: f64,
}

impl AnalysisState {
    /// Whether the shown report is older than the document.
    pub fn is_stale(&self, revision: u64) -> bool {
        self.report.is_none() || self.report_revision != revision
    }

    /// Whether a background job is running.
    pub fn is_running(&self) -> bool {
        self.pending.is_some()
    }

    /// Starts (or finishes) the analysis for a document revision. Small designs are analysed inline; large
    /// ones on a thread while the previous report stays visible. Returns true while a job is outstanding.
    pub fn update(&mut self, design: &Design, revision: u64, ctx: Option<&egui::Context>) -> bool {
        if let Some((rev, rx)) = &self.pending {
            match rx.try_recv() {
                Ok(report) => {
                    self.report = Some(Arc::new(report));
                    self.report_revision = *rev;
                    self.pending = None;
                }
                Err(TryRecvError::Empty) => {
                    if *rev == revision {
                        return true;
                    }
                    // A newer revision is wanted; let the old job finish unobserved.
                    self.pending = None;
                }
                Err(TryRecvError::Disconnected) => self.pending = None,
            }
        }
        if !self.is_stale(revision) {
            return false;
        }
        if design.devices.len() <= BACKGROUND_ANALYSIS_DEVICES {
            let t = std::time::Instant::now();
            self.report = Some(Arc::new(analysis::analyze(design)));
            self.last_ms = t.elapsed().as_secs_f64() * 1000.0;
            self.report_revision = revision;
            return false;
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let snapshot = design.clone();
        let ctx = ctx.cloned();
        std::thread::spawn(move || {
            let report = analysis::analyze(&snapshot);
            let _ = tx.send(report);
            if let Some(ctx) = ctx {
                ctx.request_repaint();
            }
        });
        self.pending = Some((revision, rx));
        true
    }

    /// Blocks until any background job finishes (tests and screenshots).
    pub fn wait(&mut self) {
        if let Some((rev, rx)) = self.pending.take()
            && let Ok(report) = rx.recv()
        {
            self.report = Some(Arc::new(report));
            self.report_revision = rev;
        }
    }
}

/// What is selected on the canvas.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Selection {
    /// Selected devices.
    pub devices: BTreeSet<DeviceId>,
    /// Selected racks.
    pub racks: BTreeSet<RackId>,
    /// Selected links.
    pub links: BTreeSet<LinkId>,
}

impl Selection {
    /// Whether nothing is selected.
    pub fn is_empty(&self) -> bool {
        self.devices.is_empty() && self.racks.is_empty() && self.links.is_empty()
    }

    /// The one selected device, if exactly one thing is selected and it is a device.
    pub fn single_device(&self) -> Option<DeviceId> {
        (self.devices.len() == 1 && self.racks.is_empty() && self.links.is_empty())
            .then(|| self.devices.first().copied())
            .flatten()
    }

    /// Drops ids that no longer exist in the design.
    pub fn retain_existing(&mut self, design: &Design) {
        self.devices.retain(|d| design.devices.contains_key(d));
        self.racks.retain(|r| design.racks.contains_key(r));
        self.links.retain(|l| design.links.contains_key(l));
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

/// What a fit request frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FitTarget {
    /// Every rack.
    All,
    /// The selection (or everything when nothing is selected).
    Selection,
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
    /// Whether link lines are drawn.
    pub hide_links: bool,
    /// Traffic pattern whose loads colour the links and whose bottleneck the headline shows.
    pub load_pattern: Pattern,
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
}

/// A write refused because its target is read-only, held until the user says whether to replace the file anyway.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadOnlyPrompt {
    /// The file the user chose.
    pub path: PathBuf,
    /// What would be written, exactly as it was when the write was refused.
    pub bytes: Vec<u8>,
    /// What the write is.
    pub write: HeldWrite,
}

/// What a held write is, so that finishing it updates what it should.
#[derive(Debug, Clone, PartialEq)]
pub enum HeldWrite {
    /// A save of the design at this document revision.
    Save {
        /// The revision the bytes were serialised from.
        revision: u64,
    },
    /// An export, named for the status line.
    Export {
        /// "Bill of materials", "SVG drawing of the racks", ...
        what: String,
    },
}

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

/// A traffic pattern routed by the analysis, in the order of `analysis::routing::PATTERNS` (and of every link's
/// `loads_gbps`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pattern {
    /// All-reduce as one flat ring over every GPU.
    #[default]
    FlatRing,
    /// All-reduce with one ring per rail.
    RailRings,
    /// All-to-all.
    AllToAll,
    /// Storage read.
    StorageRead,
    /// Inference serving.
    Inference,
}

impl Pattern {
    /// Every pattern, in report order.
    pub const ALL: [Pattern; 5] = [
        Pattern::FlatRing,
        Pattern::RailRings,
        Pattern::AllToAll,
        Pattern::StorageRead,
        Pattern::Inference,
    ];

    /// Index into the report's per-pattern lists.
    pub fn index(self) -> usize {
        match self {
            Pattern::FlatRing => 0,
            Pattern::RailRings => 1,
            Pattern::AllToAll => 2,
            Pattern::StorageRead => 3,
            Pattern::Inference => 4,
        }
    }

    /// The analysis's name of the pattern.
    pub fn label(self) -> &'static str {
        analysis::routing::PATTERNS
            .get(self.index())
            .copied()
            .unwrap_or("")
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
