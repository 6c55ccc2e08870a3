//! The level writer: a [`LevelDoc`] as a file the game loads, in the corpus's own layout
//! (`<level/>`, protections, `<colors>`, `<graph>`, `<rules>`, `<path>`/`<cycle>`, `<values>`,
//! four-space indents, no root element).
//!
//! Attributes the model holds as defaults are left out (a vertex without a color, a rule slot
//! that is `any`, zero points), since the game crashes on a literal `any` in a rule. Path rules
//! are the exception: the corpus writes `color="any"` there and so does the writer. Reading the
//! output gives back an equal model (tested over the corpus and with proptest).

use std::fmt::Write;

use crate::levelxml::model::{Bound, ColorSel, Item, LevelDoc, PathSpec, Protect, Rule, ValueNode};

/// Escapes `s` for a double-quoted attribute value; newlines and tabs become character
/// references so that XML attribute normalisation keeps them.
pub fn escape_attr(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c => out.push(c),
        }
    }
    out
}

fn escape_text(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// `#RRGGBB` when opaque, else `#RRGGBBAA`.
pub fn hex(rgba: u32) -> String {
    if rgba & 0xFF == 0xFF {
        format!("#{:06X}", rgba >> 8)
    } else {
        format!("#{rgba:08X}")
    }
}

/// Accumulates ` key="value"` pairs.
struct Attrs(String);

impl Attrs {
    fn new() -> Self {
        Self(String::new())
    }
    fn put(&mut self, key: &str, value: &str) -> &mut Self {
        let _ = write!(self.0, " {key}=\"{}\"", escape_attr(value));
        self
    }
    fn opt(&mut self, key: &str, value: Option<&str>) -> &mut Self {
        if let Some(v) = value {
            self.put(key, v);
        }
        self
    }
    fn int_nonzero(&mut self, key: &str, v: i64) -> &mut Self {
        if v != 0 {
            self.put(key, &v.to_string());
        }
        self
    }
    fn protect(&mut self, p: Protect) -> &mut Self {
        if !p.is_empty() {
            self.put("protect", &p.to_string());
        }
        self
    }
    fn sel(&mut self, key: &str, s: &ColorSel) -> &mut Self {
        match s {
            ColorSel::Any => self,
            ColorSel::Same => self.put(key, "same"),
            ColorSel::Named(n) => self.put(key, n),
        }
    }
}

/// Writes `<name>` with `lines` as children, or `<name/>` when there are none.
fn block(out: &mut String, name: &str, attrs: &str, lines: &[String]) {
    if lines.is_empty() {
        let _ = writeln!(out, "<{name}{attrs}/>");
        return;
    }
    let _ = writeln!(out, "<{name}{attrs}>");
    for l in lines {
        let _ = writeln!(out, "    {l}");
    }
    let _ = writeln!(out, "</{name}>");
}

/// The level as the text of a `.xml` file.
///
/// # Runtime
/// O(size of the level); one output string plus a line per element.
pub fn write_level(doc: &LevelDoc) -> String {
    let mut out = String::new();
    let mut a = Attrs::new();
    a.opt("title", doc.title.as_deref())
        .opt("description", doc.description.as_deref())
        .opt("objective", doc.objective.as_deref());
    let _ = writeln!(out, "<level{}/>", a.0);
    for (name, p) in [
        ("global-vertex-protections", doc.vertex_protect),
        ("global-edge-protections", doc.edge_protect),
    ] {
        if let Some(p) = p {
            let _ = writeln!(out, "<{name} protect=\"{p}\"/>");
        }
    }
    let colors: Vec<String> = doc
        .colors
        .iter()
        .map(|c| {
            let mut a = Attrs::new();
            a.put("color", &hex(c.rgba))
                .put("name", &c.name)
                .int_nonzero("vertex-points", c.vertex_points)
                .int_nonzero("edge-points", c.edge_points);
            format!("<color{}/>", a.0)
        })
        .collect();
    block(&mut out, "colors", "", &colors);
    let mut graph: Vec<String> = Vec::with_capacity(doc.vertices.len() + doc.edges.len());
    for v in &doc.vertices {
        let mut a = Attrs::new();
        a.put("x", &v.x.to_string())
            .put("y", &v.y.to_string())
            .opt("id", v.id.as_deref())
            .opt("color", v.color.as_deref());
        if v.origin {
            a.put("origin", "t");
        }
        a.protect(v.protect);
        graph.push(format!("<vertex{}/>", a.0));
    }
    for e in &doc.edges {
        let mut a = Attrs::new();
        a.put("v1", &e.v1)
            .put("v2", &e.v2)
            .opt("id", e.id.as_deref())
            .opt("color", e.color.as_deref())
            .protect(e.protect);
        graph.push(format!("<edge{}/>", a.0));
    }
    block(&mut out, "graph", "", &graph);
    let rules: Vec<String> = doc.rules.iter().map(rule_line).collect();
    block(&mut out, "rules", "", &rules);
    for p in &doc.paths {
        write_path(&mut out, p);
    }
    let values: Vec<String> = doc.values.iter().map(value_line).collect();
    block(&mut out, "values", "", &values);
    out
}

pub(crate) fn rule_line(r: &Rule) -> String {
    match r {
        Rule::Connected => "<connected/>".to_string(),
        Rule::Count {
            item,
            bound,
            color,
            limit,
        } => {
            let item = match item {
                Item::Vertex => "vertex",
                Item::Edge => "edge",
            };
            let (bound, key) = match bound {
                Bound::Min => ("minimum", "min"),
                Bound::Max => ("maximum", "max"),
            };
            let mut a = Attrs::new();
            a.sel("color", color).put(key, &limit.to_string());
            format!("<{item}-{bound}{}/>", a.0)
        }
        Rule::EdgeBan { v1, edge, v2 } => {
            let mut a = Attrs::new();
            a.sel("v1", v1).sel("edge", edge).sel("v2", v2);
            format!("<edge-rule{}/>", a.0)
        }
    }
}

fn value_line(v: &ValueNode) -> String {
    let mut a = Attrs::new();
    let name = match v {
        ValueNode::Var { id, val } => {
            a.put("id", id).put("val", val);
            "var"
        }
        ValueNode::Op { id, op, val1, val2 } => {
            a.put("id", id)
                .put("op", op.name())
                .put("val1", val1)
                .put("val2", val2);
            "op"
        }
        ValueNode::Map { id, op, val } => {
            a.put("id", id).put("op", op.name()).put("val", val);
            "map"
        }
        ValueNode::Zip { id, op, val1, val2 } => {
            a.put("id", id)
                .put("op", op.name())
                .put("val1", val1)
                .put("val2", val2);
            "zip"
        }
        ValueNode::Fold { id, op, val, start } => {
            a.put("id", id).put("op", op.name()).put("val", val);
            if !start.is_empty() {
                a.put("start", start);
            }
            "fold"
        }
        ValueNode::Include { file } => {
            a.put("file", file);
            "include"
        }
        ValueNode::Comment { text } => {
            return if text.is_empty() {
                "<comment/>".to_string()
            } else {
                format!("<comment>{}</comment>", escape_text(text))
            };
        }
    };
    format!("<{name}{}/>", a.0)
}

fn write_path(out: &mut String, p: &PathSpec) {
    let name = if p.cycle { "cycle" } else { "path" };
    let lines: Vec<String> = p
        .rules
        .iter()
        .map(|r| {
            let mut a = Attrs::new();
            a.put("color", r.color.as_deref().unwrap_or("any"))
                .put("op", r.op.name())
                .put("val", &r.val.to_string());
            format!("<edge{}/>", a.0)
        })
        .collect();
    block(out, name, &format!(" points=\"{}\"", p.points), &lines);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_is_six_digits_when_opaque() {
        assert_eq!(hex(0xFF00_00FF), "#FF0000");
        assert_eq!(hex(0x1122_3344), "#11223344");
    }

    #[test]
    fn attributes_escape_what_xml_would_change() {
        assert_eq!(
            escape_attr("a&b<c>\"d\"\n\t"),
            "a&amp;b&lt;c&gt;&quot;d&quot;&#10;&#9;"
        );
    }
}
