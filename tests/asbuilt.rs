//! As built against as designed (issue 43): a design's fabric written as ibnetdiscover reports it, changed as a
//! technician might get it wrong, and read back: every change is reported in its class and nothing else.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::analysis::asbuilt::diff;
use racksmith::catalog::Catalog;
use racksmith::io::fabric::read_ibnetdiscover;
use std::path::Path;

fn superpod(units: usize) -> racksmith::model::Design {
    racksmith::templates::superpod::superpod_h100(&Catalog::builtin().unwrap(), units).unwrap()
}

/// The port lines of the text, by the line they are on.
fn port_lines(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with('['))
        .map(|(i, _)| i)
        .collect()
}

#[test]
fn the_design_read_back_is_as_designed() {
    let d = superpod(1);
    let text = racksmith::export::ibnetdiscover::write(&d);
    let found = read_ibnetdiscover(&text, Path::new("pod.txt")).unwrap();
    let ib_links = d
        .links
        .values()
        .filter(|l| matches!(l.medium, racksmith::model::Medium::InfiniBand(_)))
        .count();
    // Every cable is written from both ends and read once.
    assert_eq!(port_lines(&text).len(), 2 * ib_links);
    assert_eq!(found.cables.len(), ib_links);
    let r = diff(&d, &found);
    assert!(!r.differs(), "{r:?}");
    assert_eq!(r.matched, ib_links);
}

#[test]
fn two_swapped_one_removed_one_slow_are_reported_exactly() {
    // The issue's case: the fabric as built has two cables swapped at a leaf, one removed and one trained at HDR
    // instead of NDR. Built as a copy of the design so changed, written as ibnetdiscover reports it and read
    // back: 2 miswired, 1 missing, 1 slow, nothing else.
    let d = superpod(1);
    let mut built = d.clone();
    let leaf = built.device_named("leaf-su01-r1").unwrap();
    let mut to_leaf: Vec<racksmith::model::LinkId> = built
        .links
        .iter()
        .filter(|(_, l)| l.b.device == leaf && l.a.port.starts_with("nic"))
        .map(|(id, _)| *id)
        .collect();
    to_leaf.sort();
    let (l1, l2, l3, l4) = (to_leaf[0], to_leaf[1], to_leaf[2], to_leaf[3]);
    let (p1, p2) = (
        built.links[&l1].b.port.clone(),
        built.links[&l2].b.port.clone(),
    );
    built.links.get_mut(&l1).unwrap().b.port = p2;
    built.links.get_mut(&l2).unwrap().b.port = p1;
    built.links.remove(&l3);
    built.links.get_mut(&l4).unwrap().medium =
        racksmith::model::Medium::InfiniBand(racksmith::model::IbRate::Hdr);
    let text = racksmith::export::ibnetdiscover::write(&built);
    let found = read_ibnetdiscover(&text, Path::new("as-built.txt")).unwrap();
    let r = diff(&d, &found);
    assert_eq!(counts(&r), (2, 1, 1, 0, 0, 0), "{r:#?}");
    assert_eq!(r.missing[0].link, Some(l3));
    assert_eq!(r.slow[0].cable.link, Some(l4));
    assert_eq!(
        (r.slow[0].found.as_str(), r.slow[0].cable.rate.as_str()),
        ("4xHDR", "4xNDR")
    );
    let swapped: Vec<_> = r.miswired.iter().map(|m| m.designed.link).collect();
    assert_eq!(swapped, [Some(l1), Some(l2)]);
    // Each row names both ends as the cabling plan does: rack, unit, device, port.
    let ends = format!("{} | {}", r.missing[0].a, r.missing[0].b);
    assert!(ends.contains("rack N001 U2 leaf-su01-r1 p3"), "{ends}");
    assert!(ends.contains("rack C001 U19 dgx-0003 nic0/p1"), "{ends}");
}

#[test]
fn a_real_ibnetdiscover_file_parses() {
    // tests/fixtures/fabric/ibnetdiscover-sdr.txt: lines of a real ibnetdiscover run (an Infiniscale-III switch and
    // its HCAs), as quoted in the source of the OSU/LLNL tool ibtop (see the fixture's header).
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fabric/ibnetdiscover-sdr.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let found = read_ibnetdiscover(&text, &path).unwrap();
    assert_eq!(found.nodes.len(), 3);
    assert_eq!(found.cables.len(), 2);
    assert!(
        found
            .cables
            .iter()
            .all(|c| c.width == 4 && c.speed == "SDR")
    );
    let sw = found.nodes.values().find(|n| n.switch).unwrap();
    assert_eq!(
        sw.description,
        "MT47396 Infiniscale-III Mellanox Technologies"
    );
    // Against a design that has none of these nodes: all unknown, all extra.
    let r = diff(&superpod(1), &found);
    assert_eq!(r.unknown_devices.len(), 3);
    assert_eq!(r.extra.len(), 2);
}

