//! Ports: derived from a device's part and the NICs in its slots, never stored. A link names a port by
//! device id and port name ("p12" on a switch, "nic3/p1" on a server).

use super::part::{NicRole, Part, PartKind};
use super::{Design, Device, DeviceId, Medium, Protocol};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A port of a device, by name. Written in files as one string, `"DEVICE:PORT"` (e.g. `"12:nic3/p1"`), which keeps
/// link lines short in designs with a hundred thousand cables.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct PortRef {
    /// The device the port is on, by the id the design handed out (the number before the colon in files).
    pub device: DeviceId,
    /// Port name on that device.
    pub port: compact_str::CompactString,
}

impl PortRef {
    /// A port reference.
    pub fn new(device: DeviceId, port: impl Into<compact_str::CompactString>) -> Self {
        Self {
            device,
            port: port.into(),
        }
    }

    /// NIC slot index for a server port name like "nic3/p1".
    pub fn nic_slot(&self) -> Option<u16> {
        let rest = self.port.strip_prefix("nic")?;
        let end = slash(rest).unwrap_or(rest.len());
        rest.get(..end)?.parse().ok()
    }

    /// NIC slot and port number of a server port name like "nic3/p1" (3, 1).
    pub fn nic_slot_and_port(&self) -> Option<(u16, u16)> {
        let rest = self.port.strip_prefix("nic")?;
        let at = slash(rest)?;
        let (slot, k) = (rest.get(..at)?, rest.get(at + 1..)?);
        Some((slot.parse().ok()?, k.strip_prefix('p')?.parse().ok()?))
    }
}

/// Where the first `/` of a port name is: a byte search (the analysis reads every cable end's name, and a search
/// for a `char` compares through `memcmp` at each candidate).
fn slash(name: &str) -> Option<usize> {
    name.bytes().position(|b| b == b'/')
}

impl Serialize for PortRef {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{}:{}", self.device.0, self.port))
    }
}

/// A port is written as the string "DEVICE:PORT" (`impl Serialize` above).
#[cfg(feature = "schema")]
impl schemars::JsonSchema for PortRef {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "PortRef".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^[0-9]+:.+$",
            "description": "A port as \"DEVICE:PORT\": the device's id in the design file and the port's name, e.g. \"12:nic0/p1\"."
        })
    }
}

impl<'de> Deserialize<'de> for PortRef {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = PortRef;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a port as \"DEVICE:PORT\", e.g. \"12:nic0/p1\"")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<PortRef, E> {
                let (device, port) = v.split_once(':').ok_or_else(|| {
                    E::custom(format!("port \"{v}\" is not of the form \"DEVICE:PORT\""))
                })?;
                let device: u64 = device.parse().map_err(|_| {
                    E::custom(format!("port \"{v}\": \"{device}\" is not a device number"))
                })?;
                if port.is_empty() {
                    return Err(E::custom(format!("port \"{v}\" has no port name")));
                }
                Ok(PortRef {
                    device: DeviceId(device),
                    port: port.into(),
                })
            }
        }
        d.deserialize_str(V)
    }
}

impl fmt::Display for PortRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.device, self.port)
    }
}

/// What a port is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum PortRole {
    /// A switch port.
    Fabric,
    /// A server NIC for GPU (compute) traffic.
    Compute,
    /// A server NIC for storage and in-band traffic.
    Storage,
    /// A server NIC for management.
    Management,
    /// A port of a storage appliance.
    StorageTarget,
}

/// A port and what it can carry.
#[derive(Debug, Clone, PartialEq)]
pub struct PortInfo {
    /// Name on its device.
    pub name: String,
    /// Protocols it speaks (VPI adapters speak both InfiniBand and Ethernet).
    pub protocols: Vec<Protocol>,
    /// Fastest rate it runs at, Gb/s per direction.
    pub max_gbps: f64,
    /// What it is for.
    pub role: PortRole,
}

impl PortInfo {
    /// Whether the port can run a medium; the reason when not.
    pub fn accepts(&self, medium: &Medium) -> Result<(), String> {
        accepts(&self.protocols, self.max_gbps, medium)
    }
}

/// What a port can carry, borrowed from its part's spec (no allocation: the hot path for large designs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PortSpec<'a> {
    /// Protocols it speaks.
    pub protocols: &'a [Protocol],
    /// Fastest rate, Gb/s per direction.
    pub max_gbps: f64,
    /// What it is for.
    pub role: PortRole,
}

