//! One set of design rules: every design the editor can make opens again. Random sequences of the app's own edits
//! (the gesture builders the canvas and the inspector use: add a rack, place a device, fill a GPU or NIC slot,
//! cable two ports, move a cable, rail-optimised and full-mesh cabling, set a link's length and cable, notes,
//! rename, move, duplicate, delete, swap a part) go through the undo history as the app applies them; after each
//! step the design is saved with the app's writer and read back with the loader (from text, and from a file
//! through the loader's fast path), and must come back equal.
//!
//! `cargo test --test design_rules` runs 64 sequences of up to 30 edits. A longer run:
//!
//!     PROPTEST_CASES=5000 cargo test --release --test design_rules
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use proptest::prelude::*;
use racksmith::analysis::{FindingCode, analyze};
use racksmith::catalog::Catalog;
use racksmith::edit::{Edit, Gestures, History, SlotKind};
use racksmith::io;
use racksmith::model::part::{Category, PartKind};
use racksmith::model::{Design, DeviceId, LinkId, PartId, PortRef, RackId};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::OnceLock;

fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| Catalog::builtin().unwrap())
}

/// Catalog part ids of a category, in id order.
fn ids_of(category: Category) -> Vec<PartId> {
    catalog()
        .in_category(category)
        .map(|(id, _)| id.clone())
        .collect()
}

/// Parts that mount in a rack (servers, switches, storage, PDUs, patch panels...).
fn mountable() -> Vec<PartId> {
    let mut ids: Vec<PartId> = catalog()
        .parts
        .iter()
        .filter(|(_, p)| p.kind.is_rack_mounted())
        .map(|(id, _)| id.clone())
        .collect();
    ids.sort();
    ids
}

/// One step a user can take, by kind and by indices into what the design holds when it is taken.
#[derive(Debug, Clone)]
enum Step {
    AddRack(usize),
    AddDevice(usize, usize, u16),
    MoveDevice(usize, usize, u16),
    Connect(usize, usize, usize, usize),
    ChangePort(usize, usize, usize),
    RailOptimised(u32),
    FullMesh(u32),
    LinkLength(usize, f64),
    LinkCable(usize, usize),
    Slot(usize, bool, u16, Option<usize>),
    Notes(u8, usize, String),
    RenameDevice(usize, String),
    RackFigures(usize, u16, f64),
    Duplicate(u32),
    Delete(u32, u32, u32),
    Swap(usize, usize),
    Undo,
}

fn step() -> impl Strategy<Value = Step> {
    let i = || 0usize..1000;
    prop_oneof![
        2 => i().prop_map(Step::AddRack),
        6 => (i(), i(), 0u16..50).prop_map(|(p, r, u)| Step::AddDevice(p, r, u)),
        1 => (i(), i(), 0u16..50).prop_map(|(d, r, u)| Step::MoveDevice(d, r, u)),
        6 => (i(), i(), i(), i()).prop_map(|(a, pa, b, pb)| Step::Connect(a, pa, b, pb)),
        1 => (i(), i(), i()).prop_map(|(l, d, p)| Step::ChangePort(l, d, p)),
        1 => any::<u32>().prop_map(Step::RailOptimised),
        1 => any::<u32>().prop_map(Step::FullMesh),
        3 => (i(), prop_oneof![0.1f64..5.0, 5.0f64..2000.0, Just(10.0)]).prop_map(|(l, m)| Step::LinkLength(l, m)),
        2 => (i(), i()).prop_map(|(l, c)| Step::LinkCable(l, c)),
        2 => (i(), any::<bool>(), 0u16..12, prop::option::of(i())).prop_map(|(d, g, s, p)| Step::Slot(d, g, s, p)),
        1 => (0u8..4, i(), "[a-z\n\t é]{0,16}").prop_map(|(w, k, t)| Step::Notes(w, k, t)),
        1 => (i(), "[a-z0-9-]{0,10}").prop_map(|(d, n)| Step::RenameDevice(d, n)),
        1 => (i(), 0u16..70, prop_oneof![0.0f64..40_000.0, Just(0.0)]).prop_map(|(r, h, w)| Step::RackFigures(r, h, w)),
        1 => any::<u32>().prop_map(Step::Duplicate),
        1 => (any::<u32>(), any::<u32>(), any::<u32>()).prop_map(|(d, r, l)| Step::Delete(d, r, l)),
        1 => (i(), i()).prop_map(|(a, b)| Step::Swap(a, b)),
        1 => Just(Step::Undo),
    ]
}

