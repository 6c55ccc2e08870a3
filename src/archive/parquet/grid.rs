//! The grid column of a row group, encoded by hand: what parquet-rs would write for a
//! `FixedSizeList<FixedSizeList<u8, W>, H>` (dictionary-encoded cells, RLE levels, zstd pages),
//! at a small fraction of its cost.
//!
//! parquet-rs computes two levels per cell and hashes every cell into its dictionary: about 25
//! ns a cell, 100 µs per 65 x 65 maze, eight times what generating the maze costs. Here the
//! shape is fixed and the cells are bytes, so every part is cheap:
//! - repetition levels are one pattern per level (0 for its first cell, 1 for the first cell of
//!   each later grid row, 2 for the rest), computed once and bit-packed for every level;
//! - definition levels are all 2 (nothing is null): one RLE run per page;
//! - the dictionary is the cell codes present in the row group, found with a 256-entry table,
//!   and the cells are bit-packed indices into it (width 1 to 8 bits).
//!
//! Pages are Parquet data pages v1 (levels then values, the whole body zstd-compressed), each a
//! whole number of levels of about [`PAGE_CELLS`] cells; the dictionary page comes first.

use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::{CompressionCodec, Encoding, PageType};
use parquet::column::page::{CompressedPage, Page, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::errors::{ParquetError, Result};
use parquet::file::metadata::ColumnChunkMetaData;
use parquet::file::writer::{SerializedPageWriter, TrackedWrite};
use parquet::schema::types::ColumnDescriptor;

/// Cells per data page (about 1 MiB of values before packing, as parquet-rs's pages).
pub const PAGE_CELLS: usize = 1 << 20;

/// `value` as an unsigned LEB128 varint (the RLE hybrid's run headers).
fn varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// One RLE run of `count` copies of `value` (levels of bit width 2, one byte each).
fn rle_run(out: &mut Vec<u8>, count: u64, value: u8) {
    if count > 0 {
        varint(out, count << 1);
        out.push(value);
    }
}

/// The repetition level of each of one level's `h` x `w` cells: 0 for its first cell, 1 for
/// the first cell of each later row, 2 for the rest.
fn level_pattern(h: usize, w: usize) -> Vec<u8> {
    let mut levels = vec![2u8; h * w];
    for row in 0..h {
        levels[row * w] = u8::from(row > 0);
    }
    levels
}

/// The bit-packed repetition levels of whole pages: one level's `pattern` is 2 bits a cell,
/// so the packed bytes repeat every `period` levels (8 / gcd(cells, 8)); they are packed once
/// and copied.
struct PackedLevels {
    pattern: Vec<u8>,
    period: usize,
    bytes: Vec<u8>,
}

impl PackedLevels {
    fn new(pattern: Vec<u8>) -> Self {
        let period = 8 / gcd(pattern.len(), 8);
        let mut bytes = Vec::new();
        pack_levels(&mut bytes, &pattern, period);
        Self {
            pattern,
            period,
            bytes,
        }
    }

    /// Appends the levels of `times` grids as one bit-packed run of 2-bit values.
    ///
    /// Bit-packed, not RLE: a pattern of short runs as RLE runs (two bytes per run of one)
    /// made pyarrow read the grids at half the speed of its own files.
    fn append(&self, out: &mut Vec<u8>, times: usize) {
        let values = self.pattern.len() * times;
        varint(out, ((values.div_ceil(8) as u64) << 1) | 1);
        for _ in 0..times / self.period {
            out.extend_from_slice(&self.bytes);
        }
        pack_levels(out, &self.pattern, times % self.period);
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Appends `pattern` repeated `times` as 2-bit values, 8 to a group (the last padded).
fn pack_levels(out: &mut Vec<u8>, pattern: &[u8], times: usize) {
    let (mut acc, mut filled) = (0u16, 0u32);
    for _ in 0..times {
        for &level in pattern {
            acc |= u16::from(level) << (2 * filled);
            filled += 1;
            if filled == 8 {
                out.extend_from_slice(&acc.to_le_bytes());
                (acc, filled) = (0, 0);
            }
        }
    }
    if filled > 0 {
        out.extend_from_slice(&acc.to_le_bytes());
    }
}

/// The dictionary of `cells`: the codes present in increasing order, and each code's index.
fn dictionary<'a>(cells: impl Iterator<Item = &'a [u8]>) -> (Vec<u8>, [u8; 256]) {
    // PERF: codes below 64 (every kind's) set bits of one register, which the compiler
    // vectorises; a table store per cell cost 15% of a maze run.
    let mut seen = [0u64; 4];
    for grid in cells {
        let (mut low, mut high) = (0u64, 0u8);
        for &c in grid {
            low |= 1u64 << (c & 63);
            high |= c & !63;
        }
        if high == 0 {
            seen[0] |= low;
        } else {
            for &c in grid {
                seen[usize::from(c >> 6)] |= 1u64 << (c & 63);
            }
        }
    }
    let codes: Vec<u8> = (0..=255u8)
        .filter(|&c| seen[usize::from(c >> 6)] & (1u64 << (c & 63)) != 0)
        .collect();
    let mut index = [0u8; 256];
    for (i, &c) in codes.iter().enumerate() {
        index[c as usize] = i as u8;
    }
    (codes, index)
}

/// Bits per dictionary index for `n` entries: at least 1.
fn bit_width(n: usize) -> u8 {
    (usize::BITS - n.saturating_sub(1).leading_zeros()).max(1) as u8
}

/// Appends `cells` as one bit-packed run of dictionary indices of `bits` bits (groups of 8
/// cells, the last padded with zeros).
fn bit_packed(out: &mut Vec<u8>, grids: &[&[u8]], index: &[u8; 256], bits: u8) {
    let cells: usize = grids.iter().map(|g| g.len()).sum();
    let groups = cells.div_ceil(8);
    varint(out, ((groups as u64) << 1) | 1);
    out.reserve(groups * bits as usize);
    let (mut acc, mut filled) = (0u64, 0usize);
    let bits = u32::from(bits);
    // PERF: two codes 0 and 1 (every lattice maze) are their own indices: eight cells become
    // one byte with a multiply, 8x the table-and-shift loop below.
    let identity_bits = bits == 1 && index[1] == 1;
    let put = |out: &mut Vec<u8>, c: u8, acc: &mut u64, filled: &mut usize| {
        *acc |= u64::from(index[c as usize]) << (*filled as u32 * bits);
        *filled += 1;
        if *filled == 8 {
            out.extend_from_slice(&acc.to_le_bytes()[..bits as usize]);
            (*acc, *filled) = (0, 0);
        }
    };
    for grid in grids {
        let mut grid: &[u8] = grid;
        if identity_bits {
            // Complete the group the last grid left open, then eight cells a byte.
            while filled != 0 && !grid.is_empty() {
                put(out, grid[0], &mut acc, &mut filled);
                grid = &grid[1..];
            }
            let mut eights = grid.chunks_exact(8);
            for eight in &mut eights {
                let x = u64::from_le_bytes(eight.try_into().expect("8 bytes"));
                out.push((x.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8);
            }
            grid = eights.remainder();
        }
        for &c in grid {
            put(out, c, &mut acc, &mut filled);
        }
    }
    if filled > 0 {
        out.extend_from_slice(&acc.to_le_bytes()[..bits as usize]);
    }
}

/// `body` compressed with zstd at `level`.
fn compress(body: &[u8], level: i32) -> Result<Bytes> {
    zstd::bulk::compress(body, level)
        .map(Bytes::from)
        .map_err(|e| ParquetError::General(format!("zstd: {e}")))
}

/// Encodes the grids `grids` (each `h * w` cell codes, row-major) as the column chunk of
/// `descr` (a fixed-size list of `h` fixed-size lists of `w` `uint8`, nothing null): the
/// chunk's bytes and what `SerializedRowGroupWriter::append_column` needs to splice them in.
///
/// # Errors
/// Compression failed, or the shape is not one this encoding covers.
pub fn encode(
    descr: Arc<ColumnDescriptor>,
    grids: &[&[u8]],
    (h, w): (usize, usize),
    zstd_level: i32,
) -> Result<(Bytes, ColumnCloseResult)> {
    if descr.max_rep_level() != 2 || descr.max_def_level() != 2 || h == 0 || w == 0 {
        return Err(ParquetError::General(format!(
            "grid column {} is not two nested lists of required cells",
            descr.path()
        )));
    }
    let cells_per_grid = h * w;
    let (codes, index) = dictionary(grids.iter().copied());
    let bits = bit_width(codes.len());
    let levels = PackedLevels::new(level_pattern(h, w));
    let mut sink = TrackedWrite::new(Vec::new());
    let mut specs = Vec::new();
    {
        let mut pages = SerializedPageWriter::new(&mut sink);
        let plain: Vec<u8> = codes
            .iter()
            .flat_map(|&c| i32::from(c).to_le_bytes())
            .collect();
        let dict = Page::DictionaryPage {
            buf: compress(&plain, zstd_level)?,
            num_values: codes.len() as u32,
            encoding: Encoding::PLAIN,
            is_sorted: true,
        };
        specs.push(pages.write_page(CompressedPage::new(dict, plain.len()))?);
        let per_page = (PAGE_CELLS / cells_per_grid).max(1);
        let mut body = Vec::new();
        for page in grids.chunks(per_page) {
            let values = (page.len() * cells_per_grid) as u64;
            body.clear();
            let mut rep = Vec::with_capacity(8 + values as usize / 4);
            levels.append(&mut rep, page.len());
            body.extend_from_slice(&(rep.len() as u32).to_le_bytes());
            body.extend_from_slice(&rep);
            let mut def = Vec::with_capacity(12);
            rle_run(&mut def, values, 2);
            body.extend_from_slice(&(def.len() as u32).to_le_bytes());
            body.extend_from_slice(&def);
            body.push(bits);
            bit_packed(&mut body, page, &index, bits);
            let data = Page::DataPage {
                buf: compress(&body, zstd_level)?,
                num_values: u32::try_from(values).map_err(|_| {
                    ParquetError::General("a grid page holds over 4 billion cells".into())
                })?,
                encoding: Encoding::RLE_DICTIONARY,
                def_level_encoding: Encoding::RLE,
                rep_level_encoding: Encoding::RLE,
                statistics: None,
            };
            specs.push(pages.write_page(CompressedPage::new(data, body.len()))?);
        }
        pages.close()?;
    }
    let bytes = Bytes::from(sink.into_inner()?);
    let data_offset = specs
        .iter()
        .find(|s| s.page_type == PageType::DATA_PAGE)
        .map_or(0, |s| s.offset as i64);
    let values: u64 = (grids.len() * cells_per_grid) as u64;
    let metadata = ColumnChunkMetaData::builder(descr)
        .set_compression_codec(CompressionCodec::ZSTD)
        .set_encodings(vec![
            Encoding::PLAIN,
            Encoding::RLE,
            Encoding::RLE_DICTIONARY,
        ])
        .set_num_values(values as i64)
        .set_total_compressed_size(specs.iter().map(|s| s.compressed_size as i64).sum())
        .set_total_uncompressed_size(specs.iter().map(|s| s.uncompressed_size as i64).sum())
        .set_dictionary_page_offset(Some(0))
        .set_data_page_offset(data_offset)
        .build()?;
    let close = ColumnCloseResult {
        bytes_written: bytes.len() as u64,
        rows_written: grids.len() as u64,
        metadata,
        bloom_filter: None,
        column_index: None,
        offset_index: None,
    };
    Ok((bytes, close))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_and_widths_follow_the_format() {
        let mut out = Vec::new();
        varint(&mut out, 300);
        assert_eq!(out, [0xac, 0x02]);
        assert_eq!(
            [1, 2, 3, 4, 5, 16, 17, 256].map(bit_width),
            [1, 1, 2, 2, 3, 4, 5, 8]
        );
    }

    #[test]
    fn the_level_pattern_marks_each_rows_first_cell() {
        assert_eq!(level_pattern(2, 3), [0, 2, 2, 1, 2, 2]);
        assert_eq!(level_pattern(2, 1), [0, 1]);
        // Twice 0 2 2 1 2 2: 12 values in two groups of 8 (the last padded), 2 bits each, low
        // bits first.
        let mut out = Vec::new();
        PackedLevels::new(level_pattern(2, 3)).append(&mut out, 2);
        let first = 0b10_00_10_10_01_10_10_00u16;
        let second = 0b10_10_01_10u16;
        assert_eq!(out[0], 5);
        assert_eq!(
            out[1..],
            [first.to_le_bytes(), second.to_le_bytes()].concat()
        );
    }

    #[test]
    fn copied_level_periods_equal_levels_packed_one_by_one() {
        for (h, w) in [(2, 3), (65, 65), (4, 4), (3, 5)] {
            let levels = PackedLevels::new(level_pattern(h, w));
            for times in [1, 7, 8, 9, 23] {
                let mut fast = Vec::new();
                levels.append(&mut fast, times);
                let mut slow = Vec::new();
                varint(&mut slow, (((h * w * times).div_ceil(8) as u64) << 1) | 1);
                pack_levels(&mut slow, &level_pattern(h, w), times);
                assert_eq!(fast, slow, "{h}x{w} x {times}");
            }
        }
    }

    #[test]
    fn one_bit_cells_packed_eight_at_a_time_equal_the_table_loop() {
        let (_, index) = dictionary([&[0u8, 1][..]].into_iter());
        let grid: Vec<u8> = (0..61u32).map(|i| ((i * 7 + i / 3) % 2) as u8).collect();
        let grids = [&grid[..], &grid[..13], &grid[..]];
        let mut fast = Vec::new();
        bit_packed(&mut fast, &grids, &index, 1);
        // The same cells packed one by one.
        let mut slow = Vec::new();
        varint(&mut slow, ((135usize.div_ceil(8) as u64) << 1) | 1);
        let (mut acc, mut filled) = (0u8, 0);
        for &c in grids.iter().flat_map(|g| g.iter()) {
            acc |= c << filled;
            filled += 1;
            if filled == 8 {
                slow.push(acc);
                (acc, filled) = (0, 0);
            }
        }
        slow.push(acc);
        assert_eq!(fast, slow);
    }

    #[test]
    fn indices_are_packed_low_bits_first_in_groups_of_eight() {
        let (codes, index) = dictionary([&[7u8, 9, 7][..]].into_iter());
        assert_eq!(codes, [7, 9]);
        let (codes, _) = dictionary([&[200u8, 3][..], &[64, 3][..]].into_iter());
        assert_eq!(codes, [3, 64, 200]);
        let mut out = Vec::new();
        bit_packed(&mut out, &[&[7, 9, 7, 9, 9, 7, 7, 7, 9]], &index, 1);
        // Two groups (header 2 << 1 | 1), then 0b0001_1010 and 0b0000_0001.
        assert_eq!(out, [5, 0b0001_1010, 0b0000_0001]);
    }
}
