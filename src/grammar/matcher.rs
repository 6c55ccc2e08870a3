//! Finding a rule's pattern in the host graph and rewriting it (seed 000).
//!
//! **Matching** is subgraph monomorphism by backtracking in the style of VF2: pattern vertices
//! are taken in a connected order (each after the first is a neighbour of one already placed),
//! so the candidates for the next vertex are only the host neighbours of its placed neighbour,
//! and a tag / valence prefilter (`*`, `a|b`, `lock`, `max_valence`) prunes them before any
//! edge test. Cosmetic pattern edges match only cosmetic host edges, and the others only
//! non-cosmetic ones. A complete match must then pass:
//!
//! - **blocked neighbours** (`!c`): no host neighbour outside the match tagged `c` (the seed's
//!   algorithm: the blocked vertex is not part of the pattern graph, it is a filter on the
//!   matched vertex's other neighbours);
//! - **orientation**: around every pattern vertex with two or more neighbours, each pair of
//!   angularly consecutive edges must turn the same way (the sign of their cross product) in the
//!   host as in the pattern's editor drawing. Mirrored matches fail; rotations pass. Every
//!   consecutive pair is compared, around every vertex.
//!
//! **Rewriting** removes the host edges that matched pattern edges, gives mapped vertices their
//! substitute tags (`*` keeps the host's), places fresh vertices by mapping the substitute's
//! editor drawing onto the host with the similarity (rotation, uniform scale, translation) that
//! takes one pattern edge's substitute ends onto its host ends, and adds the substitute's edges.
//! Host edges from matched vertices to the rest of the graph stay where they are: the mapped
//! vertices keep their ids, so they are reconnected through the map by construction.

use crate::core::graph::edge_flag;
use crate::grammar::host::Host;
use crate::grammar::rule::{EdgeKind, Rule};

/// No vertex.
const NONE: u32 = u32::MAX;

/// A consecutive pair of edges around a pattern vertex and the way it turns in the editor.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Spur {
    v: u32,
    a: u32,
    b: u32,
    sign: f32,
}

/// Edges from the vertex placed at some depth back to one placed earlier.
#[derive(Clone, Copy, Debug, PartialEq)]
struct BackEdge {
    to: u32,
    cosmetic: bool,
    count: u32,
}

/// A rule prepared for matching and rewriting.
#[derive(Clone, Debug)]
pub struct Compiled {
    n: usize,
    order: Vec<u32>,
    parent: Vec<u32>,
    parent_cosmetic: Vec<bool>,
    back: Vec<Vec<BackEdge>>,
    degree: Vec<u32>,
    grow: Vec<i32>,
    spurs: Vec<Spur>,
    blocked_any: bool,
    /// Pattern edge whose ends place the fresh vertices (non-start rules).
    basis: Option<(u32, u32)>,
    /// Target length factor of each substitute edge.
    sub_length: Vec<f32>,
    /// Editor units per edge length, for placing a start rule's substitute.
    reference: f32,
    fresh: Vec<bool>,
}

/// Distance below which two editor points count as the same.
const EPS: f32 = 1e-6;

