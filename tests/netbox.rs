//! The NetBox device-type importer on real library files with their defects (tests/fixtures/netbox, from the
//! public devicetype-library, CC0): each defect is reported, clean files import cleanly, and the result is a
//! catalog Racksmith reads back.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::catalog::netbox::import;
use racksmith::catalog::{Catalog, PartKind};
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/netbox")
        .join(name)
}

fn switch(p: &racksmith::catalog::Part) -> (u16, f64) {
    match &p.kind {
        PartKind::Switch(s) => (s.ports, s.port_gbps),
        other => panic!("{other:?}"),
    }
}

#[test]
fn qm9700_missing_ports_and_power_are_reported() {
    let c = Catalog::builtin().unwrap();
    let i = import(&fixture("nvidia-qm9700.yaml"), &c).unwrap();
    assert_eq!(switch(&i.part), (62, 400.0));
    assert_eq!((i.part.height_u, i.part.weight_kg), (1, 14.8));
    let w = i.warnings.join("\n");
    assert!(w.contains("P22.1, P23.0 missing"), "{w}");
    assert!(w.contains("no power draw"), "{w}");
    assert!(w.contains("the built-in qm9700 has 64"), "{w}");
}

#[test]
fn dgx_a100_switch_like_interfaces_and_low_draw_are_reported() {
    let c = Catalog::builtin().unwrap();
    let i = import(&fixture("nvidia-dgx-a100-640gb.yaml"), &c).unwrap();
    let w = i.warnings.join("\n");
    // Power ports: 2 x 1,071 W = 2,142 W against the DGX A100's 6.5 kW.
    assert!(w.contains("2142 W") && w.contains("6500 W"), "{w}");
    assert!(w.contains("look like a switch's"), "{w}");
    assert!(w.contains("28x 100G, 8x 400G"), "{w}");
    assert_eq!(i.part.part_number.as_deref(), Some("DGXA-G640F+P2EDI36"));
}

#[test]
fn clean_files_import_with_only_the_missing_draw_noted() {
    let c = Catalog::builtin().unwrap();
    let sn = import(&fixture("nvidia-sn5600.yaml"), &c).unwrap();
    assert_eq!(switch(&sn.part), (64, 800.0));
    assert_eq!((sn.part.height_u, sn.part.weight_kg), (2, 23.5));
    let qm = import(&fixture("mellanox-qm8790.yaml"), &c).unwrap();
    assert_eq!(switch(&qm.part), (40, 200.0));
    for i in [&sn, &qm] {
        assert_eq!(i.warnings.len(), 1, "{:?}", i.warnings);
        assert!(i.warnings[0].contains("no power draw"));
    }
}

#[test]
fn the_command_line_writes_a_catalog_racksmith_reads() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("imported.ron");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_racksmith"))
        .args(["catalog", "import-netbox"])
        .arg(fixture("nvidia-sn5600.yaml"))
        .arg(fixture("nvidia-qm9700.yaml"))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(String::from_utf8_lossy(&run.stderr).contains("P22.1, P23.0 missing"));
    let text = std::fs::read_to_string(&out).unwrap();
    let back: Catalog = racksmith::io::parse_ron(&text, &out).unwrap();
    assert_eq!(back.parts.len(), 2);
    assert!(back.get("nvidia-sn5600").is_some());
    // A file that is not a device type names itself.
    let bad = dir.path().join("bad.yaml");
    std::fs::write(&bad, "interfaces: 7\n").unwrap();
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_racksmith"))
        .args(["catalog", "import-netbox"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("bad.yaml"));
}
