//! Power, heat, weight and space per device and rack (formulas.md, "Power and heat"). Device power is its part's
//! maximum draw plus the GPUs and NICs in its slots; each link's optics count half to each end's rack.

use super::round;
use crate::catalog::PartKind;
use crate::model::{Design, Device, DeviceId, RackId};
use serde::Serialize;
use std::collections::BTreeMap;

/// BTU per hour per watt.
pub const BTU_PER_W: f64 = 3.412;

/// Power section of the report.
#[derive(Debug, Clone, Serialize)]
pub struct PowerReport {
    /// IT power at maximum draw, W.
    pub it_power_w: f64,
    /// Facility power = IT x PUE, W.
    pub facility_power_w: f64,
    /// Heat, BTU/h.
    pub heat_btu_h: f64,
    /// Sum of rack budgets, W.
    pub budget_w: f64,
    /// PUE used.
    pub pue: f64,
    /// Per rack.
    pub racks: Vec<RackPower>,
    /// Per device.
    pub devices: Vec<DevicePower>,
}

/// One rack's capacity figures: power, heat, weight, space and ports.
#[derive(Debug, Clone, Serialize)]
pub struct RackPower {
    /// The rack.
    pub rack: RackId,
    /// Its name.
    pub name: String,
    /// IT power, W.
    pub power_w: f64,
    /// Budget, W.
    pub budget_w: f64,
    /// power / budget.
    pub utilisation: f64,
    /// budget - power, W.
    pub remaining_w: f64,
    /// Heat, BTU/h.
    pub heat_btu_h: f64,
    /// Equipment weight, kg.
    pub weight_kg: f64,
    /// Weight rating, kg.
    pub max_weight_kg: f64,
    /// Rack units used.
    pub units_used: u32,
    /// Rack units in the rack.
    pub units_total: u32,
    /// PDU capacity mounted in the rack, W (0 when none are placed).
    pub pdu_capacity_w: f64,
    /// Capacity of each of the A and B feeds, W, when set.
    pub feed_capacity_w: Option<f64>,
    /// Devices in the rack.
    pub devices: usize,
}

/// One device's draw.
#[derive(Debug, Clone, Serialize)]
pub struct DevicePower {
    /// The device.
    pub device: DeviceId,
    /// Its name.
    pub name: String,
    /// Rack it is in.
    pub rack: RackId,
    /// Max draw including slot parts and half its links' optics, W.
    pub power_w: f64,
    /// Weight, kg.
    pub weight_kg: f64,
}

/// Max draw and weight of a device including the GPUs and NICs in its slots.
pub fn device_power_weight(design: &Design, device: &Device) -> (f64, f64) {
    let Some(part) = design.parts.get(&device.part) else {
        return (0.0, 0.0);
    };
    let mut w = part.power_w;
    let mut kg = part.weight_kg;
    for p in device.gpus.values().chain(device.nics.values()) {
        if let Some(sp) = design.parts.get(p) {
            w += sp.power_w;
            kg += sp.weight_kg;
        }
    }
    (w, kg)
}

pub(crate) fn analyze(design: &Design) -> PowerReport {
    let mut optics: rustc_hash::FxHashMap<DeviceId, f64> = Default::default();
    for l in design.links.values() {
        let w = l
            .cable
            .as_ref()
            .and_then(|c| design.parts.get(c))
            .map_or(0.0, |p| p.power_w);
        *optics.entry(l.a.device).or_default() += w / 2.0;
        *optics.entry(l.b.device).or_default() += w / 2.0;
    }
    let mut devices = Vec::with_capacity(design.devices.len());
    let mut racks: BTreeMap<RackId, RackPower> = design
        .racks
        .iter()
        .map(|(id, r)| {
            (
                *id,
                RackPower {
                    rack: *id,
                    name: r.name.clone(),
                    power_w: 0.0,
                    budget_w: r.power_budget_w,
                    utilisation: 0.0,
                    remaining_w: 0.0,
                    heat_btu_h: 0.0,
                    weight_kg: 0.0,
                    max_weight_kg: r.max_weight_kg,
                    units_used: 0,
                    units_total: u32::from(r.height_u),
                    pdu_capacity_w: 0.0,
                    feed_capacity_w: r.feed_capacity_w,
                    devices: 0,
                },
            )
        })
        .collect();
    for (id, d) in &design.devices {
        let (w, kg) = device_power_weight(design, d);
        let w = w + optics.get(id).copied().unwrap_or(0.0);
        if let Some(r) = racks.get_mut(&d.rack) {
            r.power_w += w;
            r.weight_kg += kg;
            r.units_used += u32::from(design.device_height_u(d));
            r.devices += 1;
            if let Some(PartKind::Pdu(p)) = design.parts.get(&d.part).map(|p| &p.kind) {
                r.pdu_capacity_w += p.capacity_w;
            }
        }
        devices.push(DevicePower {
            device: *id,
            name: d.name.clone(),
            rack: d.rack,
            power_w: round(w, 2),
            weight_kg: round(kg, 2),
        });
    }
    let mut it = 0.0;
    let mut budget = 0.0;
    let racks: Vec<RackPower> = racks
        .into_values()
        .map(|mut r| {
            it += r.power_w;
            budget += r.budget_w;
            r.utilisation = round(
                if r.budget_w > 0.0 {
                    r.power_w / r.budget_w
                } else {
                    f64::INFINITY
                },
                4,
            );
            r.remaining_w = round(r.budget_w - r.power_w, 2);
            r.heat_btu_h = round(r.power_w * BTU_PER_W, 1);
            r.power_w = round(r.power_w, 2);
            r.weight_kg = round(r.weight_kg, 2);
            r
        })
        .collect();
    PowerReport {
        it_power_w: round(it, 2),
        facility_power_w: round(it * design.params.pue, 2),
        heat_btu_h: round(it * BTU_PER_W, 1),
        budget_w: budget,
        pue: design.params.pue,
        racks,
        devices,
    }
}
