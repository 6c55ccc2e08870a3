//! Layout quality (seed 000: a drawing is usable when no corridor crosses another): edge
//! crossings, self-intersection (a crossing between two non-cosmetic edges, demirogue's test for
//! a failed layout) and the spread of edge lengths.
//!
//! Crossings are found through an R-tree ([`rstar`]) of the edges' bounding boxes: each edge asks
//! the tree for the boxes that overlap its own, and only those pairs get the exact segment test,
//! so a layout whose edges are short next to its extent costs O(m log m) instead of O(m^2).
//! Graphs below [`TREE_FROM`] edges take a sweep over the boxes sorted by their left sides,
//! which beats building a tree.
//! [`crossings_brute`] checks every pair and is the oracle both paths are tested against.
//!
//! Two edges that share an endpoint (the same vertex id) never count as crossing; edges that only
//! touch, overlap along a line, or meet at a point where two distinct vertices coincide do.
//! Coordinates are expected finite; edges index into `x` and `y`, and an index out of range
//! panics.

use std::convert::Infallible;
use std::ops::ControlFlow;

use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{AABB, RTree};

/// Edge count from which crossings are found through an R-tree rather than the sweep (measured
/// in a release build against the all-pairs loop the sweep replaced: the two cost the same
/// around 64 edges of a spread-out layout; the sweep is the cheaper of those two, so the true
/// crossover may now lie higher).
pub const TREE_FROM: usize = 64;

/// The quality figures of one layout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quality {
    /// Pairs of edges that cross (edges sharing an endpoint never count).
    pub crossings: u64,
    /// Whether two non-cosmetic edges cross.
    pub self_intersecting: bool,
    /// Coefficient of variation of the edge lengths (standard deviation over mean; 0 for no
    /// edges).
    pub length_cv: f32,
}

/// Whether segments `p1 p2` and `q1 q2` intersect (touching counts).
pub fn segments_intersect(p1: [f32; 2], p2: [f32; 2], q1: [f32; 2], q2: [f32; 2]) -> bool {
    // NOTE: segments whose closed bounding boxes are apart never intersect. Saying so first keeps
    // a rounded orientation from reporting such a pair, which the R-tree in `count_crossings`
    // never offers to this test: the fast count and `crossings_brute` then agree exactly.
    let apart =
        |a: usize| p1[a].max(p2[a]) < q1[a].min(q2[a]) || q1[a].max(q2[a]) < p1[a].min(p2[a]);
    if apart(0) || apart(1) {
        return false;
    }
    let orient = |a: [f32; 2], b: [f32; 2], c: [f32; 2]| {
        let v = (b[0] - a[0]) as f64 * (c[1] - a[1]) as f64
            - (b[1] - a[1]) as f64 * (c[0] - a[0]) as f64;
        (v > 0.0) as i8 - (v < 0.0) as i8
    };
    let on = |a: [f32; 2], b: [f32; 2], c: [f32; 2]| {
        c[0] >= a[0].min(b[0])
            && c[0] <= a[0].max(b[0])
            && c[1] >= a[1].min(b[1])
            && c[1] <= a[1].max(b[1])
    };
    let (d1, d2) = (orient(q1, q2, p1), orient(q1, q2, p2));
    let (d3, d4) = (orient(p1, p2, q1), orient(p1, p2, q2));
    if d1 * d2 < 0 && d3 * d4 < 0 {
        return true;
    }
    (d1 == 0 && on(q1, q2, p1))
        || (d2 == 0 && on(q1, q2, p2))
        || (d3 == 0 && on(p1, p2, q1))
        || (d4 == 0 && on(p1, p2, q2))
}

/// Crossing edge pairs, by checking every pair (O(m^2)).
pub fn crossings_brute(x: &[f32], y: &[f32], src: &[u32], dst: &[u32]) -> u64 {
    let m = src.len();
    let mut count = 0;
    for a in 0..m {
        for b in a + 1..m {
            let (a0, a1, b0, b1) = (src[a], dst[a], src[b], dst[b]);
            if a0 == b0 || a0 == b1 || a1 == b0 || a1 == b1 {
                continue;
            }
            let p = |v: u32| [x[v as usize], y[v as usize]];
            count += u64::from(segments_intersect(p(a0), p(a1), p(b0), p(b1)));
        }
    }
    count
}

