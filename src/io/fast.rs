//! A fast path for the two sections that make up nearly all of a large design file, `devices` and `links`, in the
//! exact shape Racksmith writes them (one entry a line, `key: value` separated by `, `, strings without escapes).
//! The rest of the file goes through the RON parser as before. Anything else in those sections (a comment, an
//! escape, other spacing, an unknown or repeated field) makes the fast path give up, and the whole file is parsed by
//! RON, which then also reports any error with its line and column: the fast path never accepts what RON would
//! refuse, and gives the same design when it accepts (tested against RON on every sample and generated design, and
//! differentially on generated and mutated files: `fast::tests::differential_*`).
//!
//! A section header counts only where RON would read it as the design's own field: outside every string and
//! comment, one bracket deep. The lines around the sections are lexed as RON lexes them (strings with their
//! escapes, which may span lines; line comments); a block comment, a raw string, a character literal or a raw
//! identifier anywhere outside the sections' entries makes the fast path give up, as Racksmith never writes them.

use crate::model::{Design, Device, DeviceId, Link, LinkId, Medium, PartId, PortRef, RackId};
use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;

/// The design in `text`, or None when the fast path does not apply (the caller parses with RON instead).
pub(super) fn parse(text: &str) -> Option<Design> {
    let mut r = Reader::default();
    for line in text.split_inclusive('\n') {
        r.line(line)?;
    }
    r.finish()
}

/// The design in `input`, read line by line so that the whole text is never held (at 235,000 cables a 33 MB block
/// that glibc maps fresh, and faults in page by page, on every load), or None when the fast path does not apply,
/// the input cannot be read or holds more than `limit` bytes: the caller then reads the file whole, parses it with
/// RON and reports any error. Takes the same lines as [`parse`], through the same reader.
pub(super) fn read(mut input: impl std::io::BufRead, limit: u64) -> Option<Design> {
    let mut r = Reader::default();
    let mut line = String::new();
    let mut total = 0u64;
    loop {
        line.clear();
        let n = input.read_line(&mut line).ok()?;
        if n == 0 {
            return r.finish();
        }
        total += n as u64;
        if total > limit {
            return None;
        }
        r.line(&line)?;
    }
}

/// The header line of the devices section, of the links section, and the line that closes either.
const DEVICES: &str = "    devices: {\n";
const LINKS: &str = "    links: {\n";
const CLOSE: &str = "    },\n";

/// Where the reader is in the file.
#[derive(Default, Clone, Copy, PartialEq, Eq)]
enum At {
    /// Before the devices section.
    #[default]
    Start,
    /// In the devices' entries.
    Devices,
    /// Between the devices section and the links section.
    Between,
    /// In the links' entries.
    Links,
    /// After the links section has closed: later lines go to RON with the other fields, and a second section header
    /// makes the fast path give up. A file that does not end here is left to RON.
    End,
}

/// The fast path's reader, fed one line at a time (each with its `\n`, the last one perhaps without). Each section
/// is its header line (never the file's first line) up to the first closing line; the entries between are read here
/// and cut out of the rest, which RON reads. The devices come first, each section once: a header anywhere else
/// (a second one, links before devices) makes the fast path give up.
#[derive(Default)]
struct Reader {
    /// The file less the sections' entries, for RON.
    rest: String,
    devices: Vec<(u64, Device)>,
    links: Vec<(u64, Link)>,
    /// Media read so far, by their text: a design uses a handful.
    media: HashMap<String, Medium>,
    at: At,
    /// RON's lexical state over the lines outside the sections' entries.
    lex: Lex,
    /// Whether a line has been read.
    started: bool,
}

