//! The task kind's renderings (issue 46): time to write and to read back one 99 x 99 maze
//! (49 x 49 rooms, start and goal in opposite corners) in each rendering, as items are made by
//! the million. Group `task_render/write` has one element per question written, with the PNG
//! written through tiny-skia's RGBA `encode_png` (`png-tiny-skia-rgba`) beside the 2-bit
//! indexed encoder the `png` rendering uses; group `task_render/read` times each parser on
//! the whole question.
//!
//! Run with `cargo bench --bench task_render`; for a quick pass add
//! `-- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use warren::task::render::{Glyphs, parse, render};
use warren::task::{GridPuzzle, Rendering};
use warren::{Generator, MazeConfig, MazeGenerator, mix};

/// The fixed seed of the bench maze.
const SEED_1: u64 = 0x5eed_0046_cafe_f00d;

/// A 99 x 99 maze grid with the start and goal in opposite corners.
fn maze_99() -> GridPuzzle {
    let generator = MazeGenerator::new(MazeConfig {
        width: 49,
        height: 49,
        ..MazeConfig::default()
    })
    .expect("bench maze config is valid");
    let mut scratch = generator.new_scratch();
    let level = generator
        .generate(mix(SEED_1, 0), &mut scratch)
        .expect("bench maze generates");
    let grid = level.grid.expect("a lattice maze has a grid");
    GridPuzzle {
        rows: grid.height,
        cols: grid.width,
        open: grid.cells.iter().map(|&c| c != 0).collect(),
        start: (1, 1),
        goal: (grid.height - 2, grid.width - 2),
    }
}

/// The RGBA PNG tiny-skia writes for the same picture (4 px per cell): the baseline.
fn tiny_skia_png(p: &GridPuzzle) -> Vec<u8> {
    const PX: u32 = 4;
    let mut pixmap = tiny_skia::Pixmap::new(p.cols * PX, p.rows * PX).expect("a non-empty pixmap");
    let colour = |r: u32, c: u32| match (r, c) {
        _ if (r, c) == p.start => (0x22, 0xaa, 0x22),
        _ if (r, c) == p.goal => (0xdd, 0x22, 0x22),
        _ if p.open[(r * p.cols + c) as usize] => (0xee, 0xee, 0xee),
        _ => (0x22, 0x22, 0x22),
    };
    let width = (p.cols * PX) as usize;
    let data = pixmap.data_mut();
    for y in 0..(p.rows * PX) as usize {
        for x in 0..width {
            let (r, g, b) = colour(y as u32 / PX, x as u32 / PX);
            data[(y * width + x) * 4..][..4].copy_from_slice(&[r, g, b, 255]);
        }
    }
    pixmap.encode_png().expect("the PNG encodes")
}

fn write(c: &mut Criterion) {
    let p = maze_99();
    let glyphs = Glyphs::default();
    let mut group = c.benchmark_group("task_render/write");
    group.throughput(Throughput::Elements(1));
    let (mut text, mut image) = (String::new(), Vec::new());
    for r in Rendering::ALL {
        group.bench_function(r.name(), |b| {
            b.iter(|| {
                text.clear();
                render(r, black_box(&p), &glyphs, &mut text, &mut image);
                text.len() + image.len()
            })
        });
    }
    group.bench_function("png-tiny-skia-rgba", |b| {
        b.iter(|| tiny_skia_png(black_box(&p)).len())
    });
    group.finish();
}

fn read(c: &mut Criterion) {
    let p = maze_99();
    let glyphs = Glyphs::default();
    let mut group = c.benchmark_group("task_render/read");
    group.throughput(Throughput::Elements(1));
    for r in Rendering::ALL {
        let (mut text, mut image) = (String::new(), Vec::new());
        render(r, &p, &glyphs, &mut text, &mut image);
        assert_eq!(parse(r, &text, &image).as_ref(), Ok(&p), "{}", r.name());
        group.bench_function(r.name(), |b| {
            b.iter(|| parse(r, black_box(&text), &image).map(|q| q.open.len()))
        });
    }
    group.finish();
}

criterion_group!(benches, write, read);
criterion_main!(benches);
