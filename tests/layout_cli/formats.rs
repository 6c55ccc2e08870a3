//! `warren layout` on the graph formats other than edge lists (Matrix Market, GraphML, GML, DOT,
//! chosen by extension): the same graph in every format gives the same figures and the same
//! positions, the TSV names the file's own ids, `--svg` draws a well-formed SVG, and bad files
//! are one-line errors naming line and column.

use super::{figure, graph_file, layout, layout_ok};
use crate::common::{
    TempDir, assert_fails_naming, assert_one_line_error, exit_code, stderr, stdout,
};

/// A cube on ids 1 to 8 (first appearing in order) and a self-loop.
const CUBE: [(u32, u32); 13] = [
    (1, 2),
    (2, 3),
    (3, 4),
    (4, 1),
    (5, 6),
    (6, 7),
    (7, 8),
    (8, 5),
    (1, 5),
    (2, 6),
    (3, 7),
    (4, 8),
    (3, 3),
];

/// The cube in each format: file name and text.
fn cube_files() -> Vec<(&'static str, String)> {
    let lines = |f: &dyn Fn(u32, u32) -> String| CUBE.iter().map(|&(a, b)| f(a, b)).collect();
    let edge_list: String = lines(&|a, b| format!("{a} {b}\n"));
    let nodes = |f: &dyn Fn(u32) -> String| (1..=8).map(f).collect::<String>();
    let mtx = format!(
        "%%MatrixMarket matrix coordinate pattern general\n% the cube\n8 8 13\n{edge_list}"
    );
    let graphml = format!(
        "<?xml version=\"1.0\"?>\n<graphml>\n<graph edgedefault=\"undirected\">\n{}{}</graph>\n\
         </graphml>\n",
        nodes(&|v| format!("  <node id=\"{v}\"/>\n")),
        lines(&|a, b| format!("  <edge source=\"{a}\" target=\"{b}\"/>\n")),
    );
    let gml = format!(
        "graph [\n{}{}]\n",
        nodes(&|v| format!("  node [ id {v} label \"v{v}\" ]\n")),
        lines(&|a, b| format!("  edge [ source {a} target {b} ]\n")),
    );
    let dot = format!(
        "graph cube {{\n  node [shape=point]\n{}}}\n",
        lines(&|a, b| format!("  {a} -- {b};\n"))
    );
    vec![
        ("cube.txt", edge_list),
        ("cube.mtx", mtx),
        ("cube.graphml", graphml),
        ("cube.gml", gml),
        ("cube.dot", dot),
    ]
}

/// The id column of a positions TSV.
fn tsv_ids(tsv: &str) -> Vec<String> {
    let mut lines = tsv.lines();
    assert_eq!(lines.next(), Some("id\tx\ty"));
    lines
        .map(|l| {
            let row: Vec<&str> = l.split('\t').collect();
            assert_eq!(row.len(), 3, "{l:?}");
            row[0].to_string()
        })
        .collect()
}

#[test]
fn the_same_graph_in_every_format_gives_the_same_layout() {
    let dir = TempDir::new("layout-formats");
    let mut first: Option<Vec<u8>> = None;
    for (name, text) in cube_files() {
        let graph = graph_file(&dir, name, &text);
        let out = dir.join(&format!("{name}.tsv"));
        let summary = layout_ok(&graph, &out, &["--seed", "5", "--iterations", "200"]);
        assert_eq!(figure(&summary, "vertices "), "8", "{name}");
        assert_eq!(
            figure(&summary, "edges "),
            "12 (1 self-loops dropped)",
            "{name}"
        );
        let tsv = std::fs::read(&out).unwrap();
        let ids = tsv_ids(std::str::from_utf8(&tsv).unwrap());
        assert_eq!(ids, ["1", "2", "3", "4", "5", "6", "7", "8"], "{name}");
        match &first {
            None => first = Some(tsv),
            Some(edge_list) => assert_eq!(&tsv, edge_list, "{name}: other positions"),
        }
    }
}

