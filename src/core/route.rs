//! Start, goal and the shortest walkable path of a tile map: the five metrics every grid kind
//! stores (`start_x`, `start_y`, `goal_x`, `goal_y`, `path_length`) so a level plugs into tools
//! that need an agent's start and a goal (maze-dataset, MiniGrid, JaxUED).
//!
//! Each kind says where its start and goal are (a maze's diameter ends, a DMG dungeon's entrance
//! and the square farthest from it, ...); this module holds what they share: the walkable codes,
//! a breadth-first search over the grid's 4-neighbourhood, the farthest square, a room's own
//! tile, and the longest shortest path of a room graph. `verify` recomputes the ends from the
//! stored level with the same functions and compares them with the stored metrics.

use crate::core::csr::Adjacency;
use crate::core::error::Violation;
use crate::core::generator::{GraphView, RoomsView};
use crate::core::graph::{NONE, edge_flag};
use crate::core::grid::{GridView, cell};

/// Whether an agent may stand on cell code `code`: floor, doors (secret ones too) and stairs.
#[inline]
pub fn walkable(code: u8) -> bool {
    matches!(
        code,
        cell::FLOOR | cell::DOOR | cell::SECRET_DOOR | cell::STAIRS_UP | cell::STAIRS_DOWN
    )
}

/// A level's start and goal (grid `(x, y)`) and the walkable steps between them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ends {
    /// The start square.
    pub start: (u32, u32),
    /// The goal square.
    pub goal: (u32, u32),
    /// Steps (4-neighbour moves over walkable squares) on the shortest path from start to goal;
    /// 0 when the goal cannot be reached (never in a level that verifies).
    pub path_length: u32,
}

impl Ends {
    /// The five metric values in column order: `start_x`, `start_y`, `goal_x`, `goal_y`,
    /// `path_length`.
    pub fn values(&self) -> [u32; 5] {
        [
            self.start.0,
            self.start.1,
            self.goal.0,
            self.goal.1,
            self.path_length,
        ]
    }

    /// The ends from their five metric values (as [`Ends::values`] lists them).
    pub fn from_values(v: [u32; 5]) -> Self {
        Ends {
            start: (v[0], v[1]),
            goal: (v[2], v[3]),
            path_length: v[4],
        }
    }

    /// `verify`'s check: the stored ends equal the recomputed ones, or a violation naming the
    /// first metric that differs.
    pub fn check(stored: Ends, recomputed: Ends) -> Result<(), Violation> {
        const NAMES: [&str; 5] = ["start_x", "start_y", "goal_x", "goal_y", "path_length"];
        for ((name, got), want) in NAMES.iter().zip(stored.values()).zip(recomputed.values()) {
            if got != want {
                return Err(Violation::new(format!(
                    "metric {name} is {got}, recomputed {want}"
                )));
            }
        }
        Ok(())
    }
}

/// Reusable buffers of the searches (no allocation once warm).
#[derive(Debug, Default)]
pub struct RouteScratch {
    dist: Vec<u32>,
    queue: Vec<u32>,
    /// Room graph adjacency (CSR) for [`RouteScratch::room_diameter`].
    adjacent: Adjacency<u32>,
    hops: Vec<u32>,
}

impl RouteScratch {
    /// Breadth-first distances over the walkable squares of `grid` from square `from` (an
    /// index into the cells); unreached squares keep [`NONE`]. Returns the square reached last
    /// with the largest distance and the lowest index among those, with that distance.
    pub fn search(&mut self, grid: &GridView<'_>, from: usize) -> (usize, u32) {
        let cells = grid.cells;
        let w = grid.width as usize;
        self.dist.clear();
        self.dist.resize(cells.len(), NONE);
        self.queue.clear();
        if from >= cells.len() || !walkable(cells[from]) {
            return (from, 0);
        }
        self.dist[from] = 0;
        self.queue.push(from as u32);
        let mut head = 0;
        let mut best = (from, 0);
        while head < self.queue.len() {
            let i = self.queue[head] as usize;
            head += 1;
            let d = self.dist[i];
            if d > best.1 || (d == best.1 && i < best.0) {
                best = (i, d);
            }
            let x = i % w;
            let next = [
                (x + 1 < w).then(|| i + 1),
                (x > 0).then(|| i.wrapping_sub(1)),
                (i + w < cells.len()).then(|| i + w),
                (i >= w).then(|| i - w),
            ];
            for j in next.into_iter().flatten() {
                if self.dist[j] == NONE && walkable(cells[j]) {
                    self.dist[j] = d + 1;
                    self.queue.push(j as u32);
                }
            }
        }
        best
    }

