//! Catalog > Parts catalog: every part (built-in and the user's) with each figure and its source; add, duplicate,
//! edit, delete and import parts into the user catalog file; and, for the open design, override a part's price
//! and power or replace a part everywhere (one undo step each). A figure without a source shows as "estimate".

use crate::app::catalogs::CatalogState;
use crate::app::commands::{AppCommand, DocCommand, FileCommand, Show};
use crate::app::window::{AppWindow, WindowContext, egui_id};
use crate::catalog::figures::{self, Figure};
use crate::catalog::user::{self, Origin};
use crate::catalog::{Catalog, Category, Part, PartKind};
use crate::edit::Edit;
use crate::model::{Design, PartId};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The parts catalog window: its browser (search, part shown, edit in progress) while open.
#[derive(Default)]
pub struct CatalogWindow {
    browser: Option<CatalogBrowser>,
}

impl CatalogWindow {
    /// The browser of the open window, opening it when closed (the app shell shows what it did there).
    pub(in crate::app) fn opened(&mut self) -> &mut CatalogBrowser {
        self.browser.get_or_insert_with(CatalogBrowser::default)
    }

    /// The browser, when the window is open.
    pub(in crate::app) fn browser(&mut self) -> Option<&mut CatalogBrowser> {
        self.browser.as_mut()
    }
}

impl AppWindow for CatalogWindow {
    fn id(&self) -> &'static str {
        "catalog"
    }

    fn title(&self) -> &'static str {
        "Parts catalog"
    }

    fn is_open(&self) -> bool {
        self.browser.is_some()
    }

    fn open(&mut self, show: &Show, _ctx: &WindowContext) -> bool {
        match show {
            Show::Catalog(part) => {
                let w = self.opened();
                if part.is_some() {
                    w.select(part.clone());
                }
                true
            }
            Show::DesignParts => {
                self.opened().only_design_parts();
                true
            }
            _ => false,
        }
    }

    fn is_showing(&self, show: &Show) -> bool {
        matches!(show, Show::Catalog(_) | Show::DesignParts) && self.is_open()
    }

    fn close(&mut self) {
        self.browser = None;
    }

    fn ui(&mut self, egui_ctx: &egui::Context, ctx: &WindowContext, cmds: &mut Vec<AppCommand>) {
        catalog_window_ui(
            egui_ctx,
            ctx,
            (self.id(), self.title()),
            &mut self.browser,
            cmds,
        );
    }
}

/// The catalog window's browser: search, the part shown, the edit in progress, the last outcome.
#[derive(Default)]
pub struct CatalogBrowser {
    search: String,
    only_design: bool,
    selected: Option<PartId>,
    draft: Option<Draft>,
    swap_to: Option<PartId>,
    /// Override fields being typed: (field, value text, source text).
    override_buf: BTreeMap<String, (String, String)>,
    /// The design's copy the override fields were filled from.
    override_of: Option<Part>,
    /// The last outcome to show at the top: (is an error, text).
    message: Option<(bool, String)>,
    /// What the last NetBox import noticed.
    warnings: Vec<String>,
    /// A NetBox file whose data does not say what kind of part it is: the window asks.
    unclear_import: Option<std::path::PathBuf>,
}

impl CatalogBrowser {
    /// Shows a part (None: none), dropping an edit in progress.
    pub(in crate::app) fn select(&mut self, part: Option<PartId>) {
        self.selected = part;
        self.draft = None;
    }

    /// Lists only the parts the open design uses, whatever was searched.
    pub(in crate::app) fn only_design_parts(&mut self) {
        self.only_design = true;
        self.search.clear();
    }

    /// Puts the outcome of the last action at the top of the window.
    pub(in crate::app) fn say(&mut self, is_error: bool, text: String) {
        self.message = Some((is_error, text));
    }

    /// Shows a part just imported from NetBox with what the importer noticed.
    pub(in crate::app) fn imported(&mut self, id: PartId, warnings: Vec<String>) {
        self.select(Some(id));
        self.warnings = warnings;
    }

