//! A grid's identity up to its 8 rotations and reflections (the dihedral group of the square):
//! the `canonical_hash` of the grid kinds (DESIGN.md, archive contract). A learner cannot tell a
//! maze from its mirror image, so datasets that deduplicate or split by this hash keep every
//! symmetric copy of a level together.
//!
//! The canonical orientation is the one whose `(rows, cols)` and then cells, read row by row,
//! come first (lexicographically), then whose marked cells (a task's start and goal) come first;
//! the hash is taken of that orientation. Equal grids up to symmetry therefore hash equally, and
//! the hash of distinct canonical forms collides only as any 64-bit hash does.

use crate::core::hash::ContentHasher;

/// One of the 8 symmetries: the output cell `(r, c)` of an `rows' x cols'` grid is read from
/// the source after flipping the output coordinates (`flip_rows`, `flip_cols`) and then, when
/// `transpose`, swapping them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symmetry {
    /// Output rows are source columns (and output columns source rows).
    pub transpose: bool,
    /// Output row `r` reads from row `rows' - 1 - r`.
    pub flip_rows: bool,
    /// Output column `c` reads from column `cols' - 1 - c`.
    pub flip_cols: bool,
}

impl Symmetry {
    /// The 8 symmetries, the identity first.
    pub const ALL: [Symmetry; 8] = {
        let mut all = [Symmetry {
            transpose: false,
            flip_rows: false,
            flip_cols: false,
        }; 8];
        let mut i = 0;
        while i < 8 {
            all[i] = Symmetry {
                transpose: i & 4 != 0,
                flip_rows: i & 2 != 0,
                flip_cols: i & 1 != 0,
            };
            i += 1;
        }
        all
    };

    /// The output shape `(rows, cols)` of a `rows x cols` source.
    #[inline]
    pub fn shape(self, rows: u32, cols: u32) -> (u32, u32) {
        if self.transpose {
            (cols, rows)
        } else {
            (rows, cols)
        }
    }

    /// The source cell `(row, col)` of output cell `(r, c)` of a `rows x cols` source.
    #[inline]
    pub fn source(self, rows: u32, cols: u32, (r, c): (u32, u32)) -> (u32, u32) {
        let (out_rows, out_cols) = self.shape(rows, cols);
        let r1 = if self.flip_rows { out_rows - 1 - r } else { r };
        let c1 = if self.flip_cols { out_cols - 1 - c } else { c };
        if self.transpose { (c1, r1) } else { (r1, c1) }
    }

    /// The output cell of source cell `(row, col)` (the inverse of [`Symmetry::source`]).
    #[inline]
    pub fn image(self, rows: u32, cols: u32, (row, col): (u32, u32)) -> (u32, u32) {
        let (out_rows, out_cols) = self.shape(rows, cols);
        let (r1, c1) = if self.transpose {
            (col, row)
        } else {
            (row, col)
        };
        let r = if self.flip_rows {
            out_rows - 1 - r1
        } else {
            r1
        };
        let c = if self.flip_cols {
            out_cols - 1 - c1
        } else {
            c1
        };
        (r, c)
    }
}

/// Marked cells carried along with the grid: a start and a goal `(row, col)`, and whether they
/// may be swapped (a task whose answer is the same both ways, such as a step count).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ends {
    /// The start cell.
    pub start: (u32, u32),
    /// The goal cell.
    pub goal: (u32, u32),
    /// The pair is unordered.
    pub swappable: bool,
}

/// Reusable memory: the canonical orientation's cells.
#[derive(Default, Debug)]
pub struct SymmetryScratch {
    cells: Vec<u8>,
}

/// The orientations of a grid that read its canonical cells: one for most grids, more for a
/// grid that some symmetries map onto itself.
#[derive(Clone, Copy, Debug)]
pub struct Canonical {
    rows: u32,
    cols: u32,
    live: [Symmetry; 8],
    n: usize,
}

