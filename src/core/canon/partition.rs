//! The ordered partition of the search and its colour refinement (1-dimensional Weisfeiler-Leman
//! with edge colours): cells split by the weighted number of neighbours each vertex has in a
//! splitter cell until no splitter splits anything. Cells are numbered by their first position;
//! the partition of any level of the search path comes back by forgetting the cell starts made
//! deeper (nauty's `ptn` levels).
//!
//! Everything here is invariant under renumbering the vertices: the order of splitters, of
//! fragments and the trace hash depend only on positions and colour counts, never on vertex ids.

use super::colored::ColoredGraph;
use crate::core::hash::ContentHasher;

/// "Not a cell start" in [`Partition::start_level`].
const NONE: u32 = u32::MAX;

/// An ordered partition of the vertices with the buffers of its refinement.
#[derive(Default)]
pub(super) struct Partition {
    /// Vertex at each position; every cell is a range of positions.
    pub lab: Vec<u32>,
    /// Position of each vertex.
    pub pos: Vec<u32>,
    /// First position of each vertex's cell.
    pub cell_of: Vec<u32>,
    /// For a cell's first position: one past its last position (stale elsewhere).
    pub cell_end: Vec<u32>,
    /// For a cell's first position: the search level that made it one; [`NONE`] elsewhere.
    start_level: Vec<u32>,
    /// Number of cells.
    pub cells: usize,
    /// The search level this partition belongs to.
    pub level: u32,
    /// Splitter cells waiting, by first position, consumed from `head`.
    queue: Vec<u32>,
    head: usize,
    in_queue: Vec<bool>,
    /// Weighted count of edges from each touched vertex into the current splitter.
    sum: Vec<u64>,
    touched: Vec<bool>,
    touched_vertices: Vec<u32>,
    /// Non-singleton cells holding touched vertices, and how many each holds (at its end).
    touched_cells: Vec<u32>,
    touched_in_cell: Vec<u32>,
    /// First positions of the fragments of the cell being split.
    fragments: Vec<u32>,
    /// The vertices of the splitter being counted.
    splitter_vertices: Vec<u32>,
}

impl Partition {
    /// Resets to the root partition: one cell per vertex colour, in colour order, every cell a
    /// splitter.
    pub fn init(&mut self, g: &ColoredGraph) {
        let n = g.n;
        self.lab.clear();
        self.lab.extend_from_slice(&g.by_colour);
        self.pos.clear();
        self.pos.resize(n, 0);
        for (p, &v) in self.lab.iter().enumerate() {
            self.pos[v as usize] = p as u32;
        }
        self.start_level.clear();
        self.start_level.resize(n, NONE);
        for p in 0..n {
            let v = self.lab[p] as usize;
            if p == 0 || g.colour[v] != g.colour[self.lab[p - 1] as usize] {
                self.start_level[p] = 0;
            }
        }
        for buf in [
            &mut self.cell_of,
            &mut self.cell_end,
            &mut self.touched_in_cell,
        ] {
            buf.clear();
            buf.resize(n, 0);
        }
        self.sum.clear();
        self.sum.resize(n, 0);
        for flags in [&mut self.in_queue, &mut self.touched] {
            flags.clear();
            flags.resize(n, false);
        }
        self.queue.clear();
        self.head = 0;
        self.rebuild_cells();
        self.level = 0;
        for p in 0..n {
            if self.start_level[p] != NONE {
                self.push_splitter(p as u32);
            }
        }
    }

    /// Recomputes `cell_of`, `cell_end` and `cells` from the cell starts.
    fn rebuild_cells(&mut self) {
        let mut start = 0;
        self.cells = 0;
        for p in 0..self.lab.len() {
            if self.start_level[p] != NONE {
                start = p;
                self.cells += 1;
            }
            self.cell_of[self.lab[p] as usize] = start as u32;
            self.cell_end[start] = p as u32 + 1;
        }
    }

    /// Goes back to the partition of `level` (an ancestor of the current one on the path).
    ///
    /// # Runtime
    /// O(n).
    pub fn restore(&mut self, level: u32) {
        for start in &mut self.start_level {
            if *start != NONE && *start > level {
                *start = NONE;
            }
        }
        self.rebuild_cells();
        self.level = level;
    }

    /// Whether every cell is a singleton.
    #[inline]
    pub fn is_discrete(&self) -> bool {
        self.cells == self.lab.len()
    }

    /// The first position of the first non-singleton cell at or after position `from`, if any.
    pub fn first_nonsingleton(&self, from: u32) -> Option<u32> {
        let mut p = from as usize;
        while p < self.lab.len() {
            let end = self.cell_end[p] as usize;
            if end - p > 1 {
                return Some(p as u32);
            }
            p = end;
        }
        None
    }

    /// Splits `v` off the front of its cell as a singleton made at `level`, and queues it.
    pub fn individualise(&mut self, v: u32, level: u32) {
        let start = self.cell_of[v as usize] as usize;
        let end = self.cell_end[start];
        let (p, first) = (self.pos[v as usize] as usize, self.lab[start]);
        self.lab.swap(start, p);
        self.pos[v as usize] = start as u32;
        self.pos[first as usize] = p as u32;
        let rest = start + 1;
        self.start_level[rest] = level;
        self.cell_end[start] = rest as u32;
        self.cell_end[rest] = end;
        for q in rest..end as usize {
            self.cell_of[self.lab[q] as usize] = rest as u32;
        }
        self.cells += 1;
        self.level = level;
        self.push_splitter(start as u32);
    }

    fn push_splitter(&mut self, start: u32) {
        self.in_queue[start as usize] = true;
        self.queue.push(start);
    }

