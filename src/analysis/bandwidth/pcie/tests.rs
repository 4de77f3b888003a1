use super::*;
use crate::catalog::Catalog;
use crate::model::part::{FormFactor, GpuSlotSpec, NicSlotSpec, PcieSwitchSpec, SlotSpec};

/// Gen5 x16: 16 lanes x 32 GT/s x 128/130 / 8 bits = 63.015 GB/s per direction.
const GEN5_X16: PcieLink = PcieLink {
    generation: 5,
    lanes: 16,
};
/// Gen4 x16: 16 lanes x 16 GT/s x 128/130 / 8 bits = 31.508 GB/s per direction.
const GEN4_X16: PcieLink = PcieLink {
    generation: 4,
    lanes: 16,
};

fn slot(parent: &str) -> SlotSpec {
    SlotSpec {
        parent: parent.into(),
        link: Some(GEN5_X16),
    }
}

/// One server of h100-pcie GPUs (Gen5 x16) and cx7-ndr compute NICs (Gen5 x16, one 400 Gb/s port, cabled:
/// 400 / 8 = 50 GB/s), each GPU and NIC in a Gen5 x16 slot under the parent given, with PCIe switches
/// (name, uplink) under cpu0.
fn server(switches: &[(&str, PcieLink)], gpus: &[&str], nics: &[&str]) -> ServerBandwidth {
    let catalog = Catalog::builtin().unwrap();
    let mut design = Design::default();
    for id in ["h100-pcie", "cx7-ndr"] {
        design
            .parts
            .insert(PartId::new(id), catalog.get(id).unwrap().clone());
    }
    let spec = ServerSpec {
        cpu_sockets: 1,
        pcie_switches: switches
            .iter()
            .map(|(name, uplink)| PcieSwitchSpec {
                name: (*name).into(),
                parent: "cpu0".into(),
                uplink: Some(*uplink),
            })
            .collect(),
        gpu_slots: gpus
            .iter()
            .map(|p| GpuSlotSpec {
                form: FormFactor::Pcie,
                slot: slot(p),
            })
            .collect(),
        nic_slots: nics
            .iter()
            .map(|p| NicSlotSpec {
                slot: slot(p),
                role: NicRole::Compute,
            })
            .collect(),
        ..ServerSpec::default()
    };
    let device = Device {
        name: "s".into(),
        gpus: (0..gpus.len() as u16)
            .map(|i| (i, PartId::new("h100-pcie")))
            .collect(),
        nics: (0..nics.len() as u16)
            .map(|i| (i, PartId::new("cx7-ndr")))
            .collect(),
        ..Device::default()
    };
    let cabled: Vec<(u16, u16, u64)> = (0..nics.len() as u16)
        .map(|i| (i, 1, 400f64.to_bits()))
        .collect();
    server_bandwidth(&design, DeviceId(1), &device, &spec, &cabled, 0.0)
}

fn hop<'a>(s: &'a ServerBandwidth, name: &str) -> &'a PcieHop {
    s.pcie
        .iter()
        .find(|h| h.hop.to_string() == name)
        .unwrap_or_else(|| panic!("no hop {name} in {:?}", s.pcie))
}

#[test]
fn gen5_x16_link_carries_63_gbyte_s() {
    // One GPU and one NIC straight on cpu0: the path is gpu0 link, nic0 link (63.015 GB/s each, from
    // 16 x 32 GT/s x 128/130 / 8), then the NIC's port, 400 Gb/s / 8 = 50 GB/s. The port is the limit: 50 GB/s.
    let s = server(&[], &["cpu0"], &["cpu0"]);
    assert_eq!(hop(&s, "gpu0 link").capacity_gbyte_s, 63.015);
    assert_eq!(hop(&s, "nic0 link").capacity_gbyte_s, 63.015);
    assert_eq!(hop(&s, "nic0 port").capacity_gbyte_s, 50.0);
    assert_eq!(hop(&s, "gpu0 link").load_gbyte_s, 50.0);
    assert_eq!(s.network_gbyte_s_per_gpu, 50.0);
    assert_eq!(s.bottleneck_hop, "nic0 port");
    assert!(s.bottleneck_at_nic_port);
    // No NVLink: two GPUs' ring would be the PCIe path; one GPU has no ring.
    assert_eq!(s.intra_gbyte_s_per_gpu, 0.0);
    assert_eq!(s.nic_gbps_per_gpu, 400.0);
}

