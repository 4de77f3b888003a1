//! NCCL's tuning constants (NVIDIA/nccl `src/graph/tuning.cc`, tag v2.27.3-1) and the per-medium efficiencies and
//! planning values the model adds, each with its source.

/// NCCL's base latency per algorithm and protocol, us (`baseLat` in `src/graph/tuning.cc` of NCCL 2.27, tag
/// v2.27.3-1; rows Tree, Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree). The per-step tables below are the same
/// release's `hwLat`; NCCL 2.28 raised the NVLS-tree network latency to 20.9 us.
pub(super) const BASE_LAT_US: [[f64; 3]; 6] = [
    [6.8, 14.0, 8.4],
    [6.6, 14.0, 8.4],
    [0.0, 0.0, 0.0],
    [0.0, 0.0, 0.0],
    [0.0, 0.0, 0.0],
    [0.0, 0.0, 0.0],
];
/// NCCL's per-step hardware latency over NVLink, us (`hwLatencies[NCCL_HW_NVLINK]`).
pub(super) const NVLINK_LAT_US: [[f64; 3]; 6] = [
    [0.6, 1.25, 4.0],
    [0.6, 1.9, 3.4],
    [0.0, 0.0, 3.7],
    [0.0, 0.0, 2.8],
    [0.0, 0.0, 25.0],
    [0.0, 0.0, 25.0],
];
/// The same over PCIe (`hwLatencies[NCCL_HW_PCI]`).
pub(super) const PCI_LAT_US: [[f64; 3]; 6] = [
    [1.0, 1.9, 4.0],
    [1.0, 2.5, 5.7],
    [0.0, 0.0, 3.7],
    [0.0, 0.0, 2.8],
    [0.0, 0.0, 0.0],
    [0.0, 0.0, 0.0],
];
/// The same over the network (`hwLatencies[NCCL_HW_NET]`).
pub(super) const NET_LAT_US: [[f64; 3]; 6] = [
    [5.0, 8.5, 14.0],
    [2.7, 4.0, 14.0],
    [0.0, 0.0, 31.0],
    [0.0, 0.0, 30.0],
    [0.0, 0.0, 18.0],
    [0.0, 0.0, 14.0],
];
/// LL bandwidth cap, GB/s (`llMaxBws`): rows Volta/Intel, Ampere/AMD, Hopper, Blackwell; columns 1, 2, more nodes.
pub(super) const LL_MAX_BW: [[f64; 3]; 4] = [
    [39.0, 39.0, 20.4],
    [87.7, 22.5, 19.0],
    [141.0, 45.0, 35.0],
    [282.0, 90.0, 70.0],
];
/// Per-channel LL128 ring cap, GB/s (`perChMaxRingLL128Bws`), by generation and node count.
pub(super) const RING_LL128_BW: [[f64; 3]; 4] = [
    [20.0, 20.0, 20.0],
    [20.0, 20.0, 20.0],
    [36.7, 36.7, 36.7],
    [40.0, 40.0, 40.0],
];
/// Per-channel LL128 tree cap, GB/s (`perChMaxTreeLL128Bws`).
pub(super) const TREE_LL128_BW: [[f64; 3]; 4] = [
    [20.0, 20.0, 20.0],
    [20.0, 20.0, 20.0],
    [36.7, 36.7, 29.0],
    [55.6, 31.67, 20.0],
];
/// Per-channel tree cap, GB/s (`perChMaxTreeBws`).
pub(super) const TREE_BW: [[f64; 3]; 4] = [
    [26.5, 18.5, 10.0],
    [24.0, 23.6, 17.8],
    [38.7, 41.4, 36.0],
    [70.0, 42.8, 24.0],
];
/// NCCL's correction of the tree's bandwidth at medium sizes (`treeCorrectionFactor`), by protocol and
/// log2(bytes / 64).
pub(super) const TREE_CORRECTION: [[f64; 23]; 3] = [
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
