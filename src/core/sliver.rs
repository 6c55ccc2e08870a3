//! Sliver edges: straight edges that pass closer to a vertex they do not join than a clearance,
//! so that on screen the edge reads as going through that vertex (seed 002's coloring puzzles
//! must be readable; seed 001's Delaunay mazes draw such edges as corridors overlapping a room).
//! A Delaunay triangulation of jittered points has them where three points are nearly
//! collinear, mostly along the hull.
//!
//! [`drop_slivers`] removes them from a planar edge set while keeping it connected (a sliver is
//! kept only where no other way joins its ends' parts, which the callers count and report);
//! [`slivers_brute`] is its oracle. Removing edges keeps a planar drawing planar.

use crate::core::sets::UnionFind;

/// Distance from point `c` to segment `a b`.
#[inline]
pub fn point_segment_distance(c: [f32; 2], a: [f32; 2], b: [f32; 2]) -> f32 {
    crate::core::geom::point_segment2(c, a, b).sqrt()
}

/// Reusable memory of [`drop_slivers`].
#[derive(Default)]
pub struct SliverScratch {
    /// Vertices by bucket (counting sort), and each bucket's start.
    by_bucket: Vec<u32>,
    start: Vec<u32>,
    fill: Vec<u32>,
    /// Per edge: its clearance when it is a sliver, else infinity.
    clearance: Vec<f32>,
    order: Vec<u32>,
    uf: UnionFind,
}

/// The least distance from edge `(a, b)` to a vertex other than its ends, if below `gap`.
fn sliver_clearance(
    x: &[f32],
    y: &[f32],
    a: u32,
    b: u32,
    gap: f32,
    near: impl Iterator<Item = u32>,
) -> Option<f32> {
    let p = |v: u32| [x[v as usize], y[v as usize]];
    let mut least = gap;
    for c in near {
        if c != a && c != b {
            least = least.min(point_segment_distance(p(c), p(a), p(b)));
        }
    }
    (least < gap).then_some(least)
}

/// Keeps the edges of `pairs` that pass at least `gap` from every vertex they do not join, in
/// their order, into `out`; a sliver is kept as well where the others leave its ends apart
/// (the most clearance first). Returns the slivers kept that way. `bucket` is the side of the
/// cells the vertices are sorted into (about their spacing; any positive value is correct).
///
/// # Runtime
/// O(V + E k) for `k` vertices in the cells an edge's box meets (a few on a jittered grid),
/// plus a union-find pass over the edges. No allocation once `s` has grown.
#[allow(clippy::too_many_arguments)]
pub fn drop_slivers(
    x: &[f32],
    y: &[f32],
    pairs: &[(u32, u32)],
    gap: f32,
    bucket: f32,
    s: &mut SliverScratch,
    out: &mut Vec<(u32, u32)>,
) -> u32 {
    out.clear();
    let n = x.len();
    if n == 0 || bucket.is_nan() || bucket <= 0.0 {
        out.extend_from_slice(pairs);
        return 0;
    }
    let (x0, y0) = (
        x.iter().copied().fold(f32::INFINITY, f32::min),
        y.iter().copied().fold(f32::INFINITY, f32::min),
    );
    let (x1, y1) = (
        x.iter().copied().fold(f32::NEG_INFINITY, f32::max),
        y.iter().copied().fold(f32::NEG_INFINITY, f32::max),
    );
    let cols = (((x1 - x0) / bucket) as usize + 1).min(1 << 12);
    let rows = (((y1 - y0) / bucket) as usize + 1).min(1 << 12);
    let cell_of = |px: f32, py: f32| {
        let cx = (((px - x0) / bucket).max(0.0) as usize).min(cols - 1);
        let cy = (((py - y0) / bucket).max(0.0) as usize).min(rows - 1);
        (cx, cy)
    };
    // PERF: a counting sort of the vertices into cells, so an edge meets only the vertices
    // of the cells its box (grown by the gap) covers.
    s.start.clear();
    s.start.resize(cols * rows + 1, 0);
    for v in 0..n {
        let (cx, cy) = cell_of(x[v], y[v]);
        s.start[cy * cols + cx + 1] += 1;
    }
    for i in 1..s.start.len() {
        s.start[i] += s.start[i - 1];
    }
    s.by_bucket.clear();
    s.by_bucket.resize(n, 0);
    s.fill.clear();
    s.fill.extend_from_slice(&s.start);
    for v in 0..n {
        let (cx, cy) = cell_of(x[v], y[v]);
        let slot = &mut s.fill[cy * cols + cx];
        s.by_bucket[*slot as usize] = v as u32;
        *slot += 1;
    }
    s.clearance.clear();
    for &(a, b) in pairs {
        let (a_, b_) = (a as usize, b as usize);
        let (lo_x, lo_y) = cell_of(x[a_].min(x[b_]) - gap, y[a_].min(y[b_]) - gap);
        let (hi_x, hi_y) = cell_of(x[a_].max(x[b_]) + gap, y[a_].max(y[b_]) + gap);
        let (start, by_bucket) = (&s.start, &s.by_bucket);
        let near = (lo_y..=hi_y).flat_map(move |cy| {
            let row = cy * cols;
            by_bucket[start[row + lo_x] as usize..start[row + hi_x + 1] as usize]
                .iter()
                .copied()
        });
        let c = sliver_clearance(x, y, a, b, gap, near);
        s.clearance.push(c.unwrap_or(f32::INFINITY));
    }
    // Connectivity: the clear edges first, then the slivers the most clear first, each only
    // where it joins two parts.
    s.uf.reset(n);
    s.order.clear();
    for (e, &(a, b)) in pairs.iter().enumerate() {
        if s.clearance[e].is_infinite() {
            s.uf.union(a, b);
        } else {
            s.order.push(e as u32);
        }
    }
    let clearance = &s.clearance;
    s.order.sort_by(|&i, &j| {
        clearance[j as usize]
            .total_cmp(&clearance[i as usize])
            .then(i.cmp(&j))
    });
    let mut kept = 0;
    for &e in &s.order {
        let (a, b) = pairs[e as usize];
        if s.uf.union(a, b) {
            s.clearance[e as usize] = f32::INFINITY;
            kept += 1;
        }
    }
    out.extend(
        pairs
            .iter()
            .zip(&s.clearance)
            .filter(|(_, c)| c.is_infinite())
            .map(|(&p, _)| p),
    );
    kept
}

