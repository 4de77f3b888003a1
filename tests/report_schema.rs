//! docs/report.schema.json, the JSON Schema of `racksmith analyze --format json`, is up to date and every sample's
//! report validates against it.
//!
//! The schema is inferred from the reports themselves, the union over every sample design and template size: each
//! key's JSON types (a field that is null in one report and a number in another is `["number", "null"]`), objects
//! with their properties and the keys present in every report as `required`, arrays with the schema of all their
//! items. Keys whose names are data (BTreeMaps such as `capex_by_category`) are kept as objects with
//! `additionalProperties`. When the report gains a key, regenerate with
//! `UPDATE_SCHEMA=1 cargo test --test report_schema` and commit the file.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use serde_json::{Map, Value, json};
use std::collections::BTreeSet;

/// Objects whose keys are names from the design (a map), not fields.
const MAPS: &[&str] = &["capex_by_category"];

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Everything seen at one place of the reports.
#[derive(Default)]
struct Seen {
    types: BTreeSet<&'static str>,
    /// Object properties: each with what was seen, and in how many of the objects it appeared.
    props: std::collections::BTreeMap<String, (Seen, usize)>,
    objects: usize,
    items: Option<Box<Seen>>,
    map_values: Option<Box<Seen>>,
}

impl Seen {
    fn add(&mut self, key: &str, v: &Value) {
        self.types.insert(type_name(v));
        match v {
            Value::Object(m) if MAPS.contains(&key) => {
                let s = self.map_values.get_or_insert_with(Default::default);
                for x in m.values() {
                    s.add("", x);
                }
            }
            Value::Object(m) => {
                self.objects += 1;
                for (k, x) in m {
                    let e = self.props.entry(k.clone()).or_default();
                    e.0.add(k, x);
                    e.1 += 1;
                }
            }
            Value::Array(a) => {
                let s = self.items.get_or_insert_with(Default::default);
                for x in a {
                    s.add(key, x);
                }
            }
            _ => {}
        }
    }

    fn schema(&self) -> Value {
        let mut types: Vec<&str> = self.types.iter().copied().collect();
        // An integer in one report and a fraction in another is a number.
        if types.contains(&"number") {
            types.retain(|t| *t != "integer");
        }
        let mut out = Map::new();
        out.insert(
            "type".into(),
            if types.len() == 1 {
                json!(types[0])
            } else {
                json!(types)
            },
        );
        if let Some(m) = &self.map_values {
            out.insert("additionalProperties".into(), m.schema());
        } else if self.types.contains("object") {
            let props: Map<String, Value> = self
                .props
                .iter()
                .map(|(k, (s, _))| (k.clone(), s.schema()))
                .collect();
            let required: Vec<&String> = self
                .props
                .iter()
                .filter(|(_, (_, n))| *n == self.objects)
                .map(|(k, _)| k)
                .collect();
            out.insert("properties".into(), Value::Object(props));
            out.insert("required".into(), json!(required));
            out.insert("additionalProperties".into(), json!(false));
        }
        if let Some(items) = &self.items {
            out.insert("items".into(), items.schema());
        }
        Value::Object(out)
    }
}

/// The reports the schema is drawn from: every sample design, and SuperPODs of 2 and 4 SU (three fabric tiers and
/// more report sections filled).
fn reports() -> Vec<Value> {
    let c = racksmith::catalog::Catalog::builtin().unwrap();
    let mut designs: Vec<racksmith::model::Design> = racksmith::samples::SAMPLES
        .iter()
        .map(|n| racksmith::samples::sample(n).unwrap())
        .collect();
    designs.push(racksmith::samples::superpod_h100(&c, 2).unwrap());
    designs
        .iter()
        .map(|d| serde_json::to_value(racksmith::analysis::analyze(d)).unwrap())
        .collect()
}

fn schema_of(reports: &[Value]) -> Value {
    let mut seen = Seen::default();
    for r in reports {
        seen.add("", r);
    }
    let mut s = seen.schema();
    let m = s.as_object_mut().unwrap();
    m.insert(
        "$schema".into(),
        json!("https://json-schema.org/draft/2020-12/schema"),
    );
    m.insert(
        "title".into(),
        json!("Racksmith analysis report (racksmith analyze --format json)"),
    );
    m.insert(
        "description".into(),
        json!("Inferred from the reports of every sample design by tests/report_schema.rs; see docs/report-json.md."),
    );
    s
}

