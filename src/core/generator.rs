//! The [`Generator`] trait every level family implements (DESIGN.md, "Generator"), and the
//! borrowed level views that flow from a generator's scratch to the archive and back.

use crate::core::error::{GenError, Violation};
use crate::core::grid::GridView;

/// The type of one metric column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetricKind {
    /// Stored as Arrow `UInt32` (counts, lengths, ids).
    U32,
    /// Stored as Arrow `Float32` (ratios, times).
    F32,
}

/// One metric column: name, type and what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MetricSpec {
    /// Column name in the archive.
    pub name: &'static str,
    /// Column type.
    pub kind: MetricKind,
    /// One sentence saying what is counted.
    pub doc: &'static str,
}

impl MetricSpec {
    /// A `u32` metric.
    pub const fn u32(name: &'static str, doc: &'static str) -> Self {
        Self {
            name,
            kind: MetricKind::U32,
            doc,
        }
    }

    /// An `f32` metric.
    pub const fn f32(name: &'static str, doc: &'static str) -> Self {
        Self {
            name,
            kind: MetricKind::F32,
            doc,
        }
    }
}

/// The Arrow type of one generator-specific extra column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtraKind {
    /// `list<u32>`, one list per level.
    ListU32,
    /// `list<i32>`.
    ListI32,
    /// `list<f32>`.
    ListF32,
    /// `list<u8>`.
    ListU8,
    /// `list<u16>`.
    ListU16,
    /// `binary`: opaque bytes (a raster, a serialised solution).
    Binary,
    /// `utf8`: text (for example a level's XML).
    Utf8,
}

/// One generator-specific column: name, type and what it holds. Columns that only one
/// generator needs (a region tree, a level's XML) are declared this way instead of growing
/// [`Columns`] with a flag per generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtraSpec {
    /// Column name in the archive (must not clash with the fixed columns or the metrics).
    pub name: &'static str,
    /// Column type.
    pub kind: ExtraKind,
    /// One sentence saying what the column holds (stored as the field's `warren.doc`).
    pub doc: &'static str,
}

impl ExtraSpec {
    /// An extra column.
    pub const fn new(name: &'static str, kind: ExtraKind, doc: &'static str) -> Self {
        Self { name, kind, doc }
    }
}

/// One level's value of an extra column, borrowed; its variant matches the column's
/// [`ExtraKind`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ExtraValue<'a> {
    /// A `list<u32>` row.
    ListU32(&'a [u32]),
    /// A `list<i32>` row.
    ListI32(&'a [i32]),
    /// A `list<f32>` row.
    ListF32(&'a [f32]),
    /// A `list<u8>` row.
    ListU8(&'a [u8]),
    /// A `list<u16>` row.
    ListU16(&'a [u16]),
    /// A `binary` row.
    Binary(&'a [u8]),
    /// A `utf8` row.
    Utf8(&'a str),
}

impl<'a> ExtraValue<'a> {
    /// The column type this value belongs to.
    pub fn kind(&self) -> ExtraKind {
        match self {
            ExtraValue::ListU32(_) => ExtraKind::ListU32,
            ExtraValue::ListI32(_) => ExtraKind::ListI32,
            ExtraValue::ListF32(_) => ExtraKind::ListF32,
            ExtraValue::ListU8(_) => ExtraKind::ListU8,
            ExtraValue::ListU16(_) => ExtraKind::ListU16,
            ExtraValue::Binary(_) => ExtraKind::Binary,
            ExtraValue::Utf8(_) => ExtraKind::Utf8,
        }
    }

    /// The `list<u32>` values, or `None` for another type.
    pub fn as_u32s(&self) -> Option<&'a [u32]> {
        match *self {
            ExtraValue::ListU32(v) => Some(v),
            _ => None,
        }
    }

    /// The `list<u8>` values, or `None` for another type.
    pub fn as_u8s(&self) -> Option<&'a [u8]> {
        match *self {
            ExtraValue::ListU8(v) => Some(v),
            _ => None,
        }
    }

    /// The `list<u16>` values, or `None` for another type.
    pub fn as_u16s(&self) -> Option<&'a [u16]> {
        match *self {
            ExtraValue::ListU16(v) => Some(v),
            _ => None,
        }
    }

    /// The `binary` bytes, or `None` for another type.
    pub fn as_binary(&self) -> Option<&'a [u8]> {
        match *self {
            ExtraValue::Binary(v) => Some(v),
            _ => None,
        }
    }

    /// The `utf8` text, or `None` for another type.
    pub fn as_str(&self) -> Option<&'a str> {
        match *self {
            ExtraValue::Utf8(v) => Some(v),
            _ => None,
        }
    }
}

/// Which parts of the archive schema a generator fills (absent parts are omitted).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Columns {
    /// `grid_width`, `grid_height`, `grid`.
    pub grid: bool,
    /// Every grid's (width, height), when the profile fixes it: the `grid` column is then
    /// Arrow's fixed-shape tensor (`arrow.fixed_shape_tensor`, shape [height, width], `uint8`)
    /// instead of `binary`, so readers get an (N, H, W) array without a copy.
    pub grid_shape: Option<(u16, u16)>,
    /// `vertex_x`, `vertex_y`, `edge_src`, `edge_dst`, `edge_flags`.
    pub graph: bool,
    /// `vertex_tag` (only with `graph`).
    pub tags: bool,
    /// `room_x0`, `room_y0`, `room_x1`, `room_y1`: one rectangle per vertex.
    pub rooms: bool,
    /// `rule_uses`: how often each rule of the generator's grammar was applied (rule names in
    /// the schema metadata `warren.rules`).
    pub rule_uses: bool,
    /// The metric columns, in the order of [`Level::metrics`].
    pub metrics: &'static [MetricSpec],
    /// Generator-specific columns, in the order of [`Level::extra`] (written after
    /// `rule_uses`, before the metrics).
    pub extra: &'static [ExtraSpec],
    /// What the level's `canonical_hash` identifies it by.
    pub identity: Identity,
}

