//! The HTML review report: one self-contained file (inline CSS and SVG, no scripts, no external resources) that
//! opens offline in any browser and prints to PDF with a page break between sections. Written as well-formed XML
//! (polyglot HTML) so that tests can parse it.

use super::svg;
use super::{Options, charts, tables};
use crate::analysis::format::thousands;
use crate::analysis::{Finding, Report, Severity};
use crate::model::{Design, LinkId};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Links listed one by one in the report's cabling plan up to this many; above it, bundles are summarised and the
/// full plan is the `cabling-csv` export.
pub const CABLING_ROWS_MAX: usize = 1500;

/// The ids of the report's sections, in order. Tests check each is present.
pub const SECTIONS: [&str; 13] = [
    "summary",
    "findings",
    "racks",
    "fabric",
    "charts",
    "collectives",
    "facility",
    "bom",
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

fn cards(design: &Design, r: &Report) -> Vec<Card> {
    let s = &r.summary;
    let c = &r.cost;
    // A card is red or amber when an error or a warning concerns it: the app's table (docs/analysis.md,
    // "Headline and findings").
    use crate::analysis::findings::Headline;
    let class_of = |h: Headline, own: &'static str| -> &'static str {
        match crate::analysis::findings::concerning(&r.findings, h).first() {
            Some(f) if f.severity == Severity::Error => "bad",
            Some(_) if own != "bad" => "warn",
            _ => own,
        }
    };
    let network = r.bandwidth.patterns.iter().find(|p| p.id.is_gpu_network());
    let over_power = s.it_power_kw > s.power_budget_kw + 1e-9;
    let cheaper = c.owned_usd_per_gpu_hour > 0.0
        && c.cloud_usd_per_gpu_hour > 0.0
        && c.owned_usd_per_gpu_hour < c.cloud_usd_per_gpu_hour;
    vec![
        Card {
            key: "GPUs",
            value: thousands(s.gpus as f64, 0),
            sub: format!(
                "{}, {}, {}",
                crate::analysis::format::count(s.gpu_servers, "GPU server", "GPU servers"),
                crate::analysis::format::count(s.switches, "switch", "switches"),
                crate::analysis::format::count(s.racks, "rack", "racks")
            ),
            class: class_of(Headline::Gpus, ""),
        },
        Card {
            key: "Bisection",
            value: r.bandwidth.bisection.tbit_s_text(),
            sub: r.bandwidth.bisection.per_gpu_text(s.gpus),
            class: class_of(Headline::Bisection, ""),
        },
        Card {
            key: "Bottleneck",
            // The figures on the card, the part that limits them in full under it (never cut mid-sentence).
            value: network.map_or_else(
                || "no GPU network traffic".to_string(),
                |p| {
                    format!(
                        "{:.1} of {:.1} GB/s",
                        p.achieved_gbyte_s_per_gpu, p.demand_gbyte_s_per_gpu
                    )
                },
            ),
            sub: s.bottleneck.clone(),
            class: class_of(Headline::Bottleneck, ""),
        },
        Card {
            key: "p99 latency",
            value: format!("{:.2} µs", s.p99_latency_us),
            sub: "worst GPU-to-GPU path class".into(),
            class: class_of(Headline::Latency, ""),
        },
        Card {
            key: "All-reduce",
            value: format!("{:.2} ms", s.allreduce_ms),
            sub: format!(
                "{} of {} over {} GPUs",
                r.latency.allreduce.best,
                bytes(design.params.traffic.allreduce_bytes),
                r.latency.allreduce.ranks
            ),
            class: "",
        },
        Card {
            key: "IT power",
            value: format!("{:.1} kW", s.it_power_kw),
            sub: format!("budget {:.1} kW", s.power_budget_kw),
            class: class_of(Headline::Power, if over_power { "bad" } else { "ok" }),
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
            sub: format!("over {} years", c.years),
            class: "",
        },
        Card {
            key: "$/GPU-hour",
            value: format!("${:.2}", c.owned_usd_per_gpu_hour),
            sub: format!(
                "owned, against ${:.2} cloud; break-even {}",
                c.cloud_usd_per_gpu_hour,
                if c.break_even_months.is_finite() {
                    format!("{:.1} months", c.break_even_months)
                } else {
                    "never".into()
                }
            ),
            class: if cheaper { "ok" } else { "warn" },
        },
    ]
}

/// Bytes in words (1.0 GB).
fn bytes(b: f64) -> String {
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
    out.push_str("</section>\n");
}

fn figure(out: &mut String, svg: &str, caption: &str) {
    let _ = writeln!(
        out,
        "<figure>\n{svg}<figcaption>{}</figcaption></figure>",
        e(caption)
    );
}

/// Cooling per rack, the ways to get the GPUs (owned against cloud), and the sites with the service's availability.
fn facility_section(out: &mut String, r: &Report) {
    section_open(out, "facility", "Cooling, sites and the ways to pay");
    let c = &r.cooling;
    let _ = writeln!(
        out,
        "<p>Heat to remove: {:.1} kW on air, {:.1} kW on liquid ({:.0} L/min of coolant); facility overhead (cooling plant and conversion, IT x (PUE - 1)) {:.1} kW.</p>",
        c.air_kw, c.liquid_kw, c.coolant_l_min, c.overhead_kw
    );
    out.push_str("<table><thead><tr><th>Rack</th><th>Cooling</th><th class=\"n\">Heat</th><th class=\"n\">Air limit</th><th class=\"n\">Airflow</th><th class=\"n\">Coolant</th><th>Verdict</th></tr></thead><tbody>\n");
    for rc in &c.racks {
        let _ = writeln!(
            out,
            r#"<tr><td>{}</td><td>{:?}</td><td class="n">{:.1} kW</td><td class="n">{}</td><td class="n">{}</td><td class="n">{}</td><td>{}</td></tr>"#,
            e(&rc.name),
            rc.mode,
            rc.heat_kw,
            rc.air_limit_kw
                .map_or_else(|| "–".into(), |x| format!("{x:.0} kW")),
            rc.airflow_m3_h
                .map_or_else(|| "–".into(), |x| format!("{} m³/h", thousands(x, 0))),
            rc.coolant_l_min
                .map_or_else(|| "–".into(), |x| format!("{x:.0} L/min")),
            if rc.ok { "fits" } else { "too hot for air" }
        );
    }
    out.push_str("</tbody></table>\n<h3>Facility per site</h3>\n");
    out.push_str("<table><thead><tr><th>Site</th><th class=\"n\">Racks</th><th class=\"n\">IT</th><th class=\"n\">Air</th><th class=\"n\">Liquid</th><th class=\"n\">Cooling and overhead</th><th class=\"n\">Facility</th><th class=\"n\">PUE</th><th class=\"n\">Heat</th><th class=\"n\">Coolant</th><th class=\"n\">CDUs</th><th class=\"n\">$/kWh</th></tr></thead><tbody>\n");
    for f in &c.sites {
        let _ = writeln!(
            out,
            r#"<tr><td>{}</td><td class="n">{}</td><td class="n">{:.1} kW</td><td class="n">{:.1} kW</td><td class="n">{:.1} kW</td><td class="n">{:.1} kW</td><td class="n">{:.1} kW</td><td class="n">{}</td><td class="n">{} BTU/h</td><td class="n">{:.0} L/min</td><td class="n">{}</td><td class="n">{:.3}</td></tr>"#,
            e(f.label()),
            f.racks,
            f.it_kw,
            f.air_kw,
            f.liquid_kw,
            f.overhead_kw,
            f.facility_kw,
            f.pue,
            thousands(f.heat_btu_h, 0),
            f.coolant_l_min,
            if f.cdus == 0 {
                "–".to_string()
            } else {
                format!(
                    "{} ({:.0} kW, {:.0} L/min)",
                    f.cdus, f.cdu_capacity_kw, f.cdu_flow_l_min
                )
            },
            f.usd_per_kwh
        );
    }
    out.push_str("</tbody></table>\n");
    out.push_str(&super::charts::facility_chart(r));
    out.push_str("\n<h3>Owned against the cloud</h3>\n");
    out.push_str("<table><thead><tr><th>Option</th><th class=\"n\">Per GPU-hour used</th><th class=\"n\">Per year</th><th class=\"n\">First month</th><th class=\"n\">Per 1M requests</th><th class=\"n\">Per 1M tokens</th></tr></thead><tbody>\n");
    for o in &r.cost.options {
        let _ = writeln!(
            out,
            r#"<tr><td>{}</td><td class="n">${:.2}</td><td class="n">{}</td><td class="n">{}</td><td class="n">{}</td><td class="n">{}</td></tr>"#,
            e(&o.option),
            o.usd_per_used_gpu_hour,
            usd(o.usd_per_year),
            usd(o.monthly_usd.first().copied().unwrap_or(0.0)),
            o.usd_per_million_requests
                .map_or_else(|| "–".into(), |x| format!("${x:.2}")),
            o.usd_per_million_tokens
                .map_or_else(|| "–".into(), |x| format!("${x:.3}"))
        );
    }
    out.push_str("</tbody></table>\n");
    let s = &r.sites;
    if !s.sites.is_empty() {
        out.push_str("<h3>Sites</h3>\n<table><thead><tr><th>Site</th><th>Region</th><th class=\"n\">Availability</th><th class=\"n\">Racks</th><th class=\"n\">GPUs</th><th class=\"n\">Carries</th><th class=\"n\">Left if lost</th></tr></thead><tbody>\n");
        for site in &s.sites {
            let _ = writeln!(
                out,
                r#"<tr><td>{}</td><td>{}</td><td class="n">{:.4}%</td><td class="n">{}</td><td class="n">{}</td><td class="n">{}</td><td class="n">{}</td></tr>"#,
                e(&site.name),
                e(&site.region),
                site.availability * 100.0,
                site.racks,
                site.gpus,
                site.capacity_rps
                    .map_or_else(|| "–".into(), |x| format!("{x:.0} req/s")),
                site.capacity_without_rps
                    .map_or_else(|| "–".into(), |x| format!("{x:.0} req/s"))
            );
        }
        out.push_str("</tbody></table>\n");
        if let Some(a) = s.service_availability {
            let _ = writeln!(
                out,
                "<p>The service is available {:.4}% of the time{} (sites failing independently; it is up whenever the sites up carry the demand).</p>",
                a * 100.0,
                s.availability_target.map_or(String::new(), |t| format!(
                    " against a target of {:.4}%",
                    t * 100.0
                ))
            );
        }
    }
    out.push_str("</section>\n");
}

/// The price source of a BOM line, with the figures the design overrides and those that give no source.
fn bom_source_cell(l: &crate::analysis::cost::BomLine) -> String {
    let mut cell = e(&l.price_source);
    if !l.overridden.is_empty() {
        let _ = write!(
            cell,
            "<br><strong>overridden</strong>: {}",
            e(&l.overridden.join("; "))
        );
    }
    if !l.unsourced.is_empty() {
        let _ = write!(
            cell,
            "<br><strong>estimates</strong> (no source): {}",
            e(&l.unsourced.join(", "))
        );
    }
    cell
}

fn bom_section(out: &mut String, design: &Design, r: &Report) {
    section_open(out, "bom", "Bill of materials");
    out.push_str("<table><thead><tr><th>Part</th><th>Name</th><th>Vendor</th><th class=\"n\">Qty</th><th class=\"n\">Spares</th><th class=\"n\">Unit</th><th class=\"n\">Extended</th><th class=\"n\">Power each</th><th class=\"n\">Lead time</th><th>Price source</th></tr></thead><tbody>\n");
    let mut total = 0.0;
    for l in &r.cost.bom {
        let part = design.parts.get(&crate::model::PartId::new(&l.part));
        let extended = l.unit_usd * (l.quantity + l.spares) as f64;
        total += extended;
        let name = match &l.part_number {
            Some(pn) => format!("{} ({pn})", l.name),
            None => l.name.clone(),
        };
        let _ = writeln!(
            out,
            r#"<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td class="n">{}</td><td class="n">{}</td><td class="n">{}</td><td class="n">{}</td><td class="n">{} W</td><td class="n">{}</td><td>{}</td></tr>"#,
            e(&l.part),
            e(&name),
            e(part.map_or("", |p| p.vendor.as_str())),
            thousands(l.quantity as f64, 0),
            l.spares,
            usd(l.unit_usd),
            usd(extended),
            thousands(part.map_or(0.0, |p| p.power_w), 0),
            l.lead_time_weeks
                .map_or_else(|| "–".to_string(), |w| format!("{w} wk")),
            bom_source_cell(l)
        );
    }
    let _ = writeln!(
        out,
        r#"<tr class="total"><td colspan="6">Total (equals the capex)</td><td class="n">{}</td><td colspan="3"></td></tr></tbody></table>"#,
        usd(total)
    );
    if r.cost.unpriced_links > 0 {
        let _ = writeln!(
            out,
            "<p>{} no cable part and {} not priced.</p>",
            if r.cost.unpriced_links == 1 {
                "1 link has".to_string()
            } else {
                format!("{} links have", r.cost.unpriced_links)
            },
            if r.cost.unpriced_links == 1 {
                "is"
            } else {
                "are"
            }
        );
    }
    let pr = &r.cost.procurement;
    let _ = writeln!(
        out,
        "<p><strong>Earliest live:</strong> {}{}{}</p>",
        pr.earliest_live_weeks.map_or_else(
            || "no part in the BOM gives a lead time".to_string(),
            |w| format!(
                "{w} weeks after order, set by {}",
                e(&pr.limiting_parts.join(", "))
            )
        ),
        if pr.unknown_lead_time.is_empty() {
            String::new()
        } else {
            format!(
                "; no lead time recorded for {}",
                e(&pr.unknown_lead_time.join(", "))
            )
        },
        if pr.spares_usd > 0.0 {
            format!("; spares {} (in the capex)", usd(pr.spares_usd))
        } else {
            String::new()
        }
    );
    let _ = writeln!(out, "<p class=\"parts\">{}</p>", e(&r.cost.prices_note));
    out.push_str("</section>\n");
}

fn cabling_section(out: &mut String, design: &Design) {
    section_open(out, "cabling", "Cabling plan");
    let n = design.links.len();
    if n <= CABLING_ROWS_MAX {
        let _ = writeln!(
            out,
            "<p>{}, one row each; the same table is the <code>cabling-csv</code> export.</p>",
            crate::analysis::format::count(n, "link", "links")
        );
        out.push_str("<table><thead><tr><th>Label</th><th>A rack</th><th class=\"n\">A U</th><th>A device</th><th>A port</th><th>Z rack</th><th class=\"n\">Z U</th><th>Z device</th><th>Z port</th><th>Medium</th><th>Cable</th><th class=\"n\">Length</th></tr></thead><tbody>\n");
        for (id, l) in &design.links {
            let end = |p: &crate::model::PortRef| {
                design.devices.get(&p.device).map_or(
                    (String::new(), String::new(), p.device.to_string()),
                    |d| {
                        (
                            design
                                .racks
                                .get(&d.rack)
                                .map_or_else(String::new, |r| r.name.clone()),
                            d.position_u.to_string(),
                            d.name.clone(),
                        )
                    },
                )
            };
            let (ar, au, ad) = end(&l.a);
            let (zr, zu, zd) = end(&l.b);
            let _ = writeln!(
                out,
                r#"<tr><td><code>{}</code></td><td>{}</td><td class="n">{}</td><td>{}</td><td>{}</td><td>{}</td><td class="n">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class="n">{} m</td></tr>"#,
                e(&format!("L{:05}", id.0)),
                e(&ar),
                au,
                e(&ad),
                e(&l.a.port),
                e(&zr),
                zu,
                e(&zd),
                e(&l.b.port),
                e(&l.medium.to_string()),
                e(l.cable.as_ref().map_or("none", |c| c.as_str())),
                l.length_m
            );
        }
        out.push_str("</tbody></table>\n");
    } else {
        let _ = writeln!(
            out,
            "<p>{n} links: too many to list here, so they are summarised by the racks they join, medium and cable. The full plan, one row per link with printable labels, is the <code>cabling-csv</code> export (<code>racksmith export FILE --format cabling-csv</code>).</p>"
        );
        let mut bundles: BTreeMap<(String, String, String, String), (usize, f64)> = BTreeMap::new();
        let rack_of = |p: &crate::model::PortRef| {
            design
                .devices
                .get(&p.device)
                .and_then(|d| design.racks.get(&d.rack))
                .map_or_else(String::new, |r| r.name.clone())
        };
        for l in design.links.values() {
            let (a, b) = (rack_of(&l.a), rack_of(&l.b));
            let (a, b) = if a <= b { (a, b) } else { (b, a) };
            let k = (
                a,
                b,
                l.medium.to_string(),
                l.cable
                    .as_ref()
                    .map_or_else(|| "none".to_string(), |c| c.to_string()),
            );
            let v = bundles.entry(k).or_default();
            v.0 += 1;
            v.1 += l.length_m;
        }
        // Rack pairs with the same medium and cable are grouped further by their counts.
        out.push_str("<table><thead><tr><th>Between racks</th><th>Medium</th><th>Cable</th><th class=\"n\">Links</th><th class=\"n\">Total length</th></tr></thead><tbody>\n");
        let mut rows: BTreeMap<(String, String, usize), (Vec<String>, f64)> = BTreeMap::new();
        for ((a, b, m, c), (count, len)) in bundles {
            let v = rows.entry((m, c, count)).or_default();
            v.0.push(if a == b {
                format!("within {a}")
            } else {
                format!("{a}–{b}")
            });
            v.1 += len;
        }
        for ((m, c, count), (pairs, len)) in rows {
            let shown: Vec<&str> = pairs.iter().take(8).map(String::as_str).collect();
            let more = pairs.len().saturating_sub(shown.len());
            let _ = writeln!(
                out,
                r#"<tr><td>{}{}</td><td>{}</td><td>{}</td><td class="n">{} × {}</td><td class="n">{} m</td></tr>"#,
                e(&shown.join(", ")),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                },
                e(&m),
                e(&c),
                pairs.len(),
                count,
                thousands(len, 0)
            );
        }
        out.push_str("</tbody></table>\n");
    }
    out.push_str("</section>\n");
}

