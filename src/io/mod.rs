//! Reading and writing design files: RON with a `format_version`, deterministic diff-friendly output (one line per
//! rack, device and link), atomic saves, and errors that name the file, line and column.

pub mod fabric;
mod fast;
pub mod limits;
pub mod names;
pub mod recovery;
pub mod share;
mod validate;

pub use validate::{Problem, device_problems, link_problems, rack_problems, validate};

use crate::model::{Design, FORMAT_VERSION};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why a file could not be loaded.
#[derive(Debug, Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file that could not be read, as the caller named it; the message starts with it.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The text is not valid RON for a design.
    #[error("{path}:{line}:{column}: {message}")]
    Syntax {
        /// The design file, as the caller named it: the message starts `path:line:column`, which editors and
        /// terminals open at the error.
        path: PathBuf,
        /// Line of the error, counting from 1 as editors do.
        line: usize,
        /// Column of the error in that line, counting from 1 as editors do.
        column: usize,
        /// What was wrong or expected.
        message: String,
    },
    /// The file is from a newer Racksmith.
    #[error(
        "{path}: format_version {found} is newer than this Racksmith understands ({supported}); update Racksmith"
    )]
    TooNew {
        /// The design file, as the caller named it; the message starts with it.
        path: PathBuf,
        /// Version in the file.
        found: u32,
        /// Newest version this build reads.
        supported: u32,
    },
    /// The file parsed but describes an impossible design.
    #[error("{path}: {} in the design:\n{}", crate::model::text::count(problems.len(), "problem", "problems"), problems.iter().map(|p| format!("  - {p}")).collect::<Vec<_>>().join("\n"))]
    Invalid {
        /// The design file, as the caller named it; the message starts with it.
        path: PathBuf,
        /// Everything wrong, in document order.
        problems: Vec<Problem>,
    },
    /// A parts file (a user catalog) parsed but holds a figure outside its range.
    #[error("{path}: {} in the parts file:\n{}", crate::model::text::count(problems.len(), "problem", "problems"), problems.iter().map(|p| format!("  - {p}")).collect::<Vec<_>>().join("\n"))]
    InvalidParts {
        /// The parts file (`--catalog`, or the app's user catalog) as the caller gave it; the message starts with it.
        path: PathBuf,
        /// Everything wrong, in document order.
        problems: Vec<Problem>,
    },
}

/// Why a file could not be saved.
#[derive(Debug, Error)]
pub enum SaveError {
    /// Serialisation failed (should not happen for a valid design).
    #[error("cannot write design as RON: {0}")]
    Serialize(String),
    /// The file to replace is read-only; the user must agree before it is replaced.
    #[error(
        "cannot save {path}: the file is read-only (make it writable, or save under another name)"
    )]
    ReadOnly {
        /// The file that would be replaced: the path given, or a symlink's target ([`save_target`]).
        path: PathBuf,
    },
    /// The design would not load again (a part that breaks a rule, a slot holding the wrong kind): nothing is
    /// written, so no command leaves behind a file that Racksmith refuses.
    #[error("the design was not written: it would not load again.\n{0}")]
    WouldNotLoad(String),
    /// The file system refused.
    #[error("cannot save {path}: {source}")]
    Io {
        /// The file being written: the path given, or a symlink's target ([`save_target`]).
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
}

/// Parses RON text into any type, turning a parse error into one that names the file, line and column.
pub fn parse_ron<T: DeserializeOwned>(text: &str, path: &Path) -> Result<T, LoadError> {
    ron::Options::default()
        .from_str(text)
        .map_err(|e: ron::error::SpannedError| LoadError::Syntax {
            path: path.to_path_buf(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: explain(&e.code),
        })
}

/// The parser's message, with the nearest known name when a field or variant is misspelt
/// (`utilization_target` -> "did you mean `utilisation_target`?").
fn explain(code: &ron::Error) -> String {
    let (found, expected) = match code {
        ron::Error::NoSuchStructField {
            expected, found, ..
        }
        | ron::Error::NoSuchEnumVariant {
            expected, found, ..
        } => (found.as_str(), *expected),
        _ => return code.to_string(),
    };
    match nearest(found, expected) {
        Some(best) => format!("{code}; did you mean `{best}`?"),
        None => code.to_string(),
    }
}

/// The known name closest to `found` by normalised Damerau-Levenshtein similarity, if any is close enough to be
/// a likely misspelling.
pub fn nearest<'a>(found: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (strsim::normalized_damerau_levenshtein(found, k), *k))
        .filter(|(score, _)| *score >= 0.6)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k)
}

