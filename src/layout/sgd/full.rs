//! Full stress: every vertex pair is a term, visited once per epoch in an order that both
//! vectorises and spreads over threads without changing a bit.
//!
//! The vertices are shuffled (from the seed) into `B` blocks of `L` slots (`L` a multiple of
//! eight; unused slots are padding whose terms move nothing). The pairs between two blocks form
//! a task, and so do the pairs within one block; a round-robin tournament groups the tasks into
//! rounds in which no two tasks share a block, so the tasks of a round run on any threads in
//! any order with the same result. Inside a task the pairs come in shifts: shift `s` pairs slot
//! `k` of the first block with slot `k + s` (mod `L`) of the second, so each shift is two
//! contiguous runs of disjoint pairs, eight at a time on `wide` lanes. Each task's targets are
//! stored in exactly that order, so an epoch streams through them once.
//!
//! `B` and `L` depend only on the vertex count, never on the thread count. Each epoch shuffles
//! the order of the rounds and rotates each task's first shift, from the seed.

use std::sync::Mutex;

use rayon::prelude::*;

use super::kernel::{self, Slots};
use super::paths::{PathScratch, Paths};
use crate::core::rng::{WarrenRng, mix};

/// Most blocks: with 16, a round has eight tasks (enough to balance two to eight threads) and
/// a block of a 10,000-vertex graph has 632 slots.
const MAX_BLOCKS: usize = 16;

/// Fewest slots a block is given (smaller graphs use fewer blocks).
const MIN_SLOTS: usize = 64;

/// Vertex count from which rounds run on rayon's threads (smaller rounds cost less than the
/// hand-off).
pub const PARALLEL_FROM: usize = 1024;

/// One task: the pairs of two blocks (`a < b`), or within one block (`a == b`), with their
/// targets in the order the task visits them.
struct Task {
    a: usize,
    b: usize,
    dist: Vec<f32>,
}

/// One block's positions and freedoms, in slot order.
struct Block {
    x: Vec<f32>,
    y: Vec<f32>,
    free: Vec<f32>,
}

/// The full stress model of a connected graph, ready to run epochs.
pub struct Full {
    len: usize,
    /// The vertex of each slot (`u32::MAX` for padding).
    vertex: Vec<u32>,
    tasks: Vec<Task>,
    /// Task indices of each round.
    rounds: Vec<Vec<usize>>,
    /// Shortest and longest target.
    pub range: (f32, f32),
}

/// Blocks and slots per block for `n` vertices.
fn shape(n: usize) -> (usize, usize) {
    let blocks = n.div_ceil(MIN_SLOTS).clamp(1, MAX_BLOCKS);
    let len = n.div_ceil(blocks).div_ceil(8) * 8;
    (blocks, len)
}

/// The rounds of a tournament of `blocks` blocks: each pair of blocks once, then one round of
/// every block with itself. Returns `(a, b)` block pairs per round.
fn tournament(blocks: usize) -> Vec<Vec<(usize, usize)>> {
    let even = blocks + blocks % 2;
    let mut rounds = Vec::with_capacity(even);
    for r in 0..even - 1 {
        let mut round = vec![];
        let mut add = |a: usize, b: usize| {
            if a < blocks && b < blocks {
                round.push((a.min(b), a.max(b)));
            }
        };
        add(even - 1, r);
        for k in 1..even / 2 {
            add((r + k) % (even - 1), (r + even - 1 - k) % (even - 1));
        }
        rounds.push(round);
    }
    rounds.push((0..blocks).map(|a| (a, a)).collect());
    rounds
}

