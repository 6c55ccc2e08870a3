//! "True Prim" for `maze.algorithm = "prim"`: random room costs and a bucket queue of the rooms
//! that can still grow, cheapest first. A child of `maze::algorithms`.

use crate::core::rng::WarrenRng;
use crate::maze::algorithms::scratch::AlgoScratch;
use crate::maze::algorithms::visit::{random_room, visit};
use crate::maze::spanning::Tree;
use crate::maze::topology::Topology;

/// Cost levels of `prim`'s rooms.
const COSTS: usize = 256;

/// `prim`'s active rooms by cost: a stack per cost (linked through `next`), and a bitset of the
/// costs whose stack is not empty, so the cheapest room is two loads and a bit scan.
struct Buckets<'a> {
    head: &'a mut [u32],
    next: &'a mut [u32],
    full: [u64; COSTS / 64],
    /// The cheapest cost with a room (`COSTS` when none).
    min: usize,
}

impl Buckets<'_> {
    const EMPTY: u32 = u32::MAX;

    fn push(&mut self, v: u32, cost: u8) {
        let c = usize::from(cost);
        self.next[v as usize] = self.head[c];
        self.head[c] = v;
        self.full[c / 64] |= 1 << (c % 64);
        self.min = self.min.min(c);
    }

    /// The cheapest room (the newest of its cost), or `None`. PERF: kept, not searched for.
    #[inline]
    fn peek(&self) -> Option<(u32, usize)> {
        (self.min < COSTS).then(|| (self.head[self.min], self.min))
    }

    fn pop(&mut self, c: usize) {
        let v = self.head[c];
        self.head[c] = self.next[v as usize];
        if self.head[c] == Self::EMPTY {
            self.full[c / 64] &= !(1 << (c % 64));
            // The next cost with a room: every cheaper one is empty (`c` was the cheapest).
            self.min = (c / 64..COSTS / 64)
                .find(|&w| self.full[w] != 0)
                .map_or(COSTS, |w| w * 64 + self.full[w].trailing_zeros() as usize);
        }
    }
}

/// "True Prim" (Buck, *Mazes for Programmers*): every room draws a random cost; the cheapest
/// room in the maze that still has an unvisited neighbour grows into its cheapest unvisited
/// neighbour (ties: the newest room, the lowest slot).
pub(super) fn prim<T: Topology>(
    topo: &T,
    rooms: usize,
    rng: &mut WarrenRng,
    s: &mut AlgoScratch,
    tree: &mut Tree,
) -> usize {
    let n = topo.slot_count();
    s.cost.clear();
    s.cost.resize(n, 0);
    // Eight costs a draw, the low byte first (as eight 8-bit `Bits::take`s would).
    for c in s.cost.chunks_mut(8) {
        c.copy_from_slice(&rng.next_u64().to_le_bytes()[..c.len()]);
    }
    s.left.clear();
    s.left.resize(COSTS, Buckets::EMPTY);
    s.via32.clear();
    s.via32.resize(n, Buckets::EMPTY);
    let mut q = Buckets {
        head: &mut s.left,
        next: &mut s.via32,
        full: [0; COSTS / 64],
        min: COSTS,
    };
    let start = random_room(topo, rng);
    visit(topo, start, &mut s.visited, &mut s.avail);
    q.push(start, s.cost[start as usize]);
    let mut opened = 0;
    // PERF: stops at the last passage; the rooms still queued then are all spent, and popping
    // them one by one was a third of the loop.
    while opened + 1 < rooms
        && let Some((v, c)) = q.peek()
    {
        let mut m = s.avail[v as usize];
        if m == 0 {
            q.pop(c);
            continue;
        }
        // PERF: (cost, slot) packed and minimised without a branch: the cheapest neighbour,
        // the lowest slot on ties, as an unpredictable compare-and-branch per neighbour chose.
        let mut key = u32::MAX;
        if T::LATTICE {
            // PERF: all four slots, an absent or visited one keyed out of reach, so the loop
            // has a fixed trip count (no branch on how many neighbours are left).
            let last = s.cost.len() - 1;
            for k in 0..4 {
                let nb = (topo.neighbour_room(v, k) as usize).min(last);
                let cost = u32::from(s.cost[nb]) << 4 | k;
                key = key.min(if m >> k & 1 != 0 { cost } else { u32::MAX });
            }
        } else {
            while m != 0 {
                let k = m.trailing_zeros();
                m &= m - 1;
                let cost = u32::from(s.cost[topo.neighbour_room(v, k) as usize]);
                key = key.min(cost << 4 | k);
            }
        }
        let (best, best_cost) = (key & 15, key >> 4);
        let link = Tree::link(topo, v, best);
        tree.open(link);
        opened += 1;
        visit(topo, link.b, &mut s.visited, &mut s.avail);
        q.push(link.b, best_cost as u8);
    }
    opened
}
