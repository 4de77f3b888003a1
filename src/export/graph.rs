//! The fabric as a graph for other tools: Graphviz DOT (devices as nodes with their role, ranked by tier, cables
//! between the same two devices as one edge labelled with count, medium and speed, a single cable unlabelled) and JSON nodes and links with ports, the shape
//! fabric emulators such as NVIDIA Air take.

use super::ExportError;
use crate::catalog::PartKind;
use crate::model::{Design, DeviceId};
use crate::topology::{NodeKind, Topology};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What a device is in the fabric: gpu-server, server, storage, leaf, spine, core, tier-N switch, or its part
/// kind for devices off the network (pdu, patch-panel).
pub fn role(design: &Design, topo: &Topology, id: DeviceId) -> String {
    match topo.kind(id) {
        Some(NodeKind::GpuServer) => "gpu-server".into(),
        Some(NodeKind::Server) => "server".into(),
        Some(NodeKind::Storage) => "storage".into(),
        Some(NodeKind::Switch) => match topo.tier(id) {
            Some(1) => "leaf".into(),
            Some(2) => "spine".into(),
            Some(3) => "core".into(),
            Some(t) => format!("tier-{t}-switch"),
            None => "switch".into(),
        },
        None => match design
            .devices
            .get(&id)
            .and_then(|d| design.parts.get(&d.part))
            .map(|p| &p.kind)
        {
            Some(PartKind::Pdu(_)) => "pdu".into(),
            Some(PartKind::Cdu(_)) => "cdu".into(),
            Some(PartKind::Switch(_)) => "switch".into(),
            Some(PartKind::Server(_)) => "server".into(),
            Some(PartKind::Storage(_)) => "storage".into(),
            _ => "other".into(),
        },
    }
}

/// Quotes a DOT identifier or label through the format's one escaping function.
fn q(text: &str) -> String {
    super::escape::dot(text)
}

/// Graphviz DOT of the cabled fabric, ranked by tier (servers at the bottom).
pub fn dot(design: &Design) -> String {
    let topo = Topology::build(design);
    let mut s = String::new();
    let _ = writeln!(s, "graph {} {{", q(&design.name));
    let _ = writeln!(
        s,
        "  graph [rankdir=BT, splines=false, nodesep=0.15, ranksep=1.2, fontname=\"Helvetica\", label={}];",
        q(&format!("{}: fabric (Racksmith)", design.name))
    );
    let _ = writeln!(
        s,
        "  node [shape=box, style=\"filled,rounded\", fontname=\"Helvetica\", fontsize=10, fontcolor=\"white\"];"
    );
    let _ = writeln!(s, "  edge [fontname=\"Helvetica\", fontsize=8];");
    let mut ranks: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let linked: std::collections::BTreeSet<DeviceId> = design
        .links
        .values()
        .flat_map(|l| [l.a.device, l.b.device])
        .collect();
    for (id, d) in &design.devices {
        if topo.kind(*id).is_none() && !linked.contains(id) {
            continue;
        }
        let r = role(design, &topo, *id);
        let part = design.parts.get(&d.part).map_or("", |p| p.name.as_str());
        let fill = super::svg::device_fill(design, d);
        let node = format!("d{}", id.0);
        let _ = writeln!(
            s,
            "  {node} [label={}, fillcolor=\"{fill}\", tooltip={}];",
            // Name and role: the part's name (the widest line) is in the tooltip, so a row of 32 servers stays a
            // few thousand points wide.
            q(&format!("{}\n{r}", d.name)),
            q(&format!("{} ({part}), {r}", d.name))
        );
        let rank = match r.as_str() {
            "gpu-server" | "server" | "storage" => "0".to_string(),
            _ => topo
                .tier(*id)
                .map_or_else(|| "0".to_string(), |t| t.to_string()),
        };
        ranks.entry(rank).or_default().push(node);
    }
    for nodes in ranks.values() {
        let _ = writeln!(s, "  {{ rank=same; {} }}", nodes.join("; "));
    }
    // Cables between the same two devices with the same medium are one edge.
    let mut edges: BTreeMap<(DeviceId, DeviceId, String), usize> = BTreeMap::new();
    for l in design.links.values() {
        let (a, b) = if l.a.device <= l.b.device {
            (l.a.device, l.b.device)
        } else {
            (l.b.device, l.a.device)
        };
        *edges.entry((a, b, l.medium.to_string())).or_default() += 1;
    }
    // A bundle is labelled with its count and drawn heavier; a single cable has no label. Bundle labels are
    // `xlabel`s, placed after the layout: a `label` is a node of the layout and widens its rank (a 1-SU fabric
    // with a label on every cable rendered 37,786 pt wide, with labels on its 44 bundles 7,411 pt; with xlabels
    // 2,723 pt). A single cable's medium stays in its tooltip.
    for ((a, b, medium), count) in edges {
        if count > 1 {
            let _ = writeln!(
                s,
                "  d{} -- d{} [xlabel={}, penwidth={}, tooltip={}];",
                a.0,
                b.0,
                q(&format!("{count} x {medium}")),
                1 + count.min(8) / 2,
                q(&format!("{count} x {medium}"))
            );
        } else {
            let _ = writeln!(s, "  d{} -- d{} [tooltip={}];", a.0, b.0, q(&medium));
        }
    }
    s.push_str("}\n");
    s
}

