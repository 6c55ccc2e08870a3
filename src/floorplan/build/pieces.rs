//! Large level graphs in pieces (issue 49): a graph of `PIECES_FROM` rooms or more is cut at
//! some of its bridges (connections on no cycle) into connected pieces of up to 20 rooms (the
//! `cut` module), which are laid out one after another, depth first from the largest
//! 2-edge-connected part. A piece's layout holds one more room per piece hanging off it (a
//! *stub*: the child's first room, across the bridge), which fixes where its child starts.
//! Each piece is laid out by the search alone over its own rooms, its first room fixed on its
//! stub and the rest of the level as obstacles ([`World`]), its drawing turned around the
//! stub to where the level leaves room ([`free_turns`]). A laid piece keeps its halo's rooms
//! (its pieces' first rooms, laid out with it) as places its pieces alone may take until they
//! are laid ([`Reserve`]). A piece that finds no place moves up to right after its parent,
//! ahead of the siblings laid since (taken up and laid again after it); when it finds none
//! there either, it takes its parent up again, which is laid out anew; when it fails once
//! more, its parent counts as failing where it lies, and so on up ([`retreat`]). When that
//! climb ends an attempt, the next lays the piece it began at out as part of its parent
//! ([`Regroup`]). The move
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
//! (`docs/map.md`); a piece's search backtracks over its own 20 rooms or so only, and a dead end
//! goes back a piece, not a room. Pieces laid out in free space and then moved as a whole onto
//! their stubs (tried first) did not fit: a parent's own rooms wrap around its stubs.

use super::cut::merged;
use super::order::{shortest_cycle, turn};
use super::plan::{Part, Piece, Plan};
use super::scratch::BuildScratch;
use super::search::{Failure, canonical_cycle, search};
use super::world::{CORRIDOR, RESERVED, Reserve, TURNS, World, cells_of, free_turns, room_box};
use crate::core::rng::WarrenRng;

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

/// The most rooms a piece grows to by taking in a piece of its that could not be laid out on
/// its own: when an attempt ends at a piece, the next lays that piece out as part of its
/// parent ([`Regroup`]). On the 1,000-room graphs of the module's notes, G = 1 to 20, seeds 0
/// to 2, against the build without it, side by side (2026-12-02): 58 of 60 against 56 (graph
/// 18's 28-room piece walled in by the 89-room first piece, now taken into it), p50 0.77 s
/// against 1.06 s; up to 150 rooms also 58 of 60; taken in for good (never given back) 56 of
/// 60, graph 3 losing two seeds to a grown piece that then ended every attempt. At 300 rooms
/// (200 runs each way) p99 1.35 s against 2.7 s, with 2-tile corridor rooms 1.06 s against
/// 2.1 s.
const MERGE_UP_TO: usize = 100;

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
    let mut regroup = Regroup::default();
    for attempt in 1..=LEVEL_ATTEMPTS.min(plan.max_attempts) {
        s.out.attempts = attempt;
        // Every piece steers by the whole graph's drawing: one turn and mirror per attempt,
        // or every level of the graph would have the same outline.
        inner.turn = Some(turn(plan, &mut rng));
        match lay_pieces(plan, regroup.pieces(pieces), &mut rng, s, &mut inner) {
            Ok(()) => {
                found = true;
                break;
            }
            Err(Some(c)) => regroup.ended_at(plan, c),
            Err(None) => {}
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

/// The pieces an attempt lays out: the plan's, or those after a piece whose failure ended an
/// attempt was taken into its parent ([`merged`]; each piece once, up to [`MERGE_UP_TO`]
/// rooms), undone when the grown piece ends an attempt in turn and cannot grow further.
#[derive(Default)]
struct Regroup {
    /// Per taking-in, the parts and pieces after it and the first room of the piece that grew
    /// (`u32::MAX` for the first piece).
    stack: Vec<(Vec<Part>, Vec<Piece>, u32)>,
    /// The first rooms of the pieces taken in so far.
    taken: Vec<u32>,
}

impl Regroup {
    /// The pieces to lay out now (`plan` the plan's own).
    fn pieces<'a>(&'a self, plan: &'a [Piece]) -> &'a [Piece] {
        self.stack.last().map_or(plan, |(_, pieces, _)| &pieces[..])
    }

    /// After an attempt ended at piece `c` of [`Regroup::pieces`]: takes `c` into its parent
    /// when it may, else undoes the last taking-in when `c` is the piece it grew.
    fn ended_at(&mut self, plan: &Plan, c: usize) {
        let Some(first) = plan.parts.as_deref() else {
            return;
        };
        let parts = self.stack.last().map_or(&first[..], |(p, _, _)| &p[..]);
        let id = |k: usize| parts[k].root.map_or(u32::MAX, |(_, b, _)| b);
        let fits = |p: usize| parts[p].members.len() + parts[c].members.len() <= MERGE_UP_TO;
        match parts[c].parent {
            Some(p) if fits(p) && !self.taken.contains(&id(c)) => {
                self.taken.push(id(c));
                let grown = id(p);
                let parts = merged(parts, c);
                let pieces = plan.pieces_of(&parts);
                self.stack.push((parts, pieces, grown));
            }
            _ if self.stack.last().is_some_and(|&(_, _, g)| g == id(c)) => {
                self.stack.pop();
            }
            _ => {}
        }
    }
}

/// One attempt: every piece laid out and joined in turn, depth first. A piece that finds no
/// place first moves up to right after its parent (with its own pieces), taking up the
/// parent's other pieces laid since, which come after it then; when it finds no place there
/// either, it takes its parent (and the pieces laid since) up, and the parent is laid out
/// again ([`retreat`]). `Err(Some(k))` when piece `k`'s failure climbed to the first piece,
/// `Err(None)` when the attempt's returns ran out.
fn lay_pieces(
    plan: &Plan,
    pieces: &[Piece],
    rng: &mut WarrenRng,
    s: &mut BuildScratch,
    inner: &mut BuildScratch,
) -> Result<(), Option<usize>> {
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
            return Err(None);
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
            return Err(Some(k));
        };
        while log.len() > keep {
            let undo = log.pop().expect("a laid piece");
            take_up(plan, pieces, order[log.len()], undo, s);
        }
        if size > 0 {
            bring_forward(&mut order, from, keep, size);
        }
    }
    Ok(())
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
