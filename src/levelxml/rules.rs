//! `<rules>` checked as the game checks them (seed 002's "Rules", with the corpus notes):
//!
//! - `<connected/>`: every vertex is reachable from some origin; no vertices is connected, and
//!   vertices without any origin never are;
//! - count rules: a missing color or `any` counts everything, a color counts that color, `same`
//!   checks every color of `<colors>` on its own (also colors used zero times);
//! - edge rules ban an edge whose colors match `(v1, edge, v2)` in either direction. All `same`
//!   slots share one binding, fixed by the first comparison (the edge slot, then v1, then v2),
//!   fresh for each direction: the game leaks the binding from one direction into the other,
//!   which makes `v1="same" v2="red"` depend on the edge's direction, and that bug is not kept.

use crate::core::csr::Adjacency;
use crate::levelxml::graph::ResolvedGraph;
use crate::levelxml::model::{Bound, Color, ColorSel, Item, Rule};

/// One rule's outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleResult {
    /// Whether the graph satisfies the rule.
    pub ok: bool,
    /// Why not (or a short summary when it holds).
    pub detail: String,
}

/// Checks `rule` on `g` with the level's `colors`.
///
/// # Runtime
/// O(V + E) for `connected`, O(E) for edge rules, O((V + E) * colors) for count rules.
pub fn check_rule(rule: &Rule, g: &ResolvedGraph, colors: &[Color]) -> RuleResult {
    match rule {
        Rule::Connected => connected(g),
        Rule::Count {
            item,
            bound,
            color,
            limit,
        } => count(g, colors, *item, *bound, color, *limit),
        Rule::EdgeBan { v1, edge, v2 } => edge_ban(g, colors, [edge, v1, v2]),
    }
}

fn connected(g: &ResolvedGraph) -> RuleResult {
    let n = g.vertex_count();
    let adj = Adjacency::from_edges(n, g.ends.iter().copied(), |_, w| w);
    let mut seen = g.origin.clone();
    let mut stack: Vec<u32> = (0..n as u32).filter(|&v| seen[v as usize]).collect();
    while let Some(v) = stack.pop() {
        for &w in &adj[v as usize] {
            if !seen[w as usize] {
                seen[w as usize] = true;
                stack.push(w);
            }
        }
    }
    let reached = seen.iter().filter(|&&s| s).count();
    RuleResult {
        ok: reached == n,
        detail: if reached == n {
            format!("all {n} vertices reached from the origins")
        } else if !g.origin.iter().any(|&o| o) {
            "no origin vertex".to_string()
        } else {
            format!("{} of {n} vertices not reached from an origin", n - reached)
        },
    }
}

fn count(
    g: &ResolvedGraph,
    colors: &[Color],
    item: Item,
    bound: Bound,
    color: &ColorSel,
    limit: i64,
) -> RuleResult {
    let items = match item {
        Item::Vertex => &g.vertex_color,
        Item::Edge => &g.edge_color,
    };
    let noun = match item {
        Item::Vertex => "vertices",
        Item::Edge => "edges",
    };
    let holds = |n: i64| match bound {
        Bound::Min => n >= limit,
        Bound::Max => n <= limit,
    };
    let want = match bound {
        Bound::Min => "at least",
        Bound::Max => "at most",
    };
    let of = |c: usize| items.iter().filter(|&&x| x as usize == c).count() as i64;
    let (ok, detail) = match color {
        ColorSel::Any => {
            let n = items.len() as i64;
            (holds(n), format!("{n} {noun}, {want} {limit}"))
        }
        ColorSel::Named(name) => {
            let n = colors.iter().position(|c| &c.name == name).map_or(0, of);
            (holds(n), format!("{n} {name} {noun}, {want} {limit}"))
        }
        ColorSel::Same => match (0..colors.len()).find(|&c| !holds(of(c))) {
            Some(c) => (
                false,
                format!("{} {} {noun}, {want} {limit}", of(c), colors[c].name),
            ),
            None => (true, format!("every color: {want} {limit} {noun}")),
        },
    };
    RuleResult { ok, detail }
}

/// Whether colors `[edge, a, b]` match the slots `[edge, v1, v2]`, with one `same` binding.
fn matches(slots: [&ColorSel; 3], colors: &[Color], actual: [u32; 3]) -> bool {
    let mut bound: Option<u32> = None;
    slots.iter().zip(actual).all(|(slot, c)| match slot {
        ColorSel::Any => true,
        ColorSel::Named(name) => colors.get(c as usize).is_some_and(|k| &k.name == name),
        ColorSel::Same => *bound.get_or_insert(c) == c,
    })
}

fn edge_ban(g: &ResolvedGraph, colors: &[Color], slots: [&ColorSel; 3]) -> RuleResult {
    let banned = g.ends.iter().zip(&g.edge_color).position(|(&(a, b), &ec)| {
        let (ca, cb) = (g.vertex_color[a as usize], g.vertex_color[b as usize]);
        matches(slots, colors, [ec, ca, cb]) || matches(slots, colors, [ec, cb, ca])
    });
    match banned {
        None => RuleResult {
            ok: true,
            detail: format!("no banned edge among {}", g.edge_count()),
        },
        Some(e) => {
            let (a, b) = g.ends[e];
            let name = |c: u32| colors.get(c as usize).map_or("?", |k| k.name.as_str());
            RuleResult {
                ok: false,
                detail: format!(
                    "edge {e} ({} vertex {a} - {} edge - {} vertex {b}) is banned",
                    name(g.vertex_color[a as usize]),
                    name(g.edge_color[e]),
                    name(g.vertex_color[b as usize])
                ),
            }
        }
    }
}
