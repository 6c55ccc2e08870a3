//! Full stress: every vertex pair is a term, visited once per epoch in an order that both
//! vectorises and spreads over threads without changing a bit.
//!
//! The vertices are shuffled (from the seed) into `B` blocks of `L` slots (`L` a multiple of
//! eight; unused slots are padding whose terms move nothing). The pairs between two blocks form
//! a task, and so do the pairs within one block; a round-robin tournament groups the tasks into
//! rounds in which no two tasks share a block, so the tasks of a round run on any threads in
//! any order with the same result. Inside a task the pairs come in shifts: shift `s` pairs slot
//! `k` of the first run with slot `k + s` (mod its length) of the second, so each shift is two
//! contiguous runs of disjoint pairs, eight at a time on `wide` lanes. The pairs within a block
//! are split the same way, recursively: the block's two halves crossed by shifts, then each
//! half within itself, down to runs of eight slots, whose 28 pairs go in four independent
//! pairs at a time. Each task's targets are stored in exactly its visiting order, so an epoch
//! streams through them once.
//!
//! Targets are stored as `u16` hop counts when every edge asks for the same length (half the
//! bytes an epoch streams through), as `f32` lengths otherwise.
//!
//! `B` and `L` depend only on the vertex count, never on the thread count. The tasks between
//! two blocks are cut into [`CHUNKS`] runs of shifts; each epoch shuffles the order of the
//! rounds' parts and rotates each task's first shift, from the seed.

use std::sync::Mutex;

use rayon::prelude::*;

use super::kernel::{self, Slots, Target};
use super::paths::{BATCH, PathScratch, Paths};
use crate::core::rng::{WarrenRng, mix};

/// Most blocks: with 16, a round has eight tasks (enough to balance two to eight threads) and
/// a block of a 10,000-vertex graph has 632 slots.
const MAX_BLOCKS: usize = 16;

/// Fewest slots a block is given (smaller graphs use fewer blocks).
const MIN_SLOTS: usize = 64;

/// Vertex count from which rounds run on rayon's threads (smaller rounds cost less than the
/// hand-off).
pub const PARALLEL_FROM: usize = 1024;

/// Parts each task between two blocks is cut into by its shifts. An epoch visits the parts of
/// all rounds in a shuffled order, so a vertex meets the blocks in turn, a few shifts each,
/// instead of one whole block after another: on small-world graphs that fixed pattern cost
/// up to 7% stress (hep-th 0.1356 with whole tasks, 0.1243 with 16 parts; the shuffled pair
/// list of [`super::small`] reaches 0.1261), on meshes nothing changes.
const CHUNKS: usize = 16;

/// A piece of the pairs within one block, with the offset `at` of its targets in the task's.
#[derive(Clone, Copy, Debug)]
enum Piece {
    /// Slots `a..a + alen` against `b..b + blen` (`alen <= blen`), by shifts of the second run.
    Cross {
        a: usize,
        alen: usize,
        b: usize,
        blen: usize,
        at: usize,
    },
    /// The 28 pairs of slots `lo..lo + 8`, in [`EIGHT`]'s order.
    Eight { lo: usize, at: usize },
}

/// The pairs of eight slots in the rounds of a tournament: each four pairs share no slot.
#[rustfmt::skip]
const EIGHT: [(usize, usize); 28] = [
    (7, 0), (1, 6), (2, 5), (3, 4),
    (7, 1), (2, 0), (3, 6), (4, 5),
    (7, 2), (3, 1), (4, 0), (5, 6),
    (7, 3), (4, 2), (5, 1), (6, 0),
    (7, 4), (5, 3), (6, 2), (0, 1),
    (7, 5), (6, 4), (0, 3), (1, 2),
    (7, 6), (0, 5), (1, 4), (2, 3),
];

/// The pieces of the pairs within a block of `l` slots (a multiple of eight), in visiting
/// order: the first `8 floor(l / 16)` slots crossed with the rest, then each part within
/// itself.
fn within_plan(l: usize) -> Vec<Piece> {
    fn split(lo: usize, len: usize, at: &mut usize, out: &mut Vec<Piece>) {
        if len <= 8 {
            out.push(Piece::Eight { lo, at: *at });
            *at += EIGHT.len();
            return;
        }
        let alen = len / 16 * 8;
        let blen = len - alen;
        out.push(Piece::Cross {
            a: lo,
            alen,
            b: lo + alen,
            blen,
            at: *at,
        });
        *at += alen * blen;
        split(lo, alen, at, out);
        split(lo + alen, blen, at, out);
    }
    let mut out = Vec::new();
    split(0, l, &mut 0, &mut out);
    out
}

