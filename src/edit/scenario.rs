//! The edit that puts a planning scenario's settings in place, as one undo step: its parameters and, when it
//! names another GPU model than the design's main GPU, the swap of those GPUs.

use super::{Edit, EditError};
use crate::catalog::Catalog;
use crate::model::{Design, Scenario};

/// The edit that puts a scenario's settings in place: its parameters and, when it names another GPU model than
/// the design's main GPU, the swap of those GPUs (refused with the reason when they do not fit). None when the
/// design already has the scenario's settings.
pub fn scenario_edit(
    design: &Design,
    catalog: &Catalog,
    scenario: &Scenario,
) -> Result<Option<Edit>, EditError> {
    let mut edits = Vec::new();
    let params = scenario.apply_to(&design.params);
    if params != design.params {
        edits.push(Edit::SetParams(Box::new(params)));
    }
    if let Some(to) = &scenario.gpu {
        match design.main_gpu() {
            Some(from) if from == *to => {}
            Some(from) => edits.push(super::swap::swap_part(
                design,
                catalog,
                from.as_str(),
                to.as_str(),
            )?),
            None => {
                return Err(EditError::Refused(format!(
                    "the design has no GPUs to swap for {to}"
                )));
            }
        }
    }
    Ok(match edits.len() {
        0 => None,
        1 => edits.pop(),
        _ => Some(Edit::Batch(edits)),
    })
}
