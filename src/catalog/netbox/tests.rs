//! The NetBox importer on small device types written here: kinds, ports, power, weight and refusals.

use super::*;

#[test]
fn deep_flow_nesting_is_found_before_parsing() {
    assert_eq!(flow_depth_over("a: [1, {b: [2]}]", 3), None);
    assert_eq!(flow_depth_over("a:\n  - [[[[x]]]]", 3), Some(2));
    // Brackets in quotes and comments do not count.
    assert_eq!(flow_depth_over("a: \"[[[[\" # [[[[\nb: '{{{{'", 3), None);
}

#[test]
fn interface_speeds() {
    assert_eq!(interface_gbps("400gbase-x-osfp"), Some(400.0));
    assert_eq!(interface_gbps("1000base-t"), Some(1.0));
    assert_eq!(interface_gbps("2.5gbase-t"), Some(2.5));
    assert_eq!(interface_gbps("1.6tbase-x-osfp1600"), Some(1600.0));
    assert_eq!(interface_gbps("infiniband-ndr"), Some(400.0));
    assert_eq!(interface_gbps("infiniband-xdr"), Some(800.0));
    assert_eq!(interface_gbps("infiniband-fdr"), Some(56.0));
    assert_eq!(interface_gbps("16gfc-sfpp"), None);
    assert_eq!(interface_gbps("rj-45"), None);
    assert_eq!(interface_gbps("virtual"), None);
}

#[test]
fn gaps_in_numbered_names() {
    let names = ["P0.0", "P0.1", "P1.0", "P1.1", "P2.1", "P3.0", "P3.1"];
    assert_eq!(missing_in_sequence(&names), vec!["P2.0".to_string()]);
    assert!(missing_in_sequence(&["swp1", "swp2", "swp3", "swp4"]).is_empty());
    assert_eq!(first_kw("derived: 6.5 kW system max"), Some(6.5));
}

#[test]
fn models_match_whole_words_only() {
    let c = Catalog::builtin().unwrap_or_default();
    assert_eq!(catalog_match(&c, "QM9700").map(|m| m.0), Some("qm9700"));
    assert_eq!(
        catalog_match(&c, "NVIDIA DGX A100 640GB").map(|m| m.0),
        Some("dgx-a100")
    );
    assert_eq!(catalog_match(&c, "NVIDIA T4").map(|m| m.0), Some("t4"));
    // The false matches: `t4` is a word of none of these.
    for m in [
        "PowerEdge T420",
        "PowerEdge T430",
        "PowerEdge T440",
        "Aruba 2930F-48G-PoE+ T4",
        "DCS-7280SR3-48YC8",
    ] {
        let got = catalog_match(&c, m).map(|x| x.0);
        assert!(got != Some("t4") || m.ends_with(" T4"), "{m}: {got:?}");
    }
    assert_eq!(catalog_match(&c, "PowerEdge T420"), None);
}

#[test]
fn gpu_server_model_words() {
    for w in ["421ge", "4029gp", "8125gs"] {
        assert!(gpu_server_word(w), "{w}");
    }
    for w in ["1029u", "6049p", "t420", "g292"] {
        assert!(!gpu_server_word(w), "{w}");
    }
}
