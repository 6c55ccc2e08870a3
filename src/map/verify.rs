//! Re-checking a stored map level from its columns and the profile's graph and library: the
//! graph columns are the level graph's, the tiles pass the floor-plan checks
//! ([`check_tiles`]: one owner per floor tile, each room its template's floor at its box, doors
//! only between connected owners, every connection realised, `map.min_room_distance` kept, all
//! floor one piece), the door table is the grid's doors and the rooms' unused runs
//! ([`check_table`]), the `data` columns are the graph's, its path bounds hold on the floor and
//! its locks on the graph, the templates keep their repeat modes, the map fits `map.bounds` and
//! `map.mask`, its fixed rooms are where they are pinned, and
//! the metrics, edge flags, vertex tags and positions, start and goal agree with the map.

use crate::core::error::Violation;
use crate::core::generator::{GraphView, LevelRecord, RoomsView};
use crate::core::grid::GridView;
use crate::core::grid::cell;
use crate::core::route::{Ends, RouteScratch};
use crate::ensure_level;
use crate::floorplan::build::Plan;
use crate::floorplan::check::{MapRules, Tally, check_tiles};
use crate::floorplan::columns::{CORRIDOR_FLAG, MAP_COLUMNS};
use crate::floorplan::constraints::{floor_steps, lock_problem, start_room};
use crate::floorplan::doors::{DoorTable, WITH_DOOR_COLUMNS, check_table};
use crate::floorplan::frame::same_shape;
use crate::floorplan::repeat::repeat_broken;
use crate::floorplan::shape::Shape;
use crate::floorplan::spec::{LevelGraph, Library};
use crate::map::columns::{DATA_COLUMNS, GRAPH_COLUMN, MAP_KIND_COLUMNS, data_columns};
use crate::map::config::MapConfig;
use crate::map::metrics::{MAP_METRICS, MapMetrics, ends};

/// What a stored map level is checked against: the profile, its level graph and template
/// library, the builder's plan, and the tag names with each room's vertex tag.
pub(crate) struct MapSetting<'a> {
    pub(crate) cfg: &'a MapConfig,
    pub(crate) graph: &'a LevelGraph,
    /// How `map.graph` names the graph (the `map_graph` column).
    pub(crate) graph_name: &'a str,
    pub(crate) library: &'a Library,
    pub(crate) plan: &'a Plan,
    pub(crate) tags: (&'a [String], &'a [u16]),
    /// Per connection, the shapes its corridor room may take (empty: it takes none).
    pub(crate) corridor_shapes: &'a [Vec<Shape>],
}

impl MapSetting<'_> {
    /// Room `v`'s vertex tag.
    fn vertex_tag(&self, v: usize) -> u16 {
        self.tags.1[v]
    }

    /// The start and goal of a map (see the `start_x` .. `path_length` metrics) from its grid,
    /// graph, rooms and owner grid.
    fn ends(
        &self,
        grid: &GridView<'_>,
        graph: &GraphView<'_>,
        rooms: &RoomsView<'_>,
        owner: &[u16],
        s: &mut RouteScratch,
    ) -> Ends {
        ends(self.tags, grid, graph, rooms, owner, s)
    }

    /// The shape of template `template` under `transform`, if the template allows it.
    fn shape_of(&self, template: u16, transform: u8) -> Option<Shape> {
        crate::floorplan::shape::shape_in(self.library, template, transform)
    }
}

impl MapRules for MapSetting<'_> {
    fn rooms(&self) -> usize {
        self.graph.rooms.len()
    }

    fn connections(&self) -> usize {
        self.graph.connections.len()
    }

    fn ends(&self, j: usize) -> (usize, usize) {
        let c = &self.graph.connections[j];
        (c.a as usize, c.b as usize)
    }

    fn room_name(&self, v: usize) -> String {
        format!("room `{}`", self.graph.rooms[v].id)
    }

    fn shape(&self, v: usize, template: u16, transform: u8) -> Result<Option<Shape>, String> {
        let id = &self.graph.rooms[v].id;
        let sh = self.shape_of(template, transform).ok_or_else(|| {
            format!(
                "room `{id}` has template {template} under transform {transform}, which the \
                 library does not allow"
            )
        })?;
        let allowed = self.graph.rooms[v]
            .templates
            .as_ref()
            .is_none_or(|ts| ts.contains(&u32::from(template)));
        if !allowed {
            return Err(format!("room `{id}` takes a template it does not list"));
        }
        Ok(Some(sh))
    }

    fn gaps(&self, j: usize) -> &[(i32, i32)] {
        // A connection through a corridor room is drawn as a door to it (`(0, 0)`).
        &self.plan.gaps(j).ranges
    }

    fn min_distance(&self) -> i32 {
        self.cfg.min_room_distance as i32
    }

    fn directed(&self, j: usize) -> bool {
        self.graph.connections[j].directed
    }

    fn min_distance_key(&self) -> &'static str {
        "map.min_room_distance"
    }

    fn corridor_shapes(&self, j: usize) -> Vec<&Shape> {
        self.corridor_shapes[j].iter().collect()
    }
}

