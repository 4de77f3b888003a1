//! The part a NetBox device type makes once its kind is known: power and weight from the power ports, the
//! figures checked against the built-in part of the same model, and the switch, storage or server spec with the
//! source of each figure and the NetBox name of each port.

use super::{Bay, DeviceType, ImportKind, Interface, first_kw};
use crate::catalog::{Part, PartKind, ServerSpec, StorageSpec, SwitchSpec};
use crate::model::Protocol;
use crate::model::part::{FormFactor, GpuSlotSpec, SlotSpec};
use std::collections::BTreeMap;

/// What the importer read from a device type and worked out before building the part.
pub(super) struct Found<'a> {
    /// The device type.
    pub dt: &'a DeviceType,
    /// The file's name, for warnings.
    pub name: &'a str,
    /// The source text every figure cites.
    pub source: &'a str,
    /// Data interfaces with their rates, Gb/s.
    pub data: &'a [(&'a Interface, f64)],
    /// The built-in part of the same model, if any.
    pub known: Option<(&'a str, &'a Part)>,
    /// Rate of the main port group, Gb/s.
    pub speed: f64,
    /// The main port group.
    pub ports: &'a [&'a Interface],
    /// Rate of the uplink group (switches), Gb/s.
    pub uplink_gbps: f64,
    /// The uplink group (switches).
    pub uplink_ports: &'a [&'a Interface],
    /// InfiniBand or Ethernet, from the interfaces.
    pub protocols: Vec<Protocol>,
}

/// The draws of the power ports that give one, their sum in W, and the weight in kg (NetBox's units converted),
/// with a warning when either is missing or unclear.
pub(super) fn power_and_weight(
    dt: &DeviceType,
    name: &str,
    warnings: &mut Vec<String>,
) -> (Vec<f64>, f64, Option<f64>) {
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
    (draws, power_w, weight_kg)
}

/// Warnings where the file's figures are implausible against the built-in part of the same model (power off by
/// more than 2x, a different number of ports, a "server" with a switch's interfaces).
pub(super) fn compare_with_builtin(
    found: &Found<'_>,
    draws: &[f64],
    power_w: f64,
    warnings: &mut Vec<String>,
) {
    let Some((id, known)) = found.known else {
        return;
    };
    let (name, speed, ports) = (found.name, found.speed, found.ports);
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

/// The spec of the part of `kind`, with the source of its figures and its ports' NetBox names; refused with the
/// reason when nothing could be cabled to it. One arm per kind, each the figures NetBox gives for that kind and the
/// warnings about what it does not give.
pub(super) fn part_kind(
    kind: ImportKind,
    found: &Found<'_>,
    sources: &mut BTreeMap<String, String>,
    port_names: &mut BTreeMap<String, String>,
    warnings: &mut Vec<String>,
) -> Result<PartKind, String> {
    Ok(match kind {
        ImportKind::Switch => switch_kind(found, sources, port_names)?,
        ImportKind::Storage => storage_kind(found, sources, port_names, warnings),
        ImportKind::Server => server_kind(found, sources, warnings),
    })
}

/// A count as a port or slot count.
fn count(n: usize) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}

/// A switch: its main ports and uplinks from the interfaces; refused without a data interface of a known rate.
fn switch_kind(
    found: &Found<'_>,
    sources: &mut BTreeMap<String, String>,
    port_names: &mut BTreeMap<String, String>,
) -> Result<PartKind, String> {
    let Found {
        dt,
        source,
        speed,
        ports,
        uplink_gbps,
        uplink_ports,
        ..
    } = *found;
    let protocols = found.protocols.clone();
    if ports.is_empty() {
        return Err(format!(
            "a switch with no data interfaces of a known rate ({} interfaces in the file): nothing could be \
                 cabled to it",
            dt.interfaces.len()
        ));
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
    Ok(PartKind::Switch(SwitchSpec {
        ports: count(ports.len()),
        port_gbps: speed,
        protocols,
        uplink_ports: count(uplink_ports.len()),
        uplink_gbps,
        ..SwitchSpec::default()
    }))
}

/// Storage: its ports from the interfaces; NetBox gives no throughput or capacity, which a warning asks for.
fn storage_kind(
    found: &Found<'_>,
    sources: &mut BTreeMap<String, String>,
    port_names: &mut BTreeMap<String, String>,
    warnings: &mut Vec<String>,
) -> PartKind {
    let Found {
        name,
        source,
        speed,
        ports,
        ..
    } = *found;
    let protocols = found.protocols.clone();
    for (k, i) in ports.iter().enumerate() {
        port_names.insert(format!("p{}", k + 1), i.name.clone());
    }
    if !ports.is_empty() {
        for f in ["storage.ports", "storage.port_gbps"] {
            sources.insert(f.to_string(), format!("{source}: interfaces"));
        }
    }
    let with = if ports.is_empty() {
        "no data ports of a known rate (its controllers' ports, if any, are not in this file)"
            .to_string()
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

/// A server: the built-in part's slots when the model is known, else GPU slots from its GPU bays and one root
/// complex; its NIC slots are not in NetBox, which a warning says.
fn server_kind(
    found: &Found<'_>,
    sources: &mut BTreeMap<String, String>,
    warnings: &mut Vec<String>,
) -> PartKind {
    let Found {
        dt,
        name,
        source,
        data,
        known,
        ..
    } = *found;
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
