//! Sites and availability (docs/analysis.md, "Sites and availability"): a design may spread its racks over sites
//! (data halls, regions), each up a share of the time. For a service, the capacity each site carries at the
//! planned utilisation decides which combinations of sites still meet the demand; the service's availability is the
//! probability of being in one of them (sites failing independently: sum over the up-sets of the product of a for
//! the up sites and 1 - a for the down ones). Findings when losing any one site leaves less than the demand, and
//! when the availability misses the target.

use super::finding::{Finding, FindingCode, Severity};
use super::format::round;
use super::latency::LatencyReport;
use crate::model::{Design, RackId};
use serde::Serialize;
use std::collections::BTreeMap;

/// Sites enumerated exactly up to this many (2^n combinations); above, the report gives no availability.
pub const MAX_SITES_EXACT: usize = 16;

/// One site's figures.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SiteFigures {
    /// The site's key in the design's `sites` map, which racks name in their `site` field.
    pub name: String,
    /// The site's region as the design gives it (`Site::region`, e.g. "eu-west"), for display.
    pub region: String,
    /// Share of the time it is up.
    pub availability: f64,
    /// Racks in it.
    pub racks: usize,
    /// GPUs in it.
    pub gpus: usize,
    /// Requests per second its replicas carry at the planned utilisation, when the design serves.
    pub capacity_rps: Option<f64>,
    /// Requests per second the other sites carry when this one is lost.
    pub capacity_without_rps: Option<f64>,
}

/// Sites section of the report (empty when the design has no sites).
#[derive(Debug, Clone, Serialize, Default)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SitesReport {
    /// One entry per site of the design, in name order.
    pub sites: Vec<SiteFigures>,
    /// Requests per second the service must carry.
    pub demand_rps: Option<f64>,
    /// Probability that the sites up carry the demand, when the design serves.
    pub service_availability: Option<f64>,
    /// The target, when set.
    pub availability_target: Option<f64>,
}

/// Probability that a set of independent sites, each up with its availability, is in a state where `ok(up)`
/// holds: the sum over up-sets of the product of a_i (up) and 1 - a_i (down).
pub fn availability_of(avail: &[f64], ok: impl Fn(&[bool]) -> bool) -> f64 {
    let n = avail.len();
    let mut total = 0.0;
    let mut up = vec![false; n];
    for mask in 0u32..(1u32 << n) {
        let mut p = 1.0;
        for (i, a) in avail.iter().enumerate() {
            let on = mask & (1 << i) != 0;
            if let Some(u) = up.get_mut(i) {
                *u = on;
            }
            p *= if on { *a } else { 1.0 - a };
        }
        if ok(&up) {
            total += p;
        }
    }
    total
}

