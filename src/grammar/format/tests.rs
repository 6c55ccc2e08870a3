//! Tests of `format.rs`.

use super::*;
use crate::core::rng::WarrenRng;

/// The example of the module documentation, verbatim.
const EXAMPLE: &str = r#"# comment to end of line (anywhere)
grammar "Branching dungeon"          # optional, at most once: a display name
room default 30 30                   # room size (width height, layout units) for tags without their own
room a 40 30                         # room size for tag `a`

rule start weight 1 max 1 min 0      # name (identifier), then options in any order, each optional
pattern
  S: s @ 0, 0
substitute
  S: a @ 0, 0
  B: b @ 100, 0
  S - B
end

rule grow weight 2.5
pattern
  A: a|b @ 0, 0 lock !c|d            # tag set with `|`; `*` = any; flags: `lock`, `!TAGSET` (blocked neighbour)
  B: * @ 100, 0
  A - B
  A - B cosmetic                     # parallel edges allowed syntactically
substitute
  A: a @ 0, 0
  B: * @ 100, 0                      # `*` in a substitute: keep the host's tag (mapped vertices only)
  C: c @ 50, 80
  A - C subdivide
  C - B length 0.5                   # explicit length factor; may combine with `cosmetic` or `subdivide`
end
"#;

fn pos(line: u32, col: u32) -> Pos {
    Pos { line, col }
}

fn parsed(text: &str) -> RuleFile {
    match parse(text, "t") {
        Ok(file) => file,
        Err(e) => panic!("unexpected errors:\n{e}"),
    }
}

/// The error messages of parsing `text` (as `t:line:col: error: ...`).
fn errors(text: &str) -> Vec<String> {
    match parse(text, "t") {
        Ok(_) => panic!("expected errors from:\n{text}"),
        Err(GrammarError::Syntax(d)) => d.iter().map(Diagnostic::to_string).collect(),
        Err(e) => panic!("not a syntax error: {e}"),
    }
}

/// Asserts one error starts with `head` (`t:line:col: error: ...`) and contains `fragment`.
fn assert_error(text: &str, head: &str, fragment: &str) {
    let e = errors(text);
    assert!(
        e.iter()
            .any(|m| m.starts_with(head) && m.contains(fragment)),
        "no error `{head}...{fragment}` in {e:#?}"
    );
}

/// A copy of `g` with every recorded position cleared.
fn without_pos(g: &Grammar) -> Grammar {
    let mut g = g.clone();
    g.source.clear();
    for r in &mut g.rules {
        r.at = Pos::default();
        r.pattern
            .vertices
            .iter_mut()
            .for_each(|v| v.at = Pos::default());
        r.substitute
            .vertices
            .iter_mut()
            .for_each(|v| v.at = Pos::default());
        r.pattern
            .edges
            .iter_mut()
            .for_each(|e| e.at = Pos::default());
        r.substitute
            .edges
            .iter_mut()
            .for_each(|e| e.at = Pos::default());
    }
    g
}

fn assert_round_trip(file: &RuleFile) {
    let text = write(&file.grammar, file.name.as_deref());
    let back = parse(&text, "again").unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.name, file.name, "{text}");
    assert_eq!(
        without_pos(&back.grammar),
        without_pos(&file.grammar),
        "{text}"
    );
}

/// The example's tag ids, in order of first use: `s`, `a`, `b`, `c`, `d`.
const EXAMPLE_TAGS: [TagId; 5] = [0, 1, 2, 3, 4];

#[test]
fn the_example_header_names_the_grammar_its_tags_and_room_sizes() {
    let file = parsed(EXAMPLE);
    let g = &file.grammar;
    assert_eq!(file.name.as_deref(), Some("Branching dungeon"));
    assert_eq!(g.source, "t");
    assert_eq!(g.tags.names(), ["s", "a", "b", "c", "d"]);
    let [_, a, b, _, _] = EXAMPLE_TAGS;
    assert_eq!(g.default_room, RoomSize { w: 30.0, h: 30.0 });
    assert_eq!(g.room(a), RoomSize { w: 40.0, h: 30.0 });
    assert_eq!(g.room(b), g.default_room);
    assert_eq!(g.rules.len(), 2);
}

