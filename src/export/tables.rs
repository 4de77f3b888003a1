//! The tables a finance lead and a field crew work from: the bill of materials and the cabling plan, as CSV
//! (RFC 4180 quoting by the `csv` crate), and the comparison of two designs.

use super::ExportError;
use crate::analysis::Report;
use crate::analysis::compare::Comparison;
use crate::model::{Design, Link, LinkId, PortRef};

fn write_err(format: &'static str) -> impl Fn(csv::Error) -> ExportError {
    move |e| ExportError::Write {
        format,
        message: e.to_string(),
    }
}

/// Writes one record, every field through [`super::escape::csv_field`]: names are neutralised against spreadsheet
/// formulas, numbers stay numbers.
fn record<'a>(
    w: &mut csv::Writer<Vec<u8>>,
    fields: impl IntoIterator<Item = &'a str>,
) -> csv::Result<()> {
    w.write_record(
        fields
            .into_iter()
            .map(super::escape::csv_field)
            .map(|f| f.into_owned()),
    )
}

fn finish(w: csv::Writer<Vec<u8>>, format: &'static str) -> Result<Vec<u8>, ExportError> {
    w.into_inner().map_err(|e| ExportError::Write {
        format,
        message: e.to_string(),
    })
}

/// Money with cents, no thousands separators (spreadsheets read it as a number).
fn usd(x: f64) -> String {
    format!("{x:.2}")
}

/// Header of the bill of materials.
pub const BOM_HEADER: [&str; 14] = [
    "part_id",
    "name",
    "vendor",
    "category",
    "quantity",
    "unit_price_usd",
    "extended_price_usd",
    "power_each_w",
    "price_source",
    "spares",
    "lead_time_weeks",
    "part_number",
    "overridden",
    "estimates_no_source",
];

/// The bill of materials: one row per part, quantities as the analysis counts them (racks, devices, the GPUs and
/// NICs in their slots, one cable part per link), spares by the design's policy beside them. The extended prices
/// ((quantity + spares) x unit) add up to the report's capex. A price without a source says "estimate"; the last
/// columns name the figures the design overrides and the figures that give no source (estimates).
pub fn bom_csv(design: &Design, report: &Report) -> Result<Vec<u8>, ExportError> {
    let err = write_err("bom-csv");
    let mut w = csv::Writer::from_writer(Vec::new());
    record(&mut w, BOM_HEADER).map_err(&err)?;
    for line in &report.cost.bom {
        let part = design.parts.get(&crate::model::PartId::new(&line.part));
        let vendor = part.map_or("", |p| p.vendor.as_str());
        let power = part.map_or(0.0, |p| p.power_w);
        record(
            &mut w,
            [
                line.part.as_str(),
                line.name.as_str(),
                vendor,
                line.category.as_str(),
                &line.quantity.to_string(),
                &usd(line.unit_usd),
                &usd(line.unit_usd * (line.quantity + line.spares) as f64),
                &format!("{power:.0}"),
                line.price_source.as_str(),
                &line.spares.to_string(),
                &line
                    .lead_time_weeks
                    .map_or(String::new(), |w| format!("{w}")),
                line.part_number.as_deref().unwrap_or(""),
                &line.overridden.join("; "),
                &line.unsourced.join("; "),
            ],
        )
        .map_err(&err)?;
    }
    finish(w, "bom-csv")
}

/// Header of the cabling plan. The columns after `cable_label` are extras; see docs/exports.md for how they map
/// to NVIDIA's cable-validation point-to-point layout.
pub const CABLING_HEADER: [&str; 14] = [
    "a_rack",
    "a_u",
    "a_device",
    "a_port",
    "z_rack",
    "z_u",
    "z_device",
    "z_port",
    "medium",
    "speed_gbps",
    "cable_part",
    "length_m",
    "cable_label",
    "link_id",
];

/// One end of a link as a crew finds it: rack name, U position, device name, port name.
pub(crate) fn link_end(design: &Design, port: &PortRef) -> [String; 4] {
    match design.devices.get(&port.device) {
        Some(d) => [
            design
                .racks
                .get(&d.rack)
                .map_or_else(String::new, |r| r.name.clone()),
            d.position_u.to_string(),
            d.name.clone(),
            port.port.to_string(),
        ],
        None => [
            String::new(),
            String::new(),
            port.device.to_string(),
            port.port.to_string(),
        ],
    }
}

