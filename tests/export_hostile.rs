//! Hostile names through every export, each output checked by its real consumer: Chromium runs the HTML report (no
//! payload script runs, no element is injected), an XML parser reads the SVG, Graphviz lays out the DOT, Slurm's
//! grammar and host lists read `topology.conf`, a YAML parser reads `topology.yaml`, a CSV reader finds no cell that
//! starts a formula. A design file carrying such names is refused at load, at the line and column of the name.
//! Chromium and Graphviz are required in CI (`CI` set); elsewhere those checks say so and pass when missing.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::analysis::analyze;
use racksmith::export::{self, Format, Options, View};
use racksmith::model::Design;
use std::process::Command;

/// What an attacker would write into a name: markup and script for the report, line breaks and records for Slurm
/// and YAML, formulas for spreadsheets, escapes for Graphviz and the terminal.
const PAYLOADS: [&str; 24] = [
    "<script>document.body.setAttribute('data-pwned','1')</script>",
    "R01<img src=x onerror=\"document.body.setAttribute('data-pwned','1')\">",
    "<svg onload=\"document.body.setAttribute('data-pwned','1')\"></svg>",
    "</style><script>document.body.setAttribute('data-pwned','1')</script>",
    "</title><script>document.body.setAttribute('data-pwned','1')</script>",
    "\"'><iframe src=\"javascript:document.body.setAttribute('data-pwned','1')\"></iframe>",
    "=HYPERLINK(\"http://example.invalid/\",\"click\")",
    "=cmd|' /C calc'!A0",
    "+1+1",
    "-2+3",
    "@SUM(A1:A2)",
    "\tx=1",
    "\r=1+1",
    "node-08\nSwitchName=evil Switches=leafgroup01 Nodes=ALL",
    "a\r\n# injected: true\nkey: value",
    "\u{1b}]0;pwned\u{7}\u{1b}[2J",
    "nul\0byte",
    "\u{202e}gpj.exe",
    "zero\u{200b}width",
    "\"; evil [shape=star]; \"",
    "\\N \\G \\L",
    "{a: [b, *c, &d]} - e: f",
    "&amp; &lt;b&gt;",
    "]]><!--",
];

/// A sample with every name and note replaced by a payload (several samples, so that sites, scenarios, storage and
/// both views are covered).
fn hostile(sample: &str) -> Design {
    let mut d = racksmith::samples::sample(sample).unwrap();
    let p = |i: usize| PAYLOADS[i % PAYLOADS.len()].to_string();
    d.name = p(0);
    d.notes = p(1);
    for (i, r) in d.racks.values_mut().enumerate() {
        r.name = format!("{}{i}", p(i + 2));
        r.notes = p(i + 5);
    }
    for (i, dev) in d.devices.values_mut().enumerate() {
        dev.name = format!("{}{i}", p(i));
        dev.notes = p(i + 3);
    }
    for (i, l) in d.links.values_mut().enumerate() {
        l.notes = p(i + 7);
    }
    for (i, part) in d.parts.values_mut().enumerate() {
        part.name = p(i + 11);
        part.vendor = p(i + 13);
    }
    for (i, s) in d.scenarios.iter_mut().enumerate() {
        s.name = format!("{}{i}", p(i + 9));
    }
    d
}

const SAMPLES: [&str; 3] = ["dgx-h100-single", "superpod-h100-1su", "l40s-two-regions"];

fn export_of(d: &Design, format: Format, view: View) -> Result<Vec<u8>, export::ExportError> {
    let report = analyze(d);
    export::export(
        d,
        &report,
        format,
        &Options {
            view,
            ..Options::default()
        },
    )
}

fn in_ci() -> bool {
    std::env::var_os("CI").is_some()
}

fn have(tool: &str, arg: &str) -> bool {
    let ok = Command::new(tool)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(ok || !in_ci(), "{tool} is required in CI");
    if !ok {
        eprintln!("{tool} not installed: skipping its check");
    }
    ok
}

