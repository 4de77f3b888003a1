//! Hand calculations of the NCCL model: each expected figure worked out from NCCL's tuning constants and the
//! design's bandwidths in the comment above it.

use super::*;

fn dgx_h100(nodes: usize) -> CommShape {
    CommShape {
        ranks: 8 * nodes,
        nodes,
        arch: Arch::Hopper,
        nvlink: true,
        intra_line_gbyte_s: 450.0,
        intra_efficiency: nvlink_efficiency(4),
        net_line_gbyte_s_per_node: 400.0,
        a2a_line_gbyte_s_per_gpu: 50.0,
        net_efficiency: IB_EFFICIENCY,
        nvls: true,
        sharp: false,
        cpu: CpuVendor::Intel,
        nics_per_node: 8,
        gpus_per_process: 1,
    }
}

fn dgx_a100(nodes: usize) -> CommShape {
    super::dgx_a100_shape(nodes)
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * b.abs().max(1e-12)
}

#[test]
fn sweep_is_8_bytes_to_16_gib() {
    let s: Vec<f64> = sweep_sizes().collect();
    assert_eq!(s.len(), 32);
    assert_eq!(s[0], 8.0);
    assert_eq!(s[1], 16.0);
    assert_eq!(s[28], 2f64.powi(31));
    assert_eq!(*s.last().unwrap_or(&0.0), 16.0 * 1024.0 * 1024.0 * 1024.0);
}

#[test]
fn one_dgx_h100_ring_simple_by_hand() {
    // Bus: 450 x 20.6/25 = 370.8 GB/s; algbw = 370.8 x 8/14 = 211.886 GB/s.
    // Latency: base 8.4 + 14 steps x 3.4 (NVLink ring Simple) = 56 us, + launch 1.65 (Intel, one GPU a process)
    // = 57.65 us. Fill: one round of 8 steps x 16 channels x 128 KiB = 16 MiB = 16777216 B at algbw: 79.18 us.
    // 4 GiB: 57.65 + 4294967296 / 211886 + 16777216 / 211886 = 57.65 + 20270.0 + 79.18 us; busbw = n/t x 14/8.
    let s = dgx_h100(1);
    let e = s
        .estimates(Collective::AllReduce, 4294967296.0)
        .into_iter()
        .find(|e| e.algorithm == Algorithm::Ring && e.protocol == Proto::Simple)
        .unwrap();
    assert!(close(e.latency_us, 57.65, 1e-12));
    assert!(close(e.launch_us, 1.65, 1e-12));
    let algbw = 370.8 * 8.0 / 14.0;
    assert!(close(e.peak_algbw_gbyte_s, algbw, 1e-12));
    assert!(close(e.fill_us, 16777216.0 / (1000.0 * algbw), 1e-12));
    let t = 57.65 + (4294967296.0 + 16777216.0) / (1000.0 * algbw);
    assert!(close(e.time_us, t, 1e-12));
    // busbw = 4294967296 / t / 1000 x 1.75 = 370.8 x (20270.0 / 20406.8) = 368.31 GB/s.
    assert!(close(e.busbw_gbyte_s, 368.31, 1e-3), "{}", e.busbw_gbyte_s);
    // Band (large messages in one server, 0.80 to 1.05): 294.65 to 386.73 GB/s.
    assert!(close(e.band.busbw_low, e.busbw_gbyte_s * 0.80, 1e-12));
    assert!(close(e.band.busbw_high, e.busbw_gbyte_s * 1.05, 1e-12));
    assert!(close(e.band.time_high_us, t / 0.80, 1e-12));
}

