//! The grid every grid task is a view of: open and blocked cells with a start and a goal, as
//! renderings draw it and parsers read it back; its breadth-first distances; and the moves
//! (`up down left right`) a `maze-path` answer is made of.

/// A grid puzzle: `rows x cols` cells, row-major, each open (walkable) or blocked, with a start
/// and a goal given as `(row, col)`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GridPuzzle {
    /// Rows.
    pub rows: u32,
    /// Columns.
    pub cols: u32,
    /// `rows * cols` cells, row-major: `true` where a step may go.
    pub open: Vec<bool>,
    /// The start cell, `(row, col)`.
    pub start: (u32, u32),
    /// The goal cell, `(row, col)`.
    pub goal: (u32, u32),
}

/// "Not reached" in a distance field.
pub const UNREACHED: u32 = u32::MAX;

/// A move of one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// One row up.
    Up,
    /// One row down.
    Down,
    /// One column left.
    Left,
    /// One column right.
    Right,
}

impl Move {
    /// The four moves, in the order BFS expands neighbours.
    pub const ALL: [Move; 4] = [Move::Up, Move::Down, Move::Left, Move::Right];

    /// The move's word in answers.
    pub fn word(self) -> &'static str {
        match self {
            Move::Up => "up",
            Move::Down => "down",
            Move::Left => "left",
            Move::Right => "right",
        }
    }

    /// `(d_row, d_col)`.
    pub fn delta(self) -> (i64, i64) {
        match self {
            Move::Up => (-1, 0),
            Move::Down => (1, 0),
            Move::Left => (0, -1),
            Move::Right => (0, 1),
        }
    }

    /// The move called `word` (any case; `u d l r` and `n s w e` accepted too).
    pub fn from_word(word: &str) -> Option<Move> {
        let w = word.as_bytes();
        if w.len() > 5 {
            return None;
        }
        let mut buf = [0u8; 5];
        for (b, c) in buf.iter_mut().zip(w) {
            *b = c.to_ascii_lowercase();
        }
        match &buf[..w.len()] {
            b"up" | b"u" | b"n" | b"north" => Some(Move::Up),
            b"down" | b"d" | b"s" | b"south" => Some(Move::Down),
            b"left" | b"l" | b"w" | b"west" => Some(Move::Left),
            b"right" | b"r" | b"e" | b"east" => Some(Move::Right),
            _ => None,
        }
    }
}

impl GridPuzzle {
    /// The cell index of `(row, col)`.
    #[inline]
    pub fn index(&self, (r, c): (u32, u32)) -> usize {
        r as usize * self.cols as usize + c as usize
    }

    /// Whether `(row, col)` is inside the grid and open.
    #[inline]
    pub fn is_open(&self, r: i64, c: i64) -> bool {
        r >= 0
            && c >= 0
            && r < i64::from(self.rows)
            && c < i64::from(self.cols)
            && self.open[r as usize * self.cols as usize + c as usize]
    }

    /// Breadth-first distances from `from` into `dist` (one per cell, [`UNREACHED`] where no
    /// path goes), expanding no further than `limit` steps; `queue` is reusable scratch.
    /// Returns the largest distance reached.
    ///
    /// # Runtime
    /// O(cells reached), no allocation once the buffers are warm.
    pub fn distances_into(
        &self,
        from: (u32, u32),
        limit: u32,
        dist: &mut Vec<u32>,
        queue: &mut Vec<u32>,
    ) -> u32 {
        dist.clear();
        dist.resize(self.open.len(), UNREACHED);
        queue.clear();
        let cols = self.cols as usize;
        let s = self.index(from);
        dist[s] = 0;
        queue.push(s as u32);
        let mut head = 0;
        let mut far = 0;
        while head < queue.len() {
            let v = queue[head] as usize;
            head += 1;
            let d = dist[v];
            far = far.max(d);
            if d >= limit {
                continue;
            }
            let (r, c) = (v / cols, v % cols);
            let mut visit = |n: usize| {
                if self.open[n] && dist[n] == UNREACHED {
                    dist[n] = d + 1;
                    queue.push(n as u32);
                }
            };
            if r > 0 {
                visit(v - cols);
            }
            if r + 1 < self.rows as usize {
                visit(v + cols);
            }
            if c > 0 {
                visit(v - 1);
            }
            if c + 1 < cols {
                visit(v + 1);
            }
        }
        far
    }

    /// Steps on a shortest path from start to goal, or `None` when the goal cannot be reached.
    pub fn shortest(&self) -> Option<u32> {
        let (mut dist, mut queue) = (Vec::new(), Vec::new());
        self.distances_into(self.start, u32::MAX, &mut dist, &mut queue);
        Some(dist[self.index(self.goal)]).filter(|&d| d != UNREACHED)
    }

