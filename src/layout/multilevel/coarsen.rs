//! The builder stage of the multilevel layout: coarsens a graph into a smaller one whose
//! vertices stand for clusters of the finer graph's (OGDF's `EdgeCoverMerger` and `SolarMerger`
//! in one pass, as Walshaw's and Hu's multilevel drawings match edges).
//!
//! [`MatchingMerger`] visits the vertices in order of degree (leaves first, ties broken by a
//! seeded hash) and pairs each unpaired vertex with its lightest unpaired neighbour. A vertex
//! whose neighbours are all paired already joins the lightest neighbouring cluster instead, so a
//! star collapses in one step rather than losing one leaf per level. Each coarse vertex keeps
//! the mass (vertex count) of its cluster and a radius, the distance from its centre to its
//! farthest member along the cluster's edges; a coarse edge asks for the length of the fine edge
//! it comes from plus the distances of its ends from their clusters' centres (the mean when
//! several fine edges join the same two clusters), FM³'s rule for the desired edge lengths of a
//! solar system: a path coarsened by pairs keeps its length.

use rayon::prelude::*;

use super::stages::{Level, Merger};
use crate::core::rng::splitmix64;

/// Sentinel: a vertex not in a cluster yet.
const NONE: u32 = u32::MAX;

/// Edge-matching coarsening with absorption of left-over vertices.
#[derive(Clone, Copy, Debug, Default)]
pub struct MatchingMerger;

/// Compressed adjacency of a level: for vertex `v`, `next[offset[v]..offset[v + 1]]` are its
/// neighbours and `edge[...]` the edges leading to them.
pub struct Adjacency {
    /// Start of each vertex's run; `n + 1` entries.
    pub offset: Vec<u32>,
    /// Neighbours.
    pub next: Vec<u32>,
    /// The edge index of each neighbour entry.
    pub edge: Vec<u32>,
}

impl Adjacency {
    /// The adjacency of `level`.
    ///
    /// # Runtime
    /// O(n + m), three allocations.
    pub fn new(level: &Level) -> Self {
        Self::from_edges(level.mass.len(), &level.src, &level.dst)
    }

    /// The adjacency of the graph of `n` vertices and edges `src`-`dst`.
    ///
    /// # Runtime
    /// O(n + m), three allocations; on many vertices the counts and entries are split over
    /// rayon's threads (each scans every edge), with the same result.
    pub fn from_edges(n: usize, src: &[u32], dst: &[u32]) -> Self {
        let threads = rayon::current_num_threads();
        if n >= PARALLEL_SORT_FROM && threads > 1 {
            return Self::from_edges_parallel(n, src, dst, n.div_ceil(threads));
        }
        let mut offset = vec![0u32; n + 1];
        for (&a, &b) in src.iter().zip(dst) {
            offset[a as usize + 1] += 1;
            offset[b as usize + 1] += 1;
        }
        for v in 0..n {
            offset[v + 1] += offset[v];
        }
        let mut fill = offset.clone();
        let total = offset[n] as usize;
        let (mut next, mut edge) = (vec![0u32; total], vec![0u32; total]);
        for (e, (&a, &b)) in src.iter().zip(dst).enumerate() {
            for (from, to) in [(a, b), (b, a)] {
                let at = fill[from as usize] as usize;
                next[at] = to;
                edge[at] = e as u32;
                fill[from as usize] += 1;
            }
        }
        Self { offset, next, edge }
    }

