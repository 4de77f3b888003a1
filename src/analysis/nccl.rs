//! Collectives as NCCL runs them (docs/analysis.md, "Collectives as NCCL runs them"): per algorithm (ring, tree,
//! NVLS, NVLS-tree, CollNet) and protocol (LL, LL128, Simple), the latency and bandwidth NCCL's own tuning model
//! assigns (NVIDIA/nccl, `src/graph/tuning.cc` at tag v2.27.3-1, `ncclTopoTuneModel` and `ncclTopoGetAlgoTime`),
//! with the bandwidth taken from the drawn design (NVLink or PCIe inside a server, the sum of a server's cabled
//! compute NICs across servers: NCCL runs one channel per rail and PXN keeps the rest on NVLink) times a per-medium
//! efficiency with its source. The algorithm NCCL would pick is the fastest one enabled by default. Times in
//! microseconds, bandwidths in GB/s, sizes in bytes; `busbw` is the bus bandwidth nccl-tests prints
//! (doc/PERFORMANCE.md).
//!
//! Files, one concern each: `tables` (NCCL's constants and the efficiencies with their sources), `band`
//! (classes and bands), `bandwidth` and `latency` (the two terms of each algorithm), `shape` (what the model
//! reads from a drawing), `p2p` (send and receive between two GPUs), `report` (the report section and the sweep).

mod band;
mod bandwidth;
mod latency;
mod p2p;
mod report;
mod shape;
mod tables;

pub use crate::model::part::CpuVendor;
pub use band::{
    BAND_ALL_TO_ALL, BAND_LARGE_INTRA, BAND_LARGE_MULTI, BAND_MEDIUM, BAND_SMALL, Band, Class,
};
pub use p2p::{P2pPath, PointToPoint};
pub use report::{CollectiveReport, NcclReport, SweepRow, report, sweep, sweep_sizes};
pub use shape::shape;
pub use tables::{
    IB_EFFICIENCY, LAUNCH_US_AMD, LAUNCH_US_OTHER, NCCL_STEPS, NVLINK_CHANNELS,
    NVLS_ALGBW_BLACKWELL, NVLS_ALGBW_HOPPER, NVLS_CHUNK_BYTES, NVLS_TREE_MULTI_NODE,
    P2P_LL_THRESHOLD_BYTES, PCIE_CHANNELS, PCIE_EFFICIENCY, RACK_SCALE_RAILS, ROCE_EFFICIENCY,
    nvlink_efficiency,
};
use tables::{LL_MAX_BW, TREE_CORRECTION};

use serde::Serialize;

/// The collectives the model covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Collective {
    /// All-reduce: every rank ends with the sum of every rank's buffer (nccl-tests' `all_reduce_perf`).
    AllReduce,
    /// All-gather: every rank ends with every rank's share, concatenated (`all_gather_perf`).
    AllGather,
    /// Reduce-scatter: each rank ends with its own share of the sum (`reduce_scatter_perf`).
    ReduceScatter,
    /// All-to-all: each rank sends a distinct share of its buffer to every other rank (`alltoall_perf`).
    AllToAll,
    /// Broadcast: one root rank's buffer copied to every rank (`broadcast_perf`).
    Broadcast,
}

impl Collective {
    /// Every collective, in report order.
    pub const ALL: [Collective; 5] = [
        Collective::AllReduce,
        Collective::AllGather,
        Collective::ReduceScatter,
        Collective::AllToAll,
        Collective::Broadcast,
    ];

    /// Name as nccl-tests and the report write it.
    pub fn name(self) -> &'static str {
        match self {
            Collective::AllReduce => "all-reduce",
            Collective::AllGather => "all-gather",
            Collective::ReduceScatter => "reduce-scatter",
            Collective::AllToAll => "all-to-all",
            Collective::Broadcast => "broadcast",
        }
    }

    /// nccl-tests' bus bandwidth factor for p ranks (doc/PERFORMANCE.md): 2(p-1)/p for all-reduce, (p-1)/p for
    /// all-gather, reduce-scatter and all-to-all, 1 for broadcast.
    pub fn bus_factor(self, p: f64) -> f64 {
        if p <= 1.0 {
            return 1.0;
        }
        match self {
            Collective::AllReduce => 2.0 * (p - 1.0) / p,
            Collective::AllGather | Collective::ReduceScatter | Collective::AllToAll => {
                (p - 1.0) / p
            }
            Collective::Broadcast => 1.0,
        }
    }
}

