//! Checks a parsed design for what the type system cannot: unknown parts, dangling references, devices outside
//! their rack or overlapping, GPUs and NICs in the wrong slots, double-booked ports and incompatible links.

use crate::model::cages::{LinkRules, breakout_problems};
use crate::model::part::{FormFactor, Part, PartKind};
use crate::model::{Design, Device, DeviceId, Link, LinkId, PartId, RackId, grouped};
use rustc_hash::FxHashMap as HashMap;
use serde::Serialize;
use std::borrow::Cow;
use std::fmt;

/// One thing wrong with a design, with the ids it concerns.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Problem {
    /// What is wrong, in a sentence with the names involved.
    pub message: String,
    /// Rack concerned, if any.
    pub rack: Option<RackId>,
    /// Device concerned, if any.
    pub device: Option<DeviceId>,
    /// Link concerned, if any.
    pub link: Option<LinkId>,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl Problem {
    fn rack(rack: RackId, message: String) -> Self {
        Self {
            message,
            rack: Some(rack),
            device: None,
            link: None,
        }
    }
    fn device(device: DeviceId, message: String) -> Self {
        Self {
            message,
            rack: None,
            device: Some(device),
            link: None,
        }
    }
    fn link(link: LinkId, message: String) -> Self {
        Self {
            message,
            rack: None,
            device: None,
            link: Some(link),
        }
    }
}

/// Everything wrong with a design; empty when it is sound. Never panics, whatever the input.
pub fn validate(design: &Design) -> Vec<Problem> {
    let mut problems = Vec::new();
    // Two racks in one place on a floor (same site, row and slot) would stand in each other.
    let mut places: HashMap<(&str, u16, u16), RackId> = HashMap::default();
    for (id, rack) in &design.racks {
        check_rack(design, *id, rack, &mut problems);
        if let Some(other) = places.insert((rack.site.as_str(), rack.row, rack.slot), *id) {
            let other_name = design.racks.get(&other).map_or("", |r| r.name.as_str());
            problems.push(Problem::rack(
                *id,
                format!(
                    "rack {} stands in the place of rack {other_name} (row {}, slot {}): racks on a floor cannot \
                     overlap",
                    rack.name, rack.row, rack.slot
                ),
            ));
        }
    }
    // Occupancy per rack (who holds each unit), to find overlaps in one pass rather than comparing every pair of
    // devices.
    let mut occupied: HashMap<RackId, Vec<Option<DeviceId>>> = HashMap::default();
    let mut parts = PartMemo::new(design);
    for (id, device) in &design.devices {
        let label: Cow<'_, str> = if device.name.is_empty() {
            Cow::Owned(id.to_string())
        } else {
            Cow::Borrowed(&device.name)
        };
        let Some((part, rack)) =
            check_device_mount(design, &mut parts, *id, device, &label, &mut problems)
        else {
            continue;
        };
        if let Some(units) = device.units(part.height_u) {
            if *units.start() < 1 || *units.end() > rack.height_u {
                problems.push(Problem::device(
                    *id,
                    format!(
                        "device {label} occupies U{}-U{}, outside the {}U rack {}",
                        units.start(),
                        units.end(),
                        rack.height_u,
                        rack.name
                    ),
                ));
            } else {
                let held = occupied
                    .entry(device.rack)
                    .or_insert_with(|| vec![None; usize::from(rack.height_u) + 1]);
                for u in units {
                    let Some(slot) = held.get_mut(usize::from(u)) else {
                        break;
                    };
                    if let Some(other) = slot.replace(*id) {
                        let other_name = design
                            .devices
                            .get(&other)
                            .map_or(String::new(), |d| d.name.clone());
                        problems.push(Problem::device(
                            *id,
                            format!(
                                "device {label} overlaps {other_name} at U{u} in rack {}",
                                rack.name
                            ),
                        ));
                        break;
                    }
                }
            }
        }
        check_slots(&mut parts, *id, device, &label, &mut problems);
        problems.extend(
            breakout_problems(design, device)
                .into_iter()
                .map(|m| Problem::device(*id, m)),
        );
    }
    check_links(design, &mut parts, &mut problems);
    let mut rules = LinkRules::default();
    for (id, link) in &design.links {
        problems.extend(
            rules
                .problems(design, *id, link)
                .into_iter()
                .map(|m| Problem::link(*id, m)),
        );
    }
    problems
}

