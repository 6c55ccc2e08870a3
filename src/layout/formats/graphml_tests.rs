//! Tests of the GraphML reader: declarations, ignored content, and every error with its place.

use super::*;
use crate::layout::formats::VertexIds;

fn parse_text(text: &str) -> Result<EdgeList, GraphReadError> {
    parse(text.as_bytes(), Path::new("g.graphml"))
}

/// The error message of `text`, which must fail.
fn message(text: &str) -> String {
    match parse_text(text) {
        Ok(list) => panic!("{text:?} parsed: {list:?}"),
        Err(e) => e.to_string(),
    }
}

fn names(list: &EdgeList) -> Vec<String> {
    list.ids.iter().map(|id| id.to_string()).collect()
}

const SAMPLE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment -->
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="w" for="edge" attr.name="weight" attr.type="double"/>
  <graph id="G" edgedefault="directed">
    <node id="n0"><data key="x"><y:ShapeNode><node id="fake"/></y:ShapeNode></data></node>
    <node id="a&amp;b"/>
    <node id="n2"></node>
    <edge source="n0" target="a&amp;b"><data key="w">1.5</data></edge>
    <edge id="e1" source="n2" target="n2"/>
    <edge source="n2" target="n0"/>
    <node id="isolated"><port name="p"/></node>
  </graph>
</graphml>
"#;

#[test]
fn reads_nodes_and_edges_and_ignores_data() {
    let list = parse_text(SAMPLE).unwrap();
    assert_eq!(names(&list), ["n0", "a&b", "n2", "isolated"]);
    assert_eq!((list.src, list.dst), (vec![0, 2], vec![1, 0]));
    assert_eq!(list.self_loops, 1);
}

#[test]
fn an_edge_may_come_before_its_nodes() {
    let list = parse_text(
        r#"<graphml><graph><edge source="b" target="a"/><node id="a"/><node id="b"/></graph></graphml>"#,
    )
    .unwrap();
    assert_eq!(names(&list), ["b", "a"]);
    assert_eq!((list.src, list.dst), (vec![0], vec![1]));
}

#[test]
fn an_empty_graph_has_no_vertices() {
    let list = parse_text("<graphml><graph/></graphml>").unwrap();
    assert_eq!(list.ids, VertexIds::Names(Default::default()));
}

#[test]
fn errors_name_line_column_and_the_id() {
    let cases = [
        (
            r#"<graphml><graph><node id="a"/><edge source="a" target="zz"/></graph></graphml>"#,
            r#"1:56: expected the id of a declared <node>, found "zz""#,
        ),
        (
            r#"<graphml><graph><node id="a"/><node id="a"/></graph></graphml>"#,
            r#"1:41: expected an id no other node has, found "a""#,
        ),
        (
            "<graphml><graph><node/></graph></graphml>",
            "1:17: expected an `id` attribute, found <node> without one",
        ),
        (
            r#"<graphml><graph><node id="a"/><edge source="a"/></graph></graphml>"#,
            "1:31: expected a `target` attribute, found <edge> without one",
        ),
        (
            r#"<graphml><graph><node id="a"><graph/></node></graph></graphml>"#,
            "1:30: expected no nested <graph> (nested graphs are not read), found <graph>",
        ),
        (
            "<graphml><graph/><graph/></graphml>",
            "1:18: expected one <graph> per file, found a second <graph>",
        ),
        (
            "<gexf><graph/></gexf>",
            "1:1: expected the root element <graphml>, found <gexf>",
        ),
        (
            "<graphml><graph><hyperedge/></graph></graphml>",
            "1:17: expected <node> or <edge> (hyperedges are not read), found <hyperedge>",
        ),
        (
            r#"<graphml><node id="a"/></graphml>"#,
            "1:10: expected <graph> (nodes and edges belong in one), found <node>",
        ),
        (
            r#"<graphml><graph><node id="a"/>"#,
            "1:31: expected </graph>, found end of file",
        ),
        (
            "<graphml/>",
            "1:11: expected a <graph> element, found end of file",
        ),
        (
            "",
            "1:1: expected the root element <graphml>, found end of file",
        ),
        (
            "<graphml>\n<graph>\n  <node id=\"é\"/><edge source=\"é\" target=\"ü\"/>\n</graph></graphml>",
            r#"3:42: expected the id of a declared <node>, found "ü""#,
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(message(text), format!("g.graphml:{expected}"), "{text:?}");
    }
}

#[test]
fn malformed_xml_is_placed() {
    for (text, place) in [
        (r#"<graphml><graph><node id="a></graph></graphml>"#, "1:17:"),
        ("<graphml><graph></node></graphml>", "1:17:"),
        (
            r#"<graphml><graph><node id="&foo;"/></graph></graphml>"#,
            "1:27:",
        ),
    ] {
        let e = message(text);
        assert!(
            e.starts_with(&format!("g.graphml:{place} expected ")),
            "{text:?}: {e}"
        );
        assert_eq!(e.lines().count(), 1, "{e}");
    }
}

#[test]
fn every_truncation_is_an_answer_not_a_panic() {
    for end in (0..=SAMPLE.len()).filter(|&end| SAMPLE.is_char_boundary(end)) {
        if let Err(e) = parse_text(&SAMPLE[..end]) {
            assert!(e.to_string().starts_with("g.graphml:"), "{end}: {e}");
        }
    }
}
