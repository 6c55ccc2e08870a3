//! Tests of matching and rewriting, with exhaustive search as the matcher's oracle and an
//! orientation test written independently of the matcher's.

use super::*;
use crate::grammar::rule::{
    Grammar, PatternVertex, Pos, RuleEdge, RuleGraph, SubstituteVertex, TagId, TagSet,
};

fn pv(x: f32, y: f32, tags: TagSet) -> PatternVertex {
    PatternVertex {
        name: format!("{x},{y}"),
        x,
        y,
        tags,
        blocked: None,
        lock: false,
        cosmetic: false,
        at: Pos::default(),
    }
}

fn sv(x: f32, y: f32, tag: Option<TagId>) -> SubstituteVertex {
    SubstituteVertex {
        name: format!("{x},{y}"),
        x,
        y,
        tag,
        cosmetic: false,
        at: Pos::default(),
    }
}

fn e(a: u32, b: u32, kind: EdgeKind) -> RuleEdge {
    RuleEdge {
        a,
        b,
        kind,
        length: None,
        at: Pos::default(),
    }
}

/// A rule whose substitute is the pattern itself (tags kept): for matching tests.
fn rule_of(pattern: RuleGraph<PatternVertex>) -> Rule {
    let substitute = RuleGraph {
        vertices: pattern
            .vertices
            .iter()
            .map(|v| sv(v.x, v.y, None))
            .collect(),
        edges: pattern.edges.clone(),
    };
    let map = (0..pattern.vertices.len() as u32).collect();
    Rule {
        name: "r".into(),
        weight: 1.0,
        max_uses: None,
        min_uses: 0,
        pattern,
        substitute,
        map,
        at: Pos::default(),
    }
}

fn host(vertices: &[(f32, f32, TagId)], edges: &[(u32, u32, u8)]) -> Host {
    let mut h = Host::default();
    for &(x, y, t) in vertices {
        h.add_vertex(x, y, t, false);
    }
    for &(a, b, f) in edges {
        h.add_edge(a, b, f, 1.0);
    }
    h.rebuild_adjacency();
    h
}

fn matches(rule: &Rule, h: &Host, max_valence: u32) -> Vec<Vec<u32>> {
    let c = Compiled::new(rule);
    let mut out = Vec::new();
    let k = c.find_matches(rule, h, max_valence, &mut out);
    let mut v: Vec<Vec<u32>> = out.chunks(c.pattern_len()).map(|m| m.to_vec()).collect();
    assert_eq!(v.len(), k);
    v.sort();
    v
}

/// The blocked-neighbour rule, written out: no host neighbour outside the match carries a tag
/// its pattern vertex blocks.
fn blocked_ok(rule: &Rule, h: &Host, m: &[u32]) -> bool {
    rule.pattern.vertices.iter().enumerate().all(|(p, pv)| {
        let Some(blocked) = &pv.blocked else {
            return true;
        };
        (0..h.edge_count()).all(|e| {
            let other = if h.src[e] == m[p] {
                h.dst[e]
            } else if h.dst[e] == m[p] {
                h.src[e]
            } else {
                return true;
            };
            m.contains(&other) || !blocked.accepts(h.tag[other as usize])
        })
    })
}

