//! The design document: racks, rack-mounted devices, parts placed in server slots, ports and the links between them,
//! and the parameters the analysis needs. No GUI types live here; the canvas and the analysis both read this.

pub mod build;
pub mod cages;
pub mod floor;
mod grouped;
mod ids;
mod medium;
mod params;
pub mod part;
mod ports;
mod scenario;
pub mod text;

pub use floor::{Floor, FloorPlan};
pub(crate) use grouped::{grouped, sorted_by};
pub use ids::{DeviceId, LinkId, PartId, RackId};
pub use medium::{IbRate, Medium, PcieLink, Protocol};
pub use params::{
    CHECKPOINT_BYTES_PER_PARAMETER, FailureRates, LLAMA3_GPU_YEARS, LLAMA3_SERVER_YEARS, MfuScope,
    Params, REPAIR_S, RESTART_S, Serving, Spares, Traffic, Training,
};
pub use ports::{PortInfo, PortRef, PortRole, PortSpec};
pub use scenario::Scenario;

use part::{Part, PartKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The design file format this build writes. Older versions are migrated on load: version 2 added the floor
/// (`floor`, a site's `floor`, a rack's `width_mm`) and a link's `estimated_length` and `auto_cable` flags, all
/// optional, so a version 1 file reads as it did (its links' lengths and cables are fixed).
pub const FORMAT_VERSION: u32 = 2;

/// Reads a map whose keys must be unique (used with `#[serde(deserialize_with = "...")]`): a file that gives two racks, devices, links or parts the same id is
/// refused with one error naming the id, rather than keeping the last entry and leaving the links of the first to
/// fail one by one.
pub fn unique_keys<'de, D, K, V>(deserializer: D) -> Result<BTreeMap<K, V>, D::Error>
where
    D: serde::Deserializer<'de>,
    K: Deserialize<'de> + Ord + std::fmt::Display,
    V: Deserialize<'de>,
{
    struct Unique<K, V>(std::marker::PhantomData<(K, V)>);
    impl<'de, K, V> serde::de::Visitor<'de> for Unique<K, V>
    where
        K: Deserialize<'de> + Ord + std::fmt::Display,
        V: Deserialize<'de>,
    {
        type Value = BTreeMap<K, V>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a map with unique ids")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            while let Some((k, v)) = map.next_entry::<K, V>()? {
                if out.contains_key(&k) {
                    return Err(serde::de::Error::custom(format!(
                        "duplicate id {k}: every site, rack, device, link and part needs its own id"
                    )));
                }
                out.insert(k, v);
            }
            Ok(out)
        }
    }
    deserializer.deserialize_map(Unique(std::marker::PhantomData))
}

/// A whole design: self-contained, so it gives the same numbers on any machine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Design {
    /// File format version; see [`FORMAT_VERSION`]. Required in files: a file without it reads as 0 and is refused.
    #[serde(default)]
    pub format_version: u32,
    /// Human name shown in the title bar and reports.
    pub name: String,
    /// Free text for reviewers.
    pub notes: String,
    /// Traffic, service level and prices the analysis uses.
    pub params: Params,
    /// The floor the racks stand on (a site may keep its own): rack pitch, aisles, tray, slack.
    #[serde(skip_serializing_if = "Floor::is_default")]
    pub floor: Floor,
    /// Sites (data halls, regions) by name; racks name the site they stand in. Empty: one site.
    #[serde(
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "unique_keys"
    )]
    pub sites: BTreeMap<String, Site>,
    /// Specs of every part the design uses, copied from the catalog when first added and overridable here.
    #[serde(deserialize_with = "unique_keys")]
    pub parts: BTreeMap<PartId, Part>,
    /// Racks on the floor plan.
    #[serde(deserialize_with = "unique_keys")]
    pub racks: BTreeMap<RackId, Rack>,
    /// Rack-mounted devices: servers, switches, storage, PDUs, patch panels.
    #[serde(deserialize_with = "unique_keys")]
    pub devices: BTreeMap<DeviceId, Device>,
    /// Cables between ports.
    #[serde(deserialize_with = "unique_keys")]
    pub links: BTreeMap<LinkId, Link>,
    /// Next id to hand out; ids are never reused.
    pub next_id: u64,
    /// Planning scenarios (View > Planning): named sets of planning settings, in the order they were saved.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scenarios: Vec<Scenario>,
    /// What the design was sized for (File > Size from a requirement, `racksmith size`): the requirement and the
    /// derivation at the time, kept so the pane and the HTML report still show the job after Create. Optional:
    /// files without it load as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sizing: Option<SizingRecord>,
}

