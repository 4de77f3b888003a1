//! Power, heat, weight and space per device and rack (docs/analysis.md, "Power, space and weight"). Device power is its part's
//! maximum draw plus the GPUs and NICs in its slots; each link's optics count half to each end's rack.

use super::format::round;
use crate::model::part::PartKind;
use crate::model::{Design, Device, DeviceId, RackId};
use serde::Serialize;
use std::collections::BTreeMap;

/// BTU per hour per watt.
pub const BTU_PER_W: f64 = 3.412;

/// Power section of the report.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PowerReport {
    /// IT power at maximum draw, W.
    pub it_power_w: f64,
    /// Facility power = IT x PUE, W (each rack at the PUE of its cooling mode and site).
    pub facility_power_w: f64,
    /// Heat the IT load gives off, BTU/h: IT power x [`BTU_PER_W`] (facility overhead not included).
    pub heat_btu_h: f64,
    /// Sum of rack budgets, W.
    pub budget_w: f64,
    /// PUE used: the design's, or facility / IT when racks are charged at different PUEs.
    pub pue: f64,
    /// Every rack of the design, in rack id order, empty racks included.
    pub racks: Vec<RackPower>,
    /// Every device of the design, in device id order.
    pub devices: Vec<DevicePower>,
}

/// One rack's capacity figures: power, heat, weight, space and ports.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RackPower {
    /// The design's rack these figures add up.
    pub rack: RackId,
    /// The rack's name in the design, so the report reads without it.
    pub name: String,
    /// IT power, W: its devices at maximum draw with the GPUs and NICs in their slots, plus `optics_w`.
    pub power_w: f64,
    /// The part of `power_w` drawn by cable optics: half of each cable's optics kit at each end in this rack, W.
    pub optics_w: f64,
    /// The rack's power budget for its IT load, W, as the designer set it (`Rack::power_budget_w`).
    pub budget_w: f64,
    /// power / budget.
    pub utilisation: f64,
    /// budget - power, W.
    pub remaining_w: f64,
    /// Heat its IT load gives off, BTU/h: `power_w` x [`BTU_PER_W`].
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DevicePower {
    /// The design's device this draw is for.
    pub device: DeviceId,
    /// The device's name in the design, so the report reads without it.
    pub name: String,
    /// Rack it is in.
    pub rack: RackId,
    /// Max draw including slot parts and half its links' optics, W.
    pub power_w: f64,
    /// Weight of its part plus the GPUs and NICs in its slots, kg (cables and optics not counted).
    pub weight_kg: f64,
}

/// Max draw and weight of a device including the GPUs and NICs in its slots, without its links' optics (see
/// [`device_power_w`] for the full draw).
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

/// Optics power drawn at a link's a and b ends, W: half of its cable's (an active cable or an optics kit), plus,
/// for a fibre, the end's transceiver shared by the links of its cage (half a twin-port one's each).
fn link_optics_w(design: &Design, l: &crate::model::Link) -> [f64; 2] {
    optics_of(design, l, || crate::model::build::build_of(design, l))
}

/// [`link_optics_w`] with the link's build worked out by `build` when the link is a fibre.
fn optics_of<B: std::borrow::Borrow<crate::model::build::Build>>(
    design: &Design,
    l: &crate::model::Link,
    build: impl FnOnce() -> B,
) -> [f64; 2] {
    let Some(part) = l.cable.as_ref().and_then(|c| design.parts.get(c)) else {
        return [0.0, 0.0];
    };
    let half = part.power_w / 2.0;
    let fibre = matches!(&part.kind, PartKind::Cable(c) if c.fibre.is_some());
    if !fibre {
        return [half, half];
    }
    let build = build();
    build.borrow().ends.each_ref().map(|t| {
        half + t
            .as_ref()
            .and_then(|t| design.parts.get(t))
            .map_or(0.0, |p| match &p.kind {
                PartKind::Transceiver(x) => p.power_w / f64::from(x.ports.max(1)),
                _ => p.power_w,
            })
    })
}

/// The optics power of every link, by device at either end, from the links' builds (one per link, in id order).
pub(crate) fn optics_by_device(
    design: &Design,
    builds: &super::physical::Builds<'_>,
) -> rustc_hash::FxHashMap<DeviceId, f64> {
    let mut optics: rustc_hash::FxHashMap<DeviceId, f64> = Default::default();
    for (l, (_, build)) in design.links.values().zip(builds.link_builds()) {
        let [a, b] = optics_of(design, l, || build);
        *optics.entry(l.a.device).or_default() += a;
        *optics.entry(l.b.device).or_default() += b;
    }
    optics
}

