//! Sites and availability (docs/analysis.md, "Sites and availability"): a design may spread its racks over sites
//! (data halls, regions), each up a share of the time. For a service, what the serving replicas still connected
//! carry in each combination of sites up ([`ServingNet`]: a lost site takes its switches, storage and cables with
//! it) decides which combinations still meet the demand; the service's availability is the probability of being in
//! one of them (sites failing independently: sum over the up-sets of the product of a for the up sites and 1 - a for
//! the down ones). The Availability card, the Sites window, the HTML report and `whatif --lose-site` all read these
//! figures. Findings when losing any one site leaves less than the demand, and when the availability misses the
//! target.
use super::finding::{Finding, FindingCode, Severity};
use super::format::round;
use super::latency::LatencyReport;
use crate::model::{Design, RackId};
use serde::Serialize;
use std::collections::BTreeMap;

/// What counts as serving, in the words the window and the HTML report use ([`ServingNet`]).
pub const FRONT_END: &str = "A replica counts only when its servers reach, over the devices and cables left, the \
     service's front end (a switch: requests come in through the switch fabric, as the design has no separate \
     front-end network) and, when the traffic reads from storage, a storage appliance. Losing a site takes its \
     servers, switches, storage and cables with it.";

/// Sites enumerated exactly up to this many (2^n combinations); above, the report gives no availability.
pub const MAX_SITES_EXACT: usize = 16;

/// One site's figures.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SiteFigures {
    /// The site's key in the design's `sites` map, which racks name in their `site` field.
    pub name: String,
    /// The site's region as the design gives it (`Site::region`, e.g. "eu-west"), for display.
    pub region: String,
    /// Share of the time it is up.
    pub availability: f64,
    /// Racks in it.
    pub racks: usize,
    /// GPUs in it.
    pub gpus: usize,
    /// Its serving replicas that reach the front end (and storage, when the traffic reads from it) with every
    /// site up ([`ServingNet`]), when the design serves.
    pub replicas: Option<u64>,
    /// Serving replicas left in the whole design when this site is lost (with its switches, storage and cables).
    pub replicas_without: Option<u64>,
    /// Requests per second its serving replicas carry at the planned utilisation, when the design serves.
    pub capacity_rps: Option<f64>,
    /// Requests per second the serving replicas left carry when this site is lost.
    pub capacity_without_rps: Option<f64>,
}

impl SiteFigures {
    /// What the site serves and what is left without it, as the Sites window writes it ("128 GPUs, 128 replicas
    /// serving: 896 req/s; without this site: 120 replicas left, 840 req/s"); None when the design does not serve.
    pub fn serving_text(&self) -> Option<String> {
        use super::format::count;
        Some(format!(
            "{}, {} serving: {:.0} req/s; without this site: {} left, {:.0} req/s",
            count(self.gpus, "GPU", "GPUs"),
            count(
                usize::try_from(self.replicas?).unwrap_or(usize::MAX),
                "replica",
                "replicas"
            ),
            self.capacity_rps?,
            count(
                usize::try_from(self.replicas_without?).unwrap_or(usize::MAX),
                "replica",
                "replicas"
            ),
            self.capacity_without_rps?
        ))
    }
}

/// Sites section of the report (empty when the design has no sites).
#[derive(Debug, Clone, Serialize, Default)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SitesReport {
    /// One entry per site of the design, in name order.
    pub sites: Vec<SiteFigures>,
    /// Requests per second the service must carry.
    pub demand_rps: Option<f64>,
    /// Probability that the sites up carry the demand, when the design serves.
    pub service_availability: Option<f64>,
    /// The target, when set.
    pub availability_target: Option<f64>,
}

/// Probability that a set of independent sites, each up with its availability, is in a state where `ok(up)`
/// holds: the sum over up-sets of the product of a_i (up) and 1 - a_i (down).
pub fn availability_of(avail: &[f64], ok: impl Fn(&[bool]) -> bool) -> f64 {
    let n = avail.len();
    let mut total = 0.0;
    let mut up = vec![false; n];
    for mask in 0u32..(1u32 << n) {
        let mut p = 1.0;
        for (i, a) in avail.iter().enumerate() {
            let on = mask & (1 << i) != 0;
            if let Some(u) = up.get_mut(i) {
                *u = on;
            }
            p *= if on { *a } else { 1.0 - a };
        }
        if ok(&up) {
            total += p;
        }
    }
    total
}

