//! `level-list.xml` (seed 002's "level-list.xml" section): the categories of a levels folder, in
//! order, each with the level files of its folder. Read and written like the corpus file:
//! `<category-listing version="">` holding `<category name id color>` holding `<level id>`.

use std::path::Path;

use crate::levelxml::error::{XmlError, XmlErrorKind};
use crate::levelxml::model::{Category, LevelList};
use crate::levelxml::parse::{Cx, parse_hex};
use crate::levelxml::write::{escape_attr, hex};
use crate::levelxml::xml;

/// Reads and parses a `level-list.xml`.
pub fn read_level_list(path: &Path) -> Result<LevelList, XmlError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| XmlError::Read {
        file: file.clone(),
        message: e.to_string(),
    })?;
    parse_level_list(&text, &file)
}

/// Parses the text of a `level-list.xml`; `file` names it in errors.
pub fn parse_level_list(text: &str, file: &str) -> Result<LevelList, XmlError> {
    let cx = Cx::new(text, file);
    let (top, stray) = xml::read(text).map_err(|(at, m)| cx.err(at, XmlErrorKind::Syntax(m)))?;
    if let Some((at, text)) = stray {
        return Err(cx.err(at, XmlErrorKind::UnexpectedText { text }));
    }
    let mut list = None;
    for el in &top {
        if el.name != "category-listing" || list.is_some() {
            return Err(cx.unknown(el, "the top level", "one category-listing"));
        }
        cx.no_text(el)?;
        let mut out = LevelList {
            version: cx.required(el, "version")?.to_string(),
            categories: Vec::new(),
        };
        for c in &el.children {
            if c.name != "category" {
                return Err(cx.unknown(c, "<category-listing>", "category"));
            }
            cx.no_text(c)?;
            let color = cx.required(c, "color")?;
            let rgba = parse_hex(color).ok_or_else(|| {
                let at = c.attr("color").map_or(c.start, |a| a.offset);
                cx.err(
                    at,
                    XmlErrorKind::BadHex {
                        value: color.to_string(),
                    },
                )
            })?;
            let mut cat = Category {
                name: cx.required(c, "name")?.to_string(),
                id: cx.required(c, "id")?.to_string(),
                rgba,
                levels: Vec::new(),
            };
            for l in &c.children {
                if l.name != "level" {
                    return Err(cx.unknown(l, "<category>", "level"));
                }
                cx.no_children(l)?;
                cat.levels.push(cx.required(l, "id")?.to_string());
            }
            out.categories.push(cat);
        }
        list = Some(out);
    }
    list.ok_or_else(|| {
        cx.err(
            0,
            XmlErrorKind::MissingAttribute {
                element: "category-listing".into(),
                attribute: "(the element itself)",
            },
        )
    })
}

/// The list as the text of a `level-list.xml`, tab-indented like the game's own.
pub fn write_level_list(list: &LevelList) -> String {
    let mut out = String::from("<?xml version=\"1.0\"?>\n");
    out.push_str(&format!(
        "<category-listing version=\"{}\">\n",
        escape_attr(&list.version)
    ));
    for c in &list.categories {
        out.push_str(&format!(
            "\t<category name=\"{}\" id=\"{}\" color=\"{}\">\n",
            escape_attr(&c.name),
            escape_attr(&c.id),
            hex(c.rgba)
        ));
        for l in &c.levels {
            out.push_str(&format!("\t\t<level id=\"{}\"/>\n", escape_attr(l)));
        }
        out.push_str("\t</category>\n");
    }
    out.push_str("</category-listing>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_corpus_list_reads_and_round_trips() {
        let Some(corpus) = crate::levelxml::corpus_tests::corpus() else {
            return;
        };
        let path = corpus.join("level-list.xml");
        let list = read_level_list(&path).unwrap();
        assert_eq!(list.version, "0.0.0");
        let ids: Vec<&str> = list.categories.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "intro",
                "vertex-coloring",
                "edge-coloring",
                "connectedness",
                "eulerian",
                "editor"
            ]
        );
        assert_eq!(list.categories[4].name, "Eulerian Cycles & Paths");
        let levels: usize = list.categories.iter().map(|c| c.levels.len()).sum();
        assert_eq!(levels, 24);
        let again = parse_level_list(&write_level_list(&list), "w").unwrap();
        assert_eq!(again, list);
    }

    #[test]
    fn list_errors_have_places() {
        let e = parse_level_list(
            "<category-listing version=\"1\">\n  <category name=\"a\" id=\"a\" color=\"#12\"/>\n</category-listing>",
            "l.xml",
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("l.xml:2:29: bad color `#12`"), "{e}");
        let e = parse_level_list(
            "<category-listing version=\"1\"><cat/></category-listing>",
            "l.xml",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("l.xml:1:31: unknown element <cat>"), "{e}");
    }
}
