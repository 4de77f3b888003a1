//! The web build in a browser, and the same figures in WebAssembly as on the desktop.
//!
//! The Chromium tests need `target/web/` (made by `assets/web/build.sh`, which CI runs once before `cargo test`):
//! without it they say so and pass, unless `CI` is set, where its absence is a failure. They serve the folder from
//! a port on 127.0.0.1 (a small static server on a thread of this test) and open it in headless Chromium.
//!
//! The figures test needs `target/wasi-reports.json` (made by `assets/web/wasi-reports.sh`: the report JSON of every
//! sample computed by the core built for wasm32-wasip1 and run under Node's WASI), likewise required when `CI` is
//! set, and compares it byte for byte with the reports computed here, natively.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::app::FileCommand;
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The artifact at `path`, or None (with a note) when it was not built and this is not CI.
fn artifact(path: &Path, made_by: &str) -> Option<PathBuf> {
    if path.exists() {
        return Some(path.to_path_buf());
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{} is missing: CI runs {made_by} before the tests",
        path.display()
    );
    eprintln!(
        "skipped: {} is missing (run {made_by} first)",
        path.display()
    );
    None
}

/// Serves the files of `dir` on 127.0.0.1 from a thread, for as long as the test runs; returns the base URL.
fn serve(dir: PathBuf) -> String {
    serve_with(dir, None, None)
}

/// Lines a page sent to `log?LINE` (percent-encoded), in the order they arrived.
type PageLog = std::sync::Arc<std::sync::Mutex<Vec<String>>>;

/// Serves the files of `dir`, and `extra` (a name and its HTML) beside them, from the same origin; `log?TEXT`
/// requests add TEXT to `log`.
fn serve_with(dir: PathBuf, extra: Option<(String, String)>, log: Option<PageLog>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let dir = dir.clone();
            let extra = extra.clone();
            let log = log.clone();
            std::thread::spawn(move || answer(stream, &dir, extra.as_ref(), log.as_ref()));
        }
    });
    format!("http://127.0.0.1:{port}/")
}

/// Answers one GET with a file of `dir` (only names in it, no subfolders, no `..`) or the extra page, with its
/// MIME type; records a `log?` line.
fn answer(
    mut stream: TcpStream,
    dir: &Path,
    extra: Option<&(String, String)>,
    log: Option<&PageLog>,
) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    // Headers are read and ignored, up to the blank line.
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
        line.clear();
    }
    let target = request.split_whitespace().nth(1).unwrap_or("/");
    if let (Some(log), Some(line)) = (log, target.strip_prefix("/log?")) {
        // The page encodes each line with `encodeURIComponent`.
        let line = percent_encoding::percent_decode_str(line).decode_utf8_lossy();
        log.lock().unwrap().push(line.into_owned());
        let _ = stream.write_all(
            b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
        );
        return;
    }
    let name = target
        .split(['?', '#'])
        .next()
        .unwrap_or("")
        .trim_start_matches('/');
    let name = if name.is_empty() { "index.html" } else { name };
    let file = match extra {
        Some((extra_name, html)) if extra_name == name => Some(html.clone().into_bytes()),
        _ => (!name.contains('/') && !name.contains(".."))
            .then(|| std::fs::read(dir.join(name)).ok())
            .flatten(),
    };
    let response = match file {
        Some(body) => {
            let mime = match name.rsplit('.').next() {
                Some("html") => "text/html; charset=utf-8",
                Some("js") => "text/javascript",
                Some("wasm") => "application/wasm",
                _ => "application/octet-stream",
            };
            let mut r = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {mime}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            )
            .into_bytes();
            r.extend_from_slice(&body);
            r
        }
        None => {
            b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_vec()
        }
    };
    let _ = stream.write_all(&response);
}

/// What headless Chromium printed and wrote for a page.
struct Visit {
    /// The DOM after the page ran (with `--dump-dom`).
    dom: String,
    /// The browser's log: console lines are `…:INFO:CONSOLE…] "text", source: …`.
    log: String,
}