#[test]
fn nvls_fill_follows_nccl_chunk_rule_by_hand() {
    // NVLS on one DGX H100, algbw 275 GB/s, 16 channels. At 16 MiB: 16777216 < 64 x 16 x 128 KiB = 128 MiB, so the
    // chunk drops to 64 KiB; 16 MiB >= 8 x 16 x 64 KiB = 8 MiB, so it stays: round 8 x 16 x 64 KiB = 8 MiB. Fill =
    // min(16 MiB / 2, 8 MiB) / 275000 = 8388608 / 275000 = 30.50 us. Time 25 + 1.65 + 16777216 / 275000 + 30.50
    // = 25 + 1.65 + 61.01 + 30.50 = 118.16 us; busbw 16777216 / 118.16 / 1000 x 1.75 = 248.5 GB/s (Azure ND H100
    // v5 measured 234.45 with 8 GPUs a process, whose launch is 13.2 us).
    let s = dgx_h100(1);
    let e = s
        .estimates(Collective::AllReduce, 16777216.0)
        .into_iter()
        .find(|e| e.algorithm == Algorithm::Nvls)
        .unwrap();
    assert!(close(e.fill_us, 8388608.0 / 275000.0, 1e-12));
    let t = 25.0 + 1.65 + 16777216.0 / 275000.0 + 8388608.0 / 275000.0;
    assert!(close(e.time_us, t, 1e-12));
    assert!(close(e.busbw_gbyte_s, 248.49, 1e-3), "{}", e.busbw_gbyte_s);
    // 1 MiB: below 8 x 16 x 64 KiB = 8 MiB the chunk is 32 KiB; 1 MiB >= 2 x 16 x 32 KiB = 1 MiB keeps it: round
    // 8 x 16 x 32 KiB = 4 MiB; fill = min(512 KiB, 4 MiB) / 275000 = 524288 / 275000 = 1.906 us.
    let e = s
        .estimates(Collective::AllReduce, 1048576.0)
        .into_iter()
        .find(|e| e.algorithm == Algorithm::Nvls)
        .unwrap();
    assert!(close(e.fill_us, 524288.0 / 275000.0, 1e-12));
    // Eight GPUs a process (nccl-tests -g 8): launch 8 x 1.65 = 13.2 us.
    let mut g8 = dgx_h100(1);
    g8.gpus_per_process = 8;
    let e = g8
        .estimates(Collective::AllReduce, 1048576.0)
        .into_iter()
        .find(|e| e.algorithm == Algorithm::Nvls)
        .unwrap();
    assert!(close(e.launch_us, 13.2, 1e-12));
    assert!(close(e.latency_us, 25.0 + 13.2, 1e-12));
}

#[test]
fn one_dgx_h100_picks_nvls_for_large_and_ring_ll_for_small() {
    // NVLS: algbw 450 x 275/450 = 275 GB/s, latency 25 us (NVLink NVLS Simple, no base) + launch 1.65.
    // 8 GiB: chunk 128 KiB, round 16 MiB, fill 8388608 x 2 / 275000 = 61.01 us.
    // 25 + 1.65 + 8589934592 / 275000 + 61.01 = 26.65 + 31236.13 + 61.01 = 31323.79 us;
    // busbw = 8589934592 / 31323.79 / 1000 x 1.75 = 479.90.
    let s = dgx_h100(1);
    let big = s.pick(Collective::AllReduce, 8589934592.0, None).unwrap();
    assert_eq!(big.algorithm, Algorithm::Nvls);
    assert!(
        close(big.busbw_gbyte_s, 479.90, 1e-3),
        "{}",
        big.busbw_gbyte_s
    );
    // 8 B: ring LL 6.6 + 14 x 0.6 = 15.0 us; tree LL 6.8 + 2 x (7 x 0.6) = 15.2 us; NVLS 25 us; each + 1.65.
    let small = s.pick(Collective::AllReduce, 8.0, None).unwrap();
    assert_eq!(
        (small.algorithm, small.protocol),
        (Algorithm::Ring, Proto::LL)
    );
    assert!(close(small.latency_us, 16.65, 1e-12));
}

#[test]
fn two_dgx_a100_ring_by_hand() {
    // AMD hosts: net overhead 2 us. Ring LL: 30 steps, 2 across the network:
    // 6.6 + 28 x max(0.6, 2) + 2 x 2.7 = 68.0 us, + launch 3.3 (AMD, one GPU a process) = 71.3 us.
    let s = dgx_a100(2);
    let e = s
        .pick(Collective::AllReduce, 8.0, Some(Algorithm::Ring))
        .unwrap();
    assert_eq!(e.protocol, Proto::LL);
    assert!(close(e.latency_us, 71.3, 1e-12), "{}", e.latency_us);
    // Large: bus = min(300 x 0.8, 200 x 0.94) = 188 GB/s (the eight rails, not one NIC).
    let r = s
        .estimates(Collective::AllReduce, 8589934592.0)
        .into_iter()
        .find(|e| e.algorithm == Algorithm::Ring && e.protocol == Proto::Simple)
        .unwrap();
    assert!(close(r.peak_algbw_gbyte_s, 188.0 * 16.0 / 30.0, 1e-12));
    // Latency: (8.4 + 28 x max(3.4, 6) + 2 x 14) x 1.4 = 204.4 x 1.4 = 286.16 us, + launch 3.3 = 289.46 us.
    assert!(close(r.latency_us, 289.46, 1e-9), "{}", r.latency_us);
}

