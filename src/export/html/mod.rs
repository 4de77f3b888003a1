//! The HTML review report: one self-contained file (inline CSS and SVG, no scripts, no external resources) that
//! opens offline in any browser and prints to PDF with a page break between sections. Written as well-formed XML
//! (polyglot HTML) so that tests can parse it.

use super::svg;
use super::{Options, charts, tables};
use crate::analysis::bandwidth::pattern_figures;
use crate::analysis::format::thousands;
use crate::analysis::pattern::Pattern;
use crate::analysis::{Finding, Report, Severity};
use crate::model::{Design, LinkId};
use std::fmt::Write as _;

mod sections;
use sections::*;

/// The ids of the report's sections, in order. Tests check each is present.
pub const SECTIONS: [&str; 14] = [
    "summary",
    "findings",
    "racks",
    "fabric",
    "charts",
    "collectives",
    "facility",
    "bom",
    "physical",
    "cabling",
    "parameters",
    "notes",
    "reading",
    "about",
];

const CSS: &str = r#"
:root { --ink: #1a1a1a; --muted: #555; --line: #d9dde3; --accent: #2f5f9e; --bad: #b3261e; --warn: #8a5a00; --ok: #2b7a4b; }
* { box-sizing: border-box; }
body { font-family: Ubuntu, "DejaVu Sans", Arial, sans-serif; color: var(--ink); margin: 0 auto; max-width: 1180px; padding: 24px 32px 64px; line-height: 1.45; background: #fff; }
header h1 { margin: 0 0 4px; font-size: 28px; }
header .meta { color: var(--muted); font-size: 13px; }
h2 { border-bottom: 2px solid var(--accent); padding-bottom: 4px; margin-top: 36px; font-size: 21px; }
h3 { font-size: 16px; margin: 18px 0 6px; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 10px; }
.card { border: 1px solid var(--line); border-left: 5px solid var(--accent); border-radius: 6px; padding: 8px 12px; }
.card.bad { border-left-color: var(--bad); }
tr.bad td, p.bad { color: var(--bad); }
.card.warn { border-left-color: #d99a00; }
.card.ok { border-left-color: var(--ok); }
.card .k { font-size: 12px; color: var(--muted); text-transform: uppercase; letter-spacing: 0.04em; }
.card .v { font-size: 22px; font-weight: bold; }
.card .v.long { font-size: 15px; }
.card .s { font-size: 12px; color: var(--muted); }
table { border-collapse: collapse; width: 100%; font-size: 12.5px; margin: 8px 0; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 6px; text-align: left; vertical-align: top; }
th { background: #f1f3f6; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.total td { font-weight: bold; border-top: 2px solid var(--ink); }
.finding { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; margin: 8px 0; }
.sev { display: inline-block; font-size: 11px; font-weight: bold; padding: 1px 6px; border-radius: 4px; color: #fff; margin-right: 6px; }
.sev.error { background: var(--bad); } .sev.warning { background: #a86b00; } .sev.info { background: var(--accent); }
.parts, .fix { font-size: 13px; color: var(--muted); }
.fix strong { color: var(--ink); }
figure { margin: 10px 0; }
figure svg { max-width: 100%; height: auto; border: 1px solid var(--line); }
figcaption { font-size: 12px; color: var(--muted); }
.note { background: #fff7d6; border-left: 4px solid #f2b705; padding: 6px 10px; margin: 6px 0; }
code { font-family: Hack, "DejaVu Sans Mono", monospace; font-size: 12px; }
@page { size: A4 landscape; margin: 12mm; }
@media print {
  body { max-width: none; padding: 0; }
  section { break-before: page; page-break-before: always; }
  section#summary { break-before: auto; page-break-before: auto; }
  .finding, tr, figure, .card { break-inside: avoid; page-break-inside: avoid; }
  h2 { break-after: avoid; page-break-after: avoid; }
}
"#;

/// Dollars with thousands separators.
pub fn usd(v: f64) -> String {
    if v.abs() >= 100.0 {
        format!("${}", thousands(v, 0))
    } else {
        format!("${}", thousands(v, 2))
    }
}

/// Text from the design or the report in HTML: the format's one escaping function.
fn e(text: &str) -> String {
    super::escape::html(text).into_owned()
}

struct Card {
    key: &'static str,
    value: String,
    sub: String,
    class: &'static str,
}

fn card_html(out: &mut String, c: &Card) {
    let long = if c.value.chars().count() > 16 {
        " long"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        r#"<div class="card {}"><div class="k">{}</div><div class="v{long}">{}</div><div class="s">{}</div></div>"#,
        c.class,
        c.key,
        e(&c.value),
        e(&c.sub)
    );
}

/// A card's class: red or amber when an error or a warning concerns it, else its own (the app's table,
/// docs/analysis.md, "Headline and findings").
fn class_of(r: &Report, h: crate::analysis::findings::Headline, own: &'static str) -> &'static str {
    match crate::analysis::findings::concerning(&r.findings, h).first() {
        Some(f) if f.severity == Severity::Error => "bad",
        Some(_) if own != "bad" => "warn",
        _ => own,
    }
}

/// The headline cards: the GPUs, the network's figures between GPUs, then power and money.
fn cards(design: &Design, r: &Report, pattern: Option<Pattern>) -> Vec<Card> {
    let s = &r.summary;
    let mut out = vec![Card {
        key: "GPUs",
        value: if s.gpus == 0 {
            "no GPUs".to_string()
        } else {
            thousands(s.gpus as f64, 0)
        },
        sub: format!(
            "{}, {}, {}",
            crate::analysis::format::count(s.gpu_servers, "GPU server", "GPU servers"),
            crate::analysis::format::count(s.switches, "switch", "switches"),
            crate::analysis::format::count(s.racks, "rack", "racks")
        ),
        class: class_of(r, crate::analysis::findings::Headline::Gpus, ""),
    }];
    out.extend(network_cards(design, r, pattern));
    out.extend(power_and_cost_cards(r));
    out
}

/// The Bottleneck card's figure and the part that limits it. With a `pattern` (the app's toolbar pattern an export
/// from the app carries), that pattern's figures, as the app's card gives them; without one, the first GPU network
/// pattern's.
fn bottleneck_figure(r: &Report, pattern: Option<Pattern>) -> (String, String) {
    match pattern {
        Some(p) => pattern_figures(&r.bandwidth, p).map_or_else(
            || (format!("no {} traffic", p.label()), p.label().to_string()),
            |f| {
                (
                    format!("{:.1} of {:.1} GB/s", f.achieved_gbyte_s, f.demand_gbyte_s),
                    format!("{}: {}", f.name, f.limiter),
                )
            },
        ),
        None => (
            r.bandwidth
                .patterns
                .iter()
                .find(|p| p.id.is_gpu_network())
                .map_or_else(
                    || "no GPU network traffic".to_string(),
                    |p| {
                        format!(
                            "{:.1} of {:.1} GB/s",
                            p.achieved_gbyte_s_per_gpu, p.demand_gbyte_s_per_gpu
                        )
                    },
                ),
            r.summary.bottleneck.clone(),
        ),
    }
}

/// The figures between GPUs: bisection, bottleneck, p99 latency and all-reduce. As the app's cards, a design whose
/// GPUs cannot reach each other (or that has none) says so instead of a figure, in red when they are not connected.
fn network_cards(design: &Design, r: &Report, pattern: Option<Pattern>) -> [Card; 4] {
    use crate::analysis::findings::Headline;
    let s = &r.summary;
    let unconnected = s
        .gpu_network
        .instead_of_figure()
        .map(|word| (word.to_string(), s.gpu_network.why(s.gpu_islands)));
    let gpu_figure = |figure: (String, String)| unconnected.clone().unwrap_or(figure);
    let not_connected = s.gpu_network == crate::analysis::GpuNetwork::NotConnected;
    let class_gpu = |h: Headline| {
        if not_connected {
            "bad"
        } else {
            class_of(r, h, "")
        }
    };
    let bisection = gpu_figure((
        r.bandwidth.bisection.tbit_s_text(),
        r.bandwidth
            .bisection
            .per_gpu_text(s.gpus, r.bandwidth.full_bisection_gbps()),
    ));
    let bottleneck = gpu_figure(bottleneck_figure(r, pattern));
    let p99 = gpu_figure((
        format!("{:.2} µs", s.p99_latency_us),
        "worst GPU-to-GPU path class".into(),
    ));
    let allreduce = gpu_figure((
        format!("{:.2} ms", s.allreduce_ms),
        format!(
            "{} of {} over {} GPUs",
            r.latency.allreduce.best,
            bytes(design.params.traffic.allreduce_bytes),
            r.latency.allreduce.ranks
        ),
    ));
    [
        Card {
            key: "Bisection",
            value: bisection.0,
            sub: bisection.1,
            class: class_gpu(Headline::Bisection),
        },
        Card {
            key: "Bottleneck",
            // The figures on the card, the part that limits them in full under it (never cut mid-sentence).
            value: bottleneck.0,
            sub: bottleneck.1,
            class: class_gpu(Headline::Bottleneck),
        },
        Card {
            key: "p99 latency",
            value: p99.0,
            sub: p99.1,
            class: class_gpu(Headline::Latency),
        },
        Card {
            key: "All-reduce",
            value: allreduce.0,
            sub: allreduce.1,
            class: if not_connected { "bad" } else { "" },
        },
    ]
}

/// Power against the budget, and the money: capex, TCO and the owned GPU-hour against the cloud's.
fn power_and_cost_cards(r: &Report) -> [Card; 5] {
    let (s, c) = (&r.summary, &r.cost);
    let over_power = s.it_power_kw > s.power_budget_kw + 1e-9;
    let cheaper = c.owned_usd_per_gpu_hour > 0.0
        && c.cloud_usd_per_gpu_hour > 0.0
        && c.owned_usd_per_gpu_hour < c.cloud_usd_per_gpu_hour;
    [
        Card {
            key: "IT power",
            value: format!("{:.1} kW", s.it_power_kw),
            sub: format!("budget {:.1} kW", s.power_budget_kw),
            class: class_of(
                r,
                crate::analysis::findings::Headline::Power,
                if over_power { "bad" } else { "ok" },
            ),
        },
        Card {
            key: "Facility power",
            value: format!("{:.1} kW", r.power.facility_power_w / 1000.0),
            sub: format!("PUE {}", r.power.pue),
            class: "",
        },
        Card {
            key: "Capex",
            value: usd(c.capex_usd),
            sub: format!("opex {}/yr", usd(c.opex_usd_per_year)),
            class: "",
        },
        Card {
            key: "TCO",
            value: usd(c.tco_usd),
            sub: format!("over {} years{}", c.years, c.support_note()),
            class: "",
        },
        Card {
            key: "$/GPU-hour",
            value: if s.gpus == 0 {
                "no GPUs".to_string()
            } else {
                format!("${:.2}", c.owned_usd_per_gpu_hour)
            },
            sub: format!(
                "owned, against ${:.2} cloud; break-even {}",
                c.cloud_usd_per_gpu_hour,
                if c.break_even_months.is_finite() {
                    format!("{:.1} months", c.break_even_months)
                } else {
                    "never".into()
                }
            ),
            class: if s.gpus == 0 {
                ""
            } else if cheaper {
                "ok"
            } else {
                "warn"
            },
        },
    ]
}

/// Bytes in words (1.0 GB).
pub(super) fn bytes(b: f64) -> String {
    if b >= 1e9 {
        format!("{:.1} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.1} MB", b / 1e6)
    } else if b >= 1e3 {
        format!("{:.1} kB", b / 1e3)
    } else {
        format!("{b:.0} B")
    }
}

fn link_label(design: &Design, id: LinkId) -> String {
    design.links.get(&id).map_or_else(
        || format!("link {}", id.0),
        |l| tables::cable_label(design, id, l),
    )
}

fn finding_html(out: &mut String, design: &Design, f: &Finding) {
    let sev = match f.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    };
    let _ = write!(
        out,
        r#"<div class="finding"><span class="sev {sev}">{}</span><strong>{}</strong> <code>{}</code>"#,
        sev.to_uppercase(),
        e(&f.message),
        e(f.code.as_str())
    );
    let mut parts: Vec<String> = Vec::new();
    let names: Vec<&str> = f
        .devices
        .iter()
        .filter_map(|d| design.devices.get(d).map(|d| d.name.as_str()))
        .collect();
    if !names.is_empty() {
        parts.push(format!("devices {}", super::hostlist::compress(&names)));
    }
    let racks: Vec<&str> = f
        .racks
        .iter()
        .filter_map(|r| design.racks.get(r).map(|r| r.name.as_str()))
        .collect();
    if !racks.is_empty() {
        parts.push(format!("racks {}", super::hostlist::compress(&racks)));
    }
    if !f.links.is_empty() {
        let shown: Vec<String> = f
            .links
            .iter()
            .take(6)
            .map(|l| link_label(design, *l))
            .collect();
        let more = f.links.len().saturating_sub(shown.len());
        parts.push(format!(
            "links {}{}",
            shown.join("; "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        ));
    }
    if !parts.is_empty() {
        let _ = write!(
            out,
            r#"<div class="parts">Concerns: {}</div>"#,
            e(&parts.join(" | "))
        );
    }
    if !f.fix.is_empty() {
        let _ = write!(
            out,
            r#"<div class="fix"><strong>Fix:</strong> {}</div>"#,
            e(&f.fix)
        );
    }
    out.push_str("</div>\n");
}

fn section_open(out: &mut String, id: &str, title: &str) {
    let _ = writeln!(out, r#"<section id="{id}"><h2>{}</h2>"#, e(title));
}

fn findings_section(out: &mut String, design: &Design, r: &Report) {
    section_open(out, "findings", "Findings");
    let s = &r.summary;
    let _ = writeln!(
        out,
        "<p>{}, {}, {}. Each names the parts it is about and a fix.</p>",
        crate::analysis::format::count(s.errors, "error", "errors"),
        crate::analysis::format::count(s.warnings, "warning", "warnings"),
        crate::analysis::format::count(s.infos, "note", "notes")
    );
    for (sev, title) in [
        (Severity::Error, "Errors"),
        (Severity::Warning, "Warnings"),
        (Severity::Info, "Notes"),
    ] {
        let list: Vec<&Finding> = r.findings.iter().filter(|f| f.severity == sev).collect();
        if list.is_empty() {
            continue;
        }
        let _ = writeln!(out, "<h3>{title} ({})</h3>", list.len());
        for f in list {
            finding_html(out, design, f);
        }
    }
    if r.findings.is_empty() {
        out.push_str("<p>No findings: nothing in the design needs attention.</p>\n");
    }
    single_failures_html(out, design, r);
    out.push_str("</section>\n");
}

fn figure(out: &mut String, svg: &str, caption: &str) {
    let _ = writeln!(
        out,
        "<figure>\n{svg}<figcaption>{}</figcaption></figure>",
        e(caption)
    );
}

/// The report's "How to read this report" list.
const READING: &str = r#"<ul>
<li><strong>Bisection</strong>: the least bandwidth across any cut that splits the GPUs into two equal halves; the method is stated on the card.</li>
<li><strong>Bottleneck</strong>: the part that limits each GPU's traffic to other servers (PCIe hop, NIC, or switch uplinks).</li>
<li><strong>Latency</strong>: a small message between two GPUs by path class (same server, same leaf, across the spine), with queueing at the planned utilisation; p99 means 99 of 100 messages arrive sooner.</li>
<li><strong>All-reduce</strong>: time to sum the design's gradient size across all GPUs with the algorithm and protocol NCCL's own tuning model picks (ring, tree, NVLS, NVLS-tree or CollNet; the card names it), or, when no GPUs share a network, the fastest textbook form (ring, tree or hierarchical, alpha-beta model).</li>
<li><strong>Power</strong>: maximum draw per rack against its budget; facility power is IT power times PUE.</li>
<li><strong>Cost</strong>: capex is the bill of materials; TCO adds opex over the depreciation period less resale; $/GPU-hour divides the yearly cost by the GPU-hours used at the planned utilisation.</li>
<li><strong>Drawings</strong>: racks from the front with U numbers; the fabric by tier with each bundle of cables coloured by the share of its capacity the chosen traffic pattern loads. An amber "!" marks a review note.</li>
</ul>"#;

/// The whole report.
pub fn report(
    design: &Design,
    r: &Report,
    options: &Options,
    hash: &str,
) -> Result<String, super::ExportError> {
    let mut out = String::with_capacity(64 * 1024 + design.links.len() * 200);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n");
    let _ = writeln!(
        out,
        "<title>{} — Racksmith review report</title>\n<style>{CSS}</style>\n</head>\n<body>",
        e(&design.name)
    );
    let _ = writeln!(
        out,
        "<header><h1>{}</h1><div class=\"meta\">Racksmith review report{} · Racksmith {} · {} <code>{hash}</code></div></header>",
        e(&design.name),
        options
            .date
            .as_ref()
            .map_or(String::new(), |d| format!(" · {}", e(d))),
        env!("CARGO_PKG_VERSION"),
        if options.unsaved {
            "<strong>unsaved design</strong>, hash as it would be saved"
        } else {
            "design file hash"
        }
    );
    section_open(&mut out, "summary", "Summary");
    if !design.notes.trim().is_empty() {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", e(&design.notes));
    }
    out.push_str("<div class=\"cards\">\n");
    for c in cards(design, r, options.pattern) {
        card_html(&mut out, &c);
    }
    out.push_str("</div>\n");
    job_table(&mut out, design, r);
    out.push_str("</section>\n");
    findings_section(&mut out, design, r);
    section_open(&mut out, "racks", "Rack elevations");
    figure(
        &mut out,
        &svg::racks_svg(design, r),
        "Front elevations: U numbers on both rails, devices labelled, kW used against the rack's budget and U free under each rack.",
    );
    out.push_str("</section>\n");
    section_open(&mut out, "fabric", "Fabric");
    let pattern = super::pattern_index(r, options.pattern)?;
    figure(
        &mut out,
        &svg::fabric_svg(design, r, pattern),
        "The cabled fabric by tier. Hover a line for its cable count, capacity and routed load.",
    );
    section_table_patterns(&mut out, r);
    out.push_str("</section>\n");
    section_open(&mut out, "charts", "Charts");
    for chart in [
        charts::power_chart(r),
        charts::cost_chart(r),
        charts::allreduce_chart(r),
        charts::latency_chart(r),
    ] {
        figure(&mut out, &chart, "");
    }
    out.push_str("</section>\n");
    collectives_section(&mut out, r);
    facility_section(&mut out, r);
    bom_section(&mut out, design, r);
    physical_section(&mut out, design, r);
    cabling_section(&mut out, design);
    parameters_section(&mut out, design, r);
    if !design.scenarios.is_empty() {
        scenarios_section(&mut out, design);
    }
    notes_section(&mut out, design);
    section_open(&mut out, "reading", "How to read this report");
    out.push_str(READING);
    out.push_str("\n</section>\n");
    section_open(&mut out, "about", "About");
    if options.unsaved {
        let _ = writeln!(
            out,
            "<p>Written by Racksmith {} from unsaved work: no file held this design when the report was made. <code>{hash}</code> begins the SHA-256 of the design as Racksmith would save it; once saved unchanged, the file has that hash, and <code>racksmith export FILE --format html</code> writes this report again.</p>",
            env!("CARGO_PKG_VERSION")
        );
    } else {
        let _ = writeln!(
            out,
            "<p>Written by Racksmith {} from the design file whose SHA-256 begins <code>{hash}</code>. Open the same file in Racksmith to change the design; <code>racksmith export FILE --format html</code> writes this report again.</p>",
            env!("CARGO_PKG_VERSION")
        );
    }
    out.push_str("</section>\n</body>\n</html>\n");
    Ok(out)
}

/// The comparison of two designs in the report's style.
pub fn compare(
    a: (&Design, &Report),
    b: (&Design, &Report),
    c: &crate::analysis::compare::Comparison,
    options: &Options,
) -> String {
    let mut out = String::new();
    let heading = format!("{} against {}", c.a_label(), c.b_label());
    page_start(&mut out, &heading, "Racksmith comparison", options);
    section_open(&mut out, "figures", "Figures side by side");
    let _ = writeln!(
        out,
        "<table><thead><tr><th>Figure</th><th class=\"n\">A: {}</th><th class=\"n\">B: {}</th><th class=\"n\">B − A</th><th class=\"n\">B / A</th><th>Better</th></tr></thead><tbody>",
        e(&c.a_label()),
        e(&c.b_label())
    );
    for row in &c.rows {
        let better = row.better();
        let _ = writeln!(
            out,
            r#"<tr><td>{} ({})</td><td class="n">{}</td><td class="n">{}</td><td class="n">{}</td><td class="n">{}</td><td>{better}</td></tr>"#,
            e(&row.figure),
            e(&row.unit),
            thousands(row.a, 2),
            thousands(row.b, 2),
            thousands(row.difference, 2),
            row.ratio
                .map_or_else(|| "–".to_string(), |x| format!("{x:.2}×"))
        );
    }
    let _ = writeln!(
        out,
        "<tr><td>Bottleneck</td><td>{}</td><td>{}</td><td colspan=\"3\"></td></tr></tbody></table>",
        e(&c.bottleneck_a),
        e(&c.bottleneck_b)
    );
    out.push_str("</section>\n");
    section_open(&mut out, "changes", "Findings that differ");
    if c.findings_added.is_empty() && c.findings_removed.is_empty() {
        out.push_str("<p>Both designs have the same errors and warnings.</p>\n");
    }
    for (title, list) in [
        ("In B, not in A", &c.findings_added),
        ("In A, not in B", &c.findings_removed),
    ] {
        if list.is_empty() {
            continue;
        }
        let _ = writeln!(out, "<h3>{title}</h3><ul>");
        for f in list {
            let _ = writeln!(
                out,
                "<li><strong>{:?}</strong> <code>{}</code> {}</li>",
                f.severity,
                e(f.code.as_str()),
                e(&f.message)
            );
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</section>\n");
    for (label, (design, report)) in [("A", a), ("B", b)] {
        let _ = writeln!(
            out,
            r#"<section id="design-{}"><h2>{label}: {}</h2><div class="cards">"#,
            label.to_lowercase(),
            e(&design.name)
        );
        for card in cards(design, report, None) {
            card_html(&mut out, &card);
        }
        out.push_str("</div>\n");
        for f in report
            .findings
            .iter()
            .filter(|f| f.severity != Severity::Info)
        {
            finding_html(&mut out, design, f);
        }
        out.push_str("</section>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// The start of a page in the report's style, up to its header: `heading` as the title and the h1 (escaped), and
/// `kind`, the date and the version under it.
fn page_start(out: &mut String, heading: &str, kind: &str, options: &Options) {
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n");
    let _ = writeln!(
        out,
        "<title>{} — {}</title>\n<style>{CSS}</style>\n</head>\n<body>",
        e(heading),
        e(kind)
    );
    let _ = writeln!(
        out,
        "<header><h1>{}</h1><div class=\"meta\">{}{} · Racksmith {}</div></header>",
        e(heading),
        e(kind),
        options
            .date
            .as_ref()
            .map_or(String::new(), |d| format!(" · {}", e(d))),
        env!("CARGO_PKG_VERSION")
    );
}

/// The difference between a design and its fabric as found, in the report's style: the counts, then one table
/// row per difference (class, link, both ends, as designed, as found).
pub fn fabric_diff(
    design: &Design,
    d: &crate::analysis::asbuilt::FabricDiff,
    options: &Options,
) -> String {
    let mut out = String::new();
    let heading = format!("{} as built against as designed", design.name);
    page_start(&mut out, &heading, "Racksmith fabric diff", options);
    section_open(&mut out, "summary", "Summary");
    let _ = writeln!(out, "<p>{}.</p>", e(&d.summary()));
    out.push_str("</section>\n");
    section_open(&mut out, "differences", "Differences");
    out.push_str("<table><thead><tr><th>Class</th><th class=\"n\">Link</th><th>End A</th><th>End B</th><th>As designed</th><th>As found</th></tr></thead><tbody>\n");
    for r in d.rows() {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"n\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            e(r.class),
            r.link.map_or(String::new(), |l| l.0.to_string()),
            e(&r.a),
            e(&r.b),
            e(&r.designed),
            e(&r.found)
        );
    }
    out.push_str("</tbody></table>\n</section>\n</body>\n</html>\n");
    out
}
