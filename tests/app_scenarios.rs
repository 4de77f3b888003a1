//! Help > Planning questions driven through egui_kittest: each of the six questions opens with its answer (the
//! same headline `racksmith scenario NAME` prints), and "Open design" replaces the document with the scenario's
//! design through the unsaved-changes path.
#![cfg(feature = "gui")]
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

mod common;
use common::{harness, step};

use egui_kittest::kittest::Queryable;
use racksmith::catalog::Catalog;
use racksmith::templates::scenarios;

#[test]
fn each_planning_question_opens_with_its_headline() {
    let catalog = Catalog::builtin().unwrap();
    let mut h = harness(racksmith::samples::default_design());
    h.get_by_label("Help").click();
    step(&mut h);
    h.get_by_label("Planning questions…").click();
    step(&mut h);
    for s in scenarios::list() {
        h.get_by_label(s.question).click();
        // The headline figure the window shows is the core's answer at the default inputs, e.g. "60 H100:
        // sooner and cheaper: ..." or "$... per 1M requests ...", worked out off the UI thread.
        let want = scenarios::answer(&catalog, s.name, &[]).unwrap();
        until_shown(&mut h, &want.headline);
    }
    // Back to "120 A100 or 60 H100" and open its design (the 60-H100 cluster): the unchanged default design is
    // replaced by it.
    let question = scenarios::find("a100-or-h100").unwrap().question;
    h.get_by_label(question).click();
    let want = scenarios::answer(&catalog, "a100-or-h100", &[]).unwrap();
    until_shown(&mut h, &want.headline);
    h.get_by_label("Open design").click();
    step(&mut h);
    step(&mut h);
    let want = racksmith::samples::sample("h100-60gpu-training")
        .unwrap()
        .name;
    assert_ne!(want, racksmith::samples::default_design().name);
    assert_eq!(h.state().design().name, want);
}

/// Steps the app until `label` shows (an answer comes from its own thread), for at most two minutes.
fn until_shown(h: &mut egui_kittest::Harness<'static, racksmith::app::RacksmithApp>, label: &str) {
    let start = std::time::Instant::now();
    while h.query_by_label(label).is_none() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(120),
            "never shown: {label}"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
        step(h);
    }
    // The answer's own frame settles (Open design enabled).
    step(h);
}
