//! The map builder's JSON files: a template library ([`parse_library`], [`load_library`]) and a
//! designer's level graph ([`parse_graph`], [`load_graph`]), with the built-in Edgar inputs
//! ([`BUILTIN_LIBRARIES`], [`BUILTIN_GRAPHS`]). The formats are documented in
//! `data/map/README.md` and described by the JSON Schemas beside it.
//!
//! Every error is one line naming its file, line and column (`g.json:3:31: connection 3: unknown
//! room ...`): the files are read with `floorplan::json`, whose values keep their byte offsets, so that
//! a semantic error (an unknown room id, a graph that is not connected, a template that cannot
//! have a door) points at its place as a syntax error does. Files named by path are read through
//! [`crate::core::files::read_to_string`], so that archives carry them.
//!
//! - `read`: one file being read and the typed readers of its values;
//! - `templates`: door rules, transforms, repeat modes and templates;
//! - `rooms`: rooms and connections;
//! - `constraints`: path bounds and locks.

use std::collections::HashMap;
use std::path::Path;

use crate::core::csr::Adjacency;
use crate::core::files;
use crate::core::kuratowski::kuratowski_subdivision;
use crate::floorplan::json::{self, one_line};
use crate::floorplan::proofs::not_planar;
use crate::floorplan::spec::{DoorRule, Doors, LevelGraph, Library, Repeat, Transforms};

mod constraints;
mod mask;
mod read;
mod rooms;
mod templates;

pub use mask::{MAX_MASK_SIDE, load_mask, parse_mask};
use read::Ctx;
pub use read::{BUILTIN_GRAPHS, BUILTIN_LIBRARIES, MapInputError};
use templates::Defaults;
pub use templates::MAX_CORNERS;

/// The most rooms a level graph may have.
pub const MAX_ROOMS: usize = 4096;

/// Door rules where neither the template nor its library gives any.
const DEFAULT_DOORS: Doors = Doors::Simple {
    length: 1,
    corner_distance: 1,
};

/// Transforms where neither the template nor its library gives any.
const DEFAULT_TRANSFORMS: Transforms = Transforms {
    rotate: true,
    mirror: false,
};

/// The built-in libraries' files, in [`BUILTIN_LIBRARIES`] order.
const LIBRARY_FILES: [&str; 2] = [
    include_str!("../../../data/map/edgar-paper.json"),
    include_str!("../../../data/map/edgar-docs.json"),
];

/// The built-in graphs' files, in [`BUILTIN_GRAPHS`] order.
const GRAPH_FILES: [&str; 4] = [
    include_str!("../../../data/map/graphs/edgar-fig1.json"),
    include_str!("../../../data/map/graphs/edgar-fig8-17.json"),
    include_str!("../../../data/map/graphs/edgar-fig8-41.json"),
    include_str!("../../../data/map/graphs/edgar-basics.json"),
];

/// The built-in template library `name` ([`BUILTIN_LIBRARIES`]), or `None`.
///
/// # Runtime
/// Parses and checks the library each call (well under a millisecond).
pub fn builtin_library(name: &str) -> Option<Library> {
    let i = BUILTIN_LIBRARIES.iter().position(|&n| n == name)?;
    // NOTE: the built-in files are checked by the tests; an error here is a bug in them.
    match parse_library(LIBRARY_FILES[i], name) {
        Ok(library) => Some(library),
        Err(e) => panic!("built-in library {name} is invalid: {e}"),
    }
}

/// A built-in template library by name, else the `.json` library file at that path (read with
/// [`files::read_to_string`]). The library's name is the built-in name or the path as given.
///
/// # Errors
/// Neither a built-in name nor a `.json` or existing file; the file cannot be read; the file is
/// not a valid library ([`parse_library`]).
pub fn load_library(name_or_path: &str) -> Result<Library, MapInputError> {
    if let Some(library) = builtin_library(name_or_path) {
        return Ok(library);
    }
    match read_named_file(name_or_path) {
        Some(text) => parse_library(&text?, name_or_path),
        None => Err(MapInputError::UnknownLibrary {
            name: one_line(name_or_path),
        }),
    }
}

