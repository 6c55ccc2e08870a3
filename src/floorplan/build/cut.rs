//! Cutting a large level graph into pieces (issue 49): at some of its bridges (connections on
//! no cycle) into connected pieces of up to [`PIECE_ROOMS`] rooms, parents before their pieces,
//! depth first from the largest 2-edge-connected part, each with the plan its search runs
//! ([`Plan::split_into_pieces`]); and a piece laid out as part of its parent when it cannot be
//! laid out on its own ([`Plan::merged`]). How the pieces are laid out: the `pieces` module.

use std::sync::Arc;

use super::plan::{Part, Piece, Plan, Root};

/// Rooms from which a plan is laid out in pieces ([`Plan::split_into_pieces`]). Random planar
/// level graphs of 300 rooms (`scripts/map_scale.py --sizes 300`, 20 graphs, 10 layouts each)
/// laid out 400 of 400 in pieces, without corridors and with 2-tile corridor rooms, against
/// 396 of 400 by one search (the same build, side by side: 0.8 to 1.3 times the time a layout
/// on the median graph, 1.1 times on average). Graphs of 100 rooms lay out every seed in one
/// search (200 of 200) and keep it.
pub const PIECES_FROM: usize = 200;

/// The most rooms a piece grows to (a 2-edge-connected part of the graph larger than this is
/// one piece of its own). Measured, not explained: on graph 12 of the 1,000-room graphs of the
/// `pieces` module's notes, the piece that ended most attempts with 40 (its 38-room block of
/// cycles, which stays one piece either way) ran out of work in all its attempts even when laid
/// right after a first piece of 20 rooms, the rest of the level empty; with 20, graph 12 fails
/// 3 of its 12 runs (seeds 0 to 5, with and without corridors) instead of 7.
/// On those graphs, G = 1 to 20, seeds 0 to 5, one run per layout, two at a time (2026-12-02,
/// the same build and session, 120 runs a row): without corridors 20 rooms laid out 117 against
/// 115 for 40 (mean run 2.27 against 2.78 s), with 2-tile corridor rooms 115 against 111 (mean
/// 3.42 s both); each of the four sets of 60 gained 1 or 2. On ten of the hardest of those runs
/// 20 laid out 10, 25 seven, 30 nine, 40 eight, 60 three. At 300 rooms (200 runs each way, side
/// by side) p99 690 against 928 ms without corridors, 768 against 636 ms with them, means
/// within 5%.
const PIECE_ROOMS: usize = 20;

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

/// Attempts of a piece's own search per layout of it. On the 1,000-room graphs of the
/// `pieces` module's notes, G = 1 to 20, seeds 0 to 2, two runs at a time (2026-12-02): 8
/// attempts laid out 58 of 60, p50 0.87 s, mean 3.8 s; 12 laid out 59, p50 1.0 s, mean 5.7 s;
/// 16 laid out 59, p50 1.15 s, mean 6.0 s; 4 and 2 laid out 14 and 10 of graphs 1 to 5's 15
/// (33 of 37 and 29 of 39 when stopped). More attempts trade time for graph 12's seeds and
/// lose graph 18's.
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
        self.pieces = Some(Arc::new(self.pieces_of(&parts)));
        self.parts = Some(Arc::new(parts));
    }

    /// The pieces of `parts` (a partition of the graph's rooms, parents before their parts,
    /// depth first), each with its plan.
    pub(super) fn pieces_of(&self, parts: &[Part]) -> Vec<Piece> {
        let mut part_of = vec![usize::MAX; self.rooms()];
        for (i, p) in parts.iter().enumerate() {
            for &v in &p.members {
                part_of[v as usize] = i;
            }
        }
        parts.iter().map(|p| self.piece(p, &part_of)).collect()
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

/// `parts` with part `c` taken into its parent: the parent gains `c`'s rooms, `c`'s stub
/// becomes one of them, and the parts hanging off `c` hang off the parent (still depth
/// first: they took `c`'s place in the order). `parts` unchanged for the first part.
pub(super) fn merged(parts: &[Part], c: usize) -> Vec<Part> {
    let Some(p) = parts[c].parent else {
        return parts.to_vec();
    };
    let first = parts[c].root.map(|(_, b, _)| b);
    let mut out = Vec::with_capacity(parts.len() - 1);
    for (i, part) in parts.iter().enumerate() {
        if i == c {
            continue;
        }
        let mut q = part.clone();
        if i == p {
            q.members.extend(&parts[c].members);
            q.stubs.retain(|&b| Some(b) != first);
            q.stubs.extend(&parts[c].stubs);
        }
        q.parent = q.parent.map(|up| match up {
            up if up == c => p,
            up if up > c => up - 1,
            up => up,
        });
        out.push(q);
    }
    out
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

#[cfg(test)]
#[path = "cut_tests.rs"]
mod tests;
