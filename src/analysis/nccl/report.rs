//! The NCCL section of the report: each collective at the design's size with NCCL's pick, and the expected
//! nccl-tests sweep.

use super::{Algorithm, Band, Collective, CommShape, Estimate, PointToPoint, Proto};
use crate::analysis::format::round;
use serde::Serialize;

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
    /// Send/receive between two GPUs (nccl-tests' `sendrecv_perf`): inside a server and across servers, where the
    /// design has them.
    pub point_to_point: Vec<PointToPoint>,
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
    let point_to_point = shape
        .point_to_point()
        .into_iter()
        .map(|mut f| {
            for v in [
                &mut f.bandwidth_gbyte_s,
                &mut f.bandwidth_low,
                &mut f.bandwidth_high,
                &mut f.latency_us,
                &mut f.latency_low_us,
                &mut f.latency_high_us,
            ] {
                *v = round(*v, 3);
            }
            f
        })
        .collect();
    NcclReport {
        shape,
        collectives,
        allreduce_sweep,
        point_to_point,
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