#[test]
fn bad_lines_are_refused_with_file_and_line() {
    // A port line cut before its comment (where the rate is).
    let text = "Switch 24 \"S-0001\" # \"sw\"\n[1] \"H-0002\"[1]\n";
    let err = read_ibnetdiscover(text, Path::new("bad.txt"))
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("bad.txt, line 2:"), "{err}");
    assert!(err.contains("4xNDR"), "{err}");
    let err = read_ibnetdiscover("hello\n", Path::new("bad.txt"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("line 1"), "{err}");
    let err = read_ibnetdiscover("[1] \"S-1\"[1] # 4xNDR\n", Path::new("bad.txt"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("outside a Switch or Ca record"), "{err}");
}

#[test]
fn diff_fabric_exits_by_whether_anything_differs() {
    let dir = tempfile::tempdir().unwrap();
    let design = dir.path().join("pod.ron");
    let fabric = dir.path().join("pod-ibnetdiscover.txt");
    std::fs::write(
        &design,
        racksmith::io::design_to_string(&superpod(1)).unwrap(),
    )
    .unwrap();
    let run = |args: &[&std::ffi::OsStr]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_racksmith"))
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&[
        "export".as_ref(),
        design.as_os_str(),
        "--format".as_ref(),
        "ibnetdiscover".as_ref(),
        "-o".as_ref(),
        fabric.as_os_str(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let diff = |format: &str| {
        run(&[
            "diff-fabric".as_ref(),
            design.as_os_str(),
            "--ibnetdiscover".as_ref(),
            fabric.as_os_str(),
            "--format".as_ref(),
            format.as_ref(),
        ])
    };
    let same = diff("text");
    assert_eq!(same.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&same.stdout).contains("0 missing, 0 miswired, 0 slow, 0 extra")
    );
    // One cable trained slow: exit 1, and the JSON has the arrays acceptance scripts read.
    let text = std::fs::read_to_string(&fabric).unwrap();
    std::fs::write(&fabric, text.replace("4xNDR", "4xHDR")).unwrap();
    let slow = diff("json");
    assert_eq!(slow.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&slow.stdout).unwrap();
    for key in [
        "missing",
        "extra",
        "miswired",
        "slow",
        "unknown_devices",
        "missing_devices",
    ] {
        assert!(json[key].is_array(), "{key}");
    }
    assert!(!json["slow"].as_array().unwrap().is_empty());
    // A file that is not ibnetdiscover's: exit 2 with the file and line.
    std::fs::write(&fabric, "not a topology\n").unwrap();
    let bad = diff("text");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("line 1"));
}

#[test]
fn lldpd_outputs_parse_in_both_json_forms() {
    // lldpd's own integration tests' expected outputs (tests/fixtures/fabric/lldpd/README.md).
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fabric/lldpd");
    for file in ["ns-1.json", "ns-1.json0.json"] {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let n = racksmith::io::fabric::read_lldp(&text, &path).unwrap();
        assert_eq!(n.len(), 1, "{file}");
        assert_eq!(
            (
                n[0].local_port.as_str(),
                n[0].remote_name.as_str(),
                n[0].remote_port.as_str()
            ),
            ("eth0", "ns-2.example.com", "eth1"),
            "{file}"
        );
    }
    let err = racksmith::io::fabric::read_lldp("{\n\"lldp\": [\n", Path::new("bad.json"))
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("bad.json, line 3"), "{err}");
}

/// What each switch of a design would report over LLDP, as lldpcli's `-f json` writes it: its Ethernet ports by
/// their SONiC-style names (`Ethernet12` for `p12`), each with the neighbour's name and port.
fn lldp_of(
    d: &racksmith::model::Design,
) -> Vec<(String, Vec<racksmith::io::fabric::LldpNeighbour>)> {
    let mut by_switch: std::collections::BTreeMap<
        String,
        Vec<racksmith::io::fabric::LldpNeighbour>,
    > = Default::default();
    for l in d.links.values() {
        if !matches!(l.medium, racksmith::model::Medium::Ethernet(_)) {
            continue;
        }
        for (near, far) in [(&l.a, &l.b), (&l.b, &l.a)] {
            let dev = &d.devices[&near.device];
            let is_switch = matches!(
                d.parts[&dev.part].kind,
                racksmith::catalog::PartKind::Switch(_)
            );
            if is_switch {
                by_switch.entry(dev.name.clone()).or_default().push(
                    racksmith::io::fabric::LldpNeighbour {
                        local_port: format!("Ethernet{}", &near.port[1..]),
                        remote_name: d.devices[&far.device].name.clone(),
                        remote_port: far.port.to_string(),
                    },
                );
            }
        }
    }
    by_switch.into_iter().collect()
}

