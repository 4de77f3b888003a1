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
fn dgx_a100_is_a_server_with_its_switch_like_interfaces_and_low_draw_reported() {
    let c = Catalog::builtin().unwrap();
    let i = import(&fixture("nvidia-dgx-a100-640gb.yaml"), &c).unwrap();
    // The DGX A100 is a server: its slots come from the built-in dgx-a100 (exact model words "dgx a100").
    assert!(
        matches!(i.part.kind, PartKind::Server(_)),
        "{:?}",
        i.part.kind
    );
    let w = i.warnings.join("\n");
    // Power ports: 2 x 1,071 W = 2,142 W against the DGX A100's 6.5 kW.
    assert!(w.contains("2142 W") && w.contains("6500 W"), "{w}");
    assert!(w.contains("look like a switch's"), "{w}");
    assert!(w.contains("built-in dgx-a100"), "{w}");
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

/// Every device-type file of the committed sample (tests/fixtures/netbox, 40 device types from 14 makers and one
/// module type, from the public devicetype-library): the kind each becomes, or why it is refused.
const SAMPLE: &[(&str, Option<&str>)] = &[
    ("arista-dcs-7050cx3-32s.yaml", Some("switch")),
    ("cisco-n9k-c9332d-gx2b.yaml", Some("switch")),
    ("dell-emc-md1400.yaml", Some("storage")),
    ("dell-poweredge-c6420.yaml", None),
    ("dell-poweredge-r630.yaml", Some("server")),
    ("dell-s5232f-on.yaml", Some("switch")),
    ("gigabyte-g292-z46.yaml", Some("server")),
    ("hpe-proliant-dl380-gen10.yaml", Some("server")),
    ("inspur-nf5180m6.yaml", Some("server")),
    ("inspur-nf8260m6.yaml", Some("server")),
    ("juniper-ex2300-24t.yaml", Some("switch")),
    ("juniper-qfx5120-32c.yaml", Some("switch")),
    ("lenovo-thinksystem-sr650.yaml", Some("server")),
    ("mellanox-qm8700.yaml", Some("switch")),
    ("mellanox-qm8790.yaml", Some("switch")),
    ("mellanox-sb7800.yaml", Some("switch")),
    ("mellanox-sb7890.yaml", Some("switch")),
    ("mellanox-sn2010.yaml", Some("switch")),
    ("mellanox-sn2700.yaml", Some("switch")),
    ("mellanox-sn4600c.yaml", Some("switch")),
    ("mellanox-sx6036.yaml", Some("switch")),
    ("module-type-mellanox-connectx-4-lx.yaml", None),
    ("netapp-aff-a300.yaml", None),
    ("netapp-ds224c.yaml", Some("storage")),
    ("netapp-e2824.yaml", Some("storage")),
    ("netapp-fas8200.yaml", Some("storage")),
    ("nvidia-dgx-a100-640gb.yaml", Some("server")),
    ("nvidia-nvlink-5-switch.yaml", Some("switch")),
    ("nvidia-q3400-ra.yaml", Some("switch")),
    ("nvidia-qm9700.yaml", Some("switch")),
    ("nvidia-sn2201.yaml", Some("switch")),
    ("nvidia-sn5600.yaml", Some("switch")),
    ("nvidia-sn5610.yaml", Some("switch")),
    ("pure-storage-fa-x90r3-chassis.yaml", Some("storage")),
    ("pure-storage-fa-x90r3-controller.yaml", None),
    ("supermicro-as-4125gs-tnrt.yaml", Some("server")),
    ("supermicro-as-8125gs-tnmr2.yaml", Some("server")),
    ("supermicro-sse-g3648b.yaml", Some("switch")),
    ("supermicro-sys-1029u-tr4t.yaml", Some("server")),
    ("supermicro-sys-4029gp-trt.yaml", Some("server")),
    ("supermicro-sys-421ge-tnrt.yaml", Some("server")),
];

fn kind_name(p: &racksmith::catalog::Part) -> &'static str {
    match p.kind {
        PartKind::Server(_) => "server",
        PartKind::Switch(_) => "switch",
        PartKind::Storage(_) => "storage",
        _ => "other",
    }
}

