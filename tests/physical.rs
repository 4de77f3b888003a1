//! The physical build: racks on a floor, cable lengths from it, media chosen by reach, transceivers counted by cage.
//! The checks come from the NVIDIA DGX SuperPOD H100 reference architecture (one scalable unit: 32 DGX H100, 8 leaf
//! and 4 spine QM9700, 512 NDR links) and NVIDIA LinkX documentation (reach of DAC, ACC and multimode optics).

#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::analysis::analyze;
use racksmith::catalog::Catalog;
use racksmith::edit::move_rack;
use racksmith::model::{Design, Floor, Link, LinkId, PartId, PortRef, RackId};
use std::path::Path;

fn catalog() -> Catalog {
    Catalog::builtin().unwrap()
}

/// Copies catalog parts into a design.
fn with_parts(design: &mut Design, ids: &[&str]) {
    let c = catalog();
    for id in ids {
        design
            .parts
            .insert(PartId::new(*id), c.get(id).unwrap().clone());
    }
}

const OPTICS: [&str; 9] = [
    "ib-ndr-dac",
    "ib-ndr-acc",
    "ib-ndr-mpo-mm",
    "ib-ndr-mpo-sm",
    "osfp-2x400g-sr8-finned",
    "osfp-2x400g-sr8-flat",
    "osfp-400g-sr4-flat",
    "osfp-2x400g-dr8-finned",
    "osfp-2x400g-dr8-flat",
];

/// `units` scalable units of the H100 reference architecture's compute fabric (32 DGX per SU on 8 rails, leaves of
/// 32 down and 32 up, every leaf evenly to every spine), every link on multimode fibre.
fn scalable_units(units: usize, spines: usize) -> Design {
    let servers: Vec<Vec<usize>> = (0..32 * units)
        .map(|n| (0..8).map(|rail| (n / 32) * 8 + rail).collect())
        .collect();
    let leaves = 8 * units;
    let per_spine = (32 / spines) as u16;
    let uplinks = vec![vec![per_spine; spines]; leaves];
    let mut d =
        racksmith::samples::dgx_fabric(&catalog(), &servers, leaves, spines, &uplinks).unwrap();
    with_parts(&mut d, &OPTICS);
    for l in d.links.values_mut() {
        l.cable = Some(PartId::new("ib-ndr-mpo-mm"));
    }
    d
}

fn count_of(r: &racksmith::analysis::physical::PhysicalReport, part: &str) -> u64 {
    r.transceivers
        .iter()
        .filter(|t| t.part == part)
        .map(|t| t.count)
        .sum()
}

#[test]
fn one_scalable_unit_needs_512_twin_port_transceivers_and_512_fibres() {
    let d = scalable_units(1, 4);
    assert_eq!(d.links.len(), 512, "256 node links + 256 leaf-spine links");
    let r = analyze(&d);
    let p = &r.physical;
    // DGX: 32 systems x 4 twin-port cages = 128 (flat top); leaves: 8 x (16 down + 16 up cages) = 256 and
    // spines: 4 x 32 cages = 128 (finned top): 128 + 256 + 128 = 512, each carrying two links.
    assert_eq!(count_of(p, "osfp-2x400g-sr8-flat"), 128);
    assert_eq!(count_of(p, "osfp-2x400g-sr8-finned"), 384);
    assert!(p.transceivers.iter().all(|t| t.ports == 2));
    assert!(p.transceivers.iter().all(|t| t.form_factor == "OSFP"));
    let fibres: u64 = p.cables.iter().map(|c| c.count).sum();
    assert_eq!(fibres, 512);
    assert_eq!(p.out_of_reach, 0);
    // Power: 512 transceivers x 17 W = 8,704 W; price 512 x $1,000 + 512 fibres x $75 = $550,400.
    assert!(
        (p.optics_power_w - 8704.0).abs() < 1e-6,
        "{}",
        p.optics_power_w
    );
    assert!((p.optics_cost_usd - 550_400.0).abs() < 1e-6);
    // The BOM counts the same transceivers.
    let bom = |part: &str| {
        r.cost
            .bom
            .iter()
            .find(|b| b.part == part)
            .map_or(0, |b| b.quantity)
    };
    assert_eq!(bom("osfp-2x400g-sr8-flat"), 128);
    assert_eq!(bom("osfp-2x400g-sr8-finned"), 384);
    assert_eq!(bom("ib-ndr-mpo-mm"), 512);
    // Rack power: each DGX draws its 4 transceivers (4 x 17 W = 68 W) on top of its own draw.
    let dgx = d.device_named("dgx-001").unwrap();
    let dev = r.power.devices.iter().find(|x| x.device == dgx).unwrap();
    let without = racksmith::analysis::power::device_power_w(
        &{
            let mut bare = d.clone();
            bare.links.clear();
            bare
        },
        dgx,
    );
    assert!(
        (dev.power_w - without - 68.0).abs() < 1e-6,
        "{} vs {without}",
        dev.power_w
    );
}

