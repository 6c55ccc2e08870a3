//! The semantic checks of one rule (seed 000's rule invariants): every finding a diagnostic
//! with the rule, vertex and position it is about.

use super::*;

pub(super) fn check_rule(
    g: &Grammar,
    rule: &Rule,
    start_tag: Option<TagId>,
    out: &mut Vec<Diagnostic>,
) {
    let err = |out: &mut Vec<Diagnostic>, vertex: Option<&str>, at: Pos, msg: String| {
        out.push(Diagnostic::error(g, Some(rule), vertex, at, msg));
    };
    let (p, s) = (&rule.pattern, &rule.substitute);
    if !(rule.weight.is_finite() && rule.weight > 0.0) {
        err(
            out,
            None,
            rule.at,
            format!("weight {} must be a positive number", rule.weight),
        );
    }
    if let Some(max) = rule.max_uses
        && max < rule.min_uses
    {
        err(
            out,
            None,
            rule.at,
            format!("max uses {max} is below min uses {}", rule.min_uses),
        );
    }
    // Edges must name existing vertices before anything else can be checked.
    let mut edges_ok = true;
    for (what, n, edges) in [
        ("pattern", p.vertices.len(), &p.edges),
        ("substitute", s.vertices.len(), &s.edges),
    ] {
        for e in edges {
            if e.a as usize >= n || e.b as usize >= n {
                err(
                    out,
                    None,
                    e.at,
                    format!(
                        "{what} edge {}-{} names a vertex that does not exist",
                        e.a, e.b
                    ),
                );
                edges_ok = false;
            } else if e.a == e.b {
                err(
                    out,
                    None,
                    e.at,
                    format!("{what} edge joins vertex {} to itself", e.a),
                );
                edges_ok = false;
            }
            if let Some(f) = e.length
                && !(f.is_finite() && f > 0.0)
            {
                err(
                    out,
                    None,
                    e.at,
                    format!("{what} edge length factor {f} must be positive"),
                );
            }
        }
    }
    if p.vertices.is_empty() {
        err(
            out,
            None,
            rule.at,
            "the pattern has no vertices".to_string(),
        );
    } else if p.vertices.len() == 1 {
        let v = &p.vertices[0];
        if !start_tag.is_some_and(|t| v.tags.is_only(t)) {
            err(
                out,
                Some(&v.name),
                v.at,
                format!(
                    "a one-vertex pattern makes a start rule, whose vertex must be tagged `s` (it is `{}`)",
                    v.tags.display(&g.tags)
                ),
            );
        }
    } else {
        for v in &p.vertices {
            if start_tag.is_some_and(|t| v.tags.is_only(t)) {
                err(
                    out,
                    Some(&v.name),
                    v.at,
                    "`s` belongs only to a start rule's one-vertex pattern".to_string(),
                );
            }
        }
    }
    if s.vertices.is_empty() {
        err(
            out,
            None,
            rule.at,
            "the substitute has no vertices".to_string(),
        );
    }
    for v in &s.vertices {
        if v.tag.is_some() && v.tag == start_tag {
            err(
                out,
                Some(&v.name),
                v.at,
                "no substitute vertex may be tagged `s`".to_string(),
            );
        }
    }
    // The map: total (one entry per pattern vertex) and injective.
    if rule.map.len() != p.vertices.len() {
        err(
            out,
            None,
            rule.at,
            format!(
                "the map has {} entries for {} pattern vertices (every pattern vertex must map to a substitute vertex)",
                rule.map.len(),
                p.vertices.len()
            ),
        );
    }
    let mut map_ok = rule.map.len() == p.vertices.len();
    let mut image: Vec<Option<usize>> = vec![None; s.vertices.len()];
    for (pi, &si) in rule.map.iter().enumerate() {
        let pname = p.vertices.get(pi).map(|v| v.name.as_str());
        match image.get_mut(si as usize) {
            None | Some(Some(_)) => map_ok = false,
            Some(None) => {}
        }
        match image.get_mut(si as usize) {
            None => err(
                out,
                pname,
                rule.at,
                format!("maps to substitute vertex {si}, which does not exist"),
            ),
            Some(Some(other)) => err(
                out,
                pname,
                rule.at,
                format!(
                    "maps to the same substitute vertex as pattern vertex `{}` (the map must be one-to-one)",
                    p.vertices[*other].name
                ),
            ),
            Some(slot) => *slot = Some(pi),
        }
    }
    // A fresh substitute vertex has no host tag to keep.
    for (si, v) in s.vertices.iter().enumerate() {
        if v.tag.is_none() && image[si].is_none() {
            err(
                out,
                Some(&v.name),
                v.at,
                "`*` keeps the host vertex's tag, so it is only for mapped vertices".to_string(),
            );
        }
    }
    if !edges_ok {
        return;
    }
    if p.vertices.len() > 1 && !p.connected_over(|_| true) {
        err(
            out,
            None,
            rule.at,
            "the pattern is not connected".to_string(),
        );
    }
    if !s.vertices.is_empty() && !s.connected_over(|_| true) {
        err(
            out,
            None,
            rule.at,
            "the substitute is not connected".to_string(),
        );
    } else if map_ok && let Some(problem) = walkable_problem(rule, &image) {
        err(out, None, rule.at, problem);
    }
    // Knots: a substitute edge between two mapped vertices not adjacent in the pattern.
    for e in &s.edges {
        if let (Some(Some(pa)), Some(Some(pb))) = (image.get(e.a as usize), image.get(e.b as usize))
            && !p.adjacent(*pa as u32, *pb as u32)
        {
            out.push(Diagnostic::warning(
                g,
                Some(rule),
                Some(&s.vertices[e.a as usize].name),
                e.at,
                format!(
                    "substitute edge {}-{} joins vertices whose pattern vertices are not adjacent (a knot the layout may not undo)",
                    s.vertices[e.a as usize].name, s.vertices[e.b as usize].name
                ),
            ));
        }
    }
}

