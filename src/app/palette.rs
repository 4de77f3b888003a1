//! The parts palette: the catalog by category, searchable, each part with its key figures and a tooltip naming
//! the sources of its figures. Rack-mounted parts drag onto the canvas.

use super::state::PartDrag;
use super::widgets::category_color;
use crate::analysis::format::usd;
use crate::analysis::text::key_figures;
use crate::catalog::{Catalog, Category, Part};
use crate::model::PartId;

/// The palette's line of figures for a part. A server chassis whose GPUs are priced as parts of their own says
/// so ("$26,400 + GPUs"), and what it draws and costs placed, with the GPUs and NICs it comes with ("placed: 10.2 kW,
/// $270,000 with 8 × NVIDIA H100 SXM", its NICs counted too), so a DGX does not look cheaper or cooler than it is.
fn figures_line(catalog: &Catalog, part: &Part) -> String {
    let figures = key_figures(&part.kind, part.power_w, part.price_usd);
    let crate::catalog::PartKind::Server(s) = &part.kind else {
        return figures;
    };
    if s.gpu_slots.is_empty() {
        return figures;
    }
    let price = usd(part.price_usd);
    let Some(head) = figures.strip_suffix(price.as_str()) else {
        return figures;
    };
    let with_gpus = s
        .default_gpu
        .as_ref()
        .and_then(|g| catalog.get(g.as_str()))
        .map(|g| {
            // What placing it puts in its slots (`edit::device_edit`): the default GPU in every GPU slot and the
            // default NIC of each slot's role.
            let nics: Vec<&Part> = s
                .nic_slots
                .iter()
                .filter_map(|slot| s.default_nics.get(&slot.role))
                .filter_map(|n| catalog.get(n.as_str()))
                .collect();
            let n = s.gpu_slots.len() as f64;
            let watts = part.power_w + g.power_w * n + nics.iter().map(|p| p.power_w).sum::<f64>();
            let total =
                part.price_usd + g.price_usd * n + nics.iter().map(|p| p.price_usd).sum::<f64>();
            format!(
                " (placed: {:.1} kW, {} with {} × {})",
                watts / 1000.0,
                usd(total),
                s.gpu_slots.len(),
                g.name,
            )
        })
        .unwrap_or_default();
    format!("{head}{price} + GPUs{with_gpus}")
}

/// Draws the palette.
pub fn palette_ui(ui: &mut egui::Ui, catalog: &Catalog, search: &mut String) {
    ui.add_space(4.0);
    ui.heading("Parts");
    ui.horizontal(|ui| {
        let label = ui.label("Search");
        ui.add(
            egui::TextEdit::singleline(search)
                .hint_text("name, vendor, id")
                .desired_width(f32::INFINITY),
        )
        .labelled_by(label.id);
    });
    ui.label(
        egui::RichText::new("Drag servers, switches and storage into a rack.")
            .small()
            .weak(),
    );
    ui.separator();
    let needle = search.trim().to_lowercase();
    egui::ScrollArea::vertical()
        .id_salt("palette_scroll")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            // A press on a part starts a drag: its text must not be selectable, or the press selects text instead.
            ui.style_mut().interaction.selectable_labels = false;
            for cat in Category::ALL {
                let parts: Vec<(&PartId, &Part)> = catalog
                    .in_category(cat)
                    .filter(|(id, p)| {
                        needle.is_empty()
                            || id.as_str().to_lowercase().contains(&needle)
                            || p.name.to_lowercase().contains(&needle)
                            || p.vendor.to_lowercase().contains(&needle)
                    })
                    .collect();
                if parts.is_empty() {
                    continue;
                }
                let header = egui::CollapsingHeader::new(
                    egui::RichText::new(format!("{} ({})", cat.label(), parts.len()))
                        .color(super::theme::readable(
                            category_color(cat),
                            ui.visuals().panel_fill,
                        ))
                        .strong(),
                )
                .id_salt(("palette_cat", cat))
                .default_open(matches!(
                    cat,
                    Category::Server | Category::Switch | Category::Storage
                ));
                let header = if needle.is_empty() {
                    header
                } else {
                    header.open(Some(true))
                };
                header.show(ui, |ui| {
                    for (id, part) in parts {
                        part_ui(ui, id, part, &figures_line(catalog, part));
                    }
                });
            }
        });
}

fn part_ui(ui: &mut egui::Ui, id: &PartId, part: &Part, figures: &str) {
    let mounted = part.kind.is_rack_mounted();
    // GPUs and NICs drag into the slots of the server window.
    let slotted = matches!(
        part.kind,
        crate::catalog::PartKind::Gpu(_) | crate::catalog::PartKind::Nic(_)
    );
    let body = |ui: &mut egui::Ui| {
        egui::Frame::group(ui.style())
            .inner_margin(egui::Margin::symmetric(6, 3))
            .show(ui, |ui| {
                ui.set_width(ui.available_width());
                ui.horizontal(|ui| {
                    let (r, _) =
                        ui.allocate_exact_size(egui::vec2(8.0, 14.0), egui::Sense::hover());
                    ui.painter()
                        .rect_filled(r, 2.0, category_color(part.kind.category()));
                    let u = if part.height_u > 0 {
                        format!(" · {}U", part.height_u)
                    } else {
                        String::new()
                    };
                    ui.add(
                        egui::Label::new(egui::RichText::new(format!("{}{u}", part.name)).strong())
                            .truncate(),
                    );
                });
                ui.add(egui::Label::new(egui::RichText::new(figures).small()).wrap());
            })
            .response
    };
    let resp = if mounted || slotted {
        ui.dnd_drag_source(
            egui::Id::unique(("palette_part", id.as_str())),
            PartDrag(id.clone()),
            body,
        )
        .response
    } else {
        body(ui)
    };
    resp.on_hover_ui(|ui| {
        ui.set_max_width(420.0);
        ui.strong(format!("{} ({})", part.name, id));
        ui.label(format!("Vendor: {}", part.vendor));
        ui.label(figures);
        if part.sources.is_empty() {
            ui.label("No sources recorded.");
        } else {
            ui.separator();
            ui.label("Sources of the figures:");
            for (field, src) in &part.sources {
                ui.label(format!("• {field}: {src}"));
            }
        }
        let unsourced = crate::catalog::figures::unsourced(part);
        if !unsourced.is_empty() {
            ui.label(format!("Estimates (no source): {}", unsourced.join(", ")));
        }
        if mounted {
            ui.separator();
            ui.label("Drag into a rack to add it.");
        } else if slotted {
            ui.separator();
            ui.label("Drag onto a slot of an open server (double-click a server) to install it.");
        }
    });
}
