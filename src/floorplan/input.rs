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

use std::collections::{HashMap, HashSet};
use std::ops::RangeInclusive;
use std::path::Path;

use crate::core::csr::Adjacency;
use crate::core::files;
use crate::core::kuratowski::kuratowski_subdivision;
use crate::core::text::{LineIndex, Pos};
use crate::floorplan::json::{self, Json, JsonError, Member, Node, one_line};
use crate::floorplan::proofs::not_planar;
use crate::floorplan::shape::template_problem;
use crate::floorplan::spec::{
    Connection, CorridorSpec, Doors, LevelGraph, Library, Repeat, RoomSpec, Template, Transforms,
};

/// The names of the built-in template libraries.
pub const BUILTIN_LIBRARIES: &[&str] = &["edgar-paper", "edgar-docs"];

/// The names of the built-in level graphs.
pub const BUILTIN_GRAPHS: &[&str] = &[
    "edgar-fig1",
    "edgar-fig8-17",
    "edgar-fig8-41",
    "edgar-basics",
];

/// The most rooms a level graph may have.
pub const MAX_ROOMS: usize = 4096;

/// The most corners a template outline may have (its checks are quadratic in them).
pub const MAX_CORNERS: usize = 1024;

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

/// The largest template side, door length, corner distance and corridor length, in tiles.
const MAX_TILES: i64 = 4096;

/// The largest outline or door coordinate, by absolute value.
const MAX_COORD: i64 = 1_000_000;

/// The built-in libraries' files, in [`BUILTIN_LIBRARIES`] order.
const LIBRARY_FILES: [&str; 2] = [
    include_str!("../../data/map/edgar-paper.json"),
    include_str!("../../data/map/edgar-docs.json"),
];

/// The built-in graphs' files, in [`BUILTIN_GRAPHS`] order.
const GRAPH_FILES: [&str; 4] = [
    include_str!("../../data/map/graphs/edgar-fig1.json"),
    include_str!("../../data/map/graphs/edgar-fig8-17.json"),
    include_str!("../../data/map/graphs/edgar-fig8-41.json"),
    include_str!("../../data/map/graphs/edgar-basics.json"),
];

/// A template library or level graph could not be read or is not valid. Every message is one
/// line.
#[derive(Debug, thiserror::Error)]
pub enum MapInputError {
    /// The file could not be read.
    #[error("{path}: cannot read: {error}")]
    Read {
        /// The file, as named.
        path: String,
        /// Why.
        error: std::io::Error,
    },
    /// The name is neither a built-in library nor a `.json` file.
    #[error(
        "unknown template library `{name}` (built in: {builtin}; or a path to a .json library \
         file)",
        builtin = BUILTIN_LIBRARIES.join(", ")
    )]
    UnknownLibrary {
        /// The name as given.
        name: String,
    },
    /// The name is neither a built-in level graph nor a `.json` file.
    #[error(
        "unknown level graph `{name}` (built in: {builtin}; or a path to a .json level graph \
         file)",
        builtin = BUILTIN_GRAPHS.join(", ")
    )]
    UnknownGraph {
        /// The name as given.
        name: String,
    },
    /// An error at a place in a file: a syntax error, a value of the wrong type or range, or a
    /// rule of the format broken there.
    #[error("{origin}:{pos}: {message}")]
    At {
        /// The file (its path or built-in name).
        origin: String,
        /// Line and column.
        pos: Pos,
        /// What is wrong.
        message: String,
    },
    /// An error about a whole file (it is empty).
    #[error("{origin}: {message}")]
    Whole {
        /// The file (its path or built-in name).
        origin: String,
        /// What is wrong.
        message: String,
    },
}

