//! The canvas at scale, driven through egui_kittest: links bundled per pair of racks when zoomed out (with a hover
//! text giving the count), links one by one and culled to the view when zoomed in, the selection's links always;
//! labels that stay readable (never below the canvas's smallest size, never running into a neighbour's).
#![cfg(feature = "gui")]
#![allow(clippy::expect_used)] // helpers that cannot set up a test should stop it loudly

mod common;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use racksmith::app::RacksmithApp;
use racksmith::catalog::Catalog;
use racksmith::model::Design;
use std::collections::BTreeMap;

/// A 16-SU DGX SuperPOD H100 (511 DGX, 164 racks in 11 rows, 14,708 links), fitted in a window of `size`.
fn superpod_16su(size: egui::Vec2) -> Harness<'static, RacksmithApp> {
    let catalog = Catalog::builtin().expect("catalog");
    let design = racksmith::samples::superpod_h100(&catalog, 16).expect("generate");
    let app = RacksmithApp::new_for_test(design);
    let mut h = Harness::builder()
        .with_size(size)
        .with_max_steps(20)
        .build_ui_state(|ui, app: &mut RacksmithApp| app.show(ui), app);
    h.run_steps(3);
    h
}

/// The links of a design counted per pair of racks, or of rows (`Rack.row`) with `by_row` (a rack or row paired
/// with itself for the links inside it), sorted.
fn links_per_pair(d: &Design, by_row: bool) -> Vec<usize> {
    let mut pairs: BTreeMap<(u64, u64), usize> = BTreeMap::new();
    let place = |dev| {
        let rack = d.devices.get(&dev).map(|x| x.rack).expect("device");
        if by_row {
            u64::from(d.racks.get(&rack).expect("rack").row)
        } else {
            rack.0
        }
    };
    for l in d.links.values() {
        let (a, b) = (place(l.a.device), place(l.b.device));
        *pairs.entry((a.min(b), a.max(b))).or_insert(0) += 1;
    }
    let mut counts: Vec<usize> = pairs.into_values().collect();
    counts.sort_unstable();
    counts
}

/// Hovers a point until tooltips show (they wait for the pointer to rest).
fn rest_at(h: &mut Harness<'static, RacksmithApp>, at: egui::Pos2) {
    h.hover_at(at);
    h.run_steps(40);
}

#[test]
fn far_out_the_canvas_draws_one_arc_per_pair_of_rows_with_links() {
    let mut h = superpod_16su(egui::vec2(1600.0, 1000.0));
    let app = h.state();
    assert!(
        app.ui.canvas.view.zoom < 0.3,
        "fitted at {}",
        app.ui.canvas.view.zoom
    );
    let rows = links_per_pair(app.design(), true);
    let bundles = app.link_bundles(&h.ctx);
    // Compute rows to the leaf and storage rows, leaves to spines, spines to cores, and links inside rows.
    assert!(rows.len() >= 10, "{rows:?}");
    assert_eq!(app.ui.canvas.canvas_drawn.bundles, rows.len());
    assert_eq!(app.ui.canvas.canvas_drawn.links, 0);
    let mut counts: Vec<usize> = bundles.iter().map(|b| b.1).collect();
    counts.sort_unstable();
    assert_eq!(counts, rows);
    assert_eq!(counts.iter().sum::<usize>(), app.design().links.len());
    // Hovering an arc (in the margin right of the rows) names its rows and counts their links.
    let (text, n, at) = bundles
        .iter()
        .filter(|b| b.0.contains('↔'))
        .max_by_key(|b| b.1)
        .cloned()
        .expect("an arc between two rows");
    assert!(text.starts_with(&format!("{n} links, row ")), "{text}");
    rest_at(&mut h, at);
    assert!(h.query_by_label(&text).is_some(), "no {text:?} at {at:?}");

    // A selected DGX's links are drawn one by one over the arcs.
    let dgx = h
        .state()
        .design()
        .devices
        .iter()
        .find(|(_, d)| d.name == "dgx-0001")
        .map(|(id, _)| *id)
        .expect("dgx-0001");
    let its_links = h
        .state()
        .design()
        .links
        .values()
        .filter(|l| l.a.device == dgx || l.b.device == dgx)
        .count();
    common::click_device(&mut h, dgx);
    assert_eq!(common::selected_devices(&h), vec![dgx]);
    assert!(its_links >= 8);
    assert_eq!(h.state().ui.canvas.canvas_drawn.links, its_links);
    assert_eq!(h.state().ui.canvas.canvas_drawn.bundles, rows.len());
}

