//! The inputs of the map builder, independent of the files they come from: room templates
//! ([`Template`], gathered in a [`Library`]) and a designer's level graph ([`LevelGraph`]).
//! `floorplan::input` reads both from JSON; the grammar kind builds them in code. The ranges of
//! the builder's corridor keys, as both kinds' profiles set them, are checked here too
//! (`check_corridor_keys`).
//!
//! # Coordinates
//! A template's outline is given in *tile-edge* coordinates, as a designer draws it: a 12 x 12
//! room is `(0,0) (12,0) (12,12) (0,12)` and covers 12 x 12 tiles. The ring of tiles just inside
//! the outline is the room's wall; the tiles inside the ring are its floor. Two rooms that touch
//! share their wall tiles (their outlines overlap by one tile), and a door is a run of shared
//! wall tiles turned into door tiles. x grows to the right and y downwards, as in the tile grid.

use crate::core::error::{ConfigError, check};

/// Which of the eight 90-degree rotations and mirror images of a template may be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transforms {
    /// The three quarter turns may be used (besides the template as drawn).
    pub rotate: bool,
    /// The mirror image (left-right) may be used, with the rotations when `rotate` is set.
    pub mirror: bool,
}

/// Where a template may have doors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Doors {
    /// A door of `length` wall tiles anywhere along a straight wall, with at least
    /// `corner_distance` wall tiles between it and either corner tile of that wall (a corner
    /// tile itself is never a door).
    Simple {
        /// Door width in tiles (at least 1).
        length: u32,
        /// Wall tiles kept between a door and the wall's corner tiles.
        corner_distance: u32,
    },
    /// Only these doors. Each is its first and last door tile, `(x, y)` in the template's own
    /// tile grid (tile `(0, 0)` is the top-left tile of the outline's bounding box), both on one
    /// straight wall; its length is the number of tiles from first to last.
    Listed(Vec<[(i32, i32); 2]>),
    /// Door lines (Edgar's): a door of `length` tiles anywhere within each line, given as its
    /// first and last tile as listed doors are.
    Lines {
        /// Door width in tiles.
        length: u32,
        /// The lines.
        lines: Vec<[(i32, i32); 2]>,
    },
}

/// Which doors a directed connection may use (`DoorRule::kind`): bit 0 lets a connection come
/// in, bit 1 lets it go out. An undirected connection may use any door.
pub mod door_kind {
    /// An entrance only.
    pub const ENTRANCE: u8 = 1;
    /// An exit only.
    pub const EXIT: u8 = 2;
    /// Both ways.
    pub const BOTH: u8 = 3;
}

/// One door rule of a template: where its doors go, on which walls, of which socket and kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DoorRule {
    /// Where the doors go.
    pub place: Doors,
    /// For simple doors, the walls they may be on, by the way they face as the template is
    /// drawn: bit 0 east (right), 1 south (bottom), 2 west (left), 3 north (top), as
    /// `shape::side`; they turn with the template. Other rules: all (`0b1111`).
    pub sides: u8,
    /// Its socket: 0 for none, `k` for the library's `sockets[k - 1]`. Only doors of one socket
    /// meet.
    pub socket: u16,
    /// Which ways a directed connection may use it ([`door_kind`]).
    pub kind: u8,
}

impl DoorRule {
    /// Every wall, no socket, both ways.
    pub fn new(place: Doors) -> DoorRule {
        DoorRule {
            place,
            sides: 0b1111,
            socket: 0,
            kind: door_kind::BOTH,
        }
    }
}

/// How often a template may be used in one layout (Edgar's repeat modes).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Repeat {
    /// Any number of rooms may take it.
    #[default]
    Allow,
    /// No two connected rooms may both take it.
    NoImmediate,
    /// At most one room of a layout may take it.
    NoRepeat,
}

impl Repeat {
    /// The name used in files and profiles.
    pub fn name(self) -> &'static str {
        match self {
            Repeat::Allow => "allow",
            Repeat::NoImmediate => "no_immediate",
            Repeat::NoRepeat => "no_repeat",
        }
    }
}

/// A room template: a rectilinear outline, its door rules, allowed transforms and repeat mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    /// The name rooms use to ask for it (unique in its library).
    pub name: String,
    /// The outline's corners in order (either orientation), tile-edge coordinates: every edge
    /// axis-parallel, no edge of length 0, no self-intersection, at least 4 corners.
    pub outline: Vec<(i32, i32)>,
    /// Door rules (at least one): a door may go wherever one of them allows.
    pub doors: Vec<DoorRule>,
    /// Allowed transforms.
    pub transforms: Transforms,
    /// How often a layout may use it.
    pub repeat: Repeat,
    /// Holes in the floor, each a rectilinear polygon in the outline's coordinates: the ring of
    /// tiles just inside a hole's polygon is wall, the tiles inside that ring are void (no
    /// floor; no other room either, for the room's outline still covers them).
    pub holes: Vec<Vec<(i32, i32)>>,
}

/// A named set of templates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Library {
    /// The library's name (`edgar-paper`, or the file it came from).
    pub name: String,
    /// Its templates, in file order (a room's `template` column indexes this list).
    pub templates: Vec<Template>,
    /// The door sockets its door rules name, in order of first use.
    pub sockets: Vec<String>,
}

/// How one connection of the graph is realised, overriding the profile's `map.corridors` for it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum CorridorSpec {
    /// As the profile says.
    #[default]
    Default,
    /// No corridor: the two rooms touch and share a door, whatever the profile says.
    None,
    /// A corridor of one of these lengths (floor tiles between the two doors), whatever the
    /// profile says.
    Lengths(Vec<u32>),
    /// A corridor room taking one of these templates (indices into [`Library::templates`]):
    /// it touches both rooms and shares a door with each, whatever the profile says.
    Templates(Vec<u32>),
}

