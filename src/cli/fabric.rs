//! `racksmith diff-fabric`: the design's InfiniBand cables against the fabric as `ibnetdiscover` reports it.

use super::args::CompareFormat;
use super::output::write_out;
use racksmith::analysis::asbuilt::{self, CableRow, FabricDiff};
use racksmith::io;
use std::path::Path;
use std::process::ExitCode;

/// Reads the design and what the fabric reports (an ibnetdiscover file, or a folder of LLDP neighbours), prints
/// what differs, and exits 1 when anything does (0 when the fabric is as designed).
pub fn diff_fabric(
    design: &Path,
    (ibnetdiscover, lldp): (Option<&Path>, Option<&Path>),
    format: CompareFormat,
    output: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    let d = io::load(design)?;
    let diff = match (ibnetdiscover, lldp) {
        (Some(file), _) => {
            let text = io::read_checked_text(file, io::MAX_FILE_BYTES, "an ibnetdiscover file")?;
            asbuilt::diff(&d, &io::fabric::read_ibnetdiscover(&text, file)?)
        }
        (None, Some(dir)) => {
            asbuilt::diff_ethernet(&d, &asbuilt::from_lldp(&d, &lldp_reports(dir)?))
        }
        (None, None) => anyhow::bail!("give --ibnetdiscover FILE or --lldp FOLDER"),
    };
    let text = match format {
        CompareFormat::Json => format!("{}\n", serde_json::to_string_pretty(&diff)?),
        CompareFormat::Text => render(&diff),
        CompareFormat::Csv => {
            String::from_utf8(racksmith::export::tables::fabric_diff_csv(&diff)?)?
        }
        CompareFormat::Html => racksmith::export::html::fabric_diff(
            &d,
            &diff,
            &racksmith::export::Options {
                date: Some(racksmith::export::today()),
                ..Default::default()
            },
        ),
    };
    write_out(output, text.as_bytes(), true)?;
    Ok(if diff.differs() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Every `*.json` in the folder, in name order, read as lldpcli's neighbours of the device the file is named after.
fn lldp_reports(dir: &Path) -> anyhow::Result<Vec<(String, Vec<io::fabric::LldpNeighbour>)>> {
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| anyhow::anyhow!("cannot read the folder {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = Vec::with_capacity(files.len());
    for f in files {
        let text = io::read_checked_text(&f, io::MAX_FILE_BYTES, "an lldpcli file")?;
        let device = f
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.push((device, io::fabric::read_lldp(&text, &f)?));
    }
    Ok(out)
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