/// Parses a design from text without validating it beyond its syntax and version.
pub fn parse_design(text: &str, path: &Path) -> Result<Design, LoadError> {
    // Large files as Racksmith writes them take the fast path; anything else (and every error) goes through RON.
    let design: Design = match fast::parse(text) {
        Some(d) => d,
        None => parse_ron(text, path)?,
    };
    versioned(design, path)
}

/// A parsed design whose format version this Racksmith reads, brought up to the current one.
fn versioned(design: Design, path: &Path) -> Result<Design, LoadError> {
    if design.format_version == 0 {
        return Err(LoadError::Syntax {
            path: path.to_path_buf(),
            line: 1,
            column: 1,
            message: format!(
                "format_version is missing: a design file starts with `format_version: {FORMAT_VERSION},` (this \
                 Racksmith writes version {FORMAT_VERSION})"
            ),
        });
    }
    if design.format_version > FORMAT_VERSION {
        return Err(LoadError::TooNew {
            path: path.to_path_buf(),
            found: design.format_version,
            supported: FORMAT_VERSION,
        });
    }
    Ok(migrate(design))
}

/// Brings a design of an older format version up to the current one, each step taking the design one version
/// up. 1 -> 2: nothing to change: version 2's floor, rack widths and link flags are optional, and a link without
/// the flags keeps its length and cable (fixed), as version 1 meant; its racks' rows and slots are places on the
/// default floor (docs/exports.md, "Design file format").
fn migrate(mut design: Design) -> Design {
    design.format_version = FORMAT_VERSION;
    let max_id = design
        .racks
        .keys()
        .map(|r| r.0)
        .chain(design.devices.keys().map(|d| d.0))
        .chain(design.links.keys().map(|l| l.0))
        .max()
        .unwrap_or(0);
    design.next_id = design.next_id.max(max_id.saturating_add(1));
    design
}

/// Parses and validates a design from text.
pub fn design_from_str(text: &str, path: &Path) -> Result<Design, LoadError> {
    let design = parse_design(text, path)?;
    // Size and figures first: a design past the limits is refused before any work that grows with it.
    let figures = limits::check(&design);
    if !figures.is_empty() {
        return Err(LoadError::Invalid {
            path: path.to_path_buf(),
            problems: limits::describe(text, &figures)
                .into_iter()
                .map(|message| Problem {
                    message,
                    rack: None,
                    device: None,
                    link: None,
                })
                .collect(),
        });
    }
    validated(design, path, Some(text))
}

/// The design, or the problems [`validate`] finds in it, each placed at the line and column of the link, device
/// or rack it is about when the text is at hand (read again from `path` when it is not: only on this error path).
fn validated(mut design: Design, path: &Path, text: Option<&str>) -> Result<Design, LoadError> {
    let mut problems = validate(&design);
    if problems.is_empty() {
        // Links whose length or cable is an estimate follow the floor as it is now.
        design.reestimate();
        return Ok(design);
    }
    let reread;
    let text = match text {
        Some(t) => Some(t),
        None => {
            reread = read_design_text(path).ok();
            reread.as_deref()
        }
    };
    if let Some(text) = text {
        // One pass over the text places them all, however many there are.
        let mut index = limits::EntryIndex::new(text);
        let offsets: Vec<usize> = problems
            .iter()
            .map(|p| {
                p.link
                    .and_then(|l| index.entry("links", l.0))
                    .or_else(|| p.device.and_then(|d| index.entry("devices", d.0)))
                    .or_else(|| p.rack.and_then(|r| index.entry("racks", r.0)))
                    .unwrap_or(usize::MAX)
            })
            .collect();
        for (p, at) in problems
            .iter_mut()
            .zip(limits::line_columns(text, &offsets))
        {
            if let Some((line, column)) = at {
                p.message = format!("line {line}, column {column}: {}", p.message);
            }
        }
    }
    Err(LoadError::Invalid {
        path: path.to_path_buf(),
        problems,
    })
}

