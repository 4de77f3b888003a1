//! The pass's tables and shared builds give what the design's maps and a fresh choice give.

use super::*;
use crate::catalog::Catalog;
use crate::model::RackId;

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

/// A link of the SU's compute fabric: NDR, its medium chosen by reach.
fn ndr_auto_link(d: &Design) -> &Link {
    d.links
        .values()
        .find(|l| l.auto_cable && l.medium.gbps() >= 399.0)
        .expect("an NDR auto link")
}

#[test]
fn a_cheapest_build_shared_by_reach_is_the_one_worked_out_alone() {
    let d = superpod();
    let link = ndr_auto_link(&d);
    let mut shared = BuildCache::for_pass(&d, None);
    let at = shared.located(&d, link);
    // Lengths from 0.1 m to 60 m in 7 cm steps: inside copper's reach, across every MPO stock length, past 50 m.
    let mut hits = 0;
    for i in 1..=857 {
        let length_m = f64::from(i) * 0.07;
        let a = shared
            .cheapest(&d, link, length_m, false, &at)
            .map(|c| Build::clone(shared.built(c.build)));
        assert_eq!(a, cheapest_build(&d, link, length_m), "at {length_m} m");
        hits = shared.by_reach.len();
    }
    // 857 lengths are a handful of choices (DAC, ACC and MPO stock lengths, none past 50 m).
    assert!((1..40).contains(&hits), "{hits} distinct choices");
}

