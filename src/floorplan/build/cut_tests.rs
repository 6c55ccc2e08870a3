use super::*;
use crate::floorplan::build::tests::tree_of_cycles;

#[test]
fn the_bridges_are_the_connections_on_no_cycle() {
    let plan = tree_of_cycles(30);
    let bridge = bridges(&plan);
    let expected: Vec<bool> = (0..plan.conns.len()).map(|j| j >= 4 * 30).collect();
    assert_eq!(bridge, expected);
}

/// Checks that `parts` cover every room of `plan` once, each hanging off an earlier part by
/// a bridge from one of that part's stubs, depth first, every stub some part's first room.
fn assert_parts(plan: &Plan, parts: &[Part]) {
    let mut part_of = vec![usize::MAX; plan.rooms()];
    for (i, p) in parts.iter().enumerate() {
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
    for (i, p) in parts.iter().enumerate() {
        let children = parts.iter().filter(|q| q.parent == Some(i)).count();
        assert_eq!(
            p.stubs.len(),
            children,
            "part {i}: stubs and parts hanging off it"
        );
    }
}

#[test]
fn the_parts_cover_every_room_once_and_hang_off_their_parents() {
    let plan = tree_of_cycles(30);
    let parts = partition(&plan, 20);
    assert!(parts.len() >= 6, "{} parts", parts.len());
    assert!(parts.iter().all(|p| p.members.len() <= 20));
    assert_parts(&plan, &parts);
}

#[test]
fn a_part_taken_into_its_parent_gives_its_rooms_and_its_parts_to_the_parent() {
    let plan = tree_of_cycles(30);
    let parts = partition(&plan, 8);
    // A part with a parent and parts of its own, not the last.
    let c = (1..parts.len() - 1)
        .find(|&c| parts.iter().any(|q| q.parent == Some(c)))
        .expect("such a part");
    let p = parts[c].parent.expect("a parent");
    let after = merged(&parts, c);
    assert_eq!(after.len(), parts.len() - 1);
    assert_parts(&plan, &after);
    let mut rooms = parts[p].members.clone();
    rooms.extend(&parts[c].members);
    assert_eq!(after[p].members, rooms);
    // The parts that hung off `c` hang off `p`, the rest keep their parents (renumbered).
    for (i, q) in parts.iter().enumerate().filter(|&(i, _)| i != c) {
        let now = &after[if i > c { i - 1 } else { i }];
        if i != p {
            assert_eq!(now.members, q.members);
        }
        let up = q.parent.map(|u| if u == c { p } else { u });
        assert_eq!(now.parent, up.map(|u| if u > c { u - 1 } else { u }));
    }
    // Every part taken in, one after another, leaves one part of every room.
    let mut all = parts.clone();
    while all.len() > 1 {
        all = merged(&all, all.len() - 1);
        assert_parts(&plan, &all);
    }
    assert_eq!(all[0].members.len(), plan.rooms());
    assert!(all[0].stubs.is_empty());
    assert_eq!(merged(&all, 0).len(), 1);
}