/// Flattens the parameters into dotted keys and values.
fn flatten(prefix: &str, v: &serde_json::Value, out: &mut Vec<(String, String)>) {
    match v {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&key, v, out);
            }
        }
        serde_json::Value::Null => out.push((prefix.to_string(), "not set".into())),
        other => out.push((prefix.to_string(), other.to_string())),
    }
}

fn parameters_section(out: &mut String, design: &Design, r: &Report) {
    section_open(out, "parameters", "Parameters and assumptions");
    out.push_str("<p>The figures above follow from the hardware in the design and these inputs. Every formula is in <code>docs/analysis.md</code> of the Racksmith repository; every catalog figure carries its source (see the bill of materials).</p>\n");
    let mut rows = Vec::new();
    if let Ok(v) = serde_json::to_value(&design.params) {
        flatten("", &v, &mut rows);
    }
    out.push_str("<table><thead><tr><th>Parameter</th><th>Value</th></tr></thead><tbody>\n");
    for (k, v) in rows {
        let _ = writeln!(
            out,
            "<tr><td><code>{}</code></td><td>{}</td></tr>",
            e(&k),
            e(&v)
        );
    }
    out.push_str("</tbody></table>\n<h3>Model notes</h3><ul>\n");
    for note in [
        format!("Bisection: {}", r.bandwidth.bisection.method),
        format!("Routing: {}", r.bandwidth.routing.method),
        format!("Latency: {}", r.latency.note),
        format!("Cloud price: {}", r.cost.cloud_price_source),
    ] {
        let _ = writeln!(out, "<li>{}</li>", e(&note));
    }
    out.push_str("</ul></section>\n");
}

