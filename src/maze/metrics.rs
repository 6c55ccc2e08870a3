//! Per-maze metrics (seed 001's vocabulary: dead ends, crossroads, dead ends next to crossroads)
//! plus the difficulty measures a dataset builder filters by: the diameter, the solution between
//! its two ends, the turns and the decision points along it.

use crate::core::geom::is_turn;
use crate::core::graph::NONE;
use crate::maze::braid::Braided;
use crate::maze::merge::mergeable_dead_ends;
use crate::maze::spanning::Tree;
use crate::maze::topology::Topology;

crate::metrics! {
    /// The metric values of one maze, in column order.
    pub struct MazeMetrics => MAZE_METRICS {
        rooms: u32 = "rooms in the maze (lattice slots minus holes)",
        dead_ends: u32 = "rooms with exactly one passage",
        crossroads: u32 = "rooms with three or more passages",
        dead_ends_at_crossroad: u32 = "dead ends whose one passage leads to a crossroad",
        mergeable_dead_ends: u32 = "dead ends at a crossroad that touch another dead end (0 once merging has run)",
        merges: u32 = "dead-end merges performed (0 when merging is off)",
        diameter: u32 = "passages on the longest shortest path (braided: on the shortest path from start to goal)",
        solution_length: f32 = "geometric length of the solution from start to goal, in room widths",
        turns: u32 = "changes of direction along the solution (sharper than 45 degrees)",
        decision_points: u32 = "rooms on the solution with a way on besides the solution",
        start_room: u32 = "room id of the start (one end of the diameter; braided: of the tree's, before braiding)",
        goal_room: u32 = "room id of the goal (the other end of the diameter; braided: of the tree's)",
        loops: u32 = "passages beyond the spanning tree, opened by braiding (independent cycles)",
        braided_dead_ends: u32 = "dead ends removed by braiding (one or two per loop)",
        start_x: u32 = "grid column of the start room (lattice: 2x + 1; Delaunay mazes, which have no grid: its x position rounded)",
        start_y: u32 = "grid row of the start room (lattice: 2y + 1; Delaunay: its y position rounded)",
        goal_x: u32 = "grid column of the goal room (as start_x)",
        goal_y: u32 = "grid row of the goal room (as start_y)",
        path_length: u32 = "steps on the shortest walkable path from start to goal (lattice: grid squares, 2 per passage; Delaunay: passages)",
    }
}

/// Reusable search buffers.
#[derive(Default)]
pub struct Bfs {
    order: Vec<u32>,
    depth: Vec<u32>,
    parent: Vec<u32>,
    down: Vec<u32>,
    leaf: Vec<u32>,
    back: Vec<u32>,
    /// The solution path from start to goal, filled by [`compute`].
    pub path: Vec<u32>,
    /// Free scratch for callers (the merge's dead-end list).
    pub scratch: Vec<u32>,
}

impl Bfs {
    /// Breadth-first order of the tree from `root`, with parents and depths. The passages must
    /// form a tree (callers check); the `len < slots` guard only keeps a broken input from
    /// writing out of bounds.
    fn search<T: Topology>(&mut self, topo: &T, tree: &Tree, root: u32, slots: usize) {
        self.depth.clear();
        self.depth.resize(slots, NONE);
        self.parent.clear();
        self.parent.resize(slots, NONE);
        self.back.clear();
        self.back.resize(slots, 0);
        self.order.clear();
        self.order.resize(slots, NONE);
        self.order[0] = root;
        self.depth[root as usize] = 0;
        // `back[v]` holds the mask bit of the slot leading to v's parent (0 for the root).
        let (mut head, mut len) = (0, 1);
        while head < len {
            let v = self.order[head];
            head += 1;
            let d = self.depth[v as usize] + 1;
            // PERF: in a tree every passage but the one back is a child: the children are the
            // mask minus one bit, visited without testing whether they were seen.
            let mut children = tree.mask[v as usize] & !(self.back[v as usize] as u16);
            while children != 0 && len < slots {
                let k = children.trailing_zeros();
                children &= children - 1;
                let n = topo.neighbour_room(v, k);
                self.depth[n as usize] = d;
                self.parent[n as usize] = v;
                self.back[n as usize] = 1 << topo.reverse_slot(v, k);
                self.order[len] = n;
                len += 1;
            }
        }
        self.order.truncate(len);
    }

