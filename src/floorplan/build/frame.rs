//! The builder in a frame (fixed rooms, a mask), and rooms with one place: a fixed room's one
//! candidate (and a piece's first room's, on its stub, with the rest of its level kept clear:
//! `pieces`), a room's place checked against the frame, and where the first room goes. In a
//! frame the search's lattice is the grid: a room placed at `(x, y)` has its box at grid tile
//! `(x, y)` (`Plan::frame`).

use super::forward::zones_for;
use super::plan::{Frame, Plan};
use super::scratch::{BuildScratch, Candidate};
use crate::core::rng::WarrenRng;
use crate::floorplan::shape::Shape;

/// The one candidate of a fixed room: its pinned tile, if no neighbour of it is placed yet or
/// their configuration spaces allow it there. (With fixed rooms the lattice is the
/// grid: lattice point `(x, y)` is grid tile `(x, y)`, `Plan::frame`.)
pub(super) fn pinned_candidate(
    plan: &Plan,
    depth: usize,
    (x, y): (i32, i32),
    list: &mut Vec<Candidate>,
    s: &mut BuildScratch,
) {
    let v = s.order[depth] as usize;
    let si = plan.room_shapes[v][0];
    // The first room, or a fixed room placed before its neighbours: nothing to meet.
    let first = plan.adj[v].iter().all(|&(u, _)| !s.placed[u as usize]);
    if !first {
        zones_for(plan, v, si, s);
    }
    let allowed = first
        || s.zones
            .iter()
            .any(|z| (z.x0..=z.x1).contains(&x) && (z.y0..=z.y1).contains(&y));
    if allowed {
        list.push(Candidate {
            score: 0.0,
            shape: si,
            x,
            y,
        });
    }
}

/// Whether candidate `c` of room `v` lies inside the level's frame (in a frame, the lattice is
/// the grid); if not, the depth to blame: the room placed just before (the placed
/// neighbours whose configuration spaces gave the candidate are blamed already).
pub(super) fn in_frame(
    frame: &Frame,
    v: usize,
    (sh, c): (&Shape, Candidate),
    s: &BuildScratch,
) -> Result<(), u32> {
    if frame.holds(sh, c.x, c.y) {
        Ok(())
    } else {
        Err(s.depth_of[v].saturating_sub(1))
    }
}

/// The first room's candidate: shape `si` with its centre on the target (its box at
/// `(ox, oy)`), moved inside the grid in a frame (the drawing is aimed at it, but may stray).
pub(super) fn first_candidate(
    plan: &Plan,
    (si, sh): (u32, &Shape),
    (ox, oy): (f32, f32),
    rng: &mut WarrenRng,
) -> Candidate {
    let (mut x, mut y) = (ox.round() as i32, oy.round() as i32);
    if let Some(frame) = &plan.frame {
        let (w, h) = frame.size.unwrap_or((i32::MAX, i32::MAX));
        x = x.min(w.saturating_sub(sh.w + 1)).max(0);
        y = y.min(h.saturating_sub(sh.h + 1)).max(0);
    }
    Candidate {
        score: rng.unit_f32(),
        shape: si,
        x,
        y,
    }
}

/// The one candidate of a room with one place, if the room at `depth` has one: a fixed room's
/// (if its placed neighbours allow it), or a piece's first room's, on its stub (`pieces`).
pub(super) fn one_place(
    plan: &Plan,
    depth: usize,
    list: &mut Vec<Candidate>,
    s: &mut BuildScratch,
) -> bool {
    let v = s.order[depth] as usize;
    if let Some(Some(pin)) = plan.pinned.get(v).copied() {
        pinned_candidate(plan, depth, pin, list, s);
        return true;
    }
    let Some((_, shape, x, y)) = s.force.filter(|f| f.0 as usize == v) else {
        return false;
    };
    list.push(Candidate {
        score: 0.0,
        shape,
        x,
        y,
    });
    true
}

/// Whether room `v` (shape `sh` at candidate `c`) keeps clear of the rest of the level when
/// the search lays out one piece of it (`pieces`); if not, depth 0: what is in the way was
/// placed before the piece, and none of the piece's rooms is to blame (a piece's first room,
/// on its stub, is not checked: its parent placed it).
pub(super) fn clear_of_world(
    plan: &Plan,
    v: usize,
    (sh, c): (&Shape, Candidate),
    s: &BuildScratch,
) -> Result<(), u32> {
    match &s.world {
        Some(world)
            if s.force.is_none_or(|f| f.0 as usize != v)
                && world.blocks_room(plan, sh, (c.x, c.y)) =>
        {
            Err(0)
        }
        _ => Ok(()),
    }
}
