//! A design's devices and racks as flat tables for one pass over many links (a re-estimation, the analysis's
//! builds): each device's part, breakout and port height, each rack's site, floor, height and place, found by an
//! integer lookup instead of the design's maps (keyed by part names and sites). A 128-SU SuperPOD has 117,748 links
//! and 235,000 link ends on a few thousand devices: every end reads its device here once.

use super::{CageShape, Place, place_of};
use crate::model::floor::{Estimate, Floor, FloorPlan, RACK_UNIT_M, RackPlace};
use crate::model::part::PartKind;
use crate::model::{Breakout, Design, DeviceId, PortRef, RackId};
use rustc_hash::FxHashMap;

/// One device as a link end reads it.
struct DeviceEnd<'a> {
    /// Its part's kind (None: the part is not in the design).
    kind: Option<&'a PartKind>,
    /// The breakout its cages run.
    breakout: &'a Breakout,
    /// Its rack, as a number in [`Ends::racks`] (None: the rack is not in the design).
    rack: Option<u32>,
    /// Height of its middle above its rack's floor, m (see [`Design::port_height_m`]).
    height_m: f64,
}

/// One rack as a length estimate reads it.
struct RackEnd<'a> {
    /// The rack's id (two ends in one rack take the in-rack run).
    id: RackId,
    /// Its site, as a number (racks of different sites have no run on a floor).
    site: u32,
    /// The floor its site keeps.
    floor: &'a Floor,
    /// Its height in units.
    height_u: u16,
    /// Its place on that floor (None: not in the plan).
    place: Option<RackPlace>,
}

/// The tables of one pass (see the module's doc). Valid while the design does not change.
pub(crate) struct Ends<'a> {
    /// Each device's number by its id, for designs whose device ids are sparse (else empty: see `dense`).
    index: FxHashMap<DeviceId, u32>,
    /// Each device's number at its id (`u32::MAX`: no device), when the ids are at most a few times as many as the
    /// devices (a generated design's are): an index instead of a hash per link end.
    dense: Option<Vec<u32>>,
    devices: Vec<DeviceEnd<'a>>,
    racks: Vec<RackEnd<'a>>,
}

impl<'a> Ends<'a> {
    /// The tables of a design, with its racks placed by `plan` (no racks without one: no lengths then).
    pub(crate) fn new(design: &'a Design, plan: Option<&FloorPlan>) -> Self {
        let mut rack_index: FxHashMap<RackId, u32> = FxHashMap::default();
        let mut racks = Vec::new();
        if let Some(plan) = plan {
            let mut sites: FxHashMap<&str, u32> = FxHashMap::default();
            for (id, r) in &design.racks {
                let n = u32::try_from(sites.len()).unwrap_or(u32::MAX);
                let site = *sites.entry(r.site.as_str()).or_insert(n);
                rack_index.insert(*id, u32::try_from(racks.len()).unwrap_or(u32::MAX));
                racks.push(RackEnd {
                    id: *id,
                    site,
                    floor: design.floor_of(&r.site),
                    height_u: r.height_u,
                    place: plan.place(*id),
                });
            }
        }
        let mut index = FxHashMap::default();
        let top = design.devices.keys().next_back().map_or(0, |id| id.0);
        let compact = top <= 16 * design.devices.len() as u64 + 65_536;
        let mut dense = compact.then(|| vec![u32::MAX; top as usize + 1]);
        if dense.is_none() {
            index.reserve(design.devices.len());
        }
        let mut devices = Vec::with_capacity(design.devices.len());
        // Devices of one part follow each other: its lookup is kept for the next.
        let mut last: Option<(&str, Option<&'a crate::model::part::Part>)> = None;
        for (id, d) in &design.devices {
            let part = match last {
                Some((name, p)) if name == d.part.as_str() => p,
                _ => {
                    let p = design.parts.get(&d.part);
                    last = Some((d.part.as_str(), p));
                    p
                }
            };
            let height = f64::from(part.map_or(0, |p| p.height_u).max(1));
            let mid_u = f64::from(d.position_u.saturating_sub(1)) + height / 2.0;
            let n = u32::try_from(devices.len()).unwrap_or(u32::MAX);
            match dense.as_mut().and_then(|v| v.get_mut(id.0 as usize)) {
                Some(slot) => *slot = n,
                None => {
                    index.insert(*id, n);
                }
            }
            devices.push(DeviceEnd {
                kind: part.map(|p| &p.kind),
                breakout: &d.breakout,
                rack: rack_index.get(&d.rack).copied(),
                height_m: mid_u * RACK_UNIT_M,
            });
        }
        Self {
            index,
            dense,
            devices,
            racks,
        }
    }

    /// A device's number in the tables (0 to the number of devices), for dense per-device tables.
    pub(crate) fn device_index(&self, id: DeviceId) -> Option<u32> {
        match &self.dense {
            Some(v) => usize::try_from(id.0)
                .ok()
                .and_then(|i| v.get(i))
                .copied()
                .filter(|n| *n != u32::MAX),
            None => self.index.get(&id).copied(),
        }
    }

    /// The number of devices in the tables.
    pub(crate) fn device_count(&self) -> usize {
        self.devices.len()
    }

    /// [`super::locate`] from the tables.
    #[cfg(test)]
    pub(crate) fn locate(&self, port: &PortRef) -> Option<(Place, CageShape)> {
        self.locate_at(self.device_index(port.device)?, port)
    }

    /// [`super::locate`] of a port of the device numbered `index` in the tables.
    pub(crate) fn locate_at(&self, index: u32, port: &PortRef) -> Option<(Place, CageShape)> {
        let d = self.devices.get(index as usize)?;
        Some(place_of(d.kind, d.breakout, port))
    }

    /// The estimated length of a link before stock rounding, m: [`Design::estimate_link`] from the tables (None
    /// when a device or rack is missing or the racks stand in different sites).
    #[cfg(test)]
    pub(crate) fn estimate_m(&self, link: &crate::model::Link) -> Option<f64> {
        self.estimate_at(
            self.device_index(link.a.device)?,
            self.device_index(link.b.device)?,
        )
    }

    /// [`Ends::estimate_m`] of a link between the devices numbered `a` and `b` in the tables.
    pub(crate) fn estimate_at(&self, a: u32, b: u32) -> Option<f64> {
        let (a, b) = (self.devices.get(a as usize)?, self.devices.get(b as usize)?);
        let (ra, rb) = (
            self.racks.get(a.rack? as usize)?,
            self.racks.get(b.rack? as usize)?,
        );
        if ra.site != rb.site {
            return None;
        }
        let places = if ra.id == rb.id {
            None
        } else {
            Some((ra.place?, rb.place?))
        };
        let e: Estimate = crate::model::floor::run(
            ra.floor,
            places,
            (ra.height_u, a.height_m),
            (rb.height_u, b.height_m),
        );
        Some(e.length_m)
    }
}