fn notes_section(out: &mut String, design: &Design) {
    section_open(out, "notes", "Review notes");
    let mut any = false;
    if !design.notes.trim().is_empty() {
        any = true;
        let _ = writeln!(
            out,
            r#"<div class="note"><strong>Design:</strong> {}</div>"#,
            e(&design.notes)
        );
    }
    for r in design.racks.values().filter(|r| !r.notes.trim().is_empty()) {
        any = true;
        let _ = writeln!(
            out,
            r#"<div class="note"><strong>Rack {}:</strong> {}</div>"#,
            e(&r.name),
            e(&r.notes)
        );
    }
    for d in design
        .devices
        .values()
        .filter(|d| !d.notes.trim().is_empty())
    {
        any = true;
        let rack = design.racks.get(&d.rack).map_or("", |r| r.name.as_str());
        let _ = writeln!(
            out,
            r#"<div class="note"><strong>Device {} (rack {}, U{}):</strong> {}</div>"#,
            e(&d.name),
            e(rack),
            d.position_u,
            e(&d.notes)
        );
    }
    for (id, l) in design
        .links
        .iter()
        .filter(|(_, l)| !l.notes.trim().is_empty())
    {
        any = true;
        let _ = writeln!(
            out,
            r#"<div class="note"><strong>Link {}:</strong> {}</div>"#,
            e(&tables::cable_label(design, *id, l)),
            e(&l.notes)
        );
    }
    if !any {
        out.push_str("<p>No review notes. In Racksmith, select a rack, device or link and write a note in the inspector; notes are saved in the design file, listed here and marked with an amber badge on the drawings.</p>\n");
    }
    out.push_str("</section>\n");
}