/// Opens `url` in headless Chromium for `budget_ms` of page time, with WebGL on SwiftShader (no GPU here), and
/// either dumps the DOM or writes a screenshot.
fn chromium(url: &str, budget_ms: u32, screenshot: Option<&Path>) -> Visit {
    // One browser at a time: two at once on a loaded machine can run out of page time before the app starts.
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let profile = tempfile::tempdir().unwrap();
    let mut cmd = Command::new("chromium");
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--use-angle=swiftshader",
        "--enable-unsafe-swiftshader",
        "--no-first-run",
        "--window-size=1280,800",
        "--enable-logging=stderr",
        "--v=0",
        &format!("--virtual-time-budget={budget_ms}"),
        &format!("--user-data-dir={}", profile.path().display()),
    ]);
    match screenshot {
        Some(p) => cmd.arg(format!("--screenshot={}", p.display())),
        None => cmd.arg("--dump-dom"),
    };
    cmd.arg(url);
    let out = cmd.output().expect("chromium runs (apt install chromium)");
    Visit {
        dom: String::from_utf8_lossy(&out.stdout).into_owned(),
        log: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The page's console lines.
fn console(log: &str) -> Vec<&str> {
    log.lines().filter(|l| l.contains(":CONSOLE")).collect()
}

/// Console lines that report a failure: a Rust panic, an uncaught exception, a resource that did not load, or
/// anything the page logged as an error.
fn console_errors<'a>(lines: &[&'a str]) -> Vec<&'a str> {
    lines
        .iter()
        .copied()
        .filter(|l| {
            let l = l.to_lowercase();
            ["error", "panicked", "uncaught", "failed", "could not start"]
                .iter()
                .any(|w| l.contains(w))
        })
        .collect()
}

#[test]
fn the_web_build_draws_the_app_in_chromium_without_console_errors() {
    let Some(index) = artifact(&root().join("target/web/index.html"), "assets/web/build.sh") else {
        return;
    };
    // The page loads nothing from elsewhere: no URL with a scheme in the files it serves.
    let html = std::fs::read_to_string(&index).unwrap();
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "{html}"
    );
    let base = serve(root().join("target/web"));
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("shot.png");
    let visit = chromium(&base, 30_000, Some(&shot));
    let lines = console(&visit.log);
    assert!(
        console_errors(&lines).is_empty(),
        "console errors:\n{}",
        lines.join("\n")
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("racksmith: ") && l.contains(" analysed ")),
        "the app did not log its first analysed frame:\n{}",
        lines.join("\n")
    );
    // Not blank: a canvas that never drew is one colour; the app's panels, racks and text make hundreds.
    let image = image::open(&shot).unwrap().to_rgba8();
    let colours: std::collections::HashSet<[u8; 4]> = image.pixels().map(|p| p.0).collect();
    assert!(
        colours.len() >= 64,
        "the screenshot has {} colours",
        colours.len()
    );
}

#[test]
fn a_share_link_of_the_1_su_sample_opens_it_in_chromium() {
    if artifact(&root().join("target/web/index.html"), "assets/web/build.sh").is_none() {
        return;
    }
    let design = racksmith::samples::sample("superpod-h100-1su").unwrap();
    let base = serve(root().join("target/web"));
    let link = racksmith::io::share::link(&format!("{base}index.html"), &design).unwrap();
    let title_of = |visit: &Visit| {
        visit
            .dom
            .split_once("<title>")
            .and_then(|(_, t)| t.split_once("</title>"))
            .map(|(t, _)| t.to_string())
            .unwrap_or_default()
    };
    // The DOM is dumped when the page time runs out; on a busy machine the wasm may still be loading then, so a
    // page that has not started is opened again (at most three times).
    let mut visit = chromium(&link, 30_000, None);
    for _ in 0..2 {
        if title_of(&visit) != "Racksmith" {
            break;
        }
        visit = chromium(&link, 60_000, None);
    }
    let title = title_of(&visit);
    // The page's title names the design, its GPUs (31 DGX H100 of 8 GPUs = 248) and that the analysis is shown.
    assert_eq!(design.gpu_count(), 248);
    assert!(
        title.contains(&design.name),
        "title: {title}\n{}",
        visit.log
    );
    assert!(title.contains("248 GPUs, analysed"), "title: {title}");
    let lines = console(&visit.log);
    assert!(
        console_errors(&lines).is_empty(),
        "console errors:\n{}",
        lines.join("\n")
    );
}

