//! Sites and availability, by hand: a service spread over two sites is available when the sites up carry the demand
//! (independent failures); losing a site that the demand needs is a warning, missing the target an error; the
//! lose-a-site what-if removes the site's devices.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::analysis::{FindingCode, Severity, analyze};
use racksmith::model::{Design, Site};

/// The L40S sample (400 req/s, replicas of one L40S at 20 req/s, 70% utilisation) with rack R01 in site "east"
/// and R02 in "west", each up 99.9% of the time.
fn two_sites() -> Design {
    let mut d = racksmith::samples::sample("l40s-inference-pcie").unwrap();
    for (name, region) in [("east", "us-east"), ("west", "us-west")] {
        d.sites.insert(
            name.into(),
            Site {
                region: region.into(),
                availability: 0.999,
                ..Site::default()
            },
        );
    }
    for r in d.racks.values_mut() {
        r.site = if r.name == "R01" { "east" } else { "west" }.into();
    }
    d
}

#[test]
fn each_site_carries_half_so_both_are_needed() {
    let mut d = two_sites();
    let r = analyze(&d);
    let s = &r.sites;
    assert_eq!(s.sites.len(), 2);
    // Each rack holds 2 servers of 8 L40S: 16 replicas x 20 req/s x 0.7 = 224 req/s. Every server is cabled to
    // both leaves (leaf-a in R01, leaf-b in R02), and the only storage (nvme-01, read at 0.5 GB/s per GPU) stands
    // in R02. Losing east leaves west's 16 replicas with leaf-b and the storage: 224 req/s. Losing west leaves
    // east's servers on leaf-a with no storage: 0 req/s. The demand is 400, so both are needed: availability
    // 0.999^2 = 0.998001.
    for site in &s.sites {
        assert_eq!(site.gpus, 16);
        assert!((site.capacity_rps.unwrap() - 224.0).abs() < 1e-6);
    }
    let without = |n: &str| {
        s.sites
            .iter()
            .find(|x| x.name == n)
            .unwrap()
            .capacity_without_rps
            .unwrap()
    };
    assert!((without("east") - 224.0).abs() < 1e-6);
    assert_eq!(without("west"), 0.0);
    assert!((s.service_availability.unwrap() - 0.998_001).abs() < 1e-9);
    let warn: Vec<&str> = r
        .findings
        .iter()
        .filter(|f| f.code == FindingCode::SiteLossCapacity)
        .map(|f| f.message.as_str())
        .collect();
    assert_eq!(warn.len(), 2, "{warn:?}");
    assert!(
        warn.iter()
            .any(|w| w.contains("losing site east leaves 224 req/s of the 400 req/s")),
        "{warn:?}"
    );
    assert!(
        warn.iter()
            .any(|w| w.contains("losing site west leaves 0 req/s of the 400 req/s")),
        "{warn:?}"
    );
    // A 99.9% target is missed.
    d.params.availability_target = Some(0.999);
    let r = analyze(&d);
    assert!(
        r.findings.iter().any(
            |f| f.code == FindingCode::AvailabilityBelowTarget && f.severity == Severity::Error
        )
    );
}

#[test]
fn with_demand_either_site_can_carry_the_service_survives_a_site() {
    let mut d = two_sites();
    // 200 req/s with no storage reads: either site's 224 req/s carries it (each keeps its own leaf), so the service
    // is up unless both are down: 1 - 0.001^2.
    d.params.serving.as_mut().unwrap().request_rate_rps = 200.0;
    d.params.traffic.storage_read_gbyte_s_per_gpu = 0.0;
    d.params.availability_target = Some(0.999_99);
    let r = analyze(&d);
    assert!((r.sites.service_availability.unwrap() - 0.999_999).abs() < 1e-9);
    assert!(
        !r.findings
            .iter()
            .any(|f| f.code == FindingCode::SiteLossCapacity
                || f.code == FindingCode::AvailabilityBelowTarget)
    );
    // Reading 0.5 GB/s per GPU from the one storage server in west, east alone serves nothing: the service is up
    // with both sites (0.999^2) or west alone (0.999 x 0.001): 0.999, below the 99.999% target.
    d.params.traffic.storage_read_gbyte_s_per_gpu = 0.5;
    let r = analyze(&d);
    assert!((r.sites.service_availability.unwrap() - 0.999).abs() < 1e-9);
    assert!(
        r.findings
            .iter()
            .any(|f| f.code == FindingCode::AvailabilityBelowTarget)
    );
}

