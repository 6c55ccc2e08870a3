//! The build loop of seed 000: start from one `s` vertex, apply the start rule, then keep
//! picking a rule among those that match (by weight) and one of its matches (uniformly),
//! rewriting and relaxing the drawing, until the vertex budget, the iteration budget or the
//! matches run out; then give every vertex a room and place the rooms without overlap.

use std::time::Instant;

use crate::core::error::GenError;
use crate::core::rng::WarrenRng;
use crate::grammar::host::Host;
use crate::grammar::matcher::Compiled;
use crate::grammar::rule::Grammar;
use crate::layout::rooms::{Placement, RoomParams, place_rooms};
use crate::layout::{LayoutGraph, LayoutParams, LayoutScratch, relax, upscale};

/// How a build runs.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildParams {
    /// Rewrites attempted at most (the start rule counts as one).
    pub max_iterations: u32,
    /// Fewer vertices at the end fails the seed.
    pub min_vertices: u32,
    /// Rules that would go past this many vertices are not applied.
    pub max_vertices: u32,
    /// No rewrite may push a vertex's valence above this.
    pub max_valence: u32,
    /// The solver after rewrites (`length` is the edge length, `max_iterations` the cap per
    /// relaxation).
    pub layout: LayoutParams,
    /// Relax after every `relax_every` rewrites (1: after each, as demirogue; 0: only at the
    /// end).
    pub relax_every: u32,
    /// Scale the drawing by this factor about its centre before each rewrite (seed 000's
    /// "upscaling insertion"; 1: off).
    pub upscale: f32,
    /// Solver iterations of the final relaxation with room-sized edges.
    pub final_iterations: u32,
    /// Room placement.
    pub rooms: RoomParams,
}

/// What a build did, besides the graph left in the scratch.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildReport {
    /// Rewrites applied (the start rule included).
    pub rewrites: u32,
    /// Whether it stopped because no rule matched.
    pub stalled: bool,
    /// Solver iterations run during the build (not counting the room placement).
    pub layout_iterations: u32,
    /// How the rooms were placed.
    pub placement: Placement,
    /// Nanoseconds spent matching.
    pub match_ns: u64,
    /// Nanoseconds spent rewriting.
    pub rewrite_ns: u64,
    /// Nanoseconds in the solver during the build.
    pub layout_ns: u64,
    /// Nanoseconds placing rooms.
    pub rooms_ns: u64,
}

/// Memory a worker reuses across builds.
#[derive(Default)]
pub struct BuildScratch {
    /// The graph being built; after a build, the result.
    pub host: Host,
    /// Room width per vertex of the result.
    pub room_w: Vec<f32>,
    /// Room height per vertex of the result.
    pub room_h: Vec<f32>,
    /// Uses of each rule in the last build.
    pub uses: Vec<u32>,
    matches: Vec<u32>,
    candidates: Vec<Candidate>,
    removed: Vec<bool>,
    layout: LayoutScratch,
}

/// A rule with matches in the current host: its matches are `count` runs of the rule's pattern
/// size starting at `start` in the match buffer.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    rule: u32,
    start: u32,
    count: u32,
}

fn nanos(t: Instant) -> u64 {
    t.elapsed().as_nanos() as u64
}

