//! The reader over the 24 corpus levels (parse, write, parse gives the same model; the
//! evaluation table of the start states), its errors with their places, and proptest round
//! trips over generated models.

use std::path::PathBuf;

use proptest::prelude::*;

use super::*;

use super::corpus_tests::corpus;

/// Every level named by the corpus `level-list.xml`, as `category/level`.
fn corpus_levels() -> Option<Vec<(String, PathBuf)>> {
    let root = corpus()?;
    let list = read_level_list(&root.join("level-list.xml")).unwrap();
    let mut out = Vec::new();
    for c in &list.categories {
        for l in &c.levels {
            let path = root.join(&c.id).join(format!("{l}.xml"));
            out.push((format!("{}/{l}", c.id), path));
        }
    }
    Some(out)
}

#[test]
fn every_corpus_level_parses_and_round_trips() {
    let Some(levels) = corpus_levels() else {
        return;
    };
    assert_eq!(levels.len(), 24);
    for (name, path) in &levels {
        let first = read_level(path).unwrap_or_else(|e| panic!("{e}"));
        let text = write_level(&first.doc);
        let again = parse_level(&text, name).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(again.doc, first.doc, "{name}\n{text}");
        // Writing is a fixed point: the written layout writes itself again.
        assert_eq!(write_level(&again.doc), text, "{name}");
    }
}

/// The start state of every corpus level: (level, valid, total, objective). No level is
/// complete before the player acts; rules that fail are those the player must satisfy.
const START_TABLE: [(&str, bool, i64, i64); 24] = [
    ("intro/vertices", true, 1, 5),
    ("intro/edges", true, 0, 5),
    ("intro/degrees", true, 0, 5),
    ("vertex-coloring/colors", true, 0, 5),
    ("vertex-coloring/vertex-coloring", false, 0, 10),
    ("vertex-coloring/more-rules", false, 0, 15),
    ("vertex-coloring/max-edges", true, 9, 25),
    ("vertex-coloring/maximum", true, 0, 6),
    ("edge-coloring/coloring-edges", true, 0, 5),
    ("edge-coloring/edge-rules", true, 0, 6),
    ("edge-coloring/three-of-each", true, 0, 9),
    ("edge-coloring/create-edges", true, 0, 26),
    ("edge-coloring/create-graph", true, 0, 24),
    ("connectedness/connectedness", false, 0, 5),
    ("connectedness/connect", false, 0, 20),
    ("connectedness/multiple-components", false, 0, 10),
    ("connectedness/negative-points", false, 0, 20),
    ("connectedness/3x3", false, 0, 20),
    ("eulerian/cycles", true, 0, 10),
    ("eulerian/add-edges-cycle", true, -20, 44),
    ("eulerian/paths", true, 0, 9),
    ("eulerian/add-edges-path", true, -20, 56),
    ("eulerian/double-add-one", true, 0, 46),
    ("editor/graph-editor", true, 0, 1),
];

#[test]
fn corpus_start_states_evaluate_as_the_game_scores_them() {
    let Some(levels) = corpus_levels() else {
        return;
    };
    for ((name, path), &(want, valid, total, objective)) in levels.iter().zip(&START_TABLE) {
        assert_eq!(name, want);
        let p = read_level(path).unwrap();
        let ev = evaluate(&p.doc, &EvalOptions::default()).unwrap();
        assert_eq!(
            (ev.valid, ev.total, ev.objective, ev.complete),
            (valid, total, objective, false),
            "{name}"
        );
    }
}