/// Checks one stored map level.
pub(crate) fn verify(g: &MapSetting<'_>, record: &LevelRecord<'_>) -> Result<(), Violation> {
    let level = &record.level;
    let (Some(grid), Some(rooms), Some(graph)) = (level.grid, level.rooms, level.graph) else {
        return Err(Violation::new(
            "a map level needs its grid, rooms and graph",
        ));
    };
    ensure_level!(
        level.extra.len() == MAP_KIND_COLUMNS.len(),
        "{} extra columns, expected {}",
        level.extra.len(),
        MAP_KIND_COLUMNS.len()
    );
    let n = g.graph.rooms.len();
    let m = g.graph.connections.len();
    for (what, len) in [
        ("vertex_x", graph.x.len()),
        ("vertex_y", graph.y.len()),
        ("vertex_tag", graph.tag.len()),
    ] {
        ensure_level!(
            len == n,
            "{what} holds {len} entries, the graph has {n} rooms"
        );
    }
    for (what, len) in [
        ("edge_src", graph.src.len()),
        ("edge_dst", graph.dst.len()),
        ("edge_flags", graph.flags.len()),
    ] {
        ensure_level!(
            len == m,
            "{what} holds {len} entries, the graph has {m} connections"
        );
    }
    ensure_level!(
        g.graph
            .connections
            .iter()
            .enumerate()
            .all(|(j, c)| graph.src[j] == c.a && graph.dst[j] == c.b),
        "the stored edges are not the graph's connections"
    );
    let tally = check_tiles(g, &grid, &rooms, level.extra, 0)?;
    let owner = level.extra[2].as_u16s().unwrap_or_default();
    let table = DoorTable::from_values(&level.extra[MAP_COLUMNS.len()..WITH_DOOR_COLUMNS.len()])
        .map_err(Violation::new)?;
    let want = data_columns(g.graph);
    for (k, want) in want.iter().enumerate() {
        let got = level.extra[WITH_DOOR_COLUMNS.len() + k].as_str();
        ensure_level!(
            got == Some(want.as_str()),
            "{} is not the level graph's data",
            DATA_COLUMNS[k].name
        );
    }
    let got = level.extra[WITH_DOOR_COLUMNS.len() + DATA_COLUMNS.len()].as_str();
    ensure_level!(
        got == Some(g.graph_name),
        "{} is {}, but the level's seed picks the graph {:?}",
        GRAPH_COLUMN.name,
        got.map_or("not a string".into(), |s| format!("{s:?}")),
        g.graph_name
    );
    check_table(g, (&grid, owner), &tally, &table)?;
    check_frame(g, &grid, &tally)?;
    check_constraints(g, &grid, owner, &table)?;
    let modes: Vec<_> = g
        .library
        .templates
        .iter()
        .map(|t| g.cfg.repeat_of(t))
        .collect();
    let taken = level.extra[0].as_u16s().unwrap_or_default();
    if let Some(why) = repeat_broken(g.graph, g.library, &modes, taken) {
        return Err(Violation::new(why));
    }
    check_summary(
        g,
        record,
        &tally.floor_count,
        &tally.corridors,
        (grid.width as usize, grid.height as usize),
    )?;
    let stored = MapMetrics::from_values(level.metrics)
        .ok_or_else(|| Violation::new(format!("{} metric values", level.metrics.len())))?;
    let want = g.ends(&grid, &graph, &rooms, owner, &mut RouteScratch::default());
    Ends::check(
        Ends::from_values([
            stored.start_x,
            stored.start_y,
            stored.goal_x,
            stored.goal_y,
            stored.path_length,
        ]),
        want,
    )
}

/// The level graph's constraints hold on the map: every `min_path` and `max_path` by a walk over
/// its floor, its locks on the graph (whose connections the doors realise, exactly), and each
/// door names its connection's key room.
fn check_constraints(
    g: &MapSetting<'_>,
    grid: &GridView<'_>,
    owner: &[u16],
    table: &DoorTable,
) -> Result<(), Violation> {
    let (mut queue, mut seen) = (Vec::new(), Vec::new());
    for rule in &g.graph.paths {
        let cells = (grid.cells, owner, grid.width as usize);
        let steps = floor_steps(cells, (&rule.from, &rule.to), (&mut queue, &mut seen));
        ensure_level!(
            rule.kept(steps),
            "{} is broken: the shortest floor path takes {}",
            rule.describe(),
            steps.map_or("no path".into(), |d| format!("{d} steps"))
        );
    }
    if let Some(start) = start_room(g.graph)
        && let Some((_, why)) = lock_problem(g.graph, &g.graph.locks, start)
    {
        return Err(Violation::new(why));
    }
    let mut keys = vec![0u16; g.graph.connections.len()];
    for lock in &g.graph.locks {
        keys[lock.connection as usize] = 1 + lock.key as u16;
    }
    for k in 0..table.doors() {
        let j = usize::from(table.connection[k]);
        ensure_level!(
            table.key[k] == keys[j],
            "door {k} says key {}, connection {}'s lock says {}",
            table.key[k],
            j + 1,
            keys[j]
        );
    }
    Ok(())
}

