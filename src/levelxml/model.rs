//! The level model of seed 002: everything a GraphColoring level file says, as plain data.
//!
//! The model keeps what the file gives, not what the game derives from it: a vertex without a
//! `color` attribute has `color: None` (the game paints it with the first color), a rule colour
//! that was missing or `any` is [`ColorSel::Any`]. Parsing a level, writing it and parsing it
//! again therefore gives an equal model. Positions in the file are kept apart, in
//! [`SourceMap`](crate::levelxml::SourceMap), so that they never make two equal levels differ.

use std::fmt;

/// One GraphColoring level.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LevelDoc {
    /// `<level title="...">`, shown at the top of the level.
    pub title: Option<String>,
    /// `<level description="...">`; `;` separates lines.
    pub description: Option<String>,
    /// `<level objective="...">`: the text of the goal (the number is the `objective` value).
    pub objective: Option<String>,
    /// `<global-vertex-protections protect="...">`, applied to every listed vertex.
    pub vertex_protect: Option<Protect>,
    /// `<global-edge-protections protect="...">`, applied to every listed edge.
    pub edge_protect: Option<Protect>,
    /// `<colors>`: the palette, in file order (the first is the default color).
    pub colors: Vec<Color>,
    /// `<graph>` vertices, in file order (a vertex's value is its position here).
    pub vertices: Vec<Vertex>,
    /// `<graph>` edges, in file order.
    pub edges: Vec<Edge>,
    /// `<rules>`, in file order.
    pub rules: Vec<Rule>,
    /// `<values>`, in file order (among values of one name, the last wins).
    pub values: Vec<ValueNode>,
    /// `<path>` and `<cycle>` elements in file order; only the first one scores.
    pub paths: Vec<PathSpec>,
}

/// A set of protections (`protect="acde"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Protect(u8);

impl Protect {
    /// `a`: nothing new of this kind may be added (global protections).
    pub const ADD: Protect = Protect(1);
    /// `c`: the color may not be changed.
    pub const COLOR: Protect = Protect(2);
    /// `d`: the item may not be deleted.
    pub const DELETE: Protect = Protect(4);
    /// `e`: no edge may be added to or from the vertex.
    pub const EDGES: Protect = Protect(8);
    /// The letters in file order, with their flags.
    pub const LETTERS: [(char, Protect); 4] = [
        ('a', Protect::ADD),
        ('c', Protect::COLOR),
        ('d', Protect::DELETE),
        ('e', Protect::EDGES),
    ];

    /// No protection.
    pub const fn none() -> Self {
        Protect(0)
    }

    /// Whether every flag of `other` is set.
    pub const fn contains(self, other: Protect) -> bool {
        self.0 & other.0 == other.0
    }

    /// The union.
    #[must_use]
    pub const fn with(self, other: Protect) -> Self {
        Protect(self.0 | other.0)
    }

    /// Whether no flag is set.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set from its letters; `Err(c)` names the first letter that is not `a`, `c`, `d` or
    /// `e`.
    pub fn from_letters(s: &str) -> Result<Self, char> {
        let mut p = Protect::none();
        for c in s.chars() {
            match Protect::LETTERS.iter().find(|(l, _)| *l == c) {
                Some(&(_, flag)) => p = p.with(flag),
                None => return Err(c),
            }
        }
        Ok(p)
    }
}

impl fmt::Display for Protect {
    /// The letters in canonical order (`acde`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (letter, flag) in Protect::LETTERS {
            if self.contains(flag) {
                write!(f, "{letter}")?;
            }
        }
        Ok(())
    }
}

/// `<color color="#RRGGBB[AA]" name="..." vertex-points="" edge-points=""/>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Color {
    /// The name vertices, edges, rules and values use.
    pub name: String,
    /// Packed `0xRRGGBBAA` (alpha `FF` when the file gives six digits).
    pub rgba: u32,
    /// Points for each vertex of this color (default 0).
    pub vertex_points: i64,
    /// Points for each edge of this color (default 0).
    pub edge_points: i64,
}

impl Color {
    /// The color's value in `<values>`: its packed `0xRRGGBBAA` as a signed 32-bit integer
    /// (red `#FF0000` is -16776961), as the game computes it.
    pub fn value(&self) -> i64 {
        i64::from(self.rgba as i32)
    }
}

