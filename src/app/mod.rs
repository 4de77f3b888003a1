//! The egui front end: a menu bar and toolbar, the parts palette, the rack canvas, the inspector and the analysis
//! pane. Panels read the document and push [`AppCommand`]s; [`RacksmithApp::apply_commands`] applies them in one
//! place after the frame, so every change goes through the undo history and bumps the revision.

pub mod analysis_pane;
mod cabling;
mod canvas;
mod catalog;
mod compare;
mod dialogs;
mod exports;
mod fabric;
mod files;
mod inspector;
mod menu;
mod palette;
mod params;
mod planning;
mod scenarios;
pub mod selection;
mod server;
mod server_tree;
mod sites;
mod sizing;
pub mod state;
mod templates;
mod theme;
#[cfg(target_arch = "wasm32")]
pub mod web;
mod web_link;
mod whatif;
mod widgets;

use crate::catalog::Catalog;
use crate::edit::{Edit, Gestures};
use crate::model::{Design, DeviceId, PortRef, RackId};
/// The smallest text the canvas draws, points (labels that would be smaller are left out).
pub use canvas::MIN_LABEL_PT;
pub use dialogs::{
    CompareFormat, DialogKind, DialogRequest, FilePurpose, InAppDialog, NativeDialogs,
    NativeOutcome, NoNativeDialogs, OverwritePrompt, RfdDialogs,
};
use state::{AnalysisState, Document, FitTarget, Pending, Selection, UiState};
use std::path::PathBuf;
use std::sync::Arc;

/// Something a panel asks the app to do; applied after the frame.
#[derive(Debug, Clone)]
pub enum AppCommand {
    /// Apply an edit as one undo step with a label for the Edit menu.
    Edit(String, Edit),
    /// Undo the last step.
    Undo,
    /// Redo the last undone step.
    Redo,
    /// Start a new empty design (asks before discarding changes).
    New,
    /// Open a file; None asks with a file dialog (asks before discarding changes).
    Open(Option<PathBuf>),
    /// Open a built-in sample by name.
    OpenSample(String),
    /// Open the New from template dialog.
    ShowTemplates,
    /// Make a design from a template and its options (asks before discarding changes).
    NewFromTemplate(String, Vec<(String, String)>),
    /// Compare the open design with a file; None asks with a file dialog.
    CompareWith(Option<PathBuf>),
    /// Compare the open design with a built-in sample.
    CompareWithSample(String),
    /// Save to the current file (or ask where).
    Save,
    /// Save under a new name (file dialog).
    SaveAs,
    /// Save (asking where when the design has no file), then run the action once the save succeeded ("Save
    /// first" in the unsaved-changes prompt).
    SaveThen(Box<state::Pending>),
    /// Replace the open design with this one, asking first when there are unsaved changes ("Save first" saves,
    /// then replaces); the text says what it is for the prompt and the status line ("open the scenario X").
    ReplaceDesign(Box<Design>, String),
    /// Save to a path without a dialog.
    SaveTo(PathBuf),
    /// Put a link holding the design on the clipboard (File > Copy link).
    CopyLink,
    /// Export the plain-text analysis report (file dialog).
    ExportReport,
    /// Export the plain-text analysis report to a path without a dialog.
    ExportReportTo(PathBuf),
    /// Export in a format (file dialog); the view applies to SVG and PNG.
    Export(crate::export::Format, crate::export::View),
    /// Export in a format to a path without a dialog.
    ExportTo(crate::export::Format, crate::export::View, PathBuf),
    /// Export the open comparison (file dialog).
    ExportComparison(CompareFormat),
    /// Export the open comparison to a path without a dialog.
    ExportComparisonTo(CompareFormat, PathBuf),
    /// Finish the write held by the read-only prompt, replacing the read-only file.
    ReplaceReadOnly,
    /// A file chosen in the in-app dialog (after any "replace it?"), for what it was asked for.
    FileChosen(FilePurpose, PathBuf),
    /// Quit (asks before discarding changes).
    Quit,
    /// Replace the selection.
    Select(Selection),
    /// Add devices to or remove them from the selection.
    ToggleDevice(DeviceId),
    /// Select the devices and racks of a finding and frame them.
    SelectFinding(usize),
    /// Show a refusal on the status line (a window that could not do what was asked, with the reason).
    Refuse(String),
    /// Frame the selection or everything.
    Fit(FitTarget),
    /// Remove the selection.
    DeleteSelection,
    /// Delete the selection without asking (the answer to "Delete 1 rack with 16 devices?").
    DeleteSelectionConfirmed,
    /// Copy the selected devices to the first free units of their racks.
    DuplicateSelection,
    /// Copy the selected devices to the clipboard.
    Copy,
    /// Paste the clipboard into the selected rack (or the devices' own racks).
    Paste,
    /// Add an empty rack of a catalog rack part.
    AddRack(String),
    /// Add a device from the catalog to a rack at a unit.
    AddDevice {
        /// Catalog part id.
        part: String,
        /// Rack.
        rack: RackId,
        /// Lowest unit.
        position_u: u16,
    },
    /// Cable two ports, choosing the cable from the catalog.
    Connect(PortRef, PortRef),
    /// Move the cable from a port to another port of the same device at its other end (one undo step).
    ChangeCablePort(PortRef, PortRef),
    /// Cable NIC i of every selected server to leaf i among the selected switches.
    ConnectRailOptimised,
    /// Cable every selected leaf to every selected spine.
    ConnectFullMesh,
    /// Open the parts catalog window, on a part when given.
    ShowCatalog(Option<crate::model::PartId>),
    /// Save a part to the user catalog file (replacing the part `replaces`, when it was renamed or edited).
    SaveUserPart {
        /// The part's id.
        id: crate::model::PartId,
        /// The part.
        part: Box<crate::catalog::Part>,
        /// The part this one was edited from.
        replaces: Option<crate::model::PartId>,
    },
    /// Delete a user part, or revert an edited built-in part, in the user catalog file.
    RemoveUserPart(crate::model::PartId),
    /// Replace a part (from) with another (to) everywhere in the design, as one undo step.
    SwapPart(String, String),
    /// Import a NetBox device type file as a user part; None asks with a file dialog.
    ImportNetbox(Option<PathBuf>),
    /// Import a NetBox device type file as a user part of the kind the user chose (when its data does not say).
    ImportNetboxAs(PathBuf, crate::catalog::netbox::ImportKind),
    /// Open the Size from a requirement dialog.
    ShowSizing,
    /// Open a sized design (asks before discarding changes).
    NewSized(Box<Design>),
    /// Open the parts catalog window on the parts the design uses (to override or replace one).
    ShowDesignParts,
    /// Apply an edit that continues the previous step when that step has the same label (the frames of one slider
    /// drag): the previous step is undone first, so the whole drag is one undo step.
    EditMerge(String, Edit),
}

