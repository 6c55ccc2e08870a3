//! The parallel quadtree build: the tree of the serial [`QuadTree::build`], node for node, on
//! rayon's threads.
//!
//! The top cells (those of more than `n / TOP_SHARE` vertices) are split level by level, all
//! cells of a level at once and a cell's two south/north partitions at once. Every cell below
//! them roots a subtree that one thread builds with the serial [`Builder`] into vectors of its
//! own; the subtrees are then spliced into the node list in preorder. Each cell's run is
//! partitioned by the serial build's code, so the permutation, the nodes and their order are
//! the serial build's bits for any thread count: only who builds which subtree changes.

use rayon::prelude::*;

use super::build::{Builder, bounds, is_leaf, partition, quadrant_cells, root_cell};
use super::{LEAF_SIZE, NO_CHILD, Node, QuadTree, Subtree, TopCell};

/// A subtree has at most `n / TOP_SHARE` vertices (unless it is one leaf): dozens of subtrees
/// for rayon to balance over a few threads, and top levels that cost a few partition passes.
const TOP_SHARE: usize = 64;

/// Vertices per chunk of the parallel passes over all vertices (the bounding box, the copies).
const COPY_CHUNK: usize = 1 << 14;

impl QuadTree {
    /// Builds over `x`, `y` the same tree as [`QuadTree::build`] (the same nodes in the same
    /// order, the same permutation), on rayon's threads.
    ///
    /// # Runtime
    /// The serial build's O(n log n) work; the longest serial stretch is the root's first
    /// partition, O(n). Allocates a few small vectors (one entry per top cell) per call; the
    /// subtrees' vectors are reused.
    pub fn build_parallel(&mut self, x: &[f32], y: &[f32]) {
        let n = x.len();
        if n == 0 {
            return self.reset(x, y);
        }
        self.reset_parallel(x, y);
        let root = root_cell(bounds_parallel(x, y));
        self.split_top(root, (n / TOP_SHARE).max(LEAF_SIZE));
        self.build_subtrees();
        self.splice();
    }

    /// [`QuadTree::reset`] on rayon's threads.
    fn reset_parallel(&mut self, x: &[f32], y: &[f32]) {
        let n = x.len();
        resize(&mut self.order, n, 0);
        resize(&mut self.px, n, 0.0);
        resize(&mut self.py, n, 0.0);
        self.order
            .par_chunks_mut(COPY_CHUNK)
            .zip(self.px.par_chunks_mut(COPY_CHUNK))
            .zip(self.py.par_chunks_mut(COPY_CHUNK))
            .zip(x.par_chunks(COPY_CHUNK).zip(y.par_chunks(COPY_CHUNK)))
            .enumerate()
            .for_each(|(c, (((order, px), py), (x, y)))| {
                let first = (c * COPY_CHUNK) as u32;
                for (k, id) in order.iter_mut().enumerate() {
                    *id = first + k as u32;
                }
                px.copy_from_slice(x);
                py.copy_from_slice(y);
            });
    }

    /// Splits the cells of more than `most` vertices, level by level from the root cell `root`,
    /// into `tops`; lists the cells left whole (the subtree roots) in `roots`, in run order.
    fn split_top(&mut self, root: [f32; 3], most: usize) {
        self.tops.clear();
        self.tops.push(TopCell {
            start: 0,
            end: self.order.len() as u32,
            cell: root,
            depth: 0,
            child: [NO_CHILD; 4],
            subtree: true,
            node: 0,
        });
        let mut level = 0..1;
        while !level.is_empty() {
            let splits: Vec<usize> = level
                .clone()
                .filter(|&t| {
                    let c = &self.tops[t];
                    let len = (c.end - c.start) as usize;
                    len > most && !is_leaf(len, c.depth)
                })
                .collect();
            let bounds = self.split_cells(&splits);
            let next = self.tops.len();
            for (&t, b) in splits.iter().zip(&bounds) {
                let c = self.tops[t];
                self.tops[t].subtree = false;
                for (i, cell) in quadrant_cells(c.cell).into_iter().enumerate() {
                    let (start, end) = (c.start + b[i] as u32, c.start + b[i + 1] as u32);
                    if start < end {
                        self.tops[t].child[i] = self.tops.len() as u32;
                        self.tops.push(TopCell {
                            start,
                            end,
                            cell,
                            depth: c.depth + 1,
                            child: [NO_CHILD; 4],
                            subtree: true,
                            node: 0,
                        });
                    }
                }
            }
            level = next..self.tops.len();
        }
        self.roots.clear();
        self.roots
            .extend((0..self.tops.len() as u32).filter(|&t| self.tops[t as usize].subtree));
        let tops = &mut self.tops;
        self.roots.sort_unstable_by_key(|&t| tops[t as usize].start);
        for (k, &t) in self.roots.iter().enumerate() {
            tops[t as usize].child[0] = k as u32;
        }
    }