/// The orientation oracle, independent of the matcher: around every pattern vertex, sort its
/// distinct neighbours by editor angle and their images by host angle (`atan2` in `f64`); with
/// three or more, the image of the pattern's cyclic sequence must be a rotation of the host's;
/// with two, the turn from the first to the second must have the same sign. Pattern spokes in
/// the same direction (or two collinear ones) carry no orientation; host spokes in the same
/// direction fail.
fn keeps_orientation(rule: &Rule, h: &Host, m: &[u32]) -> bool {
    let p = &rule.pattern;
    (0..p.vertices.len()).all(|v| {
        let mut nbrs: Vec<usize> = p
            .edges
            .iter()
            .filter_map(|e| match (e.a as usize, e.b as usize) {
                (a, b) if a == v => Some(b),
                (a, b) if b == v => Some(a),
                _ => None,
            })
            .collect();
        nbrs.sort_unstable();
        nbrs.dedup();
        let k = nbrs.len();
        if k < 2 {
            return true;
        }
        let pat = |w: usize| {
            let (q, c) = (&p.vertices[w], &p.vertices[v]);
            (f64::from(q.x - c.x), f64::from(q.y - c.y))
        };
        let img = |w: usize| {
            let (q, c) = (m[w] as usize, m[v] as usize);
            (f64::from(h.x[q] - h.x[c]), f64::from(h.y[q] - h.y[c]))
        };
        let cross = |a: (f64, f64), b: (f64, f64)| a.0 * b.1 - a.1 * b.0;
        let norm = |a: (f64, f64)| a.0.hypot(a.1);
        let angle = |d: (f64, f64)| d.1.atan2(d.0);
        let mut by_pattern = nbrs.clone();
        by_pattern.sort_by(|&a, &b| angle(pat(a)).total_cmp(&angle(pat(b))).then(a.cmp(&b)));
        if k == 2 {
            let (a, b) = (pat(by_pattern[0]), pat(by_pattern[1]));
            if cross(a, b).abs() <= 1e-4 * norm(a) * norm(b) {
                return true;
            }
            let turn = cross(img(by_pattern[0]), img(by_pattern[1]));
            return turn != 0.0 && turn.signum() == cross(a, b).signum();
        }
        let same_way = |a: (f64, f64), b: (f64, f64)| {
            cross(a, b).abs() <= 1e-4 * norm(a) * norm(b) && a.0 * b.0 + a.1 * b.1 > 0.0
        };
        if (0..k).any(|i| same_way(pat(by_pattern[i]), pat(by_pattern[(i + 1) % k]))) {
            return true;
        }
        let mut by_host = nbrs.clone();
        by_host.sort_by(|&a, &b| angle(img(a)).total_cmp(&angle(img(b))));
        if (0..k).any(|i| angle(img(by_host[i])) == angle(img(by_host[(i + 1) % k]))) {
            return false;
        }
        (0..k).any(|r| (0..k).all(|i| by_pattern[i] == by_host[(i + r) % k]))
    })
}

/// Exhaustive oracle: every injective assignment checked against the conditions written out
/// independently (tags, valences, edges of each kind, blocked neighbours, orientation).
fn matches_brute(rule: &Rule, h: &Host, max_valence: u32) -> Vec<Vec<u32>> {
    let c = Compiled::new(rule);
    let n = rule.pattern.vertices.len();
    let hv = h.vertex_count() as u32;
    let mut out = Vec::new();
    let mut map = vec![0u32; n];
    fn rec(k: usize, n: usize, hv: u32, map: &mut Vec<u32>, f: &mut dyn FnMut(&[u32])) {
        if k == n {
            f(map);
            return;
        }
        for h in 0..hv {
            if !map[..k].contains(&h) {
                map[k] = h;
                rec(k + 1, n, hv, map, f);
            }
        }
    }
    rec(0, n, hv, &mut map, &mut |m: &[u32]| {
        let fits = (0..n).all(|p| c.fits(rule, h, p as u32, m[p], max_valence));
        // Every pattern edge needs its own host edge of the same kind.
        let mut used = vec![false; h.edge_count()];
        let edges = rule.pattern.edges.iter().all(|pe| {
            let cos = pe.kind == EdgeKind::Cosmetic;
            let hit = (0..h.edge_count()).find(|&x| {
                !used[x]
                    && h.is_cosmetic(x as u32) == cos
                    && ((h.src[x] == m[pe.a as usize] && h.dst[x] == m[pe.b as usize])
                        || (h.dst[x] == m[pe.a as usize] && h.src[x] == m[pe.b as usize]))
            });
            hit.map(|x| used[x] = true).is_some()
        });
        if fits && edges && blocked_ok(rule, h, m) && keeps_orientation(rule, h, m) {
            out.push(m.to_vec());
        }
    });
    out.sort();
    out
}

