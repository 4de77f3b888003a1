//! Edits as values. Applying an edit to a design returns its inverse, which the undo history keeps; a gesture that
//! changes many things is one `Edit::Batch`, so it is one undo step. Builders here also serve the sample generators.

mod builder;
mod gesture;
mod history;
pub mod scenario;
pub mod swap;

pub use builder::Builder;
pub use gesture::{
    Copies, Gesture, Gestures, Removed, SlotKind, check_placement, choose_cable, compatible_ports,
    device_name, estimate_length_m, gpu_fits, link_verdict, port_label, unique_device_name,
    unique_name,
};
pub use history::History;

use crate::catalog::{Catalog, PartKind};
use crate::model::part::Part;
use crate::model::{Design, Device, DeviceId, Link, LinkId, Params, PartId, PortRef, Rack, RackId};
use thiserror::Error;

/// Why an edit was refused. The design is left unchanged.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum EditError {
    /// The edit names something that is not there.
    #[error("{0} does not exist")]
    Missing(String),
    /// The edit would break a rule (overlap, outside the rack, port taken, incompatible link).
    #[error("{0}")]
    Refused(String),
}

/// One change to a design.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// Adds (or replaces) a part spec in the design's part table; None removes it.
    SetPart(PartId, Option<Box<Part>>),
    /// Adds a rack.
    AddRack(RackId, Rack),
    /// Removes a rack with everything mounted in it and their links.
    RemoveRack(RackId),
    /// Replaces a rack's properties.
    UpdateRack(RackId, Rack),
    /// Adds a device; its mount is checked.
    AddDevice(DeviceId, Device),
    /// Removes a device and its links.
    RemoveDevice(DeviceId),
    /// Replaces a device (move, rename, slots); its mount is checked.
    UpdateDevice(DeviceId, Device),
    /// Adds a link; both ports must be free and compatible.
    AddLink(LinkId, Link),
    /// Removes a link.
    RemoveLink(LinkId),
    /// Replaces a link's properties (length, cable, notes); new ends or medium are checked like a new link.
    UpdateLink(LinkId, Link),
    /// Replaces the design's parameters.
    SetParams(Box<Params>),
    /// Adds or replaces a site (data hall, region); None removes it, refused while racks stand in it.
    SetSite(String, Option<Box<crate::model::Site>>),
    /// Renames the design and sets its notes.
    SetMeta {
        /// The design's new name (`Design::name`), held to the rules for names in a file (one line, at most 256
        /// characters); the inverse carries the old one.
        name: String,
        /// The design's new notes for reviewers (`Design::notes`); line feeds and tabs are allowed.
        notes: String,
    },
    /// Several edits applied in order as one step; undone in reverse.
    Batch(Vec<Edit>),
    /// Replaces the design's planning scenarios (View > Planning).
    SetScenarios(Vec<crate::model::Scenario>),
    /// Replaces the whole design (File > New from template, Size from a requirement): one undo step back to the
    /// design it replaced. The new design is held to every rule the loader holds a file to.
    ReplaceDesign(Box<Design>),
}

impl Edit {
    /// Why a name or text this edit writes breaks the rules a loaded file is held to (docs/limits.md, "Names and
    /// text"), if one does: a name pasted with a line break or an escape sequence is refused here, so no design in
    /// memory holds what a file may not.
    fn bad_text(&self) -> Option<String> {
        use crate::io::names::{name_problem, text_problem};
        let name = |what: &str, n: &str| name_problem(n).map(|m| format!("{what}: {m}"));
        let text = |what: &str, t: &str| text_problem(t).map(|m| format!("{what}: {m}"));
        match self {
            Edit::AddRack(_, r) | Edit::UpdateRack(_, r) => {
                name("rack name", &r.name).or_else(|| text("rack notes", &r.notes))
            }
            Edit::AddDevice(_, d) | Edit::UpdateDevice(_, d) => {
                name("device name", &d.name).or_else(|| text("device notes", &d.notes))
            }
            Edit::AddLink(_, l) | Edit::UpdateLink(_, l) => name("port", &l.a.port)
                .or_else(|| name("port", &l.b.port))
                .or_else(|| text("link notes", &l.notes)),
            Edit::SetSite(n, site) => name("site name", n).or_else(|| {
                site.as_ref().and_then(|s| {
                    name("region", &s.region).or_else(|| text("site notes", &s.notes))
                })
            }),
            Edit::SetMeta { name: n, notes } => {
                name("design name", n).or_else(|| text("design notes", notes))
            }
            Edit::SetScenarios(list) => list.iter().find_map(|s| name("scenario name", &s.name)),
            Edit::SetPart(id, Some(part)) => {
                let mut problems = Vec::new();
                crate::io::names::check_part(id.as_str(), part, &mut problems);
                problems.into_iter().next().map(|p| p.message)
            }
            Edit::SetPart(_, None)
            | Edit::RemoveRack(_)
            | Edit::RemoveDevice(_)
            | Edit::RemoveLink(_)
            | Edit::SetParams(_)
            | Edit::ReplaceDesign(_)
            | Edit::Batch(_) => None,
        }
    }

