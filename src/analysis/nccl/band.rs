//! The classes the validation groups collective figures by, and each class's band: the spread of published
//! measurements around the model's expected value (docs/validation.md).

use super::Collective;
use serde::Serialize;

/// Expected value's range: what published measurements of the same class measured against the model's expected
/// value, lowest and highest (docs/validation.md). busbw and algbw scale by these; a time by their inverses.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Band {
    /// Bus bandwidth at the low end, GB/s (the slowest published run of the class, relative to the model).
    pub busbw_low: f64,
    /// Bus bandwidth at the high end, GB/s.
    pub busbw_high: f64,
    /// Time at the slow end, us.
    pub time_high_us: f64,
    /// Time at the fast end, us.
    pub time_low_us: f64,
}

/// Classes of collective figure the validation groups its measurements by; each has its band.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Class {
    /// Below 1 MiB: latency-bound.
    Small,
    /// 1 MiB to 256 MiB.
    Medium,
    /// Above 256 MiB inside one server.
    LargeIntra,
    /// Above 256 MiB across servers.
    LargeMulti,
    /// All-to-all at any size.
    AllToAll,
}

impl Class {
    /// Every class, in validation order.
    pub const ALL: [Class; 5] = [
        Class::LargeIntra,
        Class::LargeMulti,
        Class::Medium,
        Class::Small,
        Class::AllToAll,
    ];

    /// The class of `coll` at `bytes` on `nodes` servers.
    pub fn of(coll: Collective, bytes: f64, nodes: usize) -> Class {
        const MIB: f64 = 1024.0 * 1024.0;
        if coll == Collective::AllToAll {
            Class::AllToAll
        } else if bytes < MIB {
            Class::Small
        } else if bytes <= 256.0 * MIB {
            Class::Medium
        } else if nodes <= 1 {
            Class::LargeIntra
        } else {
            Class::LargeMulti
        }
    }

    /// Name as docs/validation.md writes it.
    pub fn name(self) -> &'static str {
        match self {
            Class::Small => "small-message",
            Class::Medium => "medium",
            Class::LargeIntra => "intra-node",
            Class::LargeMulti => "multi-node",
            Class::AllToAll => "all-to-all",
        }
    }

    /// Measured over expected, lowest and highest, across the published measurements of the class
    /// (docs/validation.md: tests/measured.rs fails when a measurement falls outside its class's band, so these
    /// follow the data).
    pub fn band(self) -> (f64, f64) {
        match self {
            Class::LargeIntra => BAND_LARGE_INTRA,
            Class::LargeMulti => BAND_LARGE_MULTI,
            Class::Medium => BAND_MEDIUM,
            Class::Small => BAND_SMALL,
            Class::AllToAll => BAND_ALL_TO_ALL,
        }
    }
}

/// Band of large messages inside a server: measured / expected spans 0.83 (one GB200 NVL72 rack at 1 GiB,
/// CoreWeave) to 1.01 over the class's points in docs/validation.md, rounded outward to 0.05.
pub const BAND_LARGE_INTRA: (f64, f64) = (0.80, 1.05);
/// Band of large messages across servers: 0.93 to 1.33 (248 H200 servers at 512 MiB, NVIDIA/nccl-tests issue 283,
/// where NVLS-tree's tree of servers is eight levels deep; twenty GB200 NVL72 racks at 16 GiB, CoreWeave, 1.21).
pub const BAND_LARGE_MULTI: (f64, f64) = (0.90, 1.35);
/// Band of medium sizes (1 to 256 MiB): 0.88 to 1.26 (three A100 servers with four HDR NICs each at 128 MiB,
/// NVIDIA/nccl-tests issue 119).
pub const BAND_MEDIUM: (f64, f64) = (0.85, 1.30);
/// Band of small messages (bandwidth sense: a time's band is the inverse): 0.69 (Azure ND H100 v5 at 64 KiB, where
/// NCCL 2.18 ran NVLS) to 1.17 (two H20 servers, NVLS-tree at 512 B).
pub const BAND_SMALL: (f64, f64) = (0.65, 1.20);
/// Band of all-to-all: 0.99 to 1.18 (8x H20 at 128 B, DeepEP issue 303); two points only.
pub const BAND_ALL_TO_ALL: (f64, f64) = (0.95, 1.20);
