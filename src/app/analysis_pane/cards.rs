//! The headline cards of the analysis pane: each figure against its target, coloured by the findings that concern
//! it (so a card never reads green above its own warning), with its formula as a tooltip.

use super::super::theme::Status;
use super::super::widgets::{Card, card};
use crate::analysis::findings::{self, Headline};
use crate::analysis::format::{self, usd};
use crate::analysis::pattern::Pattern;
use crate::analysis::{Report, Severity};
use crate::model::Design;

/// Colours a card by the findings that concern it (the worse of its own figure and the most severe finding) and
/// names them on the card, so a headline never reads green above its own warning.
fn apply_findings(c: &mut Card, r: &Report, headline: Headline) {
    let list = findings::concerning(&r.findings, headline);
    let Some(worst) = list.first() else {
        return;
    };
    let from_finding = match worst.severity {
        Severity::Error => Status::Bad,
        _ => Status::Short,
    };
    c.status = match (c.status, from_finding) {
        (Status::Bad, _) | (_, Status::Bad) => Status::Bad,
        _ => Status::Short,
    };
    let mut labels: Vec<&str> = Vec::new();
    for f in &list {
        let l = findings::short_label(&f.code);
        if !labels.contains(&l) {
            labels.push(l);
        }
    }
    let errors = list
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let warnings = list.len() - errors;
    let mut counts = Vec::new();
    if errors > 0 {
        counts.push(format::count(errors, "error", "errors"));
    }
    if warnings > 0 {
        counts.push(format::count(warnings, "warning", "warnings"));
    }
    c.concerns = format!("{}: {}", counts.join(", "), labels.join(", "));
    c.tip.push_str("\n\nFindings that concern this figure:");
    for f in &list {
        c.tip.push_str(&format!("\n• {}", f.message));
    }
}

/// A headline card as drawn: its texts and status word (for tests and the frame benchmark).
#[derive(Debug, Clone)]
pub struct CardView {
    /// What the figure is, as the card heads it ("Bottleneck").
    pub title: String,
    /// The figure in its unit, as drawn ("6.2 of 50.0 GB/s").
    pub value: String,
    /// The line under it.
    pub sub: String,
    /// "good", "short", "bad" or "info".
    pub status: &'static str,
    /// The warnings and errors that concern it, in a few words (empty when none).
    pub concerns: String,
    /// The tooltip: the formula and its inputs.
    pub tip: String,
}

/// The headline cards of a report, as the pane draws them.
pub fn card_views(design: &Design, r: &Report, pattern: Pattern) -> Vec<CardView> {
    summary_cards(design, r, pattern)
        .into_iter()
        .map(|c| CardView {
            status: c.status.word(),
            title: c.title,
            value: c.value,
            sub: c.sub,
            concerns: c.concerns,
            tip: c.tip,
        })
        .collect()
}

/// The headline cards as they are made, each with the headline its findings attach to.
#[derive(Default)]
struct Headlines(Vec<(Headline, Card)>);

impl Headlines {
    fn push(
        &mut self,
        h: Headline,
        title: &str,
        value: String,
        sub: String,
        status: Status,
        tip: String,
    ) {
        let mut one = Vec::new();
        card(&mut one, title, value, sub, status, tip);
        self.0.extend(one.into_iter().map(|c| (h, c)));
    }
}

/// The headline cards, each coloured by its figure against its target and by the findings that concern it.
pub(super) fn summary_cards(design: &Design, r: &Report, pattern: Pattern) -> Vec<Card> {
    let mut cards = Headlines::default();
    fabric_cards(&mut cards, r, pattern);
    cost_cards(&mut cards, design, r);
    cards
        .0
        .into_iter()
        .map(|(h, mut c)| {
            apply_findings(&mut c, r, h);
            c
        })
        .collect()
}