/// What a level's `canonical_hash` identifies it by: its content up to the symmetries a learner
/// cannot tell apart (`core::identity` computes it from the level as stored).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Identity {
    /// The grid up to its 8 rotations and reflections; nothing else of the level (its graph,
    /// rooms and metrics follow from the grid or describe it). A level without a grid: its
    /// graph as [`Identity::Graph`].
    #[default]
    Grid,
    /// The grid with a start and a goal cell (metric columns `(row, col)` by position in
    /// [`Columns::metrics`]) carried along under the 8 symmetries; `swappable`: start and goal
    /// may trade places (a task whose answer is the same both ways).
    GridEnds {
        /// Metric positions of the start's row and column.
        start: (usize, usize),
        /// Metric positions of the goal's row and column.
        goal: (usize, usize),
        /// Start and goal are an unordered pair.
        swappable: bool,
    },
    /// The graph up to relabelling its vertices (an exact canonical form): vertex tags as
    /// vertex labels, edge flags as edge labels, positions ignored. A level without a graph:
    /// its exact content hash.
    Graph,
}

impl Columns {
    /// `level` as an archive with these columns stores it (and reads it back): the parts the
    /// columns do not declare left out (vertex tags without `tags`, rule uses without
    /// `rule_uses`, ...). The content hash is taken of this, so that the hash of a fresh level
    /// and of its stored record agree.
    pub fn stored<'a>(&self, level: &Level<'a>) -> Level<'a> {
        let graph = level.graph.filter(|_| self.graph).map(|g| GraphView {
            tag: if self.tags { g.tag } else { &[] },
            ..g
        });
        Level {
            grid: level.grid.filter(|_| self.grid),
            graph,
            rooms: level.rooms.filter(|_| self.rooms),
            rule_uses: if self.rule_uses { level.rule_uses } else { &[] },
            ..*level
        }
    }
}

/// A borrowed SoA graph.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GraphView<'a> {
    /// Vertex x coordinates.
    pub x: &'a [f32],
    /// Vertex y coordinates.
    pub y: &'a [f32],
    /// Interned vertex tags (empty when the generator has none).
    pub tag: &'a [u16],
    /// Edge sources.
    pub src: &'a [u32],
    /// Edge destinations.
    pub dst: &'a [u32],
    /// Edge flags (`core::graph::edge_flag` plus generator bits).
    pub flags: &'a [u8],
}

/// Rooms as integer rectangles `[x0, x1) x [y0, y1)`, one per graph vertex.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoomsView<'a> {
    /// Left edges.
    pub x0: &'a [i32],
    /// Top edges.
    pub y0: &'a [i32],
    /// Right edges (exclusive).
    pub x1: &'a [i32],
    /// Bottom edges (exclusive).
    pub y1: &'a [i32],
}