fn check_rack(design: &Design, id: RackId, rack: &crate::model::Rack, problems: &mut Vec<Problem>) {
    if !design.parts.contains_key(&rack.part) {
        problems.push(Problem::rack(
            id,
            format!("rack {} uses unknown part \"{}\"", rack.name, rack.part),
        ));
    }
    if !rack.site.is_empty() && !design.sites.contains_key(&rack.site) {
        problems.push(Problem::rack(
            id,
            format!(
                "rack {} stands in site \"{}\", which the design's sites do not define",
                rack.name, rack.site
            ),
        ));
    }
    if rack.height_u == 0 || rack.height_u > 60 {
        problems.push(Problem::rack(
            id,
            format!(
                "rack {} has an impossible height of {}U",
                rack.name, rack.height_u
            ),
        ));
    }
}

/// A device's part (known, rack-mounted) and its rack (existing), each problem pushed; None when either is
/// missing, as nothing else about the device can be checked then.
fn check_device_mount<'a>(
    design: &'a Design,
    parts: &mut PartMemo<'a>,
    id: DeviceId,
    device: &'a Device,
    label: &str,
    problems: &mut Vec<Problem>,
) -> Option<(&'a Part, &'a crate::model::Rack)> {
    let Some(part) = parts.get(&device.part) else {
        problems.push(Problem::device(
            id,
            format!("device {label} uses unknown part \"{}\"", device.part),
        ));
        return None;
    };
    if !part.kind.is_rack_mounted() {
        problems.push(Problem::device(
            id,
            format!(
                "device {label} is a {} and cannot be mounted in a rack",
                part.name
            ),
        ));
    }
    let Some(rack) = design.racks.get(&device.rack) else {
        problems.push(Problem::device(
            id,
            format!(
                "device {label} is in rack {} which does not exist",
                device.rack
            ),
        ));
        return None;
    };
    Some((part, rack))
}

/// What the loader would refuse about one rack: [`validate`]'s rules and the figure limits
/// (`limits::check_rack`). The editor checks every rack an edit writes with it, so an edit can never make a
/// design the loader refuses (docs/limits.md, "One set of rules").
pub fn rack_problems(design: &Design, id: RackId) -> Vec<String> {
    let mut problems = Vec::new();
    let Some(rack) = design.racks.get(&id) else {
        return Vec::new();
    };
    check_rack(design, id, rack, &mut problems);
    let mut figures = Vec::new();
    super::limits::check_rack(design, id, rack, &mut figures);
    problems
        .into_iter()
        .map(|p| p.message)
        .chain(figures.into_iter().map(|p| p.message))
        .collect()
}

/// What the loader would refuse about one device apart from its units (which `Design::check_mount` checks for
/// the editor): its part, its rack, its GPU and NIC slots and their counts. See [`rack_problems`].
pub fn device_problems(design: &Design, id: DeviceId) -> Vec<String> {
    let mut problems = Vec::new();
    let Some(device) = design.devices.get(&id) else {
        return Vec::new();
    };
    let label: Cow<'_, str> = if device.name.is_empty() {
        Cow::Owned(id.to_string())
    } else {
        Cow::Borrowed(&device.name)
    };
    let mut parts = PartMemo::new(design);
    if check_device_mount(design, &mut parts, id, device, &label, &mut problems).is_some() {
        check_slots(&mut parts, id, device, &label, &mut problems);
    }
    problems.extend(
        breakout_problems(design, device)
            .into_iter()
            .map(|m| Problem::device(id, m)),
    );
    let mut figures = Vec::new();
    super::limits::check_device(id, device, &mut figures);
    problems
        .into_iter()
        .map(|p| p.message)
        .chain(figures.into_iter().map(|p| p.message))
        .collect()
}

/// What the loader would refuse about one link apart from its ends (which `Design::check_link` checks for the
/// editor): its length and its cable part. See [`rack_problems`].
pub fn link_problems(design: &Design, id: LinkId) -> Vec<String> {
    let mut problems = Vec::new();
    let Some(link) = design.links.get(&id) else {
        return Vec::new();
    };
    let mut parts = PartMemo::new(design);
    check_cable(&mut parts, &id, link, |_, p| problems.push(p.message));
    problems.extend(LinkRules::default().problems(design, id, link));
    let mut figures = Vec::new();
    super::limits::check_link(id, link, &mut figures);
    problems.extend(figures.into_iter().map(|p| p.message));
    problems
}

