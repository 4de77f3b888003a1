//! Export speed at scale: the HTML report, the SVG drawings and the CSV tables of generated DGX SuperPOD H100
//! designs of 1 and 16 scalable units (248 and 4,088 GPUs). Run with
//! `cargo bench --no-default-features --bench export`. The report's size is printed once per design.
#![allow(clippy::expect_used)] // a benchmark that cannot set up should stop loudly

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use racksmith::analysis::analyze;
use racksmith::catalog::Catalog;
use racksmith::export::{Format, Options, View, export};
use racksmith::samples::superpod_h100;
use std::hint::black_box;
use std::time::Duration;

fn benches(c: &mut Criterion) {
    let catalog = Catalog::builtin().expect("catalog");
    let mut group = c.benchmark_group("export");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(6));
    for su in [1usize, 16] {
        let design = superpod_h100(&catalog, su).expect("generate");
        let report = analyze(&design);
        let name = format!("{su}su_{}gpus", design.gpu_count());
        for (label, format, view) in [
            ("html", Format::Html, View::Racks),
            ("svg_racks", Format::Svg, View::Racks),
            ("svg_fabric", Format::Svg, View::Fabric),
            ("png_fabric", Format::Png, View::Fabric),
            ("cabling_csv", Format::CablingCsv, View::Racks),
            ("slurm", Format::Slurm, View::Racks),
        ] {
            let options = Options {
                view,
                ..Options::default()
            };
            let bytes = export(&design, &report, format, &options).expect("export");
            eprintln!("{name} {label}: {} bytes", bytes.len());
            group.bench_with_input(
                BenchmarkId::new(label, &name),
                &(&design, &report),
                |b, (d, r)| b.iter(|| black_box(export(d, r, format, &options))),
            );
        }
        // Analysis and HTML together: what `racksmith export --format html` does after loading the file.
        group.bench_with_input(
            BenchmarkId::new("analyze_and_html", &name),
            &design,
            |b, d| {
                b.iter(|| {
                    let r = analyze(d);
                    black_box(export(d, &r, Format::Html, &Options::default()))
                })
            },
        );
    }
    group.finish();
}

criterion_group!(export_benches, benches);
criterion_main!(export_benches);
