//! The Sites window (Edit > Sites…): the design's sites (data halls, regions) with their availability, cooling
//! plant, PUE and prices, the availability the service must meet, and what the analysis says of each site. Each
//! change is one `Edit::SetSite` (or `Edit::SetParams` for the target), so it undoes in one step.

use crate::analysis::Report;
use crate::analysis::rates::Rates;
use crate::app::commands::{AppCommand, DocCommand, Show, UiCommand};
use crate::app::widgets::num_field;
use crate::app::window::{AppWindow, WindowContext, egui_id};
use crate::edit::Edit;
use crate::model::{Cooling, Design, Site, SiteCooling};
use std::collections::HashMap;

/// Edit > Sites…: open or not, and what is being typed into it.
#[derive(Default)]
pub struct SitesWindow {
    open: bool,
    typing: Typing,
}

/// Text being typed in the Sites window, committed as one edit when a field loses focus.
#[derive(Default)]
struct Typing {
    /// Number fields being edited, by field key.
    field_buffers: HashMap<String, String>,
    /// The name typed for a new site.
    new_site_name: String,
}

impl SitesWindow {
    const ID: &'static str = "sites";
    const TITLE: &'static str = "Sites";

    /// The name typed for a new site, not yet added.
    pub fn new_site_name(&self) -> &str {
        &self.typing.new_site_name
    }
}

impl AppWindow for SitesWindow {
    fn id(&self) -> &'static str {
        Self::ID
    }

    fn title(&self) -> &'static str {
        Self::TITLE
    }

    fn is_open(&self) -> bool {
        self.open
    }

    fn open(&mut self, show: &Show, _ctx: &WindowContext) -> bool {
        let mine = *show == Show::Sites;
        self.open |= mine;
        mine
    }

    fn is_showing(&self, show: &Show) -> bool {
        *show == Show::Sites && self.open
    }

    fn close(&mut self) {
        self.open = false;
    }

    fn ui(&mut self, egui_ctx: &egui::Context, ctx: &WindowContext, cmds: &mut Vec<AppCommand>) {
        if !self.open {
            return;
        }
        let mut open = true;
        let window = egui::Window::new(Self::TITLE)
            .id(egui_id(Self::ID))
            .open(&mut open)
            .default_width(420.0);
        // A refusal goes on the status line before the window's edits, as when it was written there at once.
        let first = cmds.len();
        let mut refusal = None;
        let report = ctx.report.map(|r| &**r);
        crate::app::widgets::placed(
            window,
            ctx.central_rect,
            crate::app::widgets::WindowSpot::TopRight,
        )
        .show(egui_ctx, |ui| {
            egui::ScrollArea::vertical()
                .max_height(600.0)
                .show(ui, |ui| {
                    sites_ui(ui, ctx.design, report, &mut self.typing, &mut refusal, cmds)
                });
        });
        if let Some(e) = refusal {
            cmds.insert(first, UiCommand::Refuse(e).into());
        }
        if !open {
            self.open = false;
        }
    }
}

/// The site list, the new-site row and the availability target.
fn sites_ui(
    ui: &mut egui::Ui,
    design: &Design,
    report: Option<&Report>,
    editing: &mut Typing,
    refusal: &mut Option<String>,
    cmds: &mut Vec<AppCommand>,
) {
    if design.sites.is_empty() {
        ui.label(
            "One site: every rack stands in the same hall. Add sites to spread racks over halls or regions; \
             the analysis then gives each site's facility figures, the service's availability and what is left \
             when a site is lost.",
        );
    }
    ui.horizontal(|ui| {
        let label = ui.label("New site");
        ui.add(egui::TextEdit::singleline(&mut editing.new_site_name).desired_width(140.0))
            .labelled_by(label.id)
            .on_hover_text("The site's name, e.g. east or eu-west-1a");
        let name = editing.new_site_name.trim().to_string();
        let taken = design.sites.contains_key(&name);
        if ui
            .add_enabled(!name.is_empty() && !taken, egui::Button::new("Add site"))
            .on_hover_text("A site with the default availability (99.95%) and the design's prices")
            .clicked()
        {
            cmds.push(
                DocCommand::Edit(
                    format!("Add site {name}"),
                    Edit::SetSite(name, Some(Box::default())),
                )
                .into(),
            );
            editing.new_site_name.clear();
        }
    });
    ui.separator();
    let mut err = None;
    for (name, site) in &design.sites {
        egui::CollapsingHeader::new(format!("{name} ({})", site.region))
            .id_salt(("site", name))
            .default_open(true)
            .show(ui, |ui| {
                site_fields_ui(ui, design, name, site, editing, &mut err, cmds);
                site_figures_ui(ui, name, report);
            });
    }
    ui.separator();
    target_ui(ui, design, editing, &mut err, cmds);
    if let Some(e) = err {
        *refusal = Some(e);
    }
}

