//! Templates under their transforms, in *lattice* coordinates: the corners of a [`Shape`] are the
//! centres of its corner wall tiles, so the room's tiles are the lattice points of the closed
//! polygon, its wall tiles those on the boundary and its floor those strictly inside. Two rooms
//! may share wall tiles but never floor: their polygons' interiors are disjoint exactly when no
//! pair of their rectangles ([`Shape::rects`]) overlaps with positive area.
//!
//! A template's outline (tile-edge coordinates, `spec`) becomes a lattice polygon by moving every
//! corner half a tile inwards along both of its edges' normals and half a tile back to the
//! tile-index origin.

use crate::floorplan::spec::{DoorRule, Doors, Library, Template};

/// A closed axis-aligned rectangle of the lattice, `[x0, x1] x [y0, y1]` (`x0 < x1`, `y0 < y1`):
/// the crate's one rectangle type. As a region of the plane it is the same rectangle a half-open
/// cell rectangle with these corners covers, so [`Rect::near`] and [`Rect::overlaps`] hold for
/// it; its lattice points are `x0..=x1` by `y0..=y1` ([`Rect::contains`] counts cells instead).
pub type Rect = crate::core::geom::Rect<i32>;

/// The four directions a wall can face (its outward normal), in the tile grid (y down).
pub mod side {
    /// Facing +x.
    pub const EAST: u8 = 0;
    /// Facing +y.
    pub const SOUTH: u8 = 1;
    /// Facing -x.
    pub const WEST: u8 = 2;
    /// Facing -y.
    pub const NORTH: u8 = 3;

    /// The opposite direction.
    pub const fn opposite(s: u8) -> u8 {
        (s + 2) & 3
    }

    /// Whether walls facing `s` run along y (their fixed coordinate is x).
    pub const fn vertical(s: u8) -> bool {
        s & 1 == 0
    }

    /// The unit step outwards: `(dx, dy)`.
    pub const fn normal(s: u8) -> (i32, i32) {
        match s {
            EAST => (1, 0),
            SOUTH => (0, 1),
            WEST => (-1, 0),
            _ => (0, -1),
        }
    }
}

/// A straight wall of a shape on which a door may start: doors of `len` tiles whose first tile
/// (lowest coordinate along the wall) lies in `lo..=hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DoorSide {
    /// The direction the wall faces ([`side`]).
    pub side: u8,
    /// The wall's coordinate across it (x for east and west walls, y for north and south).
    pub fixed: i32,
    /// Lowest first tile of a door, along the wall.
    pub lo: i32,
    /// Highest first tile of a door, along the wall.
    pub hi: i32,
    /// Door length in tiles.
    pub len: u32,
    /// Its rule's socket (`DoorRule::socket`): only doors of one socket meet.
    pub socket: u16,
    /// Which ways a directed connection may use it (`spec::door_kind`).
    pub kind: u8,
}

impl DoorSide {
    /// Whether a door of this side and one of `other` (facing it, of the same length) may
    /// realise a connection: the same socket, and, when `flow` asks, this side lets the
    /// connection go out and `other` lets it come in ([`Flow`]).
    #[inline]
    pub fn meets(&self, other: &DoorSide, flow: Flow) -> bool {
        use crate::floorplan::spec::door_kind::{ENTRANCE, EXIT};
        self.socket == other.socket
            && match flow {
                Flow::Any => true,
                Flow::Out => self.kind & EXIT != 0 && other.kind & ENTRANCE != 0,
                Flow::In => self.kind & ENTRANCE != 0 && other.kind & EXIT != 0,
            }
    }
}

/// The way a connection runs between two doors, seen from the first: either way, out of the
/// first into the second, or into the first out of the second.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Flow {
    /// An undirected connection.
    #[default]
    Any,
    /// From the first room to the second.
    Out,
    /// From the second room to the first.
    In,
}