impl Reader {
    /// Takes one line; None when the fast path does not apply.
    fn line(&mut self, line: &str) -> Option<()> {
        if line.contains('#') && line.contains("#!") {
            // RON extensions change how values read: leave such files to RON.
            return None;
        }
        let first = !std::mem::replace(&mut self.started, true);
        // Whether RON reads this line from its start as the design's own fields (not inside a string or a comment,
        // not inside a nested value).
        let top = self.lex.at_top();
        match self.at {
            At::Devices | At::Links if line == CLOSE => {
                self.at = if self.at == At::Devices {
                    At::Between
                } else {
                    At::End
                };
                self.lex.line(line)?;
                self.rest.push_str(line);
            }
            // An entry line the readers below take is whole: its strings close and its brackets balance on it.
            At::Devices => self.devices.push(device(entry(line)?)?),
            At::Links => self.links.push(link(entry(line)?, &mut self.media)?),
            at => {
                if !first && line == DEVICES {
                    (at == At::Start && top).then_some(())?;
                    self.at = At::Devices;
                } else if !first && line == LINKS {
                    (at == At::Between && top).then_some(())?;
                    self.at = At::Links;
                }
                self.lex.line(line)?;
                self.rest.push_str(line);
            }
        }
        Some(())
    }

    /// The design, once every line is in.
    fn finish(self) -> Option<Design> {
        if self.at != At::End {
            return None;
        }
        let mut design: Design = ron::Options::default().from_str(&self.rest).ok()?;
        if !design.devices.is_empty() || !design.links.is_empty() {
            return None;
        }
        // The vectors grow as they go: sizing them up front (one 90 MB block for 600,000 links) saved nothing under
        // glibc, which grows large blocks without copying, and raised a 512-SU `analyze` peak from 636 to 737 MB.
        design.devices = sorted_map(self.devices, DeviceId)?;
        design.links = sorted_map(self.links, LinkId)?;
        Some(design)
    }
}

/// RON's lexical state at a line's start, as far as the fast path needs it: inside a string or not, and how many
/// brackets are open.
#[derive(Default)]
struct Lex {
    in_string: bool,
    depth: usize,
}

impl Lex {
    /// Whether the next line starts among the design's own fields: in code, inside the design's parenthesis only.
    fn at_top(&self) -> bool {
        !self.in_string && self.depth == 1
    }

    /// Lexes one line as RON does; None on what the fast path leaves to RON: a block comment (RON nests them), a
    /// raw string or raw identifier (`r"`, `r#`), a character literal (`'"'` would read as a string's quote here),
    /// a closing bracket with none open.
    fn line(&mut self, line: &str) -> Option<()> {
        let b = line.as_bytes();
        let mut i = 0;
        while let Some(&c) = b.get(i) {
            if self.in_string {
                match c {
                    // An escape takes the next byte with it (`\"` is not the string's end); longer escapes
                    // (`\u{..}`) hold no quote.
                    b'\\' => i += 1,
                    b'"' => self.in_string = false,
                    _ => {}
                }
            } else {
                match c {
                    b'"' => self.in_string = true,
                    b'\'' => return None,
                    b'/' => match b.get(i + 1) {
                        Some(b'/') => return Some(()),
                        _ => return None,
                    },
                    b'r' if matches!(b.get(i + 1), Some(b'"' | b'#')) => return None,
                    b'(' | b'[' | b'{' => self.depth += 1,
                    b')' | b']' | b'}' => self.depth = self.depth.checked_sub(1)?,
                    _ => {}
                }
            }
            i += 1;
        }
        Some(())
    }
}

/// An entry line without its line end (as `str::lines` gives it: `\n`, or `\r\n`); None without one (an entry
/// is always followed by the line that closes its section).
fn entry(line: &str) -> Option<&str> {
    let line = line.strip_suffix('\n')?;
    Some(line.strip_suffix('\r').unwrap_or(line))
}

/// The entries as a map, built in one pass when their ids rise strictly (as Racksmith writes them); None when an
/// id repeats (RON would keep the last one: leave that file to RON).
fn sorted_map<K: Ord, V>(entries: Vec<(u64, V)>, key: fn(u64) -> K) -> Option<BTreeMap<K, V>> {
    if entries.windows(2).all(|w| matches!(w, [a, b] if a.0 < b.0)) {
        return Some(entries.into_iter().map(|(k, v)| (key(k), v)).collect());
    }
    let mut map = BTreeMap::new();
    for (k, v) in entries {
        if map.insert(key(k), v).is_some() {
            return None;
        }
    }
    Some(map)
}

/// A cursor over one entry line.
struct Cur<'a> {
    line: &'a str,
    at: usize,
}