impl Full {
    /// The model of the connected graph `paths` (its targets by [`Paths::from_source`]), with
    /// the vertices shuffled into slots from `seed`.
    ///
    /// # Runtime
    /// O(n (n + m)) for the searches (O(n m log n) with unequal lengths), on rayon's threads
    /// when `parallel`; memory about `2 n^2` bytes for the targets.
    pub fn new(paths: &Paths, seed: u64, parallel: bool) -> Self {
        let n = paths.len();
        let (blocks, len) = shape(n);
        let mut order: Vec<u32> = (0..n as u32).collect();
        WarrenRng::new(seed).shuffle(&mut order);
        let mut vertex = vec![u32::MAX; blocks * len];
        vertex[..n].copy_from_slice(&order);
        let rounds_pairs = tournament(blocks);
        let mut index = vec![usize::MAX; blocks * blocks];
        let mut rounds = Vec::with_capacity(rounds_pairs.len());
        let mut count = 0;
        for round in &rounds_pairs {
            let mut ids = Vec::with_capacity(round.len());
            for &(a, b) in round {
                index[a * blocks + b] = count;
                ids.push(count);
                count += 1;
            }
            rounds.push(ids);
        }
        let build = |a: usize| block_tasks(paths, &vertex, len, blocks, a);
        let per_block: Vec<Vec<Task>> = if parallel {
            (0..blocks).into_par_iter().map(build).collect()
        } else {
            (0..blocks).map(build).collect()
        };
        let mut slots: Vec<Option<Task>> = (0..count).map(|_| None).collect();
        let mut range = (f32::INFINITY, 0.0f32);
        for task in per_block.into_iter().flatten() {
            for &d in task.dist.iter().filter(|&&d| d > 0.0) {
                range = (range.0.min(d), range.1.max(d));
            }
            let at = index[task.a * blocks + task.b];
            slots[at] = Some(task);
        }
        let tasks = slots
            .into_iter()
            .map(|t| t.expect("every block pair has a task"))
            .collect();
        Self {
            len,
            vertex,
            tasks,
            rounds,
            range,
        }
    }

    /// Runs one epoch per step size of `etas` on positions `x`, `y` (by vertex), moving only
    /// vertices whose `free` is 1. Epoch `e` orders its rounds from `mix(seed, e)`.
    ///
    /// # Runtime
    /// O(n^2) per epoch, on rayon's threads when `parallel`; the result is the same bits
    /// either way.
    pub fn run(
        &self,
        x: &mut [f32],
        y: &mut [f32],
        free: &[f32],
        etas: &[f32],
        seed: u64,
        parallel: bool,
    ) {
        let l = self.len;
        let blocks: Vec<Mutex<Block>> = self
            .vertex
            .chunks(l)
            .map(|slots| {
                let get = |v: &[f32], pad: f32, s: u32| v.get(s as usize).copied().unwrap_or(pad);
                Mutex::new(Block {
                    x: slots.iter().map(|&s| get(x, 0.0, s)).collect(),
                    y: slots.iter().map(|&s| get(y, 0.0, s)).collect(),
                    free: slots.iter().map(|&s| get(free, 0.0, s)).collect(),
                })
            })
            .collect();
        for (epoch, &eta) in etas.iter().enumerate() {
            let epoch_seed = mix(seed, epoch as u64);
            let mut order: Vec<usize> = (0..self.rounds.len()).collect();
            WarrenRng::new(epoch_seed).shuffle(&mut order);
            for r in order {
                let work = |&t: &usize| self.task(t, &blocks, eta, mix(epoch_seed, t as u64));
                if parallel {
                    self.rounds[r].par_iter().for_each(work);
                } else {
                    self.rounds[r].iter().for_each(work);
                }
            }
        }
        for (slots, block) in self.vertex.chunks(l).zip(blocks) {
            let block = block.into_inner().expect("no task panicked");
            for (k, &v) in slots.iter().enumerate() {
                if v != u32::MAX {
                    x[v as usize] = block.x[k];
                    y[v as usize] = block.y[k];
                }
            }
        }
    }

    /// Runs task `t` once: its shifts from one drawn from `seed`.
    fn task(&self, t: usize, blocks: &[Mutex<Block>], eta: f32, seed: u64) {
        let task = &self.tasks[t];
        let l = self.len;
        let first = (seed % l as u64) as usize;
        if task.a == task.b {
            let mut block = blocks[task.a].lock().expect("no task panicked");
            let Block { x, y, free } = &mut *block;
            let mut s = Slots { x, y, free };
            within(&mut s, &task.dist, l, first, eta);
            return;
        }
        let (a, b) = (
            blocks[task.a].lock().expect("no task panicked"),
            blocks[task.b].lock().expect("no task panicked"),
        );
        let mut a = a;
        let mut b = b;
        let mut x = [a.x.as_slice(), b.x.as_slice()].concat();
        let mut y = [a.y.as_slice(), b.y.as_slice()].concat();
        let free = [a.free.as_slice(), b.free.as_slice()].concat();
        let mut s = Slots {
            x: &mut x,
            y: &mut y,
            free: &free,
        };
        for step in 0..l {
            let shift = (first + step) % l;
            let row = &task.dist[shift * l..(shift + 1) * l];
            kernel::pairs(&mut s, 0, l + shift, l - shift, &row[..l - shift], eta);
            kernel::pairs(&mut s, l - shift, l, shift, &row[l - shift..], eta);
        }
        a.x.copy_from_slice(&x[..l]);
        a.y.copy_from_slice(&y[..l]);
        b.x.copy_from_slice(&x[l..]);
        b.y.copy_from_slice(&y[l..]);
    }
}

