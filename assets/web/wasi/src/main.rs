//! The report JSON of every committed sample design, as one JSON object `{ sample name: report }`, for checking
//! that the WebAssembly build computes the same figures as the desktop (tests/web.rs). Built for WASI and run
//! under Node by `assets/web/wasi-reports.sh`; tests/web.rs computes the same natively.
//!
//! The designs are the committed files' text, compiled in (a WASI program sees no files unless given a folder),
//! parsed and checked as the app reads a file.

use racksmith::{analysis, io};
use std::path::Path;

/// The committed sample files, by name.
const SAMPLES: [(&str, &str); 7] = [
    (
        "superpod-h100-1su",
        include_str!("../../../../sample-designs/superpod-h100-1su.ron"),
    ),
    (
        "dgx-h100-single",
        include_str!("../../../../sample-designs/dgx-h100-single.ron"),
    ),
    (
        "a100-nic-starved",
        include_str!("../../../../sample-designs/a100-nic-starved.ron"),
    ),
    (
        "l40s-inference-pcie",
        include_str!("../../../../sample-designs/l40s-inference-pcie.ron"),
    ),
    (
        "a100-120gpu-training",
        include_str!("../../../../sample-designs/a100-120gpu-training.ron"),
    ),
    (
        "h100-60gpu-training",
        include_str!("../../../../sample-designs/h100-60gpu-training.ron"),
    ),
    (
        "l40s-two-regions",
        include_str!("../../../../sample-designs/l40s-two-regions.ron"),
    ),
];

fn main() -> anyhow::Result<()> {
    let mut all = serde_json::Map::new();
    for (name, text) in SAMPLES {
        let design = io::design_from_str(text, Path::new(name))?;
        let report = analysis::analyze(&design);
        all.insert(name.to_string(), serde_json::to_value(&report)?);
    }
    println!("{}", serde_json::to_string_pretty(&all)?);
    Ok(())
}
