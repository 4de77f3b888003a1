//! The scale-out fabric: oversubscription of every switch by tier, and the bisection bandwidth with how it was
//! obtained.

use super::*;

/// Oversubscription of one switch.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SwitchBandwidth {
    /// The switch these figures are for.
    pub device: DeviceId,
    /// The switch's name in the design, for display.
    pub name: String,
    /// Tier counted from the endpoints (1 = leaf), 0 when it reaches no endpoint.
    pub tier: u8,
    /// Bandwidth towards endpoints and lower tiers, Gb/s.
    pub down_gbps: f64,
    /// Bandwidth towards higher tiers, Gb/s.
    pub up_gbps: f64,
    /// down / up; None at the top tier.
    pub oversubscription: Option<f64>,
    /// Ports with a cable: links that end at this switch, one per end.
    pub ports_used: usize,
    /// Ports on the switch.
    pub ports_total: usize,
}

/// Bisection bandwidth and how it was obtained.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Bisection {
    /// Bisection bandwidth, Gb/s: the exact value, or the proven lower bound when only bounds were reachable.
    pub gbps: f64,
    /// Proven lower bound, Gb/s (equal to `gbps`).
    pub lower_gbps: f64,
    /// Proven upper bound, Gb/s (equal to `lower_gbps` when exact).
    pub upper_gbps: f64,
    /// Whether the figure is exact; otherwise the truth lies in [`lower_gbps`, `upper_gbps`].
    pub exact: bool,
    /// Method used, starting with "exact", "bounds" or "not applicable".
    pub method: String,
    /// Capacity of each tier boundary, Gb/s, bottom up (for display; not a bound on the bisection).
    pub levels: Vec<(String, f64)>,
}

impl Bisection {
    /// The figure for a headline, Tb/s: "48.0 Tb/s" when exact, the proven range "998.4–1,049.6 Tb/s" otherwise
    /// (never a lone lower bound that reads as the answer), "up to 96.8 Tb/s" when no lower bound was proven.
    pub fn tbit_s_text(&self) -> String {
        use crate::analysis::format::thousands;
        if self.exact || self.upper_gbps <= self.lower_gbps {
            format!("{} Tb/s", thousands(self.gbps / 1000.0, 1))
        } else if self.lower_gbps <= 0.0 {
            // No lower bound was proven: "0–96.8" would read as "possibly nothing".
            format!("up to {} Tb/s", thousands(self.upper_gbps / 1000.0, 1))
        } else {
            format!(
                "{}–{} Tb/s",
                thousands(self.lower_gbps / 1000.0, 1),
                thousands(self.upper_gbps / 1000.0, 1)
            )
        }
    }
}

impl Bisection {
    /// The line under the headline figure, per GPU in GB/s (docs/analysis.md, "Units"): "24.2 GB/s per GPU",
    /// "at least 24.2 GB/s per GPU" for a proven range, "at most 48.8 GB/s per GPU; no lower bound proven", or
    /// "fewer than two GPU servers" when no GPU traffic crosses the fabric.
    ///
    /// With `full_gbps`, what a full-bisection fabric would carry across the cut
    /// (`BandwidthReport::full_bisection_gbps`: the smaller half's compute NIC bandwidth), the line adds the ratio
    /// that says whether the fabric is full-bisection: "1:1, full bisection" where 25 GB/s per GPU on a 400G NIC
    /// would otherwise read as 2:1.
    pub fn per_gpu_text(&self, gpus: usize, full_gbps: f64) -> String {
        let text = self.per_gpu_figure(gpus);
        match self.ratio_text(full_gbps) {
            Some(r) if !self.method.starts_with("not applicable") => format!("{text} ({r})"),
            _ => text,
        }
    }

    /// What a full-bisection fabric carries across the cut over the bisection, in words: "1:1, full bisection",
    /// "2.0:1 oversubscribed"; None when either is zero. Hand check: 32 servers x 8 x 400G = 102.4 Tb/s injected,
    /// 51.2 Tb/s from the 16 on one side; a 51.2 Tb/s bisection is 1:1, a 25.6 Tb/s one 2.0:1.
    pub fn ratio_text(&self, full_gbps: f64) -> Option<String> {
        if !(full_gbps > 0.0 && self.gbps > 0.0) {
            return None;
        }
        let ratio = full_gbps / self.gbps;
        // A proven lower bound gives the most the fabric can be oversubscribed.
        let bound = if self.exact { "" } else { "at most " };
        Some(if ratio <= 1.005 {
            "1:1, full bisection".to_string()
        } else if ratio < 1.1 {
            format!("{bound}{ratio:.2}:1 oversubscribed")
        } else {
            format!("{bound}{ratio:.1}:1 oversubscribed")
        })
    }