    /// [`Adjacency::from_edges`] with the vertices cut into ranges of `range`, one thread's
    /// each: every thread scans the edges in order and counts, then fills, the entries of its
    /// range's vertices, so each vertex's entries come in edge order as in the serial build.
    fn from_edges_parallel(n: usize, src: &[u32], dst: &[u32], range: usize) -> Self {
        let ends = || src.iter().zip(dst).flat_map(|(&a, &b)| [(a, b), (b, a)]);
        let mut offset = vec![0u32; n + 1];
        offset[1..]
            .par_chunks_mut(range)
            .enumerate()
            .for_each(|(r, degree)| {
                for (from, _) in ends() {
                    if let Some(d) = degree.get_mut((from as usize).wrapping_sub(r * range)) {
                        *d += 1;
                    }
                }
            });
        for v in 0..n {
            offset[v + 1] += offset[v];
        }
        let total = offset[n] as usize;
        let (mut next, mut edge) = (vec![0u32; total], vec![0u32; total]);
        // Each range's entries are one block of `next` and `edge`.
        let (mut rest_next, mut rest_edge) = (&mut next[..], &mut edge[..]);
        let mut blocks = Vec::new();
        for first in (0..n).step_by(range) {
            let last = (first + range).min(n);
            let len = (offset[last] - offset[first]) as usize;
            let (a, b) = std::mem::take(&mut rest_next).split_at_mut(len);
            let (c, d) = std::mem::take(&mut rest_edge).split_at_mut(len);
            blocks.push((first, last, a, c));
            (rest_next, rest_edge) = (b, d);
        }
        let offset_ref = &offset;
        blocks
            .into_par_iter()
            .for_each(|(first, last, next, edge)| {
                let base = offset_ref[first];
                let mut fill: Vec<u32> =
                    offset_ref[first..last].iter().map(|&o| o - base).collect();
                let edges = src.iter().zip(dst).enumerate();
                for (e, (&a, &b)) in edges {
                    for (from, to) in [(a, b), (b, a)] {
                        if let Some(at) = fill.get_mut((from as usize).wrapping_sub(first)) {
                            next[*at as usize] = to;
                            edge[*at as usize] = e as u32;
                            *at += 1;
                        }
                    }
                }
            });
        Self { offset, next, edge }
    }

    /// The entries of `v`: a range into `next` and `edge`.
    #[inline]
    pub fn range(&self, v: u32) -> std::ops::Range<usize> {
        self.offset[v as usize] as usize..self.offset[v as usize + 1] as usize
    }

    /// The neighbours of `v`.
    #[inline]
    pub fn neighbours(&self, v: u32) -> &[u32] {
        &self.next[self.range(v)]
    }

    /// The degree of `v`.
    #[inline]
    pub fn degree(&self, v: u32) -> u32 {
        self.offset[v as usize + 1] - self.offset[v as usize]
    }
}

impl Merger for MatchingMerger {
    fn coarsen(&self, fine: &Level, seed: u64) -> (Level, Vec<u32>) {
        let n = fine.mass.len();
        let adj = Adjacency::new(fine);
        let parallel = n >= PARALLEL_SORT_FROM;
        let order = visit_order(&adj, n, seed, parallel);

        let mut parent = vec![NONE; n];
        // Each fine vertex's distance from its cluster's centre.
        let mut offset = vec![0.0f32; n];
        let (mut mass, mut radius) = (Vec::new(), Vec::new());
        let mut left_over = Vec::new();
        for &v in &order {
            if parent[v as usize] != NONE {
                continue;
            }
            // The lightest unpaired neighbour (then the lowest degree, then the lowest index).
            let mut best: Option<(u32, u32)> = None;
            for k in adj.range(v) {
                let u = adj.next[k];
                if u == v || parent[u as usize] != NONE {
                    continue;
                }
                let better = best.is_none_or(|(b, _)| {
                    let (mu, mb) = (fine.mass[u as usize], fine.mass[b as usize]);
                    mu < mb || (mu == mb && (adj.degree(u), u) < (adj.degree(b), b))
                });
                if better {
                    best = Some((u, adj.edge[k]));
                }
            }
            match best {
                Some((u, e)) => {
                    let c = mass.len() as u32;
                    parent[v as usize] = c;
                    parent[u as usize] = c;
                    mass.push(fine.mass[v as usize] + fine.mass[u as usize]);
                    let half = fine.length[e as usize] * 0.5;
                    offset[v as usize] = half;
                    offset[u as usize] = half;
                    radius.push(fine.radius[v as usize].max(fine.radius[u as usize]) + half);
                }
                None => left_over.push(v),
            }
        }
        // Vertices whose neighbours were all taken join the lightest neighbouring cluster;
        // isolated ones stay alone.
        for &v in &left_over {
            let mut best: Option<(u32, u32, u32)> = None;
            for k in adj.range(v) {
                let w = adj.next[k];
                let c = parent[w as usize];
                if c == NONE {
                    continue;
                }
                if best.is_none_or(|(b, _, _)| (mass[c as usize], c) < (mass[b as usize], b)) {
                    best = Some((c, adj.edge[k], w));
                }
            }
            match best {
                Some((c, e, w)) => {
                    parent[v as usize] = c;
                    mass[c as usize] += fine.mass[v as usize];
                    // Beside its neighbour, at right angles to the neighbour's offset.
                    let (l, o) = (fine.length[e as usize], offset[w as usize]);
                    offset[v as usize] = (l * l + o * o).sqrt();
                    let reach = offset[v as usize] + fine.radius[v as usize];
                    radius[c as usize] = radius[c as usize].max(reach);
                }
                None => {
                    parent[v as usize] = mass.len() as u32;
                    mass.push(fine.mass[v as usize]);
                    radius.push(fine.radius[v as usize]);
                }
            }
        }
        let coarse = coarse_edges(fine, &parent, &offset, mass, radius, parallel);
        (coarse, parent)
    }
}