/// Runs the pairs of runs `a..a + alen` and `b..b + blen` (`alen <= blen`, disjoint) by
/// shifts, starting at shift `first`; `dist` holds their targets, `alen` per shift.
fn cross<T: Target>(
    s: &mut Slots<'_>,
    (a, alen): (usize, usize),
    (b, blen): (usize, usize),
    dist: &[T],
    (unit, first, eta): (f32, usize, f32),
    steps: std::ops::Range<usize>,
) {
    for step in steps {
        let shift = (first + step) % blen;
        let row = &dist[shift * alen..(shift + 1) * alen];
        let head = alen.min(blen - shift);
        kernel::pairs(s, (a, b + shift), head, &row[..head], unit, eta);
        kernel::pairs(s, (a + head, b), alen - head, &row[head..], unit, eta);
    }
}

/// One task: the pairs of two blocks (`a < b`), or within one block (`a == b`), with their
/// targets in the order the task visits them.
struct Task<T> {
    a: usize,
    b: usize,
    dist: Vec<T>,
}

/// One block's positions and freedoms, in slot order.
struct Block {
    x: Vec<f32>,
    y: Vec<f32>,
    free: Vec<f32>,
}

/// The tasks' targets: hop counts or lengths.
enum Tasks {
    Hops(Vec<Task<u16>>),
    Lengths(Vec<Task<f32>>),
}

/// The full stress model of a connected graph, ready to run epochs.
pub struct Full {
    len: usize,
    /// The pieces of the pairs within a block.
    plan: Vec<Piece>,
    /// The vertex of each slot (`u32::MAX` for padding).
    vertex: Vec<u32>,
    tasks: Tasks,
    /// The length every edge asks for (hop targets are multiples of it), or 1.
    unit: f32,
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

/// The tasks of `blocks` blocks in round order: each task's index by its block pair, and the
/// rounds as task indices.
fn task_order(blocks: usize) -> (Vec<usize>, Vec<Vec<usize>>) {
    let mut index = vec![usize::MAX; blocks * blocks];
    let mut rounds = Vec::new();
    let mut count = 0;
    for round in tournament(blocks) {
        let mut ids = Vec::with_capacity(round.len());
        for (a, b) in round {
            index[a * blocks + b] = count;
            ids.push(count);
            count += 1;
        }
        rounds.push(ids);
    }
    (index, rounds)
}

impl Full {
    /// The model of the connected graph `paths` (its targets by [`Paths::batch`]), with the
    /// vertices put into slots in breadth-first order when `local` (from a root drawn from
    /// `seed`; much cheaper searches on large graphs of long paths, such as meshes) or
    /// shuffled from `seed` (pairs in a better mixed order: a random start converges to a
    /// lower stress on small dense graphs).
    ///
    /// # Runtime
    /// O(n (n + m)) for the searches (O(n m log n) with unequal lengths), on rayon's threads
    /// when `parallel`; memory `n^2` bytes for hop targets, `2 n^2` for lengths.
    pub fn new(paths: &Paths, seed: u64, parallel: bool, local: bool) -> Self {
        let n = paths.len();
        let (blocks, len) = shape(n);
        let order = if local {
            local_order(paths, seed, (blocks, len))
        } else {
            let mut order: Vec<u32> = (0..n as u32).collect();
            WarrenRng::new(seed).shuffle(&mut order);
            order
        };
        let mut vertex = vec![u32::MAX; blocks * len];
        vertex[..n].copy_from_slice(&order);
        let (index, rounds) = task_order(blocks);
        let plan = within_plan(len);
        let hops = paths.uniform.filter(|_| n < usize::from(u16::MAX));
        let unit = hops.unwrap_or(1.0);
        let shared = Shared {
            paths,
            vertex: &vertex,
            plan: &plan,
            l: len,
            unit,
        };
        let (tasks, range) = if hops.is_some() {
            let (tasks, range) = build::<u16>(&shared, &index, parallel);
            (Tasks::Hops(tasks), range)
        } else {
            let (tasks, range) = build::<f32>(&shared, &index, parallel);
            (Tasks::Lengths(tasks), range)
        };
        Self {
            len,
            plan,
            vertex,
            tasks,
            unit,
            rounds,
            range,
        }
    }