/// Reads, parses and validates a design file.
pub fn load(path: &Path) -> Result<Design, LoadError> {
    // A file as Racksmith writes it is read line by line, never whole. Anything else, and any file with a problem,
    // is read whole and goes through `design_from_str`, which parses it with RON if need be and places every
    // error at its line and column.
    let (file, _) = open_design_file(path)?;
    let input = std::io::BufReader::with_capacity(1 << 16, file);
    if let Some(design) = fast::read(input, MAX_FILE_BYTES)
        && let Ok(design) = versioned(design, path)
        && limits::check(&design).is_empty()
    {
        return validated(design, path, None);
    }
    let text = read_design_text(path)?;
    design_from_str(&text, path)
}

fn compact<T: Serialize>(value: &T) -> Result<String, SaveError> {
    let config = ron::ser::PrettyConfig::new()
        .depth_limit(0)
        .new_line("\n".to_string())
        .indentor(String::new())
        .separator(" ".to_string());
    ron::ser::to_string_pretty(value, config).map_err(|e| SaveError::Serialize(e.to_string()))
}

fn pretty<T: Serialize>(value: &T, depth: usize) -> Result<String, SaveError> {
    let config = ron::ser::PrettyConfig::new()
        .depth_limit(depth)
        .new_line("\n".to_string())
        .indentor("    ".to_string());
    ron::ser::to_string_pretty(value, config).map_err(|e| SaveError::Serialize(e.to_string()))
}

fn indent(text: &str, by: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    for (i, line) in text.lines().enumerate() {
        if i > 0 {
            out.push('\n');
            out.push_str(by);
        }
        out.push_str(line);
    }
    out
}

fn write_map<K: Serialize, V: Serialize>(
    out: &mut String,
    name: &str,
    map: &std::collections::BTreeMap<K, V>,
    one_line: bool,
) -> Result<(), SaveError> {
    if map.is_empty() {
        let _ = writeln!(out, "    {name}: {{}},");
        return Ok(());
    }
    let _ = writeln!(out, "    {name}: {{");
    for (k, v) in map {
        let value = if one_line {
            compact(v)?
        } else {
            indent(&pretty(v, 3)?, "        ")
        };
        let _ = writeln!(out, "        {}: {value},", compact(k)?);
    }
    let _ = writeln!(out, "    }},");
    Ok(())
}

/// Writes a design as RON text: stable field order, one line per rack, device and link, so diffs stay readable.
pub fn design_to_string(design: &Design) -> Result<String, SaveError> {
    let mut out = String::with_capacity(256 + 160 * (design.devices.len() + design.links.len()));
    out.push_str("// Racksmith design file. Edit with care: Racksmith checks it on load.\n(\n");
    let _ = writeln!(out, "    format_version: {},", design.format_version);
    let _ = writeln!(out, "    name: {},", compact(&design.name)?);
    let _ = writeln!(out, "    notes: {},", compact(&design.notes)?);
    let _ = writeln!(
        out,
        "    params: {},",
        indent(&pretty(&design.params, 3)?, "    ")
    );
    if !design.floor.is_default() {
        let _ = writeln!(out, "    floor: {},", compact(&design.floor)?);
    }
    if !design.sites.is_empty() {
        write_map(&mut out, "sites", &design.sites, true)?;
    }
    write_map(&mut out, "parts", &design.parts, false)?;
    write_map(&mut out, "racks", &design.racks, true)?;
    write_map(&mut out, "devices", &design.devices, true)?;
    write_map(&mut out, "links", &design.links, true)?;
    let _ = writeln!(out, "    next_id: {},", design.next_id);
    if !design.scenarios.is_empty() {
        out.push_str("    scenarios: [\n");
        for s in &design.scenarios {
            let _ = writeln!(out, "        {},", indent(&pretty(s, 1)?, "        "));
        }
        out.push_str("    ],\n");
    }
    if let Some(sizing) = &design.sizing {
        let _ = writeln!(
            out,
            "    sizing: Some({}),",
            indent(&pretty(sizing, 2)?, "    ")
        );
    }
    out.push_str(")\n");
    Ok(out)
}

