//! Cost (docs/analysis.md, "Cost"): bill of materials, capex, yearly opex (energy with idle draw, colocation,
//! support), TCO over the depreciation period with residual value, owned $/GPU-hour against the cloud, break-even
//! net of the owner's running costs, cost per 1M requests.

use super::bandwidth::{BandwidthReport, main_gpu};
use super::format::round;
use super::power::PowerReport;
use crate::model::part::PartKind;
use crate::model::{Design, PartId, RackId};
use serde::Serialize;
use std::collections::BTreeMap;

/// Hours in a year.
pub const HOURS_PER_YEAR: f64 = 8760.0;
/// Hours in a month (8,760 / 12).
pub const HOURS_PER_MONTH: f64 = 730.0;

/// Cost section of the report.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CostReport {
    /// Bill of materials, by part id.
    pub bom: Vec<BomLine>,
    /// Links with no cable part, not priced.
    pub unpriced_links: usize,
    /// Capital cost, USD (spares included).
    pub capex_usd: f64,
    /// Lead times and spares.
    pub procurement: Procurement,
    /// Owned against cloud on demand and with 1- and 3-year commitments.
    pub options: Vec<CostOption>,
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
    /// Months until owning has paid for itself: capex / (monthly cloud spend - monthly owner opex); infinite (null
    /// in JSON) when the owner's opex is at or above the cloud bill.
    pub break_even_months: f64,
    /// The break-even in words: "14.2 months", or "never: ..." with the two monthly figures.
    pub break_even: String,
    /// Share of its maximum draw each class of device draws when idle, with its source, as the energy model uses it.
    pub idle_fractions: Vec<IdleFraction>,
    /// Owned cost per hour of the whole design, USD.
    pub usd_per_hour: f64,
    /// Cost per 1M requests at the utilisation target, USD, when the design has a service level.
    pub usd_per_million_requests: Option<f64>,
    /// Replicas needed for the request rate at the utilisation target, when serving.
    pub replicas_needed: Option<u64>,
    /// Replicas the design holds, when serving.
    pub replicas_in_design: Option<u64>,
    /// Serving: the utilisation the plan uses, the lower of the target and the largest the p99 allows; the
    /// replicas and the costs per request above are at this utilisation.
    pub serving_utilisation: Option<f64>,
    /// Serving: the design's owned cost over the requests asked (at the demand, not at capacity), per 1M, USD.
    pub usd_per_million_requests_at_demand: Option<f64>,
    /// Months until owning has paid for itself against each cloud option, with the residual value stated.
    pub break_even_by_option: Vec<BreakEven>,
    /// Cost of the design's training job on the owned cluster (wall-clock hours x GPUs x owned $/GPU-hour), USD.
    pub training_job_usd: Option<f64>,
    /// The same GPU-hours at the cloud price, USD.
    pub training_job_cloud_usd: Option<f64>,
    /// The prices used: every BOM unit price is the design's part price (copied from the catalog, overridable).
    pub prices_note: String,
}

impl CostReport {
    /// What a TCO figure leaves out, said beside it: support is 0% of capex a year unless the design sets it
    /// (`params.support_fraction_per_year`), so without it the TCO is understated. Empty when support is counted.
    pub fn support_note(&self) -> &'static str {
        if self.support_usd_per_year > 0.0 {
            ""
        } else {
            "; support not included (set it in Parameters)"
        }
    }
}

/// Break-even of owning against one cloud option.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BreakEven {
    /// Which cloud option, for code (reports show `option`).
    #[serde(skip)]
    pub kind: Acquisition,
    /// Its name ("cloud on demand", "cloud, 1-year commitment", ...).
    pub option: String,
    /// Its cost per month, USD.
    pub cloud_usd_per_month: f64,
    /// capex / (cloud per month - owner opex per month); None when the owner's opex reaches the cloud bill.
    pub months: Option<f64>,
    /// The same counting the residual value: (capex - residual) / (cloud - opex) per month.
    pub months_net_of_residual: Option<f64>,
    /// In words, with the residual value stated.
    pub text: String,
}

