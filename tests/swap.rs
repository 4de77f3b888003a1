//! Replacing a part everywhere: one edit, undone in one step; refused with the reason when the new part does not fit
//! the slots or the cabling.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::analysis::analyze;
use racksmith::catalog::Catalog;
use racksmith::edit::swap::swap_part;

#[test]
fn every_h100_becomes_an_h200_in_one_undoable_edit() {
    let c = Catalog::builtin().unwrap();
    let mut d = racksmith::samples::sample("superpod-h100-1su").unwrap();
    let before = d.clone();
    let edit = swap_part(&d, &c, "h100-sxm", "h200-sxm").unwrap();
    let undo = edit.apply(&mut d).unwrap();
    let gpus: Vec<&str> = d
        .devices
        .values()
        .flat_map(|x| x.gpus.values())
        .map(|p| p.as_str())
        .collect();
    assert_eq!(gpus.len(), 248);
    assert!(gpus.iter().all(|g| *g == "h200-sxm"));
    // H200: 141 GB each; the BOM now lists 248 of them and no H100.
    let r = analyze(&d);
    assert!(
        r.cost
            .bom
            .iter()
            .any(|l| l.part == "h200-sxm" && l.quantity == 248)
    );
    assert!(!r.cost.bom.iter().any(|l| l.part == "h100-sxm"));
    undo.apply(&mut d).unwrap();
    assert_eq!(d, before);
}

#[test]
fn a_part_that_does_not_fit_is_refused_with_the_reason() {
    let c = Catalog::builtin().unwrap();
    let d = racksmith::samples::sample("dgx-h100-single").unwrap();
    // A PCIe card in SXM slots.
    let err = swap_part(&d, &c, "h100-sxm", "l40s")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("does not fit") && err.to_lowercase().contains("sxm"),
        "{err}"
    );
    // An HDR switch where NDR 400G cables land.
    let err = swap_part(&d, &c, "qm9700", "qm8700")
        .unwrap_err()
        .to_string();
    assert!(err.contains("does not fit"), "{err}");
    // Different kinds of part.
    let err = swap_part(&d, &c, "qm9700", "h200-sxm")
        .unwrap_err()
        .to_string();
    assert!(err.contains("different kinds"), "{err}");
    // Nothing to replace.
    let err = swap_part(&d, &c, "h100-sxm", "h100-sxm")
        .unwrap_err()
        .to_string();
    assert!(err.contains("itself"), "{err}");
}

#[test]
fn a_swap_to_a_user_part_copies_it_into_the_design_and_is_one_undo_step() {
    use racksmith::catalog::user;
    use racksmith::edit::History;
    use racksmith::model::PartId;
    let builtin = Catalog::builtin().unwrap();
    // A user part: the H200 at a quoted price, under an id of its own.
    let mut quoted = builtin.get("h200-sxm").unwrap().clone();
    quoted.price_usd = 31_000.0;
    let mut mine = Catalog::default();
    mine.parts.insert(PartId::new("h200-quote"), quoted.clone());
    let catalog = user::merged(&builtin, &mine);
    let mut d = racksmith::samples::sample("dgx-h100-single").unwrap();
    let before = d.clone();
    let mut history = History::default();
    let edit = swap_part(&d, &catalog, "h100-sxm", "h200-quote").unwrap();
    history
        .apply(&mut d, "Replace h100-sxm with h200-quote", edit)
        .unwrap();
    // The design holds its own copy of the user part: it stays self-contained.
    assert_eq!(d.parts.get(&PartId::new("h200-quote")), Some(&quoted));
    let r = analyze(&d);
    let line = r.cost.bom.iter().find(|l| l.part == "h200-quote").unwrap();
    assert_eq!(line.unit_usd, 31_000.0);
    assert_eq!(
        history.undo(&mut d).as_deref(),
        Some("Replace h100-sxm with h200-quote")
    );
    assert_eq!(d, before);
    assert!(history.undo(&mut d).is_none());
}

