//! Files and safety: the "discard changes?" prompt, the error window, dropped files, the close request, the
//! crash-recovery autosave and the `--screenshot` job. File dialogs are in `dialogs`.

use super::state::Pending;
use super::{AppCommand, DocCommand, FileCommand, RacksmithApp};
use crate::io::recovery::{Autosave, Orphan, RecoveryDir};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// eframe storage key of the recent-files list.
pub const RECENT_KEY: &str = "racksmith.recent";

/// eframe storage key of the folder the last export went to.
pub const EXPORT_DIR_KEY: &str = "racksmith.export_dir";

/// How often a dirty document is written to the recovery file.
const AUTOSAVE_EVERY: Duration = Duration::from_secs(30);

/// This instance's crash recovery: an autosave of its own in the recovery folder (the platform's data directory,
/// beside eframe's settings), locked while the app runs, so a second instance never offers or deletes it
/// (`io::recovery`).
pub struct Recovery {
    dir: Option<RecoveryDir>,
    autosave: Option<Autosave>,
    last_write: Option<Instant>,
    written_revision: u64,
}

impl Recovery {
    /// No recovery (tests, screenshots).
    pub fn disabled() -> Self {
        Self {
            dir: None,
            autosave: None,
            last_write: None,
            written_revision: 0,
        }
    }

    /// Recovery files in the platform's data directory for Racksmith (the system temporary folder when there is
    /// none), in a `recovery` folder.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn default_location() -> Self {
        let base = eframe::storage_dir("Racksmith")
            .unwrap_or_else(|| std::env::temp_dir().join("racksmith"));
        Self::in_dir(base.join("recovery"))
    }

    /// Recovery files in a given folder.
    pub fn in_dir(dir: PathBuf) -> Self {
        Self {
            dir: Some(RecoveryDir::new(dir)),
            autosave: None,
            last_write: Some(Instant::now()),
            written_revision: 0,
        }
    }

    /// Autosaves left by instances that are gone (a live instance's are never listed).
    pub fn orphans(&self) -> Vec<Orphan> {
        self.dir
            .as_ref()
            .map_or_else(Vec::new, RecoveryDir::orphans)
    }

    /// Removes this instance's autosave: the work was saved, discarded or the app closes cleanly.
    pub fn remove(&mut self) {
        if let Some(a) = &self.autosave {
            a.clear();
        }
        self.written_revision = 0;
    }

    /// Loads an orphan the user chose to recover and removes it.
    pub fn adopt(&self, orphan: &Orphan) -> Result<crate::model::Design, crate::io::LoadError> {
        match &self.dir {
            Some(d) => d.adopt(orphan),
            None => crate::io::load(&orphan.path),
        }
    }

    /// Removes an orphan the user chose to discard.
    pub fn discard(&self, orphan: &Orphan) {
        if let Some(d) = &self.dir {
            d.discard(orphan);
        }
    }
}

/// Writes this instance's autosave every 30 s while the document has unsaved changes. A change made less than 30 s
/// after the last write asks for a frame when the 30 s are up, so it is written even if nothing else happens (no
/// input, no animation): autosave runs on a timer, not on the next repaint.
pub fn autosave(ctx: &egui::Context, app: &mut RacksmithApp) {
    if let Some(wait) = autosave_due(app) {
        ctx.request_repaint_after(wait);
    }
}

/// Writes the autosave when due; returns how long until it is due when a write is still owed.
fn autosave_due(app: &mut RacksmithApp) -> Option<Duration> {
    let rec = &mut app.recovery;
    let dir = rec.dir.clone()?;
    if !app.doc.is_dirty() || rec.written_revision == app.doc.revision {
        return None;
    }
    if let Some(t) = rec.last_write
        && t.elapsed() < AUTOSAVE_EVERY
    {
        return Some(AUTOSAVE_EVERY.saturating_sub(t.elapsed()));
    }
    // Offers still on screen are answered first: recovering one replaces the document.
    if !app.ui.files.recovery_offer.is_empty() {
        return None;
    }
    rec.last_write = Some(Instant::now());
    rec.written_revision = app.doc.revision;
    if rec.autosave.is_none() {
        match dir.claim() {
            Ok(a) => rec.autosave = Some(a),
            Err(e) => {
                app.ui.status.refuse(format!(
                    "Autosave failed: cannot claim a recovery file in {}: {e}",
                    dir.path().display()
                ));
                return None;
            }
        }
    }
    if let Some(a) = &rec.autosave
        && let Err(e) = a.write(&app.doc.design)
    {
        app.ui.status.refuse(format!("Autosave failed: {e}"));
    }
    None
}

