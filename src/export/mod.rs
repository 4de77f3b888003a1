//! Exports: one engine for the app's File > Export menu and the `racksmith export` command. Every writer takes the
//! design and its report and returns bytes; nothing here depends on egui.
//!
//! - `html`: a self-contained review report (inline CSS and SVG, print CSS).
//! - `svg` / `png`: the rack elevations or the fabric picture, drawn once as SVG and rasterised with resvg.
//! - `bom-csv`, `cabling-csv`: bill of materials and the cabling plan.
//! - `pull-list`: transceivers, fibres and cables by part and length, then the per-link schedule.
//! - `slurm`, `slurm-yaml`: the scheduler's topology files.
//! - `dot`, `json`: the fabric as a Graphviz graph and as nodes and links.
//! - `nccl-expect`: the nccl-tests output the design should give (NCCL model), for acceptance runs.

pub mod charts;
pub mod drawio;
pub mod escape;
pub mod graph;
pub mod hostlist;
pub mod html;
pub mod ibnetdiscover;
pub mod nccl;
pub mod netbox;
pub mod png;
pub mod slurm;
pub mod svg;
pub mod tables;

use crate::analysis::Report;
use crate::model::Design;
use thiserror::Error;

/// The export formats, in menu order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Self-contained HTML review report.
    Html,
    /// SVG drawing of the racks or the fabric.
    Svg,
    /// PNG rendering of the same drawing.
    Png,
    /// Bill of materials as CSV.
    BomCsv,
    /// Cabling plan as CSV, one row per link.
    CablingCsv,
    /// The pull list: parts by part and length with counts, then the per-link schedule (CSV).
    PullList,
    /// Slurm `topology.conf` (tree plugin).
    Slurm,
    /// Slurm `topology.yaml` (tree and block plugins).
    SlurmYaml,
    /// Graphviz DOT of the fabric.
    Dot,
    /// Nodes and links as JSON.
    Json,
    /// draw.io diagram: rack elevations and the fabric, editable in draw.io.
    Drawio,
    /// NetBox bulk-import files (a folder: sites, racks, manufacturers, device types, roles, devices, cables).
    Netbox,
    /// Expected nccl-tests output (NCCL model), to compare with an acceptance run.
    NcclExpect,
    /// The InfiniBand topology as `ibnetdiscover` should report it, for `racksmith diff-fabric` and a subnet
    /// manager's checks.
    Ibnetdiscover,
}

impl Format {
    /// Every format, in menu order.
    pub const ALL: [Format; 14] = [
        Format::Html,
        Format::Svg,
        Format::Png,
        Format::BomCsv,
        Format::CablingCsv,
        Format::PullList,
        Format::Slurm,
        Format::SlurmYaml,
        Format::Dot,
        Format::Json,
        Format::Drawio,
        Format::Netbox,
        Format::NcclExpect,
        Format::Ibnetdiscover,
    ];

    /// The name used on the command line (`--format NAME`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Html => "html",
            Format::Svg => "svg",
            Format::Png => "png",
            Format::BomCsv => "bom-csv",
            Format::CablingCsv => "cabling-csv",
            Format::PullList => "pull-list",
            Format::Slurm => "slurm",
            Format::SlurmYaml => "slurm-yaml",
            Format::Dot => "dot",
            Format::Json => "json",
            Format::Drawio => "drawio",
            Format::Netbox => "netbox",
            Format::NcclExpect => "nccl-expect",
            Format::Ibnetdiscover => "ibnetdiscover",
        }
    }

    /// Parses a command-line name.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// File extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Html => "html",
            Format::Svg => "svg",
            Format::Png => "png",
            Format::BomCsv | Format::CablingCsv | Format::PullList => "csv",
            Format::Slurm => "conf",
            Format::SlurmYaml => "yaml",
            Format::Dot => "dot",
            Format::Json => "json",
            Format::Drawio => "drawio",
            Format::Netbox => "netbox",
            Format::NcclExpect | Format::Ibnetdiscover => "txt",
        }
    }

    /// Suffix added to the design's file stem, so several exports of one design do not collide.
    pub fn file_suffix(self) -> &'static str {
        match self {
            Format::Html => "-report",
            Format::BomCsv => "-bom",
            Format::CablingCsv => "-cabling",
            Format::PullList => "-pull-list",
            Format::Slurm | Format::SlurmYaml => "-topology",
            Format::Svg | Format::Png | Format::Dot | Format::Json | Format::Drawio => "",
            Format::Netbox => "-netbox",
            Format::NcclExpect => "-nccl-expect",
            Format::Ibnetdiscover => "-ibnetdiscover",
        }
    }

    /// Menu label, saying what the file is for.
    pub fn label(self) -> &'static str {
        match self {
            Format::Html => "HTML review report (.html)",
            Format::Svg => "Drawing, vector (.svg)",
            Format::Png => "Drawing, picture (.png)",
            Format::BomCsv => "Bill of materials (.csv)",
            Format::CablingCsv => "Cabling plan (.csv)",
            Format::PullList => "Pull list: optics, fibres and cables by length (.csv)",
            Format::Slurm => "Slurm topology.conf",
            Format::SlurmYaml => "Slurm topology.yaml",
            Format::Dot => "Graphviz fabric (.dot)",
            Format::Json => "Nodes and links (.json)",
            Format::Drawio => "draw.io diagram (.drawio)",
            Format::Netbox => "NetBox bulk import (folder of .csv/.yaml)",
            Format::NcclExpect => "Expected nccl-tests results (.txt)",
            Format::Ibnetdiscover => "InfiniBand topology, as ibnetdiscover reports it (.txt)",
        }
    }

    /// Whether the output is text (may go to standard output).
    pub fn is_text(self) -> bool {
        self != Format::Png
    }

    /// Whether the format writes several files into a folder ([`export_files`]) rather than one file (to standard
    /// output, [`export`] gives them one after another).
    pub fn writes_folder(self) -> bool {
        self == Format::Netbox
    }

    /// Whether `--view` applies.
    pub fn has_view(self) -> bool {
        matches!(self, Format::Svg | Format::Png)
    }
}

