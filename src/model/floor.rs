//! The floor the racks stand on, and cable lengths estimated from it. A rack's `row` and `slot` are its place on
//! its site's floor (the design's floor when the site keeps none): rows run left to right at the floor's rack pitch
//! (a rack may be wider, e.g. an 800 mm network rack), and rows stand one rack depth plus an aisle apart, cold and
//! hot aisles alternating. A cable runs up from its port to the tray above the racks, along the row, across the
//! aisles, and down again (a Manhattan run over the trays), times a slack factor, plus a service loop at each end,
//! and is ordered at the next stock length (docs/analysis.md, "Cable lengths from the floor").

use super::{Design, DeviceId, Link, Rack, RackId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Height of one rack unit, m (EIA-310: 1.75 in = 44.45 mm).
pub const RACK_UNIT_M: f64 = 0.04445;

/// A floor: rack pitch, aisles, the cable tray, and the slack a run is ordered with. Every figure is in
/// millimetres or a plain factor; see docs/analysis.md for their sources.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Floor {
    /// Width of a rack's place in its row, mm (600 mm racks, 600 mm tiles); a rack may state its own width.
    pub rack_pitch_mm: f64,
    /// Depth of a rack, mm: the part of a row's pitch the rack itself takes.
    pub rack_depth_mm: f64,
    /// Width of a cold aisle (between rows 0 and 1, 2 and 3, ...), mm.
    pub cold_aisle_mm: f64,
    /// Width of a hot aisle (between rows 1 and 2, 3 and 4, ...), mm.
    pub hot_aisle_mm: f64,
    /// Height of the cable tray above the top of the racks, mm.
    pub tray_height_mm: f64,
    /// Factor a run between racks is multiplied by for slack (at least 1).
    pub slack_factor: f64,
    /// Cable left coiled at each end as a service loop, m.
    pub service_loop_m: f64,
}

impl Default for Floor {
    fn default() -> Self {
        Self {
            rack_pitch_mm: 600.0,
            rack_depth_mm: 1200.0,
            cold_aisle_mm: 1200.0,
            hot_aisle_mm: 900.0,
            tray_height_mm: 300.0,
            slack_factor: 1.2,
            service_loop_m: 0.0,
        }
    }
}

impl Floor {
    /// Whether this is the default floor (not written to files).
    pub fn is_default(&self) -> bool {
        *self == Floor::default()
    }

    /// Distance from the front of row 0 to the front of `row`, mm: a rack depth and an aisle per row before it.
    pub fn row_offset_mm(&self, row: u16) -> f64 {
        let pairs = f64::from(row / 2);
        let odd = f64::from(row % 2);
        pairs * (2.0 * self.rack_depth_mm + self.cold_aisle_mm + self.hot_aisle_mm)
            + odd * (self.rack_depth_mm + self.cold_aisle_mm)
    }
}

/// Where a rack stands: its floor's origin-relative place, mm, and its site.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RackPlace {
    /// Along the row, from the row's start to the rack's centre, mm.
    pub x_mm: f64,
    /// Across the rows, from row 0's front to the rack's row front, mm.
    pub y_mm: f64,
}

/// Every rack's place on its site's floor, computed once for a design (one pass over the racks, sorted by site, row
/// and slot): a rack's place along its row adds up the widths of the places before it, an empty place counting at
/// the floor's pitch.
#[derive(Debug, Clone, Default)]
pub struct FloorPlan {
    places: BTreeMap<RackId, RackPlace>,
}

impl FloorPlan {
    /// The plan of a design.
    pub fn new(design: &Design) -> Self {
        let mut order: Vec<(&str, u16, u16, RackId, &Rack)> = design
            .racks
            .iter()
            .map(|(id, r)| (r.site.as_str(), r.row, r.slot, *id, r))
            .collect();
        order.sort_by(|a, b| (a.0, a.1, a.2, a.3).cmp(&(b.0, b.1, b.2, b.3)));
        let mut places = BTreeMap::new();
        // (site, row) being walked, the next free slot and the x of its left edge.
        let mut cursor: Option<(&str, u16)> = None;
        let (mut next_slot, mut left_mm) = (0u16, 0.0f64);
        for (site, row, slot, id, rack) in order {
            let floor = design.floor_of(site);
            if cursor != Some((site, row)) {
                cursor = Some((site, row));
                next_slot = 0;
                left_mm = 0.0;
            }
            // Empty places before this one, at the floor's pitch (two racks in one place stand side by side).
            left_mm += f64::from(slot.saturating_sub(next_slot)) * floor.rack_pitch_mm;
            let width = rack.width_mm.unwrap_or(floor.rack_pitch_mm);
            places.insert(
                id,
                RackPlace {
                    x_mm: left_mm + width / 2.0,
                    y_mm: floor.row_offset_mm(row),
                },
            );
            left_mm += width;
            next_slot = slot.saturating_add(1);
        }
        Self { places }
    }

    /// A rack's place, if the rack is in the design.
    pub fn place(&self, rack: RackId) -> Option<RackPlace> {
        self.places.get(&rack).copied()
    }
}