#[test]
fn ethernet_as_lldp_sees_it() {
    use racksmith::analysis::asbuilt::{diff_ethernet, from_lldp};
    let d = racksmith::samples::sample("l40s-inference-pcie").unwrap();
    let reports = lldp_of(&d);
    let r = diff_ethernet(&d, &from_lldp(&d, &reports));
    let eth = d
        .links
        .values()
        .filter(|l| matches!(l.medium, racksmith::model::Medium::Ethernet(_)))
        .count();
    assert!(!r.differs(), "{r:#?}");
    assert_eq!(r.matched, eth);
    // Two server cables swapped at their switch: 2 miswired, nothing else.
    let mut reports = reports;
    let ports = &mut reports[0].1;
    let (x, y) = (ports[0].remote_port.clone(), ports[1].remote_port.clone());
    let (xn, yn) = (ports[0].remote_name.clone(), ports[1].remote_name.clone());
    ports[0].remote_port = y;
    ports[0].remote_name = yn;
    ports[1].remote_port = x;
    ports[1].remote_name = xn;
    let r = diff_ethernet(&d, &from_lldp(&d, &reports));
    assert_eq!(
        (
            r.miswired.len(),
            r.missing.len(),
            r.extra.len(),
            r.slow.len()
        ),
        (2, 0, 0, 0),
        "{r:#?}"
    );
}

#[test]
fn the_difference_as_csv_and_html_names_every_row_escaped() {
    // A device named with markup and a formula: the CSV neutralises the formula, the HTML escapes the markup.
    let mut d = superpod(1);
    let (id, dgx) = d
        .devices
        .iter_mut()
        .find(|(_, x)| x.name == "dgx-0001")
        .unwrap();
    let id = *id;
    dgx.name = "=dgx<b>1".into();
    let mut built = d.clone();
    let gone: Vec<_> = built
        .links
        .iter()
        .filter(|(_, l)| l.a.device == id && l.a.port == "nic0/p1")
        .map(|(k, _)| *k)
        .collect();
    for k in &gone {
        built.links.remove(k);
    }
    let found = read_ibnetdiscover(
        &racksmith::export::ibnetdiscover::write(&built),
        Path::new("x.txt"),
    )
    .unwrap();
    let r = diff(&d, &found);
    assert_eq!((r.missing.len(), r.rows().len()), (1, 1), "{r:#?}");
    let csv = String::from_utf8(racksmith::export::tables::fabric_diff_csv(&r).unwrap()).unwrap();
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 1);
    assert_eq!(&rows[0][0], "missing");
    assert!(
        rows[0]
            .iter()
            .any(|c| c.contains("'=dgx<b>1") || c.contains("=dgx<b>1 nic0/p1")),
        "{:?}",
        rows[0]
    );
    assert!(!rows[0].iter().any(|c| c.starts_with('=')), "{:?}", rows[0]);
    let html = racksmith::export::html::fabric_diff(&d, &r, &Default::default());
    assert!(html.contains("=dgx&lt;b&gt;1"), "escaped");
    assert!(!html.contains("<b>1"));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    /// Mangled fabric reports (ibnetdiscover text cut, spliced and garbled; LLDP JSON likewise) are read or refused
    /// with a line, never a panic, and the diff of whatever is read never panics either.
    #[test]
    fn mangled_fabric_reports_never_panic(cut in 0.0f64..1.0, splice in 0.0f64..1.0, junk in "[\\[\\]\"#()0-9a-zA-Z x=\n]{0,40}") {
        let d = racksmith::samples::sample("dgx-h100-single").unwrap();
        let text = racksmith::export::ibnetdiscover::write(&d);
        let at = |f: f64| {
            let mut i = ((text.len() as f64) * f) as usize;
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let (a, b) = (at(cut.min(splice)), at(cut.max(splice)));
        let mangled = format!("{}{junk}{}", &text[..a], &text[b..]);
        if let Ok(found) = read_ibnetdiscover(&mangled, Path::new("m.txt")) {
            let _ = diff(&d, &found);
        }
        let json = format!("{{\"lldp\": {{\"interface\": {{\"eth0\": {{\"chassis\": {{\"{junk}\": {{}}}}, \"port\": {{\"descr\": \"{junk}\"}}}}}}}}}}");
        if let Ok(n) = racksmith::io::fabric::read_lldp(&json, Path::new("m.json")) {
            let _ = racksmith::analysis::asbuilt::diff_ethernet(
                &d,
                &racksmith::analysis::asbuilt::from_lldp(&d, &[("leaf-01".into(), n)]),
            );
        }
    }
}