    /// Applies the edit and returns its inverse. On error the design is unchanged.
    ///
    /// Whatever the edit writes (a rack, a device, a link, a part, a site, the parameters, the scenarios) is then
    /// held to the rules the loader holds a file to (`io::rack_problems` and its neighbours, `io::limits`), on the
    /// design as the whole edit leaves it: an edit the loader would refuse to open is refused here with the
    /// loader's reason, so every design the editor makes opens again (docs/limits.md, "One set of rules").
    ///
    /// When the edit moves racks or devices, the links whose length or cable is an estimate then follow the floor
    /// (one re-estimation however many moved), and the inverse puts them back as they were.
    pub fn apply(self, design: &mut Design) -> Result<Edit, EditError> {
        self.apply_moved(design).map(|(inverse, _)| inverse)
    }

    /// [`Edit::apply`], and whether it re-estimated the design (something moved).
    fn apply_moved(self, design: &mut Design) -> Result<(Edit, bool), EditError> {
        let mut touched = Touched::default();
        self.touches(&mut touched);
        let mut moved = false;
        let inverse = self.apply_unchecked(design, &mut moved)?;
        if let Some(why) = touched.problem(design) {
            // The inverse of an edit just applied always applies.
            let _ = inverse.apply_unchecked(design, &mut false);
            return Err(EditError::Refused(why));
        }
        Ok(match moved {
            true => (reestimated(design, inverse), true),
            false => (inverse, false),
        })
    }

    /// Whether applying this edit to `design` can change what re-estimation makes of a flagged link (see
    /// [`apply_settled`]): not a name, notes, GPUs, the parameters or the scenarios, nor a new rack or device
    /// (neither has links yet).
    fn moves_builds(&self, design: &Design) -> bool {
        match self {
            Edit::SetMeta { .. }
            | Edit::SetScenarios(_)
            | Edit::SetParams(_)
            | Edit::AddRack(..)
            | Edit::AddDevice(..) => false,
            Edit::UpdateDevice(id, new) => design.devices.get(id).is_none_or(|old| {
                (
                    &old.part,
                    old.rack,
                    old.position_u,
                    &old.nics,
                    &old.breakout,
                ) != (
                    &new.part,
                    new.rack,
                    new.position_u,
                    &new.nics,
                    &new.breakout,
                )
            }),
            Edit::UpdateRack(id, new) => design.racks.get(id).is_none_or(|old| {
                old.part != new.part || old.place_on_floor() != new.place_on_floor()
            }),
            Edit::Batch(edits) => edits.iter().any(|e| e.moves_builds(design)),
            _ => true,
        }
    }

    /// Records what this edit writes, for [`Edit::apply`]'s check.
    fn touches(&self, t: &mut Touched) {
        match self {
            Edit::SetPart(id, _) => t.parts.push(id.clone()),
            Edit::AddRack(id, _) | Edit::UpdateRack(id, _) => {
                t.racks.insert(*id);
            }
            Edit::AddDevice(id, _) | Edit::UpdateDevice(id, _) => {
                t.devices.insert(*id);
            }
            Edit::AddLink(id, _) | Edit::UpdateLink(id, _) => {
                t.links.insert(*id);
            }
            Edit::SetParams(_) => t.params = true,
            Edit::SetSite(name, _) => t.sites.push(name.clone()),
            Edit::SetScenarios(_) => t.scenarios = true,
            Edit::ReplaceDesign(_) => t.whole = true,
            Edit::Batch(edits) => edits.iter().for_each(|e| e.touches(t)),
            Edit::RemoveRack(_)
            | Edit::RemoveDevice(_)
            | Edit::RemoveLink(_)
            | Edit::SetMeta { .. } => {}
        }
    }

