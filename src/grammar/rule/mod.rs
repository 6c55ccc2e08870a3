//! The rule model of seed 000's graph grammar and its validation.
//!
//! A rule rewrites a *pattern* graph found in the host into a *substitute* graph. Both carry
//! editor positions (the orientation test and the placement of fresh vertices use them) and
//! vertex tags; every pattern vertex maps to a distinct substitute vertex (`Rule::map`), and the
//! substitute vertices outside the map's image are *fresh*. A rule whose pattern is one vertex
//! tagged `s` is a start rule.
//!
//! Validation ([`Grammar::check`]) enforces the seed's limits and names the rule and the vertex
//! of every finding: only start rules have a one-vertex pattern, tagged `s`; no `s` in a
//! substitute; other rules have at least two pattern vertices; pattern connected, substitute
//! connected over non-cosmetic edges (a rewrite must never split a level's walkable graph); the
//! map total and injective. It warns about "knots" (a substitute edge between mapped vertices
//! whose pattern vertices are not adjacent, which the seed found the layout cannot untangle).

use std::fmt;

/// An interned tag name.
pub type TagId = u16;

/// The tag every start rule's pattern vertex carries.
pub const START_TAG: &str = "s";

/// Tag names and their ids, in order of first use.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TagTable {
    names: Vec<String>,
}

impl TagTable {
    /// The id of `name`, adding it if new.
    ///
    /// # Panics
    /// Past 65,536 distinct tags.
    pub fn intern(&mut self, name: &str) -> TagId {
        if let Some(id) = self.id(name) {
            return id;
        }
        let id = TagId::try_from(self.names.len()).expect("at most 65,536 tags");
        self.names.push(name.to_string());
        id
    }

    /// The id of `name`, if known.
    pub fn id(&self, name: &str) -> Option<TagId> {
        self.names
            .iter()
            .position(|n| n == name)
            .map(|i| i as TagId)
    }

    /// The name of `id`.
    pub fn name(&self, id: TagId) -> &str {
        &self.names[id as usize]
    }

    /// All names, indexed by id.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Number of tags.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether no tag is known.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// A place in a rule file (1-based line and column; 0 when the rule was built in code).
pub use crate::core::text::Pos;

/// The host tags a pattern vertex (or a blocked neighbour) accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TagSet {
    /// `*`: any tag.
    Any,
    /// `a|b|...`: one of these (sorted, no duplicates).
    Of(Vec<TagId>),
}

impl TagSet {
    /// A set of the given tags (sorted and deduplicated).
    pub fn of(mut tags: Vec<TagId>) -> Self {
        tags.sort_unstable();
        tags.dedup();
        TagSet::Of(tags)
    }

    /// Whether a host vertex tagged `tag` is accepted.
    #[inline]
    pub fn accepts(&self, tag: TagId) -> bool {
        match self {
            TagSet::Any => true,
            TagSet::Of(tags) => tags.contains(&tag),
        }
    }

    /// Whether this is exactly the one tag `tag`.
    pub fn is_only(&self, tag: TagId) -> bool {
        matches!(self, TagSet::Of(t) if t.as_slice() == [tag])
    }

    /// The set as written in rule files (`*` or `a|b`).
    pub fn display(&self, tags: &TagTable) -> String {
        match self {
            TagSet::Any => "*".to_string(),
            TagSet::Of(t) => t
                .iter()
                .map(|&id| tags.name(id))
                .collect::<Vec<_>>()
                .join("|"),
        }
    }
}

/// A vertex of a rule's pattern.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternVertex {
    /// Name within the rule (files name vertices; imports number them).
    pub name: String,
    /// Editor x.
    pub x: f32,
    /// Editor y.
    pub y: f32,
    /// Host tags this vertex matches.
    pub tags: TagSet,
    /// `!c`: no match when the host vertex has a neighbour outside the match with one of these
    /// tags.
    pub blocked: Option<TagSet>,
    /// `lock`: the host vertex's valence must equal this vertex's pattern valence.
    pub lock: bool,
    /// A cosmetic vertex (shapes the drawing, never a room): matches only cosmetic host
    /// vertices.
    pub cosmetic: bool,
    /// Where it was written.
    pub at: Pos,
}

/// A vertex of a rule's substitute.
#[derive(Clone, Debug, PartialEq)]
pub struct SubstituteVertex {
    /// Name within the rule.
    pub name: String,
    /// Editor x.
    pub x: f32,
    /// Editor y.
    pub y: f32,
    /// The tag it gets; `None` is `*`: a mapped vertex keeps its host vertex's tag.
    pub tag: Option<TagId>,
    /// A cosmetic vertex: laid out like any vertex, never a room, joined to the level by any
    /// edges (walkable connectivity does not need it).
    pub cosmetic: bool,
    /// Where it was written.
    pub at: Pos,
}

