//! The routing section of the report: per-pattern totals and the load on every link, in link order.

use super::*;

/// The routing section of the report.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RoutingReport {
    /// How the loads were computed.
    pub method: String,
    /// Per pattern: offered traffic and the hottest link.
    pub patterns: Vec<PatternLoad>,
    /// Load on every cabled link that carries traffic, by pattern in [`PATTERNS`] order, Gb/s per direction (the
    /// busier direction).
    pub links: Vec<LinkLoad>,
}

/// One pattern's totals.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PatternLoad {
    /// The pattern's name as the report gives it ([`PATTERNS`], in that order).
    pub pattern: String,
    /// Traffic offered by all endpoints, Gb/s.
    pub offered_gbps: f64,
    /// Traffic with no path to its destination, Gb/s.
    pub unroutable_gbps: f64,
    /// The busiest link, if any traffic flows.
    pub hottest_link: Option<LinkId>,
    /// Its load, Gb/s.
    pub hottest_load_gbps: f64,
    /// Its load against its capacity.
    pub hottest_utilisation: f64,
}

/// Loads on one link.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct LinkLoad {
    /// The design's link these loads are on; links that carry no traffic are left out of the list.
    pub link: LinkId,
    /// Capacity per direction, Gb/s.
    pub capacity_gbps: f64,
    /// Load per pattern, Gb/s (busier direction), in `PATTERNS` order (a fixed array: no allocation per link).
    pub loads_gbps: [f64; PATTERNS.len()],
    /// Highest load over capacity.
    pub utilisation: f64,
}

pub(super) fn report(
    design: &Design,
    f: &Fabric,
    r: &Router,
    switch_loads: &[(Loads, Loads)],
    unroutable: &Loads,
) -> RoutingReport {
    // In link order: access cables and switch cables are disjoint, so each link comes once.
    let mut links: Vec<LinkLoad> = Vec::with_capacity(design.links.len());
    let mut put = |link: LinkId, capacity: f64, loads: Loads| {
        if loads.iter().all(|x| *x <= 0.0) {
            return;
        }
        let peak = loads.iter().copied().fold(0.0, f64::max);
        links.push(LinkLoad {
            link,
            capacity_gbps: capacity,
            loads_gbps: loads.map(|x| round(x, 4)),
            utilisation: round(
                if capacity > 0.0 {
                    peak / capacity
                } else {
                    f64::INFINITY
                },
                6,
            ),
        });
    };
    // The design's links in order, each beside its access loads and its switch edge (both kept by place in link
    // order). A switch cable carries its share (by rate) of its edge's busier direction.
    for (((id, l), (up, down)), e) in design.links.iter().zip(&r.access).zip(&f.edge_of_link) {
        if let (Some(cap), Some((ab, ba))) = (f.cap.get(*e as usize), switch_loads.get(*e as usize))
        {
            let g = l.medium.gbps();
            let share = if *cap > 0.0 { g / cap } else { 0.0 };
            let mut busier = [0.0; P];
            for (i, b) in busier.iter_mut().enumerate() {
                *b = share
                    * ab.get(i)
                        .copied()
                        .unwrap_or(0.0)
                        .max(ba.get(i).copied().unwrap_or(0.0));
            }
            put(*id, g, busier);
            continue;
        }
        let mut busier = [0.0; P];
        for (i, b) in busier.iter_mut().enumerate() {
            *b = up
                .get(i)
                .copied()
                .unwrap_or(0.0)
                .max(down.get(i).copied().unwrap_or(0.0));
        }
        put(*id, l.medium.gbps(), busier);
    }
    // Per pattern, the link with the highest utilisation (the lowest link id among equals), all patterns in one
    // walk over the links: each replaces the one held unless the held one is strictly hotter, as `max_by` does.
    let utilisation = |l: &LinkLoad, i: usize| {
        l.loads_gbps.get(i).copied().unwrap_or(0.0) / l.capacity_gbps.max(1e-12)
    };
    let mut hottest_of: [Option<&LinkLoad>; P] = [None; P];
    for l in &links {
        for (i, held) in hottest_of.iter_mut().enumerate() {
            if !l.loads_gbps.get(i).is_some_and(|x| *x > 0.0) {
                continue;
            }
            let hotter = held.is_some_and(|h| {
                utilisation(h, i)
                    .total_cmp(&utilisation(l, i))
                    .then(l.link.cmp(&h.link))
                    .is_gt()
            });
            if !hotter {
                *held = Some(l);
            }
        }
    }
    let patterns = PATTERNS
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let hottest = hottest_of.get(i).copied().flatten();
            let load = hottest
                .and_then(|l| l.loads_gbps.get(i).copied())
                .unwrap_or(0.0);
            PatternLoad {
                pattern: (*name).to_string(),
                offered_gbps: round(r.offered.get(i).copied().unwrap_or(0.0), 4),
                unroutable_gbps: round(unroutable.get(i).copied().unwrap_or(0.0), 4),
                hottest_link: hottest.map(|l| l.link),
                hottest_load_gbps: load,
                hottest_utilisation: hottest
                    .map_or(0.0, |l| round(load / l.capacity_gbps.max(1e-12), 6)),
            }
        })
        .collect();
    RoutingReport {
        method: "ECMP over shortest paths on the drawn switch graph, split by link capacity at every hop; endpoints \
                 attach through their cabled ports and do not forward; with NVLink at both ends, all-to-all stays on \
                 the source port's rail (PXN)"
            .into(),
        patterns,
        links,
    }
}
