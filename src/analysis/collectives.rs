//! All-reduce times by the alpha-beta model (docs/analysis.md, "Collectives"; the ring and hierarchical forms follow
//! the distributed-training-book, chapter "The Collective Cost Model"; the tree follows NCCL's pipelined double
//! binary tree, see [`double_binary_tree`]). alpha in seconds, beta in bytes per second, n in bytes.

/// Ring all-reduce over p ranks: 2(p-1) alpha + 2 (p-1)/p n/beta.
pub fn ring(p: f64, n: f64, alpha: f64, beta: f64) -> f64 {
    if p <= 1.0 {
        return 0.0;
    }
    2.0 * (p - 1.0) * alpha + 2.0 * (p - 1.0) / p * n / beta
}

/// Tree all-reduce as NCCL runs it (pipelined double binary tree) with every rank its own node:
/// [`double_binary_tree`] with one rank per node, 2 floor(log2 p) alpha + 2 n/beta.
pub fn tree(p: f64, n: f64, alpha: f64, beta: f64) -> f64 {
    double_binary_tree(1.0, p, n, alpha, alpha, beta)
}

/// NCCL's pipelined double binary tree all-reduce over `nodes` nodes of `g` ranks each (NCCL 2.4 and later).
///
/// Two complementary binary trees span the nodes, each carrying half of the data, with a chain through the `g`
/// ranks inside each node; data is cut into chunks and pipelined up (reduce) and down (broadcast). Model, from NCCL's
/// own tuning model (NVIDIA/nccl, `src/graph/tuning.cc`, `ncclTopoTuneModel`): latency
/// 2 x ((g - 1) alpha_intra + log2i(nodes) alpha_inter), with log2i the integer floor of log2; bandwidth: the
/// algorithm bandwidth is half the bus bandwidth (`ratio = .5` for trees), so the bandwidth term is 2 n / beta, close
/// to the ring's 2 (p-1)/p n / beta (NVIDIA Developer Blog, "Massively Scale Your Deep Learning Training with NCCL
/// 2.4", February 2019: double binary trees give full bandwidth and logarithmic latency). nccl-tests
/// (doc/PERFORMANCE.md) reports busbw = algbw x 2(p-1)/p for all-reduce whatever the algorithm, so a tree at the
/// link limit reports busbw = beta (p-1)/p.
pub fn double_binary_tree(
    g: f64,
    nodes: f64,
    n: f64,
    alpha_intra: f64,
    alpha_inter: f64,
    beta: f64,
) -> f64 {
    if g * nodes <= 1.0 {
        return 0.0;
    }
    let depth = nodes.max(1.0).log2().floor();
    2.0 * ((g - 1.0).max(0.0) * alpha_intra + depth * alpha_inter) + 2.0 * n / beta
}

/// Unpipelined binary-tree all-reduce (reduce up, then broadcast down, whole message per step):
/// 2 log2(p) alpha + 2 log2(p) n/beta. Not what NCCL does; kept for comparison with textbooks.
pub fn binary_tree_unpipelined(p: f64, n: f64, alpha: f64, beta: f64) -> f64 {
    if p <= 1.0 {
        return 0.0;
    }
    let l = p.log2();
    2.0 * l * alpha + 2.0 * l * n / beta
}

/// Ring reduce-scatter (or all-gather): (p-1) alpha + (p-1)/p n/beta.
pub fn reduce_scatter(p: f64, n: f64, alpha: f64, beta: f64) -> f64 {
    if p <= 1.0 {
        return 0.0;
    }
    (p - 1.0) * alpha + (p - 1.0) / p * n / beta
}

/// Hierarchical all-reduce with g GPUs per node over `nodes` nodes: intra-node reduce-scatter, inter-node ring
/// all-reduce of n/g (g rings in parallel, one per local rank), intra-node all-gather.
pub fn hierarchical(
    g: f64,
    nodes: f64,
    n: f64,
    alpha_intra: f64,
    beta_intra: f64,
    alpha_inter: f64,
    beta_inter: f64,
) -> f64 {
    2.0 * reduce_scatter(g, n, alpha_intra, beta_intra)
        + ring(nodes, n / g.max(1.0), alpha_inter, beta_inter)
}

/// The all-reduce algorithms the analysis models and their times, seconds, for p ranks in `nodes` nodes of g
/// ranks: inside one node, ring and tree over the intra-node figures; across nodes, a flat ring and a double binary
/// tree bound by the slower beta and the network alpha, and the hierarchical form when a node has several ranks.
#[allow(clippy::too_many_arguments)]
pub fn allreduce_times(
    p: f64,
    g: f64,
    nodes: usize,
    n: f64,
    alpha_intra: f64,
    beta_intra: f64,
    alpha_inter: f64,
    beta_inter: f64,
) -> Vec<(&'static str, f64)> {
    let mut out = Vec::new();
    if nodes <= 1 {
        if beta_intra > 0.0 {
            out.push(("ring", ring(p, n, alpha_intra, beta_intra)));
            out.push((
                "tree",
                double_binary_tree(p, 1.0, n, alpha_intra, alpha_intra, beta_intra),
            ));
        }
    } else if beta_inter > 0.0 {
        // A flat ring over all GPUs crosses the network: bound by the slower of the two betas and the network alpha.
        let beta_flat = if beta_intra > 0.0 {
            beta_inter.min(beta_intra)
        } else {
            beta_inter
        };
        out.push(("ring", ring(p, n, alpha_inter, beta_flat)));
        out.push((
            "tree",
            double_binary_tree(g, nodes as f64, n, alpha_intra, alpha_inter, beta_flat),
        ));
        if beta_intra > 0.0 && g > 1.0 {
            out.push((
                "hierarchical",
                hierarchical(
                    g,
                    nodes as f64,
                    n,
                    alpha_intra,
                    beta_intra,
                    alpha_inter,
                    beta_inter,
                ),
            ));
        }
    }
    out
}

