//! The rules of cages and breakouts (docs/analysis.md, "Cages and breakouts"), in one place: the loader
//! (`io::validate`) and the editor (`io::device_problems`, `io::link_problems`) both ask these functions, so what
//! the editor lets a user make the loader opens again. A switch's ports sit in cages (`ports_per_cage`); each port
//! runs one of its part's breakouts (as 1, 2, 4 ... logical ports at its rate divided as many times), the ports of a
//! cage run one mode, and the switch runs no more logical ports than its part's cap. A splitter cable's legs run at
//! its rate, and a fibre pinned on a link needs at each end a transceiver that fits the cage and its power class.

use super::build::{CageShape, cage_shape, transceiver_for};
use super::part::{PartKind, PlugForm, SwitchSpec};
use super::{Design, Device, Link, LinkId, PartId, PortRef};

/// A port mode as "2x200G": the logical ports and the rate of each, Gb/s.
pub fn mode_name(ports: u32, gbps: f64) -> String {
    format!("{ports}x{gbps}G")
}

/// The cage mode of `split` on a switch: its ports per cage times the split, at the port rate divided by the split
/// (QM9700 native "2x400G", split 2 "4x200G"; SN5600 split 2 "2x400G").
fn cage_mode(s: &SwitchSpec, split: u8) -> String {
    let split = split.max(1);
    mode_name(
        u32::from(s.ports_per_cage.max(1)) * u32::from(split),
        s.port_gbps / f64::from(split),
    )
}

/// The logical ports a switch device runs on its ports: each port's split summed (a native port counts 1).
pub fn logical_ports(s: &SwitchSpec, device: &Device) -> u32 {
    (1..=s.ports)
        .map(|n| u32::from(device.breakout.split_of(n)))
        .sum()
}

/// What is wrong with a device's breakout, each in a sentence naming the device: a breakout on a part without
/// modes, a mode its part does not run, a port it does not have, two modes in one cage, more logical ports than its
/// part runs. Empty for a device in its native mode.
pub fn breakout_problems(design: &Design, device: &Device) -> Vec<String> {
    let b = &device.breakout;
    if b.is_native() {
        return Vec::new();
    }
    let name = &device.name;
    let part = &device.part;
    let Some(PartKind::Switch(s)) = design.parts.get(part).map(|p| &p.kind) else {
        return vec![format!(
            "device {name} declares a breakout, but its part {part} is not a switch with breakout modes"
        )];
    };
    let mut out = Vec::new();
    let modes: Vec<String> = std::iter::once(1)
        .chain(s.breakouts.iter().copied().filter(|k| *k > 1))
        .map(|k| cage_mode(s, k))
        .collect();
    let runs = |k: u8| k <= 1 || s.breakouts.contains(&k);
    let mut asked: Vec<(Option<u16>, u8)> = vec![(None, b.split)];
    asked.extend(b.ports.iter().map(|(n, k)| (Some(*n), *k)));
    for (port, k) in asked {
        let at = port.map_or_else(|| "its ports".to_string(), |n| format!("port p{n}"));
        if let Some(n) = port.filter(|n| *n == 0 || *n > s.ports) {
            out.push(format!(
                "device {name} declares a breakout on port p{n}, which its part {part} does not have (p1 to p{})",
                s.ports
            ));
            continue;
        }
        if !runs(k) {
            out.push(format!(
                "device {name} asks {at} to run as {k} ports ({}), which is not a mode of {part} (its cages run {})",
                cage_mode(s, k),
                modes.join(", ")
            ));
        }
    }
    if !out.is_empty() {
        return out;
    }
    let per = u16::from(s.ports_per_cage.max(1));
    if per > 1 {
        for first in (1..=s.ports).step_by(usize::from(per)) {
            let last = first.saturating_add(per - 1).min(s.ports);
            let k = b.split_of(first);
            if let Some(other) = (first + 1..=last).find(|n| b.split_of(*n) != k) {
                out.push(format!(
                    "device {name}: cage p{} holds ports p{first} and p{other} in two modes ({} and {} per port); \
                     the ports of a cage run one breakout",
                    (first - 1) / per + 1,
                    mode_name(u32::from(k), s.port_gbps / f64::from(k)),
                    mode_name(
                        u32::from(b.split_of(other)),
                        s.port_gbps / f64::from(b.split_of(other))
                    ),
                ));
            }
        }
    }
    let cap = s.max_logical_ports;
    let total = logical_ports(s, device);
    if cap > 0 && total > u32::from(cap) {
        out.push(format!(
            "device {name} would run {total} logical ports, past the {cap} its part {part} runs at most \
             (breakouts: {})",
            modes.join(", ")
        ));
    }
    out
}

