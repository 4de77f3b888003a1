//! Reading a NetBox device type file without trusting it: its size, the nesting of its flow collections and the
//! nodes its anchors and aliases expand to are bounded before the YAML is parsed into a [`DeviceType`].

use super::{DeviceType, ImportError};
use std::path::Path;

/// Largest device type file read: the library's largest are about 100 KB.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// Deepest nesting of YAML flow collections (`[`, `{`) read: a device type nests two or three; a parser given
/// 100,000 levels takes time that grows with their square.
pub const MAX_NESTING: usize = 64;

/// Nodes a device type file may expand to through its anchors and aliases: this many per byte of the file, plus
/// [`EXPANSION_BASE`]. A node takes at least two bytes written out, so a file without aliases holds at most half a
/// node per byte: the budget is at least eight times what the file itself holds. A 1.3 MB file whose aliases
/// expand to a hundred gigabytes is refused within a fraction of a second instead of filling memory.
pub const EXPANSION_PER_BYTE: u64 = 4;
/// Nodes any device type file may expand to whatever its size (see [`EXPANSION_PER_BYTE`]).
pub const EXPANSION_BASE: u64 = 100_000;

/// Counts the nodes of a YAML document as the parser expands its aliases, without building them, and fails as
/// soon as `left` runs out; the parser's error then carries the line and column where the budget ran out.
struct CountNodes<'a>(&'a std::cell::Cell<u64>);

impl CountNodes<'_> {
    fn tick<E: serde::de::Error>(&self) -> Result<(), E> {
        let left = self.0.get();
        if left == 0 {
            return Err(E::custom(
                "anchors and aliases expand the file past its budget (docs/limits.md, \"YAML\")",
            ));
        }
        self.0.set(left - 1);
        Ok(())
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for CountNodes<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for CountNodes<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any YAML node")
    }
    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<(), E> {
        self.tick()
    }
    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<(), E> {
        self.tick()
    }
    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<(), E> {
        self.tick()
    }
    fn visit_i128<E: serde::de::Error>(self, _: i128) -> Result<(), E> {
        self.tick()
    }
    fn visit_u128<E: serde::de::Error>(self, _: u128) -> Result<(), E> {
        self.tick()
    }
    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<(), E> {
        self.tick()
    }
    fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<(), E> {
        self.tick()
    }
    fn visit_bytes<E: serde::de::Error>(self, _: &[u8]) -> Result<(), E> {
        self.tick()
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        self.tick()
    }
    fn visit_none<E: serde::de::Error>(self) -> Result<(), E> {
        self.tick()
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        self.tick()?;
        serde::de::DeserializeSeed::deserialize(CountNodes(self.0), d)
    }
    fn visit_newtype_struct<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        self.tick()?;
        serde::de::DeserializeSeed::deserialize(CountNodes(self.0), d)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.tick()?;
        while seq.next_element_seed(CountNodes(self.0))?.is_some() {}
        Ok(())
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.tick()?;
        while map.next_key_seed(CountNodes(self.0))?.is_some() {
            map.next_value_seed(CountNodes(self.0))?;
        }
        Ok(())
    }
    fn visit_enum<A: serde::de::EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
        // A tagged node (`!tag value`): the tag, then its value.
        use serde::de::VariantAccess;
        self.tick()?;
        let ((), value) = data.variant_seed(CountNodes(self.0))?;
        value.newtype_variant_seed(CountNodes(self.0))
    }
}

