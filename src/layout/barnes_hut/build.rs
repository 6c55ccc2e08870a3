//! The serial quadtree build: the vertices' ids and positions are partitioned in place, node by
//! node in preorder ([`Builder::subdivide`]); the parallel build
//! ([`QuadTree::build_parallel`](super::QuadTree::build_parallel)) runs the same builder on the
//! subtrees of its top cells.

use super::{LEAF_SIZE, MAX_DEPTH, NO_CHILD, Node, QuadTree};

impl QuadTree {
    /// Builds the tree over `x`, `y`.
    ///
    /// # Runtime
    /// O(n log n) expected (O(n) per level, about log4(n / LEAF_SIZE) levels); no allocation
    /// once the tree's arrays have grown.
    pub fn build(&mut self, x: &[f32], y: &[f32]) {
        self.reset(x, y);
        let n = x.len();
        if n == 0 {
            return;
        }
        let root = root_cell(bounds(x, y));
        let mut builder = Builder {
            order: &mut self.order,
            px: &mut self.px,
            py: &mut self.py,
            base: 0,
            nodes: &mut self.nodes,
            leaves: &mut self.leaves,
        };
        builder.subdivide(0, n, root, 0);
    }

    /// Empties the tree and copies the ids and positions into its permuted arrays.
    pub(super) fn reset(&mut self, x: &[f32], y: &[f32]) {
        self.nodes.clear();
        self.leaves.clear();
        self.order.clear();
        self.order.extend(0..x.len() as u32);
        // PERF: positions are partitioned along with the ids, so every pass of the build and a
        // leaf's walk read one contiguous run instead of gathering through `order`.
        self.px.clear();
        self.px.extend_from_slice(x);
        self.py.clear();
        self.py.extend_from_slice(y);
    }
}

/// The bounding box of `x`, `y` (not empty): min x, max x, min y, max y.
pub(super) fn bounds(x: &[f32], y: &[f32]) -> [f32; 4] {
    let (mut lo_x, mut hi_x, mut lo_y, mut hi_y) = (x[0], x[0], y[0], y[0]);
    for (&px, &py) in x.iter().zip(y) {
        lo_x = lo_x.min(px);
        hi_x = hi_x.max(px);
        lo_y = lo_y.min(py);
        hi_y = hi_y.max(py);
    }
    [lo_x, hi_x, lo_y, hi_y]
}

/// The root cell (centre x, centre y, half width) of the bounding box `[lo x, hi x, lo y, hi
/// y]`: square, a hair larger than the box.
pub(super) fn root_cell([lo_x, hi_x, lo_y, hi_y]: [f32; 4]) -> [f32; 3] {
    let half = ((hi_x - lo_x).max(hi_y - lo_y) * 0.5).max(1e-6) * 1.0001;
    [(lo_x + hi_x) * 0.5, (lo_y + hi_y) * 0.5, half]
}

/// Whether a cell of `count` vertices at `depth` is a leaf.
#[inline]
pub(super) fn is_leaf(count: usize, depth: u32) -> bool {
    count <= LEAF_SIZE || depth >= MAX_DEPTH
}

/// The four quadrants of cell `[mx, my, half]` in child order (west-south, west-north,
/// east-south, east-north): their centres and half width.
#[inline]
pub(super) fn quadrant_cells([mx, my, half]: [f32; 3]) -> [[f32; 3]; 4] {
    let q = half * 0.5;
    [
        [mx - q, my - q, q],
        [mx - q, my + q, q],
        [mx + q, my - q, q],
        [mx + q, my + q, q],
    ]
}

/// Builds (sub)trees over one run of the permuted ids and positions.
pub(super) struct Builder<'a> {
    /// The run's ids and positions, partitioned in place.
    pub order: &'a mut [u32],
    pub px: &'a mut [f32],
    pub py: &'a mut [f32],
    /// Where the run starts in the tree's whole permuted arrays: leaves store whole-array
    /// ranges.
    pub base: u32,
    /// Nodes appended in preorder; child indices are indices into this vector.
    pub nodes: &'a mut Vec<Node>,
    /// Leaf node indices, appended in order of their runs.
    pub leaves: &'a mut Vec<u32>,
}

