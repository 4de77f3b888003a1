//! Cooling: a rack past the air-cooling limit, or holding liquid-cooled equipment on air, is an error; a
//! liquid-cooled rack needs the coolant flow its heat sets (Q = P / (rho c_p dT)); every sample is quiet.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::analysis::{Severity, analyze};
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
    // 132.648 kW with a 10 K rise: 132.648 / (4.18 x 10) x 60 = 190.4 L/min.
    assert!((c001.coolant_l_min.unwrap() - 190.4).abs() < 0.05);
    // The same rack on air: over the 45 kW limit by 87.6 kW, and it holds liquid-cooled equipment.
    let rack = c001.rack;
    d.racks.get_mut(&rack).unwrap().cooling = Cooling::Air;
    let r = analyze(&d);
    let errors = codes(&r);
    assert!(errors.contains(&"rack-cooling"), "{errors:?}");
    assert!(errors.contains(&"needs-liquid-cooling"), "{errors:?}");
    let f = r
        .findings
        .iter()
        .find(|f| f.code == "rack-cooling")
        .unwrap();
    assert!(
        f.message.contains("132.6 kW") && f.message.contains("87.6 kW over"),
        "{}",
        f.message
    );
    assert_eq!(f.racks, vec![rack]);
    let air = r.cooling.racks.iter().find(|x| x.rack == rack).unwrap();
    // Airflow for 132.648 kW with a 12 K rise: 132.648 / (1.206 x 12) = 9.1658 m3/s x 3,600 = 32,997 m3/h.
    assert!(
        (air.airflow_m3_h.unwrap() - 32_997.0).abs() < 0.5,
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