#[test]
fn zoomed_out_the_canvas_draws_one_bundle_per_pair_of_racks_with_links_and_says_what_it_carries() {
    // A tall window fits the 16-SU design at a zoom where racks are wide enough for bundles per rack.
    let mut h = superpod_16su(egui::vec2(2400.0, 2700.0));
    let app = h.state();
    assert!(
        (0.3..0.75).contains(&app.ui.canvas.view.zoom),
        "fitted at {}",
        app.ui.canvas.view.zoom
    );
    let racks = links_per_pair(app.design(), false);
    // Far fewer bundles than links.
    assert!(racks.len() > 100 && racks.len() * 10 < app.design().links.len());
    assert_eq!(app.ui.canvas.canvas_drawn.bundles, racks.len());
    assert_eq!(app.ui.canvas.canvas_drawn.links, 0);
    let bundles = app.link_bundles(&h.ctx);
    let mut counts: Vec<usize> = bundles.iter().map(|b| b.1).collect();
    counts.sort_unstable();
    assert_eq!(counts, racks);
    // The busiest bundle between two racks with its middle off the devices (over a device, the device's hover text
    // shows): its hover text gives the count and the racks.
    let devices = app.device_screen_rects();
    let (text, n, at) = bundles
        .iter()
        .filter(|b| b.0.contains('↔') && !devices.values().any(|r| r.expand(1.0).contains(b.2)))
        .max_by_key(|b| b.1)
        .cloned()
        .expect("a bundle between two racks");
    assert!(text.starts_with(&format!("{n} links, rack ")), "{text}");
    rest_at(&mut h, at);
    assert!(h.query_by_label(&text).is_some(), "no {text:?} at {at:?}");
    // Off the bundles (the canvas's bottom right corner, past the racks), no bundle text.
    let corner = h
        .state()
        .ui
        .canvas
        .canvas_rect
        .expect("canvas")
        .right_bottom()
        - egui::vec2(20.0, 20.0);
    rest_at(&mut h, corner);
    assert!(h.query_by_label_contains("links, rack").is_none());
}

#[test]
fn zoomed_in_on_part_of_the_design_links_are_drawn_one_by_one_and_culled_to_the_view() {
    let mut h = superpod_16su(egui::vec2(1600.0, 1000.0));
    {
        let view = &mut h.state_mut().ui.canvas.view;
        view.zoom = 1.0;
        view.offset = egui::vec2(-600.0, -400.0);
        view.fitted = None;
    }
    h.run_steps(2);
    let app = h.state();
    let canvas = app.ui.canvas.canvas_rect.expect("canvas");
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
    let drawn = app.ui.canvas.canvas_drawn.links;
    assert_eq!(app.ui.canvas.canvas_drawn.bundles, 0);
    assert_eq!(drawn, crossing);
    assert!(
        drawn > 0 && drawn * 2 < total,
        "drew {drawn} of {total} links"
    );
}

/// The texts the canvas drew in the last frame, read from the frame's shapes: (text, smallest font size in
/// points, rect on screen).
fn canvas_texts(h: &Harness<'static, RacksmithApp>) -> Vec<(String, f32, egui::Rect)> {
    fn walk(shape: &egui::Shape, out: &mut Vec<(String, f32, egui::Rect)>) {
        match shape {
            egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| walk(s, out)),
            egui::Shape::Text(t) => {
                let size = t
                    .galley
                    .job
                    .sections
                    .iter()
                    .map(|s| s.format.font_id.size)
                    .fold(f32::INFINITY, f32::min);
                let rect = t.galley.rect.translate(t.pos.to_vec2());
                out.push((t.galley.text().to_string(), size, rect));
            }
            _ => {}
        }
    }
    let canvas = h.state().ui.canvas.canvas_rect.expect("canvas laid out");
    let mut out = Vec::new();
    for clipped in &h.output().shapes {
        if canvas.contains_rect(clipped.clip_rect) {
            walk(&clipped.shape, &mut out);
        }
    }
    out.retain(|(text, _, rect)| !text.trim().is_empty() && canvas.intersects(*rect));
    out
}

