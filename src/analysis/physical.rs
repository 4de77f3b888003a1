//! The physical build of the cabling: transceivers counted by cage (a twin-port transceiver carries the two links
//! of its cage), cables and fibres by part and stock length, the optics' power and price, and the links that are
//! longer than their medium reaches (docs/analysis.md, "Cable lengths from the floor" and "Transceivers").

use super::finding::{Finding, FindingCode, Severity};
use super::format::round;
use crate::model::build::{Build, Cage, cage_of, cheapest_build};
use crate::model::part::{PartKind, PlugForm};
use crate::model::{Design, LinkId, PartId, PortRef};
use serde::Serialize;
use std::collections::BTreeMap;

/// The `physical` section of the report.
#[derive(Debug, Clone, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PhysicalReport {
    /// Transceivers by part: one per cage that holds an end of a fibre.
    pub transceivers: Vec<TransceiverLine>,
    /// Cables and fibres by part and ordered (stock) length.
    pub cables: Vec<CableLine>,
    /// Power of the transceivers and active cables, W.
    pub optics_power_w: f64,
    /// Price of the transceivers, cables and fibres, USD.
    pub optics_cost_usd: f64,
    /// Links longer than their cable, fibre or transceiver reaches.
    pub out_of_reach: usize,
    /// Links whose length is an estimate from the floor (not fixed by the user).
    pub estimated_links: usize,
    /// Links whose medium is chosen by reach (not pinned by the user).
    pub auto_cable_links: usize,
}

/// One transceiver part and how many the design needs.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TransceiverLine {
    /// The part id (a key of the design's `parts`).
    pub part: String,
    /// Its part number, when the part says.
    pub part_number: Option<String>,
    /// Plug form factor: "OSFP", "QSFP112", "QSFP-DD" or "QSFP56".
    pub form_factor: String,
    /// Links one transceiver carries: 1 (single-port) or 2 (twin-port).
    pub ports: u8,
    /// Transceivers needed (one per cage used).
    pub count: u64,
    /// Their power together, W (count x the part's maximum draw).
    pub power_w: f64,
}

/// One cable or fibre part at one ordered length.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CableLine {
    /// The part id.
    pub part: String,
    /// The length ordered (the part's stock length at or above the link's), m.
    pub length_m: f64,
    /// Cables of this part and length.
    pub count: u64,
}

/// A plug form factor as reports write it.
pub fn form_name(form: PlugForm) -> &'static str {
    crate::model::part::plug_name(form)
}

/// Every link's build and the transceivers of the cages they use, in one pass over the links.
pub struct Builds<'a> {
    /// Each link's id, in id order (its build: [`Builds::link_builds`]).
    links: Vec<LinkId>,
    /// Transceivers by part: one per cage that holds an end of a fibre (the first link's, by id).
    pub transceivers: BTreeMap<&'a PartId, u64>,
    /// Cages whose transceiver draws more than their power class, each by a port in it, with the class, W
    /// (docs/analysis.md, "Cages and breakouts"): a transceiver chosen there because none within the class reaches.
    pub over_class: Vec<(PortRef, f64)>,
    /// Each link's build by its number (in [`Builds::distinct`]), in the order of `links`.
    numbers: Vec<u32>,
    /// The distinct builds, by number: the links' figures are read per build, not per link.
    distinct: Vec<Build>,
    /// Links whose length is estimated from the floor.
    estimated: usize,
    /// Links whose medium is chosen by reach.
    auto_cable: usize,
}

/// One end of a distinct build, as [`builds`] counts it: the transceiver's part and whether it is within the
/// power class of the cage (the cage's shape is part of the build's key).
type EndPart<'a> = Option<(&'a PartId, bool)>;

