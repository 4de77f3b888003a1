//! Analysis and load/save at scale: generated DGX SuperPOD H100 designs of 1 to 512 scalable units (248 to
//! 131,064 GPUs, generated in-process), the analysis on one thread and on all, and the N-1 sweep at 16 SU; and
//! the realistic rack-per-leaf shape (1,872 racks of four DGX H100 with a leaf each, 59,904 GPUs): its analysis
//! and its N-1 sweep (every rack leaf a single point of failure).
//! The command-line `analyze` is timed too, one process per run.
//! Run with `cargo bench --no-default-features --bench analysis`; `RAYON_NUM_THREADS=1` makes every group
//! single-threaded.
#![allow(clippy::expect_used)] // a benchmark that cannot set up should stop loudly

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, criterion_group, criterion_main};
use racksmith::analysis::analyze;
use racksmith::catalog::Catalog;
use racksmith::io;
use racksmith::model::Design;
use racksmith::samples::superpod_h100;
use std::hint::black_box;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

fn benches(c: &mut Criterion) {
    let catalog = Catalog::builtin().expect("catalog");
    let sizes = [1usize, 4, 16, 32, 128, 256, 512];
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

    // With a training job (issue 40 reads its failures, checkpoints and goodput from it): Llama 3 405B's
    // parameters and tokens on the 128-SU design, set with fields every version of the file format has, so the
    // same bench compares a commit before the reliability model with one after it.
    let mut group = c.benchmark_group("analyze_job");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    for (su, d) in designs.iter().filter(|(su, _)| *su == 128) {
        let mut d = d.clone();
        d.params.training = Some(racksmith::model::Training {
            parameters: 405e9,
            tokens: 15.6e12,
            ..racksmith::model::Training::default()
        });
        group.bench_with_input(
            BenchmarkId::from_parameter(format!("{su}su")),
            &d,
            |b, d| b.iter(|| black_box(analyze(black_box(d)))),
        );
    }
    group.finish();

    // One thread against every core, on the same designs (the reports are identical: tests/scaling.rs).
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool");
    let mut group = c.benchmark_group("analyze_threads");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    for (su, d) in designs.iter().filter(|(su, _)| [32, 128, 256].contains(su)) {
        group.bench_with_input(BenchmarkId::new("one", format!("{su}su")), d, |b, d| {
            b.iter(|| one.install(|| black_box(analyze(black_box(d)))))
        });
        group.bench_with_input(BenchmarkId::new("all", format!("{su}su")), d, |b, d| {
            b.iter(|| black_box(analyze(black_box(d))))
        });
    }
    group.finish();

    // The goals: load the file and analyse it, on one thread (128 SU under 300 ms, 256 SU under 700 ms,
    // 512 SU under 1.5 s); from 32 to 256 SU the times give the growth exponent (docs/analysis.md).
    let dir = tempfile::tempdir().expect("tempdir");
    let mut group = c.benchmark_group("load_and_analyze_one_thread");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    let saved = designs.iter().filter(|(su, _)| *su >= 32);
    on_saved_files(&mut group, dir.path(), saved, |p| {
        one.install(|| {
            let d = io::load(p).expect("load");
            black_box(analyze(black_box(&d)));
        })
    });
    group.finish();

    // The same on the command line, one process per run, as the issue's own table measured it: `racksmith analyze
    // FILE` (the text report) on one thread. Each run starts with a fresh heap at every size, which a loop inside one
    // process does not give (docs/analysis.md, "Measuring the growth exponent"); 1 SU shows the fixed cost of
    // starting the program.
    let mut group = c.benchmark_group("analyze_process_one_thread");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    let saved = designs
        .iter()
        .filter(|(su, _)| [1, 32, 128, 256].contains(su));
    on_saved_files(&mut group, dir.path(), saved, |p| {
        let status = Command::new(env!("CARGO_BIN_EXE_racksmith"))
            .arg("analyze")
            .arg(p)
            .env("RAYON_NUM_THREADS", "1")
            .stdout(Stdio::null())
            .status()
            .expect("run racksmith");
        assert!(
            status.success(),
            "racksmith analyze failed on {}",
            p.display()
        );
    });
    group.finish();

    let mut group = c.benchmark_group("whatif");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    if let Some((_, d)) = designs.iter().find(|(su, _)| *su == 16) {
        let before = analyze(d);
        group.bench_function("sweep_16su", |b| {
            b.iter(|| black_box(racksmith::analysis::whatif::n_minus_one(d, &before)))
        });
    }
    let racks = racksmith::samples::rack_leaf_h100(&catalog, 1872).expect("generate");
    let before = analyze(&racks);
    group.bench_function("sweep_rack_leaf_1872", |b| {
        b.iter(|| black_box(racksmith::analysis::whatif::n_minus_one(&racks, &before)))
    });
    group.finish();

    let mut group = c.benchmark_group("rack_leaf");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    group.bench_function("analyze_1872_racks", |b| {
        b.iter(|| black_box(analyze(black_box(&racks))))
    });
    group.bench_function("analyze_1872_racks_one_thread", |b| {
        b.iter(|| one.install(|| black_box(analyze(black_box(&racks)))))
    });
    group.finish();

    let mut group = c.benchmark_group("files");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    // Files up to 256 SU (about 32 MB); the 512-SU file (about 80 MB) is left out to keep the bench's disk use low.
    for (su, d) in designs.iter().filter(|(su, _)| *su <= 256) {
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

/// Benches `run` on each design's file, saved in `dir` before its bench and removed after, named by its size.
fn on_saved_files<'a>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    dir: &Path,
    designs: impl Iterator<Item = &'a (usize, Design)>,
    run: impl Fn(&Path),
) {
    for (su, d) in designs {
        let path = dir.join(format!("{su}.ron"));
        io::save(d, &path).expect("save");
        group.bench_with_input(
            BenchmarkId::from_parameter(format!("{su}su")),
            path.as_path(),
            |b, p| b.iter(|| run(p)),
        );
        std::fs::remove_file(&path).expect("remove");
    }
}

criterion_group!(analysis_benches, benches);
criterion_main!(analysis_benches);
