//! The tile checks of a stored map, shared by the `map` kind's and the grammar kind's verify
//! ([`check_tiles`] against the [`MapRules`] each kind reads from its inputs):
//! - every floor tile has one owner (a room or a corridor) and nothing else has one;
//! - each room's floor is exactly its template's interior under its stored transform, at its
//!   stored box, and its wall ring is wall or door;
//! - two floor tiles of different owners never touch: passing between owners takes a door;
//! - every door joins two owners the graph connects (two rooms joined without a corridor, or a
//!   room and its connection's corridor), and every connection has its door(s), of rules with
//!   the same socket on both sides that let a directed connection out of its first room and
//!   into its second;
//! - rooms no connection joins keep their least distance apart;
//! - all floor and doors are one 4-connected piece.

use crate::core::error::Violation;
use crate::core::generator::{ExtraValue, RoomsView};
use crate::core::grid::GridView;
use crate::core::grid::cell;
use crate::ensure_level;
use crate::floorplan::columns::MAP_COLUMNS;
use crate::floorplan::shape::{DoorSide, Flow, Shape, side, tile};

/// What a map level is checked against: its rooms and connections, and the templates,
/// transforms and gaps they may take. The `map` kind reads them from its graph and library;
/// the grammar kind from each level's graph.
pub(crate) trait MapRules {
    /// Rooms (owners `1..=rooms`).
    fn rooms(&self) -> usize;
    /// Connections (corridor owners `rooms + 1..`).
    fn connections(&self) -> usize;
    /// Connection `j`'s rooms.
    fn ends(&self, j: usize) -> (usize, usize);
    /// Room `v`, for messages.
    fn room_name(&self, v: usize) -> String;
    /// The shape room `v` takes with `template` under `transform`; `Ok(None)` for a room
    /// without floor (a cosmetic vertex of a grammar level); an error when it may not.
    fn shape(&self, v: usize, template: u16, transform: u8) -> Result<Option<Shape>, String>;
    /// The gap ranges connection `j` may take (`[]`: it is not realised at all).
    fn gaps(&self, j: usize) -> &[(i32, i32)];
    /// Least distance between rooms no connection joins.
    fn min_distance(&self) -> i32;
    /// Whether connection `j` runs from its first room to its second only.
    fn directed(&self, _j: usize) -> bool {
        false
    }
    /// The profile key that sets it, for messages.
    fn min_distance_key(&self) -> &'static str;
    /// The shapes connection `j`'s corridor room may take (its corridor templates under every
    /// transform they allow; empty: it takes no corridor room).
    fn corridor_shapes(&self, _j: usize) -> Vec<&Shape> {
        Vec::new()
    }
}

/// What [`check_tiles`] found, for the kind's own checks of its metrics.
pub(crate) struct Tally {
    /// Per owner (0, rooms, corridors), its floor tiles.
    pub floor_count: Vec<u32>,
    /// Per connection, its corridor's length in tiles (0: none).
    pub corridors: Vec<u32>,
    /// Door tiles.
    pub doors: u32,
    /// Per connection and end (room a's side, room b's side), its door tiles ([`Run`]).
    pub runs: Vec<[Run; 2]>,
    /// Per room, its shape (`None`: a vertex without a room).
    pub shapes: Vec<Option<Shape>>,
    /// Per room, the grid position of its template box.
    pub origin: (Vec<i32>, Vec<i32>),
}

