//! Point-to-point (send and receive) between two GPUs, the figure nccl-tests' `sendrecv_perf` prints: inside one
//! server over NVLink (or PCIe), and across servers over the sending GPU's own rail.

use super::band::{BAND_LARGE_INTRA, BAND_LARGE_MULTI, BAND_SMALL};
use super::tables::{BASE_LAT_US, NET_LAT_US, NVLINK_LAT_US, PCI_LAT_US, RACK_SCALE_RAILS};
use super::{CommShape, Proto};
use serde::Serialize;

/// Where the two GPUs of a send sit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum P2pPath {
    /// Both in one server: NVLink (or PCIe).
    SameServer,
    /// In two servers: the sender's NIC, the fabric, the receiver's NIC.
    AcrossServers,
}

impl P2pPath {
    /// Name as the report writes it.
    pub fn name(self) -> &'static str {
        match self {
            P2pPath::SameServer => "same server",
            P2pPath::AcrossServers => "across servers",
        }
    }
}

/// One point-to-point figure: a large send's bandwidth and a small send's time, each with its band.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PointToPoint {
    /// Where the two GPUs sit.
    pub path: P2pPath,
    /// Bandwidth of a large send (algbw = busbw in `sendrecv_perf`), GB/s.
    pub bandwidth_gbyte_s: f64,
    /// Low end of its band, GB/s (the class band of large messages inside or across servers).
    pub bandwidth_low: f64,
    /// High end of its band, GB/s.
    pub bandwidth_high: f64,
    /// Time of an 8-byte send, us: NCCL's LL base latency, one step over the path and the host's launch cost.
    pub latency_us: f64,
    /// Its band, us: fastest and slowest (the small-message class band, inverted for a time).
    pub latency_low_us: f64,
    /// Slow end of the latency's band, us.
    pub latency_high_us: f64,
}

impl CommShape {
    /// Point-to-point figures of the design: inside a server when a server holds two GPUs or more, across servers
    /// when there are two servers with cabled compute NICs.
    ///
    /// Inside a server a send runs at the GPU's NVLink (or PCIe) line rate times NCCL's efficiency, the rate the
    /// ring's bus bandwidth reaches (NVIDIA's sjeaugey, NVIDIA/nccl-tests issue 149: A100 "240GB/s ... limited to
    /// ~230GB/s"). Across servers it runs on one rail: the server's rails over its NICs (at most the
    /// `RACK_SCALE_RAILS` a rack-scale domain drives), at the per-NIC efficiency. The small send's time is NCCL's
    /// LL base latency (`baseLat`, ring) plus one LL step over NVLink or the network (`hwLat`), plus the network
    /// post overhead across servers and the host's launch cost.
    pub fn point_to_point(&self) -> Vec<PointToPoint> {
        let mut out = Vec::new();
        let ll = Proto::LL.index();
        let base = BASE_LAT_US[1][ll] + self.launch_us();
        if self.ppn() >= 2.0 {
            let step = if self.nvlink {
                NVLINK_LAT_US[1][ll]
            } else {
                PCI_LAT_US[1][ll]
            };
            out.push(figure(
                P2pPath::SameServer,
                self.intra_bus_gbyte_s(),
                BAND_LARGE_INTRA,
                base + step,
            ));
        }
        if self.nodes >= 2 && self.nics_per_node > 0 {
            let rails = self.nics_per_node.min(RACK_SCALE_RAILS) as f64;
            let lat = base + NET_LAT_US[1][ll] + self.net_overhead_us();
            out.push(figure(
                P2pPath::AcrossServers,
                self.net_bus_gbyte_s() / rails,
                BAND_LARGE_MULTI,
                lat,
            ));
        }
        out
    }
}

fn figure(path: P2pPath, bw: f64, (lo, hi): (f64, f64), latency_us: f64) -> PointToPoint {
    let (slo, shi) = BAND_SMALL;
    PointToPoint {
        path,
        bandwidth_gbyte_s: bw,
        bandwidth_low: bw * lo,
        bandwidth_high: bw * hi,
        latency_us,
        latency_low_us: latency_us / shi,
        latency_high_us: latency_us / slo,
    }
}
