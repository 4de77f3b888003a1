//! The command line below `main.rs`: its definition ([`args`]) and the man pages and completions made from it
//! ([`assets`]), what it writes and how it fails ([`output`]), the commands that generate a design ([`generate`]),
//! and what several commands share: the built-in catalog with the parts of `--catalog` ([`load_catalog`]) and the
//! app, opened when no subcommand is given ([`open_app`]).

pub mod args;
pub mod assets;
pub mod fabric;
pub mod generate;
pub mod output;

use racksmith::catalog::Catalog;
use std::path::PathBuf;
use std::process::ExitCode;

/// The built-in catalog with the parts of `--catalog`, when given, joined to it.
pub fn load_catalog(user: Option<&std::path::Path>) -> anyhow::Result<Catalog> {
    let builtin = Catalog::builtin()?;
    Ok(match user {
        Some(p) => {
            // The app treats a missing user catalog as empty (it has not been written yet); a file named on the
            // command line must exist.
            if std::fs::symlink_metadata(p).is_err() {
                anyhow::bail!("--catalog {}: no such file", p.display());
            }
            let user = racksmith::catalog::user::load(p)?;
            // An override of a built-in part is allowed, and said: every figure from it differs from the catalog's.
            let overridden = racksmith::catalog::user::overridden(&builtin, &user);
            if !overridden.is_empty() {
                let ids: Vec<&str> = overridden.iter().map(|id| id.as_str()).collect();
                eprintln!(
                    "note: --catalog {} overrides built-in parts: {}",
                    p.display(),
                    ids.join(", ")
                );
            }
            racksmith::catalog::user::merged(&builtin, &user)
        }
        None => builtin,
    })
}

/// No subcommand: the desktop app, with `file` open (the built-in sample without one); with `screenshot`, it
/// writes a PNG of its window there and exits.
#[cfg(all(feature = "gui", not(target_arch = "wasm32")))]
pub fn open_app(file: Option<PathBuf>, screenshot: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    racksmith::app::run(file, screenshot)?;
    Ok(ExitCode::SUCCESS)
}

/// No subcommand, in a build without the app: the analysis of `file` (the built-in sample without one) as text.
#[cfg(any(not(feature = "gui"), target_arch = "wasm32"))]
pub fn open_app(file: Option<PathBuf>, _screenshot: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    use output::out;
    use racksmith::analysis::text as report_text;
    use racksmith::{analysis, io, samples};
    // Built without the GUI: show the analysis of the design in the terminal instead.
    let design = match file {
        Some(f) => io::load(&f)?,
        None => samples::default_design(),
    };
    out!("{}", report_text::render(&analysis::analyze(&design)));
    Ok(ExitCode::SUCCESS)
}
