//! Gesture builders: the edits the app's gestures make (add a rack or a device, cable two ports, move a cable to
//! another port, bulk cabling, delete, duplicate and paste, fill a server slot, move a device), built against a
//! `&Design` and the catalog without changing either. Ids come from an [`IdAlloc`] above everything the design
//! has used; applying the edit moves the design's own counter past them. Each builder returns one [`Gesture`]
//! (one undo step) or the reason it is refused, in words for the status line.

use super::{Edit, EditError, IdAlloc};
use crate::catalog::Catalog;
use crate::model::part::{Category, FormFactor, Part, PartKind};
use crate::model::text::count;
use crate::model::{Design, Device, DeviceId, LinkId, Medium, PartId, PortRef, PortRole, RackId};
use std::collections::{BTreeMap, BTreeSet};

/// An edit ready to apply as one undo step, with its label for the Edit menu and the status line.
#[derive(Debug, Clone, PartialEq)]
pub struct Gesture {
    /// "Add rack (rack-42u)", "Connect dgx-01:nic0/p1 – leaf-01:p3", ...
    pub label: String,
    /// The edit (usually a batch).
    pub edit: Edit,
}

/// Copies placed by duplicate or paste: the gesture (None when nothing fitted), the new devices, and why some
/// did not fit.
#[derive(Debug, Clone, PartialEq)]
pub struct Copies {
    /// The edit placing the copies, if any fitted.
    pub gesture: Option<Gesture>,
    /// The copies' ids, in the order of the originals.
    pub devices: Vec<DeviceId>,
    /// Why a copy could not be placed.
    pub refused: Option<String>,
}

/// Which kind of slot of a server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SlotKind {
    /// A GPU slot.
    Gpu,
    /// A NIC slot.
    Nic,
}

impl SlotKind {
    /// "GPU" or "NIC".
    pub fn label(self) -> &'static str {
        match self {
            SlotKind::Gpu => "GPU",
            SlotKind::Nic => "NIC",
        }
    }
}

/// The first name `make(i)` for i = `from`, `from + 1`, ... that `taken` says is free (`fallback` if none is).
/// The one generator behind rack names (R01), device names (srv-01) and copies (dgx-01-2).
pub fn unique_name(
    from: u32,
    make: impl Fn(u32) -> String,
    taken: impl Fn(&str) -> bool,
    fallback: &str,
) -> String {
    (from..from.saturating_add(100_000))
        .map(make)
        .find(|n| !taken(n))
        .unwrap_or_else(|| fallback.to_string())
}

/// A device name not used in the design: `prefix-01`, `prefix-02`, ...
pub fn unique_device_name(design: &Design, prefix: &str) -> String {
    unique_name(
        1,
        |i| format!("{prefix}-{i:02}"),
        |n| design.devices.values().any(|d| d.name == n),
        prefix,
    )
}

/// The name prefix of new devices of a kind.
fn name_prefix(kind: &PartKind) -> &'static str {
    match kind {
        PartKind::Server(_) => "srv",
        PartKind::Switch(_) => "sw",
        PartKind::Storage(_) => "stor",
        PartKind::Pdu(_) => "pdu",
        PartKind::Cdu(_) => "cdu",
        _ => "dev",
    }
}

/// A device's name, or its id when it is gone.
pub fn device_name(design: &Design, d: DeviceId) -> String {
    design
        .devices
        .get(&d)
        .map_or_else(|| d.to_string(), |d| d.name.clone())
}

/// Human text for a port: "dgx-01:nic0/p1".
pub fn port_label(design: &Design, p: &PortRef) -> String {
    format!("{}:{}", device_name(design, p.device), p.port)
}

/// The medium two ports would be cabled with, or why they cannot be.
pub fn link_verdict(design: &Design, a: &PortRef, b: &PortRef) -> Result<Medium, String> {
    if a.device == b.device {
        return Err("both ends are on the same device".into());
    }
    let m = design.common_medium(a, b)?;
    design.check_link(a, b, &m, None)?;
    Ok(m)
}

