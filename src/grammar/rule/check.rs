//! The semantic checks of a grammar ([`Grammar::check`], [`Grammar::validate`]) and of each of
//! its rules (seed 000's rule invariants): every finding a diagnostic with the rule, vertex and
//! position it is about.

use super::*;

impl Grammar {
    /// Every error and warning, in rule order.
    pub fn check(&self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        let start_tag = self.tags.id(START_TAG);
        if !self.rules.iter().any(Rule::is_start) {
            out.push(Diagnostic::error(
                self,
                None,
                None,
                Pos::default(),
                "no start rule (a rule whose pattern is one vertex tagged `s`)",
            ));
        }
        for rule in &self.rules {
            check_rule(self, rule, start_tag, &mut out);
        }
        out
    }

    /// The errors of [`check`](Self::check) as one [`GrammarError`], if any (warnings pass).
    pub fn validate(&self) -> Result<(), GrammarError> {
        let errors: Vec<Diagnostic> = self
            .check()
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(GrammarError::Invalid(errors))
        }
    }
}

/// Checks `rule` of `g`, appending its findings to `out` in a fixed order: weight and uses,
/// edges, the pattern's and substitute's vertices, the map, `*` tags, then (when every edge
/// names two distinct existing vertices) connectivity and knots.
pub(super) fn check_rule(
    g: &Grammar,
    rule: &Rule,
    start_tag: Option<TagId>,
    out: &mut Vec<Diagnostic>,
) {
    let mut c = RuleCheck {
        g,
        rule,
        start_tag,
        out,
    };
    c.weight_and_uses();
    let edges_ok = c.edges();
    c.pattern_vertices();
    c.substitute_vertices();
    let (image, map_ok) = c.map();
    c.star_tags(&image);
    if !edges_ok {
        return;
    }
    c.connectivity(&image, map_ok);
    c.knots(&image);
}

/// The rule under check and where its findings go.
struct RuleCheck<'a> {
    g: &'a Grammar,
    rule: &'a Rule,
    start_tag: Option<TagId>,
    out: &'a mut Vec<Diagnostic>,
}

