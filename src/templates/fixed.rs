//! The fixed designs behind the sample designs (`racksmith sample NAME`, `sample-designs/`): a single DGX H100,
//! A100 servers behind one NIC each, L40S inference (one region and two), and the two sides of the A100-against-H100
//! training question. [`by_name`] is the one place a sample's name becomes its design.

use super::superpod::superpod_h100;
use super::wiring::{HDR, NDR, link, nvme_storage, p, set_budget};
use crate::catalog::Catalog;
use crate::edit::{Builder, EditError};
use crate::model::{Design, DeviceId, Medium, PortRef, Serving};

/// The design a sample's name stands for, generated (the samples module lists the names in menu order).
pub fn by_name(catalog: &Catalog, name: &str) -> Result<Design, EditError> {
    match name {
        // One SU's 248 H100 pre-train a Llama 3 8B (8.03e9 parameters) on 15T tokens: about three months, long
        // enough for its failures and checkpoints to count.
        "superpod-h100-1su" => superpod_h100(catalog, 1).map(|mut d| {
            d.params.training = Some(super::superpod::llama3_training(8.03e9, 15e12, 4_194_304.0));
            d
        }),
        "dgx-h100-single" => dgx_h100_single(catalog),
        "a100-nic-starved" => a100_nic_starved(catalog),
        "l40s-inference-pcie" => l40s_inference(catalog),
        "a100-120gpu-training" => training_cluster(catalog, TrainingCluster::A100),
        "h100-60gpu-training" => training_cluster(catalog, TrainingCluster::H100),
        "l40s-two-regions" => l40s_two_regions(catalog),
        other => Err(EditError::Missing(format!("sample \"{other}\""))),
    }
}

/// One DGX H100 in a rack with a QM9700 leaf (compute and storage) and an AI400X2.
pub fn dgx_h100_single(catalog: &Catalog) -> Result<Design, EditError> {
    let mut design = Design {
        name: "One DGX H100 with leaf and storage".into(),
        notes: "Smallest complete unit: one DGX H100, one QM9700 carrying compute and storage traffic, one AI400X2."
            .into(),
        ..Design::default()
    };
    let mut b = Builder::new(&mut design, catalog);
    let (rack, _) = b.add_rack("rack-42u", "R01", 0, 0)?;
    set_budget(&mut b, rack, 17_300.0)?;
    let dgx = b.add_device("dgx-h100", "dgx-01", rack, 3)?;
    let ddn = b.add_device("ddn-ai400x2", "ddn-01", rack, 14)?;
    let leaf = b.add_device("qm9700", "leaf-01", rack, 40)?;
    b.add_device("pdu-0u-17kw", "pdu-a", rack, 1)?;
    for rail in 0..8 {
        link(
            &mut b,
            p(dgx, format!("nic{rail}/p1")),
            p(leaf, format!("p{}", rail + 1)),
            NDR,
            3.0,
            "ib-ndr-optic",
        )?;
    }
    for (i, (slot, k)) in [(8, 1), (8, 2), (9, 1), (9, 2)].iter().enumerate() {
        link(
            &mut b,
            p(dgx, format!("nic{slot}/p{k}")),
            p(leaf, format!("p{}", 9 + i)),
            HDR,
            3.0,
            "ib-hdr-aoc",
        )?;
    }
    for k in 0..8 {
        link(
            &mut b,
            p(ddn, format!("p{}", k + 1)),
            p(leaf, format!("p{}", 13 + k)),
            NDR,
            3.0,
            "ib-ndr-optic",
        )?;
    }
    Ok(design)
}