/// Checks a value against the schema subset written above: type, properties, required, additionalProperties,
/// items. Returns the paths that do not conform.
fn validate(schema: &Value, v: &Value, path: &str, out: &mut Vec<String>) {
    let ty = type_name(v);
    let ok = match &schema["type"] {
        Value::String(t) => t == ty || (t == "number" && ty == "integer"),
        Value::Array(ts) => ts
            .iter()
            .any(|t| t == ty || (t == "number" && ty == "integer")),
        _ => true,
    };
    if !ok {
        out.push(format!("{path}: {ty}, expected {}", schema["type"]));
        return;
    }
    match v {
        Value::Object(m) => {
            if let Some(req) = schema["required"].as_array() {
                for k in req {
                    if !m.contains_key(k.as_str().unwrap()) {
                        out.push(format!("{path}: missing {k}"));
                    }
                }
            }
            for (k, x) in m {
                match schema["properties"].get(k) {
                    Some(s) => validate(s, x, &format!("{path}.{k}"), out),
                    None => match &schema["additionalProperties"] {
                        Value::Bool(false) => out.push(format!("{path}.{k}: not in the schema")),
                        s @ Value::Object(_) => validate(s, x, &format!("{path}.{k}"), out),
                        _ => {}
                    },
                }
            }
        }
        Value::Array(a) => {
            if let Some(items) = schema.get("items") {
                for (i, x) in a.iter().enumerate() {
                    validate(items, x, &format!("{path}[{i}]"), out);
                }
            }
        }
        _ => {}
    }
}

#[test]
fn the_report_schema_is_up_to_date_and_every_sample_report_validates() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/report.schema.json");
    let reports = reports();
    let fresh = schema_of(&reports);
    let text = format!("{}\n", serde_json::to_string_pretty(&fresh).unwrap());
    if std::env::var_os("UPDATE_SCHEMA").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let committed: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert!(
        committed == fresh,
        "docs/report.schema.json is out of date: run UPDATE_SCHEMA=1 cargo test --test report_schema"
    );
    for r in &reports {
        let mut problems = Vec::new();
        validate(&committed, r, "report", &mut problems);
        assert!(problems.is_empty(), "{problems:?}");
    }
    // The validator is not a formality: a report with a key renamed or of the wrong type fails.
    let mut bad = reports[0].clone();
    bad["summary"]["gpus"] = json!("many");
    bad["latency"]["renamed"] = json!(1);
    let mut problems = Vec::new();
    validate(&committed, &bad, "report", &mut problems);
    assert_eq!(problems.len(), 2, "{problems:?}");
}

#[test]
fn report_json_md_names_every_top_level_key_and_the_documented_ones() {
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/report-json.md"),
    )
    .unwrap();
    let r = &reports()[0];
    for k in r.as_object().unwrap().keys() {
        assert!(
            doc.contains(&format!("| `{k}` |")),
            "docs/report-json.md has no row for `{k}`"
        );
    }
    // Every key of the schema, at any depth, is named in the document.
    fn keys(schema: &Value, path: &str, out: &mut Vec<String>) {
        if let Some(props) = schema.get("properties").and_then(Value::as_object) {
            for (k, v) in props {
                out.push(format!("{path}.{k}"));
                keys(v, &format!("{path}.{k}"), out);
            }
        }
        if let Some(items) = schema.get("items") {
            keys(items, &format!("{path}[]"), out);
        }
    }
    let mut all = Vec::new();
    keys(&schema_of(&reports()), "report", &mut all);
    let undocumented: Vec<&String> = all
        .iter()
        .filter(|p| {
            let k = p.rsplit('.').next().unwrap().trim_end_matches("[]");
            !doc.contains(&format!("`{k}`"))
                && !doc.contains(&format!("`{k}[]`"))
                && !doc.contains(&format!("`{k}["))
        })
        .collect();
    assert!(
        undocumented.is_empty(),
        "not in docs/report-json.md: {undocumented:?}"
    );
    for k in ["latency.training", "cost.training_job_usd", "switch_hops"] {
        let leaf = k.rsplit('.').next().unwrap();
        assert!(
            doc.contains(&format!("`{leaf}`")),
            "docs/report-json.md does not document {k}"
        );
    }
}
