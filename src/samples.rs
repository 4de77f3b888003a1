//! The built-in sample designs: their names, titles and the app's default design. Each is a template's output
//! (`templates::fixed`, `templates::superpod`): the committed files in `sample-designs/` are written from them
//! (`racksmith sample NAME`) and a test checks that they stay in step. The generators are re-exported here for
//! the tests, benchmarks and examples that build designs of other sizes.

use crate::catalog::Catalog;
use crate::edit::EditError;
use crate::model::Design;

pub use crate::templates::fixed::{
    TrainingCluster, a100_nic_starved, dgx_h100_single, l40s_inference, l40s_two_regions,
    training_cluster,
};
pub use crate::templates::superpod::{
    DGX_B200, DGX_H100, SuperPodSystem, dgx_fabric, rack_leaf_h100, superpod, superpod_h100,
};

/// Names of the built-in samples, in menu order. The first is the app's default design.
pub const SAMPLES: [&str; 7] = [
    "superpod-h100-1su",
    "dgx-h100-single",
    "a100-nic-starved",
    "l40s-inference-pcie",
    "a100-120gpu-training",
    "h100-60gpu-training",
    "l40s-two-regions",
];

/// A sample's title as its design names itself (menus show this, not the file name); the name itself when unknown.
/// A test checks each against the generated design.
pub fn title(name: &str) -> &str {
    match name {
        "superpod-h100-1su" => "DGX SuperPOD H100, 1 SU",
        "dgx-h100-single" => "One DGX H100 with leaf and storage",
        "a100-nic-starved" => "A100 servers behind one 200G NIC each",
        "l40s-inference-pcie" => "L40S inference on Ethernet",
        "a100-120gpu-training" => "120 A100 for a 13B-parameter training job",
        "h100-60gpu-training" => "60 H100 for a 13B-parameter training job",
        "l40s-two-regions" => "L40S inference in two regions",
        other => other,
    }
}

/// Builds a sample by name, with the built-in catalog.
pub fn sample(name: &str) -> Result<Design, EditError> {
    let catalog = Catalog::builtin().map_err(|e| EditError::Refused(e.to_string()))?;
    crate::templates::fixed::by_name(&catalog, name)
}

/// The design the app opens with.
pub fn default_design() -> Design {
    sample(SAMPLES[0]).unwrap_or_default()
}

/// A DGX H100 reshaped to `slots` GPU and `slots` NIC slots, all on the first CPU with no PCIe switch and no
/// NVLink: every NIC alike to the server model (the hostile rounds' wide servers, docs/limits.md). None when the
/// catalog has no DGX H100.
pub fn wide_server(catalog: &Catalog, slots: u16) -> Option<crate::catalog::Part> {
    use crate::model::part::{GpuSlotSpec, NicSlotSpec, PartKind, SlotSpec};
    let mut server = catalog.get("dgx-h100")?.clone();
    if let PartKind::Server(s) = &mut server.kind {
        let form = s.gpu_slots.first()?.form;
        let slot = SlotSpec {
            parent: "cpu0".into(),
            link: None,
        };
        s.pcie_switches.clear();
        s.gpu_slots = vec![
            GpuSlotSpec {
                form,
                slot: slot.clone()
            };
            usize::from(slots)
        ];
        s.nic_slots = vec![
            NicSlotSpec {
                slot,
                ..NicSlotSpec::default()
            };
            usize::from(slots)
        ];
        s.nvlink = None;
    }
    Some(server)
}

/// Two [`wide_server`]s of `slots` slots, every NIC cabled to one switch.
#[cfg(test)]
pub(crate) fn wide_servers(slots: u16) -> Design {
    use crate::edit::Builder;
    use crate::model::{PartId, PortRef};
    let mut c = crate::catalog::Catalog::builtin().unwrap();
    let server = wide_server(&c, slots).unwrap();
    c.parts.insert(PartId::new("wide"), server);
    let mut d = Design::default();
    let mut b = Builder::new(&mut d, &c);
    let rack = b.add_rack("rack-48u", "R", 0, 0).unwrap().0;
    let sw = b.add_device("qm9700", "sw", rack, 1).unwrap();
    for i in 0..2u16 {
        let dev = b
            .add_device("wide", &format!("box-{i}"), rack, 2 + 10 * i)
            .unwrap();
        b.fill_gpus(dev, "h100-sxm", 0..slots).unwrap();
        b.fill_nics(dev, "cx7-ndr", 0..slots).unwrap();
        for k in 0..slots {
            b.connect(
                PortRef::new(dev, format!("nic{k}/p1")),
                PortRef::new(sw, format!("p{}", 1 + i * slots + k)),
                3.0,
                None,
            )
            .unwrap();
        }
    }
    d
}
