//! The designer's constraints drawn over a `map` level's tile map ([`Marks`]): the tiles a mask
//! (`map.mask`) forbids, the rooms pinned by `"fixed"`, and each locked door with its key room
//! in the key's own colour. The archive and the run's stored inputs say what to mark (the
//! `render` command reads them); this module only draws.

use super::scene::{Rgba, Scene};

/// Tiles the mask forbids: a pale steel blue, under nothing (every such tile is void).
pub const FORBIDDEN: Rgba = Rgba([0x9f, 0xb3, 0xc8, 0xb0]);
/// The outline of a pinned room and the pin at its top-left corner.
pub const PIN: Rgba = Rgba::rgb(0xc0_26_d3);
/// The rim of keys and locks, so they read on floor and wall alike.
const RIM: Rgba = Rgba::rgb(0x1b_1b_1f);
/// Key colours, one per key room in order of first appearance: a lock and its key share one.
pub const KEY_COLOURS: [Rgba; 4] = [
    Rgba::rgb(0xff_b7_03),
    Rgba::rgb(0x00_b4_d8),
    Rgba::rgb(0x70_e0_00),
    Rgba::rgb(0xff_00_6e),
];

/// The least side of a locked door's mark, in pixels.
const MIN_LOCK_PX: f32 = 9.0;

/// A box of grid tiles: columns `x0..x1`, rows `y0..y1` (walls included for rooms).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TileBox {
    /// First column.
    pub x0: i32,
    /// First row.
    pub y0: i32,
    /// One past the last column.
    pub x1: i32,
    /// One past the last row.
    pub y1: i32,
}

/// A locked door: its tiles, and the box of the room holding its key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LockMark {
    /// The door's tiles.
    pub door: TileBox,
    /// The key room's box.
    pub key: TileBox,
}

/// What to mark on one level, in its grid's tiles.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// Per grid tile, row-major, whether the mask allows it (`None`: the run has no mask). A
    /// mask of another size than the grid is not drawn.
    pub mask: Option<Vec<bool>>,
    /// The boxes of the pinned rooms.
    pub pinned: Vec<TileBox>,
    /// The locked doors.
    pub locks: Vec<LockMark>,
}

impl Marks {
    /// Whether there is nothing to mark.
    pub fn is_empty(&self) -> bool {
        self.mask.is_none() && self.pinned.is_empty() && self.locks.is_empty()
    }
}

/// Draws `marks` over a `width x height` grid drawn with top-left corner `(left, top)` and
/// `cell_px` pixels a tile: forbidden tiles as pale runs, each pinned room's box outlined with a
/// pin at its top-left corner, each locked door filled in its key's colour inside a dark rim and
/// each key room marked by a disc of that colour at its centre (keys coloured in order of first
/// appearance, [`KEY_COLOURS`] in turn).
///
/// # Runtime
/// O(tiles) for the mask, O(1) per pin and lock.
pub fn draw_marks(
    marks: &Marks,
    (width, height): (u32, u32),
    (left, top, cell_px): (f32, f32, f32),
    scene: &mut Scene,
) {
    let (w, h) = (width as usize, height as usize);
    let px = |x: i32| left + x as f32 * cell_px;
    let py = |y: i32| top + y as f32 * cell_px;
    if let Some(mask) = marks.mask.as_ref().filter(|m| m.len() == w * h && w > 0) {
        for (y, row) in mask.chunks(w).enumerate() {
            let mut x = 0;
            while x < row.len() {
                let run = row[x..].iter().take_while(|&&a| a == row[x]).count();
                if !row[x] {
                    scene.push_rect(
                        px(x as i32),
                        py(y as i32),
                        run as f32 * cell_px,
                        cell_px,
                        FORBIDDEN,
                    );
                }
                x += run;
            }
        }
    }
    let stroke = (cell_px * 0.5).max(1.5);
    for b in &marks.pinned {
        let (x0, y0, x1, y1) = (px(b.x0), py(b.y0), px(b.x1), py(b.y1));
        for (ax, ay, bx, by) in [
            (x0, y0, x1, y0),
            (x1, y0, x1, y1),
            (x1, y1, x0, y1),
            (x0, y1, x0, y0),
        ] {
            scene.push_line(ax, ay, bx, by, stroke, PIN);
        }
        scene.push_circle(x0, y0, (cell_px * 1.4).max(3.0), PIN);
    }
    let mut keys: Vec<TileBox> = Vec::new();
    let rim = (cell_px * 0.35).max(1.5);
    for lock in &marks.locks {
        let k = keys.iter().position(|&b| b == lock.key).unwrap_or_else(|| {
            keys.push(lock.key);
            keys.len() - 1
        });
        let colour = KEY_COLOURS[k % KEY_COLOURS.len()];
        let d = lock.door;
        // At least MIN_LOCK_PX across, centred on the door, so small pictures still show it.
        let grow = |lo: f32, len: f32| {
            let full = (len + 2.0 * rim).max(MIN_LOCK_PX);
            (lo + len * 0.5 - full * 0.5, full)
        };
        let (x, dw) = grow(px(d.x0), (d.x1 - d.x0) as f32 * cell_px);
        let (y, dh) = grow(py(d.y0), (d.y1 - d.y0) as f32 * cell_px);
        scene.push_rect(x, y, dw, dh, RIM);
        scene.push_rect(x + rim, y + rim, dw - 2.0 * rim, dh - 2.0 * rim, colour);
    }
    for (k, b) in keys.iter().enumerate() {
        let (cx, cy) = ((px(b.x0) + px(b.x1)) * 0.5, (py(b.y0) + py(b.y1)) * 0.5);
        let r = (cell_px * 1.8).max(MIN_LOCK_PX * 0.6);
        scene.push_circle(cx, cy, r + rim, RIM);
        scene.push_circle(cx, cy, r, KEY_COLOURS[k % KEY_COLOURS.len()]);
    }
}

#[cfg(test)]
#[path = "marks_tests.rs"]
mod tests;