    /// Two ends of a longest path, from one search: heights are folded bottom-up in reverse
    /// breadth-first order, and the best sum of two branch heights at any room is the diameter.
    ///
    /// NOTE: ties break by room id (each subtree reports its lowest-id deepest leaf, and the
    /// lexicographically smallest end pair wins), so the result is the smallest diameter pair of
    /// the tree, whatever the root or the order of the neighbour lists; `verify` rebuilds the
    /// tree in another order and must get the same ends.
    ///
    /// PERF: replaces the classic double sweep (two searches) with one search and one linear,
    /// branch-light pass.
    fn diameter_ends(&mut self, slots: usize) -> (u32, u32, u32) {
        self.down.clear();
        self.down.resize(slots, 0);
        self.leaf.clear();
        self.leaf.extend(0..slots as u32);
        let root = self.order[0];
        let (mut best, mut ends) = (0, (root, root));
        for &v in self.order[1..].iter().rev() {
            let (v, p) = (v as usize, self.parent[v as usize] as usize);
            let through = self.down[v] + 1;
            let total = through + self.down[p];
            let (a, b) = (self.leaf[p], self.leaf[v]);
            let pair = (a.min(b), a.max(b));
            if total > best || (total == best && pair < ends) {
                best = total;
                ends = pair;
            }
            let deeper =
                through > self.down[p] || (through == self.down[p] && self.leaf[v] < self.leaf[p]);
            self.down[p] = if deeper { through } else { self.down[p] };
            self.leaf[p] = if deeper { self.leaf[v] } else { self.leaf[p] };
        }
        (ends.0, ends.1, best)
    }

    /// Breadth-first search of the passages from `root`, whatever cycles they hold: parents,
    /// depths and the order, neighbours taken in slot order (so the parents, and the shortest
    /// paths they give, are fixed by the maze alone).
    fn search_graph<T: Topology>(&mut self, topo: &T, tree: &Tree, root: u32, slots: usize) {
        self.depth.clear();
        self.depth.resize(slots, NONE);
        self.parent.clear();
        self.parent.resize(slots, NONE);
        self.order.clear();
        self.order.push(root);
        self.depth[root as usize] = 0;
        let mut head = 0;
        while head < self.order.len() {
            let v = self.order[head];
            head += 1;
            let d = self.depth[v as usize] + 1;
            let mut next = tree.mask[v as usize];
            while next != 0 {
                let k = next.trailing_zeros();
                next &= next - 1;
                let n = topo.neighbour_room(v, k);
                if self.depth[n as usize] == NONE {
                    self.depth[n as usize] = d;
                    self.parent[n as usize] = v;
                    self.order.push(n);
                }
            }
        }
    }

    /// Fills `path` with the path from `a` to the root of the last search, `a` first: the
    /// search's parents from `a` on.
    fn path_to_root(&mut self, a: u32) {
        self.path.clear();
        let mut v = a;
        while v != NONE {
            self.path.push(v);
            v = self.parent[v as usize];
        }
    }

    /// Fills `path` with the tree path from `a` to `b`.
    fn path_between(&mut self, mut a: u32, mut b: u32) {
        self.path.clear();
        self.back.clear();
        while self.depth[a as usize] > self.depth[b as usize] {
            self.path.push(a);
            a = self.parent[a as usize];
        }
        while self.depth[b as usize] > self.depth[a as usize] {
            self.back.push(b);
            b = self.parent[b as usize];
        }
        while a != b {
            self.path.push(a);
            self.back.push(b);
            a = self.parent[a as usize];
            b = self.parent[b as usize];
        }
        self.path.push(a);
        self.path.extend(self.back.iter().rev());
    }

    /// Rooms reached by the last search.
    pub fn reached(&self) -> usize {
        self.order.len()
    }
}

/// The grid square of room `v`: `(2x + 1, 2y + 1)` on a lattice, its position rounded on an
/// explicit graph (which has no grid).
fn square<T: Topology>(topo: &T, v: u32) -> (u32, u32) {
    let p = topo.position(v);
    if T::LATTICE {
        (2 * p.x as u32 + 1, 2 * p.y as u32 + 1)
    } else {
        (p.x.round().max(0.0) as u32, p.y.round().max(0.0) as u32)
    }
}

/// Sets the start and goal squares and the path length from the start and goal rooms and the
/// solution's passages (`diameter`).
pub fn set_ends<T: Topology>(topo: &T, m: &mut MazeMetrics) {
    if m.rooms == 0 {
        return;
    }
    (m.start_x, m.start_y) = square(topo, m.start_room);
    (m.goal_x, m.goal_y) = square(topo, m.goal_room);
    m.path_length = if T::LATTICE {
        2 * m.diameter
    } else {
        m.diameter
    };
}

/// Computes every metric of a spanning tree. `merges` is passed through; `mergeable` is counted
/// unless the caller knows it (0 right after [`merge_dead_ends`](crate::maze::merge_dead_ends)).
/// Leaves the solution path (start first) in `bfs.path`.
///
/// # Runtime
/// O(V) with one breadth-first search; no allocation after warm-up.
pub fn compute<T: Topology>(
    topo: &T,
    tree: &Tree,
    bfs: &mut Bfs,
    merges: u32,
    mergeable: Option<u32>,
) -> MazeMetrics {
    let mut m = MazeMetrics {
        merges,
        ..Default::default()
    };
    let first_room = census(topo, tree, mergeable, &mut m);
    bfs.path.clear();
    if first_room == NONE {
        return m;
    }
    let slots = topo.slot_count();
    bfs.search(topo, tree, first_room, slots);
    // The start is the end with the lower room id.
    let (start, goal, diameter) = bfs.diameter_ends(slots);
    m.start_room = start;
    m.goal_room = goal;
    m.diameter = diameter;
    bfs.path_between(start, goal);
    along_solution(topo, tree, &bfs.path, &mut m);
    set_ends(topo, &mut m);
    m
}