    /// Steps from the last [`RouteScratch::search`]'s square to square `i`; `None` unreached.
    pub fn distance(&self, i: usize) -> Option<u32> {
        self.dist.get(i).copied().filter(|&d| d != NONE)
    }

    /// The ends `start` to `goal` (grid squares) and the steps between them.
    pub fn between(&mut self, grid: &GridView<'_>, start: (u32, u32), goal: (u32, u32)) -> Ends {
        let w = grid.width;
        self.search(grid, (start.1 * w + start.0) as usize);
        let at = (goal.1 * w + goal.0) as usize;
        let d = self.dist.get(at).copied().unwrap_or(NONE);
        Ends {
            start,
            goal,
            path_length: if d == NONE { 0 } else { d },
        }
    }

    /// `start` and the walkable square farthest from it (the lowest index among the farthest).
    pub fn farthest(&mut self, grid: &GridView<'_>, start: (u32, u32)) -> Ends {
        let w = grid.width;
        let (at, d) = self.search(grid, (start.1 * w + start.0) as usize);
        Ends {
            start,
            goal: (at as u32 % w, at as u32 / w),
            path_length: d,
        }
    }

    /// The two rooms at the ends of the room graph's longest shortest path (hops over the
    /// walkable edges: every edge but cosmetic ones), start first: the pair with the most hops,
    /// the lowest start id, then the lowest goal id among those. Only rooms whose rectangle is
    /// not empty count. `None` without such a room.
    ///
    /// # Runtime
    /// O(V * (V + E)): one breadth-first search per room (levels have tens of rooms).
    pub fn room_diameter(
        &mut self,
        graph: &GraphView<'_>,
        rooms: &RoomsView<'_>,
    ) -> Option<(u32, u32)> {
        let n = self.room_graph(graph, rooms);
        let mut best: Option<(u32, u32, u32)> = None;
        for s in (0..n).filter(|&v| is_room(rooms, v)) {
            let (g, h) = self.farthest_room(rooms, n, s);
            if best.is_none_or(|(_, _, b)| h > b) {
                best = Some((s as u32, g, h));
            }
        }
        best.map(|(s, g, _)| (s, g))
    }

    /// The room farthest (in hops) from room `from`, the lowest id on ties (`from` itself when
    /// no other room is reached).
    pub fn farthest_from_room(
        &mut self,
        graph: &GraphView<'_>,
        rooms: &RoomsView<'_>,
        from: u32,
    ) -> u32 {
        let n = self.room_graph(graph, rooms);
        if (from as usize) >= n {
            return from;
        }
        self.farthest_room(rooms, n, from as usize).0
    }

    /// Builds the walkable room graph's adjacency; returns its vertex count.
    fn room_graph(&mut self, graph: &GraphView<'_>, rooms: &RoomsView<'_>) -> usize {
        let n = rooms.x0.len().min(graph.x.len());
        let walkable = graph
            .src
            .iter()
            .zip(graph.dst)
            .zip(graph.flags)
            .filter(|&(_, &f)| f & edge_flag::COSMETIC == 0)
            .map(|((&a, &b), _)| (a, b))
            .filter(|&(a, b)| (a as usize) < n && (b as usize) < n && a != b);
        self.adjacent.rebuild(n, walkable, |_, w| w);
        n
    }

    /// Hops from room `s` over the graph [`Self::room_graph`] built; the farthest room (lowest
    /// id on ties, `s` when alone) and its hops.
    fn farthest_room(&mut self, rooms: &RoomsView<'_>, n: usize, s: usize) -> (u32, u32) {
        self.hops.clear();
        self.hops.resize(n, NONE);
        self.queue.clear();
        self.hops[s] = 0;
        self.queue.push(s as u32);
        let mut head = 0;
        while head < self.queue.len() {
            let v = self.queue[head] as usize;
            head += 1;
            for &u in &self.adjacent[v] {
                if self.hops[u as usize] == NONE {
                    self.hops[u as usize] = self.hops[v] + 1;
                    self.queue.push(u);
                }
            }
        }
        let mut best = (s as u32, 0);
        for g in (0..n).filter(|&v| is_room(rooms, v)) {
            let h = self.hops[g];
            if h != NONE && h > best.1 {
                best = (g as u32, h);
            }
        }
        best
    }
}

