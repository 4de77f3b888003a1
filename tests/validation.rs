//! Every figure a file carries is checked against its documented range (docs/limits.md), with an error naming the
//! file, line and column, the field and the allowed range; misspelt fields get the nearest known name; the format
//! version is required; the built-in catalog passes its own checks.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::catalog::Catalog;
use racksmith::io::{self, limits};
use std::path::Path;

fn sample_text() -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-designs/dgx-h100-single.ron"),
    )
    .unwrap()
}

/// Replaces the first `old` that comes after `anchor`.
fn with(text: &str, anchor: &str, old: &str, new: &str) -> String {
    let a = text.find(anchor).unwrap_or_else(|| panic!("no {anchor}"));
    let at = a + text[a..]
        .find(old)
        .unwrap_or_else(|| panic!("no {old} after {anchor}"));
    format!("{}{new}{}", &text[..at], &text[at + old.len()..])
}

/// Sets the value of the first `key:` after `anchor` (up to the next comma or closing parenthesis).
fn set_value(text: &str, anchor: &str, key: &str, value: &str) -> String {
    let a = text.find(anchor).unwrap();
    let k = a + text[a..].find(&format!("{key}: ")).unwrap() + key.len() + 2;
    let end = k + text[k..].find([',', ')']).unwrap();
    format!("{}{value}{}", &text[..k], &text[end..])
}

fn error(text: &str) -> String {
    io::design_from_str(text, Path::new("bad.ron"))
        .expect_err("the file must be refused")
        .to_string()
}

#[test]
fn parameters_out_of_range_are_refused_with_line_column_and_range() {
    let t = sample_text();
    for (old, new, field, range) in [
        (
            "utilisation_target: 0.7",
            "utilisation_target: 0.0",
            "params.utilisation_target",
            "(0, 1)",
        ),
        (
            "utilisation_target: 0.7",
            "utilisation_target: 1.0",
            "params.utilisation_target",
            "(0, 1)",
        ),
        (
            "utilisation_target: 0.7",
            "utilisation_target: 1.5",
            "params.utilisation_target",
            "(0, 1)",
        ),
        (
            "utilisation_target: 0.7",
            "utilisation_target: -1.0",
            "params.utilisation_target",
            "(0, 1)",
        ),
        (
            "utilisation_target: 0.7",
            "utilisation_target: NaN",
            "params.utilisation_target",
            "(0, 1)",
        ),
        ("pue: 1.2", "pue: 0.0", "params.pue", "[1, 5]"),
        (
            "depreciation_years: 3.0",
            "depreciation_years: 0.0",
            "params.depreciation_years",
            "(0, 50]",
        ),
        (
            "link_efficiency: 0.8",
            "link_efficiency: 0.0",
            "params.traffic.link_efficiency",
            "(0, 1]",
        ),
        (
            "allreduce_bytes: 1000000000.0",
            "allreduce_bytes: 1e30",
            "params.traffic.allreduce_bytes",
            "(0, 1e15]",
        ),
        (
            "electricity_usd_per_kwh: 0.1",
            "electricity_usd_per_kwh: inf",
            "params.electricity_usd_per_kwh",
            "[0, 10]",
        ),
    ] {
        let bad = with(&t, "params:", old, new);
        let msg = error(&bad);
        assert!(msg.contains(field), "{new}: {msg}");
        assert!(msg.contains(range), "{new}: {msg}");
        assert!(msg.contains("bad.ron"), "{msg}");
        // The line of the figure, as the text has it.
        let line = bad[..bad.find(new).unwrap()].matches('\n').count() + 1;
        assert!(
            msg.contains(&format!("line {line}, column ")),
            "{new}: {msg}"
        );
    }
}

#[test]
fn part_figures_out_of_range_are_refused() {
    let t = sample_text();
    for (anchor, old, new, field) in [
        (
            "\"bf3-b3220\": (",
            "power_w: 75.0",
            "power_w: -75.0",
            "parts.\"bf3-b3220\".power_w",
        ),
        (
            "\"bf3-b3220\": (",
            "price_usd: 3000.0",
            "price_usd: NaN",
            "parts.\"bf3-b3220\".price_usd",
        ),
        (
            "\"bf3-b3220\": (",
            "generation: 5",
            "generation: 0",
            "parts.\"bf3-b3220\".host",
        ),
        (
            "\"dgx-h100\": (",
            "height_u: 8",
            "height_u: 0",
            "parts.\"dgx-h100\".height_u",
        ),
    ] {
        let msg = error(&with(&t, anchor, old, new));
        assert!(msg.contains(field), "{new}: {msg}");
    }
    // A 65,535-port switch is past the limit on ports.
    let msg = error(&with(&t, "\"qm9700\": (", "ports: 64", "ports: 65535"));
    assert!(
        msg.contains("parts.\"qm9700\".ports") && msg.contains("2048"),
        "{msg}"
    );
    // An infinite rack budget.
    let msg = error(&set_value(&t, "racks: {", "power_budget_w", "inf"));
    assert!(msg.contains(".power_budget_w = inf"), "{msg}");
}

