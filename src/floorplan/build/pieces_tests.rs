use std::sync::Arc;

use super::*;
use crate::floorplan::build::can_join;
use crate::floorplan::build::tests::tree_of_cycles;
use crate::floorplan::build::world::rooms_on_world;

/// Whether `order` lays every piece before its own pieces and each piece's subtree right after
/// it, in one run.
fn depth_first(pieces: &[Piece], order: &[usize], subtree: &[usize]) -> bool {
    let mut at = vec![usize::MAX; pieces.len()];
    for (i, &k) in order.iter().enumerate() {
        at[k] = i;
    }
    (0..pieces.len()).all(|k| {
        let mut up = pieces[k].parent;
        while let Some(p) = up {
            if !(at[p] < at[k] && at[k] < at[p] + subtree[p]) {
                return false;
            }
            up = pieces[p].parent;
        }
        true
    })
}

#[test]
fn a_piece_brought_up_to_its_parent_keeps_the_order_depth_first() {
    let mut plan = tree_of_cycles(30);
    plan.split(8);
    let pieces = plan.pieces.clone().expect("pieces");
    let subtree = subtree_sizes(&pieces);
    assert_eq!(subtree[0], pieces.len());
    for (k, p) in pieces.iter().enumerate() {
        let below = (0..pieces.len())
            .filter(|&q| {
                let mut up = Some(q);
                while let Some(x) = up.filter(|&x| x != k) {
                    up = pieces[x].parent;
                }
                up == Some(k)
            })
            .count();
        assert_eq!(subtree[k], below, "piece {k} ({:?})", p.parent);
    }
    let mut order: Vec<usize> = (0..pieces.len()).collect();
    assert!(depth_first(&pieces, &order, &subtree));
    // Every piece with an earlier sibling in turn, the latest last: each moves up to right
    // after its parent, the siblings (and their pieces) after it.
    let mut moves = 0;
    for k in (1..pieces.len()).rev() {
        let parent = pieces[k].parent.expect("a parent");
        let here = order.iter().position(|&q| q == k).expect("laid");
        let at = order.iter().position(|&q| q == parent).expect("laid");
        if here > at + 1 {
            let before: Vec<usize> = order[at + 1..here].to_vec();
            bring_forward(&mut order, here, at + 1, subtree[k]);
            assert_eq!(order[at + 1], k);
            assert_eq!(order[at + 1 + subtree[k]..][..before.len()], before[..]);
            assert!(depth_first(&pieces, &order, &subtree), "after moving {k}");
            moves += 1;
        }
    }
    assert!(moves >= 3, "{moves} moves");
    let mut sorted = order.clone();
    sorted.sort_unstable();
    assert!(sorted.iter().copied().eq(0..pieces.len()));
}

#[test]
fn every_connection_belongs_to_one_piece() {
    let mut plan = tree_of_cycles(30);
    plan.split(20);
    let pieces = plan.pieces.clone().expect("pieces");
    let mut count = vec![0; plan.conns.len()];
    for p in pieces.iter() {
        for (lj, &j) in p.conns.iter().enumerate() {
            count[j as usize] += 1;
            let (la, lb) = p.plan.conns[lj];
            let global = (p.rooms[la as usize], p.rooms[lb as usize]);
            assert_eq!(global, plan.conns[j as usize]);
        }
    }
    assert!(count.iter().all(|&c| c == 1), "{count:?}");
}

#[test]
fn a_layout_in_pieces_places_every_room_apart_with_every_connection_joined() {
    let mut plan = tree_of_cycles(30);
    plan.split(20);
    assert!(plan.pieces.is_some());
    assert_layouts(&plan);
    // The same with a piece taken into its parent, as an attempt does after that piece
    // failed where it hung: its rooms are laid out with its parent's.
    let parts = plan.parts.clone().expect("parts");
    let c = (1..parts.len())
        .find(|&c| parts.iter().any(|q| q.parent == Some(c)))
        .expect("a piece with pieces");
    let parts = merged(&parts, c);
    plan.pieces = Some(Arc::new(plan.pieces_of(&parts)));
    assert_layouts(&plan);
}

/// Lays `plan` out from four seeds, checking that every room keeps apart from every other and
/// every connection is joined, and that a seed gives the same layout again.
fn assert_layouts(plan: &Plan) {
    let mut s = BuildScratch::default();
    for seed in 0..4 {
        build(plan, seed, &mut s).expect("a layout");
        let out = s.out.clone();
        let shapes = plan.shapes();
        let n = plan.rooms();
        for u in 0..n {
            let su = &shapes[out.shape[u] as usize];
            assert!(plan.room_shapes[u].contains(&out.shape[u]));
            for v in u + 1..n {
                let sv = &shapes[out.shape[v] as usize];
                assert!(
                    !su.near(out.x[u], out.y[u], sv, out.x[v], out.y[v], 0),
                    "seed {seed}: rooms {u} and {v} overlap"
                );
            }
        }
        for (j, &(a, b)) in plan.conns.iter().enumerate() {
            let (a, b) = (a as usize, b as usize);
            let ends = (
                (&shapes[out.shape[a] as usize], out.x[a], out.y[a]),
                (&shapes[out.shape[b] as usize], out.x[b], out.y[b]),
            );
            assert!(
                can_join(plan, j as u32, ends.0, ends.1),
                "seed {seed}: {a}-{b}"
            );
        }
        // The same seed, the same layout.
        build(plan, seed, &mut s).expect("a layout");
        assert_eq!(
            (&s.out.shape, &s.out.x, &s.out.y),
            (&out.shape, &out.x, &out.y)
        );
    }
}