/// The fabric's cards: GPUs, bisection, the bottleneck under the pattern, p99 latency.
fn fabric_cards(cards: &mut Headlines, r: &Report, pattern: Pattern) {
    let s = &r.summary;
    cards.push(
        Headline::Gpus,
        "GPUs",
        if s.gpus == 0 {
            "no GPUs".to_string()
        } else {
            format::count(s.gpus, "GPU", "GPUs")
        },
        format!(
            "{}, {}",
            format::count(s.gpu_servers, "server", "servers"),
            format::count(s.switches, "switch", "switches")
        ),
        Status::Info,
        "GPUs installed in server GPU slots (sum over servers).".into(),
    );
    // A design whose GPUs cannot reach each other (or that has none) shows so instead of a figure between GPUs:
    // never a green verdict or a time of zero (`GpuNetwork`).
    let unconnected = s.gpu_network.instead_of_figure().map(|word| {
        let status = match s.gpu_network {
            crate::analysis::GpuNetwork::NotConnected => Status::Bad,
            _ => Status::Info,
        };
        (word.to_string(), s.gpu_network.why(s.gpu_islands), status)
    });
    let b = &r.bandwidth.bisection;
    let (value, sub, status) = match &unconnected {
        Some(u) => u.clone(),
        None if b.method.starts_with("not applicable") => (
            "not applicable".to_string(),
            b.per_gpu_text(s.gpus, r.bandwidth.full_bisection_gbps()),
            Status::Info,
        ),
        None => (
            b.tbit_s_text(),
            b.per_gpu_text(s.gpus, r.bandwidth.full_bisection_gbps()),
            Status::Info,
        ),
    };
    cards.push(
        Headline::Bisection,
        "Bisection",
        value,
        sub,
        status,
        format!(
            "{}\n= {} Gb/s; per GPU = bisection / 8 bits per byte / GPUs\nratio = what a full-bisection fabric \
             carries across the cut (the smaller half's compute NICs: {} Gb/s) / bisection",
            b.method,
            format::thousands(s.bisection_gbps, 0),
            format::thousands(r.bandwidth.full_bisection_gbps(), 0)
        ),
    );
    let (value, sub, status, tip) = bottleneck_card(r, pattern);
    let (value, sub, status) = match &unconnected {
        Some(u) => u.clone(),
        None => (value, sub, status),
    };
    cards.push(Headline::Bottleneck, "Bottleneck", value, sub, status, tip);
    let (value, sub, status) = match &unconnected {
        Some(u) => u.clone(),
        None => (
            if s.p99_latency_us.is_finite() {
                format!("{:.2} µs", s.p99_latency_us)
            } else {
                "saturated".to_string()
            },
            format!("all-reduce {:.2} ms", s.allreduce_ms),
            Status::Info,
        ),
    };
    cards.push(
        Headline::Latency,
        "p99 latency",
        value,
        sub,
        status,
        format!(
            "Worst p99 over path classes: software + NIC + switch hops + serialisation + propagation + M/M/1 queueing at {:.0}% utilisation ({} B messages).\nAll-reduce: {} ({}).",
            r.latency.utilisation * 100.0,
            r.latency.message_bytes,
            r.latency.allreduce.method(),
            r.latency.allreduce.best
        ),
    );
}

