//! What the renderings share: [`ParseError`], the sentence stating the grid's size, numbers
//! written without `fmt`, finding a rendering's first line inside a whole question, and
//! [`Cursor`], a reader of one line that names the line and byte where it found something
//! other than what it expected.

use std::fmt::Write;

/// Why a question could not be read back into a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(pub String);

/// Most cells a parsed grid may have (4096 x 4096): a question claiming more is refused before
/// anything is allocated for it.
pub const MAX_CELLS: u64 = 1 << 24;

/// The start of the sentence stating the grid's size (`coords`, `adjlist`).
pub const SIZE_START: &str = "The grid has ";

/// Writes the size sentence, `The grid has R rows and C columns, numbered from 0: ...`, without
/// a line break (each rendering ends the line with its own notation).
pub fn write_size(rows: u32, cols: u32, out: &mut String) {
    let _ = write!(
        out,
        "{SIZE_START}{rows} rows and {cols} columns, numbered from 0: row 0 is the top row and \
         column 0 the leftmost column."
    );
}

/// Appends `v` in decimal.
///
/// PERF: the renderings of a large grid write tens of thousands of numbers; `write!` through
/// the formatting machinery costs several times more per number.
#[inline]
pub fn push_u32(out: &mut String, mut v: u32) {
    let mut buf = [0u8; 10];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    for &d in &buf[i..] {
        out.push(char::from(d));
    }
}

/// Appends the cell `(r{sep}c)`.
#[inline]
pub fn push_cell(out: &mut String, (r, c): (u32, u32), sep: &str) {
    out.push('(');
    push_u32(out, r);
    out.push_str(sep);
    push_u32(out, c);
    out.push(')');
}

/// Reads the size sentence [`write_size`] wrote; refuses an empty grid and one of more than
/// [`MAX_CELLS`] cells.
pub fn read_size(cur: &mut Cursor<'_>) -> Result<(u32, u32), ParseError> {
    cur.expect(SIZE_START)?;
    let rows = cur.number()?;
    cur.expect(" rows and ")?;
    let cols = cur.number()?;
    cur.expect(
        " columns, numbered from 0: row 0 is the top row and column 0 the leftmost column.",
    )?;
    check_size(rows, cols).map_err(|e| cur.error(&e))?;
    Ok((rows, cols))
}

/// Refuses an empty grid and one of more than [`MAX_CELLS`] cells.
pub fn check_size(rows: u32, cols: u32) -> Result<(), String> {
    if rows == 0 || cols == 0 {
        return Err(format!("a grid of {rows} x {cols} cells has no cell"));
    }
    if u64::from(rows) * u64::from(cols) > MAX_CELLS {
        return Err(format!(
            "a grid of {rows} x {cols} cells is larger than {MAX_CELLS} cells"
        ));
    }
    Ok(())
}

/// The first line of `question` starting with `prefix`, with its number (1-based).
pub fn find_line<'q>(
    question: &'q str,
    prefix: &str,
    what: &str,
) -> Result<(usize, &'q str), ParseError> {
    question
        .lines()
        .enumerate()
        .find(|(_, l)| l.starts_with(prefix))
        .map(|(i, l)| (i + 1, l))
        .ok_or_else(|| ParseError(format!("no line starting {prefix:?} ({what})")))
}

/// The line after a rendering's last (number `last`, 1-based) must be blank or absent: the
/// rendering has no more lines than it wrote.
pub fn expect_block_end(question: &str, last: usize) -> Result<(), ParseError> {
    match question.lines().nth(last) {
        Some(l) if !l.is_empty() => Err(ParseError(format!(
            "line {}: expected a blank line after the grid, found {:?}",
            last + 1,
            snippet(l)
        ))),
        _ => Ok(()),
    }
}

/// The first characters of `s`, for an error message.
pub fn snippet(s: &str) -> String {
    let mut out: String = s.chars().take(24).collect();
    if out.len() < s.len() {
        out.push_str("...");
    }
    out
}

/// Reads a cell written `(r,c)` (`sep` = `","`) or `(r, c)` (`sep` = `", "`): whole token or
/// nothing.
pub fn cell_token(token: &str, sep: &str) -> Option<(u32, u32)> {
    let inner = token.strip_prefix('(')?.strip_suffix(')')?;
    let (r, c) = inner.split_once(sep)?;
    Some((digits(r)?, digits(c)?))
}