/// The app: the document, the analysis, UI state and the commands queued this frame.
pub struct RacksmithApp {
    /// Parts catalog: the built-in parts with the user's over them.
    pub catalog: Catalog,
    /// The built-in and user catalogs, the catalog window and the sizing dialog.
    catalogs: catalog::CatalogState,
    /// The open document.
    pub doc: Document,
    /// Analysis state.
    pub analysis: AnalysisState,
    /// UI state.
    pub ui: UiState,
    commands: Vec<AppCommand>,
    /// The fabric view's layout, rebuilt when the document changes (kept here, not in `UiState`, so that the
    /// state module does not depend on the fabric view).
    fabric_layout: Option<fabric::FabricLayout>,
    dialogs: Box<dyn NativeDialogs>,
    screenshot: Option<files::ScreenshotJob>,
    recovery: files::Recovery,
    allow_close: bool,
    last_title: String,
    frames: u64,
    quit_requested: bool,
    /// A link made by File > Copy link, put on the clipboard after the frame.
    link_to_copy: Option<String>,
    /// The last link made by File > Copy link.
    last_link: Option<String>,
    /// The browser's side: files being read, local storage (web build).
    #[cfg(target_arch = "wasm32")]
    web: web::WebState,
}

impl RacksmithApp {
    /// An app for a design, with no recovery file, no persistence, no screenshot and no native file dialogs, so
    /// a test never blocks on one (for tests).
    /// Its analysis runs inline, so every frame shows the report of the design it draws.
    pub fn new_for_test(design: Design) -> Self {
        let mut app = Self::new(design, None, None, files::Recovery::disabled());
        app.dialogs = Box::new(NoNativeDialogs);
        app.analyse_inline();
        app
    }

    /// Analyses on the UI thread from now on (tests that check the report of each frame).
    pub fn analyse_inline(&mut self) {
        self.analysis = AnalysisState::inline();
        self.analysis
            .update(&self.doc.design, self.doc.revision, None);
    }

    /// Analyses on the worker thread from now on, as the app does (tests and benches of the worker).
    pub fn analyse_in_background(&mut self) {
        self.analysis = AnalysisState::default();
        self.analysis
            .update(&self.doc.design, self.doc.revision, None);
    }

    /// As [`RacksmithApp::new_for_test`], with crash recovery in `dir`: the autosaves of instances that are gone
    /// are offered at start, as when the app opens (for tests).
    pub fn new_for_test_with_recovery(design: Design, dir: PathBuf) -> Self {
        let mut app = Self::new(design, None, None, files::Recovery::in_dir(dir));
        app.dialogs = Box::new(NoNativeDialogs);
        app.analyse_inline();
        app.ui.recovery_offer = app.recovery.orphans();
        app
    }

    /// As [`RacksmithApp::new_for_test`], with the user catalog file at `path` (a temporary folder in tests, never
    /// the real configuration folder).
    pub fn new_for_test_with_user_catalog(design: Design, path: PathBuf) -> Self {
        let mut app = Self::new_for_test(design);
        app.set_user_catalog(Some(path));
        app
    }

    fn new(
        design: Design,
        path: Option<PathBuf>,
        screenshot: Option<PathBuf>,
        recovery: files::Recovery,
    ) -> Self {
        let catalog = Catalog::builtin().unwrap_or_default();
        Self {
            catalogs: catalog::CatalogState {
                builtin: catalog.clone(),
                ..Default::default()
            },
            catalog,
            doc: Document::new(design, path),
            analysis: AnalysisState::default(),
            ui: UiState::default(),
            commands: Vec::new(),
            fabric_layout: None,
            dialogs: dialogs::dialogs_from_env(),
            screenshot: screenshot.map(files::ScreenshotJob::new),
            recovery,
            allow_close: false,
            last_title: String::new(),
            frames: 0,
            quit_requested: false,
            link_to_copy: None,
            last_link: None,
            #[cfg(target_arch = "wasm32")]
            web: web::WebState::default(),
        }
    }

    /// The current design.
    pub fn design(&self) -> &Design {
        &self.doc.design
    }

    /// The current report, if computed.
    pub fn report(&self) -> Option<&crate::analysis::Report> {
        self.analysis.report.as_deref()
    }

    /// The analysis pane's headline cards for the current report and traffic pattern (empty before a report).
    pub fn headline_cards(&self) -> Vec<analysis_pane::CardView> {
        self.report().map_or_else(Vec::new, |r| {
            analysis_pane::card_views(&self.doc.design, r, self.ui.load_pattern)
        })
    }

    /// Screen position of the middle of a rack unit in the current view (for driving drags in tests).
    pub fn unit_screen_pos(&self, rack: RackId, u: u16) -> Option<egui::Pos2> {
        canvas::unit_screen_pos(&self.doc.design, &self.ui, rack, u)
    }

    /// The canvas's link bundles at the current zoom (per pair of racks, or of rows when far out): each one's hover
    /// text, link count and the middle of its curve on screen in the current view (tests hover a bundle with it).
    pub fn link_bundles(&self, ctx: &egui::Context) -> Vec<(String, usize, egui::Pos2)> {
        canvas::bundle_midpoints(ctx, (&self.doc.design, self.doc.layout_revision), &self.ui)
    }

    /// Opens the comparison of the open design (A) with another (B).
    fn compare_with(&mut self, other: Design) {
        // The open design's report is usually current already: analyse it again only when it is not.
        let a = self.current_report();
        let b = std::sync::Arc::new(crate::analysis::analyze(&other));
        self.ui.comparison = Some(state::CompareState {
            comparison: crate::analysis::compare::compare(&a, &b),
            a_design: Design::clone(&self.doc.design),
            a_report: a,
            b_design: other,
            b_report: b,
        });
    }