    /// Applies the edit without [`Edit::apply`]'s final check (each arm still refuses what it cannot do); sets
    /// `moved` when a rack or device moved (re-estimation is left to [`Edit::apply`]).
    ///
    /// One function on purpose: one arm per kind of edit, each short, beside its inverse; the match is the list of
    /// what an edit can do.
    fn apply_unchecked(self, design: &mut Design, moved: &mut bool) -> Result<Edit, EditError> {
        if let Some(why) = self.bad_text() {
            return Err(EditError::Refused(why));
        }
        match self {
            Edit::SetPart(id, part) => {
                let old = match part {
                    Some(p) => design.parts.insert(id.clone(), *p),
                    None => design.parts.remove(&id),
                };
                Ok(Edit::SetPart(id, old.map(Box::new)))
            }
            Edit::AddRack(id, rack) => {
                if design.racks.contains_key(&id) {
                    return Err(EditError::Refused(format!("{id} already exists")));
                }
                design.racks.insert(id, rack);
                design.next_id = design.next_id.max(id.0 + 1);
                Ok(Edit::RemoveRack(id))
            }
            Edit::RemoveRack(id) => {
                let devices: Vec<DeviceId> = design
                    .devices
                    .iter()
                    .filter(|(_, d)| d.rack == id)
                    .map(|(k, _)| *k)
                    .collect();
                if !design.racks.contains_key(&id) {
                    return Err(EditError::Missing(id.to_string()));
                }
                // The inverse of a sequence is the reversed sequence of inverses: the rack comes back first, then
                // the devices in the opposite order of their removal, so each one's links find their other ends.
                let mut inverses = Vec::new();
                for d in devices {
                    match Edit::RemoveDevice(d).apply_unchecked(design, moved) {
                        Ok(inv) => inverses.push(inv),
                        Err(e) => {
                            for inv in inverses.into_iter().rev() {
                                let _ = inv.apply_unchecked(design, &mut false);
                            }
                            return Err(e);
                        }
                    }
                }
                let rack = design
                    .racks
                    .remove(&id)
                    .ok_or_else(|| EditError::Missing(id.to_string()))?;
                inverses.push(Edit::AddRack(id, rack));
                inverses.reverse();
                Ok(Edit::Batch(inverses))
            }
            Edit::UpdateRack(id, rack) => {
                if !rack.site.is_empty() && !design.sites.contains_key(&rack.site) {
                    return Err(EditError::Refused(format!(
                        "the design has no site {}",
                        rack.site
                    )));
                }
                if let Some(site) = design.sites.get(&rack.site)
                    && !site.cooling.allows(rack.cooling)
                {
                    return Err(EditError::Refused(format!(
                        "site {} has no facility water for liquid-cooled racks (its cooling is air only)",
                        rack.site
                    )));
                }
                let Some(slot) = design.racks.get_mut(&id) else {
                    return Err(EditError::Missing(id.to_string()));
                };
                if rack.height_u == 0 {
                    return Err(EditError::Refused("a rack needs at least 1U".into()));
                }
                let old = std::mem::replace(slot, rack);
                // Only a rack made shorter can leave a device outside it: a budget or a name changed on each of
                // thousands of racks then costs no scan of every device per rack.
                let shorter = design
                    .racks
                    .get(&id)
                    .is_some_and(|r| r.height_u < old.height_u);
                let too_tall = shorter
                    && design.devices.values().any(|d| {
                        d.rack == id
                            && design.device_units(d).is_some_and(|u| {
                                *u.end() > design.racks.get(&id).map_or(0, |r| r.height_u)
                            })
                    });
                if too_tall {
                    let new = design.racks.insert(id, old);
                    let h = new.map_or(0, |r| r.height_u);
                    return Err(EditError::Refused(format!(
                        "devices mounted above U{h} would fall outside the rack"
                    )));
                }
                *moved |= design
                    .racks
                    .get(&id)
                    .is_some_and(|r| r.place_on_floor() != old.place_on_floor());
                Ok(Edit::UpdateRack(id, old))
            }
            Edit::AddDevice(id, device) => {
                if design.devices.contains_key(&id) {
                    return Err(EditError::Refused(format!("{id} already exists")));
                }
                let h = design.device_height_u(&device);
                design
                    .check_mount(device.rack, device.position_u, h, &[])
                    .map_err(EditError::Refused)?;
                design.devices.insert(id, device);
                design.next_id = design.next_id.max(id.0 + 1);
                Ok(Edit::RemoveDevice(id))
            }
            Edit::RemoveDevice(id) => {
                let links: Vec<LinkId> = design
                    .links
                    .iter()
                    .filter(|(_, l)| l.a.device == id || l.b.device == id)
                    .map(|(k, _)| *k)
                    .collect();
                let device = design
                    .devices
                    .remove(&id)
                    .ok_or_else(|| EditError::Missing(id.to_string()))?;
                let mut inverse = vec![Edit::AddDevice(id, device)];
                for l in links {
                    if let Some(link) = design.links.remove(&l) {
                        inverse.push(Edit::AddLink(l, link));
                    }
                }
                Ok(Edit::Batch(inverse))
            }
            Edit::UpdateDevice(id, device) => {
                let Some(old) = design.devices.get(&id).cloned() else {
                    return Err(EditError::Missing(id.to_string()));
                };
                let h = design.device_height_u(&device);
                // A device that stays where it was, at its height, overlaps nothing new: GPUs or NICs filled into
                // thousands of servers then cost no scan of every device per server.
                let shifted = (old.rack, old.position_u, design.device_height_u(&old))
                    != (device.rack, device.position_u, h);
                if shifted {
                    design
                        .check_mount(device.rack, device.position_u, h, &[id])
                        .map_err(EditError::Refused)?;
                }
                // Links to NIC ports that no longer exist (a NIC removed from its slot) go with it.
                let mut inverse = Vec::new();
                design.devices.insert(id, device);
                let ports: Vec<String> = design.ports(id).into_iter().map(|p| p.name).collect();
                let stale: Vec<LinkId> = design
                    .links
                    .iter()
                    .filter(|(_, l)| {
                        [&l.a, &l.b]
                            .iter()
                            .any(|end| end.device == id && !ports.iter().any(|p| *p == end.port))
                    })
                    .map(|(k, _)| *k)
                    .collect();
                for l in stale {
                    if let Some(link) = design.links.remove(&l) {
                        inverse.push(Edit::AddLink(l, link));
                    }
                }
                inverse.insert(0, Edit::UpdateDevice(id, old));
                let inverse = if inverse.len() == 1 {
                    inverse.remove(0)
                } else {
                    Edit::Batch(inverse)
                };
                *moved |= shifted;
                Ok(inverse)
            }
            Edit::AddLink(id, link) => {
                if design.links.contains_key(&id) {
                    return Err(EditError::Refused(format!("{id} already exists")));
                }
                design
                    .check_link(&link.a, &link.b, &link.medium, None)
                    .map_err(EditError::Refused)?;
                // A link that follows the floor takes its length and medium from it as it goes in.
                let link = if link.estimated_length || link.auto_cable {
                    design.reestimated(&crate::model::FloorPlan::new(design), &link)
                } else {
                    link
                };
                design.links.insert(id, link);
                design.next_id = design.next_id.max(id.0 + 1);
                Ok(Edit::RemoveLink(id))
            }
            Edit::RemoveLink(id) => {
                let link = design
                    .links
                    .remove(&id)
                    .ok_or_else(|| EditError::Missing(id.to_string()))?;
                Ok(Edit::AddLink(id, link))
            }
            Edit::UpdateLink(id, link) => {
                let Some(old) = design.links.get(&id) else {
                    return Err(EditError::Missing(id.to_string()));
                };
                // A link whose ends and medium stay as they are needs no new check (a note, a length, a cable).
                if (&old.a, &old.b, &old.medium) != (&link.a, &link.b, &link.medium) {
                    design
                        .check_link(&link.a, &link.b, &link.medium, Some(id))
                        .map_err(EditError::Refused)?;
                }
                let old = design.links.insert(id, link);
                old.map(|o| Edit::UpdateLink(id, o))
                    .ok_or_else(|| EditError::Missing(id.to_string()))
            }
            Edit::SetParams(params) => {
                let old = std::mem::replace(&mut design.params, *params);
                Ok(Edit::SetParams(Box::new(old)))
            }
            Edit::SetSite(name, site) => {
                let racks_there = || design.racks.values().filter(|r| r.site == name);
                match &site {
                    None => {
                        if let Some(r) = racks_there().next() {
                            return Err(EditError::Refused(format!(
                                "rack {} stands in site {name}: move its racks first",
                                r.name
                            )));
                        }
                    }
                    Some(s) => {
                        if name.trim().is_empty() {
                            return Err(EditError::Refused("a site needs a name".into()));
                        }
                        if let Some(r) = racks_there().find(|r| !s.cooling.allows(r.cooling)) {
                            return Err(EditError::Refused(format!(
                                "rack {} in site {name} is liquid-cooled: an air-only site has no facility water",
                                r.name
                            )));
                        }
                    }
                }
                let old = match site {
                    Some(s) => design.sites.insert(name.clone(), *s),
                    None => design.sites.remove(&name),
                };
                Ok(Edit::SetSite(name, old.map(Box::new)))
            }
            Edit::SetMeta { name, notes } => {
                let old_name = std::mem::replace(&mut design.name, name);
                let old_notes = std::mem::replace(&mut design.notes, notes);
                Ok(Edit::SetMeta {
                    name: old_name,
                    notes: old_notes,
                })
            }
            Edit::SetScenarios(scenarios) => Ok(Edit::SetScenarios(std::mem::replace(
                &mut design.scenarios,
                scenarios,
            ))),
            Edit::ReplaceDesign(new) => Ok(Edit::ReplaceDesign(Box::new(std::mem::replace(
                design, *new,
            )))),
            Edit::Batch(edits) => {
                let mut inverses = Vec::with_capacity(edits.len());
                for edit in edits {
                    match edit.apply_unchecked(design, moved) {
                        Ok(inv) => inverses.push(inv),
                        Err(e) => {
                            // Roll back what this batch already did, so a refused batch changes nothing.
                            for inv in inverses.into_iter().rev() {
                                let _ = inv.apply_unchecked(design, &mut false);
                            }
                            return Err(e);
                        }
                    }
                }
                inverses.reverse();
                Ok(Edit::Batch(inverses))
            }
        }
    }
}