    /// Refines to a stable partition, new cells marked as made at `level`, and returns the
    /// trace hash: the node invariant of the search.
    ///
    /// # Runtime
    /// O(sum over splitters of their degree sums, plus sorting split cells); typically
    /// O(m log n). No allocation once the buffers have grown.
    pub fn refine(&mut self, g: &ColoredGraph, level: u32) -> u64 {
        let mut trace = ContentHasher::new();
        while self.head < self.queue.len() && !self.is_discrete() {
            let splitter = self.queue[self.head];
            self.head += 1;
            self.in_queue[splitter as usize] = false;
            self.count_edges_into(g, splitter);
            trace.word(u64::from(splitter));
            // PERF: sorting the few touched cells by position keeps the fragment order (and so
            // the form) independent of vertex ids without scanning all cells.
            self.touched_cells.sort_unstable();
            for i in 0..self.touched_cells.len() {
                let cell = self.touched_cells[i];
                self.split(cell, level, &mut trace);
                self.touched_in_cell[cell as usize] = 0;
            }
            self.touched_cells.clear();
            // NOTE: untouched vertices keep `sum` 0: the split key reads it for every vertex.
            for &v in &self.touched_vertices {
                self.touched[v as usize] = false;
                self.sum[v as usize] = 0;
            }
            self.touched_vertices.clear();
        }
        for &start in &self.queue[self.head..] {
            self.in_queue[start as usize] = false;
        }
        self.queue.clear();
        self.head = 0;
        trace.word(self.cells as u64);
        trace.finish()
    }

    /// Sums each vertex's edge weights into the splitter cell and notes the cells it touches.
    /// A cell's touched vertices gather at its end, in the order they are first touched.
    fn count_edges_into(&mut self, g: &ColoredGraph, splitter: u32) {
        // The splitter's own vertices may move below, so they are read from a copy.
        let end = self.cell_end[splitter as usize] as usize;
        self.splitter_vertices.clear();
        self.splitter_vertices
            .extend_from_slice(&self.lab[splitter as usize..end]);
        for i in 0..self.splitter_vertices.len() {
            let w = self.splitter_vertices[i];
            for e in g.neighbours(w) {
                let u = g.adj_vertex[e] as usize;
                if !self.touched[u] {
                    self.touched[u] = true;
                    self.touched_vertices.push(u as u32);
                    self.move_to_touched_tail(u);
                }
                self.sum[u] = self.sum[u].wrapping_add(g.weight[g.adj_rank[e] as usize]);
            }
        }
    }

    /// Swaps the newly touched `u` to the front of its cell's touched tail.
    fn move_to_touched_tail(&mut self, u: usize) {
        let cell = self.cell_of[u] as usize;
        let end = self.cell_end[cell] as usize;
        if end - cell == 1 {
            return;
        }
        let k = self.touched_in_cell[cell] as usize;
        if k == 0 {
            self.touched_cells.push(cell as u32);
        }
        self.touched_in_cell[cell] += 1;
        // PERF: positions end - k..end hold the touched vertices, so a split sorts and
        // renumbers only those, never the untouched rest of a big cell (nauty does the same).
        let (from, to) = (self.pos[u] as usize, end - 1 - k);
        let other = self.lab[to];
        self.lab.swap(from, to);
        self.pos[u] = to as u32;
        self.pos[other as usize] = from as u32;
    }

    /// Splits the cell at `start` by the splitter counts: untouched vertices first, then the
    /// touched ones by increasing sum. Queues the fragments (all but the first largest when the
    /// cell itself was not waiting, as Hopcroft's algorithm does).
    fn split(&mut self, start: u32, level: u32, trace: &mut ContentHasher) {
        let (s, e) = (start as usize, self.cell_end[start as usize] as usize);
        let tail = e - self.touched_in_cell[s] as usize;
        if !self.order_tail(tail, e) && tail == s {
            return;
        }
        let sum = &self.sum;
        self.fragments.clear();
        self.fragments.push(start);
        for p in tail.max(s + 1)..e {
            if p == tail || sum[self.lab[p] as usize] != sum[self.lab[p - 1] as usize] {
                self.fragments.push(p as u32);
            }
        }
        trace.word(u64::from(start) << 32 | self.fragments.len() as u64);
        let (mut largest, mut largest_len) = (start, 0);
        for i in 0..self.fragments.len() {
            let f = self.fragments[i] as usize;
            let f_end = self.fragments.get(i + 1).map_or(e, |&x| x as usize);
            let touched = f >= tail;
            trace.word(if touched {
                sum[self.lab[f] as usize]
            } else {
                0
            });
            trace.word((u64::from(touched) << 63) | (f_end - f) as u64);
            self.cell_end[f] = f_end as u32;
            if f != s {
                self.start_level[f] = level;
            }
            // The untouched front keeps its cell and positions.
            if touched {
                for q in f..f_end {
                    let v = self.lab[q] as usize;
                    self.pos[v] = q as u32;
                    self.cell_of[v] = f as u32;
                }
            }
            if f_end - f > largest_len {
                (largest, largest_len) = (f as u32, f_end - f);
            }
        }
        self.cells += self.fragments.len() - 1;
        let waiting = self.in_queue[s];
        for i in 0..self.fragments.len() {
            let f = self.fragments[i];
            if (waiting && f != start) || (!waiting && f != largest) {
                self.push_splitter(f);
            }
        }
    }

    /// Sorts the touched tail `tail..e` of a cell by sum; false when all sums are equal.
    fn order_tail(&mut self, tail: usize, e: usize) -> bool {
        let sum = &self.sum;
        let cell = &mut self.lab[tail..e];
        let first = sum[cell[0] as usize];
        if cell.iter().all(|&v| sum[v as usize] == first) {
            return false;
        }
        cell.sort_unstable_by_key(|&v| sum[v as usize]);
        true
    }
}