    /// Runs one epoch per step size of `etas` on positions `x`, `y` (by vertex), moving only
    /// vertices whose `free` is 1. Epoch `e` orders the rounds' parts from `mix(seed, e)`.
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
                let get = |v: &[f32], s: u32| v.get(s as usize).copied().unwrap_or(0.0);
                Mutex::new(Block {
                    x: slots.iter().map(|&s| get(x, s)).collect(),
                    y: slots.iter().map(|&s| get(y, s)).collect(),
                    free: slots.iter().map(|&s| get(free, s)).collect(),
                })
            })
            .collect();
        let chunks = CHUNKS.min(l);
        let units: Vec<(usize, usize)> = (0..self.rounds.len())
            .flat_map(|r| {
                let within = self.rounds[r].first().is_some_and(|&t| self.is_within(t));
                let count = if within { 1 } else { chunks };
                (0..count).map(move |c| (r, c))
            })
            .collect();
        for (epoch, &eta) in etas.iter().enumerate() {
            let epoch_seed = mix(seed, epoch as u64);
            let mut order = units.clone();
            WarrenRng::new(epoch_seed).shuffle(&mut order);
            for (r, c) in order {
                let steps = c * l / chunks..(c + 1) * l / chunks;
                let work = |&t: &usize| {
                    let first = (mix(epoch_seed, t as u64) % l as u64) as usize;
                    let how = (first, eta);
                    match &self.tasks {
                        Tasks::Hops(tasks) => self.task(&tasks[t], &blocks, how, steps.clone()),
                        Tasks::Lengths(tasks) => self.task(&tasks[t], &blocks, how, steps.clone()),
                    }
                };
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

    /// Whether task `t` is the pairs within one block.
    fn is_within(&self, t: usize) -> bool {
        match &self.tasks {
            Tasks::Hops(tasks) => tasks[t].a == tasks[t].b,
            Tasks::Lengths(tasks) => tasks[t].a == tasks[t].b,
        }
    }

    /// Runs `task` once, its shifts from shift `first`.
    fn task<T: Target>(
        &self,
        task: &Task<T>,
        blocks: &[Mutex<Block>],
        (first, eta): (usize, f32),
        steps: std::ops::Range<usize>,
    ) {
        let (l, unit) = (self.len, self.unit);
        if task.a == task.b {
            let mut block = blocks[task.a].lock().expect("no task panicked");
            let Block { x, y, free } = &mut *block;
            let mut s = Slots { x, y, free };
            for piece in &self.plan {
                match *piece {
                    Piece::Cross {
                        a,
                        alen,
                        b,
                        blen,
                        at,
                    } => {
                        let dist = &task.dist[at..at + alen * blen];
                        let how = (unit, first % blen, eta);
                        cross(&mut s, (a, alen), (b, blen), dist, how, 0..blen);
                    }
                    Piece::Eight { lo, at } => {
                        for (p, &(i, j)) in EIGHT.iter().enumerate() {
                            let d = task.dist[at + p].get(unit);
                            kernel::pair(&mut s, lo + i, lo + j, d, eta);
                        }
                    }
                }
            }
            return;
        }
        let mut a = blocks[task.a].lock().expect("no task panicked");
        let mut b = blocks[task.b].lock().expect("no task panicked");
        let mut x = [a.x.as_slice(), b.x.as_slice()].concat();
        let mut y = [a.y.as_slice(), b.y.as_slice()].concat();
        let free = [a.free.as_slice(), b.free.as_slice()].concat();
        let mut s = Slots {
            x: &mut x,
            y: &mut y,
            free: &free,
        };
        cross(
            &mut s,
            (0, l),
            (l, l),
            &task.dist,
            (unit, first, eta),
            steps,
        );
        a.x.copy_from_slice(&x[..l]);
        a.y.copy_from_slice(&y[..l]);
        b.x.copy_from_slice(&x[l..]);
        b.y.copy_from_slice(&y[l..]);
    }
}

/// The vertices in compact balls, one per batch of [`BATCH`] slots (`blocks` blocks of `l`
/// slots, each cut into batches from its start): the vertices are swept in breadth-first
/// order from one drawn from `seed`, and the first not yet placed grows a ball breadth-first
/// through vertices not yet placed until it fills its batch (or another ball fills the rest). A ball's searches reach most
/// vertices at few distinct levels (its radius is small), which is what makes a batch cheap;
/// a breadth-first run of slots is a thin arc instead, reached at many levels.
fn local_order(paths: &Paths, seed: u64, (blocks, l): (usize, usize)) -> Vec<u32> {
    let n = paths.len();
    let sweep = breadth_first(paths, WarrenRng::new(seed).below(n as u32));
    let mut placed = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut sizes = (0..blocks).flat_map(|_| (0..l).step_by(BATCH).map(move |k| BATCH.min(l - k)));
    let mut next = 0;
    while order.len() < n {
        // A batch's end; a ball that runs out of unplaced neighbours is followed by another.
        let end = (order.len() + sizes.next().unwrap_or(BATCH)).min(n);
        while order.len() < end {
            while placed[sweep[next] as usize] {
                next += 1;
            }
            let mut head = order.len();
            placed[sweep[next] as usize] = true;
            order.push(sweep[next]);
            while head < order.len() && order.len() < end {
                let v = order[head];
                head += 1;
                for &w in paths.entries(v).0 {
                    if order.len() == end {
                        break;
                    }
                    if !placed[w as usize] {
                        placed[w as usize] = true;
                        order.push(w);
                    }
                }
            }
        }
    }
    order
}

/// The vertices in breadth-first order from `root` (neighbours in edge order).
fn breadth_first(paths: &Paths, root: u32) -> Vec<u32> {
    let n = paths.len();
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    seen[root as usize] = true;
    order.push(root);
    let mut head = 0;
    while head < order.len() {
        let v = order[head];
        head += 1;
        for &w in paths.entries(v).0 {
            if !seen[w as usize] {
                seen[w as usize] = true;
                order.push(w);
            }
        }
    }
    order
}

/// What every block's task builder reads.
struct Shared<'a> {
    paths: &'a Paths,
    vertex: &'a [u32],
    plan: &'a [Piece],
    l: usize,
    unit: f32,
}

