//! Traffic demands: what each pattern offers, put on the access cables and turned into switch-to-switch demand
//! (pairwise, or in product form for the all-to-all).

use super::*;

pub(super) struct Router {
    /// Up (endpoint to switch) and down loads per cable, by place in link order (only access cables get any): an
    /// index rather than a map of links, so the report reads them in one walk beside the design's links.
    pub(super) access: Vec<(Loads, Loads)>,
    /// Demands by destination switch, then source switch.
    pub(super) demand: HashMap<usize, HashMap<usize, Loads>>,
    /// All-to-all switch demand in product form.
    pub(super) products: Products,
    pub(super) offered: Loads,
    /// Connected component of each switch: traffic goes to the destination ports it can reach.
    pub(super) component: Vec<usize>,
}

/// One product term of the all-to-all demand: from switch s to switch t it adds `sources(s) * destinations(t)`,
/// Gb/s.
pub(super) struct ProductTerm {
    /// Each sending switch's factor, sorted by switch index.
    pub(super) sources: Vec<(usize, f64)>,
    /// Each receiving switch's factor, by switch index.
    pub(super) destinations: HashMap<usize, f64>,
}

/// All-to-all switch demand in product form: from switch s to switch t (s != t), the sum over terms of
/// a(s) b(t), less the traffic of groups to their own members listed in `own`. Never written out per switch pair,
/// so its size grows with switches, not with pairs of them.
#[derive(Default)]
pub(super) struct Products {
    /// Per term: the source vector (sorted by switch) and the destination vector.
    pub(super) terms: Vec<ProductTerm>,
    /// Per destination switch: (source switch, traffic to take out of the products).
    pub(super) own: HashMap<usize, Vec<(usize, f64)>>,
    /// All-to-all traffic to GPUs whose fabric shares no component with the sender's ports, Gb/s: unroutable, and
    /// kept out of the terms (pairs of separate fabrics would make them grow with the square of the fabrics).
    pub(super) lost: f64,
}

impl Products {
    /// The products' demand from s to t, before taking out `own`.
    pub(super) fn whole(&self, s: usize, t: usize) -> f64 {
        self.terms
            .iter()
            .filter_map(|term| {
                let (a, b) = (&term.sources, &term.destinations);
                let bt = b.get(&t)?;
                let i = a.binary_search_by_key(&s, |x| x.0).ok()?;
                a.get(i).map(|x| x.1 * bt)
            })
            .sum()
    }

    /// The demand from s to t with `own` taken out (`own` for this pair given), 0 when only rounding is left.
    pub(super) fn net(&self, s: usize, t: usize, own: f64) -> f64 {
        let whole = self.whole(s, t);
        let left = whole - own;
        if left > CANCELLED * whole { left } else { 0.0 }
    }
}

impl Router {
    pub(super) fn send(&mut self, from: &Port, to: &Port, gbps: f64, pattern: Pattern) {
        let pattern = pattern.index();
        if gbps <= 0.0 || !gbps.is_finite() {
            return;
        }
        if let Some(x) = self
            .access
            .get_mut(from.at)
            .and_then(|a| a.0.get_mut(pattern))
        {
            *x += gbps;
        }
        if let Some(x) = self
            .access
            .get_mut(to.at)
            .and_then(|a| a.1.get_mut(pattern))
        {
            *x += gbps;
        }
        if from.switch != to.switch
            && let Some(x) = self
                .demand
                .entry(to.switch)
                .or_default()
                .entry(from.switch)
                .or_default()
                .get_mut(pattern)
        {
            *x += gbps;
        }
    }

