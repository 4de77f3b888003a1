//! The canvas's paint step: racks with their unit numbers and power, devices, links coloured by load, note
//! badges, then the previews the input step found (selection band, drop targets, ghosts) and the hover tooltips.

use super::layout::{RAIL_W, U_H};
use super::{Frame, Overlays, bundles, scene};
use crate::analysis::Report;
use crate::analysis::power::device_power_weight;
use crate::app::state::{CanvasDrag, CanvasDrawn, CanvasState, PartDrag, RackFace, UiState};
use crate::app::theme::{self, Status};
use crate::model::{Design, Device, DeviceId, LinkId, RackId};
use egui::emath::TSTransform;
use egui::{Color32, Pos2, Rect, Stroke, StrokeKind, Vec2, pos2, vec2};
use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeSet;

/// Selection outline colour.
pub(super) const SELECTION: Color32 = Color32::from_rgb(255, 210, 60);

/// The smallest text the canvas draws, points. A label that would be smaller, or that does not fit its box at this
/// size, is left out rather than drawn too small to read on a projector or cut mid-word (the hover text and the
/// inspector still name everything).
pub const MIN_LABEL_PT: f32 = 10.0;

/// The zoom above which rack headers (name, power against budget) are drawn.
pub const HEADER_ZOOM: f32 = 0.25;

/// Font size of the second line of a device (its panel cues), points.
fn cue_size(zoom: f32) -> f32 {
    (9.0 * zoom).clamp(MIN_LABEL_PT, 12.0)
}

/// The first of `texts` that fits in `width` points at `font`, laid out; None when none does.
fn fitting(
    painter: &egui::Painter,
    texts: impl IntoIterator<Item = String>,
    font: &egui::FontId,
    color: Color32,
    width: f32,
) -> Option<std::sync::Arc<egui::Galley>> {
    texts
        .into_iter()
        .map(|t| painter.layout_no_wrap(t, font.clone(), color))
        .find(|g| g.size().x <= width)
}

/// Above this many racks the window's first frame shows the canvas's background only and draws the racks on the
/// frame after. The first frame is the one on which the renderer compiles its shaders (eframe's own; Mesa's llvmpipe
/// builds its code for them, 40-60 ms without its disk cache); with every rack of a 128-SU SuperPOD drawn on it too,
/// it took 111-135 ms, where the two halves take 85-90 and 52-64 ms (docs/analysis.md, "The canvas kept as pixels
/// (OpenGL)"). A small design draws whole on its first frame.
const FIRST_FRAME_RACKS: usize = 100;

