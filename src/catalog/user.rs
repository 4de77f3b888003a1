//! The user catalog: parts a user added, duplicated, edited or imported, kept in `user-catalog.ron` in the
//! platform's configuration folder and merged over the built-in catalog (a user part with a built-in part's id
//! replaces it). Designs copy the specs of the parts they use, so a design never depends on this file.
//!
//! The core takes the file's path as a parameter; [`default_path`] says where the app keeps it.

use super::{Catalog, Part};
use crate::io::{LoadError, SaveError};
use crate::model::PartId;
use std::path::{Path, PathBuf};

/// File name of the user catalog inside the configuration folder.
pub const FILE_NAME: &str = "user-catalog.ron";

/// The platform's configuration folder for Racksmith: `$XDG_CONFIG_HOME/racksmith` (else `~/.config/racksmith`)
/// on Linux and BSD, `~/Library/Application Support/Racksmith` on macOS, `%APPDATA%\Racksmith` on Windows. None
/// when the platform gives no home folder.
pub fn config_dir() -> Option<PathBuf> {
    let absolute = |v: std::ffi::OsString| Some(PathBuf::from(v)).filter(|p| p.is_absolute());
    if cfg!(target_os = "windows") {
        std::env::var_os("APPDATA")
            .and_then(absolute)
            .map(|p| p.join("Racksmith"))
    } else if cfg!(target_os = "macos") {
        std::env::home_dir().map(|h| h.join("Library/Application Support/Racksmith"))
    } else {
        std::env::var_os("XDG_CONFIG_HOME")
            .and_then(absolute)
            .or_else(|| std::env::home_dir().map(|h| h.join(".config")))
            .map(|p| p.join("racksmith"))
    }
}

/// Where the app keeps the user catalog: [`FILE_NAME`] in [`config_dir`].
pub fn default_path() -> Option<PathBuf> {
    config_dir().map(|d| d.join(FILE_NAME))
}

/// Largest parts file read: a catalog of thousands of parts is a few megabytes.
pub const MAX_PARTS_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a user catalog. A file that does not exist yet is an empty catalog; a file that does not parse, or holds a
/// figure outside its documented range (as a design file would be refused for), is an error naming the file, line
/// and column (the app then keeps the file as it is and does not write over it).
pub fn load(path: &Path) -> Result<Catalog, LoadError> {
    if !path.exists() && std::fs::symlink_metadata(path).is_err() {
        return Ok(Catalog::default());
    }
    let text = crate::io::read_checked_text(path, MAX_PARTS_FILE_BYTES, "a parts file")?;
    let catalog: Catalog = crate::io::parse_ron(&text, path)?;
    let mut figures = Vec::new();
    let builtin = Catalog::builtin()?;
    for (id, part) in &catalog.parts {
        crate::io::limits::check_part_all(id.as_str(), part, &mut figures);
        figures.extend(redefined_kind(id, part, &builtin));
    }
    if figures.is_empty() {
        return Ok(catalog);
    }
    Err(LoadError::InvalidParts {
        path: path.to_path_buf(),
        problems: crate::io::limits::describe(&text, &figures)
            .into_iter()
            .map(|message| crate::io::Problem {
                message,
                rack: None,
                device: None,
                link: None,
            })
            .collect(),
    })
}

/// A user part that takes a built-in part's id must stay a part of that kind: a GPU id redefined as a cable would
/// put a cable in every design that asks for that GPU (and the design would not load). Overriding a built-in
/// part's figures with a part of its own kind is allowed and shown as an override ([`Origin::EditedBuiltIn`],
/// and on the command line by [`overridden`]).
pub fn redefined_kind(
    id: &PartId,
    part: &Part,
    builtin: &Catalog,
) -> Option<crate::io::limits::FigureProblem> {
    let b = builtin.parts.get(id)?;
    if std::mem::discriminant(&b.kind) == std::mem::discriminant(&part.kind) {
        return None;
    }
    let field = format!("parts.\"{id}\".kind");
    Some(crate::io::limits::FigureProblem {
        message: format!(
            "{field}: \"{id}\" is the built-in {} part \"{}\"; a part that overrides it must be a {} too (this one \
             is a {}): give it an id of its own",
            kind_name(&b.kind),
            b.name,
            kind_name(&b.kind),
            kind_name(&part.kind)
        ),
        field,
        part: Some(id.as_str().to_string()),
        name: "kind".into(),
    })
}

/// The kind of a part as messages name it.
fn kind_name(kind: &super::PartKind) -> &'static str {
    use super::PartKind as K;
    match kind {
        K::Gpu(_) => "GPU",
        K::Server(_) => "server",
        K::Nic(_) => "NIC",
        K::Switch(_) => "switch",
        K::Storage(_) => "storage",
        K::Rack(_) => "rack",
        K::Cable(_) => "cable",
        K::Transceiver(_) => "transceiver",
        K::Pdu(_) => "PDU",
        K::Cdu(_) => "CDU",
        K::PatchPanel(_) => "patch panel",
    }
}

