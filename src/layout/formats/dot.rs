//! Graphviz DOT files (`.dot`, `.gv`).
//!
//! One `[strict] graph|digraph [ID] { ... }` per file. Statements (separated by optional `;`):
//! node statements `a [label=...]`, edge chains `a -- b -- c` (`->` in a digraph), attribute
//! defaults `graph|node|edge [...]`, assignments `key = value`, and subgraphs
//! `[subgraph [ID]] { ... }`, whose nodes and edges belong to the graph. An edge to or from a
//! subgraph joins every node of it: `a -- {b c}` is `a -- b` and `a -- c` (each node of the
//! subgraph once, in order of first appearance, even when named again inside it). Attribute
//! lists and ports (`a:p:ne`) are read and ignored; edges are laid out undirected. In a `strict`
//! graph a repeated edge is kept once (`a -- b` and `b -- a` are the same edge; `a -> b` and
//! `b -> a` are not), as Graphviz does; otherwise repeats are kept.
//!
//! When weights are read, an edge's weight is its `len` attribute (Graphviz's desired edge
//! length for neato and fdp) or, without one, its `weight` attribute (to Graphviz a spring's
//! strength, not a length: read here as a length, as the other formats' weights are); each comes
//! from the edge's own attribute lists or else from the `edge [...]` default in force (a
//! subgraph starts with its parent's defaults, and its own end with it). A kept edge with
//! neither is an error at its operator; in a `strict` graph a repeat keeps the first edge's
//! weight (Graphviz would apply the repeat's attributes to the first edge).
//!
//! IDs are names, numerals (`-1.5`, `.5`) and quoted strings (see [`super::dot_lex`] for the
//! escapes), compared as text: `1` and `"1"` are one node, `1` and `1.0` two. HTML strings
//! `<...>` may be attribute values but not node names. Subgraphs nest at most [`MAX_DEPTH`]
//! deep, so no file can overflow the call stack.

use std::borrow::Cow;
use std::path::Path;

use super::builder::NamedGraph;
use super::dot_lex::{Keyword, Lexed, Lexer, Token};
use super::error::{GraphReadError, Source, utf8};
use crate::layout::edgelist::{EdgeList, WEIGHT_EXPECTED, parse_weight};

/// How deep subgraphs may nest.
pub const MAX_DEPTH: usize = 100;

/// One side of an edge: the nodes `members[start..end]` (one node, or a subgraph's nodes).
type Nodes = (usize, usize);

/// The weight attributes of an edge statement or an `edge [...]` default: the value tokens of
/// the last `weight` and `len` assignments.
#[derive(Clone, Debug, Default)]
struct EdgeAttributes<'a> {
    weight: Option<Lexed<'a>>,
    len: Option<Lexed<'a>>,
}

impl<'a> EdgeAttributes<'a> {
    /// These attributes with `over`'s set ones in their place.
    fn overlaid(&self, over: EdgeAttributes<'a>) -> Self {
        Self {
            weight: over.weight.or_else(|| self.weight.clone()),
            len: over.len.or_else(|| self.len.clone()),
        }
    }
}

/// A recursive-descent DOT parser building a [`NamedGraph`].
struct Parser<'a> {
    lexer: Lexer<'a>,
    graph: NamedGraph<'a>,
    /// Whether the graph is a digraph (its edges are `->`).
    directed: bool,
    /// The nodes of the subgraphs being read, innermost last.
    members: Vec<u32>,
    /// Subgraphs open.
    depth: usize,
    /// When weights are read: the `edge [...]` defaults of the graph and each open subgraph,
    /// innermost last.
    defaults: Option<Vec<EdgeAttributes<'a>>>,
}

/// Reads the DOT text `bytes`; `path` only names the input in errors.
///
/// # Runtime
/// O(bytes + edges) expected (an edge between subgraphs stands for every pair of their nodes);
/// allocates the edge arrays, the names (one pooled buffer), a hash map of them and, for a
/// `strict` graph, a set of the pairs seen.
#[cfg(test)]
pub(crate) fn parse(bytes: &[u8], path: &Path) -> Result<EdgeList, GraphReadError> {
    parse_with(bytes, path, false)
}

/// [`parse`], reading each kept edge's `len` or `weight` when `weights` is set.
///
/// # Runtime
/// As [`parse`], plus one `f32` per edge with `weights`.
pub(crate) fn parse_with(
    bytes: &[u8],
    path: &Path,
    weights: bool,
) -> Result<EdgeList, GraphReadError> {
    let text = utf8(bytes, path)?;
    let source = Source { path, text };
    let mut parser = Parser {
        lexer: Lexer::new(source),
        graph: NamedGraph::new(source),
        directed: false,
        members: Vec::new(),
        depth: 0,
        defaults: weights.then(|| vec![EdgeAttributes::default()]),
    };
    if weights {
        parser.graph.read_weights();
    }
    parser.file()?;
    Ok(parser.graph.finish())
}