/// Draws the canvas, over its `background` when the caller painted none under it (the window's OpenGL layer,
/// `gl_layer`, then keeps the scene as pixels).
pub(super) fn paint(
    ui: &egui::Ui,
    f: &Frame<'_>,
    (report, background): (Option<&Report>, Option<Color32>),
    state: &UiState,
    overlays: &Overlays,
) -> CanvasDrawn {
    let painter = ui.painter_at(f.rect);
    if ui.ctx().cumulative_frame_nr() == 0 && f.design.racks.len() > FIRST_FRAME_RACKS {
        // The window's first frame of a large design: the canvas's background, and its racks on the next frame.
        if let Some(bg) = background {
            painter.rect_filled(f.rect, 0.0, bg);
        }
        ui.ctx().request_repaint();
        return CanvasDrawn::default();
    }
    let pointer = f.pointer.filter(|p| f.rect.contains(*p));
    let loads_key = (
        f.revisions.0,
        f.revisions.1,
        state.canvas.load_pattern.index(),
    );
    let scene = scene::of(ui, &painter, f, (state, report.is_some()), |p| {
        paint_scene(ui, p, f, (report, loads_key), state)
    });
    // The hovered device (emphasised already when selected) drawn again, emphasised, in its place in the scene.
    let hovered = overlays
        .hovered_device
        .filter(|id| !state.selection.devices.contains(id));
    let moved = scene.moved(f);
    let again = |p: &egui::Painter, id: DeviceId| {
        if let Some(cr) = f.layout.devices.get(&id) {
            paint_device(ui, p, f, (report, state), (id, *cr), 0.5);
        }
    };
    #[cfg(not(target_arch = "wasm32"))]
    let as_pixels =
        background.is_some_and(|bg| scene.as_pixels(&painter, moved, (hovered, &again), bg));
    #[cfg(target_arch = "wasm32")]
    let as_pixels = false;
    if !as_pixels {
        if let Some(bg) = background {
            painter.rect_filled(f.rect, 0.0, bg);
        }
        scene.replay(&painter, moved, hovered, again);
    }
    let parts = &scene.parts;
    // The scene's badges and bundles are where they were painted: the pointer is moved back to meet them.
    let pointer_then = pointer.map(|p| p - moved);
    let hovered_note = pointer_then.and_then(|p| {
        parts
            .badges
            .iter()
            .rev()
            .find(|(r, ..)| r.expand(2.0).contains(p))
            .map(|(_, whose, note)| (whose.clone(), note.clone()))
    });
    let hovered_bundle = pointer_then
        .filter(|_| overlays.hovered_device.is_none())
        .and_then(|p| parts.bundles.under(p));
    paint_overlays(&painter, f, overlays);
    let weak = ui.visuals().weak_text_color();
    if f.design.racks.is_empty() {
        painter.text(
            f.rect.center(),
            egui::Align2::CENTER_CENTER,
            "No racks yet: add one with the “+ 42U rack” button in the toolbar.",
            egui::FontId::proportional(16.0),
            weak,
        );
    }
    // Hover tooltip for a note badge, else for a bundle (off the devices), else for a device.
    let tooltips = state.canvas.drag == CanvasDrag::None
        && !state.canvas.no_tooltips
        && egui::DragAndDrop::payload::<PartDrag>(ui.ctx()).is_none();
    let resp = f.resp.clone();
    if tooltips && let Some((whose, note)) = hovered_note {
        resp.on_hover_ui_at_pointer(|ui| {
            ui.set_max_width(360.0);
            ui.strong(format!("Note on {whose}"));
            ui.label(note);
        });
    } else if tooltips && let Some(i) = hovered_bundle {
        resp.on_hover_ui_at_pointer(|ui| {
            bundles::bundle_tooltip_ui(
                ui,
                f.design,
                (&f.layout, &f.bundles),
                (report, loads_key),
                i,
            );
        });
    } else if tooltips
        && let Some((id, d)) = overlays
            .hovered_device
            .and_then(|id| f.design.devices.get(&id).map(|d| (id, d)))
    {
        let links = f.layout.links_of.get(&id).map_or(0, Vec::len);
        resp.on_hover_ui_at_pointer(|ui| device_tooltip_ui(ui, f.design, d, links));
    }
    painter.text(
        f.rect.right_bottom() - Vec2::splat(8.0),
        egui::Align2::RIGHT_BOTTOM,
        format!("{:.0}%", f.zoom * 100.0),
        egui::FontId::proportional(11.0),
        weak,
    );
    parts.drawn
}

/// What stays put while only the pointer, the hover or a menu changes: sites, racks, bundles, devices (the
/// selection's emphasised), links and note badges.
fn paint_scene(
    ui: &egui::Ui,
    painter: &egui::Painter,
    f: &Frame<'_>,
    (report, loads_key): (Option<&Report>, bundles::LoadsKey),
    state: &UiState,
) -> scene::Parts {
    paint_sites(ui, painter, f);
    paint_racks(ui, painter, f, report, &state.selection);
    // Zoomed out, a bundle per pair of racks (or rows) stands for their links, behind the devices like cable trays
    // so the faces stay readable; the selection's links are drawn one by one over everything.
    let bundled = bundles::bundled(f.zoom, f.design.links.len());
    let bundles = if bundled && !state.canvas.hide_links {
        let view = (&*f.layout, &*f.bundles, f.screen_from_canvas);
        bundles::paint_bundles(painter, view, (f.cull, f.visible()), (report, loads_key))
    } else {
        bundles::Drawn::default()
    };
    let devices = paint_devices(ui, painter, f, report, state);
    let links = paint_links(
        painter,
        f,
        report,
        &state.selection,
        &state.canvas,
        !bundled && !state.canvas.hide_links,
    );
    // Badges go over the links, which start at the devices' right ends.
    let badges = paint_note_badges(painter, f);
    scene::Parts {
        drawn: CanvasDrawn {
            links,
            bundles: bundles.len(),
        },
        bundles,
        devices,
        badges,
    }
}

/// Sites as floors: a frame around each site's racks with the site's name and region (designs with sites only).
fn paint_sites(ui: &egui::Ui, painter: &egui::Painter, f: &Frame<'_>) {
    if f.design.sites.is_empty() {
        return;
    }
    let t = f.screen_from_canvas;
    let weak = ui.visuals().weak_text_color();
    for (name, site) in &f.design.sites {
        let rect = f
            .layout
            .racks
            .iter()
            .filter(|g| f.design.racks.get(&g.id).is_some_and(|r| &r.site == name))
            .map(|g| g.rect)
            .reduce(|a, b| a.union(b));
        let Some(rect) = rect else {
            continue;
        };
        let frame = (t * rect).expand(14.0 * f.zoom.max(0.3));
        painter.rect_stroke(frame, 8.0, Stroke::new(1.5, weak), StrokeKind::Outside);
        painter.text(
            frame.left_top() + Vec2::new(6.0, -4.0),
            egui::Align2::LEFT_BOTTOM,
            if site.region.trim().is_empty() {
                format!("site {name} ({:.3}% up)", site.availability * 100.0)
            } else {
                format!(
                    "site {name} ({}, {:.3}% up)",
                    site.region,
                    site.availability * 100.0
                )
            },
            egui::FontId::proportional((13.0 * f.zoom).clamp(10.0, 22.0)),
            weak,
        );
    }
}

