//! The floor view, driven through egui_kittest on the default sample (the 1-SU DGX SuperPOD: compute racks C001 to
//! C008 in row 0, the leaf rack N001 in row 1, the spine rack N002 and storage S001 in row 2): chosen in the
//! toolbar, a click selects a rack, a drag moves it to another place by one undoable edit, and its links' lengths
//! and the report's cables follow; a drop on a taken place is refused with the reason. And its image snapshot
//! (`UPDATE_SNAPSHOTS=1 cargo test --test app_floor` writes a new baseline after a reviewed change to the look).
#![cfg(feature = "gui")]
#![allow(clippy::unwrap_used, clippy::expect_used)] // test set-up that fails should stop the test loudly

mod common;
use common::{click_at, drag_and_drop, harness, snapshot_harness, step, undo};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use racksmith::app::RacksmithApp;
use racksmith::app::state::ViewMode;
use racksmith::model::{LinkId, RackId};
use std::collections::BTreeMap;

fn rack(h: &Harness<'static, RacksmithApp>, name: &str) -> RackId {
    let d = h.state().design();
    *d.racks
        .iter()
        .find(|(_, r)| r.name == name)
        .unwrap_or_else(|| panic!("no rack {name}"))
        .0
}

fn place(h: &Harness<'static, RacksmithApp>, id: RackId) -> (u16, u16) {
    let r = &h.state().design().racks[&id];
    (r.row, r.slot)
}

fn screen(h: &Harness<'static, RacksmithApp>, id: RackId) -> egui::Rect {
    h.state()
        .floor_rack_screen_rect(&h.ctx, id)
        .expect("the rack is on the floor view")
}

/// The lengths of the links with an end in a rack.
fn lengths(h: &Harness<'static, RacksmithApp>, id: RackId) -> BTreeMap<LinkId, f64> {
    let d = h.state().design();
    d.links
        .iter()
        .filter(|(_, l)| {
            [l.a.device, l.b.device]
                .iter()
                .any(|e| d.devices[e].rack == id)
        })
        .map(|(k, l)| (*k, l.length_m))
        .collect()
}

/// Cables and fibres in the report, by part and ordered length.
fn ordered(h: &Harness<'static, RacksmithApp>) -> Vec<(String, u64, u64)> {
    let report = h.state().report().expect("a report");
    report
        .physical
        .cables
        .iter()
        .map(|c| (c.part.clone(), (c.length_m * 10.0).round() as u64, c.count))
        .collect()
}

fn floor_view(h: &mut Harness<'static, RacksmithApp>) {
    h.get_by_label("Floor").click();
    step(h);
    step(h);
    assert_eq!(h.state().ui.canvas.view_mode, ViewMode::Floor);
}

#[test]
fn dragging_a_rack_moves_it_its_cables_follow_and_undo_puts_it_back() {
    let mut h = harness(racksmith::samples::default_design());
    floor_view(&mut h);
    let (c008, s001, n001) = (rack(&h, "C008"), rack(&h, "S001"), rack(&h, "N001"));
    assert_eq!(place(&h, c008), (0, 7));
    assert_eq!(place(&h, s001), (2, 1));

    // A click selects the rack, as on the racks view.
    let at = screen(&h, c008).center();
    click_at(&mut h, at);
    assert_eq!(
        h.state()
            .ui
            .selection
            .racks
            .iter()
            .copied()
            .collect::<Vec<_>>(),
        vec![c008]
    );

    let before = lengths(&h, c008);
    let report_before = ordered(&h);
    // Row 2 holds N002 (800 mm, slot 0) and S001 (600 mm, slot 1): slot 2 starts at S001's right edge and slot 3
    // one 600 mm place (S001's width) further; the rack is grabbed at its centre, so drop it at slot 3's centre.
    let s = screen(&h, s001);
    let to = egui::pos2(s.right() + 1.5 * s.width(), s.center().y);
    let from = screen(&h, c008).center();
    drag_and_drop(&mut h, from, to);
    assert_eq!(place(&h, c008), (2, 3), "{}", h.state().ui.status.text);
    let after = lengths(&h, c008);
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        after.keys().collect::<Vec<_>>()
    );
    // C008's node-to-leaf runs to N001 (row 1, slot 0, 800 mm: centre 0.4 m along). From row 0, slot 7 (centre
    // 7 x 0.6 + 0.3 = 4.5 m along): 4.1 m along the row + 2.4 m across (1.2 m rack, 1.2 m cold aisle) = 6.5 m over
    // the trays. From row 2, slot 3 (0.8 + 0.6 + 0.6 + 0.3 = 2.3 m along): 1.9 m + 2.1 m (row 2 at 4.5 m, row 1 at
    // 2.4 m) = 4.0 m. Up to the 0.3 m tray from a DGX's middle (U3 to U27 of a 42U rack, 1.87 m) and from a leaf:
    // 2.2 to 3.8 m for both ends. x 1.2 slack: (6.5 + 2.2..3.8) x 1.2 = 10.4..12.4 m, ordered 15 m; (4.0 +
    // 2.2..3.8) x 1.2 = 7.4..9.4 m, ordered 10 m.
    let leaf_links: Vec<LinkId> = {
        let d = h.state().design();
        before
            .keys()
            .filter(|k| {
                let l = &d.links[*k];
                [l.a.device, l.b.device]
                    .iter()
                    .any(|e| d.devices[e].rack == n001)
            })
            .copied()
            .collect()
    };
    assert!(!leaf_links.is_empty());
    for k in &leaf_links {
        assert_eq!((before[k], after[k]), (15.0, 10.0), "{k:?}");
    }
    // The report follows the edit: the cables ordered by length change.
    step(&mut h);
    assert_ne!(ordered(&h), report_before);

    undo(&mut h);
    assert_eq!(place(&h, c008), (0, 7));
    assert_eq!(lengths(&h, c008), before);
    step(&mut h);
    assert_eq!(ordered(&h), report_before);
}

