//! The bottleneck of each traffic pattern: routed GPU traffic limited by the busiest link or the worst server,
//! the server's own limit in words, and the shortfall against the demand.

use super::*;

/// Which traffic a bottleneck is about (for code; reports show the name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatternId {
    /// GPU network traffic: all-reduce across servers, one ring per rail.
    RailRings,
    /// GPU network traffic: all-to-all across servers.
    AllToAll,
    /// GPU network traffic of a design with one server.
    OneServer,
    /// GPU-to-GPU inside a server.
    InsideServer,
    /// GPUs reading from storage over the network; listed only when the design sets a storage rate and has storage.
    StorageRead,
}

impl PatternId {
    /// Whether this is GPU traffic over the network.
    pub fn is_gpu_network(self) -> bool {
        matches!(
            self,
            PatternId::RailRings | PatternId::AllToAll | PatternId::OneServer
        )
    }
}

/// The bottleneck of one traffic pattern.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PatternBottleneck {
    /// Which pattern, for code.
    #[serde(skip)]
    pub id: PatternId,
    /// The pattern's name as reports show it, e.g. "Storage read".
    pub pattern: String,
    /// What limits it, in words with the figures.
    pub limiter: String,
    /// Devices that limit it (the busiest link's ends, an oversubscribed switch, the worst server), to highlight;
    /// empty when no device is to blame.
    pub devices: Vec<DeviceId>,
    /// Bandwidth each GPU gets, GB/s.
    pub achieved_gbyte_s_per_gpu: f64,
    /// Bandwidth each GPU should get, GB/s.
    pub demand_gbyte_s_per_gpu: f64,
    /// demand / achieved (1 or less: no shortfall).
    pub shortfall: f64,
}

/// demand / achieved, infinite when nothing is achieved.
pub(super) fn shortfall(demand: f64, achieved: f64) -> f64 {
    if achieved > 0.0 {
        demand / achieved
    } else {
        f64::INFINITY
    }
}

/// What the bottleneck of a routed GPU pattern needs to know.
pub(super) struct PatternContext<'a> {
    pub(super) design: &'a Design,
    pub(super) routing: &'a crate::analysis::routing::RoutingReport,
    pub(super) worst_switch: Option<(f64, u8, DeviceId)>,
    pub(super) worst_server: Option<&'a ServerBandwidth>,
    pub(super) server_cap: f64,
    pub(super) demand_gbyte_s: f64,
}

impl PatternContext<'_> {
    /// Bottleneck and per-GPU bandwidth of a routed pattern: the worst server's network bandwidth divided
    /// by the load factor of the busiest link on the pattern's routes (when above 1), zero when any of it has no
    /// route.
    pub(super) fn routed(
        &self,
        (pattern, id): (Pattern, PatternId),
        name: &str,
    ) -> (PatternBottleneck, f64) {
        let design = self.design;
        let p = self.routing.patterns.get(pattern.index());
        let load = p.map_or(1.0, |p| p.hottest_utilisation.max(1.0));
        let unroutable = p.map_or(0.0, |p| p.unroutable_gbps);
        let achieved = if unroutable > 0.0 {
            0.0
        } else {
            self.server_cap / load
        };
        let (limiter, devices) = if unroutable > 0.0 {
            (
                format!(
                    "fabric: {unroutable:.0} Gb/s of this traffic has no route (GPU servers cannot reach each other)"
                ),
                Vec::new(),
            )
        } else if load > 1.0 + 1e-9 {
            let mut devices = Vec::new();
            let mut text = format!(
                "fabric: routed at line rate, this traffic loads its busiest link to {:.0}% of capacity, so each GPU \
                 gets {achieved:.2} GB/s",
                load * 100.0
            );
            if let Some(l) = p
                .and_then(|p| p.hottest_link)
                .and_then(|id| design.links.get(&id))
            {
                let name = |d: DeviceId| {
                    design
                        .devices
                        .get(&d)
                        .map_or(String::new(), |x| x.name.clone())
                };
                text.push_str(&format!(
                    " (link {} {} - {} {})",
                    name(l.a.device),
                    l.a.port,
                    name(l.b.device),
                    l.b.port
                ));
                devices.push(l.a.device);
                devices.push(l.b.device);
            }
            if let Some((r, tier, dev)) = self.worst_switch.filter(|(r, _, _)| *r > 1.0 + 1e-6) {
                let name = design
                    .devices
                    .get(&dev)
                    .map_or(String::new(), |d| d.name.clone());
                text.push_str(&format!(
                    "; switch {name} (tier {tier}) oversubscribed {r:.2}:1"
                ));
                if !devices.contains(&dev) {
                    devices.push(dev);
                }
            }
            (text, devices)
        } else {
            server_limiter(self.worst_server)
        };
        (
            PatternBottleneck {
                id,
                pattern: name.into(),
                limiter,
                devices,
                achieved_gbyte_s_per_gpu: round(achieved, 3),
                demand_gbyte_s_per_gpu: round(self.demand_gbyte_s, 3),
                shortfall: round(shortfall(self.demand_gbyte_s, achieved), 3),
            },
            achieved,
        )
    }
}

