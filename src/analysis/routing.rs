//! Traffic on the topology as drawn: each traffic pattern is routed over the design's switches with equal-cost
//! multi-path (ECMP) splitting, giving the load on every cable, the hottest link and its utilisation.
//!
//! Model (docs/analysis.md, "Traffic on the drawn topology"):
//! - Endpoints (GPU servers, storage) attach to switches through their cabled NIC ports; they never forward.
//! - Each pattern offers traffic between endpoint ports. Access cables carry it directly; traffic between ports on
//!   different switches becomes a switch-to-switch demand.
//! - Demands are routed per destination switch: a breadth-first search from the destination gives each switch's
//!   distance; every switch splits what it holds for that destination over its next hops on shortest paths in
//!   proportion to their capacity (ECMP over the member cables), from the farthest switch inwards.
//! - Servers of the same build and attachment are one group with a multiplicity. All-to-all demand is aggregated
//!   by switch-level classes (see [`all_to_all`]), so no term grows with pairs of groups; storage read costs
//!   groups x storage appliances. Routing works per class of destination switches (the same switch neighbours),
//!   and classes that the fabric's symmetry swaps (a SuperPOD's pods) are routed once, see [`route`].

use super::format::round;
use crate::model::part::{NicRole, PartKind};
use crate::model::{Design, DeviceId, LinkId};
use rustc_hash::FxHashMap as HashMap;
use serde::Serialize;
use std::collections::{BTreeMap, VecDeque};

/// The traffic patterns routed, in report order.
pub const PATTERNS: [&str; 5] = super::pattern::Pattern::LABELS;
const P: usize = PATTERNS.len();
type Loads = [f64; P];

/// The routing section of the report.
#[derive(Debug, Clone, Serialize)]
pub struct RoutingReport {
    /// How the loads were computed.
    pub method: String,
    /// Per pattern: offered traffic and the hottest link.
    pub patterns: Vec<PatternLoad>,
    /// Load on every cabled link that carries traffic, by pattern in [`PATTERNS`] order, Gb/s per direction (the
    /// busier direction).
    pub links: Vec<LinkLoad>,
}

/// One pattern's totals.
#[derive(Debug, Clone, Serialize)]
pub struct PatternLoad {
    /// Pattern name.
    pub pattern: String,
    /// Traffic offered by all endpoints, Gb/s.
    pub offered_gbps: f64,
    /// Traffic with no path to its destination, Gb/s.
    pub unroutable_gbps: f64,
    /// The busiest link, if any traffic flows.
    pub hottest_link: Option<LinkId>,
    /// Its load, Gb/s.
    pub hottest_load_gbps: f64,
    /// Its load against its capacity.
    pub hottest_utilisation: f64,
}

/// Loads on one link.
#[derive(Debug, Clone, Serialize)]
pub struct LinkLoad {
    /// The link.
    pub link: LinkId,
    /// Capacity per direction, Gb/s.
    pub capacity_gbps: f64,
    /// Load per pattern, Gb/s (busier direction), in `PATTERNS` order (a fixed array: no allocation per link).
    pub loads_gbps: [f64; PATTERNS.len()],
    /// Highest load over capacity.
    pub utilisation: f64,
}

/// A cabled endpoint port: its cable, the switch at the other end, its rate and its rail (NIC slot).
#[derive(Debug, Clone, Copy)]
struct Port {
    /// Its cable's place in the design's link order (which is link id order).
    at: usize,
    switch: usize,
    gbps: f64,
    rail: u16,
}

/// A GPU server as routing sees it.
struct Server {
    gpus: f64,
    nvlink: bool,
    compute: Vec<Port>,
    storage: Vec<Port>,
}

/// How a server attaches: (rail, switch, rate bits) per port.
type Signature = Vec<(u16, usize, u64)>;

/// Switch graph with collapsed edges.
struct Fabric {
    index: HashMap<DeviceId, usize>,
    /// Per switch: (neighbour, edge).
    adj: Vec<Vec<(usize, usize)>>,
    /// Per edge: its two switches (a < b).
    ends: Vec<(usize, usize)>,
    /// Per edge: capacity per direction, Gb/s.
    cap: Vec<f64>,
    /// Per link, by place in link order: the edge it is a cable of (`u32::MAX` for a link that is not between
    /// two switches).
    edge_of_link: Vec<u32>,
    /// A virtual node beside the top tier where serving traffic enters and leaves: reached, never crossed.
    ingress: Option<usize>,
}

struct Router {
    /// Up (endpoint to switch) and down loads per cable, by place in link order (only access cables get any): an
    /// index rather than a map of links, so the report reads them in one walk beside the design's links.
    access: Vec<(Loads, Loads)>,
    /// Demands by destination switch, then source switch.
    demand: HashMap<usize, HashMap<usize, Loads>>,
    /// All-to-all switch demand in product form.
    products: Products,
    offered: Loads,
    /// Connected component of each switch: traffic goes to the destination ports it can reach.
    component: Vec<usize>,
}

/// One product term: the source vector (sorted by switch) and the destination vector, Gb/s.
type Term = (Vec<(usize, f64)>, HashMap<usize, f64>);

/// All-to-all switch demand in product form: from switch s to switch t (s != t), the sum over terms of
/// a(s) b(t), less the traffic of groups to their own members listed in `own`. Never written out per switch pair,
/// so its size grows with switches, not with pairs of them.
#[derive(Default)]
struct Products {
    /// Per term: the source vector (sorted by switch) and the destination vector.
    terms: Vec<Term>,
    /// Per destination switch: (source switch, traffic to take out of the products).
    own: HashMap<usize, Vec<(usize, f64)>>,
    /// All-to-all traffic to GPUs whose fabric shares no component with the sender's ports, Gb/s: unroutable, and
    /// kept out of the terms (pairs of separate fabrics would make them grow with the square of the fabrics).
    lost: f64,
}

impl Products {
    /// The products' demand from s to t, before taking out `own`.
    fn whole(&self, s: usize, t: usize) -> f64 {
        self.terms
            .iter()
            .filter_map(|(a, b)| {
                let bt = b.get(&t)?;
                let i = a.binary_search_by_key(&s, |x| x.0).ok()?;
                a.get(i).map(|x| x.1 * bt)
            })
            .sum()
    }

    /// The demand from s to t with `own` taken out (`own` for this pair given), 0 when only rounding is left.
    fn net(&self, s: usize, t: usize, own: f64) -> f64 {
        let whole = self.whole(s, t);
        let left = whole - own;
        if left > CANCELLED * whole { left } else { 0.0 }
    }
}

impl Router {
    fn send(&mut self, from: &Port, to: &Port, gbps: f64, pattern: usize) {
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
    fn pairs(&self, from: &[Port], to: &[Port], rails: bool) -> Vec<(usize, usize, f64)> {
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
    fn group_flow(
        &mut self,
        rep_from: &[Port],
        rep_to: &[Port],
        sources: &[&[Port]],
        destinations: &[&[Port]],
        (total, per_source, per_destination): (f64, f64, f64),
        rails: bool,
        pattern: usize,
    ) {
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
const CANCELLED: f64 = 1e-12;

/// Which destination ports a source port's all-to-all traffic may use: its component and rail, and whether it
/// keeps to its rail (NVLink at both ends).
type Mode = (usize, u16, bool);

/// A source group's shares of its ports toward one destination class: the class and, per port, its mode and share.
type ClassShares = (usize, Vec<(Mode, f64)>);

/// All-to-all, aggregated by switch-level classes so that no term grows with pairs of server groups.
///
/// Every server of group h (n_h servers of g_h GPUs, compute bandwidth C_h) sends C_h g_k / (G - g_h) to every
/// server of group k, so the traffic from h to k is A_h B_k - [h = k] n_h C_h g_h / (G - g_h), with
/// A_h = n_h C_h / (G - g_h) and B_k = n_k g_k: a product, less a term of the group alone. How a source port's share
/// divides over destination ports depends on the destination group only through the rails and components its
/// ports reach (its class K) and, inside the class, on the source port's component and rail (its [`Mode`]). So
/// per class and mode the switch demand is a product a(s) b(t) of a source vector (summed over source groups) and
/// a destination vector (summed over destination groups), less the groups' traffic to themselves: the work grows
/// with groups x ports and with the switch pairs that carry demand, never with pairs of groups. The result equals
/// [`all_to_all_pairs`] (tested).
fn all_to_all(r: &mut Router, servers: &[Server], groups: &[Vec<usize>], gpus_total: f64) {
    struct Group<'a> {
        members: &'a [usize],
        ports: &'a [Port],
        n: f64,
        gpus: f64,
        nvlink: bool,
        /// C_h / (G - g_h) when the group sends, else None.
        per_gpu: Option<f64>,
        class: usize,
    }
    let comp = |p: &Port| r.component.get(p.switch).copied().unwrap_or(usize::MAX);
    // Destination classes: NVLink flag and the (rail, component) pairs of the ports.
    let mut class_ids: BTreeMap<(bool, Vec<(u16, usize)>), usize> = BTreeMap::new();
    let mut list: Vec<Group<'_>> = Vec::with_capacity(groups.len());
    for g in groups {
        let Some(rep) = g.first().and_then(|i| servers.get(*i)) else {
            continue;
        };
        let mut reach: Vec<(u16, usize)> = rep.compute.iter().map(|p| (p.rail, comp(p))).collect();
        reach.sort_unstable();
        reach.dedup();
        let next = class_ids.len();
        let class = *class_ids.entry((rep.nvlink, reach)).or_insert(next);
        let c: f64 = rep.compute.iter().map(|p| p.gbps).sum();
        let per_gpu = (c > 0.0 && gpus_total - rep.gpus > 0.0).then(|| c / (gpus_total - rep.gpus));
        list.push(Group {
            members: g,
            ports: &rep.compute,
            n: g.len() as f64,
            gpus: rep.gpus,
            nvlink: rep.nvlink,
            per_gpu,
            class,
        });
    }
    let classes: Vec<(bool, Vec<(u16, usize)>)> = {
        let mut v: Vec<_> = class_ids.into_iter().collect();
        v.sort_by_key(|(_, id)| *id);
        v.into_iter().map(|(k, _)| k).collect()
    };
    // Source side, per class: the share of each source port (Router::pairs: with rails, only ports on rails the
    // destination shares).
    let shares = |g: &Group<'_>, class: &(bool, Vec<(u16, usize)>)| -> Vec<(Mode, f64)> {
        let rails = g.nvlink && class.0;
        let shared = |p: &Port| class.1.binary_search(&(p.rail, comp(p))).is_ok();
        let use_rails = rails && g.ports.iter().any(shared);
        let total: f64 = g
            .ports
            .iter()
            .filter(|p| !use_rails || shared(p))
            .map(|p| p.gbps)
            .sum();
        g.ports
            .iter()
            .map(|p| {
                let share = if total > 0.0 && (!use_rails || shared(p)) {
                    p.gbps / total
                } else {
                    0.0
                };
                ((comp(p), p.rail, rails), share)
            })
            .collect()
    };
    // Destination side: how a port of a given mode divides over a group's ports (fractions summing to 1, or
    // nothing when the group has no port to receive).
    let split = |g: &Group<'_>, (c, rail, rails): Mode| -> Vec<(usize, f64)> {
        let reach: Vec<usize> = (0..g.ports.len())
            .filter(|j| g.ports.get(*j).is_some_and(|q| comp(q) == c))
            .collect();
        let mut cands = if reach.is_empty() {
            (0..g.ports.len()).collect()
        } else {
            reach
        };
        if rails {
            let same: Vec<usize> = cands
                .iter()
                .copied()
                .filter(|j| g.ports.get(*j).is_some_and(|q| q.rail == rail))
                .collect();
            if !same.is_empty() {
                cands = same;
            }
        }
        let total: f64 = cands
            .iter()
            .filter_map(|j| g.ports.get(*j))
            .map(|q| q.gbps)
            .sum();
        if total <= 0.0 {
            return Vec::new();
        }
        cands
            .into_iter()
            .filter_map(|j| g.ports.get(j).map(|q| (j, q.gbps / total)))
            .collect()
    };

    // The classes each component reaches, and the GPUs of each class that can receive (groups with port
    // bandwidth): a group sends only to the classes that share a component with its ports; what it would send to
    // the others cannot leave its fabric and is unroutable. Visiting only those keeps the work linear in the groups
    // when a design is many separate fabrics.
    let mut classes_of: HashMap<usize, Vec<usize>> = HashMap::default();
    for (k, (_, reach)) in classes.iter().enumerate() {
        for &(_, c) in reach {
            let v = classes_of.entry(c).or_default();
            if v.last() != Some(&k) {
                v.push(k);
            }
        }
    }
    let mut receivers = vec![0.0; classes.len()];
    for g in &list {
        if g.ports.iter().map(|p| p.gbps).sum::<f64>() > 0.0
            && let Some(w) = receivers.get_mut(g.class)
        {
            *w += g.n * g.gpus;
        }
    }
    let mut reached = vec![false; classes.len()];

    // Source vectors a(s) per (class, mode), their totals, and each source group's shares per class it reaches.
    let mut src: BTreeMap<(usize, Mode), (HashMap<usize, f64>, f64)> = BTreeMap::new();
    let mut group_shares: Vec<Vec<ClassShares>> = Vec::with_capacity(list.len());
    for g in &list {
        let Some(per_gpu) = g.per_gpu else {
            group_shares.push(Vec::new());
            continue;
        };
        r.offered[2] += per_gpu * g.n * (gpus_total - g.gpus);
        let mut reach: Vec<usize> = g
            .ports
            .iter()
            .filter_map(|p| classes_of.get(&comp(p)))
            .flatten()
            .copied()
            .collect();
        reach.sort_unstable();
        reach.dedup();
        for &k in &reach {
            if let Some(x) = reached.get_mut(k) {
                *x = true;
            }
        }
        let apart: f64 = receivers
            .iter()
            .zip(&reached)
            .filter(|(_, r)| !**r)
            .map(|(w, _)| w)
            .sum();
        r.products.lost += g.n * per_gpu * apart;
        for &k in &reach {
            if let Some(x) = reached.get_mut(k) {
                *x = false;
            }
        }
        let mine: Vec<ClassShares> = reach
            .iter()
            .filter_map(|&k| classes.get(k).map(|c| (k, shares(g, c))))
            .collect();
        for (k, sh) in &mine {
            let k = *k;
            for (p, (mode, share)) in g.ports.iter().zip(sh) {
                if *share > 0.0 {
                    let e = src.entry((k, *mode)).or_default();
                    *e.0.entry(p.switch).or_default() += g.n * per_gpu * share;
                    e.1 += g.n * per_gpu * share;
                }
            }
        }
        group_shares.push(mine);
    }
    // Destination vectors b(t) per (class, mode) and the GPUs W that can receive in that mode.
    let mut dst: BTreeMap<(usize, Mode), (HashMap<usize, f64>, f64)> = BTreeMap::new();
    let mut splits: HashMap<(usize, Mode), Vec<(usize, f64)>> = HashMap::default();
    let class_keys = |k: usize| {
        src.range((k, (0, 0, false))..=(k, (usize::MAX, u16::MAX, true)))
            .map(|(key, v)| (*key, v))
    };
    for (gi, g) in list.iter().enumerate() {
        for ((k, mode), _) in class_keys(g.class) {
            let sp = split(g, mode);
            if sp.is_empty() {
                continue;
            }
            let e = dst.entry((k, mode)).or_default();
            for &(j, f) in &sp {
                if let Some(q) = g.ports.get(j) {
                    *e.0.entry(q.switch).or_default() += g.n * g.gpus * f;
                }
            }
            e.1 += g.n * g.gpus;
            splits.insert((gi, mode), sp);
        }
    }
    // What a group sends to its own members, to take out of the products: per source mode, C_h / (G - g_h) x the
    // share of its ports in that mode.
    let own = |gi: usize, g: &Group<'_>| -> Vec<(Mode, f64, usize)> {
        let Some(per_gpu) = g.per_gpu else {
            return Vec::new();
        };
        let Some((_, sh)) = group_shares
            .get(gi)
            .and_then(|v| v.iter().find(|(k, _)| *k == g.class))
        else {
            return Vec::new();
        };
        sh.iter()
            .enumerate()
            .filter(|(_, (_, share))| *share > 0.0)
            .map(|(i, (mode, share))| (*mode, per_gpu * share, i))
            .collect()
    };

