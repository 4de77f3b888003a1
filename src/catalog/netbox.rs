//! Importing NetBox device types (the devicetype-library's YAML: `u_height`, `weight`, `power-ports`,
//! `interfaces`) as catalog parts, without trusting them: the public library has defects, so the importer checks
//! what it reads and says what looks wrong (numbered ports missing from a sequence, no power draw, a draw far from
//! the built-in catalog's figure for the same model, interfaces that do not match that model's ports).

use super::{Catalog, Part, PartKind, SwitchSpec};
use crate::model::Protocol;
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
}

#[derive(Debug, Deserialize, Default)]
#[serde(default)]
struct PowerPort {
    name: String,
    maximum_draw: Option<f64>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(default)]
struct Interface {
    name: String,
    #[serde(rename = "type")]
    kind: String,
    mgmt_only: bool,
}

#[derive(Debug, Deserialize, Default)]
#[serde(default)]
struct DeviceType {
    manufacturer: String,
    model: String,
    part_number: Option<String>,
    slug: String,
    u_height: f64,
    weight: Option<f64>,
    weight_unit: Option<String>,
    #[serde(rename = "power-ports")]
    power_ports: Vec<PowerPort>,
    interfaces: Vec<Interface>,
}

/// A part read from a NetBox device type, with what the importer noticed.
#[derive(Debug, Clone)]
pub struct Imported {
    /// Part id (the file's slug).
    pub id: String,
    /// The part, as a switch with the data ports found.
    pub part: Part,
    /// What looks wrong or missing, one sentence each.
    pub warnings: Vec<String>,
}

/// Gb/s of a NetBox interface type such as `400gbase-x-osfp` (400) or `1000base-t` (1); None when it names none.
pub fn interface_gbps(kind: &str) -> Option<f64> {
    let digits: String = kind.chars().take_while(char::is_ascii_digit).collect();
    let n: f64 = digits.parse().ok()?;
    let rest = kind.get(digits.len()..)?;
    if rest.starts_with("gbase") {
        Some(n)
    } else if rest.starts_with("base") {
        Some(n / 1000.0)
    } else {
        None
    }
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

/// The built-in part a device type describes, by model name (`QM9700` matches `qm9700`).
fn catalog_match<'a>(catalog: &'a Catalog, model: &str) -> Option<(&'a str, &'a Part)> {
    let key: String = model
        .to_lowercase()
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect();
    catalog
        .parts
        .iter()
        .filter(|(id, _)| {
            let id: String = id
                .as_str()
                .chars()
                .filter(char::is_ascii_alphanumeric)
                .collect();
            !id.is_empty() && key.contains(&id)
        })
        .max_by_key(|(id, _)| id.as_str().len())
        .map(|(id, p)| (id.as_str(), p))
}

