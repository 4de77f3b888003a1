//! Cost (formulas.md, "Cost"): bill of materials, capex, yearly opex (energy, colocation, support), TCO over the
//! depreciation period with residual value, owned $/GPU-hour against the cloud, break-even, cost per 1M requests.

use super::bandwidth::{BandwidthReport, main_gpu};
use super::power::PowerReport;
use super::round;
use crate::catalog::PartKind;
use crate::model::{Design, PartId};
use serde::Serialize;
use std::collections::BTreeMap;

/// Hours in a year.
pub const HOURS_PER_YEAR: f64 = 8760.0;
/// Hours in a month (8,760 / 12).
pub const HOURS_PER_MONTH: f64 = 730.0;

/// Cost section of the report.
#[derive(Debug, Clone, Serialize)]
pub struct CostReport {
    /// Bill of materials, by part id.
    pub bom: Vec<BomLine>,
    /// Links with no cable part, not priced.
    pub unpriced_links: usize,
    /// Capital cost, USD.
    pub capex_usd: f64,
    /// Capex by category (GPUs, servers, network, storage, racks and power, cables), USD.
    pub capex_by_category: BTreeMap<String, f64>,
    /// Energy per year, USD.
    pub energy_usd_per_year: f64,
    /// Colocation per year, USD.
    pub colocation_usd_per_year: f64,
    /// Support per year, USD.
    pub support_usd_per_year: f64,
    /// Opex per year, USD.
    pub opex_usd_per_year: f64,
    /// Residual value at the end of the period, USD.
    pub residual_usd: f64,
    /// TCO over the depreciation period, USD.
    pub tco_usd: f64,
    /// Years of the TCO.
    pub years: f64,
    /// Owned cost per GPU-hour at the utilisation target, USD.
    pub owned_usd_per_gpu_hour: f64,
    /// Cloud price compared against, USD per GPU-hour.
    pub cloud_usd_per_gpu_hour: f64,
    /// Where the cloud price came from.
    pub cloud_price_source: String,
    /// Months of cloud spend that equal the capex.
    pub break_even_months: f64,
    /// Owned cost per hour of the whole design, USD.
    pub usd_per_hour: f64,
    /// Cost per 1M requests at the utilisation target, USD, when the design has a service level.
    pub usd_per_million_requests: Option<f64>,
    /// Replicas needed for the request rate at the utilisation target, when serving.
    pub replicas_needed: Option<u64>,
    /// Replicas the design holds, when serving.
    pub replicas_in_design: Option<u64>,
    /// Cost of the design's training job on the owned cluster (wall-clock hours x GPUs x owned $/GPU-hour), USD.
    pub training_job_usd: Option<f64>,
    /// The same GPU-hours at the cloud price, USD.
    pub training_job_cloud_usd: Option<f64>,
    /// The prices used: every BOM unit price is the design's part price (copied from the catalog, overridable).
    pub prices_note: String,
}

/// One BOM line.
#[derive(Debug, Clone, Serialize)]
pub struct BomLine {
    /// Part id.
    pub part: String,
    /// Part name.
    pub name: String,
    /// Category.
    pub category: String,
    /// Quantity.
    pub quantity: u64,
    /// Unit price, USD.
    pub unit_usd: f64,
    /// quantity x unit, USD.
    pub total_usd: f64,
    /// Source of the price.
    pub price_source: String,
}

fn category(kind: &PartKind) -> &'static str {
    match kind {
        PartKind::Gpu(_) => "GPUs",
        PartKind::Server(_) => "Servers",
        PartKind::Nic(_) | PartKind::Switch(_) => "Network",
        PartKind::Cable(_) => "Cables and optics",
        PartKind::Storage(_) => "Storage",
        PartKind::Rack(_) | PartKind::Pdu(_) | PartKind::PatchPanel(_) => "Racks and power",
    }
}