    // Access cables, out: each source member's port carries C_h / (G - g_h) x share x (W - own GPUs).
    for (gi, g) in list.iter().enumerate() {
        let (Some(per_gpu), Some(sh)) = (g.per_gpu, group_shares.get(gi)) else {
            continue;
        };
        let mut out = vec![0.0; g.ports.len()];
        for (k, class_shares) in sh {
            let k = *k;
            for (x, (mode, share)) in out.iter_mut().zip(class_shares) {
                let Some((_, w)) = dst.get(&(k, *mode)) else {
                    continue;
                };
                let mine = if k == g.class && splits.contains_key(&(gi, *mode)) {
                    g.gpus
                } else {
                    0.0
                };
                let rest = w - mine;
                if *share > 0.0 && rest > CANCELLED * w {
                    *x += per_gpu * share * rest;
                }
            }
        }
        put_access(r, servers, g.members, &out, true);
    }
    // Access cables, in: each destination member's port j receives g_k x sum over modes of split(j) x (the
    // sources' total in that mode less the group's own).
    for (gi, g) in list.iter().enumerate() {
        let mut own_by_mode: BTreeMap<Mode, f64> = BTreeMap::new();
        for (mode, x, _) in own(gi, g) {
            *own_by_mode.entry(mode).or_default() += x;
        }
        let mut inn = vec![0.0; g.ports.len()];
        for ((_, mode), (_, alpha)) in class_keys(g.class) {
            let Some(sp) = splits.get(&(gi, mode)) else {
                continue;
            };
            let rest = alpha - own_by_mode.get(&mode).copied().unwrap_or(0.0);
            if rest <= CANCELLED * alpha {
                continue;
            }
            for &(j, f) in sp {
                if let Some(x) = inn.get_mut(j) {
                    *x += g.gpus * f * rest;
                }
            }
        }
        put_access(r, servers, g.members, &inn, false);
    }

    // Switch demand: the products a(s) b(t), less each group's traffic to itself.
    for (key, (a, _)) in src {
        let Some((b, _)) = dst.remove(&key) else {
            continue;
        };
        let mut a: Vec<(usize, f64)> = a.into_iter().collect();
        a.sort_unstable_by_key(|x| x.0);
        r.products.terms.push((a, b));
    }
    let mut own_pairs: BTreeMap<(usize, usize), f64> = BTreeMap::new();
    for (gi, g) in list.iter().enumerate() {
        for (mode, x, i) in own(gi, g) {
            let (Some(sp), Some(p)) = (splits.get(&(gi, mode)), g.ports.get(i)) else {
                continue;
            };
            for &(j, f) in sp {
                if let Some(q) = g.ports.get(j)
                    && q.switch != p.switch
                {
                    *own_pairs.entry((q.switch, p.switch)).or_default() += g.n * g.gpus * x * f;
                }
            }
        }
    }
    for ((t, s), x) in own_pairs {
        r.products.own.entry(t).or_default().push((s, x));
    }
}

/// Adds per-port all-to-all loads to every member's access cables (`out`: up from the server, else down to it).
fn put_access(r: &mut Router, servers: &[Server], members: &[usize], loads: &[f64], out: bool) {
    for s in members.iter().filter_map(|i| servers.get(*i)) {
        for (p, x) in s.compute.iter().zip(loads) {
            if let Some(e) = r.access.get_mut(p.at)
                && let Some(v) = (if out { &mut e.0 } else { &mut e.1 }).get_mut(2)
            {
                *v += x;
            }
        }
    }
}

/// The straightforward all-to-all over every pair of server groups, kept as the reference [`all_to_all`] is tested
/// against: its cost grows with the square of the number of groups.
#[cfg(test)]
fn all_to_all_pairs(
    r: &mut Router,
    servers: &[Server],
    group_list: &[Vec<usize>],
    gpus_total: f64,
) {
    // All-to-all: every server sends its whole compute bandwidth, to every other GPU alike: per_pair =
    // C_h x g_k / (G - g_h) from each server of group h to each server of group k; between the groups
    // (n_h n_k - [h = k] n_h) x per_pair, spread over port pairs (on the rail with NVLink at both ends).
    for h in group_list {
        let Some(sh) = h.first().and_then(|i| servers.get(*i)) else {
            continue;
        };
        let c_h: f64 = sh.compute.iter().map(|p| p.gbps).sum();
        if c_h <= 0.0 || gpus_total - sh.gpus <= 0.0 {
            continue;
        }
        let src: Vec<&[Port]> = h
            .iter()
            .filter_map(|i| servers.get(*i))
            .map(|s| s.compute.as_slice())
            .collect();
        for k in group_list {
            let Some(sk) = k.first().and_then(|i| servers.get(*i)) else {
                continue;
            };
            let per_pair = c_h * sk.gpus / (gpus_total - sh.gpus);
            let same = usize::from(std::ptr::eq(h, k));
            let (nh, nk) = (h.len(), k.len());
            let pairs = (nh * nk - same * nh) as f64;
            if pairs <= 0.0 {
                continue;
            }
            // Separate fabrics: nothing can get there, all of it is unroutable (as `all_to_all` counts it).
            let comp = |p: &Port| r.component.get(p.switch).copied().unwrap_or(usize::MAX);
            let receives = sk.compute.iter().map(|q| q.gbps).sum::<f64>() > 0.0;
            if receives
                && !sh
                    .compute
                    .iter()
                    .any(|p| sk.compute.iter().any(|q| comp(p) == comp(q)))
            {
                r.offered[2] += pairs * per_pair;
                r.products.lost += pairs * per_pair;
                continue;
            }
            let dst: Vec<&[Port]> = k
                .iter()
                .filter_map(|i| servers.get(*i))
                .map(|s| s.compute.as_slice())
                .collect();
            r.offered[2] += pairs * per_pair;
            let flows = (
                pairs * per_pair,
                (nk - same) as f64 * per_pair,
                (nh - same) as f64 * per_pair,
            );
            r.group_flow(
                &sh.compute,
                &sk.compute,
                &src,
                &dst,
                flows,
                sh.nvlink && sk.nvlink,
                2,
            );
        }
    }
}

/// Loads of the all-to-all pattern alone.
fn all_to_all_only(x: f64) -> Loads {
    let mut l = [0.0; P];
    if let Some(y) = l.get_mut(2) {
        *y = x;
    }
    l
}

fn add(a: &mut Loads, b: &Loads, k: f64) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y * k;
    }
}

/// Routes the design's traffic patterns and returns the loads.
pub fn analyze(design: &Design) -> RoutingReport {
    let (fabric, r) = demands(design);
    let (switch_loads, unroutable) = route(&fabric, &r.demand, &r.products);
    report(design, &fabric, &r, &switch_loads, &unroutable)
}

/// The switch graph (with the serving ingress when there is one) and every pattern's demand on it.
fn demands(design: &Design) -> (Fabric, Router) {
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

    // All-reduce, flat ring: one ring through every GPU in server order; each server hands over to the next on its
    // first compute port, at that port's rate.
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
            r.offered[0] += rate;
            r.send(p, q, rate, 0);
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
                r.offered[1] += rate;
                r.send(p, q, rate, 1);
            }
        }
    }

    let group_list = groups(&servers);
    all_to_all(&mut r, &servers, &group_list, gpus_total);
    // Storage read: each GPU reads at the design's rate from the storage it can reach, in proportion to what each
    // appliance delivers; it arrives on the server's storage ports (its compute ports when it has none).
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
            r.offered[3] += want * members.len() as f64;
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
                    3,
                );
            }
        }
    }

    // Inference serving: requests enter beside the top-tier switches (where border routers attach) and responses
    // leave there, shared by GPUs.
    if let Some(sv) = &design.params.serving {
        let leaves: Vec<usize> = servers
            .iter()
            .flat_map(|s| s.compute.iter().map(|p| p.switch))
            .collect();
        let top = top_switches(&fabric, &leaves);
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
            for g in &group_list {
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
                r.offered[4] += (inbound + outbound) * n;
                r.group_flow(
                    &ingress,
                    &rep.compute,
                    &[],
                    &ports,
                    (inbound * n, 0.0, inbound),
                    false,
                    4,
                );
                r.group_flow(
                    &rep.compute,
                    &ingress,
                    &ports,
                    &[],
                    (outbound * n, outbound, 0.0),
                    false,
                    4,
                );
            }
        }
    }

    (fabric, r)
}

/// Servers of the same build and attachment, in groups (by server index).
fn groups(servers: &[Server]) -> Vec<Vec<usize>> {
    let mut groups: BTreeMap<Signature, (Vec<usize>, bool, u64)> = BTreeMap::new();
    for (i, s) in servers.iter().enumerate() {
        let key: Vec<(u16, usize, u64)> = s
            .compute
            .iter()
            .map(|p| (p.rail, p.switch, p.gbps.to_bits()))
            .collect();
        let e = groups
            .entry(key)
            .or_insert_with(|| (Vec::new(), s.nvlink, s.gpus.to_bits()));
        if e.1 == s.nvlink && e.2 == s.gpus.to_bits() {
            e.0.push(i);
        }
    }
    // Servers whose NVLink flag or GPU count differ from their attachment group's are grouped alone.
    let grouped: usize = groups.values().map(|g| g.0.len()).sum();
    let mut group_list: Vec<Vec<usize>> = groups.into_values().map(|g| g.0).collect();
    if grouped < servers.len() {
        let mut seen = vec![false; servers.len()];
        for g in &group_list {
            for i in g {
                if let Some(x) = seen.get_mut(*i) {
                    *x = true;
                }
            }
        }
        group_list.extend(
            seen.iter()
                .enumerate()
                .filter(|(_, s)| !**s)
                .map(|(i, _)| vec![i]),
        );
    }

    group_list
}

fn fabric(design: &Design) -> Fabric {
    let mut index = HashMap::default();
    for (id, d) in &design.devices {
        if matches!(
            design.parts.get(&d.part).map(|p| &p.kind),
            Some(PartKind::Switch(_))
        ) {
            let n = index.len();
            index.insert(*id, n);
        }
    }
    let mut adj = vec![Vec::new(); index.len()];
    // Switch-to-switch cables by their pair of switches (then link order, so a pair keeps its cables in link
    // order), then one edge per pair, numbered in the order its first cable comes: no map of pairs, whose lookups
    // were a cache miss per cable at 400,000 switch cables.
    // (lower switch, higher switch, link's place in link order, Gb/s).
    type Cable = (usize, usize, usize, f64);
    let mut cabled: Vec<Cable> = Vec::new();
    for (i, l) in design.links.values().enumerate() {
        let (Some(&a), Some(&b)) = (index.get(&l.a.device), index.get(&l.b.device)) else {
            continue;
        };
        if a != b {
            cabled.push((a.min(b), a.max(b), i, l.medium.gbps()));
        }
    }
    // In order of (lower, higher, place), without sorting every switch cable as one list.
    let cabled = crate::model::sorted_by(index.len(), cabled, |c| c.0, |c| (c.1, c.2));
    // Each pair as (its first cable's place, its range in `cabled`), put in order of that place: the sort key
    // sits in the entry, where sorting the runs themselves read it through a pointer per comparison.
    let mut pairs: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
    let mut start = 0;
    for run in cabled.chunk_by(|x, y| (x.0, x.1) == (y.0, y.1)) {
        if let Some(first) = run.first() {
            pairs.push((first.2, start..start + run.len()));
        }
        start += run.len();
    }
    pairs.sort_unstable_by_key(|p| p.0);
    let mut ends = Vec::with_capacity(pairs.len());
    let mut cap = Vec::with_capacity(pairs.len());
    let mut edge_of_link = vec![u32::MAX; design.links.len()];
    for (_, range) in pairs {
        let pair = cabled.get(range).unwrap_or(&[]);
        let Some(&(a, b, _, _)) = pair.first() else {
            continue;
        };
        for c in pair {
            if let Some(x) = edge_of_link.get_mut(c.2) {
                *x = ends.len() as u32;
            }
        }
        ends.push((a, b));
        cap.push(pair.iter().map(|c| c.3).sum::<f64>());
    }
    for (e, (a, b)) in ends.iter().enumerate() {
        if let Some(x) = adj.get_mut(*a) {
            x.push((*b, e));
        }
        if let Some(x) = adj.get_mut(*b) {
            x.push((*a, e));
        }
    }
    Fabric {
        index,
        adj,
        ends,
        cap,
        edge_of_link,
        ingress: None,
    }
}

