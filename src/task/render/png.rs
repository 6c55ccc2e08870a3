//! The `png` rendering: the grid as a PNG in the item's `image` column, one square of
//! [`cell_px`] pixels per cell (4 for a 99 x 99 grid, at most 16, at least 1) in four fixed
//! colours, and one line of text naming the size and the colours:
//!
//! ```text
//! The grid is in the attached image: 3 rows and 4 columns of square cells, 16 x 16 pixels each, row 0 at the top and column 0 at the left. Colours: dark grey #222222 = wall, light grey #eeeeee = open cell, green #22aa22 = start, red #dd2222 = goal.
//! ```
//!
//! The image is a 2-bit indexed PNG compressed with fdeflate: a 99 x 99 maze is about 40 kB of
//! raw rows and encodes in tens of microseconds. The parser reads the size from the text,
//! decodes the image and samples each cell's centre pixel.

use crate::task::grid::GridPuzzle;
use crate::task::render::text::ParseError;
use crate::task::render::text::{Cursor, MAX_CELLS, check_size, expect_block_end, find_line};

/// The colours, by palette index: wall, open cell, start, goal.
const PALETTE: [[u8; 3]; 4] = [
    [0x22, 0x22, 0x22],
    [0xee, 0xee, 0xee],
    [0x22, 0xaa, 0x22],
    [0xdd, 0x22, 0x22],
];
const WALL: u8 = 0;
const OPEN: u8 = 1;
const START: u8 = 2;
const GOAL: u8 = 3;

/// The longest image side aimed at: a cell gets as many pixels as fit.
const TARGET_SIDE: u32 = 400;
/// Most pixels of a cell's side.
const MAX_CELL_PX: u32 = 16;

/// The text's start.
const PREFIX: &str = "The grid is in the attached image: ";
/// The text after the pixel size.
const TAIL: &str = " pixels each, row 0 at the top and column 0 at the left. Colours: dark grey \
                    #222222 = wall, light grey #eeeeee = open cell, green #22aa22 = start, red \
                    #dd2222 = goal.";

/// Pixels of a cell's side for a `rows x cols` grid: `400 / max(rows, cols)`, within 1..=16.
pub fn cell_px(rows: u32, cols: u32) -> u32 {
    (TARGET_SIDE / rows.max(cols).max(1)).clamp(1, MAX_CELL_PX)
}

/// Writes the text line into `out` and the PNG into `image` (replaced).
///
/// # Runtime
/// O(pixels / 4) bytes of rows encoded; allocates the raw rows and the encoder's buffers.
pub fn render(p: &GridPuzzle, out: &mut String, image: &mut Vec<u8>) {
    use std::fmt::Write;
    let px = cell_px(p.rows, p.cols);
    let _ = writeln!(
        out,
        "{PREFIX}{} rows and {} columns of square cells, {px} x {px}{TAIL}",
        p.rows, p.cols
    );
    image.clear();
    encode(p, px, image);
}

/// The palette index of each cell of row `r`, written into `codes`.
fn row_codes(p: &GridPuzzle, r: u32, codes: &mut Vec<u8>) {
    codes.clear();
    codes.extend((0..p.cols).map(|c| {
        if (r, c) == p.start {
            START
        } else if (r, c) == p.goal {
            GOAL
        } else if p.open[p.index((r, c))] {
            OPEN
        } else {
            WALL
        }
    }));
}

/// Encodes the grid as a 2-bit indexed PNG of `px` pixels per cell side into `image`.
fn encode(p: &GridPuzzle, px: u32, image: &mut Vec<u8>) {
    let (width, height) = (p.cols * px, p.rows * px);
    let stride = (width as usize * 2).div_ceil(8);
    // PERF: the rows of one grid row are equal, so each is packed once and copied; 2-bit
    // indices keep the raw image at a quarter byte per pixel (40 kB for a 99 x 99 maze).
    let mut raw = vec![0u8; stride * height as usize];
    let mut codes = Vec::with_capacity(p.cols as usize);
    for r in 0..p.rows {
        row_codes(p, r, &mut codes);
        let first = r as usize * px as usize * stride;
        let line = &mut raw[first..first + stride];
        let mut x = 0usize;
        for &code in &codes {
            for _ in 0..px {
                line[x / 4] |= code << (6 - 2 * (x % 4));
                x += 1;
            }
        }
        for k in 1..px as usize {
            raw.copy_within(first..first + stride, first + k * stride);
        }
    }
    let mut encoder = png::Encoder::new(&mut *image, width, height);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Two);
    encoder.set_palette(PALETTE.as_flattened());
    encoder.set_compression(png::Compression::Fast);
    // PERF: `Up` turns every repeated pixel row into zeros, which fdeflate squeezes.
    encoder.set_filter(png::Filter::Up);
    let written = encoder
        .write_header()
        .and_then(|mut w| w.write_image_data(&raw).and_then(|()| w.finish()));
    written.expect("a non-empty grid's PNG encodes into memory");
}