/// Crossing edge pairs (the same figure as [`crossings_brute`]), through an R-tree of the edges'
/// bounding boxes from [`TREE_FROM`] edges on.
///
/// # Runtime
/// O(m log m + k) for `m` edges whose boxes overlap in `k` pairs: O(m log m) for a layout whose
/// edges are short next to its extent, O(m^2) at worst (every box overlapping every other). One
/// allocation of 20 bytes per edge plus the tree's nodes; none below [`TREE_FROM`] edges.
pub fn count_crossings(x: &[f32], y: &[f32], src: &[u32], dst: &[u32]) -> u64 {
    let mut count = 0;
    let ControlFlow::Continue(()) = for_each_crossing(
        x,
        y,
        src,
        dst,
        |_| true,
        |_, _| {
            count += 1;
            ControlFlow::<Infallible>::Continue(())
        },
    );
    count
}

/// Whether two edges not marked `cosmetic` cross (`None`: no edge is cosmetic). Stops at the
/// first crossing found.
///
/// # Runtime
/// As [`count_crossings`] at worst, over the non-cosmetic edges only.
pub fn self_intersecting(
    x: &[f32],
    y: &[f32],
    src: &[u32],
    dst: &[u32],
    cosmetic: Option<&[bool]>,
) -> bool {
    check_cosmetic(src, cosmetic);
    let counts = |e: usize| cosmetic.is_none_or(|c| !c[e]);
    for_each_crossing(x, y, src, dst, counts, |_, _| ControlFlow::Break(())).is_break()
}

/// Coefficient of variation of the edge lengths (0 without edges).
pub fn length_cv(x: &[f32], y: &[f32], src: &[u32], dst: &[u32]) -> f32 {
    length_cv_weighted(x, y, src, dst, None)
}

/// [`length_cv`] of each edge's length over its desired length `weights[e]` (`None`: of the
/// lengths): 0 when every edge is drawn at its weight times one common scale.
///
/// # Runtime
/// O(m), no allocation.
pub fn length_cv_weighted(
    x: &[f32],
    y: &[f32],
    src: &[u32],
    dst: &[u32],
    weights: Option<&[f32]>,
) -> f32 {
    let m = src.len();
    if m == 0 {
        return 0.0;
    }
    let lengths = src.iter().zip(dst).enumerate().map(|(e, (&a, &b))| {
        let (a, b) = (a as usize, b as usize);
        let length = f64::from((x[b] - x[a]).hypot(y[b] - y[a]));
        match weights {
            Some(w) => length / f64::from(w[e]),
            None => length,
        }
    });
    let (mut sum, mut sum2) = (0.0f64, 0.0f64);
    for l in lengths {
        sum += l;
        sum2 += l * l;
    }
    let mean = sum / m as f64;
    let var = (sum2 / m as f64 - mean * mean).max(0.0);
    if mean > 0.0 {
        (var.sqrt() / mean) as f32
    } else {
        0.0
    }
}

/// All quality figures; `cosmetic[e]` marks edges that do not count for self-intersection.
///
/// # Runtime
/// One pass of [`count_crossings`] (which also notes the first non-cosmetic crossing) plus O(m)
/// for the lengths.
pub fn measure(
    x: &[f32],
    y: &[f32],
    src: &[u32],
    dst: &[u32],
    cosmetic: Option<&[bool]>,
) -> Quality {
    check_cosmetic(src, cosmetic);
    let (mut crossings, mut self_intersecting) = (0, false);
    let ControlFlow::Continue(()) = for_each_crossing(
        x,
        y,
        src,
        dst,
        |_| true,
        |a, b| {
            crossings += 1;
            self_intersecting |= cosmetic.is_none_or(|c| !c[a] && !c[b]);
            ControlFlow::<Infallible>::Continue(())
        },
    );
    Quality {
        crossings,
        self_intersecting,
        length_cv: length_cv(x, y, src, dst),
    }
}

