//! Sizing from a requirement, checked by hand: the serving size follows the M/M/1 utilisation cap and the request
//! rate; the training size is the smallest server count that finishes in time.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::analysis::analyze;
use racksmith::catalog::Catalog;
use racksmith::templates::sizing::{self, ServingNeed, TrainingNeed};

fn need(rps: f64, p99_ms: f64) -> ServingNeed {
    ServingNeed {
        requests_per_s: rps,
        p99_ms,
        utilisation: 0.7,
        gpu: "l40s".into(),
        replica_rps: 20.0,
        gpus_per_replica: 1,
    }
}

#[test]
fn serving_at_a_loose_target_is_sized_by_the_utilisation_asked() {
    // mu = 20 req/s per replica. p99 target 1 s (the network's share is microseconds): the largest utilisation is
    // rho_max = 1 - ln(100) / (mu x 1 s) = 1 - 4.6052 / 20 = 0.7697, above the 0.7 asked, so 0.7 holds.
    // Replicas = ceil(400 / (20 x 0.7)) = ceil(28.57) = 29 GPUs -> ceil(29 / 8) = 4 servers of 8 L40S = 32 GPUs,
    // capacity 32 x 20 x 0.7 = 448 req/s.
    let c = Catalog::builtin().unwrap();
    let s = sizing::serving(&c, &need(400.0, 1000.0)).unwrap();
    assert_eq!((s.servers, s.gpus), (4, 32));
    let r = analyze(&s.design);
    let sv = r.latency.serving.unwrap();
    assert_eq!(sv.replicas_needed, Some(29));
    assert!((sv.capacity_rps - 448.0).abs() < 1e-6);
    assert!((sv.max_utilisation_for_target - (1.0 - 100f64.ln() / 20.0)).abs() < 1e-4);
}

#[test]
fn serving_at_a_tight_target_is_sized_by_the_latency() {
    // p99 target 250 ms: rho_max = 1 - 4.6052 / (20 x 0.25) = 0.0790, below 0.7, so the latency sets the size:
    // replicas = ceil(400 / (20 x 0.0790)) = ceil(253.3) = 254 -> 32 servers (256 GPUs).
    let c = Catalog::builtin().unwrap();
    let s = sizing::serving(&c, &need(400.0, 250.0)).unwrap();
    assert_eq!((s.servers, s.gpus), (32, 256));
    let sv = analyze(&s.design).latency.serving.unwrap();
    assert_eq!(sv.replicas_needed, Some(254));
    assert!(sv.p99_ms <= 250.0 && sv.headroom >= 0.0);
    // One server fewer would not carry it.
    let smaller = racksmith::templates::generate(
        &c,
        "inference-row",
        &[
            ("servers".into(), "31".into()),
            ("gpu".into(), "l40s".into()),
        ],
    )
    .unwrap();
    let mut smaller = smaller;
    smaller.params = s.design.params.clone();
    assert!(analyze(&smaller).latency.serving.unwrap().headroom < 0.0);
}

#[test]
fn serving_refuses_what_cannot_be_met() {
    let c = Catalog::builtin().unwrap();
    // A 200 ms target leaves no utilisation: ln(100) / 20 = 230 ms of queueing even at no load.
    let err = sizing::serving(&c, &need(400.0, 200.0))
        .unwrap_err()
        .to_string();
    assert!(err.contains("no utilisation meets it"), "{err}");
    let mut bad = need(400.0, 1000.0);
    bad.utilisation = 1.0;
    assert!(
        sizing::serving(&c, &bad)
            .unwrap_err()
            .to_string()
            .contains("between 0 and 1")
    );
}

#[test]
fn training_is_the_smallest_design_that_finishes_in_time() {
    // 6ND = 6 x 13e9 x 300e9 = 2.34e22 FLOPs. H100 BF16 dense 989 TFLOPS x MFU 0.4 = 395.6 TFLOPS per GPU:
    // 5.915e7 GPU-seconds = 16,430 GPU-hours of compute. In 7 days (168 h) that needs at least 97.8 GPUs, so at
    // least 13 servers of 8. The job runs TP 4 (208 GB of model states need 4 GPUs of 80 GB x 0.8), so per step
    // the tensor-parallel all-reduces add 0.97 s to 7.95 s of compute on 13 servers (7.44 days, too long); 14
    // servers take 7.38 s + 0.90 s + 0.07 s exposed data parallel = 8.35 s a step: 6.91 days (docs/analysis.md,
    // "Training jobs").
    let c = Catalog::builtin().unwrap();
    let need = TrainingNeed {
        parameters: 13e9,
        tokens: 300e9,
        days: 7.0,
        gpu: "h100-sxm".into(),
        mfu: 0.4,
    };
    let s = sizing::training(&c, &need).unwrap();
    assert_eq!(s.servers, 14);
    let t = analyze(&s.design).latency.training.unwrap();
    assert!(t.days <= 7.0);
    assert!(t.gpu_hours >= 16_430.0 * 0.999, "{}", t.gpu_hours);
    // 13 servers would not finish in time.
    let mut fewer = racksmith::templates::generate(
        &c,
        "leaf-spine",
        &[
            ("servers".into(), "13".into()),
            ("gpu".into(), "h100-sxm".into()),
        ],
    )
    .unwrap();
    fewer.params = s.design.params.clone();
    assert!(analyze(&fewer).latency.training.unwrap().days > 7.0);
}