/// NCCL's algorithms (`NCCL_ALGO`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    /// Ring: one ring per channel, each channel on its own NIC rail.
    Ring,
    /// Pipelined double binary tree across nodes, chain inside each node.
    Tree,
    /// NVLink SHARP: the NVSwitch reduces (NVSwitch gen3 and later).
    Nvls,
    /// NVLS inside each node, a tree across nodes.
    NvlsTree,
    /// InfiniBand SHARP, every GPU to its NIC (CollNet Direct).
    CollNetDirect,
    /// InfiniBand SHARP, a chain inside the node (CollNet Chain).
    CollNetChain,
    /// Point-to-point sends and receives (all-to-all).
    P2p,
}

impl Algorithm {
    /// Name as `NCCL_ALGO` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Ring => "Ring",
            Algorithm::Tree => "Tree",
            Algorithm::Nvls => "NVLS",
            Algorithm::NvlsTree => "NVLSTree",
            Algorithm::CollNetDirect => "CollnetDirect",
            Algorithm::CollNetChain => "CollnetChain",
            Algorithm::P2p => "P2P",
        }
    }

    /// Parses `NCCL_ALGO` names (case-insensitive).
    pub fn parse(s: &str) -> Option<Algorithm> {
        [
            Algorithm::Ring,
            Algorithm::Tree,
            Algorithm::Nvls,
            Algorithm::NvlsTree,
            Algorithm::CollNetDirect,
            Algorithm::CollNetChain,
            Algorithm::P2p,
        ]
        .into_iter()
        .find(|a| a.name().eq_ignore_ascii_case(s))
    }

    fn index(self) -> usize {
        match self {
            Algorithm::Tree => 0,
            Algorithm::Ring | Algorithm::P2p => 1,
            Algorithm::CollNetDirect => 2,
            Algorithm::CollNetChain => 3,
            Algorithm::Nvls => 4,
            Algorithm::NvlsTree => 5,
        }
    }
}

/// NCCL's protocols (`NCCL_PROTO`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Proto {
    /// Low latency: 8-byte stores with a flag, half the bandwidth.
    LL,
    /// 128-byte lines with a flag: most of the bandwidth at low latency (NVLink only by default).
    LL128,
    /// Plain copies with fences: full bandwidth, highest latency.
    Simple,
}

impl Proto {
    /// Every protocol, in the order NCCL's tuning tables index them (LL, LL128, Simple).
    pub const ALL: [Proto; 3] = [Proto::LL, Proto::LL128, Proto::Simple];

    fn index(self) -> usize {
        match self {
            Proto::LL => 0,
            Proto::LL128 => 1,
            Proto::Simple => 2,
        }
    }

    /// Name as `NCCL_PROTO` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Proto::LL => "LL",
            Proto::LL128 => "LL128",
            Proto::Simple => "Simple",
        }
    }
}

/// GPU generation, which picks NCCL's per-generation constants (compute capability 7.x, 8.x, 9.x, 10.x).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Arch {
    /// Volta and Turing (and anything older).
    Volta,
    /// Ampere and Ada.
    Ampere,
    /// Hopper: the main GPU has NVLink 4, or PCIe Gen5 or later with an older NVLink or none (e.g. H100).
    Hopper,
    /// Blackwell: the main GPU has NVLink 5 or later (e.g. B200).
    Blackwell,
}

impl Arch {
    fn index(self) -> usize {
        match self {
            Arch::Volta => 0,
            Arch::Ampere => 1,
            Arch::Hopper => 2,
            Arch::Blackwell => 3,
        }
    }
}