/// Eight A100 servers, each with a single 200G HDR NIC for its 8 GPUs, on one QM8700, with two NVMe storage
/// servers: the NIC is the bottleneck.
pub fn a100_nic_starved(catalog: &Catalog) -> Result<Design, EditError> {
    let mut design = Design {
        name: "A100 servers behind one 200G NIC each".into(),
        notes: "Eight 8-GPU A100 servers, each with one ConnectX-6 200G for all eight GPUs: the classic starved node."
            .into(),
        ..Design::default()
    };
    let mut b = Builder::new(&mut design, catalog);
    let (r1, _) = b.add_rack("rack-42u", "R01", 0, 0)?;
    let (r2, _) = b.add_rack("rack-42u", "R02", 0, 1)?;
    set_budget(&mut b, r1, 30_000.0)?;
    set_budget(&mut b, r2, 30_000.0)?;
    let leaf = b.add_device("qm8700", "leaf-01", r1, 40)?;
    let mut port = 0;
    for i in 0..8u16 {
        let rack = if i < 4 { r1 } else { r2 };
        let d = b.add_device(
            "dgx-a100",
            &format!("a100-{:02}", i + 1),
            rack,
            2 + 6 * (i % 4),
        )?;
        // Keep only NIC slot 0: one 200G NIC for eight GPUs.
        b.update_device(d, |dev| dev.nics.retain(|slot, _| *slot == 0))?;
        port += 1;
        link(
            &mut b,
            p(d, "nic0/p1"),
            p(leaf, format!("p{port}")),
            HDR,
            10.0,
            "ib-hdr-aoc",
        )?;
    }
    nvme_storage(&mut b, r2, 2, 30, leaf, &mut port, 10.0)?;
    Ok(design)
}

/// The L40S samples' service: 400 req/s under a 1 s p99, replicas of one L40S at 20 req/s.
fn l40s_service() -> Serving {
    Serving {
        request_rate_rps: 400.0,
        replica_throughput_rps: 20.0,
        gpus_per_replica: 1,
        latency_target_ms: 1000.0,
        ..Serving::default()
    }
}

/// The L40S service in two regions, each able to carry the whole demand: four 8-L40S servers per site on an SN5600
/// leaf, the leaves joined by two 400ZR links over 80 km. Losing a region leaves 32 GPUs x 20 req/s x 0.7 = 448
/// req/s against the 400 asked, so the service is down only when both regions are: 1 - 0.0005^2.
pub fn l40s_two_regions(catalog: &Catalog) -> Result<Design, EditError> {
    let mut design = Design {
        name: "L40S inference in two regions".into(),
        notes: "Active-active in us-east and us-west: either region carries the 400 req/s alone at 70% utilisation; \
                the leaves are joined by two 400ZR links over 80 km of fibre."
            .into(),
        ..Design::default()
    };
    design.params.serving = Some(l40s_service());
    design.params.traffic.storage_read_gbyte_s_per_gpu = 0.0;
    design.params.availability_target = Some(0.9999);
    // Electricity: average industrial prices in Virginia and Oregon, rounded (US EIA, Electric Power Monthly,
    // Table 5.6.A, 2024). The west hall has no facility water: air only.
    for (site, region, usd_per_kwh, cooling) in [
        (
            "east",
            "us-east",
            0.09,
            crate::model::SiteCooling::AirAndLiquid,
        ),
        ("west", "us-west", 0.08, crate::model::SiteCooling::AirOnly),
    ] {
        design.sites.insert(
            site.into(),
            crate::model::Site {
                region: region.into(),
                availability: 0.9995,
                cooling,
                electricity_usd_per_kwh: Some(usd_per_kwh),
                ..crate::model::Site::default()
            },
        );
    }
    // The fibre route between the regions, which the 400ZR links run over.
    if let Some(east) = design.sites.get_mut("east") {
        east.distance_km.insert("west".into(), 80.0);
    }
    let mut b = Builder::new(&mut design, catalog);
    let eth400 = Medium::Ethernet(400);
    let mut leaves = Vec::new();
    for (s, site) in ["east", "west"].iter().enumerate() {
        let mut racks = Vec::new();
        for k in 0..2u16 {
            let name = format!("{}{:02}", if s == 0 { "E" } else { "W" }, k + 1);
            let (r, _) = b.add_rack("rack-42u", &name, s as u16, k)?;
            b.update_rack(r, |x| x.site = (*site).to_string())?;
            racks.push(r);
        }
        let Some(&first) = racks.first() else {
            continue;
        };
        let leaf = b.add_device("sn5600", &format!("leaf-{site}"), first, 40)?;
        let mut port = 0;
        for i in 0..4u16 {
            let rack = racks.get(usize::from(i / 2)).copied().unwrap_or(first);
            let d = b.add_device(
                "pcie-gpu-4u",
                &format!("l40s-{site}-{:02}", i + 1),
                rack,
                2 + 5 * (i % 2),
            )?;
            b.fill_gpus(d, "l40s", 0..8)?;
            b.fill_nics(d, "cx7-ndr", 0..4)?;
            for n in 0..4 {
                port += 1;
                link(
                    &mut b,
                    p(d, format!("nic{n}/p1")),
                    p(leaf, format!("p{port}")),
                    eth400,
                    10.0,
                    "eth-400g-optic",
                )?;
            }
        }
        leaves.push(leaf);
    }
    if let [east, west] = leaves.as_slice() {
        for k in 0..2 {
            link(
                &mut b,
                p(*east, format!("p{}", 61 + k)),
                p(*west, format!("p{}", 61 + k)),
                eth400,
                80_000.0,
                "dci-400g-zr",
            )?;
        }
    }
    Ok(design)
}