/// How an edge takes part in the level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EdgeKind {
    /// A corridor.
    #[default]
    Normal,
    /// Shapes the drawing only: laid out like any edge, never a corridor, and matched only by
    /// cosmetic pattern edges.
    Cosmetic,
    /// A corridor whose target length is its drawn length in the rule relative to the
    /// pattern's edges (seed 000: "calculate the proportionate edge length in the substitute
    /// graph as a multiplier for edge lengths").
    Subdivide,
}

impl EdgeKind {
    /// The archive's edge flag bits (`core::graph::edge_flag`).
    pub fn flags(self) -> u8 {
        use crate::core::graph::edge_flag;
        match self {
            EdgeKind::Normal => 0,
            EdgeKind::Cosmetic => edge_flag::COSMETIC,
            EdgeKind::Subdivide => edge_flag::SUBDIVIDE,
        }
    }
}

/// An edge of a pattern or substitute, by vertex index.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleEdge {
    /// One end.
    pub a: u32,
    /// The other end.
    pub b: u32,
    /// Its kind.
    pub kind: EdgeKind,
    /// An explicit length factor (substitutes; overrides the subdivide proportion).
    pub length: Option<f32>,
    /// Where it was written.
    pub at: Pos,
}

/// A pattern or a substitute graph.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleGraph<V> {
    /// Vertices.
    pub vertices: Vec<V>,
    /// Edges between them.
    pub edges: Vec<RuleEdge>,
}

impl<V> Default for RuleGraph<V> {
    fn default() -> Self {
        Self {
            vertices: Vec::new(),
            edges: Vec::new(),
        }
    }
}

impl<V> RuleGraph<V> {
    /// Valence of every vertex (all edge kinds).
    pub fn valences(&self) -> Vec<u32> {
        let mut v = vec![0u32; self.vertices.len()];
        for e in &self.edges {
            v[e.a as usize] += 1;
            v[e.b as usize] += 1;
        }
        v
    }

    /// Whether every vertex is reachable from vertex 0 over the edges `keep` accepts (an empty
    /// graph is not connected).
    pub fn connected_over(&self, keep: impl Fn(&RuleEdge) -> bool) -> bool {
        let n = self.vertices.len();
        let edges = self.edges.iter().filter(|e| keep(e)).map(|e| (e.a, e.b));
        n > 0 && crate::core::sets::joins(n, edges, &mut Default::default()) as usize == n - 1
    }

    /// Whether `a` and `b` are joined by an edge.
    pub fn adjacent(&self, a: u32, b: u32) -> bool {
        self.edges
            .iter()
            .any(|e| (e.a == a && e.b == b) || (e.a == b && e.b == a))
    }
}

/// One production rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// Name (files name rules; imports number them `rule 3`).
    pub name: String,
    /// Relative chance of being picked among the rules that match.
    pub weight: f32,
    /// Applied at most this often in one level.
    pub max_uses: Option<u32>,
    /// Rules below their minimum are preferred while they match (0: no minimum).
    pub min_uses: u32,
    /// What is looked for.
    pub pattern: RuleGraph<PatternVertex>,
    /// What replaces it.
    pub substitute: RuleGraph<SubstituteVertex>,
    /// `map[p]`: the substitute vertex pattern vertex `p` becomes.
    pub map: Vec<u32>,
    /// Where the rule starts in its file.
    pub at: Pos,
}

impl Rule {
    /// Whether this is a start rule (a one-vertex pattern).
    pub fn is_start(&self) -> bool {
        self.pattern.vertices.len() == 1
    }

    /// Vertices a rewrite adds.
    pub fn delta(&self) -> usize {
        self.substitute
            .vertices
            .len()
            .saturating_sub(self.pattern.vertices.len())
    }

    /// `fresh[s]`: whether substitute vertex `s` is not the image of a pattern vertex.
    pub fn fresh(&self) -> Vec<bool> {
        let mut fresh = vec![true; self.substitute.vertices.len()];
        for &s in &self.map {
            if let Some(f) = fresh.get_mut(s as usize) {
                *f = false;
            }
        }
        fresh
    }
}

/// A room size for one tag, in layout units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoomSize {
    /// Width.
    pub w: f32,
    /// Height.
    pub h: f32,
}

/// A set of rules with their tags and room sizes.
#[derive(Clone, Debug, PartialEq)]
pub struct Grammar {
    /// Where it came from (a file path, or `built-in ...`), for messages.
    pub source: String,
    /// Tag names.
    pub tags: TagTable,
    /// The rules, in file order.
    pub rules: Vec<Rule>,
    /// Room size per tag id (`None`: `default_room`).
    pub rooms: Vec<Option<RoomSize>>,
    /// Room size for tags without their own.
    pub default_room: RoomSize,
}

