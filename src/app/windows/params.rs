//! The Parameters window: traffic, serving, utilisation and the prices and facility figures of the cost model.
//! Each change is one `Edit::SetParams`. Every field accepts the range of its figure in `io::limits` (the
//! table validation checks files against), never a range of its own.

use crate::app::commands::{AppCommand, DocCommand, Show, UiCommand};
use crate::app::widgets::num_field;
use crate::app::window::{AppWindow, WindowContext, egui_id};
use crate::edit::Edit;
use crate::io::limits::Figure as F;
use crate::model::{Design, Params, Serving};
use std::collections::HashMap;

/// Edit > Parameters: open or not, and the number fields being typed (committed when a field loses focus).
#[derive(Default)]
pub struct ParamsWindow {
    open: bool,
    field_buffers: HashMap<String, String>,
}

impl ParamsWindow {
    const ID: &'static str = "params";
    const TITLE: &'static str = "Parameters";
}

impl AppWindow for ParamsWindow {
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
        let mine = *show == Show::Params;
        self.open |= mine;
        mine
    }

    fn is_showing(&self, show: &Show) -> bool {
        *show == Show::Params && self.open
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
            .default_width(380.0);
        // A refusal goes on the status line before the window's edits, as when it was written there at once.
        let first = cmds.len();
        let mut refusal = None;
        crate::app::widgets::placed(
            window,
            ctx.central_rect,
            crate::app::widgets::WindowSpot::TopRight,
        )
        .show(egui_ctx, |ui| {
            params_ui(ui, ctx.design, &mut self.field_buffers, &mut refusal, cmds)
        });
        if let Some(e) = refusal {
            cmds.insert(first, UiCommand::Refuse(e).into());
        }
        if !open {
            self.open = false;
        }
    }
}

/// The parameter fields.
fn params_ui(
    ui: &mut egui::Ui,
    design: &Design,
    b: &mut HashMap<String, String>,
    refusal: &mut Option<String>,
    cmds: &mut Vec<AppCommand>,
) {
    let p = &design.params;
    let mut err = None;
    let mut new: Option<(String, Params)> = None;
    traffic_fields_ui(ui, p, b, &mut err, &mut new);
    ui.separator();
    serving_fields_ui(ui, p, b, &mut err, &mut new);
    ui.separator();
    cost_fields_ui(ui, p, b, &mut err, &mut new);
    if let Some(e) = err {
        *refusal = Some(e);
    }
    if let Some((label, q)) = new {
        cmds.push(DocCommand::Edit(label, Edit::SetParams(Box::new(q))).into());
    }
}