/// The builds of a design. Cages are told apart by integers ([`cage_key`]), never named, and each distinct build's
/// transceivers are looked up once: a 128-SU SuperPOD has 235,000 link ends and a few hundred distinct builds.
pub fn builds(design: &Design) -> Builds<'_> {
    let n = design.links.len();
    let (mut links, mut numbers) = (Vec::with_capacity(n), Vec::with_capacity(n));
    // Transceivers counted by distinct build and end, summed by part at the end.
    let mut per_end: Vec<[u64; 2]> = Vec::new();
    let mut ends: Vec<[EndPart<'_>; 2]> = Vec::new();
    let mut distinct = Vec::new();
    let mut over_class = Vec::new();
    let (mut estimated, mut auto_cable) = (0, 0);
    let mut cache = crate::model::build::BuildCache::for_pass(design, None);
    let mut seen =
        crate::model::build::CagesSeen::new(cache.ends().map_or(0, |e| e.device_count()));
    for (id, l) in &design.links {
        estimated += usize::from(l.estimated_length);
        auto_cable += usize::from(l.auto_cable);
        let (b, number, at) = cache.numbered_build_of(design, l);
        let k = number as usize;
        if k == distinct.len() {
            distinct.push(Build::clone(&b));
            per_end.push([0, 0]);
            ends.push([0, 1].map(|i| {
                let t = b.ends[i].as_ref()?;
                let (part_id, part) = design.parts.get_key_value(t)?;
                Some((part_id, at[i]?.shape.within_class(part.power_w)))
            }));
        }
        for (i, port) in [&l.a, &l.b].into_iter().enumerate() {
            if b.ends[i].is_none() {
                continue;
            }
            let Some(end) = at[i] else {
                continue;
            };
            if !seen.insert(port.device, end.device, &end.place) {
                continue;
            }
            let Some((_, within)) = ends.get(k).and_then(|e| e[i]) else {
                continue;
            };
            if let Some(c) = per_end.get_mut(k) {
                c[i] += 1;
            }
            if !within {
                over_class.push((port.clone(), end.shape.power_class_w()));
            }
        }
        links.push(*id);
        numbers.push(number);
    }
    let mut transceivers: BTreeMap<&PartId, u64> = BTreeMap::new();
    for (e, counts) in ends.iter().zip(&per_end) {
        for (end, count) in e.iter().zip(counts) {
            if let (Some((part, _)), 1..) = (end, count) {
                *transceivers.entry(part).or_default() += count;
            }
        }
    }
    Builds {
        links,
        transceivers,
        over_class,
        numbers,
        distinct,
        estimated,
        auto_cable,
    }
}

impl Builds<'_> {
    /// Each link's id and build, in id order.
    pub fn link_builds(&self) -> impl Iterator<Item = (LinkId, &Build)> {
        self.links
            .iter()
            .zip(&self.numbers)
            .filter_map(|(id, n)| self.distinct.get(*n as usize).map(|b| (*id, b)))
    }
}

/// Transceivers by part: one per cage (see [`builds`]).
pub fn transceiver_counts<'b>(builds: &'b Builds<'_>) -> impl Iterator<Item = (&'b PartId, u64)> {
    builds.transceivers.iter().map(|(p, n)| (*p, *n))
}