/// Rack frames, names, power against budget and unit numbers.
fn paint_racks(
    ui: &egui::Ui,
    painter: &egui::Painter,
    f: &Frame<'_>,
    report: Option<&Report>,
    selection: &crate::app::state::Selection,
) {
    let (zoom, t) = (f.zoom, f.screen_from_canvas);
    let visible = f.cull;
    let text_color = ui.visuals().text_color();
    let weak = ui.visuals().weak_text_color();
    let rack_power: HashMap<RackId, (f64, f64)> = report
        .map(|r| {
            r.power
                .racks
                .iter()
                .map(|rp| (rp.rack, (rp.power_w, rp.budget_w)))
                .collect()
        })
        .unwrap_or_default();
    // Labels stay readable when zoomed out (down to where they are hidden altogether).
    let font = |size: f32| egui::FontId::proportional((size * zoom).clamp(MIN_LABEL_PT, 40.0));
    for g in f.layout.racks.iter().filter(|g| g.rect.intersects(visible)) {
        let Some(rack) = f.design.racks.get(&g.id) else {
            continue;
        };
        let selected = selection.racks.contains(&g.id);
        painter.rect(
            t * g.rect,
            4.0 * zoom,
            ui.visuals().faint_bg_color,
            Stroke::new(
                if selected { 2.5 } else { 1.0 },
                if selected { SELECTION } else { weak },
            ),
            StrokeKind::Inside,
        );
        painter.rect_filled(t * g.mount, 0.0, ui.visuals().extreme_bg_color);
        let corner = t * pos2(g.rect.left() + 6.0, g.rect.top() + 4.0);
        // Within the rack's own width, so neighbours' labels never run into each other: shorter forms first
        // dropped the height, then the budget; a label with no form that fits is left out.
        let room = (t * g.rect).width() - 8.0 * zoom.min(1.0);
        if zoom > HEADER_ZOOM {
            let name = fitting(
                painter,
                [
                    format!("{}  {}U", rack.name, rack.height_u),
                    rack.name.clone(),
                ],
                &font(13.0),
                text_color,
                room,
            );
            let line = name.as_ref().map_or(0.0, |g| g.size().y);
            if let Some(galley) = name {
                painter.galley(corner, galley, text_color);
            }
            if let Some((p, b)) = rack_power.get(&g.id) {
                let frac = if *b > 0.0 { p / b } else { f64::INFINITY };
                let color = theme::use_fill_color(ui, frac);
                let texts = [
                    format!("{:.1} / {:.1} kW", p / 1000.0, b / 1000.0),
                    format!("{:.1} kW", p / 1000.0),
                ];
                if let Some(galley) = fitting(painter, texts, &font(11.0), color, room) {
                    painter.galley(corner + vec2(0.0, line.max(font(13.0).size)), galley, color);
                }
            }
        }
        // Every unit when a number fits each, every fifth when five units hold one.
        let step = if zoom * U_H >= MIN_LABEL_PT + 2.0 {
            1
        } else if zoom * U_H * 5.0 >= MIN_LABEL_PT * 2.0 {
            5
        } else {
            0
        };
        if step > 0 {
            for u in (1..=g.height_u).filter(|u| *u == 1 || u % step == 0) {
                let ur = g.unit_rect(u, 1);
                painter.text(
                    t * pos2(g.rect.left() + RAIL_W - 3.0, ur.center().y),
                    egui::Align2::RIGHT_CENTER,
                    u.to_string(),
                    egui::FontId::proportional((9.0 * zoom).clamp(MIN_LABEL_PT, 20.0)),
                    weak,
                );
            }
        }
    }
}

/// Devices as boxes in their category's colour, labelled with their name and GPU count (the selection's
/// emphasised). Returns where each device's shapes are in the painter's list, for the hovered one to be drawn again
/// over a reused scene.
fn paint_devices(
    ui: &egui::Ui,
    painter: &egui::Painter,
    f: &Frame<'_>,
    report: Option<&Report>,
    state: &UiState,
) -> HashMap<DeviceId, std::ops::Range<usize>> {
    let visible = f.cull;
    let next = || {
        painter.ctx().graphics(|g| {
            g.get(painter.layer_id())
                .map_or(0, |l: &egui::layers::PaintList| l.next_idx().0)
        })
    };
    let mut ranges = HashMap::default();
    // Devices too short on screen for a label of their own, by rack: runs of them are labelled together.
    let mut unlabelled: Vec<(RackId, crate::catalog::Category, Rect)> = Vec::new();
    for (id, cr) in f
        .layout
        .devices
        .iter()
        .filter(|(_, r)| r.intersects(visible))
    {
        let emphasis = if state.selection.devices.contains(id) {
            1.0
        } else {
            0.0
        };
        let from = next();
        if let Some(short) = paint_device(ui, painter, f, (report, state), (*id, *cr), emphasis) {
            unlabelled.push(short);
        }
        ranges.insert(*id, from..next());
    }
    paint_runs(painter, ui.visuals().dark_mode, unlabelled);
    ranges
}