#[test]
fn the_example_start_rule_is_read_exactly() {
    let g = parsed(EXAMPLE).grammar;
    let [s, a, b, _, _] = EXAMPLE_TAGS;
    let start = &g.rules[0];
    assert_eq!(start.name, "start");
    assert_eq!(
        (start.weight, start.max_uses, start.min_uses),
        (1.0, Some(1), 0)
    );
    assert_eq!(start.at, pos(6, 1));
    assert_eq!(start.pattern.vertices.len(), 1);
    let sv = &start.pattern.vertices[0];
    assert_eq!(
        (sv.name.as_str(), sv.x, sv.y, sv.at),
        ("S", 0.0, 0.0, pos(8, 3))
    );
    assert_eq!(sv.tags, TagSet::Of(vec![s]));
    assert!(start.pattern.edges.is_empty());
    let subs: Vec<_> = start
        .substitute
        .vertices
        .iter()
        .map(|v| (v.name.as_str(), v.tag, v.x, v.y))
        .collect();
    assert_eq!(subs, [("S", Some(a), 0.0, 0.0), ("B", Some(b), 100.0, 0.0)]);
    assert_eq!(
        start.substitute.edges,
        [RuleEdge {
            a: 0,
            b: 1,
            kind: EdgeKind::Normal,
            length: None,
            at: pos(12, 3)
        }]
    );
    assert_eq!(start.map, [0]);
}

#[test]
fn the_example_grow_rule_pattern_reads_tag_sets_locks_blocks_and_edge_kinds() {
    let g = parsed(EXAMPLE).grammar;
    let [_, a, b, c, d] = EXAMPLE_TAGS;
    let grow = &g.rules[1];
    assert_eq!(grow.name, "grow");
    assert_eq!((grow.weight, grow.max_uses, grow.min_uses), (2.5, None, 0));
    assert_eq!(grow.at, pos(15, 1));
    let (pa, pb) = (&grow.pattern.vertices[0], &grow.pattern.vertices[1]);
    assert_eq!(pa.tags, TagSet::Of(vec![a, b]));
    assert!(pa.lock);
    assert_eq!(pa.blocked, Some(TagSet::Of(vec![c, d])));
    assert_eq!(pa.at, pos(17, 3));
    assert_eq!(pb.tags, TagSet::Any);
    assert!(!pb.lock && pb.blocked.is_none());
    assert_eq!((pb.x, pb.y), (100.0, 0.0));
    let kinds: Vec<_> = grow
        .pattern
        .edges
        .iter()
        .map(|e| (e.a, e.b, e.kind))
        .collect();
    assert_eq!(
        kinds,
        [(0, 1, EdgeKind::Normal), (0, 1, EdgeKind::Cosmetic)]
    );
    assert_eq!(grow.pattern.edges[1].at, pos(20, 3));
}

#[test]
fn the_example_grow_rule_substitute_reads_star_tags_subdivide_and_lengths() {
    let g = parsed(EXAMPLE).grammar;
    let [_, a, _, c, _] = EXAMPLE_TAGS;
    let grow = &g.rules[1];
    let subs: Vec<_> = grow
        .substitute
        .vertices
        .iter()
        .map(|v| (v.name.as_str(), v.tag, v.x, v.y))
        .collect();
    assert_eq!(
        subs,
        [
            ("A", Some(a), 0.0, 0.0),
            ("B", None, 100.0, 0.0),
            ("C", Some(c), 50.0, 80.0)
        ]
    );
    let edges: Vec<_> = grow
        .substitute
        .edges
        .iter()
        .map(|e| (e.a, e.b, e.kind, e.length))
        .collect();
    assert_eq!(
        edges,
        [
            (0, 2, EdgeKind::Subdivide, None),
            (2, 1, EdgeKind::Normal, Some(0.5))
        ]
    );
    assert_eq!(grow.substitute.edges[1].at, pos(26, 3));
    assert_eq!(grow.map, [0, 1]);
}

#[test]
fn the_parsed_example_passes_check() {
    let g = parsed(EXAMPLE).grammar;
    assert_eq!(g.check(), vec![]);
    assert!(g.validate().is_ok());
}

#[test]
fn the_map_follows_names_not_order() {
    let text = "rule r\npattern\n  X: a @ 0, 0\n  Y: b @ 1, 0\n  X - Y\nsubstitute\n  \
                    N: c @ 0, 1\n  Y: b @ 1, 0\n  X: a @ 0, 0\n  X - N\n  N - Y\nend\n";
    let g = parsed(text).grammar;
    assert_eq!(g.rules[0].map, [2, 1]);
    assert_eq!(g.rules[0].fresh(), [true, false, false]);
}

