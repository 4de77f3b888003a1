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