/// One device, its fill emphasised by `emphasis` (1 selected, 0.5 hovered); returns its rack, category and screen
/// rect when it is too short for a label of its own (runs of those are labelled together).
fn paint_device(
    ui: &egui::Ui,
    painter: &egui::Painter,
    f: &Frame<'_>,
    (report, state): (Option<&Report>, &UiState),
    (id, cr): (DeviceId, Rect),
    emphasis: f32,
) -> Option<(RackId, crate::catalog::Category, Rect)> {
    let d = f.design.devices.get(&id)?;
    let cat = f
        .design
        .parts
        .get(&d.part)
        .map_or(crate::catalog::Category::Accessory, |p| p.kind.category());
    let selected = state.selection.devices.contains(&id);
    let fill = crate::app::widgets::category_fill_with(cat, ui.visuals().dark_mode, emphasis);
    let r = (f.screen_from_canvas * cr).shrink(0.5);
    painter.rect(
        r,
        2.0 * f.zoom,
        fill,
        Stroke::new(
            if selected { 2.0 } else { 0.5 },
            if selected {
                SELECTION
            } else {
                Color32::from_black_alpha(120)
            },
        ),
        StrokeKind::Inside,
    );
    let label_color = theme::text_on(fill);
    // The name at least `MIN_LABEL_PT` tall (larger when zoomed in), with the GPU count when it fits too.
    let size = (r.height() - 3.0)
        .min((12.0 * f.zoom).max(MIN_LABEL_PT))
        .min(16.0);
    if size < MIN_LABEL_PT {
        return Some((d.rack, cat, r));
    }
    let mut texts = vec![d.name.clone()];
    if !d.gpus.is_empty() {
        texts.insert(0, format!("{}  {}×GPU", d.name, d.gpus.len()));
    }
    let font = egui::FontId::proportional(size);
    let galley = fitting(painter, texts, &font, label_color, r.width() - 6.0)?;
    // With room for a second line, the name goes to the top and the panel cues below it.
    let tall = r.height() >= 3.0 + galley.size().y + 2.0 + cue_size(f.zoom) + 4.0;
    let y = if tall {
        r.top() + 3.0
    } else {
        r.center().y - galley.size().y / 2.0
    };
    painter
        .with_clip_rect(r)
        .galley(pos2(r.left() + 4.0, y), galley, label_color);
    if tall {
        // Its cabled ports, from the links at it (the layout's index; a lookup per port would scan every link).
        let ports: Vec<&str> = f
            .layout
            .links_of
            .get(&id)
            .into_iter()
            .flatten()
            .filter_map(|lid| f.design.links.get(lid))
            .flat_map(|l| [&l.a, &l.b])
            .filter(|end| end.device == id)
            .map(|end| end.port.as_str())
            .collect();
        panel_cues(
            painter,
            f,
            report,
            &state.canvas,
            (id, d),
            &ports,
            r,
            label_color,
        );
    }
    None
}

