//! A design as a link: the design file's text, compressed with raw deflate and written in base64url, in the URL's
//! fragment (`https://host/racksmith/#d=…`). A browser never sends the fragment to the server, so a shared link
//! carries the design to whoever opens it and to nobody else. Opening a link parses and checks the text exactly as
//! a file (`io::design_from_str`): a link is as untrusted as a file.

use crate::model::Design;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use std::path::Path;
use thiserror::Error;

/// Longest link Racksmith makes: 64 KiB of URL. Browsers take more (Chromium about 2 MB), but mail, chat and
/// issue trackers cut or refuse links long before that; a larger design is shared as a file.
pub const MAX_LINK_BYTES: usize = 64 * 1024;

/// The fragment's key: `#d=` then the payload.
const KEY: &str = "d=";

/// The name errors give a design read from a link (where a file would have its path).
const LINK_NAME: &str = "share link";

/// Why a link could not be made or read.
#[derive(Debug, Error)]
pub enum ShareError {
    /// The design does not fit in a link.
    #[error(
        "the design is too large for a link: {bytes} bytes of URL, more than {limit} (save it as a file and share the file)"
    )]
    TooLarge {
        /// Length of the link it would make.
        bytes: usize,
        /// The longest link allowed, bytes: [`MAX_LINK_BYTES`], quoted in the message.
        limit: usize,
    },
    /// The URL has no `#d=` fragment.
    #[error("the link holds no design (no #d= in it)")]
    NoDesign,
    /// The payload is not base64url.
    #[error("the link is damaged (not base64url): {0}")]
    Encoding(String),
    /// The payload does not inflate, or inflates past the largest design file.
    #[error("the link is damaged (the compressed design does not unpack): {0}")]
    Compression(String),
    /// The unpacked text is not UTF-8.
    #[error("the link is damaged (the design is not text)")]
    NotText,
    /// The design could not be written.
    #[error("{0}")]
    Save(#[from] super::SaveError),
    /// The design in the link does not load, as a file with the same text would not.
    #[error("{0}")]
    Load(#[from] super::LoadError),
}

/// The fragment payload of a design (what follows `#d=`): its file text, deflated, in base64url without padding.
pub fn encode(design: &Design) -> Result<String, ShareError> {
    let text = super::design_to_string(design)?;
    let packed = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 9);
    Ok(URL_SAFE_NO_PAD.encode(packed))
}

/// A link to `design` on the page at `base` (any fragment of `base` is replaced), or [`ShareError::TooLarge`] when
/// it would be longer than [`MAX_LINK_BYTES`].
pub fn link(base: &str, design: &Design) -> Result<String, ShareError> {
    let base = base.split('#').next().unwrap_or(base);
    let payload = encode(design)?;
    let link = format!("{base}#{KEY}{payload}");
    if link.len() > MAX_LINK_BYTES {
        return Err(ShareError::TooLarge {
            bytes: link.len(),
            limit: MAX_LINK_BYTES,
        });
    }
    Ok(link)
}

/// Whether a URL or fragment carries a design (`#d=` or, for a bare fragment, `d=`).
pub fn has_design(url_or_fragment: &str) -> bool {
    payload(url_or_fragment).is_some()
}

/// The payload of a URL (`…#d=X`), a fragment (`#d=X`) or a bare `d=X`; other keys in the fragment (`&k=v`) are
/// ignored.
fn payload(url_or_fragment: &str) -> Option<&str> {
    let fragment = match url_or_fragment.split_once('#') {
        Some((_, f)) => f,
        // A whole URL without a fragment carries no design, whatever its query says.
        None if url_or_fragment.contains("://") => return None,
        None => url_or_fragment,
    };
    fragment
        .split('&')
        .find_map(|kv| kv.strip_prefix(KEY))
        .map(str::trim)
}

/// The design of a link (a whole URL, its fragment, or `d=…`), parsed and checked as a design file is.
pub fn decode(url_or_fragment: &str) -> Result<Design, ShareError> {
    // The same bound as a file: a small link must not unpack into gigabytes.
    let limit = usize::try_from(super::MAX_FILE_BYTES).unwrap_or(usize::MAX);
    decode_within(url_or_fragment, limit)
}