impl<'a> Parser<'a> {
    /// `[strict] (graph | digraph) [ID] { ... }` and the end of the file.
    fn file(&mut self) -> Result<(), GraphReadError> {
        let mut t = self.lexer.next()?;
        let strict = t.token == Token::Keyword(Keyword::Strict);
        if strict {
            t = self.lexer.next()?;
        }
        self.directed = match t.token {
            Token::Keyword(Keyword::Graph) => false,
            Token::Keyword(Keyword::Digraph) => true,
            _ => return Err(self.lexer.unexpected(&t, "`graph` or `digraph`")),
        };
        if strict {
            self.graph.merge_repeated_edges(self.directed);
        }
        if matches!(self.lexer.peek()?.token, Token::Id(_) | Token::Html) {
            self.lexer.next()?;
        }
        self.expect_open()?;
        self.statements(true)?;
        let t = self.lexer.next()?;
        if t.token != Token::End {
            return Err(self
                .lexer
                .unexpected(&t, "end of file (one graph per file)"));
        }
        Ok(())
    }

    /// The next token, which must be `{`.
    fn expect_open(&mut self) -> Result<(), GraphReadError> {
        let t = self.lexer.next()?;
        if t.token != Token::Punct(b'{') {
            return Err(self.lexer.unexpected(&t, "`{`"));
        }
        Ok(())
    }

    /// Statements up to and including the `}` that closes them. At the top level the nodes a
    /// statement names are forgotten after it (no subgraph collects them).
    fn statements(&mut self, top: bool) -> Result<(), GraphReadError> {
        loop {
            let start = self.members.len();
            let t = self.lexer.next()?;
            match t.token {
                Token::Punct(b'}') => return Ok(()),
                Token::Punct(b';') => continue,
                Token::End => return Err(self.lexer.unexpected(&t, "`}`")),
                Token::Keyword(Keyword::Graph | Keyword::Node) => {
                    self.attribute_lists(true)?;
                }
                Token::Keyword(Keyword::Edge) => {
                    let set = self.attribute_lists(true)?;
                    if let Some(top) = self.defaults.as_mut().and_then(|d| d.last_mut()) {
                        *top = top.overlaid(set);
                    }
                }
                Token::Keyword(Keyword::Subgraph) | Token::Punct(b'{') => {
                    let group = self.subgraph(&t)?;
                    self.edges_from(group)?;
                }
                Token::Id(name) => {
                    if self.lexer.peek()?.token == Token::Punct(b'=') {
                        self.lexer.next()?;
                        self.value("a value")?;
                    } else {
                        let node = self.node(name, t.at)?;
                        self.edges_from(node)?;
                    }
                }
                Token::Html => {
                    let expected = "a node id (HTML strings are not read as node names)";
                    return Err(self.lexer.unexpected(&t, expected));
                }
                _ => return Err(self.lexer.unexpected(&t, "a statement")),
            }
            if top {
                self.members.truncate(start);
            }
        }
    }