/// The 1-SU SuperPOD (10 racks, 31 DGX and 16 leaf switches), fitted in 1600x1000 as it opens.
fn superpod_1su() -> Harness<'static, RacksmithApp> {
    let catalog = Catalog::builtin().expect("catalog");
    let design = racksmith::samples::superpod_h100(&catalog, 1).expect("generate");
    let app = RacksmithApp::new_for_test(design);
    let mut h = Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .with_max_steps(20)
        .build_ui_state(|ui, app: &mut RacksmithApp| app.show(ui), app);
    h.run_steps(4);
    h
}

#[test]
fn at_the_default_zoom_labels_are_readable_and_servers_and_switches_are_named() {
    let h = superpod_1su();
    let zoom = h.state().ui.canvas.view.zoom;
    assert!(zoom < 0.6, "fitted at {zoom}");
    let texts = canvas_texts(&h);
    // Nothing smaller than the canvas's minimum (device labels were 6-7 points at this zoom).
    for (text, size, _) in &texts {
        assert!(
            *size >= racksmith::app::MIN_LABEL_PT,
            "{text:?} drawn at {size} points (zoom {zoom})"
        );
    }
    // Every DGX shows its name, and the stack of 8 leaf switches (each 1U, too short for a name) is labelled.
    let d = h.state().design();
    let named = d
        .devices
        .values()
        .filter(|x| x.name.starts_with("dgx-"))
        .filter(|x| texts.iter().any(|(t, _, _)| t.starts_with(&x.name)))
        .count();
    assert_eq!(named, 31, "{texts:?}");
    // "8 switches" (the leaves' network rack; the spines stand in their own), or "switches" when the count does
    // not fit the rack's width.
    assert!(
        texts
            .iter()
            .any(|(t, _, _)| t == "8 switches" || t == "switches"),
        "{texts:?}"
    );
}

#[test]
fn zoomed_in_each_switch_has_its_own_label() {
    let mut h = superpod_1su();
    let d = h.state().design().clone();
    let (leaf_id, leaf) = d
        .devices
        .iter()
        .find(|(_, x)| x.name.starts_with("leaf-"))
        .map(|(id, x)| (*id, x.clone()))
        .expect("a leaf switch");
    // Zoomed to 1.0 with the leaf's rack in view.
    common::zoom_in_on(&mut h, leaf_id);
    let texts = canvas_texts(&h);
    assert!(
        texts
            .iter()
            .any(|(t, size, _)| t == &leaf.name && *size >= racksmith::app::MIN_LABEL_PT),
        "{texts:?}"
    );
}

#[test]
fn rack_labels_never_overlap_at_any_zoom() {
    let mut h = superpod_1su();
    let racks: Vec<String> = h
        .state()
        .design()
        .racks
        .values()
        .map(|r| r.name.clone())
        .collect();
    for zoom in [0.27_f32, 0.3, 0.35, 0.42, 0.6, 1.0] {
        h.state_mut().ui.canvas.view.zoom = zoom;
        h.state_mut().ui.canvas.view.offset = egui::vec2(10.0, 10.0);
        h.state_mut().ui.canvas.view.fitted = None;
        h.run_steps(2);
        let texts = canvas_texts(&h);
        let headers: Vec<_> = texts
            .iter()
            .filter(|(t, _, _)| {
                t.ends_with(" kW")
                    || racks
                        .iter()
                        .any(|r| t == r || t.starts_with(&format!("{r}  ")))
            })
            .collect();
        // At 0.27 the full "41.2 / 44.0 kW" is wider than a rack: the shorter form or nothing, never an overlap.
        for (i, a) in headers.iter().enumerate() {
            for b in headers.iter().skip(i + 1) {
                assert!(
                    !a.2.shrink(0.5).intersects(b.2.shrink(0.5)),
                    "zoom {zoom}: {:?} at {:?} overlaps {:?} at {:?}",
                    a.0,
                    a.2,
                    b.0,
                    b.2
                );
            }
        }
        // At 0.42 the eleven racks are all in view (zoomed further in, some are past the canvas's edge): 8 compute,
        // the leaves' and the spines' network racks, and the storage rack.
        if zoom == 0.42 {
            let kw = headers
                .iter()
                .filter(|(t, _, _)| t.ends_with(" kW"))
                .count();
            assert_eq!(kw, 11, "zoom {zoom}: every rack's power shows: {headers:?}");
        }
    }
}

