//! Times sizing, building and analysing a design of about 200,000 GPUs (issue 28's speed goal: under 10 s and
//! 4 GB in a release build). `cargo run --release --example size_200k` prints each phase and the peak memory.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a timing example: set-up that fails should stop loudly

use racksmith::analysis::analyze;
use racksmith::catalog::Catalog;
use racksmith::templates::{self, sizing};
use std::time::Instant;

fn peak_rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

fn main() {
    let catalog = Catalog::builtin().unwrap();
    // 25,000 servers of 8 L40S: 200,000 GPUs on a four-tier Ethernet fabric.
    let t = Instant::now();
    let design = templates::servers_design(&catalog, "l40s", 25_000).unwrap();
    let built = t.elapsed();
    let t = Instant::now();
    let report = analyze(&design);
    let analysed = t.elapsed();
    println!(
        "build 25,000 servers ({} GPUs, {} devices, {} cables): {:.2} s; analyse: {:.2} s; peak {:.0} MB",
        report.summary.gpus,
        design.devices.len(),
        design.links.len(),
        built.as_secs_f64(),
        analysed.as_secs_f64(),
        peak_rss_mb()
    );
    // The same through sizing: 2,158,000 req/s at p99 500 ms, 20 req/s per replica: rho max 0.5395,
    // ceil(2,158,000 / 10.7897) = 200,007 replicas on 25,001 servers.
    let t = Instant::now();
    let s = sizing::serving(
        &catalog,
        &sizing::ServingNeed {
            requests_per_s: 2_158_000.0,
            p99_ms: 500.0,
            utilisation: 0.7,
            gpu: "l40s".into(),
            replica_rps: Some(20.0),
            model: None,
            gpus_per_replica: 1,
        },
    )
    .unwrap();
    println!(
        "size serving 2,158,000 req/s: {} servers, {} GPUs, switches {:?}, set by {}: {:.2} s; peak {:.0} MB",
        s.servers,
        s.gpus,
        s.switches_by_tier,
        s.limit,
        t.elapsed().as_secs_f64(),
        peak_rss_mb()
    );
}
