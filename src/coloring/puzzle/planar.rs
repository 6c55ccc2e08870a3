//! Planar puzzle graphs: the Delaunay triangulation (the core module's
//! [`delaunay_pairs`](crate::core::delaunay::delaunay_pairs())) of a jittered grid of points at integer
//! pixel positions, without its slivers (edges passing closer than [`SLIVER_GAP`] spacings to a
//! vertex they do not join, which a player reads as going through it), thinned to a share of
//! its edges.
//!
//! Points sit at whole pixels, the coordinates the level file stores, so the stored level
//! re-triangulates to the same graph. Any subgraph of a triangulation is planar and drawn without
//! crossings at these positions, which is what makes a coloring puzzle readable on screen.

use bumpalo::Bump;

use crate::coloring::config::ColoringConfig;
use crate::core::delaunay::{PhysicalError, delaunay_pairs};
use crate::core::rng::WarrenRng;
use crate::core::sets::UnionFind;
use crate::core::sliver::{SliverScratch, drop_slivers};

/// Margin in pixels around the grid.
pub const MARGIN: u32 = 100;

/// The least distance, in point spacings, between an edge of a puzzle graph and a vertex it
/// does not join (22 px at the default 90 px spacing; the game draws vertices as discs a
/// little smaller than that).
pub const SLIVER_GAP: f32 = 0.25;

/// A puzzle graph could not be drawn over its points.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum PlanarError {
    /// The points cannot be triangulated (some coincide, or a coordinate is unusable).
    #[error(transparent)]
    Points(#[from] PhysicalError),
    /// Edges passing a vertex closer than the sliver gap are the only ones joining parts of the
    /// graph (nearly collinear points).
    #[error("{kept} edge(s) passing a vertex by less than {gap} px alone join parts of the graph")]
    Slivers {
        /// The sliver edges that would have to stay.
        kept: u32,
        /// The least distance allowed, in pixels.
        gap: f32,
    },
}

/// A puzzle graph: integer positions and edges `(a, b)` with `a < b`, sorted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlanarGraph {
    /// Vertex x in pixels.
    pub x: Vec<i32>,
    /// Vertex y in pixels.
    pub y: Vec<i32>,
    /// Edges, sorted.
    pub edges: Vec<(u32, u32)>,
}

impl PlanarGraph {
    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.x.len()
    }
}

/// Reusable memory for drawing graphs.
#[derive(Default)]
pub struct PlanarScratch {
    bump: Bump,
    px: Vec<f32>,
    py: Vec<f32>,
    order: Vec<(u32, u32)>,
    uf: UnionFind,
    slivers: SliverScratch,
}

/// The jittered points of `cfg` in `g` (edges cleared).
pub fn jittered_points(cfg: &ColoringConfig, rng: &mut WarrenRng, g: &mut PlanarGraph) {
    g.x.clear();
    g.y.clear();
    g.edges.clear();
    let s = cfg.spacing as f64;
    for gy in 0..cfg.height {
        for gx in 0..cfg.width {
            let jx = cfg.jitter * (rng.unit_f64() - 0.5);
            let jy = cfg.jitter * (rng.unit_f64() - 0.5);
            g.x.push((f64::from(MARGIN) + (f64::from(gx) + 0.5 + jx) * s).round() as i32);
            g.y.push((f64::from(MARGIN) + (f64::from(gy) + 0.5 + jy) * s).round() as i32);
        }
    }
}

/// The Delaunay edges of `g`'s points that are not slivers under `spacing` (see the module
/// doc) into `out` (sorted `(min, max)` pairs).
///
/// # Errors
/// When points coincide, or when a sliver alone would join two parts of the graph (nearly
/// collinear points: the attempt is given up).
pub fn triangulate(
    g: &PlanarGraph,
    spacing: u32,
    s: &mut PlanarScratch,
    out: &mut Vec<(u32, u32)>,
) -> Result<(), PlanarError> {
    s.bump.reset();
    s.px.clear();
    s.px.extend(g.x.iter().map(|&v| v as f32));
    s.py.clear();
    s.py.extend(g.y.iter().map(|&v| v as f32));
    let pairs = delaunay_pairs(&s.px, &s.py, &s.bump)?;
    let spacing = spacing as f32;
    let gap = SLIVER_GAP * spacing;
    let kept = drop_slivers(&s.px, &s.py, pairs, gap, spacing, &mut s.slivers, out);
    if kept > 0 {
        return Err(PlanarError::Slivers { kept, gap });
    }
    Ok(())
}

/// A connected planar graph: the triangulation's edges, a random spanning tree always kept,
/// every other edge kept with probability `cfg.keep`.
///
/// # Runtime
/// O(V log V) for the triangulation, O(E) after it; spade allocates its triangulation.
///
/// # Errors
/// [`triangulate`]'s.
pub fn connected_graph(
    cfg: &ColoringConfig,
    rng: &mut WarrenRng,
    g: &mut PlanarGraph,
    s: &mut PlanarScratch,
) -> Result<(), PlanarError> {
    jittered_points(cfg, rng, g);
    let mut all = std::mem::take(&mut s.order);
    let result = triangulate(g, cfg.spacing, s, &mut all);
    if result.is_ok() {
        rng.shuffle(&mut all);
        s.uf.reset(g.vertex_count());
        for &(a, b) in &all {
            // NOTE: the union must run for every edge (tree edges are those that join sets);
            // the coin is drawn only for the others, so `keep = 1` keeps the triangulation.
            if s.uf.union(a, b) || rng.chance(cfg.keep) {
                g.edges.push((a, b));
            }
        }
        g.edges.sort_unstable();
    }
    s.order = all;
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::planar::is_planar;

    #[test]
    fn graphs_are_connected_planar_and_thinned() {
        let mut s = PlanarScratch::default();
        let mut g = PlanarGraph::default();
        for seed in 0..20 {
            let cfg = ColoringConfig {
                keep: 0.5,
                ..ColoringConfig::default()
            };
            connected_graph(&cfg, &mut WarrenRng::new(seed), &mut g, &mut s).unwrap();
            let n = g.vertex_count();
            assert_eq!(n, 30);
            let (src, dst): (Vec<u32>, Vec<u32>) = g.edges.iter().copied().unzip();
            assert!(is_planar(n, &src, &dst));
            let mut uf = UnionFind::default();
            uf.reset(n);
            let joins = g.edges.iter().filter(|&&(a, b)| uf.union(a, b)).count();
            assert_eq!(joins, n - 1, "seed {seed}: connected");
            let mut all = Vec::new();
            triangulate(&g, cfg.spacing, &mut s, &mut all).unwrap();
            assert!(g.edges.len() < all.len(), "seed {seed}: thinned");
            assert!(g.edges.iter().all(|e| all.binary_search(e).is_ok()));
        }
    }

    #[test]
    fn points_that_cannot_be_triangulated_are_typed_errors() {
        let mut s = PlanarScratch::default();
        let g = PlanarGraph {
            x: vec![100, 190, 100],
            y: vec![100, 100, 100],
            edges: Vec::new(),
        };
        let e = triangulate(&g, 90, &mut s, &mut Vec::new()).unwrap_err();
        assert_eq!(e, PlanarError::Points(PhysicalError::Coincident(1)));
        assert_eq!(e.to_string(), "1 points coincide");
        let slivers = PlanarError::Slivers { kept: 2, gap: 22.5 };
        assert_eq!(
            slivers.to_string(),
            "2 edge(s) passing a vertex by less than 22.5 px alone join parts of the graph"
        );
    }
}
