//! The builder the generators and the importers use: edits against a design and the catalog, applied as they are
//! made, with ids allocated and part specs copied into the design.

use super::{Edit, EditError, IdAlloc, NewLink, device_edit, ensure_part, link_batch, rack_edit};
use crate::catalog::Catalog;
use crate::model::{Design, DeviceId, LinkId, PartId, PortRef, RackId};
use rustc_hash::FxHashMap as HashMap;

/// Builds edits against a design and the catalog, allocating ids and copying part specs into the design.
pub struct Builder<'a> {
    /// The design being built.
    pub design: &'a mut Design,
    /// Where part specs come from.
    pub catalog: &'a Catalog,
    /// Units taken in each rack, for [`Builder::add_device`]: read off the design when the builder first places a
    /// device (again if the device count changed behind its back), then kept as it adds devices. Checking a mount
    /// against every device of the design (`Design::check_mount`) made generating a 512-SU SuperPOD quadratic.
    taken: Option<Taken>,
}

/// Units taken per rack, by device, and the device count they were read at.
struct Taken {
    devices: usize,
    by_rack: HashMap<RackId, Vec<(DeviceId, std::ops::RangeInclusive<u16>)>>,
}

impl Taken {
    fn of(design: &Design) -> Self {
        let mut by_rack: HashMap<RackId, Vec<(DeviceId, std::ops::RangeInclusive<u16>)>> =
            HashMap::default();
        for (id, d) in &design.devices {
            if let Some(units) = design.device_units(d) {
                by_rack.entry(d.rack).or_default().push((*id, units));
            }
        }
        Self {
            devices: design.devices.len(),
            by_rack,
        }
    }
}

impl<'a> Builder<'a> {
    /// A builder for a design.
    pub fn new(design: &'a mut Design, catalog: &'a Catalog) -> Self {
        Self {
            design,
            catalog,
            taken: None,
        }
    }

    /// Edit that copies a catalog part into the design if it is not there yet.
    pub fn ensure_part(&self, id: &str) -> Result<Option<Edit>, EditError> {
        ensure_part(self.design, self.catalog, id)
    }

    fn apply(&mut self, edit: Edit) -> Result<Edit, EditError> {
        edit.apply(self.design)
    }

    /// Changes a rack's properties through an edit (so the change is checked like any other).
    pub fn update_rack(
        &mut self,
        rack: RackId,
        change: impl FnOnce(&mut crate::model::Rack),
    ) -> Result<(), EditError> {
        let mut r = self
            .design
            .racks
            .get(&rack)
            .cloned()
            .ok_or_else(|| EditError::Missing(rack.to_string()))?;
        change(&mut r);
        self.apply(Edit::UpdateRack(rack, r))?;
        Ok(())
    }

    /// Changes a placed device (its GPUs, NICs or name) through an edit, like [`Builder::update_rack`].
    pub fn update_device(
        &mut self,
        device: DeviceId,
        change: impl FnOnce(&mut crate::model::Device),
    ) -> Result<(), EditError> {
        let mut d = self
            .design
            .devices
            .get(&device)
            .cloned()
            .ok_or_else(|| EditError::Missing(device.to_string()))?;
        change(&mut d);
        self.apply(Edit::UpdateDevice(device, d))?;
        Ok(())
    }

    /// The edit that adds a rack from a rack part and copies the part into the design. Not yet applied.
    pub fn rack_edit(
        &mut self,
        part: &str,
        name: &str,
        row: u16,
        slot: u16,
    ) -> Result<(RackId, Edit), EditError> {
        let mut ids = IdAlloc::for_design(self.design);
        let built = rack_edit(self.design, self.catalog, &mut ids, part, name, row, slot)?;
        self.design.next_id = ids.next;
        Ok(built)
    }

    /// Adds a rack; see [`Builder::rack_edit`]. Returns its id and the inverse edit.
    pub fn add_rack(
        &mut self,
        part: &str,
        name: &str,
        row: u16,
        slot: u16,
    ) -> Result<(RackId, Edit), EditError> {
        let (id, edit) = self.rack_edit(part, name, row, slot)?;
        let inv = self.apply(edit)?;
        Ok((id, inv))
    }

    /// The edit that adds a device at a position, with the default GPUs and NICs of integrated systems, and copies
    /// every part it uses into the design. Not yet applied.
    pub fn device_edit(
        &mut self,
        part: &str,
        name: &str,
        rack: RackId,
        position_u: u16,
    ) -> Result<(DeviceId, Edit), EditError> {
        let mut ids = IdAlloc::for_design(self.design);
        let built = device_edit(
            self.design,
            self.catalog,
            &mut ids,
            part,
            name,
            rack,
            position_u,
        )?;
        self.design.next_id = ids.next;
        Ok(built)
    }