/// Opens a `.ron` file dropped on the window.
pub fn dropped_files(ctx: &egui::Context, app: &mut RacksmithApp) {
    // In the browser a dropped file has a name and bytes, no path: `RacksmithApp::web_frame` reads it.
    if cfg!(target_arch = "wasm32") {
        return;
    }
    let dropped: Vec<PathBuf> = ctx.input(|i| {
        i.raw
            .dropped_files
            .iter()
            .map(|f| f.path().to_path_buf())
            .collect()
    });
    if let Some(p) = dropped
        .into_iter()
        .find(|p| p.extension().is_some_and(|e| e == "ron"))
    {
        app.commands.push(FileCommand::Open(Some(p)).into());
    }
}

/// Intercepts the window's close button when there are unsaved changes.
pub fn close_request(ctx: &egui::Context, app: &mut RacksmithApp) {
    if ctx.input(|i| i.viewport().close_requested()) && !app.allow_close && app.doc.is_dirty() {
        ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
        app.ui.files.pending = Some(Pending::Quit);
    }
}

/// Modal prompts and the error window.
pub fn dialogs_ui(ctx: &egui::Context, app: &mut RacksmithApp, cmds: &mut Vec<AppCommand>) {
    if let Some(err) = app.ui.windows.error.clone() {
        let mut open = true;
        egui::Window::new("Error")
            .id(crate::app::escape::Closable::Error.id())
            .collapsible(false)
            .resizable(true)
            .default_width(520.0)
            .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
            .open(&mut open)
            .show(ctx, |ui| {
                ui.label(egui::RichText::new(&err).monospace());
                ui.add_space(6.0);
                ui.label("The open design was not changed.");
                if ui.button("OK").clicked() {
                    app.ui.windows.error = None;
                }
            });
        if !open {
            app.ui.windows.error = None;
        }
    }

    if let Some(action) = app.ui.files.pending.clone() {
        let what = match &action {
            Pending::New => "start a new design".to_string(),
            Pending::Open(_) => "open another design".to_string(),
            Pending::OpenSample(s) => format!("open the sample \"{}\"", crate::samples::title(s)),
            Pending::Template(t, _) => format!("make a design from the template {t}"),
            Pending::Quit => "quit".to_string(),
            Pending::Sized(d) => format!("open the sized design {}", d.name),
            Pending::Recover(d) => format!("recover {}", d.name),
            Pending::Replace(_, what) => what.clone(),
        };
        let mut choice = None;
        let modal = egui::Modal::new(egui::Id::unique("discard_changes")).show(ctx, |ui| {
            ui.set_max_width(380.0);
            ui.heading("Unsaved changes");
            ui.label(format!(
                "{} has unsaved changes. Discard them and {what}?",
                app.doc.display_name()
            ));
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                if ui.button("Save first").clicked() {
                    choice = Some(0);
                }
                if ui.button("Discard changes").clicked() {
                    choice = Some(1);
                }
                if ui.button("Cancel").clicked() {
                    choice = Some(2);
                }
            });
        });
        // Escape (or a click beside the prompt) is Cancel: the changes stay and nothing else happens.
        if choice.is_none() && modal.should_close() {
            choice = Some(2);
        }
        match choice {
            Some(0) => {
                app.ui.files.pending = None;
                cmds.push(FileCommand::SaveThen(Box::new(action)).into());
            }
            Some(1) => {
                app.ui.files.pending = None;
                app.run_pending(action);
            }
            Some(_) => app.ui.files.pending = None,
            None => {}
        }
    }

    if let Some(question) = app.ui.editing.confirm_delete.clone() {
        let mut answer = None;
        let modal = egui::Modal::new(egui::Id::unique("confirm_delete")).show(ctx, |ui| {
            ui.set_max_width(380.0);
            ui.heading("Delete?");
            ui.label(question);
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                if ui.button("Delete").clicked() {
                    answer = Some(true);
                }
                if ui.button("Cancel").clicked() {
                    answer = Some(false);
                }
            });
        });
        if answer.is_none() && modal.should_close() {
            answer = Some(false);
        }
        if let Some(yes) = answer {
            app.ui.editing.confirm_delete = None;
            if yes {
                cmds.push(DocCommand::DeleteSelectionConfirmed.into());
            }
        }
    }

    recovery_offer_ui(ctx, app);
}