/// Checks a map level's tiles against `rules`: the extra columns `extra` (`room_template`,
/// `room_transform`, `owner`, in [`MAP_COLUMNS`]' order) and the stored room boxes, each the
/// room's template box shrunk by `inset` tiles on every side (0: the box with its walls, as the
/// `map` kind stores it; 1: the floor's box, as grammar levels store it).
pub(crate) fn check_tiles(
    g: &impl MapRules,
    grid: &GridView<'_>,
    rooms: &RoomsView<'_>,
    extra: &[ExtraValue<'_>],
    inset: i32,
) -> Result<Tally, Violation> {
    let (template, transform, owner) = map_columns(g, grid, rooms, extra)?;
    let boxes = owner_boxes(g, grid, owner)?;
    let mut floor_count = vec![0u32; g.rooms() + g.connections() + 1];
    for &o in owner {
        floor_count[o as usize] += 1;
    }
    let placed = check_rooms(
        g,
        grid,
        rooms,
        (template, transform, owner),
        inset,
        &floor_count,
    )?;
    let (runs, doors) = check_doors(g, grid, owner)?;
    let corridors = check_links(
        g,
        (grid, owner),
        &placed.shapes,
        (&placed.ox, &placed.oy),
        &boxes,
        &floor_count,
        &runs,
    )?;
    check_distances(g, &placed)?;
    check_one_piece(grid)?;
    Ok(Tally {
        floor_count,
        corridors,
        doors,
        runs,
        shapes: placed.shapes,
        origin: (placed.ox, placed.oy),
    })
}

/// The map columns: per room its template and transform, per tile its owner.
type MapColumns<'a> = (&'a [u16], &'a [u8], &'a [u16]);

/// The map columns of `extra` (`room_template`, `room_transform`, `owner`), after checking
/// their types and lengths, and the grid's, against `g` and the grid's size.
fn map_columns<'a>(
    g: &impl MapRules,
    grid: &GridView<'_>,
    rooms: &RoomsView<'_>,
    extra: &[ExtraValue<'a>],
) -> Result<MapColumns<'a>, Violation> {
    ensure_level!(
        extra.len() >= MAP_COLUMNS.len(),
        "{} extra columns, expected {}",
        extra.len(),
        MAP_COLUMNS.len()
    );
    let (Some(template), Some(transform), Some(owner)) =
        (extra[0].as_u16s(), extra[1].as_u8s(), extra[2].as_u16s())
    else {
        return Err(Violation::new("the map columns have the wrong types"));
    };
    let n = g.rooms();
    let (w, h) = (grid.width as usize, grid.height as usize);
    ensure_level!(
        grid.cells.len() == w * h,
        "the grid holds {} cells, not {w} x {h}",
        grid.cells.len()
    );
    ensure_level!(
        owner.len() == w * h,
        "the owner grid holds {} tiles, not {w} x {h}",
        owner.len()
    );
    for (what, len) in [
        ("room_template", template.len()),
        ("room_transform", transform.len()),
        ("room_x0", rooms.x0.len()),
        ("room_y0", rooms.y0.len()),
        ("room_x1", rooms.x1.len()),
        ("room_y1", rooms.y1.len()),
    ] {
        ensure_level!(
            len == n,
            "{what} holds {len} entries, the graph has {n} rooms"
        );
    }
    Ok((template, transform, owner))
}

/// Owner `o`, for messages: nothing, a room, or a connection's corridor.
fn owner_name(g: &impl MapRules, o: u16) -> String {
    let n = g.rooms();
    let o = o as usize;
    if o == 0 {
        "nothing".into()
    } else if o <= n {
        g.room_name(o - 1)
    } else {
        let (a, b) = g.ends(o - 1 - n);
        format!("the corridor of {} - {}", g.room_name(a), g.room_name(b))
    }
}

/// An owner's box: the least and greatest x and y of its tiles.
type Box4 = (usize, usize, usize, usize);

/// Checks that cell codes and owners agree; returns each owner's box.
fn owner_boxes(
    g: &impl MapRules,
    grid: &GridView<'_>,
    owner: &[u16],
) -> Result<Vec<Box4>, Violation> {
    let (n, m) = (g.rooms(), g.connections());
    let w = grid.width as usize;
    let mut boxes = vec![(usize::MAX, usize::MAX, 0usize, 0usize); n + m + 1];
    for (i, (&c, &o)) in grid.cells.iter().zip(owner).enumerate() {
        if (o as usize) <= n + m {
            let b = &mut boxes[o as usize];
            let (x, y) = (i % w, i / w);
            *b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
        }
        ensure_level!(
            matches!(c, cell::WALL | cell::FLOOR | cell::DOOR | cell::VOID),
            "tile ({}, {}) holds cell code {c}",
            i % w,
            i / w
        );
        ensure_level!(
            (c == cell::FLOOR) == (o != 0) && (o as usize) <= n + m,
            "tile ({}, {}) is code {c} owned by {o}",
            i % w,
            i / w
        );
    }
    Ok(boxes)
}

