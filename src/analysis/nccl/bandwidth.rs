//! The bandwidth term of each algorithm and protocol (`ncclTopoTuneModel`'s refinements): NCCL's bus bandwidth on
//! the design's NVLink and rails, then its ratio to the algorithm bandwidth. One function per algorithm.

use super::tables::{
    NVLS_ALGBW_BLACKWELL, NVLS_ALGBW_HOPPER, NVLS_TREE_MULTI_NODE, RING_LL128_BW, TREE_BW,
    TREE_LL128_BW,
};
use super::{Algorithm, Arch, Collective, CommShape, Proto};

impl CommShape {
    /// Ring bus bandwidth before the protocol: inside one server the NVLink (or PCIe) ring; across servers the
    /// smaller of that and the server's rails (one channel per rail; each ring crosses the network 2(N-1) times
    /// and otherwise stays on NVLink).
    fn ring_bus(&self) -> f64 {
        let bw = if self.nodes <= 1 {
            self.intra_or_inf()
        } else {
            self.intra_or_inf().min(self.net_bus_gbyte_s())
        };
        if bw.is_finite() { bw } else { 0.0 }
    }

    /// The intra-server bus bandwidth, or infinity with one GPU per server (nothing crosses NVLink).
    fn intra_or_inf(&self) -> f64 {
        if self.ppn() > 1.0 {
            self.intra_bus_gbyte_s()
        } else {
            f64::INFINITY
        }
    }

    /// NVLS all-reduce algorithm bandwidth inside a server, GB/s.
    pub(super) fn nvls_algbw(&self) -> f64 {
        let k = match self.arch {
            Arch::Blackwell => NVLS_ALGBW_BLACKWELL,
            Arch::Hopper => NVLS_ALGBW_HOPPER,
            _ => 0.0,
        };
        self.intra_line_gbyte_s * k
    }

    /// Algorithm bandwidth of `a` with protocol `p` for `coll`, GB/s, and whether NCCL runs it by default; None
    /// when the combination does not run. Follows `ncclTopoTuneModel`'s refinements.
    pub(super) fn bandwidth(
        &self,
        coll: Collective,
        a: Algorithm,
        p: Proto,
    ) -> Option<(f64, bool)> {
        if self.ranks <= 1 {
            return None;
        }
        let simple_only = matches!(
            a,
            Algorithm::Nvls
                | Algorithm::NvlsTree
                | Algorithm::CollNetDirect
                | Algorithm::CollNetChain
        );
        if simple_only && p != Proto::Simple {
            return None;
        }
        // LL128 runs by default over NVLink only (`pEnable &= typeIntra <= PATH_NVB`).
        if p == Proto::LL128 && !self.nvlink {
            return None;
        }
        let (algbw, default_enabled) = match (coll, a) {
            (Collective::AllToAll, Algorithm::P2p) => (self.p2p_algbw(p)?, true),
            (Collective::AllToAll, _) | (_, Algorithm::P2p) => return None,
            (_, Algorithm::Ring) => (self.ring_algbw(coll, p), true),
            (Collective::AllReduce, Algorithm::Tree) => (self.tree_algbw(p)?, true),
            (Collective::AllReduce, Algorithm::Nvls) => self.nvls_allreduce()?,
            (Collective::AllReduce, Algorithm::NvlsTree) => (self.nvls_tree_algbw()?, true),
            (Collective::AllReduce, Algorithm::CollNetDirect | Algorithm::CollNetChain) => {
                (self.collnet_algbw(a)?, false)
            }
            _ => return None,
        };
        (algbw > 0.0).then_some((algbw, default_enabled))
    }

    /// All-to-all: each GPU sends (p-1)/p of its buffer, (ppn-1)/p over NVLink and (p-ppn)/p over the network, at
    /// once. LL (half the bandwidth) carries sends below NCCL's p2p LL threshold, Simple the rest.
    fn p2p_algbw(&self, p: Proto) -> Option<f64> {
        let ranks = self.ranks as f64;
        let ppn = self.ppn();
        let ll = match p {
            Proto::LL => true,
            Proto::LL128 => return None,
            Proto::Simple => false,
        };
        let intra = if ppn > 1.0 {
            self.intra_bus_gbyte_s() * ranks / (ppn - 1.0)
        } else {
            f64::INFINITY
        };
        let net = if self.nodes > 1 && ranks > ppn {
            self.a2a_line_gbyte_s_per_gpu * self.net_efficiency * ranks / (ranks - ppn)
        } else {
            f64::INFINITY
        };
        let bw = intra.min(net) * if ll { 0.5 } else { 1.0 };
        bw.is_finite().then_some(bw)
    }