impl Compiled {
    /// Prepares `rule` (which must pass [`Grammar::check`](crate::grammar::rule::Grammar::check)).
    pub fn new(rule: &Rule) -> Self {
        let p = &rule.pattern;
        let n = p.vertices.len();
        let degree = p.valences();
        let sub_degree = rule.substitute.valences();
        let grow = (0..n)
            .map(|v| sub_degree[rule.map[v] as usize] as i32 - degree[v] as i32)
            .collect();

        // Connected order: the highest-valence vertex first, then always the unplaced vertex
        // with the most edges back to placed ones (ties: higher valence, lower id).
        let mut placed = vec![false; n];
        let mut order = Vec::with_capacity(n);
        let first = (0..n).max_by_key(|&v| (degree[v], std::cmp::Reverse(v)));
        if let Some(f) = first {
            order.push(f as u32);
            placed[f] = true;
        }
        while order.len() < n {
            let links = |v: usize| {
                p.edges
                    .iter()
                    .filter(|e| {
                        (e.a as usize == v && placed[e.b as usize])
                            || (e.b as usize == v && placed[e.a as usize])
                    })
                    .count()
            };
            let next = (0..n)
                .filter(|&v| !placed[v])
                .max_by_key(|&v| (links(v), degree[v], std::cmp::Reverse(v)))
                .expect("an unplaced vertex remains");
            order.push(next as u32);
            placed[next] = true;
        }
        let depth_of = {
            let mut d = vec![0usize; n];
            for (k, &v) in order.iter().enumerate() {
                d[v as usize] = k;
            }
            d
        };
        let mut parent = vec![NONE; n];
        let mut parent_cosmetic = vec![false; n];
        let mut back = vec![Vec::new(); n];
        for (k, &v) in order.iter().enumerate() {
            for e in &p.edges {
                let other = if e.a == v {
                    e.b
                } else if e.b == v {
                    e.a
                } else {
                    continue;
                };
                if depth_of[other as usize] >= k {
                    continue;
                }
                let cosmetic = e.kind == EdgeKind::Cosmetic;
                if parent[k] == NONE {
                    parent[k] = other;
                    parent_cosmetic[k] = cosmetic;
                }
                let list: &mut Vec<BackEdge> = &mut back[k];
                match list
                    .iter_mut()
                    .find(|b| b.to == other && b.cosmetic == cosmetic)
                {
                    Some(b) => b.count += 1,
                    None => list.push(BackEdge {
                        to: other,
                        cosmetic,
                        count: 1,
                    }),
                }
            }
        }

        let spurs = spurs(rule);
        let basis = p
            .edges
            .iter()
            .find(|e| e.kind != EdgeKind::Cosmetic)
            .or(p.edges.first())
            .map(|e| (e.a, e.b));
        let (sub_length, reference) = substitute_lengths(rule);
        Self {
            n,
            order,
            parent,
            parent_cosmetic,
            back,
            degree,
            grow,
            spurs,
            blocked_any: p.vertices.iter().any(|v| v.blocked.is_some()),
            basis,
            sub_length,
            reference,
            fresh: rule.fresh(),
        }
    }

    /// Pattern vertex count (entries per match).
    pub fn pattern_len(&self) -> usize {
        self.n
    }

    /// Whether pattern vertex `p` may be host vertex `h` (tags, valence, lock, `max_valence`).
    #[inline]
    fn fits(&self, rule: &Rule, host: &Host, p: u32, h: u32, max_valence: u32) -> bool {
        let pv = &rule.pattern.vertices[p as usize];
        let deg = host.degree(h);
        let need = self.degree[p as usize];
        pv.tags.accepts(host.tag[h as usize])
            && pv.cosmetic == host.cosmetic[h as usize]
            && deg >= need
            && (!pv.lock || deg == need)
            && (deg as i64 + self.grow[p as usize] as i64) <= max_valence as i64
    }

    /// Appends every match of `rule` in `host` to `out` (`pattern_len()` host vertices per
    /// match, indexed by pattern vertex) and returns how many were added.
    ///
    /// A rewrite would push no host vertex's valence above `max_valence`.
    ///
    /// # Runtime
    /// Worst case exponential in the pattern size (subgraph isomorphism); in practice the
    /// connected order and the prefilter keep it near O(V d^(k-1)) for valence `d`, pattern
    /// size `k`.
    pub fn find_matches(
        &self,
        rule: &Rule,
        host: &Host,
        max_valence: u32,
        out: &mut Vec<u32>,
    ) -> usize {
        if self.n == 0 {
            return 0;
        }
        let before = out.len();
        let mut map = [NONE; 32];
        if self.n > map.len() {
            let mut big = vec![NONE; self.n];
            self.extend(rule, host, max_valence, 0, &mut big, out);
        } else {
            self.extend(rule, host, max_valence, 0, &mut map[..self.n], out);
        }
        (out.len() - before) / self.n
    }