impl Builder<'_> {
    /// Appends the node for `start..end` of the run (cell centre and half width `cell`) and its
    /// subtree, leaves in order of their runs; returns the node's index and its sums
    /// `(sum x, sum y, count)`.
    ///
    /// PERF: only leaves scan their vertices; an inner node adds up its children's sums and
    /// boxes, so the build reads each vertex once for the sums instead of once per depth.
    pub fn subdivide(
        &mut self,
        start: usize,
        end: usize,
        cell: [f32; 3],
        depth: u32,
    ) -> (u32, [f32; 3]) {
        let at = self.nodes.len() as u32;
        let (first, last) = (self.base + start as u32, self.base + end as u32);
        let mut node = Node::empty(cell[2], [first, last, NO_CHILD, NO_CHILD]);
        self.nodes.push(node);
        let mut sums = [0.0f32; 3];
        if is_leaf(end - start, depth) {
            for k in start..end {
                let (px, py) = (self.px[k], self.py[k]);
                sums[0] += px;
                sums[1] += py;
                sums[2] += 1.0;
                node.bbox = [
                    node.bbox[0].min(px),
                    node.bbox[1].min(py),
                    node.bbox[2].max(px),
                    node.bbox[3].max(py),
                ];
            }
            self.leaves.push(at);
        } else {
            let split = split_quadrants(
                &mut self.order[start..end],
                &mut self.px[start..end],
                &mut self.py[start..end],
                cell,
            );
            node.leaf = false;
            for (i, quadrant) in quadrant_cells(cell).into_iter().enumerate() {
                let (s, e) = (start + split[i], start + split[i + 1]);
                if s == e {
                    node.child[i] = NO_CHILD;
                    continue;
                }
                let (child, part) = self.subdivide(s, e, quadrant, depth + 1);
                node.child[i] = child;
                node.add_child(&self.nodes[child as usize], &mut sums, part);
            }
        }
        node.finish(sums);
        self.nodes[at as usize] = node;
        (at, sums)
    }
}

/// Splits a run into the quadrants of `cell` in child order (west/east by x, then south/north
/// by y within each half); returns the quadrants' bounds `[0, a, b, c, len]`.
pub(super) fn split_quadrants(
    order: &mut [u32],
    px: &mut [f32],
    py: &mut [f32],
    [mx, my, _]: [f32; 3],
) -> [usize; 5] {
    let len = order.len();
    let split_x = partition(order, px, py, |x, _| x < mx);
    let split_w = partition(
        &mut order[..split_x],
        &mut px[..split_x],
        &mut py[..split_x],
        |_, y| y < my,
    );
    let split_e = split_x
        + partition(
            &mut order[split_x..],
            &mut px[split_x..],
            &mut py[split_x..],
            |_, y| y < my,
        );
    [0, split_w, split_x, split_e, len]
}

/// Moves the vertices of the run for which `left(x, y)` holds to its front (ids and positions
/// together, Lomuto's swaps); returns how many there are.
///
/// NOTE: the parallel build relies on this exact permutation: it must stay the same function
/// of the run for the two builds to give one tree.
pub(super) fn partition(
    order: &mut [u32],
    px: &mut [f32],
    py: &mut [f32],
    left: impl Fn(f32, f32) -> bool,
) -> usize {
    let n = order.len();
    let (px, py) = (&mut px[..n], &mut py[..n]);
    let mut split = 0;
    for i in 0..n {
        if left(px[i], py[i]) {
            order.swap(i, split);
            px.swap(i, split);
            py.swap(i, split);
            split += 1;
        }
    }
    split
}
