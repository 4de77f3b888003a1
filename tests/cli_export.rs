//! `racksmith export` and `racksmith compare --format html|csv`: every format on every sample file, standard
//! output, refusals with exit status 2 and a reason.
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
fn every_format_of_every_sample_file() {
    let dir = tempfile::tempdir().unwrap();
    for name in racksmith::samples::SAMPLES {
        for format in racksmith::export::Format::ALL {
            let out_path = dir.path().join(format!("{name}.{}", format.extension()));
            let out = bin()
                .args(["export", "--format", format.name(), "-o"])
                .arg(&out_path)
                .arg(sample_path(name))
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{name} {}: {}",
                format.name(),
                String::from_utf8_lossy(&out.stderr)
            );
            if format.writes_folder() {
                // A folder of files (NetBox): -o names the folder.
                let files = std::fs::read_dir(&out_path).unwrap().count();
                assert!(files > 1, "{name} {}", format.name());
                continue;
            }
            let bytes = std::fs::read(&out_path).unwrap();
            assert!(bytes.len() > 100, "{name} {}", format.name());
            if format == racksmith::export::Format::Png {
                assert_eq!(&bytes[1..4], b"PNG");
            }
        }
    }
}

#[test]
fn text_goes_to_stdout_and_the_file_hash_is_in_the_report() {
    let path = sample_path("dgx-h100-single");
    let out = bin()
        .args(["export", "--format", "html", "-o", "-"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let html = String::from_utf8(out.stdout).unwrap();
    let hash = racksmith::export::short_hash(&std::fs::read(&path).unwrap());
    assert!(html.contains(&hash), "hash {hash} not in the report");
    // Without -o, the same.
    let out = bin()
        .args(["export", "--format", "slurm"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("SwitchName=")
    );
}

fn refused(args: &[&str], file: &Path, needle: &str) {
    let out = bin().args(args).arg(file).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(needle), "{args:?}: {err}");
}

#[test]
fn bad_input_exits_2_with_the_reason() {
    let good = sample_path("dgx-h100-single");
    refused(&["export", "--format", "png"], &good, "binary");
    refused(
        &[
            "export",
            "--format",
            "svg",
            "--view",
            "fabric",
            "--pattern",
            "nope",
        ],
        &good,
        "invalid value 'nope' for '--pattern <PATTERN>'",
    );
    let out = bin()
        .args(["export", "--format", "pdf"])
        .arg(&good)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bom-csv"));
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.ron");
    std::fs::write(
        &broken,
        "(\n  format_version: 1,\n  name: \"x\",\n  racks: {\n",
    )
    .unwrap();
    refused(&["export", "--format", "html"], &broken, "broken.ron:");
    refused(
        &["export", "--format", "html"],
        &dir.path().join("missing.ron"),
        "missing.ron",
    );
}

#[test]
fn compare_writes_html_and_csv() {
    let a = sample_path("a100-120gpu-training");
    let b = sample_path("h100-60gpu-training");
    let out = bin()
        .args(["compare", "--format", "csv"])
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    assert!(out.status.success());
    let mut rd = csv::Reader::from_reader(out.stdout.as_slice());
    let header: Vec<String> = rd.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header[0], "figure");
    let rows: Vec<csv::StringRecord> = rd.records().map(Result::unwrap).collect();
    let gpus = rows.iter().find(|r| &r[0] == "GPUs").unwrap();
    assert_eq!((&gpus[2], &gpus[3]), ("120", "60"));
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("cmp.html");
    let out = bin()
        .args(["compare", "--format", "html", "-o"])
        .arg(&html)
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = std::fs::read_to_string(&html).unwrap();
    assert!(text.contains("Figures side by side") && text.contains("design-b"));
}

/// `--pattern` takes the pattern's short name and, as before, the report's name: both give the same picture, and
/// naming the first pattern gives the default's.
#[test]
fn pattern_takes_short_and_report_names() {
    let good = sample_path("superpod-h100-1su");
    let svg = |pattern: Option<&str>| {
        let mut cmd = bin();
        cmd.args(["export", "--format", "svg", "--view", "fabric"]);
        if let Some(p) = pattern {
            cmd.args(["--pattern", p]);
        }
        let out = cmd.arg(&good).output().unwrap();
        assert!(
            out.status.success(),
            "{pattern:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    assert_eq!(svg(Some("all-reduce, flat ring")), svg(Some("flat-ring")));
    assert_eq!(svg(Some("flat-ring")), svg(None));
    assert_eq!(svg(Some("storage read")), svg(Some("storage-read")));
    assert_eq!(
        svg(Some("all-reduce, hierarchical (one ring per rail)")),
        svg(Some("rail-rings"))
    );
    assert_ne!(
        svg(Some("storage-read")),
        svg(Some("flat-ring")),
        "a pattern colours by its own loads"
    );
}
