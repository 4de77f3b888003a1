//! Traffic on the topology as drawn: each traffic pattern is routed over the design's switches with equal-cost
//! multi-path (ECMP) splitting, giving the load on every cable, the hottest link and its utilisation.
//!
//! Model (docs/analysis.md, "Traffic on the drawn topology"):
//! - Endpoints (GPU servers, storage) attach to switches through their cabled NIC ports; they never forward.
//! - Each pattern offers traffic between endpoint ports. Access cables carry it directly; traffic between ports on
//!   different switches becomes a switch-to-switch demand.
//! - Demands are routed per destination switch: a breadth-first search from the destination gives each switch's
//!   distance; every switch splits what it holds for that destination over its next hops on shortest paths in
//!   proportion to their capacity (ECMP over the member cables), from the farthest switch inwards.
//! - Servers of the same build and attachment are one group with a multiplicity. All-to-all demand is aggregated
//!   by switch-level classes (see [`all_to_all`]), so no term grows with pairs of groups; storage read costs
//!   groups x storage appliances. Routing works per class of destination switches (the same switch neighbours),
//!   and classes that the fabric's symmetry swaps (a SuperPOD's pods) are routed once, see [`route`].
//!
//! Files, one job each: [`fabric`] (switch graph, compressed rows), [`endpoints`] (servers, ports, signatures),
//! [`demands`] (what each pattern offers), [`all_to_all`] (the product-form all-to-all), [`ecmp`] (routing with its
//! scratch space), [`symmetry`] (orbits and relabelling), [`report`]; the test oracles are in `oracle.rs`.

mod all_to_all;
mod demands;
mod ecmp;
mod endpoints;
mod fabric;
#[cfg(test)]
mod oracle;
mod report;
mod symmetry;
#[cfg(test)]
mod tests;
mod tree;

pub use report::{LinkLoad, PatternLoad, RoutingReport};

use all_to_all::all_to_all;
use demands::{CANCELLED, ProductTerm, Products, Router, demands};
use ecmp::{DestinationClass, route};
#[cfg(test)]
use ecmp::{destination_classes, destination_switches, route_with};
use endpoints::{Port, Server, endpoints, groups};
use fabric::{Csr, Fabric, components, fabric, top_switches};
#[cfg(test)]
use oracle::{all_to_all_pairs, route_reference};
use report::report;
use symmetry::{Mapping, Orbit, move_region, orbits};

use super::format::round;
use super::pattern::Pattern;
use crate::model::part::{NicRole, PartKind};
use crate::model::{Design, DeviceId, LinkId};
use rustc_hash::FxHashMap as HashMap;
use serde::Serialize;
use std::collections::{BTreeMap, VecDeque};

/// The traffic patterns routed, in report order.
pub const PATTERNS: [&str; 5] = super::pattern::Pattern::LABELS;
const P: usize = PATTERNS.len();
type Loads = [f64; P];

/// Loads of the all-to-all pattern alone.
fn all_to_all_only(x: f64) -> Loads {
    let mut l = [0.0; P];
    if let Some(y) = l.get_mut(Pattern::AllToAll.index()) {
        *y = x;
    }
    l
}

/// Adds `times` each pattern's load of `from` to `into` (per-pattern loads, in [`Pattern`] order).
fn add_scaled(into: &mut Loads, from: &Loads, times: f64) {
    for (x, y) in into.iter_mut().zip(from) {
        *x += y * times;
    }
}

/// Routes the design's traffic patterns and returns the loads.
pub fn analyze(design: &Design) -> RoutingReport {
    analyze_counted(design).0
}

/// [`analyze`], with the routing's work in units (switches visited by the walks, nodes of the forest routing,
/// demand entries): the tests check that it grows in proportion to the design (docs/limits.md, "Cost per shape").
pub fn analyze_counted(design: &Design) -> (RoutingReport, u64) {
    let (fabric, r) = demands(design);
    // A forest has one path per pair: subtree sums instead of a walk per destination (docs/limits.md).
    let (switch_loads, unroutable, work) = if tree::is_forest(&fabric) {
        tree::route_forest(&fabric, &r.demand, &r.products)
    } else {
        route(&fabric, &r.demand, &r.products)
    };
    (
        report(design, &fabric, &r, &switch_loads, &unroutable),
        work,
    )
}
