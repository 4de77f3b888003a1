//! The browser build (`assets/web/build.sh`): eframe's web runner on the page's `<canvas>`, the browser's file
//! picker (rfd's async dialog) and files dropped on the page, read asynchronously and handed back to the app through
//! a channel; saves and exports as downloads (a Blob and an anchor); the last design kept in the browser's local
//! storage and offered back after a reload; and a design opened from the page's `#d=` link (`io::share`).
//!
//! There are no threads: the analysis runs on the UI thread (`analysis_state::AnalysisState` falls back to it when no
//! worker can start), after one frame that shows the previous report marked stale.

use super::{FilePurpose, RacksmithApp};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, channel};
use wasm_bindgen::JsCast as _;
use web_time::{Duration, Instant};

/// Local-storage key of the last design (its file text), kept while the page is open.
const LAST_DESIGN_KEY: &str = "racksmith.web.design";

/// How often a changed design is written to local storage.
const STORE_EVERY: Duration = Duration::from_secs(2);

/// The id of the page's canvas (assets/web/index.html).
const CANVAS_ID: &str = "racksmith_canvas";

/// A file read in the background, for what it was asked for.
struct ReadFile {
    purpose: FilePurpose,
    name: String,
    bytes: Result<Vec<u8>, String>,
}

/// The browser's side of the app: files being read, the design kept in local storage and the offer to reopen it.
pub struct WebState {
    tx: Sender<ReadFile>,
    rx: Receiver<ReadFile>,
    ctx: Option<egui::Context>,
    stored_revision: Option<u64>,
    last_store: Option<Instant>,
    /// The design kept from the last visit (its name and file text), offered back until answered.
    offer: Option<(String, String)>,
    /// The page's title as last set.
    title: String,
    /// Whether the first analysed frame was logged (with the time since the page started loading).
    analysed_logged: bool,
}

impl Default for WebState {
    fn default() -> Self {
        let (tx, rx) = channel();
        Self {
            tx,
            rx,
            ctx: None,
            stored_revision: None,
            last_store: None,
            offer: None,
            title: String::new(),
            analysed_logged: false,
        }
    }
}

/// Starts the app on the page's canvas. Called by `main` in the web build.
pub fn start() {
    wasm_bindgen_futures::spawn_local(async {
        let document = web_sys::window().and_then(|w| w.document());
        let Some(document) = document else {
            return;
        };
        let canvas = document
            .get_element_by_id(CANVAS_ID)
            .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok());
        let Some(canvas) = canvas else {
            web_sys::console::error_1(
                &format!("no <canvas id=\"{CANVAS_ID}\"> on the page").into(),
            );
            return;
        };
        let runner = eframe::WebRunner::new();
        let started = runner
            .start(
                canvas,
                // No dithering, as on the desktop (src/app/mod.rs, renderer_options): flat colours lose nothing and
                // a software-rendered browser saves its per-pixel noise every frame (issue 38).
                eframe::WebOptions {
                    dithering: false,
                    ..Default::default()
                },
                Box::new(|cc| Ok(Box::new(app_for_page(cc)))),
            )
            .await;
        let loading = document.get_element_by_id("loading");
        match started {
            Ok(()) => {
                if let Some(l) = loading {
                    l.remove();
                }
            }
            Err(e) => {
                let why = e.as_string().unwrap_or_else(|| format!("{e:?}"));
                if let Some(l) = loading {
                    l.set_text_content(Some(&format!("Racksmith could not start: {why}")));
                }
                web_sys::console::error_1(&format!("Racksmith could not start: {why}").into());
            }
        }
    });
}

/// The app for the page: the design of the `#d=` link when there is one, else the built-in sample with the last
/// visit's design offered back.
fn app_for_page(cc: &eframe::CreationContext<'_>) -> RacksmithApp {
    let hash = eframe::web::location_hash();
    let linked = crate::io::share::has_design(&hash).then(|| crate::io::share::decode(&hash));
    let (design, link_error) = match linked {
        Some(Ok(d)) => (d, None),
        Some(Err(e)) => (crate::samples::default_design(), Some(e.to_string())),
        None => (crate::samples::default_design(), None),
    };
    let from_link = crate::io::share::has_design(&hash) && link_error.is_none();
    let mut app = RacksmithApp::new(design, None, None, super::files::Recovery::disabled());
    app.dialogs = Box::new(super::NoNativeDialogs);
    app.web.ctx = Some(cc.egui_ctx.clone());
    if let Some(e) = link_error {
        app.ui.windows.error = Some(format!("Could not open the design in the link:\n{e}"));
    }
    if from_link {
        app.ui
            .status
            .info(format!("Opened {} from the link", app.doc.design.name));
    } else if let Some(text) = eframe::web::storage::local_storage_get(LAST_DESIGN_KEY) {
        // Only a design that loads is offered; its name is read from the text itself.
        if let Ok(d) = crate::io::design_from_str(&text, Path::new("last visit")) {
            app.web.offer = Some((d.name, text));
        }
    }
    if let Some(storage) = cc.storage
        && let Some(recent) = eframe::get_value::<Vec<PathBuf>>(storage, super::files::RECENT_KEY)
    {
        app.ui.files.recent = recent;
    }
    // The first frame shows the page at once; the analysis follows (see `analysis_state::AnalysisState`).
    app.analysis
        .update(&app.doc.design, app.doc.revision, Some(&cc.egui_ctx));
    app
}

