//! The command line: analyze (text and JSON), validate, catalog, sample; exit status 2 on bad input.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_racksmith"))
}

fn sample_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("sample-designs")
        .join(format!("{name}.ron"))
}

#[test]
fn analyze_json_has_the_stable_top_level_keys() {
    let out = bin()
        .args(["analyze", "--format", "json"])
        .arg(sample_path("a100-nic-starved"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    for k in [
        "summary",
        "bandwidth",
        "latency",
        "power",
        "cost",
        "findings",
    ] {
        assert!(keys.contains(&k), "missing {k} in {keys:?}");
    }
    assert_eq!(v["summary"]["gpus"], 64);
    assert!(v["summary"]["bottleneck"].as_str().unwrap().contains("NIC"));
}

#[test]
fn analyze_text_reports_findings() {
    let out = bin()
        .arg("analyze")
        .arg(sample_path("a100-nic-starved"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Bottleneck: NIC bandwidth"), "{text}");
    assert!(text.contains("[nic-per-gpu]"));
}

#[test]
fn validate_ok_and_invalid() {
    let out = bin()
        .arg("validate")
        .arg(sample_path("dgx-h100-single"))
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("valid"));

    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.ron");
    std::fs::write(
        &bad,
        "(format_version: 1, name: \"x\",\n racks: {1: (height_u: \"tall\")})",
    )
    .unwrap();
    let out = bin().arg("validate").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.ron:2:"), "{err}");

    let out = bin()
        .arg("analyze")
        .arg(dir.path().join("missing.ron"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.ron"));
}

#[test]
fn catalog_lists_parts() {
    let out = bin().arg("catalog").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in ["GPUs", "h100-sxm", "qm9700", "dgx-h100", "Storage"] {
        assert!(text.contains(needle), "missing {needle}");
    }
}

#[test]
fn sample_writes_a_valid_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.ron");
    let out = bin()
        .args(["sample", "dgx-h100-single", "-o"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        std::fs::read(&path).unwrap(),
        std::fs::read(sample_path("dgx-h100-single")).unwrap()
    );
}

#[test]
fn compare_two_designs() {
    let out = bin()
        .args(["compare", "--format", "json"])
        .arg(sample_path("dgx-h100-single"))
        .arg(sample_path("a100-nic-starved"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let gpus = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["figure"] == "GPUs")
        .unwrap();
    // 8 GPUs against 64: B - A = 56, B / A = 8.
    assert_eq!(gpus["a"], 8.0);
    assert_eq!(gpus["b"], 64.0);
    assert_eq!(gpus["difference"], 56.0);
    assert_eq!(gpus["ratio"], 8.0);
    assert!(v["bottleneck_b"].as_str().unwrap().contains("NIC"));
}

#[test]
fn whatif_sweep_and_removal() {
    let out = bin()
        .arg("whatif")
        .arg(sample_path("a100-nic-starved"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("device leaf-01: GPUs reachable 64 -> 8"),
        "{text}"
    );
    let out = bin()
        .args(["whatif", "--remove", "nope"])
        .arg(sample_path("a100-nic-starved"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no device named \"nope\""));
    // A rack with a single feed goes dark when it loses it; one cable of a rail-optimised DGX costs bandwidth only.
    let out = bin()
        .args(["whatif", "--lose-feed", "R01"])
        .arg(sample_path("dgx-h100-single"))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("GPUs reachable 8 -> 0"));
    // The link is looked up in the file, not taken on trust: the DGX's nic0 cable to the leaf.
    let d = racksmith::io::load(&sample_path("dgx-h100-single")).unwrap();
    let (link, _) = d
        .links
        .iter()
        .find(|(_, l)| {
            l.a.port == "nic0/p1" && d.devices[&l.a.device].name == "dgx-01"
                || l.b.port == "nic0/p1" && d.devices[&l.b.device].name == "dgx-01"
        })
        .expect("the DGX's nic0 cable");
    let out = bin()
        .args([
            "whatif",
            "--remove-link",
            &link.0.to_string(),
            "--format",
            "json",
        ])
        .arg(sample_path("dgx-h100-single"))
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["gpus_reachable"], serde_json::json!([8, 8]));
    assert!(
        v[0]["what"].as_str().unwrap().contains(&link.0.to_string()),
        "{}",
        v[0]["what"]
    );
}

/// Issue 35: a design the app saves with a link longer than its cable (10 m on the 2 m NDR DAC) is valid on the
/// command line too, and `analyze` names the link in its cable-reach finding.
#[test]
fn a_link_longer_than_its_cable_validates_and_is_a_finding() {
    let mut d = racksmith::samples::sample("dgx-h100-single").unwrap();
    let (&id, link) = d
        .links
        .iter()
        .find(|(_, l)| l.medium.gbps() >= 400.0)
        .unwrap();
    let mut long = link.clone();
    long.cable = Some(racksmith::model::PartId::new("ib-ndr-dac"));
    long.length_m = 10.0;
    let catalog = racksmith::catalog::Catalog::builtin().unwrap();
    let mut edits = Vec::new();
    if !d
        .parts
        .contains_key(&racksmith::model::PartId::new("ib-ndr-dac"))
    {
        edits.push(racksmith::edit::Edit::SetPart(
            racksmith::model::PartId::new("ib-ndr-dac"),
            Some(Box::new(catalog.get("ib-ndr-dac").unwrap().clone())),
        ));
    }
    edits.push(racksmith::edit::Edit::UpdateLink(id, long));
    racksmith::edit::Edit::Batch(edits).apply(&mut d).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long-dac.ron");
    racksmith::io::save(&d, &path).unwrap();
    let out = bin().arg("validate").arg(&path).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = bin()
        .args(["analyze", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let f = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "cable-reach")
        .expect("a cable-reach finding");
    assert_eq!(f["links"], serde_json::json!([id.0]));
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("is 10 m but cable ib-ndr-dac reaches 2 m")
    );
}

/// The help the `new` and `scenario` commands promise: `--help` (or `-h`) before or after the name, with every
/// template or scenario listed, or the one named with its options; never a parse error.
#[test]
fn new_and_scenario_take_help_where_they_promise_it() {
    let run = |args: &[&str]| {
        let out = bin().args(args).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        text
    };
    for args in [&["new", "--help"][..], &["new", "-h"]] {
        let text = run(args);
        for t in racksmith::templates::list() {
            assert!(text.contains(t.name), "{args:?} lists {}: {text}", t.name);
        }
    }
    for args in [
        &["new", "superpod-h100", "--help"][..],
        &["new", "--help", "superpod-h100"],
    ] {
        let text = run(args);
        assert!(text.contains("--su"), "{args:?}: {text}");
        assert!(
            !text.contains("nvl72"),
            "{args:?} documents one template: {text}"
        );
    }
    let text = run(&["scenario", "--help"]);
    for s in racksmith::templates::scenarios::list() {
        assert!(
            text.contains(s.name),
            "scenario --help lists {}: {text}",
            s.name
        );
    }
}

/// `compare` names both files beside the designs' names, in JSON and in text, and lists the findings only one
/// design has.
#[test]
fn compare_names_the_files_and_the_findings_that_differ() {
    let out = bin()
        .args(["compare", "--format", "json"])
        .arg(sample_path("dgx-h100-single"))
        .arg(sample_path("a100-nic-starved"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["a_file"], "dgx-h100-single.ron");
    assert_eq!(v["b_file"], "a100-nic-starved.ron");
    // The NIC-starved design's nic-per-gpu warning is B's alone.
    let added = v["findings_added"].as_array().unwrap();
    assert!(
        added.iter().any(|f| f["code"] == "nic-per-gpu"),
        "{added:?}"
    );
    let out = bin()
        .arg("compare")
        .arg(sample_path("dgx-h100-single"))
        .arg(sample_path("a100-nic-starved"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("(dgx-h100-single.ron)") && text.contains("(a100-nic-starved.ron)"),
        "{text}"
    );
    assert!(text.contains("Findings in B, not in A"), "{text}");
}