/// Requests per second of `replicas` replicas at `per_replica` req/s each, as the report rounds them.
pub fn capacity_rps(replicas: u64, per_replica: f64) -> f64 {
    round(replicas as f64 * per_replica, 3)
}

/// The sites report: per site its racks, GPUs and serving replicas, what the others carry without it, and the
/// service's availability, all from what stays connected ([`ServingNet`]).
pub fn analyze(design: &Design, latency: &LatencyReport) -> SitesReport {
    if design.sites.is_empty() {
        return SitesReport::default();
    }
    let mut racks_of: BTreeMap<&str, usize> = BTreeMap::new();
    let mut site_of_rack: BTreeMap<RackId, &str> = BTreeMap::new();
    for (id, r) in &design.racks {
        *racks_of.entry(r.site.as_str()).or_default() += 1;
        site_of_rack.insert(*id, r.site.as_str());
    }
    let mut gpus_of: BTreeMap<&str, usize> = BTreeMap::new();
    for d in design.devices.values() {
        if let Some(s) = site_of_rack.get(&d.rack) {
            *gpus_of.entry(s).or_default() += d.gpus.len();
        }
    }
    let net = ServingNet::of(design);
    let per_replica = replica_rps(design, latency);
    let all_up = net.as_ref().map(|n| n.replicas(&[]));
    let n = design.sites.len();
    let sites: Vec<SiteFigures> = design
        .sites
        .iter()
        .enumerate()
        .map(|(i, (name, site))| {
            let replicas = all_up.as_ref().and_then(|r| r.get(i).copied());
            let without = net.as_ref().map(|net| {
                let mut up = vec![true; n];
                if let Some(u) = up.get_mut(i) {
                    *u = false;
                }
                net.replicas(&up).iter().sum::<u64>()
            });
            SiteFigures {
                name: name.clone(),
                region: site.region.clone(),
                availability: site.availability,
                racks: racks_of.get(name.as_str()).copied().unwrap_or(0),
                gpus: gpus_of.get(name.as_str()).copied().unwrap_or(0),
                replicas: replicas.filter(|_| per_replica.is_some()),
                replicas_without: without.filter(|_| per_replica.is_some()),
                capacity_rps: replicas.zip(per_replica).map(|(r, p)| capacity_rps(r, p)),
                capacity_without_rps: without.zip(per_replica).map(|(r, p)| capacity_rps(r, p)),
            }
        })
        .collect();
    let demand = design.params.serving.as_ref().map(|s| s.request_rate_rps);
    let availability = match (demand, net.as_ref(), per_replica) {
        (Some(d), Some(net), Some(p))
            if n <= MAX_SITES_EXACT && (1usize << n).saturating_mul(net.work()) <= UPSET_BUDGET =>
        {
            let avail: Vec<f64> = sites.iter().map(|s| s.availability).collect();
            Some(availability_of(&avail, |up| {
                capacity_rps(net.replicas(up).iter().sum(), p) + 1e-9 >= d
            }))
        }
        _ => None,
    };
    SitesReport {
        sites,
        demand_rps: demand,
        service_availability: availability.map(|a| round(a, 9)),
        availability_target: design.params.availability_target,
    }
}

/// Most up-sets times condensed nodes and edges the exact availability walks ([`ServingNet::replicas`] once per
/// combination of sites): above it the report gives no availability (docs/limits.md).
pub const UPSET_BUDGET: usize = 20_000_000;

/// One group of devices that reach each other inside their own site and have a cable to another site's devices.
#[derive(Debug, Clone, Copy)]
struct Group {
    site: usize,
    gpus: u64,
    switch: bool,
    storage: bool,
}

