//! Escape closes what is on top: a prompt answers Cancel (each modal reads its own Escape), else the window last
//! brought to the front closes, else the selection clears. Every window Escape can close is named here with the
//! egui id it is drawn under, so the topmost one is found from egui's own layer order.

use super::RacksmithApp;

/// A floating window Escape can close: the error window, or a window of the registry by its id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closable {
    /// The error window (a file that did not load).
    Error,
    /// A window of the registry ([`super::window::AppWindow::id`]).
    Window(&'static str),
}

impl Closable {
    /// The id the window is drawn under (`egui::Window::id`): its layer in egui's order of windows.
    pub fn id(self) -> egui::Id {
        match self {
            Closable::Error => egui::Id::unique("racksmith.window.error"),
            Closable::Window(id) => super::window::egui_id(id),
        }
    }
}

impl RacksmithApp {
    /// Whether a modal prompt is up: it takes the keyboard (its own Escape is Cancel), and no shortcut edits the
    /// design behind it.
    pub(super) fn prompt_open(&self) -> bool {
        let f = &self.ui.files;
        f.pending.is_some()
            || f.overwrite.is_some()
            || f.read_only.is_some()
            || f.file_dialog.is_some()
            || !f.recovery_offer.is_empty()
            || self.ui.editing.confirm_delete.is_some()
    }

    /// Every window open now: the error window first, then the registry's in drawing order.
    fn open_windows(&self) -> Vec<Closable> {
        let error = self.ui.windows.error.is_some().then_some(Closable::Error);
        let registry = self.ui.windows.registry.iter();
        let windows = registry
            .filter(|w| w.is_open())
            .map(|w| Closable::Window(w.id()));
        error.into_iter().chain(windows).collect()
    }

    /// Closes a window, as its own close button does.
    pub(super) fn close(&mut self, w: Closable) {
        match w {
            Closable::Error => self.ui.windows.error = None,
            Closable::Window(id) => {
                if let Some(w) = self.ui.windows.registry.by_id_mut(id) {
                    w.close();
                }
            }
        }
    }

    /// The open window on top: the one egui drew last among the open ones (a window clicked or opened comes to
    /// the front), or, before any was drawn, the last open one in drawing order.
    pub(super) fn top_window(&self, ctx: &egui::Context) -> Option<Closable> {
        let open = self.open_windows();
        let drawn = ctx.memory(|m| {
            m.layer_ids()
                .filter_map(|layer| open.iter().copied().find(|w| layer.id == w.id()))
                .last()
        });
        drawn.or_else(|| open.last().copied())
    }

    /// Escape with no prompt up: closes the window on top, or clears the selection (and a cable being drawn) when
    /// no window is open. Returns what it closed.
    pub(super) fn escape(&mut self, ctx: &egui::Context) -> Option<Closable> {
        let top = self.top_window(ctx);
        if let Some(w) = top {
            self.close(w);
        }
        top
    }
}
