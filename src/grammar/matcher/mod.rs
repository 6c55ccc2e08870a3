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
//! - **orientation** (seed 000's flip elimination: mirrored matches fail, rotations pass).
//!   Around every pattern vertex with three or more distinct neighbours, the images of those
//!   neighbours must lie around the image of the vertex in the same cyclic (counter-clockwise)
//!   order as in the pattern's editor drawing; a mirror image reverses it. Only the order
//!   counts, not the angles: a star drawn at 0/120/240 degrees matches a host hub whose spokes
//!   lie at 0/60/120 in the same order. Around a vertex with exactly two neighbours (whose
//!   cyclic order is the same both ways) the turn from the first to the second must have the
//!   same sign (cross product) as in the drawing. Host spokes in the same direction have no
//!   order and fail; pattern spokes drawn in the same direction (or two collinear ones) carry no
//!   orientation and are not checked.
//!
//! **Rewriting** removes the host edges that matched pattern edges, gives mapped vertices their
//! substitute tags (`*` keeps the host's), places fresh vertices by mapping the substitute's
//! editor drawing onto the host with the similarity (rotation, uniform scale, translation) that
//! takes one pattern edge's substitute ends onto its host ends, and adds the substitute's edges.
//! Host edges from matched vertices to the rest of the graph stay where they are: the mapped
//! vertices keep their ids, so they are reconnected through the map by construction.

use crate::core::graph::edge_flag;
use crate::grammar::host::Host;
use crate::grammar::rule::{EdgeKind, PatternVertex, Rule, RuleGraph};

/// No vertex.
const NONE: u32 = u32::MAX;

/// The two edges around a pattern vertex with exactly two neighbours, and the way they turn in
/// the editor.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Spur {
    v: u32,
    a: u32,
    b: u32,
    sign: f32,
}

