//! The placement figures the canvas needs from the analysis layer: the power a new part or a rack draws, for the
//! ghost's verdict (`edit::check_placement`) and the status line's over-budget warning.

use crate::catalog::{Catalog, Part, PartKind};
use crate::model::{Design, DeviceId, PartId, RackId};

/// A part's spec from the design, or else from the catalog.
pub fn part_spec<'a>(design: &'a Design, catalog: &'a Catalog, id: &PartId) -> Option<&'a Part> {
    design.parts.get(id).or_else(|| catalog.parts.get(id))
}

/// Power a new catalog device would draw, with the default GPUs and NICs it comes with.
pub fn new_device_power(design: &Design, catalog: &Catalog, id: &PartId) -> f64 {
    let Some(part) = part_spec(design, catalog, id) else {
        return 0.0;
    };
    let mut w = part.power_w;
    if let PartKind::Server(s) = &part.kind {
        if let Some(g) = s
            .default_gpu
            .as_ref()
            .and_then(|g| part_spec(design, catalog, g))
        {
            w += g.power_w * s.gpu_slots.len() as f64;
        }
        for slot in &s.nic_slots {
            if let Some(n) = s
                .default_nics
                .get(&slot.role)
                .and_then(|n| part_spec(design, catalog, n))
            {
                w += n.power_w;
            }
        }
    }
    w
}

/// Power drawn by the devices of a rack, leaving out `except`: the one rack power figure of the analysis (optics
/// included), so the canvas, the power report and the feed what-if agree.
pub fn rack_power(design: &Design, rack: RackId, except: Option<DeviceId>) -> f64 {
    crate::analysis::power::rack_power_w_except(design, rack, except)
}

/// Whether a device of height `h` drawing `power_w` may go at unit `u` of a rack: Ok with a warning when over
/// the power budget, the reason when refused.
pub fn placement_verdict(
    design: &Design,
    rack: RackId,
    u: u16,
    h: u16,
    moving: Option<DeviceId>,
    power_w: f64,
) -> Result<Option<String>, String> {
    let rack_power_w = rack_power(design, rack, moving);
    crate::edit::check_placement(design, rack, u, h, moving, power_w, rack_power_w)
}

/// "R01 is over its power budget: 45.2 kW of 44.0 kW" when a rack's devices draw more than its budget.
pub fn over_budget(design: &Design, rack: RackId) -> Option<String> {
    let r = design.racks.get(&rack)?;
    let total = rack_power(design, rack, None);
    (total > r.power_budget_w).then(|| {
        format!(
            "{} is over its power budget: {:.1} kW of {:.1} kW",
            r.name,
            total / 1000.0,
            r.power_budget_w / 1000.0
        )
    })
}