    /// How traffic from a set of ports divides over (source port, destination port) pairs: in proportion to port
    /// rates, only towards destination ports the source can reach (all of them when none is: then it is
    /// unroutable), and with `rails` to the destination port of the same rail when there is one (NCCL's PXN over
    /// NVLink keeps traffic on its rail). The fractions sum to 1.
    pub(super) fn pairs(
        &self,
        from: &[Port],
        to: &[Port],
        rails: bool,
    ) -> Vec<(usize, usize, f64)> {
        // With rails, traffic leaves on the rails both ends share (PXN moves it over NVLink to such a rail first).
        let shared = |p: &Port| {
            to.iter().any(|q| {
                q.rail == p.rail && self.component.get(q.switch) == self.component.get(p.switch)
            })
        };
        let use_rails = rails && from.iter().any(shared);
        let senders: Vec<bool> = from.iter().map(|p| !use_rails || shared(p)).collect();
        let from_total: f64 = from
            .iter()
            .zip(&senders)
            .filter(|(_, s)| **s)
            .map(|(p, _)| p.gbps)
            .sum();
        let mut out = Vec::new();
        if from_total <= 0.0 {
            return out;
        }
        for (i, p) in from.iter().enumerate() {
            if senders.get(i) != Some(&true) {
                continue;
            }
            let share = p.gbps / from_total;
            let reach: Vec<usize> = (0..to.len())
                .filter(|j| {
                    to.get(*j).is_some_and(|q| {
                        self.component.get(q.switch) == self.component.get(p.switch)
                    })
                })
                .collect();
            let mut cands: Vec<usize> = if reach.is_empty() {
                (0..to.len()).collect()
            } else {
                reach
            };
            if rails {
                let same: Vec<usize> = cands
                    .iter()
                    .copied()
                    .filter(|j| to.get(*j).is_some_and(|q| q.rail == p.rail))
                    .collect();
                if !same.is_empty() {
                    cands = same;
                }
            }
            let total: f64 = cands
                .iter()
                .filter_map(|j| to.get(*j))
                .map(|q| q.gbps)
                .sum();
            if total <= 0.0 {
                continue;
            }
            for j in cands {
                if let Some(q) = to.get(j) {
                    out.push((i, j, share * q.gbps / total));
                }
            }
        }
        out
    }

    /// Traffic between two groups of endpoints with the same attachment (member port lists aligned with the
    /// representatives'): `total` crosses the switches once, split as [`Router::pairs`] says; each source member's
    /// ports carry `per_source` out and each destination member's ports `per_destination` in. Virtual ports (the
    /// serving ingress) have no members.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn group_flow(
        &mut self,
        rep_from: &[Port],
        rep_to: &[Port],
        sources: &[&[Port]],
        destinations: &[&[Port]],
        (total, per_source, per_destination): (f64, f64, f64),
        rails: bool,
        pattern: Pattern,
    ) {
        let pattern = pattern.index();
        if total <= 0.0 {
            return;
        }
        let pairs = self.pairs(rep_from, rep_to, rails);
        let mut out_frac = vec![0.0; rep_from.len()];
        let mut in_frac = vec![0.0; rep_to.len()];
        for &(i, j, f) in &pairs {
            if let (Some(p), Some(q)) = (rep_from.get(i), rep_to.get(j))
                && p.switch != q.switch
                && let Some(x) = self
                    .demand
                    .entry(q.switch)
                    .or_default()
                    .entry(p.switch)
                    .or_default()
                    .get_mut(pattern)
            {
                *x += total * f;
            }
            if let Some(x) = out_frac.get_mut(i) {
                *x += f;
            }
            if let Some(x) = in_frac.get_mut(j) {
                *x += f;
            }
        }
        for ports in sources {
            for (p, f) in ports.iter().zip(&out_frac) {
                if let Some(x) = self.access.get_mut(p.at).and_then(|a| a.0.get_mut(pattern)) {
                    *x += per_source * f;
                }
            }
        }
        for ports in destinations {
            for (q, f) in ports.iter().zip(&in_frac) {
                if let Some(x) = self.access.get_mut(q.at).and_then(|a| a.1.get_mut(pattern)) {
                    *x += per_destination * f;
                }
            }
        }
    }
}

/// Below this share of the amount it is subtracted from, what is left of an all-to-all figure after taking out a
/// group's traffic to its own members is rounding, not traffic (a lone server sends nothing to itself).
pub(super) const CANCELLED: f64 = 1e-12;

