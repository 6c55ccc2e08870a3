//! Tests across the readers: the same graph in every format reads the same, the extension picks
//! the reader, and no input makes any reader panic (every truncation and many one-byte edits of
//! a valid file of each format, plus a proptest of token soups).

use std::path::Path;

use proptest::prelude::*;

use super::*;
use crate::layout::edgelist::EdgeList;

/// A 5-cycle with a chord, ids 1 to 5 first appearing in order, and a self-loop, in each format.
const SAME_GRAPH: [(GraphFormat, &str); 5] = [
    (GraphFormat::EdgeList, "1 2\n2 3\n3 4\n4 5\n5 1\n1 3\n2 2\n"),
    (
        GraphFormat::MatrixMarket,
        "%%MatrixMarket matrix coordinate pattern general\n5 5 8\n1 2\n2 3\n3 4\n4 5\n5 1\n1 3\n\
         3 1\n2 2\n",
    ),
    (
        GraphFormat::GraphMl,
        r#"<graphml><graph edgedefault="undirected">
<node id="1"/><node id="2"/><node id="3"/><node id="4"/><node id="5"/>
<edge source="1" target="2"/><edge source="2" target="3"/><edge source="3" target="4"/>
<edge source="4" target="5"/><edge source="5" target="1"/><edge source="1" target="3"/>
<edge source="2" target="2"/>
</graph></graphml>"#,
    ),
    (
        GraphFormat::Gml,
        "graph [ node [ id 1 ] node [ id 2 ] node [ id 3 ] node [ id 4 ] node [ id 5 ]\n\
         edge [ source 1 target 2 ] edge [ source 2 target 3 ] edge [ source 3 target 4 ]\n\
         edge [ source 4 target 5 ] edge [ source 5 target 1 ] edge [ source 1 target 3 ]\n\
         edge [ source 2 target 2 ] ]\n",
    ),
    (
        GraphFormat::Dot,
        "graph { 1 -- 2 -- 3 -- 4 -- 5 -- 1; 1 -- 3; 2 -- 2 }\n",
    ),
];

#[test]
fn the_same_graph_reads_the_same_in_every_format() {
    for (format, text) in SAME_GRAPH {
        let list = parse_graph(format, text.as_bytes(), Path::new("g")).unwrap();
        let ids: Vec<String> = list.ids.iter().map(|id| id.to_string()).collect();
        assert_eq!(ids, ["1", "2", "3", "4", "5"], "{format:?}");
        assert_eq!(list.src, [0, 1, 2, 3, 4, 0], "{format:?}");
        assert_eq!(list.dst, [1, 2, 3, 4, 0, 2], "{format:?}");
        assert_eq!(list.self_loops, 1, "{format:?}");
    }
}

#[test]
fn the_extension_chooses_the_reader() {
    for (name, format) in [
        ("g.mtx", GraphFormat::MatrixMarket),
        ("dir.d/G.MTX", GraphFormat::MatrixMarket),
        ("g.graphml", GraphFormat::GraphMl),
        ("g.gml", GraphFormat::Gml),
        ("g.dot", GraphFormat::Dot),
        ("g.Gv", GraphFormat::Dot),
        ("g.txt", GraphFormat::EdgeList),
        ("g.edges", GraphFormat::EdgeList),
        ("g.csv", GraphFormat::EdgeList),
        ("mtx", GraphFormat::EdgeList),
        ("g.mtx.gz", GraphFormat::EdgeList),
    ] {
        assert_eq!(GraphFormat::of_path(Path::new(name)), format, "{name}");
    }
}

