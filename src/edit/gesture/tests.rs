//! Gestures on small designs built here: each builds the edits a user's drag or click should, checked against the
//! design it leaves.

use super::*;
use crate::model::IbRate;

fn catalog() -> Catalog {
    Catalog::builtin().unwrap()
}

/// A design with one empty rack, built through the gestures themselves.
fn with_rack(c: &Catalog) -> (Design, RackId) {
    let mut d = Design::default();
    let (rack, g) = Gestures::new(&d, c).add_rack("rack-42u").unwrap();
    g.edit.apply(&mut d).unwrap();
    (d, rack)
}

fn add(d: &mut Design, c: &Catalog, part: &str, rack: RackId, u: u16) -> DeviceId {
    let (id, g) = Gestures::new(d, c).add_device(part, rack, u).unwrap();
    g.edit.apply(d).unwrap();
    id
}

#[test]
fn racks_and_devices_get_unique_names_and_fresh_ids() {
    let c = catalog();
    let (mut d, r1) = with_rack(&c);
    let (r2, g) = Gestures::new(&d, &c).add_rack("rack-48u").unwrap();
    g.edit.apply(&mut d).unwrap();
    assert_eq!(d.racks[&r1].name, "R01");
    assert_eq!(d.racks[&r2].name, "R02");
    assert_eq!(d.racks[&r2].slot, 1);
    let a = add(&mut d, &c, "dgx-h100", r1, 1);
    let b = add(&mut d, &c, "dgx-h100", r1, 9);
    assert_ne!(a, b);
    assert_eq!(d.devices[&a].name, "srv-01");
    assert_eq!(d.devices[&b].name, "srv-02");
    // The integrated system comes with its GPUs.
    assert_eq!(d.devices[&a].gpus.len(), 8);
}

#[test]
fn an_overlap_is_refused_and_the_design_untouched() {
    let c = catalog();
    let (mut d, rack) = with_rack(&c);
    add(&mut d, &c, "dgx-h100", rack, 1);
    let before = d.clone();
    let err = Gestures::new(&d, &c)
        .add_device("dgx-h100", rack, 4)
        .unwrap_err();
    assert!(matches!(err, EditError::Refused(_)), "{err}");
    assert_eq!(d, before);
}

#[test]
fn over_budget_is_a_warning_not_a_refusal() {
    let c = catalog();
    let (d, rack) = with_rack(&c);
    let budget = d.racks[&rack].power_budget_w;
    assert_eq!(check_placement(&d, rack, 1, 8, None, 1000.0, 0.0), Ok(None));
    let w = check_placement(&d, rack, 1, 8, None, budget + 1.0, 0.0).unwrap();
    assert!(w.unwrap().contains("over the power budget"));
    assert!(check_placement(&d, rack, 40, 8, None, 0.0, 0.0).is_err());
}

#[test]
fn connect_picks_the_medium_and_a_cable_that_reaches() {
    let c = catalog();
    let (mut d, rack) = with_rack(&c);
    let a = add(&mut d, &c, "qm9700", rack, 30);
    let b = add(&mut d, &c, "qm9700", rack, 31);
    let g = Gestures::new(&d, &c)
        .connect(PortRef::new(a, "p1"), PortRef::new(b, "p1"))
        .unwrap();
    g.edit.apply(&mut d).unwrap();
    let link = d.links.values().next().unwrap();
    assert_eq!(link.medium, Medium::InfiniBand(IbRate::Ndr));
    // Same rack, one unit apart: 44.45 mm and no service loop on the default floor, ordered as a 0.5 m DAC, an
    // estimate that follows the floor.
    assert_eq!(link.length_m, 0.5);
    assert_eq!(link.cable.as_ref().map(PartId::as_str), Some("ib-ndr-dac"));
    assert!(link.estimated_length && link.auto_cable);
    // The port is taken now: a second cable from it is refused with the reason.
    let err = Gestures::new(&d, &c)
        .connect(PortRef::new(a, "p1"), PortRef::new(b, "p2"))
        .unwrap_err();
    assert!(err.to_string().contains("already cabled"), "{err}");
}

