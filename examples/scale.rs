//! Times file load and analysis of generated SuperPOD H100 designs: `cargo run --release --no-default-features
//! --example scale -- 128 [256 ...]` (one size per run gives a clean peak RSS with `/usr/bin/time -v`).
//! Flags: `--rack-leaf` makes the sizes rack counts of the rack-per-leaf design (`samples::rack_leaf_h100`: 1872
//! is the realistic 60k-GPU shape), `--b200` makes them DGX B200 SuperPODs (two systems a rack), `--no-file`
//! analyses the generated design without saving and loading it,
//! `--routing` times only the routing, `--sweep` times the N-1 sweep; `SPLIT=1` splits load and analysis into
//! their parts, `REPEAT=n` and `LOADS=n` repeat the routing and the load, `KEEP=DIR` keeps the saved file.
//! Figures are wall and CPU time: the CPU time of the measuring thread is the steadier one on a shared machine.
#![allow(clippy::expect_used)] // a measurement that cannot set up should stop loudly

use racksmith::catalog::Catalog;
use std::time::Instant;

/// CPU time of this thread, ms (the machine is shared: wall time overstates the work when other builds run).
fn cpu_ms() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e6)
}

fn main() {
    let catalog = Catalog::builtin().expect("catalog");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let skip_file = args.iter().any(|a| a == "--no-file");
    let only_routing = args.iter().any(|a| a == "--routing");
    let rack_leaf = args.iter().any(|a| a == "--rack-leaf");
    let b200 = args.iter().any(|a| a == "--b200");
    for su in args.iter().filter_map(|a| a.parse::<usize>().ok()) {
        let d = if rack_leaf {
            racksmith::samples::rack_leaf_h100(&catalog, su).expect("generate")
        } else if b200 {
            racksmith::samples::superpod(&catalog, su, &racksmith::samples::DGX_B200)
                .expect("generate")
        } else {
            racksmith::samples::superpod_h100(&catalog, su).expect("generate")
        };
        let design = if skip_file {
            d
        } else {
            let dir = tempfile::tempdir().expect("tempdir");
            let path = dir.path().join("d.ron");
            racksmith::io::save(&d, &path).expect("save");
            if let Some(keep) = std::env::var_os("KEEP") {
                // KEEP=DIR keeps a copy of the file for the CLI measurements.
                std::fs::copy(&path, std::path::Path::new(&keep).join(format!("{su}.ron")))
                    .expect("keep");
            }
            eprintln!(
                "{su}: file {:.1} MB",
                std::fs::metadata(&path).map_or(0, |m| m.len()) as f64 / 1e6
            );
            drop(d);
            let (t, c) = (Instant::now(), cpu_ms());
            let mut d = racksmith::io::load(&path).expect("load");
            for _ in 1..std::env::var("LOADS")
                .ok()
                .and_then(|x| x.parse().ok())
                .unwrap_or(1)
            {
                d = racksmith::io::load(&path).expect("load");
            }
            if std::env::var_os("SPLIT").is_some() {
                let t = Instant::now();
                let text = racksmith::io::read_design_text(&path).expect("read");
                let t1 = Instant::now();
                let d2 = racksmith::io::parse_design(&text, &path).expect("parse");
                let t2 = Instant::now();
                let figures = racksmith::io::limits::check(&d2);
                let t3 = Instant::now();
                let problems = racksmith::io::validate(&d2);
                let t4 = Instant::now();
                eprintln!(
                    "read {:?} parse {:?} limits {:?} validate {:?} ({} problems, {figures:?})",
                    t1 - t,
                    t2 - t1,
                    t3 - t2,
                    t4 - t3,
                    problems.len()
                );
            }
            eprintln!(
                "{su} SU: load {:.1} ms wall, {:.1} ms CPU",
                t.elapsed().as_secs_f64() * 1e3,
                cpu_ms() - c
            );
            d
        };
        if std::env::var_os("SPLIT").is_some() {
            let c = cpu_ms();
            std::hint::black_box(racksmith::topology::Topology::build(&design));
            let c1 = cpu_ms();
            std::hint::black_box(racksmith::analysis::routing::analyze(&design));
            let c2 = cpu_ms();
            let full = racksmith::analysis::analyze(&design);
            let c3 = cpu_ms();
            let json = serde_json::to_string(&full).expect("json");
            let c4 = cpu_ms();
            eprintln!(
                "topology {:.0}, routing {:.0}, whole analysis {:.0}, report JSON {:.0} ms CPU ({} bytes)",
                c1 - c,
                c2 - c1,
                c3 - c2,
                c4 - c3,
                json.len()
            );
        }
        if args.iter().any(|a| a == "--sweep") {
            let before = racksmith::analysis::analyze(&design);
            let (t, c) = (Instant::now(), cpu_ms());
            let analysed = std::sync::atomic::AtomicUsize::new(0);
            let s = racksmith::analysis::whatif::sweep_with(&design, &before, &|done, _| {
                analysed.fetch_max(done, std::sync::atomic::Ordering::Relaxed);
                true
            })
            .expect("not cancelled");
            eprintln!(
                "{su}: N-1 sweep {:.1} ms wall, {:.1} ms CPU (this thread), {} classes analysed, {} single points of \
                 failure listed",
                t.elapsed().as_secs_f64() * 1e3,
                cpu_ms() - c,
                analysed.into_inner(),
                s.len()
            );
            for i in s.iter().take(3) {
                eprintln!("  {}", i.summary());
            }
        }
        let (t, c) = (Instant::now(), cpu_ms());
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
            "{su} SU: {} GPUs, {} links, analyse {:.1} ms wall, {:.1} ms CPU (this thread)",
            design.gpu_count(),
            design.links.len(),
            t.elapsed().as_secs_f64() * 1e3,
            cpu_ms() - c
        );
    }
}
