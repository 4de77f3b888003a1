//! Cooling: a rack past the air-cooling limit, or holding liquid-cooled equipment on air, is an error; a
//! liquid-cooled rack needs the coolant flow its heat sets (Q = P / (rho c_p dT)); every sample is quiet.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::analysis::{FindingCode, Severity, analyze};
use racksmith::catalog::Catalog;
use racksmith::model::Cooling;

fn codes(r: &racksmith::analysis::Report) -> Vec<&str> {
    r.findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| f.code.as_str())
        .collect()
}

#[test]
fn an_nvl72_rack_needs_liquid_and_its_coolant_flow_is_computed() {
    let c = Catalog::builtin().unwrap();
    let mut d =
        racksmith::templates::generate(&c, "nvl72", &[("racks".into(), "1".into())]).unwrap();
    let r = analyze(&d);
    assert!(!codes(&r).contains(&"rack-cooling"));
    let c001 = r.cooling.racks.iter().find(|x| x.name == "C001").unwrap();
    assert_eq!(c001.mode, Cooling::Liquid);
    // 132 kW of system plus its 72 NICs' cables to the network rack beside it, on linear active copper (0.75 W
    // an end): 132.054 kW. With a 10 K rise: 132.054 / (4.18 x 10) x 60 = 189.55 L/min, reported as 189.6.
    assert!(
        (c001.coolant_l_min.unwrap() - 189.6).abs() < 0.01,
        "{:?}",
        c001.coolant_l_min
    );
    // The same rack on air: over the 45 kW limit by 87.1 kW, and it holds liquid-cooled equipment.
    let rack = c001.rack;
    d.racks.get_mut(&rack).unwrap().cooling = Cooling::Air;
    let r = analyze(&d);
    let errors = codes(&r);
    assert!(errors.contains(&"rack-cooling"), "{errors:?}");
    assert!(errors.contains(&"needs-liquid-cooling"), "{errors:?}");
    let f = r
        .findings
        .iter()
        .find(|f| f.code == FindingCode::RackCooling)
        .unwrap();
    assert!(
        f.message.contains("132.1 kW") && f.message.contains("87.1 kW over"),
        "{}",
        f.message
    );
    assert_eq!(f.racks, vec![rack]);
    let air = r.cooling.racks.iter().find(|x| x.rack == rack).unwrap();
    // Airflow for 132.054 kW with a 12 K rise: 132.054 / (1.206 x 12) = 9.1248 m3/s x 3,600 = 32,849 m3/h.
    assert!(
        (air.airflow_m3_h.unwrap() - 32_849.3).abs() < 0.5,
        "{:?}",
        air.airflow_m3_h
    );
}

#[test]
fn every_sample_is_cooled() {
    for name in racksmith::samples::SAMPLES {
        let r = analyze(&racksmith::samples::sample(name).unwrap());
        assert!(r.cooling.racks.iter().all(|x| x.ok), "{name}");
        assert!(!codes(&r).iter().any(|c| c.contains("cooling")), "{name}");
        // Facility overhead is IT x (PUE - 1).
        let it_kw = r.power.it_power_w / 1000.0;
        assert!(
            (r.cooling.overhead_kw - it_kw * (r.power.pue - 1.0)).abs() < 1e-3,
            "{name}"
        );
    }
}

fn nvl72(racks: usize) -> racksmith::model::Design {
    let c = Catalog::builtin().unwrap();
    racksmith::templates::generate(&c, "nvl72", &[("racks".into(), racks.to_string())]).unwrap()
}