    /// Compares the open design with a design file.
    fn compare_with_file(&mut self, path: &std::path::Path) {
        match crate::io::load(path) {
            Ok(other) => self.compare_with(other),
            Err(e) => self.ui.error = Some(format!("Could not open the file to compare:\n{e}")),
        }
    }

    /// The fabric view's layout as last drawn (tiers and their devices), if the view was shown.
    pub fn fabric_layout(&self) -> Option<&fabric::FabricLayout> {
        self.fabric_layout.as_ref()
    }

    /// Screen position of a device's node in the fabric view as last drawn (for driving clicks in tests).
    pub fn fabric_node_pos(&self, device: DeviceId) -> Option<egui::Pos2> {
        let layout = self.fabric_layout.as_ref()?;
        fabric::node_pos(layout, self.ui.fabric_rect?, device)
    }

    /// Screen rect of a device in the current view.
    pub fn device_screen_rect(&self, device: DeviceId) -> Option<egui::Rect> {
        canvas::device_screen_rect(&self.doc.design, &self.ui, device)
    }

    /// Screen rects of every device in the current view.
    pub fn device_screen_rects(&self) -> rustc_hash::FxHashMap<DeviceId, egui::Rect> {
        canvas::device_screen_rects(&self.doc.design, &self.ui)
    }

    /// Queues a command as a panel would (tests use this for dialogs they cannot drive).
    pub fn push(&mut self, cmd: AppCommand) {
        self.commands.push(cmd);
    }

    /// Applies the queued commands now (tests; the frame loop calls it itself).
    pub fn apply_commands(&mut self) {
        let cmds = std::mem::take(&mut self.commands);
        for cmd in cmds {
            self.apply(cmd);
        }
        // A "Save first" whose save was cancelled (no prompt left open, nothing queued) drops its action: a later
        // plain Save must not replace the design.
        if self.ui.after_save.is_some()
            && self.commands.is_empty()
            && self.ui.file_dialog.is_none()
            && self.ui.overwrite.is_none()
            && self.ui.read_only.is_none()
        {
            self.ui.after_save = None;
        }
        self.ui.selection.retain_existing(&self.doc.design);
        if let Some(d) = self.ui.server_window
            && !self.doc.design.devices.contains_key(&d)
        {
            self.ui.server_window = None;
        }
    }

    /// Asks for the document's analysis and waits for the worker to finish it.
    pub fn wait_for_analysis(&mut self) {
        self.analysis
            .update(&self.doc.design, self.doc.revision, None);
        self.analysis.wait();
    }

    /// Applies an edit as one undo step.
    fn edit(&mut self, label: String, edit: Edit) {
        self.analysis.withdraw();
        let relayout = changes_layout(&edit);
        match self
            .doc
            .history
            .apply(Arc::make_mut(&mut self.doc.design), &label, edit)
        {
            Ok(()) => {
                self.doc.revision += 1;
                if relayout {
                    self.doc.layout_revision = self.doc.revision;
                }
                self.ui.info(label);
            }
            Err(e) => self.ui.refuse(format!("{label}: refused: {e}")),
        }
    }

    fn apply(&mut self, cmd: AppCommand) {
        match cmd {
            AppCommand::Edit(label, edit) => self.edit(label, edit),
            AppCommand::EditMerge(label, edit) => {
                if self.doc.history.undo_label() == Some(label.as_str()) {
                    self.analysis.withdraw();
                    self.doc.history.undo(Arc::make_mut(&mut self.doc.design));
                }
                self.edit(label, edit);
            }
            AppCommand::Undo | AppCommand::Redo => self.undo_redo(matches!(cmd, AppCommand::Undo)),
            AppCommand::New => self.guarded(Pending::New),
            AppCommand::Open(p) => self.guarded(Pending::Open(p)),
            AppCommand::OpenSample(s) => self.guarded(Pending::OpenSample(s)),
            AppCommand::ShowTemplates => {
                self.ui.template_dialog = Some(templates::TemplateDialog::on(0));
            }
            AppCommand::NewFromTemplate(name, options) => {
                self.guarded(Pending::Template(name, options));
            }
            AppCommand::Quit => self.guarded(Pending::Quit),
            AppCommand::Refuse(why) => self.ui.refuse(why),
            AppCommand::ReplaceDesign(d, what) => self.guarded(Pending::Replace(d, what)),
            AppCommand::SaveThen(action) => {
                self.ui.after_save = Some(*action);
                match self.doc.path.clone() {
                    Some(p) => self.save_to(p),
                    None => self.ask_path(FilePurpose::SaveAs),
                }
            }
            AppCommand::CompareWith(Some(path)) => self.compare_with_file(&path),
            AppCommand::CompareWith(None) => self.ask_path(FilePurpose::CompareWith),
            AppCommand::CompareWithSample(name) => match crate::samples::sample(&name) {
                Ok(other) => self.compare_with(other),
                Err(e) => self.ui.refuse(e.to_string()),
            },
            AppCommand::Save => match self.doc.path.clone() {
                Some(p) => self.save_to(p),
                None => self.ask_path(FilePurpose::SaveAs),
            },
            AppCommand::SaveAs => self.ask_path(FilePurpose::SaveAs),
            AppCommand::SaveTo(p) => self.save_to(p),
            AppCommand::CopyLink => self.copy_link(),
            AppCommand::ExportReport => self.ask_path(FilePurpose::ExportTextReport),
            AppCommand::ExportReportTo(p) => self.export_report(p),
            AppCommand::Export(format, view) => self.ask_path(FilePurpose::Export(format, view)),
            AppCommand::ExportTo(format, view, p) => self.export_to(format, view, &p),
            AppCommand::ExportComparison(c) => {
                if self.ui.comparison.is_some() {
                    self.ask_path(FilePurpose::ExportComparison(c));
                } else {
                    self.ui
                        .refuse("Open a comparison first (File > Compare with…)");
                }
            }
            AppCommand::ExportComparisonTo(c, p) => self.export_comparison_to(c, &p),
            AppCommand::FileChosen(purpose, p) => self.path_chosen(purpose, p),
            AppCommand::ReplaceReadOnly => self.replace_read_only(),
            AppCommand::Select(sel) => self.ui.selection = sel,
            AppCommand::ToggleDevice(d) => {
                if !self.ui.selection.devices.remove(&d) {
                    self.ui.selection.devices.insert(d);
                }
            }
            AppCommand::SelectFinding(i) => self.select_finding(i),
            AppCommand::Fit(t) => self.ui.view.fit = Some(t),
            AppCommand::Copy => self.copy_selection(),
            cmd @ (AppCommand::ShowCatalog(_)
            | AppCommand::SaveUserPart { .. }
            | AppCommand::RemoveUserPart(_)
            | AppCommand::SwapPart(..)
            | AppCommand::ImportNetbox(_)
            | AppCommand::ImportNetboxAs(..)
            | AppCommand::ShowSizing
            | AppCommand::NewSized(_)
            | AppCommand::ShowDesignParts) => self.apply_catalog(cmd),
            cmd => self.apply_gesture(cmd),
        }
    }

