//! Tests of the GML reader: ids, ignored keys and lists, and every error with its place.

use super::*;

fn parse_text(text: &str) -> Result<EdgeList, GraphReadError> {
    parse(text.as_bytes(), Path::new("g.gml"))
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

const SAMPLE: &str = r#"# written by hand
Creator "test"
Version 2
graph [
  directed 1
  label "g [not a list]"
  node [ id 1 label "one" graphics [ x 1.5 y -2e3 w .5 ] ]
  node [ id "b" ]
  node [ id -7 ]
  edge [ source 1 target "b" weight 0.5 ]
  edge [ target 1 source -7 ] # written target first
  edge [ source "b" target "b" ]
  node [ id 007 ]
  edge [ source 7 target 1 ]
]
"#;

#[test]
fn reads_nodes_and_edges_and_ignores_other_keys() {
    let list = parse_text(SAMPLE).unwrap();
    assert_eq!(names(&list), ["1", "b", "-7", "7"]);
    assert_eq!((list.src, list.dst), (vec![0, 2, 3], vec![1, 0, 0]));
    assert_eq!(list.self_loops, 1);
}

#[test]
fn an_edge_may_come_before_its_nodes() {
    let list = parse_text("graph [ edge [ source 2 target 1 ] node [ id 1 ] node [ id 2 ] ]");
    let list = list.unwrap();
    assert_eq!(names(&list), ["2", "1"]);
    assert_eq!(list.edge_count(), 1);
}

#[test]
fn errors_name_line_and_column() {
    let cases = [
        (
            "graph [ node [ id 1 ] edge [ source 1 target 2 ] ]",
            r#"1:46: expected the id of a declared node, found "2""#,
        ),
        (
            "graph [ node [ id 1 ] node [ id +1 ] ]",
            r#"1:33: expected an id no other node has, found "1""#,
        ),
        (
            r#"graph [ node [ label "x" ] ]"#,
            r#"1:26: expected an `id` in this node, found "]""#,
        ),
        (
            "graph [ node [ id 1 ] edge [ source 1 ] ]",
            r#"1:39: expected a `target` in this edge, found "]""#,
        ),
        (
            "graph [ node [ id 1.5 ] ]",
            r#"1:19: expected an integer or string id, found "1.5""#,
        ),
        (
            "graph [ node [ id [ ] ] ]",
            r#"1:19: expected an integer or string id, found "[""#,
        ),
        (
            "graph [ node [ id 1 id 2 ] ]",
            "1:24: expected one `id` per list, found a second `id`",
        ),
        (
            "graph [ node [ id 99999999999999999999 ] ]",
            r#"1:19: expected an integer id of at most 64 bits, found "99999999999999999999""#,
        ),
        (
            "graph [ label ]",
            r#"1:15: expected a value for `label`, found "]""#,
        ),
        (
            "graph [ label",
            "1:14: expected a value for `label`, found end of file",
        ),
        ("graph [ 5 ]", r#"1:9: expected a key or `]`, found "5""#),
        ("graph [ ] ]", r#"1:11: expected a key, found "]""#),
        (
            "graph [ label \"abc",
            "1:15: expected a closing `\"`, found end of file",
        ),
        (
            "graph [ node [ id 1 ]",
            "1:22: expected `]`, found end of file",
        ),
        (
            "Creator \"x\"",
            "1:12: expected a `graph [ ... ]` list, found end of file",
        ),
        (
            "graph [ @ ]",
            r#"1:9: expected a key, a value, `[` or `]`, found "@""#,
        ),
        ("graph [ x 1e ]", r#"1:11: expected a number, found "1e""#),
        (
            "graph [ ] graph [ ]",
            "1:17: expected one `graph` per file, found a second `graph`",
        ),
        (
            "# c\ngraph [\n  node [ id \"é\" ]\n  edge [ source \"é\" target \"ü\" ]\n]",
            r#"4:28: expected the id of a declared node, found "ü""#,
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(message(text), format!("g.gml:{expected}"), "{text:?}");
    }
}

#[test]
fn deep_nesting_is_read_without_recursion() {
    let depth = 100_000;
    let text = format!("graph [ {}{}]", "a [ ".repeat(depth), "] ".repeat(depth));
    assert_eq!(parse_text(&text).unwrap().vertex_count(), 0);
}

#[test]
fn every_truncation_is_an_answer_not_a_panic() {
    for end in (0..=SAMPLE.len()).filter(|&end| SAMPLE.is_char_boundary(end)) {
        if let Err(e) = parse_text(&SAMPLE[..end]) {
            assert!(e.to_string().starts_with("g.gml:"), "{end}: {e}");
        }
    }
}
