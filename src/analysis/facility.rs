//! Facility (docs/analysis.md, "Cooling" and "Sites and availability"): the rates each rack's IT power is charged
//! at — the PUE for its cooling mode, the electricity and colocation prices — taken from its site when the site sets
//! them, else from the design's parameters; and the facility summary per site (IT, cooling and facility kW, heat,
//! coolant flow against the CDUs there).

use super::findings::{Finding, Severity};
use super::power::{BTU_PER_W, PowerReport};
use super::round;
use crate::model::part::PartKind;
use crate::model::{Cooling, Design, DeviceId, Rack, RackId};
use serde::Serialize;
use std::collections::BTreeMap;

/// What a rack's IT power costs to run where it stands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rates {
    /// Facility power per watt of IT for the rack's cooling mode.
    pub pue: f64,
    /// Electricity price, USD per kWh.
    pub usd_per_kwh: f64,
    /// Colocation price, USD per kW of IT per month.
    pub colocation_usd_per_kw_month: f64,
}

impl Rates {
    /// The design's own rates (no site, air cooling).
    pub fn of_design(design: &Design) -> Self {
        let p = &design.params;
        Self {
            pue: p.pue,
            usd_per_kwh: p.electricity_usd_per_kwh,
            colocation_usd_per_kw_month: p.colocation_usd_per_kw_month,
        }
    }

    /// The rates of a rack: its site's figures where the site sets them, else the design's.
    pub fn of_rack(design: &Design, rack: &Rack) -> Self {
        Self::of_site(design, &rack.site, rack.cooling)
    }

    /// The rates of a rack cooled by `cooling` in site `site` (empty or unknown: the design's). The PUE of a
    /// liquid-cooled rack is the site's `pue_liquid`, else the design's `pue_liquid`, else the site's air PUE.
    pub fn of_site(design: &Design, site: &str, cooling: Cooling) -> Self {
        let p = &design.params;
        let site = design.sites.get(site);
        let air = site.and_then(|s| s.pue).unwrap_or(p.pue);
        let pue = match cooling {
            Cooling::Air => air,
            Cooling::Liquid => site
                .and_then(|s| s.pue_liquid)
                .or(p.pue_liquid)
                .unwrap_or(air),
        };
        Self {
            pue,
            usd_per_kwh: site
                .and_then(|s| s.electricity_usd_per_kwh)
                .unwrap_or(p.electricity_usd_per_kwh),
            colocation_usd_per_kw_month: site
                .and_then(|s| s.colocation_usd_per_kw_month)
                .unwrap_or(p.colocation_usd_per_kw_month),
        }
    }

    fn key(&self) -> [u64; 3] {
        [
            self.pue.to_bits(),
            self.usd_per_kwh.to_bits(),
            self.colocation_usd_per_kw_month.to_bits(),
        ]
    }
}

/// Racks grouped by the rates they are charged at: each distinct set of rates with the racks charged at it, in a
/// fixed order. A design whose racks all share the design's rates gives one group, so its figures are computed
/// exactly as a single-rate design's.
pub fn rate_groups(design: &Design) -> Vec<(Rates, Vec<RackId>)> {
    let mut groups: BTreeMap<[u64; 3], (Rates, Vec<RackId>)> = BTreeMap::new();
    for (id, rack) in &design.racks {
        let r = Rates::of_rack(design, rack);
        groups.entry(r.key()).or_insert((r, Vec::new())).1.push(*id);
    }
    groups.into_values().collect()
}

/// Facility power of an IT load split into rate groups, and the PUE it amounts to: with one group, exactly
/// IT x PUE; with several, the sum of each group's IT x its PUE, and facility / IT.
pub fn facility_w(groups: &[(Rates, f64)], it_w: f64, default_pue: f64) -> (f64, f64) {
    match groups {
        [] => (it_w * default_pue, default_pue),
        [(r, _)] => (it_w * r.pue, r.pue),
        _ => {
            let f: f64 = groups.iter().map(|(r, w)| w * r.pue).sum();
            let pue = if it_w > 0.0 {
                round(f / it_w, 4)
            } else {
                default_pue
            };
            (f, pue)
        }
    }
}

/// The facility figures of one site (or of the whole design when it has no sites).
#[derive(Debug, Clone, Serialize)]
pub struct SiteFacility {
    /// Site name; empty for a design without sites.
    pub site: String,
    /// Racks there.
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
                "no-cdu",
                format!(
                    "{} liquid-cooled rack(s){where_} shed {:.1} kW into coolant ({:.0} L/min), but no CDU is \
                     placed to move it to the facility water",
                    liquid_racks.len(),
                    s.liquid_kw,
                    s.coolant_l_min
                ),
                "add CDUs (Accessories: in-rack or in-row CDU) with at least that capacity, plus one for redundancy",
            )
        } else if short_kw > 1e-9 || short_flow > 1e-9 {
            Finding::new(
                Severity::Error,
                "cdu-capacity",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facility_power_by_hand() {
        let air = Rates {
            pue: 1.4,
            usd_per_kwh: 0.1,
            colocation_usd_per_kw_month: 200.0,
        };
        let liquid = Rates { pue: 1.1, ..air };
        // 60 kW on air at 1.4 and 140 kW on liquid at 1.1: 84 + 154 = 238 kW, PUE 238 / 200 = 1.19.
        let (f, pue) = facility_w(&[(air, 60_000.0), (liquid, 140_000.0)], 200_000.0, 1.2);
        assert!((f - 238_000.0).abs() < 1e-6);
        assert!((pue - 1.19).abs() < 1e-12);
        // One group: IT x its PUE, whatever the default.
        assert_eq!(facility_w(&[(air, 5.0)], 5.0, 1.2), (7.0, 1.4));
        assert_eq!(facility_w(&[], 5.0, 1.2), (6.0, 1.2));
    }
}
