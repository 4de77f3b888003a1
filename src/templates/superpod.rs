//! DGX fabrics: NVIDIA's DGX SuperPOD reference architectures (H100 and B200, 1 to 1,024 scalable units), racks
//! of DGX H100 on their own leaf, and small DGX H100 fabrics of any shape for tests and what-if studies. The
//! `superpod-*` templates and the `superpod-h100-1su` sample are this module's output.

use super::wiring::{HDR, NDR, link, p, set_budget};
use crate::catalog::Catalog;
use crate::edit::{Builder, EditError};
use crate::model::{Design, DeviceId, MfuScope, Params, RackId, Training};

/// A pre-training job by Llama 3's recipe (The Llama 3 Herd of Models, 2024): `parameters` on `tokens` in global
/// batches of `batch_tokens`, the optimiser state sharded over the data-parallel group (FSDP, §3.3.2), and 40% BF16
/// MFU measured end to end (Table 4: 38% to 43% on 8,192 to 16,384 H100). Llama 3 8B and 70B read "over 15T"
/// tokens, 405B 15.6T; the 405B's batches grew from 4M tokens to 16M (§3.4.1). Checkpoint and restart take the
/// defaults (14 bytes per parameter, 900 s).
pub fn llama3_training(parameters: f64, tokens: f64, batch_tokens: f64) -> Training {
    Training {
        parameters,
        tokens,
        batch_tokens,
        mfu: 0.4,
        mfu_scope: MfuScope::EndToEnd,
        sharded_optimizer: true,
        ..Training::default()
    }
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
    // Racks in rows of 16, numbered in the order they are opened.
    let mut racks = 0u16;
    let mut open_rack = |b: &mut Builder<'_>, name: String| -> Result<RackId, EditError> {
        let (id, _) = b.add_rack("rack-42u", &name, racks / 16, racks % 16)?;
        racks += 1;
        Ok(id)
    };
    let mut rack = RackId(0);
    let mut dgx = Vec::with_capacity(servers.len());
    for n in 0..servers.len() {
        if n % 4 == 0 {
            rack = open_rack(&mut b, format!("C{:03}", n / 4 + 1))?;
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
            rack = open_rack(&mut b, format!("N{:03}", i / 16 + 1))?;
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
    /// Catalog id of the system's server part ("dgx-h100", "dgx-b200").
    pub part: &'static str,
    /// Label in the design name ("H100").
    pub label: &'static str,
    /// Rack units one system takes: a compute rack's systems stack from U3 at this pitch.
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
    rack_draw: "40.8 kW of systems, as the reference architecture counts them; the rack's total adds half the \
                optics of its cables",
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
    rack_draw: "28.6 kW of systems; the rack's total adds half the optics of its cables",
    ufm_slots: 0,
};

/// A DGX SuperPOD of `units` scalable units of a system: the H100 reference architecture's fabric (see
/// [`superpod_h100`]), which the B200 reference architecture keeps (32 systems and 8 rails per SU, QM9700 NDR).
///
/// Built in the reference architecture's order, as NVIDIA's tables are read: compute racks, leaves and node links,
/// the tiers above the leaves (two up to 8 SU, three up to 256, four at 512 and 1,024), the storage fabric.
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
    let mut place = Placer::default();
    let ComputeFabric {
        dgx,
        leaves,
        storage_racks,
    } = compute_fabric(&mut b, &mut place, units, system)?;
    if units <= 8 {
        two_tiers(&mut b, &mut place, units, &leaves)?;
    } else if units > 256 {
        four_tiers(&mut b, &mut place, units, &leaves)?;
    } else {
        three_tiers(&mut b, &mut place, units, &leaves)?;
    }
    storage_fabric(&mut b, &mut place, units, storage_racks, &dgx)?;
    // Every cable follows the floor, the compute and the storage fabric's: lengths estimated from the racks' places
    // and the ports' units, media by reach (a storage appliance's cable to the leaf in its own rack is copper).
    super::wiring::follow_floor(&mut b, NDR)?;
    super::wiring::follow_floor(&mut b, HDR)?;
    Ok(design)
}

/// What [`compute_fabric`] places, in order.
struct ComputeFabric {
    /// The systems.
    dgx: Vec<DeviceId>,
    /// The rail leaves, 8 per SU.
    leaves: Vec<DeviceId>,
    /// The SUs' storage racks placed beside their compute racks (none up to 4 SU: see [`STORAGE_BESIDE_SU`]).
    storage_racks: Vec<RackId>,
}