/// Largest design file Racksmith reads: 256 MiB, far above a 128-SU SuperPOD (about 16 MB).
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// Temporary files of our own naming left next to a saved file are removed once older than this.
pub const STALE_TEMP_AGE: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

/// The design as [`design_to_string`] writes it, checked to load again exactly as a file is loaded (syntax,
/// limits and figures of every part, structure): the commands that write a design they made (`new`, `size`,
/// `swap`, `scenario -o`, the app's Create) write this, so they refuse, with the reason, rather than write a file
/// that does not load. Costs one parse and validation, in proportion to the design.
pub fn design_to_loadable_string(design: &Design) -> Result<String, SaveError> {
    let text = design_to_string(design)?;
    match design_from_str(&text, Path::new("the design")) {
        Ok(_) => Ok(text),
        Err(e) => Err(SaveError::WouldNotLoad(e.to_string())),
    }
}

/// Reads a design file's text, refusing what is not a regular file (a FIFO would block forever, a device never
/// end) and anything larger than [`MAX_FILE_BYTES`], before reading it; invalid UTF-8 is an error at its line and
/// column.
pub fn read_design_text(path: &Path) -> Result<String, LoadError> {
    read_checked_text(path, MAX_FILE_BYTES, "a design file")
}

/// A design file opened for reading, with its length: [`open_checked`] with the design file limit.
fn open_design_file(path: &Path) -> Result<(std::fs::File, u64), LoadError> {
    open_checked(path, MAX_FILE_BYTES, "a design file")
}

/// Every file a command reads goes through here first: refuses what is not a regular file (a FIFO would block
/// forever, `/dev/zero` never end) and anything larger than `max_bytes` (a sparse file of gigabytes), before a byte
/// is read. `what` names the kind of file in the message ("a design file", "a parts file").
pub fn open_checked(
    path: &Path,
    max_bytes: u64,
    what: &str,
) -> Result<(std::fs::File, u64), LoadError> {
    let io_err = |source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io_err)?;
    if !meta.is_file() {
        return Err(io_err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "not a regular file (a directory, FIFO or device); Racksmith reads {what} only from a file"
            ),
        )));
    }
    if meta.len() > max_bytes {
        return Err(io_err(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            format!(
                "{} bytes is over the limit of {} MiB for {what}",
                meta.len(),
                max_bytes / (1024 * 1024)
            ),
        )));
    }
    let file = std::fs::File::open(path).map_err(io_err)?;
    Ok((file, meta.len()))
}

/// A whole file's bytes after [`open_checked`], never reading past `max_bytes` even if the file grows meanwhile.
pub fn read_checked(path: &Path, max_bytes: u64, what: &str) -> Result<Vec<u8>, LoadError> {
    use std::io::Read as _;
    let (file, len) = open_checked(path, max_bytes, what)?;
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| LoadError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    if bytes.len() as u64 > max_bytes {
        return Err(LoadError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::new(
                std::io::ErrorKind::FileTooLarge,
                format!(
                    "the file grew past the limit of {} MiB while being read",
                    max_bytes / (1024 * 1024)
                ),
            ),
        });
    }
    Ok(bytes)
}