/// Which picture the SVG and PNG exports draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    /// Front elevations of every rack.
    #[default]
    Racks,
    /// The fabric by tier, links coloured by routed load.
    Fabric,
}

impl View {
    /// Parses `racks` or `fabric`.
    pub fn from_name(name: &str) -> Option<View> {
        match name {
            "racks" => Some(View::Racks),
            "fabric" => Some(View::Fabric),
            _ => None,
        }
    }
}

/// Options every export takes.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Racks or fabric, for SVG and PNG.
    pub view: View,
    /// Traffic pattern whose routed load colours the fabric's links (default: the first routed pattern).
    pub pattern: Option<crate::analysis::pattern::Pattern>,
    /// Date printed on the report (YYYY-MM-DD); None prints none, which keeps golden files stable.
    pub date: Option<String>,
    /// Short hash of the design file's bytes, printed on the report; None computes it from the saved text.
    pub source_hash: Option<String>,
    /// The design is unsaved work (in the app, changed since its last save or never saved): the report says so,
    /// and that its hash is of the design as Racksmith would save it, which no file holds yet.
    pub unsaved: bool,
}

/// Why an export failed.
#[derive(Debug, Error)]
pub enum ExportError {
    /// The pattern named in the options is not one the analysis routes.
    #[error("unknown traffic pattern \"{name}\"; the design routes: {known}")]
    UnknownPattern {
        /// What was asked for.
        name: String,
        /// The patterns there are, comma-separated.
        known: String,
    },
    /// The SVG could not be rasterised.
    #[error("cannot render the drawing to PNG: {0}")]
    Render(String),
    /// A writer could not serialise the output (JSON, RON, CSV, NetBox or Slurm YAML); `message` says why.
    #[error("cannot write {format}: {message}")]
    Write {
        /// The format being written, by its short name: "json", "ron", "csv", "netbox", "slurm-yaml".
        format: &'static str,
        /// What went wrong.
        message: String,
    },
}

/// Exports a design in one format. `report` must be `analyze(design)`.
pub fn export(
    design: &Design,
    report: &Report,
    format: Format,
    options: &Options,
) -> Result<Vec<u8>, ExportError> {
    match format {
        Format::Html => {
            let hash = match &options.source_hash {
                Some(h) => h.clone(),
                None => design_hash(design)?,
            };
            Ok(html::report(design, report, options, &hash)?.into_bytes())
        }
        Format::Svg => Ok(svg::draw(design, report, options.view, options.pattern)?.into_bytes()),
        Format::Png => png::render(&svg::draw(design, report, options.view, options.pattern)?),
        Format::BomCsv => tables::bom_csv(design, report),
        Format::CablingCsv => tables::cabling_csv(design),
        Format::PullList => tables::pull_list_csv(design, report),
        Format::Slurm => Ok(slurm::topology_conf(design)?.into_bytes()),
        Format::SlurmYaml => Ok(slurm::topology_yaml(design)?.into_bytes()),
        Format::Dot => Ok(graph::dot(design).into_bytes()),
        Format::Json => graph::json(design),
        Format::NcclExpect => Ok(nccl::expect(design, report).into_bytes()),
        Format::Ibnetdiscover => Ok(ibnetdiscover::write(design).into_bytes()),
        Format::Drawio => Ok(drawio::drawio(design).into_bytes()),
        // One stream for standard output: each file after a `==> NAME <==` line, as `head` prints several files.
        Format::Netbox => {
            let mut out = Vec::new();
            for (name, bytes) in netbox::files(design)? {
                out.extend_from_slice(format!("==> {name} <==\n").as_bytes());
                out.extend_from_slice(&bytes);
                out.push(b'\n');
            }
            Ok(out)
        }
    }
}

