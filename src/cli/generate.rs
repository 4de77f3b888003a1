//! The commands that generate a design rather than read one: `new` (a design from a template), `size` (the smallest
//! design that meets a requirement) and `scenario` (a planning question answered with its derivation and its
//! design), with the reader of the `--key value` inputs that `new` and `scenario` share ([`key_values`]).

use super::args::SizeWhat;
use super::load_catalog;
use super::output::{out, outln, write_out};
use racksmith::{analysis, io};
use std::path::PathBuf;
use std::process::ExitCode;

/// `racksmith size`: the smallest design that meets a requirement, with why that size.
pub fn size(what: SizeWhat, user_catalog: Option<&std::path::Path>) -> anyhow::Result<ExitCode> {
    use racksmith::templates::sizing;
    let catalog = load_catalog(user_catalog)?;
    let (results, output) = match what {
        SizeWhat::Serving {
            requests_per_s,
            p99_ms,
            replicas: r,
            output,
        } => {
            let need = sizing::ServingNeed {
                requests_per_s,
                p99_ms,
                utilisation: r.utilisation,
                replica_rps: r.replica_rps,
                model: r.model(),
                gpu: r.gpu,
                gpus_per_replica: r.gpus_per_replica,
            };
            (vec![sizing::serving(&catalog, &need)?], output)
        }
        SizeWhat::Budget {
            usd_per_year,
            p99_ms,
            replicas: r,
            output,
        } => {
            let (replica_rps, _) = sizing::resolve_replica_rps(
                &catalog,
                &r.gpu,
                r.gpus_per_replica,
                r.replica_rps,
                r.model().as_ref(),
            )?;
            let need = sizing::BudgetNeed {
                usd_per_year,
                gpu: r.gpu,
                replica_rps,
                gpus_per_replica: r.gpus_per_replica,
                utilisation: r.utilisation,
                p99_ms: Some(p99_ms),
            };
            let (options, owned) = sizing::budget(&catalog, &need)?;
            outln!("${usd_per_year:.0} a year buys ({} GPUs):", need.gpu);
            for o in &options {
                outln!(
                    "  {:<26} {:>6} GPUs  {:>9.1} req/s  ${:.0}/yr{}",
                    o.option,
                    o.gpus,
                    o.requests_per_s,
                    o.usd_per_year,
                    o.usd_per_million_requests
                        .map_or(String::new(), |c| format!("  ${c:.2} per 1M requests"))
                );
            }
            if owned.is_none() {
                outln!("  (one owned server costs more than the budget per year)");
            }
            (owned.into_iter().collect(), output)
        }
        SizeWhat::Training {
            params,
            tokens,
            days,
            gpu,
            mfu,
            tp,
            pp,
            output,
        } => {
            if output.is_some() && gpu.len() > 1 {
                anyhow::bail!("-o writes one design: give one --gpu, or compare without -o");
            }
            let mut out = Vec::new();
            for g in gpu {
                let need = sizing::TrainingNeed {
                    parameters: params,
                    tokens,
                    days,
                    gpu: g,
                    mfu,
                    tensor_parallel: tp.unwrap_or(0),
                    pipeline_parallel: pp.unwrap_or(0),
                };
                out.push(sizing::training(&catalog, &need)?);
            }
            (out, output)
        }
    };
    for s in &results {
        if s.gpus == 0 {
            anyhow::bail!("{}", no_gpus(&s.design));
        }
        outln!("{}", s.design.name);
        outln!(
            "  {} servers, {} GPUs ({}), {} racks, {:.1} kW IT, capex ${:.0}, TCO ${:.0}, ${:.2}/GPU-h owned",
            s.servers,
            s.gpus,
            s.gpu,
            s.racks,
            s.it_kw,
            s.capex_usd,
            s.tco_usd,
            s.usd_per_gpu_hour
        );
        outln!(
            "  switches: {}; size set by: {}",
            racksmith::templates::switch_tiers_text(&s.switches_by_tier),
            s.limit
        );
        for (k, v) in &s.why {
            outln!("  {k}: {v}");
        }
    }
    if let (Some(path), [one]) = (output, results.as_slice()) {
        io::write_atomic(
            &path,
            io::design_to_loadable_string(&one.design)?.as_bytes(),
        )?;
        eprintln!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// `racksmith scenario`: a planning question answered with its derivation.
pub fn scenario(
    name: Option<String>,
    list: bool,
    output: Option<PathBuf>,
    inputs: &[String],
    user_catalog: Option<&std::path::Path>,
) -> anyhow::Result<ExitCode> {
    use racksmith::templates::scenarios;
    let Some(name) = name.filter(|_| !list) else {
        let catalog = load_catalog(user_catalog)?;
        outln!("Planning questions (racksmith scenario NAME [--input value ...] [-o FILE]):\n");
        for s in scenarios::list() {
            outln!("{}: {}", s.name, s.question);
            for i in s.inputs {
                outln!(
                    "  --{:<22} {} ({} to {}, default {})",
                    i.name,
                    i.label,
                    i.min,
                    i.max,
                    i.default_in(&catalog)
                );
            }
        }
        return Ok(ExitCode::SUCCESS);
    };
    let mut output = output;
    let pairs = key_values(inputs, "an input such as --mfu", &mut output)?;
    let mut given = Vec::new();
    for (k, v) in pairs {
        let Ok(v) = v.parse::<f64>() else {
            anyhow::bail!("--{k} {v}: a number");
        };
        given.push((k, v));
    }
    let catalog = load_catalog(user_catalog)?;
    let a = scenarios::answer(&catalog, &name, &given)?;
    if let Some(s) = scenarios::find(&name) {
        outln!("{}", s.question);
    }
    outln!("{}", a.headline);
    for (k, v) in &a.derivation {
        outln!("  {k}: {v}");
    }
    if let Some(path) = output {
        io::write_atomic(&path, io::design_to_loadable_string(&a.design)?.as_bytes())?;
        eprintln!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// The `--key value` (or `--key=value`) pairs of a command that takes named inputs, in order, and `-o FILE` /
/// `--output FILE` among them, which sets `output`; `example` names what was expected in the error for a stray word.
fn key_values(
    args: &[String],
    example: &str,
    output: &mut Option<PathBuf>,
) -> anyhow::Result<Vec<(String, String)>> {
    let mut pairs = Vec::new();
    let mut it = args.iter();
    while let Some(key) = it.next() {
        if key == "-o" || key == "--output" {
            *output = it.next().map(PathBuf::from);
            continue;
        }
        let Some(k) = key.strip_prefix("--") else {
            anyhow::bail!("expected {example}, found \"{key}\"");
        };
        let (k, v) = match k.split_once('=') {
            Some((k, v)) => (k.to_string(), v.to_string()),
            None => {
                let Some(v) = it.next() else {
                    anyhow::bail!("--{k} needs a value");
                };
                (k.to_string(), v.clone())
            }
        };
        pairs.push((k, v));
    }
    Ok(pairs)
}

/// `racksmith new`: a design from a template, with a summary of what it holds on standard error.
pub fn new_design(
    template: Option<String>,
    list: bool,
    help: bool,
    output: Option<PathBuf>,
    options: &[String],
    user_catalog: Option<&std::path::Path>,
) -> anyhow::Result<ExitCode> {
    use racksmith::templates;
    let wants_help = help || options.iter().any(|o| o == "--help" || o == "-h");
    let Some(name) = template.filter(|_| !list) else {
        outln!("Templates (racksmith new TEMPLATE [--option value ...] -o FILE):\n");
        for t in templates::list() {
            outln!("{}", templates::help(t));
        }
        return Ok(ExitCode::SUCCESS);
    };
    if wants_help {
        let Some(t) = templates::list().iter().find(|t| t.name == name) else {
            anyhow::bail!("no template \"{name}\"; racksmith new --list shows them");
        };
        out!("{}", templates::help(t));
        return Ok(ExitCode::SUCCESS);
    }
    let mut output = output;
    let pairs = key_values(options, "an option such as --su", &mut output)?;
    let catalog = load_catalog(user_catalog)?;
    let design = templates::generate(&catalog, &name, &pairs)?;
    let report = analysis::analyze(&design);
    let p = templates::preview(&design, &report);
    eprintln!(
        "{}: {} GPUs in {} servers, {} racks, switches: {}, {} cables, {:.1} kW IT, capex ${:.0}",
        design.name,
        p.gpus,
        p.servers,
        p.racks,
        templates::switch_tiers_text(&p.switches_by_tier),
        design.links.len(),
        p.it_kw,
        p.capex_usd
    );
    if p.gpus == 0 {
        anyhow::bail!("{}", no_gpus(&design));
    }
    let text = io::design_to_loadable_string(&design)?;
    write_out(output.as_deref(), text.as_bytes(), true)?;
    Ok(ExitCode::SUCCESS)
}

/// Why a generated design holds no GPU: the server parts it uses and their GPU slots (a user part may have none).
fn no_gpus(design: &racksmith::model::Design) -> String {
    let mut servers: Vec<String> = design
        .parts
        .iter()
        .filter_map(|(id, p)| match &p.kind {
            racksmith::catalog::PartKind::Server(s) => {
                Some(format!("{id} has {} GPU slots", s.gpu_slots.len()))
            }
            _ => None,
        })
        .collect();
    servers.dedup();
    format!(
        "the design holds no GPU, so it was not written ({}): choose a server part with GPU slots",
        if servers.is_empty() {
            "it has no server".to_string()
        } else {
            servers.join(", ")
        }
    )
}