/// Imports one NetBox device type file as a switch part (data interfaces become its ports), checked against the
/// built-in catalog.
pub fn import(path: &Path, catalog: &Catalog) -> Result<Imported, ImportError> {
    let text = std::fs::read_to_string(path).map_err(|source| ImportError::Io {
        path: path.display().to_string(),
        source,
    })?;
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let dt: DeviceType = serde_norway::from_str(&text).map_err(|e| ImportError::Parse {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    let mut warnings = Vec::new();
    // Data interfaces: those with a speed of 10G and more, not management-only.
    let data: Vec<(&Interface, f64)> = dt
        .interfaces
        .iter()
        .filter(|i| !i.mgmt_only)
        .filter_map(|i| {
            interface_gbps(&i.kind)
                .filter(|g| *g >= 10.0)
                .map(|g| (i, g))
        })
        .collect();
    let mut by_speed: BTreeMap<u64, usize> = BTreeMap::new();
    for (_, g) in &data {
        *by_speed.entry(g.to_bits()).or_default() += 1;
    }
    let (speed, ports) = by_speed
        .iter()
        .max_by_key(|(g, n)| (**n, **g))
        .map_or((0.0, 0), |(g, n)| (f64::from_bits(*g), *n));
    if by_speed.len() > 1 {
        let mix: Vec<String> = by_speed
            .iter()
            .map(|(g, n)| format!("{n}x {}G", f64::from_bits(*g)))
            .collect();
        warnings.push(format!(
            "{name}: interfaces of several speeds ({}); the part takes the {ports} at {speed}G",
            mix.join(", ")
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
    let weight_kg = match (dt.weight, dt.weight_unit.as_deref()) {
        (Some(w), Some("lb")) => Some(w * 0.453_592),
        (Some(w), Some("g")) => Some(w / 1000.0),
        (Some(w), _) => Some(w),
        (None, _) => None,
    };
    if let Some((id, known)) = catalog_match(catalog, &dt.model) {
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
            PartKind::Switch(s) if usize::from(s.ports) != ports => warnings.push(format!(
                "{name}: {ports} data ports at {speed}G, where the built-in {id} has {} at {}G",
                s.ports, s.port_gbps
            )),
            PartKind::Server(_) => warnings.push(format!(
                "{name}: describes {ports} network interfaces at {speed}G of its own; the built-in {id} is a server whose \
                 ports come from the NICs in its slots, so these interfaces look like a switch's, not the server's"
            )),
            _ => {}
        }
    }
    let protocols = if dt.model.to_lowercase().starts_with("qm")
        || dt.model.to_lowercase().contains("quantum")
    {
        vec![Protocol::InfiniBand]
    } else {
        vec![Protocol::Ethernet]
    };
    let source = format!("NetBox devicetype-library, {} ({})", dt.slug, name);
    let mut sources = BTreeMap::new();
    for f in ["height_u", "switch.ports", "switch.port_gbps"] {
        sources.insert(f.to_string(), source.clone());
    }
    sources.insert(
        "switch.protocols".into(),
        format!("{source}: InfiniBand for Quantum (QM) models, else Ethernet"),
    );
    // A figure the file does not give has no source: reports call it an estimate until the user sets it.
    if !draws.is_empty() {
        sources.insert(
            "power_w".into(),
            format!("{source}: sum of power-ports maximum_draw"),
        );
    }
    if weight_kg.is_some() {
        sources.insert("weight_kg".into(), source.clone());
    }
    sources.insert("switch.latency_ns".into(), "default: 500 ns; set it".into());
    let part = Part {
        name: format!("{} {}", dt.manufacturer, dt.model),
        vendor: dt.manufacturer.clone(),
        height_u: dt.u_height.max(0.0).round() as u16,
        power_w,
        weight_kg: weight_kg.unwrap_or(0.0),
        price_usd: 0.0,
        sources,
        part_number: dt.part_number.clone(),
        kind: PartKind::Switch(SwitchSpec {
            ports: u16::try_from(ports).unwrap_or(u16::MAX),
            port_gbps: speed,
            protocols,
            ..SwitchSpec::default()
        }),
        ..Part::default()
    };
    let id = if dt.slug.is_empty() {
        name.trim_end_matches(".yaml").to_string()
    } else {
        dt.slug.clone()
    };
    Ok(Imported { id, part, warnings })
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
    fn interface_speeds() {
        assert_eq!(interface_gbps("400gbase-x-osfp"), Some(400.0));
        assert_eq!(interface_gbps("1000base-t"), Some(1.0));
        assert_eq!(interface_gbps("rj-45"), None);
    }

    #[test]
    fn gaps_in_numbered_names() {
        let names = ["P0.0", "P0.1", "P1.0", "P1.1", "P2.1", "P3.0", "P3.1"];
        assert_eq!(missing_in_sequence(&names), vec!["P2.0".to_string()]);
        assert!(missing_in_sequence(&["swp1", "swp2", "swp3", "swp4"]).is_empty());
        assert_eq!(first_kw("derived: 6.5 kW system max"), Some(6.5));
    }
}