/// Walkable components of a rule graph: over non-cosmetic edges.
fn walkable_components<V>(g: &RuleGraph<V>) -> Vec<usize> {
    let mut comp: Vec<usize> = (0..g.vertices.len()).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for e in g.edges.iter().filter(|e| e.kind != EdgeKind::Cosmetic) {
            let (a, b) = (e.a as usize, e.b as usize);
            let m = comp[a].min(comp[b]);
            if comp[a] != m || comp[b] != m {
                comp[a] = m;
                comp[b] = m;
                changed = true;
            }
        }
    }
    comp
}

/// Why a rewrite by `rule` could cut a level's walkable graph (rooms joined by corridors), if
/// it could. Walkable connectivity survives every rewrite when (1) pattern vertices joined by
/// corridors in the pattern stay joined by corridors in the substitute, and (2) every
/// non-cosmetic substitute vertex is joined by corridors to a mapped vertex that was a room in
/// the pattern (for a start rule: all its non-cosmetic vertices are joined to each other).
fn walkable_problem(rule: &Rule, image: &[Option<usize>]) -> Option<String> {
    let (p, s) = (&rule.pattern, &rule.substitute);
    let cs = walkable_components(s);
    if rule.is_start() {
        let rooms: Vec<usize> = (0..s.vertices.len())
            .filter(|&v| !s.vertices[v].cosmetic)
            .collect();
        if rooms.windows(2).any(|w| cs[w[0]] != cs[w[1]]) {
            return Some(
                "the substitute's rooms (non-cosmetic vertices) are not all joined by corridors (non-cosmetic edges)"
                    .to_string(),
            );
        }
        return None;
    }
    for e in p.edges.iter().filter(|e| e.kind != EdgeKind::Cosmetic) {
        let (a, b) = (
            rule.map[e.a as usize] as usize,
            rule.map[e.b as usize] as usize,
        );
        if cs[a] != cs[b] {
            return Some(format!(
                "pattern vertices `{}` and `{}` are joined by corridors in the pattern but not in the substitute (a rewrite could split the level)",
                p.vertices[e.a as usize].name, p.vertices[e.b as usize].name
            ));
        }
    }
    for (v, sv) in s.vertices.iter().enumerate() {
        if sv.cosmetic {
            continue;
        }
        let anchored = (0..s.vertices.len())
            .any(|m| cs[m] == cs[v] && image[m].is_some_and(|pv| !p.vertices[pv].cosmetic));
        if !anchored {
            return Some(format!(
                "substitute vertex `{}` is not joined by corridors to any mapped room (a rewrite could split the level)",
                sv.name
            ));
        }
    }
    None
}