/// The requirement a sized design was made for, and why it has its size (as sizing said when it made it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct SizingRecord {
    /// "serving", "training" or "budget".
    pub goal: String,
    /// The requirement in one line, e.g. "70e9 parameters on 2e12 tokens in 90 days on h100-sxm".
    pub requirement: String,
    /// Which limit set the size: "p99", "utilisation", "memory", "days" or "budget".
    pub limit: String,
    /// The derivation, line by line (label, text), as sizing printed it.
    pub why: Vec<(String, String)>,
    /// Days a training job was asked to finish in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub days: Option<f64>,
}

impl Default for Design {
    fn default() -> Self {
        Self {
            format_version: FORMAT_VERSION,
            name: "Untitled design".into(),
            notes: String::new(),
            params: Params::default(),
            floor: Floor::default(),
            sites: BTreeMap::new(),
            parts: BTreeMap::new(),
            racks: BTreeMap::new(),
            devices: BTreeMap::new(),
            links: BTreeMap::new(),
            next_id: 1,
            scenarios: Vec::new(),
            sizing: None,
        }
    }
}

/// A rack on the floor plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rack {
    /// Label, e.g. "R01".
    pub name: String,
    /// The rack part (frame) used for price and defaults.
    pub part: PartId,
    /// Usable mounting height in rack units.
    pub height_u: u16,
    /// Power budget for the IT load in the rack, watts.
    pub power_budget_w: f64,
    /// Largest equipment weight the rack may carry, kilograms.
    pub max_weight_kg: f64,
    /// Row on the floor plan (0-based).
    pub row: u16,
    /// Position within its row (0-based), left to right.
    pub slot: u16,
    /// Width of the rack's place in its row, mm; unset: the floor's rack pitch (600 mm). Network racks are often
    /// 800 mm wide.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width_mm: Option<f64>,
    /// Capacity of each of the A and B power feeds in watts, when the rack has redundant feeds.
    pub feed_capacity_w: Option<f64>,
    /// The site the rack stands in (a key of the design's `sites`); empty when the design has one site.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub site: String,
    /// How the rack's heat is removed: room air (the default) or direct liquid cooling.
    #[serde(skip_serializing_if = "Cooling::is_air")]
    pub cooling: Cooling,
    /// Review note about this rack (shown in the inspector, the HTML report and as a badge on elevations).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub notes: String,
}

impl Rack {
    /// What of the rack a cable's length reads: its site, row, slot, width and height. A rack whose place changes
    /// moves the lengths of its links estimated from the floor.
    pub fn place_on_floor(&self) -> (&str, u16, u16, Option<f64>, u16) {
        (
            &self.site,
            self.row,
            self.slot,
            self.width_mm,
            self.height_u,
        )
    }
}

impl Default for Rack {
    fn default() -> Self {
        Self {
            name: "Rack".into(),
            part: PartId::new("rack-42u"),
            height_u: 42,
            power_budget_w: 15_000.0,
            max_weight_kg: 1_000.0,
            row: 0,
            slot: 0,
            width_mm: None,
            feed_capacity_w: None,
            cooling: Cooling::Air,
            site: String::new(),
            notes: String::new(),
        }
    }
}