/// Vertices from which [`visit_order`] and [`coarse_edges`] sort on rayon's threads.
const PARALLEL_SORT_FROM: usize = 1 << 16;

/// The order in which [`MatchingMerger`] visits the vertices: leaves first (a leaf pairs with
/// its only neighbour before that neighbour is taken), then by degree, ties broken by a seeded
/// hash and, should two hashes tie too, by vertex id.
///
/// NOTE: the id makes every key unique, so any sort gives the one sorted order: the serial
/// and the parallel sort agree, and no result depends on how the standard library's unstable
/// sort orders equal keys (which changed between Rust releases). Hashes tie rarely below a
/// million vertices (40 bits each), but on ten million vertices a few ties are all but sure.
///
/// PERF: the keys are computed once, not in every comparison, and on many vertices computed
/// and sorted on rayon's threads.
///
/// # Runtime
/// O(n log n); allocates the keyed pairs and the order.
fn visit_order(adj: &Adjacency, n: usize, seed: u64, parallel: bool) -> Vec<u32> {
    let key = |v: u32| {
        let hash = splitmix64(seed ^ u64::from(v)) >> 24;
        ((u64::from(adj.degree(v)) << 40) | hash, v)
    };
    if parallel {
        let mut keyed: Vec<(u64, u32)> = (0..n as u32).into_par_iter().map(key).collect();
        keyed.par_sort_unstable();
        keyed.into_par_iter().map(|(_, v)| v).collect()
    } else {
        let mut keyed: Vec<(u64, u32)> = (0..n as u32).map(key).collect();
        keyed.sort_unstable();
        keyed.into_iter().map(|(_, v)| v).collect()
    }
}