/// A user parts file holding one part, "h200-quote": the built-in H200 at a quoted $29,900. Returns its folder (kept
/// while the test runs), its path and the part.
fn user_catalog_with_a_quoted_h200() -> (
    tempfile::TempDir,
    std::path::PathBuf,
    racksmith::catalog::Part,
) {
    use racksmith::catalog::user;
    let dir = tempfile::tempdir().unwrap();
    let mut quoted = Catalog::builtin().unwrap().get("h200-sxm").unwrap().clone();
    quoted.price_usd = 29_900.0;
    let mut mine = Catalog::default();
    mine.parts
        .insert(racksmith::model::PartId::new("h200-quote"), quoted.clone());
    let parts = dir.path().join(user::FILE_NAME);
    user::save(&parts, &mine).unwrap();
    (dir, parts, quoted)
}

#[test]
fn the_cli_swaps_to_a_part_of_a_user_catalog_file() {
    use racksmith::model::PartId;
    let (dir, parts, quoted) = user_catalog_with_a_quoted_h200();
    let design = dir.path().join("d.ron");
    racksmith::io::save(
        &racksmith::samples::sample("dgx-h100-single").unwrap(),
        &design,
    )
    .unwrap();
    let out = dir.path().join("swapped.ron");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_racksmith"))
        .args([
            "swap",
            "--from",
            "h100-sxm",
            "--to",
            "h200-quote",
            "--catalog",
        ])
        .arg(&parts)
        .arg(&design)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let d = racksmith::io::load(&out).unwrap();
    assert_eq!(d.parts.get(&PartId::new("h200-quote")), Some(&quoted));
    assert!(
        d.devices
            .values()
            .flat_map(|x| x.gpus.values())
            .all(|g| g.as_str() == "h200-quote")
    );
}