impl RacksmithApp {
    /// The browser's answer to "ask for a file": the file picker for files to read, a download named as the
    /// desktop's save dialog would suggest for files to write.
    pub(super) fn web_ask_path(&mut self, purpose: FilePurpose) {
        let request = self.request(&purpose);
        match purpose {
            FilePurpose::Open | FilePurpose::CompareWith | FilePurpose::CheckAsBuilt => {
                let (tx, ctx) = (self.web.tx.clone(), self.web.ctx.clone());
                let dialog = rfd::AsyncFileDialog::new()
                    .set_title(&request.title)
                    .add_filter(&request.filter_name, &[request.extension.as_str()]);
                wasm_bindgen_futures::spawn_local(async move {
                    let Some(file) = dialog.pick_file().await else {
                        return;
                    };
                    let name = file.file_name();
                    let bytes = Ok(file.read().await);
                    let _ = tx.send(ReadFile {
                        purpose,
                        name,
                        bytes,
                    });
                    if let Some(ctx) = ctx {
                        ctx.request_repaint();
                    }
                });
            }
            FilePurpose::ImportNetbox => {
                self.ui.status.refuse(
                    "NetBox import needs the desktop app: the browser keeps no user parts file",
                );
            }
            _ => {
                let name = request.file_name.unwrap_or_else(|| "racksmith".into());
                self.path_chosen(purpose, PathBuf::from(name));
            }
        }
    }

    /// Reads files dropped on the page (their bytes come asynchronously).
    pub(super) fn web_dropped_files(&mut self, ctx: &egui::Context) {
        let dropped: Vec<egui::DroppedFileHandle> =
            ctx.input(|i| i.raw.dropped_files.iter().cloned().collect());
        let Some(file) = dropped
            .into_iter()
            .find(|f| f.path().extension().is_some_and(|e| e == "ron"))
        else {
            return;
        };
        let (tx, ctx) = (self.web.tx.clone(), ctx.clone());
        wasm_bindgen_futures::spawn_local(async move {
            let name = file.path().display().to_string();
            let bytes = file.bytes_async().await;
            let _ = tx.send(ReadFile {
                purpose: FilePurpose::Open,
                name,
                bytes,
            });
            ctx.request_repaint();
        });
    }

    /// Each frame in the browser: files read since the last frame, the design kept in local storage and the
    /// offer to reopen the last visit's design.
    pub(super) fn web_frame(&mut self, ctx: &egui::Context) {
        while let Ok(read) = self.web.rx.try_recv() {
            self.web_file_read(read);
        }
        self.web_dropped_files(ctx);
        self.web_store();
        self.web_offer_ui(ctx);
        self.web_title();
    }

    /// The page's title: the design, its GPU count and whether its analysis is on screen (eframe leaves the title
    /// to the page). The first analysed frame is logged with the time since the page started loading.
    fn web_title(&mut self) {
        let stale = self.analysis.is_stale(self.doc.revision);
        let title = format!(
            "{}{} — {} GPUs{} — Racksmith",
            self.doc.display_name(),
            if self.doc.is_dirty() { " •" } else { "" },
            self.doc.design.gpu_count(),
            if stale {
                ", analysing…"
            } else {
                ", analysed"
            }
        );
        if title != self.web.title {
            if let Some(document) = web_sys::window().and_then(|w| w.document()) {
                document.set_title(&title);
            }
            self.web.title = title;
        }
        if !stale && !self.web.analysed_logged {
            self.web.analysed_logged = true;
            let ms = eframe::web::now_sec() * 1000.0;
            web_sys::console::info_1(
                &format!(
                    "racksmith: {} analysed {ms:.0} ms after the page started loading ({:.0} ms of analysis)",
                    self.doc.design.name, self.analysis.last_ms
                )
                .into(),
            );
        }
    }