    /// One shortest path's moves from start to goal, written into `out` as words separated by
    /// single spaces, given `dist` (distances from the start, [`distances_into`]). Among equal
    /// ways the first move in [`Move::ALL`] order from the goal back is taken, so the answer is
    /// a function of the puzzle. Returns `false` when the goal is not reached.
    ///
    /// [`distances_into`]: Self::distances_into
    pub fn path_words(&self, dist: &[u32], moves: &mut Vec<Move>, out: &mut String) -> bool {
        moves.clear();
        let mut at = self.goal;
        let mut d = dist[self.index(at)];
        if d == UNREACHED {
            return false;
        }
        while d > 0 {
            let step = Move::ALL.into_iter().find_map(|m| {
                // Walk back: the cell we came from is at `at - delta`.
                let (dr, dc) = m.delta();
                let (r, c) = (i64::from(at.0) - dr, i64::from(at.1) - dc);
                (self.is_open(r, c) && dist[self.index((r as u32, c as u32))] == d - 1)
                    .then_some((m, (r as u32, c as u32)))
            });
            let Some((m, prev)) = step else {
                return false;
            };
            moves.push(m);
            at = prev;
            d -= 1;
        }
        out.clear();
        for (i, m) in moves.iter().rev().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(m.word());
        }
        true
    }

    /// The open cells as a hex string of bits, row-major, most significant bit first in each
    /// nibble (what ground truths carry: a 99 x 99 grid in 2,451 characters).
    pub fn open_hex(&self, out: &mut String) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        out.reserve(self.open.len().div_ceil(4));
        for chunk in self.open.chunks(4) {
            let mut v = 0usize;
            for (i, &o) in chunk.iter().enumerate() {
                if o {
                    v |= 8 >> i;
                }
            }
            out.push(HEX[v] as char);
        }
    }

    /// Reads [`open_hex`](Self::open_hex)'s string back into `open` for `cells` cells; `false`
    /// when it is not such a string.
    pub fn read_open_hex(hex: &str, cells: usize, open: &mut Vec<bool>) -> bool {
        if hex.len() != cells.div_ceil(4) {
            return false;
        }
        open.clear();
        open.reserve(cells);
        for b in hex.bytes() {
            let v = match b {
                b'0'..=b'9' => b - b'0',
                b'a'..=b'f' => b - b'a' + 10,
                _ => return false,
            };
            for i in 0..4 {
                if open.len() < cells {
                    open.push(v & (8 >> i) != 0);
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(rows: &[&str]) -> GridPuzzle {
        let mut p = GridPuzzle {
            rows: rows.len() as u32,
            cols: rows[0].len() as u32,
            ..GridPuzzle::default()
        };
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                p.open.push(ch != '#');
                if ch == 'S' {
                    p.start = (r as u32, c as u32);
                }
                if ch == 'G' {
                    p.goal = (r as u32, c as u32);
                }
            }
        }
        p
    }

    #[test]
    fn distances_and_a_shortest_path() {
        let p = puzzle(&["#####", "#S..#", "##.##", "#G..#", "#####"]);
        assert_eq!(p.shortest(), Some(4));
        let (mut dist, mut q, mut moves, mut out) = (vec![], vec![], vec![], String::new());
        p.distances_into(p.start, u32::MAX, &mut dist, &mut q);
        assert!(p.path_words(&dist, &mut moves, &mut out));
        assert_eq!(out, "right down down left");
    }

    #[test]
    fn an_unreachable_goal_has_no_distance() {
        let p = puzzle(&["#####", "#S#G#", "#####"]);
        assert_eq!(p.shortest(), None);
    }

    #[test]
    fn open_cells_round_trip_through_hex() {
        let p = puzzle(&["#####", "#S..#", "##.##", "#G..#", "####."]);
        let mut hex = String::new();
        p.open_hex(&mut hex);
        let mut back = Vec::new();
        assert!(GridPuzzle::read_open_hex(&hex, 25, &mut back));
        assert_eq!(back, p.open);
        assert!(!GridPuzzle::read_open_hex(&hex, 30, &mut back));
        assert!(!GridPuzzle::read_open_hex("zz", 5, &mut back));
    }

    #[test]
    fn moves_read_in_any_case_and_short_forms() {
        assert_eq!(Move::from_word("UP"), Some(Move::Up));
        assert_eq!(Move::from_word("e"), Some(Move::Right));
        assert_eq!(Move::from_word("upward"), None);
    }
}
