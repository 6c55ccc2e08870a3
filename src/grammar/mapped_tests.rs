//! Grammar levels drawn by the map builder: every corridor mode makes levels that verify, with
//! the rules' own rectangles and with Edgar's templates; a damaged copy of a level fails
//! `verify` with the right message; bad settings are refused at set-up naming the key.

use super::NO_TEMPLATE;
use crate::core::generator::{ExtraValue, Generator, GraphView, Level, LevelRecord, RoomsView};
use crate::core::graph::edge_flag;
use crate::core::grid::{GridView, cell};
use crate::core::rng::mix;
use crate::floorplan::columns::CORRIDOR_FLAG;
use crate::grammar::config::MapMode;
use crate::grammar::{GrammarConfig, GrammarGenerator, GrammarMetrics};

const SEED: u64 = 0x6772_616d;

/// The dungeon rules (a tree of halls and dead ends) in one mode, with `templates`.
fn dungeon(corridors: MapMode, templates: &str) -> GrammarGenerator {
    GrammarGenerator::new(GrammarConfig {
        rules: "dungeon".into(),
        min_vertices: 8,
        max_vertices: 24,
        max_grid: [512, 512],
        corridors,
        templates: templates.into(),
        ..GrammarConfig::default()
    })
    .unwrap_or_else(|e| panic!("{corridors:?} {templates}: {e}"))
}

/// One level's columns, owned, so that a test can damage a copy.
#[derive(Clone)]
struct Owned {
    width: u32,
    height: u32,
    cells: Vec<u8>,
    x: Vec<f32>,
    y: Vec<f32>,
    tag: Vec<u16>,
    src: Vec<u32>,
    dst: Vec<u32>,
    flags: Vec<u8>,
    rooms: [Vec<i32>; 4],
    uses: Vec<u32>,
    metrics: Vec<f64>,
    template: Vec<u16>,
    transform: Vec<u8>,
    owner: Vec<u16>,
}

impl Owned {
    fn of(l: &Level<'_>) -> Owned {
        let (grid, g, r) = (l.grid.unwrap(), l.graph.unwrap(), l.rooms.unwrap());
        Owned {
            width: grid.width,
            height: grid.height,
            cells: grid.cells.to_vec(),
            x: g.x.to_vec(),
            y: g.y.to_vec(),
            tag: g.tag.to_vec(),
            src: g.src.to_vec(),
            dst: g.dst.to_vec(),
            flags: g.flags.to_vec(),
            rooms: [r.x0.to_vec(), r.y0.to_vec(), r.x1.to_vec(), r.y1.to_vec()],
            uses: l.rule_uses.to_vec(),
            metrics: l.metrics.to_vec(),
            template: l.extra[0].as_u16s().unwrap().to_vec(),
            transform: l.extra[1].as_u8s().unwrap().to_vec(),
            owner: l.extra[2].as_u16s().unwrap().to_vec(),
        }
    }

    /// Verifies this copy; the violation's message, or `None` when it passes.
    fn verify(&self, g: &GrammarGenerator, seed: u64) -> Option<String> {
        let extra = [
            ExtraValue::ListU16(&self.template),
            ExtraValue::ListU8(&self.transform),
            ExtraValue::ListU16(&self.owner),
        ];
        let level = Level {
            grid: Some(GridView {
                width: self.width,
                height: self.height,
                cells: &self.cells,
            }),
            graph: Some(GraphView {
                x: &self.x,
                y: &self.y,
                tag: &self.tag,
                src: &self.src,
                dst: &self.dst,
                flags: &self.flags,
            }),
            rooms: Some(RoomsView {
                x0: &self.rooms[0],
                y0: &self.rooms[1],
                x1: &self.rooms[2],
                y1: &self.rooms[3],
            }),
            rule_uses: &self.uses,
            metrics: &self.metrics,
            extra: &extra,
        };
        g.verify(&LevelRecord {
            index: 0,
            seed,
            level,
        })
        .err()
        .map(|v| v.0)
    }
}

/// The first `count` levels the generator makes from seeds `mix(SEED, 0..)`, each checked by
/// `verify` and by `check`.
fn levels(g: &GrammarGenerator, count: usize, check: impl Fn(&GrammarMetrics, &Owned)) {
    let mut s = g.new_scratch();
    let mut made = 0;
    for i in 0..count as u64 * 4 {
        let seed = mix(SEED, i);
        let Ok(level) = g.generate(seed, &mut s) else {
            continue;
        };
        let owned = Owned::of(&level);
        if let Some(v) = owned.verify(g, seed) {
            panic!("level {i}: {v}");
        }
        check(&GrammarMetrics::from_values(level.metrics).unwrap(), &owned);
        made += 1;
        if made == count {
            return;
        }
    }
    panic!("{made} of {count} levels in {} seeds", count * 4);
}

#[test]
fn every_corridor_mode_draws_levels_that_verify() {
    for templates in ["rules", "edgar-paper"] {
        levels(&dungeon(MapMode::None, templates), 4, |m, l| {
            assert_eq!(m.corridor_tiles, 0, "{templates}");
            assert!(l.flags.iter().all(|&f| f & CORRIDOR_FLAG == 0));
        });
        levels(&dungeon(MapMode::Templates, templates), 4, |m, l| {
            // Every walkable edge is a corridor two tiles long.
            assert_eq!((m.corridor_max, m.corridor_median), (2, 2.0), "{templates}");
            for (&f, _) in l.flags.iter().zip(&l.src) {
                assert_eq!(f & CORRIDOR_FLAG != 0, f & edge_flag::COSMETIC == 0);
            }
        });
        levels(&dungeon(MapMode::Routed, templates), 4, |m, _| {
            assert!((1..=8).contains(&m.corridor_max), "{templates}");
        });
    }
}

