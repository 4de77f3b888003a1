//! Importing NetBox device types (the devicetype-library's YAML: `u_height`, `weight`, `power-ports`,
//! `interfaces`, `module-bays`) as catalog parts, without trusting them: the public library has defects, so the
//! importer checks what it reads and says what looks wrong (numbered ports missing from a sequence, no power draw, a
//! draw far from the built-in catalog's figure for the same model, interfaces that do not match that model's ports).
//!
//! The kind of part (server, switch, storage) comes from the data: GPU bays and GPU-server model names make a
//! server, a row of data ports or InfiniBand interfaces a switch, a storage maker or a disk enclosure storage; when
//! the data does not say, the file is refused as unclear and the user chooses ([`import_as`]). A part the catalog
//! loader would refuse is never returned: each file is imported, imported with warnings, or refused with its
//! reason, and [`import_files`] keeps going past a bad file. Parts keep their NetBox slug and interface names
//! ([`NetboxOrigin`]) so that a design exported back to NetBox names what NetBox has.

use super::{Catalog, Part, PartKind, ServerSpec, StorageSpec, SwitchSpec};
use crate::model::Protocol;
use crate::model::part::{FormFactor, GpuSlotSpec, NetboxInterface, NetboxOrigin, SlotSpec};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use thiserror::Error;

/// Why a file could not be imported.
#[derive(Debug, Error)]
pub enum ImportError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The OS error.
        source: std::io::Error,
    },
    /// The YAML is not a device type.
    #[error("{path}: not a NetBox device type: {message}")]
    Parse {
        /// The file.
        path: String,
        /// What the parser said (with line and column).
        message: String,
    },
    /// The file is a device type Racksmith cannot use as it stands, or would make a part the catalog loader
    /// refuses.
    #[error("{path}: {reason}")]
    Refused {
        /// The file.
        path: String,
        /// Why, in a sentence or two.
        reason: String,
    },
    /// The data does not say whether the device is a server, a switch or storage: the user chooses.
    #[error(
        "{path}: cannot tell whether this is a server, a switch or storage ({why}); choose the kind"
    )]
    UnclearKind {
        /// The file.
        path: String,
        /// What was found, or not found.
        why: String,
    },
}

/// The kinds of part a device type can become.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ImportKind {
    /// A server (GPU or CPU).
    Server,
    /// A network switch.
    Switch,
    /// A storage appliance, controller or enclosure.
    Storage,
}

impl ImportKind {
    /// Every kind, in menu order.
    pub const ALL: [ImportKind; 3] = [ImportKind::Server, ImportKind::Switch, ImportKind::Storage];

    /// Lower-case name, as written on the command line ("server").
    pub fn name(self) -> &'static str {
        match self {
            ImportKind::Server => "server",
            ImportKind::Switch => "switch",
            ImportKind::Storage => "storage",
        }
    }
}

impl std::str::FromStr for ImportKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ImportKind::ALL
            .into_iter()
            .find(|k| k.name() == s.to_ascii_lowercase())
            .ok_or_else(|| format!("\"{s}\" is not a kind of part: use server, switch or storage"))
    }
}

#[derive(Debug, Deserialize, Default)]
#[serde(default)]
struct PowerPort {
    maximum_draw: Option<f64>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(default)]
struct Interface {
    name: String,
    #[serde(rename = "type")]
    kind: String,
    mgmt_only: bool,
    description: Option<String>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(default)]
struct Bay {
    name: String,
    label: Option<String>,
    description: Option<String>,
}

impl Bay {
    fn text(&self) -> String {
        format!(
            "{} {} {}",
            self.name,
            self.label.as_deref().unwrap_or(""),
            self.description.as_deref().unwrap_or("")
        )
        .to_lowercase()
    }
}

#[derive(Debug, Deserialize, Default)]
#[serde(default)]
struct DeviceType {
    manufacturer: String,
    model: String,
    part_number: Option<String>,
    slug: String,
    u_height: Option<f64>,
    subdevice_role: Option<String>,
    weight: Option<f64>,
    weight_unit: Option<String>,
    #[serde(rename = "power-ports")]
    power_ports: Vec<PowerPort>,
    interfaces: Vec<Interface>,
    #[serde(rename = "module-bays")]
    module_bays: Vec<Bay>,
    #[serde(rename = "device-bays")]
    device_bays: Vec<Bay>,
}

/// A part read from a NetBox device type, with what the importer noticed.
#[derive(Debug, Clone)]
pub struct Imported {
    /// Part id (the file's slug, made a valid id).
    pub id: String,
    /// The part, of the kind the data (or the user) says, with its NetBox slug and interface names.
    pub part: Part,
    /// What looks wrong or missing, one sentence each.
    pub warnings: Vec<String>,
    /// The file it came from.
    pub file: String,
    /// Why it is of its kind ("it has GPU bays", "chosen by the user").
    pub kind_reason: String,
}

