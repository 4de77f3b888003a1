//! Cages and breakouts (issue 37, part 4): a switch's ports run one of their part's breakout modes, declared on the
//! device; the ports of a cage run one mode; a switch runs no more logical ports than its part's cap; a splitter's
//! legs run at its rate; a pinned fibre needs transceivers that fit the cage's form and power class. Each rule is
//! refused the same way by the editor and by the loader (with the line and column), from the sources: NVIDIA QM97xx
//! user manual (Interfaces: 2 logical ports per OSFP cage, Class 8 17 W), NVIDIA SN5000 user manual (Data
//! Interfaces: SN5600 64x 800G, 128x 400G or 256x 200G, 18 W per port), NVIDIA LinkX MCP7Y00 and MCP7Y50 splitters.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::analysis::{FindingCode, analyze};
use racksmith::catalog::Catalog;
use racksmith::edit::{Builder, Edit, EditError};
use racksmith::model::{Breakout, Design, DeviceId, Link, LinkId, Medium, PartId, PortRef};
use std::path::Path;

fn catalog() -> Catalog {
    Catalog::builtin().unwrap()
}

/// A rack with `switches` devices of one switch part.
fn switches(part: &str, count: u16) -> (Design, Vec<DeviceId>) {
    let c = catalog();
    let mut d = Design::default();
    let mut ids = Vec::new();
    let mut b = Builder::new(&mut d, &c);
    let (rack, _) = b.add_rack("rack-42u", "r1", 0, 0).unwrap();
    for k in 0..count {
        ids.push(
            b.add_device(part, &format!("sw{k}"), rack, 1 + 2 * k)
                .unwrap(),
        );
    }
    (d, ids)
}

/// The edit that sets a device's breakout.
fn set_breakout(d: &Design, id: DeviceId, breakout: Breakout) -> Edit {
    let mut dev = d.devices[&id].clone();
    dev.breakout = breakout;
    Edit::UpdateDevice(id, dev)
}

fn every_port(split: u8) -> Breakout {
    Breakout {
        split,
        ..Breakout::default()
    }
}