/// Labels runs of adjacent devices of one category that are each too short for a label ("16 switches"), so a
/// stack of 1U switches is named at zoom levels where none of them can be.
fn paint_runs(
    painter: &egui::Painter,
    dark: bool,
    mut unlabelled: Vec<(RackId, crate::catalog::Category, Rect)>,
) {
    use crate::catalog::Category;
    unlabelled.sort_by(|a, b| a.0.cmp(&b.0).then(a.2.top().total_cmp(&b.2.top())));
    let mut runs: Vec<(Category, Rect, usize)> = Vec::new();
    let mut last_rack = None;
    for (rack, cat, r) in unlabelled {
        match runs.last_mut() {
            // Devices of a run may stand a unit or two apart (switches with a spacer between them).
            Some((c, run, n))
                if last_rack == Some(rack)
                    && *c == cat
                    && r.top() <= run.bottom() + 2.0 * r.height() + 2.0 =>
            {
                *run = run.union(r);
                *n += 1;
            }
            _ => runs.push((cat, r, 1)),
        }
        last_rack = Some(rack);
    }
    for (cat, run, n) in runs {
        if n < 2 || run.height() < MIN_LABEL_PT + 3.0 {
            continue;
        }
        let (one, many) = match cat {
            Category::Server => ("server", "servers"),
            Category::Switch => ("switch", "switches"),
            Category::Storage => ("storage server", "storage servers"),
            Category::Accessory => ("panel", "panels"),
            _ => ("device", "devices"),
        };
        let fill = crate::app::widgets::category_fill_with(cat, dark, 0.0);
        let color = theme::text_on(fill);
        let texts = [
            crate::analysis::format::count(n, one, many),
            many.to_string(),
        ];
        let font = egui::FontId::proportional(MIN_LABEL_PT);
        if let Some(galley) = fitting(painter, texts, &font, color, run.width() - 6.0) {
            // On a plate of the devices' fill, so the words read the same over the devices and the gaps.
            let at = pos2(run.left() + 3.0, run.center().y - galley.size().y / 2.0);
            let plate = Rect::from_min_size(at, galley.size()).expand2(vec2(2.0, 1.0));
            let clip = painter.with_clip_rect(run);
            clip.rect(
                plate,
                2.0,
                fill,
                Stroke::new(0.5, color),
                StrokeKind::Inside,
            );
            clip.galley(at, galley, color);
        }
    }
}

/// What an architect reads off a device's panel: on the front its GPUs, ports and power; on the rear every port
/// as a pip, filled when cabled, so it shows where cables land.
#[allow(clippy::too_many_arguments)]
fn panel_cues(
    painter: &egui::Painter,
    f: &Frame<'_>,
    report: Option<&Report>,
    canvas: &crate::app::state::CanvasState,
    (id, d): (DeviceId, &Device),
    cabled_ports: &[&str],
    r: Rect,
    color: Color32,
) {
    let ports = f.design.ports(id);
    let is_cabled = |name: &str| cabled_ports.contains(&name);
    let cabled = ports.iter().filter(|p| is_cabled(&p.name)).count();
    let clip = painter.with_clip_rect(r);
    let font = egui::FontId::proportional(cue_size(f.zoom));
    let line2 = pos2(r.left() + 4.0, r.top() + 3.0 + font.size + 5.0);
    let room = r.width() - 6.0;
    match canvas.rack_face {
        RackFace::Front => {
            let fastest = ports.iter().map(|p| p.max_gbps).fold(0.0, f64::max);
            // The report's figure (with half its links' optics), as the exports print it; the parts' own sum
            // only until the first report.
            let w = report
                .and_then(|r| {
                    let all = &r.power.devices;
                    all.binary_search_by_key(&id, |p| p.device)
                        .ok()
                        .and_then(|i| all.get(i))
                        .map(|p| p.power_w)
                })
                .unwrap_or_else(|| device_power_weight(f.design, d).0);
            let power = format!("{:.1}kW", w / 1000.0);
            let mut texts = vec![power.clone()];
            if !ports.is_empty() {
                texts.insert(0, format!("{}×{fastest:.0}G · {power}", ports.len()));
            }
            if let Some(galley) = fitting(painter, texts, &font, color, room) {
                clip.galley(line2, galley, color);
            }
        }
        RackFace::Rear => {
            let texts = [
                format!("{cabled}/{} cabled", ports.len()),
                format!("{cabled}/{}", ports.len()),
            ];
            if let Some(galley) = fitting(painter, texts, &font, color, room) {
                clip.galley(line2, galley, color);
            }
            for (i, p) in ports.iter().enumerate() {
                let Some(pr) = rear_pip(r, f.zoom, i) else {
                    break;
                };
                if is_cabled(&p.name) {
                    clip.rect_filled(pr, 1.0, theme::status_color(Status::Good, true));
                } else {
                    clip.rect_stroke(pr, 1.0, Stroke::new(1.0, color), StrokeKind::Inside);
                }
            }
        }
    }
}

/// Where port `index` of a device drawn at `r` (screen) shows on the rear face: pips in rows under the two text
/// lines, or None when it falls below the device. The rear view draws ports and lands cables here.
fn rear_pip(r: Rect, zoom: f32, index: usize) -> Option<Rect> {
    let font = cue_size(zoom);
    let pip = (4.0 * zoom).clamp(3.0, 7.0);
    let top = r.top() + 3.0 + font + 5.0 + font + 4.0;
    let per_row = (((r.width() - 8.0) / (pip + 2.0)).floor() as usize).max(1);
    let (row, col) = (index / per_row, index % per_row);
    let at = pos2(
        r.left() + 4.0 + col as f32 * (pip + 2.0),
        top + row as f32 * (pip + 2.0),
    );
    (at.y + pip <= r.bottom() - 2.0).then(|| Rect::from_min_size(at, Vec2::splat(pip)))
}