    fn extend(
        &self,
        rule: &Rule,
        host: &Host,
        max_valence: u32,
        depth: usize,
        map: &mut [u32],
        out: &mut Vec<u32>,
    ) {
        if depth == self.n {
            if self.accepts(rule, host, map) {
                out.extend_from_slice(map);
            }
            return;
        }
        let p = self.order[depth];
        if depth == 0 {
            for h in 0..host.vertex_count() as u32 {
                if self.fits(rule, host, p, h, max_valence) {
                    map[p as usize] = h;
                    self.extend(rule, host, max_valence, 1, map, out);
                }
            }
            map[p as usize] = NONE;
            return;
        }
        let anchor = map[self.parent[depth] as usize];
        let neighbours = host.neighbours(anchor);
        for (i, &(w, e)) in neighbours.iter().enumerate() {
            if host.is_cosmetic(e) != self.parent_cosmetic[depth] {
                continue;
            }
            // A neighbour reached over parallel edges is one candidate.
            if neighbours[..i]
                .iter()
                .any(|&(w2, e2)| w2 == w && host.is_cosmetic(e2) == self.parent_cosmetic[depth])
            {
                continue;
            }
            if self.order[..depth].iter().any(|&q| map[q as usize] == w) {
                continue;
            }
            if !self.fits(rule, host, p, w, max_valence) {
                continue;
            }
            let edges_ok = self.back[depth].iter().all(|b| {
                let target = map[b.to as usize];
                let have = host
                    .neighbours(w)
                    .iter()
                    .filter(|&&(x, e)| x == target && host.is_cosmetic(e) == b.cosmetic)
                    .count() as u32;
                have >= b.count
            });
            if !edges_ok {
                continue;
            }
            map[p as usize] = w;
            self.extend(rule, host, max_valence, depth + 1, map, out);
        }
        map[p as usize] = NONE;
    }

    /// The checks on a complete match: blocked neighbours and orientation.
    fn accepts(&self, rule: &Rule, host: &Host, map: &[u32]) -> bool {
        if self.blocked_any {
            for (p, pv) in rule.pattern.vertices.iter().enumerate() {
                let Some(blocked) = &pv.blocked else { continue };
                let blocked_here = host
                    .neighbours(map[p])
                    .iter()
                    .any(|&(w, _)| !map.contains(&w) && blocked.accepts(host.tag[w as usize]));
                if blocked_here {
                    return false;
                }
            }
        }
        self.spurs.iter().all(|s| {
            let v = map[s.v as usize] as usize;
            let (a, b) = (map[s.a as usize] as usize, map[s.b as usize] as usize);
            let (ax, ay) = (host.x[a] - host.x[v], host.y[a] - host.y[v]);
            let (bx, by) = (host.x[b] - host.x[v], host.y[b] - host.y[v]);
            (ax * by - ay * bx) * s.sign > 0.0
        })
    }

