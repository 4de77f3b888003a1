//! The JSON Schemas of what the tool writes for machines, generated from the Rust types with schemars:
//! docs/report.schema.json (`racksmith analyze --format json`), docs/compare.schema.json (`racksmith compare
//! --format json`) and docs/whatif.schema.json (`racksmith whatif --format json`).
//!
//! Each schema is generated from the type the command serialises (doc comments become descriptions, enums list their
//! values, an `Option` is its type or null), so no field's type depends on what a few example reports happened to
//! hold. The tests fail when a committed schema differs from the generated one, and validate, with a JSON Schema
//! validator (draft 2020-12, as a user's pipeline would), the reports of every sample, every template at its smallest
//! and at a larger size, sized training and serving designs, the planning questions' designs, and designs with and
//! without sites, scenarios, serving and training jobs. After a change to a report type, regenerate with
//! `UPDATE_SCHEMA=1 cargo test --test report_schema` and commit the files.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::analysis::{self, Report, compare::Comparison, whatif::Impact};
use racksmith::catalog::Catalog;
use racksmith::model::Design;
use racksmith::templates;
use schemars::generate::SchemaSettings;
use schemars::transform::RecursiveTransform;
use schemars::{JsonSchema, Schema};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The schema settings every committed schema is generated with.
///
/// - Draft 2020-12, describing what is serialised (a field skipped when empty is optional, every other is required).
/// - Every number may be null: serde_json writes a non-finite float (an infinite shortfall when a GPU has no network
///   at all) as `null`, whatever the field (docs/report-json.md says so).
/// - Objects with named fields admit no other keys, so a renamed key fails validation instead of passing unseen.
fn settings() -> SchemaSettings {
    SchemaSettings::draft2020_12()
        .for_serialize()
        .with_transform(RecursiveTransform(|s: &mut Schema| {
            nullable_numbers(s);
            closed_objects(s);
        }))
}

fn nullable_numbers(s: &mut Schema) {
    let Some(obj) = s.as_object_mut() else { return };
    match obj.get_mut("type") {
        Some(t @ Value::String(_)) if t == "number" => *t = json!(["number", "null"]),
        Some(Value::Array(ts))
            if ts.iter().any(|t| t == "number") && !ts.iter().any(|t| t == "null") =>
        {
            ts.push(json!("null"));
        }
        _ => {}
    }
}

fn closed_objects(s: &mut Schema) {
    let Some(obj) = s.as_object_mut() else { return };
    if obj.contains_key("properties") && !obj.contains_key("additionalProperties") {
        obj.insert("additionalProperties".into(), json!(false));
    }
}

fn schema_for<T: JsonSchema>(title: &str, description: &str) -> Value {
    let mut s = settings().into_generator().into_root_schema_for::<T>();
    s.insert("title".into(), json!(title));
    s.insert("description".into(), json!(description));
    s.to_value()
}

/// The committed schemas: (file under docs/, the generated schema).
fn schemas() -> Vec<(&'static str, Value)> {
    vec![
        (
            "report.schema.json",
            schema_for::<Report>(
                "Racksmith analysis report (racksmith analyze --format json)",
                "Generated from the report's Rust types by tests/report_schema.rs; see docs/report-json.md.",
            ),
        ),
        (
            "compare.schema.json",
            schema_for::<Comparison>(
                "Racksmith comparison of two designs (racksmith compare --format json)",
                "Generated from the comparison's Rust types by tests/report_schema.rs; see docs/report-json.md.",
            ),
        ),
        (
            "whatif.schema.json",
            schema_for::<Vec<Impact>>(
                "Racksmith single-failure impacts (racksmith whatif --format json)",
                "Generated from the impact's Rust types by tests/report_schema.rs; see docs/report-json.md.",
            ),
        ),
    ]
}

fn docs(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs")
        .join(file)
}

fn committed(file: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(docs(file)).unwrap()).unwrap()
}

#[test]
fn the_committed_schemas_are_the_generated_ones() {
    let mut stale = Vec::new();
    for (file, fresh) in schemas() {
        if std::env::var_os("UPDATE_SCHEMA").is_some() {
            let text = format!("{}\n", serde_json::to_string_pretty(&fresh).unwrap());
            std::fs::write(docs(file), text).unwrap();
        }
        if committed(file) != fresh {
            stale.push(file);
        }
    }
    assert!(
        stale.is_empty(),
        "out of date: {stale:?}; run UPDATE_SCHEMA=1 cargo test --test report_schema"
    );
}