    /// Undoes (or redoes) one step.
    fn undo_redo(&mut self, undo: bool) {
        let step = if undo {
            self.doc.history.undo_label()
        } else {
            self.doc.history.redo_label()
        };
        // Only a step that exists touches (and so maybe copies) the design.
        let done = if step.is_none() {
            None
        } else if undo {
            self.analysis.withdraw();
            self.doc.history.undo(Arc::make_mut(&mut self.doc.design))
        } else {
            self.analysis.withdraw();
            self.doc.history.redo(Arc::make_mut(&mut self.doc.design))
        };
        if done.is_some() {
            self.doc.revision += 1;
            self.doc.layout_revision = self.doc.revision;
        }
        match (done, undo) {
            (Some(label), true) => self.ui.info(format!("Undid {label}")),
            (Some(label), false) => self.ui.info(format!("Redid {label}")),
            (None, true) => self.ui.info("Nothing to undo"),
            (None, false) => self.ui.info("Nothing to redo"),
        }
    }

    /// Selects the devices, racks and links of a finding and frames them.
    fn select_finding(&mut self, i: usize) {
        if let Some(f) = self.report().and_then(|r| r.findings.get(i)) {
            let sel = Selection {
                devices: f.devices.iter().copied().collect(),
                racks: f.racks.iter().copied().collect(),
                links: f.links.iter().copied().collect(),
            };
            self.ui.selection = sel;
            self.ui.view.fit = Some(FitTarget::Selection);
        }
    }

    /// Copies the selected devices, with the specs of the parts they use, to the clipboard.
    fn copy_selection(&mut self) {
        let d = &self.doc.design;
        let devices: Vec<crate::model::Device> = self
            .ui
            .selection
            .devices
            .iter()
            .filter_map(|id| d.devices.get(id).cloned())
            .collect();
        if devices.is_empty() {
            self.ui.refuse("Select devices to copy");
            return;
        }
        let mut parts = std::collections::BTreeMap::new();
        for dev in &devices {
            for p in std::iter::once(&dev.part)
                .chain(dev.gpus.values())
                .chain(dev.nics.values())
            {
                if let Some(spec) = d.parts.get(p) {
                    parts.insert(p.clone(), spec.clone());
                }
            }
        }
        self.ui.info(format!("Copied {} device(s)", devices.len()));
        self.ui.clipboard = Some((devices, parts));
    }

    /// Applies a gesture's edit as one undo step, or says why it was refused.
    fn gesture(&mut self, built: Result<crate::edit::Gesture, crate::edit::EditError>) -> bool {
        match built {
            Ok(g) => {
                let revision = self.doc.revision;
                self.edit(g.label, g.edit);
                self.doc.revision != revision
            }
            Err(e) => {
                self.ui.refuse(e.to_string());
                false
            }
        }
    }

    /// Selects exactly these devices.
    fn select_devices(&mut self, devices: impl IntoIterator<Item = DeviceId>) {
        self.ui.selection = Selection {
            devices: devices.into_iter().collect(),
            ..Selection::default()
        };
    }

    /// Places copies (duplicate, paste) and selects them.
    fn place_copies(&mut self, copies: crate::edit::Copies) {
        if let Some(g) = copies.gesture {
            self.edit(g.label, g.edit);
            self.select_devices(copies.devices);
        }
        if let Some(why) = copies.refused {
            self.ui.refuse(why);
        }
    }

