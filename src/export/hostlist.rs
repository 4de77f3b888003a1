//! Slurm-style compressed host lists: `dgx-01, dgx-02, dgx-03, dgx-05` becomes `dgx-[01-03,05]`. Names are grouped
//! by the text before their trailing digits and the width of those digits (so `n9` and `n10` stay apart, as Slurm's
//! zero-padded ranges need), in order of first appearance.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Splits a name into the text before its trailing digits and those digits.
fn split(name: &str) -> Option<(&str, &str)> {
    let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits > 18 {
        return None;
    }
    Some(name.split_at(name.len() - digits))
}

/// Compresses a list of host names into Slurm's hostlist form. Duplicates are kept once.
pub fn compress(names: &[&str]) -> String {
    // (prefix, width) -> numbers, in order of first appearance.
    let mut order: Vec<(String, usize)> = Vec::new();
    let mut numbers: BTreeMap<(String, usize), Vec<u64>> = BTreeMap::new();
    let mut plain: Vec<String> = Vec::new();
    for name in names {
        // Brackets and commas would be read as hostlist syntax: keep such names as they are.
        let special = name.contains(['[', ']', ',']);
        match split(name).filter(|_| !special) {
            Some((prefix, digits)) => {
                let Ok(v) = digits.parse::<u64>() else {
                    plain.push((*name).to_string());
                    continue;
                };
                let key = (prefix.to_string(), digits.len());
                let entry = numbers.entry(key.clone()).or_default();
                if entry.is_empty() {
                    order.push(key);
                }
                entry.push(v);
            }
            None => plain.push((*name).to_string()),
        }
    }
    let mut parts: Vec<String> = Vec::new();
    for key in order {
        let Some(nums) = numbers.get_mut(&key) else {
            continue;
        };
        nums.sort_unstable();
        nums.dedup();
        let (prefix, width) = key;
        if let [only] = nums.as_slice() {
            parts.push(format!("{prefix}{only:0width$}"));
            continue;
        }
        let mut ranges = String::new();
        let mut i = 0;
        while let Some(&start) = nums.get(i) {
            let mut end = start;
            while nums.get(i + 1) == Some(&(end + 1)) {
                end += 1;
                i += 1;
            }
            if !ranges.is_empty() {
                ranges.push(',');
            }
            if end == start {
                let _ = write!(ranges, "{start:0width$}");
            } else {
                let _ = write!(ranges, "{start:0width$}-{end:0width$}");
            }
            i += 1;
        }
        parts.push(format!("{prefix}[{ranges}]"));
    }
    plain.sort();
    plain.dedup();
    parts.extend(plain);
    parts.join(",")
}

#[cfg(test)]
mod tests {
    use super::compress;

    #[test]
    fn ranges_and_singletons() {
        assert_eq!(
            compress(&["dgx-01", "dgx-02", "dgx-03", "dgx-05"]),
            "dgx-[01-03,05]"
        );
        assert_eq!(compress(&["dgx-0007"]), "dgx-0007");
        assert_eq!(compress(&["a1", "a2", "b", "a3"]), "a[1-3],b");
        // Different digit widths stay apart: Slurm pads ranges to the width of their bounds.
        assert_eq!(compress(&["n9", "n10", "n11"]), "n9,n[10-11]");
        assert_eq!(compress(&[]), "");
    }
}