/// Transceiver choices already checked for one pass over a design's links, by the cage's shape and the link's kind.
type Memo<'a> =
    rustc_hash::FxHashMap<(CageShape, super::Protocol, u64, super::part::Fibre, u64), Verdict<'a>>;

/// What a cage makes of the transceiver a pinned fibre needs there.
#[derive(Clone, Copy)]
enum Verdict<'a> {
    /// It takes one (or there is none of the link's kind at all: the `cable-reach` finding says so).
    Fits,
    /// The one it would hold draws more than the cage's power class.
    OverClass(&'a PartId, f64),
    /// None of the link's kind fits the cage's form; the one that would, were the form not stated, and its form.
    WrongForm(&'a PartId, PlugForm),
}

/// The link rules, with what one pass has worked out remembered (a large design repeats a few cage shapes).
#[derive(Default)]
pub struct LinkRules<'a> {
    memo: Memo<'a>,
}

impl<'a> LinkRules<'a> {
    /// What is wrong with a link's splitter or pinned fibre, each in a sentence naming the link: a splitter leg at
    /// another rate than the splitter's, a transceiver above its cage's power class, none that fits the cage.
    pub fn problems(&mut self, design: &'a Design, id: LinkId, link: &Link) -> Vec<String> {
        let mut out = Vec::new();
        let Some(cable) = link.cable.as_ref() else {
            return out;
        };
        let Some(PartKind::Cable(c)) = design.parts.get(cable).map(|p| &p.kind) else {
            return out;
        };
        if c.legs > 1 && (c.gbps - link.medium.gbps()).abs() >= 0.5 {
            out.push(format!(
                "link {id} is {} on splitter {cable}, whose {} legs run at {} Gb/s each: a splitter leg runs at \
                 the splitter's rate",
                link.medium, c.legs, c.gbps
            ));
        }
        let Some(fibre) = c.fibre.filter(|_| !link.auto_cable) else {
            return out;
        };
        for end in [&link.a, &link.b] {
            let Some(shape) = cage_shape(design, end) else {
                continue;
            };
            if shape.form.is_none() && shape.power_class_w() <= 0.0 {
                continue;
            }
            let key = (
                shape,
                link.medium.protocol(),
                link.medium.gbps().to_bits(),
                fibre,
                link.length_m.to_bits(),
            );
            let verdict = *self
                .memo
                .entry(key)
                .or_insert_with(|| verdict(design, shape, link, fibre));
            if let Some(why) = explain(design, id, end, shape, verdict) {
                out.push(why);
            }
        }
        out
    }
}

/// The [`Verdict`] of a cage on the transceiver a link's fibre needs there.
fn verdict<'a>(
    design: &'a Design,
    shape: CageShape,
    link: &Link,
    fibre: super::part::Fibre,
) -> Verdict<'a> {
    let (protocol, gbps) = (link.medium.protocol(), link.medium.gbps());
    match transceiver_for(design, shape, protocol, gbps, fibre, link.length_m) {
        Some((id, p, _)) if !shape.within_class(p.power_w) => Verdict::OverClass(id, p.power_w),
        Some(_) => Verdict::Fits,
        None => {
            let mut any_form = shape;
            any_form.form = None;
            match transceiver_for(design, any_form, protocol, gbps, fibre, link.length_m) {
                Some((id, _, t)) => Verdict::WrongForm(id, t.form),
                None => Verdict::Fits,
            }
        }
    }
}

/// The sentence for a verdict other than [`Verdict::Fits`].
fn explain(
    design: &Design,
    id: LinkId,
    end: &PortRef,
    shape: CageShape,
    verdict: Verdict<'_>,
) -> Option<String> {
    let device = design
        .devices
        .get(&end.device)
        .map_or_else(|| end.device.to_string(), |d| d.name.clone());
    let form = |f: PlugForm| crate::model::part::plug_name(f);
    match verdict {
        Verdict::Fits => None,
        Verdict::OverClass(t, w) => Some(format!(
            "link {id} at port {} of {device}: its fibre needs transceiver {t}, which draws {w} W, above the {} W \
             power class of the cage",
            end.port,
            shape.power_class_w()
        )),
        Verdict::WrongForm(t, f) => Some(format!(
            "link {id} at port {} of {device}: no transceiver of its rate fits the {} cage ({t} is {})",
            end.port,
            shape.form.map_or("?", form),
            form(f)
        )),
    }
}
