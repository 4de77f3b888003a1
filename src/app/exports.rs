//! Exports from the app: File > Export (one entry per `export::Format`, racks or fabric for drawings), the
//! plain-text report and the comparison. Every file is written with `io::write_atomic`; the status bar says what
//! was written where, and a failure says why in the error window.
//!
//! An export needs the report of the current revision. When the shown one is stale the export waits for the
//! analysis (inline for small designs, joining the background job for large ones): a file must never describe an
//! older design than the one on screen.

use super::dialogs::{CompareFormat, today, view_name, write_error_reason};
use super::windows::compare::CompareWindow;
use super::{AppCommand, FileCommand, RacksmithApp};
use crate::analysis::Report;
use crate::export::{Format, Options, View};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The File > Export submenu.
pub fn export_menu_ui(ui: &mut egui::Ui, cmds: &mut Vec<AppCommand>) {
    for format in Format::ALL {
        if format.has_view() {
            ui.menu_button(format.label(), |ui| {
                if ui
                    .button("Racks (elevations)…")
                    .on_hover_text("Front elevations of every rack")
                    .clicked()
                {
                    cmds.push(FileCommand::Export(format, View::Racks).into());
                }
                if ui
                    .button("Fabric…")
                    .on_hover_text(
                        "The fabric by tier, links coloured by the load of the toolbar's pattern",
                    )
                    .clicked()
                {
                    cmds.push(FileCommand::Export(format, View::Fabric).into());
                }
            });
        } else {
            let mut button = egui::Button::new(format!("{}…", format.label()));
            if format == Format::Html {
                button = button.shortcut_text(super::actions::menu_text(
                    ui.ctx(),
                    super::actions::Action::ExportHtml,
                ));
            }
            if ui.add(button).clicked() {
                cmds.push(FileCommand::Export(format, View::default()).into());
            }
        }
    }
    ui.separator();
    if ui
        .button("Plain-text analysis report (.txt)…")
        .on_hover_text("The analysis pane's figures and findings as plain text")
        .clicked()
    {
        cmds.push(FileCommand::ExportReport.into());
    }
}

impl RacksmithApp {
    /// The report of the current revision, waiting for the analysis when the shown one is stale.
    pub(super) fn current_report(&mut self) -> Arc<Report> {
        self.wait_for_analysis();
        match self.analysis.report.clone() {
            Some(r) if !self.analysis.is_stale(self.doc.revision) => r,
            _ => Arc::new(crate::analysis::analyze(&self.doc.design)),
        }
    }

    /// Export options: the view, the toolbar's traffic pattern, today's date and where the design is: the hash of
    /// its file's bytes when the file holds the design shown (saved, and not changed on disk since), else marked
    /// unsaved (the report then says its hash is of the design as it would be saved, which no file holds).
    fn export_options(&self, view: View) -> Options {
        let saved_file = self
            .doc
            .path
            .as_ref()
            .filter(|_| !self.doc.is_dirty())
            .and_then(|p| {
                // Read once: the bytes are hashed only when they load as the design shown.
                let text =
                    crate::io::read_checked_text(p, crate::io::MAX_FILE_BYTES, "a design file")
                        .ok()?;
                crate::io::design_from_str(&text, p)
                    .is_ok_and(|d| d == *self.doc.design)
                    .then(|| text.into_bytes())
            });
        Options {
            view,
            pattern: Some(self.ui.canvas.load_pattern),
            date: today(),
            unsaved: saved_file.is_none(),
            source_hash: saved_file.map(|bytes| crate::export::short_hash(&bytes)),
        }
    }

    /// Writes exported bytes, then says what was written where (or why not). A read-only target is held for the
    /// user's "Replace it anyway?".
    fn write_export(&mut self, what: &str, path: &Path, bytes: &[u8]) {
        match super::file_requests::write_file(path, bytes) {
            Err(crate::io::SaveError::ReadOnly { .. }) => {
                self.ui.files.read_only = Some(super::dialogs::ReadOnlyPrompt {
                    path: path.to_path_buf(),
                    bytes: bytes.to_vec(),
                    write: super::dialogs::HeldWrite::Export {
                        what: what.to_string(),
                    },
                });
            }
            result => self.export_written(what, path, bytes.len(), result),
        }
    }

