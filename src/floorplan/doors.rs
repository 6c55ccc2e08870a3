//! The door table of a floor plan: every door (its connection, the two owners it joins, its
//! first tile, length and facing) and, per room, the runs of wall where its template could have
//! had a door and has none (where a game puts blockers). The `map` kind stores it in the
//! `door_*` columns ([`DOOR_COLUMNS`]); `verify` checks it against the doors the grid shows.
//!
//! Coordinates are grid tiles (column, row) of the stored level. A door's `facing` is the
//! direction ([`side`]) one walks through it from `door_from` to `door_to`; its tiles run from
//! its first tile along the wall (down for an east or west facing, right for a north or south
//! one). An unused run's `facing` is the way its wall faces out of the room.

use crate::core::error::Violation;
use crate::core::generator::{ExtraKind, ExtraSpec, ExtraValue};
use crate::core::grid::{GridView, cell};
use crate::ensure_level;
use crate::floorplan::build::{Layout, Link, Plan};
use crate::floorplan::check::{MapRules, Tally};
use crate::floorplan::columns::MAP_COLUMNS;
use crate::floorplan::raster::Tiles;
use crate::floorplan::shape::{Shape, side};

/// The door table's columns, in [`DoorTable::values`]' order.
pub const DOOR_COLUMNS: [ExtraSpec; 13] = [
    ExtraSpec::new(
        "door_connection",
        ExtraKind::ListU16,
        "per door, the index of its connection in the level graph (a connection with a \
         corridor has two doors, room a's first)",
    ),
    ExtraSpec::new(
        "door_from",
        ExtraKind::ListU16,
        "per door, the owner value (as in `owner`) on its side towards the connection's first \
         room",
    ),
    ExtraSpec::new(
        "door_to",
        ExtraKind::ListU16,
        "per door, the owner value on its side towards the connection's second room",
    ),
    ExtraSpec::new(
        "door_x",
        ExtraKind::ListU16,
        "per door, the grid column of its first tile",
    ),
    ExtraSpec::new(
        "door_y",
        ExtraKind::ListU16,
        "per door, the grid row of its first tile",
    ),
    ExtraSpec::new(
        "door_length",
        ExtraKind::ListU16,
        "per door, its tiles along the wall (down for facing east or west, right for north or \
         south)",
    ),
    ExtraSpec::new(
        "door_facing",
        ExtraKind::ListU8,
        "per door, the way one walks through it from door_from to door_to: 0 east, 1 south, \
         2 west, 3 north",
    ),
    ExtraSpec::new(
        "door_key",
        ExtraKind::ListU16,
        "per door, 1 + the index of the room holding the key of its connection's lock (the level \
         graph's `lock` constraints), or 0 when the connection is not locked",
    ),
    ExtraSpec::new(
        "door_unused_room",
        ExtraKind::ListU16,
        "per unused run (wall tiles where the room's template allows a door and there is none), \
         the room's index in the level graph",
    ),
    ExtraSpec::new(
        "door_unused_x",
        ExtraKind::ListU16,
        "per unused run, the grid column of its first tile",
    ),
    ExtraSpec::new(
        "door_unused_y",
        ExtraKind::ListU16,
        "per unused run, the grid row of its first tile",
    ),
    ExtraSpec::new(
        "door_unused_length",
        ExtraKind::ListU16,
        "per unused run, its tiles along the wall",
    ),
    ExtraSpec::new(
        "door_unused_facing",
        ExtraKind::ListU8,
        "per unused run, the way its wall faces out of the room: 0 east, 1 south, 2 west, \
         3 north",
    ),
];

/// The extra columns of a floor plan with its door table, as the `map` kind stores them: the
/// floor plan's ([`MAP_COLUMNS`]), then the door table's
/// ([`DOOR_COLUMNS`]).
pub const WITH_DOOR_COLUMNS: [ExtraSpec; MAP_COLUMNS.len() + DOOR_COLUMNS.len()] = {
    let mut out = [MAP_COLUMNS[0]; MAP_COLUMNS.len() + DOOR_COLUMNS.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = if i < MAP_COLUMNS.len() {
            MAP_COLUMNS[i]
        } else {
            DOOR_COLUMNS[i - MAP_COLUMNS.len()]
        };
        i += 1;
    }
    out
};

