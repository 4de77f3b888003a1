//! Design files: byte-identical round trips, atomic saves, and clear errors (path, line, column) or problem lists
//! for bad input. Nothing a user can put in a file makes the loader panic.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use proptest::prelude::*;
use racksmith::io::{self, LoadError};
use racksmith::model::{DeviceId, Link, LinkId, Medium, PortRef};
use racksmith::samples::{SAMPLES, sample};
use std::path::Path;

#[test]
fn save_load_save_is_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    for name in SAMPLES {
        let design = sample(name).unwrap();
        let path = dir.path().join(format!("{name}.ron"));
        io::save(&design, &path).unwrap();
        let first = std::fs::read(&path).unwrap();
        let loaded = io::load(&path).unwrap();
        assert_eq!(loaded, design, "{name}: loaded design differs");
        io::save(&loaded, &path).unwrap();
        assert_eq!(
            std::fs::read(&path).unwrap(),
            first,
            "{name}: second save differs"
        );
    }
}

#[test]
fn atomic_save_leaves_no_temporary_and_replaces_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.ron");
    std::fs::write(&path, "old").unwrap();
    io::save(&sample("dgx-h100-single").unwrap(), &path).unwrap();
    let entries: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert!(io::load(&path).is_ok());
}

#[test]
fn saving_into_a_missing_folder_fails_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no/such/folder/d.ron");
    let err = io::save(&sample("dgx-h100-single").unwrap(), &path).unwrap_err();
    assert!(err.to_string().contains("d.ron"), "{err}");
}

#[test]
fn syntax_error_names_file_line_and_column() {
    let text = "(\n    format_version: 1,\n    name: \"x\",\n    racks: {1: (name: \"R\", height_u: forty)},\n)\n";
    let err = io::design_from_str(text, Path::new("bad.ron")).unwrap_err();
    match &err {
        LoadError::Syntax {
            path, line, column, ..
        } => {
            assert_eq!(path, Path::new("bad.ron"));
            assert_eq!(*line, 4);
            assert!(*column > 30, "column {column}");
        }
        other => panic!("expected a syntax error, got {other}"),
    }
    let shown = err.to_string();
    assert!(shown.starts_with("bad.ron:4:"), "{shown}");
}

#[test]
fn unreadable_file_is_an_io_error_with_its_path() {
    let err = io::load(Path::new("/definitely/not/here.ron")).unwrap_err();
    assert!(matches!(err, LoadError::Io { .. }));
    assert!(err.to_string().contains("/definitely/not/here.ron"));
}

#[test]
fn newer_format_is_refused() {
    let err = io::design_from_str("(format_version: 99)", Path::new("new.ron")).unwrap_err();
    assert!(matches!(err, LoadError::TooNew { found: 99, .. }), "{err}");
}

#[test]
fn semantic_problems_are_listed_together() {
    let mut d = sample("dgx-h100-single").unwrap();
    let ids: Vec<DeviceId> = d.devices.keys().copied().collect();
    let (dgx, ddn) = (ids[0], ids[1]);
    // Overlap: move the storage appliance onto the DGX.
    d.devices.get_mut(&ddn).unwrap().position_u = 5;
    // Unknown part.
    d.devices
        .get_mut(&dgx)
        .unwrap()
        .gpus
        .insert(0, racksmith::model::PartId::new("h900-imaginary"));
    // Dangling reference and double-booked port.
    let first_link = d.links.values().next().unwrap().clone();
    d.links.insert(
        LinkId(9_000),
        Link {
            a: PortRef::new(DeviceId(4_242), "p1"),
            b: first_link.b.clone(),
            ..first_link.clone()
        },
    );
    // Incompatible medium: Ethernet 800G on an NDR port.
    d.links.insert(
        LinkId(9_001),
        Link {
            a: PortRef::new(dgx, "nic0/p9"),
            b: first_link.a.clone(),
            medium: Medium::Ethernet(800),
            ..first_link
        },
    );
    let text = io::design_to_string(&d).unwrap();
    let err = io::design_from_str(&text, Path::new("bad.ron")).unwrap_err();
    let LoadError::Invalid { problems, .. } = &err else {
        panic!("expected problems, got {err}")
    };
    let all = problems
        .iter()
        .map(|p| p.message.clone())
        .collect::<Vec<_>>()
        .join("\n");
    for needle in [
        "overlaps",
        "unknown part \"h900-imaginary\"",
        "does not exist",
        "used by both",
        "does not have",
    ] {
        assert!(all.contains(needle), "missing {needle:?} in:\n{all}");
    }
    assert!(err.to_string().contains("bad.ron"));
}