/// What an edit writes, checked after it is applied (see [`Edit::apply`]).
#[derive(Default)]
struct Touched {
    racks: std::collections::BTreeSet<RackId>,
    devices: std::collections::BTreeSet<DeviceId>,
    links: std::collections::BTreeSet<LinkId>,
    parts: Vec<PartId>,
    sites: Vec<String>,
    params: bool,
    scenarios: bool,
    /// The whole design was replaced: checked as the loader checks a file.
    whole: bool,
}

impl Touched {
    /// The first rule of the loader's the design now breaks in what was written, in the loader's words.
    fn problem(mut self, design: &Design) -> Option<String> {
        use crate::io::limits;
        if self.whole {
            let figures = limits::check(design);
            if let Some(p) = figures.into_iter().next() {
                return Some(p.message);
            }
            if let Some(p) = crate::io::validate(design).into_iter().next() {
                return Some(p.message);
            }
        }
        let mut figures = Vec::new();
        limits::check_counts(design, &mut figures);
        for id in &self.parts {
            match design.parts.get(id) {
                Some(part) => limits::check_part_all(id.as_str(), part, &mut figures),
                None => {
                    if let Some(user) = part_user(design, id) {
                        return Some(format!("part {id} is still used by {user}"));
                    }
                }
            }
        }
        // A part replaced under its users (a new spec with fewer slots, another protocol) is checked at each
        // user; adding a part no one uses yet costs nothing here.
        if !self.parts.is_empty() {
            let parts: std::collections::BTreeSet<&PartId> = self.parts.iter().collect();
            for (id, r) in &design.racks {
                if parts.contains(&r.part) {
                    self.racks.insert(*id);
                }
            }
            for (id, d) in &design.devices {
                if parts.contains(&d.part)
                    || d.gpus
                        .values()
                        .chain(d.nics.values())
                        .any(|p| parts.contains(p))
                {
                    self.devices.insert(*id);
                }
            }
            for (id, l) in &design.links {
                if l.cable.as_ref().is_some_and(|c| parts.contains(c)) {
                    self.links.insert(*id);
                }
            }
        }
        // A device's new slots or part (another NIC, fewer ports) are checked at its cables too: each link ending
        // at a touched device must still find its ports, and they must still carry it (protocol and rate), as the
        // loader requires of every link.
        if !self.devices.is_empty() {
            for (id, l) in &design.links {
                if self.devices.contains(&l.a.device) || self.devices.contains(&l.b.device) {
                    // The ends only: a device edit moves no cable, so which port holds which cable is unchanged
                    // (Design::check_link would also look for another cable at each port, a scan of every link).
                    for end in [&l.a, &l.b] {
                        let carried = match design.port(end) {
                            Some(port) => port.accepts(&l.medium),
                            None => Err("the port does not exist".into()),
                        };
                        if let Err(why) = carried {
                            return Some(format!("link {id} at port {end}: {why}"));
                        }
                    }
                    self.links.insert(*id);
                }
            }
        }
        for name in &self.sites {
            if let Some(site) = design.sites.get(name) {
                limits::check_site(name, site, &mut figures);
            }
        }
        if self.params {
            limits::check_params(&design.params, &mut figures);
        }
        if self.scenarios {
            limits::check_scenarios(&design.scenarios, &mut figures);
        }
        if let Some(p) = figures.into_iter().next() {
            return Some(p.message);
        }
        let racks = self
            .racks
            .iter()
            .flat_map(|id| crate::io::rack_problems(design, *id));
        let devices = self
            .devices
            .iter()
            .flat_map(|id| crate::io::device_problems(design, *id));
        let links = self
            .links
            .iter()
            .flat_map(|id| crate::io::link_problems(design, *id));
        racks.chain(devices).chain(links).next()
    }
}