/// What the model needs to know about a design's GPUs and fabric.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CommShape {
    /// GPUs taking part: every GPU installed in the design's servers.
    pub ranks: usize,
    /// Servers holding them.
    pub nodes: usize,
    /// Generation of the design's main GPU (the most common one), which picks NCCL's per-generation constants.
    pub arch: Arch,
    /// Whether GPUs inside a server talk over NVLink (else PCIe).
    pub nvlink: bool,
    /// GPU-to-GPU line rate per GPU per direction inside a server, GB/s.
    pub intra_line_gbyte_s: f64,
    /// Efficiency NCCL reaches on it.
    pub intra_efficiency: f64,
    /// Network line rate per server per direction that the all-reduce's rails can use, GB/s: the sum of its cabled
    /// compute NICs, or less when the PCIe tree or the routed fabric carries less.
    pub net_line_gbyte_s_per_node: f64,
    /// Network line rate per GPU per direction for all-to-all traffic as routed over the fabric, GB/s.
    pub a2a_line_gbyte_s_per_gpu: f64,
    /// Efficiency per NIC.
    pub net_efficiency: f64,
    /// Whether the NVSwitches reduce (NVLink SHARP).
    pub nvls: bool,
    /// Whether every compute switch reduces in the network (InfiniBand SHARP).
    pub sharp: bool,
    /// Maker of the first GPU server's CPU: sets NCCL's network post overhead and LL bandwidth cap across servers.
    pub cpu: CpuVendor,
    /// Compute NICs cabled per server (the fewest of any GPU server; 0 without any).
    pub nics_per_node: usize,
    /// GPUs each process drives (nccl-tests' `-g`; 1 for one process per GPU, as training jobs run): each pays
    /// the per-call launch cost in turn.
    pub gpus_per_process: usize,
}

/// One algorithm and protocol for one collective at one size.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Estimate {
    /// The algorithm estimated (ring, tree, NVLS, NVLS-tree, CollNet).
    pub algorithm: Algorithm,
    /// The protocol estimated, as `NCCL_PROTO` names it.
    pub protocol: Proto,
    /// Latency term, us: NCCL's (base plus per-step hardware latencies) and the host's launch cost.
    pub latency_us: f64,
    /// Of which the host's launch cost, us (`LAUNCH_US_*` x GPUs per process).
    pub launch_us: f64,
    /// Pipeline fill, us: until one round of NCCL's chunks is in flight the bandwidth term runs at half rate.
    pub fill_us: f64,
    /// Algorithm bandwidth at large sizes (the bandwidth term's rate), GB/s.
    pub peak_algbw_gbyte_s: f64,
    /// Time for one collective of this size: latency term plus size over the bandwidth term, us.
    pub time_us: f64,
    /// n / time, GB/s.
    pub algbw_gbyte_s: f64,
    /// algbw x nccl-tests' bus factor, GB/s.
    pub busbw_gbyte_s: f64,
    /// Whether NCCL runs it by default (CollNet needs NCCL_COLLNET_ENABLE=1 and the SHARP plugin).
    pub default_enabled: bool,
    /// The range published measurements of this class span around the expected value (docs/analysis.md, "Bands").
    pub band: Band,
}

impl CommShape {
    fn ppn(&self) -> f64 {
        self.ranks as f64 / self.nodes.max(1) as f64
    }

    /// Index into NCCL's per-node-count tables: 1, 2, more nodes.
    fn node_index(&self) -> usize {
        self.nodes.clamp(1, 3) - 1
    }

    fn channels(&self) -> f64 {
        if self.nvlink {
            NVLINK_CHANNELS
        } else {
            PCIE_CHANNELS
        }
    }

    /// Bus bandwidth a ring reaches inside a server, GB/s.
    pub fn intra_bus_gbyte_s(&self) -> f64 {
        self.intra_line_gbyte_s * self.intra_efficiency
    }

    /// Bus bandwidth the rails of one server carry, GB/s.
    pub fn net_bus_gbyte_s(&self) -> f64 {
        self.net_line_gbyte_s_per_node * self.net_efficiency
    }

    /// NCCL's LL bandwidth cap: by GPU generation in one node, by CPU across nodes.
    fn ll_max(&self) -> f64 {
        let row = if self.nodes <= 1 {
            self.arch.index()
        } else if self.cpu == CpuVendor::Amd {
            1
        } else {
            0
        };
        LL_MAX_BW[row][self.node_index()]
    }

    /// NCCL's network post overhead, us (`getNetOverhead`).
    fn net_overhead_us(&self) -> f64 {
        if self.cpu == CpuVendor::Amd { 2.0 } else { 1.0 }
    }

