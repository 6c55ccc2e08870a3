//! Tests of `explore.rs` and its steps: the clearance scan against a brute-force oracle, the
//! width roll, and whole dungeons (repeatable in a used scratch, counts that agree with the map).

use super::*;
use crate::core::rng::mix;
use crate::dmg::canvas::Facing;
use crate::dmg::dungeon::passage::clear_rows;

/// The oracle of [`clear_rows`]: row `r` is the squares `left = -width..=1` at `ahead = r`;
/// rows are drawable while they and the next row are all open.
fn clear_rows_brute(map: &Map, c: &Cursor, width: i32, max: i32) -> i32 {
    let row_open = |r: i32| {
        (-width..=1).all(|l| {
            let (x, y) = c.map_square(r, l);
            map.open(x, y)
        })
    };
    if !row_open(0) {
        return 0;
    }
    let mut drawn = 0;
    while drawn < max && row_open(drawn + 1) {
        drawn += 1;
    }
    drawn
}

#[test]
fn the_clearance_scan_matches_the_brute_force_oracle() {
    let mut rng = WarrenRng::new(mix(3, 0xc1ea));
    for trial in 0..400 {
        let mut map = Map::new(24, 20);
        for _ in 0..rng.below(30) {
            let (x, y) = (rng.below(24) as i32, rng.below(20) as i32);
            map.set(x, y, crate::core::grid::cell::FLOOR);
        }
        let facing =
            [Facing::North, Facing::East, Facing::South, Facing::West][rng.below(4) as usize];
        let c = Cursor::at(rng.below(24) as i32, rng.below(20) as i32, facing);
        let (width, max) = (1 + rng.below(4) as i32, rng.below(12) as i32);
        assert_eq!(
            clear_rows(&map, &c, width, max),
            clear_rows_brute(&map, &c, width, max),
            "trial {trial}: {c:?} width {width} max {max}"
        );
        assert_eq!(
            row_clear(&map, &c, width),
            clear_rows_brute(&map, &c, width, 1) == 1
        );
    }
}

#[test]
fn passage_widths_are_whole_squares_of_the_table() {
    let tables = Tables::builtin();
    let mut rng = WarrenRng::new(7);
    for _ in 0..500 {
        let w = width_roll(&tables, &mut rng);
        assert!((1..=8).contains(&w), "{w} squares");
    }
}

#[test]
fn dungeons_repeat_in_a_used_scratch_and_count_what_they_dig() {
    let g = crate::dmg::DmgGenerator::new(crate::dmg::DmgConfig::default()).unwrap();
    let (mut used, mut fresh) = (g.new_scratch(), g.new_scratch());
    use crate::core::generator::Generator;
    for i in 0..6 {
        let seed = mix(0xd6, i);
        let _ = g.generate(mix(0xd7, i), &mut used);
        let a = g.generate(seed, &mut used).unwrap().content_hash();
        let b = g.generate(seed, &mut fresh).unwrap().content_hash();
        assert_eq!(a, b, "dungeon {i}");
        let level = g.generate(seed, &mut fresh).unwrap();
        let grid = level.grid.unwrap();
        let floor = grid
            .cells
            .iter()
            .filter(|&&c| c != crate::core::grid::cell::WALL)
            .count();
        assert!(
            floor > 0 && floor < grid.cells.len(),
            "dungeon {i}: {floor} open squares"
        );
    }
}
