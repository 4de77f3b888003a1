//! NetBox bulk-import files: the design as the CSV (and, for device types, YAML) files NetBox's import pages take,
//! numbered in the order NetBox needs them (a rack names its site, a device its rack, role and device type, a cable
//! its devices and interfaces):
//!
//! | file | NetBox page | columns |
//! |---|---|---|
//! | `01-sites.csv` | Organization > Sites > Import | name, slug, status |
//! | `02-racks.csv` | Racks > Import | site, name, status, width, u_height |
//! | `03-manufacturers.csv` | Devices > Manufacturers > Import | name, slug |
//! | `04-device-types.yaml` | Devices > Device Types > Import (YAML) | the devicetype-library format, with interfaces |
//! | `05-device-roles.csv` | Devices > Device Roles > Import | name, slug, color |
//! | `06-devices.csv` | Devices > Import | name, role, manufacturer, device_type, status, site, rack, position, face |
//! | `07-cables.csv` | Connections > Cables > Import | side_a_device, side_a_type, side_a_name, side_b_device, side_b_type, side_b_name, type, status, label, length, length_unit |
//! | `08-module-types.csv` | Devices > Module Types > Import | manufacturer, model, part_number, description |
//! | `09-modules.csv` | Devices > Modules > Import | device, module_bay, module_type, status |
//!
//! Column names are the fields of NetBox's import forms (`netbox/dcim/forms/bulk_import.py`;
//! `tests/fixtures/netbox-import-fields.txt` keeps them for the tests). Device types carry their interfaces because
//! NetBox creates a device's interfaces from its type's interface templates, which only the YAML import of a device
//! type can hold. A part imported from NetBox keeps its slug, model and interface names (`Part::netbox`), so its
//! devices and cables name what the NetBox it came from has; other parts get a slug from their id and their ports'
//! Racksmith names (`p1`, `nic0/p1`). Everything is planned: sites, racks, devices and cables have status `planned`.
//!
//! Transceivers are modules: each cage that holds an end of a fibre is a module bay of its device's type
//! (`cage p1`, `cage nic1/p1`: a twin-port cage is one bay holding one transceiver for its two ports), each
//! transceiver part a module type, and the files 08 and 09 (written when the design has fibres) install one module
//! per cage. A cable's length is the length it is ordered at (its part's stock length) and its label the pull
//! list's.
//!
//! Every name goes through `escape::csv_field` (CSV) or the YAML serializer; the YAML header comment through
//! `escape::comment_line`.

use super::ExportError;
use super::escape::{comment_line, csv_field};
use crate::model::build::Build;
use crate::model::part::{NetboxInterface, Part, PartKind};
use crate::model::{Design, DeviceId, Medium, PartId, Protocol};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// The files, in import order: (file name, bytes).
pub type Files = Vec<(String, Vec<u8>)>;

/// A NetBox slug from a name: lower-case letters, digits, `-` and `_` (`^[-a-z0-9_]+$`), other runs as one dash.
pub fn slugify(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let s = out.trim_matches('-').to_string();
    if s.is_empty() { "x".to_string() } else { s }
}

/// NetBox interface type for a port of a rate and protocol (`dcim.choices.InterfaceTypeChoices`).
pub fn interface_type(protocols: &[Protocol], gbps: f64) -> &'static str {
    if protocols.first() == Some(&Protocol::InfiniBand) {
        return match gbps.round() as u32 {
            0..=10 => "infiniband-sdr",
            11..=20 => "infiniband-ddr",
            21..=40 => "infiniband-qdr",
            41..=56 => "infiniband-fdr",
            57..=100 => "infiniband-edr",
            101..=200 => "infiniband-hdr",
            201..=400 => "infiniband-ndr",
            _ => "infiniband-xdr",
        };
    }
    match gbps.round() as u32 {
        0..=1 => "1000base-t",
        2..=10 => "10gbase-x-sfpp",
        11..=25 => "25gbase-x-sfp28",
        26..=40 => "40gbase-x-qsfpp",
        41..=50 => "50gbase-x-sfp56",
        51..=100 => "100gbase-x-qsfp28",
        101..=200 => "200gbase-x-qsfp56",
        201..=400 => "400gbase-x-osfp",
        401..=800 => "800gbase-x-osfp",
        _ => "1.6tbase-x-osfp1600",
    }
}