/// One room of a level graph.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoomSpec {
    /// The id connections name it by (unique in the graph).
    pub id: String,
    /// An optional display name.
    pub name: Option<String>,
    /// Optional tags (`start`, `goal`, `boss`, ...), kept in the order given.
    pub tags: Vec<String>,
    /// The library templates it may take, as indices into [`Library::templates`] (`None`:
    /// every template of the library).
    pub templates: Option<Vec<u32>>,
    /// The designer's `data` object, as compact JSON text (`None`: none given).
    pub data: Option<String>,
    /// Where the room is pinned, if it is (`"fixed"`).
    pub fixed: Option<Fixed>,
}

/// A fixed room: its template, transform and place in the level's grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixed {
    /// The template's index in the library.
    pub template: u32,
    /// The transform, as the `room_transform` column: bits 0-1 quarter turns clockwise, bit 2
    /// mirrored first.
    pub transform: u8,
    /// The grid tile of the top-left corner of the transformed template's box (its walls
    /// included): tile `(0, 0)` is the grid's top-left corner.
    pub at: (i32, i32),
}

/// One connection: rooms `a` and `b` (indices into [`LevelGraph::rooms`], `a != b`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Connection {
    /// First room.
    pub a: u32,
    /// Second room.
    pub b: u32,
    /// Its corridor setting.
    pub corridor: CorridorSpec,
    /// Whether it leads from `a` to `b` only: its door must let it go out of `a` and come into
    /// `b` ([`door_kind`]).
    pub directed: bool,
    /// Where the file gives it (for errors found later; `None` when built in code).
    pub at: Option<crate::core::text::Pos>,
    /// The designer's `data` object, as compact JSON text (`None`: none given).
    pub data: Option<String>,
}

/// A designer's level graph: rooms and the connections between them. A valid graph (as
/// `floorplan::input` returns it) has at least one room, unique ids, no connection of a room to
/// itself, no connection twice, is connected, and is planar.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LevelGraph {
    /// The rooms, in file order (the `owner` grid's `1 + i` is room `i`).
    pub rooms: Vec<RoomSpec>,
    /// The connections, in file order (the `owner` grid's `1 + rooms + j` is connection `j`'s
    /// corridor).
    pub connections: Vec<Connection>,
    /// `min_path` and `max_path` constraints, in file order.
    pub paths: Vec<PathRule>,
    /// Locked connections, in file order.
    pub locks: Vec<Lock>,
}

/// A bound on the shortest floor path between two sets of rooms (`min_path`, `max_path`): the
/// least number of steps, over floor and door tiles (4-connected), from a floor tile of a room
/// of `from` to a floor tile of a room of `to`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathRule {
    /// The rooms at one end (a room id, or every room with a tag).
    pub from: Vec<u32>,
    /// The rooms at the other end.
    pub to: Vec<u32>,
    /// The two names as given (for messages).
    pub names: [String; 2],
    /// The bound, in steps.
    pub tiles: u32,
    /// Whether it is an upper bound (`max_path`) rather than a lower one (`min_path`).
    pub max: bool,
}

impl PathRule {
    /// The rule as the file spells it: `min_path `start` - `boss` >= 60`.
    pub fn describe(&self) -> String {
        let (key, op) = if self.max {
            ("max_path", "<=")
        } else {
            ("min_path", ">=")
        };
        format!(
            "{key} `{}` - `{}` {op} {}",
            self.names[0], self.names[1], self.tiles
        )
    }

    /// Whether a shortest path of `steps` (`None`: no path) keeps the rule.
    pub fn kept(&self, steps: Option<u32>) -> bool {
        match steps {
            None => false,
            Some(d) if self.max => d <= self.tiles,
            Some(d) => d >= self.tiles,
        }
    }
}

/// A connection locked by a key room: on every walk from the start room (the first room tagged
/// `start`) the key room comes before either room of the connection, however other locks are
/// opened on the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lock {
    /// The locked connection's index in [`LevelGraph::connections`].
    pub connection: u32,
    /// The key room.
    pub key: u32,
}

/// The ranges of the map builder's corridor keys, under the key names given (the `map` kind's or
/// the grammar kind's): corridor lengths and the longest routed corridor 1 to 256 tiles, the
/// room distance at most 64.
pub(crate) fn check_corridor_keys(
    [lengths_key, max_key, distance_key]: [&'static str; 3],
    lengths: &[u32],
    max_corridor: u32,
    min_room_distance: u32,
) -> Result<(), ConfigError> {
    check(
        !lengths.is_empty() && lengths.iter().all(|&l| (1..=256).contains(&l)),
        lengths_key,
        || "must be a non-empty list of lengths from 1 to 256".into(),
    )?;
    check((1..=256).contains(&max_corridor), max_key, || {
        format!("= {max_corridor} is out of range 1..=256")
    })?;
    check(min_room_distance <= 64, distance_key, || {
        format!("= {min_room_distance} is out of range 0..=64")
    })
}

/// A mask the level must fit inside (`map.mask`): the level's grid is the mask's size, and
/// every tile of a room or corridor (walls and doors included) lies on an allowed tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mask {
    /// Tiles across.
    pub width: u32,
    /// Tiles down.
    pub height: u32,
    /// Per tile, row-major: whether the level may use it.
    pub allowed: Vec<bool>,
}

impl Mask {
    /// Whether tile `(x, y)` is inside the mask and allowed.
    pub fn allows(&self, x: i32, y: i32) -> bool {
        x >= 0
            && y >= 0
            && (x as u32) < self.width
            && (y as u32) < self.height
            && self.allowed[(y as u32 * self.width + x as u32) as usize]
    }
}