#[test]
fn a_rack_on_an_undefined_site_is_refused_and_sites_round_trip() {
    let d = two_sites();
    let text = racksmith::io::design_to_string(&d).unwrap();
    let back = racksmith::io::design_from_str(&text, std::path::Path::new("x.ron")).unwrap();
    assert_eq!(back, d);
    let bad = text.replace("site: \"west\"", "site: \"north\"");
    let err = racksmith::io::design_from_str(&bad, std::path::Path::new("x.ron"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("site \"north\""), "{err}");
}

#[test]
fn losing_a_site_removes_its_devices() {
    let d = two_sites();
    let before = analyze(&d);
    let i = racksmith::analysis::whatif::impact(
        &d,
        &before,
        racksmith::analysis::whatif::Failure::Site("east".into()),
    );
    assert_eq!(i.gpus_reachable.0, 32);
    assert_eq!(i.gpus_reachable.1, 16);
    assert!(i.what.contains("site east"));
}

#[test]
fn each_site_charges_its_own_electricity_and_colocation() {
    let base = two_sites();
    let mut d = base.clone();
    d.params.utilisation_target = 1.0;
    let r0 = analyze(&d);
    // East pays $0.30/kWh and $100/kW-month; west keeps the design's $0.10 and $200.
    {
        let east = d.sites.get_mut("east").unwrap();
        east.electricity_usd_per_kwh = Some(0.30);
        east.colocation_usd_per_kw_month = Some(100.0);
    }
    let r = analyze(&d);
    let kw = |site: &str| {
        r.cooling
            .sites
            .iter()
            .find(|s| s.site == site)
            .map(|s| s.it_kw)
            .unwrap()
    };
    let (east, west) = (kw("east"), kw("west"));
    assert!((east + west - r.power.it_power_w / 1000.0).abs() < 0.01);
    // At 100% utilisation every device draws its maximum: kW x PUE 1.2 x 8,760 h x price.
    let energy = (east * 0.30 + west * 0.10) * 1.2 * 8_760.0;
    assert!(
        (r.cost.energy_usd_per_year - energy).abs() < 1.0,
        "{} vs {energy}",
        r.cost.energy_usd_per_year
    );
    let colocation = (east * 100.0 + west * 200.0) * 12.0;
    assert!((r.cost.colocation_usd_per_year - colocation).abs() < 0.1);
    // The facility rows carry each site's price; the unchanged design is charged at one rate.
    let row = r.cooling.sites.iter().find(|s| s.site == "east").unwrap();
    assert!((row.usd_per_kwh - 0.30).abs() < 1e-12);
    assert!(
        (r0.cost.energy_usd_per_year - (east + west) * 0.10 * 1.2 * 8_760.0).abs() < 1.0,
        "{}",
        r0.cost.energy_usd_per_year
    );
    // A site PUE of 1.5 for west: facility = east x 1.2 + west x 1.5.
    d.sites.get_mut("west").unwrap().pue = Some(1.5);
    let r = analyze(&d);
    let facility = east * 1.2 + west * 1.5;
    assert!((r.power.facility_power_w / 1000.0 - facility).abs() < 0.01);
}

#[test]
fn site_figures_and_cooling_are_checked_with_line_and_column() {
    let mut d = two_sites();
    d.sites.get_mut("west").unwrap().pue = Some(1.3);
    let text = racksmith::io::design_to_string(&d).unwrap();
    let path = std::path::Path::new("sites.ron");
    let line_of = |t: &str, needle: &str| t[..t.find(needle).unwrap()].matches('\n').count() + 1;
    // A PUE below 1 at a site.
    let bad = text.replace("pue: Some(1.3)", "pue: Some(0.8)");
    let err = racksmith::io::design_from_str(&bad, path)
        .unwrap_err()
        .to_string();
    assert!(err.contains("sites.\"west\".pue"), "{err}");
    assert!(
        err.contains(&format!("line {}, column", line_of(&bad, "pue: Some(0.8)"))),
        "{err}"
    );
    // A liquid-cooled rack in an air-only site: refused at load, naming the rack's cooling field and its line.
    d.sites.get_mut("west").unwrap().cooling = racksmith::model::SiteCooling::AirOnly;
    let west_rack = *d
        .racks
        .iter()
        .find(|(_, r)| r.site == "west")
        .map(|(id, _)| id)
        .unwrap();
    d.racks.get_mut(&west_rack).unwrap().cooling = racksmith::model::Cooling::Liquid;
    let bad = racksmith::io::design_to_string(&d).unwrap();
    let err = racksmith::io::design_from_str(&bad, path)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(&format!("racks.{}.cooling", west_rack.0)),
        "{err}"
    );
    assert!(err.contains("AirOnly"), "{err}");
    assert!(
        err.contains(&format!(
            "line {}, column",
            line_of(&bad, "cooling: Liquid")
        )),
        "{err}"
    );
    // And as an edit: making that rack liquid-cooled is refused with the reason.
    let mut ok = two_sites();
    ok.sites.get_mut("west").unwrap().cooling = racksmith::model::SiteCooling::AirOnly;
    let mut rack = ok.racks.get(&west_rack).unwrap().clone();
    rack.cooling = racksmith::model::Cooling::Liquid;
    let before = ok.clone();
    let e = racksmith::edit::Edit::UpdateRack(west_rack, rack)
        .apply(&mut ok)
        .unwrap_err()
        .to_string();
    assert!(e.contains("no facility water"), "{e}");
    assert_eq!(ok, before);
}