/// The map lies in its frame: within `map.bounds` (exactly that size with fixed rooms), on the
/// mask's allowed tiles (a grid of the mask's size), every fixed room with its pinned template,
/// in its pinned shape, at its pinned tile.
fn check_frame(g: &MapSetting<'_>, grid: &GridView<'_>, tally: &Tally) -> Result<(), Violation> {
    let fixed = g.graph.rooms.iter().any(|r| r.fixed.is_some());
    let size = (grid.width, grid.height);
    if let Some((w, h)) = g.cfg.bounds() {
        ensure_level!(
            if fixed {
                size == (w, h)
            } else {
                size.0 <= w && size.1 <= h
            },
            "the map is {} x {} tiles, map.bounds = [{w}, {h}]{}",
            size.0,
            size.1,
            if fixed {
                " (with fixed rooms, the grid's size)"
            } else {
                ""
            }
        );
    }
    if let Some(mask) = g.plan.frame.as_ref().and_then(|f| f.mask.as_deref()) {
        ensure_level!(
            size == (mask.width, mask.height),
            "the map is {} x {} tiles, the mask {} x {}",
            size.0,
            size.1,
            mask.width,
            mask.height
        );
        let w = grid.width as usize;
        if let Some(i) = (0..grid.cells.len())
            .find(|&i| grid.cells[i] != cell::VOID && !mask.allows((i % w) as i32, (i / w) as i32))
        {
            return Err(Violation::new(format!(
                "tile ({}, {}) is not void, and the mask does not allow it",
                i % w,
                i / w
            )));
        }
    }
    for (v, room) in g.graph.rooms.iter().enumerate() {
        let Some(pin) = &room.fixed else { continue };
        let at = (tally.origin.0[v], tally.origin.1[v]);
        let wanted = g.shape_of(pin.template as u16, pin.transform);
        let same = match (&tally.shapes[v], &wanted) {
            (Some(got), Some(want)) => got.template == pin.template && same_shape(got, want),
            _ => false,
        };
        ensure_level!(
            same && at == pin.at,
            "room `{}` is fixed to template `{}` under transform {} at [{}, {}]; it is at [{}, {}]{}",
            room.id,
            g.library.templates[pin.template as usize].name,
            pin.transform,
            pin.at.0,
            pin.at.1,
            at.0,
            at.1,
            if same { "" } else { " in another shape" }
        );
    }
    Ok(())
}

/// The metrics, edge flags, vertex tags and positions agree with the map.
fn check_summary(
    g: &MapSetting<'_>,
    record: &LevelRecord<'_>,
    floor_count: &[u32],
    corridors: &[u32],
    (w, h): (usize, usize),
) -> Result<(), Violation> {
    let level = &record.level;
    let (Some(graph), Some(rooms)) = (level.graph, level.rooms) else {
        return Err(Violation::new("a map level needs its rooms and graph"));
    };
    let n = g.graph.rooms.len();
    let room_tiles: u32 = floor_count[1..=n].iter().sum();
    let corridor_tiles: u32 = floor_count[n + 1..].iter().sum();
    let want = [
        n as f64,
        corridors.len() as f64,
        corridors.iter().filter(|&&l| l > 0).count() as f64,
        f64::from(room_tiles),
        f64::from(corridor_tiles),
        f64::from((f64::from(room_tiles) / (w * h) as f64) as f32),
        f64::from((f64::from(corridor_tiles) / f64::from(room_tiles.max(1))) as f32),
        f64::from(corridors.iter().copied().max().unwrap_or(0)),
    ];
    for (k, (&got, &want)) in level.metrics.iter().zip(&want).enumerate() {
        ensure_level!(
            got == want,
            "metric {} is {got}, the map gives {want}",
            MAP_METRICS[k].name
        );
    }
    ensure_level!(
        level.metrics.len() == MAP_METRICS.len(),
        "{} metrics stored, expected {}",
        level.metrics.len(),
        MAP_METRICS.len()
    );
    for (j, &len) in corridors.iter().enumerate() {
        ensure_level!(
            (graph.flags[j] & CORRIDOR_FLAG != 0) == (len > 0),
            "edge {} says {} corridor",
            j + 1,
            if len > 0 { "no" } else { "a" }
        );
    }
    for v in 0..n {
        let (cx, cy) = (
            (rooms.x0[v] + rooms.x1[v]) as f32 / 2.0,
            (rooms.y0[v] + rooms.y1[v]) as f32 / 2.0,
        );
        ensure_level!(
            graph.x[v] == cx && graph.y[v] == cy && graph.tag[v] == g.vertex_tag(v),
            "vertex {v} is not at room `{}`'s centre with its tag",
            g.graph.rooms[v].id
        );
    }
    Ok(())
}

#[cfg(test)]
#[path = "verify_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "verify_constraints_tests.rs"]
mod constraint_tests;

#[cfg(test)]
#[path = "verify_frame_tests.rs"]
mod frame_tests;
