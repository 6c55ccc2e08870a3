//! Routing one corridor of a tile map ([`super`]): the designed shapes (straight, L, Z) and the
//! A* search over brush positions that is the slow path. Kept apart from the drawing of rooms
//! and the bookkeeping of a whole map.

use super::canvas::{Canvas, Rect};
use crate::core::grid::cell;

/// One way to draw a corridor: the doors in each room's ring and up to three pieces of floor.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shape {
    pub(super) door_a: Rect,
    pub(super) door_b: Rect,
    pub(super) pieces: [Rect; 3],
}

/// Extra cost of a turn in the search, in tiles: enough to prefer an L or a Z to a staircase.
pub(super) const TURN_COST: u32 = 3;

impl Canvas<'_> {
    /// Whether designed shape `s` of a corridor from room `a` to room `b` can be drawn.
    pub(super) fn shape_ok(&self, s: &Shape, a: u32, b: u32) -> bool {
        self.rect_ok(&s.door_a, |x, y| self.door_ok(x, y, a, b))
            && self.rect_ok(&s.door_b, |x, y| self.door_ok(x, y, b, a))
            && s.pieces
                .iter()
                .all(|p| p.is_empty() || self.rect_ok(p, |x, y| self.corridor_ok(x, y)))
    }
}

const NO_RECT: Rect = Rect {
    x0: 0,
    y0: 0,
    x1: 0,
    y1: 0,
};

/// Memory of the A* search.
#[derive(Default)]
pub(super) struct SearchScratch {
    cost: Vec<u32>,
    came: Vec<u32>,
    buckets: Vec<Vec<(u32, u32)>>,
    path: Vec<u32>,
}

/// Offsets to try across a straight corridor's overlap `[lo, hi]`, nearest `ideal` first.
fn offsets(lo: i64, hi: i64, ideal: i64) -> impl Iterator<Item = i64> {
    let ideal = if lo <= hi { ideal.clamp(lo, hi) } else { lo };
    (0..5i64)
        .map(move |k| {
            if k % 2 == 0 {
                ideal - k / 2
            } else {
                ideal + (k + 1) / 2
            }
        })
        .filter(move |&t| (lo..=hi).contains(&t))
}

/// The designed shapes from room `a` to room `b`, cheapest first: straight, L, Z.
pub(super) fn designed_shapes(a: &Rect, b: &Rect, w: i64, out: &mut Vec<Shape>) {
    for main in 0..2 {
        straight(a, b, main, w, out);
    }
    for main in 0..2 {
        ell(a, b, main, w, out);
    }
    for main in 0..2 {
        zed(a, b, main, w, out);
    }
}

/// Orders `a`, `b` along `main`: the room nearer the low end first, with `swapped` telling
/// whether that is `b`.
fn by_main<'r>(a: &'r Rect, b: &'r Rect, main: usize) -> (&'r Rect, &'r Rect, bool) {
    if a.centre(main) <= b.centre(main) {
        (a, b, false)
    } else {
        (b, a, true)
    }
}

fn push(out: &mut Vec<Shape>, swapped: bool, door_lo: Rect, door_hi: Rect, pieces: [Rect; 3]) {
    let (door_a, door_b) = if swapped {
        (door_hi, door_lo)
    } else {
        (door_lo, door_hi)
    };
    out.push(Shape {
        door_a,
        door_b,
        pieces,
    });
}

/// Straight corridors along `main` between rooms that face each other across it.
fn straight(a: &Rect, b: &Rect, main: usize, w: i64, out: &mut Vec<Shape>) {
    let cross = 1 - main;
    let (p, q, swapped) = by_main(a, b, main);
    if q.lo(main) <= p.hi(main) {
        return;
    }
    let lo = p.lo(cross).max(q.lo(cross));
    let hi = p.hi(cross).min(q.hi(cross)) - w;
    let ideal = (p.centre(cross) + q.centre(cross)).div_euclid(2) - w / 2;
    for t in offsets(lo, hi, ideal) {
        let door_p = Rect::along(main, p.hi(main), p.hi(main) + 1, t, t + w);
        let door_q = Rect::along(main, q.lo(main) - 1, q.lo(main), t, t + w);
        let piece = Rect::along(main, p.hi(main) + 1, q.lo(main) - 1, t, t + w);
        push(out, swapped, door_p, door_q, [piece, NO_RECT, NO_RECT]);
    }
}

