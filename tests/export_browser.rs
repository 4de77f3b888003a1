//! The HTML report of every sample in a real headless browser (Debian's `chromium`, installed by `.ci/run`): the
//! page renders (a screenshot with real content), makes no network request and logs nothing to the console. A
//! deliberately bad page proves the checks can fail. Chromium is required in CI; elsewhere the tests say so and
//! pass when it is missing.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::analysis::analyze;
use racksmith::export::{self, Format, Options};
use racksmith::samples;
use std::path::{Path, PathBuf};
use std::process::Command;

fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find(|c| {
            Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .map(PathBuf::from)
}

/// What the browser did with a page.
struct Visit {
    /// URLs the page asked the network for (anything but file: and data:).
    requests: Vec<String>,
    /// Console messages the page logged.
    console: Vec<String>,
    /// Distinct colours in the screenshot (sampled).
    colours: usize,
}

fn visit(browser: &Path, page: &Path, dir: &Path) -> Visit {
    let shot = dir.join("shot.png");
    let netlog = dir.join("net.json");
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--disable-domain-reliability",
            "--no-pings",
            // Nothing leaves this machine: every host name but localhost fails to resolve.
            "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost",
            "--enable-logging=stderr",
            "--v=0",
            "--window-size=1280,2000",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg(format!("--log-net-log={}", netlog.display()))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let console = stderr
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(String::from)
        .collect();
    // Requests made for the page carry the page's network isolation key (file://); the browser's own background
    // requests do not.
    let log: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&netlog).unwrap_or_default()).unwrap_or_default();
    let mut requests: Vec<String> = log["events"]
        .as_array()
        .map(|events| {
            events
                .iter()
                .filter(|e| {
                    e["params"]["network_isolation_key"]
                        .as_str()
                        .is_some_and(|k| k.contains("file://"))
                })
                .filter_map(|e| e["params"]["url"].as_str())
                .filter(|u| !u.starts_with("file:") && !u.starts_with("data:"))
                .map(String::from)
                .collect()
        })
        .unwrap_or_default();
    requests.sort();
    requests.dedup();
    let png = std::fs::read(&shot).unwrap();
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
    let colours: std::collections::BTreeSet<[u8; 3]> = pixmap
        .pixels()
        .iter()
        .step_by(5)
        .map(|p| [p.red(), p.green(), p.blue()])
        .collect();
    Visit {
        requests,
        console,
        colours: colours.len(),
    }
}

fn browser_or_skip() -> Option<PathBuf> {
    let b = chromium();
    if b.is_none() {
        assert!(std::env::var_os("CI").is_none(), "CI must install chromium");
        eprintln!(
            "chromium is not installed: skipping the browser check (apt-get install chromium)"
        );
    }
    b
}

#[test]
fn the_checks_catch_a_bad_page() {
    let Some(browser) = browser_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("bad.html");
    // Port 9 on loopback: nothing listens, the request fails at once, and nothing leaves the machine.
    std::fs::write(
        &page,
        r#"<!DOCTYPE html><html><body><p>bad</p><img src="http://localhost:9/x.png"/><script>console.error("boom")</script></body></html>"#,
    )
    .unwrap();
    let v = visit(&browser, &page, dir.path());
    assert_eq!(v.requests, vec!["http://localhost:9/x.png".to_string()]);
    assert!(
        v.console.iter().any(|l| l.contains("boom")),
        "{:?}",
        v.console
    );
    assert!(v.colours > 2, "text and a broken image: {}", v.colours);
    // A blank page is caught by the colour count.
    let blank = dir.path().join("blank.html");
    std::fs::write(&blank, "<!DOCTYPE html><html><body></body></html>").unwrap();
    let v = visit(&browser, &blank, &dir.path().join("b"));
    assert!(v.colours <= 2, "a blank page: {} colours", v.colours);
    assert!(v.requests.is_empty() && v.console.is_empty());
}

#[test]
fn every_sample_report_renders_offline_without_console_output() {
    let Some(browser) = browser_or_skip() else {
        return;
    };
    for name in samples::SAMPLES {
        let d = samples::sample(name).unwrap();
        let r = analyze(&d);
        let html = export::export(&d, &r, Format::Html, &Options::default()).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let page = dir.path().join("report.html");
        std::fs::write(&page, html).unwrap();
        let v = visit(&browser, &page, dir.path());
        assert!(v.requests.is_empty(), "{name}: {:?}", v.requests);
        assert!(v.console.is_empty(), "{name}: {:?}", v.console);
        assert!(v.colours > 500, "{name}: only {} colours", v.colours);
    }
}

#[test]
fn comparison_page_renders_offline() {
    let Some(browser) = browser_or_skip() else {
        return;
    };
    let a = samples::sample("a100-120gpu-training").unwrap();
    let b = samples::sample("h100-60gpu-training").unwrap();
    let (ra, rb) = (analyze(&a), analyze(&b));
    let c = racksmith::analysis::compare::compare((&a, &ra), (&b, &rb));
    let html = export::compare_html((&a, &ra), (&b, &rb), &c, &Options::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("compare.html");
    std::fs::write(&page, html).unwrap();
    let v = visit(&browser, &page, dir.path());
    assert!(v.requests.is_empty(), "{:?}", v.requests);
    assert!(v.console.is_empty(), "{:?}", v.console);
    assert!(v.colours > 16);
}