#[test]
fn serving_100k_requests_per_second_at_500_ms() {
    // mu = 20 req/s per replica, target 500 ms (the network's share is microseconds): under random split each
    // replica is an M/M/1 queue, p99 = ln(100) / (mu (1 - rho)), so rho max = 1 - ln(100) / (20 x 0.5) =
    // 1 - 4.60517 / 10 = 0.539483, below the 0.7 asked: the p99 sets the size. Replicas = ceil(100,000 /
    // (20 x 0.539483)) = ceil(9,268.2) = 9,269, one L40S each: ceil(9,269 / 8) = 1,159 servers (9,272 GPUs),
    // past the two tiers the inference row's leaves reach (768 servers), so three.
    let c = Catalog::builtin().unwrap();
    let mut n = need(100_000.0, 500.0);
    n.utilisation = 0.7;
    let s = sizing::serving(&c, &n).unwrap();
    assert_eq!((s.servers, s.gpus), (1_159, 9_272));
    assert_eq!(s.limit, "p99");
    assert!(s.switches_by_tier.get("core").copied().unwrap_or(0) > 0);
    let sv = analyze(&s.design).latency.serving.unwrap();
    assert_eq!(sv.replicas_needed, Some(9_269));
    assert!(
        (sv.max_utilisation_for_target - 0.5395).abs() < 1e-4,
        "{}",
        sv.max_utilisation_for_target
    );
    assert!(sv.headroom >= 0.0 && sv.p99_ms <= 500.0);
    // The shared queue (M/M/c) needs fewer: at 0.7 utilisation, ceil(100,000 / 14) = 7,143, where Erlang C is
    // negligible and the p99 is the service's own ln(100) / 20 = 230 ms.
    let shared = s.why.iter().find(|(k, _)| k == "shared queue").unwrap();
    assert!(shared.1.contains("7,143 replicas"), "{}", shared.1);
}

#[test]
fn training_70b_on_2t_tokens_in_90_days_on_a100() {
    // 6ND = 6 x 70e9 x 2e12 = 8.4e23 FLOPs. A100 BF16 dense 312 TFLOPS x MFU 0.4 = 124.8 TFLOPS per GPU:
    // 6.7308e9 GPU-seconds; over 90 days (7.776e6 s) at least 865.6 GPUs, so at least 109 servers of 8. The
    // gradient all-reduce per step adds its time, so the answer is the first count above that finishes, past
    // the 100 servers two HDR tiers reach (QM8700, 40 ports): three tiers.
    let c = Catalog::builtin().unwrap();
    let s = sizing::training(
        &c,
        &TrainingNeed {
            parameters: 70e9,
            tokens: 2e12,
            days: 90.0,
            gpu: "a100-sxm".into(),
            mfu: 0.4,
        },
    )
    .unwrap();
    assert!(s.servers >= 109, "{}", s.servers);
    assert_eq!(s.limit, "days");
    assert!(
        s.switches_by_tier.contains_key("core"),
        "{:?}",
        s.switches_by_tier
    );
    let t = analyze(&s.design).latency.training.unwrap();
    assert!(t.days <= 90.0);
    // One server fewer does not finish in time.
    let mut fewer = racksmith::templates::servers_design(&c, "a100-sxm", s.servers - 1).unwrap();
    fewer.params = s.design.params.clone();
    assert!(analyze(&fewer).latency.training.unwrap().days > 90.0);
}

