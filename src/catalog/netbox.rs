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

use super::{Catalog, Part};
use crate::model::Protocol;
use crate::model::part::{NetboxInterface, NetboxOrigin};
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
        /// Path of the YAML file as the caller gave it, which the message starts with.
        path: String,
        /// The OS error.
        source: std::io::Error,
    },
    /// The YAML is not a device type.
    #[error("{path}: not a NetBox device type: {message}")]
    Parse {
        /// Path of the YAML file as the caller gave it, which the message starts with.
        path: String,
        /// What the parser said (with line and column).
        message: String,
    },
    /// The file is a device type Racksmith cannot use as it stands, or would make a part the catalog loader
    /// refuses.
    #[error("{path}: {reason}")]
    Refused {
        /// Path of the YAML file as the caller gave it, which the message starts with.
        path: String,
        /// Why, in a sentence or two.
        reason: String,
    },
    /// The data does not say whether the device is a server, a switch or storage: the user chooses.
    #[error(
        "{path}: cannot tell whether this is a server, a switch or storage ({why}); choose the kind"
    )]
    UnclearKind {
        /// Path of the YAML file as the caller gave it, which the message starts with.
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

/// The data interfaces grouped by rate: the most numerous rate is the part's ports, a faster group a switch's uplinks.
struct PortGroups<'a> {
    /// Rate of the main group, Gb/s (0 without data interfaces).
    speed: f64,
    /// The main group.
    ports: Vec<&'a Interface>,
    /// Rate of the uplinks, Gb/s (0 without).
    uplink_gbps: f64,
    /// The uplinks (switches only).
    uplink_ports: Vec<&'a Interface>,
}