/// The compute racks (`per_rack` systems each), beyond the reference architecture's 4 SU with each SU's storage
/// rack after its compute racks ([`STORAGE_BESIDE_SU`]), the 8 rail leaves of every SU, and the node links.
fn compute_fabric(
    b: &mut Builder<'_>,
    place: &mut Placer,
    units: usize,
    system: &SuperPodSystem,
) -> Result<ComputeFabric, EditError> {
    let nodes = units * 32 - system.ufm_slots.min(1);
    // Compute racks: `per_rack` DGX each, from U3 up (U3, U11, U19, U27 for four 8U systems).
    let per_rack = system.per_rack.max(1);
    let mut dgx = Vec::with_capacity(nodes);
    let mut storage_racks = Vec::with_capacity(units);
    let mut rack = RackId(0);
    for n in 0..nodes {
        if n % per_rack == 0 {
            rack = place.rack(b, format!("C{:03}", n / per_rack + 1), system.rack_budget_w)?;
        }
        let u = 3 + system.height_u * (n % per_rack) as u16;
        dgx.push(b.add_device(system.part, &format!("dgx-{:04}", n + 1), rack, u)?);
        if units > STORAGE_BESIDE_SU && ((n + 1) % 32 == 0 || n + 1 == nodes) {
            storage_racks.push(place.storage_rack(b, storage_racks.len())?);
        }
    }
    let mut leaves = Vec::with_capacity(units * 8);
    place.tier();
    for su in 0..units {
        for rail in 0..8 {
            leaves.push(place.switch(b, format!("leaf-su{:02}-r{}", su + 1, rail + 1))?);
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
                b,
                p(*d, format!("nic{rail}/p1")),
                p(leaf, format!("p{}", n % 32 + 1)),
                NDR,
                15.0,
                "ib-ndr-optic",
            )?;
        }
    }
    Ok(ComputeFabric {
        dgx,
        leaves,
        storage_racks,
    })
}

/// Two tiers, up to 8 SU: every leaf cabled evenly to every spine.
fn two_tiers(
    b: &mut Builder<'_>,
    place: &mut Placer,
    units: usize,
    leaves: &[DeviceId],
) -> Result<(), EditError> {
    // Two tiers up to 8 SU (NVIDIA's tables: 1 SU 4 spines, 2 SU 8, 3 and 4 SU 16, 8 SU 32): at 8 SU each of
    // the 64 leaves has one cable to each of 32 spines, 64 x 32 uplinks = 32 spines x 64 ports.
    let spines_n = match units {
        1 => 4,
        2 => 8,
        3 | 4 => 16,
        _ => 32,
    };
    place.tier();
    let spines: Vec<DeviceId> = (0..spines_n)
        .map(|s| place.switch(b, format!("spine-{:02}", s + 1)))
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
                    b,
                    p(*leaf, format!("p{up}")),
                    p(*spine, format!("p{sp}")),
                    NDR,
                    30.0,
                    "ib-ndr-optic",
                )?;
            }
        }
    }
    Ok(())
}