/// A cable length estimated from the floor, before rounding to a stock length.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The run over the trays between the racks (0 inside one rack), m.
    pub horizontal_m: f64,
    /// From each port up to the tray (inside one rack: between the two ports), m.
    pub vertical_m: f64,
    /// The length to order before stock rounding: (horizontal + vertical) x slack + loops between racks; vertical +
    /// loops inside one rack, m.
    pub length_m: f64,
}

impl Design {
    /// The floor a site's racks stand on: its own, else the design's.
    pub fn floor_of(&self, site: &str) -> &Floor {
        self.sites
            .get(site)
            .and_then(|s| s.floor.as_ref())
            .unwrap_or(&self.floor)
    }

    /// Height of a device's middle above the floor of its rack, m (None for a device not in the design).
    fn port_height_m(&self, device: DeviceId) -> Option<(RackId, f64)> {
        let d = self.devices.get(&device)?;
        let height = f64::from(self.device_height_u(d).max(1));
        let mid_u = f64::from(d.position_u.saturating_sub(1)) + height / 2.0;
        Some((d.rack, mid_u * RACK_UNIT_M))
    }

    /// The estimated length of a cable between two devices' ports (see the module's doc); None when a device or
    /// rack is missing or the racks stand in different sites (a site-to-site run is the sites' distance, not the
    /// floor's).
    pub fn estimate_length(&self, plan: &FloorPlan, a: DeviceId, b: DeviceId) -> Option<Estimate> {
        self.estimate_between(plan, self.port_height_m(a)?, self.port_height_m(b)?)
    }

    /// The estimate between two ports given by their rack and height.
    fn estimate_between(
        &self,
        plan: &FloorPlan,
        (ra, ha): (RackId, f64),
        (rb, hb): (RackId, f64),
    ) -> Option<Estimate> {
        let (rack_a, rack_b) = (self.racks.get(&ra)?, self.racks.get(&rb)?);
        if rack_a.site != rack_b.site {
            return None;
        }
        let places = if ra == rb {
            None
        } else {
            Some((plan.place(ra)?, plan.place(rb)?))
        };
        Some(run(
            self.floor_of(&rack_a.site),
            places,
            (rack_a.height_u, ha),
            (rack_b.height_u, hb),
        ))
    }

    /// The estimated length of a link, before stock rounding.
    pub fn estimate_link(&self, plan: &FloorPlan, link: &Link) -> Option<Estimate> {
        self.estimate_length(plan, link.a.device, link.b.device)
    }
}

/// The run between two ports on a floor: inside one rack (`places` None) the vertical distance between them plus the
/// loops; else over the trays between the racks' places, up from each port (its rack's height in units and the
/// port's height, m) to the tray, times the slack, plus the loops.
pub(crate) fn run(
    floor: &Floor,
    places: Option<(RackPlace, RackPlace)>,
    (height_a_u, ha): (u16, f64),
    (height_b_u, hb): (u16, f64),
) -> Estimate {
    let loops = 2.0 * floor.service_loop_m;
    let Some((pa, pb)) = places else {
        let vertical_m = (ha - hb).abs();
        return Estimate {
            horizontal_m: 0.0,
            vertical_m,
            length_m: vertical_m + loops,
        };
    };
    let horizontal_m = ((pa.x_mm - pb.x_mm).abs() + (pa.y_mm - pb.y_mm).abs()) / 1000.0;
    let tray = floor.tray_height_mm / 1000.0;
    let up = |height_u: u16, h: f64| (f64::from(height_u) * RACK_UNIT_M - h).max(0.0) + tray;
    let vertical_m = up(height_a_u, ha) + up(height_b_u, hb);
    Estimate {
        horizontal_m,
        vertical_m,
        length_m: (horizontal_m + vertical_m) * floor.slack_factor + loops,
    }
}

/// The shortest stock length at or above `length_m`; None when it is longer than every stock length.
pub fn stock_length(stock_m: &[f64], length_m: f64) -> Option<f64> {
    stock_m
        .iter()
        .copied()
        .filter(|s| *s >= length_m - 1e-9)
        .min_by(f64::total_cmp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_offsets_alternate_cold_and_hot_aisles() {
        let f = Floor::default();
        // Row 1: 1,200 depth + 1,200 cold = 2,400 mm; row 2: + 1,200 depth + 900 hot = 4,500 mm.
        assert_eq!(f.row_offset_mm(0), 0.0);
        assert_eq!(f.row_offset_mm(1), 2400.0);
        assert_eq!(f.row_offset_mm(2), 4500.0);
        assert_eq!(f.row_offset_mm(3), 6900.0);
    }

    #[test]
    fn stock_rounds_up() {
        let mpo = [3.0, 5.0, 7.0, 10.0, 15.0, 20.0, 30.0, 50.0];
        assert_eq!(stock_length(&mpo, 8.4), Some(10.0));
        assert_eq!(stock_length(&mpo, 10.0), Some(10.0));
        assert_eq!(stock_length(&mpo, 50.1), None);
    }
}