/// One level, borrowed from the scratch that produced it (or from an archive batch).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Level<'a> {
    /// The tile grid, when the generator has one.
    pub grid: Option<GridView<'a>>,
    /// The graph, when the generator has one.
    pub graph: Option<GraphView<'a>>,
    /// One room per graph vertex, when the generator places rooms.
    pub rooms: Option<RoomsView<'a>>,
    /// Applications of each grammar rule, when the generator has rules.
    pub rule_uses: &'a [u32],
    /// Metric values in [`Columns::metrics`] order (integers are exact in `f64`).
    pub metrics: &'a [f64],
    /// Extra column values in [`Columns::extra`] order (empty when the generator declares none).
    pub extra: &'a [ExtraValue<'a>],
}

/// A level read back from an archive, with its place in the run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelRecord<'a> {
    /// The level's index in the run.
    pub index: u64,
    /// The level's seed, `mix(master_seed, index)`.
    pub seed: u64,
    /// The level itself.
    pub level: Level<'a>,
}

/// A level family. One value is shared by all workers; each worker owns one `Scratch`.
pub trait Generator: Sync {
    /// Per-worker memory reused across levels (arenas, buffers).
    type Scratch: Send;

    /// The kind name (`maze`, ...), stored as `warren.generator`.
    fn kind(&self) -> &'static str;

    /// The columns this configuration writes.
    fn columns(&self) -> Columns;

    /// Fresh scratch for one worker.
    fn new_scratch(&self) -> Self::Scratch;

    /// Generates the level for `seed`. The level borrows from `scratch` until the next call.
    fn generate<'s>(
        &self,
        seed: u64,
        scratch: &'s mut Self::Scratch,
    ) -> Result<Level<'s>, GenError>;

    /// Generates level `index` of a run, whose seed is `seed` (`mix(master, index)`). The
    /// batch engine and `verify` call this; a generator whose levels depend on their place in
    /// the run (a task whose exact shares are kept over every prefix of the run) overrides it,
    /// the others make the level of `seed` alone.
    fn generate_at<'s>(
        &self,
        index: u64,
        seed: u64,
        scratch: &'s mut Self::Scratch,
    ) -> Result<Level<'s>, GenError> {
        let _ = index;
        self.generate(seed, scratch)
    }

    /// Re-checks a stored level's invariants.
    fn verify(&self, record: &LevelRecord<'_>) -> Result<(), Violation>;

    /// Vertex tag names indexed by tag id (stored as `warren.tags`; empty without tags).
    fn tag_names(&self) -> Vec<String> {
        Vec::new()
    }

    /// Names of the rules counted by `rule_uses` (stored as `warren.rules`; empty without
    /// rules).
    fn rule_names(&self) -> Vec<String> {
        Vec::new()
    }

    /// Names of the stages a level's generation is timed in (`warren bench` reports each
    /// stage's share of the time; empty: no stages).
    fn stage_names(&self) -> &'static [&'static str] {
        &[]
    }

    /// Turns the stage timing of `scratch` on or off (generators whose stages cost a clock read
    /// each keep it off unless asked).
    fn time_stages(&self, _scratch: &mut Self::Scratch, _on: bool) {}

    /// Nanoseconds the last level generated with `scratch` spent in each of
    /// [`stage_names`](Self::stage_names), written into `out` (one entry per stage).
    fn stage_nanos(&self, _scratch: &Self::Scratch, _out: &mut [u64]) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_levels_leave_out_what_the_columns_do_not_declare() {
        let (x, tag, src) = ([0.0f32, 1.0], [4u16, 5], [0u32]);
        let uses = [3u32];
        let level = Level {
            graph: Some(GraphView {
                x: &x,
                y: &x,
                tag: &tag,
                src: &src,
                dst: &src,
                flags: &[0],
            }),
            rule_uses: &uses,
            ..Level::default()
        };
        let bare = Columns {
            graph: true,
            ..Columns::default()
        };
        let stored = bare.stored(&level);
        assert_eq!(stored.graph.unwrap().tag, &[] as &[u16]);
        assert_eq!(stored.rule_uses, &[] as &[u32]);
        assert_eq!(stored.graph.unwrap().x, &x);
        let full = Columns {
            graph: true,
            tags: true,
            rule_uses: true,
            ..Columns::default()
        };
        assert_eq!(full.stored(&level), level);
        assert_ne!(stored.content_hash(), level.content_hash());
        assert_eq!(Columns::default().stored(&level).graph, None);
    }
}
