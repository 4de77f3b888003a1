//! Planning scenarios in the core: they round-trip through design files (and files without them are unchanged),
//! bad figures in them are refused with file, line, column and field, applying one is one undoable edit (GPU swap
//! included, refused with the reason when the GPUs do not fit), their figures follow the cost model by hand, and
//! the HTML report shows them side by side.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::analysis::scenarios::{self, Headline};
use racksmith::analysis::{analyze, bandwidth::main_gpu};
use racksmith::catalog::Catalog;
use racksmith::edit::History;
use racksmith::edit::scenario::scenario_edit;
use racksmith::export::{self, Format, Options};
use racksmith::io;
use racksmith::model::{Design, PartId, Scenario};
use racksmith::templates::planning;
use std::path::Path;

fn one_su() -> (Design, Catalog) {
    let catalog = Catalog::builtin().unwrap();
    let d = racksmith::samples::superpod_h100(&catalog, 1).unwrap();
    (d, catalog)
}

fn scenario(d: &Design, name: &str, f: impl FnOnce(&mut Scenario)) -> Scenario {
    let mut s = Scenario::from_params(name, &d.params, main_gpu(d));
    f(&mut s);
    s
}

#[test]
fn scenarios_round_trip_through_a_file_and_old_files_are_unchanged() {
    let (mut d, _) = one_su();
    let plain = io::design_to_string(&d).unwrap();
    assert!(!plain.contains("scenarios"), "no scenarios, no key");
    d.scenarios = vec![
        scenario(&d, "base", |_| {}),
        scenario(&d, "cheap power", |s| {
            s.electricity_usd_per_kwh = 0.05;
            s.cloud_usd_per_gpu_hour = Some(2.5);
            s.gpu = Some(PartId::new("h200-sxm"));
        }),
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("plan.ron");
    io::save(&d, &path).unwrap();
    let back = io::load(&path).unwrap();
    assert_eq!(back.scenarios, d.scenarios);
    assert_eq!(back, d);
    // Everything before the scenarios is written as before.
    let text = std::fs::read_to_string(&path).unwrap();
    let cut = text.find("    scenarios: [").unwrap();
    assert_eq!(&text[..cut], &plain[..plain.len() - ")\n".len()]);
}

#[test]
fn a_bad_scenario_figure_names_file_line_column_and_field() {
    let (mut d, _) = one_su();
    d.scenarios = vec![
        scenario(&d, "a", |_| {}),
        scenario(&d, "b", |s| s.pue = 1.3),
    ];
    let text = io::design_to_string(&d).unwrap();
    // The second scenario's PUE below 1.
    let b = text.find("name: \"b\"").unwrap();
    let at = b + text[b..].find("pue: 1.3").unwrap();
    let bad = format!("{}pue: 0.5{}", &text[..at], &text[at + "pue: 1.3".len()..]);
    let line = bad[..at].matches('\n').count() + 1;
    let column = at - bad[..at].rfind('\n').unwrap();
    let err = io::design_from_str(&bad, Path::new("plan.ron"))
        .expect_err("refused")
        .to_string();
    assert!(err.contains("plan.ron"), "{err}");
    assert!(
        err.contains(&format!(
            "line {line}, column {column}: scenarios[1].pue = 0.5"
        )),
        "{err}"
    );
    // Two scenarios of one name are refused too.
    let twice = text.replace("name: \"b\"", "name: \"a\"");
    let err = io::design_from_str(&twice, Path::new("plan.ron"))
        .expect_err("refused")
        .to_string();
    assert!(err.contains("scenarios[1].name"), "{err}");
    // A scenario's cluster is built for every comparison: its GPU count is held to 16,384.
    d.scenarios[1].gpu_count = Some(100_000);
    let text = io::design_to_string(&d).unwrap();
    let err = io::design_from_str(&text, Path::new("plan.ron"))
        .expect_err("refused")
        .to_string();
    assert!(err.contains("plan.ron"), "{err}");
    assert!(err.contains("scenarios[1].gpu_count = 100000"), "{err}");
    d.scenarios[1].gpu_count = Some(120);
    io::design_from_str(&io::design_to_string(&d).unwrap(), Path::new("plan.ron")).unwrap();
}

#[test]
fn applying_a_scenario_is_one_undoable_edit_with_the_gpu_swap() {
    let (d0, catalog) = one_su();
    let mut d = d0.clone();
    let s = scenario(&d, "h200", |s| {
        s.pue = 1.4;
        s.depreciation_years = 5.0;
        s.gpu = Some(PartId::new("h200-sxm"));
    });
    let edit = scenario_edit(&d, &catalog, &s).unwrap().unwrap();
    let mut history = History::default();
    history.apply(&mut d, "Apply scenario h200", edit).unwrap();
    assert_eq!(d.params.pue, 1.4);
    assert_eq!(d.params.depreciation_years, 5.0);
    assert_eq!(main_gpu(&d), Some(PartId::new("h200-sxm")));
    // The analysis puts the same settings in place without the edit layer: the same design.
    assert_eq!(*scenarios::applied(&d0, &catalog, &s).unwrap(), d);
    assert!(
        d.devices
            .values()
            .flat_map(|x| x.gpus.values())
            .all(|g| g.as_str() == "h200-sxm")
    );
    // The design now holds the scenario's settings: nothing more to do.
    assert!(scenario_edit(&d, &catalog, &s).unwrap().is_none());
    history.undo(&mut d);
    assert_eq!(d, d0);
    // A PCIe card does not go into SXM slots: refused with the reason, nothing changes.
    let pcie = scenario(&d, "l40s", |s| s.gpu = Some(PartId::new("l40s")));
    let err = scenario_edit(&d, &catalog, &pcie).unwrap_err();
    assert!(err.to_string().contains("does not fit"), "{err}");
    // Planning evaluates it on a cluster of the L40S's own servers instead, with the design's GPU count.
    let gpus: usize = d.devices.values().map(|x| x.gpus.len()).sum();
    let r = planning::evaluate(&d, &catalog, &pcie);
    assert_eq!(r.headline.unwrap().gpus, gpus);
}

#[test]
fn a_scenario_gives_the_figures_of_the_cost_model() {
    let (d, catalog) = one_su();
    let base = analyze(&d);
    let s = scenario(&d, "dear power", |s| {
        s.electricity_usd_per_kwh = d.params.electricity_usd_per_kwh * 3.0;
    });
    let r = planning::evaluate(&d, &catalog, &s);
    let h = r.headline.clone().unwrap();
    // Energy is linear in the price: TCO grows by years x (3 - 1) x the energy bill per year.
    let c = &base.cost;
    let expected = c.tco_usd + c.years * 2.0 * c.energy_usd_per_year;
    assert!(
        (h.tco_usd - expected).abs() < 0.05,
        "{} vs {expected}",
        h.tco_usd
    );
    // Capex and all-reduce do not move; the table marks TCO as different from the base scenario.
    assert_eq!(h.allreduce_ms, Headline::of(&base).allreduce_ms);
    let results = vec![
        planning::evaluate(&d, &catalog, &scenario(&d, "base", |_| {})),
        r,
    ];
    let rows = scenarios::table(&results);
    let row = |label: &str| rows.iter().find(|r| r.label == label).unwrap().clone();
    assert_eq!(row("TCO").differs, vec![false, true]);
    assert_eq!(row("Electricity").differs, vec![false, true]);
    assert_eq!(row("All-reduce").differs, vec![false, false]);
    assert_eq!(row("PUE").differs, vec![false, false]);
}

#[test]
fn the_html_report_shows_the_scenarios_side_by_side() {
    use quick_xml::events::Event;
    let (mut d, _) = one_su();
    let r = analyze(&d);
    let plain =
        String::from_utf8(export::export(&d, &r, Format::Html, &Options::default()).unwrap())
            .unwrap();
    assert!(!plain.contains("id=\"scenarios\""));
    d.scenarios = vec![
        scenario(&d, "base", |_| {}),
        scenario(&d, "PUE 1.5 & <cheap>", |s| s.pue = 1.5),
    ];
    let html =
        String::from_utf8(export::export(&d, &r, Format::Html, &Options::default()).unwrap())
            .unwrap();
    let mut reader = quick_xml::Reader::from_str(&html);
    let mut sections = Vec::new();
    let mut in_scenarios = false;
    let mut highlighted = 0;
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) => {
                let tag = e.name().as_ref().to_string();
                for a in e.attributes() {
                    let a = a.unwrap();
                    let key = a.key.as_ref().to_string();
                    let value = a.value.to_string();
                    if tag == "section" && key == "id" {
                        in_scenarios = value == "scenarios";
                        sections.push(value.clone());
                    }
                    if in_scenarios && tag == "td" && key == "style" {
                        highlighted += 1;
                    }
                }
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("not well-formed at {}: {e}", reader.buffer_position()),
        }
    }
    assert!(sections.contains(&"scenarios".to_string()), "{sections:?}");
    assert!(html.contains("<th class=\"n\">base</th>"));
    assert!(html.contains("<th class=\"n\">PUE 1.5 &amp; &lt;cheap&gt;</th>"));
    // The PUE differs, and so do the figures it moves (TCO, owned $/GPU-h, break-even).
    assert!(highlighted >= 3, "{highlighted}");
}
