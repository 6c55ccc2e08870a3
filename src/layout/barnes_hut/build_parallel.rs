//! The parallel quadtree build: the tree of the serial [`QuadTree::build`], node for node, on
//! rayon's threads.
//!
//! The top cells (those of more than `n / TOP_SHARE` vertices) are split recursively, the four
//! quadrants of a cell at once (and a cell's two south/north partitions at once). Every cell
//! below them roots a subtree that one thread builds with the serial [`Builder`] into vectors of
//! its own; the subtrees are then spliced into the node list in preorder. Each cell's run is
//! partitioned by the serial build's code, so the permutation, the nodes and their order are
//! the serial build's bits for any thread count: only who builds which subtree changes.

use std::sync::Mutex;

use rayon::prelude::*;

use super::build::{Builder, bounds, is_leaf, partition, quadrant_cells, root_cell};
use super::{LEAF_SIZE, NO_CHILD, Node, QuadTree, Subtree};

/// A subtree has at most `n / TOP_SHARE` vertices (unless it is one leaf): dozens of subtrees
/// for rayon to balance over a few threads, and top levels that cost a few partition passes.
const TOP_SHARE: usize = 64;

/// Vertices per chunk of the parallel copy of the positions.
const COPY_CHUNK: usize = 1 << 14;

/// A run of the permuted ids and positions, and where it starts in the whole arrays.
struct Run<'a> {
    order: &'a mut [u32],
    px: &'a mut [f32],
    py: &'a mut [f32],
    start: u32,
}

impl<'a> Run<'a> {
    /// Cuts the run in two at `at`.
    fn split_at(self, at: usize) -> (Run<'a>, Run<'a>) {
        let (o, p) = self.order.split_at_mut(at);
        let (x, w) = self.px.split_at_mut(at);
        let (y, z) = self.py.split_at_mut(at);
        let (first, second) = (self.start, self.start + at as u32);
        let head = Run {
            order: o,
            px: x,
            py: y,
            start: first,
        };
        (
            head,
            Run {
                order: p,
                px: w,
                py: z,
                start: second,
            },
        )
    }
}

/// A top cell as the recursion leaves it: a subtree built by one thread, or a cell split into
/// its quadrants.
enum Top {
    Subtree {
        subtree: Subtree,
        /// Where its nodes start in the node list.
        node: u32,
    },
    Split {
        /// Half width of the cell.
        half: f32,
        /// Its node's index in the node list.
        node: u32,
        /// The quadrants in child order (`None` for an empty one).
        children: Box<[Option<Top>; 4]>,
    },
}

impl Top {
    /// Its node's index in the node list (once numbered).
    fn node(&self) -> u32 {
        match self {
            Top::Subtree { node, .. } | Top::Split { node, .. } => *node,
        }
    }

    /// Numbers the nodes as the serial build does, this cell's from `at` in preorder; returns
    /// the next free index.
    fn number(&mut self, at: u32) -> u32 {
        match self {
            Top::Subtree { subtree, node } => {
                *node = at;
                at + subtree.nodes.len() as u32
            }
            Top::Split { node, children, .. } => {
                *node = at;
                let mut next = at + 1;
                for child in children.iter_mut().flatten() {
                    next = child.number(next);
                }
                next
            }
        }
    }

    /// Appends the subtrees below (and at) this cell to `out` in preorder.
    fn subtrees<'a>(&'a self, out: &mut Vec<&'a Top>) {
        match self {
            Top::Subtree { .. } => out.push(self),
            Top::Split { children, .. } => {
                for child in children.iter().flatten() {
                    child.subtrees(out);
                }
            }
        }
    }

    /// Gives the subtrees' vectors back to `pool`.
    fn release(self, pool: &mut Vec<Subtree>) {
        match self {
            Top::Subtree { subtree, .. } => pool.push(subtree),
            Top::Split { children, .. } => {
                for child in children.into_iter().flatten() {
                    child.release(pool);
                }
            }
        }
    }
}

impl QuadTree {
    /// Builds over `x`, `y` the same tree as [`QuadTree::build`] (the same nodes in the same
    /// order, the same permutation), on rayon's threads.
    ///
    /// # Runtime
    /// The serial build's O(n log n) work; the longest serial stretch is the root's first
    /// partition, O(n). Allocates a few small blocks per top cell (dozens per call); the
    /// subtrees' vectors are reused.
    pub fn build_parallel(&mut self, x: &[f32], y: &[f32]) {
        let n = x.len();
        if n == 0 {
            return self.reset(x, y);
        }
        let root = root_cell(self.reset_parallel(x, y));
        let most = (n / TOP_SHARE).max(LEAF_SIZE);
        let pool = Mutex::new(std::mem::take(&mut self.subtrees));
        let run = Run {
            order: &mut self.order,
            px: &mut self.px,
            py: &mut self.py,
            start: 0,
        };
        let mut top = build_top(run, root, 0, most, &pool);
        self.subtrees = pool.into_inner().expect("no build panicked");
        self.splice(&mut top);
        top.release(&mut self.subtrees);
    }

