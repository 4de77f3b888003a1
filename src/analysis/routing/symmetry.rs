//! The fabric's symmetry: destination classes that an automorphism of the switch graph swaps are grouped into
//! orbits and routed once, the others' loads relabelled from the representative's (see [`orbits`]).

use super::*;

/// A relabelling of switches that is an automorphism of the switch graph (capacities included): it swaps one
/// class's region (its members and their neighbours) with another's and leaves every other switch in place. Empty
/// for the identity.
#[derive(Default)]
pub(super) struct Relabel {
    pub(super) node: HashMap<u32, u32>,
}

impl Relabel {
    pub(super) fn node(&self, v: usize) -> usize {
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
pub(super) struct Mapping {
    pub(super) node: Vec<u32>,
    pub(super) slot: Vec<u32>,
    /// Entries set, to clear.
    pub(super) nodes_set: Vec<u32>,
    pub(super) slots_set: Vec<u32>,
    /// Per switch, while one row is matched: the edge to it from the image switch, and whether that switch is
    /// the edge's first end.
    pub(super) row: Vec<(u32, bool)>,
}

impl Mapping {
    pub(super) const UNSET: u32 = u32::MAX;

    pub(super) fn new(switches: usize, slots: usize) -> Self {
        Mapping {
            node: vec![Self::UNSET; switches],
            slot: vec![Self::UNSET; slots],
            nodes_set: Vec::new(),
            slots_set: Vec::new(),
            row: vec![(Self::UNSET, false); switches],
        }
    }

    pub(super) fn node(&self, v: usize) -> usize {
        match self.node.get(v) {
            Some(&w) if w != Self::UNSET => w as usize,
            _ => v,
        }
    }

    /// Whether the switch is in one of the regions.
    pub(super) fn moves(&self, v: usize) -> bool {
        self.node.get(v).is_some_and(|w| *w != Self::UNSET)
    }

    /// A directed edge slot relabelled: the slot of the edge between the images of its ends, in the same
    /// direction (the slot's parity says whether it runs from the edge's first end). A slot whose image edge does
    /// not exist stays.
    pub(super) fn slot(&self, slot: u32) -> u32 {
        match self.slot.get(slot as usize) {
            Some(&to) if to != Self::UNSET => to,
            _ => slot,
        }
    }

    /// Sets the images of `r`'s switches and of the slots of every edge at them: for a switch u and its image x,
    /// x's edges by far end, then each edge (u, w) maps onto x's edge to w's image, each direction onto the same
    /// direction. Linear in the edges at the regions.
    pub(super) fn set(&mut self, r: &Relabel, csr: &Csr) {
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
    pub(super) fn clear(&mut self) {
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
pub(super) struct Orbit {
    pub(super) rep: usize,
    pub(super) others: Vec<(usize, Relabel)>,
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
///
/// In phases around the per-switch arrays they all read ([`Regions`]): the canonical forms, then per form the
/// classes grouped into orbits by the region checks and the demand comparison.
pub(super) fn orbits(
    f: &Fabric,
    csr: &Csr,
    classes: &[DestinationClass],
    products: &Products,
) -> Vec<Orbit> {
    let mut regions = Regions::new(f, csr, classes, products);
    let forms = regions.forms(f.ingress.map(|v| v as u32));
    let mut out = regions.group(forms);
    out.sort_by_key(|o| o.rep);
    out
}

/// No class.
const NONE: u32 = u32::MAX;

/// Per neighbour: the capacity to the members and the switches beyond with their capacities.
type Beyond = (u64, Vec<(u32, u64)>);

/// A class's canonical form: its size and its neighbours' [`Beyond`] in canonical order.
type Form = (usize, Vec<Beyond>);

/// The destination classes' regions as [`orbits`] reads them, with the per-switch arrays built once.
struct Regions<'a> {
    csr: &'a Csr,
    classes: &'a [DestinationClass],
    products: &'a Products,
    /// Per switch, the class it is a member of ([`NONE`] if none).
    member_of: Vec<u32>,
    /// Per switch, the (last) class whose key holds it.
    key_of: Vec<u32>,
    /// Per switch, how many classes' keys hold it.
    owners: Vec<u32>,
    /// Per class: its neighbours in canonical order.
    canonical: Vec<Vec<u32>>,
}

impl<'a> Regions<'a> {
    fn new(
        f: &Fabric,
        csr: &'a Csr,
        classes: &'a [DestinationClass],
        products: &'a Products,
    ) -> Self {
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
                if let (Some(o), Some(k)) = (owners.get_mut(w as usize), key_of.get_mut(w as usize))
                {
                    *o += 1;
                    *k = c as u32;
                }
            }
        }
        Self {
            csr,
            classes,
            products,
            member_of,
            key_of,
            owners,
            canonical: vec![Vec::new(); classes.len()],
        }
    }

    /// The eligible classes by canonical form (each class's neighbours in canonical order kept in `canonical`):
    /// a class is eligible when its neighbours are its own, have no cables between them and its region does not
    /// include the serving `ingress`.
    fn forms(&mut self, ingress: Option<u32>) -> BTreeMap<Form, Vec<usize>> {
        let (csr, classes) = (self.csr, self.classes);
        let (member_of, key_of, owners) = (&self.member_of, &self.key_of, &self.owners);
        let canonical = &mut self.canonical;
        let mut forms: BTreeMap<Form, Vec<usize>> = BTreeMap::new();
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
        forms
    }

    /// The relabelling that swaps the regions of classes `a` and `b` (members paired in id order, neighbours in
    /// canonical order), if their regions do not touch.
    fn relabel(&self, a: usize, b: usize) -> Option<Relabel> {
        let (classes, canonical, csr) = (self.classes, &self.canonical, self.csr);
        let (member_of, key_of) = (&self.member_of, &self.key_of);
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
    }

    /// Whether class `b`'s all-to-all demand is class `a`'s relabelled by `r`: the same destination weights per
    /// member, the same source weights on both regions and the same own-traffic corrections.
    fn same_demand(&self, a: usize, b: usize, r: &Relabel) -> bool {
        let (classes, products) = (self.classes, self.products);
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
        for ProductTerm {
            sources: av,
            destinations: bv,
        } in &products.terms
        {
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
    }

    /// The orbits: per form, each class joins the first of at most four representatives it is swapped with and
    /// has the same demand as, else starts an orbit of its own; classes of no form are orbits alone.
    fn group(&self, forms: BTreeMap<Form, Vec<usize>>) -> Vec<Orbit> {
        const TRIES: usize = 4;
        let classes = self.classes;
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
                    if let Some(r) = self.relabel(rep, c)
                        && self.same_demand(rep, c, &r)
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
        out
    }
}

/// With `map` set to the relabelling `r`, the slots of the cables at its regions that hold a load (`holds`) move
/// to their images: `to(slot, image)` for each, counted in `moved` (what stays at a slot is then the orbit's size
/// less its moves). Each cable is visited once, from its region end (the lower one when both are), so the work is
/// the regions' cables, not the fabric's.
pub(super) fn move_region(
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
