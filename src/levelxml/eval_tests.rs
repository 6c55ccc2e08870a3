//! Small levels written for each operation, list operation, include, rule kind, path and cycle,
//! and for each evaluation error.

use std::path::PathBuf;

use super::*;

/// Three colors, a triangle `a-b-c` (edges `ab`, `bc`, `ca`) plus a lone vertex `d`.
const HEAD: &str = r##"<level title="t"/>
<colors>
    <color color="#FF0000" name="red" vertex-points="1" edge-points="10"/>
    <color color="#00FF00" name="green" vertex-points="2"/>
    <color color="#0000FF" name="blue" edge-points="100"/>
</colors>
"##;

const TRIANGLE: &str = r#"<graph>
    <vertex x="0" y="0" id="a" color="red" origin="t"/>
    <vertex x="1" y="0" id="b" color="green"/>
    <vertex x="2" y="0" id="c" color="blue"/>
    <vertex x="3" y="0" id="d" color="red"/>
    <edge v1="a" v2="b" id="ab" color="blue"/>
    <edge v1="b" v2="c" id="bc"/>
    <edge v1="c" v2="a" id="ca" color="blue"/>
</graph>
"#;

fn parsed(body: &str) -> ParsedLevel {
    let text = format!("{HEAD}{TRIANGLE}{body}");
    parse_level(&text, "t.xml").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn run(body: &str, path: Option<&[String]>) -> Result<Evaluation, EvalError> {
    let p = parsed(body);
    let opts = EvalOptions {
        map: Some(&p.map),
        includes: None,
        path,
    };
    evaluate(&p.doc, &opts)
}

/// The value of `x` defined by `defs` (points and objective are added).
fn value_of(defs: &str) -> Result<i64, EvalError> {
    let body = format!(
        "<values>\n{defs}\n<var id=\"points\" val=\"x\"/>\n<var id=\"objective\" val=\"0\"/>\n</values>\n"
    );
    run(&body, None).map(|e| e.points)
}

fn error_of(defs: &str) -> String {
    value_of(defs).unwrap_err().to_string()
}

#[test]
fn every_op_on_numbers() {
    let cases: &[(&str, &str, &str, i64)] = &[
        ("min", "3", "-2", -2),
        ("max", "3", "-2", 3),
        ("+", "3", "4", 7),
        ("-", "3", "4", -1),
        ("*", "-3", "4", -12),
        ("/", "-7", "2", -3),
        ("%", "-7", "2", -1),
        ("=", "2", "2", 1),
        ("=", "2", "3", 0),
        ("!=", "2", "3", 1),
        ("<", "2", "3", 1),
        (">", "2", "3", 0),
        ("<=", "3", "3", 1),
        (">=", "2", "3", 0),
        ("and", "5", "-1", 1),
        ("and", "5", "0", 0),
        ("or", "0", "0", 0),
        ("or", "0", "7", 1),
        ("not", "0", "9", 1),
        ("not", "4", "", 0),
    ];
    for &(op, a, b, want) in cases {
        let def = format!("<op id=\"x\" op=\"{op}\" val1=\"{a}\" val2=\"{b}\"/>");
        assert_eq!(value_of(&def).unwrap(), want, "{def}");
    }
}

#[test]
fn every_graph_op() {
    let cases: &[(&str, &str, &str, i64)] = &[
        ("v1", "ca", "", 2),
        ("v2", "ca", "", 0),
        ("connected", "a", "c", 1),
        ("connected", "c", "a", 1),
        ("connected", "a", "d", 0),
        ("connected", "a", "99", 0),
        ("degree", "a", "", 2),
        ("degree", "d", "", 0),
        ("vertex-color", "a", "", -16776961),
        ("vertex-color", "b", "", 0x00FF_00FF),
        // `bc` has no color attribute: the first color.
        ("edge-color", "bc", "", -16776961),
        ("edge-color", "ab", "", 0x0000_FFFF),
    ];
    for &(op, a, b, want) in cases {
        let def = format!("<op id=\"x\" op=\"{op}\" val1=\"{a}\" val2=\"{b}\"/>");
        assert_eq!(value_of(&def).unwrap(), want, "{def}");
    }
    let e = error_of(r#"<op id="x" op="degree" val1="4"/>"#);
    assert!(e.contains("there is no vertex 4"), "{e}");
    let e = error_of(r#"<op id="x" op="v1" val1="-1"/>"#);
    assert!(e.contains("there is no edge -1"), "{e}");
}

#[test]
fn names_resolve_in_the_games_order() {
    // Numbers: stoi, with junk after the digits ignored; "" is 0.
    assert_eq!(value_of(r#"<var id="x" val="3x3"/>"#).unwrap(), 3);
    assert_eq!(value_of(r#"<var id="x" val=""/>"#).unwrap(), 0);
    // Vertex and edge ids are positions; V and E count.
    assert_eq!(value_of(r#"<var id="x" val="c"/>"#).unwrap(), 2);
    assert_eq!(value_of(r#"<var id="x" val="bc"/>"#).unwrap(), 1);
    assert_eq!(
        value_of(r#"<op id="x" op="*" val1="V" val2="E"/>"#).unwrap(),
        12
    );
    // Reserved names win over values.
    assert_eq!(
        value_of(r#"<var id="V" val="100"/><var id="x" val="V"/>"#).unwrap(),
        4
    );
    // Values win over colors; among values the last wins; order does not matter (lazy).
    assert_eq!(
        value_of(r#"<var id="x" val="red"/><var id="red" val="5"/><var id="red" val="6"/>"#)
            .unwrap(),
        6
    );
    assert_eq!(value_of(r#"<var id="x" val="red"/>"#).unwrap(), -16776961);
    let e = error_of(r#"<var id="x" val="nothing"/>"#);
    assert!(e.starts_with("t.xml:"), "{e}");
    assert!(e.contains("undefined name `nothing`"), "{e}");
    let e = error_of(r#"<var id="x" val="99999999999999999999"/>"#);
    assert!(e.contains("out of range"), "{e}");
}

#[test]
fn edge_ids_shadow_vertex_ids_and_colors_shadow_both() {
    let text = format!(
        "{HEAD}<graph>\n<vertex id=\"red\"/>\n<vertex id=\"s\"/>\n<vertex id=\"t\"/>\n\
         <edge v1=\"t\" v2=\"s\" id=\"s\"/>\n</graph>\n<values>\n\
         <var id=\"points\" val=\"s\"/>\n<var id=\"objective\" val=\"red\"/>\n</values>\n"
    );
    let p = parse_level(&text, "t.xml").unwrap();
    let ev = evaluate(&p.doc, &EvalOptions::default()).unwrap();
    assert_eq!(ev.points, 0, "edge 0 over vertex 1");
    assert_eq!(ev.objective, -16776961, "color over vertex 0");
}

#[test]
fn list_operations() {
    // map passes 0 as val2: `=` against 0 marks vertex 0 only.
    let defs = r#"<map id="m" op="=" val="vertices"/>
        <fold id="x" op="+" val="m"/>"#;
    assert_eq!(value_of(defs).unwrap(), 1);
    // Colors of the vertices, compared with red, counted.
    let defs = r#"<map id="cols" op="vertex-color" val="vertices"/>
        <map id="reds0" op="+" val="cols"/>
        <zip id="isred" op="=" val1="reds0" val2="cols"/>
        <fold id="all" op="+" val="isred"/>
        <map id="degs" op="degree" val="vertices"/>
        <fold id="x" op="+" val="degs" start="all"/>"#;
    // 4 vertices all equal to themselves (4) + degree sum 6.
    assert_eq!(value_of(defs).unwrap(), 10);
    // zip stops at the shorter list: 3 edges against 4 vertices.
    let defs = r#"<zip id="z" op="+" val1="vertices" val2="edges"/>
        <map id="ones" op="not" val="z"/>
        <zip id="both" op="or" val1="ones" val2="z"/>
        <fold id="x" op="+" val="both"/>"#;
    assert_eq!(value_of(defs).unwrap(), 3);
    // fold starts from `start` and does acc = op(acc, elem).
    let defs = r#"<map id="p" op="+" val="edges"/>
        <fold id="x" op="-" val="p" start="10"/>"#;
    // 10 - 0 - 1 - 2.
    assert_eq!(value_of(defs).unwrap(), 7);
    let defs = r#"<fold id="x" op="*" val="edges" start="1"/>"#;
    assert_eq!(value_of(defs).unwrap(), 0);
}

#[test]
fn list_and_number_confusions_are_errors() {
    let e = error_of(r#"<var id="x" val="vertices"/>"#);
    assert!(e.contains("is a list where a number is expected"), "{e}");
    let e = error_of(r#"<op id="x" op="+" val1="vertices" val2="1"/>"#);
    assert!(
        e.contains("`vertices` is a list where a number is expected"),
        "{e}"
    );
    let e = error_of(r#"<map id="m" op="+" val="5"/><fold id="x" op="+" val="m"/>"#);
    assert!(
        e.contains("`5` is a number where a list is expected"),
        "{e}"
    );
}

#[test]
fn crashes_of_the_game_are_errors_with_places() {
    // Division by zero: the line of the <op> (HEAD 6 lines, TRIANGLE 9, <values> 1).
    let e = error_of(r#"<op id="x" op="/" val1="1" val2="0"/>"#);
    assert_eq!(e, "t.xml:17:1: division by zero (`/`) computing `x`");
    assert_eq!(
        value_of(r#"<op id="x" op="%" val1="1" val2="E"/>"#).unwrap(),
        1
    );
    let e = error_of(r#"<op id="x" op="%" val1="1" val2="z"/><var id="z" val="0"/>"#);
    assert!(e.contains("division by zero (`%`)"), "{e}");
    // Self reference, through a chain.
    let e = error_of(
        r#"<op id="x" op="+" val1="y" val2="1"/>
<var id="y" val="x"/>"#,
    );
    assert!(e.contains("self-referencing value: x -> y -> x"), "{e}");
    let e = error_of(r#"<var id="x" val="x"/>"#);
    assert!(e.contains("x -> x"), "{e}");
    // `not` still evaluates its second argument.
    let e = error_of(r#"<op id="x" op="not" val1="0" val2="missing"/>"#);
    assert!(e.contains("undefined name `missing`"), "{e}");
    // Overflow.
    let e = error_of(r#"<op id="x" op="*" val1="9000000000000000000" val2="2"/>"#);
    assert!(e.contains("integer overflow computing `x`"), "{e}");
}

#[test]
fn points_and_objective_must_be_defined() {
    let e = run("<values><var id=\"points\" val=\"1\"/></values>\n", None).unwrap_err();
    assert_eq!(e.kind, EvalErrorKind::Missing { name: "objective" });
    let e = run("<values><var id=\"objective\" val=\"1\"/></values>\n", None).unwrap_err();
    assert_eq!(e.kind, EvalErrorKind::Missing { name: "points" });
}

/// A throwaway levels folder.
struct Folder(PathBuf);

impl Folder {
    fn new(tag: &str) -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let p = std::env::temp_dir().join(format!(
            "warren-levelxml-{tag}-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(p.join("includes")).unwrap();
        Self(p)
    }
    fn write(&self, name: &str, text: &str) {
        std::fs::write(self.0.join(name), text).unwrap();
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run_with_includes(folder: &Folder, values: &str) -> Result<Evaluation, EvalError> {
    let p = parsed(&format!("<values>\n{values}\n</values>\n"));
    let loader = FolderIncludes {
        root: folder.0.clone(),
    };
    evaluate(
        &p.doc,
        &EvalOptions {
            map: Some(&p.map),
            includes: Some(&loader),
            path: None,
        },
    )
}

#[test]
fn includes_splice_values_from_the_levels_root() {
    let f = Folder::new("inc");
    f.write(
        "includes/score.xml",
        "<values>\n<op id=\"points\" op=\"*\" val1=\"E\" val2=\"k\"/>\n<var id=\"k\" val=\"2\"/>\n</values>\n",
    );
    f.write(
        "includes/outer.xml",
        "<values><include file=\"includes/score\"/></values>",
    );
    let ev = run_with_includes(
        &f,
        "<include file=\"includes/outer\"/>\n<var id=\"objective\" val=\"6\"/>",
    )
    .unwrap();
    assert_eq!((ev.points, ev.objective), (6, 6));
    // A later definition wins over an included one, and the included one over an earlier one.
    let ev = run_with_includes(
        &f,
        "<var id=\"k\" val=\"5\"/>\n<include file=\"includes/score\"/>\n<var id=\"objective\" val=\"k\"/>",
    )
    .unwrap();
    assert_eq!(ev.objective, 2);
    let ev = run_with_includes(
        &f,
        "<include file=\"includes/score\"/>\n<var id=\"k\" val=\"5\"/>\n<var id=\"objective\" val=\"k\"/>",
    )
    .unwrap();
    assert_eq!((ev.points, ev.objective), (15, 5));
}

#[test]
fn include_cycles_and_missing_files_are_errors() {
    let f = Folder::new("cycle");
    f.write(
        "includes/a.xml",
        "<values><include file=\"includes/b\"/></values>",
    );
    f.write(
        "includes/b.xml",
        "<values>\n<include file=\"includes/a\"/>\n</values>",
    );
    let e = run_with_includes(&f, "<include file=\"includes/a\"/>").unwrap_err();
    match &e.kind {
        EvalErrorKind::IncludeCycle { chain } => {
            assert_eq!(chain.len(), 3, "{chain:?}");
            assert!(chain[0].ends_with("a.xml") && chain[2].ends_with("a.xml"));
        }
        other => panic!("{other:?}"),
    }
    // The error stands at the include that closes the cycle, in b.xml line 2.
    let (file, pos) = e.at.clone().unwrap();
    assert!(file.ends_with("b.xml") && pos.line == 2, "{e}");
    let e = run_with_includes(&f, "<include file=\"includes/none\"/>").unwrap_err();
    assert!(e.to_string().contains("none.xml does not exist"), "{e}");
    f.write("includes/bad.xml", "<values><vr/></values>");
    let e = run_with_includes(&f, "<include file=\"includes/bad\"/>").unwrap_err();
    assert!(
        e.to_string().contains("bad.xml:1:9: unknown element <vr>"),
        "{e}"
    );
    // Without a loader an include cannot be read.
    let e = run("<values><include file=\"x\"/></values>", None).unwrap_err();
    assert!(
        matches!(e.kind, EvalErrorKind::IncludeMissing { .. }),
        "{e}"
    );
}

fn eval_rules(rules: &str) -> Evaluation {
    run(
        &format!(
            "<rules>\n{rules}\n</rules>\n<values><var id=\"points\" val=\"0\"/><var id=\"objective\" val=\"0\"/></values>\n"
        ),
        None,
    )
    .unwrap()
}

fn rule_ok(rule: &str) -> bool {
    let ev = eval_rules(rule);
    assert_eq!(ev.rules.len(), 1);
    ev.rules[0].ok
}

#[test]
fn connected_needs_every_vertex_reached_from_an_origin() {
    // `d` is isolated.
    assert!(!rule_ok("<connected/>"));
    let connected = |graph: &str| {
        let text = format!(
            "{HEAD}<graph>{graph}</graph><rules><connected/></rules>\
             <values><var id=\"points\" val=\"0\"/><var id=\"objective\" val=\"0\"/></values>"
        );
        let p = parse_level(&text, "t").unwrap();
        evaluate(&p.doc, &EvalOptions::default()).unwrap().valid
    };
    assert!(connected(""), "no vertices is connected");
    assert!(!connected("<vertex id=\"a\"/>"), "no origin");
    assert!(connected("<vertex id=\"a\" origin=\"\"/>"));
    assert!(connected(
        "<vertex id=\"a\" origin=\"t\"/><vertex id=\"b\" origin=\"t\"/>"
    ));
    assert!(connected(
        "<vertex id=\"a\"/><vertex id=\"b\" origin=\"t\"/><edge v1=\"a\" v2=\"b\"/>"
    ));
}

#[test]
fn count_rules_any_named_and_same() {
    // Vertices: red a, green b, blue c, red d. Edges: blue, red (default), blue.
    assert!(rule_ok(r#"<vertex-maximum max="4"/>"#));
    assert!(!rule_ok(r#"<vertex-maximum color="any" max="3"/>"#));
    assert!(rule_ok(r#"<vertex-maximum color="red" max="2"/>"#));
    assert!(!rule_ok(r#"<vertex-maximum color="red" max="1"/>"#));
    assert!(rule_ok(r#"<vertex-minimum color="green" min="1"/>"#));
    assert!(!rule_ok(r#"<vertex-minimum color="green" min="2"/>"#));
    assert!(rule_ok(r#"<vertex-minimum color="same" min="1"/>"#));
    assert!(!rule_ok(r#"<vertex-maximum color="same" max="1"/>"#));
    assert!(rule_ok(r#"<edge-maximum color="same" max="2"/>"#));
    assert!(
        !rule_ok(r#"<edge-minimum color="same" min="1"/>"#),
        "no green edge"
    );
    assert!(!rule_ok(r#"<edge-maximum/>"#), "max defaults to 0");
    assert!(rule_ok(r#"<edge-minimum color="blue" min="2"/>"#));
}

#[test]
fn edge_rules_ban_both_directions() {
    // ab: red-blue-green, bc: green-red-blue, ca: blue-blue-red.
    assert!(!rule_ok(r#"<edge-rule v1="green" v2="red"/>"#));
    assert!(!rule_ok(r#"<edge-rule v1="red" v2="green"/>"#));
    assert!(rule_ok(r#"<edge-rule v1="red" v2="red"/>"#));
    assert!(!rule_ok(r#"<edge-rule v1="red" edge="blue" v2="blue"/>"#));
    assert!(!rule_ok(r#"<edge-rule v1="blue" edge="blue" v2="red"/>"#));
    assert!(rule_ok(r#"<edge-rule v1="red" edge="red" v2="blue"/>"#));
    assert!(rule_ok(r#"<edge-rule v1="green" edge="blue" v2="blue"/>"#));
    assert!(!rule_ok(r#"<edge-rule v1="any" edge="any" v2="any"/>"#));
    assert!(!rule_ok(r#"<edge-rule/>"#));
}

#[test]
fn same_binds_once_per_rule_and_direction() {
    assert!(
        rule_ok(r#"<edge-rule v1="same" v2="same"/>"#),
        "no monochrome edge"
    );
    // edge blue, endpoint blue: ca.
    assert!(!rule_ok(r#"<edge-rule v1="same" edge="same"/>"#));
    assert!(rule_ok(r#"<edge-rule v1="same" edge="same" v2="same"/>"#));
    // `same` with a named slot: an edge with a red end, whichever way round.
    assert!(!rule_ok(r#"<edge-rule v1="same" v2="red"/>"#));
    let text = format!(
        "{HEAD}<graph><vertex id=\"a\" color=\"green\"/><vertex id=\"b\" color=\"blue\"/>\
         <edge v1=\"a\" v2=\"b\"/></graph><rules><edge-rule v1=\"same\" v2=\"red\"/>\
         <edge-rule v2=\"same\" v1=\"red\"/></rules>\
         <values><var id=\"points\" val=\"0\"/><var id=\"objective\" val=\"0\"/></values>"
    );
    let p = parse_level(&text, "t").unwrap();
    let ev = evaluate(&p.doc, &EvalOptions::default()).unwrap();
    assert!(ev.rules.iter().all(|r| r.ok), "no red end: {:?}", ev.rules);
    for (a, b) in [("red", "green"), ("green", "red")] {
        let t = text
            .replace(
                "id=\"a\" color=\"green\"",
                &format!("id=\"a\" color=\"{a}\""),
            )
            .replace(
                "id=\"b\" color=\"blue\"",
                &format!("id=\"b\" color=\"{b}\""),
            );
        let p = parse_level(&t, "t").unwrap();
        let ev = evaluate(&p.doc, &EvalOptions::default()).unwrap();
        assert!(ev.rules.iter().all(|r| !r.ok), "{a}-{b}: {:?}", ev.rules);
    }
}

#[test]
fn totals_add_color_points_and_are_zero_when_a_rule_fails() {
    let values =
        "<values><var id=\"points\" val=\"1000\"/><var id=\"objective\" val=\"1216\"/></values>";
    let ev = run(values, None).unwrap();
    // Vertex points: red 1 x2 + green 2; edge points: red 10 x1 + blue 100 x2.
    assert_eq!((ev.vertex_points, ev.edge_points), (4, 210));
    assert_eq!(ev.total, 1214);
    assert!(ev.valid && !ev.complete);
    let ev = run(&values.replace("1216", "1214"), None).unwrap();
    assert!(ev.complete);
    let ev = run(&format!("<rules><connected/></rules>{values}"), None).unwrap();
    assert_eq!(ev.total, 0);
    assert!(!ev.valid && !ev.complete);
}

fn walk_score(spec: &str, path: &[&str]) -> Result<Option<i64>, EvalError> {
    let names: Vec<String> = path.iter().map(|s| s.to_string()).collect();
    let body = format!(
        "{spec}\n<values><var id=\"points\" val=\"0\"/><var id=\"objective\" val=\"0\"/></values>\n"
    );
    run(&body, Some(&names)).map(|e| e.path_score)
}

#[test]
fn paths_score_edge_by_edge() {
    let spec = r#"<path points="1">
    <edge color="red" op="+" val="1"/>
    <edge color="blue" op="*" val="3"/>
</path>"#;
    // ab (blue), bc (red), ca (blue): ((1*3)+1)*3.
    assert_eq!(walk_score(spec, &["ab", "bc", "ca"]).unwrap(), Some(12));
    // By index, starting at the other end.
    assert_eq!(walk_score(spec, &["1", "0"]).unwrap(), Some(6));
    assert_eq!(
        walk_score(spec, &[]).unwrap(),
        Some(1),
        "an empty path scores its start"
    );
    // `any` applies after the color's own rule; a later rule for a color wins.
    let spec = r#"<path>
    <edge color="any" op="*" val="2"/>
    <edge color="blue" op="+" val="5"/>
    <edge color="blue" op="+" val="1"/>
</path>"#;
    assert_eq!(walk_score(spec, &["ab"]).unwrap(), Some(2));
    assert_eq!(walk_score(spec, &["ab", "bc"]).unwrap(), Some(4));
    let spec = r#"<path points="9"><edge color="red" op="%" val="4"/><edge color="blue" op="-" val="2"/><edge color="green" op="/" val="0"/></path>"#;
    assert_eq!(walk_score(spec, &["bc", "ab"]).unwrap(), Some(-1));
    let spec = r#"<path points="9"><edge color="red" op="/" val="0"/></path>"#;
    let e = walk_score(spec, &["bc"]).unwrap_err().to_string();
    assert!(e.contains("division by zero (`/`) computing `path`"), "{e}");
}

#[test]
fn cycles_must_close() {
    let spec = r#"<cycle points="0"><edge color="any" op="+" val="1"/></cycle>"#;
    assert_eq!(walk_score(spec, &["ab", "bc", "ca"]).unwrap(), Some(3));
    assert_eq!(walk_score(spec, &["ca", "ab", "bc"]).unwrap(), Some(3));
    assert_eq!(walk_score(spec, &["ab", "bc"]).unwrap(), Some(0), "open");
    assert_eq!(walk_score(spec, &["ab"]).unwrap(), Some(0), "one edge");
    assert_eq!(walk_score(spec, &[]).unwrap(), Some(0), "empty");
    // Only the first path element counts.
    let two = format!("{spec}<path points=\"50\"/>");
    assert_eq!(walk_score(&two, &["ab", "bc"]).unwrap(), Some(0));
}

#[test]
fn bad_walks_are_errors() {
    let spec = "<path/>";
    let e = walk_score(spec, &["ab", "ab"]).unwrap_err();
    assert!(
        matches!(e.kind, EvalErrorKind::PathRepeatsEdge { .. }),
        "{e}"
    );
    let e = walk_score(spec, &["ab", "7"]).unwrap_err();
    assert!(
        matches!(e.kind, EvalErrorKind::PathUnknownEdge { .. }),
        "{e}"
    );
    let text = format!(
        "{HEAD}<graph><vertex id=\"a\"/><vertex id=\"b\"/><vertex id=\"c\"/><vertex id=\"d\"/>\
         <edge v1=\"a\" v2=\"b\"/><edge v1=\"c\" v2=\"d\"/></graph><path/>\
         <values><var id=\"points\" val=\"0\"/><var id=\"objective\" val=\"0\"/></values>"
    );
    let p = parse_level(&text, "t").unwrap();
    let names = vec!["0".to_string(), "1".to_string()];
    let opts = EvalOptions {
        path: Some(&names),
        ..EvalOptions::default()
    };
    let e = evaluate(&p.doc, &opts).unwrap_err();
    assert_eq!(e.kind, EvalErrorKind::PathBroken { edge: "1".into() });
    // A path given to a level without one.
    let e = run(
        "<values><var id=\"points\" val=\"0\"/><var id=\"objective\" val=\"0\"/></values>",
        Some(&names),
    )
    .unwrap_err();
    assert_eq!(e.kind, EvalErrorKind::NoPathSpec);
}

/// A chain of values each needing the next is followed to a bound and then refused with an
/// error, never a stack overflow; chains a level could need are evaluated.
#[test]
fn long_value_chains_are_refused_not_overflowed() {
    let chain = |n: usize| {
        let mut defs = String::from("<var id=\"x\" val=\"v0\"/>\n");
        for i in 0..n {
            defs.push_str(&format!("<var id=\"v{i}\" val=\"v{}\"/>\n", i + 1));
        }
        defs.push_str(&format!("<var id=\"v{n}\" val=\"7\"/>\n"));
        defs
    };
    assert_eq!(value_of(&chain(200)).unwrap(), 7);
    let e = error_of(&chain(5_000));
    assert!(e.contains("values nested or chained beyond 256"), "{e}");
}