    /// Asks which kind of part a NetBox file is (None: no question open).
    pub(in crate::app) fn ask_kind(&mut self, file: Option<PathBuf>) {
        self.unclear_import = file;
    }
}

/// A part being edited before it is saved to the user catalog.
struct Draft {
    /// The part this edit replaces (None: a new part).
    original: Option<PartId>,
    id: String,
    part: Part,
    /// Figure values as typed, by path.
    values: BTreeMap<String, String>,
    /// Figure sources as typed, by path (the figure's own key).
    sources: BTreeMap<String, String>,
    /// The kind's details (form factor, protocols, slots) as RON.
    kind_ron: String,
    errors: Vec<String>,
}

impl Draft {
    fn new(original: Option<PartId>, id: String, part: Part) -> Self {
        let kind_ron = ron::ser::to_string_pretty(&part.kind, ron::ser::PrettyConfig::default())
            .unwrap_or_default();
        let mut d = Self {
            original,
            id,
            part,
            values: BTreeMap::new(),
            sources: BTreeMap::new(),
            kind_ron,
            errors: Vec::new(),
        };
        d.refill();
        d
    }

    /// Fills the typed values and sources from the part (after a new kind was applied: its figures changed).
    fn refill(&mut self) {
        self.values = figures::figures(&self.part)
            .into_iter()
            .map(|f| (f.path, crate::app::widgets::fmt_num(f.value)))
            .collect();
        self.sources = self
            .values
            .keys()
            .map(|k| (k.clone(), self.part.source(k).unwrap_or("").to_string()))
            .collect();
    }

    /// The part as typed, or what is wrong with it.
    fn build(&self) -> Result<Part, Vec<String>> {
        let mut errors = Vec::new();
        let mut p = self.part.clone();
        for (path, text) in &self.values {
            let cleaned = text.trim().replace(['_', ','], "");
            match cleaned.parse::<f64>() {
                Ok(v) => match figures::set_figure(&p, path, v) {
                    Ok(q) => p = q,
                    Err(e) => errors.push(e.to_string()),
                },
                Err(_) => errors.push(format!("{path}: \"{}\" is not a number", text.trim())),
            }
        }
        for (path, src) in &self.sources {
            match src.trim() {
                "" => p.sources.remove(path),
                s => p.sources.insert(path.clone(), s.to_string()),
            };
        }
        errors.extend(user::check(&self.id, &p));
        if errors.is_empty() {
            Ok(p)
        } else {
            Err(errors)
        }
    }
}

/// A new part of a kind, with placeholder figures and no sources (every figure an estimate until sourced).
fn blank_part(kind: PartKind) -> Part {
    let height_u = match &kind {
        PartKind::Server(_) => 2,
        PartKind::Switch(_) | PartKind::Storage(_) | PartKind::PatchPanel(_) => 1,
        PartKind::Rack(r) => r.units,
        _ => 0,
    };
    Part {
        name: "New part".into(),
        vendor: String::new(),
        height_u,
        kind,
        ..Part::default()
    }
}

/// The kinds of part "New part" offers.
fn new_kinds() -> Vec<(&'static str, PartKind)> {
    use crate::catalog::*;
    vec![
        ("GPU", PartKind::Gpu(GpuSpec::default())),
        ("Server", PartKind::Server(ServerSpec::default())),
        ("NIC", PartKind::Nic(NicSpec::default())),
        ("Switch", PartKind::Switch(SwitchSpec::default())),
        ("Storage", PartKind::Storage(StorageSpec::default())),
        ("Rack", PartKind::Rack(RackSpec::default())),
        ("Cable", PartKind::Cable(CableSpec::default())),
        ("PDU", PartKind::Pdu(PduSpec::default())),
        (
            "Patch panel",
            PartKind::PatchPanel(PatchPanelSpec::default()),
        ),
    ]
}

/// How many places of a design use a part (devices, racks, slots, cables).
pub fn uses_in_design(design: &Design, id: &PartId) -> usize {
    let devices: usize = design
        .devices
        .values()
        .map(|d| {
            usize::from(d.part == *id)
                + d.gpus.values().filter(|p| *p == id).count()
                + d.nics.values().filter(|p| *p == id).count()
        })
        .sum();
    let racks = design.racks.values().filter(|r| r.part == *id).count();
    let links = design
        .links
        .values()
        .filter(|l| l.cable.as_ref() == Some(id))
        .count();
    devices + racks + links
}

