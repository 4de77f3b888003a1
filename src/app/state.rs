//! App state that is not the design: the open document with its history and revision counter, and the UI state
//! (selection, status line, canvas, files and prompts, edits being typed, open windows), one struct per panel.
//! Selection, hover and pan/zoom live here, never in the document or the undo history; the analysis is held in
//! [`super::analysis_state`].

use crate::edit::History;
use crate::model::{Design, DeviceId, LinkId, RackId};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// The open design, its undo history and file.
pub struct Document {
    /// The design, shared with the analysis worker while it analyses this revision: an edit (`Arc::make_mut`)
    /// copies it only when the worker still holds it (the app withdraws a request not yet started first,
    /// [`super::analysis_state::AnalysisState::withdraw`]).
    pub design: Arc<Design>,
    /// The undo and redo steps of this document (never saved; a new document starts with none).
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

    /// Replaces the design with one the user made (a template, a sized design) as one undoable step: Undo brings
    /// the previous design back. The new design is in no file yet, so it is unsaved and Save asks where.
    pub fn replace_undoable(
        &mut self,
        design: Design,
        label: String,
    ) -> Result<(), crate::edit::EditError> {
        self.history.apply(
            Arc::make_mut(&mut self.design),
            label,
            crate::edit::Edit::ReplaceDesign(Box::new(design)),
        )?;
        self.path = None;
        self.revision += 1;
        self.saved_revision = self.revision.wrapping_sub(1);
        self.layout_revision = self.revision;
        self.generation += 1;
        Ok(())
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

/// UI-only state, one part per panel: what is selected, the status line, the canvas, files and the prompts about
/// them, the edits being typed, and the windows.
#[derive(Default)]
pub struct UiState {
    /// What is selected, shared by the canvas, the inspector and the analysis pane.
    pub selection: Selection,
    /// The status bar's message.
    pub status: StatusLine,
    /// The canvas: view, drags, the cable being made, what it drew.
    pub canvas: super::canvas::state::CanvasState,
    /// Files: recent ones, the export folder, and the prompts and dialogs of opening and saving.
    pub files: FileState,
    /// Text being typed into fields, the clipboard and the delete question.
    pub editing: EditingState,
    /// Which windows are open, with the state each owns.
    pub windows: Windows,
}

/// How a status message reads: done, done over a limit, or refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StatusLevel {
    /// Done as asked.
    #[default]
    Info,
    /// Done, but something is over a limit.
    Warning,
    /// Not done; the message says why.
    Refusal,
}

/// The status bar: the last message and how it reads.
#[derive(Debug, Clone, Default)]
pub struct StatusLine {
    /// The message, in the words the user reads.
    pub text: String,
    /// Whether it is information, a warning or a refusal (its colour).
    pub level: StatusLevel,
}

impl StatusLine {
    /// Sets the message: done as asked.
    pub fn info(&mut self, msg: impl Into<String>) {
        self.set(msg, StatusLevel::Info);
    }

    /// Sets the message to a warning: what was asked is done, but something is over a limit.
    pub fn warn(&mut self, msg: impl Into<String>) {
        self.set(msg, StatusLevel::Warning);
    }

    /// Sets the message to a refusal.
    pub fn refuse(&mut self, msg: impl Into<String>) {
        self.set(msg, StatusLevel::Refusal);
    }

    fn set(&mut self, msg: impl Into<String>, level: StatusLevel) {
        self.text = msg.into();
        self.level = level;
    }

    /// Whether the message is a refusal.
    pub fn is_refusal(&self) -> bool {
        self.level == StatusLevel::Refusal
    }