/// One site's editable fields.
/// One site's rows as they are drawn: the design, the site, and the edit a changed field makes (one undo step).
struct SiteRows<'a> {
    design: &'a Design,
    name: &'a str,
    site: &'a Site,
    changed: Option<(String, Site)>,
}

impl SiteRows<'_> {
    /// The site with one change, labelled for the Edit menu.
    fn set(&mut self, label: &str, f: impl FnOnce(&mut Site)) {
        let mut s = self.site.clone();
        f(&mut s);
        self.changed = Some((format!("Site {}: {label}", self.name), s));
    }

    /// The key of one of this site's fields (its text while typed).
    fn key(&self, k: &str) -> String {
        format!("site_{}_{k}", self.name)
    }
}

fn site_fields_ui(
    ui: &mut egui::Ui,
    design: &Design,
    name: &str,
    site: &Site,
    editing: &mut Typing,
    err: &mut Option<String>,
    cmds: &mut Vec<AppCommand>,
) {
    let mut rows = SiteRows {
        design,
        name,
        site,
        changed: None,
    };
    let b = &mut editing.field_buffers;
    egui::Grid::new(("site_grid", name))
        .num_columns(2)
        .show(ui, |ui| {
            basics_ui(ui, &mut rows, b, err);
            prices_ui(ui, &mut rows, b, err);
            distances_ui(ui, &mut rows, b, err);
        });
    let racks = design.racks.values().filter(|r| r.site == name).count();
    if ui
        .add_enabled(racks == 0, egui::Button::new("Remove site"))
        .on_disabled_hover_text(format!(
            "{} {} here: move {} first",
            crate::analysis::format::count(racks, "rack", "racks"),
            if racks == 1 { "stands" } else { "stand" },
            if racks == 1 { "it" } else { "them" }
        ))
        .clicked()
    {
        cmds.push(
            DocCommand::Edit(
                format!("Remove site {name}"),
                Edit::SetSite(name.to_string(), None),
            )
            .into(),
        );
    }
    if let Some((label, s)) = rows.changed {
        cmds.push(
            DocCommand::Edit(label, Edit::SetSite(name.to_string(), Some(Box::new(s)))).into(),
        );
    }
}

/// The region, the availability and the cooling plant.
fn basics_ui(
    ui: &mut egui::Ui,
    rows: &mut SiteRows<'_>,
    b: &mut HashMap<String, String>,
    err: &mut Option<String>,
) {
    let label = ui.label("Region");
    let mut region = rows.site.region.clone();
    let r = ui
        .add(egui::TextEdit::singleline(&mut region).desired_width(110.0))
        .labelled_by(label.id);
    ui.end_row();
    if r.changed() {
        rows.set("region", |s| s.region.clone_from(&region));
    }
    if let Some(v) = num_field(
        ui,
        b,
        &rows.key("avail"),
        "Availability (%)",
        rows.site.availability * 100.0,
        1e-6..=100.0,
        err,
    ) {
        rows.set("availability", |s| s.availability = v / 100.0);
    }
    ui.label("Cooling plant");
    ui.horizontal(|ui| {
        for (mode, text, tip) in [
            (
                SiteCooling::AirAndLiquid,
                "Air and liquid",
                "Facility water for CDUs: racks may be air- or liquid-cooled",
            ),
            (
                SiteCooling::AirOnly,
                "Air only",
                "No facility water: liquid-cooled racks are refused here",
            ),
        ] {
            if ui
                .selectable_label(rows.site.cooling == mode, text)
                .on_hover_text(tip)
                .clicked()
                && rows.site.cooling != mode
            {
                rows.set("cooling", |s| s.cooling = mode);
            }
        }
    });
    ui.end_row();
}

