//! Findings: what is wrong or worth knowing, each with its numbers, the parts concerned and a suggested fix.
//! Findings about many parts of the same kind are grouped into one, listing every part.

use super::bandwidth::BandwidthReport;
use super::cost::CostReport;
use super::finding::{Finding, FindingCode, Severity};
use super::latency::LatencyReport;
use super::pattern::Pattern;
use super::power::PowerReport;
use crate::model::part::{NicRole, PartKind};
use crate::model::{Design, DeviceId, RackId};
use crate::topology::Topology;
use serde::Serialize;
use std::collections::BTreeMap;

mod resilience;

use resilience::resilience_findings;

/// A headline card (the app's analysis pane, the HTML report's summary) that findings can concern. A card is
/// coloured by the most severe finding that concerns it, so the headline never reads green above its own warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Headline {
    /// GPUs installed and how they reach the fabric.
    Gpus,
    /// Bisection bandwidth of the scale-out fabric.
    Bisection,
    /// What each GPU gets under a traffic pattern against what it should get.
    Bottleneck,
    /// Path latency, serving latency and serving capacity.
    Latency,
    /// IT power against the rack budgets, feeds, PDUs and cooling.
    Power,
    /// Capital cost: what the parts cost to buy, USD.
    Capex,
    /// Owned cost per GPU-hour.
    CostPerGpuHour,
    /// Single points of failure, sites and the service's availability.
    Availability,
}

/// The headline cards a finding concerns, by its code (one table, so the pane, the report and the tests agree).
pub fn headlines(code: &FindingCode) -> &'static [Headline] {
    use FindingCode as C;
    use Headline::*;
    match code {
        C::GpuNotConnected => &[Gpus, Bottleneck, Bisection],
        C::NicNotConnected => &[Gpus, Bottleneck],
        C::EmptyGpuSlots | C::MixedGpuModels => &[Gpus],
        C::FabricPartitioned | C::UnroutableTraffic | C::SwitchOversubscribed => {
            &[Bisection, Bottleneck]
        }
        C::LinkOverloaded => &[Bottleneck, Latency],
        C::NicPerGpu | C::PcieOversubscribed | C::Bottleneck => &[Bottleneck],
        C::ServingCapacity | C::ServingLatencyCapacity | C::ServingLatency => &[Latency],
        C::RackPower
        | C::RackPdu
        | C::RackFeed
        | C::RackPowerHigh
        | C::RackCooling
        | C::NeedsLiquidCooling
        | C::NoCdu
        | C::CduCapacity
        | C::CagePower => &[Power],
        C::UnpricedLinks => &[Capex],
        C::CableReach => &[Bottleneck],
        C::UtilisationTarget => &[CostPerGpuHour, Latency],
        C::SingleSwitch | C::SingleLink | C::SiteLossCapacity | C::AvailabilityBelowTarget => {
            &[Availability]
        }
        C::FabricSpansSites | C::SiteDistance => &[Latency, Availability],
        _ => &[],
    }
}

/// A few plain words for what a finding says, for the card it concerns (the full message is in the findings).
pub fn short_label(code: &FindingCode) -> &'static str {
    use FindingCode as C;
    match code {
        C::GpuNotConnected => "GPU servers not cabled",
        C::CableReach => "cable too short for its link",
        C::CagePower => "cage over its power class",
        C::NicNotConnected => "NICs not cabled",
        C::EmptyGpuSlots => "empty GPU slots",
        C::EstimatedLengths => "cable lengths estimated",
        C::MixedGpuModels => "mixed GPU models",
        C::FabricPartitioned => "fabric split in islands",
        C::UnroutableTraffic => "traffic with no route",
        C::SwitchOversubscribed => "switches oversubscribed",
        C::LinkOverloaded => "links overloaded",
        C::NicPerGpu => "NIC bandwidth short",
        C::PcieOversubscribed => "PCIe oversubscribed",
        C::Bottleneck => "bottleneck",
        C::ServingCapacity => "too few replicas",
        C::ServingLatencyCapacity => "latency target needs more replicas",
        C::ServingLatency => "p99 over target",
        C::RackPower => "rack over its power budget",
        C::RackPdu => "PDUs too small",
        C::RackFeed => "a feed cannot carry a rack",
        C::RackPowerHigh => "racks near their budget",
        C::RackCooling | C::NeedsLiquidCooling => "cooling short",
        C::NoCdu | C::CduCapacity => "coolant distribution short",
        C::UnpricedLinks => "unpriced links",
        C::UtilisationTarget => "utilisation target out of range",
        C::SingleSwitch => "single switch failure",
        C::SingleLink => "single link failure",
        C::SiteLossCapacity => "losing a site loses capacity",
        C::FabricSpansSites => "fabric spans sites",
        C::SiteDistance => "cable shorter than the sites' distance",
        C::AvailabilityBelowTarget => "availability below target",
        _ => "see the findings",
    }
}

