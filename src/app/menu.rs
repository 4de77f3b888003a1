//! The menu bar, toolbar, status bar, keyboard shortcuts and the shortcuts help window.

use super::actions::{Action, menu_text};
use super::commands::Show;
use super::state::{FitTarget, HelpPage, Selection};
use super::{AppCommand, DocCommand, FileCommand, RacksmithApp, UiCommand};

/// Global keyboard shortcuts. Editing shortcuts are skipped while a text field has the keyboard.
pub fn shortcuts(ctx: &egui::Context, app: &mut RacksmithApp) {
    // A file dialog or prompt on screen takes the keys too: Escape closes it, Delete must not edit the design.
    let typing = ctx.egui_wants_keyboard_input() || app.prompt_open();
    let mut cmds = Vec::new();
    let mut escape = false;
    let pressed = ctx.input_mut(|i| super::actions::pressed(i, typing));
    for action in pressed {
        match super::actions::command(action) {
            Some(cmd) => cmds.push(cmd),
            None => escape = true,
        }
    }
    // Escape closes the window on top; with none open it clears the selection.
    if escape && app.escape(ctx).is_none() {
        cmds.push(UiCommand::Select(Selection::default()).into());
    }
    if cmds
        .iter()
        .any(|c| matches!(c, AppCommand::Ui(UiCommand::Select(s)) if s.is_empty()))
    {
        app.ui.canvas.connect_from = None;
        app.ui.canvas.connect_target = None;
    }
    app.commands.extend(cmds);
}

/// The menu bar.
pub fn menu_bar_ui(ui: &mut egui::Ui, app: &mut RacksmithApp) {
    let mut cmds = Vec::new();
    super::chrome_panel(egui::Panel::top("menu_bar"), ui, |ui| {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| file_menu_ui(ui, app, &mut cmds));
            ui.menu_button("Edit", |ui| edit_menu_ui(ui, app, &mut cmds));
            ui.menu_button("View", |ui| view_menu_ui(ui, app, &mut cmds));
            ui.menu_button("Catalog", |ui| catalog_menu_ui(ui, &mut cmds));
            ui.menu_button("Help", |ui| help_menu_ui(ui, &mut cmds));
        });
    });
    app.commands.extend(cmds);
}

/// File: new, open (file, sample, recent), compare, save, export, quit.
fn file_menu_ui(ui: &mut egui::Ui, app: &RacksmithApp, cmds: &mut Vec<AppCommand>) {
    if ui
        .add(egui::Button::new("New").shortcut_text(menu_text(ui.ctx(), Action::New)))
        .clicked()
    {
        cmds.push(FileCommand::New.into());
    }
    if ui
        .add(egui::Button::new("Open…").shortcut_text(menu_text(ui.ctx(), Action::Open)))
        .clicked()
    {
        cmds.push(FileCommand::Open(None).into());
    }
    if ui.button("New from template…").clicked() {
        cmds.push(UiCommand::Show(Show::Templates).into());
    }
    if ui
        .button("Size from a requirement…")
        .on_hover_text("The smallest design that serves a request rate, trains a model in time, or fits a budget")
        .clicked()
    {
        cmds.push(UiCommand::Show(Show::Sizing).into());
    }
    ui.menu_button("Open sample", |ui| {
        for s in crate::samples::SAMPLES {
            if ui.button(crate::samples::title(s)).clicked() {
                cmds.push(FileCommand::OpenSample(s.to_string()).into());
            }
        }
    });
    ui.separator();
    if ui
        .button("Check as built…")
        .on_hover_text(
            "Compare the design's InfiniBand cables with what the fabric reports (ibnetdiscover's output)",
        )
        .clicked()
    {
        cmds.push(FileCommand::CheckAsBuilt(None).into());
    }
    if ui.button("Compare with…").clicked() {
        cmds.push(FileCommand::CompareWith(None).into());
    }
    ui.menu_button("Compare with sample", |ui| {
        for s in crate::samples::SAMPLES {
            if ui.button(crate::samples::title(s)).clicked() {
                cmds.push(FileCommand::CompareWithSample(s.to_string()).into());
            }
        }
    });
    ui.separator();
    ui.menu_button("Open recent", |ui| {
        if app.ui.files.recent.is_empty() {
            ui.label("No recent files");
        }
        for p in &app.ui.files.recent {
            if ui.button(p.display().to_string()).clicked() {
                cmds.push(FileCommand::Open(Some(p.clone())).into());
            }
        }
    });
    ui.separator();
    if ui
        .add(egui::Button::new("Save").shortcut_text(menu_text(ui.ctx(), Action::Save)))
        .clicked()
    {
        cmds.push(FileCommand::Save.into());
    }
    if ui
        .add(egui::Button::new("Save As…").shortcut_text(menu_text(ui.ctx(), Action::SaveAs)))
        .clicked()
    {
        cmds.push(FileCommand::SaveAs.into());
    }
    ui.menu_button("Export", |ui| super::exports::export_menu_ui(ui, cmds));
    if ui
        .button("Copy link")
        .on_hover_text(
            "A link that opens this design in Racksmith for the web: the design travels in the link itself, \
             nothing is sent to a server",
        )
        .clicked()
    {
        cmds.push(FileCommand::CopyLink.into());
    }
    ui.separator();
    if ui.button("Quit").clicked() {
        cmds.push(FileCommand::Quit.into());
    }
}

