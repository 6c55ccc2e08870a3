//! The reader of a mask file (`map.mask`): one text line per row of tiles, `#` for a tile the
//! level may use and `.` for one it may not; every row as long as the first. Blank lines at
//! the end are ignored; lines may end in `\r\n`.

use std::path::Path;

use super::read::MapInputError;
use crate::core::files;
use crate::core::text::Pos;
use crate::floorplan::json::one_line;
use crate::floorplan::spec::Mask;

/// The largest mask side, in tiles.
pub const MAX_MASK_SIDE: u32 = 4096;

/// The mask in the file at `path`.
///
/// # Errors
/// The file cannot be read, or is not a mask ([`parse_mask`]).
pub fn load_mask(path: &str) -> Result<Mask, MapInputError> {
    let text = files::read_to_string(Path::new(path)).map_err(|error| MapInputError::Read {
        path: one_line(path),
        error,
    })?;
    parse_mask(&text, path)
}

/// The mask in `text` (from the file `origin`, for messages).
///
/// # Errors
/// A character other than `#` and `.`, rows of different lengths, no allowed tile, or a side
/// longer than [`MAX_MASK_SIDE`], at its line and column.
pub fn parse_mask(text: &str, origin: &str) -> Result<Mask, MapInputError> {
    let at = |line: usize, col: usize, message: String| MapInputError::At {
        origin: one_line(origin),
        pos: Pos {
            line: line as u32 + 1,
            col: col as u32 + 1,
        },
        message,
    };
    let text = text.trim_start_matches('\u{feff}');
    let rows: Vec<&str> = text
        .trim_end()
        .lines()
        .map(|l| l.trim_end_matches('\r'))
        .collect();
    if rows.is_empty() || rows[0].is_empty() {
        return Err(MapInputError::Whole {
            origin: one_line(origin),
            message: "the mask is empty (expected rows of `#` and `.`)".into(),
        });
    }
    let width = rows[0].chars().count();
    let mut allowed = Vec::with_capacity(width * rows.len());
    for (y, row) in rows.iter().enumerate() {
        let mut n = 0;
        for (x, c) in row.chars().enumerate() {
            match c {
                '#' => allowed.push(true),
                '.' => allowed.push(false),
                other => {
                    let message = format!(
                        "expected `#` (a tile the level may use) or `.` (one it may not), found \
                         `{}`",
                        other.escape_default()
                    );
                    return Err(at(y, x, message));
                }
            }
            n += 1;
        }
        if n != width {
            let message = format!("this row has {n} tiles, the first has {width}");
            return Err(at(y, n.min(width), message));
        }
    }
    let side = width.max(rows.len());
    if side > MAX_MASK_SIDE as usize {
        let message = format!(
            "the mask is {width} x {} tiles; at most {MAX_MASK_SIDE} a side",
            rows.len()
        );
        return Err(at(0, 0, message));
    }
    if !allowed.contains(&true) {
        return Err(at(0, 0, "the mask allows no tile (no `#`)".into()));
    }
    Ok(Mask {
        width: width as u32,
        height: rows.len() as u32,
        allowed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rows_of_hashes_and_dots() {
        let m = parse_mask("##.\r\n.##\n\n", "m.txt").unwrap();
        assert_eq!((m.width, m.height), (3, 2));
        assert_eq!(m.allowed, [true, true, false, false, true, true]);
        assert!(m.allows(1, 1) && !m.allows(2, 0) && !m.allows(3, 0) && !m.allows(-1, 0));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 512,
            ..proptest::prelude::ProptestConfig::default()
        })]

        /// Any text of mask characters and strays gives a mask whose rows are all as long as
        /// the first, or a one-line error naming the file.
        #[test]
        fn any_text_is_a_mask_or_a_one_line_error(
            text in "[#.\n\r x\u{feff}]{0,120}"
        ) {
            match parse_mask(&text, "m.txt") {
                Ok(m) => {
                    proptest::prop_assert_eq!(m.allowed.len(), (m.width * m.height) as usize);
                    proptest::prop_assert!(m.allowed.contains(&true));
                }
                Err(e) => {
                    let e = e.to_string();
                    proptest::prop_assert!(e.starts_with("m.txt") && !e.contains('\n'), "{}", e);
                }
            }
        }
    }

    #[test]
    fn errors_name_the_line_and_column() {
        for (text, want) in [
            ("##\n#x\n", "m.txt:2:2: expected `#`"),
            (
                "###\n##\n",
                "m.txt:2:3: this row has 2 tiles, the first has 3",
            ),
            (
                "##\n###\n",
                "m.txt:2:3: this row has 3 tiles, the first has 2",
            ),
            ("..\n..\n", "m.txt:1:1: the mask allows no tile"),
            ("\n\n", "m.txt: the mask is empty"),
        ] {
            let e = parse_mask(text, "m.txt").unwrap_err().to_string();
            assert!(e.starts_with(want), "{text:?}: {e}");
        }
    }
}