fn fixture(name: &str) -> (std::path::PathBuf, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/fabric")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    (path, text)
}

#[test]
fn real_ibnetdiscover_outputs_parse() {
    // tests/fixtures/fabric/ibnetdiscover/README.md gives each file's source; the counts are the README's.
    let (path, text) = fixture("ibnetdiscover/topograph-ndr.txt");
    let found = read_ibnetdiscover(&text, &path).unwrap();
    assert_eq!(found.nodes.len(), 622);
    assert_eq!(found.nodes.values().filter(|n| n.switch).count(), 40);
    assert_eq!(found.cables.len(), 1114);
    assert!(
        found
            .cables
            .iter()
            .all(|c| c.width == 4 && c.speed == "NDR")
    );
    assert_eq!(
        found.nodes["S-2c5eab0300b87b40"].description,
        "MF0;A09-P1-IBLEAF-04-04:MQM9701/U1"
    );
    let (path, text) = fixture("ibnetdiscover/topograph-lone-hca.txt");
    let found = read_ibnetdiscover(&text, &path).unwrap();
    assert_eq!((found.nodes.len(), found.cables.len()), (1, 0));
    let (path, text) = fixture("ibnetdiscover/rdma-core-man-voltaire.txt");
    let found = read_ibnetdiscover(&text, &path).unwrap();
    assert_eq!(found.nodes.len(), 6);
    assert_eq!(found.nodes.values().filter(|n| n.switch).count(), 2);
    assert_eq!(found.cables.len(), 7);
    // Two links that one end reports at 4xSDR and the other at 1xSDR keep the lower.
    let one_lane = found.cables.iter().filter(|c| c.width == 1).count();
    assert_eq!(one_lane, 2);
    assert!(found.cables.iter().all(|c| c.speed == "SDR"));
}

#[test]
fn ibnetdiscover_variants_parse() {
    // What ibnetdiscover.c writes besides the plain records: grouped output (-g: Chassis and Hostname lines,
    // [ext N] after ports, a chassis comment after sysimgguid), full info (-f: s= w= v= after the rate), rates it
    // cannot name (??x???), FDR10, a router, and a port line from an old version that gives no rate.
    let text = "#\n# Topology file: generated on Tue Jun  5 14:15:10 2007\n#\n\nChassis 1 (guid 0x8f10400411a08)\n\
        Hostname: ibsw-1\n\n\
        vendid=0x8f1\ndevid=0x5a30\nsysimgguid=0x8f10400411a09\t\t# Chassis 1 (ISR2012) \n\
        switchguid=0x8f10400411a08(8f10400411a08)\t# ISR2012 Line 1 Chip 1\n\
        Switch\t24 \"S-0008f10400411a08\"\t\t# \"ISR2012 Voltaire sLB-2024\" base port 0 lid 742 lmc 0\n\
        [1][ext 1]\t\"H-0002c90200247010\"[1](2c90200247011) \t\t# \"atlas35 HCA-1\" lid 12 4xFDR10 s=2 w=2 v=4\n\
        [2][ext 2]\t\"H-0002c9020024d5f8\"[1](2c9020024d5f9) \t\t# \"atlas34 HCA-1\" lid 13 ??x???\n\
        [3]\t\"H-0002c90200246fbc\"[1]\t\t# \"atlas32\" lid 1252\n\n\
        Non-Chassis Nodes\n\n\
        vendid=0x2c9\ndevid=0x6274\ncaguid=0x2c90200247010\n\
        Ca\t1 \"H-0002c90200247010\"\t\t# \"atlas35 HCA-1\"\n\
        [1](2c90200247011) \t\"S-0008f10400411a08\"[1][ext 1]\t\t# lid 12 lmc 0 \"ISR2012 Voltaire sLB-2024\" lid 742 4xFDR10\n\n\
        vendid=0x2c9\ndevid=0x6274\nrouterguid=0x2c9000000001\n\
        Rt\t2 \"R-0002c9000000001\"\t\t# \"router\"\n\
        [1](2c9000000001) \t\"S-0008f10400411a08\"[20]\t\t# lid 5 lmc 0 \"ISR2012\" lid 742 4xQDR\n";
    let found = read_ibnetdiscover(text, Path::new("grouped.txt")).unwrap();
    assert_eq!(found.nodes.len(), 2, "{:?}", found.nodes.keys());
    assert_eq!(found.cables.len(), 3);
    let atlas35 = found
        .cables
        .iter()
        .find(|c| c.a.0 == "H-0002c90200247010" || c.b.0 == "H-0002c90200247010")
        .unwrap();
    assert_eq!((atlas35.width, atlas35.speed.as_str()), (4, "FDR10"));
    assert_eq!(
        found
            .cables
            .iter()
            .filter(|c| c.width == 0 && c.speed.is_empty())
            .count(),
        2,
        "??x??? and no rate read as unknown: {:?}",
        found.cables
    );
    // An unknown rate is never reported slow, and HCA-N matches mlx5_{N-1}.
    assert!(
        racksmith::analysis::asbuilt::diff(&superpod(1), &found)
            .slow
            .is_empty()
    );
}