/// The generated schema types every optional field as its type or null, not as whatever an example held: the three
/// fields a GB200 NVL72 rack's report holds differently from an air-cooled rack's are typed for both.
#[test]
fn optional_fields_are_their_type_or_null() {
    let s = committed("report.schema.json");
    let rack = &s["$defs"]["RackCooling"]["properties"];
    for k in ["air_limit_kw", "airflow_m3_h", "coolant_l_min"] {
        let types = rack[k]["type"]
            .as_array()
            .unwrap_or_else(|| panic!("{k}: {}", rack[k]));
        assert!(
            types.contains(&json!("number")) && types.contains(&json!("null")),
            "{k}: {types:?}"
        );
    }
    // No field anywhere is typed null alone (the inferred schema had ten such).
    fn walk(v: &Value, path: &str, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                if let Some(Value::Object(props)) = m.get("properties") {
                    for (k, p) in props {
                        if p.get("type") == Some(&json!("null")) {
                            out.push(format!("{path}/{k}"));
                        }
                    }
                }
                for (k, x) in m {
                    walk(x, &format!("{path}/{k}"), out);
                }
            }
            Value::Array(a) => a
                .iter()
                .enumerate()
                .for_each(|(i, x)| walk(x, &format!("{path}/{i}"), out)),
            _ => {}
        }
    }
    for (file, _) in schemas() {
        let mut only_null = Vec::new();
        walk(&committed(file), "", &mut only_null);
        assert!(
            only_null.is_empty(),
            "{file}: typed null alone at {only_null:?}"
        );
    }
    // Enums list their values.
    let severity = &s["$defs"]["Severity"];
    let values: Vec<&Value> = severity["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| &v["const"])
        .collect();
    assert_eq!(
        values,
        [&json!("Error"), &json!("Warning"), &json!("Info")],
        "{severity}"
    );
}

/// Every design the tool can make from its samples, templates, sizing and planning questions, with the case each
/// stands for.
fn designs() -> Vec<(String, Design)> {
    let c = Catalog::builtin().unwrap();
    let mut out: Vec<(String, Design)> = racksmith::samples::SAMPLES
        .iter()
        .map(|n| {
            (
                format!("sample {n}"),
                racksmith::samples::sample(n).unwrap(),
            )
        })
        .collect();
    // Each template at its smallest size and at a larger one (more tiers, more sections filled).
    let sizes: &[(&str, &[(&str, &str)])] = &[
        ("superpod-h100", &[("su", "1")]),
        ("superpod-h100", &[("su", "4")]),
        ("superpod-b200", &[("su", "1")]),
        ("superpod-b200", &[("su", "2")]),
        ("leaf-spine", &[("servers", "1")]),
        (
            "leaf-spine",
            &[
                ("servers", "48"),
                ("fabric", "roce"),
                ("oversubscription", "2"),
            ],
        ),
        ("leaf-spine", &[("servers", "8"), ("gpu", "a100-sxm")]),
        ("nvl72", &[("racks", "1")]),
        ("nvl72", &[("racks", "4")]),
        ("inference-row", &[("servers", "1")]),
        ("inference-row", &[("servers", "24"), ("gpu", "t4")]),
    ];
    for (name, opts) in sizes {
        let opts: Vec<(String, String)> = opts
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let d =
            templates::generate(&c, name, &opts).unwrap_or_else(|e| panic!("{name} {opts:?}: {e}"));
        out.push((format!("template {name} {opts:?}"), d));
    }
    // Every template the list names, at its defaults (a template added later is covered without a change here).
    for t in templates::list() {
        out.push((
            format!("template {} (defaults)", t.name),
            templates::generate(&c, t.name, &[]).unwrap(),
        ));
    }
    // The planning questions' designs: sized for serving, for training and for a budget.
    for s in templates::scenarios::list() {
        let a = templates::scenarios::answer(&c, s.name, &[]).unwrap();
        out.push((format!("planning question {}", s.name), a.design));
    }
    // A design with planning scenarios saved in it, and the sites sample without its sites.
    let mut with_scenarios = racksmith::samples::sample("dgx-h100-single").unwrap();
    with_scenarios.scenarios.push(racksmith::model::Scenario {
        name: "A100".into(),
        gpu: Some(racksmith::model::PartId::new("a100-sxm")),
        ..Default::default()
    });
    out.push(("design with scenarios".into(), with_scenarios));
    let mut no_sites = racksmith::samples::sample("l40s-two-regions").unwrap();
    assert!(
        !no_sites.sites.is_empty(),
        "the two-regions sample has sites"
    );
    no_sites.sites.clear();
    for r in no_sites.racks.values_mut() {
        r.site.clear();
    }
    out.push(("l40s-two-regions without its sites".into(), no_sites));
    out
}