/// The lengths a build is shared between are told apart by bounds worked out to the last bit: at every stock
/// length, cable reach and transceiver reach of the medium, and a few bits either side of where its test turns
/// (`x >= length - 1e-9`), the remembered build is the one worked out alone. Lengths are asked in both orders, so
/// that a build remembered at one side of a bound is never handed to the other.
#[test]
fn a_build_shared_by_reach_changes_exactly_where_a_stock_length_or_reach_ends() {
    let d = superpod();
    let link = ndr_auto_link(&d);
    let mut edges: Vec<f64> = Vec::new();
    for p in d.parts.values() {
        match &p.kind {
            PartKind::Cable(c) if builds_medium(&p.kind, link.medium) => {
                edges.extend(&c.stock_lengths_m);
                edges.push(c.max_length_m);
            }
            PartKind::Transceiver(t) if builds_medium(&p.kind, link.medium) => {
                edges.push(t.reach_m)
            }
            _ => {}
        }
    }
    assert!(edges.len() > 20, "{edges:?}");
    let mut lengths = Vec::new();
    for x in edges {
        let turn = x + 1e-9;
        let mut below = turn;
        let mut above = turn;
        for _ in 0..4 {
            below = below.next_down();
            above = above.next_up();
            lengths.extend([below, above]);
        }
        lengths.extend([x, turn, x.next_down(), x.next_up()]);
    }
    for order in [false, true] {
        let mut asked = lengths.clone();
        if order {
            asked.reverse();
        }
        let mut shared = BuildCache::for_pass(&d, None);
        let at = shared.located(&d, link);
        for length_m in asked {
            let a = shared
                .cheapest(&d, link, length_m, false, &at)
                .map(|c| Build::clone(shared.built(c.build)));
            assert_eq!(a, cheapest_build(&d, link, length_m), "at {length_m:e} m");
        }
    }
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

/// Each flagged link as re-estimation decides it alone, before the rounds that keep a cage to one medium: its own
/// estimate from the design's maps and a fresh cache (no tables, nothing remembered from other links), as its new
/// cable and length when they change.
fn alone(d: &Design, plan: &FloorPlan) -> Vec<(LinkId, Option<PartId>, f64)> {
    d.links
        .iter()
        .filter(|(_, l)| l.estimated_length || l.auto_cable)
        .filter_map(|(id, l)| {
            let raw = match l.estimated_length {
                true => d.estimate_link(plan, l).map(|e| e.length_m),
                false => None,
            };
            let mut cache = BuildCache::default();
            let at = cache.located(d, l);
            let (new, _) = d.change_of(l, raw, &at, &mut cache);
            new.map(|(cable, length_m)| (*id, cable, length_m))
        })
        .collect()
}

#[test]
fn a_pass_decides_each_link_as_it_would_alone() {
    let mut d = superpod();
    let plan = FloorPlan::new(&d);
    let walked =
        |d: &Design, plan: &FloorPlan| d.walk(&mut BuildCache::for_pass(d, Some(plan)), ..).changes;
    // As generated, every link already stands as the floor has it (re-estimating changes nothing), and the walk
    // decides each link as it would alone.
    assert!(d.clone().reestimate().is_empty());
    assert_eq!(walked(&d, &plan), alone(&d, &plan));
    // Links that shared every input (rack pair, unit pair, port shapes) made to differ: a rack moved along its row,
    // a switch whose cages run split (4 logical ports a cage), a link moved to a port of its own cage, one pinned to
    // a cable of its own with its length still from the floor, and one whose length is fixed.
    let moved = d.racks.keys().nth(3).copied().expect("a rack");
    if let Some(r) = d.racks.get_mut(&moved) {
        r.slot += 7;
    }
    let leaf = d
        .devices
        .iter()
        .find(|(_, dev)| {
            d.parts
                .get(&dev.part)
                .is_some_and(|p| matches!(p.kind, PartKind::Switch(_)))
        })
        .map(|(id, _)| *id)
        .expect("a switch");
    if let Some(dev) = d.devices.get_mut(&leaf) {
        dev.breakout.split = 2;
    }
    let auto: Vec<LinkId> = d
        .links
        .iter()
        .filter(|(_, l)| l.auto_cable && l.estimated_length)
        .map(|(id, _)| *id)
        .collect();
    assert!(auto.len() > 500, "{} auto links", auto.len());
    let pinned = PartId::new("ib-ndr-mpo-sm");
    assert!(d.parts.contains_key(&pinned));
    for (k, id) in auto.iter().enumerate().filter(|(k, _)| k % 50 == 0) {
        let Some(l) = d.links.get_mut(id) else {
            continue;
        };
        match k / 50 % 3 {
            0 => l.b.port = "mgmt0".into(),
            1 => {
                l.auto_cable = false;
                l.cable = Some(pinned.clone());
            }
            _ => {
                l.estimated_length = false;
                l.length_m = 31.0;
            }
        }
    }
    let plan = FloorPlan::new(&d);
    let pass = walked(&d, &plan);
    assert_eq!(pass, alone(&d, &plan));
    // The moved rack's links, the pinned and fixed ones and the split switch's change: many, not all.
    assert!(
        pass.len() > 20 && pass.len() < auto.len(),
        "{} changed",
        pass.len()
    );
}

#[test]
fn a_walk_shared_out_among_threads_decides_as_one_walk() {
    let mut d = superpod();
    // Ids no longer even (the first third of the links gone), racks moved, and one link of each twin-port cage
    // whose two links are on copper pinned to a fibre (the later in ids): the other goes on fibre in the rounds
    // after the walk, often from another part of it.
    let ids: Vec<LinkId> = d.links.keys().copied().collect();
    for id in ids.iter().take(ids.len() / 3) {
        d.links.remove(id);
    }
    let racks: Vec<RackId> = d.racks.keys().copied().collect();
    for id in racks.iter().step_by(3) {
        if let Some(r) = d.racks.get_mut(id) {
            r.slot += 5;
        }
    }
    let cage = |d: &Design, p: &PortRef| cage_of(d, p).filter(|c| c.ports > 1);
    let mut by_cage: std::collections::BTreeMap<Cage, Vec<LinkId>> = Default::default();
    for (id, l) in &d.links {
        for end in [&l.a, &l.b] {
            if let Some(c) = cage(&d, end) {
                by_cage.entry(c).or_default().push(*id);
            }
        }
    }
    let on_copper = |d: &Design, id: &LinkId| {
        d.links
            .get(id)
            .is_some_and(|l| l.auto_cable && !l.cable.as_ref().is_some_and(|c| is_fibre(d, c)))
    };
    let mates: Vec<LinkId> = by_cage
        .values()
        .filter(|ids| ids.len() == 2 && ids.iter().all(|id| on_copper(&d, id)))
        .filter_map(|ids| ids.iter().max().copied())
        .collect();
    assert!(mates.len() > 10, "{} mates of copper links", mates.len());
    let pinned = PartId::new("ib-ndr-mpo-sm");
    for id in mates {
        if let Some(l) = d.links.get_mut(&id) {
            l.auto_cable = false;
            l.cable = Some(pinned.clone());
        }
    }
    let plan = FloorPlan::new(&d);
    let one = d.reestimates_in(&plan, 1);
    let walk_alone = d
        .walk(&mut BuildCache::for_pass(&d, Some(&plan)), ..)
        .changes;
    // The rounds after the walk moved links: the case tests them.
    assert_ne!(one, walk_alone, "no link moved in the rounds");
    assert!(one.len() > 100, "{} changes", one.len());
    for parts in [2, 3, 5, 8] {
        assert_eq!(d.reestimates_in(&plan, parts), one, "{parts} parts");
    }
    // A part's cache numbers shapes in the order it meets them: its ends are renumbered into the first part's.
    let shapes =
        |c: &mut BuildCache<'_>, l: &Link| c.located(&d, l).map(|a| a.map(|a| a.shape_number));
    let mixed = d
        .links
        .values()
        .find(|l| {
            let mut c = BuildCache::default();
            let [a, b] = shapes(&mut c, l);
            a.is_some() && a != b
        })
        .expect("a link whose ends' cages differ");
    let reversed = Link {
        a: mixed.b.clone(),
        b: mixed.a.clone(),
        ..mixed.clone()
    };
    let (mut first, mut other) = (BuildCache::default(), BuildCache::default());
    let in_first = shapes(&mut first, mixed);
    let in_other = other.located(&d, &reversed);
    assert_ne!(
        in_other.map(|a| a.map(|a| a.shape_number)),
        [in_first[1], in_first[0]]
    );
    let renumbered = first
        .renumbered(in_other)
        .map(|a| a.map(|a| a.shape_number));
    assert_eq!(renumbered, [in_first[1], in_first[0]]);
    // More parts than links, and a design of one link: parts with no link in them.
    let mut small = superpod();
    let keep = small.links.keys().nth(10).copied();
    small.links.retain(|id, _| Some(*id) == keep);
    if let Some(r) = small.racks.values_mut().next() {
        r.slot += 9;
    }
    let plan = FloorPlan::new(&small);
    assert_eq!(
        small.reestimates_in(&plan, 8),
        small.reestimates_in(&plan, 1)
    );
}

#[test]
fn tables_of_sparse_device_ids_locate_and_estimate_as_the_design_does() {
    let mut d = superpod();
    // A device with an id far past the others': the tables number the devices by a hash instead of an index.
    let (id, dev) = d
        .devices
        .iter()
        .next_back()
        .map(|(id, dev)| (*id, dev.clone()))
        .expect("a device");
    let far = DeviceId(1 << 40);
    d.devices.remove(&id);
    d.devices.insert(far, dev);
    for l in d.links.values_mut() {
        for end in [&mut l.a, &mut l.b] {
            if end.device == id {
                end.device = far;
            }
        }
    }
    let plan = FloorPlan::new(&d);
    let ends = Ends::new(&d, Some(&plan));
    assert!(ends.device_index(far).is_some());
    let mut met = 0;
    for l in d.links.values() {
        let by_design = d.estimate_link(&plan, l).map(|e| e.length_m.to_bits());
        assert_eq!(ends.estimate_m(l).map(f64::to_bits), by_design);
        for port in [&l.a, &l.b] {
            met += usize::from(port.device == far);
            let (a, b) = (ends.locate(port), locate(&d, port));
            assert_eq!(a.map(|(_, s)| s), b.map(|(_, s)| s));
        }
    }
    assert!(met > 0, "no link reaches the moved device");
}