impl<'a> Cur<'a> {
    fn eat(&mut self, lit: &str) -> Option<()> {
        let b = lit.as_bytes();
        if self.line.as_bytes().get(self.at..self.at + b.len())? == b {
            self.at += b.len();
            Some(())
        } else {
            None
        }
    }

    fn peek(&self, lit: &str) -> bool {
        self.line
            .as_bytes()
            .get(self.at..self.at + lit.len())
            .is_some_and(|x| x == lit.as_bytes())
    }

    fn while_(&mut self, f: impl Fn(u8) -> bool) -> &'a str {
        let start = self.at;
        while self.line.as_bytes().get(self.at).is_some_and(|c| f(*c)) {
            self.at += 1;
        }
        // Every stop is at an ASCII byte or the end, so a char boundary: the line is sliced, not validated again.
        self.line.get(start..self.at).unwrap_or("")
    }

    fn uint<T: std::str::FromStr>(&mut self) -> Option<T> {
        let digits = self.while_(|c| c.is_ascii_digit());
        if digits.is_empty() {
            return None;
        }
        digits.parse().ok()
    }

    /// A plain decimal number (`-?D+(.D+)?([eE][+-]?D+)?`), which RON reads as `str::parse` does.
    fn float(&mut self) -> Option<f64> {
        let start = self.at;
        let _ = self.eat("-");
        if self.while_(|c| c.is_ascii_digit()).is_empty() {
            return None;
        }
        if self.eat(".").is_some() && self.while_(|c| c.is_ascii_digit()).is_empty() {
            return None;
        }
        if self.eat("e").is_some() || self.eat("E").is_some() {
            if self.eat("-").is_none() {
                let _ = self.eat("+");
            }
            if self.while_(|c| c.is_ascii_digit()).is_empty() {
                return None;
            }
        }
        self.line.get(start..self.at)?.parse().ok()
    }

    /// `true` or `false`.
    fn bool(&mut self) -> Option<bool> {
        if self.eat("true").is_some() {
            Some(true)
        } else {
            self.eat("false").map(|()| false)
        }
    }

    /// A string without escapes.
    fn string(&mut self) -> Option<&'a str> {
        self.eat("\"")?;
        let body = self.while_(|c| c != b'"' && c != b'\\');
        self.eat("\"")?;
        Some(body)
    }

    fn ident(&mut self) -> &'a str {
        self.while_(|c| c.is_ascii_lowercase() || c == b'_' || c.is_ascii_digit())
    }

    /// `{K: "V", ...}` with u16 keys.
    fn map(&mut self) -> Option<BTreeMap<u16, PartId>> {
        self.eat("{")?;
        let mut m = BTreeMap::new();
        if self.eat("}").is_some() {
            return Some(m);
        }
        loop {
            let k: u16 = self.uint()?;
            self.eat(": ")?;
            let v = self.string()?;
            if m.insert(k, PartId::new(v)).is_some() {
                return None;
            }
            if self.eat("}").is_some() {
                return Some(m);
            }
            self.eat(", ")?;
        }
    }

    /// `ID: (` opening an entry.
    fn open(&mut self) -> Option<u64> {
        self.eat("        ")?;
        let id = self.uint()?;
        self.eat(": (")?;
        Some(id)
    }

    /// After a field: `, ` and true for another field, or `),` closing the line and false.
    fn next(&mut self) -> Option<bool> {
        if self.eat(", ").is_some() {
            return Some(true);
        }
        self.eat("),")?;
        (self.at == self.line.len()).then_some(false)
    }
}

/// Marks a field seen; None when it was already.
fn once(seen: &mut u8, bit: u8) -> Option<()> {
    if *seen & bit != 0 {
        return None;
    }
    *seen |= bit;
    Some(())
}