impl Canonical {
    /// The canonical orientations of the `cols x rows` grid `cells` (row-major): those whose
    /// `(rows, cols)` and then cells, read row by row, come first.
    ///
    /// # Runtime
    /// O(cells x live orientations): the 8 candidates are read in step and dropped as soon as
    /// they read a larger cell, which for all but highly symmetric grids happens within the
    /// first rows.
    pub fn of(cols: u32, rows: u32, cells: &[u8]) -> Self {
        debug_assert_eq!(cells.len(), rows as usize * cols as usize);
        // The shape first: a non-square grid keeps the four orientations of its smaller height.
        let best_shape = Symmetry::ALL
            .iter()
            .map(|s| s.shape(rows, cols))
            .min()
            .expect("8 symmetries");
        // PERF: the live orientations in a fixed array, dropped in place (no allocation).
        let mut live = [Symmetry::ALL[0]; 8];
        let mut n = 0;
        for s in Symmetry::ALL {
            if s.shape(rows, cols) == best_shape {
                live[n] = s;
                n += 1;
            }
        }
        let (out_rows, out_cols) = best_shape;
        let at = |s: Symmetry, r: u32, c: u32| {
            let (sr, sc) = s.source(rows, cols, (r, c));
            cells[sr as usize * cols as usize + sc as usize]
        };
        'scan: for r in 0..out_rows {
            for c in 0..out_cols {
                if n == 1 {
                    break 'scan;
                }
                let mut read = [0u8; 8];
                for (v, &s) in read.iter_mut().zip(&live[..n]) {
                    *v = at(s, r, c);
                }
                let low = *read[..n].iter().min().expect("live");
                let mut kept = 0;
                for k in 0..n {
                    if read[k] == low {
                        live[kept] = live[k];
                        kept += 1;
                    }
                }
                n = kept;
            }
        }
        Self {
            rows,
            cols,
            live,
            n,
        }
    }

    /// The first canonical orientation.
    pub fn symmetry(&self) -> Symmetry {
        self.live[0]
    }

    /// The hash of the grid in its canonical orientation (its shape and cells): the same for
    /// every rotation and reflection of `cells`, different for grids that differ otherwise (as
    /// a 64-bit hash can).
    pub fn grid_hash(&self, cells: &[u8], s: &mut SymmetryScratch) -> u64 {
        let sym = self.symmetry();
        let (out_rows, out_cols) = sym.shape(self.rows, self.cols);
        let mut h = ContentHasher::new();
        h.word(u64::from(out_rows) << 32 | u64::from(out_cols));
        if sym == Symmetry::ALL[0] {
            h.bytes(cells);
        } else {
            s.cells.clear();
            s.cells.reserve(cells.len());
            for r in 0..out_rows {
                for c in 0..out_cols {
                    let (sr, sc) = sym.source(self.rows, self.cols, (r, c));
                    s.cells
                        .push(cells[sr as usize * self.cols as usize + sc as usize]);
                }
            }
            h.bytes(&s.cells);
        }
        h.finish()
    }

    /// The ends as the canonical orientations place them: the least placement over those
    /// orientations (in order; an unordered pair sorted first).
    pub fn place(&self, ends: Ends) -> ((u32, u32), (u32, u32)) {
        self.live[..self.n]
            .iter()
            .map(|s| {
                let a = s.image(self.rows, self.cols, ends.start);
                let b = s.image(self.rows, self.cols, ends.goal);
                if ends.swappable && b < a {
                    (b, a)
                } else {
                    (a, b)
                }
            })
            .min()
            .expect("at least one orientation is canonical")
    }
}

/// The canonical hash of a grid whose canonical [`Canonical::grid_hash`] is `grid` with ends
/// placed at `placed` ([`Canonical::place`]).
#[inline]
pub fn with_ends(grid: u64, placed: ((u32, u32), (u32, u32))) -> u64 {
    let pack = |(r, c): (u32, u32)| u64::from(r) << 32 | u64::from(c);
    crate::core::rng::mix(crate::core::rng::mix(grid, pack(placed.0)), pack(placed.1))
}