/// Computes every metric of a braided maze (a spanning tree plus `braided.loops` passages)
/// whose start and goal are given (the ends of the tree's diameter, found before braiding):
/// the solution is the shortest path from start to goal (the first found breadth-first,
/// neighbours in slot order) and `diameter` its passages. Leaves the solution in `bfs.path`
/// and the rooms the search reached in [`Bfs::reached`].
///
/// # Runtime
/// O(V) with one breadth-first search; no allocation after warm-up.
#[allow(clippy::too_many_arguments)]
pub fn compute_braided<T: Topology>(
    topo: &T,
    tree: &Tree,
    bfs: &mut Bfs,
    merges: u32,
    start: u32,
    goal: u32,
    braided: Braided,
) -> MazeMetrics {
    let mut m = MazeMetrics {
        merges,
        start_room: start,
        goal_room: goal,
        loops: braided.loops,
        braided_dead_ends: braided.removed,
        ..Default::default()
    };
    census(topo, tree, None, &mut m);
    bfs.path.clear();
    let slots = topo.slot_count();
    if (start as usize) >= slots || (goal as usize) >= slots {
        return m;
    }
    // NOTE: searching from the goal leaves the parents pointing toward it, so the path from
    // the start follows them and comes out start first.
    bfs.search_graph(topo, tree, goal, slots);
    if bfs.depth[start as usize] == NONE {
        return m;
    }
    m.diameter = bfs.depth[start as usize];
    bfs.path_to_root(start);
    along_solution(topo, tree, &bfs.path, &mut m);
    set_ends(topo, &mut m);
    m
}

/// Counts rooms, dead ends, crossroads and dead ends at crossroads into `m` (and the mergeable
/// dead ends, unless given); returns the first room (NONE without rooms).
fn census<T: Topology>(topo: &T, tree: &Tree, mergeable: Option<u32>, m: &mut MazeMetrics) -> u32 {
    let mut first_room = NONE;
    for v in 0..topo.slot_count() as u32 {
        if !topo.is_room(v) {
            continue;
        }
        if first_room == NONE {
            first_room = v;
        }
        m.rooms += 1;
        let mask = tree.mask[v as usize];
        let d = mask.count_ones();
        m.crossroads += u32::from(d >= 3);
        m.dead_ends += u32::from(d == 1);
        if d == 1 {
            let n = topo.neighbour_room(v, mask.trailing_zeros());
            m.dead_ends_at_crossroad += u32::from(tree.degree(n) >= 3);
        }
    }
    m.mergeable_dead_ends = mergeable.unwrap_or_else(|| mergeable_dead_ends(topo, tree));
    first_room
}

/// The solution's length, turns and decision points into `m`.
fn along_solution<T: Topology>(topo: &T, tree: &Tree, path: &[u32], m: &mut MazeMetrics) {
    for (i, pair) in path.windows(2).enumerate() {
        let (a, b) = (topo.position(pair[0]), topo.position(pair[1]));
        m.solution_length += a.distance(b);
        if i > 0 {
            let before = topo.position(path[i - 1]);
            m.turns += u32::from(is_turn(before, a, b));
        }
    }
    // Interior rooms with a passage besides the one in and the one out are decision points; the
    // start of a tree maze (a leaf, being a diameter end) never is.
    let interior = if path.len() > 2 {
        &path[1..path.len() - 1]
    } else {
        &[][..]
    };
    m.decision_points = interior.iter().filter(|&&v| tree.degree(v) >= 3).count() as u32;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maze::topology::Lattice;

    #[test]
    fn a_comb_has_the_expected_metrics() {
        // 3x2 lattice, tree: top row 0-1-2, and 1-4, 0-3. Longest path: 3-0-1-2 or 3-0-1-4.
        let lat = Lattice::new(3, 2, None);
        let mut tree = Tree::default();
        tree.reset(6, lat.edge_slots());
        for (a, b) in [(0u32, 1u32), (1, 2), (1, 4), (0, 3)] {
            let k = (0..4)
                .find(|&k| lat.physical_mask(a) & (1 << k) != 0 && lat.neighbour_room(a, k) == b);
            tree.open(Tree::link(&lat, a, k.unwrap()));
        }
        // Room 5 is isolated here on purpose: only 5 rooms are reachable.
        let mut bfs = Bfs::default();
        let m = compute(&lat, &tree, &mut bfs, 0, None);
        assert_eq!(m.rooms, 6);
        assert_eq!(m.crossroads, 1);
        assert_eq!(m.dead_ends, 3);
        assert_eq!(m.diameter, 3);
        assert_eq!(bfs.path.len(), 4);
        assert_eq!(m.decision_points, 1);
        // Either end pair is a diameter: 2-1-0-3 turns once, 3-0-1-4 twice.
        assert_eq!(
            m.turns,
            if m.goal_room == 4 || m.start_room == 4 {
                2
            } else {
                1
            }
        );
        assert_eq!(m.solution_length, 3.0);
        assert_eq!(bfs.path[0], m.start_room);
        assert_eq!(*bfs.path.last().unwrap(), m.goal_room);
    }
}
