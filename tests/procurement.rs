//! Procurement: spares by category are added to the BOM and the capex and shown separately; the earliest live date
//! is the longest lead time in the BOM, with the parts that set it; a negative lead time is refused.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::analysis::analyze;
use racksmith::model::Spares;

#[test]
fn spares_by_hand() {
    // ceil(16 x 10%) = ceil(1.6) = 2; one per 8 of 17 = ceil(2.125) = 3; 10% of 10 is exactly 1.
    assert_eq!(Spares::Percent(10.0).for_quantity(16), 2);
    assert_eq!(Spares::OnePer(8).for_quantity(17), 3);
    assert_eq!(Spares::Percent(10.0).for_quantity(10), 1);
    assert_eq!(Spares::Percent(0.0).for_quantity(100), 0);
    assert_eq!(Spares::OnePer(8).for_quantity(0), 0);
}

#[test]
fn network_spares_raise_the_capex_by_their_price() {
    let mut d = racksmith::samples::sample("superpod-h100-1su").unwrap();
    let before = analyze(&d);
    d.params
        .spares
        .insert("Network".into(), Spares::Percent(10.0));
    let after = analyze(&d);
    // Network parts of the 1-SU sample: 16 QM9700 ($36,000), 248 ConnectX-7 ($2,200), 62 BlueField-3 ($3,000).
    // 10% spares, rounded up: 2, 25 and 7 -> 2 x 36,000 + 25 x 2,200 + 7 x 3,000 = $148,000.
    let spares = |part: &str| {
        after
            .cost
            .bom
            .iter()
            .find(|l| l.part == part)
            .unwrap()
            .spares
    };
    assert_eq!(
        (spares("qm9700"), spares("cx7-ndr"), spares("bf3-b3220")),
        (2, 25, 7)
    );
    assert!((after.cost.procurement.spares_usd - 148_000.0).abs() < 1e-6);
    assert!((after.cost.capex_usd - before.cost.capex_usd - 148_000.0).abs() < 0.01);
    // Nothing outside the category gets spares.
    assert_eq!(spares("dgx-h100"), 0);
}

#[test]
fn the_longest_lead_time_sets_the_earliest_live_date() {
    let r = analyze(&racksmith::samples::sample("superpod-h100-1su").unwrap());
    let p = &r.cost.procurement;
    assert_eq!(p.earliest_live_weeks, Some(26.0));
    assert_eq!(p.limiting_parts, vec!["dgx-h100".to_string()]);
    let c = racksmith::catalog::Catalog::builtin().unwrap();
    let nvl = racksmith::templates::generate(&c, "nvl72", &[]).unwrap();
    let p = analyze(&nvl).cost.procurement;
    assert_eq!(p.earliest_live_weeks, Some(52.0));
    assert_eq!(p.limiting_parts, vec!["gb200-nvl72".to_string()]);
}

#[test]
fn a_negative_lead_time_is_refused() {
    let text =
        racksmith::io::design_to_string(&racksmith::samples::sample("dgx-h100-single").unwrap())
            .unwrap()
            .replacen(
                "lead_time_weeks: Some(26.0)",
                "lead_time_weeks: Some(-3.0)",
                1,
            );
    let err = racksmith::io::design_from_str(&text, std::path::Path::new("bad.ron"))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("parts.\"dgx-h100\".lead_time_weeks = -3"),
        "{err}"
    );
}