#[test]
fn names_may_be_digits_quoted_or_keywords() {
    let text = "tags 7\nrule \"rule 3\"\npattern\n  1: 7 @ 0, 0\n  end: \"dead-end\" @ 1, 0\n  \
                    1 - end\nsubstitute\n  1: * @ 0, 0\n  end: 7 @ 1, 0\n  \"a b\": 7 @ 2, 0\n  \
                    end - \"a b\"\n  1 - end\nend\n";
    let g = parsed(text).grammar;
    assert_eq!(g.tags.names(), ["s", "7", "dead-end"]);
    let r = &g.rules[0];
    assert_eq!(r.name, "rule 3");
    assert_eq!(r.pattern.vertices[1].name, "end");
    assert_eq!(r.substitute.vertices[2].name, "a b");
    assert_eq!(r.map, [0, 1]);
    assert_eq!(r.substitute.edges[0].a, 1);
}

#[test]
fn numbers_take_signs_points_and_exponents() {
    let text = "rule r\npattern\n  A: a @ -1.5e2, +.25\nsubstitute\n  A: a @ 3E-1, 5.\nend\n";
    let g = parsed(text).grammar;
    let (p, s) = (
        &g.rules[0].pattern.vertices[0],
        &g.rules[0].substitute.vertices[0],
    );
    assert_eq!((p.x, p.y, s.x, s.y), (-150.0, 0.25, 0.3, 5.0));
}

#[test]
fn unknown_keywords_are_errors() {
    assert_error(
        "rooms a 1 1\n",
        "t:1:1: error: ",
        "unknown keyword `rooms` (expected `grammar`, `tags`, `room` or `rule`)",
    );
    assert_error(
        "rule r\npattern\n  A: a @ 0, 0\n  subsitute\nend\n",
        "t:4:3: error: rule `r`: ",
        "unknown keyword `subsitute`",
    );
    assert_error("end\n", "t:1:1: error: ", "`end` outside a rule");
    assert_error(
        "rule r weigth 2\npattern\nsubstitute\nend\n",
        "t:1:8: error: rule `r`: ",
        "unknown rule option `weigth`",
    );
    assert_error(
        "rule r\nA: a @ 0, 0\nsubstitute\nA: a @ 0, 0\nend\n",
        "t:2:1: error: rule `r`: ",
        "expected `pattern` after the `rule` line, found `A:`",
    );
}

#[test]
fn a_missing_at_sign_is_an_error() {
    assert_error(
        "rule r\npattern\n  A: a 0, 0\nsubstitute\n  A: a @ 0, 0\nend\n",
        "t:3:8: error: rule `r`, vertex `A`: ",
        "expected `@` and the position `X, Y` after the tags, found `0,`",
    );
}

#[test]
fn bad_numbers_are_errors() {
    assert_error(
        "rule r\npattern\n  A: a @ 1x, 0\nsubstitute\n  A: a @ 0, 0\nend\n",
        "t:3:10: error: rule `r`, vertex `A`: ",
        "bad number `1x` for the x coordinate",
    );
    assert_error(
        "rule r\npattern\n  A: a @ 0, 1e39\nsubstitute\n  A: a @ 0, 0\nend\n",
        "t:3:13: error: rule `r`, vertex `A`: ",
        "out of range",
    );
    assert_error("room a 1 nan\n", "t:1:10: error: ", "bad number `nan`");
    assert_error(
        "rule r max -1\npattern\nsubstitute\nend\n",
        "t:1:12: error: rule `r`: ",
        "bad number `-1` for `max` (expected a non-negative integer)",
    );
    assert_error(
        "rule r weight\npattern\nsubstitute\nend\n",
        "t:1:14: error: rule `r`: ",
        "expected the weight (a number), found the end of the line",
    );
    assert_error(
        "rule r\npattern\n  A: a @ 0 0\nsubstitute\n  A: a @ 0, 0\nend\n",
        "t:3:12: error: rule `r`, vertex `A`: ",
        "expected `,` between the x and y coordinates",
    );
}

#[test]
fn duplicate_vertex_names_are_errors() {
    assert_error(
        "rule r\npattern\n  A: a @ 0, 0\n  A: b @ 1, 0\nsubstitute\n  A: a @ 0, 0\nend\n",
        "t:4:3: error: rule `r`, vertex `A`: ",
        "duplicate vertex name `A` in the pattern (the first is at 3:3)",
    );
    assert_error(
        "rule r\npattern\n  A: a @ 0, 0\nsubstitute\n  A: a @ 0, 0\n  A: b @ 1, 0\nend\n",
        "t:6:3: error: rule `r`, vertex `A`: ",
        "duplicate vertex name `A` in the substitute (the first is at 5:3)",
    );
}

