//! Analysis and load/save at scale: generated DGX SuperPOD H100 designs of 1, 4, 16 and 128 scalable units
//! (248 to 32,760 GPUs). Run with `cargo bench --no-default-features --bench analysis`.
#![allow(clippy::expect_used)] // a benchmark that cannot set up should stop loudly

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use racksmith::analysis::analyze;
use racksmith::catalog::Catalog;
use racksmith::io;
use racksmith::samples::superpod_h100;
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

fn benches(c: &mut Criterion) {
    let catalog = Catalog::builtin().expect("catalog");
    let sizes = [1usize, 4, 16, 128];
    let designs: Vec<_> = sizes
        .iter()
        .map(|&su| (su, superpod_h100(&catalog, su).expect("generate")))
        .collect();

    let mut group = c.benchmark_group("analyze");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    for (su, d) in &designs {
        group.bench_with_input(
            BenchmarkId::from_parameter(format!("{su}su_{}gpus", d.gpu_count())),
            d,
            |b, d| b.iter(|| black_box(analyze(black_box(d)))),
        );
    }
    group.finish();

    let dir = tempfile::tempdir().expect("tempdir");
    let mut group = c.benchmark_group("files");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    for (su, d) in &designs {
        let path = dir.path().join(format!("{su}.ron"));
        io::save(d, &path).expect("save");
        let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        eprintln!(
            "{su} SU file: {:.1} MB, {} devices, {} links",
            bytes as f64 / 1e6,
            d.devices.len(),
            d.links.len()
        );
        group.bench_with_input(
            BenchmarkId::new("load", format!("{su}su")),
            &path,
            |b, p: &std::path::PathBuf| b.iter(|| black_box(io::load(Path::new(p)).expect("load"))),
        );
        group.bench_with_input(BenchmarkId::new("save", format!("{su}su")), d, |b, d| {
            b.iter(|| io::save(black_box(d), &path).expect("save"))
        });
    }
    group.finish();
}

criterion_group!(analysis_benches, benches);
criterion_main!(analysis_benches);