#[test]
fn a_misspelt_field_names_the_nearest_known_one() {
    let t = sample_text();
    let msg = error(&with(
        &t,
        "params:",
        "utilisation_target",
        "utilization_target",
    ));
    assert!(msg.contains("utilization_target"), "{msg}");
    assert!(msg.contains("did you mean `utilisation_target`?"), "{msg}");
    // Its line and column are those of the misspelt field.
    let line = t[..t.find("utilisation_target").unwrap()]
        .matches('\n')
        .count()
        + 1;
    assert!(msg.contains(&format!("bad.ron:{line}:")), "{msg}");
    // A name far from any known one gets no guess, but is still refused.
    let msg = error(&with(&t, "params:", "pue: 1.2", "zzzzzzzzzzzz: 1.2"));
    assert!(
        msg.contains("zzzzzzzzzzzz") && !msg.contains("did you mean"),
        "{msg}"
    );
}

#[test]
fn format_version_is_required() {
    let t = sample_text();
    let line = format!(
        "    format_version: {},\n",
        racksmith::model::FORMAT_VERSION
    );
    assert!(t.contains(&line));
    let msg = error(&t.replacen(&line, "", 1));
    assert!(msg.contains("format_version is missing"), "{msg}");
    assert!(msg.contains("bad.ron:1:1"), "{msg}");
}

#[test]
fn the_builtin_catalog_and_every_sample_pass_the_checks() {
    let c = Catalog::builtin().unwrap();
    let mut problems = Vec::new();
    for (id, part) in &c.parts {
        limits::check_part(id.as_str(), part, &mut problems);
    }
    assert!(problems.is_empty(), "{problems:?}");
    for name in racksmith::samples::SAMPLES {
        let d = racksmith::samples::sample(name).unwrap();
        assert!(
            limits::check(&d).is_empty(),
            "{name}: {:?}",
            limits::check(&d)
        );
    }
}

#[test]
fn the_nearest_name_is_a_likely_misspelling() {
    let known = ["utilisation_target", "pue", "electricity_usd_per_kwh"];
    assert_eq!(
        io::nearest("utilization_target", &known),
        Some("utilisation_target")
    );
    assert_eq!(io::nearest("peu", &known), Some("pue"));
    assert_eq!(io::nearest("colour", &known), None);
}

#[test]
fn an_unknown_nic_role_is_refused_by_name() {
    let t = sample_text();
    let bad = with(&t, "default_nics:", "\"Storage\":", "\"Storge\":");
    let msg = error(&bad);
    assert!(msg.contains("unknown NIC role \"Storge\""), "{msg}");
    assert!(msg.contains("Compute, Storage or Management"), "{msg}");
    assert!(msg.contains("bad.ron"), "{msg}");
}

/// The training job's sequence length (attention's compute) is a figure like the others: NaN, negative and past
/// ten million tokens are refused at load with the field, the file, its line and column; 0 (not counted) and
/// 8,192 load.
#[test]
fn a_training_sequence_length_out_of_range_is_refused_with_its_place() {
    let d = racksmith::samples::sample("h100-60gpu-training").unwrap();
    for (bad, written) in [
        (f64::NAN, "sequence_length: NaN"),
        (-1.0, "sequence_length: -1.0"),
        (2e7, "sequence_length: 20000000.0"),
    ] {
        let mut b = d.clone();
        b.params.training.as_mut().unwrap().sequence_length = bad;
        let text = racksmith::io::design_to_string(&b).unwrap();
        let line = text
            .lines()
            .position(|l| l.contains(written))
            .unwrap_or_else(|| panic!("{written} in the file"))
            + 1;
        let err = racksmith::io::design_from_str(&text, std::path::Path::new("job.ron"))
            .expect_err("refused")
            .to_string();
        let problem = err
            .lines()
            .find(|l| l.contains("training.sequence_length"))
            .unwrap_or_else(|| panic!("{err}"));
        assert!(err.contains("job.ron"), "{err}");
        assert!(
            problem.contains(&format!("line {line}, column")),
            "{problem}"
        );
    }
    for good in [0.0, 8192.0] {
        let mut b = d.clone();
        b.params.training.as_mut().unwrap().sequence_length = good;
        let text = racksmith::io::design_to_string(&b).unwrap();
        racksmith::io::design_from_str(&text, std::path::Path::new("job.ron")).unwrap();
    }
}
