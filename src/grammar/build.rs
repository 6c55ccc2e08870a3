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
use crate::layout::preserve::{PreserveScratch, relax_preserving};
use crate::layout::quality::count_crossings;
use crate::layout::rooms::{Placement, RoomParams, place_rooms_keeping};
use crate::layout::{LayoutGraph, LayoutParams, LayoutScratch, relax, upscale as upscale_drawing};

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
    /// Seed 000's "upscaling insertion": before each rewrite the drawing is scaled about its
    /// centre until its edges are on average this many times their target length (never beyond,
    /// so the scale stays bounded however many rewrites run; 1: off). See [`make_room`].
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
    /// Relaxations that would have made corridors cross and were redone keeping them apart.
    pub preserved_relaxations: u32,
    /// Corridor crossings at the end of the build, before the rooms were placed.
    pub crossings_before_rooms: u64,
    /// Rewrites undone because their new corridors would have crossed the drawing.
    pub rejected_matches: u32,
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
    preserve: PreserveScratch,
    keep_src: Vec<u32>,
    keep_dst: Vec<u32>,
    saved_x: Vec<f32>,
    saved_y: Vec<f32>,
    saved: Host,
}

/// A rule with matches in the current host: its matches are `count` runs of the rule's pattern
/// size starting at `start` in the match buffer.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    rule: u32,
    start: u32,
    count: u32,
}

/// Rewrites tried and undone per step before one is kept whatever it does to the drawing.
pub const MAX_REJECTIONS: u32 = 16;

/// The host's corridors (non-cosmetic edges) into `src`, `dst`.
fn corridors(host: &Host, src: &mut Vec<u32>, dst: &mut Vec<u32>) {
    src.clear();
    dst.clear();
    for e in 0..host.edge_count() {
        if !host.is_cosmetic(e as u32) {
            src.push(host.src[e]);
            dst.push(host.dst[e]);
        }
    }
}

/// Index of the candidate to apply: by rule weight, among the rules below their minimum use
/// count if any of them matches.
fn pick_candidate(
    grammar: &Grammar,
    candidates: &[Candidate],
    uses: &[u32],
    rng: &mut WarrenRng,
) -> usize {
    let below_min = |c: &Candidate| uses[c.rule as usize] < grammar.rules[c.rule as usize].min_uses;
    let prefer_min = candidates.iter().any(below_min);
    let eligible = |c: &Candidate| !prefer_min || below_min(c);
    let weight = |c: &Candidate| f64::from(grammar.rules[c.rule as usize].weight);
    let total: f64 = candidates.iter().filter(|c| eligible(c)).map(weight).sum();
    let mut pick = rng.unit_f64() * total;
    let mut chosen = candidates
        .iter()
        .rposition(eligible)
        .expect("an eligible candidate exists");
    for (i, c) in candidates.iter().enumerate().filter(|(_, c)| eligible(c)) {
        if pick < weight(c) {
            chosen = i;
            break;
        }
        pick -= weight(c);
    }
    chosen
}