    /// Host cost of one call, us: the per-GPU launch cost times the GPUs one process drives.
    pub fn launch_us(&self) -> f64 {
        let per = if self.cpu == CpuVendor::Amd {
            LAUNCH_US_AMD
        } else {
            LAUNCH_US_OTHER
        };
        per * self.gpus_per_process.max(1) as f64
    }

    /// Bytes one pipeline round holds in flight: `NCCL_STEPS` slots of NCCL's chunk on every channel. The chunk
    /// follows NCCL's rules for NVLS (`calcCollChunking` in `src/enqueue.cc`): 128 KiB, cut to 64, 32 and 16 KiB
    /// below 64, 8 and 2 rounds of it; NVLS-tree's (64 KiB at 4 or more nodes), cut to 64 and 32 KiB below 4 and 1
    /// rounds; 128 KiB for the others.
    fn round_bytes(&self, a: Algorithm, bytes: f64) -> f64 {
        let ops = self.channels();
        let chunk = match a {
            Algorithm::Nvls => {
                let mut c = NVLS_CHUNK_BYTES;
                for (rounds, to) in [(64.0, 65536.0), (8.0, 32768.0), (2.0, 16384.0)] {
                    if bytes < rounds * ops * c && c > to {
                        c = to;
                    }
                }
                c
            }
            Algorithm::NvlsTree => {
                let mut c: f64 = if self.nodes >= 4 {
                    65536.0
                } else {
                    NVLS_CHUNK_BYTES
                };
                for (rounds, to) in [(4.0, 65536.0), (1.0, 32768.0)] {
                    if bytes < rounds * ops * c && c > to {
                        c = to;
                    }
                }
                c
            }
            _ => NVLS_CHUNK_BYTES,
        };
        NCCL_STEPS * ops * chunk
    }

    /// Bytes the pipeline holds before the bandwidth term runs at full rate: one round of NCCL's chunks
    /// (`round_bytes`) and, for a tree across servers, one stage more per further hop a chunk takes through the
    /// tree. A stage is NCCL's `concurrentOps` chunks (`calcCollChunking`, `src/enqueue.cc`): channels x NVLS heads
    /// (one per rail, 8 on an 8-GPU board) for NVLS-tree, channels for Tree. NVLS-tree's chunks cross 2 log2i(nodes)
    /// network hops (up the tree of servers and down again, `log2i` as NCCL's latency term counts levels); Tree's
    /// also cross the chain of GPUs inside each server both ways, 2 (ppn - 1 + log2i(nodes)). At medium sizes each
    /// operation then carries only a few chunks: ten 8x H100 servers at 32 MiB are 4 chunks of 64 KiB per operation
    /// against 6 hops (issue 39's example: 83 GB/s measured, NVLS-tree 186 before this term).
    fn fill_bytes(&self, a: Algorithm, bytes: f64) -> f64 {
        let round = self.round_bytes(a, bytes);
        let first = (bytes / 2.0).min(round);
        if self.nodes <= 1 {
            return first;
        }
        let levels = (self.nodes as f64).log2().floor();
        let (hops, stage) = match a {
            Algorithm::NvlsTree => (
                2.0 * levels,
                round * self.ppn().min(RACK_SCALE_RAILS as f64) / NCCL_STEPS,
            ),
            Algorithm::Tree => (2.0 * (self.ppn() - 1.0 + levels), round / NCCL_STEPS),
            _ => return first,
        };
        first + (hops - 1.0).max(0.0) * (bytes / 2.0).min(stage)
    }