/// The switch graph (with the serving ingress when there is one) and every pattern's demand on it.
pub(super) fn demands(design: &Design) -> (Fabric, Router) {
    let mut fabric = fabric(design);
    let (servers, storage) = endpoints(design, &fabric);
    let mut r = Router {
        access: vec![([0.0; P], [0.0; P]); design.links.len()],
        demand: HashMap::default(),
        offered: [0.0; P],
        component: components(&fabric),
        products: Products::default(),
    };
    let gpus_total: f64 = servers.iter().map(|s| s.gpus).sum();

    rings(&mut r, &servers);
    let group_list = groups(&servers);
    all_to_all(&mut r, &servers, &group_list, gpus_total);
    storage_read(&mut r, design, &servers, &storage);
    serving(
        &mut r,
        &mut fabric,
        design,
        &servers,
        &group_list,
        gpus_total,
    );
    (fabric, r)
}

/// The all-reduce rings: one flat ring through every GPU in server order (each server hands over to the next on its
/// first compute port, at that port's rate), and the hierarchical all-reduce's rings, one per rail.
fn rings(r: &mut Router, servers: &[Server]) {
    let ring: Vec<&Server> = servers.iter().filter(|s| !s.compute.is_empty()).collect();
    if ring.len() > 1 {
        for (i, s) in ring.iter().enumerate() {
            let Some(next) = ring.get((i + 1) % ring.len()) else {
                continue;
            };
            let (Some(p), Some(q)) = (s.compute.first(), next.compute.first()) else {
                continue;
            };
            let rate = p.gbps.min(q.gbps);
            r.offered[Pattern::FlatRing.index()] += rate;
            r.send(p, q, rate, Pattern::FlatRing);
        }
        // Hierarchical: the inter-server phase runs one ring per local rank, each on its rail, through the servers
        // that have that rail.
        let mut rails: Vec<u16> = ring
            .iter()
            .flat_map(|s| s.compute.iter().map(|p| p.rail))
            .collect();
        rails.sort_unstable();
        rails.dedup();
        for rail in rails {
            let members: Vec<&Port> = ring
                .iter()
                .filter_map(|s| s.compute.iter().find(|p| p.rail == rail))
                .collect();
            if members.len() < 2 {
                continue;
            }
            for (i, p) in members.iter().enumerate() {
                let Some(q) = members.get((i + 1) % members.len()) else {
                    continue;
                };
                let rate = p.gbps.min(q.gbps);
                r.offered[Pattern::RailRings.index()] += rate;
                r.send(p, q, rate, Pattern::RailRings);
            }
        }
    }
}