/// [`decode`] with the largest unpacked text allowed.
fn decode_within(url_or_fragment: &str, limit: usize) -> Result<Design, ShareError> {
    let payload = payload(url_or_fragment).ok_or(ShareError::NoDesign)?;
    let packed = URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .map_err(|e| ShareError::Encoding(e.to_string()))?;
    let text = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, limit)
        .map_err(|e| ShareError::Compression(format!("{:?}", e.status)))?;
    let text = String::from_utf8(text).map_err(|_| ShareError::NotText)?;
    Ok(super::design_from_str(&text, Path::new(LINK_NAME))?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_su() -> Design {
        crate::samples::sample("superpod-h100-1su").unwrap()
    }

    #[test]
    fn a_link_round_trips_the_1_su_sample() {
        let d = one_su();
        let url = link("https://example.org/racksmith/index.html#old", &d).unwrap();
        assert!(
            url.starts_with("https://example.org/racksmith/index.html#d="),
            "{url}"
        );
        assert!(!url.contains("#old"));
        let back = decode(&url).unwrap();
        // The same file text: nothing lost or reordered on the way.
        assert_eq!(
            crate::io::design_to_string(&back).unwrap(),
            crate::io::design_to_string(&d).unwrap()
        );
        assert_eq!(back.name, d.name);
        // The fragment alone and the bare payload read the same.
        let fragment = url.split_once('#').unwrap().1;
        assert_eq!(decode(fragment).unwrap().name, d.name);
        assert_eq!(decode(&format!("#{fragment}&x=1")).unwrap().name, d.name);
    }

    #[test]
    fn a_link_is_much_smaller_than_the_file() {
        // Deflate on a file of repeated lines: the link must be well under a third of the text (measured: the
        // 1-SU sample's text shrinks about 10x, so a third leaves a wide margin).
        let d = one_su();
        let text = crate::io::design_to_string(&d).unwrap();
        let payload = encode(&d).unwrap();
        assert!(
            payload.len() * 3 < text.len(),
            "{} of {}",
            payload.len(),
            text.len()
        );
    }

    #[test]
    fn a_design_too_large_for_a_link_says_so() {
        // 32 SUs: 1,016 servers and their cables, far past 64 KiB of link.
        let catalog = crate::catalog::Catalog::builtin().unwrap();
        let options = vec![("su".to_string(), "32".to_string())];
        let d = crate::templates::generate(&catalog, "superpod-h100", &options).unwrap();
        match link("https://x/", &d) {
            Err(ShareError::TooLarge { bytes, limit }) => {
                assert!(bytes > limit);
                assert_eq!(limit, MAX_LINK_BYTES);
            }
            other => panic!("expected TooLarge, got {other:?}"),
        }
    }

    #[test]
    fn damaged_links_are_refused_with_a_reason() {
        assert!(matches!(decode("https://x/"), Err(ShareError::NoDesign)));
        assert!(matches!(decode("#d=***"), Err(ShareError::Encoding(_))));
        // Valid base64url, not deflate.
        assert!(matches!(
            decode(&format!("#d={}", URL_SAFE_NO_PAD.encode([0xff; 16]))),
            Err(ShareError::Compression(_))
        ));
        // Valid deflate of something that is not a design: the file loader's error, with a line and column.
        let junk = miniz_oxide::deflate::compress_to_vec(b"(format_version: 1, name: ", 6);
        let err = decode(&format!("#d={}", URL_SAFE_NO_PAD.encode(junk))).unwrap_err();
        assert!(matches!(err, ShareError::Load(_)), "{err}");
        assert!(err.to_string().contains("share link"), "{err}");
    }

    #[test]
    fn a_link_cannot_unpack_past_the_limit() {
        // 1 MiB of spaces deflates to about 1 KB; with a 64 KiB limit the unpacking stops there. The 1-SU sample's
        // own link unpacks within a limit of its text's length.
        let spaces = vec![b' '; 1024 * 1024];
        let packed = miniz_oxide::deflate::compress_to_vec(&spaces, 6);
        let err =
            decode_within(&format!("d={}", URL_SAFE_NO_PAD.encode(packed)), 64 * 1024).unwrap_err();
        assert!(matches!(err, ShareError::Compression(_)), "{err}");
        let d = one_su();
        let text_len = crate::io::design_to_string(&d).unwrap().len();
        let payload = encode(&d).unwrap();
        assert!(decode_within(&format!("d={payload}"), text_len).is_ok());
        assert!(decode_within(&format!("d={payload}"), text_len - 1).is_err());
    }

    #[test]
    fn has_design_looks_at_the_fragment_only() {
        assert!(has_design("https://x/#d=abc"));
        assert!(has_design("#a=1&d=abc"));
        assert!(!has_design("https://x/?d=abc#e=1"));
        assert!(!has_design("https://x/"));
        assert!(!has_design("https://x/?a&d=abc"));
    }
}
