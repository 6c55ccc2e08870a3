use super::*;
use crate::floorplan::build::tests::edgar_paper;
use crate::floorplan::build::{Gaps, can_join};
use crate::floorplan::shape::shapes_of;

/// A tree of `blocks` four-room cycles: block `k`'s rooms are `4k..4k + 4` in a ring, and
/// block `k > 0` hangs off block `(k - 1) / 2` by a bridge from its room `4k` to that block's
/// room `4 * ((k - 1) / 2) + 2`. The bridges are the connections from index `4 * blocks` on.
fn tree_of_cycles(blocks: u32) -> Plan {
    let shapes = shapes_of(&edgar_paper()).expect("the paper's blocks");
    let mut conns = Vec::new();
    for k in 0..blocks {
        let r = 4 * k;
        conns.extend([(r, r + 1), (r + 1, r + 2), (r + 2, r + 3), (r + 3, r)]);
    }
    for k in 1..blocks {
        conns.push((4 * ((k - 1) / 2) + 2, 4 * k));
    }
    let n = 4 * blocks as usize;
    let all: Vec<u32> = (0..shapes.len() as u32).collect();
    let gaps = vec![Gaps::new(vec![(0, 0)]); conns.len()];
    Plan::new(shapes, vec![all; n], conns, gaps, 0)
}

#[test]
fn the_bridges_are_the_connections_on_no_cycle() {
    let plan = tree_of_cycles(30);
    let bridge = bridges(&plan);
    let expected: Vec<bool> = (0..plan.conns.len()).map(|j| j >= 4 * 30).collect();
    assert_eq!(bridge, expected);
}

#[test]
fn the_parts_cover_every_room_once_and_hang_off_their_parents() {
    let plan = tree_of_cycles(30);
    let parts = partition(&plan, 20);
    assert!(parts.len() >= 6, "{} parts", parts.len());
    let mut part_of = vec![usize::MAX; plan.rooms()];
    for (i, p) in parts.iter().enumerate() {
        assert!(p.members.len() <= 20, "part {i}: {} rooms", p.members.len());
        for &v in &p.members {
            assert_eq!(part_of[v as usize], usize::MAX, "room {v} in two parts");
            part_of[v as usize] = i;
        }
    }
    assert!(part_of.iter().all(|&p| p != usize::MAX));
    assert!(parts[0].root.is_none() && parts[0].parent.is_none());
    for (i, p) in parts.iter().enumerate().skip(1) {
        let parent = p.parent.expect("a parent");
        assert!(parent < i, "part {i} before its parent {parent}");
        let (a, b, j) = p.root.expect("a bridge");
        assert_eq!(part_of[b as usize], i);
        assert_eq!(part_of[a as usize], parent);
        assert!(parts[parent].stubs.contains(&b));
        let (x, y) = plan.conns[j as usize];
        assert!((x, y) == (a, b) || (x, y) == (b, a));
        // Depth first: the parts between a parent and its child are the parent's descendants.
        for between in parts.iter().take(i).skip(parent + 1) {
            let mut up = between.parent;
            while let Some(q) = up.filter(|&q| q > parent) {
                up = parts[q].parent;
            }
            assert_eq!(up, Some(parent));
        }
    }
}

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
    let mut s = BuildScratch::default();
    for seed in 0..4 {
        build(&plan, seed, &mut s).expect("a layout");
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
                can_join(&plan, j as u32, ends.0, ends.1),
                "seed {seed}: {a}-{b}"
            );
        }
        // The same seed, the same layout.
        build(&plan, seed, &mut s).expect("a layout");
        assert_eq!(
            (&s.out.shape, &s.out.x, &s.out.y),
            (&out.shape, &out.x, &out.y)
        );
    }
}
