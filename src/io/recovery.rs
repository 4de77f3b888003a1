//! Crash recovery, one autosave per running instance: each instance claims its own file in a recovery folder (the
//! app uses the platform's data directory, where eframe keeps its settings) and holds an exclusive lock on a
//! companion `.lock` file for as long as it runs. At start, only autosaves whose lock can be taken (their writer is
//! gone) are offered; a live instance's autosave is never offered or deleted by another. An autosave that fails to
//! load is kept under a new name and reported, never deleted silently.

use super::{LoadError, SaveError};
use crate::model::Design;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The folder holding every instance's autosave.
#[derive(Debug, Clone)]
pub struct RecoveryDir {
    dir: PathBuf,
}

/// This instance's autosave: the file it writes and the lock that marks it alive.
#[derive(Debug)]
pub struct Autosave {
    path: PathBuf,
    lock_path: PathBuf,
    /// Held open (and locked) for the life of the instance; the OS releases it when the process dies.
    _lock: File,
}

/// An autosave left by an instance that is gone.
#[derive(Debug, Clone, PartialEq)]
pub struct Orphan {
    /// The autosave file.
    pub path: PathBuf,
    /// The design's name, when the file loads.
    pub design_name: Option<String>,
    /// When it was last written.
    pub modified: Option<SystemTime>,
    /// Why it could not be loaded, and where it was kept, when it could not.
    pub error: Option<String>,
}

const PREFIX: &str = "autosave-";

impl RecoveryDir {
    /// Recovery files live in `dir` (created when first needed).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    /// The recovery folder this instance's autosave and the others' live in, as given to [`RecoveryDir::new`].
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Claims a fresh autosave for this instance, locked for as long as the returned value lives.
    pub fn claim(&self) -> std::io::Result<Autosave> {
        std::fs::create_dir_all(&self.dir)?;
        let stamp = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let stem = format!("{PREFIX}{}-{stamp}", std::process::id());
        let lock_path = self.dir.join(format!("{stem}.lock"));
        let lock = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)?;
        lock.try_lock().map_err(|e| match e {
            std::fs::TryLockError::Error(e) => e,
            std::fs::TryLockError::WouldBlock => {
                std::io::Error::new(std::io::ErrorKind::WouldBlock, "autosave already locked")
            }
        })?;
        Ok(Autosave {
            path: self.dir.join(format!("{stem}.ron")),
            lock_path,
            _lock: lock,
        })
    }

    /// Autosaves whose writer is gone, newest first. Files that do not load are renamed to `*.corrupt.ron` and
    /// returned with the reason and their new path; stale locks with no autosave are removed.
    pub fn orphans(&self) -> Vec<Orphan> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(stem) = name
                .strip_prefix(PREFIX)
                .and_then(|s| s.strip_suffix(".lock"))
            else {
                continue;
            };
            let Ok(lock) = File::options().write(true).open(&path) else {
                continue;
            };
            if lock.try_lock().is_err() {
                continue; // its writer is alive
            }
            let ron = self.dir.join(format!("{PREFIX}{stem}.ron"));
            if !ron.exists() {
                drop(lock);
                let _ = std::fs::remove_file(&path);
                continue;
            }
            let modified = std::fs::metadata(&ron).and_then(|m| m.modified()).ok();
            out.push(match super::load(&ron) {
                Ok(d) => Orphan {
                    path: ron,
                    design_name: Some(d.name),
                    modified,
                    error: None,
                },
                Err(e) => keep_corrupt(&ron, &e, modified),
            });
        }
        out.sort_by(|a, b| b.modified.cmp(&a.modified).then(a.path.cmp(&b.path)));
        out
    }

    /// Loads an orphan the user chose to recover, then removes it and its lock (the recovered design is this
    /// instance's unsaved work now, autosaved under its own name).
    pub fn adopt(&self, orphan: &Orphan) -> Result<Design, LoadError> {
        let design = super::load(&orphan.path)?;
        self.discard(orphan);
        Ok(design)
    }

    /// Removes an orphan the user chose to discard, with its lock.
    pub fn discard(&self, orphan: &Orphan) {
        let _ = std::fs::remove_file(&orphan.path);
        if let Some(lock) = lock_of(&orphan.path) {
            let _ = std::fs::remove_file(lock);
        }
    }
}

fn lock_of(ron: &Path) -> Option<PathBuf> {
    let name = ron.file_name()?.to_string_lossy().into_owned();
    let stem = name.strip_suffix(".ron")?;
    Some(ron.with_file_name(format!("{stem}.lock")))
}

/// Renames an autosave that does not load to `*.corrupt.ron` (outside the autosave pattern, so it is offered
/// once) and says where it went.
fn keep_corrupt(ron: &Path, e: &LoadError, modified: Option<SystemTime>) -> Orphan {
    let kept = ron.with_extension("corrupt.ron");
    let (path, note) = match std::fs::rename(ron, &kept) {
        Ok(()) => {
            if let Some(lock) = lock_of(ron) {
                let _ = std::fs::remove_file(lock);
            }
            (kept.clone(), format!("kept as {}", kept.display()))
        }
        Err(_) => (ron.to_path_buf(), format!("left at {}", ron.display())),
    };
    Orphan {
        path,
        design_name: None,
        modified,
        error: Some(format!("{e}; the file was {note}")),
    }
}

impl Autosave {
    /// The file this instance writes.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes the design atomically to this instance's autosave.
    pub fn write(&self, design: &Design) -> Result<(), SaveError> {
        super::save(design, &self.path)
    }

    /// Removes this instance's autosave (a clean exit, or the work was saved or discarded); the lock stays held.
    pub fn clear(&self) {
        let _ = std::fs::remove_file(&self.path);
    }

    /// Removes the autosave and the lock: the instance is ending cleanly.
    pub fn release(self) {
        let _ = std::fs::remove_file(&self.path);
        let _ = std::fs::remove_file(&self.lock_path);
    }
}