/// Idle draw of one class of device.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct IdleFraction {
    /// "GPU servers", "servers", "switches", "storage", "other".
    pub class: String,
    /// Idle draw / maximum draw.
    pub fraction: f64,
    /// Where the figure comes from ("estimate: ..." when it is ours).
    pub source: String,
}

/// Idle draw as a share of maximum draw, by class of device, with the source of each figure.
pub const IDLE_FRACTIONS: [(&str, f64, &str); 5] = [
    (
        "GPU servers",
        0.2,
        "estimate: idle GPUs draw about a tenth of their TDP (nvidia-smi readings), while CPUs, NVSwitches, NICs \
         and fans keep drawing; docs/analysis.md, \"Cost\"",
    ),
    (
        "servers",
        0.5,
        "estimate: servers without GPUs idle near half their peak (L. A. Barroso and U. Hoelzle, \"The Case for \
         Energy-Proportional Computing\", IEEE Computer 40(12), 2007)",
    ),
    (
        "switches",
        0.9,
        "estimate: switch power barely varies with traffic (P. Mahadevan et al., \"A Power Benchmarking Framework for \
         Network Devices\", IFIP Networking 2009)",
    ),
    (
        "storage",
        0.7,
        "estimate: drives and controllers stay powered when idle; docs/analysis.md, \"Cost\"",
    ),
    (
        "other",
        1.0,
        "assumption: PDUs, panels and optics draw the same at any load",
    ),
];

fn idle_class(design: &Design, device: &crate::model::Device) -> usize {
    match design.parts.get(&device.part).map(|p| &p.kind) {
        Some(PartKind::Server(_)) if !device.gpus.is_empty() => 0,
        Some(PartKind::Server(_)) => 1,
        Some(PartKind::Switch(_)) => 2,
        Some(PartKind::Storage(_)) => 3,
        _ => 4,
    }
}

/// Energy and colocation per year, USD. Racks are grouped by the rates they are charged at (their site's prices,
/// the PUE of their cooling mode; `rates::rate_groups`); each group's energy is [`energy_usd_per_year`] of its
/// devices and its colocation is its IT kW x price x 12. One group gives exactly the single-rate figures.
fn energy_and_colocation(design: &Design, power: &PowerReport, util: f64) -> (f64, f64) {
    let groups = super::rates::rate_groups(design);
    let group_of: rustc_hash::FxHashMap<RackId, usize> = groups
        .iter()
        .enumerate()
        .flat_map(|(g, (_, racks))| racks.iter().map(move |r| (*r, g)))
        .collect();
    let mut loads = vec![[(0.0, 0.0); IDLE_FRACTIONS.len()]; groups.len().max(1)];
    for group in &mut loads {
        for (l, (_, f, _)) in group.iter_mut().zip(IDLE_FRACTIONS) {
            l.1 = f;
        }
    }
    let mut it_kw = vec![0.0; groups.len().max(1)];
    for d in &power.devices {
        let Some(device) = design.devices.get(&d.device) else {
            continue;
        };
        let g = group_of.get(&device.rack).copied().unwrap_or(0);
        if let Some(l) = loads
            .get_mut(g)
            .and_then(|x| x.get_mut(idle_class(design, device)))
        {
            l.0 += d.power_w / 1000.0;
        }
        if let Some(k) = it_kw.get_mut(g) {
            *k += d.power_w / 1000.0;
        }
    }
    if let [(rates, _)] = groups.as_slice() {
        let l = loads.first().map_or(&[][..], |x| &x[..]);
        return (
            energy_usd_per_year(l, util, rates.pue, rates.usd_per_kwh),
            power.it_power_w / 1000.0 * rates.colocation_usd_per_kw_month * 12.0,
        );
    }
    let fallback = super::rates::Rates::of_design(design);
    let mut energy = 0.0;
    let mut colocation = 0.0;
    for (g, l) in loads.iter().enumerate() {
        let rates = groups.get(g).map_or(fallback, |x| x.0);
        energy += energy_usd_per_year(l, util, rates.pue, rates.usd_per_kwh);
        colocation +=
            it_kw.get(g).copied().unwrap_or(0.0) * rates.colocation_usd_per_kw_month * 12.0;
    }
    (energy, colocation)
}

