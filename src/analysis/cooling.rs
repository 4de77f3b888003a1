//! Cooling (docs/analysis.md, "Cooling"): every watt a rack draws becomes heat to remove. An air-cooled rack can
//! shed up to a density limit (a parameter, about 40 kW); its airflow follows from the heat and the air's temperature
//! rise. A liquid-cooled rack needs a coolant flow from the heat and the loop's temperature rise. Findings say when a
//! rack draws more than air can remove, or holds parts that need liquid in an air-cooled rack.

use super::finding::{Finding, FindingCode, Severity};
use super::format::round;
use super::power::PowerReport;
use crate::model::{Cooling, Design, RackId};
use serde::Serialize;

/// Water: density about 1 kg/L, specific heat 4.18 kJ/(kg K).
pub const WATER_KJ_PER_L_K: f64 = 4.18;
/// Air at about 20 C: density 1.2 kg/m3, specific heat 1.005 kJ/(kg K) -> 1.206 kJ/(m3 K).
pub const AIR_KJ_PER_M3_K: f64 = 1.2 * 1.005;

/// Coolant flow that carries `heat_kw` away with a temperature rise of `delta_t_c`, litres per minute:
/// Q = P / (rho c_p dT), in L/s, times 60.
pub fn coolant_l_per_min(heat_kw: f64, delta_t_c: f64) -> f64 {
    if delta_t_c <= 0.0 {
        return f64::INFINITY;
    }
    heat_kw / (WATER_KJ_PER_L_K * delta_t_c) * 60.0
}

/// Airflow that carries `heat_kw` away with a temperature rise of `delta_t_c`, cubic metres per hour:
/// V = P / (rho c_p dT), in m3/s, times 3,600.
pub fn airflow_m3_per_h(heat_kw: f64, delta_t_c: f64) -> f64 {
    if delta_t_c <= 0.0 {
        return f64::INFINITY;
    }
    heat_kw / (AIR_KJ_PER_M3_K * delta_t_c) * 3600.0
}

/// One rack's cooling.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RackCooling {
    /// The design's rack whose heat this is.
    pub rack: RackId,
    /// The rack's name in the design, so the report reads without it.
    pub name: String,
    /// Air or liquid.
    pub mode: Cooling,
    /// Heat to remove, kW (its IT draw at maximum).
    pub heat_kw: f64,
    /// For air: the density limit it is held to, kW.
    pub air_limit_kw: Option<f64>,
    /// For air: airflow needed, m3/h.
    pub airflow_m3_h: Option<f64>,
    /// For liquid: coolant flow needed, L/min.
    pub coolant_l_min: Option<f64>,
    /// Whether its cooling can remove its heat.
    pub ok: bool,
}

/// Cooling section of the report.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CoolingReport {
    /// Heat from racks cooled by air, kW.
    pub air_kw: f64,
    /// Heat from racks cooled by liquid, kW.
    pub liquid_kw: f64,
    /// Coolant flow for all liquid-cooled racks, L/min.
    pub coolant_l_min: f64,
    /// Power of the cooling plant and the rest of the facility overhead, kW: IT x (PUE - 1).
    pub overhead_kw: f64,
    /// Every rack of the design, in rack id order, with its cooling mode and what it needs.
    pub racks: Vec<RackCooling>,
    /// The facility per site: IT, cooling and facility kW, heat, coolant flow against the CDUs there.
    pub sites: Vec<super::facility::SiteFacility>,
}

