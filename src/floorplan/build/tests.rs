//! Builder tests on Edgar's published inputs (read from the corpus beside the checkout) with its
//! building blocks (the built-in library).

use crate::floorplan::build::{BuildScratch, Gaps, Plan, build};
use crate::floorplan::raster::{Tiles, rasterise};
use crate::floorplan::shape::shapes_of;
use crate::floorplan::spec::Template;

pub(crate) fn edgar_paper() -> Vec<Template> {
    crate::floorplan::input::builtin_library("edgar-paper")
        .expect("built in")
        .templates
}

pub(crate) fn corpus_graph(name: &str) -> (usize, Vec<(u32, u32)>) {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/corpus/edgar-inputs/graphs.json"),
    )
    .expect("corpus");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let g = v
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == name)
        .unwrap();
    let conns = g["connections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c[0].as_u64().unwrap() as u32, c[1].as_u64().unwrap() as u32))
        .collect();
    (g["rooms"].as_u64().unwrap() as usize, conns)
}

pub(crate) fn edgar_plan(name: &str, gap: i32) -> Plan {
    let shapes = shapes_of(&edgar_paper()).unwrap();
    let (n, conns) = corpus_graph(name);
    let all: Vec<u32> = (0..shapes.len() as u32).collect();
    let gaps = vec![Gaps::new(vec![(gap, gap)]); conns.len()];
    Plan::new(shapes, vec![all; n], conns, gaps, 0)
}

#[test]
#[ignore = "a measurement: cargo test --release --lib floorplan::build::tests -- --ignored --nocapture"]
fn edgar_inputs_success_and_time() {
    for name in [
        "docs_basics_5rooms",
        "paper_fig1_9rooms",
        "paper_fig8_top_left_17rooms",
        "paper_fig8_bottom_right_41rooms",
    ] {
        if std::env::var("ONLY").is_ok_and(|o| !name.contains(&o)) {
            continue;
        }
        for gap in [0, 3] {
            let plan = edgar_plan(name, gap);
            let mut s = BuildScratch::default();
            let mut t = Tiles::default();
            let (mut ok, mut work, mut attempts) = (0, 0u64, 0u64);
            let mut compact = 0.0f64;
            let seeds = 200;
            let mut times = Vec::new();
            let start = std::time::Instant::now();
            for seed in 0..seeds {
                let t0 = std::time::Instant::now();
                let built = build(&plan, crate::core::rng::mix(1, seed), &mut s).is_ok();
                times.push(t0.elapsed().as_secs_f64());
                if built {
                    ok += 1;
                    rasterise(&plan, &s.out, &mut t).expect("a map of a few rooms");
                    let floor = t.owner.iter().filter(|&&o| o != 0).count();
                    compact += floor as f64 / (t.width * t.height) as f64;
                }
                work += u64::from(s.out.work);
                attempts += u64::from(s.out.attempts);
            }
            let el = start.elapsed().as_secs_f64() / seeds as f64;
            times.sort_by(f64::total_cmp);

            println!(
                "{name} gap {gap}: compactness {:.3}, {ok}/{seeds} ok, {:.3} ms/layout (median {:.3}, max {:.1}), work {} attempts {:.2}",
                compact / f64::from(ok.max(1)),
                el * 1e3,
                times[times.len() / 2] * 1e3,
                times[times.len() - 1] * 1e3,
                work / seeds,
                attempts as f64 / seeds as f64
            );
        }
    }
}

