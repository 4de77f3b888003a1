//! Writes the inputs of the issue-36 hostile round at full scale, for measuring each command on them with the
//! release binary (docs/limits.md, "Budgets"): `cargo run --release --no-default-features --example hostile -- CASE
//! FILE`. Cases:
//! - `chain N`: a valid design of N switches in a chain, a DGX H100 on each (`whatif`);
//! - `scenarios N`: the one-DGX sample with N planning scenarios (`export --format html`);
//! - `switches N`: N switches of a 2,048-port part (`export --format netbox`);
//! - `sites N`: the one-DGX sample with N sites whose names all slugify alike (`export --format netbox`);
//! - `ring N`: the chain closed into a ring, one cycle in a tree-shaped fabric (`analyze`, `whatif`);
//! - `wide-servers N`: N servers of 576 GPU and NIC slots, every NIC on 2,048-port switches (`whatif`);
//! - `bad-refs N`: a design whose N cables name ports that do not exist (`validate`);
//! - `yaml-wide N`: a NetBox device type with one anchor of N items and N aliases of it (`catalog import-netbox`);
//! - `yaml-laughs L`: a device type of L levels of ten aliases each (the billion laughs).
#![allow(clippy::expect_used, clippy::unwrap_used)] // a generator that cannot set up should stop loudly

use racksmith::catalog::{Catalog, PartKind};
use racksmith::edit::Builder;
use racksmith::model::{Design, PartId, Scenario, Site};

#[path = "../tests/common/hostile_designs.rs"]
mod hostile_designs;
use hostile_designs::{chain, port, ring};

/// `n` switches of a 2,048-port part, two to a rack.
fn switches(catalog: &Catalog, n: usize) -> Design {
    let mut catalog = catalog.clone();
    let mut big = catalog.get("qm9700").unwrap().clone();
    if let PartKind::Switch(s) = &mut big.kind {
        s.ports = 2048;
    }
    big.name = "2,048-port switch".into();
    catalog.parts.insert(PartId::new("sw2048"), big);
    let mut d = Design {
        name: format!("{n} switches of 2,048 ports"),
        ..Design::default()
    };
    let mut b = Builder::new(&mut d, &catalog);
    let mut rack = None;
    for i in 0..n {
        if i % 2 == 0 {
            rack = Some(
                b.add_rack(
                    "rack-48u",
                    &format!("R{:05}", i / 2),
                    (i / 128) as u16,
                    ((i / 2) % 64) as u16,
                )
                .unwrap()
                .0,
            );
        }
        b.add_device(
            "sw2048",
            &format!("sw-{i:05}"),
            rack.unwrap(),
            1 + 2 * (i % 2) as u16,
        )
        .unwrap();
    }
    d
}

/// `servers` servers of 576 GPU and 576 NIC slots, every NIC cabled to 2,048-port switches.
fn wide_servers(catalog: &Catalog, servers: usize) -> Design {
    let mut catalog = catalog.clone();
    let mut big = catalog.get("qm9700").unwrap().clone();
    if let PartKind::Switch(s) = &mut big.kind {
        s.ports = 2048;
    }
    catalog.parts.insert(PartId::new("sw2048"), big);
    let server = racksmith::samples::wide_server(&catalog, 576).unwrap();
    catalog.parts.insert(PartId::new("box576"), server);
    let mut d = Design {
        name: format!("{servers} servers of 576 GPUs"),
        ..Design::default()
    };
    let mut b = Builder::new(&mut d, &catalog);
    let cables = servers * 576;
    let switches = cables.div_ceil(2048);
    let mut sw = Vec::new();
    for i in 0..switches {
        let rack = b
            .add_rack("rack-48u", &format!("S{i:03}"), 0, i as u16)
            .unwrap()
            .0;
        sw.push(
            b.add_device("sw2048", &format!("sw-{i:03}"), rack, 1)
                .unwrap(),
        );
    }
    let mut next = 0usize;
    let mut rack = None;
    for i in 0..servers {
        if i % 5 == 0 {
            rack = Some(
                b.add_rack("rack-48u", &format!("R{:03}", i / 5), 1, (i / 5) as u16)
                    .unwrap()
                    .0,
            );
        }
        let dev = b
            .add_device(
                "box576",
                &format!("box-{i:03}"),
                rack.unwrap(),
                1 + 9 * (i % 5) as u16,
            )
            .unwrap();
        b.fill_gpus(dev, "h100-sxm", 0..576).unwrap();
        b.fill_nics(dev, "cx7-ndr", 0..576).unwrap();
        for k in 0..576 {
            let s = sw[next / 2048];
            b.connect(
                port(dev, &format!("nic{k}/p1")),
                port(s, &format!("p{}", next % 2048 + 1)),
                3.0,
                None,
            )
            .unwrap();
            next += 1;
        }
    }
    d
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [case, n, out] = args.as_slice() else {
        eprintln!("usage: hostile CASE N FILE");
        std::process::exit(2);
    };
    let n: usize = n.parse().expect("N");
    let catalog = Catalog::builtin().unwrap();
    let sample = || racksmith::samples::sample("dgx-h100-single").unwrap();
    let text = match case.as_str() {
        "chain" => racksmith::io::design_to_string(&chain(&catalog, n)).unwrap(),
        "ring" => racksmith::io::design_to_string(&ring(&catalog, n)).unwrap(),
        "switches" => racksmith::io::design_to_string(&switches(&catalog, n)).unwrap(),
        "wide-servers" => racksmith::io::design_to_string(&wide_servers(&catalog, n)).unwrap(),
        "scenarios" => {
            let mut d = sample();
            d.scenarios = (0..n)
                .map(|i| {
                    let mut s = Scenario::from_params(&format!("plan {i}"), &d.params, None);
                    s.utilisation_target = 0.3 + 0.6 * (i as f64 / n as f64);
                    s
                })
                .collect();
            racksmith::io::design_to_string(&d).unwrap()
        }
        "sites" => {
            let mut d = sample();
            // "east" and i written in punctuation: every name slugifies to "east".
            let punct = ['!', '?', '*', '~', '^', '%'];
            for i in 0..n {
                let mut name = String::from("east ");
                let mut k = i;
                loop {
                    name.push(punct[k % punct.len()]);
                    k /= punct.len();
                    if k == 0 {
                        break;
                    }
                }
                d.sites.insert(name, Site::default());
            }
            racksmith::io::design_to_string(&d).unwrap()
        }
        "bad-refs" => {
            let mut d = racksmith::samples::rack_leaf_h100(&catalog, n / 32 + 1).unwrap();
            for l in d.links.values_mut().take(n) {
                l.a.port = "no-such-port".into();
            }
            racksmith::io::design_to_string(&d).unwrap()
        }
        "yaml-wide" => format!(
            "manufacturer: Acme\nmodel: Wide\nslug: acme-wide\nu_height: 1\nbig: &big [{}]\nmore: [{}]\n",
            vec!["x"; n].join(", "),
            vec!["*big"; n].join(", ")
        ),
        "yaml-laughs" => {
            let mut y = String::from(
                "manufacturer: Acme\nmodel: Laughs\nslug: acme-laughs\nu_height: 1\nl0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n",
            );
            for l in 1..=n {
                y.push_str(&format!(
                    "l{l}: &l{l} [{}]\n",
                    vec![format!("*l{}", l - 1); 10].join(", ")
                ));
            }
            y
        }
        other => {
            eprintln!("unknown case {other}");
            std::process::exit(2);
        }
    };
    std::fs::write(out, &text).unwrap();
    eprintln!("wrote {out}: {} bytes", text.len());
}