    /// The commands that build an edit with [`crate::edit::Gestures`].
    fn apply_gesture(&mut self, cmd: AppCommand) {
        let (design, catalog) = (&self.doc.design, &self.catalog);
        let mut build = Gestures::new(design, catalog);
        match cmd {
            AppCommand::DeleteSelection | AppCommand::DeleteSelectionConfirmed => {
                let sel = &self.ui.selection;
                let asks = matches!(cmd, AppCommand::DeleteSelection)
                    && (sel.devices.len() > 1 || !sel.racks.is_empty());
                if asks {
                    // More than one device or any rack: one key press must not take a whole rack with it.
                    self.ui.confirm_delete = Some(delete_question(design, sel));
                } else if let Some(g) = build.delete(&sel.devices, &sel.racks, &sel.links) {
                    self.edit(g.label, g.edit);
                }
            }
            AppCommand::DuplicateSelection => {
                let copies = build.duplicate(&self.ui.selection.devices);
                self.place_copies(copies);
            }
            AppCommand::Paste => {
                let Some((devices, parts)) = self.ui.clipboard.clone() else {
                    self.ui
                        .refuse("Nothing to paste: copy devices with Ctrl+C first");
                    return;
                };
                let racks = &self.ui.selection.racks;
                let rack = (racks.len() == 1).then(|| racks.first().copied()).flatten();
                let copies = build.copies(&devices, &parts, rack);
                self.place_copies(copies);
            }
            AppCommand::AddRack(part) => match build.add_rack(&part) {
                Ok((id, g)) => {
                    let first = self.doc.design.racks.is_empty();
                    if self.gesture(Ok(g)) {
                        self.ui.selection = Selection {
                            racks: [id].into_iter().collect(),
                            ..Selection::default()
                        };
                        // The view never re-zooms after an edit (the pointer would land on another device): it
                        // pans to show the new rack; only a first rack, in an empty canvas, is framed.
                        self.ui.view.fit = Some(if first {
                            FitTarget::All
                        } else {
                            FitTarget::Reveal
                        });
                    }
                }
                Err(e) => self.ui.refuse(e.to_string()),
            },
            AppCommand::AddDevice {
                part,
                rack,
                position_u,
            } => match build.add_device(&part, rack, position_u) {
                Ok((id, g)) => {
                    if self.gesture(Ok(g)) {
                        if let Some(over) = canvas::over_budget(&self.doc.design, rack) {
                            // Allowed, as the amber ghost said: the status line keeps the warning in view.
                            self.ui.warn(format!("Added {part}, but {over}"));
                        }
                        self.select_devices([id]);
                    }
                }
                Err(e) => self.ui.refuse(e.to_string()),
            },
            AppCommand::Connect(a, b) => {
                let built = build.connect(a, b);
                if self.gesture(built) {
                    self.ui.connect_from = None;
                }
            }
            AppCommand::ChangeCablePort(from, to) => {
                let built = build.change_port(&from, to);
                self.gesture(built);
            }
            AppCommand::ConnectRailOptimised => {
                let built = build.rail_optimised(&self.ui.selection.devices);
                self.gesture(built);
            }
            AppCommand::ConnectFullMesh => {
                // Switches the analysis puts in tier 2 or above count as spines.
                let upper: std::collections::BTreeSet<DeviceId> = self
                    .analysis
                    .report
                    .as_ref()
                    .map(|r| {
                        r.bandwidth
                            .switches
                            .iter()
                            .filter(|s| s.tier >= 2)
                            .map(|s| s.device)
                            .collect()
                    })
                    .unwrap_or_default();
                let built = build.full_mesh(&self.ui.selection.devices, &upper);
                self.gesture(built);
            }
            // Every other command is handled in `apply`.
            _ => {}
        }
    }

    /// Runs an action that would discard the document, asking first when there are unsaved changes ("Save
    /// first" saves, then runs it). Every path that replaces the open design goes through here; a panel that
    /// makes a design pushes [`AppCommand::ReplaceDesign`].
    pub(crate) fn guarded(&mut self, action: Pending) {
        self.ui.after_save = None;
        if self.doc.is_dirty() {
            self.ui.pending = Some(action);
        } else {
            self.run_pending(action);
        }
    }

    /// Runs an action the user confirmed (or that needed no confirmation).
    fn run_pending(&mut self, action: Pending) {
        match action {
            Pending::New => {
                self.doc.replace(Design::default(), None);
                self.ui.selection = Selection::default();
                self.ui.view.fit = Some(FitTarget::All);
                self.ui.info("New design");
            }
            Pending::Open(Some(p)) => self.open_path(p),
            Pending::Open(None) => self.ask_path(FilePurpose::Open),
            Pending::Template(name, options) => {
                let made = crate::templates::generate(&self.catalog, &name, &options);
                match made {
                    Ok(d) => {
                        self.doc.replace_unsaved(d);
                        self.ui.selection = Selection::default();
                        self.ui.view.fit = Some(FitTarget::All);
                        self.ui
                            .info(format!("New design from template {name} (not saved yet)"));
                    }
                    Err(e) => self.ui.error = Some(format!("Cannot make {name}: {e}")),
                }
            }
            Pending::OpenSample(name) => match crate::samples::sample(&name) {
                Ok(d) => {
                    self.doc.replace(d, None);
                    self.ui.selection = Selection::default();
                    self.ui.view.fit = Some(FitTarget::All);
                    self.ui.info(format!(
                        "Opened sample \"{}\"",
                        crate::samples::title(&name)
                    ));
                }
                Err(e) => self.ui.error = Some(format!("Cannot build sample {name}: {e}")),
            },
            Pending::Sized(d) => {
                let name = d.name.clone();
                self.doc.replace_unsaved(*d);
                self.ui.selection = Selection::default();
                self.ui.view.fit = Some(FitTarget::All);
                self.ui.info(format!("New design: {name} (not saved yet)"));
            }
            Pending::Recover(d) => {
                self.doc.replace_unsaved(*d);
                self.ui.selection = Selection::default();
                self.ui.view.fit = Some(FitTarget::All);
                self.ui.info("Recovered unsaved work");
            }
            Pending::Replace(d, what) => {
                self.doc.replace_unsaved(*d);
                self.ui.selection = Selection::default();
                self.ui.view.fit = Some(FitTarget::All);
                self.ui.info(format!("Done: {what} (not saved yet)"));
            }
            Pending::Quit => {
                self.allow_close = true;
                self.recovery.remove();
                self.ui.pending = None;
                self.quit_requested = true;
            }
        }
    }

    fn open_path(&mut self, path: PathBuf) {
        match crate::io::load(&path) {
            Ok(d) => {
                self.doc.replace(d, Some(path.clone()));
                self.ui.selection = Selection::default();
                self.ui.view.fit = Some(FitTarget::All);
                self.ui.push_recent(path.clone());
                self.ui.info(format!("Opened {}", path.display()));
            }
            Err(e) => {
                // The open design stays as it is.
                self.ui.error = Some(format!("Could not open the file:\n{e}"));
            }
        }
    }

    fn save_to(&mut self, path: PathBuf) {
        let bytes = match crate::io::design_to_string(&self.doc.design) {
            Ok(text) => text.into_bytes(),
            Err(e) => {
                self.save_failed(&path, &e);
                return;
            }
        };
        let revision = self.doc.revision;
        match write_file(&path, &bytes) {
            Ok(()) => self.saved(path, revision),
            Err(crate::io::SaveError::ReadOnly { .. }) => {
                self.ui.read_only = Some(state::ReadOnlyPrompt {
                    path,
                    bytes,
                    write: state::HeldWrite::Save { revision },
                });
            }
            Err(e) => self.save_failed(&path, &e),
        }
    }

    /// Records a successful save of the design as it was at `revision`.
    fn saved(&mut self, path: PathBuf, revision: u64) {
        self.doc.path = Some(path.clone());
        self.doc.saved_revision = revision;
        self.ui.push_recent(path.clone());
        self.recovery.remove();
        self.ui.info(format!("Saved {}", path.display()));
        // "Save first": the action asked for runs now that the work is safe.
        if let Some(action) = self.ui.after_save.take() {
            self.run_pending(action);
        }
    }