/// L corridors: out of `a` along `main`, one turn, into `b` across it.
fn ell(a: &Rect, b: &Rect, main: usize, w: i64, out: &mut Vec<Shape>) {
    let cross = 1 - main;
    let down = b.centre(main) > a.centre(main);
    let right = b.centre(cross) > a.centre(cross);
    // The corner's offset across (inside a's side, short of b) and along (inside b's side,
    // beyond a's ring).
    let (t_lo, t_hi) = if right {
        (a.lo(cross), (a.hi(cross) - w).min(b.lo(cross) - 1 - w))
    } else {
        ((a.lo(cross)).max(b.hi(cross) + 1), a.hi(cross) - w)
    };
    let (u_lo, u_hi) = if down {
        (b.lo(main).max(a.hi(main) + 1), b.hi(main) - w)
    } else {
        (b.lo(main), (b.hi(main) - w).min(a.lo(main) - 1 - w))
    };
    if t_lo > t_hi || u_lo > u_hi {
        return;
    }
    let t = (b.centre(cross) - w / 2).clamp(t_lo, t_hi);
    let u = (a.centre(main) - w / 2).clamp(u_lo, u_hi);
    let (door_a, leg1) = if down {
        (
            Rect::along(main, a.hi(main), a.hi(main) + 1, t, t + w),
            Rect::along(main, a.hi(main) + 1, u + w, t, t + w),
        )
    } else {
        (
            Rect::along(main, a.lo(main) - 1, a.lo(main), t, t + w),
            Rect::along(main, u, a.lo(main) - 1, t, t + w),
        )
    };
    let (door_b, leg2) = if right {
        (
            Rect::along(main, u, u + w, b.lo(cross) - 1, b.lo(cross)),
            Rect::along(main, u, u + w, t, b.lo(cross) - 1),
        )
    } else {
        (
            Rect::along(main, u, u + w, b.hi(cross), b.hi(cross) + 1),
            Rect::along(main, u, u + w, b.hi(cross) + 1, t + w),
        )
    };
    out.push(Shape {
        door_a,
        door_b,
        pieces: [leg1, leg2, NO_RECT],
    });
}

/// Z corridors along `main`: out of the nearer room, across at a middle row, into the other.
fn zed(a: &Rect, b: &Rect, main: usize, w: i64, out: &mut Vec<Shape>) {
    let cross = 1 - main;
    let (p, q, swapped) = by_main(a, b, main);
    let (m_lo, m_hi) = (p.hi(main) + 1, q.lo(main) - 1 - w);
    if m_lo > m_hi || p.hi(cross) - p.lo(cross) < w || q.hi(cross) - q.lo(cross) < w {
        return;
    }
    let tp = (q.centre(cross) - w / 2).clamp(p.lo(cross), p.hi(cross) - w);
    let tq = (p.centre(cross) - w / 2).clamp(q.lo(cross), q.hi(cross) - w);
    let mid = (m_lo + m_hi).div_euclid(2);
    for m in [mid, m_lo, m_hi] {
        let door_p = Rect::along(main, p.hi(main), p.hi(main) + 1, tp, tp + w);
        let door_q = Rect::along(main, q.lo(main) - 1, q.lo(main), tq, tq + w);
        let leg1 = Rect::along(main, p.hi(main) + 1, m + w, tp, tp + w);
        let jog = Rect::along(main, m, m + w, tp.min(tq), tp.max(tq) + w);
        let leg2 = Rect::along(main, m, q.lo(main) - 1, tq, tq + w);
        push(out, swapped, door_p, door_q, [leg1, jog, leg2]);
        if m_lo == m_hi {
            break;
        }
    }
}

