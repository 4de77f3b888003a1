//! Commands: what a panel asks the app to do ([`AppCommand`]), and the one place that applies them after the
//! frame ([`RacksmithApp::apply_commands`]): edits through the undo history, gestures, file operations behind the
//! unsaved-changes guard, selection and view changes.

use super::*;

/// Something a panel asks the app to do; applied after the frame by [`RacksmithApp::apply_commands`]. Panels push
/// one of the three kinds with `.into()`.
#[derive(Debug, Clone)]
pub enum AppCommand {
    /// A change to the design.
    Doc(DocCommand),
    /// A file or a whole design.
    File(FileCommand),
    /// The selection, the view or a window.
    Ui(UiCommand),
}

/// A change to the design: each is one undo step (or moves through the undo history).
#[derive(Debug, Clone)]
pub enum DocCommand {
    /// Apply an edit as one undo step with a label for the Edit menu.
    Edit(String, Edit),
    /// Apply an edit that continues the previous step when that step has the same label (the frames of one slider
    /// drag): the previous step is undone first, so the whole drag is one undo step.
    EditMerge(String, Edit),
    /// Undo the last step.
    Undo,
    /// Redo the last undone step.
    Redo,
    /// Remove the selection.
    DeleteSelection,
    /// Delete the selection without asking (the answer to "Delete 1 rack with 16 devices?").
    DeleteSelectionConfirmed,
    /// Copy the selected devices to the first free units of their racks.
    DuplicateSelection,
    /// Paste the clipboard into the selected rack (or the devices' own racks).
    Paste,
    /// Add an empty rack of a catalog rack part.
    AddRack(String),
    /// Add a device from the catalog to a rack at a unit.
    AddDevice {
        /// Catalog part id.
        part: String,
        /// The rack it goes into.
        rack: RackId,
        /// The lowest unit it takes, 1-based from the bottom (an edit refuses a place that overlaps or overhangs).
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
    /// Replace a part (from) with another (to) everywhere in the design, as one undo step.
    SwapPart(String, String),
}

impl From<DocCommand> for AppCommand {
    fn from(c: DocCommand) -> Self {
        AppCommand::Doc(c)
    }
}

/// Files and whole designs: open, replace, save, export, compare, import, the user catalog file and quitting.
/// Those that would discard unsaved changes ask first.
#[derive(Debug, Clone)]
pub enum FileCommand {
    /// Start a new empty design (asks before discarding changes).
    New,
    /// Open a file; None asks with a file dialog (asks before discarding changes).
    Open(Option<PathBuf>),
    /// Open a built-in sample by name.
    OpenSample(String),
    /// Make a design from a template and its options (asks before discarding changes).
    NewFromTemplate(String, Vec<(String, String)>),
    /// Open a sized design (asks before discarding changes).
    NewSized(Box<Design>),
    /// Compare the open design with a file; None asks with a file dialog.
    CompareWith(Option<PathBuf>),
    /// Compare the open design with a built-in sample.
    CompareWithSample(String),
    /// Compare the open design's fabric with what `ibnetdiscover` reported; None asks with a file dialog.
    CheckAsBuilt(Option<PathBuf>),
    /// Save to the current file (or ask where).
    Save,
    /// Save under a new name (file dialog).
    SaveAs,
    /// Save (asking where when the design has no file), then run the action once the save succeeded ("Save
    /// first" in the unsaved-changes prompt).
    SaveThen(Box<state::Pending>),
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
    /// Import a NetBox device type file as a user part; None asks with a file dialog.
    ImportNetbox(Option<PathBuf>),
    /// Import a NetBox device type file as a user part of the kind the user chose (when its data does not say).
    ImportNetboxAs(PathBuf, crate::catalog::netbox::ImportKind),
    /// Save a part to the user catalog file (replacing the part `replaces`, when it was renamed or edited).
    SaveUserPart {
        /// The part's id.
        id: crate::model::PartId,
        /// The part's specification as the editor left it (saved whole, with its sources).
        part: Box<crate::catalog::Part>,
        /// The part this one was edited from.
        replaces: Option<crate::model::PartId>,
    },
    /// Delete a user part, or revert an edited built-in part, in the user catalog file.
    RemoveUserPart(crate::model::PartId),
}

impl From<FileCommand> for AppCommand {
    fn from(c: FileCommand) -> Self {
        AppCommand::File(c)
    }
}

/// What the user sees and holds, never the design: the selection, the view, the windows, the status line and
/// the clipboard.
#[derive(Debug, Clone)]
pub enum UiCommand {
    /// Open a window or panel: the one way any of them opens, from the menu, the toolbar, the inspector and the
    /// canvas alike (no panel writes another's open flag).
    Show(Show),
    /// Close the window if it is open, open it otherwise (the toolbar's Parameters button).
    Toggle(Show),
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
    /// Copy the selected devices to the clipboard.
    Copy,
}

/// A window or panel to open, with what it opens on.
#[derive(Debug, Clone, PartialEq)]
pub enum Show {
    /// The New from template dialog.
    Templates,
    /// The parts catalog window, on a part when given.
    Catalog(Option<crate::model::PartId>),
    /// The parts catalog window on the parts the design uses (to override or replace one).
    DesignParts,
    /// The Size from a requirement dialog.
    Sizing,
    /// The parameters window.
    Params,
    /// The sites window.
    Sites,
    /// The Planning window (sliders, cards, saved scenarios).
    Planning,
    /// The failure what-ifs window, on the impact of losing a part when given.
    WhatIf(Option<crate::analysis::whatif::Failure>),
    /// A server's internals window.
    Server(DeviceId),
    /// The help window on a page.
    Help(state::HelpPage),
    /// The Planning questions window.
    PlanningQuestions,
    /// The inspector and the analysis pane, unfolded (a cable picked on the canvas shows its inspector).
    Inspector,
}

impl From<UiCommand> for AppCommand {
    fn from(c: UiCommand) -> Self {
        AppCommand::Ui(c)
    }
}

impl RacksmithApp {
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
        if self.ui.files.after_save.is_some()
            && self.commands.is_empty()
            && self.ui.files.file_dialog.is_none()
            && self.ui.files.overwrite.is_none()
            && self.ui.files.read_only.is_none()
        {
            self.ui.files.after_save = None;
        }
        self.ui.selection.retain_existing(&self.doc.design);
    }