/// Part lookups by name, each name looked up in the design's parts once: a large design asks for the same few
/// parts (a GPU, a NIC, a cable) hundreds of thousands of times.
struct PartMemo<'a> {
    parts: &'a std::collections::BTreeMap<PartId, Part>,
    seen: HashMap<&'a str, Option<&'a Part>>,
}

impl<'a> PartMemo<'a> {
    fn new(design: &'a Design) -> Self {
        Self {
            parts: &design.parts,
            seen: HashMap::default(),
        }
    }

    fn get(&mut self, id: &'a PartId) -> Option<&'a Part> {
        let parts = self.parts;
        *self
            .seen
            .entry(id.as_str())
            .or_insert_with(|| parts.get(id))
    }
}

fn check_slots<'a>(
    parts: &mut PartMemo<'a>,
    id: DeviceId,
    device: &'a Device,
    label: &str,
    problems: &mut Vec<Problem>,
) {
    let server = match parts.get(&device.part).map(|p| &p.kind) {
        Some(PartKind::Server(s)) => Some(s),
        _ => None,
    };
    if server.is_none() && (!device.gpus.is_empty() || !device.nics.is_empty()) {
        problems.push(Problem::device(
            id,
            format!("device {label} is not a server but has GPUs or NICs in slots"),
        ));
        return;
    }
    let Some(server) = server else { return };
    for (slot, gpu) in &device.gpus {
        let Some(slot_spec) = server.gpu_slots.get(usize::from(*slot)) else {
            problems.push(Problem::device(
                id,
                format!(
                    "server {label} has no GPU slot {slot} (it has {})",
                    server.gpu_slots.len()
                ),
            ));
            continue;
        };
        match parts.get(gpu).map(|p| &p.kind) {
            Some(PartKind::Gpu(g)) => {
                if g.form != slot_spec.form {
                    let (want, got) = (form_name(slot_spec.form), form_name(g.form));
                    problems.push(Problem::device(id, format!("server {label} GPU slot {slot} takes {want} GPUs but holds {gpu} ({got})")));
                }
            }
            Some(_) => problems.push(Problem::device(
                id,
                format!("server {label} GPU slot {slot} holds {gpu}, which is not a GPU"),
            )),
            None => problems.push(Problem::device(
                id,
                format!("server {label} GPU slot {slot} holds unknown part \"{gpu}\""),
            )),
        }
    }
    for (slot, nic) in &device.nics {
        if server.nic_slots.get(usize::from(*slot)).is_none() {
            problems.push(Problem::device(
                id,
                format!(
                    "server {label} has no NIC slot {slot} (it has {})",
                    server.nic_slots.len()
                ),
            ));
            continue;
        }
        match parts.get(nic).map(|p| &p.kind) {
            Some(PartKind::Nic(_)) => {}
            Some(_) => problems.push(Problem::device(
                id,
                format!("server {label} NIC slot {slot} holds {nic}, which is not a NIC"),
            )),
            None => problems.push(Problem::device(
                id,
                format!("server {label} NIC slot {slot} holds unknown part \"{nic}\""),
            )),
        }
    }
}

fn form_name(form: FormFactor) -> &'static str {
    match form {
        FormFactor::Sxm => "SXM",
        FormFactor::Pcie => "PCIe",
    }
}

/// Where a link's problem goes among that link's problems: its ends in order, then the cable itself.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum LinkPart {
    End(u8),
    Cable,
}

