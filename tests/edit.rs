//! Edits: each applied edit returns its inverse; a refused edit changes nothing; undo and redo walk the history.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use proptest::prelude::*;
use racksmith::catalog::Catalog;
use racksmith::edit::{Builder, Edit, History};
use racksmith::model::{Design, PortRef};
use racksmith::samples::sample;

#[test]
fn a_builder_placing_many_devices_refuses_what_the_edit_refuses() {
    // The builder keeps the units it has taken instead of checking each mount against every device; it must
    // still refuse every overlap and every part reaching outside its rack, with the edit's reasons.
    let catalog = Catalog::builtin().unwrap();
    let mut d = Design::default();
    let mut b = Builder::new(&mut d, &catalog);
    let (rack, _) = b.add_rack("rack-42u", "R01", 0, 0).unwrap();
    let (other_rack, _) = b.add_rack("rack-42u", "R02", 0, 1).unwrap();
    b.add_device("dgx-h100", "dgx-01", rack, 1).unwrap(); // U1-U8
    b.add_device("qm9700", "leaf-01", rack, 9).unwrap(); // U9, just above
    b.add_device("qm9700", "leaf-02", other_rack, 5).unwrap(); // another rack's U5 is free
    let err = b.add_device("qm9700", "leaf-03", rack, 5).unwrap_err();
    assert!(err.to_string().contains("overlaps dgx-01"), "{err}");
    let err = b.add_device("qm9700", "leaf-03", rack, 9).unwrap_err();
    assert!(err.to_string().contains("overlaps leaf-01"), "{err}");
    let err = b.add_device("dgx-h100", "too-high", rack, 40).unwrap_err();
    assert!(err.to_string().contains("outside the 42U rack"), "{err}");
    // A refused device changes nothing, not even the parts it would have copied in.
    let parts = b.design.parts.len();
    let err = b.add_device("ddn-ai400x2", "ddn-01", rack, 3).unwrap_err();
    assert!(err.to_string().contains("overlaps dgx-01"), "{err}");
    assert_eq!(b.design.parts.len(), parts);
    // A device added behind the builder's back (through its design) is seen too.
    let (_, edit) = b.device_edit("qm9700", "leaf-04", rack, 20).unwrap();
    edit.apply(b.design).unwrap();
    let err = b.add_device("qm9700", "leaf-05", rack, 20).unwrap_err();
    assert!(err.to_string().contains("overlaps leaf-04"), "{err}");
    b.add_device("qm9700", "leaf-05", rack, 21).unwrap();
    assert_eq!(d.devices.len(), 5);
    assert!(racksmith::io::validate(&d).is_empty());
}

#[test]
fn add_move_cable_undo_redo() {
    let catalog = Catalog::builtin().unwrap();
    let mut d = Design::default();
    let mut h = History::default();
    let (rack, inv) = Builder::new(&mut d, &catalog)
        .add_rack("rack-42u", "R01", 0, 0)
        .unwrap();
    drop(inv);
    let before = d.clone();
    let (server, edit) = Builder::new(&mut d, &catalog)
        .device_edit("dgx-h100", "dgx-01", rack, 1)
        .unwrap();
    h.apply(&mut d, "Add dgx-01", edit).unwrap();
    assert_eq!(d.gpu_count(), 8);
    assert!(
        d.parts
            .contains_key(&racksmith::model::PartId::new("h100-sxm")),
        "specs copied into the design"
    );
    // Overlap refused with the reason, design unchanged.
    let (_, overlapping) = Builder::new(&mut d, &catalog)
        .device_edit("qm9700", "leaf", rack, 5)
        .unwrap();
    let snapshot = d.clone();
    let err = h.apply(&mut d, "Add leaf", overlapping).unwrap_err();
    assert!(err.to_string().contains("overlaps dgx-01"), "{err}");
    assert_eq!(d.devices, snapshot.devices);
    // Outside the rack refused.
    let (_, outside) = Builder::new(&mut d, &catalog)
        .device_edit("dgx-h100", "too-high", rack, 40)
        .unwrap();
    assert!(
        h.apply(&mut d, "x", outside)
            .unwrap_err()
            .to_string()
            .contains("outside the 42U rack")
    );
    // A switch, then a cable.
    let (leaf, edit) = Builder::new(&mut d, &catalog)
        .device_edit("qm9700", "leaf", rack, 42)
        .unwrap();
    h.apply(&mut d, "Add leaf", edit).unwrap();
    let (_, cable) = Builder::new(&mut d, &catalog)
        .link_edit(
            PortRef::new(server, "nic0/p1"),
            PortRef::new(leaf, "p1"),
            3.0,
            Some("ib-ndr-optic"),
        )
        .unwrap();
    h.apply(&mut d, "Cable", cable).unwrap();
    assert_eq!(d.links.len(), 1);
    // The same port again is refused.
    let err = Builder::new(&mut d, &catalog)
        .link_edit(
            PortRef::new(server, "nic0/p1"),
            PortRef::new(leaf, "p2"),
            3.0,
            None,
        )
        .and_then(|(_, e)| e.apply(&mut d))
        .unwrap_err();
    assert!(err.to_string().contains("already cabled"), "{err}");
    // Removing the server takes its link with it; undo brings both back.
    h.apply(&mut d, "Delete", Edit::RemoveDevice(server))
        .unwrap();
    assert!(d.links.is_empty());
    assert_eq!(h.undo(&mut d).as_deref(), Some("Delete"));
    assert_eq!(d.links.len(), 1);
    assert_eq!(d.devices.len(), 2);
    for _ in 0..3 {
        h.undo(&mut d);
    }
    assert_eq!(d.devices, before.devices);
    assert_eq!(d.links, before.links);
    for _ in 0..3 {
        h.redo(&mut d);
    }
    assert_eq!(d.links.len(), 1);
    assert_eq!(h.undo_label(), Some("Cable"));
}

