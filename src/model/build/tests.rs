//! The pass's tables and shared builds give what the design's maps and a fresh choice give.

use super::*;
use crate::catalog::Catalog;

/// A generated 1-SU SuperPOD: its compute fabric is flagged for estimates and media by reach.
fn superpod() -> Design {
    let catalog = Catalog::builtin().expect("catalog");
    crate::samples::superpod_h100(&catalog, 1).expect("generate")
}

#[test]
fn tables_estimate_and_locate_as_the_design_does() {
    let d = superpod();
    let plan = FloorPlan::new(&d);
    let ends = Ends::new(&d, Some(&plan));
    let mut estimated = 0;
    for l in d.links.values() {
        let by_design = d.estimate_link(&plan, l).map(|e| e.length_m.to_bits());
        assert_eq!(ends.estimate_m(l).map(f64::to_bits), by_design);
        estimated += usize::from(by_design.is_some());
        for port in [&l.a, &l.b] {
            let (a, b) = (ends.locate(port), locate(&d, port));
            assert_eq!(a.map(|(_, s)| s), b.map(|(_, s)| s));
            let key =
                |p: Option<(Place, CageShape)>| p.and_then(|(p, _)| shared_key(port.device, &p));
            assert_eq!(key(a), key(b));
        }
    }
    // Every link of the SU is between racks of one floor: 31 DGX x 8 + 4 UFM ports up, 256 up to the spines.
    assert!(estimated >= 508, "{estimated} links estimated");
}

#[test]
fn a_cheapest_build_shared_by_reach_is_the_one_worked_out_alone() {
    let d = superpod();
    let link = d
        .links
        .values()
        .find(|l| l.auto_cable && l.medium.gbps() >= 399.0)
        .expect("an NDR auto link");
    let mut shared = BuildCache::for_pass(&d, None);
    let at = shared.located(&d, link);
    // Lengths from 0.1 m to 60 m in 7 cm steps: inside copper's reach, across every MPO stock length, past 50 m.
    let mut hits = 0;
    for i in 1..=857 {
        let length_m = f64::from(i) * 0.07;
        let a = shared
            .cheapest(&d, link, length_m, false, &at)
            .map(|c| Build::clone(&c.build));
        assert_eq!(a, cheapest_build(&d, link, length_m), "at {length_m} m");
        hits = shared.by_reach.len();
    }
    // 857 lengths are a handful of choices (DAC, ACC and MPO stock lengths, none past 50 m).
    assert!((1..40).contains(&hits), "{hits} distinct choices");
}

#[test]
fn cages_seen_count_each_shared_cage_once_and_every_own_port() {
    // Two devices in the tables (numbers 0 and 1) and one outside them (no number: the hashed set).
    let (a, b, c) = (DeviceId(1), DeviceId(2), DeviceId(3));
    let mut seen = CagesSeen::new(2);
    let marks = [
        (a, Some(0), Place::SwitchCage(3)),  // new
        (a, Some(0), Place::SwitchCage(3)),  // the same cage: seen
        (b, Some(1), Place::SwitchCage(3)),  // same number, other device: new
        (a, Some(0), Place::SwitchCage(64)), // last bit of the word: new
        (a, Some(0), Place::SwitchCage(65)), // past the word (hashed): new
        (a, Some(0), Place::SwitchCage(65)), // seen
        (a, Some(0), Place::NicCage(0, 3)),  // NIC word, bit 3, not switch cage 4: new
        (a, Some(0), Place::SwitchCage(4)),  // new
        (a, Some(0), Place::NicCage(0, 3)),  // seen
        (c, None, Place::NicCage(1, 0)),     // no number (hashed): new
        (c, None, Place::NicCage(1, 0)),     // seen
        (a, Some(0), Place::Own),            // a port's own cage: always counted
        (a, Some(0), Place::Own),
    ];
    let fresh: Vec<bool> = marks
        .iter()
        .map(|(d, i, p)| seen.insert(*d, *i, p))
        .collect();
    let want = [
        true, false, true, true, true, false, true, true, false, true, false, true, true,
    ];
    assert_eq!(fresh, want);
}
