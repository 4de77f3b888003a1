//! `racksmith diff-fabric` and `racksmith import-fabric`: the fabric a cluster reports (ibnetdiscover, LLDP or a
//! NetBox cable CSV) against the design's cables, or turned into a design.

use super::args::CompareFormat;
use super::output::write_out;
use racksmith::analysis::asbuilt::{self, FabricDiff};
use racksmith::io;
use racksmith::io::fabric::NameMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Where the discovered fabric comes from (one of the three flags).
pub enum Source {
    /// `--ibnetdiscover FILE`.
    Ibnetdiscover(PathBuf),
    /// `--lldp FOLDER`.
    Lldp(PathBuf),
    /// `--netbox-cables FILE`.
    Netbox(PathBuf),
}

impl Source {
    /// The one source given (clap's group makes it exactly one).
    pub fn of(
        ibnetdiscover: Option<PathBuf>,
        lldp: Option<PathBuf>,
        netbox: Option<PathBuf>,
    ) -> anyhow::Result<Self> {
        match (ibnetdiscover, lldp, netbox) {
            (Some(f), None, None) => Ok(Source::Ibnetdiscover(f)),
            (None, Some(d), None) => Ok(Source::Lldp(d)),
            (None, None, Some(f)) => Ok(Source::Netbox(f)),
            _ => anyhow::bail!(
                "give one of --ibnetdiscover FILE, --lldp FOLDER or --netbox-cables FILE"
            ),
        }
    }
}

/// The mapping file, read and checked, or an empty map.
fn read_map(map: Option<&Path>) -> anyhow::Result<NameMap> {
    match map {
        Some(file) => {
            let text = io::read_checked_text(file, io::MAX_FILE_BYTES, "a mapping file")?;
            Ok(io::fabric::read_map(&text, file)?)
        }
        None => Ok(NameMap::default()),
    }
}

/// Reads an ibnetdiscover file, with the map applied to its node names.
fn read_ibnetdiscover(file: &Path, map: &NameMap) -> anyhow::Result<io::fabric::Discovered> {
    let text = io::read_checked_text(file, io::MAX_FILE_BYTES, "an ibnetdiscover file")?;
    let mut found = io::fabric::read_ibnetdiscover(&text, file)?;
    map.apply(&mut found);
    Ok(found)
}

/// Reads a NetBox cable CSV, with the map applied to its device names.
fn read_netbox(file: &Path, map: &NameMap) -> anyhow::Result<Vec<io::fabric::NetboxCable>> {
    let text = io::read_checked_text(file, io::MAX_FILE_BYTES, "a NetBox cable CSV")?;
    let mut cables = io::fabric::read_netbox_cables(&text, file)?;
    for c in &mut cables {
        c.a_device = map.rename(&c.a_device).to_string();
        c.b_device = map.rename(&c.b_device).to_string();
    }
    Ok(cables)
}

/// Reads the design and what the fabric reports, prints what differs, and exits 1 when anything does (0 when the
/// fabric is as designed).
pub fn diff_fabric(
    design: &Path,
    source: &Source,
    map: Option<&Path>,
    format: CompareFormat,
    output: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    let d = io::load(design)?;
    let map = read_map(map)?;
    let diff = match source {
        Source::Ibnetdiscover(file) => asbuilt::diff(&d, &read_ibnetdiscover(file, &map)?),
        Source::Lldp(dir) => {
            asbuilt::diff_ethernet(&d, &asbuilt::from_lldp(&d, &lldp_reports(dir, &map)?))
        }
        Source::Netbox(file) => {
            asbuilt::diff_cabled(&d, &asbuilt::from_netbox(&d, &read_netbox(file, &map)?))
        }
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

/// Turns the discovered fabric into a design and writes it, after checking that it loads as written (a design the
/// loader would refuse is an error here, not a file).
pub fn import_fabric(
    catalog: &racksmith::catalog::Catalog,
    source: &Source,
    map: Option<&Path>,
    output: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    use racksmith::templates::discovered;
    let map = read_map(map)?;
    let design = match source {
        Source::Ibnetdiscover(file) => {
            discovered::from_ibnetdiscover(catalog, &read_ibnetdiscover(file, &map)?, &map)?
        }
        Source::Lldp(dir) => discovered::from_lldp(catalog, &lldp_reports(dir, &map)?, &map)?,
        Source::Netbox(file) => discovered::from_netbox(catalog, &read_netbox(file, &map)?, &map)?,
    };
    let text = io::design_to_string(&design)?;
    io::design_from_str(&text, Path::new("imported design")).map_err(|e| {
        anyhow::anyhow!("the imported design would not load, so it is not written: {e}")
    })?;
    write_out(output, text.as_bytes(), true)?;
    eprintln!(
        "imported {} devices, {} links in {} racks",
        design.devices.len(),
        design.links.len(),
        design.racks.len()
    );
    Ok(ExitCode::SUCCESS)
}

/// Every `*.json` in the folder, in name order, read as lldpcli's neighbours of the device the file is named after
/// (with the map applied to the device and neighbour names).
fn lldp_reports(
    dir: &Path,
    map: &NameMap,
) -> anyhow::Result<Vec<(String, Vec<io::fabric::LldpNeighbour>)>> {
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
        let mut neighbours = io::fabric::read_lldp(&text, &f)?;
        for n in &mut neighbours {
            n.remote_name = map.rename(&n.remote_name).to_string();
        }
        out.push((map.rename(&device).to_string(), neighbours));
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
    if !d.unknown_devices.is_empty() {
        let _ = writeln!(
            o,
            "{} discovered nodes could not be matched to a design device; a mapping file (--map FILE, lines \
             discovered,design) names them",
            d.unknown_devices.len()
        );
    }
    o
}
