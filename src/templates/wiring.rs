//! Small pieces the fixed generators share: a link added without the per-link port search, port references,
//! the InfiniBand media, and rack changes made through an edit.

use crate::edit::{Builder, Edit, EditError};
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
        },
    );
    Ok(id)
}

pub(crate) fn p(device: DeviceId, port: impl Into<String>) -> PortRef {
    PortRef::new(device, port)
}

pub(crate) const NDR: Medium = Medium::InfiniBand(IbRate::Ndr);
pub(crate) const HDR: Medium = Medium::InfiniBand(IbRate::Hdr);

/// Changes a rack's properties through an edit (so the change is checked like any other).
pub(crate) fn update_rack(
    b: &mut Builder<'_>,
    rack: RackId,
    change: impl FnOnce(&mut crate::model::Rack),
) -> Result<(), EditError> {
    let mut r = b
        .design
        .racks
        .get(&rack)
        .cloned()
        .ok_or_else(|| EditError::Missing(rack.to_string()))?;
    change(&mut r);
    Edit::UpdateRack(rack, r).apply(b.design)?;
    Ok(())
}

pub(crate) fn set_budget(
    b: &mut Builder<'_>,
    rack: RackId,
    budget_w: f64,
) -> Result<(), EditError> {
    update_rack(b, rack, |r| r.power_budget_w = budget_w)
}