/// A harness of the default design at 1024x700, the smallest window the README promises.
fn small_window() -> Harness<'static, RacksmithApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1024.0, 700.0))
        .with_max_steps(20)
        .build_ui_state(
            |ui, app: &mut RacksmithApp| app.show(ui),
            RacksmithApp::new_for_test(racksmith::samples::default_design()),
        );
    h.run_steps(3);
    h
}

/// Issue 35: at 1024x700 Fit zoomed the SuperPOD to where no rack header is drawn. It now stops at a zoom where
/// headers are drawn (above 25%), the first rack's header in view and the rest a pan away; the canvas keeps more
/// than half the window's width.
#[test]
fn fit_at_1024x700_keeps_rack_headers_drawn() {
    let mut h = small_window();
    h.get_by_label("Fit").click();
    h.run_steps(3);
    let app = h.state();
    let zoom = app.ui.canvas.view.zoom;
    assert!(zoom > 0.25, "zoom {zoom}");
    let canvas = app.ui.canvas.canvas_rect.unwrap();
    assert!(canvas.width() >= 500.0, "canvas {canvas:?}");
    // The first rack's top (its header) is inside the canvas.
    let (&first, rack) = app.design().racks.iter().next().unwrap();
    let top = app.unit_screen_pos(first, rack.height_u).unwrap();
    assert!(canvas.contains(top), "{top:?} outside {canvas:?}");
}

/// Issue 35: folding the inspector keeps the analysis pane, which takes its room; the panel's ▶ still hides both.
#[test]
fn folding_the_inspector_keeps_the_analysis() {
    let mut h = small_window();
    h.get_by_label("Inspector");
    h.get_by_label("−").click();
    h.run_steps(3);
    assert!(h.state().ui.windows.inspector_collapsed);
    assert!(h.query_by_label("Inspector").is_none());
    h.get_by_label("Inspector (hidden)");
    h.get_by_label("Analysis");
    assert!(h.get_all_by_label_contains("248 GPUs").count() >= 1);
    h.get_by_label("+").click();
    h.run_steps(3);
    h.get_by_label("Inspector");
}

/// Issue 35: a cable drawn on the canvas is picked by clicking it (within a few points of the line), and its
/// inspector opens. The link between the first leaf-facing DGX and its leaf in the next rack, clicked halfway
/// along its drawn line (front view: from the right edge of one device to the left edge of the other).
#[test]
fn clicking_a_cable_on_the_canvas_selects_it() {
    let mut h = common::harness(racksmith::samples::sample("a100-nic-starved").unwrap());
    let app = h.state();
    let d = app.design();
    let (&lid, mid) = d
        .links
        .iter()
        .find_map(|(id, l)| {
            let (ra, rb) = (
                app.device_screen_rect(l.a.device)?,
                app.device_screen_rect(l.b.device)?,
            );
            if (ra.center().x - rb.center().x).abs() < 1.0 {
                return None;
            }
            let (a, b) = if ra.center().x < rb.center().x {
                (
                    egui::pos2(ra.right(), ra.center().y),
                    egui::pos2(rb.left(), rb.center().y),
                )
            } else {
                (
                    egui::pos2(ra.left(), ra.center().y),
                    egui::pos2(rb.right(), rb.center().y),
                )
            };
            let mid = a + (b - a) * 0.5;
            // Not over a device (a click there selects the device).
            let over_device = d
                .devices
                .keys()
                .filter_map(|x| app.device_screen_rect(*x))
                .any(|r| r.contains(mid));
            (!over_device).then_some((id, mid))
        })
        .expect("a cable between two racks, clear of devices halfway");
    common::click_at(&mut h, mid);
    common::step(&mut h);
    let sel = &h.state().ui.selection;
    assert_eq!(sel.links.len(), 1, "{sel:?}");
    // The nearest cable at that point: this one, or one drawn on top of it along the same run.
    let picked = *sel.links.iter().next().unwrap();
    let l = &h.state().design().links[&picked];
    let want = &h.state().design().links[&lid];
    assert!(
        picked == lid || (l.a.device, l.b.device) == (want.a.device, want.b.device),
        "picked {picked:?}, expected {lid:?}"
    );
    assert!(h.get_all_by_label_contains("Link ").count() >= 1);
}