/// The page's DOM after its scripts ran, as Chromium serialises it.
fn dump_dom(browser: &str, page: &std::path::Path, dir: &std::path::Path) -> String {
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--virtual-time-budget=2000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_report_runs_no_payload_in_chromium() {
    let Some(browser) = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| have(b, "--version"))
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // The check can fail: the same payloads written raw into a page do run.
    let raw = dir.path().join("raw.html");
    std::fs::write(
        &raw,
        format!(
            "<!doctype html><html><body><p>{}</p><p>{}</p></body></html>",
            PAYLOADS[0], PAYLOADS[1]
        ),
    )
    .unwrap();
    assert!(
        dump_dom(browser, &raw, dir.path()).contains("data-pwned=\"1\""),
        "the payloads should run unescaped"
    );
    for sample in SAMPLES {
        let d = hostile(sample);
        let html = export_of(&d, Format::Html, View::Racks).unwrap();
        let text = String::from_utf8(html.clone()).unwrap();
        // Before the browser: no payload survives as markup.
        for bad in ["<script", "<img src=x", "<svg onload", "<iframe"] {
            assert!(!text.contains(bad), "{sample}: {bad} reached the HTML");
        }
        let page = dir.path().join(format!("{sample}.html"));
        std::fs::write(&page, &html).unwrap();
        let dom = dump_dom(browser, &page, dir.path());
        assert!(dom.contains("</body>"), "{sample}: no DOM dumped");
        // Every payload sets data-pwned on the body when it runs; as text it shows with its quotes escaped.
        assert!(!dom.contains("data-pwned=\"1\""), "{sample}: a payload ran");
        for element in ["<script", "<iframe", "<img"] {
            assert!(!dom.contains(element), "{sample}: {element} injected");
        }
        // The payloads are shown as text.
        assert!(
            dom.contains("R01&lt;img src=x onerror="),
            "{sample}: payload not shown"
        );
    }
}

/// The SVG (both views) is well-formed XML with no script or event handler.
#[test]
fn the_drawings_are_well_formed_and_inert() {
    use quick_xml::events::Event;
    for sample in SAMPLES {
        let d = hostile(sample);
        for view in [View::Racks, View::Fabric] {
            let svg = export_of(&d, Format::Svg, view).unwrap();
            let mut reader = quick_xml::Reader::from_reader(svg.as_slice());
            let mut buf = Vec::new();
            let mut elements = 0;
            loop {
                match reader.read_event_into(&mut buf) {
                    Ok(Event::Eof) => break,
                    Ok(Event::Start(e) | Event::Empty(e)) => {
                        elements += 1;
                        let name = e.name().into_inner().to_lowercase();
                        assert!(
                            !["script", "iframe", "foreignobject"].contains(&name.as_str()),
                            "{sample}: <{name}>"
                        );
                        for a in e.attributes() {
                            let a = a.unwrap();
                            let key = a.key.into_inner().to_lowercase();
                            assert!(!key.starts_with("on"), "{sample}: {key} attribute");
                        }
                    }
                    Ok(_) => {}
                    Err(e) => panic!("{sample} {view:?}: SVG is not well-formed: {e}"),
                }
                buf.clear();
            }
            assert!(elements > 10, "{sample}: {elements} elements");
            // And it rasterises.
            export_of(&d, Format::Png, view).unwrap();
        }
    }
}

/// Graphviz reads the DOT and draws exactly the fabric's nodes: no payload adds a node, an edge or an attribute.
#[test]
fn graphviz_reads_the_dot_as_drawn() {
    for sample in SAMPLES {
        let d = hostile(sample);
        let dot = String::from_utf8(export_of(&d, Format::Dot, View::Fabric).unwrap()).unwrap();
        let clean = export_of(
            &racksmith::samples::sample(sample).unwrap(),
            Format::Dot,
            View::Fabric,
        )
        .unwrap();
        let count = |text: &str, what: &str| text.lines().filter(|l| l.starts_with(what)).count();
        if !have("dot", "-V") {
            continue;
        }
        let plain = |input: &[u8]| {
            let mut child = Command::new("dot")
                .arg("-Tplain")
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            use std::io::Write as _;
            child.stdin.take().unwrap().write_all(input).unwrap();
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "{sample}: dot: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            String::from_utf8_lossy(&out.stdout).into_owned()
        };
        let (h, c) = (plain(dot.as_bytes()), plain(&clean));
        assert_eq!(count(&h, "node "), count(&c, "node "), "{sample}: nodes");
        assert_eq!(count(&h, "edge "), count(&c, "edge "), "{sample}: edges");
    }
}

