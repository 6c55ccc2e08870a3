//! Proofs, made before any search, that a cycle of the level graph can never close: Edgar's
//! warnings about odd cycles and about templates without doors on all four sides, where they
//! can be proofs rather than warnings.
//!
//! - [`lattice_cycle`]: the doors of the rooms' templates only allow steps from room to room
//!   that can never add up to zero around the cycle. Every step between two rooms is the offset
//!   between their shapes' centres, which the doors' places fix up to a lattice of small
//!   variations (a door sliding along its wall, another template, another corridor length); a
//!   cycle whose fixed parts do not sum into that lattice cannot close. Rooms of one size with
//!   a single door in the middle of each wall are the classic case: every step is a whole room
//!   across, so a cycle of an odd number of rooms never closes (Edgar's docs call odd cycles
//!   hard; with such rooms they are impossible).
//! - [`blocked_cycle`]: rectangle rooms whose doors let each room on a cycle lie only east or
//!   south of the one before it (or only within another quarter of the compass), all the way
//!   round. A room reached through a door facing east or south blocks the room before it from
//!   moving south-east, and among convex shapes with disjoint interiors that relation has no
//!   cycle (Guibas and Yao, 1980: such shapes can always be moved away one at a time in any
//!   direction). Edgar warns when no template has doors on all four sides.
//!
//! Both see connections through straight corridors (the builder's only kind) as well as rooms
//! that touch.

use crate::floorplan::build::Gaps;
use crate::floorplan::shape::{Shape, side};

/// A subgroup of Z², in Hermite normal form: its elements are `i * (a, b) + j * (0, c)`, with
/// `a >= 0`, `c >= 0`, `b = 0` when `a = 0`, and `0 <= b < c` when `c > 0`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Lattice {
    a: i64,
    b: i64,
    c: i64,
}

impl Lattice {
    /// Adds a generator.
    pub(crate) fn add(&mut self, (mut x, mut y): (i64, i64)) {
        let (mut a, mut b) = (self.a, self.b);
        // Euclid on the first coordinates of (a, b) and (x, y).
        while x != 0 {
            let q = a / x;
            (a, b) = (a - q * x, b - q * y);
            std::mem::swap(&mut a, &mut x);
            std::mem::swap(&mut b, &mut y);
        }
        let mut c = gcd(self.c, y);
        if a < 0 {
            (a, b) = (-a, -b);
        }
        if a == 0 {
            c = gcd(c, b);
            b = 0;
        }
        if c > 0 {
            b = b.rem_euclid(c);
        }
        *self = Lattice { a, b, c };
    }

    /// Whether `(x, y)` is in the lattice.
    pub(crate) fn contains(&self, (x, y): (i64, i64)) -> bool {
        let divides = |c: i64, v: i64| if c == 0 { v == 0 } else { v % c == 0 };
        if self.a == 0 {
            return x == 0 && divides(self.c, y);
        }
        x % self.a == 0 && divides(self.c, y - (x / self.a) * self.b)
    }

    /// The smallest representative of `(x, y)` modulo the lattice: `0 <= x < a` when `a > 0`,
    /// then `0 <= y < c` when `c > 0`.
    pub(crate) fn reduce(&self, (mut x, mut y): (i64, i64)) -> (i64, i64) {
        if self.a > 0 {
            let i = x.div_euclid(self.a);
            (x, y) = (x - i * self.a, y - i * self.b);
        }
        if self.c > 0 {
            y = y.rem_euclid(self.c);
        }
        (x, y)
    }