/// The network condensed by site, for what stays connected when sites are lost (docs/analysis.md, "Sites and
/// availability"). Devices that reach each other over cables inside their own site form a group; a group with no
/// cable to another site is up exactly when its site is, so its serving replicas are summed per site once; the
/// groups with cables to other sites are joined again for each combination of sites up.
///
/// A replica serves when its GPUs' servers reach, over the devices and cables up, the service's front end and,
/// when the traffic reads from storage, a storage appliance. The model has no separate north-south network:
/// requests come in through the switch fabric, so the front end is any switch (a group of servers with no switch
/// left serves nothing); a design drawn without switches has no network to lose, and every server is its own
/// front end.
#[derive(Debug, Clone)]
pub struct ServingNet {
    /// Sites by index, in the design's order; index `sites` is the racks of no (or an undefined) site, always up.
    sites: usize,
    /// Replicas per site index of the groups without cables to other sites that serve.
    fixed: Vec<u64>,
    /// The groups with cables to other sites.
    groups: Vec<Group>,
    /// Cables between groups of different sites, each pair once.
    joins: Vec<(u32, u32)>,
    /// GPUs per replica (at least 1).
    per_replica: u64,
    /// No switch anywhere: every server is its own front end.
    no_switches: bool,
    /// The traffic reads from storage and the design has some: a replica needs a path to it.
    needs_storage: bool,
}

impl Group {
    /// A group of nothing yet, in a site.
    fn empty(site: usize) -> Self {
        Group {
            site,
            gpus: 0,
            switch: false,
            storage: false,
        }
    }

    /// Adds another group's (or device's) GPUs, switch and storage.
    fn add(&mut self, other: &Group) {
        self.gpus += other.gpus;
        self.switch |= other.switch;
        self.storage |= other.storage;
    }
}

/// Union-find root with path halving.
fn root(parent: &mut [u32], mut i: u32) -> u32 {
    while let Some(&p) = parent.get(i as usize) {
        if p == i {
            break;
        }
        let gp = parent.get(p as usize).copied().unwrap_or(p);
        if let Some(x) = parent.get_mut(i as usize) {
            *x = gp;
        }
        i = gp;
    }
    i
}

fn join(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (root(parent, a), root(parent, b));
    if ra != rb
        && let Some(x) = parent.get_mut(ra.max(rb) as usize)
    {
        *x = ra.min(rb);
    }
}