    /// Rewrites the match `m` (one entry per pattern vertex) of `rule` in `host`: see the
    /// module doc. `edge_length` scales a start rule's substitute (the host has no edge to
    /// measure yet). `removed` is scratch. Returns whether the new corridors cross no corridor
    /// (after pulling the fresh vertices in where that helps).
    pub fn apply(
        &self,
        rule: &Rule,
        host: &mut Host,
        m: &[u32],
        edge_length: f32,
        removed: &mut Vec<bool>,
    ) -> bool {
        debug_assert_eq!(m.len(), self.n);
        // 1. The host edges that matched pattern edges.
        removed.clear();
        removed.resize(host.edge_count(), false);
        for pe in &rule.pattern.edges {
            let (ha, hb) = (m[pe.a as usize], m[pe.b as usize]);
            let cosmetic = pe.kind == EdgeKind::Cosmetic;
            let hit = host.neighbours(ha).iter().find(|&&(w, e)| {
                w == hb && host.is_cosmetic(e) == cosmetic && !removed[e as usize]
            });
            if let Some(&(_, e)) = hit {
                removed[e as usize] = true;
            }
        }
        host.remove_edges(removed);

        // 2. The substitute's vertices: mapped ones keep their host id and position.
        let sub = &rule.substitute;
        let mut id = [NONE; 64];
        let mut big = Vec::new();
        let ids: &mut [u32] = if sub.vertices.len() <= id.len() {
            &mut id[..sub.vertices.len()]
        } else {
            big.resize(sub.vertices.len(), NONE);
            &mut big
        };
        for (p, &s) in rule.map.iter().enumerate() {
            ids[s as usize] = m[p];
            let sv = &sub.vertices[s as usize];
            if let Some(t) = sv.tag {
                host.tag[m[p] as usize] = t;
            }
            host.cosmetic[m[p] as usize] = sv.cosmetic;
        }
        let place = self.placement(rule, host, m, edge_length);
        for (s, v) in sub.vertices.iter().enumerate() {
            if self.fresh[s] {
                let (x, y) = place.apply(v.x, v.y);
                // Validation guarantees fresh vertices carry a tag.
                ids[s] = host.add_vertex(x, y, v.tag.unwrap_or(0), v.cosmetic);
            }
        }

        // 3. The substitute's edges.
        let first_new = host.edge_count();
        for (e, se) in sub.edges.iter().enumerate() {
            let flags = match se.kind {
                EdgeKind::Normal => 0,
                EdgeKind::Cosmetic => edge_flag::COSMETIC,
                EdgeKind::Subdivide => edge_flag::SUBDIVIDE,
            };
            host.add_edge(
                ids[se.a as usize],
                ids[se.b as usize],
                flags,
                self.sub_length[e],
            );
        }
        let clean = self.settle_fresh(rule, host, ids, first_new);
        host.rebuild_adjacency();
        clean
    }

    /// Pulls the fresh vertices toward their mapped neighbours (halving their offsets, at most
    /// [`SETTLE_STEPS`] times) until no new corridor crosses another corridor; when no scale
    /// helps, leaves them where the rule put them.
    ///
    /// The similarity places the substitute as drawn, which can land a fresh vertex beyond the
    /// face of the host drawing it belongs in; close enough to its anchor it is inside that
    /// face, and the relaxation (which keeps corridors apart) grows it back to size.
    fn settle_fresh(&self, rule: &Rule, host: &mut Host, ids: &[u32], first_new: usize) -> bool {
        let sub = &rule.substitute;
        if !crossing_from(host, first_new) {
            return true;
        }
        if !self.fresh.iter().any(|&f| f) {
            return false;
        }
        // Anchor of each fresh vertex: the mean host position of its mapped substitute
        // neighbours, or of all mapped vertices when it has none.
        let mapped_mean = |pick: &dyn Fn(usize) -> bool| {
            let (mut sx, mut sy, mut k) = (0.0f32, 0.0f32, 0u32);
            for (s, &fresh) in self.fresh.iter().enumerate() {
                if !fresh && pick(s) {
                    sx += host.x[ids[s] as usize];
                    sy += host.y[ids[s] as usize];
                    k += 1;
                }
            }
            (k > 0).then(|| (sx / k as f32, sy / k as f32))
        };
        let mut moves: Vec<(usize, f32, f32, f32, f32)> = Vec::new();
        for (s, &fresh) in self.fresh.iter().enumerate() {
            if !fresh {
                continue;
            }
            let neighbour = |t: usize| {
                sub.edges.iter().any(|e| {
                    (e.a as usize == s && e.b as usize == t)
                        || (e.b as usize == s && e.a as usize == t)
                })
            };
            let anchor = mapped_mean(&neighbour)
                .or_else(|| mapped_mean(&|_| true))
                .unwrap_or((0.0, 0.0));
            let v = ids[s] as usize;
            moves.push((
                v,
                anchor.0,
                anchor.1,
                host.x[v] - anchor.0,
                host.y[v] - anchor.1,
            ));
        }
        let mut t = 1.0f32;
        for _ in 0..SETTLE_STEPS {
            t *= 0.5;
            for &(v, ax, ay, ox, oy) in &moves {
                host.x[v] = ax + t * ox;
                host.y[v] = ay + t * oy;
            }
            if !crossing_from(host, first_new) {
                return true;
            }
        }
        // No scale helped (the crossing is not the fresh vertices' distance but their side):
        // back to the drawing as the rule has it, for the relaxation to sort out.
        for &(v, ax, ay, ox, oy) in &moves {
            host.x[v] = ax + ox;
            host.y[v] = ay + oy;
        }
        false
    }

