//! `racksmith diff-fabric`: the design's InfiniBand cables against the fabric as `ibnetdiscover` reports it.

use super::args::Format;
use super::output::{out, outln};
use racksmith::analysis::asbuilt::{self, CableRow, FabricDiff};
use racksmith::io;
use std::path::Path;
use std::process::ExitCode;

/// Reads both, prints what differs, and exits 1 when anything does (0 when the fabric is as designed).
pub fn diff_fabric(design: &Path, discovered: &Path, format: Format) -> anyhow::Result<ExitCode> {
    let d = io::load(design)?;
    let text = io::read_checked_text(discovered, io::MAX_FILE_BYTES, "an ibnetdiscover file")?;
    let found = io::fabric::read_ibnetdiscover(&text, discovered)?;
    let diff = asbuilt::diff(&d, &found);
    match format {
        Format::Json => outln!("{}", serde_json::to_string_pretty(&diff)?),
        Format::Text => out!("{}", render(&diff)),
    }
    Ok(if diff.differs() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The difference as text: a count per class, then each cable by both ends, as the cabling plan names them.
pub fn render(d: &FabricDiff) -> String {
    use std::fmt::Write as _;
    let esc = racksmith::export::escape::terminal;
    let row = |r: &CableRow| format!("{} <-> {} ({})", esc(&r.a), esc(&r.b), r.rate);
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{} as designed; {} missing, {} miswired, {} slow, {} extra; {} unknown devices, {} devices not found",
        d.matched,
        d.missing.len(),
        d.miswired.len(),
        d.slow.len(),
        d.extra.len(),
        d.unknown_devices.len(),
        d.missing_devices.len()
    );
    for r in &d.missing {
        let _ = writeln!(o, "missing   {}", row(r));
    }
    for m in &d.miswired {
        let _ = writeln!(
            o,
            "miswired  designed {}\n          found    {}",
            row(&m.designed),
            row(&m.found)
        );
    }
    for s in &d.slow {
        let _ = writeln!(o, "slow      {} found at {}", row(&s.cable), s.found);
    }
    for r in &d.extra {
        let _ = writeln!(o, "extra     {}", row(r));
    }
    for n in &d.unknown_devices {
        let _ = writeln!(o, "unknown   {}", esc(n));
    }
    for n in &d.missing_devices {
        let _ = writeln!(o, "not found {}", esc(n));
    }
    o
}