    fn web_file_read(&mut self, read: ReadFile) {
        let text = match read.bytes {
            Ok(bytes) => {
                String::from_utf8(bytes).map_err(|_| format!("{} is not a text file", read.name))
            }
            Err(e) => Err(e),
        };
        if read.purpose == FilePurpose::CheckAsBuilt {
            match text {
                Ok(t) => self.check_as_built_text(read.name.clone(), &t, Path::new(&read.name)),
                Err(e) => self.ui.windows.error = Some(e),
            }
            return;
        }
        let design = text.and_then(|t| {
            crate::io::design_from_str(&t, Path::new(&read.name)).map_err(|e| e.to_string())
        });
        match (read.purpose, design) {
            (FilePurpose::CompareWith, Ok(d)) => self.compare_with(d, Some(read.name.clone())),
            (_, Ok(d)) if self.doc.is_dirty() => {
                // Unsaved changes: ask first, as the desktop does.
                let what = format!("open {}", read.name);
                self.ui.files.pending = Some(super::state::Pending::Replace(Box::new(d), what));
            }
            (_, Ok(d)) => {
                // Saving it again downloads a file of the same name.
                self.doc.replace(d, Some(PathBuf::from(&read.name)));
                self.ui.selection = super::state::Selection::default();
                self.ui.canvas.view.fit = Some(super::state::FitTarget::All);
                self.ui.status.info(format!("Opened {}", read.name));
            }
            (_, Err(e)) => self.ui.windows.error = Some(format!("Could not open the file:\n{e}")),
        }
    }

    /// Keeps the design in local storage, at most every two seconds, when it changed.
    fn web_store(&mut self) {
        if self.web.stored_revision == Some(self.doc.revision) || self.web.offer.is_some() {
            return;
        }
        if self
            .web
            .last_store
            .is_some_and(|t| t.elapsed() < STORE_EVERY)
        {
            return;
        }
        self.web.last_store = Some(Instant::now());
        self.web.stored_revision = Some(self.doc.revision);
        if let Ok(text) = crate::io::design_to_string(&self.doc.design) {
            eframe::web::storage::local_storage_set(LAST_DESIGN_KEY, &text);
        }
    }

    /// "Reopen the design from your last visit?"
    fn web_offer_ui(&mut self, ctx: &egui::Context) {
        let Some((name, _)) = &self.web.offer else {
            return;
        };
        let name = name.clone();
        let mut choice = None;
        egui::Modal::new(egui::Id::unique("web_last_visit")).show(ctx, |ui| {
            ui.set_max_width(440.0);
            ui.heading("Your last design");
            ui.label(format!(
                "This browser kept {name} from your last visit. Reopen it?"
            ));
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                if ui.button("Reopen").clicked() {
                    choice = Some(true);
                }
                if ui.button("Start with the sample").clicked() {
                    choice = Some(false);
                }
            });
        });
        match choice {
            Some(true) => {
                if let Some((_, text)) = self.web.offer.take()
                    && let Ok(d) = crate::io::design_from_str(&text, Path::new("last visit"))
                {
                    self.doc.replace(d, None);
                    self.ui.canvas.view.fit = Some(super::state::FitTarget::All);
                    self.ui.status.info(format!("Reopened {name}"));
                }
            }
            Some(false) => self.web.offer = None,
            None => {}
        }
    }
}

/// Downloads bytes as a file named `path`'s file name: a Blob, an object URL and a click on an anchor.
pub fn download(path: &Path, bytes: &[u8]) -> Result<(), crate::io::SaveError> {
    let name = path.file_name().map_or_else(
        || "racksmith".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let failed = |what: &str| crate::io::SaveError::Io {
        path: path.to_path_buf(),
        source: std::io::Error::other(format!("the browser refused the download: {what}")),
    };
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| failed("no document"))?;
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime(&name));
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options)
        .map_err(|_| failed("Blob"))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| failed("URL"))?;
    let anchor = document
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into::<web_sys::HtmlAnchorElement>().ok())
        .ok_or_else(|| failed("anchor"))?;
    anchor.set_href(&url);
    anchor.set_download(&name);
    anchor.click();
    // The download has started from the URL; revoking it a minute later frees the bytes.
    let revoke = wasm_bindgen::closure::Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    if let Some(w) = web_sys::window() {
        let _ =
            w.set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 60_000);
    }
    Ok(())
}

/// The MIME type of a download, from its extension.
fn mime(name: &str) -> &'static str {
    match name.rsplit('.').next().unwrap_or_default() {
        "html" => "text/html;charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "csv" => "text/csv;charset=utf-8",
        "json" => "application/json",
        _ => "text/plain;charset=utf-8",
    }
}

/// The page's URL (for share links).
pub fn page_url() -> Option<String> {
    web_sys::window()?.location().href().ok()
}

/// Puts a link's fragment in the address bar without reloading, so that the page's own URL is the link.
pub fn show_link(link: &str) {
    if let Some(fragment) = link.split_once('#').map(|(_, f)| format!("#{f}"))
        && let Some(history) = web_sys::window().and_then(|w| w.history().ok())
    {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&fragment));
    }
}
