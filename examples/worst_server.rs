//! Builds the largest server the limits allow (576 GPU and 576 NIC slots, every slot filled and every NIC port
//! cabled to a switch) and times its analysis: `cargo run --release --example worst_server`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // an example that cannot set up should stop loudly

use racksmith::analysis::analyze;
use racksmith::catalog::{Catalog, PartKind};
use racksmith::edit::Builder;
use racksmith::model::{Design, PartId};
use std::time::Instant;

fn main() {
    let slots: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(576);
    let d = worst(slots);
    let t = Instant::now();
    let r = analyze(&d);
    println!(
        "{slots} GPU and NIC slots: {} GPUs, {} links, analysed in {:.1} ms; bottleneck {}",
        r.summary.gpus,
        d.links.len(),
        t.elapsed().as_secs_f64() * 1e3,
        r.summary.bottleneck
    );
}

/// One server with `slots` GPU and NIC slots under one PCIe switch each, all filled, each NIC cabled.
pub fn worst(slots: usize) -> Design {
    let c = Catalog::builtin().unwrap();
    let mut d = Design::default();
    let (rack, _) = Builder::new(&mut d, &c)
        .add_rack("rack-48u", "R", 0, 0)
        .unwrap();
    let mut b = Builder::new(&mut d, &c);
    let server = b.add_device("dgx-h100", "big", rack, 1).unwrap();
    let id = PartId::new("dgx-h100");
    let mut part = d.parts[&id].clone();
    if let PartKind::Server(s) = &mut part.kind {
        let g = s.gpu_slots[0].clone();
        let n = s.nic_slots[0].clone();
        s.gpu_slots = vec![g; slots];
        s.nic_slots = vec![n; slots];
    }
    d.parts.insert(id, part);
    let gpu = d.devices[&server].gpus.values().next().unwrap().clone();
    let nic = d.devices[&server].nics.values().next().unwrap().clone();
    let dev = d.devices.get_mut(&server).unwrap();
    dev.gpus = (0..slots as u16).map(|i| (i, gpu.clone())).collect();
    dev.nics = (0..slots as u16).map(|i| (i, nic.clone())).collect();
    let mut b = Builder::new(&mut d, &c);
    let mut switches = Vec::new();
    for i in 0..slots.div_ceil(64) {
        switches.push(
            b.add_device("qm9700", &format!("sw{i}"), rack, 10 + i as u16)
                .unwrap(),
        );
    }
    for i in 0..slots {
        let a = racksmith::model::PortRef::new(server, format!("nic{i}/p1"));
        let z = racksmith::model::PortRef::new(switches[i / 64], format!("p{}", i % 64 + 1));
        let _ = b.connect(a, z, 3.0, None);
    }
    d
}
