//! A link's physical build: the cable or fibre it is ordered as (at a stock length) and, for a fibre, the
//! transceiver at each end, in the cage of the port. A link flagged `auto_cable` takes the cheapest build of its
//! protocol and rate that reaches its length (copper where it reaches, else fibre and a transceiver per end); a
//! link flagged `estimated_length` takes its length from the floor ([`super::floor`]). Both are re-estimated here
//! when racks or devices move; a link without the flags is kept as written.

use super::floor::{FloorPlan, stock_length};
use super::part::{CableSpec, Fibre, Part, PartKind, PlugForm, Top, TransceiverSpec};
use super::{Breakout, Design, DeviceId, Link, LinkId, PartId, PortRef, Protocol};
use std::sync::Arc;

mod ends;
mod pass;
pub(crate) use ends::Ends;

/// The cage a port's transceiver sits in: ports of one twin-port cage share it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cage {
    /// The device the cage is on.
    pub device: DeviceId,
    /// The cage on that device: the port's name with its number divided by the ports a cage holds (switch `p3`
    /// and `p4` are cage `p1` of two ports, a DGX's `nic2/p1` and `nic3/p1` cage `nic1/p1`), or the port's own name.
    pub name: String,
    /// Ports the cage holds (1 or 2).
    pub ports: u8,
    /// The top a transceiver in it has: finned in switch cages, flat in servers'.
    pub top: Top,
}

/// Which cage a port's transceiver sits in, before it is named: the port's own, a switch's cage number, or a NIC
/// cage (first slot of the cage, port); with the ports the cage holds and its top.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Place {
    Own,
    SwitchCage(u16),
    NicCage(u16, u16),
}

/// What a transceiver choice reads of a port's cage: the logical ports it holds (a switch's ports per cage times
/// their breakout), its top, and the form and power class its part states (docs/analysis.md, "Cages and breakouts").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CageShape {
    /// Logical ports the cage holds.
    pub ports: u8,
    /// The top a transceiver in it has.
    pub top: Top,
    /// The plug form it takes (None: not stated).
    pub form: Option<PlugForm>,
    /// Its power class, W, as bits (0.0: not stated); see [`CageShape::power_class_w`].
    class_w_bits: u64,
}

impl CageShape {
    fn new(ports: u8, top: Top) -> Self {
        Self {
            ports,
            top,
            form: None,
            class_w_bits: 0f64.to_bits(),
        }
    }

    /// The most a transceiver in the cage may draw, W; 0: not stated.
    pub fn power_class_w(&self) -> f64 {
        f64::from_bits(self.class_w_bits)
    }

    /// Whether a transceiver of this form fits the cage.
    pub fn fits(&self, form: PlugForm) -> bool {
        self.form.is_none_or(|f| f == form)
    }

    /// Whether a transceiver drawing `power_w` is within the cage's power class.
    pub fn within_class(&self, power_w: f64) -> bool {
        let class = self.power_class_w();
        class <= 0.0 || power_w <= class + 1e-9
    }
}

/// A port's cage as [`Place`] and [`CageShape`]; None for a port of a device that is not in the design.
fn locate(design: &Design, port: &PortRef) -> Option<(Place, CageShape)> {
    let device = design.devices.get(&port.device)?;
    Some(place_of(
        design.parts.get(&device.part).map(|p| &p.kind),
        &device.breakout,
        port,
    ))
}

/// A port's cage on a device of a part of `kind` (None: the part is not in the design) running `breakout`.
fn place_of(kind: Option<&PartKind>, breakout: &Breakout, port: &PortRef) -> (Place, CageShape) {
    match kind {
        Some(PartKind::Switch(s)) => {
            let per = s.ports_per_cage.max(1);
            let n = port
                .port
                .strip_prefix('p')
                .and_then(|n| n.parse::<u16>().ok())
                .or_else(|| super::ports::split_port(&port.port).map(|(n, _)| n));
            let held = n.map_or(1, |n| per.saturating_mul(breakout.split_of(n)));
            let mut shape = CageShape::new(1, Top::Finned);
            shape.form = s.cage_form;
            shape.class_w_bits = s.cage_power_w.to_bits();
            match n {
                Some(n) if held > 1 && n >= 1 => {
                    shape.ports = held;
                    (Place::SwitchCage((n - 1) / u16::from(per) + 1), shape)
                }
                _ => (Place::Own, shape),
            }
        }
        Some(PartKind::Server(s)) => {
            let per = s.nics_per_cage.max(1);
            let compute = |slot: u16| {
                s.nic_slots
                    .get(usize::from(slot))
                    .is_some_and(|n| n.role == super::part::NicRole::Compute)
            };
            match port.nic_slot_and_port() {
                Some((slot, k)) if per > 1 && compute(slot) => (
                    Place::NicCage(slot / u16::from(per), k),
                    CageShape::new(per, Top::Flat),
                ),
                _ => (Place::Own, CageShape::new(1, Top::Flat)),
            }
        }
        _ => (Place::Own, CageShape::new(1, Top::Flat)),
    }
}