impl PortSpec<'_> {
    /// Whether the port can run a medium; the reason when not.
    pub fn accepts(&self, medium: &Medium) -> Result<(), String> {
        accepts(self.protocols, self.max_gbps, medium)
    }
}

fn accepts(protocols: &[Protocol], max_gbps: f64, medium: &Medium) -> Result<(), String> {
    let protocol = medium.protocol();
    if !protocols.contains(&protocol) {
        return Err(format!(
            "speaks {} but the link is {medium}",
            protocol_list(protocols)
        ));
    }
    if medium.gbps() > max_gbps + 1e-9 {
        return Err(format!(
            "runs at most {max_gbps} Gb/s but the link is {medium}"
        ));
    }
    Ok(())
}

/// Parses "p12" (prefix "p") into 12.
fn numbered(name: &str, prefix: &str) -> Option<u16> {
    let digits = name.strip_prefix(prefix)?;
    canonical_number(digits).filter(|n| *n >= 1)
}

/// Parses a broken-out switch port, "p12/2" (the second logical port of port 12), into (12, 2).
pub(crate) fn split_port(name: &str) -> Option<(u16, u16)> {
    let (n, k) = name.split_once('/')?;
    Some((numbered(n, "p")?, canonical_number(k).filter(|k| *k >= 1)?))
}

/// A number written the one way `to_string` writes it (no sign, no leading zero), without allocating: port names
/// are parsed for every cable end of a design.
fn canonical_number(digits: &str) -> Option<u16> {
    let canonical =
        digits.bytes().all(|b| b.is_ascii_digit()) && (digits == "0" || !digits.starts_with('0'));
    if canonical { digits.parse().ok() } else { None }
}

fn protocol_list(protocols: &[Protocol]) -> String {
    let names: Vec<String> = protocols.iter().map(|p| format!("{p:?}")).collect();
    names.join("/")
}

/// The fastest medium two ports share.
pub fn common_medium(a: &PortInfo, b: &PortInfo) -> Result<Medium, String> {
    common_medium_of(&a.protocols, a.max_gbps, &b.protocols, b.max_gbps).ok_or_else(|| {
        format!(
            "{} speaks {} and {} speaks {}: no common protocol",
            a.name,
            protocol_list(&a.protocols),
            b.name,
            protocol_list(&b.protocols)
        )
    })
}

/// The fastest medium two ports (by protocols and fastest rate) both run, if any: the first of `a`'s protocols
/// that `b` speaks, at the slower port's rate.
pub(super) fn common_medium_of(
    a: &[Protocol],
    a_gbps: f64,
    b: &[Protocol],
    b_gbps: f64,
) -> Option<Medium> {
    let gbps = a_gbps.min(b_gbps);
    a.iter()
        .filter(|p| b.contains(p))
        .find_map(|p| Medium::from_protocol(*p, gbps))
}

