//! Planning scenarios that change the cluster, not only its settings: a GPU count, or a GPU model whose server is
//! another system than the design's (A100s do not go in a DGX H100: a DGX A100 does). Such a scenario is evaluated
//! on a cluster built anew as sizing builds one ([`super::servers_design`]: the GPU model's server, a fabric in
//! proportion, storage), carrying the design's job (training or serving) and the scenario's settings. Scenarios
//! that change only settings, or swap GPUs within the same server, are the design itself with those settings
//! (`analysis::scenarios::applied`). This is how Planning answers "120 A100s or 60 H100s?" without editing the
//! design: the design changes only when the user applies a scenario, in one undo step.

use super::{GPU_MODELS, TemplateError, server_for, servers_design};
use crate::analysis::analyze;
use crate::analysis::scenarios::{self, Headline, ScenarioResult};
use crate::catalog::{Catalog, PartKind};
use crate::edit::Edit;
use crate::model::{Design, PartId, Scenario};
use std::borrow::Cow;

/// The GPU models a cluster can be built with (the sizing templates' models), for Planning's list.
pub fn gpu_models() -> impl Iterator<Item = &'static str> {
    GPU_MODELS.iter().map(|(g, _)| *g)
}

/// GPUs in each server of a GPU model's server part (8 for a DGX).
pub fn gpus_per_server(catalog: &Catalog, gpu: &str) -> Option<usize> {
    let server = catalog.get(server_for(gpu)?)?;
    match &server.kind {
        PartKind::Server(s) => Some(s.gpu_slots.len().max(1)),
        _ => None,
    }
}

/// Whether a scenario builds its cluster anew rather than changing the design's settings or GPUs in place, and
/// with which GPU model and how many GPUs: a count is given (and differs from the design's), or the model's
/// server is another part than the one the design's GPUs are in.
pub fn rebuild(design: &Design, scenario: &Scenario) -> Option<(String, usize)> {
    let main = design.main_gpu();
    let model = scenario
        .gpu
        .as_ref()
        .or(main.as_ref())
        .map(PartId::to_string)?;
    let gpus_now: usize = design.devices.values().map(|d| d.gpus.len()).sum();
    let count = scenario.gpu_count.map_or(gpus_now, |n| n as usize);
    let servers_now: std::collections::BTreeSet<&PartId> = design
        .devices
        .values()
        .filter(|d| !d.gpus.is_empty())
        .map(|d| &d.part)
        .collect();
    let other_server = scenario.gpu.is_some()
        && main.as_ref().map(PartId::to_string) != Some(model.clone())
        && server_for(&model).is_some_and(|s| !servers_now.iter().all(|p| p.as_str() == s));
    (count != gpus_now || other_server).then_some((model, count))
}

/// The cluster a scenario is evaluated on: the design with the scenario's settings (and GPUs swapped in place),
/// or, when it [`rebuild`]s, the cluster built anew for its GPU model and count, named for what it is, with the
/// design's job and the scenario's settings. The reason when it cannot be made.
pub fn scenario_design<'a>(
    design: &'a Design,
    catalog: &Catalog,
    scenario: &Scenario,
) -> Result<Cow<'a, Design>, String> {
    let Some((model, count)) = rebuild(design, scenario) else {
        return scenarios::applied(design, catalog, scenario);
    };
    let per_server = gpus_per_server(catalog, &model).ok_or_else(|| {
        format!(
            "a cluster of {count} {model} cannot be built: Racksmith builds clusters of {}",
            gpu_models().collect::<Vec<_>>().join(", ")
        )
    })?;
    let servers = count.div_ceil(per_server).max(1);
    let mut built =
        servers_design(catalog, &model, servers).map_err(|e: TemplateError| e.to_string())?;
    built.name = format!(
        "{} x {model} ({} servers), scenario {} of {}",
        servers * per_server,
        servers,
        scenario.name,
        design.name
    );
    let mut params = scenario.apply_to(&design.params);
    // The built cluster's own cloud price follows its GPU unless the scenario sets one.
    if scenario.cloud_usd_per_gpu_hour.is_none() {
        params.cloud_usd_per_gpu_hour = None;
    }
    built.params = params;
    built.scenarios.clear();
    Ok(Cow::Owned(built))
}

/// Analyses a scenario on the cluster it stands for ([`scenario_design`]).
pub fn evaluate(design: &Design, catalog: &Catalog, scenario: &Scenario) -> ScenarioResult {
    ScenarioResult {
        scenario: scenario.clone(),
        headline: scenario_design(design, catalog, scenario).map(|d| Headline::of(&analyze(&d))),
    }
}

/// Analyses every scenario (one full analysis each).
pub fn evaluate_all(
    design: &Design,
    catalog: &Catalog,
    scenarios: &[Scenario],
) -> Vec<ScenarioResult> {
    scenarios
        .iter()
        .map(|s| evaluate(design, catalog, s))
        .collect()
}