/// Links one by one, coloured by their load under the toolbar's pattern, the hottest drawn thicker: every link
/// whose box is in view when `draw_all`, and the selection's links always (over the others). Returns how many
/// were drawn.
fn paint_links(
    painter: &egui::Painter,
    f: &Frame<'_>,
    report: Option<&Report>,
    sel: &crate::app::state::Selection,
    canvas: &CanvasState,
    draw_all: bool,
) -> usize {
    let mut selected: BTreeSet<LinkId> = sel.links.iter().copied().collect();
    for d in &sel.devices {
        selected.extend(f.layout.links_of.get(d).into_iter().flatten());
    }
    if !draw_all && selected.is_empty() {
        return 0;
    }
    let mut ink = LinkInk::new(f, report, canvas);
    let mut drawn = 0;
    if draw_all {
        // Those in the margin are drawn for the view to be panned without painting again, and not counted.
        let visible = f.visible();
        for g in &f.layout.links {
            if g.bounds.intersects(f.cull) && !selected.contains(&g.id) {
                let shown = ink.link(painter, g.id, false);
                drawn += usize::from(shown && g.bounds.intersects(visible));
            }
        }
    }
    for lid in selected {
        drawn += usize::from(ink.link(painter, lid, true));
    }
    drawn
}

/// How links are drawn in a frame: the loads of the chosen pattern and, on the rear face, each device's port
/// order (looked up once per device per frame) so cables land on their ports' pips.
struct LinkInk<'f, 'a> {
    f: &'f Frame<'a>,
    routing: Option<&'f crate::analysis::routing::RoutingReport>,
    pattern: usize,
    hottest: Option<LinkId>,
    rear: bool,
    port_order: HashMap<DeviceId, HashMap<String, usize>>,
}

impl<'f, 'a> LinkInk<'f, 'a> {
    fn new(f: &'f Frame<'a>, report: Option<&'f Report>, canvas: &CanvasState) -> Self {
        let routing = report.map(|r| &r.bandwidth.routing);
        let pattern = canvas.load_pattern.index();
        Self {
            f,
            routing,
            pattern,
            hottest: routing
                .and_then(|r| r.patterns.get(pattern))
                .and_then(|p| p.hottest_link),
            rear: canvas.rack_face == RackFace::Rear,
            port_order: HashMap::default(),
        }
    }

    /// A link's load against its capacity under the pattern (the report's links are sorted by id).
    fn utilisation(&self, lid: LinkId) -> Option<f64> {
        let links = &self.routing?.links;
        let i = links.binary_search_by_key(&lid, |l| l.link).ok()?;
        let l = links.get(i)?;
        Some(l.loads_gbps.get(self.pattern).copied().unwrap_or(0.0) / l.capacity_gbps.max(1e-12))
    }

    /// Where a port's pip is on the rear face of a device drawn at `r` (canvas space).
    fn pip(&mut self, d: DeviceId, port: &str, r: Rect) -> Option<Pos2> {
        let design = self.f.design;
        let order = self.port_order.entry(d).or_insert_with(|| {
            design
                .ports(d)
                .into_iter()
                .enumerate()
                .map(|(i, p)| (p.name, i))
                .collect()
        });
        let i = *order.get(port)?;
        rear_pip(self.f.screen_from_canvas * r, self.f.zoom, i).map(|p| p.center())
    }

    /// Draws one link (in the selection colour when `selected`); false when it is not between two placed devices.
    fn link(&mut self, painter: &egui::Painter, lid: LinkId, selected: bool) -> bool {
        let Some((cable, width)) = self.cable(lid) else {
            return false;
        };
        let stroke = if selected {
            Stroke::new(width + 0.6, SELECTION)
        } else {
            Stroke::new(width, theme::load_color(self.utilisation(lid), 1.0))
        };
        match cable {
            Cable::Line(points) => {
                painter.line_segment(points, stroke);
            }
            Cable::Curve(points) => {
                painter.add(egui::epaint::CubicBezierShape::from_points_stroke(
                    points,
                    false,
                    Color32::TRANSPARENT,
                    stroke,
                ));
            }
        }
        true
    }

