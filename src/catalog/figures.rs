//! A part's figures as a flat list of named numbers ("power_w", "gpu.memory_gb", "gpu.pcie.lanes"), so one editor
//! and one source check serve every kind of part; the source of each figure; and per-design overrides of price and
//! power, which remember the catalog's figure so that reports can say what was changed.

use super::{Override, Part};

/// One numeric figure of a part.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// Its name, as `sources` keys it: "power_w", "gpu.memory_gb", "gpu.pcie.lanes".
    pub path: String,
    /// The figure in the unit its name ends with (W, kg, USD, GB/s, ...), as the part holds it.
    pub value: f64,
    /// Whether it must be a whole number (units, ports, generations).
    pub integer: bool,
}

/// The figures every part has, in editor order.
pub const COMMON: [&str; 4] = ["height_u", "power_w", "weight_kg", "price_usd"];

/// The figures a design may override for its own copy of a part.
pub const OVERRIDABLE: [&str; 2] = ["price_usd", "power_w"];

/// The kind's variant name and its fields as JSON ({"Gpu": {...}} is externally tagged).
fn kind_json(part: &Part) -> Option<(String, serde_json::Value)> {
    match serde_json::to_value(&part.kind).ok()? {
        serde_json::Value::Object(m) => m.into_iter().next(),
        _ => None,
    }
}

fn numeric_paths(prefix: &str, v: &serde_json::Value, out: &mut Vec<Figure>) {
    match v {
        serde_json::Value::Number(n) => out.push(Figure {
            path: prefix.to_string(),
            value: n.as_f64().unwrap_or(0.0),
            integer: !n.is_f64(),
        }),
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                numeric_paths(&format!("{prefix}.{k}"), x, out);
            }
        }
        _ => {}
    }
}

/// Every numeric figure of a part: the common ones, the lead time when given, then the kind's (nested tables such
/// as a GPU's `pcie` give "gpu.pcie.generation"; lists such as a server's slots are not figures).
pub fn figures(part: &Part) -> Vec<Figure> {
    let mut out = vec![
        Figure {
            path: "height_u".into(),
            value: f64::from(part.height_u),
            integer: true,
        },
        Figure {
            path: "power_w".into(),
            value: part.power_w,
            integer: false,
        },
        Figure {
            path: "weight_kg".into(),
            value: part.weight_kg,
            integer: false,
        },
        Figure {
            path: "price_usd".into(),
            value: part.price_usd,
            integer: false,
        },
    ];
    if let Some(w) = part.lead_time_weeks {
        out.push(Figure {
            path: "lead_time_weeks".into(),
            value: w,
            integer: false,
        });
    }
    if let Some((tag, body)) = kind_json(part) {
        numeric_paths(&tag.to_lowercase(), &body, &mut out);
    }
    out
}

/// Why a figure could not be set.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FigureError {
    /// No such figure on this part.
    #[error("the part has no figure \"{0}\"")]
    Unknown(String),
    /// The value does not suit the figure.
    #[error("{0}")]
    Bad(String),
}

/// The part with one figure set. Whole-number figures refuse fractions; every figure refuses negatives and NaN.
pub fn set_figure(part: &Part, path: &str, value: f64) -> Result<Part, FigureError> {
    if !value.is_finite() || value < 0.0 {
        return Err(FigureError::Bad(format!(
            "{path}: {value} is not a figure (0 or more)"
        )));
    }
    let mut p = part.clone();
    match path {
        "height_u" => {
            if value.fract() != 0.0 || value > f64::from(u16::MAX) {
                return Err(FigureError::Bad(format!(
                    "height_u: {value} is not a whole number of units"
                )));
            }
            p.height_u = value as u16;
            return Ok(p);
        }
        "power_w" => p.power_w = value,
        "weight_kg" => p.weight_kg = value,
        "price_usd" => p.price_usd = value,
        "lead_time_weeks" => p.lead_time_weeks = Some(value),
        _ => return set_kind_figure(p, path, value),
    }
    Ok(p)
}

fn set_kind_figure(mut p: Part, path: &str, value: f64) -> Result<Part, FigureError> {
    let unknown = || FigureError::Unknown(path.to_string());
    let Some((tag, mut body)) = kind_json(&p) else {
        return Err(unknown());
    };
    let mut keys = path.split('.');
    if keys.next() != Some(tag.to_lowercase().as_str()) {
        return Err(unknown());
    }
    let mut at = &mut body;
    for k in keys {
        at = at.get_mut(k).ok_or_else(unknown)?;
    }
    let serde_json::Value::Number(old) = at else {
        return Err(unknown());
    };
    *at = if old.is_f64() {
        serde_json::Number::from_f64(value).map(serde_json::Value::Number)
    } else if value.fract() == 0.0 {
        Some(serde_json::Value::from(value as u64))
    } else {
        return Err(FigureError::Bad(format!(
            "{path}: {value} is not a whole number"
        )));
    }
    .ok_or_else(unknown)?;
    let mut tagged = serde_json::Map::new();
    tagged.insert(tag, body);
    p.kind = serde_json::from_value(serde_json::Value::Object(tagged))
        .map_err(|e| FigureError::Bad(format!("{path}: {e}")))?;
    Ok(p)
}

