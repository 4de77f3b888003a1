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
