//! A small strict JSON parser (RFC 8259) whose value tree keeps the byte offset of every value
//! and key, so that the map inputs can point at the place of a *semantic* error (an unknown room
//! id, a template that cannot have a door) and not only at syntax errors.
//!
//! Strict: no comments, no trailing commas, no leading zeros, no `NaN`; escapes include
//! `\uXXXX` with surrogate pairs (an unpaired surrogate is an error); a key may appear only once
//! per object. A leading byte-order mark is skipped. Nesting is limited to [`MAX_DEPTH`] arrays
//! and objects so that hostile input cannot overflow the stack, and no input makes it panic.

use std::collections::HashSet;

/// Arrays and objects nested deeper than this are an error.
pub(crate) const MAX_DEPTH: usize = 64;

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number (finite).
    Num(f64),
    /// A string, escapes resolved.
    Str(String),
    /// An array.
    Arr(Vec<Node>),
    /// An object's members in file order (keys unique).
    Obj(Vec<Member>),
}

/// A value and the byte offset where it starts.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Node {
    /// Byte offset of the value's first character.
    pub start: usize,
    /// The value.
    pub value: Json,
}

impl Node {
    /// The value as a `serde_json` value (an integral number within 2^53 as an integer).
    pub(crate) fn to_value(&self) -> serde_json::Value {
        use serde_json::Value;
        match &self.value {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Num(v) if v.fract() == 0.0 && v.abs() <= 9_007_199_254_740_992.0 => {
                Value::from(*v as i64)
            }
            Json::Num(v) => serde_json::Number::from_f64(*v).map_or(Value::Null, Value::Number),
            Json::Str(s) => Value::String(s.clone()),
            Json::Arr(items) => Value::Array(items.iter().map(Node::to_value).collect()),
            Json::Obj(members) => Value::Object(
                members
                    .iter()
                    .map(|m| (m.key.clone(), m.value.to_value()))
                    .collect(),
            ),
        }
    }
}

/// One member of an object.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Member {
    /// The key, escapes resolved.
    pub key: String,
    /// Byte offset of the key's opening quote.
    pub at: usize,
    /// The value.
    pub value: Node,
}

/// A syntax error: where, and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct JsonError {
    /// Byte offset of the error.
    pub offset: usize,
    /// What is wrong, e.g. "expected `,` or `]`".
    pub message: String,
}

impl Json {
    /// What kind of value this is, for "expected a string, found a number".
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Json::Null => "`null`",
            Json::Bool(_) => "a boolean",
            Json::Num(_) => "a number",
            Json::Str(_) => "a string",
            Json::Arr(_) => "an array",
            Json::Obj(_) => "an object",
        }
    }
}

impl Node {
    /// The error "expected {what}, found {kind}" at this value.
    pub(crate) fn expected(&self, what: &str) -> JsonError {
        JsonError {
            offset: self.start,
            message: format!("expected {what}, found {}", self.value.kind()),
        }
    }

    /// The members of this object under `keys`, in `keys` order (each at most once, as keys are
    /// unique); any other key is an error at the key. `what` names the object in errors
    /// ("a room").
    pub(crate) fn fields<const N: usize>(
        &self,
        keys: [&str; N],
        what: &str,
    ) -> Result<[Option<&Member>; N], JsonError> {
        let Json::Obj(members) = &self.value else {
            return Err(self.expected(&format!("{what} (an object)")));
        };
        let mut out = [None; N];
        for m in members {
            let Some(i) = keys.iter().position(|&k| k == m.key) else {
                let known: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
                let known = match known.split_last() {
                    Some((last, init)) if !init.is_empty() => {
                        format!("{} or {last}", init.join(", "))
                    }
                    _ => known.concat(),
                };
                return Err(JsonError {
                    offset: m.at,
                    message: format!("unknown key `{}` in {what} (expected {known})", m.key),
                });
            };
            out[i] = Some(m);
        }
        Ok(out)
    }
}