/// Traffic fields: what each GPU sends and how busy the fabric is.
fn traffic_fields_ui(
    ui: &mut egui::Ui,
    p: &Params,
    b: &mut HashMap<String, String>,
    err: &mut Option<String>,
    new: &mut Option<(String, Params)>,
) {
    ui.strong("Traffic");
    egui::Grid::new("params_traffic")
        .num_columns(2)
        .show(ui, |ui| {
            let t = &p.traffic;
            if let Some(v) = num_field(
                ui,
                b,
                "p_ar",
                "All-reduce size (MB)",
                t.allreduce_bytes / 1e6,
                F::AllreduceBytes.range().scaled(1e-6).inclusive(),
                err,
            ) {
                *new = Some((
                    "Set all-reduce size".into(),
                    changed(p, |q| q.traffic.allreduce_bytes = v * 1e6),
                ));
            }
            if let Some(v) = num_field(
                ui,
                b,
                "p_lat",
                "Latency message (B)",
                t.latency_message_bytes,
                F::LatencyMessageBytes.range().inclusive(),
                err,
            ) {
                *new = Some((
                    "Set latency message size".into(),
                    changed(p, |q| q.traffic.latency_message_bytes = v),
                ));
            }
            if let Some(v) = num_field(
                ui,
                b,
                "p_sto",
                "Storage read (GB/s per GPU)",
                t.storage_read_gbyte_s_per_gpu,
                F::StorageReadGbyteSPerGpu.range().inclusive(),
                err,
            ) {
                *new = Some((
                    "Set storage read per GPU".into(),
                    changed(p, |q| q.traffic.storage_read_gbyte_s_per_gpu = v),
                ));
            }
            if let Some(v) = num_field(
                ui,
                b,
                "p_eff",
                "Link efficiency (0-1)",
                t.link_efficiency,
                F::LinkEfficiency.range().inclusive(),
                err,
            ) {
                *new = Some((
                    "Set link efficiency".into(),
                    changed(p, |q| q.traffic.link_efficiency = v),
                ));
            }
            let mut custom = t.network_gbps_per_gpu.is_some();
            ui.label("Network per GPU");
            if ui
                .checkbox(&mut custom, "set (else the GPU's reference ratio)")
                .changed()
            {
                let v = custom.then_some(t.network_gbps_per_gpu.unwrap_or(400.0));
                *new = Some((
                    "Set network per GPU".into(),
                    changed(p, |q| q.traffic.network_gbps_per_gpu = v),
                ));
            }
            ui.end_row();
            if let Some(cur) = t.network_gbps_per_gpu
                && let Some(v) = num_field(
                    ui,
                    b,
                    "p_net",
                    "  Gb/s per GPU",
                    cur,
                    F::NetworkGbpsPerGpu.range().inclusive(),
                    err,
                )
            {
                *new = Some((
                    "Set network per GPU".into(),
                    changed(p, |q| q.traffic.network_gbps_per_gpu = Some(v)),
                ));
            }
            if let Some(v) = num_field(
                ui,
                b,
                "p_util",
                "Utilisation target (0-1)",
                p.utilisation_target,
                F::UtilisationTarget.range().inclusive(),
                err,
            ) {
                *new = Some((
                    "Set utilisation target".into(),
                    changed(p, |q| q.utilisation_target = v),
                ));
            }
        });
}

/// Inference-serving fields (when the design serves).
fn serving_fields_ui(
    ui: &mut egui::Ui,
    p: &Params,
    b: &mut HashMap<String, String>,
    err: &mut Option<String>,
    new: &mut Option<(String, Params)>,
) {
    let mut serving = p.serving.is_some();
    if ui.checkbox(&mut serving, "Inference serving").changed() {
        let v = serving.then(|| p.serving.clone().unwrap_or_default());
        *new = Some(("Set serving".into(), changed(p, |q| q.serving = v.clone())));
    }
    if let Some(s) = &p.serving {
        egui::Grid::new("params_serving")
            .num_columns(2)
            .show(ui, |ui| {
                if let Some(v) = num_field(
                    ui,
                    b,
                    "p_rps",
                    "Request rate (req/s)",
                    s.request_rate_rps,
                    F::RequestRateRps.range().inclusive(),
                    err,
                ) {
                    *new = Some((
                        "Set request rate".into(),
                        changed_serving(p, |x| x.request_rate_rps = v),
                    ));
                }
                if let Some(v) = num_field(
                    ui,
                    b,
                    "p_rrps",
                    "Replica throughput (req/s)",
                    s.replica_throughput_rps,
                    F::ReplicaThroughputRps.range().inclusive(),
                    err,
                ) {
                    *new = Some((
                        "Set replica throughput".into(),
                        changed_serving(p, |x| x.replica_throughput_rps = v),
                    ));
                }
                if let Some(v) = num_field(
                    ui,
                    b,
                    "p_gpr",
                    "GPUs per replica",
                    f64::from(s.gpus_per_replica),
                    F::GpusPerReplica.range().inclusive(),
                    err,
                ) {
                    if v.fract() == 0.0 {
                        *new = Some((
                            "Set GPUs per replica".into(),
                            changed_serving(p, |x| x.gpus_per_replica = v as u32),
                        ));
                    } else {
                        *err = Some("GPUs per replica must be a whole number".into());
                    }
                }
                if let Some(v) = num_field(
                    ui,
                    b,
                    "p_tgt",
                    "p99 target (ms)",
                    s.latency_target_ms,
                    F::LatencyTargetMs.range().inclusive(),
                    err,
                ) {
                    *new = Some((
                        "Set p99 target".into(),
                        changed_serving(p, |x| x.latency_target_ms = v),
                    ));
                }
            });
    }
}