/// The design's planning scenarios side by side (each analysed on a copy of the design with its settings), values
/// that differ from the first scenario's highlighted.
fn scenarios_section(out: &mut String, design: &Design) {
    use crate::analysis::scenarios;
    section_open(out, "scenarios", "Planning scenarios");
    out.push_str("<p>Each scenario is the design analysed with its planning settings (saved in Racksmith's View &gt; Planning). Values that differ from the first scenario's are highlighted.</p>\n");
    // GPU models a scenario names are usually in the design's parts already (a swap keeps the old part's spec);
    // the built-in catalog supplies any other.
    let catalog = crate::catalog::Catalog::builtin().unwrap_or_default();
    let results = scenarios::evaluate_all(design, &catalog, &design.scenarios);
    out.push_str("<table><thead><tr><th></th>");
    for r in &results {
        let _ = write!(out, "<th class=\"n\">{}</th>", e(&r.scenario.name));
    }
    out.push_str("</tr></thead><tbody>\n");
    for row in scenarios::table(&results) {
        let label = if row.setting {
            e(&row.label)
        } else {
            format!("<strong>{}</strong>", e(&row.label))
        };
        let _ = write!(out, "<tr><td>{label}</td>");
        for (v, differs) in row.values.iter().zip(&row.differs) {
            let style = if *differs {
                " style=\"background: #fff7d6; font-weight: bold;\""
            } else {
                ""
            };
            let _ = write!(out, "<td class=\"n\"{style}>{}</td>", e(v));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table>\n");
    for r in &results {
        if let Err(why) = &r.headline {
            let _ = writeln!(
                out,
                "<p class=\"note\">{}: {}</p>",
                e(&r.scenario.name),
                e(why)
            );
        }
    }
    out.push_str("</section>\n");
}

const READING: &str = r#"<ul>
<li><strong>Bisection</strong>: the least bandwidth across any cut that splits the GPUs into two equal halves; the method is stated on the card.</li>
<li><strong>Bottleneck</strong>: the part that limits each GPU's traffic to other servers (PCIe hop, NIC, or switch uplinks).</li>
<li><strong>Latency</strong>: a small message between two GPUs by path class (same server, same leaf, across the spine), with queueing at the planned utilisation; p99 means 99 of 100 messages arrive sooner.</li>
<li><strong>All-reduce</strong>: time to sum the design's gradient size across all GPUs with the best of ring, tree and hierarchical algorithms (alpha-beta model).</li>
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
        "<header><h1>{}</h1><div class=\"meta\">Racksmith review report{} · Racksmith {} · design file hash <code>{hash}</code></div></header>",
        e(&design.name),
        options
            .date
            .as_ref()
            .map_or(String::new(), |d| format!(" · {}", e(d))),
        env!("CARGO_PKG_VERSION")
    );
    section_open(&mut out, "summary", "Summary");
    if !design.notes.trim().is_empty() {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", e(&design.notes));
    }
    out.push_str("<div class=\"cards\">\n");
    for c in cards(design, r) {
        card_html(&mut out, &c);
    }
    out.push_str("</div>\n</section>\n");
    findings_section(&mut out, design, r);
    section_open(&mut out, "racks", "Rack elevations");
    figure(
        &mut out,
        &svg::racks_svg(design, r),
        "Front elevations: U numbers on both rails, devices labelled, kW used against the rack's budget and U free under each rack.",
    );
    out.push_str("</section>\n");
    section_open(&mut out, "fabric", "Fabric");
    let pattern = super::pattern_index(r, options.pattern.as_deref())?;
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
    let _ = writeln!(
        out,
        "<p>Written by Racksmith {} from the design file whose SHA-256 begins <code>{hash}</code>. Open the same file in Racksmith to change the design; <code>racksmith export FILE --format html</code> writes this report again.</p>",
        env!("CARGO_PKG_VERSION")
    );
    out.push_str("</section>\n</body>\n</html>\n");
    Ok(out)
}

