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
//! When weights are read, an edge's weight is the text of its `<data>` for a key declared
//! `<key for="edge" attr.name="weight">` (or `for="all"`, or no `for`), trimmed, a positive
//! finite number; the key's `<default>` stands in for an edge without such data, and a kept
//! edge with neither is an error at the edge. Only the key named `weight` counts (not `length`).
//!
//! Ids are compared after XML's attribute normalisation (entities such as `&amp;` resolved),
//! and errors are placed from the byte offsets quick-xml reports.

use std::borrow::Cow;
use std::path::Path;

use quick_xml::events::{BytesStart, Event};
use quick_xml::{Reader, XmlVersion};

use super::builder::NamedGraph;
use super::error::{GraphReadError, Source, quoted, utf8};
use crate::layout::edgelist::{EdgeList, WEIGHT_EXPECTED, parse_weight};

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
    /// A `<key>` of edge weights (index into [`Weights::keys`]).
    WeightKey(usize),
    /// The `<default>` of a weight key.
    WeightDefault(usize),
    /// An edge's `<data>` of a weight key.
    WeightData,
    /// Anything else (keys, data and their content): ignored.
    Other,
}

/// The open `<edge>` when weights are read: its index when kept, the offset of its `<`, and
/// its weight's text as bytes `at..end` of the file.
type OpenEdge = (Option<usize>, usize, Option<(usize, usize)>);

/// What reading weights needs: the weight keys and the edge being read.
#[derive(Debug, Default)]
struct Weights {
    /// The id of each key for edges named `weight`, and its default once read.
    keys: Vec<(String, Option<f32>)>,
    /// The open `<edge>`.
    edge: Option<OpenEdge>,
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
#[cfg(test)]
pub(crate) fn parse(bytes: &[u8], path: &Path) -> Result<EdgeList, GraphReadError> {
    parse_with(bytes, path, false)
}

/// [`parse`], reading each kept edge's weight when `weights` is set.
///
/// # Runtime
/// As [`parse`], plus one `f32` per edge with `weights`.
pub(crate) fn parse_with(
    bytes: &[u8],
    path: &Path,
    weights: bool,
) -> Result<EdgeList, GraphReadError> {
    let text = utf8(bytes, path)?;
    let mut g = NamedGraph::new(Source { path, text });
    let mut weights = weights.then(Weights::default);
    if weights.is_some() {
        g.read_weights();
    }
    let mut reader = Reader::from_str(text);
    reader.config_mut().check_end_names = true;
    // Each open element: what it is, the offset of its `<` and of its content.
    let mut open: Vec<(Kind, usize, usize)> = Vec::new();
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
                if let (Some((kind, _, content)), Some(w)) = (open.pop(), &mut weights) {
                    close(&mut g, w, kind, (content, at))?;
                }
                continue;
            }
            Event::Eof => break,
            _ => continue,
        };
        let parent = open.last().map(|&(kind, ..)| kind);
        let kind = element(&mut g, parent, &e, at, &mut graphs, weights.as_mut())?;
        root |= kind == Kind::Root;
        if !empty {
            open.push((kind, at, reader.buffer_position() as usize));
        } else if let Some(w) = &mut weights {
            // An empty element's content is nothing, placed at its `<`.
            close(&mut g, w, kind, (at, at))?;
        }
    }
    let end = text.len();
    if let Some(&(_, at, _)) = open.last() {
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
/// `weights` is set when weights are read.
fn element<'a>(
    g: &mut NamedGraph<'a>,
    parent: Option<Kind>,
    e: &BytesStart<'_>,
    at: usize,
    graphs: &mut usize,
    weights: Option<&mut Weights>,
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
            let kept = g.edge(a, b, at)?;
            if let Some(w) = weights {
                w.edge = Some((kept, at, None));
            }
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
        (parent, name) => match weights {
            Some(w) => weight_element(g, w, parent, name, e, at)?,
            None => Kind::Other,
        },
    })
}

