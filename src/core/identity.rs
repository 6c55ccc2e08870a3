//! A level's `canonical_hash` (DESIGN.md, archive contract): the same for every level that is
//! the same up to the symmetries a learner cannot tell apart, as its generator's
//! [`Identity`] says. Datasets deduplicate (`--unique canonical`) and split (`warren split`) by
//! it, so a maze and its mirror image, or a puzzle graph and its renumbering, never sit on both
//! sides of a split.
//!
//! Computed from the level as an archive stores it, so `warren verify` recomputes it from any
//! stored record.

use crate::core::canon::{CanonScratch, canonical_hash as graph_hash};
use crate::core::generator::{Columns, Identity, Level};
use crate::core::symmetry::{Canonical, Ends, SymmetryScratch, with_ends};

/// Reusable memory of [`canonical_hash`].
#[derive(Default)]
pub struct IdentityScratch {
    grid: SymmetryScratch,
    graph: CanonScratch,
    labels: Vec<u64>,
    edges: Vec<(u32, u32, u64)>,
}

/// The canonical hash of `level` (as `columns` store it) by `columns.identity`.
///
/// # Runtime
/// Grids: [`Canonical::of`] and one pass over the cells. Graphs: the canonical form's search
/// (`core::canon`), microseconds for a sparse level graph.
pub fn canonical_hash(columns: &Columns, level: &Level<'_>, s: &mut IdentityScratch) -> u64 {
    let level = columns.stored(level);
    match (columns.identity, level.grid) {
        (Identity::Grid, Some(g)) => {
            Canonical::of(g.width, g.height, g.cells).grid_hash(g.cells, &mut s.grid)
        }
        (
            Identity::GridEnds {
                start,
                goal,
                swappable,
            },
            Some(g),
        ) => {
            let cell = |(r, c): (usize, usize)| {
                let at = |k: usize| level.metrics.get(k).copied().unwrap_or(0.0) as u32;
                (at(r), at(c))
            };
            let ends = Ends {
                start: cell(start),
                goal: cell(goal),
                swappable,
            };
            let inside = |(r, c): (u32, u32)| r < g.height && c < g.width;
            let canon = Canonical::of(g.width, g.height, g.cells);
            let grid = canon.grid_hash(g.cells, &mut s.grid);
            if inside(ends.start) && inside(ends.goal) {
                with_ends(grid, canon.place(ends))
            } else {
                // Ends off the grid (an infeasible or end-less item has none to carry): the
                // grid alone, marked apart.
                crate::core::rng::mix(grid, u64::MAX)
            }
        }
        _ => match level.graph {
            Some(g) => {
                s.labels.clear();
                s.labels
                    .extend((0..g.x.len()).map(|v| u64::from(g.tag.get(v).copied().unwrap_or(0))));
                s.edges.clear();
                s.edges.extend(
                    g.src
                        .iter()
                        .zip(g.dst)
                        .zip(g.flags.iter().chain(std::iter::repeat(&0)))
                        .map(|((&a, &b), &f)| (a, b, u64::from(f))),
                );
                graph_hash(g.x.len(), &s.labels, &s.edges, &mut s.graph)
                    .unwrap_or_else(|_| level.content_hash())
            }
            None => level.content_hash(),
        },
    }
}
