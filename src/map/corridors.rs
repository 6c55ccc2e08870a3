//! Corridor templates: a connection drawn through a corridor room, a template of the library
//! that touches both of its rooms and shares a door with each (Edgar's corridor rooms).
//!
//! The builder knows no corridor rooms: [`with_corridor_rooms`] turns each such connection
//! `a - b` into a room of its own between `a` and `b`, and the map kind turns that room back
//! into connection `a - b`'s corridor when it draws the layout (its floor is the corridor's in
//! the `owner` grid; [`crate::floorplan::build::Plan::via`]).

use crate::floorplan::shape::{Shape, shapes_of};
use crate::floorplan::spec::{Connection, CorridorSpec, LevelGraph, Library, RoomSpec};
use crate::map::config::{CorridorMode, MapConfig};

/// Settles which connections take corridor templates: those `map.corridor_templates` gives
/// (connections that take the profile's corridor, under `map.corridors = "templates"`) and
/// those whose own `corridor` lists templates. A template named as a corridor is left out of
/// the rooms that list no templates of their own.
///
/// # Errors
/// One line: an unknown name in `map.corridor_templates`, or a library all of whose templates
/// are corridors.
pub(crate) fn settle_corridors(
    cfg: &MapConfig,
    graph: &mut LevelGraph,
    library: &Library,
) -> Result<(), String> {
    let mut default = Vec::with_capacity(cfg.corridor_templates.len());
    for name in &cfg.corridor_templates {
        let Some(t) = library.templates.iter().position(|t| &t.name == name) else {
            return Err(format!(
                "map.corridor_templates: unknown template `{name}` in library `{}`",
                library.name
            ));
        };
        if default.contains(&(t as u32)) {
            return Err(format!(
                "map.corridor_templates: template `{name}` is listed twice"
            ));
        }
        default.push(t as u32);
    }
    let mut corridor = vec![false; library.templates.len()];
    for c in &mut graph.connections {
        if c.corridor == CorridorSpec::Default
            && cfg.corridors == CorridorMode::Templates
            && !default.is_empty()
        {
            c.corridor = CorridorSpec::Templates(default.clone());
        }
        if let CorridorSpec::Templates(ts) = &c.corridor {
            for &t in ts {
                corridor[t as usize] = true;
            }
        }
    }
    if !corridor.contains(&true) {
        return Ok(());
    }
    let rooms: Vec<u32> = (0..library.templates.len() as u32)
        .filter(|&t| !corridor[t as usize])
        .collect();
    for room in &mut graph.rooms {
        if room.templates.is_none() {
            if rooms.is_empty() {
                return Err(format!(
                    "room `{}` lists no templates and every template of library `{}` is a \
                     corridor template",
                    room.id, library.name
                ));
            }
            room.templates = Some(rooms.clone());
        }
    }
    Ok(())
}

/// `graph` with a room for each connection that takes corridor templates: connection `j`
/// (`a - b`) becomes `a - corridor`, the corridor room (taking the connection's templates) is
/// added after the rooms, and `corridor - b` after the connections, both directed when `j` is.
/// Also returns the connections so drawn, in the order of their corridor rooms. Rooms,
/// connections and constraints of the graph keep their indices.
pub(crate) fn with_corridor_rooms(graph: &LevelGraph) -> (LevelGraph, Vec<u32>) {
    let mut wide = graph.clone();
    let mut via = Vec::new();
    for (j, c) in graph.connections.iter().enumerate() {
        let CorridorSpec::Templates(ts) = &c.corridor else {
            continue;
        };
        let k = wide.rooms.len() as u32;
        let id = |v: u32| &graph.rooms[v as usize].id;
        wide.rooms.push(RoomSpec {
            id: format!("corridor {}-{}", id(c.a), id(c.b)),
            templates: Some(ts.clone()),
            ..RoomSpec::default()
        });
        wide.connections[j].b = k;
        wide.connections[j].corridor = CorridorSpec::None;
        wide.connections.push(Connection {
            a: k,
            b: c.b,
            corridor: CorridorSpec::None,
            directed: c.directed,
            at: c.at,
            data: None,
        });
        via.push(j as u32);
    }
    (wide, via)
}

/// Per connection of `graph`, the shapes its corridor room may take: its corridor templates
/// under every transform they allow (empty: it takes no corridor room).
///
/// # Errors
/// A template without a shape (one line naming it).
pub(crate) fn corridor_shapes(
    graph: &LevelGraph,
    library: &Library,
) -> Result<Vec<Vec<Shape>>, String> {
    let all = shapes_of(&library.templates)
        .map_err(|(i, e)| format!("template `{}`: {e}", library.templates[i].name))?;
    Ok(graph
        .connections
        .iter()
        .map(|c| match &c.corridor {
            CorridorSpec::Templates(ts) => all
                .iter()
                .filter(|s| ts.contains(&s.template))
                .cloned()
                .collect(),
            _ => Vec::new(),
        })
        .collect())
}
