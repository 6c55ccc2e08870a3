//! Large level graphs in pieces (issue 49): a graph of [`PIECES_FROM`] rooms or more is cut
//! at some of its bridges (connections on no cycle) into connected pieces of up to
//! [`PIECE_ROOMS`] rooms, which are laid out one after another, depth first from the largest
//! 2-edge-connected part. A piece's layout holds one more room per piece hanging off it (a
//! *stub*: the child's first room, across the bridge), which fixes where its child starts.
//! Each piece is laid out by the search alone over its own rooms, its first room fixed on its
//! stub and the rest of the level as obstacles ([`World`]), its drawing turned around the
//! stub to where the level leaves room ([`free_turns`]). A laid piece keeps its halo's rooms
//! (its pieces' first rooms, laid out with it) as places its pieces alone may take until they
//! are laid ([`Reserve`]). A piece that finds no place moves up to right after its parent,
//! ahead of the siblings laid since (taken up and laid again after it); when it finds none
//! there either, it takes its parent up again, which is laid out anew; when it fails once
//! more, its parent counts as failing where it lies, and so on up ([`retreat`]). The move
//! alone (random planar graphs of 300 rooms, `scripts/map_scale.py --sizes 300 --corridors
//! none --one-by-one`, 200 layouts, one after the other against the build without it, before
//! the halo): p50 116 ms against 139 ms, p99 9.2 s against 14.5 s, slowest 10.4 s against
//! 43.3 s, mean 0.68 s against 1.02 s.
//!
//! The turns, the kept places and the climb, on the 1,000-room graphs of
//! `scripts/level_graphs.py random 1000 G`, G = 1 to 10, seeds 0 to 2, one run per layout, two
//! runs at a time on the 2 cores (2026-12-02): before them p50 4.6 s, mean 23.5 s, 28 of 30
//! within 120 s; the kept places and the climb alone p50 2.0 s, mean 11.3 s, 29 of 30; all
//! three (the turns without rolling on, [`TURNS`]) p50 0.48 s, mean 1.1 s, slowest 5.9 s, 30
//! of 30. What the turns mend: the rooms in a failing piece's way were nearly all its parent's
//! and grandparent's (with the rest of the level taken away, the same pieces laid out at
//! once). See `docs/map.md` for the runs one at a time.
//!
//! Why: in one search over a thousand rooms, the rooms a cycle needs may have been taken by
//! rooms placed hundreds of rooms earlier in the order, beyond anything a rewind takes up
//! (`docs/map.md`); a piece's search backtracks over its own 40 rooms only, and a dead end
//! goes back a piece, not a room. Pieces laid out in free space and then moved as a whole onto
//! their stubs (tried first) did not fit: a parent's own rooms wrap around its stubs.

use std::sync::Arc;

use super::order::{shortest_cycle, turn};
use super::plan::{Piece, Plan, Root};
use super::scratch::BuildScratch;
use super::search::{Failure, canonical_cycle, search};
use super::world::{CORRIDOR, RESERVED, Reserve, TURNS, World, cells_of, free_turns, room_box};
use crate::core::rng::WarrenRng;

/// Rooms from which a plan is laid out in pieces ([`Plan::split_into_pieces`]). Random planar
/// level graphs of 300 rooms (`scripts/map_scale.py --sizes 300`, 20 graphs, 10 layouts each)
/// laid out 400 of 400 in pieces, without corridors and with 2-tile corridor rooms, against
/// 396 of 400 by one search (the same build, side by side: 0.8 to 1.3 times the time a layout
/// on the median graph, 1.1 times on average). Graphs of 100 rooms lay out every seed in one
/// search (200 of 200) and keep it.
pub const PIECES_FROM: usize = 200;

/// The most rooms a piece grows to (a 2-edge-connected part of the graph larger than this is
/// one piece of its own).
const PIECE_ROOMS: usize = 40;