#[test]
fn the_sample_imports_with_every_part_loadable_and_of_the_right_kind() {
    use racksmith::catalog::netbox::import_files;
    let c = Catalog::builtin().unwrap();
    let files: Vec<PathBuf> = SAMPLE.iter().map(|(f, _)| fixture(f)).collect();
    // Every YAML file of the folder is in the table.
    let on_disk = std::fs::read_dir(fixture(""))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "yaml")
        })
        .count();
    assert_eq!(on_disk, SAMPLE.len());
    let paths: Vec<&std::path::Path> = files.iter().map(PathBuf::as_path).collect();
    let batch = import_files(&paths, &c, None);
    // 41 files: 37 imported (the 40 device types less two child devices and one file with a duplicated key), and
    // 4 refused with their reason (those three and the module type).
    let expected_ok = SAMPLE.iter().filter(|(_, k)| k.is_some()).count();
    assert_eq!(batch.imported.len(), expected_ok, "{:?}", batch.refused);
    assert_eq!(batch.refused.len(), SAMPLE.len() - expected_ok);
    let mut all = Catalog::default();
    for i in &batch.imported {
        let file = std::path::Path::new(&i.file)
            .file_name()
            .unwrap()
            .to_str()
            .unwrap();
        let want = SAMPLE.iter().find(|(f, _)| *f == file).unwrap().1;
        assert_eq!(Some(kind_name(&i.part)), want, "{file}");
        // The loader would take it: the part goes in a parts file that loads.
        assert!(
            racksmith::catalog::user::check(&i.id, &i.part).is_empty(),
            "{file}"
        );
        assert!(
            i.part.netbox.is_some(),
            "{file} keeps its slug and interfaces"
        );
        all.parts
            .insert(racksmith::model::PartId::new(&i.id), i.part.clone());
    }
    let dir = tempfile::tempdir().unwrap();
    let parts = dir.path().join("parts.ron");
    racksmith::catalog::user::save(&parts, &all).unwrap();
    let back = racksmith::catalog::user::load(&parts).unwrap();
    assert_eq!(back, all);
    let reasons: Vec<String> = batch.refused.iter().map(ToString::to_string).collect();
    let reasons = reasons.join("\n");
    for (needle, file) in [
        ("child device", "dell-poweredge-c6420.yaml"),
        ("child device", "pure-storage-fa-x90r3-controller.yaml"),
        ("module type", "module-type-mellanox-connectx-4-lx.yaml"),
        ("duplicate entry", "netapp-aff-a300.yaml"),
    ] {
        assert!(
            reasons
                .lines()
                .any(|l| l.contains(file) && l.contains(needle)),
            "{file}: {needle} in\n{reasons}"
        );
    }
}

#[test]
fn infiniband_is_read_from_interface_types_and_ib_port_names() {
    use racksmith::model::Protocol;
    let c = Catalog::builtin().unwrap();
    let sw = |f: &str| {
        let i = import(&fixture(f), &c).unwrap();
        match i.part.kind {
            PartKind::Switch(s) => (s.ports, s.port_gbps, s.protocols, i.part.netbox.unwrap()),
            other => panic!("{f}: {other:?}"),
        }
    };
    // Q3400-RA: 144 sw*p* ports of type infiniband-xdr (800G); fnm1 (fabric management) is not a data port.
    let (n, g, p, nb) = sw("nvidia-q3400-ra.yaml");
    assert_eq!((n, g, p), (144, 800.0, vec![Protocol::InfiniBand]));
    assert_eq!(nb.ports["p1"], "sw1p1");
    assert_eq!(nb.ports["p144"], "sw72p2");
    // SB7890: infiniband-edr (100G).
    let (n, g, p, _) = sw("mellanox-sb7890.yaml");
    assert_eq!((n, g, p), (36, 100.0, vec![Protocol::InfiniBand]));
    // SB7800 and QM8700 write Ethernet form factors but name their ports IB1/n: InfiniBand EDR and HDR.
    let (n, g, p, nb) = sw("mellanox-sb7800.yaml");
    assert_eq!((n, g, p), (36, 100.0, vec![Protocol::InfiniBand]));
    assert_eq!(nb.ports["p36"], "IB1/36");
    let (n, g, p, _) = sw("mellanox-qm8700.yaml");
    assert_eq!((n, g, p), (40, 200.0, vec![Protocol::InfiniBand]));
    // An Ethernet switch stays Ethernet, its uplinks kept as uplinks: SN2010, 18x 25G + 4x 100G.
    let i = import(&fixture("mellanox-sn2010.yaml"), &c).unwrap();
    let PartKind::Switch(s) = &i.part.kind else {
        panic!()
    };
    assert_eq!(
        (
            s.ports,
            s.port_gbps,
            s.uplink_ports,
            s.uplink_gbps,
            s.protocols.clone()
        ),
        (18, 25.0, 4, 100.0, vec![Protocol::Ethernet])
    );
    assert_eq!(i.part.netbox.as_ref().unwrap().ports["u4"], "swp22");
}