/// Energy per year, USD: every device draws its maximum when busy and `idle` x maximum otherwise, busy a share `util`
/// of the time: sum of kW x (U + (1 - U) x idle) x PUE x 8,760 h x $/kWh. `loads` is (kW at maximum, idle fraction).
pub fn energy_usd_per_year(loads: &[(f64, f64)], util: f64, pue: f64, usd_per_kwh: f64) -> f64 {
    let kw: f64 = loads
        .iter()
        .map(|(kw, idle)| kw * (util + (1.0 - util) * idle))
        .sum();
    kw * pue * HOURS_PER_YEAR * usd_per_kwh
}

/// Months until owning pays for itself: capex / (cloud - owner opex) per month; None (never) when the owner's
/// running costs reach the cloud bill.
pub fn break_even_months(capex: f64, cloud_per_month: f64, opex_per_month: f64) -> Option<f64> {
    let saving = cloud_per_month - opex_per_month;
    (saving > 0.0).then(|| capex / saving)
}

/// One BOM line.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BomLine {
    /// The catalog part id (a key of the design's `parts`), e.g. "h100-sxm".
    pub part: String,
    /// The part's human name from its spec, e.g. "NVIDIA H100 SXM5 80GB".
    pub name: String,
    /// Cost category it adds to: GPUs, Servers, Network, Cables and optics, Storage, Racks and power, Cooling.
    pub category: String,
    /// Units installed in the design (racks, devices, slot parts and cables using this part), spares not included.
    pub quantity: u64,
    /// Unit price, USD.
    pub unit_usd: f64,
    /// (quantity + spares) x unit, USD.
    pub total_usd: f64,
    /// Source of the price.
    pub price_source: String,
    /// Spares bought beyond the installed quantity (the design's spares policy for this category).
    pub spares: u64,
    /// Weeks from order to delivery, when the part says.
    pub lead_time_weeks: Option<f64>,
    /// The vendor's part number, when the part says.
    pub part_number: Option<String>,
    /// The design's overrides of this part's catalog figures ("price overridden (catalog $30000.00)"), if any.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overridden: Vec<String>,
    /// The part's figures that give no source ("power_w", "gpu.memory_gb"): estimates, so reports say so.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unsourced: Vec<String>,
}

/// How the design's GPUs are had: owned, or rented in the cloud on demand or with a commitment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Acquisition {
    /// Bought and run by the owner.
    Owned,
    /// Rented by the hour with no commitment.
    CloudOnDemand,
    /// Rented with a one-year commitment (the design's 1-year discount).
    Cloud1Year,
    /// Rented with a three-year commitment (the design's 3-year discount).
    Cloud3Year,
}

impl Acquisition {
    /// The option's name as reports write it.
    pub fn label(self) -> &'static str {
        match self {
            Acquisition::Owned => "owned",
            Acquisition::CloudOnDemand => "cloud on demand",
            Acquisition::Cloud1Year => "cloud, 1-year commitment",
            Acquisition::Cloud3Year => "cloud, 3-year commitment",
        }
    }

    /// A word or two for a chart's axis.
    pub fn short_label(self) -> &'static str {
        match self {
            Acquisition::Owned => "owned",
            Acquisition::CloudOnDemand => "cloud",
            Acquisition::Cloud1Year => "1-year",
            Acquisition::Cloud3Year => "3-year",
        }
    }
}

/// One way to get the design's GPUs: own them, or rent them in the cloud on demand or with a commitment.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CostOption {
    /// Which option, for code (reports show `option`).
    #[serde(skip)]
    pub kind: Acquisition,
    /// Its name: "owned", "cloud on demand", "cloud, 1-year commitment", "cloud, 3-year commitment".
    pub option: String,
    /// Cost per GPU-hour used (at the utilisation target), USD.
    pub usd_per_used_gpu_hour: f64,
    /// Cost per year for the design's GPUs, USD.
    pub usd_per_year: f64,
    /// Cash out per month for the first 36 months, USD (owned: the capex in month 1, then the running costs).
    pub monthly_usd: Vec<f64>,
    /// Cost per 1M requests at the planned load, when the design serves.
    pub usd_per_million_requests: Option<f64>,
    /// Cost per 1M tokens, when the serving parameters say how many tokens a request produces.
    pub usd_per_million_tokens: Option<f64>,
}