#[test]
fn string_ids_name_the_rows_of_the_tsv() {
    let dir = TempDir::new("layout-names");
    let cases = [
        (
            "rooms.dot",
            "graph { \"living room\" -- kitchen -- \"tab\there\"; kitchen -- \"x\\\"y\" }",
            &["living room", "kitchen", "tab\\there", "x\"y"][..],
        ),
        (
            "rooms.graphml",
            "<graphml><graph><node id=\"a&amp;b\"/><node id=\"hall\"/>\
             <edge source=\"hall\" target=\"a&amp;b\"/></graph></graphml>",
            &["a&b", "hall"],
        ),
        (
            "rooms.gml",
            "graph [ node [ id \"hall\" ] node [ id 007 ] edge [ source 7 target \"hall\" ] ]",
            &["hall", "7"],
        ),
        (
            "rooms.mtx",
            "%%MatrixMarket matrix coordinate real symmetric\n4 4 1\n3 2 0.5\n",
            &["3", "2", "1", "4"],
        ),
    ];
    for (name, text, ids) in cases {
        let graph = graph_file(&dir, name, text);
        let out = dir.join(&format!("{name}.tsv"));
        layout_ok(&graph, &out, &[]);
        let tsv = std::fs::read_to_string(&out).unwrap();
        assert_eq!(tsv_ids(&tsv), ids, "{name}");
    }
}

/// Fails unless `svg` is well-formed XML whose root is `<svg>`.
fn assert_well_formed_svg(svg: &str) {
    let mut reader = quick_xml::Reader::from_str(svg);
    let mut root = None;
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(quick_xml::events::Event::Start(e)) if root.is_none() => {
                root = Some(e.name().as_ref().to_string())
            }
            Ok(_) => {}
            Err(e) => panic!("not well-formed at {}: {e}", reader.error_position()),
        }
    }
    assert_eq!(root.as_deref(), Some("svg"));
}

#[test]
fn svg_draws_the_layout() {
    let dir = TempDir::new("layout-svg");
    let (name, text) = &cube_files()[4];
    let graph = graph_file(&dir, name, text);
    let draw = |svg_name: &str| {
        let (out, svg) = (dir.join("pos.tsv"), dir.join(svg_name));
        layout_ok(
            &graph,
            &out,
            &["--seed", "3", "--svg", svg.to_str().unwrap()],
        );
        std::fs::read_to_string(svg).unwrap()
    };
    let svg = draw("cube.svg");
    assert!(svg.starts_with("<svg "), "{svg}");
    assert!(svg.contains(" viewBox=\"0 0 "), "{svg}");
    assert_eq!(svg.matches("<path ").count(), 1, "{svg}");
    // 12 edges, each one `M x y L x y` segment.
    let path = svg
        .split("<path d=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    assert_eq!(
        (path.matches('M').count(), path.matches('L').count()),
        (12, 12)
    );
    assert_eq!(svg.matches("<circle ").count(), 8, "{svg}");
    assert!(svg.trim_end().ends_with("</svg>"), "{svg}");
    assert_well_formed_svg(&svg);
    assert_eq!(draw("again.svg"), svg, "the same seed drew different bytes");
    assert!(!dir.join("cube.svg.tmp").exists(), "the temp file was left");

    let missing = dir.join("nowhere").join("cube.svg");
    let output = layout(&graph, &["--svg", missing.to_str().unwrap()]);
    assert_eq!(exit_code(&output), 2);
    assert_one_line_error(&output, "--svg into a missing folder");
    assert!(
        stderr(&output).contains("output folder does not exist"),
        "{}",
        stderr(&output)
    );
}

/// Runs `warren layout` on `text` saved as `name`; asserts exit status 2 and the one-line error
/// `error: FILE:expected` with nothing on stdout.
fn assert_bad_file(dir: &TempDir, name: &str, text: &str, expected: &str) {
    let graph = graph_file(dir, name, text);
    let output = layout(&graph, &[]);
    let what = format!("{name} {text:?}");
    assert_eq!(exit_code(&output), 2, "{what}: {}", stderr(&output));
    assert_one_line_error(&output, &what);
    let wanted = format!("error: {}:{expected}", graph.display());
    assert_eq!(stderr(&output).trim_end(), wanted, "{what}");
    assert!(stdout(&output).is_empty(), "{what}");
}

