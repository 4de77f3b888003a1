//! File dialogs that always show something. The native dialog (rfd) is the first choice; when none can be shown
//! (Linux with no xdg-desktop-portal and no zenity, e.g. under Xvfb) the in-app dialog from `egui_file` appears
//! instead, with a path field, the folder listing filtered by extension and an overwrite prompt. Open, Save As,
//! Compare with file and every export ask through `RacksmithApp::ask_path` (file_requests.rs); nothing reports "cancelled" unless a
//! dialog was shown and the user cancelled it.
//!
//! `RACKSMITH_FILE_DIALOG=builtin` always uses the in-app dialog, `=native` always the native one.

// The browser asks its own file picker (`web.rs`): the native dialogs' detection is unused there.
#![cfg_attr(target_arch = "wasm32", allow(dead_code))]

use super::commands::{AppCommand, FileCommand};
use crate::export::{Format, View};
use std::path::{Path, PathBuf};
#[cfg(not(target_arch = "wasm32"))]
use std::time::{Duration, Instant};

/// What a native dialog did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NativeOutcome {
    /// The user chose this file.
    Chosen(PathBuf),
    /// A dialog was shown and the user cancelled it.
    Cancelled,
    /// No native dialog could be shown; the app shows its own.
    Unavailable,
}

/// Whether a dialog picks an existing file or names one to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DialogKind {
    /// Pick an existing file.
    Open,
    /// Name a file to write.
    Save,
}

/// What a dialog asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct DialogRequest {
    /// Open or save.
    pub kind: DialogKind,
    /// The dialog's title, saying what the file is for ("Export the review report").
    pub title: String,
    /// Name of the file type, e.g. "Racksmith design".
    pub filter_name: String,
    /// The file type's extension, without the dot.
    pub extension: String,
    /// Folder the dialog starts in.
    pub directory: Option<PathBuf>,
    /// Suggested file name (save dialogs).
    pub file_name: Option<String>,
}

/// A source of native file dialogs; tests inject one that is unavailable or scripted.
pub trait NativeDialogs {
    /// Shows a dialog for the request and says what happened.
    fn show(&mut self, request: &DialogRequest) -> NativeOutcome;
}

/// No native dialogs: the in-app dialog every time (tests, `RACKSMITH_FILE_DIALOG=builtin`).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoNativeDialogs;

impl NativeDialogs for NoNativeDialogs {
    fn show(&mut self, _request: &DialogRequest) -> NativeOutcome {
        NativeOutcome::Unavailable
    }
}

/// A rfd answer faster than this was not a human cancelling a dialog: no dialog was shown.
#[cfg(not(target_arch = "wasm32"))]
const NO_DIALOG_WITHIN: Duration = Duration::from_millis(300);

/// Native dialogs through rfd, with detection of a desktop that cannot show them. Once a dialog failed to appear,
/// the in-app one is used for the rest of the session.
#[derive(Debug, Default)]
pub struct RfdDialogs {
    /// Skip detection and heuristics (`RACKSMITH_FILE_DIALOG=native`).
    forced: bool,
    /// Learnt this session: no native dialog can be shown.
    unavailable: bool,
}

impl RfdDialogs {
    /// Native dialogs with detection (`forced` = false) or without.
    pub fn new(forced: bool) -> Self {
        Self {
            forced,
            unavailable: false,
        }
    }
}

impl NativeDialogs for RfdDialogs {
    #[cfg(target_arch = "wasm32")]
    fn show(&mut self, _request: &DialogRequest) -> NativeOutcome {
        // The browser's file picker is asynchronous: `RacksmithApp::web_ask_path` asks it instead.
        NativeOutcome::Unavailable
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn show(&mut self, request: &DialogRequest) -> NativeOutcome {
        if self.unavailable {
            return NativeOutcome::Unavailable;
        }
        if !self.forced && !platform_can_show_dialogs() {
            self.unavailable = true;
            return NativeOutcome::Unavailable;
        }
        let mut dialog = rfd::FileDialog::new()
            .set_title(&request.title)
            .add_filter(&request.filter_name, &[request.extension.as_str()]);
        if let Some(dir) = request.directory.as_ref().filter(|d| d.is_dir()) {
            dialog = dialog.set_directory(dir);
        }
        if let Some(name) = &request.file_name {
            dialog = dialog.set_file_name(name);
        }
        let started = Instant::now();
        let chosen = match request.kind {
            DialogKind::Open => dialog.pick_file(),
            DialogKind::Save => dialog.save_file(),
        };
        match chosen {
            Some(p) => NativeOutcome::Chosen(p),
            None if !self.forced && started.elapsed() < NO_DIALOG_WITHIN => {
                self.unavailable = true;
                NativeOutcome::Unavailable
            }
            None => NativeOutcome::Cancelled,
        }
    }
}

/// The dialogs chosen by `RACKSMITH_FILE_DIALOG` (`builtin`, `native`, or unset for native with detection).
pub fn dialogs_from_env() -> Box<dyn NativeDialogs> {
    match std::env::var("RACKSMITH_FILE_DIALOG").as_deref() {
        Ok("builtin") => Box::new(NoNativeDialogs),
        Ok("native") => Box::new(RfdDialogs::new(true)),
        _ => Box::new(RfdDialogs::new(false)),
    }
}

/// Starts finding out whether native dialogs can be shown, off the UI thread, so the first dialog does not wait
/// for the D-Bus questions.
pub fn probe_in_background() {
    std::thread::spawn(platform_can_show_dialogs);
}

/// Whether this desktop can show a native dialog. On Linux rfd asks the xdg-desktop-portal over the session D-Bus
/// and falls back to zenity; with neither there is no dialog. Elsewhere the system dialogs are always there.
fn platform_can_show_dialogs() -> bool {
    #[cfg(target_os = "linux")]
    {
        static CAN: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *CAN.get_or_init(|| on_path("zenity") || portal_reachable())
    }
    #[cfg(not(target_os = "linux"))]
    {
        true
    }
}

#[cfg(target_os = "linux")]
fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()))
}