#[test]
fn four_scalable_units_fill_the_switch_cages() {
    let d = scalable_units(4, 16);
    let r = analyze(&d);
    let p = &r.physical;
    // 32 leaves x 32 cages + 16 spines x 32 cages = 1,536 twin-port transceivers in the switches, and 128 DGX x 4
    // cages = 512 in the systems: 2,048 in all, for 2,048 links (1,024 node, 1,024 leaf-spine).
    assert_eq!(d.links.len(), 2048);
    assert_eq!(count_of(p, "osfp-2x400g-sr8-finned"), 1536);
    assert_eq!(count_of(p, "osfp-2x400g-sr8-flat"), 512);
    assert_eq!(p.transceivers.iter().map(|t| t.count).sum::<u64>(), 2048);
}

/// One pass's remembered builds equal the builds worked out link by link: the cache keys on everything a build
/// reads (cable, protocol and rate, length, each end's cage shape). And a design re-estimated twice is unchanged
/// the second time.
#[test]
fn remembered_builds_equal_each_links_own() {
    let mut d = scalable_units(4, 16);
    let mut cache = racksmith::model::build::BuildCache::default();
    let mut fibres = 0;
    for l in d.links.values() {
        let own = racksmith::model::build::build_of(&d, l);
        fibres += usize::from(own.ends.iter().any(Option::is_some));
        assert_eq!(cache.build_of(&d, l), own, "{:?} - {:?}", l.a, l.b);
    }
    assert!(fibres > 2000, "{fibres} fibres");
    assert!(d.reestimate().is_empty());
}

/// Two QM9700 in their own 42U racks on one floor, cabled p1 to p1 with the length and medium left to the floor.
fn two_racks(slot_b: u16, floor: Floor) -> (Design, LinkId, RackId) {
    let c = catalog();
    let mut d = Design {
        floor,
        ..Design::default()
    };
    let mut b = racksmith::edit::Builder::new(&mut d, &c);
    let (ra, _) = b.add_rack("rack-42u", "A", 0, 0).unwrap();
    let (rb, _) = b.add_rack("rack-42u", "B", 0, slot_b).unwrap();
    let x = b.add_device("qm9700", "sw-a", ra, 1).unwrap();
    let y = b.add_device("qm9700", "sw-b", rb, 1).unwrap();
    with_parts(&mut d, &OPTICS);
    let id = LinkId(d.alloc_id());
    d.links.insert(
        id,
        Link {
            a: PortRef::new(x, "p1"),
            b: PortRef::new(y, "p1"),
            medium: racksmith::model::Medium::InfiniBand(racksmith::model::IbRate::Ndr),
            length_m: 1.0,
            cable: None,
            estimated_length: true,
            auto_cable: true,
            ..Link::default()
        },
    );
    d.reestimate();
    (d, id, rb)
}

