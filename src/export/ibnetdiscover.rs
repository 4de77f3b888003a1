//! The topology a design's InfiniBand fabric should report, in the text `ibnetdiscover` writes (see
//! `io::fabric`): one record per switch and per HCA (a server's NIC slot, a storage appliance), node descriptions
//! from the design's names (`leaf-01`; `dgx-01 mlx5_0` for NIC slot 0), GUIDs made up from the design's ids so the
//! same design always gives the same file. A subnet manager's checks and `racksmith diff-fabric` read it back.

use crate::analysis::asbuilt::{FabricNode, description, fabric_port, speed_name};
use crate::catalog::PartKind;
use crate::model::{Design, Medium};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The design's InfiniBand links as ibnetdiscover reports them.
pub fn write(design: &Design) -> String {
    // Per node, its connected ports: (port, the node and port at the other end, the rate's name).
    type Ports = BTreeMap<u16, (FabricNode, u16, &'static str)>;
    let mut nodes: BTreeMap<FabricNode, Ports> = BTreeMap::new();
    for l in design.links.values() {
        let Medium::InfiniBand(rate) = l.medium else {
            continue;
        };
        let speed = speed_name(rate);
        let (Some((na, pa)), Some((nb, pb))) = (
            fabric_port(design, l.a.device, &l.a.port),
            fabric_port(design, l.b.device, &l.b.port),
        ) else {
            continue;
        };
        nodes.entry(na).or_default().insert(pa, (nb, pb, speed));
        nodes.entry(nb).or_default().insert(pb, (na, pa, speed));
    }
    let mut o = String::with_capacity(nodes.len() * 256);
    let _ = writeln!(
        o,
        "#\n# Topology file: the InfiniBand fabric of \"{}\" as ibnetdiscover should report it (Racksmith)\n#\n",
        design.name.replace(['"', '\n', '\r'], "'")
    );
    for (node, ports) in &nodes {
        let guid = node.guid();
        let hex = guid.get(2..).unwrap_or_default();
        let desc = description(design, *node);
        match node {
            FabricNode::Switch(d) => {
                let count = design
                    .devices
                    .get(d)
                    .and_then(|x| design.parts.get(&x.part))
                    .map_or(0, |p| match &p.kind {
                        PartKind::Switch(s) => s.ports,
                        _ => 0,
                    });
                let _ = writeln!(
                    o,
                    "vendid=0x2c9\ndevid=0xd2f0\nsysimgguid=0x{hex}\nswitchguid=0x{hex}({hex})\nSwitch\t{count} \"{guid}\"\t\t# \"{desc}\" enhanced port 0 lid 0 lmc 0"
                );
            }
            FabricNode::Hca(..) => {
                let _ = writeln!(
                    o,
                    "vendid=0x2c9\ndevid=0x1021\nsysimgguid=0x{hex}\ncaguid=0x{hex}\nCa\t{} \"{guid}\"\t\t# \"{desc}\"",
                    ports.keys().max().copied().unwrap_or(1)
                );
            }
        }
        for (port, (to, to_port, speed)) in ports {
            let own = match node {
                FabricNode::Hca(..) => format!("({hex})"),
                FabricNode::Switch(_) => String::new(),
            };
            let _ = writeln!(
                o,
                "[{port}]{own}\t\"{}\"[{to_port}]\t\t# \"{}\" lid 0 4x{speed}",
                to.guid(),
                description(design, *to)
            );
        }
        o.push('\n');
    }
    o
}