#[test]
fn the_view_menu_offers_the_floor_plan() {
    let mut h = harness(racksmith::samples::default_design());
    common::menu(&mut h, "View", "Floor plan");
    assert_eq!(h.state().ui.canvas.view_mode, ViewMode::Floor);
    step(&mut h);
    let c001 = rack(&h, "C001");
    assert!(screen(&h, c001).width() > 0.0);
}

#[test]
fn a_drop_on_a_taken_place_is_refused_with_the_reason() {
    let mut h = harness(racksmith::samples::default_design());
    floor_view(&mut h);
    let (c001, c002) = (rack(&h, "C001"), rack(&h, "C002"));
    let revision_lengths = lengths(&h, c001);
    let (from, to) = (screen(&h, c001).center(), screen(&h, c002).center());
    drag_and_drop(&mut h, from, to);
    assert_eq!(place(&h, c001), (0, 0));
    assert_eq!(lengths(&h, c001), revision_lengths);
    let status = &h.state().ui.status.text;
    assert!(
        status.contains("rack C002 already stands in row 0, slot 1"),
        "{status}"
    );
}

#[test]
fn floor_view_dark_1600x1000() {
    let mut h = snapshot_harness(
        racksmith::samples::default_design(),
        egui::vec2(1600.0, 1000.0),
        egui::Theme::Dark,
        10,
    );
    h.state_mut().ui.canvas.no_tooltips = true;
    floor_view(&mut h);
    // The spine rack selected: its runs to the leaves drawn with their lengths.
    let n002 = rack(&h, "N002");
    let at = screen(&h, n002).center();
    click_at(&mut h, at);
    h.hover_at(egui::pos2(5.0, 995.0));
    h.run_steps(6);
    h.snapshot("floor_dark_1600x1000");
}

#[test]
fn a_design_in_two_sites_shows_one_floor_at_a_time_picked_above_it() {
    let mut h = harness(racksmith::samples::sample("l40s-two-regions").unwrap());
    floor_view(&mut h);
    let (e01, w01) = (rack(&h, "E01"), rack(&h, "W01"));
    // The first site by name (east) is shown; west's racks are not on it.
    assert!(h.state().floor_rack_screen_rect(&h.ctx, e01).is_some());
    assert!(h.state().floor_rack_screen_rect(&h.ctx, w01).is_none());
    h.get_by_label("site on the floor").click();
    step(&mut h);
    h.get_by_role_and_label(egui::accesskit::Role::Button, "west")
        .click();
    step(&mut h);
    step(&mut h);
    assert!(h.state().floor_rack_screen_rect(&h.ctx, e01).is_none());
    let w = screen(&h, w01);
    let rect = h.state().ui.canvas.floor.rect.unwrap();
    assert!(rect.contains(w.center()), "{w:?} in {rect:?}");
}
