//! Collectives as NCCL runs them (docs/analysis.md, "Collectives as NCCL runs them"): per algorithm (ring, tree,
//! NVLS, NVLS-tree, CollNet) and protocol (LL, LL128, Simple), the latency and bandwidth NCCL's own tuning model
//! assigns (NVIDIA/nccl, `src/graph/tuning.cc` at tag v2.27.3-1, `ncclTopoTuneModel` and `ncclTopoGetAlgoTime`),
//! with the bandwidth taken from the drawn design (NVLink or PCIe inside a server, the sum of a server's cabled
//! compute NICs across servers: NCCL runs one channel per rail and PXN keeps the rest on NVLink) times a per-medium
//! efficiency with its source. The algorithm NCCL would pick is the fastest one enabled by default. Times in
//! microseconds, bandwidths in GB/s, sizes in bytes; `busbw` is the bus bandwidth nccl-tests prints
//! (doc/PERFORMANCE.md).

use super::bandwidth::BandwidthReport;
use super::format::round;
pub use crate::model::part::CpuVendor;
use crate::model::part::PartKind;
use crate::model::{Design, Protocol};
use crate::topology::Topology;
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

/// NCCL's base latency per algorithm and protocol, us (`baseLat` in `src/graph/tuning.cc` of NCCL 2.27, tag
/// v2.27.3-1; rows Tree, Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree). The per-step tables below are the same
/// release's `hwLat`; NCCL 2.28 raised the NVLS-tree network latency to 20.9 us.
const BASE_LAT_US: [[f64; 3]; 6] = [
    [6.8, 14.0, 8.4],
    [6.6, 14.0, 8.4],
    [0.0, 0.0, 0.0],
    [0.0, 0.0, 0.0],
    [0.0, 0.0, 0.0],
    [0.0, 0.0, 0.0],
];
/// NCCL's per-step hardware latency over NVLink, us (`hwLatencies[NCCL_HW_NVLINK]`).
const NVLINK_LAT_US: [[f64; 3]; 6] = [
    [0.6, 1.25, 4.0],
    [0.6, 1.9, 3.4],
    [0.0, 0.0, 3.7],
    [0.0, 0.0, 2.8],
    [0.0, 0.0, 25.0],
    [0.0, 0.0, 25.0],
];
/// The same over PCIe (`hwLatencies[NCCL_HW_PCI]`).
const PCI_LAT_US: [[f64; 3]; 6] = [
    [1.0, 1.9, 4.0],
    [1.0, 2.5, 5.7],
    [0.0, 0.0, 3.7],
    [0.0, 0.0, 2.8],
    [0.0, 0.0, 0.0],
    [0.0, 0.0, 0.0],
];
/// The same over the network (`hwLatencies[NCCL_HW_NET]`).
const NET_LAT_US: [[f64; 3]; 6] = [
    [5.0, 8.5, 14.0],
    [2.7, 4.0, 14.0],
    [0.0, 0.0, 31.0],
    [0.0, 0.0, 30.0],
    [0.0, 0.0, 18.0],
    [0.0, 0.0, 14.0],
];
/// LL bandwidth cap, GB/s (`llMaxBws`): rows Volta/Intel, Ampere/AMD, Hopper, Blackwell; columns 1, 2, more nodes.
const LL_MAX_BW: [[f64; 3]; 4] = [
    [39.0, 39.0, 20.4],
    [87.7, 22.5, 19.0],
    [141.0, 45.0, 35.0],
    [282.0, 90.0, 70.0],
];
/// Per-channel LL128 ring cap, GB/s (`perChMaxRingLL128Bws`), by generation and node count.
const RING_LL128_BW: [[f64; 3]; 4] = [
    [20.0, 20.0, 20.0],
    [20.0, 20.0, 20.0],
    [36.7, 36.7, 36.7],
    [40.0, 40.0, 40.0],
];
/// Per-channel LL128 tree cap, GB/s (`perChMaxTreeLL128Bws`).
const TREE_LL128_BW: [[f64; 3]; 4] = [
    [20.0, 20.0, 20.0],
    [20.0, 20.0, 20.0],
    [36.7, 36.7, 29.0],
    [55.6, 31.67, 20.0],
];
/// Per-channel tree cap, GB/s (`perChMaxTreeBws`).
const TREE_BW: [[f64; 3]; 4] = [
    [26.5, 18.5, 10.0],
    [24.0, 23.6, 17.8],
    [38.7, 41.4, 36.0],
    [70.0, 42.8, 24.0],
];
/// NCCL's correction of the tree's bandwidth at medium sizes (`treeCorrectionFactor`), by protocol and
/// log2(bytes / 64).
const TREE_CORRECTION: [[f64; 23]; 3] = [
    [
        1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.7, 0.7, 0.7, 0.7, 0.6, 0.5, 0.4, 0.4, 0.5, 0.6, 0.7, 0.8,
        0.9, 1.0, 1.0, 1.0, 1.0,
    ],
    [
        1.0, 1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.8, 0.8, 0.7, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.8, 0.9,
        0.9, 0.9, 0.9, 1.0, 1.0,
    ],
    [
        0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.8, 0.7, 0.6, 0.6, 0.5, 0.5, 0.5, 0.5, 0.6, 0.7, 0.8,
        0.7, 0.7, 0.8, 0.9, 0.9,
    ],
];

