//! Asking for a file and doing what it was asked for: the dialog request for each purpose (title, filter, starting
//! folder, suggested name), the native or in-app dialog, and the chosen file's open, save, export, comparison or
//! as-built check. Part of the app's shell: it drives the whole app.

use super::RacksmithApp;
use super::dialogs::{DialogRequest, FilePurpose, InAppDialog, NativeDialogs, NativeOutcome};
use super::windows::{as_built::AsBuiltWindow, compare::CompareWindow};
use crate::export::View;
use crate::model::Design;
use std::path::{Path, PathBuf};

impl RacksmithApp {
    /// Replaces the source of native dialogs (tests inject [`NoNativeDialogs`] or a scripted one).
    pub fn set_native_dialogs(&mut self, dialogs: Box<dyn NativeDialogs>) {
        self.dialogs = dialogs;
    }

    /// The dialog request for a purpose: title, filter, starting folder and suggested name.
    pub(super) fn request(&self, purpose: &FilePurpose) -> DialogRequest {
        let (filter_name, extension) = purpose.filter();
        let doc_dir = self
            .doc
            .path
            .as_ref()
            .and_then(|p| p.parent())
            .filter(|d| !d.as_os_str().is_empty())
            .map(Path::to_path_buf);
        let directory = if purpose.is_export() {
            self.ui.files.export_dir.clone().or(doc_dir)
        } else {
            doc_dir
        };
        let stem = self.design_stem();
        let file_name = match purpose {
            FilePurpose::Open
            | FilePurpose::CompareWith
            | FilePurpose::ImportNetbox
            | FilePurpose::CheckAsBuilt => None,
            FilePurpose::SaveAs => Some(format!("{stem}.ron")),
            FilePurpose::Export(f, v) => {
                let view = if f.has_view() && *v == View::Fabric {
                    "-fabric"
                } else {
                    ""
                };
                Some(format!("{stem}{}{view}.{}", f.file_suffix(), f.extension()))
            }
            FilePurpose::ExportTextReport => Some(format!("{stem}-report.txt")),
            FilePurpose::ExportComparison(c) => Some(format!("{stem}-compare.{}", c.extension())),
        };
        DialogRequest {
            kind: purpose.kind(),
            title: purpose.title(),
            filter_name,
            extension: extension.to_string(),
            directory,
            file_name,
        }
    }

    /// The design's file stem, or its name made safe for a file name when it was never saved.
    pub(super) fn design_stem(&self) -> String {
        if let Some(stem) = self.doc.path.as_ref().and_then(|p| p.file_stem()) {
            return stem.to_string_lossy().into_owned();
        }
        let stem: String = self
            .doc
            .design
            .name
            .trim()
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if stem.is_empty() {
            "design".into()
        } else {
            stem
        }
    }

    /// Asks for a file: the native dialog when one can be shown, the in-app one otherwise.
    pub(super) fn ask_path(&mut self, purpose: FilePurpose) {
        #[cfg(target_arch = "wasm32")]
        if cfg!(target_arch = "wasm32") {
            self.web_ask_path(purpose);
            return;
        }
        let request = self.request(&purpose);
        match self.dialogs.show(&request) {
            NativeOutcome::Chosen(path) => self.path_chosen(purpose, path),
            NativeOutcome::Cancelled => {
                self.ui
                    .status
                    .info(format!("{} cancelled (no file chosen)", request.title));
            }
            NativeOutcome::Unavailable => {
                self.ui.status.info(
                    "No system file dialog can be shown here: type a path or browse in Racksmith's own",
                );
                let (_, ext) = purpose.filter();
                self.ui.files.file_dialog = Some(InAppDialog::new(purpose, &request, ext));
            }
        }
    }