/// Seed 000's triangle: `a` with two `b`s. On a host triangle drawn the same way round,
/// exactly one of the two assignments of the `b`s survives: the rotation, never the mirror.
#[test]
fn the_seeds_triangle_matches_only_its_rotation() {
    let mut g = Grammar::new("t");
    let (a, b) = (g.tags.intern("a"), g.tags.intern("b"));
    let pattern = RuleGraph {
        vertices: vec![
            pv(0.0, 0.0, TagSet::of(vec![a])),
            pv(100.0, 0.0, TagSet::of(vec![b])),
            pv(100.0, 100.0, TagSet::of(vec![b])),
        ],
        edges: vec![
            e(0, 1, EdgeKind::Normal),
            e(1, 2, EdgeKind::Normal),
            e(0, 2, EdgeKind::Normal),
        ],
    };
    let rule = rule_of(pattern);
    // The host triangle, rotated by 90 degrees and moved.
    let h = host(
        &[(5.0, 5.0, a), (5.0, 15.0, b), (-5.0, 15.0, b)],
        &[(0, 1, 0), (1, 2, 0), (2, 0, 0)],
    );
    assert_eq!(matches(&rule, &h, 8), vec![vec![0, 1, 2]]);
    // Its mirror image matches the other way round.
    let mirrored = host(
        &[(5.0, 5.0, a), (5.0, 15.0, b), (15.0, 15.0, b)],
        &[(0, 1, 0), (1, 2, 0), (2, 0, 0)],
    );
    assert_eq!(matches(&rule, &mirrored, 8), vec![vec![0, 2, 1]]);
    // Without the orientation test both would match (the test is what removes one).
    assert_eq!(
        matches_brute_without_orientation(&rule, &h).len(),
        2,
        "two assignments before the orientation test"
    );
}

fn matches_brute_without_orientation(rule: &Rule, h: &Host) -> Vec<Vec<u32>> {
    let mut c = Compiled::new(rule);
    c.spurs.clear();
    c.fans.clear();
    let mut out = Vec::new();
    c.find_matches(rule, h, 8, &mut out);
    out.chunks(3).map(|m| m.to_vec()).collect()
}

/// An `a` hub with three neighbours: every consecutive pair is compared, so a match that
/// keeps one pair's turn but swaps the other two fails (a one-pair check would pass it).
#[test]
fn every_consecutive_pair_around_a_vertex_is_compared() {
    let mut g = Grammar::new("t");
    let (a, b) = (g.tags.intern("a"), g.tags.intern("b"));
    let pattern = RuleGraph {
        vertices: vec![
            pv(0.0, 0.0, TagSet::of(vec![a])),
            pv(100.0, 0.0, TagSet::of(vec![b])),
            pv(-50.0, 80.0, TagSet::of(vec![b])),
            pv(-50.0, -80.0, TagSet::of(vec![b])),
        ],
        edges: vec![
            e(0, 1, EdgeKind::Normal),
            e(0, 2, EdgeKind::Normal),
            e(0, 3, EdgeKind::Normal),
        ],
    };
    let rule = rule_of(pattern);
    let h = host(
        &[
            (0.0, 0.0, a),
            (10.0, 0.0, b),
            (-5.0, 8.0, b),
            (-5.0, -8.0, b),
        ],
        &[(0, 1, 0), (0, 2, 0), (0, 3, 0)],
    );
    // Three rotations of a three-spoke star; the three mirrors are rejected.
    let got = matches(&rule, &h, 8);
    assert_eq!(got.len(), 3, "{got:?}");
    assert_eq!(got, matches_brute(&rule, &h, 8));
    for m in &got {
        // Rotations keep the cyclic order 1 -> 2 -> 3.
        let pos = |v: u32| m.iter().position(|&x| x == v).unwrap();
        let (p1, p2, p3) = (pos(1), pos(2), pos(3));
        assert!(
            [(1, 2, 3), (2, 3, 1), (3, 1, 2)].contains(&(p1, p2, p3)),
            "{m:?}"
        );
    }
}

/// A star pattern: hub `a` at the origin, leaves `b`, `c`, `d` at `angles` (degrees) on the
/// unit circle scaled by 100, so exactly one assignment can match.
fn star(angles: [f32; 3]) -> (Rule, [TagId; 4]) {
    let mut g = Grammar::new("t");
    let tags = [
        g.tags.intern("a"),
        g.tags.intern("b"),
        g.tags.intern("c"),
        g.tags.intern("d"),
    ];
    let mut vertices = vec![pv(0.0, 0.0, TagSet::of(vec![tags[0]]))];
    for (k, deg) in angles.iter().enumerate() {
        let r = deg.to_radians();
        vertices.push(pv(
            100.0 * r.cos(),
            100.0 * r.sin(),
            TagSet::of(vec![tags[k + 1]]),
        ));
    }
    let rule = rule_of(RuleGraph {
        vertices,
        edges: vec![
            e(0, 1, EdgeKind::Normal),
            e(0, 2, EdgeKind::Normal),
            e(0, 3, EdgeKind::Normal),
        ],
    });
    (rule, tags)
}