/// NVLink efficiency by generation: NCCL's own per-link bandwidth over the line rate (NVIDIA/nccl
/// `src/graph/topo.h`: SM80_NVLINK_BW 20.0, SM90_NVLINK_BW 20.6, SM100_NVLINK_BW 40.1 GB/s per link, against 25, 25
/// and 50 GB/s per link per direction): 0.80 (NVLink 3), 0.824 (NVLink 4), 0.802 (NVLink 5). NVIDIA's sjeaugey
/// (NVIDIA/nccl-tests issue 212): "with the protocol overhead (~20%) NCCL can get an effective NVLink bandwidth of
/// 370GB/s" of 450.
pub fn nvlink_efficiency(generation: u8) -> f64 {
    match generation {
        3 => 20.0 / 25.0,
        4 => 20.6 / 25.0,
        5 => 40.1 / 50.0,
        _ => 0.8,
    }
}

/// PCIe efficiency: NCCL's PCI_BW (12 GB/s for Gen3 x16, `src/graph/topo.h`) over the 15.75 GB/s line rate.
pub const PCIE_EFFICIENCY: f64 = 12.0 / 15.75;
/// Network efficiency per NIC, InfiniBand: NVIDIA's AddyLaddy, "For NDR @ 400Gbps you should see 46-48GB/s per NIC"
/// (NVIDIA/nccl-tests issue 290), 47 / 50.
pub const IB_EFFICIENCY: f64 = 47.0 / 50.0;
/// Network efficiency per NIC, RoCE: the same figure; ring all-reduce at 190 GB/s over four 400G RoCE NICs (200
/// GB/s) in NVIDIA/nccl issue 1368 is 0.95, so RoCE is not planned lower.
pub const ROCE_EFFICIENCY: f64 = 47.0 / 50.0;
/// NVLS all-reduce algorithm bandwidth over the NVLink line rate, Hopper: "on 8 GPUs, you should reach a peak busBw
/// of ~480GB/s (algbw ~275GB/s)" on 450 GB/s NVLink (NVIDIA's sjeaugey, NVIDIA/nccl-tests issue 212): 275 / 450.
pub const NVLS_ALGBW_HOPPER: f64 = 275.0 / 450.0;
/// The same for Blackwell: CoreWeave's published single GB200 NVL72 rack (NVIDIA/nccl-tests `all_reduce_perf` on 72
/// GPUs, NCCL 2.26.2, coreweave/nccl-tests README "Expected Performance"): algbw 423-429 GB/s at 8 GiB on 900 GB/s
/// NVLink 5, so 425 / 900 (docs/validation.md, calibration). NCCL's own efficiency ratio (0.74 / 0.85 of Hopper's,
/// `nvlsEfficiency`) gave 0.53, 12% above it.
pub const NVLS_ALGBW_BLACKWELL: f64 = 425.0 / 900.0;
/// Channels NCCL runs on an NVLink server: a planning value (two per NIC rail on an 8-rail board). It only scales
/// NCCL's per-channel caps (LL128, tree), which are rarely the binding term at this count.
pub const NVLINK_CHANNELS: f64 = 16.0;
/// Channels on a PCIe-only server (planning value).
pub const PCIE_CHANNELS: f64 = 4.0;
/// Host cost of one collective call per GPU its process drives, us, on AMD hosts: the kernel launch, the proxy
/// thread's first post and the host synchronisation nccl-tests waits on, which NCCL's tuning model leaves out.
/// Calibrated on the flat small-size end of the Azure ND A100 v4 sweep (AMD EPYC, one process driving 8 GPUs: 44.8
/// us at 1 KiB where NCCL's ring LL gives 15.0), docs/validation.md.
pub const LAUNCH_US_AMD: f64 = 3.3;
/// The same on other hosts (Intel, Arm): calibrated on the Azure ND H100 v5 sweep (Intel, 8 GPUs a process: 25.6 us
/// at 1 KiB against ring LL's 15.0), about half AMD's.
pub const LAUNCH_US_OTHER: f64 = 1.65;
/// NCCL's pipeline slots per connection (`NCCL_STEPS` in `src/include/device.h`).
pub const NCCL_STEPS: f64 = 8.0;
/// NCCL's NVLS chunk (`NCCL_NVLS_CHUNKSIZE` default, `src/transport/nvls.cc`), which the pipeline fill takes as
/// the chunk of every algorithm: a round of 8 steps of it on 16 channels is 16 MiB. Ring's Simple steps are larger
/// (512 KiB), but a 64 MiB round overstates the fill: the Azure ND A100 v4 ring sweep measures 174 GB/s at 128 MiB
/// where it gives 152 (docs/validation.md).
pub const NVLS_CHUNK_BYTES: f64 = 128.0 * 1024.0;
/// NIC rails a rack-scale NVLink domain (more GPUs than an 8-GPU board) drives across racks: NCCL builds its
/// cross-node rings and trees on 8 rails, so twenty GB200 NVL72 racks measure 346 GB/s bus bandwidth (8 NDR rails at
/// 47 GB/s less the multi-node NVLS-tree discount), not their 72 NICs' worth (docs/validation.md, calibration).
pub const RACK_SCALE_RAILS: usize = 8;
/// NVLS-tree bandwidth discount from three servers on: published B200 and H100 runs at 4 or more nodes measure
/// NVLS-tree at 0.85-0.95 of the rails where two nodes reach them (docs/validation.md), so NCCL's ring wins there.
pub const NVLS_TREE_MULTI_NODE: f64 = 0.9;
/// All-to-all switches to LL below this many bytes per peer (NCCL's p2p LL threshold, `NCCL_P2P_LL_THRESHOLD`
/// default 16 KiB, `src/enqueue.cc`).
pub const P2P_LL_THRESHOLD_BYTES: f64 = 16384.0;

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