/// NetBox cable type for a link (`dcim.choices.CableTypeChoices` slugs), from the cable part: an active optical
/// cable is `aoc`; other optics are transceivers on fibre, `smf-os2` (single-mode) when the part reaches beyond
/// 100 m or names single-mode, DR or coherent optics, `mmf-om4` (multimode, as SR optics run on OM4) otherwise;
/// copper is `cat6a` (or the category the part names) at 10 Gb/s or less, `dac-active` when the part names active
/// copper, `dac-passive` otherwise. A link without a cable part takes the same rules from its medium and length.
fn cable_type(
    design: &Design,
    medium: &Medium,
    length_m: f64,
    cable: Option<&PartId>,
) -> &'static str {
    let part = cable.and_then(|c| design.parts.get(c));
    let spec = part.and_then(|p| match &p.kind {
        PartKind::Cable(k) => Some(k),
        _ => None,
    });
    let name = part.map_or_else(String::new, |p| p.name.to_lowercase());
    let says = |w: &str| name.contains(w);
    let optical = spec.map_or(length_m > 5.0 && medium.gbps() > 10.0, |k| k.optical);
    let reach_m = spec.map_or(length_m, |k| k.max_length_m);
    let gbps = spec.map_or(medium.gbps(), |k| k.gbps);
    if optical {
        if says("active optical") || says("aoc") {
            "aoc"
        } else if reach_m > 100.0 || says("single-mode") || says("dr4") || says("coherent") {
            "smf-os2"
        } else {
            "mmf-om4"
        }
    } else if gbps <= 10.0 {
        if says("cat6a") || spec.is_none() {
            "cat6a"
        } else if says("cat6") {
            "cat6"
        } else if says("cat5e") {
            "cat5e"
        } else {
            "cat6a"
        }
    } else if says("active") {
        "dac-active"
    } else {
        "dac-passive"
    }
}

/// The role NetBox files a device under, by the part's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DeviceRole {
    /// A server with GPU slots.
    GpuServer,
    /// A server without GPU slots.
    Server,
    /// A network switch.
    Switch,
    /// A storage appliance or server.
    Storage,
    /// A power distribution unit.
    Pdu,
    /// A patch panel.
    PatchPanel,
    /// A coolant distribution unit.
    Cdu,
    /// A device whose part is of none of the kinds above; exported under NetBox's role "Other".
    Other,
}

impl DeviceRole {
    /// The role of a part.
    fn of(part: &Part) -> Self {
        match &part.kind {
            PartKind::Server(s) if !s.gpu_slots.is_empty() => DeviceRole::GpuServer,
            PartKind::Server(_) => DeviceRole::Server,
            PartKind::Switch(_) => DeviceRole::Switch,
            PartKind::Storage(_) => DeviceRole::Storage,
            PartKind::Pdu(_) => DeviceRole::Pdu,
            PartKind::PatchPanel(_) => DeviceRole::PatchPanel,
            PartKind::Cdu(_) => DeviceRole::Cdu,
            _ => DeviceRole::Other,
        }
    }

    /// The role's name in NetBox.
    fn name(self) -> &'static str {
        match self {
            DeviceRole::GpuServer => "GPU server",
            DeviceRole::Server => "Server",
            DeviceRole::Switch => "Switch",
            DeviceRole::Storage => "Storage",
            DeviceRole::Pdu => "PDU",
            DeviceRole::PatchPanel => "Patch panel",
            DeviceRole::Cdu => "CDU",
            DeviceRole::Other => "Other",
        }
    }

    /// Display colour (hex RRGGBB, as NetBox takes them).
    fn colour(self) -> &'static str {
        match self {
            DeviceRole::GpuServer => "4caf50",
            DeviceRole::Server => "8bc34a",
            DeviceRole::Switch => "2196f3",
            DeviceRole::Storage => "ff9800",
            DeviceRole::Pdu => "f44336",
            DeviceRole::PatchPanel | DeviceRole::Cdu | DeviceRole::Other => "9e9e9e",
        }
    }
}

