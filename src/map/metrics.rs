//! What one map measures ([`MapMetrics`]), and the start and goal of a map (`ends`).

use crate::core::generator::{GraphView, RoomsView};
use crate::core::grid::GridView;
use crate::core::route::{self, Ends, RouteScratch};

crate::metrics! {
    /// What one map measures.
    pub struct MapMetrics => MAP_METRICS {
        rooms: u32 = "rooms of the level graph",
        connections: u32 = "connections of the level graph",
        corridors: u32 = "connections realised through a corridor",
        room_tiles: u32 = "floor tiles of the rooms",
        corridor_tiles: u32 = "floor tiles of the corridors",
        compactness: f32 = "room floor tiles / area of the map's bounding box",
        corridor_share: f32 = "corridor floor tiles / room floor tiles",
        longest_corridor: u32 = "floor tiles of the longest corridor, door to door (0: none)",
        attempts: u32 = "search attempts it took (1: the first drawing worked)",
        placements: u32 = "candidate placements the search checked, over all attempts",
        start_x: u32 = "grid column of the start: the floor tile nearest the centre of the start room (the first room tagged `start`, else an end of the level graph's longest shortest path)",
        start_y: u32 = "grid row of the start",
        goal_x: u32 = "grid column of the goal: as the start's, in the goal room (the first room tagged `goal`, else the room farthest from the start)",
        goal_y: u32 = "grid row of the goal",
        path_length: u32 = "steps on the shortest walkable path from start to goal over floor and doors",
    }
}

/// The start and goal of a map (see the `start_x` .. `path_length` metrics) from its grid,
/// graph, rooms and owner grid; `tags` are the tag names, `vertex_tags` each room's vertex tag.
pub(crate) fn ends(
    (tags, vertex_tags): (&[String], &[u16]),
    grid: &GridView<'_>,
    graph: &GraphView<'_>,
    rooms: &RoomsView<'_>,
    owner: &[u16],
    s: &mut RouteScratch,
) -> Ends {
    let first = |name: &str| {
        let tag = tags.iter().position(|t| t == name)? as u16;
        (0..vertex_tags.len())
            .find(|&v| vertex_tags[v] == tag)
            .map(|v| v as u32)
    };
    let named = (first("start"), first("goal"));
    route::room_ends(s, grid, graph, rooms, Some(owner), named).unwrap_or_default()
}
