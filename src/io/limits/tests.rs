//! The limits table and the checks that read it, on figures at, inside and past each bound.

use super::*;

#[test]
fn ranges_by_hand() {
    let r = Range::above(0.0, 1.0);
    assert!(!r.holds(0.0) && r.holds(0.5) && r.holds(1.0) && !r.holds(1.5));
    assert!(!r.holds(f64::NAN) && !r.holds(f64::INFINITY));
    assert_eq!(r.describe(), "(0, 1]");
    assert_eq!(Range::closed(1.0, 5.0).describe(), "[1, 5]");
    let u = Range::open(0.0, 1.0);
    assert!(!u.holds(1.0) && u.holds(0.999) && !u.holds(0.0));
    assert_eq!(u.describe(), "(0, 1)");
}

#[test]
fn every_figure_allows_its_extremes_and_nothing_past_them() {
    for f in Figure::ALL {
        let r = f.range();
        let (lo, hi) = (r.min(), r.max());
        assert!(r.holds(lo) && r.holds(hi), "{f:?}");
        assert!(!r.holds(lo.next_down()) && !r.holds(hi.next_up()), "{f:?}");
        assert_eq!(r.inclusive(), lo..=hi);
        assert_eq!(
            (r.clamp(-1e300), r.clamp(1e300), r.clamp(f64::NAN)),
            (lo, hi, lo)
        );
    }
    // (0, 1): the first float above 0 and the last below 1; [1, 1e6] as written.
    let u = Figure::UtilisationTarget.range();
    assert_eq!(
        (u.min(), u.max()),
        (f64::from_bits(1), 1.0 - f64::EPSILON / 2.0)
    );
    assert_eq!(Figure::GpusPerReplica.range().inclusive(), 1.0..=1e6);
    // An all-reduce in MB: (0, 1e15] bytes is (0, 1e9] MB.
    assert_eq!(
        Figure::AllreduceBytes.range().scaled(1e-6).describe(),
        "(0, 1e9]"
    );
}

#[test]
fn validation_reads_the_table() {
    // One figure just past its table bound in each section gives one problem naming the table's range.
    let p = Params {
        utilisation_target: Figure::UtilisationTarget.range().max().next_up(),
        serving: Some(crate::model::Serving {
            gpus_per_replica: 1_000_001,
            ..crate::model::Serving::default()
        }),
        ..Params::default()
    };
    let mut found = Vec::new();
    check_params(&p, &mut found);
    let fields: Vec<&str> = found.iter().map(|f| f.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "params.utilisation_target",
            "params.serving.gpus_per_replica"
        ]
    );
    assert!(
        found[1].message.ends_with("[1, 1e6]"),
        "{}",
        found[1].message
    );
}

#[test]
fn a_misplaced_figure_is_found_in_the_text() {
    let text = "(\n    params: (\n        pue: 0.5,\n    ),\n    parts: {\n        \"x\": (\n            power_w: -1.0,\n";
    let p = FigureProblem {
        field: "params.pue".into(),
        part: None,
        name: "pue".into(),
        message: String::new(),
    };
    assert_eq!(locate(text, &p), Some((3, 9)));
    let q = FigureProblem {
        field: "parts.\"x\".power_w".into(),
        part: Some("x".into()),
        name: "power_w".into(),
        message: String::new(),
    };
    assert_eq!(locate(text, &q), Some((7, 13)));
}