#[test]
fn tree_by_hand() {
    // 5 x DGX H100 with 4 x 400G: rails 200 x 0.94 = 188; bus = min(370.8, 188) x 0.92 = 172.96
    // (cap 16 x 36.0 = 576), x 0.85 = 147.016; algbw = 73.508 GB/s.
    // Latency Simple: 8.4 + 2 x (7 x 4.0 + 2 x 14) = 120.4 us, + launch 1.65 = 122.05 us.
    let mut s = dgx_h100(5);
    s.net_line_gbyte_s_per_node = 200.0;
    let e = s
        .estimates(Collective::AllReduce, 1073741824.0)
        .into_iter()
        .find(|e| e.algorithm == Algorithm::Tree && e.protocol == Proto::Simple)
        .unwrap();
    assert!(
        close(e.peak_algbw_gbyte_s, 73.508, 1e-9),
        "{}",
        e.peak_algbw_gbyte_s
    );
    assert!(close(e.latency_us, 122.05, 1e-12));
}

#[test]
fn tree_doubles_on_two_nodes_only_with_a_nic_per_gpu() {
    // Two HGX A100 with four HDR NICs each: rails 100 x 0.94 = 94 GB/s. Eight NICs per server would double the
    // network term on two nodes (188); four do not: bus = min(240, 94) x 0.92 = 86.48 (cap 16 x 23.6 = 377.6),
    // x 0.85 = 73.508, algbw x 0.5 = 36.754 GB/s, busbw at the limit 36.754 x 2 x 15/16 = 68.9, below the ring's
    // 94 x 16/30 x 30/16 = 94 GB/s: the ring is picked at 8 GiB.
    let mut s = dgx_a100(2);
    s.net_line_gbyte_s_per_node = 100.0;
    s.nics_per_node = 4;
    let t = s
        .estimates(Collective::AllReduce, 8589934592.0)
        .into_iter()
        .find(|e| e.algorithm == Algorithm::Tree && e.protocol == Proto::Simple)
        .unwrap();
    assert!(
        close(t.peak_algbw_gbyte_s, 36.754, 1e-9),
        "{}",
        t.peak_algbw_gbyte_s
    );
    let p = s.pick(Collective::AllReduce, 8589934592.0, None).unwrap();
    assert_eq!(p.algorithm, Algorithm::Ring);
    // With eight NICs: 188 x 0.92 x 0.85 x 0.5 = 73.508 GB/s.
    s.nics_per_node = 8;
    let t = s
        .estimates(Collective::AllReduce, 8589934592.0)
        .into_iter()
        .find(|e| e.algorithm == Algorithm::Tree && e.protocol == Proto::Simple)
        .unwrap();
    assert!(close(t.peak_algbw_gbyte_s, 73.508, 1e-9));
}

#[test]
fn nvls_tree_by_hand() {
    // 248 x 8 H200: rails 400 x 0.94 = 376 < NVLS 275 x 2 x 1983/1984 = 549.7: bus 376, x 0.9 from three servers
    // on = 338.4, algbw 338.4 x 1984/3966 = 169.286 GB/s. Latency: 25 + 2 x 7 x 14 = 221 us, + launch 1.65.
    let s = dgx_h100(248);
    let e = s
        .estimates(Collective::AllReduce, 536870912.0)
        .into_iter()
        .find(|e| e.algorithm == Algorithm::NvlsTree)
        .unwrap();
    assert!(close(e.peak_algbw_gbyte_s, 338.4 * 1984.0 / 3966.0, 1e-12));
    assert!(close(e.latency_us, 222.65, 1e-12));
    let p = s.pick(Collective::AllReduce, 536870912.0, None).unwrap();
    assert_eq!(p.algorithm, Algorithm::NvlsTree);
}

