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
    let gaps = vec![
        Gaps {
            ranges: vec![(gap, gap)]
        };
        conns.len()
    ];
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
