//! A finding: what is wrong or worth knowing, with its severity, the parts it is about and a suggested fix. The
//! checks that make findings live with their topics (`findings`, `cooling`, `facility`, `sites`); this module is
//! the type they share, below all of them.

use crate::model::{DeviceId, LinkId, RackId};
use serde::Serialize;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Severity {
    /// The design does not work as drawn.
    Error,
    /// The design works but misses what it is for.
    Warning,
    /// Worth knowing, nothing to fix: the design works and meets what it is for.
    Info,
}

/// What a finding is about: its stable code, written in files, JSON and reports by its kebab-case name
/// ("nic-per-gpu"). Code matches on the variant, never on the name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum FindingCode {
    /// The service's availability is below the design's target.
    AvailabilityBelowTarget,
    /// A traffic pattern gets less bandwidth per GPU than it should.
    Bottleneck,
    /// A link is longer than its cable part reaches.
    CableReach,
    /// A cage holds a transceiver that draws more than its power class.
    CagePower,
    /// A training job's checkpoints: no storage, too slow a write, or too large for the storage.
    Checkpoint,
    /// The coolant distribution units cannot move the liquid-cooled heat.
    CduCapacity,
    /// GPU servers have GPU slots left empty.
    EmptyGpuSlots,
    /// Link lengths are estimates from the floor, not measured (information, with the count).
    EstimatedLengths,
    /// The fabric is split into islands that cannot reach each other.
    FabricPartitioned,
    /// A training job's goodput (share of time that advances training) is under 90%.
    Goodput,
    /// GPU servers have no compute NIC cabled to the fabric.
    GpuNotConnected,
    /// A link is loaded past its capacity by routed traffic.
    LinkOverloaded,
    /// The design mixes GPU models.
    MixedGpuModels,
    /// A rack draws more than air cooling can take.
    NeedsLiquidCooling,
    /// A server or storage appliance is cabled straight to a switch in another site: one fabric spans sites.
    FabricSpansSites,
    /// Installed NICs have no cable.
    NicNotConnected,
    /// Cabled NIC bandwidth per GPU is below the demand.
    NicPerGpu,
    /// Liquid-cooled racks with no coolant distribution unit.
    NoCdu,
    /// Storage reads are asked for but the design has no storage.
    NoStorage,
    /// A PCIe hop inside servers holds network and storage traffic back.
    PcieOversubscribed,
    /// A rack's heat exceeds its cooling.
    RackCooling,
    /// One power feed cannot carry its rack alone (A/B redundancy).
    RackFeed,
    /// A rack's PDUs cannot carry its draw.
    RackPdu,
    /// A rack draws more than its power budget.
    RackPower,
    /// Racks run near their power budget.
    RackPowerHigh,
    /// A rack's devices overflow its units.
    RackSpace,
    /// A rack is heavier than it may carry.
    RackWeight,
    /// Too few replicas for the request rate.
    ServingCapacity,
    /// The p99 latency is over the target.
    ServingLatency,
    /// Meeting the latency target needs more replicas.
    ServingLatencyCapacity,
    /// A single cable whose loss cuts GPUs or storage off.
    SingleLink,
    /// A single switch whose loss cuts GPUs or storage off.
    SingleSwitch,
    /// Losing one site loses serving or training capacity.
    SiteLossCapacity,
    /// A cable between two sites is shorter than the distance between them, or the distance is not known.
    SiteDistance,
    /// Storage delivers less per GPU than asked.
    StoragePerGpu,
    /// Switches are oversubscribed.
    SwitchOversubscribed,
    /// Links with no cable part, left out of the cost.
    UnpricedLinks,
    /// Traffic with no route to its destination.
    UnroutableTraffic,
    /// The utilisation target is out of its sensible range.
    UtilisationTarget,
}

impl FindingCode {
    /// Every code, in name order.
    pub const ALL: [FindingCode; 39] = [
        FindingCode::AvailabilityBelowTarget,
        FindingCode::Bottleneck,
        FindingCode::CableReach,
        FindingCode::CagePower,
        FindingCode::CduCapacity,
        FindingCode::Checkpoint,
        FindingCode::EmptyGpuSlots,
        FindingCode::EstimatedLengths,
        FindingCode::FabricPartitioned,
        FindingCode::FabricSpansSites,
        FindingCode::Goodput,
        FindingCode::GpuNotConnected,
        FindingCode::LinkOverloaded,
        FindingCode::MixedGpuModels,
        FindingCode::NeedsLiquidCooling,
        FindingCode::NicNotConnected,
        FindingCode::NicPerGpu,
        FindingCode::NoCdu,
        FindingCode::NoStorage,
        FindingCode::PcieOversubscribed,
        FindingCode::RackCooling,
        FindingCode::RackFeed,
        FindingCode::RackPdu,
        FindingCode::RackPower,
        FindingCode::RackPowerHigh,
        FindingCode::RackSpace,
        FindingCode::RackWeight,
        FindingCode::ServingCapacity,
        FindingCode::ServingLatency,
        FindingCode::ServingLatencyCapacity,
        FindingCode::SingleLink,
        FindingCode::SingleSwitch,
        FindingCode::SiteDistance,
        FindingCode::SiteLossCapacity,
        FindingCode::StoragePerGpu,
        FindingCode::SwitchOversubscribed,
        FindingCode::UnpricedLinks,
        FindingCode::UnroutableTraffic,
        FindingCode::UtilisationTarget,
    ];

