//! Per-maze metrics (seed 001's vocabulary: dead ends, crossroads, dead ends next to crossroads)
//! plus the difficulty measures a dataset builder filters by: the diameter, the solution between
//! its two ends, the turns and the decision points along it.

use crate::core::generator::{MetricKind, MetricSpec};
use crate::core::geom::is_turn;
use crate::core::graph::NONE;
use crate::maze::merge::mergeable_dead_ends;
use crate::maze::spanning::Tree;
use crate::maze::topology::Topology;

const fn u32_metric(name: &'static str, doc: &'static str) -> MetricSpec {
    MetricSpec {
        name,
        kind: MetricKind::U32,
        doc,
    }
}

/// The maze metric columns, in [`MazeMetrics::to_array`] order.
pub const MAZE_METRICS: [MetricSpec; 12] = [
    u32_metric("rooms", "rooms in the maze (lattice slots minus holes)"),
    u32_metric("dead_ends", "rooms with exactly one passage"),
    u32_metric("crossroads", "rooms with three or more passages"),
    u32_metric(
        "dead_ends_at_crossroad",
        "dead ends whose one passage leads to a crossroad",
    ),
    u32_metric(
        "mergeable_dead_ends",
        "dead ends at a crossroad that touch another dead end (0 once merging has run)",
    ),
    u32_metric(
        "merges",
        "dead-end merges performed (0 when merging is off)",
    ),
    u32_metric("diameter", "passages on the longest shortest path"),
    MetricSpec {
        name: "solution_length",
        kind: MetricKind::F32,
        doc: "geometric length of the solution from start to goal, in room widths",
    },
    u32_metric(
        "turns",
        "changes of direction along the solution (sharper than 45 degrees)",
    ),
    u32_metric(
        "decision_points",
        "rooms on the solution with a way on besides the solution",
    ),
    u32_metric(
        "start_room",
        "room id of the start (one end of the diameter)",
    ),
    u32_metric(
        "goal_room",
        "room id of the goal (the other end of the diameter)",
    ),
];

/// Reusable breadth-first-search buffers.
#[derive(Default)]
pub struct Bfs {
    queue: Vec<u32>,
    dist: Vec<u32>,
    parent: Vec<u32>,
    /// The solution path from start to goal, filled by [`compute`].
    pub path: Vec<u32>,
}

impl Bfs {
    /// BFS over passages from `root`; returns the farthest room (first found on ties).
    fn farthest<T: Topology>(&mut self, topo: &T, tree: &Tree, root: u32) -> (u32, u32) {
        let n = topo.slot_count();
        self.dist.clear();
        self.dist.resize(n, NONE);
        self.parent.clear();
        self.parent.resize(n, NONE);
        self.queue.clear();
        self.queue.push(root);
        self.dist[root as usize] = 0;
        let mut head = 0;
        let mut far = root;
        while head < self.queue.len() {
            let v = self.queue[head];
            head += 1;
            let d = self.dist[v as usize];
            if d > self.dist[far as usize] {
                far = v;
            }
            let (dist, parent, queue) = (&mut self.dist, &mut self.parent, &mut self.queue);
            tree.for_each_passage(topo, v, |n, _| {
                if dist[n as usize] == NONE {
                    dist[n as usize] = d + 1;
                    parent[n as usize] = v;
                    queue.push(n);
                }
            });
        }
        (far, self.dist[far as usize])
    }

    /// Rooms reached by the last search.
    pub fn reached(&self) -> usize {
        self.queue.len()
    }
}

/// The metric values of one maze.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MazeMetrics {
    /// Rooms.
    pub rooms: u32,
    /// Rooms of degree 1.
    pub dead_ends: u32,
    /// Rooms of degree >= 3.
    pub crossroads: u32,
    /// Dead ends whose neighbour is a crossroad.
    pub dead_ends_at_crossroad: u32,
    /// Dead ends that could still merge.
    pub mergeable_dead_ends: u32,
    /// Merges performed.
    pub merges: u32,
    /// Diameter in passages.
    pub diameter: u32,
    /// Geometric solution length.
    pub solution_length: f32,
    /// Turns along the solution.
    pub turns: u32,
    /// Decision points along the solution.
    pub decision_points: u32,
    /// Start room.
    pub start_room: u32,
    /// Goal room.
    pub goal_room: u32,
}