impl RuleCheck<'_> {
    /// Records an error about the rule (and `vertex`) at `at`.
    fn err(&mut self, vertex: Option<&str>, at: Pos, msg: impl Into<String>) {
        let d = Diagnostic::error(self.g, Some(self.rule), vertex, at, msg);
        self.out.push(d);
    }

    /// Whether `tags` is exactly the start tag `s`.
    fn is_start_tag(&self, tags: &TagSet) -> bool {
        self.start_tag.is_some_and(|t| tags.is_only(t))
    }

    /// A positive weight, and max uses not below min uses.
    fn weight_and_uses(&mut self) {
        let rule = self.rule;
        if !(rule.weight.is_finite() && rule.weight > 0.0) {
            let msg = format!("weight {} must be a positive number", rule.weight);
            self.err(None, rule.at, msg);
        }
        if let Some(max) = rule.max_uses
            && max < rule.min_uses
        {
            let msg = format!("max uses {max} is below min uses {}", rule.min_uses);
            self.err(None, rule.at, msg);
        }
    }

    /// Every edge names two distinct existing vertices and has a positive length factor.
    /// Returns whether the ends are sound (nothing else about the graphs can be checked
    /// otherwise).
    fn edges(&mut self) -> bool {
        let (p, s) = (&self.rule.pattern, &self.rule.substitute);
        let mut ok = true;
        for (what, n, edges) in [
            ("pattern", p.vertices.len(), &p.edges),
            ("substitute", s.vertices.len(), &s.edges),
        ] {
            for e in edges {
                ok &= self.edge(what, n, e);
            }
        }
        ok
    }

    /// One edge of the `what` graph of `n` vertices; whether its ends are sound.
    fn edge(&mut self, what: &str, n: usize, e: &RuleEdge) -> bool {
        let mut ok = true;
        if e.a as usize >= n || e.b as usize >= n {
            let msg = format!(
                "{what} edge {}-{} names a vertex that does not exist",
                e.a, e.b
            );
            self.err(None, e.at, msg);
            ok = false;
        } else if e.a == e.b {
            let msg = format!("{what} edge joins vertex {} to itself", e.a);
            self.err(None, e.at, msg);
            ok = false;
        }
        if let Some(f) = e.length
            && !(f.is_finite() && f > 0.0)
        {
            let msg = format!("{what} edge length factor {f} must be positive");
            self.err(None, e.at, msg);
        }
        ok
    }

    /// A pattern has vertices; one vertex only in a start rule, tagged `s`; `s` nowhere else.
    fn pattern_vertices(&mut self) {
        let rule = self.rule;
        let p = &rule.pattern;
        if p.vertices.is_empty() {
            self.err(None, rule.at, "the pattern has no vertices");
        } else if p.vertices.len() == 1 {
            let v = &p.vertices[0];
            if !self.is_start_tag(&v.tags) {
                let msg = format!(
                    "a one-vertex pattern makes a start rule, whose vertex must be tagged `s` (it is `{}`)",
                    v.tags.display(&self.g.tags)
                );
                self.err(Some(&v.name), v.at, msg);
            }
        } else {
            for v in &p.vertices {
                if self.is_start_tag(&v.tags) {
                    let msg = "`s` belongs only to a start rule's one-vertex pattern";
                    self.err(Some(&v.name), v.at, msg);
                }
            }
        }
    }

    /// A substitute has vertices, none tagged `s`.
    fn substitute_vertices(&mut self) {
        let rule = self.rule;
        if rule.substitute.vertices.is_empty() {
            self.err(None, rule.at, "the substitute has no vertices");
        }
        for v in &rule.substitute.vertices {
            if v.tag.is_some() && v.tag == self.start_tag {
                self.err(
                    Some(&v.name),
                    v.at,
                    "no substitute vertex may be tagged `s`",
                );
            }
        }
    }

    /// The map: total (one entry per pattern vertex) and injective. Returns the image (the
    /// pattern vertex each substitute vertex is mapped from, if any) and whether the map is
    /// sound.
    fn map(&mut self) -> (Vec<Option<usize>>, bool) {
        let rule = self.rule;
        let (p, s) = (&rule.pattern, &rule.substitute);
        let mut map_ok = rule.map.len() == p.vertices.len();
        if !map_ok {
            let msg = format!(
                "the map has {} entries for {} pattern vertices (every pattern vertex must map to a substitute vertex)",
                rule.map.len(),
                p.vertices.len()
            );
            self.err(None, rule.at, msg);
        }
        let mut image: Vec<Option<usize>> = vec![None; s.vertices.len()];
        for (pi, &si) in rule.map.iter().enumerate() {
            let pname = p.vertices.get(pi).map(|v| v.name.as_str());
            match image.get_mut(si as usize) {
                None => {
                    map_ok = false;
                    let msg = format!("maps to substitute vertex {si}, which does not exist");
                    self.err(pname, rule.at, msg);
                }
                Some(Some(other)) => {
                    map_ok = false;
                    let msg = format!(
                        "maps to the same substitute vertex as pattern vertex `{}` (the map must be one-to-one)",
                        p.vertices[*other].name
                    );
                    self.err(pname, rule.at, msg);
                }
                Some(slot) => *slot = Some(pi),
            }
        }
        (image, map_ok)
    }

    /// A fresh substitute vertex has no host tag to keep, so no `*`.
    fn star_tags(&mut self, image: &[Option<usize>]) {
        for (si, v) in self.rule.substitute.vertices.iter().enumerate() {
            if v.tag.is_none() && image[si].is_none() {
                let msg = "`*` keeps the host vertex's tag, so it is only for mapped vertices";
                self.err(Some(&v.name), v.at, msg);
            }
        }
    }

    /// Both graphs connected, and no rewrite able to split a level's walkable graph.
    fn connectivity(&mut self, image: &[Option<usize>], map_ok: bool) {
        let rule = self.rule;
        let (p, s) = (&rule.pattern, &rule.substitute);
        if p.vertices.len() > 1 && !p.connected_over(|_| true) {
            self.err(None, rule.at, "the pattern is not connected");
        }
        if !s.vertices.is_empty() && !s.connected_over(|_| true) {
            self.err(None, rule.at, "the substitute is not connected");
        } else if map_ok && let Some(problem) = walkable_problem(rule, image) {
            self.err(None, rule.at, problem);
        }
    }

    /// Warns about knots: a substitute edge between two mapped vertices not adjacent in the
    /// pattern.
    fn knots(&mut self, image: &[Option<usize>]) {
        let rule = self.rule;
        let (p, s) = (&rule.pattern, &rule.substitute);
        for e in &s.edges {
            if let (Some(Some(pa)), Some(Some(pb))) =
                (image.get(e.a as usize), image.get(e.b as usize))
                && !p.adjacent(*pa as u32, *pb as u32)
            {
                let (a, b) = (
                    &s.vertices[e.a as usize].name,
                    &s.vertices[e.b as usize].name,
                );
                let msg = format!(
                    "substitute edge {a}-{b} joins vertices whose pattern vertices are not adjacent (a knot the layout may not undo)"
                );
                let d = Diagnostic::warning(self.g, Some(rule), Some(a), e.at, msg);
                self.out.push(d);
            }
        }
    }
}

/// Walkable components of a rule graph: over non-cosmetic edges, a component label per vertex
/// (two vertices are in one component when their labels are equal).
fn walkable_components<V>(g: &RuleGraph<V>) -> Vec<usize> {
    let mut sets = crate::core::sets::UnionFind::default();
    let walkable = g
        .edges
        .iter()
        .filter(|e| e.kind != EdgeKind::Cosmetic)
        .map(|e| (e.a, e.b));
    crate::core::sets::joins(g.vertices.len(), walkable, &mut sets);
    (0..g.vertices.len() as u32)
        .map(|v| sets.find(v) as usize)
        .collect()
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