/// Cost fields: energy, colocation, support, depreciation, cloud price.
fn cost_fields_ui(
    ui: &mut egui::Ui,
    p: &Params,
    b: &mut HashMap<String, String>,
    err: &mut Option<String>,
    new: &mut Option<(String, Params)>,
) {
    ui.strong("Cost");
    egui::Grid::new("params_cost")
        .num_columns(2)
        .show(ui, |ui| {
            if let Some(v) = num_field(
                ui,
                b,
                "p_elec",
                "Electricity (USD/kWh)",
                p.electricity_usd_per_kwh,
                F::ElectricityUsdPerKwh.range().inclusive(),
                err,
            ) {
                *new = Some((
                    "Set electricity price".into(),
                    changed(p, |q| q.electricity_usd_per_kwh = v),
                ));
            }
            if let Some(v) = num_field(
                ui,
                b,
                "p_pue",
                "PUE",
                p.pue,
                F::Pue.range().inclusive(),
                err,
            ) {
                *new = Some(("Set PUE".into(), changed(p, |q| q.pue = v)));
            }
            if let Some(v) = num_field(
                ui,
                b,
                "p_years",
                "Depreciation (years)",
                p.depreciation_years,
                F::DepreciationYears.range().inclusive(),
                err,
            ) {
                *new = Some((
                    "Set depreciation years".into(),
                    changed(p, |q| q.depreciation_years = v),
                ));
            }
            if let Some(v) = num_field(
                ui,
                b,
                "p_resid",
                "Residual value (0-1)",
                p.residual_fraction,
                F::ResidualFraction.range().inclusive(),
                err,
            ) {
                *new = Some((
                    "Set residual value".into(),
                    changed(p, |q| q.residual_fraction = v),
                ));
            }
            if let Some(v) = num_field(
                ui,
                b,
                "p_colo",
                "Colocation (USD/kW-month)",
                p.colocation_usd_per_kw_month,
                F::ColocationUsdPerKwMonth.range().inclusive(),
                err,
            ) {
                *new = Some((
                    "Set colocation price".into(),
                    changed(p, |q| q.colocation_usd_per_kw_month = v),
                ));
            }
            if let Some(v) = num_field(
                ui,
                b,
                "p_sup",
                "Support (share of capex/yr)",
                p.support_fraction_per_year,
                F::SupportFractionPerYear.range().inclusive(),
                err,
            ) {
                *new = Some((
                    "Set support share".into(),
                    changed(p, |q| q.support_fraction_per_year = v),
                ));
            }
            let mut custom = p.cloud_usd_per_gpu_hour.is_some();
            ui.label("Cloud price");
            if ui
                .checkbox(&mut custom, "set (else the GPU's catalog price)")
                .changed()
            {
                let v = custom.then_some(p.cloud_usd_per_gpu_hour.unwrap_or(3.0));
                *new = Some((
                    "Set cloud price".into(),
                    changed(p, |q| q.cloud_usd_per_gpu_hour = v),
                ));
            }
            ui.end_row();
            if let Some(cur) = p.cloud_usd_per_gpu_hour
                && let Some(v) = num_field(
                    ui,
                    b,
                    "p_cloud",
                    "  USD per GPU-hour",
                    cur,
                    F::CloudUsdPerGpuHour.range().inclusive(),
                    err,
                )
            {
                *new = Some((
                    "Set cloud price".into(),
                    changed(p, |q| q.cloud_usd_per_gpu_hour = Some(v)),
                ));
            }
        });
}

fn changed(p: &Params, f: impl FnOnce(&mut Params)) -> Params {
    let mut q = p.clone();
    f(&mut q);
    q
}

fn changed_serving(p: &Params, f: impl FnOnce(&mut Serving)) -> Params {
    let mut q = p.clone();
    if let Some(x) = q.serving.as_mut() {
        f(x);
    }
    q
}

/// The window this file adds to the registry (src/app/windows/mod.rs lists the file; build.rs the window).
pub type Window = ParamsWindow;