fn check_links<'a>(design: &'a Design, parts: &mut PartMemo<'a>, problems: &mut Vec<Problem>) {
    let links: Vec<(&LinkId, &Link)> = design.links.iter().collect();
    // Problems keyed by (link index, part, order found), sorted at the end so they read in link order.
    let mut found: Vec<(usize, LinkPart, usize, Problem)> = Vec::new();
    // Every cable end, grouped by device (a counting pass over the devices in id order, no comparison sort): each
    // device and its part are looked up once, and a port used twice shows as neighbours once its device's ends are
    // sorted by port name (no hash of a million port names). An end at a device that does not exist is reported here.
    let ids: Vec<DeviceId> = design.devices.keys().copied().collect();
    let mut ends: Vec<(usize, usize, u8)> = Vec::with_capacity(links.len() * 2);
    for (i, (id, link)) in links.iter().enumerate() {
        // A cable from a port to itself is one problem, not also a port "used twice".
        if link.a == link.b {
            found.push((
                i,
                LinkPart::End(0),
                0,
                Problem::link(**id, format!("link {id} joins port {} to itself", link.a)),
            ));
            continue;
        }
        for (side, end) in [(0, &link.a), (1, &link.b)] {
            match ids.binary_search(&end.device) {
                Ok(k) => ends.push((k, i, side)),
                Err(_) => found.push((
                    i,
                    LinkPart::End(side),
                    0,
                    Problem::link(
                        **id,
                        format!("link {id} ends at {} which does not exist", end.device),
                    ),
                )),
            }
        }
        check_cable(parts, id, link, |k, p| {
            found.push((i, LinkPart::Cable, k, p))
        });
    }
    let (starts, ends) = grouped(ids.len(), || {
        ends.iter().map(|&(k, i, side)| (k, (i, side)))
    });
    let mut by_port: Vec<(&str, usize, u8)> = Vec::new();
    for (device, run) in design.devices.values().zip(starts.windows(2)) {
        let group = match run {
            [lo, hi] if lo < hi => ends.get(*lo as usize..*hi as usize).unwrap_or(&[]),
            _ => continue,
        };
        let part = design.parts.get(&device.part);
        by_port.clear();
        for &(i, side) in group {
            let Some((id, link)) = links.get(i) else {
                continue;
            };
            let end = if side == 0 { &link.a } else { &link.b };
            let mut report = |k: usize, message: String| {
                found.push((i, LinkPart::End(side), k, Problem::link(**id, message)));
            };
            let Some(info) = part.and_then(|p| design.port_spec_of(p, device, &end.port)) else {
                report(
                    0,
                    format!("link {id} ends at port {end} which the device does not have"),
                );
                continue;
            };
            if let Err(why) = info.accepts(&link.medium) {
                report(0, format!("link {id} at port {end}: {why}"));
            }
            by_port.push((&end.port, i, side));
        }
        // Sorted by port, then link order: each user after the first reports the one before it.
        by_port.sort_unstable();
        for pair in by_port.windows(2) {
            let [(name, before, _), (again, i, side)] = pair else {
                continue;
            };
            if name != again {
                continue;
            }
            if let (Some((other, _)), Some((id, link))) = (links.get(*before), links.get(*i)) {
                let end = if *side == 0 { &link.a } else { &link.b };
                found.push((
                    *i,
                    LinkPart::End(*side),
                    1,
                    Problem::link(**id, format!("port {end} is used by both {other} and {id}")),
                ));
            }
        }
    }
    found.sort_by_key(|(i, part, k, _)| (*i, *part, *k));
    problems.extend(found.into_iter().map(|(_, _, _, p)| p));
}

/// A link's length and cable part, each problem passed to `report` with its order.
fn check_cable<'a>(
    parts: &mut PartMemo<'a>,
    id: &LinkId,
    link: &'a Link,
    mut report: impl FnMut(usize, Problem),
) {
    if !(link.length_m.is_finite() && link.length_m >= 0.0) {
        report(
            0,
            Problem::link(
                *id,
                format!("link {id} has an impossible length of {} m", link.length_m),
            ),
        );
    }
    let Some(cable) = &link.cable else {
        return;
    };
    match parts.get(cable).map(|p| &p.kind) {
        Some(PartKind::Cable(c)) => {
            if c.protocol != link.medium.protocol() || c.gbps + 1e-9 < link.medium.gbps() {
                report(
                    1,
                    Problem::link(
                        *id,
                        format!(
                            "link {id} is {} but its cable {cable} carries {:?} at {} Gb/s",
                            link.medium, c.protocol, c.gbps
                        ),
                    ),
                );
            }
            // A cable shorter than its link is a finding (`cable-reach`), not a load error: the editor lets a
            // length be typed past the cable's reach, and what the editor makes the loader must accept.
        }
        Some(_) => report(
            1,
            Problem::link(*id, format!("link {id} uses {cable}, which is not a cable")),
        ),
        None => report(
            1,
            Problem::link(*id, format!("link {id} uses unknown cable \"{cable}\"")),
        ),
    }
}