/// One device type as the devicetype-library (and NetBox's device type import) writes it.
#[derive(Serialize)]
struct DeviceType {
    manufacturer: String,
    model: String,
    slug: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    part_number: Option<String>,
    u_height: u16,
    is_full_depth: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    weight: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    weight_unit: Option<&'static str>,
    interfaces: Vec<NetboxInterface>,
    /// The cages that hold transceivers, as module bays (devicetype-library key `module-bays`).
    #[serde(rename = "module-bays", skip_serializing_if = "Vec::is_empty")]
    module_bays: Vec<ModuleBay>,
}

/// A module bay of a device type (NetBox's `ModuleBayTemplateImportForm`: name, position).
#[derive(Serialize)]
struct ModuleBay {
    name: String,
    position: String,
}

/// What a part is in NetBox: manufacturer, model, slug, and its interfaces, with the NetBox name of each Racksmith
/// port.
struct TypeOf {
    manufacturer: String,
    model: String,
    slug: String,
    interfaces: Vec<NetboxInterface>,
    names: BTreeMap<String, String>,
}

/// Slugs handed out once each: a slug already taken gets `-2`, `-3`, ... from a counter kept per base, so 8,000
/// names that slugify alike cost 8,000 lookups, not a retry against every slug taken (nor a slug that grows by
/// `-2` each time).
#[derive(Default)]
struct Slugs {
    taken: HashSet<String>,
    next: HashMap<String, u32>,
}

impl Slugs {
    /// `base` if free, else the first free `base-N` from the counter on.
    fn claim(&mut self, base: String) -> String {
        if self.taken.insert(base.clone()) {
            return base;
        }
        let n = self.next.entry(base.clone()).or_insert(2);
        loop {
            let slug = format!("{base}-{n}");
            *n += 1;
            if self.taken.insert(slug.clone()) {
                return slug;
            }
        }
    }
}

/// The NetBox side of every rack-mounted part the design's devices use.
fn device_types(design: &Design) -> BTreeMap<PartId, TypeOf> {
    let mut out: BTreeMap<PartId, TypeOf> = BTreeMap::new();
    let mut slugs = Slugs::default();
    // Per type, the interface names it has: a lookup per port instead of a scan of the type's interfaces.
    let mut have: HashMap<PartId, HashSet<String>> = HashMap::new();
    let mut built = HashSet::new();
    for (id, device) in &design.devices {
        let Some(part) = design.parts.get(&device.part) else {
            continue;
        };
        let entry = out.entry(device.part.clone()).or_insert_with(|| {
            let (manufacturer, model, slug, interfaces, names) = match &part.netbox {
                // The NetBox slug as it came, unless the library file's slug is not one NetBox accepts.
                Some(nb) => (
                    nb.manufacturer.clone(),
                    nb.model.clone(),
                    if !nb.slug.is_empty()
                        && nb
                            .slug
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                    {
                        nb.slug.clone()
                    } else {
                        slugify(&nb.slug)
                    },
                    nb.interfaces.clone(),
                    nb.ports.clone(),
                ),
                None => (
                    if part.vendor.trim().is_empty() {
                        "Unknown".to_string()
                    } else {
                        part.vendor.clone()
                    },
                    if part.name.trim().is_empty() {
                        device.part.as_str().to_string()
                    } else {
                        part.name.clone()
                    },
                    slugify(device.part.as_str()),
                    Vec::new(),
                    BTreeMap::new(),
                ),
            };
            let slug = slugs.claim(slug);
            TypeOf {
                manufacturer,
                model,
                slug,
                interfaces,
                names,
            }
        });
        // A device built like one already seen (same part, same NICs and GPUs in its slots) offers the same ports:
        // 8,000 switches of 2,048 ports are 2,048 ports to list, not 16 million.
        if !built.insert((&device.part, &device.nics, &device.gpus)) {
            continue;
        }
        // Every port a device of this type offers, under its NetBox name, is one of the type's interfaces.
        let have = have
            .entry(device.part.clone())
            .or_insert_with(|| entry.interfaces.iter().map(|i| i.name.clone()).collect());
        for port in design.ports(*id) {
            let name = entry
                .names
                .get(&port.name)
                .cloned()
                .unwrap_or(port.name.clone());
            if have.insert(name.clone()) {
                entry.interfaces.push(NetboxInterface {
                    name: name.clone(),
                    kind: interface_type(&port.protocols, port.max_gbps).to_string(),
                    mgmt_only: false,
                });
            }
            entry.names.insert(port.name, name);
        }
    }
    out
}