/// The catalog window, when open.
fn catalog_window_ui(
    egui_ctx: &egui::Context,
    ctx: &WindowContext,
    (id, title): (&'static str, &'static str),
    window: &mut Option<CatalogBrowser>,
    cmds: &mut Vec<AppCommand>,
) {
    let CatalogState {
        builtin,
        user,
        path,
        load_error,
    } = ctx.catalogs;
    let (design, catalog) = (&**ctx.design, ctx.catalog);
    let Some(w) = window.as_mut() else {
        return;
    };
    let shown = Shown {
        design,
        catalog,
        builtin,
        user,
        path: path.as_deref(),
    };
    let mut open = true;
    let win = egui::Window::new(title)
        .id(egui_id(id))
        .open(&mut open)
        .collapsible(false)
        .resizable(true)
        .default_size([780.0, 660.0]);
    crate::app::widgets::placed(
        win,
        ctx.central_rect,
        crate::app::widgets::WindowSpot::TopLeft,
    )
    .show(egui_ctx, |ui| {
        if let Some(e) = load_error {
            ui.colored_label(
                crate::app::theme::status(ui, crate::app::theme::Status::Bad),
                e.as_str(),
            );
        }
        if let Some((err, text)) = &w.message {
            let status = if *err {
                crate::app::theme::Status::Bad
            } else {
                crate::app::theme::Status::Good
            };
            ui.colored_label(crate::app::theme::status(ui, status), text);
        }
        for warning in &w.warnings {
            ui.colored_label(
                crate::app::theme::status(ui, crate::app::theme::Status::Short),
                format!("⚠ {warning}"),
            );
        }
        if let Some(path) = w.unclear_import.clone() {
            ui.horizontal(|ui| {
                ui.label("Import it as:");
                for kind in crate::catalog::netbox::ImportKind::ALL {
                    if ui.button(kind.name()).clicked() {
                        cmds.push(FileCommand::ImportNetboxAs(path.clone(), kind).into());
                    }
                }
            });
        }
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                ui.set_width(250.0);
                list_ui(ui, shown, w, cmds);
            });
            ui.separator();
            ui.vertical(|ui| {
                egui::ScrollArea::vertical()
                    .id_salt("catalog_detail")
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        if w.draft.is_some() {
                            draft_ui(ui, catalog, w, cmds);
                        } else {
                            detail_ui(ui, shown, w, cmds);
                        }
                    });
            });
        });
    });
    if !open {
        *window = None;
    }
}

/// What the window shows, read-only: the open design, the merged catalog and the two it is merged from.
#[derive(Clone, Copy)]
struct Shown<'a> {
    design: &'a Design,
    catalog: &'a Catalog,
    builtin: &'a Catalog,
    user: &'a Catalog,
    /// The user catalog file, if there is one.
    path: Option<&'a std::path::Path>,
}

