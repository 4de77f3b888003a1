//! The opt-in frame log (`RACKSMITH_FRAME_LOG=path`, desktop only): one line per frame appended to the file, for
//! measuring the app as it runs (frames per second of a drag, the longest frame while panning, frames while idle):
//! `<ms since start> <unix time ms> <frame> <ui ms> <cpu ms> <causes> <layer>` (the unix time to line frames up
//! with a script's clicks, `benches/click_to_pixels.sh`), where `ui ms` is the time spent in
//! [`super::RacksmithApp::show`] this frame, `cpu ms` eframe's `cpu_usage` of the previous frame (ui, tessellation
//! and GL submission, without the buffer swap or Mesa's rasteriser threads), `causes` what asked for this frame
//! (`file:line`, comma separated; `-` when input alone did) and `layer` how often the canvas's OpenGL layer has
//! drawn its scene whole, copied it to the window and drawn it only where it changed (`drawn/copied/partly`; `-`
//! without the layer). Written through a buffer flushed every frame, so a killed app loses no line.

use std::io::Write;
use std::time::Instant;

/// The open log, if `RACKSMITH_FRAME_LOG` names a file that could be opened.
pub struct FrameLog {
    out: std::io::BufWriter<std::fs::File>,
    start: Instant,
    frame: u64,
}

impl FrameLog {
    /// Opens the file `RACKSMITH_FRAME_LOG` names for appending; `None` when the variable is unset or the file
    /// cannot be opened (said on standard error).
    pub fn from_env() -> Option<Self> {
        let path = std::env::var_os("RACKSMITH_FRAME_LOG")?;
        match std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
        {
            Ok(f) => Some(Self {
                out: std::io::BufWriter::new(f),
                start: Instant::now(),
                frame: 0,
            }),
            Err(e) => {
                eprintln!(
                    "RACKSMITH_FRAME_LOG: cannot open {}: {e}",
                    std::path::Path::new(&path).display()
                );
                None
            }
        }
    }

    /// Appends this frame's line: `ui` is the time the frame's ui took, `cpu_s` eframe's figure for the previous
    /// frame.
    /// `layer`: how often the canvas's OpenGL layer has drawn its scene and copied it so far.
    pub fn frame(
        &mut self,
        ctx: &egui::Context,
        (ui, cpu_s): (std::time::Duration, Option<f32>),
        layer: Option<crate::app::canvas::gl_layer::Counts>,
    ) {
        self.frame += 1;
        let causes: Vec<String> = ctx
            .repaint_causes()
            .iter()
            .map(|c| {
                // A dependency's source as `crate-version/src/file.rs`, without the registry's path before it.
                let file = c
                    .file
                    .split_once("/registry/src/")
                    .and_then(|(_, f)| f.split_once('/'))
                    .map_or(c.file, |(_, f)| f);
                format!("{file}:{}", c.line)
            })
            .collect();
        let causes = if causes.is_empty() {
            "-".to_owned()
        } else {
            causes.join(",")
        };
        // A failed write stops nothing: the log is for measuring, not for the app.
        let _ = writeln!(
            self.out,
            "{:.1} {:.1} {} {:.2} {:.2} {causes} {}",
            self.start.elapsed().as_secs_f64() * 1e3,
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0.0, |d| d.as_secs_f64() * 1e3),
            self.frame,
            ui.as_secs_f64() * 1e3,
            cpu_s.map_or(0.0, |s| s * 1e3),
            layer.map_or_else(
                || "-".to_owned(),
                |c| format!("{}/{}/{}", c.drawn, c.copied, c.partly)
            ),
        )
        .and_then(|()| self.out.flush());
    }
}