impl ServingNet {
    /// The condensed network of a serving design (None when the design does not serve). Linear in devices and
    /// links.
    pub fn of(design: &Design) -> Option<Self> {
        use crate::model::part::PartKind;
        let serving = design.params.serving.as_ref()?;
        let site_index: BTreeMap<&str, usize> = design
            .sites
            .keys()
            .enumerate()
            .map(|(i, k)| (k.as_str(), i))
            .collect();
        let sites = design.sites.len();
        // The network's devices (servers, storage, switches, as the topology counts them), by index.
        let mut index: BTreeMap<crate::model::DeviceId, u32> = BTreeMap::new();
        let mut nodes: Vec<Group> = Vec::new();
        for (id, d) in &design.devices {
            let (switch, storage, gpus) = match design.parts.get(&d.part).map(|p| &p.kind) {
                Some(PartKind::Switch(_)) => (true, false, 0),
                Some(PartKind::Storage(_)) => (false, true, 0),
                Some(PartKind::Server(_)) => (false, false, d.gpus.len() as u64),
                _ => continue,
            };
            let site = design
                .racks
                .get(&d.rack)
                .and_then(|r| site_index.get(r.site.as_str()).copied())
                .unwrap_or(sites);
            index.insert(*id, nodes.len() as u32);
            nodes.push(Group {
                site,
                gpus,
                switch,
                storage,
            });
        }
        let ends =
            |l: &crate::model::Link| Some((*index.get(&l.a.device)?, *index.get(&l.b.device)?));
        let site_of = |i: u32| nodes.get(i as usize).map_or(sites, |n| n.site);
        // Groups inside each site.
        let mut parent: Vec<u32> = (0..nodes.len() as u32).collect();
        let mut crossing: Vec<(u32, u32)> = Vec::new();
        for l in design.links.values() {
            let Some((a, b)) = ends(l) else {
                continue;
            };
            if site_of(a) == site_of(b) {
                join(&mut parent, a, b);
            } else {
                crossing.push((a, b));
            }
        }
        let mut merged: BTreeMap<u32, Group> = BTreeMap::new();
        for (i, n) in nodes.iter().enumerate() {
            let r = root(&mut parent, i as u32);
            merged.entry(r).or_insert(Group::empty(n.site)).add(n);
        }
        let no_switches = !nodes.iter().any(|n| n.switch);
        let needs_storage = design.params.traffic.storage_read_gbyte_s_per_gpu > 0.0
            && nodes.iter().any(|n| n.storage);
        let mut net = ServingNet {
            sites,
            fixed: vec![0; sites + 1],
            groups: Vec::new(),
            joins: Vec::new(),
            per_replica: u64::from(serving.gpus_per_replica.max(1)),
            no_switches,
            needs_storage,
        };
        // Groups with a cable to another site get an index among the joined groups; the others serve or not once.
        let mut crossing_roots: BTreeMap<u32, u32> = BTreeMap::new();
        for &(a, b) in &crossing {
            for x in [a, b] {
                let r = root(&mut parent, x);
                let next = crossing_roots.len() as u32;
                crossing_roots.entry(r).or_insert(next);
            }
        }
        for (r, g) in &merged {
            if !crossing_roots.contains_key(r)
                && net.serves(g)
                && let Some(f) = net.fixed.get_mut(g.site)
            {
                *f += g.gpus / net.per_replica;
            }
        }
        net.groups = vec![Group::empty(sites); crossing_roots.len()];
        for (r, i) in &crossing_roots {
            if let (Some(slot), Some(g)) = (net.groups.get_mut(*i as usize), merged.get(r)) {
                *slot = *g;
            }
        }
        let mut joins: Vec<(u32, u32)> = crossing
            .iter()
            .filter_map(|&(a, b)| {
                let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
                let (x, y) = (*crossing_roots.get(&ra)?, *crossing_roots.get(&rb)?);
                Some((x.min(y), x.max(y)))
            })
            .collect();
        joins.sort_unstable();
        joins.dedup();
        net.joins = joins;
        Some(net)
    }

    /// Whether a connected group serves: it holds the front end (a switch, or any server when the design has no
    /// switch) and, when the traffic needs it, storage.
    fn serves(&self, g: &Group) -> bool {
        (g.switch || self.no_switches) && (g.storage || !self.needs_storage)
    }

    /// Work of one [`ServingNet::replicas`] call, in groups and joins visited.
    pub fn work(&self) -> usize {
        self.groups.len() + self.joins.len() + self.fixed.len()
    }

    /// Serving replicas per site index (the last index: racks of no site) when the sites with `up[i]` true are up
    /// (a missing entry counts as up): whole replicas of the GPUs of one site in one connected group that serves.
    pub fn replicas(&self, up: &[bool]) -> Vec<u64> {
        let is_up = |s: usize| s >= self.sites || up.get(s).copied().unwrap_or(true);
        let mut out: Vec<u64> = self
            .fixed
            .iter()
            .enumerate()
            .map(|(s, r)| if is_up(s) { *r } else { 0 })
            .collect();
        if self.groups.is_empty() {
            return out;
        }
        let mut parent: Vec<u32> = (0..self.groups.len() as u32).collect();
        let alive = |i: u32| self.groups.get(i as usize).is_some_and(|g| is_up(g.site));
        for &(a, b) in &self.joins {
            if alive(a) && alive(b) {
                join(&mut parent, a, b);
            }
        }
        // Per connected group: whether it serves, and its GPUs per site.
        let mut flags: BTreeMap<u32, Group> = BTreeMap::new();
        let mut gpus: BTreeMap<(u32, usize), u64> = BTreeMap::new();
        for (i, g) in self.groups.iter().enumerate() {
            if !is_up(g.site) {
                continue;
            }
            let r = root(&mut parent, i as u32);
            flags.entry(r).or_insert(Group::empty(g.site)).add(g);
            *gpus.entry((r, g.site)).or_default() += g.gpus;
        }
        for ((r, site), n) in gpus {
            if flags.get(&r).is_some_and(|f| self.serves(f))
                && let Some(o) = out.get_mut(site)
            {
                *o += n / self.per_replica;
            }
        }
        out
    }