#[test]
fn a_used_scratch_draws_the_same_level_as_a_fresh_one() {
    let g = dungeon(MapMode::Routed, "edgar-paper");
    let mut used = g.new_scratch();
    for i in 0..6 {
        let seed = mix(SEED, i);
        let _ = g.generate(mix(SEED ^ 1, i), &mut used);
        let again = g.generate(seed, &mut used).map(|l| l.content_hash()).ok();
        let fresh = g
            .generate(seed, &mut g.new_scratch())
            .map(|l| l.content_hash())
            .ok();
        assert_eq!(again, fresh, "seed {i}");
    }
}

#[test]
fn rooms_take_their_rules_size_or_a_library_template() {
    // The dungeon rules' rooms become rectangles of their rules' size (turned either way).
    let g = dungeon(MapMode::None, "rules");
    let names: Vec<String> = g
        .mapped
        .as_ref()
        .unwrap()
        .library
        .templates
        .iter()
        .map(|t| t.name.clone())
        .collect();
    levels(&g, 2, |_, l| {
        for v in 0..l.x.len() {
            let [x0, y0, x1, y1] = [0, 1, 2, 3].map(|k| l.rooms[k][v]);
            if l.template[v] == NO_TEMPLATE {
                assert!(x0 == x1 || y0 == y1, "a cosmetic vertex has no room");
                continue;
            }
            let name = &names[l.template[v] as usize];
            let (w, h) = (x1 - x0, y1 - y0);
            assert!(
                *name == format!("{w}x{h}") || *name == format!("{h}x{w}"),
                "room {v}: {w} x {h} floor, template {name}"
            );
        }
        // Owners: room floors by vertex, corridors by edge.
        let n = l.x.len();
        assert!(l.owner.iter().all(|&o| (o as usize) <= n + l.src.len()));
    });
}

#[test]
fn a_damaged_level_fails_verify() {
    let g = dungeon(MapMode::Templates, "edgar-paper");
    let mut s = g.new_scratch();
    let (seed, l) = (0..40)
        .map(|i| mix(SEED, i))
        .find_map(|seed| g.generate(seed, &mut s).ok().map(|l| (seed, Owned::of(&l))))
        .expect("a level");
    assert_eq!(l.verify(&g, seed), None);
    let must_fail = |what: &str, damage: &dyn Fn(&mut Owned), says: &str| {
        let mut bad = l.clone();
        damage(&mut bad);
        let v = bad
            .verify(&g, seed)
            .unwrap_or_else(|| panic!("{what}: passed"));
        assert!(v.contains(says), "{what}: {v}");
    };
    let room = (0..l.x.len())
        .find(|&v| l.template[v] != NO_TEMPLATE)
        .unwrap();
    assert_eq!(room, 0, "the dungeon's first vertex is a room");
    let inside = (l.rooms[1][room] as usize) * l.width as usize + l.rooms[0][room] as usize;
    let other = (0..l.x.len())
        .find(|&v| v != room && l.template[v] != NO_TEMPLATE)
        .unwrap();
    must_fail(
        "a floor tile given to another room",
        &|b| b.owner[inside] = other as u16 + 1,
        "belongs to",
    );
    must_fail(
        "another template",
        &|b| b.template[room] = (l.template[room] + 1) % 6,
        "",
    );
    must_fail(
        "a door walled up",
        &|b| {
            let d = b.cells.iter().position(|&c| c == cell::DOOR).unwrap();
            b.cells[d] = cell::WALL;
        },
        "",
    );
    let corridor = l
        .flags
        .iter()
        .position(|&f| f & CORRIDOR_FLAG != 0)
        .unwrap();
    must_fail(
        "a corridor flag cleared",
        &|b| b.flags[corridor] &= !CORRIDOR_FLAG,
        "corridor",
    );
    must_fail(
        "a vertex moved off its room's centre",
        &|b| b.x[room] += 1.0,
        "centre",
    );
    must_fail(
        "a room's box moved",
        &|b| {
            b.rooms[0][room] += 1;
            b.rooms[2][room] += 1;
        },
        "room 0",
    );
}

#[test]
fn bad_builder_settings_are_refused_naming_the_key() {
    let err = |cfg: GrammarConfig| match GrammarGenerator::new(cfg) {
        Ok(_) => panic!("accepted"),
        Err(e) => e.to_string(),
    };
    let e = err(GrammarConfig {
        corridors: MapMode::Routed,
        templates: "no-such-library".into(),
        ..GrammarConfig::default()
    });
    assert!(
        e.starts_with("grammar.templates: ") && e.contains("no-such-library"),
        "{e}"
    );
    // Doors as wide as the default rules' smallest room cannot fit a wall.
    let e = err(GrammarConfig {
        corridors: MapMode::None,
        corridor_width: 8,
        ..GrammarConfig::default()
    });
    assert!(
        e.starts_with("grammar.templates = rules: template `"),
        "{e}"
    );
    assert!(!e.contains('\n'), "{e}");
    let e = err(GrammarConfig {
        corridors: MapMode::Templates,
        corridor_lengths: vec![],
        ..GrammarConfig::default()
    });
    assert!(e.contains("grammar.corridor_lengths"), "{e}");
    // `drawn` (the default) never reads the templates.
    assert!(
        GrammarGenerator::new(GrammarConfig {
            templates: "no-such-library".into(),
            ..GrammarConfig::default()
        })
        .is_ok()
    );
}