    /// Ring: the ring's bus bandwidth under the protocol's cap, times NCCL's ratio nRanks / nsteps (broadcast
    /// moves the whole buffer once round the ring).
    fn ring_algbw(&self, coll: Collective, p: Proto) -> f64 {
        let ranks = self.ranks as f64;
        let (g, ni) = (self.arch.index(), self.node_index());
        let mut bus = self.ring_bus();
        match p {
            Proto::LL => bus = self.ll_max().min(bus * 0.5),
            Proto::LL128 => bus = (bus * 0.92).min(self.channels() * RING_LL128_BW[g][ni]),
            Proto::Simple => {}
        }
        let nsteps = match coll {
            Collective::AllReduce => 2.0 * (ranks - 1.0),
            Collective::AllGather | Collective::ReduceScatter => ranks - 1.0,
            _ => ranks,
        };
        match coll {
            Collective::Broadcast => bus,
            _ => bus * ranks / nsteps,
        }
    }

    /// Tree all-reduce. Two nodes: the trees send half as much over the network as over NVLink (NVIDIA's
    /// sjeaugey, NCCL issue 946), so the network term doubles, but only with a NIC per GPU: two HGX A100 with four
    /// HDR NICs each measure 91 GB/s where the ring reaches 94 (docs/validation.md), not the doubled tree.
    fn tree_algbw(&self, p: Proto) -> Option<f64> {
        let (g, ni) = (self.arch.index(), self.node_index());
        let nch = self.channels();
        let net = match self.nodes {
            1 => f64::INFINITY,
            2 if self.nics_per_node as f64 >= self.ppn() => 2.0 * self.net_bus_gbyte_s(),
            _ => self.net_bus_gbyte_s(),
        };
        let mut bus = self.intra_or_inf().min(net);
        if !bus.is_finite() {
            return None;
        }
        bus = (bus * 0.92).min(nch * TREE_BW[g][ni]);
        match p {
            Proto::LL => bus = (bus / 3.8).min(self.ll_max()),
            Proto::LL128 => {
                let f = if self.nodes > 1 {
                    120.0 / 128.0
                } else {
                    7.0 / 9.0
                };
                bus = (bus * f).min(nch * TREE_LL128_BW[g][ni]);
            }
            Proto::Simple => {}
        }
        // Across nodes NCCL searches the tree with the TREE pattern and discounts it (`busBw *= .85`).
        if self.nodes > 1 {
            bus *= 0.85;
        }
        Some(bus * 0.5)
    }

    /// NVLS all-reduce inside a server; across servers only with InfiniBand SHARP (CollNet must be enabled, so
    /// not by default): one reduced copy leaves each server.
    fn nvls_allreduce(&self) -> Option<(f64, bool)> {
        if !self.nvls || self.ppn() < 2.0 {
            return None;
        }
        let nvls = self.nvls_algbw();
        if self.nodes <= 1 {
            Some((nvls, true))
        } else if self.sharp {
            Some((nvls.min(self.net_bus_gbyte_s() * 0.9), false))
        } else {
            None
        }
    }

    /// NVLS inside the node, a tree of nodes across: bus bandwidth min(NVLS, rails (x2 on two nodes)), discounted
    /// from three nodes on.
    fn nvls_tree_algbw(&self) -> Option<f64> {
        let ranks = self.ranks as f64;
        if !self.nvls || self.nodes <= 1 || self.ppn() < 2.0 {
            return None;
        }
        let rails = self.net_bus_gbyte_s() * if self.nodes == 2 { 2.0 } else { 1.0 };
        let mut bus = (self.nvls_algbw() * 2.0 * (ranks - 1.0) / ranks).min(rails);
        if self.nodes >= 3 {
            bus *= NVLS_TREE_MULTI_NODE;
        }
        Some(bus * ranks / (2.0 * (ranks - 1.0)))
    }

    /// CollNet (InfiniBand SHARP): the switches reduce, so each server sends its reduced buffer once (algbw bound
    /// by the rails at NCCL's 0.9) and the node-local part runs at NVLink speed. Direct needs NVSwitch
    /// (`nvsCount == 0` disables it) and, as `ncclTopoTuneModel` has it, a NIC per GPU for full speed: with f = GPUs
    /// per NIC, bandwidth / (f - (f - 1) / 2); Hopper and later x .85.
    fn collnet_algbw(&self, a: Algorithm) -> Option<f64> {
        if !self.sharp || self.nodes <= 1 {
            return None;
        }
        if a == Algorithm::CollNetDirect && !self.nvlink {
            return None;
        }
        let mut bw = (self.net_bus_gbyte_s() * 0.9).min(self.intra_bus_gbyte_s());
        if a == Algorithm::CollNetDirect {
            let f = (self.ppn() / self.nics_per_node.max(1) as f64).max(1.0);
            bw /= f - (f - 1.0) / 2.0;
            if self.arch.index() >= 2 {
                bw *= 0.85;
            }
        }
        Some(bw)
    }
}
