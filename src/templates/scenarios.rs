//! The planning questions architects and CTOs are asked, as guided walk-throughs: each builds its design from the
//! templates, sizing and samples, runs the analysis the app shows, and answers with a headline and its derivation
//! (the formula, the numbers put into it, the source of each figure). `racksmith scenario NAME` prints one; the
//! app's Help > Planning questions shows them with sliders for the inputs and opens the design.
//! (Not to be confused with `analysis::scenarios`, the what-if planning scenarios of one design.)

use super::TemplateError;
use super::sizing;
use crate::analysis::format::{thousands, usd};
use crate::analysis::{Report, analyze};
use crate::catalog::Catalog;
use crate::model::Design;

/// One input of a scenario: a slider in the app, `--name value` on the command line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Input {
    /// Name on the command line, without `--`.
    pub name: &'static str,
    /// Label in the app.
    pub label: &'static str,
    /// Value used when the input is not given; where the app's slider starts (but see `estimated`).
    pub default: f64,
    /// Whether the default is the replica rate the serving defaults give ([`sizing::default_replica_rps`] on
    /// [`sizing::SERVING_DEFAULTS`]'s GPU), as File > Size and `racksmith size` estimate it; `default` is then
    /// used only when the catalog cannot give the estimate.
    pub estimated: bool,
    /// Lowest value accepted (a smaller one is refused) and the low end of the app's slider.
    pub min: f64,
    /// Highest value accepted (a larger one is refused) and the high end of the app's slider.
    pub max: f64,
}

impl Input {
    /// The value used when the input is not given, with the catalog's figures where the default is estimated.
    pub fn default_in(&self, catalog: &Catalog) -> f64 {
        if self.estimated {
            sizing::default_replica_rps(catalog, sizing::SERVING_DEFAULTS.gpu)
                .unwrap_or(self.default)
        } else {
            self.default
        }
    }
}

/// A planning question.
#[derive(Debug, Clone, Copy)]
pub struct Scenario {
    /// Name on the command line.
    pub name: &'static str,
    /// The question as it is asked.
    pub question: &'static str,
    /// Inputs the answer depends on.
    pub inputs: &'static [Input],
}

/// A scenario's answer: the headline, how it was derived, and the design it is about.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The answer in one sentence.
    pub headline: String,
    /// Derivation: (what, the formula with its numbers and the source of each figure).
    pub derivation: Vec<(String, String)>,
    /// The design the answer is about (opened for editing in the app, written with -o).
    pub design: Design,
}

const SCENARIOS: [Scenario; 6] = [
    Scenario {
        name: "serve-100k",
        question: "$1.2M a year to serve 100k requests per second: what do you buy?",
        inputs: &[
            Input {
                name: "budget-usd-per-year",
                label: "Budget, USD per year",
                default: 1.2e6,
                min: 1e5,
                max: 1e8,
                estimated: false,
            },
            Input {
                name: "requests-per-s",
                label: "Requests per second",
                default: 100_000.0,
                min: 1_000.0,
                max: 1_000_000.0,
                estimated: false,
            },
            Input {
                name: "replica-rps",
                label: "Replica req/s (one L40S; starts at the estimate for the default 8B model)",
                default: 1.18,
                min: 0.1,
                max: 200.0,
                estimated: true,
            },
        ],
    },
    Scenario {
        name: "a100-or-h100",
        question: "120 A100s or 60 H100s for the same training job?",
        inputs: &[Input {
            name: "mfu",
            label: "Model FLOPs utilisation",
            default: sizing::TRAINING_DEFAULTS.mfu,
            min: 0.1,
            max: 0.7,
            estimated: false,
        }],
    },
    Scenario {
        name: "multi-region",
        question: "Pitch a multi-region cluster that keeps 99.9% through a regional outage",
        inputs: &[Input {
            name: "requests-per-s",
            label: "Requests per second",
            default: 400.0,
            min: 50.0,
            max: 1_000.0,
            estimated: false,
        }],
    },
    Scenario {
        name: "cost-per-inference",
        question: "What does one inference cost?",
        inputs: &[Input {
            name: "tokens-per-request",
            label: "Tokens per request",
            default: sizing::SERVING_DEFAULTS.model.tokens_per_request,
            min: 10.0,
            max: 4_000.0,
            estimated: false,
        }],
    },
    Scenario {
        name: "nic-starved",
        question: "One 200G NIC behind eight GPUs: what breaks? Where do PCIe Gen4 lanes saturate?",
        inputs: &[],
    },
    Scenario {
        name: "storage-bandwidth",
        question: "How much storage bandwidth does this training job need, and what does it cost?",
        inputs: &[Input {
            name: "read-gbyte-s-per-gpu",
            label: "Read GB/s per GPU",
            default: 1.0,
            min: 0.1,
            max: 10.0,
            estimated: false,
        }],
    },
];