/// The ports of `device` that could take a cable from `from`, in port order; the first reason when none can.
pub fn compatible_ports(
    design: &Design,
    from: &PortRef,
    device: DeviceId,
) -> Result<Vec<String>, String> {
    if device == from.device {
        return Err("that is the device the cable starts from".into());
    }
    let mut first_reason = None;
    let mut ok = Vec::new();
    for p in design.ports(device) {
        let to = PortRef::new(device, p.name.clone());
        match link_verdict(design, from, &to) {
            Ok(_) => ok.push(p.name),
            Err(why) => {
                first_reason.get_or_insert(why);
            }
        }
    }
    if ok.is_empty() {
        Err(first_reason.unwrap_or_else(|| "it has no network ports".into()))
    } else {
        Ok(ok)
    }
}

/// Cable length estimate from the floor (rack places, units, tray, slack: `model::floor`), before stock rounding; 5 m
/// when the floor cannot tell (the ends in different sites).
pub fn estimate_length_m(design: &Design, a: DeviceId, b: DeviceId) -> f64 {
    let plan = crate::model::FloorPlan::new(design);
    design
        .estimate_length(&plan, a, b)
        .map_or(5.0, |e| e.length_m)
}

/// The cheapest catalog cable for a medium and length (copper when it reaches, else optics), a fibre priced with a
/// transceiver's share at each end (the cheapest of its fibre and rate that reaches; a fibre with none is left
/// out); when none reaches, the longest of that protocol and rate.
pub fn choose_cable(catalog: &Catalog, medium: &Medium, length_m: f64) -> Option<String> {
    let fits: Vec<(&str, f64, f64)> = catalog
        .in_category(Category::Cable)
        .filter_map(|(id, p)| match &p.kind {
            PartKind::Cable(c)
                if c.protocol == medium.protocol() && (c.gbps - medium.gbps()).abs() < 0.5 =>
            {
                let ends = match c.fibre {
                    None => 0.0,
                    Some(fibre) => {
                        2.0 * cheapest_transceiver_share(catalog, medium, fibre, length_m)?
                    }
                };
                Some((id.as_str(), c.max_length_m, p.price_usd + ends))
            }
            _ => None,
        })
        .collect();
    fits.iter()
        .filter(|(_, max, _)| *max >= length_m)
        .min_by(|a, b| a.2.total_cmp(&b.2))
        .or_else(|| fits.iter().max_by(|a, b| a.1.total_cmp(&b.1)))
        .map(|(id, ..)| (*id).to_string())
}

/// The cheapest catalog transceiver's price per link for a fibre of a medium and length (a twin-port one's half).
fn cheapest_transceiver_share(
    catalog: &Catalog,
    medium: &Medium,
    fibre: crate::model::part::Fibre,
    length_m: f64,
) -> Option<f64> {
    catalog
        .in_category(Category::Cable)
        .filter_map(|(_, p)| match &p.kind {
            PartKind::Transceiver(t)
                if t.protocol == medium.protocol()
                    && t.fibre == fibre
                    && (t.port_gbps() - medium.gbps()).abs() < 0.5
                    && t.reach_m >= length_m =>
            {
                Some(p.price_usd / f64::from(t.ports.max(1)))
            }
            _ => None,
        })
        .min_by(f64::total_cmp)
}

/// Whether a GPU part fits a slot form factor; the reason, in plain words, when not ("this slot takes an SXM
/// GPU; NVIDIA L40S is a PCIe card").
pub fn gpu_fits(part: &Part, slot_form: FormFactor) -> Result<(), String> {
    let slot_words = match slot_form {
        FormFactor::Sxm => "an SXM GPU",
        FormFactor::Pcie => "a PCIe GPU card",
    };
    match &part.kind {
        PartKind::Gpu(g) if g.form == slot_form => Ok(()),
        PartKind::Gpu(g) => Err(format!(
            "this slot takes {slot_words}; {} is {}",
            part.name,
            match g.form {
                FormFactor::Sxm => "an SXM module",
                FormFactor::Pcie => "a PCIe card",
            }
        )),
        _ => Err(format!(
            "this slot takes {slot_words}; {} is not a GPU",
            part.name
        )),
    }
}

/// Builds the edits of the app's gestures against a design; see the module documentation.
pub struct Gestures<'a> {
    design: &'a Design,
    catalog: &'a Catalog,
    ids: IdAlloc,
}

impl<'a> Gestures<'a> {
    /// Builders for a design and a catalog.
    pub fn new(design: &'a Design, catalog: &'a Catalog) -> Self {
        Self {
            design,
            catalog,
            ids: IdAlloc::for_design(design),
        }
    }

