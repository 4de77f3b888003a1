//! M/M/1 queueing: percentiles of waiting and sojourn times, for one queue and for a path of independent queues
//! (docs/analysis.md, "Latency").

/// Percentile `p` (0-1) of the waiting time in an M/M/1 queue with service rate `mu` and utilisation `rho`, in the
/// unit of 1/mu: ln(rho/(1-p)) / (mu - lambda) when p > 1 - rho, else 0 (the request finds the server idle).
pub fn wait_percentile(mu: f64, rho: f64, p: f64) -> f64 {
    if mu <= 0.0 || !(0.0..1.0).contains(&rho) {
        return f64::INFINITY;
    }
    if p <= 1.0 - rho {
        return 0.0;
    }
    let lambda = rho * mu;
    (rho / (1.0 - p)).ln() / (mu - lambda)
}

/// Percentile `p` of the time in system (wait + service) of an M/M/1 queue: ln(1/(1-p)) / (mu - lambda).
pub fn sojourn_percentile(mu: f64, lambda: f64, p: f64) -> f64 {
    if mu <= lambda || mu <= 0.0 {
        return f64::INFINITY;
    }
    (1.0 / (1.0 - p)).ln() / (mu - lambda)
}

/// Probability that the total waiting time over `links` independent M/M/1 queues, each with service rate `mu` and
/// utilisation `rho`, is at most `t` (in the unit of 1/mu).
///
/// Each wait is 0 with probability 1 - rho and otherwise exponential with rate theta = mu (1 - rho). The number of
/// queues that make the message wait is binomial (links, rho), and the sum of k such exponentials is Erlang (k,
/// theta), so P(S <= t) = sum over k of C(links, k) rho^k (1 - rho)^(links - k) P(Erlang(k, theta) <= t), with
/// P(Erlang(k, theta) <= t) = 1 - sum over j < k of e^(-theta t) (theta t)^j / j!. Saturated queues (rho >= 1)
/// never finish: 0.
pub fn path_wait_cdf(mu: f64, rho: f64, links: u32, t: f64) -> f64 {
    if links == 0 || rho <= 0.0 {
        return 1.0;
    }
    if mu <= 0.0 || rho >= 1.0 || !rho.is_finite() {
        return 0.0;
    }
    if t < 0.0 {
        return 0.0;
    }
    let theta = mu * (1.0 - rho);
    let x = theta * t;
    let mut total = 0.0;
    let mut binom = 1.0; // C(links, k)
    for k in 0..=links {
        if k > 0 {
            binom *= f64::from(links - k + 1) / f64::from(k);
        }
        let weight = binom * rho.powi(k as i32) * (1.0 - rho).powi((links - k) as i32);
        // P(Erlang(k) <= t); Erlang(0) is the point mass at 0.
        let mut tail = 0.0;
        let mut term = (-x).exp();
        for j in 0..k {
            if j > 0 {
                term *= x / f64::from(j);
            }
            tail += term;
        }
        total += weight * (1.0 - tail);
    }
    total.clamp(0.0, 1.0)
}

/// Percentile `p` (0-1) of the total waiting time over `links` independent M/M/1 queues with the same `mu` and `rho`
/// (the inverse of [`path_wait_cdf`], by bisection to a relative 1e-12); infinite when the queues are saturated.
pub fn path_wait_percentile(mu: f64, rho: f64, links: u32, p: f64) -> f64 {
    if links == 0 || rho <= 0.0 {
        return 0.0;
    }
    if mu <= 0.0 || rho >= 1.0 || !rho.is_finite() {
        return f64::INFINITY;
    }
    if p <= (1.0 - rho).powi(links as i32) {
        return 0.0;
    }
    let mut hi = 1.0 / (mu * (1.0 - rho));
    while path_wait_cdf(mu, rho, links, hi) < p {
        hi *= 2.0;
        if !hi.is_finite() {
            return f64::INFINITY;
        }
    }
    let mut lo = 0.0;
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if path_wait_cdf(mu, rho, links, mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-12 * hi {
            break;
        }
    }
    hi
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waiting_percentiles_by_hand() {
        // mu = 1 per us, rho = 0.7: mu - lambda = 0.3 per us.
        // p99: ln(0.7/0.01)/0.3 = ln(70)/0.3 = 4.2485/0.3 = 14.162 us. p50: ln(0.7/0.5)/0.3 = 0.3365/0.3 = 1.1216 us.
        assert!((wait_percentile(1.0, 0.7, 0.99) - 14.1617).abs() < 1e-3);
        assert!((wait_percentile(1.0, 0.7, 0.5) - 1.12157).abs() < 1e-4);
        // p = 0.2 <= 1 - rho: 70% chance of waiting at all, so the 20th percentile waits 0.
        assert_eq!(wait_percentile(1.0, 0.7, 0.2), 0.0);
    }

    #[test]
    fn sojourn_percentile_by_hand() {
        // mu = 10/s, lambda = 5/s: p99 = ln(100)/5 = 4.60517/5 = 0.92103 s.
        assert!((sojourn_percentile(10.0, 5.0, 0.99) - 0.921034).abs() < 1e-5);
        assert!(sojourn_percentile(10.0, 10.0, 0.99).is_infinite());
    }

    #[test]
    fn path_of_one_queue_is_the_single_queue() {
        for p in [0.2, 0.5, 0.9, 0.99, 0.999] {
            let a = path_wait_percentile(1.0, 0.7, 1, p);
            let b = wait_percentile(1.0, 0.7, p);
            assert!((a - b).abs() < 1e-9 * b.max(1.0), "{p}: {a} vs {b}");
        }
    }

    #[test]
    fn two_queue_path_by_hand() {
        // mu = 1, rho = 0.7, two links: theta = 0.3. P(K = 0, 1, 2) = 0.09, 0.42, 0.49.
        // At t = 1: P(Exp <= 1) = 1 - e^-0.3 = 0.259182; P(Erlang2 <= 1) = 1 - e^-0.3 x 1.3 = 0.036937.
        // CDF = 0.09 + 0.42 x 0.259182 + 0.49 x 0.036937 = 0.216955.
        assert!((path_wait_cdf(1.0, 0.7, 2, 1.0) - 0.216955).abs() < 1e-6);
        assert!((path_wait_percentile(1.0, 0.7, 2, 0.216955) - 1.0).abs() < 1e-5);
        // The sum of per-link medians (2 x 1.12157 = 2.2431) is below the median of the sum: CDF(2.2431) =
        // 0.09 + 0.42 x 0.48976 + 0.49 x 0.14642 = 0.3675 < 0.5. At p99 the sum of per-link percentiles
        // (2 x 14.162) is above the path's p99.
        assert!((path_wait_cdf(1.0, 0.7, 2, 2.243_14) - 0.3675).abs() < 1e-3);
        assert!(path_wait_percentile(1.0, 0.7, 2, 0.5) > 2.0 * wait_percentile(1.0, 0.7, 0.5));
        assert!(path_wait_percentile(1.0, 0.7, 2, 0.99) < 2.0 * wait_percentile(1.0, 0.7, 0.99));
        // p <= 0.09 = P(no wait on either link): 0.
        assert_eq!(path_wait_percentile(1.0, 0.7, 2, 0.09), 0.0);
    }

    #[test]
    fn saturated_paths_never_finish() {
        assert!(path_wait_percentile(1.0, 1.0, 2, 0.5).is_infinite());
        assert!(path_wait_percentile(1.0, 1.2, 2, 0.5).is_infinite());
        assert_eq!(path_wait_cdf(1.0, 1.0, 2, 1e9), 0.0);
    }
}