/// How far into each piece hanging off a piece its halo reaches (connections from the stub),
/// and the most rooms it takes there ([`Plan::halo`]). A piece's own rooms wrap around its
/// stubs: without a halo, 300-room graphs spent most of their time in searches of pieces
/// hemmed in by their parent, each failing after all its attempts. On random planar graphs of
/// 300 rooms (`scripts/map_scale.py`'s graphs, 20 graphs, 5 layouts each, in one process, the
/// builds side by side): no halo p50 88 ms, p99 10.9 s, mean 818 ms; depth 1 p50 57 ms, p99
/// 4.6 s, mean 447 ms; depth 2 p50 58 ms, p99 2.9 s, mean 303 ms; depth 3 p50 64 ms, p99
/// 2.8 s, mean 297 ms (10 layouts of each, other seeds: depth 2 p99 4.4 s, depth 3 3.6 s); 4
/// rooms at most at depth 2, p99 4.1 s; 8, 3.6 s; 12 at depth 3, 6.5 s.
const HALO_DEPTH: usize = 3;
/// The most rooms a halo takes per piece hanging off a piece (see [`HALO_DEPTH`] for the
/// measurements that chose it). With the turns and the kept places too, on the 1,000-room
/// graphs of the module's notes, G = 1 to 20, seeds 0 to 2, two runs at a time: 6 rooms 56 of
/// 60, p50 0.99 s, mean 3.9 s; 3 rooms 55 of 60, p50 1.16 s, mean 4.8 s.
const HALO_ROOMS: usize = 6;

/// Seeds of a piece's search tried before it takes its parent up again.
const JOIN_TRIES: u32 = 2;

/// Attempts of the whole level (each lays out every piece again), each with up to two
/// returns to a parent per piece; fewer when the plan allows fewer attempts
/// ([`Plan::max_attempts`], as the fuzz run's bounded builds set it).
const LEVEL_ATTEMPTS: u32 = 20;

/// Times a piece that failed right after its parent takes the parent up to be laid again
/// before the parent counts as failing where it lies ([`retreat`]). Before, a parent was laid
/// again for as long as the attempt's returns lasted: a small parent laid again changed
/// nothing for a large piece that its grandparent hemmed in (seed 1 of the 1,000-room graph 5:
/// 322 failures of one piece of 45 rooms under its parent of 4, 46 s).
const RELAYS: u32 = 1;

/// Attempts of a piece's own search per layout of it.
const PIECE_ATTEMPTS: u32 = 8;

impl Plan {
    /// Lays a graph of [`PIECES_FROM`] rooms or more out in pieces from now on, when it has
    /// bridges to cut and none of the controls that bind a level as a whole (repeat modes,
    /// bounds, a frame, fixed rooms, a complete search). Call after every setting of the plan:
    /// the pieces inherit them.
    pub fn split_into_pieces(&mut self) {
        let whole_level_rules = !self.repeat.is_empty()
            || self.bounds.is_some()
            || self.frame.is_some()
            || !self.fixed_rooms.is_empty()
            || self.exhaustive
            || !self.first_shapes.is_empty();
        if self.rooms() < PIECES_FROM || whole_level_rules {
            return;
        }
        self.split(PIECE_ROOMS);
    }

    /// Cuts the graph into pieces of up to `most` rooms where it can (none when it has no
    /// bridge to cut).
    pub(super) fn split(&mut self, most: usize) {
        let parts = partition(self, most);
        if parts.len() < 2 {
            return;
        }
        let mut part_of = vec![usize::MAX; self.rooms()];
        for (i, p) in parts.iter().enumerate() {
            for &v in &p.members {
                part_of[v as usize] = i;
            }
        }
        let pieces: Vec<Piece> = parts.iter().map(|p| self.piece(p, &part_of)).collect();
        self.pieces = Some(Arc::new(pieces));
    }