#[test]
fn port_names_are_read_only_as_written() {
    // A port is named one way ("p7", "nic0/p1"); a leading zero or a sign names no port, so a file cannot cable
    // "p07" beside "p7" and have one port count as two.
    let d = sample("a100-nic-starved").unwrap();
    let link = d.links.values().next().unwrap();
    let (switch, server) = if link.a.port.starts_with("nic") {
        (link.b.device, link.a.device)
    } else {
        (link.a.device, link.b.device)
    };
    let has = |device: DeviceId, port: &str| d.port_spec(&PortRef::new(device, port)).is_some();
    for port in ["p1", "p7", "p10"] {
        assert!(has(switch, port), "{port}");
    }
    for port in ["p0", "p07", "p+7", "p", "p7 ", "P7", "u0", "p99999"] {
        assert!(!has(switch, port), "{port}");
    }
    assert!(has(server, "nic0/p1"));
    for port in [
        "nic00/p1", "nic+0/p1", "nic0/p01", "nic0/p0", "nic0p1", "nic/p1", "nic0/p+1",
    ] {
        assert!(!has(server, port), "{port}");
    }
}

#[test]
fn link_problems_read_in_link_order_and_each_extra_user_names_the_one_before() {
    // Three cables on one port, a cable with a too-short cable part, and one ending at a missing device, added out
    // of order: the problems come in link id order, each link's ends first, and the third user of the port names
    // the second, as a reviewer reading the list top to bottom expects.
    let mut d = sample("a100-nic-starved").unwrap();
    let first = d.links.values().next().unwrap().clone();
    let (port, other) = (first.a.clone(), first.b.clone());
    let extra = |a: PortRef, length_m: f64| Link {
        a,
        b: other.clone(),
        length_m,
        ..first.clone()
    };
    d.links.insert(LinkId(9_003), extra(port.clone(), 3.0));
    d.links.insert(
        LinkId(9_001),
        extra(PortRef::new(DeviceId(77_777), "p1"), -1.0),
    );
    d.links.insert(LinkId(9_002), extra(port.clone(), 3.0));
    let messages: Vec<String> = io::validate(&d).into_iter().map(|p| p.message).collect();
    let first_id = *d.links.keys().next().unwrap();
    let expected = vec![
        format!(
            "link link#9001 ends at {} which does not exist",
            DeviceId(77_777)
        ),
        format!("port {other} is used by both {first_id} and link#9001"),
        "link link#9001 has an impossible length of -1 m".to_string(),
        format!("port {port} is used by both {first_id} and link#9002"),
        format!("port {other} is used by both link#9001 and link#9002"),
        format!("port {port} is used by both link#9002 and link#9003"),
        format!("port {other} is used by both link#9002 and link#9003"),
    ];
    assert_eq!(messages, expected);
}

#[test]
fn incompatible_speed_is_refused_with_a_reason() {
    let d = sample("a100-nic-starved").unwrap();
    let leaf = d.device_named("leaf-01").unwrap();
    let server = d.device_named("a100-01").unwrap();
    // A QM8700 port runs HDR 200G at most: an NDR link between two free ports is refused for its speed (the
    // server's nic0/p1 is cabled already, so it would be refused for that before the speed was looked at).
    assert!(d.link_at(&PortRef::new(server, "nic0/p1")).is_some());
    for p in ["p39", "p40"] {
        assert!(d.link_at(&PortRef::new(leaf, p)).is_none());
    }
    let why = d
        .check_link(
            &PortRef::new(leaf, "p39"),
            &PortRef::new(leaf, "p40"),
            &Medium::InfiniBand(racksmith::model::IbRate::Ndr),
            None,
        )
        .unwrap_err();
    assert!(why.contains("at most 200"), "{why}");
    let why = d
        .check_link(
            &PortRef::new(leaf, "p39"),
            &PortRef::new(leaf, "p40"),
            &Medium::Ethernet(100),
            None,
        )
        .unwrap_err();
    assert!(why.contains("speaks InfiniBand"), "{why}");
}

#[test]
fn duplicate_ids_are_one_clear_error() {
    // Two devices with id 3: one error naming the id, at its line, not a list of broken links.
    let text = io::design_to_string(&sample("dgx-h100-single").unwrap()).unwrap();
    let dup = text.replacen(
        "        4: (name: \"leaf-01\"",
        "        3: (name: \"leaf-01\"",
        1,
    );
    assert_ne!(dup, text);
    let err = io::design_from_str(&dup, Path::new("dup.ron")).unwrap_err();
    match &err {
        LoadError::Syntax { message, line, .. } => {
            assert!(message.contains("duplicate id dev#3"), "{message}");
            assert!(*line > 300, "{line}");
        }
        other => panic!("expected one syntax error, got {other}"),
    }
}

