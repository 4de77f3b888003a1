//! Records which commit the build was made from, for `racksmith --version` and Help > About (`src/about.rs`): the
//! abbreviated hash and the commit's date, from `git`, or "unknown" when the source is not a git checkout (a crate
//! tarball, a packaging system without git). `RACKSMITH_COMMIT` and `RACKSMITH_COMMIT_DATE`, when set, name them
//! instead.

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

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
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
