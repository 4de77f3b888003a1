//! The rules for the text a design carries (docs/limits.md, "Names and text"), checked when a file is loaded: a
//! design may come from anyone, and its names reach HTML, SVG, CSV, Slurm files, the terminal and the window.
//!
//! - A *name* (design, site, region, part id, part name and vendor, rack, device, port, scenario, PCIe switch and
//!   slot, source key) is one line of at most [`MAX_NAME_CHARS`] characters without control characters (NUL, ESC,
//!   CR, LF, tab, DEL, the C1 range), bidirectional embeddings, overrides and isolates, zero-width characters or the
//!   byte-order mark ([`crate::model::text::is_unsafe_in_name`]).
//! - A *text* (notes, figure sources) may hold line feeds and tabs but nothing else of the above, and at most
//!   [`MAX_TEXT_CHARS`] characters.
//!
//! Every output still escapes what it writes (`export::escape`); these rules keep a file's names readable, make the
//! same name look the same everywhere, and bound what a name can cost.

use crate::model::Design;
use crate::model::part::{Part, PartKind};
use crate::model::text::{describe_char, is_unsafe_in_name, terminal};

/// Longest name, in characters: far above any host, rack or part name, and small enough that no output that repeats
/// names grows beyond a constant times the file.
pub const MAX_NAME_CHARS: usize = 256;
/// Longest note or source text, in characters.
pub const MAX_TEXT_CHARS: usize = 65_536;

/// Why `name` is not a valid name, if it is not.
pub fn name_problem(name: &str) -> Option<String> {
    if let Some(c) = name.chars().find(|&c| is_unsafe_in_name(c)) {
        return Some(format!(
            "\"{}\" contains {}, which a name may not hold (control, bidirectional and invisible characters are \
             refused; docs/limits.md)",
            shorten(name),
            describe_char(c)
        ));
    }
    let n = name.chars().count();
    (n > MAX_NAME_CHARS).then(|| {
        format!(
            "\"{}\" is {n} characters long; a name holds at most {MAX_NAME_CHARS}",
            shorten(name)
        )
    })
}

/// Why `text` is not a valid note or source, if it is not: line feeds and tabs are allowed.
pub fn text_problem(text: &str) -> Option<String> {
    if let Some(c) = text
        .chars()
        .find(|&c| c != '\n' && c != '\t' && is_unsafe_in_name(c))
    {
        return Some(format!(
            "the text \"{}\" contains {}, which notes and sources may not hold (docs/limits.md)",
            shorten(text),
            describe_char(c)
        ));
    }
    let n = text.chars().count();
    (n > MAX_TEXT_CHARS).then(|| {
        format!(
            "the text \"{}\" is {n} characters long; notes and sources hold at most {MAX_TEXT_CHARS}",
            shorten(text)
        )
    })
}

/// The first characters of a name for a message, shown safely for a terminal.
fn shorten(text: &str) -> String {
    const SHOWN: usize = 40;
    let head: String = text.chars().take(SHOWN).collect();
    let more = if text.chars().nth(SHOWN).is_some() {
        "…"
    } else {
        ""
    };
    format!("{}{more}", terminal(&head))
}

/// One name or text that breaks the rules.
#[derive(Debug, Clone, PartialEq)]
pub struct NameProblem {
    /// Where it sits, as a path through the file: `devices.7.name`, `parts."x".vendor`.
    pub field: String,
    /// The part id, when it belongs to a part.
    pub part: Option<String>,
    /// The key it is written under in the file (`name`, `notes`; `key` for a map key).
    pub key: String,
    /// What is wrong, starting with the field.
    pub message: String,
}

/// Collects the problems of one design's names and texts.
struct Names<'a> {
    problems: &'a mut Vec<NameProblem>,
}

