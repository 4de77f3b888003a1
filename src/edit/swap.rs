//! Replacing a part everywhere in a design ("every H100 SXM for H200 SXM", "every QM9700 for another switch") as
//! one edit, refused with the reasons when the new part does not fit a slot, the rack units, the ports or the
//! cabling: the swap is tried on a copy and the copy must validate.
//!
//! A swap never loses a cable. When the new part has fewer ports, or its ports cannot carry a cable's medium, each
//! such cable is re-homed to a free port of the same device that accepts the cable's medium and has the same role
//! (a switch port for a switch port, a compute NIC port for a compute NIC port, the same NIC slot first); when some
//! cable finds no such port the swap is refused, naming those cables.

use super::{Edit, EditError};
use crate::catalog::Catalog;
use crate::model::part::PartKind;
use crate::model::{Design, Device, DeviceId, Link, LinkId, PartId, PortRef};
use std::collections::{BTreeMap, BTreeSet};

fn same_kind(a: &PartKind, b: &PartKind) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b)
}

/// A swap ready to apply: the edit and the cables it moves to other ports.
#[derive(Debug, Clone, PartialEq)]
pub struct Swap {
    /// The edit (one undo step).
    pub edit: Edit,
    /// Each cable moved to another port, in words: "link#12 (leaf-01 p63 - spine-01 p5): leaf-01 p63 -> p61".
    pub rehomed: Vec<String>,
}

/// The edit that replaces part `from` with part `to` in every GPU slot, NIC slot, device and cable that uses it.
/// `to` comes from the design's parts or else from the catalog (and is then copied into the design). Cables on
/// ports the new part lacks are re-homed (see [`plan`]).
pub fn swap_part(
    design: &Design,
    catalog: &Catalog,
    from: &str,
    to: &str,
) -> Result<Edit, EditError> {
    plan(design, catalog, from, to).map(|s| s.edit)
}

/// The NIC slot prefix of a server port ("nic3/" of "nic3/p1"), so that a cable re-homed on a server stays on its
/// adapter when it can.
fn nic_prefix(port: &str) -> Option<&str> {
    port.find('/').and_then(|at| port.get(..=at))
}

