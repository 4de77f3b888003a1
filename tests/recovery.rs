//! Crash recovery per instance: a live instance's autosave is never offered to another; a crashed one's is; a
//! corrupt autosave is kept under a new name and reported once; a clean exit removes only its own files.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::io::recovery::RecoveryDir;

fn design(name: &str) -> racksmith::model::Design {
    let mut d = racksmith::samples::sample("dgx-h100-single").unwrap();
    d.name = name.into();
    d
}

#[test]
fn a_live_instance_is_never_offered_a_crashed_one_is() {
    let dir = tempfile::tempdir().unwrap();
    let recovery = RecoveryDir::new(dir.path().join("recovery"));
    let a = recovery.claim().unwrap();
    a.write(&design("first")).unwrap();
    let b = recovery.claim().unwrap();
    b.write(&design("second")).unwrap();
    // Both writers are alive: nothing to offer, nothing deleted.
    assert!(recovery.orphans().is_empty());
    assert!(a.path().exists() && b.path().exists());
    // A crashes: its lock goes with the process (here: the handle is dropped without a clean release).
    let a_path = a.path().to_path_buf();
    drop(a);
    let orphans = recovery.orphans();
    assert_eq!(orphans.len(), 1, "{orphans:?}");
    assert_eq!(orphans[0].path, a_path);
    assert_eq!(orphans[0].design_name.as_deref(), Some("first"));
    assert!(orphans[0].modified.is_some() && orphans[0].error.is_none());
    // Recovering it gives the design back and removes the file; B's autosave is untouched.
    let back = recovery.adopt(&orphans[0]).unwrap();
    assert_eq!(back.name, "first");
    assert!(!a_path.exists());
    assert!(b.path().exists());
    assert!(recovery.orphans().is_empty());
    // A clean exit removes its own files only.
    let b_path = b.path().to_path_buf();
    b.release();
    assert!(!b_path.exists());
    assert_eq!(std::fs::read_dir(recovery.path()).unwrap().count(), 0);
}

#[test]
fn a_corrupt_autosave_is_kept_renamed_and_reported_once() {
    let dir = tempfile::tempdir().unwrap();
    let recovery = RecoveryDir::new(dir.path());
    let a = recovery.claim().unwrap();
    std::fs::write(a.path(), "(format_version: 1, name: \"half a fi").unwrap();
    drop(a);
    let orphans = recovery.orphans();
    assert_eq!(orphans.len(), 1);
    let err = orphans[0].error.as_deref().unwrap();
    assert!(err.contains("kept as"), "{err}");
    assert!(orphans[0].path.exists(), "the corrupt file is kept");
    assert!(orphans[0].path.to_string_lossy().ends_with(".corrupt.ron"));
    // Told once: it is not offered again, and it is still there.
    assert!(recovery.orphans().is_empty());
    assert!(orphans[0].path.exists());
}

#[test]
fn discarding_removes_the_autosave_and_its_lock() {
    let dir = tempfile::tempdir().unwrap();
    let recovery = RecoveryDir::new(dir.path());
    let a = recovery.claim().unwrap();
    a.write(&design("gone")).unwrap();
    drop(a);
    let orphans = recovery.orphans();
    recovery.discard(&orphans[0]);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
