//! Link media and their bandwidths. Figures are per direction unless a name says otherwise
//! (InfiniBand rates from the InfiniBand Trade Association roadmap: HDR 200, NDR 400, XDR 800 Gb/s per port; PCIe
//! from the PCI-SIG base specifications, 128b/130b encoding from Gen3 on; see docs/analysis.md, "Bandwidth").

use serde::{Deserialize, Serialize};
use std::fmt;

/// InfiniBand data rates per 4x port.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum IbRate {
    /// EDR: 100 Gb/s per 4x port (4 lanes of 25 Gb/s).
    Edr,
    /// HDR: 200 Gb/s per 4x port (4 lanes of 50 Gb/s).
    Hdr,
    /// NDR: 400 Gb/s per 4x port (4 lanes of 100 Gb/s).
    Ndr,
    /// XDR: 800 Gb/s per 4x port (4 lanes of 200 Gb/s).
    Xdr,
}

impl IbRate {
    /// Signalling rate of a 4x port in Gb/s.
    pub fn gbps(self) -> f64 {
        match self {
            IbRate::Edr => 100.0,
            IbRate::Hdr => 200.0,
            IbRate::Ndr => 400.0,
            IbRate::Xdr => 800.0,
        }
    }

    /// The IB rate for a port speed in Gb/s, if it is one.
    pub fn from_gbps(gbps: f64) -> Option<Self> {
        [IbRate::Edr, IbRate::Hdr, IbRate::Ndr, IbRate::Xdr]
            .into_iter()
            .find(|r| (r.gbps() - gbps).abs() < 0.5)
    }
}

/// The protocol family a port speaks. Ports of different families cannot be cabled together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Protocol {
    /// InfiniBand (rates in [`IbRate`]); a compute fabric whose switches all speak it is modelled as InfiniBand,
    /// otherwise as Ethernet (RoCE).
    InfiniBand,
    /// Ethernet (RoCE v2 for RDMA).
    Ethernet,
    /// NVLink (external NVLink switch ports).
    NvLink,
    /// PCIe cabled (external PCIe switch or expansion).
    Pcie,
}

/// A PCIe link: generation and lane count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PcieLink {
    /// PCIe generation (3, 4, 5, 6).
    pub generation: u8,
    /// Lane count (1, 4, 8, 16).
    pub lanes: u8,
}

impl PcieLink {
    /// Usable GB/s per lane per direction after line encoding.
    /// Gen3-5 use 128b/130b: 8, 16, 32 GT/s x 128/130 / 8 = 0.985, 1.969, 3.938 GB/s (geratools PCIe reference).
    /// Gen6 (PAM4, FLIT) doubles Gen5: 7.877 GB/s.
    pub fn gbs_per_lane(generation: u8) -> f64 {
        let gts = match generation {
            1 => return 0.25,
            2 => return 0.5,
            3 => 8.0,
            4 => 16.0,
            5 => 32.0,
            _ => 64.0,
        };
        gts * 128.0 / 130.0 / 8.0
    }

    /// Bandwidth per direction in GB/s.
    ///
    /// ```
    /// use racksmith::model::PcieLink;
    /// // Gen5 x16: 32 GT/s x 16 lanes x 128/130 / 8 = 63.02 GB/s per direction (NVIDIA quotes 128 GB/s both ways).
    /// let gbs = PcieLink { generation: 5, lanes: 16 }.gbs();
    /// assert!((gbs - 63.015).abs() < 0.01);
    /// ```
    pub fn gbs(self) -> f64 {
        Self::gbs_per_lane(self.generation) * f64::from(self.lanes)
    }
}

impl fmt::Display for PcieLink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PCIe Gen{} x{}", self.generation, self.lanes)
    }
}

/// What a link carries and at what rate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Medium {
    /// NVLink of a generation (3: A100, 4: H100/H200, 5: B200), one port.
    NvLink(u8),
    /// Cabled PCIe to an external PCIe switch or expansion chassis, at the link's generation and lane count.
    Pcie(PcieLink),
    /// InfiniBand 4x port.
    InfiniBand(IbRate),
    /// Ethernet at a rate in Gb/s (100, 200, 400, 800).
    Ethernet(u32),
}

impl Medium {
    /// Bandwidth per direction in Gb/s.
    pub fn gbps(&self) -> f64 {
        match self {
            // One NVLink 3/4 link is 25 GB/s per direction (12 x 25 = 300 GB/s for A100, 18 x 25 = 450 GB/s
            // for H100); NVLink 5 doubles it to 50 GB/s (18 x 50 = 900 GB/s for B200).
            Medium::NvLink(generation) => {
                if *generation >= 5 {
                    400.0
                } else {
                    200.0
                }
            }
            Medium::Pcie(link) => link.gbs() * 8.0,
            Medium::InfiniBand(rate) => rate.gbps(),
            Medium::Ethernet(g) => f64::from(*g),
        }
    }

    /// Bandwidth per direction in GB/s.
    pub fn gbs(&self) -> f64 {
        self.gbps() / 8.0
    }

    /// The protocol family of this medium.
    pub fn protocol(&self) -> Protocol {
        match self {
            Medium::NvLink(_) => Protocol::NvLink,
            Medium::Pcie(_) => Protocol::Pcie,
            Medium::InfiniBand(_) => Protocol::InfiniBand,
            Medium::Ethernet(_) => Protocol::Ethernet,
        }
    }

    /// A medium of a protocol at a rate in Gb/s, if that combination exists.
    pub fn from_protocol(protocol: Protocol, gbps: f64) -> Option<Self> {
        match protocol {
            Protocol::InfiniBand => IbRate::from_gbps(gbps).map(Medium::InfiniBand),
            Protocol::Ethernet => {
                let g = gbps.round();
                (g >= 1.0 && g <= f64::from(u32::MAX)).then_some(Medium::Ethernet(g as u32))
            }
            Protocol::NvLink => Some(Medium::NvLink(if gbps >= 400.0 { 5 } else { 4 })),
            Protocol::Pcie => None,
        }
    }
}

impl fmt::Display for Medium {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Medium::NvLink(g) => write!(f, "NVLink {g}"),
            Medium::Pcie(l) => write!(f, "{l}"),
            Medium::InfiniBand(r) => write!(f, "InfiniBand {r:?} {}G", r.gbps()),
            Medium::Ethernet(g) => write!(f, "Ethernet {g}G"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pcie_bandwidth_matches_reference_table() {
        // Gen4 x16: 16 GT/s x 16 lanes x 128/130 / 8 = 31.51 GB/s; Gen5 x16 doubles it to 63.02 GB/s.
        let g4 = PcieLink {
            generation: 4,
            lanes: 16,
        }
        .gbs();
        let g5 = PcieLink {
            generation: 5,
            lanes: 16,
        }
        .gbs();
        let g3 = PcieLink {
            generation: 3,
            lanes: 16,
        }
        .gbs();
        assert!((g4 - 31.5077).abs() < 1e-3, "{g4}");
        assert!((g5 - 63.0154).abs() < 1e-3, "{g5}");
        assert!((g3 - 15.7538).abs() < 1e-3, "{g3}");
    }

    #[test]
    fn ib_rates() {
        assert_eq!(Medium::InfiniBand(IbRate::Ndr).gbs(), 50.0);
        assert_eq!(IbRate::from_gbps(200.0), Some(IbRate::Hdr));
        assert_eq!(IbRate::from_gbps(250.0), None);
    }
}