    fn save_failed(&mut self, path: &std::path::Path, e: &crate::io::SaveError) {
        self.ui.after_save = None;
        // The document stays open and marked unsaved; the error says why.
        self.ui.error = Some(format!(
            "Could not save {}: {}\nThe design is still open, with its unsaved changes.",
            self.doc.design.name,
            dialogs::write_error_reason(e)
        ));
        self.ui.refuse(format!("Not saved: {}", path.display()));
    }

    /// Finishes the write the read-only prompt held, replacing the read-only file (the user said so).
    fn replace_read_only(&mut self) {
        let Some(prompt) = self.ui.read_only.take() else {
            return;
        };
        let options = crate::io::WriteOptions {
            replace_read_only: true,
        };
        let result = crate::io::write_atomic_with(&prompt.path, &prompt.bytes, options);
        match (prompt.write, result) {
            (state::HeldWrite::Save { revision }, Ok(())) => self.saved(prompt.path, revision),
            (state::HeldWrite::Save { .. }, Err(e)) => self.save_failed(&prompt.path, &e),
            (state::HeldWrite::Export { what }, result) => {
                self.export_written(&what, &prompt.path, prompt.bytes.len(), result);
            }
        }
    }

    /// Draws the whole UI and applies what it asked for. This is the body of `eframe::App::ui`, callable from
    /// tests through `egui_kittest`.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.frames += 1;
        if self.frames == 1 {
            theme::apply(&ctx);
        }
        let busy = self
            .analysis
            .update(&self.doc.design, self.doc.revision, Some(&ctx));
        if busy {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }

        menu::shortcuts(&ctx, self);
        menu::menu_bar_ui(ui, self);
        menu::toolbar_ui(ui, self);
        menu::status_bar_ui(ui, self);
        self.side_panels_ui(ui);
        self.central_ui(ui);
        self.windows_ui(&ctx);
        #[cfg(target_arch = "wasm32")]
        self.web_frame(&ctx);
        self.after_frame(&ctx);
    }

    /// The palette on the left and the inspector and analysis pane on the right (or its collapsed strip).
    fn side_panels_ui(&mut self, ui: &mut egui::Ui) {
        // Side panels take a share of the window, so a 1024 px window still leaves the canvas half its width.
        let width = ui.available_width();
        egui::Panel::left("palette")
            .resizable(true)
            .default_size((width * 0.2).clamp(190.0, 250.0))
            .min_size(160.0)
            .max_size(420.0)
            .show(ui, |ui| {
                palette::palette_ui(ui, &self.catalog, &mut self.ui.search);
            });
        if self.ui.right_collapsed {
            egui::Panel::right("right_collapsed")
                .resizable(false)
                .exact_size(28.0)
                .show(ui, |ui| {
                    if ui
                        .button("◀")
                        .on_hover_text("Show the inspector and analysis pane")
                        .clicked()
                    {
                        self.ui.right_collapsed = false;
                    }
                });
        } else {
            egui::Panel::right("right")
                .resizable(true)
                .default_size((width * 0.3).clamp(300.0, 460.0))
                .min_size(260.0)
                .max_size(640.0)
                .show(ui, |ui| {
                    right_panel_ui(ui, self);
                });
        }
    }

    /// The racks, the fabric or both, side by side; their commands are applied after the frame.
    fn central_ui(&mut self, ui: &mut egui::Ui) {
        egui::CentralPanel::default()
            .frame(egui::Frame::NONE.fill(ui.visuals().extreme_bg_color))
            .show(ui, |ui| {
                self.ui.central_rect = Some(ui.max_rect());
                let mut cmds = Vec::new();
                let mode = self.ui.view_mode;
                let report = self.analysis.report.as_deref();
                let report_revision = self.analysis.report_revision;
                let (design, revision, ui_state) =
                    (&*self.doc.design, self.doc.revision, &mut self.ui);
                let layout_revision = self.doc.layout_revision;
                let cache = &mut self.fabric_layout;
                let mut fabric_view =
                    |ui: &mut egui::Ui, st: &mut UiState, cmds: &mut Vec<AppCommand>| {
                        st.fabric_rect = Some(ui.available_rect_before_wrap());
                        fabric::fabric_ui(ui, design, report, revision, cache, st, cmds);
                    };
                let catalog = &self.catalog;
                let racks_view =
                    |ui: &mut egui::Ui, st: &mut UiState, cmds: &mut Vec<AppCommand>| {
                        canvas::canvas_ui(
                            ui,
                            (design, layout_revision),
                            catalog,
                            (report, report_revision),
                            st,
                            cmds,
                        );
                    };
                match mode {
                    state::ViewMode::Racks => racks_view(ui, ui_state, &mut cmds),
                    state::ViewMode::Fabric => fabric_view(ui, ui_state, &mut cmds),
                    state::ViewMode::Both => {
                        let half = ui.available_width() / 2.0;
                        egui::Panel::right("fabric_view")
                            .resizable(true)
                            .default_size(half)
                            .show(ui, |ui| fabric_view(ui, ui_state, &mut cmds));
                        egui::CentralPanel::default()
                            .show(ui, |ui| racks_view(ui, ui_state, &mut cmds));
                    }
                }
                self.commands.extend(cmds);
            });
    }

    /// The floating windows and dialogs; their commands are applied after the frame.
    fn windows_ui(&mut self, ctx: &egui::Context) {
        let mut cmds = Vec::new();
        server::server_window_ui(
            ctx,
            &self.doc.design,
            &self.catalog,
            &mut self.ui,
            &mut cmds,
        );
        params::params_window_ui(ctx, &self.doc.design, &mut self.ui, &mut cmds);
        sites::sites_window_ui(
            ctx,
            &self.doc.design,
            self.analysis.report.as_deref(),
            &mut self.ui,
            &mut cmds,
        );
        let planning = planning::PlanningInputs {
            design: &self.doc.design,
            revision: self.doc.revision,
            catalog: &self.catalog,
            report: self.analysis.report.as_deref(),
            stale: self.analysis.is_stale(self.doc.revision),
        };
        planning::planning_window_ui(
            ctx,
            &planning,
            &mut self.ui.planning,
            self.ui.central_rect,
            &mut cmds,
        );
        let whatif = whatif::WhatIfInputs {
            design: &self.doc.design,
            revision: self.doc.revision,
            report: self
                .analysis
                .report
                .clone()
                .filter(|_| !self.analysis.is_stale(self.doc.revision)),
        };
        whatif::whatif_window_ui(
            ctx,
            &whatif,
            &mut self.ui.whatif,
            &self.ui.selection,
            self.ui.central_rect,
            &mut cmds,
        );
        menu::help_window_ui(ctx, &mut self.ui);
        compare::compare_window_ui(ctx, &mut self.ui, &mut cmds);
        templates::template_dialog_ui(
            ctx,
            &self.catalog,
            !self.analysis.is_inline(),
            &mut self.ui.template_dialog,
            self.ui.central_rect,
            &mut cmds,
        );
        catalog::catalog_window_ui(
            ctx,
            &self.doc.design,
            &self.catalog,
            &mut self.catalogs,
            &self.ui,
            &mut cmds,
        );
        sizing::sizing_dialog_ui(
            ctx,
            &self.catalog,
            &mut self.catalogs.sizing,
            &self.ui,
            &mut cmds,
        );
        scenarios::scenarios_window_ui(
            ctx,
            &self.catalog,
            &mut self.catalogs.scenarios,
            &self.ui,
            &mut cmds,
        );
        files::dialogs_ui(ctx, self, &mut cmds);
        let prompts = dialogs::Prompts {
            file_dialog: &mut self.ui.file_dialog,
            overwrite: &mut self.ui.overwrite,
            read_only: &mut self.ui.read_only,
        };
        if let Some(status) = dialogs::file_dialog_ui(ctx, prompts, &mut cmds) {
            self.ui.info(status);
        }
        self.commands.extend(cmds);
    }

    /// After drawing: dropped files, the frame's commands, close and quit, autosave, the title and screenshots.
    fn after_frame(&mut self, ctx: &egui::Context) {
        files::dropped_files(ctx, self);
        self.apply_commands();
        files::close_request(ctx, self);
        if self.quit_requested {
            self.quit_requested = false;
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        files::autosave(ctx, self);
        if let Some(link) = self.link_to_copy.take() {
            ctx.copy_text(link);
        }

        let title = self.doc.title();
        if title != self.last_title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.last_title = title;
        }
        files::screenshot_step(ctx, self);
    }
}