    fn per_gpu_figure(&self, gpus: usize) -> String {
        let per = |gbps: f64| gbps / 8.0 / gpus.max(1) as f64;
        if self.method.starts_with("not applicable") {
            "fewer than two GPU servers".into()
        } else if !self.exact && self.lower_gbps <= 0.0 {
            format!(
                "at most {:.1} GB/s per GPU; no lower bound proven",
                per(self.upper_gbps)
            )
        } else {
            format!(
                "{}{:.1} GB/s per GPU",
                if self.exact { "" } else { "at least " },
                per(self.gbps)
            )
        }
    }
}

pub(super) fn switch_bandwidth(design: &Design, topo: &Topology) -> Vec<SwitchBandwidth> {
    let mut ports_used: HashMap<DeviceId, usize> = HashMap::default();
    for l in design.links.values() {
        *ports_used.entry(l.a.device).or_default() += 1;
        *ports_used.entry(l.b.device).or_default() += 1;
    }
    let mut out = Vec::new();
    for (id, device) in &design.devices {
        let Some(PartKind::Switch(spec)) = design.parts.get(&device.part).map(|p| &p.kind) else {
            continue;
        };
        let tier = topo.tier(*id).unwrap_or(0);
        let (mut down, mut up) = (0.0, 0.0);
        if let Some(&n) = topo.node_of.get(id) {
            // The switch's row of neighbours, with tiers by node: no hash look-up per edge.
            for (other, e) in topo.neighbours(n) {
                let (Some(w), Some(edge)) =
                    (topo.graph.node_weight(other), topo.graph.edge_weight(e))
                else {
                    continue;
                };
                if w.kind != NodeKind::Switch {
                    down += edge.gbps;
                } else {
                    let t = topo.node_tier.get(other.index()).copied().unwrap_or(0);
                    if t == 0 {
                        // A dead-end switch: neither up nor down.
                    } else if t > tier {
                        up += edge.gbps;
                    } else if t < tier {
                        down += edge.gbps;
                    }
                }
            }
        }
        let oversubscription = (up > 0.0).then(|| round(down / up, 4));
        out.push(SwitchBandwidth {
            device: *id,
            name: device.name.clone(),
            tier,
            down_gbps: down,
            up_gbps: up,
            oversubscription,
            ports_used: ports_used.get(id).copied().unwrap_or(0),
            ports_total: usize::from(spec.ports) + usize::from(spec.uplink_ports),
        });
    }
    out
}

pub(super) fn bisection(design: &Design, topo: &Topology) -> Bisection {
    use petgraph::visit::EdgeRef;
    // Tier boundaries, for display: they are neither the bisection nor a bound on it.
    let mut injection = 0.0;
    let mut between: BTreeMap<u8, f64> = BTreeMap::new();
    for e in topo.graph.edge_references() {
        let (Some(a), Some(b)) = (
            topo.graph.node_weight(e.source()),
            topo.graph.node_weight(e.target()),
        ) else {
            continue;
        };
        match (a.kind, b.kind) {
            (NodeKind::GpuServer, NodeKind::Switch) | (NodeKind::Switch, NodeKind::GpuServer) => {
                injection += e.weight().compute_gbps;
            }
            (NodeKind::Switch, NodeKind::Switch) => {
                let ta = topo.node_tier.get(e.source().index()).copied().unwrap_or(0);
                let tb = topo.node_tier.get(e.target().index()).copied().unwrap_or(0);
                if ta != tb && ta > 0 && tb > 0 {
                    *between.entry(ta.min(tb)).or_default() += e.weight().gbps;
                }
            }
            _ => {}
        }
    }
    let mut levels = vec![("GPU servers to leaf".to_string(), injection)];
    for (t, g) in &between {
        levels.push((format!("tier {t} to tier {}", t + 1), *g));
    }
    match crate::analysis::bisection::compute(design, topo) {
        None => Bisection {
            gbps: 0.0,
            lower_gbps: 0.0,
            upper_gbps: 0.0,
            exact: true,
            method:
                "not applicable: fewer than two GPU servers, so no GPU traffic crosses the fabric"
                    .into(),
            levels,
        },
        Some(o) => Bisection {
            gbps: round(o.lower, 3),
            lower_gbps: round(o.lower, 3),
            upper_gbps: round(o.upper, 3),
            exact: o.exact,
            method: o.method,
            levels,
        },
    }
}