/// GPU servers (in id order) and storage appliances with their ports and deliverable rate (Gb/s).
fn endpoints(design: &Design, fabric: &Fabric) -> (Vec<Server>, Vec<(Vec<Port>, f64)>) {
    // Each port with its NIC slot; the slot's role is read from the server's part once per server, below (a
    // device and part lookup per cable end cost a cache miss each at 160,000 server cables).
    // (device, port, NIC slot), sorted by device and then link order (each link gives at most one entry, at its
    // end that is not a switch): the devices below, in id order, each take the next run. A list sorted once, not a
    // hash map of per-device lists, whose scattered pushes grew faster than the cables.
    let mut ports: Vec<(DeviceId, Port, Option<u16>)> = Vec::new();
    for (at, l) in design.links.values().enumerate() {
        for (end, other) in [(&l.a, &l.b), (&l.b, &l.a)] {
            let Some(&sw) = fabric.index.get(&other.device) else {
                continue;
            };
            if fabric.index.contains_key(&end.device) {
                continue;
            }
            let slot = end.nic_slot_and_port().map(|(slot, _)| slot);
            ports.push((
                end.device,
                Port {
                    at,
                    switch: sw,
                    gbps: l.medium.gbps(),
                    rail: slot.unwrap_or(0),
                },
                slot,
            ));
        }
    }
    // Stable: a device's ports stay in link order.
    ports.sort_by_key(|p| p.0);
    let mut rest = ports.as_slice();
    let mut servers = Vec::new();
    let mut storage = Vec::new();
    for (id, d) in &design.devices {
        let kind = design.parts.get(&d.part).map(|p| &p.kind);
        let mine = super::next_run(&mut rest, |p| p.0, *id);
        match kind {
            Some(PartKind::Server(spec)) if !d.gpus.is_empty() => {
                // The ports on NIC slots of one role, read off the server's part.
                let with_role = |role: NicRole| -> Vec<Port> {
                    mine.iter()
                        .filter(|(_, _, slot)| {
                            slot.and_then(|k| spec.nic_slots.get(usize::from(k)))
                                .is_some_and(|x| x.role == role)
                        })
                        .map(|(_, p, _)| *p)
                        .collect()
                };
                let mut compute = with_role(NicRole::Compute);
                let mut st = with_role(NicRole::Storage);
                // Sorted by attachment so that servers of one group list their ports in the same order.
                compute.sort_by_key(|p| (p.rail, p.switch, p.gbps.to_bits(), p.at));
                st.sort_by_key(|p| (p.rail, p.switch, p.gbps.to_bits(), p.at));
                servers.push(Server {
                    gpus: d.gpus.len() as f64,
                    nvlink: spec.nvlink.is_some(),
                    compute,
                    storage: st,
                });
            }
            Some(PartKind::Storage(s)) if !mine.is_empty() => {
                let ps: Vec<Port> = mine.iter().map(|(_, p, _)| *p).collect();
                let link_total: f64 = ps.iter().map(|p| p.gbps).sum();
                storage.push((ps, (s.read_gbyte_s * 8.0).min(link_total)));
            }
            _ => {}
        }
    }
    (servers, storage)
}

fn components(f: &Fabric) -> Vec<usize> {
    let mut label = vec![usize::MAX; f.adj.len()];
    let mut next = 0;
    for s in 0..f.adj.len() {
        if label.get(s) != Some(&usize::MAX) {
            continue;
        }
        let mut stack = vec![s];
        if let Some(l) = label.get_mut(s) {
            *l = next;
        }
        while let Some(v) = stack.pop() {
            for &(w, _) in f.adj.get(v).map_or(&[][..], Vec::as_slice) {
                if let Some(l) = label.get_mut(w)
                    && *l == usize::MAX
                {
                    *l = next;
                    stack.push(w);
                }
            }
        }
        next += 1;
    }
    label
}

/// The top tier: switches farthest (in switch hops) from the switches that endpoints attach to.
fn top_switches(f: &Fabric, leaves: &[usize]) -> Vec<usize> {
    let n = f.adj.len();
    let mut dist = vec![u32::MAX; n];
    let mut q = VecDeque::new();
    for &v in leaves {
        if let Some(d) = dist.get_mut(v)
            && *d == u32::MAX
        {
            *d = 0;
            q.push_back(v);
        }
    }
    while let Some(v) = q.pop_front() {
        let dv = dist.get(v).copied().unwrap_or(0);
        for &(w, _) in f.adj.get(v).map_or(&[][..], Vec::as_slice) {
            if let Some(d) = dist.get_mut(w)
                && *d == u32::MAX
            {
                *d = dv + 1;
                q.push_back(w);
            }
        }
    }
    let top = dist
        .iter()
        .filter(|d| **d != u32::MAX)
        .max()
        .copied()
        .unwrap_or(0);
    (0..n).filter(|v| dist.get(*v) == Some(&top)).collect()
}

/// The switch graph as routing walks it: adjacency in one flat array (CSR) with each edge's capacity and direction.
struct Csr {
    offsets: Vec<u32>,
    /// (neighbour, edge, capacity, whether the edge's first end is this switch).
    flat: Vec<(u32, u32, f64, bool)>,
}

impl Csr {
    /// From the edge list in edge order, each edge written into both ends' rows: the rows list their edges in
    /// edge order, as `f.adj` does (which is how `fabric` fills it), reading the edges and capacities in one
    /// sequential pass instead of looking each up from the adjacency lists.
    fn new(f: &Fabric) -> Self {
        let (offsets, flat) = crate::model::grouped(f.adj.len(), || {
            f.ends
                .iter()
                .zip(&f.cap)
                .enumerate()
                .flat_map(|(e, (&(a, b), &cap))| {
                    [
                        (a, (b as u32, e as u32, cap, true)),
                        (b, (a as u32, e as u32, cap, false)),
                    ]
                })
        });
        Csr { offsets, flat }
    }

    fn neighbours(&self, v: usize) -> &[(u32, u32, f64, bool)] {
        let (Some(&lo), Some(&hi)) = (self.offsets.get(v), self.offsets.get(v + 1)) else {
            return &[];
        };
        self.flat.get(lo as usize..hi as usize).unwrap_or(&[])
    }
}

/// What routing one orbit of destination classes adds: loads per directed edge slot (2 x edge, + 1 for b to a), in
/// the order they were computed, the all-to-all loads apart in the same way, and the demand with no path. Applied
/// in orbit order, so the sums do not depend on how many threads computed the orbits.
type ClassLoads = (Vec<(u32, Loads)>, Vec<(u32, f64)>, Loads);

/// Destinations with the same switch neighbours: the key (neighbour, capacity bits) and the members.
type DestinationClass = (Vec<(u32, u64)>, Vec<usize>);

/// A relabelling of switches that is an automorphism of the switch graph (capacities included): it swaps one
/// class's region (its members and their neighbours) with another's and leaves every other switch in place. Empty
/// for the identity.
#[derive(Default)]
struct Relabel {
    node: HashMap<u32, u32>,
}

impl Relabel {
    fn node(&self, v: usize) -> usize {
        if self.node.is_empty() {
            return v;
        }
        self.node.get(&(v as u32)).map_or(v, |w| *w as usize)
    }
}

/// One [`Relabel`] laid out for the walks: the image of every switch of its regions and of every directed edge
/// slot that touches them, by index (arrays sized to the switches and the slots, set for one class and cleared
/// after), so that a lookup is a read, not a hash of a switch pair. Unset entries are the identity: switches
/// outside the regions stay, and so do edges between them.
struct Mapping {
    node: Vec<u32>,
    slot: Vec<u32>,
    /// Entries set, to clear.
    nodes_set: Vec<u32>,
    slots_set: Vec<u32>,
    /// Per switch, while one row is matched: the edge to it from the image switch, and whether that switch is
    /// the edge's first end.
    row: Vec<(u32, bool)>,
}

impl Mapping {
    const UNSET: u32 = u32::MAX;

    fn new(switches: usize, slots: usize) -> Self {
        Mapping {
            node: vec![Self::UNSET; switches],
            slot: vec![Self::UNSET; slots],
            nodes_set: Vec::new(),
            slots_set: Vec::new(),
            row: vec![(Self::UNSET, false); switches],
        }
    }

    fn node(&self, v: usize) -> usize {
        match self.node.get(v) {
            Some(&w) if w != Self::UNSET => w as usize,
            _ => v,
        }
    }

    /// Whether the switch is in one of the regions.
    fn moves(&self, v: usize) -> bool {
        self.node.get(v).is_some_and(|w| *w != Self::UNSET)
    }

    /// A directed edge slot relabelled: the slot of the edge between the images of its ends, in the same
    /// direction (the slot's parity says whether it runs from the edge's first end). A slot whose image edge does
    /// not exist stays.
    fn slot(&self, slot: u32) -> u32 {
        match self.slot.get(slot as usize) {
            Some(&to) if to != Self::UNSET => to,
            _ => slot,
        }
    }

    /// Sets the images of `r`'s switches and of the slots of every edge at them: for a switch u and its image x,
    /// x's edges by far end, then each edge (u, w) maps onto x's edge to w's image, each direction onto the same
    /// direction. Linear in the edges at the regions.
    fn set(&mut self, r: &Relabel, csr: &Csr) {
        for (&u, &x) in &r.node {
            if let Some(n) = self.node.get_mut(u as usize) {
                *n = x;
                self.nodes_set.push(u);
            }
        }
        for (&u, &x) in &r.node {
            let image = csr.neighbours(x as usize);
            for &(y, e, _, forward) in image {
                if let Some(p) = self.row.get_mut(y as usize) {
                    *p = (e, forward);
                }
            }
            for &(w, e, _, forward) in csr.neighbours(u as usize) {
                let y = self.node(w as usize);
                let Some(&(e2, forward2)) = self.row.get(y) else {
                    continue;
                };
                if e2 == Self::UNSET {
                    continue;
                }
                // From u: slot 2e when u is the first end; the image runs from x, 2e2 when x is the first end.
                let out = (2 * e + u32::from(!forward), 2 * e2 + u32::from(!forward2));
                let back = (2 * e + u32::from(forward), 2 * e2 + u32::from(forward2));
                for (from, to) in [out, back] {
                    if let Some(t) = self.slot.get_mut(from as usize) {
                        *t = to;
                        self.slots_set.push(from);
                    }
                }
            }
            for &(y, _, _, _) in image {
                if let Some(p) = self.row.get_mut(y as usize) {
                    *p = (Self::UNSET, false);
                }
            }
        }
    }

    /// Back to the identity.
    fn clear(&mut self) {
        for u in self.nodes_set.drain(..) {
            if let Some(n) = self.node.get_mut(u as usize) {
                *n = Self::UNSET;
            }
        }
        for x in self.slots_set.drain(..) {
            if let Some(t) = self.slot.get_mut(x as usize) {
                *t = Self::UNSET;
            }
        }
    }
}

/// Destination classes routed as one: a representative, and the classes an automorphism of the switch graph maps
/// it onto whose all-to-all demand is the representative's relabelled.
struct Orbit {
    rep: usize,
    others: Vec<(usize, Relabel)>,
}

/// Scratch space for routing one class, sized to the switch count and left clean after each class.
struct Scratch {
    dist: Vec<u32>,
    order: Vec<usize>,
    /// Demand-map traffic held at each switch during a walk.
    held: Vec<Loads>,
    /// All-to-all (product) traffic held at each switch during a walk.
    a2a: Vec<f64>,
    /// All-to-all demand to take out at a switch (own traffic and the products' terms of a member to itself).
    minus: Vec<f64>,
    injected: Vec<usize>,
    marked: Vec<bool>,
    /// Switches holding demand-map traffic, by distance (the sparse walk).
    buckets: Vec<Vec<u32>>,
    /// Per switch at distance >= 2: its next hops (neighbour, edge slot, share), a range of `hops`.
    hop_range: Vec<(u32, u32)>,
    hops: Vec<(u32, u32, f64)>,
    /// Per neighbour of the class: its position in the class key.
    slot: Vec<u32>,
    /// Per reached switch: how a unit it holds arrives at the class's neighbours, a range of `arrive`.
    p_range: Vec<(u32, u32)>,
    arrive: Vec<(u32, f64)>,
    dense: Vec<f64>,
    touched: Vec<u32>,
    /// The representative's all-to-all load per edge slot (orbits of more than one class), and the slots set.
    acc: Vec<f64>,
    acc_touched: Vec<u32>,
    /// Per edge slot: how many classes of the orbit move its load elsewhere (set with `acc`).
    moved: Vec<u32>,
    /// The relabelling of the class being walked (the identity when nothing is set).
    map: Mapping,
}

