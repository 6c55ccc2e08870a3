//! Building the physical room graph of seed 001: holes punched in a lattice with the remaining
//! rooms kept connected, and the irregular graph of a Delaunay triangulation of jittered points
//! (rooms are the Voronoi cells; walls are the dual edges of connections left closed).

use bumpalo::Bump;

use crate::core::delaunay::{PhysicalError, delaunay_pairs};
use crate::core::graph::Graph;
use crate::core::rng::WarrenRng;
use crate::core::sliver::{SliverScratch, drop_slivers};
use crate::maze::topology::{Lattice, Topology};

/// Reusable buffers for hole punching.
#[derive(Default)]
pub struct HoleScratch {
    candidates: Vec<u32>,
    stamp: Vec<u32>,
    generation: u32,
    queue: Vec<u32>,
}

/// Marks `round(holes * W * H)` lattice slots as holes in `present`, never disconnecting the
/// remaining rooms. Slots are tried in random order; a slot whose removal would split the rooms is
/// skipped. Returns the number of holes made (smaller than asked only if no candidate is left).
///
/// # Runtime
/// O(k * V) in the worst case for k holes (one bounded search per candidate); in practice a
/// search ends within a few rooms because a lattice neighbourhood reconnects locally.
// PERF: kept out of line. Inlined into the level's code (`lattice_level` is small enough to be
// inlined into `generate`, and this into it), its loops compiled to about 8% more instructions
// (callgrind, 2,000 mazes with holes: 4% more for the whole maze).
#[inline(never)]
pub fn punch_holes(
    width: u32,
    height: u32,
    holes: f64,
    rng: &mut WarrenRng,
    present: &mut Vec<bool>,
    scratch: &mut HoleScratch,
) -> u32 {
    let slots = width as usize * height as usize;
    present.clear();
    present.resize(slots, true);
    let target = (holes * slots as f64).round() as u32;
    if target == 0 {
        return 0;
    }
    scratch.candidates.clear();
    scratch.candidates.extend(0..slots as u32);
    rng.shuffle(&mut scratch.candidates);
    scratch.stamp.clear();
    scratch.stamp.resize(slots, 0);
    scratch.generation = 0;
    let mut made = 0;
    for i in 0..slots {
        if made == target {
            break;
        }
        let v = scratch.candidates[i];
        present[v as usize] = false;
        let lattice = Lattice::new(width, height, Some(present));
        if neighbours_stay_connected(&lattice, v, scratch) {
            made += 1;
        } else {
            present[v as usize] = true;
        }
    }
    made
}

/// Whether all present neighbours of the (already removed) slot `v` still reach each other.
fn neighbours_stay_connected(lattice: &Lattice, v: u32, s: &mut HoleScratch) -> bool {
    let mut around = [0u32; 4];
    let mut k = 0;
    lattice.for_each_neighbour(v, |n, _| {
        around[k] = n;
        k += 1;
    });
    if k <= 1 {
        // A room with one neighbour is a leaf and can always go; a room with none is the last
        // room of its component and must stay.
        return k == 1;
    }
    s.generation += 1;
    let g = s.generation;
    s.queue.clear();
    s.queue.push(around[0]);
    s.stamp[around[0] as usize] = g;
    let mut missing = k - 1;
    let mut head = 0;
    while head < s.queue.len() {
        let u = s.queue[head];
        head += 1;
        let (stamp, queue) = (&mut s.stamp, &mut s.queue);
        lattice.for_each_neighbour(u, |n, _| {
            if stamp[n as usize] != g {
                stamp[n as usize] = g;
                queue.push(n);
                if around[1..k].contains(&n) {
                    missing -= 1;
                }
            }
        });
        if missing == 0 {
            return true;
        }
    }
    false
}

/// Jittered points, `width x height` of them, one per unit cell, exactly representable in `f32`
/// (so a stored level re-triangulates to the same graph).
pub fn jittered_points(
    width: u32,
    height: u32,
    jitter: f64,
    rng: &mut WarrenRng,
    graph: &mut Graph,
) {
    let j = jitter as f32;
    for y in 0..height {
        for x in 0..width {
            let px = x as f32 + 0.5 + j * (rng.unit_f32() - 0.5);
            let py = y as f32 + 0.5 + j * (rng.unit_f32() - 0.5);
            graph.add_vertex(px, py, 0);
        }
    }
}