    /// The next token, which must be an ID or an HTML string (a value).
    fn value(&mut self, expected: &str) -> Result<Lexed<'a>, GraphReadError> {
        let t = self.lexer.next()?;
        match t.token {
            Token::Id(_) | Token::Html => Ok(t),
            _ => Err(self.lexer.unexpected(&t, expected)),
        }
    }

    /// Node `name` (written at byte `at`) and its optional port `:ID[:ID]`.
    fn node(&mut self, name: Cow<'a, str>, at: usize) -> Result<Nodes, GraphReadError> {
        let v = self.graph.vertex(name, at)?;
        self.members.push(v);
        for _ in 0..2 {
            if self.lexer.peek()?.token != Token::Punct(b':') {
                break;
            }
            self.lexer.next()?;
            let t = self.lexer.next()?;
            if !matches!(t.token, Token::Id(_)) {
                return Err(self.lexer.unexpected(&t, "a port name"));
            }
        }
        Ok((self.members.len() - 1, self.members.len()))
    }

    /// A subgraph whose first token `t` (`subgraph` or `{`) was read: its nodes.
    fn subgraph(&mut self, t: &Lexed<'a>) -> Result<Nodes, GraphReadError> {
        if t.token == Token::Keyword(Keyword::Subgraph) {
            if matches!(self.lexer.peek()?.token, Token::Id(_)) {
                self.lexer.next()?;
            }
            self.expect_open()?;
        }
        if self.depth == MAX_DEPTH {
            let expected = format!("subgraphs nested at most {MAX_DEPTH} deep");
            return Err(self.graph.error(t.at, expected, "a deeper one"));
        }
        self.depth += 1;
        if let Some(defaults) = &mut self.defaults {
            let inherited = defaults.last().cloned().unwrap_or_default();
            defaults.push(inherited);
        }
        let start = self.members.len();
        self.statements(false)?;
        if let Some(defaults) = &mut self.defaults {
            defaults.pop();
        }
        self.depth -= 1;
        // Each node once, in order of first appearance (dense indices are in that order).
        let mut nodes = self.members.split_off(start);
        nodes.sort_unstable();
        nodes.dedup();
        self.members.extend(nodes);
        Ok((start, self.members.len()))
    }

    /// The rest of a statement that started with `first`: edges `-- x -- y ...` (if any), then
    /// optional attribute lists, which give the kept edges their weight when weights are read.
    fn edges_from(&mut self, first: Nodes) -> Result<(), GraphReadError> {
        let mut from = first;
        // The kept edges' indices, and the operator of the first.
        let (mut kept, mut first_op) = (Vec::new(), None);
        while let Token::EdgeOp { directed } = self.lexer.peek()?.token {
            let op = self.lexer.next()?;
            if directed != self.directed {
                let expected = if self.directed {
                    "`->` (a digraph's edge)"
                } else {
                    "`--` (an undirected graph's edge)"
                };
                return Err(self.lexer.unexpected(&op, expected));
            }
            let t = self.lexer.next()?;
            let to = match t.token {
                Token::Id(name) => self.node(name, t.at)?,
                Token::Keyword(Keyword::Subgraph) | Token::Punct(b'{') => self.subgraph(&t)?,
                _ => return Err(self.lexer.unexpected(&t, "a node id or a subgraph")),
            };
            let before = kept.len();
            self.join(from, to, op.at, &mut kept)?;
            if kept.len() > before {
                first_op.get_or_insert(op.at);
            }
            from = to;
        }
        let set = self.attribute_lists(false)?;
        let (Some(defaults), Some(at)) = (&self.defaults, first_op) else {
            return Ok(());
        };
        let attributes = defaults.last().cloned().unwrap_or_default().overlaid(set);
        let Some(value) = attributes.len.or(attributes.weight) else {
            let expected =
                "a `len` or `weight` attribute on this edge (or an `edge [...]` default)";
            return Err(self.graph.error(at, expected, "an edge without one"));
        };
        let weight = match &value.token {
            Token::Id(v) => parse_weight(v.as_bytes()),
            _ => None,
        };
        let weight = weight.ok_or_else(|| self.lexer.unexpected(&value, WEIGHT_EXPECTED))?;
        for e in kept {
            self.graph.set_weight(e, weight);
        }
        Ok(())
    }

    /// Edges from every node of `from` to every node of `to` (the operator at byte `at`); the
    /// index of each kept edge is pushed onto `kept`.
    fn join(
        &mut self,
        from: Nodes,
        to: Nodes,
        at: usize,
        kept: &mut Vec<usize>,
    ) -> Result<(), GraphReadError> {
        for i in from.0..from.1 {
            for j in to.0..to.1 {
                if let Some(e) = self.graph.edge(self.members[i], self.members[j], at)? {
                    kept.push(e);
                }
            }
        }
        Ok(())
    }

    /// Attribute lists `[a=b, c=d; e] [...]` (at least one when `required`): the values of
    /// their last `weight` and `len` when weights are read, every other attribute ignored.
    fn attribute_lists(&mut self, required: bool) -> Result<EdgeAttributes<'a>, GraphReadError> {
        let mut set = EdgeAttributes::default();
        let mut first = true;
        loop {
            let t = self.lexer.peek()?;
            if t.token != Token::Punct(b'[') {
                if required && first {
                    let t = t.clone();
                    return Err(self.lexer.unexpected(&t, "`[`"));
                }
                return Ok(set);
            }
            self.lexer.next()?;
            first = false;
            loop {
                let t = self.lexer.next()?;
                match t.token {
                    Token::Punct(b']') => break,
                    Token::Punct(b';' | b',') => {}
                    Token::Id(name) => {
                        if self.lexer.peek()?.token == Token::Punct(b'=') {
                            self.lexer.next()?;
                            let value = self.value("an attribute value")?;
                            let slot = match name.as_ref() {
                                "weight" => &mut set.weight,
                                "len" => &mut set.len,
                                _ => continue,
                            };
                            if self.defaults.is_some() {
                                *slot = Some(value);
                            }
                        }
                    }
                    Token::Html => {
                        if self.lexer.peek()?.token == Token::Punct(b'=') {
                            self.lexer.next()?;
                            self.value("an attribute value")?;
                        }
                    }
                    _ => return Err(self.lexer.unexpected(&t, "an attribute name or `]`")),
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "dot_tests.rs"]
mod tests;