impl Names<'_> {
    fn push(&mut self, field: String, part: Option<&str>, name: &str, message: String) {
        self.problems.push(NameProblem {
            message: format!("{field}: {message}"),
            field,
            part: part.map(str::to_string),
            key: name.to_string(),
        });
    }
    /// Checks a name; `field` is only formatted for a problem.
    fn name(&mut self, field: impl FnOnce() -> String, part: Option<&str>, key: &str, value: &str) {
        if let Some(m) = name_problem(value) {
            self.push(field(), part, key, m);
        }
    }
    fn text(&mut self, field: impl FnOnce() -> String, part: Option<&str>, key: &str, value: &str) {
        if let Some(m) = text_problem(value) {
            self.push(field(), part, key, m);
        }
    }
}

/// Checks the names and texts of one part (a design's copy or a parts file's entry).
pub fn check_part(id: &str, part: &Part, problems: &mut Vec<NameProblem>) {
    part_names(&mut Names { problems }, id, part);
}

fn part_names(c: &mut Names<'_>, pid: &str, part: &Part) {
    let at = |f: &str| format!("parts.\"{}\".{f}", terminal(pid));
    c.name(|| "parts".into(), None, "key", pid);
    c.name(|| at("name"), Some(pid), "name", &part.name);
    c.name(|| at("vendor"), Some(pid), "vendor", &part.vendor);
    if let Some(n) = &part.part_number {
        c.name(|| at("part_number"), Some(pid), "part_number", n);
    }
    for (k, v) in &part.sources {
        c.name(|| at("sources"), Some(pid), "sources", k);
        c.text(|| at("sources"), Some(pid), "sources", v);
    }
    for (k, o) in &part.overrides {
        c.name(|| at("overrides"), Some(pid), "overrides", k);
        if let Some(s) = &o.catalog_source {
            c.text(|| at("overrides"), Some(pid), "catalog_source", s);
        }
    }
    if let PartKind::Server(s) = &part.kind {
        for sw in &s.pcie_switches {
            c.name(|| at("pcie_switches"), Some(pid), "name", &sw.name);
            c.name(|| at("pcie_switches"), Some(pid), "parent", &sw.parent);
        }
        for slot in &s.gpu_slots {
            c.name(|| at("gpu_slots"), Some(pid), "parent", &slot.slot.parent);
        }
        for slot in &s.nic_slots {
            c.name(|| at("nic_slots"), Some(pid), "parent", &slot.slot.parent);
        }
    }
}

/// Checks every name and text in a design, appending a problem for each that breaks the rules.
pub fn check(design: &Design, problems: &mut Vec<NameProblem>) {
    let mut c = Names { problems };
    c.name(|| "name".into(), None, "name", &design.name);
    c.text(|| "notes".into(), None, "notes", &design.notes);
    for (key, site) in &design.sites {
        c.name(|| "sites".into(), None, "key", key);
        c.name(
            || format!("sites.\"{}\".region", terminal(key)),
            None,
            "region",
            &site.region,
        );
        c.text(
            || format!("sites.\"{}\".notes", terminal(key)),
            None,
            "notes",
            &site.notes,
        );
    }
    for (id, part) in &design.parts {
        part_names(&mut c, id.as_str(), part);
    }
    for (id, rack) in &design.racks {
        let at = |f: &str| format!("racks.{}.{f}", id.0);
        c.name(|| at("name"), None, "name", &rack.name);
        c.text(|| at("notes"), None, "notes", &rack.notes);
        if !rack.site.is_empty() {
            c.name(|| at("site"), None, "site", &rack.site);
        }
    }
    for (id, device) in &design.devices {
        let at = |f: &str| format!("devices.{}.{f}", id.0);
        c.name(|| at("name"), None, "name", &device.name);
        c.text(|| at("notes"), None, "notes", &device.notes);
    }
    for (id, link) in &design.links {
        let at = |f: &str| format!("links.{}.{f}", id.0);
        c.name(|| at("a"), None, "port", &link.a.port);
        c.name(|| at("b"), None, "port", &link.b.port);
        c.text(|| at("notes"), None, "notes", &link.notes);
    }
    for (i, s) in design.scenarios.iter().enumerate() {
        c.name(|| format!("scenarios[{i}].name"), None, "name", &s.name);
    }
}

impl NameProblem {
    /// Whether the problem is about a character (rather than a length): such a problem can be placed by
    /// [`locate_unsafe`] when its field cannot be found by key.
    pub fn is_character_problem(message: &str) -> bool {
        message.contains("may not hold")
    }
}