    /// Whether the message is a warning.
    pub fn is_warning(&self) -> bool {
        self.level == StatusLevel::Warning
    }
}

/// Files and the questions around them: what opens next, what waits for an answer, where the last export went.
#[derive(Default)]
pub struct FileState {
    /// An action waiting for "discard unsaved changes?".
    pub pending: Option<Pending>,
    /// The action "Save first" chose: run once the save succeeds, dropped when it is cancelled or fails.
    pub after_save: Option<Pending>,
    /// Recently opened files, newest first (at most ten).
    pub recent: Vec<PathBuf>,
    /// Autosaves of instances that did not exit cleanly, offered to the user at start.
    pub recovery_offer: Vec<crate::io::recovery::Orphan>,
    /// The in-app file dialog, when no native one could be shown.
    pub file_dialog: Option<super::dialogs::InAppDialog>,
    /// A save onto an existing file waiting for "Replace it?".
    pub overwrite: Option<super::dialogs::OverwritePrompt>,
    /// A save or export onto a read-only file waiting for "Replace it anyway?".
    pub read_only: Option<ReadOnlyPrompt>,
    /// Folder of the last export (remembered across runs); export dialogs start there.
    pub export_dir: Option<PathBuf>,
}

impl FileState {
    /// Remembers a file in the recent list.
    pub fn push_recent(&mut self, path: PathBuf) {
        self.recent.retain(|p| p != &path);
        self.recent.insert(0, path);
        self.recent.truncate(10);
    }
}

/// What the user is typing or holding before it becomes an edit: each commits as one undo step.
#[derive(Default)]
pub struct EditingState {
    /// Text of number fields being edited, by field key (committed when the field loses focus).
    pub field_buffers: HashMap<String, String>,
    /// The device-name field being edited: the device's key and the text so far.
    pub name_buffer: Option<(String, String)>,
    /// A review note being typed: whose it is and the text so far. Committed as one edit when the field loses
    /// focus or on Ctrl+Enter.
    pub notes_buffer: Option<(NoteTarget, String)>,
    /// The parts palette's search text.
    pub search: String,
    /// Devices copied with Ctrl+C, with the specs of the parts they use (so they paste into another design too).
    pub clipboard: Option<(
        Vec<crate::model::Device>,
        std::collections::BTreeMap<crate::model::PartId, crate::catalog::Part>,
    )>,
    /// "Delete 1 rack with 16 devices and 504 cables?" waiting for an answer.
    pub confirm_delete: Option<String>,
}

/// The windows over the canvas, each owning its state ([`super::window::WindowRegistry`]), and how the side
/// panel is folded.
#[derive(Default)]
pub struct Windows {
    /// Every floating window's state, in drawing order ([`super::windows`] lists them).
    pub registry: super::window::WindowRegistry,
    /// An error to show in a window (a file that did not load, with its line and column; a link not copied).
    pub error: Option<String>,
    /// Whether the inspector and analysis pane is collapsed to give the canvas the width.
    pub right_collapsed: bool,
    /// The inspector is folded away inside the right panel: the analysis pane keeps its place and takes the room.
    pub inspector_collapsed: bool,
    /// The central area (between the palette and the inspector) last frame, screen space: windows open over it.
    pub central_rect: Option<egui::Rect>,
}

pub use super::canvas::state::{
    CableChoice, CanvasDrag, CanvasDrawn, CanvasState, PartDrag, PortDrag, RackFace, View, ViewMode,
};
pub use super::dialogs::{HeldWrite, ReadOnlyPrompt};
pub use super::selection::{FitTarget, Selection};

/// What a review note belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NoteTarget {
    /// The design itself.
    Design,
    /// A rack's note (shown in the rack's inspector and the report's rack table).
    Rack(RackId),
    /// A device's note (its inspector and the bill of materials).
    Device(DeviceId),
    /// A cable's note (its inspector and the cabling plan).
    Link(LinkId),
}

/// A page of the help window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HelpPage {
    /// What to drag where, how to cable, how to read the analysis pane.
    GettingStarted,
    /// The keyboard and mouse shortcuts.
    Shortcuts,
    /// The version, the commit it was built from and the format versions (as `racksmith --version`).
    About,
}