#[test]
fn a_link_from_a_port_to_itself_is_one_problem() {
    let mut d = sample("dgx-h100-single").unwrap();
    let leaf = d.device_named("leaf-01").unwrap();
    let first = d.links.values().next().unwrap().clone();
    d.links.insert(
        LinkId(9_000),
        Link {
            a: PortRef::new(leaf, "p60"),
            b: PortRef::new(leaf, "p60"),
            ..first
        },
    );
    let text = io::design_to_string(&d).unwrap();
    let err = io::design_from_str(&text, Path::new("self.ron")).unwrap_err();
    let LoadError::Invalid { problems, .. } = &err else {
        panic!("expected problems, got {err}")
    };
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].message.contains("to itself"),
        "{}",
        problems[0].message
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    /// Cutting, splicing or corrupting a real design file gives an error or a design, never a panic.
    #[test]
    fn mangled_files_never_panic(cut in 0usize..19_000, junk in "[ -~]{0,12}", at in 0usize..19_000) {
        let text = io::design_to_string(&sample("dgx-h100-single").unwrap()).unwrap();
        let cut = cut.min(text.len());
        let at = at.min(cut);
        let mut mangled: String = text.chars().take(cut).collect();
        let at = mangled.char_indices().map(|(i, _)| i).nth(at).unwrap_or(mangled.len());
        mangled.insert_str(at, &junk);
        if let Ok(d) = io::design_from_str(&mangled, Path::new("m.ron")) {
            let _ = racksmith::analysis::analyze(&d);
        }
    }

    /// Arbitrary text never panics the loader.
    #[test]
    fn random_text_never_panics(text in "\\PC{0,200}") {
        let _ = io::design_from_str(&text, Path::new("r.ron"));
    }
}

/// A file as Racksmith writes it is read line by line: every error it can hold comes out as when the whole text is
/// parsed (a figure out of range with its line and column, a problem list, bad UTF-8 with the file's name), and a
/// good one loads the same design.
#[test]
fn a_file_read_line_by_line_reports_what_the_whole_text_does() {
    let c = racksmith::catalog::Catalog::builtin().unwrap();
    let design = racksmith::samples::superpod_h100(&c, 1).unwrap();
    let text = io::design_to_string(&design).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pod.ron");
    let both = |contents: &[u8]| {
        std::fs::write(&path, contents).unwrap();
        let loaded = io::load(&path);
        let whole = match std::str::from_utf8(contents) {
            Ok(t) => io::design_from_str(t, &path),
            Err(_) => io::load(&path),
        };
        (loaded, whole)
    };
    let (loaded, whole) = both(text.as_bytes());
    assert_eq!(loaded.unwrap(), design);
    assert!(whole.is_ok());

    // A cable 20,000 km long: past the figures' limits, placed at its line and column.
    let line = text
        .lines()
        .position(|l| l.contains("length_m: 15.0"))
        .unwrap();
    let long = text.replacen("length_m: 15.0", "length_m: 2e10", 1);
    let (loaded, whole) = both(long.as_bytes());
    let message = loaded.unwrap_err().to_string();
    assert_eq!(message, whole.unwrap_err().to_string());
    assert!(
        message.contains(&format!("line {}, column", line + 1)),
        "{message}"
    );

    // Two cables on one port: a problem list.
    let a_end = |line: &str| -> String {
        let after = line.split("a: \"").nth(1).unwrap();
        after.split('"').next().unwrap().to_string()
    };
    let cables: Vec<String> = text
        .lines()
        .filter(|l| l.contains("a: \""))
        .take(2)
        .map(a_end)
        .collect();
    let (first_a, second_a) = (&cables[0], &cables[1]);
    let twice = text.replacen(
        &format!("a: \"{second_a}\""),
        &format!("a: \"{first_a}\""),
        1,
    );
    let (loaded, whole) = both(twice.as_bytes());
    let message = loaded.unwrap_err().to_string();
    assert!(matches!(whole, Err(LoadError::Invalid { .. })));
    assert_eq!(message, whole.unwrap_err().to_string());

    // A byte that is not UTF-8 in a device's name.
    let mut bytes = text.clone().into_bytes();
    let at = text.find("dgx-0001").unwrap();
    bytes[at] = 0xff;
    std::fs::write(&path, &bytes).unwrap();
    let message = io::load(&path).unwrap_err().to_string();
    assert!(message.contains("pod.ron"), "{message}");
}