    /// Where a link is drawn, screen space, and its stroke width: the one geometry the painter draws and a click
    /// picks (`link_at`). None when it is not between two placed devices.
    fn cable(&mut self, lid: LinkId) -> Option<(Cable, f32)> {
        let (f, t, zoom) = (self.f, self.f.screen_from_canvas, self.f.zoom);
        let link = f.design.links.get(&lid)?;
        let ra = f.layout.devices.get(&link.a.device).copied()?;
        let rb = f.layout.devices.get(&link.b.device).copied()?;
        let mut width =
            ((link.medium.gbps() / 400.0).sqrt() as f32 * 1.6 * zoom.sqrt()).clamp(0.4, 4.0);
        if self.hottest == Some(lid) {
            width += 2.0;
        }
        let (ca, cb) = (ra.center(), rb.center());
        let same_rack = (ca.x - cb.x).abs() < 1.0;
        let pips = if self.rear {
            self.pip(link.a.device, &link.a.port, ra)
                .zip(self.pip(link.b.device, &link.b.port, rb))
        } else {
            None
        };
        // Within a rack, a curve out past the right edge so it does not run over the faces.
        let curve = |a: Pos2, b: Pos2, x: f32| Cable::Curve([a, pos2(x, a.y), pos2(x, b.y), b]);
        let cable = if let Some((a, b)) = pips {
            // Port to port.
            if same_rack {
                let x = (t * pos2(ra.right(), ca.y)).x + 18.0 + (a.y - b.y).abs() * 0.15;
                curve(a, b, x)
            } else {
                Cable::Line([a, b])
            }
        } else if same_rack {
            let a = t * pos2(ra.right(), ca.y);
            let b = t * pos2(rb.right(), cb.y);
            curve(a, b, a.x + 18.0 + (a.y - b.y).abs() * 0.15)
        } else {
            let (ax, bx) = if ca.x < cb.x {
                (ra.right(), rb.left())
            } else {
                (ra.left(), rb.right())
            };
            Cable::Line([t * pos2(ax, ca.y), t * pos2(bx, cb.y)])
        };
        Some((cable, width))
    }
}

/// A link's cable as drawn, screen space: a straight run, or a cubic curve out past its rack's side.
enum Cable {
    Line([Pos2; 2]),
    Curve([Pos2; 4]),
}