#[test]
fn all_gather_and_all_to_all_by_hand() {
    // All-gather ring on one DGX H100: bus 370.8, algbw = 370.8 x 8/7; busbw at the limit = 370.8.
    let s = dgx_h100(1);
    let e = s
        .estimates(Collective::AllGather, 1e12)
        .into_iter()
        .find(|e| e.protocol == Proto::Simple)
        .unwrap();
    assert!(close(e.peak_algbw_gbyte_s, 370.8 * 8.0 / 7.0, 1e-12));
    assert!(close(e.busbw_gbyte_s, 370.8, 1e-3));
    // All-to-all over 2 DGX H100: 16 ranks, ppn 8. NVLink: 370.8 x 16/7 = 847.5; network 50 x 0.94 x
    // 16/8 = 94 GB/s: the network limits, algbw 94, busbw 94 x 15/16 = 88.125 at the limit.
    let s = dgx_h100(2);
    let e = s
        .estimates(Collective::AllToAll, 1e12)
        .into_iter()
        .next()
        .unwrap();
    assert_eq!(e.protocol, Proto::Simple);
    assert!(close(e.peak_algbw_gbyte_s, 94.0, 1e-12));
    assert!(close(e.busbw_gbyte_s, 88.125, 1e-3));
    // Latency: a step per peer: base 8.4 + 7 NVLink peers x 3.4 + 8 remote peers x 3 x 1 us (Intel post
    // overhead, x3 for Simple) + launch 1.65 = 8.4 + 23.8 + 24 + 1.65 = 57.85 us.
    assert!(close(e.latency_us, 57.85, 1e-12), "{}", e.latency_us);
    // 16 B a rank over 16 peers is 1 B a peer, under 16 KiB: LL at half the bandwidth (47 GB/s),
    // latency 6.6 + 7 x 0.6 + 8 x 1 + 1.65 = 20.45 us.
    let e = s
        .estimates(Collective::AllToAll, 16.0)
        .into_iter()
        .next()
        .unwrap();
    assert_eq!(e.protocol, Proto::LL);
    assert!(close(e.peak_algbw_gbyte_s, 47.0, 1e-12));
    assert!(close(e.latency_us, 20.45, 1e-12), "{}", e.latency_us);
}

#[test]
fn broadcast_and_reduce_scatter_by_hand() {
    // Broadcast, one DGX H100, Simple: algbw = bus = 370.8 GB/s (nccl-tests' factor 1); latency base 8.4 + 8
    // ranks x 4.0 (NCCL charges the tree's Simple step for ring broadcast) = 40.4 us, + launch 1.65 = 42.05 us;
    // fill 16 MiB round / 370800. LL: 6.6 + 8 x 0.6 + 1.65 = 13.05 us, no fill.
    let s = dgx_h100(1);
    let est = s.estimates(Collective::Broadcast, 1e9);
    let simple = est.iter().find(|e| e.protocol == Proto::Simple).unwrap();
    assert!(close(simple.latency_us, 42.05, 1e-12));
    assert!(close(
        simple.time_us,
        42.05 + (1e9 + 16777216.0) / 370_800.0,
        1e-12
    ));
    assert!(close(simple.busbw_gbyte_s, simple.algbw_gbyte_s, 1e-12));
    let ll = est.iter().find(|e| e.protocol == Proto::LL).unwrap();
    assert!(close(ll.latency_us, 13.05, 1e-12));
    assert_eq!(ll.fill_us, 0.0);
    // Reduce-scatter, two DGX A100: ring over 16 ranks, 15 steps of which 1 crosses the network; Simple latency
    // 8.4 + 14 x max(3.4, 2 x 3) + 1 x 14 = 106.4 us (no plateau: that is all-reduce only), + launch 3.3 (AMD)
    // = 109.7 us; algbw 188 x 16/15.
    let s = dgx_a100(2);
    let rs = s
        .estimates(Collective::ReduceScatter, 1e9)
        .into_iter()
        .find(|e| e.protocol == Proto::Simple)
        .unwrap();
    assert!(close(rs.latency_us, 109.7, 1e-12), "{}", rs.latency_us);
    assert!(close(rs.peak_algbw_gbyte_s, 188.0 * 16.0 / 15.0, 1e-12));
}