/// Every scenario, in the order `racksmith scenario --list` shows them.
pub fn list() -> &'static [Scenario] {
    &SCENARIOS
}

/// A scenario by name.
pub fn find(name: &str) -> Option<&'static Scenario> {
    SCENARIOS.iter().find(|s| s.name == name)
}

fn value(
    catalog: &Catalog,
    s: &Scenario,
    given: &[(String, f64)],
    name: &str,
) -> Result<f64, TemplateError> {
    let Some(input) = s.inputs.iter().find(|i| i.name == name) else {
        return Err(TemplateError::UnknownOption {
            template: s.name.into(),
            option: name.into(),
            known: String::new(),
        });
    };
    let v = given
        .iter()
        .find(|(k, _)| k == name)
        .map_or_else(|| input.default_in(catalog), |(_, v)| *v);
    if !(v >= input.min && v <= input.max) {
        return Err(TemplateError::BadValue {
            option: name.into(),
            value: v.to_string(),
            why: format!("from {} to {}", input.min, input.max),
        });
    }
    Ok(v)
}

/// A sample design, from the generator it is the output of.
fn sample(name: &str) -> Result<Design, TemplateError> {
    let catalog = Catalog::builtin()
        .map_err(|e| TemplateError::Build(crate::edit::EditError::Refused(e.to_string())))?;
    super::fixed::by_name(&catalog, name).map_err(TemplateError::Build)
}

