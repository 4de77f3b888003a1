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
