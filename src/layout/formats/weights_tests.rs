//! Tests of reading edge weights (`ReadOptions::weights`): every format reads the same weights
//! for the same graph, reading them changes nothing else, and every bad or missing weight is a
//! one-line error at its place.

use std::path::Path;

use super::*;
use crate::layout::edgelist::EdgeList;

/// Weights on.
const WEIGHTS: ReadOptions = ReadOptions { weights: true };

/// The 5-cycle with a chord of `formats_tests.rs`, weighted 1, 2, 0.5, 3, 4 and 2.5 in edge
/// order, with a self-loop whose weight is missing or bad (a self-loop's weight is not read),
/// in each format. Each format's ways of giving a weight appear once: Matrix Market's repeat
/// of a `general` matrix (its first entry's weight is kept), GraphML's key default and data of
/// other keys, DOT's `edge` defaults in a subgraph and `len` before `weight`.
const WEIGHTED: [(GraphFormat, &str); 5] = [
    (
        GraphFormat::EdgeList,
        "1 2 1\n2 3 2 extra\n3 4 0.5\n4 5 3e0 # c\n5 1 4\n1 3 2.5\n2 2\n",
    ),
    (
        GraphFormat::MatrixMarket,
        "%%MatrixMarket matrix coordinate real general\n5 5 8\n1 2 1\n2 3 2\n3 4 0.5\n4 5 3\n\
         5 1 4\n1 3 2.5\n3 1 9\n2 2 -1\n",
    ),
    (
        GraphFormat::GraphMl,
        r#"<graphml><key id="nw" for="node" attr.name="weight"/>
<key id="w" for="edge" attr.name="weight" attr.type="double"><default>2.5</default></key>
<graph edgedefault="undirected">
<node id="1"><data key="nw">-1</data></node><node id="2"/><node id="3"/><node id="4"/><node id="5"/>
<edge source="1" target="2"><data key="w">1</data></edge>
<edge source="2" target="3"><data key="w"> 2
</data></edge>
<edge source="3" target="4"><data key="x">0</data><data key="w">0.5</data></edge>
<edge source="4" target="5"><data key="w">3</data></edge>
<edge source="5" target="1"><data key="w">4e0</data></edge>
<edge source="1" target="3"/>
<edge source="2" target="2"><data key="w">0</data></edge>
</graph></graphml>"#,
    ),
    (
        GraphFormat::Gml,
        "graph [ node [ id 1 weight -1 ] node [ id 2 ] node [ id 3 ] node [ id 4 ] node [ id 5 ]\n\
         edge [ source 1 target 2 weight 1 ] edge [ weight 2 source 2 target 3 ]\n\
         edge [ source 3 target 4 weight 0.5 ] edge [ source 4 target 5 weight 3 ]\n\
         edge [ source 5 target 1 weight 4.0 ] edge [ source 1 target 3 weight 2.5 ]\n\
         edge [ source 2 target 2 ] ]\n",
    ),
    (
        GraphFormat::Dot,
        "graph { edge [weight=1] 1 -- 2; 2 -- 3 [weight=2]; 3 -- 4 [len=0.5, weight=9];\n\
         subgraph { edge [len=3] 4 -- 5 } 5 -- 1 [weight=\"4\"]; 1 -- 3 [len=2.5];\n\
         2 -- 2 [weight=0] }\n",
    ),
];

/// The file name errors give for `format`.
fn name(format: GraphFormat) -> &'static str {
    match format {
        GraphFormat::EdgeList => "g.txt",
        GraphFormat::MatrixMarket => "g.mtx",
        GraphFormat::GraphMl => "g.graphml",
        GraphFormat::Gml => "g.gml",
        GraphFormat::Dot => "g.dot",
    }
}

fn weighted(format: GraphFormat, text: &str) -> Result<EdgeList, GraphReadError> {
    parse_graph_with(format, text.as_bytes(), Path::new(name(format)), WEIGHTS)
}