/// The part list: new, import, search, and the parts by category.
fn list_ui(
    ui: &mut egui::Ui,
    shown: Shown<'_>,
    w: &mut CatalogBrowser,
    cmds: &mut Vec<AppCommand>,
) {
    let Shown {
        design,
        catalog,
        builtin,
        user,
        ..
    } = shown;
    ui.horizontal(|ui| {
        ui.menu_button("New part", |ui| {
            for (label, kind) in new_kinds() {
                if ui.button(label).clicked() {
                    let id = user::free_id(catalog, &format!("my-{}", label.to_lowercase().replace(' ', "-")));
                    w.draft = Some(Draft::new(None, id.0.into(), blank_part(kind)));
                    w.message = None;
                }
            }
        });
        if ui
            .button("Import NetBox…")
            .on_hover_text("Read a NetBox devicetype-library YAML file as a user part, checking its ports and power draw")
            .clicked()
        {
            cmds.push(FileCommand::ImportNetbox(None).into());
        }
    });
    ui.horizontal(|ui| {
        let l = ui.label("Find part");
        ui.add(
            egui::TextEdit::singleline(&mut w.search)
                .hint_text("name or id")
                .desired_width(f32::INFINITY),
        )
        .labelled_by(l.id);
    });
    ui.checkbox(&mut w.only_design, "Only parts in this design (•)");
    let needle = w.search.trim().to_lowercase();
    egui::ScrollArea::vertical()
        .id_salt("catalog_list")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for cat in Category::ALL {
                let parts: Vec<(&PartId, &Part)> = catalog
                    .in_category(cat)
                    .filter(|(id, p)| {
                        (needle.is_empty()
                            || id.as_str().to_lowercase().contains(&needle)
                            || p.name.to_lowercase().contains(&needle))
                            && (!w.only_design || design.parts.contains_key(*id))
                    })
                    .collect();
                if parts.is_empty() {
                    continue;
                }
                ui.label(egui::RichText::new(cat.label()).strong());
                for (id, p) in parts {
                    let origin = Origin::of(id, builtin, user);
                    let mut text = p.name.clone();
                    if origin != Origin::BuiltIn {
                        text.push_str(&format!(" ({})", origin.label()));
                    }
                    if design.parts.contains_key(id) {
                        text.push_str(" •");
                    }
                    let resp = ui
                        .selectable_label(w.selected.as_ref() == Some(id), text)
                        .on_hover_text(format!(
                            "{id}{}",
                            if design.parts.contains_key(id) {
                                " · used in this design"
                            } else {
                                ""
                            }
                        ));
                    if resp.clicked() {
                        w.selected = Some(id.clone());
                        w.draft = None;
                        w.swap_to = None;
                        w.override_buf.clear();
                        w.message = None;
                        w.warnings.clear();
                    }
                }
            }
        });
}

/// "overridden" beside a device whose part, or a part in its slots, has a price or power overridden in the
/// design, naming them on hover.
pub fn overridden_mark_ui(ui: &mut egui::Ui, design: &Design, device: &crate::model::Device) {
    let notes: Vec<String> = std::iter::once(&device.part)
        .chain(device.gpus.values())
        .chain(device.nics.values())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .filter_map(|id| design.parts.get(id).map(|p| (id, p)))
        .flat_map(|(id, p)| {
            figures::override_notes(p)
                .into_iter()
                .map(move |n| format!("{id}: {n}"))
        })
        .collect();
    if !notes.is_empty() {
        ui.colored_label(
            crate::app::theme::status(ui, crate::app::theme::Status::Short),
            "overridden",
        )
        .on_hover_text(notes.join("\n"));
    }
}

/// The figures of a part with their sources; a figure without a source says "estimate".
fn figures_grid_ui(ui: &mut egui::Ui, part: &Part) {
    egui::Grid::new("catalog_figures")
        .num_columns(3)
        .striped(true)
        .show(ui, |ui| {
            for Figure { path, value, .. } in figures::figures(part) {
                ui.label(&path);
                ui.label(crate::app::widgets::fmt_num(value));
                match figures::source_of(part, &path) {
                    Some(s) => ui.add(egui::Label::new(egui::RichText::new(s).small()).wrap()),
                    None => ui.colored_label(
                        crate::app::theme::status(ui, crate::app::theme::Status::Short),
                        "estimate (no source)",
                    ),
                };
                ui.end_row();
            }
        });
}

