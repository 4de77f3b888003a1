//! Designs of the hostile-input rounds (issue 36) that both `tests/hostile_rounds.rs` and `examples/hostile.rs`
//! build: the test at a reduced scale, the example at the (docs/limits.md, "Long runs").

use racksmith::catalog::Catalog;
use racksmith::edit::Builder;
use racksmith::model::{Design, DeviceId, PortRef};

/// A port of a device by name.
pub fn port(device: DeviceId, name: &str) -> PortRef {
    PortRef {
        device,
        port: name.to_string(),
    }
}

/// A chain of `switches` QM9700 in racks of their own, each with a DGX H100 on one cable: every switch and every
/// cable is a single point of failure (the 6,000-switch chain at a reduced scale).
pub fn chain(catalog: &Catalog, switches: usize) -> Design {
    let mut d = Design {
        name: format!("a chain of {switches} switches"),
        ..Design::default()
    };
    let mut b = Builder::new(&mut d, catalog);
    let mut prev: Option<DeviceId> = None;
    for i in 0..switches {
        let rack = b
            .add_rack(
                "rack-48u",
                &format!("R{i:05}"),
                (i / 32) as u16,
                (i % 32) as u16,
            )
            .unwrap()
            .0;
        let sw = b
            .add_device("qm9700", &format!("sw-{i:05}"), rack, 1)
            .unwrap();
        if let Some(p) = prev {
            b.connect(port(p, "p2"), port(sw, "p1"), 1.0, None).unwrap();
        }
        let dgx = b
            .add_device("dgx-h100", &format!("dgx-{i:05}"), rack, 10)
            .unwrap();
        b.connect(port(dgx, "nic0/p1"), port(sw, "p3"), 3.0, None)
            .unwrap();
        prev = Some(sw);
    }
    d
}