    /// Every algorithm and protocol that runs for `coll` at `bytes`, with its time (`ncclTopoGetAlgoTime`).
    pub fn estimates(&self, coll: Collective, bytes: f64) -> Vec<Estimate> {
        let algorithms: &[Algorithm] = if coll == Collective::AllToAll {
            &[Algorithm::P2p]
        } else {
            &[
                Algorithm::Ring,
                Algorithm::Tree,
                Algorithm::Nvls,
                Algorithm::NvlsTree,
                Algorithm::CollNetDirect,
                Algorithm::CollNetChain,
            ]
        };
        let mut out = Vec::new();
        for &a in algorithms {
            for p in Proto::ALL {
                if coll == Collective::AllToAll
                    && (bytes / (self.ranks.max(1) as f64) < P2P_LL_THRESHOLD_BYTES)
                        != (p == Proto::LL)
                {
                    continue;
                }
                let Some((peak, default_enabled)) = self.bandwidth(coll, a, p) else {
                    continue;
                };
                let mut lat = self.latency(coll, a, p);
                let mut bw = peak;
                let log_size = (bytes / 64.0).max(1.0).log2().floor();
                if a == Algorithm::Tree
                    && coll == Collective::AllReduce
                    && bytes >= 64.0
                    && let Some(f) = TREE_CORRECTION[p.index()].get(log_size as usize)
                {
                    bw *= f;
                }
                // NCCL's "plateau effect of ring" for Simple across nodes.
                if a == Algorithm::Ring
                    && p == Proto::Simple
                    && self.nodes > 1
                    && coll == Collective::AllReduce
                    && bytes / (self.channels() * self.ranks as f64) >= 64.0
                {
                    lat *= if self.arch == Arch::Volta { 1.9 } else { 1.4 };
                }
                let launch = self.launch_us();
                lat += launch;
                // Pipeline fill (Simple and LL128, which move NCCL's chunks through its step slots; LL's 8-byte
                // flags do not): until one round of chunks is in flight, at most half the message, the bandwidth
                // term runs at half rate; a tree across servers fills a stage more per hop (`fill_bytes`).
                // Calibrated on the Azure ND H100 v5 NVLS sweep's medium sizes. Not for all-to-all, whose sends to
                // every peer run at once, each with its own slots.
                let fill = if p != Proto::LL && a != Algorithm::P2p {
                    self.fill_bytes(a, bytes) / (1000.0 * bw)
                } else {
                    0.0
                };
                let time_us = lat + bytes / (1000.0 * bw) + fill;
                let algbw = if time_us > 0.0 {
                    bytes / time_us / 1000.0
                } else {
                    0.0
                };
                let busbw = algbw * coll.bus_factor(self.ranks as f64);
                let (lo, hi) = Class::of(coll, bytes, self.nodes).band();
                out.push(Estimate {
                    algorithm: a,
                    protocol: p,
                    latency_us: lat,
                    launch_us: launch,
                    fill_us: fill,
                    peak_algbw_gbyte_s: peak,
                    time_us,
                    algbw_gbyte_s: algbw,
                    busbw_gbyte_s: busbw,
                    default_enabled,
                    band: Band {
                        busbw_low: busbw * lo,
                        busbw_high: busbw * hi,
                        time_high_us: time_us / lo,
                        time_low_us: time_us / hi,
                    },
                });
            }
        }
        out
    }

    /// What NCCL would pick for `coll` at `bytes`: the fastest default-enabled estimate, or the fastest of
    /// `forced` when the run forced an algorithm (`NCCL_ALGO`).
    pub fn pick(
        &self,
        coll: Collective,
        bytes: f64,
        forced: Option<Algorithm>,
    ) -> Option<Estimate> {
        self.estimates(coll, bytes)
            .into_iter()
            .filter(|e| match forced {
                Some(a) => e.algorithm == a,
                None => e.default_enabled,
            })
            .min_by(|a, b| a.time_us.total_cmp(&b.time_us))
    }
}

/// Two-by-eight A100 SXM4 servers' shape as the tests use it: NVLink 3 inside, one 200G HDR NIC per GPU, AMD CPUs
/// (the DGX A100 of NVIDIA/nccl issue 812).
#[cfg(test)]
pub(crate) fn dgx_a100_shape(nodes: usize) -> CommShape {
    CommShape {
        ranks: 8 * nodes,
        nodes,
        arch: Arch::Ampere,
        nvlink: true,
        intra_line_gbyte_s: 300.0,
        intra_efficiency: nvlink_efficiency(3),
        net_line_gbyte_s_per_node: 200.0,
        a2a_line_gbyte_s_per_gpu: 25.0,
        net_efficiency: IB_EFFICIENCY,
        nvls: false,
        sharp: false,
        cpu: CpuVendor::Amd,
        nics_per_node: 8,
        gpus_per_process: 1,
    }
}

#[cfg(test)]
mod tests;