/// Forward checking refuses the room that takes the last free spot beside a placed room whose
/// neighbour is still unplaced, and blames the rooms that took the others: room 0 (an 8 x 8
/// square) has rooms against three of its sides; room 5 against the fourth leaves its
/// unplaced neighbour, room 1, nowhere to go.
#[test]
fn forward_checking_refuses_the_room_that_boxes_a_neighbour_in() {
    let squares: Vec<Template> = edgar_paper()
        .into_iter()
        .filter(|t| t.name == "8x8")
        .collect();
    let shapes = shapes_of(&squares).unwrap();
    // One square (its transforms may count as shapes of their own).
    let size = (shapes[0].w, shapes[0].h);
    assert!(shapes.iter().all(|sh| (sh.w, sh.h) == size) && size.0 == size.1);
    let all: Vec<u32> = (0..shapes.len() as u32).collect();
    let conns = vec![(0, 1), (0, 2), (2, 3), (3, 4), (4, 5)];
    let gaps = vec![Gaps::new(vec![(0, 0)]); conns.len()];
    let plan = Plan::new(shapes, vec![all; 6], conns, gaps, 0);
    let mut s = BuildScratch::default();
    let order = [0u32, 2, 3, 4, 5, 1];
    let k = size.0;
    let at = [(0, 0), (0, 0), (k, 0), (-k, 0), (0, k), (0, -k)];
    s.order = order.to_vec();
    s.placed = vec![false; 6];
    s.depth_of = vec![0; 6];
    for (d, &v) in order.iter().enumerate() {
        s.depth_of[v as usize] = d as u32;
    }
    s.out.shape = vec![0; 6];
    s.out.x = at.iter().map(|p| p.0).collect();
    s.out.y = at.iter().map(|p| p.1).collect();
    s.spot = vec![super::forward::NO_SPOT; 6];
    s.conflicts = vec![Vec::new(); 6];
    for v in [0, 2, 3, 4] {
        s.placed[v] = true;
    }
    // Three sides taken: room 1 still has the fourth.
    assert_eq!(super::forward::forward_check(&plan, 4, &mut s), Ok(()));
    assert_ne!(
        s.spot[1].0,
        u32::MAX,
        "a spot above room 0 is kept for room 1"
    );
    s.placed[5] = true;
    let culprit = super::forward::forward_check(&plan, 5, &mut s);
    // Blamed: room 0 (depth 0, room 1's neighbour) and the rooms on the other sides (depths 1
    // to 3), not room 5 itself (depth 4).
    assert_eq!(culprit, Err(3));
    let mut set = s.conflicts[4].clone();
    set.sort_unstable();
    assert_eq!(set, vec![0, 1, 2, 3]);
}