/// [`swap_part`] with the list of cables it re-homes.
pub fn plan(design: &Design, catalog: &Catalog, from: &str, to: &str) -> Result<Swap, EditError> {
    let from_id = PartId::new(from);
    let to_id = PartId::new(to);
    let Some(old) = design.parts.get(&from_id) else {
        return Err(EditError::Missing(format!("part \"{from}\" in the design")));
    };
    let new = match design.parts.get(&to_id).or_else(|| catalog.get(to)) {
        Some(p) => p.clone(),
        None => {
            return Err(EditError::Missing(format!(
                "part \"{to}\" in the design or the catalog"
            )));
        }
    };
    if from_id == to_id {
        return Err(EditError::Refused(format!(
            "{from} would be replaced by itself"
        )));
    }
    if !same_kind(&old.kind, &new.kind) {
        return Err(EditError::Refused(format!(
            "{from} ({}) and {to} ({}) are different kinds of part: a part can only be replaced by one of its kind",
            old.kind.category().label(),
            new.kind.category().label()
        )));
    }
    let mut devices: BTreeMap<DeviceId, Device> = BTreeMap::new();
    for (id, d) in &design.devices {
        let uses = d.part == from_id
            || d.gpus.values().any(|p| *p == from_id)
            || d.nics.values().any(|p| *p == from_id);
        if !uses {
            continue;
        }
        let mut nd = d.clone();
        if nd.part == from_id {
            nd.part = to_id.clone();
        }
        for p in nd.gpus.values_mut().chain(nd.nics.values_mut()) {
            if *p == from_id {
                *p = to_id.clone();
            }
        }
        devices.insert(*id, nd);
    }
    let cables: Vec<LinkId> = design
        .links
        .iter()
        .filter(|(_, l)| l.cable.as_ref() == Some(&from_id))
        .map(|(id, _)| *id)
        .collect();
    if devices.is_empty() && cables.is_empty() {
        return Err(EditError::Refused(format!(
            "nothing in the design uses {from}"
        )));
    }

    // The devices as they will be, to ask which ports they will have.
    let mut after = design.clone();
    after.parts.insert(to_id.clone(), new.clone());
    for (id, nd) in &devices {
        after.devices.insert(*id, nd.clone());
    }
    let fits = |end: &PortRef, link: &Link| {
        after
            .port_spec(end)
            .is_some_and(|s| s.accepts(&link.medium).is_ok())
    };
    // Cable ends on a swapped device whose port the new part lacks or cannot run the cable on.
    let mut displaced: BTreeMap<LinkId, Vec<bool>> = BTreeMap::new();
    for (id, l) in &design.links {
        let ends: Vec<bool> = [&l.a, &l.b]
            .iter()
            .map(|end| devices.contains_key(&end.device) && !fits(end, l))
            .collect();
        if ends.iter().any(|x| *x) {
            displaced.insert(*id, ends);
        }
    }
    // Free ports of each swapped device once the displaced cables are lifted.
    let mut taken: BTreeSet<PortRef> = BTreeSet::new();
    for (id, l) in &design.links {
        let ends = displaced.get(id);
        for (k, end) in [&l.a, &l.b].into_iter().enumerate() {
            if !ends.and_then(|e| e.get(k)).copied().unwrap_or(false) {
                taken.insert(end.clone());
            }
        }
    }
    let mut moved: Vec<(LinkId, Link)> = Vec::new();
    let mut rehomed = Vec::new();
    let mut homeless = Vec::new();
    for (id, ends) in &displaced {
        let Some(l) = design.links.get(id) else {
            continue;
        };
        let mut nl = l.clone();
        let mut ok = true;
        let mut notes = Vec::new();
        for (k, is_displaced) in ends.iter().enumerate() {
            if !is_displaced {
                continue;
            }
            let end = if k == 0 { &mut nl.a } else { &mut nl.b };
            let role = design.port_spec(end).map(|s| s.role);
            let prefix = nic_prefix(&end.port).map(str::to_string);
            let candidates: Vec<String> = after
                .ports(end.device)
                .into_iter()
                .filter(|p| Some(p.role) == role || role.is_none())
                .filter(|p| p.accepts(&l.medium).is_ok())
                .filter(|p| !taken.contains(&PortRef::new(end.device, p.name.clone())))
                .map(|p| p.name)
                .collect();
            let pick = candidates
                .iter()
                .find(|n| prefix.as_deref().is_some_and(|pre| n.starts_with(pre)))
                .or_else(|| candidates.first())
                .cloned();
            match pick {
                Some(port) => {
                    let name = design
                        .devices
                        .get(&end.device)
                        .map_or_else(|| end.device.to_string(), |d| d.name.clone());
                    notes.push(format!("{name} {} -> {port}", end.port));
                    end.port = port;
                    taken.insert(end.clone());
                }
                None => ok = false,
            }
        }
        if ok {
            if cables.contains(id) {
                nl.cable = Some(to_id.clone());
            }
            rehomed.push(format!(
                "{}: {}",
                design.describe_link(*id),
                notes.join(", ")
            ));
            moved.push((*id, nl));
        } else {
            homeless.push(design.describe_link(*id));
        }
    }
    if !homeless.is_empty() {
        let n = homeless.len();
        let shown: Vec<&str> = homeless.iter().take(8).map(String::as_str).collect();
        return Err(EditError::Refused(format!(
            "{to} does not fit where {from} is: {n} cable{} would have no free port of {to} that carries {}: {}{}",
            if n == 1 { "" } else { "s" },
            if n == 1 { "it" } else { "them" },
            shown.join(", "),
            if n > shown.len() {
                format!(" (and {} more)", n - shown.len())
            } else {
                String::new()
            }
        )));
    }

    let mut edits = Vec::new();
    if !design.parts.contains_key(&to_id) {
        edits.push(Edit::SetPart(to_id.clone(), Some(Box::new(new))));
    }
    // Lift the cables that move, change the devices, put the cables back on their new ports.
    edits.extend(moved.iter().map(|(id, _)| Edit::RemoveLink(*id)));
    edits.extend(devices.into_iter().map(|(id, d)| Edit::UpdateDevice(id, d)));
    edits.extend(moved.into_iter().map(|(id, l)| Edit::AddLink(id, l)));
    for id in cables {
        if displaced.contains_key(&id) {
            continue;
        }
        if let Some(l) = design.links.get(&id) {
            let mut nl = l.clone();
            nl.cable = Some(to_id.clone());
            edits.push(Edit::UpdateLink(id, nl));
        }
    }
    // Try it: the result must be a design the loader would accept (slots, units, ports, cables), with every cable.
    let edit = Edit::Batch(edits);
    let mut trial = design.clone();
    let applied = edit.clone().apply(&mut trial);
    let mut problems: Vec<String> = match applied {
        Ok(_) => crate::io::validate(&trial)
            .into_iter()
            .map(|p| p.message)
            .collect(),
        Err(e) => vec![e.to_string()],
    };
    if problems.is_empty() && trial.links.len() != design.links.len() {
        problems.push(format!(
            "{} cables would be lost",
            design.links.len().saturating_sub(trial.links.len())
        ));
    }
    if !problems.is_empty() {
        let n = problems.len();
        problems.truncate(3);
        return Err(EditError::Refused(format!(
            "{to} does not fit where {from} is: {}{}",
            problems.join("; "),
            if n > 3 {
                format!(" (and {} more)", n - 3)
            } else {
                String::new()
            }
        )));
    }
    Ok(Swap { edit, rehomed })
}
