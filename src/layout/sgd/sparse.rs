//! Sparse stress (Ortmann, Klimenta and Brandes' pivot model, in Zheng, Pawar and Goodman's
//! stochastic form): every vertex keeps a term with each of `h` pivots, weighted by how many
//! vertices of the pivot's region the term stands for, and every edge keeps its own term, as
//! do, when [`Near`] asks for them, the pairs a few edges apart. The pivots are drawn one
//! after the other with probability proportional to their distance from the pivots drawn
//! before (Zheng et al.'s random max-min), from the seed.
//!
//! A pivot's terms move only the other vertex (the pivot stands still for them, as in the
//! model), so a round of one pivot's terms moves every vertex independently: it runs in fixed
//! chunks of vertices on any number of threads with the same bits, eight vertices per lane
//! step. Within its chunk's task each pivot round is followed by one slice of the pair terms
//! with both ends in the chunk, and after the round by one slice of the pair terms across
//! chunks, each list in a shuffled order fixed at the start, one pair after the other.

use rayon::prelude::*;

use super::kernel::{self, Slots};
use super::paths::{BATCH, PathScratch, Paths};
use crate::core::rng::{WarrenRng, mix};

/// Vertices per chunk of a pivot round.
const CHUNK: usize = 1 << 14;

/// The sparse stress model of a connected graph.
pub struct Sparse {
    n: usize,
    pivots: Vec<u32>,
    /// Target of each vertex from each pivot, pivot-major.
    dist: Vec<f32>,
    /// Weight of each vertex's term with each pivot (0: no term), pivot-major.
    weight: Vec<f32>,
    /// Pair terms (edges and near pairs) with both ends in one chunk, by chunk, in their
    /// fixed order: ends (as offsets into the chunk) and target.
    inner: Vec<Vec<(u32, u32, f32)>>,
    /// Pair terms whose ends lie in two chunks, in their fixed order.
    across: Vec<(u32, u32, f32)>,
    /// Smallest and largest positive weight.
    pub range: (f32, f32),
}

impl Sparse {
    /// The model of the connected graph `paths` with up to `pivots` pivots, drawn from `seed`.
    ///
    /// # Runtime
    /// O(h (n + m)) for the pivots' searches (serial, 64 pivots a search), O(h n log n) for the
    /// weights; memory `8 h n` bytes.
    pub fn new(paths: &Paths, pivots: usize, near: Near, seed: u64, parallel: bool) -> Self {
        let n = paths.len();
        let Pivots {
            chosen,
            dist,
            nearest,
        } = Pivots::draw(paths, pivots, seed, parallel);
        let weight = region_weights(paths, &chosen, &dist, &nearest, parallel);
        let (inner, across) = pair_terms(paths, near, seed, parallel);
        let range = weight_range(&weight, &inner, &across, parallel);
        Self {
            n,
            pivots: chosen,
            dist,
            weight,
            inner,
            across,
            range,
        }
    }

    /// Pivots drawn.
    pub fn pivot_count(&self) -> usize {
        self.pivots.len()
    }

    /// Runs one epoch per step size of `etas`: every pivot's round (in an order drawn from
    /// `mix(seed, epoch)`), each followed by its slice of the edge terms.
    ///
    /// # Runtime
    /// O(h n + m) per epoch; the pivot rounds on rayon's threads when `parallel`, the same
    /// bits either way.
    pub fn run(
        &self,
        x: &mut [f32],
        y: &mut [f32],
        free: &[f32],
        etas: &[f32],
        seed: u64,
        parallel: bool,
    ) {
        let (n, h) = (self.n, self.pivots.len());
        for (epoch, &eta) in etas.iter().enumerate() {
            let mut order: Vec<usize> = (0..h).collect();
            WarrenRng::new(mix(seed, epoch as u64)).shuffle(&mut order);
            for (t, &k) in order.iter().enumerate() {
                let p = self.pivots[k] as usize;
                let at = (x[p], y[p]);
                let (d, w) = (
                    &self.dist[k * n..(k + 1) * n],
                    &self.weight[k * n..(k + 1) * n],
                );
                // A chunk's pivot term, then its slice of the pair terms within it.
                let chunk = |(c, (xs, ys)): (usize, (&mut [f32], &mut [f32]))| {
                    let r = c * CHUNK..c * CHUNK + xs.len();
                    let free = &free[r.clone()];
                    kernel::toward(xs, ys, free, &d[r.clone()], &w[r], at, eta);
                    let mut s = Slots { x: xs, y: ys, free };
                    for &(a, b, l) in slice_of(&self.inner[c], t, h) {
                        kernel::pair(&mut s, a as usize, b as usize, l, eta);
                    }
                };
                if parallel {
                    x.par_chunks_mut(CHUNK)
                        .zip(y.par_chunks_mut(CHUNK))
                        .enumerate()
                        .for_each(chunk);
                } else {
                    x.chunks_mut(CHUNK)
                        .zip(y.chunks_mut(CHUNK))
                        .enumerate()
                        .for_each(chunk);
                }
                let mut s = Slots { x, y, free };
                for &(a, b, l) in slice_of(&self.across, t, h) {
                    kernel::pair(&mut s, a as usize, b as usize, l, eta);
                }
            }
        }
    }
}