impl Scratch {
    fn new(n: usize, slots: usize) -> Self {
        Scratch {
            dist: vec![u32::MAX; n],
            order: Vec::new(),
            held: vec![[0.0; P]; n],
            a2a: vec![0.0; n],
            minus: vec![0.0; n],
            injected: Vec::new(),
            marked: vec![false; n],
            buckets: Vec::new(),
            hop_range: vec![(0, 0); n],
            hops: Vec::new(),
            slot: vec![u32::MAX; n],
            p_range: vec![(0, 0); n],
            arrive: Vec::new(),
            dense: Vec::new(),
            touched: Vec::new(),
            acc: Vec::new(),
            acc_touched: Vec::new(),
            moved: Vec::new(),
            map: Mapping::new(n, slots),
        }
    }

    /// Adds all-to-all demand held at switch `v` before the walk (`plus` and `minus`, taken apart at the end).
    fn inject_a2a(&mut self, v: usize, plus: f64, minus: f64) {
        if let (Some(h), Some(m)) = (self.a2a.get_mut(v), self.minus.get_mut(v)) {
            *h += plus;
            *m += minus;
        }
        if let Some(x) = self.marked.get_mut(v)
            && !*x
        {
            *x = true;
            self.injected.push(v);
        }
    }

    /// How a unit held at `v` arrives at the class's neighbours: (position in the key, share).
    fn arrival(&self, v: usize) -> &[(u32, f64)] {
        let Some(&(lo, hi)) = self.p_range.get(v) else {
            return &[];
        };
        self.arrive.get(lo as usize..hi as usize).unwrap_or(&[])
    }

    /// The switch's distance to the class, if it has a path.
    fn reach(&self, v: usize) -> Option<u32> {
        self.dist.get(v).copied().filter(|d| *d != u32::MAX)
    }
}

/// `plus - minus`, or 0 when only rounding is left (see [`CANCELLED`]).
fn cancel(plus: f64, minus: f64) -> f64 {
    let left = plus - minus;
    if left > CANCELLED * plus { left } else { 0.0 }
}

/// ECMP routing of switch-to-switch demands. Returns directed loads per edge ((a to b), (b to a)) and the demand
/// that found no path, per pattern.
///
/// Destinations with the same switch neighbours (and capacities) form a class: every other switch is as far from
/// each member and splits traffic for it over the same next hops (a pod's leaves all hang off the same spines). So
/// per class one breadth-first search and one walk of the class's summed demand give the loads on every hop but the
/// last (routing is linear in the demand); the last hop, neighbour to member, carries what the member's own sources
/// deliver to that neighbour, from each source's arrival distribution over the neighbours, computed once per class.
///
/// Classes that the fabric's symmetry maps onto each other are routed once (see [`orbits`]): when an automorphism
/// of the switch graph swaps class A's region (members and neighbours) with class B's and fixes everything else,
/// B's distances and next hops are A's relabelled, so B's traffic is walked on A's structure. The all-to-all, which
/// reaches every class from every leaf, is walked once for A when B's product demand is A's relabelled: B's loads
/// are A's with the two regions swapped, so on links outside both regions the orbit adds A's load once per class,
/// and only the links of the regions are moved one by one. The other patterns (rings, storage, serving: sparse)
/// are walked per class over only the switches they reach. Routing toward an orbit of k classes costs one
/// search and one all-to-all walk plus, per class, its region and its sparse traffic.
fn route(
    f: &Fabric,
    demand: &HashMap<usize, HashMap<usize, Loads>>,
    products: &Products,
) -> (Vec<(Loads, Loads)>, Loads) {
    route_with(f, demand, products, true)
}

/// [`route`], with the symmetry between classes used or not (`symmetry`: the tests compare the two).
fn route_with(
    f: &Fabric,
    demand: &HashMap<usize, HashMap<usize, Loads>>,
    products: &Products,
    symmetry: bool,
) -> (Vec<(Loads, Loads)>, Loads) {
    let n = f.adj.len();
    let csr = Csr::new(f);
    let classes = destination_classes(&csr, demand, products);
    let orbit_list = if symmetry {
        orbits(f, &csr, &classes, products)
    } else {
        (0..classes.len())
            .map(|rep| Orbit {
                rep,
                others: Vec::new(),
            })
            .collect()
    };
    let mut loads = vec![([0.0; P], [0.0; P]); f.ends.len()];
    // The all-to-all (product) loads per directed edge slot, apart: they are most of the additions, and an array
    // of one figure per slot stays in cache where the loads of every pattern do not. Added in at the end; the
    // demand map never carries all-to-all traffic, so each slot's all-to-all sum is the same either way.
    let mut a2a = vec![0.0; 2 * f.ends.len()];
    let put_a2a = |a2a: &mut Vec<f64>, slot: u32, x: f64| {
        if let Some(y) = a2a.get_mut(slot as usize) {
            *y += x;
        }
    };
    let mut unroutable = [0.0; P];
    let put = |loads: &mut Vec<(Loads, Loads)>, slot: u32, x: &Loads| {
        if let Some(l) = loads.get_mut(slot as usize / 2) {
            add(
                if slot.is_multiple_of(2) {
                    &mut l.0
                } else {
                    &mut l.1
                },
                x,
                1.0,
            );
        }
    };
    let ctx = Context {
        f,
        csr: &csr,
        demand,
        products,
        classes: &classes,
    };
    // Orbits in parallel, a few per thread at a time (each holds its loads until applied), applied in orbit order:
    // the same additions in the same order as one thread writing directly, so the sums are identical.
    use rayon::prelude::*;
    let threads = rayon::current_num_threads().max(1);
    if threads == 1 || orbit_list.len() < 2 {
        let mut s = Scratch::new(n, 2 * f.ends.len());
        for o in &orbit_list {
            let lost = route_orbit(
                &ctx,
                o,
                &mut s,
                |slot, x| put(&mut loads, slot, x),
                |slot, x| put_a2a(&mut a2a, slot, x),
            );
            add(&mut unroutable, &lost, 1.0);
        }
    } else {
        for batch in orbit_list.chunks(2 * threads) {
            let out: Vec<ClassLoads> = batch
                .par_iter()
                .map_init(
                    || Scratch::new(n, 2 * f.ends.len()),
                    |s, o| {
                        let (mut adds, mut a2a_adds) = (Vec::new(), Vec::new());
                        let lost = route_orbit(
                            &ctx,
                            o,
                            s,
                            |slot, x| adds.push((slot, *x)),
                            |slot, x| a2a_adds.push((slot, x)),
                        );
                        (adds, a2a_adds, lost)
                    },
                )
                .collect();
            for (adds, a2a_adds, lost) in out {
                for (slot, x) in &adds {
                    put(&mut loads, *slot, x);
                }
                for (slot, x) in a2a_adds {
                    put_a2a(&mut a2a, slot, x);
                }
                add(&mut unroutable, &lost, 1.0);
            }
        }
    }
    for (slot, x) in a2a.into_iter().enumerate() {
        if x != 0.0 {
            put(&mut loads, slot as u32, &all_to_all_only(x));
        }
    }
    if let Some(u) = unroutable.get_mut(2) {
        *u += products.lost;
    }
    (loads, unroutable)
}

/// Every switch some demand goes to (pairwise or in product form), in index order.
fn destination_switches(
    demand: &HashMap<usize, HashMap<usize, Loads>>,
    products: &Products,
) -> Vec<usize> {
    let mut destinations: Vec<usize> = demand
        .keys()
        .chain(products.terms.iter().flat_map(|(_, b)| b.keys()))
        .copied()
        .collect();
    destinations.sort_unstable();
    destinations.dedup();
    destinations
}

/// The destination switches of the demand and the products, in classes by their switch neighbours (with
/// capacities), members in switch order.
fn destination_classes(
    csr: &Csr,
    demand: &HashMap<usize, HashMap<usize, Loads>>,
    products: &Products,
) -> Vec<DestinationClass> {
    let mut classes: BTreeMap<Vec<(u32, u64)>, Vec<usize>> = BTreeMap::new();
    let destinations = destination_switches(demand, products);
    for t in destinations {
        let mut key: Vec<(u32, u64)> = csr
            .neighbours(t)
            .iter()
            .map(|x| (x.0, x.2.to_bits()))
            .collect();
        key.sort_unstable();
        classes.entry(key).or_default().push(t);
    }
    classes.into_iter().collect()
}

/// What routing an orbit reads.
struct Context<'a> {
    f: &'a Fabric,
    csr: &'a Csr,
    demand: &'a HashMap<usize, HashMap<usize, Loads>>,
    products: &'a Products,
    classes: &'a [DestinationClass],
}

/// Groups the destination classes into orbits (see [`route`]). A class can share its routing when its neighbours
/// belong to no other class's key, have no cables between them and do not include the serving ingress. Its
/// canonical form is its size and, per neighbour in sorted order, the capacity to the members and the list of
/// switches beyond (by id, with capacities): classes with the same form whose regions do not touch are swapped by
/// an automorphism (members paired in id order, neighbours in canonical order; every cable of one region has its
/// twin in the other, and the cables beyond go to the same switches). Such a class joins an orbit when, in
/// addition, its all-to-all demand is the representative's relabelled: the same destination weights per member,
/// the same source weights on both regions and the same own-traffic corrections. The work is linear in the cables
/// of the classes' neighbours, plus, per class, its region times the (at most four) representatives it is tried
/// against.
fn orbits(f: &Fabric, csr: &Csr, classes: &[DestinationClass], products: &Products) -> Vec<Orbit> {
    const NONE: u32 = u32::MAX;
    const TRIES: usize = 4;
    let n = f.adj.len();
    let mut member_of = vec![NONE; n];
    let mut key_of = vec![NONE; n];
    let mut owners = vec![0u32; n];
    for (c, (key, members)) in classes.iter().enumerate() {
        for &t in members {
            if let Some(x) = member_of.get_mut(t) {
                *x = c as u32;
            }
        }
        for &(w, _) in key {
            if let (Some(o), Some(k)) = (owners.get_mut(w as usize), key_of.get_mut(w as usize)) {
                *o += 1;
                *k = c as u32;
            }
        }
    }
    let ingress = f.ingress.map(|v| v as u32);
    // Per neighbour: the capacity to the members and the switches beyond with their capacities.
    type Beyond = (u64, Vec<(u32, u64)>);
    type Form = (usize, Vec<Beyond>);
    let mut forms: BTreeMap<Form, Vec<usize>> = BTreeMap::new();
    // Per class: its neighbours in canonical order.
    let mut canonical: Vec<Vec<u32>> = vec![Vec::new(); classes.len()];
    for (c, (key, members)) in classes.iter().enumerate() {
        let eligible = !key.is_empty()
            && key
                .iter()
                .all(|(w, _)| owners.get(*w as usize) == Some(&1) && Some(*w) != ingress)
            && members.iter().all(|t| Some(*t as u32) != ingress);
        if !eligible {
            continue;
        }
        let mut sigs: Vec<(Beyond, u32)> = Vec::with_capacity(key.len());
        let mut ok = true;
        for &(w, cap) in key {
            let mut beyond: Vec<(u32, u64)> = Vec::new();
            for &(x, _, xcap, _) in csr.neighbours(w as usize) {
                if member_of.get(x as usize) == Some(&(c as u32)) {
                    continue;
                }
                if key_of.get(x as usize) == Some(&(c as u32)) {
                    ok = false;
                    break;
                }
                beyond.push((x, xcap.to_bits()));
            }
            if !ok {
                break;
            }
            beyond.sort_unstable();
            sigs.push(((cap, beyond), w));
        }
        if !ok {
            continue;
        }
        sigs.sort_unstable();
        if let Some(x) = canonical.get_mut(c) {
            *x = sigs.iter().map(|s| s.1).collect();
        }
        forms
            .entry((members.len(), sigs.into_iter().map(|s| s.0).collect()))
            .or_default()
            .push(c);
    }
    let relabel = |a: usize, b: usize| -> Option<Relabel> {
        let (ma, mb) = (&classes.get(a)?.1, &classes.get(b)?.1);
        let (na, nb) = (canonical.get(a)?, canonical.get(b)?);
        if ma.len() != mb.len() || na.len() != nb.len() {
            return None;
        }
        // The regions must not touch: nothing beyond a's neighbours is b's member or neighbour (b's neighbours
        // reach the same switches beyond, so the reverse holds too).
        for &w in na {
            for &(x, _, _, _) in csr.neighbours(w as usize) {
                let x = x as usize;
                if member_of.get(x) == Some(&(b as u32)) || key_of.get(x) == Some(&(b as u32)) {
                    return None;
                }
            }
        }
        let mut node: HashMap<u32, u32> = HashMap::default();
        for (&x, &y) in ma.iter().zip(mb) {
            node.insert(x as u32, y as u32);
            node.insert(y as u32, x as u32);
        }
        for (&x, &y) in na.iter().zip(nb) {
            node.insert(x, y);
            node.insert(y, x);
        }
        Some(Relabel { node })
    };
    let same_demand = |a: usize, b: usize, r: &Relabel| -> bool {
        let (Some((_, ma)), Some((_, mb))) = (classes.get(a), classes.get(b)) else {
            return false;
        };
        let bits = |x: Option<&f64>| x.map(|y| y.to_bits());
        let a_at = |v: &[(usize, f64)], s: u32| {
            v.binary_search_by_key(&(s as usize), |x| x.0)
                .ok()
                .and_then(|i| v.get(i))
                .map(|x| x.1.to_bits())
        };
        for (av, bv) in &products.terms {
            if ma
                .iter()
                .zip(mb)
                .any(|(ta, tb)| bits(bv.get(ta)) != bits(bv.get(tb)))
            {
                return false;
            }
            if r.node.iter().any(|(x, y)| a_at(av, *x) != a_at(av, *y)) {
                return false;
            }
        }
        for (ta, tb) in ma.iter().zip(mb) {
            let own = |t: &usize, map: bool| -> Vec<(usize, u64)> {
                let mut v: Vec<(usize, u64)> = products
                    .own
                    .get(t)
                    .map_or(&[][..], Vec::as_slice)
                    .iter()
                    .map(|(s, x)| (if map { r.node(*s) } else { *s }, x.to_bits()))
                    .collect();
                v.sort_unstable();
                v
            };
            if own(ta, true) != own(tb, false) {
                return false;
            }
        }
        true
    };
    let mut out: Vec<Orbit> = Vec::new();
    let mut placed = vec![false; classes.len()];
    for list in forms.into_values() {
        let mut reps: Vec<usize> = Vec::new();
        for c in list {
            let mut home = None;
            for &oi in reps.iter().take(TRIES) {
                let Some(rep) = out.get(oi).map(|o| o.rep) else {
                    continue;
                };
                if let Some(r) = relabel(rep, c)
                    && same_demand(rep, c, &r)
                {
                    home = Some((oi, r));
                    break;
                }
            }
            match home {
                Some((oi, r)) => {
                    if let Some(o) = out.get_mut(oi) {
                        o.others.push((c, r));
                    }
                }
                None => {
                    reps.push(out.len());
                    out.push(Orbit {
                        rep: c,
                        others: Vec::new(),
                    });
                }
            }
            if let Some(p) = placed.get_mut(c) {
                *p = true;
            }
        }
    }
    for (c, p) in placed.iter().enumerate() {
        if !p {
            out.push(Orbit {
                rep: c,
                others: Vec::new(),
            });
        }
    }
    out.sort_by_key(|o| o.rep);
    out
}