/// Something in the design that uses part `id`, named for a refusal ("device dgx-01").
fn part_user(design: &Design, id: &PartId) -> Option<String> {
    if let Some(r) = design.racks.values().find(|r| &r.part == id) {
        return Some(format!("rack {}", r.name));
    }
    if let Some(d) = design
        .devices
        .values()
        .find(|d| &d.part == id || d.gpus.values().chain(d.nics.values()).any(|p| p == id))
    {
        return Some(format!("device {}", d.name));
    }
    design
        .links
        .iter()
        .find(|(_, l)| l.cable.as_ref() == Some(id))
        .map(|(lid, _)| format!("link {lid}"))
}

/// Hands out ids above everything a design has used, without changing the design: edits built with them move
/// the design's counter past them when applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdAlloc {
    next: u64,
}

impl IdAlloc {
    /// The ids after the design's last one.
    pub fn for_design(design: &Design) -> Self {
        Self {
            next: design.next_id.max(1),
        }
    }

    /// The next id.
    pub fn alloc(&mut self) -> u64 {
        let id = self.next.max(1);
        self.next = id + 1;
        id
    }
}

/// A link to add: its ends, medium, length and cable part, and whether its length and medium follow the floor.
struct NewLink<'a> {
    a: PortRef,
    b: PortRef,
    medium: crate::model::Medium,
    length_m: f64,
    cable: Option<&'a str>,
    /// Flag the link `estimated_length` and `auto_cable`, and copy every catalog cable and transceiver of its
    /// protocol and rate into the design, so that re-estimation can choose among them.
    estimated: bool,
}

