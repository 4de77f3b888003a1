//! draw.io (diagrams.net) export: an uncompressed `.drawio` file (`mxfile` XML) with two pages, editable in
//! draw.io.
//!
//! - Page 1, "Racks": every rack as a container at its row and slot order, with each rack-mounted device as a shape
//!   inside it at its rack units (U1 at the bottom, 20 px per unit), labelled with its name and coloured by
//!   category; 0U devices (side-mounted PDUs) as a strip beside their rack.
//! - Page 2, "Fabric": every cabled device by tier (servers and storage at the bottom, then leaf, spine, core), and
//!   one orthogonal edge per pair of devices: the cables between the same two devices are one bundle labelled with
//!   their count and medium ("8 x InfiniBand Ndr 400G"), a single cable carries no label.
//!
//! Labels are plain text (`html=0`), and every attribute value goes through `escape::xml`, so a name shows as
//! written and can never add markup. Shapes carry ids `rack-N`, `dev-N` and `link-A-B` from the design's ids.

use super::escape::xml;
use crate::model::part::PartKind;
use crate::model::{Design, DeviceId};
use crate::topology::{NodeKind, Topology};
use std::collections::BTreeMap;
use std::fmt::Write as _;

const U_PX: f64 = 20.0;
const RACK_W: f64 = 220.0;
const RACK_GAP: f64 = 80.0;
const HEADER: f64 = 30.0;
const NODE_W: f64 = 140.0;
const NODE_H: f64 = 44.0;
const NODE_GAP: f64 = 24.0;
const TIER_GAP: f64 = 180.0;

/// Fill colour by category (the SVG drawing's colours).
fn fill(design: &Design, id: DeviceId) -> String {
    design
        .devices
        .get(&id)
        .map_or_else(|| "#5c5c5c".into(), |d| super::svg::device_fill(design, d))
}

/// One shape: an `mxCell` vertex with its geometry.
fn vertex(out: &mut String, id: &str, label: &str, style: &str, parent: &str, geo: [f64; 4]) {
    let [x, y, w, h] = geo;
    let _ = writeln!(
        out,
        "        <mxCell id=\"{}\" value=\"{}\" style=\"{}\" vertex=\"1\" parent=\"{}\">\n          \
         <mxGeometry x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" as=\"geometry\"/>\n        </mxCell>",
        xml(id),
        xml(label),
        xml(style),
        xml(parent)
    );
}

fn page(out: &mut String, id: &str, name: &str, cells: &str) {
    let _ = write!(
        out,
        "  <diagram id=\"{}\" name=\"{}\">\n    <mxGraphModel grid=\"1\" gridSize=\"10\" guides=\"1\" \
         tooltips=\"1\" connect=\"1\" arrows=\"0\" fold=\"1\" page=\"0\" pageScale=\"1\" math=\"0\" shadow=\"0\">\n      \
         <root>\n        <mxCell id=\"0\"/>\n        <mxCell id=\"1\" parent=\"0\"/>\n{cells}      </root>\n    \
         </mxGraphModel>\n  </diagram>\n",
        xml(id),
        xml(name)
    );
}

/// The rack elevations page's cells.
fn racks_page(design: &Design) -> String {
    let mut cells = String::new();
    let mut racks: Vec<_> = design.racks.iter().collect();
    racks.sort_by(|(ia, a), (ib, b)| {
        (a.row, a.slot, &a.name, *ia).cmp(&(b.row, b.slot, &b.name, *ib))
    });
    let tallest = racks.iter().map(|(_, r)| r.height_u).max().unwrap_or(42);
    let mut row_of: BTreeMap<u16, usize> = BTreeMap::new();
    let mut x_in_row: BTreeMap<u16, f64> = BTreeMap::new();
    for (rid, rack) in racks {
        let rows = row_of.len();
        let row = *row_of.entry(rack.row).or_insert(rows);
        let x = x_in_row.entry(rack.row).or_insert(0.0);
        let y = row as f64 * (f64::from(tallest) * U_PX + HEADER + RACK_GAP * 2.0);
        let h = f64::from(rack.height_u) * U_PX + HEADER;
        let rack_id = format!("rack-{}", rid.0);
        vertex(
            &mut cells,
            &rack_id,
            &rack.name,
            "rounded=0;whiteSpace=wrap;html=0;container=1;collapsible=0;verticalAlign=top;fontStyle=1;\
             fillColor=#f5f5f5;strokeColor=#333333;",
            "1",
            [*x, y, RACK_W, h],
        );
        for (did, d) in design.devices.iter().filter(|(_, d)| d.rack == *rid) {
            let height = design.device_height_u(d);
            let part = design.parts.get(&d.part);
            let label = match part {
                Some(p) if height > 0 => format!("{} ({})", d.name, p.name),
                _ => d.name.clone(),
            };
            let style = format!(
                "rounded=1;whiteSpace=wrap;html=0;fillColor={};fontColor=#ffffff;strokeColor=#222222;fontSize=10;",
                fill(design, *did)
            );
            let geo = if height > 0 {
                let top_u = f64::from(d.position_u) + f64::from(height) - 1.0;
                [
                    10.0,
                    HEADER + (f64::from(rack.height_u) - top_u) * U_PX,
                    RACK_W - 20.0,
                    f64::from(height) * U_PX,
                ]
            } else {
                // Side-mounted: a strip at the rack's right edge, outside the unit rails.
                [RACK_W + 4.0, HEADER, 16.0, f64::from(rack.height_u) * U_PX]
            };
            vertex(
                &mut cells,
                &format!("dev-{}", did.0),
                &label,
                &style,
                &rack_id,
                geo,
            );
        }
        *x += RACK_W + RACK_GAP;
    }
    cells
}