/// A part as it is: origin, figures and sources, what can be done with it, and how the open design uses it.
fn detail_ui(
    ui: &mut egui::Ui,
    shown: Shown<'_>,
    w: &mut CatalogBrowser,
    cmds: &mut Vec<AppCommand>,
) {
    let Shown {
        design,
        catalog,
        builtin,
        user,
        path,
    } = shown;
    let Some(id) = w.selected.clone() else {
        ui.label("Choose a part on the left, or make a new one.");
        let file = path.map_or_else(
            || "no user catalog file: your parts last for this session".to_string(),
            |p| format!("Your parts are kept in {}", p.display()),
        );
        ui.label(egui::RichText::new(file).weak());
        ui.label(
            egui::RichText::new(
                "A design copies the spec of each part it uses, so it stays self-contained.",
            )
            .weak(),
        );
        return;
    };
    let Some(part) = catalog.parts.get(&id).or_else(|| design.parts.get(&id)) else {
        ui.label(format!("{id} is no longer in the catalog."));
        return;
    };
    let origin = Origin::of(&id, builtin, user);
    ui.heading(&part.name);
    ui.label(format!("{id} · {} · {}", part.vendor, origin.label()));
    ui.horizontal(|ui| {
        if ui
            .button("Edit part")
            .on_hover_text("Edit the part; a built-in part's edited copy goes in your user catalog")
            .clicked()
        {
            w.draft = Some(Draft::new(Some(id.clone()), id.0.to_string(), part.clone()));
            w.message = None;
        }
        if ui.button("Duplicate").clicked() {
            let new_id = user::free_id(catalog, &format!("{id}-copy"));
            let mut copy = part.clone();
            copy.name = format!("{} (copy)", part.name);
            copy.overrides.clear();
            w.draft = Some(Draft::new(None, new_id.0.into(), copy));
            w.message = None;
        }
        match origin {
            Origin::User => {
                if ui.button("Delete").clicked() {
                    cmds.push(FileCommand::RemoveUserPart(id.clone()).into());
                }
            }
            Origin::EditedBuiltIn => {
                if ui.button("Revert to built-in").clicked() {
                    cmds.push(FileCommand::RemoveUserPart(id.clone()).into());
                }
            }
            Origin::BuiltIn => {}
        }
    });
    ui.separator();
    figures_grid_ui(ui, part);
    if design.parts.contains_key(&id) {
        ui.separator();
        design_use_ui(ui, design, catalog, &id, w, cmds);
    }
}

/// The open design's use of a part: its copy (update it from the catalog), price and power overrides, and
/// replacing it everywhere.
fn design_use_ui(
    ui: &mut egui::Ui,
    design: &Design,
    catalog: &Catalog,
    id: &PartId,
    w: &mut CatalogBrowser,
    cmds: &mut Vec<AppCommand>,
) {
    let Some(copy) = design.parts.get(id) else {
        return;
    };
    ui.strong(format!(
        "In this design ({} uses)",
        uses_in_design(design, id)
    ));
    if let Some(cat) = catalog.parts.get(id) {
        let mut plain = copy.clone();
        for field in figures::OVERRIDABLE {
            plain = figures::reset_override(&plain, field);
        }
        if plain != *cat {
            ui.horizontal_wrapped(|ui| {
                ui.label("The design's copy differs from the catalog's part.");
                if ui.button("Update the design's copy").clicked() {
                    let mut updated = cat.clone();
                    updated.overrides.clear();
                    cmds.push(
                        DocCommand::Edit(
                            format!("Update {id} from the catalog"),
                            Edit::SetPart(id.clone(), Some(Box::new(updated))),
                        )
                        .into(),
                    );
                }
            });
        }
    }
    overrides_ui(ui, copy, id, w, cmds);
    ui.add_space(6.0);
    swap_ui(ui, design, catalog, copy, id, w, cmds);
}