    fn refused(why: impl Into<String>) -> EditError {
        EditError::Refused(why.into())
    }

    /// A part's spec from the design, or else from the catalog.
    fn spec(&self, id: &PartId) -> Option<&'a Part> {
        self.design
            .parts
            .get(id)
            .or_else(|| self.catalog.parts.get(id))
    }

    /// An empty rack of a catalog rack part at the end of the first row, named R01, R02, ...
    pub fn add_rack(&mut self, part: &str) -> Result<(RackId, Gesture), EditError> {
        let d = self.design;
        let row = d.racks.values().map(|r| r.row).min().unwrap_or(0);
        let slot = d
            .racks
            .values()
            .filter(|r| r.row == row)
            .map(|r| r.slot + 1)
            .max()
            .unwrap_or(0);
        let name = unique_name(
            1,
            |i| format!("R{i:02}"),
            |n| d.racks.values().any(|r| r.name == n),
            "R",
        );
        let (id, edit) = super::rack_edit(d, self.catalog, &mut self.ids, part, &name, row, slot)?;
        Ok((
            id,
            Gesture {
                label: format!("Add rack ({part})"),
                edit,
            },
        ))
    }

    /// A catalog part in a rack at a unit (with the default GPUs and NICs of integrated systems), named after its
    /// kind. Refused when it overlaps or falls outside the rack; a power budget is not a reason to refuse.
    pub fn add_device(
        &mut self,
        part: &str,
        rack: RackId,
        position_u: u16,
    ) -> Result<(DeviceId, Gesture), EditError> {
        let spec = self
            .catalog
            .get(part)
            .ok_or_else(|| EditError::Missing(format!("catalog part \"{part}\"")))?;
        let name = unique_device_name(self.design, name_prefix(&spec.kind));
        self.design
            .check_mount(rack, position_u, spec.height_u, &[])
            .map_err(Self::refused)?;
        let (id, edit) = super::device_edit(
            self.design,
            self.catalog,
            &mut self.ids,
            part,
            &name,
            rack,
            position_u,
        )?;
        Ok((
            id,
            Gesture {
                label: format!("Add {part}"),
                edit,
            },
        ))
    }

    /// Moves a device to a unit of a rack (refused when it would overlap or fall outside).
    pub fn move_device(
        &self,
        device: DeviceId,
        rack: RackId,
        position_u: u16,
    ) -> Result<Gesture, EditError> {
        let d = self
            .design
            .devices
            .get(&device)
            .ok_or_else(|| EditError::Missing(device.to_string()))?;
        let h = self.design.device_height_u(d);
        self.design
            .check_mount(rack, position_u, h, &[device])
            .map_err(|why| Self::refused(format!("Cannot move {}: {why}", d.name)))?;
        let rack_name = self
            .design
            .racks
            .get(&rack)
            .map_or("?", |r| r.name.as_str());
        Ok(Gesture {
            label: format!("Move {} to {rack_name} U{position_u}", d.name),
            edit: Edit::UpdateDevice(
                device,
                Device {
                    rack,
                    position_u,
                    ..d.clone()
                },
            ),
        })
    }

    /// The link edit for two ports (not checked against links made earlier in the same gesture).
    fn link(&mut self, a: PortRef, b: PortRef) -> Result<Edit, EditError> {
        let medium = link_verdict(self.design, &a, &b).map_err(Self::refused)?;
        let length_m = estimate_length_m(self.design, a.device, b.device);
        let cable = choose_cable(self.catalog, &medium, length_m);
        let id = LinkId(self.ids.alloc());
        // The link follows the floor: its length and medium are estimates, set when it is added and again when
        // its racks or devices move.
        super::link_batch(
            self.design,
            self.catalog,
            id,
            super::NewLink {
                a,
                b,
                medium,
                length_m,
                cable: cable.as_deref(),
                estimated: true,
            },
        )
    }

    /// Cables two ports with the fastest common medium and the cheapest catalog cable that reaches.
    pub fn connect(&mut self, a: PortRef, b: PortRef) -> Result<Gesture, EditError> {
        let label = format!(
            "Connect {} – {}",
            port_label(self.design, &a),
            port_label(self.design, &b)
        );
        let edit = self.link(a, b)?;
        Ok(Gesture { label, edit })
    }

    /// Moves the cable at `from` to port `to`: the old link removed and the new one added, as one step. The port
    /// the old link frees counts as free.
    pub fn change_port(&mut self, from: &PortRef, to: PortRef) -> Result<Gesture, EditError> {
        let design = self.design;
        let link = design
            .link_at(from)
            .ok_or_else(|| Self::refused(format!("{} is not cabled", port_label(design, from))))?;
        let mut without = design.clone();
        Edit::RemoveLink(link).apply(&mut without)?;
        let label = format!(
            "Move cable {} to {}",
            port_label(design, from),
            port_label(design, &to)
        );
        let mut inner = Gestures {
            design: &without,
            catalog: self.catalog,
            ids: IdAlloc {
                next: self.ids.next.max(without.next_id),
            },
        };
        let add = inner.link(from.clone(), to)?;
        self.ids.next = inner.ids.next;
        Ok(Gesture {
            label,
            edit: Edit::Batch(vec![Edit::RemoveLink(link), add]),
        })
    }

    /// Free ports of a device in port order, skipping ports already taken in this gesture.
    fn free_ports(&self, d: DeviceId, taken: &BTreeSet<PortRef>) -> Vec<PortRef> {
        let cabled = self.design.links_by_port(d);
        self.design
            .ports(d)
            .into_iter()
            .filter(|p| !cabled.contains_key(p.name.as_str()))
            .map(|p| PortRef::new(d, p.name))
            .filter(|p| !taken.contains(p))
            .collect()
    }

    fn is_kind(&self, d: DeviceId, f: impl Fn(&PartKind) -> bool) -> bool {
        self.design
            .devices
            .get(&d)
            .and_then(|dev| self.design.parts.get(&dev.part))
            .is_some_and(|p| f(&p.kind))
    }

    fn by_name(&self, mut ids: Vec<DeviceId>) -> Vec<DeviceId> {
        ids.sort_by_key(|d| (device_name(self.design, *d), *d));
        ids
    }

    /// Links for pairs of ports as one batch; every pair is checked like a single connect.
    fn batch(&mut self, pairs: Vec<(PortRef, PortRef)>) -> Result<Edit, EditError> {
        let mut edits = Vec::new();
        for (a, b) in pairs {
            edits.push(self.link(a, b)?);
        }
        Ok(Edit::Batch(edits))
    }

    /// NIC i of every server among `devices` to leaf i (mod the number of leaves) among its switches, leaf
    /// ports in order. One batch edit.
    pub fn rail_optimised(&mut self, devices: &BTreeSet<DeviceId>) -> Result<Gesture, EditError> {
        let design = self.design;
        let pick = |f: fn(&PartKind) -> bool| -> Vec<DeviceId> {
            devices
                .iter()
                .copied()
                .filter(|d| self.is_kind(*d, f))
                .collect()
        };
        let servers = self.by_name(pick(|k| matches!(k, PartKind::Server(_))));
        let leaves = self.by_name(pick(|k| matches!(k, PartKind::Switch(_))));
        if servers.is_empty() || leaves.is_empty() {
            return Err(Self::refused(
                "Rail-optimised cabling needs selected servers and selected leaf switches",
            ));
        }
        let mut taken = BTreeSet::new();
        let mut pairs = Vec::new();
        for s in &servers {
            let cabled = design.links_by_port(*s);
            let compute: Vec<PortRef> = design
                .ports(*s)
                .into_iter()
                .filter(|p| p.role == PortRole::Compute && !cabled.contains_key(p.name.as_str()))
                .map(|p| PortRef::new(*s, p.name))
                .collect();
            let mut slots: Vec<u16> = compute.iter().filter_map(PortRef::nic_slot).collect();
            slots.dedup();
            for (i, slot) in slots.iter().enumerate() {
                let Some(leaf) = leaves.get(i % leaves.len()) else {
                    continue;
                };
                for port in compute.iter().filter(|p| p.nic_slot() == Some(*slot)) {
                    let target = self
                        .free_ports(*leaf, &taken)
                        .into_iter()
                        .find(|t| link_verdict(design, port, t).is_ok())
                        .ok_or_else(|| {
                            Self::refused(format!(
                                "{} has no free port compatible with {}",
                                device_name(design, *leaf),
                                port_label(design, port)
                            ))
                        })?;
                    taken.insert(target.clone());
                    pairs.push((port.clone(), target));
                }
            }
        }
        if pairs.is_empty() {
            return Err(Self::refused(
                "No free compute NIC ports on the selected servers",
            ));
        }
        let n = pairs.len();
        let edit = self.batch(pairs)?;
        Ok(Gesture {
            label: format!(
                "Rail-optimised cabling: {}, {} to {}",
                count(n, "link", "links"),
                count(servers.len(), "server", "servers"),
                count(leaves.len(), "leaf", "leaves")
            ),
            edit,
        })
    }

    /// One link between every leaf and every spine among the switches of `devices`. Which is which comes from the
    /// topology's tiers, never from names: a spine is in `upper_tier` (the caller's tiers of 2 and above), in tier 2
    /// or above of the design's topology, or reaches no endpoint yet (a spine not cabled) while another selected
    /// switch is a leaf (tier 1). Leaves use their highest free ports (low ports face servers), spines their lowest.
    pub fn full_mesh(
        &mut self,
        devices: &BTreeSet<DeviceId>,
        upper_tier: &BTreeSet<DeviceId>,
    ) -> Result<Gesture, EditError> {
        let design = self.design;
        let switches: Vec<DeviceId> = devices
            .iter()
            .copied()
            .filter(|d| self.is_kind(*d, |k| matches!(k, PartKind::Switch(_))))
            .collect();
        let topology = crate::topology::Topology::build(design);
        let any_leaf = switches.iter().any(|d| topology.tier(*d) == Some(1));
        let is_spine = |d: DeviceId| {
            upper_tier.contains(&d)
                || match topology.tier(d) {
                    Some(t) => t >= 2,
                    None => any_leaf,
                }
        };
        let spines = self.by_name(switches.iter().copied().filter(|d| is_spine(*d)).collect());
        let leaves = self.by_name(switches.iter().copied().filter(|d| !is_spine(*d)).collect());
        if spines.is_empty() || leaves.is_empty() {
            return Err(Self::refused(
                "Full mesh needs selected leaves (switches cabled to servers) and spines (tier 2, or not cabled yet)",
            ));
        }
        let mut taken = BTreeSet::new();
        let mut pairs = Vec::new();
        for leaf in &leaves {
            for spine in &spines {
                let mut lf = self.free_ports(*leaf, &taken);
                lf.reverse();
                let sp = self.free_ports(*spine, &taken);
                let found = lf.iter().find_map(|a| {
                    sp.iter()
                        .find(|b| link_verdict(design, a, b).is_ok())
                        .map(|b| (a.clone(), b.clone()))
                });
                let Some((a, b)) = found else {
                    return Err(Self::refused(format!(
                        "no free compatible ports between {} and {}",
                        device_name(design, *leaf),
                        device_name(design, *spine)
                    )));
                };
                taken.insert(a.clone());
                taken.insert(b.clone());
                pairs.push((a, b));
            }
        }
        let n = pairs.len();
        let edit = self.batch(pairs)?;
        Ok(Gesture {
            label: format!(
                "Full mesh: {}, {} × {}",
                count(n, "link", "links"),
                count(leaves.len(), "leaf", "leaves"),
                count(spines.len(), "spine", "spines")
            ),
            edit,
        })
    }

    /// Removes devices, racks (with what they hold) and links; None when none of them exists.
    pub fn delete(
        &self,
        devices: &BTreeSet<DeviceId>,
        racks: &BTreeSet<RackId>,
        links: &BTreeSet<LinkId>,
    ) -> Option<Gesture> {
        let design = self.design;
        let mut edits: Vec<Edit> = links
            .iter()
            .filter(|l| design.links.contains_key(l))
            .map(|l| Edit::RemoveLink(*l))
            .collect();
        // Devices in a rack that is also removed go with the rack.
        edits.extend(
            devices
                .iter()
                .filter(|d| {
                    design
                        .devices
                        .get(d)
                        .is_some_and(|dev| !racks.contains(&dev.rack))
                })
                .map(|d| Edit::RemoveDevice(*d)),
        );
        edits.extend(
            racks
                .iter()
                .filter(|r| design.racks.contains_key(r))
                .map(|r| Edit::RemoveRack(*r)),
        );
        let removed = Removed::by_delete(design, devices, racks, links);
        (!edits.is_empty()).then(|| Gesture {
            label: delete_label(removed.devices, removed.racks, removed.links),
            edit: Edit::Batch(edits),
        })
    }

    /// Copies of the devices at the first free units of their own racks.
    pub fn duplicate(&mut self, devices: &BTreeSet<DeviceId>) -> Copies {
        let originals: Vec<Device> = devices
            .iter()
            .filter_map(|d| self.design.devices.get(d).cloned())
            .collect();
        let mut copies = self.copies(&originals, &BTreeMap::new(), None);
        if let Some(g) = copies.gesture.as_mut() {
            g.label = format!(
                "Duplicate {}",
                count(copies.devices.len(), "device", "devices")
            );
        }
        copies
    }

    /// Copies of devices (with the specs of the parts they use, for pasting into another design) at the first
    /// free units of `rack`, or of each device's own rack when `rack` is None (the first rack when that one is
    /// gone). Copies are named `name-2`, `name-3`, ...
    pub fn copies(
        &mut self,
        devices: &[Device],
        parts: &BTreeMap<PartId, Part>,
        rack: Option<RackId>,
    ) -> Copies {
        let design = self.design;
        let mut scratch = design.clone();
        let mut edits = Vec::new();
        let mut ids = Vec::new();
        let mut refused = None;
        for (id, part) in parts {
            if !scratch.parts.contains_key(id) {
                let e = Edit::SetPart(id.clone(), Some(Box::new(part.clone())));
                if e.clone().apply(&mut scratch).is_ok() {
                    edits.push(e);
                }
            }
        }
        for dev in devices {
            let target = rack
                .filter(|r| design.racks.contains_key(r))
                .or_else(|| design.racks.contains_key(&dev.rack).then_some(dev.rack))
                .or_else(|| design.racks.keys().next().copied());
            let Some(target) = target else {
                refused = Some("Add a rack first: there is nowhere to put the copy".to_string());
                break;
            };
            let h = scratch.device_height_u(dev);
            let Some(u) = scratch.first_free_u(target, h) else {
                let name = design.racks.get(&target).map_or("?", |r| r.name.as_str());
                refused = Some(format!(
                    "No free {h}U space in rack {name} for a copy of {}",
                    dev.name
                ));
                continue;
            };
            let name = unique_name(
                2,
                |i| format!("{}-{i}", dev.name),
                |n| scratch.devices.values().any(|x| x.name == n),
                &dev.name,
            );
            let id = DeviceId(self.ids.alloc());
            let edit = Edit::AddDevice(
                id,
                Device {
                    name,
                    rack: target,
                    position_u: u,
                    ..dev.clone()
                },
            );
            if edit.clone().apply(&mut scratch).is_ok() {
                edits.push(edit);
                ids.push(id);
            }
        }
        let gesture = (!ids.is_empty()).then(|| Gesture {
            label: format!("Paste {}", count(ids.len(), "device", "devices")),
            edit: Edit::Batch(edits),
        });
        Copies {
            gesture,
            devices: ids,
            refused,
        }
    }

    /// Puts `part` (or nothing) in a GPU or NIC slot of a server, copying the part spec into the design. A GPU
    /// of the wrong form factor, or a part of the wrong kind, is refused with the reason.
    pub fn slot(
        &self,
        id: DeviceId,
        kind: SlotKind,
        slot: u16,
        part: Option<&PartId>,
    ) -> Result<Gesture, EditError> {
        let design = self.design;
        let d = design
            .devices
            .get(&id)
            .ok_or_else(|| EditError::Missing(id.to_string()))?;
        let server = design
            .parts
            .get(&d.part)
            .and_then(|p| match &p.kind {
                PartKind::Server(s) => Some(s),
                _ => None,
            })
            .ok_or_else(|| Self::refused(format!("{} is not a server", d.name)))?;
        let mut edits = Vec::new();
        let mut new = d.clone();
        let map = match kind {
            SlotKind::Gpu => &mut new.gpus,
            SlotKind::Nic => &mut new.nics,
        };
        let label = match part {
            Some(pid) => {
                let spec = self
                    .spec(pid)
                    .ok_or_else(|| EditError::Missing(format!("part {pid}")))?;
                match kind {
                    SlotKind::Gpu => {
                        let form = server
                            .gpu_slots
                            .get(usize::from(slot))
                            .map(|s| s.form)
                            .ok_or_else(|| {
                                Self::refused(format!("{} has no GPU slot {slot}", d.name))
                            })?;
                        gpu_fits(spec, form).map_err(Self::refused)?;
                    }
                    SlotKind::Nic => {
                        if !matches!(spec.kind, PartKind::Nic(_)) {
                            return Err(Self::refused(format!(
                                "this slot takes a NIC; {} is not a NIC",
                                spec.name
                            )));
                        }
                        if server.nic_slots.get(usize::from(slot)).is_none() {
                            return Err(Self::refused(format!(
                                "{} has no NIC slot {slot}",
                                d.name
                            )));
                        }
                    }
                }
                if !design.parts.contains_key(pid) {
                    edits.push(Edit::SetPart(pid.clone(), Some(Box::new(spec.clone()))));
                }
                map.insert(slot, pid.clone());
                format!("Put {pid} in {} slot {slot} of {}", kind.label(), d.name)
            }
            None => {
                map.remove(&slot);
                format!("Clear {} slot {slot} of {}", kind.label(), d.name)
            }
        };
        edits.push(Edit::UpdateDevice(id, new));
        Ok(Gesture {
            label,
            edit: Edit::Batch(edits),
        })
    }
}

