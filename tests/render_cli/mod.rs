//! `warren render`: SVG and PNG pictures of one level or a sheet (mazes and graph-grammar
//! dungeons), and its refusals.

use std::path::{Path, PathBuf};

use crate::common::{SMALL, TempDir, assert_one_line_error, exit_code, generate, stderr, warren};

const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];

/// A 20-level archive to draw from.
fn archive(dir: &TempDir) -> PathBuf {
    let path = dir.join("levels.arrow");
    generate(&path, &[&SMALL[..], &["--count", "20"]].concat());
    path
}

/// Runs `warren render archive --out picture` plus `extra`.
fn render(archive: &Path, picture: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "render",
        archive.to_str().unwrap(),
        "--out",
        picture.to_str().unwrap(),
    ];
    args.extend(extra);
    warren(&args)
}

fn assert_svg(path: &Path) {
    let text = std::fs::read_to_string(path).expect("SVG is UTF-8 text");
    let start = text.trim_start();
    assert!(
        start.starts_with("<svg") || start.starts_with("<?xml"),
        "not an SVG: {}",
        &text[..text.len().min(80)]
    );
    assert!(text.trim_end().ends_with("</svg>"), "SVG is not closed");
}

fn assert_png(path: &Path) {
    let bytes = std::fs::read(path).unwrap();
    assert!(bytes.starts_with(&PNG_SIGNATURE), "not a PNG");
    assert!(bytes.len() > 100, "PNG of {} bytes", bytes.len());
}

#[test]
fn renders_svg_and_png() {
    let dir = TempDir::new("render");
    let levels = archive(&dir);
    let (svg, png) = (dir.join("zero.svg"), dir.join("zero.png"));
    for picture in [&svg, &png] {
        let output = render(&levels, picture, &["--index", "0"]);
        assert_eq!(exit_code(&output), 0, "{}", stderr(&output));
    }
    assert_svg(&svg);
    assert_png(&png);
}

#[test]
fn renders_a_sheet() {
    let dir = TempDir::new("sheet");
    let levels = archive(&dir);
    let (svg, png) = (dir.join("sheet.svg"), dir.join("sheet.png"));
    for picture in [&svg, &png] {
        let output = render(&levels, picture, &["--index", "3", "--sheet", "2x2"]);
        assert_eq!(exit_code(&output), 0, "{}", stderr(&output));
    }
    assert_svg(&svg);
    assert_png(&png);
    let one = dir.join("one.svg");
    let output = render(&levels, &one, &["--index", "3"]);
    assert_eq!(exit_code(&output), 0, "{}", stderr(&output));
    let (sheet_len, one_len) = (
        std::fs::metadata(&svg).unwrap().len(),
        std::fs::metadata(&one).unwrap().len(),
    );
    assert!(
        sheet_len > one_len,
        "a 2x2 sheet ({sheet_len} bytes) is no larger than one level ({one_len} bytes)"
    );
}

/// An 8-level graph-grammar archive (seed 000's generator, built-in profile).
fn grammar_archive(dir: &TempDir) -> PathBuf {
    let path = dir.join("x.arrow");
    let out = path.to_str().unwrap();
    let output = warren([
        "generate", "grammar", "--quiet", "--count", "8", "--out", out,
    ]);
    assert_eq!(exit_code(&output), 0, "{}", stderr(&output));
    assert!(path.is_file(), "{} was not written", path.display());
    path
}

#[test]
fn renders_grammar_maps_with_their_graph_to_svg_and_a_png_sheet() {
    let dir = TempDir::new("grammar");
    let levels = grammar_archive(&dir);
    let (svg, png) = (dir.join("three.svg"), dir.join("sheet.png"));
    let output = render(&levels, &svg, &["--index", "3", "--graph"]);
    assert_eq!(exit_code(&output), 0, "{}", stderr(&output));
    let output = render(&levels, &png, &["--index", "3", "--sheet", "2x2"]);
    assert_eq!(exit_code(&output), 0, "{}", stderr(&output));
    assert_svg(&svg);
    assert_png(&png);
    let text = std::fs::read_to_string(&svg).unwrap();
    // The tile map: floor runs, door tiles.
    let rects = text.matches("<rect").count();
    assert!(rects >= 5, "{rects} rects: the map was not drawn");
    let [r, g, b, _] = warren::render::cell_colour(warren::cell::DOOR).0;
    assert!(
        text.contains(&format!(r##"fill="#{r:02x}{g:02x}{b:02x}""##)),
        "no door tiles in the SVG"
    );
    // With --graph, tags reach the drawing: rooms of different kinds get different palette
    // colours, and corridors are lines.
    assert!(text.matches("<line").count() >= 5, "no graph lines drawn");
    let tag_fills = warren::render::TAG_PALETTE[1..]
        .iter()
        .filter(|c| {
            let [r, g, b, _] = c.0;
            text.contains(&format!(r##"fill="#{r:02x}{g:02x}{b:02x}""##))
        })
        .count();
    assert!(tag_fills >= 2, "{tag_fills} tag colours in the SVG");
}

#[test]
fn index_beyond_the_archive_is_an_error() {
    let dir = TempDir::new("beyond");
    let levels = archive(&dir);
    let picture = dir.join("none.svg");
    for index in ["20", "1000000"] {
        let output = render(&levels, &picture, &["--index", index]);
        assert_eq!(
            exit_code(&output),
            2,
            "--index {index}: {}",
            stderr(&output)
        );
        assert_one_line_error(&output, &format!("render --index {index}"));
        assert!(!picture.exists(), "--index {index} wrote a picture");
    }
}

#[test]
fn gif_output_is_an_error() {
    let dir = TempDir::new("gif");
    let levels = archive(&dir);
    let picture = dir.join("level.gif");
    let output = render(&levels, &picture, &["--index", "0"]);
    assert_eq!(exit_code(&output), 2, "{}", stderr(&output));
    assert_one_line_error(&output, "render --out level.gif");
    assert!(stderr(&output).contains("level.gif"), "{}", stderr(&output));
    assert!(!picture.exists(), "wrote a .gif");
}

mod marks;