/// Every CSV export read back: no cell that is not a number starts with a formula character.
#[test]
fn no_csv_cell_starts_a_formula() {
    let starts_formula = |cell: &str| {
        cell.starts_with(['=', '+', '-', '@', '\t', '\r'])
            && !(cell.parse::<f64>().is_ok_and(f64::is_finite)
                && cell
                    .chars()
                    .all(|c| c.is_ascii_digit() || "+-.eE".contains(c)))
    };
    for sample in SAMPLES {
        let d = hostile(sample);
        let report = analyze(&d);
        let mut files = vec![
            export_of(&d, Format::BomCsv, View::Racks).unwrap(),
            export_of(&d, Format::CablingCsv, View::Racks).unwrap(),
        ];
        let other = racksmith::samples::sample("dgx-h100-single").unwrap();
        let c = racksmith::analysis::compare::compare((&d, &report), (&other, &analyze(&other)));
        files.push(export::compare_csv(&c).unwrap().into_bytes());
        for bytes in files {
            let mut r = csv::ReaderBuilder::new()
                .has_headers(false)
                .from_reader(bytes.as_slice());
            let mut cells = 0;
            for rec in r.records() {
                for cell in rec.unwrap().iter() {
                    cells += 1;
                    assert!(!starts_formula(cell), "{sample}: formula cell {cell:?}");
                }
            }
            assert!(cells > 10);
        }
    }
}

/// Slurm: a hostile host name refuses the export, naming the device; with plain host names and a hostile design
/// name, `topology.conf` holds only comments and `SwitchName=` records of known keys and valid host lists, and
/// `topology.yaml` parses to the expected structure.
#[test]
fn slurm_files_carry_no_injected_record() {
    let d = hostile("superpod-h100-1su");
    for format in [Format::Slurm, Format::SlurmYaml] {
        let err = export_of(&d, format, View::Racks).unwrap_err().to_string();
        assert!(err.contains("Slurm"), "{err}");
        assert!(!err.contains('\n') && !err.contains('\u{1b}'), "{err:?}");
    }
    let mut d = racksmith::samples::sample("superpod-h100-1su").unwrap();
    d.name = "x\r\nSwitchName=evil Nodes=ALL\u{85}\u{2028}SwitchName=evil2".into();
    let conf = String::from_utf8(export_of(&d, Format::Slurm, View::Racks).unwrap()).unwrap();
    let mut switches = 0;
    for line in conf.lines() {
        if line.starts_with('#') {
            continue;
        }
        assert!(!line.contains('\r'));
        for (i, field) in line.split_whitespace().enumerate() {
            let (key, value) = field.split_once('=').expect("Key=Value");
            assert!(
                if i == 0 {
                    key == "SwitchName"
                } else {
                    key == "Switches" || key == "Nodes"
                },
                "unexpected key in {line:?}"
            );
            assert!(!value.contains("evil"), "{line:?}");
            hostlist_parser::parse(value).unwrap_or_else(|e| panic!("{value}: {e:?}"));
        }
        switches += 1;
    }
    assert!(switches >= 2, "{conf}");
    let yaml = export_of(&d, Format::SlurmYaml, View::Racks).unwrap();
    let v: serde_norway::Value = serde_norway::from_slice(&yaml).unwrap();
    let list = v.as_sequence().expect("a list of topologies");
    for t in list {
        let keys: Vec<&str> = t
            .as_mapping()
            .unwrap()
            .keys()
            .map(|k| k.as_str().unwrap())
            .collect();
        for k in keys {
            assert!(
                ["topology", "cluster_default", "tree", "block"].contains(&k),
                "{k}"
            );
        }
    }
    assert!(
        !String::from_utf8_lossy(&yaml)
            .lines()
            .any(|l| l.starts_with("SwitchName"))
    );
}