/// A host hub with leaves tagged `b`, `c`, `d` at `angles` (degrees), optionally mirrored.
fn star_host(tags: [TagId; 4], angles: [f32; 3], mirror: bool) -> Host {
    let mut vertices = vec![(3.0, -2.0, tags[0])];
    for (k, deg) in angles.iter().enumerate() {
        let r = deg.to_radians();
        let y = 7.0 * r.sin();
        vertices.push((
            3.0 + 7.0 * r.cos(),
            -2.0 + if mirror { -y } else { y },
            tags[k + 1],
        ));
    }
    host(&vertices, &[(0, 1, 0), (0, 2, 0), (0, 3, 0)])
}

/// Regression: the flip test demanded that every angularly consecutive pair of spokes turn
/// the same way in the host as in the pattern, which rejects a hub whose spokes keep the
/// pattern's cyclic order but fit in a half-plane (a 0/120/240 star never matched a
/// 0/60/120 hub). Orientation is the cyclic order of the spokes: same order, accepted;
/// mirrored, rejected.
#[test]
fn a_star_matches_every_hub_with_its_cyclic_order_and_no_mirror() {
    let (rule, tags) = star([0.0, 120.0, 240.0]);
    for hub in [
        [0.0, 60.0, 120.0],
        [0.0, 100.0, 200.0],
        [30.0, 200.0, 300.0],
        [10.0, 20.0, 30.0],
    ] {
        let same = star_host(tags, hub, false);
        assert_eq!(
            matches(&rule, &same, 8),
            vec![vec![0, 1, 2, 3]],
            "hub {hub:?}"
        );
        let mirrored = star_host(tags, hub, true);
        assert!(
            matches(&rule, &mirrored, 8).is_empty(),
            "mirrored hub {hub:?}"
        );
    }
}

#[test]
fn tag_sets_and_wildcards() {
    let mut g = Grammar::new("t");
    let (a, b, c) = (g.tags.intern("a"), g.tags.intern("b"), g.tags.intern("c"));
    let h = host(
        &[(0.0, 0.0, a), (1.0, 0.0, b), (2.0, 0.0, c)],
        &[(0, 1, 0), (1, 2, 0)],
    );
    let edge_rule = |t0: TagSet, t1: TagSet| {
        rule_of(RuleGraph {
            vertices: vec![pv(0.0, 0.0, t0), pv(1.0, 0.0, t1)],
            edges: vec![e(0, 1, EdgeKind::Normal)],
        })
    };
    let set = edge_rule(TagSet::of(vec![a, c]), TagSet::of(vec![b]));
    assert_eq!(matches(&set, &h, 8), vec![vec![0, 1], vec![2, 1]]);
    let single = edge_rule(TagSet::of(vec![a]), TagSet::of(vec![b]));
    assert_eq!(matches(&single, &h, 8), vec![vec![0, 1]]);
    let any = edge_rule(TagSet::Any, TagSet::of(vec![b]));
    assert_eq!(matches(&any, &h, 8), vec![vec![0, 1], vec![2, 1]]);
    let both = edge_rule(TagSet::Any, TagSet::Any);
    assert_eq!(matches(&both, &h, 8).len(), 4);
}

#[test]
fn blocked_neighbours_filter_matches() {
    let mut g = Grammar::new("t");
    let (a, b, c) = (g.tags.intern("a"), g.tags.intern("b"), g.tags.intern("c"));
    // Two a-b pairs; the second b has a c neighbour.
    let h = host(
        &[
            (0.0, 0.0, a),
            (1.0, 0.0, b),
            (0.0, 5.0, a),
            (1.0, 5.0, b),
            (2.0, 5.0, c),
        ],
        &[(0, 1, 0), (2, 3, 0), (3, 4, 0)],
    );
    let mut rule = rule_of(RuleGraph {
        vertices: vec![
            pv(0.0, 0.0, TagSet::of(vec![a])),
            pv(1.0, 0.0, TagSet::of(vec![b])),
        ],
        edges: vec![e(0, 1, EdgeKind::Normal)],
    });
    assert_eq!(matches(&rule, &h, 8).len(), 2);
    rule.pattern.vertices[1].blocked = Some(TagSet::of(vec![c]));
    assert_eq!(matches(&rule, &h, 8), vec![vec![0, 1]]);
    assert_eq!(matches(&rule, &h, 8), matches_brute(&rule, &h, 8));
    // A blocked tag inside the match does not block it.
    rule.pattern.vertices[1].blocked = Some(TagSet::of(vec![a]));
    assert_eq!(matches(&rule, &h, 8).len(), 2);
}

