//! Checks a parsed design for what the type system cannot: unknown parts, dangling references, devices outside
//! their rack or overlapping, GPUs and NICs in the wrong slots, double-booked ports and incompatible links.

use crate::model::part::{FormFactor, PartKind};
use crate::model::{Design, DeviceId, LinkId, PortRef, RackId};
use rustc_hash::FxHashMap as HashMap;
use serde::Serialize;
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
    for (id, rack) in &design.racks {
        if !design.parts.contains_key(&rack.part) {
            problems.push(Problem::rack(
                *id,
                format!("rack {} uses unknown part \"{}\"", rack.name, rack.part),
            ));
        }
        if !rack.site.is_empty() && !design.sites.contains_key(&rack.site) {
            problems.push(Problem::rack(
                *id,
                format!(
                    "rack {} stands in site \"{}\", which the design's sites do not define",
                    rack.name, rack.site
                ),
            ));
        }
        if rack.height_u == 0 || rack.height_u > 60 {
            problems.push(Problem::rack(
                *id,
                format!(
                    "rack {} has an impossible height of {}U",
                    rack.name, rack.height_u
                ),
            ));
        }
    }
    // Occupancy per rack, to find overlaps in one pass rather than comparing every pair of devices.
    let mut occupied: HashMap<(RackId, u16), DeviceId> = HashMap::default();
    for (id, device) in &design.devices {
        let label = if device.name.is_empty() {
            id.to_string()
        } else {
            device.name.clone()
        };
        let Some(part) = design.parts.get(&device.part) else {
            problems.push(Problem::device(
                *id,
                format!("device {label} uses unknown part \"{}\"", device.part),
            ));
            continue;
        };
        if !part.kind.is_rack_mounted() {
            problems.push(Problem::device(
                *id,
                format!(
                    "device {label} is a {} and cannot be mounted in a rack",
                    part.name
                ),
            ));
        }
        let Some(rack) = design.racks.get(&device.rack) else {
            problems.push(Problem::device(
                *id,
                format!(
                    "device {label} is in rack {} which does not exist",
                    device.rack
                ),
            ));
            continue;
        };
        if let Some(units) = design.device_units(device) {
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
                for u in units {
                    if let Some(other) = occupied.insert((device.rack, u), *id) {
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
        check_slots(design, *id, &label, &mut problems);
    }
    check_links(design, &mut problems);
    problems
}

fn check_slots(design: &Design, id: DeviceId, label: &str, problems: &mut Vec<Problem>) {
    let Some(device) = design.devices.get(&id) else {
        return;
    };
    let server = match design.parts.get(&device.part).map(|p| &p.kind) {
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
        match design.parts.get(gpu).map(|p| &p.kind) {
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
        match design.parts.get(nic).map(|p| &p.kind) {
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

fn check_links(design: &Design, problems: &mut Vec<Problem>) {
    let mut used: HashMap<&PortRef, LinkId> =
        HashMap::with_capacity_and_hasher(design.links.len() * 2, Default::default());
    for (id, link) in &design.links {
        // A cable from a port to itself is one problem, not also a port "used twice".
        if link.a == link.b {
            problems.push(Problem::link(
                *id,
                format!("link {id} joins port {} to itself", link.a),
            ));
            continue;
        }
        for end in [&link.a, &link.b] {
            if !design.devices.contains_key(&end.device) {
                problems.push(Problem::link(
                    *id,
                    format!("link {id} ends at {} which does not exist", end.device),
                ));
                continue;
            }
            let Some(info) = design.port_spec(end) else {
                problems.push(Problem::link(
                    *id,
                    format!("link {id} ends at port {end} which the device does not have"),
                ));
                continue;
            };
            if let Err(why) = info.accepts(&link.medium) {
                problems.push(Problem::link(
                    *id,
                    format!("link {id} at port {end}: {why}"),
                ));
            }
            if let Some(other) = used.insert(end, *id) {
                problems.push(Problem::link(
                    *id,
                    format!("port {end} is used by both {other} and {id}"),
                ));
            }
        }

        if !(link.length_m.is_finite() && link.length_m >= 0.0) {
            problems.push(Problem::link(
                *id,
                format!("link {id} has an impossible length of {} m", link.length_m),
            ));
        }
        if let Some(cable) = &link.cable {
            match design.parts.get(cable).map(|p| &p.kind) {
                Some(PartKind::Cable(c)) => {
                    if c.protocol != link.medium.protocol() || c.gbps + 1e-9 < link.medium.gbps() {
                        problems.push(Problem::link(
                            *id,
                            format!(
                                "link {id} is {} but its cable {cable} carries {:?} at {} Gb/s",
                                link.medium, c.protocol, c.gbps
                            ),
                        ));
                    }
                    if link.length_m > c.max_length_m {
                        problems.push(Problem::link(
                            *id,
                            format!(
                                "link {id} is {} m long but cable {cable} reaches {} m",
                                link.length_m, c.max_length_m
                            ),
                        ));
                    }
                }
                Some(_) => problems.push(Problem::link(
                    *id,
                    format!("link {id} uses {cable}, which is not a cable"),
                )),
                None => problems.push(Problem::link(
                    *id,
                    format!("link {id} uses unknown cable \"{cable}\""),
                )),
            }
        }
    }
}
