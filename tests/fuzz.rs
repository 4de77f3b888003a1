//! The fuzz harness, on the stable toolchain (proptest): mangled design files go through the loader, the validator,
//! the analysis and every export; random edits go through apply and undo. Nothing may panic, each input is handled
//! within a hang guard, a file that loads saves -> loads -> saves byte for byte, and an edit's inverse restores the
//! design exactly.
//!
//! `cargo test --test fuzz` runs a short budget (CI). A long run, as done before a release:
//!
//!     PROPTEST_CASES=20000 cargo test --release --test fuzz
//!
//! Any failure proptest finds is kept in `tests/fuzz.proptest-regressions` and replayed first on every run.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use proptest::prelude::*;
use racksmith::analysis::analyze;
use racksmith::edit::Edit;
use racksmith::export::{self, Format, Options};
use racksmith::io;
use racksmith::model::{Design, DeviceId, LinkId, RackId};
use std::path::Path;
use std::time::{Duration, Instant};

/// Far above any real input's time in a debug build: a case that takes longer is a hang, not a slow case.
const HANG_GUARD: Duration = Duration::from_secs(30);

/// Sample texts, built into the test binary so a long run is not disturbed by edits to the files.
fn sample_texts() -> Vec<String> {
    [
        include_str!("../sample-designs/dgx-h100-single.ron"),
        include_str!("../sample-designs/a100-nic-starved.ron"),
        include_str!("../sample-designs/l40s-inference-pcie.ron"),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// One change to a file's text.
#[derive(Debug, Clone)]
enum Mutation {
    /// Replace the n-th number with a hostile value.
    Number(usize, &'static str),
    /// Delete a span (start and length as fractions of the text).
    Delete(f64, f64),
    /// Copy a span to another place.
    Duplicate(f64, f64, f64),
    /// Swap two lines.
    SwapLines(usize, usize),
    /// Cut the text short.
    Truncate(f64),
    /// Flip one byte to a printable character.
    Byte(f64, u8),
}

const HOSTILE: [&str; 14] = [
    "0",
    "-1",
    "-0.0",
    "1e308",
    "-1e308",
    "NaN",
    "inf",
    "-inf",
    "65535",
    "4294967295",
    "1e-320",
    "0.5",
    "18446744073709551615",
    "2",
];

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (0usize..400, prop::sample::select(HOSTILE.to_vec())).prop_map(|(i, v)| Mutation::Number(i, v)),
        1 => (0.0..1.0f64, 0.0..0.05f64).prop_map(|(a, b)| Mutation::Delete(a, b)),
        1 => (0.0..1.0f64, 0.0..0.05f64, 0.0..1.0f64).prop_map(|(a, b, c)| Mutation::Duplicate(a, b, c)),
        1 => (0usize..300, 0usize..300).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        1 => (0.0..1.0f64).prop_map(Mutation::Truncate),
        1 => (0.0..1.0f64, 32u8..127).prop_map(|(a, b)| Mutation::Byte(a, b)),
    ]
}

/// The char boundary at or before a fraction of the text.
fn at(text: &str, f: f64) -> usize {
    let mut i = ((text.len() as f64) * f) as usize;
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn apply(text: &str, m: &Mutation) -> String {
    match *m {
        Mutation::Number(n, v) => {
            // Spans of digits (with a sign, point and exponent) in order.
            let bytes = text.as_bytes();
            let mut spans = Vec::new();
            let mut i = 0;
            while i < bytes.len() {
                if bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric()) {
                    let s = i;
                    while i < bytes.len()
                        && (bytes[i].is_ascii_digit() || matches!(bytes[i], b'.' | b'e' | b'-'))
                    {
                        i += 1;
                    }
                    spans.push((s, i));
                } else {
                    i += 1;
                }
            }
            match spans.get(n % spans.len().max(1)) {
                Some(&(s, e)) => format!("{}{v}{}", &text[..s], &text[e..]),
                None => text.to_string(),
            }
        }
        Mutation::Delete(a, len) => {
            let s = at(text, a);
            let e = at(text, (a + len).min(1.0)).max(s);
            format!("{}{}", &text[..s], &text[e..])
        }
        Mutation::Duplicate(a, len, to) => {
            let s = at(text, a);
            let e = at(text, (a + len).min(1.0)).max(s);
            let t = at(text, to);
            format!("{}{}{}", &text[..t], &text[s..e], &text[t..])
        }
        Mutation::SwapLines(a, b) => {
            let mut lines: Vec<&str> = text.lines().collect();
            if lines.is_empty() {
                return String::new();
            }
            let n = lines.len();
            lines.swap(a % n, b % n);
            lines.join("\n")
        }
        Mutation::Truncate(f) => text[..at(text, f)].to_string(),
        Mutation::Byte(f, c) => {
            let i = at(text, f);
            let mut end = (i + 1).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            format!("{}{}{}", &text[..i], c as char, &text[end..])
        }
    }
}

fn every_export(design: &Design) {
    let report = analyze(design);
    for format in Format::ALL {
        if format == Format::Png {
            continue; // rasterising is resvg's job; the SVG it takes is checked
        }
        let _ = export::export(design, &report, format, &Options::default());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn mangled_files_never_panic_and_round_trip(which in 0usize..3, ms in prop::collection::vec(mutation(), 1..4)) {
        let texts = sample_texts();
        let mut text = texts[which].clone();
        for m in &ms {
            text = apply(&text, m);
        }
        let start = Instant::now();
        if let Ok(design) = io::design_from_str(&text, Path::new("fuzz.ron")) {
            every_export(&design);
            let once = io::design_to_string(&design).unwrap();
            let again = io::design_from_str(&once, Path::new("fuzz.ron")).unwrap();
            prop_assert_eq!(&again, &design);
            prop_assert_eq!(io::design_to_string(&again).unwrap(), once);
        }
        prop_assert!(start.elapsed() < HANG_GUARD, "{:?}", start.elapsed());
    }
}

/// Every number of every sample file set, one at a time, to a value no figure takes (not a number, infinite,
/// negative): the file is refused, or it opens as a design that saves and opens again as itself. A figure the
/// loader does not check (a NaN kept in a part) fails the second: NaN is not equal to itself.
#[test]
fn every_number_of_a_file_made_nonsense_is_refused_or_round_trips() {
    let mut opened = 0;
    let mut refused = 0;
    for text in sample_texts() {
        let numbers = text
            .as_bytes()
            .windows(2)
            .filter(|w| w[1].is_ascii_digit() && !w[0].is_ascii_alphanumeric() && w[0] != b'.')
            .count();
        for n in 0..numbers {
            for value in ["NaN", "inf", "-1"] {
                let mangled = apply(&text, &Mutation::Number(n, value));
                match io::design_from_str(&mangled, Path::new("nonsense.ron")) {
                    Ok(design) => {
                        let once = io::design_to_string(&design).expect("save");
                        let again =
                            io::design_from_str(&once, Path::new("nonsense.ron")).expect("reopen");
                        assert!(
                            again == design,
                            "number {n} set to {value} opens as another design"
                        );
                        opened += 1;
                    }
                    Err(_) => refused += 1,
                }
            }
        }
    }
    // Most nonsense is refused; a negative id or count some fields read as text is not a number to them.
    assert!(
        refused > 1000 && opened < refused,
        "{refused} refused, {opened} opened"
    );
}

/// One random edit, by kind and by index into the design's ids.
#[derive(Debug, Clone)]
enum RandomEdit {
    RemoveDevice(usize),
    RemoveLink(usize),
    RemoveRack(usize),
    MoveDevice(usize, u16),
    Relink(usize, usize),
    RenameDesign(String),
}

fn random_edit() -> impl Strategy<Value = RandomEdit> {
    prop_oneof![
        (0usize..1000).prop_map(RandomEdit::RemoveDevice),
        (0usize..1000).prop_map(RandomEdit::RemoveLink),
        (0usize..1000).prop_map(RandomEdit::RemoveRack),
        (0usize..1000, 0u16..70).prop_map(|(i, u)| RandomEdit::MoveDevice(i, u)),
        (0usize..1000, 0usize..1000).prop_map(|(a, b)| RandomEdit::Relink(a, b)),
        "[a-z ]{0,12}".prop_map(RandomEdit::RenameDesign),
    ]
}

fn nth<K: Copy, V>(map: &std::collections::BTreeMap<K, V>, i: usize) -> Option<K> {
    map.keys().nth(i % map.len().max(1)).copied()
}

fn to_edit(design: &Design, e: &RandomEdit) -> Option<Edit> {
    Some(match e {
        RandomEdit::RemoveDevice(i) => Edit::RemoveDevice(nth::<DeviceId, _>(&design.devices, *i)?),
        RandomEdit::RemoveLink(i) => Edit::RemoveLink(nth::<LinkId, _>(&design.links, *i)?),
        RandomEdit::RemoveRack(i) => Edit::RemoveRack(nth::<RackId, _>(&design.racks, *i)?),
        RandomEdit::MoveDevice(i, u) => {
            let id = nth(&design.devices, *i)?;
            let mut d = design.devices.get(&id)?.clone();
            d.position_u = *u;
            Edit::UpdateDevice(id, d)
        }
        RandomEdit::Relink(i, j) => {
            let id = nth(&design.links, *i)?;
            let mut l = design.links.get(&id)?.clone();
            let other = design.links.get(&nth(&design.links, *j)?)?;
            l.b = other.b.clone();
            Edit::UpdateLink(id, l)
        }
        RandomEdit::RenameDesign(name) => Edit::SetMeta {
            name: name.clone(),
            notes: design.notes.clone(),
        },
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_edits_apply_and_undo_exactly(which in 0usize..3, edits in prop::collection::vec(random_edit(), 1..6)) {
        let texts = sample_texts();
        let mut design = io::design_from_str(&texts[which], Path::new("s.ron")).unwrap();
        for e in &edits {
            let Some(edit) = to_edit(&design, e) else { continue };
            let before = design.clone();
            match edit.apply(&mut design) {
                Ok(inverse) => {
                    // The edited design still analyses and exports without panicking.
                    every_export(&design);
                    let mut undone = design.clone();
                    inverse.apply(&mut undone).unwrap();
                    prop_assert_eq!(&undone, &before);
                }
                // A refused edit leaves the design as it was.
                Err(_) => prop_assert_eq!(&design, &before),
            }
        }
    }
}

/// Kept from the harness's first run: removing a rack whose devices are cabled to each other could not be undone
/// (the inverse re-added a device before the device at its cable's other end).
#[test]
fn removing_a_rack_of_cabled_devices_undoes_exactly() {
    for text in sample_texts() {
        let mut design = io::design_from_str(&text, Path::new("s.ron")).unwrap();
        let before = design.clone();
        let rack = *design.racks.keys().next().unwrap();
        let inverse = Edit::RemoveRack(rack).apply(&mut design).unwrap();
        assert!(!design.racks.contains_key(&rack));
        inverse.apply(&mut design).unwrap();
        assert_eq!(design, before);
    }
}
