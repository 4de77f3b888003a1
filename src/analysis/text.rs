//! Plain-text rendering of a report (for the terminal and for review exports) and of the catalog.

use super::format::usd;
use super::{Report, Severity};
use crate::catalog::Catalog;
use crate::model::part::{Category, PartKind};
use std::fmt::Write as _;

/// The report as text: the sections top to bottom in the order they are read.
pub fn render(r: &Report) -> String {
    let mut o = String::new();
    headline(&mut o, r);
    bandwidth(&mut o, r);
    latency(&mut o, r);
    racks(&mut o, r);
    facility(&mut o, r);
    if let Some(rel) = &r.reliability {
        let _ = writeln!(o, "\nFailures and checkpoints");
        for (k, v) in super::reliability::lines(rel) {
            let _ = writeln!(o, "  {k:<16} {v}");
        }
    }
    bill_of_materials(&mut o, r);
    findings(&mut o, r);
    o
}

/// The headline: the design's size, bottleneck, network figures, power, cost, procurement and serving.
fn headline(o: &mut String, r: &Report) {
    let s = &r.summary;
    let _ = writeln!(o, "Racksmith analysis: {}", s.design);
    let _ = writeln!(o, "{}", "=".repeat(20 + s.design.len()));
    let _ = writeln!(
        o,
        "GPUs {} in {} servers | {} switches | {} racks",
        s.gpus, s.gpu_servers, s.switches, s.racks
    );
    let _ = writeln!(o, "Bottleneck: {}", s.bottleneck);
    // As the headline cards: no figure between GPUs that cannot reach each other.
    if let Some(word) = s.gpu_network.instead_of_figure() {
        let _ = writeln!(
            o,
            "Bisection, all-reduce and p99 latency: {word} ({})",
            s.gpu_network.why(s.gpu_islands)
        );
    } else {
        let _ = writeln!(
            o,
            "Bisection {:.1} Tb/s{} | all-reduce {:.2} ms ({}) | p99 latency {}",
            s.bisection_gbps / 1000.0,
            if r.bandwidth.bisection.exact {
                String::new()
            } else {
                format!(
                    " (at least; at most {:.1} Tb/s)",
                    r.bandwidth.bisection.upper_gbps / 1000.0
                )
            },
            s.allreduce_ms,
            r.latency.allreduce.best,
            if s.p99_latency_us.is_finite() {
                format!("{:.2} us", s.p99_latency_us)
            } else {
                "saturated".to_string()
            }
        );
    }
    let _ = writeln!(
        o,
        "Power {:.1} kW IT of {:.1} kW budget, {:.1} kW facility (PUE {})",
        s.it_power_kw,
        s.power_budget_kw,
        r.power.facility_power_w / 1000.0,
        r.power.pue
    );
    let _ = writeln!(
        o,
        "Capex {} | opex {}/yr | TCO {} over {} years | {:.2} $/GPU-h owned vs {:.2} cloud | break-even {}",
        usd(r.cost.capex_usd),
        usd(r.cost.opex_usd_per_year),
        usd(r.cost.tco_usd),
        r.cost.years,
        r.cost.owned_usd_per_gpu_hour,
        r.cost.cloud_usd_per_gpu_hour,
        r.cost.break_even
    );
    let p = &r.cost.procurement;
    if let Some(w) = p.earliest_live_weeks {
        let _ = writeln!(
            o,
            "Earliest live: {w} weeks after order (set by {}){}{}",
            p.limiting_parts.join(", "),
            if p.unknown_lead_time.is_empty() {
                String::new()
            } else {
                format!("; no lead time for {}", p.unknown_lead_time.join(", "))
            },
            if p.spares_usd > 0.0 {
                format!("; spares {} in the capex", usd(p.spares_usd))
            } else {
                String::new()
            }
        );
    }
    if let (Some(needed), Some(have)) = (r.cost.replicas_needed, r.cost.replicas_in_design) {
        let _ = writeln!(
            o,
            "Serving: {needed} replicas needed, {have} in the design; {} per 1M requests",
            r.cost
                .usd_per_million_requests
                .map_or("n/a".into(), |c| format!("${c:.3}"))
        );
    }
}

