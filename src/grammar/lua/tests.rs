//! Tests of `lua.rs`.

use std::path::PathBuf;

use super::*;
use crate::core::rng::WarrenRng;

/// Fixed seed of the garbling test.
const SEED_1: u64 = 0x5EED_0001;

/// The folder of demirogue's original rule files, beside the repository (not part of it), or
/// `None` (with a note) when it is absent, as when the repository is checked out alone: the
/// caller then skips.
fn corpus_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/demirogue-rulesets");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: {} not present", dir.display());
        None
    }
}

/// The original `name.lua` in the corpus folder `dir`.
fn original(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.lua"))
}

fn original_text(dir: &Path, name: &str) -> String {
    let path = original(dir, name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn at(line: u32, col: u32) -> Pos {
    Pos { line, col }
}

/// The messages of a failed import, as printed.
fn messages(text: &str) -> Vec<String> {
    match parse_lua(text, "t.lua") {
        Ok(_) => panic!("expected an error for {text:?}"),
        Err(e) => e.diagnostics().iter().map(|d| d.to_string()).collect(),
    }
}

/// A start rule and a growth rule in the newer format, written compactly.
const TWO_RULES: &str = r#"return {
  { leftGraph = { vertices = { { x = 0, y = 0, tags = { s = true } } }, edges = {} },
    rightGraph = { vertices = { { x = 0, y = 0, tag = "a" }, { x = 1, y = 0, tag = "a" } }, edges = { { 1, 2 } } },
    map = { 1 } },
  { leftGraph = { vertices = { { x = 0, y = 0, tags = { a = true } }, { x = 1, y = 0, tags = { a = true } } }, edges = { { 1, 2 } } },
    rightGraph = { vertices = { { x = 0, y = 0, tag = "a" }, { x = 1, y = 0, tag = "a" }, { x = 0.5, y = 1, tag = "b" } }, edges = { { 1, 3 }, { 3, 2 } } },
    map = { 1, 2 } },
}
"#;

#[test]
fn all_seven_corpus_files_load_and_validate() {
    let Some(dir) = corpus_dir() else { return };
    // (file, rules kept, placeholders skipped)
    let expected = [
        ("catacomb", 3, 1),
        ("default", 4, 0),
        ("quads", 2, 2),
        ("silly", 2, 2),
        ("spiral", 4, 0),
        ("test", 3, 0),
        ("tree", 3, 0),
    ];
    for (name, rules, skipped) in expected {
        let import = load_lua(&original(&dir, name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let g = &import.grammar;
        assert_eq!(
            (g.rules.len(), import.skipped_empty),
            (rules, skipped),
            "{name}"
        );
        assert!(g.source.ends_with(&format!("{name}.lua")), "{}", g.source);
        // Placeholders come last in the real files, so the kept rules are 1..=rules.
        let names: Vec<&str> = g.rules.iter().map(|r| r.name.as_str()).collect();
        let want: Vec<String> = (1..=rules).map(|i| format!("rule {i}")).collect();
        assert_eq!(names, want, "{name}");
        if let Err(e) = g.validate() {
            panic!("{name} does not validate:\n{e}");
        }
    }
}

/// catacomb.lua hangs cosmetic vertices (`cosmetic = true`) off its substitutes by cosmetic
/// edges only; they are imported as cosmetic, and the rules validate.
#[test]
fn catacomb_marks_cosmetic_vertices() {
    let Some(dir) = corpus_dir() else { return };
    let import = load_lua(&original(&dir, "catacomb")).expect("catacomb.lua loads");
    let g = &import.grammar;
    g.validate()
        .expect("catacomb validates with its cosmetic vertices");
    // 0-based: rule 1's substitute vertices 2 and 6, rule 2's 3, rule 3's 1 (and the
    // pattern vertices they are mapped from).
    let marked: Vec<Vec<usize>> = g
        .rules
        .iter()
        .map(|r| {
            (0..r.substitute.vertices.len())
                .filter(|&i| r.substitute.vertices[i].cosmetic)
                .collect()
        })
        .collect();
    assert_eq!(marked, [vec![1, 5], vec![2], vec![0]]);
    // Cosmetic vertices are reached by cosmetic edges only.
    for r in &g.rules {
        for e in &r.substitute.edges {
            let ends = [e.a as usize, e.b as usize];
            if ends.iter().any(|&v| r.substitute.vertices[v].cosmetic) {
                assert_eq!(e.kind, EdgeKind::Cosmetic, "{}", r.name);
            }
        }
    }
}

#[test]
fn default_rule_2_is_read_exactly() {
    let Some(dir) = corpus_dir() else { return };
    let import = load_lua(&original(&dir, "default")).expect("default.lua loads");
    let g = &import.grammar;
    let a = g.tags.id("a").expect("tag a");
    assert_eq!(g.tags.names()[..2], ["s".to_string(), "a".to_string()]);
    let pv = |name: &str, x: f32, y: f32, line: u32| PatternVertex {
        name: name.into(),
        x,
        y,
        tags: TagSet::of(vec![a]),
        blocked: None,
        lock: false,
        cosmetic: false,
        at: at(line, 9),
    };
    let sv = |name: &str, x: f32, y: f32, line: u32| SubstituteVertex {
        name: name.into(),
        x,
        y,
        tag: Some(a),
        cosmetic: false,
        at: at(line, 9),
    };
    let edge = |a: u32, b: u32, line: u32| RuleEdge {
        a,
        b,
        kind: EdgeKind::Normal,
        length: None,
        at: at(line, 9),
    };
    let expected = Rule {
        name: "rule 2".into(),
        weight: 1.0,
        max_uses: None,
        min_uses: 0,
        pattern: RuleGraph {
            vertices: vec![pv("1", 226.0, 206.0, 143), pv("2", 162.0, 314.0, 155)],
            edges: vec![edge(1, 0, 169)],
        },
        substitute: RuleGraph {
            vertices: vec![
                sv("1", 547.0, 233.0, 75),
                sv("2", 626.0, 206.0, 85),
                sv("3", 596.0, 257.0, 95),
                sv("4", 562.0, 314.0, 105),
            ],
            edges: vec![edge(2, 3, 117), edge(2, 1, 123), edge(2, 0, 129)],
        },
        map: vec![1, 3],
        at: at(72, 5),
    };
    assert_eq!(g.rules[1], expected);
}

#[test]
fn test_lua_takes_coordinates_from_positional_entries() {
    let Some(dir) = corpus_dir() else { return };
    let import = load_lua(&original(&dir, "test")).expect("test.lua loads");
    let g = &import.grammar;
    let r = &g.rules[0];
    let p = &r.pattern.vertices[0];
    assert_eq!((p.x, p.y, &p.tags), (202.0, 301.0, &TagSet::of(vec![0])));
    let s: Vec<(f32, f32)> = r.substitute.vertices.iter().map(|v| (v.x, v.y)).collect();
    assert_eq!(s, [(547.0, 229.0), (631.0, 212.0), (602.0, 301.0)]);
    assert_eq!(r.map, [2]);
}

#[test]
fn x_and_y_win_over_positional_entries() {
    let text = TWO_RULES.replace(
        "{ x = 1, y = 0, tag = \"a\" }",
        "{ 7, 8, x = 1, tag = \"a\" }",
    );
    let g = parse_lua(&text, "t.lua").expect("parses").grammar;
    let v = &g.rules[0].substitute.vertices[1];
    assert_eq!((v.x, v.y), (1.0, 8.0));
}

#[test]
fn newer_files_write_x_and_y_equal_to_their_positional_entries() {
    let Some(dir) = corpus_dir() else { return };
    for name in ["catacomb", "default", "quads", "silly", "spiral", "tree"] {
        let text = original_text(&dir, name);
        let root = Parser::new(&text)
            .and_then(|mut p| p.chunk())
            .expect("parses");
        let mut checked = 0;
        for rule in list(&root, "rules").expect("a list") {
            let rule = table(rule, "rule").expect("a table");
            for side in ["leftGraph", "rightGraph"] {
                let graph = table(rule.get(side).expect("graph"), side).expect("a table");
                for v in list(graph.get("vertices").expect("vertices"), "v").expect("a list") {
                    let v = table(v, "vertex").expect("a table");
                    let num = |v: Option<&Value>| v.and_then(|v| number(v, "n").ok());
                    assert_eq!(num(v.get("x")), num(v.nth(0)), "{name}");
                    assert_eq!(num(v.get("y")), num(v.nth(1)), "{name}");
                    assert!(num(v.get("x")).is_some(), "{name}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 0, "{name}");
    }
}

#[test]
fn the_lua_subset_is_read() {
    let text = "-- a ruleset\nreturn { a = 1, [\"b\"] = 'x\\tq\\65\\u{48}\\z\n   r', -2.5e1; .5, 0x10,\n\
                    { }, nil, true, false, [[\nlong]], --[[ block\n ]] --[==[ ]] ]==]\n 'it''s' == 1 }";
    // `'it''s'` is two strings without a separator: a syntax error.
    assert!(parse_lua(text, "t.lua").is_err());
    let text = text.replace("'it''s' == 1", "\"q\\\"\\\\\", 1e2, -3, 7,");
    let root = Parser::new(&text)
        .and_then(|mut p| p.chunk())
        .expect("parses");
    let Kind::Table(t) = &root.kind else {
        panic!("a table")
    };
    assert_eq!(root.at, at(2, 8));
    let nums: Vec<Option<f64>> = t.list.iter().map(|v| number(v, "n").ok()).collect();
    assert_eq!(
        nums,
        [
            Some(-25.0),
            Some(0.5),
            Some(16.0),
            None,
            None,
            None,
            None,
            None,
            None,
            Some(100.0),
            Some(-3.0),
            Some(7.0)
        ]
    );
    assert!(matches!(t.list[3].kind, Kind::Table(ref e) if e.list.is_empty()));
    assert!(matches!(t.list[4].kind, Kind::Nil));
    assert!(matches!(t.list[5].kind, Kind::Bool(true)));
    assert!(matches!(t.list[6].kind, Kind::Bool(false)));
    assert!(matches!(&t.list[7].kind, Kind::Str(s) if s == "long"));
    assert!(matches!(&t.list[8].kind, Kind::Str(s) if s == "q\"\\"));
    assert!(matches!(
        t.get("a").map(|v| &v.kind),
        Some(Kind::Number(1.0))
    ));
    assert!(matches!(t.get("b").map(|v| &v.kind), Some(Kind::Str(s)) if s == "x\tqAHr"));
    assert_eq!(t.list[8].at, at(7, 2));
}

#[test]
fn rules_in_loose_syntax_convert_tags_locks_and_edge_kinds() {
    let text = "return {\n\
            { leftGraph = { vertices = { { 0, 0, tags = { s = true } } } },\n\
              rightGraph = { vertices = { { 0, 0, tag = 'a' }, { 1, 0, tag = 'b' }, { 2, 0, tag = 'c' } },\n\
                edges = { { 1, 2 }; { 2, 3, subdivide = true }, { 1, 3, cosmetic = true, subdivide = true } } },\n\
              map = { 1 }; },\n\
            { leftGraph = { vertices = { { -1.5, 2e1, tags = { a = true, b = true, c = false }, lock = true },\n\
                { 3, 4, tags = { ['*'] = true, a = true } } }, edges = { { 2, 1 } } },\n\
              rightGraph = { vertices = { { 0, 0, tag = '*' }, { 1, 0, tag = 'a' } }, edges = { { 1, 2 } } },\n\
              map = { 2, 1 } },\n\
            }";
    let import = parse_lua(text, "t.lua").expect("parses");
    let g = &import.grammar;
    assert_eq!(g.tags.names(), ["s", "a", "b", "c"]);
    let kinds: Vec<EdgeKind> = g.rules[0].substitute.edges.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [EdgeKind::Normal, EdgeKind::Subdivide, EdgeKind::Cosmetic]
    );
    assert!(g.rules[0].pattern.edges.is_empty());
    let p = &g.rules[1].pattern.vertices;
    assert_eq!((p[0].x, p[0].y, p[0].lock), (-1.5, 20.0, true));
    assert_eq!(p[0].tags, TagSet::Of(vec![1, 2]));
    assert_eq!((p[1].tags.clone(), p[1].lock), (TagSet::Any, false));
    assert_eq!(g.rules[1].substitute.vertices[0].tag, None);
    assert_eq!(g.rules[1].map, [1, 0]);
    assert_eq!(g.rules[1].at, at(6, 1));
    assert!(g.validate().is_ok(), "{:?}", g.check());
}

#[test]
fn placeholders_are_skipped_and_keep_later_rule_numbers() {
    let placeholder = "{ leftGraph = { vertices = {}, edges = {} }, rightGraph = { vertices = {}, edges = {} }, map = {} },\n";
    let text = TWO_RULES.replacen(
        "  { leftGraph = { vertices = { { x = 0, y = 0, tags = { a",
        &format!("{placeholder}  {{ leftGraph = {{ vertices = {{ {{ x = 0, y = 0, tags = {{ a"),
        1,
    );
    let import = parse_lua(&text, "t.lua").expect("parses");
    assert_eq!(import.skipped_empty, 1);
    let names: Vec<&str> = import
        .grammar
        .rules
        .iter()
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(names, ["rule 1", "rule 3"]);
    // A placeholder with a map entry is not empty: its map points nowhere.
    let text = text.replace("map = {} }", "map = { 1 } }");
    assert_eq!(
        messages(&text),
        ["t.lua:5:98: error: rule `rule 2`: `map` entry 1 is 1, but `rightGraph` has no vertices"]
    );
}

#[test]
fn syntax_errors_name_line_column_and_what_was_expected() {
    let cases = [
        (
            "",
            "t.lua:1:1: error: expected `return` and the table of rules, found the end of the file",
        ),
        (
            "{ }",
            "t.lua:1:1: error: expected `return` and the table of rules, found `{`",
        ),
        (
            "return {\n  1\n  2 }",
            "t.lua:3:3: error: expected `,`, `;` or `}` after a table entry, found a number",
        ),
        (
            "return {\n  \"abc }",
            "t.lua:2:3: error: unfinished string: expected a closing `\"` on the same line",
        ),
        (
            "return { 'a\\q' }",
            "t.lua:1:12: error: invalid escape sequence: `\\q`",
        ),
        (
            "return { 1.2.3 }",
            "t.lua:1:10: error: malformed number `1.2.3`",
        ),
        (
            "return { [1] = 2 }",
            "t.lua:1:11: error: expected a string key after `[`, found a number",
        ),
        (
            "return { [\"k\" = 2 }",
            "t.lua:1:15: error: expected `]` after the key, found `=`",
        ),
        (
            "return { foo }",
            "t.lua:1:14: error: expected `=` after the key `foo`, found `}`",
        ),
        (
            "return { end = 1 }",
            "t.lua:1:10: error: expected a value (a table, a string, a number, `true`, `false` or `nil`), found `end`",
        ),
        (
            "return { - }",
            "t.lua:1:12: error: expected a number after `-`, found `}`",
        ),
        (
            "return { @ }",
            "t.lua:1:10: error: unexpected character `@`",
        ),
        (
            "return {} x",
            "t.lua:1:11: error: expected the end of the file after the returned value, found `x`",
        ),
        (
            "return {\n  --[[ open",
            "t.lua:2:3: error: unfinished long comment: expected `]]` before the end of the file",
        ),
        (
            "return { \"\\300\" }",
            "t.lua:1:11: error: invalid escape sequence: a decimal escape must be at most 255",
        ),
        (
            "return { \"\\xff\" }",
            "t.lua:1:10: error: the string's escapes do not make valid UTF-8 text",
        ),
        (
            "return { {\n",
            "t.lua:2:1: error: expected a value (a table, a string, a number, `true`, `false` or `nil`), found the end of the file",
        ),
    ];
    for (text, want) in cases {
        let err = parse_lua(text, "t.lua").expect_err(text);
        assert!(matches!(err, GrammarError::Syntax(_)), "{text:?}: {err:?}");
        assert_eq!(err.diagnostics()[0].rule, None);
        assert_eq!(err.to_string(), want, "{text:?}");
    }
    let deep = format!("return {}", "{".repeat(100_000));
    let m = messages(&deep);
    assert_eq!(
        m,
        ["t.lua:1:108: error: tables are nested more than 100 deep"]
    );
}

#[test]
fn structure_errors_name_the_rule_line_and_column() {
    let cases = [
        (
            TWO_RULES.replacen("leftGraph", "leftGraf", 1),
            "t.lua:2:3: error: rule `rule 1`: the rule has no `leftGraph`",
        ),
        (
            TWO_RULES.replace("{ { 1, 3 }, { 3, 2 } }", "{ { 1, 3 }, { 9, 2 } }"),
            "t.lua:6:146: error: rule `rule 2`: `rightGraph` edge 2's vertex 1 is 9, but `rightGraph` has 3 vertices",
        ),
        (
            TWO_RULES.replace(
                "{ x = 0, y = 0, tags = { a = true } }",
                "{ x = \"ten\", y = 0, tags = { a = true } }",
            ),
            "t.lua:5:38: error: rule `rule 2`, vertex `1`: in `leftGraph`: `x` is a string; expected a number",
        ),
        (
            TWO_RULES.replace("map = { 1, 2 }", "map = { 1, 4 }"),
            "t.lua:7:16: error: rule `rule 2`: `map` entry 2 is 4, but `rightGraph` has 3 vertices",
        ),
        (
            TWO_RULES.replace("map = { 1, 2 }", "map = { 1, 1.5 }"),
            "t.lua:7:16: error: rule `rule 2`: `map` entry 2 is 1.5, but `rightGraph` has 3 vertices",
        ),
        (
            TWO_RULES.replace("tag = \"b\"", "tag = true"),
            "t.lua:6:115: error: rule `rule 2`, vertex `3`: in `rightGraph`: `tag` is a boolean; expected a string",
        ),
        (
            TWO_RULES.replace(
                "{ x = 1, y = 0, tags = { a = true } }",
                "{ x = 1, tags = { a = true } }",
            ),
            "t.lua:5:71: error: rule `rule 2`, vertex `2`: in `leftGraph`: the vertex has no `y` (neither `y =` nor positional entry 2)",
        ),
        (
            TWO_RULES.replace("tags = { s = true }", "tags = { s = 1 }"),
            "t.lua:2:61: error: rule `rule 1`, vertex `1`: in `leftGraph`: tag `s` is set to a number; expected `true`",
        ),
        (
            TWO_RULES.replacen("edges = { { 1, 2 } }", "edges = { { 1 } }", 1),
            "t.lua:3:103: error: rule `rule 1`: `rightGraph` edge 1 needs two vertex numbers as its first entries",
        ),
        (
            TWO_RULES.replace("tags = { s = true }", "tags = { s = true, s = nil }"),
            "t.lua:2:55: error: rule `rule 1`, vertex `1`: in `leftGraph`: `tags` names no tag, so the vertex would match nothing",
        ),
        (
            "return 5".to_string(),
            "t.lua:1:8: error: the returned value is a number; expected a table",
        ),
    ];
    for (text, want) in &cases {
        let err = parse_lua(text, "t.lua").expect_err(want);
        assert!(matches!(err, GrammarError::Invalid(_)), "{err:?}");
        assert_eq!(err.to_string(), *want);
    }
    // Every broken rule is reported, not just the first.
    let text = TWO_RULES
        .replace("map = { 1 }", "map = { 3 }")
        .replace("map = { 1, 2 }", "map = 2");
    assert_eq!(
        messages(&text),
        [
            "t.lua:4:13: error: rule `rule 1`: `map` entry 1 is 3, but `rightGraph` has 2 vertices",
            "t.lua:7:11: error: rule `rule 2`: `map` is a number; expected a table",
        ]
    );
}

/// [`TWO_RULES`] in the older format: coordinates as the first two positional entries.
fn two_rules_positional() -> String {
    TWO_RULES.replace("x = ", "").replace("y = ", "")
}

#[test]
fn garbled_files_never_panic() {
    let older = two_rules_positional();
    assert!(
        parse_lua(&older, "t.lua").is_ok(),
        "the older format parses"
    );
    for text in [TWO_RULES, older.as_str()] {
        let last_brace = text.rfind('}').expect("a table");
        // Every prefix: cut before the last `}`, each must be a syntax error.
        for end in 0..text.len() {
            let result = parse_lua(&text[..end], "t.lua");
            if end <= last_brace {
                let err = result.expect_err("a cut file is an error");
                assert!(
                    matches!(err, GrammarError::Syntax(_)),
                    "{text}[..{end}]: {err}"
                );
                assert!(err.diagnostics()[0].at.line >= 1);
            }
        }
    }
    // Random byte flips, favouring the bytes the grammar cares about.
    let text = TWO_RULES.as_bytes();
    let alphabet = b"{}[]=,;-\"'\\.0123456789eExtrufalsnil\n \x00\xff";
    let mut rng = WarrenRng::new(SEED_1);
    let mut failures = 0;
    for _ in 0..3000 {
        let mut garbled = text.to_vec();
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(garbled.len() as u32) as usize;
            garbled[i] = if rng.chance(0.8) {
                alphabet[rng.below(alphabet.len() as u32) as usize]
            } else {
                rng.next_u32() as u8
            };
        }
        let garbled = String::from_utf8_lossy(&garbled);
        if let Err(e) = parse_lua(&garbled, "t.lua") {
            failures += 1;
            assert!(!e.diagnostics().is_empty());
        }
    }
    // Most flips break something; a few land in ignored data or keep the meaning.
    assert!(failures > 1000, "{failures}");
}

#[test]
fn unreadable_files_are_read_errors() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("no-such-ruleset.lua");
    match load_lua(&path) {
        Err(GrammarError::Read { path: p, .. }) => assert_eq!(p, path.display().to_string()),
        other => panic!("expected a read error, got {other:?}"),
    }
}