    /// A part's rooms and connections with its halo: per piece hanging off it, the rooms of
    /// that piece up to [`HALO_DEPTH`] connections from its stub (at most [`HALO_ROOMS`]),
    /// after `rooms`, and their connections to each other and to the stub, after `conns`.
    /// `local` gains the halo's rooms.
    fn halo(
        &self,
        part: &Part,
        part_of: &[usize],
        local: &mut [u32],
        rooms: &[u32],
        conns: &[u32],
    ) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
        let mut all_rooms = rooms.to_vec();
        let mut halo_of = Vec::new();
        for &b in &part.stubs {
            let child = part_of[b as usize];
            let mut frontier = vec![b];
            let mut added = 0;
            for _ in 0..HALO_DEPTH {
                let mut next = Vec::new();
                for &u in &frontier {
                    for &(w, _) in &self.adj[u as usize] {
                        let w_free = part_of[w as usize] == child && local[w as usize] == u32::MAX;
                        if w_free && added < HALO_ROOMS {
                            local[w as usize] = all_rooms.len() as u32;
                            all_rooms.push(w);
                            halo_of.push(child as u32);
                            next.push(w);
                            added += 1;
                        }
                    }
                }
                frontier = next;
            }
        }
        let mut all_conns = conns.to_vec();
        let first = rooms.len() as u32;
        for (j, &(a, b)) in self.conns.iter().enumerate() {
            let (la, lb) = (local[a as usize], local[b as usize]);
            if la != u32::MAX && lb != u32::MAX && (la >= first || lb >= first) {
                all_conns.push(j as u32);
            }
        }
        (all_rooms, all_conns, halo_of)
    }

    /// The plan of one part.
    fn piece(&self, part: &Part, part_of: &[usize]) -> Piece {
        let n = self.rooms();
        let mut local = vec![u32::MAX; n];
        let rooms: Vec<u32> = part.members.iter().chain(&part.stubs).copied().collect();
        for (i, &v) in rooms.iter().enumerate() {
            local[v as usize] = i as u32;
        }
        // A stub's only connection in the piece is its bridge.
        let is_stub = |v: u32| part.stubs.contains(&v);
        let mut conns = Vec::new();
        for (j, &(a, b)) in self.conns.iter().enumerate() {
            let (la, lb) = (local[a as usize], local[b as usize]);
            if la == u32::MAX || lb == u32::MAX || (is_stub(a) && is_stub(b)) {
                continue;
            }
            conns.push(j as u32);
        }
        // The halo, laid out with this piece but not kept: so that this piece's layout leaves
        // its pieces room to begin.
        let (rooms_all, all_conns, halo_of) = self.halo(part, part_of, &mut local, &rooms, &conns);
        let room_shapes = rooms_all
            .iter()
            .map(|&v| self.room_shapes[v as usize].clone())
            .collect();
        let local_conns = all_conns
            .iter()
            .map(|&j| {
                let (a, b) = self.conns[j as usize];
                (local[a as usize], local[b as usize])
            })
            .collect();
        let gap_set = all_conns
            .iter()
            .map(|&j| self.gap_set[j as usize])
            .collect();
        // The whole graph's drawing, so that every piece lies the way the whole graph's
        // drawing has it: away from its parent.
        let drawn = self.drawing.as_ref().map(|(x, y)| {
            let x: Vec<f32> = rooms_all.iter().map(|&v| x[v as usize]).collect();
            let y: Vec<f32> = rooms_all.iter().map(|&v| y[v as usize]).collect();
            (x, y)
        });
        let mut plan = Plan::with_catalogue(
            self.cat.clone(),
            room_shapes,
            local_conns,
            gap_set,
            self.min_distance,
            drawn.as_ref().map(|(x, y)| (&x[..], &y[..])),
        );
        plan.gap_set_b = all_conns
            .iter()
            .map(|&j| self.gap_set_b[j as usize])
            .collect();
        let effort = self.attempt_work as f64 / (500 + 60 * n) as f64;
        plan.attempt_work = (plan.attempt_work as f64 * effort.max(1.0)) as u32;
        plan.max_attempts = PIECE_ATTEMPTS;
        plan.max_rewinds = self.max_rewinds;
        plan.noise = self.noise;
        plan.shake = self.shake;
        plan.turn_spread = self.turn_spread;
        plan.max_retries = self.max_retries;
        // The first room goes first, on its stub.
        if let Some((_, b, _)) = part.root {
            plan.fixed_rooms = vec![local[b as usize]];
        }
        Piece {
            plan,
            rooms,
            conns,
            root: part.root.map(|(_, b, _)| Root {
                local: local[b as usize],
                b,
            }),
            parent: part.parent,
            halo_of,
        }
    }
}