/// The ids of built-in parts the user catalog overrides (same kind, its own figures), sorted.
pub fn overridden<'a>(builtin: &Catalog, user: &'a Catalog) -> Vec<&'a PartId> {
    user.parts
        .keys()
        .filter(|id| builtin.parts.contains_key(*id))
        .collect()
}

/// The user catalog as RON text: a header comment, then the parts by id (stable order, diff-friendly).
pub fn to_string(user: &Catalog) -> Result<String, SaveError> {
    let config = ron::ser::PrettyConfig::new()
        .depth_limit(4)
        .new_line("\n".to_string())
        .indentor("    ".to_string());
    let body = ron::ser::to_string_pretty(user, config)
        .map_err(|e| SaveError::Serialize(e.to_string()))?;
    Ok(format!(
        "// Racksmith user catalog: parts added, edited or imported in the app (Catalog > Parts catalog).\n\
         // A part with a built-in part's id replaces it. Every figure should name its source in `sources`;\n\
         // a figure without one is reported as an estimate.\n{body}\n"
    ))
}

/// Writes a user catalog atomically, creating its folder when needed.
pub fn save(path: &Path, user: &Catalog) -> Result<(), SaveError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| SaveError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    let text = to_string(user)?;
    crate::io::write_atomic(path, text.as_bytes())
}

/// The catalog the app offers: the built-in parts with the user's parts over them.
pub fn merged(builtin: &Catalog, user: &Catalog) -> Catalog {
    let mut all = builtin.clone();
    for (id, p) in &user.parts {
        all.parts.insert(id.clone(), p.clone());
    }
    all
}

/// Where a part of the merged catalog comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Built in, unchanged.
    BuiltIn,
    /// Added by the user (new, duplicated or imported).
    User,
    /// A built-in part the user edited (the user catalog holds the edited copy).
    EditedBuiltIn,
}

impl Origin {
    /// Of a part id, given both catalogs.
    pub fn of(id: &PartId, builtin: &Catalog, user: &Catalog) -> Self {
        match (builtin.parts.contains_key(id), user.parts.contains_key(id)) {
            (true, true) => Origin::EditedBuiltIn,
            (false, true) => Origin::User,
            _ => Origin::BuiltIn,
        }
    }

    /// Short label for lists.
    pub fn label(self) -> &'static str {
        match self {
            Origin::BuiltIn => "built-in",
            Origin::User => "user",
            Origin::EditedBuiltIn => "edited built-in",
        }
    }
}

/// A part id not yet taken in `catalog`, from a base: `base`, then `base-2`, `base-3`, ...
pub fn free_id(catalog: &Catalog, base: &str) -> PartId {
    let base = if base.trim().is_empty() {
        "part"
    } else {
        base.trim()
    };
    let first = PartId::new(base);
    if !catalog.parts.contains_key(&first) {
        return first;
    }
    (2u32..)
        .map(|n| PartId::new(format!("{base}-{n}")))
        .find(|id| !catalog.parts.contains_key(id))
        .unwrap_or(first)
}

/// Checks a part before it goes in the user catalog: an id and a name, finite non-negative figures, a height a
/// rack can hold. Returns what is wrong, one sentence each (empty: fine).
pub fn check(id: &str, part: &Part) -> Vec<String> {
    let mut problems = Vec::new();
    if id.trim().is_empty() {
        problems.push("the part needs an id".to_string());
    } else if id.chars().any(|c| c.is_whitespace() || c == '"') {
        problems.push(format!(
            "id \"{id}\": use letters, digits and dashes (no spaces or quotes)"
        ));
    }
    if part.name.trim().is_empty() {
        problems.push("the part needs a name".to_string());
    }
    for f in super::figures::figures(part) {
        if !f.value.is_finite() || f.value < 0.0 {
            problems.push(format!("{} is {}: it must be 0 or more", f.path, f.value));
        }
    }
    // The ranges a design file is held to: a part outside them would make every design using it unloadable.
    let mut figures = Vec::new();
    crate::io::limits::check_part(id, part, &mut figures);
    problems.extend(figures.into_iter().map(|f| f.message));
    if part.height_u > 60 {
        problems.push(format!(
            "height {}U is taller than any rack (60U at most)",
            part.height_u
        ));
    }
    let needs_units = matches!(
        part.kind,
        super::PartKind::Server(_) | super::PartKind::Switch(_) | super::PartKind::Storage(_)
    );
    if needs_units && part.height_u == 0 {
        problems.push("a rack-mounted part needs a height of 1U or more".to_string());
    }
    problems
}