/// The edits that add link `id` (its cable part copied into the design when it is new), as one batch: the one way
/// both the builder and the canvas gestures make a link.
fn link_batch(
    design: &Design,
    catalog: &Catalog,
    id: LinkId,
    new: NewLink<'_>,
) -> Result<Edit, EditError> {
    let mut edits = Vec::new();
    if let Some(c) = new.cable
        && let Some(e) = ensure_part(design, catalog, c)?
    {
        edits.push(e);
    }
    if new.estimated {
        for (pid, p) in catalog.in_category(crate::model::part::Category::Cable) {
            let fits = crate::model::build::builds_medium(&p.kind, new.medium);
            if fits && Some(pid.as_str()) != new.cable && !design.parts.contains_key(pid) {
                edits.push(Edit::SetPart(pid.clone(), Some(Box::new(p.clone()))));
            }
        }
    }
    edits.push(Edit::AddLink(
        id,
        Link {
            a: new.a,
            b: new.b,
            medium: new.medium,
            length_m: new.length_m,
            cable: new.cable.map(PartId::new),
            notes: String::new(),
            estimated_length: new.estimated,
            auto_cable: new.estimated,
        },
    ));
    Ok(Edit::Batch(edits))
}

/// A step of the editor's history applied: the edit, then the design's flagged links re-estimated as the loader
/// re-estimates them on opening ([`Design::reestimate`]), so that what the editor shows is what the file opens as.
/// A twin-port cage runs one medium: a cable chosen for one link (or a link removed) can move its cage-mate between
/// copper and fibre, which no edit of that one link does. The inverse puts the links re-estimation changed back
/// first, then undoes the edit. One pass over the links per step; builders and templates, which apply thousands
/// of edits for one step, re-estimate once at their end instead.
pub(crate) fn apply_settled(edit: Edit, design: &mut Design) -> Result<Edit, EditError> {
    let settles = edit.moves_builds(design);
    let (inverse, reestimated_already) = edit.apply_moved(design)?;
    if !settles || reestimated_already {
        return Ok(inverse);
    }
    Ok(reestimated(design, inverse))
}

