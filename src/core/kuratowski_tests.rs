use super::*;
use crate::core::planar::is_planar;
use crate::core::rng::WarrenRng;

fn split(edges: &[(u32, u32)]) -> (Vec<u32>, Vec<u32>) {
    edges.iter().copied().unzip()
}

/// Checks that `w` is a K5 or K3,3 subdivision made of edges of `edges`: the paths join the
/// right pairs of branch vertices, once each, through distinct vertices that are not branch
/// vertices; the witness is non-planar and loses that with any one of its edges.
fn check(n: usize, edges: &[(u32, u32)], w: &Witness) {
    let has = |a: u32, b: u32| edges.contains(&(a, b)) || edges.contains(&(b, a));
    let (branch, pairs): (Vec<u32>, Vec<(u32, u32)>) = match &w.kind {
        Kuratowski::K5(b) => {
            let pairs = (0..5)
                .flat_map(|i| (i + 1..5).map(move |j| (b[i], b[j])))
                .collect();
            (b.to_vec(), pairs)
        }
        Kuratowski::K33(x, y) => {
            let pairs = x
                .iter()
                .flat_map(|&a| y.iter().map(move |&b| (a, b)))
                .collect();
            (x.iter().chain(y).copied().collect(), pairs)
        }
    };
    assert_eq!(w.paths.len(), pairs.len(), "{w:?}");
    let mut inner = std::collections::HashSet::new();
    let mut wit = Vec::new();
    for p in &w.paths {
        assert!(p.len() >= 2);
        for s in p.windows(2) {
            assert!(has(s[0], s[1]), "{s:?} is not an edge of the graph");
            wit.push((s[0], s[1]));
        }
        for &v in &p[1..p.len() - 1] {
            assert!(!branch.contains(&v), "branch vertex {v} inside a path");
            assert!(inner.insert(v), "vertex {v} on two paths");
        }
    }
    let mut ends: Vec<(u32, u32)> = w
        .paths
        .iter()
        .map(|p| {
            let (a, b) = (p[0], p[p.len() - 1]);
            (a.min(b), a.max(b))
        })
        .collect();
    let mut want: Vec<(u32, u32)> = pairs.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
    ends.sort_unstable();
    want.sort_unstable();
    assert_eq!(ends, want);
    let (s, d) = split(&wit);
    assert!(!is_planar(n, &s, &d));
    for k in 0..wit.len() {
        let mut less = wit.clone();
        less.remove(k);
        let (s, d) = split(&less);
        assert!(is_planar(n, &s, &d), "the witness is not minimal");
    }
}

#[test]
fn planar_graphs_have_no_witness() {
    // K4 and a 5 x 5 grid.
    let k4 = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
    let (s, d) = split(&k4);
    assert_eq!(kuratowski_subdivision(4, &s, &d), None);
    let mut grid = Vec::new();
    for y in 0..5u32 {
        for x in 0..5u32 {
            if x < 4 {
                grid.push((5 * y + x, 5 * y + x + 1));
            }
            if y < 4 {
                grid.push((5 * y + x, 5 * y + x + 5));
            }
        }
    }
    let (s, d) = split(&grid);
    assert_eq!(kuratowski_subdivision(25, &s, &d), None);
}

#[test]
fn k5_and_k33_are_their_own_witnesses() {
    let k5: Vec<(u32, u32)> = (0..5u32)
        .flat_map(|a| (a + 1..5).map(move |b| (a, b)))
        .collect();
    let (s, d) = split(&k5);
    let w = kuratowski_subdivision(5, &s, &d).expect("K5 is not planar");
    assert_eq!(w.kind, Kuratowski::K5([0, 1, 2, 3, 4]));
    check(5, &k5, &w);
    // K3,3 on {0, 2, 4} and {1, 3, 5}, one edge subdivided by vertex 6, a parallel edge and a
    // self-loop.
    let mut k33: Vec<(u32, u32)> = [0u32, 2, 4]
        .iter()
        .flat_map(|&a| [1u32, 3, 5].into_iter().map(move |b| (a, b)))
        .filter(|&e| e != (4, 5))
        .collect();
    k33.extend([(4, 6), (6, 5), (1, 0), (3, 3)]);
    let (s, d) = split(&k33);
    let w = kuratowski_subdivision(7, &s, &d).expect("K3,3 is not planar");
    assert_eq!(w.kind, Kuratowski::K33([0, 2, 4], [1, 3, 5]));
    assert!(w.paths.contains(&vec![4, 6, 5]));
    check(7, &k33, &w);
}

#[test]
fn the_petersen_graph_holds_a_k33() {
    // Degree 3 everywhere: no K5 subdivision fits, so the witness must be a K3,3.
    let mut edges: Vec<(u32, u32)> = (0..5u32).map(|i| (i, (i + 1) % 5)).collect();
    edges.extend((0..5u32).map(|i| (i, i + 5)));
    edges.extend((0..5u32).map(|i| (5 + i, 5 + (i + 2) % 5)));
    let (s, d) = split(&edges);
    let w = kuratowski_subdivision(10, &s, &d).expect("Petersen is not planar");
    assert!(matches!(w.kind, Kuratowski::K33(..)));
    check(10, &edges, &w);
}

#[test]
fn random_non_planar_graphs_get_checked_witnesses() {
    let mut rng = WarrenRng::new(48);
    let mut found = 0;
    for _ in 0..200 {
        let n = 6 + rng.below(60) as usize;
        let m = n + rng.below(2 * n as u32) as usize;
        let edges: Vec<(u32, u32)> = (0..m)
            .map(|_| (rng.below(n as u32), rng.below(n as u32)))
            .collect();
        let (s, d) = split(&edges);
        match kuratowski_subdivision(n, &s, &d) {
            None => assert!(is_planar(n, &s, &d)),
            Some(w) => {
                found += 1;
                check(n, &edges, &w);
            }
        }
    }
    assert!(found > 50, "only {found} non-planar graphs drawn");
}
