//! The level's frame: fixed rooms pinned to grid tiles (`"fixed"` in the level graph) and the
//! mask a level must fit inside (`map.mask`). Resolves each pin to a shape, refuses pins that
//! cannot hold (outside the frame, on top of each other, joined rooms whose doors cannot meet
//! where they are pinned), and checks a drawn level against its mask.

use crate::core::grid::cell;
use crate::floorplan::build::{Frame, Plan, can_join};
use crate::floorplan::raster::Tiles;
use crate::floorplan::shape::Shape;
use crate::floorplan::spec::{Fixed, LevelGraph, Mask};

/// Whether `a` and `b` are one shape (a template under two transforms that give the same
/// outline and doors, as a square turned a quarter).
pub fn same_shape(a: &Shape, b: &Shape) -> bool {
    a.w == b.w && a.h == b.h && a.mask == b.mask && a.doors == b.doors
}

/// The index in `shapes` of the shape a pin asks for: its template under its transform, or
/// the shape kept for it when the transform repeats another ([`same_shape`]).
pub fn pinned_shape(shapes: &[Shape], pin: &Fixed, wanted: &Shape) -> Option<u32> {
    let of_template = |s: &&Shape| s.template == pin.template;
    shapes
        .iter()
        .position(|s| of_template(&s) && s.transform == pin.transform)
        .or_else(|| {
            shapes
                .iter()
                .position(|s| of_template(&s) && same_shape(s, wanted))
        })
        .map(|i| i as u32)
}

/// Why the fixed rooms of `plan` cannot all be where they are pinned, in one line naming the
/// rooms: a room outside the frame or off the mask, two rooms on top of each other (or closer
/// than `map.min_room_distance`), two joined rooms whose doors cannot meet.
pub fn pins_problem(graph: &LevelGraph, plan: &Plan, frame_name: &str) -> Option<String> {
    let id = |v: u32| &graph.rooms[v as usize].id;
    let at = |v: u32| {
        let shape = &plan.cat.shapes[plan.room_shapes[v as usize][0] as usize];
        let (x, y) = plan.pinned[v as usize].expect("a fixed room");
        (shape, x, y)
    };
    for &v in &plan.fixed_rooms {
        let (sh, x, y) = at(v);
        if let Some(frame) = &plan.frame
            && !frame.holds(sh, x, y)
        {
            return Some(format!(
                "room `{}` is fixed at [{x}, {y}], where its {} x {} tiles do not lie inside \
                 {frame_name}",
                id(v),
                sh.w + 1,
                sh.h + 1
            ));
        }
    }
    for (k, &u) in plan.fixed_rooms.iter().enumerate() {
        for &v in &plan.fixed_rooms[k + 1..] {
            let ((su, ux, uy), (sv, vx, vy)) = (at(u), at(v));
            let joined = graph
                .connections
                .iter()
                .position(|c| (c.a, c.b) == (u, v) || (c.a, c.b) == (v, u));
            let gap = if joined.is_some() {
                0
            } else {
                plan.min_distance
            };
            if su.near(ux, uy, sv, vx, vy, gap) {
                let how = if su.near(ux, uy, sv, vx, vy, 0) {
                    "overlap".to_string()
                } else {
                    format!("are closer than map.min_room_distance = {gap}")
                };
                return Some(format!(
                    "fixed rooms `{}` and `{}` {how} where they are pinned",
                    id(u),
                    id(v)
                ));
            }
            if let Some(j) = joined {
                let c = &graph.connections[j];
                let (a, b) = if c.a == u {
                    ((su, ux, uy), (sv, vx, vy))
                } else {
                    ((sv, vx, vy), (su, ux, uy))
                };
                if !can_join(plan, j as u32, a, b) {
                    return Some(format!(
                        "fixed rooms `{}` and `{}` are joined, but no door of one meets a door \
                         of the other where they are pinned",
                        id(u),
                        id(v)
                    ));
                }
            }
        }
    }
    None
}

/// Whether every tile of `tiles` that is not void lies on an allowed tile of `mask` when their
/// tile `(0, 0)` is the mask's `(dx, dy)`.
pub fn on_mask(tiles: &Tiles, mask: &Mask, (dx, dy): (i32, i32)) -> bool {
    let w = tiles.width as usize;
    tiles
        .cells
        .iter()
        .enumerate()
        .all(|(i, &c)| c == cell::VOID || mask.allows(dx + (i % w) as i32, dy + (i / w) as i32))
}

/// The frame of a map run: fixed rooms and a `(width, height)` grid size (`map.bounds` with
/// fixed rooms), or a mask; `None` when the level lies in its own box.
pub fn frame_of(has_pins: bool, bounds: Option<(u32, u32)>, mask: Option<Mask>) -> Option<Frame> {
    match mask {
        Some(m) => Some(Frame::new(Some((m.width as i32, m.height as i32)), Some(m))),
        None if has_pins => Some(Frame::new(bounds.map(|(w, h)| (w as i32, h as i32)), None)),
        None => None,
    }
}
