//! Sites and availability, by hand: a service spread over two sites is available when the sites up carry the demand
//! (independent failures); losing a site that the demand needs is a warning, missing the target an error; the
//! lose-a-site what-if removes the site's devices.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::analysis::{Severity, analyze};
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
        .filter(|f| f.code == "site-loss-capacity")
        .map(|f| f.message.as_str())
        .collect();
    assert_eq!(warn.len(), 2, "{warn:?}");
    assert!(warn[0].contains("224 req/s of the 400 req/s"), "{warn:?}");
    // A 99.9% target is missed.
    d.params.availability_target = Some(0.999);
    let r = analyze(&d);
    assert!(
        r.findings
            .iter()
            .any(|f| f.code == "availability-below-target" && f.severity == Severity::Error)
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
            .any(|f| f.code.starts_with("site-") || f.code == "availability-below-target")
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