/// A pattern vertex with three or more spokes: `(vertex, start, count)`, its neighbours in
/// counter-clockwise order being `count` entries of the fan list from `start`.
type Fan = (u32, u32, u32);

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
    /// Pattern vertices with three or more spokes: `(vertex, start, count)` into `fan`, which
    /// holds each one's neighbours in the editor's counter-clockwise order.
    fans: Vec<Fan>,
    fan: Vec<u32>,
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

        let order = match_order(p, &degree);
        let (parent, parent_cosmetic, back) = back_edges(p, &order);

        let (spurs, fans, fan) = orientation(rule);
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
            fans,
            fan,
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
        pv.tags.accepts(host.graph.tag[h as usize])
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
                let blocked_here = host.neighbours(map[p]).iter().any(|&(w, _)| {
                    !map.contains(&w) && blocked.accepts(host.graph.tag[w as usize])
                });
                if blocked_here {
                    return false;
                }
            }
        }
        let turns = self.spurs.iter().all(|s| {
            let v = map[s.v as usize] as usize;
            let (a, b) = (map[s.a as usize] as usize, map[s.b as usize] as usize);
            let (ax, ay) = (
                host.graph.x[a] - host.graph.x[v],
                host.graph.y[a] - host.graph.y[v],
            );
            let (bx, by) = (
                host.graph.x[b] - host.graph.x[v],
                host.graph.y[b] - host.graph.y[v],
            );
            (ax * by - ay * bx) * s.sign > 0.0
        });
        turns
            && self.fans.iter().all(|&(v, start, count)| {
                let spokes = &self.fan[start as usize..(start + count) as usize];
                same_cyclic_order(
                    host,
                    map[v as usize],
                    spokes.iter().map(|&w| map[w as usize]),
                )
            })
    }

    /// Rewrites the match `m` (one entry per pattern vertex) of `rule` in `host`: see the
    /// module doc. `edge_length` scales a start rule's substitute (the host has no edge to
    /// measure yet). `removed` is scratch. Returns whether the rewrite is *clean*: the new
    /// corridors cross no corridor and no fresh vertex lies within [`MIN_FRESH_GAP`] edge
    /// lengths of another vertex (after pulling the fresh vertices in where that helps).
    pub fn apply(
        &self,
        rule: &Rule,
        host: &mut Host,
        m: &[u32],
        edge_length: f32,
        gap: f32,
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
                host.graph.tag[m[p] as usize] = t;
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
        let clean = self.settle_fresh(rule, host, ids, first_new, gap);
        host.rebuild_adjacency();
        clean
    }

    /// Pulls the fresh vertices toward their mapped neighbours (halving their offsets, at most
    /// [`SETTLE_STEPS`] times) until no new corridor crosses another corridor and no fresh
    /// vertex is crowded ([`MIN_FRESH_GAP`]); when no scale helps, leaves them where the rule
    /// put them.
    ///
    /// The similarity places the substitute as drawn, which can land a fresh vertex beyond the
    /// face of the host drawing it belongs in; close enough to its anchor it is inside that
    /// face, and the relaxation (which keeps corridors apart) grows it back to size.
    fn settle_fresh(
        &self,
        rule: &Rule,
        host: &mut Host,
        ids: &[u32],
        first_new: usize,
        gap: f32,
    ) -> bool {
        let sub = &rule.substitute;
        let fresh_ids = || {
            self.fresh
                .iter()
                .zip(ids)
                .filter(|(f, _)| **f)
                .map(|(_, &v)| v as usize)
        };
        if !crossing_from(host, first_new) && !crowded(host, ids, fresh_ids(), gap) {
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
                    sx += host.graph.x[ids[s] as usize];
                    sy += host.graph.y[ids[s] as usize];
                    k += 1;
                }
            }
            (k > 0).then(|| (sx / k as f32, sy / k as f32))
        };
        // PERF: the moves live on the stack for substitutes of up to 32 fresh vertices (every
        // shipped rule): no heap allocation per rewrite.
        let fresh_count = self.fresh.iter().filter(|&&f| f).count();
        let mut stack = [(0usize, 0.0f32, 0.0f32, 0.0f32, 0.0f32); 32];
        let mut heap = Vec::new();
        let slots: &mut [(usize, f32, f32, f32, f32)] = if fresh_count <= stack.len() {
            &mut stack[..fresh_count]
        } else {
            heap.resize(fresh_count, (0, 0.0, 0.0, 0.0, 0.0));
            &mut heap
        };
        let mut len = 0;
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
            slots[len] = (
                v,
                anchor.0,
                anchor.1,
                host.graph.x[v] - anchor.0,
                host.graph.y[v] - anchor.1,
            );
            len += 1;
        }
        let moves = &slots[..len];
        let mut t = 1.0f32;
        for _ in 0..SETTLE_STEPS {
            t *= 0.5;
            for &(v, ax, ay, ox, oy) in moves {
                host.graph.x[v] = ax + t * ox;
                host.graph.y[v] = ay + t * oy;
            }
            if !crossing_from(host, first_new)
                && !crowded(host, ids, fresh_ids(), gap)
                && !squeezed(host, ids, moves, gap)
            {
                return true;
            }
        }
        // No scale helped (the crossing is not the fresh vertices' distance but their side):
        // back to the drawing as the rule has it, for the relaxation to sort out.
        for &(v, ax, ay, ox, oy) in moves {
            host.graph.x[v] = ax + ox;
            host.graph.y[v] = ay + oy;
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
                let (hx, hy) = (
                    host.graph.x[hb] - host.graph.x[ha],
                    host.graph.y[hb] - host.graph.y[ha],
                );
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
                    to: (host.graph.x[ha], host.graph.y[ha]),
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
                    to: (host.graph.x[h0], host.graph.y[h0]),
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

mod crowding;
pub use crowding::MIN_FRESH_GAP;
use crowding::{crowded, squeezed};

/// Whether a corridor added at or after edge `first_new` crosses any corridor.
fn crossing_from(host: &Host, first_new: usize) -> bool {
    let p = |v: u32| [host.graph.x[v as usize], host.graph.y[v as usize]];
    for e in first_new..host.edge_count() {
        if host.is_cosmetic(e as u32) {
            continue;
        }
        let (a, b) = (host.graph.src[e], host.graph.dst[e]);
        for g in 0..host.edge_count() {
            if g == e || host.is_cosmetic(g as u32) {
                continue;
            }
            let (c, d) = (host.graph.src[g], host.graph.dst[g]);
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

/// A monotone stand-in for the angle of `(x, y)` in `[0, 4)` (the "diamond angle": exact in its
/// order, no trigonometry); NaN for the zero vector.
#[inline]
fn pseudo_angle(x: f32, y: f32) -> f32 {
    if y >= 0.0 {
        if x >= 0.0 {
            y / (x + y)
        } else {
            1.0 - x / (y - x)
        }
    } else if x < 0.0 {
        2.0 - y / (-x - y)
    } else {
        3.0 + x / (x - y)
    }
}

/// Whether the host vertices `spokes` (images of a pattern vertex's neighbours listed in the
/// pattern's counter-clockwise order) lie around host vertex `hub` in the same cyclic order:
/// their angles rise around the circle with exactly one wrap. Coincident directions (or a spoke
/// on the hub) have no order and fail.
///
/// # Runtime
/// O(k) for `k` spokes, no allocation.
#[inline]
fn same_cyclic_order(host: &Host, hub: u32, spokes: impl Iterator<Item = u32>) -> bool {
    let (hx, hy) = (host.graph.x[hub as usize], host.graph.y[hub as usize]);
    let angle = |w: u32| pseudo_angle(host.graph.x[w as usize] - hx, host.graph.y[w as usize] - hy);
    let mut spokes = spokes.peekable();
    let Some(&first) = spokes.peek() else {
        return true;
    };
    let first = angle(first);
    let (mut previous, mut wraps) = (f32::NAN, 0u32);
    for w in spokes {
        let a = angle(w);
        if a.is_nan() || a == previous {
            return false;
        }
        if a < previous {
            wraps += 1;
        }
        previous = a;
    }
    // Closing the circle: from the last spoke back to the first.
    if first == previous {
        return false;
    }
    wraps += u32::from(first < previous);
    wraps == 1
}

/// The order pattern vertices are matched in, connected: the highest-valence vertex first, then
/// always the unplaced vertex with the most edges back to placed ones.
fn match_order(p: &RuleGraph<PatternVertex>, degree: &[u32]) -> Vec<u32> {
    let n = p.vertices.len();
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
    order
}

/// Per depth of `order`, the vertex placed before it that it hangs from (`NONE` for the first)
/// and whether that edge is cosmetic, and its edges back to vertices placed before it.
#[allow(clippy::type_complexity)]
fn back_edges(
    p: &RuleGraph<PatternVertex>,
    order: &[u32],
) -> (Vec<u32>, Vec<bool>, Vec<Vec<BackEdge>>) {
    let n = order.len();
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
    (parent, parent_cosmetic, back)
}

/// A pattern's orientation: the neighbours of each pattern vertex (parallel edges counted once)
/// sorted by editor angle. A vertex with two neighbours gives one [`Spur`], the sign of its turn
/// (none when the two are collinear); a vertex with three or more gives its neighbours in
/// counter-clockwise order, a *fan* whose cyclic order a match must keep. A fan with two
/// neighbours in the same direction has no order and is left out.
fn orientation(rule: &Rule) -> (Vec<Spur>, Vec<Fan>, Vec<u32>) {
    let p = &rule.pattern;
    let (mut spurs, mut fans, mut fan) = (Vec::new(), Vec::new(), Vec::new());
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
        let offset = |w: u32| {
            let q = &p.vertices[w as usize];
            (q.x - pv.x, q.y - pv.y)
        };
        let angle = |w: u32| {
            let (dx, dy) = offset(w);
            dy.atan2(dx)
        };
        nbrs.sort_by(|&a, &b| angle(a).total_cmp(&angle(b)).then(a.cmp(&b)));
        let k = nbrs.len();
        let collinear = |a: u32, b: u32| {
            let ((ax, ay), (bx, by)) = (offset(a), offset(b));
            let cross = ax * by - ay * bx;
            let norm = (ax * ax + ay * ay).sqrt() * (bx * bx + by * by).sqrt();
            cross.abs() <= 1e-4 * norm
        };
        if k == 2 {
            let (a, b) = (nbrs[0], nbrs[1]);
            if !collinear(a, b) {
                let ((ax, ay), (bx, by)) = (offset(a), offset(b));
                spurs.push(Spur {
                    v: v as u32,
                    a,
                    b,
                    sign: (ax * by - ay * bx).signum(),
                });
            }
            continue;
        }
        // Neighbours in the same direction (collinear and on the same side) have no order.
        let same_direction = (0..k).any(|i| {
            let (a, b) = (nbrs[i], nbrs[(i + 1) % k]);
            let ((ax, ay), (bx, by)) = (offset(a), offset(b));
            collinear(a, b) && ax * bx + ay * by > 0.0
        });
        if !same_direction {
            fans.push((v as u32, fan.len() as u32, k as u32));
            fan.extend_from_slice(&nbrs);
        }
    }
    (spurs, fans, fan)
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
mod tests;
