//! A task item's split identity is the `canonical_hash` the archive stores for it: the split
//! filter and `warren split`/`verify --disjoint` see the same puzzle identity, so a puzzle's
//! mirror images (grids) and renumberings (graphs) share its split.

use crate::core::generator::Generator;
use crate::core::identity::{IdentityScratch, canonical_hash};
use crate::core::rng::mix;
use crate::task::config::{TaskConfig, TaskName};
use crate::task::generate::TaskGenerator;
use crate::task::item::{Split, in_split};

fn check(cfg: TaskConfig, items: u64) {
    let g = TaskGenerator::new(cfg.clone()).expect("a valid spec");
    let columns = g.columns();
    let mut s = g.new_scratch();
    let mut id = IdentityScratch::default();
    for i in 0..items {
        let level = g.generate_at(i, mix(3, i), &mut s).expect("an item");
        let stored = canonical_hash(&columns, &level, &mut id);
        assert_eq!(stored, s.item.identity, "{:?} item {i}", cfg.task);
        assert!(in_split(stored, cfg.split), "{:?} item {i}", cfg.task);
    }
}

#[test]
fn the_split_identity_is_the_stored_canonical_hash() {
    for split in [Split::Train, Split::Test] {
        check(
            TaskConfig {
                split,
                ..TaskConfig::default()
            },
            300,
        );
        check(
            TaskConfig {
                task: TaskName::MazePath,
                infeasible_share: 0.3,
                min_rows: 9,
                max_rows: 15,
                min_cols: 7,
                max_cols: 21,
                square: false,
                split,
                ..TaskConfig::default()
            },
            300,
        );
        check(
            TaskConfig {
                task: TaskName::GraphColor,
                min_vertices: 12,
                max_vertices: 16,
                split,
                ..TaskConfig::default()
            },
            100,
        );
        check(
            TaskConfig {
                task: TaskName::GridSteps,
                split,
                ..TaskConfig::default()
            },
            60,
        );
        check(
            TaskConfig {
                task: TaskName::ColoringPuzzle,
                split,
                ..TaskConfig::default()
            },
            60,
        );
    }
}