#[test]
fn edges_must_name_known_vertices() {
    assert_error(
        "rule r\npattern\n  A: a @ 0, 0\n  A - Q\nsubstitute\n  A: a @ 0, 0\nend\n",
        "t:4:7: error: rule `r`: ",
        "edge `A - Q` names `Q`, which is not a vertex of the pattern",
    );
    assert_error(
        "rule r\npattern\n  A: a @ 0, 0\nsubstitute\n  A: a @ 0, 0\n  Z - A\nend\n",
        "t:6:3: error: rule `r`: ",
        "names `Z`, which is not a vertex of the substitute",
    );
    assert_error(
        "rule r\npattern\n  A: a @ 0, 0\nsubstitute\n  A: a @ 0, 0\n  A - A cosmetic subdivide\nend\n",
        "t:6:18: error: rule `r`: ",
        "either `cosmetic` or `subdivide`, not both",
    );
    assert_error(
        "rule r\npattern\n  A: a @ 0, 0\nsubstitute\n  A: a @ 0, 0\n  A - A long 2\nend\n",
        "t:6:9: error: rule `r`: ",
        "unknown edge option `long`",
    );
}

#[test]
fn every_pattern_vertex_needs_a_namesake() {
    assert_error(
        "rule r\npattern\n  A: a @ 0, 0\n  B: a @ 1, 0\n  A - B\nsubstitute\n  A: a @ 0, 0\nend\n",
        "t:4:3: error: rule `r`, vertex `B`: ",
        "pattern vertex `B` has no substitute vertex of the same name (every pattern vertex must map to one)",
    );
}

#[test]
fn pattern_flags_are_errors_in_substitutes() {
    assert_error(
        "rule r\npattern\n  A: a @ 0, 0\nsubstitute\n  A: a @ 0, 0 lock\nend\n",
        "t:5:15: error: rule `r`, vertex `A`: ",
        "`lock` is for pattern vertices only",
    );
    assert_error(
        "rule r\npattern\n  A: a @ 0, 0\nsubstitute\n  A: a @ 0, 0 !b\nend\n",
        "t:5:15: error: rule `r`, vertex `A`: ",
        "`!TAGS` (blocked neighbours) is for pattern vertices only",
    );
}

#[test]
fn substitute_tag_sets_are_errors() {
    assert_error(
        "rule r\npattern\n  A: a @ 0, 0\nsubstitute\n  A: a|b @ 0, 0\nend\n",
        "t:5:7: error: rule `r`, vertex `A`: ",
        "a substitute vertex takes exactly one tag or `*`, not a set with `|`",
    );
}

#[test]
fn duplicate_rule_names_are_errors() {
    let body = "pattern\n  A: a @ 0, 0\nsubstitute\n  A: a @ 0, 0\nend\n";
    assert_error(
        &format!("rule r\n{body}rule r\n{body}"),
        "t:7:6: error: rule `r`: ",
        "duplicate rule name `r` (the first is at 1:6)",
    );
}

#[test]
fn a_missing_end_is_an_error() {
    assert_error(
        "rule r\npattern\n  A: a @ 0, 0\nsubstitute\n  A: a @ 0, 0\n",
        "t:6:1: error: rule `r`: ",
        "expected `end` to close rule `r` (opened at 1:1) before the end of the file",
    );
    assert_error(
        "rule r\npattern\n  A: a @ 0, 0\nsubstitute\n  A: a @ 0, 0",
        "t:5:14: error: rule `r`: ",
        "expected `end`",
    );
    assert_error(
        "rule q\npattern\n  A: a @ 0, 0\nsubstitute\n  A: a @ 0, 0\nrule r\npattern\nsubstitute\nend\n",
        "t:6:1: error: rule `q`: ",
        "expected `end` before the next `rule` line (rule `q` is not closed)",
    );
    assert_error(
        "rule r\npattern\n  A: a @ 0, 0\nend\n",
        "t:4:1: error: rule `r`: ",
        "expected `substitute`",
    );
    // The top-level line after an unclosed rule is still read.
    let e = errors("rule r\npattern\n  A: a @ 0, 0\nsubstitute\n  A: a @ 0, 0\nroom a 0 1\n");
    assert_eq!(e.len(), 2, "{e:#?}");
    assert!(e[0].starts_with("t:6:1: error: rule `r`: expected `end` before the next `room` line"));
    assert!(e[1].starts_with("t:6:8: error: the room width must be positive"));
}