#[test]
fn a_piece_that_fails_again_after_its_parent_was_laid_again_fails_in_its_parents_place() {
    let mut plan = tree_of_cycles(30);
    plan.split(8);
    let pieces = plan.pieces.clone().expect("pieces");
    let subtree = subtree_sizes(&pieces);
    let order: Vec<usize> = (0..pieces.len()).collect();
    // A piece laid right after its parent, which is not right after its own parent.
    let k = (1..pieces.len())
        .find(|&k| {
            let p = pieces[k].parent.expect("a parent");
            p + 1 == k && pieces[p].parent.is_some_and(|q| q + 1 < p)
        })
        .expect("such a piece");
    let p = pieces[k].parent.expect("a parent");
    let q = pieces[p].parent.expect("a grandparent");
    let mut moved = vec![false; pieces.len()];
    let mut relaid = vec![0; pieces.len()];
    let go = |moved: &mut [bool], relaid: &mut [u32]| {
        retreat(&pieces, &order, &subtree, moved, relaid, k, k)
    };
    // First its parent is laid again ...
    assert_eq!(go(&mut moved, &mut relaid), Some((p, p, 0)));
    // ... then the parent moves up, with its pieces, to right after its own parent ...
    assert_eq!(go(&mut moved, &mut relaid), Some((q + 1, p, subtree[p])));
    assert!(moved[p] && !moved[k]);
    // ... and once moved, the parent's parent is laid again.
    let mut order = order.clone();
    bring_forward(&mut order, p, q + 1, subtree[p]);
    let (at_p, at_k) = (q + 1, q + 1 + (k - p));
    assert_eq!((order[at_p], order[at_k]), (p, k));
    let again = |moved: &mut [bool], relaid: &mut [u32]| {
        retreat(&pieces, &order, &subtree, moved, relaid, k, at_k)
    };
    assert_eq!(again(&mut moved, &mut relaid), Some((at_p, at_p, 0)));
    assert_eq!(again(&mut moved, &mut relaid), Some((q, q, 0)));
    // Failures that climb to the first piece end the attempt.
    let first = (1..pieces.len())
        .find(|&k| pieces[k].parent == Some(0))
        .expect("a piece off the first");
    let mut relaid = vec![0; pieces.len()];
    let mut moved = vec![false; pieces.len()];
    moved[first] = true;
    let order: Vec<usize> = (0..pieces.len()).collect();
    let at = order.iter().position(|&x| x == first).expect("laid");
    let mut outcomes = Vec::new();
    for _ in 0..=RELAYS {
        outcomes.push(retreat(
            &pieces,
            &order,
            &subtree,
            &mut moved,
            &mut relaid,
            first,
            at,
        ));
    }
    assert_eq!(outcomes.last(), Some(&None), "{outcomes:?}");
}

#[test]
fn a_laid_piece_keeps_its_halo_for_its_pieces_until_they_are_laid() {
    let mut plan = tree_of_cycles(30);
    plan.split(8);
    let pieces = plan.pieces.clone().expect("pieces");
    let mut s = BuildScratch::default();
    s.out.reset(plan.rooms(), plan.conns.len());
    s.room_dead.resize(plan.rooms(), 0);
    s.placed.resize(plan.rooms(), false);
    s.laid.resize(pieces.len(), false);
    let mut inner = BuildScratch::default();
    let mut rng = WarrenRng::new(7);
    let undo = lay_piece(&plan, &pieces, (0, 0), &mut rng, &mut s, &mut inner).expect("laid");
    assert!(s.laid[0]);
    let children: Vec<u32> = (1..pieces.len())
        .filter(|&k| pieces[k].parent == Some(0))
        .map(|k| k as u32)
        .collect();
    assert!(!s.reserved.is_empty());
    let shapes = plan.shapes();
    for r in &s.reserved {
        assert!(children.contains(&r.owner), "kept for piece {}", r.owner);
        let sh = &shapes[r.shape as usize];
        for &v in &pieces[0].rooms {
            let u = v as usize;
            let other = &shapes[s.out.shape[u] as usize];
            assert!(!sh.near(r.x, r.y, other, s.out.x[u], s.out.y[u], 0));
        }
    }
    // To a piece but the owner a kept place is in the way; to its owner, or once the owner
    // is laid, it is not.
    let kept = s.reserved[0];
    let sh = &shapes[kept.shape as usize];
    let world = |piece: u32, laid: Vec<bool>, s: &BuildScratch| World {
        cells: s.cells.clone(),
        shape: s.out.shape.clone(),
        x: s.out.x.clone(),
        y: s.out.y.clone(),
        corridors: s.corridors.clone(),
        skip: u32::MAX,
        reserved: s.reserved.clone(),
        laid,
        piece,
    };
    let other = children
        .iter()
        .copied()
        .find(|&c| c != kept.owner)
        .unwrap_or(u32::MAX - 1);
    let none = vec![false; pieces.len()];
    let mut owner_laid = none.clone();
    owner_laid[kept.owner as usize] = true;
    let at = (kept.x, kept.y);
    assert!(world(other, none.clone(), &s).blocks_room(&plan, sh, at));
    assert!(!world(kept.owner, none, &s).blocks_room(&plan, sh, at));
    assert!(!world(other, owner_laid, &s).blocks_room(&plan, sh, at));
    // Taken up, the piece leaves no kept place behind.
    take_up(&plan, &pieces, 0, undo, &mut s);
    assert!(s.reserved.is_empty() && !s.laid[0]);
    assert!(
        s.cells
            .values()
            .flatten()
            .all(|&e| e & RESERVED == 0 || e & CORRIDOR != 0)
    );
}