/// Panics (in debug builds) unless there is one cosmetic flag per edge.
fn check_cosmetic(src: &[u32], cosmetic: Option<&[bool]>) {
    if let Some(c) = cosmetic {
        debug_assert_eq!(c.len(), src.len(), "one cosmetic flag per edge");
    }
}

/// An edge's bounding box in the tree, with the edge's index.
type EdgeBox = GeomWithData<Rectangle<[f32; 2]>, u32>;

/// The end points of edge `e`.
#[inline]
fn segment(x: &[f32], y: &[f32], src: &[u32], dst: &[u32], e: usize) -> ([f32; 2], [f32; 2]) {
    let (a, b) = (src[e] as usize, dst[e] as usize);
    ([x[a], y[a]], [x[b], y[b]])
}

/// Whether edges `a` and `b` share an endpoint (they never count as crossing).
#[inline]
fn share_endpoint(src: &[u32], dst: &[u32], a: usize, b: usize) -> bool {
    let (a0, a1, b0, b1) = (src[a], dst[a], src[b], dst[b]);
    a0 == b0 || a0 == b1 || a1 == b0 || a1 == b1
}

/// Calls `visit(a, b)` once for each crossing pair `a < b` of edges that `keep`, until it breaks;
/// all pairs below [`TREE_FROM`] edges, the R-tree from there.
fn for_each_crossing<B>(
    x: &[f32],
    y: &[f32],
    src: &[u32],
    dst: &[u32],
    keep: impl Fn(usize) -> bool,
    visit: impl FnMut(usize, usize) -> ControlFlow<B>,
) -> ControlFlow<B> {
    debug_assert_eq!(x.len(), y.len(), "one y per x");
    debug_assert_eq!(src.len(), dst.len(), "one dst per src");
    if src.len() < TREE_FROM {
        crossings_sweep(x, y, src, dst, keep, visit)
    } else {
        crossings_tree(x, y, src, dst, keep, visit)
    }
}