    /// Says what an export wrote where, or why it could not.
    pub(super) fn export_written(
        &mut self,
        what: &str,
        path: &Path,
        len: usize,
        result: Result<(), crate::io::SaveError>,
    ) {
        match result {
            Ok(()) => self.ui.status.info(format!(
                "Exported {what} to {} ({})",
                path.display(),
                human_size(len)
            )),
            Err(e) => {
                self.ui.windows.error = Some(format!(
                    "Could not write the {what}: {}",
                    write_error_reason(&e)
                ));
                self.ui
                    .status
                    .refuse(format!("Export failed: {}", path.display()));
            }
        }
    }

    /// Exports the design in a format to a file.
    pub(super) fn export_to(&mut self, format: Format, view: View, path: &Path) {
        let report = self.current_report();
        let options = self.export_options(view);
        let what = if format.has_view() {
            format!("{} of the {}", format.label(), view_name(view))
        } else {
            format.label().to_string()
        };
        if format.writes_folder() {
            // Several files: the chosen path is the folder they go in.
            let written = crate::export::export_files(&self.doc.design, &report, format, &options)
                .map_err(|e| e.to_string())
                .and_then(|files| {
                    std::fs::create_dir_all(path).map_err(|e| e.to_string())?;
                    for (name, bytes) in &files {
                        crate::io::write_atomic(&path.join(name), bytes)
                            .map_err(|e| e.to_string())?;
                    }
                    Ok(files.len())
                });
            match written {
                Ok(n) => self
                    .ui
                    .status
                    .info(format!("Exported {what}: {n} files in {}", path.display())),
                Err(e) => {
                    self.ui.windows.error = Some(format!("Could not export the {what}:\n{e}"));
                    self.ui.status.refuse(format!("Export failed: {e}"));
                }
            }
            return;
        }
        match crate::export::export(&self.doc.design, &report, format, &options) {
            Ok(bytes) => self.write_export(&what, path, &bytes),
            Err(e) => {
                self.ui.windows.error = Some(format!("Could not export the {what}:\n{e}"));
                self.ui.status.refuse(format!("Export failed: {e}"));
            }
        }
    }

    /// Exports the plain-text analysis report.
    pub(super) fn export_report(&mut self, path: PathBuf) {
        let report = self.current_report();
        let text = crate::analysis::text::render(&report);
        self.write_export("plain-text report", &path, text.as_bytes());
    }

    /// Exports the open comparison as HTML or CSV.
    pub(super) fn export_comparison_to(&mut self, format: CompareFormat, path: &Path) {
        let shown = self.ui.windows.registry.get::<CompareWindow>();
        let Some(c) = shown.and_then(|w| w.shown.as_ref()) else {
            self.ui.status.refuse("No comparison is open");
            return;
        };
        let options = self.export_options(View::default());
        let text = match format {
            CompareFormat::Html => crate::export::compare_html(
                (&c.a_design, &c.a_report),
                (&c.b_design, &c.b_report),
                &c.comparison,
                &options,
            ),
            CompareFormat::Csv => crate::export::compare_csv(&c.comparison),
        };
        let what = match format {
            CompareFormat::Html => "comparison (HTML)",
            CompareFormat::Csv => "comparison (CSV)",
        };
        match text {
            Ok(text) => self.write_export(what, path, text.as_bytes()),
            Err(e) => {
                self.ui.windows.error = Some(format!("Could not export the {what}:\n{e}"));
                self.ui.status.refuse(format!("Export failed: {e}"));
            }
        }
    }
}

/// "12 KB", "3.4 MB".
fn human_size(bytes: usize) -> String {
    let b = bytes as f64;
    if b < 1024.0 {
        format!("{bytes} bytes")
    } else if b < 1024.0 * 1024.0 {
        format!("{:.0} KB", b / 1024.0)
    } else {
        format!("{:.1} MB", b / 1024.0 / 1024.0)
    }
}