/// Price and power of the design's copy, overridable with a source; overridden ones say so and can be reset.
fn overrides_ui(
    ui: &mut egui::Ui,
    copy: &Part,
    id: &PartId,
    w: &mut CatalogBrowser,
    cmds: &mut Vec<AppCommand>,
) {
    // The typed text follows the document after an override, an undo or a reset.
    if w.override_of.as_ref() != Some(copy) {
        w.override_buf.clear();
        w.override_of = Some(copy.clone());
    }
    for (field, short, label) in [
        ("price_usd", "price", "Price in this design, USD"),
        ("power_w", "power", "Power in this design, W"),
    ] {
        let current = if field == "price_usd" {
            copy.price_usd
        } else {
            copy.power_w
        };
        let (value, source) = w.override_buf.entry(field.to_string()).or_insert_with(|| {
            (
                crate::app::widgets::fmt_num(current),
                copy.source(field).unwrap_or("").to_string(),
            )
        });
        let mut set = false;
        ui.horizontal(|ui| {
            let l = ui.label(label);
            ui.add(egui::TextEdit::singleline(value).desired_width(90.0))
                .labelled_by(l.id);
            set = ui.button(format!("Set {short}")).clicked();
            if let Some(o) = copy.overrides.get(field) {
                ui.colored_label(
                    crate::app::theme::status(ui, crate::app::theme::Status::Short),
                    "overridden",
                )
                .on_hover_text(format!(
                    "catalog: {} ({})",
                    crate::app::widgets::fmt_num(o.catalog),
                    o.catalog_source.as_deref().unwrap_or("no source")
                ));
                if ui.button(format!("Reset {short}")).clicked() {
                    cmds.push(
                        DocCommand::Edit(
                            format!("Reset {field} of {id} to the catalog's"),
                            Edit::SetPart(
                                id.clone(),
                                Some(Box::new(figures::reset_override(copy, field))),
                            ),
                        )
                        .into(),
                    );
                }
            }
        });
        ui.add(
            egui::TextEdit::singleline(source)
                .hint_text(format!("source of the {short} (empty: estimate)"))
                .desired_width(f32::INFINITY),
        )
        .on_hover_text(format!("Where the {short} in this design comes from"));
        if set {
            let parsed = value.trim().replace(['_', ','], "").parse::<f64>();
            w.message = match parsed.map(|v| figures::with_override(copy, field, v, source)) {
                Ok(Ok(p)) => {
                    cmds.push(
                        DocCommand::Edit(
                            format!("Override {field} of {id}"),
                            Edit::SetPart(id.clone(), Some(Box::new(p))),
                        )
                        .into(),
                    );
                    None
                }
                Ok(Err(e)) => Some((true, e.to_string())),
                Err(_) => Some((
                    true,
                    format!("{label}: \"{}\" is not a number", value.trim()),
                )),
            };
        }
    }
}

/// Replace this part everywhere in the design with another of its kind.
fn swap_ui(
    ui: &mut egui::Ui,
    design: &Design,
    catalog: &Catalog,
    copy: &Part,
    id: &PartId,
    w: &mut CatalogBrowser,
    cmds: &mut Vec<AppCommand>,
) {
    let same_kind =
        |p: &Part| std::mem::discriminant(&p.kind) == std::mem::discriminant(&copy.kind);
    let mut options: Vec<(&PartId, &Part)> = catalog
        .parts
        .iter()
        .chain(design.parts.iter())
        .filter(|(pid, p)| *pid != id && same_kind(p))
        .collect();
    options.sort_by(|a, b| a.0.cmp(b.0));
    options.dedup_by(|a, b| a.0 == b.0);
    ui.horizontal_wrapped(|ui| {
        let l = ui.label("Replace everywhere with");
        let chosen = w
            .swap_to
            .as_ref()
            .map_or_else(|| "choose a part".to_string(), ToString::to_string);
        egui::ComboBox::from_id_salt("catalog_swap_to")
            .selected_text(chosen)
            .show_ui(ui, |ui| {
                for (pid, p) in &options {
                    if ui
                        .selectable_label(
                            w.swap_to.as_ref() == Some(*pid),
                            format!("{pid} · {}", p.name),
                        )
                        .clicked()
                    {
                        w.swap_to = Some((*pid).clone());
                    }
                }
            })
            .response
            .labelled_by(l.id);
        let ready = w.swap_to.is_some();
        if ui
            .add_enabled(ready, egui::Button::new("Replace"))
            .on_hover_text(
                "One undoable edit; refused with the reason where the new part does not fit",
            )
            .clicked()
            && let Some(to) = w.swap_to.clone()
        {
            cmds.push(DocCommand::SwapPart(id.0.to_string(), to.0.into()).into());
        }
    });
}