/// The indices of the edges of `pairs` that pass closer than `gap` to a vertex they do not
/// join, checking every vertex (the oracle of [`drop_slivers`], and `verify`'s check).
///
/// # Runtime
/// O(E V).
pub fn slivers_brute(x: &[f32], y: &[f32], pairs: &[(u32, u32)], gap: f32) -> Vec<usize> {
    pairs
        .iter()
        .enumerate()
        .filter(|&(_, &(a, b))| sliver_clearance(x, y, a, b, gap, 0..x.len() as u32).is_some())
        .map(|(e, _)| e)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::WarrenRng;

    #[test]
    fn a_flat_triangle_loses_its_long_edge() {
        // 0 and 2 are joined past 1, which lies 0.05 from their edge.
        let (x, y) = ([0.0, 1.0, 2.0, 1.0], [0.0, 0.05, 0.0, 1.0]);
        let pairs = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
        let mut out = Vec::new();
        let kept = drop_slivers(
            &x,
            &y,
            &pairs,
            0.25,
            1.0,
            &mut SliverScratch::default(),
            &mut out,
        );
        assert_eq!(kept, 0);
        assert_eq!(out, vec![(0, 1), (0, 3), (1, 2), (1, 3), (2, 3)]);
        assert_eq!(slivers_brute(&x, &y, &pairs, 0.25), vec![1]);
    }

    #[test]
    fn a_sliver_that_alone_joins_its_ends_is_kept_and_counted() {
        // A path 0 - 2 whose one edge passes near vertex 1, which hangs off 0.
        let (x, y) = ([0.0, 1.0, 2.0], [0.0, 0.05, 0.0]);
        let pairs = [(0, 1), (0, 2)];
        let mut out = Vec::new();
        let kept = drop_slivers(
            &x,
            &y,
            &pairs,
            0.25,
            1.0,
            &mut SliverScratch::default(),
            &mut out,
        );
        assert_eq!((kept, out), (1, vec![(0, 1), (0, 2)]));
    }

    /// The bucketed search finds exactly the slivers the brute force does, on Delaunay
    /// triangulations of jittered grids (where slivers appear along the hull).
    #[test]
    fn buckets_agree_with_the_brute_force() {
        let bump = bumpalo::Bump::new();
        let mut s = SliverScratch::default();
        let mut out = Vec::new();
        let mut found = 0;
        for seed in 0..40 {
            let mut rng = WarrenRng::new(seed);
            let (w, h) = (3 + seed as u32 % 9, 2 + seed as u32 % 7);
            let (mut x, mut y) = (Vec::new(), Vec::new());
            for gy in 0..h {
                for gx in 0..w {
                    x.push(gx as f32 + 0.5 + 0.8 * (rng.unit_f32() - 0.5));
                    y.push(gy as f32 + 0.5 + 0.8 * (rng.unit_f32() - 0.5));
                }
            }
            let pairs = crate::core::delaunay::delaunay_pairs(&x, &y, &bump).unwrap();
            for gap in [0.1f32, 0.25, 0.4] {
                let slivers = slivers_brute(&x, &y, pairs, gap);
                found += slivers.len();
                let kept = drop_slivers(&x, &y, pairs, gap, 1.0, &mut s, &mut out);
                let expected: Vec<(u32, u32)> = pairs
                    .iter()
                    .enumerate()
                    .filter(|(e, _)| slivers.binary_search(e).is_err())
                    .map(|(_, &p)| p)
                    .collect();
                if kept == 0 {
                    assert_eq!(out, expected, "seed {seed}, gap {gap}");
                } else {
                    assert_eq!(out.len(), expected.len() + kept as usize);
                }
                let mut uf = UnionFind::default();
                uf.reset(x.len());
                let joins = out.iter().filter(|&&(a, b)| uf.union(a, b)).count();
                assert_eq!(joins, x.len() - 1, "seed {seed}: still connected");
            }
        }
        assert!(
            found > 0,
            "no sliver in any triangulation: the test tests nothing"
        );
    }
}
