//! Replacing a part everywhere in a design ("every H100 SXM for H200 SXM", "every QM9700 for another switch"),
//! worked out as data: which devices change, which cables take the new cable part, and which cables move to
//! other ports. The edit layer turns it into one undoable edit (`edit::swap`); the planning scenarios apply it to
//! a copy of the design to analyse it, with no edit at all.
//!
//! A swap never loses a cable. When the new part has fewer ports, or its ports cannot carry a cable's medium, each
//! such cable is re-homed to a free port of the same device that accepts the cable's medium and has the same role
//! (a switch port for a switch port, a compute NIC port for a compute NIC port, the same NIC slot first); when some
//! cable finds no such port the swap is refused, naming those cables.

use super::Catalog;
use crate::model::part::{Part, PartKind};
use crate::model::{Design, Device, DeviceId, Link, LinkId, PartId, PortRef};
use std::collections::{BTreeMap, BTreeSet};

/// Why a swap cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SwapError {
    /// A part named is in neither the design nor the catalog.
    #[error("{0} does not exist")]
    Missing(String),
    /// The new part does not fit, with the reasons.
    #[error("{0}")]
    Refused(String),
}

/// A part swap worked out: what it changes in the design.
#[derive(Debug, Clone, PartialEq)]
pub struct PartSwap {
    /// The part replaced.
    pub from: PartId,
    /// The part put in its place.
    pub to: PartId,
    /// The new part's spec, when the design does not hold it yet (it comes from the catalog).
    pub new_part: Option<(PartId, Part)>,
    /// Every device that uses the old part (as itself, a GPU or a NIC), as it will be.
    pub devices: Vec<(DeviceId, Device)>,
    /// Cables moved to other ports of their devices, as they will be (with the new cable part when they were of
    /// the old one).
    pub moved: Vec<(LinkId, Link)>,
    /// Cables of the old part that stay on their ports, with the new cable part.
    pub recabled: Vec<(LinkId, Link)>,
    /// Each cable moved, in words: "link#12 (leaf-01 p63 - spine-01 p5): leaf-01 p63 -> p61".
    pub rehomed: Vec<String>,
}

impl PartSwap {
    /// Makes the changes in a design (the one it was planned on).
    pub fn apply_to(&self, design: &mut Design) {
        if let Some((id, part)) = &self.new_part {
            design.parts.insert(id.clone(), part.clone());
        }
        for (id, _) in &self.moved {
            design.links.remove(id);
        }
        for (id, d) in &self.devices {
            design.devices.insert(*id, d.clone());
        }
        for (id, l) in self.moved.iter().chain(&self.recabled) {
            design.links.insert(*id, l.clone());
        }
    }

    /// The design with the swap made, when it is one the loader would accept (slots, units, ports, cables, with
    /// every cable kept); else why not, with the first three problems.
    pub fn trial(&self, design: &Design) -> Result<Design, SwapError> {
        let mut trial = design.clone();
        self.apply_to(&mut trial);
        let problems: Vec<String> = crate::io::validate(&trial)
            .into_iter()
            .map(|p| p.message)
            .collect();
        refusal(self, problems, design.links.len(), trial.links.len())?;
        Ok(trial)
    }
}

/// The refusal for a swap whose trial has problems or lost cables, in the words the app and the command line show.
pub fn refusal(
    swap: &PartSwap,
    mut problems: Vec<String>,
    links_before: usize,
    links_after: usize,
) -> Result<(), SwapError> {
    if problems.is_empty() && links_after != links_before {
        problems.push(format!(
            "{} cables would be lost",
            links_before.saturating_sub(links_after)
        ));
    }
    if problems.is_empty() {
        return Ok(());
    }
    let n = problems.len();
    problems.truncate(3);
    Err(SwapError::Refused(format!(
        "{} does not fit where {} is: {}{}",
        swap.to,
        swap.from,
        problems.join("; "),
        if n > 3 {
            format!(" (and {} more)", n - 3)
        } else {
            String::new()
        }
    )))
}

fn same_kind(a: &PartKind, b: &PartKind) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b)
}

/// The NIC slot prefix of a server port ("nic3/" of "nic3/p1"), so that a cable re-homed on a server stays on its
/// adapter when it can.
fn nic_prefix(port: &str) -> Option<&str> {
    port.find('/').and_then(|at| port.get(..=at))
}

/// What replacing part `from` with part `to` changes (see the module comment), or why it cannot be done: the
/// new part, the devices and cables that use the old one, and the cables moved to other ports. Not yet checked as
/// a whole: [`PartSwap::trial`] does that.
///
/// Each step reads what the steps before it found (the parts, the devices as they will be, the ends displaced, the
/// ports taken), in the order the re-homing rules are stated in.
pub fn plan(
    design: &Design,
    catalog: &Catalog,
    from: &str,
    to: &str,
) -> Result<PartSwap, SwapError> {
    let (from_id, to_id, new) = parts(design, catalog, from, to)?;
    let (devices, cables) = users(design, &from_id, &to_id);
    if devices.is_empty() && cables.is_empty() {
        return Err(SwapError::Refused(format!(
            "nothing in the design uses {from}"
        )));
    }

    // The devices as they will be, to ask which ports they will have.
    let mut after = design.clone();
    after.parts.insert(to_id.clone(), new.clone());
    for (id, nd) in &devices {
        after.devices.insert(*id, nd.clone());
    }
    let (displaced, taken) = displaced(design, &after, &devices);
    let (moved, rehomed, homeless) = rehome(design, &after, &displaced, taken, (&cables, &to_id));
    if !homeless.is_empty() {
        return Err(homeless_error(from, to, &homeless));
    }

    let recabled: Vec<(LinkId, Link)> = cables
        .iter()
        .filter(|id| !displaced.contains_key(id))
        .filter_map(|id| {
            let mut nl = design.links.get(id)?.clone();
            nl.cable = Some(to_id.clone());
            Some((*id, nl))
        })
        .collect();
    Ok(PartSwap {
        from: from_id,
        new_part: (!design.parts.contains_key(&to_id)).then_some((to_id.clone(), new)),
        to: to_id,
        devices: devices.into_iter().collect(),
        moved,
        recabled,
        rehomed,
    })
}