#[derive(Serialize)]
struct JsonPort {
    name: String,
    link: u64,
}

#[derive(Serialize)]
struct JsonNode {
    id: u64,
    name: String,
    role: String,
    part: String,
    part_name: String,
    rack: String,
    position_u: u16,
    gpus: usize,
    ports: Vec<JsonPort>,
}

#[derive(Serialize)]
struct JsonEnd {
    node: String,
    node_id: u64,
    interface: String,
}

#[derive(Serialize)]
struct JsonLink {
    id: u64,
    a: JsonEnd,
    b: JsonEnd,
    medium: String,
    speed_gbps: f64,
    cable: Option<String>,
    length_m: f64,
}

#[derive(Serialize)]
struct JsonGraph {
    design: String,
    generator: String,
    nodes: Vec<JsonNode>,
    links: Vec<JsonLink>,
}

/// Nodes (every device, with its cabled ports) and links (both ends by device name and port, speed).
pub fn json(design: &Design) -> Result<Vec<u8>, ExportError> {
    let topo = Topology::build(design);
    let mut ports: BTreeMap<DeviceId, Vec<JsonPort>> = BTreeMap::new();
    for (lid, l) in &design.links {
        for end in [&l.a, &l.b] {
            ports.entry(end.device).or_default().push(JsonPort {
                name: end.port.to_string(),
                link: lid.0,
            });
        }
    }
    let name = |id: DeviceId| {
        design
            .devices
            .get(&id)
            .map_or_else(|| id.to_string(), |d| d.name.clone())
    };
    let nodes = design
        .devices
        .iter()
        .map(|(id, d)| {
            let mut p = ports.remove(id).unwrap_or_default();
            p.sort_by(|a, b| a.name.cmp(&b.name));
            JsonNode {
                id: id.0,
                name: d.name.clone(),
                role: role(design, &topo, *id),
                part: d.part.to_string(),
                part_name: design
                    .parts
                    .get(&d.part)
                    .map_or_else(String::new, |p| p.name.clone()),
                rack: design
                    .racks
                    .get(&d.rack)
                    .map_or_else(String::new, |r| r.name.clone()),
                position_u: d.position_u,
                gpus: d.gpus.len(),
                ports: p,
            }
        })
        .collect();
    let links = design
        .links
        .iter()
        .map(|(id, l)| JsonLink {
            id: id.0,
            a: JsonEnd {
                node: name(l.a.device),
                node_id: l.a.device.0,
                interface: l.a.port.to_string(),
            },
            b: JsonEnd {
                node: name(l.b.device),
                node_id: l.b.device.0,
                interface: l.b.port.to_string(),
            },
            medium: l.medium.to_string(),
            speed_gbps: l.medium.gbps(),
            cable: l.cable.as_ref().map(ToString::to_string),
            length_m: l.length_m,
        })
        .collect();
    let g = JsonGraph {
        design: design.name.clone(),
        generator: format!("Racksmith {}", env!("CARGO_PKG_VERSION")),
        nodes,
        links,
    };
    let mut out = serde_json::to_vec_pretty(&g).map_err(|e| ExportError::Write {
        format: "json",
        message: e.to_string(),
    })?;
    out.push(b'\n');
    Ok(out)
}