/// Writes `text` as a device type file in `dir`.
fn yaml(dir: &tempfile::TempDir, name: &str, text: &str) -> PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn units_heights_empty_files_duplicates_and_the_chosen_kind() {
    use racksmith::catalog::netbox::{ImportError, ImportKind, import_as, import_files};
    let c = Catalog::builtin().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let switch = |slug: &str, extra: &str| {
        let mut t = format!(
            "manufacturer: Acme\nmodel: X{slug}\nslug: {slug}\nu_height: 1\n{extra}interfaces:\n"
        );
        for k in 1..=4 {
            t.push_str(&format!("  - name: swp{k}\n    type: 100gbase-x-qsfp28\n"));
        }
        t
    };
    // Weights: 32 oz = 0.907 kg (32 x 0.028 349 523 125), 10 lb = 4.536 kg, 2500 g = 2.5 kg.
    for (unit, w, kg) in [
        ("oz", 32.0, 0.907_184_74),
        ("lb", 10.0, 4.535_923_7),
        ("g", 2500.0, 2.5),
        ("kg", 3.0, 3.0),
    ] {
        let p = yaml(
            &dir,
            &format!("w-{unit}.yaml"),
            &switch(
                &format!("w-{unit}"),
                &format!("weight: {w}\nweight_unit: {unit}\n"),
            ),
        );
        let i = import(&p, &c).unwrap();
        assert!(
            (i.part.weight_kg - kg).abs() < 1e-6,
            "{unit}: {}",
            i.part.weight_kg
        );
    }
    // A 1.5U device blocks two units of a rack, and says so.
    let p = yaml(
        &dir,
        "h.yaml",
        &switch("h", "").replace("u_height: 1\n", "u_height: 1.5\n"),
    );
    let i = import(&p, &c).unwrap();
    assert_eq!(i.part.height_u, 2);
    assert!(
        i.warnings
            .iter()
            .any(|w| w.contains("u_height 1.5") && w.contains("2U")),
        "{:?}",
        i.warnings
    );
    // An empty file is refused, naming it.
    let empty = yaml(&dir, "empty.yaml", "");
    let e = import(&empty, &c).unwrap_err().to_string();
    assert!(e.contains("empty.yaml") && e.contains("empty"), "{e}");
    // Two files with one slug: the second is refused, naming the first; the rest still import.
    let a = yaml(&dir, "a.yaml", &switch("dup", ""));
    let b = yaml(&dir, "b.yaml", &switch("dup", ""));
    let ok = yaml(&dir, "ok.yaml", &switch("ok", ""));
    let batch = import_files(&[&a, &empty, &b, &ok], &c, None);
    assert_eq!(batch.imported.len(), 2);
    let refused: Vec<String> = batch.refused.iter().map(ToString::to_string).collect();
    assert!(
        refused
            .iter()
            .any(|r| r.contains("b.yaml") && r.contains("duplicate slug") && r.contains("a.yaml")),
        "{refused:?}"
    );
    // A device whose data says nothing of its kind is refused as unclear, and imports as the kind the user picks.
    let vague = yaml(
        &dir,
        "vague.yaml",
        "manufacturer: Acme\nmodel: Box 1\nslug: box-1\nu_height: 2\n",
    );
    assert!(matches!(
        import(&vague, &c),
        Err(ImportError::UnclearKind { .. })
    ));
    let i = import_as(&vague, &c, Some(ImportKind::Storage)).unwrap();
    assert!(matches!(i.part.kind, PartKind::Storage(_)));
    // A slug that is a built-in id does not replace the built-in part.
    let clash = yaml(&dir, "clash.yaml", &switch("qm9700", ""));
    let i = import(&clash, &c).unwrap();
    assert_ne!(i.id, "qm9700");
}