impl MapInputError {
    /// The line and column of the error, if it is at a place.
    pub fn pos(&self) -> Option<Pos> {
        match self {
            MapInputError::At { pos, .. } => Some(*pos),
            _ => None,
        }
    }
}

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
    let defaults = Defaults {
        doors: doors.map_or(Ok(DEFAULT_DOORS), |m| cx.doors(&m.value))?,
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
        let (template, name_at) = cx.template(node, &defaults)?;
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
    let [schema, name, rooms, connections] = cx.fields(
        &root,
        ["$schema", "name", "rooms", "connections"],
        "a level graph",
    )?;
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
        let mut pairs: HashMap<(u32, u32), usize> = HashMap::new();
        for (j, node) in cx.arr(&m.value)?.iter().enumerate() {
            let c = cx.connection(j, node, &ids)?;
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
    Ok(graph)
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

/// A library's defaults for the templates that do not say.
struct Defaults {
    doors: Doors,
    transforms: Transforms,
    repeat: Repeat,
}

/// One file being read: its name and line index, and the typed readers of its values.
struct Ctx<'a> {
    origin: &'a str,
    text: &'a str,
    lines: LineIndex<'a>,
}

impl<'a> Ctx<'a> {
    fn new(text: &'a str, origin: &'a str) -> Self {
        Ctx {
            origin,
            text,
            lines: LineIndex::new(text),
        }
    }

    /// An error at byte `offset`.
    fn at(&self, offset: usize, message: impl Into<String>) -> MapInputError {
        MapInputError::At {
            origin: one_line(self.origin),
            pos: self.lines.pos(offset),
            message: one_line(&message.into()),
        }
    }

    /// The line of byte `offset`.
    fn line(&self, offset: usize) -> u32 {
        self.lines.pos(offset).line
    }

    /// The file's JSON value.
    fn parse(&self) -> Result<Node, MapInputError> {
        if self.text.trim_start_matches('\u{feff}').trim().is_empty() {
            return Err(MapInputError::Whole {
                origin: one_line(self.origin),
                message: "the file is empty (expected a JSON object)".into(),
            });
        }
        json::parse(self.text).map_err(|e| self.json_error(e))
    }

    /// An error for a value of the wrong type.
    fn expected(&self, node: &Node, what: &str) -> MapInputError {
        self.json_error(node.expected(what))
    }

    fn json_error(&self, e: JsonError) -> MapInputError {
        self.at(e.offset, e.message)
    }

    /// The members of the object `node` under `keys` ([`Node::fields`]).
    fn fields<'n, const N: usize>(
        &self,
        node: &'n Node,
        keys: [&str; N],
        what: &str,
    ) -> Result<[Option<&'n Member>; N], MapInputError> {
        node.fields(keys, what).map_err(|e| self.json_error(e))
    }

    fn str<'n>(&self, node: &'n Node) -> Result<&'n str, MapInputError> {
        match &node.value {
            Json::Str(s) => Ok(s),
            _ => Err(self.expected(node, "a string")),
        }
    }

    fn arr<'n>(&self, node: &'n Node) -> Result<&'n [Node], MapInputError> {
        match &node.value {
            Json::Arr(items) => Ok(items),
            _ => Err(self.expected(node, "an array")),
        }
    }

    /// The array `node` of exactly `N` items; `what` describes it ("a point `[x, y]`").
    fn tuple<'n, const N: usize>(
        &self,
        node: &'n Node,
        what: &str,
    ) -> Result<&'n [Node; N], MapInputError> {
        match &node.value {
            Json::Arr(items) => items.as_slice().try_into().map_err(|_| {
                self.at(
                    node.start,
                    format!("expected {what}, found an array of {} items", items.len()),
                )
            }),
            _ => Err(self.expected(node, what)),
        }
    }

    /// An integer in `range`; `what` names it in range errors ("a door's length").
    fn int(
        &self,
        node: &Node,
        range: RangeInclusive<i64>,
        what: &str,
    ) -> Result<i64, MapInputError> {
        let Json::Num(v) = node.value else {
            return Err(self.expected(node, "an integer"));
        };
        let (lo, hi) = range.into_inner();
        let message = if v.fract() != 0.0 {
            format!("expected an integer, found {v}")
        } else if v < lo as f64 {
            format!("{what} must be at least {lo}")
        } else if v > hi as f64 {
            format!("{what} must be at most {hi}")
        } else {
            return Ok(v as i64);
        };
        Err(self.at(node.start, message))
    }

    /// A point `[x, y]` of integers.
    fn point(&self, node: &Node) -> Result<(i32, i32), MapInputError> {
        let [x, y] = self.tuple(node, "a point `[x, y]`")?;
        let c = |n: &Node| {
            self.int(n, -MAX_COORD..=MAX_COORD, "a coordinate")
                .map(|v| v as i32)
        };
        Ok((c(x)?, c(y)?))
    }

    /// A `doors` object: simple door rules or a list of doors.
    fn doors(&self, node: &Node) -> Result<Doors, MapInputError> {
        let [length, corner_distance, positions] =
            self.fields(node, ["length", "corner_distance", "positions"], "`doors`")?;
        let Some(positions) = positions else {
            let length = match length {
                Some(m) => self.int(&m.value, 1..=MAX_TILES, "a door's length")?,
                None => 1,
            };
            let corner_distance = match corner_distance {
                Some(m) => self.int(&m.value, 0..=MAX_TILES, "a door's corner distance")?,
                None => 1,
            };
            return Ok(Doors::Simple {
                length: length as u32,
                corner_distance: corner_distance as u32,
            });
        };
        if let Some(m) = length.or(corner_distance) {
            let message = format!(
                "`{}` cannot be used with `positions` (a list of doors)",
                m.key
            );
            return Err(self.at(m.at, message));
        }
        let list = self.arr(&positions.value)?;
        if list.is_empty() {
            return Err(self.at(positions.value.start, "`positions` lists no doors"));
        }
        let mut doors = Vec::with_capacity(list.len());
        let mut seen = HashSet::new();
        for door in list {
            let [first, last] =
                self.tuple(door, "a door `[[x, y], [x, y]]` (its first and last tile)")?;
            let (a, b) = (self.point(first)?, self.point(last)?);
            // NOTE: a door listed again (either end first) is kept once: every copy adds the same
            // configuration spaces, and the builder intersects those of a room's placed
            // neighbours pairwise, so the copies multiply (160 copies of 4 doors: 4 s a level).
            if seen.insert((a.min(b), a.max(b))) {
                doors.push([a, b]);
            }
        }
        Ok(Doors::Listed(doors))
    }

    /// A `transforms` list.
    fn transforms(&self, node: &Node) -> Result<Transforms, MapInputError> {
        let mut out = Transforms {
            rotate: false,
            mirror: false,
        };
        for item in self.arr(node)? {
            match self.str(item)? {
                "rotate" => out.rotate = true,
                "mirror" => out.mirror = true,
                other => {
                    let message =
                        format!("unknown transform `{other}` (expected `rotate` or `mirror`)");
                    return Err(self.at(item.start, message));
                }
            }
        }
        Ok(out)
    }

    /// A repeat mode: `"allow"`, `"no_immediate"` or `"no_repeat"`.
    fn repeat(&self, node: &Node) -> Result<Repeat, MapInputError> {
        let modes = [Repeat::Allow, Repeat::NoImmediate, Repeat::NoRepeat];
        let name = self.str(node)?;
        modes.into_iter().find(|r| r.name() == name).ok_or_else(|| {
            let message = format!(
                "unknown repeat mode `{name}` (expected `allow`, `no_immediate` or `no_repeat`)"
            );
            self.at(node.start, message)
        })
    }

    /// One template and the offset of its name, checked with [`template_problem`].
    fn template(
        &self,
        node: &Node,
        defaults: &Defaults,
    ) -> Result<(Template, usize), MapInputError> {
        let [name, size, outline, doors, transforms, repeat] = self.fields(
            node,
            ["name", "size", "outline", "doors", "transforms", "repeat"],
            "a template",
        )?;
        let name_m = name.ok_or_else(|| self.at(node.start, "a template needs a `name`"))?;
        let name = self.str(&name_m.value)?;
        if name.is_empty() {
            return Err(self.at(name_m.value.start, "a template's name cannot be empty"));
        }
        let outline = match (size, outline) {
            (Some(a), Some(b)) => {
                let later = if a.at > b.at { a } else { b };
                let message = format!("template `{name}` has both `size` and `outline`; give one");
                return Err(self.at(later.at, message));
            }
            (None, None) => {
                let message = format!("template `{name}` needs a `size` or an `outline`");
                return Err(self.at(node.start, message));
            }
            (Some(m), None) => {
                let [w, h] = self.tuple(&m.value, "a size `[width, height]`")?;
                let w = self.int(w, 3..=MAX_TILES, "a template's width")? as i32;
                let h = self.int(h, 3..=MAX_TILES, "a template's height")? as i32;
                vec![(0, 0), (w, 0), (w, h), (0, h)]
            }
            (None, Some(m)) => {
                let corners = self.arr(&m.value)?;
                if corners.len() > MAX_CORNERS {
                    let message = format!("an outline has at most {MAX_CORNERS} corners");
                    return Err(self.at(m.value.start, message));
                }
                corners
                    .iter()
                    .map(|c| self.point(c))
                    .collect::<Result<_, _>>()?
            }
        };
        let template = Template {
            name: name.to_owned(),
            outline,
            doors: match doors {
                Some(m) => self.doors(&m.value)?,
                None => defaults.doors.clone(),
            },
            transforms: match transforms {
                Some(m) => self.transforms(&m.value)?,
                None => defaults.transforms,
            },
            repeat: match repeat {
                Some(m) => self.repeat(&m.value)?,
                None => defaults.repeat,
            },
        };
        if let Some(problem) = template_problem(&template) {
            return Err(self.at(node.start, format!("template `{name}`: {problem}")));
        }
        Ok((template, name_m.value.start))
    }

    /// A room id: a non-empty string, or an integer as its decimal string.
    fn id(&self, node: &Node) -> Result<String, MapInputError> {
        let id = match &node.value {
            Json::Str(s) => s.clone(),
            // NOTE: 2^53 bounds the integers an f64 holds exactly.
            Json::Num(v) if v.fract() == 0.0 && v.abs() <= 9_007_199_254_740_992.0 => {
                format!("{}", *v as i64)
            }
            _ => return Err(self.expected(node, "a room id (a string or an integer)")),
        };
        if id.is_empty() {
            return Err(self.at(node.start, "a room id cannot be empty"));
        }
        Ok(id)
    }

    /// One room and the offset of its id.
    fn room(
        &self,
        node: &Node,
        library: &Library,
        names: &HashMap<&str, u32>,
    ) -> Result<(RoomSpec, usize), MapInputError> {
        let [id, templates, name, tags] =
            self.fields(node, ["id", "templates", "name", "tags"], "a room")?;
        let id_m = id.ok_or_else(|| self.at(node.start, "a room needs an `id`"))?;
        let mut room = RoomSpec {
            id: self.id(&id_m.value)?,
            ..RoomSpec::default()
        };
        if let Some(m) = name {
            room.name = Some(self.str(&m.value)?.to_owned());
        }
        if let Some(m) = tags {
            for tag in self.arr(&m.value)? {
                room.tags.push(self.str(tag)?.to_owned());
            }
        }
        if let Some(m) = templates {
            let list = self.arr(&m.value)?;
            if list.is_empty() {
                let message =
                    "a room's `templates` cannot be empty (leave it out for any template)";
                return Err(self.at(m.value.start, message));
            }
            let mut chosen = Vec::with_capacity(list.len());
            for item in list {
                let wanted = self.str(item)?;
                let Some(&i) = names.get(wanted) else {
                    return Err(self.at(item.start, unknown_template(wanted, library)));
                };
                if chosen.contains(&i) {
                    return Err(self.at(item.start, format!("template `{wanted}` is listed twice")));
                }
                chosen.push(i);
            }
            room.templates = Some(chosen);
        }
        Ok((room, id_m.value.start))
    }

    /// Connection `j` (0-based): a pair of ids or an object with `from`, `to` and `corridor`.
    fn connection(
        &self,
        j: usize,
        node: &Node,
        ids: &HashMap<String, u32>,
    ) -> Result<Connection, MapInputError> {
        const WHAT: &str =
            "a connection (a pair of room ids `[\"a\", \"b\"]` or an object with `from` and `to`)";
        let (from, to, corridor) = match &node.value {
            Json::Arr(_) => {
                let [a, b] = self.tuple(node, WHAT)?;
                (a, b, CorridorSpec::Default)
            }
            Json::Obj(_) => {
                let [from, to, corridor] =
                    self.fields(node, ["from", "to", "corridor"], "a connection")?;
                let (Some(from), Some(to)) = (from, to) else {
                    let message = format!("connection {}: needs both `from` and `to`", j + 1);
                    return Err(self.at(node.start, message));
                };
                let corridor = match corridor {
                    Some(m) => self.corridor(&m.value)?,
                    None => CorridorSpec::Default,
                };
                (&from.value, &to.value, corridor)
            }
            _ => return Err(self.expected(node, WHAT)),
        };
        let room = |n: &Node| -> Result<u32, MapInputError> {
            let id = self.id(n)?;
            ids.get(&id).copied().ok_or_else(|| {
                self.at(
                    n.start,
                    format!("connection {}: unknown room `{id}`", j + 1),
                )
            })
        };
        Ok(Connection {
            a: room(from)?,
            b: room(to)?,
            corridor,
            at: Some(self.lines.pos(node.start)),
        })
    }

    /// A connection's `corridor`: `true`, `false` or `{"lengths": [...]}`.
    fn corridor(&self, node: &Node) -> Result<CorridorSpec, MapInputError> {
        match &node.value {
            Json::Bool(true) => Ok(CorridorSpec::Default),
            Json::Bool(false) => Ok(CorridorSpec::None),
            Json::Obj(_) => {
                let [lengths] = self.fields(node, ["lengths"], "`corridor`")?;
                let lengths = lengths.ok_or_else(|| {
                    self.at(
                        node.start,
                        "`corridor` needs `lengths` (or is `true` or `false`)",
                    )
                })?;
                let list = self.arr(&lengths.value)?;
                if list.is_empty() {
                    return Err(self.at(lengths.value.start, "`lengths` lists no lengths"));
                }
                let lengths = list
                    .iter()
                    .map(|n| {
                        self.int(n, 1..=MAX_TILES, "a corridor's length")
                            .map(|v| v as u32)
                    })
                    .collect::<Result<_, _>>()?;
                Ok(CorridorSpec::Lengths(lengths))
            }
            _ => Err(self.expected(node, "`true`, `false` or an object with `lengths`")),
        }
    }
}

/// "unknown template `x` in library `l` (its templates: a, b, ...)", naming at most 10.
fn unknown_template(wanted: &str, library: &Library) -> String {
    const SHOWN: usize = 10;
    let known: Vec<&str> = library.templates.iter().map(|t| t.name.as_str()).collect();
    let mut list = known[..known.len().min(SHOWN)].join(", ");
    if known.len() > SHOWN {
        list += &format!(" and {} more", known.len() - SHOWN);
    }
    format!(
        "unknown template `{wanted}` in library `{}` (its templates: {list})",
        library.name
    )
}

#[cfg(test)]
#[path = "input_tests.rs"]
mod tests;
