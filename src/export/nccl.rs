//! `nccl-expect`: what nccl-tests should print on the drawn design, so a cluster's acceptance run can be compared
//! with the design line by line. One table per collective, sizes 8 B to 16 GiB by powers of two (the sweep of
//! `*_perf -b 8 -e 16G -f 2`), in nccl-tests' columns (size, count, type, redop, root, time, algbw, busbw), each
//! row ending with the algorithm and protocol NCCL would pick as a comment. The figures are the NCCL model's
//! (docs/analysis.md, "Collectives as NCCL runs them"): estimates, not measurements.

use crate::analysis::Report;
use crate::analysis::nccl::{Collective, sweep};
use crate::model::Design;
use std::fmt::Write as _;

/// nccl-tests' program for a collective.
fn program(c: Collective) -> &'static str {
    match c {
        Collective::AllReduce => "all_reduce_perf",
        Collective::AllGather => "all_gather_perf",
        Collective::ReduceScatter => "reduce_scatter_perf",
        Collective::AllToAll => "alltoall_perf",
        Collective::Broadcast => "broadcast_perf",
    }
}

/// The expected nccl-tests output for the design.
pub fn expect(design: &Design, report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Expected nccl-tests results for \"{}\", written by Racksmith {} from NCCL's tuning model on the drawn \
         design (docs/analysis.md). Estimates, not measurements.",
        super::escape::comment_line(&design.name),
        env!("CARGO_PKG_VERSION")
    );
    let Some(nccl) = &report.latency.nccl else {
        out.push_str("# The design has fewer than two GPUs: no collective to run.\n");
        return out;
    };
    let s = &nccl.shape;
    let _ = writeln!(
        out,
        "# {} ranks on {} node(s); {} {:.1} GB/s per GPU per direction inside a node; rails {:.1} GB/s per node{}{}",
        s.ranks,
        s.nodes,
        if s.nvlink { "NVLink" } else { "PCIe" },
        s.intra_line_gbyte_s,
        s.net_line_gbyte_s_per_node,
        if s.nvls { "; NVLS" } else { "" },
        if s.sharp {
            "; SHARP (CollNet needs NCCL_COLLNET_ENABLE=1)"
        } else {
            ""
        },
    );
    out.push_str(
        "# Each row ends with NCCL's pick and the bus bandwidth's band: the range published measurements of the same \
         class (size, inside or across nodes) measured around the model's expected value (docs/validation.md).\n",
    );
    let ranks = s.ranks as f64;
    for c in Collective::ALL {
        let (redop, root) = match c {
            Collective::AllReduce | Collective::ReduceScatter => ("sum", -1),
            Collective::AllGather | Collective::AllToAll => ("none", -1),
            Collective::Broadcast => ("none", 0),
        };
        let _ = write!(
            out,
            "#\n# {} -b 8 -e 16G -f 2 -g 1 ({})\n#\n\
             #{:>12} {:>13} {:>9} {:>7} {:>7} {:>10} {:>8} {:>8}\n\
             #{:>12} {:>13} {:>9} {:>7} {:>7} {:>10} {:>8} {:>8}\n",
            program(c),
            c.name(),
            "size",
            "count",
            "type",
            "redop",
            "root",
            "time",
            "algbw",
            "busbw",
            "(B)",
            "(elements)",
            "",
            "",
            "",
            "(us)",
            "(GB/s)",
            "(GB/s)",
        );
        for row in sweep(s, c) {
            // nccl-tests counts elements per rank for the collectives that split the buffer.
            let count = match c {
                Collective::AllGather | Collective::ReduceScatter | Collective::AllToAll => {
                    (row.bytes / 4.0 / ranks).floor()
                }
                _ => row.count,
            };
            let _ = writeln!(
                out,
                " {:>12} {:>13} {:>9} {:>7} {:>7} {:>10.2} {:>8.2} {:>8.2}  # {}/{}, busbw {:.2}-{:.2}",
                row.bytes,
                count,
                "float",
                redop,
                root,
                row.time_us,
                row.algbw_gbyte_s,
                row.busbw_gbyte_s,
                row.algorithm.name(),
                row.protocol.name(),
                row.busbw_low,
                row.busbw_high
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn superpod_expectation_by_hand() {
        // DGX SuperPOD H100, 1 SU: 248 ranks on 31 nodes. All-reduce of 1 GiB: NVLS-tree, bus = the rails,
        // 8 x 50 x 0.94 = 376 GB/s, x 0.9 from three servers on = 338.4; algbw limit 338.4 x 248/494 = 169.885
        // GB/s; latency 25 + 2 x 4 x 14 = 137 us + launch 1.65 (one GPU a process) = 138.65 us; fill: NVLS-tree's
        // chunk at 4+ nodes is 64 KiB (1 GiB is above 4 rounds of 16 x 64 KiB), one round 8 x 16 x 64 KiB = 8 MiB,
        // and a stage of 16 channels x 8 heads x 64 KiB = 8 MiB for each further of the 2 x log2i(31) = 8 hops
        // through the tree of servers: 64 MiB, 67108864 / 169885.0 = 395.03 us; time = 138.65 + 1073741824 /
        // 169885.0 + 395.03 = 138.65 + 6320.40 + 395.03 = 6854.08 us. Band (large messages across servers, 0.90 to
        // 1.35): busbw 312.05 x 0.9 = 280.85 to 312.05 x 1.35 = 421.27 GB/s.
        let d = crate::samples::sample("superpod-h100-1su").unwrap();
        let r = crate::analysis::analyze(&d);
        let text = expect(&d, &r);
        assert_eq!(text.matches("_perf -b 8 -e 16G -f 2").count(), 5);
        assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 5 * 32);
        let row = text
            .lines()
            .find(|l| l.trim_start().starts_with("1073741824 "))
            .unwrap();
        let cols: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(
            &cols[..5],
            ["1073741824", "268435456", "float", "sum", "-1"]
        );
        let t: f64 = cols[5].parse().unwrap();
        assert!((t - 6854.08).abs() < 0.02, "{row}");
        assert!(
            row.ends_with("# NVLSTree/Simple, busbw 280.85-421.27"),
            "{row}"
        );
    }

    #[test]
    fn a_design_name_cannot_start_a_row() {
        let mut d = crate::samples::sample("dgx-h100-single").unwrap();
        d.name = "x\n8 2 float sum -1 1.0 1.0 1.0\r\u{2028}y".into();
        let out = expect(&d, &crate::analysis::analyze(&d));
        let first = out.lines().next().unwrap();
        assert!(
            first.starts_with('#') && first.contains("x 8 2 float sum"),
            "{first}"
        );
        assert!(
            !out.lines().skip(1).any(|l| l.contains("float sum -1 1.0")),
            "{out}"
        );
    }
}