/// The `t`-th of `h` equal slices of `terms`.
fn slice_of<T>(terms: &[T], t: usize, h: usize) -> &[T] {
    &terms[t * terms.len() / h..(t + 1) * terms.len() / h]
}

/// Largest degree of a vertex through which near pairs are found (`pair_terms`): a hub's
/// neighbours would bring a number of terms quadratic in its degree, and the pivots stand for
/// them well enough.
pub const HUB_DEGREE: usize = 8;

/// Which near pairs sparse stress keeps a term for besides the edges (`pair_terms`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Near {
    /// Most edges between the two (0 or 1: the edges only).
    pub radius: u32,
    /// Most vertices a vertex's search sees, itself included.
    pub cap: usize,
}

/// The pair terms of sparse stress, in a fixed order drawn from `seed`: every edge, and for
/// each vertex `a` every vertex `b > a` that a breadth-first search from `a` reaches within
/// `near.radius` edges (not through a vertex of degree above [`HUB_DEGREE`]) and at least two
/// edges away, until it has seen `near.cap` vertices, the target being the length of the
/// search's path. Without the near pairs the pivot terms, which see a vertex's surroundings
/// only as a blur, fold it onto its siblings, which stand at the same distances from every
/// pivot. Returned by chunk of `CHUNK` vertices (the terms with both ends in the chunk, as
/// offsets into it, shuffled by `mix(seed, chunk)`), and the terms across chunks (shuffled by
/// `seed`).
///
/// # Runtime
/// O(n cap + m), by chunks on rayon's threads when `parallel`; the same terms in the same
/// order either way.
fn pair_terms(paths: &Paths, near: Near, seed: u64, parallel: bool) -> (Vec<Vec<Term>>, Vec<Term>) {
    let n = paths.len();
    let chunk = |stamp: &mut Vec<u32>, c: usize| -> (Vec<Term>, Vec<Term>) {
        let (mut inner, mut across) = (Vec::new(), Vec::new());
        let base = c * CHUNK;
        let mut put = |a: u32, b: u32, l: f32| {
            if (b as usize) >= base && (b as usize) < base + CHUNK {
                inner.push((a - base as u32, b - base as u32, l));
            } else {
                across.push((a, b, l));
            }
        };
        // (vertex, hops, length) in breadth-first order; `stamp[v] == a` marks v seen from a.
        let mut seen: Vec<(u32, u32, f32)> = Vec::new();
        for a in (base..n.min(base + CHUNK)).map(|a| a as u32) {
            seen.clear();
            seen.push((a, 0, 0.0));
            stamp[a as usize] = a;
            let mut head = 0;
            while head < seen.len() {
                let (u, hops, du) = seen[head];
                head += 1;
                let (next, next_len) = paths.entries(u);
                if hops >= near.radius.max(1) || (hops > 0 && next.len() > HUB_DEGREE) {
                    continue;
                }
                for (&b, &l) in next.iter().zip(next_len) {
                    if stamp[b as usize] != a && seen.len() < near.cap.max(2) {
                        stamp[b as usize] = a;
                        seen.push((b, hops + 1, du + l));
                    } else if hops == 0 && b > a {
                        // An edge the search could not take in: still a term.
                        put(a, b, l);
                    }
                }
            }
            for &(b, _, l) in seen.iter().filter(|s| s.0 > a) {
                put(a, b, l);
            }
        }
        WarrenRng::new(mix(seed, c as u64)).shuffle(&mut inner);
        (inner, across)
    };
    let chunks = n.div_ceil(CHUNK);
    let parts: Vec<(Vec<Term>, Vec<Term>)> = if parallel {
        (0..chunks)
            .into_par_iter()
            .map_init(|| vec![u32::MAX; n], chunk)
            .collect()
    } else {
        let mut stamp = vec![u32::MAX; n];
        (0..chunks).map(|c| chunk(&mut stamp, c)).collect()
    };
    let (inner, across): (Vec<Vec<Term>>, Vec<Vec<Term>>) = parts.into_iter().unzip();
    let mut across = across.concat();
    WarrenRng::new(seed).shuffle(&mut across);
    (inner, across)
}

