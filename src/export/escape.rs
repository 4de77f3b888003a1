//! One escaping function per output format. Every name in a design comes from a file someone else may have written,
//! so a writer never puts a name into its output by hand: it goes through the function of that output's format.
//!
//! | output | function | what it guards against |
//! |---|---|---|
//! | HTML text and attribute values | [`html`] | markup and script injection (`<script>`, `onerror=`, `</style>`) |
//! | XML (SVG, draw.io) text and attributes | [`xml`] | markup, and characters XML 1.0 forbids (the file would not parse) |
//! | Graphviz DOT strings | [`dot`] | breaking out of the quoted string, Graphviz's own `\N`-style escapes |
//! | CSV cells | [`csv_cell`] | formulas run by spreadsheets (OWASP "CSV Injection") |
//! | a line comment (`#`, `//`) in any text format | [`comment_line`] | ending the comment and injecting records |
//! | Slurm node and switch names | [`slurm_name`] | injecting records or host lists into `topology.conf` |
//! | a terminal (error messages, text reports) | [`terminal`] | escape sequences that move the cursor or retitle the window |
//!
//! YAML and JSON values are written by their serializers (serde_norway, serde_json), which quote and escape every
//! string; only the YAML header comment is text, and it goes through [`comment_line`].
//!
//! Names are also checked when a design is loaded (`io::names`): control characters, bidirectional overrides
//! and invisible characters are refused there. These functions still handle them, so a design built in memory (a
//! template, an edit) can never produce a broken or dangerous file either.

use std::borrow::Cow;

pub use crate::model::text::{describe_char, is_unsafe_in_name, terminal};

/// The replacement for a character an output cannot carry (U+FFFD REPLACEMENT CHARACTER).
const REPLACEMENT: char = '\u{FFFD}';

/// Text in HTML, as element content or as a quoted attribute value: `& < > " '` become entities and characters that
/// are unsafe in a name ([`is_unsafe_in_name`]) other than tab and line feed become U+FFFD.
pub fn html(text: &str) -> Cow<'_, str> {
    markup(text, |c| c == '\t' || c == '\n')
}

/// Text in XML 1.0 (SVG, draw.io), as element content or as a quoted attribute value: `& < > " '` become entities;
/// tab and line feed become character references (so an attribute keeps them), and every other character XML 1.0
/// forbids or a name must not carry becomes U+FFFD, so the file always parses.
pub fn xml(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| needs_markup_escape(c, |_| false)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            _ => push_markup(&mut out, c, |_| false),
        }
    }
    Cow::Owned(out)
}

fn needs_markup_escape(c: char, keep: impl Fn(char) -> bool) -> bool {
    matches!(c, '&' | '<' | '>' | '"' | '\'') || (is_unsafe_in_name(c) && !keep(c))
}

fn push_markup(out: &mut String, c: char, keep: impl Fn(char) -> bool) {
    match c {
        '&' => out.push_str("&amp;"),
        '<' => out.push_str("&lt;"),
        '>' => out.push_str("&gt;"),
        '"' => out.push_str("&quot;"),
        '\'' => out.push_str("&#39;"),
        c if is_unsafe_in_name(c) && !keep(c) => out.push(REPLACEMENT),
        c => out.push(c),
    }
}

fn markup(text: &str, keep: impl Fn(char) -> bool + Copy) -> Cow<'_, str> {
    if !text.chars().any(|c| needs_markup_escape(c, keep)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        push_markup(&mut out, c, keep);
    }
    Cow::Owned(out)
}

/// A Graphviz DOT string, quotes included. Inside quotes DOT treats only `\"` as an escape, but Graphviz then reads
/// label escapes (`\N`, `\G`, `\l`, `\n`): every backslash is doubled so a name shows as written; a line feed becomes
/// Graphviz's `\n` (the label's line break) and other unsafe characters become U+FFFD.
pub fn dot(text: &str) -> String {
    let mut s = String::with_capacity(text.len() + 2);
    s.push('"');
    for c in text.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            c if is_unsafe_in_name(c) => s.push(REPLACEMENT),
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

/// Characters that make a spreadsheet read a cell as a formula (or, for tab and carriage return, shift it into a
/// formula), with their full-width forms, which some spreadsheets also accept.
fn starts_formula(c: char) -> bool {
    matches!(
        c,
        '=' | '+' | '-' | '@' | '\t' | '\r' | '\u{FF1D}' | '\u{FF0B}' | '\u{FF0D}' | '\u{FF20}'
    )
}

/// A CSV cell of text, neutralised as OWASP recommends ("CSV Injection"): a cell that starts with `=`, `+`, `-`, `@`,
/// tab or carriage return (or their full-width forms) gets a leading `'`, which spreadsheets show as text and do not
/// evaluate. Control characters other than line feed become U+FFFD. Quoting is the CSV writer's job (the `csv`
/// crate quotes any cell with a comma, quote or line break). Numbers are written as numbers, never through here.
pub fn csv_cell(text: &str) -> Cow<'_, str> {
    let formula = text.chars().next().is_some_and(starts_formula);
    let unsafe_chars = text.chars().any(|c| c != '\n' && is_unsafe_in_name(c));
    if !formula && !unsafe_chars {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 1);
    if formula {
        out.push('\'');
    }
    for c in text.chars() {
        if c != '\n' && is_unsafe_in_name(c) {
            out.push(REPLACEMENT);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A CSV field that may be a number or text: a field that reads as a number (`-2.5`, `1e9`) is written as it is, so
/// spreadsheets still read it as a number; anything else goes through [`csv_cell`].
pub fn csv_field(text: &str) -> Cow<'_, str> {
    let numeric = text
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E'))
        && text.parse::<f64>().is_ok_and(f64::is_finite);
    if numeric {
        Cow::Borrowed(text)
    } else {
        csv_cell(text)
    }
}

/// Text that stays on one line: every line break (LF, CR, NEL, U+2028, U+2029) and every other unsafe character
/// becomes a space, so it can follow `#` or `//` without ending the comment.
pub fn comment_line(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe_in_name) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| if is_unsafe_in_name(c) { ' ' } else { c })
            .collect(),
    )
}