/// The two parts of a swap, `from` in the design and `to` from the design or the catalog; refused when either is
/// missing, they are the same, or they are of different kinds.
fn parts(
    design: &Design,
    catalog: &Catalog,
    from: &str,
    to: &str,
) -> Result<(PartId, PartId, Part), SwapError> {
    let from_id = PartId::new(from);
    let to_id = PartId::new(to);
    let Some(old) = design.parts.get(&from_id) else {
        return Err(SwapError::Missing(format!("part \"{from}\" in the design")));
    };
    let new = match design.parts.get(&to_id).or_else(|| catalog.get(to)) {
        Some(p) => p.clone(),
        None => {
            return Err(SwapError::Missing(format!(
                "part \"{to}\" in the design or the catalog"
            )));
        }
    };
    if from_id == to_id {
        return Err(SwapError::Refused(format!(
            "{from} would be replaced by itself"
        )));
    }
    if !same_kind(&old.kind, &new.kind) {
        return Err(SwapError::Refused(format!(
            "{from} ({}) and {to} ({}) are different kinds of part: a part can only be replaced by one of its kind",
            old.kind.category().label(),
            new.kind.category().label()
        )));
    }
    Ok((from_id, to_id, new))
}

/// What uses part `from_id`: the devices (as they will be, with `to_id` in its place) and the cables.
fn users(
    design: &Design,
    from_id: &PartId,
    to_id: &PartId,
) -> (BTreeMap<DeviceId, Device>, Vec<LinkId>) {
    let mut devices: BTreeMap<DeviceId, Device> = BTreeMap::new();
    for (id, d) in &design.devices {
        let uses = d.part == *from_id
            || d.gpus.values().any(|p| p == from_id)
            || d.nics.values().any(|p| p == from_id);
        if !uses {
            continue;
        }
        let mut nd = d.clone();
        if nd.part == *from_id {
            nd.part = to_id.clone();
        }
        for p in nd.gpus.values_mut().chain(nd.nics.values_mut()) {
            if p == from_id {
                *p = to_id.clone();
            }
        }
        devices.insert(*id, nd);
    }
    let cables: Vec<LinkId> = design
        .links
        .iter()
        .filter(|(_, l)| l.cable.as_ref() == Some(from_id))
        .map(|(id, _)| *id)
        .collect();
    (devices, cables)
}

/// The cable ends on a swapped device whose port the new part lacks or cannot run the cable on (per cable, which
/// of its two ends), and the ports still taken once those are lifted.
fn displaced(
    design: &Design,
    after: &Design,
    devices: &BTreeMap<DeviceId, Device>,
) -> (BTreeMap<LinkId, Vec<bool>>, BTreeSet<PortRef>) {
    let fits = |end: &PortRef, link: &Link| {
        after
            .port_spec(end)
            .is_some_and(|s| s.accepts(&link.medium).is_ok())
    };
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
    (displaced, taken)
}

/// Moves each displaced end to a free port of its device that carries the cable (of the same role, and the same
/// NIC when it has one free), the cable taking `to` when it was `from`. Returns the cables moved, what moved
/// where, and the cables with no free port.
fn rehome(
    design: &Design,
    after: &Design,
    displaced: &BTreeMap<LinkId, Vec<bool>>,
    mut taken: BTreeSet<PortRef>,
    (cables, to_id): (&[LinkId], &PartId),
) -> (Vec<(LinkId, Link)>, Vec<String>, Vec<String>) {
    let mut moved: Vec<(LinkId, Link)> = Vec::new();
    let mut rehomed = Vec::new();
    let mut homeless = Vec::new();
    for (id, ends) in displaced {
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
                    end.port = port.into();
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
    (moved, rehomed, homeless)
}

/// The refusal when cables would have no free port: how many, and the first few.
fn homeless_error(from: &str, to: &str, homeless: &[String]) -> SwapError {
    let n = homeless.len();
    let shown: Vec<&str> = homeless.iter().take(8).map(String::as_str).collect();
    SwapError::Refused(format!(
        "{to} does not fit where {from} is: {n} cable{} would have no free port of {to} that carries {}: {}{}",
        if n == 1 { "" } else { "s" },
        if n == 1 { "it" } else { "them" },
        shown.join(", "),
        if n > shown.len() {
            format!(" (and {} more)", n - shown.len())
        } else {
            String::new()
        }
    ))
}