/// Routes the demand to one orbit of destination classes (see [`route`]): hands each load to `emit` (directed edge
/// slot, loads) in a fixed order and returns the demand with no path.
fn route_orbit(
    ctx: &Context<'_>,
    orbit: &Orbit,
    s: &mut Scratch,
    mut emit: impl FnMut(u32, &Loads),
    mut emit_a2a: impl FnMut(u32, f64),
) -> Loads {
    let mut lost = [0.0; P];
    let Some((key, members)) = ctx.classes.get(orbit.rep) else {
        return lost;
    };
    build_structure(ctx.f, ctx.csr, key, s);
    // The representative's own traffic (its loads go to `emit`, apart from the all-to-all's `emit_a2a`, so the
    // order between the two walks changes no sum).
    let l = walk_demand(ctx, key.len(), members, s, &mut emit);
    add(&mut lost, &l, 1.0);
    if orbit.others.is_empty() {
        let l = walk_products(ctx.csr, ctx.products, key, members, s, &mut emit_a2a);
        add(&mut lost, &all_to_all_only(l), 1.0);
    } else {
        // The representative's all-to-all loads per slot, laid onto every class of the orbit.
        let mut acc = std::mem::take(&mut s.acc);
        let mut touched = std::mem::take(&mut s.acc_touched);
        if acc.len() < 2 * ctx.f.ends.len() {
            acc.resize(2 * ctx.f.ends.len(), 0.0);
        }
        let l = walk_products(ctx.csr, ctx.products, key, members, s, |slot, x| {
            if let Some(y) = acc.get_mut(slot as usize) {
                if *y == 0.0 {
                    touched.push(slot);
                }
                *y += x;
            }
        });
        let k = orbit.others.len() + 1;
        add(&mut lost, &all_to_all_only(l * k as f64), 1.0);
        // Per class, with its relabelling set once: the slots of the cables of both regions move to their images
        // (every other slot stays), and its own traffic is walked on the representative's structure.
        let mut moved = std::mem::take(&mut s.moved);
        if moved.len() < 2 * ctx.f.ends.len() {
            moved.resize(2 * ctx.f.ends.len(), 0);
        }
        for (c, r) in &orbit.others {
            s.map.set(r, ctx.csr);
            move_region(
                ctx.csr,
                &s.map,
                r,
                |slot| acc.get(slot as usize).is_some_and(|x| *x != 0.0),
                &mut moved,
                |from, to| emit_a2a(to, acc.get(from as usize).copied().unwrap_or(0.0)),
            );
            if let Some((_, m)) = ctx.classes.get(*c) {
                let l = walk_demand(ctx, key.len(), m, s, &mut emit);
                add(&mut lost, &l, 1.0);
            }
            s.map.clear();
        }
        for &slot in &touched {
            let Some(x) = acc.get_mut(slot as usize) else {
                continue;
            };
            let m = moved.get_mut(slot as usize).map_or(0, std::mem::take);
            let stay = k - m as usize;
            if stay > 0 && *x != 0.0 {
                emit_a2a(slot, *x * stay as f64);
            }
            *x = 0.0;
        }
        touched.clear();
        s.acc = acc;
        s.acc_touched = touched;
        s.moved = moved;
    }
    clear_structure(key, s);
    lost
}

/// With `map` set to the relabelling `r`, the slots of the cables at its regions that hold a load (`holds`) move
/// to their images: `to(slot, image)` for each, counted in `moved` (what stays at a slot is then the orbit's size
/// less its moves). Each cable is visited once, from its region end (the lower one when both are), so the work is
/// the regions' cables, not the fabric's.
fn move_region(
    csr: &Csr,
    map: &Mapping,
    r: &Relabel,
    holds: impl Fn(u32) -> bool,
    moved: &mut [u32],
    mut to: impl FnMut(u32, u32),
) {
    let mut nodes: Vec<u32> = r.node.keys().copied().collect();
    nodes.sort_unstable();
    for &u in &nodes {
        for &(w, e, _, _) in csr.neighbours(u as usize) {
            if w < u && map.moves(w as usize) {
                continue;
            }
            for slot in [2 * e, 2 * e + 1] {
                if !holds(slot) {
                    continue;
                }
                let image = map.slot(slot);
                if image != slot {
                    to(slot, image);
                    if let Some(m) = moved.get_mut(slot as usize) {
                        *m += 1;
                    }
                }
            }
        }
    }
}

/// Distances to the class (its neighbours at 1), every farther switch's next hops with their shares (by capacity),
/// and how a unit held at each switch arrives at the neighbours (nearest first, from its next hops' arrivals).
fn build_structure(f: &Fabric, csr: &Csr, key: &[(u32, u64)], s: &mut Scratch) {
    s.order.clear();
    for (i, &(w, _)) in key.iter().enumerate() {
        if let Some(d) = s.dist.get_mut(w as usize)
            && *d == u32::MAX
        {
            *d = 1;
            s.order.push(w as usize);
        }
        if let Some(x) = s.slot.get_mut(w as usize) {
            *x = i as u32;
        }
    }
    let mut head = 0;
    while let Some(&v) = s.order.get(head) {
        head += 1;
        if Some(v) == f.ingress {
            // The ingress is a source and a sink, never a path between switches.
            continue;
        }
        let dv = s.dist.get(v).copied().unwrap_or(0);
        for &(w, _, _, _) in csr.neighbours(v) {
            let w = w as usize;
            if let Some(d) = s.dist.get_mut(w)
                && *d == u32::MAX
            {
                *d = dv + 1;
                s.order.push(w);
            }
        }
    }
    s.hops.clear();
    s.arrive.clear();
    s.dense.clear();
    s.dense.resize(key.len(), 0.0);
    for oi in 0..s.order.len() {
        let Some(&v) = s.order.get(oi) else { continue };
        let dv = s.dist.get(v).copied().unwrap_or(0);
        let start = s.hops.len() as u32;
        let p_start = s.arrive.len() as u32;
        if dv == 1 {
            let at = s.slot.get(v).copied().unwrap_or(u32::MAX);
            s.arrive.push((at, 1.0));
        } else {
            let adj = csr.neighbours(v);
            let dist = &s.dist;
            let next = |w: u32| {
                dist.get(w as usize)
                    .is_some_and(|d| d.saturating_add(1) == dv)
            };
            let total: f64 = adj.iter().filter(|x| next(x.0)).map(|x| x.2).sum();
            if total > 0.0 {
                for &(w, e, cap, forward) in adj {
                    if next(w) {
                        s.hops.push((w, 2 * e + u32::from(!forward), cap / total));
                    }
                }
            }
            let hi = s.hops.len();
            for hi_i in start as usize..hi {
                let Some(&(w, _, share)) = s.hops.get(hi_i) else {
                    continue;
                };
                let Some(&(lo, up)) = s.p_range.get(w as usize) else {
                    continue;
                };
                for pi in lo as usize..up as usize {
                    let Some(&(i, p)) = s.arrive.get(pi) else {
                        continue;
                    };
                    if let Some(x) = s.dense.get_mut(i as usize) {
                        if *x == 0.0 {
                            s.touched.push(i);
                        }
                        *x += share * p;
                    }
                }
            }
            s.touched.sort_unstable();
            for &i in &s.touched {
                if let Some(x) = s.dense.get_mut(i as usize) {
                    s.arrive.push((i, *x));
                    *x = 0.0;
                }
            }
            s.touched.clear();
        }
        if let Some(r) = s.hop_range.get_mut(v) {
            *r = (start, s.hops.len() as u32);
        }
        if let Some(r) = s.p_range.get_mut(v) {
            *r = (p_start, s.arrive.len() as u32);
        }
    }
}

/// Leaves `s` clean for the next class.
fn clear_structure(key: &[(u32, u64)], s: &mut Scratch) {
    for &v in &s.order {
        if let Some(d) = s.dist.get_mut(v) {
            *d = u32::MAX;
        }
        if let Some(r) = s.hop_range.get_mut(v) {
            *r = (0, 0);
        }
        if let Some(r) = s.p_range.get_mut(v) {
            *r = (0, 0);
        }
    }
    for &(w, _) in key {
        if let Some(x) = s.slot.get_mut(w as usize) {
            *x = u32::MAX;
        }
    }
}

/// The all-to-all (product) demand to one class, on the structure built for it: a(v) x the class's b at every
/// source, less a member's term to itself and with each group's own traffic taken out; walked farthest first, then
/// the last hop per member. Emits (directed edge slot, Gb/s) and returns the traffic with no path.
fn walk_products(
    csr: &Csr,
    products: &Products,
    key: &[(u32, u64)],
    members: &[usize],
    s: &mut Scratch,
    mut emit: impl FnMut(u32, f64),
) -> f64 {
    let mut lost = 0.0;
    if products.terms.is_empty() {
        return lost;
    }
    for (a, b) in &products.terms {
        let mut bc = 0.0;
        for &t in members {
            let Some(&bt) = b.get(&t) else { continue };
            bc += bt;
            if let Ok(i) = a.binary_search_by_key(&t, |x| x.0)
                && let Some(&(_, at)) = a.get(i)
            {
                s.inject_a2a(t, 0.0, at * bt);
            }
        }
        if bc == 0.0 {
            continue;
        }
        for &(v, av) in a {
            s.inject_a2a(v, av * bc, 0.0);
        }
    }
    for &t in members {
        for &(v, own) in products.own.get(&t).map_or(&[][..], Vec::as_slice) {
            s.inject_a2a(v, products.net(v, t, own), products.whole(v, t));
        }
    }
    for ii in 0..s.injected.len() {
        let Some(&v) = s.injected.get(ii) else {
            continue;
        };
        let reach = s.reach(v).is_some();
        let m = s.minus.get(v).copied().unwrap_or(0.0);
        if let Some(h) = s.a2a.get_mut(v) {
            *h = cancel(*h, m);
            if !reach {
                lost += *h;
                *h = 0.0;
            }
        }
        if let Some(x) = s.minus.get_mut(v) {
            *x = 0.0;
        }
        if let Some(x) = s.marked.get_mut(v) {
            *x = false;
        }
    }
    s.injected.clear();

    // Farthest first: each switch passes on what it holds to its next hops; the neighbours hand over below.
    for oi in (0..s.order.len()).rev() {
        let Some(&v) = s.order.get(oi) else { continue };
        let Some(h) = s.a2a.get_mut(v) else { continue };
        let here = std::mem::replace(h, 0.0);
        if here == 0.0 || s.dist.get(v) == Some(&1) {
            continue;
        }
        let Some(&(lo, hi)) = s.hop_range.get(v) else {
            continue;
        };
        if lo == hi {
            lost += here;
            continue;
        }
        for hi_i in lo as usize..hi as usize {
            let Some(&(w, slot, share)) = s.hops.get(hi_i) else {
                continue;
            };
            let x = here * share;
            emit(slot, x);
            if let Some(h) = s.a2a.get_mut(w as usize) {
                *h += x;
            }
        }
    }

    // The last hop, per member: what its sources deliver to each neighbour.
    let mut at_term: Vec<Option<Vec<f64>>> = vec![None; products.terms.len()];
    let mut arr: Vec<f64> = vec![0.0; key.len()];
    let mut arr_minus: Vec<f64> = vec![0.0; key.len()];
    for &t in members {
        arr.fill(0.0);
        arr_minus.fill(0.0);
        for (ti, (a, b)) in products.terms.iter().enumerate() {
            let Some(&bt) = b.get(&t) else { continue };
            let Some(slot) = at_term.get_mut(ti) else {
                continue;
            };
            // What the whole source vector delivers to each neighbour, once per term and class.
            let whole = slot.get_or_insert_with(|| {
                let mut w = vec![0.0; key.len()];
                for &(v, av) in a {
                    if s.reach(v).is_some() {
                        for &(i, p) in s.arrival(v) {
                            if let Some(x) = w.get_mut(i as usize) {
                                *x += av * p;
                            }
                        }
                    }
                }
                w
            });
            for (x, w) in arr.iter_mut().zip(whole.iter()) {
                *x += bt * w;
            }
            if let Ok(i) = a.binary_search_by_key(&t, |x| x.0)
                && let Some(&(_, at)) = a.get(i)
                && s.reach(t).is_some()
            {
                for &(i, p) in s.arrival(t) {
                    if let Some(x) = arr_minus.get_mut(i as usize) {
                        *x += at * bt * p;
                    }
                }
            }
        }
        for &(v, own) in products.own.get(&t).map_or(&[][..], Vec::as_slice) {
            if s.reach(v).is_none() {
                continue;
            }
            let (net, whole) = (products.net(v, t, own), products.whole(v, t));
            for &(i, p) in s.arrival(v) {
                if let (Some(x), Some(m)) = (arr.get_mut(i as usize), arr_minus.get_mut(i as usize))
                {
                    *x += net * p;
                    *m += whole * p;
                }
            }
        }
        for &(w, e, _, forward) in csr.neighbours(t) {
            let Some(i) = s.slot.get(w as usize).copied() else {
                continue;
            };
            let (Some(x), Some(m)) = (arr.get(i as usize), arr_minus.get(i as usize)) else {
                continue;
            };
            let x = cancel(*x, *m);
            if x != 0.0 {
                // From the neighbour to the member: the edge's second-to-first direction when the member is its
                // first end.
                emit(2 * e + u32::from(forward), x);
            }
        }
    }
    lost
}