/// Four PCIe servers with 8 L40S each (2-8-5-200 layout) on two SN5600 Ethernet leaves, with NVMe storage,
/// serving a request rate under a latency target.
pub fn l40s_inference(catalog: &Catalog) -> Result<Design, EditError> {
    let mut design = Design {
        name: "L40S inference on Ethernet".into(),
        notes: "Inference fleet: replicas of one L40S each; 2-8-5-200 servers dual-homed to two SN5600 leaves.".into(),
        ..Design::default()
    };
    design.params.serving = Some(l40s_service());
    design.params.traffic.storage_read_gbyte_s_per_gpu = 0.5;
    let mut b = Builder::new(&mut design, catalog);
    let (r1, _) = b.add_rack("rack-42u", "R01", 0, 0)?;
    let (r2, _) = b.add_rack("rack-42u", "R02", 0, 1)?;
    let leaf_a = b.add_device("sn5600", "leaf-a", r1, 40)?;
    let leaf_b = b.add_device("sn5600", "leaf-b", r2, 40)?;
    let eth400 = Medium::Ethernet(400);
    let eth200 = Medium::Ethernet(200);
    let (mut pa, mut pb) = (0u32, 0u32);
    // A dual-port 200G adapter (and the storage server) has one port on each leaf.
    let dual_home = |b: &mut Builder<'_>,
                     first: PortRef,
                     second: PortRef,
                     pa: &mut u32,
                     pb: &mut u32|
     -> Result<(), EditError> {
        *pa += 1;
        link(
            b,
            first,
            p(leaf_a, format!("p{pa}")),
            eth200,
            10.0,
            "eth-400g-optic",
        )?;
        *pb += 1;
        link(
            b,
            second,
            p(leaf_b, format!("p{pb}")),
            eth200,
            10.0,
            "eth-400g-optic",
        )?;
        Ok(())
    };
    for i in 0..4u16 {
        let rack = if i < 2 { r1 } else { r2 };
        let d = b.add_device(
            "pcie-gpu-4u",
            &format!("l40s-{:02}", i + 1),
            rack,
            2 + 5 * (i % 2),
        )?;
        b.fill_gpus(d, "l40s", 0..8)?;
        b.fill_nics(d, "cx7-ndr", 0..4)?;
        b.fill_nics(d, "cx7-eth-2x200", [4])?;
        for n in 0..4 {
            let (leaf, port) = if n < 2 {
                (leaf_a, &mut pa)
            } else {
                (leaf_b, &mut pb)
            };
            *port += 1;
            link(
                &mut b,
                p(d, format!("nic{n}/p1")),
                p(leaf, format!("p{port}")),
                eth400,
                10.0,
                "eth-400g-optic",
            )?;
        }
        dual_home(&mut b, p(d, "nic4/p1"), p(d, "nic4/p2"), &mut pa, &mut pb)?;
    }
    let st = b.add_device("nvme-server-2u", "nvme-01", r2, 20)?;
    dual_home(&mut b, p(st, "p1"), p(st, "p2"), &mut pa, &mut pb)?;
    // Inter-leaf links so traffic between the two halves has a path when a NIC fails.
    for k in 0..4 {
        link(
            &mut b,
            p(leaf_a, format!("p{}", 60 + k)),
            p(leaf_b, format!("p{}", 60 + k)),
            eth400,
            10.0,
            "eth-400g-optic",
        )?;
    }
    Ok(design)
}