/// Where a port's transceiver sits (see [`Cage`]); None for a port of a device that is not in the design.
pub fn cage_of(design: &Design, port: &PortRef) -> Option<Cage> {
    let (place, shape) = locate(design, port)?;
    let name = match place {
        Place::Own => port.port.to_string(),
        Place::SwitchCage(n) => format!("p{n}"),
        Place::NicCage(cage, k) => format!("nic{cage}/p{k}"),
    };
    Some(Cage {
        device: port.device,
        name,
        ports: shape.ports,
        top: shape.top,
    })
}

/// A cage shared by several ports, as integers: its device and its number there (see [`cage_key`]).
pub type SharedCage = (DeviceId, u32);

/// A port's cage as integers, for counting transceivers without naming cages: `Some((device, number))` for a cage
/// shared by several ports (a switch's cage number; a NIC cage as `1 << 31 | first slot << 16 | port`), None for
/// the port's own; with its [`CageShape`]. None for a port of a device that is not in the design.
pub fn cage_key(design: &Design, port: &PortRef) -> Option<(Option<SharedCage>, CageShape)> {
    let (place, shape) = locate(design, port)?;
    Some((shared_key(port.device, &place), shape))
}

/// The shared cages met in one pass, to count each once: a bit per cage in two words per device (switch cages 1 to
/// 64; NIC cages 0 to 15, ports 0 to 3), by the device's number in the pass's tables; any other in a hashed set.
pub(crate) struct CagesSeen {
    bits: Vec<[u64; 2]>,
    others: rustc_hash::FxHashSet<SharedCage>,
}

impl CagesSeen {
    /// An empty set for `devices` devices.
    pub(crate) fn new(devices: usize) -> Self {
        Self {
            bits: vec![[0, 0]; devices],
            others: Default::default(),
        }
    }

    /// Marks the cage at `place` on `device` (number `index` in the tables, if any) seen; true when it was not
    /// before. A port's own cage is never shared: always true.
    pub(crate) fn insert(&mut self, device: DeviceId, index: Option<u32>, place: &Place) -> bool {
        let bit = match *place {
            Place::Own => return true,
            Place::SwitchCage(n @ 1..=64) => Some((0, n - 1)),
            Place::NicCage(cage @ 0..=15, k @ 0..=3) => Some((1, cage * 4 + k)),
            _ => None,
        };
        let word = index.and_then(|i| self.bits.get_mut(i as usize));
        match (bit, word) {
            (Some((w, b)), Some(words)) => {
                let mask = 1u64 << b;
                let fresh = words[w] & mask == 0;
                words[w] |= mask;
                fresh
            }
            _ => shared_key(device, place).is_none_or(|c| self.others.insert(c)),
        }
    }
}

impl CagesSeen {
    /// Marks every cage `other` marked (`other` made for the same devices).
    pub(crate) fn extend(&mut self, other: CagesSeen) {
        for (words, more) in self.bits.iter_mut().zip(other.bits) {
            words[0] |= more[0];
            words[1] |= more[1];
        }
        self.others.extend(other.others);
    }

    /// Whether the cage at `place` on `device` (number `index` in the tables, if any) was marked seen; a port's own
    /// cage never is.
    pub(crate) fn contains(&self, device: DeviceId, index: Option<u32>, place: &Place) -> bool {
        let bit = match *place {
            Place::Own => return false,
            Place::SwitchCage(n @ 1..=64) => Some((0, n - 1)),
            Place::NicCage(cage @ 0..=15, k @ 0..=3) => Some((1, cage * 4 + k)),
            _ => None,
        };
        match (bit, index.and_then(|i| self.bits.get(i as usize))) {
            (Some((w, b)), Some(words)) => words[w] & 1u64 << b != 0,
            _ => shared_key(device, place).is_some_and(|c| self.others.contains(&c)),
        }
    }
}

/// The integer key of a cage at `place` on `device` (see [`cage_key`]).
pub(crate) fn shared_key(device: DeviceId, place: &Place) -> Option<SharedCage> {
    match *place {
        Place::Own => None,
        Place::SwitchCage(n) => Some((device, u32::from(n))),
        Place::NicCage(cage, k) => Some((device, 1 << 31 | u32::from(cage) << 16 | u32::from(k))),
    }
}

/// The shape of a port's cage: all a transceiver choice reads of [`cage_of`], without writing the cage's name.
pub fn cage_shape(design: &Design, port: &PortRef) -> Option<CageShape> {
    locate(design, port).map(|(_, shape)| shape)
}

