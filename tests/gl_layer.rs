//! The canvas's OpenGL layer (src/app/canvas/gl_layer.rs) in a real window: the app is opened under Xvfb on Mesa's
//! software renderer, as a user in a VM or over a remote desktop has it, and screenshots the 1-SU SuperPOD sample
//! with the layer and without it (`RACKSMITH_CANVAS_TEXTURE=0`). The layer must have drawn the scene once and copied
//! it on the frames after (the frame log says how often), and the two screenshots must show the same window: Mesa
//! rounds the blending into an offscreen buffer a little differently from the window's, so anti-aliased edges
//! differ by a level or two (under 1% of the window) and a few pixels where many translucent links cross by a few
//! more; nothing else. A layer that copied nothing, to the wrong place or stale pixels fails the comparison.
//! Xvfb (`xvfb-run`) is required in CI; elsewhere the test says so and skips.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a test that cannot set up should stop loudly

use std::path::{Path, PathBuf};
use std::process::Command;

fn xvfb_run() -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("xvfb-run"))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        assert!(std::env::var_os("CI").is_none(), "CI must install xvfb");
        eprintln!("xvfb-run is not installed: skipping the window check (apt-get install xvfb)");
    }
    found
}

/// Opens the sample under Xvfb and screenshots it into `dir`, with the layer or without; returns the screenshot and
/// the frame log's last line.
fn screenshot(xvfb: &Path, dir: &Path, layer: bool) -> (image::RgbaImage, String) {
    let tag = if layer { "on" } else { "off" };
    let png = dir.join(format!("{tag}.png"));
    let log = dir.join(format!("{tag}.log"));
    let home = dir.join(format!("home-{tag}"));
    std::fs::create_dir_all(&home).unwrap();
    let design = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-designs/superpod-h100-1su.ron");
    let out = Command::new("timeout")
        .arg("300")
        .arg(xvfb)
        .args(["-a", "-s", "-screen 0 1600x1000x24"])
        .arg(env!("CARGO_BIN_EXE_racksmith"))
        .arg("--screenshot")
        .arg(&png)
        .arg(&design)
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("RACKSMITH_FRAME_LOG", &log)
        .env("RACKSMITH_CANVAS_TEXTURE", if layer { "1" } else { "0" })
        .env_remove("RACKSMITH_RENDERER")
        .output()
        .expect("run xvfb-run");
    assert!(
        out.status.success() && png.is_file(),
        "the app under Xvfb ({tag}) failed: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let shot = image::open(&png).expect("read the screenshot").to_rgba8();
    let last = std::fs::read_to_string(&log)
        .expect("read the frame log")
        .lines()
        .last()
        .expect("a frame logged")
        .to_owned();
    (shot, last)
}

/// The layer's counts from a frame log line (`drawn/copied/partly`, its last field): drawn and copied; None for
/// `-` (no layer).
fn layer_counts(line: &str) -> Option<(u64, u64)> {
    let mut counts = line.split_whitespace().last()?.split('/');
    Some((counts.next()?.parse().ok()?, counts.next()?.parse().ok()?))
}

#[test]
fn the_canvas_kept_as_pixels_shows_what_the_canvas_draws() {
    let Some(xvfb) = xvfb_run() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("racksmith-gl-layer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (off, off_log) = screenshot(&xvfb, &dir, false);
    let (on, on_log) = screenshot(&xvfb, &dir, true);

    assert_eq!(layer_counts(&off_log), None, "no layer: {off_log}");
    let (drawn, copied) = layer_counts(&on_log).expect("the layer's counts in the frame log");
    assert!(
        drawn >= 1 && copied > drawn,
        "the layer drew the scene and copied it on the frames after: {drawn} drawn, {copied} copied"
    );

    assert_eq!(on.dimensions(), off.dimensions());
    let colours: std::collections::HashSet<[u8; 4]> = off.pixels().map(|p| p.0).collect();
    assert!(
        colours.len() > 100,
        "a window drawn, not a blank one ({} colours)",
        colours.len()
    );
    // Per pixel, the largest difference of its channels.
    let diffs: Vec<u8> = off
        .pixels()
        .zip(on.pixels())
        .map(|(a, b)| {
            a.0.iter()
                .zip(b.0)
                .map(|(x, y)| x.abs_diff(y))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let pixels = diffs.len() as f64;
    let differ = diffs.iter().filter(|d| **d > 0).count();
    let beyond_two = diffs.iter().filter(|d| **d > 2).count();
    let worst = diffs.iter().copied().max().unwrap_or(0);
    // Rounding, where many translucent links cross, adds up to a few levels; a wrong copy differs by far more,
    // over whole regions.
    assert!(
        (differ as f64) < 0.01 * pixels && (beyond_two as f64) < 0.0005 * pixels && worst <= 16,
        "the window with the layer differs from the one without at {differ} pixels, {beyond_two} of them by more \
         than 2 levels, by up to {worst}: screenshots in {}",
        dir.display()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