#[test]
fn collnet_only_with_sharp_and_never_by_default() {
    let mut s = dgx_h100(4);
    assert!(
        s.estimates(Collective::AllReduce, 1e9)
            .iter()
            .all(|e| !matches!(
                e.algorithm,
                Algorithm::CollNetDirect | Algorithm::CollNetChain
            ))
    );
    s.sharp = true;
    let est = s.estimates(Collective::AllReduce, 1e9);
    // CollNet Direct: min(376 x 0.9, 370.8) x 0.85 = 287.64 GB/s.
    let d = est
        .iter()
        .find(|e| e.algorithm == Algorithm::CollNetDirect)
        .unwrap();
    assert!(close(d.peak_algbw_gbyte_s, 338.4 * 0.85, 1e-12));
    assert!(!d.default_enabled);
    let p = s.pick(Collective::AllReduce, 1e9, None).unwrap();
    assert!(p.default_enabled);
}

#[test]
fn point_to_point_by_hand() {
    // Two DGX H100 (Intel hosts, one process per GPU, 8 NDR rails each).
    // Same server: NVLink 4 at 450 GB/s x 20.6/25 = 370.8 GB/s; an 8-byte send: ring LL base 6.6 us + one NVLink
    // LL step 0.6 us + launch 1.65 us = 8.85 us.
    // Across servers: 8 x 50 GB/s x 0.94 / 8 rails = 47 GB/s; 6.6 + network LL step 2.7 + post overhead 1.0 + 1.65
    // = 11.95 us.
    let f = dgx_h100(2).point_to_point();
    assert_eq!(f.len(), 2);
    let (same, across) = (&f[0], &f[1]);
    assert_eq!(same.path, P2pPath::SameServer);
    assert!((same.bandwidth_gbyte_s - 370.8).abs() < 1e-9);
    assert!((same.latency_us - 8.85).abs() < 1e-9);
    assert_eq!(across.path, P2pPath::AcrossServers);
    assert!((across.bandwidth_gbyte_s - 47.0).abs() < 1e-9);
    assert!((across.latency_us - 11.95).abs() < 1e-9);
    // The band: the class factors around the expected value (large inside a server: 0.80-1.05).
    assert!((same.bandwidth_low - 370.8 * BAND_LARGE_INTRA.0).abs() < 1e-9);
    // One server: nothing crosses the network.
    let one = dgx_h100(1).point_to_point();
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].path, P2pPath::SameServer);
}

#[test]
fn collnet_direct_wants_a_nic_per_gpu() {
    // Two DGX H100 with SHARP: Chain algbw min(376 x 0.9, 370.8) = 338.4 GB/s; Direct x 0.85 = 287.64. With four
    // NICs (f = 2 GPUs a NIC): rails 200 x 0.94 = 188, x 0.9 = 169.2; Direct / (2 - 1/2) x 0.85 = 95.88, Chain
    // 169.2 (NCCL's ncclTopoTuneModel).
    let mut s = dgx_h100(2);
    s.sharp = true;
    let bw = |s: &CommShape, a| {
        s.bandwidth(Collective::AllReduce, a, Proto::Simple)
            .unwrap()
    };
    assert!((bw(&s, Algorithm::CollNetChain).0 - 338.4).abs() < 1e-9);
    assert!((bw(&s, Algorithm::CollNetDirect).0 - 338.4 * 0.85).abs() < 1e-9);
    assert!(
        !bw(&s, Algorithm::CollNetDirect).1,
        "CollNet is not on by default"
    );
    s.nics_per_node = 4;
    s.net_line_gbyte_s_per_node = 200.0;
    assert!((bw(&s, Algorithm::CollNetChain).0 - 169.2).abs() < 1e-9);
    assert!((bw(&s, Algorithm::CollNetDirect).0 - 169.2 / 1.5 * 0.85).abs() < 1e-9);
}

