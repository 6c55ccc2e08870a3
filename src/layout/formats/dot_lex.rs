//! The DOT lexer: names, numerals, quoted and HTML strings, keywords, edge operators and
//! punctuation, with `//`, `/* */` and `#` comments skipped.
//!
//! Quoted strings follow Graphviz: `\"` is a quote, a backslash before a line break joins the
//! lines, every other backslash is kept as written, and `"a" + "b"` is one string. A `#` starts
//! a comment to the end of the line anywhere outside a string (Graphviz only skips lines that
//! start with one, but `#` cannot appear in a DOT token outside a string anyway).

use std::borrow::Cow;

use super::error::{GraphReadError, Source, quoted};

/// DOT's keywords (any case).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Keyword {
    /// `strict`.
    Strict,
    /// `graph`.
    Graph,
    /// `digraph`.
    Digraph,
    /// `subgraph`.
    Subgraph,
    /// `node`.
    Node,
    /// `edge`.
    Edge,
}

/// A DOT token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Token<'a> {
    /// A name, numeral or quoted string: an ID (borrowed unless it was unescaped or joined).
    Id(Cow<'a, str>),
    /// An HTML string `<...>`: an ID only attribute values may be.
    Html,
    /// A keyword.
    Keyword(Keyword),
    /// One of `{ } [ ] ; , = :`.
    Punct(u8),
    /// `->` (directed) or `--`.
    EdgeOp {
        /// Whether it is `->`.
        directed: bool,
    },
    /// The end of the file.
    End,
}

/// A token and its bytes `at..end` in the file.
#[derive(Clone, Debug)]
pub(super) struct Lexed<'a> {
    /// Offset of its first byte.
    pub at: usize,
    /// Offset after its last byte.
    pub end: usize,
    /// The token.
    pub token: Token<'a>,
}

/// Splits DOT text into tokens, with one token of look-ahead.
pub(super) struct Lexer<'a> {
    source: Source<'a>,
    pos: usize,
    peeked: Option<Lexed<'a>>,
}

