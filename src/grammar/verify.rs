//! Re-checking a stored grammar level (seed 000) from its record alone: the graph is well
//! formed within the profile's bounds, every room is a rectangle, the corridors connect every
//! room and touch no cosmetic vertex, no two rooms overlap, no corridor is far longer than the
//! median one, the tile map agrees with the graph and rooms ([`verify_tile_map`]), and the
//! metrics agree with what they count.

use crate::core::error::Violation;
use crate::core::generator::{ExtraValue, GraphView, LevelRecord, RoomsView};
use crate::core::route::{Ends, RouteScratch};
use crate::core::sets::UnionFind;
use crate::ensure_level;
use crate::grammar::config::GrammarConfig;
use crate::grammar::mapped::{Mapped, verify_map};
use crate::grammar::metrics::{
    GRAMMAR_METRICS, GrammarMetrics, MAX_CORRIDOR_SPREAD, cycle_rank, empty_room, ends,
    overlapping_rooms, spread_of, walkable_into,
};
use crate::grammar::rule::{Grammar, TagId};
use crate::grammar::tilemap::verify::{MapFacts, verify_tile_map};

/// What a stored grammar level is checked against: the generator's settings, its rules (room
/// sizes scaled), the map builder's setting (`None`: `grammar.corridors = "drawn"`) and the
/// tags of the start and goal rooms.
pub(crate) struct LevelChecks<'a> {
    pub(crate) cfg: &'a GrammarConfig,
    pub(crate) grammar: &'a Grammar,
    pub(crate) mapped: Option<&'a Mapped>,
    pub(crate) ends_tags: (Option<TagId>, Option<TagId>),
}

/// Checks one stored grammar level: the check behind
/// [`Generator::verify`](crate::Generator::verify).
pub(crate) fn verify(checks: &LevelChecks<'_>, record: &LevelRecord<'_>) -> Result<(), Violation> {
    checks.verify_level(record)
}

impl LevelChecks<'_> {
    /// Checks one stored grammar level.
    fn verify_level(&self, record: &LevelRecord<'_>) -> Result<(), Violation> {
        let level = &record.level;
        let g = level
            .graph
            .ok_or_else(|| Violation::new("no graph columns"))?;
        let rooms = level
            .rooms
            .ok_or_else(|| Violation::new("no room columns"))?;
        let metrics = GrammarMetrics::from_values(level.metrics).ok_or_else(|| {
            Violation::new(format!(
                "{} metric values for {} metric columns",
                level.metrics.len(),
                GRAMMAR_METRICS.len()
            ))
        })?;
        self.check_graph(&g)?;
        // The builder's rooms may be L or T shapes whose boxes overlap; the map check below
        // proves their floors apart tile by tile.
        check_rooms(&g, &rooms, self.mapped.is_none())?;
        ensure_level!(
            level.rule_uses.len() == self.grammar.rules.len(),
            "{} rule-use counts for {} rules",
            level.rule_uses.len(),
            self.grammar.rules.len()
        );
        let uses: u64 = level.rule_uses.iter().map(|&u| u64::from(u)).sum();
        ensure_level!(
            uses == u64::from(metrics.rewrites),
            "rule uses add up to {uses}, the rewrites metric says {}",
            metrics.rewrites
        );
        ensure_level!(
            metrics.vertices as usize == g.x.len(),
            "vertices metric {} for {} vertices",
            metrics.vertices,
            g.x.len()
        );
        if self.mapped.is_none() {
            // Vertices of a builder map sit at their rooms' centres, not in the drawing.
            check_spread(&g)?;
        }
        self.check_map(record, &g, &rooms, &metrics)?;
        self.check_ends(record, &g, &rooms, &metrics)
    }

    /// The stored start, goal and path length, recomputed from the stored map (the builder's
    /// owner grid tells its rooms' tiles apart).
    fn check_ends(
        &self,
        record: &LevelRecord<'_>,
        g: &GraphView<'_>,
        rooms: &RoomsView<'_>,
        metrics: &GrammarMetrics,
    ) -> Result<(), Violation> {
        let Some(grid) = record.level.grid else {
            return Err(Violation::new("no grid columns"));
        };
        let owner = match self.mapped {
            Some(_) => record.level.extra.iter().find_map(|e| match e {
                ExtraValue::ListU16(o) if o.len() == grid.cells.len() => Some(*o),
                _ => None,
            }),
            None => None,
        };
        let want = ends(
            &grid,
            g,
            rooms,
            owner,
            self.ends_tags,
            &mut RouteScratch::default(),
        );
        Ends::check(metrics.ends(), want)
    }

    /// Column lengths, the vertex bounds, tag ids, edge ends and valences.
    fn check_graph(&self, g: &GraphView<'_>) -> Result<(), Violation> {
        let n = g.x.len();
        ensure_level!(
            g.y.len() == n && g.tag.len() == n,
            "vertex columns disagree in length ({} x, {} y, {} tags)",
            n,
            g.y.len(),
            g.tag.len()
        );
        ensure_level!(
            g.src.len() == g.dst.len() && g.flags.len() == g.src.len(),
            "edge columns disagree in length"
        );
        ensure_level!(
            (self.cfg.min_vertices as usize..=self.cfg.max_vertices as usize).contains(&n),
            "{n} vertices, outside min_vertices..=max_vertices ({}..={})",
            self.cfg.min_vertices,
            self.cfg.max_vertices
        );
        let tags = self.grammar.tags.len();
        if let Some(t) = g.tag.iter().find(|&&t| t as usize >= tags) {
            return Err(Violation::new(format!("tag id {t} with {tags} tags")));
        }
        let mut degree = vec![0u32; n];
        for (&a, &b) in g.src.iter().zip(g.dst) {
            ensure_level!(
                (a as usize) < n && (b as usize) < n && a != b,
                "edge {a}-{b} with {n} vertices"
            );
            degree[a as usize] += 1;
            degree[b as usize] += 1;
        }
        if let Some(v) = (0..n).find(|&v| degree[v] > self.cfg.max_valence) {
            return Err(Violation::new(format!(
                "vertex {v} has valence {} above max_valence {}",
                degree[v], self.cfg.max_valence
            )));
        }
        Ok(())
    }

    /// The grid's bound and the tile map against the graph and rooms, and the tile metrics.
    fn check_map(
        &self,
        record: &LevelRecord<'_>,
        g: &GraphView<'_>,
        rooms: &RoomsView<'_>,
        metrics: &GrammarMetrics,
    ) -> Result<(), Violation> {
        let grid = record
            .level
            .grid
            .ok_or_else(|| Violation::new("no grid columns"))?;
        let [max_w, max_h] = self.cfg.max_grid;
        ensure_level!(
            grid.width <= max_w && grid.height <= max_h,
            "a {} x {} map, over max_grid [{max_w}, {max_h}]",
            grid.width,
            grid.height
        );
        let facts = match &self.mapped {
            None => verify_tile_map(&grid, g, rooms)?,
            Some(m) => {
                let tally = verify_map(m, self.grammar.tags.len(), record, g, rooms)?;
                let n = g.x.len();
                let longest = tally.corridors.iter().copied().max().unwrap_or(0);
                ensure_level!(
                    metrics.corridor_max == longest,
                    "corridor_max metric {}, the map's longest corridor is {longest}",
                    metrics.corridor_max
                );
                MapFacts {
                    room_tiles: tally.floor_count[1..=n].iter().map(|&c| u64::from(c)).sum(),
                    corridor_tiles: tally.floor_count[n + 1..]
                        .iter()
                        .map(|&c| u64::from(c))
                        .sum(),
                    door_tiles: u64::from(tally.doors),
                }
            }
        };
        for (name, stored, value) in [
            (
                "floor_tiles",
                metrics.floor_tiles,
                facts.room_tiles + facts.corridor_tiles + facts.door_tiles,
            ),
            (
                "corridor_tiles",
                metrics.corridor_tiles,
                facts.corridor_tiles,
            ),
            ("door_tiles", metrics.door_tiles, facts.door_tiles),
        ] {
            ensure_level!(
                u64::from(stored) == value,
                "{name} metric {stored}, the map has {value}"
            );
        }
        Ok(())
    }
}