/// The demand map's traffic (rings, storage, serving) to `members`, one class, on the structure built for the
/// class the scratch's mapping takes them to (the identity for the representative itself): injected at the
/// relabelled sources, walked farthest first over only the switches it reaches, each load emitted on the relabelled
/// edge; the last hop is on the members' own cables. Returns the traffic with no path.
fn walk_demand(
    ctx: &Context<'_>,
    key_len: usize,
    members: &[usize],
    s: &mut Scratch,
    emit: &mut impl FnMut(u32, &Loads),
) -> Loads {
    let mut lost = [0.0; P];
    let mut any = false;
    for &t in members {
        for (&v, amount) in ctx.demand.get(&t).into_iter().flatten() {
            if v == t {
                continue;
            }
            let v = s.map.node(v);
            let Some(d) = s.reach(v) else {
                add(&mut lost, amount, 1.0);
                continue;
            };
            any = true;
            if let Some(h) = s.held.get_mut(v) {
                add(h, amount, 1.0);
            }
            if let Some(m) = s.marked.get_mut(v)
                && !*m
            {
                *m = true;
                let d = d as usize;
                if s.buckets.len() <= d {
                    s.buckets.resize_with(d + 1, Vec::new);
                }
                if let Some(b) = s.buckets.get_mut(d) {
                    b.push(v as u32);
                }
            }
        }
    }
    if !any {
        return lost;
    }
    // Farthest first; a switch's next hops are one nearer, so each bucket is complete when its turn comes.
    for d in (0..s.buckets.len()).rev() {
        let Some(list) = s.buckets.get_mut(d).map(std::mem::take) else {
            continue;
        };
        for &v in &list {
            let v = v as usize;
            if let Some(m) = s.marked.get_mut(v) {
                *m = false;
            }
            let Some(h) = s.held.get_mut(v) else { continue };
            let here = std::mem::replace(h, [0.0; P]);
            if d <= 1 || here.iter().all(|x| *x == 0.0) {
                continue;
            }
            let Some(&(lo, hi)) = s.hop_range.get(v) else {
                continue;
            };
            if lo == hi {
                add(&mut lost, &here, 1.0);
                continue;
            }
            for hi_i in lo as usize..hi as usize {
                let Some(&(w, slot, share)) = s.hops.get(hi_i) else {
                    continue;
                };
                let mut x = [0.0; P];
                add(&mut x, &here, share);
                emit(s.map.slot(slot), &x);
                if let Some(h) = s.held.get_mut(w as usize) {
                    add(h, &here, share);
                }
                if let Some(m) = s.marked.get_mut(w as usize)
                    && !*m
                {
                    *m = true;
                    if let Some(b) = s.buckets.get_mut(d - 1) {
                        b.push(w);
                    }
                }
            }
        }
        let mut list = list;
        list.clear();
        if let Some(b) = s.buckets.get_mut(d)
            && b.is_empty()
        {
            *b = list;
        }
    }
    // The last hop, per member: what its sources deliver to each neighbour.
    let mut arr: Vec<Loads> = vec![[0.0; P]; key_len];
    for &t in members {
        let mut some = false;
        for (&v, amount) in ctx.demand.get(&t).into_iter().flatten() {
            if v == t {
                continue;
            }
            let v = s.map.node(v);
            if s.reach(v).is_none() {
                continue;
            }
            for &(i, p) in s.arrival(v) {
                if let Some(x) = arr.get_mut(i as usize) {
                    add(x, amount, p);
                    some = true;
                }
            }
        }
        if !some {
            continue;
        }
        for &(w, e, _, forward) in ctx.csr.neighbours(t) {
            let Some(i) = s.slot.get(s.map.node(w as usize)).copied() else {
                continue;
            };
            if let Some(x) = arr.get(i as usize)
                && x.iter().any(|y| *y != 0.0)
            {
                emit(2 * e + u32::from(forward), x);
            }
        }
        for x in arr.iter_mut() {
            *x = [0.0; P];
        }
    }
    lost
}

/// The per-destination ECMP walk [`route`] replaced, kept as the reference it is tested against: it walks every
/// switch once per destination switch, so its cost grows with the square of the leaves.
#[cfg(test)]
fn route_reference(
    f: &Fabric,
    demand: &HashMap<usize, HashMap<usize, Loads>>,
    products: &Products,
) -> (Vec<(Loads, Loads)>, Loads) {
    let n = f.adj.len();
    let csr = Csr::new(f);
    let neighbours = |v: usize| csr.neighbours(v);
    let mut loads = vec![([0.0; P], [0.0; P]); f.ends.len()];
    let mut unroutable = [0.0; P];
    let mut dist = vec![u32::MAX; n];
    let mut held: Vec<Loads> = vec![[0.0; P]; n];
    let mut order: Vec<usize> = Vec::with_capacity(n);
    // Destinations with the same switch neighbours (and capacities) give every other switch the same distance, so
    // one breadth-first search serves the whole class (a pod's leaves all hang off the same spines).
    let mut classes: BTreeMap<Vec<(u32, u64)>, Vec<usize>> = BTreeMap::new();
    let destinations = destination_switches(demand, products);
    // Sources whose product demand to the current destination is corrected (taken from `Products::own`).
    let mut corrected = vec![false; n];
    for t in destinations {
        let mut key: Vec<(u32, u64)> = neighbours(t).iter().map(|x| (x.0, x.2.to_bits())).collect();
        key.sort_unstable();
        classes.entry(key).or_default().push(t);
    }
    for (key, mut members) in classes {
        members.sort_unstable();
        // Distances to the class's neighbours plus one: every switch's distance to any member.
        for &v in &order {
            if let Some(d) = dist.get_mut(v) {
                *d = u32::MAX;
            }
        }
        order.clear();
        for &(w, _) in &key {
            if let Some(d) = dist.get_mut(w as usize)
                && *d == u32::MAX
            {
                *d = 1;
                order.push(w as usize);
            }
        }
        let mut head = 0;
        while let Some(&v) = order.get(head) {
            head += 1;
            if Some(v) == f.ingress {
                // The ingress is a source and a sink, never a path between switches.
                continue;
            }
            let dv = dist.get(v).copied().unwrap_or(0);
            for &(w, _, _, _) in neighbours(v) {
                let w = w as usize;
                if let Some(d) = dist.get_mut(w)
                    && *d == u32::MAX
                {
                    *d = dv + 1;
                    order.push(w);
                }
            }
        }
        // Next hops of every switch farther than the class's neighbours, with their shares: the same for every
        // member (the neighbours themselves have one next hop, the member).
        let mut hop_off: Vec<u32> = vec![0; n + 1];
        let mut hops: Vec<(u32, usize, f64)> = Vec::new();
        {
            let mut starts: Vec<(usize, u32)> = Vec::with_capacity(order.len());
            for &v in &order {
                let dv = dist.get(v).copied().unwrap_or(0);
                let start = hops.len() as u32;
                if dv >= 2 {
                    let adj = neighbours(v);
                    let next = |w: u32| {
                        dist.get(w as usize)
                            .is_some_and(|d| d.saturating_add(1) == dv)
                    };
                    let total: f64 = adj.iter().filter(|x| next(x.0)).map(|x| x.2).sum();
                    if total > 0.0 {
                        for &(w, e, cap, forward) in adj {
                            if next(w) {
                                hops.push((w, 2 * e as usize + usize::from(!forward), cap / total));
                            }
                        }
                    }
                }
                starts.push((v, start));
            }
            // Offsets per node (nodes not in `order` get empty ranges).
            let mut ranges: Vec<(u32, u32)> = vec![(0, 0); n];
            for (i, (v, start)) in starts.iter().enumerate() {
                let end = starts.get(i + 1).map_or(hops.len() as u32, |x| x.1);
                if let Some(r) = ranges.get_mut(*v) {
                    *r = (*start, end);
                }
            }
            hop_off = ranges.iter().flat_map(|(a, b)| [*a, *b]).collect();
        }
        let next_hops = |v: usize| -> &[(u32, usize, f64)] {
            let (Some(&lo), Some(&hi)) = (hop_off.get(2 * v), hop_off.get(2 * v + 1)) else {
                return &[];
            };
            hops.get(lo as usize..hi as usize).unwrap_or(&[])
        };
        for t in members {
            let base = dist.get(t).copied().unwrap_or(u32::MAX);
            if let Some(d) = dist.get_mut(t) {
                *d = 0;
            }
            for (&v, amount) in demand.get(&t).into_iter().flatten() {
                if v == t {
                    continue;
                }
                if dist.get(v) == Some(&u32::MAX) {
                    add(&mut unroutable, amount, 1.0);
                } else if let Some(h) = held.get_mut(v) {
                    add(h, amount, 1.0);
                }
            }
            // All-to-all in product form: a(v) b(t) from every source v, pairs with a group's own traffic to
            // take out computed apart.
            let own = products.own.get(&t).map_or(&[][..], Vec::as_slice);
            for &(v, _) in own {
                if let Some(c) = corrected.get_mut(v) {
                    *c = true;
                }
            }
            let mut inject = |v: usize, x: f64| {
                if v == t || x == 0.0 {
                    return;
                }
                let slot = if dist.get(v) == Some(&u32::MAX) {
                    unroutable.get_mut(2)
                } else {
                    held.get_mut(v).and_then(|h| h.get_mut(2))
                };
                if let Some(y) = slot {
                    *y += x;
                }
            };
            for (a, b) in &products.terms {
                let Some(&bt) = b.get(&t) else {
                    continue;
                };
                for &(v, a_v) in a {
                    if corrected.get(v) != Some(&true) {
                        inject(v, a_v * bt);
                    }
                }
            }
            for &(v, x) in own {
                inject(v, products.net(v, t, x));
                if let Some(c) = corrected.get_mut(v) {
                    *c = false;
                }
            }
            // Farthest first: each switch passes on what it holds to its next hops.
            for &v in order.iter().rev() {
                if v == t {
                    continue;
                }
                let Some(slot) = held.get_mut(v) else {
                    continue;
                };
                let here = std::mem::replace(slot, [0.0; P]);
                if here.iter().all(|x| *x == 0.0) {
                    continue;
                }
                if dist.get(v) == Some(&1) {
                    // A neighbour of the class: its one next hop is this member.
                    let edge = neighbours(v).iter().find(|x| x.0 as usize == t);
                    match edge {
                        Some(&(_, e, _, forward)) => {
                            if let Some(l) = loads.get_mut(e as usize) {
                                add(if forward { &mut l.0 } else { &mut l.1 }, &here, 1.0);
                            }
                        }
                        None => add(&mut unroutable, &here, 1.0),
                    }
                    continue;
                }
                let nh = next_hops(v);
                if nh.is_empty() {
                    add(&mut unroutable, &here, 1.0);
                    continue;
                }
                for &(w, slot, share) in nh {
                    if let Some(l) = loads.get_mut(slot / 2) {
                        add(
                            if slot % 2 == 0 { &mut l.0 } else { &mut l.1 },
                            &here,
                            share,
                        );
                    }
                    if let Some(h) = held.get_mut(w as usize) {
                        add(h, &here, share);
                    }
                }
            }
            if let Some(h) = held.get_mut(t) {
                *h = [0.0; P];
            }
            if let Some(d) = dist.get_mut(t) {
                *d = base;
            }
        }
    }
    if let Some(u) = unroutable.get_mut(2) {
        *u += products.lost;
    }
    (loads, unroutable)
}

