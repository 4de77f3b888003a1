//! The egui front end. (Being built: see issue 3.)

use std::path::PathBuf;

/// Opens the desktop app.
pub fn run(_file: Option<PathBuf>, _screenshot: Option<PathBuf>) -> anyhow::Result<()> {
    anyhow::bail!("the desktop app is not built yet")
}