/// Cooling of every rack, from the power report (one rack power figure).
pub fn analyze(design: &Design, power: &PowerReport) -> CoolingReport {
    let p = &design.params;
    let mut racks = Vec::with_capacity(power.racks.len());
    let (mut air_kw, mut liquid_kw, mut flow) = (0.0, 0.0, 0.0);
    let mut flows: std::collections::BTreeMap<RackId, f64> = std::collections::BTreeMap::new();
    for r in &power.racks {
        let mode = design
            .racks
            .get(&r.rack)
            .map_or(Cooling::Air, |x| x.cooling);
        let heat_kw = r.power_w / 1000.0;
        let rc = match mode {
            Cooling::Air => {
                air_kw += heat_kw;
                RackCooling {
                    rack: r.rack,
                    name: r.name.clone(),
                    mode,
                    heat_kw: round(heat_kw, 3),
                    air_limit_kw: Some(p.air_cooled_limit_kw),
                    airflow_m3_h: Some(round(airflow_m3_per_h(heat_kw, p.air_delta_t_c), 1)),
                    coolant_l_min: None,
                    ok: heat_kw <= p.air_cooled_limit_kw + 1e-9,
                }
            }
            Cooling::Liquid => {
                liquid_kw += heat_kw;
                let q = coolant_l_per_min(heat_kw, p.liquid_delta_t_c);
                flow += q;
                flows.insert(r.rack, q);
                RackCooling {
                    rack: r.rack,
                    name: r.name.clone(),
                    mode,
                    heat_kw: round(heat_kw, 3),
                    air_limit_kw: None,
                    airflow_m3_h: None,
                    coolant_l_min: Some(round(q, 1)),
                    ok: true,
                }
            }
        };
        racks.push(rc);
    }
    CoolingReport {
        air_kw: round(air_kw, 3),
        liquid_kw: round(liquid_kw, 3),
        coolant_l_min: round(flow, 1),
        overhead_kw: round(
            ((power.facility_power_w - power.it_power_w) / 1000.0).max(0.0),
            3,
        ),
        sites: super::facility::per_site(design, power, &flows),
        racks,
    }
}

/// Findings: an air-cooled rack past the density limit; a part that needs liquid in an air-cooled rack.
pub(crate) fn findings(design: &Design, cooling: &CoolingReport, out: &mut Vec<Finding>) {
    for r in cooling.racks.iter().filter(|r| !r.ok) {
        let mut f = Finding::new(
            Severity::Error,
            FindingCode::RackCooling,
            format!(
                "rack {} must shed {:.1} kW of heat, more than air can remove from one rack (about {:.0} kW): \
                 {:.1} kW over",
                r.name,
                r.heat_kw,
                r.air_limit_kw.unwrap_or(0.0),
                r.heat_kw - r.air_limit_kw.unwrap_or(0.0)
            ),
            "make the rack liquid-cooled (rack cooling: Liquid) or spread its load over more racks",
        );
        f.racks = vec![r.rack];
        out.push(f);
    }
    // Liquid-cooled devices by rack, in one pass over the devices.
    let mut liquid: std::collections::BTreeMap<RackId, Vec<(crate::model::DeviceId, String)>> =
        std::collections::BTreeMap::new();
    for (id, d) in &design.devices {
        if design.parts.get(&d.part).is_some_and(|p| p.liquid_cooled) {
            liquid
                .entry(d.rack)
                .or_default()
                .push((*id, d.name.clone()));
        }
    }
    for r in cooling.racks.iter().filter(|r| r.mode == Cooling::Air) {
        let needs = liquid.remove(&r.rack).unwrap_or_default();
        if needs.is_empty() {
            continue;
        }
        let mut f = Finding::new(
            Severity::Error,
            FindingCode::NeedsLiquidCooling,
            format!(
                "rack {} is air-cooled but holds liquid-cooled equipment: {}",
                r.name,
                needs
                    .iter()
                    .map(|(_, n)| n.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            "set the rack's cooling to Liquid (it needs a coolant loop and a CDU)",
        );
        f.racks = vec![r.rack];
        f.devices = needs.into_iter().map(|(id, _)| id).collect();
        out.push(f);
    }
    super::facility::findings(design, &cooling.sites, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coolant_and_airflow_by_hand() {
        // 132 kW with a 10 K rise: 132 / (4.18 x 10) = 3.158 L/s = 189.5 L/min.
        assert!((coolant_l_per_min(132.0, 10.0) - 189.473_684).abs() < 1e-5);
        // 40 kW of air with a 12 K rise: 40 / (1.206 x 12) = 2.764 m3/s = 9,950 m3/h (about 5,860 CFM).
        assert!((airflow_m3_per_h(40.0, 12.0) - 9_950.248_756).abs() < 1e-5);
        assert!(coolant_l_per_min(1.0, 0.0).is_infinite());
    }
}