#[test]
fn rooms_must_be_positive() {
    assert_error(
        "room a 0 30\n",
        "t:1:8: error: ",
        "the room width must be positive (found 0)",
    );
    assert_error(
        "room default 30 -2.5\n",
        "t:1:17: error: ",
        "the room height must be positive (found -2.5)",
    );
    assert_error(
        "room a 1 1\nroom a 2 2\n",
        "t:2:6: error: ",
        "a second room size for `a` (the first is at 1:6)",
    );
}

#[test]
fn a_second_grammar_line_is_an_error() {
    assert_error(
        "grammar \"one\"\n\ngrammar \"two\"\n",
        "t:3:1: error: ",
        "a second `grammar` line (the grammar is already named at 1:1",
    );
    assert_error(
        "grammar one\n",
        "t:1:9: error: ",
        "expected the grammar's display name in double quotes, found `one`",
    );
    assert_error("grammar \"open\n", "t:1:9: error: ", "unterminated string");
}

#[test]
fn bad_names_are_errors() {
    assert_error(
        "rule r\npattern\n  1a: a @ 0, 0\nsubstitute\nend\n",
        "t:3:3: error: rule `r`: ",
        "bad name `1a`",
    );
    assert_error(
        "tags a \"b\\q\"\n",
        "t:1:10: error: ",
        "unknown escape `\\q`",
    );
}

#[test]
fn several_errors_are_reported_at_once() {
    let text = "room a 0 1\nrule r\npattern\n  A: a @ x, 0\n  A - Q\nsubstitute\n  \
                    A: a|b @ 0, 0\nend\nbogus\n";
    let e = errors(text);
    assert_eq!(e.len(), 5, "{e:#?}");
    let heads: Vec<_> = e
        .iter()
        .map(|m| m.split(": ").next().unwrap_or(""))
        .collect();
    assert_eq!(heads, ["t:1:8", "t:4:10", "t:5:7", "t:7:7", "t:9:1"]);
}

#[test]
fn write_of_the_example_parses_back() {
    assert_round_trip(&parsed(EXAMPLE));
}