#[test]
fn the_nvl72_template_brings_n_plus_one_cdus_and_the_facility_adds_up() {
    // Four racks of 132 kW of systems, each with its 72 NICs' cable ends by where the rack stands (the network rack
    // N001 follows them in the row): C001 and C002 on fibre, a 9 W single-port OSFP at each NIC (+648 W); C003 64
    // fibres and 8 runs within linear active copper's 5 m at 0.75 W an end (+582 W); C004, beside N001, 70 on
    // active copper and 2 fibres (+70.5 W). 2 x 132.648 + 132.582 + 132.0705 = 529.95 kW of liquid heat: one
    // 1,350 kW CDU moves it, plus one for N+1.
    let d = nvl72(4);
    let r = analyze(&d);
    let [site] = r.cooling.sites.as_slice() else {
        panic!(
            "one facility row for a design without sites: {:?}",
            r.cooling.sites
        )
    };
    assert_eq!(site.cdus, 2);
    assert!((site.cdu_capacity_kw - 2_700.0).abs() < 1e-9);
    assert!(
        (site.liquid_kw - (2.0 * 132.648 + 132.582 + 132.0705)).abs() < 0.01,
        "{}",
        site.liquid_kw
    );
    // Coolant: 529.9485 / (4.18 x 10) x 60 = 760.7 L/min, well within 2 x 2,025 L/min.
    assert!(
        (site.coolant_l_min - 760.7).abs() < 0.1,
        "{}",
        site.coolant_l_min
    );
    // Facility = IT x 1.2; overhead = IT x 0.2; heat = IT x 3.412 BTU/h per W.
    assert!((site.facility_kw - site.it_kw * 1.2).abs() < 0.01);
    assert!((site.overhead_kw - site.it_kw * 0.2).abs() < 0.01);
    assert!((site.heat_btu_h - site.it_kw * 3_412.0).abs() < 1.0);
    assert!(
        !r.findings
            .iter()
            .any(|f| f.code == FindingCode::NoCdu || f.code == FindingCode::CduCapacity)
    );
}

#[test]
fn liquid_racks_without_enough_cdu_are_found() {
    let mut d = nvl72(4);
    let cdus: Vec<_> = d
        .devices
        .iter()
        .filter(|(_, x)| x.part.as_str() == "cdu-inrow-1350kw")
        .map(|(id, _)| *id)
        .collect();
    assert_eq!(cdus.len(), 2);
    // Without any CDU: a warning naming the liquid racks.
    let mut none = d.clone();
    for id in &cdus {
        none.devices.remove(id);
    }
    let r = analyze(&none);
    let f = r
        .findings
        .iter()
        .find(|f| f.code == FindingCode::NoCdu)
        .unwrap();
    assert_eq!(f.severity, Severity::Warning);
    assert_eq!(f.racks.len(), 4);
    assert!(f.message.contains("529.9 kW"), "{}", f.message);
    // With the in-row CDUs shrunk to 250 kW each (500 kW against 529.9 kW): an error naming the CDUs.
    if let Some(racksmith::catalog::PartKind::Cdu(c)) = d
        .parts
        .get_mut(&racksmith::model::PartId::new("cdu-inrow-1350kw"))
        .map(|p| &mut p.kind)
    {
        c.capacity_kw = 250.0;
    }
    let r = analyze(&d);
    let f = r
        .findings
        .iter()
        .find(|f| f.code == FindingCode::CduCapacity)
        .unwrap();
    assert_eq!(f.severity, Severity::Error);
    assert_eq!(f.devices.len(), 2);
    assert!(f.message.contains("move 500 kW"), "{}", f.message);
}

#[test]
fn pue_by_cooling_mode_and_site_by_hand() {
    // One NVL72 rack (liquid) and its air-cooled network and CDU racks: liquid at PUE 1.1, air at 1.4.
    let mut d = nvl72(1);
    d.params.pue = 1.4;
    d.params.pue_liquid = Some(1.1);
    let r = analyze(&d);
    let liquid: f64 = r
        .cooling
        .racks
        .iter()
        .filter(|x| x.mode == Cooling::Liquid)
        .map(|x| x.heat_kw)
        .sum();
    let it = r.power.it_power_w / 1000.0;
    let expected = liquid * 1.1 + (it - liquid) * 1.4;
    assert!(
        (r.power.facility_power_w / 1000.0 - expected).abs() < 0.01,
        "{} vs {expected}",
        r.power.facility_power_w
    );
    assert!((r.power.pue - expected / it).abs() < 1e-4);
    // Energy follows: at 100% utilisation, IT kW x PUE x 8,760 h x $/kWh, each rack at its own PUE.
    d.params.utilisation_target = 1.0;
    let r = analyze(&d);
    let energy = expected * 8_760.0 * d.params.electricity_usd_per_kwh;
    assert!(
        (r.cost.energy_usd_per_year - energy).abs() < 1.0,
        "{} vs {energy}",
        r.cost.energy_usd_per_year
    );
}
