use super::Hop;

#[test]
fn hops_compare_as_their_names() {
    let mut hops = Vec::new();
    for s in [
        0u16, 1, 2, 9, 10, 11, 12, 19, 100, 101, 575, 1000, 9999, 10000, 65535,
    ] {
        hops.extend([Hop::GpuLink(s), Hop::NicLink(s), Hop::NicPort(s)]);
    }
    hops.extend([
        Hop::Uplink("psw1".into()),
        Hop::Uplink("gpu".into()),
        Hop::Uplink("nic1".into()),
        Hop::InterSocket("cpu0".into(), "cpu1".into()),
    ]);
    for a in &hops {
        for b in &hops {
            assert_eq!(
                a.cmp(b),
                a.to_string().cmp(&b.to_string()),
                "{a} against {b}"
            );
        }
    }
}
