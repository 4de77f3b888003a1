//! Records which commit the build was made from, for `racksmith --version` and Help > About (`src/about.rs`): the
//! abbreviated hash and the commit's date, from `git`, or "unknown" when the source is not a git checkout (a crate
//! tarball, a packaging system without git). `RACKSMITH_COMMIT` and `RACKSMITH_COMMIT_DATE`, when set, name them
//! instead.
//!
//! It also writes the app's window registry (`$OUT_DIR/windows.rs`, included by `src/app/windows/mod.rs`) from that
//! file's `pub mod NAME;` lines, in their order: adding a window is its file and that one line.

use std::path::Path;
use std::process::Command;

/// What `git ARGS` prints, trimmed, or `None` when git is missing, fails or prints nothing.
fn git(args: &[&str]) -> Option<String> {
    // safe.directory: a checkout owned by another user (a CI runner, a container's bind mount) is still read; the
    // build compiles that checkout's code anyway, so reading its commit trusts nothing more.
    let out = Command::new("git")
        .args(["-c", "safe.directory=*"])
        .args(args)
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (out.status.success() && !text.is_empty()).then(|| text.to_string())
}

/// Rebuilds when HEAD moves: a checkout changes HEAD, a commit changes the branch's ref, `git gc` moves refs into
/// packed-refs. `--git-path` answers for worktrees too, where `.git` is a file and HEAD lives elsewhere.
fn rerun_when_head_moves() {
    let mut files = vec!["HEAD".to_string(), "packed-refs".to_string()];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        files.push(branch);
    }
    for file in files {
        if let Some(path) = git(&["rev-parse", "--git-path", &file])
            && Path::new(&path).exists()
        {
            println!("cargo:rerun-if-changed={path}");
        }
    }
}

/// The window registry from the `pub mod NAME;` lines of src/app/windows/mod.rs, in order: each module's `Window`,
/// boxed, closed.
fn window_registry() {
    let list = "src/app/windows/mod.rs";
    println!("cargo:rerun-if-changed={list}");
    let text = std::fs::read_to_string(list).unwrap_or_default();
    let names: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod ")?.strip_suffix(';'))
        .filter(|n| n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .collect();
    let boxed: String = names
        .iter()
        .map(|n| format!("        Box::new({n}::Window::default()) as Box<dyn AppWindow>,\n"))
        .collect();
    let code = format!(
        "/// Every window, closed, in drawing order: the `pub mod` lines of src/app/windows/mod.rs (written by \
         build.rs).\npub fn registry() -> WindowRegistry {{\n    WindowRegistry::new(vec![\n{boxed}    ])\n}}\n"
    );
    let out = std::env::var("OUT_DIR").unwrap_or_else(|_| ".".to_string());
    let path = Path::new(&out).join("windows.rs");
    if std::fs::read_to_string(&path).ok().as_deref() != Some(code.as_str()) {
        std::fs::write(&path, code).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    window_registry();
    println!("cargo:rerun-if-env-changed=RACKSMITH_COMMIT");
    println!("cargo:rerun-if-env-changed=RACKSMITH_COMMIT_DATE");
    rerun_when_head_moves();
    let commit = std::env::var("RACKSMITH_COMMIT")
        .ok()
        .or_else(|| git(&["rev-parse", "--short=10", "HEAD"]))
        .unwrap_or_else(|| "unknown".to_string());
    let date = std::env::var("RACKSMITH_COMMIT_DATE")
        .ok()
        .or_else(|| git(&["log", "-1", "--format=%cs"]))
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=RACKSMITH_COMMIT={commit}");
    println!("cargo:rustc-env=RACKSMITH_COMMIT_DATE={date}");
}