/// Whether `c` may continue a DOT name (letters, digits, `_`, any non-ASCII character).
fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || !c.is_ascii()
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `source`.
    pub fn new(source: Source<'a>) -> Self {
        Self {
            source,
            pos: 0,
            peeked: None,
        }
    }

    /// The next token, without consuming it.
    pub fn peek(&mut self) -> Result<&Lexed<'a>, GraphReadError> {
        let t = match self.peeked.take() {
            Some(t) => t,
            None => self.lex()?,
        };
        Ok(self.peeked.insert(t))
    }

    /// The next token.
    pub fn next(&mut self) -> Result<Lexed<'a>, GraphReadError> {
        match self.peeked.take() {
            Some(t) => Ok(t),
            None => self.lex(),
        }
    }

    /// How an error shows `t`: its text quoted, or "end of file".
    pub fn found(&self, t: &Lexed<'_>) -> String {
        match t.token {
            Token::End => "end of file".to_string(),
            _ => quoted(&self.source.text[t.at..t.end]),
        }
    }

    /// An error at `t`, which is not what was `expected`.
    pub fn unexpected(&self, t: &Lexed<'_>, expected: impl Into<String>) -> GraphReadError {
        self.source.error(t.at, expected, self.found(t))
    }

    /// Skips blanks and comments.
    fn skip_blank(&mut self) -> Result<(), GraphReadError> {
        let text = self.source.text;
        loop {
            let rest = &text[self.pos..];
            let trimmed = rest.trim_start();
            self.pos += rest.len() - trimmed.len();
            if trimmed.starts_with("//") || trimmed.starts_with('#') {
                self.pos += trimmed.find('\n').unwrap_or(trimmed.len());
            } else if let Some(comment) = trimmed.strip_prefix("/*") {
                let Some(close) = comment.find("*/") else {
                    let expected = "the end `*/` of this comment";
                    return Err(self.source.error(self.pos, expected, "end of file"));
                };
                self.pos += close + 4;
            } else {
                return Ok(());
            }
        }
    }

    /// Lexes one token.
    fn lex(&mut self) -> Result<Lexed<'a>, GraphReadError> {
        self.skip_blank()?;
        let text = self.source.text;
        let at = self.pos;
        let bytes = text.as_bytes();
        let token = match bytes.get(at) {
            None => Token::End,
            Some(&b @ (b'{' | b'}' | b'[' | b']' | b';' | b',' | b'=' | b':')) => {
                self.pos += 1;
                Token::Punct(b)
            }
            Some(b'-') if matches!(bytes.get(at + 1), Some(b'-' | b'>')) => {
                self.pos += 2;
                Token::EdgeOp {
                    directed: bytes[at + 1] == b'>',
                }
            }
            Some(b'-' | b'.' | b'0'..=b'9') => Token::Id(Cow::Borrowed(self.numeral()?)),
            Some(b'"') => Token::Id(self.quoted_strings()?),
            Some(b'<') => self.html()?,
            Some(_) => {
                let c = text[at..].chars().next().unwrap_or_default();
                if !(c.is_alphabetic() || c == '_' || !c.is_ascii()) {
                    let found = quoted(&c.to_string());
                    return Err(self.source.error(at, "a DOT token", found));
                }
                let len = text[at..]
                    .find(|c| !is_name_char(c))
                    .unwrap_or(text.len() - at);
                self.pos += len;
                let name = &text[at..at + len];
                let keywords = [
                    ("strict", Keyword::Strict),
                    ("graph", Keyword::Graph),
                    ("digraph", Keyword::Digraph),
                    ("subgraph", Keyword::Subgraph),
                    ("node", Keyword::Node),
                    ("edge", Keyword::Edge),
                ];
                match keywords.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)) {
                    Some(&(_, keyword)) => Token::Keyword(keyword),
                    None => Token::Id(Cow::Borrowed(name)),
                }
            }
        };
        Ok(Lexed {
            at,
            end: self.pos,
            token,
        })
    }

    /// A numeral `-?(.DIGITS | DIGITS(.DIGITS?)?)` at the current position.
    fn numeral(&mut self) -> Result<&'a str, GraphReadError> {
        let text = self.source.text;
        let at = self.pos;
        let bytes = text.as_bytes();
        let start = at + usize::from(bytes[at] == b'-');
        let digits = |i: usize| i + bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        let whole = digits(start);
        let end = if bytes.get(whole) == Some(&b'.') {
            digits(whole + 1)
        } else {
            whole
        };
        // A digit before or after the point.
        if whole == start && end <= whole + 1 {
            let c = text[at..].chars().next().unwrap_or_default();
            return Err(self
                .source
                .error(at, "`--`, `->` or a number", quoted(&c.to_string())));
        }
        self.pos = end;
        Ok(&text[at..end])
    }

    /// A quoted string at the current position, and any `+ "..."` joined to it.
    fn quoted_strings(&mut self) -> Result<Cow<'a, str>, GraphReadError> {
        let mut joined = self.quoted_string()?;
        loop {
            let after = self.pos;
            self.skip_blank()?;
            if self.source.text.as_bytes().get(self.pos) != Some(&b'+') {
                self.pos = after;
                return Ok(joined);
            }
            self.pos += 1;
            self.skip_blank()?;
            if self.source.text.as_bytes().get(self.pos) != Some(&b'"') {
                let rest = &self.source.text[self.pos..];
                let found = match rest.chars().next() {
                    Some(c) => quoted(&c.to_string()),
                    None => "end of file".to_string(),
                };
                let expected = "a quoted string after `+`";
                return Err(self.source.error(self.pos, expected, found));
            }
            let next = self.quoted_string()?;
            joined.to_mut().push_str(&next);
        }
    }

    /// One quoted string at the current position (on its `"`), unescaped.
    fn quoted_string(&mut self) -> Result<Cow<'a, str>, GraphReadError> {
        let text = self.source.text;
        let bytes = text.as_bytes();
        let at = self.pos;
        let (mut i, mut piece) = (at + 1, at + 1);
        let mut owned: Option<String> = None;
        loop {
            match bytes.get(i) {
                None => return Err(self.source.error(at, "a closing `\"`", "end of file")),
                Some(b'"') => break,
                Some(b'\\') => {
                    let (len, with) = match (bytes.get(i + 1), bytes.get(i + 2)) {
                        (Some(b'"'), _) => (2, "\""),
                        (Some(b'\n'), _) => (2, ""),
                        (Some(b'\r'), Some(b'\n')) => (3, ""),
                        // `\\` stays as written and escapes nothing after it; so does any
                        // other backslash.
                        (Some(b'\\'), _) => {
                            i += 2;
                            continue;
                        }
                        _ => {
                            i += 1;
                            continue;
                        }
                    };
                    let s = owned.get_or_insert_with(String::new);
                    s.push_str(&text[piece..i]);
                    s.push_str(with);
                    i += len;
                    piece = i;
                }
                Some(_) => i += 1,
            }
        }
        self.pos = i + 1;
        Ok(match owned {
            Some(mut s) => {
                s.push_str(&text[piece..i]);
                Cow::Owned(s)
            }
            None => Cow::Borrowed(&text[at + 1..i]),
        })
    }

    /// An HTML string `<...>` (nested `<>` balanced) at the current position.
    fn html(&mut self) -> Result<Token<'a>, GraphReadError> {
        let bytes = self.source.text.as_bytes();
        let at = self.pos;
        let mut depth = 0usize;
        for (i, &b) in bytes.iter().enumerate().skip(at) {
            match b {
                b'<' => depth += 1,
                b'>' => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos = i + 1;
                        return Ok(Token::Html);
                    }
                }
                _ => {}
            }
        }
        Err(self.source.error(at, "a closing `>`", "end of file"))
    }
}
