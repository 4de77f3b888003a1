//! The floating windows, one file each, and their list in drawing order (a window later in the list opens over one
//! earlier). Adding a window is its file here, implementing [`AppWindow`], declared below and given one line in
//! the list: the registry, `Show`, Toggle, Escape and the tests find it through the list. (The `mod` lines stay
//! out of the list's macro: rustfmt does not follow modules declared inside a macro.)

pub(super) mod as_built;
pub(super) mod catalog;
pub(super) mod compare;
pub(super) mod help;
pub(super) mod params;
pub(super) mod planning;
pub(super) mod scenarios;
pub(super) mod server;
pub(super) mod sites;
pub(super) mod sizing;
pub(super) mod templates;
pub(super) mod whatif;

use super::window::{AppWindow, WindowRegistry};

/// Re-exports each window's type (the tests name them) and builds the registry from the same list.
macro_rules! windows {
    ($($module:ident :: $window:ident),* $(,)?) => {
        $(pub use $module::$window;)*

        /// Every window, closed, in drawing order.
        pub fn registry() -> WindowRegistry {
            WindowRegistry::new(vec![$(Box::new($window::default()) as Box<dyn AppWindow>),*])
        }
    };
}

windows! {
    server::ServerWindow,
    params::ParamsWindow,
    sites::SitesWindow,
    planning::PlanningWindow,
    whatif::WhatIfWindow,
    help::HelpWindow,
    as_built::AsBuiltWindow,
    compare::CompareWindow,
    templates::TemplatesWindow,
    catalog::CatalogWindow,
    sizing::SizingWindow,
    scenarios::QuestionsWindow,
}

#[cfg(test)]
mod tests {
    use super::registry;
    use crate::app::catalogs::CatalogState;
    use crate::app::commands::Show;
    use crate::app::selection::Selection;
    use crate::app::state::HelpPage;
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
}