/// The source recorded for a figure: its own key, or the nearest enclosing one ("gpu.pcie" covers
/// "gpu.pcie.lanes"; a server's "server.pcie" covers its slot tables). None: the figure is an estimate.
pub fn source_of<'a>(part: &'a Part, path: &str) -> Option<&'a str> {
    let mut key = path;
    loop {
        if let Some(s) = part.source(key).filter(|s| !s.trim().is_empty()) {
            return Some(s);
        }
        match key.rfind('.') {
            Some(i) => key = key.get(..i)?,
            None => break,
        }
    }
    if path.starts_with("server.") {
        return part.source("server.pcie");
    }
    if path.starts_with("patchpanel.") {
        return part.source("patch.ports");
    }
    None
}

/// How a report shows the source of a figure: the source, or "estimate (no source given)" when it has none.
pub fn source_or_estimate(part: &Part, path: &str) -> String {
    source_of(part, path).map_or_else(|| ESTIMATE.to_string(), str::to_string)
}

/// What a report says of a figure with no source.
pub const ESTIMATE: &str = "estimate (no source given)";

/// The figures of a part with no source (0U height of a slotted part needs none).
pub fn unsourced(part: &Part) -> Vec<String> {
    figures(part)
        .into_iter()
        .filter(|f| !(f.path == "height_u" && f.value == 0.0))
        .filter(|f| source_of(part, &f.path).is_none())
        .map(|f| f.path)
        .collect()
}

/// The design's copy of a part with a figure overridden (price or power), remembering the catalog's figure and
/// source the first time. `source` becomes the figure's source; an empty one leaves the figure without a source,
/// so reports call it an estimate. Setting the catalog's figure again removes the override.
pub fn with_override(
    part: &Part,
    field: &str,
    value: f64,
    source: &str,
) -> Result<Part, FigureError> {
    if !OVERRIDABLE.contains(&field) {
        return Err(FigureError::Unknown(field.to_string()));
    }
    let current = figures(part)
        .into_iter()
        .find(|f| f.path == field)
        .map_or(0.0, |f| f.value);
    let original = part.overrides.get(field).cloned().unwrap_or(Override {
        catalog: current,
        catalog_source: part.source(field).map(str::to_string),
    });
    if (value - original.catalog).abs() <= 1e-9 * original.catalog.abs().max(1.0) {
        return Ok(reset_override(part, field));
    }
    let mut p = set_figure(part, field, value)?;
    match source.trim() {
        "" => p.sources.remove(field),
        s => p.sources.insert(field.to_string(), s.to_string()),
    };
    p.overrides.insert(field.to_string(), original);
    let mut problems = Vec::new();
    crate::io::limits::check_part("", &p, &mut problems);
    match problems.into_iter().next() {
        Some(f) => Err(FigureError::Bad(f.message)),
        None => Ok(p),
    }
}

/// The design's copy of a part with an override removed: the catalog's figure and source back.
pub fn reset_override(part: &Part, field: &str) -> Part {
    let mut p = part.clone();
    let Some(o) = p.overrides.remove(field) else {
        return p;
    };
    if let Ok(back) = set_figure(&p, field, o.catalog) {
        p = back;
    }
    match o.catalog_source {
        Some(s) => p.sources.insert(field.to_string(), s),
        None => p.sources.remove(field),
    };
    p
}

/// What a report says of a part's overrides: "price overridden (catalog $30,000.00)", "power overridden (catalog
/// 700 W)"; empty when the design uses the catalog's figures.
pub fn override_notes(part: &Part) -> Vec<String> {
    part.overrides
        .iter()
        .map(|(field, o)| match field.as_str() {
            "price_usd" => format!("price overridden (catalog ${:.2})", o.catalog),
            "power_w" => format!("power overridden (catalog {} W)", o.catalog),
            other => format!("{other} overridden (catalog {})", o.catalog),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gpu() -> Option<Part> {
        super::super::Catalog::builtin()
            .ok()?
            .get("h100-sxm")
            .cloned()
    }

    #[test]
    fn figures_set_and_sources() {
        let Some(p) = gpu() else {
            panic!("no h100-sxm");
        };
        let f = figures(&p);
        assert!(f.iter().any(|x| x.path == "gpu.pcie.lanes" && x.integer));
        assert!(
            f.iter()
                .any(|x| x.path == "gpu.memory_gb" && x.value == 80.0)
        );
        let q = set_figure(&p, "gpu.memory_gb", 96.0).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            figures(&q)
                .iter()
                .any(|x| x.path == "gpu.memory_gb" && x.value == 96.0)
        );
        assert!(set_figure(&p, "gpu.pcie.lanes", 8.5).is_err());
        assert!(set_figure(&p, "gpu.nope", 1.0).is_err());
        assert!(source_of(&p, "gpu.pcie.lanes").is_some());
        assert!(unsourced(&p).is_empty());
    }

    #[test]
    fn override_and_reset() {
        let Some(p) = gpu() else {
            panic!("no h100-sxm");
        };
        let o = with_override(&p, "price_usd", 25_000.0, "").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(o.price_usd, 25_000.0);
        assert_eq!(source_or_estimate(&o, "price_usd"), ESTIMATE);
        assert_eq!(
            o.overrides.get("price_usd").map(|x| x.catalog),
            Some(p.price_usd)
        );
        // A second override keeps the catalog's figure; setting it back removes the override.
        let o2 =
            with_override(&o, "price_usd", 26_000.0, "quote 42").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            o2.overrides.get("price_usd").map(|x| x.catalog),
            Some(p.price_usd)
        );
        let back =
            with_override(&o2, "price_usd", p.price_usd, "").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back, p);
        assert_eq!(reset_override(&o2, "price_usd"), p);
    }
}
