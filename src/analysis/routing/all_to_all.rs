//! The all-to-all pattern, aggregated by switch-level classes into product-form demand (see [`all_to_all`]).

use super::*;

/// Which destination ports a source port's all-to-all traffic may use: its component and rail, and whether it
/// keeps to its rail (NVLink at both ends; without, the rail is 0 for every port: it steers nothing).
pub(super) type Mode = (usize, u16, bool);

/// A source group's shares of its ports toward one destination class: the class and, per port, its mode and share.
pub(super) type ClassShares = (usize, Vec<(Mode, f64)>);

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
///
/// In phases: the groups and their destination classes ([`a2a_groups`]), the source vectors ([`a2a_sources`]),
/// the destination vectors ([`a2a_destinations`]), the access cables out and in, and the switch demand.
pub(super) fn all_to_all(
    r: &mut Router,
    servers: &[Server],
    groups: &[Vec<usize>],
    gpus_total: f64,
) {
    let (list, classes) = a2a_groups(r, servers, groups, gpus_total);
    let sources = a2a_sources(r, &list, &classes, gpus_total);
    let dests = a2a_destinations(&list, &sources.src);
    access_out(r, servers, &list, &sources, &dests);
    access_in(r, servers, &list, &sources, &dests);
    switch_demand(r, &list, sources, dests);
}

/// A destination class: the NVLink flag and the (rail, component) pairs of a group's ports, sorted.
type Class = (bool, Vec<(u16, usize)>);

/// One vector: switch -> traffic, and its total (sources), or the GPUs that can receive (destinations).
type Vector = (HashMap<usize, f64>, f64);

/// Vectors per (class, mode).
type Vectors = BTreeMap<(usize, Mode), Vector>;

/// A group of like servers as the all-to-all reads it: its members, its representative's compute ports and their
/// components.
struct Group<'a> {
    members: &'a [usize],
    ports: &'a [Port],
    /// The component of each port's switch (`usize::MAX` when unknown).
    comps: Vec<usize>,
    n: f64,
    gpus: f64,
    nvlink: bool,
    /// C_h / (G - g_h) when the group sends, else None.
    per_gpu: Option<f64>,
    class: usize,
}

impl Group<'_> {
    /// Each port with its component.
    fn ports(&self) -> impl Iterator<Item = (&Port, usize)> {
        self.ports.iter().zip(self.comps.iter().copied())
    }

    /// Source side, toward one class: the share of each source port (Router::pairs: with rails, only ports on
    /// rails the destination shares).
    fn shares(&self, class: &Class) -> Vec<(Mode, f64)> {
        let rails = self.nvlink && class.0;
        let shared = |(p, c): (&Port, usize)| class.1.binary_search(&(p.rail, c)).is_ok();
        let use_rails = rails && self.ports().any(shared);
        let total: f64 = self
            .ports()
            .filter(|x| !use_rails || shared(*x))
            .map(|(p, _)| p.gbps)
            .sum();
        self.ports()
            .map(|(p, c)| {
                let share = if total > 0.0 && (!use_rails || shared((p, c))) {
                    p.gbps / total
                } else {
                    0.0
                };
                // Without rails the rail does not steer the traffic: one mode per component, so a server of many
                // NICs on one fabric has one destination split, not one per rail (docs/limits.md, `wide-servers`).
                ((c, if rails { p.rail } else { 0 }, rails), share)
            })
            .collect()
    }

    /// Destination side: how a port of a given mode divides over the group's ports (fractions summing to 1, or
    /// nothing when the group has no port to receive).
    fn split(&self, (c, rail, rails): Mode) -> Vec<(usize, f64)> {
        let reach: Vec<usize> = (0..self.ports.len())
            .filter(|j| self.comps.get(*j) == Some(&c))
            .collect();
        let mut cands = if reach.is_empty() {
            (0..self.ports.len()).collect()
        } else {
            reach
        };
        if rails {
            let same: Vec<usize> = cands
                .iter()
                .copied()
                .filter(|j| self.ports.get(*j).is_some_and(|q| q.rail == rail))
                .collect();
            if !same.is_empty() {
                cands = same;
            }
        }
        let total: f64 = cands
            .iter()
            .filter_map(|j| self.ports.get(*j))
            .map(|q| q.gbps)
            .sum();
        if total <= 0.0 {
            return Vec::new();
        }
        cands
            .into_iter()
            .filter_map(|j| self.ports.get(j).map(|q| (j, q.gbps / total)))
            .collect()
    }
}

/// The groups as the all-to-all reads them, and the destination classes they fall in (by first appearance).
fn a2a_groups<'a>(
    r: &Router,
    servers: &'a [Server],
    groups: &'a [Vec<usize>],
    gpus_total: f64,
) -> (Vec<Group<'a>>, Vec<Class>) {
    let comp = |p: &Port| r.component.get(p.switch).copied().unwrap_or(usize::MAX);
    // Destination classes: NVLink flag and the (rail, component) pairs of the ports.
    let mut class_ids: BTreeMap<Class, usize> = BTreeMap::new();
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
            comps: rep.compute.iter().map(comp).collect(),
            n: g.len() as f64,
            gpus: rep.gpus,
            nvlink: rep.nvlink,
            per_gpu,
            class,
        });
    }
    let mut v: Vec<_> = class_ids.into_iter().collect();
    v.sort_by_key(|(_, id)| *id);
    (list, v.into_iter().map(|(k, _)| k).collect())
}