fn nth<K: Copy, V>(map: &std::collections::BTreeMap<K, V>, i: usize) -> Option<K> {
    map.keys().nth(i % map.len().max(1)).copied()
}

fn pick<T: Clone>(list: &[T], i: usize) -> Option<T> {
    list.get(i % list.len().max(1)).cloned()
}

/// The ids whose bit is set in `mask` (bit i % 32 for the i-th).
fn subset<K: Copy + Ord, V>(map: &std::collections::BTreeMap<K, V>, mask: u32) -> BTreeSet<K> {
    map.keys()
        .enumerate()
        .filter(|(i, _)| mask & (1 << (i % 32)) != 0)
        .map(|(_, k)| *k)
        .collect()
}

fn port(design: &Design, d: DeviceId, i: usize) -> Option<PortRef> {
    let ports = design.ports(d);
    let p = ports.get(i % ports.len().max(1))?;
    Some(PortRef::new(d, p.name.clone()))
}

/// The edit the inspector makes when a link's length or cable changes: the link taken out and put back changed,
/// with the cable's spec copied in when the design lacks it (src/app/inspector.rs).
fn inspector_link_edit(
    design: &Design,
    id: LinkId,
    change: impl FnOnce(&mut racksmith::model::Link),
) -> Option<Edit> {
    let mut link = design.links.get(&id)?.clone();
    change(&mut link);
    let mut edits = Vec::new();
    if let Some(p) = &link.cable
        && !design.parts.contains_key(p)
        && let Some(spec) = catalog().parts.get(p)
    {
        edits.push(Edit::SetPart(p.clone(), Some(Box::new(spec.clone()))));
    }
    edits.push(Edit::RemoveLink(id));
    edits.push(Edit::AddLink(id, link));
    Some(Edit::Batch(edits))
}