fn device(line: &str) -> Option<(u64, Device)> {
    let mut c = Cur { line, at: 0 };
    let id = c.open()?;
    let mut d = Device::default();
    let mut seen = 0u8;
    if c.eat(")").is_some() {
        c.eat(",")?;
        return (c.at == c.line.len()).then_some((id, d));
    }
    loop {
        let field = c.ident();
        c.eat(": ")?;
        match field {
            "name" => {
                once(&mut seen, 1)?;
                d.name = c.string()?.to_string();
            }
            "part" => {
                once(&mut seen, 2)?;
                d.part = PartId::new(c.string()?);
            }
            "rack" => {
                once(&mut seen, 4)?;
                d.rack = RackId(c.uint()?);
            }
            "position_u" => {
                once(&mut seen, 8)?;
                d.position_u = c.uint()?;
            }
            "gpus" => {
                once(&mut seen, 16)?;
                d.gpus = c.map()?;
            }
            "nics" => {
                once(&mut seen, 32)?;
                d.nics = c.map()?;
            }
            "notes" => {
                once(&mut seen, 64)?;
                d.notes = c.string()?.to_string();
            }
            _ => return None,
        }
        if !c.next()? {
            return Some((id, d));
        }
    }
}

/// A port as `PortRef` reads it from a string (`DEVICE:PORT`).
fn port(s: &str) -> Option<PortRef> {
    let (device, port) = s.split_once(':')?;
    let device: u64 = device.parse().ok()?;
    if port.is_empty() {
        return None;
    }
    Some(PortRef::new(DeviceId(device), port))
}