/// JSON keeps every name as written (serde_json escapes), and reads back.
#[test]
fn json_round_trips_the_names() {
    let d = hostile("dgx-h100-single");
    let json = export_of(&d, Format::Json, View::Fabric).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
    let text = v.to_string();
    assert!(text.contains("SwitchName=evil") || text.contains("onerror"));
}

/// A file with such names is refused at load, at the name's line and column, and the message shows the character
/// by code point (nothing reaches the terminal raw).
#[test]
fn hostile_names_are_refused_at_load_with_their_place() {
    let dir = tempfile::tempdir().unwrap();
    let clean = racksmith::samples::sample("dgx-h100-single").unwrap();
    let text = racksmith::io::design_to_string(&clean).unwrap();
    let device = clean.devices.values().next().unwrap().name.clone();
    for (bad, code) in [
        ("node-08\nSwitchName=evil", "U+000A"),
        ("x\u{1b}]0;pwned\u{7}", "U+001B"),
        ("a\u{202e}b", "U+202E"),
        ("z\u{200b}w", "U+200B"),
    ] {
        let escaped: String = bad
            .chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_unicode().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect();
        let hostile = text.replacen(
            &format!("name: \"{device}\""),
            &format!("name: \"{escaped}\""),
            1,
        );
        assert_ne!(hostile, text);
        let path = dir.path().join("hostile.ron");
        std::fs::write(&path, &hostile).unwrap();
        let err = racksmith::io::load(&path).unwrap_err().to_string();
        assert!(err.contains(code), "{err}");
        assert!(err.contains("line "), "no line: {err}");
        assert!(
            !err.contains('\u{1b}') && !err.contains('\u{202e}'),
            "raw character in {err:?}"
        );
        let line = hostile.lines().position(|l| l.contains(&escaped)).unwrap() + 1;
        assert!(
            err.contains(&format!("line {line},")),
            "line {line} expected: {err}"
        );
    }
    // Too long a name.
    let long = text.replacen(
        &format!("name: \"{device}\""),
        &format!("name: \"{}\"", "x".repeat(300)),
        1,
    );
    let path = dir.path().join("long.ron");
    std::fs::write(&path, long).unwrap();
    let err = racksmith::io::load(&path).unwrap_err().to_string();
    assert!(err.contains("300 characters"), "{err}");
}

/// What an export writes grows with the design, not with the square of a name: with every name at the length limit
/// and made of the character with the longest escape, each output stays within 40 times its file plus 16 MiB
/// (docs/limits.md: the report lists at most 1,500 cables one by one, so its cabling table is bounded by itself).
#[test]
fn outputs_are_bounded_by_the_input() {
    let mut d = racksmith::samples::sample("superpod-h100-1su").unwrap();
    // Quotes: the character whose escape is longest in HTML and XML (`&quot;`, six bytes for one).
    let long = "\"".repeat(racksmith::io::names::MAX_NAME_CHARS - 8);
    d.name = long.clone();
    for (i, dev) in d.devices.values_mut().enumerate() {
        dev.name = format!("{long}{i}");
    }
    for (i, r) in d.racks.values_mut().enumerate() {
        r.name = format!("{long}{i}");
    }
    let file = racksmith::io::design_to_string(&d).unwrap().len();
    for format in Format::ALL {
        if matches!(format, Format::Slurm | Format::SlurmYaml) {
            // Refused: no Slurm host name holds a quote.
            assert!(export_of(&d, format, View::Fabric).is_err());
            continue;
        }
        let out = export_of(&d, format, View::Fabric).unwrap().len();
        eprintln!("{format:?}: {out} bytes from a {file}-byte file");
        assert!(
            out < 40 * file + (16 << 20),
            "{format:?}: {out} bytes from a {file}-byte file"
        );
    }
}