/// One door or unused run: first tile, length along the wall, facing ([`side`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Run {
    /// Grid column of the first tile.
    pub x: i32,
    /// Grid row of the first tile.
    pub y: i32,
    /// Tiles along the wall.
    pub len: u32,
    /// [`side`] direction.
    pub facing: u8,
}

impl Run {
    /// Whether the run's tiles go down (an east or west facing) rather than right.
    pub fn downwards(&self) -> bool {
        side::vertical(self.facing)
    }

    /// Its tiles, first to last.
    pub fn tiles(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        (0..self.len as i32).map(|k| {
            if self.downwards() {
                (self.x, self.y + k)
            } else {
                (self.x + k, self.y)
            }
        })
    }
}

/// Reused buffers of [`DoorTable::of_layout`] and [`unused_runs`].
#[derive(Clone, Debug, Default)]
pub struct DoorScratch {
    /// Each door in a room's wall, by room.
    used: Vec<(usize, Run)>,
    /// One room's doors.
    mine: Vec<Run>,
    /// One room's unused runs.
    runs: Vec<Run>,
    /// Free door positions: (facing, wall, first tile, last tile).
    free: Vec<(u8, i32, i32, i32)>,
    /// Door starts a used door rules out.
    blocked: Vec<(i32, i32)>,
}

/// The door table of one level, column by column.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DoorTable {
    /// See [`DOOR_COLUMNS`].
    pub connection: Vec<u16>,
    /// See [`DOOR_COLUMNS`].
    pub from: Vec<u16>,
    /// See [`DOOR_COLUMNS`].
    pub to: Vec<u16>,
    /// See [`DOOR_COLUMNS`].
    pub x: Vec<u16>,
    /// See [`DOOR_COLUMNS`].
    pub y: Vec<u16>,
    /// See [`DOOR_COLUMNS`].
    pub length: Vec<u16>,
    /// See [`DOOR_COLUMNS`].
    pub facing: Vec<u8>,
    /// See [`DOOR_COLUMNS`].
    pub key: Vec<u16>,
    /// See [`DOOR_COLUMNS`].
    pub unused_room: Vec<u16>,
    /// See [`DOOR_COLUMNS`].
    pub unused_x: Vec<u16>,
    /// See [`DOOR_COLUMNS`].
    pub unused_y: Vec<u16>,
    /// See [`DOOR_COLUMNS`].
    pub unused_length: Vec<u16>,
    /// See [`DOOR_COLUMNS`].
    pub unused_facing: Vec<u8>,
}

impl DoorTable {
    /// Empties every column.
    pub fn clear(&mut self) {
        self.connection.clear();
        self.from.clear();
        self.to.clear();
        self.x.clear();
        self.y.clear();
        self.length.clear();
        self.facing.clear();
        self.key.clear();
        self.unused_room.clear();
        self.unused_x.clear();
        self.unused_y.clear();
        self.unused_length.clear();
        self.unused_facing.clear();
    }

    /// Doors in the table.
    pub fn doors(&self) -> usize {
        self.connection.len()
    }

    /// Door `k`: its connection, the owners it joins (towards room a, towards room b) and its
    /// tiles (its key is `key[k]`).
    pub fn door(&self, k: usize) -> (u16, u16, u16, Run) {
        let run = Run {
            x: i32::from(self.x[k]),
            y: i32::from(self.y[k]),
            len: u32::from(self.length[k]),
            facing: self.facing[k],
        };
        (self.connection[k], self.from[k], self.to[k], run)
    }

    /// Unused runs in the table.
    pub fn unused(&self) -> usize {
        self.unused_room.len()
    }

    /// Unused run `k`: its room and tiles.
    pub fn unused_run(&self, k: usize) -> (u16, Run) {
        let run = Run {
            x: i32::from(self.unused_x[k]),
            y: i32::from(self.unused_y[k]),
            len: u32::from(self.unused_length[k]),
            facing: self.unused_facing[k],
        };
        (self.unused_room[k], run)
    }

    /// Appends a door.
    fn push_door(&mut self, connection: usize, (from, to): (usize, usize), run: Run, key: u16) {
        self.key.push(key);
        self.connection.push(connection as u16);
        self.from.push(from as u16);
        self.to.push(to as u16);
        self.x.push(run.x as u16);
        self.y.push(run.y as u16);
        self.length.push(run.len as u16);
        self.facing.push(run.facing);
    }