/// [`for_each_crossing`] by a sweep over the kept edges' boxes (fewer than [`TREE_FROM`]
/// edges): sorted by their left sides, an edge is tested against the edges after it only while
/// their left side is not past its right side. The pairs met are those whose closed boxes
/// overlap in x, a superset of the pairs that can intersect.
///
/// PERF: the boxes live on the stack (no allocation), and the sweep replaces the all-pairs loop
/// that was most of a small level's crossing count.
fn crossings_sweep<B>(
    x: &[f32],
    y: &[f32],
    src: &[u32],
    dst: &[u32],
    keep: impl Fn(usize) -> bool,
    mut visit: impl FnMut(usize, usize) -> ControlFlow<B>,
) -> ControlFlow<B> {
    // Below TREE_FROM edges (the only ones `for_each_crossing` sends here) the boxes live on
    // the stack; the tests send larger graphs too.
    let mut stack = [([0.0f32; 4], 0u32); TREE_FROM];
    let mut heap = Vec::new();
    let boxes: &mut [([f32; 4], u32)] = if src.len() <= TREE_FROM {
        &mut stack
    } else {
        heap.resize(src.len(), ([0.0f32; 4], 0u32));
        &mut heap
    };
    let mut len = 0;
    for e in (0..src.len()).filter(|&e| keep(e)) {
        let (p, q) = segment(x, y, src, dst, e);
        boxes[len] = (
            [
                p[0].min(q[0]),
                p[1].min(q[1]),
                p[0].max(q[0]),
                p[1].max(q[1]),
            ],
            e as u32,
        );
        len += 1;
    }
    let boxes = &mut boxes[..len];
    boxes.sort_unstable_by(|a, b| a.0[0].total_cmp(&b.0[0]).then(a.1.cmp(&b.1)));
    for (i, &(bi, a)) in boxes.iter().enumerate() {
        let a = a as usize;
        let (p1, p2) = segment(x, y, src, dst, a);
        for &(bj, b) in &boxes[i + 1..] {
            if bj[0] > bi[2] {
                break;
            }
            let b = b as usize;
            if bi[3] < bj[1] || bj[3] < bi[1] || share_endpoint(src, dst, a, b) {
                continue;
            }
            let (q1, q2) = segment(x, y, src, dst, b);
            if segments_intersect(p1, p2, q1, q2) {
                visit(a.min(b), a.max(b))?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// [`for_each_crossing`] through an R-tree of the kept edges' bounding boxes.
fn crossings_tree<B>(
    x: &[f32],
    y: &[f32],
    src: &[u32],
    dst: &[u32],
    keep: impl Fn(usize) -> bool,
    mut visit: impl FnMut(usize, usize) -> ControlFlow<B>,
) -> ControlFlow<B> {
    debug_assert!(u32::try_from(src.len()).is_ok(), "edge ids fit in u32");
    // PERF: bulk loading packs the tree in O(m log m), tighter and faster than m inserts.
    let tree = crate::core::alloc::listed(crate::core::alloc::RSTAR, || {
        let boxes: Vec<EdgeBox> = (0..src.len())
            .filter(|&e| keep(e))
            .map(|e| {
                let (p, q) = segment(x, y, src, dst, e);
                GeomWithData::new(Rectangle::from_corners(p, q), e as u32)
            })
            .collect();
        RTree::bulk_load(boxes)
    });
    for a in (0..src.len()).filter(|&a| keep(a)) {
        let (p1, p2) = segment(x, y, src, dst, a);
        // PERF: the hot loop. Internal iteration allocates nothing per query; each overlapping
        // pair is met twice, so the partner with the lower index is dropped before anything
        // else, then pairs sharing an endpoint (integer compares) before the coordinate gather
        // and the exact test.
        tree.locate_in_envelope_intersecting_int(AABB::from_corners(p1, p2), |item| {
            let b = item.data as usize;
            if b <= a || share_endpoint(src, dst, a, b) {
                return ControlFlow::Continue(());
            }
            let (q1, q2) = segment(x, y, src, dst, b);
            if segments_intersect(p1, p2, q1, q2) {
                visit(a, b)
            } else {
                ControlFlow::Continue(())
            }
        })?;
    }
    ControlFlow::Continue(())
}

/// Edge count from which [`crossings_auto`] estimates crossings from a sample of edges instead
/// of counting them all (a drawing of 10^5 edges that is still a hairball has tens of millions
/// of crossings, and counting them took most of a `warren layout` run).
pub const SAMPLE_CROSSINGS_FROM: usize = 150_000;

/// Most edges sampled by [`crossings_auto`] past [`SAMPLE_CROSSINGS_FROM`].
pub const CROSSING_SAMPLE: usize = 50_000;

/// Crossings met after which [`crossings_auto`] samples no more edges (measured: 50,000 sampled
/// edges of a 100,000-vertex preferential-attachment drawing, 780 million crossings, took 66 s;
/// the first 20,000 crossings are met within a few batches).
pub const CROSSING_HITS: u64 = 20_000;

/// A crossing count, exact or estimated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crossings {
    /// Crossing pairs (an estimate, rounded, when `sampled`).
    pub count: u64,
    /// Whether `count` is estimated from a sample of edges.
    pub sampled: bool,
}

/// Crossings counted exactly ([`count_crossings`]) below [`SAMPLE_CROSSINGS_FROM`] edges, and
/// estimated from at most [`CROSSING_SAMPLE`] edges drawn from `seed` from there, fewer once
/// [`CROSSING_HITS`] crossings are met ([`estimate_crossings`]).
pub fn crossings_auto(x: &[f32], y: &[f32], src: &[u32], dst: &[u32], seed: u64) -> Crossings {
    if src.len() < SAMPLE_CROSSINGS_FROM {
        return Crossings {
            count: count_crossings(x, y, src, dst),
            sampled: false,
        };
    }
    Crossings {
        count: estimate_crossings(x, y, src, dst, CROSSING_SAMPLE, CROSSING_HITS, seed).round()
            as u64,
        sampled: true,
    }
}

/// An estimate of the crossing pairs from a sample of edges: the edges are taken in an order
/// drawn from `seed` (a uniform random permutation), 1,024 at a time, until `sample` edges are
/// taken or their crossings reach `hits`; every crossing of a taken edge with any other edge is
/// counted, and the estimate is `hits * m / (2 taken)` (a crossing pair is met from either
/// edge). Exact when every edge is taken. The `hits` bound keeps a dense drawing from costing
/// more than a sparse one: an edge of a hairball crosses thousands of others, and a few thousand
/// edges already estimate the total to within a percent or two.
///
/// # Runtime
/// O(m log m) for the order and the R-tree of all edges, plus one query per taken edge, on
/// rayon's threads (integer sums per batch: the figure does not depend on the thread count).
pub fn estimate_crossings(
    x: &[f32],
    y: &[f32],
    src: &[u32],
    dst: &[u32],
    sample: usize,
    hits: u64,
    seed: u64,
) -> f64 {
    use rayon::prelude::*;
    let m = src.len();
    if m == 0 || sample == 0 {
        return 0.0;
    }
    let mut order: Vec<(u64, u32)> = (0..m as u32)
        .map(|e| (crate::core::rng::mix(seed, u64::from(e)), e))
        .collect();
    order.sort_unstable();
    let tree = crate::core::alloc::listed(crate::core::alloc::RSTAR, || {
        let boxes: Vec<EdgeBox> = (0..m)
            .map(|e| {
                let (a, b) = segment(x, y, src, dst, e);
                GeomWithData::new(Rectangle::from_corners(a, b), e as u32)
            })
            .collect();
        RTree::bulk_load(boxes)
    });
    let crossings_of = |a: usize| {
        let (p1, p2) = segment(x, y, src, dst, a);
        let mut count = 0u64;
        let ControlFlow::Continue(()) =
            tree.locate_in_envelope_intersecting_int(AABB::from_corners(p1, p2), |item| {
                let b = item.data as usize;
                if b != a && !share_endpoint(src, dst, a, b) {
                    let (q1, q2) = segment(x, y, src, dst, b);
                    count += u64::from(segments_intersect(p1, p2, q1, q2));
                }
                ControlFlow::<Infallible>::Continue(())
            });
        count
    };
    let (mut met, mut taken) = (0u64, 0usize);
    for batch in order[..sample.min(m)].chunks(1024) {
        met += batch
            .par_iter()
            .map(|&(_, e)| crossings_of(e as usize))
            .sum::<u64>();
        taken += batch.len();
        if met >= hits {
            break;
        }
    }
    met as f64 * m as f64 / (2.0 * taken as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::WarrenRng;

    /// Positions and edges `src`-`dst`.
    struct Graph {
        x: Vec<f32>,
        y: Vec<f32>,
        src: Vec<u32>,
        dst: Vec<u32>,
    }

    impl Graph {
        /// A graph from its vertex positions and edges.
        fn new(points: &[[f32; 2]], edges: &[[u32; 2]]) -> Self {
            Self {
                x: points.iter().map(|p| p[0]).collect(),
                y: points.iter().map(|p| p[1]).collect(),
                src: edges.iter().map(|e| e[0]).collect(),
                dst: edges.iter().map(|e| e[1]).collect(),
            }
        }

        fn brute(&self) -> u64 {
            crossings_brute(&self.x, &self.y, &self.src, &self.dst)
        }

        fn fast(&self) -> u64 {
            count_crossings(&self.x, &self.y, &self.src, &self.dst)
        }

        /// Crossings found through the tree, whatever the edge count.
        fn tree(&self) -> u64 {
            self.count_with(true)
        }

        /// Crossings found by the sweep, whatever the edge count.
        fn sweep(&self) -> u64 {
            self.count_with(false)
        }

        /// Counts the crossings one of the two search paths reports.
        fn count_with(&self, tree: bool) -> u64 {
            let mut count = 0;
            let found = |_: usize, _: usize| {
                count += 1;
                ControlFlow::<Infallible>::Continue(())
            };
            let (x, y, src, dst) = (&self.x, &self.y, &self.src, &self.dst);
            let ControlFlow::Continue(()) = if tree {
                crossings_tree(x, y, src, dst, |_| true, found)
            } else {
                crossings_sweep(x, y, src, dst, |_| true, found)
            };
            count
        }

        fn self_intersecting(&self, cosmetic: Option<&[bool]>) -> bool {
            self_intersecting(&self.x, &self.y, &self.src, &self.dst, cosmetic)
        }

        /// Whether two non-cosmetic edges cross, by checking every pair.
        fn self_intersecting_brute(&self, cosmetic: Option<&[bool]>) -> bool {
            let m = self.src.len();
            let counts = |e: usize| cosmetic.is_none_or(|c| !c[e]);
            let point = |v: u32| [self.x[v as usize], self.y[v as usize]];
            (0..m).filter(|&a| counts(a)).any(|a| {
                let (a0, a1) = (self.src[a], self.dst[a]);
                (a + 1..m).filter(|&b| counts(b)).any(|b| {
                    let (b0, b1) = (self.src[b], self.dst[b]);
                    let shared = a0 == b0 || a0 == b1 || a1 == b0 || a1 == b1;
                    !shared && segments_intersect(point(a0), point(a1), point(b0), point(b1))
                })
            })
        }
    }

    /// A random graph of `n` vertices and `m` edges. With `lattice` the vertices sit on the
    /// integer points of a 5 x 5 square, so collinear overlaps, touches inside an edge and
    /// distinct vertices at one position are common; otherwise they spread over a square of side
    /// 10. Endpoints drawn alike give zero-length edges, and one edge in eight repeats an earlier
    /// one (reversed half the time).
    fn random_graph(seed: u64, n: u32, m: usize, lattice: bool) -> Graph {
        let mut rng = WarrenRng::new(seed);
        let coordinate = |rng: &mut WarrenRng| {
            if lattice {
                rng.below(5) as f32
            } else {
                rng.unit_f32() * 10.0
            }
        };
        let points: Vec<[f32; 2]> = (0..n)
            .map(|_| [coordinate(&mut rng), coordinate(&mut rng)])
            .collect();
        let mut edges: Vec<[u32; 2]> = Vec::with_capacity(m);
        for e in 0..m {
            let [a, b] = if e > 0 && rng.below(8) == 0 {
                edges[rng.below(e as u32) as usize]
            } else {
                [rng.below(n), rng.below(n)]
            };
            edges.push(if rng.below(2) == 0 { [a, b] } else { [b, a] });
        }
        Graph::new(&points, &edges)
    }

    /// Edge counts from empty to a few hundred, on both sides of [`TREE_FROM`].
    const SIZES: [usize; 12] = [0, 1, 2, 3, 5, 8, 20, 63, 64, 65, 150, 400];

    /// Random graphs of every size in [`SIZES`], spread out and on the lattice, with few vertices
    /// (many shared endpoints, duplicates and zero-length edges) and with many.
    fn random_graphs() -> impl Iterator<Item = (String, Graph)> {
        SIZES.into_iter().flat_map(|m| {
            (0..6u64).flat_map(move |seed| {
                [false, true].into_iter().map(move |lattice| {
                    let n = 1 + (m as u32 / (1 + seed as u32 % 3)).min(300);
                    let what = format!("m {m}, n {n}, seed {seed}, lattice {lattice}");
                    (what, random_graph(seed * 1000 + m as u64, n, m, lattice))
                })
            })
        })
    }

    #[test]
    fn fast_count_equals_brute_force_on_random_graphs() {
        let (mut crossed, mut clean) = (0, 0);
        for (what, g) in random_graphs() {
            let brute = g.brute();
            assert_eq!(g.fast(), brute, "{what}");
            assert_eq!(g.tree(), brute, "tree path, {what}");
            assert_eq!(g.sweep(), brute, "sweep path, {what}");
            if brute > 0 {
                crossed += 1;
            } else {
                clean += 1;
            }
        }
        // Neither kind of case may be missing, or the comparison proves little.
        assert!(
            crossed > 50 && clean > 20,
            "{crossed} crossed, {clean} clean"
        );
    }

    #[test]
    fn edges_sharing_an_endpoint_never_cross() {
        // A star, a fan of collinear edges from one vertex, and a duplicated edge both ways.
        let points = [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [0.0, 1.0], [1.0, 1.0]];
        let edges = [[0, 1], [0, 2], [0, 3], [0, 4], [3, 4], [4, 3], [3, 4]];
        let g = Graph::new(&points, &edges);
        assert_eq!((g.brute(), g.tree(), g.sweep()), (0, 0, 0));
    }

    #[test]
    fn touching_and_overlapping_edges_cross() {
        let points = [
            [0.0, 0.0], // 0
            [2.0, 0.0], // 1
            [1.0, 0.0], // 2: on 0-1's interior
            [1.0, 1.0], // 3
            [3.0, 0.0], // 4
            [2.0, 0.0], // 5: the same place as 1, another vertex
            [2.0, 2.0], // 6
        ];
        // 0-1 is touched by 2-3 (a T), overlapped by 2-4 (collinear), met by a zero-length edge
        // 2-2 inside it and by 5-6 at its end point; 2-3, 2-4 and 2-2 share vertex 2; 5-6 touches
        // 2-4 at 5 and crosses nothing else.
        let edges = [[0, 1], [2, 3], [2, 4], [2, 2], [5, 6]];
        let g = Graph::new(&points, &edges);
        assert_eq!((g.brute(), g.tree(), g.sweep()), (5, 5, 5));
        assert!(g.self_intersecting(None));
    }

    #[test]
    fn zero_length_edges_cross_where_they_sit() {
        // Two distinct vertices at one place, each with a self-loop, and a point off any edge.
        let points = [[1.0, 1.0], [1.0, 1.0], [0.0, 0.0], [2.0, 2.0], [5.0, 5.0]];
        let edges = [[0, 0], [1, 1], [2, 3], [4, 4]];
        let g = Graph::new(&points, &edges);
        // 0-0 and 1-1 meet each other and the diagonal 2-3; 4-4 meets nothing.
        assert_eq!((g.brute(), g.tree(), g.sweep()), (3, 3, 3));
    }

    #[test]
    fn a_spread_out_grid_has_no_crossings_until_diagonals_cross() {
        // A 20 x 20 lattice with right and down edges (760 edges, the tree path), then both
        // diagonals of the first cell.
        let side = 20u32;
        let points: Vec<[f32; 2]> = (0..side * side)
            .map(|v| [(v % side) as f32, (v / side) as f32])
            .collect();
        let mut edges = Vec::new();
        for v in 0..side * side {
            if v % side + 1 < side {
                edges.push([v, v + 1]);
            }
            if v / side + 1 < side {
                edges.push([v, v + side]);
            }
        }
        assert_eq!(Graph::new(&points, &edges).fast(), 0);
        edges.extend([[0, side + 1], [1, side]]);
        // The diagonals cross each other; each shares endpoints with all the cell's sides.
        assert_eq!(Graph::new(&points, &edges).fast(), 1);
    }

    #[test]
    fn self_intersecting_agrees_with_brute_force() {
        let (mut yes, mut no) = (0, 0);
        for (seed, (what, g)) in random_graphs().enumerate() {
            let m = g.src.len();
            let mut rng = WarrenRng::new(seed as u64);
            let some: Vec<bool> = (0..m).map(|_| rng.below(3) == 0).collect();
            let most: Vec<bool> = (0..m).map(|_| rng.below(4) != 0).collect();
            let flags = [vec![false; m], some, most, vec![true; m]];
            let cosmetic = std::iter::once(None).chain(flags.iter().map(|f| Some(&f[..])));
            for c in cosmetic {
                let expected = g.self_intersecting_brute(c);
                assert_eq!(g.self_intersecting(c), expected, "{what}, cosmetic {c:?}");
                let q = measure(&g.x, &g.y, &g.src, &g.dst, c);
                assert_eq!(
                    q.self_intersecting, expected,
                    "measure, {what}, cosmetic {c:?}"
                );
                if expected {
                    yes += 1;
                } else {
                    no += 1;
                }
            }
        }
        assert!(yes > 50 && no > 50, "{yes} self-intersecting, {no} not");
    }

    #[test]
    fn cosmetic_edges_do_not_make_a_layout_self_intersecting() {
        // An X of two edges, then a third edge crossing one of them.
        let points = [
            [0.0, 0.0],
            [2.0, 2.0],
            [0.0, 2.0],
            [2.0, 0.0],
            [1.5, 0.0],
            [1.5, 3.0],
        ];
        let g = Graph::new(&points, &[[0, 1], [2, 3], [4, 5]]);
        assert_eq!(g.brute(), 3);
        assert!(g.self_intersecting(None));
        assert!(g.self_intersecting(Some(&[false, false, true])));
        assert!(g.self_intersecting(Some(&[true, false, false])));
        let q = measure(&g.x, &g.y, &g.src, &g.dst, Some(&[false, true, true]));
        assert_eq!((q.crossings, q.self_intersecting), (3, false));
    }

    #[test]
    fn measure_counts_with_the_fast_path() {
        let g = random_graph(7, 150, 400, false);
        let q = measure(&g.x, &g.y, &g.src, &g.dst, None);
        assert_eq!(q.crossings, g.brute());
        assert_eq!(q.self_intersecting, q.crossings > 0);
        assert_eq!(q.length_cv, length_cv(&g.x, &g.y, &g.src, &g.dst));
    }

    #[test]
    fn length_cv_of_lengths_one_and_three_is_one_half() {
        let points = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 4.0]];
        let g = Graph::new(&points, &[[0, 1], [2, 3]]);
        let cv = length_cv(&g.x, &g.y, &g.src, &g.dst);
        assert!((cv - 0.5).abs() < 1e-6, "{cv}");
        let equal = Graph::new(&points, &[[0, 1], [0, 2]]);
        assert_eq!(length_cv(&equal.x, &equal.y, &equal.src, &equal.dst), 0.0);
        assert_eq!(length_cv(&[], &[], &[], &[]), 0.0);
        // Weighted 1 and 3, the lengths 1 and 3 are all at one scale; lengths 1 and 1 are not.
        let at_weights = length_cv_weighted(&g.x, &g.y, &g.src, &g.dst, Some(&[1.0, 3.0]));
        assert!(at_weights < 1e-6, "{at_weights}");
        let w = [1.0, 1.0 / 3.0];
        let cv = length_cv_weighted(&g.x, &g.y, &g.src, &g.dst, Some(&w));
        assert!((cv - 0.8).abs() < 1e-6, "{cv}");
    }

    #[test]
    fn the_crossing_estimate_is_exact_when_every_edge_is_drawn_and_close_on_a_sample() {
        let mut rng = WarrenRng::new(11);
        let n = 400;
        let x: Vec<f32> = (0..n).map(|_| rng.unit_f32() * 20.0).collect();
        let y: Vec<f32> = (0..n).map(|_| rng.unit_f32() * 20.0).collect();
        let src: Vec<u32> = (0..3000).map(|_| rng.below(n as u32)).collect();
        let dst: Vec<u32> = src
            .iter()
            .map(|&a| (a + 1 + rng.below(5)) % n as u32)
            .collect();
        let exact = count_crossings(&x, &y, &src, &dst) as f64;
        assert_eq!(
            estimate_crossings(&x, &y, &src, &dst, 3000, u64::MAX, 1),
            exact
        );
        let est = estimate_crossings(&x, &y, &src, &dst, 1000, u64::MAX, 1);
        assert!((est - exact).abs() < 0.1 * exact, "{est} against {exact}");
        // Stopping at a number of crossings met still estimates the total.
        let early = estimate_crossings(&x, &y, &src, &dst, 3000, 2000, 1);
        assert!(
            (early - exact).abs() < 0.1 * exact,
            "{early} against {exact}"
        );
    }
}