/// A pair term: its ends and target.
type Term = (u32, u32, f32);

/// The smallest and largest positive weight of the pivot terms (`weight`) and the pair terms
/// (`1 / d^2`, from the longest and the shortest `d`: rounding keeps the order, so those give
/// the same bits as every term's weight), on rayon's threads when `parallel` (least and
/// greatest are exact, so the same either way).
fn weight_range(
    weight: &[f32],
    inner: &[Vec<Term>],
    across: &[Term],
    parallel: bool,
) -> (f32, f32) {
    let widen = |r: (f32, f32), w: f32| {
        if w > 0.0 { (r.0.min(w), r.1.max(w)) } else { r }
    };
    let join = |a: (f32, f32), b: (f32, f32)| (a.0.min(b.0), a.1.max(b.1));
    let empty = (f32::INFINITY, 0.0f32);
    let targets = |terms: &[Term]| terms.iter().fold(empty, |r, t| widen(r, t.2));
    let (pivots, lengths) = if parallel {
        let pivots = weight
            .par_chunks(1 << 16)
            .map(|c| c.iter().fold(empty, |r, &w| widen(r, w)))
            .reduce(|| empty, join);
        let lengths = inner.par_iter().map(|c| targets(c)).reduce(|| empty, join);
        (pivots, lengths)
    } else {
        let pivots = weight.iter().fold(empty, |r, &w| widen(r, w));
        (pivots, inner.iter().map(|c| targets(c)).fold(empty, join))
    };
    let (d_min, d_max) = join(lengths, targets(across));
    if d_max == 0.0 {
        return pivots;
    }
    join(pivots, (1.0 / (d_max * d_max), 1.0 / (d_min * d_min)))
}

/// Pivots drawn by [`Pivots::draw`], with their distances.
pub struct Pivots {
    /// The pivots in the order drawn.
    pub chosen: Vec<u32>,
    /// Every vertex's distance from each pivot, pivot-major.
    pub dist: Vec<f32>,
    /// Each vertex's nearest pivot (an index into `chosen`; the earlier one on ties).
    pub nearest: Vec<u32>,
}

impl Pivots {
    /// Up to `count` pivots of the connected graph `paths`: the first drawn from `seed`, then
    /// batches of up to [`BATCH`], each vertex drawn with probability proportional to its
    /// distance from the pivots before (random max-min), each batch's distances by
    /// [`search_rows`] (on rayon's threads when `parallel`, the same distances).
    ///
    /// # Runtime
    /// O(count / BATCH) searches and O(count n) draws; memory `4 count n` bytes.
    pub fn draw(paths: &Paths, count: usize, seed: u64, parallel: bool) -> Self {
        let n = paths.len();
        let h = count.clamp(1, n);
        let mut rng = WarrenRng::new(seed);
        let mut dist = vec![0.0f32; h * n];
        let mut nearest = vec![u32::MAX; n];
        let mut mins = vec![f32::INFINITY; n];
        let mut chosen: Vec<u32> = Vec::with_capacity(h);
        let mut batch = vec![rng.below(n as u32)];
        while !batch.is_empty() {
            let k0 = chosen.len();
            chosen.extend_from_slice(&batch);
            let rows = &mut dist[k0 * n..(k0 + batch.len()) * n];
            search_rows(paths, &batch, rows, parallel);
            for (k, row) in rows.chunks(n).enumerate() {
                for v in 0..n {
                    if row[v] < mins[v] {
                        mins[v] = row[v];
                        nearest[v] = (k0 + k) as u32;
                    }
                }
            }
            batch = next_pivots(&mut mins, (h - chosen.len()).min(BATCH), &mut rng);
        }
        dist.truncate(chosen.len() * n);
        Self {
            chosen,
            dist,
            nearest,
        }
    }
}

/// Sources per search of [`search_rows`] on rayon's threads: pivots drawn by max-min lie far
/// apart, so most vertices are reached at a different level from each of them and a search
/// costs about as much per source whether it holds 8 or 64; in parts of 8 the searches of a
/// batch spread over the threads (a level-like graph of 10^6 vertices: 31 pivots' distances
/// in 1.4 s by one search, 0.75 s by four on two threads).
const PART: usize = 8;