/// A part of the graph: its rooms, the first rooms of the parts hanging off it, and its own
/// first room (`None` for the first part).
#[derive(Debug, Default)]
struct Part {
    members: Vec<u32>,
    stubs: Vec<u32>,
    /// The bridge to the parent: (the parent's room, the first room, the connection).
    root: Option<(u32, u32, u32)>,
    /// The parent part.
    parent: Option<usize>,
}

/// The graph cut at bridges into connected parts of up to `most` rooms where it can be (a
/// 2-edge-connected part larger than that stays whole), parents before their children.
fn partition(plan: &Plan, most: usize) -> Vec<Part> {
    let n = plan.rooms();
    let bridge = bridges(plan);
    let (comp, size) = components(plan, &bridge);
    let k = size.len();
    // The tree of components, from the largest, breadth first; per component the bridge to
    // its parent as (parent-side room, own-side room).
    let root = (0..k).max_by_key(|&c| (size[c], k - c)).unwrap_or(0);
    let mut up: Vec<Option<(u32, u32, u32)>> = vec![None; k];
    let mut seen = vec![false; k];
    let mut bfs = vec![root];
    seen[root] = true;
    let mut i = 0;
    while i < bfs.len() {
        let c = bfs[i];
        i += 1;
        for (j, &(a, b)) in plan.conns.iter().enumerate() {
            if !bridge[j] {
                continue;
            }
            let (ca, cb) = (comp[a as usize] as usize, comp[b as usize] as usize);
            let (other, near, far) = match (ca == c, cb == c) {
                (true, false) => (cb, a, b),
                (false, true) => (ca, b, a),
                _ => continue,
            };
            if !seen[other] {
                seen[other] = true;
                up[other] = Some((near, far, j as u32));
                bfs.push(other);
            }
        }
    }
    let parent = |c: usize| up[c].map(|(near, _, _)| comp[near as usize] as usize);
    // Children before parents: each component keeps as many of its children's open rooms as
    // fit, cutting the largest off first.
    let mut open = size.clone();
    let mut cut = vec![false; k];
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); k];
    for &c in bfs.iter().skip(1) {
        if let Some(p) = parent(c) {
            children[p].push(c);
        }
    }
    for &c in bfs.iter().rev() {
        let mut kids = children[c].clone();
        kids.sort_by_key(|&d| (std::cmp::Reverse(open[d]), d));
        let mut total = size[c] + kids.iter().map(|&d| open[d]).sum::<usize>();
        for &d in &kids {
            if total <= most {
                break;
            }
            cut[d] = true;
            total -= open[d];
        }
        open[c] = total;
    }
    // Parts, in breadth-first order of their first components.
    let mut part_of = vec![usize::MAX; k];
    let mut parts: Vec<Part> = Vec::new();
    for &c in &bfs {
        match parent(c) {
            Some(p) if !cut[c] => part_of[c] = part_of[p],
            p => {
                part_of[c] = parts.len();
                let root = up[c];
                parts.push(Part {
                    root,
                    ..Part::default()
                });
                if let (Some(p), Some((_, b, _))) = (p, root) {
                    let into = part_of[p];
                    parts[into].stubs.push(b);
                    let last = parts.len() - 1;
                    parts[last].parent = Some(into);
                }
            }
        }
    }
    for v in 0..n {
        parts[part_of[comp[v] as usize]].members.push(v as u32);
    }
    depth_first(parts)
}