/// Bus bandwidth as nccl-tests reports it for all-reduce: algbw x 2(p-1)/p.
pub fn bus_bandwidth(algbw: f64, p: f64) -> f64 {
    if p <= 1.0 {
        return algbw;
    }
    algbw * 2.0 * (p - 1.0) / p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn book_example_hierarchical_vs_flat() {
        // distributed-training-book: 8 nodes x 8 GPUs, n = 2 GB, alpha_NV = 1 us, beta_NV = 300 GB/s,
        // alpha_net = 5 us, beta_net = 50 GB/s.
        // Intra reduce-scatter: 7 x 1 us + 7/8 x 2e9/3e11 = 0.007 + 5.8333 = 5.8403 ms (the book rounds to 5.81).
        // Inter all-reduce of 250 MB over 8 nodes: 14 x 5 us + 14/8 x 2.5e8/5e10 = 0.07 + 8.75 = 8.82 ms.
        // Total 5.8403 + 8.82 + 5.8403 = 20.5007 ms (book: 20.44 ms with its rounding).
        let h = hierarchical(8.0, 8.0, 2e9, 1e-6, 3e11, 5e-6, 5e10);
        assert!((h * 1e3 - 20.5007).abs() < 1e-3, "{}", h * 1e3);
        assert!((h * 1e3 - 20.44).abs() / 20.44 < 0.005);
        // Flat ring over 64 GPUs bound by the network: 126 x 5 us + 126/64 x 2e9/5e10 = 0.63 + 78.75 = 79.38 ms.
        let f = ring(64.0, 2e9, 5e-6, 5e10);
        assert!((f * 1e3 - 79.38).abs() < 1e-9 + 1e-6, "{}", f * 1e3);
    }

    #[test]
    fn busbw_relation() {
        // nccl-tests: busbw = algbw x 2(n-1)/n; 8 ranks at algbw 100 GB/s -> 175 GB/s.
        assert!((bus_bandwidth(100.0, 8.0) - 175.0).abs() < 1e-12);
        // A ring all-reduce at the link limit has busbw = beta: algbw = n/t with t = 2(p-1)/p n/beta (alpha = 0).
        let t = ring(8.0, 1e9, 0.0, 5e10);
        assert!((bus_bandwidth(1e9 / t, 8.0) - 5e10).abs() < 1.0);
    }

    #[test]
    fn unpipelined_tree_by_hand() {
        // p = 16: log2 = 4; 8 alpha + 8 n/beta = 8 us + 8 x 1e6/1e10 = 8 us + 800 us = 808 us.
        assert!((binary_tree_unpipelined(16.0, 1e6, 1e-6, 1e10) - 808e-6).abs() < 1e-12);
    }

    #[test]
    fn double_binary_tree_by_hand() {
        // 1-SU SuperPOD: 31 nodes of 8 GPUs, 1 GB, alpha 1 us inside and 5 us across, beta 40 GB/s.
        // log2i(31) = 4: latency 2 x (7 x 1 us + 4 x 5 us) = 54 us; bandwidth 2 x 1e9 / 4e10 = 50 ms: 50.054 ms.
        // The unpipelined tree over the 248 GPUs would be 2 x 7.954 x 1e9 / 4e10 = 398 ms; the ring 52.27 ms.
        let t = double_binary_tree(8.0, 31.0, 1e9, 1e-6, 5e-6, 4e10);
        assert!((t - 50.054e-3).abs() < 1e-12, "{t}");
        let ring = ring(248.0, 1e9, 5e-6, 4e10);
        assert!((ring - (2.0 * 247.0 * 5e-6 + 2.0 * 247.0 / 248.0 * 0.025)).abs() < 1e-12);
        assert!((binary_tree_unpipelined(248.0, 1e9, 5e-6, 4e10) - 0.398).abs() < 1e-3);
        // Flat form: every rank a node: p = 16, 2 x 4 alpha + 2 n / beta = 8 us + 200 us.
        assert!((tree(16.0, 1e6, 1e-6, 1e10) - 208e-6).abs() < 1e-12);
        // One rank: nothing to do.
        assert_eq!(double_binary_tree(1.0, 1.0, 1e9, 1e-6, 5e-6, 4e10), 0.0);
    }

    #[test]
    fn tree_busbw_matches_nccl_tests_relation() {
        // nccl-tests doc/PERFORMANCE.md: busbw = algbw x 2(p-1)/p. With no latency, the tree's algbw is beta / 2
        // (NCCL's tree ratio .5), so busbw = beta (p-1)/p: 8 ranks at 50 GB/s -> 43.75 GB/s, within 1/p of the
        // ring's busbw, which equals beta.
        let t = double_binary_tree(1.0, 8.0, 1e9, 0.0, 0.0, 5e10);
        assert!((bus_bandwidth(1e9 / t, 8.0) - 4.375e10).abs() < 1.0);
        let r = ring(8.0, 1e9, 0.0, 5e10);
        assert!((bus_bandwidth(1e9 / r, 8.0) - 5e10).abs() < 1.0);
    }
}