/// The rooms as placed: per room, its shape (`None`: a vertex without a room) and the grid
/// position of its template box.
struct Placed {
    shapes: Vec<Option<Shape>>,
    ox: Vec<i32>,
    oy: Vec<i32>,
}

/// Checks that each room's floor is its template's interior, its walls wall or door.
fn check_rooms(
    g: &impl MapRules,
    grid: &GridView<'_>,
    rooms: &RoomsView<'_>,
    (template, transform, owner): MapColumns<'_>,
    inset: i32,
    floor_count: &[u32],
) -> Result<Placed, Violation> {
    let n = g.rooms();
    let (w, h) = (grid.width as usize, grid.height as usize);
    let mut shapes: Vec<Option<Shape>> = Vec::with_capacity(n);
    let (mut ox, mut oy) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for v in 0..n {
        let sh = g
            .shape(v, template[v], transform[v])
            .map_err(Violation::new)?;
        let (x0, y0) = (rooms.x0[v] - inset, rooms.y0[v] - inset);
        ox.push(x0);
        oy.push(y0);
        let Some(sh) = sh else {
            ensure_level!(
                floor_count[v + 1] == 0
                    && (rooms.x0[v] == rooms.x1[v] || rooms.y0[v] == rooms.y1[v]),
                "{} has no room but owns {} floor tiles or a non-empty box",
                g.room_name(v),
                floor_count[v + 1]
            );
            shapes.push(None);
            continue;
        };
        ensure_level!(
            x0 >= 0
                && y0 >= 0
                && rooms.x1[v] + inset == x0 + sh.w + 1
                && rooms.y1[v] + inset == y0 + sh.h + 1
                && ((x0 + sh.w) as usize) < w
                && ((y0 + sh.h) as usize) < h,
            "{}'s box does not fit its template or the grid",
            g.room_name(v)
        );
        check_room_tiles(
            g,
            grid,
            owner,
            ((v + 1) as u16, &g.room_name(v)),
            &sh,
            (x0, y0),
        )?;
        ensure_level!(
            floor_count[v + 1] == sh.floor,
            "{} owns {} floor tiles, its template has {}",
            g.room_name(v),
            floor_count[v + 1],
            sh.floor
        );
        shapes.push(Some(sh));
    }
    Ok(Placed { shapes, ox, oy })
}

/// The tiles of owner `o` (a room, or a corridor room), its shape `sh` at `(x0, y0)`: its
/// floor is its own, its walls wall or door; `name` names it.
fn check_room_tiles(
    g: &impl MapRules,
    grid: &GridView<'_>,
    owner: &[u16],
    (o, name): (u16, &str),
    sh: &Shape,
    (x0, y0): (i32, i32),
) -> Result<(), Violation> {
    let w = grid.width as usize;
    for y in 0..=sh.h {
        for x in 0..=sh.w {
            let i = (y0 + y) as usize * w + (x0 + x) as usize;
            match sh.at(x, y) {
                tile::FLOOR => ensure_level!(
                    owner[i] == o,
                    "tile ({}, {}) inside {name} belongs to {}",
                    x0 + x,
                    y0 + y,
                    owner_name(g, owner[i])
                ),
                tile::WALL => ensure_level!(
                    matches!(grid.cells[i], cell::WALL | cell::DOOR),
                    "tile ({}, {}) on {name}'s wall is code {}",
                    x0 + x,
                    y0 + y,
                    grid.cells[i]
                ),
                _ => {}
            }
        }
    }
    Ok(())
}