/// The edit of one step against the design as it stands; None when the step has nothing to act on or the app
/// would refuse it before making an edit.
fn edit_of(design: &Design, step: &Step) -> Option<Edit> {
    let mut g = Gestures::new(design, catalog());
    let edit = match step {
        Step::AddRack(i) => {
            let part = pick(&ids_of(Category::Rack), *i)?;
            g.add_rack(part.as_str()).ok()?.1.edit
        }
        Step::AddDevice(p, r, u) => {
            let part = pick(&mountable(), *p)?;
            g.add_device(part.as_str(), nth(&design.racks, *r)?, *u)
                .ok()?
                .1
                .edit
        }
        Step::MoveDevice(d, r, u) => {
            g.move_device(nth(&design.devices, *d)?, nth(&design.racks, *r)?, *u)
                .ok()?
                .edit
        }
        Step::Connect(a, pa, b, pb) => {
            let a = port(design, nth(&design.devices, *a)?, *pa)?;
            let b = port(design, nth(&design.devices, *b)?, *pb)?;
            g.connect(a, b).ok()?.edit
        }
        Step::ChangePort(l, d, p) => {
            let link = design.links.get(&nth(&design.links, *l)?)?;
            let to = port(design, nth(&design.devices, *d)?, *p)?;
            g.change_port(&link.a.clone(), to).ok()?.edit
        }
        Step::RailOptimised(mask) => g.rail_optimised(&subset(&design.devices, *mask)).ok()?.edit,
        Step::FullMesh(mask) => {
            let chosen = subset(&design.devices, *mask);
            let upper = subset(&design.devices, mask.rotate_left(16));
            g.full_mesh(&chosen, &upper).ok()?.edit
        }
        Step::LinkLength(l, m) => {
            inspector_link_edit(design, nth(&design.links, *l)?, |link| link.length_m = *m)?
        }
        Step::LinkCable(l, c) => {
            let cable = pick(&ids_of(Category::Cable), *c)?;
            inspector_link_edit(design, nth(&design.links, *l)?, |link| {
                link.cable = Some(cable)
            })?
        }
        Step::Slot(d, gpu, slot, part) => {
            let (kind, category) = if *gpu {
                (SlotKind::Gpu, Category::Gpu)
            } else {
                (SlotKind::Nic, Category::Nic)
            };
            let part = match part {
                Some(i) => Some(pick(&ids_of(category), *i)?),
                None => None,
            };
            g.slot(nth(&design.devices, *d)?, kind, *slot, part.as_ref())
                .ok()?
                .edit
        }
        Step::Notes(which, k, text) => match which {
            0 => Edit::SetMeta {
                name: design.name.clone(),
                notes: text.clone(),
            },
            1 => {
                let id = nth(&design.racks, *k)?;
                let mut r = design.racks.get(&id)?.clone();
                r.notes = text.clone();
                Edit::UpdateRack(id, r)
            }
            2 => {
                let id = nth(&design.devices, *k)?;
                let mut d = design.devices.get(&id)?.clone();
                d.notes = text.clone();
                Edit::UpdateDevice(id, d)
            }
            _ => inspector_link_edit(design, nth(&design.links, *k)?, |l| l.notes = text.clone())?,
        },
        Step::RenameDevice(d, name) => {
            let id = nth(&design.devices, *d)?;
            let mut dev = design.devices.get(&id)?.clone();
            dev.name = name.clone();
            Edit::UpdateDevice(id, dev)
        }
        Step::RackFigures(r, h, w) => {
            let id = nth(&design.racks, *r)?;
            let mut rack = design.racks.get(&id)?.clone();
            rack.height_u = *h;
            rack.power_budget_w = *w;
            Edit::UpdateRack(id, rack)
        }
        Step::Duplicate(mask) => g.duplicate(&subset(&design.devices, *mask)).gesture?.edit,
        Step::Delete(d, r, l) => {
            g.delete(
                &subset(&design.devices, *d & 0xF),
                &subset(&design.racks, *r & 0x3),
                &subset(&design.links, *l & 0xFF),
            )?
            .edit
        }
        Step::Swap(from, to) => {
            let used: Vec<PartId> = design.parts.keys().cloned().collect();
            let from = pick(&used, *from)?;
            let category = design.parts.get(&from)?.kind.category();
            let to = pick(&ids_of(category), *to)?;
            racksmith::edit::swap::swap_part(design, catalog(), from.as_str(), to.as_str()).ok()?
        }
        Step::Undo => return None,
    };
    Some(edit)
}

/// Saves with the app's writer and reads back with the loader, from text and from a file.
fn reopens(design: &Design, dir: &Path) -> Result<(), TestCaseError> {
    let text = io::design_to_string(design).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let back = io::design_from_str(&text, Path::new("saved.ron")).map_err(|e| {
        TestCaseError::fail(format!("the editor made a design the loader refuses: {e}"))
    })?;
    prop_assert_eq!(&back, design);
    let path = dir.join("saved.ron");
    io::save(design, &path).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let loaded =
        io::load(&path).map_err(|e| TestCaseError::fail(format!("saved file refused: {e}")))?;
    prop_assert_eq!(&loaded, design);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn every_design_the_editor_makes_opens_again(start in 0usize..2, steps in prop::collection::vec(step(), 1..30)) {
        let dir = tempfile::tempdir().unwrap();
        let mut design = if start == 0 { Design::default() } else { racksmith::samples::sample("dgx-h100-single").unwrap() };
        let mut history = History::default();
        for s in &steps {
            if matches!(s, Step::Undo) {
                history.undo(&mut design);
            } else if let Some(edit) = edit_of(&design, s) {
                let before = design.clone();
                if history.apply(&mut design, "step", edit).is_err() {
                    prop_assert_eq!(&design, &before);
                    continue;
                }
            } else {
                continue;
            }
            reopens(&design, dir.path())?;
        }
    }
}

