//! Cost of loading and analysing designs of every shape, against their file size: `cargo run --release
//! --no-default-features --example shapes -- SHAPE MB [MB ...]` writes a design of about MB megabytes of that shape,
//! then loads and analyses it, printing the file size, the time and the peak resident memory. Run one shape and size
//! per process for a clean peak. Shapes:
//! - `islands`: racks of four DGX H100 and one leaf each, the leaves joined to nothing (many separate fabrics);
//! - `connected`: the same racks with every leaf cabled to two shared spines (one fabric);
//! - `giant-rack`: racks full of switches, each cabled to the next (one long chain, no GPUs);
//! - `deep`: a chain of switches, each with a DGX H100 on it (a fabric as deep as it is long);
//! - `superpod`: DGX SuperPOD H100 scalable units (the realistic shape).
//!
//! docs/limits.md ("Cost per shape") lists what it measured; the bound is 2 GB and 30 s for 10 MB of any shape.
#![allow(clippy::expect_used)] // a measurement that cannot set up should stop loudly

use racksmith::catalog::Catalog;
use racksmith::edit::Builder;
use racksmith::model::{Design, DeviceId, PortRef};
use std::time::Instant;

fn port(device: DeviceId, name: &str) -> PortRef {
    PortRef {
        device,
        port: name.into(),
    }
}

/// Racks of four DGX H100 on their own leaf; with `spines`, every leaf also takes two uplinks to shared spines.
fn racks_of_four(catalog: &Catalog, racks: usize, spines: bool) -> Design {
    let mut d = Design {
        name: format!("{racks} racks of four DGX H100"),
        ..Design::default()
    };
    let mut b = Builder::new(&mut d, catalog);
    let mut spine_ids = Vec::new();
    if spines {
        let (rack, _) = b.add_rack("rack-48u", "spines", 0, 0).expect("rack");
        for s in 0..2 {
            spine_ids.push(
                b.add_device("qm9700", &format!("spine-{s}"), rack, 1 + 2 * s)
                    .expect("spine"),
            );
        }
    }
    for r in 0..racks {
        let (rack, _) = b
            .add_rack(
                "rack-48u",
                &format!("R{r:05}"),
                (r / 32) as u16 + 1,
                (r % 32) as u16,
            )
            .expect("rack");
        let leaf = b
            .add_device("qm9700", &format!("leaf-{r:05}"), rack, 40)
            .expect("leaf");
        for k in 0..4u16 {
            let dgx = b
                .add_device("dgx-h100", &format!("dgx-{r:05}-{k}"), rack, 3 + 8 * k)
                .expect("dgx");
            for nic in 0..8 {
                b.connect(
                    port(dgx, &format!("nic{nic}/p1")),
                    port(leaf, &format!("p{}", 8 * k + nic + 1)),
                    3.0,
                    None,
                )
                .expect("cable");
            }
        }
        if spines {
            // Spine ports 1-64 each take one leaf; past 64 racks the remaining leaves share the last ports'
            // neighbours by chaining through the previous leaf (still one fabric).
            for (s, &spine) in spine_ids.iter().enumerate() {
                let (a, z) = if r < 64 {
                    (
                        port(leaf, &format!("p{}", 33 + s)),
                        port(spine, &format!("p{}", r + 1)),
                    )
                } else {
                    let prev = b
                        .design
                        .device_named(&format!("leaf-{:05}", r - 1))
                        .expect("leaf");
                    (
                        port(leaf, &format!("p{}", 33 + s)),
                        port(prev, &format!("p{}", 35 + s)),
                    )
                };
                b.connect(a, z, 10.0, None).expect("uplink");
            }
        }
    }
    d
}