/// Refuses YAML text whose aliases expand it past [`EXPANSION_PER_BYTE`] nodes per byte plus [`EXPANSION_BASE`],
/// before anything is built from it: memory stays in proportion to the file (the parser's events), and time to the
/// budget. The message names the line and column where the budget ran out.
fn check_expansion(text: &str) -> Result<(), String> {
    use serde::de::DeserializeSeed;
    let budget = (text.len() as u64)
        .saturating_mul(EXPANSION_PER_BYTE)
        .saturating_add(EXPANSION_BASE);
    let left = std::cell::Cell::new(budget);
    match CountNodes(&left).deserialize(serde_norway::Deserializer::from_str(text)) {
        Ok(()) => Ok(()),
        Err(e) if left.get() == 0 => Err(format!(
            "{e}: the file expands to more than {budget} YAML nodes ({EXPANSION_PER_BYTE} per byte of its {} bytes \
             plus {EXPANSION_BASE}); a device type has no need of that",
            text.len()
        )),
        // The YAML reader's own limit on aliases followed (100 per event of the file): said as the budget is.
        Err(e) if e.to_string().contains("repetition limit exceeded") => Err(format!(
            "{e}: the file's aliases are followed more than 100 times per node it holds; a device type has no need \
             of that"
        )),
        // Any other error is the parser's own, reported when the file is parsed below.
        Err(_) => Ok(()),
    }
}

/// The line at which flow collections (`[`, `{`) nest deeper than `max`, if they do. Quoted text and comments are
/// skipped; this is a guard run before the YAML parser, not a parser.
pub(super) fn flow_depth_over(text: &str, max: usize) -> Option<usize> {
    let (mut depth, mut line) = (0usize, 1usize);
    let mut quote: Option<char> = None;
    let mut comment = false;
    let mut prev = ' ';
    for c in text.chars() {
        if c == '\n' {
            line += 1;
            comment = false;
        } else if comment {
            // The rest of the line is a comment.
        } else if let Some(q) = quote {
            if c == q {
                quote = None;
            }
        } else {
            match c {
                '\'' | '"' => quote = Some(c),
                '#' if prev.is_whitespace() => comment = true,
                '[' | '{' => {
                    depth += 1;
                    if depth > max {
                        return Some(line);
                    }
                }
                ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        prev = c;
    }
    None
}

/// Reads and parses one device type file, refusing what is not a device type (a module type, an empty file, a
/// device type without a model) before any figure is read.
pub(super) fn read_device_type(path: &Path, shown: &str) -> Result<DeviceType, ImportError> {
    // Checked before a byte is read (a FIFO, a device, a sparse file of gigabytes), like every file a command reads.
    let text = crate::io::read_checked_text(path, MAX_FILE_BYTES, "a NetBox device type").map_err(
        |e| match e {
            crate::io::LoadError::Io { source, .. } => ImportError::Io {
                path: shown.to_string(),
                source,
            },
            other => ImportError::Parse {
                path: shown.to_string(),
                message: other.to_string(),
            },
        },
    )?;
    if let Some(depth) = flow_depth_over(&text, MAX_NESTING) {
        return Err(ImportError::Parse {
            path: shown.to_string(),
            message: format!(
                "line {depth}: brackets nested deeper than {MAX_NESTING} levels; a device type nests a few"
            ),
        });
    }
    let refuse = |reason: String| ImportError::Refused {
        path: shown.to_string(),
        reason,
    };
    check_expansion(&text).map_err(|message| ImportError::Parse {
        path: shown.to_string(),
        message,
    })?;
    let value: serde_norway::Value =
        serde_norway::from_str(&text).map_err(|e| ImportError::Parse {
            path: shown.to_string(),
            message: e.to_string(),
        })?;
    let Some(map) = value.as_mapping() else {
        return Err(if value.is_null() {
            refuse("the file is empty".into())
        } else {
            refuse("the file is not a YAML mapping of device type fields".into())
        });
    };
    let has = |k: &str| map.contains_key(serde_norway::Value::from(k));
    if !has("u_height") && !has("slug") {
        return Err(refuse(
            "a NetBox module type (a card, PSU or module that goes in a device's bay: no slug, no u_height), not a \
             device type; Racksmith imports device types"
                .into(),
        ));
    }
    let dt: DeviceType = serde_norway::from_value(value).map_err(|e| ImportError::Parse {
        path: shown.to_string(),
        message: e.to_string(),
    })?;
    if dt.model.trim().is_empty() {
        return Err(refuse("the device type has no model".into()));
    }
    Ok(dt)
}
