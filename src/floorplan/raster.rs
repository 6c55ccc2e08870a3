//! A finished layout as tiles: the grid on the shared legend (wall, floor, door, and void outside
//! every room), the `owner` grid (0 for walls, doors and void; `1 + i` for room `i`'s floor;
//! `1 + rooms + j` for connection `j`'s corridor floor, a straight one or a corridor room's)
//! and each room's box (the level graph's rooms only).

use crate::core::error::GenError;
use crate::core::grid::cell;
use crate::floorplan::build::{Layout, Plan};
use crate::floorplan::shape::{side, tile};

/// The tiles of one map.
#[derive(Clone, Debug, Default)]
pub struct Tiles {
    /// Tiles across.
    pub width: u32,
    /// Tiles down.
    pub height: u32,
    /// Cell codes, row-major.
    pub cells: Vec<u8>,
    /// Owners, row-major.
    pub owner: Vec<u16>,
    /// Per room, its box in tiles: `[x0, x1) x [y0, y1)`.
    pub x0: Vec<i32>,
    /// See `x0`.
    pub y0: Vec<i32>,
    /// See `x0`.
    pub x1: Vec<i32>,
    /// See `x0`.
    pub y1: Vec<i32>,
    /// Per connection of the level graph, its corridor's length: a straight corridor's floor
    /// tiles from door to door, a corridor room's floor tiles (0 without a corridor).
    pub corridor_len: Vec<u32>,
}

impl Tiles {
    /// Empties the tiles for a `w` x `h` map: all void, no owners, no rooms.
    fn reset(&mut self, w: u32, h: u32) {
        self.width = w;
        self.height = h;
        self.cells.clear();
        self.cells.resize((w * h) as usize, cell::VOID);
        self.owner.clear();
        self.owner.resize((w * h) as usize, 0);
        for v in [&mut self.x0, &mut self.y0, &mut self.x1, &mut self.y1] {
            v.clear();
        }
    }
}

/// The longest side of a map, in tiles.
pub const MAX_MAP_SIDE: u64 = u16::MAX as u64;
/// The most tiles a map may have in all (an 8,192 x 8,192 map; its cells and owners take
/// 192 MiB).
pub const MAX_MAP_TILES: u64 = 1 << 26;

/// The failure of a map of `w` x `h` tiles too large to draw ([`rasterise`]'s error).
pub fn too_large((w, h): (u64, u64)) -> GenError {
    GenError {
        reason: "map too large".into(),
        detail: format!(
            "{w} x {h} tiles (at most {MAX_MAP_SIDE} a side and {MAX_MAP_TILES} in all)"
        ),
    }
}

/// Draws `layout` into `t`, its grid the layout's box; a map longer than [`MAX_MAP_SIDE`] a
/// side or larger than [`MAX_MAP_TILES`] is not drawn, and its width and height in tiles are
/// the error.
///
/// # Errors
/// The map's size, when it is too large.
pub fn rasterise(plan: &Plan, layout: &Layout, t: &mut Tiles) -> Result<(), (u64, u64)> {
    rasterise_in(plan, layout, t, None)
}

/// The layout's box on the lattice: `(x0, y0, x1, y1)`, corners included.
pub fn layout_box(plan: &Plan, layout: &Layout) -> (i32, i32, i32, i32) {
    let (mut mx, mut my, mut xx, mut xy) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
    for v in 0..plan.rooms() {
        let sh = &plan.cat.shapes[layout.shape[v] as usize];
        mx = mx.min(layout.x[v]);
        my = my.min(layout.y[v]);
        xx = xx.max(layout.x[v] + sh.w);
        xy = xy.max(layout.y[v] + sh.h);
    }
    (mx, my, xx, xy)
}

/// A grid of its own: the lattice point of its tile `(0, 0)` and, if fixed, its size.
pub type GridFrame = ((i32, i32), Option<(u32, u32)>);