    /// Appends an unused run of room `room`.
    fn push_unused(&mut self, room: usize, run: Run) {
        self.unused_room.push(room as u16);
        self.unused_x.push(run.x as u16);
        self.unused_y.push(run.y as u16);
        self.unused_length.push(run.len as u16);
        self.unused_facing.push(run.facing);
    }

    /// The columns, in [`DOOR_COLUMNS`]' order.
    pub fn values(&self) -> [ExtraValue<'_>; 13] {
        [
            ExtraValue::ListU16(&self.connection),
            ExtraValue::ListU16(&self.from),
            ExtraValue::ListU16(&self.to),
            ExtraValue::ListU16(&self.x),
            ExtraValue::ListU16(&self.y),
            ExtraValue::ListU16(&self.length),
            ExtraValue::ListU8(&self.facing),
            ExtraValue::ListU16(&self.key),
            ExtraValue::ListU16(&self.unused_room),
            ExtraValue::ListU16(&self.unused_x),
            ExtraValue::ListU16(&self.unused_y),
            ExtraValue::ListU16(&self.unused_length),
            ExtraValue::ListU8(&self.unused_facing),
        ]
    }

    /// A table read back from its stored columns (in [`DOOR_COLUMNS`]' order); an error names
    /// the column of the wrong type or length.
    ///
    /// # Errors
    /// A column missing, of another type, or not as long as its table's first column.
    pub fn from_values(values: &[ExtraValue<'_>]) -> Result<DoorTable, String> {
        if values.len() != DOOR_COLUMNS.len() {
            return Err(format!(
                "{} door columns, expected {}",
                values.len(),
                DOOR_COLUMNS.len()
            ));
        }
        let u16s = |k: usize| {
            values[k]
                .as_u16s()
                .map(<[u16]>::to_vec)
                .ok_or_else(|| format!("column {} is not list<u16>", DOOR_COLUMNS[k].name))
        };
        let u8s = |k: usize| {
            values[k]
                .as_u8s()
                .map(<[u8]>::to_vec)
                .ok_or_else(|| format!("column {} is not list<u8>", DOOR_COLUMNS[k].name))
        };
        let t = DoorTable {
            connection: u16s(0)?,
            from: u16s(1)?,
            to: u16s(2)?,
            x: u16s(3)?,
            y: u16s(4)?,
            length: u16s(5)?,
            facing: u8s(6)?,
            key: u16s(7)?,
            unused_room: u16s(8)?,
            unused_x: u16s(9)?,
            unused_y: u16s(10)?,
            unused_length: u16s(11)?,
            unused_facing: u8s(12)?,
        };
        let lens = [
            t.connection.len(),
            t.from.len(),
            t.to.len(),
            t.x.len(),
            t.y.len(),
            t.length.len(),
            t.facing.len(),
            t.key.len(),
        ];
        let unused = [
            t.unused_room.len(),
            t.unused_x.len(),
            t.unused_y.len(),
            t.unused_length.len(),
            t.unused_facing.len(),
        ];
        for (k, &len) in lens.iter().chain(&unused).enumerate() {
            let want = if k < lens.len() { lens[0] } else { unused[0] };
            if len != want {
                return Err(format!(
                    "column {} holds {len} entries, {} holds {want}",
                    DOOR_COLUMNS[k].name,
                    DOOR_COLUMNS[if k < lens.len() { 0 } else { lens.len() }].name
                ));
            }
        }
        Ok(t)
    }

    /// Fills the table for `layout` of `plan`, drawn into `tiles`; `keys` holds per connection
    /// 1 + its lock's key room, or 0 (empty: no locks).
    pub fn of_layout(
        &mut self,
        plan: &Plan,
        (layout, tiles): (&Layout, &Tiles),
        keys: &[u16],
        scratch: &mut DoorScratch,
    ) {
        self.clear();
        let n = plan.graph_rooms();
        if n == 0 {
            return;
        }
        // The lattice point drawn at grid (0, 0).
        let (mx, my) = (layout.x[0] - tiles.x0[0], layout.y[0] - tiles.y0[0]);
        let mut k = 0;
        for j in 0..plan.graph_conns() {
            let link = &layout.links[j];
            let (a, b) = plan.conns[j];
            let (a, b, corridor) = (1 + a as usize, 1 + b as usize, 1 + n + j);
            let door = |link: &Link, d: i32| {
                let (nx, ny) = side::normal(link.side);
                let (x, y) = if side::vertical(link.side) {
                    (link.wall + nx * d, link.start)
                } else {
                    (link.start, link.wall + ny * d)
                };
                Run {
                    x: x - mx,
                    y: y - my,
                    len: link.len,
                    facing: link.side,
                }
            };
            let key = keys.get(j).copied().unwrap_or(0);
            if plan.via.get(k) == Some(&(j as u32)) {
                // Through a corridor room: `a` to it, then it to the connection's `b`.
                let onwards = &layout.links[plan.graph_conns() + k];
                let b = 1 + plan.conns[plan.graph_conns() + k].1 as usize;
                self.push_door(j, (a, corridor), door(link, 0), key);
                self.push_door(j, (corridor, b), door(onwards, 0), key);
                k += 1;
            } else if link.gap == 0 {
                self.push_door(j, (a, b), door(link, 0), key);
            } else {
                self.push_door(j, (a, corridor), door(link, 0), key);
                self.push_door(j, (corridor, b), door(link, link.gap), key);
            }
        }
        // Each door in the wall of a room, by room (corridors own none).
        let DoorScratch {
            used,
            mine,
            runs,
            free,
            blocked,
        } = scratch;
        used.clear();
        for k in 0..self.doors() {
            let (_, from, to, run) = self.door(k);
            for o in [from, to] {
                if (1..=n).contains(&usize::from(o)) {
                    used.push((usize::from(o) - 1, run));
                }
            }
        }
        used.sort_unstable_by_key(|&(v, _)| v);
        let mut k = 0;
        for v in 0..n {
            let sh = &plan.cat.shapes[layout.shape[v] as usize];
            mine.clear();
            while k < used.len() && used[k].0 == v {
                mine.push(used[k].1);
                k += 1;
            }
            let origin = (tiles.x0[v], tiles.y0[v]);
            unused_runs(sh, origin, mine, (runs, free, blocked));
            for &run in runs.iter() {
                self.push_unused(v, run);
            }
        }
    }
}

/// The output and scratch of [`unused_runs`]: the runs, the free door positions, the blocked
/// starts.
pub type UnusedBuffers<'a> = (
    &'a mut Vec<Run>,
    &'a mut Vec<(u8, i32, i32, i32)>,
    &'a mut Vec<(i32, i32)>,
);