/// What a batch of files gave: the parts imported (with their warnings) and the files refused (with the reason).
#[derive(Debug, Default)]
pub struct Batch {
    /// Parts imported, in the order of the files.
    pub imported: Vec<Imported>,
    /// Files refused, each with its error.
    pub refused: Vec<ImportError>,
}

/// Gb/s of a NetBox interface type: `400gbase-x-osfp` (400), `1000base-t` (1), `2.5gbase-t` (2.5),
/// `1.6tbase-cr8` (1600), `infiniband-ndr` (400); None when it names no rate (`virtual`, `16gfc-sfpp`, `other`).
pub fn interface_gbps(kind: &str) -> Option<f64> {
    if let Some(rate) = kind.strip_prefix("infiniband-") {
        return infiniband_gbps(rate);
    }
    let digits: String = kind
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let n: f64 = digits.parse().ok()?;
    let rest = kind.get(digits.len()..)?;
    if rest.starts_with("tbase") {
        Some(n * 1000.0)
    } else if rest.starts_with("gbase") {
        Some(n)
    } else if rest.starts_with("base") {
        Some(n / 1000.0)
    } else {
        None
    }
}

/// Gb/s of a 4x InfiniBand port by its rate name (IBTA: SDR 10, DDR 20, QDR 40, FDR10 40, FDR 56, EDR 100, HDR 200,
/// NDR 400, XDR 800).
fn infiniband_gbps(rate: &str) -> Option<f64> {
    Some(match rate {
        "sdr" => 10.0,
        "ddr" => 20.0,
        "qdr" | "fdr10" => 40.0,
        "fdr" => 56.0,
        "edr" => 100.0,
        "hdr" => 200.0,
        "ndr" => 400.0,
        "xdr" => 800.0,
        _ => return None,
    })
}

/// Numbered names missing from a sequence: names like `P22.1` are split into a prefix and numbers, and within each
/// prefix every combination of the numbers seen (each from its smallest to its largest) is expected.
pub fn missing_in_sequence(names: &[&str]) -> Vec<String> {
    let mut groups: BTreeMap<(String, usize), Vec<Vec<u32>>> = BTreeMap::new();
    for n in names {
        let prefix: String = n.chars().take_while(|c| !c.is_ascii_digit()).collect();
        let Some(rest) = n.get(prefix.len()..) else {
            continue;
        };
        let seps: Vec<char> = rest.chars().filter(|c| !c.is_ascii_digit()).collect();
        if seps.iter().any(|c| *c != '.' && *c != '/') {
            continue;
        }
        let nums: Option<Vec<u32>> = rest.split(['.', '/']).map(|x| x.parse().ok()).collect();
        let Some(nums) = nums else { continue };
        groups.entry((prefix, nums.len())).or_default().push(nums);
    }
    let mut missing = Vec::new();
    for ((prefix, arity), seen) in groups {
        if seen.len() < 4 {
            continue;
        }
        let ranges: Vec<(u32, u32)> = (0..arity)
            .map(|i| {
                let vals = seen.iter().filter_map(|v| v.get(i).copied());
                (vals.clone().min().unwrap_or(0), vals.max().unwrap_or(0))
            })
            .collect();
        let total: u64 = ranges
            .iter()
            .map(|(lo, hi)| u64::from(hi - lo + 1))
            .product();
        if total > 4096 || total <= seen.len() as u64 {
            continue;
        }
        let sep = if names.iter().any(|n| n.contains('/')) {
            "/"
        } else {
            "."
        };
        let mut combo: Vec<u32> = ranges.iter().map(|r| r.0).collect();
        loop {
            if !seen.contains(&combo) {
                let parts: Vec<String> = combo.iter().map(u32::to_string).collect();
                missing.push(format!("{prefix}{}", parts.join(sep)));
            }
            // Next combination, last index fastest.
            let mut i = arity;
            loop {
                if i == 0 {
                    return missing;
                }
                i -= 1;
                let (lo, hi) = ranges.get(i).copied().unwrap_or((0, 0));
                if let Some(c) = combo.get_mut(i) {
                    if *c < hi {
                        *c += 1;
                        break;
                    }
                    *c = lo;
                }
            }
        }
    }
    missing
}

/// Lower-case alphanumeric words of a model name ("NVIDIA DGX A100 640GB" -> nvidia, dgx, a100, 640gb).
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The built-in part a device type describes: the one whose id's words appear, whole and in order, among the
/// model's words (`QM9700` is `qm9700`, `NVIDIA DGX A100 640GB` is `dgx-a100`, but `PowerEdge T420` is not `t4`).
/// The longest such id wins.
fn catalog_match<'a>(catalog: &'a Catalog, model: &str) -> Option<(&'a str, &'a Part)> {
    let model = words(model);
    catalog
        .parts
        .iter()
        .filter(|(id, _)| {
            let id = words(id.as_str());
            !id.is_empty() && model.windows(id.len()).any(|w| w == id.as_slice())
        })
        .max_by_key(|(id, _)| id.as_str().len())
        .map(|(id, p)| (id.as_str(), p))
}

