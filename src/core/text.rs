//! Places in text files: [`Pos`] (1-based line and column, columns counted in characters) and
//! [`LineIndex`], byte offsets to places. Every reader that names a file, line and column in
//! its errors (profiles, DMG tables, rule files, level XML) shares them. And [`thousands`]:
//! counts as people read them, for every message that prints one.

use std::fmt;

/// A place in a file: line and column, both 1-based (0 for a place not in a file, such as a
/// rule built in code).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    /// Line, from 1.
    pub line: u32,
    /// Column in characters, from 1.
    pub col: u32,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

impl Pos {
    /// The place of byte `offset` in `text` (clamped to the text), for a single look-up; build a
    /// [`LineIndex`] for many.
    pub fn of(text: &str, offset: usize) -> Pos {
        LineIndex::new(text).pos(offset)
    }
}

/// Byte offsets to line and column, by binary search over the line starts.
#[derive(Clone, Debug)]
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    /// Indexes the line starts of `text`.
    pub fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Self { text, starts }
    }

    /// The place of byte `offset` (clamped to the text; an offset inside a character counts
    /// the bytes before it on its line).
    pub fn pos(&self, offset: usize) -> Pos {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let col = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        Pos {
            line: line as u32 + 1,
            col: col as u32 + 1,
        }
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The oracle: count lines and characters up to the offset.
    fn brute(text: &str, offset: usize) -> Pos {
        let (mut line, mut col) = (1, 1);
        for (i, c) in text.char_indices() {
            if i >= offset {
                break;
            }
            if c == '\n' {
                (line, col) = (line + 1, 1);
            } else {
                col += 1;
            }
        }
        Pos { line, col }
    }

    #[test]
    fn places_agree_with_counting_characters() {
        let text = "ab\ncé\n\nxyz";
        let index = LineIndex::new(text);
        for offset in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
            assert_eq!(index.pos(offset), brute(text, offset), "offset {offset}");
        }
        assert_eq!(Pos::of(text, 99), Pos { line: 4, col: 4 });
        assert_eq!(Pos::of(text, 5).to_string(), "2:3");
    }

    #[test]
    fn an_offset_inside_a_character_does_not_panic() {
        // 'é' is two bytes: offset 5 is inside it.
        let text = "ab\ncé";
        assert_eq!(Pos::of(text, 5), Pos { line: 2, col: 3 });
    }
}
