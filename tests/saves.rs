//! Saves and loads that respect the file system: symlinks written through, read-only files refused unless the
//! user agrees, stale temporary files tidied, non-regular and oversized files refused before reading, and each OS
//! error said once on the command line.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::io::{self, LoadError, SaveError, WriteOptions};
use std::path::Path;

fn design_text() -> String {
    io::design_to_string(&racksmith::samples::sample("dgx-h100-single").unwrap()).unwrap()
}

#[cfg(unix)]
#[test]
fn a_symlink_is_written_through_to_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.ron");
    let link = dir.path().join("link.ron");
    std::fs::write(&real, "old").unwrap();
    std::os::unix::fs::symlink("real.ron", &link).unwrap();
    io::write_atomic(&link, b"new").unwrap();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
}

#[cfg(unix)]
#[test]
fn a_read_only_file_is_refused_until_the_user_agrees() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("locked.ron");
    std::fs::write(&path, "old").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let err = io::write_atomic(&path, b"new").unwrap_err();
    assert!(matches!(err, SaveError::ReadOnly { .. }), "{err}");
    assert!(err.to_string().contains("read-only"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
    io::write_atomic_with(
        &path,
        b"new",
        WriteOptions {
            replace_read_only: true,
        },
    )
    .unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
}

#[test]
fn stale_temporary_files_of_ours_are_removed_and_fresh_ones_kept() {
    let dir = tempfile::tempdir().unwrap();
    let stale = dir.path().join(".racksmith-abc123.tmp");
    let fresh = dir.path().join(".racksmith-def456.tmp");
    let other = dir.path().join(".other-abc.tmp");
    for p in [&stale, &fresh, &other] {
        std::fs::write(p, "x").unwrap();
    }
    let two_days = std::time::SystemTime::now() - std::time::Duration::from_secs(2 * 24 * 3600);
    for p in [&stale, &other] {
        std::fs::File::options()
            .write(true)
            .open(p)
            .unwrap()
            .set_modified(two_days)
            .unwrap();
    }
    io::write_atomic(&dir.path().join("design.ron"), b"x").unwrap();
    assert!(!stale.exists(), "a day-old temp file of ours is removed");
    assert!(
        fresh.exists(),
        "a fresh one may belong to a save in progress"
    );
    assert!(other.exists(), "files of other programs are not touched");
    // The save itself leaves no temporary file behind.
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".racksmith-") && n != ".racksmith-def456.tmp")
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

fn load_err(path: &Path) -> String {
    match io::load(path) {
        Err(e @ LoadError::Io { .. }) => e.to_string(),
        other => panic!("expected an I/O refusal, got {other:?}"),
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_or_a_folder_is_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.ron");
    let ok = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(ok.success());
    // Reading a FIFO with no writer would block forever; the check comes first.
    assert!(load_err(&fifo).contains("not a regular file"));
    assert!(load_err(dir.path()).contains("not a regular file"));
}

#[test]
fn an_oversized_file_is_refused_before_reading() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.ron");
    // A sparse file: the size is set without writing 256 MiB.
    std::fs::File::create(&big)
        .unwrap()
        .set_len(io::MAX_FILE_BYTES + 1)
        .unwrap();
    let msg = load_err(&big);
    assert!(msg.contains("over the limit of 256 MiB"), "{msg}");
    assert!(msg.contains("big.ron"), "{msg}");
}

#[test]
fn a_saved_design_still_loads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.ron");
    let text = design_text();
    io::write_atomic(&path, text.as_bytes()).unwrap();
    io::write_atomic(&path, text.as_bytes()).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    io::load(&path).unwrap();
}

#[test]
fn the_command_line_says_an_os_error_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_racksmith"))
        .args(["sample", "dgx-h100-single", "-o"])
        .arg(dir.path().join("no-such-folder").join("x.ron"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
}
