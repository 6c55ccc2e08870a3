//! Builder tests on Edgar's published inputs with its building blocks (made in code here, so
//! these tests do not depend on the file readers).

use crate::map::build::{BuildScratch, Gaps, Plan, build};
use crate::map::raster::{Tiles, rasterise};
use crate::map::shape::shapes_of;
use crate::map::spec::{Doors, Template, Transforms};

pub(crate) fn edgar_paper() -> Vec<Template> {
    let t = |name: &str, outline: &[(i32, i32)]| Template {
        name: name.into(),
        outline: outline.to_vec(),
        doors: Doors::Simple {
            length: 2,
            corner_distance: 1,
        },
        transforms: Transforms {
            rotate: true,
            mirror: false,
        },
    };
    let rect = |name: &str, w: i32, h: i32| t(name, &[(0, 0), (w, 0), (w, h), (0, h)]);
    vec![
        rect("12x12", 12, 12),
        rect("8x8", 8, 8),
        rect("12x18", 12, 18),
        t(
            "L12x12",
            &[(0, 0), (12, 0), (12, 6), (6, 6), (6, 12), (0, 12)],
        ),
        t(
            "L12x18",
            &[(0, 0), (12, 0), (12, 6), (6, 6), (6, 18), (0, 18)],
        ),
        t(
            "T18x12",
            &[
                (0, 0),
                (18, 0),
                (18, 6),
                (12, 6),
                (12, 12),
                (6, 12),
                (6, 6),
                (0, 6),
            ],
        ),
    ]
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
#[ignore = "a measurement: cargo test --release --lib map::build_tests -- --ignored --nocapture"]
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
                    rasterise(&plan, &s.out, &mut t);
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
