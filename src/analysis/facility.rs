//! Facility (docs/analysis.md, "Cooling" and "Sites and availability"): the summary per site (IT, cooling and
//! facility kW, heat, coolant flow against the CDUs there), each rack charged at its `rates::Rates`, and the CDU
//! findings.

use super::finding::{Finding, FindingCode, Severity};
use super::format::round;
use super::power::{BTU_PER_W, PowerReport};
use super::rates::Rates;
use crate::model::part::PartKind;
use crate::model::{Cooling, Design, DeviceId, RackId};
use serde::Serialize;
use std::collections::BTreeMap;

/// The facility figures of one site (or of the whole design when it has no sites).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SiteFacility {
    /// Site name; empty for a design without sites.
    pub site: String,
    /// Racks whose `site` names this site (for a design without sites, every rack).
    pub racks: usize,
    /// IT power at maximum draw, kW.
    pub it_kw: f64,
    /// Of which in air-cooled racks, kW.
    pub air_kw: f64,
    /// Of which in liquid-cooled racks, kW.
    pub liquid_kw: f64,
    /// Cooling plant and the rest of the facility overhead: sum of IT x (PUE - 1), kW.
    pub overhead_kw: f64,
    /// Facility power, kW.
    pub facility_kw: f64,
    /// Facility / IT.
    pub pue: f64,
    /// Heat to remove (all of the IT power), BTU/h.
    pub heat_btu_h: f64,
    /// Coolant flow the liquid-cooled racks need, L/min.
    pub coolant_l_min: f64,
    /// CDUs placed there.
    pub cdus: usize,
    /// Heat those CDUs can move, kW.
    pub cdu_capacity_kw: f64,
    /// Coolant flow those CDUs deliver, L/min.
    pub cdu_flow_l_min: f64,
    /// Electricity price there, USD per kWh.
    pub usd_per_kwh: f64,
}

impl SiteFacility {
    /// The row's name for people: the site, or "all racks" for a design without sites.
    pub fn label(&self) -> &str {
        if self.site.is_empty() {
            "all racks"
        } else {
            &self.site
        }
    }
}

/// The facility summary: one row per site, in the design's site order (one row when it has no sites).
pub fn per_site(
    design: &Design,
    power: &PowerReport,
    coolant_l_min: &BTreeMap<RackId, f64>,
) -> Vec<SiteFacility> {
    let mut rows: BTreeMap<&str, SiteFacility> = BTreeMap::new();
    let blank = |site: &str| SiteFacility {
        site: site.to_string(),
        racks: 0,
        it_kw: 0.0,
        air_kw: 0.0,
        liquid_kw: 0.0,
        overhead_kw: 0.0,
        facility_kw: 0.0,
        pue: 0.0,
        heat_btu_h: 0.0,
        coolant_l_min: 0.0,
        cdus: 0,
        cdu_capacity_kw: 0.0,
        cdu_flow_l_min: 0.0,
        usd_per_kwh: Rates::of_site(design, site, Cooling::Air).usd_per_kwh,
    };
    for name in design.sites.keys() {
        rows.insert(name.as_str(), blank(name));
    }
    for r in &power.racks {
        let Some(rack) = design.racks.get(&r.rack) else {
            continue;
        };
        let row = rows
            .entry(rack.site.as_str())
            .or_insert_with(|| blank(&rack.site));
        let kw = r.power_w / 1000.0;
        let rates = Rates::of_rack(design, rack);
        row.racks += 1;
        row.it_kw += kw;
        match rack.cooling {
            Cooling::Air => row.air_kw += kw,
            Cooling::Liquid => row.liquid_kw += kw,
        }
        row.overhead_kw += kw * (rates.pue - 1.0).max(0.0);
        row.coolant_l_min += coolant_l_min.get(&r.rack).copied().unwrap_or(0.0);
    }
    for d in design.devices.values() {
        let Some(PartKind::Cdu(c)) = design.parts.get(&d.part).map(|p| &p.kind) else {
            continue;
        };
        let site = design.racks.get(&d.rack).map_or("", |r| r.site.as_str());
        let row = rows.entry(site).or_insert_with(|| blank(site));
        row.cdus += 1;
        row.cdu_capacity_kw += c.capacity_kw;
        row.cdu_flow_l_min += c.flow_l_min;
    }
    rows.into_values()
        .filter(|r| r.racks > 0 || design.sites.contains_key(&r.site))
        .map(|mut r| {
            r.facility_kw = round(r.it_kw + r.overhead_kw, 3);
            r.pue = if r.it_kw > 0.0 {
                round(r.facility_kw / r.it_kw, 4)
            } else {
                0.0
            };
            r.heat_btu_h = round(r.it_kw * 1000.0 * BTU_PER_W, 1);
            r.it_kw = round(r.it_kw, 3);
            r.air_kw = round(r.air_kw, 3);
            r.liquid_kw = round(r.liquid_kw, 3);
            r.overhead_kw = round(r.overhead_kw, 3);
            r.coolant_l_min = round(r.coolant_l_min, 1);
            r
        })
        .collect()
}

/// Findings: liquid-cooled racks with no CDU where they stand, and CDUs that cannot move the heat or the flow.
pub(crate) fn findings(design: &Design, sites: &[SiteFacility], out: &mut Vec<Finding>) {
    for s in sites.iter().filter(|s| s.liquid_kw > 0.0) {
        let where_ = if s.site.is_empty() {
            String::new()
        } else {
            format!(" in site {}", s.site)
        };
        let liquid_racks: Vec<RackId> = design
            .racks
            .iter()
            .filter(|(_, r)| r.site == s.site && r.cooling == Cooling::Liquid)
            .map(|(id, _)| *id)
            .collect();
        let cdus: Vec<DeviceId> = design
            .devices
            .iter()
            .filter(|(_, d)| {
                design.racks.get(&d.rack).is_some_and(|r| r.site == s.site)
                    && matches!(
                        design.parts.get(&d.part).map(|p| &p.kind),
                        Some(PartKind::Cdu(_))
                    )
            })
            .map(|(id, _)| *id)
            .collect();
        let short_kw = s.liquid_kw - s.cdu_capacity_kw;
        let short_flow = s.coolant_l_min - s.cdu_flow_l_min;
        let mut f = if s.cdus == 0 {
            Finding::new(
                Severity::Warning,
                FindingCode::NoCdu,
                format!(
                    "{}{where_} shed {:.1} kW into coolant ({:.0} L/min), but no CDU is placed to move it to \
                     the facility water",
                    super::format::count(
                        liquid_racks.len(),
                        "liquid-cooled rack",
                        "liquid-cooled racks"
                    ),
                    s.liquid_kw,
                    s.coolant_l_min
                ),
                "add CDUs (Accessories: in-rack or in-row CDU) with at least that capacity, plus one for redundancy",
            )
        } else if short_kw > 1e-9 || short_flow > 1e-9 {
            Finding::new(
                Severity::Error,
                FindingCode::CduCapacity,
                format!(
                    "the CDUs{where_} move {:.0} kW at {:.0} L/min, but the liquid-cooled racks there shed {:.1} kW \
                     and need {:.0} L/min",
                    s.cdu_capacity_kw, s.cdu_flow_l_min, s.liquid_kw, s.coolant_l_min
                ),
                "add CDU capacity, or move liquid-cooled load to another site",
            )
        } else {
            continue;
        };
        f.racks = liquid_racks;
        f.devices = cdus;
        out.push(f);
    }
}
