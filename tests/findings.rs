//! Finding codes that no other test asserts: each fires on a design changed for the purpose and stays quiet on the
//! design it was changed from, with the figures worked out by hand.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::analysis::{FindingCode, Report, Severity, analyze};
use racksmith::catalog::PartKind;
use racksmith::model::{Design, PartId};
use racksmith::samples::sample;

fn find(r: &Report, code: FindingCode) -> Option<&racksmith::analysis::Finding> {
    r.findings.iter().find(|f| f.code == code)
}

fn single() -> Design {
    // dgx-h100-single: one rack (17.3 kW budget, 1,361 kg rating, 42U) holding a DGX H100 (10,290 W with its
    // optics), an AI400X2 and a QM9700: 13,774 W, 11U.
    sample("dgx-h100-single").unwrap()
}

#[test]
fn empty_gpu_slots() {
    let d = single();
    assert!(find(&analyze(&d), FindingCode::EmptyGpuSlots).is_none());
    let mut d2 = d.clone();
    let dgx = *d2
        .devices
        .iter()
        .find(|(_, x)| x.name == "dgx-01")
        .unwrap()
        .0;
    d2.devices.get_mut(&dgx).unwrap().gpus.remove(&7);
    let f = find(&analyze(&d2), FindingCode::EmptyGpuSlots).map(|f| f.devices.clone());
    assert_eq!(f, Some(vec![dgx]));
}

#[test]
fn rack_power_high_rack_weight_rack_space() {
    let d = single();
    let r = analyze(&d);
    for code in [
        FindingCode::RackPowerHigh,
        FindingCode::RackWeight,
        FindingCode::RackSpace,
        FindingCode::RackPower,
    ] {
        assert!(find(&r, code).is_none(), "{code}");
    }
    let rack = *d.racks.keys().next().unwrap();
    // 13,774 W against 15,000 W: 91.8%, above 90% and below 100%: info, not the rack-power error.
    let mut hot = d.clone();
    hot.racks.get_mut(&rack).unwrap().power_budget_w = 15_000.0;
    let r = analyze(&hot);
    let f = find(&r, FindingCode::RackPowerHigh).expect("rack-power-high");
    assert_eq!(f.severity, Severity::Info);
    assert!(f.message.contains("92%"), "{}", f.message);
    assert!(find(&r, FindingCode::RackPower).is_none());
    // A 100 kg rating under a DGX H100 alone.
    let mut heavy = d.clone();
    heavy.racks.get_mut(&rack).unwrap().max_weight_kg = 100.0;
    assert!(find(&analyze(&heavy), FindingCode::RackWeight).is_some());
    // 11U of equipment in a 10U rack.
    let mut short = d.clone();
    short.racks.get_mut(&rack).unwrap().height_u = 10;
    let r = analyze(&short);
    let f = find(&r, FindingCode::RackSpace).expect("rack-space");
    assert_eq!(f.racks, vec![rack]);
}

#[test]
fn rack_pdu() {
    // The rack's 0U PDU is rated for the 13,774 W; re-rated at 10 kW it is not.
    let d = single();
    assert!(find(&analyze(&d), FindingCode::RackPdu).is_none());
    let mut d2 = d.clone();
    let pdu = PartId::new("pdu-0u-17kw");
    let part = d2.parts.get_mut(&pdu).unwrap();
    let PartKind::Pdu(p) = &mut part.kind else {
        panic!("not a PDU")
    };
    assert!(p.capacity_w > 13_774.0);
    p.capacity_w = 10_000.0;
    assert!(find(&analyze(&d2), FindingCode::RackPdu).is_some());
}

#[test]
fn unpriced_links() {
    let d = single();
    assert!(find(&analyze(&d), FindingCode::UnpricedLinks).is_none());
    let mut d2 = d.clone();
    let id = *d2.links.keys().next().unwrap();
    d2.links.get_mut(&id).unwrap().cable = None;
    let r = analyze(&d2);
    let f = find(&r, FindingCode::UnpricedLinks).expect("unpriced-links");
    assert!(f.message.starts_with("1 links"), "{}", f.message);
    assert_eq!(r.cost.unpriced_links, 1);
}

#[test]
fn link_overloaded() {
    // h100-60gpu-training: 7 servers of 8 H100 (8 x 400G) and one of 4 (4 x 400G, rails 0-3). All-to-all sends
    // every GPU alike: a big server sends 3,200 x 8 / 52 = 492.3 Gb/s to each other big one (61.5 per rail) and
    // 3,200 x 4 / 52 = 246.2 to the small one on the 4 rails they share (61.5 per rail). Its rail-0 port carries
    // 6 x 61.5 + 61.5 = 430.8 Gb/s against 400: 108% (the small server's 4 ports take 7 x 246.2 / 4 = 430.8 each
    // too). The balanced SuperPOD SU peaks at exactly 100%: quiet.
    let r = analyze(&sample("h100-60gpu-training").unwrap());
    let f = find(&r, FindingCode::LinkOverloaded).expect("link-overloaded");
    assert!(f.message.starts_with("all-to-all"), "{}", f.message);
    assert!(f.message.contains("108% (431 Gb/s)"), "{}", f.message);
    assert!(!f.links.is_empty());
    assert!(
        find(
            &analyze(&sample("superpod-h100-1su").unwrap()),
            FindingCode::LinkOverloaded
        )
        .is_none()
    );
}

#[test]
fn serving_latency_and_its_capacity() {
    // l40s-inference-pcie: 400 req/s on 32 one-GPU replicas of 20 req/s; p99 = ln(100) / (20 - 12.5) = 614 ms plus
    // the network, under its 1 s target: quiet. With a 500 ms target the p99 misses it (serving-latency), and the
    // utilisation that would meet it, 1 - ln(100) / (20 x 0.5) = 0.54 (less the network's share), needs
    // ceil(400 / (20 x 0.54)) = 38 replicas, more than the 32 there are (serving-latency-capacity).
    let d = sample("l40s-inference-pcie").unwrap();
    let r = analyze(&d);
    assert!(find(&r, FindingCode::ServingLatency).is_none());
    assert!(find(&r, FindingCode::ServingLatencyCapacity).is_none());
    let mut d2 = d.clone();
    d2.params.serving.as_mut().unwrap().latency_target_ms = 500.0;
    let r = analyze(&d2);
    assert!(find(&r, FindingCode::ServingLatency).is_some());
    let f = find(&r, FindingCode::ServingLatencyCapacity).expect("serving-latency-capacity");
    assert!(f.message.contains("needs 38 replicas"), "{}", f.message);
}

#[test]
fn collective_overloads_in_a_serving_only_design_are_for_reference() {
    let overloads = |d: &Design| -> Vec<racksmith::analysis::Finding> {
        analyze(d)
            .findings
            .into_iter()
            .filter(|f| f.code == FindingCode::LinkOverloaded)
            .collect()
    };
    // The two-region sample serves with one-GPU replicas and trains nothing: its WAN links are offered far more
    // all-to-all and hierarchical all-reduce traffic than they carry, which is reported as info, not a warning.
    let mut d = sample("l40s-two-regions").unwrap();
    let over = overloads(&d);
    assert!(!over.is_empty());
    assert!(
        over.iter().all(|f| f.severity == Severity::Info),
        "{over:?}"
    );
    assert!(over.iter().all(|f| f.message.contains("for reference")));
    // The same fabric asked to train: the overloads are warnings again.
    d.params.training = Some(racksmith::model::Training::default());
    let over = overloads(&d);
    assert!(!over.is_empty());
    assert!(
        over.iter().all(|f| f.severity == Severity::Warning),
        "{over:?}"
    );
}