#[test]
fn lock_requires_equal_valence() {
    let mut g = Grammar::new("t");
    let a = g.tags.intern("a");
    // A path 0-1-2-3: ends have valence 1, inner vertices 2.
    let h = host(
        &[(0.0, 0.0, a), (1.0, 0.0, a), (2.0, 0.0, a), (3.0, 0.0, a)],
        &[(0, 1, 0), (1, 2, 0), (2, 3, 0)],
    );
    let mut rule = rule_of(RuleGraph {
        vertices: vec![
            pv(0.0, 0.0, TagSet::of(vec![a])),
            pv(1.0, 0.0, TagSet::of(vec![a])),
        ],
        edges: vec![e(0, 1, EdgeKind::Normal)],
    });
    assert_eq!(matches(&rule, &h, 8).len(), 6);
    rule.pattern.vertices[0].lock = true;
    // Vertex 0 of the pattern must be a host end (valence 1 = its pattern valence).
    assert_eq!(matches(&rule, &h, 8), vec![vec![0, 1], vec![3, 2]]);
    assert_eq!(matches(&rule, &h, 8), matches_brute(&rule, &h, 8));
}

#[test]
fn max_valence_rejects_matches_that_would_exceed_it() {
    let mut g = Grammar::new("t");
    let a = g.tags.intern("a");
    // A star: hub 0 of valence 3.
    let h = host(
        &[(0.0, 0.0, a), (1.0, 0.0, a), (0.0, 1.0, a), (-1.0, 0.0, a)],
        &[(0, 1, 0), (0, 2, 0), (0, 3, 0)],
    );
    // a - a  =>  a - a with a new leaf on the first: the first vertex grows by one.
    let mut rule = rule_of(RuleGraph {
        vertices: vec![
            pv(0.0, 0.0, TagSet::of(vec![a])),
            pv(1.0, 0.0, TagSet::of(vec![a])),
        ],
        edges: vec![e(0, 1, EdgeKind::Normal)],
    });
    rule.substitute.vertices.push(sv(0.0, 1.0, Some(a)));
    rule.substitute.edges.push(e(0, 2, EdgeKind::Normal));
    // With max valence 3 the hub (3 -> 4) cannot be the growing vertex.
    let got = matches(&rule, &h, 3);
    assert!(got.iter().all(|m| m[0] != 0), "{got:?}");
    assert_eq!(got.len(), 3);
    assert_eq!(matches(&rule, &h, 4).len(), 6);
    assert_eq!(got, matches_brute(&rule, &h, 3));
}

#[test]
fn cosmetic_edges_match_only_cosmetic_edges() {
    let mut g = Grammar::new("t");
    let a = g.tags.intern("a");
    let h = host(
        &[(0.0, 0.0, a), (1.0, 0.0, a), (2.0, 0.0, a)],
        &[(0, 1, edge_flag::COSMETIC), (1, 2, 0)],
    );
    let mut rule = rule_of(RuleGraph {
        vertices: vec![
            pv(0.0, 0.0, TagSet::of(vec![a])),
            pv(1.0, 0.0, TagSet::of(vec![a])),
        ],
        edges: vec![e(0, 1, EdgeKind::Cosmetic)],
    });
    assert_eq!(matches(&rule, &h, 8), vec![vec![0, 1], vec![1, 0]]);
    rule.pattern.edges[0].kind = EdgeKind::Normal;
    assert_eq!(matches(&rule, &h, 8), vec![vec![1, 2], vec![2, 1]]);
    assert_eq!(matches(&rule, &h, 8), matches_brute(&rule, &h, 8));
}

