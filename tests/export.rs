//! Exports of every sample: golden SVG and CSV files (insta, byte for byte), the HTML report's sections and
//! self-containment, BOM total against capex, cabling rows against links, every GPU server exactly once in the
//! Slurm topology, and the DOT rendered by Graphviz. Browser checks are in tests/export_browser.rs.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::analysis::{Report, analyze};
use racksmith::catalog::Catalog;
use racksmith::export::{self, Format, Options, View};
use racksmith::model::Design;
use racksmith::samples;
use std::collections::BTreeMap;

fn sample(name: &str) -> (Design, Report) {
    let d = samples::sample(name).unwrap();
    let r = analyze(&d);
    (d, r)
}

fn text(d: &Design, r: &Report, f: Format, o: &Options) -> String {
    String::from_utf8(export::export(d, r, f, o).unwrap()).unwrap()
}

/// Golden files: the drawings and tables are deterministic byte for byte.
#[test]
fn golden_svg_and_csv_of_every_sample() {
    for name in samples::SAMPLES {
        let (d, r) = sample(name);
        let o = Options::default();
        insta::assert_snapshot!(format!("{name}.racks.svg"), text(&d, &r, Format::Svg, &o));
        let fabric = Options {
            view: View::Fabric,
            ..Options::default()
        };
        insta::assert_snapshot!(
            format!("{name}.fabric.svg"),
            text(&d, &r, Format::Svg, &fabric)
        );
        insta::assert_snapshot!(format!("{name}.bom.csv"), text(&d, &r, Format::BomCsv, &o));
        insta::assert_snapshot!(
            format!("{name}.cabling.csv"),
            text(&d, &r, Format::CablingCsv, &o)
        );
        insta::assert_snapshot!(
            format!("{name}.topology.conf"),
            text(&d, &r, Format::Slurm, &o)
        );
        // The same input gives the same bytes twice (no hash-map order, no clock).
        assert_eq!(
            export::export(&d, &r, Format::Html, &o).unwrap(),
            export::export(&d, &r, Format::Html, &o).unwrap()
        );
    }
}

