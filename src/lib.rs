//! Racksmith: design GPU clusters rack by rack. The core (model, catalog, io, analysis, edit) has no GUI
//! dependency; the egui front end lives in `app` behind the `gui` feature.

pub mod about;
pub mod analysis;
pub mod catalog;
pub mod edit;
pub mod export;
pub mod io;
pub mod model;
pub mod samples;
pub mod templates;
pub mod topology;

#[cfg(feature = "gui")]
pub mod app;