/// The sites report.
pub fn analyze(design: &Design, latency: &LatencyReport) -> SitesReport {
    if design.sites.is_empty() {
        return SitesReport::default();
    }
    let mut racks_of: BTreeMap<&str, Vec<RackId>> = BTreeMap::new();
    for (id, r) in &design.racks {
        racks_of.entry(r.site.as_str()).or_default().push(*id);
    }
    // GPUs per rack in one pass over the devices, so each site's count costs its racks, not every device.
    let mut gpus_per_rack: BTreeMap<RackId, usize> = BTreeMap::new();
    for d in design.devices.values() {
        *gpus_per_rack.entry(d.rack).or_default() += d.gpus.len();
    }
    let gpus_in = |racks: &[RackId]| -> usize {
        racks
            .iter()
            .map(|r| gpus_per_rack.get(r).copied().unwrap_or(0))
            .sum()
    };
    let serving = design.params.serving.as_ref();
    let per_gpu_rps = serving.zip(latency.serving.as_ref()).map(|(s, l)| {
        let mu = s.throughput_for(super::bandwidth::main_gpu(design).as_ref());
        mu * l.planned_utilisation / f64::from(s.gpus_per_replica.max(1))
    });
    let replicas_rps = |gpus: usize| -> Option<f64> {
        let s = serving?;
        let per = per_gpu_rps?;
        let g = u64::from(s.gpus_per_replica.max(1));
        // Whole replicas only: a replica's GPUs are in one site.
        Some((gpus as u64 / g * g) as f64 * per)
    };
    let mut sites: Vec<SiteFigures> = design
        .sites
        .iter()
        .map(|(name, site)| {
            let racks = racks_of.get(name.as_str()).cloned().unwrap_or_default();
            let gpus = gpus_in(&racks);
            SiteFigures {
                name: name.clone(),
                region: site.region.clone(),
                availability: site.availability,
                racks: racks.len(),
                gpus,
                capacity_rps: replicas_rps(gpus).map(|c| round(c, 3)),
                capacity_without_rps: None,
            }
        })
        .collect();
    let capacities: Vec<f64> = sites
        .iter()
        .map(|s| s.capacity_rps.unwrap_or(0.0))
        .collect();
    let total: f64 = capacities.iter().sum();
    for (s, c) in sites.iter_mut().zip(&capacities) {
        s.capacity_without_rps = serving.map(|_| round(total - c, 3));
    }
    let demand = serving.map(|s| s.request_rate_rps);
    let availability = match (demand, sites.len() <= MAX_SITES_EXACT) {
        (Some(d), true) => {
            let avail: Vec<f64> = sites.iter().map(|s| s.availability).collect();
            Some(availability_of(&avail, |up| {
                let carried: f64 = up
                    .iter()
                    .zip(&capacities)
                    .filter(|(u, _)| **u)
                    .map(|(_, c)| c)
                    .sum();
                carried + 1e-9 >= d
            }))
        }
        _ => None,
    };
    SitesReport {
        sites,
        demand_rps: demand,
        service_availability: availability.map(|a| round(a, 9)),
        availability_target: design.params.availability_target,
    }
}

/// Findings: losing one site leaves less than the demand; the availability misses the target.
pub(crate) fn findings(design: &Design, report: &SitesReport, out: &mut Vec<Finding>) {
    let Some(demand) = report.demand_rps else {
        return;
    };
    for s in &report.sites {
        let Some(left) = s.capacity_without_rps else {
            continue;
        };
        if left + 1e-9 < demand {
            let mut f = Finding::new(
                Severity::Warning,
                FindingCode::SiteLossCapacity,
                format!(
                    "losing site {} leaves {left:.0} req/s of the {demand:.0} req/s demand ({:.0}% short)",
                    s.name,
                    (1.0 - left / demand) * 100.0
                ),
                "add capacity in the other sites so that any one site can be lost (N+1 across sites)",
            );
            f.racks = design
                .racks
                .iter()
                .filter(|(_, r)| r.site == s.name)
                .map(|(id, _)| *id)
                .collect();
            out.push(f);
        }
    }
    if let (Some(a), Some(t)) = (report.service_availability, report.availability_target)
        && a < t
    {
        out.push(Finding::new(
            Severity::Error,
            FindingCode::AvailabilityBelowTarget,
            format!(
                "the service is available {:.4}% of the time against a target of {:.4}% (sites failing \
                 independently)",
                a * 100.0,
                t * 100.0
            ),
            "add a site, or capacity so that fewer sites are needed to carry the demand",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::availability_of;

    #[test]
    fn k_of_n_by_hand() {
        // Two sites at 0.999, either alone enough: 1 - 0.001^2 = 0.999999.
        let a = availability_of(&[0.999, 0.999], |up| up.iter().any(|u| *u));
        assert!((a - 0.999_999).abs() < 1e-12);
        // Both needed: 0.999^2 = 0.998001.
        let a = availability_of(&[0.999, 0.999], |up| up.iter().all(|u| *u));
        assert!((a - 0.998_001).abs() < 1e-12);
        // Two of three at 0.99: 3 x 0.99^2 x 0.01 + 0.99^3 = 0.029403 + 0.970299 = 0.999702.
        let a = availability_of(&[0.99; 3], |up| up.iter().filter(|u| **u).count() >= 2);
        assert!((a - 0.999_702).abs() < 1e-12);
    }
}