/// Maximum draw of one device, W: its part, the GPUs and NICs in its slots, and half the optics power of each of its
/// links. The one device power figure: the power report, rack power, the feed what-if and the canvas all use it.
pub fn device_power_w(design: &Design, id: DeviceId) -> f64 {
    let Some(d) = design.devices.get(&id) else {
        return 0.0;
    };
    let optics: f64 = design
        .links
        .values()
        .filter(|l| l.a.device == id || l.b.device == id)
        .map(|l| {
            // A link from a device to itself is refused by validation; count each end once anyway.
            let [a, b] = link_optics_w(design, l);
            a * f64::from(u8::from(l.a.device == id)) + b * f64::from(u8::from(l.b.device == id))
        })
        .sum();
    device_power_weight(design, d).0 + optics
}

/// A device's maximum draw by what draws it: the one figure ([`device_power_w`], the canvas's and the power
/// report's) and the terms it adds up from, so the inspector shows the sum and a reviewer can redo it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PowerBreakdown {
    /// The device's own part (a server without the GPUs and NICs in its slots), W.
    pub part_w: f64,
    /// GPUs in its slots and their draw together, W.
    pub gpus: (usize, f64),
    /// NICs in its slots and their draw together, W.
    pub nics: (usize, f64),
    /// Cables at the device and half of their optics kits' draw, W.
    pub optics: (usize, f64),
}

impl PowerBreakdown {
    /// The device's maximum draw, W: the sum of the terms.
    pub fn total_w(&self) -> f64 {
        self.part_w + self.gpus.1 + self.nics.1 + self.optics.1
    }

    /// "10,300 W = part 4,250 + 8 GPUs 5,600 + 8 NICs 200 + half the optics of 8 cables 250": the terms that are
    /// there, each with its count.
    pub fn text(&self) -> String {
        use super::format::{count, thousands};
        let mut terms = vec![format!("part {}", thousands(self.part_w, 0))];
        for (n, w, one, many) in [
            (self.gpus.0, self.gpus.1, "GPU", "GPUs"),
            (self.nics.0, self.nics.1, "NIC", "NICs"),
        ] {
            if n > 0 {
                terms.push(format!("{} {}", count(n, one, many), thousands(w, 0)));
            }
        }
        if self.optics.0 > 0 && self.optics.1 > 0.0 {
            terms.push(format!(
                "half the optics of {} {}",
                count(self.optics.0, "cable", "cables"),
                thousands(self.optics.1, 0)
            ));
        }
        format!("{} W = {}", thousands(self.total_w(), 0), terms.join(" + "))
    }
}

/// What a device's maximum draw adds up from (see [`PowerBreakdown`]); its total is [`device_power_w`].
pub fn device_power_breakdown(design: &Design, id: DeviceId) -> PowerBreakdown {
    let mut b = PowerBreakdown {
        part_w: 0.0,
        gpus: (0, 0.0),
        nics: (0, 0.0),
        optics: (0, 0.0),
    };
    let Some((d, part)) = design
        .devices
        .get(&id)
        .and_then(|d| Some((d, design.parts.get(&d.part)?)))
    else {
        return b;
    };
    let w = |p: &crate::model::PartId| design.parts.get(p).map_or(0.0, |sp| sp.power_w);
    b.part_w = part.power_w;
    b.gpus = (d.gpus.len(), d.gpus.values().map(w).sum());
    b.nics = (d.nics.len(), d.nics.values().map(w).sum());
    for l in design.links.values() {
        let ends = u8::from(l.a.device == id) + u8::from(l.b.device == id);
        if ends > 0 {
            b.optics.0 += 1;
            let [a, z] = link_optics_w(design, l);
            b.optics.1 += a * f64::from(u8::from(l.a.device == id))
                + z * f64::from(u8::from(l.b.device == id));
        }
    }
    b
}

/// Power drawn by a rack at maximum, W: [`device_power_w`] summed over its devices. O(devices + links).
pub fn rack_power_w(design: &Design, rack: RackId) -> f64 {
    rack_power_w_except(design, rack, None)
}

/// [`rack_power_w`] without one device (the one being moved, for a placement preview). O(devices + links), with a
/// link's build worked out only when it has an end in the rack: a drag's preview asks this every frame.
pub fn rack_power_w_except(design: &Design, rack: RackId, except: Option<DeviceId>) -> f64 {
    let inside: rustc_hash::FxHashSet<DeviceId> = design
        .devices
        .iter()
        .filter(|(id, d)| Some(**id) != except && d.rack == rack)
        .map(|(id, _)| *id)
        .collect();
    let devices: f64 = design
        .devices
        .iter()
        .filter(|(id, _)| inside.contains(*id))
        .map(|(_, d)| device_power_weight(design, d).0)
        .sum();
    let optics: f64 = design
        .links
        .values()
        .filter(|l| inside.contains(&l.a.device) || inside.contains(&l.b.device))
        .map(|l| {
            let [a, b] = link_optics_w(design, l);
            a * f64::from(u8::from(inside.contains(&l.a.device)))
                + b * f64::from(u8::from(inside.contains(&l.b.device)))
        })
        .sum();
    devices + optics
}