    /// Does what a chosen file was asked for.
    pub(super) fn path_chosen(&mut self, purpose: FilePurpose, path: PathBuf) {
        if purpose.is_export()
            && let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        {
            self.ui.files.export_dir = Some(dir.to_path_buf());
        }
        match purpose {
            FilePurpose::Open => self.open_path(path),
            FilePurpose::CompareWith => self.compare_with_file(&path),
            FilePurpose::SaveAs => self.save_to(path),
            FilePurpose::Export(format, view) => self.export_to(format, view, &path),
            FilePurpose::ExportTextReport => self.export_report(path),
            FilePurpose::ExportComparison(c) => self.export_comparison_to(c, &path),
            FilePurpose::ImportNetbox => self.import_netbox(&path, None),
            FilePurpose::CheckAsBuilt => self.check_as_built_file(&path),
        }
    }
}

impl RacksmithApp {
    /// Opens the comparison of the open design (A) with another (B).
    /// `other_file` names the file B was read from (None for a sample).
    pub(super) fn compare_with(&mut self, other: Design, other_file: Option<String>) {
        // The open design's report is usually current already: analyse it again only when it is not.
        let a = self.current_report();
        let b = std::sync::Arc::new(crate::analysis::analyze(&other));
        let mut comparison =
            crate::analysis::compare::compare((&self.doc.design, &a), (&other, &b));
        comparison.a_file = self
            .doc
            .path
            .as_ref()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned());
        comparison.b_file = other_file;
        let shown = Some(super::windows::compare::CompareState {
            comparison,
            a_design: Design::clone(&self.doc.design),
            a_report: a,
            b_design: other,
            b_report: b,
            made_at: (self.doc.generation, self.doc.revision),
            open_is_a: true,
        });
        if let Some(w) = self.ui.windows.registry.get_mut::<CompareWindow>() {
            w.shown = shown;
        }
    }

    /// Compares the open design with a design file.
    /// Reads what `ibnetdiscover` reported and opens the as-built window on its difference with the design.
    pub(super) fn check_as_built_file(&mut self, path: &std::path::Path) {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        match crate::io::read_checked_text(path, crate::io::MAX_FILE_BYTES, "an ibnetdiscover file")
        {
            Ok(text) => self.check_as_built_text(name, &text, path),
            Err(e) => {
                self.ui.windows.error = Some(format!("Could not read the fabric's topology:\n{e}"))
            }
        }
    }

    /// The as-built window on the difference between the design and an ibnetdiscover text.
    pub(super) fn check_as_built_text(&mut self, name: String, text: &str, path: &std::path::Path) {
        match crate::io::fabric::read_ibnetdiscover(text, path) {
            Ok(found) => {
                let diff = crate::analysis::asbuilt::diff(&self.doc.design, &found);
                self.ui.status.info(format!(
                    "{name}: {} missing, {} miswired, {} slow, {} extra",
                    diff.missing.len(),
                    diff.miswired.len(),
                    diff.slow.len(),
                    diff.extra.len()
                ));
                let shown = Some(super::windows::as_built::AsBuiltState {
                    file: name,
                    diff,
                    revision: self.doc.revision,
                });
                if let Some(w) = self.ui.windows.registry.get_mut::<AsBuiltWindow>() {
                    w.shown = shown;
                }
            }
            Err(e) => {
                self.ui.windows.error = Some(format!("Could not read the fabric's topology:\n{e}"))
            }
        }
    }

    pub(super) fn compare_with_file(&mut self, path: &std::path::Path) {
        match crate::io::load(path) {
            Ok(other) => self.compare_with(
                other,
                path.file_name().map(|n| n.to_string_lossy().into_owned()),
            ),
            Err(e) => {
                self.ui.windows.error = Some(format!("Could not open the file to compare:\n{e}"))
            }
        }
    }
}

/// Writes a file the user asked for: atomically on the desktop, as a download in the browser.
pub fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<(), crate::io::SaveError> {
    #[cfg(target_arch = "wasm32")]
    {
        super::web::download(path, bytes)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        crate::io::write_atomic(path, bytes)
    }
}
