//! The Lua lexer of the demirogue import (see [`super`]): names, numbers, strings with Lua's
//! escapes, long brackets and comments, each token with its line and column.

use super::fault::Fault;
use crate::grammar::rule::Pos;

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Token {
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Assign,
    Comma,
    Semicolon,
    Minus,
    Number(f64),
    Str(String),
    Name(String),
    Eof,
}

impl Token {
    /// The token as a message names it.
    pub(super) fn describe(&self) -> String {
        match self {
            Token::LBrace => "`{`".into(),
            Token::RBrace => "`}`".into(),
            Token::LBracket => "`[`".into(),
            Token::RBracket => "`]`".into(),
            Token::Assign => "`=`".into(),
            Token::Comma => "`,`".into(),
            Token::Semicolon => "`;`".into(),
            Token::Minus => "`-`".into(),
            Token::Number(_) => "a number".into(),
            Token::Str(_) => "a string".into(),
            Token::Name(n) => format!("`{n}`"),
            Token::Eof => "the end of the file".into(),
        }
    }
}

/// Lua's reserved words: none is a bare key.
pub(super) const KEYWORDS: [&str; 22] = [
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
    "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
];

/// Splits the text into tokens, tracking 1-based lines and columns (columns count characters).
pub(super) struct Lexer<'t> {
    bytes: &'t [u8],
    i: usize,
    line: u32,
    col: u32,
}

impl<'t> Lexer<'t> {
    pub(super) fn new(text: &'t str) -> Self {
        Self {
            bytes: text.as_bytes(),
            i: 0,
            line: 1,
            col: 1,
        }
    }

    fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            col: self.col,
        }
    }

    fn peek(&self, ahead: usize) -> Option<u8> {
        self.bytes.get(self.i + ahead).copied()
    }

    /// Moves past one byte, keeping the line and column.
    fn bump(&mut self) -> Option<u8> {
        let b = self.peek(0)?;
        self.i += 1;
        if b == b'\n' {
            self.line = self.line.saturating_add(1);
            self.col = 1;
        } else if b & 0xC0 != 0x80 {
            // NOTE: UTF-8 continuation bytes do not start a character, so they add no column.
            self.col = self.col.saturating_add(1);
        }
        Some(b)
    }

    /// The next token and where it starts.
    pub(super) fn next(&mut self) -> Result<(Token, Pos), Fault> {
        self.skip_trivia()?;
        let at = self.pos();
        let Some(b) = self.peek(0) else {
            return Ok((Token::Eof, at));
        };
        let token = match b {
            b'{' | b'}' | b']' | b'=' | b',' | b';' | b'-' => {
                self.bump();
                match b {
                    b'{' => Token::LBrace,
                    b'}' => Token::RBrace,
                    b']' => Token::RBracket,
                    b'=' => Token::Assign,
                    b',' => Token::Comma,
                    b';' => Token::Semicolon,
                    _ => Token::Minus,
                }
            }
            b'[' => match self.long_bracket_level() {
                Some(level) => {
                    let text = self.long_bracket(level, at, "string")?;
                    Token::Str(utf8(text, at)?)
                }
                None => {
                    self.bump();
                    Token::LBracket
                }
            },
            b'"' | b'\'' => self.string(b, at)?,
            b'0'..=b'9' => self.number(at)?,
            b'.' if self.peek(1).is_some_and(|c| c.is_ascii_digit()) => self.number(at)?,
            b if b.is_ascii_alphabetic() || b == b'_' => {
                let start = self.i;
                while self
                    .peek(0)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
                {
                    self.bump();
                }
                Token::Name(String::from_utf8_lossy(&self.bytes[start..self.i]).into_owned())
            }
            _ => {
                let c = self.rest_char();
                return Err(Fault::new(
                    at,
                    format!("unexpected character `{}`", c.escape_debug()),
                ));
            }
        };
        Ok((token, at))
    }

    /// The character starting at the current byte.
    fn rest_char(&self) -> char {
        let end = (self.i + 4).min(self.bytes.len());
        let chunk = &self.bytes[self.i..end];
        let valid = match std::str::from_utf8(chunk) {
            Ok(s) => s,
            // The text is a `&str`, so the prefix up to the error is whole characters.
            Err(e) => std::str::from_utf8(&chunk[..e.valid_up_to()]).unwrap_or(""),
        };
        valid.chars().next().unwrap_or('\u{FFFD}')
    }

    /// Skips white space and comments.
    fn skip_trivia(&mut self) -> Result<(), Fault> {
        loop {
            match self.peek(0) {
                Some(b) if b.is_ascii_whitespace() || b == 0x0B => {
                    self.bump();
                }
                Some(b'-') if self.peek(1) == Some(b'-') => {
                    let at = self.pos();
                    self.bump();
                    self.bump();
                    if let Some(level) = self.long_bracket_level() {
                        self.long_bracket(level, at, "comment")?;
                    } else {
                        while self.peek(0).is_some_and(|b| b != b'\n') {
                            self.bump();
                        }
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    /// At `[`: the level of a long bracket opening here (`[[` is 0, `[==[` is 2), if one does.
    fn long_bracket_level(&self) -> Option<usize> {
        if self.peek(0) != Some(b'[') {
            return None;
        }
        let level = self.bytes[self.i + 1..]
            .iter()
            .take_while(|&&b| b == b'=')
            .count();
        (self.peek(1 + level) == Some(b'[')).then_some(level)
    }

    /// Reads a long bracket of `level` opening here and returns its content (without a first
    /// newline, as Lua does).
    fn long_bracket(&mut self, level: usize, at: Pos, what: &str) -> Result<Vec<u8>, Fault> {
        for _ in 0..level + 2 {
            self.bump();
        }
        if self.peek(0) == Some(b'\r') {
            self.bump();
        }
        if self.peek(0) == Some(b'\n') {
            self.bump();
        }
        let start = self.i;
        loop {
            match self.peek(0) {
                None => {
                    let close = format!("]{}]", "=".repeat(level));
                    return Err(Fault::new(
                        at,
                        format!(
                            "unfinished long {what}: expected `{close}` before the end of the file"
                        ),
                    ));
                }
                Some(b']')
                    if self.bytes[self.i + 1..]
                        .iter()
                        .take_while(|&&b| b == b'=')
                        .count()
                        == level
                        && self.peek(1 + level) == Some(b']') =>
                {
                    let content = self.bytes[start..self.i].to_vec();
                    for _ in 0..level + 2 {
                        self.bump();
                    }
                    return Ok(content);
                }
                Some(_) => {
                    self.bump();
                }
            }
        }
    }

    /// Reads a numeral: decimal with optional fraction and exponent, or hexadecimal integer.
    fn number(&mut self, at: Pos) -> Result<Token, Fault> {
        let start = self.i;
        let hex = self.peek(0) == Some(b'0') && matches!(self.peek(1), Some(b'x' | b'X'));
        // Like Lua, read every character that may continue a numeral, then judge the whole.
        while let Some(b) = self.peek(0) {
            if !hex && matches!(b, b'e' | b'E') && matches!(self.peek(1), Some(b'+' | b'-')) {
                self.bump();
                self.bump();
            } else if b.is_ascii_alphanumeric() || b == b'.' || b == b'_' {
                self.bump();
            } else {
                break;
            }
        }
        let text = String::from_utf8_lossy(&self.bytes[start..self.i]);
        let value = if hex {
            u64::from_str_radix(&text[2..], 16).ok().map(|n| n as f64)
        } else {
            text.parse::<f64>().ok()
        };
        match value {
            Some(n) => Ok(Token::Number(n)),
            None => Err(Fault::new(at, format!("malformed number `{text}`"))),
        }
    }

    /// Reads a string in `quote`s, decoding escapes.
    fn string(&mut self, quote: u8, at: Pos) -> Result<Token, Fault> {
        self.bump();
        let mut out = Vec::new();
        loop {
            match self.peek(0) {
                None | Some(b'\n') => {
                    return Err(Fault::new(
                        at,
                        format!(
                            "unfinished string: expected a closing `{}` on the same line",
                            quote as char
                        ),
                    ));
                }
                Some(b) if b == quote => {
                    self.bump();
                    return Ok(Token::Str(utf8(out, at)?));
                }
                Some(b'\\') => self.escape(&mut out)?,
                Some(b) => {
                    self.bump();
                    out.push(b);
                }
            }
        }
    }

    /// Decodes the escape sequence starting at the backslash here into `out`.
    fn escape(&mut self, out: &mut Vec<u8>) -> Result<(), Fault> {
        let at = self.pos();
        self.bump();
        let bad = |what: &str| Fault::new(at, format!("invalid escape sequence: {what}"));
        let Some(b) = self.bump() else {
            return Err(bad("expected a character after `\\`"));
        };
        let simple = match b {
            b'n' | b'\n' => Some(b'\n'),
            b't' => Some(b'\t'),
            b'r' => Some(b'\r'),
            b'a' => Some(0x07),
            b'b' => Some(0x08),
            b'f' => Some(0x0C),
            b'v' => Some(0x0B),
            b'\\' | b'"' | b'\'' => Some(b),
            _ => None,
        };
        if let Some(c) = simple {
            out.push(c);
            return Ok(());
        }
        match b {
            b'\r' => {
                if self.peek(0) == Some(b'\n') {
                    self.bump();
                }
                out.push(b'\n');
            }
            b'z' => {
                while self.peek(0).is_some_and(|c| c.is_ascii_whitespace()) {
                    self.bump();
                }
            }
            b'x' => {
                let digits = self.take_while_max(2, |c| c.is_ascii_hexdigit());
                let value = (digits.len() == 2)
                    .then(|| u8::from_str_radix(&digits, 16).ok())
                    .flatten()
                    .ok_or_else(|| bad("`\\x` needs two hexadecimal digits"))?;
                out.push(value);
            }
            b'0'..=b'9' => {
                let mut digits = (b as char).to_string();
                digits.push_str(&self.take_while_max(2, |c| c.is_ascii_digit()));
                let value = digits
                    .parse::<u8>()
                    .map_err(|_| bad("a decimal escape must be at most 255"))?;
                out.push(value);
            }
            b'u' => {
                let c = self.unicode_escape().ok_or_else(|| {
                    bad("expected `\\u{XXXX}` with the hexadecimal code of a Unicode character")
                })?;
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
            _ => {
                let shown = if b.is_ascii_graphic() {
                    format!("`\\{}`", b as char)
                } else {
                    "a backslash before an unexpected character".to_string()
                };
                return Err(bad(&shown));
            }
        }
        Ok(())
    }

    /// After `\u`: reads `{hex}` and returns its character.
    fn unicode_escape(&mut self) -> Option<char> {
        if self.peek(0) != Some(b'{') {
            return None;
        }
        self.bump();
        let digits = self.take_while_max(8, |c| c.is_ascii_hexdigit());
        if self.peek(0) != Some(b'}') {
            return None;
        }
        self.bump();
        u32::from_str_radix(&digits, 16)
            .ok()
            .and_then(char::from_u32)
    }

    /// Up to `max` bytes accepted by `keep`, as text.
    fn take_while_max(&mut self, max: usize, keep: impl Fn(u8) -> bool) -> String {
        let mut s = String::new();
        while s.len() < max
            && let Some(c) = self.peek(0).filter(|&c| keep(c))
        {
            self.bump();
            s.push(c as char);
        }
        s
    }
}

/// String bytes as text (escapes can make bytes that are not UTF-8).
fn utf8(bytes: Vec<u8>, at: Pos) -> Result<String, Fault> {
    String::from_utf8(bytes)
        .map_err(|_| Fault::new(at, "the string's escapes do not make valid UTF-8 text"))
}