/// The design's flagged links re-estimated after an edit whose inverse is `inverse`: the returned inverse puts
/// the links re-estimation changed back first, then undoes the edit.
fn reestimated(design: &mut Design, inverse: Edit) -> Edit {
    let changed = design.reestimate();
    if changed.is_empty() {
        return inverse;
    }
    let mut all: Vec<Edit> = changed
        .into_iter()
        .map(|(id, l)| Edit::UpdateLink(id, l))
        .collect();
    all.push(inverse);
    Edit::Batch(all)
}

/// The edit moving a rack to a place on its floor (row and slot): the racks' flagged links are re-estimated when
/// it is applied, and undone with it. Refused when another rack stands there.
pub fn move_rack(design: &Design, rack: RackId, row: u16, slot: u16) -> Result<Edit, EditError> {
    let Some(r) = design.racks.get(&rack) else {
        return Err(EditError::Missing(rack.to_string()));
    };
    if let Some(other) = design
        .racks
        .iter()
        .find(|(id, o)| **id != rack && o.site == r.site && o.row == row && o.slot == slot)
    {
        return Err(EditError::Refused(format!(
            "rack {} already stands in row {row}, slot {slot}",
            other.1.name
        )));
    }
    Ok(Edit::UpdateRack(
        rack,
        Rack {
            row,
            slot,
            ..r.clone()
        },
    ))
}

fn ensure_part(design: &Design, catalog: &Catalog, id: &str) -> Result<Option<Edit>, EditError> {
    let pid = PartId::new(id);
    if design.parts.contains_key(&pid) {
        return Ok(None);
    }
    let part = catalog
        .get(id)
        .ok_or_else(|| EditError::Missing(format!("catalog part \"{id}\"")))?;
    Ok(Some(Edit::SetPart(pid, Some(Box::new(part.clone())))))
}

/// The edit adding a rack from a rack part (and copying the part into the design).
fn rack_edit(
    design: &Design,
    catalog: &Catalog,
    ids: &mut IdAlloc,
    part: &str,
    name: &str,
    row: u16,
    slot: u16,
) -> Result<(RackId, Edit), EditError> {
    let mut edits = Vec::new();
    if let Some(e) = ensure_part(design, catalog, part)? {
        edits.push(e);
    }
    let spec = catalog
        .get(part)
        .ok_or_else(|| EditError::Missing(format!("catalog part \"{part}\"")))?;
    let PartKind::Rack(r) = &spec.kind else {
        return Err(EditError::Refused(format!("{part} is not a rack")));
    };
    let id = RackId(ids.alloc());
    edits.push(Edit::AddRack(
        id,
        Rack {
            name: name.to_string(),
            part: PartId::new(part),
            height_u: r.units,
            power_budget_w: r.power_budget_w,
            max_weight_kg: r.max_weight_kg,
            row,
            slot,
            width_mm: None,
            feed_capacity_w: None,
            cooling: crate::model::Cooling::Air,
            site: String::new(),
            notes: String::new(),
        },
    ));
    Ok((id, Edit::Batch(edits)))
}