fn parse_csv(bytes: &[u8]) -> (Vec<String>, Vec<Vec<String>>) {
    let mut rd = csv::Reader::from_reader(bytes);
    let header = rd.headers().unwrap().iter().map(String::from).collect();
    let rows = rd
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

#[test]
fn bom_extended_prices_add_up_to_capex() {
    for name in samples::SAMPLES {
        let (d, r) = sample(name);
        let (header, rows) =
            parse_csv(&export::export(&d, &r, Format::BomCsv, &Options::default()).unwrap());
        assert_eq!(header, export::tables::BOM_HEADER);
        let col = |n: &str| header.iter().position(|h| h == n).unwrap();
        let (q, unit, ext, spares) = (
            col("quantity"),
            col("unit_price_usd"),
            col("extended_price_usd"),
            col("spares"),
        );
        let mut total = 0.0;
        for row in &rows {
            let qty: f64 = row[q].parse::<f64>().unwrap() + row[spares].parse::<f64>().unwrap();
            let u: f64 = row[unit].parse().unwrap();
            let x: f64 = row[ext].parse().unwrap();
            assert!((qty * u - x).abs() < 0.006, "{name}: {row:?}");
            assert!(
                !row[col("price_source")].is_empty(),
                "{name}: {row:?} has no source"
            );
            total += x;
        }
        assert!(
            (total - r.cost.capex_usd).abs() < 0.01 * rows.len() as f64,
            "{name}: BOM {total} against capex {}",
            r.cost.capex_usd
        );
        assert!(total > 0.0);
    }
}

#[test]
fn cabling_has_one_row_per_link_with_unique_labels() {
    for name in samples::SAMPLES {
        let (d, r) = sample(name);
        let (header, rows) =
            parse_csv(&export::export(&d, &r, Format::CablingCsv, &Options::default()).unwrap());
        assert_eq!(header, export::tables::CABLING_HEADER);
        assert_eq!(rows.len(), d.links.len(), "{name}");
        let label = header.iter().position(|h| h == "cable_label").unwrap();
        let labels: std::collections::BTreeSet<&String> = rows.iter().map(|r| &r[label]).collect();
        assert_eq!(labels.len(), rows.len(), "{name}: labels are not unique");
        // Each row's ends are the link's ends: device names and ports as in the design.
        let id = header.iter().position(|h| h == "link_id").unwrap();
        for row in &rows {
            let link = &d.links[&racksmith::model::LinkId(row[id].parse().unwrap())];
            assert_eq!(row[2], d.devices[&link.a.device].name);
            assert_eq!(row[3], link.a.port);
            assert_eq!(row[6], d.devices[&link.b.device].name);
            assert_eq!(row[7], link.b.port);
        }
    }
}

/// Expands `Nodes=` host lists of the lowest level with a Slurm-compatible host-list parser.
fn slurm_nodes(conf: &str) -> Vec<String> {
    let mut nodes = Vec::new();
    for line in conf.lines().filter(|l| !l.starts_with('#')) {
        for field in line.split_whitespace() {
            if let Some(list) = field.strip_prefix("Nodes=") {
                nodes.extend(hostlist_parser::parse(list).unwrap());
            }
        }
    }
    nodes
}

#[test]
fn slurm_lists_every_gpu_server_exactly_once() {
    for name in samples::SAMPLES {
        let (d, r) = sample(name);
        let conf = text(&d, &r, Format::Slurm, &Options::default());
        let mut listed = slurm_nodes(&conf);
        listed.sort();
        let mut servers: Vec<String> = d
            .devices
            .values()
            .filter(|dev| !dev.gpus.is_empty())
            .map(|dev| dev.name.clone())
            .collect();
        servers.sort();
        assert_eq!(listed, servers, "{name}:\n{conf}");
        // Every switch named as a child is defined on a line of its own.
        let defined: Vec<&str> = conf
            .lines()
            .filter_map(|l| l.strip_prefix("SwitchName="))
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        for line in conf.lines() {
            for field in line.split_whitespace() {
                if let Some(list) = field.strip_prefix("Switches=") {
                    for child in hostlist_parser::parse(list).unwrap() {
                        assert!(
                            defined.contains(&child.as_str()),
                            "{name}: {child} undefined"
                        );
                    }
                }
            }
        }
        // The YAML form parses and names the same nodes in the tree.
        let yaml = text(&d, &r, Format::SlurmYaml, &Options::default());
        let v: serde_json::Value = serde_norway::from_str(&yaml).unwrap();
        let tree = &v[0]["tree"]["switches"];
        let mut from_yaml: Vec<String> = tree
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|s| s["nodes"].as_str())
            .flat_map(|l| hostlist_parser::parse(l).unwrap())
            .collect();
        from_yaml.sort();
        assert_eq!(from_yaml, servers, "{name}");
    }
}

#[test]
fn superpod_groups_rail_leaves_by_scalable_unit() {
    // Two SUs: each server touches the eight rail leaves of its own SU, so the tree has two leaf groups of 31
    // (or 32) servers, and the spines list both groups.
    let c = Catalog::builtin().unwrap();
    let d = samples::superpod_h100(&c, 2).unwrap();
    let conf = export::slurm::topology_conf(&d).unwrap();
    let groups: Vec<&str> = conf
        .lines()
        .filter(|l| l.starts_with("SwitchName=leafgroup"))
        .collect();
    assert_eq!(groups.len(), 2, "{conf}");
    let t = export::slurm::build(&d);
    let first = &t.switches[0];
    assert_eq!(first.stands_for.len(), 8, "{conf}");
    let spine_lines: Vec<&str> = conf.lines().filter(|l| l.contains("Switches=")).collect();
    assert!(!spine_lines.is_empty());
    assert!(
        spine_lines.iter().all(|l| l.contains("Switches=leafgroup")),
        "{conf}"
    );
}

