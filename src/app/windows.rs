//! The list of floating windows, in drawing order (a window later in the list opens over one earlier). Adding a
//! window is its own file, implementing [`AppWindow`], and one line here: the registry, the menu's `Show`, Escape
//! and the tests find it through this list.

use super::window::{AppWindow, WindowRegistry};

/// Re-exports each window's type (the tests name them) and builds the registry from the same list.
macro_rules! windows {
    ($($module:ident :: $window:ident),* $(,)?) => {
        $(pub use super::$module::$window;)*

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