#[test]
fn full_mesh_tells_leaves_from_spines_by_tier_not_by_name() {
    let c = catalog();
    let (mut d, rack) = with_rack(&c);
    let dgx = add(&mut d, &c, "dgx-h100", rack, 1);
    let leaf = add(&mut d, &c, "qm9700", rack, 30);
    let (a, b) = (
        add(&mut d, &c, "qm9700", rack, 31),
        add(&mut d, &c, "qm9700", rack, 32),
    );
    // No switch reaches a server yet: no tier tells leaves from spines, and names are not asked.
    let all: BTreeSet<DeviceId> = [leaf, a, b].into();
    assert!(
        Gestures::new(&d, &c)
            .full_mesh(&all, &BTreeSet::new())
            .is_err()
    );
    // The leaf reaches a server (tier 1); the two switches above it reach nothing yet, so they are spines,
    // whatever they are called ("sw-..." here, never "spine").
    let g = Gestures::new(&d, &c)
        .connect(PortRef::new(dgx, "nic0/p1"), PortRef::new(leaf, "p1"))
        .unwrap();
    g.edit.apply(&mut d).unwrap();
    assert!(d.devices.values().all(|x| !x.name.contains("spine")));
    let g = Gestures::new(&d, &c)
        .full_mesh(&all, &BTreeSet::new())
        .unwrap();
    g.edit.apply(&mut d).unwrap();
    let mut pairs: Vec<(DeviceId, DeviceId)> = d
        .links
        .values()
        .map(|l| (l.a.device.min(l.b.device), l.a.device.max(l.b.device)))
        .collect();
    pairs.sort_unstable();
    assert_eq!(pairs, [(dgx, leaf), (leaf, a), (leaf, b)]);
}

#[test]
fn changing_the_port_is_one_step_that_undoes() {
    let c = catalog();
    let (mut d, rack) = with_rack(&c);
    let a = add(&mut d, &c, "qm9700", rack, 30);
    let b = add(&mut d, &c, "qm9700", rack, 31);
    let from = PortRef::new(a, "p1");
    let g = Gestures::new(&d, &c)
        .connect(from.clone(), PortRef::new(b, "p1"))
        .unwrap();
    g.edit.apply(&mut d).unwrap();
    let before = d.clone();
    let g = Gestures::new(&d, &c)
        .change_port(&from, PortRef::new(b, "p5"))
        .unwrap();
    let inverse = g.edit.apply(&mut d).unwrap();
    let l = &d.links[&d.link_at(&from).unwrap()];
    assert_eq!(l.b, PortRef::new(b, "p5"));
    assert_eq!(d.links.len(), 1);
    inverse.apply(&mut d).unwrap();
    assert_eq!(d.links, before.links);
}

#[test]
fn compatible_ports_come_in_port_order_or_say_why_not() {
    let c = catalog();
    let (mut d, rack) = with_rack(&c);
    let a = add(&mut d, &c, "qm9700", rack, 30);
    let b = add(&mut d, &c, "qm9700", rack, 31);
    let ports = compatible_ports(&d, &PortRef::new(a, "p1"), b).unwrap();
    assert_eq!(ports.first().map(String::as_str), Some("p1"));
    let err = compatible_ports(&d, &PortRef::new(a, "p1"), a).unwrap_err();
    assert!(err.contains("starts from"), "{err}");
}

#[test]
fn slots_refuse_the_wrong_part_in_plain_words() {
    let c = catalog();
    let (mut d, rack) = with_rack(&c);
    let s = add(&mut d, &c, "pcie-gpu-4u", rack, 1);
    let g = Gestures::new(&d, &c);
    // A PCIe L40S fits the PCIe server's slot.
    assert!(
        g.slot(s, SlotKind::Gpu, 0, Some(&PartId::new("l40s")))
            .is_ok()
    );
    // A GPU in a NIC slot is refused with a reason.
    let err = g
        .slot(s, SlotKind::Nic, 0, Some(&PartId::new("l40s")))
        .unwrap_err();
    assert!(err.to_string().contains("takes a NIC"), "{err}");
    // An SXM GPU in a PCIe slot: the reason names both form factors.
    let sxm = c
        .parts
        .iter()
        .find(|(_, p)| matches!(&p.kind, PartKind::Gpu(g) if g.form == FormFactor::Sxm))
        .map(|(id, _)| id.clone())
        .unwrap();
    let err = g.slot(s, SlotKind::Gpu, 0, Some(&sxm)).unwrap_err();
    let why = err.to_string();
    assert!(why.contains("this slot takes a PCIe GPU card"), "{why}");
    assert!(why.contains("is an SXM module"), "{why}");
}

#[test]
fn a_pcie_gpu_is_refused_in_an_sxm_slot_and_a_fitting_one_goes_in_and_out() {
    let c = catalog();
    let (mut d, rack) = with_rack(&c);
    let server = add(&mut d, &c, "hgx-h100-8gpu", rack, 1);
    let err = Gestures::new(&d, &c)
        .slot(server, SlotKind::Gpu, 0, Some(&PartId::new("h100-pcie")))
        .unwrap_err();
    assert!(err.to_string().contains("takes an SXM GPU"), "{err}");
    let g = Gestures::new(&d, &c)
        .slot(server, SlotKind::Gpu, 0, Some(&PartId::new("h100-sxm")))
        .unwrap();
    g.edit.apply(&mut d).unwrap();
    assert_eq!(d.devices[&server].gpus[&0], PartId::new("h100-sxm"));
    let g = Gestures::new(&d, &c)
        .slot(server, SlotKind::Gpu, 0, None)
        .unwrap();
    g.edit.apply(&mut d).unwrap();
    assert!(!d.devices[&server].gpus.contains_key(&0));
}