pub(crate) fn analyze(design: &Design, power: &PowerReport, bw: &BandwidthReport) -> CostReport {
    let p = &design.params;
    let mut qty: rustc_hash::FxHashMap<&PartId, u64> = Default::default();
    for r in design.racks.values() {
        *qty.entry(&r.part).or_default() += 1;
    }
    for d in design.devices.values() {
        *qty.entry(&d.part).or_default() += 1;
        for part in d.gpus.values().chain(d.nics.values()) {
            *qty.entry(part).or_default() += 1;
        }
    }
    let mut unpriced_links = 0;
    for l in design.links.values() {
        match &l.cable {
            Some(c) => *qty.entry(c).or_default() += 1,
            None => unpriced_links += 1,
        }
    }
    let mut bom = Vec::new();
    let mut capex = 0.0;
    let mut by_cat: BTreeMap<String, f64> = BTreeMap::new();
    let mut qty: Vec<(&PartId, u64)> = qty.into_iter().collect();
    qty.sort();
    for (part, q) in qty {
        let Some(spec) = design.parts.get(part) else {
            continue;
        };
        let total = spec.price_usd * q as f64;
        capex += total;
        let cat = category(&spec.kind);
        *by_cat.entry(cat.to_string()).or_default() += total;
        bom.push(BomLine {
            part: part.0.clone(),
            name: spec.name.clone(),
            category: cat.to_string(),
            quantity: q,
            unit_usd: spec.price_usd,
            total_usd: round(total, 2),
            price_source: spec
                .source("price_usd")
                .unwrap_or("design override")
                .to_string(),
        });
    }
    let it_kw = power.it_power_w / 1000.0;
    let util = super::utilisation(design);
    let energy = it_kw * util * p.pue * HOURS_PER_YEAR * p.electricity_usd_per_kwh;
    let colocation = it_kw * p.colocation_usd_per_kw_month * 12.0;
    let support = capex * p.support_fraction_per_year;
    let opex = energy + colocation + support;
    let residual = capex * p.residual_fraction;
    let years = p.depreciation_years.max(0.01);
    let tco = capex - residual + years * opex;
    let yearly_owned = (capex - residual) / years + opex;
    let gpus = bw.gpus as f64;
    let gpu_hours = gpus * HOURS_PER_YEAR * util;
    let owned = if gpu_hours > 0.0 {
        yearly_owned / gpu_hours
    } else {
        0.0
    };
    let (cloud, cloud_source) = match p.cloud_usd_per_gpu_hour {
        Some(c) => (c, "design parameter".to_string()),
        None => main_gpu(design)
            .and_then(|g| design.parts.get(&g).map(|part| (g, part)))
            .and_then(|(g, part)| match &part.kind {
                PartKind::Gpu(spec) => Some((
                    spec.cloud_usd_per_hour,
                    format!(
                        "{g}: {}",
                        part.source("gpu.cloud_usd_per_hour").unwrap_or("catalog")
                    ),
                )),
                _ => None,
            })
            .unwrap_or((0.0, "no GPUs".into())),
    };
    let cloud_month = cloud * gpus * HOURS_PER_MONTH * util;
    let break_even = if cloud_month > 0.0 {
        capex / cloud_month
    } else {
        f64::INFINITY
    };
    let per_hour = yearly_owned / HOURS_PER_YEAR;
    let (per_million, needed, in_design) = match &p.serving {
        Some(s) => {
            let replicas = (bw.gpus as u64) / u64::from(s.gpus_per_replica.max(1));
            let x = s.throughput_for(main_gpu(design).as_ref());
            let needed = if x > 0.0 && util > 0.0 {
                (s.request_rate_rps / (x * util)).ceil() as u64
            } else {
                0
            };
            let capacity = replicas as f64 * x * util;
            let per_m = (capacity > 0.0).then(|| round(per_hour / (capacity * 3600.0) * 1e6, 4));
            (per_m, Some(needed), Some(replicas))
        }
        None => (None, None, None),
    };
    CostReport {
        bom,
        unpriced_links,
        capex_usd: round(capex, 2),
        capex_by_category: by_cat.into_iter().map(|(k, v)| (k, round(v, 2))).collect(),
        energy_usd_per_year: round(energy, 2),
        colocation_usd_per_year: round(colocation, 2),
        support_usd_per_year: round(support, 2),
        opex_usd_per_year: round(opex, 2),
        residual_usd: round(residual, 2),
        tco_usd: round(tco, 2),
        years,
        owned_usd_per_gpu_hour: round(owned, 4),
        cloud_usd_per_gpu_hour: cloud,
        cloud_price_source: cloud_source,
        break_even_months: round(break_even, 2),
        usd_per_hour: round(per_hour, 4),
        usd_per_million_requests: per_million,
        replicas_needed: needed,
        replicas_in_design: in_design,
        training_job_usd: None,
        training_job_cloud_usd: None,
        prices_note: "Unit prices are the design's part prices (copied from the built-in catalog when each part was \
                      added; edit a part in the design to override). Street prices move fast: check them."
            .into(),
    }
}