/// The cheapest transceiver of the design's parts for one end of a fibre: its protocol, port rate and fibre,
/// reaching `length_m`, that fits the cage's form; with the cage's port count and top and within its power class
/// when one has them (else any port count or top, else above the class: the `cage-power` finding says so).
pub fn transceiver_for<'a>(
    design: &'a Design,
    shape: CageShape,
    protocol: Protocol,
    gbps: f64,
    fibre: Fibre,
    length_m: f64,
) -> Option<(&'a PartId, &'a Part, &'a TransceiverSpec)> {
    let fits = || {
        design
            .parts
            .iter()
            .filter_map(move |(id, p)| match &p.kind {
                PartKind::Transceiver(t)
                    if t.protocol == protocol
                        && t.fibre == fibre
                        && (t.port_gbps() - gbps).abs() < 0.5
                        && t.reach_m >= length_m - 1e-9
                        && shape.fits(t.form) =>
                {
                    Some((id, p, t))
                }
                _ => None,
            })
    };
    let cheapest = |it: &mut dyn Iterator<Item = (&'a PartId, &'a Part, &'a TransceiverSpec)>| {
        it.min_by(|a, b| a.1.price_usd.total_cmp(&b.1.price_usd).then(a.0.cmp(b.0)))
    };
    let shaped = |t: &TransceiverSpec| t.ports == shape.ports && t.top == shape.top;
    let class = |p: &Part| shape.within_class(p.power_w);
    cheapest(&mut fits().filter(|(_, p, t)| shaped(t) && class(p)))
        .or_else(|| cheapest(&mut fits().filter(|(_, p, _)| class(p))))
        .or_else(|| cheapest(&mut fits().filter(|(_, _, t)| shaped(t))))
        .or_else(|| cheapest(&mut fits()))
}

/// A link's build as the design states it: the cable part, the length it is ordered at, and each end's
/// transceiver for a fibre.
#[derive(Debug, Clone, PartialEq)]
pub struct Build {
    /// The cable, copper or fibre part (None: the link names no cable).
    pub cable: Option<PartId>,
    /// The length ordered, m: the next stock length of the cable at or above the link's length (the link's
    /// length when the cable states no stock lengths or the length is past them).
    pub ordered_m: f64,
    /// Whether the cable (or a transceiver) reaches the link's length.
    pub reaches: bool,
    /// The transceiver at the a and b ends of a fibre.
    pub ends: [Option<PartId>; 2],
}

/// The build [`BuildCache::built`] answers for a number it never gave.
static NO_BUILD: Build = Build {
    cable: None,
    ordered_m: 0.0,
    reaches: false,
    ends: [None, None],
};

/// What decides a build, as numbers given in one [`BuildCache`]: the length (as bits), the cable (`u32::MAX`: none,
/// the cheapest, see [`cheapest_build`]), the link's protocol and rate, and the shape of each end's cage (see
/// [`cage_shape`]; `u32::MAX`: the end's device is not in the design). A few words hashed per link, not names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BuildKey {
    length: u64,
    cable: u32,
    medium: u32,
    shapes: [u32; 2],
}

impl std::hash::Hash for BuildKey {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_u64(self.length);
        h.write_u64(u64::from(self.cable) << 32 | u64::from(self.medium));
        h.write_u64(u64::from(self.shapes[0]) << 32 | u64::from(self.shapes[1]));
    }
}

/// Numbers for the values met in one pass (cage shapes, media): the first few found by a scan, any more by a hash.
struct Numbers<T> {
    list: Vec<T>,
    map: rustc_hash::FxHashMap<T, u32>,
}

impl<T> Default for Numbers<T> {
    fn default() -> Self {
        Self {
            list: Vec::new(),
            map: Default::default(),
        }
    }
}

impl<T: Copy + Eq + std::hash::Hash> Numbers<T> {
    /// The number of `value`, given the first time it is met (from 0).
    fn number(&mut self, value: T) -> u32 {
        const SCANNED: usize = 8;
        if let Some(i) = self.list.iter().take(SCANNED).position(|v| *v == value) {
            return i as u32;
        }
        if self.list.len() > SCANNED
            && let Some(n) = self.map.get(&value)
        {
            return *n;
        }
        let n = u32::try_from(self.list.len()).unwrap_or(u32::MAX);
        self.list.push(value);
        self.map.insert(value, n);
        n
    }
}