fn csv_file(
    header: &[&str],
    rows: impl IntoIterator<Item = Vec<String>>,
) -> Result<Vec<u8>, ExportError> {
    let err = |e: csv::Error| ExportError::Write {
        format: "netbox",
        message: e.to_string(),
    };
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(header).map_err(err)?;
    for row in rows {
        w.write_record(row.iter().map(|c| csv_field(c).into_owned()))
            .map_err(err)?;
    }
    w.into_inner().map_err(|e| ExportError::Write {
        format: "netbox",
        message: e.to_string(),
    })
}

/// The site a rack stands in: its own, or the design's one site (named after the design).
fn site_of(design: &Design, site: &str) -> String {
    if !site.is_empty() {
        site.to_string()
    } else if design.name.trim().is_empty() {
        "Racksmith design".to_string()
    } else {
        design.name.clone()
    }
}

/// The transceivers of a design as NetBox modules: each cage that holds an end of a fibre is a module bay of its
/// device's type (named `cage <cage>`), and its transceiver a module of the transceiver part's module type.
#[derive(Default)]
struct Optics {
    /// Each transceiver part's NetBox model (its name, made unique), and its manufacturer.
    types: BTreeMap<PartId, (String, String)>,
    /// Each device type's module bays, by the part of its devices.
    bays: BTreeMap<PartId, BTreeSet<String>>,
    /// Each module: the device, its bay and the transceiver part, in device and cage order.
    modules: Vec<(DeviceId, String, PartId)>,
}

impl Optics {
    fn of(design: &Design, builds: &[Build]) -> Self {
        let mut optics = Optics::default();
        let mut models = HashSet::new();
        // The transceiver in each cage that holds an end of a fibre: the first link's, by id (as the physical
        // section counts them).
        let mut cages: BTreeMap<crate::model::build::Cage, PartId> = BTreeMap::new();
        for (l, b) in design.links.values().zip(builds) {
            for (port, t) in [&l.a, &l.b].into_iter().zip(&b.ends) {
                if let (Some(t), Some(cage)) = (t, crate::model::build::cage_of(design, port)) {
                    cages.entry(cage).or_insert_with(|| t.clone());
                }
            }
        }
        for (cage, part) in &cages {
            let Some(device) = design.devices.get(&cage.device) else {
                continue;
            };
            let bay = format!("cage {}", cage.name);
            optics
                .bays
                .entry(device.part.clone())
                .or_default()
                .insert(bay.clone());
            if !optics.types.contains_key(part) {
                let p = design.parts.get(part);
                let name = p.map_or("", |p| p.name.trim());
                let mut model = if name.is_empty() {
                    part.as_str().to_string()
                } else {
                    name.to_string()
                };
                if !models.insert(model.clone()) {
                    model = format!("{model} ({})", part.as_str());
                    models.insert(model.clone());
                }
                let maker = p
                    .map(|p| p.vendor.trim())
                    .filter(|v| !v.is_empty())
                    .unwrap_or("Unknown");
                optics
                    .types
                    .insert(part.clone(), (model, maker.to_string()));
            }
            optics.modules.push((cage.device, bay, part.clone()));
        }
        optics
    }
}