#[test]
fn gpus_sharing_a_switch_uplink_split_it() {
    // Two GPUs under psw0, whose uplink to cpu0 is Gen4 x16: 16 x 16 GT/s x 128/130 / 8 = 31.508 GB/s; the NIC
    // sits on cpu0. Each GPU is offered half the NIC port (50 / 2 = 25 GB/s); both cross the uplink, which is
    // offered 50 against 31.508, so each flow is held to 31.508 / 50 of its rate: 25 x 0.63015 = 15.754 GB/s
    // per GPU, half the uplink. The uplink is the choke; its lanes: two x16 GPUs below, x16 above.
    let s = server(&[("psw0", GEN4_X16)], &["psw0", "psw0"], &["cpu0"]);
    let up = hop(&s, "psw0 uplink");
    assert_eq!(up.capacity_gbyte_s, 31.508);
    assert_eq!(up.offered_gbyte_s, 50.0);
    assert_eq!(up.load_gbyte_s, 31.508);
    assert!(up.choke);
    assert_eq!((up.lanes_down, up.lanes_up), (32, 16));
    assert_eq!(s.network_gbyte_s_per_gpu, 15.754);
    assert_eq!(s.bottleneck_hop, "psw0 uplink");
    assert!(!s.bottleneck_at_nic_port);
    // Each GPU's own link carries its 15.754 (the member's link is listed like the representative's).
    assert_eq!(hop(&s, "gpu0 link").load_gbyte_s, 15.754);
    assert_eq!(hop(&s, "gpu1 link").load_gbyte_s, 15.754);
    // GPU to GPU over PCIe: the ring's hops are the two Gen5 links through psw0, 63.015 GB/s.
    assert_eq!(s.intra_gbyte_s_per_gpu, 63.015);
}

#[test]
fn nic_behind_the_gpus_switch_never_crosses_the_uplink() {
    // The same two GPUs and the NIC all under psw0: the path turns in the switch (gpu link, nic link), so the
    // slow uplink carries nothing and the NIC port is the limit: 50 GB/s / 2 GPUs = 25 GB/s each. The NIC's
    // link carries both flows, 2 x 25 = 50 of its 63.015 GB/s.
    let s = server(&[("psw0", GEN4_X16)], &["psw0", "psw0"], &["psw0"]);
    assert!(s.pcie.iter().all(|h| h.hop.to_string() != "psw0 uplink"));
    assert_eq!(hop(&s, "nic0 link").load_gbyte_s, 50.0);
    assert_eq!(hop(&s, "nic0 port").load_gbyte_s, 50.0);
    assert_eq!(s.network_gbyte_s_per_gpu, 25.0);
    assert_eq!(s.bottleneck_hop, "nic0 port");
    assert!(s.pcie.iter().all(|h| !h.choke));
}

#[test]
fn gpus_on_two_sockets_cross_the_inter_socket_link() {
    // GPU 0 on cpu0, GPU 1 on cpu1, no NVLink: the path between them is both GPUs' own links and the link
    // between the sockets. With the sockets at 20 GB/s, slower than the Gen5 x16 links (63.015), the PCIe ring
    // gets 20 GB/s per GPU.
    let tree_spec = ServerSpec {
        cpu_sockets: 2,
        inter_socket_gbyte_s: 20.0,
        ..ServerSpec::default()
    };
    let tree = Tree { spec: &tree_spec };
    let a = tree.climb((Hop::GpuLink(0), 63.015), "cpu0");
    let b = tree.climb((Hop::GpuLink(1), 63.015), "cpu1");
    let path = tree.path(&a, &b);
    let names: Vec<String> = path.iter().map(|(h, _)| h.to_string()).collect();
    assert_eq!(names, ["gpu0 link", "gpu1 link", "cpu0-cpu1"]);
    assert_eq!(pcie_ring_gbyte_s(&tree, &[(0, a), (1, b)]), 20.0);
}