    /// Asks for the document's analysis and waits for the worker to finish it.
    pub fn wait_for_analysis(&mut self) {
        self.analysis
            .update(&self.doc.design, self.doc.revision, None);
        self.analysis.wait();
    }

    /// Applies an edit as one undo step.
    pub(super) fn edit(&mut self, label: String, edit: Edit) {
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
                self.ui.status.info(label);
            }
            Err(e) => self.ui.status.refuse(format!("{label}: refused: {e}")),
        }
    }

    fn apply(&mut self, cmd: AppCommand) {
        match cmd {
            AppCommand::Doc(c) => self.apply_doc(c),
            AppCommand::File(c) => self.apply_file(c),
            AppCommand::Ui(c) => self.apply_ui(c),
        }
    }

    /// Applies a change to the design: an edit, a step through the history, or a gesture built from the
    /// selection.
    fn apply_doc(&mut self, cmd: DocCommand) {
        match cmd {
            DocCommand::Edit(label, edit) => self.edit(label, edit),
            DocCommand::EditMerge(label, edit) => {
                if self.doc.history.undo_label() == Some(label.as_str()) {
                    self.analysis.withdraw();
                    self.doc.history.undo(Arc::make_mut(&mut self.doc.design));
                }
                self.edit(label, edit);
            }
            DocCommand::Undo => self.undo_redo(true),
            DocCommand::Redo => self.undo_redo(false),
            DocCommand::SwapPart(from, to) => self.swap(&from, &to),
            cmd => self.apply_gesture(cmd),
        }
    }

    /// Applies a file command: those that replace the design go through the unsaved-changes guard.
    fn apply_file(&mut self, cmd: FileCommand) {
        match cmd {
            FileCommand::New => self.guarded(Pending::New),
            FileCommand::Open(p) => self.guarded(Pending::Open(p)),
            FileCommand::OpenSample(s) => self.guarded(Pending::OpenSample(s)),
            FileCommand::NewFromTemplate(name, options) => {
                self.guarded(Pending::Template(name, options));
            }
            FileCommand::NewSized(design) => self.guarded(Pending::Sized(design)),
            FileCommand::Quit => self.guarded(Pending::Quit),
            FileCommand::SaveThen(action) => {
                self.ui.files.after_save = Some(*action);
                match self.doc.path.clone() {
                    Some(p) => self.save_to(p),
                    None => self.ask_path(FilePurpose::SaveAs),
                }
            }
            FileCommand::CompareWith(Some(path)) => self.compare_with_file(&path),
            FileCommand::CompareWith(None) => self.ask_path(FilePurpose::CompareWith),
            FileCommand::CheckAsBuilt(Some(path)) => self.check_as_built_file(&path),
            FileCommand::CheckAsBuilt(None) => self.ask_path(FilePurpose::CheckAsBuilt),
            FileCommand::CompareWithSample(name) => match crate::samples::sample(&name) {
                Ok(other) => self.compare_with(other, None),
                Err(e) => self.ui.status.refuse(e.to_string()),
            },
            FileCommand::Save => match self.doc.path.clone() {
                Some(p) => self.save_to(p),
                None => self.ask_path(FilePurpose::SaveAs),
            },
            FileCommand::SaveAs => self.ask_path(FilePurpose::SaveAs),
            FileCommand::SaveTo(p) => self.save_to(p),
            FileCommand::CopyLink => self.copy_link(),
            FileCommand::ExportReport => self.ask_path(FilePurpose::ExportTextReport),
            FileCommand::ExportReportTo(p) => self.export_report(p),
            FileCommand::Export(format, view) => self.ask_path(FilePurpose::Export(format, view)),
            FileCommand::ExportTo(format, view, p) => self.export_to(format, view, &p),
            FileCommand::ExportComparison(c) => {
                if self
                    .ui
                    .windows
                    .registry
                    .get::<windows::compare::CompareWindow>()
                    .is_some_and(|w| w.shown.is_some())
                {
                    self.ask_path(FilePurpose::ExportComparison(c));
                } else {
                    self.ui
                        .status
                        .refuse("Open a comparison first (File > Compare with…)");
                }
            }
            FileCommand::ExportComparisonTo(c, p) => self.export_comparison_to(c, &p),
            FileCommand::FileChosen(purpose, p) => self.path_chosen(purpose, p),
            FileCommand::ReplaceReadOnly => self.replace_read_only(),
            FileCommand::ImportNetbox(None) => self.ask_path(FilePurpose::ImportNetbox),
            FileCommand::ImportNetbox(Some(path)) => self.import_netbox(&path, None),
            FileCommand::ImportNetboxAs(path, kind) => self.import_netbox(&path, Some(kind)),
            FileCommand::SaveUserPart { id, part, replaces } => {
                self.save_user_part(id, *part, replaces)
            }
            FileCommand::RemoveUserPart(id) => self.remove_user_part(&id),
        }
    }

    /// Applies a UI command: selection, view, windows, status line, clipboard.
    fn apply_ui(&mut self, cmd: UiCommand) {
        match cmd {
            UiCommand::Show(what) => self.show_window(what),
            UiCommand::Toggle(what) => self.toggle_window(what),
            UiCommand::Refuse(why) => self.ui.status.refuse(why),
            UiCommand::Select(sel) => self.ui.selection = sel,
            UiCommand::ToggleDevice(d) => {
                if !self.ui.selection.devices.remove(&d) {
                    self.ui.selection.devices.insert(d);
                }
            }
            UiCommand::SelectFinding(i) => self.select_finding(i),
            UiCommand::Fit(t) => self.ui.canvas.view.fit = Some(t),
            UiCommand::Copy => self.copy_selection(),
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
            (Some(label), true) => self.ui.status.info(format!("Undid {label}")),
            (Some(label), false) => self.ui.status.info(format!("Redid {label}")),
            (None, true) => self.ui.status.info("Nothing to undo"),
            (None, false) => self.ui.status.info("Nothing to redo"),
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
            self.ui.canvas.view.fit = Some(FitTarget::Selection);
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
            self.ui.status.refuse("Select devices to copy");
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
        self.ui.status.info(format!(
            "Copied {}",
            crate::analysis::format::count(devices.len(), "device", "devices")
        ));
        self.ui.editing.clipboard = Some((devices, parts));
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
                self.ui.status.refuse(e.to_string());
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
            self.ui.status.refuse(why);
        }
    }

    /// The commands that build an edit with [`crate::edit::Gestures`].
    fn apply_gesture(&mut self, cmd: DocCommand) {
        let (design, catalog) = (&self.doc.design, &self.catalog);
        let mut build = Gestures::new(design, catalog);
        match cmd {
            DocCommand::DeleteSelection | DocCommand::DeleteSelectionConfirmed => {
                let sel = &self.ui.selection;
                let asks = matches!(cmd, DocCommand::DeleteSelection)
                    && (sel.devices.len() > 1 || !sel.racks.is_empty());
                if asks {
                    // More than one device or any rack: one key press must not take a whole rack with it.
                    self.ui.editing.confirm_delete = Some(delete_question(design, sel));
                } else if let Some(g) = build.delete(&sel.devices, &sel.racks, &sel.links) {
                    self.edit(g.label, g.edit);
                }
            }
            DocCommand::DuplicateSelection => {
                let copies = build.duplicate(&self.ui.selection.devices);
                self.place_copies(copies);
            }
            DocCommand::Paste => {
                let Some((devices, parts)) = self.ui.editing.clipboard.clone() else {
                    self.ui
                        .status
                        .refuse("Nothing to paste: copy devices with Ctrl+C first");
                    return;
                };
                let racks = &self.ui.selection.racks;
                let rack = (racks.len() == 1).then(|| racks.first().copied()).flatten();
                let copies = build.copies(&devices, &parts, rack);
                self.place_copies(copies);
            }
            DocCommand::AddRack(part) => match build.add_rack(&part) {
                Ok((id, g)) => {
                    let first = self.doc.design.racks.is_empty();
                    if self.gesture(Ok(g)) {
                        self.ui.selection = Selection {
                            racks: [id].into_iter().collect(),
                            ..Selection::default()
                        };
                        // The view never re-zooms after an edit (the pointer would land on another device): it
                        // pans to show the new rack; only a first rack, in an empty canvas, is framed.
                        self.ui.canvas.view.fit = Some(if first {
                            FitTarget::All
                        } else {
                            FitTarget::Reveal
                        });
                    }
                }
                Err(e) => self.ui.status.refuse(e.to_string()),
            },
            DocCommand::AddDevice {
                part,
                rack,
                position_u,
            } => match build.add_device(&part, rack, position_u) {
                Ok((id, g)) => {
                    if self.gesture(Ok(g)) {
                        if let Some(over) = canvas::over_budget(&self.doc.design, rack) {
                            // Allowed, as the amber ghost said: the status line keeps the warning in view.
                            self.ui.status.warn(format!("Added {part}, but {over}"));
                        }
                        self.select_devices([id]);
                    }
                }
                Err(e) => self.ui.status.refuse(e.to_string()),
            },
            DocCommand::Connect(a, b) => {
                let built = build.connect(a, b);
                if self.gesture(built) {
                    self.ui.canvas.connect_from = None;
                }
            }
            DocCommand::ChangeCablePort(from, to) => {
                let built = build.change_port(&from, to);
                self.gesture(built);
            }
            DocCommand::ConnectRailOptimised => {
                let built = build.rail_optimised(&self.ui.selection.devices);
                self.gesture(built);
            }
            DocCommand::ConnectFullMesh => {
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
            // Edits, undo, redo and swaps are handled in `apply_doc`.
            _ => {}
        }
    }

    /// Runs an action that would discard the document, asking first when there are unsaved changes ("Save
    /// first" saves, then runs it). Every path that replaces the open design goes through here; a panel that
    /// makes a design pushes [`DocCommand::ReplaceDesign`].
    pub(crate) fn guarded(&mut self, action: Pending) {
        self.ui.files.after_save = None;
        if self.doc.is_dirty() {
            self.ui.files.pending = Some(action);
        } else {
            self.run_pending(action);
        }
    }

    /// Runs an action the user confirmed (or that needed no confirmation).
    pub(super) fn run_pending(&mut self, action: Pending) {
        match action {
            Pending::New => {
                self.doc.replace(Design::default(), None);
                self.ui.selection = Selection::default();
                self.ui.canvas.view.fit = Some(FitTarget::All);
                self.ui.status.info("New design");
            }
            Pending::Open(Some(p)) => self.open_path(p),
            Pending::Open(None) => self.ask_path(FilePurpose::Open),
            Pending::Template(name, options) => {
                // Only a design that loads again is opened (the command line's `new` writes only such a one).
                let made = crate::templates::generate(&self.catalog, &name, &options)
                    .map_err(|e| e.to_string())
                    .and_then(|d| {
                        crate::io::design_to_loadable_string(&d)
                            .map(|_| d)
                            .map_err(|e| e.to_string())
                    });
                match made {
                    Ok(d) => {
                        let label = format!("New design from template {name}");
                        match self.doc.replace_undoable(d, label.clone()) {
                            Ok(()) => {
                                self.ui.selection = Selection::default();
                                self.ui.canvas.view.fit = Some(FitTarget::All);
                                self.ui.status.info(format!(
                                    "{label} (not saved yet; Undo brings the previous design back)"
                                ));
                            }
                            Err(e) => {
                                self.ui.windows.error = Some(format!("Cannot make {name}: {e}"));
                            }
                        }
                    }
                    Err(e) => self.ui.windows.error = Some(format!("Cannot make {name}: {e}")),
                }
            }
            Pending::OpenSample(name) => match crate::samples::sample(&name) {
                Ok(d) => {
                    self.doc.replace(d, None);
                    self.ui.selection = Selection::default();
                    self.ui.canvas.view.fit = Some(FitTarget::All);
                    self.ui.status.info(format!(
                        "Opened sample \"{}\"",
                        crate::samples::title(&name)
                    ));
                }
                Err(e) => self.ui.windows.error = Some(format!("Cannot build sample {name}: {e}")),
            },
            Pending::Sized(d) => {
                let label = format!("New design: {}", d.name);
                match self.doc.replace_undoable(*d, label.clone()) {
                    Ok(()) => {
                        self.ui.selection = Selection::default();
                        self.ui.canvas.view.fit = Some(FitTarget::All);
                        self.ui.status.info(format!(
                            "{label} (not saved yet; Undo brings the previous design back)"
                        ));
                    }
                    Err(e) => self.ui.windows.error = Some(format!("Cannot open {label}: {e}")),
                }
            }
            Pending::Recover(d) => {
                self.doc.replace_unsaved(*d);
                self.ui.selection = Selection::default();
                self.ui.canvas.view.fit = Some(FitTarget::All);
                self.ui.status.info("Recovered unsaved work");
            }
            Pending::Replace(d, what) => {
                self.doc.replace_unsaved(*d);
                self.ui.selection = Selection::default();
                self.ui.canvas.view.fit = Some(FitTarget::All);
                self.ui.status.info(format!("Done: {what} (not saved yet)"));
            }
            Pending::Quit => {
                self.allow_close = true;
                self.recovery.remove();
                self.ui.files.pending = None;
                self.quit_requested = true;
            }
        }
    }

    pub(super) fn open_path(&mut self, path: PathBuf) {
        match crate::io::load(&path) {
            Ok(d) => {
                self.doc.replace(d, Some(path.clone()));
                self.ui.selection = Selection::default();
                self.ui.canvas.view.fit = Some(FitTarget::All);
                self.ui.files.push_recent(path.clone());
                self.ui.status.info(format!("Opened {}", path.display()));
            }
            Err(e) => {
                // The open design stays as it is.
                self.ui.windows.error = Some(format!("Could not open the file:\n{e}"));
            }
        }
    }

    pub(super) fn save_to(&mut self, path: PathBuf) {
        let bytes = match crate::io::design_to_string(&self.doc.design) {
            Ok(text) => text.into_bytes(),
            Err(e) => {
                self.save_failed(&path, &e);
                return;
            }
        };
        let revision = self.doc.revision;
        match file_requests::write_file(&path, &bytes) {
            Ok(()) => self.saved(path, revision),
            Err(crate::io::SaveError::ReadOnly { .. }) => {
                self.ui.files.read_only = Some(state::ReadOnlyPrompt {
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
        self.ui.files.push_recent(path.clone());
        self.recovery.remove();
        self.ui.status.info(format!("Saved {}", path.display()));
        // "Save first": the action asked for runs now that the work is safe.
        if let Some(action) = self.ui.files.after_save.take() {
            self.run_pending(action);
        }
    }

    fn save_failed(&mut self, path: &std::path::Path, e: &crate::io::SaveError) {
        self.ui.files.after_save = None;
        // The document stays open and marked unsaved; the error says why.
        self.ui.windows.error = Some(format!(
            "Could not save {}: {}\nThe design is still open, with its unsaved changes.",
            self.doc.design.name,
            dialogs::write_error_reason(e)
        ));
        self.ui
            .status
            .refuse(format!("Not saved: {}", path.display()));
    }

    /// Finishes the write the read-only prompt held, replacing the read-only file (the user said so).
    fn replace_read_only(&mut self) {
        let Some(prompt) = self.ui.files.read_only.take() else {
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
}

/// "Delete 1 rack with 16 devices and 504 cables?": what deleting the selection takes with it.
pub(super) fn delete_question(design: &Design, sel: &Selection) -> String {
    use crate::analysis::format::count;
    let n = crate::edit::Removed::by_delete(design, &sel.devices, &sel.racks, &sel.links);
    let mut what = Vec::new();
    if n.racks > 0 {
        what.push(count(n.racks, "rack", "racks"));
    }
    what.push(count(n.devices, "device", "devices"));
    format!(
        "Delete {} and {}? Undo (Ctrl+Z) brings them back.",
        what.join(" with "),
        count(n.links, "cable", "cables")
    )
}

/// Whether an edit can change where racks, devices and links are drawn (the canvas lays the design out again).
pub(super) fn changes_layout(edit: &Edit) -> bool {
    match edit {
        Edit::SetParams(_) | Edit::SetSite(..) | Edit::SetMeta { .. } | Edit::SetScenarios(_) => {
            false
        }
        Edit::Batch(edits) => edits.iter().any(changes_layout),
        _ => true,
    }
}

impl RacksmithApp {
    /// Opens a window or panel ([`UiCommand::Show`]): the inspector here, any window through the registry.
    fn show_window(&mut self, what: Show) {
        if what == Show::Inspector {
            self.ui.windows.inspector_collapsed = false;
            self.ui.windows.right_collapsed = false;
            return;
        }
        let (context, registry) = self.window_context();
        registry.open(&what, &context);
    }

    /// Closes the window or panel if it shows what `what` names, opens it otherwise ([`UiCommand::Toggle`]).
    fn toggle_window(&mut self, what: Show) {
        if what == Show::Inspector {
            let w = &mut self.ui.windows;
            if !w.inspector_collapsed && !w.right_collapsed {
                w.inspector_collapsed = true;
            } else {
                self.show_window(what);
            }
            return;
        }
        let (context, registry) = self.window_context();
        registry.toggle(&what, &context);
    }
}