/// What a delete takes away in all: the racks, every device selected or in a removed rack, and every link selected
/// or attached to a removed device (one count for the question before and the label after, so neither reads
/// "0 links" when 64 cables go with their switch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Removed {
    /// Racks that exist among those selected.
    pub racks: usize,
    /// Devices selected or in a selected rack.
    pub devices: usize,
    /// Links selected or with an end on a removed device.
    pub links: usize,
}

impl Removed {
    /// Counts what deleting `devices`, `racks` and `links` from `design` removes.
    pub fn by_delete(
        design: &Design,
        devices: &BTreeSet<DeviceId>,
        racks: &BTreeSet<RackId>,
        links: &BTreeSet<LinkId>,
    ) -> Removed {
        let gone: BTreeSet<DeviceId> = design
            .devices
            .iter()
            .filter(|(id, d)| devices.contains(id) || racks.contains(&d.rack))
            .map(|(id, _)| *id)
            .collect();
        Removed {
            racks: racks
                .iter()
                .filter(|r| design.racks.contains_key(r))
                .count(),
            devices: gone.len(),
            links: design
                .links
                .iter()
                .filter(|(id, l)| {
                    links.contains(id) || gone.contains(&l.a.device) || gone.contains(&l.b.device)
                })
                .count(),
        }
    }
}