/// `--catalog` is one option for every command that reads parts: `catalog` lists the file's parts with the
/// built-in ones, whether the option comes before or after the command, and only the built-in ones without it.
#[test]
fn the_cli_catalog_lists_a_user_catalog_files_parts() {
    let (_dir, parts, _) = user_catalog_with_a_quoted_h200();
    let builtin = Catalog::builtin().unwrap();
    let parts = parts.to_str().unwrap();
    let list = |args: &[&str]| -> serde_json::Value {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_racksmith"))
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    for args in [
        ["catalog", "--format", "json", "--catalog", parts],
        ["--catalog", parts, "catalog", "--format", "json"],
    ] {
        let v = list(&args);
        assert_eq!(v["parts"]["h200-quote"]["price_usd"], 29_900.0, "{args:?}");
        assert_eq!(
            v["parts"].as_object().unwrap().len(),
            builtin.parts.len() + 1,
            "the built-in parts and the file's"
        );
    }
    let v = list(&["catalog", "--format", "json"]);
    assert!(v["parts"].get("h200-quote").is_none());
    assert_eq!(v["parts"].as_object().unwrap().len(), builtin.parts.len());
}

/// The built-in QM9700 with `ports` ports under the id "qm9700-short", merged over the built-in catalog (the issue's
/// case: the library's QM9700 file lists 62 of the switch's 64 ports).
fn catalog_with_a_short_qm9700(ports: u16) -> Catalog {
    use racksmith::catalog::{PartKind, user};
    use racksmith::model::PartId;
    let builtin = Catalog::builtin().unwrap();
    let mut short = builtin.get("qm9700").unwrap().clone();
    let PartKind::Switch(s) = &mut short.kind else {
        panic!("qm9700 is a switch")
    };
    s.ports = ports;
    let mut mine = Catalog::default();
    mine.parts.insert(PartId::new("qm9700-short"), short);
    user::merged(&builtin, &mine)
}

/// Links per (device, port) end whose port number is above `n` on devices of part `part`.
fn links_above(d: &racksmith::model::Design, part: &str, n: u16) -> Vec<String> {
    let mut out = Vec::new();
    for (id, l) in &d.links {
        for end in [&l.a, &l.b] {
            let dev = &d.devices[&end.device];
            let k: Option<u16> = end.port.strip_prefix('p').and_then(|x| x.parse().ok());
            if dev.part.as_str() == part && k.is_some_and(|k| k > n) {
                out.push(format!("{id} {} {}", dev.name, end.port));
            }
        }
    }
    out
}

#[test]
fn a_switch_with_fewer_ports_never_loses_a_cable_in_the_superpod() {
    // The case: superpod-h100-1su cables ports p63 and p64 of its QM9700s; a 62-port QM9700 lacks them.
    let d = racksmith::samples::sample("superpod-h100-1su").unwrap();
    let on_63_64 = links_above(&d, "qm9700", 62);
    assert!(!on_63_64.is_empty(), "the sample uses p63/p64");
    let catalog = catalog_with_a_short_qm9700(62);
    match swap_part(&d, &catalog, "qm9700", "qm9700-short") {
        // Re-homed: every cable is still there, none on a port the new part lacks, and the design validates.
        Ok(edit) => {
            let mut after = d.clone();
            edit.apply(&mut after).unwrap();
            assert_eq!(after.links.len(), d.links.len());
            assert!(links_above(&after, "qm9700-short", 62).is_empty());
            assert!(racksmith::io::validate(&after).is_empty());
        }
        // Refused: the message names cables on the missing ports.
        Err(e) => {
            let e = e.to_string();
            assert!(
                e.contains("does not fit") && e.contains("no free port"),
                "{e}"
            );
            assert!(e.contains(" p63") || e.contains(" p64"), "{e}");
        }
    }
}

#[test]
fn cables_on_missing_ports_are_re_homed_to_free_ports_or_the_swap_is_refused() {
    use racksmith::model::{DeviceId, PortRef};
    let mut d = racksmith::samples::sample("dgx-h100-single").unwrap();
    // Move every cable of the QM9700 that sits on p1..p4 to p61..p64: a 62-port part lacks p63 and p64.
    let sw: Vec<DeviceId> = d
        .devices
        .iter()
        .filter(|(_, x)| x.part.as_str() == "qm9700")
        .map(|(id, _)| *id)
        .collect();
    assert_eq!(sw.len(), 1);
    let sw = sw[0];
    let mut moved = 0;
    for l in d.links.values_mut() {
        for end in [&mut l.a, &mut l.b] {
            if end.device == sw
                && let Some(k) = end
                    .port
                    .strip_prefix('p')
                    .and_then(|x| x.parse::<u16>().ok())
                && k <= 4
            {
                *end = PortRef::new(sw, format!("p{}", 60 + k));
                moved += 1;
            }
        }
    }
    assert!(moved >= 2, "the sample cables at least p1 and p2");
    assert!(racksmith::io::validate(&d).is_empty());
    let on_63_64 = links_above(&d, "qm9700", 62).len();
    assert!(on_63_64 >= 1);
    let before = d.clone();

    // 62 ports: the cables on p63/p64 move to free ports (the lowest free ones), and nothing is lost.
    let catalog = catalog_with_a_short_qm9700(62);
    let swap = racksmith::edit::swap::plan(&d, &catalog, "qm9700", "qm9700-short").unwrap();
    assert_eq!(swap.rehomed.len(), on_63_64, "{:?}", swap.rehomed);
    assert!(
        swap.rehomed.iter().all(|r| r.contains("-> p")),
        "{:?}",
        swap.rehomed
    );
    let undo = swap.edit.apply(&mut d).unwrap();
    assert_eq!(d.links.len(), before.links.len());
    assert!(links_above(&d, "qm9700-short", 62).is_empty());
    assert!(racksmith::io::validate(&d).is_empty());
    // Each cable kept its far end and its medium.
    for (id, l) in &before.links {
        let now = &d.links[id];
        assert_eq!(now.medium, l.medium);
        assert!(
            now.a == l.a || now.b == l.b,
            "{id}: one end stays where it was"
        );
    }
    undo.apply(&mut d).unwrap();
    assert_eq!(d, before);

    // As many ports as cables minus one: one cable has nowhere to go, and the swap is refused naming it.
    let used = before
        .links
        .values()
        .flat_map(|l| [&l.a, &l.b])
        .filter(|e| e.device == sw)
        .count();
    let catalog = catalog_with_a_short_qm9700(u16::try_from(used - 1).unwrap());
    let err = swap_part(&before, &catalog, "qm9700", "qm9700-short")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("does not fit") && err.contains("no free port"),
        "{err}"
    );
    assert!(err.contains("link#"), "names the cable: {err}");
}