/// A site: a data hall or a region, with the availability the service can count on there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Site {
    /// Region, e.g. "eu-west".
    pub region: String,
    /// Share of the time the site is up, in (0, 1] (docs/analysis.md, "Sites and availability"). Default 0.9995.
    pub availability: f64,
    /// What the site's plant can cool: air only, or air and direct liquid (facility water to CDUs).
    #[serde(skip_serializing_if = "SiteCooling::is_default")]
    pub cooling: SiteCooling,
    /// The site's PUE for air-cooled racks; unset: the design's `params.pue`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pue: Option<f64>,
    /// The site's PUE for liquid-cooled racks; unset: `params.pue_liquid`, else the site's air PUE.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pue_liquid: Option<f64>,
    /// Electricity price at the site, USD per kWh; unset: `params.electricity_usd_per_kwh`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub electricity_usd_per_kwh: Option<f64>,
    /// Colocation price at the site, USD per kW of IT per month; unset: `params.colocation_usd_per_kw_month`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colocation_usd_per_kw_month: Option<f64>,
    /// Review note about this site, kept in the file; unlike rack and device notes, no panel or report shows it.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub notes: String,
    /// The site's own floor; unset: the design's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub floor: Option<Floor>,
    /// Fibre route distance to other sites, km, by site name (the distance between two sites is whichever of
    /// them states it). A cable between two sites must be at least that long, and its latency is at least that
    /// distance's propagation.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub distance_km: std::collections::BTreeMap<String, f64>,
}

impl Design {
    /// The site of a device's rack ("" when the rack names none); None for a device that is not in the design.
    pub fn device_site(&self, id: DeviceId) -> Option<&str> {
        self.devices
            .get(&id)
            .and_then(|d| self.racks.get(&d.rack))
            .map(|r| r.site.as_str())
    }

    /// The fibre route distance between two sites, km, when either states it (`Site::distance_km`).
    pub fn site_distance_km(&self, a: &str, b: &str) -> Option<f64> {
        let of = |x: &str, y: &str| {
            self.sites
                .get(x)
                .and_then(|s| s.distance_km.get(y))
                .copied()
        };
        of(a, b).or_else(|| of(b, a))
    }
}

impl Default for Site {
    fn default() -> Self {
        Self {
            region: String::new(),
            availability: 0.9995,
            cooling: SiteCooling::AirAndLiquid,
            pue: None,
            pue_liquid: None,
            electricity_usd_per_kwh: None,
            colocation_usd_per_kw_month: None,
            notes: String::new(),
            floor: None,
            distance_km: std::collections::BTreeMap::new(),
        }
    }
}

/// What a site's cooling plant can serve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum SiteCooling {
    /// Room air and facility water for direct liquid cooling (CDUs).
    #[default]
    AirAndLiquid,
    /// Room air only: no facility water, so no liquid-cooled racks.
    AirOnly,
}

impl SiteCooling {
    /// Whether this is the default (not written to files).
    pub fn is_default(&self) -> bool {
        *self == SiteCooling::AirAndLiquid
    }

    /// Whether a rack cooled this way can stand in the site.
    pub fn allows(self, rack: Cooling) -> bool {
        !(self == SiteCooling::AirOnly && rack == Cooling::Liquid)
    }
}

/// How a rack is cooled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Cooling {
    /// Room air through the front of the rack, out of the back.
    #[default]
    Air,
    /// Direct liquid cooling: cold plates on the hot parts, a coolant loop to a CDU.
    Liquid,
}

impl Cooling {
    /// Whether this is air cooling (the default, not written to files).
    pub fn is_air(&self) -> bool {
        *self == Cooling::Air
    }
}

/// A rack-mounted device and what is installed in its slots.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Device {
    /// Label, e.g. "dgx-01".
    pub name: String,
    /// The part this device is.
    pub part: PartId,
    /// The rack it is mounted in.
    pub rack: RackId,
    /// Lowest rack unit it occupies (1-based, counted from the bottom as on rack rails).
    pub position_u: u16,
    /// GPUs placed in the server's GPU slots, by slot index.
    pub gpus: BTreeMap<u16, PartId>,
    /// NICs placed in the server's NIC slots, by slot index.
    pub nics: BTreeMap<u16, PartId>,
    /// Review note about this device.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub notes: String,
    /// The breakout its switch ports run (docs/file-format.md); absent: every port in its part's native mode.
    #[serde(skip_serializing_if = "Breakout::is_native")]
    pub breakout: Breakout,
}

