//! The level reader: a GraphColoring level file to a [`LevelDoc`] and a [`SourceMap`].
//!
//! It accepts what the game accepts (several top-level elements, no root, `any` as a rule color)
//! and reports, with file, line and column, what the game would crash on or silently ignore:
//! unknown elements (the game skips most of them: a misspelt rule would vanish without a word),
//! missing required attributes, unknown colors, bad hex colors, non-integer numbers, unknown
//! protections and operations, edges to unknown vertices and duplicate vertex ids, edge ids or
//! color names. Elements are read in the game's load order (colors, protections, graph, rules,
//! values, paths) whatever their order in the file.

use std::collections::HashMap;
use std::path::Path;

use crate::levelxml::error::{LineIndex, Pos, XmlError, XmlErrorKind};
use crate::levelxml::model::{
    Bound, Color, ColorSel, Edge, Item, LevelDoc, Op, PathOp, PathRule, PathSpec, Protect, Rule,
    ValueNode, Vertex,
};
use crate::levelxml::xml::{self, Element};

/// Where each item of a [`LevelDoc`] stands in its file (same order as the model's lists).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceMap {
    /// The file name as given to the reader.
    pub file: String,
    /// `<color>` elements.
    pub colors: Vec<Pos>,
    /// `<vertex>` elements.
    pub vertices: Vec<Pos>,
    /// `<edge>` elements of `<graph>`.
    pub edges: Vec<Pos>,
    /// Children of `<rules>`.
    pub rules: Vec<Pos>,
    /// Children of `<values>`.
    pub values: Vec<Pos>,
    /// `<path>` and `<cycle>` elements.
    pub paths: Vec<Pos>,
}

/// A parsed level: the model and where its items stand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedLevel {
    /// The level.
    pub doc: LevelDoc,
    /// Item positions.
    pub map: SourceMap,
}

/// The largest level file read, in bytes (16 MiB). A parsed level takes about 20 bytes of
/// memory per byte of text (elements, attributes, the model and its source map: a 86 MB file of
/// 10^6 vertices and edges peaked at 1.65 GB), so this bounds a level at about 330 MB. Levels
/// of the game are a few kilobytes; a larger file is refused before it is read.
pub(crate) const MAX_LEVEL_BYTES: u64 = 16 << 20;

/// Refuses a level text of `len` bytes when it is over `limit`.
fn check_level_size(file: &str, len: u64, limit: u64) -> Result<(), XmlError> {
    if len > limit {
        return Err(XmlError::Read {
            file: file.to_string(),
            message: format!("{len} bytes is more than the {limit} bytes a level file may hold"),
        });
    }
    Ok(())
}

/// Reads and parses the level file at `path`, refusing a file over [`MAX_LEVEL_BYTES`] before
/// reading it.
pub fn read_level(path: &Path) -> Result<ParsedLevel, XmlError> {
    let file = path.display().to_string();
    let read_error = |e: std::io::Error| XmlError::Read {
        file: file.clone(),
        message: e.to_string(),
    };
    let len = std::fs::metadata(path).map_err(read_error)?.len();
    check_level_size(&file, len, MAX_LEVEL_BYTES)?;
    let text = std::fs::read_to_string(path).map_err(read_error)?;
    parse_level(&text, &file)
}