/// A connection's door `run` (`what`: the connection, and whether it has a corridor) is there
/// and room `room`'s template (placed as `at`) allows it.
fn door_there(
    g: &impl MapRules,
    (what, corridor): (&str, bool),
    run: Run,
    (at, room): (At<'_>, usize),
) -> Result<(), Violation> {
    ensure_level!(
        run.0 > 0,
        "{what} has no door{}",
        if corridor {
            " at one end of its corridor"
        } else {
            ""
        }
    );
    ensure_level!(
        door_allowed(at.0, at.1, at.2, run),
        "{what}: its door at ({}, {}) ({} tiles) is not one {}'s template allows",
        run.1,
        run.2,
        run.0,
        g.room_name(room)
    );
    Ok(())
}

/// A placed shape: the shape and the grid position of its box.
type At<'s> = (&'s Shape, i32, i32);

/// Connection `j`'s corridor room (one of the shapes `via`, its floor `tiles` tiles in the box
/// `bx`) is one of its corridor templates, and its doors `runs` to room a (`ends.0`) and room b
/// (`ends.1`) are ones both sides' rules allow, with one socket, and the way a directed
/// connection runs.
fn check_corridor_room(
    g: &impl MapRules,
    cells: (&GridView<'_>, &[u16]),
    (j, via, (bx, tiles)): (usize, &[&Shape], (Box4, usize)),
    ends: (At<'_>, At<'_>),
    runs: [Run; 2],
    what: &str,
) -> Result<(), Violation> {
    ensure_level!(tiles > 0, "{what} has no corridor room");
    let placed = corridor_room(g, cells, (j, via), (bx, tiles));
    ensure_level!(
        !placed.is_empty(),
        "{what}: its corridor ({tiles} floor tiles in the box at ({}, {})) is none of its \
         corridor templates under a transform they allow",
        bx.0,
        bx.1
    );
    // Shapes of one floor may differ in their doors (a square turned): one must do.
    let mut first = None;
    for (sc, cx, cy) in placed {
        let doors = runs.iter().find(|&&run| !door_allowed(sc, cx, cy, run));
        let result = match doors {
            Some(run) => Err(Violation::new(format!(
                "{what}: its door at ({}, {}) ({} tiles) is not one its corridor room's \
                 template allows",
                run.1, run.2, run.0
            ))),
            None => rules_meet(g, j, (ends.0, runs[0]), ((sc, cx, cy), runs[0]), what)
                .and_then(|()| rules_meet(g, j, ((sc, cx, cy), runs[1]), (ends.1, runs[1]), what)),
        };
        match result {
            Ok(()) => return Ok(()),
            Err(e) => {
                first.get_or_insert(e);
            }
        }
    }
    Err(first.expect("at least one placement was tried"))
}

/// Where connection `j`'s corridor room may lie: every one of `shapes` (its corridor templates
/// under their transforms) whose floor is exactly the corridor's `tiles` floor tiles in the
/// box `bx`, its walls wall or door, with the grid position of its box.
fn corridor_room<'s>(
    g: &impl MapRules,
    (grid, owner): (&GridView<'_>, &[u16]),
    (j, shapes): (usize, &[&'s Shape]),
    (bx, tiles): (Box4, usize),
) -> Vec<At<'s>> {
    let o = (1 + g.rooms() + j) as u16;
    let (w, h) = (grid.width as i32, grid.height as i32);
    let mut out = Vec::new();
    for &sh in shapes.iter().filter(|sh| sh.floor as usize == tiles) {
        let row = (sh.w + 1) as usize;
        let floor = sh
            .mask
            .iter()
            .enumerate()
            .filter(|&(_, &t)| t == tile::FLOOR);
        let (fx, fy) = floor.fold((i32::MAX, i32::MAX), |(fx, fy), (i, _)| {
            (fx.min((i % row) as i32), fy.min((i / row) as i32))
        });
        let (x0, y0) = (bx.0 as i32 - fx, bx.1 as i32 - fy);
        let inside = x0 >= 0 && y0 >= 0 && x0 + sh.w < w && y0 + sh.h < h;
        if inside && check_room_tiles(g, grid, owner, (o, ""), sh, (x0, y0)).is_ok() {
            out.push((sh, x0, y0));
        }
    }
    out
}

/// Checks that floor of different owners never touches and that doors join connected owners.
/// Returns, per connection and end (room a's side, room b's side), its door tiles (count and
/// box), and the number of door tiles.
fn check_doors(
    g: &impl MapRules,
    grid: &GridView<'_>,
    owner: &[u16],
) -> Result<(Vec<[Run; 2]>, u32), Violation> {
    let m = g.connections();
    let (w, h) = (grid.width as usize, grid.height as usize);
    let mut runs = vec![[(0usize, usize::MAX, usize::MAX, 0usize, 0usize); 2]; m];
    let mut doors = 0u32;
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            let right = (x + 1 < w).then(|| i + 1);
            let down = (y + 1 < h).then(|| i + w);
            if owner[i] != 0 {
                for j in [right, down].into_iter().flatten() {
                    ensure_level!(
                        owner[j] == 0 || owner[j] == owner[i],
                        "the floor of {} touches the floor of {} at ({x}, {y}) with no door",
                        owner_name(g, owner[i]),
                        owner_name(g, owner[j])
                    );
                }
            }
            if grid.cells[i] != cell::DOOR {
                continue;
            }
            doors += 1;
            let (j, end) = door_link(g, (w, h), owner, (x, y))?;
            let r = &mut runs[j][end];
            *r = (r.0 + 1, r.1.min(x), r.2.min(y), r.3.max(x), r.4.max(y));
        }
    }
    Ok((runs, doors))
}