/// Interface names that are a device's management or console port rather than a data port.
fn management_name(name: &str) -> bool {
    let n = name.to_lowercase();
    [
        "mgmt",
        "management",
        "bmc",
        "ipmi",
        "ilo",
        "idrac",
        "xcc",
        "fnm",
        "console",
    ]
    .iter()
    .any(|p| n.starts_with(p))
}

/// Makers whose rack equipment is storage.
const STORAGE_MAKERS: [&str; 9] = [
    "netapp",
    "pure storage",
    "ddn",
    "datadirect networks",
    "hitachi vantara",
    "vast data",
    "infinidat",
    "nimble storage",
    "qumulo",
];

/// A Supermicro-style GPU server model word: digits then G and a letter (`421GE`, `4029GP`, `8125GS`).
fn gpu_server_word(w: &str) -> bool {
    let digits = w.chars().take_while(char::is_ascii_digit).count();
    let rest: Vec<char> = w.chars().skip(digits).collect();
    (3..=4).contains(&digits)
        && rest.len() == 2
        && rest.first() == Some(&'g')
        && rest.get(1).is_some_and(char::is_ascii_alphabetic)
}

/// What the data says the device is, with the evidence; None with what was looked at when it does not say.
fn kind_from_data(
    dt: &DeviceType,
    data_ports: usize,
    catalog_kind: Option<&PartKind>,
) -> Result<(ImportKind, String), String> {
    let model = words(&dt.model);
    let bays: Vec<String> = dt
        .module_bays
        .iter()
        .chain(&dt.device_bays)
        .map(Bay::text)
        .collect();
    let maker = dt.manufacturer.to_lowercase();
    match catalog_kind {
        Some(PartKind::Server(_)) => {
            return Ok((
                ImportKind::Server,
                "the built-in part of this model is a server".into(),
            ));
        }
        Some(PartKind::Switch(_)) => {
            return Ok((
                ImportKind::Switch,
                "the built-in part of this model is a switch".into(),
            ));
        }
        Some(PartKind::Storage(_)) => {
            return Ok((
                ImportKind::Storage,
                "the built-in part of this model is storage".into(),
            ));
        }
        _ => {}
    }
    if bays.iter().any(|b| b.contains("gpu")) {
        return Ok((ImportKind::Server, "it has GPU bays".into()));
    }
    if model.iter().any(|w| w == "dgx" || w == "hgx") || model.iter().any(|w| gpu_server_word(w)) {
        return Ok((
            ImportKind::Server,
            format!("\"{}\" names a GPU server", dt.model),
        ));
    }
    if dt
        .interfaces
        .iter()
        .any(|i| i.kind.starts_with("infiniband-"))
    {
        return Ok((ImportKind::Switch, "it has InfiniBand interfaces".into()));
    }
    if data_ports >= 16 {
        return Ok((
            ImportKind::Switch,
            format!("it has {data_ports} data ports"),
        ));
    }
    if STORAGE_MAKERS.iter().any(|m| maker == *m) {
        return Ok((
            ImportKind::Storage,
            format!("{} makes storage", dt.manufacturer),
        ));
    }
    if model.iter().any(|w| w == "storage" || w == "emc") {
        return Ok((
            ImportKind::Storage,
            format!("\"{}\" names storage", dt.model),
        ));
    }
    if model.iter().any(|w| w == "switch") {
        return Ok((
            ImportKind::Switch,
            format!("\"{}\" names a switch", dt.model),
        ));
    }
    let server_ports = dt.interfaces.iter().any(|i| {
        let n = i.name.to_lowercase();
        ["bmc", "ipmi", "ilo", "idrac", "xcc"]
            .iter()
            .any(|p| n.starts_with(p))
    });
    let server_words = [
        "poweredge",
        "proliant",
        "thinksystem",
        "superserver",
        "sys",
        "as",
    ];
    let server_bays = bays
        .iter()
        .any(|b| b.contains("pci") || b.contains("cpu") || b.contains("dimm"));
    if server_ports || model.iter().any(|w| server_words.contains(&w.as_str())) || server_bays {
        return Ok((
            ImportKind::Server,
            "it has a BMC port, PCIe or CPU bays, or a server model name".into(),
        ));
    }
    let drive_bays = bays
        .iter()
        .filter(|b| {
            ["slot", "drive", "disk", "bay"]
                .iter()
                .any(|w| b.contains(w))
        })
        .count();
    if drive_bays >= 12 && data_ports == 0 {
        return Ok((
            ImportKind::Storage,
            format!("a disk enclosure: {drive_bays} drive slots and no data ports"),
        ));
    }
    if data_ports >= 4 {
        return Ok((
            ImportKind::Switch,
            format!("it has {data_ports} data ports and no server hint"),
        ));
    }
    Err(format!(
        "{data_ports} data ports, no GPU, CPU or PCIe bays, no BMC port, a maker ({}) not known for one kind",
        dt.manufacturer
    ))
}