impl Cable {
    /// The distance from `p` to the drawn cable, points (a curve measured along 24 straight pieces of it).
    fn distance(&self, p: Pos2) -> f32 {
        let segment = |a: Pos2, b: Pos2| {
            let ab = b - a;
            let len2 = ab.length_sq();
            let s = if len2 > 0.0 {
                ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            (a + ab * s).distance(p)
        };
        match self {
            Cable::Line([a, b]) => segment(*a, *b),
            Cable::Curve([p0, p1, p2, p3]) => {
                let at = |s: f32| {
                    let u = 1.0 - s;
                    (p0.to_vec2() * (u * u * u)
                        + p1.to_vec2() * (3.0 * u * u * s)
                        + p2.to_vec2() * (3.0 * u * s * s)
                        + p3.to_vec2() * (s * s * s))
                        .to_pos2()
                };
                (0..24)
                    .map(|i| segment(at(i as f32 / 24.0), at((i + 1) as f32 / 24.0)))
                    .fold(f32::INFINITY, f32::min)
            }
        }
    }
}

/// How near a click must be to a drawn cable to pick it, points beyond half its stroke.
const PICK_TOLERANCE: f32 = 4.0;

/// The link whose drawn cable passes nearest to `p` (screen space), within a few points: among the links drawn
/// one by one (all in view when they are not bundled, the selection's always). None over a bundle or nothing.
pub(super) fn link_at(
    f: &Frame<'_>,
    canvas: &CanvasState,
    selection: &crate::app::state::Selection,
    p: Pos2,
) -> Option<LinkId> {
    if canvas.hide_links {
        return None;
    }
    let mut candidates: BTreeSet<LinkId> = selection.links.iter().copied().collect();
    for d in &selection.devices {
        candidates.extend(f.layout.links_of.get(d).into_iter().flatten());
    }
    if !bundles::bundled(f.zoom, f.design.links.len()) {
        let near = f.canvas_from_screen * p;
        let reach = (PICK_TOLERANCE + 20.0) / f.zoom.max(1e-3);
        candidates.extend(
            f.layout
                .links
                .iter()
                .filter(|g| g.bounds.expand(reach).contains(near))
                .map(|g| g.id),
        );
    }
    let mut ink = LinkInk::new(f, None, canvas);
    candidates
        .into_iter()
        .filter_map(|lid| {
            let (cable, width) = ink.cable(lid)?;
            let d = cable.distance(p);
            (d <= width / 2.0 + PICK_TOLERANCE).then_some((d, lid))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, lid)| lid)
}

/// The selection band, the device under a dragged port and the ghost of a drag.
fn paint_overlays(painter: &egui::Painter, f: &Frame<'_>, overlays: &Overlays) {
    if let Some(band) = overlays.band {
        painter.rect(
            band,
            0.0,
            Color32::from_rgba_unmultiplied(100, 150, 255, 30),
            Stroke::new(1.0, Color32::from_rgb(100, 150, 255)),
            StrokeKind::Inside,
        );
    }
    // Outlines in the dark theme's status colours: they sit on the canvas in both themes, with their own dark
    // label box.
    let good = theme::status_color(Status::Good, true);
    let short = theme::status_color(Status::Short, true);
    let bad = theme::status_color(Status::Bad, true);
    if let Some(p) = &overlays.port_target {
        let (c, msg) = match &p.verdict {
            Ok(ports) => (
                good,
                format!(
                    "{}: release to cable to {} ({}; change it in the inspector)",
                    p.name,
                    ports.first().map_or("", String::as_str),
                    crate::analysis::format::count(
                        ports.len(),
                        "compatible free port",
                        "compatible free ports"
                    )
                ),
            ),
            Err(why) => (bad, format!("{}: {why}", p.name)),
        };
        outlined_with_tip(painter, f.screen_from_canvas * p.rect_in_canvas, c, msg);
    }
    if let Some(g) = &overlays.ghost {
        let (c, msg) = match &g.verdict {
            Ok(None) => (good, format!("{} — fits", g.label)),
            Ok(Some(w)) => (short, format!("{} — fits, but {w}", g.label)),
            Err(why) => (bad, format!("{} — {why}", g.label)),
        };
        outlined_with_tip(painter, f.screen_from_canvas * g.rect_in_canvas, c, msg);
    }
}

/// The hover text of a device; `links` is how many links it has.
fn device_tooltip_ui(ui: &mut egui::Ui, design: &Design, d: &Device, links: usize) {
    let part = design.parts.get(&d.part);
    ui.strong(&d.name);
    ui.label(part.map_or_else(|| d.part.to_string(), |p| p.name.clone()));
    if let Some(units) = design.device_units(d) {
        ui.label(format!("U{}-U{}", units.start(), units.end()));
    }
    let (w, kg) = device_power_weight(design, d);
    ui.label(format!("{w:.0} W, {kg:.0} kg"));
    if !d.gpus.is_empty() {
        ui.label(format!("{} GPUs, {} NICs", d.gpus.len(), d.nics.len()));
    }
    ui.label(format!("{links} links"));
    if !d.notes.is_empty() {
        ui.separator();
        ui.label(format!("Note: {}", d.notes));
    }
}

/// Side of a note badge on screen, points.
const BADGE: f32 = 13.0;

/// Marks racks and devices that carry a review note with a small badge (top right of the rack's header, right end
/// of the device). Returns each badge's rect with whose note it is and the note, for the hover text.
fn paint_note_badges(painter: &egui::Painter, f: &Frame<'_>) -> Vec<scene::Badge> {
    let (layout, design, screen_from_canvas): (_, &Design, TSTransform) =
        (&f.layout, f.design, f.screen_from_canvas);
    let visible = f.cull;
    let mut badges = Vec::new();
    let mut badge = |corner: Pos2, whose: &str, note: &str| {
        let r = Rect::from_min_size(corner - vec2(BADGE + 3.0, -3.0), Vec2::splat(BADGE));
        painter.rect(
            r,
            2.0,
            Color32::from_rgb(250, 215, 90),
            Stroke::new(1.0, Color32::from_black_alpha(160)),
            StrokeKind::Inside,
        );
        painter.text(
            r.center(),
            egui::Align2::CENTER_CENTER,
            "N",
            egui::FontId::proportional(BADGE - 3.0),
            Color32::BLACK,
        );
        badges.push((r, whose.to_string(), note.to_string()));
    };
    for g in &layout.racks {
        if let Some(rack) = design.racks.get(&g.id)
            && !rack.notes.is_empty()
            && g.rect.intersects(visible)
        {
            badge(
                screen_from_canvas * g.rect.right_top(),
                &format!("rack {}", rack.name),
                &rack.notes,
            );
        }
    }
    for (id, cr) in &layout.devices {
        if let Some(d) = design.devices.get(id)
            && !d.notes.is_empty()
            && cr.intersects(visible)
        {
            let r = screen_from_canvas * *cr;
            // Centred vertically on the device, whatever its height on screen.
            let corner = pos2(r.right(), r.center().y - BADGE / 2.0 - 3.0);
            badge(corner, &d.name, &d.notes);
        }
    }
    badges
}

/// Outlines a rect in a verdict colour with a note beside it (drop targets and ghosts).
pub(super) fn outlined_with_tip(painter: &egui::Painter, r: Rect, c: Color32, msg: String) {
    painter.rect(
        r,
        2.0,
        c.gamma_multiply(0.35),
        Stroke::new(2.0, c),
        StrokeKind::Inside,
    );
    let galley = painter.layout(msg, egui::FontId::proportional(13.0), Color32::WHITE, 320.0);
    let tip = Rect::from_min_size(
        r.right_top() + vec2(8.0, 0.0),
        galley.size() + vec2(8.0, 6.0),
    );
    painter.rect_filled(tip, 3.0, Color32::from_black_alpha(210));
    painter.galley(tip.min + vec2(4.0, 3.0), galley, Color32::WHITE);
}