/// A floor whose tray makes the run from a 1U switch at U1 of a 42U rack exactly 2 m: the rack's top is
/// 42 x 44.45 mm = 1,866.9 mm, the switch's middle 22.225 mm up, so 1,844.675 mm to the top and 155.325 mm more.
fn two_metre_floor() -> Floor {
    Floor {
        tray_height_mm: 155.325,
        slack_factor: 1.2,
        service_loop_m: 0.0,
        ..Floor::default()
    }
}

#[test]
fn five_places_apart_is_ordered_as_ten_metres_of_multimode_fibre() {
    let (d, id, _) = two_racks(5, two_metre_floor());
    let plan = racksmith::model::FloorPlan::new(&d);
    let e = d.estimate_link(&plan, d.links.get(&id).unwrap()).unwrap();
    // (5 x 0.6 + 2 x 2) x 1.2 = 8.4 m.
    assert!((e.horizontal_m - 3.0).abs() < 1e-9);
    assert!((e.vertical_m - 4.0).abs() < 1e-9);
    assert!((e.length_m - 8.4).abs() < 1e-9, "{}", e.length_m);
    // Beyond DAC (2 m) and ACC (5 m): multimode fibre at its next stock length, 10 m, twin-port optics both ends.
    let l = d.links.get(&id).unwrap();
    assert_eq!(l.cable.as_ref().unwrap().as_str(), "ib-ndr-mpo-mm");
    assert_eq!(l.length_m, 10.0);
    let r = analyze(&d);
    assert_eq!(count_of(&r.physical, "osfp-2x400g-sr8-finned"), 2);
    assert_eq!(r.physical.cables.len(), 1);
    assert_eq!(r.physical.cables[0].length_m, 10.0);
    assert_eq!(r.physical.estimated_links, 1);
    assert!(
        r.findings
            .iter()
            .any(|f| f.code.as_str() == "estimated-lengths"
                && f.message.starts_with("1 link length"))
    );
}

#[test]
fn moving_a_rack_re_estimates_its_links_and_undo_restores_them() {
    let (mut d, id, rb) = two_racks(5, two_metre_floor());
    // Next to it: (0.6 + 4) x 1.2 = 5.52 m, still past ACC's 5 m: 7 m of multimode fibre.
    let inverse = move_rack(&d, rb, 0, 1).unwrap().apply(&mut d).unwrap();
    let l = d.links.get(&id).unwrap();
    assert_eq!(l.length_m, 7.0);
    assert_eq!(l.cable.as_ref().unwrap().as_str(), "ib-ndr-mpo-mm");
    // A place taken by another rack is refused.
    assert!(move_rack(&d, rb, 0, 0).is_err());
    inverse.apply(&mut d).unwrap();
    assert_eq!(d.links.get(&id).unwrap().length_m, 10.0);
    // A shorter floor: tray 0, no slack: (0.6 + 2 x 1.844675) = 4.29 m, within ACC: 5 m of active copper.
    let (d, id, _) = two_racks(
        1,
        Floor {
            tray_height_mm: 0.0,
            slack_factor: 1.0,
            ..Floor::default()
        },
    );
    let l = d.links.get(&id).unwrap();
    assert_eq!(l.cable.as_ref().unwrap().as_str(), "ib-ndr-acc");
    assert_eq!(l.length_m, 5.0);
    assert!(analyze(&d).physical.transceivers.is_empty());
}

#[test]
fn a_link_past_its_cable_is_an_error_naming_what_would_reach() {
    let (mut d, id, _) = two_racks(5, two_metre_floor());
    let l = d.links.get_mut(&id).unwrap();
    l.auto_cable = false;
    l.estimated_length = false;
    l.cable = Some(PartId::new("ib-ndr-dac"));
    l.length_m = 8.4;
    let r = analyze(&d);
    assert_eq!(r.physical.out_of_reach, 1);
    let f = r
        .findings
        .iter()
        .find(|f| f.code.as_str() == "cable-reach")
        .unwrap();
    assert!(
        f.message.contains("ib-ndr-dac reaches 2 m"),
        "{}",
        f.message
    );
    assert!(
        f.message.contains("ib-ndr-mpo-mm (10 m) would reach"),
        "{}",
        f.message
    );
    assert_eq!(f.links, vec![id]);
}