/// The physical section and its findings.
pub fn analyze(design: &Design, builds: &Builds<'_>) -> (PhysicalReport, Vec<Finding>) {
    let mut report = PhysicalReport::default();
    for (part, count) in transceiver_counts(builds) {
        let Some(p) = design.parts.get(part) else {
            continue;
        };
        let PartKind::Transceiver(t) = &p.kind else {
            continue;
        };
        let count_f = count as f64;
        report.optics_power_w += p.power_w * count_f;
        report.optics_cost_usd += p.price_usd * count_f;
        report.transceivers.push(TransceiverLine {
            part: part.0.to_string(),
            part_number: p.part_number.clone(),
            form_factor: form_name(t.form).into(),
            ports: t.ports,
            count,
            power_w: round(p.power_w * count_f, 2),
        });
    }
    // Each distinct build's cable part, looked up once; the links are counted by build.
    let cable_parts: Vec<Option<&crate::model::part::Part>> = builds
        .distinct
        .iter()
        .map(|b| b.cable.as_ref().and_then(|c| design.parts.get(c)))
        .collect();
    let mut per_build = vec![0u64; builds.distinct.len()];
    // Links out of reach, with the message of each of the first four (all the finding lists).
    let mut short: Vec<(LinkId, Option<String>)> = Vec::new();
    for ((id, b), &n) in builds.link_builds().zip(&builds.numbers) {
        let n = n as usize;
        if let Some(count) = per_build.get_mut(n) {
            *count += 1;
        }
        // Summed link by link, in id order, as the report always has (the same figure to the last bit).
        if let Some(p) = cable_parts.get(n).copied().flatten() {
            report.optics_power_w += p.power_w;
            report.optics_cost_usd += p.price_usd;
        }
        if !b.reaches {
            let message = (short.len() < 4).then(|| reach_message(design, id, b));
            short.push((id, message));
        }
    }
    // Lengths are keyed in millimetres so that equal stock lengths group exactly.
    let mut cables: BTreeMap<(&PartId, i64), u64> = BTreeMap::new();
    for (b, count) in builds.distinct.iter().zip(per_build) {
        if let Some(c) = &b.cable
            && count > 0
        {
            *cables
                .entry((c, (b.ordered_m * 1000.0).round() as i64))
                .or_default() += count;
        }
    }
    report.cables = cables
        .into_iter()
        .map(|((part, mm), count)| CableLine {
            part: part.0.to_string(),
            length_m: mm as f64 / 1000.0,
            count,
        })
        .collect();
    report.out_of_reach = short.len();
    report.estimated_links = builds.estimated;
    report.auto_cable_links = builds.auto_cable;
    report.optics_power_w = round(report.optics_power_w, 2);
    report.optics_cost_usd = round(report.optics_cost_usd, 2);
    let mut findings = Vec::new();
    if let Some(f) = reach_finding(short) {
        findings.push(f);
    }
    if let Some(f) = cage_power_finding(design, builds) {
        findings.push(f);
    }
    if report.estimated_links > 0 {
        let mut f = Finding::new(
            Severity::Info,
            FindingCode::EstimatedLengths,
            format!(
                "{} estimated from the floor (rack places, units, tray, slack), not measured",
                super::format::count(report.estimated_links, "link length is", "link lengths are")
            ),
            "measure the runs on site and fix the lengths in the inspector before ordering",
        );
        f.links = design
            .links
            .iter()
            .filter(|(_, l)| l.estimated_length)
            .map(|(id, _)| *id)
            .take(64)
            .collect();
        findings.push(f);
    }
    (report, findings)
}

/// "link#12 (dgx-01 nic0/p1 - leaf-01 p1) is 8.4 m but ib-ndr-dac reaches 2 m; ib-ndr-mpo-mm (10 m) would reach".
fn reach_message(design: &Design, id: LinkId, b: &Build) -> String {
    let Some(l) = design.links.get(&id) else {
        return id.to_string();
    };
    let cable = b
        .cable
        .as_ref()
        .map_or_else(|| "its cable".to_string(), |c| format!("cable {c}"));
    let reach = b
        .cable
        .as_ref()
        .and_then(|c| design.parts.get(c))
        .and_then(|p| match &p.kind {
            PartKind::Cable(c) => Some(c.max_length_m),
            _ => None,
        });
    let what = match reach {
        Some(r) if l.length_m > r => format!("{cable} reaches {} m", metres(r)),
        Some(_) if b.ends.iter().any(Option::is_none) => {
            format!("{cable} has no transceiver of its rate that reaches at both ends")
        }
        Some(_) => format!("{cable} is not sold that long"),
        None => format!("{cable} does not reach"),
    };
    let next = match cheapest_build(design, l, l.length_m) {
        Some(n) => format!(
            "; {} ({} m) would reach",
            n.cable.as_ref().map_or("?", |c| c.0.as_str()),
            metres(n.ordered_m)
        ),
        None => "; no cable of its protocol and rate in the design reaches".into(),
    };
    format!(
        "{} is {} m but {what}{next}",
        design.describe_link(id),
        metres(l.length_m)
    )
}