/// `parts` (parents before children) in depth-first preorder, so that the parts laid out since
/// a part are its descendants: a child that finds no place takes its parent up alone.
fn depth_first(mut parts: Vec<Part>) -> Vec<Part> {
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); parts.len()];
    for (i, p) in parts.iter().enumerate() {
        if let Some(q) = p.parent {
            children[q].push(i);
        }
    }
    let mut order = Vec::with_capacity(parts.len());
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        order.push(i);
        stack.extend(children[i].iter().rev());
    }
    let mut new_index = vec![0usize; parts.len()];
    for (k, &i) in order.iter().enumerate() {
        new_index[i] = k;
    }
    let mut out: Vec<Part> = order
        .iter()
        .map(|&i| std::mem::take(&mut parts[i]))
        .collect();
    for p in &mut out {
        p.parent = p.parent.map(|q| new_index[q]);
    }
    out
}

/// The 2-edge-connected components (the graph without its bridges): per room its component,
/// and per component its rooms.
fn components(plan: &Plan, bridge: &[bool]) -> (Vec<u32>, Vec<usize>) {
    let n = plan.rooms();
    let mut comp = vec![u32::MAX; n];
    let mut size: Vec<usize> = Vec::new();
    let mut stack = Vec::new();
    for v in 0..n {
        if comp[v] != u32::MAX {
            continue;
        }
        let c = size.len() as u32;
        size.push(0);
        comp[v] = c;
        stack.push(v as u32);
        while let Some(u) = stack.pop() {
            size[c as usize] += 1;
            for &(w, j) in &plan.adj[u as usize] {
                if !bridge[j as usize] && comp[w as usize] == u32::MAX {
                    comp[w as usize] = c;
                    stack.push(w);
                }
            }
        }
    }
    (comp, size)
}

/// Per connection, whether it is a bridge (on no cycle): Tarjan's low points, iteratively.
fn bridges(plan: &Plan) -> Vec<bool> {
    let n = plan.rooms();
    let mut bridge = vec![false; plan.conns.len()];
    let mut index = vec![u32::MAX; n];
    let mut low = vec![0u32; n];
    let mut next = 0u32;
    // (room, the connection it was reached by, the next neighbour slot to look at).
    let mut stack: Vec<(u32, u32, usize)> = Vec::new();
    for s in 0..n {
        if index[s] != u32::MAX {
            continue;
        }
        index[s] = next;
        low[s] = next;
        next += 1;
        stack.push((s as u32, u32::MAX, 0));
        while let Some(&mut (v, by, ref mut slot)) = stack.last_mut() {
            let adj = &plan.adj[v as usize];
            if *slot < adj.len() {
                let (w, j) = adj[*slot];
                *slot += 1;
                if j == by {
                    continue;
                }
                if index[w as usize] == u32::MAX {
                    index[w as usize] = next;
                    low[w as usize] = next;
                    next += 1;
                    stack.push((w, j, 0));
                } else {
                    low[v as usize] = low[v as usize].min(index[w as usize]);
                }
                continue;
            }
            stack.pop();
            if let Some(&(p, _, _)) = stack.last() {
                low[p as usize] = low[p as usize].min(low[v as usize]);
                if low[v as usize] > index[p as usize] {
                    bridge[by as usize] = true;
                }
            }
        }
    }
    bridge
}

/// Builds a layout for `plan` from `seed`, or says where it failed after bounded work: piece
/// by piece for a plan split into pieces ([`Plan::split_into_pieces`]), else by one search
/// over the whole graph.
pub fn build(plan: &Plan, seed: u64, s: &mut BuildScratch) -> Result<(), Failure> {
    match &plan.pieces {
        Some(pieces) => build_in_pieces(plan, pieces, seed, s),
        None => search(plan, seed, s),
    }
}