/// `s` with its control characters escaped (`\n`, `\u{1}`), so that a message that quotes it
/// stays on one line.
pub(crate) fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Parses `text` as one JSON value (surrounded by optional whitespace).
///
/// # Errors
/// The first syntax error, with its byte offset.
///
/// # Runtime
/// O(n) for n bytes; allocates the tree.
pub(crate) fn parse(text: &str) -> Result<Node, JsonError> {
    let mut p = Parser {
        text,
        bytes: text.as_bytes(),
        i: 0,
    };
    if text.starts_with('\u{feff}') {
        p.i = '\u{feff}'.len_utf8();
    }
    p.skip_ws();
    let node = p.value(0)?;
    p.skip_ws();
    if p.i < p.bytes.len() {
        return Err(p.error("expected the end of the file after the value"));
    }
    Ok(node)
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn error(&self, message: &str) -> JsonError {
        self.error_at(self.i, message)
    }

    fn error_at(&self, offset: usize, message: &str) -> JsonError {
        JsonError {
            offset,
            message: message.to_owned(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.i += 1;
        }
    }

    /// Consumes `b` (after whitespace) or fails with `message`.
    fn expect(&mut self, b: u8, message: &str) -> Result<(), JsonError> {
        self.skip_ws();
        if self.peek() == Some(b) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.error(message))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, JsonError> {
        let start = self.i;
        let value = match self.peek() {
            Some(b'{') => self.object(depth + 1)?,
            Some(b'[') => self.array(depth + 1)?,
            Some(b'"') => Json::Str(self.string()?),
            Some(b'-' | b'0'..=b'9') => Json::Num(self.number()?),
            Some(b't') => self.literal("true", Json::Bool(true))?,
            Some(b'f') => self.literal("false", Json::Bool(false))?,
            Some(b'n') => self.literal("null", Json::Null)?,
            Some(_) => return Err(self.error("expected a JSON value")),
            None => return Err(self.error("expected a JSON value, found the end of the file")),
        };
        Ok(Node { start, value })
    }

    fn literal(&mut self, word: &str, value: Json) -> Result<Json, JsonError> {
        if self.bytes[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(value)
        } else {
            Err(self.error("expected a JSON value (`true`, `false` and `null` are lowercase)"))
        }
    }

    fn enter(&self, depth: usize) -> Result<(), JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.error(&format!(
                "arrays and objects are nested more than {MAX_DEPTH} deep"
            )));
        }
        Ok(())
    }

    fn array(&mut self, depth: usize) -> Result<Json, JsonError> {
        self.enter(depth)?;
        self.i += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(Json::Arr(items));
        }
        loop {
            self.skip_ws();
            items.push(self.value(depth)?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(Json::Arr(items));
                }
                _ => return Err(self.error("expected `,` or `]`")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, JsonError> {
        self.enter(depth)?;
        self.i += 1;
        let mut members: Vec<Member> = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(Json::Obj(members));
        }
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a key (a string in double quotes)"));
            }
            let at = self.i;
            let key = self.string()?;
            // PERF: a hostile object with many keys must not cost quadratic time.
            let repeated = if members.len() < 16 {
                members.iter().any(|m| m.key == key)
            } else {
                if seen.is_empty() {
                    seen.extend(members.iter().map(|m| m.key.clone()));
                }
                !seen.insert(key.clone())
            };
            if repeated {
                return Err(self.error_at(at, &format!("key `{key}` appears twice in this object")));
            }
            self.expect(b':', "expected `:` after the key")?;
            self.skip_ws();
            let value = self.value(depth)?;
            members.push(Member { key, at, value });
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(Json::Obj(members));
                }
                _ => return Err(self.error("expected `,` or `}`")),
            }
        }
    }

    fn number(&mut self) -> Result<f64, JsonError> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => {
                self.i += 1;
                if let Some(b'0'..=b'9') = self.peek() {
                    return Err(self.error("a number cannot have a leading zero"));
                }
            }
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.error("expected a digit")),
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error("expected a digit after the decimal point"));
            }
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error("expected a digit in the exponent"));
            }
            self.digits();
        }
        // The slice is ASCII digits, signs, `.` and `e`: always valid for `f64::from_str`.
        match self.text[start..self.i].parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(self.error_at(start, "the number is out of range")),
        }
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.i += 1;
        }
    }

    fn string(&mut self) -> Result<String, JsonError> {
        let open = self.i;
        self.i += 1;
        let mut out = String::new();
        loop {
            // Copy the run of plain characters at once (it ends at an ASCII byte, so the slice
            // boundaries are character boundaries).
            let run = self.i;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.i += 1;
            }
            out.push_str(&self.text[run..self.i]);
            match self.peek() {
                None => return Err(self.error_at(open, "the string is not closed")),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => out.push(self.escape()?),
                Some(_) => {
                    return Err(self.error(
                        "a control character (such as a line break) in a string must be escaped",
                    ));
                }
            }
        }
    }

    /// The character of the escape at `self.i` (the backslash).
    fn escape(&mut self) -> Result<char, JsonError> {
        let at = self.i;
        self.i += 1;
        let c = match self.peek() {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                self.i += 1;
                return self.unicode_escape(at);
            }
            _ => {
                return Err(self.error_at(
                    at,
                    "invalid escape (expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)",
                ));
            }
        };
        self.i += 1;
        Ok(c)
    }

    /// The character of a `\uXXXX` escape (and its low surrogate's, for a high surrogate);
    /// `self.i` is just after the `u`, `at` at the backslash.
    fn unicode_escape(&mut self, at: usize) -> Result<char, JsonError> {
        let hi = self.hex4()?;
        let code = match hi {
            0xD800..=0xDBFF => {
                if !self.bytes[self.i..].starts_with(b"\\u") {
                    return Err(
                        self.error_at(at, "a high surrogate must be followed by \\uDC00-\\uDFFF")
                    );
                }
                let low_at = self.i;
                self.i += 2;
                let lo = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&lo) {
                    return Err(self.error_at(low_at, "expected a low surrogate (\\uDC00-\\uDFFF)"));
                }
                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
            }
            0xDC00..=0xDFFF => {
                return Err(self.error_at(at, "a low surrogate without a high surrogate before it"));
            }
            _ => hi,
        };
        char::from_u32(code).ok_or_else(|| self.error_at(at, "invalid \\u escape"))
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = match self.peek() {
                Some(b @ b'0'..=b'9') => b - b'0',
                Some(b @ b'a'..=b'f') => b - b'a' + 10,
                Some(b @ b'A'..=b'F') => b - b'A' + 10,
                _ => return Err(self.error("expected a hex digit (\\u takes four)")),
            };
            v = v * 16 + u32::from(d);
            self.i += 1;
        }
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn err(text: &str) -> (usize, String) {
        let e = parse(text).expect_err(text);
        (e.offset, e.message)
    }

    fn val(text: &str) -> Json {
        parse(text)
            .unwrap_or_else(|e| panic!("{text}: {e:?}"))
            .value
    }

    #[test]
    fn values_and_their_offsets() {
        let n = parse(" {\"a\": [1, -2.5e1, true, null], \"b\": \"x\"}").unwrap();
        assert_eq!(n.start, 1);
        let Json::Obj(m) = n.value else { panic!() };
        assert_eq!((m[0].key.as_str(), m[0].at, m[0].value.start), ("a", 2, 7));
        let Json::Arr(items) = &m[0].value.value else {
            panic!()
        };
        let starts: Vec<usize> = items.iter().map(|n| n.start).collect();
        assert_eq!(starts, [8, 11, 19, 25]);
        assert_eq!(items[1].value, Json::Num(-25.0));
        assert_eq!((m[1].at, m[1].value.start), (32, 37));
        assert_eq!(m[1].value.value, Json::Str("x".into()));
        assert_eq!(val("[]"), Json::Arr(vec![]));
        assert_eq!(val("{ }"), Json::Obj(vec![]));
        assert_eq!(val("\u{feff}0"), Json::Num(0.0));
    }

    #[test]
    fn escapes_and_surrogate_pairs() {
        assert_eq!(
            val(r#""a\"\\\/\b\f\n\r\t\u00e9\uD83D\uDE00é""#),
            Json::Str("a\"\\/\u{8}\u{c}\n\r\té😀é".into())
        );
        assert_eq!(err(r#""\uD83D""#).0, 1);
        assert_eq!(err(r#""\uD83Dx""#).0, 1);
        assert_eq!(
            err(r#"["\uD83D\u0041"]"#).1,
            "expected a low surrogate (\\uDC00-\\uDFFF)"
        );
        assert_eq!(
            err(r#""\uDE00""#).1,
            "a low surrogate without a high surrogate before it"
        );
        assert_eq!(
            err(r#""\u12G4""#),
            (5, "expected a hex digit (\\u takes four)".into())
        );
        assert_eq!(err(r#""\x""#).0, 1);
        assert_eq!(err("\"a\nb\"").0, 2);
        assert_eq!(err("  \"abc"), (2, "the string is not closed".into()));
    }

    #[test]
    fn strictness() {
        assert_eq!(err("[1, 2,]"), (6, "expected a JSON value".into()));
        assert_eq!(err("[1 2]"), (3, "expected `,` or `]`".into()));
        assert_eq!(
            err("{\"a\": 1,}"),
            (8, "expected a key (a string in double quotes)".into())
        );
        assert_eq!(err("{\"a\" 1}"), (5, "expected `:` after the key".into()));
        assert_eq!(
            err("{\"a\": 1 \"b\": 2}"),
            (8, "expected `,` or `}`".into())
        );
        assert_eq!(
            err("{\"a\": 1, \"a\": 2}"),
            (9, "key `a` appears twice in this object".into())
        );
        assert_eq!(err("// c\n1").0, 0);
        assert_eq!(
            err("1 2"),
            (2, "expected the end of the file after the value".into())
        );
        assert_eq!(err("01").1, "a number cannot have a leading zero");
        assert_eq!(err("1.").1, "expected a digit after the decimal point");
        assert_eq!(err("1e").1, "expected a digit in the exponent");
        assert_eq!(err("-").1, "expected a digit");
        assert_eq!(err("+1").1, "expected a JSON value");
        assert_eq!(err("1e999"), (0, "the number is out of range".into()));
        assert_eq!(err("NaN").0, 0);
        assert_eq!(err("True").0, 0);
        assert_eq!(err("nul").0, 0);
        assert_eq!(
            err("").1,
            "expected a JSON value, found the end of the file"
        );
        assert_eq!(val("-0.5E+2"), Json::Num(-50.0));
    }

    #[test]
    fn nesting_is_limited() {
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&ok).is_ok());
        let deep = "[".repeat(MAX_DEPTH + 1);
        assert_eq!(err(&deep).0, MAX_DEPTH);
        let hostile = "{\"a\":".repeat(100_000);
        assert!(parse(&hostile).is_err());
    }

    #[test]
    fn repeated_keys_are_found_in_large_objects() {
        let keys: Vec<String> = (0..50_000).map(|i| format!("\"k{i}\": {i}")).collect();
        let text = format!("{{{}}}", keys.join(", "));
        let Json::Obj(m) = val(&text) else { panic!() };
        assert_eq!(m.len(), 50_000);
        let repeated = format!("{{{}, \"k17\": 0}}", keys.join(", "));
        assert_eq!(
            err(&repeated),
            (
                text.len() + 1,
                "key `k17` appears twice in this object".into()
            )
        );
    }

    /// A valid file cut anywhere, or with one byte changed, parses or fails without a panic.
    #[test]
    fn truncations_and_mutations_never_panic() {
        let text = include_str!("../../data/map/edgar-paper.json");
        assert!(parse(text).is_ok());
        for cut in (0..text.len()).filter(|&c| text.is_char_boundary(c)) {
            let _ = parse(&text[..cut]);
        }
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mut bytes = text.as_bytes().to_vec();
            let i = (state % bytes.len() as u64) as usize;
            const BYTES: &[u8] = b"{}[],:\"\\u0123456789eE+-. \ntfn";
            bytes[i] = BYTES[(state >> 32) as usize % BYTES.len()];
            if let Ok(s) = std::str::from_utf8(&bytes) {
                let _ = parse(s);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let text = String::from_utf8_lossy(&bytes);
            let _ = parse(&text);
        }

        #[test]
        fn random_json_alphabet_never_panics(
            picks in proptest::collection::vec(0usize..24, 0..120)
        ) {
            const ALPHABET: [&str; 24] = [
                "{", "}", "[", "]", ",", ":", "\"", "\\", "u", "D83D", "DE00", "1", "-", ".",
                "e", "0", " ", "true", "null", "\"k\"", "\n", "é", "\\u", "\u{1}",
            ];
            let text: String = picks.iter().map(|&k| ALPHABET[k]).collect();
            let _ = parse(&text);
        }
    }
}
