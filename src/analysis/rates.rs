//! The rates each rack's IT power is charged at (docs/analysis.md, "Cooling" and "Sites and availability"): the PUE
//! for its cooling mode and the electricity and colocation prices, taken from its site when the site sets them,
//! else from the design's parameters. Power, cost and the facility summary all use these, so they sit below them.

use super::format::round;
use crate::model::{Cooling, Design, Rack, RackId};
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