/// The backtracking matcher against the exhaustive oracle on random hosts.
#[test]
fn matcher_agrees_with_exhaustive_search() {
    use crate::core::rng::WarrenRng;
    let mut g = Grammar::new("t");
    let (a, b) = (g.tags.intern("a"), g.tags.intern("b"));
    let path = rule_of(RuleGraph {
        vertices: vec![
            pv(0.0, 0.0, TagSet::of(vec![a])),
            pv(1.0, 0.0, TagSet::Any),
            pv(1.0, 1.0, TagSet::of(vec![a, b])),
        ],
        edges: vec![e(0, 1, EdgeKind::Normal), e(1, 2, EdgeKind::Normal)],
    });
    let mut tri = rule_of(RuleGraph {
        vertices: vec![
            pv(0.0, 0.0, TagSet::of(vec![a])),
            pv(1.0, 0.0, TagSet::of(vec![b])),
            pv(0.0, 1.0, TagSet::Any),
        ],
        edges: vec![
            e(0, 1, EdgeKind::Normal),
            e(1, 2, EdgeKind::Normal),
            e(2, 0, EdgeKind::Cosmetic),
        ],
    });
    tri.pattern.vertices[1].blocked = Some(TagSet::of(vec![a]));
    let mut rng = WarrenRng::new(7);
    for round in 0..200 {
        let n = 3 + (rng.next_u64() % 6) as usize;
        let vs: Vec<(f32, f32, TagId)> = (0..n)
            .map(|_| {
                (
                    rng.unit_f32() * 10.0,
                    rng.unit_f32() * 10.0,
                    if rng.next_u64().is_multiple_of(2) {
                        a
                    } else {
                        b
                    },
                )
            })
            .collect();
        let mut es = Vec::new();
        for i in 0..n as u32 {
            for j in i + 1..n as u32 {
                if rng.next_u64().is_multiple_of(3) {
                    let f = if rng.next_u64().is_multiple_of(4) {
                        edge_flag::COSMETIC
                    } else {
                        0
                    };
                    es.push((i, j, f));
                }
            }
        }
        let h = host(&vs, &es);
        for rule in [&path, &tri] {
            for mv in [2, 3, 8] {
                assert_eq!(
                    matches(rule, &h, mv),
                    matches_brute(rule, &h, mv),
                    "round {round}, max valence {mv}"
                );
            }
        }
    }
}

#[test]
fn rewriting_keeps_outside_edges_and_places_fresh_vertices_on_the_host_edge() {
    let mut g = Grammar::new("t");
    let (a, c) = (g.tags.intern("a"), g.tags.intern("c"));
    // a - a  =>  a - c - a  (subdivide the edge), the new vertex halfway along.
    let mut rule = rule_of(RuleGraph {
        vertices: vec![
            pv(0.0, 0.0, TagSet::of(vec![a])),
            pv(100.0, 0.0, TagSet::of(vec![a])),
        ],
        edges: vec![e(0, 1, EdgeKind::Normal)],
    });
    rule.substitute.vertices.push(sv(50.0, 0.0, Some(c)));
    rule.substitute.edges = vec![e(0, 2, EdgeKind::Subdivide), e(2, 1, EdgeKind::Subdivide)];
    // Host: 0 - 1 plus an outside vertex 2 on 1; the host edge is vertical and 4 long.
    let mut h = host(
        &[(0.0, 0.0, a), (0.0, 4.0, a), (3.0, 4.0, a)],
        &[(0, 1, 0), (1, 2, 0)],
    );
    let c0 = Compiled::new(&rule);
    let mut removed = Vec::new();
    c0.apply(&rule, &mut h, &[0, 1], 1.0, MIN_FRESH_GAP, &mut removed);
    assert_eq!(h.vertex_count(), 4);
    assert_eq!(h.tag[3], c);
    assert!((h.x[3] - 0.0).abs() < 1e-5 && (h.y[3] - 2.0).abs() < 1e-5);
    // The outside edge 1-2 survives; 0-1 is replaced by 0-3-1 with half lengths... of the
    // subdivide edges relative to... no normal edge: the mean of all substitute edges.
    let mut edges: Vec<(u32, u32)> = h.src.iter().zip(&h.dst).map(|(&s, &d)| (s, d)).collect();
    edges.sort();
    assert_eq!(edges, vec![(0, 3), (1, 2), (3, 1)]);
    assert!(h.connected_walkable());
    assert_eq!(
        h.flags
            .iter()
            .filter(|&&f| f == edge_flag::SUBDIVIDE)
            .count(),
        2
    );
}