/// The 1-SU SuperPOD sample split over two sites (issue 45): compute racks C001-C004 (16 DGX H100, 128 GPUs) in
/// "eu", C005-C008 (15 DGX, 120 GPUs), the network rack with every switch and the storage rack in "us-east", each
/// site up 99.95%. It serves 800 req/s on replicas of one GPU at 10 req/s, 70% utilisation, with a 10 s latency
/// target (so the plan keeps 70%: rho_max = 1 - ln 100 / (10 x 10) = 0.954), and reads 1 GB/s per GPU from
/// storage as the sample does.
fn superpod_split() -> Design {
    let mut d = racksmith::samples::sample("superpod-h100-1su").unwrap();
    for (name, region) in [("eu", "eu-west"), ("us-east", "us-east")] {
        d.sites.insert(
            name.into(),
            Site {
                region: region.into(),
                ..Site::default()
            },
        );
    }
    for r in d.racks.values_mut() {
        let eu = ["C001", "C002", "C003", "C004"].contains(&r.name.as_str());
        r.site = if eu { "eu" } else { "us-east" }.into();
    }
    d.params.serving = Some(racksmith::model::Serving {
        request_rate_rps: 800.0,
        replica_throughput_rps: 10.0,
        gpus_per_replica: 1,
        latency_target_ms: 10_000.0,
        ..racksmith::model::Serving::default()
    });
    d.params.utilisation_target = 0.7;
    d
}

#[test]
fn losing_the_site_with_the_switches_leaves_nothing_serving() {
    let d = superpod_split();
    let r = analyze(&d);
    let site = |n: &str| r.sites.sites.iter().find(|s| s.name == n).unwrap();
    let (eu, us) = (site("eu"), site("us-east"));
    // Every site up: eu's 16 DGX reach the us-east leaves, and through them the storage, so all 248 replicas of
    // one GPU serve at 10 x 0.7 = 7 req/s: eu 128 x 7 = 896, us-east 120 x 7 = 840 req/s.
    assert_eq!((eu.gpus, us.gpus), (128, 120));
    assert_eq!((eu.replicas, us.replicas), (Some(128), Some(120)));
    assert!((eu.capacity_rps.unwrap() - 896.0).abs() < 1e-6);
    assert!((us.capacity_rps.unwrap() - 840.0).abs() < 1e-6);
    // Losing us-east takes every switch and the storage: eu's servers reach no front end, so 0 replicas and
    // 0 req/s are left (the old count of GPUs left said 896). Losing eu leaves us-east's 120 replicas, 840 req/s.
    assert_eq!(us.replicas_without, Some(0));
    assert_eq!(us.capacity_without_rps, Some(0.0));
    assert_eq!(eu.replicas_without, Some(120));
    assert!((eu.capacity_without_rps.unwrap() - 840.0).abs() < 1e-6);
    // Availability at 800 req/s: up when both sites are up (1,736) or us-east alone (840), down with eu alone (0)
    // or neither: 0.9995^2 + 0.9995 x 0.0005 = 0.9995 (the old figure, with eu alone enough: 1 - 0.0005^2).
    assert!((r.sites.service_availability.unwrap() - 0.9995).abs() < 1e-12);
    let short: Vec<&str> = r
        .findings
        .iter()
        .filter(|f| f.code == FindingCode::SiteLossCapacity)
        .map(|f| f.message.as_str())
        .collect();
    assert_eq!(short.len(), 1, "{short:?}");
    assert!(
        short[0].contains("losing site us-east leaves 0 req/s of the 800 req/s"),
        "{short:?}"
    );
    // The what-if says the same: replicas 248 -> 0 and serving 1,736 -> 0 req/s, beside GPUs reachable 248 -> 8.
    let i = racksmith::analysis::whatif::impact(
        &d,
        &r,
        racksmith::analysis::whatif::Failure::Site("us-east".into()),
    );
    assert_eq!(i.gpus_reachable, (248, 8));
    assert_eq!(i.replicas, Some((248, 0)));
    assert_eq!(i.serving_rps, Some((1736.0, 0.0)));
    assert!(
        i.summary()
            .contains("replicas 248 -> 0, serving 1,736 -> 0 req/s"),
        "{}",
        i.summary()
    );
}

