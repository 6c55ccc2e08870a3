//! What `warren render` marks on a `map` level beyond its tiles ([`Marks`]): the mask the run
//! was fitted to and the rooms its level graph pins (both rebuilt from the run's stored profile
//! and files), and the locked doors with their key rooms (from the door table's columns).

use crate::archive::RunMeta;
use crate::core::generator::{ExtraValue, Level};
use crate::core::rng::mix;
use crate::export::owners::{stored_graph, stored_mask};
use crate::floorplan::shape::side;
use crate::render::{LockMark, Marks, TileBox};

/// The door table's columns the marks read, by name.
pub(super) const LOCK_COLUMNS: [&str; 5] =
    ["door_x", "door_y", "door_length", "door_facing", "door_key"];

/// The marks of one run's levels: the mask once per run, the pins per level's graph.
pub(super) struct MarkSource {
    run: Option<RunMeta>,
    /// The mask's tiles and size.
    mask: Option<(Vec<bool>, u32, u32)>,
}

impl MarkSource {
    /// The source for a run with metadata `run` (`None`: nothing but locks can be marked).
    pub(super) fn new(run: Option<RunMeta>) -> MarkSource {
        let mask = run
            .as_ref()
            .and_then(stored_mask)
            .map(|m| (m.allowed, m.width, m.height));
        MarkSource { run, mask }
    }

    /// The marks of the level with index `index`, whose extra columns are named `names` with
    /// values `extra`. A mask of another size than the level's grid is left out; pins and
    /// locks whose room is not in the level's rooms are left out.
    pub(super) fn marks(
        &self,
        index: u64,
        level: &Level<'_>,
        names: &[&str],
        extra: &[ExtraValue<'_>],
    ) -> Marks {
        let mut marks = Marks::default();
        let Some(grid) = &level.grid else {
            return marks;
        };
        if let Some((allowed, w, h)) = &self.mask
            && (*w, *h) == (grid.width, grid.height)
        {
            marks.mask = Some(allowed.clone());
        }
        let room = |v: usize| -> Option<TileBox> {
            let r = level.rooms.as_ref()?;
            Some(TileBox {
                x0: *r.x0.get(v)?,
                y0: *r.y0.get(v)?,
                x1: *r.x1.get(v)?,
                y1: *r.y1.get(v)?,
            })
        };
        if let Some(run) = &self.run
            && let Some(graph) = stored_graph(run, mix(run.master_seed, index))
        {
            marks.pinned = (graph.rooms.iter().enumerate())
                .filter(|(_, r)| r.fixed.is_some())
                .filter_map(|(v, _)| room(v))
                .collect();
        }
        let column = |name: &str| names.iter().position(|&n| n == name).map(|e| &extra[e]);
        let u16s = |name: &str| column(name).and_then(ExtraValue::as_u16s);
        let (Some(x), Some(y), Some(len), Some(key)) = (
            u16s("door_x"),
            u16s("door_y"),
            u16s("door_length"),
            u16s("door_key"),
        ) else {
            return marks;
        };
        let Some(facing) = column("door_facing").and_then(ExtraValue::as_u8s) else {
            return marks;
        };
        for d in 0..key.len() {
            let (Some(&k), Some(&x), Some(&y), Some(&len), Some(&f)) =
                (key.get(d), x.get(d), y.get(d), len.get(d), facing.get(d))
            else {
                break;
            };
            let Some(key) = k.checked_sub(1).and_then(|k| room(k as usize)) else {
                continue;
            };
            let (x, y, len) = (i32::from(x), i32::from(y), i32::from(len));
            let door = if side::vertical(f) {
                TileBox {
                    x0: x,
                    y0: y,
                    x1: x + 1,
                    y1: y + len,
                }
            } else {
                TileBox {
                    x0: x,
                    y0: y,
                    x1: x + len,
                    y1: y + 1,
                }
            };
            marks.locks.push(LockMark { door, key });
        }
        marks
    }
}