    /// Adds a device; see [`Builder::device_edit`]. Refused, as the edit would be, when it does not fit.
    pub fn add_device(
        &mut self,
        part: &str,
        name: &str,
        rack: RackId,
        position_u: u16,
    ) -> Result<DeviceId, EditError> {
        let (id, edit) = self.device_edit(part, name, rack, position_u)?;
        let Edit::Batch(mut edits) = edit else {
            self.apply(edit)?;
            return Ok(id);
        };
        let Some(Edit::AddDevice(new_id, device)) = edits.pop() else {
            self.apply(Edit::Batch(edits))?;
            return Ok(id);
        };
        if self.design.devices.contains_key(&new_id) {
            // The edit says so.
            self.apply(Edit::AddDevice(new_id, device))?;
            return Ok(id);
        }
        // The parts it uses first (its height is its part's); taken back if it does not fit, as a refused edit
        // changes nothing.
        let inverse = self.apply(Edit::Batch(edits))?;
        let mut taken = match self.taken.take() {
            Some(t) if t.devices == self.design.devices.len() => t,
            _ => Taken::of(self.design),
        };
        let h = self.design.device_height_u(&device);
        let in_rack = taken.by_rack.get(&rack).into_iter().flatten().cloned();
        let fits = self
            .design
            .check_mount_among(rack, position_u, h, in_rack)
            .map_err(EditError::Refused);
        if let Err(e) = fits {
            self.taken = Some(taken);
            self.apply(inverse)?;
            return Err(e);
        }
        if let Some(units) = device.units(h) {
            taken.by_rack.entry(rack).or_default().push((new_id, units));
        }
        self.design.devices.insert(new_id, device);
        self.design.next_id = self.design.next_id.max(new_id.0 + 1);
        taken.devices = self.design.devices.len();
        self.taken = Some(taken);
        Ok(id)
    }

    /// Puts GPUs of a part in slots of a server (replacing what is there).
    pub fn fill_gpus(
        &mut self,
        device: DeviceId,
        gpu: &str,
        slots: impl IntoIterator<Item = u16>,
    ) -> Result<(), EditError> {
        self.fill(device, gpu, slots, true)
    }

    /// Puts NICs of a part in slots of a server (replacing what is there).
    pub fn fill_nics(
        &mut self,
        device: DeviceId,
        nic: &str,
        slots: impl IntoIterator<Item = u16>,
    ) -> Result<(), EditError> {
        self.fill(device, nic, slots, false)
    }

    fn fill(
        &mut self,
        device: DeviceId,
        part: &str,
        slots: impl IntoIterator<Item = u16>,
        gpu: bool,
    ) -> Result<(), EditError> {
        let mut edits = Vec::new();
        if let Some(e) = self.ensure_part(part)? {
            edits.push(e);
        }
        let mut d = self
            .design
            .devices
            .get(&device)
            .cloned()
            .ok_or_else(|| EditError::Missing(device.to_string()))?;
        for s in slots {
            let map = if gpu { &mut d.gpus } else { &mut d.nics };
            map.insert(s, PartId::new(part));
        }
        edits.push(Edit::UpdateDevice(device, d));
        self.apply(Edit::Batch(edits))?;
        Ok(())
    }

    /// The edit that cables two ports with the fastest common medium, a length and an optional cable part.
    pub fn link_edit(
        &mut self,
        a: PortRef,
        b: PortRef,
        length_m: f64,
        cable: Option<&str>,
    ) -> Result<(LinkId, Edit), EditError> {
        let medium = self
            .design
            .common_medium(&a, &b)
            .map_err(EditError::Refused)?;
        let id = LinkId(self.design.alloc_id());
        let edit = link_batch(
            self.design,
            self.catalog,
            id,
            NewLink {
                a,
                b,
                medium,
                length_m,
                cable,
                estimated: false,
            },
        )?;
        Ok((id, edit))
    }

    /// Cables two ports; see [`Builder::link_edit`].
    pub fn connect(
        &mut self,
        a: PortRef,
        b: PortRef,
        length_m: f64,
        cable: Option<&str>,
    ) -> Result<LinkId, EditError> {
        let (id, edit) = self.link_edit(a, b, length_m, cable)?;
        self.apply(edit)?;
        Ok(id)
    }
}
