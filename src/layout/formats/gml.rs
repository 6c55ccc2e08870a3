//! GML files (`.gml`), the Graph Modelling Language networkx and igraph write.
//!
//! A file is a list of `key value` pairs, a value being an integer, a real, a string in double
//! quotes or a nested list `[ ... ]`; `#` starts a comment that runs to the end of the line. The
//! top-level `graph [ ... ]` holds `node [ id ID ... ]` and `edge [ source ID target ID ... ]`
//! lists; every other key (labels, graphics, `directed`, `Creator`...) is ignored, at any depth.
//! Edges are undirected. An id is an integer (compared as a number: `007` is `7`, named `7`) or
//! a string (taken as written between its quotes; GML has no escapes). An edge may come before
//! the node it names, but an end no node declares is an error, and so is an id declared twice.
//! When weights are read, an edge's `weight` (an integer or a real, positive and finite) is its
//! weight, and a kept edge without one is an error at its `]`.
//!
//! Nested lists are read with an explicit stack, not recursion, so no file can overflow the call
//! stack.

use std::borrow::Cow;
use std::path::Path;

use super::builder::NamedGraph;
use super::error::{GraphReadError, Source, quoted, utf8};
use crate::layout::edgelist::{EdgeList, WEIGHT_EXPECTED, parse_weight};

/// A GML token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token<'a> {
    /// A key.
    Key(&'a str),
    /// An integer, as written.
    Int(&'a str),
    /// A real number.
    Real,
    /// A string's contents, without the quotes.
    Str(&'a str),
    /// `[`.
    Open,
    /// `]`.
    Close,
    /// The end of the file.
    End,
}

/// Splits GML text into tokens.
struct Lexer<'a> {
    source: Source<'a>,
    pos: usize,
}

impl<'a> Lexer<'a> {
    /// The next token: its offset, its end and what it is.
    fn next(&mut self) -> Result<(usize, usize, Token<'a>), GraphReadError> {
        let text = self.source.text;
        let bytes = text.as_bytes();
        loop {
            match bytes.get(self.pos) {
                Some(b) if b.is_ascii_whitespace() => self.pos += 1,
                Some(b'#') => {
                    self.pos = text[self.pos..]
                        .find('\n')
                        .map_or(text.len(), |i| self.pos + i)
                }
                _ => break,
            }
        }
        let at = self.pos;
        let run = |ok: fn(u8) -> bool| {
            at + bytes[at..]
                .iter()
                .position(|&b| !ok(b))
                .unwrap_or(bytes.len() - at)
        };
        let (end, token) = match bytes.get(at) {
            None => (at, Token::End),
            Some(b'[') => (at + 1, Token::Open),
            Some(b']') => (at + 1, Token::Close),
            Some(b'"') => {
                let Some(len) = text[at + 1..].find('"') else {
                    return Err(self.source.error(at, "a closing `\"`", "end of file"));
                };
                (at + len + 2, Token::Str(&text[at + 1..at + 1 + len]))
            }
            Some(b) if b.is_ascii_alphabetic() || *b == b'_' => {
                let end = run(|b| b.is_ascii_alphanumeric() || b == b'_');
                (end, Token::Key(&text[at..end]))
            }
            Some(b) if b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.') => {
                let end =
                    run(|b| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.' | b'e' | b'E'));
                let number = &text[at..end];
                let digits = number.strip_prefix(['+', '-']).unwrap_or(number);
                if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                    (end, Token::Int(number))
                } else if number.parse::<f64>().is_ok() {
                    (end, Token::Real)
                } else {
                    return Err(self.source.error(at, "a number", quoted(number)));
                }
            }
            Some(_) => {
                let c = text[at..].chars().next().unwrap_or_default();
                let expected = "a key, a value, `[` or `]`";
                return Err(self.source.error(at, expected, quoted(&c.to_string())));
            }
        };
        self.pos = end;
        Ok((at, end, token))
    }
}

/// An id and its offset.
type Id<'a> = Option<(usize, Cow<'a, str>)>;

/// A weight's value, as the bytes `at..end` of the file (checked when its edge is kept).
type Weight = Option<(usize, usize)>;

/// An open list.
enum Frame<'a> {
    /// The file itself.
    Top,
    /// The `graph` list.
    Graph,
    /// A `node` list and its id so far.
    Node(Id<'a>),
    /// An `edge` list, its source, target and weight so far.
    Edge(Id<'a>, Id<'a>, Weight),
    /// Any other list (ignored).
    Other,
}

/// Reads the GML text `bytes`; `path` only names the input in errors.
///
/// # Runtime
/// O(bytes) expected; allocates the edge arrays, the names (one pooled buffer), a hash map of
/// them and a stack as deep as the lists nest.
#[cfg(test)]
pub(crate) fn parse(bytes: &[u8], path: &Path) -> Result<EdgeList, GraphReadError> {
    parse_with(bytes, path, false)
}