#[test]
fn read_graph_reads_files_and_names_missing_ones() {
    let dir = std::env::temp_dir().join(format!("warren-formats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (format, text) in SAME_GRAPH {
        let extension = match format {
            GraphFormat::EdgeList => "txt",
            GraphFormat::MatrixMarket => "mtx",
            GraphFormat::GraphMl => "graphml",
            GraphFormat::Gml => "gml",
            GraphFormat::Dot => "gv",
        };
        let path = dir.join(format!("g.{extension}"));
        std::fs::write(&path, text).unwrap();
        assert_eq!(read_graph(&path).unwrap().edge_count(), 6, "{format:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
    for name in ["g.mtx", "g.txt"] {
        let missing = Path::new("/no/such/warren").join(name);
        let e = read_graph(&missing).unwrap_err();
        assert_eq!(e.to_string(), format!("{}: cannot read", missing.display()));
    }
}

/// Fails unless `result` is a graph or a one-line error naming `path` with a line and column.
pub(super) fn check_answer(
    result: Result<EdgeList, GraphReadError>,
    path: &str,
) -> Result<(), String> {
    let Err(e) = result else {
        return Ok(());
    };
    let shown = e.to_string();
    let place: Vec<&str> = shown
        .strip_prefix(path)
        .and_then(|rest| rest.strip_prefix(':'))
        .map(|rest| rest.splitn(3, ':').collect())
        .unwrap_or_default();
    let numbered = place.len() == 3 && place[..2].iter().all(|p| p.parse::<u32>().is_ok());
    if shown.lines().count() != 1 || !(numbered || place.len() == 2) {
        return Err(format!("not a one-line error at a place: {shown:?}"));
    }
    Ok(())
}

#[test]
fn no_truncation_or_one_byte_edit_makes_a_reader_panic() {
    let edits = [
        b'"', b'<', b'>', b'[', b']', b'{', b'}', b'\\', b'\n', b'-', b'%', b'0', 0xFF,
    ];
    for (format, text) in SAME_GRAPH {
        let bytes = text.as_bytes();
        for end in 0..=bytes.len() {
            let answer = parse_graph(format, &bytes[..end], Path::new("g"));
            check_answer(answer, "g").unwrap_or_else(|e| panic!("{format:?} [..{end}]: {e}"));
        }
        for at in 0..bytes.len() {
            for &b in &edits {
                let mut edited = bytes.to_vec();
                edited[at] = b;
                let answer = parse_graph(format, &edited, Path::new("g"));
                check_answer(answer, "g").unwrap_or_else(|e| panic!("{format:?} {at}={b}: {e}"));
            }
        }
    }
}

/// Pieces the token soups are made of, for every format at once.
const PIECES: &[&str] = &[
    " ",
    "\n",
    "\t",
    "\r\n",
    "1",
    "2",
    "007",
    "-3",
    "1.5",
    ".5",
    "99999999999999999999",
    "a",
    "\"q\"",
    "\"",
    "\\",
    "+",
    "[",
    "]",
    "{",
    "}",
    "<",
    ">",
    "/",
    "*",
    "#",
    "%",
    "=",
    ";",
    ",",
    ":",
    "--",
    "->",
    "é",
    "graph",
    "digraph",
    "strict",
    "subgraph",
    "node",
    "edge",
    "id",
    "source",
    "target",
    "label",
    "weight",
    "len",
    "<key id=\"w\" attr.name=\"weight\">",
    "<data key=\"w\">",
    "</data>",
    "<default>",
    "<graphml>",
    "</graphml>",
    "<graph>",
    "</graph>",
    "<node id=\"a\"/>",
    "<edge source=\"a\" target=\"b\"/>",
    "&amp;",
    "<!--",
    "-->",
    "%%MatrixMarket",
    "matrix coordinate pattern general",
    "real symmetric",
    "3 3 2",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..60).prop_map(|p| p.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn token_soups_are_answers_not_panics(text in soup()) {
        for format in [
            GraphFormat::EdgeList,
            GraphFormat::MatrixMarket,
            GraphFormat::GraphMl,
            GraphFormat::Gml,
            GraphFormat::Dot,
        ] {
            let answer = parse_graph(format, text.as_bytes(), Path::new("g"));
            check_answer(answer, "g").map_err(TestCaseError::fail)?;
            let options = ReadOptions { weights: true };
            let answer = parse_graph_with(format, text.as_bytes(), Path::new("g"), options);
            check_answer(answer, "g").map_err(TestCaseError::fail)?;
        }
    }
}