/// Whether vertex `v` has a room (a rectangle that is not empty).
fn is_room(rooms: &RoomsView<'_>, v: usize) -> bool {
    rooms.x1[v] > rooms.x0[v] && rooms.y1[v] > rooms.y0[v]
}

/// The walkable square of room `v` nearest the centre of its rectangle (squared distance, then
/// the lowest index); with an `owner` grid only squares it marks `1 + v` count. `None` when the
/// rectangle holds no such square.
pub fn room_square(
    grid: &GridView<'_>,
    rooms: &RoomsView<'_>,
    v: usize,
    owner: Option<&[u16]>,
) -> Option<(u32, u32)> {
    let (w, h) = (i64::from(grid.width), i64::from(grid.height));
    let (x0, x1) = (i64::from(rooms.x0[v]).max(0), i64::from(rooms.x1[v]).min(w));
    let (y0, y1) = (i64::from(rooms.y0[v]).max(0), i64::from(rooms.y1[v]).min(h));
    // Twice the centre, so odd sizes stay exact.
    let (cx2, cy2) = (
        i64::from(rooms.x0[v]) + i64::from(rooms.x1[v]) - 1,
        i64::from(rooms.y0[v]) + i64::from(rooms.y1[v]) - 1,
    );
    let mut best: Option<(i64, (u32, u32))> = None;
    for y in y0..y1 {
        for x in x0..x1 {
            let i = (y * w + x) as usize;
            if !walkable(grid.cells[i])
                || owner.is_some_and(|o| o.get(i).copied() != Some(v as u16 + 1))
            {
                continue;
            }
            let d = (2 * x - cx2).pow(2) + (2 * y - cy2).pow(2);
            if best.is_none_or(|(b, _)| d < b) {
                best = Some((d, (x as u32, y as u32)));
            }
        }
    }
    best.map(|(_, at)| at)
}

