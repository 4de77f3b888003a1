//! The built-in catalog: it loads, holds the parts the product promises, and every figure has a source.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::catalog::{Catalog, Category, PartKind};

fn numeric_paths(prefix: &str, v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Number(_) => out.push(prefix.to_string()),
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                let p = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                numeric_paths(&p, x, out);
            }
        }
        _ => {}
    }
}

#[test]
fn required_parts_exist() {
    let c = Catalog::builtin().unwrap();
    for id in [
        "a100-sxm",
        "a100-pcie",
        "h100-sxm",
        "h100-pcie",
        "h200-sxm",
        "b200-sxm",
        "l40s",
        "t4",
        "dgx-a100",
        "dgx-h100",
        "hgx-h100-8gpu",
        "pcie-gpu-4u",
        "cx6-hdr",
        "cx7-ndr",
        "bf3-b3140l",
        "bf3-b3220",
        "qm8700",
        "qm9700",
        "sn5600",
        "sn2201",
        "ddn-ai400x2",
        "nvme-server-2u",
        "rack-42u",
        "rack-48u",
        "ib-ndr-optic",
        "eth-400g-optic",
    ] {
        assert!(c.get(id).is_some(), "catalog lacks {id}");
    }
    for cat in Category::ALL {
        assert!(c.in_category(cat).next().is_some(), "no part in {cat:?}");
    }
}

#[test]
fn every_figure_has_a_source() {
    let c = Catalog::builtin().unwrap();
    let mut missing = Vec::new();
    for (id, part) in &c.parts {
        let mut paths = Vec::new();
        let kind = serde_json::to_value(&part.kind).unwrap();
        // Externally tagged: {"Gpu": {...}}; figures are named "gpu.field".
        if let serde_json::Value::Object(m) = &kind {
            for (tag, body) in m {
                numeric_paths(&tag.to_lowercase(), body, &mut paths);
            }
        }
        for f in ["power_w", "weight_kg", "price_usd", "height_u"] {
            paths.push(f.to_string());
        }
        for p in paths {
            // A figure is covered by its own key or by its parent's ("gpu.pcie" covers "gpu.pcie.lanes");
            // servers document their slot tables under "server.pcie" and "server.nic_slots".
            let covered = part
                .sources
                .keys()
                .any(|k| p == *k || p.starts_with(&format!("{k}.")))
                || (p.starts_with("server.") && part.sources.contains_key("server.pcie"))
                || (p == "height_u" && part.height_u == 0)
                || (p.starts_with("patchpanel.") && part.sources.contains_key("patch.ports"));
            if !covered {
                missing.push(format!("{id}: {p}"));
            }
        }
        assert!(
            part.sources.values().all(|s| !s.trim().is_empty()),
            "{id} has an empty source"
        );
    }
    assert!(
        missing.is_empty(),
        "figures without a source:\n{}",
        missing.join("\n")
    );
}

#[test]
fn figures_are_plausible() {
    let c = Catalog::builtin().unwrap();
    for (id, part) in &c.parts {
        assert!(
            part.price_usd >= 0.0 && part.power_w >= 0.0 && part.weight_kg >= 0.0,
            "{id}"
        );
        if let PartKind::Gpu(g) = &part.kind {
            assert!(
                g.memory_gb > 0.0 && g.memory_bw_gbyte_s > 0.0 && g.reference_network_gbps > 0.0,
                "{id}"
            );
        }
    }
    // NVIDIA H100 datasheet: H100 SXM 700 W, NVLink 4 at 450 GB/s per direction; DGX H100 user guide: 8U, 10.2 kW
    // all in.
    let h100 = c.get("h100-sxm").unwrap();
    assert_eq!(h100.power_w, 700.0);
    let dgx = c.get("dgx-h100").unwrap();
    assert_eq!(dgx.height_u, 8);
    assert_eq!(
        dgx.power_w + 8.0 * 700.0 + 8.0 * 25.0 + 2.0 * 75.0,
        10_200.0
    );
}

