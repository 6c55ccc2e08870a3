//! GraphML files (`.graphml`), read with quick-xml as a stream of elements.
//!
//! The root `<graphml>` holds one `<graph>`; its `<node id="...">` elements declare the vertices
//! and its `<edge source="..." target="...">` elements the edges, undirected whatever
//! `edgedefault` or `directed` say. Keys, `<data>` (and whatever it contains), ports and every
//! other attribute are ignored. GraphML requires every edge end to be a declared node: an edge
//! may come before the node it names, but a name no `<node>` declares is an error at the edge's
//! attribute, and so is an id declared twice. Nested graphs (a `<graph>` inside a node or an
//! edge), a second `<graph>` and hyperedges are refused.
//!
//! Ids are compared after XML's attribute normalisation (entities such as `&amp;` resolved),
//! and errors are placed from the byte offsets quick-xml reports.

use std::borrow::Cow;
use std::path::Path;

use quick_xml::events::{BytesStart, Event};
use quick_xml::{Reader, XmlVersion};

use super::builder::NamedGraph;
use super::error::{GraphReadError, Source, utf8};
use crate::layout::edgelist::EdgeList;

/// What an open element is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The root `<graphml>`.
    Root,
    /// The `<graph>`.
    Graph,
    /// A `<node>` of the graph.
    Node,
    /// An `<edge>` of the graph.
    Edge,
    /// Anything else (keys, data and their content): ignored.
    Other,
}

/// `part` as a slice of `whole` (with its offset) when it borrows from it.
fn in_text<'a>(whole: &'a str, part: &str) -> Option<(usize, &'a str)> {
    let base = whole.as_ptr() as usize;
    let p = part.as_ptr() as usize;
    (p >= base && p + part.len() <= base + whole.len()).then(|| {
        let at = p - base;
        (at, &whole[at..at + part.len()])
    })
}

/// Reads the GraphML text `bytes`; `path` only names the input in errors.
///
/// # Runtime
/// O(bytes) expected; allocates the edge arrays, the names (one pooled buffer) and a hash map of
/// them; an id is copied out of the file only when entities had to be resolved.
pub(crate) fn parse(bytes: &[u8], path: &Path) -> Result<EdgeList, GraphReadError> {
    let text = utf8(bytes, path)?;
    let mut g = NamedGraph::new(Source { path, text });
    let mut reader = Reader::from_str(text);
    reader.config_mut().check_end_names = true;
    // Each open element: what it is and the offset of its `<`.
    let mut open: Vec<(Kind, usize)> = Vec::new();
    let (mut root, mut graphs) = (false, 0);
    loop {
        let at = reader.buffer_position() as usize;
        let event = reader.read_event().map_err(|e| {
            let message = e.to_string().replace(['\n', '\r'], " ");
            g.error(reader.error_position() as usize, "well-formed XML", message)
        })?;
        let (e, empty) = match event {
            Event::Start(e) => (e, false),
            Event::Empty(e) => (e, true),
            Event::End(_) => {
                open.pop();
                continue;
            }
            Event::Eof => break,
            _ => continue,
        };
        let parent = open.last().map(|&(kind, _)| kind);
        let kind = element(&mut g, parent, &e, at, &mut graphs)?;
        root |= kind == Kind::Root;
        if !empty {
            open.push((kind, at));
        }
    }
    let end = text.len();
    if let Some(&(_, at)) = open.last() {
        let name: String = text[at + 1..]
            .chars()
            .take_while(|c| !c.is_whitespace() && !matches!(c, '>' | '/'))
            .collect();
        return Err(g.error(end, format!("</{name}>"), "end of file"));
    }
    if !root {
        return Err(g.error(end, "the root element <graphml>", "end of file"));
    }
    if graphs == 0 {
        return Err(g.error(end, "a <graph> element", "end of file"));
    }
    g.finish_declared("the id of a declared <node>")
}

/// Handles the start of element `e` (its `<` at byte `at`) under `parent`: what it is.
fn element<'a>(
    g: &mut NamedGraph<'a>,
    parent: Option<Kind>,
    e: &BytesStart<'_>,
    at: usize,
    graphs: &mut usize,
) -> Result<Kind, GraphReadError> {
    let local = e.local_name();
    let shown = || format!("<{}>", e.name().as_ref());
    Ok(match (parent, local.as_ref()) {
        (None, "graphml") => Kind::Root,
        (None, _) => return Err(g.error(at, "the root element <graphml>", shown())),
        (Some(Kind::Root), "graph") => {
            *graphs += 1;
            if *graphs > 1 {
                return Err(g.error(at, "one <graph> per file", "a second <graph>"));
            }
            Kind::Graph
        }
        (Some(Kind::Root), "node" | "edge") => {
            let expected = "<graph> (nodes and edges belong in one)";
            return Err(g.error(at, expected, shown()));
        }
        (Some(Kind::Graph), "node") => {
            let (id_at, id) = attribute(g, e, at, "id")?;
            g.declare(id, id_at)?;
            Kind::Node
        }
        (Some(Kind::Graph), "edge") => {
            let (source_at, source) = attribute(g, e, at, "source")?;
            let (target_at, target) = attribute(g, e, at, "target")?;
            let a = g.endpoint(source, source_at)?;
            let b = g.endpoint(target, target_at)?;
            g.edge(a, b, at)?;
            Kind::Edge
        }
        (Some(Kind::Graph), "hyperedge") => {
            let expected = "<node> or <edge> (hyperedges are not read)";
            return Err(g.error(at, expected, shown()));
        }
        (Some(Kind::Node | Kind::Edge), "graph") => {
            let expected = "no nested <graph> (nested graphs are not read)";
            return Err(g.error(at, expected, shown()));
        }
        _ => Kind::Other,
    })
}

/// The value of attribute `key` of `e` (whose `<` is at byte `at`), with its offset; borrowed
/// from the file unless entities or blanks had to be normalised.
fn attribute<'a>(
    g: &NamedGraph<'a>,
    e: &BytesStart<'_>,
    at: usize,
    key: &str,
) -> Result<(usize, Cow<'a, str>), GraphReadError> {
    let text = g.source.text;
    for attr in e.attributes() {
        let attr = attr.map_err(|err| g.error(at, "well-formed attributes", err.to_string()))?;
        if attr.key.local_name().as_ref() != key {
            continue;
        }
        let (value_at, raw) = in_text(text, &attr.value).unwrap_or((at, ""));
        let value = attr
            .normalized_value(XmlVersion::Implicit1_0)
            .map_err(|err| g.error(value_at, "a value with known entities", err.to_string()))?;
        let value = match value {
            Cow::Borrowed(v) if v == raw => Cow::Borrowed(raw),
            v => Cow::Owned(v.into_owned()),
        };
        return Ok((value_at, value));
    }
    let shown = format!("<{}> without one", e.name().as_ref());
    let article = if key.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    Err(g.error(at, format!("{article} `{key}` attribute"), shown))
}

#[cfg(test)]
#[path = "graphml_tests.rs"]
mod tests;