/// The source side: the vectors a(s) per (class, mode) with their totals, and each source group's shares per
/// class it reaches.
struct Sources {
    src: Vectors,
    group_shares: Vec<Vec<ClassShares>>,
}

/// The source vectors ([`Sources`]); adds the offered all-to-all traffic, and what cannot leave a group's fabric
/// as lost.
fn a2a_sources(r: &mut Router, list: &[Group<'_>], classes: &[Class], gpus_total: f64) -> Sources {
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
    for g in list {
        if g.ports.iter().map(|p| p.gbps).sum::<f64>() > 0.0
            && let Some(w) = receivers.get_mut(g.class)
        {
            *w += g.n * g.gpus;
        }
    }
    let mut reached = vec![false; classes.len()];
    let mut src: Vectors = BTreeMap::new();
    let mut group_shares: Vec<Vec<ClassShares>> = Vec::with_capacity(list.len());
    for g in list {
        let Some(per_gpu) = g.per_gpu else {
            group_shares.push(Vec::new());
            continue;
        };
        r.offered[Pattern::AllToAll.index()] += per_gpu * g.n * (gpus_total - g.gpus);
        let mut reach: Vec<usize> = g
            .comps
            .iter()
            .filter_map(|c| classes_of.get(c))
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
            .filter_map(|&k| classes.get(k).map(|c| (k, g.shares(c))))
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
    Sources { src, group_shares }
}

/// The source vectors of class `k`, by mode.
fn class_keys(src: &Vectors, k: usize) -> impl Iterator<Item = ((usize, Mode), &Vector)> {
    src.range((k, (0, 0, false))..=(k, (usize::MAX, u16::MAX, true)))
        .map(|(key, v)| (*key, v))
}

/// The destination side: the vectors b(t) per (class, mode) with the GPUs W that can receive in that mode, and
/// each group's split per mode it receives in.
struct Destinations {
    dst: Vectors,
    splits: HashMap<(usize, Mode), Vec<(usize, f64)>>,
}

/// The destination vectors ([`Destinations`]) for the modes the sources send in.
fn a2a_destinations(list: &[Group<'_>], src: &Vectors) -> Destinations {
    let mut dst: Vectors = BTreeMap::new();
    let mut splits: HashMap<(usize, Mode), Vec<(usize, f64)>> = HashMap::default();
    for (gi, g) in list.iter().enumerate() {
        for ((k, mode), _) in class_keys(src, g.class) {
            let sp = g.split(mode);
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
    Destinations { dst, splits }
}

/// What group `gi` sends to its own members, to take out of the products: per source mode, C_h / (G - g_h) x the
/// share of its ports in that mode, with the port.
fn own(gi: usize, g: &Group<'_>, group_shares: &[Vec<ClassShares>]) -> Vec<(Mode, f64, usize)> {
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
}

/// Access cables, out: each source member's port carries C_h / (G - g_h) x share x (W - own GPUs).
fn access_out(
    r: &mut Router,
    servers: &[Server],
    list: &[Group<'_>],
    sources: &Sources,
    dests: &Destinations,
) {
    let (dst, splits) = (&dests.dst, &dests.splits);
    for (gi, g) in list.iter().enumerate() {
        let (Some(per_gpu), Some(sh)) = (g.per_gpu, sources.group_shares.get(gi)) else {
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
}

/// Access cables, in: each destination member's port j receives g_k x sum over modes of split(j) x (the sources'
/// total in that mode less the group's own).
fn access_in(
    r: &mut Router,
    servers: &[Server],
    list: &[Group<'_>],
    sources: &Sources,
    dests: &Destinations,
) {
    for (gi, g) in list.iter().enumerate() {
        let mut own_by_mode: BTreeMap<Mode, f64> = BTreeMap::new();
        for (mode, x, _) in own(gi, g, &sources.group_shares) {
            *own_by_mode.entry(mode).or_default() += x;
        }
        let mut inn = vec![0.0; g.ports.len()];
        for ((_, mode), (_, alpha)) in class_keys(&sources.src, g.class) {
            let Some(sp) = dests.splits.get(&(gi, mode)) else {
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
}

/// Switch demand: the products a(s) b(t), less each group's traffic to itself.
fn switch_demand(r: &mut Router, list: &[Group<'_>], sources: Sources, dests: Destinations) {
    let Destinations { mut dst, splits } = dests;
    for (key, (a, _)) in sources.src {
        let Some((b, _)) = dst.remove(&key) else {
            continue;
        };
        let mut a: Vec<(usize, f64)> = a.into_iter().collect();
        a.sort_unstable_by_key(|x| x.0);
        r.products.terms.push(ProductTerm {
            sources: a,
            destinations: b,
        });
    }
    let mut own_pairs: BTreeMap<(usize, usize), f64> = BTreeMap::new();
    for (gi, g) in list.iter().enumerate() {
        for (mode, x, i) in own(gi, g, &sources.group_shares) {
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
pub(super) fn put_access(
    r: &mut Router,
    servers: &[Server],
    members: &[usize],
    loads: &[f64],
    out: bool,
) {
    for s in members.iter().filter_map(|i| servers.get(*i)) {
        for (p, x) in s.compute.iter().zip(loads) {
            if let Some(e) = r.access.get_mut(p.at)
                && let Some(v) =
                    (if out { &mut e.0 } else { &mut e.1 }).get_mut(Pattern::AllToAll.index())
            {
                *v += x;
            }
        }
    }
}