/// The repro: a 10 m NDR link on a passive copper cable that reaches 2 m. The editor takes the length,
/// the analysis says the cable is too short (pointing at the link), and the saved file opens again.
#[test]
fn a_link_longer_than_its_cable_is_a_finding_and_the_file_opens() {
    let mut design = racksmith::samples::sample("dgx-h100-single").unwrap();
    let (&id, _) = design
        .links
        .iter()
        .find(|(_, l)| {
            l.medium.protocol() == racksmith::model::Protocol::InfiniBand
                && l.medium.gbps() >= 400.0
        })
        .expect("an NDR link");
    let edit = inspector_link_edit(&design, id, |l| {
        l.cable = Some(PartId::new("ib-ndr-dac"));
        l.length_m = 10.0;
    })
    .unwrap();
    History::default()
        .apply(&mut design, "Set link length", edit)
        .unwrap();
    let report = analyze(&design);
    let f = report
        .findings
        .iter()
        .find(|f| f.code == FindingCode::CableReach)
        .expect("a cable-reach finding");
    assert_eq!(f.links, vec![id]);
    assert!(
        f.message
            .contains("is 10 m but cable ib-ndr-dac reaches 2 m"),
        "{}",
        f.message
    );
    let text = io::design_to_string(&design).unwrap();
    assert_eq!(
        io::design_from_str(&text, Path::new("x.ron")).unwrap(),
        design
    );
}

/// Rules the loader holds a file to are refused by the editor with the loader's reason, and change nothing.
#[test]
fn the_editor_refuses_what_the_loader_refuses() {
    let mut design = racksmith::samples::sample("dgx-h100-single").unwrap();
    let before = design.clone();
    let rack: RackId = *design.racks.keys().next().unwrap();
    // A rack taller than 60U.
    let mut r = design.racks[&rack].clone();
    r.height_u = 61;
    let err = Edit::UpdateRack(rack, r).apply(&mut design).unwrap_err();
    assert!(
        err.to_string().contains("impossible height of 61U"),
        "{err}"
    );
    // A power budget of 0 W.
    let mut r = design.racks[&rack].clone();
    r.power_budget_w = 0.0;
    let err = Edit::UpdateRack(rack, r).apply(&mut design).unwrap_err();
    assert!(
        err.to_string()
            .contains("power_budget_w = 0 is out of range"),
        "{err}"
    );
    // An InfiniBand link given an Ethernet cable.
    let (&lid, _) = design
        .links
        .iter()
        .find(|(_, l)| l.medium.protocol() == racksmith::model::Protocol::InfiniBand)
        .unwrap();
    let eth = ids_of(Category::Cable)
        .into_iter()
        .find(|c| matches!(&catalog().parts[c].kind, PartKind::Cable(k) if k.protocol == racksmith::model::Protocol::Ethernet))
        .unwrap();
    let edit = inspector_link_edit(&design, lid, |l| l.cable = Some(eth.clone())).unwrap();
    let err = edit.apply(&mut design).unwrap_err();
    assert!(err.to_string().contains("but its cable"), "{err}");
    // A GPU of the wrong form factor put straight into a slot.
    let (&server, dev) = design
        .devices
        .iter()
        .find(|(_, d)| !d.gpus.is_empty())
        .unwrap();
    let mut d = dev.clone();
    let pcie = ids_of(Category::Gpu)
        .into_iter()
        .find(|g| matches!(&catalog().parts[g].kind, PartKind::Gpu(k) if k.form == racksmith::model::part::FormFactor::Pcie))
        .unwrap();
    let spec = catalog().parts[&pcie].clone();
    d.gpus.insert(0, pcie.clone());
    let err = Edit::Batch(vec![
        Edit::SetPart(pcie.clone(), Some(Box::new(spec))),
        Edit::UpdateDevice(server, d),
    ])
    .apply(&mut design)
    .unwrap_err();
    assert!(err.to_string().contains("takes SXM GPUs"), "{err}");
    // A part still in use cannot be taken out of the design's part table.
    let used = design.devices[&server].part.clone();
    let err = Edit::SetPart(used, None).apply(&mut design).unwrap_err();
    assert!(err.to_string().contains("still used by device"), "{err}");
    assert_eq!(design, before);
}

