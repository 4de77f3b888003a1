//! Rules for the text a design carries: which characters a name may not hold, and how to show any text safely in
//! a terminal. The export layer's escaping and the loader's name checks share them.

use std::borrow::Cow;

/// Characters no name should carry into any output: C0 and C1 controls (which includes NUL, ESC, CR, LF and NEL),
/// DEL, the line and paragraph separators, bidirectional embeddings, overrides and isolates, zero-width characters
/// and the byte-order mark, and the noncharacters U+FFFE and U+FFFF. `'\t'`, `'\n'` and `'\r'` are included: a name is
/// one line.
pub fn is_unsafe_in_name(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{2069}'
                | '\u{061C}'
                | '\u{FEFF}'
                | '\u{FFFE}'
                | '\u{FFFF}'
        )
}

/// A character named for an error message: printable ones quoted, others by code point.
pub fn describe_char(c: char) -> String {
    if c.is_control() || is_unsafe_in_name(c) || c.is_whitespace() {
        format!("the character U+{:04X}", u32::from(c))
    } else {
        format!("the character '{c}'")
    }
}

/// Text for a terminal: control characters, bidirectional and invisible characters are shown as `\u{..}` escapes,
/// so an error message or a report quoting a name can never move the cursor, change colours or retitle the window.
pub fn terminal(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe_in_name) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe_in_name(c) {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The noun for `n` things: `one` for exactly one, else `many` ("1 rack", "0 racks", "2 leaves"). The one rule
/// for user-facing counts below the analysis layer; `analysis::format::count` adds thousands separators on top.
pub fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// `n` and its noun: "1 rack", "3 links" (see [`plural`]).
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", plural(n, one, many))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_characters() {
        for c in [
            '\0', '\n', '\r', '\t', '\u{1b}', '\u{7f}', '\u{85}', '\u{202e}', '\u{2066}',
            '\u{200b}', '\u{feff}',
        ] {
            assert!(is_unsafe_in_name(c), "{c:?}");
        }
        for c in ['a', ' ', '-', 'é', '中', '\u{1F600}'] {
            assert!(!is_unsafe_in_name(c), "{c:?}");
        }
    }

    #[test]
    fn terminals_see_escapes_not_controls() {
        assert_eq!(terminal("a\u{1b}]0;owned\u{7}"), "a\\u{1b}]0;owned\\u{7}");
        assert_eq!(terminal("\u{202e}gpj.exe"), "\\u{202e}gpj.exe");
        assert_eq!(describe_char('\u{1b}'), "the character U+001B");
        assert_eq!(describe_char('x'), "the character 'x'");
    }
}