/// "Delete 1 rack", "Delete 2 devices and 3 links": what a delete removes, each kind named only when there is one.
fn delete_label(devices: usize, racks: usize, links: usize) -> String {
    let parts: Vec<String> = [
        (devices, "device", "devices"),
        (racks, "rack", "racks"),
        (links, "link", "links"),
    ]
    .into_iter()
    .filter(|(n, ..)| *n > 0)
    .map(|(n, one, many)| count(n, one, many))
    .collect();
    match parts.as_slice() {
        [] => "Delete".to_string(),
        [one] => format!("Delete {one}"),
        [rest @ .., last] => format!("Delete {} and {last}", rest.join(", ")),
    }
}

/// Whether a device of height `h` (drawing `added_power_w`) may go at unit `u` of a rack whose devices already
/// draw `rack_power_w` (without the device when it is being moved within the rack): Ok with a warning when it
/// takes the rack over its power budget (allowed), Err with the reason when it overlaps or falls outside.
pub fn check_placement(
    design: &Design,
    rack: RackId,
    u: u16,
    h: u16,
    moving: Option<DeviceId>,
    added_power_w: f64,
    rack_power_w: f64,
) -> Result<Option<String>, String> {
    let ignore: Vec<DeviceId> = moving.into_iter().collect();
    design.check_mount(rack, u, h, &ignore)?;
    let Some(r) = design.racks.get(&rack) else {
        return Err(format!("{rack} does not exist"));
    };
    let same_rack = moving
        .and_then(|m| design.devices.get(&m))
        .is_some_and(|d| d.rack == rack);
    if same_rack {
        return Ok(None);
    }
    let total = rack_power_w + added_power_w;
    if total > r.power_budget_w {
        return Ok(Some(format!(
            "over the power budget of {}: {:.1} kW of {:.1} kW",
            r.name,
            total / 1000.0,
            r.power_budget_w / 1000.0
        )));
    }
    Ok(None)
}

#[cfg(test)]
mod tests;