/// The ways to get GPUs compared (docs/analysis.md, "Cost"): owning them (capex less resale over the depreciation
/// period, plus running costs); cloud on demand (pay the hours used); cloud with a 1- or 3-year commitment (pay
/// every hour at the discounted price).
#[allow(clippy::too_many_arguments)]
pub fn cost_options(
    capex: f64,
    yearly_owned: f64,
    opex: f64,
    gpus: f64,
    util: f64,
    cloud: f64,
    discounts: (f64, f64),
    served_per_hour: Option<f64>,
    tokens_per_request: f64,
) -> Vec<CostOption> {
    let used_hours = gpus * HOURS_PER_YEAR * util;
    let per_used = |per_year: f64| {
        if used_hours > 0.0 {
            per_year / used_hours
        } else {
            0.0
        }
    };
    let per_m = |per_year: f64| {
        served_per_hour
            .filter(|r| *r > 0.0)
            .map(|r| round(per_year / HOURS_PER_YEAR / r * 1e6, 4))
    };
    // A million tokens is 1e6 / tokens-per-request requests.
    let per_m_tokens = |per_year: f64| {
        served_per_hour
            .filter(|r| *r > 0.0 && tokens_per_request > 0.0)
            .map(|r| {
                round(
                    per_year / HOURS_PER_YEAR / (r * tokens_per_request) * 1e6,
                    4,
                )
            })
    };
    let mut out = Vec::new();
    let mut owned_months = vec![opex / 12.0; 36];
    if let Some(m) = owned_months.first_mut() {
        *m += capex;
    }
    out.push(CostOption {
        kind: Acquisition::Owned,
        option: Acquisition::Owned.label().into(),
        usd_per_used_gpu_hour: round(per_used(yearly_owned), 4),
        usd_per_year: round(yearly_owned, 2),
        monthly_usd: owned_months.into_iter().map(|m| round(m, 2)).collect(),
        usd_per_million_requests: per_m(yearly_owned),
        usd_per_million_tokens: per_m_tokens(yearly_owned),
    });
    let on_demand = cloud * used_hours;
    out.push(CostOption {
        kind: Acquisition::CloudOnDemand,
        option: Acquisition::CloudOnDemand.label().into(),
        usd_per_used_gpu_hour: round(cloud, 4),
        usd_per_year: round(on_demand, 2),
        monthly_usd: vec![round(on_demand / 12.0, 2); 36],
        usd_per_million_requests: per_m(on_demand),
        usd_per_million_tokens: per_m_tokens(on_demand),
    });
    for (kind, d) in [
        (Acquisition::Cloud1Year, discounts.0),
        (Acquisition::Cloud3Year, discounts.1),
    ] {
        let year = cloud * (1.0 - d) * gpus * HOURS_PER_YEAR;
        out.push(CostOption {
            kind,
            option: kind.label().into(),
            usd_per_used_gpu_hour: round(per_used(year), 4),
            usd_per_year: round(year, 2),
            monthly_usd: vec![round(year / 12.0, 2); 36],
            usd_per_million_requests: per_m(year),
            usd_per_million_tokens: per_m_tokens(year),
        });
    }
    out
}

/// When the design can be live: its longest lead time and the parts that set it.
#[derive(Debug, Clone, Serialize, Default)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Procurement {
    /// The longest lead time of any part in the BOM, weeks (None when no part gives one).
    pub earliest_live_weeks: Option<f64>,
    /// Parts with that lead time.
    pub limiting_parts: Vec<String>,
    /// Parts with no lead time recorded.
    pub unknown_lead_time: Vec<String>,
    /// Capex of the spares, USD (included in the capex).
    pub spares_usd: f64,
}

fn category(kind: &PartKind) -> &'static str {
    match kind {
        PartKind::Gpu(_) => "GPUs",
        PartKind::Server(_) => "Servers",
        PartKind::Nic(_) | PartKind::Switch(_) => "Network",
        PartKind::Cable(_) | PartKind::Transceiver(_) => "Cables and optics",
        PartKind::Storage(_) => "Storage",
        PartKind::Rack(_) | PartKind::Pdu(_) | PartKind::PatchPanel(_) => "Racks and power",
        PartKind::Cdu(_) => "Cooling",
    }
}