/// The warnings and errors that concern a headline card, most severe first (findings are sorted so).
pub fn concerning(findings: &[Finding], card: Headline) -> Vec<&Finding> {
    findings
        .iter()
        .filter(|f| f.severity != Severity::Info && headlines(&f.code).contains(&card))
        .collect()
}

fn names(design: &Design, ids: &[DeviceId]) -> String {
    let mut v: Vec<&str> = ids
        .iter()
        .filter_map(|i| design.devices.get(i))
        .map(|d| d.name.as_str())
        .take(4)
        .collect();
    if ids.len() > 4 {
        v.push("...");
    }
    v.join(", ")
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn collect(
    design: &Design,
    topo: &Topology,
    bw: &BandwidthReport,
    lat: &LatencyReport,
    power: &PowerReport,
    cost: &CostReport,
    cooling: &super::cooling::CoolingReport,
    sites: &super::sites::SitesReport,
) -> Vec<Finding> {
    let mut out = Vec::new();
    bandwidth_findings(design, bw, &mut out);
    super::cooling::findings(design, cooling, &mut out);
    super::sites::findings(design, sites, &mut out);
    connectivity_findings(design, topo, bw, &mut out);
    power_findings(power, &mut out);
    serving_findings(design, lat, cost, &mut out);
    let u = design.params.utilisation_target;
    if !(u > 0.0 && u < 1.0) {
        out.push(Finding::new(
            Severity::Error,
            FindingCode::UtilisationTarget,
            format!(
                "utilisation target {u} is outside (0, 1): {}",
                if u >= 1.0 {
                    "link queues are saturated, so latency percentiles are not finite, while cost counts every hour busy"
                } else {
                    "no hour counts as used, so cost per GPU-hour and the serving plan mean nothing"
                }
            ),
            "set params.utilisation_target between 0 and 1 (0.7 is a common planning figure)",
        ));
    }
    if cost.unpriced_links > 0 {
        out.push(Finding::new(
            Severity::Info,
            FindingCode::UnpricedLinks,
            format!(
                "{} links have no cable or transceiver part and are not in the capex",
                cost.unpriced_links
            ),
            "choose a cable part for each link in the inspector",
        ));
    }
    sort(&mut out);
    out
}

/// Sorts findings as reports list them: most severe first, then by code and message.
pub(crate) fn sort(out: &mut [Finding]) {
    out.sort_by(|a, b| {
        a.severity
            .cmp(&b.severity)
            .then_with(|| a.code.as_str().cmp(b.code.as_str()))
            .then_with(|| a.message.cmp(&b.message))
    });
}

/// The bandwidth findings: NIC bandwidth per GPU, PCIe chokes, switch oversubscription, storage, and the routed
/// traffic (overloaded links, traffic with no route, the bottleneck).
fn bandwidth_findings(design: &Design, bw: &BandwidthReport, out: &mut Vec<Finding>) {
    nic_findings(design, bw, out);
    pcie_findings(design, bw, out);
    switch_findings(design, bw, out);
    storage_findings(design, bw, out);
    routed_findings(design, bw, out);
}

/// Servers whose cabled NIC bandwidth per GPU is below what the fabric asks.
fn nic_findings(design: &Design, bw: &BandwidthReport, out: &mut Vec<Finding>) {
    // NIC bandwidth per GPU below what the fabric asks, grouped by the figure.
    let demand = bw.demand_gbps_per_gpu;
    // Grouped by the figure as shown (tenths of Gb/s), so servers listed together read the same.
    let mut short: BTreeMap<u64, Vec<DeviceId>> = BTreeMap::new();
    for s in &bw.servers {
        if s.compute_nic_cabled_gbps > 0.0 && s.nic_gbps_per_gpu + 1e-9 < demand {
            let tenths = (s.nic_gbps_per_gpu * 10.0).round().max(0.0) as u64;
            short.entry(tenths).or_default().push(s.device);
        }
    }
    for (tenths, devices) in short {
        let per = tenths as f64 / 10.0;
        // Per-GPU bandwidth is in GB/s everywhere (docs/analysis.md, "Units"), the NIC rate it comes from in Gb/s.
        let figure = format!("{:.1} GB/s ({per:.0} Gb/s)", per / 8.0);
        let ratio = if per > 0.0 {
            demand / per
        } else {
            f64::INFINITY
        };
        let mut f = Finding::new(
            Severity::Warning,
            FindingCode::NicPerGpu,
            format!(
                "{} ({}) {} {figure} of NIC bandwidth per GPU against {:.1} GB/s the fabric asks: {ratio:.1}x short",
                super::format::count(devices.len(), "server", "servers"),
                names(design, &devices),
                if devices.len() == 1 { "has" } else { "have" },
                demand / 8.0
            ),
            "add compute NICs (one per GPU on the GPU's PCIe switch) or use faster NICs",
        );
        f.devices = devices;
        out.push(f);
    }
}

/// PCIe hops inside servers that hold network and storage traffic back.
fn pcie_findings(design: &Design, bw: &BandwidthReport, out: &mut Vec<Finding>) {
    // PCIe hops that hold network + storage traffic back (offered more than they carry, and full). Hops further on
    // that are offered more than their capacity but receive less, because the choke holds the flows back, are
    // named with what actually reaches them.
    // (offered, carried, capacity, servers, hops held back) per choke.
    type Choke = (f64, f64, f64, Vec<DeviceId>, Vec<String>);
    let mut pcie: BTreeMap<super::bandwidth::Hop, Choke> = BTreeMap::new();
    for s in &bw.servers {
        let behind: Vec<String> = s
            .pcie
            .iter()
            .filter(|h| !h.choke && h.offered_gbyte_s > h.capacity_gbyte_s * (1.0 + 1e-9))
            .map(|h| {
                format!(
                    "{} is offered {:.1} GB/s against {:.1} but carries only {:.1}",
                    h.hop, h.offered_gbyte_s, h.capacity_gbyte_s, h.load_gbyte_s
                )
            })
            .collect();
        for h in s.pcie.iter() {
            if h.choke && !h.nic_port {
                let e = pcie.entry(h.hop.clone()).or_insert((
                    h.offered_gbyte_s,
                    h.load_gbyte_s,
                    h.capacity_gbyte_s,
                    Vec::new(),
                    behind.clone(),
                ));
                e.3.push(s.device);
            }
        }
    }
    for (hop, (offered, carried, cap, devices, behind)) in pcie {
        let mut message = format!(
            "PCIe {hop} is offered {offered:.1} GB/s against {cap:.1} GB/s ({:.2}x) and carries {carried:.1} in {}: {}",
            offered / cap,
            super::format::count(devices.len(), "server", "servers"),
            names(design, &devices)
        );
        if !behind.is_empty() {
            message.push_str(&format!("; held back by it, {}", behind.join("; ")));
        }
        let mut f = Finding::new(
            Severity::Warning,
            FindingCode::PcieOversubscribed,
            message,
            "put each GPU's NIC on the same PCIe switch as the GPU, or use a wider/newer PCIe link",
        );
        f.devices = devices;
        out.push(f);
    }
}

/// Switches oversubscribed above 1:1, by tier and ratio.
fn switch_findings(design: &Design, bw: &BandwidthReport, out: &mut Vec<Finding>) {
    // Switch oversubscription above 1:1.
    let mut over: BTreeMap<(u8, String), Vec<DeviceId>> = BTreeMap::new();
    for s in &bw.switches {
        if let Some(r) = s.oversubscription
            && r > 1.0 + 1e-6
        {
            over.entry((s.tier, format!("{r:.2}")))
                .or_default()
                .push(s.device);
        }
    }
    for ((tier, ratio), devices) in over {
        let mut f = Finding::new(
            Severity::Warning,
            FindingCode::SwitchOversubscribed,
            format!(
                "{} ({}) {} oversubscribed {ratio}:1 (down against up bandwidth)",
                super::format::count(
                    devices.len(),
                    &format!("tier-{tier} switch"),
                    &format!("tier-{tier} switches")
                ),
                names(design, &devices),
                if devices.len() == 1 { "is" } else { "are" }
            ),
            "add uplinks (or spine switches) until uplink bandwidth matches downlink bandwidth",
        );
        f.devices = devices;
        out.push(f);
    }
}

/// Storage the design lacks, or that delivers less per GPU than asked.
fn storage_findings(design: &Design, bw: &BandwidthReport, out: &mut Vec<Finding>) {
    // Storage.
    let st = &bw.storage;
    if bw.gpus > 0 && st.demand_per_gpu_gbyte_s > 0.0 {
        if st.appliances == 0 {
            out.push(Finding::new(
                Severity::Warning,
                FindingCode::NoStorage,
                format!(
                    "no storage in the design for {} GPUs that need {:.1} GB/s each",
                    bw.gpus, st.demand_per_gpu_gbyte_s
                ),
                "add a parallel-filesystem appliance or NVMe storage servers on the storage fabric",
            ));
        } else if st.per_gpu_gbyte_s + 1e-9 < st.demand_per_gpu_gbyte_s {
            let ids: Vec<DeviceId> = design
                .devices_where(|k| matches!(k, PartKind::Storage(_)))
                .map(|(id, _)| id)
                .collect();
            let mut f = Finding::new(
                Severity::Warning,
                FindingCode::StoragePerGpu,
                format!(
                    "storage delivers {:.2} GB/s per GPU against {:.1} GB/s needed: {}",
                    st.per_gpu_gbyte_s, st.demand_per_gpu_gbyte_s, st.limiter
                ),
                "add storage appliances or storage links (at least 1 GB/s per GPU for training)",
            );
            f.devices = ids;
            out.push(f);
        }
    }
}

/// The routed traffic: links loaded past capacity, traffic with no route, and the inter-server bottleneck.
fn routed_findings(design: &Design, bw: &BandwidthReport, out: &mut Vec<Finding>) {
    // Links the routed traffic loads beyond their capacity. A design that serves requests and trains nothing, with
    // each replica inside one server, runs no collectives across servers: their overloads are reported for
    // reference (info), not as a problem.
    let per_server = bw.servers.iter().map(|s| s.gpus).max().unwrap_or(0);
    let serving_only = design.params.training.is_none()
        && design
            .params
            .serving
            .as_ref()
            .is_some_and(|s| (s.gpus_per_replica as usize) <= per_server.max(1));
    // `routing.patterns` and each link's `loads_gbps` are in `Pattern::ALL` order.
    for (i, p) in bw.routing.patterns.iter().enumerate() {
        if p.hottest_utilisation > 1.0 + 1e-6 {
            let reference =
                serving_only && Pattern::from_index(i).is_some_and(Pattern::is_collective);
            let over: Vec<&super::routing::LinkLoad> = bw
                .routing
                .links
                .iter()
                .filter(|l| {
                    l.loads_gbps
                        .get(i)
                        .is_some_and(|x| *x > l.capacity_gbps * (1.0 + 1e-6))
                })
                .collect();
            let mut f = Finding::new(
                if reference {
                    Severity::Info
                } else {
                    Severity::Warning
                },
                FindingCode::LinkOverloaded,
                format!(
                    "{}: {} offered more than {} carry; the hottest at {:.0}% ({:.0} Gb/s){}",
                    p.pattern,
                    if over.len() == 1 {
                        "1 link is".to_string()
                    } else {
                        format!(
                            "{} links are",
                            super::format::thousands(over.len() as f64, 0)
                        )
                    },
                    if over.len() == 1 { "it can" } else { "they" },
                    p.hottest_utilisation * 100.0,
                    p.hottest_load_gbps,
                    if reference {
                        " (for reference: the design serves requests with replicas inside one server and trains \
                         nothing, so it runs no collectives across servers)"
                    } else {
                        ""
                    }
                ),
                "add parallel links or spine capacity where the load concentrates",
            );
            f.links = over.iter().map(|l| l.link).collect();
            let mut devices: Vec<DeviceId> = f
                .links
                .iter()
                .filter_map(|l| design.links.get(l))
                .flat_map(|l| [l.a.device, l.b.device])
                .collect();
            devices.sort();
            devices.dedup();
            f.devices = devices;
            out.push(f);
        }
    }
    if bw.routing.patterns.iter().any(|p| p.unroutable_gbps > 0.0) {
        let lost: Vec<String> = bw
            .routing
            .patterns
            .iter()
            .filter(|p| p.unroutable_gbps > 0.0)
            .map(|p| format!("{} {:.0} Gb/s", p.pattern, p.unroutable_gbps))
            .collect();
        out.push(Finding::new(
            Severity::Error,
            FindingCode::UnroutableTraffic,
            format!(
                "traffic with no path through the switches: {}",
                lost.join("; ")
            ),
            "connect the leaf switches through common spines",
        ));
    }
    // Bottleneck of the inter-server pattern, as info when it is not already a warning.
    if let Some(p) = bw.patterns.iter().find(|p| p.id.is_gpu_network()) {
        let mut f = Finding::new(
            Severity::Info,
            FindingCode::Bottleneck,
            format!(
                "bottleneck for {}: {} ({:.1} GB/s per GPU achievable, {:.1} GB/s asked)",
                p.pattern, p.limiter, p.achieved_gbyte_s_per_gpu, p.demand_gbyte_s_per_gpu
            ),
            "the part named limits this traffic pattern; widen it first if the workload needs the pattern",
        );
        f.devices = p.devices.clone();
        out.push(f);
    }
}

fn connectivity_findings(
    design: &Design,
    topo: &Topology,
    bw: &BandwidthReport,
    out: &mut Vec<Finding>,
) {
    // Cabled server NIC ports, sorted by server: the servers below, in id order, each take the next run.
    let mut rest = topo.nic_ports.as_slice();
    let multi = bw.servers.len() > 1
        || design
            .devices_where(|k| matches!(k, PartKind::Switch(_)))
            .next()
            .is_some();
    // GPU servers with no compute NIC cabled.
    let isolated: Vec<DeviceId> = bw
        .servers
        .iter()
        .filter(|s| s.compute_nic_cabled_gbps <= 0.0)
        .map(|s| s.device)
        .collect();
    if multi && !isolated.is_empty() {
        let mut f = Finding::new(
            Severity::Error,
            FindingCode::GpuNotConnected,
            format!(
                "{} ({}) {} no compute NIC cabled: their GPUs cannot reach the fabric",
                super::format::count(isolated.len(), "GPU server", "GPU servers"),
                names(design, &isolated),
                if isolated.len() == 1 { "has" } else { "have" }
            ),
            "install compute NICs and cable them to a leaf switch",
        );
        f.devices = isolated;
        out.push(f);
    }
    // NICs installed with no port cabled.
    let mut uncabled: Vec<DeviceId> = Vec::new();
    let mut count = 0usize;
    for (id, d) in &design.devices {
        let Some(PartKind::Server(spec)) = design.parts.get(&d.part).map(|p| &p.kind) else {
            continue;
        };
        let mine = super::next_run(&mut rest, |c| c.device, *id);
        let mut here = 0;
        for (slot, part) in &d.nics {
            let Some(PartKind::Nic(nic)) = design.parts.get(part).map(|p| &p.kind) else {
                continue;
            };
            if spec
                .nic_slots
                .get(usize::from(*slot))
                .is_some_and(|s| s.role == NicRole::Management)
            {
                continue;
            }
            let any = mine
                .iter()
                .any(|c| c.slot == *slot && (1..=nic.ports).contains(&c.port));
            if !any {
                here += 1;
            }
        }
        if here > 0 {
            count += here;
            uncabled.push(*id);
        }
    }
    if !uncabled.is_empty() {
        let mut f = Finding::new(
            Severity::Warning,
            FindingCode::NicNotConnected,
            format!(
                "{} in {} ({}) {} not cabled",
                super::format::count(count, "NIC", "NICs"),
                super::format::count(uncabled.len(), "server", "servers"),
                names(design, &uncabled),
                if count == 1 { "is" } else { "are" }
            ),
            "cable every NIC, or remove the ones the design does not need",
        );
        f.devices = uncabled;
        out.push(f);
    }
    // GPUs of more than one model in one server: its NVLink domain (or PCIe ring) runs at the slowest GPU's pace,
    // and frameworks expect one model per collective group.
    let mut mixed: Vec<DeviceId> = Vec::new();
    let mut models: Vec<&str> = Vec::new();
    for (id, d) in &design.devices {
        let mut parts: Vec<&crate::model::PartId> = d.gpus.values().collect();
        parts.sort();
        parts.dedup();
        if parts.len() > 1 {
            mixed.push(*id);
            for p in parts {
                let name = design.parts.get(p).map_or(p.as_str(), |x| x.name.as_str());
                if !models.contains(&name) {
                    models.push(name);
                }
            }
        }
    }
    if !mixed.is_empty() {
        let mut f = Finding::new(
            Severity::Warning,
            FindingCode::MixedGpuModels,
            format!(
                "{} ({}) {} GPUs of different models in one NVLink domain ({}): collectives run at the slowest GPU's \
                 pace and frameworks expect one model per group",
                super::format::count(mixed.len(), "server", "servers"),
                names(design, &mixed),
                if mixed.len() == 1 { "holds" } else { "hold" },
                models.join(", ")
            ),
            "fill each server with one GPU model",
        );
        f.devices = mixed;
        out.push(f);
    }
    // Empty GPU slots.
    let mut empty = Vec::new();
    for (id, d) in &design.devices {
        if let Some(PartKind::Server(spec)) = design.parts.get(&d.part).map(|p| &p.kind)
            && !spec.gpu_slots.is_empty()
            && d.gpus.len() < spec.gpu_slots.len()
        {
            empty.push(*id);
        }
    }
    if !empty.is_empty() {
        let mut f = Finding::new(
            Severity::Info,
            FindingCode::EmptyGpuSlots,
            format!(
                "{} ({}) {} empty GPU slots",
                super::format::count(empty.len(), "server", "servers"),
                names(design, &empty),
                if empty.len() == 1 { "has" } else { "have" }
            ),
            "drag GPUs into the free slots, or use a smaller server",
        );
        f.devices = empty;
        out.push(f);
    }
    resilience_findings(design, topo, out);
}

fn power_findings(power: &PowerReport, out: &mut Vec<Finding>) {
    let mut high: Vec<(RackId, String, f64)> = Vec::new();
    for r in &power.racks {
        if r.power_w > r.budget_w + 1e-9 {
            let mut f = Finding::new(
                Severity::Error,
                FindingCode::RackPower,
                format!(
                    "rack {} draws {:.1} kW against its {:.1} kW budget: {:.1} kW over ({:.0}%)",
                    r.name,
                    r.power_w / 1000.0,
                    r.budget_w / 1000.0,
                    (r.power_w - r.budget_w) / 1000.0,
                    r.utilisation * 100.0
                ),
                "move devices to another rack or raise the rack's power budget",
            );
            f.racks = vec![r.rack];
            out.push(f);
        } else if r.power_w > 0.9 * r.budget_w && r.budget_w > 0.0 {
            high.push((r.rack, r.name.clone(), r.utilisation));
        }
        if r.weight_kg > r.max_weight_kg + 1e-9 {
            let mut f = Finding::new(
                Severity::Error,
                FindingCode::RackWeight,
                format!(
                    "rack {} carries {:.0} kg against its {:.0} kg rating",
                    r.name, r.weight_kg, r.max_weight_kg
                ),
                "spread heavy servers over more racks",
            );
            f.racks = vec![r.rack];
            out.push(f);
        }
        if r.units_used > r.units_total {
            let mut f = Finding::new(
                Severity::Error,
                FindingCode::RackSpace,
                format!(
                    "rack {} needs {}U but has {}U",
                    r.name, r.units_used, r.units_total
                ),
                "move devices to another rack",
            );
            f.racks = vec![r.rack];
            out.push(f);
        }
        if r.pdu_capacity_w > 0.0 && r.power_w > r.pdu_capacity_w {
            let mut f = Finding::new(
                Severity::Warning,
                FindingCode::RackPdu,
                format!(
                    "rack {} draws {:.1} kW but its PDUs carry {:.1} kW",
                    r.name,
                    r.power_w / 1000.0,
                    r.pdu_capacity_w / 1000.0
                ),
                "add PDUs or larger ones",
            );
            f.racks = vec![r.rack];
            out.push(f);
        }
        if let Some(feed) = r.feed_capacity_w
            && r.power_w > feed
        {
            let mut f = Finding::new(
                Severity::Warning,
                FindingCode::RackFeed,
                format!(
                    "rack {} draws {:.1} kW, more than one {:.1} kW feed: it does not survive the loss of feed A or B",
                    r.name,
                    r.power_w / 1000.0,
                    feed / 1000.0
                ),
                "keep the rack's load under one feed's capacity, or cap server power",
            );
            f.racks = vec![r.rack];
            out.push(f);
        }
    }
    if !high.is_empty() {
        let list: Vec<String> = high
            .iter()
            .take(6)
            .map(|(_, n, u)| format!("{n} {:.0}%", u * 100.0))
            .collect();
        let mut f = Finding::new(
            Severity::Info,
            FindingCode::RackPowerHigh,
            format!(
                "{} above 90% of {} power budget: {}{}",
                if high.len() == 1 {
                    "1 rack is".to_string()
                } else {
                    format!("{} racks are", high.len())
                },
                if high.len() == 1 { "its" } else { "their" },
                list.join(", "),
                if high.len() > 6 { ", ..." } else { "" }
            ),
            "leave headroom for inrush and growth",
        );
        f.racks = high.into_iter().map(|(id, _, _)| id).collect();
        out.push(f);
    }
}

fn serving_findings(
    design: &Design,
    lat: &LatencyReport,
    cost: &CostReport,
    out: &mut Vec<Finding>,
) {
    let (Some(s), Some(needed), Some(have)) = (
        &design.params.serving,
        cost.replicas_needed,
        cost.replicas_in_design,
    ) else {
        return;
    };
    if have < needed {
        out.push(Finding::new(
            Severity::Error,
            FindingCode::ServingCapacity,
            format!(
                "{:.0} req/s at {:.0}% utilisation needs {needed} replicas ({} GPUs); the design holds {have}",
                s.request_rate_rps,
                design.params.utilisation_target * 100.0,
                needed * u64::from(s.gpus_per_replica)
            ),
            "add GPU servers, or raise the replica throughput with batching or a smaller model",
        ));
    }
    if let Some(sl) = &lat.serving
        && sl.planned_utilisation < design.params.utilisation_target
        && sl.replicas_needed.is_none_or(|n| n > have)
    {
        out.push(Finding::new(
            Severity::Error,
            FindingCode::ServingLatencyCapacity,
            format!(
                "to keep p99 under {:.0} ms each replica must stay below {:.0}% load, which needs {} replicas; the design holds {have}",
                sl.target_ms,
                sl.max_utilisation_for_target * 100.0,
                sl.replicas_needed.map_or("more than any number of".into(), |n| n.to_string())
            ),
            "add replicas, or raise the latency target",
        ));
    }
    if let Some(sl) = &lat.serving
        && sl.p99_ms > sl.target_ms
    {
        out.push(Finding::new(
            Severity::Warning,
            FindingCode::ServingLatency,
            format!(
                "p99 serving latency {:.1} ms exceeds the {:.0} ms target (each replica at {:.0}% load)",
                sl.p99_ms,
                sl.target_ms,
                sl.utilisation * 100.0
            ),
            "add replicas so each runs at lower utilisation",
        ));
    }
}