pub(super) fn server_limiter(worst: Option<&ServerBandwidth>) -> (String, Vec<DeviceId>) {
    let Some(s) = worst else {
        return ("no GPU servers".into(), Vec::new());
    };
    if s.compute_nic_cabled_gbps <= 0.0 {
        return (
            format!("server {} has no compute NIC cabled", s.name),
            vec![s.device],
        );
    }
    let what = if s.bottleneck_at_nic_port {
        format!(
            "NIC bandwidth in {}: {:.0} Gb/s cabled for {} = {:.1} GB/s per GPU",
            s.name,
            s.compute_nic_cabled_gbps,
            crate::analysis::format::count(s.gpus, "GPU", "GPUs"),
            s.nic_gbps_per_gpu / 8.0
        )
    } else {
        format!("PCIe {} in {}", s.bottleneck_hop, s.name)
    };
    (what, vec![s.device])
}

/// What one traffic pattern gets per GPU against what it should get: the Bottleneck card of the app and of the
/// HTML report for a chosen pattern.
#[derive(Debug, Clone, PartialEq)]
pub struct PatternFigures {
    /// The pattern's name as reports show it.
    pub name: String,
    /// Per-GPU bandwidth it gets, GB/s.
    pub achieved_gbyte_s: f64,
    /// Per-GPU bandwidth it should get, GB/s.
    pub demand_gbyte_s: f64,
    /// What limits it, in words.
    pub limiter: String,
}

/// The figures of a pattern: the analysis's own bottleneck when it computed one for the pattern, otherwise the
/// same rule from the routing (worst server's network bandwidth per GPU over the busiest link's load factor).
pub fn pattern_figures(bw: &BandwidthReport, pattern: Pattern) -> Option<PatternFigures> {
    let with = |id: PatternId| bw.patterns.iter().find(|p| p.id == id);
    let found = match pattern {
        Pattern::RailRings => with(PatternId::RailRings).or_else(|| with(PatternId::OneServer)),
        Pattern::AllToAll => with(PatternId::AllToAll).or_else(|| with(PatternId::OneServer)),
        Pattern::StorageRead => with(PatternId::StorageRead),
        Pattern::FlatRing | Pattern::Inference => None,
    };
    if let Some(p) = found {
        return Some(PatternFigures {
            name: p.pattern.clone(),
            achieved_gbyte_s: p.achieved_gbyte_s_per_gpu,
            demand_gbyte_s: p.demand_gbyte_s_per_gpu,
            limiter: p.limiter.clone(),
        });
    }
    if matches!(pattern, Pattern::StorageRead) {
        return None;
    }
    if bw.servers.len() < 2 {
        // One server: every GPU network pattern is its own NICs against the demand.
        return with(PatternId::OneServer).map(|p| PatternFigures {
            name: p.pattern.clone(),
            achieved_gbyte_s: p.achieved_gbyte_s_per_gpu,
            demand_gbyte_s: p.demand_gbyte_s_per_gpu,
            limiter: p.limiter.clone(),
        });
    }
    let routed = bw.routing.patterns.get(pattern.index())?;
    let cap = bw
        .servers
        .iter()
        .map(|s| s.network_gbyte_s_per_gpu)
        .fold(f64::INFINITY, f64::min);
    let load = routed.hottest_utilisation.max(1.0);
    let (achieved, limiter) = if routed.unroutable_gbps > 0.0 {
        (
            0.0,
            format!(
                "fabric: {:.0} Gb/s of this traffic has no route",
                routed.unroutable_gbps
            ),
        )
    } else if load > 1.0 + 1e-9 {
        (
            cap / load,
            format!(
                "fabric: busiest link loaded to {:.0}% of capacity",
                load * 100.0
            ),
        )
    } else {
        (
            cap,
            "each server's own network path (PCIe and NICs)".to_string(),
        )
    };
    Some(PatternFigures {
        name: pattern.label().to_string(),
        achieved_gbyte_s: achieved,
        demand_gbyte_s: bw.demand_gbps_per_gpu / 8.0,
        limiter,
    })
}