#[test]
fn subdivide_lengths_are_relative_to_normal_edges() {
    let mut g = Grammar::new("t");
    let a = g.tags.intern("a");
    let mut rule = rule_of(RuleGraph {
        vertices: vec![
            pv(0.0, 0.0, TagSet::of(vec![a])),
            pv(100.0, 0.0, TagSet::of(vec![a])),
        ],
        edges: vec![e(0, 1, EdgeKind::Normal)],
    });
    rule.substitute.vertices.push(sv(0.0, 50.0, Some(a)));
    rule.substitute.edges.push(e(0, 2, EdgeKind::Subdivide));
    rule.substitute.edges.push(e(1, 2, EdgeKind::Cosmetic));
    let (f, reference) = substitute_lengths(&rule);
    assert_eq!(reference, 100.0);
    assert_eq!(f[0], 1.0);
    assert!((f[1] - 0.5).abs() < 1e-6);
    assert!((f[2] - (100.0f32 * 100.0 + 50.0 * 50.0).sqrt() / 100.0).abs() < 1e-5);
}

/// A host that is `rule`'s pattern itself, drawn at its editor positions moved by `to`: each
/// vertex carries a tag its tag set accepts and the pattern's cosmetic flag, each edge the
/// pattern edge's kind. `None` when some vertex accepts no tag of the grammar.
fn pattern_as_host(
    grammar: &Grammar,
    rule: &Rule,
    to: impl Fn(f32, f32) -> (f32, f32),
) -> Option<Host> {
    let mut h = Host::default();
    for pv in &rule.pattern.vertices {
        let tag = (0..grammar.tags.len() as TagId).find(|&t| pv.tags.accepts(t))?;
        let (x, y) = to(pv.x, pv.y);
        h.add_vertex(x, y, tag, pv.cosmetic);
    }
    for pe in &rule.pattern.edges {
        h.add_edge(pe.a, pe.b, pe.kind.flags(), 1.0);
    }
    h.rebuild_adjacency();
    Some(h)
}

/// Every rule of every shipped grammar, drawn as a host rotated (any angle), scaled and moved,
/// matches itself by the identity; drawn as its mirror image, it matches itself exactly when
/// the independent oracle says the mirror keeps the orientation (a rule whose pattern is
/// symmetric), and the matcher agrees with exhaustive search on every one of these hosts.
#[test]
fn every_shipped_rule_matches_its_rotations_and_not_its_mirrors() {
    let (mut rules, mut chiral) = (0, 0);
    for builtin in crate::grammar::library::BUILTINS {
        let grammar = crate::grammar::library::load(builtin.name).expect("built-in rules load");
        for rule in grammar
            .rules
            .iter()
            .filter(|r| r.pattern.vertices.len() >= 2)
        {
            let n = rule.pattern.vertices.len() as u32;
            let identity: Vec<u32> = (0..n).collect();
            for (k, deg) in [0.0f32, 37.0, 90.0, 143.0, 200.0, 271.0].iter().enumerate() {
                let (sin, cos) = deg.to_radians().sin_cos();
                let scale = 0.05 + 0.3 * k as f32;
                let turn = |x: f32, y: f32| {
                    (
                        scale * (cos * x - sin * y) + 7.0,
                        scale * (sin * x + cos * y) - 3.0,
                    )
                };
                let Some(h) = pattern_as_host(&grammar, rule, turn) else {
                    continue;
                };
                let got = matches(rule, &h, 1000);
                assert!(
                    got.contains(&identity),
                    "{}: rule {} rotated {deg} degrees does not match itself",
                    builtin.name,
                    rule.name
                );
                if n <= 6 {
                    assert_eq!(
                        got,
                        matches_brute(rule, &h, 1000),
                        "{} {}",
                        builtin.name,
                        rule.name
                    );
                }
                let Some(mirror) = pattern_as_host(&grammar, rule, |x, y| turn(-x, y)) else {
                    continue;
                };
                let keeps = keeps_orientation(rule, &mirror, &identity);
                let got = matches(rule, &mirror, 1000);
                assert_eq!(
                    got.contains(&identity),
                    keeps,
                    "{}: rule {} mirrored at {deg} degrees",
                    builtin.name,
                    rule.name
                );
                if k == 0 {
                    rules += 1;
                    chiral += usize::from(!keeps);
                }
            }
        }
    }
    // Every built-in grammar's rules were tried, many of them chiral.
    // (29 rules with two or more pattern vertices, 14 of them chiral, as shipped.)
    assert!(rules >= 25, "{rules} rules tried");
    assert!(chiral >= 10, "{chiral} of {rules} rules chiral");
}