/// Builds a layout of `plan` piece by piece (see the module), or says where it failed.
fn build_in_pieces(
    plan: &Plan,
    pieces: &[Piece],
    seed: u64,
    s: &mut BuildScratch,
) -> Result<(), Failure> {
    let n = plan.rooms();
    s.out.reset(n, plan.conns.len());
    s.room_dead.clear();
    s.room_dead.resize(n, 0);
    let mut inner = s.piece.take().unwrap_or_default();
    let mut rng = WarrenRng::new(seed);
    let mut found = false;
    for attempt in 1..=LEVEL_ATTEMPTS.min(plan.max_attempts) {
        s.out.attempts = attempt;
        // Every piece steers by the whole graph's drawing: one turn and mirror per attempt,
        // or every level of the graph would have the same outline.
        inner.turn = Some(turn(plan, &mut rng));
        if lay_pieces(plan, pieces, &mut rng, s, &mut inner) {
            found = true;
            break;
        }
    }
    s.piece = Some(inner);
    if found {
        return Ok(());
    }
    let room = (0..n).max_by_key(|&v| (s.room_dead[v], n - v)).unwrap_or(0);
    Err(Failure {
        proved: false,
        work: u64::from(s.out.work),
        attempts: s.out.attempts,
        room: room as u32,
        dead_ends: s.room_dead[room],
        cycle: canonical_cycle(shortest_cycle(plan, room as u32)),
    })
}

/// One attempt: every piece laid out and joined in turn, depth first. A piece that finds no
/// place first moves up to right after its parent (with its own pieces), taking up the
/// parent's other pieces laid since, which come after it then; when it finds no place there
/// either, it takes its parent (and the pieces laid since) up, and the parent is laid out
/// again. Up to two of these per piece; `false` when they run out.
fn lay_pieces(
    plan: &Plan,
    pieces: &[Piece],
    rng: &mut WarrenRng,
    s: &mut BuildScratch,
    inner: &mut BuildScratch,
) -> bool {
    s.placed.clear();
    s.placed.resize(plan.rooms(), false);
    s.corridors.clear();
    s.reserved.clear();
    s.laid.clear();
    s.laid.resize(pieces.len(), false);
    s.cells.values_mut().for_each(Vec::clear);
    // The pieces in the order they are laid (depth first, a piece's own pieces right after
    // it), and per piece how many pieces its subtree holds (itself included).
    let mut order: Vec<usize> = (0..pieces.len()).collect();
    let subtree = subtree_sizes(pieces);
    let mut moved = vec![false; pieces.len()];
    let mut relaid = vec![0u32; pieces.len()];
    let mut failed = vec![0u32; pieces.len()];
    let mut log: Vec<Undo> = Vec::with_capacity(pieces.len());
    let mut backtracks = 2 * pieces.len();
    while log.len() < pieces.len() {
        let k = order[log.len()];
        if let Some(undo) = lay_piece(plan, pieces, (k, failed[k]), rng, s, inner) {
            log.push(undo);
            continue;
        }
        failed[k] += 1;
        if backtracks == 0 {
            return false;
        }
        backtracks -= 1;
        let Some((keep, from, size)) = retreat(
            pieces,
            &order,
            &subtree,
            &mut moved,
            &mut relaid,
            k,
            log.len(),
        ) else {
            return false;
        };
        while log.len() > keep {
            let undo = log.pop().expect("a laid piece");
            take_up(plan, pieces, order[log.len()], undo, s);
        }
        if size > 0 {
            bring_forward(&mut order, from, keep, size);
        }
    }
    true
}