#[test]
fn the_wasm_core_computes_the_same_reports_as_the_native_one() {
    let Some(path) = artifact(
        &root().join("target/wasi-reports.json"),
        "assets/web/wasi-reports.sh",
    ) else {
        return;
    };
    let mut wasm = String::new();
    std::fs::File::open(&path)
        .unwrap()
        .read_to_string(&mut wasm)
        .unwrap();
    // The same computation as assets/web/wasi/src/main.rs, here natively, on the committed sample files.
    let mut all = serde_json::Map::new();
    for name in racksmith::samples::SAMPLES {
        let file = root().join(format!("sample-designs/{name}.ron"));
        let report = racksmith::analysis::analyze(&racksmith::io::load(&file).unwrap());
        all.insert(name.to_string(), serde_json::to_value(&report).unwrap());
    }
    let native = serde_json::to_string_pretty(&all).unwrap();
    if wasm.trim_end() != native {
        let first = wasm
            .lines()
            .zip(native.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "the wasm reports differ from the native ones from line {}:\nwasm:   {:?}\nnative: {:?}",
            first + 1,
            wasm.lines().nth(first),
            native.lines().nth(first)
        );
    }
    assert_eq!(all.len(), racksmith::samples::SAMPLES.len());
}

#[test]
fn the_app_copies_a_link_that_opens_the_same_design() {
    use egui_kittest::kittest::Queryable as _;
    use racksmith::app::RacksmithApp;
    let design = racksmith::samples::sample("superpod-h100-1su").unwrap();
    let app = RacksmithApp::new_for_test(design.clone());
    let mut h = egui_kittest::Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .with_max_steps(20)
        .allow_missing_glyphs()
        .build_ui_state(|ui, app: &mut RacksmithApp| app.show(ui), app);
    h.run_steps(3);
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Copy link").click();
    h.run_steps(2);
    let link = h.state().last_link().expect("a link was made").to_string();
    assert!(link.contains("#d="), "{link}");
    let back = racksmith::io::share::decode(&link).unwrap();
    assert_eq!(
        racksmith::io::design_to_string(&back).unwrap(),
        racksmith::io::design_to_string(&design).unwrap()
    );
}

#[test]
fn a_design_too_large_for_a_link_is_refused_with_the_file_offered() {
    let catalog = racksmith::catalog::Catalog::builtin().unwrap();
    let options = vec![("su".to_string(), "32".to_string())];
    let design = racksmith::templates::generate(&catalog, "superpod-h100", &options).unwrap();
    let mut app = racksmith::app::RacksmithApp::new_for_test(design);
    app.push(FileCommand::CopyLink.into());
    app.apply_commands();
    assert!(app.last_link().is_none());
    let error = app.ui.windows.error.clone().unwrap_or_default();
    assert!(error.contains("too large for a link"), "{error}");
    assert!(error.contains("Save as"), "{error}");
}