/// Edit: undo, redo, selection commands, parameters.
fn edit_menu_ui(ui: &mut egui::Ui, app: &mut RacksmithApp, cmds: &mut Vec<AppCommand>) {
    let undo = app
        .doc
        .history
        .undo_label()
        .map_or("Undo".to_string(), |l| format!("Undo {l}"));
    if ui
        .add_enabled(
            app.doc.history.undo_label().is_some(),
            egui::Button::new(undo).shortcut_text(menu_text(ui.ctx(), Action::Undo)),
        )
        .clicked()
    {
        cmds.push(DocCommand::Undo.into());
    }
    let redo = app
        .doc
        .history
        .redo_label()
        .map_or("Redo".to_string(), |l| format!("Redo {l}"));
    if ui
        .add_enabled(
            app.doc.history.redo_label().is_some(),
            egui::Button::new(redo).shortcut_text(menu_text(ui.ctx(), Action::Redo)),
        )
        .clicked()
    {
        cmds.push(DocCommand::Redo.into());
    }
    ui.separator();
    let any = !app.ui.selection.is_empty();
    if ui
        .add_enabled(
            any,
            egui::Button::new("Delete").shortcut_text(menu_text(ui.ctx(), Action::Delete)),
        )
        .clicked()
    {
        cmds.push(DocCommand::DeleteSelection.into());
    }
    if ui
        .add_enabled(
            !app.ui.selection.devices.is_empty(),
            egui::Button::new("Duplicate").shortcut_text(menu_text(ui.ctx(), Action::Duplicate)),
        )
        .clicked()
    {
        cmds.push(DocCommand::DuplicateSelection.into());
    }
    if ui
        .add_enabled(
            !app.ui.selection.devices.is_empty(),
            egui::Button::new("Copy").shortcut_text(menu_text(ui.ctx(), Action::Copy)),
        )
        .clicked()
    {
        cmds.push(UiCommand::Copy.into());
    }
    if ui
        .add_enabled(
            app.ui.editing.clipboard.is_some(),
            egui::Button::new("Paste").shortcut_text(menu_text(ui.ctx(), Action::Paste)),
        )
        .clicked()
    {
        cmds.push(DocCommand::Paste.into());
    }
    ui.separator();
    if ui.button("Parameters…").clicked() {
        cmds.push(UiCommand::Show(Show::Params).into());
    }
    if ui
        .button("Sites…")
        .on_hover_text(
            "Data halls and regions: availability, cooling plant, PUE and prices per site",
        )
        .clicked()
    {
        cmds.push(UiCommand::Show(Show::Sites).into());
    }
}

