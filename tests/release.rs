//! What the Debian package is made of (assets/linux/build-deb.sh): `racksmith --version` names the build, the hidden
//! `generate-assets` command writes man pages and completions that cover the command line, and the desktop entry
//! and the MIME type agree with each other and with the files Racksmith writes.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_racksmith"))
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The subcommands a user sees (the hidden `generate-assets` is not one of them).
const SUBCOMMANDS: [&str; 13] = [
    "analyze",
    "compare",
    "whatif",
    "export",
    "new",
    "scenario",
    "size",
    "swap",
    "validate",
    "catalog",
    "sample",
    "diff-fabric",
    "import-fabric",
];

/// `git rev-parse` of the checkout under test, or None where git cannot say (a source tarball).
fn git_commit() -> Option<String> {
    let out = Command::new("git")
        .args(["-c", "safe.directory=*", "rev-parse", "--short=10", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

#[test]
fn version_names_the_commit_date_and_formats() {
    let out = bin().arg("--version").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text.trim_end();
    // racksmith 0.2.0 (commit 1a2b3c4d5e, 2026-12-03; report format 1, design format 1)
    let commit = git_commit().unwrap_or_else(|| "unknown".to_string());
    let expected = format!("racksmith {} (commit {commit}, ", env!("CARGO_PKG_VERSION"));
    assert!(
        line.starts_with(&expected),
        "{line:?} should start with {expected:?}"
    );
    let date = &line[expected.len()..line.find(';').unwrap()];
    assert!(
        date == "unknown" || (date.len() == 10 && date.chars().filter(|c| *c == '-').count() == 2),
        "commit date {date:?}"
    );
    let formats = format!(
        "; report format {}, design format {})",
        racksmith::analysis::REPORT_FORMAT_VERSION,
        racksmith::model::FORMAT_VERSION
    );
    assert!(
        line.ends_with(&formats),
        "{line:?} should end with {formats:?}"
    );
    // -V says the same.
    let short = bin().arg("-V").output().unwrap();
    assert_eq!(String::from_utf8(short.stdout).unwrap(), text);
}

#[test]
fn generate_assets_writes_man_pages_and_completions_of_every_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin()
        .arg("generate-assets")
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let read = |p: &str| {
        std::fs::read_to_string(dir.path().join(p)).unwrap_or_else(|e| panic!("{p}: {e}"))
    };

    let main = read("man/racksmith.1");
    assert!(main.contains(".TH racksmith 1"), "title line");
    assert!(main.contains(".SH SUBCOMMANDS"));
    assert!(main.contains(".SH \"EXIT STATUS\""));
    for sub in SUBCOMMANDS {
        assert!(
            main.contains(&format!("racksmith\\-{}(1)", sub.replace('-', "\\-"))),
            "racksmith.1 lists {sub}"
        );
        let page = read(&format!("man/racksmith-{sub}.1"));
        assert!(
            page.contains(&format!(".TH racksmith-{sub} 1")),
            "{sub} page"
        );
    }
    // Nested subcommands have their pages; the hidden command has none and is not listed.
    let serving = read("man/racksmith-size-serving.1");
    assert!(serving.contains("requests\\-per\\-s"));
    read("man/racksmith-catalog-import-netbox.1");
    assert!(!dir.path().join("man/racksmith-generate-assets.1").exists());
    assert!(!main.contains("generate\\-assets"));
    // The analyze page documents its options, from the same doc comments as --help.
    assert!(read("man/racksmith-analyze.1").contains("\\-\\-format"));

    for (file, shell_marker) in [
        ("completions/racksmith.bash", "complete -F"),
        ("completions/_racksmith", "#compdef racksmith"),
        ("completions/racksmith.fish", "complete -c racksmith"),
    ] {
        let script = read(file);
        assert!(script.contains(shell_marker), "{file}");
        for sub in SUBCOMMANDS {
            assert!(script.contains(sub), "{file} completes {sub}");
        }
        // fish spells a long option `-l screenshot`.
        assert!(
            script.contains("screenshot"),
            "{file} completes --screenshot"
        );
    }
}

/// The [Desktop Entry] group of a desktop file as key -> value.
fn desktop_entry(text: &str) -> BTreeMap<String, String> {
    let mut group = "";
    let mut keys = BTreeMap::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with('[') {
            group = line;
            continue;
        }
        let (k, v) = line.split_once('=').expect("key=value");
        if group == "[Desktop Entry]" {
            assert!(
                keys.insert(k.to_string(), v.to_string()).is_none(),
                "{k} twice"
            );
        }
    }
    keys
}

/// The MIME types the shared-mime-info file defines, each with its globs and magic strings.
fn mime_types(xml: &str) -> BTreeMap<String, (Vec<String>, Vec<String>)> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut types = BTreeMap::new();
    let mut current: Option<String> = None;
    loop {
        match reader.read_event().unwrap() {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) => {
                // The file has no entities: raw attribute values are the values.
                let attr = |name: &str| {
                    e.try_get_attribute(name)
                        .unwrap()
                        .map(|a| a.value.to_string())
                };
                match e.name().as_ref() {
                    "mime-type" => {
                        let t = attr("type").expect("mime-type has a type");
                        types.insert(t.clone(), (Vec::new(), Vec::new()));
                        current = Some(t);
                    }
                    "glob" => {
                        let t = current.as_ref().expect("glob inside a mime-type");
                        types.get_mut(t).unwrap().0.push(attr("pattern").unwrap());
                    }
                    "match" => {
                        let t = current.as_ref().expect("match inside a mime-type");
                        assert_eq!(attr("type").as_deref(), Some("string"));
                        assert_eq!(attr("offset").as_deref(), Some("0"));
                        types.get_mut(t).unwrap().1.push(attr("value").unwrap());
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    types
}

#[test]
fn desktop_entry_opens_the_mime_type_the_mime_file_defines() {
    let desktop =
        desktop_entry(&std::fs::read_to_string(repo("assets/linux/racksmith.desktop")).unwrap());
    assert_eq!(desktop["Type"], "Application");
    assert_eq!(desktop["Exec"], "racksmith %f");
    assert_eq!(desktop["Icon"], "racksmith");
    let desktop_types: Vec<&str> = desktop["MimeType"]
        .split(';')
        .filter(|t| !t.is_empty())
        .collect();
    assert_eq!(desktop_types, ["application/x-racksmith-design"]);
    // The icon the entry names is packaged at both sizes.
    assert!(repo("assets/linux/racksmith.svg").is_file());
    assert!(repo("assets/linux/racksmith.png").is_file());

    let types = mime_types(&std::fs::read_to_string(repo("assets/linux/racksmith.xml")).unwrap());
    let (globs, magic) = &types["application/x-racksmith-design"];
    assert_eq!(types.len(), 1);
    assert_eq!(globs, &["*.ron"]);
    // Every file Racksmith writes, and every sample, starts with the magic string.
    let [magic] = magic.as_slice() else {
        panic!("one magic string: {magic:?}")
    };
    let written = racksmith::io::design_to_string(&racksmith::samples::default_design()).unwrap();
    assert!(written.starts_with(magic.as_str()), "{magic:?}");
    for entry in std::fs::read_dir(repo("sample-designs")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(magic.as_str()), "{}", path.display());
        assert!(
            path.extension().is_some_and(|e| e == "ron"),
            "{}",
            path.display()
        );
    }
}