/// Sized designs as the command line writes them: training and serving, so the report carries a training job and a
/// service level.
fn sized_designs() -> Vec<(String, Design)> {
    let dir = tempfile::tempdir().unwrap();
    let runs: &[(&str, &[&str])] = &[
        (
            "training",
            &[
                "size", "training", "--params", "7e9", "--tokens", "1e11", "--days", "20",
            ],
        ),
        (
            "serving",
            &[
                "size",
                "serving",
                "--requests-per-s",
                "400",
                "--p99-ms",
                "500",
                "--replica-rps",
                "20",
            ],
        ),
    ];
    runs.iter()
        .map(|(what, args)| {
            let path = dir.path().join(format!("{what}.ron"));
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_racksmith"))
                .args(*args)
                .arg("-o")
                .arg(&path)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{what}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            (format!("sized {what}"), racksmith::io::load(&path).unwrap())
        })
        .collect()
}

fn validator(file: &str) -> jsonschema::Validator {
    jsonschema::draft202012::new(&committed(file))
        .unwrap_or_else(|e| panic!("{file} is not a valid schema: {e}"))
}

fn errors(v: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    v.iter_errors(instance)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

#[test]
fn every_report_the_tool_makes_validates() {
    let v = validator("report.schema.json");
    let mut designs = designs();
    designs.extend(sized_designs());
    let mut seen = (false, false, false, false);
    for (what, d) in &designs {
        let report = analysis::analyze(d);
        seen.0 |= !report.sites.sites.is_empty();
        seen.1 |= report.latency.training.is_some();
        seen.2 |= report.latency.serving.is_some();
        seen.3 |= !d.scenarios.is_empty();
        let problems = errors(&v, &serde_json::to_value(&report).unwrap());
        assert!(problems.is_empty(), "{what}: {problems:#?}");
    }
    assert_eq!(
        seen,
        (true, true, true, true),
        "(sites, training, serving, scenarios) all covered"
    );
}

#[test]
fn compare_and_whatif_outputs_validate() {
    let compare = validator("compare.schema.json");
    let whatif = validator("whatif.schema.json");
    let designs = designs();
    let reports: Vec<(&Design, Report)> = designs
        .iter()
        .take(7)
        .map(|(_, d)| (d, analysis::analyze(d)))
        .collect();
    for (i, (da, a)) in reports.iter().enumerate() {
        let (db, b) = &reports[(i + 1) % reports.len()];
        let c = analysis::compare::compare((da, a), (db, b));
        let problems = errors(&compare, &serde_json::to_value(&c).unwrap());
        assert!(problems.is_empty(), "compare {i}: {problems:#?}");
    }
    let mut impacts_seen = 0;
    for (what, d) in designs.iter().take(7) {
        let before = analysis::analyze(d);
        let impacts = analysis::whatif::n_minus_one(d, &before);
        impacts_seen += impacts.len();
        let problems = errors(&whatif, &serde_json::to_value(&impacts).unwrap());
        assert!(problems.is_empty(), "whatif {what}: {problems:#?}");
    }
    assert!(
        impacts_seen > 0,
        "some sample has a single point of failure to describe"
    );
}

/// The validator is not a formality: a report with a key renamed, a figure of the wrong type or a required key
/// missing fails, and so does the NVL72 report with its cooling figures' types swapped.
#[test]
fn a_report_that_differs_from_its_schema_fails() {
    let v = validator("report.schema.json");
    let good = serde_json::to_value(analysis::analyze(
        &racksmith::samples::sample("dgx-h100-single").unwrap(),
    ))
    .unwrap();
    assert!(errors(&v, &good).is_empty());
    let mut bad = good.clone();
    bad["summary"]["gpus"] = json!("many");
    assert_eq!(errors(&v, &bad).len(), 1, "{:?}", errors(&v, &bad));
    let mut bad = good.clone();
    bad["latency"]["renamed"] = json!(1);
    assert_eq!(errors(&v, &bad).len(), 1, "{:?}", errors(&v, &bad));
    let mut bad = good.clone();
    bad["power"].as_object_mut().unwrap().remove("it_power_w");
    assert_eq!(errors(&v, &bad).len(), 1, "{:?}", errors(&v, &bad));
    let mut bad = good;
    bad["findings"] = json!([{"severity": "Fatal"}]);
    assert!(!errors(&v, &bad).is_empty());
}

/// Every key of the report's schema, at any depth, is named in docs/report-json.md, and so is each top-level key
/// in its table.
#[test]
fn report_json_md_names_every_key() {
    let doc = std::fs::read_to_string(docs("report-json.md")).unwrap();
    let s = committed("report.schema.json");
    for k in s["properties"].as_object().unwrap().keys() {
        assert!(
            doc.contains(&format!("| `{k}` |")),
            "docs/report-json.md has no row for `{k}`"
        );
    }
    let mut undocumented: Vec<String> = Vec::new();
    for (file, schema) in schemas() {
        let mut keys = Vec::new();
        collect_keys(&schema, &mut keys);
        for k in keys {
            if !doc.contains(&format!("`{k}`"))
                && !doc.contains(&format!("`{k}[]`"))
                && !doc.contains(&format!("`{k}["))
            {
                undocumented.push(format!("{file}: {k}"));
            }
        }
    }
    undocumented.sort();
    undocumented.dedup();
    assert!(
        undocumented.is_empty(),
        "not in docs/report-json.md: {undocumented:#?}"
    );
}

/// Property names anywhere in a schema, its definitions included.
fn collect_keys(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::Object(props)) = m.get("properties") {
                out.extend(props.keys().cloned());
            }
            m.values().for_each(|x| collect_keys(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| collect_keys(x, out)),
        _ => {}
    }
}