/// [`rasterise`] into a grid of its own: `frame` is the lattice point of the grid's tile
/// `(0, 0)` and, if fixed, the grid's size (else the grid reaches as far right and down as the
/// layout). A layout that does not lie inside that grid is not drawn, and the size it would
/// need is the error, as is a map too large.
///
/// # Errors
/// The map's size, when it is too large or the layout does not fit the frame.
pub fn rasterise_in(
    plan: &Plan,
    layout: &Layout,
    t: &mut Tiles,
    frame: Option<GridFrame>,
) -> Result<(), (u64, u64)> {
    let n = plan.rooms();
    let (lx, ly, xx, xy) = layout_box(plan, layout);
    let ((mx, my), size) = frame.unwrap_or(((lx, ly), None));
    // Corridors lie between their rooms, inside this box.
    let need = (
        (i64::from(xx) - i64::from(mx) + 1) as u64,
        (i64::from(xy) - i64::from(my) + 1) as u64,
    );
    let (w, h) = size.map_or(need, |(w, h)| (u64::from(w), u64::from(h)));
    if lx < mx || ly < my || need.0 > w || need.1 > h {
        return Err(need);
    }
    if w > MAX_MAP_SIDE || h > MAX_MAP_SIDE || w * h > MAX_MAP_TILES {
        return Err((w, h));
    }
    let (w, h) = (w as u32, h as u32);
    t.reset(w, h);
    let at = |x: i32, y: i32| ((y - my) as u32 * w + (x - mx) as u32) as usize;
    // Room `v`'s floor owner; a corridor room's floor is its connection's corridor.
    let rooms = plan.graph_rooms();
    let owner_of = |v: usize| match v.checked_sub(rooms) {
        None => 1 + v as u16,
        Some(k) => (1 + rooms + plan.via[k] as usize) as u16,
    };
    t.corridor_len.clear();
    t.corridor_len.resize(plan.graph_conns(), 0);
    for v in 0..n {
        let sh = &plan.cat.shapes[layout.shape[v] as usize];
        let (ox, oy) = (layout.x[v], layout.y[v]);
        for y in 0..=sh.h {
            for x in 0..=sh.w {
                let i = at(ox + x, oy + y);
                match sh.at(x, y) {
                    tile::FLOOR => {
                        t.cells[i] = cell::FLOOR;
                        t.owner[i] = owner_of(v);
                    }
                    tile::WALL if t.cells[i] == cell::VOID => t.cells[i] = cell::WALL,
                    _ => {}
                }
            }
        }
        if let Some(k) = v.checked_sub(rooms) {
            t.corridor_len[plan.via[k] as usize] = sh.floor;
            continue;
        }
        t.x0.push(ox - mx);
        t.y0.push(oy - my);
        t.x1.push(ox - mx + sh.w + 1);
        t.y1.push(oy - my + sh.h + 1);
    }
    for (j, link) in layout.links.iter().enumerate() {
        let len = link.len as i32;
        let (nx, ny) = side::normal(link.side);
        // Tile `k` along the door, `d` steps out from room a's wall.
        let tile_at = |k: i32, d: i32| {
            if side::vertical(link.side) {
                (link.wall + nx * d, link.start + k)
            } else {
                (link.start + k, link.wall + ny * d)
            }
        };
        if let Some(r) = link.corridor() {
            for y in r.y0..=r.y1 {
                for x in r.x0..=r.x1 {
                    let i = at(x, y);
                    let inside = x > r.x0 && x < r.x1 && y > r.y0 && y < r.y1;
                    if inside {
                        t.cells[i] = cell::FLOOR;
                        t.owner[i] = (1 + rooms + j) as u16;
                    } else if t.cells[i] == cell::VOID {
                        t.cells[i] = cell::WALL;
                    }
                }
            }
        }
        for k in 0..len {
            for d in [0, link.gap] {
                let (x, y) = tile_at(k, d);
                let i = at(x, y);
                t.cells[i] = cell::DOOR;
                t.owner[i] = 0;
            }
        }
        if link.gap > 0 {
            t.corridor_len[j] = (link.gap - 1) as u32;
        }
    }
    Ok(())
}