/// The connection and end (0: room a's side, 1: room b's side) the door at `(x, y)` belongs to,
/// after checking that it joins two floors the graph connects.
fn door_link(
    g: &impl MapRules,
    (w, h): (usize, usize),
    owner: &[u16],
    (x, y): (usize, usize),
) -> Result<(usize, usize), Violation> {
    let (n, m) = (g.rooms(), g.connections());
    let at = |dx: isize, dy: isize| -> u16 {
        let (nx, ny) = (x as isize + dx, y as isize + dy);
        if nx < 0 || ny < 0 || nx >= w as isize || ny >= h as isize {
            0
        } else {
            owner[ny as usize * w + nx as usize]
        }
    };
    let pair = [(at(-1, 0), at(1, 0)), (at(0, -1), at(0, 1))]
        .into_iter()
        .find(|&(p, q)| p != 0 && q != 0);
    let Some((p, q)) = pair else {
        return Err(Violation::new(format!(
            "the door at ({x}, {y}) does not join two floors"
        )));
    };
    let (lo, hi) = (p.min(q) as usize, p.max(q) as usize);
    let ok = (0..m).filter(|&j| !g.gaps(j).is_empty()).find_map(|j| {
        let (a, b) = g.ends(j);
        let (a, b) = (a + 1, b + 1);
        let corridor = 1 + n + j;
        if (lo, hi) == (a.min(b), a.max(b)) {
            Some((j, 0))
        } else if hi == corridor && (lo == a || lo == b) {
            Some((j, usize::from(lo == b)))
        } else {
            None
        }
    });
    ok.ok_or_else(|| {
        Violation::new(format!(
            "the door at ({x}, {y}) joins {} and {}, which the graph does not connect",
            owner_name(g, p),
            owner_name(g, q)
        ))
    })
}