fn refusal(r: Result<Edit, EditError>) -> String {
    match r {
        Err(EditError::Refused(why)) => why,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// The loader's problems with a design written as the editor would save it (the rules bypassed to write it).
fn load_problems(d: &Design) -> Vec<String> {
    let text = racksmith::io::design_to_string(d).unwrap();
    match racksmith::io::design_from_str(&text, Path::new("t.ron")) {
        Err(racksmith::io::LoadError::Invalid { problems, .. }) => {
            problems.into_iter().map(|p| p.message).collect()
        }
        Err(e) => panic!("{e}"),
        Ok(_) => Vec::new(),
    }
}

#[test]
fn a_qm9700_with_every_cage_on_1_2_splitters_has_128_ndr200_ports() {
    let (mut d, ids) = switches("qm9700", 1);
    let sw = ids[0];
    assert_eq!(d.ports(sw).len(), 64, "native: 32 cages x 2 NDR ports");
    set_breakout(&d, sw, every_port(2)).apply(&mut d).unwrap();
    // 32 cages x 2 ports x 2 (each NDR port on a 1:2 split) = 128 ports at 400 / 2 = 200 Gb/s.
    let ports = d.ports(sw);
    assert_eq!(ports.len(), 128);
    assert!(ports.iter().all(|p| p.max_gbps == 200.0));
    assert_eq!(ports[0].name, "p1/1");
    assert_eq!(ports[127].name, "p64/2");
    assert!(racksmith::io::validate(&d).is_empty());
    // The design saves with the mode and opens again with it.
    let text = racksmith::io::design_to_string(&d).unwrap();
    assert!(text.contains("breakout: (split: 2)"), "{text}");
    let back = racksmith::io::design_from_str(&text, Path::new("t.ron")).unwrap();
    assert_eq!(back.devices[&sw].breakout, every_port(2));
}

#[test]
fn an_sn5600_asked_for_8x100g_on_every_cage_is_refused_past_256_ports() {
    let (mut d, ids) = switches("sn5600", 1);
    let sw = ids[0];
    // 64 cages x 8 = 512 logical ports, past the SN5600's 256.
    let why = refusal(set_breakout(&d, sw, every_port(8)).apply(&mut d));
    assert!(why.contains("512 logical ports"), "{why}");
    assert!(why.contains("256"), "{why}");
    assert_eq!(d.ports(sw).len(), 64, "a refused edit changes nothing");
    // 64 x 4 = 256 at 800 / 4 = 200 Gb/s is within the cap.
    set_breakout(&d, sw, every_port(4)).apply(&mut d).unwrap();
    let ports = d.ports(sw);
    assert_eq!(ports.len(), 256);
    assert!(ports.iter().all(|p| p.max_gbps == 200.0));
    // The file says the same, at the device's line.
    let mut dev = d.devices[&sw].clone();
    dev.breakout = every_port(8);
    d.devices.insert(sw, dev);
    let problems = load_problems(&d);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("line "), "{problems:?}");
    assert!(problems[0].contains("512 logical ports"), "{problems:?}");
}

#[test]
fn two_modes_in_one_twin_port_cage_are_refused() {
    let (mut d, ids) = switches("qm9700", 1);
    let sw = ids[0];
    // p1 and p2 share QM9700 cage p1: p1 on a split, p2 native.
    let b = Breakout {
        ports: [(1, 2)].into_iter().collect(),
        ..Breakout::default()
    };
    let why = refusal(set_breakout(&d, sw, b.clone()).apply(&mut d));
    assert!(
        why.contains("cage p1 holds ports p1 and p2 in two modes"),
        "{why}"
    );
    // Both ports of the cage split: one mode, accepted; 62 native ports + 2 x 2 = 66 ports.
    let both = Breakout {
        ports: [(1, 2), (2, 2)].into_iter().collect(),
        ..Breakout::default()
    };
    set_breakout(&d, sw, both).apply(&mut d).unwrap();
    assert_eq!(d.ports(sw).len(), 66);
    let mut dev = d.devices[&sw].clone();
    dev.breakout = b;
    d.devices.insert(sw, dev);
    let problems = load_problems(&d);
    assert!(
        problems
            .iter()
            .any(|p| p.contains("two modes") && p.starts_with("line ")),
        "{problems:?}"
    );
}

#[test]
fn a_mode_the_part_does_not_run_and_a_port_it_lacks_are_refused() {
    let (mut d, ids) = switches("qm9700", 1);
    let sw = ids[0];
    // The QM9700 splits an NDR port in two (4x200G per cage), not in four.
    let why = refusal(set_breakout(&d, sw, every_port(4)).apply(&mut d));
    assert!(why.contains("not a mode of qm9700"), "{why}");
    assert!(why.contains("2x400G, 4x200G"), "{why}");
    let b = Breakout {
        ports: [(65, 2)].into_iter().collect(),
        ..Breakout::default()
    };
    let why = refusal(set_breakout(&d, sw, b).apply(&mut d));
    assert!(why.contains("port p65"), "{why}");
}

#[test]
fn a_breakout_takes_the_cables_off_the_ports_it_replaces_in_one_undo_step() {
    let (mut d, ids) = switches("qm9700", 2);
    let c = catalog();
    let link = Builder::new(&mut d, &c)
        .connect(
            PortRef::new(ids[0], "p1"),
            PortRef::new(ids[1], "p1"),
            1.0,
            Some("ib-ndr-dac"),
        )
        .unwrap();
    let before = d.clone();
    // Port p1 becomes p1/1 and p1/2: the cable on p1 has no port left and goes with the edit, as with a NIC swap.
    let undo = set_breakout(&d, ids[0], every_port(2))
        .apply(&mut d)
        .unwrap();
    assert!(!d.links.contains_key(&link));
    assert_eq!(d.ports(ids[0]).len(), 128);
    undo.apply(&mut d).unwrap();
    assert_eq!(d, before);
}

/// Two QM9700s with every port split in two, and a link between their p1/1 ports (NDR200) on `cable`.
fn ndr200_link(cable: &str) -> (Design, Result<LinkId, EditError>) {
    let (mut d, ids) = switches("qm9700", 2);
    for id in &ids {
        set_breakout(&d, *id, every_port(2)).apply(&mut d).unwrap();
    }
    let c = catalog();
    let r = Builder::new(&mut d, &c).connect(
        PortRef::new(ids[0], "p1/1"),
        PortRef::new(ids[1], "p1/1"),
        1.0,
        Some(cable),
    );
    (d, r)
}

#[test]
fn a_splitter_leg_at_an_unlike_rate_is_refused() {
    // The 1:4 splitter's legs are NDR200 (MCP7Y50: 2 channels of 100G-PAM4 = 200 Gb/s): a 200G link takes it.
    let (d, r) = ndr200_link("ib-ndr200-splitter-4x200g");
    let id = r.unwrap();
    assert_eq!(
        d.links[&id].medium,
        Medium::from_protocol(racksmith::model::Protocol::InfiniBand, 200.0).unwrap()
    );
    // The 1:2 splitter's legs are 400G (MCP7Y00: 4 channels): a 200G link on it is refused, in the editor and the file.
    let (mut d, r) = ndr200_link("ib-ndr-splitter-2x400g");
    match r {
        Err(EditError::Refused(why)) => {
            assert!(why.contains("legs run at 400 Gb/s"), "{why}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    let (_, ok) = ndr200_link("ib-ndr200-splitter-4x200g");
    let mut link: Link = {
        let (d2, _) = ndr200_link("ib-ndr200-splitter-4x200g");
        d2.links[&ok.unwrap()].clone()
    };
    link.cable = Some(PartId::new("ib-ndr-splitter-2x400g"));
    let c = catalog();
    d.parts.insert(
        PartId::new("ib-ndr-splitter-2x400g"),
        c.get("ib-ndr-splitter-2x400g").unwrap().clone(),
    );
    d.links.insert(LinkId(900), link);
    d.next_id = d.next_id.max(901);
    let problems = load_problems(&d);
    assert!(
        problems
            .iter()
            .any(|p| p.contains("splitter") && p.starts_with("line ")),
        "{problems:?}"
    );
}

/// Two QM9700s and a 10 m multimode fibre pinned between their p1 ports, the design's only transceiver for it being
/// the catalog's finned twin-port SR8 changed by `change`.
fn pinned_fibre(
    change: impl Fn(&mut racksmith::model::part::Part),
) -> (Design, Result<LinkId, EditError>) {
    let (mut d, ids) = switches("qm9700", 2);
    let c = catalog();
    let mut t = c.get("osfp-2x400g-sr8-finned").unwrap().clone();
    change(&mut t);
    Edit::SetPart(PartId::new("hot-sr8"), Some(Box::new(t)))
        .apply(&mut d)
        .unwrap();
    let r = Builder::new(&mut d, &c).connect(
        PortRef::new(ids[0], "p1"),
        PortRef::new(ids[1], "p1"),
        10.0,
        Some("ib-ndr-mpo-mm"),
    );
    (d, r)
}

#[test]
fn a_transceiver_above_its_cage_power_class_is_refused() {
    // The MMA4Z00-NS draws 17 W, the QM9700's Class 8 cage takes 17 W: accepted.
    let (_, r) = pinned_fibre(|_| {});
    r.unwrap();
    // At 19 W it is above the class.
    let (_, r) = pinned_fibre(|p| p.power_w = 19.0);
    match r {
        Err(EditError::Refused(why)) => {
            assert!(
                why.contains("draws 19 W, above the 17 W power class"),
                "{why}"
            );
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn a_transceiver_that_does_not_fit_the_cage_form_is_refused() {
    let (_, r) = pinned_fibre(|p| {
        if let racksmith::model::part::PartKind::Transceiver(t) = &mut p.kind {
            t.form = racksmith::model::part::PlugForm::Qsfp112;
        }
    });
    match r {
        Err(EditError::Refused(why)) => {
            assert!(
                why.contains("fits the OSFP cage (hot-sr8 is QSFP112)"),
                "{why}"
            );
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn an_auto_link_whose_only_transceiver_is_above_the_class_is_a_cage_power_finding() {
    let (mut d, ids) = switches("qm9700", 2);
    let c = catalog();
    let mut t = c.get("osfp-2x400g-sr8-finned").unwrap().clone();
    t.power_w = 19.0;
    d.parts.insert(PartId::new("hot-sr8"), t);
    d.parts.insert(
        PartId::new("ib-ndr-mpo-mm"),
        c.get("ib-ndr-mpo-mm").unwrap().clone(),
    );
    let medium = Medium::from_protocol(racksmith::model::Protocol::InfiniBand, 400.0).unwrap();
    for (k, port) in ["p1", "p3"].into_iter().enumerate() {
        d.links.insert(
            LinkId(100 + k as u64),
            Link {
                a: PortRef::new(ids[0], port),
                b: PortRef::new(ids[1], port),
                medium,
                length_m: 10.0,
                cable: Some(PartId::new("ib-ndr-mpo-mm")),
                notes: String::new(),
                estimated_length: false,
                auto_cable: true,
            },
        );
    }
    let r = analyze(&d);
    let f = r
        .findings
        .iter()
        .find(|f| f.code == FindingCode::CagePower)
        .expect("a cage-power finding");
    // Four cages (p1 and p2 of each switch, one per link end) each hold the 19 W transceiver in a 17 W cage.
    assert!(
        f.message.starts_with("4 cages are over their power class"),
        "{}",
        f.message
    );
    assert!(
        f.message
            .contains("cage p1 of sw0 holds hot-sr8 (19 W) in a 17 W cage"),
        "{}",
        f.message
    );
    assert_eq!(f.devices, ids);
    // Within the class (17 W), no finding.
    d.parts.get_mut(&PartId::new("hot-sr8")).unwrap().power_w = 17.0;
    let r = analyze(&d);
    assert!(r.findings.iter().all(|f| f.code != FindingCode::CagePower));
}