/// A page that opens the app in a frame of the same origin and acts as a user's browser would: once the sample is
/// analysed it drops `design.ron` on the app's canvas (a `drop` event carrying the file, as a drag from the
/// desktop does), waits for the dropped design to be shown analysed, then presses Ctrl+E (export the HTML report)
/// and Ctrl+S (save) and reads back what each download holds. It sends each step's outcome to the test's server
/// (`log?LINE`) as it happens, ending with "done".
fn drop_and_download_page(design_ron: &str, design_name: &str, gpus: usize) -> String {
    // JSON string literals, with `<` escaped so no text can close the script element.
    let js = |t: &str| serde_json::to_string(t).unwrap().replace('<', "\\u003c");
    r#"<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>harness</title></head>
<body>
<iframe id="app" src="index.html" style="width:1280px;height:760px;border:0"></iframe>
<pre id="out"></pre>
<script>
const RON = __RON__;
const NAME = __NAME__;
const GPUS = __GPUS__;
const out = document.getElementById("out");
// Each line goes to the test's server as it happens (the test reads them there) and onto the page.
const log = async (line) => {
  out.textContent += line + "\n";
  await fetch("log?" + encodeURIComponent(line));
};
const frame = document.getElementById("app");
const downloads = [];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(what, test, ms) {
  for (let waited = 0; waited < ms; waited += 100) {
    if (test()) { await log("ok " + what); return true; }
    await sleep(100);
  }
  await log("timeout " + what + " (title: " + frame.contentDocument.title + ")");
  return false;
}
frame.addEventListener("load", () => run().catch((e) => log("timeout: the page failed: " + e)));
async function run() {
  const w = frame.contentWindow;
  // A download is a blob given a URL, on an anchor with a download name that the page clicks: keep the blob and the
  // name instead (the app's policy lets it fetch only its own origin, so the blob is read directly).
  const blobs = new Map();
  const createObjectURL = w.URL.createObjectURL.bind(w.URL);
  w.URL.createObjectURL = (blob) => { const url = createObjectURL(blob); blobs.set(url, blob); return url; };
  w.HTMLAnchorElement.prototype.click = function () {
    downloads.push({ name: this.download, blob: blobs.get(this.href) });
  };
  const doc = frame.contentDocument;
  if (!await until("sample analysed", () => doc.title.includes("GPUs, analysed"), 120000)) return;
  const canvas = doc.getElementById("racksmith_canvas");
  const data = new w.DataTransfer();
  data.items.add(new w.File([RON], "dropped.ron", { type: "application/octet-stream" }));
  canvas.dispatchEvent(new w.DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
  canvas.dispatchEvent(new w.DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
  if (!await until("dropped design analysed",
      () => doc.title.startsWith("dropped.ron — " + GPUS + " GPUs, analysed"), 120000)) return;
  await log("title " + doc.title);
  canvas.focus();
  w.focus();
  for (const [key, code] of [["e", "KeyE"], ["s", "KeyS"]]) {
    const init = { key, code, ctrlKey: true, bubbles: true, cancelable: true };
    canvas.dispatchEvent(new w.KeyboardEvent("keydown", init));
    canvas.dispatchEvent(new w.KeyboardEvent("keyup", init));
    await until("download " + key, () => downloads.length >= (key === "e" ? 1 : 2), 60000);
  }
  for (const d of downloads) {
    const text = d.blob ? await d.blob.text() : "";
    await log("download " + d.name + " " + text.length + " bytes, names the design: " + text.includes(NAME)
        + ", starts: " + JSON.stringify(text.slice(0, 15)));
  }
  await log("done");
}
</script>
</body></html>
"#
    .replace("__RON__", &js(design_ron))
    .replace("__NAME__", &js(design_name))
    .replace("__GPUS__", &gpus.to_string())
}

/// Drop a design on the page, see it open and analysed, export its HTML report and save it: both arrive as
/// downloads holding the dropped design.
#[test]
fn a_design_dropped_on_the_page_opens_and_its_report_and_file_download() {
    if artifact(&root().join("target/web/index.html"), "assets/web/build.sh").is_none() {
        return;
    }
    // A design unlike the start-up sample: one DGX H100 with its leaf and storage.
    let design = racksmith::samples::sample("dgx-h100-single").unwrap();
    let ron = racksmith::io::design_to_string(&design).unwrap();
    let page = drop_and_download_page(&ron, &design.name, design.gpu_count());
    let log = PageLog::default();
    let base = serve_with(
        root().join("target/web"),
        Some(("harness.html".into(), page)),
        Some(log.clone()),
    );
    // The page runs in real time (no virtual time: reading a dropped file is not a fetch the virtual clock waits
    // for), and the test stops the browser once the page says it is done, or after three minutes.
    let profile = tempfile::tempdir().unwrap();
    let stderr_path = profile.path().join("stderr.txt");
    let mut browser = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--use-angle=swiftshader",
            "--enable-unsafe-swiftshader",
            "--no-first-run",
            "--window-size=1300,900",
            "--enable-logging=stderr",
            "--v=0",
            &format!("--user-data-dir={}", profile.path().join("data").display()),
            &format!("{base}harness.html"),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&stderr_path).unwrap())
        .spawn()
        .expect("chromium runs (apt install chromium)");
    let started = std::time::Instant::now();
    let finished = || {
        log.lock()
            .unwrap()
            .iter()
            .any(|l| l == "done" || l.starts_with("timeout"))
    };
    while !finished() && started.elapsed() < Duration::from_secs(180) {
        std::thread::sleep(Duration::from_millis(200));
    }
    let _ = browser.kill();
    let _ = browser.wait();
    let out = log.lock().unwrap().join("\n");
    let visit = Visit {
        dom: String::new(),
        log: std::fs::read_to_string(&stderr_path).unwrap_or_default(),
    };
    assert!(
        out.contains("ok dropped design analysed"),
        "{out}\n{}",
        visit.log
    );
    assert!(out.contains("done"), "{out}");
    let line = |prefix: &str| {
        out.lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no line {prefix}: {out}"))
            .to_string()
    };
    // The page's title and the downloads are named after the file dropped, as the desktop names them after the file
    // opened.
    let html = line("download dropped-report.html ");
    assert!(html.contains("names the design: true"), "{html}");
    assert!(html.contains("starts: \"<!DOCTYPE html>"), "{html}");
    let saved = line("download dropped.ron ");
    assert!(saved.contains("names the design: true"), "{saved}");
    let lines = console(&visit.log);
    assert!(
        console_errors(&lines).is_empty(),
        "console errors:\n{}",
        lines.join("\n")
    );
}