/// The runs of wall of `shape`, its box at grid `(x0, y0)`, where one of its doors could stand
/// and shares no tile with a door of `used`: each run the union of such door positions that
/// overlap or touch, on one wall, in order of facing, wall and start. Written to `out`.
pub fn unused_runs(
    shape: &Shape,
    (x0, y0): (i32, i32),
    used: &[Run],
    (out, free, blocked): UnusedBuffers<'_>,
) {
    out.clear();
    // (facing, wall coordinate, first tile, last tile) of the tiles free door positions cover.
    free.clear();
    for ds in &shape.doors {
        let down = side::vertical(ds.side);
        let (wall, base) = if down {
            (x0 + ds.fixed, y0)
        } else {
            (y0 + ds.fixed, x0)
        };
        let len = ds.len as i32;
        // Starts whose door would share a tile with a used door on this wall.
        blocked.clear();
        blocked.extend(used.iter().filter_map(|u| {
            let (uw, u0) = if u.downwards() {
                (u.x, u.y)
            } else {
                (u.y, u.x)
            };
            (u.downwards() == down && uw == wall).then(|| (u0 - len + 1, u0 + u.len as i32 - 1))
        }));
        blocked.sort_unstable();
        let (mut s, hi) = (base + ds.lo, base + ds.hi);
        for &(b0, b1) in blocked.iter() {
            if b0 > s && s <= hi {
                free.push((ds.side, wall, s, b0.min(hi + 1) - 1 + len - 1));
            }
            s = s.max(b1 + 1);
        }
        if s <= hi {
            free.push((ds.side, wall, s, hi + len - 1));
        }
    }
    free.sort_unstable();
    let mut i = 0;
    while i < free.len() {
        let (facing, wall, a0, mut a1) = free[i];
        i += 1;
        while i < free.len() && free[i].0 == facing && free[i].1 == wall && free[i].2 <= a1 + 1 {
            a1 = a1.max(free[i].3);
            i += 1;
        }
        let (x, y) = if side::vertical(facing) {
            (wall, a0)
        } else {
            (a0, wall)
        };
        out.push(Run {
            x,
            y,
            len: (a1 - a0 + 1) as u32,
            facing,
        });
    }
}

