//! The canvas at scale, driven through egui_kittest: links bundled per pair of racks when zoomed out (with a hover
//! text giving the count), links one by one and culled to the view when zoomed in, the selection's links always.
#![cfg(feature = "gui")]
#![allow(clippy::expect_used)] // helpers that cannot set up a test should stop it loudly

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use racksmith::app::RacksmithApp;
use racksmith::catalog::Catalog;
use racksmith::model::{Design, RackId};
use std::collections::BTreeMap;

/// A 16-SU DGX SuperPOD H100 (511 DGX, about 15k links), fitted in a 1600x1000 window.
fn superpod_16su() -> Harness<'static, RacksmithApp> {
    let catalog = Catalog::builtin().expect("catalog");
    let design = racksmith::samples::superpod_h100(&catalog, 16).expect("generate");
    let app = RacksmithApp::new_for_test(design);
    let mut h = Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .with_max_steps(20)
        .build_ui_state(|ui, app: &mut RacksmithApp| app.show(ui), app);
    h.run_steps(3);
    h
}

/// The links of a design counted per pair of racks (a rack paired with itself for the links inside it).
fn links_per_rack_pair(d: &Design) -> BTreeMap<(RackId, RackId), usize> {
    let mut pairs = BTreeMap::new();
    for l in d.links.values() {
        let rack = |dev| d.devices.get(&dev).map(|x| x.rack).expect("device");
        let (a, b) = (rack(l.a.device), rack(l.b.device));
        *pairs.entry((a.min(b), a.max(b))).or_insert(0) += 1;
    }
    pairs
}

#[test]
fn zoomed_out_the_canvas_draws_one_bundle_per_pair_of_racks_with_links() {
    let mut h = superpod_16su();
    let app = h.state();
    assert!(app.ui.view.zoom < 0.2, "fitted at {}", app.ui.view.zoom);
    let pairs = links_per_rack_pair(app.design());
    // Compute racks to their SU's leaf rack and the storage leaves, leaves to spines, spines to cores: far fewer
    // bundles than links.
    assert!(pairs.len() > 100 && pairs.len() * 10 < app.design().links.len());
    assert_eq!(app.ui.canvas_drawn.bundles, pairs.len());
    assert_eq!(app.ui.canvas_drawn.links, 0);
    // Each bundle carries its pair's links, so together they carry every link once.
    let bundles = app.link_bundles(&h.ctx);
    let counted: BTreeMap<(RackId, RackId), usize> = bundles
        .iter()
        .map(|(a, b, n, _)| ((*a.min(b), *a.max(b)), *n))
        .collect();
    assert_eq!(counted, pairs);

    // A selected DGX's links are drawn one by one over the bundles.
    let dgx = app
        .design()
        .devices
        .iter()
        .find(|(_, d)| d.name == "dgx-0001")
        .map(|(id, _)| *id)
        .expect("dgx-0001");
    let its_links = app
        .design()
        .links
        .values()
        .filter(|l| l.a.device == dgx || l.b.device == dgx)
        .count();
    h.state_mut().ui.selection.devices.insert(dgx);
    h.run_steps(2);
    assert!(its_links >= 8);
    assert_eq!(h.state().ui.canvas_drawn.links, its_links);
    assert_eq!(h.state().ui.canvas_drawn.bundles, pairs.len());
}

#[test]
fn hovering_a_bundle_says_how_many_links_it_carries_and_between_which_racks() {
    let mut h = superpod_16su();
    let app = h.state();
    let name = |id: RackId| app.design().racks.get(&id).expect("rack").name.clone();
    // The busiest bundle between two different racks.
    let (a, b, n, at) = app
        .link_bundles(&h.ctx)
        .into_iter()
        .filter(|(a, b, _, _)| a != b)
        .max_by_key(|(_, _, n, _)| *n)
        .expect("a bundle");
    let text = format!("{n} links, rack {} ↔ {}", name(a), name(b));
    h.hover_at(at);
    // Tooltips wait for the pointer to rest.
    h.run_steps(40);
    assert!(
        h.query_by_label(&text).is_some(),
        "no tooltip {text:?} at {at:?}"
    );
    // Off the bundles (the window's corner of the canvas, past the racks), no bundle text.
    let corner = h.state().ui.canvas_rect.expect("canvas").right_bottom() - egui::vec2(40.0, 40.0);
    h.hover_at(corner);
    h.run_steps(40);
    assert!(h.query_by_label_contains("links, rack").is_none());
}

#[test]
fn zoomed_in_on_part_of_the_design_links_are_drawn_one_by_one_and_culled_to_the_view() {
    let mut h = superpod_16su();
    {
        let view = &mut h.state_mut().ui.view;
        view.zoom = 1.0;
        view.offset = egui::vec2(-600.0, -400.0);
        view.fitted = None;
    }
    h.run_steps(2);
    let app = h.state();
    let canvas = app.ui.canvas_rect.expect("canvas");
    let total = app.design().links.len();
    // Links with both ends on screen must be drawn; links with both ends left of, right of, above or below the
    // screen must not be.
    let rects = app.device_screen_rects();
    // A link is drawn when the box around its two devices meets the screen; links entirely left of, right of,
    // above or below it are not.
    let crossing = app
        .design()
        .links
        .values()
        .filter(|l| {
            let ra = *rects.get(&l.a.device).expect("placed");
            let rb = *rects.get(&l.b.device).expect("placed");
            ra.union(rb).intersects(canvas)
        })
        .count();
    let drawn = app.ui.canvas_drawn.links;
    assert_eq!(app.ui.canvas_drawn.bundles, 0);
    assert_eq!(drawn, crossing);
    assert!(
        drawn > 0 && drawn * 2 < total,
        "drew {drawn} of {total} links"
    );
}
