//! Replacing a part everywhere in a design ("every H100 SXM for H200 SXM", "every QM9700 for another switch") as
//! one edit, refused with the reasons when the new part does not fit a slot, the rack units, the ports or the
//! cabling: the swap is tried on a copy and the copy must validate.

use super::{Edit, EditError};
use crate::catalog::Catalog;
use crate::model::part::PartKind;
use crate::model::{Design, PartId};

fn same_kind(a: &PartKind, b: &PartKind) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b)
}

/// The edit that replaces part `from` with part `to` in every GPU slot, NIC slot, device and cable that uses it.
/// `to` comes from the design's parts or else from the catalog (and is then copied into the design).
pub fn swap_part(
    design: &Design,
    catalog: &Catalog,
    from: &str,
    to: &str,
) -> Result<Edit, EditError> {
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
    let mut edits = Vec::new();
    if !design.parts.contains_key(&to_id) {
        edits.push(Edit::SetPart(to_id.clone(), Some(Box::new(new))));
    }
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
        edits.push(Edit::UpdateDevice(*id, nd));
    }
    for (id, l) in &design.links {
        if l.cable.as_ref() == Some(&from_id) {
            let mut nl = l.clone();
            nl.cable = Some(to_id.clone());
            edits.push(Edit::UpdateLink(*id, nl));
        }
    }
    if edits.iter().all(|e| matches!(e, Edit::SetPart(..))) {
        return Err(EditError::Refused(format!(
            "nothing in the design uses {from}"
        )));
    }
    // Try it: the result must be a design the loader would accept (slots, units, ports, cables).
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
    Ok(edit)
}