/// One rectangle per vertex; the corridors join only rooms, connect them all, and no two rooms
/// overlap.
fn check_rooms(
    g: &GraphView<'_>,
    rooms: &RoomsView<'_>,
    rectangles: bool,
) -> Result<(), Violation> {
    let n = g.x.len();
    ensure_level!(
        [rooms.x0, rooms.y0, rooms.x1, rooms.y1]
            .iter()
            .all(|s| s.len() == n),
        "room columns do not hold one room per vertex"
    );
    for v in 0..n {
        ensure_level!(
            rooms.x0[v] <= rooms.x1[v] && rooms.y0[v] <= rooms.y1[v],
            "room {v} has negative size"
        );
    }
    // Rooms (vertices with a non-empty room) are connected over corridors; cosmetic vertices
    // (empty rooms) touch only cosmetic edges.
    let (mut src, mut dst) = (Vec::new(), Vec::new());
    walkable_into(g, &mut src, &mut dst);
    for (&a, &b) in src.iter().zip(&dst) {
        ensure_level!(
            !empty_room(rooms, a as usize) && !empty_room(rooms, b as usize),
            "corridor {a}-{b} touches a cosmetic vertex (a vertex without a room)"
        );
    }
    let solid = (0..n).filter(|&v| !empty_room(rooms, v)).count();
    let loops = cycle_rank(rooms, &src, &dst, &mut UnionFind::default()) as usize;
    // Joins = corridors - loops; the rooms form one part when the joins number solid - 1.
    let parts = solid.saturating_sub(src.len() - loops);
    ensure_level!(
        parts <= 1,
        "the corridors leave the rooms in {parts} disconnected parts"
    );
    let overlaps = if rectangles {
        overlapping_rooms(rooms)
    } else {
        Vec::new()
    };
    if let Some(&(a, b)) = overlaps.first() {
        return Err(Violation::new(format!(
            "rooms {a} and {b} overlap ({} overlapping pairs)",
            overlaps.len()
        )));
    }
    Ok(())
}

/// The longest corridor is at most [`MAX_CORRIDOR_SPREAD`] times the median one, centre to
/// centre.
fn check_spread(g: &GraphView<'_>) -> Result<(), Violation> {
    let mut lengths = Vec::new();
    for e in 0..g.src.len() {
        if g.flags[e] & crate::core::graph::edge_flag::COSMETIC == 0 {
            let (a, b) = (g.src[e] as usize, g.dst[e] as usize);
            lengths.push((g.x[b] - g.x[a]).hypot(g.y[b] - g.y[a]));
        }
    }
    let spread = spread_of(&mut lengths);
    // NOTE: an infinite or NaN spread (a zero median) fails too.
    let within = spread <= MAX_CORRIDOR_SPREAD;
    ensure_level!(
        within,
        "the longest corridor is {spread:.2} times the median, over {MAX_CORRIDOR_SPREAD}"
    );
    Ok(())
}