/// Checks that rooms no connection joins keep their distance.
fn check_distances(g: &impl MapRules, placed: &Placed) -> Result<(), Violation> {
    let (n, m) = (g.rooms(), g.connections());
    let Placed { shapes, ox, oy } = placed;
    let d = g.min_distance();
    let mut connected = vec![false; n * n];
    for j in (0..m).filter(|&j| !g.gaps(j).is_empty()) {
        let (a, b) = g.ends(j);
        connected[a * n + b] = true;
        connected[b * n + a] = true;
    }
    for a in 0..n {
        let Some(sa) = &shapes[a] else { continue };
        for b in a + 1..n {
            let Some(sb) = &shapes[b] else { continue };
            let gap = if connected[a * n + b] { 0 } else { d };
            ensure_level!(
                !sa.near(ox[a], oy[a], sb, ox[b], oy[b], gap),
                "{} and {} are closer than {} = {d}",
                g.room_name(a),
                g.room_name(b),
                g.min_distance_key()
            );
        }
    }
    Ok(())
}

/// Checks that all floor and doors are one piece.
fn check_one_piece(grid: &GridView<'_>) -> Result<(), Violation> {
    let passable = |c: u8| c == cell::FLOOR || c == cell::DOOR;
    let total = grid.cells.iter().filter(|&&c| passable(c)).count();
    if let Some(start) = grid.cells.iter().position(|&c| passable(c)) {
        let mut seen = Vec::new();
        let reached =
            crate::core::grid::flood4_by(grid.cells, grid.width, start, passable, &mut seen);
        ensure_level!(
            reached == total,
            "the floor falls apart: {reached} of {total} floor and door tiles can be reached"
        );
    }
    Ok(())
}

/// A door run: tiles, then the box of their positions `(x0, y0, x1, y1)` (`(0, MAX, MAX, 0, 0)`
/// for none).
pub(crate) type Run = (usize, usize, usize, usize, usize);

/// The door sides of `shape` placed at `(ox, oy)` that allow a door run.
fn matching(shape: &Shape, ox: i32, oy: i32, run: Run) -> impl Iterator<Item = &DoorSide> {
    let (count, x0, y0, x1, y1) = run;
    let (x0, y0, x1, y1) = (
        x0 as i32 - ox,
        y0 as i32 - oy,
        x1 as i32 - ox,
        y1 as i32 - oy,
    );
    shape.doors.iter().filter(move |d| {
        let (fixed, lo, hi) = if side::vertical(d.side) {
            (x0 == x1 && x0 == d.fixed, y0, y1)
        } else {
            (y0 == y1 && y0 == d.fixed, x0, x1)
        };
        fixed
            && d.len as usize == count
            && (hi - lo + 1) as usize == count
            && (d.lo..=d.hi).contains(&lo)
    })
}

/// Whether a door run of `shape` placed at `(ox, oy)` is one its door rules allow.
fn door_allowed(shape: &Shape, ox: i32, oy: i32, run: Run) -> bool {
    matching(shape, ox, oy, run).next().is_some()
}

/// The length of a connection's corridor (`tiles` floor tiles in the box `(x0, y0, x1, y1)`,
/// its doors `runs`), after checking that it is a straight strip as wide as its doors of a
/// length `ranges` allows.
fn corridor_length(
    (x0, y0, x1, y1): (usize, usize, usize, usize),
    tiles: usize,
    runs: [Run; 2],
    ranges: &[(i32, i32)],
    what: &str,
) -> Result<u32, Violation> {
    let (bw, bh) = (x1 - x0 + 1, y1 - y0 + 1);
    let width = runs[0].0;
    let length = [(bw, bh), (bh, bw)]
        .into_iter()
        .find(|&(across, along)| {
            across == width
                && ranges
                    .iter()
                    .any(|r| (r.0..=r.1).contains(&(along as i32 + 1)))
        })
        .map(|(_, along)| along);
    ensure_level!(
        bw * bh == tiles && length.is_some() && runs[1].0 == width,
        "{what}: its corridor ({tiles} tiles in a {bw} x {bh} box at ({x0}, {y0})) is not a \
         straight strip as wide as its doors and of an allowed length"
    );
    Ok(length.unwrap_or(0) as u32)
}

