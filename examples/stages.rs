//! Time of each stage of the analysis (`analysis::Stepwise`) on a SuperPOD H100 of N scalable units: the longest
//! stage is the longest a frame waits in the browser, which has no thread for the analysis.
//!
//! `cargo run --release --no-default-features --example stages -- 1 4 16 64`
#![allow(clippy::unwrap_used, clippy::expect_used)] // a measuring tool: a failed set-up should stop it loudly

use racksmith::analysis::Stepwise;
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let catalog = racksmith::catalog::Catalog::builtin().unwrap();
    let sizes: Vec<String> = std::env::args().skip(1).collect();
    let sizes = if sizes.is_empty() {
        vec!["1".to_string(), "4".to_string(), "16".to_string()]
    } else {
        sizes
    };
    println!(
        "SU  devices  topology  routing  bandwidth  latency  power+cost  findings  total (ms)"
    );
    for su in sizes {
        let design = racksmith::templates::generate(
            &catalog,
            "superpod-h100",
            &[("su".to_string(), su.clone())],
        )
        .unwrap();
        let devices = design.devices.len();
        // The best of three runs per stage, so a busy machine's pauses do not count.
        let mut best = [f64::INFINITY; Stepwise::STAGES];
        let design = Arc::new(design);
        for _ in 0..3 {
            let mut run = Stepwise::new(Arc::clone(&design));
            for slot in &mut best {
                let t = Instant::now();
                run.step();
                *slot = slot.min(t.elapsed().as_secs_f64() * 1000.0);
            }
        }
        let total: f64 = best.iter().sum();
        println!(
            "{su:>3} {devices:>8} {:>9.1} {:>8.1} {:>10.1} {:>8.1} {:>11.1} {:>9.1} {:>12.1}",
            best[0], best[1], best[2], best[3], best[4], best[5], total
        );
    }
}