#[test]
fn a_version_1_file_loads_with_the_same_figures() {
    // The 1-SU sample as version 1 wrote it (tests/fixtures), before the floor.
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/superpod-h100-1su-v1.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("format_version: 1,"));
    let v1 = racksmith::io::design_from_str(&text, &path).unwrap();
    assert_eq!(v1.format_version, racksmith::model::FORMAT_VERSION);
    // Its links keep the lengths and kits they were written with: fixed, none estimated.
    assert!(
        v1.links
            .values()
            .all(|l| !l.estimated_length && !l.auto_cable)
    );
    assert_eq!(
        v1.links.values().filter(|l| l.length_m == 15.0).count(),
        248 + 124
    );
    let saved = racksmith::io::design_to_string(&v1).unwrap();
    assert!(saved.contains("format_version: 2,"));
    let v2 = racksmith::io::design_from_str(&saved, &path).unwrap();
    let (a, b) = (analyze(&v1), analyze(&v2));
    assert_eq!(
        serde_json::to_value(&a).unwrap(),
        serde_json::to_value(&b).unwrap()
    );
    // The figures version 1 gave: 528 two-end kits at $1,700 in the BOM, no transceivers of their own, and a compute
    // rack of 4 x (10,200 + 8 kits x 18 / 2 + 4 AOCs x 9 / 2) = 41,160 W.
    let kits = a
        .cost
        .bom
        .iter()
        .find(|l| l.part == "ib-ndr-optic")
        .unwrap();
    assert_eq!(kits.quantity, 528);
    assert!(a.physical.transceivers.is_empty());
    assert_eq!(a.physical.estimated_links, 0);
    let c1 = a.power.racks.iter().find(|r| r.name == "C001").unwrap();
    assert!((c1.power_w - 41_160.0).abs() < 0.01, "{}", c1.power_w);
}

/// The error for a design text, as the loader gives it.
fn refused(text: &str) -> String {
    racksmith::io::design_from_str(text, Path::new("bad.ron"))
        .unwrap_err()
        .to_string()
}

fn small_text() -> String {
    let (d, ..) = two_racks(5, two_metre_floor());
    racksmith::io::design_to_string(&d).unwrap()
}

#[test]
fn bad_floor_lengths_and_places_are_refused_with_line_and_column() {
    let text = small_text();
    assert!(text.contains("    floor: ("), "{text}");
    // NaN and negative floor figures.
    let bad = text.replace("slack_factor: 1.2", "slack_factor: NaN");
    let e = refused(&bad);
    assert!(e.contains("floor.slack_factor"), "{e}");
    assert!(e.contains("line "), "{e}");
    let bad = text.replace("hot_aisle_mm: 900.0", "hot_aisle_mm: -5.0");
    assert!(refused(&bad).contains("floor.hot_aisle_mm"));
    // A huge length.
    let bad = text.replace("length_m: 10.0", "length_m: 1e300");
    let e = refused(&bad);
    assert!(e.contains("length_m") && e.contains("line "), "{e}");
    // An unknown fibre mode in a part.
    let bad = text.replacen("fibre: Some(Multimode)", "fibre: Some(Multimodal)", 1);
    let e = refused(&bad);
    assert!(e.starts_with("bad.ron:"), "{e}");
    assert!(e.contains("Multimodal"), "{e}");
    // Two racks in one place.
    let bad = text.replace("slot: 5,", "slot: 0,");
    let e = refused(&bad);
    assert!(e.contains("stands in the place of rack A"), "{e}");
    assert!(e.contains("line "), "{e}");
    // A rack of impossible width.
    let bad = text.replacen("slot: 5,", "slot: 5, width_mm: Some(-800.0),", 1);
    let e = refused(&bad);
    assert!(e.contains("width_mm"), "{e}");
}