#[test]
fn corpus_solutions_complete_their_levels() {
    let Some(corpus) = corpus() else {
        return;
    };
    // vertex-coloring: top red, top-l green, top-r blue, bot-l red, bot-r red? bot-r touches
    // top-l (green), top-r (blue) and bot-l: so bot-l blue, bot-r red.
    let p = read_level(&corpus.join("vertex-coloring/vertex-coloring.xml")).unwrap();
    let mut doc = p.doc.clone();
    for (v, c) in doc
        .vertices
        .iter_mut()
        .zip(["red", "green", "blue", "blue", "red"])
    {
        v.color = Some(c.to_string());
    }
    let ev = evaluate(&doc, &EvalOptions::default()).unwrap();
    assert!(ev.complete, "{ev:?}");
    // cycles: an Eulerian cycle through all 10 edges, by index.
    let p = read_level(&corpus.join("eulerian/cycles.xml")).unwrap();
    // Edges: 0 tl-tr, 1 tl-bl, 2 tl-bm, 3 tl-br, 4 tm-bl, 5 tm-br, 6 tr-bl, 7 tr-bm, 8 tr-br,
    // 9 bl-br. Walk tl-tr-bm-tl-bl-tm-br-tr-bl-br-tl.
    let walk: Vec<String> = [0, 7, 2, 1, 4, 5, 8, 6, 9, 3]
        .iter()
        .map(|i| i.to_string())
        .collect();
    let opts = EvalOptions {
        path: Some(&walk),
        ..EvalOptions::default()
    };
    let ev = evaluate(&p.doc, &opts).unwrap();
    assert_eq!((ev.path_score, ev.total, ev.complete), (Some(10), 10, true));
    // double-add-one: blue doubles, red adds one.
    let p = read_level(&corpus.join("eulerian/double-add-one.xml")).unwrap();
    let walk: Vec<String> = ["0", "9"].iter().map(|s| s.to_string()).collect();
    let opts = EvalOptions {
        path: Some(&walk),
        ..EvalOptions::default()
    };
    assert_eq!(evaluate(&p.doc, &opts).unwrap().path_score, Some(2));
}

/// `file:line:col: message` of parsing `text`.
fn parse_err(text: &str) -> String {
    parse_level(text, "bad.xml").unwrap_err().to_string()
}

const COLORS: &str = "<colors>\n    <color color=\"#FF0000\" name=\"red\"/>\n</colors>\n";

#[test]
fn errors_name_file_line_and_column() {
    let cases: &[(&str, &str)] = &[
        (
            "<levle/>",
            "bad.xml:1:1: unknown element <levle> in the top level",
        ),
        (
            "<graph>\n  <vertx/>\n</graph>",
            "bad.xml:2:3: unknown element <vertx> in <graph>",
        ),
        (
            "<rules>\n <edge-rules/>\n</rules>",
            "bad.xml:2:2: unknown element <edge-rules> in <rules>",
        ),
        (
            "<values><vr id=\"a\"/></values>",
            "bad.xml:1:9: unknown element <vr> in <values>",
        ),
        (
            "<colors>\n  <color name=\"red\"/>\n</colors>",
            "bad.xml:2:3: <color> is missing the required attribute `color`",
        ),
        (
            "<colors>\n  <color color=\"#F00\" name=\"red\"/>\n</colors>",
            "bad.xml:2:10: bad color `#F00`",
        ),
        (
            "<colors>\n  <color color=\"#FF0000\" name=\"red\"/><color color=\"#00FF00\" name=\"red\"/>\n</colors>",
            "bad.xml:2:61: duplicate color name `red` (first defined at 2:3)",
        ),
        (
            "<graph>\n<vertex id=\"a\"/>\n</graph>",
            "bad.xml:2:1: the graph has items but <colors> defines no color",
        ),
    ];
    for (text, want) in cases {
        let e = parse_err(text);
        assert!(e.starts_with(want), "{text}\n got: {e}\nwant: {want}");
    }
}

#[test]
fn graph_errors_name_the_attribute() {
    let cases: &[(&str, &str)] = &[
        (
            "<graph>\n<vertex id=\"a\" color=\"pink\"/>\n</graph>",
            "bad.xml:5:16: unknown color `pink` (defined colors: red)",
        ),
        (
            "<graph>\n<vertex id=\"a\"/>\n<edge v1=\"a\" v2=\"b\"/>\n</graph>",
            "bad.xml:6:14: edge to unknown vertex `b`",
        ),
        (
            "<graph>\n<vertex id=\"a\"/>\n<edge v2=\"a\"/>\n</graph>",
            "bad.xml:6:1: <edge> is missing the required attribute `v1`",
        ),
        (
            "<graph>\n<vertex id=\"a\"/>\n<vertex id=\"a\"/>\n</graph>",
            "bad.xml:6:9: duplicate vertex id `a` (first defined at 5:1)",
        ),
        (
            "<graph>\n<vertex id=\"a\"/>\n<edge v1=\"a\" v2=\"a\" id=\"e\"/><edge v1=\"a\" v2=\"a\" id=\"e\"/>\n</graph>",
            "bad.xml:6:49: duplicate edge id `e` (first defined at 6:1)",
        ),
        (
            "<graph>\n<vertex x=\"left\"/>\n</graph>",
            "bad.xml:5:9: `x` = \"left\" is not an integer",
        ),
        (
            "<graph>\n<vertex protect=\"cx\"/>\n</graph>",
            "bad.xml:5:9: unknown protection `x`",
        ),
        (
            "<rules>\n<vertex-maximum color=\"pink\"/>\n</rules>",
            "bad.xml:5:17: unknown color `pink`",
        ),
        (
            "<values>\n<op id=\"a\" op=\"^\"/>\n</values>",
            "bad.xml:5:12: unknown operation `^`",
        ),
        (
            "<values>\n<var val=\"1\"/>\n</values>",
            "bad.xml:5:1: <var> is missing the required attribute `id`",
        ),
        (
            "<path>\n<edge color=\"pink\" op=\"+\"/>\n</path>",
            "bad.xml:5:7: unknown color `pink`",
        ),
        (
            "<cycle>\n<edge op=\"x\"/>\n</cycle>",
            "bad.xml:5:7: unknown operation `x` (expected one of: + - * / %)",
        ),
        (
            "<rules/>\n<rules/>",
            "bad.xml:5:1: <rules> appears twice (first at 4:1)",
        ),
        ("<rules/>\nstray", "bad.xml:5:1: unexpected text `stray`"),
        (
            "<rules>\n<connected/>\n",
            "bad.xml:4:1: XML syntax: <rules> is never closed",
        ),
        ("<rules>\n</graph>", "bad.xml:5:"),
    ];
    for (body, want) in cases {
        let text = format!("{COLORS}{body}");
        let e = parse_err(&text);
        assert!(e.starts_with(want), "{text}\n got: {e}\nwant: {want}");
    }
}