/// The part being edited: id, name, vendor, each figure with its source, and the kind's details as RON.
fn draft_ui(
    ui: &mut egui::Ui,
    catalog: &Catalog,
    w: &mut CatalogBrowser,
    cmds: &mut Vec<AppCommand>,
) {
    let Some(d) = w.draft.as_mut() else {
        return;
    };
    let mut cancel = false;
    ui.heading(if d.original.is_some() {
        "Edit part"
    } else {
        "New part"
    });
    egui::Grid::new("catalog_draft_head")
        .num_columns(2)
        .show(ui, |ui| {
            let l = ui.label("Id");
            let editable = d.original.is_none();
            ui.add_enabled(
                editable,
                egui::TextEdit::singleline(&mut d.id).desired_width(220.0),
            )
            .labelled_by(l.id);
            ui.end_row();
            let l = ui.label("Name");
            ui.add(egui::TextEdit::singleline(&mut d.part.name).desired_width(320.0))
                .labelled_by(l.id);
            ui.end_row();
            let l = ui.label("Vendor");
            ui.add(egui::TextEdit::singleline(&mut d.part.vendor).desired_width(220.0))
                .labelled_by(l.id);
            ui.end_row();
            ui.label("");
            ui.checkbox(&mut d.part.liquid_cooled, "Needs direct liquid cooling");
            ui.end_row();
        });
    ui.separator();
    ui.label("Figures and their sources (a figure without a source is reported as an estimate):");
    draft_figures_ui(ui, d);
    egui::CollapsingHeader::new("Kind details (RON: form factor, protocols, slots)")
        .id_salt("catalog_kind_ron")
        .show(ui, |ui| {
            ui.add(
                egui::TextEdit::multiline(&mut d.kind_ron)
                    .code_editor()
                    .desired_rows(6)
                    .desired_width(f32::INFINITY),
            );
            if ui.button("Apply details").clicked() {
                match crate::io::parse_ron::<PartKind>(
                    &d.kind_ron,
                    std::path::Path::new("kind details"),
                ) {
                    Ok(kind) => {
                        d.part.kind = kind;
                        d.refill();
                        d.errors.clear();
                    }
                    Err(e) => d.errors = vec![e.to_string()],
                }
            }
        });
    for e in &d.errors {
        ui.colored_label(
            crate::app::theme::status(ui, crate::app::theme::Status::Bad),
            e,
        );
    }
    ui.horizontal(|ui| {
        if ui.button("Save to user catalog").clicked() {
            let taken = d.original.as_ref().is_none_or(|o| o.0 != d.id)
                && catalog.parts.contains_key(&PartId::new(d.id.trim()));
            match d.build() {
                Ok(_) if taken => {
                    d.errors = vec![format!("id \"{}\" is taken: choose another", d.id.trim())]
                }
                Ok(part) => cmds.push(
                    FileCommand::SaveUserPart {
                        id: PartId::new(d.id.trim()),
                        part: Box::new(part),
                        replaces: d.original.clone(),
                    }
                    .into(),
                ),
                Err(errors) => d.errors = errors,
            }
        }
        if ui.button("Cancel").clicked() {
            cancel = true;
        }
    });
    if cancel {
        w.draft = None;
    }
}

fn draft_figures_ui(ui: &mut egui::Ui, d: &mut Draft) {
    egui::Grid::new("catalog_draft_figures")
        .num_columns(3)
        .striped(true)
        .show(ui, |ui| {
            for (path, value) in &mut d.values {
                let l = ui.label(path.as_str());
                ui.add_sized([80.0, 20.0], egui::TextEdit::singleline(value))
                    .labelled_by(l.id);
                let source = d.sources.entry(path.clone()).or_default();
                let inherited = figures::source_of(&d.part, path)
                    .filter(|_| d.part.source(path).is_none())
                    .map(str::to_string);
                let hint = inherited.unwrap_or_else(|| "estimate: give a source".to_string());
                let width = ui.available_width().max(200.0);
                ui.add_sized(
                    [width, 20.0],
                    egui::TextEdit::singleline(source).hint_text(hint),
                )
                .on_hover_text(format!("Source of {path}"));
                ui.end_row();
            }
        });
}

/// The window this file adds to the registry (src/app/windows/mod.rs lists the file; build.rs the window).
pub type Window = CatalogWindow;