    /// The code's name as reports and JSON write it.
    pub fn as_str(self) -> &'static str {
        match self {
            FindingCode::AvailabilityBelowTarget => "availability-below-target",
            FindingCode::Bottleneck => "bottleneck",
            FindingCode::CableReach => "cable-reach",
            FindingCode::CagePower => "cage-power",
            FindingCode::CduCapacity => "cdu-capacity",
            FindingCode::Checkpoint => "checkpoint",
            FindingCode::EmptyGpuSlots => "empty-gpu-slots",
            FindingCode::EstimatedLengths => "estimated-lengths",
            FindingCode::FabricPartitioned => "fabric-partitioned",
            FindingCode::Goodput => "goodput",
            FindingCode::GpuNotConnected => "gpu-not-connected",
            FindingCode::LinkOverloaded => "link-overloaded",
            FindingCode::MixedGpuModels => "mixed-gpu-models",
            FindingCode::NeedsLiquidCooling => "needs-liquid-cooling",
            FindingCode::NicNotConnected => "nic-not-connected",
            FindingCode::NicPerGpu => "nic-per-gpu",
            FindingCode::NoCdu => "no-cdu",
            FindingCode::NoStorage => "no-storage",
            FindingCode::PcieOversubscribed => "pcie-oversubscribed",
            FindingCode::RackCooling => "rack-cooling",
            FindingCode::RackFeed => "rack-feed",
            FindingCode::RackPdu => "rack-pdu",
            FindingCode::RackPower => "rack-power",
            FindingCode::RackPowerHigh => "rack-power-high",
            FindingCode::RackSpace => "rack-space",
            FindingCode::RackWeight => "rack-weight",
            FindingCode::ServingCapacity => "serving-capacity",
            FindingCode::ServingLatency => "serving-latency",
            FindingCode::ServingLatencyCapacity => "serving-latency-capacity",
            FindingCode::SingleLink => "single-link",
            FindingCode::SingleSwitch => "single-switch",
            FindingCode::SiteLossCapacity => "site-loss-capacity",
            FindingCode::FabricSpansSites => "fabric-spans-sites",
            FindingCode::SiteDistance => "site-distance",
            FindingCode::StoragePerGpu => "storage-per-gpu",
            FindingCode::SwitchOversubscribed => "switch-oversubscribed",
            FindingCode::UnpricedLinks => "unpriced-links",
            FindingCode::UnroutableTraffic => "unroutable-traffic",
            FindingCode::UtilisationTarget => "utilisation-target",
        }
    }
}

impl std::fmt::Display for FindingCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A problem or remark about a design, the parts it concerns and how to fix it; reports list the most severe first.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Finding {
    /// How serious it is; findings are sorted by it, errors first.
    pub severity: Severity,
    /// Stable code, written "nic-per-gpu".
    pub code: FindingCode,
    /// One line with the numbers.
    pub message: String,
    /// Devices the finding is about; the app selects them when the finding is clicked.
    pub devices: Vec<DeviceId>,
    /// Racks the finding is about; the app selects them when the finding is clicked.
    pub racks: Vec<RackId>,
    /// Links the finding is about; the app selects them when the finding is clicked.
    pub links: Vec<LinkId>,
    /// What to change in the design to clear it, in one sentence (may be empty).
    pub fix: String,
}

impl Finding {
    pub(crate) fn new(severity: Severity, code: FindingCode, message: String, fix: &str) -> Self {
        Self {
            severity,
            code,
            message,
            devices: Vec::new(),
            racks: Vec::new(),
            links: Vec::new(),
            fix: fix.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_written_by_their_names_in_name_order() {
        for code in FindingCode::ALL {
            assert_eq!(
                serde_json::to_string(&code).unwrap(),
                format!("\"{}\"", code.as_str())
            );
        }
        let names: Vec<&str> = FindingCode::ALL.iter().map(|c| c.as_str()).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(names, sorted);
    }
}