/// Forward checking's scan of a zone (`forward::Cover`, which steps over runs of positions the
/// same room rules out) finds the same first free position, and blames the same rooms, as
/// testing every position against every room with `Shape::near`: 2,000 random scenes of Edgar's
/// paper blocks (Ls and Ts among them), some rooms connected (no least distance), a least
/// distance of 0 to 2 tiles.
#[test]
fn a_zone_scan_stepping_over_runs_agrees_with_testing_every_position() {
    use super::forward::Cover;
    use super::spaces::Zone;
    use crate::core::rng::WarrenRng;
    let shapes = shapes_of(&edgar_paper()).unwrap();
    let count = shapes.len() as u32;
    let mut rng = WarrenRng::new(49);
    let (mut free, mut boxed) = (0, 0);
    for _ in 0..2_000 {
        let n = 2 + rng.below(9) as usize;
        // Room 0 is the one looked for; it is connected to some of the others.
        let conns: Vec<(u32, u32)> = (1..n as u32)
            .filter(|_| rng.below(3) == 0)
            .map(|o| (0, o))
            .collect();
        let gaps = vec![Gaps::new(vec![(0, 0)]); conns.len()];
        let all: Vec<u32> = (0..count).collect();
        let min_distance = rng.below(3) as i32;
        let plan = Plan::new(shapes.clone(), vec![all; n], conns, gaps, min_distance);
        let mut s = BuildScratch::default();
        s.out.shape = (0..n).map(|_| rng.below(count)).collect();
        s.out.x = (0..n).map(|_| rng.below(40) as i32 - 20).collect();
        s.out.y = (0..n).map(|_| rng.below(40) as i32 - 20).collect();
        let mut depths: Vec<u32> = (0..n as u32).collect();
        for i in (1..n).rev() {
            depths.swap(i, rng.below(i as u32 + 1) as usize);
        }
        s.depth_of = depths;
        let (x0, y0) = (rng.below(30) as i32 - 15, rng.below(30) as i32 - 15);
        let z = Zone {
            x0,
            y0,
            x1: x0 + rng.below(16) as i32,
            y1: y0 + rng.below(4) as i32,
        };
        let sh = &plan.cat.shapes[s.out.shape[0] as usize];
        let mut rooms: Vec<u32> = (1..n as u32).collect();
        rooms.sort_unstable_by_key(|&o| s.depth_of[o as usize]);
        // Every position against every room.
        let mut want_blamed = Vec::new();
        let mut want = None;
        'scan: for y in z.y0..=z.y1 {
            for x in z.x0..=z.x1 {
                let first = rooms.iter().map(|&o| o as usize).find(|&o| {
                    let gap = if plan.adjacent(0, o) { 0 } else { min_distance };
                    let so = &plan.cat.shapes[s.out.shape[o] as usize];
                    sh.near(x, y, so, s.out.x[o], s.out.y[o], gap)
                });
                match first {
                    Some(o) => want_blamed.push(s.depth_of[o]),
                    None => {
                        want = Some((x, y));
                        break 'scan;
                    }
                }
            }
        }
        let mut cover = Cover::default();
        cover.fill(&plan, 0, sh, &z, &rooms, &s);
        let mut blamed = Vec::new();
        let got = cover.first_free(&z, &s, &mut blamed);
        assert_eq!(got, want);
        want_blamed.sort_unstable();
        want_blamed.dedup();
        blamed.sort_unstable();
        blamed.dedup();
        assert_eq!(blamed, want_blamed);
        if want.is_some() {
            free += 1
        } else {
            boxed += 1
        }
    }
    // Both outcomes are exercised.
    assert!(free > 100 && boxed > 100, "{free} free, {boxed} boxed in");
}

/// The complete search's answer (a layout exists or not) with its first room in every
/// orientation and in one per symmetry class ([`Plan::first_room_up_to_symmetry`]), and its
/// placements each way; `None` when a search stops undecided.
fn complete_both_ways(
    templates: &[Template],
    rooms: &[&[&str]],
    conns: &[(u32, u32)],
    (rotate, mirror): (bool, bool),
) -> Option<(bool, u64, u64)> {
    let shapes = shapes_of(templates).unwrap();
    let room_shapes: Vec<Vec<u32>> = rooms
        .iter()
        .map(|names| {
            (0..shapes.len() as u32)
                .filter(|&s| {
                    names.contains(
                        &templates[shapes[s as usize].template as usize]
                            .name
                            .as_str(),
                    )
                })
                .collect()
        })
        .collect();
    let gaps = vec![Gaps::new(vec![(0, 0)]); conns.len()];
    let mut plan = Plan::new(shapes, room_shapes, conns.to_vec(), gaps, 0);
    plan.make_exhaustive();
    let mut s = BuildScratch::default();
    let mut answer = |plan: &Plan| match build(plan, 0, &mut s) {
        Ok(()) => Some((true, s.out.work as u64)),
        Err(f) if f.proved => Some((false, f.work)),
        Err(_) => None,
    };
    let (every, every_work) = answer(&plan)?;
    plan.first_room_up_to_symmetry(rotate, mirror);
    let (up_to, up_to_work) = answer(&plan)?;
    assert_eq!(every, up_to, "the two searches disagree");
    Some((every, every_work, up_to_work))
}