/// Bandwidth per GPU by pattern, and the bisection.
fn bandwidth(o: &mut String, r: &Report) {
    let _ = writeln!(o, "\nBandwidth (per GPU, per direction)");
    for p in &r.bandwidth.patterns {
        let _ = writeln!(
            o,
            "  {:<48} {:>8.2} GB/s of {:>8.2} asked  limited by {}",
            p.pattern, p.achieved_gbyte_s_per_gpu, p.demand_gbyte_s_per_gpu, p.limiter
        );
    }
    let _ = writeln!(
        o,
        "  bisection {:.1} Gb/s ({})",
        r.bandwidth.bisection.gbps, r.bandwidth.bisection.method
    );
}

/// Latency by path class, and the all-reduce by algorithm.
fn latency(o: &mut String, r: &Report) {
    let _ = writeln!(
        o,
        "\nLatency ({} B messages, {})",
        r.latency.message_bytes, r.latency.note
    );
    for p in &r.latency.paths {
        if p.saturated {
            let _ = writeln!(
                o,
                "  {:<14} saturated (utilisation {:.0}%: queues never drain)  ({} switch hops)",
                p.class,
                r.latency.utilisation * 100.0,
                p.switch_hops
            );
            continue;
        }
        let _ = writeln!(
            o,
            "  {:<14} p50 {:>9.2} us  p99 {:>9.2} us  p99.9 {:>9.2} us  ({} switch hops)",
            p.class,
            p.p50_ns / 1000.0,
            p.p99_ns / 1000.0,
            p.p999_ns / 1000.0,
            p.switch_hops
        );
    }
    let a = &r.latency.allreduce;
    let _ = writeln!(
        o,
        "  all-reduce of {:.0} MB over {} GPUs:",
        a.bytes / 1e6,
        a.ranks
    );
    for alg in &a.algorithms {
        let _ = writeln!(
            o,
            "    {:<13} {:>10.3} ms  algbw {:>8.2} GB/s  busbw {:>8.2} GB/s",
            alg.algorithm, alg.time_ms, alg.algbw_gbyte_s, alg.busbw_gbyte_s
        );
    }
}

/// Each rack's power, heat, weight and space.
fn racks(o: &mut String, r: &Report) {
    let _ = writeln!(o, "\nRacks");
    for rk in &r.power.racks {
        let _ = writeln!(
            o,
            "  {:<8} {:>7.1} / {:>6.1} kW ({:>5.1}%)  {:>9.0} BTU/h  {:>6.0} / {:.0} kg  {:>2}U / {}U",
            rk.name,
            rk.power_w / 1000.0,
            rk.budget_w / 1000.0,
            rk.utilisation * 100.0,
            rk.heat_btu_h,
            rk.weight_kg,
            rk.max_weight_kg,
            rk.units_used,
            rk.units_total
        );
    }
}

/// Each site's facility power and cooling.
fn facility(o: &mut String, r: &Report) {
    let _ = writeln!(o, "\nFacility");
    for f in &r.cooling.sites {
        let name = f.label();
        let _ = writeln!(
            o,
            "  {name:<10} {:>8.1} kW IT ({:.1} air, {:.1} liquid) + {:.1} kW cooling and overhead = {:.1} kW \
             facility (PUE {}); heat {:.0} BTU/h",
            f.it_kw, f.air_kw, f.liquid_kw, f.overhead_kw, f.facility_kw, f.pue, f.heat_btu_h
        );
        if f.liquid_kw > 0.0 || f.cdus > 0 {
            let _ = writeln!(
                o,
                "  {:<10} coolant {:.0} L/min against {} CDU(s): {:.0} kW, {:.0} L/min",
                "", f.coolant_l_min, f.cdus, f.cdu_capacity_kw, f.cdu_flow_l_min
            );
        }
    }
}

/// The bill of materials.
fn bill_of_materials(o: &mut String, r: &Report) {
    let _ = writeln!(o, "\nBill of materials");
    for line in &r.cost.bom {
        let _ = writeln!(
            o,
            "  {:>5} x {:<52} {:>14}{}",
            line.quantity,
            line.name,
            usd(line.total_usd),
            bom_marks(line)
        );
    }
}