fn link(line: &str, media: &mut HashMap<String, Medium>) -> Option<(u64, Link)> {
    let mut c = Cur { line, at: 0 };
    let id = c.open()?;
    let mut l = Link::default();
    let mut seen = 0u8;
    if c.eat(")").is_some() {
        c.eat(",")?;
        return (c.at == c.line.len()).then_some((id, l));
    }
    loop {
        let field = c.ident();
        c.eat(": ")?;
        match field {
            "a" => {
                once(&mut seen, 1)?;
                l.a = port(c.string()?)?;
            }
            "b" => {
                once(&mut seen, 2)?;
                l.b = port(c.string()?)?;
            }
            "medium" => {
                once(&mut seen, 4)?;
                // `Variant(Inner)` or `Variant((...))`: up to the parenthesis that closes the first one.
                let start = c.at;
                c.while_(|x| x.is_ascii_alphanumeric());
                let mut depth = 0usize;
                loop {
                    match c.line.as_bytes().get(c.at)? {
                        b'(' => depth += 1,
                        b')' => {
                            depth = depth.checked_sub(1)?;
                            if depth == 0 {
                                c.at += 1;
                                break;
                            }
                        }
                        b'"' | b'\\' | b'/' => return None,
                        _ => {}
                    }
                    c.at += 1;
                }
                let text = c.line.get(start..c.at)?;
                let m = match media.get(text) {
                    Some(m) => *m,
                    None => {
                        let m: Medium = ron::Options::default().from_str(text).ok()?;
                        media.insert(text.to_string(), m);
                        m
                    }
                };
                l.medium = m;
            }
            "length_m" => {
                once(&mut seen, 8)?;
                l.length_m = c.float()?;
            }
            "cable" => {
                once(&mut seen, 16)?;
                if c.eat("None").is_some() {
                    l.cable = None;
                } else {
                    c.eat("Some(")?;
                    l.cable = Some(PartId::new(c.string()?));
                    c.eat(")")?;
                }
            }
            "notes" => {
                once(&mut seen, 32)?;
                l.notes = c.string()?.to_string();
            }
            "estimated_length" => {
                once(&mut seen, 64)?;
                l.estimated_length = c.bool()?;
            }
            "auto_cable" => {
                once(&mut seen, 128)?;
                l.auto_cable = c.bool()?;
            }
            _ => return None,
        }
        if c.peek(")") || c.peek(", ") {
            if !c.next()? {
                return Some((id, l));
            }
        } else {
            return None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by_ron(text: &str) -> Option<Design> {
        ron::Options::default().from_str(text).ok()
    }

    /// The fast path, when it applies, gives exactly the design RON gives.
    /// Whether the fast path takes the text, checking that what it gives is what RON gives, and that reading the
    /// same text line by line gives the same.
    fn same(text: &str) -> bool {
        let fast = parse(text);
        if let Some(f) = &fast {
            assert_eq!(Some(f), by_ron(text).as_ref(), "fast path differs from RON");
        }
        assert_eq!(
            read(text.as_bytes(), u64::MAX),
            fast,
            "reading line by line differs from the text"
        );
        fast.is_some()
    }

    #[test]
    fn reading_stops_past_the_limit() {
        let text = crate::io::design_to_string(&crate::samples::sample("dgx-h100-single").unwrap())
            .unwrap();
        let len = text.len() as u64;
        assert!(read(text.as_bytes(), len).is_some());
        assert!(read(text.as_bytes(), len - 1).is_none());
        // A file that ends inside a section, and one whose last line lacks its line end.
        let cut = text
            .get(..text.find("\n    links: {\n").unwrap() + 20)
            .unwrap();
        assert!(read(cut.as_bytes(), u64::MAX).is_none() && parse(cut).is_none());
        let unended = text.trim_end_matches('\n');
        assert_eq!(read(unended.as_bytes(), u64::MAX), parse(unended));
    }

    #[test]
    fn fast_path_equals_ron() {
        let c = crate::catalog::Catalog::builtin().unwrap();
        let mut designs: Vec<Design> = crate::samples::SAMPLES
            .iter()
            .map(|n| crate::samples::sample(n).unwrap())
            .collect();
        designs.push(crate::samples::superpod_h100(&c, 8).unwrap());
        // Notes, an empty device, a link with no cable, floats of every shape.
        let mut d = crate::samples::superpod_h100(&c, 1).unwrap();
        if let Some(x) = d.devices.values_mut().next() {
            x.notes = "spare, keep (until Q3)".into();
        }
        for (i, l) in d.links.values_mut().enumerate().take(5) {
            l.cable = None;
            l.notes = "checked".into();
            l.length_m = [0.5, 1e-7, 123456789.0, 2.5e30, 0.1][i];
        }
        designs.push(d);
        for d in &designs {
            let text = crate::io::design_to_string(d).unwrap();
            assert!(
                same(&text),
                "{}: the fast path applies to a saved file",
                d.name
            );
            assert_eq!(parse(&text).as_ref(), Some(d), "{}", d.name);
        }
    }

    #[test]
    fn anything_unusual_goes_to_ron() {
        let c = crate::catalog::Catalog::builtin().unwrap();
        let d = crate::samples::superpod_h100(&c, 1).unwrap();
        let text = crate::io::design_to_string(&d).unwrap();
        // A link the generator wrote at 15 m (the storage fabric's; the compute fabric's lengths follow the floor).
        let link_line = text
            .lines()
            .find(|l| l.contains("medium: InfiniBand") && l.contains("length_m: 15.0"))
            .unwrap()
            .to_string();
        let device_line = text
            .lines()
            .find(|l| l.contains("position_u"))
            .unwrap()
            .to_string();
        let edits = [
            // An escaped quote, a comment, other spacing, an unknown field, a repeated field, a float RON reads
            // differently, a broken port, extensions.
            (
                device_line.clone(),
                device_line.replace("dgx-0001", "dgx\\\"0001"),
            ),
            (link_line.clone(), format!("{link_line} // cable 1")),
            (
                link_line.clone(),
                link_line.replace("length_m: ", "length_m:  "),
            ),
            (
                link_line.clone(),
                link_line.replace("length_m: ", "colour: 1, length_m: "),
            ),
            (
                link_line.clone(),
                link_line.replace("length_m: 15.0", "length_m: 15.0, length_m: 2.0"),
            ),
            (link_line.clone(), link_line.replace("15.0", "15.")),
            (link_line.clone(), link_line.replace("a: \"", "a: \"x")),
            (
                link_line.clone(),
                link_line.replace("InfiniBand(Ndr)", "InfiniBand(Nope)"),
            ),
            (
                device_line.clone(),
                device_line.replace("gpus: {0", "gpus: {0: \"h100-sxm\", 0"),
            ),
        ];
        for (from, to) in edits {
            let changed = text.replacen(&from, &to, 1);
            assert_ne!(changed, text);
            assert!(!same(&changed), "fast path took {to}");
        }
        assert!(!same(&format!("#![enable(implicit_some)]\n{text}")));
        // Entries out of order still read (as RON reads them); a repeated id goes to RON.
        let links: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("medium: InfiniBand"))
            .take(2)
            .collect();
        let swapped = text
            .replacen(links[0], "@@", 1)
            .replacen(links[1], links[0], 1)
            .replacen("@@", links[1], 1);
        assert!(same(&swapped));
        let id = |l: &str| l.trim().split(':').next().unwrap().to_string();
        let repeated = text.replacen(
            links[1],
            &links[1].replacen(&id(links[1]), &id(links[0]), 1),
            1,
        );
        assert!(!same(&repeated));
        // A comment line between entries.
        let changed = text.replacen(&link_line, &format!("        // spare\n{link_line}"), 1);
        assert!(!same(&changed));
        // A section header inside a string that spans lines (RON reads it as text), before the sections or after.
        for header in ["    links: {", "    devices: {"] {
            let early = text.replacen("    notes: \"", &format!("    notes: \"x\n{header}\n"), 1);
            assert_ne!(early, text);
            assert!(!same(&early), "{header}");
        }
        // The links section before the devices section.
        let devices_at = text.find("\n    devices: {\n").unwrap() + 1;
        let links_at = text.find("\n    links: {\n").unwrap() + 1;
        let links_end = links_at + text.get(links_at..).unwrap().find("\n    },\n").unwrap() + 8;
        let links_section = text.get(links_at..links_end).unwrap();
        let swapped = format!(
            "{}{links_section}{}{}",
            text.get(..devices_at).unwrap(),
            text.get(devices_at..links_at).unwrap(),
            text.get(links_end..).unwrap()
        );
        assert!(!same(&swapped));
    }

    /// The issue's cases: a devices section that RON reads as a comment or as text, while the real one is empty.
    /// The fast path must give what RON gives or give up.
    #[test]
    fn sections_in_comments_and_strings_are_not_read() {
        let text = crate::io::design_to_string(&crate::samples::sample("dgx-h100-single").unwrap())
            .unwrap();
        let section = section_of(&text, DEVICES).unwrap();
        let emptied = text.replacen(section, "    devices: {},\n", 1);
        let notes = text.find("    notes: ").unwrap();
        for (open, close) in [
            ("/*\n", "*/\n"),
            ("/* /* nested */\n", "*/\n"),
            ("    notes: r#\"\n", "\"#,\n"),
            ("    notes: \"\n", "\",\n"),
        ] {
            let hidden = format!(
                "{}{open}{section}{close}{}",
                text.get(..notes).unwrap(),
                emptied.get(notes..).unwrap()
            );
            let ron = by_ron(&hidden);
            let fast = parse(&hidden);
            assert!(fast.is_none() || fast == ron, "{open}");
            same(&hidden);
        }
    }

    /// The text of a section from its header to its closing line, if the text still has it (an earlier mutation
    /// may have cut its header or its closing line).
    fn section_of<'a>(text: &'a str, header: &str) -> Option<&'a str> {
        let at = text.find(&format!("\n{header}"))? + 1;
        let end = at + text.get(at..)?.find(CLOSE)? + CLOSE.len();
        text.get(at..end)
    }

    /// One change to a file: what the differential test does to a saved design.
    #[derive(Debug, Clone)]
    enum Mutation {
        /// A copy of a section (perhaps emptied in place) wrapped in RON that reads it as a comment or text,
        /// inserted before the line at this share of the file.
        Hide {
            wrap: usize,
            section: bool,
            empty_real: bool,
            at: f64,
        },
        /// A token inserted at this share of the file.
        Insert { token: usize, at: f64 },
        /// A line removed, or repeated.
        Line { at: f64, repeat: bool },
    }

    const WRAPS: [(&str, &str); 6] = [
        ("/*\n", "*/\n"),
        ("/* /*\n", "*/ */\n"),
        ("    notes: r#\"\n", "\"#,\n"),
        ("    notes: r\"\n", "\",\n"),
        ("    notes: \"\n", "\",\n"),
        ("    notes: \"\\\"\n", "\",\n"),
    ];
    const TOKENS: [&str; 16] = [
        "\"", "\\", "/*", "*/", "//", "r#\"", "\"#", "'", "'\"'", "{", "}", "(", ")", "\n", ",",
        "b\"",
    ];

    fn mutation() -> impl proptest::strategy::Strategy<Value = Mutation> {
        use proptest::prelude::*;
        prop_oneof![
            (0..WRAPS.len(), any::<bool>(), any::<bool>(), 0.0..1.0f64).prop_map(
                |(wrap, section, empty_real, at)| Mutation::Hide {
                    wrap,
                    section,
                    empty_real,
                    at
                }
            ),
            (0..TOKENS.len(), 0.0..1.0f64).prop_map(|(token, at)| Mutation::Insert { token, at }),
            (0.0..1.0f64, any::<bool>()).prop_map(|(at, repeat)| Mutation::Line { at, repeat }),
        ]
    }

    /// The byte offset of the start of the line at share `at` of the text.
    fn line_start(text: &str, at: f64) -> usize {
        let lines: Vec<usize> = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .filter(|&i| i < text.len())
            .collect();
        lines[((lines.len() as f64 * at) as usize).min(lines.len() - 1)]
    }

    fn mutate(text: &str, m: &Mutation) -> String {
        match *m {
            Mutation::Hide {
                wrap,
                section,
                empty_real,
                at,
            } => {
                let header = if section { DEVICES } else { LINKS };
                // Nothing to hide once an earlier mutation broke the section: the text goes on as it is.
                let Some(sec) = section_of(text, header).map(str::to_string) else {
                    return text.to_string();
                };
                let (open, close) = WRAPS[wrap];
                let base = if empty_real {
                    text.replacen(&sec, &format!("{}}},\n", header.trim_end_matches('\n')), 1)
                } else {
                    text.to_string()
                };
                let i = line_start(&base, at);
                format!("{}{open}{sec}{close}{}", &base[..i], &base[i..])
            }
            Mutation::Insert { token, at } => {
                let mut i = ((text.len() as f64) * at) as usize;
                while !text.is_char_boundary(i) {
                    i -= 1;
                }
                format!("{}{}{}", &text[..i], TOKENS[token], &text[i..])
            }
            Mutation::Line { at, repeat } => {
                let i = line_start(text, at);
                let end = text[i..].find('\n').map_or(text.len(), |e| i + e + 1);
                let line = &text[i..end];
                if repeat {
                    format!("{}{line}{}", &text[..end], &text[end..])
                } else {
                    format!("{}{}", &text[..i], &text[end..])
                }
            }
        }
    }

    /// Saved designs the differential test starts from: two samples and one with notes and cable-less links.
    fn bases() -> Vec<String> {
        let mut d = crate::samples::sample("a100-nic-starved").unwrap();
        if let Some(x) = d.devices.values_mut().next() {
            x.notes = "spare /* not a comment */ r#\"x\"# 'c'".into();
        }
        if let Some(l) = d.links.values_mut().next() {
            l.cable = None;
            l.notes = "// not a comment either".into();
        }
        ["dgx-h100-single", "l40s-two-regions"]
            .iter()
            .map(|n| crate::samples::sample(n).unwrap())
            .chain([d])
            .map(|d| crate::io::design_to_string(&d).unwrap())
            .collect()
    }

    /// Differential: on saved designs changed by one to three mutations, the fast path gives exactly RON's
    /// design or gives up, and reading line by line gives what reading the text gives.
    fn differential(cases: u32) {
        use proptest::prelude::*;
        use proptest::test_runner::{Config, TestRunner};
        let bases = bases();
        let mut runner = TestRunner::new(Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        });
        runner
            .run(
                &(0..bases.len(), proptest::collection::vec(mutation(), 1..4)),
                |(base, ms)| {
                    let mut text = bases[base].clone();
                    for m in &ms {
                        text = mutate(&text, m);
                    }
                    let fast = parse(&text);
                    if fast.is_some() {
                        prop_assert_eq!(&fast, &by_ron(&text), "fast path differs from RON");
                    }
                    prop_assert_eq!(read(text.as_bytes(), u64::MAX), fast);
                    Ok(())
                },
            )
            .unwrap();
    }

    #[test]
    fn differential_short() {
        differential(96);
    }

    /// The longer run (a few minutes): `cargo test --lib io::fast -- --ignored`.
    #[test]
    #[ignore = "long differential run; see docs/limits.md"]
    fn differential_long() {
        differential(20_000);
    }
}
