//! The Delaunay triangulation of a point set, as the sorted edge list the generators build on:
//! seed 001's irregular mazes (`maze::physical`) and seed 002's planar puzzle graphs
//! (`coloring::puzzle::planar`) both start from it. spade computes the triangulation.

use bumpalo::Bump;
use spade::{DelaunayTriangulation, Point2, Triangulation};

/// The physical graph of a Delaunay maze (or any point set's triangulation) could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PhysicalError {
    /// The triangulation rejects a point (a coordinate too small, too large or NaN).
    #[error("{0:?}")]
    Triangulation(spade::InsertionError),
    /// Points coincide: the triangulation holds this many fewer vertices than there are points.
    #[error("{0} points coincide")]
    Coincident(usize),
}

/// The Delaunay edges of the points as sorted `(min, max)` pairs, allocated in `bump`.
///
/// # Errors
/// When spade rejects a point ([`PhysicalError::Triangulation`]) or points coincide
/// ([`PhysicalError::Coincident`]).
pub fn delaunay_pairs<'b>(
    x: &[f32],
    y: &[f32],
    bump: &'b Bump,
) -> Result<&'b [(u32, u32)], PhysicalError> {
    let points: Vec<Point2<f64>> = x
        .iter()
        .zip(y)
        .map(|(&px, &py)| Point2::new(f64::from(px), f64::from(py)))
        .collect();
    let tri = DelaunayTriangulation::<Point2<f64>>::bulk_load_stable(points)
        .map_err(PhysicalError::Triangulation)?;
    if tri.num_vertices() != x.len() {
        return Err(PhysicalError::Coincident(x.len() - tri.num_vertices()));
    }
    let pairs = bump.alloc_slice_fill_copy(tri.num_undirected_edges(), (0u32, 0u32));
    for (slot, edge) in pairs.iter_mut().zip(tri.undirected_edges()) {
        let [a, b] = edge.vertices();
        let (a, b) = (a.fix().index() as u32, b.fix().index() as u32);
        *slot = (a.min(b), a.max(b));
    }
    pairs.sort_unstable();
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coincident_points_are_a_typed_error() {
        let bump = Bump::new();
        let e = delaunay_pairs(&[0.5, 2.0, 0.5, 1.0], &[0.5, 0.0, 0.5, 3.0], &bump).unwrap_err();
        assert_eq!(e, PhysicalError::Coincident(1));
        assert_eq!(e.to_string(), "1 points coincide");
    }
}
