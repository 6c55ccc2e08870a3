//! Strict readers of model answers for the graph tasks: a JSON object mapping ids to integers,
//! a JSON list of integers, and a walk of vertex ids. Each reads untrusted text in one pass
//! (time linear in its length, no recursion, no allocation beyond the `n` values it fills) and
//! says `false` on anything else: no surrounding prose, no code fences, no signs, no fractions,
//! no leading zeros, no duplicate or missing ids.

/// A cursor over the answer's bytes.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            bytes: text.as_bytes(),
            at: 0,
        }
    }

    /// Skips JSON whitespace.
    fn blank(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    /// Skips whitespace, then takes `byte` if it is next.
    fn take(&mut self, byte: u8) -> bool {
        self.blank();
        if self.bytes.get(self.at) == Some(&byte) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// A canonical decimal number (`0`, or digits not starting with `0`), at most 9 digits.
    fn number(&mut self) -> Option<u32> {
        let start = self.at;
        let mut value = 0u32;
        while let Some(&b) = self.bytes.get(self.at) {
            if !b.is_ascii_digit() {
                break;
            }
            if self.at - start == 9 {
                return None;
            }
            value = value * 10 + u32::from(b - b'0');
            self.at += 1;
        }
        let digits = self.at - start;
        (digits == 1 || (digits > 1 && self.bytes[start] != b'0')).then_some(value)
    }

    /// An id key: a number, bare or in double quotes.
    fn key(&mut self) -> Option<u32> {
        self.blank();
        if self.take(b'"') {
            let v = self.number()?;
            (self.bytes.get(self.at) == Some(&b'"')).then(|| {
                self.at += 1;
                v
            })
        } else {
            self.number()
        }
    }

    /// Whether only whitespace is left.
    fn done(&mut self) -> bool {
        self.blank();
        self.at == self.bytes.len()
    }
}

/// Reads a `graph-color` ground truth written in exactly the layout its task writes,
/// `{"task":"graph-color","n":N,"k":K,"edges":[[a,b],...]}`, into `edges` (replaced); returns
/// `(n, k)`, or `None` for any other text (the scorer then reads it as general JSON). The
/// scorer's fast path: one pass, no allocation once `edges` is warm.
pub fn read_graph_truth(text: &str, edges: &mut Vec<[u32; 2]>) -> Option<(u32, u32)> {
    edges.clear();
    let rest = text.strip_prefix("{\"task\":\"graph-color\",\"n\":")?;
    let mut c = Cursor::new(rest);
    let lit = |c: &mut Cursor<'_>, s: &[u8]| s.iter().all(|&b| c.take(b));
    let n = c.number()?;
    if !lit(&mut c, b",\"k\":") {
        return None;
    }
    let k = c.number()?;
    if !lit(&mut c, b",\"edges\":[") {
        return None;
    }
    if !c.take(b']') {
        loop {
            if !c.take(b'[') {
                return None;
            }
            c.blank();
            let a = c.number()?;
            if !c.take(b',') {
                return None;
            }
            c.blank();
            let b = c.number()?;
            if !c.take(b']') {
                return None;
            }
            edges.push([a, b]);
            if c.take(b']') {
                break;
            }
            if !c.take(b',') {
                return None;
            }
        }
    }
    (c.take(b'}') && c.done()).then_some((n, k))
}

/// Reads `text` as a JSON object that maps every id `0..n` exactly once (keys `"7"` or `7`) to
/// an integer in `1..=max`, into `out` (`out[id]`, resized to `n`). `false` for anything else.
///
/// # Runtime
/// O(length of `text` + n); no allocation once `out` holds `n` values.
pub fn read_id_map(text: &str, n: usize, max: u32, out: &mut Vec<u32>) -> bool {
    out.clear();
    out.resize(n, 0);
    let mut c = Cursor::new(text);
    if !c.take(b'{') {
        return false;
    }
    if c.take(b'}') {
        return n == 0 && c.done();
    }
    let mut seen = 0usize;
    loop {
        let Some(id) = c.key() else { return false };
        let Some(slot) = out.get_mut(id as usize) else {
            return false;
        };
        if *slot != 0 || !c.take(b':') {
            return false;
        }
        c.blank();
        match c.number() {
            Some(v) if (1..=max).contains(&v) => *slot = v,
            _ => return false,
        }
        seen += 1;
        if c.take(b'}') {
            return seen == n && c.done();
        }
        if !c.take(b',') {
            return false;
        }
    }
}

/// Reads `text` as a JSON list of exactly `n` integers, each in `1..=max`, into `out`. `false`
/// for anything else.
///
/// # Runtime
/// O(length of `text` + n); no allocation once `out` holds `n` values.
pub fn read_list(text: &str, n: usize, max: u32, out: &mut Vec<u32>) -> bool {
    out.clear();
    let mut c = Cursor::new(text);
    if !c.take(b'[') {
        return false;
    }
    if c.take(b']') {
        return n == 0 && c.done();
    }
    loop {
        c.blank();
        match c.number() {
            Some(v) if (1..=max).contains(&v) && out.len() < n => out.push(v),
            _ => return false,
        }
        if c.take(b']') {
            return out.len() == n && c.done();
        }
        if !c.take(b',') {
            return false;
        }
    }
}

/// Reads `text` as a walk: vertex ids below `n`, separated by whitespace and/or commas, the
/// whole optionally in square brackets, at most `most` of them, into `out`. `false` for
/// anything else (an empty walk included).
///
/// # Runtime
/// O(length of `text`); no allocation once `out` holds `most` values.
pub fn read_walk(text: &str, n: u32, most: usize, out: &mut Vec<u32>) -> bool {
    out.clear();
    let mut c = Cursor::new(text);
    let bracketed = c.take(b'[');
    loop {
        while let Some(b' ' | b'\t' | b'\n' | b'\r' | b',') = c.bytes.get(c.at) {
            c.at += 1;
        }
        match c.bytes.get(c.at) {
            None => return !bracketed && !out.is_empty(),
            Some(b']') if bracketed => {
                c.at += 1;
                return !out.is_empty() && c.done();
            }
            Some(_) => match c.number() {
                Some(v) if v < n && out.len() < most => out.push(v),
                _ => return false,
            },
        }
        // Ids must be separated: a digit run ends at a separator, a bracket or the end.
        if !matches!(
            c.bytes.get(c.at),
            None | Some(b' ' | b'\t' | b'\n' | b'\r' | b',' | b']')
        ) {
            return false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_maps_take_string_or_number_keys_once_each() {
        let mut out = Vec::new();
        assert!(read_id_map(r#"{"0": 1, "1": 2, "2": 3}"#, 3, 3, &mut out));
        assert_eq!(out, [1, 2, 3]);
        assert!(read_id_map("\n{2:1,0:2 , \"1\" :3}\n", 3, 3, &mut out));
        assert_eq!(out, [2, 3, 1]);
        assert!(read_id_map("{}", 0, 3, &mut out));
        for bad in [
            r#"{"0": 1, "1": 2}"#,
            r#"{"0": 1, "1": 2, "2": 4}"#,
            r#"{"0": 1, "1": 2, "2": 0}"#,
            r#"{"0": 1, "1": 2, "2": -1}"#,
            r#"{"0": 1, "1": 2, "2": 1.0}"#,
            r#"{"0": 1, "1": 2, "2": "1"}"#,
            r#"{"0": 1, "1": 2, "1": 1}"#,
            r#"{"0": 1, "1": 2, "3": 1}"#,
            r#"{"00": 1, "1": 2, "2": 1}"#,
            r#"{"0": 1, "1": 2, "2": 01}"#,
            r#"{"0": 1, "1": 2, "2": 1,}"#,
            r#"{"0": 1, "1": 2, "2": 1} extra"#,
            r#"{"0": 1, "1": 2, "2": 99999999999999999999}"#,
            r#"{"0": [1], "1": 2, "2": 1}"#,
            r#"Answer: {"0": 1, "1": 2, "2": 3}"#,
            r#"{"0": 1 "1": 2, "2": 3}"#,
            "{",
            "",
            "{}",
        ] {
            assert!(!read_id_map(bad, 3, 3, &mut out), "{bad}");
        }
    }

    #[test]
    fn lists_hold_exactly_n_values_in_range() {
        let mut out = Vec::new();
        assert!(read_list("[1, 3,2 ]", 3, 3, &mut out));
        assert_eq!(out, [1, 3, 2]);
        for bad in [
            "[1, 3]",
            "[1, 3, 2, 1]",
            "[1, 3, 4]",
            "[1,,3,2]",
            "1, 3, 2",
            "[1, 3, 2",
        ] {
            assert!(!read_list(bad, 3, 3, &mut out), "{bad}");
        }
    }

    #[test]
    fn walks_are_ids_with_separators() {
        let mut out = Vec::new();
        assert!(read_walk("0 1 2 0", 3, 10, &mut out));
        assert_eq!(out, [0, 1, 2, 0]);
        assert!(read_walk("[0, 1,2]\n", 3, 10, &mut out));
        assert_eq!(out, [0, 1, 2]);
        for bad in [
            "",
            "[]",
            "0 3",
            "0 1 2 0 1",
            "0-1",
            "0 1]",
            "[0 1",
            "0 -> 1",
            "a",
            "0x1",
        ] {
            assert!(!read_walk(bad, 3, 4, &mut out), "{bad}");
        }
    }
}