/// The bulk-import files of a design, in the order NetBox imports them: sites, racks, manufacturers, device types
/// (with their interfaces and the module bays of their transceiver cages), roles, devices, cables and, when the
/// design has fibres, the transceivers' module types and the modules in each device's cages.
pub fn files(design: &Design) -> Result<Files, ExportError> {
    let types = device_types(design);
    // Every link's build, worked out once: the modules read their transceivers, the cables their ordered lengths.
    let mut cache = crate::model::build::BuildCache::default();
    let builds: Vec<Build> = design
        .links
        .values()
        .map(|l| cache.build_of(design, l))
        .collect();
    let optics = Optics::of(design, &builds);
    let mut out: Files = vec![
        ("01-sites.csv".into(), sites_csv(design)?),
        ("02-racks.csv".into(), racks_csv(design)?),
        (
            "03-manufacturers.csv".into(),
            manufacturers_csv(&types, &optics)?,
        ),
        (
            "04-device-types.yaml".into(),
            device_types_yaml(design, &types, &optics)?,
        ),
        ("05-device-roles.csv".into(), roles_csv(design)?),
        ("06-devices.csv".into(), devices_csv(design, &types)?),
        ("07-cables.csv".into(), cables_csv(design, &types, &builds)?),
    ];
    if !optics.modules.is_empty() {
        out.push((
            "08-module-types.csv".into(),
            module_types_csv(design, &optics)?,
        ));
        out.push(("09-modules.csv".into(), modules_csv(design, &optics)?));
    }
    Ok(out)
}

/// `01-sites.csv`: the racks' sites and the design's.
fn sites_csv(design: &Design) -> Result<Vec<u8>, ExportError> {
    let sites: BTreeSet<String> = design
        .racks
        .values()
        .map(|r| site_of(design, &r.site))
        .chain(design.sites.keys().cloned())
        .collect();
    let mut site_slugs = Slugs::default();
    let rows: Vec<Vec<String>> = sites
        .iter()
        .map(|s| vec![s.clone(), site_slugs.claim(slugify(s)), "planned".into()])
        .collect();
    csv_file(&["name", "slug", "status"], rows)
}

/// `02-racks.csv`: 19-inch racks of their height.
fn racks_csv(design: &Design) -> Result<Vec<u8>, ExportError> {
    let rows: Vec<Vec<String>> = design
        .racks
        .values()
        .map(|r| {
            vec![
                site_of(design, &r.site),
                r.name.clone(),
                "planned".into(),
                "19".into(),
                r.height_u.to_string(),
            ]
        })
        .collect();
    csv_file(&["site", "name", "status", "width", "u_height"], rows)
}

/// `03-manufacturers.csv`: the makers of the device types and of the transceivers.
fn manufacturers_csv(
    types: &BTreeMap<PartId, TypeOf>,
    optics: &Optics,
) -> Result<Vec<u8>, ExportError> {
    let makers: BTreeSet<&str> = types
        .values()
        .map(|t| t.manufacturer.as_str())
        .chain(optics.types.values().map(|(_, m)| m.as_str()))
        .collect();
    let mut maker_slugs = Slugs::default();
    let rows: Vec<Vec<String>> = makers
        .iter()
        .map(|m| vec![(*m).to_string(), maker_slugs.claim(slugify(m))])
        .collect();
    csv_file(&["name", "slug"], rows)
}

/// `04-device-types.yaml`: one YAML document per device type, with its interfaces and module bays.
fn device_types_yaml(
    design: &Design,
    types: &BTreeMap<PartId, TypeOf>,
    optics: &Optics,
) -> Result<Vec<u8>, ExportError> {
    let mut yaml = format!(
        "# NetBox device types of {} (Devices > Device Types > Import, YAML), one document each.\n",
        comment_line(&design.name)
    );
    for (id, t) in types {
        let Some(part) = design.parts.get(id) else {
            continue;
        };
        let module_bays = optics.bays.get(id).map_or_else(Vec::new, |bays| {
            let mut bays: Vec<&String> = bays.iter().collect();
            bays.sort_by_cached_key(|b| natural_key(b));
            bays.into_iter()
                .enumerate()
                .map(|(i, name)| ModuleBay {
                    name: name.clone(),
                    position: (i + 1).to_string(),
                })
                .collect()
        });
        let dt = DeviceType {
            manufacturer: t.manufacturer.clone(),
            model: t.model.clone(),
            slug: t.slug.clone(),
            part_number: part.part_number.clone(),
            u_height: part.height_u,
            is_full_depth: part.height_u > 0,
            weight: (part.weight_kg > 0.0).then_some(part.weight_kg),
            weight_unit: (part.weight_kg > 0.0).then_some("kg"),
            interfaces: t.interfaces.clone(),
            module_bays,
        };
        let doc = serde_norway::to_string(&dt).map_err(|e| ExportError::Write {
            format: "netbox",
            message: e.to_string(),
        })?;
        yaml.push_str("---\n");
        yaml.push_str(&doc);
    }
    Ok(yaml.into_bytes())
}