/// View: fit, links, theme.
fn view_menu_ui(ui: &mut egui::Ui, app: &mut RacksmithApp, cmds: &mut Vec<AppCommand>) {
    if ui.button("Fit to view").clicked() {
        cmds.push(UiCommand::Fit(FitTarget::All).into());
    }
    if ui
        .add(egui::Button::new("Fit selection").shortcut_text(menu_text(ui.ctx(), Action::Fit)))
        .clicked()
    {
        cmds.push(UiCommand::Fit(FitTarget::Selection).into());
    }
    ui.checkbox(
        &mut app.ui.canvas.hide_links,
        "Hide links (except the selection's)",
    );
    ui.separator();
    // The toolbar's Racks / Fabric / Both / Floor, named here as views.
    use super::state::ViewMode;
    for (mode, label) in [
        (ViewMode::Racks, "Rack elevations"),
        (ViewMode::Fabric, "Fabric view"),
        (ViewMode::Both, "Racks and fabric"),
        (ViewMode::Floor, "Floor plan"),
    ] {
        ui.radio_value(&mut app.ui.canvas.view_mode, mode, label);
    }
    ui.separator();
    if ui
        .button("Planning…")
        .on_hover_text(
            "Sliders for the planning figures, their cards and charts, and saved scenarios",
        )
        .clicked()
    {
        cmds.push(UiCommand::Show(Show::Planning).into());
    }
    if ui
        .button("Failure what-ifs…")
        .on_hover_text(
            "The N-1 sweep (which single switch or cable cuts GPUs or storage off) and what losing the selection costs",
        )
        .clicked()
    {
        cmds.push(UiCommand::Show(Show::WhatIf(None)).into());
    }
    ui.separator();
    ui.label("Theme");
    let mut pref = ui.ctx().options(|o| o.theme_preference);
    let before = pref;
    ui.horizontal(|ui| {
        use egui::ThemePreference;
        ui.selectable_value(&mut pref, ThemePreference::System, "💻 System")
            .on_hover_text("Follow the system's light or dark setting");
        ui.selectable_value(&mut pref, ThemePreference::Dark, "🌙 Dark");
        ui.selectable_value(&mut pref, ThemePreference::Light, "☀ Light");
    });
    if pref != before {
        ui.ctx().set_theme(pref);
    }
}

/// Help: the getting-started guide, the shortcuts, the planning questions and About.
fn help_menu_ui(ui: &mut egui::Ui, cmds: &mut Vec<AppCommand>) {
    if ui.button("Getting started").clicked() {
        cmds.push(UiCommand::Show(Show::Help(HelpPage::GettingStarted)).into());
    }
    if ui.button("Keyboard shortcuts").clicked() {
        cmds.push(UiCommand::Show(Show::Help(HelpPage::Shortcuts)).into());
    }
    if ui
        .button("Planning questions…")
        .on_hover_text("The classic planning questions, answered with their derivation")
        .clicked()
    {
        cmds.push(UiCommand::Show(Show::PlanningQuestions).into());
    }
    if ui.button("About Racksmith").clicked() {
        cmds.push(UiCommand::Show(Show::Help(HelpPage::About)).into());
    }
}

/// The toolbar under the menu bar.
pub fn toolbar_ui(ui: &mut egui::Ui, app: &mut RacksmithApp) {
    let mut cmds = Vec::new();
    super::chrome_panel(egui::Panel::top("toolbar"), ui, |ui| {
        // Wraps to a second row in a narrow window rather than cutting off its last controls.
        ui.horizontal_wrapped(|ui| {
            if ui
                .add_enabled(
                    app.doc.history.undo_label().is_some(),
                    egui::Button::new("Undo"),
                )
                .on_hover_text(app.doc.history.undo_label().unwrap_or_default())
                .on_disabled_hover_text("Nothing to undo")
                .clicked()
            {
                cmds.push(DocCommand::Undo.into());
            }
            if ui
                .add_enabled(
                    app.doc.history.redo_label().is_some(),
                    egui::Button::new("Redo"),
                )
                .on_hover_text(app.doc.history.redo_label().unwrap_or_default())
                .on_disabled_hover_text("Nothing to redo")
                .clicked()
            {
                cmds.push(DocCommand::Redo.into());
            }
            ui.separator();
            if ui
                .button("+ 42U rack")
                .on_hover_text("Add an empty 42U rack at the end of the first row")
                .clicked()
            {
                cmds.push(DocCommand::AddRack("rack-42u".into()).into());
            }
            if ui
                .button("+ 48U rack")
                .on_hover_text("Add an empty 48U rack at the end of the first row")
                .clicked()
            {
                cmds.push(DocCommand::AddRack("rack-48u".into()).into());
            }
            ui.separator();
            if ui
                .button("Fit")
                .on_hover_text("Frame every rack (F frames the selection)")
                .clicked()
            {
                cmds.push(UiCommand::Fit(FitTarget::All).into());
            }
            if ui
                .button("Parameters…")
                .on_hover_text(
                    "Workload, traffic, power and cost assumptions the analysis uses (PUE, prices, utilisation)",
                )
                .clicked()
            {
                cmds.push(UiCommand::Toggle(Show::Params).into());
            }
            ui.menu_button("Export…", |ui| super::exports::export_menu_ui(ui, &mut cmds))
                .response
                .on_hover_text("The review report, drawings, tables and scheduler files (also in File > Export)");
            ui.separator();
            use super::state::ViewMode;
            ui.selectable_value(&mut app.ui.canvas.view_mode, ViewMode::Racks, "Racks")
                .on_hover_text("Rack elevations");
            ui.selectable_value(&mut app.ui.canvas.view_mode, ViewMode::Fabric, "Fabric")
                .on_hover_text("The same design as a logical fabric: servers, leaf, spine and core tiers");
            ui.selectable_value(&mut app.ui.canvas.view_mode, ViewMode::Both, "Both")
                .on_hover_text("Racks and fabric side by side");
            ui.selectable_value(&mut app.ui.canvas.view_mode, ViewMode::Floor, "Floor")
                .on_hover_text(
                    "The floor from above: rows, aisles and racks at their places; drag a rack to move it, hover \
                     it for its cable runs",
                );
            ui.separator();
            use super::state::RackFace;
            ui.selectable_value(&mut app.ui.canvas.rack_face, RackFace::Front, "Front")
                .on_hover_text("Rack fronts: each device's GPUs, ports and power");
            ui.selectable_value(&mut app.ui.canvas.rack_face, RackFace::Rear, "Rear")
                .on_hover_text("Rack rears, where cables land: every port, green when cabled");
            ui.separator();
            egui::ComboBox::from_label("link load")
                .selected_text(app.ui.canvas.load_pattern.label())
                .show_ui(ui, |ui| {
                    for p in crate::analysis::pattern::Pattern::ALL {
                        ui.selectable_value(&mut app.ui.canvas.load_pattern, p, p.label());
                    }
                })
                .response
                .on_hover_text(
                    "Links are coloured by their load under this traffic pattern, routed over the design with \
                     ECMP: grey idle, green to 50%, yellow to 80%, orange to 100%, red beyond. The hottest link is \
                     drawn thicker. The Bottleneck card shows this pattern too.",
                );
            ui.separator();
            ui.label(egui::RichText::new(&app.doc.design.name).strong())
                .on_hover_text("The design's name: rename it in the Inspector with nothing selected");
        });
    });
    app.commands.extend(cmds);
}