/// Builds already worked out for one state of a design's parts: a SuperPOD's links repeat a few lengths and cage
/// shapes, so its 117,748 links are a few thousand choices, each scanning the parts once (docs/analysis.md,
/// "Cable lengths from the floor"). Valid while the design's parts do not change: make one per pass. A pass over
/// many links reads the devices from tables ([`Ends`]) made once for it.
#[derive(Default)]
pub struct BuildCache<'a> {
    /// The design's devices (and racks) as tables, shared by the caches of one pass's threads; None: read from
    /// the design's maps (a few links).
    ends: Option<Arc<Ends<'a>>>,
    /// Each build worked out, by its number (in the order met).
    builds: rustc_hash::FxHashMap<BuildKey, u32>,
    /// The builds by number.
    by_number: Vec<Arc<Build>>,
    /// The cheapest builds at lengths no [`Reach`] decides, by the length itself.
    cheapest: rustc_hash::FxHashMap<(BuildKey, bool), Option<Chosen>>,
    /// The cheapest builds by what decides them at a length ([`Reach`]): the lengths estimated from a floor are
    /// thousands, the builds they take a few.
    by_reach: rustc_hash::FxHashMap<(BuildKey, bool, Reach), Option<Chosen>>,
    /// The reach of each transceiver of the design's parts, distinct, sorted (None: not read yet).
    reaches: Option<Vec<f64>>,
    /// The cable candidates of each medium, by its number, with the lengths at which what a length decides of
    /// its cheapest build changes ([`Listed`]).
    cables: rustc_hash::FxHashMap<u32, Listed>,
    /// A number for each cage shape met.
    shapes: Numbers<CageShape>,
    /// A number for each protocol and rate (as bits) met.
    media: Numbers<(Protocol, u64)>,
    /// A number for each cable part met, so that a key holds no copy of its name.
    numbers: rustc_hash::FxHashMap<PartId, u32>,
    /// The cable parts by number.
    named: Vec<PartId>,
    /// Whether each cable part is a fibre, by number (None: not asked yet).
    fibres: Vec<Option<bool>>,
    /// Each cable part's stock lengths, by number (None: not asked yet; empty: sold at any length, or no cable).
    stock: Vec<Option<Vec<f64>>>,
    /// The number last asked for.
    last_number: Option<u32>,
}

/// The cheapest build of a link, by its number in the cache ([`BuildCache::built`]), and whether its cable is a
/// fibre: a copy of two words, where a shared build's count would be touched by every link that asks.
#[derive(Clone, Copy)]
struct Chosen {
    build: u32,
    fibre: bool,
}

/// What a length decides of a cheapest build: which of the medium's [`Listed::bounds`] it lies past. Two lengths
/// between the same two bounds have the same stock length of every candidate, are within the same candidates'
/// reach and within the same transceivers' reach, so they take the same cheapest build, the same cable at the same
/// stock length (a cable with no stock lengths, ordered at the length itself, is marked only as reaching: its
/// builds are not shared).
type Reach = u32;

/// A medium's cable candidates, and the lengths at which what a length decides of its cheapest build changes:
/// every test [`build_with`] and [`transceiver_for`] make of a length against a candidate's stock lengths and
/// reach or a transceiver's reach is "the length is at most b" for one of these `bounds` (sorted, distinct), so
/// a length is told by how many bounds lie below it (a count over a few dozen numbers, not a scan of every stock
/// length).
struct Listed {
    candidates: Arc<[Candidate]>,
    bounds: Vec<f64>,
}

impl Listed {
    /// The candidates of a link's medium, with the bounds of their stock lengths and reach and of the reach of
    /// the design's transceivers (`reaches`).
    fn new(design: &Design, link: &Link, reaches: &[f64]) -> Self {
        let candidates = candidates(design, link);
        let mut bounds: Vec<f64> = Vec::new();
        for c in candidates.iter() {
            if c.stock_m.is_empty() {
                // Sold at any length up to its reach (`length <= max`).
                bounds.push(c.max_m);
            }
            bounds.extend(c.stock_m.iter().map(|s| last_within(*s)));
            bounds.push(c.max_m + 1e-9);
        }
        bounds.extend(reaches.iter().map(|r| last_within(*r)));
        bounds.retain(|b| !b.is_nan());
        bounds.sort_by(f64::total_cmp);
        bounds.dedup_by(|a, b| a.to_bits() == b.to_bits());
        Self { candidates, bounds }
    }
}

/// The longest length that a stock length or reach of `x` takes, as [`stock_length`] and [`transceiver_for`] test
/// it (`x >= length - 1e-9`): x + 1e-9 to the last bit, so that "within x" is "at most this".
fn last_within(x: f64) -> f64 {
    let within = |length: f64| x >= length - 1e-9;
    let mut b = x + 1e-9;
    for _ in 0..64 {
        if within(b.next_up()) {
            b = b.next_up();
        } else if !within(b) {
            b = b.next_down();
        } else {
            break;
        }
    }
    b
}