#[test]
fn b200_clusters_pick_the_ring_from_four_nodes() {
    // DGX B200: NVLink 5 at 900 GB/s x 0.802 = 721.8 GB/s, 8 NDR rails: 376 GB/s. Four nodes, 16 GiB: the ring's
    // bus is min(721.8, 376) = 376; NVLS-tree's min(900 x 425/900 x 2 x 31/32, 376) x 0.9 = 338.4, so NCCL's ring
    // wins (published B200 runs at 4 or more nodes: NVLS-tree about 290, the ring 306-335 GB/s). Two nodes: the
    // tree's network term doubles, NVLS-tree 2 x 376 = 752 against the ring's 376, so NVLS-tree.
    let b200 = |nodes| CommShape {
        arch: Arch::Blackwell,
        intra_line_gbyte_s: 900.0,
        intra_efficiency: nvlink_efficiency(5),
        ..dgx_h100(nodes)
    };
    let big = 16.0 * 1024.0 * 1024.0 * 1024.0;
    let four = b200(4).pick(Collective::AllReduce, big, None).unwrap();
    assert_eq!(four.algorithm, Algorithm::Ring);
    let tree = b200(4)
        .pick(Collective::AllReduce, big, Some(Algorithm::NvlsTree))
        .unwrap();
    assert!((tree.peak_algbw_gbyte_s - 338.4 * 32.0 / 62.0).abs() < 1e-9);
    let two = b200(2).pick(Collective::AllReduce, big, None).unwrap();
    assert_eq!(two.algorithm, Algorithm::NvlsTree);
}

#[test]
fn trees_across_servers_fill_a_stage_per_hop_by_hand() {
    // Ten DGX H100 (80 GPUs), 32 MiB, NVLS-tree: bus min(275 x 2 x 79/80 = 543.1, rails 8 x 50 x 0.94 = 376) = 376,
    // x 0.9 from three servers on = 338.4; algbw 338.4 x 80/158 = 171.342 GB/s. Latency 25 + 2 x log2i(10) = 3 x 14
    // = 109 + launch 1.65 = 110.65 us. Chunk 64 KiB (4 or more nodes; 32 MiB is not below 4 x 16 x 64 KiB), round
    // 8 x 16 x 64 KiB = 8 MiB, stage 16 channels x 8 heads x 64 KiB = 8 MiB, hops 2 x 3 = 6: fill = min(16 MiB,
    // 8 MiB) + 5 x 8 MiB = 48 MiB = 50331648 B / 171342 = 293.75 us. Time 110.65 + 33554432 / 171342 (195.83) +
    // 293.75 = 600.23 us; busbw 33554432 / 600.23 / 1000 x 158/80 = 110.41 GB/s (issue 39: 83 measured).
    let s = dgx_h100(10);
    let est = s.estimates(Collective::AllReduce, 33554432.0);
    let e = est
        .iter()
        .find(|e| e.algorithm == Algorithm::NvlsTree)
        .unwrap();
    let algbw = 338.4 * 80.0 / 158.0;
    assert!(close(e.peak_algbw_gbyte_s, algbw, 1e-12));
    assert!(close(e.latency_us, 110.65, 1e-12));
    assert!(close(e.fill_us, 50331648.0 / (1000.0 * algbw), 1e-12));
    let t = 110.65 + (33554432.0 + 50331648.0) / (1000.0 * algbw);
    assert!(close(e.time_us, t, 1e-12));
    assert!(close(e.busbw_gbyte_s, 110.41, 1e-3), "{}", e.busbw_gbyte_s);
    // Tree/LL128: round 8 x 16 x 128 KiB = 16 MiB, stage 16 x 128 KiB = 2 MiB, hops 2 x (7 + 3) = 20: fill =
    // min(16 MiB, 16 MiB) + 19 x 2 MiB = 54 MiB, at the tree's corrected rate.
    let tree = est
        .iter()
        .find(|e| e.algorithm == Algorithm::Tree && e.protocol == Proto::LL128)
        .unwrap();
    let rate = 33554432.0 / (tree.time_us - tree.latency_us - tree.fill_us);
    assert!(close(tree.fill_us * rate, 54.0 * 1048576.0, 1e-9));
    // The ring keeps one round (8 x 16 x 128 KiB = 16 MiB) whatever the node count.
    let ring = est
        .iter()
        .find(|e| e.algorithm == Algorithm::Ring && e.protocol == Proto::Simple)
        .unwrap();
    let rate = 33554432.0 / (ring.time_us - ring.latency_us - ring.fill_us);
    assert!(close(ring.fill_us * rate, 16777216.0, 1e-9));
    // One server: NVLS keeps its one round too (16 MiB at 32 MiB: chunk 64 KiB, round 8 MiB).
    let one = dgx_h100(1)
        .estimates(Collective::AllReduce, 33554432.0)
        .into_iter()
        .find(|e| e.algorithm == Algorithm::Nvls)
        .unwrap();
    assert!(close(one.fill_us, 8388608.0 / 275000.0, 1e-12));
}