/// Collectives as NCCL runs them: NCCL's pick per collective at the design's size and the expected
/// `all_reduce_perf` sweep (the `nccl-expect` export has every collective).
fn collectives_section(out: &mut String, r: &Report) {
    section_open(out, "collectives", "Collectives as NCCL runs them");
    let Some(n) = &r.latency.nccl else {
        out.push_str(
            "<p>The design has fewer than two GPUs: no collective to run.</p></section>\n",
        );
        return;
    };
    let s = &n.shape;
    let _ = writeln!(
        out,
        "<p>NCCL's tuning model on the drawn design: {} ranks on {}, {} {:.1} GB/s per GPU per direction \
         inside a node, rails {:.1} GB/s per node{}{}. Estimates, not measurements; the model and its check against \
         published measurements are in docs/analysis.md and docs/validation.md.</p>",
        s.ranks,
        crate::analysis::format::count(s.nodes, "node", "nodes"),
        if s.nvlink { "NVLink" } else { "PCIe" },
        s.intra_line_gbyte_s,
        s.net_line_gbyte_s_per_node,
        if s.nvls { ", NVLink SHARP (NVLS)" } else { "" },
        if s.sharp {
            ", InfiniBand SHARP (CollNet, when enabled)"
        } else {
            ""
        },
    );
    out.push_str("<table><thead><tr><th>Collective</th><th class=\"n\">Size</th><th>NCCL's pick</th><th class=\"n\">Time</th><th class=\"n\">algbw</th><th class=\"n\">busbw</th></tr></thead><tbody>\n");
    for c in &n.collectives {
        let Some(e) = c.picked.and_then(|i| c.estimates.get(i)) else {
            continue;
        };
        let _ = writeln!(
            out,
            r#"<tr><td>{}</td><td class="n">{}</td><td>{}/{}</td><td class="n">{} us</td><td class="n">{:.2} GB/s</td><td class="n">{:.2} GB/s</td></tr>"#,
            c.collective.name(),
            bytes(c.bytes),
            e.algorithm.name(),
            e.protocol.name(),
            thousands(e.time_us, 2),
            e.algbw_gbyte_s,
            e.busbw_gbyte_s
        );
    }
    out.push_str("</tbody></table>\n<h3>Expected all_reduce_perf -b 8 -e 16G -f 2</h3>\n");
    out.push_str("<table><thead><tr><th class=\"n\">Size</th><th>Algorithm</th><th class=\"n\">Time (us)</th><th class=\"n\">algbw (GB/s)</th><th class=\"n\">busbw (GB/s)</th></tr></thead><tbody>\n");
    for row in &n.allreduce_sweep {
        let _ = writeln!(
            out,
            r#"<tr><td class="n">{} B</td><td>{}/{}</td><td class="n">{}</td><td class="n">{:.2}</td><td class="n">{:.2}</td></tr>"#,
            thousands(row.bytes, 0),
            row.algorithm.name(),
            row.protocol.name(),
            thousands(row.time_us, 2),
            row.algbw_gbyte_s,
            row.busbw_gbyte_s
        );
    }
    out.push_str("</tbody></table>\n</section>\n");
}