#[test]
fn wider_network_racks_push_the_row_along() {
    // Slots 0, 1, 2 with an 800 mm rack in slot 1: centres at 300, 1,000 and 1,700 mm.
    let c = catalog();
    let mut d = Design::default();
    let mut b = racksmith::edit::Builder::new(&mut d, &c);
    let ids: Vec<RackId> = (0..3)
        .map(|s| b.add_rack("rack-42u", &format!("R{s}"), 0, s).unwrap().0)
        .collect();
    d.racks.get_mut(&ids[1]).unwrap().width_mm = Some(800.0);
    let plan = racksmith::model::FloorPlan::new(&d);
    let xs: Vec<f64> = ids.iter().map(|r| plan.place(*r).unwrap().x_mm).collect();
    assert_eq!(xs, [300.0, 1000.0, 1700.0]);
}

#[test]
fn the_pull_list_counts_parts_by_length_then_lists_each_link() {
    let (d, id, _) = two_racks(5, two_metre_floor());
    let r = analyze(&d);
    let csv = racksmith::export::export(
        &d,
        &r,
        racksmith::export::Format::PullList,
        &racksmith::export::Options::default(),
    )
    .unwrap();
    let text = String::from_utf8(csv).unwrap();
    let (parts, schedule) = text.split_once("\n\n").unwrap();
    // Two finned twin-port SR8 (one per switch cage) and one 10 m multimode fibre.
    assert!(
        parts.contains("osfp-2x400g-sr8-finned,MMA4Z00-NS,OSFP 2-port transceiver,,2"),
        "{parts}"
    );
    assert!(
        parts.contains("ib-ndr-mpo-mm,MFP7E10-N0xx,cable,10,1"),
        "{parts}"
    );
    let row = schedule.lines().nth(1).unwrap();
    assert!(
        row.starts_with(&format!(
            "{},A,1,sw-a,p1,p1,osfp-2x400g-sr8-finned,B,1,sw-b,p1,p1,",
            id.0
        )),
        "{row}"
    );
    assert!(
        row.contains(",ib-ndr-mpo-mm,10,estimate,by reach,yes,"),
        "{row}"
    );
}

/// A twin-port cage runs one medium (docs/analysis.md, "Cable lengths from the floor"): a link that would go on
/// copper by its own length goes on fibre when the other port of its cage carries a fibre, and back on copper when
/// that fibre is gone.
#[test]
fn a_copper_link_sharing_a_cage_with_a_fibre_goes_on_fibre() {
    let (mut d, far, _) = two_racks(5, two_metre_floor());
    let ra = *d.racks.iter().find(|(_, r)| r.name == "A").unwrap().0;
    let sw_a = d.links[&far].a.device;
    let c = catalog();
    let sw_c = racksmith::edit::Builder::new(&mut d, &c)
        .add_device("qm9700", "sw-c", ra, 3)
        .unwrap();
    // sw-a's p2 shares OSFP cage 1 with p1, which runs 10 m of multimode fibre to rack B. By its own length (2U
    // apart in one rack: 88.9 mm x 1.2 = 0.11 m) sw-a p2 to sw-c p1 would be 0.5 m of DAC.
    let near = LinkId(d.alloc_id());
    d.links.insert(
        near,
        Link {
            a: PortRef::new(sw_a, "p2"),
            b: PortRef::new(sw_c, "p1"),
            ..d.links[&far].clone()
        },
    );
    d.reestimate();
    assert_eq!(
        d.links[&far].cable.as_ref().unwrap().as_str(),
        "ib-ndr-mpo-mm"
    );
    assert_eq!(
        d.links[&near].cable.as_ref().unwrap().as_str(),
        "ib-ndr-mpo-mm"
    );
    // One twin-port transceiver in sw-a's cage 1 carries both links; sw-b's and sw-c's cages one each.
    let r = analyze(&d);
    let twin: u64 = r
        .physical
        .transceivers
        .iter()
        .filter(|t| t.ports == 2)
        .map(|t| t.count)
        .sum();
    assert_eq!(twin, 3, "{:?}", r.physical.transceivers);
    // Without the fibre, the short link goes back on copper at its stock length.
    d.links.remove(&far);
    d.reestimate();
    assert_eq!(
        d.links[&near].cable.as_ref().unwrap().as_str(),
        "ib-ndr-dac"
    );
    assert_eq!(d.links[&near].length_m, 0.5);
}