/// The two sides of the classic question "120 A100 or 60 H100 for the same training job?".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrainingCluster {
    /// 15 DGX A100 (120 GPUs), rail-optimised on 8 QM8700 HDR leaves.
    A100,
    /// 8 HGX H100 servers (60 GPUs: seven full, one half-populated), rail-optimised on 8 QM9700 NDR leaves.
    H100,
}

/// One side of the A100-against-H100 comparison: the same 13B-parameter, 300B-token job (the `Training`
/// defaults), rail-optimised compute fabric, an NVMe storage pair on its own leaf, four servers per rack.
pub fn training_cluster(catalog: &Catalog, which: TrainingCluster) -> Result<Design, EditError> {
    let (name, server, nodes, leaf_part, medium, cable, gpus_last) = match which {
        TrainingCluster::A100 => (
            "120 A100 for a 13B-parameter training job",
            "dgx-a100",
            15u16,
            "qm8700",
            HDR,
            "ib-hdr-aoc",
            8,
        ),
        TrainingCluster::H100 => (
            "60 H100 for a 13B-parameter training job",
            "hgx-h100-8gpu",
            8u16,
            "qm9700",
            NDR,
            "ib-ndr-optic",
            4,
        ),
    };
    let mut design = Design {
        name: name.into(),
        notes: "One side of \"120 A100 or 60 H100?\": the same job (13B parameters, 300B tokens, 4M-token batches, \
                40% MFU); compare with `racksmith compare`."
            .into(),
        ..Design::default()
    };
    design.params.training = Some(crate::model::Training::default());
    let mut b = Builder::new(&mut design, catalog);
    let (net, _) = b.add_rack("rack-42u", "N01", 0, 0)?;
    let leaves: Vec<DeviceId> = (0..8u16)
        .map(|r| b.add_device(leaf_part, &format!("leaf-r{}", r + 1), net, 2 + r))
        .collect::<Result<_, _>>()?;
    let sleaf = b.add_device(leaf_part, "storage-leaf", net, 12)?;
    let mut sport = 0;
    // 1 GB/s per GPU of storage: 40 GB/s per NVMe server.
    let storage_servers = if which == TrainingCluster::A100 { 3 } else { 2 };
    nvme_storage(&mut b, net, storage_servers, 20, sleaf, &mut sport, 5.0)?;
    let mut rack = net;
    for n in 0..nodes {
        if n % 4 == 0 {
            let (r, _) = b.add_rack("rack-42u", &format!("C{:02}", n / 4 + 1), 0, 1 + n / 4)?;
            // Four DGX A100 draw 26 kW; four 8-GPU H100 servers 40.8 kW (NVIDIA DC design guide).
            set_budget(
                &mut b,
                r,
                if which == TrainingCluster::A100 {
                    30_000.0
                } else {
                    44_000.0
                },
            )?;
            rack = r;
        }
        let d = b.add_device(server, &format!("node-{:02}", n + 1), rack, 2 + 9 * (n % 4))?;
        let gpus = if n + 1 == nodes { gpus_last } else { 8 };
        if gpus < 8 {
            b.update_device(d, |dev| {
                dev.gpus.retain(|slot, _| usize::from(*slot) < gpus);
                dev.nics
                    .retain(|slot, _| usize::from(*slot) < gpus || *slot >= 8);
            })?;
        }
        for rail in 0..gpus {
            let Some(&leaf) = leaves.get(rail) else {
                continue;
            };
            link(
                &mut b,
                p(d, format!("nic{rail}/p1")),
                p(leaf, format!("p{}", n + 1)),
                medium,
                15.0,
                cable,
            )?;
        }
        // Both storage adapters on the storage leaf.
        for slot in [8, 9] {
            sport += 1;
            link(
                &mut b,
                p(d, format!("nic{slot}/p1")),
                p(sleaf, format!("p{sport}")),
                HDR,
                15.0,
                "ib-hdr-aoc",
            )?;
        }
    }
    Ok(design)
}