/// Four tiers, 512 and 1,024 SU: groups of 128 SU under core planes, joined by super-cores.
fn four_tiers(
    b: &mut Builder<'_>,
    place: &mut Placer,
    units: usize,
    leaves: &[DeviceId],
) -> Result<(), EditError> {
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
                supers.push(
                    place.switch(b, format!("super-{:02}-{:02}-{}", plane + 1, c + 1, k + 1))?,
                );
            }
        }
    }
    let mut super_port = vec![0usize; supers.len()];
    for g in 0..groups {
        let mut cores = Vec::with_capacity(32 * 32);
        for plane in 0..32 {
            for c in 0..32 {
                let core =
                    place.switch(b, format!("core-g{}-{:02}-{:02}", g + 1, plane + 1, c + 1))?;
                for k in 0..supers_per {
                    let si = (plane * 32 + c) * supers_per + k;
                    let Some(&sup) = supers.get(si) else { continue };
                    for x in 0..up_links {
                        let Some(sp) = super_port.get_mut(si) else {
                            continue;
                        };
                        *sp += 1;
                        link(
                            b,
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
                let spine = place.switch(b, format!("spine-p{:03}-{:02}", pod + 1, j + 1))?;
                pod_spine_links(b, leaves, pod, j, spine)?;
                for c in 0..32 {
                    let Some(&core) = cores.get(j * 32 + c) else {
                        continue;
                    };
                    link(
                        b,
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
    Ok(())
}

/// Three tiers, 16 to 256 SU: pods of 4 SU under core planes.
fn three_tiers(
    b: &mut Builder<'_>,
    place: &mut Placer,
    units: usize,
    leaves: &[DeviceId],
) -> Result<(), EditError> {
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
            cores.push(place.switch(b, format!("core-{:02}-{:02}", plane + 1, c + 1))?);
        }
    }
    let mut core_port = vec![0usize; cores.len()];
    let links_per_core = 32 / cores_per_plane;
    for pod in 0..pods {
        for j in 0..32 {
            let spine = place.switch(b, format!("spine-p{:02}-{:02}", pod + 1, j + 1))?;
            pod_spine_links(b, leaves, pod, j, spine)?;
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
                        b,
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
    Ok(())
}

/// The most SUs whose storage racks stand together after the network racks, as in the reference architecture (1
/// to 4 SU); beyond, each SU's storage rack stands after its compute racks, so that its systems' storage cables
/// stay within an HDR cable's reach (100 m) on any number of SUs. Together at the end of the floor they were
/// 103 m from the first SU's systems at 64 SU and 203 m at 128 SU.
const STORAGE_BESIDE_SU: usize = 4;

/// The storage fabric of every SU: its storage rack (one per SU: `storage_racks`, or, when none were placed, new
/// racks after the network racks) holds 4 storage leaves and 3 AI400X2 appliances, every system's two BlueField-3
/// ports on all four leaves.
fn storage_fabric(
    b: &mut Builder<'_>,
    place: &mut Placer,
    units: usize,
    mut storage_racks: Vec<RackId>,
    dgx: &[DeviceId],
) -> Result<(), EditError> {
    if storage_racks.is_empty() {
        for su in 0..units {
            storage_racks.push(place.storage_rack(b, su)?);
        }
    }
    for (su, &srack) in storage_racks.iter().enumerate() {
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
                    b,
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
                    b,
                    p(app, format!("p{}", k + 1)),
                    p(sl, format!("p{pp}")),
                    NDR,
                    5.0,
                    "ib-ndr-optic",
                )?;
            }
        }
    }
    Ok(())
}

/// Where the generators put things: racks in rows of 16 (42U, with the budget given), and 1U switches two units
/// apart in switch racks of 16 ("N001", "N002", ...), a new one opened when the last is full. Switch racks are
/// 800 mm network racks; [`Placer::tier`] starts a tier's switches in a rack of their own on the next row.
struct Placer {
    row: u16,
    slot: u16,
    switch_rack: RackId,
    in_rack: u16,
    switch_racks: usize,
}

impl Default for Placer {
    fn default() -> Self {
        Self {
            row: 0,
            slot: 0,
            switch_rack: RackId(0),
            in_rack: 16,
            switch_racks: 0,
        }
    }
}

/// Width of a network rack, mm: 800 mm leaves room beside the rails for the cables of 64-port switches.
const NETWORK_RACK_MM: f64 = 800.0;

impl Placer {
    /// A new 42U rack at the next place of its row, with a power budget.
    fn rack(
        &mut self,
        b: &mut Builder<'_>,
        name: String,
        budget: f64,
    ) -> Result<RackId, EditError> {
        let (id, _) = b.add_rack("rack-42u", &name, self.row, self.slot)?;
        self.slot += 1;
        if self.slot == 16 {
            self.row += 1;
            self.slot = 0;
        }
        set_budget(b, id, budget)?;
        Ok(id)
    }

    /// The storage rack of SU `su` (from 0) at the next place: "S001", "S002", ..., with a 25 kW budget.
    fn storage_rack(&mut self, b: &mut Builder<'_>, su: usize) -> Result<RackId, EditError> {
        self.rack(b, format!("S{:03}", su + 1), 25_000.0)
    }

    /// The next switches (a new tier: leaves, spines) start in a new rack on the next row.
    fn tier(&mut self) {
        if self.slot != 0 {
            self.row += 1;
            self.slot = 0;
        }
        self.in_rack = 16;
    }

    /// A QM9700 in the next free place of the switch racks.
    fn switch(&mut self, b: &mut Builder<'_>, name: String) -> Result<DeviceId, EditError> {
        if self.in_rack == 16 {
            self.switch_racks += 1;
            let rack_name = format!("N{:03}", self.switch_racks);
            self.switch_rack = self.rack(b, rack_name, 25_000.0)?;
            b.update_rack(self.switch_rack, |r| r.width_mm = Some(NETWORK_RACK_MM))?;
            self.in_rack = 0;
        }
        let u = 2 + 2 * self.in_rack;
        self.in_rack += 1;
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