    /// Serving replicas in all when every site is up.
    pub fn replicas_all_up(&self) -> u64 {
        self.replicas(&[]).iter().sum()
    }
}

/// Requests per second one replica carries at the planned utilisation (its throughput on the design's main GPU x
/// the serving plan's utilisation); None when the design does not serve.
pub fn replica_rps(design: &Design, latency: &LatencyReport) -> Option<f64> {
    let s = design.params.serving.as_ref()?;
    let l = latency.serving.as_ref()?;
    Some(s.throughput_for(super::bandwidth::main_gpu(design).as_ref()) * l.planned_utilisation)
}

/// Findings: a server or storage cabled straight to another site's switch; losing one site leaves less than the
/// demand; the availability misses the target.
pub(crate) fn findings(design: &Design, report: &SitesReport, out: &mut Vec<Finding>) {
    spans_sites(design, out);
    site_distances(design, out);
    let Some(demand) = report.demand_rps else {
        return;
    };
    for s in &report.sites {
        let Some(left) = s.capacity_without_rps else {
            continue;
        };
        if left + 1e-9 < demand {
            let mut f = Finding::new(
                Severity::Warning,
                FindingCode::SiteLossCapacity,
                format!(
                    "losing site {} leaves {left:.0} req/s of the {demand:.0} req/s demand ({:.0}% short)",
                    s.name,
                    (1.0 - left / demand) * 100.0
                ),
                "add capacity in the other sites so that any one site can be lost (N+1 across sites)",
            );
            f.racks = design
                .racks
                .iter()
                .filter(|(_, r)| r.site == s.name)
                .map(|(id, _)| *id)
                .collect();
            out.push(f);
        }
    }
    if let (Some(a), Some(t)) = (report.service_availability, report.availability_target)
        && a < t
    {
        out.push(Finding::new(
            Severity::Error,
            FindingCode::AvailabilityBelowTarget,
            format!(
                "the service is available {:.4}% of the time against a target of {:.4}% (sites failing \
                 independently)",
                a * 100.0,
                t * 100.0
            ),
            "add a site, or capacity so that fewer sites are needed to carry the demand",
        ));
    }
}

