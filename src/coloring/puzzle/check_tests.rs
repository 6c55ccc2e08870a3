//! Tests of `check.rs`: each way a solution can fail is its own error, with its message.

use super::*;
use crate::coloring::puzzle::{ColoringConfig, PuzzleKind, PuzzleScratch, build_puzzle};

fn puzzle(kind: PuzzleKind) -> Puzzle {
    let cfg = ColoringConfig {
        puzzle: kind,
        ..ColoringConfig::default()
    };
    build_puzzle(&cfg, 3, &mut PuzzleScratch::default()).unwrap()
}

fn vertex_colors(p: &Puzzle) -> Vec<u8> {
    let Solution::VertexColors(cs) = &p.solution else {
        panic!("not a vertex puzzle")
    };
    cs.clone()
}

#[test]
fn a_solution_of_the_wrong_length_or_outside_the_palette_does_not_fit() {
    let p = puzzle(PuzzleKind::Vertex);
    let mut short = vertex_colors(&p);
    short.pop();
    let e = check_played(&p.doc, &Solution::VertexColors(short)).unwrap_err();
    let n = p.doc.vertices.len();
    assert_eq!(
        e,
        SolutionError::WrongCount {
            item: PuzzleItem::Vertex,
            colored: n - 1,
            items: n,
        }
    );
    assert_eq!(
        e.to_string(),
        format!("the solution colors {} vertices, the level has {n}", n - 1)
    );
    let mut wild = vertex_colors(&p);
    wild[0] = 9;
    let e = check_played(&p.doc, &Solution::VertexColors(wild)).unwrap_err();
    let palette = p.doc.colors.len() - 1;
    assert_eq!(e, SolutionError::OutOfPalette { color: 9, palette });
    assert_eq!(
        e.to_string(),
        format!("the solution uses color 9, the palette has {palette}")
    );
}

#[test]
fn recoloring_a_clue_breaks_its_protection() {
    let cfg = ColoringConfig {
        clues: 3,
        ..ColoringConfig::default()
    };
    let p = build_puzzle(&cfg, 5, &mut PuzzleScratch::default()).unwrap();
    let clue = p.doc.vertices.iter().position(|v| v.color.is_some());
    let clue = clue.expect("a clue");
    let mut cs = vertex_colors(&p);
    cs[clue] = (cs[clue] + 1) % cfg.colors as u8;
    let e = check_played(&p.doc, &Solution::VertexColors(cs)).unwrap_err();
    assert_eq!(
        e,
        SolutionError::RecolorsProtected {
            item: PuzzleItem::Vertex,
            index: clue,
        }
    );
    assert_eq!(
        e.to_string(),
        format!("the solution recolors vertex {clue}, whose color is protected")
    );
}

#[test]
fn a_short_walk_is_incomplete_and_says_its_score() {
    let p = puzzle(PuzzleKind::EulerCycle);
    let Solution::Walk(mut walk) = p.solution.clone() else {
        panic!("not an Eulerian puzzle")
    };
    walk.pop();
    let e = check_played(&p.doc, &Solution::Walk(walk)).unwrap_err();
    let SolutionError::Incomplete(ev) = &e else {
        panic!("{e:?}")
    };
    assert!(!ev.complete);
    assert!(
        e.to_string().starts_with(&format!(
            "the solution does not complete the level: total {} of {}, rules [",
            ev.total, ev.objective
        )),
        "{e}"
    );
}

#[test]
fn the_xml_must_parse_and_read_back_to_the_level() {
    let mut p = puzzle(PuzzleKind::Edge);
    assert!(check_solution(&p).is_ok());
    p.doc.title = Some("another title".into());
    assert_eq!(check_solution(&p), Err(SolutionError::NotReadBack));
    assert_eq!(
        SolutionError::NotReadBack.to_string(),
        "the XML does not read back to the level"
    );
    p.xml.truncate(p.xml.len() / 2);
    let e = check_solution(&p).unwrap_err();
    assert!(matches!(e, SolutionError::Parse(_)), "{e:?}");
    assert!(e.to_string().starts_with("puzzle.xml:"), "{e}");
}