/// A whole text file after [`open_checked`]: invalid UTF-8 is an error naming the line and column of the first bad
/// byte.
pub fn read_checked_text(path: &Path, max_bytes: u64, what: &str) -> Result<String, LoadError> {
    let bytes = read_checked(path, max_bytes, what)?;
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let before = String::from_utf8_lossy(bytes.get(..valid).unwrap_or_default());
        let (line, column) = names::line_column(&before, before.len()).unwrap_or((1, 1));
        LoadError::Syntax {
            path: path.to_path_buf(),
            line,
            column,
            message: "the file is not valid UTF-8 text here".into(),
        }
    })
}

/// How [`write_atomic_with`] treats the file it replaces.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WriteOptions {
    /// Replace a read-only file (after the user said so); otherwise a read-only target is refused.
    pub replace_read_only: bool,
}

/// The file a save should really write: a symlink is followed to its target (so the link keeps pointing at the
/// updated file), a dangling link to the path it names.
pub fn save_target(path: &Path) -> PathBuf {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if !is_link {
        return path.to_path_buf();
    }
    if let Ok(real) = std::fs::canonicalize(path) {
        return real;
    }
    match std::fs::read_link(path) {
        Ok(target) if target.is_absolute() => target,
        Ok(target) => path
            .parent()
            .map_or_else(|| target.clone(), |dir| dir.join(&target)),
        Err(_) => path.to_path_buf(),
    }
}

/// Removes temporary files of our own pattern (`.racksmith-*.tmp`) older than [`STALE_TEMP_AGE`] from a folder:
/// what a save killed before its rename leaves behind. Errors are ignored: this is tidying, not saving.
pub fn remove_stale_temp_files(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !(name.starts_with(".racksmith-") && name.ends_with(".tmp")) {
            continue;
        }
        let old = entry
            .metadata()
            .ok()
            .filter(std::fs::Metadata::is_file)
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > STALE_TEMP_AGE);
        if old && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Writes bytes to `path` atomically: a temporary file in the same folder, flushed, then renamed over the target,
/// and the folder synced so that the rename itself survives a power cut. A crash leaves either the old file or the
/// new one, never half of one. A symlink is written through to its target; a read-only target is refused.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), SaveError> {
    write_atomic_with(path, bytes, WriteOptions::default())
}

/// [`write_atomic`] with options.
pub fn write_atomic_with(
    path: &Path,
    bytes: &[u8],
    options: WriteOptions,
) -> Result<(), SaveError> {
    use std::io::Write as _;
    let target = save_target(path);
    let io_err = |source| SaveError::Io {
        path: target.clone(),
        source,
    };
    let existing = std::fs::metadata(&target).ok();
    if let Some(m) = &existing {
        if !m.is_file() {
            return Err(io_err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "not a regular file",
            )));
        }
        if m.permissions().readonly() && !options.replace_read_only {
            return Err(SaveError::ReadOnly {
                path: target.clone(),
            });
        }
    }
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    remove_stale_temp_files(&dir);
    let mut tmp = tempfile::Builder::new()
        .prefix(".racksmith-")
        .suffix(".tmp")
        .tempfile_in(&dir)
        .map_err(io_err)?;
    tmp.write_all(bytes).map_err(io_err)?;
    tmp.as_file().sync_all().map_err(io_err)?;
    // Keep the permissions of the file being replaced (made writable if the user chose to replace a read-only
    // file); a new file gets the usual rw-r--r--.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let perms = existing.map_or_else(
            || std::fs::Permissions::from_mode(0o644),
            |m| {
                let mut p = m.permissions();
                if options.replace_read_only {
                    p.set_mode(p.mode() | 0o200);
                }
                p
            },
        );
        tmp.as_file().set_permissions(perms).map_err(io_err)?;
    }
    tmp.persist(&target).map_err(|e| io_err(e.error))?;
    #[cfg(unix)]
    {
        // The rename is only durable once the folder's entry is on disk.
        std::fs::File::open(&dir)
            .and_then(|d| d.sync_all())
            .map_err(io_err)?;
    }
    Ok(())
}

/// Saves a design atomically.
pub fn save(design: &Design, path: &Path) -> Result<(), SaveError> {
    let text = design_to_string(design)?;
    write_atomic(path, text.as_bytes())
}