#[test]
fn real_fabric_diffs_against_a_design_by_its_names() {
    // The real NDR fabric against a design that has none of its nodes: every node unknown, every cable extra,
    // and nothing panics on 65-port switches, aggregation nodes or unnamed HCAs.
    let (path, text) = fixture("ibnetdiscover/topograph-ndr.txt");
    let found = read_ibnetdiscover(&text, &path).unwrap();
    let r = diff(&superpod(1), &found);
    assert_eq!(r.unknown_devices.len(), 622);
    assert_eq!(r.extra.len(), 1114);
}

/// A superpod's fabric as ibnetdiscover writes it, with `from` replaced by `to` in every description.
fn renamed_fabric(d: &racksmith::model::Design, from: &str, to: &str) -> String {
    racksmith::export::ibnetdiscover::write(d).replace(&format!("\"{from}"), &format!("\"{to}"))
}

#[test]
fn a_mapping_file_matches_nodes_named_otherwise() {
    use racksmith::io::fabric::read_map;
    let d = superpod(1);
    // Hosts named by the site's convention: unknown without a map.
    let text = renamed_fabric(&d, "dgx-0001 ", "a08-p1-dgx-04-c01 ");
    let found = read_ibnetdiscover(&text, Path::new("site.txt")).unwrap();
    let r = diff(&d, &found);
    assert!(r.unknown_devices.len() >= 8, "{:?}", r.unknown_devices);
    // Mapped by host name: the fabric is as designed.
    let map = read_map(
        "discovered,design,rack\n# the site's names\na08-p1-dgx-04-c01,dgx-0001,C001\n",
        Path::new("map.csv"),
    )
    .unwrap();
    let mut found = found;
    map.apply(&mut found);
    let r = diff(&d, &found);
    assert!(!r.differs(), "{}", r.summary());
    // A switch reporting only its model, mapped by its GUID.
    let leaf = d.device_named("leaf-su01-r1").unwrap();
    let guid = racksmith::analysis::asbuilt::FabricNode::Switch(leaf).guid();
    let text = racksmith::export::ibnetdiscover::write(&d)
        .replace("\"leaf-su01-r1\"", "\"Quantum-2 Mellanox Technologies\"");
    let mut found = read_ibnetdiscover(&text, Path::new("site.txt")).unwrap();
    assert!(
        diff(&d, &found)
            .unknown_devices
            .iter()
            .any(|u| u.contains("Quantum-2"))
    );
    let map = read_map(
        &format!("0x{},leaf-su01-r1\n", &guid[2..]),
        Path::new("map.csv"),
    )
    .unwrap();
    map.apply(&mut found);
    let r = diff(&d, &found);
    assert!(!r.differs(), "{}", r.summary());
    // A mapping file that is not one is refused with its line.
    let err = read_map("a,b\nc\n", Path::new("m.csv"))
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("m.csv, line 2:"), "{err}");
    let err = read_map("a,b\na,c\n", Path::new("m.csv"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("line 2") && err.contains("twice"), "{err}");
}

/// The design's cables as `export --format netbox` writes them (07-cables.csv).
fn netbox_cables_csv(d: &racksmith::model::Design) -> String {
    let files = racksmith::export::netbox::files(d).unwrap();
    let (_, bytes) = files
        .into_iter()
        .find(|(name, _)| name == "07-cables.csv")
        .unwrap();
    String::from_utf8(bytes).unwrap()
}

