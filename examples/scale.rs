//! Times file load and analysis of generated SuperPOD H100 designs: `cargo run --release --no-default-features
//! --example scale -- 128 [256 ...]` (one size per run gives a clean peak RSS with `/usr/bin/time -v`).
#![allow(clippy::expect_used)] // a measurement that cannot set up should stop loudly

use racksmith::catalog::Catalog;
use std::time::Instant;

fn main() {
    let catalog = Catalog::builtin().expect("catalog");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let skip_file = args.iter().any(|a| a == "--no-file");
    let only_routing = args.iter().any(|a| a == "--routing");
    for su in args.iter().filter_map(|a| a.parse::<usize>().ok()) {
        let d = racksmith::samples::superpod_h100(&catalog, su).expect("generate");
        let design = if skip_file {
            d
        } else {
            let dir = tempfile::tempdir().expect("tempdir");
            let path = dir.path().join("d.ron");
            racksmith::io::save(&d, &path).expect("save");
            drop(d);
            let t = Instant::now();
            let mut d = racksmith::io::load(&path).expect("load");
            for _ in 1..std::env::var("LOADS")
                .ok()
                .and_then(|x| x.parse().ok())
                .unwrap_or(1)
            {
                d = racksmith::io::load(&path).expect("load");
            }
            eprintln!("{su} SU: load {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
            d
        };
        let t = Instant::now();
        if only_routing {
            for _ in 0..std::env::var("REPEAT")
                .ok()
                .and_then(|x| x.parse().ok())
                .unwrap_or(1)
            {
                std::hint::black_box(racksmith::analysis::routing::analyze(&design));
            }
        } else {
            std::hint::black_box(racksmith::analysis::analyze(&design));
        }
        eprintln!(
            "{su} SU: {} GPUs, {} links, analyse {:.1} ms",
            design.gpu_count(),
            design.links.len(),
            t.elapsed().as_secs_f64() * 1e3
        );
    }
}