    /// Splits the runs of top cells `cells` (in run order) into their quadrants, in parallel;
    /// returns each cell's quadrant bounds within its run.
    fn split_cells(&mut self, cells: &[usize]) -> Vec<[usize; 5]> {
        let mut runs = Vec::with_capacity(cells.len());
        let (mut order, mut px, mut py) = (&mut self.order[..], &mut self.px[..], &mut self.py[..]);
        let mut at = 0;
        for &t in cells {
            let c = &self.tops[t];
            let (start, end) = (c.start as usize, c.end as usize);
            let (o, x, y);
            (_, order) = std::mem::take(&mut order).split_at_mut(start - at);
            (o, order) = std::mem::take(&mut order).split_at_mut(end - start);
            (_, px) = std::mem::take(&mut px).split_at_mut(start - at);
            (x, px) = std::mem::take(&mut px).split_at_mut(end - start);
            (_, py) = std::mem::take(&mut py).split_at_mut(start - at);
            (y, py) = std::mem::take(&mut py).split_at_mut(end - start);
            runs.push((o, x, y, c.cell));
            at = end;
        }
        runs.into_par_iter()
            .map(|(o, x, y, cell)| split_quadrants_parallel(o, x, y, cell))
            .collect()
    }

    /// Builds every subtree on rayon's threads, each into its own vectors.
    fn build_subtrees(&mut self) {
        if self.subtrees.len() < self.roots.len() {
            self.subtrees
                .resize_with(self.roots.len(), Subtree::default);
        }
        let mut jobs = Vec::with_capacity(self.roots.len());
        let (mut order, mut px, mut py) = (&mut self.order[..], &mut self.px[..], &mut self.py[..]);
        for (&t, subtree) in self.roots.iter().zip(self.subtrees.iter_mut()) {
            let c = self.tops[t as usize];
            let len = (c.end - c.start) as usize;
            // NOTE: the roots tile the permuted arrays in run order, so each takes the next run.
            let (o, x, y);
            (o, order) = std::mem::take(&mut order).split_at_mut(len);
            (x, px) = std::mem::take(&mut px).split_at_mut(len);
            (y, py) = std::mem::take(&mut py).split_at_mut(len);
            let Subtree {
                nodes,
                leaves,
                sums,
            } = subtree;
            nodes.clear();
            leaves.clear();
            let builder = Builder {
                order: o,
                px: x,
                py: y,
                base: c.start,
                nodes,
                leaves,
            };
            jobs.push((builder, sums, c));
        }
        debug_assert!(order.is_empty(), "the subtrees cover every vertex");
        jobs.into_par_iter().for_each(|(mut builder, sums, c)| {
            let len = (c.end - c.start) as usize;
            *sums = builder.subdivide(0, len, c.cell, c.depth).1;
        });
    }

    /// Numbers the nodes as the serial build does, top cell `t`'s node (or subtree) from `at`
    /// in preorder; returns the next free index.
    fn number(&mut self, t: usize, at: u32) -> u32 {
        self.tops[t].node = at;
        let top = self.tops[t];
        if top.subtree {
            return at + self.subtrees[top.child[0] as usize].nodes.len() as u32;
        }
        let mut next = at + 1;
        for c in top.child.into_iter().filter(|&c| c != NO_CHILD) {
            next = self.number(c as usize, next);
        }
        next
    }

    /// Fills the node list and the leaf list: the subtrees copied to their places in parallel,
    /// then the top cells' nodes.
    fn splice(&mut self) {
        let total = self.number(0, 0) as usize;
        let subtrees = &self.subtrees[..self.roots.len()];
        let leaf_total = subtrees.iter().map(|s| s.leaves.len()).sum();
        // PERF: every slot is written below, so the lists are only cut or grown to length (not
        // filled first, a serial pass as long as the copy).
        resize(&mut self.nodes, total, Node::empty(0.0, [NO_CHILD; 4]));
        resize(&mut self.leaves, leaf_total, 0);
        let mut jobs = Vec::with_capacity(subtrees.len());
        let (mut nodes, mut leaves) = (&mut self.nodes[..], &mut self.leaves[..]);
        let mut at = 0;
        for (&t, subtree) in self.roots.iter().zip(subtrees) {
            // NOTE: the subtrees come in preorder, their node runs in increasing order, and only
            // they have leaves.
            let offset = self.tops[t as usize].node;
            let (to, to_leaves);
            (_, nodes) = std::mem::take(&mut nodes).split_at_mut((offset - at) as usize);
            (to, nodes) = std::mem::take(&mut nodes).split_at_mut(subtree.nodes.len());
            (to_leaves, leaves) = std::mem::take(&mut leaves).split_at_mut(subtree.leaves.len());
            at = offset + subtree.nodes.len() as u32;
            jobs.push((to, to_leaves, subtree, offset));
        }
        jobs.into_par_iter()
            .for_each(|(to, to_leaves, subtree, offset)| {
                for (to, node) in to.iter_mut().zip(&subtree.nodes) {
                    *to = node.shifted(offset);
                }
                for (to, &leaf) in to_leaves.iter_mut().zip(&subtree.leaves) {
                    *to = leaf + offset;
                }
            });
        self.finish_top(0);
    }

