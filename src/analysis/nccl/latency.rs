//! The latency term of each algorithm and protocol (`ncclTopoTuneModel`): base latency plus NCCL's per-step
//! hardware latencies inside and across servers.

use super::tables::{BASE_LAT_US, NET_LAT_US, NVLINK_LAT_US, PCI_LAT_US};
use super::{Algorithm, Collective, CommShape, Proto};

impl CommShape {
    /// Latency term, us (`ncclTopoTuneModel`).
    pub(super) fn latency(&self, coll: Collective, a: Algorithm, p: Proto) -> f64 {
        let ranks = self.ranks as f64;
        let nodes = self.nodes.max(1) as f64;
        let ppn = self.ppn();
        let (ai, pi) = (a.index(), p.index());
        let intra_table = if self.nvlink {
            &NVLINK_LAT_US
        } else {
            &PCI_LAT_US
        };
        let mut intra = intra_table[ai][pi];
        let inter = if ppn <= 1.0 {
            NET_LAT_US[0][pi]
        } else {
            NET_LAT_US[ai][pi]
        };
        let base = BASE_LAT_US[ai][pi];
        let log2n = nodes.log2().floor();
        match (coll, a) {
            (Collective::AllToAll, _) => {
                // Point-to-point: one step per peer, as NCCL schedules a round per peer: an NVLink (or PCIe) step
                // to each peer in the server, and to each remote peer the network post overhead NCCL's ring
                // counts per network step (x3 for Simple).
                let remote = ranks - ppn;
                let post = self.net_overhead_us() * if p == Proto::Simple { 3.0 } else { 1.0 };
                BASE_LAT_US[1][pi] + (ppn - 1.0) * intra_table[1][pi] + remote * post
            }
            (Collective::Broadcast, _) => {
                let hw = if self.nodes > 1 {
                    &NET_LAT_US
                } else {
                    intra_table
                };
                let lat = if p == Proto::Simple {
                    hw[0][pi]
                } else {
                    hw[1][pi]
                };
                base + ranks * lat
            }
            (_, Algorithm::Ring) => {
                let nsteps = match coll {
                    Collective::AllReduce => 2.0 * (ranks - 1.0),
                    _ => ranks - 1.0,
                };
                let inter_steps = if self.nodes <= 1 {
                    0.0
                } else if coll == Collective::AllReduce {
                    2.0 * (nodes - 1.0)
                } else {
                    nodes - 1.0
                };
                if self.nodes > 1 {
                    let overhead =
                        self.net_overhead_us() * if p == Proto::Simple { 3.0 } else { 1.0 };
                    intra = intra.max(overhead);
                }
                base + (nsteps - inter_steps) * intra + inter_steps * inter
            }
            (_, Algorithm::Tree) => base + 2.0 * ((ppn - 1.0) * intra + log2n * inter),
            (_, Algorithm::CollNetDirect) => {
                base + 2.0 * ((ppn - 1.0).min(1.0) * intra + (ppn - 1.0) * 0.4) + inter
            }
            (_, Algorithm::CollNetChain) => base + 2.0 * (ppn - 1.0) * intra + inter,
            (_, Algorithm::Nvls) => intra + if self.nodes > 1 { inter } else { 0.0 },
            (_, Algorithm::NvlsTree) => base + intra + 2.0 * log2n * inter,
            (_, Algorithm::P2p) => base + intra,
        }
    }
}
