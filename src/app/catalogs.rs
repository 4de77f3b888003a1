//! The catalogs the app holds apart from the merged one it designs with: the built-in parts as shipped, the
//! user's parts, and the user catalog file (the parts catalog window reads them; the app shell writes them).

use crate::catalog::Catalog;
use std::path::PathBuf;

/// The built-in and user catalogs and where the user catalog lives.
#[derive(Default)]
pub struct CatalogState {
    /// The built-in catalog, as shipped.
    pub builtin: Catalog,
    /// The user's parts (new, duplicated, edited built-ins, imported).
    pub user: Catalog,
    /// The user catalog file; None keeps the user's parts for this session only.
    pub path: Option<PathBuf>,
    /// Why the user catalog file did not load: it is then never written over.
    pub load_error: Option<String>,
}
