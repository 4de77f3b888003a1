//! The one shape of a floating window: [`AppWindow`], the state a window owns and how it draws; [`WindowContext`],
//! the read-only view of the document and the analysis every window draws from; and [`WindowRegistry`], which
//! holds every window's state. The list of windows is [`super::windows`]: adding a window is one file there and
//! one line in its list. Panels (palette, inspector, analysis pane, canvas) are not windows.

use super::catalogs::CatalogState;
use super::commands::{AppCommand, Show};
use super::selection::Selection;
use crate::analysis::Report;
use crate::catalog::Catalog;
use crate::model::Design;
use std::any::Any;
use std::sync::Arc;

/// What every window reads, and never writes: the document, its analysis, the catalogs, the selection and where
/// windows open. A window changes anything only by pushing an [`AppCommand`].
pub struct WindowContext<'a> {
    /// The open design (shared with background jobs, not copied for them).
    pub design: &'a Arc<Design>,
    /// The document's revision: results made for an older revision are marked out of date.
    pub revision: u64,
    /// Counts the designs the document has held (a comparison made in one no longer follows the next).
    pub generation: u64,
    /// The parts catalog: the built-in parts with the user's over them.
    pub catalog: &'a Catalog,
    /// The built-in and user catalogs apart, and the user catalog file.
    pub catalogs: &'a CatalogState,
    /// The latest report, up to date or not.
    pub report: Option<&'a Arc<Report>>,
    /// Whether the report is older than the design.
    pub stale: bool,
    /// Whether the analysis runs off the UI thread (previews may then be made in the background too).
    pub background: bool,
    /// What is selected on the canvas.
    pub selection: &'a Selection,
    /// The central area (between the palette and the inspector) last frame, screen space: windows open over it.
    pub central_rect: Option<egui::Rect>,
}

impl WindowContext<'_> {
    /// The report, when it is up to date with the design.
    pub fn fresh_report(&self) -> Option<Arc<Report>> {
        self.report.filter(|_| !self.stale).cloned()
    }
}

/// A floating window: it owns its state, says whether it is open, opens on the [`Show`] requests that name it and
/// draws itself from a [`WindowContext`], pushing commands for anything it changes.
pub trait AppWindow: Any {
    /// The window's stable name: its egui id ([`egui_id`]) and what Escape closes are keyed on it.
    fn id(&self) -> &'static str;

    /// The title on the window's bar.
    fn title(&self) -> &'static str;

    /// Whether the window is open.
    fn is_open(&self) -> bool;

    /// Opens the window if `show` names it (with what it names: a part, a page, a server), returning whether it
    /// did; other requests leave it as it is.
    fn open(&mut self, show: &Show, ctx: &WindowContext) -> bool;

    /// Whether the window is open on what `show` names (a toggle closes it then).
    fn is_showing(&self, show: &Show) -> bool;

    /// Closes the window, as its own close button does.
    fn close(&mut self);

    /// Draws the window when open (and keeps any background work it owns going when not).
    fn ui(&mut self, egui_ctx: &egui::Context, ctx: &WindowContext, cmds: &mut Vec<AppCommand>);
}

/// The egui id a window is drawn under, from its [`AppWindow::id`]: its layer in egui's order of windows.
pub fn egui_id(id: &'static str) -> egui::Id {
    egui::Id::unique(("racksmith.window", id))
}

/// Every window's state, in drawing order (a window later in the list opens over one earlier).
#[derive(Default)]
pub struct WindowRegistry {
    windows: Vec<Box<dyn AppWindow>>,
}

impl WindowRegistry {
    /// A registry of these windows, in this order.
    pub fn new(windows: Vec<Box<dyn AppWindow>>) -> Self {
        Self { windows }
    }

    /// The window of type `T`, if it is registered.
    pub fn get<T: AppWindow>(&self) -> Option<&T> {
        self.windows
            .iter()
            .find_map(|w| (w.as_ref() as &dyn Any).downcast_ref::<T>())
    }

    /// The window of type `T` to change, if it is registered (the app shell fills the windows a file opens).
    pub fn get_mut<T: AppWindow>(&mut self) -> Option<&mut T> {
        self.windows
            .iter_mut()
            .find_map(|w| (w.as_mut() as &mut dyn Any).downcast_mut::<T>())
    }

    /// Every window, in drawing order.
    pub fn iter(&self) -> impl Iterator<Item = &dyn AppWindow> {
        self.windows.iter().map(|w| w.as_ref())
    }

    /// The window with this id.
    pub fn by_id_mut(&mut self, id: &str) -> Option<&mut dyn AppWindow> {
        self.windows
            .iter_mut()
            .find(|w| w.id() == id)
            .map(|w| w.as_mut() as &mut dyn AppWindow)
    }

    /// Opens the window `show` names; returns whether one did.
    pub fn open(&mut self, show: &Show, ctx: &WindowContext) -> bool {
        self.windows.iter_mut().any(|w| w.open(show, ctx))
    }

    /// Toggles the window `show` names: closes it when it shows that, opens it otherwise. Returns whether a window
    /// took the request.
    pub fn toggle(&mut self, show: &Show, ctx: &WindowContext) -> bool {
        if let Some(w) = self.windows.iter_mut().find(|w| w.is_showing(show)) {
            w.close();
            return true;
        }
        self.open(show, ctx)
    }

    /// Draws every window, in order.
    pub fn ui(
        &mut self,
        egui_ctx: &egui::Context,
        ctx: &WindowContext,
        cmds: &mut Vec<AppCommand>,
    ) {
        for w in &mut self.windows {
            w.ui(egui_ctx, ctx, cmds);
        }
    }
}
