//! The re-estimation pass over a design's flagged links ([`Design::reestimate`]): one walk decides each link from
//! the pass's tables and remembered builds, and notes on the way the cages that hold a fibre and the auto links left
//! on copper in a shared cage; only when there are such links do the rounds that move copper to fibre run, over
//! those links alone (docs/analysis.md, "Cable lengths from the floor").

use super::{BuildCache, CagesSeen, Located, Place};
use crate::model::floor::FloorPlan;
use crate::model::{Design, Link, LinkId, PartId};

/// The links per thread a re-estimation's walk takes at least: a design's links over this are walked on as many
/// threads, one per core at most and [`MAX_PARTS`] at most (a 16-SU SuperPOD, 14,708 links, on one; 128 SU,
/// 117,748 links, on every core up to eight). A thread's start costs tens of microseconds, a walk of 8,192 links
/// about half a millisecond.
const PART_LINKS: usize = 8_192;

/// The most threads a re-estimation's walk takes.
const MAX_PARTS: usize = 8;

/// A link's new cable and length.
pub(super) type Change = (LinkId, Option<PartId>, f64);

/// An auto link the walk left on copper (or no cable) with an end in a shared cage: it goes on fibre when a fibre
/// shares one of its cages.
pub(super) struct Copper<'d> {
    id: LinkId,
    link: &'d Link,
    /// Its length from the floor (None: not estimated, or no estimate).
    raw: Option<f64>,
    at: Located,
}

/// What the walk over the flagged links finds: their changes in id order, the auto links left on copper in a
/// shared cage, and the shared cages that hold a fibre.
pub(super) struct Walk<'d> {
    pub(super) changes: Vec<Change>,
    pub(super) copper: Vec<Copper<'d>>,
    fibre_cages: CagesSeen,
    /// The links not flagged, which the walk passed over.
    unflagged: Vec<&'d Link>,
}

impl Design {
    /// The flagged links re-estimation changes, as their new cable and length, in id order.
    pub(super) fn reestimates(&self, plan: &FloorPlan) -> Vec<Change> {
        let by_size = self.links.len() / PART_LINKS;
        let parts = match by_size < 2 || cfg!(target_arch = "wasm32") {
            // A walk too short to share, or no threads (a browser's page).
            true => 1,
            // The threads the analysis's pool has (one per core unless RAYON_NUM_THREADS says otherwise).
            false => by_size.min(rayon::current_num_threads()).min(MAX_PARTS),
        };
        self.reestimates_in(plan, parts)
    }

    /// [`Design::reestimates`], its walk shared out in `parts` runs of link ids, each on a thread of its own.
    pub(super) fn reestimates_in(&self, plan: &FloorPlan, parts: usize) -> Vec<Change> {
        let mut cache = BuildCache::for_pass(self, Some(plan));
        let walk = match parts {
            0 | 1 => self.walk(&mut cache, ..),
            n => self.walk_parts(&mut cache, n as u64),
        };
        if walk.copper.is_empty() {
            return walk.changes;
        }
        let Walk {
            changes,
            copper,
            mut fibre_cages,
            unflagged,
        } = walk;
        self.unflagged_fibres(&mut cache, &unflagged, &copper, &mut fibre_cages);
        let moved = self.one_medium_per_cage(&mut cache, copper, fibre_cages);
        merge(changes, moved)
    }

    /// [`Design::walk`] of the links in `parts` runs of ids, the first on this thread with `cache`, each other on a
    /// thread of its own with a cache of its own (reading the pass's tables, shared), joined as one walk: each link
    /// is decided from the design alone and the caches only remember what was worked out, so the parts decide as
    /// one walk does. The other parts' ends are renumbered into `cache`, which the rounds after the walk use.
    fn walk_parts<'d>(&'d self, cache: &mut BuildCache<'_>, parts: u64) -> Walk<'d> {
        let (Some(first), Some(last), Some(ends)) = (
            self.links.keys().next(),
            self.links.keys().next_back(),
            cache.shared_ends(),
        ) else {
            return self.walk(cache, ..);
        };
        // Ids are handed out by a counter: equal runs of ids share out the links of a design that has not lost
        // many. Part k runs from its start to the next part's (the last one to the end).
        let parts = parts.max(1);
        let step = (last.0 - first.0) / parts + 1;
        let start = |k: u64| LinkId(first.0.saturating_add(k.saturating_mul(step)));
        let end = |k: u64| (k + 1 < parts).then(|| start(k + 1));
        let part = |cache: &mut BuildCache<'_>, from: LinkId, to: Option<LinkId>| match to {
            Some(to) => self.walk(cache, from..to),
            None => self.walk(cache, from..),
        };
        let (mut walk, others) = std::thread::scope(|s| {
            let others: Vec<_> = (1..parts)
                .map(|k| {
                    let (ends, from, to) = (ends.clone(), start(k), end(k));
                    // A thread the system refuses to start leaves its part to this one, after the first.
                    std::thread::Builder::new()
                        .spawn_scoped(s, move || part(&mut BuildCache::sharing(ends), from, to))
                        .map_err(|_| (from, to))
                })
                .collect();
            let first_part = part(cache, start(0), end(0));
            // A part that panicked panics the pass, as one walk would.
            let others: Vec<Walk<'d>> = others
                .into_iter()
                .map(|h| match h {
                    Ok(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
                    Err((from, to)) => part(&mut BuildCache::sharing(ends.clone()), from, to),
                })
                .collect();
            (first_part, others)
        });
        for part in others {
            walk.changes.extend(part.changes);
            walk.copper.extend(part.copper.into_iter().map(|mut c| {
                c.at = cache.renumbered(c.at);
                c
            }));
            walk.fibre_cages.extend(part.fibre_cages);
            walk.unflagged.extend(part.unflagged);
        }
        walk
    }

