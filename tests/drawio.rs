//! The draw.io export read back as XML: every rack, every device and every cable of a design is in the file, on the
//! page it belongs to, and hostile names come back as written.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use quick_xml::Reader;
use quick_xml::events::Event;
use racksmith::model::Design;
use std::collections::BTreeMap;

/// One `mxCell`: its attributes, and the page (diagram) it is on.
struct Cell {
    page: usize,
    attrs: BTreeMap<String, String>,
}

/// Parses a draw.io file (failing the test if it is not well-formed XML): the page names and every cell.
fn cells(xml: &str) -> (Vec<String>, Vec<Cell>) {
    let mut reader = Reader::from_str(xml);
    let mut pages = Vec::new();
    let mut out = Vec::new();
    loop {
        match reader.read_event().unwrap() {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) => {
                let attrs: BTreeMap<String, String> = e
                    .attributes()
                    .map(|a| {
                        let a = a.unwrap();
                        (
                            a.key.as_ref().to_string(),
                            a.normalized_value(quick_xml::XmlVersion::Explicit1_0)
                                .unwrap()
                                .into_owned(),
                        )
                    })
                    .collect();
                match e.name().as_ref() {
                    "diagram" => pages.push(attrs["name"].clone()),
                    "mxCell" => out.push(Cell {
                        page: pages.len(),
                        attrs,
                    }),
                    _ => {}
                }
            }
            _ => {}
        }
    }
    (pages, out)
}

fn drawio(d: &Design) -> String {
    let r = racksmith::analysis::analyze(d);
    let bytes = racksmith::export::export(
        d,
        &r,
        racksmith::export::Format::Drawio,
        &racksmith::export::Options::default(),
    )
    .unwrap();
    String::from_utf8(bytes).unwrap()
}

#[test]
fn every_rack_device_and_cable_of_the_1su_superpod_is_in_the_file() {
    let d = racksmith::samples::sample("superpod-h100-1su").unwrap();
    let (pages, cells) = cells(&drawio(&d));
    assert_eq!(pages.len(), 2);
    assert!(pages[0].starts_with("Racks") && pages[1].starts_with("Fabric"));
    let on = |page: usize, id: &str| {
        cells
            .iter()
            .find(|c| c.page == page && c.attrs.get("id").map(String::as_str) == Some(id))
    };
    // Page 1: each rack, and each device inside its rack, labelled with its name.
    for (rid, rack) in &d.racks {
        let c = on(1, &format!("rack-{}", rid.0)).unwrap_or_else(|| panic!("rack {}", rack.name));
        assert_eq!(c.attrs["value"], rack.name);
    }
    for (id, dev) in &d.devices {
        let c = on(1, &format!("dev-{}", id.0)).unwrap_or_else(|| panic!("device {}", dev.name));
        assert_eq!(c.attrs["parent"], format!("rack-{}", dev.rack.0));
        assert!(c.attrs["value"].starts_with(&dev.name));
    }
    // Page 2: every cabled device, and edges whose counts add up to every cable.
    let mut cabled = std::collections::BTreeSet::new();
    for l in d.links.values() {
        cabled.insert(l.a.device);
        cabled.insert(l.b.device);
    }
    for id in &cabled {
        assert!(
            on(2, &format!("dev-{}", id.0)).is_some(),
            "device {id} on the fabric page"
        );
    }
    let edges: Vec<&Cell> = cells
        .iter()
        .filter(|c| c.page == 2 && c.attrs.get("edge").map(String::as_str) == Some("1"))
        .collect();
    let mut cables = 0;
    for e in &edges {
        assert!(e.attrs["style"].contains("orthogonalEdgeStyle"));
        let label = &e.attrs["value"];
        // A single cable carries no label; a bundle says how many ("8 x InfiniBand ...").
        cables += if label.is_empty() {
            1
        } else {
            label.split(" x ").next().unwrap().parse::<usize>().unwrap()
        };
        assert!(on(2, &e.attrs["source"]).is_some() && on(2, &e.attrs["target"]).is_some());
    }
    assert_eq!(cables, d.links.len());
    // Bundled: one edge per pair of devices and medium (leaf-spine cables run in parallel), so fewer edges than
    // cables.
    let pairs: std::collections::BTreeSet<_> = d
        .links
        .values()
        .map(|l| {
            (
                l.a.device.min(l.b.device),
                l.a.device.max(l.b.device),
                l.medium.to_string(),
            )
        })
        .collect();
    assert_eq!(edges.len(), pairs.len());
    assert!(
        edges.len() < d.links.len(),
        "{} edges for {} cables",
        edges.len(),
        d.links.len()
    );
}

#[test]
fn names_that_look_like_markup_come_back_as_written() {
    let mut d = racksmith::samples::sample("dgx-h100-single").unwrap();
    let hostile = "<b>x</b> & \"y\" 'z' <script>";
    let id = *d.devices.keys().next().unwrap();
    d.devices.get_mut(&id).unwrap().name = hostile.to_string();
    let rack = *d.racks.keys().next().unwrap();
    d.racks.get_mut(&rack).unwrap().name = hostile.to_string();
    let text = drawio(&d);
    assert!(!text.contains("<script>"));
    let (_, cells) = cells(&text);
    assert!(
        cells
            .iter()
            .any(|c| c.attrs.get("value").is_some_and(|v| v.starts_with(hostile)))
    );
    assert!(
        cells
            .iter()
            .any(|c| c.attrs.get("value").map(String::as_str) == Some(hostile))
    );
    // Labels are plain text in draw.io (html=0), so the markup is shown, not rendered.
    assert!(
        cells
            .iter()
            .filter(|c| c.attrs.contains_key("style"))
            .all(|c| !c.attrs["style"].contains("html=1"))
    );
}