/// [`parse`], reading each kept edge's `weight` when `weights` is set.
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
    let mut g = NamedGraph::new(source);
    if weights {
        g.read_weights();
    }
    let mut lexer = Lexer { source, pos: 0 };
    let mut stack = vec![Frame::Top];
    let mut graphs = 0;
    loop {
        let (at, end, token) = lexer.next()?;
        match token {
            Token::End if stack.len() > 1 => return Err(g.error(at, "`]`", "end of file")),
            Token::End => break,
            Token::Close if stack.len() > 1 => {
                let frame = stack.pop().unwrap_or(Frame::Other);
                close(&mut g, frame, at)?;
            }
            Token::Key(key) => {
                let (value_at, value_end, value) = lexer.next()?;
                let frame = stack
                    .last_mut()
                    .expect("the file's own frame is never popped");
                let found = || quoted(&text[value_at..value_end]);
                match value {
                    Token::Open => {
                        let opened = open(&g, frame, key, value_at, &mut graphs)?;
                        stack.push(opened);
                    }
                    Token::Int(_) | Token::Real | Token::Str(_) => {
                        assign(&g, frame, key, value, (value_at, value_end))?
                    }
                    Token::End => {
                        let expected = format!("a value for `{key}`");
                        return Err(g.error(value_at, expected, "end of file"));
                    }
                    Token::Key(_) | Token::Close => {
                        return Err(g.error(value_at, format!("a value for `{key}`"), found()));
                    }
                }
            }
            _ => {
                let expected = if stack.len() > 1 {
                    "a key or `]`"
                } else {
                    "a key"
                };
                return Err(g.error(at, expected, quoted(&text[at..end])));
            }
        }
    }
    if graphs == 0 {
        return Err(g.error(text.len(), "a `graph [ ... ]` list", "end of file"));
    }
    g.finish_declared("the id of a declared node")
}

/// The list `key [` (its `[` at byte `at`) opened in `frame`.
fn open<'a>(
    g: &NamedGraph<'a>,
    frame: &Frame<'a>,
    key: &str,
    at: usize,
    graphs: &mut usize,
) -> Result<Frame<'a>, GraphReadError> {
    Ok(match (frame, key) {
        (Frame::Top, "graph") => {
            *graphs += 1;
            if *graphs > 1 {
                return Err(g.error(at, "one `graph` per file", "a second `graph`"));
            }
            Frame::Graph
        }
        (Frame::Graph, "node") => Frame::Node(None),
        (Frame::Graph, "edge") => Frame::Edge(None, None, None),
        (Frame::Node(_), "id") | (Frame::Edge(..), "source" | "target") => {
            return Err(g.error(at, "an integer or string id", quoted("[")));
        }
        (Frame::Edge(..), "weight") if g.reads_weights() => {
            return Err(g.error(at, WEIGHT_EXPECTED, quoted("[")));
        }
        _ => Frame::Other,
    })
}

/// Records `key value` (the value at bytes `at..end`) in `frame`.
fn assign<'a>(
    g: &NamedGraph<'a>,
    frame: &mut Frame<'a>,
    key: &str,
    value: Token<'a>,
    (at, end): (usize, usize),
) -> Result<(), GraphReadError> {
    let second = || {
        g.error(
            at,
            format!("one `{key}` per list"),
            format!("a second `{key}`"),
        )
    };
    let slot = match (frame, key) {
        (Frame::Node(id), "id") => id,
        (Frame::Edge(source, ..), "source") => source,
        (Frame::Edge(_, target, _), "target") => target,
        (Frame::Edge(.., weight), "weight") if g.reads_weights() => {
            if weight.replace((at, end)).is_some() {
                return Err(second());
            }
            return Ok(());
        }
        _ => return Ok(()),
    };
    if slot.is_some() {
        return Err(second());
    }
    let found = || quoted(&g.source.text[at..end]);
    let name = match value {
        Token::Str(s) => Cow::Borrowed(s),
        Token::Int(digits) => {
            let n: i64 = digits
                .parse()
                .map_err(|_| g.error(at, "an integer id of at most 64 bits", found()))?;
            // `+7`, `-07` and `007` are named `7`, `-7` and `7`.
            let padded = digits.starts_with('+')
                || digits.starts_with("-0")
                || (digits.starts_with('0') && digits.len() > 1);
            if padded {
                Cow::Owned(n.to_string())
            } else {
                Cow::Borrowed(digits)
            }
        }
        _ => return Err(g.error(at, "an integer or string id", found())),
    };
    *slot = Some((at, name));
    Ok(())
}

/// Closes `frame` at its `]` (byte `at`): a node declares its id, an edge joins its ends.
fn close<'a>(g: &mut NamedGraph<'a>, frame: Frame<'a>, at: usize) -> Result<(), GraphReadError> {
    match frame {
        Frame::Node(id) => {
            let (id_at, id) = id.ok_or_else(|| g.error(at, "an `id` in this node", quoted("]")))?;
            g.declare(id, id_at)?;
        }
        Frame::Edge(source, target, weight) => {
            let (source_at, source) =
                source.ok_or_else(|| g.error(at, "a `source` in this edge", quoted("]")))?;
            let (target_at, target) =
                target.ok_or_else(|| g.error(at, "a `target` in this edge", quoted("]")))?;
            let a = g.endpoint(source, source_at)?;
            let b = g.endpoint(target, target_at)?;
            if let Some(e) = g.edge(a, b, source_at)?
                && g.reads_weights()
            {
                let (w_at, w_end) =
                    weight.ok_or_else(|| g.error(at, "a `weight` in this edge", quoted("]")))?;
                let value = &g.source.text[w_at..w_end];
                let w = parse_weight(value.as_bytes())
                    .ok_or_else(|| g.error(w_at, WEIGHT_EXPECTED, quoted(value)))?;
                g.set_weight(e, w);
            }
        }
        Frame::Top | Frame::Graph | Frame::Other => {}
    }
    Ok(())
}

#[cfg(test)]
#[path = "gml_tests.rs"]
mod tests;
