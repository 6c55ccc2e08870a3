//! The graph algorithms of `maze.algorithm`, for any physical graph (lattices with holes,
//! Delaunay rooms): depth-first search, Wilson's and Aldous-Broder's walks (on a lattice without
//! holes, the walks of `walk.rs`), shuffled Kruskal, simplified Prim, hunt-and-kill and the
//! growing tree.

use crate::core::rng::WarrenRng;
use crate::maze::algorithms::bits::Bits;
use crate::maze::algorithms::scratch::AlgoScratch;
use crate::maze::algorithms::visit::{grow_into, hole_free_lattice, random_room, visit};
use crate::maze::algorithms::walk;
use crate::maze::spanning::Tree;
use crate::maze::topology::{Link, Topology};

pub(super) fn dfs<T: Topology>(
    topo: &T,
    rng: &mut WarrenRng,
    s: &mut AlgoScratch,
    tree: &mut Tree,
) -> usize {
    let start = random_room(topo, rng);
    visit(topo, start, &mut s.visited, &mut s.avail);
    // PERF: the stack is a local while the walk runs, so its length stays in a register
    // instead of being stored and reloaded around every step (a fifth of the walk).
    let mut stack = std::mem::take(&mut s.stack);
    stack.clear();
    stack.push(start);
    let mut opened = 0;
    let mut bits = Bits::default();
    while let Some(&v) = stack.last() {
        let m = s.avail[v as usize];
        if m == 0 {
            stack.pop();
            continue;
        }
        let u = grow_into(topo, v, m, &mut bits, rng, s, tree);
        opened += 1;
        stack.push(u);
    }
    s.stack = stack;
    opened
}

pub(super) fn wilson<T: Topology>(
    topo: &T,
    rooms: usize,
    rng: &mut WarrenRng,
    s: &mut AlgoScratch,
    tree: &mut Tree,
) -> usize {
    let n = topo.slot_count();
    if let Some((w, h)) = hole_free_lattice(topo, rooms) {
        // Any root gives uniform trees; the walks reach the middle room soonest (PERF: a
        // fifth fewer steps than from a random room on 32 x 32).
        let root = h / 2 * w + w / 2;
        return walk::wilson(topo, (w, h), root, rng, &mut s.padded, tree);
    }
    let root = random_room(topo, rng);
    s.via.clear();
    s.via.resize(n, 0);
    s.visited[root as usize] = true;
    let mut opened = 0;
    let mut bits = Bits::default();
    for v in 0..n as u32 {
        if opened + 1 == rooms {
            break;
        }
        if !topo.is_room(v) || s.visited[v as usize] {
            continue;
        }
        // A random walk from v until it meets the tree, remembering only each room's last exit:
        // following the exits from v then gives the walk with its loops erased.
        let mut u = v;
        while !s.visited[u as usize] {
            let k = bits.pick(rng, topo.physical_mask(u));
            s.via[u as usize] = k as u8;
            u = topo.neighbour_room(u, k);
        }
        let mut u = v;
        while !s.visited[u as usize] {
            let link = Tree::link(topo, u, u32::from(s.via[u as usize]));
            tree.open(link);
            opened += 1;
            s.visited[u as usize] = true;
            u = link.b;
        }
    }
    opened
}

pub(super) fn aldous_broder<T: Topology>(
    topo: &T,
    rooms: usize,
    rng: &mut WarrenRng,
    s: &mut AlgoScratch,
    tree: &mut Tree,
) -> usize {
    let mut v = random_room(topo, rng);
    if let Some(dims) = hole_free_lattice(topo, rooms) {
        return walk::aldous_broder(topo, dims, v, rng, &mut s.deep, tree);
    }
    s.visited[v as usize] = true;
    let mut opened = 0;
    let mut bits = Bits::default();
    while opened + 1 < rooms {
        let k = bits.pick(rng, topo.physical_mask(v));
        let (u, _) = topo.neighbour(v, k);
        if !s.visited[u as usize] {
            tree.open(Tree::link(topo, v, k));
            opened += 1;
            s.visited[u as usize] = true;
        }
        v = u;
    }
    opened
}

pub(super) fn kruskal<T: Topology>(
    topo: &T,
    all_links: Option<&[Link]>,
    rooms: usize,
    rng: &mut WarrenRng,
    s: &mut AlgoScratch,
    tree: &mut Tree,
) -> usize {
    s.links.clear();
    match all_links {
        Some(links) => s.links.extend_from_slice(links),
        None => topo.for_each_edge(|l| s.links.push(l)),
    }
    rng.shuffle(&mut s.links);
    s.uf.reset(topo.slot_count());
    let mut opened = 0;
    for &link in &s.links {
        if opened + 1 == rooms {
            break;
        }
        if s.uf.union(link.a, link.b) {
            tree.open(link);
            opened += 1;
        }
    }
    opened
}