impl Flow {
    /// The same connection seen from the other end.
    pub fn flipped(self) -> Flow {
        match self {
            Flow::Any => Flow::Any,
            Flow::Out => Flow::In,
            Flow::In => Flow::Out,
        }
    }
}

/// Tile classes of a shape's mask.
pub mod tile {
    /// Not part of the room.
    pub const OUTSIDE: u8 = 0;
    /// A wall tile (on the outline).
    pub const WALL: u8 = 1;
    /// A floor tile (strictly inside).
    pub const FLOOR: u8 = 2;
}

/// A template under one transform, normalised so that its bounding box starts at `(0, 0)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The template's index in its library.
    pub template: u32,
    /// The transform: `t & 3` quarter turns clockwise, after a left-right mirror when `t & 4`.
    pub transform: u8,
    /// The lattice bounding box is `[0, w] x [0, h]` (the room is `w + 1` tiles wide).
    pub w: i32,
    /// See `w`.
    pub h: i32,
    /// Lattice corners, positively oriented (interior on the left of each edge, y down).
    pub outline: Vec<(i32, i32)>,
    /// Rectangles whose union is the closed polygon (for overlap tests).
    pub rects: Vec<Rect>,
    /// Where doors may go.
    pub doors: Vec<DoorSide>,
    /// `(w + 1) * (h + 1)` tile classes ([`tile`]), row-major.
    pub mask: Vec<u8>,
    /// Floor tiles.
    pub floor: u32,
}

/// The shape of `library`'s template `template` under `transform`, if the template allows that
/// transform (and both exist).
pub fn shape_in(library: &Library, template: u16, transform: u8) -> Option<Shape> {
    let t = library.templates.get(template as usize)?;
    if (transform & 3 != 0 && !t.transforms.rotate)
        || (transform & 4 != 0 && !t.transforms.mirror)
        || transform > 7
    {
        return None;
    }
    Shape::new(t, u32::from(template), transform).ok()
}

/// Applies transform `t` to a point in doubled coordinates.
fn transform_point(t: u8, (mut x, mut y): (i64, i64)) -> (i64, i64) {
    if t & 4 != 0 {
        x = -x;
    }
    for _ in 0..(t & 3) {
        (x, y) = (-y, x);
    }
    (x, y)
}