/// A valid part id from a slug: whitespace and quotes become dashes.
fn part_id(slug: &str) -> String {
    slug.trim()
        .chars()
        .map(|c| {
            if c.is_whitespace() || c == '"' {
                '-'
            } else {
                c
            }
        })
        .collect()
}

/// Largest device type file read: the library's largest are about 100 KB.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// Deepest nesting of YAML flow collections (`[`, `{`) read: a device type nests two or three; a parser given
/// 100,000 levels takes time that grows with their square.
pub const MAX_NESTING: usize = 64;

/// The line at which flow collections (`[`, `{`) nest deeper than `max`, if they do. Quoted text and comments are
/// skipped; this is a guard run before the YAML parser, not a parser.
fn flow_depth_over(text: &str, max: usize) -> Option<usize> {
    let (mut depth, mut line) = (0usize, 1usize);
    let mut quote: Option<char> = None;
    let mut comment = false;
    let mut prev = ' ';
    for c in text.chars() {
        if c == '\n' {
            line += 1;
            comment = false;
        } else if comment {
            // The rest of the line is a comment.
        } else if let Some(q) = quote {
            if c == q {
                quote = None;
            }
        } else {
            match c {
                '\'' | '"' => quote = Some(c),
                '#' if prev.is_whitespace() => comment = true,
                '[' | '{' => {
                    depth += 1;
                    if depth > max {
                        return Some(line);
                    }
                }
                ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        prev = c;
    }
    None
}

/// Imports one NetBox device type file as a part of the kind its data says, checked against the built-in catalog.
pub fn import(path: &Path, catalog: &Catalog) -> Result<Imported, ImportError> {
    import_as(path, catalog, None)
}

/// Imports one NetBox device type file as a part of `kind` when given, else of the kind its data says (refused as
/// [`ImportError::UnclearKind`] when the data does not say).
pub fn import_as(
    path: &Path,
    catalog: &Catalog,
    kind: Option<ImportKind>,
) -> Result<Imported, ImportError> {
    let shown = path.display().to_string();
    // Checked before a byte is read (a FIFO, a device, a sparse file of gigabytes), like every file a command reads.
    let text = crate::io::read_checked_text(path, MAX_FILE_BYTES, "a NetBox device type").map_err(
        |e| match e {
            crate::io::LoadError::Io { source, .. } => ImportError::Io {
                path: shown.clone(),
                source,
            },
            other => ImportError::Parse {
                path: shown.clone(),
                message: other.to_string(),
            },
        },
    )?;
    if let Some(depth) = flow_depth_over(&text, MAX_NESTING) {
        return Err(ImportError::Parse {
            path: shown.clone(),
            message: format!(
                "line {depth}: brackets nested deeper than {MAX_NESTING} levels; a device type nests a few"
            ),
        });
    }
    let name = path
        .file_name()
        .map_or_else(|| shown.clone(), |n| n.to_string_lossy().into_owned());
    let refuse = |reason: String| ImportError::Refused {
        path: shown.clone(),
        reason,
    };
    let value: serde_norway::Value =
        serde_norway::from_str(&text).map_err(|e| ImportError::Parse {
            path: shown.clone(),
            message: e.to_string(),
        })?;
    let Some(map) = value.as_mapping() else {
        return Err(if value.is_null() {
            refuse("the file is empty".into())
        } else {
            refuse("the file is not a YAML mapping of device type fields".into())
        });
    };
    let has = |k: &str| map.contains_key(serde_norway::Value::from(k));
    if !has("u_height") && !has("slug") {
        return Err(refuse(
            "a NetBox module type (a card, PSU or module that goes in a device's bay: no slug, no u_height), not a \
             device type; Racksmith imports device types"
                .into(),
        ));
    }
    let dt: DeviceType = serde_norway::from_value(value).map_err(|e| ImportError::Parse {
        path: shown.clone(),
        message: e.to_string(),
    })?;
    if dt.model.trim().is_empty() {
        return Err(refuse("the device type has no model".into()));
    }
    let mut warnings = Vec::new();

    // Height: whole rack units; a non-integral height takes the next whole unit.
    let u = dt.u_height.unwrap_or(1.0);
    if !u.is_finite() || !(0.0..=60.0).contains(&u) {
        return Err(refuse(format!(
            "u_height {u} is not a height a rack holds (0 to 60)"
        )));
    }
    if u == 0.0 || dt.subdevice_role.as_deref() == Some("child") {
        return Err(refuse(format!(
            "a child device (u_height {u}, subdevice_role {}) that mounts in a parent's device bay; Racksmith places \
             whole rack-mounted units: import the chassis it goes in",
            dt.subdevice_role.as_deref().unwrap_or("none")
        )));
    }
    let height_u = u.ceil();
    if height_u != u {
        warnings.push(format!(
            "{name}: u_height {u} is not a whole number of rack units; the part takes {height_u}U, the units it \
             blocks in a rack"
        ));
    }

    // Data interfaces: not management-only, not named as a management port, with a rate the type names.
    let data: Vec<(&Interface, f64)> = dt
        .interfaces
        .iter()
        .filter(|i| !i.mgmt_only && !management_name(&i.name))
        .filter(|i| {
            !i.description
                .as_deref()
                .is_some_and(|d| d.to_lowercase().contains("management"))
        })
        .filter_map(|i| interface_gbps(&i.kind).map(|g| (i, g)))
        .collect();
    let known = catalog_match(catalog, &dt.model);
    let (kind, why) = match kind {
        Some(k) => (k, "chosen by the user".to_string()),
        None => kind_from_data(&dt, data.len(), known.map(|(_, p)| &p.kind)).map_err(|why| {
            ImportError::UnclearKind {
                path: shown.clone(),
                why,
            }
        })?,
    };
    let unrated: Vec<&str> = dt
        .interfaces
        .iter()
        .filter(|i| !i.mgmt_only && interface_gbps(&i.kind).is_none() && i.kind != "virtual")
        .map(|i| i.name.as_str())
        .collect();
    if !unrated.is_empty() {
        warnings.push(format!(
            "{name}: {} interfaces of a type with no Ethernet or InfiniBand rate (Fibre Channel, other) are not \
             modelled: {}",
            unrated.len(),
            unrated.join(", ")
        ));
    }

    // Port groups by rate: the most numerous rate is the part's ports; a faster group its uplinks.
    let mut by_speed: BTreeMap<u64, Vec<&Interface>> = BTreeMap::new();
    for (i, g) in &data {
        by_speed.entry(g.to_bits()).or_default().push(i);
    }
    let main = by_speed
        .iter()
        .max_by(|(ga, a), (gb, b)| {
            a.len()
                .cmp(&b.len())
                .then(f64::from_bits(**ga).total_cmp(&f64::from_bits(**gb)))
        })
        .map(|(g, v)| (f64::from_bits(*g), v.clone()));
    let (speed, ports) = main.clone().unwrap_or((0.0, Vec::new()));
    let uplinks = by_speed
        .iter()
        .filter(|(g, _)| f64::from_bits(**g) > speed)
        .max_by(|(ga, _), (gb, _)| f64::from_bits(**ga).total_cmp(&f64::from_bits(**gb)))
        .map(|(g, v)| (f64::from_bits(*g), v.clone()))
        .filter(|_| kind == ImportKind::Switch);
    let (uplink_gbps, uplink_ports) = uplinks.clone().unwrap_or((0.0, Vec::new()));
    if by_speed.len() > 1 && kind != ImportKind::Server {
        let mix: Vec<String> = by_speed
            .iter()
            .map(|(g, v)| format!("{}x {}G", v.len(), f64::from_bits(*g)))
            .collect();
        let up = if uplink_ports.is_empty() {
            String::new()
        } else {
            format!(" and {} uplinks at {uplink_gbps}G", uplink_ports.len())
        };
        let left = data.len() - ports.len() - uplink_ports.len();
        warnings.push(format!(
            "{name}: interfaces of several speeds ({}); the part takes the {} at {speed}G{up}{}",
            mix.join(", "),
            ports.len(),
            if left > 0 {
                format!(", the other {left} are not modelled")
            } else {
                String::new()
            }
        ));
    }
    let names: Vec<&str> = data.iter().map(|(i, _)| i.name.as_str()).collect();
    let missing = missing_in_sequence(&names);
    if !missing.is_empty() {
        warnings.push(format!(
            "{name}: {} interfaces, but the numbering has gaps: {} missing",
            data.len(),
            missing.join(", ")
        ));
    }

    // InfiniBand when the interfaces say so (their type, or IB port names), or the model is a Quantum switch.
    let lower = dt.model.to_lowercase();
    let infiniband = ports
        .iter()
        .any(|i| i.kind.starts_with("infiniband-") || i.name.to_uppercase().starts_with("IB"))
        || lower.starts_with("qm")
        || lower.contains("quantum");
    let protocols = if infiniband {
        vec![Protocol::InfiniBand]
    } else {
        vec![Protocol::Ethernet]
    };
    if infiniband && speed > 0.0 && crate::model::IbRate::from_gbps(speed).is_none() {
        warnings.push(format!(
            "{name}: InfiniBand ports at {speed}G: Racksmith cables InfiniBand at EDR (100G) to XDR (800G), so no link \
             can be cabled to them"
        ));
    }

    // Power and weight.
    let draws: Vec<f64> = dt
        .power_ports
        .iter()
        .filter_map(|p| p.maximum_draw)
        .collect();
    // + 0.0: an empty sum is -0.0.
    let power_w: f64 = draws.iter().sum::<f64>() + 0.0;
    if draws.is_empty() {
        warnings.push(format!(
            "{name}: no power draw given (power ports without maximum_draw, or none); set power_w before analysing"
        ));
    }
    // NetBox's weight units (dcim WeightUnitChoices): kg, g, lb, oz.
    let weight_kg = match (dt.weight, dt.weight_unit.as_deref().map(str::trim)) {
        (Some(w), Some("kg")) => Some(w),
        (Some(w), Some("g")) => Some(w / 1000.0),
        (Some(w), Some("lb")) => Some(w * 0.453_592_37),
        (Some(w), Some("oz")) => Some(w * 0.028_349_523_125),
        (Some(w), None | Some("")) => {
            warnings.push(format!("{name}: weight {w} without a unit; taken as kg"));
            Some(w)
        }
        (Some(w), Some(other)) => {
            warnings.push(format!(
                "{name}: weight {w} in \"{other}\", not a NetBox unit (kg, g, lb, oz); weight left unset"
            ));
            None
        }
        (None, _) => None,
    };

    if let Some((id, known)) = known {
        if !draws.is_empty() && known.power_w > 0.0 {
            let total_known = match &known.kind {
                // A server's catalog power is the chassis alone: compare with the system it ships as.
                PartKind::Server(_) => known
                    .source("power_w")
                    .and_then(first_kw)
                    .map_or(known.power_w, |kw| kw * 1000.0),
                _ => known.power_w,
            };
            let ratio = power_w / total_known;
            if !(0.5..=2.0).contains(&ratio) {
                warnings.push(format!(
                    "{name}: power ports sum to {power_w:.0} W max, implausible against {total_known:.0} W for the \
                     built-in {id}; check the file"
                ));
            }
        }
        match &known.kind {
            PartKind::Switch(s) if usize::from(s.ports) != ports.len() => warnings.push(format!(
                "{name}: {} data ports at {speed}G, where the built-in {id} has {} at {}G",
                ports.len(),
                s.ports,
                s.port_gbps
            )),
            PartKind::Server(_) if ports.len() >= 8 => warnings.push(format!(
                "{name}: describes {} network interfaces at {speed}G of its own; the built-in {id} is a server whose \
                 ports come from the NICs in its slots, so these interfaces look like a switch's, not the server's",
                ports.len()
            )),
            _ => {}
        }
    }

    let source = format!("NetBox devicetype-library, {} ({})", dt.slug, name);
    let mut sources = BTreeMap::new();
    sources.insert("height_u".to_string(), source.clone());
    if !draws.is_empty() {
        sources.insert(
            "power_w".into(),
            format!("{source}: sum of power-ports maximum_draw"),
        );
    }
    if weight_kg.is_some() {
        sources.insert("weight_kg".into(), source.clone());
    }
    let count = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
    let mut port_names = BTreeMap::new();
    let part_kind = match kind {
        ImportKind::Switch => {
            if ports.is_empty() {
                return Err(refuse(format!(
                    "a switch with no data interfaces of a known rate ({} interfaces in the file): nothing could be \
                     cabled to it",
                    dt.interfaces.len()
                )));
            }
            for (k, i) in ports.iter().enumerate() {
                port_names.insert(format!("p{}", k + 1), i.name.clone());
            }
            for (k, i) in uplink_ports.iter().enumerate() {
                port_names.insert(format!("u{}", k + 1), i.name.clone());
            }
            for f in ["switch.ports", "switch.port_gbps"] {
                sources.insert(f.to_string(), format!("{source}: interfaces"));
            }
            sources.insert(
                "switch.protocols".into(),
                format!("{source}: InfiniBand interface types or IB port names, else Ethernet"),
            );
            sources.insert("switch.latency_ns".into(), "default: 500 ns; set it".into());
            PartKind::Switch(SwitchSpec {
                ports: count(ports.len()),
                port_gbps: speed,
                protocols,
                uplink_ports: count(uplink_ports.len()),
                uplink_gbps,
                ..SwitchSpec::default()
            })
        }
        ImportKind::Storage => {
            for (k, i) in ports.iter().enumerate() {
                port_names.insert(format!("p{}", k + 1), i.name.clone());
            }
            if !ports.is_empty() {
                for f in ["storage.ports", "storage.port_gbps"] {
                    sources.insert(f.to_string(), format!("{source}: interfaces"));
                }
            }
            let with = if ports.is_empty() {
                "no data ports of a known rate (its controllers' ports, if any, are not in this file)".to_string()
            } else {
                format!("{} data ports at {speed}G", ports.len())
            };
            warnings.push(format!(
                "{name}: storage with {with}; NetBox gives no throughput or capacity: set read_gbyte_s, \
                 write_gbyte_s and capacity_tb"
            ));
            PartKind::Storage(StorageSpec {
                read_gbyte_s: 0.0,
                write_gbyte_s: 0.0,
                capacity_tb: 0.0,
                ports: count(ports.len()),
                port_gbps: speed,
                protocols,
            })
        }
        ImportKind::Server => {
            if let Some((
                id,
                Part {
                    kind: PartKind::Server(spec),
                    ..
                },
            )) = known
            {
                warnings.push(format!(
                    "{name}: a server; its GPU and NIC slots are the built-in {id}'s (NetBox lists no slots)"
                ));
                PartKind::Server(spec.clone())
            } else {
                let gpu_bays: Vec<&Bay> = dt
                    .module_bays
                    .iter()
                    .filter(|b| b.text().contains("gpu"))
                    .collect();
                let gpu_slots: Vec<GpuSlotSpec> = gpu_bays
                    .iter()
                    .map(|b| GpuSlotSpec {
                        form: if b.text().contains("pci") {
                            FormFactor::Pcie
                        } else {
                            FormFactor::Sxm
                        },
                        slot: SlotSpec {
                            parent: "cpu0".into(),
                            link: None,
                        },
                    })
                    .collect();
                let cpus = dt
                    .module_bays
                    .iter()
                    .filter(|b| {
                        let n = b.name.to_lowercase();
                        n.starts_with("cpu") && n.len() > 3
                    })
                    .count();
                let onboard: Vec<&str> = data.iter().map(|(i, _)| i.name.as_str()).collect();
                warnings.push(format!(
                    "{name}: a server with {}; its network ports come from NICs in NIC slots, which NetBox does not \
                     list: add NIC slots before cabling it{}",
                    match gpu_slots.len() {
                        0 => "no GPU slots (no GPU bays in the file)".to_string(),
                        n => format!("{n} GPU slots (its GPU bays)"),
                    },
                    if onboard.is_empty() {
                        String::new()
                    } else {
                        format!(" (its onboard interfaces {} are not modelled)", onboard.join(", "))
                    }
                ));
                if !gpu_slots.is_empty() {
                    sources.insert(
                        "server.gpu_slots".into(),
                        format!("{source}: GPU module bays"),
                    );
                }
                if cpus > 1 {
                    // Sockets need the bandwidth between them, which NetBox does not give: one root complex.
                    warnings.push(format!(
                        "{name}: {cpus} CPU bays, modelled as one root complex (cpu0): NetBox gives no bandwidth \
                         between sockets; set cpu_sockets and inter_socket_gbyte_s for the real board"
                    ));
                }
                PartKind::Server(ServerSpec {
                    cpu_sockets: 1,
                    gpu_slots,
                    ..ServerSpec::default()
                })
            }
        }
    };
    let mut id = part_id(if dt.slug.trim().is_empty() {
        name.trim_end_matches(".yaml").trim_end_matches(".yml")
    } else {
        &dt.slug
    });
    if id != dt.slug {
        warnings.push(format!(
            "{name}: slug \"{}\" is not a valid part id; the part is \"{id}\"",
            dt.slug
        ));
    }
    if catalog.parts.contains_key(&crate::model::PartId::new(&id)) {
        let new = super::user::free_id(catalog, &format!("{id}-netbox"));
        warnings.push(format!(
            "{name}: slug \"{id}\" is a built-in part's id; the part is \"{new}\" so it does not replace it"
        ));
        id = new.as_str().to_string();
    }
    let part = Part {
        name: if words(&dt.model).first() == words(&dt.manufacturer).first() {
            dt.model.clone()
        } else {
            format!("{} {}", dt.manufacturer, dt.model)
        },
        vendor: dt.manufacturer.clone(),
        height_u: height_u as u16,
        power_w,
        weight_kg: weight_kg.unwrap_or(0.0),
        price_usd: 0.0,
        sources,
        part_number: dt.part_number.clone().filter(|p| !p.trim().is_empty()),
        kind: part_kind,
        netbox: Some(NetboxOrigin {
            slug: dt.slug.clone(),
            manufacturer: dt.manufacturer.clone(),
            model: dt.model.clone(),
            ports: port_names,
            interfaces: dt
                .interfaces
                .iter()
                .map(|i| NetboxInterface {
                    name: i.name.clone(),
                    kind: i.kind.clone(),
                    mgmt_only: i.mgmt_only,
                })
                .collect(),
        }),
        ..Part::default()
    };
    // Never hand back a part the catalog loader would refuse.
    let problems = super::user::check(&id, &part);
    if !problems.is_empty() {
        return Err(refuse(format!(
            "the part would not load: {}",
            problems.join("; ")
        )));
    }
    Ok(Imported {
        id,
        part,
        warnings,
        file: shown,
        kind_reason: why,
    })
}

/// Imports many files: each one imported (with its warnings) or refused (with its reason), a bad file never
/// stopping the rest. A slug already imported from an earlier file is refused, naming that file.
pub fn import_files(paths: &[&Path], catalog: &Catalog, kind: Option<ImportKind>) -> Batch {
    let mut batch = Batch::default();
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for path in paths {
        match import_as(path, catalog, kind) {
            Ok(i) => {
                if let Some(first) = seen.get(&i.id) {
                    batch.refused.push(ImportError::Refused {
                        path: path.display().to_string(),
                        reason: format!(
                            "duplicate slug \"{}\": already imported from {first}",
                            i.id
                        ),
                    });
                    continue;
                }
                seen.insert(i.id.clone(), i.file.clone());
                batch.imported.push(i);
            }
            Err(e) => batch.refused.push(e),
        }
    }
    batch
}

/// The first "N kW" figure in a source text ("derived: 6.5 kW system max ..." -> 6.5).
fn first_kw(text: &str) -> Option<f64> {
    let at = text.find(" kW")?;
    let head = text.get(..at)?;
    let start = head
        .rfind(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map_or(0, |i| i + 1);
    head.get(start..)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_flow_nesting_is_found_before_parsing() {
        assert_eq!(flow_depth_over("a: [1, {b: [2]}]", 3), None);
        assert_eq!(flow_depth_over("a:\n  - [[[[x]]]]", 3), Some(2));
        // Brackets in quotes and comments do not count.
        assert_eq!(flow_depth_over("a: \"[[[[\" # [[[[\nb: '{{{{'", 3), None);
    }

    #[test]
    fn interface_speeds() {
        assert_eq!(interface_gbps("400gbase-x-osfp"), Some(400.0));
        assert_eq!(interface_gbps("1000base-t"), Some(1.0));
        assert_eq!(interface_gbps("2.5gbase-t"), Some(2.5));
        assert_eq!(interface_gbps("1.6tbase-x-osfp1600"), Some(1600.0));
        assert_eq!(interface_gbps("infiniband-ndr"), Some(400.0));
        assert_eq!(interface_gbps("infiniband-xdr"), Some(800.0));
        assert_eq!(interface_gbps("infiniband-fdr"), Some(56.0));
        assert_eq!(interface_gbps("16gfc-sfpp"), None);
        assert_eq!(interface_gbps("rj-45"), None);
        assert_eq!(interface_gbps("virtual"), None);
    }

    #[test]
    fn gaps_in_numbered_names() {
        let names = ["P0.0", "P0.1", "P1.0", "P1.1", "P2.1", "P3.0", "P3.1"];
        assert_eq!(missing_in_sequence(&names), vec!["P2.0".to_string()]);
        assert!(missing_in_sequence(&["swp1", "swp2", "swp3", "swp4"]).is_empty());
        assert_eq!(first_kw("derived: 6.5 kW system max"), Some(6.5));
    }

    #[test]
    fn models_match_whole_words_only() {
        let c = Catalog::builtin().unwrap_or_default();
        assert_eq!(catalog_match(&c, "QM9700").map(|m| m.0), Some("qm9700"));
        assert_eq!(
            catalog_match(&c, "NVIDIA DGX A100 640GB").map(|m| m.0),
            Some("dgx-a100")
        );
        assert_eq!(catalog_match(&c, "NVIDIA T4").map(|m| m.0), Some("t4"));
        // The false matches: `t4` is a word of none of these.
        for m in [
            "PowerEdge T420",
            "PowerEdge T430",
            "PowerEdge T440",
            "Aruba 2930F-48G-PoE+ T4",
            "DCS-7280SR3-48YC8",
        ] {
            let got = catalog_match(&c, m).map(|x| x.0);
            assert!(got != Some("t4") || m.ends_with(" T4"), "{m}: {got:?}");
        }
        assert_eq!(catalog_match(&c, "PowerEdge T420"), None);
    }

    #[test]
    fn gpu_server_model_words() {
        for w in ["421ge", "4029gp", "8125gs"] {
            assert!(gpu_server_word(w), "{w}");
        }
        for w in ["1029u", "6049p", "t420", "g292"] {
            assert!(!gpu_server_word(w), "{w}");
        }
    }
}