    /// Sets top cell `t`'s node as the serial build does (its children's sums added in quadrant
    /// order), those of the top cells below it first; returns its sums.
    fn finish_top(&mut self, t: usize) -> [f32; 3] {
        let top = self.tops[t];
        if top.subtree {
            return self.subtrees[top.child[0] as usize].sums;
        }
        let mut node = Node::empty(top.cell[2], [NO_CHILD; 4]);
        node.leaf = false;
        let mut sums = [0.0f32; 3];
        for (i, &c) in top.child.iter().enumerate() {
            if c != NO_CHILD {
                let part = self.finish_top(c as usize);
                let child = self.tops[c as usize].node;
                node.child[i] = child;
                node.add_child(&self.nodes[child as usize], &mut sums, part);
            }
        }
        node.finish(sums);
        self.nodes[top.node as usize] = node;
        sums
    }
}

/// The serial build's quadrant split of one run (see
/// [`split_quadrants`](super::build::split_quadrants)), the two halves' south/north partitions
/// at once.
fn split_quadrants_parallel(
    order: &mut [u32],
    px: &mut [f32],
    py: &mut [f32],
    [mx, my, _]: [f32; 3],
) -> [usize; 5] {
    let len = order.len();
    let split_x = partition(order, px, py, |x, _| x < mx);
    let (west_o, east_o) = order.split_at_mut(split_x);
    let (west_x, east_x) = px.split_at_mut(split_x);
    let (west_y, east_y) = py.split_at_mut(split_x);
    let (split_w, split_e) = rayon::join(
        || partition(west_o, west_x, west_y, |_, y| y < my),
        || partition(east_o, east_x, east_y, |_, y| y < my),
    );
    [0, split_w, split_x, split_x + split_e, len]
}

/// Cuts or grows `v` to length `len`, leaving what is kept as it was (for lists whose every
/// slot is about to be written).
fn resize<T: Copy>(v: &mut Vec<T>, len: usize, fill: T) {
    v.truncate(len);
    v.resize(len, fill);
}

/// [`bounds`] in chunks on rayon's threads.
///
/// NOTE: min and max are exact, so any grouping gives the serial box; at most the sign of a
/// zero bound can differ, and no quadrant test or cell centre depends on it.
fn bounds_parallel(x: &[f32], y: &[f32]) -> [f32; 4] {
    let parts: Vec<[f32; 4]> = x
        .par_chunks(COPY_CHUNK)
        .zip(y.par_chunks(COPY_CHUNK))
        .map(|(x, y)| bounds(x, y))
        .collect();
    parts
        .into_iter()
        .reduce(|a, b| {
            [
                a[0].min(b[0]),
                a[1].max(b[1]),
                a[2].min(b[2]),
                a[3].max(b[3]),
            ]
        })
        .expect("at least one vertex")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::random_positions;

    /// Everything a build leaves behind, as bits.
    fn bits(t: &QuadTree) -> (Vec<u32>, Vec<u32>, Vec<[u32; 13]>) {
        let nodes = t
            .nodes
            .iter()
            .map(|n| {
                let f = [n.cx, n.cy, n.mass, n.half, n.bbox[0], n.bbox[1]];
                let mut out = [0u32; 13];
                for (o, v) in out.iter_mut().zip(f.iter().chain(&n.bbox[2..])) {
                    *o = v.to_bits();
                }
                out[8..12].copy_from_slice(&n.child);
                out[12] = u32::from(n.leaf);
                out
            })
            .collect();
        let mut order = t.order.clone();
        order.extend(t.px.iter().chain(&t.py).map(|v| v.to_bits()));
        (order, t.leaves.clone(), nodes)
    }

    #[test]
    fn the_parallel_build_is_the_serial_build() {
        // Spread, clustered (a tenth of the points on four spots) and tiny inputs.
        for (n, seed) in [(1, 1), (30, 2), (5_000, 3), (40_000, 4)] {
            let (mut x, mut y) = (Vec::new(), Vec::new());
            random_positions(n, 1.0, seed, &mut x, &mut y);
            for i in (0..n).step_by(10) {
                x[i] = (i % 4) as f32;
                y[i] = 0.5;
            }
            let (mut serial, mut parallel) = (QuadTree::default(), QuadTree::default());
            serial.build(&x, &y);
            parallel.build_parallel(&x, &y);
            assert!(bits(&serial) == bits(&parallel), "n {n}");
            // Reused: a second, different build over the same scratch.
            let x2: Vec<f32> = x.iter().map(|v| v * 0.5 + 1.0).collect();
            serial.build(&x2, &y);
            parallel.build_parallel(&x2, &y);
            assert!(bits(&serial) == bits(&parallel), "n {n}, rebuilt");
        }
    }
}