/// What the site is charged at: its own figure, else the design's (as the analysis resolves it).
fn prices_ui(
    ui: &mut egui::Ui,
    rows: &mut SiteRows<'_>,
    b: &mut HashMap<String, String>,
    err: &mut Option<String>,
) {
    let air = Rates::of_site(rows.design, rows.name, Cooling::Air);
    let liquid = Rates::of_site(rows.design, rows.name, Cooling::Liquid);
    for (k, label, current, shown, range, apply) in [
        (
            "pue",
            "PUE (air)",
            rows.site.pue,
            air.pue,
            1.0..=5.0,
            (|s: &mut Site, v| s.pue = v) as fn(&mut Site, Option<f64>),
        ),
        (
            "pue_liquid",
            "PUE (liquid)",
            rows.site.pue_liquid,
            liquid.pue,
            1.0..=5.0,
            |s, v| s.pue_liquid = v,
        ),
        (
            "kwh",
            "Electricity ($/kWh)",
            rows.site.electricity_usd_per_kwh,
            air.usd_per_kwh,
            0.0..=10.0,
            |s, v| s.electricity_usd_per_kwh = v,
        ),
        (
            "colo",
            "Colocation ($/kW-month)",
            rows.site.colocation_usd_per_kw_month,
            air.colocation_usd_per_kw_month,
            0.0..=1e5,
            |s, v| s.colocation_usd_per_kw_month = v,
        ),
    ] {
        if let Some(v) = num_field(ui, b, &rows.key(k), label, shown, range, err) {
            rows.set(label, |s| apply(s, Some(v)));
        }
        if current.is_some() {
            ui.label("");
            if ui
                .small_button("use the design's value")
                .on_hover_text("Clear the site's own figure")
                .clicked()
            {
                rows.set(label, |s| apply(s, None));
            }
            ui.end_row();
        }
    }
}

/// The fibre route to each other site (either site may state it; this one writes its own).
fn distances_ui(
    ui: &mut egui::Ui,
    rows: &mut SiteRows<'_>,
    b: &mut HashMap<String, String>,
    err: &mut Option<String>,
) {
    let (design, name) = (rows.design, rows.name);
    for other in design.sites.keys().filter(|o| o.as_str() != name) {
        let shown = design.site_distance_km(name, other).unwrap_or(0.0);
        let label = format!("Distance to {other} (km)");
        if let Some(v) = num_field(
            ui,
            b,
            &rows.key(&format!("km_{other}")),
            &label,
            shown,
            0.0..=40_075.0,
            err,
        ) {
            let other = other.clone();
            rows.set(&label, |s| {
                if v > 0.0 {
                    s.distance_km.insert(other.clone(), v);
                } else {
                    s.distance_km.remove(&other);
                }
            });
        }
    }
}

/// What the analysis says of a site: facility power, capacity, what is left without it.
fn site_figures_ui(ui: &mut egui::Ui, name: &str, report: Option<&Report>) {
    let Some(r) = report else {
        return;
    };
    if let Some(f) = r.cooling.sites.iter().find(|f| f.site == name) {
        ui.label(format!(
            "{}: {:.1} kW IT, {:.1} kW facility (PUE {}), {:.0} L/min coolant",
            crate::analysis::format::count(f.racks, "rack", "racks"),
            f.it_kw,
            f.facility_kw,
            f.pue,
            f.coolant_l_min
        ));
    }
    if let Some(text) = r
        .sites
        .sites
        .iter()
        .find(|s| s.name == name)
        .and_then(|s| s.serving_text())
    {
        ui.label(text)
            .on_hover_text(crate::analysis::sites::FRONT_END);
    }
}

/// The availability the service must meet, and what the analysis gives.
fn target_ui(
    ui: &mut egui::Ui,
    design: &Design,
    editing: &mut Typing,
    err: &mut Option<String>,
    cmds: &mut Vec<AppCommand>,
) {
    let p = &design.params;
    egui::Grid::new("sites_target")
        .num_columns(2)
        .show(ui, |ui| {
            if let Some(v) = num_field(
                ui,
                &mut editing.field_buffers,
                "sites_target",
                "Availability target (%)",
                p.availability_target.unwrap_or(0.0) * 100.0,
                0.0..=100.0,
                err,
            ) {
                let mut q = p.clone();
                q.availability_target = (v > 0.0).then_some(v / 100.0);
                cmds.push(
                    DocCommand::Edit(
                        "Set availability target".into(),
                        Edit::SetParams(Box::new(q)),
                    )
                    .into(),
                );
            }
        });
}

/// The window this file adds to the registry (src/app/windows/mod.rs lists the file; build.rs the window).
pub type Window = SitesWindow;