/// Expected value's range: what published measurements of the same class measured against the model's expected
/// value, lowest and highest (docs/validation.md). busbw and algbw scale by these; a time by their inverses.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Band {
    /// Bus bandwidth at the low end, GB/s (the slowest published run of the class, relative to the model).
    pub busbw_low: f64,
    /// Bus bandwidth at the high end, GB/s.
    pub busbw_high: f64,
    /// Time at the slow end, us.
    pub time_high_us: f64,
    /// Time at the fast end, us.
    pub time_low_us: f64,
}

/// Classes of collective figure the validation groups its measurements by; each has its band.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Class {
    /// Below 1 MiB: latency-bound.
    Small,
    /// 1 MiB to 256 MiB.
    Medium,
    /// Above 256 MiB inside one server.
    LargeIntra,
    /// Above 256 MiB across servers.
    LargeMulti,
    /// All-to-all at any size.
    AllToAll,
}

impl Class {
    /// Every class, in validation order.
    pub const ALL: [Class; 5] = [
        Class::LargeIntra,
        Class::LargeMulti,
        Class::Medium,
        Class::Small,
        Class::AllToAll,
    ];

    /// The class of `coll` at `bytes` on `nodes` servers.
    pub fn of(coll: Collective, bytes: f64, nodes: usize) -> Class {
        const MIB: f64 = 1024.0 * 1024.0;
        if coll == Collective::AllToAll {
            Class::AllToAll
        } else if bytes < MIB {
            Class::Small
        } else if bytes <= 256.0 * MIB {
            Class::Medium
        } else if nodes <= 1 {
            Class::LargeIntra
        } else {
            Class::LargeMulti
        }
    }