/// Parses a level from its text; `file` names it in errors. A text over [`MAX_LEVEL_BYTES`] is
/// refused before it is parsed.
///
/// # Runtime
/// O(size of the text); one allocation per element and attribute.
pub fn parse_level(text: &str, file: &str) -> Result<ParsedLevel, XmlError> {
    check_level_size(file, text.len() as u64, MAX_LEVEL_BYTES)?;
    let cx = Cx::new(text, file);
    let (top, stray) = xml::read(text).map_err(|(at, m)| cx.err(at, XmlErrorKind::Syntax(m)))?;
    if let Some((at, text)) = stray {
        return Err(cx.err(at, XmlErrorKind::UnexpectedText { text }));
    }
    let mut parts: HashMap<&str, &Element> = HashMap::new();
    let mut paths = Vec::new();
    for el in &top {
        match el.name.as_str() {
            "path" | "cycle" => paths.push(el),
            "level"
            | "global-vertex-protections"
            | "global-edge-protections"
            | "colors"
            | "graph"
            | "rules"
            | "values" => {
                if let Some(first) = parts.insert(el.name.as_str(), el) {
                    return Err(cx.err(
                        el.start,
                        XmlErrorKind::Repeated {
                            name: el.name.clone(),
                            first: cx.pos(first.start),
                        },
                    ));
                }
            }
            _ => return Err(cx.unknown(el, "the top level", TOP_LEVEL)),
        }
    }
    let mut doc = LevelDoc::default();
    let mut map = SourceMap {
        file: file.to_string(),
        ..SourceMap::default()
    };
    if let Some(el) = parts.get("level") {
        cx.no_children(el)?;
        doc.title = el.attr("title").map(|a| a.value.clone());
        doc.description = el.attr("description").map(|a| a.value.clone());
        doc.objective = el.attr("objective").map(|a| a.value.clone());
    }
    if let Some(el) = parts.get("colors") {
        cx.colors(el, &mut doc, &mut map)?;
    }
    for (name, slot) in [
        ("global-vertex-protections", &mut doc.vertex_protect),
        ("global-edge-protections", &mut doc.edge_protect),
    ] {
        if let Some(el) = parts.get(name) {
            cx.no_children(el)?;
            *slot = Some(cx.protect(el)?);
        }
    }
    if let Some(el) = parts.get("graph") {
        cx.graph(el, &mut doc, &mut map)?;
    }
    if let Some(el) = parts.get("rules") {
        cx.rules(el, &mut doc, &mut map)?;
    }
    if let Some(el) = parts.get("values") {
        cx.values(el, &mut doc, &mut map)?;
    }
    for el in paths {
        map.paths.push(cx.pos(el.start));
        let spec = cx.path(el, &doc)?;
        doc.paths.push(spec);
    }
    Ok(ParsedLevel { doc, map })
}

const TOP_LEVEL: &str = "level, global-vertex-protections, global-edge-protections, colors, \
graph, rules, values, path, cycle";

/// The reading context: file name and line index.
pub(crate) struct Cx<'a> {
    file: &'a str,
    lines: LineIndex<'a>,
}

impl<'a> Cx<'a> {
    pub(crate) fn new(text: &'a str, file: &'a str) -> Self {
        Self {
            file,
            lines: LineIndex::new(text),
        }
    }

    pub(crate) fn pos(&self, at: usize) -> Pos {
        self.lines.pos(at)
    }

    pub(crate) fn err(&self, at: usize, kind: XmlErrorKind) -> XmlError {
        XmlError::At {
            file: self.file.to_string(),
            pos: self.pos(at),
            kind,
        }
    }

    pub(crate) fn unknown(&self, el: &Element, parent: &str, expected: &'static str) -> XmlError {
        self.err(
            el.start,
            XmlErrorKind::UnknownElement {
                name: el.name.clone(),
                parent: parent.to_string(),
                expected,
            },
        )
    }

    /// Rejects non-blank text inside `el`.
    pub(crate) fn no_text(&self, el: &Element) -> Result<(), XmlError> {
        let t = el.text.trim();
        if t.is_empty() {
            return Ok(());
        }
        Err(self.err(
            el.text_start,
            XmlErrorKind::UnexpectedText {
                text: t.chars().take(20).collect(),
            },
        ))
    }

    /// Rejects children and text inside `el`.
    pub(crate) fn no_children(&self, el: &Element) -> Result<(), XmlError> {
        if let Some(c) = el.children.first() {
            return Err(self.unknown(c, &format!("<{}>", el.name), "no child elements"));
        }
        self.no_text(el)
    }