/// The complete search with its first room in one orientation per class of the symmetries
/// every template allows reaches the answer of the search that tries them all, in fewer
/// placements, on layouts that exist and that do not: Edgar's paper blocks (turns, no mirror
/// images; Ls and a T that are not their own mirror image), a library where only some
/// templates mirror (classes by mirror image), and rooms restricted to different templates
/// (the first room keeps a shape of each template it may take).
#[test]
fn the_complete_search_up_to_symmetry_agrees_with_the_full_one() {
    let paper = edgar_paper();
    let mut mixed = paper.clone();
    for t in mixed.iter_mut().filter(|t| t.name.starts_with('L')) {
        t.transforms.mirror = true;
    }
    let triangle = [(0, 1), (1, 2), (0, 2)];
    let k4 = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
    let wheel = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (2, 3),
        (3, 4),
        (4, 1),
    ];
    let squares: &[&str] = &["8x8"];
    let big: &[&str] = &["12x12"];
    let shaped: &[&str] = &["L12x12", "L12x18", "T18x12"];
    let ls: &[&str] = &["L12x18", "T18x12", "8x8"];
    // (library, each room's templates, connections, whether a layout exists)
    type Case<'a> = (&'a [Template], Vec<&'a [&'a str]>, &'a [(u32, u32)], bool);
    let cases: Vec<Case> = vec![
        (&paper, vec![squares; 3], &triangle, false),
        (&paper, vec![big; 4], &k4, false),
        (&paper, vec![shaped; 3], &triangle, true),
        (&paper, vec![squares, shaped, shaped], &triangle, true),
        (
            &paper,
            vec![ls, squares, squares, squares, squares],
            &wheel,
            false,
        ),
        (
            &paper,
            vec![squares, shaped, shaped, shaped, shaped],
            &wheel,
            true,
        ),
        (
            &paper,
            vec![big, big, big, big],
            &[(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)],
            true,
        ),
        (&mixed, vec![shaped, ls, ls], &triangle, true),
        (&mixed, vec![squares, ls, ls, ls, ls], &wheel, true),
        (&mixed, vec![big; 4], &k4, false),
    ];
    for (i, (templates, rooms, conns, exists)) in cases.into_iter().enumerate() {
        let mirror = templates.iter().all(|t| t.transforms.mirror);
        let (answer, every, up_to) = complete_both_ways(templates, &rooms, conns, (true, mirror))
            .unwrap_or_else(|| panic!("case {i}: a search stopped undecided"));
        eprintln!("case {i}: exists {answer}, {every} placements, {up_to} up to symmetry");
        assert_eq!(answer, exists, "case {i}");
        assert!(up_to <= every, "case {i}: {up_to} > {every}");
    }
}

/// With fixed rooms an attempt's work bound starts at a fraction and doubles every
/// `RAMP_EVERY` attempts up to the whole; without a ramp (and in the complete search) every
/// attempt has the whole.
#[test]
fn a_ramped_work_bound_starts_small_and_doubles_up_to_the_whole() {
    use crate::floorplan::build::plan::{EXHAUSTIVE_WORK, RAMP_EVERY};
    let shapes = shapes_of(&edgar_paper()).unwrap();
    let all: Vec<u32> = (0..shapes.len() as u32).collect();
    let gaps = vec![Gaps::new(vec![(0, 0)]); 2];
    let mut plan = Plan::new(shapes, vec![all; 3], vec![(0, 1), (1, 2)], gaps, 0);
    plan.attempt_work = 1600;
    assert_eq!(plan.work_of_attempt(1), 1600, "no ramp by default");
    plan.work_ramp = 16;
    let e = RAMP_EVERY;
    let works: Vec<u32> = [1, e, e + 1, 2 * e + 1, 3 * e + 1, 4 * e + 1, 200]
        .iter()
        .map(|&a| plan.work_of_attempt(a))
        .collect();
    assert_eq!(works, [100, 100, 200, 400, 800, 1600, 1600]);
    plan.make_exhaustive();
    assert_eq!(plan.work_of_attempt(1), EXHAUSTIVE_WORK);
}

/// A tree of `blocks` four-room cycles: block `k`'s rooms are `4k..4k + 4` in a ring, and
/// block `k > 0` hangs off block `(k - 1) / 2` by a bridge from its room `4k` to that block's
/// room `4 * ((k - 1) / 2) + 2`. The bridges are the connections from index `4 * blocks` on.
pub(super) fn tree_of_cycles(blocks: u32) -> Plan {
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