    /// Whether the lattice is all of Z² (then it proves nothing).
    pub(crate) fn is_everything(&self) -> bool {
        self.a == 1 && self.c == 1
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// A cycle that can never close: its rooms in order (the last joined to the first) and why, in
/// words that follow "can never close: ".
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Unclosable {
    /// Room indices around the cycle.
    pub rooms: Vec<u32>,
    /// The reason.
    pub why: String,
}

/// Per room, per (side, door length): the first door's anchor (in doubled coordinates, from
/// its shape's centre), or nothing.
type Anchors = Vec<((u8, u32), (i64, i64))>;

/// The doubled anchor of a door starting at tile `t` along side `d` of `shape`: the door's first
/// tile minus the shape's centre, times two.
fn anchor(shape: &Shape, d: &crate::floorplan::shape::DoorSide, t: i32) -> (i64, i64) {
    let (x, y) = if side::vertical(d.side) {
        (d.fixed, t)
    } else {
        (t, d.fixed)
    };
    (
        2 * i64::from(x) - i64::from(shape.w),
        2 * i64::from(y) - i64::from(shape.h),
    )
}

/// One unit along the wall of side `s`, doubled.
fn along(s: u8) -> (i64, i64) {
    if side::vertical(s) { (0, 2) } else { (2, 0) }
}

fn sub(p: (i64, i64), q: (i64, i64)) -> (i64, i64) {
    (p.0 - q.0, p.1 - q.1)
}

fn add(p: (i64, i64), q: (i64, i64)) -> (i64, i64) {
    (p.0 + q.0, p.1 + q.1)
}

fn times(k: i64, (x, y): (i64, i64)) -> (i64, i64) {
    (k * x, k * y)
}

/// The lattice proof: a cycle whose steps, fixed by the doors up to a lattice of variations,
/// cannot sum to zero; `None` when every cycle can (as far as this argument sees).
pub(crate) fn lattice_cycle(
    conns: &[(u32, u32)],
    shapes: &[Shape],
    room_shapes: &[Vec<u32>],
    gaps: &[Gaps],
) -> Option<Unclosable> {
    let mut free = Lattice::default();
    // Each room's first anchor per (side, length); every other anchor of that class differs
    // from it by a variation.
    let mut anchors: Vec<Anchors> = Vec::with_capacity(room_shapes.len());
    for allowed in room_shapes {
        let mut firsts: Anchors = Vec::new();
        for &s in allowed {
            let shape = &shapes[s as usize];
            for d in &shape.doors {
                let at = anchor(shape, d, d.lo);
                match firsts.iter().find(|f| f.0 == (d.side, d.len)) {
                    Some(f) => free.add(sub(at, f.1)),
                    None => firsts.push(((d.side, d.len), at)),
                }
                if d.hi > d.lo {
                    free.add(along(d.side));
                }
            }
        }
        if free.is_everything() {
            return None;
        }
        anchors.push(firsts);
    }
    // Each connection's first step, and the variations among its steps.
    let mut steps: Vec<(i64, i64)> = Vec::with_capacity(conns.len());
    for (j, &(a, b)) in conns.iter().enumerate() {
        let g0 = i64::from(gaps[j].ranges.first()?.0);
        let mut first: Option<(i64, i64)> = None;
        for &((s, len), at) in &anchors[a as usize] {
            let back = (side::opposite(s), len);
            let Some(&(_, bt)) = anchors[b as usize].iter().find(|f| f.0 == back) else {
                continue;
            };
            let (nx, ny) = side::normal(s);
            let normal = (2 * i64::from(nx), 2 * i64::from(ny));
            let step = add(sub(at, bt), times(g0, normal));
            for &(lo, hi) in &gaps[j].ranges {
                free.add(times(i64::from(lo) - g0, normal));
                if hi > lo {
                    free.add(normal);
                }
            }
            match first {
                Some(f) => free.add(sub(step, f)),
                None => first = Some(step),
            }
        }
        // A connection with no door pair is refused by `no_door_between` first.
        steps.push(first?);
        if free.is_everything() {
            return None;
        }
    }
    let (rooms, off) = unbalanced_cycle(room_shapes.len(), conns, &steps, &free)?;
    Some(Unclosable {
        rooms,
        why: match free == Lattice::default() {
            true => format!(
                "their templates' doors fix every step from room to room around it, and the \
                 steps add up to {} tiles, not (0, 0)",
                half(off)
            ),
            false => format!(
                "wherever their templates' doors put them, the steps from room to room around \
                 it add up to {} tiles, plus whole multiples of {}, and never to (0, 0)",
                half(free.reduce(off)),
                generators(&free)
            ),
        },
    })
}

/// A cycle (rooms in order) whose steps sum to something outside `free`, with that sum: the
/// fundamental cycle of a breadth-first spanning tree.
fn unbalanced_cycle(
    n: usize,
    conns: &[(u32, u32)],
    steps: &[(i64, i64)],
    free: &Lattice,
) -> Option<(Vec<u32>, (i64, i64))> {
    let mut adj: Vec<Vec<(u32, usize)>> = vec![Vec::new(); n];
    for (j, &(a, b)) in conns.iter().enumerate() {
        adj[a as usize].push((b, j));
        adj[b as usize].push((a, j));
    }
    let mut at: Vec<Option<(i64, i64)>> = vec![None; n];
    let mut parent: Vec<(u32, usize)> = vec![(u32::MAX, usize::MAX); n];
    let mut depth = vec![0u32; n];
    for root in 0..n {
        if at[root].is_some() {
            continue;
        }
        at[root] = Some((0, 0));
        let mut queue = std::collections::VecDeque::from([root as u32]);
        while let Some(u) = queue.pop_front() {
            let pu = at[u as usize]?;
            for &(v, j) in &adj[u as usize] {
                // The step from u to v.
                let step = if conns[j].0 == u {
                    steps[j]
                } else {
                    times(-1, steps[j])
                };
                match at[v as usize] {
                    None => {
                        at[v as usize] = Some(add(pu, step));
                        parent[v as usize] = (u, j);
                        depth[v as usize] = depth[u as usize] + 1;
                        queue.push_back(v);
                    }
                    Some(pv) => {
                        let off = sub(add(pu, step), pv);
                        if parent[u as usize].1 != j && !free.contains(off) {
                            return Some((tree_cycle(u, v, &parent, &depth), off));
                        }
                    }
                }
            }
        }
    }
    None
}

/// The cycle through tree paths from `u` and `v` to their common ancestor and the edge `u - v`:
/// `u`, up to the ancestor, down to `v`.
fn tree_cycle(u: u32, v: u32, parent: &[(u32, usize)], depth: &[u32]) -> Vec<u32> {
    let (mut x, mut y) = (u, v);
    let (mut up, mut down) = (vec![x], vec![y]);
    while x != y {
        if depth[x as usize] >= depth[y as usize] {
            x = parent[x as usize].0;
            up.push(x);
        } else {
            y = parent[y as usize].0;
            down.push(y);
        }
    }
    down.pop();
    up.extend(down.into_iter().rev());
    up
}

/// A doubled vector in tiles: `(7, -3.5)`.
fn half((x, y): (i64, i64)) -> String {
    let one = |v: i64| {
        if v % 2 == 0 {
            (v / 2).to_string()
        } else {
            format!("{:.1}", v as f64 / 2.0)
        }
    };
    format!("({}, {})", one(x), one(y))
}

/// The lattice's generators in tiles: `(7, 7) and (0, 14)`.
fn generators(l: &Lattice) -> String {
    match (l.a, l.c) {
        (0, c) => half((0, c)),
        (a, 0) => half((a, l.b)),
        (a, c) => format!("{} and {}", half((a, l.b)), half((0, c))),
    }
}

/// The quarter-turn proof: rectangle rooms around a cycle, each reachable from the one before
/// only through doors facing two neighbouring directions (east or south, south or west, ...).
pub(crate) fn blocked_cycle(
    conns: &[(u32, u32)],
    shapes: &[Shape],
    room_shapes: &[Vec<u32>],
) -> Option<Unclosable> {
    // Per room: whether every shape is a rectangle, and its (side, length) door classes.
    let rooms: Vec<(bool, Vec<(u8, u32)>)> = room_shapes
        .iter()
        .map(|allowed| {
            let rect = allowed
                .iter()
                .all(|&s| shapes[s as usize].outline.len() == 4);
            let mut classes: Vec<(u8, u32)> = allowed
                .iter()
                .flat_map(|&s| shapes[s as usize].doors.iter().map(|d| (d.side, d.len)))
                .collect();
            classes.sort_unstable();
            classes.dedup();
            (rect, classes)
        })
        .collect();
    // Per connection, the sides of `a` its door may be on (a bit per side).
    let sides: Vec<u8> = conns
        .iter()
        .map(|&(a, b)| {
            let (ra, rb) = (&rooms[a as usize], &rooms[b as usize]);
            if !(ra.0 && rb.0) {
                return 0;
            }
            ra.1.iter()
                .filter(|&&(s, len)| rb.1.contains(&(side::opposite(s), len)))
                .fold(0u8, |m, &(s, _)| m | 1 << s)
        })
        .collect();
    const NAMES: [&str; 4] = ["east", "south", "west", "north"];
    for k in 0..4u8 {
        let quarter = 1u8 << k | 1 << ((k + 1) & 3);
        let opposite = 1u8 << ((k + 2) & 3) | 1 << ((k + 3) & 3);
        let mut out: Vec<Vec<u32>> = vec![Vec::new(); room_shapes.len()];
        for (j, &(a, b)) in conns.iter().enumerate() {
            let m = sides[j];
            if m != 0 && m & !quarter == 0 {
                out[a as usize].push(b);
            } else if m != 0 && m & !opposite == 0 {
                out[b as usize].push(a);
            }
        }
        if let Some(rooms) = directed_cycle(&out) {
            return Some(Unclosable {
                rooms,
                why: format!(
                    "its rooms are rectangles, and their doors put each one {} or {} of the one \
                     before it, all the way round (rectangles that meet only that way cannot \
                     come back to the first)",
                    NAMES[k as usize],
                    NAMES[((k + 1) & 3) as usize]
                ),
            });
        }
    }
    None
}

/// A directed cycle of `out` (rooms in order), if there is one: iterative depth-first search.
fn directed_cycle(out: &[Vec<u32>]) -> Option<Vec<u32>> {
    // 0 unseen, 1 on the stack, 2 done.
    let mut state = vec![0u8; out.len()];
    for root in 0..out.len() {
        if state[root] != 0 {
            continue;
        }
        let mut stack: Vec<(u32, usize)> = vec![(root as u32, 0)];
        state[root] = 1;
        while let Some(&mut (u, ref mut next)) = stack.last_mut() {
            match out[u as usize].get(*next) {
                Some(&v) => {
                    *next += 1;
                    match state[v as usize] {
                        0 => {
                            state[v as usize] = 1;
                            stack.push((v, 0));
                        }
                        1 => {
                            let from = stack.iter().position(|e| e.0 == v)?;
                            return Some(stack[from..].iter().map(|e| e.0).collect());
                        }
                        _ => {}
                    }
                }
                None => {
                    state[u as usize] = 2;
                    stack.pop();
                }
            }
        }
    }
    None
}

#[cfg(test)]
#[path = "cycles_tests.rs"]
mod tests;