/// Twice the signed area of a polygon (positive: interior on the left, y down).
fn signed_area2(p: &[(i64, i64)]) -> i64 {
    let n = p.len();
    (0..n)
        .map(|i| {
            let (a, b) = (p[i], p[(i + 1) % n]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum()
}

/// Drops corners where the outline goes straight on (and repeated corners).
fn simplify(points: &[(i64, i64)]) -> Vec<(i64, i64)> {
    let mut p: Vec<(i64, i64)> = points.to_vec();
    p.dedup();
    while p.len() > 1 && p.first() == p.last() {
        p.pop();
    }
    loop {
        let n = p.len();
        if n < 3 {
            return p;
        }
        let straight = (0..n).find(|&i| {
            let (a, b, c) = (p[(i + n - 1) % n], p[i], p[(i + 1) % n]);
            (a.0 == b.0 && b.0 == c.0) || (a.1 == b.1 && b.1 == c.1)
        });
        match straight {
            Some(i) => {
                p.remove(i);
            }
            None => return p,
        }
    }
}

/// Whether two axis-parallel segments share a point.
fn segments_meet(a: ((i64, i64), (i64, i64)), b: ((i64, i64), (i64, i64))) -> bool {
    let (ax0, ax1) = (a.0.0.min(a.1.0), a.0.0.max(a.1.0));
    let (ay0, ay1) = (a.0.1.min(a.1.1), a.0.1.max(a.1.1));
    let (bx0, bx1) = (b.0.0.min(b.1.0), b.0.0.max(b.1.0));
    let (by0, by1) = (b.0.1.min(b.1.1), b.0.1.max(b.1.1));
    ax0 <= bx1 && bx0 <= ax1 && ay0 <= by1 && by0 <= ay1
}

/// What is wrong with a polygon's corners (rectilinear, simple, at least 4 corners), if anything.
fn polygon_problem(p: &[(i64, i64)], what: &str) -> Option<String> {
    let n = p.len();
    if n < 4 {
        return Some(format!("{what} has {n} corners; a room needs at least 4"));
    }
    for i in 0..n {
        let (a, b) = (p[i], p[(i + 1) % n]);
        if a.0 != b.0 && a.1 != b.1 {
            return Some(format!(
                "{what} is not rectilinear: the edge from corner {} to corner {} is diagonal",
                i + 1,
                (i + 1) % n + 1
            ));
        }
    }
    if n % 2 == 1 {
        return Some(format!(
            "{what} is not rectilinear (an odd number of corners)"
        ));
    }
    for i in 0..n {
        for j in i + 2..n {
            if i == 0 && j == n - 1 {
                continue;
            }
            let e = |k: usize| (p[k], p[(k + 1) % n]);
            if segments_meet(e(i), e(j)) {
                return Some(format!(
                    "{what} crosses or touches itself (edges {} and {})",
                    i + 1,
                    j + 1
                ));
            }
        }
    }
    None
}

/// Rectangles covering a simple rectilinear polygon: one per slab between consecutive distinct
/// y coordinates and pair of crossing vertical edges, merged downwards where they line up.
fn decompose(p: &[(i32, i32)]) -> Vec<Rect> {
    let mut ys: Vec<i32> = p.iter().map(|q| q.1).collect();
    ys.sort_unstable();
    ys.dedup();
    let n = p.len();
    let mut out: Vec<Rect> = Vec::new();
    let mut xs = Vec::new();
    for w in ys.windows(2) {
        let (ya, yb) = (w[0], w[1]);
        xs.clear();
        for i in 0..n {
            let (a, b) = (p[i], p[(i + 1) % n]);
            if a.0 == b.0 && a.1.min(b.1) <= ya && a.1.max(b.1) >= yb {
                xs.push(a.0);
            }
        }
        xs.sort_unstable();
        for pair in xs.chunks_exact(2) {
            let (x0, x1) = (pair[0], pair[1]);
            match out
                .iter_mut()
                .find(|r| r.x0 == x0 && r.x1 == x1 && r.y1 == ya)
            {
                Some(r) => r.y1 = yb,
                None => out.push(Rect {
                    x0,
                    y0: ya,
                    x1,
                    y1: yb,
                }),
            }
        }
    }
    out
}

impl Shape {
    /// Template `index` of a library under transform `t` (0..8), or what is wrong with it.
    pub fn new(template: &Template, index: u32, t: u8) -> Result<Shape, String> {
        let raw: Vec<(i64, i64)> = template
            .outline
            .iter()
            .map(|&(x, y)| transform_point(t, (i64::from(x), i64::from(y))))
            .collect();
        let mut p = simplify(&raw);
        if let Some(problem) = polygon_problem(&p, "the outline") {
            return Err(problem);
        }
        if signed_area2(&p) < 0 {
            p.reverse();
        }
        let (mx, my) = (
            p.iter().map(|q| q.0).min().unwrap_or(0),
            p.iter().map(|q| q.1).min().unwrap_or(0),
        );
        // Tile-edge corners to lattice corners (doubled arithmetic: 2v + n1 + n2 - (1, 1)).
        let n = p.len();
        let normal = |a: (i64, i64), b: (i64, i64)| {
            let (dx, dy) = ((b.0 - a.0).signum(), (b.1 - a.1).signum());
            (-dy, dx)
        };
        let mut lattice: Vec<(i64, i64)> = Vec::with_capacity(n);
        for i in 0..n {
            let (prev, v, next) = (p[(i + n - 1) % n], p[i], p[(i + 1) % n]);
            let (n1, n2) = (normal(prev, v), normal(v, next));
            let (x2, y2) = (
                2 * (v.0 - mx) + n1.0 + n2.0 - 1,
                2 * (v.1 - my) + n1.1 + n2.1 - 1,
            );
            lattice.push((x2 / 2, y2 / 2));
        }
        let lattice = simplify(&lattice);
        if lattice.len() != n || polygon_problem(&lattice, "x").is_some() {
            return Err(
                "the outline is too thin: every part of a room must be at least 3 \
                        tiles across (a wall on each side of the floor)"
                    .into(),
            );
        }
        if lattice.iter().any(|&(x, y)| x > 4096 || y > 4096) {
            return Err("the outline is larger than 4096 tiles".into());
        }
        let outline: Vec<(i32, i32)> = lattice.iter().map(|&(x, y)| (x as i32, y as i32)).collect();
        let w = outline.iter().map(|q| q.0).max().unwrap_or(0);
        let h = outline.iter().map(|q| q.1).max().unwrap_or(0);
        // The doors first: a template with none is refused before its tiles are drawn (a
        // 4,096-tile square takes most of a second).
        let doors = door_sides(template, &outline, t, (mx, my))?;
        if doors.is_empty() {
            return Err(match template.doors.as_slice() {
                [
                    DoorRule {
                        place:
                            Doors::Simple {
                                length,
                                corner_distance,
                            },
                        sides: 0b1111,
                        ..
                    },
                ] => format!(
                    "no wall is long enough for a door of {length} tile(s) with \
                     {corner_distance} wall tile(s) between it and each corner"
                ),
                [
                    DoorRule {
                        place: Doors::Listed(_),
                        ..
                    },
                ] => "the template lists no doors".into(),
                _ => "its door rules leave no room for a door".into(),
            });
        }
        let rects = decompose(&outline);
        let mut mask = rasterise(&outline, &rects, w, h);
        for (k, hole) in template.holes.iter().enumerate() {
            cut_hole(&mut mask, w + 1, hole, t, (mx, my))
                .map_err(|e| format!("hole {}: {e}", k + 1))?;
        }
        let floor = floor_of(&mask, w + 1, !template.holes.is_empty())?;
        Ok(Shape {
            template: index,
            transform: t,
            w,
            h,
            outline,
            rects,
            doors,
            mask,
            floor,
        })
    }

    /// The tile class at `(x, y)` of the shape's own box ([`tile`]).
    #[inline]
    pub fn at(&self, x: i32, y: i32) -> u8 {
        if x < 0 || y < 0 || x > self.w || y > self.h {
            return tile::OUTSIDE;
        }
        self.mask[(y * (self.w + 1) + x) as usize]
    }

    /// Whether this shape at `(ax, ay)` and `other` at `(bx, by)` come closer than `gap` (see
    /// [`Rect::near`]).
    #[inline]
    pub fn near(&self, ax: i32, ay: i32, other: &Shape, bx: i32, by: i32, gap: i32) -> bool {
        if ax >= bx + other.w + gap
            || bx >= ax + self.w + gap
            || ay >= by + other.h + gap
            || by >= ay + self.h + gap
        {
            return false;
        }
        self.rects
            .iter()
            .any(|a| other.rects.iter().any(|b| a.near(ax, ay, b, bx, by, gap)))
    }
}

/// Every transform of every template of `templates` the template allows, without repeats (a
/// square turned a quarter is the same square), or the first template's problem as
/// `(template index, problem)`.
pub fn shapes_of(templates: &[Template]) -> Result<Vec<Shape>, (usize, String)> {
    let mut out: Vec<Shape> = Vec::new();
    for (i, t) in templates.iter().enumerate() {
        let first = out.len();
        for tr in 0..8u8 {
            if (tr & 3 != 0 && !t.transforms.rotate) || (tr & 4 != 0 && !t.transforms.mirror) {
                continue;
            }
            let shape = Shape::new(t, i as u32, tr).map_err(|e| (i, e))?;
            let same = out[first..].iter().any(|s| {
                s.outline_key() == shape.outline_key()
                    && s.doors == shape.doors
                    && s.mask == shape.mask
            });
            if !same {
                out.push(shape);
            }
        }
    }
    Ok(out)
}

impl Shape {
    /// The outline up to where it starts (for spotting repeats).
    fn outline_key(&self) -> Vec<(i32, i32)> {
        let mut v = self.outline.clone();
        if let Some(k) = (0..v.len()).min_by_key(|&k| v[k]) {
            v.rotate_left(k);
        }
        v
    }
}

/// What is wrong with a template (outline, doors), if anything: every transform it allows is
/// built and checked.
pub fn template_problem(template: &Template) -> Option<String> {
    shapes_of(std::slice::from_ref(template))
        .err()
        .map(|(_, e)| e)
}

/// Tile classes of the lattice polygon over its box.
fn rasterise(outline: &[(i32, i32)], rects: &[Rect], w: i32, h: i32) -> Vec<u8> {
    let (cols, rows) = (w + 1, h + 1);
    let mut mask = vec![tile::OUTSIDE; (cols * rows) as usize];
    for r in rects {
        for y in r.y0..=r.y1 {
            for x in r.x0..=r.x1 {
                mask[(y * cols + x) as usize] = tile::FLOOR;
            }
        }
    }
    let n = outline.len();
    for i in 0..n {
        let (a, b) = (outline[i], outline[(i + 1) % n]);
        let (dx, dy) = ((b.0 - a.0).signum(), (b.1 - a.1).signum());
        let (mut x, mut y) = a;
        loop {
            mask[(y * cols + x) as usize] = tile::WALL;
            if (x, y) == b {
                break;
            }
            x += dx;
            y += dy;
        }
    }
    mask
}

/// Cuts a hole (a polygon in the template's coordinates, under transform `t`, the outline's
/// corner at `(mx, my)`) into a shape's tile classes: the covered tiles next to an uncovered one
/// become wall, the others void. Every covered tile must be floor.
fn cut_hole(
    mask: &mut [u8],
    cols: i32,
    hole: &[(i32, i32)],
    t: u8,
    (mx, my): (i64, i64),
) -> Result<(), String> {
    let raw: Vec<(i64, i64)> = hole
        .iter()
        .map(|&(x, y)| {
            let (x, y) = transform_point(t, (i64::from(x), i64::from(y)));
            (x - mx, y - my)
        })
        .collect();
    let p = simplify(&raw);
    if let Some(problem) = polygon_problem(&p, "it") {
        return Err(problem);
    }
    let rows = mask.len() as i32 / cols;
    // Tile (x, y) is covered when its centre (2x + 1, 2y + 1 doubled) is inside: a ray to the
    // right crosses the polygon's vertical edges an odd number of times.
    let covered = |x: i32, y: i32| {
        let (px, py) = (2 * i64::from(x) + 1, 2 * i64::from(y) + 1);
        let n = p.len();
        (0..n)
            .filter(|&i| {
                let (a, b) = (p[i], p[(i + 1) % n]);
                a.0 == b.0 && 2 * a.0 > px && (2 * a.1 - py).signum() != (2 * b.1 - py).signum()
            })
            .count()
            % 2
            == 1
    };
    let mut cut = Vec::new();
    for y in 0..rows {
        for x in 0..cols {
            if covered(x, y) {
                if mask[(y * cols + x) as usize] != tile::FLOOR {
                    return Err(
                        "a hole must lie inside the floor, the room's wall around it".into(),
                    );
                }
                let edge = (-1..=1).any(|dy| (-1..=1).any(|dx| !covered(x + dx, y + dy)));
                cut.push(((y * cols + x) as usize, edge));
            }
        }
    }
    if cut.is_empty() {
        return Err("it covers no tile".into());
    }
    for (i, edge) in cut {
        mask[i] = if edge { tile::WALL } else { tile::OUTSIDE };
    }
    Ok(())
}

/// The floor tiles of a shape's tile classes, or why they are not a room's floor (none, in
/// pieces, or a wall with no floor beside it; `holes`: the template's holes did it).
fn floor_of(mask: &[u8], cols: i32, holes: bool) -> Result<u32, String> {
    let floor = mask.iter().filter(|&&c| c == tile::FLOOR).count() as u32;
    if floor == 0 || !floor_connected(mask, cols) || !walls_next_to_floor(mask, cols) {
        return Err(if holes {
            "its holes leave the floor empty or in pieces, or a wall with no floor beside it \
             (keep a tile of floor between a hole and a wall)"
                .into()
        } else {
            "the outline is too thin: its floor is empty or falls apart".into()
        });
    }
    Ok(floor)
}

/// Whether every wall tile of a mask has a floor tile among its eight neighbours (a part of the
/// outline 2 tiles across would be all wall).
fn walls_next_to_floor(mask: &[u8], cols: i32) -> bool {
    let rows = mask.len() as i32 / cols;
    (0..mask.len()).all(|i| {
        if mask[i] != tile::WALL {
            return true;
        }
        let (x, y) = (i as i32 % cols, i as i32 / cols);
        (-1..=1).any(|dy| {
            (-1..=1).any(|dx| {
                let (nx, ny) = (x + dx, y + dy);
                nx >= 0
                    && ny >= 0
                    && nx < cols
                    && ny < rows
                    && mask[(ny * cols + nx) as usize] == tile::FLOOR
            })
        })
    })
}

/// Whether the floor tiles of a mask are one 4-connected piece.
fn floor_connected(mask: &[u8], cols: i32) -> bool {
    let Some(start) = mask.iter().position(|&c| c == tile::FLOOR) else {
        return false;
    };
    let mut seen = vec![false; mask.len()];
    let mut stack = vec![start];
    seen[start] = true;
    let mut count = 0;
    while let Some(i) = stack.pop() {
        count += 1;
        let (x, y) = (i as i32 % cols, i as i32 / cols);
        for (nx, ny) in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
            if nx < 0 || ny < 0 || nx >= cols {
                continue;
            }
            let j = (ny * cols + nx) as usize;
            if j < mask.len() && !seen[j] && mask[j] == tile::FLOOR {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    count == mask.iter().filter(|&&c| c == tile::FLOOR).count()
}

/// The door sides of a lattice outline under the template's door rules. Listed doors are
/// transformed with the outline (`t`, and `(mx, my)` the doubled-coordinate minimum the outline
/// was moved by).
fn door_sides(
    template: &Template,
    outline: &[(i32, i32)],
    t: u8,
    (mx, my): (i64, i64),
) -> Result<Vec<DoorSide>, String> {
    let n = outline.len();
    let wall = |i: usize| -> (u8, i32, i32, i32) {
        // (side, fixed, first along, last along), corners included.
        let (a, b) = (outline[i], outline[(i + 1) % n]);
        // Interior on the left of a -> b; outward is the right: (dy, -dx).
        let (dx, dy) = ((b.0 - a.0).signum(), (b.1 - a.1).signum());
        let s = match (dy, -dx) {
            (1, 0) => side::EAST,
            (0, 1) => side::SOUTH,
            (-1, 0) => side::WEST,
            _ => side::NORTH,
        };
        if a.0 == b.0 {
            (s, a.0, a.1.min(b.1), a.1.max(b.1))
        } else {
            (s, a.1, a.0.min(b.0), a.0.max(b.0))
        }
    };
    let mut out = Vec::new();
    for rule in &template.doors {
        let before = out.len();
        rule_sides(rule, &wall, n, t, (mx, my), &mut out)?;
        for d in &mut out[before..] {
            d.socket = rule.socket;
            d.kind = rule.kind;
        }
    }
    Ok(out)
}

/// The door sides rule `rule` adds to `out` (socket and kind left 0), on the walls `wall(i)`
/// gives (`(side, fixed, first, last)` of the `n` walls, corners included).
fn rule_sides(
    rule: &DoorRule,
    wall: &impl Fn(usize) -> (u8, i32, i32, i32),
    n: usize,
    t: u8,
    (mx, my): (i64, i64),
    out: &mut Vec<DoorSide>,
) -> Result<(), String> {
    let side_of = |len: u32, s: u8, fixed: i32, lo: i32, hi: i32| DoorSide {
        side: s,
        fixed,
        lo,
        hi,
        len,
        socket: 0,
        kind: 0,
    };
    // A listed door or a door line on one straight wall, clear of its corners, as
    // `(side, fixed, first, last)` along the wall.
    let on_wall = |k: usize, [p, q]: [(i32, i32); 2]| {
        let map = |(x, y): (i32, i32)| {
            let (x2, y2) = transform_point(t, (2 * i64::from(x) + 1, 2 * i64::from(y) + 1));
            ((x2 - 2 * mx - 1) / 2, (y2 - 2 * my - 1) / 2)
        };
        let (p, q) = (map(p), map(q));
        (0..n)
            .find_map(|i| {
                let (s, fixed, a, b) = wall(i);
                let (f, u0, u1) = if side::vertical(s) {
                    (p.0, p.1.min(q.1), p.1.max(q.1))
                } else {
                    (p.1, p.0.min(q.0), p.0.max(q.0))
                };
                let same_line = if side::vertical(s) {
                    p.0 == q.0
                } else {
                    p.1 == q.1
                };
                (same_line && f == i64::from(fixed) && u0 > i64::from(a) && u1 < i64::from(b))
                    .then_some((i, s, fixed, u0 as i32, u1 as i32))
            })
            .ok_or_else(|| {
                format!(
                    "door {} is not on one straight wall clear of its corners",
                    k + 1
                )
            })
    };
    match &rule.place {
        Doors::Simple {
            length,
            corner_distance,
        } => {
            let (len, cd) = (*length as i32, *corner_distance as i32);
            for i in 0..n {
                let (s, fixed, a, b) = wall(i);
                let (lo, hi) = (a + 1 + cd, b - 1 - cd - (len - 1));
                if len >= 1 && lo <= hi && rule.sides & (1 << drawn_side(t, s)) != 0 {
                    out.push(side_of(len as u32, s, fixed, lo, hi));
                }
            }
        }
        Doors::Listed(list) => {
            for (k, &door) in list.iter().enumerate() {
                let (_, s, fixed, u0, u1) = on_wall(k, door)?;
                out.push(side_of((u1 - u0 + 1) as u32, s, fixed, u0, u0));
            }
        }
        Doors::Lines { length, lines } => {
            // In the order of the walls, as simple doors are: lines covering the same runs give
            // the same door sides in the same order, whatever order they are listed in.
            let mut found = Vec::with_capacity(lines.len());
            for (k, &line) in lines.iter().enumerate() {
                let (i, s, fixed, u0, u1) = on_wall(k, line).map_err(|_| {
                    format!(
                        "door line {} is not on one straight wall clear of its corners",
                        k + 1
                    )
                })?;
                let hi = u1 - (*length as i32 - 1);
                if hi < u0 {
                    return Err(format!(
                        "door line {} is {} tile(s) long, shorter than its doors ({length})",
                        k + 1,
                        u1 - u0 + 1
                    ));
                }
                found.push((i, side_of(*length, s, fixed, u0, hi)));
            }
            found.sort_by_key(|(i, d)| (*i, d.lo));
            out.extend(found.into_iter().map(|(_, d)| d));
        }
    }
    Ok(())
}

/// The way a wall facing `s` in a shape under transform `t` faces as the template is drawn.
fn drawn_side(t: u8, s: u8) -> u8 {
    let (nx, ny) = side::normal(s);
    (0..4u8)
        .find(|&d| {
            let (dx, dy) = side::normal(d);
            transform_point(t, (i64::from(dx), i64::from(dy))) == (i64::from(nx), i64::from(ny))
        })
        .unwrap_or(s)
}

#[cfg(test)]
#[path = "holes_tests.rs"]
mod holes_tests;