/// A built-in level graph by name ([`BUILTIN_GRAPHS`]), else the `.json` graph file at that path
/// (read with [`files::read_to_string`]), checked against `library`.
///
/// # Errors
/// Neither a built-in name nor a `.json` or existing file; the file cannot be read; the file is
/// not a valid level graph ([`parse_graph`]).
pub fn load_graph(name_or_path: &str, library: &Library) -> Result<LevelGraph, MapInputError> {
    if let Some(i) = BUILTIN_GRAPHS.iter().position(|&n| n == name_or_path) {
        return parse_graph(GRAPH_FILES[i], name_or_path, library);
    }
    match read_named_file(name_or_path) {
        Some(text) => parse_graph(&text?, name_or_path, library),
        None => Err(MapInputError::UnknownGraph {
            name: one_line(name_or_path),
        }),
    }
}

/// The text of the file `name` if it looks like a path (ends in `.json`, or exists), else `None`.
fn read_named_file(name: &str) -> Option<Result<String, MapInputError>> {
    let path = Path::new(name);
    if !name.ends_with(".json") && !files::exists(path) {
        return None;
    }
    Some(
        files::read_to_string(path).map_err(|error| MapInputError::Read {
            path: one_line(name),
            error,
        }),
    )
}

/// Parses a template library file; `origin` names the file in errors and becomes the library's
/// name. Every template is checked with [`template_problem`] under every transform it allows.
///
/// # Errors
/// The first problem, at its place (see `data/map/README.md` for the rules).
///
/// # Runtime
/// Linear in the file, plus each template's checks (quadratic in its corners, linear in its
/// tiles, for each allowed transform).
pub fn parse_library(text: &str, origin: &str) -> Result<Library, MapInputError> {
    let cx = Ctx::new(text, origin);
    let root = cx.parse()?;
    let [schema, label, doors, transforms, repeat, templates] = cx.fields(
        &root,
        [
            "$schema",
            "library",
            "doors",
            "transforms",
            "repeat",
            "templates",
        ],
        "a template library",
    )?;
    for m in [schema, label].into_iter().flatten() {
        cx.str(&m.value)?;
    }
    let mut sockets = Vec::new();
    let defaults = Defaults {
        doors: match doors {
            Some(m) => cx.doors(&m.value, &mut sockets)?,
            None => vec![DoorRule::new(DEFAULT_DOORS)],
        },
        transforms: transforms.map_or(Ok(DEFAULT_TRANSFORMS), |m| cx.transforms(&m.value))?,
        repeat: repeat.map_or(Ok(Repeat::Allow), |m| cx.repeat(&m.value))?,
    };
    let templates = templates
        .ok_or_else(|| cx.at(root.start, "a template library needs a `templates` list"))?;
    let list = cx.arr(&templates.value)?;
    if list.is_empty() {
        return Err(cx.at(templates.value.start, "the library has no templates"));
    }
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::with_capacity(list.len());
    for node in list {
        let (template, name_at) = cx.template(node, &defaults, &mut sockets)?;
        if let Some(first) = seen.insert(template.name.clone(), name_at) {
            let message = format!(
                "template name `{}` is used twice (first at line {})",
                template.name,
                cx.line(first)
            );
            return Err(cx.at(name_at, message));
        }
        out.push(template);
    }
    Ok(Library {
        name: origin.to_owned(),
        templates: out,
        sockets,
    })
}