/// Cables between sites against the distance between them (`Site::distance_km`): one `site-distance` error for the
/// cables shorter than the distance (a cable cannot be shorter than the route it follows; set its length, and a
/// medium that reaches it, or `cable-reach` says it does not), and one information finding per pair of sites
/// joined by cables whose distance no site states (their latency then rests on the cables' own lengths).
fn site_distances(design: &Design, out: &mut Vec<Finding>) {
    if design.sites.len() < 2 {
        return;
    }
    let site_of = |d: crate::model::DeviceId| design.device_site(d).filter(|s| !s.is_empty());
    let mut short: Vec<(crate::model::LinkId, String)> = Vec::new();
    let mut unknown: BTreeMap<(&str, &str), Vec<crate::model::LinkId>> = BTreeMap::new();
    for (id, l) in &design.links {
        let (Some(a), Some(b)) = (site_of(l.a.device), site_of(l.b.device)) else {
            continue;
        };
        if a == b {
            continue;
        }
        match design.site_distance_km(a, b) {
            Some(km) if l.length_m < km * 1000.0 => short.push((
                *id,
                format!(
                    "{} is {} m long between {a} and {b}, {km} km apart",
                    design.describe_link(*id),
                    l.length_m
                ),
            )),
            Some(_) => {}
            None => unknown.entry((a.min(b), a.max(b))).or_default().push(*id),
        }
    }
    if !short.is_empty() {
        let mut f = Finding::new(
            Severity::Error,
            FindingCode::SiteDistance,
            format!(
                "{} shorter than the distance between {} sites: {}",
                if short.len() == 1 {
                    "1 cable is".to_string()
                } else {
                    format!("{} cables are", short.len())
                },
                "their",
                short
                    .iter()
                    .take(4)
                    .map(|(_, t)| t.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            "set each inter-site cable's length to the fibre route and give it a medium that reaches it \
             (data-centre-interconnect optics: dci-400g-zr reaches 120 km)",
        );
        f.links = short.iter().map(|(l, _)| *l).collect();
        out.push(f);
    }
    for ((a, b), links) in unknown {
        let mut f = Finding::new(
            Severity::Info,
            FindingCode::SiteDistance,
            format!(
                "sites {a} and {b} are joined by {} but no distance between them is given: their latency rests \
                 on the cables' own lengths",
                crate::analysis::format::count(links.len(), "cable", "cables")
            ),
            "give the fibre route distance between the sites in the Sites window (distance_km)",
        );
        f.links = links;
        out.push(f);
    }
}

/// One `fabric-spans-sites` warning per pair of sites joined by cables with a server or storage appliance at one
/// end (an endpoint cabled to a switch, or to another endpoint, in another site), naming the sites and pointing at
/// the cables and their ends. Switch-to-switch cables between sites are the interconnect a multi-site design
/// needs and are not flagged here.
fn spans_sites(design: &Design, out: &mut Vec<Finding>) {
    use crate::model::part::PartKind;
    if design.sites.len() < 2 {
        return;
    }
    let site_of = |d: crate::model::DeviceId| design.device_site(d);
    let endpoint = |d: crate::model::DeviceId| {
        design
            .devices
            .get(&d)
            .and_then(|x| design.parts.get(&x.part))
            .is_some_and(|p| matches!(p.kind, PartKind::Server(_) | PartKind::Storage(_)))
    };
    let mut pairs: BTreeMap<(&str, &str), Vec<crate::model::LinkId>> = BTreeMap::new();
    for (id, l) in &design.links {
        if let (Some(a), Some(b)) = (site_of(l.a.device), site_of(l.b.device))
            && a != b
            && (endpoint(l.a.device) || endpoint(l.b.device))
        {
            pairs.entry((a.min(b), a.max(b))).or_default().push(*id);
        }
    }
    for ((a, b), links) in pairs {
        let first = links
            .first()
            .map_or(String::new(), |l| design.describe_link(*l));
        let mut f = Finding::new(
            Severity::Warning,
            FindingCode::FabricSpansSites,
            format!(
                "one fabric spans sites {a} and {b}: {} {} servers or storage in one straight to the other \
                 (first: {first}), so their traffic crosses the distance between the sites and losing either site \
                 cuts the other's servers off",
                links.len(),
                if links.len() == 1 {
                    "cable joins"
                } else {
                    "cables join"
                }
            ),
            "give each site its own leaves and join the sites switch to switch over data-centre-interconnect \
             optics that reach the distance (catalog: dci-400g-zr, 400ZR)",
        );
        let mut devices: Vec<crate::model::DeviceId> = links
            .iter()
            .filter_map(|l| design.links.get(l))
            .flat_map(|l| [l.a.device, l.b.device])
            .collect();
        devices.sort_unstable();
        devices.dedup();
        f.devices = devices;
        f.links = links;
        out.push(f);
    }
}

#[cfg(test)]
mod tests {
    use super::availability_of;

    #[test]
    fn k_of_n_by_hand() {
        // Two sites at 0.999, either alone enough: 1 - 0.001^2 = 0.999999.
        let a = availability_of(&[0.999, 0.999], |up| up.iter().any(|u| *u));
        assert!((a - 0.999_999).abs() < 1e-12);
        // Both needed: 0.999^2 = 0.998001.
        let a = availability_of(&[0.999, 0.999], |up| up.iter().all(|u| *u));
        assert!((a - 0.998_001).abs() < 1e-12);
        // Two of three at 0.99: 3 x 0.99^2 x 0.01 + 0.99^3 = 0.029403 + 0.970299 = 0.999702.
        let a = availability_of(&[0.99; 3], |up| up.iter().filter(|u| **u).count() >= 2);
        assert!((a - 0.999_702).abs() < 1e-12);
    }
}
