//! The switch fabric: switches and the cables between them collapsed into edges, its connected components, its
//! top tier, and the compressed rows ([`Csr`]) the walks read neighbours from.

use super::*;

/// Switch graph with collapsed edges.
pub(super) struct Fabric {
    pub(super) index: HashMap<DeviceId, usize>,
    /// Per switch: (neighbour, edge).
    pub(super) adj: Vec<Vec<(usize, usize)>>,
    /// Per edge: its two switches (a < b).
    pub(super) ends: Vec<(usize, usize)>,
    /// Per edge: capacity per direction, Gb/s.
    pub(super) cap: Vec<f64>,
    /// Per link, by place in link order: the edge it is a cable of (`u32::MAX` for a link that is not between
    /// two switches).
    pub(super) edge_of_link: Vec<u32>,
    /// A virtual node beside the top tier where serving traffic enters and leaves: reached, never crossed.
    pub(super) ingress: Option<usize>,
}

pub(super) fn fabric(design: &Design) -> Fabric {
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

pub(super) fn components(f: &Fabric) -> Vec<usize> {
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
pub(super) fn top_switches(f: &Fabric, leaves: &[usize]) -> Vec<usize> {
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
pub(super) struct Csr {
    pub(super) offsets: Vec<u32>,
    /// (neighbour, edge, capacity, whether the edge's first end is this switch).
    pub(super) flat: Vec<(u32, u32, f64, bool)>,
}

impl Csr {
    /// From the edge list in edge order, each edge written into both ends' rows: the rows list their edges in
    /// edge order, as `f.adj` does (which is how `fabric` fills it), reading the edges and capacities in one
    /// sequential pass instead of looking each up from the adjacency lists.
    pub(super) fn new(f: &Fabric) -> Self {
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

    pub(super) fn neighbours(&self, v: usize) -> &[(u32, u32, f64, bool)] {
        let (Some(&lo), Some(&hi)) = (self.offsets.get(v), self.offsets.get(v + 1)) else {
            return &[];
        };
        self.flat.get(lo as usize..hi as usize).unwrap_or(&[])
    }
}