/// The coarse level over clusters `parent` with the given masses and radii: one edge per pair
/// of clusters joined by a fine edge, asking for the mean over those fine edges of the fine
/// edge's length plus its ends' offsets from their clusters' centres.
///
/// # Runtime
/// O(m log m): the inter-cluster edges are sorted by their cluster pair.
fn coarse_edges(
    fine: &Level,
    parent: &[u32],
    offset: &[f32],
    mass: Vec<f32>,
    radius: Vec<f32>,
    parallel: bool,
) -> Level {
    let inter_cluster = |((&a, &b), &l): ((&u32, &u32), &f32)| {
        let (ca, cb) = (parent[a as usize], parent[b as usize]);
        (ca != cb).then(|| {
            let (lo, hi) = (ca.min(cb), ca.max(cb));
            let want = offset[a as usize] + l + offset[b as usize];
            ((u64::from(lo) << 32) | u64::from(hi), want, l)
        })
    };
    let edges = (&fine.src, &fine.dst, &fine.length);
    // NOTE: a stable sort by key alone: equal keys keep the fine edge order, so the mean below
    // adds its terms in one fixed order. rayon's stable sort and collect give the serial ones'
    // results.
    let keyed: Vec<(u64, f32, f32)> = if parallel {
        let mut keyed: Vec<_> = edges
            .into_par_iter()
            .filter_map(|(a, b, l)| inter_cluster(((a, b), l)))
            .collect();
        keyed.par_sort_by_key(|&(k, _, _)| k);
        keyed
    } else {
        let mut keyed: Vec<_> = fine
            .src
            .iter()
            .zip(&fine.dst)
            .zip(&fine.length)
            .filter_map(inter_cluster)
            .collect();
        keyed.sort_by_key(|&(k, _, _)| k);
        keyed
    };
    let (mut src, mut dst, mut length) = (Vec::new(), Vec::new(), Vec::new());
    let mut i = 0;
    while i < keyed.len() {
        let key = keyed[i].0;
        let (mut sum, mut fine_sum, mut count) = (0.0f32, 0.0f32, 0u32);
        while i < keyed.len() && keyed[i].0 == key {
            sum += keyed[i].1;
            fine_sum += keyed[i].2;
            count += 1;
            i += 1;
        }
        src.push((key >> 32) as u32);
        dst.push(key as u32);
        // NOTE: one fine edge between two clusters means they sit end to end (a corridor); k
        // parallel fine edges mean side by side (two rungs of a ladder, two rows of a mesh),
        // their centres about one fine edge apart, so the end-to-end length is divided by k,
        // never below the fine edges' own length. Without this, meshes were drawn twice as
        // long across their pairs as along them.
        let (k, mean_fine) = (count as f32, fine_sum / count as f32);
        length.push((sum / k / k).max(mean_fine));
    }
    Level {
        src,
        dst,
        length,
        mass,
        radius,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_level(n: usize, edges: &[(u32, u32)]) -> Level {
        Level {
            src: edges.iter().map(|e| e.0).collect(),
            dst: edges.iter().map(|e| e.1).collect(),
            length: vec![1.0; edges.len()],
            mass: vec![1.0; n],
            radius: vec![0.0; n],
        }
    }

    #[test]
    fn a_path_halves_and_keeps_its_mass() {
        let edges: Vec<(u32, u32)> = (0..99).map(|i| (i, i + 1)).collect();
        let fine = unit_level(100, &edges);
        let (coarse, parent) = MatchingMerger.coarsen(&fine, 3);
        let n = coarse.mass.len();
        assert!((34..=50).contains(&n), "{n} clusters");
        assert_eq!(coarse.mass.iter().sum::<f32>(), 100.0);
        // Every cluster is connected in the fine graph: parent pairs are neighbours.
        for (v, &c) in parent.iter().enumerate() {
            assert!((c as usize) < n, "vertex {v} has no cluster");
        }
        // The coarse graph is still a path: n - 1 edges, all longer than a fine edge.
        assert_eq!(coarse.src.len(), n - 1);
        assert!(coarse.length.iter().all(|&l| l > 1.0));
    }

    #[test]
    fn a_star_collapses_in_one_step() {
        let edges: Vec<(u32, u32)> = (1..50).map(|i| (0, i)).collect();
        let (coarse, _) = MatchingMerger.coarsen(&unit_level(50, &edges), 1);
        assert_eq!(coarse.mass, vec![50.0]);
        assert!(coarse.src.is_empty());
        // The hub pairs with one leaf (each half an edge from the centre); every other leaf
        // sits one edge from the hub at right angles to the hub's offset: sqrt(1 + 0.5^2).
        assert_eq!(coarse.radius, vec![1.25f32.sqrt()]);
    }

    #[test]
    fn parallel_sorts_give_the_serial_order_and_edges() {
        let n = 5_000;
        let (src, dst) = crate::layout::level_like_graph(n, 4);
        let mut fine = unit_level(n, &[]);
        fine.length = (0..src.len()).map(|e| 1.0 + (e % 5) as f32 * 0.5).collect();
        (fine.src, fine.dst) = (src, dst);
        let adj = Adjacency::new(&fine);
        for seed in [1, 2, 3] {
            assert_eq!(
                visit_order(&adj, n, seed, true),
                visit_order(&adj, n, seed, false)
            );
        }
        let (coarse, parent) = MatchingMerger.coarsen(&fine, 9);
        let offset: Vec<f32> = (0..n).map(|v| (v % 3) as f32 * 0.25).collect();
        let edges = |parallel| {
            let (mass, radius) = (coarse.mass.clone(), coarse.radius.clone());
            coarse_edges(&fine, &parent, &offset, mass, radius, parallel)
        };
        assert_eq!(edges(true), edges(false));
    }

    #[test]
    fn the_parallel_adjacency_is_the_serial_one() {
        let n = 3_000;
        let (mut src, mut dst) = crate::layout::level_like_graph(n, 8);
        src.extend([4, 2_999, 1_500]);
        dst.extend([4, 0, 1_500]);
        let serial = Adjacency::from_edges(n, &src, &dst);
        for range in [1, 700, 1_000, 3_000] {
            let parallel = Adjacency::from_edges_parallel(n, &src, &dst, range);
            assert_eq!(parallel.offset, serial.offset, "range {range}");
            assert_eq!(parallel.next, serial.next, "range {range}");
            assert_eq!(parallel.edge, serial.edge, "range {range}");
        }
    }

    #[test]
    fn isolated_vertices_stay_alone_and_coarsening_is_seeded() {
        let fine = unit_level(6, &[(0, 1), (1, 2), (2, 3)]);
        let (a, pa) = MatchingMerger.coarsen(&fine, 7);
        let (_, pb) = MatchingMerger.coarsen(&fine, 7);
        assert_eq!(pa, pb);
        assert_eq!(
            a.mass.iter().filter(|&&m| m == 1.0).count(),
            2,
            "{:?}",
            a.mass
        );
    }
}
