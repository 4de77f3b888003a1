//! Designs of the hostile-input rounds (issue 36) that both `tests/hostile_rounds.rs` and `examples/hostile.rs`
//! build: the test at a reduced scale, the example at the (docs/limits.md, "Long runs").

use racksmith::catalog::Catalog;
use racksmith::edit::Builder;
use racksmith::model::{Design, DeviceId, PortRef};

/// A port of a device by name.
pub fn port(device: DeviceId, name: &str) -> PortRef {
    PortRef {
        device,
        port: name.into(),
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

/// [`chain`] closed into a ring (the last switch cabled back to the first): one cycle in a fabric that is
/// otherwise a tree, so no switch is a single point of failure and the forest routing does not apply.
pub fn ring(catalog: &Catalog, switches: usize) -> Design {
    let mut d = chain(catalog, switches);
    d.name = format!("a ring of {switches} switches");
    let first = d.device_named("sw-00000");
    let last = d.device_named(&format!("sw-{:05}", switches.saturating_sub(1)));
    if let (Some(first), Some(last)) = (first, last)
        && first != last
    {
        let mut b = Builder::new(&mut d, catalog);
        b.connect(port(last, "p2"), port(first, "p1"), 1.0, None)
            .unwrap();
    }
    d
}