/// A port located: its cage's [`Place`] and [`CageShape`], the shape's number in the cache, and its device's
/// number in the pass's tables (None: no tables).
#[derive(Debug, Clone, Copy)]
pub(crate) struct At {
    pub(crate) place: Place,
    pub(crate) shape: CageShape,
    shape_number: u32,
    pub(crate) device: Option<u32>,
}

/// A link's a and b ends located (None: the end's device is not in the design).
pub(crate) type Located = [Option<At>; 2];

impl<'a> BuildCache<'a> {
    /// A cache for a pass over many links of `design`, its devices (and, with a plan, racks) read into tables.
    pub(crate) fn for_pass(design: &'a Design, plan: Option<&FloorPlan>) -> Self {
        Self::sharing(Arc::new(Ends::new(design, plan)))
    }

    /// A cache for one part of a pass, reading the pass's tables.
    pub(crate) fn sharing(ends: Arc<Ends<'a>>) -> Self {
        Self {
            ends: Some(ends),
            ..Self::default()
        }
    }

    /// The tables of the pass, if made.
    pub(crate) fn ends(&self) -> Option<&Ends<'a>> {
        self.ends.as_deref()
    }

    /// The tables of the pass, shared (None: not made).
    pub(crate) fn shared_ends(&self) -> Option<Arc<Ends<'a>>> {
        self.ends.clone()
    }

    /// An end located by another cache of the pass, with its shape numbered in this one (a shape's number is
    /// given in the order a cache meets it).
    pub(crate) fn renumbered(&mut self, at: Located) -> Located {
        at.map(|a| {
            a.map(|mut a| {
                a.shape_number = self.shapes.number(a.shape);
                a
            })
        })
    }

    /// A link's ends located.
    pub(crate) fn located(&mut self, design: &Design, link: &Link) -> Located {
        [self.at(design, &link.a), self.at(design, &link.b)]
    }

    /// A port located, its device read from the tables when made.
    fn at(&mut self, design: &Design, port: &PortRef) -> Option<At> {
        let (device, (place, shape)) = match &self.ends {
            Some(e) => {
                let i = e.device_index(port.device)?;
                (Some(i), e.locate_at(i, port)?)
            }
            None => (None, locate(design, port)?),
        };
        Some(At {
            place,
            shape,
            shape_number: self.shapes.number(shape),
            device,
        })
    }

    fn key(
        &mut self,
        link: &Link,
        cable: Option<&PartId>,
        length_m: f64,
        at: &Located,
    ) -> BuildKey {
        BuildKey {
            length: length_m.to_bits(),
            cable: cable.map_or(u32::MAX, |c| self.number(c)),
            medium: self
                .media
                .number((link.medium.protocol(), link.medium.gbps().to_bits())),
            shapes: at.map(|a| a.map_or(u32::MAX, |a| a.shape_number)),
        }
    }

    /// A cable part's number; the last one asked is compared first (a design's links come in runs of one cable).
    fn number(&mut self, cable: &PartId) -> u32 {
        if let Some(n) = self.last_number
            && self.named.get(n as usize) == Some(cable)
        {
            return n;
        }
        let n = match self.numbers.get(cable) {
            Some(n) => *n,
            None => {
                let n = u32::try_from(self.named.len()).unwrap_or(u32::MAX);
                self.numbers.insert(cable.clone(), n);
                self.named.push(cable.clone());
                n
            }
        };
        self.last_number = Some(n);
        n
    }

    /// Whether a cable part is a fibre, remembered by its number.
    pub(crate) fn is_fibre(&mut self, design: &Design, cable: &PartId) -> bool {
        let n = self.number(cable) as usize;
        if self.fibres.len() <= n {
            self.fibres.resize(n + 1, None);
        }
        match self.fibres.get(n).copied().flatten() {
            Some(f) => f,
            None => {
                let f = is_fibre(design, cable);
                if let Some(slot) = self.fibres.get_mut(n) {
                    *slot = Some(f);
                }
                f
            }
        }
    }

    /// [`build_with`], remembered, with its number.
    fn build_with(
        &mut self,
        design: &Design,
        link: &Link,
        cable: Option<&PartId>,
        length_m: f64,
        at: &Located,
    ) -> (Arc<Build>, u32) {
        let key = self.key(link, cable, length_m, at);
        if let Some(b) = self
            .builds
            .get(&key)
            .and_then(|n| Some((self.by_number.get(*n as usize)?.clone(), *n)))
        {
            return b;
        }
        let n = u32::try_from(self.by_number.len()).unwrap_or(u32::MAX);
        let shapes = at.map(|a| a.map(|a| a.shape));
        let b = Arc::new(build_with(design, link, cable, length_m, shapes));
        self.by_number.push(b.clone());
        self.builds.insert(key, n);
        (b, n)
    }

    /// The length a link's own cable is ordered at, as [`build_with`] orders it: its next stock length at or above
    /// `length_m`, else `length_m` itself. A link left on its cable needs no more of its build: a 128-SU SuperPOD's
    /// storage links run past every HDR cable's reach, each at a length of its own.
    fn ordered_length(&mut self, design: &Design, cable: Option<&PartId>, length_m: f64) -> f64 {
        let Some(c) = cable else {
            return length_m;
        };
        let n = self.number(c) as usize;
        if self.stock.len() <= n {
            self.stock.resize(n + 1, None);
        }
        match self.stock.get_mut(n) {
            Some(slot) => {
                let stock = slot.get_or_insert_with(|| {
                    cable_spec(design, c).map_or_else(Vec::new, |(_, s)| s.stock_lengths_m.clone())
                });
                stock_length(stock, length_m).unwrap_or(length_m)
            }
            None => length_m,
        }
    }

    /// A build of this cache by its number (a [`Chosen`]'s).
    fn built(&self, n: u32) -> &Build {
        match self.by_number.get(n as usize) {
            Some(b) => b,
            // Never: a number is given only with its build.
            None => &NO_BUILD,
        }
    }

    /// [`build_of`], remembered.
    pub fn build_of(&mut self, design: &Design, link: &Link) -> Build {
        Build::clone(&self.shared_build_of(design, link))
    }

    /// [`build_of`], remembered and shared with the other links of the same build (no copy of its part names).
    pub fn shared_build_of(&mut self, design: &Design, link: &Link) -> Arc<Build> {
        self.numbered_build_of(design, link).0
    }

    /// [`BuildCache::shared_build_of`] with the build's number in this cache (builds numbered in the order met,
    /// from 0) and the link's ends located.
    pub(crate) fn numbered_build_of(
        &mut self,
        design: &Design,
        link: &Link,
    ) -> (Arc<Build>, u32, Located) {
        let at = self.located(design, link);
        let (b, n) = self.build_with(design, link, link.cable.as_ref(), link.length_m, &at);
        (b, n, at)
    }

    /// [`cheapest_build`] (among fibres only when `fibre_only`), remembered.
    fn cheapest(
        &mut self,
        design: &Design,
        link: &Link,
        length_m: f64,
        fibre_only: bool,
        at: &Located,
    ) -> Option<Chosen> {
        // What the length decides first: the lengths from a floor are mostly distinct (a 16-SU SuperPOD's 14,708
        // links run between 10,676 pairs of rack units), and take a few builds.
        let key = (self.key(link, None, length_m, at), fibre_only);
        // The candidates are borrowed, not shared, until a build must be worked out: most links find theirs
        // remembered.
        let reaches = self
            .reaches
            .get_or_insert_with(|| transceiver_reaches(design));
        let listed = self
            .cables
            .entry(key.0.medium)
            .or_insert_with(|| Listed::new(design, link, reaches));
        let reach = reach(&listed.bounds, length_m).map(|r| {
            let mut k = key;
            k.0.length = 0;
            (k.0, k.1, r)
        });
        if let Some(b) = reach.as_ref().and_then(|r| self.by_reach.get(r)) {
            return *b;
        }
        if let Some(b) = self.cheapest.get(&key) {
            return *b;
        }
        let cables = listed.candidates.clone();
        let b = cables
            .iter()
            .filter(|c| !fibre_only || c.fibre)
            .map(|c| self.build_with(design, link, Some(&c.id), length_m, at))
            .filter(|(b, _)| b.reaches)
            .min_by(|(a, _), (b, _)| {
                build_price(design, a)
                    .total_cmp(&build_price(design, b))
                    .then(a.cable.cmp(&b.cable))
            })
            .map(|(build, n)| Chosen {
                fibre: build.cable.as_ref().is_some_and(|c| is_fibre(design, c)),
                build: n,
            });
        // By what the length decides, unless the build is of a cable sold at any length, ordered at this length
        // (then by the length itself).
        let at_length = b.as_ref().is_some_and(|c| {
            self.built(c.build)
                .cable
                .as_ref()
                .and_then(|id| cable_spec(design, id))
                .is_some_and(|(_, spec)| spec.stock_lengths_m.is_empty())
        });
        match reach.filter(|_| !at_length) {
            Some(r) => self.by_reach.insert(r, b),
            None => self.cheapest.insert(key, b),
        };
        b
    }
}