/// Where to go back to when piece `k`, at `order[here]`, finds no place: `(keep, from, size)`,
/// the pieces from `order[keep]` on taken up and, when `size > 0`, the `size` pieces from
/// `order[from]` (a piece and its own pieces) brought forward to `order[keep]`; `None` when
/// the failure reaches the first piece. A piece not yet moved moves up to right after its
/// parent; one that has moved takes its parent up to be laid again, up to [`RELAYS`] times;
/// after that the parent counts as failing where it lies (moved up itself, or its own parent
/// laid again), and so on up the tree.
fn retreat(
    pieces: &[Piece],
    order: &[usize],
    subtree: &[usize],
    moved: &mut [bool],
    relaid: &mut [u32],
    mut k: usize,
    mut here: usize,
) -> Option<(usize, usize, usize)> {
    loop {
        let parent = pieces[k].parent?;
        let at = order[..here]
            .iter()
            .position(|&q| q == parent)
            .expect("a parent is laid before its pieces");
        if !moved[k] && here > at + 1 {
            moved[k] = true;
            return Some((at + 1, here, subtree[k]));
        }
        if relaid[k] < RELAYS {
            relaid[k] += 1;
            return Some((at, at, 0));
        }
        relaid[k] = 0;
        k = parent;
        here = at;
    }
}

/// Moves the `size` pieces from `order[from]` (a piece and its own pieces) to `order[to]`,
/// the pieces between coming after them.
fn bring_forward(order: &mut [usize], from: usize, to: usize, size: usize) {
    order[to..from + size].rotate_right(size);
}

/// Per piece (parents before their pieces, depth first), the pieces of its subtree, itself
/// included.
fn subtree_sizes(pieces: &[Piece]) -> Vec<usize> {
    let mut size = vec![1; pieces.len()];
    for k in (1..pieces.len()).rev() {
        if let Some(p) = pieces[k].parent {
            size[p] += size[k];
        }
    }
    size
}

/// What laying a piece changed beyond its own rooms: where its corridors and the places it
/// keeps for its pieces begin in `s.corridors` and `s.reserved`.
#[derive(Clone, Copy, Debug)]
struct Undo {
    corridors: usize,
    reserved: usize,
}

/// Lays `piece` out where the rest of the level leaves room (its first room on its stub),
/// trying [`JOIN_TRIES`] seeds; what to undo, or `None`.
fn lay_piece(
    plan: &Plan,
    pieces: &[Piece],
    (k, failed): (usize, u32),
    rng: &mut WarrenRng,
    s: &mut BuildScratch,
    inner: &mut BuildScratch,
) -> Option<Undo> {
    let piece = &pieces[k];
    if let Some(r) = piece.root {
        let b = r.b as usize;
        inner.force = Some((r.local, s.out.shape[b], s.out.x[b], s.out.y[b]));
        inner.world = Some(World {
            cells: std::mem::take(&mut s.cells),
            shape: std::mem::take(&mut s.out.shape),
            x: std::mem::take(&mut s.out.x),
            y: std::mem::take(&mut s.out.y),
            corridors: std::mem::take(&mut s.corridors),
            skip: r.b,
            reserved: std::mem::take(&mut s.reserved),
            laid: std::mem::take(&mut s.laid),
            piece: k as u32,
        });
    }
    let level_turn = inner.turn;
    let turns = match (piece.root, &inner.world, level_turn) {
        (Some(r), Some(w), Some(t)) => free_turns(&piece.plan, r, w, t),
        _ => Vec::new(),
    };
    let mut laid = false;
    let mut work = 0u32;
    for t in 0..JOIN_TRIES {
        if let Some(&turn) = turns.get(((t + failed * JOIN_TRIES) as usize) % TURNS) {
            inner.turn = Some(turn);
        }
        let result = search(&piece.plan, rng.next_u64(), inner);
        work = work.saturating_add(inner.out.work);
        match result {
            Ok(()) => {
                laid = true;
                break;
            }
            Err(f) => {
                if let Some(&v) = piece.rooms.get(f.room as usize) {
                    s.room_dead[v as usize] += f.dead_ends.max(1);
                }
            }
        }
    }
    inner.turn = level_turn;
    s.out.work = s.out.work.saturating_add(work);
    inner.force = None;
    if let Some(w) = inner.world.take() {
        s.cells = w.cells;
        s.out.shape = w.shape;
        s.out.x = w.x;
        s.out.y = w.y;
        s.corridors = w.corridors;
        s.reserved = w.reserved;
        s.laid = w.laid;
    }
    if !laid {
        return None;
    }
    let undo = Undo {
        corridors: s.corridors.len(),
        reserved: s.reserved.len(),
    };
    commit(plan, piece, inner, s);
    s.laid[k] = true;
    Some(undo)
}