/// `<vertex x="" y="" id="" color="" origin="" protect=""/>`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Vertex {
    /// Horizontal position in pixels (drawing only).
    pub x: i64,
    /// Vertical position in pixels (drawing only).
    pub y: i64,
    /// The vertex id (used by edges and values).
    pub id: Option<String>,
    /// A color name; `None` is the first color.
    pub color: Option<String>,
    /// A connectedness origin (the attribute's value is ignored).
    pub origin: bool,
    /// Protections of this vertex (on top of the global ones).
    pub protect: Protect,
}

/// `<edge v1="" v2="" id="" color="" protect=""/>`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Edge {
    /// The first vertex's id.
    pub v1: String,
    /// The second vertex's id.
    pub v2: String,
    /// The edge id (used by values).
    pub id: Option<String>,
    /// A color name; `None` is the first color.
    pub color: Option<String>,
    /// Protections of this edge (on top of the global ones).
    pub protect: Protect,
}

/// A color slot of a rule: `any` (or missing), `same`, or one color name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum ColorSel {
    /// Every color.
    #[default]
    Any,
    /// Every color, with all `same` slots of one rule bound to one color.
    Same,
    /// One named color.
    Named(String),
}

/// Whether a bound rule counts vertices or edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    /// `<vertex-minimum>` / `<vertex-maximum>`.
    Vertex,
    /// `<edge-minimum>` / `<edge-maximum>`.
    Edge,
}

/// Whether a bound rule is a floor or a ceiling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// `-minimum min="n"`: at least n.
    Min,
    /// `-maximum max="n"`: at most n.
    Max,
}

/// One child of `<rules>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// `<connected/>`: every vertex is reachable from an origin.
    Connected,
    /// `<vertex-maximum color="red" max="7"/>` and its three siblings.
    Count {
        /// What is counted.
        item: Item,
        /// Floor or ceiling.
        bound: Bound,
        /// Which color is counted (`same`: each color on its own).
        color: ColorSel,
        /// The bound (default 0).
        limit: i64,
    },
    /// `<edge-rule v1="" edge="" v2=""/>`: bans edges with these colors, either direction.
    EdgeBan {
        /// The first endpoint's color.
        v1: ColorSel,
        /// The edge's color.
        edge: ColorSel,
        /// The second endpoint's color.
        v2: ColorSel,
    },
}

