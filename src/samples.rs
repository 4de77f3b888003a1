//! Generators for the sample designs in `sample-designs/` and the scale benchmarks. The committed files are
//! written from these (`racksmith sample NAME`) and a test checks that they stay in step.

use crate::catalog::Catalog;
use crate::edit::{Builder, Edit, EditError};
use crate::model::{
    Design, DeviceId, IbRate, Link, LinkId, Medium, Params, PortRef, RackId, Serving,
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

/// Builds a sample by name.
pub fn sample(name: &str) -> Result<Design, EditError> {
    let catalog = Catalog::builtin().map_err(|e| EditError::Refused(e.to_string()))?;
    match name {
        "superpod-h100-1su" => superpod_h100(&catalog, 1),
        "dgx-h100-single" => dgx_h100_single(&catalog),
        "a100-nic-starved" => a100_nic_starved(&catalog),
        "l40s-inference-pcie" => l40s_inference(&catalog),
        "a100-120gpu-training" => training_cluster(&catalog, TrainingCluster::A100),
        "h100-60gpu-training" => training_cluster(&catalog, TrainingCluster::H100),
        "l40s-two-regions" => l40s_two_regions(&catalog),
        other => Err(EditError::Missing(format!("sample \"{other}\""))),
    }
}

/// The design the app opens with.
pub fn default_design() -> Design {
    sample(SAMPLES[0]).unwrap_or_default()
}

/// Adds a link without the per-link port search (the generators know their ports are free and compatible; the
/// result is validated as a whole by the tests).
fn link(
    b: &mut Builder<'_>,
    a: PortRef,
    z: PortRef,
    medium: Medium,
    length_m: f64,
    cable: &str,
) -> Result<LinkId, EditError> {
    if let Some(e) = b.ensure_part(cable)? {
        e.apply(b.design)?;
    }
    let id = LinkId(b.design.alloc_id());
    b.design.links.insert(
        id,
        Link {
            a,
            b: z,
            medium,
            length_m,
            cable: Some(crate::model::PartId::new(cable)),
            notes: String::new(),
        },
    );
    Ok(id)
}

fn p(device: DeviceId, port: impl Into<String>) -> PortRef {
    PortRef::new(device, port)
}

const NDR: Medium = Medium::InfiniBand(IbRate::Ndr);
const HDR: Medium = Medium::InfiniBand(IbRate::Hdr);

/// Changes a rack's properties through an edit (so the change is checked like any other).
pub(crate) fn update_rack(
    b: &mut Builder<'_>,
    rack: RackId,
    change: impl FnOnce(&mut crate::model::Rack),
) -> Result<(), EditError> {
    let mut r = b
        .design
        .racks
        .get(&rack)
        .cloned()
        .ok_or_else(|| EditError::Missing(rack.to_string()))?;
    change(&mut r);
    Edit::UpdateRack(rack, r).apply(b.design)?;
    Ok(())
}

fn set_budget(b: &mut Builder<'_>, rack: RackId, budget_w: f64) -> Result<(), EditError> {
    update_rack(b, rack, |r| r.power_budget_w = budget_w)
}

/// A fabric of DGX H100 servers on NDR leaves and spines (QM9700), for tests and what-if studies of shape:
/// `servers[i]` lists, per compute NIC used (nic0, nic1, ...), the leaf that NIC is cabled to; `uplinks[l][s]` is
/// the number of 400G cables from leaf `l` to spine `s`. Leaves and spines get as many ports as they need
/// (the generator does not check the switch's port count).
pub fn dgx_fabric(
    catalog: &Catalog,
    servers: &[Vec<usize>],
    leaves: usize,
    spines: usize,
    uplinks: &[Vec<u16>],
) -> Result<Design, EditError> {
    let mut design = Design {
        name: "DGX H100 fabric".into(),
        params: Params::default(),
        ..Design::default()
    };
    let mut b = Builder::new(&mut design, catalog);
    let mut racks = 0u16;
    let mut rack = RackId(0);
    let mut dgx = Vec::with_capacity(servers.len());
    for n in 0..servers.len() {
        if n % 4 == 0 {
            rack = b
                .add_rack(
                    "rack-42u",
                    &format!("C{:03}", n / 4 + 1),
                    racks / 16,
                    racks % 16,
                )?
                .0;
            racks += 1;
        }
        dgx.push(b.add_device(
            "dgx-h100",
            &format!("dgx-{:03}", n + 1),
            rack,
            3 + 8 * (n % 4) as u16,
        )?);
    }
    let mut switches = Vec::with_capacity(leaves + spines);
    for i in 0..leaves + spines {
        if i % 16 == 0 {
            rack = b
                .add_rack(
                    "rack-42u",
                    &format!("N{:03}", i / 16 + 1),
                    racks / 16,
                    racks % 16,
                )?
                .0;
            racks += 1;
        }
        let name = if i < leaves {
            format!("leaf-{:02}", i + 1)
        } else {
            format!("spine-{:02}", i - leaves + 1)
        };
        switches.push(b.add_device("qm9700", &name, rack, 2 + 2 * (i % 16) as u16)?);
    }
    let mut next = vec![0usize; switches.len()];
    let mut port = |sw: usize| -> Option<(DeviceId, String)> {
        let n = next.get_mut(sw)?;
        *n += 1;
        Some((*switches.get(sw)?, format!("p{n}")))
    };
    for (d, nics) in dgx.iter().zip(servers) {
        for (nic, leaf) in nics.iter().enumerate() {
            let Some((sw, sp)) = port(*leaf) else {
                return Err(EditError::Missing(format!("leaf {leaf}")));
            };
            link(
                &mut b,
                p(*d, format!("nic{nic}/p1")),
                p(sw, sp),
                NDR,
                15.0,
                "ib-ndr-optic",
            )?;
        }
    }
    for (l, row) in uplinks.iter().enumerate() {
        for (s, count) in row.iter().enumerate() {
            for _ in 0..*count {
                let (Some((a, ap)), Some((z, zp))) = (port(l), port(leaves + s)) else {
                    return Err(EditError::Missing(format!("leaf {l} or spine {s}")));
                };
                link(&mut b, p(a, ap), p(z, zp), NDR, 30.0, "ib-ndr-optic")?;
            }
        }
    }
    Ok(design)
}

/// DGX SuperPOD H100, `units` scalable units, rail-optimised compute fabric of QM9700 (NVIDIA DGX SuperPOD H100
/// reference architecture): 32 x units - 1 DGX H100 (one leaf port per SU goes to UFM), 8 leaves per SU, spines as
/// in the RA table for 1-4 SU (4, 8, 16, 16); from 8 SU on, a three-tier fat tree with 8 spines per SU in pods of
/// 4 SU and 4 core switches per SU (the B200 RA's 128/128/64 at 16 SU); at 512 and 1,024 SU, a fourth tier (the 64-port
/// cores split half down, half up, see [`superpod`]). Storage: per SU, 4 storage leaves and 3
/// AI400X2 appliances; every DGX has its two BlueField-3 ports on all four storage leaves.
pub fn superpod_h100(catalog: &Catalog, units: usize) -> Result<Design, EditError> {
    superpod(catalog, units, &DGX_H100)
}

/// The system a SuperPOD is built from: its part, height, and the compute rack budget for four of them.
#[derive(Debug, Clone, Copy)]
pub struct SuperPodSystem {
    /// Catalog part.
    pub part: &'static str,
    /// Label in the design name ("H100").
    pub label: &'static str,
    /// Height, U.
    pub height_u: u16,
    /// Systems per compute rack.
    pub per_rack: usize,
    /// Budget of a compute rack, W.
    pub rack_budget_w: f64,
    /// What a full compute rack's systems draw, as the notes say it.
    pub rack_draw: &'static str,
    /// Leaf ports of the fabric given to the fabric manager (UFM) instead of a system: 1 in the H100 reference
    /// architecture (31 DGX in 1 SU, 63 in 2, 127 in 4), none in the B200 one (32 DGX per SU).
    pub ufm_slots: usize,
}

/// DGX H100: 8U, 10.2 kW; four per 44 kW rack (DGX SuperPOD H100 RA: 40.8 kW per rack).
pub const DGX_H100: SuperPodSystem = SuperPodSystem {
    part: "dgx-h100",
    label: "H100",
    height_u: 8,
    per_rack: 4,
    rack_budget_w: 44_000.0,
    rack_draw: "40.8 kW",
    ufm_slots: 1,
};

/// DGX B200: 10U, 14.3 kW; two per air-cooled 32 kW rack (28.6 kW of systems; NVIDIA's DGX SuperPOD B200
/// reference architecture plans racks above 25 kW).
pub const DGX_B200: SuperPodSystem = SuperPodSystem {
    part: "dgx-b200",
    label: "B200",
    height_u: 10,
    per_rack: 2,
    rack_budget_w: 32_000.0,
    rack_draw: "28.6 kW",
    ufm_slots: 0,
};

/// A DGX SuperPOD of `units` scalable units of a system: the H100 reference architecture's fabric (see
/// [`superpod_h100`]), which the B200 reference architecture keeps (32 systems and 8 rails per SU, QM9700 NDR).
pub fn superpod(
    catalog: &Catalog,
    units: usize,
    system: &SuperPodSystem,
) -> Result<Design, EditError> {
    if units == 0
        || (units > 4 && !units.is_multiple_of(8))
        || (units > 256 && units != 512 && units != 1024)
    {
        return Err(EditError::Refused(
            "scalable units must be 1-4, a multiple of 8 up to 256, 512 or 1024".into(),
        ));
    }
    let mut design = Design {
        name: format!("DGX SuperPOD {}, {units} SU", system.label),
        notes: format!(
            "Rail-optimised compute fabric per the NVIDIA DGX SuperPOD {} reference architecture: NIC i of every \
             DGX to leaf i of its SU; {} DGX {} ({}) per compute rack.",
            system.label, system.per_rack, system.label, system.rack_draw
        ),
        params: Params::default(),
        ..Design::default()
    };
    let mut b = Builder::new(&mut design, catalog);
    let nodes = units * 32 - system.ufm_slots.min(1);
    let mut place = Placer::default();
    // Compute racks: `per_rack` DGX each, from U3 up (U3, U11, U19, U27 for four 8U systems).
    let per_rack = system.per_rack.max(1);
    let mut dgx = Vec::with_capacity(nodes);
    let mut rack = RackId(0);
    for n in 0..nodes {
        if n % per_rack == 0 {
            rack = place.rack(
                &mut b,
                format!("C{:03}", n / per_rack + 1),
                system.rack_budget_w,
            )?;
        }
        let u = 3 + system.height_u * (n % per_rack) as u16;
        dgx.push(b.add_device(system.part, &format!("dgx-{:04}", n + 1), rack, u)?);
    }
    let mut leaves = Vec::with_capacity(units * 8);
    for su in 0..units {
        for rail in 0..8 {
            leaves.push(place.switch(&mut b, format!("leaf-su{:02}-r{}", su + 1, rail + 1))?);
        }
    }
    // Node links: DGX n, NIC i -> leaf i of its SU, port (n mod 32) + 1.
    for (n, d) in dgx.iter().enumerate() {
        let su = n / 32;
        for rail in 0..8 {
            let Some(&leaf) = leaves.get(su * 8 + rail) else {
                continue;
            };
            link(
                &mut b,
                p(*d, format!("nic{rail}/p1")),
                p(leaf, format!("p{}", n % 32 + 1)),
                NDR,
                15.0,
                "ib-ndr-optic",
            )?;
        }
    }
    if units <= 8 {
        // Two tiers up to 8 SU (NVIDIA's tables: 1 SU 4 spines, 2 SU 8, 3 and 4 SU 16, 8 SU 32): at 8 SU each of
        // the 64 leaves has one cable to each of 32 spines, 64 x 32 uplinks = 32 spines x 64 ports.
        let spines_n = match units {
            1 => 4,
            2 => 8,
            3 | 4 => 16,
            _ => 32,
        };
        let spines: Vec<DeviceId> = (0..spines_n)
            .map(|s| place.switch(&mut b, format!("spine-{:02}", s + 1)))
            .collect::<Result<_, _>>()?;
        let per_spine = 32 / spines_n;
        let mut spine_port = vec![0usize; spines_n];
        for (li, leaf) in leaves.iter().enumerate() {
            let _ = li;
            for (si, spine) in spines.iter().enumerate() {
                for k in 0..per_spine {
                    let up = 33 + si * per_spine + k;
                    let Some(sp) = spine_port.get_mut(si) else {
                        continue;
                    };
                    *sp += 1;
                    link(
                        &mut b,
                        p(*leaf, format!("p{up}")),
                        p(*spine, format!("p{sp}")),
                        NDR,
                        30.0,
                        "ib-ndr-optic",
                    )?;
                }
            }
        }
    } else if units > 256 {
        // Four tiers (512 and 1,024 SU): the 64-port cores of 256 SU are full, so cores split their ports, half
        // down and half up. Groups of 128 SU (32 pods); in each group, plane j has 32 cores and spine j of every
        // pod has one cable to each of them. Above them, for each plane j and core index c, groups/2 super-cores
        // join the groups' cores (j, c): at 512 SU 2 super-cores and 16 cables from each core to each, at 1,024
        // SU 4 super-cores and 8 cables. Every super-core uses its 64 ports and every tier is non-blocking.
        let groups = units / 128;
        let supers_per = groups / 2;
        let up_links = 32 / supers_per;
        let mut supers = Vec::with_capacity(32 * 32 * supers_per);
        for plane in 0..32 {
            for c in 0..32 {
                for k in 0..supers_per {
                    supers.push(place.switch(
                        &mut b,
                        format!("super-{:02}-{:02}-{}", plane + 1, c + 1, k + 1),
                    )?);
                }
            }
        }
        let mut super_port = vec![0usize; supers.len()];
        for g in 0..groups {
            let mut cores = Vec::with_capacity(32 * 32);
            for plane in 0..32 {
                for c in 0..32 {
                    let core = place.switch(
                        &mut b,
                        format!("core-g{}-{:02}-{:02}", g + 1, plane + 1, c + 1),
                    )?;
                    for k in 0..supers_per {
                        let si = (plane * 32 + c) * supers_per + k;
                        let Some(&sup) = supers.get(si) else { continue };
                        for x in 0..up_links {
                            let Some(sp) = super_port.get_mut(si) else {
                                continue;
                            };
                            *sp += 1;
                            link(
                                &mut b,
                                p(core, format!("p{}", 33 + k * up_links + x)),
                                p(sup, format!("p{sp}")),
                                NDR,
                                50.0,
                                "ib-ndr-optic",
                            )?;
                        }
                    }
                    cores.push(core);
                }
            }
            for pod in g * 32..(g + 1) * 32 {
                for j in 0..32 {
                    let spine =
                        place.switch(&mut b, format!("spine-p{:03}-{:02}", pod + 1, j + 1))?;
                    pod_spine_links(&mut b, &leaves, pod, j, spine)?;
                    for c in 0..32 {
                        let Some(&core) = cores.get(j * 32 + c) else {
                            continue;
                        };
                        link(
                            &mut b,
                            p(spine, format!("p{}", 33 + c)),
                            p(core, format!("p{}", pod % 32 + 1)),
                            NDR,
                            50.0,
                            "ib-ndr-optic",
                        )?;
                    }
                }
            }
        }
    } else {
        // Three tiers: pods of 4 SU (32 leaves, 32 spines), core planes of the fewest switches that take every
        // spine's 32 uplinks evenly: the smallest divisor of 32 with pods x 32 / c <= 64 ports (units / 8 when
        // the units are a power of two: 64 cores at 16 SU, 128 at 32, 256 at 64, as NVIDIA's B200 table).
        let pods = units / 4;
        let cores_per_plane = [1usize, 2, 4, 8, 16, 32]
            .into_iter()
            .find(|c| pods * 32 / c <= 64)
            .unwrap_or(32);
        let mut cores = Vec::with_capacity(32 * cores_per_plane);
        for plane in 0..32 {
            for c in 0..cores_per_plane {
                cores.push(place.switch(&mut b, format!("core-{:02}-{:02}", plane + 1, c + 1))?);
            }
        }
        let mut core_port = vec![0usize; cores.len()];
        let links_per_core = 32 / cores_per_plane;
        for pod in 0..pods {
            for j in 0..32 {
                let spine = place.switch(&mut b, format!("spine-p{:02}-{:02}", pod + 1, j + 1))?;
                pod_spine_links(&mut b, &leaves, pod, j, spine)?;
                for c in 0..cores_per_plane {
                    let ci = j * cores_per_plane + c;
                    let Some(&core) = cores.get(ci) else { continue };
                    for k in 0..links_per_core {
                        let Some(cp) = core_port.get_mut(ci) else {
                            continue;
                        };
                        *cp += 1;
                        let up = 33 + c * links_per_core + k;
                        link(
                            &mut b,
                            p(spine, format!("p{up}")),
                            p(core, format!("p{cp}")),
                            NDR,
                            50.0,
                            "ib-ndr-optic",
                        )?;
                    }
                }
            }
        }
    }
    // Storage fabric per SU.
    for su in 0..units {
        let srack = place.rack(&mut b, format!("S{:03}", su + 1), 25_000.0)?;
        let sleaves: Vec<DeviceId> = (0..4)
            .map(|i| {
                b.add_device(
                    "qm9700",
                    &format!("sleaf-su{:02}-{}", su + 1, i + 1),
                    srack,
                    30 + 2 * i as u16,
                )
            })
            .collect::<Result<_, _>>()?;
        let mut port = [0usize; 4];
        for (n, d) in dgx.iter().enumerate().filter(|(n, _)| n / 32 == su) {
            let _ = n;
            for (i, (slot, k)) in [(8, 1), (8, 2), (9, 1), (9, 2)].iter().enumerate() {
                let (Some(&sl), Some(pp)) = (sleaves.get(i), port.get_mut(i)) else {
                    continue;
                };
                *pp += 1;
                link(
                    &mut b,
                    p(*d, format!("nic{slot}/p{k}")),
                    p(sl, format!("p{pp}")),
                    HDR,
                    15.0,
                    "ib-hdr-aoc",
                )?;
            }
        }
        for a in 0..3 {
            let app = b.add_device(
                "ddn-ai400x2",
                &format!("ddn-su{:02}-{}", su + 1, a + 1),
                srack,
                3 + 3 * a as u16,
            )?;
            for k in 0..8 {
                let i = k % 4;
                let (Some(&sl), Some(pp)) = (sleaves.get(i), port.get_mut(i)) else {
                    continue;
                };
                *pp += 1;
                link(
                    &mut b,
                    p(app, format!("p{}", k + 1)),
                    p(sl, format!("p{pp}")),
                    NDR,
                    5.0,
                    "ib-ndr-optic",
                )?;
            }
        }
    }
    Ok(design)
}

/// Where the generators put things: racks in rows of 16 (42U, with the budget given), and 1U switches two units
/// apart in switch racks of 16 ("N001", "N002", ...), a new one opened when the last is full.
struct Placer {
    racks_made: u16,
    switch_rack: RackId,
    in_rack: u16,
    switches_made: usize,
}

impl Default for Placer {
    fn default() -> Self {
        Self {
            racks_made: 0,
            switch_rack: RackId(0),
            in_rack: 16,
            switches_made: 0,
        }
    }
}

impl Placer {
    /// A new 42U rack at the next place of its row, with a power budget.
    fn rack(
        &mut self,
        b: &mut Builder<'_>,
        name: String,
        budget: f64,
    ) -> Result<RackId, EditError> {
        let (id, _) = b.add_rack(
            "rack-42u",
            &name,
            self.racks_made / 16,
            self.racks_made % 16,
        )?;
        self.racks_made += 1;
        set_budget(b, id, budget)?;
        Ok(id)
    }

    /// A QM9700 in the next free place of the switch racks.
    fn switch(&mut self, b: &mut Builder<'_>, name: String) -> Result<DeviceId, EditError> {
        if self.in_rack == 16 {
            let rack_name = format!("N{:03}", self.switches_made / 16 + 1);
            self.switch_rack = self.rack(b, rack_name, 25_000.0)?;
            self.in_rack = 0;
        }
        let u = 2 + 2 * self.in_rack;
        self.in_rack += 1;
        self.switches_made += 1;
        b.add_device("qm9700", &name, self.switch_rack, u)
    }
}

/// Racks built one by one rather than in rails: `racks` compute racks, each with four DGX H100 and its own QM9700
/// leaf carrying all 32 of their compute NICs (8 per DGX), 8 uplinks per leaf (4:1 taper at the leaf). Pods of 48
/// racks: 8 spines per pod, every leaf one cable to each (48 down, 16 up), and 8 core planes of 16 QM9700: spine
/// j of every pod has one cable to each core of plane j (one port per pod, so at most 64 pods = 3,072 racks).
/// Storage is not drawn. 1,872 racks give 7,488 DGX (59,904 GPUs) and 79,872 cables, about a 10 MB file: the
/// shape of a real design whose every rack leaf is a single point of failure for its four servers.
pub fn rack_leaf_h100(catalog: &Catalog, racks: usize) -> Result<Design, EditError> {
    const PER_POD: usize = 48;
    const SPINES: usize = 8;
    const CORES: usize = 16;
    let pods = racks.div_ceil(PER_POD);
    if racks == 0 || pods > 64 {
        return Err(EditError::Refused("racks must be 1 to 3,072".into()));
    }
    let mut design = Design {
        name: format!("DGX H100, {racks} racks with a leaf each"),
        notes: "Four DGX H100 per rack on the rack's own QM9700 leaf (8 compute NICs each), 8 uplinks per leaf to the \
                pod's spines, pods of 48 racks, 8 core planes of 16 switches."
            .into(),
        params: Params::default(),
        ..Design::default()
    };
    let mut b = Builder::new(&mut design, catalog);
    let mut place = Placer::default();
    let mut leaves = Vec::with_capacity(racks);
    for r in 0..racks {
        let rack = place.rack(&mut b, format!("C{:04}", r + 1), DGX_H100.rack_budget_w)?;
        let leaf = b.add_device("qm9700", &format!("leaf-{:04}", r + 1), rack, 40)?;
        for k in 0..4 {
            let n = 4 * r + k;
            let dgx = b.add_device(
                "dgx-h100",
                &format!("dgx-{:05}", n + 1),
                rack,
                3 + 8 * k as u16,
            )?;
            for nic in 0..8 {
                link(
                    &mut b,
                    p(dgx, format!("nic{nic}/p1")),
                    p(leaf, format!("p{}", 8 * k + nic + 1)),
                    NDR,
                    3.0,
                    "ib-ndr-optic",
                )?;
            }
        }
        leaves.push(leaf);
    }
    let mut cores = Vec::with_capacity(SPINES * CORES);
    for plane in 0..SPINES {
        for c in 0..CORES {
            cores.push(place.switch(&mut b, format!("core-{}-{:02}", plane + 1, c + 1))?);
        }
    }
    for pod in 0..pods {
        for j in 0..SPINES {
            let spine = place.switch(&mut b, format!("spine-p{:02}-{}", pod + 1, j + 1))?;
            for (li, leaf) in leaves.iter().skip(pod * PER_POD).take(PER_POD).enumerate() {
                link(
                    &mut b,
                    p(*leaf, format!("p{}", 33 + j)),
                    p(spine, format!("p{}", li + 1)),
                    NDR,
                    30.0,
                    "ib-ndr-optic",
                )?;
            }
            for c in 0..CORES {
                let Some(&core) = cores.get(j * CORES + c) else {
                    continue;
                };
                link(
                    &mut b,
                    p(spine, format!("p{}", PER_POD + 1 + c)),
                    p(core, format!("p{}", pod + 1)),
                    NDR,
                    50.0,
                    "ib-ndr-optic",
                )?;
            }
        }
    }
    Ok(design)
}

/// Spine `j` of pod `pod` (SuperPOD, three tiers and more): one cable from each of the pod's 32 leaves (leaf port
/// 33 + j, spine port = the leaf's place in the pod).
fn pod_spine_links(
    b: &mut Builder<'_>,
    leaves: &[DeviceId],
    pod: usize,
    j: usize,
    spine: DeviceId,
) -> Result<(), EditError> {
    for li in 0..32 {
        let Some(&leaf) = leaves.get(pod * 32 + li) else {
            continue;
        };
        link(
            b,
            p(leaf, format!("p{}", 33 + j)),
            p(spine, format!("p{}", li + 1)),
            NDR,
            30.0,
            "ib-ndr-optic",
        )?;
    }
    Ok(())
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
        let mut dev = b
            .design
            .devices
            .get(&d)
            .cloned()
            .ok_or_else(|| EditError::Missing(d.to_string()))?;
        dev.nics.retain(|slot, _| *slot == 0);
        Edit::UpdateDevice(d, dev).apply(b.design)?;
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
    for s in 0..2u16 {
        let st = b.add_device(
            "nvme-server-2u",
            &format!("nvme-{:02}", s + 1),
            r2,
            30 + 3 * s,
        )?;
        for k in 1..=2 {
            port += 1;
            link(
                &mut b,
                p(st, format!("p{k}")),
                p(leaf, format!("p{port}")),
                HDR,
                10.0,
                "ib-hdr-aoc",
            )?;
        }
    }
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
    let mut b = Builder::new(&mut design, catalog);
    let eth400 = Medium::Ethernet(400);
    let mut leaves = Vec::new();
    for (s, site) in ["east", "west"].iter().enumerate() {
        let mut racks = Vec::new();
        for k in 0..2u16 {
            let name = format!("{}{:02}", if s == 0 { "E" } else { "W" }, k + 1);
            let (r, _) = b.add_rack("rack-42u", &name, s as u16, k)?;
            update_rack(&mut b, r, |x| x.site = (*site).to_string())?;
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
    let (mut pa, mut pb) = (0, 0);
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
        pa += 1;
        link(
            &mut b,
            p(d, "nic4/p1"),
            p(leaf_a, format!("p{pa}")),
            eth200,
            10.0,
            "eth-400g-optic",
        )?;
        pb += 1;
        link(
            &mut b,
            p(d, "nic4/p2"),
            p(leaf_b, format!("p{pb}")),
            eth200,
            10.0,
            "eth-400g-optic",
        )?;
    }
    let st = b.add_device("nvme-server-2u", "nvme-01", r2, 20)?;
    pa += 1;
    link(
        &mut b,
        p(st, "p1"),
        p(leaf_a, format!("p{pa}")),
        eth200,
        10.0,
        "eth-400g-optic",
    )?;
    pb += 1;
    link(
        &mut b,
        p(st, "p2"),
        p(leaf_b, format!("p{pb}")),
        eth200,
        10.0,
        "eth-400g-optic",
    )?;
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
    for s in 0..storage_servers {
        let st = b.add_device(
            "nvme-server-2u",
            &format!("nvme-{:02}", s + 1),
            net,
            20 + 3 * s,
        )?;
        for k in 1..=2 {
            sport += 1;
            link(
                &mut b,
                p(st, format!("p{k}")),
                p(sleaf, format!("p{sport}")),
                HDR,
                5.0,
                "ib-hdr-aoc",
            )?;
        }
    }
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
            let mut dev = b
                .design
                .devices
                .get(&d)
                .cloned()
                .ok_or_else(|| EditError::Missing(d.to_string()))?;
            dev.gpus.retain(|slot, _| usize::from(*slot) < gpus);
            dev.nics
                .retain(|slot, _| usize::from(*slot) < gpus || *slot >= 8);
            Edit::UpdateDevice(d, dev).apply(b.design)?;
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