/// Every file a reviewer reads a source or a formula in: the catalog, the sample designs, the docs and the code.
fn reviewed_files(dir: &std::path::Path, ext: &str, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            reviewed_files(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

#[test]
fn sources_and_docs_point_inside_the_repository_or_to_public_documents() {
    // The private reference notes (hardware and formula notes kept outside the repository) are not something a
    // reviewer holding the design can open: sources cite the public document, or docs/analysis.md for our models.
    let outside = [
        concat!("shared", "/"),
        concat!("hardware", ".md"),
        concat!("formulas", ".md"),
    ];
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("assets").join("catalog.ron")];
    reviewed_files(&root.join("sample-designs"), "ron", &mut files);
    reviewed_files(&root.join("docs"), "md", &mut files);
    reviewed_files(&root.join("src"), "rs", &mut files);
    assert!(files.len() > 20, "{files:?}");
    let mut bad = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (i, line) in text.lines().enumerate() {
            if outside.iter().any(|o| line.contains(o)) {
                bad.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
            }
        }
    }
    // The README and the CI script stand alone on a fresh clone: neither points outside the repository.
    for name in ["README.md", ".ci/run"] {
        let text = std::fs::read_to_string(root.join(name)).unwrap();
        for (i, line) in text.lines().enumerate() {
            if outside.iter().any(|o| line.contains(o)) {
                bad.push(format!("{name}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    // And every source string of the built-in catalog, as loaded.
    let c = Catalog::builtin().unwrap();
    for (id, part) in &c.parts {
        for (field, source) in &part.sources {
            if outside.iter().any(|o| source.contains(o)) {
                bad.push(format!("catalog {id} {field}: {source}"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "sources pointing outside the repository:\n{}",
        bad.join("\n")
    );
}

mod user_catalog {
    fn html(d: &racksmith::model::Design, r: &racksmith::analysis::Report) -> String {
        let opts = racksmith::export::Options::default();
        let bytes =
            racksmith::export::export(d, r, racksmith::export::Format::Html, &opts).unwrap();
        String::from_utf8(bytes).unwrap()
    }

    use racksmith::catalog::figures::{self, ESTIMATE};
    use racksmith::catalog::user::{self, Origin};
    use racksmith::catalog::{Catalog, PartKind};
    use racksmith::model::PartId;

    #[test]
    fn edits_round_trip_through_the_file() {
        let dir = tempfile::tempdir().unwrap();
        // A folder that does not exist yet: saving makes it.
        let path = dir.path().join("racksmith").join(user::FILE_NAME);
        assert!(user::load(&path).unwrap().parts.is_empty());
        let builtin = Catalog::builtin().unwrap();
        let mut mine = Catalog::default();
        // A duplicated GPU with an edited figure and its source, and an edited built-in switch.
        let mut gpu = builtin.get("h100-sxm").unwrap().clone();
        gpu.name = "H100 SXM (our quote)".into();
        gpu = figures::set_figure(&gpu, "price_usd", 27_500.0).unwrap();
        gpu.sources
            .insert("price_usd".into(), "vendor quote Q-123, 2026-11".into());
        gpu = figures::set_figure(&gpu, "gpu.memory_gb", 94.0).unwrap();
        mine.parts
            .insert(PartId::new("h100-sxm-quote"), gpu.clone());
        let sw = figures::set_figure(builtin.get("qm9700").unwrap(), "power_w", 1_720.0).unwrap();
        mine.parts.insert(PartId::new("qm9700"), sw);
        user::save(&path, &mine).unwrap();
        let back = user::load(&path).unwrap();
        assert_eq!(back, mine);
        // Saving again writes the same bytes (stable, diff-friendly).
        let text = std::fs::read_to_string(&path).unwrap();
        user::save(&path, &back).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        // Merged: the user's parts join the built-in ones and replace a built-in part of the same id.
        let all = user::merged(&builtin, &back);
        assert_eq!(all.parts.len(), builtin.parts.len() + 1);
        assert_eq!(all.get("qm9700").unwrap().power_w, 1_720.0);
        assert_eq!(all.get("h100-sxm-quote").unwrap().price_usd, 27_500.0);
        let origin = |id: &str| Origin::of(&PartId::new(id), &builtin, &back);
        assert_eq!(origin("qm9700"), Origin::EditedBuiltIn);
        assert_eq!(origin("h100-sxm-quote"), Origin::User);
        assert_eq!(origin("l40s"), Origin::BuiltIn);
        assert_eq!(
            user::free_id(&all, "h100-sxm-quote"),
            PartId::new("h100-sxm-quote-2")
        );
    }

    #[test]
    fn a_broken_file_names_its_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(user::FILE_NAME);
        std::fs::write(
            &path,
            "(\n    parts: {\n        \"x\": (name: \"X\", power_watts: 3),\n    },\n)\n",
        )
        .unwrap();
        let err = user::load(&path).unwrap_err().to_string();
        assert!(err.starts_with(&format!("{}:3:", path.display())), "{err}");
        assert!(err.contains("power_w"), "did you mean: {err}");
    }

    #[test]
    fn a_figure_without_a_source_is_an_estimate_in_the_reports() {
        let mut d = racksmith::samples::sample("dgx-h100-single").unwrap();
        let id = PartId::new("qm9700");
        let part = d.parts.get_mut(&id).unwrap();
        part.sources.remove("price_usd");
        part.sources.remove("power_w");
        assert_eq!(figures::source_or_estimate(part, "price_usd"), ESTIMATE);
        assert!(figures::unsourced(part).contains(&"price_usd".to_string()));
        let r = racksmith::analysis::analyze(&d);
        let line = r.cost.bom.iter().find(|l| l.part == "qm9700").unwrap();
        assert_eq!(line.price_source, ESTIMATE);
        let csv = String::from_utf8(racksmith::export::tables::bom_csv(&d, &r).unwrap()).unwrap();
        assert!(csv.contains(ESTIMATE), "{csv}");
        let text = racksmith::analysis::text::render(&r);
        assert!(text.contains("price: estimate"), "{text}");
        assert!(
            text.contains("estimates, no source: power_w, price_usd"),
            "{text}"
        );
        assert_eq!(line.unsourced, vec!["power_w", "price_usd"]);
        let html = html(&d, &r);
        assert!(html.contains(ESTIMATE));
        assert!(html.contains("<strong>estimates</strong> (no source): power_w, price_usd"));
    }

    #[test]
    fn an_overridden_price_is_marked_and_reset_restores_the_catalog() {
        let mut d = racksmith::samples::sample("dgx-h100-single").unwrap();
        let id = PartId::new("h100-sxm");
        let catalog_part = d.parts[&id].clone();
        let gpus = d
            .devices
            .values()
            .flat_map(|x| x.gpus.values())
            .filter(|g| **g == id)
            .count();
        let capex = racksmith::analysis::analyze(&d).cost.capex_usd;
        let over =
            figures::with_override(&catalog_part, "price_usd", 25_000.0, "quote Q-7").unwrap();
        d.parts.insert(id.clone(), over.clone());
        let r = racksmith::analysis::analyze(&d);
        let line = r.cost.bom.iter().find(|l| l.part == "h100-sxm").unwrap();
        assert_eq!(line.price_source, "quote Q-7");
        assert_eq!(
            line.overridden,
            vec![format!(
                "price overridden (catalog ${:.2})",
                catalog_part.price_usd
            )]
        );
        // Hand calculation: capex moves by (new - catalog) x (installed + spares).
        let expected =
            capex + (25_000.0 - catalog_part.price_usd) * (line.quantity + line.spares) as f64;
        assert!(
            (r.cost.capex_usd - expected).abs() < 0.01,
            "{} vs {expected}",
            r.cost.capex_usd
        );
        assert!(line.quantity as usize == gpus);
        let html = html(&d, &r);
        assert!(html.contains("<strong>overridden</strong>"));
        // The design file keeps the override (and the catalog's figure), and loads it back.
        let text = racksmith::io::design_to_string(&d).unwrap();
        let back = racksmith::io::design_from_str(&text, std::path::Path::new("t.ron")).unwrap();
        assert_eq!(back.parts[&id], over);
        assert_eq!(figures::reset_override(&over, "price_usd"), catalog_part);
        assert!(matches!(over.kind, PartKind::Gpu(_)));
    }
}

#[test]
fn a_user_part_out_of_range_is_refused_with_its_line() {
    use racksmith::catalog::user;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(user::FILE_NAME);
    let builtin = Catalog::builtin().unwrap();
    let mut mine = Catalog::default();
    let mut p = builtin.get("qm9700").unwrap().clone();
    p.power_w = -5.0;
    mine.parts
        .insert(racksmith::model::PartId::new("bad-switch"), p.clone());
    user::save(&path, &mine).unwrap();
    let err = user::load(&path).unwrap_err().to_string();
    assert!(err.contains("power_w") && err.contains("line "), "{err}");
    assert!(err.starts_with(&path.display().to_string()), "{err}");
    assert!(!user::check("bad-switch", &p).is_empty());
    // An override out of range is refused too.
    let ok = builtin.get("qm9700").unwrap();
    assert!(racksmith::catalog::figures::with_override(ok, "power_w", 1e12, "").is_err());
}

#[test]
fn the_editor_sees_every_built_in_figure_as_sourced() {
    // The catalog window and the reports read sources with `figures::source_of`, which must agree with the
    // rule above: no built-in figure is reported as an estimate for want of a source.
    let c = Catalog::builtin().unwrap();
    for (id, part) in &c.parts {
        let unsourced = racksmith::catalog::figures::unsourced(part);
        assert!(unsourced.is_empty(), "{id}: {unsourced:?}");
    }
}

/// GB/s fields were once named `_gbs` (easy to misread as Gb/s); files written then still load, with the same figures.
#[test]
fn files_with_the_old_gbyte_per_second_names_still_load() {
    let path = std::path::Path::new("sample-designs/dgx-h100-single.ron");
    let text = std::fs::read_to_string(path).unwrap();
    let now = racksmith::io::design_from_str(&text, path).unwrap();
    let old_text = text
        .replace("_gbyte_s_per_gpu:", "_gbs_per_gpu:")
        .replace("_gbyte_s:", "_gbs:");
    assert_ne!(old_text, text, "the sample uses the renamed fields");
    let old = racksmith::io::design_from_str(&old_text, path).unwrap();
    assert_eq!(old, now);
    // What Racksmith writes uses the new names only.
    let written = racksmith::io::design_to_string(&old).unwrap();
    assert!(
        !written.contains("_gbs"),
        "the old names are read, never written"
    );
}