/// A switch's breakout: how many logical ports each of its ports runs as (1: native, 2: two at half the rate, ...),
/// one of its part's `breakouts`. Ports of one cage run one mode (docs/analysis.md, "Cages and breakouts").
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Breakout {
    /// The split of every port not listed in `ports`; 0 or 1: native.
    #[serde(skip_serializing_if = "is_native_split")]
    pub split: u8,
    /// The split of single ports by number (`p3` is 3), over `split`.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub ports: BTreeMap<u16, u8>,
}

fn is_native_split(split: &u8) -> bool {
    *split <= 1
}

impl Breakout {
    /// Whether every port runs natively (nothing declared: the field is not written).
    pub fn is_native(&self) -> bool {
        is_native_split(&self.split) && self.ports.values().all(is_native_split)
    }

    /// The logical ports port `n` runs as (1: native).
    pub fn split_of(&self, n: u16) -> u8 {
        self.ports.get(&n).copied().unwrap_or(self.split).max(1)
    }
}

impl Device {
    /// Rack units a device of `height_u` units occupies from its position, inclusive; None for 0U parts.
    pub fn units(&self, height_u: u16) -> Option<std::ops::RangeInclusive<u16>> {
        (height_u > 0).then(|| self.position_u..=self.position_u.saturating_add(height_u - 1))
    }
}

impl Default for Device {
    fn default() -> Self {
        Self {
            name: String::new(),
            part: PartId::new(""),
            rack: RackId(0),
            position_u: 1,
            gpus: BTreeMap::new(),
            nics: BTreeMap::new(),
            notes: String::new(),
            breakout: Breakout::default(),
        }
    }
}

/// A cable (or transceiver pair and fibre) between two ports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Link {
    /// One end of the cable; the analysis treats links as undirected, so which end is `a` shows only in listings.
    pub a: PortRef,
    /// The other end.
    pub b: PortRef,
    /// Signalling medium and rate.
    pub medium: Medium,
    /// Cable length in metres (propagation delay and cable choice).
    pub length_m: f64,
    /// The cable or transceiver part, for price and power.
    pub cable: Option<PartId>,
    /// Review note about this link.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub notes: String,
    /// The length is an estimate from the floor, re-estimated when racks or devices move; false (a version 1
    /// file, or a length the user fixed): the length is kept as written.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub estimated_length: bool,
    /// The medium (copper or fibre and transceivers) is chosen by reach from the length; false: the user pinned
    /// `cable`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub auto_cable: bool,
}

impl Default for Link {
    fn default() -> Self {
        Self {
            a: PortRef::default(),
            b: PortRef::default(),
            medium: Medium::Ethernet(100),
            length_m: 3.0,
            cable: None,
            notes: String::new(),
            estimated_length: false,
            auto_cable: false,
        }
    }
}