pub(super) fn prim_simplified<T: Topology>(
    topo: &T,
    rng: &mut WarrenRng,
    s: &mut AlgoScratch,
    tree: &mut Tree,
) -> usize {
    // `down` marks rooms on the frontier; `frontier[..len]` lists them.
    let n = topo.slot_count();
    s.down.clear();
    s.down.resize(n, false);
    // PERF: the frontier is a local while the walk runs (see `dfs`), with room for every room
    // plus one spare slot: a push is a store and an add, whether or not the room was already
    // on the frontier (no branch on it).
    let mut frontier = std::mem::take(&mut s.stack);
    frontier.clear();
    frontier.resize(n + 1, 0);
    let mut len = 0usize;
    let start = random_room(topo, rng);
    visit(topo, start, &mut s.visited, &mut s.avail);
    let add_frontier = |v: u32, s: &mut AlgoScratch, frontier: &mut [u32], len: &mut usize| {
        let mut m = s.avail[v as usize];
        while m != 0 {
            let k = m.trailing_zeros();
            m &= m - 1;
            let u = topo.neighbour_room(v, k);
            let new = !s.down[u as usize];
            s.down[u as usize] = true;
            frontier[*len] = u;
            *len += usize::from(new);
        }
    };
    add_frontier(start, s, &mut frontier, &mut len);
    let mut opened = 0;
    let mut bits = Bits::default();
    while len > 0 {
        let i = rng.below(len as u32) as usize;
        let v = frontier[i];
        len -= 1;
        frontier[i] = frontier[len];
        // Joined to a random neighbour already in the maze.
        let inside = topo.physical_mask(v) & !s.avail[v as usize];
        debug_assert!(inside != 0, "a frontier room touches the maze");
        tree.open(Tree::link(topo, v, bits.pick(rng, inside)));
        opened += 1;
        visit(topo, v, &mut s.visited, &mut s.avail);
        add_frontier(v, s, &mut frontier, &mut len);
    }
    s.stack = frontier;
    opened
}

pub(super) fn hunt_and_kill<T: Topology>(
    topo: &T,
    rng: &mut WarrenRng,
    s: &mut AlgoScratch,
    tree: &mut Tree,
) -> usize {
    let n = topo.slot_count() as u32;
    let mut v = random_room(topo, rng);
    visit(topo, v, &mut s.visited, &mut s.avail);
    let mut opened = 0;
    // Rooms below `from` are all visited (or holes): the hunt starts there.
    let mut from = 0u32;
    let mut bits = Bits::default();
    loop {
        let m = s.avail[v as usize];
        if m != 0 {
            v = grow_into(topo, v, m, &mut bits, rng, s, tree);
            opened += 1;
            continue;
        }
        // The hunt: the first unvisited room (in room order) next to the maze, joined to a
        // random neighbour in it.
        while from < n && (s.visited[from as usize] || !topo.is_room(from)) {
            from += 1;
        }
        let found = (from..n).find(|&u| {
            topo.is_room(u)
                && !s.visited[u as usize]
                && topo.physical_mask(u) & !s.avail[u as usize] != 0
        });
        let Some(u) = found else {
            return opened;
        };
        let inside = topo.physical_mask(u) & !s.avail[u as usize];
        tree.open(Tree::link(topo, u, bits.pick(rng, inside)));
        opened += 1;
        visit(topo, u, &mut s.visited, &mut s.avail);
        v = u;
    }
}

pub(super) fn growing_tree<T: Topology>(
    topo: &T,
    rooms: usize,
    newest: f64,
    rng: &mut WarrenRng,
    s: &mut AlgoScratch,
    tree: &mut Tree,
) -> usize {
    let start = random_room(topo, rng);
    visit(topo, start, &mut s.visited, &mut s.avail);
    // The active rooms twice: unordered in `active` (each at `pos[room]`), so a room leaves by
    // a swap; and in the order they came in `recent`, whose top is the newest once the rooms
    // that left are popped off it. PERF: one ordered list made leaving a shift, which was a
    // fifth of the maze's time (memmove).
    let mut active = std::mem::take(&mut s.stack);
    let mut recent = std::mem::take(&mut s.recent);
    let pos = &mut s.via32;
    pos.clear();
    pos.resize(topo.slot_count(), GONE);
    active.clear();
    recent.clear();
    pos[start as usize] = 0;
    active.push(start);
    recent.push(start);
    let mut opened = 0;
    let mut bits = Bits::default();
    // The newest with probability `newest`: a 32-bit draw below this.
    let newest_below = (newest * 4_294_967_296.0) as u64;
    // PERF: stops at the last passage; the active rooms left then are all spent.
    while opened + 1 < rooms && !active.is_empty() {
        // One draw: its low half tosses for the newest, its high half picks at random. PERF:
        // both rooms are looked up and one kept without a branch (the toss is a coin's).
        let r = rng.next_u64();
        let any = active[rng.below_from((r >> 32) as u32, active.len() as u32) as usize];
        let newest = recent[recent.len() - 1];
        let v = if (r & 0xFFFF_FFFF) < newest_below {
            newest
        } else {
            any
        };
        let m = s.avail[v as usize];
        if m == 0 {
            let i = pos[v as usize] as usize;
            let end = active.len() - 1;
            active.swap(i, end);
            pos[active[i] as usize] = i as u32;
            active.pop();
            pos[v as usize] = GONE;
            // The top of `recent` stays the newest active room.
            while recent.last().is_some_and(|&t| pos[t as usize] == GONE) {
                recent.pop();
            }
            continue;
        }
        let link = Tree::link(topo, v, bits.pick(rng, m));
        tree.open(link);
        visit(topo, link.b, &mut s.visited, &mut s.avail);
        opened += 1;
        pos[link.b as usize] = active.len() as u32;
        active.push(link.b);
        recent.push(link.b);
    }
    (s.stack, s.recent) = (active, recent);
    opened
}

/// A room not among growing-tree's active rooms.
const GONE: u32 = u32::MAX;
