//! `racksmith generate-assets DIR` (hidden): the man pages and shell completions, made from the clap definition in
//! [`super::args`] so they never disagree with `--help`. The Debian package's build (assets/linux/build-deb.sh)
//! runs it and packages what it writes.

use super::args::Cli;
use super::output::write_out;
use anyhow::Context as _;
use clap::CommandFactory as _;
use clap_complete::Shell;
use racksmith::about;
use std::path::{Path, PathBuf};

/// What the generated page of `racksmith` itself adds after clap's sections (roff).
const MAIN_PAGE_EXTRA: &str = r#".SH "EXIT STATUS"
0 when the command did what it was asked; 2 on an unreadable or invalid input, with the error
(file:line:column) on standard error.
.SH FILES
.TP
\fI$XDG_CONFIG_HOME/racksmith/user\-catalog.ron\fR (else \fI~/.config/racksmith/user\-catalog.ron\fR)
Your own parts, written by the app's Catalog window and read with \fB\-\-catalog\fR.
.TP
\fI/usr/share/doc/racksmith/sample\-designs/\fR
The sample designs, as \fBracksmith sample\fR writes them.
.SH "SEE ALSO"
\fBracksmith\-analyze\fR(1), \fBracksmith\-export\fR(1), \fBracksmith\-new\fR(1); the README in
\fI/usr/share/doc/racksmith\fR.
"#;

/// Writes DIR/man/racksmith.1 with a page per subcommand (racksmith-analyze.1, racksmith-size-serving.1, ...) and
/// DIR/completions/ racksmith.bash, _racksmith and racksmith.fish; returns the files written.
pub fn generate_assets(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    // Built, so each subcommand knows its full name ("racksmith-size-serving") for its page's title.
    cmd.build();
    let man_dir = dir.join("man");
    let completions_dir = dir.join("completions");
    for d in [&man_dir, &completions_dir] {
        std::fs::create_dir_all(d)
            .with_context(|| format!("creating the folder {}", d.display()))?;
    }
    let mut written = Vec::new();
    man_pages(&cmd, &man_dir, true, &mut written)?;
    for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
        let path = clap_complete::generate_to(shell, &mut cmd, "racksmith", &completions_dir)
            .with_context(|| format!("writing the {shell} completions"))?;
        written.push(path);
    }
    Ok(written)
}

/// The page of `cmd` and, first, those of its visible subcommands.
fn man_pages(
    cmd: &clap::Command,
    dir: &Path,
    top: bool,
    written: &mut Vec<PathBuf>,
) -> anyhow::Result<()> {
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        man_pages(sub, dir, false, written)?;
    }
    let title = cmd
        .get_display_name()
        .unwrap_or_else(|| cmd.get_name())
        .to_string();
    let mut man =
        clap_mangen::Man::new(cmd.clone()).source(format!("racksmith {}", about::VERSION));
    // The commit's date, not today's: the same commit makes the same pages.
    if about::COMMIT_DATE != "unknown" {
        man = man.date(about::COMMIT_DATE);
    }
    let mut page = Vec::new();
    man.render(&mut page)?;
    if top {
        page.extend_from_slice(MAIN_PAGE_EXTRA.as_bytes());
    }
    let path = dir.join(format!("{title}.1"));
    write_out(Some(&path), &page, true)?;
    written.push(path);
    Ok(())
}