/// Whether a session bus exists and `org.freedesktop.portal.Desktop` is running or can be started on it. Without
/// `dbus-send` to ask, a bus counts as reachable and the timing check in [`RfdDialogs`] decides.
#[cfg(target_os = "linux")]
fn portal_reachable() -> bool {
    let address = std::env::var("DBUS_SESSION_BUS_ADDRESS").ok();
    let runtime_bus = std::env::var_os("XDG_RUNTIME_DIR")
        .map(|d| PathBuf::from(d).join("bus"))
        .filter(|p| p.exists());
    if address.as_deref().is_none_or(str::is_empty) && runtime_bus.is_none() {
        return false;
    }
    if !on_path("dbus-send") {
        return true;
    }
    let ask = |method: &str| -> Option<String> {
        let out = std::process::Command::new("dbus-send")
            .args([
                "--session",
                "--print-reply",
                "--reply-timeout=1000",
                "--dest=org.freedesktop.DBus",
                "/org/freedesktop/DBus",
                method,
            ])
            .stderr(std::process::Stdio::null())
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let listed = |method| ask(method).is_some_and(|s| s.contains("org.freedesktop.portal.Desktop"));
    listed("org.freedesktop.DBus.ListNames") || listed("org.freedesktop.DBus.ListActivatableNames")
}

/// Output of a comparison export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareFormat {
    /// Self-contained HTML page.
    Html,
    /// CSV table of the figures.
    Csv,
}

impl CompareFormat {
    /// File extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            CompareFormat::Html => "html",
            CompareFormat::Csv => "csv",
        }
    }
}

/// What a chosen file is for.
#[derive(Debug, Clone, PartialEq)]
pub enum FilePurpose {
    /// Open a design (the "discard changes?" question was already answered).
    Open,
    /// Compare the open design with a design file.
    CompareWith,
    /// Save the design under a new name.
    SaveAs,
    /// Export in a format (with the view for drawings).
    Export(Format, View),
    /// Export the plain-text analysis report.
    ExportTextReport,
    /// Export the open comparison.
    ExportComparison(CompareFormat),
    /// Import a NetBox device type (YAML) into the user catalog.
    ImportNetbox,
    /// Read what `ibnetdiscover` reported, to compare with the design.
    CheckAsBuilt,
}

impl FilePurpose {
    pub(super) fn kind(&self) -> DialogKind {
        match self {
            FilePurpose::Open
            | FilePurpose::CompareWith
            | FilePurpose::ImportNetbox
            | FilePurpose::CheckAsBuilt => DialogKind::Open,
            _ => DialogKind::Save,
        }
    }

    pub(super) fn title(&self) -> String {
        match self {
            FilePurpose::Open => "Open design".into(),
            FilePurpose::CompareWith => "Compare with design".into(),
            FilePurpose::SaveAs => "Save design as".into(),
            FilePurpose::Export(f, v) if f.has_view() => {
                format!("Export {} of the {}", f.label(), view_name(*v))
            }
            FilePurpose::Export(f, _) => format!("Export {}", f.label()),
            FilePurpose::ExportTextReport => "Export plain-text report".into(),
            FilePurpose::ExportComparison(CompareFormat::Html) => "Export comparison (HTML)".into(),
            FilePurpose::ExportComparison(CompareFormat::Csv) => "Export comparison (CSV)".into(),
            FilePurpose::ImportNetbox => "Import NetBox device type".into(),
            FilePurpose::CheckAsBuilt => {
                "Check as built: the fabric as ibnetdiscover reported it".into()
            }
        }
    }