impl Design {
    /// The most common GPU part across servers (of equal counts, the first by id); None without GPUs. The
    /// analysis's reference GPU, and the part a scenario's GPU model replaces.
    pub fn main_gpu(&self) -> Option<PartId> {
        let mut counts: BTreeMap<&PartId, usize> = BTreeMap::new();
        for d in self.devices.values() {
            for g in d.gpus.values() {
                *counts.entry(g).or_default() += 1;
            }
        }
        counts
            .into_iter()
            .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))
            .map(|(p, _)| p.clone())
    }

    /// Hands out a fresh id number; ids are never reused within a document.
    pub fn alloc_id(&mut self) -> u64 {
        let id = self.next_id.max(1);
        self.next_id = id + 1;
        id
    }

    /// Removes devices and every link that touches them, in one pass over the links (a plain removal for the
    /// analysis's what-ifs; edits that must be undone go through `edit::Edit`). Returns how many links went.
    pub fn remove_devices(&mut self, ids: &std::collections::BTreeSet<DeviceId>) -> usize {
        if ids.is_empty() {
            return 0;
        }
        self.devices.retain(|id, _| !ids.contains(id));
        let before = self.links.len();
        self.links
            .retain(|_, l| !ids.contains(&l.a.device) && !ids.contains(&l.b.device));
        before - self.links.len()
    }

    /// The first device (in id order) with this name: names are labels, not keys, so two devices may share one.
    pub fn device_named(&self, name: &str) -> Option<DeviceId> {
        self.devices
            .iter()
            .find(|(_, d)| d.name == name)
            .map(|(id, _)| *id)
    }

    /// The spec of a part used by this design.
    pub fn part(&self, id: &PartId) -> Option<&Part> {
        self.parts.get(id)
    }

    /// The part a device is, if its spec is present.
    pub fn device_part(&self, device: &Device) -> Option<&Part> {
        self.parts.get(&device.part)
    }

    /// Height of a device in rack units (0 for side-mounted parts and unknown parts).
    pub fn device_height_u(&self, device: &Device) -> u16 {
        self.device_part(device).map_or(0, |p| p.height_u)
    }

    /// Rack units a device occupies, as an inclusive range, or None for 0U parts.
    pub fn device_units(&self, device: &Device) -> Option<std::ops::RangeInclusive<u16>> {
        device.units(self.device_height_u(device))
    }

    /// Checks whether a part of `height_u` fits at `position_u` in `rack`, ignoring `ignore` (the device being moved).
    /// Returns the reason it does not fit.
    pub fn check_mount(
        &self,
        rack: RackId,
        position_u: u16,
        height_u: u16,
        ignore: &[DeviceId],
    ) -> Result<(), String> {
        let taken = self
            .devices
            .iter()
            .filter(|(id, d)| d.rack == rack && !ignore.contains(id))
            .filter_map(|(id, d)| Some((*id, self.device_units(d)?)));
        self.check_mount_among(rack, position_u, height_u, taken)
    }

    /// [`Design::check_mount`] against the units `taken` in the rack, each with the device holding them: for a
    /// caller that keeps them (placing thousands of devices, each checked against every device, is quadratic).
    pub fn check_mount_among(
        &self,
        rack: RackId,
        position_u: u16,
        height_u: u16,
        taken: impl IntoIterator<Item = (DeviceId, std::ops::RangeInclusive<u16>)>,
    ) -> Result<(), String> {
        let Some(r) = self.racks.get(&rack) else {
            return Err(format!("rack {rack} does not exist"));
        };
        if height_u == 0 {
            return Ok(());
        }
        let top = u32::from(position_u) + u32::from(height_u) - 1;
        if position_u < 1 || top > u32::from(r.height_u) {
            return Err(format!(
                "a {height_u}U part at U{position_u} would reach U{top}, outside the {}U rack {}",
                r.height_u, r.name
            ));
        }
        for (id, units) in taken {
            let (lo, hi) = (u32::from(*units.start()), u32::from(*units.end()));
            if u32::from(position_u) <= hi && lo <= top {
                let name = self.devices.get(&id).map_or("", |d| d.name.as_str());
                return Err(format!("overlaps {name} at U{lo}-U{hi} in rack {}", r.name));
            }
        }
        Ok(())
    }

    /// Lowest free position in a rack for a part of the given height, if any.
    pub fn first_free_u(&self, rack: RackId, height_u: u16) -> Option<u16> {
        let r = self.racks.get(&rack)?;
        (1..=r.height_u).find(|&u| self.check_mount(rack, u, height_u, &[]).is_ok())
    }

    /// Every port a device offers, with what it can carry.
    pub fn ports(&self, device_id: DeviceId) -> Vec<PortInfo> {
        let Some(device) = self.devices.get(&device_id) else {
            return Vec::new();
        };
        ports::device_ports(self, device)
    }

    /// Looks up one port of a device by name.
    pub fn port(&self, port: &PortRef) -> Option<PortInfo> {
        self.ports(port.device)
            .into_iter()
            .find(|p| p.name == port.port)
    }

    /// The link that uses a port, if any.
    pub fn link_at(&self, port: &PortRef) -> Option<LinkId> {
        self.links
            .iter()
            .find(|(_, l)| &l.a == port || &l.b == port)
            .map(|(id, _)| *id)
    }

    /// The links on a device's ports, by port name, in one pass over the links (where `link_at` per port would
    /// scan them once for every port).
    pub fn links_by_port(&self, device: DeviceId) -> std::collections::BTreeMap<&str, LinkId> {
        let mut out = std::collections::BTreeMap::new();
        for (id, l) in &self.links {
            for end in [&l.a, &l.b] {
                if end.device == device {
                    out.insert(end.port.as_str(), *id);
                }
            }
        }
        out
    }

    /// A link in words, both ends with their ports: "link#12 (dgx-01 nic0/p1 - leaf-01 p1)".
    pub fn describe_link(&self, id: LinkId) -> String {
        let Some(l) = self.links.get(&id) else {
            return id.to_string();
        };
        let name = |d: DeviceId| {
            self.devices
                .get(&d)
                .map_or_else(|| d.to_string(), |x| x.name.clone())
        };
        format!(
            "{id} ({} {} - {} {})",
            name(l.a.device),
            l.a.port,
            name(l.b.device),
            l.b.port
        )
    }

    /// Checks that a link between two ports with a medium is possible; returns the reason it is not.
    pub fn check_link(
        &self,
        a: &PortRef,
        b: &PortRef,
        medium: &Medium,
        ignore: Option<LinkId>,
    ) -> Result<(), String> {
        if a == b {
            return Err("a link needs two different ports".into());
        }
        let pa = self
            .port(a)
            .ok_or_else(|| format!("port {a} does not exist"))?;
        let pb = self
            .port(b)
            .ok_or_else(|| format!("port {b} does not exist"))?;
        for (p, info) in [(a, &pa), (b, &pb)] {
            if let Some(existing) = self.link_at(p)
                && Some(existing) != ignore
            {
                return Err(format!("port {p} is already cabled (link {existing})"));
            }
            info.accepts(medium)
                .map_err(|why| format!("port {p}: {why}"))?;
        }
        if a.device == b.device && pa.role != PortRole::Fabric {
            return Err("both ends are on the same device".into());
        }
        Ok(())
    }

    /// The best medium two ports can share: the common protocol at the lower of the two port speeds.
    pub fn common_medium(&self, a: &PortRef, b: &PortRef) -> Result<Medium, String> {
        // From the ports' specs, parsed from their names (a generator cables a hundred thousand ports; building
        // each device's port list per cable was most of a sized design's build); the port lists only for the
        // message when there is no medium.
        if let (Some(sa), Some(sb)) = (self.port_spec(a), self.port_spec(b))
            && let Some(m) =
                ports::common_medium_of(sa.protocols, sa.max_gbps, sb.protocols, sb.max_gbps)
        {
            return Ok(m);
        }
        let pa = self
            .port(a)
            .ok_or_else(|| format!("port {a} does not exist"))?;
        let pb = self
            .port(b)
            .ok_or_else(|| format!("port {b} does not exist"))?;
        ports::common_medium(&pa, &pb)
    }

    /// Number of GPUs installed across all servers.
    pub fn gpu_count(&self) -> usize {
        self.devices.values().map(|d| d.gpus.len()).sum()
    }

    /// Devices whose part is of a given kind predicate.
    pub fn devices_where<'a>(
        &'a self,
        pred: impl Fn(&PartKind) -> bool + 'a,
    ) -> impl Iterator<Item = (DeviceId, &'a Device)> + 'a {
        self.devices.iter().filter_map(move |(id, d)| {
            let part = self.parts.get(&d.part)?;
            pred(&part.kind).then_some((*id, d))
        })
    }
}