/// Where the first character a name may not hold sits in `text`, 1-based line and column: either written as it is
/// or as a RON escape (`\u{202e}`, `\x1b`, `\0`, `\r`); line feeds and tabs count only as escapes, since they are the
/// file's own white space. The fallback when a problem's field cannot be found by its key (a bad part id or site key).
pub fn locate_unsafe(text: &str) -> Option<(usize, usize)> {
    line_column(text, find_unsafe(text)?)
}

/// The byte offset [`locate_unsafe`] places.
pub fn find_unsafe(text: &str) -> Option<usize> {
    let raw = text
        .char_indices()
        .find(|&(_, c)| c != '\n' && c != '\t' && c != '\r' && is_unsafe_in_name(c))
        .map(|(i, _)| i);
    let escaped = find_unsafe_escape(text);
    let at = match (raw, escaped) {
        (Some(a), Some(b)) => a.min(b),
        (a, b) => a.or(b)?,
    };
    Some(at)
}

/// The 1-based line and column (in characters) of byte offset `at` in `text`: where every placed message of a
/// file points.
pub fn line_column(text: &str, at: usize) -> Option<(usize, usize)> {
    let before = text.get(..at)?;
    let line = before.matches('\n').count() + 1;
    let column = before
        .get(before.rfind('\n').map_or(0, |i| i + 1)..)?
        .chars()
        .count()
        + 1;
    Some((line, column))
}

/// The byte offset of the first RON string escape that stands for an unsafe character.
fn find_unsafe_escape(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(off) = text.get(i..)?.find('\\') {
        let at = i + off;
        let next = bytes.get(at + 1).copied();
        let decoded = match next {
            Some(b'0') => Some('\0'),
            Some(b'r') => Some('\r'),
            Some(b'n') => Some('\n'),
            Some(b't') => Some('\t'),
            Some(b'x') => text
                .get(at + 2..at + 4)
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .and_then(char::from_u32),
            Some(b'u') => text
                .get(at + 2..)
                .filter(|r| r.starts_with('{'))
                .and_then(|r| r.get(1..r.find('}')?))
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .and_then(char::from_u32),
            _ => None,
        };
        // Line feeds and tabs are allowed in notes: an escaped one is only reported when nothing else is found, by
        // the caller's structural look-up. Here only characters no text may hold count.
        if decoded.is_some_and(|c| c != '\n' && c != '\t' && is_unsafe_in_name(c)) {
            return Some(at);
        }
        i = at + if next == Some(b'\\') { 2 } else { 1 };
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_texts() {
        assert!(name_problem("dgx-h100-01").is_none());
        assert!(name_problem("Rack Zürich 中").is_none());
        let m = name_problem("node-08\nSwitchName=evil").unwrap();
        assert!(m.contains("U+000A"), "{m}");
        assert!(name_problem("a\u{202e}b").unwrap().contains("U+202E"));
        assert!(name_problem("a\u{200b}b").is_some());
        assert!(name_problem(&"x".repeat(256)).is_none());
        assert!(
            name_problem(&"x".repeat(257))
                .unwrap()
                .contains("257 characters")
        );
        // Notes keep line feeds and tabs, never ESC.
        assert!(text_problem("line 1\n\tline 2").is_none());
        assert!(text_problem("a\u{1b}[2J").is_some());
        assert!(text_problem("a\rb").is_some());
    }

    #[test]
    fn unsafe_characters_are_located_raw_or_escaped() {
        // Line 2, column 9 (characters, not bytes: the é is one).
        assert_eq!(
            locate_unsafe("(\n  name: \"é\u{202e}x\",\n)"),
            Some((2, 11))
        );
        assert_eq!(
            locate_unsafe("(\n  notes: \"a\\nb\",\n  name: \"a\\u{1b}b\",\n)"),
            Some((3, 11))
        );
        assert_eq!(locate_unsafe("(\n  name: \"a\\\\u{1b}\",\n)"), None);
        assert_eq!(locate_unsafe("(\r\n\tname: \"plain\",\r\n)"), None);
    }
}