/// The triangle rule of demirogue's `silly`: a new vertex joined to both ends of an edge,
/// drawn on one side of it.
fn triangle_rule(a: TagId) -> Rule {
    let mut rule = rule_of(RuleGraph {
        vertices: vec![
            pv(0.0, 0.0, TagSet::of(vec![a])),
            pv(100.0, 0.0, TagSet::of(vec![a])),
        ],
        edges: vec![e(0, 1, EdgeKind::Normal)],
    });
    rule.substitute.vertices.push(sv(50.0, 86.6, Some(a)));
    rule.substitute
        .edges
        .extend([e(0, 2, EdgeKind::Normal), e(2, 1, EdgeKind::Normal)]);
    rule
}

/// Regression: the same triangle rule applied twice to one edge the same way round put the
/// second fresh vertex on the first, no corridor crossed, so the rewrite counted as clean and
/// the two rooms could never be pulled apart again (15% of `silly` seeds failed for it).
#[test]
fn a_fresh_vertex_on_another_vertex_is_not_a_clean_rewrite() {
    let mut g = Grammar::new("t");
    let a = g.tags.intern("a");
    let rule = triangle_rule(a);
    let c = Compiled::new(&rule);
    let first = || {
        host(
            &[(0.0, 0.0, a), (1.0, 0.0, a), (0.5, 0.866, a)],
            &[(0, 1, 0), (0, 2, 0), (2, 1, 0)],
        )
    };
    let mut removed = Vec::new();
    let mut h = first();
    let clean = c.apply(&rule, &mut h, &[0, 1], 1.0, MIN_FRESH_GAP, &mut removed);
    assert!(!clean, "a rewrite crowding vertex 2 counted as clean");
    // Without the gap, the rewrite is accepted with the fresh vertex within 0.6 of vertex 2 or
    // squeezed against the edge's ends (what the build used to keep).
    let mut h = first();
    assert!(c.apply(&rule, &mut h, &[0, 1], 1.0, 0.0, &mut removed));
    let d = |h: &Host, u: usize, v: usize| (h.x[u] - h.x[v]).hypot(h.y[u] - h.y[v]);
    assert!((0..3).any(|u| d(&h, u, 3) < MIN_FRESH_GAP));
    // On the other side of the edge there is room: clean, one edge length from both ends.
    let mut h = host(&[(0.0, 0.0, a), (1.0, 0.0, a)], &[(0, 1, 0)]);
    assert!(c.apply(&rule, &mut h, &[0, 1], 1.0, MIN_FRESH_GAP, &mut removed));
    assert!((d(&h, 0, 2) - 1.0).abs() < 1e-3 && (d(&h, 1, 2) - 1.0).abs() < 1e-3);
}

/// The gap applies to vertices outside the rewrite: a rule may draw its own vertices closer
/// than the gap (demirogue's `catacomb` does), and its rewrites stay clean.
#[test]
fn a_rule_may_draw_its_own_vertices_closer_than_the_gap() {
    let mut g = Grammar::new("t");
    let a = g.tags.intern("a");
    let mut rule = triangle_rule(a);
    rule.substitute.vertices[2] = sv(50.0, 20.0, Some(a));
    let c = Compiled::new(&rule);
    let mut h = host(&[(0.0, 0.0, a), (1.0, 0.0, a)], &[(0, 1, 0)]);
    let mut removed = Vec::new();
    assert!(c.apply(&rule, &mut h, &[0, 1], 1.0, MIN_FRESH_GAP, &mut removed));
    assert!((h.y[2] - 0.2).abs() < 1e-4, "placed as drawn: {}", h.y[2]);
}