/// The rules of a connection's two doors (`ra` of room a's shape, `rb` of room b's, each at its
/// place) meet: one socket, and the way a directed connection runs.
fn rules_meet(
    g: &impl MapRules,
    j: usize,
    ((sa, ax, ay), ra): ((&Shape, i32, i32), Run),
    ((sb, bx, by), rb): ((&Shape, i32, i32), Run),
    what: &str,
) -> Result<(), Violation> {
    let flow = if g.directed(j) { Flow::Out } else { Flow::Any };
    let mut rules_a = matching(sa, ax, ay, ra);
    ensure_level!(
        rules_a.any(|x| matching(sb, bx, by, rb).any(|y| x.meets(y, flow))),
        "{what}: no rule of its doors at ({}, {}) and ({}, {}) has the same socket on both \
         sides{}",
        ra.1,
        ra.2,
        rb.1,
        rb.2,
        if g.directed(j) {
            " and lets it go out of the first room and into the second"
        } else {
            ""
        }
    );
    Ok(())
}

/// Every connection is realised the way the profile and its door rules allow: a door between the
/// two rooms, or a straight corridor of an allowed length, as wide as its doors, with a door at
/// each end. Returns each connection's corridor length (0: none).
fn check_links(
    g: &impl MapRules,
    cells: (&GridView<'_>, &[u16]),
    shapes: &[Option<Shape>],
    (ox, oy): (&[i32], &[i32]),
    boxes: &[(usize, usize, usize, usize)],
    floor_count: &[u32],
    runs: &[[Run; 2]],
) -> Result<Vec<u32>, Violation> {
    let n = g.rooms();
    let mut lengths = Vec::with_capacity(runs.len());
    for j in 0..g.connections() {
        let (a, b) = g.ends(j);
        let what = || {
            format!(
                "connection {} ({} - {})",
                j + 1,
                g.room_name(a),
                g.room_name(b)
            )
        };
        let ranges = g.gaps(j);
        let tiles = floor_count[1 + n + j] as usize;
        if ranges.is_empty() {
            ensure_level!(tiles == 0, "{} is not walkable but has a corridor", what());
            lengths.push(0);
            continue;
        }
        let (Some(sa), Some(sb)) = (&shapes[a], &shapes[b]) else {
            return Err(Violation::new(format!(
                "{} is walkable but joins a vertex without a room",
                what()
            )));
        };
        let shape_of = |room: usize| if room == a { sa } else { sb };
        let door = |end: usize, room: usize| {
            let at = (shape_of(room), ox[room], oy[room]);
            door_there(g, (&what(), tiles > 0), runs[j][end], (at, room))
        };
        let via = g.corridor_shapes(j);
        if !via.is_empty() {
            door(0, a)?;
            door(1, b)?;
            let ends = ((sa, ox[a], oy[a]), (sb, ox[b], oy[b]));
            let room = (j, &via[..], (boxes[1 + n + j], tiles));
            check_corridor_room(g, cells, room, ends, runs[j], &what())?;
            lengths.push(tiles as u32);
            continue;
        }
        let meet = |ra: Run, rb: Run| {
            rules_meet(
                g,
                j,
                ((sa, ox[a], oy[a]), ra),
                ((sb, ox[b], oy[b]), rb),
                &what(),
            )
        };
        if tiles == 0 {
            ensure_level!(
                ranges.iter().any(|r| r.0 == 0),
                "{} has no corridor, the profile asks for one",
                what()
            );
            door(0, a)?;
            door(0, b)?;
            meet(runs[j][0], runs[j][0])?;
            lengths.push(0);
            continue;
        }
        ensure_level!(
            ranges.iter().any(|r| r.1 > 0),
            "{} has a corridor, the profile asks for a door",
            what()
        );
        door(0, a)?;
        door(1, b)?;
        meet(runs[j][0], runs[j][1])?;
        lengths.push(corridor_length(
            boxes[1 + n + j],
            tiles,
            runs[j],
            ranges,
            &what(),
        )?);
    }
    Ok(lengths)
}