    pub(super) fn filter(&self) -> (String, &'static str) {
        match self {
            FilePurpose::Open | FilePurpose::CompareWith | FilePurpose::SaveAs => {
                ("Racksmith design".into(), "ron")
            }
            FilePurpose::Export(f, _) => (f.label().into(), f.extension()),
            FilePurpose::ExportTextReport => ("Text".into(), "txt"),
            FilePurpose::ExportComparison(c) => (format!("{c:?}"), c.extension()),
            FilePurpose::ImportNetbox => ("NetBox device type (YAML)".into(), "yaml"),
            FilePurpose::CheckAsBuilt => ("ibnetdiscover output".into(), "txt"),
        }
    }

    /// Whether the file lands in the remembered export folder.
    pub(super) fn is_export(&self) -> bool {
        matches!(
            self,
            FilePurpose::Export(..)
                | FilePurpose::ExportTextReport
                | FilePurpose::ExportComparison(_)
        )
    }
}

/// "racks" or "fabric".
pub fn view_name(view: View) -> &'static str {
    match view {
        View::Racks => "racks",
        View::Fabric => "fabric",
    }
}

/// The in-app dialog on screen and what its file is for.
pub struct InAppDialog {
    purpose: FilePurpose,
    extension: &'static str,
    dialog: egui_file::FileDialog,
}

impl InAppDialog {
    pub(super) fn new(
        purpose: FilePurpose,
        request: &DialogRequest,
        extension: &'static str,
    ) -> Self {
        let builder = match request.kind {
            DialogKind::Open => egui_file::FileDialog::open_file(),
            DialogKind::Save => egui_file::FileDialog::save_file(),
        };
        let ext = extension.to_string();
        let mut builder = builder
            .title(&request.title)
            .id(egui::Id::unique("racksmith_file_dialog"))
            .default_size([620.0, 460.0])
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show_rename(false)
            .keep_on_top(true)
            .show_files_filter(Box::new(move |p: &Path| {
                p.extension().is_some_and(|e| e.eq_ignore_ascii_case(&ext))
            }));
        if let Some(dir) = request.directory.as_ref().filter(|d| d.is_dir()) {
            builder = builder.initial_path(dir);
        }
        if let Some(name) = &request.file_name {
            builder = builder.default_filename(name.clone());
        }
        builder.open();
        Self {
            purpose,
            extension,
            dialog: builder,
        }
    }
}

/// A save onto an existing file, waiting for "Replace it?".
#[derive(Debug, Clone, PartialEq)]
pub struct OverwritePrompt {
    /// What the file is for.
    pub purpose: FilePurpose,
    /// The existing file.
    pub path: PathBuf,
}

/// The prompts the dialogs own, borrowed from the UI state (so this module does not depend on it).
pub struct Prompts<'a> {
    /// The in-app file dialog, when open.
    pub file_dialog: &'a mut Option<InAppDialog>,
    /// A save onto an existing file waiting for "Replace it?".
    pub overwrite: &'a mut Option<OverwritePrompt>,
    /// A write onto a read-only file waiting for "Replace it anyway?".
    pub read_only: &'a mut Option<ReadOnlyPrompt>,
}

/// Shows the in-app file dialog and the prompts when open; returns a status message when one was cancelled.
pub fn file_dialog_ui(
    ctx: &egui::Context,
    p: Prompts<'_>,
    cmds: &mut Vec<AppCommand>,
) -> Option<String> {
    let mut status = None;
    if let Some(d) = p.file_dialog.as_mut() {
        let dialog_state = d.dialog.show(ctx).state();
        match dialog_state {
            egui_file::State::Selected => {
                let chosen = d.dialog.path().map(Path::to_path_buf);
                let purpose = d.purpose.clone();
                let ext = d.extension;
                *p.file_dialog = None;
                if let Some(path) = chosen {
                    let path = with_extension(path, ext);
                    if purpose.kind() == DialogKind::Save && path.exists() {
                        *p.overwrite = Some(OverwritePrompt { purpose, path });
                    } else {
                        cmds.push(FileCommand::FileChosen(purpose, path).into());
                    }
                }
            }
            egui_file::State::Cancelled | egui_file::State::Closed => {
                let title = d.purpose.title();
                *p.file_dialog = None;
                status = Some(format!("{title} cancelled"));
            }
            egui_file::State::Open => {}
        }
    }
    status = overwrite_prompt_ui(ctx, p.overwrite, cmds).or(status);
    read_only_prompt_ui(ctx, p.read_only, cmds).or(status)
}

