//! Every door checks its input before reading it, and every command treats a full or closed standard output as an
//! error, not a panic: FIFOs, devices and missing files are refused at once, duplicate part ids are refused, invalid
//! UTF-8 and semantic problems are placed at their line and column.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_racksmith"))
}

fn sample_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("sample-designs")
        .join(format!("{name}.ron"))
}

/// Runs a command with a deadline (a door that reads before it checks would hang on a FIFO): returns its exit code
/// and standard error.
fn run_bounded(cmd: &mut Command, limit: Duration) -> (Option<i32>, String) {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            return (
                status.code(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            );
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("{cmd:?} still running after {limit:?}: it read before it checked");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn fifos_and_devices_are_refused_before_a_byte_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("design.ron");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let mut doors: Vec<PathBuf> = vec![PathBuf::from("/dev/zero")];
    if made {
        doors.push(fifo);
    }
    for door in &doors {
        for args in [
            vec![
                "export".into(),
                door.display().to_string(),
                "--format".into(),
                "json".into(),
            ],
            vec!["analyze".into(), door.display().to_string()],
            vec!["validate".into(), door.display().to_string()],
            vec![
                "--catalog".into(),
                door.display().to_string(),
                "catalog".into(),
            ],
            vec![
                "catalog".into(),
                "import-netbox".into(),
                door.display().to_string(),
            ],
        ] {
            let (code, err) = run_bounded(bin().args(&args), Duration::from_secs(20));
            assert_eq!(code, Some(2), "{args:?}: {err}");
            assert!(err.contains("regular file"), "{args:?}: {err}");
        }
    }
}

#[test]
fn a_missing_parts_file_is_an_error() {
    let (code, err) = run_bounded(
        bin().args(["--catalog", "/nonexistent/parts.ron", "catalog"]),
        Duration::from_secs(20),
    );
    assert_eq!(code, Some(2));
    assert!(
        err.contains("--catalog") && err.contains("no such file"),
        "{err}"
    );
}

#[test]
fn duplicate_part_ids_in_a_parts_file_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("parts.ron");
    let part = r#""x": (name: "X", vendor: "V", height_u: 1, power_w: 10.0, price_usd: 1.0, kind: Switch((ports: 4, port_gbps: 100.0, latency_ns: 100.0)))"#;
    std::fs::write(&path, format!("(parts: {{ {part}, {part} }})")).unwrap();
    let (code, err) = run_bounded(
        bin().arg("--catalog").arg(&path).arg("catalog"),
        Duration::from_secs(20),
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("duplicate id"), "{err}");
}

#[test]
fn invalid_utf8_and_semantic_problems_name_their_line() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(sample_path("dgx-h100-single")).unwrap();
    // A byte that is not UTF-8 on line 4.
    let mut bytes = Vec::new();
    for (i, line) in text.lines().enumerate() {
        bytes.extend_from_slice(line.as_bytes());
        if i == 3 {
            bytes.push(0xFF);
        }
        bytes.push(b'\n');
    }
    let bad = dir.path().join("bad-utf8.ron");
    std::fs::write(&bad, &bytes).unwrap();
    let (code, err) = run_bounded(bin().arg("validate").arg(&bad), Duration::from_secs(20));
    assert_eq!(code, Some(2));
    let col = text.lines().nth(3).unwrap().chars().count() + 1;
    assert!(err.contains(&format!(":4:{col}:")), "{err}");
    // A cable to a port that does not exist: placed at the link's entry.
    let d = racksmith::io::load(&sample_path("dgx-h100-single")).unwrap();
    let (id, link) = d.links.iter().next().unwrap();
    let broken = text.replacen(
        &format!("a: \"{}:{}\"", link.a.device.0, link.a.port),
        &format!("a: \"{}:no-such-port\"", link.a.device.0),
        1,
    );
    assert!(broken != text, "the link's end was not found in the file");
    let path = dir.path().join("semantic.ron");
    std::fs::write(&path, &broken).unwrap();
    let (code, err) = run_bounded(bin().arg("validate").arg(&path), Duration::from_secs(20));
    assert_eq!(code, Some(2));
    let links_at = broken.find("links:").unwrap();
    let entry = links_at + broken[links_at..].find(&format!("{}: (", id.0)).unwrap();
    let line = broken[..entry].matches('\n').count() + 1;
    assert!(err.contains(&format!("line {line},")), "line {line}: {err}");
}

/// The commands that print, with arguments that print a lot.
fn printing_commands() -> Vec<Vec<String>> {
    let s = |n: &str| sample_path(n).display().to_string();
    vec![
        vec!["analyze".into(), s("superpod-h100-1su")],
        vec![
            "analyze".into(),
            "--format".into(),
            "json".into(),
            s("superpod-h100-1su"),
        ],
        vec!["whatif".into(), s("dgx-h100-single")],
        vec!["validate".into(), s("dgx-h100-single")],
        vec!["sample".into(), "superpod-h100-1su".into()],
        vec!["catalog".into()],
        vec!["catalog".into(), "--format".into(), "json".into()],
        vec![
            "export".into(),
            s("superpod-h100-1su"),
            "--format".into(),
            "json".into(),
        ],
        vec![
            "compare".into(),
            s("a100-120gpu-training"),
            s("h100-60gpu-training"),
        ],
        vec![
            "new".into(),
            "superpod-h100".into(),
            "--su".into(),
            "1".into(),
        ],
    ]
}

#[test]
fn a_full_disk_on_standard_output_is_an_error_not_a_panic() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("no /dev/full here: skipping");
        return;
    };
    for args in printing_commands() {
        let out = bin()
            .args(&args)
            .stdout(full.try_clone().unwrap())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(err.contains("No space left"), "{args:?}: {err}");
    }
}

#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    for args in printing_commands() {
        let mut child = bin()
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Read a little, then close the pipe as `| head -c 16` does.
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 16];
        let _ = std::io::Read::read(&mut stdout, &mut first);
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(
            out.status.code() == Some(0),
            "{args:?}: {:?} {err}",
            out.status
        );
    }
}
