//! Solver traces in Searchformer's form (Lehnert et al., 2024): every node a search creates
//! (`create x y c0 c1`) and closes (`close x y c0 c1`), with `x` the column, `y` the row, `c0`
//! the cost from the start and `c1` the heuristic (0 for BFS, the Manhattan distance to the
//! goal for A*). The number of steps is a difficulty measure.

use std::collections::BinaryHeap;
use std::fmt::Write;

use crate::task::config::TraceKind;
use crate::task::grid::{GridPuzzle, UNREACHED};

/// Writes the trace of `kind` for `p` into `out` (replaced; empty for `none`) and returns its
/// steps (create and close lines). The search stops when it closes the goal.
pub fn grid_trace(kind: TraceKind, p: &GridPuzzle, out: &mut String) -> u32 {
    out.clear();
    match kind {
        TraceKind::Bfs => search(p, false, out),
        TraceKind::Astar => search(p, true, out),
        TraceKind::None | TraceKind::Dsatur => 0,
    }
}

/// BFS (a queue; `astar = false`) or A* (a heap on cost + heuristic, ties on the heuristic,
/// then the cell) from the start until the goal is closed.
fn search(p: &GridPuzzle, astar: bool, out: &mut String) -> u32 {
    let cols = p.cols as usize;
    let goal = p.index(p.goal);
    let h = |v: usize| -> u32 {
        if astar {
            let (r, c) = ((v / cols) as u32, (v % cols) as u32);
            r.abs_diff(p.goal.0) + c.abs_diff(p.goal.1)
        } else {
            0
        }
    };
    let mut cost = vec![UNREACHED; p.open.len()];
    let mut closed = vec![false; p.open.len()];
    // Ordered by (f, h, arrival) smallest first; BFS uses arrival alone (f = h = 0).
    let mut heap = BinaryHeap::new();
    let mut steps = 0u32;
    let mut arrival = 0u64;
    let line = |out: &mut String, what: &str, v: usize, g: u32| {
        let _ = write!(
            out,
            "{}{what} {} {} {g} {}",
            if out.is_empty() { "" } else { " " },
            v % cols,
            v / cols,
            h(v)
        );
    };
    let s = p.index(p.start);
    cost[s] = 0;
    line(out, "create", s, 0);
    steps += 1;
    heap.push(std::cmp::Reverse((h(s), h(s), arrival, s)));
    while let Some(std::cmp::Reverse((_, _, _, v))) = heap.pop() {
        if closed[v] {
            continue;
        }
        closed[v] = true;
        let g = cost[v];
        line(out, "close", v, g);
        steps += 1;
        if v == goal {
            break;
        }
        let (r, c) = (v / cols, v % cols);
        let mut next = [usize::MAX; 4];
        if r > 0 {
            next[0] = v - cols;
        }
        if r + 1 < p.rows as usize {
            next[1] = v + cols;
        }
        if c > 0 {
            next[2] = v - 1;
        }
        if c + 1 < cols {
            next[3] = v + 1;
        }
        for n in next {
            if n != usize::MAX && p.open[n] && !closed[n] && cost[n] > g + 1 {
                cost[n] = g + 1;
                line(out, "create", n, g + 1);
                steps += 1;
                arrival += 1;
                let f = if astar { g + 1 + h(n) } else { 0 };
                heap.push(std::cmp::Reverse((f, h(n), arrival, n)));
            }
        }
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corridor() -> GridPuzzle {
        GridPuzzle {
            rows: 1,
            cols: 4,
            open: vec![true; 4],
            start: (0, 0),
            goal: (0, 3),
        }
    }

    #[test]
    fn bfs_creates_and_closes_along_a_corridor() {
        let mut out = String::new();
        let steps = grid_trace(TraceKind::Bfs, &corridor(), &mut out);
        assert_eq!(
            out,
            "create 0 0 0 0 close 0 0 0 0 create 1 0 1 0 close 1 0 1 0 create 2 0 2 0 \
             close 2 0 2 0 create 3 0 3 0 close 3 0 3 0"
        );
        assert_eq!(steps, 8);
    }

    #[test]
    fn astar_carries_the_manhattan_heuristic() {
        let mut out = String::new();
        grid_trace(TraceKind::Astar, &corridor(), &mut out);
        assert!(
            out.starts_with("create 0 0 0 3 close 0 0 0 3 create 1 0 1 2"),
            "{out}"
        );
        assert_eq!(grid_trace(TraceKind::None, &corridor(), &mut out), 0);
        assert!(out.is_empty());
    }
}
