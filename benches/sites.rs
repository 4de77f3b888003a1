//! Sites at scale: a 128-SU DGX SuperPOD H100 (32,760 GPUs) analysed as one site and split over two regions
//! (half of the racks each, serving a request rate, with an availability target), and the lose-a-site what-if.
//! Issue 13's goal: site availability adds no more than 20% to the analysis of the split design.
//! Run with `cargo bench --no-default-features --bench sites`.
#![allow(clippy::expect_used)] // a benchmark that cannot set up should stop loudly

use criterion::{Criterion, criterion_group, criterion_main};
use racksmith::analysis::analyze;
use racksmith::analysis::whatif::{Failure, impact};
use racksmith::catalog::Catalog;
use racksmith::model::{Design, Serving, Site};
use std::hint::black_box;
use std::time::Duration;

/// The design split over sites "east" and "west" (the first half of the racks in east), serving 20,000 req/s.
fn two_sites(mut d: Design) -> Design {
    for (name, region) in [("east", "us-east"), ("west", "us-west")] {
        d.sites.insert(
            name.into(),
            Site {
                region: region.into(),
                ..Site::default()
            },
        );
    }
    let half = d.racks.len() / 2;
    for (i, r) in d.racks.values_mut().enumerate() {
        r.site = if i < half { "east" } else { "west" }.into();
    }
    d.params.serving = Some(Serving {
        request_rate_rps: 20_000.0,
        replica_throughput_rps: 20.0,
        gpus_per_replica: 8,
        ..Serving::default()
    });
    d.params.availability_target = Some(0.999);
    d
}

fn benches(c: &mut Criterion) {
    let catalog = Catalog::builtin().expect("catalog");
    let one =
        racksmith::templates::generate(&catalog, "superpod-h100", &[("su".into(), "128".into())])
            .expect("generate");
    let mut one_serving = one.clone();
    one_serving.params.serving = two_sites(one.clone()).params.serving;
    let split = two_sites(one);
    let mut group = c.benchmark_group("sites_128su");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("one_site", |b| {
        b.iter(|| black_box(analyze(black_box(&one_serving))))
    });
    group.bench_function("two_sites", |b| {
        b.iter(|| black_box(analyze(black_box(&split))))
    });
    let base = analyze(&split);
    group.bench_function("lose_site_whatif", |b| {
        b.iter(|| black_box(impact(&split, &base, Failure::Site("west".into()))))
    });
    group.finish();
}

criterion_group!(sites, benches);
criterion_main!(sites);