    /// Decides every flagged link with an id in `ids` (see [`Walk`]).
    pub(super) fn walk<'d>(
        &'d self,
        cache: &mut BuildCache<'_>,
        ids: impl std::ops::RangeBounds<LinkId>,
    ) -> Walk<'d> {
        let devices = cache.ends().map_or(0, |e| e.device_count());
        let mut walk = Walk {
            changes: Vec::new(),
            copper: Vec::new(),
            fibre_cages: CagesSeen::new(devices),
            unflagged: Vec::new(),
        };
        for (id, l) in self.links.range(ids) {
            if !(l.estimated_length || l.auto_cable) {
                walk.unflagged.push(l);
                continue;
            }
            let at = cache.located(self, l);
            let raw = match (l.estimated_length, at[0], at[1]) {
                (true, Some(a), Some(b)) => cache
                    .ends()
                    .zip(a.device.zip(b.device))
                    .and_then(|(e, (a, b))| e.estimate_at(a, b)),
                _ => None,
            };
            let (new, fibre) = self.change_of(l, raw, &at, cache);
            if at.iter().flatten().any(|a| !matches!(a.place, Place::Own)) {
                if fibre {
                    mark(&mut walk.fibre_cages, l, &at);
                } else if l.auto_cable {
                    walk.copper.push(Copper {
                        id: *id,
                        link: l,
                        raw,
                        at,
                    });
                }
            }
            if let Some((cable, length_m)) = new {
                walk.changes.push((*id, cable, length_m));
            }
        }
        walk
    }

    /// Marks the shared cages of the links the walk did not read (`unflagged`) that run on fibre, on the devices of
    /// the links left on copper (no other cage is asked).
    fn unflagged_fibres(
        &self,
        cache: &mut BuildCache<'_>,
        unflagged: &[&Link],
        copper: &[Copper<'_>],
        cages: &mut CagesSeen,
    ) {
        let mut near = vec![false; cache.ends().map_or(0, |e| e.device_count())];
        for a in copper.iter().flat_map(|c| c.at.iter().flatten()) {
            if let Some(slot) = a.device.and_then(|i| near.get_mut(i as usize)) {
                *slot = true;
            }
        }
        for &l in unflagged {
            let is_near = |cache: &BuildCache<'_>, end: &crate::model::PortRef| {
                cache
                    .ends()
                    .and_then(|e| e.device_index(end.device))
                    .is_some_and(|i| near.get(i as usize) == Some(&true))
            };
            if !(is_near(cache, &l.a) || is_near(cache, &l.b)) {
                continue;
            }
            if l.cable.as_ref().is_some_and(|c| cache.is_fibre(self, c)) {
                let at = cache.located(self, l);
                mark(cages, l, &at);
            }
        }
    }

    /// A twin-port cage runs one medium: an auto link on copper that shares a cage with a fibre goes on fibre too
    /// (the cheapest that reaches), repeated until no cage mixes them (each round only moves copper to fibre, so
    /// it ends). Returns the links moved, as their new cable and length.
    fn one_medium_per_cage(
        &self,
        cache: &mut BuildCache<'_>,
        mut copper: Vec<Copper<'_>>,
        mut fibre_cages: CagesSeen,
    ) -> Vec<Change> {
        let mut moved = Vec::new();
        loop {
            let mut round = Vec::new();
            copper.retain(|c| {
                let l = c.link;
                let touches = [&l.a, &l.b].into_iter().zip(&c.at).any(|(end, a)| {
                    a.is_some_and(|a| fibre_cages.contains(end.device, a.device, &a.place))
                });
                if !touches {
                    return true;
                }
                let raw = c.raw.unwrap_or(l.length_m);
                let Some(chosen) = cache.cheapest(self, l, raw, true, &c.at) else {
                    return true;
                };
                let length_m = match l.estimated_length {
                    true => cache.built(chosen.build).ordered_m,
                    false => l.length_m,
                };
                round.push((
                    c.id,
                    cache.built(chosen.build).cable.clone(),
                    length_m,
                    l,
                    c.at,
                ));
                false
            });
            if round.is_empty() {
                return moved;
            }
            for (id, cable, length_m, l, at) in round {
                mark(&mut fibre_cages, l, &at);
                moved.push((id, cable, length_m));
            }
        }
    }
}

/// Marks a fibre's shared cages.
fn mark(cages: &mut CagesSeen, l: &Link, at: &Located) {
    for (end, a) in [&l.a, &l.b].into_iter().zip(at) {
        if let Some(a) = a {
            cages.insert(end.device, a.device, &a.place);
        }
    }
}

/// The walk's changes with the rounds' moves over them, in id order.
fn merge(changes: Vec<Change>, mut moved: Vec<Change>) -> Vec<Change> {
    if moved.is_empty() {
        return changes;
    }
    moved.sort_by_key(|m| m.0);
    let mut out = Vec::with_capacity(changes.len() + moved.len());
    let mut moved = moved.into_iter().peekable();
    for c in changes {
        while let Some(m) = moved.next_if(|m| m.0 < c.0) {
            out.push(m);
        }
        out.push(moved.next_if(|m| m.0 == c.0).unwrap_or(c));
    }
    out.extend(moved);
    out
}