/// The status bar: counts, analysis state, last message.
pub fn status_bar_ui(ui: &mut egui::Ui, app: &mut RacksmithApp) {
    super::chrome_panel(egui::Panel::bottom("status_bar"), ui, |ui| {
        ui.horizontal(|ui| {
            let d = &app.doc.design;
            use crate::analysis::format::count;
            ui.label(format!(
                "{} · {} · {} · {}",
                count(d.racks.len(), "rack", "racks"),
                count(d.devices.len(), "device", "devices"),
                count(d.gpu_count(), "GPU", "GPUs"),
                count(d.links.len(), "link", "links")
            ));
            ui.separator();
            if app.analysis.is_stale(app.doc.revision) {
                ui.spinner();
                ui.label("analysis updating…");
            } else if let Some(r) = app.analysis.report.as_deref() {
                let s = &r.summary;
                ui.label(format!(
                    "analysis up to date: {} errors, {} warnings",
                    s.errors, s.warnings
                ));
            }
            ui.separator();
            if app.doc.is_dirty() {
                ui.label("unsaved changes");
            } else if app.doc.path.is_none() {
                // A sample or a new design: nothing to lose, but nothing on disk either.
                ui.label("no changes, not in a file");
            } else {
                ui.label("saved");
            }
            ui.separator();
            if !app.ui.status.text.is_empty() {
                use super::theme::{Status, status};
                let c = if app.ui.status.is_refusal() {
                    status(ui, Status::Bad)
                } else if app.ui.status.is_warning() {
                    status(ui, Status::Short)
                } else {
                    ui.visuals().text_color()
                };
                ui.add(
                    egui::Label::new(egui::RichText::new(&app.ui.status.text).color(c)).truncate(),
                );
            }
        });
    });
}

/// Catalog: the parts catalog window, NetBox import, replacing a part everywhere.
fn catalog_menu_ui(ui: &mut egui::Ui, cmds: &mut Vec<AppCommand>) {
    if ui
        .button("Parts catalog…")
        .on_hover_text("Every part with its figures and sources; add, duplicate and edit your own")
        .clicked()
    {
        cmds.push(UiCommand::Show(Show::Catalog(None)).into());
    }
    if ui
        .button("Import NetBox device type…")
        .on_hover_text("A devicetype-library YAML file as a user part, with what looks wrong in it")
        .clicked()
    {
        cmds.push(FileCommand::ImportNetbox(None).into());
    }
    if ui
        .button("Override or replace a part…")
        .on_hover_text(
            "The parts this design uses: override a price or power, or replace a part everywhere",
        )
        .clicked()
    {
        cmds.push(UiCommand::Show(Show::DesignParts).into());
    }
}