/// A length for a message, to a tenth of a metre without a trailing ".0": 8.4, 10, 203.1 (an estimate out of
/// every cable's reach is not rounded to a stock length, and its float noise is not for reading).
fn metres(m: f64) -> String {
    let s = format!("{m:.1}");
    match s.strip_suffix(".0") {
        Some(whole) => whole.to_string(),
        None => s,
    }
}

/// One error listing the links out of reach (the link will not come up as drawn).
fn reach_finding(short: Vec<(LinkId, Option<String>)>) -> Option<Finding> {
    let (_, first) = short.first()?;
    let message = if short.len() == 1 {
        first.clone().unwrap_or_default()
    } else {
        let listed: Vec<&str> = short
            .iter()
            .take(4)
            .filter_map(|(_, m)| m.as_deref())
            .collect();
        let more = if short.len() > 4 { "; ..." } else { "" };
        format!(
            "{} links are longer than their cables reach: {}{more}",
            short.len(),
            listed.join("; ")
        )
    };
    let mut f = Finding::new(
        Severity::Error,
        FindingCode::CableReach,
        message,
        "shorten the link, or choose a cable that reaches (optics for runs past a few metres) in the inspector",
    );
    f.links = short.into_iter().map(|(id, _)| id).collect();
    Some(f)
}

/// One warning listing the cages whose transceiver draws more than the cage's power class (the switch may not power
/// or cool it): "cage p3 of leaf-01 holds osfp-x (19 W) in a 17 W cage".
fn cage_power_finding(design: &Design, builds: &Builds<'_>) -> Option<Finding> {
    let mut over: Vec<(Cage, f64, &PortRef)> = builds
        .over_class
        .iter()
        .filter_map(|(port, class)| Some((cage_of(design, port)?, *class, port)))
        .collect();
    if over.is_empty() {
        return None;
    }
    over.sort_by(|a, b| a.0.cmp(&b.0));
    // The transceiver in a cage is the one its first link (by id) takes there.
    let first = |cage: &Cage| {
        design.links.values().find_map(|l| {
            [&l.a, &l.b].into_iter().find_map(|end| {
                (cage_of(design, end).as_ref() == Some(cage))
                    .then(|| crate::model::build::build_of(design, l))
                    .and_then(|b| {
                        let i = usize::from(end == &l.b);
                        b.ends.get(i).cloned().flatten()
                    })
            })
        })
    };
    let say = |(cage, class, _): &(Cage, f64, &PortRef)| {
        let device = design
            .devices
            .get(&cage.device)
            .map_or_else(|| cage.device.to_string(), |d| d.name.clone());
        let t = first(cage);
        let w = t
            .as_ref()
            .and_then(|t| design.parts.get(t))
            .map_or(0.0, |p| p.power_w);
        format!(
            "cage {} of {device} holds {} ({w} W) in a {class} W cage",
            cage.name,
            t.as_ref().map_or("?", |t| t.0.as_str())
        )
    };
    let listed: Vec<String> = over.iter().take(4).map(say).collect();
    let n = over.len();
    let message = format!(
        "{} over {} power class: {}{}",
        super::format::count(n, "cage is", "cages are"),
        if n == 1 { "its" } else { "their" },
        listed.join("; "),
        if n > 4 { "; ..." } else { "" }
    );
    let mut f = Finding::new(
        Severity::Warning,
        FindingCode::CagePower,
        message,
        "use a transceiver within the cage's class (a shorter reach draws less), or a switch whose cages take it",
    );
    let mut devices: Vec<_> = over.iter().map(|(c, _, _)| c.device).collect();
    devices.sort();
    devices.dedup();
    f.devices = devices;
    Some(f)
}

#[cfg(test)]
mod tests {
    #[test]
    fn message_lengths_read_to_a_tenth_of_a_metre() {
        // An out-of-reach estimate keeps its float noise in the design; a message reads it rounded.
        assert_eq!(super::metres(203.106_989_999_999_7), "203.1");
        assert_eq!(super::metres(10.0), "10");
        assert_eq!(super::metres(8.4), "8.4");
        assert_eq!(super::metres(2.96), "3");
    }
}