/// The cost and facility cards: power, capex, $/GPU-hour and availability.
fn cost_cards(cards: &mut Headlines, design: &Design, r: &Report) {
    let s = &r.summary;
    let power_status = if s.power_budget_kw > 0.0 {
        Status::of_use(s.it_power_kw / s.power_budget_kw)
    } else {
        Status::Info
    };
    cards.push(
        Headline::Power,
        "Power",
        format!("{:.1} / {:.1} kW", s.it_power_kw, s.power_budget_kw),
        format!("facility {:.1} kW", r.power.facility_power_w / 1000.0),
        power_status,
        format!(
            "IT power = Σ devices (part max draw + GPUs + NICs in slots) + optics = {:.1} kW\nbudget = Σ rack budgets = {:.1} kW\nfacility = IT × PUE {}\nGreen up to 90% of the budget, amber to 100%, red over it.",
            s.it_power_kw, s.power_budget_kw, r.power.pue
        ),
    );
    cards.push(
        Headline::Capex,
        "Capex",
        usd(s.capex_usd),
        if s.gpus == 0 {
            "no GPUs to divide it by".to_string()
        } else {
            format!("{} per GPU", usd(s.capex_usd / s.gpus as f64))
        },
        Status::Info,
        "Capex = Σ over the bill of materials of quantity × unit price (catalog or design override).".into(),
    );
    let cloud = r.cost.cloud_usd_per_gpu_hour;
    cards.push(
        Headline::CostPerGpuHour,
        "$/GPU-hour",
        if s.gpus == 0 {
            "no GPUs".to_string()
        } else {
            format!("${:.2}", s.usd_per_gpu_hour)
        },
        format!("cloud ${cloud:.2}"),
        owned_cost_status(s.usd_per_gpu_hour, cloud, s.gpus),
        format!(
            "{}\ncloud: {}\nGreen at or below the cloud price, amber up to 1.5×, red beyond.",
            owned_cost_formula(r, design.params.utilisation_target, s.gpus),
            r.cost.cloud_price_source
        ),
    );
    if let Some((value, sub, status, tip)) = availability_card(r) {
        cards.push(
            Headline::Availability,
            "Availability",
            value,
            sub,
            status,
            tip,
        );
    }
}

/// The service's availability over its sites and what losing one costs, or the single points of failure of a
/// one-site design (None when the design has neither sites nor a fabric to fail).
fn availability_card(r: &Report) -> Option<(String, String, Status, String)> {
    let st = &r.sites;
    if let Some(a) = st.service_availability {
        let status = match st.availability_target {
            Some(t) if a + 1e-12 < t => Status::Bad,
            Some(_) => Status::Good,
            None => Status::Info,
        };
        let worst = st
            .sites
            .iter()
            .filter_map(|x| Some((x, x.capacity_without_rps?)))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        let lose = match (st.demand_rps, worst) {
            (Some(d), Some((site, left))) if left + 1e-9 < d => {
                format!("losing {} leaves {left:.0} of {d:.0} req/s", site.name)
            }
            (Some(_), Some(_)) => "survives the loss of any one site".to_string(),
            _ => format::count(st.sites.len(), "site", "sites"),
        };
        let per_site: String = st
            .sites
            .iter()
            .filter_map(|x| {
                Some(format!(
                    "\n• without {}: {} replicas, {:.0} req/s",
                    x.name, x.replicas_without?, x.capacity_without_rps?
                ))
            })
            .collect();
        return Some((
            format!("{:.3}%", a * 100.0),
            lose,
            status,
            format!(
                "Service availability: the probability that the sites up carry the demand{}, from each site's \
                 availability (sites failing independently){}.\n{}{per_site}",
                st.demand_rps
                    .map_or(String::new(), |d| format!(" ({d:.0} req/s)")),
                st.availability_target
                    .map_or(String::new(), |t| format!("; target {:.3}%", t * 100.0)),
                crate::analysis::sites::FRONT_END
            ),
        ));
    }
    if r.summary.gpu_servers < 2 {
        return None;
    }
    if r.summary.gpu_network == crate::analysis::GpuNetwork::NotConnected {
        return Some((
            "not connected".to_string(),
            r.summary.gpu_network.why(r.summary.gpu_islands),
            Status::Bad,
            "The GPU servers do not all reach each other over the network, so there is no one fabric whose single \
             points of failure could be counted: cable every server's compute NICs to the fabric."
                .into(),
        ));
    }
    let Some(sf) = &r.single_failures else {
        return Some((
            "ranking…".to_string(),
            "single failures by what each costs".to_string(),
            Status::Info,
            "Every switch, cable, storage appliance and rack feed is being ranked by what its loss costs, off the \
             UI thread."
                .into(),
        ));
    };
    let Some(worst) = sf.worst.first() else {
        return Some((
            "no single point".to_string(),
            "of failure: no single switch, cable, storage or feed loss costs anything".to_string(),
            Status::Good,
            format!(
                "Every switch, cable, storage appliance and rack feed ({} parts) was ranked by what its loss costs \
                 (GPUs cut off, storage, replicas, network per GPU, bisection): none loses anything.",
                sf.candidates
            ),
        ));
    };
    let (cut, storage, replicas, _, _, _) = crate::analysis::whatif::severity(worst);
    let who = if worst.alike.is_empty() {
        worst.what.clone()
    } else {
        format!("{} (or {} more like it)", worst.what, worst.alike.len())
    };
    Some((
        format::count(
            sf.classes,
            "kind of single failure",
            "kinds of single failure",
        ),
        format!("worst single failure: {who}, {}", worst.cost_in_words()),
        if cut > 0 || storage > 0 || replicas > 0 {
            Status::Bad
        } else {
            Status::Short
        },
        format!(
            "Every switch, cable, storage appliance and rack feed ({} parts) ranked by what its loss costs: GPUs cut \
             off, GPUs cut off from storage, replicas, network per GPU, bisection, storage per GPU, in that order. \
             {} lose something; the worst: {}. One-pass estimates from this analysis; View > Failure what-ifs \
             analyses the worst in full.",
            sf.candidates,
            format::count(sf.classes, "class of parts", "classes of parts"),
            worst.summary()
        ),
    ))
}