impl MazeMetrics {
    /// Values in [`MAZE_METRICS`] order.
    pub fn to_array(&self) -> [f64; MAZE_METRICS.len()] {
        [
            f64::from(self.rooms),
            f64::from(self.dead_ends),
            f64::from(self.crossroads),
            f64::from(self.dead_ends_at_crossroad),
            f64::from(self.mergeable_dead_ends),
            f64::from(self.merges),
            f64::from(self.diameter),
            f64::from(self.solution_length),
            f64::from(self.turns),
            f64::from(self.decision_points),
            f64::from(self.start_room),
            f64::from(self.goal_room),
        ]
    }
}

/// Computes every metric of a spanning tree. `merges` is passed through. Leaves the solution
/// path (start first) in `bfs.path`.
///
/// # Runtime
/// O(V) with two breadth-first searches; no allocation after warm-up.
pub fn compute<T: Topology>(topo: &T, tree: &Tree, bfs: &mut Bfs, merges: u32) -> MazeMetrics {
    let mut m = MazeMetrics {
        merges,
        ..Default::default()
    };
    let mut first_room = NONE;
    for v in 0..topo.slot_count() as u32 {
        if !topo.is_room(v) {
            continue;
        }
        if first_room == NONE {
            first_room = v;
        }
        m.rooms += 1;
        match tree.degree[v as usize] {
            1 => {
                m.dead_ends += 1;
                let mut at_crossroad = false;
                tree.for_each_passage(topo, v, |n, _| {
                    at_crossroad = tree.degree[n as usize] >= 3;
                });
                m.dead_ends_at_crossroad += u32::from(at_crossroad);
            }
            d if d >= 3 => m.crossroads += 1,
            _ => {}
        }
    }
    m.mergeable_dead_ends = mergeable_dead_ends(topo, tree);
    bfs.path.clear();
    if first_room == NONE {
        return m;
    }
    // Double sweep: in a tree, the room farthest from any room is one end of a diameter.
    let (start, _) = bfs.farthest(topo, tree, first_room);
    let (goal, diameter) = bfs.farthest(topo, tree, start);
    m.start_room = start;
    m.goal_room = goal;
    m.diameter = diameter;
    let mut v = goal;
    while v != NONE {
        bfs.path.push(v);
        v = bfs.parent[v as usize];
    }
    bfs.path.reverse();
    let path = &bfs.path;
    for (i, pair) in path.windows(2).enumerate() {
        let (a, b) = (topo.position(pair[0]), topo.position(pair[1]));
        m.solution_length += a.distance(b);
        if i > 0 {
            let before = topo.position(path[i - 1]);
            m.turns += u32::from(is_turn(before, a, b));
        }
    }
    // Interior rooms with a passage besides the one in and the one out are decision points; the
    // start (a leaf, being a diameter end) never is.
    m.decision_points = path[1..path.len().saturating_sub(1)]
        .iter()
        .filter(|&&v| tree.degree[v as usize] >= 3)
        .count() as u32;
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maze::topology::Lattice;

    #[test]
    fn a_comb_has_the_expected_metrics() {
        // 3x2 lattice, tree: top row 0-1-2, and 1-4, 0-3. Longest path: 3-0-1-2 or 3-0-1-4.
        let lat = Lattice {
            width: 3,
            height: 2,
            present: None,
        };
        let mut tree = Tree::default();
        tree.reset(6, lat.edge_slots());
        for (a, b) in [(0u32, 1u32), (1, 2), (1, 4), (0, 3)] {
            let mut edge = NONE;
            lat.for_each_neighbour(a, |n, e| {
                if n == b {
                    edge = e;
                }
            });
            tree.open(edge, a, b);
        }
        // Room 5 is isolated here on purpose: only 5 rooms are reachable.
        let mut bfs = Bfs::default();
        let m = compute(&lat, &tree, &mut bfs, 0);
        assert_eq!(m.rooms, 6);
        assert_eq!(m.crossroads, 1);
        assert_eq!(m.dead_ends, 3);
        assert_eq!(m.diameter, 3);
        assert_eq!(bfs.path.len(), 4);
        assert_eq!(m.decision_points, 1);
        assert_eq!(m.turns, 1);
        assert_eq!(m.solution_length, 3.0);
        assert_eq!(bfs.path[0], m.start_room);
        assert_eq!(*bfs.path.last().unwrap(), m.goal_room);
    }
}
