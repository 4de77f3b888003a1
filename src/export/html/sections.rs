//! The HTML report's longer sections: facility (power, cooling, sites), bill of materials, cabling plan,
//! parameters, review notes, scenarios and collectives. Each writes one `<section>` through the report's escaping
//! (`e`) and helpers.

use super::{bytes, e, section_open, usd};
use crate::analysis::Report;
use crate::analysis::format::thousands;
use crate::export::tables;
use crate::model::Design;
use std::fmt::Write as _;

/// Cooling per rack, the ways to get the GPUs (owned against cloud), and the sites with the service's availability.
pub(super) fn facility_section(out: &mut String, r: &Report) {
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
                site.replicas.zip(site.capacity_rps).map_or_else(
                    || "–".into(),
                    |(n, x)| format!("{n} replicas, {x:.0} req/s")
                ),
                site.replicas_without
                    .zip(site.capacity_without_rps)
                    .map_or_else(
                        || "–".into(),
                        |(n, x)| format!("{n} replicas, {x:.0} req/s")
                    )
            );
        }
        out.push_str("</tbody></table>\n");
        if s.demand_rps.is_some() {
            let _ = writeln!(out, "<p>{}</p>", e(crate::analysis::sites::FRONT_END));
        }
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
pub(super) fn bom_source_cell(l: &crate::analysis::cost::BomLine) -> String {
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

pub(super) fn bom_section(out: &mut String, design: &Design, r: &Report) {
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

pub(super) fn physical_section(out: &mut String, design: &Design, r: &Report) {
    section_open(out, "physical", "Physical build: optics, fibres and cables");
    let p = &r.physical;
    let _ = writeln!(
        out,
        "<p>What to order for the cabling: transceivers by part (one per cage that holds an end of a fibre; a twin-port transceiver carries both links of its cage), then cables and fibres by part and ordered (stock) length. The optics draw {} and cost {}. Of the {}, {} a length estimated from the floor and {} a medium chosen by reach. The same tables open the <code>pull-list</code> export; lengths follow docs/analysis.md, \"Cable lengths from the floor\".</p>",
        watts_text(p.optics_power_w),
        usd(p.optics_cost_usd),
        crate::analysis::format::count(design.links.len(), "link", "links"),
        if p.estimated_links == 1 {
            "1 has".to_string()
        } else {
            format!("{} have", thousands(p.estimated_links as f64, 0))
        },
        thousands(p.auto_cable_links as f64, 0),
    );
    if p.out_of_reach > 0 {
        let _ = writeln!(
            out,
            r#"<p class="bad">{} longer than {} medium reaches: see the findings and the rows marked "out of reach" below.</p>"#,
            crate::analysis::format::count(p.out_of_reach, "link is", "links are"),
            if p.out_of_reach == 1 { "its" } else { "their" }
        );
    }
    out.push_str("<h3>Transceivers</h3>\n<table><thead><tr><th>Part</th><th>Part number</th><th>Form factor</th><th class=\"n\">Links each</th><th class=\"n\">Count</th><th class=\"n\">Power</th></tr></thead><tbody>\n");
    for t in &p.transceivers {
        let _ = writeln!(
            out,
            r#"<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td class="n">{}</td><td class="n">{}</td><td class="n">{} W</td></tr>"#,
            e(&t.part),
            e(t.part_number.as_deref().unwrap_or_default()),
            e(&t.form_factor),
            t.ports,
            thousands(t.count as f64, 0),
            thousands(t.power_w, 0),
        );
    }
    if p.transceivers.is_empty() {
        out.push_str(
            "<tr><td colspan=\"6\">No fibres: every link is copper or names no cable.</td></tr>\n",
        );
    }
    out.push_str("</tbody></table>\n<h3>Cables and fibres by length</h3>\n<table><thead><tr><th>Part</th><th>Part number</th><th class=\"n\">Length</th><th class=\"n\">Count</th></tr></thead><tbody>\n");
    for c in &p.cables {
        let _ = writeln!(
            out,
            r#"<tr><td><code>{}</code></td><td>{}</td><td class="n">{} m</td><td class="n">{}</td></tr>"#,
            e(&c.part),
            e(&tables::part_number(design, &c.part)),
            c.length_m,
            thousands(c.count as f64, 0),
        );
    }
    out.push_str("</tbody></table>\n</section>\n");
}

/// Watts as the report writes them (kW past 10 kW).
fn watts_text(w: f64) -> String {
    if w >= 10_000.0 {
        format!("{} kW", thousands(w / 1000.0, 1))
    } else {
        format!("{} W", thousands(w, 0))
    }
}

/// A port and, when its transceiver's cage is named otherwise (a twin-port cage's second port), the cage.
fn port_and_cage(port: &str, cage: &str) -> String {
    if cage.is_empty() || cage == port {
        port.to_string()
    } else {
        format!("{port} (cage {cage})")
    }
}

pub(super) fn cabling_section(out: &mut String, design: &Design) {
    section_open(out, "cabling", "Cabling plan and pull list");
    let n = design.links.len();
    // Every link, one row each, whatever the count: the installers cable from this list.
    let _ = writeln!(
        out,
        "<p>{}, one row each: from (rack, U, device, port and its cage), to, the medium, the cable part and each end's transceiver, and the length it is ordered at (\"est.\": estimated from the floor; else fixed by the user). The same rows are the <code>pull-list</code> export's schedule and, without cages and transceivers, the <code>cabling-csv</code> export.</p>",
        crate::analysis::format::count(n, "link", "links")
    );
    out.push_str("<table><thead><tr><th>Label</th><th>A rack</th><th class=\"n\">A U</th><th>A device</th><th>A port</th><th>Z rack</th><th class=\"n\">Z U</th><th>Z device</th><th>Z port</th><th>Medium</th><th>Cable</th><th>Transceivers</th><th class=\"n\">Length</th></tr></thead><tbody>\n");
    let mut builds = crate::model::build::BuildCache::default();
    for (id, l) in &design.links {
        let tables::ScheduleRow {
            a: [ar, au, ad, ap],
            z: [zr, zu, zd, zp],
            cages: [a_cage, z_cage],
            transceivers,
            build,
        } = tables::schedule_row(design, &mut builds, l);
        let optics = match transceivers {
            [None, None] => String::new(),
            [a, z] => format!(
                "{} / {}",
                a.as_deref().unwrap_or("none"),
                z.as_deref().unwrap_or("none")
            ),
        };
        let length = format!(
            "{} m{}{}",
            build.ordered_m,
            if l.estimated_length { " est." } else { "" },
            if build.reaches { "" } else { ", out of reach" }
        );
        let _ = writeln!(
            out,
            r#"<tr{}><td><code>{}</code></td><td>{}</td><td class="n">{}</td><td>{}</td><td>{}</td><td>{}</td><td class="n">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class="n">{}</td></tr>"#,
            if build.reaches { "" } else { r#" class="bad""# },
            e(&format!("L{:05}", id.0)),
            e(&ar),
            au,
            e(&ad),
            e(&port_and_cage(&ap, &a_cage)),
            e(&zr),
            zu,
            e(&zd),
            e(&port_and_cage(&zp, &z_cage)),
            e(&l.medium.to_string()),
            e(l.cable.as_ref().map_or("none", |c| c.as_str())),
            e(&optics),
            e(&length),
        );
    }
    out.push_str("</tbody></table>\n");
    out.push_str("</section>\n");
}

/// Flattens the parameters into dotted keys and values.
pub(super) fn flatten(prefix: &str, v: &serde_json::Value, out: &mut Vec<(String, String)>) {
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

pub(super) fn parameters_section(out: &mut String, design: &Design, r: &Report) {
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

pub(super) fn notes_section(out: &mut String, design: &Design) {
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

/// Most planning scenarios the HTML report analyses and compares (each is a full analysis of the design).
pub(super) const REPORT_SCENARIOS: usize = 16;

/// The design's planning scenarios side by side (each analysed on a copy of the design with its settings), values
/// that differ from the first scenario's highlighted.
pub(super) fn scenarios_section(out: &mut String, design: &Design) {
    use crate::analysis::scenarios;
    section_open(out, "scenarios", "Planning scenarios");
    out.push_str("<p>Each scenario is the design analysed with its planning settings (saved in Racksmith's View &gt; Planning). Values that differ from the first scenario's are highlighted.</p>\n");
    // GPU models a scenario names are usually in the design's parts already (a swap keeps the old part's spec);
    // the built-in catalog supplies any other.
    let catalog = crate::catalog::Catalog::builtin().unwrap_or_default();
    // Each scenario is a full analysis: the report compares the first few, and says so.
    let shown = design.scenarios.len().min(REPORT_SCENARIOS);
    let results = crate::templates::planning::evaluate_all(
        design,
        &catalog,
        design.scenarios.get(..shown).unwrap_or_default(),
    );
    if design.scenarios.len() > shown {
        let _ = writeln!(
            out,
            "<p class=\"note\">The design has {} scenarios; the report compares the first {REPORT_SCENARIOS} \
             (each is a full analysis; docs/limits.md). Racksmith's View &gt; Planning compares any of them.</p>",
            design.scenarios.len()
        );
    }
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

/// Collectives as NCCL runs them: NCCL's pick per collective at the design's size and the expected
/// `all_reduce_perf` sweep (the `nccl-expect` export has every collective).
pub(super) fn collectives_section(out: &mut String, r: &Report) {
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
         published measurements are in docs/analysis.md and docs/validation.md. Each band is the range published \
         measurements of the same class span around the expected value.</p>",
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
    out.push_str("<table><thead><tr><th>Collective</th><th class=\"n\">Size</th><th>NCCL's pick</th><th class=\"n\">Time</th><th class=\"n\">algbw</th><th class=\"n\">busbw</th><th class=\"n\">busbw band</th></tr></thead><tbody>\n");
    for c in &n.collectives {
        let Some(e) = c.picked.and_then(|i| c.estimates.get(i)) else {
            continue;
        };
        let _ = writeln!(
            out,
            r#"<tr><td>{}</td><td class="n">{}</td><td>{}/{}</td><td class="n">{} us</td><td class="n">{:.2} GB/s</td><td class="n">{:.2} GB/s</td><td class="n">{:.2}-{:.2} GB/s</td></tr>"#,
            c.collective.name(),
            bytes(c.bytes),
            e.algorithm.name(),
            e.protocol.name(),
            thousands(e.time_us, 2),
            e.algbw_gbyte_s,
            e.busbw_gbyte_s,
            e.band.busbw_low,
            e.band.busbw_high
        );
    }
    out.push_str("</tbody></table>\n");
    if !n.point_to_point.is_empty() {
        out.push_str("<h3>Send/receive between two GPUs (sendrecv_perf)</h3>\n<table><thead><tr><th>Path</th><th class=\"n\">Large send</th><th class=\"n\">Band</th><th class=\"n\">8 B send</th><th class=\"n\">Band</th></tr></thead><tbody>\n");
        for f in &n.point_to_point {
            let _ = writeln!(
                out,
                r#"<tr><td>{}</td><td class="n">{:.1} GB/s</td><td class="n">{:.1}-{:.1} GB/s</td><td class="n">{:.1} us</td><td class="n">{:.1}-{:.1} us</td></tr>"#,
                f.path.name(),
                f.bandwidth_gbyte_s,
                f.bandwidth_low,
                f.bandwidth_high,
                f.latency_us,
                f.latency_low_us,
                f.latency_high_us
            );
        }
        out.push_str("</tbody></table>\n");
    }
    out.push_str("<h3>Expected all_reduce_perf -b 8 -e 16G -f 2</h3>\n");
    out.push_str("<table><thead><tr><th class=\"n\">Size</th><th>Algorithm</th><th class=\"n\">Time (us)</th><th class=\"n\">algbw (GB/s)</th><th class=\"n\">busbw (GB/s)</th><th class=\"n\">busbw band (GB/s)</th></tr></thead><tbody>\n");
    for row in &n.allreduce_sweep {
        let _ = writeln!(
            out,
            r#"<tr><td class="n">{} B</td><td>{}/{}</td><td class="n">{}</td><td class="n">{:.2}</td><td class="n">{:.2}</td><td class="n">{:.2}-{:.2}</td></tr>"#,
            thousands(row.bytes, 0),
            row.algorithm.name(),
            row.protocol.name(),
            thousands(row.time_us, 2),
            row.algbw_gbyte_s,
            row.busbw_gbyte_s,
            row.busbw_low,
            row.busbw_high
        );
    }
    out.push_str("</tbody></table>\n</section>\n");
}

pub(super) fn section_table_patterns(out: &mut String, r: &Report) {
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

/// The job the design runs, as the analysis pane's "Job" section shows it (`analysis::job::job_lines`): the
/// training days line by line and the job's cost, the service's capacity, what a sized design was sized for.
pub(super) fn job_table(out: &mut String, design: &Design, r: &crate::analysis::Report) {
    let lines = crate::analysis::job::job_lines(design, r);
    if lines.is_empty() {
        return;
    }
    out.push_str("<h3>Job</h3>\n<table class=\"job\"><tbody>\n");
    for (k, v) in &lines {
        let _ = writeln!(out, "<tr><th>{}</th><td>{}</td></tr>", e(k), e(v));
    }
    out.push_str("</tbody></table>\n");
    if let Some(rel) = &r.reliability {
        out.push_str("<h3>Failures and checkpoints</h3>\n<table class=\"job\"><tbody>\n");
        for (k, v) in crate::analysis::reliability::lines(rel) {
            let _ = writeln!(out, "<tr><th>{}</th><td>{}</td></tr>", e(&k), e(&v));
        }
        out.push_str("</tbody></table>\n");
    }
}

/// The single failures ranked by impact (the report's one-pass ranking, as the Availability card and `racksmith
/// whatif` rank them): each class of parts, what its loss costs, before -> after.
pub(super) fn single_failures_html(out: &mut String, design: &Design, r: &Report) {
    // A report made without the ranking is ranked here: the export shows what the app's card shows.
    let ranked;
    let sf = match &r.single_failures {
        Some(sf) => sf,
        None => {
            let mut copy = r.clone();
            crate::analysis::with_single_failures(design, &mut copy);
            ranked = copy.single_failures.unwrap_or_default();
            &ranked
        }
    };
    out.push_str("<h3>Single failures by impact</h3>\n");
    if sf.worst.is_empty() {
        let _ = writeln!(
            out,
            "<p>No single switch, cable, storage appliance or rack feed loses anything ({} parts ranked).</p>",
            sf.candidates
        );
        return;
    }
    let _ = writeln!(
        out,
        "<p>{} parts ranked by what their loss costs (GPUs cut off, GPUs cut off from storage, replicas, network per \
         GPU, bisection, storage per GPU, in that order); {} lose something{}. Figures are the one-pass estimate \
         (<code>racksmith whatif</code> analyses the worst in full).</p>",
        sf.candidates,
        crate::analysis::format::count(sf.classes, "class", "classes"),
        if sf.classes > sf.worst.len() {
            format!(", the worst {} shown", sf.worst.len())
        } else {
            String::new()
        }
    );
    out.push_str("<table><thead><tr><th>#</th><th>Part</th><th>Costs</th><th class=\"n\">GPUs reachable</th><th class=\"n\">Bisection, Gb/s</th><th class=\"n\">Network per GPU, GB/s</th><th class=\"n\">Reaching storage</th></tr></thead><tbody>\n");
    for (k, i) in sf.worst.iter().enumerate() {
        let who = if i.alike.is_empty() {
            i.what.clone()
        } else {
            format!("{} and {} more like it", i.what, i.alike.len())
        };
        let _ = writeln!(
            out,
            r#"<tr><td>{}</td><td>{}</td><td>{}</td><td class="n">{} → {}</td><td class="n">{:.0} → {:.0}</td><td class="n">{:.1} → {:.1}</td><td class="n">{} → {}</td></tr>"#,
            k + 1,
            e(&who),
            e(&i.cost_in_words()),
            i.gpus_reachable.0,
            i.gpus_reachable.1,
            i.bisection_gbps.0,
            i.bisection_gbps.1,
            i.inter_node_gbyte_s.0,
            i.inter_node_gbyte_s.1,
            i.gpus_reaching_storage.0,
            i.gpus_reaching_storage.1
        );
    }
    out.push_str("</tbody></table>\n");
}
