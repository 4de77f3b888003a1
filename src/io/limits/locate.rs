//! Where a figure problem is written in a design's text (line and column), and the problems as the text shows
//! them.

use super::FigureProblem;
use std::collections::HashMap;
use std::fmt::Write as _;

/// Where scenario `i`'s entry starts in the design text: its `name:`, the `i`-th one after `scenarios:`.
fn scenario_start(text: &str, field: &str) -> Option<usize> {
    let index: usize = field
        .strip_prefix("scenarios[")?
        .split(']')
        .next()?
        .parse()
        .ok()?;
    let list = text.find("scenarios:")?;
    let mut at = list;
    for _ in 0..=index {
        at += text.get(at..)?.find("name:")? + 1;
    }
    Some(at - 1)
}

/// Where a figure is written in the design text, 1-based line and column, when it can be found: for a part's
/// figure, the first `name:` after the part's key; for a parameter, the first `name:` after `params:`.
pub fn locate(text: &str, problem: &FigureProblem) -> Option<(usize, usize)> {
    let at = locate_at(text, problem, &mut EntryIndex::new(text))?;
    crate::io::names::line_column(text, at)
}

/// The byte offset where [`locate`] places a problem, with the entries found through `index`.
fn locate_at(text: &str, problem: &FigureProblem, index: &mut EntryIndex<'_>) -> Option<usize> {
    let start = match &problem.part {
        Some(id) => index.part(id)?,
        None if problem.field.starts_with("params.") => text.find("params:")?,
        None if problem.field.starts_with("floor.") => text.find("floor:")?,
        None if problem.field.starts_with("scenarios[") => scenario_start(text, &problem.field)?,
        // A top-level field (`name`, `notes`): its first key in the file. A bad map key (`sites`, `parts`) is found
        // by its character instead, in `describe`.
        None if !problem.field.contains('.') => {
            if problem.field != problem.name {
                return None;
            }
            0
        }
        None => {
            // `sites."east".availability`, `racks.5.cooling`: the section, then the entry's key in it.
            let (section, rest) = problem.field.split_once('.')?;
            if let Some(quoted) = rest.strip_prefix('"') {
                let key = format!("\"{}\":", quoted.split_once('"')?.0);
                let at = text.find(&format!("{section}:"))?;
                at + find_key(text.get(at..)?, &key)?
            } else {
                let id: u64 = rest.split_once('.')?.0.parse().ok()?;
                index.entry(section, id)?
            }
        }
    };
    let needle = format!("{}:", problem.name);
    Some(start + text.get(start..)?.find(&needle)?)
}

/// Where entries start in a design's text, each section scanned once when first asked about: placing thousands of
/// problems costs one pass over the text, not one per problem (16,000 bad port references in a 4 MB file took 19 s
/// to place one by one).
pub struct EntryIndex<'a> {
    text: &'a str,
    /// Per section (`links`, `devices`, `racks`): each id's first key after the section's name, as [`find_key`]
    /// finds it.
    sections: HashMap<String, HashMap<u64, usize>>,
    /// Part keys already looked up (a design's problems name a few parts, each many times).
    parts: HashMap<String, Option<usize>>,
}

impl<'a> EntryIndex<'a> {
    /// An index of `text`, empty until asked.
    pub fn new(text: &'a str) -> Self {
        Self {
            text,
            sections: HashMap::new(),
            parts: HashMap::new(),
        }
    }

    /// Where entry `id` of `section` starts, as [`locate_entry`] finds it.
    pub fn entry(&mut self, section: &str, id: u64) -> Option<usize> {
        let text = self.text;
        self.sections
            .entry(section.to_string())
            .or_insert_with(|| Self::scan(text, section))
            .get(&id)
            .copied()
    }

    /// Where part `id`'s key is, after `parts:`.
    fn part(&mut self, id: &str) -> Option<usize> {
        let text = self.text;
        *self.parts.entry(id.to_string()).or_insert_with(|| {
            let key = format!("\"{id}\":");
            let parts = text.find("parts:")?;
            Some(parts + text.get(parts..)?.find(&key)?)
        })
    }