/// The findings, by severity count then one by one.
fn findings(o: &mut String, r: &Report) {
    let s = &r.summary;
    let _ = writeln!(
        o,
        "\nFindings ({} errors, {} warnings, {} info)",
        s.errors, s.warnings, s.infos
    );
    for f in &r.findings {
        let tag = match f.severity {
            Severity::Error => "ERROR",
            Severity::Warning => "WARN ",
            Severity::Info => "info ",
        };
        let _ = writeln!(
            o,
            "  {tag} [{}] {}\n        fix: {}",
            f.code, f.message, f.fix
        );
    }
}

/// What the text report adds to a BOM line: an unsourced price is an estimate; overrides are named.
fn bom_marks(line: &crate::analysis::cost::BomLine) -> String {
    let mut marks = Vec::new();
    if line.price_source == crate::catalog::figures::ESTIMATE {
        marks.push("price: estimate".to_string());
    }
    if !line.unsourced.is_empty() {
        marks.push(format!(
            "estimates, no source: {}",
            line.unsourced.join(", ")
        ));
    }
    marks.extend(line.overridden.iter().cloned());
    if marks.is_empty() {
        String::new()
    } else {
        format!("  [{}]", marks.join("; "))
    }
}

/// The catalog as a table, by category, with each part's key figures.
pub fn catalog(c: &Catalog) -> String {
    let mut o = String::new();
    for cat in Category::ALL {
        let parts: Vec<_> = c.in_category(cat).collect();
        if parts.is_empty() {
            continue;
        }
        let _ = writeln!(o, "{}", cat.label());
        for (id, p) in parts {
            let _ = writeln!(
                o,
                "  {:<16} {:<58} {}",
                id.as_str(),
                p.name,
                key_figures(&p.kind, p.power_w, p.price_usd)
            );
        }
        o.push('\n');
    }
    o
}

/// A part's key figures in one line.
pub fn key_figures(kind: &PartKind, power_w: f64, price: f64) -> String {
    let main = match kind {
        PartKind::Gpu(g) => format!(
            "{:.0} GB, {:.0} GB/s mem, NVLink {:.0} GB/s, {}",
            g.memory_gb, g.memory_bw_gbyte_s, g.nvlink_gbyte_s, g.pcie
        ),
        PartKind::Server(s) => format!(
            "{} GPU slots, {} NIC slots, {} PCIe switches",
            s.gpu_slots.len(),
            s.nic_slots.len(),
            s.pcie_switches.len()
        ),
        PartKind::Nic(n) => format!("{}x {:.0}G, {}", n.ports, n.port_gbps, n.host),
        PartKind::Switch(s) => format!("{}x {:.0}G, {:.0} ns", s.ports, s.port_gbps, s.latency_ns),
        PartKind::Storage(s) => format!(
            "{:.0} GB/s read, {:.0} TB, {}x {:.0}G",
            s.read_gbyte_s, s.capacity_tb, s.ports, s.port_gbps
        ),
        PartKind::Rack(r) => format!(
            "{}U, {:.1} kW default budget",
            r.units,
            r.power_budget_w / 1000.0
        ),
        PartKind::Cable(c) => format!(
            "{:?} {:.0}G, up to {:.0} m",
            c.protocol, c.gbps, c.max_length_m
        ),
        PartKind::Transceiver(t) => format!(
            "{:?} {:?} {}-port {:.0}G, {:?} to {:.0} m",
            t.protocol,
            t.form,
            t.ports,
            t.port_gbps(),
            t.fibre,
            t.reach_m
        ),
        PartKind::Pdu(p) => format!("{:.1} kW, {} outlets", p.capacity_w / 1000.0, p.outlets),
        PartKind::PatchPanel(p) => format!("{} ports", p.ports),
        PartKind::Cdu(k) => format!("CDU {:.0} kW, {:.0} L/min", k.capacity_kw, k.flow_l_min),
    };
    // A figure the part does not give (an imported part without power or price) reads "unknown", never 0 W or $0;
    // passive parts draw nothing.
    let passive = matches!(
        kind,
        PartKind::Rack(_) | PartKind::PatchPanel(_) | PartKind::Pdu(_)
    ) || matches!(kind, PartKind::Cable(c) if !c.optical);
    let power = if power_w > 0.0 || passive {
        format!("{power_w:.0} W")
    } else {
        "power unknown".into()
    };
    let price = if price > 0.0 {
        usd(price)
    } else {
        "price unknown".into()
    };
    format!("{main}; {power}; {price}")
}