/// The Availability card, the Sites window's words, the HTML report and `whatif --lose-site` give the same
/// figures on three designs with two sites: the availability recomputed from the what-if's capacities (both up:
/// the intact capacity; one up: the what-if without the other) is the card's and the report's, and each site's
/// replicas and req/s left are the what-if's.
#[cfg(feature = "gui")]
#[test]
fn card_sites_window_html_and_whatif_agree() {
    use racksmith::analysis::whatif::{Failure, impact};
    let designs = [
        superpod_split(),
        two_sites(),
        racksmith::samples::sample("l40s-two-regions").unwrap(),
    ];
    for d in &designs {
        let r = analyze(d);
        assert_eq!(r.sites.sites.len(), 2, "{}", d.name);
        let demand = r.sites.demand_rps.unwrap();
        // Per site, from the what-if: (name, availability, replicas and req/s left without it).
        let mut left = Vec::new();
        let mut intact = None;
        for s in &r.sites.sites {
            let i = impact(d, &r, Failure::Site(s.name.clone()));
            let (all, without) = i.serving_rps.unwrap();
            intact = Some(all);
            left.push((
                s.name.clone(),
                s.availability,
                i.replicas.unwrap().1,
                without,
            ));
            // The Sites window's words.
            let text = s.serving_text().unwrap();
            assert!(
                text.ends_with(&format!(
                    "without this site: {} left, {without:.0} req/s",
                    racksmith::analysis::format::count(
                        i.replicas.unwrap().1 as usize,
                        "replica",
                        "replicas"
                    )
                )),
                "{}: {text}",
                d.name
            );
        }
        let intact = intact.unwrap();
        let ok = |c: f64| c + 1e-9 >= demand;
        let [(n1, a1, _, w1), (n2, a2, _, w2)] = [left[0].clone(), left[1].clone()];
        let mut expected = 0.0;
        if ok(intact) {
            expected += a1 * a2;
        }
        if ok(w2) {
            expected += a1 * (1.0 - a2);
        }
        if ok(w1) {
            expected += (1.0 - a1) * a2;
        }
        let avail = r.sites.service_availability.unwrap();
        assert!(
            (avail - expected).abs() < 1e-9,
            "{}: {avail} vs {expected}",
            d.name
        );
        // The card.
        let cards = racksmith::app::analysis_pane::card_views(
            d,
            &r,
            racksmith::analysis::pattern::Pattern::RailRings,
        );
        let card = cards.iter().find(|c| c.title == "Availability").unwrap();
        assert_eq!(
            card.value,
            format!("{:.3}%", expected * 100.0),
            "{}",
            d.name
        );
        let (worst, w) = if w1 <= w2 { (&n1, w1) } else { (&n2, w2) };
        let sub = if ok(w) {
            "survives the loss of any one site".to_string()
        } else {
            format!("losing {worst} leaves {w:.0} of {demand:.0} req/s")
        };
        assert_eq!(card.sub, sub, "{}", d.name);
        // The HTML report.
        let html = String::from_utf8(
            racksmith::export::export(
                d,
                &r,
                racksmith::export::Format::Html,
                &racksmith::export::Options::default(),
            )
            .unwrap(),
        )
        .unwrap();
        assert!(
            html.contains(&format!(
                "The service is available {:.4}%",
                expected * 100.0
            )),
            "{}",
            d.name
        );
        for (_, _, n, x) in &left {
            assert!(
                html.contains(&format!(
                    "<td class=\"n\">{n} replicas, {x:.0} req/s</td></tr>"
                )),
                "{}: {n} replicas, {x:.0} req/s",
                d.name
            );
        }
    }
}