/// The class the CI's random run found: a twin-port cage runs one medium, so a fibre chosen for one link of a
/// cage moves the cage's other auto link from copper to fibre. The loader re-estimates every flagged link on
/// opening; the editor must leave the design as the loader would, or the file opens as another design. Here: a
/// DGX H100's nic4 recabled to a free switch port (the new link follows the floor: 1.5 m of passive copper), then
/// the inspector puts nic5, which shares nic4's cage, on multimode fibre. nic4's link goes on fibre in the same
/// step, the file opens equal, and one undo puts both back.
#[test]
fn a_cable_chosen_for_one_port_of_a_cage_moves_its_cage_mate_in_the_same_step() {
    let mut design = racksmith::samples::sample("dgx-h100-single").unwrap();
    let mut history = History::default();
    let at = |design: &Design, nic: &str| -> (LinkId, racksmith::model::Link) {
        let (id, l) = design
            .links
            .iter()
            .find(|(_, l)| l.a.port == nic)
            .unwrap_or_else(|| panic!("no link at {nic}"));
        (*id, l.clone())
    };
    let (_, nic4) = at(&design, "nic4/p1");
    let switch = nic4.b.device;
    let used: BTreeSet<String> = design
        .links
        .values()
        .flat_map(|l| [&l.a, &l.b])
        .filter(|p| p.device == switch)
        .map(|p| p.port.to_string())
        .collect();
    let free = design
        .ports(switch)
        .iter()
        .map(|p| p.name.clone())
        .find(|p| !used.contains(p))
        .expect("a free switch port");
    let g = Gestures::new(&design, catalog())
        .change_port(&nic4.a, PortRef::new(switch, free))
        .unwrap();
    history.apply(&mut design, "recable", g.edit).unwrap();
    let (_, moved) = at(&design, "nic4/p1");
    assert!(moved.auto_cable && moved.estimated_length);
    assert_eq!(moved.cable.as_ref().map(|c| c.as_str()), Some("ib-ndr-dac"));
    assert_eq!(
        moved.length_m, 1.5,
        "1.49 m from the floor, ordered at the next stock length"
    );
    let before = design.clone();

    let (nic5_id, _) = at(&design, "nic5/p1");
    let edit = inspector_link_edit(&design, nic5_id, |l| {
        l.cable = Some(PartId::new("ib-ndr-mpo-mm"))
    })
    .unwrap();
    history.apply(&mut design, "cable", edit).unwrap();
    let (_, nic4_after) = at(&design, "nic4/p1");
    assert_eq!(
        nic4_after.cable.as_ref().map(|c| c.as_str()),
        Some("ib-ndr-mpo-mm"),
        "the cage-mate goes on fibre with nic5"
    );
    assert_eq!(
        nic4_after.length_m, 3.0,
        "the fibre's shortest stock length"
    );
    let dir = tempfile::tempdir().unwrap();
    reopens(&design, dir.path()).unwrap();

    history.undo(&mut design);
    assert_eq!(design, before, "one undo puts nic5's cable and nic4's back");
}
