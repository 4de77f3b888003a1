//! Small pieces the fixed generators share: a link added without the per-link port search, port references,
//! the InfiniBand media, and rack changes made through an edit.

use crate::edit::{Builder, EditError};
use crate::model::{DeviceId, IbRate, Link, LinkId, Medium, PortRef, RackId};

/// Adds a link without the per-link port search (the generators know their ports are free and compatible; the
/// result is validated as a whole by the tests).
pub(crate) fn link(
    b: &mut Builder<'_>,
    a: PortRef,
    z: PortRef,
    medium: Medium,
    length_m: f64,
    cable: &str,
) -> Result<LinkId, EditError> {
    if let Some(e) = b.ensure_part(cable)? {
        e.apply(b.design)?;
    }
    let id = LinkId(b.design.alloc_id());
    b.design.links.insert(
        id,
        Link {
            a,
            b: z,
            medium,
            length_m,
            cable: Some(crate::model::PartId::new(cable)),
            notes: String::new(),
            estimated_length: false,
            auto_cable: false,
        },
    );
    Ok(id)
}

pub(crate) fn p(device: DeviceId, port: impl Into<compact_str::CompactString>) -> PortRef {
    PortRef::new(device, port)
}

pub(crate) const NDR: Medium = Medium::InfiniBand(IbRate::Ndr);
pub(crate) const HDR: Medium = Medium::InfiniBand(IbRate::Hdr);

/// `count` 2U NVMe storage servers ("nvme-01", ...) in `rack` from unit `first_u`, one every 3U, each cabled by its
/// two HDR ports to the next ports of `leaf` (`port` counts the leaf's ports already used) with `length_m` AOCs.
pub(crate) fn nvme_storage(
    b: &mut Builder<'_>,
    rack: RackId,
    count: u16,
    first_u: u16,
    leaf: DeviceId,
    port: &mut u32,
    length_m: f64,
) -> Result<(), EditError> {
    for s in 0..count {
        let st = b.add_device(
            "nvme-server-2u",
            &format!("nvme-{:02}", s + 1),
            rack,
            first_u + 3 * s,
        )?;
        for k in 1..=2 {
            *port += 1;
            link(
                b,
                p(st, format!("p{k}")),
                p(leaf, format!("p{port}")),
                HDR,
                length_m,
                "ib-hdr-aoc",
            )?;
        }
    }
    Ok(())
}

/// Every link of `medium` so far follows the floor (lengths estimated, media chosen by reach, both re-estimated
/// when racks move), with the catalog's cables and transceivers of that medium copied in to choose from.
pub(crate) fn follow_floor(b: &mut Builder<'_>, medium: Medium) -> Result<(), EditError> {
    flag_medium(b, medium)?;
    b.design.reestimate();
    Ok(())
}

/// Every cabled link so far follows the floor ([`follow_floor`] for each medium among them that the catalog has
/// a cable for; NVLink and PCIe stay as drawn), with one re-estimation for all of them.
pub(crate) fn follow_floor_all(b: &mut Builder<'_>) -> Result<(), EditError> {
    let mut media: Vec<Medium> = Vec::new();
    for l in b.design.links.values() {
        if matches!(l.medium, Medium::InfiniBand(_) | Medium::Ethernet(_))
            && !media.contains(&l.medium)
        {
            media.push(l.medium);
        }
    }
    let mut any = false;
    for m in media {
        any |= flag_medium(b, m)?;
    }
    if any {
        b.design.reestimate();
    }
    Ok(())
}

/// Copies the catalog's cables and transceivers of `medium` into the design and flags its links
/// `estimated_length` and `auto_cable`. False (and nothing flagged) when the catalog has no cable of it.
fn flag_medium(b: &mut Builder<'_>, medium: Medium) -> Result<bool, EditError> {
    let ids: Vec<String> = b
        .catalog
        .in_category(crate::model::part::Category::Cable)
        .filter(|(_, p)| crate::model::build::builds_medium(&p.kind, medium))
        .map(|(id, _)| id.as_str().to_string())
        .collect();
    if ids.is_empty() {
        return Ok(false);
    }
    for id in ids {
        if let Some(e) = b.ensure_part(&id)? {
            e.apply(b.design)?;
        }
    }
    for l in b.design.links.values_mut() {
        if l.medium == medium {
            l.estimated_length = true;
            l.auto_cable = true;
        }
    }
    Ok(true)
}

/// Sets a rack's power budget, W.
pub(crate) fn set_budget(
    b: &mut Builder<'_>,
    rack: RackId,
    budget_w: f64,
) -> Result<(), EditError> {
    b.update_rack(rack, |r| r.power_budget_w = budget_w)
}
