//! The analysis gives the same report whatever the number of threads: byte-identical JSON from a one-thread pool
//! and a four-thread pool, on three-tier SuperPODs (several destination classes; at 16 SU, three pods routed as
//! one orbit), the rack-per-leaf design (pods of 48 racks swapped by symmetry) and an asymmetric fabric; and the
//! N-1 sweep of the rack-per-leaf design likewise.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

use racksmith::catalog::Catalog;

fn report_json(design: &racksmith::model::Design, threads: usize) -> String {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| serde_json::to_string(&racksmith::analysis::analyze(design)).unwrap())
}

#[test]
fn one_thread_and_many_give_the_same_report() {
    let c = Catalog::builtin().unwrap();
    let mut designs = vec![
        racksmith::samples::superpod_h100(&c, 8).unwrap(),
        racksmith::samples::superpod_h100(&c, 16).unwrap(),
        racksmith::samples::rack_leaf_h100(&c, 100).unwrap(),
    ];
    designs.push(
        racksmith::samples::dgx_fabric(
            &c,
            &[vec![0, 1], vec![1], vec![2, 2, 0], vec![3], vec![1, 3]],
            4,
            3,
            &[vec![1, 2, 0], vec![0, 1, 3], vec![2, 0, 1], vec![1, 1, 1]],
        )
        .unwrap(),
    );
    for d in &designs {
        let one = report_json(d, 1);
        let many = report_json(d, 4);
        assert!(one.len() > 1000, "{}: a real report", d.name);
        assert!(
            one == many,
            "{}: reports differ between 1 and 4 threads",
            d.name
        );
    }
}

#[test]
fn one_thread_and_many_give_the_same_sweep() {
    // 100 racks: pods of 48, 48 and 4; the sweep analyses two classes of leaves in parallel.
    let c = Catalog::builtin().unwrap();
    let d = racksmith::samples::rack_leaf_h100(&c, 100).unwrap();
    let before = racksmith::analysis::analyze(&d);
    let sweep = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            serde_json::to_string(&racksmith::analysis::whatif::n_minus_one(&d, &before)).unwrap()
        })
    };
    let one = sweep(1);
    assert!(one.contains("alike"), "{one}");
    assert_eq!(one, sweep(4));
}