/// A name as runs of text and numbers, so that `cage p2` sorts before `cage p10`.
fn natural_key(name: &str) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = Vec::new();
    let mut text = String::new();
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        if let Some(d) = c.to_digit(10) {
            let mut n = u64::from(d);
            while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                n = n.saturating_mul(10).saturating_add(u64::from(d));
                chars.next();
            }
            out.push((std::mem::take(&mut text), n));
        } else {
            text.push(c);
        }
    }
    out.push((text, u64::MAX));
    out
}

/// `05-device-roles.csv`: the roles of the devices, by name.
fn roles_csv(design: &Design) -> Result<Vec<u8>, ExportError> {
    let roles: BTreeMap<&str, DeviceRole> = design
        .devices
        .values()
        .filter_map(|d| design.parts.get(&d.part))
        .map(|p| (DeviceRole::of(p).name(), DeviceRole::of(p)))
        .collect();
    let rows: Vec<Vec<String>> = roles
        .iter()
        .map(|(name, r)| vec![(*name).to_string(), slugify(name), r.colour().to_string()])
        .collect();
    csv_file(&["name", "slug", "color"], rows)
}

/// `06-devices.csv`: every device in its rack, at its position.
fn devices_csv(design: &Design, types: &BTreeMap<PartId, TypeOf>) -> Result<Vec<u8>, ExportError> {
    let mut rows = Vec::new();
    for d in design.devices.values() {
        let (Some(part), Some(t), Some(rack)) = (
            design.parts.get(&d.part),
            types.get(&d.part),
            design.racks.get(&d.rack),
        ) else {
            continue;
        };
        // A 0U part (a side-mounted PDU) is in the rack but at no position, with no face.
        let (position, face) = if part.height_u > 0 {
            (d.position_u.to_string(), "front".to_string())
        } else {
            (String::new(), String::new())
        };
        rows.push(vec![
            d.name.clone(),
            DeviceRole::of(part).name().to_string(),
            t.manufacturer.clone(),
            t.model.clone(),
            "planned".into(),
            site_of(design, &rack.site),
            rack.name.clone(),
            position,
            face,
        ]);
    }
    csv_file(
        &[
            "name",
            "role",
            "manufacturer",
            "device_type",
            "status",
            "site",
            "rack",
            "position",
            "face",
        ],
        rows,
    )
}

/// `07-cables.csv`: both ends by device and interface name, the cable's type, its length as ordered (the stock
/// length of its part) and the label the pull list gives it.
fn cables_csv(
    design: &Design,
    types: &BTreeMap<PartId, TypeOf>,
    builds: &[Build],
) -> Result<Vec<u8>, ExportError> {
    let mut rows = Vec::new();
    for ((id, l), build) in design.links.iter().zip(builds) {
        let end = |p: &crate::model::PortRef| -> Option<(String, String)> {
            let d = design.devices.get(&p.device)?;
            let name = types
                .get(&d.part)
                .and_then(|t| t.names.get(p.port.as_str()))
                .cloned()
                .unwrap_or_else(|| p.port.to_string());
            Some((d.name.clone(), name))
        };
        let (Some((a_dev, a_port)), Some((b_dev, b_port))) = (end(&l.a), end(&l.b)) else {
            continue;
        };
        let ordered = build.ordered_m;
        rows.push(vec![
            a_dev,
            "dcim.interface".into(),
            a_port,
            b_dev,
            "dcim.interface".into(),
            b_port,
            cable_type(design, &l.medium, ordered, l.cable.as_ref()).into(),
            "planned".into(),
            super::tables::cable_label(design, *id, l),
            format!("{ordered}"),
            "m".into(),
        ]);
    }
    csv_file(
        &[
            "side_a_device",
            "side_a_type",
            "side_a_name",
            "side_b_device",
            "side_b_type",
            "side_b_name",
            "type",
            "status",
            "label",
            "length",
            "length_unit",
        ],
        rows,
    )
}

