//! Whether a rewrite crowds the drawing: its fresh vertices must keep [`MIN_FRESH_GAP`] edge
//! lengths from the vertices around them, as well as not cross a corridor, for the rewrite to
//! count as clean (seed 000's rewrites keep the level drawable; see [`super::Compiled::apply`]).

use crate::grammar::host::Host;

/// The least distance, in edge lengths, a rewrite's fresh vertices keep from every other
/// vertex for the rewrite to count as clean.
///
/// Without it, a rule applied twice to one edge the same way round (demirogue's `silly` adds a
/// triangle on an edge, and may do so again) puts the second fresh vertex on or beside the first:
/// no corridor crosses, so the rewrite was kept, and the planarity-keeping relaxation, which
/// moves a vertex less than half its distance to the corridors it could meet, can never pull
/// the two apart again. Such levels then needed their whole drawing scaled up to 64 times to
/// give the two rooms space (15% of `silly`'s seeds failed that way or by a corridor that could
/// not be drawn). At 0.6 a crowded rewrite is undone and another match tried, like a crossing
/// one, and a fresh vertex pulled in toward its anchors stops short of the others.
pub const MIN_FRESH_GAP: f32 = 0.6;

/// Whether any vertex of `fresh` lies closer than `gap` to a vertex outside the substitute
/// `ids` (the substitute's own vertices are as far apart as the rule draws them).
///
/// # Runtime
/// O(k V s) for `k` fresh vertices and `s` substitute vertices.
pub(super) fn crowded(
    host: &Host,
    ids: &[u32],
    mut fresh: impl Iterator<Item = usize>,
    gap: f32,
) -> bool {
    let g2 = gap * gap;
    fresh.any(|v| {
        (0..host.vertex_count()).any(|u| {
            let (dx, dy) = (
                host.graph.x[u] - host.graph.x[v],
                host.graph.y[u] - host.graph.y[v],
            );
            dx * dx + dy * dy < g2 && !ids.contains(&(u as u32))
        })
    })
}

/// Whether pulling the fresh vertices in (`moves`: vertex, anchor, offset from it as the rule
/// placed it) brought one closer to another substitute vertex `ids` than `gap`, or than the
/// rule draws them if that is closer.
///
/// # Runtime
/// O(k s) for `k` fresh vertices and `s` substitute vertices.
pub(super) fn squeezed(
    host: &Host,
    ids: &[u32],
    moves: &[(usize, f32, f32, f32, f32)],
    gap: f32,
) -> bool {
    // Where vertex `u` was as the rule placed it.
    let placed = |u: usize| {
        moves.iter().find(|m| m.0 == u).map_or(
            (host.graph.x[u], host.graph.y[u]),
            |&(_, ax, ay, ox, oy)| (ax + ox, ay + oy),
        )
    };
    moves.iter().any(|&(v, ..)| {
        let (vx, vy) = placed(v);
        ids.iter().map(|&u| u as usize).any(|u| {
            let (ux, uy) = placed(u);
            let drawn = (ux - vx).hypot(uy - vy);
            let now = (host.graph.x[u] - host.graph.x[v]).hypot(host.graph.y[u] - host.graph.y[v]);
            u != v && now < gap.min(drawn)
        })
    })
}
