//! One set of defaults for each requirement (issue 45): File > Size from a requirement, `racksmith size serving`
//! and `size budget`, and the planning questions all start from `templates::sizing::SERVING_DEFAULTS` (and
//! `TRAINING_DEFAULTS`), so the same question, asked without figures, gets the same answer at every door.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::catalog::Catalog;
use racksmith::templates::scenarios;
use racksmith::templates::sizing::{self, SERVING_DEFAULTS, ServingNeed, TRAINING_DEFAULTS};

fn cli(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_racksmith"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The replica rate the defaults give on an L40S, by hand: an 8e9-parameter model in BF16 is 16 GB of weights; a
/// decode step at batch 8 reads them once at 864 GB/s x 0.7, so 8 x 864 x 0.7 / 16 = 302.4 tokens/s, and at
/// 256 tokens per request 1.18125 requests/s.
const L40S_REPLICA_RPS: f64 = 8.0 * 864.0 * 0.7 / 16.0 / 256.0;

#[test]
fn the_defaults_are_the_stated_figures() {
    assert_eq!(SERVING_DEFAULTS.p99_ms, 20_000.0);
    assert_eq!(SERVING_DEFAULTS.utilisation, 0.7);
    assert_eq!(SERVING_DEFAULTS.gpu, "l40s");
    assert_eq!(SERVING_DEFAULTS.model, sizing::ServedModel::default());
    let c = Catalog::builtin().unwrap();
    let rps = sizing::default_replica_rps(&c, "l40s").unwrap();
    assert!((rps - 1.18125).abs() < 1e-12 && (rps - L40S_REPLICA_RPS).abs() < 1e-12);
    assert_eq!(TRAINING_DEFAULTS.mfu, 0.4);
}

#[test]
fn size_serving_without_figures_is_the_defaults_sizing() {
    // 200 req/s at 0.7 on 1.18125 req/s replicas: ceil(200 / (1.18125 x 0.7)) = ceil(241.87) = 242 replicas of one
    // L40S, 8 to a server: ceil(242 / 8) = 31 servers, 248 GPUs.
    let c = Catalog::builtin().unwrap();
    let core = sizing::serving(
        &c,
        &ServingNeed {
            requests_per_s: SERVING_DEFAULTS.requests_per_s,
            p99_ms: SERVING_DEFAULTS.p99_ms,
            utilisation: SERVING_DEFAULTS.utilisation,
            gpu: SERVING_DEFAULTS.gpu.into(),
            replica_rps: None,
            model: Some(SERVING_DEFAULTS.model),
            gpus_per_replica: SERVING_DEFAULTS.gpus_per_replica,
        },
    )
    .unwrap();
    assert_eq!((core.servers, core.gpus), (31, 248));
    let text = cli(&["size", "serving"]);
    assert!(
        text.contains("31 servers, 248 GPUs (l40s)")
            && text.contains("replicas needed: 242")
            && text.contains("(target 20000 ms)")
            && text.contains("replica req/s: 1.18125 (estimated"),
        "{text}"
    );
}

#[test]
fn size_budget_and_serve_100k_use_the_same_replica_rate_and_target() {
    let c = Catalog::builtin().unwrap();
    // The command line's budget without a rate: the same estimate, and the same p99 target.
    let need = sizing::BudgetNeed {
        usd_per_year: 1.2e6,
        gpu: "l40s".into(),
        replica_rps: L40S_REPLICA_RPS,
        gpus_per_replica: 1,
        utilisation: 0.7,
        p99_ms: Some(20_000.0),
    };
    let (options, _) = sizing::budget(&c, &need).unwrap();
    let text = cli(&["size", "budget", "--usd-per-year", "1.2e6"]);
    for o in &options {
        assert!(
            text.contains(&format!("{:.1} req/s", o.requests_per_s)),
            "{}: {text}",
            o.option
        );
    }
    // The planning question starts its replica rate at the same estimate, says it is one, and sizes at 20 s.
    let q = scenarios::find("serve-100k").unwrap();
    let rate = q.inputs.iter().find(|i| i.name == "replica-rps").unwrap();
    assert!((rate.default_in(&c) - L40S_REPLICA_RPS).abs() < 1e-12);
    let a = scenarios::answer(&c, "serve-100k", &[]).unwrap();
    let why: String = a
        .derivation
        .iter()
        .map(|(k, v)| format!("{k}: {v}\n"))
        .collect();
    assert!(
        why.contains("replica req/s: 1.18125 (estimated") && why.contains("(target 20000 ms)"),
        "{why}"
    );
    // Given, the rate is a measurement.
    let a = scenarios::answer(&c, "serve-100k", &[("replica-rps".into(), 20.0)]).unwrap();
    assert!(
        a.derivation
            .iter()
            .any(|(k, v)| k == "replica req/s" && v.contains("measured")),
        "{:?}",
        a.derivation
    );
}