/// The autosaves of instances that did not exit cleanly, each with its design name and time: Recover or Discard.
/// One that does not load was kept under a new name; the user is told where.
fn recovery_offer_ui(ctx: &egui::Context, app: &mut RacksmithApp) {
    if app.ui.files.recovery_offer.is_empty() {
        return;
    }
    let mut choice: Option<(usize, bool)> = None;
    let mut dismiss = false;
    let modal = egui::Modal::new(egui::Id::unique("recovery_offer")).show(ctx, |ui| {
        ui.set_max_width(520.0);
        ui.heading("Recover unsaved work?");
        ui.label("Racksmith did not exit cleanly last time. These autosaves were left:");
        ui.add_space(6.0);
        for (i, o) in app.ui.files.recovery_offer.iter().enumerate() {
            let when = o
                .modified
                .and_then(|t| t.elapsed().ok())
                .map_or_else(String::new, |d| format!(" ({} min ago)", d.as_secs() / 60));
            match (&o.design_name, &o.error) {
                (Some(name), _) => {
                    ui.horizontal(|ui| {
                        ui.label(format!("{name}{when}"));
                        if ui.button("Recover").clicked() {
                            choice = Some((i, true));
                        }
                        if ui.button("Discard").clicked() {
                            choice = Some((i, false));
                        }
                    });
                }
                (None, Some(err)) => {
                    ui.label(format!("An autosave{when} could not be read: {err}"));
                }
                (None, None) => {}
            }
        }
        ui.add_space(6.0);
        if ui.button("Later").clicked() {
            dismiss = true;
        }
    });
    if modal.should_close() {
        dismiss = true;
    }
    if dismiss {
        app.ui.files.recovery_offer.clear();
        return;
    }
    let Some((i, recover)) = choice else {
        return;
    };
    if i >= app.ui.files.recovery_offer.len() {
        return;
    }
    let orphan = app.ui.files.recovery_offer.remove(i);
    if !recover {
        app.recovery.discard(&orphan);
        return;
    }
    match app.recovery.adopt(&orphan) {
        Ok(d) => {
            // Recovered work is unsaved work; the open design, when it has unsaved changes, is asked about first.
            app.guarded(Pending::Recover(Box::new(d)));
            app.ui.files.recovery_offer.clear();
        }
        Err(e) => app.ui.windows.error = Some(format!("Could not recover:\n{e}")),
    }
}

/// Renders a few frames, asks the window for its pixels, writes a PNG and closes.
pub struct ScreenshotJob {
    path: PathBuf,
    requested: Option<std::sync::mpsc::Receiver<std::sync::Arc<egui::ColorImage>>>,
    frames: u32,
}

impl ScreenshotJob {
    /// A job writing to `path`.
    pub fn new(path: PathBuf) -> Self {
        Self {
            path,
            requested: None,
            frames: 0,
        }
    }
}

/// Advances the screenshot job, if any.
pub fn screenshot_step(ctx: &egui::Context, app: &mut RacksmithApp) {
    let ready = !app.analysis.is_stale(app.doc.revision);
    let Some(job) = app.screenshot.as_mut() else {
        return;
    };
    job.frames += 1;
    let image = job.requested.as_ref().and_then(|rx| rx.try_recv().ok());
    if let Some(image) = image {
        let result = write_png(&job.path, &image);
        match result {
            Ok(()) => eprintln!("screenshot written to {}", job.path.display()),
            Err(e) => eprintln!("error: screenshot: {e}"),
        }
        app.screenshot = None;
        app.allow_close = true;
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        return;
    }
    if job.requested.is_none() && ready && job.frames >= 8 {
        let (tx, rx) = std::sync::mpsc::channel();
        let repaint = ctx.clone();
        job.requested = Some(rx);
        ctx.send_viewport_cmd(egui::ViewportCommand::Screenshot(
            egui::ScreenshotCallback::new(move |image| {
                let _ = tx.send(image);
                repaint.request_repaint();
            }),
        ));
    }
    ctx.request_repaint();
}

fn write_png(path: &std::path::Path, image: &egui::ColorImage) -> anyhow::Result<()> {
    let [w, h] = image.size;
    let bytes: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
    let buf = image::RgbaImage::from_raw(u32::try_from(w)?, u32::try_from(h)?, bytes)
        .ok_or_else(|| anyhow::anyhow!("screenshot has an unexpected size"))?;
    let mut png = Vec::new();
    image::DynamicImage::ImageRgba8(buf)
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)?;
    crate::io::write_atomic(path, &png)?;
    Ok(())
}