/// The cost section: capital cost by category, the running costs, TCO, cost per GPU-hour and the cloud options.
/// The cost model's chain of formulas (docs/analysis.md, "Cost"), each figure read from the ones before it in the
/// order the document derives them: quantities, the bill of materials, the running costs, the cloud and serving
/// figures.
pub(crate) fn analyze(
    design: &Design,
    power: &PowerReport,
    bw: &BandwidthReport,
    builds: &super::physical::Builds<'_>,
) -> CostReport {
    let p = &design.params;
    let (qty, unpriced_links) = quantities(design, builds);
    let Capital {
        bom,
        capex,
        by_cat,
        mut procurement,
    } = capital(design, qty);
    let util = design.params.utilisation_target;
    let (energy, colocation) = energy_and_colocation(design, power, util);
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
    let (cloud, cloud_source) = cloud_price(design);
    let cloud_month = cloud * gpus * HOURS_PER_MONTH * util;
    let opex_month = opex / 12.0;
    let break_even = break_even_months(capex, cloud_month, opex_month);
    let break_even_text = match break_even {
        Some(m) => format!("{m:.1} months"),
        None => format!(
            "never: the owner's running costs ({}/month) reach the cloud bill ({}/month)",
            super::format::usd(opex_month),
            super::format::usd(cloud_month)
        ),
    };
    let break_even = break_even.unwrap_or(f64::INFINITY);
    let per_hour = yearly_owned / HOURS_PER_YEAR;
    let (per_million, needed, in_design) = serving_costs(design, bw.gpus, util, per_hour);
    procurement.spares_usd = round(procurement.spares_usd, 2);
    let served_per_hour = p.serving.as_ref().map(|s| {
        let replicas = (bw.gpus as u64) / u64::from(s.gpus_per_replica.max(1));
        // Requests an hour at the planned utilisation (as usd_per_million_requests counts them).
        replicas as f64 * s.throughput_for(main_gpu(design).as_ref()) * util * 3600.0
    });
    let options = cost_options(
        capex,
        yearly_owned,
        opex,
        gpus,
        util,
        cloud,
        (p.reserved_1y_discount, p.reserved_3y_discount),
        served_per_hour,
        p.serving.as_ref().map_or(0.0, |s| s.tokens_per_request),
    );
    CostReport {
        options,
        bom,
        unpriced_links,
        capex_usd: round(capex, 2),
        procurement,
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
        break_even: break_even_text,
        idle_fractions: IDLE_FRACTIONS
            .iter()
            .map(|(class, fraction, source)| IdleFraction {
                class: (*class).to_string(),
                fraction: *fraction,
                source: (*source).to_string(),
            })
            .collect(),
        usd_per_hour: round(per_hour, 4),
        usd_per_million_requests: per_million,
        replicas_needed: needed,
        replicas_in_design: in_design,
        serving_utilisation: p.serving.as_ref().map(|_| util),
        usd_per_million_requests_at_demand: None,
        break_even_by_option: Vec::new(),
        training_job_usd: None,
        training_job_cloud_usd: None,
        prices_note: "Unit prices are the design's part prices (copied from the built-in catalog when each part was \
                      added; edit a part in the design to override). Street prices move fast: check them."
            .into(),
    }
}