    /// Name as docs/validation.md writes it.
    pub fn name(self) -> &'static str {
        match self {
            Class::Small => "small-message",
            Class::Medium => "medium",
            Class::LargeIntra => "intra-node",
            Class::LargeMulti => "multi-node",
            Class::AllToAll => "all-to-all",
        }
    }

    /// Measured over expected, lowest and highest, across the published measurements of the class
    /// (docs/validation.md: tests/measured.rs fails when a measurement falls outside its class's band, so these
    /// follow the data).
    pub fn band(self) -> (f64, f64) {
        match self {
            Class::LargeIntra => BAND_LARGE_INTRA,
            Class::LargeMulti => BAND_LARGE_MULTI,
            Class::Medium => BAND_MEDIUM,
            Class::Small => BAND_SMALL,
            Class::AllToAll => BAND_ALL_TO_ALL,
        }
    }
}

/// Band of large messages inside a server: measured / expected spans 0.83 (one GB200 NVL72 rack at 1 GiB,
/// CoreWeave) to 1.01 over the class's points in docs/validation.md, rounded outward to 0.05.
pub const BAND_LARGE_INTRA: (f64, f64) = (0.80, 1.05);
/// Band of large messages across servers: 0.92 to 1.20 (twenty GB200 NVL72 racks at 16 GiB, CoreWeave).
pub const BAND_LARGE_MULTI: (f64, f64) = (0.90, 1.25);
/// Band of medium sizes (1 to 256 MiB): 0.88 to 1.26 (three A100 servers with four HDR NICs each at 128 MiB,
/// NVIDIA/nccl-tests issue 119).
pub const BAND_MEDIUM: (f64, f64) = (0.85, 1.30);
/// Band of small messages (bandwidth sense: a time's band is the inverse): 0.69 (Azure ND H100 v5 at 64 KiB, where
/// NCCL 2.18 ran NVLS) to 1.17 (two H20 servers, NVLS-tree at 512 B).
pub const BAND_SMALL: (f64, f64) = (0.65, 1.20);
/// Band of all-to-all: 0.99 to 1.18 (8x H20 at 128 B, DeepEP issue 303); two points only.
pub const BAND_ALL_TO_ALL: (f64, f64) = (0.95, 1.20);

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

    /// Ring bus bandwidth before the protocol: inside one server the NVLink (or PCIe) ring; across servers the
    /// smaller of that and the server's rails (one channel per rail; each ring crosses the network 2(N-1) times
    /// and otherwise stays on NVLink).
    fn ring_bus(&self) -> f64 {
        let intra = if self.ppn() > 1.0 {
            self.intra_bus_gbyte_s()
        } else {
            f64::INFINITY
        };
        let bw = if self.nodes <= 1 {
            intra
        } else {
            intra.min(self.net_bus_gbyte_s())
        };
        if bw.is_finite() { bw } else { 0.0 }
    }

    /// NVLS all-reduce algorithm bandwidth inside a server, GB/s.
    fn nvls_algbw(&self) -> f64 {
        let k = match self.arch {
            Arch::Blackwell => NVLS_ALGBW_BLACKWELL,
            Arch::Hopper => NVLS_ALGBW_HOPPER,
            _ => 0.0,
        };
        self.intra_line_gbyte_s * k
    }

    /// Bus bandwidth (NCCL's, before the algbw ratio) and the algbw ratio, or None when the combination does not
    /// run. Follows `ncclTopoTuneModel`'s refinements.
    fn bandwidth(&self, coll: Collective, a: Algorithm, p: Proto) -> Option<(f64, bool)> {
        let ranks = self.ranks as f64;
        if self.ranks <= 1 {
            return None;
        }
        let multi = self.nodes > 1;
        let nch = self.channels();
        let g = self.arch.index();
        let ni = self.node_index();
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
        let ppn = self.ppn();
        let algbw = match (coll, a) {
            (Collective::AllToAll, Algorithm::P2p) => {
                // Each GPU sends (p-1)/p of its buffer: (ppn-1)/p over NVLink, (p-ppn)/p over the network, at once.
                // LL (half the bandwidth) carries sends below NCCL's p2p LL threshold, Simple the rest.
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
                let net = if multi && ranks > ppn {
                    self.a2a_line_gbyte_s_per_gpu * self.net_efficiency * ranks / (ranks - ppn)
                } else {
                    f64::INFINITY
                };
                let bw = intra.min(net) * if ll { 0.5 } else { 1.0 };
                return bw.is_finite().then_some((bw, true));
            }
            (Collective::AllToAll, _) | (_, Algorithm::P2p) => return None,
            (_, Algorithm::Ring) => {
                let mut bus = self.ring_bus();
                match p {
                    Proto::LL => bus = self.ll_max().min(bus * 0.5),
                    Proto::LL128 => bus = (bus * 0.92).min(nch * RING_LL128_BW[g][ni]),
                    Proto::Simple => {}
                }
                let nsteps = match coll {
                    Collective::AllReduce => 2.0 * (ranks - 1.0),
                    Collective::AllGather | Collective::ReduceScatter => ranks - 1.0,
                    _ => ranks,
                };
                // NCCL's ratio nRanks / nsteps; broadcast moves the whole buffer once round the ring.
                match coll {
                    Collective::Broadcast => bus,
                    _ => bus * ranks / nsteps,
                }
            }
            (Collective::AllReduce, Algorithm::Tree) => {
                // Two nodes: the trees send half as much over the network as over NVLink (NVIDIA's sjeaugey, NCCL
                // issue 946), so the network term doubles.
                let intra = if ppn > 1.0 {
                    self.intra_bus_gbyte_s()
                } else {
                    f64::INFINITY
                };
                // Only with a NIC per GPU: two HGX A100 with four HDR NICs each measure 91 GB/s where the ring
                // reaches 94 (docs/validation.md), not the doubled tree.
                let net = match self.nodes {
                    1 => f64::INFINITY,
                    2 if self.nics_per_node as f64 >= ppn => 2.0 * self.net_bus_gbyte_s(),
                    _ => self.net_bus_gbyte_s(),
                };
                let mut bus = intra.min(net);
                if !bus.is_finite() {
                    return None;
                }
                bus = (bus * 0.92).min(nch * TREE_BW[g][ni]);
                match p {
                    Proto::LL => bus = (bus / 3.8).min(self.ll_max()),
                    Proto::LL128 => {
                        let f = if multi { 120.0 / 128.0 } else { 7.0 / 9.0 };
                        bus = (bus * f).min(nch * TREE_LL128_BW[g][ni]);
                    }
                    Proto::Simple => {}
                }
                // Across nodes NCCL searches the tree with the TREE pattern and discounts it (`busBw *= .85`).
                if multi {
                    bus *= 0.85;
                }
                bus * 0.5
            }
            (_, Algorithm::Tree) => return None,
            (Collective::AllReduce, Algorithm::Nvls) => {
                if !self.nvls || ppn < 2.0 {
                    return None;
                }
                let nvls = self.nvls_algbw();
                if !multi {
                    nvls
                } else if self.sharp {
                    // NVLS with InfiniBand SHARP across nodes (CollNet must be enabled): one reduced copy leaves
                    // each server.
                    return Some((nvls.min(self.net_bus_gbyte_s() * 0.9), false));
                } else {
                    return None;
                }
            }
            (_, Algorithm::Nvls) => return None,
            (Collective::AllReduce, Algorithm::NvlsTree) => {
                if !self.nvls || !multi || ppn < 2.0 {
                    return None;
                }
                // NVLS inside the node, a tree of nodes across: bus bandwidth min(NVLS, rails (x2 on two nodes)).
                let rails = self.net_bus_gbyte_s() * if self.nodes == 2 { 2.0 } else { 1.0 };
                let mut bus = (self.nvls_algbw() * 2.0 * (ranks - 1.0) / ranks).min(rails);
                if self.nodes >= 3 {
                    bus *= NVLS_TREE_MULTI_NODE;
                }
                bus * ranks / (2.0 * (ranks - 1.0))
            }
            (_, Algorithm::NvlsTree) => return None,
            (Collective::AllReduce, Algorithm::CollNetDirect | Algorithm::CollNetChain) => {
                if !self.sharp || !multi {
                    return None;
                }
                if a == Algorithm::CollNetDirect && !self.nvlink {
                    // CollNet Direct needs NVSwitch (`nvsCount == 0` disables it).
                    return None;
                }
                // The switches reduce: each server sends its reduced buffer once (algbw bound by the rails at
                // NCCL's 0.9), the node-local part runs at NVLink speed; Hopper and later x .85 for Direct.
                let mut bw = (self.net_bus_gbyte_s() * 0.9).min(self.intra_bus_gbyte_s());
                if a == Algorithm::CollNetDirect && self.arch.index() >= 2 {
                    bw *= 0.85;
                }
                return Some((bw, false));
            }
            (_, Algorithm::CollNetDirect | Algorithm::CollNetChain) => return None,
        };
        (algbw > 0.0).then_some((algbw, true))
    }

    /// Latency term, us (`ncclTopoTuneModel`).
    fn latency(&self, coll: Collective, a: Algorithm, p: Proto) -> f64 {
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
                // term runs at half rate. Calibrated on the Azure ND H100 v5 NVLS sweep's medium sizes. Not for
                // all-to-all, whose sends to every peer run at once, each with its own slots.
                let fill = if p != Proto::LL && a != Algorithm::P2p {
                    (bytes / 2.0).min(self.round_bytes(a, bytes)) / (1000.0 * bw)
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

/// The figures of a drawn design the model needs: the GPUs, the servers holding them, the slowest server's
/// NVLink (or PCIe) and rails, and the capabilities of its parts. None without at least two GPUs.
pub fn shape(design: &Design, topo: &Topology, bw: &BandwidthReport) -> Option<CommShape> {
    let servers: Vec<_> = bw.servers.iter().filter(|s| s.gpus > 0).collect();
    let nodes = servers.len();
    if bw.gpus < 2 || nodes == 0 {
        return None;
    }
    let spec_of = |d: &crate::model::DeviceId| match design
        .devices
        .get(d)
        .and_then(|d| design.parts.get(&d.part))
        .map(|p| &p.kind)
    {
        Some(PartKind::Server(s)) => Some(s),
        _ => None,
    };
    // Inside a server: the slowest multi-GPU server; NVLink when its GPU-to-GPU path is NVLink.
    let multi: Vec<_> = servers.iter().filter(|s| s.gpus > 1).collect();
    let worst_intra = multi
        .iter()
        .min_by(|a, b| a.intra_gbyte_s_per_gpu.total_cmp(&b.intra_gbyte_s_per_gpu));
    let nvlink = !multi.is_empty() && multi.iter().all(|s| s.nvlink_gbyte_s_per_gpu > 0.0);
    let intra_line = worst_intra.map_or(0.0, |s| s.intra_gbyte_s_per_gpu);
    let nvls = nvlink
        && multi.iter().all(|s| {
            spec_of(&s.device)
                .and_then(|x| x.nvlink.as_ref())
                .is_some_and(|n| n.nvls)
        });
    let gpu = super::bandwidth::main_gpu(design).and_then(|p| {
        match design.parts.get(&p).map(|p| &p.kind) {
            Some(PartKind::Gpu(g)) => Some(g.clone()),
            _ => None,
        }
    });
    let (arch, nvlink_gen) = match gpu.as_ref() {
        Some(g) => (
            match (g.nvlink_generation, g.pcie.generation) {
                (5.., _) => Arch::Blackwell,
                (4, _) | (0..=3, 5..) => Arch::Hopper,
                (3, _) | (0..=2, 4) => Arch::Ampere,
                _ => Arch::Volta,
            },
            g.nvlink_generation,
        ),
        None => (Arch::Ampere, 0),
    };
    // Across servers: the rails of the slowest server (its cabled compute NICs, or what its PCIe tree or the routed
    // fabric lets through), per server.
    let mut net_line = f64::INFINITY;
    for s in &servers {
        let g = s.gpus as f64;
        let mut node = (s.compute_nic_cabled_gbps / 8.0).min(s.network_gbyte_s_per_gpu * g);
        if nodes > 1 && bw.inter_node_gbyte_s > 0.0 {
            node = node.min(bw.inter_node_gbyte_s * g);
        }
        net_line = net_line.min(node);
    }
    let net_line = if net_line.is_finite() { net_line } else { 0.0 };
    // Compute NICs cabled per GPU server (the fewest of any), from the cables' server ends.
    let mut cabled: rustc_hash::FxHashSet<(crate::model::DeviceId, u16)> = Default::default();
    let gpu_servers: rustc_hash::FxHashSet<crate::model::DeviceId> =
        servers.iter().map(|s| s.device).collect();
    for l in design.links.values() {
        for end in [&l.a, &l.b] {
            if !gpu_servers.contains(&end.device) {
                continue;
            }
            let Some(slot) = end.nic_slot() else {
                continue;
            };
            let compute = spec_of(&end.device)
                .and_then(|x| x.nic_slots.get(usize::from(slot)))
                .is_some_and(|x| x.role == crate::model::part::NicRole::Compute);
            if compute {
                cabled.insert((end.device, slot));
            }
        }
    }
    let mut per_server: rustc_hash::FxHashMap<crate::model::DeviceId, usize> = Default::default();
    for (d, _) in &cabled {
        *per_server.entry(*d).or_default() += 1;
    }
    let nics_per_node = servers
        .iter()
        .map(|s| per_server.get(&s.device).copied().unwrap_or(0))
        .min()
        .unwrap_or(0);
    // A rack-scale NVLink domain drives at most RACK_SCALE_RAILS rails' worth across racks.
    let net_line = if nics_per_node > RACK_SCALE_RAILS {
        net_line * RACK_SCALE_RAILS as f64 / nics_per_node as f64
    } else {
        net_line
    };
    let a2a = if bw.all_to_all_gbyte_s > 0.0 {
        bw.all_to_all_gbyte_s
    } else {
        servers
            .iter()
            .map(|s| s.network_gbyte_s_per_gpu)
            .fold(f64::INFINITY, f64::min)
    };
    // The fabric: Ethernet anywhere in the compute tiers means RoCE; SHARP only when every compute switch has it.
    let (mut ethernet, mut sharp, mut any) = (false, true, false);
    for (id, d) in &design.devices {
        if topo.tier(*id).is_none() {
            continue;
        }
        if let Some(PartKind::Switch(s)) = design.parts.get(&d.part).map(|p| &p.kind) {
            any = true;
            ethernet |= !s.protocols.contains(&Protocol::InfiniBand);
            sharp &= s.sharp;
        }
    }
    let cpu = servers
        .first()
        .and_then(|s| spec_of(&s.device))
        .map_or(CpuVendor::Unknown, |s| s.cpu_vendor);
    Some(CommShape {
        ranks: bw.gpus,
        nodes,
        arch,
        nvlink,
        intra_line_gbyte_s: intra_line,
        intra_efficiency: if nvlink {
            nvlink_efficiency(nvlink_gen)
        } else {
            PCIE_EFFICIENCY
        },
        net_line_gbyte_s_per_node: net_line,
        a2a_line_gbyte_s_per_gpu: if a2a.is_finite() { a2a } else { 0.0 },
        net_efficiency: if ethernet {
            ROCE_EFFICIENCY
        } else {
            IB_EFFICIENCY
        },
        nvls,
        sharp: any && sharp && !ethernet && nodes > 1,
        cpu,
        nics_per_node,
        gpus_per_process: 1,
    })
}

/// One row of the expected nccl-tests table.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SweepRow {
    /// Message size, bytes.
    pub bytes: f64,
    /// Elements of 4-byte floats.
    pub count: f64,
    /// Algorithm NCCL would pick.
    pub algorithm: Algorithm,
    /// The protocol NCCL would pick at this size.
    pub protocol: Proto,
    /// Time for one collective of this size with NCCL's pick, us (rounded to 0.01).
    pub time_us: f64,
    /// Algorithm bandwidth, GB/s.
    pub algbw_gbyte_s: f64,
    /// Bus bandwidth, GB/s.
    pub busbw_gbyte_s: f64,
    /// Low end of the bus bandwidth's band, GB/s.
    pub busbw_low: f64,
    /// High end of the bus bandwidth's band, GB/s.
    pub busbw_high: f64,
}

/// The expected nccl-tests table for `coll` from 8 B to 16 GiB, NCCL's pick at each size.
pub fn sweep(shape: &CommShape, coll: Collective) -> Vec<SweepRow> {
    sweep_sizes()
        .filter_map(|n| {
            let e = shape.pick(coll, n, None)?;
            Some(SweepRow {
                bytes: n,
                count: (n / 4.0).floor(),
                algorithm: e.algorithm,
                protocol: e.protocol,
                time_us: round(e.time_us, 2),
                algbw_gbyte_s: round(e.algbw_gbyte_s, 2),
                busbw_gbyte_s: round(e.busbw_gbyte_s, 2),
                busbw_low: round(e.band.busbw_low, 2),
                busbw_high: round(e.band.busbw_high, 2),
            })
        })
        .collect()
}

/// One collective at the design's message size: every algorithm and protocol, NCCL's pick marked.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CollectiveReport {
    /// The collective these estimates are for.
    pub collective: Collective,
    /// Message size, bytes.
    pub bytes: f64,
    /// Every combination that runs, fastest first.
    pub estimates: Vec<Estimate>,
    /// Index in `estimates` of the one NCCL would pick (default-enabled and fastest).
    pub picked: Option<usize>,
    /// The pick's band: the range published measurements of its class span around its expected value.
    pub band: Option<Band>,
}