/// Checks a stored door table against the level's tiles as [`check_tiles`] found them: one
/// entry per door the grid shows, each with its connection, owners, tiles and facing; and per
/// room exactly the unused runs its template and the doors on its walls leave.
///
/// [`check_tiles`]: crate::floorplan::check::check_tiles
pub(crate) fn check_table(
    g: &impl MapRules,
    (grid, owner): (&GridView<'_>, &[u16]),
    tally: &Tally,
    table: &DoorTable,
) -> Result<(), Violation> {
    let (n, w) = (g.rooms(), grid.width as i32);
    let owner_at = |x: i32, y: i32| {
        (x >= 0 && y >= 0 && x < w && y < grid.height as i32).then(|| owner[(y * w + x) as usize])
    };
    let mut listed = vec![[false; 2]; g.connections()];
    for k in 0..table.doors() {
        let (j, from, to, run) = table.door(k);
        let j = usize::from(j);
        ensure_level!(
            j < g.connections(),
            "door {k} names connection {j}, the graph has {}",
            g.connections()
        );
        let (a, b) = g.ends(j);
        let corridor = (1 + n + j) as u16;
        let end = usize::from(from == corridor);
        let want = match (tally.corridors[j] > 0, end) {
            (false, _) => (1 + a as u16, 1 + b as u16),
            (true, 0) => (1 + a as u16, corridor),
            (true, _) => (corridor, 1 + b as u16),
        };
        ensure_level!(
            (from, to) == want && !listed[j][end],
            "door {k} (connection {}) joins owners {from} and {to}, expected {} and {} once",
            j + 1,
            want.0,
            want.1
        );
        listed[j][end] = true;
        let (last_x, last_y) = run.tiles().last().unwrap_or((run.x, run.y));
        let tiles = (
            run.len as usize,
            run.x as usize,
            run.y as usize,
            last_x as usize,
            last_y as usize,
        );
        let (nx, ny) = side::normal(run.facing);
        ensure_level!(
            run.facing < 4
                && tally.runs[j][end] == tiles
                && run.tiles().all(|(x, y)| {
                    owner_at(x - nx, y - ny) == Some(from) && owner_at(x + nx, y + ny) == Some(to)
                }),
            "door {k} (connection {}) is not the door the grid shows there",
            j + 1
        );
    }
    for (j, (listed, runs)) in listed.iter().zip(&tally.runs).enumerate() {
        for (&listed, run) in listed.iter().zip(runs) {
            ensure_level!(
                listed || run.0 == 0,
                "connection {}'s door at ({}, {}) is not in the door table",
                j + 1,
                run.1,
                run.2
            );
        }
    }
    check_unused(g, (grid, owner), tally, table)
}

/// Checks the unused runs of a door table (see [`check_table`]).
fn check_unused(
    g: &impl MapRules,
    (grid, owner): (&GridView<'_>, &[u16]),
    tally: &Tally,
    table: &DoorTable,
) -> Result<(), Violation> {
    let w = grid.width as i32;
    let (mut used, mut want, mut free, mut blocked) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut k = 0;
    for v in 0..g.rooms() {
        let mine = |o: u16| usize::from(o) == v + 1;
        used.clear();
        used.extend(
            (0..table.doors())
                .map(|d| table.door(d))
                .filter(|&(_, from, to, _)| mine(from) || mine(to))
                .map(|(_, _, _, run)| run),
        );
        match &tally.shapes[v] {
            Some(sh) => {
                let origin = (tally.origin.0[v], tally.origin.1[v]);
                unused_runs(sh, origin, &used, (&mut want, &mut free, &mut blocked));
            }
            None => want.clear(),
        }
        for &run in &want {
            let got = (k < table.unused()).then(|| table.unused_run(k));
            ensure_level!(
                got == Some((v as u16, run)),
                "unused run {k} is {got:?}, room {} leaves {run:?} there",
                g.room_name(v)
            );
            let (nx, ny) = side::normal(run.facing);
            ensure_level!(
                run.tiles().all(|(x, y)| {
                    let i = (y * w + x) as usize;
                    let inside = ((y - ny) * w + x - nx) as usize;
                    grid.cells[i] == cell::WALL && mine(owner[inside])
                }),
                "unused run {k} of {} is not a wall of the room",
                g.room_name(v)
            );
            k += 1;
        }
    }
    ensure_level!(
        k == table.unused(),
        "the door table lists {} unused runs, the rooms leave {k}",
        table.unused()
    );
    Ok(())
}
