//! Neighbourhood preservation of a layout: how many of a vertex's graph neighbours are also its
//! nearest vertices in the drawing, the measure Gansner, Hu and North's maxent-stress paper and
//! Kruiger et al.'s tsNET compare layouts by (a drawing can have low stress and still scatter
//! each vertex's neighbours among strangers).
//!
//! For a vertex `v` with `k` distinct neighbours `N(v)` (self-loops and repeated edges do not
//! count), take the `k` vertices other than `v` nearest to it in the drawing, `D(v)` (Euclidean
//! distance; equal distances are broken by the smaller vertex index, so the figure is defined
//! for any drawing), and score `NP(v) = |N(v) ∩ D(v)| / |N(v) ∪ D(v)|`, their Jaccard
//! similarity. The figure is the mean over the vertices with at least one neighbour: 1 when
//! every vertex's nearest vertices are exactly its neighbours, near 0 for a random scatter.
//!
//! Nearest vertices come from an R-tree ([`rstar`]) of the drawing's distinct points, each
//! holding the vertices drawn on it (so a drawing that piles many vertices on one spot costs no
//! more than one with a few). From [`NEIGHBOURHOOD_SAMPLE_FROM`] vertices the mean is taken over
//! [`NEIGHBOURHOOD_SAMPLE`] vertices drawn from a seed ([`neighbourhood_auto`]). Vertices are
//! scored on rayon's threads in fixed chunks whose sums are added in order, so the figure is the
//! same bits on any thread count.

use rayon::prelude::*;
use rstar::RTree;
use rstar::primitives::GeomWithData;

use crate::core::rng::mix;
use crate::layout::multilevel::coarsen::Adjacency;

/// Vertex count from which [`neighbourhood_auto`] averages over a sample of vertices.
pub const NEIGHBOURHOOD_SAMPLE_FROM: usize = 200_000;

/// Vertices [`neighbourhood_auto`] samples from [`NEIGHBOURHOOD_SAMPLE_FROM`] vertices on (its
/// standard error is at most `0.5 / sqrt(50,000)`, about 0.002).
pub const NEIGHBOURHOOD_SAMPLE: usize = 50_000;

/// Vertices scored per rayon task (the chunks' sums are added in order).
const CHUNK: usize = 1024;

/// A neighbourhood preservation figure, exact or from a sample of vertices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Neighbourhood {
    /// The mean `NP(v)` over the vertices with a neighbour (0 when none has one).
    pub mean: f64,
    /// Whether the mean is over a sample of vertices.
    pub sampled: bool,
}

/// Neighbourhood preservation of positions `x`, `y` for the graph of edges `src`-`dst`: exact
/// below [`NEIGHBOURHOOD_SAMPLE_FROM`] vertices, over [`NEIGHBOURHOOD_SAMPLE`] vertices drawn
/// from `seed` from there.
///
/// # Runtime
/// As [`neighbourhood_preservation_sampled`].
pub fn neighbourhood_auto(
    x: &[f32],
    y: &[f32],
    src: &[u32],
    dst: &[u32],
    seed: u64,
) -> Neighbourhood {
    if x.len() < NEIGHBOURHOOD_SAMPLE_FROM {
        return Neighbourhood {
            mean: neighbourhood_preservation(x, y, src, dst),
            sampled: false,
        };
    }
    Neighbourhood {
        mean: neighbourhood_preservation_sampled(x, y, src, dst, NEIGHBOURHOOD_SAMPLE, seed),
        sampled: true,
    }
}

/// The mean neighbourhood preservation over every vertex with a neighbour (see the module
/// docs).
///
/// # Runtime
/// O(n log n + m log n) for a drawing without many vertices at equal distances from one
/// another; allocates the adjacency, the R-tree and a buffer per task.
pub fn neighbourhood_preservation(x: &[f32], y: &[f32], src: &[u32], dst: &[u32]) -> f64 {
    let all: Vec<u32> = (0..x.len() as u32).collect();
    mean_over(x, y, src, dst, &all)
}

/// The mean neighbourhood preservation over `sample` vertices drawn from `seed` (a uniform
/// random subset; every vertex when `sample >= n`, which is then the same bits as
/// [`neighbourhood_preservation`]), counting those with a neighbour.
///
/// # Runtime
/// O(n log n + m) for the order, the adjacency and the R-tree of every vertex, plus
/// O(k log n) per sampled vertex of degree `k`.
pub fn neighbourhood_preservation_sampled(
    x: &[f32],
    y: &[f32],
    src: &[u32],
    dst: &[u32],
    sample: usize,
    seed: u64,
) -> f64 {
    let mut order: Vec<(u64, u32)> = (0..x.len() as u32)
        .map(|v| (mix(seed, u64::from(v)), v))
        .collect();
    order.sort_unstable();
    // In increasing index, so a sample of every vertex adds up as the exact figure does.
    let mut picked: Vec<u32> = order.iter().take(sample).map(|&(_, v)| v).collect();
    picked.sort_unstable();
    mean_over(x, y, src, dst, &picked)
}