/// The grid's canonical hash: the same for every rotation and reflection of the grid (its ends
/// carried along), different for grids that differ otherwise (as a 64-bit hash can).
///
/// # Runtime
/// [`Canonical::of`], then one pass over the cells in that orientation.
pub fn canonical_grid_hash(
    cols: u32,
    rows: u32,
    cells: &[u8],
    ends: Option<Ends>,
    s: &mut SymmetryScratch,
) -> u64 {
    let canon = Canonical::of(cols, rows, cells);
    let grid = canon.grid_hash(cells, s);
    match ends {
        Some(e) => with_ends(grid, canon.place(e)),
        None => grid,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::WarrenRng;

    /// A plain rotation by a quarter turn clockwise and a plain mirror, written independently
    /// of [`Symmetry`].
    fn rotate(cols: u32, rows: u32, cells: &[u8]) -> (u32, u32, Vec<u8>) {
        // New grid: `rows` columns, `cols` rows; new (r, c) = old (rows - 1 - c, r).
        let mut out = Vec::with_capacity(cells.len());
        for r in 0..cols {
            for c in 0..rows {
                out.push(cells[((rows - 1 - c) * cols + r) as usize]);
            }
        }
        (rows, cols, out)
    }

    fn rotate_point(rows: u32, (r, c): (u32, u32)) -> (u32, u32) {
        (c, rows - 1 - r)
    }

    fn mirror(cols: u32, rows: u32, cells: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(cells.len());
        for r in 0..rows {
            for c in 0..cols {
                out.push(cells[(r * cols + cols - 1 - c) as usize]);
            }
        }
        out
    }

    fn random_grid(rng: &mut WarrenRng, cols: u32, rows: u32, values: u32) -> Vec<u8> {
        (0..cols * rows).map(|_| rng.below(values) as u8).collect()
    }

    #[test]
    fn source_and_image_are_inverse_and_all_eight_differ() {
        let (rows, cols) = (3, 5);
        let cells: Vec<u8> = (0..15).collect();
        let mut seen = Vec::new();
        for s in Symmetry::ALL {
            let (r2, c2) = s.shape(rows, cols);
            let mut out = Vec::new();
            for r in 0..r2 {
                for c in 0..c2 {
                    let src = s.source(rows, cols, (r, c));
                    assert_eq!(s.image(rows, cols, src), (r, c), "{s:?}");
                    out.push(cells[(src.0 * cols + src.1) as usize]);
                }
            }
            assert!(!seen.contains(&out), "{s:?} repeats another symmetry");
            seen.push(out);
        }
    }

    #[test]
    fn every_rotation_and_reflection_hashes_alike() {
        let mut rng = WarrenRng::new(7);
        let mut s = SymmetryScratch::default();
        for case in 0..300 {
            let (cols, rows) = (1 + rng.below(9), 1 + rng.below(9));
            let values = if case % 3 == 0 { 2 } else { 9 };
            let cells = random_grid(&mut rng, cols, rows, values);
            let start = (rng.below(rows), rng.below(cols));
            let goal = (rng.below(rows), rng.below(cols));
            for swappable in [false, true] {
                let ends = Ends {
                    start,
                    goal,
                    swappable,
                };
                let want = canonical_grid_hash(cols, rows, &cells, Some(ends), &mut s);
                let plain = canonical_grid_hash(cols, rows, &cells, None, &mut s);
                let (mut c, mut r, mut g) = (cols, rows, cells.clone());
                let (mut a, mut b) = (start, goal);
                for turn in 0..4 {
                    let e = Ends {
                        start: a,
                        goal: b,
                        swappable,
                    };
                    assert_eq!(
                        canonical_grid_hash(c, r, &g, Some(e), &mut s),
                        want,
                        "case {case} turn {turn}"
                    );
                    assert_eq!(canonical_grid_hash(c, r, &g, None, &mut s), plain);
                    let m = mirror(c, r, &g);
                    let flip = |(y, x): (u32, u32)| (y, c - 1 - x);
                    let e = Ends {
                        start: flip(a),
                        goal: flip(b),
                        swappable,
                    };
                    assert_eq!(
                        canonical_grid_hash(c, r, &m, Some(e), &mut s),
                        want,
                        "case {case} turn {turn} mirrored"
                    );
                    if swappable {
                        let e = Ends {
                            start: b,
                            goal: a,
                            swappable,
                        };
                        assert_eq!(canonical_grid_hash(c, r, &g, Some(e), &mut s), want);
                    }
                    (a, b) = (rotate_point(r, a), rotate_point(r, b));
                    (c, r, g) = rotate(c, r, &g);
                }
            }
        }
    }

    #[test]
    fn grids_that_differ_beyond_symmetry_hash_apart() {
        // Every 3 x 3 binary grid: the canonical hashes split them into exactly the orbits of
        // the dihedral group, which Burnside's lemma counts: (512 + 2*8 + 32 + 4*64) / 8 = 102.
        let mut s = SymmetryScratch::default();
        let mut hashes = std::collections::HashSet::new();
        for bits in 0u32..512 {
            let cells: Vec<u8> = (0..9).map(|i| (bits >> i & 1) as u8).collect();
            hashes.insert(canonical_grid_hash(3, 3, &cells, None, &mut s));
        }
        assert_eq!(hashes.len(), 102);
        // 2 x 3 binary grids (4 symmetries keep the shape): (64 + 8 + 8 + 16) / 4 = 24 orbits.
        hashes.clear();
        for bits in 0u32..64 {
            let cells: Vec<u8> = (0..6).map(|i| (bits >> i & 1) as u8).collect();
            hashes.insert(canonical_grid_hash(3, 2, &cells, None, &mut s));
            let (c, r, t) = rotate(3, 2, &cells);
            hashes.insert(canonical_grid_hash(c, r, &t, None, &mut s));
        }
        assert_eq!(hashes.len(), 24);
        // Ends matter: the same grid with the goal elsewhere differs; swapped, only when the
        // pair is unordered.
        let cells = vec![1u8; 9];
        let e = |start, goal, swappable| {
            Some(Ends {
                start,
                goal,
                swappable,
            })
        };
        let h = |ends| canonical_grid_hash(3, 3, &cells, ends, &mut SymmetryScratch::default());
        assert_ne!(h(e((0, 0), (1, 1), false)), h(e((0, 0), (0, 1), false)));
        assert_ne!(h(e((0, 0), (1, 1), false)), h(e((1, 1), (0, 0), false)));
        assert_eq!(h(e((0, 0), (1, 1), true)), h(e((1, 1), (0, 0), true)));
        assert_eq!(h(e((0, 0), (1, 1), false)), h(e((2, 2), (1, 1), false)));
        assert_ne!(h(e((0, 0), (1, 1), false)), h(None));
    }
}