/// A decimal number of 1 to 9 digits (no sign: what the renderings write).
fn digits(s: &str) -> Option<u32> {
    (!s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// A reader of one line of a question.
pub struct Cursor<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `text`, line `line` (1-based) of the question.
    pub fn new(text: &'a str, line: usize) -> Self {
        Self { text, pos: 0, line }
    }

    /// What is left of the line.
    pub fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    /// An error at the cursor: `line L, byte B: message`.
    pub fn error(&self, message: &str) -> ParseError {
        ParseError(format!("line {}, byte {}: {message}", self.line, self.pos))
    }

    /// Reads `lit` if the line goes on with it.
    pub fn eat(&mut self, lit: &str) -> bool {
        let found = self.rest().starts_with(lit);
        if found {
            self.pos += lit.len();
        }
        found
    }

    /// Reads `lit`, or fails naming what was there.
    pub fn expect(&mut self, lit: &str) -> Result<(), ParseError> {
        if self.eat(lit) {
            return Ok(());
        }
        Err(self.error(&format!(
            "expected {:?}, found {:?}",
            snippet(lit),
            snippet(self.rest())
        )))
    }

    /// Reads a decimal number of 1 to 9 digits.
    pub fn number(&mut self) -> Result<u32, ParseError> {
        let len = self.rest().bytes().take_while(u8::is_ascii_digit).count();
        match digits(&self.rest()[..len]) {
            Some(v) => {
                self.pos += len;
                Ok(v)
            }
            None => Err(self.error(&format!(
                "expected a number of 1 to 9 digits, found {:?}",
                snippet(self.rest())
            ))),
        }
    }

    /// Reads a cell `(r, c)`, `sep` between its numbers, and checks it lies in a `rows x cols`
    /// grid.
    pub fn cell(&mut self, sep: &str, rows: u32, cols: u32) -> Result<(u32, u32), ParseError> {
        let at = self.pos;
        self.expect("(")?;
        let r = self.number()?;
        self.expect(sep)?;
        let c = self.number()?;
        self.expect(")")?;
        if r >= rows || c >= cols {
            self.pos = at;
            return Err(self.error(&format!(
                "cell ({r}, {c}) is outside the {rows} x {cols} grid"
            )));
        }
        Ok((r, c))
    }

    /// Succeeds when the line has been read to its end.
    pub fn end(&self) -> Result<(), ParseError> {
        if self.rest().is_empty() {
            return Ok(());
        }
        Err(self.error(&format!(
            "expected the end of the line, found {:?}",
            snippet(self.rest())
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_cells_are_written_in_decimal() {
        let mut s = String::new();
        for v in [0, 7, 10, 99, 1601, u32::MAX] {
            push_u32(&mut s, v);
            s.push(' ');
        }
        push_cell(&mut s, (12, 0), ", ");
        assert_eq!(s, "0 7 10 99 1601 4294967295 (12, 0)");
    }

    #[test]
    fn the_size_sentence_reads_back() {
        let mut s = String::new();
        write_size(7, 120, &mut s);
        let mut cur = Cursor::new(&s, 1);
        assert_eq!(read_size(&mut cur), Ok((7, 120)));
        assert!(cur.end().is_ok());
    }

    #[test]
    fn sizes_without_cells_or_past_the_limit_are_refused() {
        for (rows, cols) in [(0, 5), (5, 0), (5000, 5000)] {
            let mut s = String::new();
            write_size(rows, cols, &mut s);
            let e = read_size(&mut Cursor::new(&s, 3)).unwrap_err();
            assert!(e.0.starts_with("line 3, byte "), "{e}");
        }
    }

    #[test]
    fn cells_and_numbers_name_where_they_fail() {
        let mut cur = Cursor::new("(3, 4) (12, x)", 2);
        assert_eq!(cur.cell(", ", 5, 5), Ok((3, 4)));
        cur.expect(" ").unwrap();
        let e = cur.cell(", ", 20, 20).unwrap_err();
        assert_eq!(
            e.0,
            "line 2, byte 12: expected a number of 1 to 9 digits, found \"x)\""
        );
        let e = Cursor::new("(9, 9)", 1).cell(", ", 5, 5).unwrap_err();
        assert!(e.0.contains("outside the 5 x 5 grid"), "{e}");
        assert_eq!(
            Cursor::new("1234567890", 1).number().unwrap_err().0,
            "line 1, byte 0: expected a number of 1 to 9 digits, found \"1234567890\""
        );
    }

    #[test]
    fn cell_tokens_are_whole_or_nothing() {
        assert_eq!(cell_token("(1,20)", ","), Some((1, 20)));
        assert_eq!(cell_token("(1, 20)", ","), None);
        assert_eq!(cell_token("(+1,2)", ","), None);
        assert_eq!(cell_token("(1,2", ","), None);
        assert_eq!(cell_token("(1,2)x", ","), None);
    }

    #[test]
    fn a_block_ends_at_a_blank_line_or_the_end() {
        assert!(expect_block_end("a\nb\n\nc", 2).is_ok());
        assert!(expect_block_end("a\nb", 2).is_ok());
        let e = expect_block_end("a\nb\nc", 2).unwrap_err();
        assert_eq!(
            e.0,
            "line 3: expected a blank line after the grid, found \"c\""
        );
    }
}