/// The owned $/GPU-hour's colour against the cloud price: green at or below it, amber up to 1.5×, red beyond
/// (the headline card and the planning window).
pub(in crate::app) fn owned_cost_status(owned: f64, cloud: f64, gpus: usize) -> Status {
    if cloud <= 0.0 || gpus == 0 {
        Status::Info
    } else if owned <= cloud {
        Status::Good
    } else if owned <= cloud * 1.5 {
        Status::Short
    } else {
        Status::Bad
    }
}

/// The owned $/GPU-hour formula with the report's figures.
pub(in crate::app) fn owned_cost_formula(r: &Report, utilisation: f64, gpus: usize) -> String {
    format!(
        "owned $/GPU-h = ((capex - residual) / years + opex/yr) / (GPUs × 8760 h × utilisation)\n= (({} - {}) / {} + {}) / ({} × 8760 × {:.2})",
        usd(r.cost.capex_usd),
        usd(r.cost.residual_usd),
        r.cost.years,
        usd(r.cost.opex_usd_per_year),
        gpus,
        utilisation
    )
}

/// The Bottleneck card for the toolbar's traffic pattern: value, line under it, status and tooltip.
fn bottleneck_card(r: &Report, pattern: Pattern) -> (String, String, Status, String) {
    let Some(f) = crate::analysis::bandwidth::pattern_figures(&r.bandwidth, pattern) else {
        return (
            "no GPU traffic".into(),
            pattern.label().into(),
            Status::Info,
            format!(
                "No GPU traffic of this pattern ({}) in the design.",
                pattern.label()
            ),
        );
    };
    let status = Status::of_achieved(f.achieved_gbyte_s, f.demand_gbyte_s);
    (
        format!("{:.1} of {:.1} GB/s", f.achieved_gbyte_s, f.demand_gbyte_s),
        f.limiter.clone(),
        status,
        format!(
            "Per-GPU bandwidth under \"{}\" (the toolbar's link-load pattern) against what each GPU should get.\n\
             achieved = min over the hops on its path (NVLink, PCIe, NIC, fabric) = {:.1} GB/s\n\
             target = {:.1} GB/s\n\
             Green when balanced, amber when short, red below half the target.\n\n{}",
            f.name, f.achieved_gbyte_s, f.demand_gbyte_s, f.limiter
        ),
    )
}
