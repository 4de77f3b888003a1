//! The rack drawing draws a group of racks once only when the racks are truly identical: the same devices and the
//! same power.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::export::svg::rack_groups;

#[test]
fn racks_drawn_as_one_have_the_same_power() {
    for name in [
        "superpod-h100-1su",
        "a100-120gpu-training",
        "h100-60gpu-training",
    ] {
        let d = racksmith::samples::sample(name).unwrap();
        let r = racksmith::analysis::analyze(&d);
        let power = |id| r.power.racks.iter().find(|p| p.rack == id).unwrap().power_w;
        let groups = rack_groups(&d, &r);
        assert_eq!(
            groups.iter().map(Vec::len).sum::<usize>(),
            d.racks.len(),
            "{name}"
        );
        for g in &groups {
            let first = power(g[0]);
            for id in g {
                assert!(
                    (power(*id) - first).abs() < 1e-6,
                    "{name}: {} W and {first} W drawn as one",
                    power(*id)
                );
            }
        }
    }
}

#[test]
fn a_rack_whose_power_differs_is_drawn_on_its_own() {
    let c = racksmith::catalog::Catalog::builtin().unwrap();
    let mut d = racksmith::samples::superpod_h100(&c, 4).unwrap();
    let r = racksmith::analysis::analyze(&d);
    let before = rack_groups(&d, &r);
    let big = before
        .iter()
        .find(|g| g.len() >= 3)
        .expect("a group of identical racks")
        .clone();
    // One device of the middle rack gets, in one NIC slot, an adapter that draws more.
    let rack = big[1];
    let (id, dev) = d
        .devices
        .iter()
        .find(|(_, x)| x.rack == rack && !x.nics.is_empty())
        .map(|(i, x)| (*i, x.clone()))
        .unwrap();
    let slot = *dev.nics.keys().next().unwrap();
    // The same adapter under another id, drawing 50 W more.
    let mut hot = d.parts[&dev.nics[&slot]].clone();
    hot.power_w += 50.0;
    let hot_id = racksmith::model::PartId::new("nic-hot");
    d.parts.insert(hot_id.clone(), hot);
    d.devices.get_mut(&id).unwrap().nics.insert(slot, hot_id);
    let r = racksmith::analysis::analyze(&d);
    let after = rack_groups(&d, &r);
    let group_of = |id| after.iter().find(|g| g.contains(&id)).unwrap();
    assert!(
        !group_of(rack).contains(&big[0]),
        "the changed rack is no longer drawn with its neighbours"
    );
    assert!(
        group_of(big[0]).contains(&big[2]),
        "the unchanged racks still are"
    );
}