/// A chain of switches in racks: each switch cabled to the next. `per_rack` switches per rack (racks full of 1U
/// switches), or with `servers` one switch a rack with a DGX H100 on it (a fabric as deep as it is long: every GPU
/// path crosses up to all of the chain).
fn chain(catalog: &Catalog, switches: usize, per_rack: usize, servers: bool) -> Design {
    let mut d = Design {
        name: format!("a chain of {switches} switches"),
        ..Design::default()
    };
    let mut b = Builder::new(&mut d, catalog);
    let mut prev: Option<DeviceId> = None;
    let mut rack = None;
    for i in 0..switches {
        if i % per_rack == 0 {
            let r = i / per_rack;
            rack = Some(
                b.add_rack(
                    "rack-48u",
                    &format!("S{r:05}"),
                    (r / 32) as u16,
                    (r % 32) as u16,
                )
                .expect("rack")
                .0,
            );
        }
        let at = (i % per_rack) as u16 * 2 + 1;
        let sw = b
            .add_device("qm9700", &format!("sw-{i:06}"), rack.expect("rack"), at)
            .expect("switch");
        if let Some(p) = prev {
            b.connect(port(p, "p2"), port(sw, "p1"), 1.0, None)
                .expect("cable");
        }
        if servers {
            let dgx = b
                .add_device("dgx-h100", &format!("dgx-{i:06}"), rack.expect("rack"), 10)
                .expect("dgx");
            for nic in 0..8 {
                b.connect(
                    port(dgx, &format!("nic{nic}/p1")),
                    port(sw, &format!("p{}", nic + 3)),
                    3.0,
                    None,
                )
                .expect("cable");
            }
        }
        prev = Some(sw);
    }
    d
}

fn peak_rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))?
                .split_whitespace()
                .nth(1)?
                .parse::<f64>()
                .ok()
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

fn main() {
    let catalog = Catalog::builtin().expect("catalog");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let shape = args.first().cloned().unwrap_or_else(|| "islands".into());
    for mb in args.iter().skip(1).filter_map(|a| a.parse::<f64>().ok()) {
        // Bytes per unit of each shape, measured once: a rack of four DGX is about 5 kB, a switch about 0.2 kB, a switch with its DGX about 1.6 kB.
        let design = match shape.as_str() {
            "islands" => racks_of_four(&catalog, (mb * 1e6 / 5_050.0) as usize, false),
            "connected" => racks_of_four(&catalog, (mb * 1e6 / 5_200.0) as usize, true),
            "giant-rack" => chain(&catalog, (mb * 1e6 / 205.0) as usize, 24, false),
            "deep" => chain(&catalog, (mb * 1e6 / 1_600.0) as usize, 1, true),
            "superpod" => {
                // About 0.105 MB per scalable unit; the template takes 1-4 SU or multiples of 8.
                let su = (mb / 0.105).round().max(1.0) as usize;
                let su = if su <= 4 { su } else { su.div_ceil(8) * 8 };
                racksmith::samples::superpod_h100(&catalog, su).expect("superpod")
            }
            other => panic!("unknown shape {other}"),
        };
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("d.ron");
        racksmith::io::save(&design, &path).expect("save");
        if let Some(keep) = std::env::var_os("KEEP") {
            // KEEP=DIR keeps a copy of the file for the CLI measurements.
            std::fs::copy(
                &path,
                std::path::Path::new(&keep).join(format!("{shape}-{mb}.ron")),
            )
            .expect("keep");
        }
        drop(design);
        let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
        let t = Instant::now();
        let design = racksmith::io::load(&path).expect("load");
        let loaded = t.elapsed();
        let report = racksmith::analysis::analyze(&design);
        let total = t.elapsed();
        let html = racksmith::export::export(
            &design,
            &report,
            racksmith::export::Format::Html,
            &racksmith::export::Options::default(),
        )
        .expect("html");
        println!(
            "{shape}: {:.2} MB file, {} devices, {} links: load {:.2} s, load + analyse {:.2} s, peak {:.0} MB; \
             HTML {:.2} MB ({:.1}x the file)",
            bytes as f64 / 1e6,
            design.devices.len(),
            design.links.len(),
            loaded.as_secs_f64(),
            total.as_secs_f64(),
            peak_rss_mb(),
            html.len() as f64 / 1e6,
            html.len() as f64 / bytes.max(1) as f64
        );
    }
}