/// The four directions a brush moves in: +x, -x, +y, -y.
pub(super) const STEPS: [(i64, i64); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// The door of room `r` on `side` (the direction leaving it) at offset `t`, and the first brush
/// position outside it.
fn door_on_side(r: &Rect, side: usize, t: i64, w: i64) -> (Rect, (i64, i64)) {
    match side {
        0 => (
            Rect {
                x0: r.x1,
                x1: r.x1 + 1,
                y0: t,
                y1: t + w,
            },
            (r.x1 + 1, t),
        ),
        1 => (
            Rect {
                x0: r.x0 - 1,
                x1: r.x0,
                y0: t,
                y1: t + w,
            },
            (r.x0 - 1 - w, t),
        ),
        2 => (
            Rect {
                x0: t,
                x1: t + w,
                y0: r.y1,
                y1: r.y1 + 1,
            },
            (t, r.y1 + 1),
        ),
        _ => (
            Rect {
                x0: t,
                x1: t + w,
                y0: r.y0 - 1,
                y1: r.y0,
            },
            (t, r.y0 - 1 - w),
        ),
    }
}

/// Offsets along `side` of `r` at which a door `w` wide fits beside the floor.
fn side_range(r: &Rect, side: usize, w: i64) -> std::ops::RangeInclusive<i64> {
    if side < 2 {
        r.y0..=r.y1 - w
    } else {
        r.x0..=r.x1 - w
    }
}

/// How much longer than the rooms' distance (plus a little) a searched corridor may be.
pub(super) const DETOUR: i64 = 3;

/// The slow path: A* over brush positions (top-left tile of the corridor's `w x w`
/// cross-section) and the direction moved in, cost one per step plus [`TURN_COST`] per turn,
/// from every door that fits on `a` to any that fits on `b`. Claims the corridor and returns
/// (door tiles, floor tiles), or `None` when no corridor fits.
///
/// A corridor costs at most [`DETOUR`] times the rooms' distance (plus a few tiles): one round
/// the whole level is no corridor a designer would draw, and the seed fails instead. That
/// budget also bounds where the search can go: a position `d` tiles outside the box of the two
/// rooms is at least `d` steps from the start and `d` from the goal, so with `cost + estimate
/// <= budget` no position beyond `budget / 2` of the box is ever taken, and the search keeps to
/// that window (its memory and time are those of the neighbourhood, however large the map).
#[allow(clippy::too_many_arguments)]
pub(super) fn route_by_search(
    canvas: &mut Canvas<'_>,
    ra: &Rect,
    rb: &Rect,
    a: u32,
    b: u32,
    e: u32,
    w: i64,
    search: &mut SearchScratch,
) -> Option<(u32, u32)> {
    let gap = (rb.x0 - ra.x1).max(ra.x0 - rb.x1).max(0) + (rb.y0 - ra.y1).max(ra.y0 - rb.y1).max(0);
    let budget = DETOUR * (gap + 2 * w + 8);
    let grow = budget / 2 + w + 2;
    let near = Rect {
        x0: (ra.x0.min(rb.x0) - grow).max(0),
        y0: (ra.y0.min(rb.y0) - grow).max(0),
        x1: (ra.x1.max(rb.x1) + grow).min(canvas.w),
        y1: (ra.y1.max(rb.y1) + grow).min(canvas.h),
    };
    search_within(canvas, ra, rb, a, b, e, w, &near, budget as u32, search)
}

/// [`route_by_search`] over brush positions inside `window`, for corridors costing at most
/// `budget`.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn search_within(
    canvas: &mut Canvas<'_>,
    ra: &Rect,
    rb: &Rect,
    a: u32,
    b: u32,
    e: u32,
    w: i64,
    window: &Rect,
    budget: u32,
    search: &mut SearchScratch,
) -> Option<(u32, u32)> {
    let q = Search {
        ra,
        rb,
        a,
        b,
        w,
        window: *window,
        gw: window.x1 - window.x0,
        budget,
        goal_box: Rect {
            x0: rb.x0 - 1 - w,
            x1: rb.x1 + 1,
            y0: rb.y0 - 1 - w,
            y1: rb.y1 + 1,
        },
    };
    let SearchScratch {
        cost,
        came,
        buckets,
        path,
    } = search;
    q.reset(cost, came, buckets);
    q.push_starts(canvas, cost, buckets);
    let (end, door_b) = q.run(canvas, cost, came, buckets)?;
    let start = trace_path(end, cost, came, path);
    Some(q.claim(canvas, e, start, path, &door_b))
}