#[test]
fn netbox_cables_read_back_diff_to_nothing_and_changes_exactly() {
    use racksmith::analysis::asbuilt::{diff_cabled, from_netbox};
    use racksmith::io::fabric::read_netbox_cables;
    for d in [
        superpod(1),
        racksmith::samples::sample("l40s-inference-pcie").unwrap(),
    ] {
        let text = netbox_cables_csv(&d);
        let cables = read_netbox_cables(&text, Path::new("07-cables.csv")).unwrap();
        let network = d
            .links
            .values()
            .filter(|l| {
                matches!(
                    l.medium,
                    racksmith::model::Medium::InfiniBand(_) | racksmith::model::Medium::Ethernet(_)
                )
            })
            .count();
        let r = diff_cabled(&d, &from_netbox(&d, &cables));
        assert!(!r.differs(), "{}: {:#?}", d.name, r.rows());
        assert_eq!(r.matched, network, "{}", d.name);
        // Two cables' B sides swapped, one removed: 2 miswired, 1 missing, nothing else.
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header = reader.headers().unwrap().clone();
        let mut rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        // Two server-to-switch cables (the B side a switch port) on different switch ports.
        let server_rows: Vec<usize> = (0..rows.len())
            .filter(|&i| rows[i][2].starts_with("nic") || rows[i][2].contains('/'))
            .take(3)
            .collect();
        assert_eq!(server_rows.len(), 3, "{}", d.name);
        let (i, j, k) = (server_rows[0], server_rows[1], server_rows[2]);
        let bi: Vec<String> = rows[i].iter().map(str::to_string).collect();
        let bj: Vec<String> = rows[j].iter().map(str::to_string).collect();
        let swap = |row: &[String], other: &[String]| {
            let mut r = row.to_vec();
            r[3] = other[3].clone();
            r[5] = other[5].clone();
            csv::StringRecord::from(r)
        };
        rows[i] = swap(&bi, &bj);
        rows[j] = swap(&bj, &bi);
        rows.remove(k);
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(&header).unwrap();
        for r in &rows {
            w.write_record(r).unwrap();
        }
        let changed = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let cables = read_netbox_cables(&changed, Path::new("07-cables.csv")).unwrap();
        let r = diff_cabled(&d, &from_netbox(&d, &cables));
        assert_eq!(
            counts(&r),
            (2, 1, 0, 0, 0, 0),
            "{}: {:#?}",
            d.name,
            r.rows()
        );
    }
}

#[test]
fn netbox_cable_csvs_in_the_list_export_form_and_bad_ones() {
    use racksmith::io::fabric::read_netbox_cables;
    // The cable list's export (NetBox's CableTable: Device A, Termination A, ...), with a power cable and a
    // spreadsheet-neutralised name.
    let text = "ID,Label,Device A,Termination A,Device B,Termination B,Status,Type\n\
        1,,leaf-01,swp1,'-gpu-01,eth0,Connected,DAC (Passive)\n\
        2,,\"leaf-01\",swp2,gpu-02,eth0,Connected,\n";
    let cables = read_netbox_cables(text, Path::new("cables.csv")).unwrap();
    assert_eq!(cables.len(), 2);
    assert_eq!(
        (
            cables[0].b_device.as_str(),
            cables[0].b_name.as_str(),
            cables[0].line
        ),
        ("-gpu-01", "eth0", 2)
    );
    let text = "side_a_device,side_a_type,side_a_name,side_b_device,side_b_type,side_b_name\n\
        pdu-1,dcim.poweroutlet,1,gpu-01,dcim.powerport,psu0\nleaf-01,dcim.interface,swp1,gpu-01,dcim.interface,eth0\n";
    assert_eq!(
        read_netbox_cables(text, Path::new("c.csv")).unwrap().len(),
        1
    );
    // Refused with file and line: a missing column, an empty end, a breakout, a broken quote.
    let err = read_netbox_cables("a,b\n1,2\n", Path::new("c.csv"))
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("c.csv, line 1:") && err.contains("side_a_device"),
        "{err}"
    );
    let err = read_netbox_cables(
        "side_a_device,side_a_name,side_b_device,side_b_name\nx,1,y,2\nx,,y,3\n",
        Path::new("c.csv"),
    )
    .unwrap_err()
    .to_string();
    assert!(err.starts_with("c.csv, line 3:"), "{err}");
    let err = read_netbox_cables(
        "side_a_device,side_a_name,side_b_device,side_b_name\nx,\"1,2\",y,2\n",
        Path::new("c.csv"),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("line 2") && err.contains("breakout"), "{err}");
}

