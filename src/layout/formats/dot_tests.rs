//! Tests of the DOT reader: statements, subgraphs, strings, strict graphs, and every error with
//! its place.

use super::*;

fn parse_text(text: &str) -> Result<EdgeList, GraphReadError> {
    parse(text.as_bytes(), Path::new("g.dot"))
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

const SAMPLE: &str = r#"/* a block
   comment */
graph "my graph" {
  graph [rankdir=LR, label=<<b>bold</b>>];
  node [shape=box] edge [color="red"];
  rankdir = LR
  // a line comment
  # a preprocessor line
  a -- b -- c [weight=2; style=dashed];
  "a" -- "quoted \"q\"";
  -1.5 -- .5;
  d [label="x"]
  subgraph cluster_0 { e -- f; g }
  a -- { h i } ;
  { j k } -- { l }
  a:port -- b:n:ne;
  c -- c;
  "multi" + "line" -- a;
  x -- {y -- z}
  "back\\slash" -- "joined \
line" -- "ünïcode"
}
"#;

#[test]
fn reads_every_kind_of_statement() {
    let list = parse_text(SAMPLE).unwrap();
    let expected_names = [
        "a",
        "b",
        "c",
        "quoted \"q\"",
        "-1.5",
        ".5",
        "d",
        "e",
        "f",
        "g",
        "h",
        "i",
        "j",
        "k",
        "l",
        "multiline",
        "x",
        "y",
        "z",
        "back\\\\slash",
        "joined line",
        "ünïcode",
    ];
    assert_eq!(names(&list), expected_names);
    let edges: Vec<(u32, u32)> = list
        .src
        .iter()
        .copied()
        .zip(list.dst.iter().copied())
        .collect();
    assert_eq!(
        edges,
        [
            (0, 1),
            (1, 2),
            (0, 3),
            (4, 5),
            (7, 8),
            (0, 10),
            (0, 11),
            (12, 14),
            (13, 14),
            (0, 1),
            (15, 0),
            (17, 18),
            (16, 17),
            (16, 18),
            (19, 20),
            (20, 21),
        ]
    );
    assert_eq!(list.self_loops, 1);
}

#[test]
fn digraphs_and_strict_graphs() {
    let list = parse_text("digraph G { a -> b; b -> a; a -> b }").unwrap();
    assert_eq!(list.edge_count(), 3);
    let list = parse_text("STRICT Digraph { a -> b; b -> a; a -> b }").unwrap();
    assert_eq!(list.edge_count(), 2);
    let list = parse_text("strict graph { a -- b; b -- a; a -- {b c}; a -- a }").unwrap();
    assert_eq!((list.edge_count(), list.self_loops), (2, 1));
}

#[test]
fn a_subgraph_joins_each_of_its_nodes_once() {
    let list = parse_text("graph { a -- { b -- c; b; subgraph s { c d } } }").unwrap();
    assert_eq!(names(&list), ["a", "b", "c", "d"]);
    // b-c inside, then a to each of b, c, d.
    assert_eq!((list.src, list.dst), (vec![1, 0, 0, 0], vec![2, 1, 2, 3]));
}

#[test]
fn errors_name_line_and_column() {
    let nested = format!("graph {{{}{}}}", "{".repeat(200), "}".repeat(200));
    let cases = [
        (
            "graph { a -> b }",
            r#"1:11: expected `--` (an undirected graph's edge), found "->""#,
        ),
        (
            "digraph { a -- b }",
            r#"1:13: expected `->` (a digraph's edge), found "--""#,
        ),
        (
            "graph { a -- }",
            r#"1:14: expected a node id or a subgraph, found "}""#,
        ),
        ("graph { a -- b", "1:15: expected `}`, found end of file"),
        (
            "graph { \"abc }",
            "1:9: expected a closing `\"`, found end of file",
        ),
        (
            "graph { /* x }",
            "1:9: expected the end `*/` of this comment, found end of file",
        ),
        (
            "foo { }",
            r#"1:1: expected `graph` or `digraph`, found "foo""#,
        ),
        ("", "1:1: expected `graph` or `digraph`, found end of file"),
        (
            "graph { } graph { }",
            r#"1:11: expected end of file (one graph per file), found "graph""#,
        ),
        (
            "graph { a [label=] }",
            r#"1:18: expected an attribute value, found "]""#,
        ),
        ("graph { node; }", r#"1:13: expected `[`, found ";""#),
        (
            "graph { <<b>x</b>> -- a }",
            r#"1:9: expected a node id (HTML strings are not read as node names), found "<<b>x</b>>""#,
        ),
        (
            "graph { a -- b ] }",
            r#"1:16: expected a statement, found "]""#,
        ),
        ("graph { a = }", r#"1:13: expected a value, found "}""#),
        ("graph { @ }", r#"1:9: expected a DOT token, found "@""#),
        (
            "graph { a -x }",
            r#"1:11: expected `--`, `->` or a number, found "-""#,
        ),
        (
            "graph { \"a\" + b }",
            r#"1:15: expected a quoted string after `+`, found "b""#,
        ),
        ("graph { c: }", r#"1:12: expected a port name, found "}""#),
        (
            "graph { <a",
            "1:9: expected a closing `>`, found end of file",
        ),
        (
            "graph {\n  a -- b\n  c -> d\n}",
            r#"3:5: expected `--` (an undirected graph's edge), found "->""#,
        ),
        (
            nested.as_str(),
            "1:108: expected subgraphs nested at most 100 deep, found a deeper one",
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(message(text), format!("g.dot:{expected}"), "{text:?}");
    }
}

#[test]
fn every_truncation_is_an_answer_not_a_panic() {
    for end in (0..=SAMPLE.len()).filter(|&end| SAMPLE.is_char_boundary(end)) {
        if let Err(e) = parse_text(&SAMPLE[..end]) {
            assert!(e.to_string().starts_with("g.dot:"), "{end}: {e}");
        }
    }
}
