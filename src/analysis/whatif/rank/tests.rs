use super::*;

#[test]
fn the_search_finds_each_cut_vertex_pieces() {
    // A chain of three switches s0 - s1 - s2 with a DGX (8 GPUs) on each: without s1 the component of 24 GPUs
    // falls into pieces of 8 (dgx on s1 alone), 8 and 8; without s0 into 8 (its dgx) and 16.
    let c = crate::catalog::Catalog::builtin().unwrap();
    let d = chain3(&c);
    let topo = Topology::build(&d);
    let bw = crate::analysis::analyze(&d).bandwidth;
    let r = Ranker::new(&d, &topo, &bw);
    let node = |name: &str| topo.node_of[&d.device_named(name).unwrap()].index();
    let mut p = r.pieces_without_node(node("sw-1"));
    p.sort_unstable();
    assert_eq!(p, vec![(8, 0), (8, 0), (8, 0)]);
    let mut p = r.pieces_without_node(node("sw-0"));
    p.sort_unstable();
    assert_eq!(p, vec![(8, 0), (16, 0)]);
    assert_eq!(r.reach, 24);
}

#[test]
fn alike_nics_cost_one_model_run_and_give_what_each_would() {
    let d = crate::samples::wide_servers(12);
    let topo = Topology::build(&d);
    let bw = crate::analysis::analyze(&d).bandwidth;
    let mut r = Ranker::new(&d, &topo, &bw);
    let id = d.device_named("box-1").unwrap();
    let node = topo.node_of[&id].index();
    let device = &d.devices[&id];
    let cabled = &r.servers[&node].2.clone();
    let without = |lost: &[(u16, u16)]| {
        let kept = cabled
            .iter()
            .filter(|c| !lost.contains(&(c.0, c.1)))
            .copied()
            .collect();
        crate::analysis::bandwidth::server_network_gbyte_s(&d, id, device, kept)
    };
    // Every NIC alike: one class for the twelve.
    assert_eq!(
        r.nic_class[r.servers[&node].1]
            .values()
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        1
    );
    // Losing NIC 3's cable and losing NIC 9's are one model run, each the figure computed directly.
    let a = r.server_without(node, &[(3, 1)]).unwrap();
    let b = r.server_without(node, &[(9, 1)]).unwrap();
    assert_eq!(r.memo.len(), 1);
    assert_eq!(a, without(&[(3, 1)]));
    assert_eq!(b, without(&[(9, 1)]));
    assert!(
        a < bw.servers[1].network_gbyte_s_per_gpu,
        "a lost cable costs bandwidth: {a}"
    );
    // Two NICs losing a cable each is another case, the same for any two.
    let two = r.server_without(node, &[(0, 1), (5, 1)]).unwrap();
    assert_eq!(r.memo.len(), 2);
    assert_eq!(r.server_without(node, &[(7, 1), (11, 1)]), Some(two));
    assert_eq!(two, without(&[(7, 1), (11, 1)]));
    assert_eq!(r.memo.len(), 2);
    // The other server, of the same shape, shares the runs.
    let other = topo.node_of[&d.device_named("box-0").unwrap()].index();
    assert_eq!(r.server_without(other, &[(2, 1)]), Some(a));
    assert_eq!(r.memo.len(), 2);
}

#[test]
fn nics_in_different_places_stay_apart() {
    // A DGX H100's compute NICs hang under four PCIe switches and its storage NICs elsewhere: NICs of
    // different parents are different classes; the two compute NICs under one switch are alike.
    let d = crate::samples::sample("dgx-h100-single").unwrap();
    let id = d
        .devices
        .iter()
        .find(|(_, v)| !v.gpus.is_empty())
        .map(|(k, _)| *k)
        .unwrap();
    let device = &d.devices[&id];
    let classes = nic_classes(&d, device, &[]);
    let PartKind::Server(spec) = &d.parts[&device.part].kind else {
        panic!("a server")
    };
    for (a, ca) in &classes {
        for (b, cb) in &classes {
            let (sa, sb) = (
                &spec.nic_slots[usize::from(*a)],
                &spec.nic_slots[usize::from(*b)],
            );
            let alike =
                sa.slot == sb.slot && sa.role == sb.role && device.nics[a] == device.nics[b];
            assert_eq!(ca == cb, alike, "nic{a} and nic{b}");
        }
    }
    assert!(
        classes
            .values()
            .collect::<std::collections::BTreeSet<_>>()
            .len()
            > 1
    );
    // Cabling one of two alike NICs sets it apart.
    let first = *classes.keys().next().unwrap();
    let cabled = nic_classes(&d, device, &[(first, 1, 400f64.to_bits())]);
    assert!(
        cabled
            .iter()
            .all(|(s, c)| (*s == first) == (*c == cabled[&first]))
    );
}

fn chain3(c: &crate::catalog::Catalog) -> Design {
    use crate::edit::Builder;
    use crate::model::PortRef;
    let mut d = Design::default();
    let mut b = Builder::new(&mut d, c);
    let rack = b.add_rack("rack-48u", "R", 0, 0).unwrap().0;
    let mut prev = None;
    for i in 0..3u16 {
        let sw = b
            .add_device("qm9700", &format!("sw-{i}"), rack, 1 + 12 * i)
            .unwrap();
        if let Some(p) = prev {
            b.connect(PortRef::new(p, "p2"), PortRef::new(sw, "p1"), 1.0, None)
                .unwrap();
        }
        let dgx = b
            .add_device("dgx-h100", &format!("dgx-{i}"), rack, 2 + 12 * i)
            .unwrap();
        b.connect(
            PortRef::new(dgx, "nic0/p1"),
            PortRef::new(sw, "p3"),
            3.0,
            None,
        )
        .unwrap();
        prev = Some(sw);
    }
    d
}