#[test]
fn defaults_and_leniencies_of_the_game_are_kept() {
    let text = format!(
        "<?xml version=\"1.0\"?>\n<!-- a comment -->\n{COLORS}<graph>\n\
         <vertex x=\"12px\" id=\"\"/>\n<vertex id=\"b\" origin=\"\" protect=\"\"/>\n\
         <edge v1=\"b\" v2=\"b\" unknown=\"kept out\"/>\n<edge v1=\"b\" v2=\"b\"/>\n</graph>\n\
         <rules><edge-rule v1=\"any\" edge=\"same\"/></rules>\n\
         <values><comment>free text &amp; more</comment></values>"
    );
    let p = parse_level(&text, "ok.xml").unwrap();
    let d = &p.doc;
    assert_eq!((d.vertices[0].x, d.vertices[0].y), (12, 0));
    assert_eq!(d.vertices[0].id, None, "an empty id is no id");
    assert!(d.vertices[1].origin && !d.vertices[0].origin);
    assert_eq!(d.edges.len(), 2, "self-loops and duplicate edges are kept");
    assert_eq!(
        d.rules,
        [Rule::EdgeBan {
            v1: ColorSel::Any,
            edge: ColorSel::Same,
            v2: ColorSel::Any
        }]
    );
    assert_eq!(
        d.values,
        [ValueNode::Comment {
            text: "free text & more".into()
        }]
    );
    assert_eq!(p.map.vertices[1], Pos { line: 8, col: 1 });
    let again = parse_level(&write_level(d), "w").unwrap();
    assert_eq!(&again.doc, d);
}

// ---------------------------------------------------------------------------------------------
// Generated models round-trip.

fn name() -> impl Strategy<Value = String> {
    "[a-z][a-z0-9_-]{0,6}"
}

fn text() -> impl Strategy<Value = String> {
    // Quotes, ampersands, angle brackets, newlines, tabs and `;` all survive a round trip.
    "[ -~\n\t;é]{0,20}"
}

fn expr() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        name(),
        (-99i64..99).prop_map(|v| v.to_string())
    ]
}

fn op() -> impl Strategy<Value = Op> {
    (0..Op::ALL.len()).prop_map(|i| Op::ALL[i].0)
}

fn value_node() -> impl Strategy<Value = ValueNode> {
    prop_oneof![
        (name(), expr()).prop_map(|(id, val)| ValueNode::Var { id, val }),
        (name(), op(), expr(), expr()).prop_map(|(id, op, val1, val2)| ValueNode::Op {
            id,
            op,
            val1,
            val2
        }),
        (name(), op(), name()).prop_map(|(id, op, val)| ValueNode::Map { id, op, val }),
        (name(), op(), name(), name()).prop_map(|(id, op, val1, val2)| ValueNode::Zip {
            id,
            op,
            val1,
            val2
        }),
        (name(), op(), name(), expr()).prop_map(|(id, op, val, start)| ValueNode::Fold {
            id,
            op,
            val,
            start
        }),
        name().prop_map(|file| ValueNode::Include { file }),
        text().prop_map(|t| ValueNode::Comment {
            text: t.trim().to_string()
        }),
    ]
}