/// The edit adding a device at a position, with the default GPUs and NICs of integrated systems, copying every
/// part it uses into the design.
fn device_edit(
    design: &Design,
    catalog: &Catalog,
    ids: &mut IdAlloc,
    part: &str,
    name: &str,
    rack: RackId,
    position_u: u16,
) -> Result<(DeviceId, Edit), EditError> {
    let mut edits = Vec::new();
    let spec = catalog
        .get(part)
        .ok_or_else(|| EditError::Missing(format!("catalog part \"{part}\"")))?;
    if !spec.kind.is_rack_mounted() {
        return Err(EditError::Refused(format!(
            "{} does not mount in a rack",
            spec.name
        )));
    }
    let mut used = vec![part.to_string()];
    let mut device = Device {
        name: name.to_string(),
        part: PartId::new(part),
        rack,
        position_u,
        ..Device::default()
    };
    if let PartKind::Server(s) = &spec.kind {
        if let Some(gpu) = &s.default_gpu {
            for slot in 0..s.gpu_slots.len() {
                device
                    .gpus
                    .insert(u16::try_from(slot).unwrap_or(u16::MAX), gpu.clone());
            }
            used.push(gpu.0.to_string());
        }
        for (slot, slot_spec) in s.nic_slots.iter().enumerate() {
            if let Some(nic) = s.default_nics.get(&slot_spec.role) {
                device
                    .nics
                    .insert(u16::try_from(slot).unwrap_or(u16::MAX), nic.clone());
                used.push(nic.0.to_string());
            }
        }
    }
    used.sort();
    used.dedup();
    for p in used {
        if let Some(e) = ensure_part(design, catalog, &p)? {
            edits.push(e);
        }
    }
    let id = DeviceId(ids.alloc());
    edits.push(Edit::AddDevice(id, device));
    Ok((id, Edit::Batch(edits)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_with_control_characters_are_refused_and_nothing_changes() {
        let mut d = crate::samples::default_design();
        let before = d.clone();
        let (id, dev) = d
            .devices
            .iter()
            .next()
            .map(|(k, v)| (*k, v.clone()))
            .unwrap();
        let renamed = Device {
            name: "node-08\nSwitchName=evil".into(),
            ..dev.clone()
        };
        let err = Edit::UpdateDevice(id, renamed).apply(&mut d).unwrap_err();
        assert!(err.to_string().contains("U+000A"), "{err}");
        let meta = Edit::SetMeta {
            name: "x\u{202e}y".into(),
            notes: String::new(),
        };
        assert!(meta.apply(&mut d).is_err());
        assert_eq!(d, before);
        // A note keeps its line breaks.
        let noted = Device {
            notes: "line 1\nline 2".into(),
            ..dev
        };
        Edit::UpdateDevice(id, noted).apply(&mut d).unwrap();
    }

    #[test]
    fn update_link_returns_the_old_link_and_undoes() {
        let mut d = crate::samples::default_design();
        let (id, before) = d.links.iter().next().map(|(k, l)| (*k, l.clone())).unwrap();
        let noted = Link {
            notes: "check the bend radius".into(),
            ..before.clone()
        };
        let inverse = Edit::UpdateLink(id, noted.clone()).apply(&mut d).unwrap();
        assert_eq!(d.links[&id], noted);
        assert_eq!(inverse, Edit::UpdateLink(id, before.clone()));
        inverse.apply(&mut d).unwrap();
        assert_eq!(d.links[&id], before);
    }

    #[test]
    fn update_link_refuses_a_missing_link_or_a_taken_port() {
        let mut d = crate::samples::default_design();
        let ids: Vec<LinkId> = d.links.keys().copied().take(2).collect();
        let missing = LinkId(d.next_id + 100);
        let l = d.links[&ids[0]].clone();
        assert!(matches!(
            Edit::UpdateLink(missing, l.clone()).apply(&mut d),
            Err(EditError::Missing(_))
        ));
        // Moving one end onto a port another link holds is refused and changes nothing.
        let other = d.links[&ids[1]].a.clone();
        let before = d.clone();
        let moved = Link { a: other, ..l };
        assert!(Edit::UpdateLink(ids[0], moved).apply(&mut d).is_err());
        assert_eq!(d, before);
    }
}