#[test]
fn copies_take_the_first_free_units_and_new_names() {
    let c = catalog();
    let (mut d, rack) = with_rack(&c);
    let a = add(&mut d, &c, "dgx-h100", rack, 1);
    let copies = Gestures::new(&d, &c).duplicate(&[a].into());
    let g = copies.gesture.unwrap();
    assert_eq!(g.label, "Duplicate 1 device");
    g.edit.apply(&mut d).unwrap();
    let copy = &d.devices[&copies.devices[0]];
    assert_eq!(copy.name, "srv-01-2");
    assert_eq!(copy.position_u, 9);
}

#[test]
fn delete_takes_devices_with_their_rack() {
    let c = catalog();
    let (mut d, rack) = with_rack(&c);
    let a = add(&mut d, &c, "dgx-h100", rack, 1);
    let g = Gestures::new(&d, &c)
        .delete(&[a].into(), &[rack].into(), &BTreeSet::new())
        .unwrap();
    g.edit.apply(&mut d).unwrap();
    assert!(d.racks.is_empty() && d.devices.is_empty());
    assert!(
        Gestures::new(&d, &c)
            .delete(&BTreeSet::new(), &BTreeSet::new(), &BTreeSet::new())
            .is_none()
    );
}

#[test]
fn cables_follow_protocol_rate_and_length() {
    let c = catalog();
    let ndr = Medium::InfiniBand(IbRate::Ndr);
    // In a rack a DAC reaches; across racks it takes optics: multimode fibre ($75) and half a twin-port SR8
    // ($1,000 / 2) at each end, $1,075, under the $1,700 kit.
    assert_eq!(choose_cable(&c, &ndr, 2.0).as_deref(), Some("ib-ndr-dac"));
    assert_eq!(
        choose_cable(&c, &ndr, 20.0).as_deref(),
        Some("ib-ndr-mpo-mm")
    );
    // Past multimode's 50 m: single-mode fibre ($110 + 2 x $650).
    assert_eq!(
        choose_cable(&c, &ndr, 120.0).as_deref(),
        Some("ib-ndr-mpo-sm")
    );
    assert_eq!(
        choose_cable(&c, &Medium::InfiniBand(IbRate::Hdr), 20.0).as_deref(),
        Some("ib-hdr-aoc")
    );
    assert_eq!(
        choose_cable(&c, &Medium::Ethernet(400), 5.0).as_deref(),
        Some("eth-400g-optic")
    );
    assert_eq!(
        choose_cable(&c, &Medium::Ethernet(100), 2.0).as_deref(),
        Some("eth-100g-dac")
    );
}

#[test]
fn unique_names_skip_what_is_taken() {
    let taken = ["R01", "R02"];
    let n = unique_name(1, |i| format!("R{i:02}"), |n| taken.contains(&n), "R");
    assert_eq!(n, "R03");
}

#[test]
fn gesture_labels_count_in_words() {
    // Issue 35: "Delete 0 device(s), 1 rack(s)" read as a riddle; each kind is named only when there is one.
    assert_eq!(delete_label(0, 1, 0), "Delete 1 rack");
    assert_eq!(delete_label(2, 0, 3), "Delete 2 devices and 3 links");
    assert_eq!(delete_label(1, 2, 1), "Delete 1 device, 2 racks and 1 link");
    let c = catalog();
    let (mut d, rack) = with_rack(&c);
    add(&mut d, &c, "qm9700", rack, 10);
    let g = Gestures::new(&d, &c)
        .delete(&BTreeSet::new(), &BTreeSet::from([rack]), &BTreeSet::new())
        .unwrap();
    // The switch goes with its rack, and the label says so.
    assert_eq!(g.label, "Delete 1 device and 1 rack");
}

#[test]
fn a_delete_counts_the_cables_that_go_with_a_device() {
    // Issue 45: "0 link(s)" after deleting a switch that took 64 cables with it. Two switches in one rack, three
    // cables between them: deleting one switch removes the three cables, and both the label and the count say 3.
    let c = catalog();
    let (mut d, rack) = with_rack(&c);
    let a = add(&mut d, &c, "qm9700", rack, 10);
    let b = add(&mut d, &c, "qm9700", rack, 12);
    for i in 1..=3 {
        let port = format!("p{i}");
        let g = Gestures::new(&d, &c)
            .connect(PortRef::new(a, &port), PortRef::new(b, &port))
            .unwrap();
        g.edit.apply(&mut d).unwrap();
    }
    let only_a = BTreeSet::from([a]);
    let n = Removed::by_delete(&d, &only_a, &BTreeSet::new(), &BTreeSet::new());
    assert_eq!((n.devices, n.racks, n.links), (1, 0, 3));
    let g = Gestures::new(&d, &c)
        .delete(&only_a, &BTreeSet::new(), &BTreeSet::new())
        .unwrap();
    assert_eq!(g.label, "Delete 1 device and 3 links");
}