fn protect() -> impl Strategy<Value = Protect> {
    (0u8..16).prop_map(|bits| {
        Protect::LETTERS
            .iter()
            .enumerate()
            .filter(|(i, _)| bits & (1 << i) != 0)
            .fold(Protect::none(), |p, (_, &(_, f))| p.with(f))
    })
}

prop_compose! {
    fn level()(
        ncolors in 1usize..5,
        nvertices in 0usize..8,
        title in proptest::option::of(text()),
        description in proptest::option::of(text()),
        objective in proptest::option::of(text()),
        vp in proptest::option::of(protect()),
        ep in proptest::option::of(protect()),
        values in proptest::collection::vec(value_node(), 0..6),
        seeds in proptest::collection::vec(any::<u64>(), 40),
    ) -> LevelDoc {
        let mut r = seeds.into_iter().cycle();
        let mut next = move |n: u64| r.next().unwrap() % n;
        let colors: Vec<Color> = (0..ncolors)
            .map(|i| Color {
                name: format!("c{i}"),
                rgba: next(u64::from(u32::MAX)) as u32,
                vertex_points: next(7) as i64 - 3,
                edge_points: next(5) as i64 - 2,
            })
            .collect();
        let color = |next: &mut dyn FnMut(u64) -> u64| match next(ncolors as u64 + 1) {
            0 => None,
            k => Some(format!("c{}", k - 1)),
        };
        let vertices: Vec<Vertex> = (0..nvertices)
            .map(|i| Vertex {
                x: next(800) as i64 - 100,
                y: next(800) as i64,
                id: Some(format!("v{i}")),
                color: color(&mut next),
                origin: next(3) == 0,
                protect: Protect::from_letters(["", "c", "ad", "acde"][next(4) as usize]).unwrap(),
            })
            .collect();
        let nedges = if nvertices == 0 { 0 } else { next(10) as usize };
        let edges: Vec<Edge> = (0..nedges)
            .map(|i| Edge {
                v1: format!("v{}", next(nvertices as u64)),
                v2: format!("v{}", next(nvertices as u64)),
                id: (next(2) == 0).then(|| format!("e{i}")),
                color: color(&mut next),
                protect: Protect::from_letters(["", "c", "acd"][next(3) as usize]).unwrap(),
            })
            .collect();
        let sel = |next: &mut dyn FnMut(u64) -> u64| match next(ncolors as u64 + 2) {
            0 => ColorSel::Any,
            1 => ColorSel::Same,
            k => ColorSel::Named(format!("c{}", k - 2)),
        };
        let rules: Vec<Rule> = (0..next(5))
            .map(|_| match next(3) {
                0 => Rule::Connected,
                1 => Rule::Count {
                    item: if next(2) == 0 { Item::Vertex } else { Item::Edge },
                    bound: if next(2) == 0 { Bound::Min } else { Bound::Max },
                    color: sel(&mut next),
                    limit: next(9) as i64,
                },
                _ => Rule::EdgeBan {
                    v1: sel(&mut next),
                    edge: sel(&mut next),
                    v2: sel(&mut next),
                },
            })
            .collect();
        let paths: Vec<PathSpec> = (0..next(3))
            .map(|k| PathSpec {
                cycle: k % 2 == 1,
                points: next(20) as i64 - 5,
                rules: (0..next(3))
                    .map(|_| PathRule {
                        color: match next(ncolors as u64 + 1) {
                            0 => None,
                            c => Some(format!("c{}", c - 1)),
                        },
                        op: PathOp::ALL[next(5) as usize].0,
                        val: next(9) as i64 - 4,
                    })
                    .collect(),
            })
            .collect();
        LevelDoc {
            title,
            description,
            objective,
            vertex_protect: vp,
            edge_protect: ep,
            colors,
            vertices,
            edges,
            rules,
            values,
            paths,
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn generated_levels_round_trip(doc in level()) {
        let text = write_level(&doc);
        let again = parse_level(&text, "gen.xml").map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(again.doc, doc);
    }
}

/// Elements nested far deeper than the format's three levels are refused with their place.
#[test]
fn deep_nesting_is_refused() {
    let text = format!("{}{}", "<a>".repeat(100), "</a>".repeat(100));
    let e = parse_level(&text, "deep.xml").unwrap_err().to_string();
    assert!(e.starts_with("deep.xml:1:"), "{e}");
    assert!(e.contains("nested more than 64 deep"), "{e}");
}