#[test]
fn html_report_has_every_section_and_no_external_resource() {
    use quick_xml::events::Event;
    for name in samples::SAMPLES {
        let (d, r) = sample(name);
        let html = text(&d, &r, Format::Html, &Options::default());
        // Well-formed: a strict XML reader walks the whole document.
        let mut reader = quick_xml::Reader::from_str(&html);
        let mut ids = Vec::new();
        let mut svgs = 0;
        loop {
            match reader.read_event() {
                Ok(Event::Start(e)) | Ok(Event::Empty(e)) => {
                    let tag = e.name().as_ref().to_string();
                    assert!(
                        !matches!(tag.as_str(), "script" | "link" | "img" | "iframe"),
                        "{name}: <{tag}> in the report"
                    );
                    if tag == "svg" {
                        svgs += 1;
                    }
                    for a in e.attributes() {
                        let a = a.unwrap();
                        let key = a.key.as_ref().to_string();
                        let value = a.value.to_string();
                        if key == "id" && tag == "section" {
                            ids.push(value.clone());
                        }
                        assert!(
                            !(key == "src" || key == "href") || !value.contains("://"),
                            "{name}: external resource {key}={value}"
                        );
                    }
                }
                Ok(Event::Eof) => break,
                Ok(_) => {}
                Err(e) => panic!(
                    "{name}: not well-formed at {}: {e}",
                    reader.buffer_position()
                ),
            }
        }
        assert_eq!(ids, export::html::SECTIONS, "{name}");
        // Elevations, fabric, four charts and the facility chart.
        assert_eq!(svgs, 7, "{name}");
        assert!(!html.contains("url("), "{name}: CSS fetches something");
        assert!(html.contains("@media print"));
        assert!(html.contains(&d.name.replace('&', "&amp;")));
    }
}

#[test]
fn notes_appear_in_the_report_and_as_badges() {
    let (mut d, _) = sample("dgx-h100-single");
    let dev = *d.devices.keys().next().unwrap();
    d.devices.get_mut(&dev).unwrap().notes = "Check the rail <order> & labels".into();
    let rack = *d.racks.keys().next().unwrap();
    d.racks.get_mut(&rack).unwrap().notes = "Rear door needs cooling review".into();
    let link = *d.links.keys().next().unwrap();
    d.links.get_mut(&link).unwrap().notes = "Re-route under the floor".into();
    let r = analyze(&d);
    let html = text(&d, &r, Format::Html, &Options::default());
    assert!(html.contains("Check the rail &lt;order&gt; &amp; labels"));
    assert!(html.contains("Rear door needs cooling review"));
    assert!(html.contains("Re-route under the floor"));
    let svg = text(&d, &r, Format::Svg, &Options::default());
    assert_eq!(
        svg.matches("Review note:").count(),
        2,
        "rack and device badges"
    );
    // Notes survive a save and load.
    let text_ron = racksmith::io::design_to_string(&d).unwrap();
    let back = racksmith::io::design_from_str(&text_ron, std::path::Path::new("x.ron")).unwrap();
    assert_eq!(back, d);
}

#[test]
fn png_is_slide_sized_and_not_blank() {
    let (d, r) = sample("superpod-h100-1su");
    for view in [View::Racks, View::Fabric] {
        let o = Options {
            view,
            ..Options::default()
        };
        let png = export::export(&d, &r, Format::Png, &o).unwrap();
        let pixmap = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
        assert!(pixmap.width() >= 1600, "{view:?}: {}", pixmap.width());
        let colours: std::collections::BTreeSet<[u8; 4]> = pixmap
            .pixels()
            .iter()
            .step_by(7)
            .map(|p| [p.red(), p.green(), p.blue(), p.alpha()])
            .collect();
        assert!(colours.len() > 16, "{view:?}: {} colours", colours.len());
    }
}

/// The pattern travels typed: each one finds its own index in the report (whose names agree with the enum's), and
/// a report that routed no pattern says so, naming the one asked for.
#[test]
fn a_pattern_is_found_by_its_index() {
    use racksmith::analysis::pattern::Pattern;
    let (d, r) = sample("dgx-h100-single");
    for p in Pattern::ALL {
        assert_eq!(export::pattern_index(&r, Some(p)).unwrap(), Some(p.index()));
        assert_eq!(r.bandwidth.routing.patterns[p.index()].pattern, p.label());
        let o = Options {
            view: View::Fabric,
            pattern: Some(p),
            ..Options::default()
        };
        assert!(export::export(&d, &r, Format::Svg, &o).is_ok());
    }
    let mut none = r.clone();
    none.bandwidth.routing.patterns.clear();
    let err = export::pattern_index(&none, Some(Pattern::AllToAll))
        .unwrap_err()
        .to_string();
    assert!(err.contains("\"all-to-all\""), "{err}");
    assert_eq!(export::pattern_index(&none, None).unwrap(), None);
}