/// The NCCL section of the report (`latency.nccl`).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NcclReport {
    /// What the model read from the design.
    pub shape: CommShape,
    /// Each collective at the design's all-reduce size.
    pub collectives: Vec<CollectiveReport>,
    /// Expected `all_reduce_perf -b 8 -e 16G -f 2` table.
    pub allreduce_sweep: Vec<SweepRow>,
    /// How to read it.
    pub note: String,
}

/// The NCCL section for a design: each collective at `bytes` and the all-reduce sweep.
pub fn report(shape: CommShape, bytes: f64) -> NcclReport {
    let collectives = Collective::ALL
        .into_iter()
        .map(|c| {
            let mut estimates: Vec<Estimate> = shape
                .estimates(c, bytes)
                .into_iter()
                .map(|mut e| {
                    for v in [
                        &mut e.latency_us,
                        &mut e.launch_us,
                        &mut e.fill_us,
                        &mut e.peak_algbw_gbyte_s,
                        &mut e.time_us,
                        &mut e.algbw_gbyte_s,
                        &mut e.busbw_gbyte_s,
                        &mut e.band.busbw_low,
                        &mut e.band.busbw_high,
                        &mut e.band.time_low_us,
                        &mut e.band.time_high_us,
                    ] {
                        *v = round(*v, 3);
                    }
                    e
                })
                .collect();
            estimates.sort_by(|a, b| a.time_us.total_cmp(&b.time_us));
            let picked = estimates.iter().position(|e| e.default_enabled);
            CollectiveReport {
                collective: c,
                bytes,
                band: picked.and_then(|i| estimates.get(i)).map(|e| e.band),
                estimates,
                picked,
            }
        })
        .collect();
    let allreduce_sweep = sweep(&shape, Collective::AllReduce);
    NcclReport {
        shape,
        collectives,
        allreduce_sweep,
        note: "NCCL's tuning model (NVIDIA/nccl src/graph/tuning.cc) on the design's NVLink and rails, with \
               per-medium efficiencies from published measurements (docs/analysis.md, docs/validation.md). \
               Estimates, not measurements."
            .into(),
    }
}

/// Message sizes of the sweep: 8 B to 16 GiB, powers of two (as `all_reduce_perf -b 8 -e 16G -f 2`).
pub fn sweep_sizes() -> impl Iterator<Item = f64> {
    (3..=34).map(|k| 2f64.powi(k))
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