pub(super) fn device_ports(design: &Design, device: &Device) -> Vec<PortInfo> {
    let Some(part) = design.parts.get(&device.part) else {
        return Vec::new();
    };
    let numbered = |count: u16, protocols: &[Protocol], gbps: f64, role: PortRole| {
        (1..=count)
            .map(|i| PortInfo {
                name: format!("p{i}"),
                protocols: protocols.to_vec(),
                max_gbps: gbps,
                role,
            })
            .collect::<Vec<_>>()
    };
    match &part.kind {
        PartKind::Switch(s) if !device.breakout.is_native() => {
            let mut out = Vec::new();
            for i in 1..=s.ports {
                let split = device.breakout.split_of(i);
                if split == 1 {
                    out.push(PortInfo {
                        name: format!("p{i}"),
                        protocols: s.protocols.clone(),
                        max_gbps: s.port_gbps,
                        role: PortRole::Fabric,
                    });
                    continue;
                }
                out.extend((1..=split).map(|k| PortInfo {
                    name: format!("p{i}/{k}"),
                    protocols: s.protocols.clone(),
                    max_gbps: s.port_gbps / f64::from(split),
                    role: PortRole::Fabric,
                }));
            }
            out.extend((1..=s.uplink_ports).map(|i| PortInfo {
                name: format!("u{i}"),
                protocols: s.protocols.clone(),
                max_gbps: s.uplink_gbps,
                role: PortRole::Fabric,
            }));
            out
        }
        PartKind::Switch(s) => {
            let mut out = numbered(s.ports, &s.protocols, s.port_gbps, PortRole::Fabric);
            out.extend((1..=s.uplink_ports).map(|i| PortInfo {
                name: format!("u{i}"),
                protocols: s.protocols.clone(),
                max_gbps: s.uplink_gbps,
                role: PortRole::Fabric,
            }));
            out
        }
        PartKind::Storage(s) => {
            numbered(s.ports, &s.protocols, s.port_gbps, PortRole::StorageTarget)
        }
        PartKind::Server(server) => {
            let mut out = Vec::new();
            for (slot, nic_part) in &device.nics {
                let Some(PartKind::Nic(nic)) = design.parts.get(nic_part).map(|p| &p.kind) else {
                    continue;
                };
                let role = match server.nic_slots.get(usize::from(*slot)).map(|s| s.role) {
                    Some(NicRole::Storage) => PortRole::Storage,
                    Some(NicRole::Management) => PortRole::Management,
                    _ => PortRole::Compute,
                };
                for k in 1..=nic.ports {
                    out.push(PortInfo {
                        name: format!("nic{slot}/p{k}"),
                        protocols: nic.protocols.clone(),
                        max_gbps: nic.port_gbps,
                        role,
                    });
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

impl Design {
    /// The spec of one port, parsed from its name without building the device's port list. None when the device
    /// has no such port.
    pub fn port_spec(&self, port: &PortRef) -> Option<PortSpec<'_>> {
        self.port_spec_on(self.devices.get(&port.device)?, &port.port)
    }

    /// The spec of the port named `port` on `device` (a device of this design), when it has one.
    pub fn port_spec_on(&self, device: &Device, port: &str) -> Option<PortSpec<'_>> {
        self.port_spec_of(self.parts.get(&device.part)?, device, port)
    }

    /// [`Design::port_spec_on`] with the device's part (`part`, the design's part for `device.part`) looked up
    /// already: for a walk over many ports of one device, which then looks its part up by name once.
    pub fn port_spec_of<'a>(
        &'a self,
        part: &'a Part,
        device: &Device,
        port: &str,
    ) -> Option<PortSpec<'a>> {
        match &part.kind {
            PartKind::Switch(s) => {
                if let Some(n) = numbered(port, "p") {
                    (n <= s.ports && device.breakout.split_of(n) == 1).then_some(PortSpec {
                        protocols: &s.protocols,
                        max_gbps: s.port_gbps,
                        role: PortRole::Fabric,
                    })
                } else if let Some((n, k)) = split_port(port) {
                    let split = device.breakout.split_of(n);
                    (n <= s.ports && split > 1 && k <= u16::from(split)).then(|| PortSpec {
                        protocols: &s.protocols,
                        max_gbps: s.port_gbps / f64::from(split),
                        role: PortRole::Fabric,
                    })
                } else {
                    let n = numbered(port, "u")?;
                    (n <= s.uplink_ports).then_some(PortSpec {
                        protocols: &s.protocols,
                        max_gbps: s.uplink_gbps,
                        role: PortRole::Fabric,
                    })
                }
            }
            PartKind::Storage(s) => {
                let n = numbered(port, "p")?;
                (n <= s.ports).then_some(PortSpec {
                    protocols: &s.protocols,
                    max_gbps: s.port_gbps,
                    role: PortRole::StorageTarget,
                })
            }
            PartKind::Server(server) => {
                let (slot, k) = port.strip_prefix("nic")?.split_once('/')?;
                let slot = canonical_number(slot)?;
                let k = numbered(k, "p")?;
                let nic_part = device.nics.get(&slot)?;
                let PartKind::Nic(nic) = &self.parts.get(nic_part)?.kind else {
                    return None;
                };
                if k > nic.ports {
                    return None;
                }
                let role = match server.nic_slots.get(usize::from(slot))?.role {
                    NicRole::Compute => PortRole::Compute,
                    NicRole::Storage => PortRole::Storage,
                    NicRole::Management => PortRole::Management,
                };
                Some(PortSpec {
                    protocols: &nic.protocols,
                    max_gbps: nic.port_gbps,
                    role,
                })
            }
            _ => None,
        }
    }

    /// Role of a server NIC port, without building the device's port list (hot path in analysis).
    pub fn nic_port_role(&self, port: &PortRef) -> Option<PortRole> {
        let slot = port.nic_slot()?;
        let device = self.devices.get(&port.device)?;
        let PartKind::Server(server) = &self.parts.get(&device.part)?.kind else {
            return None;
        };
        Some(match server.nic_slots.get(usize::from(slot))?.role {
            NicRole::Compute => PortRole::Compute,
            NicRole::Storage => PortRole::Storage,
            NicRole::Management => PortRole::Management,
        })
    }
}