#[test]
fn json_links_name_both_ends_and_speed() {
    let (d, r) = sample("superpod-h100-1su");
    let v: serde_json::Value =
        serde_json::from_slice(&export::export(&d, &r, Format::Json, &Options::default()).unwrap())
            .unwrap();
    let links = v["links"].as_array().unwrap();
    assert_eq!(links.len(), d.links.len());
    let names: BTreeMap<u64, &str> = d
        .devices
        .iter()
        .map(|(k, v)| (k.0, v.name.as_str()))
        .collect();
    for l in links {
        for end in ["a", "b"] {
            let id = l[end]["node_id"].as_u64().unwrap();
            assert_eq!(l[end]["node"].as_str().unwrap(), names[&id]);
            assert!(!l[end]["interface"].as_str().unwrap().is_empty());
        }
        assert!(l["speed_gbps"].as_f64().unwrap() > 0.0);
    }
    assert_eq!(v["nodes"].as_array().unwrap().len(), d.devices.len());
    // Roles come from the fabric tiers.
    let roles: Vec<&str> = v["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles.iter().filter(|r| **r == "gpu-server").count(), 31);
    assert_eq!(roles.iter().filter(|r| **r == "spine").count(), 4);
}

/// Graphviz renders the DOT of every sample. Graphviz is required in CI (`.ci/run` installs it); elsewhere the
/// test says so and passes when `dot` is missing.
#[test]
fn graphviz_renders_the_dot() {
    let has_dot = std::process::Command::new("dot").arg("-V").output().is_ok();
    if !has_dot {
        assert!(std::env::var_os("CI").is_none(), "CI must install graphviz");
        eprintln!(
            "graphviz is not installed: skipping the render check (apt-get install graphviz)"
        );
        return;
    }
    for name in samples::SAMPLES {
        let (d, r) = sample(name);
        let dot = export::export(&d, &r, Format::Dot, &Options::default()).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fabric.dot");
        std::fs::write(&path, &dot).unwrap();
        let out = std::process::Command::new("dot")
            .arg("-Tsvg")
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let svg = String::from_utf8_lossy(&out.stdout);
        // Every node of the DOT is drawn, and servers carry their names (Graphviz escapes '-').
        let dot = String::from_utf8(dot).unwrap();
        let nodes = dot.lines().filter(|l| l.contains("fillcolor=")).count();
        assert_eq!(svg.matches("class=\"node\"").count(), nodes, "{name}");
        let first_server = d.devices.values().find(|x| !x.gpus.is_empty()).unwrap();
        assert!(
            svg.contains(&first_server.name.replace('-', "&#45;")),
            "{name}"
        );
    }
}

/// A 16-SU design (4,088 GPUs) makes a report a browser opens comfortably, under 10 MB, while naming what an
/// installer needs: every rack drawn with its devices' names, and every link listed (from, to, cable, length).
/// Its speed is measured by `benches/export.rs`.
#[test]
fn large_design_report_names_every_rack_device_and_link() {
    let c = Catalog::builtin().unwrap();
    let d = samples::superpod_h100(&c, 16).unwrap();
    let r = analyze(&d);
    let html = text(&d, &r, Format::Html, &Options::default());
    assert!(html.len() < 10 * 1024 * 1024, "{} bytes", html.len());
    assert!(!html.contains("identical racks"));
    for rack in d.racks.values() {
        assert!(html.contains(&format!(">{}<", rack.name)), "{}", rack.name);
    }
    for dev in d
        .devices
        .values()
        .filter(|x| d.parts.get(&x.part).is_some_and(|p| p.height_u > 0))
    {
        assert!(html.contains(&dev.name), "{}", dev.name);
    }
    let rows = html.matches("<tr><td><code>L").count();
    assert_eq!(rows, d.links.len());
}

/// The all-reduce chart draws the same model the analysis reports: at the design's message size each curve passes
/// through the report's time for that algorithm.
#[test]
fn allreduce_chart_agrees_with_the_report() {
    for name in samples::SAMPLES {
        let (_, r) = sample(name);
        let a = &r.latency.allreduce;
        for alg in &a.algorithms {
            let t = export::charts::allreduce_time(&r, &alg.algorithm, a.bytes).unwrap() * 1e3;
            assert!(
                (t - alg.time_ms).abs() <= 1e-3 * alg.time_ms.max(1e-3),
                "{name} {}: chart {t} ms, report {} ms",
                alg.algorithm,
                alg.time_ms
            );
        }
    }
}

/// The HTML report's physical section lists the transceivers and cables as the JSON report's `physical` section
/// counts them, and its cabling table is the pull list: each end's cage (a twin-port cage's second port names its
/// cage), each end's transceiver, the ordered length marked as an estimate, and a link out of reach marked so.
#[test]
fn html_report_carries_the_pull_list() {
    let (mut d, _) = sample("superpod-h100-1su");
    let r = analyze(&d);
    let html = text(&d, &r, Format::Html, &Options::default());
    let section = |id: &str| {
        let start = html.find(&format!(r#"<section id="{id}">"#)).unwrap();
        let end = start + html[start..].find("</section>").unwrap();
        html[start..end].to_string()
    };
    let physical = section("physical");
    assert!(!r.physical.transceivers.is_empty());
    for t in &r.physical.transceivers {
        let row = format!(
            r#"<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td class="n">{}</td><td class="n">{}</td>"#,
            t.part,
            t.part_number.clone().unwrap_or_default(),
            t.form_factor,
            t.ports,
            t.count
        );
        assert!(physical.contains(&row), "{row}");
    }
    for c in &r.physical.cables {
        assert!(
            physical.contains(&format!(
                r#"<td class="n">{} m</td><td class="n">{}</td></tr>"#,
                c.length_m,
                racksmith::analysis::format::thousands(c.count as f64, 0)
            )),
            "{c:?}"
        );
    }
    let cabling = section("cabling");
    assert_eq!(cabling.matches("<tr><td><code>L").count(), d.links.len());
    // dgx-0001's second NIC is in the first twin-port cage; its link is a fibre with a flat-top transceiver at the
    // server and a finned one at the leaf, ordered at a stock length estimated from the floor.
    assert!(cabling.contains("nic1/p1 (cage nic0/p1)"));
    assert!(cabling.contains("osfp-2x400g-sr8-flat / osfp-2x400g-sr8-finned"));
    assert!(cabling.contains(" m est.</td>"));
    assert!(!cabling.contains("out of reach"));
    // A fixed 8.4 m on a link pinned to 2 m copper is out of reach: its row is marked, and the section says so.
    let (id, l) = d.links.iter_mut().next().unwrap();
    let id = *id;
    l.auto_cable = false;
    l.estimated_length = false;
    l.cable = Some(racksmith::model::PartId::new("ib-ndr-dac"));
    l.length_m = 8.4;
    let r = analyze(&d);
    assert_eq!(r.physical.out_of_reach, 1);
    let html = text(&d, &r, Format::Html, &Options::default());
    let row_start = html
        .find(&format!(r#"<td><code>L{:05}</code>"#, id.0))
        .unwrap();
    let row = &html[html[..row_start].rfind("<tr").unwrap()..row_start];
    assert_eq!(row, r#"<tr class="bad">"#);
    assert!(html.contains("1 link is longer than its medium reaches"));
}

/// The report's collectives section gives send/receive between two GPUs as the JSON report does: a row inside a
/// server and one across servers, each with its band.
#[test]
fn html_report_gives_send_receive_between_two_gpus() {
    let (d, r) = sample("superpod-h100-1su");
    let n = r.latency.nccl.as_ref().unwrap();
    assert_eq!(n.point_to_point.len(), 2);
    let html = text(&d, &r, Format::Html, &Options::default());
    assert!(html.contains("<h3>Send/receive between two GPUs (sendrecv_perf)</h3>"));
    for f in &n.point_to_point {
        let row = format!(
            r#"<tr><td>{}</td><td class="n">{:.1} GB/s</td><td class="n">{:.1}-{:.1} GB/s</td><td class="n">{:.1} us</td>"#,
            f.path.name(),
            f.bandwidth_gbyte_s,
            f.bandwidth_low,
            f.bandwidth_high,
            f.latency_us
        );
        assert!(html.contains(&row), "{row}");
    }
}