/// Answers a scenario with the inputs given (`[("mfu", 0.5)]`; the others take their defaults).
pub fn answer(
    catalog: &Catalog,
    name: &str,
    given: &[(String, f64)],
) -> Result<Answer, TemplateError> {
    let Some(s) = find(name) else {
        return Err(TemplateError::UnknownTemplate {
            name: name.into(),
            known: SCENARIOS
                .iter()
                .map(|s| s.name)
                .collect::<Vec<_>>()
                .join(", "),
        });
    };
    for (k, _) in given {
        if !s.inputs.iter().any(|i| i.name == k) {
            return Err(TemplateError::UnknownOption {
                template: s.name.into(),
                option: k.clone(),
                known: s
                    .inputs
                    .iter()
                    .map(|i| format!("--{}", i.name))
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
    }
    match s.name {
        "serve-100k" => serve_100k(catalog, s, given),
        "a100-or-h100" => a100_or_h100(catalog, s, given),
        "multi-region" => multi_region(catalog, s, given),
        "cost-per-inference" => cost_per_inference(catalog, s, given),
        "nic-starved" => nic_starved(),
        _ => storage_bandwidth(catalog, s, given),
    }
}

fn serve_100k(
    catalog: &Catalog,
    s: &Scenario,
    given: &[(String, f64)],
) -> Result<Answer, TemplateError> {
    let budget = value(catalog, s, given, "budget-usd-per-year")?;
    let rps = value(catalog, s, given, "requests-per-s")?;
    let replica_rps = value(catalog, s, given, "replica-rps")?;
    // A rate other than the shared estimate is the user's measurement; the estimate says it is one (the app
    // passes every slider's value, moved or not, so whether the input was given cannot tell).
    let measured =
        sizing::default_replica_rps(catalog, sizing::SERVING_DEFAULTS.gpu) != Some(replica_rps);
    let sized = sizing::serving(
        catalog,
        &sizing::ServingNeed {
            requests_per_s: rps,
            p99_ms: sizing::SERVING_DEFAULTS.p99_ms,
            utilisation: sizing::SERVING_DEFAULTS.utilisation,
            gpu: sizing::SERVING_DEFAULTS.gpu.into(),
            replica_rps: measured.then_some(replica_rps),
            model: Some(sizing::SERVING_DEFAULTS.model),
            gpus_per_replica: sizing::SERVING_DEFAULTS.gpus_per_replica,
        },
    )?;
    let report = analyze(&sized.design);
    let c = &report.cost;
    let fits: Vec<&crate::analysis::cost::CostOption> = c
        .options
        .iter()
        .filter(|o| o.usd_per_year <= budget)
        .collect();
    let cheapest = c
        .options
        .iter()
        .min_by(|a, b| a.usd_per_year.total_cmp(&b.usd_per_year));
    let headline = match (fits.first(), cheapest) {
        (Some(_), _) => format!(
            "{} req/s needs {} L40S ({} servers); within {} a year: {}",
            thousands(rps, 0),
            thousands(sized.gpus as f64, 0),
            thousands(sized.servers as f64, 0),
            usd(budget),
            fits.iter()
                .map(|o| format!("{} at {}/yr", o.option, usd(o.usd_per_year)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        (None, Some(o)) => {
            // What the budget does buy, by the budget sizing's own count (the same replicas and p99 target).
            let buys = sizing::budget(
                catalog,
                &sizing::BudgetNeed {
                    usd_per_year: budget,
                    gpu: sizing::SERVING_DEFAULTS.gpu.into(),
                    replica_rps,
                    gpus_per_replica: sizing::SERVING_DEFAULTS.gpus_per_replica,
                    utilisation: sizing::SERVING_DEFAULTS.utilisation,
                    p99_ms: Some(sizing::SERVING_DEFAULTS.p99_ms),
                },
            )
            .ok()
            .and_then(|(options, _)| {
                options
                    .into_iter()
                    .max_by(|a, b| a.requests_per_s.total_cmp(&b.requests_per_s))
            })
            .map_or(String::new(), |b| {
                format!(
                    "; {} buys {} L40S {} serving {} req/s",
                    usd(budget),
                    thousands(b.gpus as f64, 0),
                    b.option,
                    thousands(b.requests_per_s, 0)
                )
            });
            format!(
                "{} req/s needs {} L40S ({} servers): no way of buying them fits {} a year; the cheapest, {}, \
                 costs {}/yr ({:.1}x the budget){buys}",
                thousands(rps, 0),
                thousands(sized.gpus as f64, 0),
                thousands(sized.servers as f64, 0),
                usd(budget),
                o.option,
                usd(o.usd_per_year),
                o.usd_per_year / budget
            )
        }
        (None, None) => "the design has no cost options".into(),
    };
    let mut derivation = sized.why.clone();
    derivation.push((
        "owned per year".into(),
        format!(
            "(capex {} - residual {}) / {} years + opex {} = {} (prices: the catalog's part prices, each with its \
             source in the BOM)",
            usd(c.capex_usd),
            usd(c.residual_usd),
            c.years,
            usd(c.opex_usd_per_year),
            c.options.first().map_or("-".into(), |o| usd(o.usd_per_year))
        ),
    ));
    for o in c.options.iter().skip(1) {
        derivation.push((
            o.option.clone(),
            format!(
                "{}/yr at {}/GPU-hour used ({})",
                usd(o.usd_per_year),
                o.usd_per_used_gpu_hour,
                c.cloud_price_source
            ),
        ));
    }
    for b in &c.break_even_by_option {
        derivation.push(("break-even".into(), b.text.clone()));
    }
    Ok(Answer {
        headline,
        derivation,
        design: sized.design,
    })
}

fn a100_or_h100(
    catalog: &Catalog,
    s: &Scenario,
    given: &[(String, f64)],
) -> Result<Answer, TemplateError> {
    let mfu = value(catalog, s, given, "mfu")?;
    let mut a = sample("a100-120gpu-training")?;
    let mut h = sample("h100-60gpu-training")?;
    for d in [&mut a, &mut h] {
        if let Some(t) = d.params.training.as_mut() {
            t.mfu = mfu;
        }
    }
    let (ra, rh) = (analyze(&a), analyze(&h));
    let figures = |r: &Report| {
        let t = r.latency.training.as_ref();
        (
            t.map_or(f64::INFINITY, |t| t.days),
            r.cost.training_job_usd.unwrap_or(f64::INFINITY),
            r.cost.training_job_cloud_usd.unwrap_or(f64::INFINITY),
        )
    };
    let (da, ca, cca) = figures(&ra);
    let (dh, ch, cch) = figures(&rh);
    let winner = if dh <= da && ch <= ca {
        "60 H100: sooner and cheaper"
    } else if da <= dh && ca <= ch {
        "120 A100: sooner and cheaper"
    } else if dh < da {
        "60 H100 finish sooner, 120 A100 cost less"
    } else {
        "120 A100 finish sooner, 60 H100 cost less"
    };
    let headline = format!(
        "{winner}: 60 H100 {dh:.1} days, {} owned; 120 A100 {da:.1} days, {} owned",
        usd(ch),
        usd(ca)
    );
    let mut derivation = Vec::new();
    for (label, r, days, owned, cloud) in [
        ("120 A100", &ra, da, ca, cca),
        ("60 H100", &rh, dh, ch, cch),
    ] {
        if let (Some(t), Some(p)) = (r.latency.training.as_ref(), a.params.training.as_ref()) {
            derivation.push((
                label.into(),
                format!(
                    "compute per step 6 x {} x {} tokens / ({:.1} PFLOPS peak x MFU {mfu}) = {:.3} s, all-reduce \
                     {:.3} s ({:.3} s exposed), {:.0} steps: {days:.2} days, {:.0} GPU-hours; owned {}, cloud {} \
                     (peak BF16 from the catalog's GPU figures, with their sources)",
                    p.parameters,
                    p.batch_tokens,
                    t.peak_pflops,
                    t.compute_s_per_step,
                    t.allreduce_s_per_step,
                    t.exposed_s_per_step,
                    t.steps,
                    t.gpu_hours,
                    usd(owned),
                    usd(cloud)
                ),
            ));
        }
    }
    Ok(Answer {
        headline,
        derivation,
        design: h,
    })
}

fn multi_region(
    catalog: &Catalog,
    s: &Scenario,
    given: &[(String, f64)],
) -> Result<Answer, TemplateError> {
    let rps = value(catalog, s, given, "requests-per-s")?;
    let mut d = sample("l40s-two-regions")?;
    if let Some(sv) = d.params.serving.as_mut() {
        sv.request_rate_rps = rps;
    }
    let r = analyze(&d);
    let avail = r.sites.service_availability.unwrap_or(0.0);
    let target = r.sites.availability_target.unwrap_or(0.999);
    let survives = r
        .sites
        .sites
        .iter()
        .all(|site| site.capacity_rps.unwrap_or(0.0) >= rps);
    let headline = format!(
        "service availability {:.5}% against a {:.3}% target: {}",
        avail * 100.0,
        target * 100.0,
        if survives {
            "either region alone carries the load, so a regional outage leaves the service up"
        } else {
            "one region alone cannot carry the load, so a regional outage takes the service down"
        }
    );
    let mut derivation: Vec<(String, String)> = r
        .sites
        .sites
        .iter()
        .map(|site| {
            (
                format!("{} ({})", site.name, site.region),
                format!(
                    "{} GPUs, capacity {} req/s at the planned utilisation, availability {:.4}% (the site's figure, \
                     docs/analysis.md \"Sites and availability\")",
                    site.gpus,
                    site.capacity_rps.map_or("-".into(), |c| thousands(c, 1)),
                    site.availability * 100.0
                ),
            )
        })
        .collect();
    derivation.push((
        "service availability".into(),
        format!(
            "P(the sites that are up carry {} req/s) over every combination of sites up and down = {:.7}",
            thousands(rps, 0),
            avail
        ),
    ));
    Ok(Answer {
        headline,
        derivation,
        design: d,
    })
}

fn cost_per_inference(
    catalog: &Catalog,
    s: &Scenario,
    given: &[(String, f64)],
) -> Result<Answer, TemplateError> {
    let tokens = value(catalog, s, given, "tokens-per-request")?;
    let mut d = sample("l40s-inference-pcie")?;
    if let Some(sv) = d.params.serving.as_mut() {
        sv.tokens_per_request = tokens;
    }
    let r = analyze(&d);
    let c = &r.cost;
    let per_m = c.usd_per_million_requests.unwrap_or(0.0);
    let per_m_tokens = per_m / tokens;
    let headline = format!(
        "${per_m:.2} per 1M requests (${:.6} per request), ${per_m_tokens:.4} per 1M tokens at {tokens} tokens \
         per request",
        per_m / 1e6
    );
    let sv = r.latency.serving.as_ref();
    let derivation = vec![
        (
            "owned cost per hour".into(),
            format!(
                "((capex {} - residual {}) / {} years + opex {}) / 8,760 h = {}/h",
                usd(c.capex_usd),
                usd(c.residual_usd),
                c.years,
                usd(c.opex_usd_per_year),
                usd(c.usd_per_hour)
            ),
        ),
        (
            "requests per hour".into(),
            sv.map_or("-".into(), |sv| {
                format!(
                    "{} replicas x {} req/s x utilisation {:.4} x 3,600 = {}",
                    sv.replicas,
                    d.params
                        .serving
                        .as_ref()
                        .map_or(0.0, |s| s.replica_throughput_rps),
                    sv.planned_utilisation,
                    thousands(sv.capacity_rps * 3600.0, 0)
                )
            }),
        ),
        (
            "per 1M requests".into(),
            format!(
                "{}/h / requests per hour x 1e6 = {} (at capacity); at the demand: {}",
                usd(c.usd_per_hour),
                usd(per_m),
                c.usd_per_million_requests_at_demand.map_or("-".into(), usd)
            ),
        ),
        (
            "per 1M tokens".into(),
            format!("${per_m:.2} / {tokens} tokens per request = ${per_m_tokens:.4}"),
        ),
    ];
    Ok(Answer {
        headline,
        derivation,
        design: d,
    })
}

fn nic_starved() -> Result<Answer, TemplateError> {
    let d = sample("a100-nic-starved")?;
    let r = analyze(&d);
    let server = r.bandwidth.servers.first();
    let per_gpu = server.map_or(0.0, |s| s.nic_gbps_per_gpu);
    let chokes: Vec<String> = server
        .map(|s| {
            s.pcie
                .iter()
                .filter(|h| h.choke)
                .map(|h| {
                    format!(
                        "{} ({:.1} of {:.1} GB/s offered, {:.0}%)",
                        h.hop,
                        h.offered_gbyte_s,
                        h.capacity_gbyte_s,
                        h.utilisation * 100.0
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let headline = format!(
        "each GPU gets {per_gpu:.0} Gb/s of network ({}): the bottleneck is {}",
        server.map_or("-".into(), |s| format!(
            "{:.0} Gb/s of NIC over {} GPUs",
            s.compute_nic_cabled_gbps, s.gpus
        )),
        server.map_or("-".into(), |s| s.bottleneck_hop.clone())
    );
    let mut derivation = vec![(
        "network per GPU".into(),
        format!(
            "NIC bandwidth cabled / GPUs = {per_gpu:.1} Gb/s (NIC rate: the catalog's ConnectX figures, with sources); \
             the design's GPUs would use {:.0} Gb/s each (reference network rate per GPU)",
            r.bandwidth.demand_gbps_per_gpu
        ),
    )];
    derivation.push((
        "PCIe Gen4 hops that saturate".into(),
        if chokes.is_empty() {
            "none".into()
        } else {
            chokes.join("; ")
        },
    ));
    for f in r.findings.iter().take(4) {
        derivation.push((format!("finding {}", f.code), f.message.clone()));
    }
    Ok(Answer {
        headline,
        derivation,
        design: d,
    })
}

fn storage_bandwidth(
    catalog: &Catalog,
    s: &Scenario,
    given: &[(String, f64)],
) -> Result<Answer, TemplateError> {
    let per_gpu = value(catalog, s, given, "read-gbyte-s-per-gpu")?;
    let mut d = sample("superpod-h100-1su")?;
    d.params.traffic.storage_read_gbyte_s_per_gpu = per_gpu;
    let r = analyze(&d);
    let st = &r.bandwidth.storage;
    let need = per_gpu * r.summary.gpus as f64;
    let storage_usd = r
        .cost
        .capex_by_category
        .get("Storage")
        .copied()
        .unwrap_or(0.0);
    let headline = format!(
        "{} GPUs x {per_gpu} GB/s = {} GB/s to read; the design's {} appliances deliver {} GB/s ({:.2} GB/s per \
         GPU): {}; storage capex {}",
        r.summary.gpus,
        thousands(need, 1),
        st.appliances,
        thousands(st.deliverable_gbyte_s, 1),
        st.per_gpu_gbyte_s,
        if st.per_gpu_gbyte_s + 1e-9 >= per_gpu {
            "enough"
        } else {
            "short"
        },
        usd(storage_usd)
    );
    let derivation = vec![
        (
            "need".into(),
            format!(
                "GPUs x read rate per GPU = {} x {per_gpu} = {} GB/s (1 GB/s per GPU: DDN's guidance for DGX B200; \
                 NVIDIA's SuperPOD RA asks over 40 GB/s per DGX H100)",
                r.summary.gpus,
                thousands(need, 1)
            ),
        ),
        (
            "deliverable".into(),
            format!(
                "min(rated read {} GB/s, cabled {} GB/s) = {} GB/s; limited by {}",
                thousands(st.rated_read_gbyte_s, 1),
                thousands(st.network_gbyte_s, 1),
                thousands(st.deliverable_gbyte_s, 1),
                st.limiter
            ),
        ),
        (
            "cost".into(),
            format!(
                "storage parts in the BOM: {} (the catalog's prices, each with its source)",
                usd(storage_usd)
            ),
        ),
    ];
    Ok(Answer {
        headline,
        derivation,
        design: d,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scenario_answers_with_its_derivation() {
        let c = Catalog::builtin().unwrap();
        for s in list() {
            if s.name == "serve-100k" {
                continue; // sized at 1,159 servers: tested in tests/sizing.rs and the CLI test
            }
            let a = answer(&c, s.name, &[]).unwrap_or_else(|e| panic!("{}: {e}", s.name));
            assert!(
                !a.headline.is_empty() && !a.derivation.is_empty(),
                "{}",
                s.name
            );
            assert!(!a.design.devices.is_empty());
        }
        // Inputs outside their range name the input and the range.
        let e = answer(&c, "a100-or-h100", &[("mfu".into(), 2.0)])
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            e.contains("--mfu 2") && e.contains("from 0.1 to 0.7"),
            "{e}"
        );
    }

    #[test]
    fn serve_100k_says_what_the_budget_buys_when_nothing_fits() {
        // Issue 45: "nothing fits" without what $1.2M does buy. The same budget sizing as `size budget`: its best
        // option's GPUs and req/s are in the headline.
        let c = Catalog::builtin().unwrap();
        let a = answer(&c, "serve-100k", &[]).unwrap();
        assert!(
            a.headline.contains("no way of buying them fits"),
            "{}",
            a.headline
        );
        // The shared serving defaults: one L40S per replica at 0.7, p99 20 s, and the replica rate estimated for
        // the 8B BF16 model at batch 8 and 256 tokens: 8 x 864 GB/s x 0.7 / 16 GB = 302.4 tokens/s, / 256.
        let estimate = 8.0 * 864.0 * 0.7 / 16.0 / 256.0;
        assert!((estimate - 1.18125_f64).abs() < 1e-12);
        assert!((sizing::default_replica_rps(&c, "l40s").unwrap() - estimate).abs() < 1e-9);
        let (options, _) = sizing::budget(
            &c,
            &sizing::BudgetNeed {
                usd_per_year: 1.2e6,
                gpu: "l40s".into(),
                replica_rps: estimate,
                gpus_per_replica: 1,
                utilisation: 0.7,
                p99_ms: Some(20_000.0),
            },
        )
        .unwrap();
        let best = options
            .iter()
            .max_by(|a, b| a.requests_per_s.total_cmp(&b.requests_per_s))
            .unwrap();
        assert!(
            a.headline.contains(&format!(
                "$1,200,000 buys {} L40S {} serving {} req/s",
                thousands(best.gpus as f64, 0),
                best.option,
                thousands(best.requests_per_s, 0)
            )),
            "{}",
            a.headline
        );
    }

    #[test]
    fn cost_per_inference_by_hand() {
        // Cost per 1M requests = owned $/hour / (requests per hour) x 1e6, and per 1M tokens that / tokens per
        // request: at 500 tokens, a request's cost x 2,000 requests per 1M tokens.
        let c = Catalog::builtin().unwrap();
        let a = answer(
            &c,
            "cost-per-inference",
            &[("tokens-per-request".into(), 500.0)],
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let r = analyze(&a.design);
        let per_m = r.cost.usd_per_million_requests.unwrap_or(0.0);
        let sv = r.latency.serving.unwrap_or_else(|| panic!("serving"));
        assert!((per_m - r.cost.usd_per_hour / (sv.capacity_rps * 3600.0) * 1e6).abs() < 0.01);
        assert!(
            a.headline
                .contains(&format!("${:.4} per 1M tokens", per_m / 500.0)),
            "{}",
            a.headline
        );
    }
}