/// The analysis works out the links' builds beside the network sections (two threads when it has them): the report
/// is the one of the sections run one after the other, to the byte, on a design whose builds and network both
/// matter (a 2-SU SuperPOD, its fabric estimated from the floor and one rack moved to a row of its own so some links change medium).
#[test]
fn builds_worked_out_beside_the_network_give_the_same_report() {
    let mut d = racksmith::samples::superpod_h100(&catalog(), 2).unwrap();
    let rack = *d.racks.keys().nth(2).unwrap();
    let r = d.racks.get(&rack).unwrap().clone();
    let edit = move_rack(&d, rack, r.row + 7, r.slot).unwrap();
    edit.apply(&mut d).unwrap();
    let builds = racksmith::analysis::physical::builds(&d);
    let json = |r: &racksmith::analysis::Report| serde_json::to_string(r).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let beside = pool.install(|| analyze(&d));
    let after = racksmith::analysis::analyze_with_builds(&d, &builds);
    assert_eq!(json(&beside), json(&after));
    assert!(
        beside
            .physical
            .transceivers
            .iter()
            .map(|t| t.count)
            .sum::<u64>()
            > 1000
    );
}

#[test]
fn a_superpod_past_the_reference_sizes_keeps_its_storage_cables_within_reach() {
    // Up to 4 SU the storage racks stand together after the network racks, as in NVIDIA's reference architecture.
    // Beyond, each SU's storage rack stands after its compute racks: together at the end of the floor they were
    // 103 m from the first SU's systems at 64 SU, past the HDR AOC's 100 m (623 storage links out of reach).
    let catalog = catalog();
    let slot_of = |d: &Design, name: &str| {
        d.racks
            .values()
            .find(|r| r.name == name)
            .map(|r| (r.row, r.slot))
            .expect(name)
    };
    let four = racksmith::samples::superpod_h100(&catalog, 4).unwrap();
    let last_network = four
        .racks
        .values()
        .filter(|r| r.name.starts_with('N'))
        .map(|r| (r.row, r.slot))
        .max()
        .unwrap();
    assert!(slot_of(&four, "S001") > last_network);
    let d = racksmith::samples::superpod_h100(&catalog, 64).unwrap();
    // C008 holds the first SU's last four systems; S001 is the next place of the floor, S002 follows C016.
    let (row, slot) = slot_of(&d, "C008");
    assert_eq!(slot_of(&d, "S001"), (row, slot + 1));
    let (row, slot) = slot_of(&d, "C016");
    let next = if slot == 15 {
        (row + 1, 0)
    } else {
        (row, slot + 1)
    };
    assert_eq!(slot_of(&d, "S002"), next);
    let builds = racksmith::analysis::physical::builds(&d);
    let out: Vec<LinkId> = builds
        .link_builds()
        .filter(|(_, b)| !b.reaches)
        .map(|(id, _)| id)
        .collect();
    assert!(
        out.is_empty(),
        "{} links out of reach, the first {:?}",
        out.len(),
        out.first()
    );
}