/// Storage read: each GPU reads at the design's rate from the storage it can reach, in proportion to what each
/// appliance delivers; it arrives on the server's storage ports (its compute ports when it has none).
fn storage_read(r: &mut Router, design: &Design, servers: &[Server], storage: &[(Vec<Port>, f64)]) {
    let rate = design.params.traffic.storage_read_gbyte_s_per_gpu * 8.0;
    if rate > 0.0 && !storage.is_empty() {
        let mut by_ports: BTreeMap<Vec<(u16, usize, u64)>, Vec<usize>> = BTreeMap::new();
        for (i, s) in servers.iter().enumerate() {
            let ports = if s.storage.is_empty() {
                &s.compute
            } else {
                &s.storage
            };
            let mut key: Vec<(u16, usize, u64)> = ports
                .iter()
                .map(|p| (p.rail, p.switch, p.gbps.to_bits()))
                .collect();
            key.push((u16::MAX, 0, s.gpus.to_bits()));
            by_ports.entry(key).or_default().push(i);
        }
        // Appliances by the components their ports are in: a group reaches those of its ports' components, found
        // without testing every appliance against every group (a term in SU squared: at 256 SU, 256 groups of
        // storage ports and 768 appliances).
        let mut in_component: HashMap<usize, Vec<usize>> = HashMap::default();
        for (a, (ap, _)) in storage.iter().enumerate() {
            for c in ap.iter().filter_map(|p| r.component.get(p.switch)) {
                let list = in_component.entry(*c).or_default();
                if list.last() != Some(&a) {
                    list.push(a);
                }
            }
        }
        for members in by_ports.values() {
            let Some(rep) = members.first().and_then(|i| servers.get(*i)) else {
                continue;
            };
            let ports = if rep.storage.is_empty() {
                &rep.compute
            } else {
                &rep.storage
            };
            let dst: Vec<&[Port]> = members
                .iter()
                .filter_map(|i| servers.get(*i))
                .map(|s| {
                    if s.storage.is_empty() {
                        s.compute.as_slice()
                    } else {
                        s.storage.as_slice()
                    }
                })
                .collect();
            // The appliances in a component of one of the ports, in appliance order.
            let mut reach: Vec<usize> = ports
                .iter()
                .filter_map(|p| r.component.get(p.switch))
                .filter_map(|c| in_component.get(c))
                .flatten()
                .copied()
                .collect();
            reach.sort_unstable();
            reach.dedup();
            let reach: Vec<&(Vec<Port>, f64)> =
                reach.iter().filter_map(|a| storage.get(*a)).collect();
            let total: f64 = reach.iter().map(|(_, d)| d).sum();
            let want = rate * rep.gpus;
            r.offered[Pattern::StorageRead.index()] += want * members.len() as f64;
            if total <= 0.0 {
                continue;
            }
            for (ap, deliver) in reach {
                let per_server = want * deliver / total;
                let all = per_server * members.len() as f64;
                r.group_flow(
                    ap,
                    ports,
                    &[ap.as_slice()],
                    &dst,
                    (all, all, per_server),
                    false,
                    Pattern::StorageRead,
                );
            }
        }
    }
}

/// Inference serving: requests enter beside the top-tier switches (where border routers attach) and responses
/// leave there, shared by GPUs. Adds the virtual ingress switch to the fabric.
fn serving(
    r: &mut Router,
    fabric: &mut Fabric,
    design: &Design,
    servers: &[Server],
    group_list: &[Vec<usize>],
    gpus_total: f64,
) {
    if let Some(sv) = &design.params.serving {
        let leaves: Vec<usize> = servers
            .iter()
            .flat_map(|s| s.compute.iter().map(|p| p.switch))
            .collect();
        let top = top_switches(fabric, &leaves);
        if !top.is_empty() && gpus_total > 0.0 {
            let v = fabric.adj.len();
            fabric.adj.push(Vec::new());
            for sw in top {
                let e = fabric.ends.len();
                fabric.ends.push((sw, v));
                fabric.cap.push(1.0);
                if let Some(a) = fabric.adj.get_mut(sw) {
                    a.push((v, e));
                }
                if let Some(a) = fabric.adj.get_mut(v) {
                    a.push((sw, e));
                }
            }
            fabric.ingress = Some(v);
            r.component.push(usize::MAX);
            // No cable: its place is past the last link, so no access load is kept for it.
            let ingress = [Port {
                at: usize::MAX,
                switch: v,
                gbps: 1.0,
                rail: u16::MAX,
            }];
            for g in group_list {
                let Some(rep) = g.first().and_then(|i| servers.get(*i)) else {
                    continue;
                };
                if rep.compute.is_empty() {
                    continue;
                }
                let ports: Vec<&[Port]> = g
                    .iter()
                    .filter_map(|i| servers.get(*i))
                    .map(|s| s.compute.as_slice())
                    .collect();
                let share = sv.request_rate_rps * rep.gpus / gpus_total;
                let inbound = share * sv.request_bytes * 8.0 / 1e9;
                let outbound = share * sv.response_bytes * 8.0 / 1e9;
                let n = g.len() as f64;
                r.offered[Pattern::Inference.index()] += (inbound + outbound) * n;
                r.group_flow(
                    &ingress,
                    &rep.compute,
                    &[],
                    &ports,
                    (inbound * n, 0.0, inbound),
                    false,
                    Pattern::Inference,
                );
                r.group_flow(
                    &rep.compute,
                    &ingress,
                    &ports,
                    &[],
                    (outbound * n, outbound, 0.0),
                    false,
                    Pattern::Inference,
                );
            }
        }
    }
}
