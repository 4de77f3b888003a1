//! Replacing a part everywhere in a design as one edit (one undo step). What changes is worked out by
//! `catalog::swap`; here it becomes an edit, tried on a copy that must validate.

use super::{Edit, EditError};
use crate::catalog::Catalog;
use crate::catalog::swap::{PartSwap, SwapError};

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
/// ports the new part lacks are re-homed (see `catalog::swap`).
pub fn swap_part(
    design: &crate::model::Design,
    catalog: &Catalog,
    from: &str,
    to: &str,
) -> Result<Edit, EditError> {
    plan(design, catalog, from, to).map(|s| s.edit)
}

impl From<SwapError> for EditError {
    fn from(e: SwapError) -> Self {
        match e {
            SwapError::Missing(what) => EditError::Missing(what),
            SwapError::Refused(why) => EditError::Refused(why),
        }
    }
}

/// The edit of a part swap: the new part, the moved cables lifted, the devices changed, the cables put back on
/// their new ports, the other cables of the old part given the new one.
pub fn edit_of(swap: &PartSwap) -> Edit {
    let mut edits = Vec::new();
    if let Some((id, part)) = &swap.new_part {
        edits.push(Edit::SetPart(id.clone(), Some(Box::new(part.clone()))));
    }
    edits.extend(swap.moved.iter().map(|(id, _)| Edit::RemoveLink(*id)));
    edits.extend(
        swap.devices
            .iter()
            .map(|(id, d)| Edit::UpdateDevice(*id, d.clone())),
    );
    edits.extend(
        swap.moved
            .iter()
            .map(|(id, l)| Edit::AddLink(*id, l.clone())),
    );
    edits.extend(
        swap.recabled
            .iter()
            .map(|(id, l)| Edit::UpdateLink(*id, l.clone())),
    );
    Edit::Batch(edits)
}

/// [`swap_part`] with the list of cables it re-homes.
pub fn plan(
    design: &crate::model::Design,
    catalog: &Catalog,
    from: &str,
    to: &str,
) -> Result<Swap, EditError> {
    let swap = crate::catalog::swap::plan(design, catalog, from, to)?;
    let edit = edit_of(&swap);
    // Try it: the result must be a design the loader would accept (slots, units, ports, cables), with every cable.
    let mut trial = design.clone();
    let applied = edit.clone().apply(&mut trial);
    let problems: Vec<String> = match applied {
        Ok(_) => crate::io::validate(&trial)
            .into_iter()
            .map(|p| p.message)
            .collect(),
        Err(e) => vec![e.to_string()],
    };
    crate::catalog::swap::refusal(&swap, problems, design.links.len(), trial.links.len())?;
    Ok(Swap {
        edit,
        rehomed: swap.rehomed,
    })
}
