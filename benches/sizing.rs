//! Sizing at scale: `templates::sizing::training` and `serving` for about 10,000, 100,000 and 262,144 GPUs, against
//! one build and analysis of a design that size (what sizing's cost should stay within: the search runs on the
//! training formula and builds and analyses the answer once, docs/analysis.md "Sizing and templates at scale").
//! Run with `cargo bench --no-default-features --bench sizing`.
#![allow(clippy::expect_used)] // a benchmark that cannot set up should stop loudly

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use racksmith::analysis::analyze;
use racksmith::catalog::Catalog;
use racksmith::templates::sizing::{self, ServedModel, ServingNeed, TrainingNeed};
use std::hint::black_box;
use std::time::Duration;

/// Training needs that size to about 10k, 100k and 262k H100 (6ND / (989 TFLOPS x 0.4) over the days, plus the
/// communication): 1e12 parameters on 30e12 tokens in 60 days is the issue's ~90,000 GPUs.
fn training_needs() -> Vec<(&'static str, TrainingNeed)> {
    let need = |parameters: f64, tokens: f64, days: f64| TrainingNeed {
        parameters,
        tokens,
        days,
        gpu: "h100-sxm".into(),
        mfu: 0.4,
        tensor_parallel: 0,
        pipeline_parallel: 0,
    };
    vec![
        ("10k", need(1e12, 3e12, 60.0)),
        ("100k", need(1e12, 30e12, 60.0)),
        ("262k", need(1e12, 30e12, 22.0)),
    ]
}

/// Serving needs at a measured 20 req/s per replica, p99 500 ms (rho 0.5395): 10.79 req/s per GPU.
fn serving_needs() -> Vec<(&'static str, ServingNeed)> {
    let need = |rps: f64| ServingNeed {
        requests_per_s: rps,
        p99_ms: 500.0,
        utilisation: 0.7,
        gpu: "l40s".into(),
        replica_rps: Some(20.0),
        model: None::<ServedModel>,
        gpus_per_replica: 1,
    };
    vec![
        ("10k", need(107_000.0)),
        ("100k", need(1_070_000.0)),
        ("262k", need(2_800_000.0)),
    ]
}

fn benches(c: &mut Criterion) {
    let catalog = Catalog::builtin().expect("catalog");
    let mut group = c.benchmark_group("size");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    for (label, need) in training_needs() {
        group.bench_with_input(BenchmarkId::new("training", label), &need, |b, n| {
            b.iter(|| black_box(sizing::training(&catalog, n).expect("sized")))
        });
    }
    for (label, need) in serving_needs() {
        group.bench_with_input(BenchmarkId::new("serving", label), &need, |b, n| {
            b.iter(|| black_box(sizing::serving(&catalog, n).expect("sized")))
        });
    }
    // One analysis of the largest sized design, the yardstick.
    let (_, big) = training_needs().pop().expect("a need");
    let design = sizing::training(&catalog, &big).expect("sized").design;
    group.bench_function("analyze_262k_design", |b| {
        b.iter(|| black_box(analyze(black_box(&design))))
    });
    group.finish();
}

criterion_group!(sizing_benches, benches);
criterion_main!(sizing_benches);
