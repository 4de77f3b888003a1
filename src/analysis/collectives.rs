//! All-reduce times by the alpha-beta model (formulas.md, "Collectives"; distributed-training-book, "The Collective
//! Cost Model"). alpha in seconds, beta in bytes per second, n in bytes.

/// Ring all-reduce over p ranks: 2(p-1) alpha + 2 (p-1)/p n/beta.
pub fn ring(p: f64, n: f64, alpha: f64, beta: f64) -> f64 {
    if p <= 1.0 {
        return 0.0;
    }
    2.0 * (p - 1.0) * alpha + 2.0 * (p - 1.0) / p * n / beta
}

/// Binary-tree all-reduce: 2 log2(p) alpha + 2 log2(p) n/beta.
pub fn tree(p: f64, n: f64, alpha: f64, beta: f64) -> f64 {
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
    fn tree_by_hand() {
        // p = 16: log2 = 4; 8 alpha + 8 n/beta = 8 us + 8 x 1e6/1e10 = 8 us + 800 us = 808 us.
        assert!((tree(16.0, 1e6, 1e-6, 1e10) - 808e-6).abs() < 1e-12);
    }
}