/// Builds one level for `seed`. `compiled[i]` must be `Compiled::new(&grammar.rules[i])`.
///
/// # Errors
/// When the build ends below `min_vertices` (reason `below min_vertices`).
pub fn build(
    grammar: &Grammar,
    compiled: &[Compiled],
    params: &BuildParams,
    seed: u64,
    s: &mut BuildScratch,
) -> Result<BuildReport, GenError> {
    let mut rng = WarrenRng::new(seed);
    let mut report = BuildReport {
        rewrites: 0,
        stalled: false,
        layout_iterations: 0,
        placement: Placement::default(),
        match_ns: 0,
        rewrite_ns: 0,
        layout_ns: 0,
        rooms_ns: 0,
    };
    let host = &mut s.host;
    host.clear();
    host.add_vertex(0.0, 0.0, 0, false);
    host.rebuild_adjacency();
    s.uses.clear();
    s.uses.resize(grammar.rules.len(), 0);

    for _ in 0..params.max_iterations {
        let t = Instant::now();
        s.matches.clear();
        s.candidates.clear();
        let n = host.vertex_count();
        for (i, (rule, c)) in grammar.rules.iter().zip(compiled).enumerate() {
            if n + rule.delta() > params.max_vertices as usize
                || rule.max_uses.is_some_and(|m| s.uses[i] >= m)
            {
                continue;
            }
            let start = s.matches.len() as u32;
            let count = c.find_matches(rule, host, params.max_valence, &mut s.matches);
            if count > 0 {
                s.candidates.push(Candidate {
                    rule: i as u32,
                    start,
                    count: count as u32,
                });
            }
        }
        report.match_ns += nanos(t);
        if s.candidates.is_empty() {
            report.stalled = true;
            break;
        }
        // Rules still below their minimum go first.
        let below_min =
            |c: &Candidate| s.uses[c.rule as usize] < grammar.rules[c.rule as usize].min_uses;
        let prefer_min = s.candidates.iter().any(below_min);
        let eligible = |c: &Candidate| !prefer_min || below_min(c);
        let total: f64 = s
            .candidates
            .iter()
            .filter(|c| eligible(c))
            .map(|c| f64::from(grammar.rules[c.rule as usize].weight))
            .sum();
        let mut pick = rng.unit_f64() * total;
        let mut chosen = *s
            .candidates
            .iter()
            .rfind(|c| eligible(c))
            .expect("an eligible candidate exists");
        for c in s.candidates.iter().filter(|c| eligible(c)) {
            let w = f64::from(grammar.rules[c.rule as usize].weight);
            if pick < w {
                chosen = *c;
                break;
            }
            pick -= w;
        }
        let r = chosen.rule as usize;
        let k = compiled[r].pattern_len();
        let which = rng.below(chosen.count) as usize;
        let at = chosen.start as usize + which * k;

        let t = Instant::now();
        if params.upscale != 1.0 && host.edge_count() > 0 {
            upscale(&mut host.x, &mut host.y, params.upscale);
        }
        compiled[r].apply(
            &grammar.rules[r],
            host,
            &s.matches[at..at + k],
            params.layout.length,
            &mut s.removed,
        );
        s.uses[r] += 1;
        report.rewrites += 1;
        report.rewrite_ns += nanos(t);

        if params.relax_every > 0 && report.rewrites.is_multiple_of(params.relax_every) {
            let t = Instant::now();
            let graph = LayoutGraph {
                src: &host.src,
                dst: &host.dst,
                length_factor: Some(&host.length),
            };
            let r = relax(
                &graph,
                &mut host.x,
                &mut host.y,
                &params.layout,
                &mut s.layout,
            );
            report.layout_iterations += r.iterations;
            report.layout_ns += nanos(t);
        }
        if host.vertex_count() >= params.max_vertices as usize {
            break;
        }
    }

    let n = host.vertex_count();
    if n < params.min_vertices as usize {
        return Err(GenError {
            reason: "below min_vertices",
            detail: format!(
                "{n} vertices after {} rewrites (min_vertices {}){}",
                report.rewrites,
                params.min_vertices,
                if report.stalled {
                    ", no rule matched"
                } else {
                    ""
                }
            ),
        });
    }

    let t = Instant::now();
    s.room_w.clear();
    s.room_h.clear();
    for (&tag, &cosmetic) in host.tag.iter().zip(&host.cosmetic) {
        // Cosmetic vertices shape the drawing and get no room.
        let size = grammar.room(tag);
        s.room_w.push(if cosmetic { 0.0 } else { size.w });
        s.room_h.push(if cosmetic { 0.0 } else { size.h });
    }
    let graph = LayoutGraph {
        src: &host.src,
        dst: &host.dst,
        length_factor: Some(&host.length),
    };
    let final_params = LayoutParams {
        max_iterations: params.final_iterations,
        ..params.layout.clone()
    };
    report.placement = place_rooms(
        &graph,
        &mut host.x,
        &mut host.y,
        &s.room_w,
        &s.room_h,
        &final_params,
        &params.rooms,
        &mut s.layout,
    );
    report.rooms_ns = nanos(t);
    Ok(report)
}