#[test]
fn a_failing_batch_changes_nothing() {
    let mut d = sample("dgx-h100-single").unwrap();
    let before = d.clone();
    let rack = *d.racks.keys().next().unwrap();
    let mut r = d.racks[&rack].clone();
    r.name = "renamed".into();
    let batch = Edit::Batch(vec![
        Edit::UpdateRack(rack, r),
        Edit::RemoveLink(racksmith::model::LinkId(123_456)),
    ]);
    assert!(batch.apply(&mut d).is_err());
    assert_eq!(d, before);
}

#[test]
fn shrinking_a_rack_below_its_devices_is_refused() {
    let mut d = sample("dgx-h100-single").unwrap();
    let rack = *d.racks.keys().next().unwrap();
    let mut r = d.racks[&rack].clone();
    r.height_u = 20;
    let err = Edit::UpdateRack(rack, r).apply(&mut d).unwrap_err();
    assert!(err.to_string().contains("outside the rack"), "{err}");
    assert_eq!(d.racks[&rack].height_u, 42);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    /// Removing any subset of devices and links, then undoing, restores the design exactly.
    #[test]
    fn inverse_restores(picks in proptest::collection::vec(0usize..700, 1..12)) {
        let mut d = sample("l40s-inference-pcie").unwrap();
        let before = d.clone();
        let devices: Vec<_> = d.devices.keys().copied().collect();
        let links: Vec<_> = d.links.keys().copied().collect();
        let mut undo = Vec::new();
        for p in picks {
            let edit = if p % 2 == 0 {
                Edit::RemoveDevice(devices[p % devices.len()])
            } else {
                Edit::RemoveLink(links[p % links.len()])
            };
            if let Ok(inv) = edit.apply(&mut d) {
                undo.push(inv);
            }
        }
        for inv in undo.into_iter().rev() {
            inv.apply(&mut d).unwrap();
        }
        prop_assert_eq!(d, before);
    }
}

/// `links_by_port` (one pass over the links) agrees with `link_at` (one scan per port) on every port of every device
/// of every sample, cabled or free.
#[test]
fn links_by_port_agrees_with_link_at_on_every_port() {
    for name in racksmith::samples::SAMPLES {
        let d = racksmith::samples::sample(name).unwrap();
        let mut cabled = 0;
        for id in d.devices.keys() {
            let by_port = d.links_by_port(*id);
            for p in d.ports(*id) {
                let at = d.link_at(&racksmith::model::PortRef::new(*id, p.name.clone()));
                assert_eq!(
                    by_port.get(p.name.as_str()).copied(),
                    at,
                    "{name}: {id} {}",
                    p.name
                );
                cabled += usize::from(at.is_some());
            }
        }
        // Every link has two ends, each on a declared port.
        assert_eq!(cabled, 2 * d.links.len(), "{name}");
    }
}
