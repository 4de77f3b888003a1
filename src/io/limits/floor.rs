//! The physical side of a design: its sites, floor, racks, devices and links, and its size against the stated
//! limits.

use super::{
    Checker, Figure, FigureProblem, MAX_DEVICES, MAX_GPU_SLOTS, MAX_LINKS, MAX_NIC_SLOTS,
    MAX_PARTS, MAX_RACKS, Prefix, Range,
};
use crate::model::Design;

/// The figures of one site: its availability, PUEs and prices. The loader checks every site with it and the
/// editor the site an edit writes, so the two never disagree.
pub fn check_site(name: &str, site: &crate::model::Site, problems: &mut Vec<FigureProblem>) {
    let mut c = Checker {
        problems,
        prefix: Prefix::Text(format!("sites.\"{name}\".")),
        part: None,
    };
    c.num("availability", site.availability, Range::above(0.0, 1.0));
    if let Some(floor) = &site.floor {
        check_floor(&format!("sites.\"{name}\".floor."), floor, c.problems);
    }
    if let Some(x) = site.pue {
        c.figure("pue", Figure::Pue, x);
    }
    if let Some(x) = site.pue_liquid {
        c.figure("pue_liquid", Figure::Pue, x);
    }
    if let Some(x) = site.electricity_usd_per_kwh {
        c.figure("electricity_usd_per_kwh", Figure::ElectricityUsdPerKwh, x);
    }
    for (other, km) in &site.distance_km {
        c.num(
            &format!("distance_km.\"{other}\""),
            *km,
            Range::above(0.0, 40_075.0),
        );
    }
    if let Some(x) = site.colocation_usd_per_kw_month {
        c.figure(
            "colocation_usd_per_kw_month",
            Figure::ColocationUsdPerKwMonth,
            x,
        );
    }
}

/// The figures of a floor (docs/limits.md): pitch and depth 100 mm to 5 m, aisles 0 to 20 m, tray 0 to 10 m,
/// slack factor 1 to 3, service loop 0 to 20 m per end.
pub fn check_floor(prefix: &str, floor: &crate::model::Floor, problems: &mut Vec<FigureProblem>) {
    let mut c = Checker {
        problems,
        prefix: Prefix::Text(prefix.to_string()),
        part: None,
    };
    c.num(
        "rack_pitch_mm",
        floor.rack_pitch_mm,
        Range::closed(100.0, 5_000.0),
    );
    c.num(
        "rack_depth_mm",
        floor.rack_depth_mm,
        Range::closed(100.0, 5_000.0),
    );
    c.num(
        "cold_aisle_mm",
        floor.cold_aisle_mm,
        Range::closed(0.0, 20_000.0),
    );
    c.num(
        "hot_aisle_mm",
        floor.hot_aisle_mm,
        Range::closed(0.0, 20_000.0),
    );
    c.num(
        "tray_height_mm",
        floor.tray_height_mm,
        Range::closed(0.0, 10_000.0),
    );
    c.num("slack_factor", floor.slack_factor, Range::closed(1.0, 3.0));
    c.num(
        "service_loop_m",
        floor.service_loop_m,
        Range::closed(0.0, 20.0),
    );
}

/// The figures of one rack (power budget, weight, feed) and its cooling against its site's plant; shared by the
/// loader and the editor like [`check_site`].
pub fn check_rack(
    design: &Design,
    id: crate::model::RackId,
    rack: &crate::model::Rack,
    problems: &mut Vec<FigureProblem>,
) {
    let mut c = Checker {
        problems,
        prefix: Prefix::Entry("racks", id.0),
        part: None,
    };
    // A budget of 0 W would make every rack's load an infinite share of it.
    c.num(
        "power_budget_w",
        rack.power_budget_w,
        Range::above(0.0, 1e6),
    );
    c.num("max_weight_kg", rack.max_weight_kg, Range::closed(0.0, 1e5));
    if let Some(f) = rack.feed_capacity_w {
        c.num("feed_capacity_w", f, Range::closed(0.0, 1e6));
    }
    if let Some(w) = rack.width_mm {
        c.num("width_mm", w, Range::closed(100.0, 5_000.0));
    }
    if let Some(site) = design.sites.get(&rack.site)
        && !site.cooling.allows(rack.cooling)
    {
        c.bad(
            "cooling",
            format!(
                "rack {} is {:?}-cooled, but its site \"{}\" is {:?}: a site without facility water cannot \
                 take liquid-cooled racks (set the rack's cooling to Air, or the site's cooling to AirAndLiquid)",
                rack.name, rack.cooling, rack.site, site.cooling
            ),
        );
    }
}

/// The slot counts of one device; shared by the loader and the editor like [`check_site`].
pub fn check_device(
    id: crate::model::DeviceId,
    device: &crate::model::Device,
    problems: &mut Vec<FigureProblem>,
) {
    let mut c = Checker {
        problems,
        prefix: Prefix::Entry("devices", id.0),
        part: None,
    };
    c.count("gpus", device.gpus.len(), MAX_GPU_SLOTS);
    c.count("nics", device.nics.len(), MAX_NIC_SLOTS);
}

/// The length of one link; shared by the loader and the editor like [`check_site`].
pub fn check_link(
    id: crate::model::LinkId,
    link: &crate::model::Link,
    problems: &mut Vec<FigureProblem>,
) {
    let mut c = Checker {
        problems,
        prefix: Prefix::Entry("links", id.0),
        part: None,
    };
    c.num("length_m", link.length_m, Range::closed(0.0, 1e7));
}

/// The number of racks, devices, links and parts against their limits; shared by the loader and the editor.
pub fn check_counts(design: &Design, problems: &mut Vec<FigureProblem>) {
    let mut c = Checker {
        problems,
        prefix: Prefix::Text(String::new()),
        part: None,
    };
    c.count("racks", design.racks.len(), MAX_RACKS);
    c.count("devices", design.devices.len(), MAX_DEVICES);
    c.count("links", design.links.len(), MAX_LINKS);
    c.count("parts", design.parts.len(), MAX_PARTS);
}