/// Exports a design as the files of a format that writes a folder ([`Format::writes_folder`]), each with its
/// file name, in the order they are meant to be used; any other format gives its one file, named after the format.
pub fn export_files(
    design: &Design,
    report: &Report,
    format: Format,
    options: &Options,
) -> Result<netbox::Files, ExportError> {
    match format {
        Format::Netbox => netbox::files(design),
        _ => Ok(vec![(
            format!("{}.{}", format.name(), format.extension()),
            export(design, report, format, options)?,
        )]),
    }
}

/// The first 12 hex digits of the SHA-256 of the design as Racksmith saves it (the file's bytes after a save).
pub fn design_hash(design: &Design) -> Result<String, ExportError> {
    let text = crate::io::design_to_string(design).map_err(|e| ExportError::Write {
        format: "ron",
        message: e.to_string(),
    })?;
    Ok(short_hash(text.as_bytes()))
}

/// The first 12 hex digits of the SHA-256 of some bytes.
pub fn short_hash(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    let digest = sha2::Sha256::digest(bytes);
    digest.iter().take(6).map(|b| format!("{b:02x}")).collect()
}

/// Index of a traffic pattern in the routing report (its index in report order, never its name), or the first
/// routed pattern by default; a report that routed none has no index for a pattern asked for.
pub fn pattern_index(
    report: &Report,
    pattern: Option<crate::analysis::pattern::Pattern>,
) -> Result<Option<usize>, ExportError> {
    let patterns = &report.bandwidth.routing.patterns;
    match pattern {
        None => Ok((!patterns.is_empty()).then_some(0)),
        Some(p) => (p.index() < patterns.len())
            .then_some(Some(p.index()))
            .ok_or_else(|| ExportError::UnknownPattern {
                name: p.label().to_string(),
                known: patterns
                    .iter()
                    .map(|p| p.pattern.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
    }
}

/// The comparison of two designs as a self-contained HTML page in the report's style: the figures in two
/// columns with the differences, both headlines, and each design's findings.
pub fn compare_html(
    a: (&Design, &Report),
    b: (&Design, &Report),
    comparison: &crate::analysis::compare::Comparison,
    options: &Options,
) -> Result<String, ExportError> {
    Ok(html::compare(a, b, comparison, options))
}

/// The comparison of two designs as CSV: figure, unit, A, B, difference, ratio, better.
pub fn compare_csv(
    comparison: &crate::analysis::compare::Comparison,
) -> Result<String, ExportError> {
    let bytes = tables::compare_csv(comparison)?;
    String::from_utf8(bytes).map_err(|e| ExportError::Write {
        format: "csv",
        message: e.to_string(),
    })
}

/// Today's date (UTC) as YYYY-MM-DD, for report headers.
pub fn today() -> String {
    // The browser has no system clock for std: its own clock gives the milliseconds since 1970.
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    let days = (js_sys::Date::now() / 86_400_000.0).max(0.0) as u64;
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400);
    civil_date(days)
}

/// Groups items by a key, groups in order of first appearance and items in input order.
pub fn group_by_key<T: Copy, K: Ord>(
    items: impl IntoIterator<Item = T>,
    key: impl Fn(T) -> K,
) -> Vec<Vec<T>> {
    let mut groups: Vec<Vec<T>> = Vec::new();
    let mut index: std::collections::BTreeMap<K, usize> = std::collections::BTreeMap::new();
    for item in items {
        let k = key(item);
        match index.get(&k) {
            Some(&i) => {
                if let Some(g) = groups.get_mut(i) {
                    g.push(item);
                }
            }
            None => {
                index.insert(k, groups.len());
                groups.push(vec![item]);
            }
        }
    }
    groups
}

/// The civil date (YYYY-MM-DD, proleptic Gregorian) of a count of days since 1970-01-01, by Howard Hinnant's
/// `civil_from_days` algorithm (chrono-compatible, public domain).
pub fn civil_date(days_since_epoch: u64) -> String {
    let z = days_since_epoch as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::civil_date;

    #[test]
    fn civil_dates_by_hand() {
        // 1970-01-01 is day 0; 2000-03-01 is day 11,017 (30 years of 365 days + 7 leap days = 10,957, then
        // 31 + 29 days of January and February 2000); 2026-11-30 is day 20,787.
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(11_017), "2000-03-01");
        assert_eq!(civil_date(20_787), "2026-11-30");
    }
}