#[test]
fn a_piece_turns_its_drawing_away_from_what_is_in_its_way() {
    let mut plan = tree_of_cycles(30);
    plan.split(8);
    let pieces = plan.pieces.clone().expect("pieces");
    let k = 1;
    let piece = &pieces[k];
    let root = piece.root.expect("a first room");
    let (dx, dy) = piece.plan.drawing.clone().expect("a drawing");
    let n = plan.rooms();
    let mut world = World {
        cells: Default::default(),
        shape: vec![0; n],
        x: vec![0; n],
        y: vec![0; n],
        corridors: Vec::new(),
        skip: root.b,
        reserved: Vec::new(),
        laid: vec![false; pieces.len()],
        piece: k as u32,
    };
    // The first room at the origin, and a room of the rest of the level on every other room
    // of the piece's drawing as the level's own turn lays it.
    let shapes = plan.shapes();
    let (w, h) = (shapes[0].w, shapes[0].h);
    let r = root.local as usize;
    let (cx, cy) = (w as f32 / 2.0, h as f32 / 2.0);
    let others = (0..n as u32).filter(|&u| u != root.b);
    for (i, u) in (0..dx.len()).filter(|&i| i != r).zip(others) {
        let (px, py) = (cx + dx[i] - dx[r], cy + dy[i] - dy[r]);
        let (x, y) = ((px - cx).round() as i32, (py - cy).round() as i32);
        world.x[u as usize] = x;
        world.y[u as usize] = y;
        let area = room_box(&plan, 0, (x, y));
        for cell in cells_of(&area) {
            world.cells.entry(cell).or_default().push(u);
        }
    }
    let level = (1.0, 0.0, 1.0);
    let own = rooms_on_world(&piece.plan, root, &world, level);
    assert_eq!(
        own as usize,
        dx.len() - 1,
        "every room on the rest of the level"
    );
    let turns = free_turns(&piece.plan, root, &world, level);
    assert_eq!(turns.len(), TURNS);
    let hits: Vec<u32> = turns
        .iter()
        .map(|&t| rooms_on_world(&piece.plan, root, &world, t))
        .collect();
    assert!(hits.windows(2).all(|p| p[0] <= p[1]), "{hits:?}");
    assert!(hits[0] < own / 2, "{hits:?} against {own}");
    // Nothing in the way: the level's own turn first.
    world.cells.clear();
    let turns = free_turns(&piece.plan, root, &world, level);
    assert_eq!(turns[0], level);
}

#[test]
fn a_piece_that_ends_attempts_is_taken_into_its_parent_once_and_given_back_when_that_fails() {
    let mut plan = tree_of_cycles(30);
    plan.split(8);
    let pieces = plan.pieces.clone().expect("pieces");
    let c = (1..pieces.len())
        .find(|&k| pieces[k].parent == Some(0))
        .expect("a piece off the first");
    let mut regroup = Regroup::default();
    regroup.ended_at(&plan, c);
    let now = regroup.pieces(&pieces);
    assert_eq!(now.len(), pieces.len() - 1);
    // The first piece holds `c`'s rooms now (and its stubs), and the pieces that hung off
    // `c` hang off it.
    for &v in &pieces[c].rooms {
        assert!(now[0].rooms.contains(&v), "room {v} of piece {c}");
    }
    let kids = (0..pieces.len())
        .filter(|&k| pieces[k].parent == Some(c))
        .count();
    let off_first = |ps: &[Piece]| ps.iter().filter(|p| p.parent == Some(0)).count();
    assert_eq!(off_first(now), off_first(&pieces) - 1 + kids);
    // The grown piece ends an attempt and cannot grow: the taking-in is undone ...
    regroup.ended_at(&plan, 0);
    assert_eq!(regroup.pieces(&pieces).len(), pieces.len());
    // ... and `c` is not taken in again.
    regroup.ended_at(&plan, c);
    assert_eq!(regroup.pieces(&pieces).len(), pieces.len());
}