/// A printable cable label, unique per link: both ends and the link number.
pub fn cable_label(design: &Design, id: LinkId, link: &Link) -> String {
    let short = |p: &PortRef| {
        let dev = design
            .devices
            .get(&p.device)
            .map_or_else(|| p.device.to_string(), |d| d.name.clone());
        format!("{dev}/{}", p.port)
    };
    format!("L{:05} {}<>{}", id.0, short(&link.a), short(&link.b))
}

/// Header of the pull list's first table: parts by part and ordered length.
pub const PULL_PARTS_HEADER: [&str; 5] = ["part", "part_number", "kind", "length_m", "count"];

/// Header of the pull list's schedule: one row per link.
pub const PULL_SCHEDULE_HEADER: [&str; 20] = [
    "link_id",
    "a_rack",
    "a_u",
    "a_device",
    "a_port",
    "a_cage",
    "a_transceiver",
    "z_rack",
    "z_u",
    "z_device",
    "z_port",
    "z_cage",
    "z_transceiver",
    "medium",
    "cable_part",
    "length_m",
    "length",
    "medium_choice",
    "reaches",
    "cable_label",
];

/// A part's part number, when the design's copy of the part states one (else empty).
pub fn part_number(design: &Design, part: &str) -> String {
    design
        .parts
        .get(&crate::model::PartId::new(part))
        .and_then(|p| p.part_number.clone())
        .unwrap_or_default()
}

/// One link of the pull list's schedule, as the CSV and the HTML report's cabling plan both give it.
pub struct ScheduleRow {
    /// The A end: rack, unit, device and port ([`link_end`]).
    pub a: [String; 4],
    /// The Z end, as `a`.
    pub z: [String; 4],
    /// The cage each end's transceiver sits in (its name; empty for a port of no device).
    pub cages: [String; 2],
    /// Each end's transceiver part, for a fibre.
    pub transceivers: [Option<String>; 2],
    /// The link's build: cable, ordered length and whether it reaches.
    pub build: crate::model::build::Build,
}

/// A link's schedule row, its build worked out through `builds` (one cache per pass over the links).
pub fn schedule_row(
    design: &Design,
    builds: &mut crate::model::build::BuildCache,
    link: &Link,
) -> ScheduleRow {
    let build = builds.build_of(design, link);
    let cage =
        |p: &PortRef| crate::model::build::cage_of(design, p).map_or_else(String::new, |c| c.name);
    ScheduleRow {
        a: link_end(design, &link.a),
        z: link_end(design, &link.b),
        cages: [cage(&link.a), cage(&link.b)],
        transceivers: build.ends.clone().map(|t| t.map(|t| t.0.into())),
        build,
    }
}

/// The pull list (docs/exports.md, "Pull list"): the transceivers, then cables and fibres by part and ordered
/// length, with counts; a blank line; then the schedule, one row per link with both ends' rack, unit, device,
/// port, cage and transceiver, the medium, the part, the ordered length and whether it is an estimate.
pub fn pull_list_csv(design: &Design, report: &Report) -> Result<Vec<u8>, ExportError> {
    let err = write_err("pull-list");
    let mut w = csv::Writer::from_writer(Vec::new());
    record(&mut w, PULL_PARTS_HEADER).map_err(&err)?;
    for t in &report.physical.transceivers {
        let kind = format!("{} {}-port transceiver", t.form_factor, t.ports);
        record(
            &mut w,
            [
                t.part.as_str(),
                t.part_number.as_deref().unwrap_or_default(),
                &kind,
                "",
                &t.count.to_string(),
            ],
        )
        .map_err(&err)?;
    }
    for c in &report.physical.cables {
        record(
            &mut w,
            [
                c.part.as_str(),
                &part_number(design, &c.part),
                "cable",
                &format!("{}", c.length_m),
                &c.count.to_string(),
            ],
        )
        .map_err(&err)?;
    }
    // The two tables, a blank line between them (each its own CSV, so each keeps its own column count).
    let mut out = finish(w, "pull-list")?;
    out.push(b'\n');
    let mut w = csv::Writer::from_writer(out);
    record(&mut w, PULL_SCHEDULE_HEADER).map_err(&err)?;
    let mut builds = crate::model::build::BuildCache::default();
    for (id, link) in &design.links {
        let ScheduleRow {
            a: [ar, au, ad, ap],
            z: [zr, zu, zd, zp],
            cages: [a_cage, z_cage],
            transceivers: [at, zt],
            build,
        } = schedule_row(design, &mut builds, link);
        let [at, zt] = [at, zt].map(Option::unwrap_or_default);
        record(
            &mut w,
            [
                id.0.to_string().as_str(),
                &ar,
                &au,
                &ad,
                &ap,
                &a_cage,
                &at,
                &zr,
                &zu,
                &zd,
                &zp,
                &z_cage,
                &zt,
                &link.medium.to_string(),
                link.cable.as_ref().map_or("", |c| c.as_str()),
                &format!("{}", build.ordered_m),
                if link.estimated_length {
                    "estimate"
                } else {
                    "fixed"
                },
                if link.auto_cable {
                    "by reach"
                } else {
                    "pinned"
                },
                if build.reaches { "yes" } else { "no" },
                &cable_label(design, *id, link),
            ],
        )
        .map_err(&err)?;
    }
    finish(w, "pull-list")
}