/// Reads the text line from a whole question and the grid from `image`.
pub fn parse(question: &str, image: &[u8]) -> Result<GridPuzzle, ParseError> {
    let (at, line) = find_line(question, PREFIX, "the png rendering's line")?;
    let mut cur = Cursor::new(line, at);
    cur.expect(PREFIX)?;
    let rows = cur.number()?;
    cur.expect(" rows and ")?;
    let cols = cur.number()?;
    cur.expect(" columns of square cells, ")?;
    let px = cur.number()?;
    cur.expect(" x ")?;
    if cur.number()? != px {
        return Err(cur.error("a cell is not square"));
    }
    cur.expect(TAIL)?;
    cur.end()?;
    check_size(rows, cols).map_err(|e| ParseError(format!("line {at}: {e}")))?;
    if !(1..=MAX_CELL_PX).contains(&px) {
        return Err(ParseError(format!(
            "line {at}: {px} pixels per cell is outside 1..={MAX_CELL_PX}"
        )));
    }
    expect_block_end(question, at)?;
    let (width, height) = (cols * px, rows * px);
    if u64::from(width) * u64::from(height) > MAX_CELLS {
        return Err(ParseError(format!(
            "line {at}: an image of {width} x {height} pixels is larger than {MAX_CELLS} pixels"
        )));
    }
    match png_size(image) {
        Some(size) if size == (width, height) => {}
        Some((w, h)) => {
            return Err(ParseError(format!(
                "the image is {w} x {h} pixels, the text says {width} x {height}"
            )));
        }
        None => return Err(ParseError("the image is no PNG (no IHDR header)".into())),
    }
    let pixmap = tiny_skia::Pixmap::decode_png(image)
        .map_err(|e| ParseError(format!("the image does not decode: {e}")))?;
    sample(&pixmap, rows, cols, px)
}

/// The `(width, height)` a PNG's header states, read before decoding it.
fn png_size(image: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR";
    let header = image.get(..24)?;
    if &header[..16] != SIGNATURE {
        return None;
    }
    let word = |at: usize| {
        u32::from_be_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]])
    };
    Some((word(16), word(20)))
}

/// The puzzle read from each cell's centre pixel.
fn sample(
    pixmap: &tiny_skia::Pixmap,
    rows: u32,
    cols: u32,
    px: u32,
) -> Result<GridPuzzle, ParseError> {
    let mut p = GridPuzzle {
        rows,
        cols,
        open: Vec::with_capacity(rows as usize * cols as usize),
        ..GridPuzzle::default()
    };
    let mut ends = [None, None];
    for r in 0..rows {
        for c in 0..cols {
            let (x, y) = (c * px + px / 2, r * px + px / 2);
            let colour = pixmap
                .pixel(x, y)
                .map(|v| v.demultiply())
                .filter(|v| v.alpha() == 255)
                .map(|v| [v.red(), v.green(), v.blue()]);
            let code = colour.and_then(|v| PALETTE.iter().position(|&k| k == v));
            let Some(code) = code else {
                return Err(ParseError(format!(
                    "pixel ({x}, {y}), the centre of cell ({r}, {c}), is {colour:02x?}: none of \
                     the legend's colours"
                )));
            };
            let code = code as u8;
            if code == START || code == GOAL {
                let slot = &mut ends[usize::from(code == GOAL)];
                if slot.is_some() {
                    return Err(ParseError(format!(
                        "cell ({r}, {c}) is a second {}",
                        if code == START { "start" } else { "goal" }
                    )));
                }
                *slot = Some((r, c));
            }
            p.open.push(code != WALL);
        }
    }
    let [Some(start), Some(goal)] = ends else {
        return Err(ParseError("the image has no start or no goal".into()));
    };
    p.start = start;
    p.goal = goal;
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::render::tests::puzzle;

    #[test]
    fn the_text_is_what_the_module_doc_shows_and_the_image_reads_back() {
        let p = puzzle(&["#..#", "S...", ".#.G"]);
        let (mut out, mut image) = (String::new(), Vec::new());
        render(&p, &mut out, &mut image);
        assert!(out.starts_with(
            "The grid is in the attached image: 3 rows and 4 columns of square cells, 16 x 16 \
             pixels each, row 0"
        ));
        assert_eq!(png_size(&image), Some((64, 48)));
        assert_eq!(parse(&out, &image), Ok(p));
    }

    #[test]
    fn cells_are_four_pixels_in_a_99_grid_and_one_past_400() {
        assert_eq!(cell_px(99, 99), 4);
        assert_eq!(cell_px(5, 5), 16);
        assert_eq!(cell_px(7, 1601), 1);
        assert_eq!(cell_px(401, 3), 1);
    }

    #[test]
    fn a_wrong_image_is_named() {
        let p = puzzle(&["#..#", "S...", ".#.G"]);
        let (mut out, mut image) = (String::new(), Vec::new());
        render(&p, &mut out, &mut image);
        let other = puzzle(&["#..#", "S...", ".#.G", "...."]);
        let (mut other_out, mut other_image) = (String::new(), Vec::new());
        render(&other, &mut other_out, &mut other_image);
        assert_eq!(
            parse(&out, &other_image).unwrap_err().0,
            "the image is 64 x 64 pixels, the text says 64 x 48"
        );
        assert!(parse(&out, b"not a png").unwrap_err().0.contains("no PNG"));
        let mut broken = image.clone();
        let last = broken.len() - 20;
        broken[last] ^= 0xff;
        assert!(
            parse(&out, &broken)
                .unwrap_err()
                .0
                .starts_with("the image does not decode")
        );
        let mut pixmap = tiny_skia::Pixmap::decode_png(&image).unwrap();
        pixmap.fill(tiny_skia::Color::from_rgba8(0x22, 0xaa, 0x22, 255));
        let green = pixmap.encode_png().unwrap();
        assert_eq!(
            parse(&out, &green).unwrap_err().0,
            "cell (0, 1) is a second start"
        );
        pixmap.fill(tiny_skia::Color::from_rgba8(1, 2, 3, 255));
        let odd = pixmap.encode_png().unwrap();
        assert!(
            parse(&out, &odd)
                .unwrap_err()
                .0
                .contains("none of the legend's colours")
        );
    }
}
