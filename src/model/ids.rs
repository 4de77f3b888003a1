//! Typed ids handed out by the document. They are plain numbers in files and never reused.

use compact_str::CompactString;
use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! numeric_id {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[serde(transparent)]
        pub struct $name(pub u64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

numeric_id!(
    /// Identifies a rack in a design.
    RackId,
    "rack#"
);
numeric_id!(
    /// Identifies a rack-mounted device in a design.
    DeviceId,
    "dev#"
);
numeric_id!(
    /// Identifies a link (cable) in a design.
    LinkId,
    "link#"
);

/// Identifies a part spec, e.g. "h100-sxm", in the catalog and in a design's part table.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(transparent)]
pub struct PartId(#[cfg_attr(feature = "schema", schemars(with = "String"))] pub CompactString);

impl PartId {
    /// Makes a part id from text.
    pub fn new(id: impl Into<CompactString>) -> Self {
        Self(id.into())
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PartId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