/// The least distance, in cell widths, between a Delaunay maze's physical edge and a room it
/// does not join: a closer edge is drawn as a corridor through or along that room's cell (a
/// sliver of the triangulation, mostly along the hull) and is left out of the physical graph.
pub const SLIVER_GAP: f32 = 0.25;

/// Adds the physical edges of a Delaunay maze over the graph's vertices as the graph's edges,
/// in a canonical order (sorted by `(min, max)` endpoint), each with `flags`: see
/// [`maze_pairs`]. Returns the slivers kept to keep the rooms connected.
///
/// # Errors
/// When the points cannot be triangulated ([`delaunay_pairs`]).
///
/// # Runtime
/// O(V log V) expected; spade allocates its triangulation on the heap (not in the arena).
pub fn delaunay_edges(graph: &mut Graph, flags: u8, bump: &Bump) -> Result<u32, PhysicalError> {
    let n = graph.vertex_count();
    let (pairs, kept) = maze_pairs(&graph.x, &graph.y, bump)?;
    for &(a, b) in pairs {
        debug_assert!((a as usize) < n && (b as usize) < n);
        graph.add_edge(a, b, flags);
    }
    Ok(kept)
}

/// Physical edges as sorted `(min, max)` pairs, and the slivers among them.
pub type MazePairs<'b> = (&'b [(u32, u32)], u32);

/// A Delaunay maze's physical edges: the triangulation's edges ([`delaunay_pairs`]) but those
/// passing closer than [`SLIVER_GAP`] cell widths to a room they do not join, unless the rooms
/// would fall apart without one (the count of those is returned). Sorted `(min, max)` pairs in
/// `bump`.
///
/// # Errors
/// When the points cannot be triangulated ([`delaunay_pairs`]).
///
/// # Runtime
/// The triangulation's, plus O(E) for the slivers ([`drop_slivers`]); allocates its scratch.
pub fn maze_pairs<'b>(
    x: &[f32],
    y: &[f32],
    bump: &'b Bump,
) -> Result<MazePairs<'b>, PhysicalError> {
    let all = delaunay_pairs(x, y, bump)?;
    let mut clear = Vec::with_capacity(all.len());
    let kept = drop_slivers(
        x,
        y,
        all,
        SLIVER_GAP,
        1.0,
        &mut SliverScratch::default(),
        &mut clear,
    );
    Ok((bump.alloc_slice_copy(&clear), kept))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holes_keep_the_rest_connected() {
        let mut present = Vec::new();
        let mut scratch = HoleScratch::default();
        for seed in 0..20 {
            let mut rng = WarrenRng::new(seed);
            let made = punch_holes(12, 9, 0.4, &mut rng, &mut present, &mut scratch);
            assert_eq!(made, (0.4f64 * 108.0).round() as u32);
            let lat = Lattice::new(12, 9, Some(&present));
            // Flood from the first room: every room must be reached.
            let first = present.iter().position(|&p| p).unwrap() as u32;
            let mut seen = vec![false; 108];
            let mut stack = vec![first];
            seen[first as usize] = true;
            while let Some(v) = stack.pop() {
                lat.for_each_neighbour(v, |n, _| {
                    if !seen[n as usize] {
                        seen[n as usize] = true;
                        stack.push(n);
                    }
                });
            }
            assert_eq!(seen, present, "seed {seed}");
        }
    }

    #[test]
    fn delaunay_of_a_jittered_grid_is_planar_sized() {
        let bump = Bump::new();
        let mut g = Graph::default();
        jittered_points(10, 10, 0.6, &mut WarrenRng::new(3), &mut g);
        delaunay_edges(&mut g, 0, &bump).unwrap();
        let (n, m) = (g.vertex_count(), g.edge_count());
        assert!(m >= n - 1 && m <= 3 * n - 6, "{m} edges for {n} points");
        assert!(g.src.iter().zip(g.dst.iter()).all(|(a, b)| a < b));
    }

    #[test]
    fn unusable_points_are_typed_errors() {
        let bump = Bump::new();
        let e = maze_pairs(&[0.5, f32::NAN, 2.0], &[0.5, 1.0, 0.0], &bump).unwrap_err();
        assert_eq!(e, PhysicalError::Triangulation(spade::InsertionError::NAN));
        assert_eq!(e.to_string(), "NAN");
    }
}
