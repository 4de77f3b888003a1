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
    // Each rack holds 2 servers of 8 L40S: 16 replicas x 20 req/s x 0.7 = 224 req/s; the demand is 400, so losing
    // either site leaves 224 < 400 and both are needed: availability 0.999^2 = 0.998001.
    for site in &s.sites {
        assert_eq!(site.gpus, 16);
        assert!((site.capacity_rps.unwrap() - 224.0).abs() < 1e-6);
        assert!((site.capacity_without_rps.unwrap() - 224.0).abs() < 1e-6);
    }
    assert!((s.service_availability.unwrap() - 0.998_001).abs() < 1e-9);
    let warn: Vec<&str> = r
        .findings
        .iter()
        .filter(|f| f.code == FindingCode::SiteLossCapacity)
        .map(|f| f.message.as_str())
        .collect();
    assert_eq!(warn.len(), 2, "{warn:?}");
    assert!(warn[0].contains("224 req/s of the 400 req/s"), "{warn:?}");
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
    // 200 req/s: either site's 224 req/s carries it, so the service is up unless both are down: 1 - 0.001^2.
    d.params.serving.as_mut().unwrap().request_rate_rps = 200.0;
    d.params.availability_target = Some(0.999_99);
    let r = analyze(&d);
    assert!((r.sites.service_availability.unwrap() - 0.999_999).abs() < 1e-9);
    assert!(
        !r.findings
            .iter()
            .any(|f| f.code == FindingCode::SiteLossCapacity
                || f.code == FindingCode::AvailabilityBelowTarget)
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