/// The pairs within one block of `l` slots: shifts `1..=l/2`, starting at `first`'s.
fn within(s: &mut Slots<'_>, dist: &[f32], l: usize, first: usize, eta: f32) {
    let half = l / 2;
    if half == 0 {
        return;
    }
    for step in 0..half {
        let shift = (first + step) % half + 1;
        let row = &dist[(shift - 1) * l..shift * l];
        let count = if 2 * shift == l { half } else { l };
        let head = count.min(l - shift);
        let wrapped = count - head;
        // Lanes of one step must not share a slot: runs closer than eight go one by one.
        if shift >= 8 && l - shift >= 8 {
            kernel::pairs(s, 0, shift, head, &row[..head], eta);
            kernel::pairs(s, l - shift, 0, wrapped, &row[l - shift..count], eta);
        } else {
            for k in 0..count {
                kernel::pair(s, k, (k + shift) % l, row[k], eta);
            }
        }
    }
}

/// The tasks whose first block is `a`: with itself and with every later block, their targets
/// in visiting order (see [`Full`]).
fn block_tasks(paths: &Paths, vertex: &[u32], l: usize, blocks: usize, a: usize) -> Vec<Task> {
    let half = l / 2;
    let mut tasks: Vec<Task> = (a..blocks)
        .map(|b| Task {
            a,
            b,
            dist: vec![0.0; if a == b { half * l } else { l * l }],
        })
        .collect();
    let mut row = vec![0.0f32; paths.len()];
    let mut scratch = PathScratch::default();
    for k in 0..l {
        let v = vertex[a * l + k];
        if v == u32::MAX {
            continue;
        }
        paths.from_source(v, &mut row, &mut scratch);
        let target = |slot: usize| match vertex[slot] {
            u32::MAX => 0.0,
            w => row[w as usize],
        };
        for task in &mut tasks {
            let base = task.b * l;
            for t in 0..l {
                let shift = (t + l - k) % l;
                if task.a != task.b {
                    task.dist[shift * l + k] = target(base + t);
                } else if (1..=half).contains(&shift) && !(2 * shift == l && k >= half) {
                    task.dist[(shift - 1) * l + k] = target(base + t);
                }
            }
        }
    }
    tasks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tournament_meets_every_block_pair_once_and_rounds_share_no_block() {
        for blocks in 1..=16 {
            let rounds = tournament(blocks);
            let mut seen = vec![0u32; blocks * blocks];
            for round in &rounds {
                let mut used = vec![false; blocks];
                for &(a, b) in round {
                    assert!(a <= b);
                    seen[a * blocks + b] += 1;
                    for v in [a, b] {
                        assert!(!used[v] || a == b && v == b, "{blocks}: block {v} twice");
                        used[v] = true;
                    }
                }
            }
            for a in 0..blocks {
                for b in a..blocks {
                    assert_eq!(seen[a * blocks + b], 1, "{blocks}: {a} {b}");
                }
            }
        }
    }

    #[test]
    fn every_pair_gets_its_distance_once() {
        // A path of 150 vertices: three blocks of 56 slots (18 of them padding).
        let n = 150u32;
        let src: Vec<u32> = (0..n - 1).collect();
        let dst: Vec<u32> = (1..n).collect();
        let paths = Paths::new(n as usize, &src, &dst, &vec![1.0; n as usize - 1]);
        let full = Full::new(&paths, 7, false);
        let l = full.len;
        let mut seen = std::collections::HashMap::new();
        for task in &full.tasks {
            let pairs: Vec<(usize, usize, usize)> = if task.a == task.b {
                (1..=l / 2)
                    .flat_map(|s| {
                        let count = if 2 * s == l { l / 2 } else { l };
                        (0..count).map(move |k| (k, (k + s) % l, (s - 1) * l + k))
                    })
                    .collect()
            } else {
                (0..l)
                    .flat_map(|s| (0..l).map(move |k| (k, (k + s) % l, s * l + k)))
                    .collect()
            };
            for (i, j, at) in pairs {
                let (u, v) = (full.vertex[task.a * l + i], full.vertex[task.b * l + j]);
                if u == u32::MAX || v == u32::MAX {
                    assert_eq!(task.dist[at], 0.0);
                    continue;
                }
                assert_eq!(task.dist[at], u.abs_diff(v) as f32);
                *seen.entry((u.min(v), u.max(v))).or_insert(0) += 1;
            }
        }
        assert_eq!(seen.len(), (n * (n - 1) / 2) as usize);
        assert!(seen.values().all(|&c| c == 1));
    }
}