    /// Every `ID:` key after `section:`, first occurrence of each: digits that follow whitespace, `{` or `,` (or
    /// the section's name) and are followed by `:`, written as the id writes itself (no leading zero).
    fn scan(text: &str, section: &str) -> HashMap<u64, usize> {
        let mut map = HashMap::new();
        let Some(from) = text.find(&format!("{section}:")) else {
            return map;
        };
        let Some(rest) = text.get(from..) else {
            return map;
        };
        let bytes = rest.as_bytes();
        let mut prev: Option<char> = None;
        let mut it = rest.char_indices().peekable();
        while let Some((i, c)) = it.next() {
            if c.is_ascii_digit() && prev.is_none_or(|p| p.is_whitespace() || p == '{' || p == ',')
            {
                let mut end = i;
                while bytes.get(end).is_some_and(u8::is_ascii_digit) {
                    end += 1;
                }
                if bytes.get(end) == Some(&b':')
                    && let Some(digits) = rest.get(i..end)
                    && let Ok(id) = digits.parse::<u64>()
                    && id.to_string() == digits
                {
                    map.entry(id).or_insert(from + i);
                }
                // Skip the rest of the run: no key starts inside it.
                while it.peek().is_some_and(|(j, _)| *j < end) {
                    it.next();
                }
                prev = rest.get(..end).and_then(|t| t.chars().next_back());
                continue;
            }
            prev = Some(c);
        }
        map
    }
}

/// Line and column (1-based, columns in characters) of each byte offset, in one pass over the text however many
/// there are.
pub fn line_columns(text: &str, offsets: &[usize]) -> Vec<Option<(usize, usize)>> {
    let mut order: Vec<usize> = (0..offsets.len()).collect();
    order.sort_by_key(|&i| offsets.get(i).copied().unwrap_or(usize::MAX));
    let mut out = vec![None; offsets.len()];
    let (mut line, mut column, mut at) = (1usize, 1usize, 0usize);
    let mut chars = text.char_indices().peekable();
    for i in order {
        let Some(&want) = offsets.get(i) else {
            continue;
        };
        if want > text.len() || !text.is_char_boundary(want) {
            continue;
        }
        while at < want {
            let Some((_, c)) = chars.next() else {
                break;
            };
            at += c.len_utf8();
            if c == '\n' {
                line += 1;
                column = 1;
            } else {
                column += 1;
            }
        }
        if let Some(slot) = out.get_mut(i) {
            *slot = Some((line, column));
        }
    }
    out
}

/// Where the entry `id` of a section (`racks`, `devices`, `links`) starts in a design's text, 1-based line and
/// column: for placing the problems validation finds (a cable to a missing port, two devices in one unit). To place
/// many, use [`EntryIndex`] and [`line_columns`].
pub fn locate_entry(text: &str, section: &str, id: u64) -> Option<(usize, usize)> {
    let at = EntryIndex::new(text).entry(section, id)?;
    crate::io::names::line_column(text, at)
}

/// The first place `key` starts a map entry in `text`: at the start or after whitespace, `{` or `,` (so `1:` does
/// not match inside `11:`).
fn find_key(text: &str, key: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text.get(from..)?.find(key) {
        let at = from + i;
        let before = text.get(..at)?.chars().next_back();
        if before.is_none_or(|c| c.is_whitespace() || c == '{' || c == ',') {
            return Some(at);
        }
        from = at + key.len();
    }
    None
}

/// The problems as lines, each with its line and column where known. One pass over the text places them all.
pub fn describe(text: &str, problems: &[FigureProblem]) -> Vec<String> {
    let mut index = EntryIndex::new(text);
    let mut unsafe_at: Option<Option<usize>> = None;
    let offsets: Vec<usize> = problems
        .iter()
        .map(|p| {
            locate_at(text, p, &mut index)
                .or_else(|| {
                    if !crate::io::names::NameProblem::is_character_problem(&p.message) {
                        return None;
                    }
                    *unsafe_at.get_or_insert_with(|| crate::io::names::find_unsafe(text))
                })
                .unwrap_or(usize::MAX)
        })
        .collect();
    let places = line_columns(text, &offsets);
    problems
        .iter()
        .zip(places)
        .map(|(p, at)| {
            let mut s = String::new();
            if let Some((line, col)) = at {
                let _ = write!(s, "line {line}, column {col}: ");
            }
            s.push_str(&p.message);
            s
        })
        .collect()
}