/// "X is read-only. Replace it anyway?" for a save or export refused by `io::write_atomic`.
fn read_only_prompt_ui(
    ctx: &egui::Context,
    read_only: &mut Option<ReadOnlyPrompt>,
    cmds: &mut Vec<AppCommand>,
) -> Option<String> {
    let prompt = read_only.as_ref()?;
    let name = prompt.path.file_name().map_or_else(
        || prompt.path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let full = prompt.path.display().to_string();
    let mut choice = None;
    let modal = egui::Modal::new(egui::Id::unique("read_only_prompt")).show(ctx, |ui| {
        ui.set_max_width(440.0);
        ui.heading("Read-only file");
        ui.label(format!("{name} is read-only. Replace it anyway?"));
        ui.label(egui::RichText::new(full).weak());
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui
                .button("Replace")
                .on_hover_text("Make the file writable and replace it")
                .clicked()
            {
                choice = Some(true);
            }
            if ui.button("Cancel").clicked() {
                choice = Some(false);
            }
        });
    });
    if choice.is_none() && modal.should_close() {
        choice = Some(false);
    }
    match choice {
        Some(true) => cmds.push(FileCommand::ReplaceReadOnly.into()),
        Some(false) => {
            *read_only = None;
            return Some(format!("{name} left as it was (read-only)"));
        }
        None => {}
    }
    None
}

fn overwrite_prompt_ui(
    ctx: &egui::Context,
    overwrite: &mut Option<OverwritePrompt>,
    cmds: &mut Vec<AppCommand>,
) -> Option<String> {
    let prompt = overwrite.clone()?;
    let name = prompt.path.file_name().map_or_else(
        || prompt.path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut choice = None;
    let modal = egui::Modal::new(egui::Id::unique("overwrite_prompt")).show(ctx, |ui| {
        ui.set_max_width(440.0);
        ui.heading("Replace file?");
        ui.label(format!("{name} exists. Replace it?"));
        ui.label(egui::RichText::new(prompt.path.display().to_string()).weak());
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui.button("Replace").clicked() {
                choice = Some(true);
            }
            if ui.button("Cancel").clicked() {
                choice = Some(false);
            }
        });
    });
    if choice.is_none() && modal.should_close() {
        choice = Some(false);
    }
    match choice {
        Some(true) => {
            *overwrite = None;
            cmds.push(FileCommand::FileChosen(prompt.purpose, prompt.path).into());
        }
        Some(false) => {
            *overwrite = None;
            return Some(format!("{name} left as it was"));
        }
        None => {}
    }
    None
}

/// Adds the format's extension to a name typed without one.
fn with_extension(path: PathBuf, ext: &str) -> PathBuf {
    if path.extension().is_some() {
        path
    } else {
        path.with_extension(ext)
    }
}

/// Why a write failed, in words a user can act on, then the OS's own message.
pub fn write_error_reason(err: &crate::io::SaveError) -> String {
    use std::io::ErrorKind;
    let crate::io::SaveError::Io { path, source } = err else {
        return err.to_string();
    };
    let folder = path
        .parent()
        .map_or_else(String::new, |p| p.display().to_string());
    let reason = match source.kind() {
        ErrorKind::PermissionDenied => "permission denied: you may not write there".to_string(),
        ErrorKind::StorageFull => "the disk is full".to_string(),
        ErrorKind::QuotaExceeded => "the disk quota is used up".to_string(),
        ErrorKind::ReadOnlyFilesystem => "the disk is read-only".to_string(),
        ErrorKind::NotFound => format!("the folder {folder} does not exist"),
        ErrorKind::NotADirectory => format!("{folder} is not a folder"),
        ErrorKind::IsADirectory => "that name is a folder".to_string(),
        _ => "the system refused".to_string(),
    };
    format!("{reason}\n{}\n({source})", path.display())
}

/// Today's date as YYYY-MM-DD (UTC), for the reports' dates.
pub fn today() -> Option<String> {
    Some(crate::export::today())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_without_extension_gets_the_formats() {
        assert_eq!(
            with_extension(PathBuf::from("/tmp/x"), "csv"),
            PathBuf::from("/tmp/x.csv")
        );
        assert_eq!(
            with_extension(PathBuf::from("/tmp/x.txt"), "csv"),
            PathBuf::from("/tmp/x.txt")
        );
    }

    #[test]
    fn today_is_a_date() {
        let d = today().unwrap();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"), "{d}");
    }

    #[test]
    fn a_missing_folder_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nope").join("x.ron");
        let err = crate::io::write_atomic(&path, b"x").unwrap_err();
        let why = write_error_reason(&err);
        assert!(why.contains("does not exist"), "{why}");
    }
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