#[test]
fn lldpd_variants_parse() {
    use racksmith::io::fabric::read_lldp;
    // lldpd 1.0.16's json with a port id of subtype ifname and a blank description, and json with a name field
    // beside a chassis keyed by its name (both seen in the wild).
    let text = r#"{"lldp": {"interface": [
        {"eno1": {"via": "LLDP", "chassis": {"leaf-2": {"id": {"type": "mac", "value": "c0:c9:89:ef:20:d2"}}},
                  "port": {"id": {"type": "ifname", "value": "swp1"}, "descr": " "}}},
        {"name": "eno2", "via": "LLDP", "chassis": {"leaf-3": {"id": {"type": "mac", "value": "28:c6:8e:1d:90:44"}}},
         "port": {"id": {"type": "local", "value": "hundredGigE30"}, "descr": "Ethernet30"}}]}}"#;
    let n = read_lldp(text, Path::new("h.json")).unwrap();
    let got: Vec<(&str, &str, &str)> = n
        .iter()
        .map(|x| {
            (
                x.local_port.as_str(),
                x.remote_name.as_str(),
                x.remote_port.as_str(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [("eno1", "leaf-2", "swp1"), ("eno2", "leaf-3", "Ethernet30")]
    );
    // No neighbours at all.
    assert!(
        read_lldp(r#"{"lldp": {}}"#, Path::new("e.json"))
            .unwrap()
            .is_empty()
    );
    assert!(
        read_lldp(r#"{"lldp": [{}]}"#, Path::new("e.json"))
            .unwrap()
            .is_empty()
    );
}

#[test]
fn a_design_imported_from_its_fabric_loads_analyses_and_keeps_its_counts() {
    use racksmith::templates::discovered;
    let d = superpod(1);
    let text = racksmith::export::ibnetdiscover::write(&d);
    let found = read_ibnetdiscover(&text, Path::new("pod.txt")).unwrap();
    let on_fabric: std::collections::BTreeSet<racksmith::model::DeviceId> = d
        .links
        .values()
        .filter(|l| matches!(l.medium, racksmith::model::Medium::InfiniBand(_)))
        .flat_map(|l| [l.a.device, l.b.device])
        .collect();
    let catalog = Catalog::builtin().unwrap();
    let map = racksmith::io::fabric::NameMap::default();
    let imported = discovered::from_ibnetdiscover(&catalog, &found, &map).unwrap();
    assert_eq!(imported.devices.len(), on_fabric.len());
    assert_eq!(imported.links.len(), found.cables.len());
    let saved = racksmith::io::design_to_string(&imported).unwrap();
    let loaded = racksmith::io::design_from_str(&saved, Path::new("imported.ron")).unwrap();
    let report = racksmith::analysis::analyze(&loaded);
    assert!(report.summary.gpus == 0, "the fabric reports no GPUs");
    // Its own fabric is the one it came from: diffing the found fabric against it changes nothing.
    let again = read_ibnetdiscover(
        &racksmith::export::ibnetdiscover::write(&loaded),
        Path::new("again.txt"),
    )
    .unwrap();
    assert_eq!(again.cables.len(), found.cables.len());
    let r = diff(&loaded, &found);
    assert!(!r.differs(), "{}", r.summary());
    // The mapping file's third column puts a device in a rack of that name.
    let racks = racksmith::io::fabric::read_map(
        "dgx-0001,dgx-0001,R-custom\nleaf-su01-r1,leaf-su01-r1,R-custom\n",
        Path::new("map.csv"),
    )
    .unwrap();
    let placed = discovered::from_ibnetdiscover(&catalog, &found, &racks).unwrap();
    let in_custom: Vec<&str> = placed
        .devices
        .values()
        .filter(|x| placed.racks[&x.rack].name == "R-custom")
        .map(|x| x.name.as_str())
        .collect();
    // Switches first in a rack, then hosts.
    assert_eq!(in_custom, ["leaf-su01-r1", "dgx-0001"]);
    // Switch models come from the catalog: the superpod's fabric says only names, so its switches are parts as
    // discovered at NDR; the real fabric names the QM9701, which is the catalog's QM9700 family.
    let (path, text) = fixture("ibnetdiscover/topograph-ndr.txt");
    let found = read_ibnetdiscover(&text, &path).unwrap();
    let real = discovered::from_ibnetdiscover(&catalog, &found, &map).unwrap();
    let saved = racksmith::io::design_to_string(&real).unwrap();
    let loaded = racksmith::io::design_from_str(&saved, Path::new("real.ron")).unwrap();
    let _ = racksmith::analysis::analyze(&loaded);
    let switches = loaded
        .devices
        .values()
        .filter(|x| x.part.as_str().contains("qm9700"))
        .count();
    assert_eq!(switches, 40);
    // 1,114 cables less the 40 to the aggregation nodes.
    assert_eq!(loaded.links.len(), 1114 - 40);
}

#[test]
fn diff_fabric_and_import_fabric_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let design = dir.path().join("pod.ron");
    let d = superpod(1);
    std::fs::write(&design, racksmith::io::design_to_string(&d).unwrap()).unwrap();
    let run = |args: &[&std::ffi::OsStr]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_racksmith"))
            .args(args)
            .output()
            .unwrap()
    };
    // NetBox: the design's own cables, then one renamed device mapped back.
    let cables = dir.path().join("cables.csv");
    std::fs::write(&cables, netbox_cables_csv(&d).replace("dgx-0002", "node-b")).unwrap();
    let diff = |map: Option<&Path>| {
        let mut args: Vec<&std::ffi::OsStr> = vec![
            "diff-fabric".as_ref(),
            design.as_os_str(),
            "--netbox-cables".as_ref(),
            cables.as_os_str(),
        ];
        if let Some(m) = map {
            args.extend(["--map".as_ref(), m.as_os_str()]);
        }
        run(&args)
    };
    let out = diff(None);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let map = dir.path().join("map.csv");
    std::fs::write(&map, "discovered,design\nnode-b,dgx-0002\n").unwrap();
    let out = diff(Some(&map));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // A malformed CSV: exit 2 with the file and line.
    std::fs::write(
        &cables,
        "side_a_device,side_a_name,side_b_device,side_b_name\nx,1,,2\n",
    )
    .unwrap();
    let out = diff(None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 2"));
    // Two sources at once is refused by the command line.
    let out = run(&[
        "diff-fabric".as_ref(),
        design.as_os_str(),
        "--netbox-cables".as_ref(),
        cables.as_os_str(),
        "--lldp".as_ref(),
        dir.path().as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    // import-fabric writes a design that loads.
    let fabric = dir.path().join("fabric.txt");
    std::fs::write(&fabric, racksmith::export::ibnetdiscover::write(&d)).unwrap();
    let imported = dir.path().join("imported.ron");
    let out = run(&[
        "import-fabric".as_ref(),
        "--ibnetdiscover".as_ref(),
        fabric.as_os_str(),
        "-o".as_ref(),
        imported.as_os_str(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    racksmith::io::load(&imported).unwrap();
}

#[test]
fn designs_imported_from_netbox_cables_and_lldp_load_with_their_counts() {
    use racksmith::templates::discovered;
    let catalog = Catalog::builtin().unwrap();
    let map = racksmith::io::fabric::NameMap::default();
    let network = |d: &racksmith::model::Design, eth_only: bool| {
        let links: Vec<&racksmith::model::Link> = d
            .links
            .values()
            .filter(|l| match l.medium {
                racksmith::model::Medium::Ethernet(_) => true,
                racksmith::model::Medium::InfiniBand(_) => !eth_only,
                _ => false,
            })
            .collect();
        let devices: std::collections::BTreeSet<_> = links
            .iter()
            .flat_map(|l| [l.a.device, l.b.device])
            .collect();
        (devices.len(), links.len())
    };
    // A NetBox cable list: every networked device and cable, as Ethernet (NetBox does not say the rate).
    let d = superpod(1);
    let cables = racksmith::io::fabric::read_netbox_cables(
        &netbox_cables_csv(&d),
        Path::new("07-cables.csv"),
    )
    .unwrap();
    let imported = discovered::from_netbox(&catalog, &cables, &map).unwrap();
    assert_eq!(
        (imported.devices.len(), imported.links.len()),
        network(&d, false)
    );
    let text = racksmith::io::design_to_string(&imported).unwrap();
    racksmith::io::design_from_str(&text, Path::new("nb.ron")).unwrap();
    // LLDP as the switches report it.
    let d = racksmith::samples::sample("l40s-inference-pcie").unwrap();
    let imported = discovered::from_lldp(&catalog, &lldp_of(&d), &map).unwrap();
    assert_eq!(
        (imported.devices.len(), imported.links.len()),
        network(&d, true)
    );
    let text = racksmith::io::design_to_string(&imported).unwrap();
    let loaded = racksmith::io::design_from_str(&text, Path::new("lldp.ron")).unwrap();
    let _ = racksmith::analysis::analyze(&loaded);
}

/// A diff's rows by class: (miswired, missing, slow, extra, unknown devices, missing devices).
fn counts(
    r: &racksmith::analysis::asbuilt::FabricDiff,
) -> (usize, usize, usize, usize, usize, usize) {
    (
        r.miswired.len(),
        r.missing.len(),
        r.slow.len(),
        r.extra.len(),
        r.unknown_devices.len(),
        r.missing_devices.len(),
    )
}
