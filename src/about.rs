//! What this build is: the package version, the git commit and date it was built from (recorded by `build.rs`,
//! "unknown" when built outside a git checkout), and the versions of the formats it reads and writes. `racksmith
//! --version` and Help > About show [`version_text`], so a bug report names the exact build.

use crate::{analysis, model};
use std::sync::LazyLock;

/// The package version, from Cargo.toml.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The commit the build was made from, abbreviated, or "unknown".
pub const COMMIT: &str = env!("RACKSMITH_COMMIT");

/// The date of that commit, YYYY-MM-DD, or "unknown".
pub const COMMIT_DATE: &str = env!("RACKSMITH_COMMIT_DATE");

/// The version with what a bug report needs beside it, e.g. "0.2.0 (commit 1a2b3c4d5e, 2026-12-03; report format
/// 1, design format 1)". A static so clap can hold it as its `--version` text.
pub static VERSION_TEXT: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{VERSION} (commit {COMMIT}, {COMMIT_DATE}; report format {}, design format {})",
        analysis::REPORT_FORMAT_VERSION,
        model::FORMAT_VERSION
    )
});

/// [`VERSION_TEXT`] as a string slice.
pub fn version_text() -> &'static str {
    VERSION_TEXT.as_str()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_version_commit_and_formats() {
        let text = version_text();
        assert!(text.starts_with(VERSION));
        assert!(text.contains(&format!("commit {COMMIT}")));
        assert!(text.contains(&format!(
            "report format {}",
            analysis::REPORT_FORMAT_VERSION
        )));
        // A commit is a hex hash or "unknown", never empty.
        assert!(COMMIT == "unknown" || COMMIT.chars().all(|c| c.is_ascii_hexdigit()));
    }
}