/// Handles the start of element `e` (local name `name`, its `<` at byte `at`) under `parent`
/// when weights are read: a weight key, its default, an edge's weight data, or another
/// element.
fn weight_element(
    g: &NamedGraph<'_>,
    w: &mut Weights,
    parent: Option<Kind>,
    name: &str,
    e: &BytesStart<'_>,
    at: usize,
) -> Result<Kind, GraphReadError> {
    Ok(match (parent, name) {
        (Some(Kind::Root), "key") => {
            let named = optional_attribute(g, e, at, "attr.name")?;
            let domain = optional_attribute(g, e, at, "for")?;
            let for_edges = domain.is_none_or(|(_, d)| d == "edge" || d == "all");
            if !(for_edges && named.is_some_and(|(_, n)| n == "weight")) {
                return Ok(Kind::Other);
            }
            let (_, id) = attribute(g, e, at, "id")?;
            w.keys.push((id.into_owned(), None));
            Kind::WeightKey(w.keys.len() - 1)
        }
        (Some(Kind::WeightKey(k)), "default") => Kind::WeightDefault(k),
        (Some(Kind::Edge), "data") => {
            let (_, key) = attribute(g, e, at, "key")?;
            if !w.keys.iter().any(|(id, _)| *id == key) {
                return Ok(Kind::Other);
            }
            if let Some((_, _, Some(_))) = w.edge {
                let expected = "one weight <data> per edge";
                return Err(g.error(at, expected, "a second one"));
            }
            Kind::WeightData
        }
        _ => Kind::Other,
    })
}

/// Handles the end of an element of `kind` whose content is the bytes `start..end` when
/// weights are read: a key's default is read, an edge's weight data noted, and a closed edge
/// gets its weight.
fn close(
    g: &mut NamedGraph<'_>,
    w: &mut Weights,
    kind: Kind,
    (start, end): (usize, usize),
) -> Result<(), GraphReadError> {
    match kind {
        Kind::WeightDefault(k) => w.keys[k].1 = Some(weight_at(g, (start, end))?),
        Kind::WeightData => {
            if let Some((_, _, data)) = &mut w.edge {
                *data = Some((start, end));
            }
        }
        Kind::Edge => {
            let Some((Some(e), at, data)) = w.edge.take() else {
                return Ok(());
            };
            let weight = match (data, w.keys.iter().find_map(|(_, d)| *d)) {
                (Some(bytes), _) => weight_at(g, bytes)?,
                (None, Some(default)) => default,
                (None, None) => {
                    let expected = "a weight: a <data> of the edge key named `weight`";
                    return Err(g.error(at, expected, "an <edge> without one"));
                }
            };
            g.set_weight(e, weight);
        }
        _ => {}
    }
    Ok(())
}

/// The weight written as the bytes `start..end` of the file (blanks around it ignored), or an
/// error at its text.
fn weight_at(g: &NamedGraph<'_>, (start, end): (usize, usize)) -> Result<f32, GraphReadError> {
    let raw = &g.source.text[start..end];
    let value = raw.trim();
    let at = start + (raw.len() - raw.trim_start().len());
    parse_weight(value.as_bytes()).ok_or_else(|| g.error(at, WEIGHT_EXPECTED, quoted(value)))
}

/// The value of attribute `key` of `e` (whose `<` is at byte `at`), with its offset; borrowed
/// from the file unless entities or blanks had to be normalised. A missing attribute is an
/// error.
fn attribute<'a>(
    g: &NamedGraph<'a>,
    e: &BytesStart<'_>,
    at: usize,
    key: &str,
) -> Result<(usize, Cow<'a, str>), GraphReadError> {
    if let Some(found) = optional_attribute(g, e, at, key)? {
        return Ok(found);
    }
    let shown = format!("<{}> without one", e.name().as_ref());
    let article = if key.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    Err(g.error(at, format!("{article} `{key}` attribute"), shown))
}

/// [`attribute`], `None` when `e` has no attribute `key`.
fn optional_attribute<'a>(
    g: &NamedGraph<'a>,
    e: &BytesStart<'_>,
    at: usize,
    key: &str,
) -> Result<Option<(usize, Cow<'a, str>)>, GraphReadError> {
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
        return Ok(Some((value_at, value)));
    }
    Ok(None)
}

#[cfg(test)]
#[path = "graphml_tests.rs"]
mod tests;