/// Every task, in round order (`index` by block pair), and the shortest and longest target.
fn build<T: Target>(
    shared: &Shared<'_>,
    index: &[usize],
    parallel: bool,
) -> (Vec<Task<T>>, (f32, f32)) {
    let blocks = shared.vertex.len() / shared.l;
    let one = |a: usize| block_tasks::<T>(shared, a);
    type Built<T> = (Vec<Task<T>>, (f32, f32));
    let per_block: Vec<Built<T>> = if parallel {
        (0..blocks).into_par_iter().map(one).collect()
    } else {
        (0..blocks).map(one).collect()
    };
    let mut slots: Vec<Option<Task<T>>> = (0..index.len()).map(|_| None).collect();
    let mut range = (f32::INFINITY, 0.0f32);
    for (tasks, (lo, hi)) in per_block {
        range = (range.0.min(lo), range.1.max(hi));
        for task in tasks {
            let at = index[task.a * blocks + task.b];
            slots[at] = Some(task);
        }
    }
    let tasks = slots.into_iter().flatten().collect::<Vec<_>>();
    (tasks, range)
}

/// The tasks whose first block is `a`: with itself and with every later block, their targets
/// in visiting order (see [`Full`]), and the shortest and longest target found. The searches
/// go from [`BATCH`] of the block's slots at a time; their distances are first gathered by
/// slot, so every task's targets are written in order.
fn block_tasks<T: Target>(shared: &Shared<'_>, a: usize) -> (Vec<Task<T>>, (f32, f32)) {
    let Shared {
        paths,
        vertex,
        plan,
        l,
        unit,
    } = *shared;
    let (n, blocks) = (paths.len(), vertex.len() / l);
    let mut tasks: Vec<Task<T>> = (a + 1..blocks)
        .map(|b| Task {
            a,
            b,
            dist: vec![T::default(); l * l],
        })
        .collect();
    // The block's own targets, slot by slot, for the pieces below.
    let mut own = vec![0.0f32; l * l];
    let mut found = vec![0.0f32; n * BATCH];
    let mut slotted = vec![0.0f32; l * BATCH];
    let mut scratch = PathScratch::default();
    let mut range = (f32::INFINITY, 0.0f32);
    for k0 in (0..l).step_by(BATCH) {
        let slots = &vertex[a * l + k0..a * l + (k0 + BATCH).min(l)];
        // Padding comes last, so the sources are the batch's first slots.
        let sources: Vec<u32> = slots.iter().copied().filter(|&v| v != u32::MAX).collect();
        let c = sources.len();
        if c == 0 {
            break;
        }
        paths.batch(&sources, &mut scratch, |v, k, d| {
            found[v as usize * BATCH + k] = d;
        });
        for &v in &sources {
            for &d in &found[v as usize * BATCH..v as usize * BATCH + c] {
                if d > 0.0 {
                    range = (range.0.min(d), range.1.max(d));
                }
            }
        }
        let gather = |b: usize, slotted: &mut [f32]| {
            for t in 0..l {
                let out = &mut slotted[t * BATCH..t * BATCH + c];
                match vertex[b * l + t] {
                    u32::MAX => out.fill(0.0),
                    w => out.copy_from_slice(&found[w as usize * BATCH..w as usize * BATCH + c]),
                }
            }
        };
        for task in &mut tasks {
            gather(task.b, &mut slotted);
            for shift in 0..l {
                let out = &mut task.dist[shift * l + k0..shift * l + k0 + c];
                for (i, o) in out.iter_mut().enumerate() {
                    let mut t = k0 + i + shift;
                    if t >= l {
                        t -= l;
                    }
                    *o = T::encode(slotted[t * BATCH + i], unit);
                }
            }
        }
        gather(a, &mut slotted);
        for i in 0..c {
            for t in 0..l {
                own[(k0 + i) * l + t] = slotted[t * BATCH + i];
            }
        }
    }
    let within = within_targets::<T>(plan, &own, l, unit);
    tasks.insert(
        0,
        Task {
            a,
            b: a,
            dist: within,
        },
    );
    (tasks, range)
}