/// `08-module-types.csv`: one module type per transceiver part.
fn module_types_csv(design: &Design, optics: &Optics) -> Result<Vec<u8>, ExportError> {
    let rows: Vec<Vec<String>> = optics
        .types
        .iter()
        .map(|(id, (model, maker))| {
            let part = design.parts.get(id);
            let description = match part.map(|p| &p.kind) {
                Some(PartKind::Transceiver(t)) => format!(
                    "{} {}-port transceiver, {} x {} Gb/s, {} m",
                    crate::analysis::physical::form_name(t.form),
                    t.ports,
                    t.ports,
                    t.port_gbps(),
                    t.reach_m
                ),
                _ => "transceiver".to_string(),
            };
            vec![
                maker.clone(),
                model.clone(),
                part.and_then(|p| p.part_number.clone()).unwrap_or_default(),
                description,
            ]
        })
        .collect();
    csv_file(
        &["manufacturer", "model", "part_number", "description"],
        rows,
    )
}

/// `09-modules.csv`: each transceiver in its device's cage.
fn modules_csv(design: &Design, optics: &Optics) -> Result<Vec<u8>, ExportError> {
    let rows: Vec<Vec<String>> = optics
        .modules
        .iter()
        .filter_map(|(device, bay, part)| {
            let d = design.devices.get(device)?;
            let (model, _) = optics.types.get(part)?;
            Some(vec![
                d.name.clone(),
                bay.clone(),
                model.clone(),
                "planned".into(),
            ])
        })
        .collect();
    csv_file(&["device", "module_bay", "module_type", "status"], rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_and_types() {
        assert_eq!(slugify("DGX H100 / r1"), "dgx-h100-r1");
        assert_eq!(slugify("***"), "x");
        assert_eq!(
            interface_type(&[Protocol::InfiniBand], 400.0),
            "infiniband-ndr"
        );
        assert_eq!(
            interface_type(&[Protocol::Ethernet], 400.0),
            "400gbase-x-osfp"
        );
        assert_eq!(interface_type(&[Protocol::Ethernet], 1.0), "1000base-t");
    }

    /// Every cable part of the built-in catalog gets the NetBox type of its medium: the HDR AOC is `aoc`, SR4
    /// optics on MPO are multimode, DR4 and 400ZR optics single-mode, copper DACs passive, the Cat6 patch cable
    /// `cat6`; none is the old catch-all "aoc" for InfiniBand optics.
    #[test]
    fn cable_types_follow_the_cable_part() {
        #[allow(clippy::unwrap_used)] // the built-in catalog is part of the build
        let catalog = crate::catalog::Catalog::builtin().unwrap();
        let mut design = Design::default();
        for id in [
            "ib-hdr-aoc",
            "ib-ndr-optic",
            "eth-400g-optic",
            "eth-800g-optic",
            "dci-400g-zr",
            "ib-ndr-dac",
            "eth-100g-dac",
            "eth-1g-cat6",
        ] {
            if let Some(p) = catalog.get(id) {
                design.parts.insert(PartId::new(id), p.clone());
            }
        }
        let ib = Medium::InfiniBand(crate::model::IbRate::Ndr);
        let of = |id: &str| cable_type(&design, &ib, 10.0, Some(&PartId::new(id)));
        assert_eq!(of("ib-hdr-aoc"), "aoc");
        assert_eq!(of("ib-ndr-optic"), "mmf-om4");
        assert_eq!(of("eth-400g-optic"), "mmf-om4");
        assert_eq!(of("eth-800g-optic"), "smf-os2");
        assert_eq!(of("dci-400g-zr"), "smf-os2");
        assert_eq!(of("ib-ndr-dac"), "dac-passive");
        assert_eq!(of("eth-100g-dac"), "dac-passive");
        assert_eq!(of("eth-1g-cat6"), "cat6");
    }
}