    /// [`QuadTree::reset`] on rayon's threads; returns the bounding box (as [`bounds`]).
    ///
    /// NOTE: min and max are exact, so the chunks' boxes make the serial box; at most the sign
    /// of a zero bound can differ, and no quadrant test or cell centre depends on it.
    fn reset_parallel(&mut self, x: &[f32], y: &[f32]) -> [f32; 4] {
        let n = x.len();
        resize(&mut self.order, n, 0);
        resize(&mut self.px, n, 0.0);
        resize(&mut self.py, n, 0.0);
        let boxes: Vec<[f32; 4]> = self
            .order
            .par_chunks_mut(COPY_CHUNK)
            .zip(self.px.par_chunks_mut(COPY_CHUNK))
            .zip(self.py.par_chunks_mut(COPY_CHUNK))
            .zip(x.par_chunks(COPY_CHUNK).zip(y.par_chunks(COPY_CHUNK)))
            .enumerate()
            .map(|(c, (((order, px), py), (x, y)))| {
                let first = (c * COPY_CHUNK) as u32;
                for (k, id) in order.iter_mut().enumerate() {
                    *id = first + k as u32;
                }
                px.copy_from_slice(x);
                py.copy_from_slice(y);
                bounds(x, y)
            })
            .collect();
        boxes
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

    /// Fills the node list and the leaf list from the built top cells: the subtrees copied to
    /// their places in parallel, then the split cells' nodes.
    fn splice(&mut self, top: &mut Top) {
        let total = top.number(0) as usize;
        let mut subtrees = Vec::new();
        top.subtrees(&mut subtrees);
        let size = |t: &Top| match t {
            Top::Subtree { subtree, .. } => (subtree.nodes.len(), subtree.leaves.len()),
            Top::Split { .. } => (0, 0),
        };
        let leaf_total = subtrees.iter().map(|t| size(t).1).sum();
        // PERF: every slot is written below, so the lists are only cut or grown to length (not
        // filled first, a serial pass as long as the copy).
        resize(&mut self.nodes, total, Node::empty(0.0, [NO_CHILD; 4]));
        resize(&mut self.leaves, leaf_total, 0);
        let mut jobs = Vec::with_capacity(subtrees.len());
        let (mut nodes, mut leaves) = (&mut self.nodes[..], &mut self.leaves[..]);
        let mut at = 0;
        for t in subtrees {
            // NOTE: the subtrees come in preorder, their node runs in increasing order, and only
            // they have leaves.
            let (offset, (count, leaf_count)) = (t.node(), size(t));
            let (to, to_leaves);
            (_, nodes) = std::mem::take(&mut nodes).split_at_mut((offset - at) as usize);
            (to, nodes) = std::mem::take(&mut nodes).split_at_mut(count);
            (to_leaves, leaves) = std::mem::take(&mut leaves).split_at_mut(leaf_count);
            at = offset + count as u32;
            jobs.push((to, to_leaves, t, offset));
        }
        jobs.into_par_iter().for_each(|(to, to_leaves, t, offset)| {
            if let Top::Subtree { subtree, .. } = t {
                for (to, node) in to.iter_mut().zip(&subtree.nodes) {
                    *to = node.shifted(offset);
                }
                for (to, &leaf) in to_leaves.iter_mut().zip(&subtree.leaves) {
                    *to = leaf + offset;
                }
            }
        });
        self.finish_top(top);
    }

    /// Sets the node of top cell `top` as the serial build does (its children's sums added in
    /// quadrant order), those of the split cells below it first; returns its sums.
    fn finish_top(&mut self, top: &Top) -> [f32; 3] {
        let (half, at, children) = match top {
            Top::Subtree { subtree, .. } => return subtree.sums,
            Top::Split {
                half,
                node,
                children,
            } => (*half, *node, children),
        };
        let mut node = Node::empty(half, [NO_CHILD; 4]);
        node.leaf = false;
        let mut sums = [0.0f32; 3];
        for (i, child) in children.iter().enumerate() {
            if let Some(child) = child {
                let part = self.finish_top(child);
                node.child[i] = child.node();
                node.add_child(&self.nodes[child.node() as usize], &mut sums, part);
            }
        }
        node.finish(sums);
        self.nodes[at as usize] = node;
        sums
    }
}

/// Builds the top cell of `run` (cell centre and half width `cell`, at `depth`): a subtree when
/// it has at most `most` vertices (or is a leaf), built into vectors from `pool`, or else split
/// into quadrants built at once.
fn build_top(
    run: Run<'_>,
    cell: [f32; 3],
    depth: u32,
    most: usize,
    pool: &Mutex<Vec<Subtree>>,
) -> Top {
    let len = run.order.len();
    if len <= most || is_leaf(len, depth) {
        let mut subtree = pool
            .lock()
            .expect("no build panicked")
            .pop()
            .unwrap_or_default();
        subtree.nodes.clear();
        subtree.leaves.clear();
        let mut builder = Builder {
            order: run.order,
            px: run.px,
            py: run.py,
            base: run.start,
            nodes: &mut subtree.nodes,
            leaves: &mut subtree.leaves,
        };
        subtree.sums = builder.subdivide(0, len, cell, depth).1;
        return Top::Subtree { subtree, node: 0 };
    }
    let [_, a, b, c, _] = split_quadrants_parallel(run.order, run.px, run.py, cell);
    let (west, east) = run.split_at(b);
    let ((q0, q1), (q2, q3)) = (west.split_at(a), east.split_at(c - b));
    let [c0, c1, c2, c3] = quadrant_cells(cell);
    let child = |run: Run<'_>, cell| {
        (!run.order.is_empty()).then(|| build_top(run, cell, depth + 1, most, pool))
    };
    let ((t0, t1), (t2, t3)) = rayon::join(
        || rayon::join(|| child(q0, c0), || child(q1, c1)),
        || rayon::join(|| child(q2, c2), || child(q3, c3)),
    );
    Top::Split {
        half: cell[2],
        node: 0,
        children: Box::new([t0, t1, t2, t3]),
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