#[test]
fn the_command_line_reports_each_file_and_exits_2_when_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("parts.ron");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_racksmith"))
        .args(["catalog", "import-netbox"])
        .arg(fixture("nvidia-sn5600.yaml"))
        .arg(fixture("module-type-mellanox-connectx-4-lx.yaml"))
        .arg(fixture("juniper-qfx5120-32c.yaml"))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(
        err.contains("3 file(s): 1 imported, 1 imported with warnings, 1 refused"),
        "{err}"
    );
    assert!(
        err.contains("refused") && err.contains("module type"),
        "{err}"
    );
    // The good files are still written, and the file loads as a parts file.
    let back = racksmith::catalog::user::load(&out).unwrap();
    assert_eq!(back.parts.len(), 2);
}

/// NetBox's import-form fields by file (tests/fixtures/netbox-import-fields.txt, from NetBox's own source).
fn netbox_fields() -> std::collections::BTreeMap<String, Vec<String>> {
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/netbox-import-fields.txt"),
    )
    .unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (key, rest) = l.split_once(": ").unwrap();
            let list = rest.rsplit(": ").next().unwrap();
            (
                key.to_string(),
                list.split(", ").map(str::to_string).collect(),
            )
        })
        .collect()
}

/// The rows of a CSV file as maps from column to value.
fn csv_rows(bytes: &[u8]) -> (Vec<String>, Vec<std::collections::BTreeMap<String, String>>) {
    let mut r = csv::Reader::from_reader(bytes);
    let header: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    let rows = r
        .records()
        .map(|rec| {
            header
                .iter()
                .cloned()
                .zip(rec.unwrap().iter().map(str::to_string))
                .collect()
        })
        .collect();
    (header, rows)
}