#[test]
fn bad_requirements_name_the_option_and_its_range() {
    let bin = env!("CARGO_BIN_EXE_racksmith");
    for (args, option, range) in [
        (
            vec![
                "serving",
                "--requests-per-s",
                "0",
                "--p99-ms",
                "500",
                "--replica-rps",
                "20",
            ],
            "--requests-per-s 0",
            "at most 1e9",
        ),
        (
            vec![
                "serving",
                "--requests-per-s",
                "NaN",
                "--p99-ms",
                "500",
                "--replica-rps",
                "20",
            ],
            "--requests-per-s NaN",
            "above 0",
        ),
        (
            vec![
                "serving",
                "--requests-per-s",
                "100",
                "--p99-ms",
                "-5",
                "--replica-rps",
                "20",
            ],
            "--p99-ms -5",
            "above 0",
        ),
        (
            vec![
                "training", "--params", "1e30", "--tokens", "2e12", "--days", "90",
            ],
            "--params 1e30",
            "at most 1e15",
        ),
        (
            vec![
                "training", "--params", "70e9", "--tokens", "2e12", "--days", "0",
            ],
            "--days 0",
            "at most 3,650",
        ),
        (
            vec!["budget", "--usd-per-year", "inf", "--replica-rps", "20"],
            "--usd-per-year inf",
            "at most 1e12",
        ),
    ] {
        let out = std::process::Command::new(bin)
            .arg("size")
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains(option) && err.contains(range),
            "{args:?}: {err}"
        );
        assert!(!err.contains("--servers") && !err.contains("port"), "{err}");
    }
    // Within every range but beyond what can be built: the GPUs it would take, in the user's terms.
    let c = Catalog::builtin().unwrap();
    let err = sizing::serving(&c, &need(1e9, 500.0))
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("--requests-per-s 1e9: needs"), "{err}");
    assert!(err.contains("262,144 GPUs"), "{err}");
}

#[test]
fn serving_cost_uses_the_utilisation_the_plan_uses() {
    // 400 req/s at 10 per replica, p99 1 s, utilisation target 0.7: the p99 allows at most
    // rho max = 1 - ln(100) / (10 x 1 s) = 1 - 0.460517 = 0.539483 (less the network's microseconds), so the plan
    // needs ceil(400 / (10 x 0.539483)) = ceil(74.15) = 75 replicas, not the ceil(400 / 7) = 58 the target alone
    // gives. On 8 servers of 8 L40S (64 replicas of one GPU): capacity 64 x 10 x 0.539483 = 345.27 req/s,
    // cost per 1M requests at capacity = $/hour / (345.27 x 3,600) x 1e6, at the demand $/hour / (400 x 3,600)
    // x 1e6.
    let c = Catalog::builtin().unwrap();
    let mut d =
        racksmith::templates::generate(&c, "inference-row", &[("servers".into(), "8".into())])
            .unwrap();
    d.params.utilisation_target = 0.7;
    d.params.serving = Some(racksmith::model::Serving {
        request_rate_rps: 400.0,
        replica_throughput_rps: 10.0,
        gpus_per_replica: 1,
        latency_target_ms: 1000.0,
        ..Default::default()
    });
    let r = analyze(&d);
    let sv = r.latency.serving.as_ref().unwrap();
    assert!((sv.planned_utilisation - 0.539483).abs() < 1e-4);
    assert_eq!(sv.replicas_needed, Some(75));
    assert_eq!(r.cost.replicas_needed, Some(75));
    assert_eq!(r.cost.serving_utilisation, Some(sv.planned_utilisation));
    let capacity = 64.0 * 10.0 * sv.planned_utilisation;
    let at_capacity = r.cost.usd_per_hour / (capacity * 3600.0) * 1e6;
    let at_demand = r.cost.usd_per_hour / (400.0 * 3600.0) * 1e6;
    assert!((r.cost.usd_per_million_requests.unwrap() - at_capacity).abs() < 1e-3);
    assert!((r.cost.usd_per_million_requests_at_demand.unwrap() - at_demand).abs() < 1e-3);
    // Break-even against on demand, 1- and 3-year commitments, each with the residual value stated.
    let options: Vec<&str> = r
        .cost
        .break_even_by_option
        .iter()
        .map(|b| b.option.as_str())
        .collect();
    assert_eq!(
        options,
        [
            "cloud on demand",
            "cloud, 1-year commitment",
            "cloud, 3-year commitment"
        ]
    );
    for b in &r.cost.break_even_by_option {
        let opex_month = r.cost.opex_usd_per_year / 12.0;
        match b.months {
            Some(m) => {
                // capex / (cloud per month - opex per month), by hand from the report's own figures.
                let want = r.cost.capex_usd / (b.cloud_usd_per_month - opex_month);
                assert!((m - want).abs() < 0.01, "{}: {m} vs {want}", b.option);
                assert!(b.text.contains("residual value"), "{}", b.text);
                assert!(b.months_net_of_residual.unwrap() < m);
            }
            None => assert!(b.cloud_usd_per_month <= opex_month, "{}", b.text),
        }
    }
}