/// Why a name cannot be a Slurm node or switch name, if it cannot.
///
/// Slurm reads `topology.conf` as `Key=Value` pairs separated by white space, with `#` starting a comment, and
/// expands node lists as host lists (`dgx[01-31]`, commas between names). A name is therefore written only when it is
/// a host name Slurm can take as it is: ASCII letters, digits, `-`, `_` and `.`, not empty, at most 64 characters
/// (Slurm's `MAX_SLURM_NAME`), so no value can end a record, add a key or stand for other hosts. Renaming silently
/// would give a file that names nodes the cluster does not have, so the export is refused with the name instead.
pub fn slurm_name(name: &str) -> Result<&str, String> {
    const MAX: usize = 64;
    if name.is_empty() {
        return Err("an empty name".into());
    }
    if name.len() > MAX {
        return Err(format!(
            "\"{}…\" is {} characters long; Slurm takes at most {MAX}",
            terminal(&name.chars().take(24).collect::<String>()),
            name.chars().count()
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
    {
        return Err(format!(
            "\"{}\" has {}; a Slurm name takes letters, digits, '-', '_' and '.' only",
            terminal(name),
            describe_char(c)
        ));
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_escapes_markup_and_controls() {
        assert_eq!(
            html(r#"R01<img src=x onerror="alert(1)">"#),
            "R01&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"
        );
        assert_eq!(html("a'b&c"), "a&#39;b&amp;c");
        assert_eq!(html("x\u{1b}[31my"), "x\u{FFFD}[31my");
        // Notes keep their line breaks.
        assert_eq!(html("line 1\nline 2"), "line 1\nline 2");
        assert!(matches!(html("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn xml_replaces_what_xml_forbids() {
        assert_eq!(xml("a\0b"), "a\u{FFFD}b");
        assert_eq!(xml("a\nb\tc"), "a&#10;b&#9;c");
        assert_eq!(xml("</text><script>"), "&lt;/text&gt;&lt;script&gt;");
        assert_eq!(xml("\u{FFFE}"), "\u{FFFD}");
    }

    #[test]
    fn dot_strings_cannot_be_left() {
        assert_eq!(dot(r#"a"; evil [x=1]; "b"#), r#""a\"; evil [x=1]; \"b""#);
        assert_eq!(dot(r"\N\G"), r#""\\N\\G""#);
        assert_eq!(dot("two\nlines"), r#""two\nlines""#);
    }

    #[test]
    fn csv_cells_never_start_a_formula() {
        for bad in [
            "=HYPERLINK(\"http://x\")",
            "+1",
            "-2+3",
            "@SUM(A1)",
            "\tx",
            "\rx",
            "\u{FF1D}1+1",
        ] {
            let cell = csv_cell(bad);
            assert!(cell.starts_with('\''), "{bad:?} -> {cell:?}");
        }
        assert_eq!(csv_cell("dgx-01"), "dgx-01");
        // Numbers stay numbers; a formula that starts like one does not.
        assert_eq!(csv_field("-2.5"), "-2.5");
        assert_eq!(csv_field("1e9"), "1e9");
        assert_eq!(csv_field("-2+3"), "'-2+3");
        assert_eq!(csv_field("-inf"), "'-inf");
        assert_eq!(csv_cell("a\u{7}b"), "a\u{FFFD}b");
    }

    #[test]
    fn comments_stay_on_one_line() {
        assert_eq!(comment_line("a\rb\nc\u{2028}d\u{85}e"), "a b c d e");
    }

    #[test]
    fn slurm_names_are_host_names() {
        assert_eq!(
            slurm_name("dgx-h100-su01.node_7"),
            Ok("dgx-h100-su01.node_7")
        );
        for bad in [
            "node-08\nSwitchName=evil",
            "a b",
            "a,b",
            "a[1-2]",
            "a=b",
            "#x",
            "",
            "é",
        ] {
            assert!(slurm_name(bad).is_err(), "{bad:?}");
        }
        assert!(slurm_name(&"x".repeat(65)).is_err());
        assert!(slurm_name(&"x".repeat(64)).is_ok());
    }
}
