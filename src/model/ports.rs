//! Ports: derived from a device's part and the NICs in its slots, never stored. A link names a port by
//! device id and port name ("p12" on a switch, "nic3/p1" on a server).

use super::{Design, Device, DeviceId, Medium, Protocol};
use crate::catalog::{NicRole, PartKind};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A port of a device, by name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
pub struct PortRef {
    /// The device.
    pub device: DeviceId,
    /// Port name on that device.
    pub port: String,
}

impl PortRef {
    /// A port reference.
    pub fn new(device: DeviceId, port: impl Into<String>) -> Self {
        Self {
            device,
            port: port.into(),
        }
    }

    /// NIC slot index for a server port name like "nic3/p1".
    pub fn nic_slot(&self) -> Option<u16> {
        self.port
            .strip_prefix("nic")?
            .split('/')
            .next()?
            .parse()
            .ok()
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
        let protocol = medium.protocol();
        if !self.protocols.contains(&protocol) {
            return Err(format!(
                "speaks {} but the link is {medium}",
                protocol_list(&self.protocols)
            ));
        }
        if medium.gbps() > self.max_gbps + 1e-9 {
            return Err(format!(
                "runs at most {} Gb/s but the link is {medium}",
                self.max_gbps
            ));
        }
        Ok(())
    }
}

fn protocol_list(protocols: &[Protocol]) -> String {
    let names: Vec<String> = protocols.iter().map(|p| format!("{p:?}")).collect();
    names.join("/")
}

/// The fastest medium two ports share.
pub fn common_medium(a: &PortInfo, b: &PortInfo) -> Result<Medium, String> {
    let gbps = a.max_gbps.min(b.max_gbps);
    for protocol in &a.protocols {
        if b.protocols.contains(protocol)
            && let Some(m) = Medium::from_protocol(*protocol, gbps)
        {
            return Ok(m);
        }
    }
    Err(format!(
        "{} speaks {} and {} speaks {}: no common protocol",
        a.name,
        protocol_list(&a.protocols),
        b.name,
        protocol_list(&b.protocols)
    ))
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