/// What `length_m` decides of a cheapest build among a medium's candidates ([`Reach`]): how many of its
/// bounds lie below it (counted, where a binary search's branches cost more: 10% of a 128-SU re-estimation). None
/// for a length that is not a number.
fn reach(bounds: &[f64], length_m: f64) -> Option<Reach> {
    if length_m.is_nan() {
        return None;
    }
    // A count, not a binary search: a few dozen bounds compared without a branch each.
    u32::try_from(bounds.iter().filter(|b| **b < length_m).count()).ok()
}

/// The distinct reach of the design's transceivers, sorted.
fn transceiver_reaches(design: &Design) -> Vec<f64> {
    let mut r: Vec<f64> = design
        .parts
        .values()
        .filter_map(|p| match &p.kind {
            PartKind::Transceiver(t) => Some(t.reach_m),
            _ => None,
        })
        .collect();
    r.sort_by(f64::total_cmp);
    r.dedup_by(|a, b| a.to_bits() == b.to_bits());
    r
}

/// Whether a part can make up a link of `medium`: a cable of its protocol and rate, or a transceiver whose ports
/// run at it. The parts re-estimation chooses among, copied into a design with every link that follows the floor
/// (the canvas's gestures and the templates alike).
pub fn builds_medium(kind: &PartKind, medium: super::Medium) -> bool {
    let (protocol, gbps) = (medium.protocol(), medium.gbps());
    match kind {
        PartKind::Cable(c) => c.protocol == protocol && (c.gbps - gbps).abs() < 0.5,
        PartKind::Transceiver(t) => t.protocol == protocol && (t.port_gbps() - gbps).abs() < 0.5,
        _ => false,
    }
}

