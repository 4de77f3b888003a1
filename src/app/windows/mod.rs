//! The floating windows, one file each, and their list in drawing order (a window later in the list opens over one
//! earlier). Adding a window is one new file here, implementing [`AppWindow`] and naming its type `Window`, and one
//! line in the list below (`pub mod name;`): build.rs writes the registry from those lines, and `Show`, Toggle,
//! Escape and the tests find the window through the registry. (rustfmt.toml keeps the lines in the order written.)

// One line per window, in drawing order (a window later in the list opens over one earlier): build.rs reads these
// lines and writes `registry()` from them, each file's `Window` boxed in this order.
pub mod server;
pub mod params;
pub mod sites;
pub mod planning;
pub mod whatif;
pub mod help;
pub mod as_built;
pub mod compare;
pub mod templates;
pub mod catalog;
pub mod sizing;
pub mod scenarios;

use super::window::{AppWindow, WindowRegistry};

// `pub fn registry() -> WindowRegistry`: every window, closed, in the order of the `mod` lines above.
include!(concat!(env!("OUT_DIR"), "/windows.rs"));

#[cfg(test)]
mod tests {
    use super::registry;
    use crate::app::catalogs::CatalogState;
    use crate::app::commands::Show;
    use crate::app::selection::Selection;
    use crate::app::state::HelpPage;
    use crate::app::window::AppWindow as _;
    use crate::app::window::WindowContext;
    use crate::catalog::Catalog;
    use crate::model::{Design, DeviceId};
    use std::collections::BTreeSet;
    use std::sync::Arc;

    /// Every request a window answers (the inspector is a panel, opened by the app).
    fn shows() -> Vec<Show> {
        vec![
            Show::Templates,
            Show::Catalog(None),
            Show::DesignParts,
            Show::Sizing,
            Show::Params,
            Show::Sites,
            Show::Planning,
            Show::WhatIf(None),
            Show::Server(DeviceId(7)),
            Show::Help(HelpPage::Shortcuts),
            Show::PlanningQuestions,
        ]
    }

    #[test]
    fn each_show_opens_one_window_and_a_toggle_closes_it() {
        let (design, catalog) = (Arc::new(Design::default()), Catalog::default());
        let (catalogs, selection) = (CatalogState::default(), Selection::default());
        let ctx = WindowContext {
            design: &design,
            revision: 1,
            generation: 0,
            catalog: &catalog,
            catalogs: &catalogs,
            report: None,
            stale: false,
            background: false,
            selection: &selection,
            central_rect: None,
        };
        for show in shows() {
            let mut windows = registry();
            assert!(windows.open(&show, &ctx), "{show:?} opened no window");
            let open: Vec<&str> = windows
                .iter()
                .filter(|w| w.is_open())
                .map(|w| w.id())
                .collect();
            assert_eq!(open.len(), 1, "{show:?} opened {open:?}");
            assert!(windows.iter().any(|w| w.is_showing(&show)), "{show:?}");
            assert!(windows.toggle(&show, &ctx));
            assert!(windows.iter().all(|w| !w.is_open()), "{show:?} stayed open");
        }
        // Open on one server (or page), a toggle for another opens that one instead of closing.
        let mut windows = registry();
        windows.open(&Show::Server(DeviceId(7)), &ctx);
        windows.toggle(&Show::Server(DeviceId(8)), &ctx);
        assert!(
            windows
                .iter()
                .any(|w| w.is_showing(&Show::Server(DeviceId(8))))
        );
        assert!(
            !windows
                .iter()
                .any(|w| w.is_showing(&Show::Server(DeviceId(7))))
        );
        assert!(
            !windows.open(&Show::Inspector, &ctx),
            "the inspector is a panel"
        );
    }

    #[test]
    fn window_ids_are_unique() {
        let windows = registry();
        let ids: BTreeSet<&str> = windows.iter().map(|w| w.id()).collect();
        assert_eq!(ids.len(), windows.iter().count());
    }

    /// The registry is the list of `pub mod` lines, in their order: one window per line, the first drawn first.
    #[test]
    fn the_registry_is_the_list_of_modules_in_order() {
        let lines: Vec<&str> = include_str!("mod.rs")
            .lines()
            .filter_map(|l| l.strip_prefix("pub mod ")?.strip_suffix(';'))
            .collect();
        assert_eq!(lines.len(), 12);
        let windows = registry();
        assert_eq!(windows.iter().count(), lines.len());
        // The first line's window is the server internals; the last, the planning questions.
        assert_eq!(lines.first(), Some(&"server"));
        assert_eq!(lines.last(), Some(&"scenarios"));
        let ids: Vec<&str> = windows.iter().map(|w| w.id()).collect();
        let server = super::server::Window::default();
        let questions = super::scenarios::Window::default();
        assert_eq!(ids.first(), Some(&server.id()));
        assert_eq!(ids.last(), Some(&questions.id()));
    }
}