/// The fabric page's cells: devices by tier, bundles as orthogonal edges.
fn fabric_page(design: &Design) -> String {
    let topo = Topology::build(design);
    let linked: std::collections::BTreeSet<DeviceId> = design
        .links
        .values()
        .flat_map(|l| [l.a.device, l.b.device])
        .collect();
    let mut tiers: BTreeMap<u8, Vec<DeviceId>> = BTreeMap::new();
    for (id, d) in &design.devices {
        let tier = match topo.kind(*id) {
            Some(NodeKind::GpuServer | NodeKind::Server | NodeKind::Storage) => 0,
            Some(NodeKind::Switch) => topo.tier(*id).unwrap_or(1).max(1),
            None if linked.contains(id) => match design.parts.get(&d.part).map(|p| &p.kind) {
                Some(PartKind::Switch(_)) => 1,
                _ => 0,
            },
            None => continue,
        };
        tiers.entry(tier).or_default().push(*id);
    }
    let widest = tiers.values().map(Vec::len).max().unwrap_or(1) as f64;
    let full = widest * (NODE_W + NODE_GAP);
    let top = tiers.keys().max().copied().unwrap_or(0);
    let mut cells = String::new();
    for (tier, ids) in &mut tiers {
        ids.sort_by(|a, b| {
            let n = |i: &DeviceId| design.devices.get(i).map_or("", |d| d.name.as_str());
            n(a).cmp(n(b)).then(a.cmp(b))
        });
        let span = ids.len() as f64 * (NODE_W + NODE_GAP);
        let x0 = (full - span) / 2.0;
        let y = f64::from(top - *tier) * (NODE_H + TIER_GAP);
        for (k, id) in ids.iter().enumerate() {
            let Some(d) = design.devices.get(id) else {
                continue;
            };
            let style = format!(
                "rounded=1;whiteSpace=wrap;html=0;fillColor={};fontColor=#ffffff;strokeColor=#222222;fontSize=10;",
                fill(design, *id)
            );
            vertex(
                &mut cells,
                &format!("dev-{}", id.0),
                &d.name,
                &style,
                "1",
                [x0 + k as f64 * (NODE_W + NODE_GAP), y, NODE_W, NODE_H],
            );
        }
    }
    // Cables between the same two devices and of one medium are one edge, labelled with their count.
    let mut bundles: BTreeMap<(DeviceId, DeviceId, String), usize> = BTreeMap::new();
    for l in design.links.values() {
        let (a, b) = if l.a.device <= l.b.device {
            (l.a.device, l.b.device)
        } else {
            (l.b.device, l.a.device)
        };
        *bundles.entry((a, b, l.medium.to_string())).or_default() += 1;
    }
    for (k, ((a, b, medium), count)) in bundles.iter().enumerate() {
        let label = if *count > 1 {
            format!("{count} x {medium}")
        } else {
            String::new()
        };
        let width = if *count > 1 {
            2 + (*count).min(8) / 2
        } else {
            1
        };
        let _ = writeln!(
            cells,
            "        <mxCell id=\"{}\" value=\"{}\" style=\"{}\" edge=\"1\" parent=\"1\" source=\"dev-{}\" \
             target=\"dev-{}\">\n          <mxGeometry relative=\"1\" as=\"geometry\"/>\n        </mxCell>",
            xml(&format!("link-{}-{}-{k}", a.0, b.0)),
            xml(&label),
            xml(&format!(
                "edgeStyle=orthogonalEdgeStyle;rounded=0;html=0;endArrow=none;strokeWidth={width};fontSize=9;"
            )),
            a.0,
            b.0
        );
    }
    cells
}

/// The design as an uncompressed draw.io file: rack elevations on page 1, the fabric on page 2.
pub fn drawio(design: &Design) -> String {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<mxfile host=\"Racksmith\" type=\"device\" compressed=\"false\">\n",
    );
    page(
        &mut out,
        "racks",
        &format!("Racks: {}", design.name),
        &racks_page(design),
    );
    page(
        &mut out,
        "fabric",
        &format!("Fabric: {}", design.name),
        &fabric_page(design),
    );
    out.push_str("</mxfile>\n");
    out
}