fn cable_spec<'a>(design: &'a Design, id: &PartId) -> Option<(&'a Part, &'a CableSpec)> {
    let p = design.parts.get(id)?;
    match &p.kind {
        PartKind::Cable(c) => Some((p, c)),
        _ => None,
    }
}

/// The build of a link with a given cable at a given length: the ordered length and each end's transceiver.
fn build_with(
    design: &Design,
    link: &Link,
    cable: Option<&PartId>,
    length_m: f64,
    shapes: [Option<CageShape>; 2],
) -> Build {
    let spec = cable.and_then(|c| cable_spec(design, c));
    let Some((_, c)) = spec else {
        return Build {
            cable: cable.cloned(),
            ordered_m: length_m,
            reaches: true,
            ends: [None, None],
        };
    };
    let stock = if c.stock_lengths_m.is_empty() {
        (length_m <= c.max_length_m).then_some(length_m)
    } else {
        stock_length(&c.stock_lengths_m, length_m)
    };
    let mut reaches = stock.is_some() && length_m <= c.max_length_m + 1e-9;
    let mut ends = [None, None];
    if let Some(fibre) = c.fibre {
        for (slot, shape) in ends.iter_mut().zip(shapes) {
            let t = shape.and_then(|shape| {
                transceiver_for(
                    design,
                    shape,
                    link.medium.protocol(),
                    link.medium.gbps(),
                    fibre,
                    length_m,
                )
            });
            reaches &= t.is_some();
            *slot = t.map(|(id, ..)| id.clone());
        }
    }
    Build {
        cable: cable.cloned(),
        ordered_m: stock.unwrap_or(length_m),
        reaches,
        ends,
    }
}

/// The link's build as it stands (its cable at its length).
pub fn build_of(design: &Design, link: &Link) -> Build {
    let shapes = [&link.a, &link.b].map(|p| cage_shape(design, p));
    build_with(design, link, link.cable.as_ref(), link.length_m, shapes)
}

/// The price of a build, USD: the cable plus each end's share of its transceiver (half a twin-port one).
fn build_price(design: &Design, build: &Build) -> f64 {
    let cable = build
        .cable
        .as_ref()
        .and_then(|c| design.parts.get(c))
        .map_or(0.0, |p| p.price_usd);
    let ends: f64 = build
        .ends
        .iter()
        .flatten()
        .filter_map(|t| design.parts.get(t))
        .map(|p| match &p.kind {
            PartKind::Transceiver(t) => p.price_usd / f64::from(t.ports.max(1)),
            _ => p.price_usd,
        })
        .sum();
    cable + ends
}

/// Whether a cable part is a fibre (a transceiver at each end).
fn is_fibre(design: &Design, cable: &PartId) -> bool {
    cable_spec(design, cable).is_some_and(|(_, c)| c.fibre.is_some())
}

/// The cable parts of the design that carry a link's protocol at its rate, by id; not splitters, which a link
/// takes only when pinned (a splitter's legs go to several devices of one cage's lanes).
fn cables_for(design: &Design, link: &Link) -> Vec<PartId> {
    let (protocol, gbps) = (link.medium.protocol(), link.medium.gbps());
    design
        .parts
        .iter()
        .filter(|(_, p)| {
            matches!(&p.kind, PartKind::Cable(c) if c.protocol == protocol && (c.gbps - gbps).abs() < 0.5 && c.legs <= 1)
        })
        .map(|(id, _)| id.clone())
        .collect()
}