/// Exports a design to NetBox files and checks every column and key against NetBox's import forms, and every cable
/// end against its device's type. Returns the files by name.
fn netbox_export_checked(
    d: &racksmith::model::Design,
) -> std::collections::BTreeMap<String, Vec<u8>> {
    use racksmith::export::{Format, Options, export_files};
    let r = racksmith::analysis::analyze(d);
    let files: std::collections::BTreeMap<String, Vec<u8>> =
        export_files(d, &r, Format::Netbox, &Options::default())
            .unwrap()
            .into_iter()
            .collect();
    let fields = netbox_fields();
    let names: Vec<&String> = files.keys().collect();
    assert_eq!(
        names,
        [
            "01-sites.csv",
            "02-racks.csv",
            "03-manufacturers.csv",
            "04-device-types.yaml",
            "05-device-roles.csv",
            "06-devices.csv",
            "07-cables.csv",
            "08-module-types.csv",
            "09-modules.csv"
        ][..names.len()]
    );
    assert!(names.len() == 7 || names.len() == 9, "{names:?}");
    // Every CSV column is a field of NetBox's form for that object; the required ones are there.
    let required: &[(&str, &[&str])] = &[
        ("01-sites.csv", &["name", "slug", "status"]),
        (
            "02-racks.csv",
            &["site", "name", "status", "width", "u_height"],
        ),
        ("03-manufacturers.csv", &["name", "slug"]),
        ("05-device-roles.csv", &["name", "slug"]),
        (
            "06-devices.csv",
            &[
                "name",
                "role",
                "manufacturer",
                "device_type",
                "status",
                "site",
                "rack",
                "position",
                "face",
            ],
        ),
        (
            "07-cables.csv",
            &[
                "side_a_device",
                "side_a_type",
                "side_a_name",
                "side_b_device",
                "side_b_type",
                "side_b_name",
                "type",
                "status",
                "length",
                "length_unit",
            ],
        ),
        (
            "08-module-types.csv",
            &["manufacturer", "model", "part_number"],
        ),
        (
            "09-modules.csv",
            &["device", "module_bay", "module_type", "status"],
        ),
    ];
    for (file, need) in required {
        let Some(bytes) = files.get(*file) else {
            continue;
        };
        let (header, _) = csv_rows(bytes);
        for col in &header {
            assert!(
                fields[*file].contains(col),
                "{file}: {col} is not a NetBox import field"
            );
        }
        for n in *need {
            assert!(header.iter().any(|h| h == n), "{file} lacks {n}");
        }
    }
    // Device types: one YAML document each, keys from the device type form and its interfaces.
    let text = String::from_utf8(files["04-device-types.yaml"].clone()).unwrap();
    let mut interfaces_of: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let mut bays_of: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for doc in serde_norway::Deserializer::from_str(&text) {
        let v = serde_norway::Value::deserialize(doc).unwrap();
        let m = v.as_mapping().unwrap();
        for (k, _) in m {
            let k = k.as_str().unwrap();
            assert!(
                fields["04-device-types.yaml"].iter().any(|f| f == k)
                    || fields["04-device-types.yaml related"]
                        .iter()
                        .any(|f| f == k),
                "device type key {k}"
            );
        }
        let model = m.get("model").unwrap().as_str().unwrap().to_string();
        let bays = m
            .get("module-bays")
            .map_or(&[][..], |b| b.as_sequence().unwrap());
        for b in bays {
            for (k, _) in b.as_mapping().unwrap() {
                assert!(
                    fields["04-device-types.yaml module-bays"]
                        .iter()
                        .any(|f| f == k.as_str().unwrap())
                );
            }
        }
        bays_of.insert(
            model.clone(),
            bays.iter()
                .map(|b| b.get("name").unwrap().as_str().unwrap().to_string())
                .collect(),
        );
        let mut names = Vec::new();
        for i in m.get("interfaces").unwrap().as_sequence().unwrap() {
            for (k, _) in i.as_mapping().unwrap() {
                assert!(
                    fields["04-device-types.yaml interfaces"]
                        .iter()
                        .any(|f| f == k.as_str().unwrap())
                );
            }
            names.push(i.get("name").unwrap().as_str().unwrap().to_string());
        }
        interfaces_of.insert(model, names);
    }
    // One row per device and per cable; every cable end names an interface its device's type has.
    let (_, devices) = csv_rows(&files["06-devices.csv"]);
    assert_eq!(devices.len(), d.devices.len());
    let type_of: std::collections::BTreeMap<&str, &str> = devices
        .iter()
        .map(|r| (r["name"].as_str(), r["device_type"].as_str()))
        .collect();
    let (_, cables) = csv_rows(&files["07-cables.csv"]);
    assert_eq!(cables.len(), d.links.len());
    for c in &cables {
        for side in ["a", "b"] {
            let dev = &c[&format!("side_{side}_device")];
            let port = &c[&format!("side_{side}_name")];
            let ifaces = &interfaces_of[type_of[dev.as_str()]];
            assert!(
                ifaces.contains(port),
                "{dev} {port} is not an interface of {}",
                type_of[dev.as_str()]
            );
        }
    }
    let (_, racks) = csv_rows(&files["02-racks.csv"]);
    assert_eq!(racks.len(), d.racks.len());
    // One module per transceiver the report counts, each in a bay its device's type has, of a module type listed.
    let transceivers: u64 = r.physical.transceivers.iter().map(|t| t.count).sum();
    let modules = files
        .get("09-modules.csv")
        .map_or_else(Vec::new, |b| csv_rows(b).1);
    assert_eq!(modules.len() as u64, transceivers);
    let models: Vec<String> = files
        .get("08-module-types.csv")
        .map_or_else(Vec::new, |b| csv_rows(b).1)
        .into_iter()
        .map(|t| t["model"].clone())
        .collect();
    for m in &modules {
        let dev = m["device"].as_str();
        assert!(bays_of[type_of[dev]].contains(&m["module_bay"]), "{m:?}");
        assert!(models.contains(&m["module_type"]), "{m:?}");
        assert_eq!(m["status"], "planned");
    }
    files
}

use serde::Deserialize as _;