fn section_table_patterns(out: &mut String, r: &Report) {
    let routing = &r.bandwidth.routing;
    if routing.patterns.is_empty() {
        return;
    }
    out.push_str("<table><thead><tr><th>Traffic pattern</th><th class=\"n\">Offered</th><th class=\"n\">Unroutable</th><th class=\"n\">Hottest link load</th></tr></thead><tbody>\n");
    for p in &routing.patterns {
        let _ = writeln!(
            out,
            r#"<tr><td>{}</td><td class="n">{} Gb/s</td><td class="n">{} Gb/s</td><td class="n">{:.0}%</td></tr>"#,
            e(&p.pattern),
            thousands(p.offered_gbps, 0),
            thousands(p.unroutable_gbps, 0),
            p.hottest_utilisation * 100.0
        );
    }
    out.push_str("</tbody></table>\n");
}

/// The comparison of two designs in the report's style.
pub fn compare(
    a: (&Design, &Report),
    b: (&Design, &Report),
    c: &crate::analysis::compare::Comparison,
    options: &Options,
) -> String {
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n");
    let _ = writeln!(
        out,
        "<title>{} against {} — Racksmith comparison</title>\n<style>{CSS}</style>\n</head>\n<body>",
        e(&c.a),
        e(&c.b)
    );
    let _ = writeln!(
        out,
        "<header><h1>{} against {}</h1><div class=\"meta\">Racksmith comparison{} · Racksmith {}</div></header>",
        e(&c.a),
        e(&c.b),
        options
            .date
            .as_ref()
            .map_or(String::new(), |d| format!(" · {}", e(d))),
        env!("CARGO_PKG_VERSION")
    );
    section_open(&mut out, "figures", "Figures side by side");
    let _ = writeln!(
        out,
        "<table><thead><tr><th>Figure</th><th class=\"n\">A: {}</th><th class=\"n\">B: {}</th><th class=\"n\">B − A</th><th class=\"n\">B / A</th><th>Better</th></tr></thead><tbody>",
        e(&c.a),
        e(&c.b)
    );
    for row in &c.rows {
        let better = tables::better(row);
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
    for (label, (design, report)) in [("A", a), ("B", b)] {
        let _ = writeln!(
            out,
            r#"<section id="design-{}"><h2>{label}: {}</h2><div class="cards">"#,
            label.to_lowercase(),
            e(&design.name)
        );
        for card in cards(design, report) {
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