#[test]
fn round_trips_every_feature() {
    let text = r#"
grammar "The \"full\" \\ tour # not a comment"
tags s z 12 "dash-tag" default lock
room default 0.1 1e-7
room 12 340282350000000000000000000000000000000 3
room "default" 2 2
room "dash-tag" 0.3 0.7

rule start weight 0.1 max 3 min 1
pattern
  S: s @ -0, 0.1
substitute
  S: z @ 1.5, -2.25
  2: 12 @ 100, 0
  S - 2 length 1.25
  S - 2 cosmetic
end

rule "rule 3" min 4 weight 3.4028235e38
pattern
  1: z|12 @ 0, 0 !lock|default lock
  2: * @ 100, 0 lock
  end: "dash-tag" @ 7, 7 !*
  1 - 2
  2 - end cosmetic
  1 - 2 subdivide length 2
substitute
  end: default @ 7, 7
  1: * @ 0, 0
  x_y: lock @ -0.000001, 1e-30
  2: z @ 100, 0
  1 - x_y subdivide
  x_y - 2
  end - 2 cosmetic length 0.5
  2 - end
end
"#;
    let file = parsed(text);
    let g = &file.grammar;
    assert_eq!(
        g.tags.names(),
        ["s", "z", "12", "dash-tag", "default", "lock"]
    );
    assert_eq!(g.rules[1].map, [1, 3, 0]);
    assert_eq!(g.rules[1].pattern.vertices[2].blocked, Some(TagSet::Any));
    assert_eq!(g.default_room, RoomSize { w: 0.1, h: 1e-7 });
    assert_eq!(g.room(2).w, f32::MAX);
    assert_eq!(g.room(4), RoomSize { w: 2.0, h: 2.0 });
    assert_eq!(
        file.name.as_deref(),
        Some(r#"The "full" \ tour # not a comment"#)
    );
    assert_round_trip(&file);
}

#[test]
fn round_trip_keeps_tag_ids_of_unused_tags() {
    let mut g = Grammar::new("code");
    for t in ["q", "p", "unused", "with space"] {
        g.tags.intern(t);
    }
    g.set_room(3, RoomSize { w: 1.0, h: 2.0 });
    let file = RuleFile {
        grammar: g,
        name: None,
    };
    assert_round_trip(&file);
}

#[test]
fn write_renames_vertices_whose_names_do_not_encode_the_map() {
    // Imported style: both graphs numbered from 1, the map crossing them over.
    let mut g = parsed(EXAMPLE).grammar;
    let r = &mut g.rules[1];
    for (i, v) in r.pattern.vertices.iter_mut().enumerate() {
        v.name = (i + 1).to_string();
    }
    for (i, v) in r.substitute.vertices.iter_mut().enumerate() {
        v.name = (i + 1).to_string();
    }
    // Substitute order C, B, A: pattern 1 -> 3, 2 -> 2; fresh vertex named 1.
    r.substitute.vertices.reverse();
    for (i, v) in r.substitute.vertices.iter_mut().enumerate() {
        v.name = (i + 1).to_string();
    }
    for e in &mut r.substitute.edges {
        e.a = 2 - e.a;
        e.b = 2 - e.b;
    }
    r.map = vec![2, 1];
    let text = write(&g, None);
    let back = parse(&text, "again")
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .grammar;
    let (a, b) = (&back.rules[1], &g.rules[1]);
    assert_eq!(a.map, b.map, "{text}");
    assert_eq!(a.substitute.edges.len(), b.substitute.edges.len());
    for (x, y) in a.substitute.edges.iter().zip(&b.substitute.edges) {
        assert_eq!((x.a, x.b, x.kind, x.length), (y.a, y.b, y.kind, y.length));
    }
    let names: Vec<_> = a
        .substitute
        .vertices
        .iter()
        .map(|v| v.name.as_str())
        .collect();
    assert_eq!(names, ["1_2", "2", "1"], "{text}");
    for (x, y) in a.substitute.vertices.iter().zip(&b.substitute.vertices) {
        assert_eq!((x.tag, x.x, x.y), (y.tag, y.x, y.y));
    }
    assert_eq!(back.check(), vec![]);
}

#[test]
fn load_reads_files_and_reports_read_errors() {
    let dir = std::env::temp_dir().join(format!("warren_format_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("example.grammar");
    std::fs::write(&path, EXAMPLE).expect("write the example");
    let file = load(&path).expect("the example loads");
    assert_eq!(file.grammar.source, path.display().to_string());
    assert_eq!(
        without_pos(&file.grammar),
        without_pos(&parsed(EXAMPLE).grammar)
    );
    let missing = dir.join("missing.grammar");
    match load(&missing) {
        Err(GrammarError::Read { path, .. }) => assert_eq!(path, missing.display().to_string()),
        other => panic!("expected a read error, got {other:?}"),
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Parses `text` without panicking; a grammar it accepts must survive `check` and a write
/// and parse round trip.
fn parse_never_panics(text: &str) {
    if let Ok(file) = parse(text, "fuzz") {
        let _ = file.grammar.check();
        let again = write(&file.grammar, file.name.as_deref());
        let back = parse(&again, "fuzz").unwrap_or_else(|e| panic!("{e}\n{again}"));
        assert_eq!(without_pos(&back.grammar), without_pos(&file.grammar));
    }
}

#[test]
fn no_panic_on_prefixes() {
    for n in (0..=EXAMPLE.len()).step_by(3) {
        if EXAMPLE.is_char_boundary(n) {
            parse_never_panics(&EXAMPLE[..n]);
        }
    }
}

#[test]
fn no_panic_on_random_byte_flips() {
    const SPECIAL: &[u8] = b" \n\t\r#\"\\:@,-|!*0123456789.eE+_aZ";
    let mut rng = WarrenRng::new(0x5EED_F0A7);
    let base = EXAMPLE.as_bytes();
    for _ in 0..2000 {
        let mut bytes = base.to_vec();
        for _ in 0..1 + rng.below(6) {
            let i = rng.below(bytes.len() as u32) as usize;
            bytes[i] = match rng.below(4) {
                0 => rng.next_u32() as u8,
                1 => SPECIAL[rng.below(SPECIAL.len() as u32) as usize],
                2 => bytes[i] ^ (1 << rng.below(8)),
                _ => b' ',
            };
        }
        parse_never_panics(&String::from_utf8_lossy(&bytes));
    }
}
