//! M/M/1 queueing: percentiles of waiting and sojourn times (formulas.md, "Path latency").

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
}