    /// The similarity taking the substitute's editor drawing into host coordinates.
    fn placement(&self, rule: &Rule, host: &Host, m: &[u32], edge_length: f32) -> Similarity {
        let sub = &rule.substitute.vertices;
        let scale = edge_length / self.reference;
        match self.basis {
            Some((a, b)) => {
                let (sa, sb) = (
                    &sub[rule.map[a as usize] as usize],
                    &sub[rule.map[b as usize] as usize],
                );
                let (ha, hb) = (m[a as usize] as usize, m[b as usize] as usize);
                let (sx, sy) = (sb.x - sa.x, sb.y - sa.y);
                let (hx, hy) = (host.x[hb] - host.x[ha], host.y[hb] - host.y[ha]);
                let s2 = sx * sx + sy * sy;
                let h2 = hx * hx + hy * hy;
                // z = h / s as complex numbers: rotation and scale together.
                let (zr, zi) = if s2 > EPS * EPS && h2 > EPS * EPS {
                    ((hx * sx + hy * sy) / s2, (hy * sx - hx * sy) / s2)
                } else {
                    (scale, 0.0)
                };
                Similarity {
                    from: (sa.x, sa.y),
                    to: (host.x[ha], host.y[ha]),
                    zr,
                    zi,
                }
            }
            None => {
                // A start rule: centre the substitute on the start vertex.
                let s0 = &sub[rule.map[0] as usize];
                let h0 = m[0] as usize;
                Similarity {
                    from: (s0.x, s0.y),
                    to: (host.x[h0], host.y[h0]),
                    zr: scale,
                    zi: 0.0,
                }
            }
        }
    }
}

/// Halvings of the fresh vertices' offsets [`Compiled::apply`] tries before it leaves a
/// crossing in place.
pub const SETTLE_STEPS: u32 = 6;

/// Whether a corridor added at or after edge `first_new` crosses any corridor.
fn crossing_from(host: &Host, first_new: usize) -> bool {
    let p = |v: u32| [host.x[v as usize], host.y[v as usize]];
    for e in first_new..host.edge_count() {
        if host.is_cosmetic(e as u32) {
            continue;
        }
        let (a, b) = (host.src[e], host.dst[e]);
        for g in 0..host.edge_count() {
            if g == e || host.is_cosmetic(g as u32) {
                continue;
            }
            let (c, d) = (host.src[g], host.dst[g]);
            if a == c || a == d || b == c || b == d {
                continue;
            }
            if crate::layout::quality::segments_intersect(p(a), p(b), p(c), p(d)) {
                return true;
            }
        }
    }
    false
}

/// `p -> to + z (p - from)` with `z = zr + i zi`.
struct Similarity {
    from: (f32, f32),
    to: (f32, f32),
    zr: f32,
    zi: f32,
}