/// "Delete 1 rack with 16 devices and 504 cables?": what deleting the selection takes with it.
fn delete_question(design: &Design, sel: &Selection) -> String {
    use crate::analysis::format::count;
    let devices: std::collections::BTreeSet<DeviceId> = design
        .devices
        .iter()
        .filter(|(id, d)| sel.devices.contains(id) || sel.racks.contains(&d.rack))
        .map(|(id, _)| *id)
        .collect();
    let cables = design
        .links
        .iter()
        .filter(|(id, l)| {
            sel.links.contains(id) || devices.contains(&l.a.device) || devices.contains(&l.b.device)
        })
        .count();
    let racks = sel
        .racks
        .iter()
        .filter(|r| design.racks.contains_key(r))
        .count();
    let mut what = Vec::new();
    if racks > 0 {
        what.push(count(racks, "rack", "racks"));
    }
    what.push(count(devices.len(), "device", "devices"));
    format!(
        "Delete {} and {}? Undo (Ctrl+Z) brings them back.",
        what.join(" with "),
        count(cables, "cable", "cables")
    )
}

/// Whether an edit can change where racks, devices and links are drawn (the canvas lays the design out again).
fn changes_layout(edit: &Edit) -> bool {
    match edit {
        Edit::SetParams(_) | Edit::SetSite(..) | Edit::SetMeta { .. } | Edit::SetScenarios(_) => {
            false
        }
        Edit::Batch(edits) => edits.iter().any(changes_layout),
        _ => true,
    }
}

fn right_panel_ui(ui: &mut egui::Ui, app: &mut RacksmithApp) {
    let mut cmds = Vec::new();
    // In the corner, beside the inspector's heading, without pushing the panel's content down.
    let corner = egui::Rect::from_min_size(
        ui.max_rect().right_top() + egui::vec2(-24.0, 4.0),
        egui::vec2(22.0, 20.0),
    );
    let hide = ui
        .new_child(egui::UiBuilder::new().max_rect(corner))
        .add(egui::Button::new("▶").small())
        .on_hover_text("Hide the inspector and analysis pane (more room for the canvas)");
    if hide.clicked() {
        app.ui.right_collapsed = true;
    }
    let inspector_h = (ui.available_height() * 0.40).max(180.0);
    let width = ui.available_width() - 14.0;
    egui::ScrollArea::both()
        .id_salt("inspector_scroll")
        .max_height(inspector_h)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            ui.set_max_width(width);
            inspector::inspector_ui(
                ui,
                &app.doc.design,
                &app.catalog,
                app.analysis.report.as_deref(),
                &mut app.ui,
                &mut cmds,
            );
        });
    ui.separator();
    let stale = app.analysis.is_stale(app.doc.revision);
    analysis_pane::analysis_ui(
        ui,
        &app.doc.design,
        app.analysis.report.as_deref(),
        stale,
        app.ui.load_pattern,
        app.doc.generation,
        &mut cmds,
    );
    app.commands.extend(cmds);
}

impl eframe::App for RacksmithApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    fn persist_egui_memory(&self) -> bool {
        self.screenshot.is_none()
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, files::RECENT_KEY, &self.ui.recent);
        eframe::set_value(storage, files::EXPORT_DIR_KEY, &self.ui.export_dir);
    }

    // The desktop build has the glow renderer too (Cargo.toml), which hands its context to `on_exit`.
    #[cfg(not(target_arch = "wasm32"))]
    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        // A clean exit: the recovery file is only for crashes. Unsaved work was confirmed as discarded.
        self.recovery.remove();
    }

    #[cfg(target_arch = "wasm32")]
    fn on_exit(&mut self) {
        self.recovery.remove();
    }
}

