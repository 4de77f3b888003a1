//! Help > About Racksmith, driven through egui_kittest: the window shows the line `racksmith --version` prints
//! (version, commit and date, report and design format versions), so a bug report from the app names the build.
#![cfg(feature = "gui")]
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

mod common;
use common::{harness, menu};

use egui_kittest::kittest::Queryable;

#[test]
fn about_shows_the_version_line_of_the_command_line() {
    let mut h = harness(racksmith::samples::default_design());
    menu(&mut h, "Help", "About Racksmith");
    let line = format!("Version {}", racksmith::about::version_text());
    assert!(line.contains(&format!("commit {}", racksmith::about::COMMIT)));
    h.get_by_label(&line);
    // The same text as `racksmith --version`, after the program's name.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_racksmith"))
        .arg("--version")
        .output()
        .unwrap();
    let printed = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        printed.trim_end().strip_prefix("racksmith "),
        Some(racksmith::about::version_text())
    );
}