/// The error of reading `text` with weights, which must fail.
fn message(format: GraphFormat, text: &str) -> String {
    match weighted(format, text) {
        Ok(list) => panic!("{format:?} {text:?} parsed: {list:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn every_format_reads_the_same_weights() {
    for (format, text) in WEIGHTED {
        let list = weighted(format, text).unwrap_or_else(|e| panic!("{format:?}: {e}"));
        assert_eq!(list.src, [0, 1, 2, 3, 4, 0], "{format:?}");
        assert_eq!(list.dst, [1, 2, 3, 4, 0, 2], "{format:?}");
        assert_eq!(list.self_loops, 1, "{format:?}");
        let want = [1.0, 2.0, 0.5, 3.0, 4.0, 2.5];
        assert_eq!(list.weights.as_deref(), Some(&want[..]), "{format:?}");
        assert_eq!(list.graph().length_factor, Some(&want[..]), "{format:?}");
    }
}

#[test]
fn without_weights_nothing_is_read_and_nothing_changes() {
    for (format, text) in WEIGHTED {
        let path = Path::new(name(format));
        let plain = parse_graph(format, text.as_bytes(), path).unwrap();
        let off = parse_graph_with(format, text.as_bytes(), path, ReadOptions::default());
        assert_eq!(off.unwrap(), plain, "{format:?}");
        assert_eq!(plain.weights, None, "{format:?}");
        assert!(plain.graph().length_factor.is_none(), "{format:?}");
        let with = weighted(format, text).unwrap();
        assert_eq!(
            EdgeList {
                weights: None,
                ..with
            },
            plain,
            "{format:?}"
        );
    }
    // A file with bad or missing weights reads as before without `--weights`.
    let list = parse_graph(GraphFormat::EdgeList, b"1 2 -1\n2 3\n", Path::new("g")).unwrap();
    assert_eq!((list.edge_count(), list.weights), (2, None));
}

#[test]
fn read_graph_with_reads_weights_from_files() {
    let dir = std::env::temp_dir().join(format!("warren-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (format, text) in WEIGHTED {
        let path = dir.join(name(format));
        std::fs::write(&path, text).unwrap();
        let list = read_graph_with(&path, WEIGHTS).unwrap();
        assert_eq!(list.weights.map(|w| w.len()), Some(6), "{format:?}");
        assert_eq!(read_graph(&path).unwrap().weights, None, "{format:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn edge_list_weights_must_be_positive_finite_numbers() {
    let e = |text| message(GraphFormat::EdgeList, text);
    let bad = |at: &str, found: &str| {
        format!("g.txt:{at}: expected a positive finite weight, found {found}")
    };
    assert_eq!(e("1 2 0\n"), bad("1:5", r#""0""#));
    assert_eq!(e("1 2 1\n2\t3 -1\n"), bad("2:5", r#""-1""#));
    assert_eq!(e("1 2 NaN"), bad("1:5", r#""NaN""#));
    assert_eq!(e("1 2 inf"), bad("1:5", r#""inf""#));
    assert_eq!(e("1 2 1e39"), bad("1:5", r#""1e39""#));
    assert_eq!(e("1 2 1e-50"), bad("1:5", r#""1e-50""#));
    assert_eq!(e("1 2 heavy"), bad("1:5", r#""heavy""#));
    assert_eq!(e("1 2 {'weight': 2}"), bad("1:5", r#""{'weight':""#));
    // A missing weight is named at the end of the edge's line (or of the part before `#`).
    assert_eq!(e("1 2 1\n3 4\n"), bad("2:4", "end of line"));
    assert_eq!(e("1 2 # 3"), bad("1:5", "end of line"));
    // Duplicate edges keep their own weights; a self-loop's weight is not read.
    let list = weighted(GraphFormat::EdgeList, "1 2 1\n2 1 3\n1 1 x\n1 2 .5\n").unwrap();
    assert_eq!(list.weights, Some(vec![1.0, 3.0, 0.5]));
}

#[test]
fn matrix_market_weights_are_positive_values_of_real_or_integer_matrices() {
    let e = |text: &str| message(GraphFormat::MatrixMarket, text);
    let pattern = "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n";
    assert_eq!(
        e(pattern),
        "g.mtx:1:34: expected a field with a value per entry for weights: `integer` or `real`, \
         found \"pattern\""
    );
    let complex = "%%MatrixMarket MATRIX coordinate Complex hermitian\n2 2 1\n2 1 1 0\n";
    assert!(e(complex).starts_with("g.mtx:1:34: expected a field with a value"));
    assert!(e(complex).ends_with(r#"found "Complex""#));
    let real = "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n";
    let bad = |line: &str, found: &str| {
        format!("g.mtx:{line}: expected a positive finite weight, found \"{found}\"")
    };
    assert_eq!(e(&format!("{real}2 1 1\n3 1 0\n")), bad("4:5", "0"));
    assert_eq!(e(&format!("{real}2 1 -2.5\n3 1 1\n")), bad("3:5", "-2.5"));
    assert_eq!(e(&format!("{real}2 1 nan\n3 1 1\n")), bad("3:5", "nan"));
    assert_eq!(e(&format!("{real}2 1  1e40\n3 1 1\n")), bad("3:6", "1e40"));
    assert_eq!(
        e(&format!("{real}2 1 x\n3 1 1\n")),
        r#"g.mtx:3:5: expected a real value, found "x""#
    );
    assert_eq!(
        e(&format!("{real}2 1\n3 1 1\n")),
        "g.mtx:3:4: expected a real value, found end of line"
    );
    let integer = "%%MatrixMarket matrix coordinate integer general\n3 3 2\n";
    assert_eq!(e(&format!("{integer}1 2 -3\n2 1 1\n")), bad("3:5", "-3"));
    // The repeat of a `general` matrix and a diagonal entry are not read as weights.
    let list = weighted(
        GraphFormat::MatrixMarket,
        &format!("{integer}1 2 7\n2 1 -1\n"),
    );
    assert_eq!(list.unwrap().weights, Some(vec![7.0]));
    let list = weighted(GraphFormat::MatrixMarket, &format!("{real}1 1 0\n3 2 2\n"));
    assert_eq!(list.unwrap().weights, Some(vec![2.0]));
}

/// A GraphML file with the weight key `w` (its `default` element, if any, inside it), nodes
/// `a`, `b`, `c` and `edges`.
fn graphml(default: &str, edges: &str) -> String {
    format!(
        "<graphml>\n<key id=\"w\" for=\"edge\" attr.name=\"weight\">{default}</key>\n<graph>\n\
         <node id=\"a\"/><node id=\"b\"/><node id=\"c\"/>\n{edges}\n</graph></graphml>"
    )
}

#[test]
fn graphml_weights_are_the_data_of_the_edge_key_named_weight() {
    let e = |default: &str, edges: &str| message(GraphFormat::GraphMl, &graphml(default, edges));
    let bad = |at: &str, found: &str| {
        format!("g.graphml:{at}: expected a positive finite weight, found \"{found}\"")
    };
    let edge = |w: &str| format!(r#"<edge source="a" target="b"><data key="w">{w}</data></edge>"#);
    assert_eq!(e("", &edge("0")), bad("5:43", "0"));
    assert_eq!(e("", &edge("  -1 ")), bad("5:45", "-1"));
    assert_eq!(e("", &edge("NaN")), bad("5:43", "NaN"));
    assert_eq!(e("", &edge("heavy")), bad("5:43", "heavy"));
    assert_eq!(e("", &edge("")), bad("5:43", ""));
    let empty = r#"<edge source="a" target="b"><data key="w"/></edge>"#;
    assert_eq!(e("", empty), bad("5:29", ""));
    assert_eq!(e("<default>0</default>", &edge("1")), bad("2:52", "0"));
    let missing = r#"<edge source="c" target="a"/>"#;
    let none = "g.graphml:5:1: expected a weight: a <data> of the edge key named `weight`, found \
                an <edge> without one";
    assert_eq!(e("", missing), none);
    let twice =
        r#"<edge source="a" target="b"><data key="w">1</data><data key="w">2</data></edge>"#;
    assert_eq!(
        e("", twice),
        "g.graphml:5:51: expected one weight <data> per edge, found a second one"
    );
    // A key for nodes, or named otherwise, is not a weight key.
    let other = r#"<graphml><key id="w" for="node" attr.name="weight"/>
<key id="l" for="edge" attr.name="length"/><graph><node id="a"/><node id="b"/>
<edge source="a" target="b"><data key="w">1</data><data key="l">1</data></edge></graph></graphml>"#;
    assert!(message(GraphFormat::GraphMl, other).starts_with("g.graphml:3:1: expected a weight"));
    // A key without `for` (or `for="all"`) counts, its default fills in, and a self-loop's
    // weight is not read.
    let all = r#"<graphml><key id="k" attr.name="weight"><default>5</default></key><graph>
<edge source="a" target="b"/><edge source="b" target="b"><data key="k">x</data></edge>
<edge source="b" target="a"><data key="k">.5</data></edge><node id="a"/><node id="b"/>
</graph></graphml>"#;
    let list = weighted(GraphFormat::GraphMl, all).unwrap();
    assert_eq!(list.weights, Some(vec![5.0, 0.5]));
}

#[test]
fn gml_weights_are_the_weight_of_each_edge() {
    let e = |edges: &str| {
        let text = format!("graph [ node [ id 1 ] node [ id 2 ]\n{edges} ]");
        message(GraphFormat::Gml, &text)
    };
    let bad = |at: &str, found: &str| {
        format!("g.gml:{at}: expected a positive finite weight, found {found}")
    };
    assert_eq!(
        e("edge [ source 1 target 2 weight 0 ]"),
        bad("2:33", r#""0""#)
    );
    assert_eq!(
        e("edge [ weight -2 source 1 target 2 ]"),
        bad("2:15", r#""-2""#)
    );
    assert_eq!(
        e("edge [ source 1 target 2 weight 1e39 ]"),
        bad("2:33", r#""1e39""#)
    );
    assert_eq!(
        e("edge [ source 1 target 2 weight \"2\" ]"),
        bad("2:33", r#""\"2\"""#)
    );
    assert_eq!(
        e("edge [ source 1 target 2 weight [ x 1 ] ]"),
        bad("2:33", r#""[""#)
    );
    // GML has no NaN: `nan` is a key, where a value belongs.
    assert_eq!(
        e("edge [ source 1 target 2 weight nan ]"),
        r#"g.gml:2:33: expected a value for `weight`, found "nan""#
    );
    assert_eq!(
        e("edge [ source 1 target 2 ]"),
        r#"g.gml:2:26: expected a `weight` in this edge, found "]""#
    );
    assert_eq!(
        e("edge [ source 1 target 2 weight 1 weight 2 ]"),
        "g.gml:2:42: expected one `weight` per list, found a second `weight`"
    );
    // A self-loop's weight is not read.
    let text = "graph [ node [ id 1 ] edge [ source 1 target 1 weight 0 ] ]";
    assert_eq!(
        weighted(GraphFormat::Gml, text).unwrap().weights,
        Some(vec![])
    );
}

#[test]
fn dot_weights_are_len_or_else_weight() {
    let read = |text: &str| weighted(GraphFormat::Dot, text).unwrap().weights.unwrap();
    assert_eq!(read("graph { a -- b -- c [weight=2] }"), [2.0, 2.0]);
    assert_eq!(read("graph { a -- {b c} [len=3, weight=1] }"), [3.0, 3.0]);
    assert_eq!(read("graph { edge [len=3] a -- b [weight=1] }"), [3.0]);
    assert_eq!(read("graph { a -- b [weight=1] [weight=4] }"), [4.0]);
    // A subgraph's defaults end with it; a strict graph keeps the first edge's weight.
    let scoped = "graph { edge [weight=2] { edge [weight=5] a -- b } c -- d }";
    assert_eq!(read(scoped), [5.0, 2.0]);
    let strict = "strict graph { a -- b [weight=1]; b -- a [weight=5]; a -- a }";
    assert_eq!(read(strict), [1.0]);
    let e = |text| message(GraphFormat::Dot, text);
    let bad = |at: &str, found: &str| {
        format!("g.dot:{at}: expected a positive finite weight, found {found}")
    };
    assert_eq!(e("graph { a -- b [weight=0] }"), bad("1:24", r#""0""#));
    assert_eq!(
        e("graph { a -- b [len=-1, weight=1] }"),
        bad("1:21", r#""-1""#)
    );
    assert_eq!(e("graph { a -- b [weight=nan] }"), bad("1:24", r#""nan""#));
    assert_eq!(
        e("graph {\n a -- b [weight=\"x\"] }"),
        bad("2:17", r#""\"x\"""#)
    );
    assert_eq!(e("graph { a -- b [weight=<2>] }"), bad("1:24", r#""<2>""#));
    assert_eq!(e("graph { edge [weight=0] a -- b }"), bad("1:22", r#""0""#));
    assert_eq!(
        e("graph { a -- b [weight=1]\n c -- a -- b }"),
        "g.dot:2:4: expected a `len` or `weight` attribute on this edge (or an `edge [...]` \
         default), found an edge without one"
    );
    // The operator named is the first that kept an edge.
    assert_eq!(
        e("strict graph { a -- b [len=1]; b -- a -- c }")
            .split(": expected")
            .next(),
        Some("g.dot:1:39")
    );
}

#[test]
fn no_truncation_or_edit_of_a_weighted_file_makes_a_reader_panic() {
    let edits = [
        b'"', b'<', b'>', b'[', b']', b'=', b'-', b'0', b'.', b' ', 0xFF,
    ];
    for (format, text) in WEIGHTED {
        let bytes = text.as_bytes();
        let answer = |bytes: &[u8]| parse_graph_with(format, bytes, Path::new("g"), WEIGHTS);
        for end in 0..=bytes.len() {
            super::tests::check_answer(answer(&bytes[..end]), "g")
                .unwrap_or_else(|e| panic!("{format:?} [..{end}]: {e}"));
        }
        for at in 0..bytes.len() {
            for &b in &edits {
                let mut edited = bytes.to_vec();
                edited[at] = b;
                super::tests::check_answer(answer(&edited), "g")
                    .unwrap_or_else(|e| panic!("{format:?} {at}={b}: {e}"));
            }
        }
    }
}