/// One corridor's search: its rooms, the window it keeps to, and its budget.
struct Search<'r> {
    ra: &'r Rect,
    rb: &'r Rect,
    a: u32,
    b: u32,
    /// Corridor width.
    w: i64,
    window: Rect,
    /// The window's width.
    gw: i64,
    budget: u32,
    /// The brush positions just outside `rb`'s doors, which the estimate measures to.
    goal_box: Rect,
}

impl Search<'_> {
    /// Whether a brush at `(x, y)` lies in the window on tiles that may become corridor.
    #[inline]
    fn brush_ok(&self, c: &Canvas<'_>, x: i64, y: i64) -> bool {
        let (win, w) = (&self.window, self.w);
        x >= win.x0
            && y >= win.y0
            && x + w <= win.x1
            && y + w <= win.y1
            && (y..y + w).all(|yy| (x..x + w).all(|xx| c.corridor_ok(xx, yy)))
    }

    /// Lower bound on the steps from a brush position to any position outside b's doors.
    #[inline]
    fn estimate(&self, x: i64, y: i64) -> u32 {
        let g = &self.goal_box;
        ((g.x0 - x).max(x - g.x1).max(0) + (g.y0 - y).max(y - g.y1).max(0)) as u32
    }

    /// The state of a brush at `(x, y)` that moved in direction `d`.
    #[inline]
    fn state(&self, x: i64, y: i64, d: usize) -> u32 {
        let (win, gw) = (&self.window, self.gw);
        (((y - win.y0) * gw + x - win.x0) as usize * 4 + d) as u32
    }

    /// The brush position of window position `p` (a state over 4).
    #[inline]
    fn place(&self, p: i64) -> (i64, i64) {
        (self.window.x0 + p % self.gw, self.window.y0 + p / self.gw)
    }

    /// The door of `rb` that a brush at `(x, y)` reaches, if it is just outside one that fits.
    #[inline]
    fn goal(&self, c: &Canvas<'_>, x: i64, y: i64) -> Option<Rect> {
        let (rb, w) = (self.rb, self.w);
        (0..4).find_map(|side| {
            let t = if side < 2 { y } else { x };
            if !side_range(rb, side, w).contains(&t) {
                return None;
            }
            let (door, at) = door_on_side(rb, side, t, w);
            let fits = at == (x, y) && c.rect_ok(&door, |dx, dy| c.door_ok(dx, dy, self.b, self.a));
            fits.then_some(door)
        })
    }

    /// Sizes the scratch for the window (every state unreached) and empties the queue.
    fn reset(&self, cost: &mut Vec<u32>, came: &mut Vec<u32>, buckets: &mut Vec<Vec<(u32, u32)>>) {
        let cells = (self.gw * (self.window.y1 - self.window.y0)) as usize;
        cost.clear();
        cost.resize(cells * 4, u32::MAX);
        came.clear();
        came.resize(cells * 4, u32::MAX);
        // PERF: a bucket queue, one stack of (cost, state) per value of cost + estimate: the
        // values are small integers that never fall (the estimate is consistent), so taking the
        // next state is O(1) where a binary heap spent most of the search's time.
        if buckets.len() <= self.budget as usize {
            buckets.resize_with(self.budget as usize + 1, Vec::new);
        }
        buckets.iter_mut().for_each(Vec::clear);
    }

    /// Queues, at cost 0, the first brush position outside every door that fits on `ra`.
    fn push_starts(&self, c: &Canvas<'_>, cost: &mut [u32], buckets: &mut [Vec<(u32, u32)>]) {
        for side in 0..4 {
            for t in side_range(self.ra, side, self.w) {
                let (door, (x, y)) = door_on_side(self.ra, side, t, self.w);
                if c.rect_ok(&door, |dx, dy| c.door_ok(dx, dy, self.a, self.b))
                    && self.brush_ok(c, x, y)
                {
                    let s = self.state(x, y, side);
                    cost[s as usize] = 0;
                    let f = self.estimate(x, y);
                    if f <= self.budget {
                        buckets[f as usize].push((0, s));
                    }
                }
            }
        }
    }

    /// Runs the A* search from the queued starts. Returns the state that reached a door of
    /// `rb` and that door, or `None` when none is reached within the budget.
    fn run(
        &self,
        c: &Canvas<'_>,
        cost: &mut [u32],
        came: &mut [u32],
        buckets: &mut [Vec<(u32, u32)>],
    ) -> Option<(u32, Rect)> {
        // NOTE: each bucket is a stack: among states of equal cost + estimate the latest
        // pushed, usually the deepest, is taken first, so ties run straight on instead of
        // fanning out.
        for f in 0..=self.budget as usize {
            while let Some((g, s)) = buckets[f].pop() {
                if g > cost[s as usize] {
                    continue;
                }
                let (p, d) = ((s / 4) as i64, (s % 4) as usize);
                let (x, y) = self.place(p);
                if let Some(door) = self.goal(c, x, y) {
                    return Some((s, door));
                }
                for (nd, &(dx, dy)) in STEPS.iter().enumerate() {
                    let (nx, ny) = (x + dx, y + dy);
                    if !self.brush_ok(c, nx, ny) {
                        continue;
                    }
                    let ng = g + 1 + if nd == d { 0 } else { TURN_COST };
                    let ns = self.state(nx, ny, nd);
                    let nf = ng + self.estimate(nx, ny);
                    if ng < cost[ns as usize] && nf <= self.budget {
                        cost[ns as usize] = ng;
                        came[ns as usize] = s;
                        buckets[nf as usize].push((ng, ns));
                    }
                }
            }
        }
        None
    }

    /// Claims the corridor: the floor under every brush position of `path`, the door on `ra`
    /// that the first position (state `start`) leaves by, and `door_b`. Returns (door tiles,
    /// floor tiles).
    fn claim(
        &self,
        canvas: &mut Canvas<'_>,
        e: u32,
        start: u32,
        path: &[u32],
        door_b: &Rect,
    ) -> (u32, u32) {
        let w = self.w;
        let side = (start % 4) as usize;
        let (sx, sy) = self.place((start / 4) as i64);
        let (door_a, _) = door_on_side(self.ra, side, if side < 2 { sy } else { sx }, w);
        let mut floor = 0;
        for &p in path {
            let (x, y) = self.place(p as i64);
            let brush = Rect {
                x0: x,
                y0: y,
                x1: x + w,
                y1: y + w,
            };
            floor += canvas.claim(&brush, e, cell::FLOOR);
        }
        let doors = canvas.claim(&door_a, e, cell::DOOR) + canvas.claim(door_b, e, cell::DOOR);
        (doors, floor)
    }
}

/// Follows `came` back from state `end` to a start (cost 0), filling `path` with the window
/// positions (states over 4) from `end` back to the start. Returns the start state.
fn trace_path(end: u32, cost: &[u32], came: &[u32], path: &mut Vec<u32>) -> u32 {
    path.clear();
    let mut s = end;
    while cost[s as usize] != 0 {
        path.push(s / 4);
        s = came[s as usize];
    }
    path.push(s / 4);
    s
}