/// Fills `rows` (`n` per source, `n` the vertex count) with the distances from `sources` (at
/// most [`BATCH`]): by one multi-source search, or when `parallel` by one per [`PART`] of
/// them on rayon's threads. Distances are exact, so the rows are the same either way.
fn search_rows(paths: &Paths, sources: &[u32], rows: &mut [f32], parallel: bool) {
    let n = paths.len();
    let search = |(part, rows): (&[u32], &mut [f32])| {
        let mut scratch = PathScratch::default();
        paths.batch(part, &mut scratch, |v, k, d| rows[k * n + v as usize] = d);
    };
    if parallel && sources.len() > PART {
        sources
            .par_chunks(PART)
            .zip(rows.par_chunks_mut(PART * n))
            .for_each(search);
    } else {
        search((sources, rows));
    }
}

/// Up to `count` further pivots, each drawn with probability proportional to its distance
/// from the pivots so far (`mins`; a drawn vertex's entry is set to 0, so it is not drawn
/// twice). Fewer when every vertex is a pivot.
fn next_pivots(mins: &mut [f32], count: usize, rng: &mut WarrenRng) -> Vec<u32> {
    let mut picked = Vec::with_capacity(count);
    let mut total: f64 = mins.iter().map(|&m| f64::from(m)).sum();
    while picked.len() < count && total > 0.0 {
        let target = rng.unit_f64() * total;
        let mut acc = 0.0f64;
        let v = (0..mins.len())
            .find(|&v| {
                acc += f64::from(mins[v]);
                acc > target && mins[v] > 0.0
            })
            .unwrap_or_else(|| mins.iter().rposition(|&m| m > 0.0).unwrap_or(0));
        total -= f64::from(mins[v]);
        mins[v] = 0.0;
        picked.push(v as u32);
    }
    picked
}

/// Each vertex's weight with each pivot: the number of vertices of the pivot's region (the
/// vertices nearest to it) at most half the vertex's distance from the pivot, over the squared
/// distance; 0 for the pivot itself and its neighbours (their edge terms stand for them).
fn region_weights(
    paths: &Paths,
    pivots: &[u32],
    dist: &[f32],
    nearest: &[u32],
    parallel: bool,
) -> Vec<f32> {
    let n = paths.len();
    let mut weight = vec![0.0f32; pivots.len() * n];
    let fill = |(k, row): (usize, &mut [f32])| {
        let d = &dist[k * n..(k + 1) * n];
        let mut region: Vec<f32> = (0..n)
            .filter(|&v| nearest[v] == k as u32)
            .map(|v| d[v])
            .collect();
        region.sort_by(f32::total_cmp);
        for v in 0..n {
            let within = region.partition_point(|&r| r <= d[v] / 2.0);
            row[v] = if d[v] > 0.0 {
                within as f32 / (d[v] * d[v])
            } else {
                0.0
            };
        }
        row[pivots[k] as usize] = 0.0;
        for &w in paths.entries(pivots[k]).0 {
            row[w as usize] = 0.0;
        }
    };
    if parallel {
        weight.par_chunks_mut(n).enumerate().for_each(fill);
    } else {
        weight.chunks_mut(n).enumerate().for_each(fill);
    }
    weight
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pivots_are_distinct_and_weights_count_their_regions() {
        let n = 200u32;
        let src: Vec<u32> = (0..n - 1).collect();
        let dst: Vec<u32> = (1..n).collect();
        let paths = Paths::new(n as usize, &src, &dst, &vec![1.0; n as usize - 1]);
        // Near pairs two edges apart: one per vertex but the last two.
        let near = Near { radius: 2, cap: 8 };
        let model = Sparse::new(&paths, 10, near, 3, false);
        let mut p = model.pivots.clone();
        p.sort_unstable();
        p.dedup();
        assert_eq!(p.len(), 10);
        // Each vertex's weight with a far pivot is positive, its own pivot's is 0.
        for (k, &pv) in model.pivots.iter().enumerate() {
            let row = &model.weight[k * 200..(k + 1) * 200];
            assert_eq!(row[pv as usize], 0.0);
            let far = if pv < 100 { 199 } else { 0 };
            assert!(row[far] > 0.0);
        }
        assert_eq!(
            model.inner.iter().map(Vec::len).sum::<usize>() + model.across.len(),
            199 + 198
        );
    }
}
