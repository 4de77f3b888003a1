//! `racksmith diff-fabric`: the design's InfiniBand cables against the fabric as `ibnetdiscover` reports it.

use super::args::CompareFormat;
use super::output::write_out;
use racksmith::analysis::asbuilt::{self, FabricDiff};
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

/// The difference as text: the counts, then each difference by both ends as the cabling plan names them
/// ([`FabricDiff::rows`], the rows of the CSV, the HTML page and the app's window).
pub fn render(d: &FabricDiff) -> String {
    use std::fmt::Write as _;
    let esc = racksmith::export::escape::terminal;
    let mut o = format!("{}\n", d.summary());
    for r in d.rows() {
        let _ = write!(o, "{:<16} {}", r.class, esc(&r.a));
        if !r.b.is_empty() {
            let _ = write!(o, " <-> {}", esc(&r.b));
        }
        if !r.designed.is_empty() || !r.found.is_empty() {
            let _ = write!(
                o,
                " (designed {}, found {})",
                esc(&r.designed),
                esc(&r.found)
            );
        }
        o.push('\n');
    }
    o
}