/// Parses a level graph file against `library` (the library its rooms' `templates` name);
/// `origin` names the file in errors.
///
/// # Errors
/// The first problem, at its place: syntax, unknown keys, wrong types, unknown templates, a room
/// id used twice, a connection naming an unknown room or a room and itself, a connection given
/// twice, no rooms, more than [`MAX_ROOMS`] rooms, a graph that is not connected or not planar.
///
/// # Runtime
/// Linear in the file, plus O(n + m log m) for the planarity test of n rooms and m connections.
pub fn parse_graph(
    text: &str,
    origin: &str,
    library: &Library,
) -> Result<LevelGraph, MapInputError> {
    let cx = Ctx::new(text, origin);
    let root = cx.parse()?;
    let [schema, name, directed, rooms, connections, constraints] = cx.fields(
        &root,
        [
            "$schema",
            "name",
            "directed",
            "rooms",
            "connections",
            "constraints",
        ],
        "a level graph",
    )?;
    let directed = match directed {
        Some(m) => cx.bool(&m.value)?,
        None => false,
    };
    for m in [schema, name].into_iter().flatten() {
        cx.str(&m.value)?;
    }
    let rooms = rooms.ok_or_else(|| cx.at(root.start, "a level graph needs a `rooms` list"))?;
    let list = cx.arr(&rooms.value)?;
    if list.is_empty() {
        return Err(cx.at(rooms.value.start, "the graph has no rooms"));
    }
    if list.len() > MAX_ROOMS {
        let message = format!(
            "the graph has {} rooms; at most {MAX_ROOMS} are allowed",
            list.len()
        );
        return Err(cx.at(rooms.value.start, message));
    }
    let names: HashMap<&str, u32> = library
        .templates
        .iter()
        .enumerate()
        .map(|(i, t)| (t.name.as_str(), i as u32))
        .collect();
    let mut graph = LevelGraph::default();
    let mut ids: HashMap<String, u32> = HashMap::new();
    let mut id_at: Vec<usize> = Vec::with_capacity(list.len());
    for node in list {
        let (room, at) = cx.room(node, library, &names)?;
        if let Some(&first) = ids.get(&room.id) {
            let message = format!(
                "room id `{}` is used twice (first at line {})",
                room.id,
                cx.line(id_at[first as usize])
            );
            return Err(cx.at(at, message));
        }
        ids.insert(room.id.clone(), graph.rooms.len() as u32);
        id_at.push(at);
        graph.rooms.push(room);
    }
    if let Some(m) = connections {
        read_connections(
            &cx,
            &m.value,
            (&ids, directed),
            (library, &names),
            &mut graph,
        )?;
    }
    if let Some(r) = unreachable_room(&graph) {
        let message = format!(
            "the graph is not connected: room `{}` cannot be reached from room `{}`",
            graph.rooms[r].id, graph.rooms[0].id
        );
        return Err(cx.at(id_at[r], message));
    }
    let (src, dst): (Vec<u32>, Vec<u32>) = graph.connections.iter().map(|c| (c.a, c.b)).unzip();
    if let Some(w) = kuratowski_subdivision(graph.rooms.len(), &src, &dst) {
        return Err(cx.at(root.start, not_planar(&graph, &w)));
    }
    if let Some(m) = constraints {
        cx.constraints(&m.value, &mut graph)?;
    }
    Ok(graph)
}

/// Reads the connections `list` of a graph whose rooms are `ids` into `graph`: each names two
/// different known rooms, once.
fn read_connections(
    cx: &Ctx<'_>,
    list: &json::Node,
    (ids, directed): (&HashMap<String, u32>, bool),
    templates: (&Library, &HashMap<&str, u32>),
    graph: &mut LevelGraph,
) -> Result<(), MapInputError> {
    let mut pairs: HashMap<(u32, u32), usize> = HashMap::new();
    for (j, node) in cx.arr(list)?.iter().enumerate() {
        let c = cx.connection(j, node, ids, directed, templates)?;
        let name = |r: u32| &graph.rooms[r as usize].id;
        if c.a == c.b {
            let message = format!(
                "connection {}: room `{}` is connected to itself",
                j + 1,
                name(c.a)
            );
            return Err(cx.at(node.start, message));
        }
        let key = (c.a.min(c.b), c.a.max(c.b));
        if let Some(&k) = pairs.get(&key) {
            let message = format!(
                "connection {}: rooms `{}` and `{}` are already connected (connection {})",
                j + 1,
                name(c.a),
                name(c.b),
                k + 1
            );
            return Err(cx.at(node.start, message));
        }
        pairs.insert(key, j);
        graph.connections.push(c);
    }
    Ok(())
}

/// The first room (in file order) that room 0 cannot reach, if any.
fn unreachable_room(graph: &LevelGraph) -> Option<usize> {
    let n = graph.rooms.len();
    let ends = graph.connections.iter().map(|c| (c.a, c.b));
    let adjacency = Adjacency::from_edges(n, ends, |_, w| w);
    let mut seen = vec![false; n];
    let mut stack = vec![0u32];
    seen[0] = true;
    while let Some(r) = stack.pop() {
        for &s in &adjacency[r as usize] {
            if !seen[s as usize] {
                seen[s as usize] = true;
                stack.push(s);
            }
        }
    }
    seen.iter().position(|&s| !s)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
#[path = "fixed_tests.rs"]
mod fixed_tests;