/// Fields that may be absent (skipped when empty) or null by design (an `Option`), as `(type, field)`: read from a
/// schema generated without the nullable-numbers rule, where only an `Option` admits null.
fn optional_fields<T: JsonSchema>() -> Vec<(String, String)> {
    let s = SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value();
    let mut out = Vec::new();
    let mut types: Vec<(String, &Value)> = vec![(T::schema_name().into_owned(), &s)];
    if let Some(Value::Object(defs)) = s.get("$defs") {
        types.extend(defs.iter().map(|(k, v)| (k.clone(), v)));
    }
    for (name, t) in types {
        let required: Vec<&Value> = t
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().collect())
            .unwrap_or_default();
        let Some(Value::Object(props)) = t.get("properties") else {
            continue;
        };
        for (k, p) in props {
            let null_type = |x: &Value| match x.get("type") {
                Some(Value::String(t)) => t == "null",
                Some(Value::Array(ts)) => ts.iter().any(|t| t == "null"),
                _ => false,
            };
            let nullable = null_type(p)
                || p.get("anyOf")
                    .and_then(Value::as_array)
                    .is_some_and(|a| a.iter().any(null_type));
            if nullable || !required.contains(&&json!(k)) {
                out.push((name.clone(), k.clone()));
            }
        }
    }
    out
}

/// docs/report-json.md's section on absent and null keys names every field that may be absent or null by design,
/// in the report, the comparison and the what-if output.
#[test]
fn report_json_md_says_which_keys_may_be_absent_or_null() {
    let doc = std::fs::read_to_string(docs("report-json.md")).unwrap();
    let section = doc
        .split("## Keys that may be absent or null")
        .nth(1)
        .expect("docs/report-json.md has a section \"Keys that may be absent or null\"");
    let section = section.split("\n## ").next().unwrap_or(section);
    let mut fields = optional_fields::<Report>();
    fields.extend(optional_fields::<Comparison>());
    fields.extend(optional_fields::<Vec<Impact>>());
    assert!(
        fields
            .iter()
            .any(|(t, k)| t == "RackCooling" && k == "coolant_l_min"),
        "{fields:?}"
    );
    let missing: Vec<String> = fields
        .iter()
        .filter(|(t, k)| !section.contains(&format!("`{t}.{k}`")))
        .map(|(t, k)| format!("`{t}.{k}`"))
        .collect();
    assert!(
        missing.is_empty(),
        "not in the section: {}",
        missing.join(", ")
    );
}
