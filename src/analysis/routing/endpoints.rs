//! Endpoints as routing sees them: GPU servers and storage with their cabled NIC ports, and servers grouped by
//! build and attachment (their signature) so that identical servers are routed once.

use super::*;

/// A cabled endpoint port: its cable, the switch at the other end, its rate and its rail (NIC slot).
#[derive(Debug, Clone, Copy)]
pub(super) struct Port {
    /// Its cable's place in the design's link order (which is link id order).
    pub(super) at: usize,
    pub(super) switch: usize,
    pub(super) gbps: f64,
    pub(super) rail: u16,
}

/// A GPU server as routing sees it.
pub(super) struct Server {
    pub(super) gpus: f64,
    pub(super) nvlink: bool,
    pub(super) compute: Vec<Port>,
    pub(super) storage: Vec<Port>,
}

/// How a server attaches: (rail, switch, rate bits) per port.
pub(super) type Signature = Vec<(u16, usize, u64)>;

/// Servers of the same build and attachment, in groups (by server index).
pub(super) fn groups(servers: &[Server]) -> Vec<Vec<usize>> {
    let mut groups: BTreeMap<Signature, (Vec<usize>, bool, u64)> = BTreeMap::new();
    for (i, s) in servers.iter().enumerate() {
        let key: Vec<(u16, usize, u64)> = s
            .compute
            .iter()
            .map(|p| (p.rail, p.switch, p.gbps.to_bits()))
            .collect();
        let e = groups
            .entry(key)
            .or_insert_with(|| (Vec::new(), s.nvlink, s.gpus.to_bits()));
        if e.1 == s.nvlink && e.2 == s.gpus.to_bits() {
            e.0.push(i);
        }
    }
    // Servers whose NVLink flag or GPU count differ from their attachment group's are grouped alone.
    let grouped: usize = groups.values().map(|g| g.0.len()).sum();
    let mut group_list: Vec<Vec<usize>> = groups.into_values().map(|g| g.0).collect();
    if grouped < servers.len() {
        let mut seen = vec![false; servers.len()];
        for g in &group_list {
            for i in g {
                if let Some(x) = seen.get_mut(*i) {
                    *x = true;
                }
            }
        }
        group_list.extend(
            seen.iter()
                .enumerate()
                .filter(|(_, s)| !**s)
                .map(|(i, _)| vec![i]),
        );
    }

    group_list
}

/// GPU servers (in id order) and storage appliances with their ports and deliverable rate (Gb/s).
pub(super) fn endpoints(design: &Design, fabric: &Fabric) -> (Vec<Server>, Vec<(Vec<Port>, f64)>) {
    // Each port with its NIC slot; the slot's role is read from the server's part once per server, below (a
    // device and part lookup per cable end cost a cache miss each at 160,000 server cables).
    // (device, port, NIC slot), sorted by device and then link order (each link gives at most one entry, at its
    // end that is not a switch): the devices below, in id order, each take the next run. A list sorted once, not a
    // hash map of per-device lists, whose scattered pushes grew faster than the cables.
    let mut ports: Vec<(DeviceId, Port, Option<u16>)> = Vec::new();
    for (at, l) in design.links.values().enumerate() {
        for (end, other) in [(&l.a, &l.b), (&l.b, &l.a)] {
            let Some(&sw) = fabric.index.get(&other.device) else {
                continue;
            };
            if fabric.index.contains_key(&end.device) {
                continue;
            }
            let slot = end.nic_slot_and_port().map(|(slot, _)| slot);
            ports.push((
                end.device,
                Port {
                    at,
                    switch: sw,
                    gbps: l.medium.gbps(),
                    rail: slot.unwrap_or(0),
                },
                slot,
            ));
        }
    }
    // Stable: a device's ports stay in link order.
    ports.sort_by_key(|p| p.0);
    let mut rest = ports.as_slice();
    let mut servers = Vec::new();
    let mut storage = Vec::new();
    for (id, d) in &design.devices {
        let kind = design.parts.get(&d.part).map(|p| &p.kind);
        let mine = crate::analysis::next_run(&mut rest, |p| p.0, *id);
        match kind {
            Some(PartKind::Server(spec)) if !d.gpus.is_empty() => {
                // The ports on NIC slots of one role, read off the server's part.
                let with_role = |role: NicRole| -> Vec<Port> {
                    mine.iter()
                        .filter(|(_, _, slot)| {
                            slot.and_then(|k| spec.nic_slots.get(usize::from(k)))
                                .is_some_and(|x| x.role == role)
                        })
                        .map(|(_, p, _)| *p)
                        .collect()
                };
                let mut compute = with_role(NicRole::Compute);
                let mut st = with_role(NicRole::Storage);
                // Sorted by attachment so that servers of one group list their ports in the same order.
                compute.sort_by_key(|p| (p.rail, p.switch, p.gbps.to_bits(), p.at));
                st.sort_by_key(|p| (p.rail, p.switch, p.gbps.to_bits(), p.at));
                servers.push(Server {
                    gpus: d.gpus.len() as f64,
                    nvlink: spec.nvlink.is_some(),
                    compute,
                    storage: st,
                });
            }
            Some(PartKind::Storage(s)) if !mine.is_empty() => {
                let ps: Vec<Port> = mine.iter().map(|(_, p, _)| *p).collect();
                let link_total: f64 = ps.iter().map(|p| p.gbps).sum();
                storage.push((ps, (s.read_gbyte_s * 8.0).min(link_total)));
            }
            _ => {}
        }
    }
    (servers, storage)
}