/// Writes a file the user asked for: atomically on the desktop, as a download in the browser.
fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<(), crate::io::SaveError> {
    #[cfg(target_arch = "wasm32")]
    {
        web::download(path, bytes)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        crate::io::write_atomic(path, bytes)
    }
}

/// Runs a background job (a template preview, a what-if, the planning scenarios) on its own thread; in the
/// browser, which has none, runs it at once.
fn spawn(job: impl FnOnce() + Send + 'static) {
    #[cfg(target_arch = "wasm32")]
    job();
    #[cfg(not(target_arch = "wasm32"))]
    std::thread::spawn(job);
}

/// The renderer: OpenGL (glow) unless `RACKSMITH_RENDERER=wgpu`. Under software rendering (Mesa's llvmpipe in a VM,
/// a remote desktop or Xvfb) glow shows a click's result in about a sixth of the time wgpu on lavapipe takes, at a
/// third of the CPU (docs/analysis.md, "Click to changed pixels"); on a GPU both are far under a frame.
/// `RACKSMITH_VSYNC=0` stops waiting for vertical sync (for measurements).
#[cfg(not(target_arch = "wasm32"))]
fn renderer_options(mut options: eframe::NativeOptions) -> eframe::NativeOptions {
    options.renderer = match std::env::var("RACKSMITH_RENDERER").as_deref() {
        Ok("wgpu") => eframe::Renderer::Wgpu,
        _ => eframe::Renderer::Glow,
    };
    if std::env::var("RACKSMITH_VSYNC").as_deref() == Ok("0") {
        options.glow_options.vsync = false;
        options.wgpu_options.surface.present_mode = eframe::wgpu::PresentMode::AutoNoVsync;
    }
    options
}

/// Opens the desktop app. With `screenshot`, renders until the design is laid out and analysed, writes a PNG of
/// the window there and exits.
#[cfg(not(target_arch = "wasm32"))]
pub fn run(file: Option<PathBuf>, screenshot: Option<PathBuf>) -> anyhow::Result<()> {
    let link = file
        .as_ref()
        .map(|p| p.to_string_lossy().into_owned())
        .filter(|p| crate::io::share::has_design(p));
    let (design, path) = match (&file, link) {
        // A share link (`racksmith 'https://…#d=…'`): the design it holds, not yet saved anywhere.
        (_, Some(link)) => (crate::io::share::decode(&link)?, None),
        (Some(p), None) => (crate::io::load(p)?, Some(p.clone())),
        (None, None) => (crate::samples::default_design(), None),
    };
    let recovery = if screenshot.is_some() {
        files::Recovery::disabled()
    } else {
        files::Recovery::default_location()
    };
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1600.0, 1000.0])
            .with_min_inner_size([900.0, 600.0])
            .with_title("Racksmith")
            .with_drag_and_drop(true),
        persist_window: screenshot.is_none(),
        ..Default::default()
    };
    let mut options = renderer_options(options);
    if screenshot.is_none() {
        dialogs::probe_in_background();
    }
    // What the app is made of, taken by the first renderer that gets as far as making it: when OpenGL cannot
    // open a window (no GL driver, only Vulkan), the same start is tried again with wgpu.
    let start = std::rc::Rc::new(std::cell::RefCell::new(Some((
        design, path, screenshot, recovery,
    ))));
    let first = eframe::run_native("Racksmith", options.clone(), app_creator(start.clone()));
    let result = match first {
        Err(e) if options.renderer == eframe::Renderer::Glow && start.borrow().is_some() => {
            eprintln!("OpenGL could not open the window ({e}); trying wgpu");
            options.renderer = eframe::Renderer::Wgpu;
            eframe::run_native("Racksmith", options, app_creator(start))
        }
        other => other,
    };
    result.map_err(|e| anyhow::anyhow!("the window could not open: {e}"))?;
    Ok(())
}

/// What [`run`] starts the app with: the design, its file, the screenshot path and the recovery folder.
#[cfg(not(target_arch = "wasm32"))]
type Start = (Design, Option<PathBuf>, Option<PathBuf>, files::Recovery);

/// Makes the app from `start` once a renderer has a window (leaves `start` empty when it did).
#[cfg(not(target_arch = "wasm32"))]
fn app_creator(
    start: std::rc::Rc<std::cell::RefCell<Option<Start>>>,
) -> eframe::AppCreator<'static> {
    Box::new(move |cc| {
        let Some((design, path, shot, recovery)) = start.borrow_mut().take() else {
            return Err("the app was already started".into());
        };
        let path_for_recent = path.clone();
        let mut app = RacksmithApp::new(design, path, shot, recovery);
        if app.screenshot.is_none() {
            // A screenshot shows the built-in catalog only, the same on every machine.
            app.set_user_catalog(crate::catalog::user::default_path());
        }
        // The worker starts on the design now, so the first frame is as close to its report as can be.
        app.analysis
            .update(&app.doc.design, app.doc.revision, Some(&cc.egui_ctx));
        if app.screenshot.is_some() {
            // A screenshot shows the app as it first opens, not as a previous session left it.
            cc.egui_ctx.memory_mut(|m| *m = egui::Memory::default());
            app.ui.no_tooltips = true;
        } else {
            if let Some(storage) = cc.storage
                && let Some(recent) = eframe::get_value::<Vec<PathBuf>>(storage, files::RECENT_KEY)
            {
                app.ui.recent = recent;
            }
            if let Some(storage) = cc.storage
                && let Some(dir) =
                    eframe::get_value::<Option<PathBuf>>(storage, files::EXPORT_DIR_KEY)
            {
                app.ui.export_dir = dir.filter(|d| d.is_dir());
            }
            app.ui.recovery_offer = app.recovery.orphans();
        }
        if let Some(p) = path_for_recent {
            app.ui.push_recent(p);
        }
        // `RACKSMITH_THEME=light|dark` picks a theme at start (screenshots of both; otherwise View > Theme).
        match std::env::var("RACKSMITH_THEME").as_deref() {
            Ok("light") => cc.egui_ctx.set_theme(egui::Theme::Light),
            Ok("dark") => cc.egui_ctx.set_theme(egui::Theme::Dark),
            _ => {}
        }
        Ok(Box::new(app))
    })
}