/// How many of each part the design uses (racks, devices, their GPUs and NICs, cables and transceivers per cage),
/// sorted by part, and the links with no cable part (unpriced).
fn quantities<'d>(
    design: &'d Design,
    builds: &'d super::physical::Builds,
) -> (Vec<(&'d PartId, u64)>, usize) {
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
    // Transceivers per cage: a twin-port one carries the two links of its cage.
    for (part, n) in super::physical::transceiver_counts(builds) {
        *qty.entry(part).or_default() += n;
    }
    let mut qty: Vec<(&PartId, u64)> = qty.into_iter().collect();
    qty.sort();
    (qty, unpriced_links)
}

/// The capital side of the cost: the bill of materials with spares, its total and totals by category, and the
/// procurement figures (spares' cost, lead times).
struct Capital {
    bom: Vec<BomLine>,
    capex: f64,
    by_cat: BTreeMap<String, f64>,
    procurement: Procurement,
}

/// The [`Capital`] of the parts in `qty` at the design's prices and spares.
fn capital(design: &Design, qty: Vec<(&PartId, u64)>) -> Capital {
    let p = &design.params;
    let mut bom = Vec::new();
    let mut capex = 0.0;
    let mut by_cat: BTreeMap<String, f64> = BTreeMap::new();
    let mut procurement = Procurement::default();
    for (part, q) in qty {
        let Some(spec) = design.parts.get(part) else {
            continue;
        };
        let cat = category(&spec.kind);
        let spares = p.spares.get(cat).map_or(0, |s| s.for_quantity(q));
        procurement.spares_usd += spec.price_usd * spares as f64;
        match spec.lead_time_weeks {
            Some(w) => match procurement.earliest_live_weeks {
                Some(best) if w < best => {}
                Some(best) if (w - best).abs() < 1e-9 => {
                    procurement.limiting_parts.push(part.0.to_string())
                }
                _ => {
                    procurement.earliest_live_weeks = Some(w);
                    procurement.limiting_parts = vec![part.0.to_string()];
                }
            },
            None => procurement.unknown_lead_time.push(part.0.to_string()),
        }
        let total = spec.price_usd * (q + spares) as f64;
        capex += total;
        *by_cat.entry(cat.to_string()).or_default() += total;
        bom.push(BomLine {
            part: part.0.to_string(),
            name: spec.name.clone(),
            category: cat.to_string(),
            quantity: q,
            unit_usd: spec.price_usd,
            total_usd: round(total, 2),
            price_source: crate::catalog::figures::source_or_estimate(spec, "price_usd"),
            spares,
            lead_time_weeks: spec.lead_time_weeks,
            part_number: spec.part_number.clone(),
            overridden: crate::catalog::figures::override_notes(spec),
            unsourced: crate::catalog::figures::unsourced(spec),
        });
    }
    Capital {
        bom,
        capex,
        by_cat,
        procurement,
    }
}

/// The cloud price per GPU-hour and where it comes from: the design's parameter, else the main GPU's catalog
/// figure.
fn cloud_price(design: &Design) -> (f64, String) {
    match design.params.cloud_usd_per_gpu_hour {
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
    }
}

/// Serving's cost figures: the cost per 1M requests at `per_hour`, the replicas the request rate needs and those
/// the design's `gpus` hold (all None without a serving workload).
fn serving_costs(
    design: &Design,
    gpus: usize,
    util: f64,
    per_hour: f64,
) -> (Option<f64>, Option<u64>, Option<u64>) {
    match &design.params.serving {
        Some(s) => {
            let replicas = (gpus as u64) / u64::from(s.gpus_per_replica.max(1));
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
    }
}

/// Break-even of owning against each cloud option of `cost.options` (every option but the first, owned):
/// months = capex / (option per month - owner opex per month), and net of the residual value the owner keeps
/// after the depreciation period, (capex - residual) / (option - opex). Never when the opex reaches the option.
pub fn break_even_by_option(cost: &CostReport) -> Vec<BreakEven> {
    let opex_month = cost.opex_usd_per_year / 12.0;
    let capex = cost.capex_usd;
    let residual = cost.residual_usd;
    cost.options
        .iter()
        .skip(1)
        .map(|o| {
            let month = o.usd_per_year / 12.0;
            let months = break_even_months(capex, month, opex_month).map(|m| round(m, 2));
            let net = break_even_months(capex - residual, month, opex_month).map(|m| round(m, 2));
            let text = match (months, net) {
                (Some(m), Some(n)) => format!(
                    "{m:.1} months against {} ({}/month); {n:.1} counting the {} the hardware is still worth \
                     after {} years (residual value)",
                    o.option,
                    super::format::usd(month),
                    super::format::usd(residual),
                    cost.years
                ),
                _ => format!(
                    "never against {}: the owner's running costs ({}/month) reach its {}/month",
                    o.option,
                    super::format::usd(opex_month),
                    super::format::usd(month)
                ),
            };
            BreakEven {
                kind: o.kind,
                option: o.option.clone(),
                cloud_usd_per_month: round(month, 2),
                months,
                months_net_of_residual: net,
                text,
            }
        })
        .collect()
}

/// The serving figures at the utilisation the plan uses (`planned`, from the latency analysis: the lower of the
/// design's target and the largest utilisation that keeps the p99 under its target). The cost section alone
/// only knows the target: at 400 req/s, 10 per replica and a 1 s p99 it priced ceil(400 / (10 x 0.7)) = 58
/// replicas while the p99 allows 1 - ln(100) / 10 = 0.5395 and the plan needs ceil(400 / 5.395) = 75.
/// Replicas needed, cost per 1M requests at capacity (the design's replicas at `planned`), at the demand (the
/// requests asked), and each option's cost per 1M requests follow the plan.
pub(crate) fn serving_at_plan(
    cost: &mut CostReport,
    design: &Design,
    bw: &BandwidthReport,
    planned: f64,
) {
    let Some(s) = &design.params.serving else {
        return;
    };
    let x = s.throughput_for(main_gpu(design).as_ref());
    let replicas = (bw.gpus as u64) / u64::from(s.gpus_per_replica.max(1));
    cost.serving_utilisation = Some(round(planned, 6));
    cost.replicas_needed = Some(if x > 0.0 && planned > 0.0 {
        (s.request_rate_rps / (x * planned)).ceil() as u64
    } else {
        0
    });
    let per_hour = cost.usd_per_hour;
    let capacity_per_hour = replicas as f64 * x * planned * 3600.0;
    cost.usd_per_million_requests =
        (capacity_per_hour > 0.0).then(|| round(per_hour / capacity_per_hour * 1e6, 4));
    cost.usd_per_million_requests_at_demand = (s.request_rate_rps > 0.0)
        .then(|| round(per_hour / (s.request_rate_rps * 3600.0) * 1e6, 4));
    for o in &mut cost.options {
        if capacity_per_hour > 0.0 {
            o.usd_per_million_requests = Some(round(
                o.usd_per_year / HOURS_PER_YEAR / capacity_per_hour * 1e6,
                4,
            ));
            if s.tokens_per_request > 0.0 {
                o.usd_per_million_tokens = Some(round(
                    o.usd_per_year / HOURS_PER_YEAR / (capacity_per_hour * s.tokens_per_request)
                        * 1e6,
                    4,
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn energy_counts_idle_draw() {
        // 10 kW of GPU servers idling at 0.2 and 1 kW of switches idling at 0.9, busy 70% of the time, PUE 1.2,
        // $0.10/kWh: 10 x (0.7 + 0.3 x 0.2) + 1 x (0.7 + 0.3 x 0.9) = 7.6 + 0.97 = 8.57 kW average;
        // 8.57 x 1.2 x 8,760 x 0.10 = 9,008.78 USD a year (the busy-only model said 11 x 0.7 x ... = 8,094.24).
        let e = energy_usd_per_year(&[(10.0, 0.2), (1.0, 0.9)], 0.7, 1.2, 0.10);
        assert!((e - 9_008.784).abs() < 1e-6, "{e}");
        // Always busy: idle draw does not matter.
        let full = energy_usd_per_year(&[(10.0, 0.2), (1.0, 0.9)], 1.0, 1.2, 0.10);
        assert!((full - 11.0 * 1.2 * 876.0).abs() < 1e-6);
    }

    #[test]
    fn break_even_is_net_of_owner_opex() {
        // $1M capex, cloud $100k/month, owner $40k/month: 1,000,000 / 60,000 = 16.67 months.
        let m = break_even_months(1e6, 1e5, 4e4).unwrap();
        assert!((m - 16.666_666).abs() < 1e-4);
        // Owner opex at or above the cloud bill: never.
        assert!(break_even_months(1e6, 1e5, 1e5).is_none());
        assert!(break_even_months(1e6, 1e5, 2e5).is_none());
    }
}