/// The operations of `<op>`, `<map>`, `<zip>` and `<fold>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// `min`.
    Min,
    /// `max`.
    Max,
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/` (truncating; by zero an error).
    Div,
    /// `%` (truncating; by zero an error).
    Rem,
    /// `=`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `>`.
    Gt,
    /// `<=`.
    Le,
    /// `>=`.
    Ge,
    /// `and`.
    And,
    /// `or`.
    Or,
    /// `not` (val2 is evaluated, its value ignored).
    Not,
    /// `v1`: an edge's first vertex.
    V1,
    /// `v2`: an edge's second vertex.
    V2,
    /// `connected`: whether two vertices share an edge.
    Connected,
    /// `degree`: a vertex's number of incident edges.
    Degree,
    /// `vertex-color`: a vertex's color value.
    VertexColor,
    /// `edge-color`: an edge's color value.
    EdgeColor,
}

impl Op {
    /// Every operation with its name in the file.
    pub const ALL: [(Op, &'static str); 22] = [
        (Op::Min, "min"),
        (Op::Max, "max"),
        (Op::Add, "+"),
        (Op::Sub, "-"),
        (Op::Mul, "*"),
        (Op::Div, "/"),
        (Op::Rem, "%"),
        (Op::Eq, "="),
        (Op::Ne, "!="),
        (Op::Lt, "<"),
        (Op::Gt, ">"),
        (Op::Le, "<="),
        (Op::Ge, ">="),
        (Op::And, "and"),
        (Op::Or, "or"),
        (Op::Not, "not"),
        (Op::V1, "v1"),
        (Op::V2, "v2"),
        (Op::Connected, "connected"),
        (Op::Degree, "degree"),
        (Op::VertexColor, "vertex-color"),
        (Op::EdgeColor, "edge-color"),
    ];

    /// The operation named `s` in a file.
    pub fn from_name(s: &str) -> Option<Op> {
        Op::ALL.iter().find(|(_, n)| *n == s).map(|&(op, _)| op)
    }

    /// The name in a file.
    pub fn name(self) -> &'static str {
        Op::ALL
            .iter()
            .find(|(op, _)| *op == self)
            .map_or("?", |&(_, n)| n)
    }
}

/// One child of `<values>`. Arguments are value expressions: `""` (0), an integer, or a name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueNode {
    /// `<var id="a" val="5"/>`.
    Var {
        /// The variable defined.
        id: String,
        /// Its value expression.
        val: String,
    },
    /// `<op id="c" op="+" val1="a" val2="b"/>`.
    Op {
        /// The variable defined.
        id: String,
        /// The operation.
        op: Op,
        /// First argument.
        val1: String,
        /// Second argument.
        val2: String,
    },
    /// `<map id="" op="" val=""/>`: the op on each element (element as val1, 0 as val2).
    Map {
        /// The list defined.
        id: String,
        /// The operation.
        op: Op,
        /// The list.
        val: String,
    },
    /// `<zip id="" op="" val1="" val2=""/>`: the op pairwise, up to the shorter list.
    Zip {
        /// The list defined.
        id: String,
        /// The operation.
        op: Op,
        /// First list.
        val1: String,
        /// Second list.
        val2: String,
    },
    /// `<fold id="" op="" val="" start=""/>`: `acc = op(acc, elem)` from `start`.
    Fold {
        /// The variable defined.
        id: String,
        /// The operation.
        op: Op,
        /// The list.
        val: String,
        /// The start value expression (default 0).
        start: String,
    },
    /// `<include file="includes/foo"/>`: the `<values>` of `foo.xml` under the levels root.
    Include {
        /// The file name without `.xml`, relative to the levels root.
        file: String,
    },
    /// `<comment>text</comment>`: ignored.
    Comment {
        /// The element's text.
        text: String,
    },
}

impl ValueNode {
    /// The name this node defines, if it defines one.
    pub fn id(&self) -> Option<&str> {
        match self {
            ValueNode::Var { id, .. }
            | ValueNode::Op { id, .. }
            | ValueNode::Map { id, .. }
            | ValueNode::Zip { id, .. }
            | ValueNode::Fold { id, .. } => Some(id),
            ValueNode::Include { .. } | ValueNode::Comment { .. } => None,
        }
    }
}

/// The operations of path point accumulators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PathOp {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/` (truncating; by zero an error).
    Div,
    /// `%` (truncating; by zero an error).
    Rem,
}

impl PathOp {
    /// Every path operation with its name in the file.
    pub const ALL: [(PathOp, &'static str); 5] = [
        (PathOp::Add, "+"),
        (PathOp::Sub, "-"),
        (PathOp::Mul, "*"),
        (PathOp::Div, "/"),
        (PathOp::Rem, "%"),
    ];

    /// The operation named `s` in a file.
    pub fn from_name(s: &str) -> Option<PathOp> {
        PathOp::ALL.iter().find(|(_, n)| *n == s).map(|&(op, _)| op)
    }

    /// The name in a file.
    pub fn name(self) -> &'static str {
        PathOp::ALL
            .iter()
            .find(|(op, _)| *op == self)
            .map_or("?", |&(_, n)| n)
    }
}

/// `<edge color="" op="" val=""/>` inside a path: what passing an edge of a color does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathRule {
    /// The edge color; `None` is `any`: every edge, after its color's own rule.
    pub color: Option<String>,
    /// The operation applied to the running score.
    pub op: PathOp,
    /// Its operand.
    pub val: i64,
}

/// `<path points="">` or `<cycle points="">` with its edge rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PathSpec {
    /// `<cycle>`: the walk must end where it started.
    pub cycle: bool,
    /// The start value (default 0).
    pub points: i64,
    /// The per-color rules, in file order (a later rule for a color wins).
    pub rules: Vec<PathRule>,
}

/// `level-list.xml`: the categories and their levels.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LevelList {
    /// `<category-listing version="">`: bumping it makes the game reload its levels.
    pub version: String,
    /// The categories in order.
    pub categories: Vec<Category>,
}

/// `<category name="" id="" color="">` with its `<level id=""/>` children.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Category {
    /// The shown name.
    pub name: String,
    /// The folder under the levels root.
    pub id: String,
    /// Packed `0xRRGGBBAA`.
    pub rgba: u32,
    /// Level file names (without `.xml`) in the category's folder, in order.
    pub levels: Vec<String>,
}
