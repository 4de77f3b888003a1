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
    // The case: the fabric as built has two cables swapped at a leaf, one removed and one trained at HDR
    // instead of NDR. Built as a copy of the design so changed, written as ibnetdiscover reports it and read
    // back: 2 miswired, 1 missing, 1 slow, nothing else.
    let d = superpod(1);
    let mut built = d.clone();
    let leaf = built
        .devices
        .iter()
        .find(|(_, x)| x.name == "leaf-su01-r1")
        .map(|(id, _)| *id)
        .unwrap();
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
    assert_eq!(
        (
            r.miswired.len(),
            r.missing.len(),
            r.slow.len(),
            r.extra.len(),
            r.unknown_devices.len(),
            r.missing_devices.len()
        ),
        (2, 1, 1, 0, 0, 0),
        "{r:#?}"
    );
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
    let text = "Switch 24 \"S-0001\" # \"sw\"\n[1] \"H-0002\"[1] # \"h\" lid 2\n";
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
                        remote_port: far.port.clone(),
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