impl Grammar {
    /// An empty grammar from `source`, with the start tag interned as id 0.
    pub fn new(source: impl Into<String>) -> Self {
        let mut tags = TagTable::default();
        tags.intern(START_TAG);
        Self {
            source: source.into(),
            tags,
            rules: Vec::new(),
            rooms: Vec::new(),
            default_room: RoomSize { w: 0.5, h: 0.5 },
        }
    }

    /// The room size of `tag`.
    pub fn room(&self, tag: TagId) -> RoomSize {
        self.rooms
            .get(tag as usize)
            .copied()
            .flatten()
            .unwrap_or(self.default_room)
    }

    /// Sets the room size of `tag`.
    pub fn set_room(&mut self, tag: TagId, size: RoomSize) {
        if self.rooms.len() <= tag as usize {
            self.rooms.resize(tag as usize + 1, None);
        }
        self.rooms[tag as usize] = Some(size);
    }
}

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The grammar cannot be used.
    Error,
    /// Allowed, but likely to hurt.
    Warning,
}

/// One finding of [`Grammar::check`] (or of a rule-file parser): where, which rule and vertex,
/// and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The grammar's source.
    pub source: String,
    /// The rule's name, if it concerns one.
    pub rule: Option<String>,
    /// The vertex's name, if it concerns one.
    pub vertex: Option<String>,
    /// Where (0:0 when unknown).
    pub at: Pos,
    /// What is wrong.
    pub message: String,
}

impl Diagnostic {
    fn new(
        severity: Severity,
        g: &Grammar,
        rule: Option<&Rule>,
        vertex: Option<&str>,
        at: Pos,
        message: impl Into<String>,
    ) -> Self {
        Self {
            severity,
            source: g.source.clone(),
            rule: rule.map(|r| r.name.clone()),
            vertex: vertex.map(str::to_string),
            at: if at == Pos::default() {
                rule.map_or(at, |r| r.at)
            } else {
                at
            },
            message: message.into(),
        }
    }

    /// An error about `rule` (and `vertex`).
    pub fn error(
        g: &Grammar,
        rule: Option<&Rule>,
        vertex: Option<&str>,
        at: Pos,
        message: impl Into<String>,
    ) -> Self {
        Self::new(Severity::Error, g, rule, vertex, at, message)
    }

    /// A warning about `rule` (and `vertex`).
    pub fn warning(
        g: &Grammar,
        rule: Option<&Rule>,
        vertex: Option<&str>,
        at: Pos,
        message: impl Into<String>,
    ) -> Self {
        Self::new(Severity::Warning, g, rule, vertex, at, message)
    }
}

impl fmt::Display for Diagnostic {
    /// `file:line:col: error: rule `r`, vertex `v`: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.source)?;
        if self.at.line > 0 {
            write!(f, ":{}:{}", self.at.line, self.at.col)?;
        }
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, ": {kind}: ")?;
        if let Some(r) = &self.rule {
            write!(f, "rule `{r}`")?;
            if let Some(v) = &self.vertex {
                write!(f, ", vertex `{v}`")?;
            }
            write!(f, ": ")?;
        }
        write!(f, "{}", self.message)
    }
}

/// A grammar could not be read or is not valid.
#[derive(Debug, thiserror::Error)]
pub enum GrammarError {
    /// The file could not be read. (The I/O error is part of the message, not a separate
    /// cause, so that printing the error chain says it once.)
    #[error("{path}: cannot read: {error}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        error: std::io::Error,
    },
    /// The name is neither a built-in rule set nor an existing file.
    #[error(
        "`{name}` is neither a built-in rule set (see `warren grammar list`) nor a readable file: {error}"
    )]
    Unknown {
        /// The name as given.
        name: String,
        /// Why the file could not be read.
        error: std::io::Error,
    },
    /// Syntax errors (each with line and column).
    #[error("{}", join(.0))]
    Syntax(Vec<Diagnostic>),
    /// The rules break the grammar's limits.
    #[error("{}", join(.0))]
    Invalid(Vec<Diagnostic>),
}

impl GrammarError {
    /// The findings behind the error (empty for read errors).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            GrammarError::Read { .. } | GrammarError::Unknown { .. } => &[],
            GrammarError::Syntax(d) | GrammarError::Invalid(d) => d,
        }
    }
}

fn join(d: &[Diagnostic]) -> String {
    d.iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

mod check;

#[cfg(test)]
mod tests;
