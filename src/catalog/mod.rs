//! Part specs (GPUs, servers, NICs, switches, storage, racks, cables, PDUs) and the built-in catalog loaded from
//! `assets/catalog.ron`. Every figure carries its source in the part's `sources` table.

pub mod figures;
pub mod netbox;
pub mod swap;
pub mod user;

use crate::model::PartId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

// Part specs live in the model layer (the design carries them); the catalog is a set of them.
pub use crate::model::part::*;

/// The built-in catalog text, embedded in the binary.
pub const CATALOG_RON: &str = include_str!("../../assets/catalog.ron");

/// A set of part specs keyed by id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Catalog {
    /// Parts by id. A parts file that gives two parts one id is refused, naming the id.
    #[serde(deserialize_with = "crate::model::unique_keys")]
    pub parts: BTreeMap<PartId, Part>,
}

impl Catalog {
    /// The built-in catalog.
    pub fn builtin() -> Result<Self, crate::io::LoadError> {
        crate::io::parse_ron(CATALOG_RON, std::path::Path::new("assets/catalog.ron"))
    }

    /// Looks up a part.
    pub fn get(&self, id: &str) -> Option<&Part> {
        self.parts.get(&PartId::new(id))
    }

    /// Parts in a category, sorted by id.
    pub fn in_category(&self, category: Category) -> impl Iterator<Item = (&PartId, &Part)> {
        self.parts
            .iter()
            .filter(move |(_, p)| p.kind.category() == category)
    }
}