#[test]
fn bad_files_in_every_format_are_one_line_errors_naming_line_and_column() {
    let dir = TempDir::new("layout-formats-bad");
    let banner = "%%MatrixMarket matrix coordinate pattern";
    let cases = [
        // Truncated.
        (
            "truncated.mtx",
            format!("{banner} general\n3 3 3\n1 2\n"),
            "4:1: expected 3 entries as the size line announces, found end of file after 1",
        ),
        (
            "truncated.graphml",
            r#"<graphml><graph><node id="a"/><node id="b"/><edge source="a" target="b"/>"#
                .to_string(),
            "1:74: expected </graph>, found end of file",
        ),
        (
            "truncated.gml",
            "graph [\n  node [ id 1 ]\n  node [ id 2 ]\n  edge [ source 1 target 2 ]\n".to_string(),
            "5:1: expected `]`, found end of file",
        ),
        (
            "truncated.gv",
            "graph {\n  a -- b\n".to_string(),
            "3:1: expected `}`, found end of file",
        ),
        // Wrong header.
        (
            "dense.mtx",
            "%%MatrixMarket matrix array real general\n3 3 9\n".to_string(),
            "1:23: expected `coordinate` (a sparse matrix; dense `array` files are not read), \
             found \"array\"",
        ),
        (
            "gexf.graphml",
            "<?xml version=\"1.0\"?>\n<gexf><graph/></gexf>\n".to_string(),
            "2:1: expected the root element <graphml>, found <gexf>",
        ),
        (
            "header.gml",
            "digraph [ node [ id 1 ] ]".to_string(),
            "1:26: expected a `graph [ ... ]` list, found end of file",
        ),
        (
            "header.dot",
            "graf { a -- b }".to_string(),
            "1:1: expected `graph` or `digraph`, found \"graf\"",
        ),
        // Out-of-range or undeclared ids, a wrong edge operator.
        (
            "range.mtx",
            format!("{banner} general\n3 3 1\n4 1\n"),
            "3:1: expected a row index from 1 to 3, found \"4\"",
        ),
        (
            "undeclared.graphml",
            r#"<graphml><graph><node id="a"/><edge source="a" target="b"/></graph></graphml>"#
                .to_string(),
            "1:56: expected the id of a declared <node>, found \"b\"",
        ),
        (
            "undeclared.gml",
            "graph [ node [ id 1 ] edge [ source 1 target 2 ] ]".to_string(),
            "1:46: expected the id of a declared node, found \"2\"",
        ),
        (
            "arrow.dot",
            "digraph { a -- b }".to_string(),
            "1:13: expected `->` (a digraph's edge), found \"--\"",
        ),
        // A header announcing 10^9 vertices: refused before anything is allocated for them.
        (
            "huge.mtx",
            format!("{banner} symmetric\n1000000000 1000000000 3\n1 2\n"),
            "2:1: expected a row count of at most 16777216, found \"1000000000\"",
        ),
    ];
    for (name, text, expected) in &cases {
        assert_bad_file(&dir, name, text, expected);
    }
}

/// Documented choice, as for edge lists: a graph without edges is an error, not a zero result.
#[test]
fn a_graph_file_without_edges_is_a_one_line_error() {
    let dir = TempDir::new("layout-formats-empty");
    for (name, text) in [
        (
            "empty.mtx",
            "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n2 2\n",
        ),
        (
            "empty.graphml",
            "<graphml><graph><node id=\"a\"/></graph></graphml>",
        ),
        ("empty.gml", "graph [ node [ id 1 ] ]"),
        ("empty.dot", "digraph { a; b }"),
    ] {
        let graph = graph_file(&dir, name, text);
        assert_fails_naming(&layout(&graph, &[]), name, &["no edges to lay out"]);
    }
}