/// Scales the drawing about its centre so that its edges are on average `upscale` times their
/// target lengths (`length` times each edge's factor), when they are shorter than that; a
/// drawing already that spread out is left alone.
///
/// Seed 000 upscales to make room before a subgraph is inserted. Scaling by a fixed factor
/// before every rewrite compounds (1.5 over 40 rewrites is a factor of 10^7 on the oldest
/// corridors, which the relaxation cannot pull back), so the factor here is relative to the
/// drawing's own scale: the relaxation after the rewrite shrinks the edges back toward their
/// targets, and the next rewrite's upscaling starts from there.
///
/// # Runtime
/// O(V + E), no allocation.
pub fn make_room(host: &mut Host, length: f32, upscale: f32) {
    let (mut now, mut target) = (0.0f64, 0.0f64);
    for e in 0..host.edge_count() {
        let (a, b) = (host.src[e] as usize, host.dst[e] as usize);
        now += f64::from((host.x[b] - host.x[a]).hypot(host.y[b] - host.y[a]));
        target += f64::from(length * host.length[e]);
    }
    let factor = f64::from(upscale) * target / now;
    if factor.is_finite() && factor > 1.0 {
        upscale_drawing(&mut host.x, &mut host.y, factor as f32);
    }
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
        preserved_relaxations: 0,
        crossings_before_rooms: 0,
        rejected_matches: 0,
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
        // Pick a rule (by weight; rules below their minimum first) and one of its matches
        // (uniformly). On a drawing without crossings, a rewrite whose new corridors would
        // cross it is undone and its match dropped, up to MAX_REJECTIONS times: levels stay
        // crossing-free by construction whenever some match allows it.
        let t = Instant::now();
        corridors(host, &mut s.keep_src, &mut s.keep_dst);
        let clean_before = count_crossings(&host.x, &host.y, &s.keep_src, &s.keep_dst) == 0;
        let mut rejections = 0;
        let r = loop {
            if s.candidates.is_empty() {
                break None;
            }
            let ci = pick_candidate(grammar, &s.candidates, &s.uses, &mut rng);
            let chosen = s.candidates[ci];
            let r = chosen.rule as usize;
            let k = compiled[r].pattern_len();
            let which = rng.below(chosen.count) as usize;
            let at = chosen.start as usize + which * k;
            let undoable = clean_before && rejections < MAX_REJECTIONS;
            if undoable {
                s.saved.copy_from(host);
            }
            if params.upscale != 1.0 {
                make_room(host, params.layout.length, params.upscale);
            }
            let clean = compiled[r].apply(
                &grammar.rules[r],
                host,
                &s.matches[at..at + k],
                params.layout.length,
                &mut s.removed,
            );
            if clean || !undoable {
                break Some(r);
            }
            host.copy_from(&s.saved);
            rejections += 1;
            report.rejected_matches += 1;
            // Drop the match: the candidate's last match takes its place.
            let last = chosen.start as usize + (chosen.count as usize - 1) * k;
            for i in 0..k {
                s.matches.swap(at + i, last + i);
            }
            s.candidates[ci].count -= 1;
            if s.candidates[ci].count == 0 {
                s.candidates.remove(ci);
            }
        };
        report.rewrite_ns += nanos(t);
        let Some(r) = r else {
            report.stalled = true;
            break;
        };
        s.uses[r] += 1;
        report.rewrites += 1;

        if params.relax_every > 0 && report.rewrites.is_multiple_of(params.relax_every) {
            let t = Instant::now();
            // The corridors, which must not cross.
            corridors(host, &mut s.keep_src, &mut s.keep_dst);
            let before = count_crossings(&host.x, &host.y, &s.keep_src, &s.keep_dst);
            s.saved_x.clear();
            s.saved_x.extend_from_slice(&host.x);
            s.saved_y.clear();
            s.saved_y.extend_from_slice(&host.y);
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
            // PERF: the plain relaxation is several times cheaper and keeps the drawing free of
            // crossings most of the time; only when it made things worse is the step redone
            // with moves limited so that no corridor crosses another.
            if count_crossings(&host.x, &host.y, &s.keep_src, &s.keep_dst) > before {
                host.x.copy_from_slice(&s.saved_x);
                host.y.copy_from_slice(&s.saved_y);
                let r = relax_preserving(
                    &graph,
                    &s.keep_src,
                    &s.keep_dst,
                    &mut host.x,
                    &mut host.y,
                    &params.layout,
                    &mut s.layout,
                    &mut s.preserve,
                );
                report.layout_iterations += r.iterations;
                report.preserved_relaxations += 1;
            }
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

    corridors(host, &mut s.keep_src, &mut s.keep_dst);
    report.crossings_before_rooms = count_crossings(&host.x, &host.y, &s.keep_src, &s.keep_dst);
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
    report.placement = place_rooms_keeping(
        &graph,
        Some((&s.keep_src, &s.keep_dst)),
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
