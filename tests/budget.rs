//! Budget-constrained planning: what a yearly budget buys owned, on demand and with commitments, by hand; the owned
//! design is the largest that fits; the report's cost options agree with its other cost figures.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::analysis::analyze;
use racksmith::catalog::Catalog;
use racksmith::templates::sizing::{self, BudgetNeed};

#[test]
fn a_yearly_budget_by_hand() {
    // L40S cloud $0.79 per GPU-hour, 70% utilisation, replicas of one GPU at 20 req/s.
    // On demand pays the hours used: 0.79 x 8,760 x 0.7 = $4,844.28 per GPU-year -> floor(1.2e6 / 4,844.28) = 247 GPUs,
    // serving 247 x 20 x 0.7 = 3,458 req/s. A 1-year commitment (35% off) pays every hour: 0.79 x 0.65 x 8,760 =
    // $4,498.26 -> 266 GPUs; 3 years (55% off): 0.79 x 0.45 x 8,760 = $3,114.18 -> 385 GPUs.
    let c = Catalog::builtin().unwrap();
    let need = BudgetNeed {
        usd_per_year: 1.2e6,
        gpu: "l40s".into(),
        replica_rps: 20.0,
        gpus_per_replica: 1,
        utilisation: 0.7,
        p99_ms: None,
    };
    let (options, owned) = sizing::budget(&c, &need).unwrap();
    let gpus: Vec<(String, u64)> = options.iter().map(|o| (o.option.clone(), o.gpus)).collect();
    assert_eq!(gpus[1], ("cloud on demand".to_string(), 247));
    assert_eq!(gpus[2].1, 266);
    assert_eq!(gpus[3].1, 385);
    assert!((options[1].requests_per_s - 3458.0).abs() < 1e-9);
    // The owned design fits the budget, and one more server would not.
    let owned = owned.unwrap();
    let year = |d: &racksmith::model::Design| analyze(d).cost.options[0].usd_per_year;
    assert!(year(&owned.design) <= 1.2e6);
    assert_eq!(options[0].gpus, owned.gpus as u64);
    let mut bigger = racksmith::templates::generate(
        &c,
        "inference-row",
        &[
            ("servers".into(), (owned.servers + 1).to_string()),
            ("gpu".into(), "l40s".into()),
        ],
    )
    .unwrap();
    bigger.params = owned.design.params.clone();
    assert!(year(&bigger) > 1.2e6);
}

#[test]
fn the_owned_option_matches_the_cost_report() {
    let r = analyze(&racksmith::samples::sample("l40s-inference-pcie").unwrap());
    let owned = &r.cost.options[0];
    assert_eq!(owned.option, "owned");
    assert!((owned.usd_per_used_gpu_hour - r.cost.owned_usd_per_gpu_hour).abs() < 1e-3);
    assert_eq!(
        owned.usd_per_million_requests,
        r.cost.usd_per_million_requests
    );
    // Month 1 carries the capex; the months after it the running costs.
    assert!(
        (owned.monthly_usd[0] - r.cost.capex_usd - r.cost.opex_usd_per_year / 12.0).abs() < 0.02
    );
    assert!((owned.monthly_usd[1] - r.cost.opex_usd_per_year / 12.0).abs() < 0.01);
    let on_demand = &r.cost.options[1];
    assert!((on_demand.usd_per_used_gpu_hour - r.cost.cloud_usd_per_gpu_hour).abs() < 1e-9);
    // 32 GPUs x 8,760 h x 0.7 x $0.79.
    assert!(
        (on_demand.usd_per_year - 32.0 * 8760.0 * 0.7 * r.cost.cloud_usd_per_gpu_hour).abs() < 0.01
    );
}

#[test]
fn cost_per_million_tokens_by_hand() {
    // The L40S sample carries 32 replicas x 20 req/s x 0.7 = 448 req/s at the plan. With 500 tokens a request,
    // a million tokens is 2,000 requests, so each option's cost per 1M tokens is its cost per 1M requests / 500.
    let mut d = racksmith::samples::sample("l40s-inference-pcie").unwrap();
    d.params.serving.as_mut().unwrap().tokens_per_request = 500.0;
    let r = analyze(&d);
    for o in &r.cost.options {
        let per_req = o.usd_per_million_requests.unwrap();
        let per_tok = o.usd_per_million_tokens.unwrap();
        assert!(
            (per_tok - per_req / 500.0).abs() < 1e-3,
            "{}: {per_tok} vs {per_req}",
            o.option
        );
    }
    // Without a token count there is no per-token figure.
    let r = analyze(&racksmith::samples::sample("l40s-inference-pcie").unwrap());
    assert!(
        r.cost
            .options
            .iter()
            .all(|o| o.usd_per_million_tokens.is_none())
    );
}

#[test]
fn a_budget_with_a_latency_target_plans_at_the_utilisation_it_allows() {
    // Issue 45: the budget tab ignored the p99 limit. Replicas of one L40S at 20 req/s with a 500 ms p99: the
    // M/M/1 p99 is ln(100) / (20 (1 - rho)) s, so rho <= 1 - 4.605 / (20 x 0.5) = 0.539 (less a few microseconds
    // of network), below the 0.7 asked: the 247 GPUs on demand serve 247 x 20 x 0.539 = 2,663 req/s, not 3,458.
    let c = Catalog::builtin().unwrap();
    let need = BudgetNeed {
        usd_per_year: 1.2e6,
        gpu: "l40s".into(),
        replica_rps: 20.0,
        gpus_per_replica: 1,
        utilisation: 0.7,
        p99_ms: Some(500.0),
    };
    let (options, _) = sizing::budget(&c, &need).unwrap();
    let on_demand = &options[1];
    assert_eq!(on_demand.gpus, 247);
    let rho = 1.0 - 100f64.ln() / (20.0 * 0.5);
    assert!((rho - 0.5395).abs() < 1e-3);
    let by_hand = 247.0 * 20.0 * rho;
    assert!(
        (on_demand.requests_per_s - by_hand).abs() / by_hand < 1e-3,
        "{} against {by_hand}",
        on_demand.requests_per_s
    );
    // A target past 1e7 ms is refused, named.
    let err = sizing::budget(
        &c,
        &BudgetNeed {
            p99_ms: Some(-1.0),
            ..need
        },
    )
    .unwrap_err();
    assert!(err.to_string().contains("p99-ms"), "{err}");
}
