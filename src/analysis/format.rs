//! Numbers as people read them: thousands separators and dollars, shared by the text report, the exports and the
//! app so that a figure reads the same everywhere.

/// Formats a number with thousands separators and `decimals` decimals.
pub fn thousands(v: f64, decimals: usize) -> String {
    if !v.is_finite() {
        return if v.is_nan() {
            "n/a".into()
        } else {
            "∞".into()
        };
    }
    let s = format!("{:.*}", decimals, v.abs());
    let (int, frac) = s.split_once('.').map_or((s.as_str(), ""), |(a, b)| (a, b));
    let mut out = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    if v < 0.0 && v.abs() >= 0.5 * 10f64.powi(-(decimals as i32)) {
        out.insert(0, '-');
    }
    out
}

/// A count with its noun in the right number: "1 link", "2 links" (thousands separated).
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!(
        "{} {}",
        thousands(n as f64, 0),
        crate::model::text::plural(n, one, many)
    )
}

/// Formats a dollar amount with thousands separators.
pub fn usd(x: f64) -> String {
    if !x.is_finite() {
        return "n/a".into();
    }
    let neg = x < 0.0;
    let whole = x.abs().round() as u64;
    let digits = whole.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    format!("{}${out}", if neg { "-" } else { "" })
}

/// Rounds for display-stable JSON: keeps reports diff-friendly without hiding precision that matters.
pub(crate) fn round(x: f64, digits: i32) -> f64 {
    if !x.is_finite() {
        return x;
    }
    let f = 10f64.powi(digits);
    // Adding 0.0 turns -0.0 (the sum of an empty float iterator) into 0.0, so nothing prints as "-0".
    (x * f).round() / f + 0.0
}