fn report(
    design: &Design,
    f: &Fabric,
    r: &Router,
    switch_loads: &[(Loads, Loads)],
    unroutable: &Loads,
) -> RoutingReport {
    // In link order: access cables and switch cables are disjoint, so each link comes once.
    let mut links: Vec<LinkLoad> = Vec::with_capacity(design.links.len());
    let mut put = |link: LinkId, capacity: f64, loads: Loads| {
        if loads.iter().all(|x| *x <= 0.0) {
            return;
        }
        let peak = loads.iter().copied().fold(0.0, f64::max);
        links.push(LinkLoad {
            link,
            capacity_gbps: capacity,
            loads_gbps: loads.map(|x| round(x, 4)),
            utilisation: round(
                if capacity > 0.0 {
                    peak / capacity
                } else {
                    f64::INFINITY
                },
                6,
            ),
        });
    };
    // The design's links in order, each beside its access loads and its switch edge (both kept by place in link
    // order). A switch cable carries its share (by rate) of its edge's busier direction.
    for (((id, l), (up, down)), e) in design.links.iter().zip(&r.access).zip(&f.edge_of_link) {
        if let (Some(cap), Some((ab, ba))) = (f.cap.get(*e as usize), switch_loads.get(*e as usize))
        {
            let g = l.medium.gbps();
            let share = if *cap > 0.0 { g / cap } else { 0.0 };
            let mut busier = [0.0; P];
            for (i, b) in busier.iter_mut().enumerate() {
                *b = share
                    * ab.get(i)
                        .copied()
                        .unwrap_or(0.0)
                        .max(ba.get(i).copied().unwrap_or(0.0));
            }
            put(*id, g, busier);
            continue;
        }
        let mut busier = [0.0; P];
        for (i, b) in busier.iter_mut().enumerate() {
            *b = up
                .get(i)
                .copied()
                .unwrap_or(0.0)
                .max(down.get(i).copied().unwrap_or(0.0));
        }
        put(*id, l.medium.gbps(), busier);
    }
    // Per pattern, the link with the highest utilisation (the lowest link id among equals), all patterns in one
    // walk over the links: each replaces the one held unless the held one is strictly hotter, as `max_by` does.
    let utilisation = |l: &LinkLoad, i: usize| {
        l.loads_gbps.get(i).copied().unwrap_or(0.0) / l.capacity_gbps.max(1e-12)
    };
    let mut hottest_of: [Option<&LinkLoad>; P] = [None; P];
    for l in &links {
        for (i, held) in hottest_of.iter_mut().enumerate() {
            if !l.loads_gbps.get(i).is_some_and(|x| *x > 0.0) {
                continue;
            }
            let hotter = held.is_some_and(|h| {
                utilisation(h, i)
                    .total_cmp(&utilisation(l, i))
                    .then(l.link.cmp(&h.link))
                    .is_gt()
            });
            if !hotter {
                *held = Some(l);
            }
        }
    }
    let patterns = PATTERNS
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let hottest = hottest_of.get(i).copied().flatten();
            let load = hottest
                .and_then(|l| l.loads_gbps.get(i).copied())
                .unwrap_or(0.0);
            PatternLoad {
                pattern: (*name).to_string(),
                offered_gbps: round(r.offered.get(i).copied().unwrap_or(0.0), 4),
                unroutable_gbps: round(unroutable.get(i).copied().unwrap_or(0.0), 4),
                hottest_link: hottest.map(|l| l.link),
                hottest_load_gbps: load,
                hottest_utilisation: hottest
                    .map_or(0.0, |l| round(load / l.capacity_gbps.max(1e-12), 6)),
            }
        })
        .collect();
    RoutingReport {
        method: "ECMP over shortest paths on the drawn switch graph, split by link capacity at every hop; endpoints \
                 attach through their cabled ports and do not forward; with NVLink at both ends, all-to-all stays on \
                 the source port's rail (PXN)"
            .into(),
        patterns,
        links,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::sample;

    fn pattern<'a>(r: &'a RoutingReport, name: &str) -> &'a PatternLoad {
        r.patterns
            .iter()
            .find(|p| p.pattern.starts_with(name))
            .unwrap()
    }

    /// The aggregated all-to-all against the per-pair reference: access and switch demands, then the routed loads.
    fn same_as_pairs(d: &Design) {
        let f = fabric(d);
        let (servers, _) = endpoints(d, &f);
        let gpus_total: f64 = servers.iter().map(|s| s.gpus).sum();
        let g = groups(&servers);
        let new_router = || Router {
            access: vec![([0.0; P], [0.0; P]); d.links.len()],
            demand: HashMap::default(),
            offered: [0.0; P],
            component: components(&f),
            products: Products::default(),
        };
        let (mut fast, mut slow) = (new_router(), new_router());
        all_to_all(&mut fast, &servers, &g, gpus_total);
        all_to_all_pairs(&mut slow, &servers, &g, gpus_total);
        let close = |a: f64, b: f64, what: &str| {
            assert!(
                (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs())),
                "{}: {what}: {a} against {b}",
                d.name
            );
        };
        close(fast.offered[2], slow.offered[2], "offered");
        assert_eq!(fast.access.len(), slow.access.len());
        for (l, (a, b)) in d.links.keys().zip(fast.access.iter().zip(&slow.access)) {
            close(a.0[2], b.0[2], &format!("up {l:?}"));
            close(a.1[2], b.1[2], &format!("down {l:?}"));
        }
        let flat = |r: &Router| -> BTreeMap<(usize, usize), f64> {
            let mut m = BTreeMap::new();
            // The products written out per switch pair.
            let own: BTreeMap<(usize, usize), f64> = r
                .products
                .own
                .iter()
                .flat_map(|(t, v)| v.iter().map(move |(s, x)| ((*s, *t), *x)))
                .collect();
            for (a, b) in &r.products.terms {
                for t in b.keys() {
                    for (s, _) in a {
                        if s != t {
                            let x =
                                r.products
                                    .net(*s, *t, own.get(&(*s, *t)).copied().unwrap_or(0.0));
                            if x != 0.0 {
                                m.insert((*s, *t), x);
                            }
                        }
                    }
                }
            }
            for (t, by) in &r.demand {
                for (s, x) in by {
                    if x[2] != 0.0 {
                        m.insert((*s, *t), x[2]);
                    }
                }
            }
            m
        };
        let (df, ds) = (flat(&fast), flat(&slow));
        assert_eq!(
            df.keys().collect::<Vec<_>>(),
            ds.keys().collect::<Vec<_>>(),
            "{}: switch pairs with demand",
            d.name
        );
        for (k, x) in &df {
            close(*x, ds[k], &format!("demand {k:?}"));
        }
        assert!(fast.demand.is_empty() && slow.products.terms.is_empty());
        let (lf, uf) = route(&f, &fast.demand, &fast.products);
        let (ls, us) = route_reference(&f, &slow.demand, &slow.products);
        for (a, b) in lf.iter().zip(&ls) {
            close(a.0[2], b.0[2], "routed load");
            close(a.1[2], b.1[2], "routed load");
        }
        close(uf[2], us[2], "unroutable");
    }

    /// Designs to compare the fast paths against their references on: SuperPODs, the samples, and random
    /// asymmetric fabrics (some with serving traffic through the ingress).
    fn test_designs() -> Vec<Design> {
        let c = crate::catalog::Catalog::builtin().unwrap();
        let mut designs = vec![
            crate::samples::superpod_h100(&c, 1).unwrap(),
            crate::samples::superpod_h100(&c, 2).unwrap(),
            crate::samples::superpod_h100(&c, 8).unwrap(),
            // Two leaves that share no spine: the all-to-all is unroutable.
            crate::samples::dgx_fabric(&c, &[vec![0], vec![1]], 2, 0, &[]).unwrap(),
        ];
        for name in [
            "a100-120gpu-training",
            "a100-nic-starved",
            "dgx-h100-single",
            "h100-60gpu-training",
            "l40s-inference-pcie",
        ] {
            designs.push(sample(name).unwrap());
        }
        // Random asymmetric fabrics: servers on unequal leaves (some ports on several leaves, some servers alone),
        // random uplinks (some missing), and cables removed at random.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |m: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % m as u64) as usize
        };
        for i in 0..24 {
            let leaves = 2 + next(4);
            let spines = 1 + next(3);
            let servers: Vec<Vec<usize>> = (0..2 + next(9))
                .map(|_| (0..1 + next(8)).map(|_| next(leaves)).collect())
                .collect();
            let uplinks: Vec<Vec<u16>> = (0..leaves)
                .map(|_| (0..spines).map(|_| next(3) as u16).collect())
                .collect();
            let mut d = crate::samples::dgx_fabric(&c, &servers, leaves, spines, &uplinks).unwrap();
            let ids: Vec<LinkId> = d.links.keys().copied().collect();
            for _ in 0..next(4) {
                let id = ids[next(ids.len())];
                d.links.remove(&id);
            }
            if i % 3 == 0 {
                d.params.serving = sample("l40s-inference-pcie").unwrap().params.serving;
            }
            designs.push(d);
        }
        designs
    }

    #[test]
    fn aggregated_all_to_all_equals_per_pair() {
        for d in &test_designs() {
            same_as_pairs(d);
        }
    }

    #[test]
    fn class_routing_equals_per_destination_walk() {
        // Every pattern's demand (rings, all-to-all products, storage, serving through the ingress) routed per
        // destination class against the per-destination walk: the same loads on every edge (and zero on the same
        // edges, so the report lists the same links) and the same unroutable traffic.
        let mut designs = test_designs();
        let c = crate::catalog::Catalog::builtin().unwrap();
        let mut pod = crate::samples::superpod_h100(&c, 8).unwrap();
        pod.params.serving = sample("l40s-inference-pcie").unwrap().params.serving;
        designs.push(pod);
        for d in &designs {
            let (f, r) = demands(d);
            let fast = route(&f, &r.demand, &r.products);
            let slow = route_reference(&f, &r.demand, &r.products);
            assert_same_loads(&d.name, &fast, &slow);
        }
    }

    /// Two routings give the same loads on every edge (zero on the same edges, so the report lists the same links)
    /// and the same unroutable traffic, to rounding.
    fn assert_same_loads(
        name: &str,
        (loads, lost): &(Vec<(Loads, Loads)>, Loads),
        (other, other_lost): &(Vec<(Loads, Loads)>, Loads),
    ) {
        let close = |a: f64, b: f64, what: &str| {
            assert!(
                (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs())) && ((a == 0.0) == (b == 0.0)),
                "{name}: {what}: {a} against {b}"
            );
        };
        assert_eq!(loads.len(), other.len(), "{name}: edges");
        for (e, (a, b)) in loads.iter().zip(other).enumerate() {
            for k in 0..P {
                close(a.0[k], b.0[k], &format!("edge {e} pattern {k} a to b"));
                close(a.1[k], b.1[k], &format!("edge {e} pattern {k} b to a"));
            }
        }
        for k in 0..P {
            close(lost[k], other_lost[k], &format!("unroutable {k}"));
        }
    }

    /// The link between two named devices (the first one found).
    fn link_between(d: &Design, a: &str, b: &str) -> LinkId {
        let id = |name: &str| d.device_named(name).unwrap();
        let (a, b) = (id(a), id(b));
        d.links
            .iter()
            .find(|(_, l)| {
                (l.a.device == a && l.b.device == b) || (l.a.device == b && l.b.device == a)
            })
            .map(|(id, _)| *id)
            .unwrap()
    }

    /// A 16-SU SuperPOD, and the same without the cable between spine-p02-01 and core-01-01.
    fn superpod_16_without_a_core_cable() -> (Design, Design) {
        let c = crate::catalog::Catalog::builtin().unwrap();
        let base = crate::samples::superpod_h100(&c, 16).unwrap();
        let mut spine_core = base.clone();
        spine_core
            .links
            .remove(&link_between(&base, "spine-p02-01", "core-01-01"));
        (base, spine_core)
    }

    #[test]
    fn mapping_relabels_what_a_map_of_switch_pairs_does() {
        // Each relabelling of a 16-SU SuperPOD's orbits, and of the variants that keep one orbit, laid out as
        // index arrays: every switch and every directed edge slot goes where the plain definition sends it (the
        // images of its two ends, the edge between them found in a map of switch pairs, the direction kept; a
        // slot whose image edge does not exist stays). Then the arrays are the identity again.
        let (base, spine_core) = superpod_16_without_a_core_cable();
        let mut checked = 0;
        for d in [&base, &spine_core] {
            let (f, r) = demands(d);
            let csr = Csr::new(&f);
            let classes = destination_classes(&csr, &r.demand, &r.products);
            let pairs: HashMap<(usize, usize), usize> =
                f.ends.iter().enumerate().map(|(e, ab)| (*ab, e)).collect();
            let mut map = Mapping::new(f.adj.len(), 2 * f.ends.len());
            for o in orbits(&f, &csr, &classes, &r.products) {
                for (_, rl) in &o.others {
                    map.set(rl, &csr);
                    for v in 0..f.adj.len() {
                        assert_eq!(map.node(v), rl.node(v), "{}: switch {v}", d.name);
                    }
                    for slot in 0..2 * f.ends.len() as u32 {
                        let (a, b) = f.ends[slot as usize / 2];
                        let (from, to) = if slot % 2 == 0 { (a, b) } else { (b, a) };
                        let (x, y) = (rl.node(from), rl.node(to));
                        let want = match pairs.get(&(x.min(y), x.max(y))) {
                            Some(&e) => 2 * e as u32 + u32::from(x > y),
                            None => slot,
                        };
                        assert_eq!(map.slot(slot), want, "{}: slot {slot}", d.name);
                        checked += usize::from(want != slot);
                    }
                    map.clear();
                    assert!((0..f.adj.len()).all(|v| map.node(v) == v && !map.moves(v)));
                    assert!((0..2 * f.ends.len() as u32).all(|x| map.slot(x) == x));
                }
            }
        }
        assert!(checked > 1000, "only {checked} slots moved");
    }

    #[test]
    fn compressed_rows_list_each_switchs_edges_in_edge_order() {
        // The routing's rows against the fabric's adjacency lists: the same neighbours and edges in the same
        // order (which fixes the order of every sum), with each edge's capacity and direction.
        let c = crate::catalog::Catalog::builtin().unwrap();
        let mut designs = vec![crate::samples::superpod_h100(&c, 4).unwrap()];
        designs.extend(test_designs());
        for d in &designs {
            let f = fabric(d);
            let csr = Csr::new(&f);
            for (v, adj) in f.adj.iter().enumerate() {
                let want: Vec<(u32, u32, f64, bool)> = adj
                    .iter()
                    .map(|&(w, e)| (w as u32, e as u32, f.cap[e], f.ends[e].0 == v))
                    .collect();
                assert_eq!(csr.neighbours(v), want.as_slice(), "{}: switch {v}", d.name);
            }
        }
    }

    #[test]
    fn symmetric_classes_route_as_one() {
        // 16-SU SuperPODs: four pods of 32 leaves, each pod's leaves one destination class. Pods 1-3 are swapped
        // by automorphisms and carry the same all-to-all (pod 4 holds the 31-DGX SU), so they are routed as one
        // orbit. Variants break the symmetry where the classes must not be merged: a spine-core cable missing in
        // pod 2, a leaf-spine cable missing in pod 3 (that leaf becomes a class of its own), a DGX unplugged in
        // pod 1 (unequal leaves: its demand differs), serving through the ingress. On each, the orbit routing, the
        // per-class routing and the per-destination walk give the same loads (zero on the same edges) and the
        // same unroutable traffic; the random asymmetric fabrics of `test_designs` too.
        let (base, spine_core) = superpod_16_without_a_core_cable();
        let mut leaf_spine = base.clone();
        leaf_spine
            .links
            .remove(&link_between(&base, "leaf-su09-r1", "spine-p03-05"));
        let mut unplugged = base.clone();
        let dgx = base
            .devices
            .iter()
            .find(|(_, x)| x.name == "dgx-0007")
            .map(|(id, _)| *id)
            .unwrap();
        unplugged
            .links
            .retain(|_, l| l.a.device != dgx && l.b.device != dgx);
        let mut serving = base.clone();
        serving.params.serving = sample("l40s-inference-pcie").unwrap().params.serving;
        // (design, orbits of more than one class: (representative's pod size, classes it stands for)).
        let cases: Vec<(&Design, Vec<usize>)> = vec![
            (&base, vec![2]),
            (&spine_core, vec![1]),
            (&leaf_spine, vec![1]),
            (&unplugged, vec![1]),
            (&serving, vec![2]),
        ];
        for (d, want) in &cases {
            let (f, r) = demands(d);
            let csr = Csr::new(&f);
            let classes = destination_classes(&csr, &r.demand, &r.products);
            let got: Vec<usize> = orbits(&f, &csr, &classes, &r.products)
                .iter()
                .filter(|o| !o.others.is_empty())
                .map(|o| o.others.len())
                .collect();
            assert_eq!(&got, want, "{}: orbits", d.name);
        }
        let mut designs: Vec<Design> = cases.iter().map(|(d, _)| (*d).clone()).collect();
        designs.extend(test_designs());
        for d in &designs {
            let (f, r) = demands(d);
            let fast = route_with(&f, &r.demand, &r.products, true);
            let plain = route_with(&f, &r.demand, &r.products, false);
            let slow = route_reference(&f, &r.demand, &r.products);
            assert_same_loads(&d.name, &fast, &plain);
            assert_same_loads(&d.name, &fast, &slow);
        }
    }

    #[test]
    fn rail_optimised_unit_by_hand() {
        // SuperPOD 1 SU: 31 DGX, 8 rails. Hierarchical rings: 31 servers x 8 rails = 248 ring hops of 400G, all
        // inside a rail's leaf: nothing crosses the spine; every compute cable carries 400G (up and down).
        let d = sample("superpod-h100-1su").unwrap();
        let r = analyze(&d);
        let h = pattern(&r, "all-reduce, hierarchical");
        assert_eq!(h.offered_gbps, 248.0 * 400.0);
        assert_eq!(h.unroutable_gbps, 0.0);
        assert!((h.hottest_utilisation - 1.0).abs() < 1e-9);
        let spine_links: Vec<&LinkLoad> = r
            .links
            .iter()
            .filter(|l| {
                let link = &d.links[&l.link];
                d.devices[&link.b.device].name.starts_with("spine")
            })
            .collect();
        assert!(spine_links.iter().all(|l| l.loads_gbps[1] == 0.0));
        // All-to-all with PXN: each DGX sends 3,200 Gb/s spread over 240 other GPUs on its own rails; every pair of
        // DGX shares all 8 leaves, so again nothing crosses the spine, and every compute cable carries 400G.
        let a = pattern(&r, "all-to-all");
        assert!(
            (a.offered_gbps - 31.0 * 3200.0).abs() < 1e-6,
            "{}",
            a.offered_gbps
        );
        assert!((a.hottest_utilisation - 1.0).abs() < 1e-6);
        assert!(spine_links.iter().all(|l| l.loads_gbps[2] == 0.0));
    }

    #[test]
    fn ecmp_splits_across_spines() {
        // Two leaves with four DGX H100 each and 8 uplinks to one spine per leaf... here: the oversubscribed pair
        // from the sample a100 design is single-leaf, so build across-spine traffic with the 2-SU SuperPOD: the flat
        // ring crosses from SU 1 to SU 2 once each way, on rail 0 (leaf r1 of each SU), spread over the 8 spines
        // that leaf reaches with 4 cables each: 400 / 32 = 12.5 Gb/s per uplink cable of leaf-su01-r1.
        let catalog = crate::catalog::Catalog::builtin().unwrap();
        let d = crate::samples::superpod_h100(&catalog, 2).unwrap();
        let r = analyze(&d);
        let leaf = d
            .devices
            .iter()
            .find(|(_, x)| x.name == "leaf-su01-r1")
            .map(|(id, _)| *id)
            .unwrap();
        let uplinks: Vec<f64> = r
            .links
            .iter()
            .filter(|l| {
                let link = &d.links[&l.link];
                link.a.device == leaf && d.devices[&link.b.device].name.starts_with("spine")
            })
            .map(|l| l.loads_gbps[0])
            .collect();
        assert_eq!(uplinks.len(), 32);
        assert!(
            uplinks.iter().all(|x| (x - 12.5).abs() < 1e-9),
            "{uplinks:?}"
        );
    }

    #[test]
    fn disconnected_demand_is_unroutable() {
        // Two DGX with one 400G port each, on two leaves that share no spine: the flat ring sends 400 Gb/s each
        // way (800 offered) and none of it has a path; all-to-all offers 2 x 400 = 800 Gb/s, all unroutable.
        let c = crate::catalog::Catalog::builtin().unwrap();
        let d = crate::samples::dgx_fabric(&c, &[vec![0], vec![1]], 2, 0, &[]).unwrap();
        let r = analyze(&d);
        let ring = pattern(&r, "all-reduce, flat ring");
        assert_eq!((ring.offered_gbps, ring.unroutable_gbps), (800.0, 800.0));
        let a2a = pattern(&r, "all-to-all");
        assert_eq!((a2a.offered_gbps, a2a.unroutable_gbps), (800.0, 800.0));
        let report = crate::analysis::analyze(&d);
        assert!(
            report
                .findings
                .iter()
                .any(|f| f.code == "unroutable-traffic")
        );
        // One spine joining the leaves makes it all routable.
        let d =
            crate::samples::dgx_fabric(&c, &[vec![0], vec![1]], 2, 1, &[vec![1], vec![1]]).unwrap();
        assert!(
            analyze(&d)
                .patterns
                .iter()
                .all(|p| p.unroutable_gbps == 0.0)
        );
        let report = crate::analysis::analyze(&d);
        assert!(
            report
                .findings
                .iter()
                .all(|f| f.code != "unroutable-traffic")
        );
    }

    #[test]
    fn storage_read_on_one_leaf() {
        // The starved A100 design on one leaf: all traffic is routable and stays on the leaf.
        let d = sample("a100-nic-starved").unwrap();
        let r = analyze(&d);
        assert!(r.patterns.iter().all(|p| p.unroutable_gbps == 0.0));
        // Storage: 64 GPUs x 8 Gb/s = 512 Gb/s offered, arriving on each server's one 200G NIC (8 x 8 = 64 Gb/s).
        let s = pattern(&r, "storage read");
        assert!((s.offered_gbps - 512.0).abs() < 1e-9);
        assert!(
            (s.hottest_utilisation - 128.0 / 200.0).abs() < 1e-9,
            "{}",
            s.hottest_utilisation
        );
    }

    #[test]
    fn storage_reads_stay_in_their_storage_fabric() {
        // The 2-SU SuperPOD has a storage fabric per SU: four storage leaves, not cabled to each other, each with
        // two ports of every appliance of the SU and one BlueField-3 port of every DGX. SU 1 has 32 DGX and three
        // AI400X2, SU 2 has 31 DGX; remove one of SU 2's appliances. Every GPU reads 1 GB/s = 8 Gb/s, so SU 1
        // asks 32 x 8 x 8 = 2,048 Gb/s and SU 2 31 x 8 x 8 = 1,984 Gb/s, each of its own appliances, in proportion
        // to what each delivers (all alike: min(90 GB/s x 8, 8 x 400G) = 720 Gb/s). SU 1's appliances send
        // 2,048 / 3 Gb/s each, SU 2's two 1,984 / 2 = 992 Gb/s each, spread over their eight cables.
        let c = crate::catalog::Catalog::builtin().unwrap();
        let mut d = crate::samples::superpod_h100(&c, 2).unwrap();
        let named = |d: &Design, name: &str| d.device_named(name).unwrap();
        let gone = named(&d, "ddn-su02-3");
        d.remove_devices(&[gone].into_iter().collect());
        let r = analyze(&d);
        let storage = PATTERNS.iter().position(|p| *p == "storage read").unwrap();
        let sent = |name: &str| -> f64 {
            let id = named(&d, name);
            r.links
                .iter()
                .filter(|l| {
                    d.links
                        .get(&l.link)
                        .is_some_and(|x| x.a.device == id || x.b.device == id)
                })
                .map(|l| l.loads_gbps[storage])
                .sum()
        };
        for name in ["ddn-su01-1", "ddn-su01-2", "ddn-su01-3"] {
            // The report rounds each load to 0.1 Mb/s.
            assert!(
                (sent(name) - 2048.0 / 3.0).abs() < 1e-3,
                "{name}: {}",
                sent(name)
            );
        }
        for name in ["ddn-su02-1", "ddn-su02-2"] {
            assert!((sent(name) - 992.0).abs() < 1e-3, "{name}: {}", sent(name));
        }
        let s = pattern(&r, "storage read");
        assert!((s.offered_gbps - (2048.0 + 1984.0)).abs() < 1e-6);
        assert_eq!(s.unroutable_gbps, 0.0);
    }

    #[test]
    fn ecmp_weighs_next_hops_by_capacity() {
        // Four DGX on one 400G port each: two on leaf-01, two on leaf-02. leaf-01 has 3 cables to spine-01 and 1 to
        // spine-02; leaf-02 has 2 to each. The flat ring (1 -> 2 -> 3 -> 4 -> 1) crosses each way once with 400 Gb/s.
        // Up from leaf-01, weighted by capacity: 3/4 (300) via spine-01, 1/4 (100) via spine-02, so 100 on each of
        // its four uplinks (an equal split over the two spines would put 66.7 on each spine-01 cable). Up from
        // leaf-02, 2:2: 200 via each spine, 100 per cable. Down: spine-01 passes leaf-02's 200 to leaf-01 over 3
        // cables (66.7) and leaf-01's 300 to leaf-02 over 2 (150); spine-02 passes 200 over 1 cable and 100 over 2
        // (50). Busier directions: leaf-01 - spine-01 100 each; leaf-01 - spine-02 200; leaf-02 - spine-01 150 each;
        // leaf-02 - spine-02 100 each.
        let c = crate::catalog::Catalog::builtin().unwrap();
        let d = crate::samples::dgx_fabric(
            &c,
            &[vec![0], vec![0], vec![1], vec![1]],
            2,
            2,
            &[vec![3, 1], vec![2, 2]],
        )
        .unwrap();
        let r = analyze(&d);
        let load = |a: &str, b: &str| -> Vec<f64> {
            let mut v: Vec<f64> = r
                .links
                .iter()
                .filter(|l| {
                    let link = &d.links[&l.link];
                    d.devices[&link.a.device].name == a && d.devices[&link.b.device].name == b
                })
                .map(|l| l.loads_gbps[0])
                .collect();
            v.sort_by(f64::total_cmp);
            v
        };
        let close = |v: Vec<f64>, want: &[f64]| {
            assert_eq!(v.len(), want.len(), "{v:?}");
            for (x, y) in v.iter().zip(want) {
                assert!((x - y).abs() < 1e-9, "{v:?} against {want:?}");
            }
        };
        close(load("leaf-01", "spine-01"), &[100.0, 100.0, 100.0]);
        close(load("leaf-01", "spine-02"), &[200.0]);
        close(load("leaf-02", "spine-01"), &[150.0, 150.0]);
        close(load("leaf-02", "spine-02"), &[100.0, 100.0]);
    }

    #[test]
    fn flow_is_conserved_at_every_switch() {
        // Every switch passes on what it receives for a destination, less what ends there: for random-ish demands
        // between the leaves of several fabrics, inflow + injected = outflow + delivered at every switch, per
        // pattern, and nothing is unroutable on a connected fabric.
        let c = crate::catalog::Catalog::builtin().unwrap();
        let designs = [
            crate::samples::superpod_h100(&c, 2).unwrap(),
            crate::samples::dgx_fabric(
                &c,
                &[vec![0], vec![1], vec![2], vec![2]],
                3,
                3,
                &[vec![1, 2, 0], vec![0, 1, 3], vec![2, 0, 1]],
            )
            .unwrap(),
        ];
        for d in &designs {
            let f = fabric(d);
            let n = f.adj.len();
            let mut demand: HashMap<usize, HashMap<usize, Loads>> = HashMap::default();
            let mut seed = 12_345u64;
            for t in 0..n {
                for s in 0..n {
                    if s == t || f.adj[s].is_empty() || f.adj[t].is_empty() {
                        continue;
                    }
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    let mut l = [0.0; P];
                    l[(seed >> 33) as usize % P] = 1.0 + (seed >> 40) as f64 / 1e6;
                    demand.entry(t).or_default().insert(s, l);
                }
            }
            let (loads, unroutable) = route(&f, &demand, &Products::default());
            assert!(unroutable.iter().all(|x| *x == 0.0), "{unroutable:?}");
            for v in 0..n {
                for k in 0..P {
                    let (mut inflow, mut outflow) = (0.0, 0.0);
                    for (e, (a, b)) in f.ends.iter().enumerate() {
                        let (ab, ba) = (loads[e].0[k], loads[e].1[k]);
                        if *a == v {
                            outflow += ab;
                            inflow += ba;
                        }
                        if *b == v {
                            outflow += ba;
                            inflow += ab;
                        }
                    }
                    let injected: f64 = demand
                        .values()
                        .filter_map(|m| m.get(&v))
                        .map(|l| l[k])
                        .sum();
                    let delivered: f64 = demand
                        .get(&v)
                        .map_or(0.0, |m| m.values().map(|l| l[k]).sum());
                    assert!(
                        (inflow + injected - outflow - delivered).abs()
                            < 1e-6 * (1.0 + inflow + injected),
                        "switch {v}, pattern {k}: in {inflow} + injected {injected} != out {outflow} + delivered {delivered}"
                    );
                }
            }
        }
    }
}