/// The cabling plan: one row per link, in link order.
pub fn cabling_csv(design: &Design) -> Result<Vec<u8>, ExportError> {
    let err = write_err("cabling-csv");
    let mut w = csv::Writer::from_writer(Vec::new());
    record(&mut w, CABLING_HEADER).map_err(&err)?;
    for (id, link) in &design.links {
        let [ar, au, ad, ap] = link_end(design, &link.a);
        let [zr, zu, zd, zp] = link_end(design, &link.b);
        let medium = link.medium.to_string();
        record(
            &mut w,
            [
                ar.as_str(),
                &au,
                &ad,
                &ap,
                &zr,
                &zu,
                &zd,
                &zp,
                &medium,
                &format!("{}", link.medium.gbps()),
                link.cable.as_ref().map_or("", |c| c.as_str()),
                &format!("{}", link.length_m),
                &cable_label(design, *id, link),
                &id.0.to_string(),
            ],
        )
        .map_err(&err)?;
    }
    finish(w, "cabling-csv")
}

/// The comparison as CSV: figure, unit, A, B, B - A, B / A, and which is better.
pub fn compare_csv(c: &Comparison) -> Result<Vec<u8>, ExportError> {
    let err = write_err("csv");
    let mut w = csv::Writer::from_writer(Vec::new());
    record(
        &mut w,
        [
            "figure",
            "unit",
            &c.a_label(),
            &c.b_label(),
            "difference",
            "ratio",
            "better",
        ],
    )
    .map_err(&err)?;
    for r in &c.rows {
        let better = r.better();
        record(
            &mut w,
            [
                r.figure.as_str(),
                r.unit.as_str(),
                &format!("{}", r.a),
                &format!("{}", r.b),
                &format!("{}", r.difference),
                &r.ratio.map_or(String::new(), |x| format!("{x:.4}")),
                better,
            ],
        )
        .map_err(&err)?;
    }
    record(
        &mut w,
        [
            "bottleneck",
            "",
            &c.bottleneck_a,
            &c.bottleneck_b,
            "",
            "",
            "",
        ],
    )
    .map_err(&err)?;
    for (figure, list, in_b) in [
        ("finding in B, not in A", &c.findings_added, true),
        ("finding in A, not in B", &c.findings_removed, false),
    ] {
        for f in list {
            let text = format!("{:?}: {}", f.severity, f.message);
            let (a, b) = if in_b {
                ("", text.as_str())
            } else {
                (text.as_str(), "")
            };
            record(&mut w, [figure, f.code.as_str(), a, b, "", "", ""]).map_err(&err)?;
        }
    }
    finish(w, "csv")
}

/// The difference between a design and its fabric as found (`racksmith diff-fabric --format csv`): one row per
/// difference, with the class, the design's link, both ends as the cabling plan names them, as designed and as found.
pub fn fabric_diff_csv(d: &crate::analysis::asbuilt::FabricDiff) -> Result<Vec<u8>, ExportError> {
    let err = write_err("csv");
    let mut w = csv::Writer::from_writer(Vec::new());
    record(&mut w, ["class", "link", "a", "b", "designed", "found"]).map_err(&err)?;
    for r in d.rows() {
        let link = r.link.map_or(String::new(), |l| l.0.to_string());
        record(
            &mut w,
            [r.class, link.as_str(), &r.a, &r.b, &r.designed, &r.found],
        )
        .map_err(&err)?;
    }
    w.into_inner().map_err(|e| ExportError::Write {
        format: "csv",
        message: e.to_string(),
    })
}