#[test]
fn a_1su_design_exports_to_netbox_bulk_import_files_netbox_takes() {
    let d = racksmith::samples::sample("superpod-h100-1su").unwrap();
    let files = netbox_export_checked(&d);
    // Transceivers as modules, one per twin-port cage (NVIDIA DGX SuperPOD H100 RA: a DGX H100's eight compute
    // ports are in four twin-port OSFP cages; a QM9700's 64 NDR ports in 32): the sample's 31 DGX fill 4 cages
    // each, its 8 leaves 32 cages each (32 ports down, 32 up) and its 4 spines 32 each (64 leaf links).
    let (_, modules) = csv_rows(&files["09-modules.csv"]);
    let on = |prefix: &str| {
        modules
            .iter()
            .filter(|m| m["device"].starts_with(prefix))
            .count()
    };
    assert_eq!(on("dgx-"), 31 * 4);
    assert_eq!(on("leaf-"), 8 * 32);
    assert_eq!(on("spine-"), 4 * 32);
    assert_eq!(modules.len(), 31 * 4 + 8 * 32 + 4 * 32);
    // A leaf's bays in cage order: position 1 is cage p1, 2 is p2, ..., 32 is p32 (not p1, p10, p11, ...).
    let text = String::from_utf8(files["04-device-types.yaml"].clone()).unwrap();
    let leaf = serde_norway::Deserializer::from_str(&text)
        .map(|doc| serde_norway::Value::deserialize(doc).unwrap())
        .find(|v| {
            v.get("module-bays")
                .and_then(|b| b.as_sequence())
                .is_some_and(|b| b.len() == 32)
        })
        .unwrap();
    let bays = leaf.get("module-bays").unwrap().as_sequence().unwrap();
    for (i, b) in bays.iter().enumerate() {
        assert_eq!(
            b.get("name").unwrap().as_str().unwrap(),
            format!("cage p{}", i + 1)
        );
        assert_eq!(
            b.get("position").unwrap().as_str().unwrap(),
            (i + 1).to_string()
        );
    }
    // Cables at their ordered length: the next stock length of the link's cable part at or above the link's length
    // (the link's length for a part sold at any length).
    let (_, cables) = csv_rows(&files["07-cables.csv"]);
    assert_eq!(cables.len(), d.links.len());
    for (c, (id, link)) in cables.iter().zip(&d.links) {
        assert!(c["label"].starts_with(&format!("L{:05} ", id.0)), "{c:?}");
        let len: f64 = c["length"].parse().unwrap();
        let Some(racksmith::model::part::PartKind::Cable(spec)) = link
            .cable
            .as_ref()
            .and_then(|p| d.parts.get(p))
            .map(|p| &p.kind)
        else {
            panic!("{c:?} has no cable part");
        };
        let next = spec
            .stock_lengths_m
            .iter()
            .copied()
            .find(|s| *s >= link.length_m - 1e-9)
            .unwrap_or(link.length_m);
        assert_eq!(len, next, "{c:?}, link of {} m", link.length_m);
    }
}

#[test]
fn parts_imported_from_netbox_go_back_with_their_slug_and_port_names() {
    // The leaf of the single-DGX sample becomes the library's QM9700 (62 ports named P0.0 .. P31.1).
    let builtin = Catalog::builtin().unwrap();
    let i = import(&fixture("nvidia-qm9700.yaml"), &builtin).unwrap();
    let mut mine = Catalog::default();
    mine.parts
        .insert(racksmith::model::PartId::new(&i.id), i.part.clone());
    let catalog = racksmith::catalog::user::merged(&builtin, &mine);
    let mut d = racksmith::samples::sample("dgx-h100-single").unwrap();
    racksmith::edit::swap::swap_part(&d, &catalog, "qm9700", &i.id)
        .unwrap()
        .apply(&mut d)
        .unwrap();
    let files = netbox_export_checked(&d);
    let text = String::from_utf8(files["04-device-types.yaml"].clone()).unwrap();
    assert!(text.contains("slug: nvidia-qm9700"), "{text}");
    // Every cable end on the leaf names one of the library file's own interfaces.
    let library: String = std::fs::read_to_string(fixture("nvidia-qm9700.yaml")).unwrap();
    let (_, cables) = csv_rows(&files["07-cables.csv"]);
    let leaf = d
        .devices
        .values()
        .find(|x| x.part.as_str() == i.id)
        .unwrap()
        .name
        .clone();
    let mut on_leaf = 0;
    for c in &cables {
        for side in ["a", "b"] {
            if c[&format!("side_{side}_device")] == leaf {
                let port = &c[&format!("side_{side}_name")];
                assert!(
                    port.starts_with('P') && library.contains(&format!("name: {port}\n")),
                    "{port}"
                );
                on_leaf += 1;
            }
        }
    }
    assert!(on_leaf > 0);
}

#[test]
fn the_command_line_writes_the_netbox_folder() {
    let dir = tempfile::tempdir().unwrap();
    let design = dir.path().join("d.ron");
    racksmith::io::save(
        &racksmith::samples::sample("dgx-h100-single").unwrap(),
        &design,
    )
    .unwrap();
    let out = dir.path().join("netbox");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_racksmith"))
        .arg("export")
        .arg(&design)
        .args(["--format", "netbox", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 7);
    // Without a folder: the files one after another on standard output, each after its name.
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_racksmith"))
        .arg("export")
        .arg(&design)
        .args(["--format", "netbox"])
        .output()
        .unwrap();
    assert!(run.status.success());
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(
        text.starts_with("==> 01-sites.csv <==\nname,slug,status\n"),
        "{text}"
    );
    assert!(text.contains("==> 07-cables.csv <==\nside_a_device,"));
}