/// Takes a laid piece up again: its rooms, corridors and kept places out of the layout and
/// the cells.
fn take_up(plan: &Plan, pieces: &[Piece], k: usize, undo: Undo, s: &mut BuildScratch) {
    let piece = &pieces[k];
    s.laid[k] = false;
    for i in (undo.reserved..s.reserved.len()).rev() {
        let r = s.reserved[i];
        let e = RESERVED | i as u32;
        for cell in cells_of(&room_box(plan, r.shape, (r.x, r.y))) {
            if let Some(there) = s.cells.get_mut(&cell) {
                there.retain(|&x| x != e);
            }
        }
    }
    s.reserved.truncate(undo.reserved);
    let root = piece.root.map(|r| r.local as usize);
    for (r, &v) in piece.rooms.iter().enumerate() {
        if Some(r) == root {
            continue;
        }
        let u = v as usize;
        let area = room_box(plan, s.out.shape[u], (s.out.x[u], s.out.y[u]));
        for cell in cells_of(&area) {
            if let Some(there) = s.cells.get_mut(&cell) {
                there.retain(|&e| e != v);
            }
        }
        s.placed[u] = false;
    }
    for k in (undo.corridors..s.corridors.len()).rev() {
        let (c, _) = s.corridors[k];
        let e = CORRIDOR | k as u32;
        for cell in cells_of(&c) {
            if let Some(there) = s.cells.get_mut(&cell) {
                there.retain(|&x| x != e);
            }
        }
    }
    s.corridors.truncate(undo.corridors);
}

/// Places the piece's layout in `inner` (laid out where the rest of the level leaves room)
/// into the whole layout.
fn commit(plan: &Plan, piece: &Piece, inner: &BuildScratch, s: &mut BuildScratch) {
    let root = piece.root.map(|r| r.local as usize);
    let out = &inner.out;
    for (r, &v) in piece.rooms.iter().enumerate() {
        if Some(r) == root {
            continue;
        }
        let v = v as usize;
        s.out.shape[v] = out.shape[r];
        s.out.x[v] = out.x[r];
        s.out.y[v] = out.y[r];
        s.placed[v] = true;
        let area = room_box(plan, out.shape[r], (out.x[r], out.y[r]));
        for cell in cells_of(&area) {
            s.cells.entry(cell).or_default().push(v as u32);
        }
    }
    for (lj, &j) in piece.conns.iter().enumerate() {
        let link = out.links[lj];
        s.out.links[j as usize] = link;
        if let Some(c) = link.corridor() {
            let e = CORRIDOR | s.corridors.len() as u32;
            s.corridors.push((c, j));
            for cell in cells_of(&c) {
                s.cells.entry(cell).or_default().push(e);
            }
        }
    }
    // The halo's rooms: places kept for the pieces they belong to.
    for (h, &owner) in piece.halo_of.iter().enumerate() {
        let r = piece.rooms.len() + h;
        let e = RESERVED | s.reserved.len() as u32;
        s.reserved.push(Reserve {
            shape: out.shape[r],
            x: out.x[r],
            y: out.y[r],
            owner,
        });
        let area = room_box(plan, out.shape[r], (out.x[r], out.y[r]));
        for cell in cells_of(&area) {
            s.cells.entry(cell).or_default().push(e);
        }
    }
}

#[cfg(test)]
#[path = "pieces_tests.rs"]
mod tests;