/// Groups `data` by rate, with a warning naming the groups when there are several.
fn port_groups<'a>(
    data: &[(&'a Interface, f64)],
    kind: ImportKind,
    name: &str,
    warnings: &mut Vec<String>,
) -> PortGroups<'a> {
    let mut by_speed: BTreeMap<u64, Vec<&Interface>> = BTreeMap::new();
    for (i, g) in data {
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
    PortGroups {
        speed,
        ports,
        uplink_gbps,
        uplink_ports,
    }
}

/// Imports one NetBox device type file as a part of the kind its data says, checked against the built-in catalog.
pub fn import(path: &Path, catalog: &Catalog) -> Result<Imported, ImportError> {
    import_as(path, catalog, None)
}

/// Imports one NetBox device type file as a part of `kind` when given, else of the kind its data says (refused as
/// [`ImportError::UnclearKind`] when the data does not say). The steps (read, height, interfaces, kind, port groups,
/// power, the part) run in the order their warnings should read, each step a call.
pub fn import_as(
    path: &Path,
    catalog: &Catalog,
    kind: Option<ImportKind>,
) -> Result<Imported, ImportError> {
    let shown = path.display().to_string();
    let name = path
        .file_name()
        .map_or_else(|| shown.clone(), |n| n.to_string_lossy().into_owned());
    let refuse = |reason: String| ImportError::Refused {
        path: shown.clone(),
        reason,
    };
    let dt = read_device_type(path, &shown)?;
    let mut warnings = Vec::new();

    let height_u = height_u(&dt, &name, &mut warnings).map_err(refuse)?;

    // Data interfaces: not management-only, not named as a management port, with a rate the type names.
    let data = data_interfaces(&dt);
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
    warn_unrated(&dt, &name, &mut warnings);

    let groups = port_groups(&data, kind, &name, &mut warnings);
    let (speed, ports, uplink_gbps, uplink_ports) = (
        groups.speed,
        groups.ports,
        groups.uplink_gbps,
        groups.uplink_ports,
    );
    let names: Vec<&str> = data.iter().map(|(i, _)| i.name.as_str()).collect();
    warn_gaps(&names, &name, &mut warnings);

    let protocols = protocols(&dt, &ports, speed, &name, &mut warnings);

    let (draws, power_w, weight_kg) = part::power_and_weight(&dt, &name, &mut warnings);

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
    let mut port_names = BTreeMap::new();
    let found = part::Found {
        dt: &dt,
        name: &name,
        source: &source,
        data: &data,
        known,
        speed,
        ports: &ports,
        uplink_gbps,
        uplink_ports: &uplink_ports,
        protocols,
    };
    part::compare_with_builtin(&found, &draws, power_w, &mut warnings);
    let part_kind = part::part_kind(kind, &found, &mut sources, &mut port_names, &mut warnings)
        .map_err(refuse)?;
    let id = import_id(catalog, &dt, &name, &mut warnings);
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
        netbox: Some(origin(&dt, port_names)),
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

/// The part's height in whole rack units (a non-integral height takes the next whole unit, with a warning);
/// refused with the reason for a height no rack holds or a child device.
fn height_u(dt: &DeviceType, name: &str, warnings: &mut Vec<String>) -> Result<f64, String> {
    let u = dt.u_height.unwrap_or(1.0);
    if !u.is_finite() || !(0.0..=60.0).contains(&u) {
        return Err(format!(
            "u_height {u} is not a height a rack holds (0 to 60)"
        ));
    }
    if u == 0.0 || dt.subdevice_role.as_deref() == Some("child") {
        return Err(format!(
            "a child device (u_height {u}, subdevice_role {}) that mounts in a parent's device bay; Racksmith places \
             whole rack-mounted units: import the chassis it goes in",
            dt.subdevice_role.as_deref().unwrap_or("none")
        ));
    }
    let height_u = u.ceil();
    if height_u != u {
        warnings.push(format!(
            "{name}: u_height {u} is not a whole number of rack units; the part takes {height_u}U, the units it \
             blocks in a rack"
        ));
    }
    Ok(height_u)
}

/// Data interfaces: not management-only, not named as a management port, with a rate the type names.
fn data_interfaces(dt: &DeviceType) -> Vec<(&Interface, f64)> {
    dt.interfaces
        .iter()
        .filter(|i| !i.mgmt_only && !management_name(&i.name))
        .filter(|i| {
            !i.description
                .as_deref()
                .is_some_and(|d| d.to_lowercase().contains("management"))
        })
        .filter_map(|i| interface_gbps(&i.kind).map(|g| (i, g)))
        .collect()
}

/// Warns of interfaces of a type with no Ethernet or InfiniBand rate (Fibre Channel, other), not modelled.
fn warn_unrated(dt: &DeviceType, name: &str, warnings: &mut Vec<String>) {
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
}

/// Warns when the data interfaces' numbering has gaps.
fn warn_gaps(names: &[&str], name: &str, warnings: &mut Vec<String>) {
    let missing = missing_in_sequence(names);
    if !missing.is_empty() {
        warnings.push(format!(
            "{name}: {} interfaces, but the numbering has gaps: {} missing",
            names.len(),
            missing.join(", ")
        ));
    }
}

/// The part's protocols: InfiniBand when the interfaces say so (their type, or IB port names), or the model is a
/// Quantum switch, else Ethernet; with a warning for InfiniBand ports at a rate no cable carries.
fn protocols(
    dt: &DeviceType,
    ports: &[&Interface],
    speed: f64,
    name: &str,
    warnings: &mut Vec<String>,
) -> Vec<Protocol> {
    let lower = dt.model.to_lowercase();
    let infiniband = ports
        .iter()
        .any(|i| i.kind.starts_with("infiniband-") || i.name.to_uppercase().starts_with("IB"))
        || lower.starts_with("qm")
        || lower.contains("quantum");
    if infiniband && speed > 0.0 && crate::model::IbRate::from_gbps(speed).is_none() {
        warnings.push(format!(
            "{name}: InfiniBand ports at {speed}G: Racksmith cables InfiniBand at EDR (100G) to XDR (800G), so no link \
             can be cabled to them"
        ));
    }
    if infiniband {
        vec![Protocol::InfiniBand]
    } else {
        vec![Protocol::Ethernet]
    }
}

/// The part's id: the slug made valid (or the file's name without a slug), renamed when a built-in part has it;
/// each change with a warning.
fn import_id(catalog: &Catalog, dt: &DeviceType, name: &str, warnings: &mut Vec<String>) -> String {
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
    id
}

/// Where the part came from in NetBox: its slug, maker, model, ports' NetBox names and interfaces.
fn origin(dt: &DeviceType, port_names: BTreeMap<String, String>) -> NetboxOrigin {
    NetboxOrigin {
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
    }
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

mod kind;
mod part;
mod read;

use kind::{catalog_match, kind_from_data, management_name, words};
use read::read_device_type;
pub use read::{EXPANSION_BASE, EXPANSION_PER_BYTE, MAX_FILE_BYTES, MAX_NESTING};
#[cfg(test)]
use {kind::gpu_server_word, read::flow_depth_over};

#[cfg(test)]
mod tests;