#[test]
fn servers_cabled_to_another_sites_leaves_are_a_finding() {
    // The split SuperPOD: every cable between eu and us-east has an eu DGX at one end (eu holds only servers), so
    // one warning names both sites and points at each of those cables; before, the design had no finding at all
    // about it. The two-region sample joins its sites leaf to leaf over 400ZR: no such warning.
    let d = superpod_split();
    let site = |dev: racksmith::model::DeviceId| d.racks[&d.devices[&dev].rack].site.clone();
    let crossing: Vec<racksmith::model::LinkId> = d
        .links
        .iter()
        .filter(|(_, l)| site(l.a.device) != site(l.b.device))
        .map(|(id, _)| *id)
        .collect();
    assert!(crossing.len() >= 128, "{}", crossing.len());
    let r = analyze(&d);
    let spans: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.code == FindingCode::FabricSpansSites)
        .collect();
    assert_eq!(spans.len(), 1);
    assert_eq!(spans[0].severity, Severity::Warning);
    assert_eq!(spans[0].links, crossing);
    assert!(
        spans[0].message.starts_with(&format!(
            "one fabric spans sites eu and us-east: {} cables join",
            crossing.len()
        )),
        "{}",
        spans[0].message
    );
    let two = racksmith::samples::sample("l40s-two-regions").unwrap();
    assert!(
        !analyze(&two)
            .findings
            .iter()
            .any(|f| f.code == FindingCode::FabricSpansSites)
    );
}

#[test]
fn cables_between_sites_are_held_to_the_distance_between_them() {
    // Issue 45: one fabric spanning two regions said nothing. With the regions 80 km apart, the two-region
    // sample's inter-site cable (drawn 10 km long, say) is an error; drawn at 80 km it is not, and the cross-site
    // path carries its propagation: 80,000 m x 5 ns = 400 us each way on that cable.
    let mut d = racksmith::samples::sample("l40s-two-regions").unwrap();
    let sites: Vec<String> = d.sites.keys().cloned().collect();
    let site_of = |d: &racksmith::model::Design, dev| d.racks[&d.devices[&dev].rack].site.clone();
    let inter: Vec<racksmith::model::LinkId> = d
        .links
        .iter()
        .filter(|(_, l)| site_of(&d, l.a.device) != site_of(&d, l.b.device))
        .map(|(k, _)| *k)
        .collect();
    assert!(!inter.is_empty());
    // The sample states its 80 km; without it, an information finding, not silence.
    assert_eq!(d.site_distance_km(&sites[0], &sites[1]), Some(80.0));
    for s in d.sites.values_mut() {
        s.distance_km.clear();
    }
    let r = racksmith::analysis::analyze(&d);
    assert!(
        r.findings
            .iter()
            .any(|f| f.code == racksmith::analysis::FindingCode::SiteDistance
                && f.severity == racksmith::analysis::Severity::Info)
    );
    d.sites
        .get_mut(&sites[0])
        .unwrap()
        .distance_km
        .insert(sites[1].clone(), 80.0);
    assert_eq!(d.site_distance_km(&sites[1], &sites[0]), Some(80.0));
    for l in &inter {
        d.links.get_mut(l).unwrap().length_m = 10_000.0;
    }
    let short = racksmith::analysis::analyze(&d);
    let f = short
        .findings
        .iter()
        .find(|f| f.code == racksmith::analysis::FindingCode::SiteDistance)
        .unwrap();
    assert_eq!(f.severity, racksmith::analysis::Severity::Error);
    assert_eq!(f.links, inter);
    let across = |r: &racksmith::analysis::Report| {
        r.latency
            .paths
            .iter()
            .find(|p| p.class == "across sites")
            .unwrap()
            .propagation_ns
    };
    for l in &inter {
        d.links.get_mut(l).unwrap().length_m = 80_000.0;
    }
    let right = racksmith::analysis::analyze(&d);
    assert!(
        !right
            .findings
            .iter()
            .any(|f| f.code == racksmith::analysis::FindingCode::SiteDistance)
    );
    // The same propagation whether the cable was drawn short (the distance is the floor) or at the distance.
    assert_eq!(across(&short), across(&right));
    assert!(across(&right) >= 80_000.0 * 5.0);
    // The file keeps the distance, and a distance out of range is refused with the site named.
    let text = racksmith::io::design_to_string(&d).unwrap();
    assert!(text.contains("distance_km"));
    let bad = text.replace(": 80.0", ": -1.0");
    let err = racksmith::io::design_from_str(&bad, std::path::Path::new("s.ron"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("distance_km"), "{err}");
}
