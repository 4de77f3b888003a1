//! Escape closes what is on top: a prompt answers Cancel (each modal reads its own Escape), else the window last
//! brought to the front closes, else the selection clears. Every window Escape can close is named here with the
//! egui id it is drawn under, so the topmost one is found from egui's own layer order.

use super::RacksmithApp;

/// A floating window Escape can close.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closable {
    /// The error window (a file that did not load).
    Error,
    /// New from template.
    Template,
    /// Size from a requirement.
    Sizing,
    /// Planning questions.
    Scenarios,
    /// The parts catalog.
    Catalog,
    /// Compare designs.
    Compare,
    /// Failure what-ifs.
    WhatIf,
    /// Planning.
    Planning,
    /// Sites.
    Sites,
    /// Parameters.
    Params,
    /// Server internals.
    Server,
    /// Help.
    Help,
    /// As built against as designed.
    AsBuilt,
}

impl Closable {
    /// Every window Escape can close.
    pub const ALL: [Closable; 13] = [
        Closable::Error,
        Closable::Template,
        Closable::Sizing,
        Closable::Scenarios,
        Closable::Catalog,
        Closable::Compare,
        Closable::WhatIf,
        Closable::Planning,
        Closable::Sites,
        Closable::Params,
        Closable::Server,
        Closable::Help,
        Closable::AsBuilt,
    ];

    /// The id the window is drawn under (`egui::Window::id`): its layer in egui's order of windows.
    pub fn id(self) -> egui::Id {
        egui::Id::unique(("racksmith.window", self as u8))
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

    /// Whether a window is open.
    pub(super) fn is_open(&self, w: Closable) -> bool {
        let ws = &self.ui.windows;
        match w {
            Closable::Error => ws.error.is_some(),
            Closable::Template => ws.template_dialog.is_some(),
            Closable::Sizing => self.catalogs.sizing.is_some(),
            Closable::Scenarios => self.catalogs.scenarios.is_some(),
            Closable::Catalog => self.catalogs.window.is_some(),
            Closable::Compare => ws.comparison.is_some(),
            Closable::WhatIf => ws.whatif.open,
            Closable::Planning => ws.planning.open,
            Closable::Sites => ws.show_sites,
            Closable::Params => ws.show_params,
            Closable::Server => ws.server_window.is_some(),
            Closable::Help => ws.help.is_some(),
            Closable::AsBuilt => ws.as_built.is_some(),
        }
    }

    /// Closes a window, as its own close button does.
    pub(super) fn close(&mut self, w: Closable) {
        let ws = &mut self.ui.windows;
        match w {
            Closable::Error => ws.error = None,
            Closable::Template => ws.template_dialog = None,
            Closable::Sizing => self.catalogs.sizing = None,
            Closable::Scenarios => self.catalogs.scenarios = None,
            Closable::Catalog => self.catalogs.window = None,
            Closable::Compare => ws.comparison = None,
            Closable::WhatIf => {
                ws.whatif.cancel();
                ws.whatif.open = false;
            }
            Closable::Planning => ws.planning.open = false,
            Closable::Sites => ws.show_sites = false,
            Closable::Params => ws.show_params = false,
            Closable::Server => ws.server_window = None,
            Closable::Help => ws.help = None,
            Closable::AsBuilt => ws.as_built = None,
        }
    }

    /// The open window on top: the one egui drew last among the open ones (a window clicked or opened comes to
    /// the front), or, before any was drawn, the first open one in [`Closable::ALL`].
    pub(super) fn top_window(&self, ctx: &egui::Context) -> Option<Closable> {
        let open: Vec<Closable> = Closable::ALL
            .into_iter()
            .filter(|w| self.is_open(*w))
            .collect();
        let drawn = ctx.memory(|m| {
            m.layer_ids()
                .filter_map(|layer| open.iter().copied().find(|w| layer.id == w.id()))
                .last()
        });
        drawn.or_else(|| open.first().copied())
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