pub(crate) fn analyze(design: &Design, builds: &super::physical::Builds<'_>) -> PowerReport {
    let optics = optics_by_device(design, builds);
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
                    optics_w: 0.0,
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
        let optics_w = optics.get(id).copied().unwrap_or(0.0);
        let w = w + optics_w;
        if let Some(r) = racks.get_mut(&d.rack) {
            r.power_w += w;
            r.optics_w += optics_w;
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
    let groups: Vec<(super::rates::Rates, f64)> = super::rates::rate_groups(design)
        .into_iter()
        .map(|(rates, ids)| {
            let w = ids
                .iter()
                .filter_map(|id| racks.get(id))
                .map(|r| r.power_w)
                .sum();
            (rates, w)
        })
        .collect();
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
    let (facility, pue) = super::rates::facility_w(&groups, it, design.params.pue);
    PowerReport {
        it_power_w: round(it, 2),
        facility_power_w: round(facility, 2),
        heat_btu_h: round(it * BTU_PER_W, 1),
        budget_w: budget,
        pue,
        racks,
        devices,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::sample;

    #[test]
    fn a_device_power_is_one_figure_with_its_terms() {
        // Issue 45: a DGX H100 read 10,200 W in the inspector and 10.3 kW on the canvas. By hand (dgx-h100-single):
        // the DGX part 4,250 W + 8 H100 SXM x 700 W = 5,600 + 8 ConnectX-7 x 25 W and 2 BlueField-3 x 75 W = 350,
        // + half the optics of its 12 cables (8 NDR kits of 18 W, 4 HDR AOCs of 9 W: (144 + 36) / 2 = 90 W)
        // = 10,290 W, the canvas's and the power report's figure.
        let d = sample("dgx-h100-single").unwrap();
        let (dgx, _) = d.devices.iter().find(|(_, x)| x.name == "dgx-01").unwrap();
        let b = device_power_breakdown(&d, *dgx);
        assert_eq!(b.part_w, 4_250.0);
        assert_eq!(b.gpus, (8, 5_600.0));
        assert_eq!(b.nics, (10, 350.0));
        assert_eq!(b.optics, (12, 90.0));
        assert_eq!(b.total_w(), device_power_w(&d, *dgx));
        assert_eq!(
            b.text(),
            "10,290 W = part 4,250 + 8 GPUs 5,600 + 10 NICs 350 + half the optics of 12 cables 90"
        );
        // The rack's optics are the sum of its devices' halves.
        let r = analyze(&d, &crate::analysis::physical::builds(&d));
        let rack = &r.racks[0];
        let halves: f64 = d
            .devices
            .iter()
            .filter(|(_, x)| x.rack == rack.rack)
            .map(|(id, _)| device_power_breakdown(&d, *id).optics.1)
            .sum();
        assert!((rack.optics_w - halves).abs() < 1e-9);
    }

    #[test]
    fn one_rack_power_figure() {
        // dgx-h100-single: the DGX H100 draws 10,200 W with its GPUs and NICs, plus half of each of its 8 NDR optic
        // kits (18 W: 9 W each) and 4 HDR AOCs (9 W: 4.5 W each) = 10,290 W; the rack 13,774 W in all.
        let d = sample("dgx-h100-single").unwrap();
        let (dgx, _) = d.devices.iter().find(|(_, x)| x.name == "dgx-01").unwrap();
        let rack = d.devices[dgx].rack;
        assert!((device_power_w(&d, *dgx) - 10_290.0).abs() < 1e-9);
        assert!((rack_power_w(&d, rack) - 13_774.0).abs() < 1e-9);
        assert!((rack_power_w_except(&d, rack, Some(*dgx)) - 3_484.0).abs() < 1e-9);
        // The report's figures are the same function's.
        let r = analyze(&d, &crate::analysis::physical::builds(&d));
        assert_eq!(r.racks[0].power_w, rack_power_w(&d, rack));
        for x in &r.devices {
            assert!(
                (x.power_w - device_power_w(&d, x.device)).abs() < 1e-6,
                "{}",
                x.name
            );
        }
    }
}
