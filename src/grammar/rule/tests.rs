//! Tests of `rule.rs`.

use super::*;

fn pv(name: &str, x: f32, y: f32, tags: TagSet) -> PatternVertex {
    PatternVertex {
        name: name.into(),
        x,
        y,
        tags,
        blocked: None,
        lock: false,
        cosmetic: false,
        at: Pos::default(),
    }
}

fn sv(name: &str, x: f32, y: f32, tag: Option<TagId>) -> SubstituteVertex {
    SubstituteVertex {
        name: name.into(),
        x,
        y,
        tag,
        cosmetic: false,
        at: Pos::default(),
    }
}

fn edge(a: u32, b: u32, kind: EdgeKind) -> RuleEdge {
    RuleEdge {
        a,
        b,
        kind,
        length: None,
        at: Pos::default(),
    }
}

/// `s => a - a` and `a - a => a - a - a`.
fn small() -> Grammar {
    let mut g = Grammar::new("test");
    let (s, a) = (0, g.tags.intern("a"));
    g.rules.push(Rule {
        name: "start".into(),
        weight: 1.0,
        max_uses: None,
        min_uses: 0,
        pattern: RuleGraph {
            vertices: vec![pv("S", 0.0, 0.0, TagSet::of(vec![s]))],
            edges: vec![],
        },
        substitute: RuleGraph {
            vertices: vec![sv("S", 0.0, 0.0, Some(a)), sv("B", 1.0, 0.0, Some(a))],
            edges: vec![edge(0, 1, EdgeKind::Normal)],
        },
        map: vec![0],
        at: Pos { line: 1, col: 1 },
    });
    g.rules.push(Rule {
        name: "grow".into(),
        weight: 1.0,
        max_uses: None,
        min_uses: 0,
        pattern: RuleGraph {
            vertices: vec![
                pv("A", 0.0, 0.0, TagSet::of(vec![a])),
                pv("B", 1.0, 0.0, TagSet::of(vec![a])),
            ],
            edges: vec![edge(0, 1, EdgeKind::Normal)],
        },
        substitute: RuleGraph {
            vertices: vec![
                sv("A", 0.0, 0.0, Some(a)),
                sv("B", 1.0, 0.0, Some(a)),
                sv("C", 0.5, 1.0, Some(a)),
            ],
            edges: vec![edge(0, 2, EdgeKind::Normal), edge(2, 1, EdgeKind::Normal)],
        },
        map: vec![0, 1],
        at: Pos { line: 10, col: 1 },
    });
    g
}

fn errors(g: &Grammar) -> Vec<String> {
    g.check()
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.to_string())
        .collect()
}

#[test]
fn a_valid_grammar_has_no_findings() {
    assert_eq!(small().check(), vec![]);
    assert!(small().validate().is_ok());
}

#[test]
fn one_vertex_patterns_must_be_s() {
    let mut g = small();
    g.rules[0].pattern.vertices[0].tags = TagSet::of(vec![1]);
    let e = errors(&g);
    assert!(
        e.iter()
            .any(|m| m.contains("rule `start`, vertex `S`") && m.contains("tagged `s`")),
        "{e:?}"
    );
    let mut g = small();
    g.rules.remove(0);
    let e = errors(&g);
    assert!(e.iter().any(|m| m.contains("no start rule")), "{e:?}");
}

#[test]
fn s_is_not_allowed_in_substitutes_or_big_patterns() {
    let mut g = small();
    g.rules[1].substitute.vertices[2].tag = Some(0);
    g.rules[1].pattern.vertices[1].tags = TagSet::of(vec![0]);
    let e = errors(&g);
    assert!(
        e.iter()
            .any(|m| m.contains("vertex `C`")
                && m.contains("no substitute vertex may be tagged `s`")),
        "{e:?}"
    );
    assert!(
        e.iter()
            .any(|m| m.contains("vertex `B`") && m.contains("only to a start rule")),
        "{e:?}"
    );
}

#[test]
fn patterns_and_substitutes_must_be_connected() {
    let mut g = small();
    g.rules[1].pattern.edges.clear();
    let e = errors(&g);
    assert!(
        e.iter()
            .any(|m| m.contains("rule `grow`") && m.contains("pattern is not connected")),
        "{e:?}"
    );
    // A - B joined by a corridor in the pattern, only by a cosmetic edge in the substitute.
    let mut g = small();
    g.rules[1].substitute.edges[1].kind = EdgeKind::Cosmetic;
    let e = errors(&g);
    assert!(
        e.iter().any(|m| m.contains("rule `grow`")
            && m.contains("`A` and `B` are joined by corridors in the pattern but not")),
        "{e:?}"
    );
    // A fresh room joined to the rest only by a cosmetic edge.
    let mut g = small();
    g.rules[1].substitute.edges =
        vec![edge(0, 1, EdgeKind::Normal), edge(1, 2, EdgeKind::Cosmetic)];
    let e = errors(&g);
    assert!(
        e.iter()
            .any(|m| m.contains("vertex `C` is not joined by corridors")),
        "{e:?}"
    );
    // A cosmetic vertex needs no corridor.
    g.rules[1].substitute.vertices[2].cosmetic = true;
    assert_eq!(errors(&g), Vec::<String>::new());
}

#[test]
fn the_map_must_be_total_and_injective() {
    let mut g = small();
    g.rules[1].map = vec![0, 0];
    let e = errors(&g);
    assert!(
        e.iter()
            .any(|m| m.contains("vertex `B`") && m.contains("one-to-one")),
        "{e:?}"
    );
    g.rules[1].map = vec![0];
    let e = errors(&g);
    assert!(
        e.iter()
            .any(|m| m.contains("1 entries for 2 pattern vertices")),
        "{e:?}"
    );
    g.rules[1].map = vec![0, 7];
    let e = errors(&g);
    assert!(e.iter().any(|m| m.contains("does not exist")), "{e:?}");
}

#[test]
fn knots_are_warned_about() {
    let mut g = Grammar::new("t");
    let a = g.tags.intern("a");
    let mut r = small().rules[1].clone();
    // Pattern A - B - C (A, C not adjacent); substitute adds A - C.
    r.pattern
        .vertices
        .push(pv("C", 2.0, 0.0, TagSet::of(vec![a])));
    r.pattern.edges.push(edge(1, 2, EdgeKind::Normal));
    r.substitute.vertices.push(sv("D", 2.0, 0.0, Some(a)));
    r.substitute.edges.push(edge(1, 3, EdgeKind::Normal));
    r.substitute.edges.push(edge(0, 3, EdgeKind::Normal));
    r.map = vec![0, 1, 3];
    g.rules = vec![small().rules[0].clone(), r];
    let d = g.check();
    assert!(d.iter().all(|d| d.severity == Severity::Warning), "{d:?}");
    assert!(d.iter().any(|d| d.message.contains("knot")), "{d:?}");
}

#[test]
fn wildcards_only_on_mapped_substitute_vertices() {
    let mut g = small();
    g.rules[1].substitute.vertices[2].tag = None;
    let e = errors(&g);
    assert!(
        e.iter()
            .any(|m| m.contains("vertex `C`") && m.contains("only for mapped")),
        "{e:?}"
    );
}

#[test]
fn diagnostics_print_file_line_and_column() {
    let g = small();
    let d = Diagnostic::error(
        &g,
        Some(&g.rules[1]),
        Some("B"),
        Pos { line: 12, col: 3 },
        "bad",
    );
    assert_eq!(
        d.to_string(),
        "test:12:3: error: rule `grow`, vertex `B`: bad"
    );
}