impl Similarity {
    fn apply(&self, x: f32, y: f32) -> (f32, f32) {
        let (dx, dy) = (x - self.from.0, y - self.from.1);
        (
            self.to.0 + self.zr * dx - self.zi * dy,
            self.to.1 + self.zi * dx + self.zr * dy,
        )
    }
}

/// The orientation pairs of a pattern: around each vertex with two or more distinct
/// neighbours, neighbours sorted by editor angle and every angularly consecutive pair (one pair
/// for two neighbours) with the sign of its turn; collinear pairs carry no orientation and are
/// left out.
fn spurs(rule: &Rule) -> Vec<Spur> {
    let p = &rule.pattern;
    let mut out = Vec::new();
    for (v, pv) in p.vertices.iter().enumerate() {
        let mut nbrs: Vec<u32> = p
            .edges
            .iter()
            .filter_map(|e| {
                if e.a as usize == v {
                    Some(e.b)
                } else if e.b as usize == v {
                    Some(e.a)
                } else {
                    None
                }
            })
            .collect();
        nbrs.sort_unstable();
        nbrs.dedup();
        if nbrs.len() < 2 {
            continue;
        }
        let angle = |w: u32| {
            let q = &p.vertices[w as usize];
            (q.y - pv.y).atan2(q.x - pv.x)
        };
        nbrs.sort_by(|&a, &b| angle(a).total_cmp(&angle(b)).then(a.cmp(&b)));
        let k = nbrs.len();
        let pairs = if k == 2 { 1 } else { k };
        for i in 0..pairs {
            let (a, b) = (nbrs[i], nbrs[(i + 1) % k]);
            let (qa, qb) = (&p.vertices[a as usize], &p.vertices[b as usize]);
            let (ax, ay) = (qa.x - pv.x, qa.y - pv.y);
            let (bx, by) = (qb.x - pv.x, qb.y - pv.y);
            let cross = ax * by - ay * bx;
            let norm = (ax * ax + ay * ay).sqrt() * (bx * bx + by * by).sqrt();
            if cross.abs() > 1e-4 * norm {
                out.push(Spur {
                    v: v as u32,
                    a,
                    b,
                    sign: cross.signum(),
                });
            }
        }
    }
    out
}

/// Each substitute edge's length factor, and the editor length of one edge length.
///
/// Normal edges have factor 1. Subdivide and cosmetic edges keep their drawn proportion: their
/// editor length over the mean editor length of the substitute's normal edges (of all its edges
/// when it has no normal one), clamped to [1/20, 20]. An explicit length wins.
fn substitute_lengths(rule: &Rule) -> (Vec<f32>, f32) {
    let sub = &rule.substitute;
    let len = |a: u32, b: u32| {
        let (p, q) = (&sub.vertices[a as usize], &sub.vertices[b as usize]);
        ((p.x - q.x).powi(2) + (p.y - q.y).powi(2)).sqrt()
    };
    let mean = |normal_only: bool| {
        let (mut sum, mut k) = (0.0f32, 0u32);
        for e in &sub.edges {
            if !normal_only || e.kind == EdgeKind::Normal {
                sum += len(e.a, e.b);
                k += 1;
            }
        }
        (k > 0 && sum > EPS * k as f32).then(|| sum / k as f32)
    };
    let reference = mean(true).or_else(|| mean(false)).unwrap_or(1.0);
    let factors = sub
        .edges
        .iter()
        .map(|e| match (e.length, e.kind) {
            (Some(f), _) => f,
            (None, EdgeKind::Normal) => 1.0,
            (None, _) => (len(e.a, e.b) / reference).clamp(0.05, 20.0),
        })
        .collect();
    (factors, reference)
}

#[cfg(test)]
mod tests {
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

    /// Exhaustive oracle: every injective assignment checked against the same conditions.
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
            if fits && edges && c.accepts(rule, h, m) {
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
        c0.apply(&rule, &mut h, &[0, 1], 1.0, &mut removed);
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
}