/// The targets of the pairs within one block in the pieces' visiting order, from `own`, the
/// block's targets slot by slot (`own[i * l + j]`).
fn within_targets<T: Target>(plan: &[Piece], own: &[f32], l: usize, unit: f32) -> Vec<T> {
    let mut within = vec![T::default(); l * (l - 1) / 2];
    for piece in plan {
        match *piece {
            Piece::Cross {
                a: ia,
                alen,
                b: ib,
                blen,
                at,
            } => {
                for shift in 0..blen {
                    for k in 0..alen {
                        let mut j = k + shift;
                        if j >= blen {
                            j -= blen;
                        }
                        within[at + shift * alen + k] = T::encode(own[(ia + k) * l + ib + j], unit);
                    }
                }
            }
            Piece::Eight { lo, at } => {
                for (p, &(i, j)) in EIGHT.iter().enumerate() {
                    within[at + p] = T::encode(own[(lo + i) * l + lo + j], unit);
                }
            }
        }
    }
    within
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
    fn eight_slots_meet_in_rounds_of_four_disjoint_pairs() {
        let mut seen = std::collections::HashSet::new();
        for round in EIGHT.chunks(4) {
            let mut used = [false; 8];
            for &(i, j) in round {
                assert!(!used[i] && !used[j]);
                used[i] = true;
                used[j] = true;
                assert!(seen.insert((i.min(j), i.max(j))));
            }
        }
        assert_eq!(seen.len(), 28);
    }

    #[test]
    fn every_pair_gets_its_distance_once() {
        // A path of 150 vertices: three blocks of 56 slots (18 of them padding).
        let n = 150u32;
        let src: Vec<u32> = (0..n - 1).collect();
        let dst: Vec<u32> = (1..n).collect();
        let paths = Paths::new(n as usize, &src, &dst, &vec![1.0; n as usize - 1]);
        let full = Full::new(&paths, 7, false, false);
        let l = full.len;
        let mut seen = std::collections::HashMap::new();
        let Tasks::Hops(tasks) = &full.tasks else {
            panic!("a path's targets are hop counts")
        };
        for task in tasks {
            let pairs: Vec<(usize, usize, usize)> = if task.a == task.b {
                full.plan
                    .iter()
                    .flat_map(|piece| -> Vec<(usize, usize, usize)> {
                        match *piece {
                            Piece::Cross {
                                a,
                                alen,
                                b,
                                blen,
                                at,
                            } => (0..blen)
                                .flat_map(|s| {
                                    (0..alen).map(move |k| {
                                        (a + k, b + (k + s) % blen, at + s * alen + k)
                                    })
                                })
                                .collect(),
                            Piece::Eight { lo, at } => EIGHT
                                .iter()
                                .enumerate()
                                .map(|(p, &(i, j))| (lo + i, lo + j, at + p))
                                .collect(),
                        }
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
                    assert_eq!(task.dist[at], 0);
                    continue;
                }
                assert_eq!(u32::from(task.dist[at]), u.abs_diff(v));
                *seen.entry((u.min(v), u.max(v))).or_insert(0) += 1;
            }
        }
        assert_eq!(seen.len(), (n * (n - 1) / 2) as usize);
        assert!(seen.values().all(|&c| c == 1));
    }
}