    /// The value of a required attribute.
    pub(crate) fn required<'e>(
        &self,
        el: &'e Element,
        key: &'static str,
    ) -> Result<&'e str, XmlError> {
        el.attr(key).map(|a| a.value.as_str()).ok_or_else(|| {
            self.err(
                el.start,
                XmlErrorKind::MissingAttribute {
                    element: el.name.clone(),
                    attribute: key,
                },
            )
        })
    }

    /// An optional attribute as a string (`""` when missing).
    fn text_attr(el: &Element, key: &str) -> String {
        el.attr(key).map(|a| a.value.clone()).unwrap_or_default()
    }

    /// An integer attribute read as C's `stoi` (leading integer, junk after it ignored),
    /// `default` when missing.
    fn int(&self, el: &Element, key: &str, default: i64) -> Result<i64, XmlError> {
        let Some(a) = el.attr(key) else {
            return Ok(default);
        };
        stoi(&a.value).ok_or_else(|| {
            self.err(
                a.offset,
                XmlErrorKind::BadInteger {
                    attribute: key.to_string(),
                    value: a.value.clone(),
                },
            )
        })
    }

    /// The `protect` attribute (empty when missing).
    fn protect(&self, el: &Element) -> Result<Protect, XmlError> {
        match el.attr("protect") {
            None => Ok(Protect::none()),
            Some(a) => Protect::from_letters(&a.value)
                .map_err(|letter| self.err(a.offset, XmlErrorKind::BadProtect { letter })),
        }
    }

    /// An operation attribute `op`, from `names`.
    fn op_attr<T: Copy>(&self, el: &Element, table: &[(T, &'static str)]) -> Result<T, XmlError> {
        let name = self.required(el, "op")?;
        table
            .iter()
            .find(|(_, n)| *n == name)
            .map(|&(op, _)| op)
            .ok_or_else(|| {
                let at = el.attr("op").map_or(el.start, |a| a.offset);
                let expected = table.iter().map(|(_, n)| *n).collect::<Vec<_>>().join(" ");
                self.err(
                    at,
                    XmlErrorKind::UnknownOp {
                        op: name.to_string(),
                        expected,
                    },
                )
            })
    }

    fn colors(
        &self,
        el: &Element,
        doc: &mut LevelDoc,
        map: &mut SourceMap,
    ) -> Result<(), XmlError> {
        self.no_text(el)?;
        let mut seen: HashMap<String, Pos> = HashMap::new();
        for c in &el.children {
            if c.name != "color" {
                return Err(self.unknown(c, "<colors>", "color"));
            }
            self.no_children(c)?;
            let hex = self.required(c, "color")?;
            let name = self.required(c, "name")?.to_string();
            let rgba = parse_hex(hex).ok_or_else(|| {
                let at = c.attr("color").map_or(c.start, |a| a.offset);
                self.err(
                    at,
                    XmlErrorKind::BadHex {
                        value: hex.to_string(),
                    },
                )
            })?;
            let pos = self.pos(c.start);
            if let Some(&first) = seen.get(&name) {
                let at = c.attr("name").map_or(c.start, |a| a.offset);
                let kind = XmlErrorKind::DuplicateId {
                    what: "color name",
                    id: name,
                    first,
                };
                return Err(self.err(at, kind));
            }
            seen.insert(name.clone(), pos);
            doc.colors.push(Color {
                name,
                rgba,
                vertex_points: self.int(c, "vertex-points", 0)?,
                edge_points: self.int(c, "edge-points", 0)?,
            });
            map.colors.push(pos);
        }
        Ok(())
    }

    /// A color attribute naming a defined color.
    fn color_ref(
        &self,
        el: &Element,
        key: &str,
        doc: &LevelDoc,
    ) -> Result<Option<String>, XmlError> {
        let Some(a) = el.attr(key) else {
            return Ok(None);
        };
        if doc.colors.iter().any(|c| c.name == a.value) {
            return Ok(Some(a.value.clone()));
        }
        Err(self.err(a.offset, unknown_color(&a.value, doc)))
    }

    /// A rule's color slot: missing or `any`, `same`, or a defined color.
    fn color_sel(&self, el: &Element, key: &str, doc: &LevelDoc) -> Result<ColorSel, XmlError> {
        match el.attr(key).map(|a| a.value.as_str()) {
            None | Some("any") => Ok(ColorSel::Any),
            Some("same") => Ok(ColorSel::Same),
            Some(_) => Ok(ColorSel::Named(
                self.color_ref(el, key, doc)?.unwrap_or_default(),
            )),
        }
    }

    fn graph(&self, el: &Element, doc: &mut LevelDoc, map: &mut SourceMap) -> Result<(), XmlError> {
        self.no_text(el)?;
        let mut vertex_ids: HashMap<String, Pos> = HashMap::new();
        let mut edge_ids: HashMap<String, Pos> = HashMap::new();
        // Vertices first: an edge may name a vertex listed after it.
        for c in &el.children {
            match c.name.as_str() {
                "vertex" => {
                    self.no_children(c)?;
                    let pos = self.pos(c.start);
                    let id = id_attr(c);
                    if let Some(id) = &id {
                        self.unique(c, "vertex id", id, pos, &mut vertex_ids)?;
                    }
                    doc.vertices.push(Vertex {
                        x: self.int(c, "x", 0)?,
                        y: self.int(c, "y", 0)?,
                        id,
                        color: self.color_ref(c, "color", doc)?,
                        origin: c.attr("origin").is_some(),
                        protect: self.protect(c)?,
                    });
                    map.vertices.push(pos);
                }
                "edge" => {}
                _ => return Err(self.unknown(c, "<graph>", "vertex, edge")),
            }
        }
        for c in el.children.iter().filter(|c| c.name == "edge") {
            self.no_children(c)?;
            let pos = self.pos(c.start);
            let mut ends = [String::new(), String::new()];
            for (slot, key) in ends.iter_mut().zip(["v1", "v2"]) {
                let v = self.required(c, key)?;
                if !vertex_ids.contains_key(v) {
                    let at = c.attr(key).map_or(c.start, |a| a.offset);
                    return Err(self.err(at, XmlErrorKind::UnknownVertex { id: v.to_string() }));
                }
                *slot = v.to_string();
            }
            let id = id_attr(c);
            if let Some(id) = &id {
                self.unique(c, "edge id", id, pos, &mut edge_ids)?;
            }
            let [v1, v2] = ends;
            doc.edges.push(Edge {
                v1,
                v2,
                id,
                color: self.color_ref(c, "color", doc)?,
                protect: self.protect(c)?,
            });
            map.edges.push(pos);
        }
        if doc.colors.is_empty()
            && let Some(first) = el.children.first()
        {
            return Err(self.err(first.start, XmlErrorKind::NoColors));
        }
        Ok(())
    }

    fn unique(
        &self,
        el: &Element,
        what: &'static str,
        id: &str,
        pos: Pos,
        seen: &mut HashMap<String, Pos>,
    ) -> Result<(), XmlError> {
        if let Some(&first) = seen.get(id) {
            let at = el.attr("id").map_or(el.start, |a| a.offset);
            let kind = XmlErrorKind::DuplicateId {
                what,
                id: id.to_string(),
                first,
            };
            return Err(self.err(at, kind));
        }
        seen.insert(id.to_string(), pos);
        Ok(())
    }

    fn rules(&self, el: &Element, doc: &mut LevelDoc, map: &mut SourceMap) -> Result<(), XmlError> {
        self.no_text(el)?;
        for c in &el.children {
            self.no_children(c)?;
            let count = |item, bound, key| -> Result<Rule, XmlError> {
                Ok(Rule::Count {
                    item,
                    bound,
                    color: self.color_sel(c, "color", doc)?,
                    limit: self.int(c, key, 0)?,
                })
            };
            let rule = match c.name.as_str() {
                "connected" => Rule::Connected,
                "vertex-minimum" => count(Item::Vertex, Bound::Min, "min")?,
                "vertex-maximum" => count(Item::Vertex, Bound::Max, "max")?,
                "edge-minimum" => count(Item::Edge, Bound::Min, "min")?,
                "edge-maximum" => count(Item::Edge, Bound::Max, "max")?,
                "edge-rule" => Rule::EdgeBan {
                    v1: self.color_sel(c, "v1", doc)?,
                    edge: self.color_sel(c, "edge", doc)?,
                    v2: self.color_sel(c, "v2", doc)?,
                },
                _ => {
                    return Err(self.unknown(
                        c,
                        "<rules>",
                        "connected, vertex-minimum, vertex-maximum, edge-minimum, \
                         edge-maximum, edge-rule",
                    ));
                }
            };
            doc.rules.push(rule);
            map.rules.push(self.pos(c.start));
        }
        Ok(())
    }

    fn values(
        &self,
        el: &Element,
        doc: &mut LevelDoc,
        map: &mut SourceMap,
    ) -> Result<(), XmlError> {
        self.no_text(el)?;
        for c in &el.children {
            doc.values.push(self.value(c)?);
            map.values.push(self.pos(c.start));
        }
        Ok(())
    }

    /// One child of `<values>` (also used for included files).
    pub(crate) fn value(&self, c: &Element) -> Result<ValueNode, XmlError> {
        if c.name != "comment" {
            self.no_children(c)?;
        }
        let id = || self.required(c, "id").map(str::to_string);
        let t = |k| Self::text_attr(c, k);
        Ok(match c.name.as_str() {
            "var" => ValueNode::Var {
                id: id()?,
                val: t("val"),
            },
            "op" => ValueNode::Op {
                id: id()?,
                op: self.op_attr(c, &Op::ALL)?,
                val1: t("val1"),
                val2: t("val2"),
            },
            "map" => ValueNode::Map {
                id: id()?,
                op: self.op_attr(c, &Op::ALL)?,
                val: self.required(c, "val")?.to_string(),
            },
            "zip" => ValueNode::Zip {
                id: id()?,
                op: self.op_attr(c, &Op::ALL)?,
                val1: self.required(c, "val1")?.to_string(),
                val2: self.required(c, "val2")?.to_string(),
            },
            "fold" => ValueNode::Fold {
                id: id()?,
                op: self.op_attr(c, &Op::ALL)?,
                val: self.required(c, "val")?.to_string(),
                start: t("start"),
            },
            "include" => ValueNode::Include {
                file: self.required(c, "file")?.to_string(),
            },
            "comment" => ValueNode::Comment {
                text: c.text.trim().to_string(),
            },
            _ => {
                return Err(self.unknown(
                    c,
                    "<values>",
                    "var, op, map, zip, fold, include, comment",
                ));
            }
        })
    }

    fn path(&self, el: &Element, doc: &LevelDoc) -> Result<PathSpec, XmlError> {
        self.no_text(el)?;
        let mut rules = Vec::new();
        for c in &el.children {
            if c.name != "edge" {
                return Err(self.unknown(c, &format!("<{}>", el.name), "edge"));
            }
            self.no_children(c)?;
            let color = match c.attr("color").map(|a| a.value.as_str()) {
                None | Some("any") => None,
                Some(_) => self.color_ref(c, "color", doc)?,
            };
            rules.push(PathRule {
                color,
                op: self.op_attr(c, &PathOp::ALL)?,
                val: self.int(c, "val", 0)?,
            });
        }
        Ok(PathSpec {
            cycle: el.name == "cycle",
            points: self.int(el, "points", 0)?,
            rules,
        })
    }
}

/// The `id` attribute; an empty id is no id, as the format document says.
fn id_attr(el: &Element) -> Option<String> {
    el.attr("id")
        .filter(|a| !a.value.is_empty())
        .map(|a| a.value.clone())
}

fn unknown_color(name: &str, doc: &LevelDoc) -> XmlErrorKind {
    let known = doc
        .colors
        .iter()
        .map(|c| c.name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    XmlErrorKind::UnknownColor {
        name: name.to_string(),
        known: if known.is_empty() {
            "none".into()
        } else {
            known
        },
    }
}

/// `#RRGGBB` (alpha `FF`) or `#RRGGBBAA` as packed `0xRRGGBBAA`.
pub fn parse_hex(s: &str) -> Option<u32> {
    let digits = s.strip_prefix('#')?;
    if !(digits.len() == 6 || digits.len() == 8) || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let v = u32::from_str_radix(digits, 16).ok()?;
    Some(if digits.len() == 6 {
        (v << 8) | 0xFF
    } else {
        v
    })
}

/// C's `stoi` on `s`: blanks, an optional sign, at least one digit; what follows is ignored.
/// `None` when there is no digit or the number does not fit 64 bits.
pub fn stoi(s: &str) -> Option<i64> {
    let t = s.trim_start();
    let (neg, rest) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let magnitude: i128 = rest[..digits].parse().ok()?;
    i64::try_from(if neg { -magnitude } else { magnitude }).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_like_stoi() {
        assert_eq!(stoi("3x3"), Some(3));
        assert_eq!(stoi("  -12"), Some(-12));
        assert_eq!(stoi("+7"), Some(7));
        assert_eq!(stoi("x"), None);
        assert_eq!(stoi(""), None);
        assert_eq!(stoi("-"), None);
        assert_eq!(stoi("99999999999999999999"), None);
    }

    #[test]
    fn a_level_over_the_size_limit_is_refused_in_one_line() {
        assert!(check_level_size("l.xml", 100, 100).is_ok());
        let e = check_level_size("l.xml", 101, 100).unwrap_err().to_string();
        assert_eq!(
            e,
            "l.xml: cannot read: 101 bytes is more than the 100 bytes a level file may hold"
        );
    }

    #[test]
    fn hex_colors_pack_rgba() {
        assert_eq!(parse_hex("#FF0000"), Some(0xFF00_00FF));
        assert_eq!(parse_hex("#11223344"), Some(0x1122_3344));
        assert_eq!(parse_hex("#aabbcc"), Some(0xAABB_CCFF));
        for bad in ["FF0000", "#FF00", "#GG0000", "#FF00000", ""] {
            assert_eq!(parse_hex(bad), None, "{bad}");
        }
    }
}