/// A cable a link may take ([`cables_for`]), with what a length decides of it: its stock lengths and reach, m, and
/// whether it is a fibre (read once per medium, not per length).
struct Candidate {
    id: PartId,
    stock_m: Vec<f64>,
    max_m: f64,
    fibre: bool,
}

/// The candidates of a link's medium.
fn candidates(design: &Design, link: &Link) -> Arc<[Candidate]> {
    cables_for(design, link)
        .into_iter()
        .filter_map(|id| {
            let (_, c) = cable_spec(design, &id)?;
            Some(Candidate {
                stock_m: c.stock_lengths_m.clone(),
                max_m: c.max_length_m,
                fibre: c.fibre.is_some(),
                id,
            })
        })
        .collect()
}

/// The cheapest build of the design's parts that reaches `length_m` for a link (copper, else fibre and
/// transceivers); None when none reaches.
pub fn cheapest_build(design: &Design, link: &Link, length_m: f64) -> Option<Build> {
    let mut cache = BuildCache::default();
    let at = cache.located(design, link);
    cache
        .cheapest(design, link, length_m, false, &at)
        .map(|c| Build::clone(cache.built(c.build)))
}

impl Design {
    /// Re-estimates every link flagged `estimated_length` or `auto_cable` (see the module's doc): its length from
    /// the floor, rounded up to the stock length of its cable, and its cable by reach. Returns the links that
    /// changed, as they were (for an edit's inverse). In proportion to the links: the floor plan and the tables of
    /// devices and racks are made once.
    pub fn reestimate(&mut self) -> Vec<(LinkId, Link)> {
        if !self
            .links
            .values()
            .any(|l| l.estimated_length || l.auto_cable)
        {
            return Vec::new();
        }
        let plan = FloorPlan::new(self);
        let changes = self.reestimates(&plan);
        if changes.is_empty() {
            return Vec::new();
        }
        let mut changed = Vec::with_capacity(changes.len());
        // The changes come in id order: one walk over the links applies them, the old link copied only where one
        // changes (not a copy of the new one kept in a map).
        let mut next = changes.into_iter().peekable();
        for (id, l) in self.links.iter_mut() {
            let Some((_, cable, length_m)) = next.next_if(|(c, ..)| c == id) else {
                continue;
            };
            if cable != l.cable || length_m.to_bits() != l.length_m.to_bits() {
                let was = l.clone();
                l.cable = cable;
                l.length_m = length_m;
                changed.push((*id, was));
            }
        }
        changed
    }

    /// A flagged link as re-estimation leaves it (unchanged when its racks are on different sites).
    pub fn reestimated(&self, plan: &FloorPlan, link: &Link) -> Link {
        let raw = match link.estimated_length {
            true => self.estimate_link(plan, link).map(|e| e.length_m),
            false => None,
        };
        let mut out = link.clone();
        let mut cache = BuildCache::default();
        let at = cache.located(self, link);
        if let (Some((cable, length_m)), _) = self.change_of(link, raw, &at, &mut cache) {
            out.cable = cable;
            out.length_m = length_m;
        }
        out
    }

    /// What re-estimation changes in a flagged link, given its length estimated from the floor (`raw`; None when
    /// it has none) and its ends located: its new cable and length, None when nothing changes; and whether the
    /// cable it is left on is a fibre.
    fn change_of(
        &self,
        link: &Link,
        raw: Option<f64>,
        at: &Located,
        cache: &mut BuildCache<'_>,
    ) -> (Option<(Option<PartId>, f64)>, bool) {
        let fibre = |cache: &mut BuildCache<'_>| {
            link.cable.as_ref().is_some_and(|c| cache.is_fibre(self, c))
        };
        let raw = match (link.estimated_length, raw) {
            (true, Some(raw)) => raw,
            (true, None) => return (None, fibre(cache)),
            (false, _) => link.length_m,
        };
        let chosen = if link.auto_cable {
            cache.cheapest(self, link, raw, false, at)
        } else {
            None
        };
        let on_fibre = match &chosen {
            Some(c) => c.fibre,
            None => fibre(cache),
        };
        let (cable, length_m) = match chosen.map(|c| cache.built(c.build)) {
            Some(b) => (
                b.cable.as_ref(),
                if link.estimated_length {
                    b.ordered_m
                } else {
                    link.length_m
                },
            ),
            None if link.estimated_length => (
                link.cable.as_ref(),
                cache.ordered_length(self, link.cable.as_ref(), raw),
            ),
            None => (link.cable.as_ref(), link.length_m),
        };
        if cable == link.cable.as_ref() && length_m.to_bits() == link.length_m.to_bits() {
            return (None, on_fibre);
        }
        (Some((cable.cloned(), length_m)), on_fibre)
    }
}

#[cfg(test)]
mod tests;