/// The edit that applies a scenario to the design, one undo step (None when the design already has its
/// settings): a scenario that [`rebuild`]s replaces the design with the cluster built for it (its scenarios kept);
/// any other puts its settings in place and swaps its GPUs (`edit::scenario`), and renames the design when its
/// name carries the old GPU's label ("L40S inference row" with H100 PCIe swapped in becomes "H100 inference row").
pub fn apply_edit(
    design: &Design,
    catalog: &Catalog,
    scenario: &Scenario,
) -> Result<Option<Edit>, String> {
    if rebuild(design, scenario).is_some() {
        let mut made = scenario_design(design, catalog, scenario)?.into_owned();
        made.scenarios = design.scenarios.clone();
        return Ok(Some(Edit::ReplaceDesign(Box::new(made))));
    }
    let mut edits: Vec<Edit> = crate::edit::scenario::scenario_edit(design, catalog, scenario)
        .map_err(|e| e.to_string())?
        .into_iter()
        .collect();
    if let (Some(from), Some(to)) = (design.main_gpu(), scenario.gpu.as_ref()) {
        let name = renamed(&design.name, from.as_str(), to.as_str());
        if name != design.name {
            edits.push(Edit::SetMeta {
                name,
                notes: design.notes.clone(),
            });
        }
    }
    Ok(match edits.len() {
        0 => None,
        1 => edits.pop(),
        _ => Some(Edit::Batch(edits)),
    })
}

/// A GPU model's short label as names carry it: "h100-sxm" -> "H100", "l40s" -> "L40S".
fn label(model: &str) -> String {
    model
        .split('-')
        .next()
        .unwrap_or(model)
        .to_ascii_uppercase()
}

/// `name` with the old model's label replaced by the new one's, when it carries it.
fn renamed(name: &str, from: &str, to: &str) -> String {
    let (old, new) = (label(from), label(to));
    if old.is_empty() || old == new {
        name.to_string()
    } else {
        name.replace(&old, &new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog() -> Catalog {
        Catalog::builtin().unwrap()
    }

    #[test]
    fn a100_for_a_dgx_h100_design_is_a_dgx_a100_cluster_of_the_same_gpus() {
        // Issue 45: choosing A100 put A100s into the DGX H100 chassis. The SuperPOD sample has 31 DGX H100 = 248
        // GPUs; as a scenario, A100 builds 248 / 8 = 31 DGX A100, and the design is not touched.
        let c = catalog();
        let d = crate::samples::sample("superpod-h100-1su").unwrap();
        let s = Scenario {
            name: "A100".into(),
            gpu: Some(PartId::new("a100-sxm")),
            ..Scenario::from_params("A100", &d.params, None)
        };
        assert_eq!(rebuild(&d, &s), Some(("a100-sxm".to_string(), 248)));
        let built = scenario_design(&d, &c, &s).unwrap();
        let dgx_a100 = built
            .devices
            .values()
            .filter(|x| x.part.as_str() == "dgx-a100")
            .count();
        assert_eq!(dgx_a100, 31);
        assert!(
            built
                .devices
                .values()
                .all(|x| x.part.as_str() != "dgx-h100")
        );
        assert!(
            built.name.starts_with("248 x a100-sxm (31 servers)"),
            "{}",
            built.name
        );
        // A swap within the same server is the design in place: L40S for H100 PCIe in the 4U PCIe server.
        let l = crate::samples::sample("l40s-inference-pcie").unwrap();
        let swap = Scenario {
            gpu: Some(PartId::new("h100-pcie")),
            ..Scenario::from_params("H100 PCIe", &l.params, None)
        };
        assert_eq!(rebuild(&l, &swap), None);
        assert_eq!(
            renamed("L40S inference row", "l40s", "h100-pcie"),
            "H100 inference row"
        );
    }

    #[test]
    fn planning_answers_120_a100_or_60_h100() {
        // The meeting's question on the H100 training sample (60 H100 = 7.5 DGX, built as 8 DGX H100 = 64 GPUs
        // when the count does not fill a server: ceil(60 / 8) = 8), and 120 A100 = 15 DGX A100, same job.
        let c = catalog();
        let d = crate::samples::sample("h100-60gpu-training").unwrap();
        let a100 = Scenario {
            gpu: Some(PartId::new("a100-sxm")),
            gpu_count: Some(120),
            ..Scenario::from_params("120 A100", &d.params, None)
        };
        let results = evaluate_all(&d, &c, std::slice::from_ref(&a100));
        let h = results[0].headline.as_ref().unwrap();
        assert_eq!(h.gpus, 120);
        // Days by hand are the analysis's own formula (tested in analysis::latency); here: the A100 cluster's
        // days are those of a design of 15 DGX A100 with the same job, built and analysed directly.
        let direct = {
            let mut x = servers_design(&c, "a100-sxm", 15).unwrap();
            x.params = a100.apply_to(&d.params);
            x.params.cloud_usd_per_gpu_hour = None;
            analyze(&x)
        };
        assert_eq!(
            h.training_days,
            direct.latency.training.as_ref().map(|t| t.days)
        );
        // The design was not edited: evaluation works on copies.
        assert_eq!(d, crate::samples::sample("h100-60gpu-training").unwrap());
    }
}