/// The drawing's distinct points, each with the vertices drawn on it.
struct Points {
    /// Each distinct point (its data: its index in `start`).
    tree: RTree<GeomWithData<[f32; 2], u32>>,
    /// The vertices, grouped by point: point `p` holds `vertices[start[p]..start[p + 1]]`, in
    /// increasing index.
    vertices: Vec<u32>,
    /// Where each point's vertices start in `vertices`, and their end.
    start: Vec<u32>,
}

impl Points {
    /// The points of the drawing `x`, `y` (the same coordinate bits make one point).
    fn new(x: &[f32], y: &[f32]) -> Self {
        let key = |v: u32| (x[v as usize].to_bits(), y[v as usize].to_bits());
        let mut vertices: Vec<u32> = (0..x.len() as u32).collect();
        vertices.sort_unstable_by_key(|&v| (key(v), v));
        let (mut start, mut points) = (Vec::new(), Vec::new());
        for (i, &v) in vertices.iter().enumerate() {
            if i == 0 || key(vertices[i - 1]) != key(v) {
                let point = [x[v as usize], y[v as usize]];
                points.push(GeomWithData::new(point, start.len() as u32));
                start.push(i as u32);
            }
        }
        start.push(vertices.len() as u32);
        Self {
            tree: RTree::bulk_load(points),
            vertices,
            start,
        }
    }

    /// The `k` vertices other than `v` nearest to point `p`, ties by index, into `near` (sorted
    /// by index); `near` is cleared first.
    fn nearest(&self, p: [f32; 2], v: u32, k: usize, near: &mut Vec<(f32, u32)>) {
        near.clear();
        // NOTE: the iterator yields points by increasing squared distance, so `near` stays
        // sorted by distance and `near[k - 1]` holds the k-th smallest distance; every point at
        // that distance is taken, and the sort below breaks the ties by index.
        for (point, d2) in self.tree.nearest_neighbor_iter_with_distance_2(p) {
            if near.len() >= k && d2 > near[k - 1].0 {
                break;
            }
            let g = point.data as usize;
            let here = &self.vertices[self.start[g] as usize..self.start[g + 1] as usize];
            // At most `k` vertices of one point can be chosen: its smallest indices.
            near.extend(here.iter().filter(|&&u| u != v).take(k).map(|&u| (d2, u)));
        }
        near.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        near.truncate(k);
        near.sort_unstable_by_key(|&(_, u)| u);
    }
}

/// Each vertex's distinct neighbours other than itself, in increasing index.
fn neighbour_sets(n: usize, src: &[u32], dst: &[u32]) -> Adjacency {
    let mut adj = Adjacency::from_edges(n, src, dst);
    let mut kept = 0usize;
    for v in 0..n {
        let range = adj.offset[v] as usize..adj.offset[v + 1] as usize;
        adj.offset[v] = kept as u32;
        adj.next[range.clone()].sort_unstable();
        let mut last = None;
        for i in range {
            let u = adj.next[i];
            // NOTE: `kept <= i`: the run is compacted toward its start, never past a value not
            // yet read.
            if u != v as u32 && last != Some(u) {
                adj.next[kept] = u;
                kept += 1;
            }
            last = Some(u);
        }
    }
    adj.offset[n] = kept as u32;
    adj.next.truncate(kept);
    adj.edge.clear();
    adj
}

/// The mean `NP(v)` over the vertices of `which` (in increasing index) that have a neighbour.
fn mean_over(x: &[f32], y: &[f32], src: &[u32], dst: &[u32], which: &[u32]) -> f64 {
    let n = x.len();
    debug_assert_eq!(y.len(), n, "one y per x");
    if which.is_empty() || src.is_empty() {
        return 0.0;
    }
    let adj = neighbour_sets(n, src, dst);
    let points = Points::new(x, y);
    let sums: Vec<(f64, u64)> = which
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut near = Vec::new();
            let (mut sum, mut count) = (0.0f64, 0u64);
            for &v in chunk {
                let neighbours = adj.neighbours(v);
                if neighbours.is_empty() {
                    continue;
                }
                let k = neighbours.len();
                points.nearest([x[v as usize], y[v as usize]], v, k, &mut near);
                let shared = intersection(neighbours, near.iter().map(|&(_, u)| u));
                sum += shared as f64 / (2 * k - shared) as f64;
                count += 1;
            }
            (sum, count)
        })
        .collect();
    let (sum, count) = sums
        .into_iter()
        .fold((0.0, 0), |(s, c), (a, b)| (s + a, c + b));
    if count == 0 { 0.0 } else { sum / count as f64 }
}

/// The size of the intersection of two increasing sequences.
fn intersection(a: &[u32], b: impl Iterator<Item = u32>) -> usize {
    let mut a = a.iter().peekable();
    let mut shared = 0;
    for u in b {
        while a.next_if(|&&w| w < u).is_some() {}
        if a.next_if(|&&w| w == u).is_some() {
            shared += 1;
        }
    }
    shared
}

#[cfg(test)]
#[path = "neighbourhood_tests.rs"]
mod tests;