/// The ends of a level of rooms: rooms `start` and `goal` (when given: the rooms a grammar's
/// tags name) or else the ends of the room graph's longest shortest path; each end is its
/// room's [`room_square`], and the path the walkable steps between them. `None` when the level
/// has no room with a walkable square.
pub fn room_ends(
    s: &mut RouteScratch,
    grid: &GridView<'_>,
    graph: &GraphView<'_>,
    rooms: &RoomsView<'_>,
    owner: Option<&[u16]>,
    named: (Option<u32>, Option<u32>),
) -> Option<Ends> {
    let (start, goal) = match named {
        (Some(a), Some(b)) => (a, b),
        (Some(a), None) => (a, s.farthest_from_room(graph, rooms, a)),
        (None, Some(b)) => (s.farthest_from_room(graph, rooms, b), b),
        (None, None) => s.room_diameter(graph, rooms)?,
    };
    let a = room_square(grid, rooms, start as usize, owner)?;
    let b = room_square(grid, rooms, goal as usize, owner)?;
    Some(s.between(grid, a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view<'a>(cells: &'a [u8], width: u32) -> GridView<'a> {
        GridView {
            width,
            height: (cells.len() / width as usize) as u32,
            cells,
        }
    }

    #[test]
    fn the_farthest_square_and_the_steps_to_it() {
        // A U: start top left, the way round to the top right is 2 + 2 + 2 = 6 steps.
        #[rustfmt::skip]
        let cells = [
            1, 0, 1,
            1, 0, 1,
            1, 1, 1,
        ];
        let g = view(&cells, 3);
        let mut s = RouteScratch::default();
        let e = s.farthest(&g, (0, 0));
        assert_eq!(
            e,
            Ends {
                start: (0, 0),
                goal: (2, 0),
                path_length: 6
            }
        );
        assert_eq!(s.between(&g, (0, 0), (2, 2)).path_length, 4);
        // Walls block; an unreachable goal has no path.
        assert_eq!(s.between(&g, (0, 0), (1, 0)).path_length, 0);
    }

    #[test]
    fn a_room_graph_diameter_skips_cosmetic_edges() {
        // Rooms 0-1-2-3 in a row, a cosmetic shortcut 0-3; vertex 4 has no rectangle.
        let x = [0.0; 5];
        let graph = GraphView {
            x: &x,
            y: &x,
            tag: &[],
            src: &[0, 1, 2, 0, 3],
            dst: &[1, 2, 3, 3, 4],
            flags: &[0, 0, 0, edge_flag::COSMETIC, 0],
        };
        let (x0, y0) = ([0, 4, 8, 12, 0], [0; 5]);
        let (x1, y1) = ([3, 7, 11, 15, 0], [3, 3, 3, 3, 0]);
        let rooms = RoomsView {
            x0: &x0,
            y0: &y0,
            x1: &x1,
            y1: &y1,
        };
        let mut s = RouteScratch::default();
        assert_eq!(s.room_diameter(&graph, &rooms), Some((0, 3)));
    }

    #[test]
    fn a_room_square_is_its_floor_nearest_the_centre() {
        // A 5x3 box whose centre (2, 1) is wall: the nearest floor wins, lowest index on ties.
        #[rustfmt::skip]
        let cells = [
            1, 1, 1, 1, 1,
            1, 0, 0, 0, 1,
            1, 1, 1, 1, 1,
        ];
        let g = view(&cells, 5);
        let rooms = RoomsView {
            x0: &[0],
            y0: &[0],
            x1: &[5],
            y1: &[3],
        };
        assert_eq!(room_square(&g, &rooms, 0, None), Some((2, 0)));
        let owner = [0u16; 15];
        assert_eq!(room_square(&g, &rooms, 0, Some(&owner)), None);
    }

    /// Each of the five metrics, set wrong, fails `verify` naming it, for every grid kind.
    #[test]
    fn verify_rejects_a_wrong_start_goal_or_path_length_in_every_kind() {
        use crate::core::generator::{Generator, LevelRecord};
        fn check<G: Generator>(g: &G, kind: &str) {
            let mut s = g.new_scratch();
            let seed = (0..20u64)
                .map(|i| crate::mix(11, i))
                .find(|&seed| g.generate(seed, &mut s).is_ok())
                .expect("a level in 20 seeds");
            let lv = g.generate(seed, &mut s).unwrap();
            fn record<'a>(
                seed: u64,
                lv: crate::core::generator::Level<'a>,
                metrics: &'a [f64],
            ) -> LevelRecord<'a> {
                LevelRecord {
                    index: 0,
                    seed,
                    level: crate::core::generator::Level { metrics, ..lv },
                }
            }
            g.verify(&record(seed, lv, lv.metrics)).unwrap();
            let specs = g.columns().metrics;
            let at = |name: &str| specs.iter().position(|m| m.name == name).unwrap();
            assert!(lv.metrics[at("path_length")] > 0.0, "{kind}: no path");
            for name in ["start_x", "start_y", "goal_x", "goal_y", "path_length"] {
                let mut bad = lv.metrics.to_vec();
                bad[at(name)] += 1.0;
                let e = g.verify(&record(seed, lv, &bad)).unwrap_err().to_string();
                assert!(e.contains(&format!("metric {name} is")), "{kind}: {e}");
            }
        }
        use crate::{dmg, grammar, map, maze, regions};
        check(
            &maze::MazeGenerator::new(maze::MazeConfig::default()).unwrap(),
            "maze",
        );
        let braided = maze::MazeConfig {
            braid: 0.5,
            ..maze::MazeConfig::default()
        };
        check(&maze::MazeGenerator::new(braided).unwrap(), "braided maze");
        check(
            &dmg::DmgGenerator::new(dmg::DmgConfig::default()).unwrap(),
            "dmg",
        );
        let regions = regions::RegionsConfig::default();
        check(&regions::RegionsGenerator::new(regions).unwrap(), "regions");
        let drawn = grammar::GrammarConfig::default();
        check(&grammar::GrammarGenerator::new(drawn).unwrap(), "grammar");
        let builder = grammar::GrammarConfig {
            rules: "dungeon".into(),
            corridors: grammar::config::MapMode::Routed,
            templates: "edgar-paper".into(),
            ..grammar::GrammarConfig::default()
        };
        check(
            &grammar::GrammarGenerator::new(builder).unwrap(),
            "grammar builder",
        );
        check(
            &map::MapGenerator::new(map::MapConfig::default()).unwrap(),
            "map",
        );
    }
}
